# The builtins compiled code knows (range, prange, enumerate, zip, the dtypes, cuda's
# attributes) are known by what a name is bound to, not by how it is spelled: prange under
# another name still runs in parallel, numba's dtypes are dtypes wherever they come from, and a
# name of the user's that shadows a builtin is the user's. Each result is checked against the
# interpreter running the same function.
import numba
import numpy as np
from numba import njit, cuda
from numba import prange as pr


def twice_py(out, x):
    for i in pr(len(out)):
        out[i] = 2.0 * x[i]


twice = njit(parallel=True)(twice_py)
seed(1)
x = rand(1000)
want = zeros(1000)
got = zeros(1000)
twice_py(want._tensor._storage, x._tensor._storage)
twice(got._tensor._storage, x._tensor._storage)
print(got.is_close(want).all().item())
# expect: 1.0
parallel_diagnostics(twice)
# expect: twice_py(Storage, Storage): compiled to native code
# expect-re:   parallel: the prange loop \(line 2 of twice_py\)
# expect-re:     over .*
# expect-re:     in chunks of .*
# expect-re:     the interrupt polled between chunks
# expect:   each iteration's own variables: i (int)
# expect:   arrays every iteration shares: out (Storage, an argument: written at positions that follow from the loop's variable), x (Storage, an argument: not written in the loop)
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does


# numba.prange, spelled through the module
@njit(parallel=True)
def thrice(out, x):
    for i in numba.prange(len(out)):
        out[i] = 3.0 * x[i]


thrice(got._tensor._storage, x._tensor._storage)
print(got.is_close(want * 1.5).all().item())
# expect: 1.0
parallel_diagnostics(thrice)
# expect: thrice(Storage, Storage): compiled to native code
# expect-re:   parallel: the prange loop \(line 2 of thrice\)
# expect-re:     over .*
# expect-re:     in chunks of .*
# expect-re:     the interrupt polled between chunks
# expect:   each iteration's own variables: i (int)
# expect:   arrays every iteration shares: out (Storage, an argument: written at positions that follow from the loop's variable), x (Storage, an argument: not written in the loop)
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does


# prange never imported: Python's NameError, as the interpreter runs it
@njit(parallel=True)
def unbound(out):
    for i in prange(len(out)):
        out[i] = 1.0


try:
    unbound(got._tensor._storage)
except NameError as e:
    print(e)
# expect: name 'prange' is not defined, did you mean 'range'?


# a function of the user's named enumerate is the user's, in compiled code as in Python
def enumerate(xs):
    return [5, 6]


@njit
def firsts(xs):
    s = 0
    for k in enumerate(xs):
        s = s * 10 + k
    return s


print(firsts([1, 2, 3]))
# expect: 56


# numba's dtypes and numpy's, for np.zeros index buffers
@njit
def counts(n):
    a = np.zeros(3, numba.int64)
    b = np.zeros(3, dtype=np.int32)
    for i in range(n):
        a[i % 3] += 1
        b[i % 3] += 2
    return a[0] * 100 + b[1]


print(counts(7))
# expect: 304
parallel_diagnostics(counts)
# expect: counts(int): compiled to native code
# expect:   serial: no prange loop in the function called
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does


# cuda's attributes: the thread's place in the launch, the warp's size
@cuda.jit
def places(out):
    i = cuda.grid(1)
    if i < len(out):
        t = cuda.threadIdx.x + 10 * cuda.blockIdx.x + 100 * cuda.blockDim.x
        out[i] = t + 1000 * cuda.gridDim.x + 10000 * cuda.warpsize


o = zeros(6)
places[3, 2](o._tensor._storage)
print([o[k] for k in range(6)])
# expect: [323200.0, 323201.0, 323210.0, 323211.0, 323220.0, 323221.0]
