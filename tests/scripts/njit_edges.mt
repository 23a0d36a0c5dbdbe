# Compiled code (njit, prange, cuda.jit in the simulator) at the edges of its types and limits:
# what once killed the kernel or gave a wrong answer without an error. Each result is Python's
# (worked out by hand), or the interpreter's run of the same function.
%cuda simulate
# expect-re: cuda.jit kernels run in the kernel's CUDA simulator .*
from numba import njit, prange, cuda
import numba

INT64_MIN = -9223372036854775807 - 1

# INT64_MIN // -1 does not fit: the interpreter's OverflowError, not a trap (SIGFPE)
@njit
def fdiv(a, b):
    return a // b

@njit
def fmod(a, b):
    return a % b

try:
    fdiv(INT64_MIN, -1)
except OverflowError as e:
    print(e)
# expect: integer overflow in '//': the result does not fit in 64 bits
print(fmod(INT64_MIN, -1), fdiv(INT64_MIN + 1, -1), fdiv(-7, 2), fmod(-7, 2))
# expect: 0 9223372036854775807 -4 1

@njit(parallel=True)
def pdiv(out, a, b):
    for i in prange(len(out)):
        out[i] = a // b + i

o = zeros(300)
try:
    pdiv(o._tensor._storage, INT64_MIN, -1)
except OverflowError as e:
    print(e)
# expect: integer overflow in '//': the result does not fit in 64 bits

@cuda.jit
def kdiv(out, a, b):
    out[cuda.threadIdx.x] = a // b

try:
    kdiv[1, 4](o._tensor._storage, INT64_MIN, -1)
except OverflowError as e:
    print(e)
# expect: integer overflow in '//': the result does not fit in 64 bits

# int ** int does not wrap; so range(2**63) is an error, not a loop of none
@njit
def cube39(a):
    return a ** 39

@njit
def count63():
    k = 0
    for i in range(2 ** 63):
        k += 1
    return k

print(cube39(3))
# expect: 4052555153018976267
for f in [lambda: cube39(4), count63]:
    try:
        f()
    except OverflowError as e:
        print(e)
# expect: integer overflow in '**': the result does not fit in 64 bits
# expect: integer overflow in '**': the result does not fit in 64 bits

# a range of more than 2**63 - 1 iterations runs (none would finish; this one breaks)
@njit
def first3():
    s = 0
    for i in range(-2 ** 62, 2 ** 62):
        s += 1
        if s == 3:
            break
    return s

print(first3())
# expect: 3

# constants C has no literal for
NAN = float("nan")

@njit
def specials():
    return -1e309

@njit
def a_nan():
    return NAN

print(specials(), a_nan())
# expect: -inf nan

@cuda.jit
def kinf(out):
    out[0] = -1e309

kinf[1, 1](o._tensor._storage)
print(o[0])
# expect: -inf

# a tuple argument is read only, as Python's (the interpreter raises)
@njit
def poke(t):
    t[0] = 5
    return t[0]

try:
    poke((1, 2))
except TypeError as e:
    print(e)
# expect: 'tuple' object does not support item assignment
print(poke([1, 2]))
# expect: 5

# a variable named like the compiler's copies of a grouped loop (acc__j0) is its own
def mm_py(out, a, b, n):
    for i in prange(n):
        for j in range(n):
            acc = 0.0
            acc__j0 = 1.0
            for k in range(n):
                acc += a[i * n + k] * b[k * n + j]
            out[i * n + j] = acc + acc__j0

mm = njit(parallel=True)(mm_py)
seed(3)
a = rand(64)
b = rand(64)
want = zeros(64)
mm_py(want._tensor._storage, a._tensor._storage, b._tensor._storage, 8)
same = []
for t in range(3):  # the first call runs the loops as written, the next ones in groups
    got = zeros(64)
    mm(got._tensor._storage, a._tensor._storage, b._tensor._storage, 8)
    same.append((got == want).all().item() == 1.0)
print(same)
# expect: [True, True, True]

# simulated CUDA threads whose locals take more than a small stack: two arrays of 1024 ints
# in a kernel, and one more in a device function it calls
@cuda.jit(device=True)
def third(i):
    c = cuda.local.array(1024, numba.int32)
    for k in range(1024):
        c[k] = i + k
    return c[3]

@cuda.jit
def locals2(out, m):
    i = cuda.threadIdx.x
    a = cuda.local.array(1024, numba.int32)
    b = cuda.local.array(1024, numba.int32)
    for k in range(1024):
        a[k] = i
        b[k] = i
    out[i] = a[5] + b[7] + third(i)

o = zeros(64)
locals2[1, 64](o._tensor._storage, 1)
print(o.tolist()[:3], o.tolist()[63])
# expect: [3.0, 6.0, 9.0] 192.0

# limits said as limits
@cuda.jit
def too_long(out):
    a = cuda.local.array(2000, numba.int32)
    a[0] = 1
    out[0] = a[0]

try:
    too_long[1, 1](o._tensor._storage)
except Exception as e:
    print(type(e).__name__, e)
# expect: CompileError cuda.jit cannot compile too_long(): it does not take cuda.local.array of 2000 elements: a local array has at most 1024 (it lives on each thread's stack)

@cuda.jit
def wide(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16):
    a0[0] = 1.0

try:
    wide[1, 1](*([o._tensor._storage] * 17))
except TypeError as e:
    print(e)
# expect: wide() has 17 parameters: a kernel takes at most 16

# the interpreter's arithmetic, as the fuzzer of compiled code compared them (each was off)
def fdivmod_py(a, b):
    return a // b, a % b

pairs = [(1.0, 0.1), (-1e-300, 1e300), (-1.5, float("inf")), (-0.0, float("inf")), (5.0, -3.0)]
print(all([njit(lambda a, b: a // b)(a, b) == fdivmod_py(a, b)[0] for a, b in pairs]))
# expect: True
print([str(njit(lambda a, b: a % b)(a, b)) == str(fdivmod_py(a, b)[1]) for a, b in pairs])
# expect: [True, True, True, True, True]

@njit
def fpow(a, b):
    return a ** b

for a, b in [(0.0, -1.0), (10.0, 400.0), (-8.0, 0.5)]:
    try:
        fpow(a, b)
    except Exception as e:
        print(type(e).__name__, e)
# expect: ZeroDivisionError 0.0 cannot be raised to a negative power
# expect: OverflowError float power overflow: result too large
# expect: ValueError negative number cannot be raised to a fractional power

@njit
def to_int(x):
    return int(x)

print(to_int(-2.0 ** 63), to_int(9.2233720368547748e18))
# expect: -9223372036854775808 9223372036854774784
for v in [1e19, float("inf"), float("nan")]:
    try:
        to_int(v)
    except Exception as e:
        print(type(e).__name__, e)
# expect: OverflowError float too large to convert to int64
# expect: OverflowError cannot convert float infinity to integer
# expect: ValueError cannot convert float nan to integer

@njit
def bool_minus(a, b):
    return (a > 0) - (b > 0)

@njit
def and_(a, b):
    return a and b

@njit
def or_(a, b):
    return a or b

@njit
def abs_f(x):
    return abs(x)

@njit
def same(flag):
    return flag

print(bool_minus(-1, 2), and_(-1, 2), and_(0, 5), or_(0, 5), or_(0, 2.5), abs_f(-0.0), same(True))
# expect: -1 2 0 5 2.5 0.0 True

# a statement that fails stores nothing
@njit
def store_div(xs, k):
    xs[0] = 7 // k

xs = [1, 2]
try:
    store_div(xs, 0)
except ZeroDivisionError:
    print(xs)
# expect: [1, 2]

# nor does a call whose argument failed: to_index, or a function of the user's that writes
from minitorch import to_index

@njit
def fill_bad(v, shape, idx):
    to_index(int(v), shape, idx)

def put(idx, k):
    idx[0] = k

@njit
def put_bad(idx, a, b):
    put(idx, a // b)

idx = [9, 9, 9]
for call, args in ((fill_bad, (float("inf"), (2, 3, 4), idx)), (put_bad, (idx, 1, 0))):
    try:
        call(*args)
    except Exception as e:
        print(type(e).__name__, idx)
# expect: OverflowError [9, 9, 9]
# expect: ZeroDivisionError [9, 9, 9]

# nor does a branch, or a loop's body, after its condition or its range failed
@njit
def if_bad(xs, v):
    if 1.0 / v > 0.0:
        xs[0] = 1
    elif v > 5.0:
        xs[1] = 2
    else:
        xs[2] = 3


@njit
def elif_bad(xs, v, k):
    if v > 5.0:
        xs[0] = 1
    elif 7 // k > 0:
        xs[1] = 2
    else:
        xs[2] = 3


@njit
def while_bad(xs, v):
    n = 0
    while 1.0 / v < 5.0 and n < 2:
        xs[n] = 1
        n += 1


@njit
def range_bad(xs, v):
    for i in range(int(v), 2):
        xs[i] = 5


for call, args in ((if_bad, (idx, 0.0)), (elif_bad, (idx, 0.0, 0)), (while_bad, (idx, 0.0)),
                   (range_bad, (idx, float("nan")))):
    idx[:] = [9, 9, 9]
    try:
        call(*args)
    except Exception as e:
        print(type(e).__name__, idx)
# expect: ZeroDivisionError [9, 9, 9]
# expect: ZeroDivisionError [9, 9, 9]
# expect: ZeroDivisionError [9, 9, 9]
# expect: ValueError [9, 9, 9]

# MiniTorch's index_to_position zips the index with the strides; to_index into an argument,
# and a loop whose C names once hid the unit's functions, compile with gcc
from minitorch import to_index, index_to_position

@njit
def position(index, strides):
    return index_to_position(index, strides)

@njit
def fill(shape, idx):
    to_index(5, shape, idx)

def h1(x):
    return x + 1

def h2(x):
    return x * 2

@njit
def twice(n):
    s = 0
    for j in range(1):
        s += h1(n) + h2(n)
    return s

idx = [0, 0]
fill((2, 3), idx)
fill((2, 3), idx)
print(position((2,), (10, 1)), idx, twice(3), twice(4))
# expect: 20 [1, 2] 10 13
parallel_diagnostics(fill)
# expect: fill(tuple of ints, int array): compiled to native code
# expect:   serial: no prange loop in the function called
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does
parallel_diagnostics(twice)
# expect: twice(int): compiled to native code
# expect:   serial: no prange loop in the function called
# expect:   compiled in and inlined, each for the types it is called with: h1() h2()
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does
