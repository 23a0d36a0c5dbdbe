# Smaller parts of the data model against CPython 3.11: the iterator classes' names, a class's
# __annotations__ when it has none, and assigning an exception's args.

for x in [[1], (1,), range(2), "ab", "é", {1: 2}, {1}, frozenset({2})]:
    it = iter(x)
    print(type(it).__name__, next(it))
# expect: list_iterator 1
# expect: tuple_iterator 1
# expect: range_iterator 0
# expect: str_ascii_iterator a
# expect: str_iterator é
# expect: dict_keyiterator 1
# expect: set_iterator 1
# expect: set_iterator 2

class A:
    def __init__(self):
        self.a = 1

print(type(iter(A().__dict__)).__name__)
# expect: dict_keyiterator

# __annotations__: an empty dict of the class's own, made when first asked
class C:
    pass

print(C.__annotations__, "__annotations__" in vars(C))
# expect: {} True
C.__annotations__["y"] = "a note"
print(C.__annotations__, C().__annotations__)
# expect: {'y': 'a note'} {'y': 'a note'}

class B:
    x: "int" = 1

class D(B):
    pass

print(list(B.__annotations__), D.__annotations__, B.__annotations__ is D.__annotations__)
# expect: ['x'] {} False

# an exception's args: any iterable, kept as a tuple
class E(Exception):
    pass

e = E()
try:
    e.args = 5
except TypeError as x:
    print("TypeError:", x)
# expect: TypeError: 'int' object is not iterable
print(repr(e), e.args)
# expect: E() ()
e.args = [1, 2]
print(repr(e), e.args, str(e))
# expect: E(1, 2) (1, 2) (1, 2)
e.args = "ab"
print(e.args)
# expect: ('a', 'b')
v = ValueError("a")
v.args = [1, 2]
print(v.args, str(v), repr(v))
# expect: (1, 2) (1, 2) ValueError(1, 2)
v.args = ("only",)
print(str(v), repr(v))
# expect: only ValueError('only')
try:
    v.args = None
except TypeError as x:
    print("TypeError:", x)
# expect: TypeError: 'NoneType' object is not iterable
try:
    raise E("x", 1)
except E as caught:
    caught.args = caught.args + ("more",)
    print(caught.args)
# expect: ('x', 1, 'more')
