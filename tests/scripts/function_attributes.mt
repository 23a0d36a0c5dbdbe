# A function's own attributes, as CPython's: f.name = value, reading it back (through a method
# bound to the function too), getattr/hasattr/setattr/delattr, f.__dict__ and vars(f) (live),
# a decorator marking functions, the errors for names it does not have. The expectations are
# CPython's output for the same program.
def f():
    return 1
f.tag = 1
print(f.tag)
print(getattr(f, "tag", None), getattr(f, "other", None))
print(hasattr(f, "tag"), hasattr(f, "other"))
setattr(f, "other", [1, 2])
f.other.append(3)
print(f.other, f())
# expect: 1
# expect: 1 None
# expect: True False
# expect: [1, 2, 3] 1

print(f.__dict__)
print(vars(f))
print(vars(f) == {"tag": 1, "other": [1, 2, 3]}, "tag" in f.__dict__, len(vars(f)))
f.__dict__["more"] = "x"
print(f.more)
del f.tag
print(hasattr(f, "tag"), list(f.__dict__))
f.tag = 2
print(list(vars(f).items()))
print(f.__name__, f.__doc__)
# expect: {'tag': 1, 'other': [1, 2, 3]}
# expect: {'tag': 1, 'other': [1, 2, 3]}
# expect: True True 2
# expect: x
# expect: False ['other', 'more']
# expect: [('other', [1, 2, 3]), ('more', 'x'), ('tag', 2)]
# expect: f None

def g():
    """g's doc"""
print(g.__dict__, vars(g), hasattr(g, "tag"))
# expect: {} {} False

def mark(**kw):
    def deco(fn):
        for k, v in kw.items():
            setattr(fn, k, v)
        fn.calls = 0
        return fn
    return deco
@mark(slow=True, group="a")
def h(x):
    h.calls += 1
    return x * 2
print(h(3), h(4), h.calls, h.slow, h.group)
# expect: 6 8 2 True a

class C:
    def m(self):
        return 5
C.m.flag = "yes"
c = C()
print(c.m.flag, C.m.flag, getattr(c.m, "flag"), hasattr(c.m, "nope"))
# expect: yes yes yes False

def counter():
    counter.n = getattr(counter, "n", 0) + 1
    return counter.n
counter()
counter()
print(counter())
# expect: 3

def selfish():
    pass
selfish.me = selfish
print(selfish.me is selfish, selfish.me.me is selfish)
# expect: True True

def t(fn):
    try:
        fn()
    except Exception as e:
        print(type(e).__name__ + ":", e)
t(lambda: f.missing)
def delete():
    del g.nothing
t(delete)
t(lambda: delattr(g, "nothing"))
t(lambda: vars(f)["missing"])
t(lambda: vars(1))
t(lambda: vars(len))
# expect: AttributeError: 'function' object has no attribute 'missing'
# expect: AttributeError: 'function' object has no attribute 'nothing'
# expect: AttributeError: 'function' object has no attribute 'nothing'
# expect: KeyError: 'missing'
# expect: TypeError: vars() argument must have __dict__ attribute
# expect: TypeError: vars() argument must have __dict__ attribute
