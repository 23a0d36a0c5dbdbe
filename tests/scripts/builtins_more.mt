# chr ord divmod pow id callable hash dir against CPython 3.11: every expectation down to the
# kernel-only section is what python3 printed for the same lines. `show` prints a result, or
# the error as CPython words it.
def show(f):
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__ + ":", e)

# chr and ord
print(chr(65), chr(0x1F600), repr(chr(True)), chr(233), ord("a"), ord("é"), ord("😀"), ord(chr(1000)))
# expect: A 😀 '\x01' é 97 233 128512 1000
print("".join(chr(ord(c) + 1) for c in "HAL"))
# expect: IBM
show(lambda: chr(-1))
# expect: ValueError: chr() arg not in range(0x110000)
show(lambda: chr(0x110000))
# expect: ValueError: chr() arg not in range(0x110000)
show(lambda: chr("a"))
# expect: TypeError: 'str' object cannot be interpreted as an integer
show(lambda: chr(1.5))
# expect: TypeError: 'float' object cannot be interpreted as an integer
show(lambda: chr())
# expect: TypeError: chr() takes exactly one argument (0 given)
show(lambda: chr(1, 2))
# expect: TypeError: chr() takes exactly one argument (2 given)
show(lambda: chr(i=65))
# expect: TypeError: chr() takes no keyword arguments
show(lambda: ord("ab"))
# expect: TypeError: ord() expected a character, but string of length 2 found
show(lambda: ord(""))
# expect: TypeError: ord() expected a character, but string of length 0 found
show(lambda: ord(1))
# expect: TypeError: ord() expected string of length 1, but int found
show(lambda: ord(None))
# expect: TypeError: ord() expected string of length 1, but NoneType found
show(lambda: ord())
# expect: TypeError: ord() takes exactly one argument (0 given)

# divmod: ints floor, floats as CPython's float divmod
print(divmod(7, 2), divmod(-7, 2), divmod(7, -2), divmod(-7, -2), divmod(True, 2), divmod(0, 5))
# expect: (3, 1) (-4, 1) (-4, -1) (3, -1) (0, 1) (0, 0)
print(divmod(7.5, 2), divmod(-7.5, 2), divmod(7, 0.5), divmod(-0.0, 1), divmod(1, float("inf")), divmod(-1, float("inf")))
# expect: (3.0, 1.5) (-4.0, 0.5) (14.0, 0.0) (-0.0, 0.0) (0.0, 1.0) (-1.0, inf)
print(divmod(float("inf"), 1), divmod(5, float("nan")), divmod(1e308, 1e-308)[1])
# expect: (nan, nan) (nan, nan) 3.498445546245627e-309
show(lambda: divmod(1, 0))
# expect: ZeroDivisionError: integer division or modulo by zero
show(lambda: divmod(1.0, 0))
# expect: ZeroDivisionError: float divmod()
show(lambda: divmod(1, 0.0))
# expect: ZeroDivisionError: float divmod()
show(lambda: divmod(0.0, 0.0))
# expect: ZeroDivisionError: float divmod()
show(lambda: divmod("a", 1))
# expect: TypeError: unsupported operand type(s) for divmod(): 'str' and 'int'
show(lambda: divmod(1, [2]))
# expect: TypeError: unsupported operand type(s) for divmod(): 'int' and 'list'
show(lambda: divmod(1))
# expect: TypeError: divmod expected 2 arguments, got 1
show(lambda: divmod(1, 2, 3))
# expect: TypeError: divmod expected 2 arguments, got 3
show(lambda: divmod(a=1, b=2))
# expect: TypeError: divmod() takes no keyword arguments

# pow: two arguments are **, three a modular power of ints
print(pow(2, 10), pow(2, -1), pow(2.0, 3), pow(4, 0.5), pow(-2, 3), pow(2, 62), pow(base=2, exp=3), pow(2, 3, None))
# expect: 1024 0.5 8.0 2.0 -8 4611686018427387904 8 8
print(pow(2, 10, 1000), pow(2, 10, -1000), pow(-2, 3, 5), pow(3, -1, 7), pow(3, -2, -7), pow(5, 0, 1), pow(5, 0, -1), pow(0, 0, 5))
# expect: 24 -976 2 5 -3 0 0 1
print(pow(2, 3, mod=5), pow(True, 2, 3), pow(-1, -1, 1), pow(2, 100, 2**62 + 1), pow(12345678901, 98765432109, 2**61 - 1))
# expect: 3 1 0 4611685743549480961 522193944897159008
print(pow(2**62, -1, 9223372036854775807), pow(-3, 2**62 + 3, -9223372036854775783), pow(7, 2**62, 2**62 + 9))
# expect: 2 -9223372036811729062 350523206444998700
show(lambda: pow(0, -1))
# expect: ZeroDivisionError: 0.0 cannot be raised to a negative power
show(lambda: pow(0.0, -1))
# expect: ZeroDivisionError: 0.0 cannot be raised to a negative power
show(lambda: pow(2, -1, 4))
# expect: ValueError: base is not invertible for the given modulus
show(lambda: pow(0, -1, 5))
# expect: ValueError: base is not invertible for the given modulus
show(lambda: pow(2, 3, 0))
# expect: ValueError: pow() 3rd argument cannot be 0
show(lambda: pow(2.0, 3, 5))
# expect: TypeError: pow() 3rd argument not allowed unless all arguments are integers
show(lambda: pow(2, 3, 5.0))
# expect: TypeError: pow() 3rd argument not allowed unless all arguments are integers
show(lambda: pow("a", 2))
# expect: TypeError: unsupported operand type(s) for ** or pow(): 'str' and 'int'
show(lambda: pow(2, "a"))
# expect: TypeError: unsupported operand type(s) for ** or pow(): 'int' and 'str'
show(lambda: pow("a", 2, 3))
# expect: TypeError: unsupported operand type(s) for ** or pow(): 'str', 'int', 'int'
show(lambda: pow(2, 3, "a"))
# expect: TypeError: unsupported operand type(s) for ** or pow(): 'int', 'int', 'str'
show(lambda: pow(2))
# expect: TypeError: pow() missing required argument 'exp' (pos 2)
show(lambda: pow())
# expect: TypeError: pow() missing required argument 'base' (pos 1)
show(lambda: pow(exp=2))
# expect: TypeError: pow() missing required argument 'base' (pos 1)
show(lambda: pow(1, 2, 3, 4))
# expect: TypeError: pow() takes at most 3 arguments (4 given)
show(lambda: pow(2, 3, foo=1))
# expect: TypeError: 'foo' is an invalid keyword argument for pow()
show(lambda: pow(2, 3, base=1))
# expect: TypeError: argument for pow() given by name ('base') and position (1)
show(lambda: pow(2, foo=1))
# expect: TypeError: pow() missing required argument 'exp' (pos 2)

# callable
class Plain:
    def method(self):
        return 1

class Called(Plain):
    def __call__(self, x):
        return x

def fn(x):
    return x

print(callable(len), callable(fn), callable(lambda: 1), callable(int), callable(Plain), callable(ValueError))
# expect: True True True True True True
print(callable(Plain().method), callable("a".upper), callable([].append), callable(Called()), callable(Plain()))
# expect: True True True True False
print(callable(1), callable("a"), callable(None), callable([fn]), callable(ValueError("x")))
# expect: False False False False False
show(lambda: callable())
# expect: TypeError: callable() takes exactly one argument (0 given)
show(lambda: callable(1, 2))
# expect: TypeError: callable() takes exactly one argument (2 given)
show(lambda: callable(obj=1))
# expect: TypeError: callable() takes no keyword arguments

# hash: CPython's values for numbers and tuples of them
print(hash(True), hash(False), hash(0), hash(1), hash(-1), hash(-2), hash(2**61 - 1), hash(2**61), hash(2**62), hash(-2**61 + 1))
# expect: 1 0 0 1 -2 -2 0 1 2 0
print(hash(-9223372036854775807 - 1), hash(9223372036854775807), hash(1.0), hash(-1.0), hash(-0.0), hash(1.5), hash(-1.5), hash(0.1))
# expect: -4 3 1 -2 0 1152921504606846977 -1152921504606846977 230584300921369408
print(hash(1e100), hash(1e-100), hash(5e-324), hash(float("inf")), hash(-float("inf")), hash(3.5e18), hash(2.0**61), hash(123456.789))
# expect: 1822893315824342674 1735222877707689105 16777216 314159 -314159 1194156990786306049 1 1819310134279660096
print(hash(()), hash((1,)), hash((1, 2)), hash((1, (2, 3))), hash((-1,)), hash((1.5, True)), hash(((), ((),))))
# expect: 5740354900026072187 -6644214454873602895 -3550055125485641917 7267574591690527098 8078679518589016365 1767087712303363268 578447794611251343
print(hash(range(3)), hash(range(2, 10, 3)), hash(range(0)) == hash(range(5, 5)), hash(range(1, 2)) == hash(range(1, 5, 10)))
# expect: -8338477496398685190 -6356849252680097597 True True
print(hash(1) == hash(1.0) == hash(True), hash((1, 2)) == hash((1.0, 2)), hash("abc") == hash("ab" + "c"), hash(None) == hash(None))
# expect: True True True True
print(hash(fn) == hash(fn), hash(len) == hash(len), hash(Plain) == hash(Plain))
# expect: True True True

class Hashed:
    def __hash__(self):
        return 12345

class Equal:
    def __eq__(self, other):
        return True

class BadHash:
    def __hash__(self):
        return "x"

print(hash(Hashed()), {Plain(): 1} != {})
# expect: 12345 True
show(lambda: hash([1]))
# expect: TypeError: unhashable type: 'list'
show(lambda: hash({}))
# expect: TypeError: unhashable type: 'dict'
show(lambda: hash((1, [2])))
# expect: TypeError: unhashable type: 'list'
show(lambda: hash(Equal()))
# expect: TypeError: unhashable type: 'Equal'
show(lambda: hash(BadHash()))
# expect: TypeError: __hash__ method should return an integer
show(lambda: hash())
# expect: TypeError: hash() takes exactly one argument (0 given)
show(lambda: hash(1, 2))
# expect: TypeError: hash() takes exactly one argument (2 given)
show(lambda: hash(obj=1))
# expect: TypeError: hash() takes no keyword arguments

# id: one per live object; equal ids are `is`
xs = [1, 2]
ys = xs
p = Plain()
print(id(xs) == id(ys), id(xs) == id([1, 2]), id(p) == id(p), id(p) == id(Plain()), id(fn) == id(fn), id(None) == id(None))
# expect: True False True False True True
print(type(id(xs)).__name__, id(xs) > 0, id(1) > 0, id(True) == id(True), id(True) == id(False))
# expect: int True True True False
show(lambda: id())
# expect: TypeError: id() takes exactly one argument (0 given)
show(lambda: id(1, 2))
# expect: TypeError: id() takes exactly one argument (2 given)
show(lambda: id(obj=1))
# expect: TypeError: id() takes no keyword arguments

# dir: sorted names; inside a function, its locals
def scope(a, b=2):
    c = a + b
    return dir()

print(scope(1), "upper" in dir("a"), "append" in dir([]), "items" in dir({}), "method" in dir(Plain()), "count" in dir(()))
# expect: ['a', 'b', 'c'] True True True True True
q = Plain()
q.weight = 1
print("weight" in dir(q), dir(q) == sorted(dir(q)), "__call__" in dir(Called()), "method" in dir(Plain))
# expect: True True True True
show(lambda: dir(1, 2))
# expect: TypeError: dir expected at most 1 argument, got 2
show(lambda: dir(obj=1))
# expect: TypeError: dir() takes no keyword arguments

# kernel-only
# What dir() lists here: the attributes the language reads, without CPython's special methods
# (which it has as operators and builtins); worked out from the tables of methods.
print(dir(Called()))
# expect: ['__call__', '__class__', '__module__', 'method']
print(dir(()), dir(fn), dir(len))
# expect: ['count', 'index'] ['__class__', '__doc__', '__name__'] ['__class__', '__name__']
print(dir("")[:6], len(dir("")))
# expect: ['__class__', 'capitalize', 'casefold', 'center', 'count', 'endswith'] 44
ord(5)
# expect-error: TypeError: ord() expected string of length 1, but int found
# expect-tb:   Cell line 224, column 1:
