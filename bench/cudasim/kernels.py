# The textbook Task 3.3/3.4 kernels, as a student writes them with Numba's cuda.jit: one text
# run by both sides of run.sh (the kernel's simulator, and Numba's under NUMBA_ENABLE_CUDASIM=1).
# Each side defines cuda, numba, MAX_DIMS and the index helpers (to_index, broadcast_index,
# index_to_position) before this text.


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


def _mm_practice(out, a, b, size):
    BLOCK_DIM = 32
    a_shared = cuda.shared.array((BLOCK_DIM, BLOCK_DIM), numba.float64)
    b_shared = cuda.shared.array((BLOCK_DIM, BLOCK_DIM), numba.float64)
    i = cuda.threadIdx.x
    j = cuda.threadIdx.y
    if i < size and j < size:
        a_shared[i, j] = a[i * size + j]
        b_shared[i, j] = b[i * size + j]
    cuda.syncthreads()
    if i < size and j < size:
        acc = 0.0
        for k in range(size):
            acc += a_shared[i, k] * b_shared[k, j]
        out[i * size + j] = acc


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


def relu(x):
    return x if x > 0 else 0.0


def _tensor_matrix_multiply(out, out_shape, out_strides, out_size, a_storage, a_shape, a_strides,
                            b_storage, b_shape, b_strides):
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


jit_sum_practice = cuda.jit()(_sum_practice)
jit_mm_practice = cuda.jit()(_mm_practice)
map_relu = tensor_map(cuda.jit(device=True)(relu))
tensor_matrix_multiply = cuda.jit()(_tensor_matrix_multiply)
