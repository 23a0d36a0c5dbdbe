# Messages of the data model as CPython 3.11 words them: an attribute name that is no string,
# an instance's __dict__ asked for a key that is no string, object.__setattr__ on a value
# without a __dict__, int() and float() of what they cannot convert, and a property's deleter.

class A:
    pass

a = A()
a.x = 1

def fn():
    pass

checks = [
    ("getattr(a, 5)", lambda: getattr(a, 5)),
    ("getattr(a, 5, 0)", lambda: getattr(a, 5, 0)),
    ("setattr(a, 5, 1)", lambda: setattr(a, 5, 1)),
    ("hasattr(a, 5)", lambda: hasattr(a, 5)),
    ("delattr(a, None)", lambda: delattr(a, None)),
    ("a.__dict__[1]", lambda: a.__dict__[1]),
    ("vars(a)[2.5]", lambda: vars(a)[2.5]),
    ("a.__dict__[(1, 2)]", lambda: a.__dict__[(1, 2)]),
    ("a.__dict__[[1]]", lambda: a.__dict__[[1]]),
    ("a.__dict__.get(1)", lambda: a.__dict__.get(1)),
    ("1 in a.__dict__", lambda: 1 in a.__dict__),
    ("a.__dict__.pop(1)", lambda: a.__dict__.pop(1)),
    ("a.__dict__.pop(1, 'd')", lambda: a.__dict__.pop(1, "d")),
    ("a.__dict__['x']", lambda: a.__dict__["x"]),
    ("object.__setattr__(5, 'x', 1)", lambda: object.__setattr__(5, "x", 1)),
    ("object.__setattr__([], 'y', 1)", lambda: object.__setattr__([], "y", 1)),
    ("object.__setattr__(a, 5, 1)", lambda: object.__setattr__(a, 5, 1)),
    ("object.__delattr__(5, 'x')", lambda: object.__delattr__(5, "x")),
    ("object.__getattribute__(5, 'x')", lambda: object.__getattribute__(5, "x")),
    ("object.__getattribute__('s', 'upper')()", lambda: object.__getattribute__("s", "upper")()),
    ("object.__setattr__(A, 'x', 1)", lambda: object.__setattr__(A, "x", 1)),
    ("object.__setattr__(int, 'x', 1)", lambda: object.__setattr__(int, "x", 1)),
    ("object.__delattr__(A, 'x')", lambda: object.__delattr__(A, "x")),
    ("object.__setattr__(fn, 'x', 1)", lambda: object.__setattr__(fn, "x", 1)),
    ("fn.x", lambda: fn.x),
    ("object.__delattr__(fn, 'x')", lambda: object.__delattr__(fn, "x")),
    ("fn.__dict__", lambda: fn.__dict__),
    ("int(A())", lambda: int(A())),
    ("int([])", lambda: int([])),
    ("int(None)", lambda: int(None)),
    ("float(A())", lambda: float(A())),
    ("float([1])", lambda: float([1])),
    ("int('x')", lambda: int("x")),
    ("int('1.5')", lambda: int("1.5")),
]
for label, f in checks:
    try:
        print(label, "->", f())
    except Exception as e:
        print(label, "!", type(e).__name__ + ":", e)
# expect: getattr(a, 5) ! TypeError: attribute name must be string, not 'int'
# expect: getattr(a, 5, 0) ! TypeError: attribute name must be string, not 'int'
# expect: setattr(a, 5, 1) ! TypeError: attribute name must be string, not 'int'
# expect: hasattr(a, 5) ! TypeError: attribute name must be string, not 'int'
# expect: delattr(a, None) ! TypeError: attribute name must be string, not 'NoneType'
# expect: a.__dict__[1] ! KeyError: 1
# expect: vars(a)[2.5] ! KeyError: 2.5
# expect: a.__dict__[(1, 2)] ! KeyError: (1, 2)
# expect: a.__dict__[[1]] ! TypeError: unhashable type: 'list'
# expect: a.__dict__.get(1) -> None
# expect: 1 in a.__dict__ -> False
# expect: a.__dict__.pop(1) ! KeyError: 1
# expect: a.__dict__.pop(1, 'd') -> d
# expect: a.__dict__['x'] -> 1
# expect: object.__setattr__(5, 'x', 1) ! AttributeError: 'int' object has no attribute 'x'
# expect: object.__setattr__([], 'y', 1) ! AttributeError: 'list' object has no attribute 'y'
# expect: object.__setattr__(a, 5, 1) ! TypeError: attribute name must be string, not 'int'
# expect: object.__delattr__(5, 'x') ! AttributeError: 'int' object has no attribute 'x'
# expect: object.__getattribute__(5, 'x') ! AttributeError: 'int' object has no attribute 'x'
# expect: object.__getattribute__('s', 'upper')() -> S
# expect: object.__setattr__(A, 'x', 1) ! TypeError: can't apply this __setattr__ to type object
# expect: object.__setattr__(int, 'x', 1) ! TypeError: can't apply this __setattr__ to type object
# expect: object.__delattr__(A, 'x') ! TypeError: can't apply this __delattr__ to type object
# expect: object.__setattr__(fn, 'x', 1) -> None
# expect: fn.x -> 1
# expect: object.__delattr__(fn, 'x') -> None
# expect: fn.__dict__ -> {}
# expect: int(A()) ! TypeError: int() argument must be a string, a bytes-like object or a real number, not 'A'
# expect: int([]) ! TypeError: int() argument must be a string, a bytes-like object or a real number, not 'list'
# expect: int(None) ! TypeError: int() argument must be a string, a bytes-like object or a real number, not 'NoneType'
# expect: float(A()) ! TypeError: float() argument must be a string or a real number, not 'A'
# expect: float([1]) ! TypeError: float() argument must be a string or a real number, not 'list'
# expect: int('x') ! ValueError: invalid literal for int() with base 10: 'x'
# expect: int('1.5') ! ValueError: invalid literal for int() with base 10: '1.5'
try:
    del a.__dict__[1]
except KeyError as e:
    print("del a.__dict__[1] ! KeyError:", e)
# expect: del a.__dict__[1] ! KeyError: 1

# a property's deleter
class B:
    def __init__(self):
        self._y = 1
    @property
    def y(self):
        return self._y
    @property
    def ro(self):
        return 0
    @y.setter
    def y(self, v):
        self._y = v
    @y.deleter
    def y(self):
        print("deleting y")
        del self._y

b = B()
b.y = 5
print(b.y, b.__dict__)
# expect: 5 {'_y': 5}
del b.y
# expect: deleting y
print(hasattr(b, "_y"), b.__dict__)
# expect: False {}
try:
    del b.ro
except AttributeError as e:
    print("AttributeError:", e)
# expect: AttributeError: property 'ro' of 'B' object has no deleter
b.__dict__["ro"] = "own"
try:
    del b.ro
except AttributeError as e:
    print("AttributeError:", e)
# expect: AttributeError: property 'ro' of 'B' object has no deleter
print(b.__dict__)
# expect: {'ro': 'own'}
print(B.y.fdel is not None, B.ro.fdel, B.ro.fset)
# expect: True None None

def get_z(self):
    return "z"

def del_z(self):
    print("del_z")

class C:
    z = property(get_z, None, del_z)
    w = property(get_z, fdel=del_z)

c = C()
del c.z
# expect: del_z
del c.w
# expect: del_z
print(c.z, C.z.fdel is del_z)
# expect: z True
try:
    c.z = 1
except AttributeError as e:
    print("AttributeError:", e)
# expect: AttributeError: property 'z' of 'C' object has no setter

class D(B):
    pass

d = D()
del d.y
# expect: deleting y
try:
    del d.y
except AttributeError as e:
    print("AttributeError:", e)
# expect: deleting y
# expect: AttributeError: 'D' object has no attribute '_y'
