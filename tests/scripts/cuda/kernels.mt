# cuda.jit kernels as Module 3's Tasks 3.3 and 3.4 write them, and MiniTorch's CudaOps made of
# them: results against the built-in ops, or worked out by hand. ctest runs this script with the
# cuda backend's host stand-in, which compiles no CUDA C, so the kernels run in the kernel's CUDA
# simulator; bench/gpu_kernels.sh runs it on a GPU (compiled with NVRTC), where every line must
# be the same. tests/kernel/lib/test_cuda_jit.c compiles the CUDA C of every kernel launched here
# with NVRTC and trains on the CudaOps backend.
import numba
from numba import cuda
import minitorch
from minitorch import to_index, index_to_position, broadcast_index
MAX_DIMS = 32

# _sum_practice: each block of 32 threads sums its 32 values through shared memory
def _sum_practice(out, a, size):
    BLOCK_DIM = 32
    cache = cuda.shared.array(BLOCK_DIM, numba.float64)
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    pos = cuda.threadIdx.x
    if i < size:
        cache[pos] = a[i]
    else:
        cache[pos] = 0.0
    cuda.syncthreads()
    s = 1
    while s < BLOCK_DIM:
        if pos % (2 * s) == 0:
            cache[pos] += cache[pos + s]
        s *= 2
        cuda.syncthreads()
    if pos == 0:
        out[cuda.blockIdx.x] = cache[0]

jit_sum_practice = cuda.jit()(_sum_practice)
a = minitorch.tensor([float(i) for i in range(48)])
out = minitorch.zeros((2,))
jit_sum_practice[2, 32](out._tensor._storage, a._tensor._storage, 48)
# 0 + ... + 31 = 496, 32 + ... + 47 = 632
# expect: [496.0, 632.0]
print(out.tolist())

# math's functions in a kernel (the compiler's table of builtins, for the GPU's CUDA C too):
# softplus, log(1 + e^x), of each element
import math

def _softplus(out, a, size):
    i = cuda.grid(1)
    if i < size:
        out[i] = math.log1p(math.exp(a[i]))

jit_softplus = cuda.jit()(_softplus)
sp_in = minitorch.tensor([-2.0, 0.0, 0.5, 3.0])
sp_out = minitorch.zeros((4,))
jit_softplus[1, 32](sp_out._tensor._storage, sp_in._tensor._storage, 4)
# log1p(exp(x)) by Python: 0.12693, 0.69315, 0.97408, 3.04859
# expect: [0.12693, 0.69315, 0.97408, 3.04859]
print([round(v, 5) for v in sp_out.tolist()])

# tensor_map and tensor_zip: a thread per output element, MiniTorch's index helpers compiled in
def tensor_map(fn):
    def _map(out, out_shape, out_strides, out_size, in_storage, in_shape, in_strides):
        out_index = cuda.local.array(MAX_DIMS, numba.int32)
        in_index = cuda.local.array(MAX_DIMS, numba.int32)
        i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
        if i < out_size:
            to_index(i, out_shape, out_index)
            broadcast_index(out_index, out_shape, in_shape, in_index)
            o = index_to_position(out_index, out_strides)
            j = index_to_position(in_index, in_strides)
            out[o] = fn(in_storage[j])
    return cuda.jit()(_map)

def tensor_zip(fn):
    def _zip(out, out_shape, out_strides, out_size, a_storage, a_shape, a_strides, b_storage, b_shape, b_strides):
        out_index = cuda.local.array(MAX_DIMS, numba.int32)
        a_index = cuda.local.array(MAX_DIMS, numba.int32)
        b_index = cuda.local.array(MAX_DIMS, numba.int32)
        i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
        if i < out_size:
            to_index(i, out_shape, out_index)
            o = index_to_position(out_index, out_strides)
            broadcast_index(out_index, out_shape, a_shape, a_index)
            j = index_to_position(a_index, a_strides)
            broadcast_index(out_index, out_shape, b_shape, b_index)
            k = index_to_position(b_index, b_strides)
            out[o] = fn(a_storage[j], b_storage[k])
    return jit(_zip)

def jit(fn, **kwargs):
    return cuda.jit(**kwargs)(fn)

def affine(x):
    return x * -2.0 + 1.0

def add(x, y):
    return x + y

x = minitorch.rand((3, 40)).permute(1, 0)
y = minitorch.zeros((40, 3))
map_kernel = tensor_map(cuda.jit(device=True)(affine))
map_kernel[4, 32](*y.tuple(), y.size, *x.tuple())
# expect: True
print(bool((y == x * -2.0 + 1.0).all().item()))
b = minitorch.rand((1, 3))
z = minitorch.zeros((40, 3))
zip_kernel = tensor_zip(add)
zip_kernel[(40 * 3 + 31) // 32, 32](*z.tuple(), z.size, *x.tuple(), *b.tuple())
# expect: True
print(bool((z == x + b).all().item()))

# tensor_reduce: a block of 1024 threads per output cell; a dim longer than 1024 leaves a partial
# sum per 1024 values, as the course's CudaOps.reduce does
def tensor_reduce(fn):
    def _reduce(out, out_shape, out_strides, out_size, a_storage, a_shape, a_strides, reduce_dim, reduce_value):
        BLOCK_DIM = 1024
        cache = cuda.shared.array(BLOCK_DIM, numba.float64)
        out_index = cuda.local.array(MAX_DIMS, numba.int32)
        out_pos = cuda.blockIdx.x
        pos = cuda.threadIdx.x
        cache[pos] = reduce_value
        if out_pos < out_size:
            to_index(out_pos, out_shape, out_index)
            o = index_to_position(out_index, out_strides)
            out_index[reduce_dim] = out_index[reduce_dim] * BLOCK_DIM + pos
            if out_index[reduce_dim] < a_shape[reduce_dim]:
                cache[pos] = a_storage[index_to_position(out_index, a_strides)]
            cuda.syncthreads()
            x = 0
            while 2 ** x < BLOCK_DIM:
                j = 2 ** x
                if pos % (j * 2) == 0:
                    cache[pos] = fn(cache[pos], cache[pos + j])
                cuda.syncthreads()
                x += 1
            if pos == 0:
                out[o] = cache[0]
    return cuda.jit()(_reduce)

r = minitorch.tensor([[float(i % 7) for i in range(1500)], [1.0] * 1500])
rout = minitorch.zeros((2, 2))
reduce_kernel = tensor_reduce(add)
reduce_kernel[rout.size, 1024](*rout.tuple(), rout.size, *r.tuple(), 1, 0.0)
# row 0 is i % 7: its first 1024 values sum to 3067 and the other 476 to 1428 (Python's
# sum() over the same list); row 1 is ones
# expect: [[3067.0, 1428.0], [1024.0, 476.0]]
print(rout.tolist())
# the partial sums add up to the built-in sum
# expect: True
print(bool((rout.sum(1) == r.sum(1)).all().item()))

# _tensor_matrix_multiply: 32 x 32 tiles of a and b in shared memory (2-D, float64), the batch
# on blockIdx.z, b broadcast over the batch
def _tensor_matrix_multiply(out, out_shape, out_strides, out_size, a_storage, a_shape, a_strides, b_storage, b_shape, b_strides):
    a_batch_stride = a_strides[0] if a_shape[0] > 1 else 0
    b_batch_stride = b_strides[0] if b_shape[0] > 1 else 0
    batch = cuda.blockIdx.z
    BLOCK_DIM = 32
    a_shared = cuda.shared.array((BLOCK_DIM, BLOCK_DIM), numba.float64)
    b_shared = cuda.shared.array((BLOCK_DIM, BLOCK_DIM), numba.float64)
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    j = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y
    pi = cuda.threadIdx.x
    pj = cuda.threadIdx.y
    acc = 0.0
    for k0 in range(0, a_shape[2], BLOCK_DIM):
        if i < a_shape[1] and k0 + pj < a_shape[2]:
            a_shared[pi, pj] = a_storage[batch * a_batch_stride + i * a_strides[1] + (k0 + pj) * a_strides[2]]
        else:
            a_shared[pi, pj] = 0.0
        if j < b_shape[2] and k0 + pi < b_shape[1]:
            b_shared[pi, pj] = b_storage[batch * b_batch_stride + (k0 + pi) * b_strides[1] + j * b_strides[2]]
        else:
            b_shared[pi, pj] = 0.0
        cuda.syncthreads()
        for k in range(BLOCK_DIM):
            acc += a_shared[pi, k] * b_shared[k, pj]
        cuda.syncthreads()
    if i < out_shape[1] and j < out_shape[2]:
        out[batch * out_strides[0] + i * out_strides[1] + j * out_strides[2]] = acc

tensor_matrix_multiply = jit(_tensor_matrix_multiply)
A = minitorch.rand((2, 33, 45)).permute(0, 2, 1)
B = minitorch.rand((1, 33, 40))
C = minitorch.zeros((2, 45, 40))
tensor_matrix_multiply[(2, 2, 2), (32, 32)](*C.tuple(), C.size, *A.tuple(), *B.tuple())
# float64 sums of float32 products against the engine's float32 matmul
# expect: True
print(bool((((C - A @ B) * (C - A @ B)).sum() < 1e-8).item()))

# MiniTorch's sum_practice launches size // 32 + 1 blocks: with 64 values, block 2 writes out[2]
# expect: IndexError: index 2 is out of bounds for out of size 2, in thread (0, 0, 0) of block (2, 0, 0) of _sum_practice[3, 32]
try:
    jit_sum_practice[64 // 32 + 1, 32](out._tensor._storage, minitorch.ones((64,))._tensor._storage, 64)
except IndexError as e:
    print("IndexError:", e)


# ---- TensorBackend(CudaOps): the tensor library on the student's kernels ------------------
# MiniTorch's CudaOps as the template gives it, on the kernels above
THREADS_PER_BLOCK = 32

class CudaOps(minitorch.TensorOps):
    cuda = True

    @staticmethod
    def map(fn):
        f = tensor_map(cuda.jit(device=True)(fn))

        def ret(a, out=None):
            if out is None:
                out = a.zeros(a.shape)
            blockspergrid = (out.size + THREADS_PER_BLOCK - 1) // THREADS_PER_BLOCK
            f[blockspergrid, THREADS_PER_BLOCK](*out.tuple(), out.size, *a.tuple())
            return out

        return ret

    @staticmethod
    def zip(fn):
        f = tensor_zip(cuda.jit(device=True)(fn))

        def ret(a, b):
            out = a.zeros(minitorch.shape_broadcast(a.shape, b.shape))
            blockspergrid = (out.size + THREADS_PER_BLOCK - 1) // THREADS_PER_BLOCK
            f[blockspergrid, THREADS_PER_BLOCK](*out.tuple(), out.size, *a.tuple(), *b.tuple())
            return out

        return ret

    @staticmethod
    def reduce(fn, start=0.0):
        f = tensor_reduce(cuda.jit(device=True)(fn))

        def ret(a, dim):
            out_shape = list(a.shape)
            out_shape[dim] = (a.shape[dim] - 1) // 1024 + 1
            out_a = a.zeros(tuple(out_shape))
            f[out_a.size, 1024](*out_a.tuple(), out_a.size, *a.tuple(), dim, start)
            return out_a

        return ret

    @staticmethod
    def matrix_multiply(a, b):
        both_2d = 0
        if len(a.shape) == 2:
            a = a.contiguous().view(1, a.shape[0], a.shape[1])
            both_2d += 1
        if len(b.shape) == 2:
            b = b.contiguous().view(1, b.shape[0], b.shape[1])
            both_2d += 1
        ls = list(minitorch.shape_broadcast(a.shape[:-2], b.shape[:-2]))
        ls.append(a.shape[-2])
        ls.append(b.shape[-1])
        out = a.zeros(tuple(ls))
        blockspergrid = ((out.shape[1] + THREADS_PER_BLOCK - 1) // THREADS_PER_BLOCK,
                         (out.shape[2] + THREADS_PER_BLOCK - 1) // THREADS_PER_BLOCK, out.shape[0])
        tensor_matrix_multiply[blockspergrid, (THREADS_PER_BLOCK, THREADS_PER_BLOCK, 1)](*out.tuple(), out.size, *a.tuple(), *b.tuple())
        if both_2d == 2:
            out = out.view(out.shape[1], out.shape[2])
        return out

GPUBackend = minitorch.TensorBackend(CudaOps)
# maps and zips of IEEE arithmetic give simple's values exactly (the engine's float32 scalar
# functions, on a GPU too); exp and log come from the GPU's math library there, within an ulp or
# two of the host's; the reduce adds in a tree, in float64, so its sums are close; gradients
# flow through all of them
x = minitorch.rand((3, 5), backend=minitorch.SimpleBackend) + 0.25
y = x.to("student")
x.requires_grad_(True)
y.requires_grad_(True)
# expect: True student
print(((x * 2 - 1).relu() / (x + 1)).tolist() == ((y * 2 - 1).relu() / (y + 1)).tolist(), y.backend)
fx = ((x * 2 - 1).relu() + x.sigmoid().log() / x).permute(1, 0)
fy = ((y * 2 - 1).relu() + y.sigmoid().log() / y).permute(1, 0)
# expect: 1.0
print(fx.is_close(fy.to("simple")).all().item())
fx.sum().backward()
fy.sum().backward()
# expect: 1.0 1.0
print(fx.sum().is_close(fy.sum().to("simple")).item(), x.grad.is_close(y.grad.to("simple")).all().item())
a = minitorch.rand((2, 33, 45), backend=minitorch.SimpleBackend)
b = minitorch.rand((45, 40), backend=minitorch.SimpleBackend)
c = a.to("student") @ b.to("student")
# expect: (2, 40, 33) 1.0
print(c.permute(0, 2, 1).shape, c.to("simple").is_close(a @ b).all().item())
# a dim longer than a block: the course's reduce leaves a partial sum per 1024 values
# expect: ValueError: the student backend's reduce(sum) (from CudaOps) gave a tensor of shape (2,) where the op's output has shape (1,): one value per block of the dim, as MiniTorch's CudaOps.reduce leaves a dim longer than a block of 1024 threads (out_shape[dim] = (n - 1) // 1024 + 1). Reduce dims of at most 1024 values, or reduce the partial results again in your reduce
try:
    minitorch.ones((1500,), backend=GPUBackend).sum(0)
except ValueError as e:
    print("ValueError:", e)
# SGD steps through autodiff on the student's kernels move the weights as simple's do
# (tests/kernel/lib/test_cuda_jit.c runs train() on them)
def steps(backend):
    seed(5)
    w = minitorch.rand((2, 3), backend=backend)
    w.requires_grad_(True)
    pts = minitorch.rand((6, 2), backend=backend)
    for _ in range(3):
        loss = (pts @ w).sigmoid().sum()
        loss.backward()
        w = (w - w.grad * 0.5).detach()
        w.requires_grad_(True)
    return w.to("simple")
ws, wg = steps(minitorch.SimpleBackend), steps(GPUBackend)
# expect: True
print(bool((((ws - wg) * (ws - wg)).sum() < 1e-10).item()))
