# numba.njit functions given numpy float64 and float32 arrays, as MiniTorch's fast_ops.py gives
# them its TensorData's storages: compiled (not run in the interpreter), float64 arithmetic kept,
# what the function wrote copied back into the array, an array given twice one array, float32
# stores rounded. Expectations are CPython's with numpy 2 and Numba, except where a comment says
# the kernel's own words (Numba checks no bounds and no races).
import numpy as np
from numba import njit, prange

@njit(parallel=True)
def axpy(out, a, b, k):
    for i in prange(len(out)):
        out[i] = a[i] * k + b[i]

a = np.array([0.1, 0.2, 1e-20, 3.0])
b = np.array([0.2, 0.1, 1.0, -3.0])
out = np.zeros(4)
axpy(out, a, b, 1.0)
print(out.tolist())
# expect: [0.30000000000000004, 0.30000000000000004, 1.0, 0.0]
print(a.tolist(), b.tolist())
# expect: [0.1, 0.2, 1e-20, 3.0] [0.2, 0.1, 1.0, -3.0]
print(repr(out), out.dtype)
# expect: array([0.3, 0.3, 1. , 0. ]) float64

@njit
def total(xs):
    s = 0.0
    for x in xs:
        s += x
    return s

@njit(parallel=True)
def ptotal(xs):
    s = 0.0
    for i in prange(len(xs)):
        s += xs[i]
    return s

vals = np.array([1.0 / (k + 1) for k in range(1000)])
print(total(vals), abs(ptotal(vals) - total(vals)) < 1e-12)
# expect: 7.485470860550343 True

@njit
def pairs(out, xs, ys):
    for i, (x, y) in enumerate(zip(xs, ys)):
        out[i] = x * y
    return len(out)

p = np.zeros(3)
print(pairs(p, np.array([1.5, 2.5, 3.5]), np.array([2.0, 4.0, 8.0])), p.tolist())
# expect: 3 [3.0, 10.0, 28.0]

f32 = np.array([0.1, 0.2], dtype=np.float32)
o32 = np.zeros(2, dtype=np.float32)
axpy(o32, f32, f32, 3.0)
print(o32.tolist(), o32.dtype)
# expect: [0.4000000059604645, 0.800000011920929] float32

same = np.array([1.0, 2.0])
axpy(same, same, same, 10.0)
print(same.tolist())
# expect: [11.0, 22.0]

@njit
def shift_add(out, a):
    for i in range(1, len(out)):
        out[i] = out[i] + a[i - 1]

s = np.array([1.0, 1.0, 1.0, 1.0])
shift_add(s, s)
print(s.tolist())
# expect: [1.0, 2.0, 3.0, 4.0]

@njit
def scale_helper(xs, k):
    for i in range(len(xs)):
        xs[i] = xs[i] * k

@njit
def scale_twice(xs):
    scale_helper(xs, 2.0)
    scale_helper(xs, 0.5)
    scale_helper(xs, 3.0)

tw = np.array([0.1, 0.7])
scale_twice(tw)
print(tw.tolist())
# expect: [0.30000000000000004, 2.0999999999999996]

@njit
def first(xs):
    return xs[0] + xs[-1]

ro = np.array([2.5, 1.25, -0.5])
print(first(ro), ro.tolist())
# expect: 2.0 [2.5, 1.25, -0.5]



# ---- the kernel's own words (Numba neither reports these nor checks bounds and races) ----
# The diagnostics name the argument kinds each compiled version took: a float32 array is a
# Storage's kind (the same float32 memory).
# (Their machine-code line reads gcc's build, or says it will once a call runs it when the
# compile cache was cold and this session's first call ran tcc's build.)
axpy.parallel_diagnostics(level=1)
total.parallel_diagnostics(level=1)
# expect: axpy(float64 array, float64 array, float64 array, float): compiled to native code
# expect:   parallel: the prange loop (line 2 of axpy)
# expect:     over 2 threads (%threads); on one where a loop without inner loops has under 256 iterations
# expect:     in chunks of 1 to 65536 iterations, 8 per thread where the loop is long enough
# expect:     the interrupt polled between chunks
# expect:   each iteration's own variables: i (int)
# expect:   arrays every iteration shares: out (float64 array, an argument: written at positions that follow from the loop's variable), a (float64 array, an argument: not written in the loop), b (float64 array, an argument: not written in the loop)
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect: axpy(Storage, Storage, Storage, float): compiled to native code
# expect:   parallel: the prange loop (line 2 of axpy)
# expect:     over 2 threads (%threads); on one where a loop without inner loops has under 256 iterations
# expect:     in chunks of 1 to 65536 iterations, 8 per thread where the loop is long enough
# expect:     the interrupt polled between chunks
# expect:   each iteration's own variables: i (int)
# expect:   arrays every iteration shares: out (Storage, an argument: written at positions that follow from the loop's variable), a (Storage, an argument: not written in the loop), b (Storage, an argument: not written in the loop)
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does
# expect: total(float64 array): compiled to native code
# expect:   serial: no prange loop in the function called
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does

@njit(parallel=True)
def racy(out, a):
    for i in prange(len(a)):
        out[i % 2] = a[i]

try:
    racy(np.zeros(2), np.array([1.0, 2.0, 3.0]))
except Exception as e:
    print(type(e).__name__ + ":", e)
# expect: CompileError: racy() cannot run in parallel: iterations of the prange loop write the same elements of out: the index repeats (% of the loop's variable), and they run at once on their own threads (a race). Give each iteration its own element

@njit(parallel=True)
def scatter(out, idx, a):
    for i in prange(len(a)):
        out[idx[i]] = a[i]

try:
    scatter(np.zeros(4), np.array([0, 1, 1, 3]), np.array([1.0, 2.0, 3.0, 4.0]))
except Exception as e:
    print(type(e).__name__ + ":", e)
# expect: RuntimeError: iterations 1 and 2 of the prange loop both wrote out[1] (compiled scatter()): they run at once on their own threads, so which value stays is chance (a race). Give each iteration elements of its own

part = np.zeros(4)
try:
    axpy(part, np.array([1.0, 2.0]), np.array([0.5, 0.5, 0.5, 0.5]), 1.0)
except IndexError as e:
    print("IndexError:", e)
# expect: IndexError: index 2 is out of bounds for a of size 2 (compiled axpy())

# An n-d array runs in the interpreter
@njit
def fill2d(m):
    for i in range(len(m)):
        m[i][0] = 1.5

m = np.zeros((2, 2))
fill2d(m)
print(m.tolist())
# expect: [[1.5, 0.0], [1.5, 0.0]]
fill2d.parallel_diagnostics(level=1)
# expect: fill2d(): 1 call ran in the interpreter, not compiled: the first one's argument m is a numpy.ndarray of float64, a kind the compiler does not take
