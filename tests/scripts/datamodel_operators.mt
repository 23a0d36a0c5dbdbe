# Operator methods of user classes, as Python calls them: a.__op__(b), then b.__rop__(a); a
# subclass's reflected method first; `a op= b` through __iop__, else the operator; comparisons
# reflected (__lt__ against __gt__), == falling back to identity; NotImplemented passing the
# turn; truth from __bool__, else __len__. Each expectation is what CPython prints.


class Scalar:
    "MiniTorch's Scalar in small: a value, and operators that make new Scalars."

    def __init__(self, v):
        self.data = v

    def __add__(self, b):
        return Scalar(self.data + (b.data if isinstance(b, Scalar) else b))

    def __radd__(self, b):
        return self + b

    def __sub__(self, b):
        return Scalar(self.data - (b.data if isinstance(b, Scalar) else b))

    def __rsub__(self, b):
        return Scalar(b - self.data)

    def __mul__(self, b):
        return Scalar(self.data * (b.data if isinstance(b, Scalar) else b))

    __rmul__ = __mul__

    def __truediv__(self, b):
        return Scalar(self.data / (b.data if isinstance(b, Scalar) else b))

    def __rtruediv__(self, b):
        return Scalar(b / self.data)

    def __neg__(self):
        return Scalar(-self.data)

    def __pos__(self):
        return Scalar(abs(self.data))

    def __lt__(self, b):
        return Scalar(1.0 if self.data < (b.data if isinstance(b, Scalar) else b) else 0.0)

    def __gt__(self, b):
        return Scalar(1.0 if self.data > (b.data if isinstance(b, Scalar) else b) else 0.0)

    def __eq__(self, b):
        return Scalar(1.0 if self.data == (b.data if isinstance(b, Scalar) else b) else 0.0)

    def __bool__(self):
        return bool(self.data)

    def __abs__(self):
        return Scalar(abs(self.data))

    def __repr__(self):
        return "Scalar(" + str(self.data) + ")"


x, y = Scalar(2.0), Scalar(3.0)
print(x + y, x - y, x * y, x / y)
# expect: Scalar(5.0) Scalar(-1.0) Scalar(6.0) Scalar(0.6666666666666666)
print(x + 1, 1 + x, 5 - x, 2 * x, x * 2, 1 / x, 1.5 - x)
# expect: Scalar(3.0) Scalar(3.0) Scalar(3.0) Scalar(4.0) Scalar(4.0) Scalar(0.5) Scalar(-0.5)
print(-x, +Scalar(-4.0), abs(Scalar(-2.5)))
# expect: Scalar(-2.0) Scalar(4.0) Scalar(2.5)
# comparisons return what the methods return; 1 < x asks x.__gt__(1)
print(x < y, y < x, x > y, x == y, x == 2.0, 1 < x, 3 > x)
# expect: Scalar(1.0) Scalar(0.0) Scalar(0.0) Scalar(0.0) Scalar(1.0) Scalar(1.0) Scalar(1.0)
# a == b with no __ne__ defined: != is __eq__ inverted by truth
print(x != y, x != 2.0)
# expect: True False
print(sum([x, y, Scalar(0.5)]), sum([x, y], Scalar(10.0)))
# expect: Scalar(5.5) Scalar(15.0)
if x < y:
    print("x < y holds")
# expect: x < y holds
print(bool(Scalar(0.0)), not Scalar(0.0), Scalar(0.0) or "other", x and "then")
# expect: False True other then

# in-place: __iadd__ when the class has one, else a new object from __add__
z = x
z += y
print(z, x, z is x)
# expect: Scalar(5.0) Scalar(2.0) False


class Acc:
    def __init__(self):
        self.items = []

    def __iadd__(self, v):
        self.items.append(v)
        return self

    def __repr__(self):
        return "Acc(" + repr(self.items) + ")"


a = Acc()
b = a
a += 1
a += "two"
print(a, b, a is b)
# expect: Acc([1, 'two']) Acc([1, 'two']) True


# NotImplemented lets the other operand answer; with neither answering, the TypeError
class Meters:
    def __init__(self, m):
        self.m = m

    def __add__(self, o):
        if isinstance(o, Meters):
            return Meters(self.m + o.m)
        return NotImplemented

    def __radd__(self, o):
        if o == 0:
            return self
        return NotImplemented

    def __eq__(self, o):
        if not isinstance(o, Meters):
            return NotImplemented
        return self.m == o.m

    def __repr__(self):
        return "Meters(" + repr(self.m) + ")"


print(Meters(1) + Meters(2), 0 + Meters(4), sum([Meters(1), Meters(2)]))
# expect: Meters(3) Meters(4) Meters(3)
print(Meters(1) == Meters(1), Meters(1) == 1, Meters(1) != 1, NotImplemented)
# expect: True False True NotImplemented
attempts = [
    lambda: Meters(1) + 1,
    lambda: 1 + Meters(1),
    lambda: Meters(1) < Meters(2),
    lambda: -Meters(1),
    lambda: Meters(1) * 2,
    lambda: Meters(2) ** 2,
]
for attempt in attempts:
    try:
        attempt()
    except TypeError as e:
        print(e)
# expect: unsupported operand type(s) for +: 'Meters' and 'int'
# expect: unsupported operand type(s) for +: 'int' and 'Meters'
# expect: '<' not supported between instances of 'Meters' and 'Meters'
# expect: bad operand type for unary -: 'Meters'
# expect: unsupported operand type(s) for *: 'Meters' and 'int'
# expect: unsupported operand type(s) for ** or pow(): 'Meters' and 'int'
m = Meters(1)
try:
    m -= 1
except TypeError as e:
    print(e)
# expect: unsupported operand type(s) for -=: 'Meters' and 'int'


# a subclass that overrides the reflected method answers first
class Base:
    def __add__(self, o):
        return "Base.__add__"

    def __radd__(self, o):
        return "Base.__radd__"


class Derived(Base):
    def __radd__(self, o):
        return "Derived.__radd__"


print(Base() + Derived(), Derived() + Base(), Base() + Base())
# expect: Derived.__radd__ Base.__add__ Base.__add__


class Vec:
    def __init__(self, *xs):
        self.xs = list(xs)

    def __matmul__(self, o):
        return sum([a * b for a, b in zip(self.xs, o.xs)])

    def __floordiv__(self, k):
        return Vec(*[v // k for v in self.xs])

    def __mod__(self, k):
        return Vec(*[v % k for v in self.xs])

    def __pow__(self, k):
        return Vec(*[v**k for v in self.xs])

    def __rpow__(self, k):
        return Vec(*[k**v for v in self.xs])

    def __len__(self):
        return len(self.xs)

    def __repr__(self):
        return "Vec" + repr(tuple(self.xs))


v = Vec(3, 4, 5)
print(v @ Vec(1, 2, 3), v // 2, v % 2, v**2, 2**v)
# expect: 26 Vec(1, 2, 2) Vec(1, 0, 1) Vec(9, 16, 25) Vec(8, 16, 32)
# no __bool__: truth is __len__ != 0
print(bool(Vec()), bool(v), "empty" if not Vec() else "full")
# expect: False True empty


class BadBool:
    def __bool__(self):
        return 1


class BadLen:
    def __len__(self):
        return -1


for obj in [BadBool(), BadLen()]:
    try:
        bool(obj)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
# expect: TypeError __bool__ should return bool, returned int
# expect: ValueError __len__() should return >= 0

