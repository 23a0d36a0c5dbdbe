# What the kernel's CUDA simulator tells about cuda.jit kernels that a GPU would not: each of its
# checks made to fire (races, unwritten shared memory, barriers, indices), launches a GPU refuses,
# and its counts of what a GPU's memory would do. The course's kernels themselves are in
# tests/scripts/cuda/kernels.mt; tests/kernel/lib/test_cuda_jit.c compiles the CUDA C of both
# scripts' kernels with NVRTC.
import numba
from numba import cuda
import minitorch
from minitorch import to_index, index_to_position, broadcast_index
MAX_DIMS = 32

# ---- what the simulator tells ------------------------------------------------------------
v = minitorch.tensor([float(i) for i in range(32)])
w = minitorch.zeros((32,))

def attempt(kernel, blocks, threads):
    try:
        kernel[blocks, threads](w._tensor._storage, v._tensor._storage, 20)
        print(kernel.__name__, "ran")
    except Exception as e:
        print(type(e).__name__ + ":", e)

# reading a neighbour's element before a barrier
@cuda.jit
def no_barrier(out, a, size):
    cache = cuda.shared.array(32, numba.float64)
    pos = cuda.threadIdx.x
    cache[pos] = a[pos]
    out[pos] = cache[(pos + 1) % 32]
# expect: RuntimeError: shared-memory race in no_barrier(): thread (1, 0, 0) of block (0, 0, 0) wrote cache[1], which thread (0, 0, 0) of the same block read (line 29) with no cuda.syncthreads() between them: on a GPU their order is chance
attempt(no_barrier, 1, 32)

# the same with the barrier
@cuda.jit
def with_barrier(out, a, size):
    cache = cuda.shared.array(32, numba.float64)
    pos = cuda.threadIdx.x
    cache[pos] = a[pos]
    cuda.syncthreads()
    out[pos] = cache[(pos + 1) % 32]
# expect: with_barrier ran
attempt(with_barrier, 1, 32)
# expect: 1.0 31.0 0.0
print(w[0], w[30], w[31])

# two threads writing one element
@cuda.jit
def both_write(out, a, size):
    cache = cuda.shared.array(4, numba.float64)
    pos = cuda.threadIdx.x
    cache[pos % 4] = a[pos]
    cuda.syncthreads()
    out[pos] = cache[pos % 4]
# expect: RuntimeError: shared-memory race in both_write(): thread (4, 0, 0) of block (0, 0, 0) wrote cache[0], which thread (0, 0, 0) of the same block wrote (line 51) with no cuda.syncthreads() between them: on a GPU their order is chance
attempt(both_write, 1, 32)

# a read of what no thread wrote (threads 16.. write nothing)
@cuda.jit
def unwritten(out, a, size):
    cache = cuda.shared.array(32, numba.float64)
    pos = cuda.threadIdx.x
    if pos < 16:
        cache[pos] = a[pos]
    cuda.syncthreads()
    out[pos] = cache[pos]
# expect: RuntimeError: thread (16, 0, 0) of block (0, 0, 0) read cache[16] of shared memory, which no thread of the block had written: it holds whatever a GPU left there
attempt(unwritten, 1, 32)

# a barrier after an early return (size is 20)
@cuda.jit
def early_return(out, a, size):
    cache = cuda.shared.array(32, numba.float64)
    pos = cuda.threadIdx.x
    if pos >= size:
        return
    cache[pos] = a[pos]
    cuda.syncthreads()
    out[pos] = cache[size - 1 - pos]
# expect: RuntimeError: cuda.syncthreads() in early_return(): thread (0, 0, 0) of block (0, 0, 0) waits there, but thread (20, 0, 0) of the block ended without reaching it. Every thread of a block must reach each syncthreads() (keep it outside `if`s that some threads skip, and before any early return): on a GPU this hangs or goes wrong
attempt(early_return, 1, 32)
# one block of 20 threads: every thread reaches it
# expect: early_return ran
attempt(early_return, 1, 20)
# expect: 19.0 0.0
print(w[0], w[19])

# two branches, a barrier in each
@cuda.jit
def two_barriers(out, a, size):
    pos = cuda.threadIdx.x
    if pos < 8:
        out[pos] = 1.0
        cuda.syncthreads()
    else:
        out[pos] = 2.0
        cuda.syncthreads()
# expect: RuntimeError: cuda.syncthreads() in two_barriers(): thread (0, 0, 0) of block (0, 0, 0) waits here, while thread (8, 0, 0) of the block waits at another syncthreads() (line 96). Every thread of a block must reach the same barriers in the same order
attempt(two_barriers, 1, 32)

# a shared array's dims are checked one by one: [0, 32] is outside (32, 32) though 32 < 32 * 32
@cuda.jit
def tile_index(out, a, size):
    t = cuda.shared.array((32, 32), numba.float32)
    t[0, cuda.threadIdx.x + 8] = 1.0
# expect: IndexError: index 32 is out of bounds for t of size 32, in thread (24, 0, 0) of block (0, 0, 0) of tile_index[1, 64]
attempt(tile_index, 1, 64)

# launches the GPU would refuse
# expect: ValueError: 64 x 32 x 1 threads in a block: a GPU runs at most 1024 (at most 1024 along x and y, 64 along z)
attempt(with_barrier, 1, (64, 32))
# expect: TypeError: the launch's threads: an int or a tuple of one to three ints, not float
attempt(with_barrier, 1, 32.0)
# expect: TypeError: a kernel is launched as with_barrier[blocks, threads](...), with both
try:
    with_barrier[4](w._tensor._storage, v._tensor._storage, 20)
except TypeError as e:
    print("TypeError:", e)

# what the compiler does not take is an error naming it (there is no interpreter of CUDA)
@cuda.jit
def returns(out, a, size):
    return 1
# expect: CompileError: cuda.jit cannot compile returns(): it does not take a kernel that returns a value (a kernel writes its results into arrays)
attempt(returns, 1, 32)

# ---- what a GPU's memory would do, counted by the simulator ------------------------------
# a read along the warp is one request of 4 sectors (32 floats, 128 bytes); a read 32 floats
# apart touches 32 sectors. A (32, 32) float32 tile read down a column puts all 32 threads in
# one bank (32-way conflict); padded to 33 columns they fall in 32 banks.
@cuda.jit
def access(out, a):
    i = cuda.threadIdx.x
    t = cuda.shared.array((32, 33), numba.float32)
    u = cuda.shared.array((32, 32), numba.float32)
    t[i, 0] = a[i]
    u[i, 0] = a[i * 32]
    u[0, i] = 1.0
    cuda.syncthreads()
    out[i] = t[i, 0] + u[i, 0] + u[0, i]
big = minitorch.rand((1024,))
%diagnostics access[1, 32](w._tensor._storage, big._tensor._storage)
# expect: access(Storage, Storage): a CUDA kernel, run by the kernel's CUDA simulator
# expect-re:   last launch: access\[\(1, 1, 1\), \(32, 1, 1\)\], 1 block of 32 threads \(1 warp each\): [0-9.]+ .s
# expect:   memory as a GPU would serve it, counted over 1 of the 1 blocks: a request is one access of a warp (32 threads in a row) at one place; it takes a transaction per 32-byte sector of global memory, or a wavefront per access to one of shared memory's 32 banks
# expect:     line  array         access        requests       per request  fewest
# expect:     135   a             global read          1      4.00 sectors    4.00
# expect:           coalesced
# expect:     135   t             shared write         1   1.00 wavefronts    1.00
# expect:           no bank conflict
# expect:     136   a             global read          1     32.00 sectors    4.00
# expect:           8.0x the fewest: uncoalesced, the warp's threads touch addresses far apart
# expect:     136   u             shared write         1  32.00 wavefronts    1.00
# expect:           32.0-way bank conflict: threads of a warp use different words of one bank
# expect:     137   u             shared write         1   1.00 wavefronts    1.00
# expect:           no bank conflict
# expect:     139   t             shared read          1   1.00 wavefronts    1.00
# expect:           no bank conflict
# expect:     139   u             shared read          1  32.00 wavefronts    1.00
# expect:           32.0-way bank conflict: threads of a warp use different words of one bank
# expect:     139   u             shared read          1   1.00 wavefronts    1.00
# expect:           no bank conflict
# expect:     139   out           global write         1      4.00 sectors    4.00
# expect:           coalesced
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does

# an element of a 2-D shared array is named as the kernel indexes it: a tile read while a thread
# of the block writes the next one (the loop's second barrier left out)
@cuda.jit
def tile_race(out, a, size):
    tile = cuda.shared.array((4, 8), numba.float64)
    i = cuda.threadIdx.x
    acc = 0.0
    for t in range(2):
        tile[i % 4, i // 4] = a[i] + t
        cuda.syncthreads()
        acc += tile[(i + 1) % 4, i // 4]
    out[i] = acc
# expect: RuntimeError: shared-memory race in tile_race(): thread (1, 0, 0) of block (0, 0, 0) wrote tile[1, 0], which thread (0, 0, 0) of the same block read (line 176) with no cuda.syncthreads() between them: on a GPU their order is chance
attempt(tile_race, 1, 32)

# a thread past the data (no `if i < size`) whose index wraps onto another thread's element:
# two threads write one element of global memory, which nothing orders
@cuda.jit
def unguarded_map(out, a, size):
    i = cuda.threadIdx.x
    out[i % 20] = a[i % 20] * 2.0
# expect: RuntimeError: thread (20, 0, 0) of block (0, 0, 0) and thread (0, 0, 0) of block (0, 0, 0) both wrote out[0] in unguarded_map(), with no barrier of one block between them: on a GPU which value stays is chance. Give each element one writer: a thread past the data (i >= the size) must not write
attempt(unguarded_map, 1, 32)

# one writer per element, across blocks too, or the same thread again: no race
@cuda.jit
def one_writer(out, a, size):
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    if i < size:
        out[i] = a[i]
        out[i] = out[i] + 1.0
# expect: one_writer ran
attempt(one_writer, 4, 8)

# two threads of one block writing an element in turn, a barrier between them, are ordered;
# threads of two blocks never are
@cuda.jit
def in_turn(out, a, size):
    i = cuda.threadIdx.x
    if i == 0:
        out[0] = 1.0
    cuda.syncthreads()
    if i == 1:
        out[0] = 2.0
# expect: in_turn ran
attempt(in_turn, 1, 4)
# expect: 2.0
print(w[0])
# expect-re: RuntimeError: thread \([01], 0, 0\) of block \([01], 0, 0\) and thread \([01], 0, 0\) of block \([01], 0, 0\) both wrote out\[0\] in in_turn\(\), with no barrier of one block between them: .*
attempt(in_turn, 2, 4)
