# What a prange loop's iterations own, and what they share, where the code gives the compiler
# less to go on: a loop variable given another value, an array under two names, two loops in
# one function, index buffers filled some other way than by to_index(i, ...), a variable an
# iteration may read before giving it a value. Each either runs as the interpreter runs it
# (serially, in Python's order) or is refused or raised as the race it is.
import minitorch
from minitorch import MAX_DIMS, broadcast_index, index_to_position, to_index
from numba import njit, prange
import numpy as np


def storage(n):
    return minitorch.zeros((n,))._tensor._storage


# an iteration that assigns the loop's variable changes its own copy, not the loop's count
@njit(parallel=True)
def renumber(x, n):
    for i in prange(n):
        j = i
        i = 0
        x[j] = x[j] + 1.0 + i


xs = storage(6)
renumber(xs, 6)
print(xs)
# expect: Storage([1.0, 1.0, 1.0, 1.0, 1.0, 1.0])


# ... and the race records still tell iterations apart by their number, not by that variable
@njit(parallel=True)
def renumber_race(x, idx, n):
    for i in prange(n):
        j = i
        i = 0
        x[idx[j]] = x[idx[j]] + 1.0


try:
    renumber_race(storage(4), [0, 0, 1, 2], 4)
except RuntimeError as e:
    print(e)
# expect: iterations 0 and 1 of the prange loop both reach x[0], one writing it, the other reading it (compiled renumber_race()): they run at once on their own threads, so whether the read comes before or after the write is chance (a race). Read only elements the loop does not write, or the iteration's own


# a name given two different arrays is left to the interpreter: what is written through it is
# not recorded as the first array's (whose record is shorter than the second)
@njit(parallel=True)
def two_arrays(x, y, idx, n):
    for i in prange(n):
        z = x
        z = y
        z[idx[i]] = 5.0


a = storage(2)
b = storage(100000)
two_arrays(a, b, [99990 + k % 5 for k in range(1000)], 1000)
print(b[99990], b[99994], b[99995], a)
# expect: 5.0 5.0 0.0 Storage([0.0, 0.0])
parallel_diagnostics(two_arrays)
# expect: two_arrays(Storage, Storage, int array, int): runs in the interpreter: the compiler does not take z given two different arrays (x, then y) (in two_arrays())


# a write through another name for an argument is that argument's (check_races records it)
@njit(parallel=True, check_races=True)
def through(x, s, n):
    for i in prange(n):
        z = x
        z[i * s] = z[i * s] + 1.0


try:
    through(storage(4), 0, 4)
except RuntimeError as e:
    print(e)
# expect: iterations 0 and 1 of the prange loop both reach x[0], one writing it, the other reading it (compiled through()): they run at once on their own threads, so whether the read comes before or after the write is chance (a race). Read only elements the loop does not write, or the iteration's own


# loops run one after the other: what one writes, the next may read anywhere; each loop's
# variable is its own (the course's map, with its shortcut for equal strides)
@njit(parallel=True)
def tmap(out, out_shape, out_strides, in_storage, in_shape, in_strides):
    if np.array_equal(out_strides, in_strides) and np.array_equal(out_shape, in_shape):
        for i in prange(len(out)):
            out[i] = in_storage[i] + 1.0
        return
    for i in prange(len(out)):
        out_index = np.zeros(MAX_DIMS, np.int32)
        in_index = np.zeros(MAX_DIMS, np.int32)
        to_index(i, out_shape, out_index)
        broadcast_index(out_index, out_shape, in_shape, in_index)
        o = index_to_position(out_index, out_strides)
        j = index_to_position(in_index, in_strides)
        out[o] = in_storage[j] + 1.0


@njit(parallel=True)
def steps(out, d, n):
    for i in prange(n):
        out[i] = i * i
    for i in prange(n - 1):
        d[i] = out[i + 1] - out[i]


t = minitorch.tensor([[1.0, 2.0, 3.0]])
o = minitorch.zeros((2, 3))
tmap(*o.tuple(), *t.tuple())
same = minitorch.zeros((1, 3))
tmap(*same.tuple(), *t.tuple())
print(o.tolist(), same.tolist())
# expect: [[2.0, 3.0, 4.0], [2.0, 3.0, 4.0]] [[2.0, 3.0, 4.0]]
parallel_diagnostics(tmap)
# expect: tmap(Storage, tuple of ints, tuple of ints, Storage, tuple of ints, tuple of ints): compiled to native code
# expect-re:   parallel: .*
# expect-re:     over .*
# expect-re:     in chunks of .*
# expect:     the interrupt polled between chunks
# expect:   each iteration's own variables: i (int) out_index (32 ints) in_index (32 ints) o (int) j (int)
# expect:   arrays every iteration shares: out (Storage, an argument: written at positions that follow from the loop's variable), out_shape (tuple of ints, an argument: not written in the loop), out_strides (tuple of ints, an argument: not written in the loop), in_storage (Storage, an argument: not written in the loop), in_shape (tuple of ints, an argument: not written in the loop), in_strides (tuple of ints, an argument: not written in the loop)
# expect-re:   index buffers made in the loop.*
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does
out = storage(5)
d = storage(4)
steps(out, d, 5)
print(out, d)
# expect: Storage([0.0, 1.0, 4.0, 9.0, 16.0]) Storage([1.0, 3.0, 5.0, 7.0])
parallel_diagnostics(steps)
# expect: steps(Storage, Storage, int): compiled to native code
# expect-re:   parallel: .*
# expect-re:     over .*
# expect-re:     in chunks of .*
# expect:     the interrupt polled between chunks
# expect:   each iteration's own variables: i (int)
# expect:   arrays every iteration shares: out (Storage, an argument: written at positions that follow from the loop's variable), d (Storage, an argument: written at positions that follow from the loop's variable)
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does


# a variable assigned at one place in an inner loop names its expression: out_pos sweeps the
# iteration's block as the inner loops' variables do, so out is not recorded at run time
@njit(parallel=True)
def mm(out, out_shape, out_strides, a, a_shape, a_strides, b, b_shape, b_strides):
    for n in prange(out_shape[0]):
        for i in range(out_shape[1]):
            for j in range(out_shape[2]):
                out_pos = n * out_strides[0] + i * out_strides[1] + j * out_strides[2]
                acc = 0.0
                for k in range(a_shape[2]):
                    acc += a[n * a_strides[0] + i * a_strides[1] + k * a_strides[2]] * b[n * b_strides[0] + k * b_strides[1] + j * b_strides[2]]
                out[out_pos] = acc


x = minitorch.tensor([[[1.0, 2.0], [3.0, 4.0]]])
y = minitorch.tensor([[[5.0, 6.0], [7.0, 8.0]]])
o = minitorch.zeros((1, 2, 2))
mm(*o.tuple(), *x.tuple(), *y.tuple())
print(o.tolist())
# expect: [[[19.0, 22.0], [43.0, 50.0]]]
parallel_diagnostics(mm)
# expect: mm(Storage, tuple of ints, tuple of ints, Storage, tuple of ints, tuple of ints, Storage, tuple of ints, tuple of ints): compiled to native code
# expect-re:   parallel: .*
# expect-re:     over .*
# expect-re:     in chunks of .*
# expect:     the interrupt polled between chunks
# expect:   each iteration's own variables: n (int) i (int) j (int) out_pos (int) acc (float) k (int)
# expect:   arrays every iteration shares: out (Storage, an argument: written at positions that follow from the loop's variable), out_shape (tuple of ints, an argument: not written in the loop), out_strides (tuple of ints, an argument: not written in the loop), a (Storage, an argument: not written in the loop), a_shape (tuple of ints, an argument: not written in the loop), a_strides (tuple of ints, an argument: not written in the loop), b (Storage, an argument: not written in the loop), b_shape (tuple of ints, an argument: not written in the loop), b_strides (tuple of ints, an argument: not written in the loop)
# expect-re:   built .*
# expect-re:   the loop over j \(line 4 of mm\) runs 4 iterations at a time, .*
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does


# an index buffer is the iteration's own position only when to_index(i, ...) fills it in every
# iteration: broadcast_index gives many iterations one index, and a to_index an if skips leaves
# the buffer as made, the same in all those iterations
@njit(parallel=True)
def to_input(out, out_shape, out_strides, a, a_shape, a_strides):
    for i in prange(len(out)):
        oi = np.zeros(MAX_DIMS, np.int32)
        ai = np.zeros(MAX_DIMS, np.int32)
        to_index(i, out_shape, oi)
        broadcast_index(oi, out_shape, a_shape, ai)
        p = index_to_position(ai, a_strides)
        a[p] = a[p] + 1.0


@njit(parallel=True)
def half(out, out_shape, out_strides):
    for i in prange(len(out)):
        oi = np.zeros(MAX_DIMS, np.int32)
        if i % 2 == 0:
            to_index(i, out_shape, oi)
        p = index_to_position(oi, out_strides)
        out[p] = out[p] + 1.0


# (600 iterations run on the threads: which two meet first, and how, is chance)
big = minitorch.zeros((600, 1))
small = minitorch.zeros((1, 1))
for fn, args in ((to_input, big.tuple() + small.tuple()), (half, big.tuple())):
    try:
        fn(*args)
    except RuntimeError as e:
        print(e)
# expect-re: (iterations [0-9]+ and [0-9]+ of the prange loop both (reach a\[0\], one writing it, the other reading it|wrote a\[0\])|iteration [0-9]+ of the prange loop wrote a\[0\], which other iterations read) \(compiled to_input\(\)\): .*
# expect-re: (iterations [0-9]+ and [0-9]+ of the prange loop both (reach out\[0\], one writing it, the other reading it|wrote out\[0\])|iteration [0-9]+ of the prange loop wrote out\[0\], which other iterations read) \(compiled half\(\)\): .*


# a variable an iteration may read before giving it a value would hold another iteration's
@njit(parallel=True)
def carried(x, n):
    for i in prange(n):
        if i % 2 == 0:
            k = i
        x[k] = x[k] + 1.0


# an elementwise comparison reads the whole array, others' elements too
@njit(parallel=True)
def compare(xs, ys, n):
    for i in prange(n):
        xs[i] = 1 if (xs != ys).any() else 2


for fn, args in ((carried, (storage(8), 8)), (compare, ([0, 0, 0, 0], [0, 0, 0, 0], 4))):
    try:
        fn(*args)
    except CompileError as e:
        print(e)
# expect: carried() cannot run in parallel: k is read in an iteration of the prange loop that may not have given it a value: in Python it would hold what an earlier iteration left, but the iterations run at once on their own threads, each with variables of its own. Give k a value in every iteration before reading it (k = 0 at the top of the loop's body)
# expect: compare() cannot run in parallel: xs, which every iteration of the prange loop shares, is written in the loop and given whole to a function or a loop over it, which may read elements other iterations write, at once on their own threads (a race). Read and write xs in the loop's body itself, at the iteration's own position (out[o]), or read from an array the loop does not write


# races are judged once every fact has settled: j follows from the loop's variable only once
# the inner loop has run a first time, which the first walk over the body does not know yet
def make_late():
    def late(out, n):
        for i in prange(n):
            j = 0
            for k in range(2):
                if k == 1:
                    out[j] = 1.0 + i
                j = i

    return late


want, got = storage(8), storage(8)
make_late()(want, 8)
njit(parallel=True)(make_late())(got, 8)
print([got[k] for k in range(8)] == [want[k] for k in range(8)], want[7])
# expect: True 8.0
