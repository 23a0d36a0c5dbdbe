# The with statement: __enter__'s value to the target, __exit__ after the body whatever it did
# (return, break, continue, an error it swallows or not), several items nested, an error of
# __exit__'s own replacing the body's, a pytest.raises-like manager. Expectations: CPython's
# (__exit__'s third argument, the traceback, is None here: the language has no traceback objects).
class Ctx:
    def __init__(self, name, swallow=False):
        self.name = name
        self.swallow = swallow
    def __enter__(self):
        print("enter", self.name)
        return self
    def __exit__(self, t, v, tb):
        print("exit", self.name, t.__name__ if t else None, v)
        return self.swallow

with Ctx("a") as c:
    print("body", c.name)
with Ctx("b", True):
    raise ValueError("gone")
print("after b")
try:
    with Ctx("c"), Ctx("d") as d:
        print("inner", d.name)
        1 / 0
except ZeroDivisionError as e:
    print("caught", e)
def f():
    with Ctx("e"):
        return 5
    return 6
print(f())
for i in range(3):
    with Ctx(f"l{i}"):
        if i == 1:
            continue
        if i == 2:
            break
        print("loop", i)
class Raises:
    def __enter__(self):
        return 1
    def __exit__(self, *a):
        raise KeyError("from exit")
try:
    with Raises() as x:
        raise ValueError("body")
except KeyError as e:
    print("exit error wins", e, x)
class Pair:
    def __enter__(self):
        return (1, 2)
    def __exit__(self, t, v, tb):
        return False
with Pair() as (p, q):
    print(p + q)
class raises:
    def __init__(self, exc):
        self.exc = exc
    def __enter__(self):
        return self
    def __exit__(self, t, v, tb):
        if t is None:
            raise AssertionError("did not raise")
        return issubclass(t, self.exc)
with raises(IndexError):
    [][1]
try:
    with raises(IndexError):
        pass
except AssertionError as e:
    print("assert", e)
try:
    with 5:
        pass
except TypeError as e:
    print(e)
# expect: enter a
# expect: body a
# expect: exit a None None
# expect: enter b
# expect: exit b ValueError gone
# expect: after b
# expect: enter c
# expect: enter d
# expect: inner d
# expect: exit d ZeroDivisionError division by zero
# expect: exit c ZeroDivisionError division by zero
# expect: caught division by zero
# expect: enter e
# expect: exit e None None
# expect: 5
# expect: enter l0
# expect: loop 0
# expect: exit l0 None None
# expect: enter l1
# expect: exit l1 None None
# expect: enter l2
# expect: exit l2 None None
# expect: exit error wins 'from exit' 1
# expect: 3
# expect: assert did not raise
# expect: 'int' object does not support the context manager protocol
