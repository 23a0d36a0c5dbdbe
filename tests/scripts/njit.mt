# numba's njit in the language: a function given to it is compiled to native code (C, by the
# system's compiler) at its first call with each kind of arguments. Each result is checked
# against the same function run by the interpreter (a twin made by the same factory, not given
# to njit).
import minitorch
from minitorch import MAX_DIMS
from numba import njit, prange


def make_arith():
    def arith(a, b):
        q = a // b
        r = a % b
        x = a / b
        y = -a // 3 + (-a) % 3 * 10
        z = max(a, b) - min(a, 2) + abs(-b) * 2
        w = 1 if a > b and not b == 0 or a < 0 else 2
        while q > 100:
            q = q // 2
        return (q + r) * 1000 + x + y + z + w + 2 ** 3 + (b * 2) ** 2 + 2.0 ** -1

    return arith


plain = make_arith()
fast = njit(make_arith())
cases = [(7, 2), (-7, 2), (7, -2), (-7, -2), (7.5, 2), (-7.5, 2.5), (1000, 3)]
print([fast(a, b) == plain(a, b) for a, b in cases])
# expect: [True, True, True, True, True, True, True]
print(fast(-7, 2), fast(7.5, 2))
# expect: -2953.0 4550.75
parallel_diagnostics(fast)
# expect: arith(int, int): compiled to native code
# expect:   serial: no prange loop in the function called
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect: arith(float, int): compiled to native code
# expect:   serial: no prange loop in the function called
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect: arith(float, float): compiled to native code
# expect:   serial: no prange loop in the function called
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does


# The course's Task 3.1 template, with the student's own index helpers (Task 2.1): compiled,
# the prange loop in parallel, the scalar function inlined as a call; the same values as the
# interpreter on a permuted input broadcast into a larger output.
def index_to_position(index, strides):
    position = 0
    for i in range(len(strides)):
        position += index[i] * strides[i]
    return position


def to_index(ordinal, shape, out_index):
    cur = ordinal + 0
    for i in range(len(shape) - 1, -1, -1):
        sh = shape[i]
        out_index[i] = int(cur % sh)
        cur = cur // sh


def broadcast_index(big_index, big_shape, shape, out_index):
    for i in range(len(shape)):
        if shape[i] > 1:
            out_index[i] = big_index[i + (len(big_shape) - len(shape))]
        else:
            out_index[i] = 0
    return None


index_to_position = njit(inline="always")(index_to_position)
to_index = njit(inline="always")(to_index)
broadcast_index = njit(inline="always")(broadcast_index)


def tensor_map(fn, jit):
    def _map(out, out_shape, out_strides, in_storage, in_shape, in_strides):
        for i in prange(len(out)):
            out_index = [0] * MAX_DIMS
            in_index = [0] * MAX_DIMS
            to_index(i, out_shape, out_index)
            broadcast_index(out_index, out_shape, in_shape, in_index)
            o = index_to_position(out_index, out_strides)
            j = index_to_position(in_index, in_strides)
            out[o] = fn(in_storage[j])

    return njit(parallel=True)(_map) if jit else _map


def square_plus(x):
    return x * x + 1.0 if x > 0 else -x


a = (minitorch.rand((40, 30), backend=minitorch.SimpleBackend) - 0.5).permute(1, 0)
got = minitorch.zeros((2, 30, 40), backend=minitorch.SimpleBackend)
want = minitorch.zeros((2, 30, 40), backend=minitorch.SimpleBackend)
fast_map = tensor_map(njit()(square_plus), True)
fast_map(*got.tuple(), *a.tuple())
tensor_map(square_plus, False)(*want.tuple(), *a.tuple())
print(got.tolist() == want.tolist(), got[1, 2, 3] == square_plus(a[2, 3]))
# expect: True True
%threads 1
fast_map(*got.tuple(), *a.tuple())
%threads 2
print(got.tolist() == want.tolist())
# expect: True
parallel_diagnostics(fast_map)
# expect: _map(Storage, tuple of ints, tuple of ints, Storage, tuple of ints, tuple of ints): compiled to native code
# expect-re:   parallel: the prange loop \(line 2 of _map\)
# expect-re:     over [0-9]+ threads \(%threads\); on one where a loop without inner loops has under 256 iterations
# expect-re:     in chunks of 1 to 1024 iterations, 8 per thread where the loop is long enough
# expect-re:     the interrupt polled between chunks
# expect:   each iteration's own variables: i (int) out_index (32 ints) in_index (32 ints) o (int) j (int)
# expect:   arrays every iteration shares: out (Storage, an argument: written at positions that follow from the loop's variable), out_shape (tuple of ints, an argument: not written in the loop), out_strides (tuple of ints, an argument: not written in the loop), in_storage (Storage, an argument: not written in the loop), in_shape (tuple of ints, an argument: not written in the loop), in_strides (tuple of ints, an argument: not written in the loop)
# expect:   index buffers made in the loop (np.zeros, [0] * n): one per chunk, on its thread's stack, each iteration clearing what the one before wrote; nothing is allocated per iteration
# expect:   compiled in and inlined, each for the types it is called with: to_index() broadcast_index() index_to_position() square_plus()
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does

# the 2024 template's spelling: np.zeros index buffers, np.prod of the shape, and the stride
# shortcut with np.array_equal; zip and enumerate loops over arrays
import numpy as np

# (numpy's dtypes are their names here: numpy prints np.int32 as <class 'numpy.int32'>)
print(np.zeros(3, np.int32), np.zeros(2), np.prod((2, 3, 4)), np.array((1, 2)), np.int32)
# expect: [0 0 0] [0. 0.] 24 [1 2] int32


def tensor_zip(fn):
    def _zip(out, out_shape, out_strides, a_storage, a_shape, a_strides, b_storage, b_shape, b_strides):
        if (
            len(out_strides) == len(a_strides)
            and np.array_equal(out_strides, a_strides)
            and np.array_equal(out_strides, b_strides)
            and np.array_equal(out_shape, a_shape)
            and np.array_equal(out_shape, b_shape)
        ):
            for i in prange(len(out)):
                out[i] = fn(a_storage[i], b_storage[i])
            return
        for i in prange(np.prod(out_shape)):
            out_index = np.zeros(MAX_DIMS, np.int32)
            a_index = np.zeros(MAX_DIMS, np.int32)
            b_index = np.zeros(MAX_DIMS, np.int32)
            to_index(i, out_shape, out_index)
            o = 0
            for ind, stride in zip(out_index, out_strides):
                o += ind * stride
            broadcast_index(out_index, out_shape, a_shape, a_index)
            broadcast_index(out_index, out_shape, b_shape, b_index)
            j = 0
            k = 0
            for d, s in enumerate(a_strides):
                j += a_index[d] * s
            for d, s in enumerate(b_strides):
                k += b_index[d] * s
            out[o] = fn(a_storage[j], b_storage[k])

    return njit(parallel=True)(_zip)


def sub(x, y):
    return x - y


z = tensor_zip(njit()(sub))
a = minitorch.rand((3, 4), backend=minitorch.SimpleBackend)
b = minitorch.rand((4,), backend=minitorch.SimpleBackend)
got = minitorch.zeros((3, 4), backend=minitorch.SimpleBackend)
z(*got.tuple(), *a.tuple(), *b.tuple())
same = minitorch.zeros((3, 4), backend=minitorch.SimpleBackend)
z(*same.tuple(), *a.tuple(), *a.tuple())
print(got.tolist() == (a - b).tolist(), same.tolist() == (a - a).tolist())
# expect: True True
parallel_diagnostics(z)
# expect: _zip(Storage, tuple of ints, tuple of ints, Storage, tuple of ints, tuple of ints, Storage, tuple of ints, tuple of ints): compiled to native code
# expect-re:   parallel: the prange loops \(lines 9, 12 of _zip\)
# expect-re:     over [0-9]+ threads \(%threads\); on one where a loop without inner loops has under 256 iterations
# expect-re:     in chunks of 1 to 1024 iterations \(to 65536 where an iteration runs no loop and calls no function with one\), 8 per thread where the loop is long enough
# expect-re:     the interrupt polled between chunks
# expect:   each iteration's own variables: i (int) out_index (32 ints) a_index (32 ints) b_index (32 ints) o (int) ind (int) stride (int) j (int) k (int) d (int) s (int)
# expect:   arrays every iteration shares: out (Storage, an argument: written, and reached at positions the compiler cannot show are each iteration's own: each write and read recorded and checked at run time), out_shape (tuple of ints, an argument: not written in the loop), out_strides (tuple of ints, an argument: not written in the loop), a_storage (Storage, an argument: not written in the loop), a_shape (tuple of ints, an argument: not written in the loop), a_strides (tuple of ints, an argument: not written in the loop), b_storage (Storage, an argument: not written in the loop), b_shape (tuple of ints, an argument: not written in the loop), b_strides (tuple of ints, an argument: not written in the loop)
# expect:   index buffers made in the loop (np.zeros, [0] * n): one per chunk, on its thread's stack, each iteration clearing what the one before wrote; nothing is allocated per iteration
# expect:   compiled in and inlined, each for the types it is called with: sub() to_index() broadcast_index()
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does

# an array made again is all zeros again, however it was written before (by an element, by
# a helper, or through another name)
from minitorch import to_index as mt_to_index


def remake(out, shape):
    for i in range(4):
        idx = np.zeros(8, np.int64)
        mine = [0] * 8
        other = [0] * 8
        total = 0
        for k in range(8):
            total += idx[k] * (k + 1) + mine[k] * 10 + other[k] * 100
        idx[i + 3] = 5
        mt_to_index(i + 5, shape, mine)
        to_index(i + 5, shape, other)
        alias = other
        alias[i + 2] = 7
        out[i] = total


remade = minitorch.zeros((4,))
njit(remake)(remade._tensor._storage, (2, 3))
print(remade.tolist())
# expect: [0.0, 0.0, 0.0, 0.0]
parallel_diagnostics(remake)
# expect: remake(Storage, tuple of ints): compiled to native code
# expect:   serial: no prange loop in the function called
# expect:   compiled in and inlined, each for the types it is called with: to_index()
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does

# an index outside a storage is an IndexError naming the kernel, the index and the size,
# located in the kernel's source; the kernel goes on running what comes next
def fill_past(out):
    for i in prange(len(out) + 1):
        out[i] = 1.0


try:
    njit(parallel=True)(fill_past)(minitorch.zeros((5,))._tensor._storage)
except IndexError as e:
    print(e)
# expect: index 5 is out of bounds for out of size 5 (compiled fill_past())


@njit
def divide(a, b):
    return a // b


try:
    divide(1, 0)
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)
# expect: ZeroDivisionError: integer division or modulo by zero


# each division's message is Python's (the interpreter's)
@njit
def divisions(a, b, k):
    if k == 0:
        return a / b
    if k == 1:
        return a % b
    return a // b


for a, b in ((1, 0), (1.5, 0.0), (2, 0.0)):
    for k in range(3):
        try:
            divisions(a, b, k)
        except ZeroDivisionError as e:
            print(e)
# expect: division by zero
# expect: integer modulo by zero
# expect: integer division or modulo by zero
# expect: float division by zero
# expect: float modulo by zero
# expect: float floor division by zero
# expect: float division by zero
# expect: float modulo by zero
# expect: float floor division by zero
parallel_diagnostics(divisions)
# expect: divisions(int, int, int): compiled to native code
# expect:   serial: no prange loop in the function called
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect: divisions(float, float, int): compiled to native code
# expect:   serial: no prange loop in the function called
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect: divisions(int, float, int): compiled to native code
# expect:   serial: no prange loop in the function called
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does


# the error stops the function where it happens: the store after it does not run
@njit
def divide_then_store(out, d):
    q = 10 // d
    out[0] = 5.0
    return q


stored = minitorch.zeros((2,))
try:
    divide_then_store(stored._tensor._storage, 0)
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)
# expect: ZeroDivisionError: integer division or modulo by zero
print(stored.tolist())
# expect: [0.0, 0.0]


# a prange loop's accesses out[i] are checked once per chunk, not at every iteration; an
# access under an if runs only when its condition holds, so a guarded loop past the end is fine
@njit(parallel=True)
def guarded_fill(out, n):
    for i in prange(n):
        if i < len(out):
            out[i] = 2.0


filled = minitorch.zeros((5,))
guarded_fill(filled._tensor._storage, 300)
print(filled.tolist())
# expect: [2.0, 2.0, 2.0, 2.0, 2.0]

# the classic prange mistakes that Numba runs into wrong results are located compile errors:
# a variable carried from one iteration to the next ...
def carried(x, out):
    y = 0.0
    for i in prange(len(x)):
        y = (y + x[i]) * 5
    out[0] = y


try:
    njit(parallel=True)(carried)(minitorch.ones((8,))._tensor._storage, got._tensor._storage)
except CompileError as e:
    print("CompileError:", e)
# expect: CompileError: carried() cannot run in parallel: y is assigned before the prange loop and again inside it: every iteration runs at once on its own thread, so they would all write the same variable (a race). Assign it inside the loop only, or accumulate into the output array at the iteration's own position

# a sum into a variable (acc += ...) is a reduction, as in Numba: each thread adds up its part
def make_total():
    def total(x, out):
        acc = 0.0
        n = 0
        for i in prange(len(x)):
            acc += x[i] * 2
            n += 1
        out[0] = acc
        return n

    return total


xs = minitorch.tensor([float(i) for i in range(5000)])
o1 = minitorch.zeros((1,))
o2 = minitorch.zeros((1,))
fast_total = njit(parallel=True)(make_total())
print(make_total()(xs._tensor._storage, o1._tensor._storage), fast_total(xs._tensor._storage, o2._tensor._storage), o1.item(), o2.item())
# expect: 5000 5000 24995000.0 24995000.0
parallel_diagnostics(fast_total)
# expect: total(Storage, Storage): compiled to native code
# expect-re:   parallel: the prange loop \(line 4 of total\)
# expect-re:     over .*
# expect-re:     in chunks of .*
# expect:     the interrupt polled between chunks
# expect:   each iteration's own variables: i (int)
# expect:   arrays every iteration shares: x (Storage, an argument: not written in the loop), out (Storage, an argument: not written in the loop)
# expect:   reductions, each thread's part combined when the loop ends: acc (+=), n (+=)
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does


# ... but reading the partial sum inside the loop is a race
def peek(x, out):
    acc = 0.0
    for i in prange(len(x)):
        acc += x[i]
        out[i] = acc


try:
    njit(parallel=True)(peek)(xs._tensor._storage, got._tensor._storage)
except CompileError as e:
    print("CompileError:", e)
# expect: CompileError: peek() cannot run in parallel: acc is summed up by the prange loop (acc += ...) and read inside it: each thread has its own partial acc until the loop ends, so the value read would be none of them. Read it after the loop

# iterations writing the same element of an output: a repeating index, or one that does not
# follow from the loop's variable
def fold(x, y):
    for i in prange(len(x)):
        y[i % 4] += x[i]


try:
    njit(parallel=True)(fold)(xs._tensor._storage, got._tensor._storage)
except CompileError as e:
    print("CompileError:", e)
# expect: CompileError: fold() cannot run in parallel: iterations of the prange loop write the same elements of y: the index repeats (% of the loop's variable), and they run at once on their own threads (a race). Give each iteration its own element


def last(x, y):
    for i in prange(len(x)):
        k = len(y) - 1
        y[k] = x[i]


try:
    njit(parallel=True)(last)(xs._tensor._storage, got._tensor._storage)
except CompileError as e:
    print("CompileError:", e)
# expect: CompileError: last() cannot run in parallel: every iteration of the prange loop writes the same element of y (its index does not follow from the loop's variable), at once on their own threads (a race). Write y at a position of the iteration's own, or add into a local variable (acc += ...) and store it after the loop

# ... and one scratch array shared by every iteration
def shared(out, out_shape):
    idx = [0] * MAX_DIMS
    for i in prange(len(out)):
        to_index(i, out_shape, idx)
        idx[0] = i
        out[i] = idx[0]


try:
    njit(parallel=True)(shared)(got._tensor._storage, got.shape)
except CompileError as e:
    print("CompileError:", e)
# expect: CompileError: shared() cannot run in parallel: idx is made once, before the prange loop (line 2 of shared), and written by every iteration, by to_index(): the iterations run at once on their own threads and overwrite each other's values (a race). Make it inside the loop: move line 2 into the loop's body, so that each iteration has its own

# a kernel's writes count as writes in place: backward refuses a value it saved before them
w = minitorch.tensor([1.0, 2.0, 3.0], requires_grad=True)
sq = w * w


@njit(parallel=True)
def double(s):
    for i in prange(len(s)):
        s[i] = s[i] * 2


double(w._tensor._storage)
try:
    sq.sum().backward()
except RuntimeError as e:
    print(w.tolist(), str(e)[:68])
# expect: [2.0, 4.0, 6.0] backward: one of the values needed for gradient computation has been

# boundscheck=False compiles without the checks (Numba's default): the same values
src = (minitorch.rand((40, 30), backend=minitorch.SimpleBackend) - 0.5).permute(1, 0)
unchecked = minitorch.zeros((2, 30, 40), backend=minitorch.SimpleBackend)
checked = minitorch.zeros((2, 30, 40), backend=minitorch.SimpleBackend)
fast_unchecked = njit(parallel=True, boundscheck=False)(tensor_map(square_plus, False))
fast_unchecked(*unchecked.tuple(), *src.tuple())
fast_map(*checked.tuple(), *src.tuple())
print(unchecked.tolist() == checked.tolist())
# expect: True
parallel_diagnostics(fast_unchecked)
# expect: _map(Storage, tuple of ints, tuple of ints, Storage, tuple of ints, tuple of ints): compiled to native code, indices unchecked (boundscheck=False)
# expect-re:   parallel: .*
# expect-re:     over .*
# expect-re:     in chunks of .*
# expect:     the interrupt polled between chunks
# expect:   each iteration's own variables: i (int) out_index (32 ints) in_index (32 ints) o (int) j (int)
# expect:   arrays every iteration shares: out (Storage, an argument: written at positions that follow from the loop's variable), out_shape (tuple of ints, an argument: not written in the loop), out_strides (tuple of ints, an argument: not written in the loop), in_storage (Storage, an argument: not written in the loop), in_shape (tuple of ints, an argument: not written in the loop), in_strides (tuple of ints, an argument: not written in the loop)
# expect:   index buffers made in the loop (np.zeros, [0] * n): one per chunk, on its thread's stack, each iteration clearing what the one before wrote; nothing is allocated per iteration
# expect:   compiled in and inlined, each for the types it is called with: to_index() broadcast_index() index_to_position() square_plus()
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does

# the 2024 template's own wrapper (njit(fn, **kwargs) over numba's), the shortcut's test
# spelled (a != b).any() as numpy compares arrays, range with a step, an early return from a
# loop, prange over a shape's first dim
from numba import njit as _njit


def njit24(fn, **kwargs):
    return _njit(inline="always", **kwargs)(fn)


def first_negative(out, in_storage, in_shape, in_strides, out_strides):
    if (out_strides != in_strides).any() or not (in_shape == in_shape).all():
        return -2
    for i in range(0, len(in_storage), 2):
        if in_storage[i] < 0:
            return i
    for n in prange(in_shape[0]):
        out[n] = in_storage[n] if in_storage[n] > 0 else 0.0
    return -1


first_neg = njit24(first_negative, parallel=True, fastmath=True)
vals = minitorch.tensor([1.0, 2.0, -3.0, 4.0])
into = minitorch.zeros((4,))
print(first_neg(into.tuple()[0], *vals.tuple(), (1,)), first_neg(into.tuple()[0], *vals.tuple(), (2,)))
# expect: 2 -2
print(first_neg(into.tuple()[0], *(-vals).tuple(), (1,)), into.tolist())
# expect: 0 [0.0, 0.0, 0.0, 0.0]
print(first_neg(into.tuple()[0], *minitorch.tensor([1.0, -1.0, 2.0]).tuple(), (1,)), into.tolist())
# expect: -1 [1.0, 0.0, 2.0, 0.0]
try:
    first_neg(into.tuple()[0], *vals.view(2, 2).tuple(), (1, 1, 1))
except ValueError as e:
    print(e)
# expect: operands could not be broadcast together with shapes (3,) (2,)
parallel_diagnostics(first_neg)
# expect: first_negative(Storage, Storage, tuple of ints, tuple of ints, tuple of ints): compiled to native code
# expect-re:   parallel: the prange loop \(line 7 of first_negative\)
# expect-re:     over .*
# expect-re:     in chunks of .*
# expect:     the interrupt polled between chunks
# expect:   each iteration's own variables: n (int)
# expect:   arrays every iteration shares: out (Storage, an argument: written at positions that follow from the loop's variable), in_storage (Storage, an argument: not written in the loop), in_shape (tuple of ints, an argument: not written in the loop), in_strides (tuple of ints, an argument: not written in the loop), out_strides (tuple of ints, an argument: not written in the loop)
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does


# check_races=True: a race the compiler cannot see (the index comes from data) is caught at run
# time, whichever threads the two writes ran on; without it the same call runs silently
def scatter(out, src, idx):
    for i in prange(len(src)):
        out[idx[i]] = src[i]


scattered = minitorch.zeros((4,))
source = minitorch.tensor([1.0, 2.0, 3.0, 4.0])
checked_scatter = njit(parallel=True, check_races=True)(scatter)
checked_scatter(scattered.tuple()[0], source.tuple()[0], (3, 2, 1, 0))
print(scattered.tolist())
# expect: [4.0, 3.0, 2.0, 1.0]
try:
    checked_scatter(scattered.tuple()[0], source.tuple()[0], (0, 1, 2, 1))
except RuntimeError as e:
    print(e)
# expect: iterations 1 and 3 of the prange loop both wrote out[1] (compiled scatter()): they run at once on their own threads, so which value stays is chance (a race). Give each iteration elements of its own
parallel_diagnostics(checked_scatter)
# expect: scatter(Storage, Storage, tuple of ints): compiled to native code, each write of its prange loop to a storage, and each read of one it writes, checked for races (check_races=True)
# expect-re:   parallel: .*
# expect-re:     over .*
# expect-re:     in chunks of .*
# expect:     the interrupt polled between chunks
# expect:   each iteration's own variables: i (int)
# expect:   arrays every iteration shares: out (Storage, an argument: written, and reached at positions the compiler cannot show are each iteration's own: each write and read recorded and checked at run time), src (Storage, an argument: not written in the loop), idx (tuple of ints, an argument: not written in the loop)
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does
# an index read from data is one the compiler cannot follow: without check_races too, the
# writes of such a store are recorded and a second iteration writing an element is the race
try:
    njit(parallel=True)(scatter)(scattered.tuple()[0], source.tuple()[0], (0, 1, 2, 1))
except RuntimeError as e:
    print(e)
# expect: iterations 1 and 3 of the prange loop both wrote out[1] (compiled scatter()): they run at once on their own threads, so which value stays is chance (a race). Give each iteration elements of its own
try:
    njit(parallel=True, check_races=True, boundscheck=False)
except ValueError as e:
    print(e)
# expect: njit(check_races=True) checks indices: it cannot be boundscheck=False


# an iteration that reads an element another writes races with it as surely as two writers:
# a Storage the loop writes and reaches anywhere but at one index of the iteration's own has
# each read and write recorded, and a read of another iteration's element is the race
@njit(parallel=True)
def shift(x, n):
    for i in prange(n):
        x[i] = x[(i + 1) % n] + 1.0


@njit(parallel=True)
def pair(x, n):
    for i in prange(n):
        x[i] = 1.0
        x[i + 1] = 2.0


@njit(parallel=True)
def moved(out, out_shape, out_strides):
    for i in prange(len(out)):
        idx = np.zeros(MAX_DIMS, np.int32)
        to_index(i, out_shape, idx)
        idx[0] = 0
        out[index_to_position(idx, out_strides)] = i


@njit(parallel=True)
def two_o(x, n):
    for i in prange(n):
        o = i
        if i % 2 == 1:
            o = i + 1
        x[o] = 1.0


for fn, args in ((shift, 6), (pair, 6)):
    try:
        fn(minitorch.zeros((8,))._tensor._storage, args)
    except RuntimeError as e:
        print(e)
# expect-re: iteration [0-9] of the prange loop wrote x\[[0-9]\], which other iterations read .*|iterations [0-9] and [0-9] of the prange loop both reach x\[[0-9]\], one writing it, the other.*
# expect: iterations 0 and 1 of the prange loop both wrote x[1] (compiled pair()): they run at once on their own threads, so which value stays is chance (a race). Give each iteration elements of its own
for fn, t in ((moved, minitorch.zeros((3, 2))), (two_o, None)):
    try:
        fn(*t.tuple()) if t is not None else fn(minitorch.zeros((8,))._tensor._storage, 6)
    except RuntimeError as e:
        print(e)
# expect: iterations 0 and 2 of the prange loop both wrote out[0] (compiled moved()): they run at once on their own threads, so which value stays is chance (a race). Give each iteration elements of its own
# expect: iterations 1 and 2 of the prange loop both wrote x[2] (compiled two_o()): they run at once on their own threads, so which value stays is chance (a race). Give each iteration elements of its own
parallel_diagnostics(shift)
# expect: shift(Storage, int): compiled to native code
# expect-re:   parallel: .*
# expect-re:     over .*
# expect-re:     in chunks of .*
# expect:     the interrupt polled between chunks
# expect:   each iteration's own variables: i (int)
# expect:   arrays every iteration shares: x (Storage, an argument: written, and reached at positions the compiler cannot show are each iteration's own: each write and read recorded and checked at run time)
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does

# ... which, where no two iterations meet, runs as the interpreter does; a loop run before
# (another prange loop, or this one in an earlier round) is not another iteration
@njit(parallel=True)
def rounds(x, perm, n):
    for r in range(3):
        for i in prange(n):
            x[perm[i]] = x[perm[i]] + r
    for i in prange(n):
        x[perm[(i + 1) % n]] = x[perm[(i + 1) % n]] * 2.0


xs = minitorch.zeros((4,))._tensor._storage
rounds(xs, (2, 0, 3, 1), 4)
print(xs)
# expect: Storage([6.0, 6.0, 6.0, 6.0])

# an iteration reading and writing its own element (a reduction into out[o]) is not recorded
@njit(parallel=True)
def red(out, out_shape, out_strides, a, a_strides, dim, size):
    for i in prange(len(out)):
        idx = np.zeros(MAX_DIMS, np.int32)
        to_index(i, out_shape, idx)
        o = index_to_position(idx, out_strides)
        for s in range(size):
            idx[dim] = s
            out[o] = out[o] + a[index_to_position(idx, a_strides)]


t = minitorch.tensor([[1.0, 2.0], [3.0, 4.0]])
r = minitorch.zeros((2, 1))
red(*r.tuple(), t._tensor._storage, t._tensor._strides, 1, 2)
print(r.tolist())
# expect: [[3.0], [7.0]]
parallel_diagnostics(red)
# expect: red(Storage, tuple of ints, tuple of ints, Storage, tuple of ints, int, int): compiled to native code
# expect-re:   parallel: .*
# expect-re:     over .*
# expect-re:     in chunks of .*
# expect:     the interrupt polled between chunks
# expect:   each iteration's own variables: i (int) idx (32 ints) o (int) s (int)
# expect:   arrays every iteration shares: out (Storage, an argument: written at positions that follow from the loop's variable), out_shape (tuple of ints, an argument: not written in the loop), out_strides (tuple of ints, an argument: not written in the loop), a (Storage, an argument: not written in the loop), a_strides (tuple of ints, an argument: not written in the loop)
# expect-re:   index buffers made in the loop.*
# expect-re:   compiled in and inlined.*
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does

# an array that cannot be recorded (a list), or that a function or a loop reads whole, is
# refused where the loop writes it
@njit(parallel=True)
def list_shift(xs, n):
    for i in prange(n):
        xs[i] = xs[n - 1 - i] + 1


def total(x):
    s = 0.0
    for v in x:
        s += v
    return s


@njit(parallel=True)
def whole(x, n):
    for i in prange(n):
        x[i] = total(x)


for fn, arg in ((list_shift, [1, 2, 3]), (whole, minitorch.zeros((3,))._tensor._storage)):
    try:
        fn(arg, 3)
    except CompileError as e:
        print(e)
# expect: list_shift() cannot run in parallel: xs, which every iteration of the prange loop shares, is written and read at indices that are not all one element of the iteration's own: an iteration may reach an element another writes, at once on their own threads (a race). Read and write xs only at the iteration's own position (out[o], one index everywhere), or read from an array the loop does not write
# expect: whole() cannot run in parallel: x, which every iteration of the prange loop shares, is written in the loop and given whole to a function or a loop over it, which may read elements other iterations write, at once on their own threads (a race). Read and write x in the loop's body itself, at the iteration's own position (out[o]), or read from an array the loop does not write


# what the compiler does not take yet runs in the interpreter, and the diagnostics say why
@njit
def describe(n):
    return str(n) + " items"


print(describe(3))
# expect: 3 items
parallel_diagnostics(describe)
# expect: describe(int): runs in the interpreter: the compiler does not take this call (in describe())
parallel_diagnostics(square_plus)
# expect: square_plus(float): compiled to native code
# expect:   serial: no prange loop in the function called
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does
parallel_diagnostics(make_arith)
# expect: make_arith() is not given to njit: it runs in the interpreter
# minitorch.operators' functions as the scalar fn of a compiled kernel (the course's
# tensor_map(njit()(operators.neg)), MiniTorch's parallel_check.py): the interpreter's values
# bit for bit, its result types and its errors
from minitorch import operators


def apply1(f):
    def k1(out, a):
        for i in prange(len(out)):
            out[i] = f(a[i])

    return k1


def apply2(f):
    def k2(out, a, b):
        for i in prange(len(out)):
            out[i] = f(a[i], b[i])

    return k2


xs = minitorch.tensor([-3.5, -1.0, -0.25, 0.5, 1.0, 2.75, 7.0, 30.0, 88.5, -88.5])
ys = minitorch.tensor([2.0, -1.0, 0.75, 0.5, -4.0, 2.75, 1e-3, -30.0, 88.5, 3.0])
pos = minitorch.tensor([1e-3, 0.25, 0.5, 1.0, 2.75, 7.0, 30.0, 88.5, 1e6, 3.0])
same = []
for f in (operators.neg, operators.relu, operators.sigmoid, operators.log, operators.exp,
          operators.inv, operators.id):
    a = pos if f == operators.log else xs
    got, want = minitorch.zeros((10,)), minitorch.zeros((10,))
    njit(parallel=True)(apply1(f))(got.tuple()[0], a.tuple()[0])
    apply1(f)(want.tuple()[0], a.tuple()[0])
    same.append(got.tolist() == want.tolist())
for f in (operators.add, operators.mul, operators.lt, operators.eq, operators.max,
          operators.is_close, operators.relu_back, operators.log_back, operators.inv_back):
    got, want = minitorch.zeros((10,)), minitorch.zeros((10,))
    njit(parallel=True)(apply2(f))(got.tuple()[0], xs.tuple()[0], ys.tuple()[0])
    apply2(f)(want.tuple()[0], xs.tuple()[0], ys.tuple()[0])
    same.append(got.tolist() == want.tolist())
print(same)
# expect: [True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True]


# the same at double precision: a compiled scalar function against the operator itself
def scalar1(f):
    def s1(x):
        return f(x)

    return s1


def scalar2(f):
    def s2(x, y):
        return f(x, y)

    return s2


vals = [-700.5, -88.72, -3.5, -1.0, -0.25, -1e-9, 1e-9, 0.1, 0.5, 1.0, 2.75, 7.3, 30.1, 88.7, 700.2]
exact = []
for f in (operators.neg, operators.relu, operators.sigmoid, operators.exp, operators.inv,
          operators.id):
    cf = njit(scalar1(f))
    exact.append(all(cf(x) == f(x) for x in vals))
cl = njit(scalar1(operators.log))
exact.append(all(cl(abs(x)) == operators.log(abs(x)) for x in vals))
for f in (operators.add, operators.mul, operators.lt, operators.eq, operators.max,
          operators.is_close, operators.relu_back, operators.log_back, operators.inv_back):
    cf = njit(scalar2(f))
    exact.append(all(cf(x, y) == f(x, y) for x in vals for y in vals[::3]))
print(exact)
# expect: [True, True, True, True, True, True, True, True, True, True, True, True, True, True, True, True]
parallel_diagnostics(cl)
# expect: s1(float): compiled to native code
# expect:   serial: no prange loop in the function called
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does
sig = njit(parallel=True)(apply1(operators.sigmoid))
sig(minitorch.zeros((10,)).tuple()[0], xs.tuple()[0])
parallel_diagnostics(sig)
# expect: k1(Storage, Storage): compiled to native code
# expect-re:   parallel: .*
# expect-re:     over .*
# expect-re:     in chunks of .*
# expect:     the interrupt polled between chunks
# expect:   each iteration's own variables: i (int)
# expect:   arrays every iteration shares: out (Storage, an argument: written at positions that follow from the loop's variable), a (Storage, an argument: not written in the loop)
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does


@njit
def op_scalars(a, b):
    return operators.add(a, b) * 2 + operators.mul(a, b) + operators.max(a, b) + operators.id(a)


print(op_scalars(2, 3), op_scalars(2.5, 1.5), op_scalars(2, 1.5))
# expect: 21 16.75 14.0
parallel_diagnostics(op_scalars)
# expect: op_scalars(int, int): compiled to native code
# expect:   serial: no prange loop in the function called
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect: op_scalars(float, float): compiled to native code
# expect:   serial: no prange loop in the function called
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect: op_scalars(int, float): runs in the interpreter: the compiler does not take operators.max of int and float values (in op_scalars())
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does
failing = []
for f, a, why in ((operators.inv, [0.0], "inv(0)"), (operators.log, [-1.0], "log(-1)"),
                  (operators.exp, [1000.0], "exp(1000)")):
    failing.append(njit(parallel=True)(apply1(f)))
    try:
        failing[-1](minitorch.zeros((1,)).tuple()[0], minitorch.tensor(a).tuple()[0])
    except (ZeroDivisionError, ValueError, OverflowError) as e:
        print(why, type(e).__name__, e)
# expect: inv(0) ZeroDivisionError float division by zero
# expect: log(-1) ValueError math domain error
# expect: exp(1000) OverflowError math range error
parallel_diagnostics(failing[2])
# expect: k1(Storage, Storage): compiled to native code
# expect-re:   parallel: .*
# expect-re:     over .*
# expect-re:     in chunks of .*
# expect:     the interrupt polled between chunks
# expect:   each iteration's own variables: i (int)
# expect:   arrays every iteration shares: out (Storage, an argument: written at positions that follow from the loop's variable), a (Storage, an argument: not written in the loop)
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does
# Numba's method, as MiniTorch's parallel_check.py prints it: the same report, then None
print(square_plus.parallel_diagnostics(level=3))
# expect: square_plus(float): compiled to native code
# expect:   serial: no prange loop in the function called
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does
# expect: None
for bad in (0, 5, "3"):
    try:
        square_plus.parallel_diagnostics(level=bad)
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
# expect: ValueError parallel_diagnostics() level must be 1, 2, 3 or 4 (as in Numba), not 0
# expect: ValueError parallel_diagnostics() level must be 1, 2, 3 or 4 (as in Numba), not 5
# expect: TypeError parallel_diagnostics() level must be an int, not str
print(hasattr(make_arith, "parallel_diagnostics"), hasattr(square_plus, "parallel_diagnostics"))
# expect: False True
parallel_diagnostics(3)
# expect-error: TypeError: parallel_diagnostics() takes a function, not int
