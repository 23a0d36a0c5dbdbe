# What a check grades cannot be talked out of its result: the name check keeps the kernel's
# check, ops inherited from the kernel's own kernels or computed by its own backends fail the
# part that grades them, inputs are drawn afresh, and the code checked is the session's current
# code (a kernel fixed after TensorBackend ran is the one tested).
import minitorch
from minitorch import MAX_DIMS, to_index, broadcast_index, index_to_position, shape_broadcast
from numba import njit, prange
import numpy as np

# ---- the name check cannot be given another value ---------------------------------------------
try:
    def check(*a, **k):
        print("all tests passed")
except RuntimeError as e:
    print(e)
# expect: check is the grader's: a notebook's graded cells call it, so no cell may give the name another value (def, =, import ... as, class, for, with ... as). Name yours otherwise (my_check)
for form in range(4):
    try:
        if form == 0:
            check = lambda *a, **k: None
        elif form == 1:
            import math as check
        elif form == 2:
            class check:
                pass
        else:
            for check in range(2):
                pass
    except RuntimeError as e:
        print(form, str(e)[:30])
# expect: 0 check is the grader's: a noteb
# expect: 1 check is the grader's: a noteb
# expect: 2 check is the grader's: a noteb
# expect: 3 check is the grader's: a noteb
print(check)
# expect: <built-in function check>
# nor can what graded code calls be replaced inside the kernel's modules
for mod in (minitorch, minitorch.operators, np):
    try:
        mod.tensor = None
    except AttributeError as e:
        print(e)
# expect: the kernel's modules are read only: 'tensor' cannot be set on one (the course's code and check() rely on them); give your value a name of its own
# expect: the kernel's modules are read only: 'tensor' cannot be set on one (the course's code and check() rely on them); give your value a name of its own
# expect: the kernel's modules are read only: 'tensor' cannot be set on one (the course's code and check() rely on them); give your value a name of its own

# ---- a student's kernels, the course's way ------------------------------------------------------
def tensor_map(fn):
    def _map(out, out_shape, out_strides, in_storage, in_shape, in_strides):
        raise NotImplementedError("Need to implement for Task 3.1")

    return njit(parallel=True)(_map)


class FastOps(minitorch.TensorOps):
    @staticmethod
    def map(fn):
        f = tensor_map(njit()(fn))

        def ret(a, out=None):
            if out is None:
                out = a.zeros(a.shape)
            f(*out.tuple(), *a.tuple())
            return out

        return ret


FastTensorBackend = minitorch.TensorBackend(FastOps)
try:
    check("3.1", "map", seed=7)
except AssertionError as e:
    print(e)
# expect-re: check\("3.1", "map"\): .* inputs drawn with seed 7
# expect: 5 attempts of this session's cells to give the name check another value were refused: this is the kernel's own check
# expect:   map[neg]                               1 case   FAILED
# expect:   map[relu]                              1 case   FAILED
# expect:   map[sigmoid]                           1 case   FAILED
# expect:   map[inv]                               1 case   FAILED
# expect:   map_broadcast[neg]                     1 case   FAILED
# expect:   map_broadcast[id]                      1 case   FAILED
# expect-re: 0 passed, 6 failed \([0-9.]+ s\)
# expect:
# expect-re: FAILED map\[neg\]: your backend raised NotImplementedError: Need to implement for Task 3.1 \(in _map\(\), line [0-9]+ of the cell defining it: raise NotImplementedError\("Need to implement for Task 3.1"\)\)
# expect:   a: shape (1,), strides (1,), storage of 1
# expect-re:     values \[[-0-9.e]+\]
# expect: FAILED map[relu]: the same error
# expect: FAILED map[sigmoid]: the same error
# expect: FAILED map[inv]: the same error
# expect: FAILED map_broadcast[neg]: the same error
# expect: FAILED map_broadcast[id]: the same error
# expect: 6 of 6 tests of Task 3.1 (map) failed (the first: map[neg]); see above


# the kernel written, and only that cell run again: the check runs it, not the stale one
def tensor_map(fn):
    def _map(out, out_shape, out_strides, in_storage, in_shape, in_strides):
        for i in prange(len(out)):
            out_index = np.zeros(MAX_DIMS, np.int32)
            in_index = np.zeros(MAX_DIMS, np.int32)
            to_index(i, out_shape, out_index)
            broadcast_index(out_index, out_shape, in_shape, in_index)
            o = index_to_position(out_index, out_strides)
            j = index_to_position(in_index, in_strides)
            out[o] = fn(in_storage[j])

    return njit(parallel=True)(_map)


check("3.1", "map", seed=7)
# expect-re: check\("3.1", "map"\): .* inputs drawn with seed 7
# expect: 5 attempts of this session's cells to give the name check another value were refused: this is the kernel's own check
# expect:   map[neg]                              15 cases  passed
# expect:   map[relu]                             15 cases  passed
# expect:   map[sigmoid]                          15 cases  passed
# expect:   map[inv]                              15 cases  passed
# expect:   map_broadcast[neg]                    15 cases  passed
# expect:   map_broadcast[id]                     15 cases  passed
# expect-re: 6 passed, 0 failed \([0-9.]+ s\)

# the class's cell run again (its map now says when it is made): the check takes the new class,
# and says so
class FastOps(minitorch.TensorOps):
    @staticmethod
    def map(fn):
        print("the new FastOps.map")
        f = tensor_map(njit()(fn))

        def ret(a, out=None):
            if out is None:
                out = a.zeros(a.shape)
            f(*out.tuple(), *a.tuple())
            return out

        return ret


check("3.1", "map", seed=7)
# expect: the new FastOps.map
# expect: the new FastOps.map
# expect: the new FastOps.map
# expect: the new FastOps.map
# expect: the new FastOps.map
# expect-re: check\("3.1", "map"\): .* inputs drawn with seed 7
# expect: FastOps was defined again after TensorBackend(FastOps): this check runs the new one (run the TensorBackend cell again for the session's other ops to run it too)
# expect: 5 attempts of this session's cells to give the name check another value were refused: this is the kernel's own check
# expect:   map[neg]                              15 cases  passed
# expect:   map[relu]                             15 cases  passed
# expect:   map[sigmoid]                          15 cases  passed
# expect:   map[inv]                              15 cases  passed
# expect:   map_broadcast[neg]                    15 cases  passed
# expect:   map_broadcast[id]                     15 cases  passed
# expect-re: 6 passed, 0 failed \([0-9.]+ s\)

# ---- ops that are not the student's ------------------------------------------------------------
# a class deriving from the kernel's own FastOps inherits its kernels: graded, they are refused
class Inherited(minitorch.FastOps):
    pass


minitorch.TensorBackend(Inherited)
try:
    check("3.1", "map", seed=7)
except AssertionError as e:
    print(e)
# expect-re: check\("3.1", "map"\): .* inputs drawn with seed 7
# expect: 5 attempts of this session's cells to give the name check another value were refused: this is the kernel's own check
# expect:   map[neg]                               1 case   FAILED
# expect:   map[relu]                              1 case   FAILED
# expect:   map[sigmoid]                           1 case   FAILED
# expect:   map[inv]                               1 case   FAILED
# expect:   map_broadcast[neg]                     1 case   FAILED
# expect:   map_broadcast[id]                      1 case   FAILED
# expect-re: 0 passed, 6 failed \([0-9.]+ s\)
# expect:
# expect: FAILED map[neg]: your backend raised RuntimeError: Inherited.map is the kernel's own (Inherited derives from minitorch's fast ops): check grades the kernels you write, so Inherited must define map itself
# expect:   a: shape (1,), strides (1,), storage of 1
# expect-re:     values \[[-0-9.e]+\]
# expect: FAILED map[relu]: the same error
# expect: FAILED map[sigmoid]: the same error
# expect: FAILED map[inv]: the same error
# expect: FAILED map_broadcast[neg]: the same error
# expect: FAILED map_broadcast[id]: the same error
# expect: 6 of 6 tests of Task 3.1 (map) failed (the first: map[neg]); see above


# a map that has the kernel's fast backend compute (right for neg): refused all the same
class Delegated(minitorch.TensorOps):
    @staticmethod
    def map(fn):
        def ret(a, out=None):
            return (-(a.to("fast"))).to("student")

        return ret


minitorch.TensorBackend(Delegated)
try:
    check("3.1", "map", seed=7)
except AssertionError as e:
    print(e)
# expect-re: check\("3.1", "map"\): .* inputs drawn with seed 7
# expect: 5 attempts of this session's cells to give the name check another value were refused: this is the kernel's own check
# expect:   map[neg]                               1 case   FAILED
# expect:   map[relu]                              1 case   FAILED
# expect:   map[sigmoid]                           1 case   FAILED
# expect:   map[inv]                               1 case   FAILED
# expect:   map_broadcast[neg]                     1 case   FAILED
# expect:   map_broadcast[id]                      1 case   FAILED
# expect-re: 0 passed, 6 failed \([0-9.]+ s\)
# expect:
# expect: FAILED map[neg]: your backend raised RuntimeError: Delegated.map ran ops on a backend of the kernel's own (fast, simple or cuda): check grades your kernels, so they must compute the op
# expect:   a: shape (1,), strides (1,), storage of 1
# expect-re:     values \[[-0-9.e]+\]
# expect: FAILED map[relu]: the same error
# expect: FAILED map[sigmoid]: the same error
# expect: FAILED map[inv]: the same error
# expect: FAILED map_broadcast[neg]: the same error
# expect: FAILED map_broadcast[id]: the same error
# expect: 6 of 6 tests of Task 3.1 (map) failed (the first: map[neg]); see above


# a matrix multiply computed by the ops the class inherits (a broadcast product, summed): the
# graded op must be the student's kernels' work; a copy (contiguous()) may still be inherited
class SumOfProducts(minitorch.FastOps):
    @staticmethod
    def matrix_multiply(a, b):
        a = a.contiguous()
        b = b.contiguous()
        return (a.view(a.shape[0], a.shape[1], a.shape[2], 1) * b.view(b.shape[0], 1, b.shape[1], b.shape[2])).sum(2).view(max(a.shape[0], b.shape[0]), a.shape[1], b.shape[2])


minitorch.TensorBackend(SumOfProducts)
try:
    check("3.2", "matrix_multiply", seed=7)
except AssertionError as e:
    print(e)
# expect-re: check\("3.2", "matrix_multiply"\): .* inputs drawn with seed 7
# expect: 5 attempts of this session's cells to give the name check another value were refused: this is the kernel's own check
# expect:   mm2                                    1 case   FAILED
# expect:   bmm                                    1 case   FAILED
# expect-re: 0 passed, 2 failed \([0-9.]+ s\)
# expect:
# expect-re: FAILED mm2: your backend raised RuntimeError: a graded op of SumOfProducts ran zip, which SumOfProducts inherits from minitorch's fast ops: check grades your kernels, so they must compute it \(a copy, as contiguous\(\) makes, may be inherited\) \(in matrix_multiply\(\), line [0-9]+ of the cell defining it: return .*
# expect:   a: shape (2, 3), strides (3, 1), storage of 6
# expect-re:     values .*
# expect:   b: shape (3, 4), strides (4, 1), storage of 12
# expect-re:     values .*
# expect: FAILED bmm: the same error
# expect: 2 of 2 tests of Task 3.2 (matrix_multiply) failed (the first: mm2); see above
