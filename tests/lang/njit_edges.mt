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
