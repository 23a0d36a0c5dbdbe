# %%
# the practice kernels come before the ops class in the course, and need none: graded on their
# own, failing where the kernel is missing, passing once it is written
try:
    check("3.3", "sum_practice", seed=31)
except AssertionError as e:
    print("AssertionError:", e)
# expect: check("3.3", "sum_practice"): MiniTorch's Task 3.3 tests of sum_practice on your kernel (_sum_practice), expected values from simple, inputs drawn with seed 31
# expect:   sum_practice (16 values)                      FAILED
# expect:   sum_practice (64 values)                      FAILED
# expect:   sum_practice (48 values)                      FAILED
# expect-re: 0 passed, 3 failed \([0-9.]+ s\)
# expect:
# expect: FAILED sum_practice (16 values): no kernel jit_sum_practice in the session: write the template's _sum_practice and make it one as it does (jit_sum_practice = cuda.jit()(_sum_practice))
# expect:
# expect: FAILED sum_practice (64 values): no kernel jit_sum_practice in the session: write the template's _sum_practice and make it one as it does (jit_sum_practice = cuda.jit()(_sum_practice))
# expect:
# expect: FAILED sum_practice (48 values): no kernel jit_sum_practice in the session: write the template's _sum_practice and make it one as it does (jit_sum_practice = cuda.jit()(_sum_practice))
# expect: AssertionError: 3 of 3 tests of Task 3.3 (sum_practice) failed (the first: sum_practice (16 values)); see above

import numba
from numba import cuda


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
    step = 1
    while step < BLOCK_DIM:
        if pos % (2 * step) == 0:
            cache[pos] = cache[pos] + cache[pos + step]
        cuda.syncthreads()
        step = step * 2
    if pos == 0 and cuda.blockIdx.x * BLOCK_DIM < size:  # the course's last block has none
        out[cuda.blockIdx.x] = cache[0]


jit_sum_practice = cuda.jit()(_sum_practice)
check("3.3", "sum_practice", seed=31)
# expect: check("3.3", "sum_practice"): MiniTorch's Task 3.3 tests of sum_practice on your kernel (_sum_practice), expected values from simple, inputs drawn with seed 31
# expect:   sum_practice (16 values)               1 case   passed
# expect:   sum_practice (64 values)               1 case   passed
# expect:   sum_practice (48 values)               1 case   passed
# expect-re: 3 passed, 0 failed \([0-9.]+ s\)
del jit_sum_practice

# %%
# check("3.1") and check("3.2"): MiniTorch's tests of Tasks 3.1 and 3.2 run on the student's
# backend against simple. The course's template as given fails them with its own message; a
# planted bug (zip reads b at a's index) fails exactly the tests whose zips broadcast (a
# constant, or a summed input), each at its smallest failing input; the textbook solution passes
# all 53. check(task, part) runs one function's tests alone, forward: a bug planted in one of map,
# zip, reduce and matrix_multiply fails that part and no other.
import minitorch
from minitorch import MAX_DIMS, to_index, broadcast_index, index_to_position, shape_broadcast
from numba import njit, prange
import numpy as np

try:
    check("3.1", seed=31)
except RuntimeError as e:
    print(e)
# expect: check("3.1") tests your backend, and there is none yet: write your ops class (class FastOps(TensorOps): ...), then make it the backend with FastTensorBackend = minitorch.TensorBackend(FastOps)

try:
    check("3.5")
except ValueError as e:
    print(e)
# expect: check() knows the tasks "0.1" to "0.4" (operators, properties, higher-order functions, Module), "1.1" to "1.5" (central differences, Scalar, chain rule, backpropagation, the network), "2.1" to "2.5" (indexing, broadcasting, tensor functions forward and backward, the network), "3.1" (map, zip, reduce), "3.2" (matrix multiply), "3.3" (the same as CUDA kernels), "3.4" (CUDA matrix multiply) and "4.1" to "4.4" (1-D and 2-D convolution, pooling, max, softmax and dropout), not "3.5"

# a part the task lacks, and one that no task has; the arguments are checked before the backend
for task, part in [("3.1", "matrix_multiply"), ("3.2", "map"), ("3.3", "mm_practice"), ("3.4", "Map")]:
    try:
        check(task, part)
    except ValueError as e:
        print(e)
# expect: check("3.1") has the parts "map", "zip" and "reduce", not "matrix_multiply"
# expect: check("3.2") has the part "matrix_multiply", not "map"
# expect: check("3.3") has the parts "sum_practice", "map", "zip" and "reduce", not "mm_practice"
# expect: check("3.4") has the parts "mm_practice" and "matrix_multiply", not "Map"

try:
    check("3.1", 1)
except TypeError as e:
    print(e)
# expect: check() takes a part's name ("map") or none, not int

try:
    check("3.3", "map")
except RuntimeError as e:
    print(e)
# expect: check("3.3", "map") tests your backend, and there is none yet: write your ops class (class CudaOps(TensorOps): ...), then make it the backend with GPUBackend = minitorch.TensorBackend(CudaOps)


# the template's ops, as a student first runs them
class FastOps(minitorch.TensorOps):
    @staticmethod
    def map(fn):
        raise NotImplementedError("Need to implement for Task 3.1")

    @staticmethod
    def zip(fn):
        raise NotImplementedError("Need to implement for Task 3.1")

    @staticmethod
    def reduce(fn, start=0.0):
        raise NotImplementedError("Need to implement for Task 3.1")

    @staticmethod
    def matrix_multiply(a, b):
        raise NotImplementedError("Need to implement for Task 3.2")


FastTensorBackend = minitorch.TensorBackend(FastOps)
try:
    check("3.1", seed=31)
except AssertionError as e:
    print("AssertionError:", e)
# expect: check("3.1"): MiniTorch's Task 3.1 tests on your backend (FastOps), expected values from simple, inputs drawn with seed 31
# expect:   create                                15 cases  passed
# expect:   one_args[addConstant]                  1 case   FAILED
# expect:   one_args[complex]                      1 case   FAILED
# expect:   one_args[cube]                         1 case   FAILED
# expect:   one_args[div]                          1 case   FAILED
# expect:   one_args[exp]                          1 case   FAILED
# expect:   one_args[explog]                       1 case   FAILED
# expect:   one_args[inv]                          1 case   FAILED
# expect:   one_args[log]                          1 case   FAILED
# expect:   one_args[multConstant]                 1 case   FAILED
# expect:   one_args[neg]                          1 case   FAILED
# expect:   one_args[relu]                         1 case   FAILED
# expect:   one_args[sig]                          1 case   FAILED
# expect:   one_args[square]                       1 case   FAILED
# expect:   one_args[subConstant]                  1 case   FAILED
# expect:   two_args[add2]                         1 case   FAILED
# expect:   two_args[mul2]                         1 case   FAILED
# expect:   two_args[div2]                         1 case   FAILED
# expect:   two_args[eq2]                          1 case   FAILED
# expect:   two_args[gt2]                          1 case   FAILED
# expect:   two_args[lt2]                          1 case   FAILED
# expect:   one_derivative[addConstant]            1 case   FAILED
# expect:   one_derivative[complex]                1 case   FAILED
# expect:   one_derivative[cube]                   1 case   FAILED
# expect:   one_derivative[div]                    1 case   FAILED
# expect:   one_derivative[exp]                    1 case   FAILED
# expect:   one_derivative[explog]                 1 case   FAILED
# expect:   one_derivative[inv]                    1 case   FAILED
# expect:   one_derivative[log]                    1 case   FAILED
# expect:   one_derivative[multConstant]           1 case   FAILED
# expect:   one_derivative[neg]                    1 case   FAILED
# expect:   one_derivative[relu]                   1 case   FAILED
# expect:   one_derivative[sig]                    1 case   FAILED
# expect:   one_derivative[square]                 1 case   FAILED
# expect:   one_derivative[subConstant]            1 case   FAILED
# expect:   two_grad[add2]                         1 case   FAILED
# expect:   two_grad[mul2]                         1 case   FAILED
# expect:   two_grad[div2]                         1 case   FAILED
# expect:   two_grad[eq2]                          1 case   FAILED
# expect:   two_grad[gt2]                          1 case   FAILED
# expect:   two_grad[lt2]                          1 case   FAILED
# expect:   reduce[sum(0)]                         1 case   FAILED
# expect:   reduce[mean(0)]                        1 case   FAILED
# expect:   reduce[mean()]                         1 case   FAILED
# expect:   two_grad_broadcast[add2]               1 case   FAILED
# expect:   two_grad_broadcast[mul2]               1 case   FAILED
# expect:   two_grad_broadcast[div2]               1 case   FAILED
# expect:   two_grad_broadcast[eq2]                1 case   FAILED
# expect:   two_grad_broadcast[gt2]                1 case   FAILED
# expect:   two_grad_broadcast[lt2]                1 case   FAILED
# expect:   permute                                1 case   FAILED
# expect-re: 1 passed, 50 failed \([0-9.]+ s\)
# expect:
# expect: FAILED one_args[addConstant]: your backend raised NotImplementedError: Need to implement for Task 3.1 (in zip(), line 56 of the cell defining it: raise NotImplementedError("Need to implement for Task 3.1"))
# expect:   a: shape (1,), strides (1,), storage of 1
# expect:     values [83.4422]
# expect: FAILED one_args[complex]: the same error
# expect: FAILED one_args[cube]: the same error
# expect: FAILED one_args[div]: the same error
# expect: FAILED one_args[exp]: the same error
# expect: FAILED one_args[explog]: the same error
# expect: FAILED one_args[inv]: the same error
# expect: FAILED one_args[log]: the same error
# expect: FAILED one_args[multConstant]: the same error
# expect: FAILED one_args[neg]: the same error (in map(), line 52 of the cell defining it: raise NotImplementedError("Need to implement for Task 3.1"))
# expect: FAILED one_args[relu]: the same error (in zip(), line 56 of the cell defining it: raise NotImplementedError("Need to implement for Task 3.1"))
# expect: FAILED one_args[sig]: the same error (in map(), line 52 of the cell defining it: raise NotImplementedError("Need to implement for Task 3.1"))
# expect: FAILED one_args[square]: the same error (in zip(), line 56 of the cell defining it: raise NotImplementedError("Need to implement for Task 3.1"))
# expect: FAILED one_args[subConstant]: the same error
# expect: FAILED two_args[add2]: the same error
# expect: FAILED two_args[mul2]: the same error
# expect: FAILED two_args[div2]: the same error
# expect: FAILED two_args[eq2]: the same error
# expect: FAILED two_args[gt2]: the same error
# expect: FAILED two_args[lt2]: the same error
# expect: FAILED one_derivative[addConstant]: the same error
# expect: FAILED one_derivative[complex]: the same error
# expect: FAILED one_derivative[cube]: the same error
# expect: FAILED one_derivative[div]: the same error
# expect: FAILED one_derivative[exp]: the same error
# expect: FAILED one_derivative[explog]: the same error
# expect: FAILED one_derivative[inv]: the same error
# expect: FAILED one_derivative[log]: the same error
# expect: FAILED one_derivative[multConstant]: the same error
# expect: FAILED one_derivative[neg]: the same error (in map(), line 52 of the cell defining it: raise NotImplementedError("Need to implement for Task 3.1"))
# expect: FAILED one_derivative[relu]: the same error (in zip(), line 56 of the cell defining it: raise NotImplementedError("Need to implement for Task 3.1"))
# expect: FAILED one_derivative[sig]: the same error (in map(), line 52 of the cell defining it: raise NotImplementedError("Need to implement for Task 3.1"))
# expect: FAILED one_derivative[square]: the same error (in zip(), line 56 of the cell defining it: raise NotImplementedError("Need to implement for Task 3.1"))
# expect: FAILED one_derivative[subConstant]: the same error
# expect: FAILED two_grad[add2]: the same error
# expect: FAILED two_grad[mul2]: the same error
# expect: FAILED two_grad[div2]: the same error
# expect: FAILED two_grad[eq2]: the same error
# expect: FAILED two_grad[gt2]: the same error
# expect: FAILED two_grad[lt2]: the same error
# expect: FAILED reduce[sum(0)]: the same error (in reduce(), line 60 of the cell defining it: raise NotImplementedError("Need to implement for Task 3.1"))
# expect: FAILED reduce[mean(0)]: the same error
# expect: FAILED reduce[mean()]: the same error
# expect: FAILED two_grad_broadcast[add2]: the same error (in zip(), line 56 of the cell defining it: raise NotImplementedError("Need to implement for Task 3.1"))
# expect: FAILED two_grad_broadcast[mul2]: the same error
# expect: FAILED two_grad_broadcast[div2]: the same error
# expect: FAILED two_grad_broadcast[eq2]: the same error
# expect: FAILED two_grad_broadcast[gt2]: the same error
# expect: FAILED two_grad_broadcast[lt2]: the same error
# expect: FAILED permute: the same error (in reduce(), line 60 of the cell defining it: raise NotImplementedError("Need to implement for Task 3.1"))
# expect: AssertionError: 50 of 51 tests of Task 3.1 failed (the first: one_args[addConstant]); see above


# the textbook solution, in the course's spelling (numpy buffers, the stride-aligned shortcut)
def tensor_map(fn):
    def _map(out, out_shape, out_strides, in_storage, in_shape, in_strides):
        if np.array_equal(out_strides, in_strides) and np.array_equal(out_shape, in_shape):
            for i in prange(len(out)):
                out[i] = fn(in_storage[i])
            return
        for i in prange(len(out)):
            out_index = np.zeros(MAX_DIMS, np.int32)
            in_index = np.zeros(MAX_DIMS, np.int32)
            to_index(i, out_shape, out_index)
            broadcast_index(out_index, out_shape, in_shape, in_index)
            o = index_to_position(out_index, out_strides)
            j = index_to_position(in_index, in_strides)
            out[o] = fn(in_storage[j])

    return njit(parallel=True)(_map)


def tensor_zip(fn, b_index_of_a=False):
    def _zip(out, out_shape, out_strides, a_storage, a_shape, a_strides, b_storage, b_shape, b_strides):
        for i in prange(len(out)):
            out_index = np.zeros(MAX_DIMS, np.int32)
            a_index = np.zeros(MAX_DIMS, np.int32)
            b_index = np.zeros(MAX_DIMS, np.int32)
            to_index(i, out_shape, out_index)
            o = index_to_position(out_index, out_strides)
            broadcast_index(out_index, out_shape, a_shape, a_index)
            j = index_to_position(a_index, a_strides)
            broadcast_index(out_index, out_shape, b_shape, b_index)
            k = index_to_position(b_index, b_strides)
            out[o] = fn(a_storage[j], b_storage[k])

    # a common mistake: b read at a's index, right only when nothing is broadcast
    def _zip_b_at_a(out, out_shape, out_strides, a_storage, a_shape, a_strides, b_storage, b_shape, b_strides):
        for i in prange(len(out)):
            out_index = np.zeros(MAX_DIMS, np.int32)
            a_index = np.zeros(MAX_DIMS, np.int32)
            to_index(i, out_shape, out_index)
            o = index_to_position(out_index, out_strides)
            broadcast_index(out_index, out_shape, a_shape, a_index)
            j = index_to_position(a_index, a_strides)
            k = index_to_position(out_index, b_strides)
            out[o] = fn(a_storage[j], b_storage[k])

    return njit(parallel=True)(_zip_b_at_a if b_index_of_a else _zip)


def tensor_reduce(fn):
    def _reduce(out, out_shape, out_strides, a_storage, a_shape, a_strides, reduce_dim):
        for i in prange(len(out)):
            out_index = np.zeros(MAX_DIMS, np.int32)
            reduce_size = a_shape[reduce_dim]
            to_index(i, out_shape, out_index)
            o = index_to_position(out_index, out_strides)
            for s in range(reduce_size):
                out_index[reduce_dim] = s
                j = index_to_position(out_index, a_strides)
                out[o] = fn(out[o], a_storage[j])

    return njit(parallel=True)(_reduce)


def _tensor_matrix_multiply(out, out_shape, out_strides, a_storage, a_shape, a_strides, b_storage, b_shape, b_strides):
    a_batch_stride = a_strides[0] if a_shape[0] > 1 else 0
    b_batch_stride = b_strides[0] if b_shape[0] > 1 else 0
    for n in prange(out_shape[0]):
        for i in range(out_shape[1]):
            for j in range(out_shape[2]):
                a_inner = n * a_batch_stride + i * a_strides[1]
                b_inner = n * b_batch_stride + j * b_strides[2]
                acc = 0.0
                for k in range(a_shape[2]):
                    acc += a_storage[a_inner] * b_storage[b_inner]
                    a_inner += a_strides[2]
                    b_inner += b_strides[1]
                out[n * out_strides[0] + i * out_strides[1] + j * out_strides[2]] = acc


tensor_matrix_multiply = njit(parallel=True, fastmath=True)(_tensor_matrix_multiply)


def zip_op(fn, b_index_of_a):
    f = tensor_zip(njit()(fn), b_index_of_a)

    def ret(a, b):
        c_shape = shape_broadcast(a.shape, b.shape)
        out = a.zeros(c_shape)
        f(*out.tuple(), *a.tuple(), *b.tuple())
        return out

    return ret


class SolvedOps(minitorch.TensorOps):
    @staticmethod
    def map(fn):
        f = tensor_map(njit()(fn))

        def ret(a, out=None):
            if out is None:
                out = a.zeros(a.shape)
            f(*out.tuple(), *a.tuple())
            return out

        return ret

    @staticmethod
    def zip(fn):
        return zip_op(fn, False)

    @staticmethod
    def reduce(fn, start=0.0):
        f = tensor_reduce(njit()(fn))

        def ret(a, dim):
            out_shape = list(a.shape)
            out_shape[dim] = 1
            out = a.zeros(tuple(out_shape))
            out._tensor._storage[:] = start
            f(*out.tuple(), *a.tuple(), dim)
            return out

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
        both_2d = both_2d == 2
        ls = list(shape_broadcast(a.shape[:-2], b.shape[:-2]))
        ls.append(a.shape[-2])
        ls.append(b.shape[-1])
        out = a.zeros(tuple(ls))
        tensor_matrix_multiply(*out.tuple(), *a.tuple(), *b.tuple())
        if both_2d:
            out = out.view(out.shape[1], out.shape[2])
        return out


class BuggyOps(SolvedOps):
    @staticmethod
    def zip(fn):
        return zip_op(fn, True)


minitorch.TensorBackend(BuggyOps)
try:
    check("3.1", seed=31)
except AssertionError as e:
    print("AssertionError:", e)
# expect: check("3.1"): MiniTorch's Task 3.1 tests on your backend (BuggyOps), expected values from simple, inputs drawn with seed 31
# expect:   create                                15 cases  passed
# expect:   one_args[addConstant]                  2 cases  FAILED
# expect:   one_args[complex]                      2 cases  FAILED
# expect:   one_args[cube]                        15 cases  passed
# expect:   one_args[div]                          2 cases  FAILED
# expect:   one_args[exp]                          2 cases  FAILED
# expect:   one_args[explog]                       2 cases  FAILED
# expect:   one_args[inv]                          2 cases  FAILED
# expect:   one_args[log]                          2 cases  FAILED
# expect:   one_args[multConstant]                 2 cases  FAILED
# expect:   one_args[neg]                         15 cases  passed
# expect:   one_args[relu]                         2 cases  FAILED
# expect:   one_args[sig]                         15 cases  passed
# expect:   one_args[square]                      15 cases  passed
# expect:   one_args[subConstant]                  2 cases  FAILED
# expect:   two_args[add2]                        15 cases  passed
# expect:   two_args[mul2]                        15 cases  passed
# expect:   two_args[div2]                         2 cases  FAILED
# expect:   two_args[eq2]                          2 cases  FAILED
# expect:   two_args[gt2]                          2 cases  FAILED
# expect:   two_args[lt2]                          2 cases  FAILED
# expect:   one_derivative[addConstant]            2 cases  FAILED
# expect:   one_derivative[complex]                2 cases  FAILED
# expect:   one_derivative[cube]                  15 cases  passed
# expect:   one_derivative[div]                    2 cases  FAILED
# expect:   one_derivative[exp]                    2 cases  FAILED
# expect:   one_derivative[explog]                 2 cases  FAILED
# expect:   one_derivative[inv]                    2 cases  FAILED
# expect:   one_derivative[log]                    2 cases  FAILED
# expect:   one_derivative[multConstant]           2 cases  FAILED
# expect:   one_derivative[neg]                   15 cases  passed
# expect:   one_derivative[relu]                   2 cases  FAILED
# expect:   one_derivative[sig]                    2 cases  FAILED
# expect:   one_derivative[square]                15 cases  passed
# expect:   one_derivative[subConstant]            2 cases  FAILED
# expect:   two_grad[add2]                        15 cases  passed
# expect:   two_grad[mul2]                        15 cases  passed
# expect:   two_grad[div2]                         2 cases  FAILED
# expect:   two_grad[eq2]                          2 cases  FAILED
# expect:   two_grad[gt2]                          2 cases  FAILED
# expect:   two_grad[lt2]                          2 cases  FAILED
# expect:   reduce[sum(0)]                        15 cases  passed
# expect:   reduce[mean(0)]                       15 cases  passed
# expect:   reduce[mean()]                        15 cases  passed
# expect:   two_grad_broadcast[add2]               2 cases  FAILED
# expect:   two_grad_broadcast[mul2]               2 cases  FAILED
# expect:   two_grad_broadcast[div2]               2 cases  FAILED
# expect:   two_grad_broadcast[eq2]                2 cases  FAILED
# expect:   two_grad_broadcast[gt2]                2 cases  FAILED
# expect:   two_grad_broadcast[lt2]                2 cases  FAILED
# expect:   permute                               15 cases  passed
# expect-re: 16 passed, 35 failed \([0-9.]+ s\)
# expect:
# expect: FAILED one_args[addConstant]: your backend raised IndexError: index 1 is out of bounds for b_storage of size 1 (compiled _zip_b_at_a()) (in _zip_b_at_a(), line 224 of the cell defining it: out[o] = fn(a_storage[j], b_storage[k]))
# expect:   a: shape (2,), strides (1,), storage of 2
# expect:     values [19.8009, 82.6375]
# expect: FAILED one_args[complex]: the same error
# expect: FAILED one_args[div]: the same error
# expect: FAILED one_args[exp]: the same error
# expect: FAILED one_args[explog]: the same error
# expect: FAILED one_args[inv]: the same error
# expect: FAILED one_args[log]: the same error
# expect: FAILED one_args[multConstant]: the same error
# expect: FAILED one_args[relu]: the same error
# expect: FAILED one_args[subConstant]: the same error
# expect: FAILED two_args[div2]: the same error
# expect: FAILED two_args[eq2]: the same error
# expect: FAILED two_args[gt2]: the same error
# expect: FAILED two_args[lt2]: the same error
# expect: FAILED one_derivative[addConstant]: the same error
# expect: FAILED one_derivative[complex]: the same error
# expect: FAILED one_derivative[div]: the same error
# expect: FAILED one_derivative[exp]: the same error
# expect: FAILED one_derivative[explog]: the same error
# expect: FAILED one_derivative[inv]: the same error
# expect: FAILED one_derivative[log]: the same error
# expect: FAILED one_derivative[multConstant]: the same error
# expect: FAILED one_derivative[relu]: the same error
# expect: FAILED one_derivative[sig]: the same error
# expect: FAILED one_derivative[subConstant]: the same error
# expect: FAILED two_grad[div2]: the same error
# expect: FAILED two_grad[eq2]: the same error
# expect: FAILED two_grad[gt2]: the same error
# expect: FAILED two_grad[lt2]: the same error
# expect: FAILED two_grad_broadcast[add2] as f(a, b.sum(0)): the same error
# expect: FAILED two_grad_broadcast[mul2] as f(a.sum(0), b): the same error
# expect: FAILED two_grad_broadcast[div2]: the same error
# expect: FAILED two_grad_broadcast[eq2]: the same error
# expect: FAILED two_grad_broadcast[gt2]: the same error
# expect: FAILED two_grad_broadcast[lt2]: the same error
# expect: AssertionError: 35 of 51 tests of Task 3.1 failed (the first: one_args[addConstant]); see above

minitorch.TensorBackend(SolvedOps)
check("3.1", seed=31)
# expect: check("3.1"): MiniTorch's Task 3.1 tests on your backend (SolvedOps), expected values from simple, inputs drawn with seed 31
# expect:   create                                15 cases  passed
# expect:   one_args[addConstant]                 15 cases  passed
# expect:   one_args[complex]                     15 cases  passed
# expect:   one_args[cube]                        15 cases  passed
# expect:   one_args[div]                         15 cases  passed
# expect:   one_args[exp]                         15 cases  passed
# expect:   one_args[explog]                      15 cases  passed
# expect:   one_args[inv]                         15 cases  passed
# expect:   one_args[log]                         15 cases  passed
# expect:   one_args[multConstant]                15 cases  passed
# expect:   one_args[neg]                         15 cases  passed
# expect:   one_args[relu]                        15 cases  passed
# expect:   one_args[sig]                         15 cases  passed
# expect:   one_args[square]                      15 cases  passed
# expect:   one_args[subConstant]                 15 cases  passed
# expect:   two_args[add2]                        15 cases  passed
# expect:   two_args[mul2]                        15 cases  passed
# expect:   two_args[div2]                        15 cases  passed
# expect:   two_args[eq2]                         15 cases  passed
# expect:   two_args[gt2]                         15 cases  passed
# expect:   two_args[lt2]                         15 cases  passed
# expect:   one_derivative[addConstant]           15 cases  passed
# expect:   one_derivative[complex]               15 cases  passed
# expect:   one_derivative[cube]                  15 cases  passed
# expect:   one_derivative[div]                   15 cases  passed
# expect:   one_derivative[exp]                   15 cases  passed
# expect:   one_derivative[explog]                15 cases  passed
# expect:   one_derivative[inv]                   15 cases  passed
# expect:   one_derivative[log]                   15 cases  passed
# expect:   one_derivative[multConstant]          15 cases  passed
# expect:   one_derivative[neg]                   15 cases  passed
# expect:   one_derivative[relu]                  15 cases  passed
# expect:   one_derivative[sig]                   15 cases  passed
# expect:   one_derivative[square]                15 cases  passed
# expect:   one_derivative[subConstant]           15 cases  passed
# expect:   two_grad[add2]                        15 cases  passed
# expect:   two_grad[mul2]                        15 cases  passed
# expect:   two_grad[div2]                        15 cases  passed
# expect:   two_grad[eq2]                         15 cases  passed
# expect:   two_grad[gt2]                         15 cases  passed
# expect:   two_grad[lt2]                         15 cases  passed
# expect:   reduce[sum(0)]                        15 cases  passed
# expect:   reduce[mean(0)]                       15 cases  passed
# expect:   reduce[mean()]                        15 cases  passed
# expect:   two_grad_broadcast[add2]              15 cases  passed
# expect:   two_grad_broadcast[mul2]              15 cases  passed
# expect:   two_grad_broadcast[div2]              15 cases  passed
# expect:   two_grad_broadcast[eq2]               15 cases  passed
# expect:   two_grad_broadcast[gt2]               15 cases  passed
# expect:   two_grad_broadcast[lt2]               15 cases  passed
# expect:   permute                               15 cases  passed
# expect-re: 51 passed, 0 failed \([0-9.]+ s\)
check(3.2, seed=32)
# expect: check("3.2"): MiniTorch's Task 3.2 tests on your backend (SolvedOps), expected values from simple, inputs drawn with seed 32
# expect:   mm2                                    4 cases  passed
# expect:   bmm                                    4 cases  passed
# expect-re: 2 passed, 0 failed \([0-9.]+ s\)


# A class deriving from minitorch.FastOps keeps the built-in kernels it does not write (Task 3.2's
# template): here only matrix_multiply is the student's, and it forgets the batch (only the first
# matrix of each is multiplied), so mm passes and bmm fails; its backward runs FastOps's own map,
# zip and reduce. Those are not the student's, so check("3.1"), which grades them, refuses them.
def _mm_first_batch(out, out_shape, out_strides, a_storage, a_shape, a_strides, b_storage, b_shape, b_strides):
    for i in prange(out_shape[1]):
        for j in range(out_shape[2]):
            acc = 0.0
            for k in range(a_shape[2]):
                acc += a_storage[i * a_strides[1] + k * a_strides[2]] * b_storage[k * b_strides[1] + j * b_strides[2]]
            out[i * out_strides[1] + j * out_strides[2]] = acc


mm_first_batch = njit(parallel=True)(_mm_first_batch)


class MatmulOps(minitorch.FastOps):
    @staticmethod
    def matrix_multiply(a, b):
        out = a.zeros((max(a.shape[0], b.shape[0]), a.shape[1], b.shape[2]))
        mm_first_batch(*out.tuple(), *a.tuple(), *b.tuple())
        return out


minitorch.TensorBackend(MatmulOps)
try:
    check("3.1", "map", seed=31)
except AssertionError as e:
    print("AssertionError:", e)
try:
    check("3.2", seed=32)
except AssertionError as e:
    print("AssertionError:", e)
# expect: check("3.1", "map"): MiniTorch's Task 3.1 tests of map on your backend (MatmulOps), expected values from simple, inputs drawn with seed 31
# expect:   map[neg]                               1 case   FAILED
# expect:   map[relu]                              1 case   FAILED
# expect:   map[sigmoid]                           1 case   FAILED
# expect:   map[inv]                               1 case   FAILED
# expect:   map_broadcast[neg]                     1 case   FAILED
# expect:   map_broadcast[id]                      1 case   FAILED
# expect-re: 0 passed, 6 failed \([0-9.]+ s\)
# expect:
# expect: FAILED map[neg]: your backend raised RuntimeError: MatmulOps.map is the kernel's own (MatmulOps derives from minitorch's fast ops): check grades the kernels you write, so MatmulOps must define map itself
# expect:   a: shape (1,), strides (1,), storage of 1
# expect:     values [68.2421]
# expect: FAILED map[relu]: the same error
# expect: FAILED map[sigmoid]: the same error
# expect: FAILED map[inv]: the same error
# expect: FAILED map_broadcast[neg]: the same error
# expect: FAILED map_broadcast[id]: the same error
# expect: AssertionError: 6 of 6 tests of Task 3.1 (map) failed (the first: map[neg]); see above
# expect: check("3.2"): MiniTorch's Task 3.2 tests on your backend (MatmulOps), expected values from simple, inputs drawn with seed 32
# expect:   mm2                                    4 cases  passed
# expect:   bmm                                    1 case   FAILED
# expect-re: 1 passed, 1 failed \([0-9.]+ s\)
# expect:
# expect: FAILED bmm: 4 of the 8 values of the result differ, the first at (1, 0, 0): expected 4056.19, got 0
# expect:   a: shape (2, 2, 2), strides (1, 2, 4), storage of 8 (permuted)
# expect:     values [[[-16.7155, 11.4324], [-18.7964, 81.8152]], [[-73.5786, 88.5231], [94.5009, -83.7423]]]
# expect:   b: shape (1, 2, 2), strides (4, 2, 1), storage of 4
# expect:     values [[[6.01975, -73.3722], [50.8242, -39.5517]]]
# expect:   expected [[[480.422, 774.278], [4045.05, -1856.8]], [[4056.19, 1897.38], [-3687.27, -3621.59]]]
# expect:   got      [[[480.422, 774.278], [4045.05, -1856.8]], [[0, 0], [0, 0]]]
# expect: AssertionError: 1 of 2 tests of Task 3.2 failed (the first: bmm); see above


# check(task, part): one function's tests alone, forward, so that a bug in one function of the
# ops fails its part and no other. Each backend below runs every part of 3.1 and 3.2.
def check_parts():
    for task, part in [("3.1", "map"), ("3.1", "zip"), ("3.1", "reduce"), ("3.2", "matrix_multiply")]:
        try:
            check(task, part, seed=31 if task == "3.1" else 32)
        except AssertionError as e:
            print("AssertionError:", e)


# map reads its input in storage order, as if it were contiguous (the shortcut without its test)
def tensor_map_flat(fn):
    def _map_flat(out, out_shape, out_strides, in_storage, in_shape, in_strides):
        for i in prange(len(out)):
            out[i] = fn(in_storage[i])

    return njit(parallel=True)(_map_flat)


class MapFlatOps(SolvedOps):
    @staticmethod
    def map(fn):
        f = tensor_map_flat(njit()(fn))

        def ret(a, out=None):
            if out is None:
                out = a.zeros(a.shape)
            f(*out.tuple(), *a.tuple())
            return out

        return ret


# map takes the input's position from out's index: right wherever the input is not broadcast, so
# only the tests that map a smaller input into a larger out fail
def tensor_map_outidx(fn):
    def _map_outidx(out, out_shape, out_strides, in_storage, in_shape, in_strides):
        for i in prange(len(out)):
            out_index = np.zeros(MAX_DIMS, np.int32)
            to_index(i, out_shape, out_index)
            o = index_to_position(out_index, out_strides)
            out[o] = fn(in_storage[index_to_position(out_index, in_strides)])

    return njit(parallel=True)(_map_outidx)


class MapOutIndexOps(SolvedOps):
    @staticmethod
    def map(fn):
        f = tensor_map_outidx(njit()(fn))

        def ret(a, out=None):
            if out is None:
                out = a.zeros(a.shape)
            f(*out.tuple(), *a.tuple())
            return out

        return ret


# zip computes fn(a, a): b is never read
class ZipSelfOps(SolvedOps):
    @staticmethod
    def zip(fn):
        f = tensor_zip(njit()(fn))

        def ret(a, b):
            out = a.zeros(shape_broadcast(a.shape, b.shape))
            f(*out.tuple(), *a.tuple(), *a.tuple())
            return out

        return ret


# reduce leaves out the last value along the dim (and adds, whatever fn: only sums are tested)
def _reduce_short(out, out_shape, out_strides, a_storage, a_shape, a_strides, reduce_dim):
    for i in prange(len(out)):
        out_index = np.zeros(MAX_DIMS, np.int32)
        to_index(i, out_shape, out_index)
        o = index_to_position(out_index, out_strides)
        for s in range(a_shape[reduce_dim] - 1):
            out_index[reduce_dim] = s
            out[o] += a_storage[index_to_position(out_index, a_strides)]


reduce_short = njit(parallel=True)(_reduce_short)


class ReduceShortOps(SolvedOps):
    @staticmethod
    def reduce(fn, start=0.0):
        def ret(a, dim):
            out_shape = list(a.shape)
            out_shape[dim] = 1
            out = a.zeros(tuple(out_shape))
            reduce_short(*out.tuple(), *a.tuple(), dim)
            return out

        return ret


# matrix_multiply multiplies the first matrix of each batch only (MatmulOps's, on SolvedOps)
class MatmulFirstOps(SolvedOps):
    @staticmethod
    def matrix_multiply(a, b):
        return MatmulOps.matrix_multiply(a, b)


for ops in [SolvedOps, MapFlatOps, MapOutIndexOps, ZipSelfOps, ReduceShortOps, MatmulFirstOps]:
    minitorch.TensorBackend(ops)
    check_parts()
# expect: check("3.1", "map"): MiniTorch's Task 3.1 tests of map on your backend (SolvedOps), expected values from simple, inputs drawn with seed 31
# expect:   map[neg]                              15 cases  passed
# expect:   map[relu]                             15 cases  passed
# expect:   map[sigmoid]                          15 cases  passed
# expect:   map[inv]                              15 cases  passed
# expect:   map_broadcast[neg]                    15 cases  passed
# expect:   map_broadcast[id]                     15 cases  passed
# expect-re: 6 passed, 0 failed \([0-9.]+ s\)
# expect: check("3.1", "zip"): MiniTorch's Task 3.1 tests of zip on your backend (SolvedOps), expected values from simple, inputs drawn with seed 31
# expect:   zip[add2]                             15 cases  passed
# expect:   zip[mul2]                             15 cases  passed
# expect:   zip[div2]                             15 cases  passed
# expect:   zip[eq2]                              15 cases  passed
# expect:   zip[gt2]                              15 cases  passed
# expect:   zip[lt2]                              15 cases  passed
# expect:   zip_broadcast[a + b]                  15 cases  passed
# expect:   zip_broadcast[b - a]                  15 cases  passed
# expect-re: 8 passed, 0 failed \([0-9.]+ s\)
# expect: check("3.1", "reduce"): MiniTorch's Task 3.1 tests of reduce on your backend (SolvedOps), expected values from simple, inputs drawn with seed 31
# expect:   reduce[sum(0)]                        15 cases  passed
# expect:   reduce[sum(0) of its dims reversed]   15 cases  passed
# expect:   reduce[max(0)]                        15 cases  passed
# expect:   reduce[sum(1)]                        12 cases  passed
# expect:   reduce[sum(2)]                         8 cases  passed
# expect-re: 5 passed, 0 failed \([0-9.]+ s\)
# expect: check("3.2", "matrix_multiply"): MiniTorch's Task 3.2 tests of matrix_multiply on your backend (SolvedOps), expected values from simple, inputs drawn with seed 32
# expect:   mm2                                    4 cases  passed
# expect:   bmm                                    4 cases  passed
# expect-re: 2 passed, 0 failed \([0-9.]+ s\)
# expect: check("3.1", "map"): MiniTorch's Task 3.1 tests of map on your backend (MapFlatOps), expected values from simple, inputs drawn with seed 31
# expect:   map[neg]                               5 cases  FAILED
# expect:   map[relu]                              9 cases  FAILED
# expect:   map[sigmoid]                           9 cases  FAILED
# expect:   map[inv]                               5 cases  FAILED
# expect:   map_broadcast[neg]                     2 cases  FAILED
# expect:   map_broadcast[id]                      2 cases  FAILED
# expect-re: 0 passed, 6 failed \([0-9.]+ s\)
# expect:
# expect: FAILED map[neg]: 4 of the 6 values of the result differ, the first at (0, 1): expected 64.6471, got 59.9623
# expect:   a: shape (2, 3), strides (1, 2), storage of 6 (permuted)
# expect:     values [[30.5312, -64.6471, -31.1493], [-59.9623, -69.6001, -30.9508]]
# expect:   expected [[-30.5312, 64.6471, 31.1493], [59.9623, 69.6001, 30.9508]]
# expect:   got      [[-30.5312, 59.9623, 64.6471], [69.6001, 31.1493, 30.9508]]
# expect:
# expect: FAILED map[relu]: 3 of the 6 values of the result differ, the first at (0, 0, 1): expected 0, got 74.3379
# expect:   a: shape (1, 2, 3), strides (1, 1, 2), storage of 6 (permuted)
# expect:     values [[[-51.5283, -49.2532, -33.5047], [74.3379, 79.0774, 4.77223]]]
# expect:   expected [[[0, 0, 0], [74.3379, 79.0774, 4.77223]]]
# expect:   got      [[[0, 74.3379, 0], [79.0774, 0, 4.77223]]]
# expect:
# expect: FAILED map[sigmoid]: 2 of the 6 values of the result differ, the first at (0, 0, 1): expected 4.07001e-22, got 1
# expect:   a: shape (1, 2, 3), strides (1, 1, 2), storage of 6 (permuted)
# expect:     values [[[-51.5283, -49.2532, -33.5047], [74.3379, 79.0774, 4.77223]]]
# expect:   expected [[[4.18344e-23, 4.07001e-22, 2.8124e-15], [1, 1, 0.99161]]]
# expect:   got      [[[4.18344e-23, 1, 4.07001e-22], [1, 2.8124e-15, 0.99161]]]
# expect:
# expect: FAILED map[inv]: 2 of the 6 values of the result differ, the first at (0, 2): expected -0.0321034, got -0.0154686
# expect:   a: shape (2, 3), strides (1, 2), storage of 6 (permuted)
# expect:     values [[30.5312, -64.6471, -31.1493], [-59.9623, -69.6001, -30.9508]]
# expect:   expected [[0.0327534, -0.0154686, -0.0321034], [-0.0166771, -0.0143678, -0.0323093]]
# expect:   got      [[0.0327534, -0.0166771, -0.0154686], [-0.0143678, -0.0321034, -0.0323093]]
# expect:
# expect: FAILED map_broadcast[neg]: your backend raised IndexError: index 1 is out of bounds for in_storage of size 1 (compiled _map_flat()) (in _map_flat(), line 572 of the cell defining it: out[i] = fn(in_storage[i]))
# expect:   a: shape (1,), strides (1,), storage of 1
# expect:     values [82.6375]
# expect:   out: shape (2,) (the map's output, which a broadcasts to)
# expect: FAILED map_broadcast[id]: the same error
# expect: AssertionError: 6 of 6 tests of Task 3.1 (map) failed (the first: map[neg]); see above
# expect: check("3.1", "zip"): MiniTorch's Task 3.1 tests of zip on your backend (MapFlatOps), expected values from simple, inputs drawn with seed 31
# expect:   zip[add2]                             15 cases  passed
# expect:   zip[mul2]                             15 cases  passed
# expect:   zip[div2]                             15 cases  passed
# expect:   zip[eq2]                              15 cases  passed
# expect:   zip[gt2]                              15 cases  passed
# expect:   zip[lt2]                              15 cases  passed
# expect:   zip_broadcast[a + b]                  15 cases  passed
# expect:   zip_broadcast[b - a]                  15 cases  passed
# expect-re: 8 passed, 0 failed \([0-9.]+ s\)
# expect: check("3.1", "reduce"): MiniTorch's Task 3.1 tests of reduce on your backend (MapFlatOps), expected values from simple, inputs drawn with seed 31
# expect:   reduce[sum(0)]                        15 cases  passed
# expect:   reduce[sum(0) of its dims reversed]   15 cases  passed
# expect:   reduce[max(0)]                        15 cases  passed
# expect:   reduce[sum(1)]                        12 cases  passed
# expect:   reduce[sum(2)]                         8 cases  passed
# expect-re: 5 passed, 0 failed \([0-9.]+ s\)
# expect: check("3.2", "matrix_multiply"): MiniTorch's Task 3.2 tests of matrix_multiply on your backend (MapFlatOps), expected values from simple, inputs drawn with seed 32
# expect:   mm2                                    4 cases  passed
# expect:   bmm                                    4 cases  passed
# expect-re: 2 passed, 0 failed \([0-9.]+ s\)
# expect: check("3.1", "map"): MiniTorch's Task 3.1 tests of map on your backend (MapOutIndexOps), expected values from simple, inputs drawn with seed 31
# expect:   map[neg]                              15 cases  passed
# expect:   map[relu]                             15 cases  passed
# expect:   map[sigmoid]                          15 cases  passed
# expect:   map[inv]                              15 cases  passed
# expect:   map_broadcast[neg]                     2 cases  FAILED
# expect:   map_broadcast[id]                      2 cases  FAILED
# expect-re: 4 passed, 2 failed \([0-9.]+ s\)
# expect:
# expect: FAILED map_broadcast[neg]: your backend raised IndexError: index 1 is out of bounds for in_storage of size 1 (compiled _map_outidx()) (in _map_outidx(), line 599 of the cell defining it: out[o] = fn(in_storage[index_to_position(out_index, in_strides)]))
# expect:   a: shape (1,), strides (1,), storage of 1
# expect:     values [82.6375]
# expect:   out: shape (2,) (the map's output, which a broadcasts to)
# expect: FAILED map_broadcast[id]: the same error
# expect: AssertionError: 2 of 6 tests of Task 3.1 (map) failed (the first: map_broadcast[neg]); see above
# expect: check("3.1", "zip"): MiniTorch's Task 3.1 tests of zip on your backend (MapOutIndexOps), expected values from simple, inputs drawn with seed 31
# expect:   zip[add2]                             15 cases  passed
# expect:   zip[mul2]                             15 cases  passed
# expect:   zip[div2]                             15 cases  passed
# expect:   zip[eq2]                              15 cases  passed
# expect:   zip[gt2]                              15 cases  passed
# expect:   zip[lt2]                              15 cases  passed
# expect:   zip_broadcast[a + b]                  15 cases  passed
# expect:   zip_broadcast[b - a]                  15 cases  passed
# expect-re: 8 passed, 0 failed \([0-9.]+ s\)
# expect: check("3.1", "reduce"): MiniTorch's Task 3.1 tests of reduce on your backend (MapOutIndexOps), expected values from simple, inputs drawn with seed 31
# expect:   reduce[sum(0)]                        15 cases  passed
# expect:   reduce[sum(0) of its dims reversed]   15 cases  passed
# expect:   reduce[max(0)]                        15 cases  passed
# expect:   reduce[sum(1)]                        12 cases  passed
# expect:   reduce[sum(2)]                         8 cases  passed
# expect-re: 5 passed, 0 failed \([0-9.]+ s\)
# expect: check("3.2", "matrix_multiply"): MiniTorch's Task 3.2 tests of matrix_multiply on your backend (MapOutIndexOps), expected values from simple, inputs drawn with seed 32
# expect:   mm2                                    4 cases  passed
# expect:   bmm                                    4 cases  passed
# expect-re: 2 passed, 0 failed \([0-9.]+ s\)
# expect: check("3.1", "map"): MiniTorch's Task 3.1 tests of map on your backend (ZipSelfOps), expected values from simple, inputs drawn with seed 31
# expect:   map[neg]                              15 cases  passed
# expect:   map[relu]                             15 cases  passed
# expect:   map[sigmoid]                          15 cases  passed
# expect:   map[inv]                              15 cases  passed
# expect:   map_broadcast[neg]                    15 cases  passed
# expect:   map_broadcast[id]                     15 cases  passed
# expect-re: 6 passed, 0 failed \([0-9.]+ s\)
# expect: check("3.1", "zip"): MiniTorch's Task 3.1 tests of zip on your backend (ZipSelfOps), expected values from simple, inputs drawn with seed 31
# expect:   zip[add2]                              1 case   FAILED
# expect:   zip[mul2]                              1 case   FAILED
# expect:   zip[div2]                              1 case   FAILED
# expect:   zip[eq2]                               1 case   FAILED
# expect:   zip[gt2]                               1 case   FAILED
# expect:   zip[lt2]                               2 cases  FAILED
# expect:   zip_broadcast[a + b]                   1 case   FAILED
# expect:   zip_broadcast[b - a]                   1 case   FAILED
# expect-re: 0 passed, 8 failed \([0-9.]+ s\)
# expect:
# expect: FAILED zip[add2]: 1 of the 1 values of the result differ, the first at (0,): expected 115.767, got 136.484
# expect:   a: shape (1,), strides (1,), storage of 1
# expect:     values [68.2421]
# expect:   b: shape (1,), strides (1,), storage of 1
# expect:     values [47.5246]
# expect:   expected [115.767]
# expect:   got      [136.484]
# expect:
# expect: FAILED zip[mul2]: 1 of the 1 values of the result differ, the first at (0,): expected 3243.18, got 4656.99
# expect:   a: shape (1,), strides (1,), storage of 1
# expect:     values [68.2421]
# expect:   b: shape (1,), strides (1,), storage of 1
# expect:     values [47.5246]
# expect:   expected [3243.18]
# expect:   got      [4656.99]
# expect:
# expect: FAILED zip[div2]: 1 of the 1 values of the result differ, the first at (0,): expected 1.28699, got 1
# expect:   a: shape (1,), strides (1,), storage of 1
# expect:     values [68.2421]
# expect:   b: shape (1,), strides (1,), storage of 1
# expect:     values [47.5246]
# expect:   expected [1.28699]
# expect:   got      [1]
# expect:
# expect: FAILED zip[eq2]: 1 of the 1 values of the result differ, the first at (0,): expected 0, got 1
# expect:   a: shape (1,), strides (1,), storage of 1
# expect:     values [68.2421]
# expect:   b: shape (1,), strides (1,), storage of 1
# expect:     values [47.5246]
# expect:   expected [0]
# expect:   got      [1]
# expect:
# expect: FAILED zip[gt2]: 1 of the 1 values of the result differ, the first at (0,): expected 1, got 0
# expect:   a: shape (1,), strides (1,), storage of 1
# expect:     values [68.2421]
# expect:   b: shape (1,), strides (1,), storage of 1
# expect:     values [47.5246]
# expect:   expected [1]
# expect:   got      [0]
# expect:
# expect: FAILED zip[lt2]: 1 of the 2 values of the result differ, the first at (0,): expected 1, got 0
# expect:   a: shape (2,), strides (1,), storage of 2
# expect:     values [0.970056, 8.11374]
# expect:   b: shape (2,), strides (1,), storage of 2
# expect:     values [19.3157, -34.4203]
# expect:   expected [1, 0]
# expect:   got      [0, 0]
# expect:
# expect: FAILED zip_broadcast[a + b]: 1 of the 1 values of the result differ, the first at (0,): expected 20.659, got -29.2556
# expect:   a: shape (1,), strides (1,), storage of 1
# expect:     values [-14.6278]
# expect:   b: shape (1,), strides (1,), storage of 1
# expect:     values [35.2868]
# expect:   expected [20.659]
# expect:   got      [-29.2556]
# expect:
# expect: FAILED zip_broadcast[b - a]: 1 of the 1 values of the result differ, the first at (0,): expected 49.9146, got 0
# expect:   a: shape (1,), strides (1,), storage of 1
# expect:     values [-14.6278]
# expect:   b: shape (1,), strides (1,), storage of 1
# expect:     values [35.2868]
# expect:   expected [49.9146]
# expect:   got      [0]
# expect: AssertionError: 8 of 8 tests of Task 3.1 (zip) failed (the first: zip[add2]); see above
# expect: check("3.1", "reduce"): MiniTorch's Task 3.1 tests of reduce on your backend (ZipSelfOps), expected values from simple, inputs drawn with seed 31
# expect:   reduce[sum(0)]                        15 cases  passed
# expect:   reduce[sum(0) of its dims reversed]   15 cases  passed
# expect:   reduce[max(0)]                        15 cases  passed
# expect:   reduce[sum(1)]                        12 cases  passed
# expect:   reduce[sum(2)]                         8 cases  passed
# expect-re: 5 passed, 0 failed \([0-9.]+ s\)
# expect: check("3.2", "matrix_multiply"): MiniTorch's Task 3.2 tests of matrix_multiply on your backend (ZipSelfOps), expected values from simple, inputs drawn with seed 32
# expect:   mm2                                    4 cases  passed
# expect:   bmm                                    4 cases  passed
# expect-re: 2 passed, 0 failed \([0-9.]+ s\)
# expect: check("3.1", "map"): MiniTorch's Task 3.1 tests of map on your backend (ReduceShortOps), expected values from simple, inputs drawn with seed 31
# expect:   map[neg]                              15 cases  passed
# expect:   map[relu]                             15 cases  passed
# expect:   map[sigmoid]                          15 cases  passed
# expect:   map[inv]                              15 cases  passed
# expect:   map_broadcast[neg]                    15 cases  passed
# expect:   map_broadcast[id]                     15 cases  passed
# expect-re: 6 passed, 0 failed \([0-9.]+ s\)
# expect: check("3.1", "zip"): MiniTorch's Task 3.1 tests of zip on your backend (ReduceShortOps), expected values from simple, inputs drawn with seed 31
# expect:   zip[add2]                             15 cases  passed
# expect:   zip[mul2]                             15 cases  passed
# expect:   zip[div2]                             15 cases  passed
# expect:   zip[eq2]                              15 cases  passed
# expect:   zip[gt2]                              15 cases  passed
# expect:   zip[lt2]                              15 cases  passed
# expect:   zip_broadcast[a + b]                  15 cases  passed
# expect:   zip_broadcast[b - a]                  15 cases  passed
# expect-re: 8 passed, 0 failed \([0-9.]+ s\)
# expect: check("3.1", "reduce"): MiniTorch's Task 3.1 tests of reduce on your backend (ReduceShortOps), expected values from simple, inputs drawn with seed 31
# expect:   reduce[sum(0)]                         1 case   FAILED
# expect:   reduce[sum(0) of its dims reversed]    1 case   FAILED
# expect:   reduce[max(0)]                         1 case   FAILED
# expect:   reduce[sum(1)]                         1 case   FAILED
# expect:   reduce[sum(2)]                         1 case   FAILED
# expect-re: 0 passed, 5 failed \([0-9.]+ s\)
# expect:
# expect: FAILED reduce[sum(0)]: 1 of the 1 values of the result differ, the first at (0,): expected 68.2421, got 0
# expect:   a: shape (1,), strides (1,), storage of 1
# expect:     values [68.2421]
# expect:   expected [68.2421]
# expect:   got      [0]
# expect:
# expect: FAILED reduce[sum(0) of its dims reversed]: 1 of the 1 values of the result differ, the first at (0,): expected 68.2421, got 0
# expect:   a: shape (1,), strides (1,), storage of 1
# expect:     values [68.2421]
# expect:   expected [68.2421]
# expect:   got      [0]
# expect:
# expect: FAILED reduce[max(0)]: 1 of the 1 values of the result differ, the first at (0,): expected 68.2421, got 0
# expect:   a: shape (1,), strides (1,), storage of 1
# expect:     values [68.2421]
# expect:   expected [68.2421]
# expect:   got      [0]
# expect:
# expect: FAILED reduce[sum(1)]: 2 of the 2 values of the result differ, the first at (0, 0): expected -111.105, got -70.0693
# expect:   a: shape (2, 3), strides (3, 1), storage of 6
# expect:     values [[-95.5815, 25.5122, -41.0356], [21.6196, 25.2212, -59.5505]]
# expect:   expected [[-111.105], [-12.7098]]
# expect:   got      [[-70.0693], [46.8408]]
# expect:
# expect: FAILED reduce[sum(2)]: 2 of the 2 values of the result differ, the first at (0, 0, 0): expected 229.258, got 151.446
# expect:   a: shape (1, 2, 3), strides (6, 3, 1), storage of 6
# expect:     values [[[60.1994, 91.2462, 77.8128], [79.2609, -81.5087, -24.4869]]]
# expect:   expected [[[229.258], [-26.7347]]]
# expect:   got      [[[151.446], [-2.24785]]]
# expect: AssertionError: 5 of 5 tests of Task 3.1 (reduce) failed (the first: reduce[sum(0)]); see above
# expect: check("3.2", "matrix_multiply"): MiniTorch's Task 3.2 tests of matrix_multiply on your backend (ReduceShortOps), expected values from simple, inputs drawn with seed 32
# expect:   mm2                                    4 cases  passed
# expect:   bmm                                    4 cases  passed
# expect-re: 2 passed, 0 failed \([0-9.]+ s\)
# expect: check("3.1", "map"): MiniTorch's Task 3.1 tests of map on your backend (MatmulFirstOps), expected values from simple, inputs drawn with seed 31
# expect:   map[neg]                              15 cases  passed
# expect:   map[relu]                             15 cases  passed
# expect:   map[sigmoid]                          15 cases  passed
# expect:   map[inv]                              15 cases  passed
# expect:   map_broadcast[neg]                    15 cases  passed
# expect:   map_broadcast[id]                     15 cases  passed
# expect-re: 6 passed, 0 failed \([0-9.]+ s\)
# expect: check("3.1", "zip"): MiniTorch's Task 3.1 tests of zip on your backend (MatmulFirstOps), expected values from simple, inputs drawn with seed 31
# expect:   zip[add2]                             15 cases  passed
# expect:   zip[mul2]                             15 cases  passed
# expect:   zip[div2]                             15 cases  passed
# expect:   zip[eq2]                              15 cases  passed
# expect:   zip[gt2]                              15 cases  passed
# expect:   zip[lt2]                              15 cases  passed
# expect:   zip_broadcast[a + b]                  15 cases  passed
# expect:   zip_broadcast[b - a]                  15 cases  passed
# expect-re: 8 passed, 0 failed \([0-9.]+ s\)
# expect: check("3.1", "reduce"): MiniTorch's Task 3.1 tests of reduce on your backend (MatmulFirstOps), expected values from simple, inputs drawn with seed 31
# expect:   reduce[sum(0)]                        15 cases  passed
# expect:   reduce[sum(0) of its dims reversed]   15 cases  passed
# expect:   reduce[max(0)]                        15 cases  passed
# expect:   reduce[sum(1)]                        12 cases  passed
# expect:   reduce[sum(2)]                         8 cases  passed
# expect-re: 5 passed, 0 failed \([0-9.]+ s\)
# expect: check("3.2", "matrix_multiply"): MiniTorch's Task 3.2 tests of matrix_multiply on your backend (MatmulFirstOps), expected values from simple, inputs drawn with seed 32
# expect:   mm2                                    4 cases  passed
# expect:   bmm                                    1 case   FAILED
# expect-re: 1 passed, 1 failed \([0-9.]+ s\)
# expect:
# expect: FAILED bmm: 4 of the 8 values of the result differ, the first at (1, 0, 0): expected 4056.19, got 0
# expect:   a: shape (2, 2, 2), strides (1, 2, 4), storage of 8 (permuted)
# expect:     values [[[-16.7155, 11.4324], [-18.7964, 81.8152]], [[-73.5786, 88.5231], [94.5009, -83.7423]]]
# expect:   b: shape (1, 2, 2), strides (4, 2, 1), storage of 4
# expect:     values [[[6.01975, -73.3722], [50.8242, -39.5517]]]
# expect:   expected [[[480.422, 774.278], [4045.05, -1856.8]], [[4056.19, 1897.38], [-3687.27, -3621.59]]]
# expect:   got      [[[480.422, 774.278], [4045.05, -1856.8]], [[0, 0], [0, 0]]]
# expect: AssertionError: 1 of 2 tests of Task 3.2 (matrix_multiply) failed (the first: bmm); see above

# part none is the whole task; task and part by keyword
minitorch.TensorBackend(SolvedOps)
check(task=3.2, part=None, seed=32)
# expect: check("3.2"): MiniTorch's Task 3.2 tests on your backend (SolvedOps), expected values from simple, inputs drawn with seed 32
# expect:   mm2                                    4 cases  passed
# expect:   bmm                                    4 cases  passed
# expect-re: 2 passed, 0 failed \([0-9.]+ s\)
check(part="matrix_multiply", task="3.2", seed=32)
# expect: check("3.2", "matrix_multiply"): MiniTorch's Task 3.2 tests of matrix_multiply on your backend (SolvedOps), expected values from simple, inputs drawn with seed 32
# expect:   mm2                                    4 cases  passed
# expect:   bmm                                    4 cases  passed
# expect-re: 2 passed, 0 failed \([0-9.]+ s\)

# zip reading b at a's index (BuggyOps, above) fails where b is broadcast: against a constant, and
# as the second argument of zip_broadcast, not as the first
minitorch.TensorBackend(BuggyOps)
try:
    check("3.1", "zip", seed=31)
except AssertionError as e:
    print("AssertionError:", e)
# expect: check("3.1", "zip"): MiniTorch's Task 3.1 tests of zip on your backend (BuggyOps), expected values from simple, inputs drawn with seed 31
# expect:   zip[add2]                             15 cases  passed
# expect:   zip[mul2]                             15 cases  passed
# expect:   zip[div2]                              2 cases  FAILED
# expect:   zip[eq2]                               2 cases  FAILED
# expect:   zip[gt2]                               2 cases  FAILED
# expect:   zip[lt2]                               2 cases  FAILED
# expect:   zip_broadcast[a + b]                   2 cases  FAILED
# expect:   zip_broadcast[b - a]                  15 cases  passed
# expect-re: 3 passed, 5 failed \([0-9.]+ s\)
# expect:
# expect: FAILED zip[div2]: your backend raised IndexError: index 1 is out of bounds for b_storage of size 1 (compiled _zip_b_at_a()) (in _zip_b_at_a(), line 224 of the cell defining it: out[o] = fn(a_storage[j], b_storage[k]))
# expect:   a: shape (2,), strides (1,), storage of 2
# expect:     values [0.970056, 8.11374]
# expect:   b: shape (2,), strides (1,), storage of 2
# expect:     values [19.3157, -34.4203]
# expect: FAILED zip[eq2]: the same error
# expect: FAILED zip[gt2]: the same error
# expect: FAILED zip[lt2]: the same error
# expect: FAILED zip_broadcast[a + b]: the same error
# expect: AssertionError: 5 of 8 tests of Task 3.1 (zip) failed (the first: zip[div2]); see above
