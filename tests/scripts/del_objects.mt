# del of a dict item, an instance attribute, and a variable a closure shares
d = {"a": 1, "b": 2}
del d["a"]
print(d)
# expect: {'b': 2}
class A:
    pass
a = A()
a.x = 1
a.y = 2
del a.x
print(hasattr(a, "x"), a.y)
# expect: False 2
def f():
    v = 1
    def g():
        return v
    del v
    try:
        g()
    except NameError as e:
        return str(e)
