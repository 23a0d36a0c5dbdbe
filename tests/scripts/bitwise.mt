# The bitwise operators & | ^ ~ << >> on ints and bools, and their augmented forms, against
# CPython 3.11: every expectation is what it prints for this file, but those of the last
# section (the language's ints are 64 bits and raise where CPython's would grow; tensors and
# compiled code, which CPython lacks).
print(12 & 10, 12 | 10, 12 ^ 10, ~12, 1 << 4, 1000 >> 3)
# expect: 8 14 6 -13 16 125
# negative ints as Python's: two's complement of unbounded width, >> rounding down
print(-12 & 10, -12 | 10, -12 ^ 10, ~-12, -1 << 4, -1000 >> 3, -1 >> 70, -7 >> 1, 7 >> 1)
# expect: 0 -2 -2 11 -16 -125 -1 -4 3
print(0 & -1, -1 & -1, 0x7FFFFFFFFFFFFFFF & -2, (-9223372036854775807 - 1) | 1, ~0)
# expect: 0 -1 9223372036854775806 -9223372036854775807 -1
# shifts by 0, by many bits, and of zero
print(5 << 0, 5 >> 0, 5 >> 64, 5 >> 1000, 0 << 1000, 1 << 62, -1 << 63, 255 >> 4 << 4)
# expect: 5 5 0 0 0 4611686018427387904 -9223372036854775808 240
# bools: & | ^ of two bools is a bool, with an int an int; ~ and shifts are ints
print(True & False, True | False, True ^ True, False ^ True, True & 3, 2 | False, True ^ 3)
# expect: False True False True 1 2 2
print(type(True & True).__name__, type(True & 1).__name__, ~True, ~False, True << 3, True >> 1)
# expect: bool int -2 -1 8 0
# precedence: shifts below + and -, then &, ^, | in that order, all above comparisons
print(1 + 2 << 3, 1 << 2 + 3, 2 * 3 << 1, 16 >> 1 + 1, 6 & 3 << 1, 1 | 2 ^ 3 & 4)
# expect: 24 32 12 4 6 3
print(1 | 2 & 3, (1 | 2) & 3, 5 ^ 1 | 2, 5 ^ (1 | 2), 5 & 3 == 1, 1 < 2 | 4, 3 == 3 & 7)
# expect: 3 3 6 6 True True True
print(-1 & 3, ~1 + 1, -~5, ~-5, ~2 ** 2, 2 ** ~1 if False else ~2 * 3, not 0 & 1)
# expect: 3 -1 6 4 -5 -9 True
print(1 | 2 if 0 else 3 ^ 1, [x & 1 for x in range(5)], {k: k >> 1 for k in (4, 6)})
# expect: 2 [0, 1, 0, 1, 0] {4: 2, 6: 3}
print(1 < 3 & 2 < 5, 1 << 2 == 4 == 2 << 1, 6 & 3 in [2, 3], (12 & 10) + (12 | 10))
# expect: True True True 22
# augmented assignment
x = 12
x &= 10
print(x)
# expect: 8
x |= 5; x ^= 3; x <<= 4; x >>= 2
print(x)
# expect: 56
xs = [1, 2]
xs[0] |= 6
xs[1] <<= 3
print(xs)
# expect: [7, 16]
flag = True
flag &= False
print(flag, type(flag).__name__)
# expect: False bool
flag = False
flag |= True
flag ^= 1
print(flag, type(flag).__name__)
# expect: 0 int
# errors, caught: CPython's types and messages
def attempt(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + ":", e)
attempt(lambda: 1 << -1)
# expect: ValueError: negative shift count
attempt(lambda: 1 >> -2)
# expect: ValueError: negative shift count
attempt(lambda: 1.5 & 1)
# expect: TypeError: unsupported operand type(s) for &: 'float' and 'int'
attempt(lambda: 1 | 2.0)
# expect: TypeError: unsupported operand type(s) for |: 'int' and 'float'
attempt(lambda: 2.0 << 1)
# expect: TypeError: unsupported operand type(s) for <<: 'float' and 'int'
attempt(lambda: ~1.5)
# expect: TypeError: bad operand type for unary ~: 'float'
attempt(lambda: ~"a")
# expect: TypeError: bad operand type for unary ~: 'str'
attempt(lambda: ~[1])
# expect: TypeError: bad operand type for unary ~: 'list'
attempt(lambda: ~None)
# expect: TypeError: bad operand type for unary ~: 'NoneType'
attempt(lambda: "a" & "b")
# expect: TypeError: unsupported operand type(s) for &: 'str' and 'str'
attempt(lambda: [1] | [2])
# expect: TypeError: unsupported operand type(s) for |: 'list' and 'list'
attempt(lambda: (1, 2) ^ 3)
# expect: TypeError: unsupported operand type(s) for ^: 'tuple' and 'int'
attempt(lambda: None >> 1)
# expect: TypeError: unsupported operand type(s) for >>: 'NoneType' and 'int'
attempt(lambda: {"a": 1} & {"a": 1})
# expect: TypeError: unsupported operand type(s) for &: 'dict' and 'dict'
def aug(x, y):
    x ^= y
    return x
attempt(lambda: aug(1.0, 2))
# expect: TypeError: unsupported operand type(s) for ^=: 'float' and 'int'
def aug2(x, y):
    x <<= y
    return x
attempt(lambda: aug2("s", 1))
# expect: TypeError: unsupported operand type(s) for <<=: 'str' and 'int'
attempt(lambda: aug2(3, -1))
# expect: ValueError: negative shift count
# a user class's special methods: each operator's own, reflected and in-place forms, ~
class Bits:
    def __init__(self, v):
        self.v = v
    def __repr__(self):
        return "Bits(" + str(self.v) + ")"
    def __and__(self, o):
        return Bits(self.v & (o.v if isinstance(o, Bits) else o))
    def __rand__(self, o):
        return Bits(o & self.v)
    def __or__(self, o):
        return Bits(self.v | o) if isinstance(o, int) else NotImplemented
    def __xor__(self, o):
        return Bits(self.v ^ o)
    def __rxor__(self, o):
        return ("rxor", o)
    def __lshift__(self, n):
        return Bits(self.v << n)
    def __rrshift__(self, o):
        return ("rrshift", o)
    def __ixor__(self, o):
        self.v = self.v ^ o ^ 1
        return self
    def __invert__(self):
        return Bits(~self.v)
b = Bits(12)
print(b & 10, 10 & b, b & Bits(6), b | 3, b ^ 5, 5 ^ b, b << 2, 1 >> b, ~b, ~~b)
# expect: Bits(8) Bits(8) Bits(4) Bits(15) Bits(9) ('rxor', 5) Bits(48) ('rrshift', 1) Bits(-13) Bits(12)
c = b
c ^= 1
print(c, b, c is b)
# expect: Bits(12) Bits(12) True
c &= 7
print(c, b, c is b)
# expect: Bits(4) Bits(12) False
attempt(lambda: 3 | b)
# expect: TypeError: unsupported operand type(s) for |: 'int' and 'Bits'
attempt(lambda: b | "x")
# expect: TypeError: unsupported operand type(s) for |: 'Bits' and 'str'
attempt(lambda: b >> 1)
# expect: TypeError: unsupported operand type(s) for >>: 'Bits' and 'int'
attempt(lambda: 1 << b)
# expect: TypeError: unsupported operand type(s) for <<: 'int' and 'Bits'
attempt(lambda: -Bits(1))
# expect: TypeError: bad operand type for unary -: 'Bits'
class Plain:
    pass
attempt(lambda: ~Plain())
# expect: TypeError: bad operand type for unary ~: 'Plain'
attempt(lambda: Plain() & Plain())
# expect: TypeError: unsupported operand type(s) for &: 'Plain' and 'Plain'
def ilshift(x):
    x <<= 1
    return x
attempt(lambda: ilshift(Plain()))
# expect: TypeError: unsupported operand type(s) for <<=: 'Plain' and 'int'
print(ilshift(b), b)
# expect: Bits(24) Bits(12)
# Past 64 bits the language raises OverflowError where CPython's int grows (a documented
# difference): a left shift whose result does not fit, whatever the count.
attempt(lambda: 1 << 63)
# expect: OverflowError: integer overflow in '<<': the result does not fit in 64 bits
attempt(lambda: 3 << 62)
# expect: OverflowError: integer overflow in '<<': the result does not fit in 64 bits
attempt(lambda: -3 << 62)
# expect: OverflowError: integer overflow in '<<': the result does not fit in 64 bits
attempt(lambda: 1 << 100000)
# expect: OverflowError: integer overflow in '<<': the result does not fit in 64 bits
attempt(lambda: aug2(1, 64))
# expect: OverflowError: integer overflow in '<<': the result does not fit in 64 bits
# Tensors have no bitwise operators; compiled code takes none (an njit function runs in the
# interpreter, a function given to map is a CompileError).
t = tensor([1.0, 2.0])
attempt(lambda: t & t)
# expect: TypeError: unsupported operand type(s) for &: 'tensor' and 'tensor'
attempt(lambda: 1 | t)
# expect: TypeError: unsupported operand type(s) for |: 'int' and 'tensor'
attempt(lambda: ~t)
# expect: TypeError: bad operand type for unary ~: 'tensor'
from numba import njit
@njit
def flip(x):
    return ~x + (x & 6) + (x << 1)
print(flip(5))
# expect: 8
@njit
def flip_only(x):
    return ~x
print(flip_only(5), flip_only(-1))
# expect: -6 0
def invert(x):
    return ~x
attempt(lambda: map(invert, t))
# expect: CompileError: map(invert): the operator ~ does not compile
def low_bit(x):
    return x & 1
attempt(lambda: map(low_bit, t))
# expect: CompileError: map(low_bit): the operator & does not compile
print("end")
# expect: end

