# check("3.1") and check("3.2"): MiniTorch's tests of Tasks 3.1 and 3.2 run on the student's
# backend against simple. The course's template as given fails them with its own message; a
# planted bug (zip reads b at a's index) fails exactly the tests whose zips broadcast (a
# constant, or a summed input), each at its smallest failing input; the textbook solution passes
# all 53.
import minitorch
from minitorch import MAX_DIMS, to_index, broadcast_index, index_to_position, shape_broadcast
from numba import njit, prange
import numpy as np

try:
    check("3.1")
except RuntimeError as e:
    print(e)
# expect: check("3.1") tests your backend, and there is none yet: write your ops class (class FastOps(TensorOps): ...), then make it the backend with FastTensorBackend = minitorch.TensorBackend(FastOps)

try:
    check("3.5")
except ValueError as e:
    print(e)
# expect: check() knows the tasks "3.1" (map, zip, reduce), "3.2" (matrix multiply), "3.3" (the same as CUDA kernels) and "3.4" (CUDA matrix multiply), not "3.5"


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
    check("3.1")
except AssertionError as e:
    print("AssertionError:", e)
# expect: check("3.1"): MiniTorch's Task 3.1 tests on your backend (FastOps), expected values from simple
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
# expect: FAILED one_args[addConstant], with a of shape (1,):
# expect:   a = [83.4422]
# expect:   your backend raised NotImplementedError: Need to implement for Task 3.1
# expect: FAILED one_args[complex]: the same error
# expect: FAILED one_args[cube]: the same error
# expect: FAILED one_args[div]: the same error
# expect: FAILED one_args[exp]: the same error
# expect: FAILED one_args[explog]: the same error
# expect: FAILED one_args[inv]: the same error
# expect: FAILED one_args[log]: the same error
# expect: FAILED one_args[multConstant]: the same error
# expect: FAILED one_args[neg]: the same error
# expect: FAILED one_args[relu]: the same error
# expect: FAILED one_args[sig]: the same error
# expect: FAILED one_args[square]: the same error
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
# expect: FAILED one_derivative[neg]: the same error
# expect: FAILED one_derivative[relu]: the same error
# expect: FAILED one_derivative[sig]: the same error
# expect: FAILED one_derivative[square]: the same error
# expect: FAILED one_derivative[subConstant]: the same error
# expect: FAILED two_grad[add2]: the same error
# expect: FAILED two_grad[mul2]: the same error
# expect: FAILED two_grad[div2]: the same error
# expect: FAILED two_grad[eq2]: the same error
# expect: FAILED two_grad[gt2]: the same error
# expect: FAILED two_grad[lt2]: the same error
# expect: FAILED reduce[sum(0)]: the same error
# expect: FAILED reduce[mean(0)]: the same error
# expect: FAILED reduce[mean()]: the same error
# expect: FAILED two_grad_broadcast[add2]: the same error
# expect: FAILED two_grad_broadcast[mul2]: the same error
# expect: FAILED two_grad_broadcast[div2]: the same error
# expect: FAILED two_grad_broadcast[eq2]: the same error
# expect: FAILED two_grad_broadcast[gt2]: the same error
# expect: FAILED two_grad_broadcast[lt2]: the same error
# expect: FAILED permute: the same error
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
    check("3.1")
except AssertionError as e:
    print("AssertionError:", e)
# expect: check("3.1"): MiniTorch's Task 3.1 tests on your backend (BuggyOps), expected values from simple
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
# expect: FAILED one_args[addConstant], with a of shape (2,):
# expect:   a = [19.8009, 82.6375]
# expect:   your backend raised IndexError: index 1 is out of bounds for b_storage of size 1 (compiled _zip_b_at_a())
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
check("3.1")
# expect: check("3.1"): MiniTorch's Task 3.1 tests on your backend (SolvedOps), expected values from simple
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
check(3.2)
# expect: check("3.2"): MiniTorch's Task 3.2 tests on your backend (SolvedOps), expected values from simple
# expect:   mm2                                    4 cases  passed
# expect:   bmm                                    4 cases  passed
# expect-re: 2 passed, 0 failed \([0-9.]+ s\)


# A class deriving from minitorch.FastOps keeps the built-in kernels it does not write: here only
# matrix_multiply is the student's, and it forgets the batch (only the first matrix of each is
# multiplied), so check("3.1") runs FastOps's own kernels and passes, mm passes, bmm fails.
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
check("3.1")
# expect: check("3.1"): MiniTorch's Task 3.1 tests on your backend (MatmulOps), expected values from simple
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
try:
    check("3.2")
except AssertionError as e:
    print("AssertionError:", e)
# expect: check("3.2"): MiniTorch's Task 3.2 tests on your backend (MatmulOps), expected values from simple
# expect:   mm2                                    4 cases  passed
# expect:   bmm                                    1 case   FAILED
# expect-re: 1 passed, 1 failed \([0-9.]+ s\)
# expect:
# expect: FAILED bmm, with a of shape (2, 2, 2), permuted (strides (1, 2, 4)) and b of shape (1, 2, 2):
# expect:   a = [[[-16.7155, 11.4324], [-18.7964, 81.8152]], [[-73.5786, 88.5231], [94.5009, -83.7423]]]
# expect:   b = [[[6.01975, -73.3722], [50.8242, -39.5517]]]
# expect:   values, expected: [[[480.422, 774.278], [4045.05, -1856.8]], [[4056.19, 1897.38], [-3687.27, -3621.59]]]
# expect:   values, got:      [[[480.422, 774.278], [4045.05, -1856.8]], [[0, 0], [0, 0]]]
# expect: AssertionError: 1 of 2 tests of Task 3.2 failed (the first: bmm); see above
