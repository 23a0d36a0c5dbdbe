# A backend from a class of ops the student wrote (MiniTorch's TensorBackend(FastOps), Tasks
# 3.1 and 3.2): the course's templates for map, zip, reduce and matrix multiply written here as
# a student would fill them in, made into the session's student backend. Every op on a tensor
# there, autodiff's and train()'s, runs the student's code; results are checked against simple.
import minitorch

# before any class of ops is given, the student backend says how to make one
try:
    minitorch.tensor([1.0]).to("student")
except RuntimeError as e:
    print(e)
# expect: the student backend has no ops yet: make it from your class of ops with minitorch.TensorBackend(YourOps)

from minitorch import MAX_DIMS, to_index, broadcast_index, index_to_position, shape_broadcast
from numba import njit, prange


def tensor_map(fn):
    def _map(out, out_shape, out_strides, in_storage, in_shape, in_strides):
        for i in prange(len(out)):
            out_index = [0] * MAX_DIMS
            in_index = [0] * MAX_DIMS
            to_index(i, out_shape, out_index)
            broadcast_index(out_index, out_shape, in_shape, in_index)
            o = index_to_position(out_index, out_strides)
            j = index_to_position(in_index, in_strides)
            out[o] = fn(in_storage[j])

    return njit(parallel=True)(_map)


def tensor_zip(fn):
    def _zip(out, out_shape, out_strides, a_storage, a_shape, a_strides, b_storage, b_shape, b_strides):
        for i in prange(len(out)):
            out_index = [0] * MAX_DIMS
            a_index = [0] * MAX_DIMS
            b_index = [0] * MAX_DIMS
            to_index(i, out_shape, out_index)
            broadcast_index(out_index, out_shape, a_shape, a_index)
            broadcast_index(out_index, out_shape, b_shape, b_index)
            out[index_to_position(out_index, out_strides)] = fn(
                a_storage[index_to_position(a_index, a_strides)],
                b_storage[index_to_position(b_index, b_strides)],
            )

    return njit(parallel=True)(_zip)


def tensor_reduce(fn):
    def _reduce(out, out_shape, out_strides, a_storage, a_shape, a_strides, reduce_dim):
        for i in prange(len(out)):
            out_index = [0] * MAX_DIMS
            to_index(i, out_shape, out_index)
            o = index_to_position(out_index, out_strides)
            acc = out[o]
            for k in range(a_shape[reduce_dim]):
                out_index[reduce_dim] = k
                acc = fn(acc, a_storage[index_to_position(out_index, a_strides)])
            out[o] = acc

    return njit(parallel=True)(_reduce)


def _tensor_matrix_multiply(out, out_shape, out_strides, a_storage, a_shape, a_strides, b_storage, b_shape, b_strides):
    a_batch_stride = a_strides[0] if a_shape[0] > 1 else 0
    b_batch_stride = b_strides[0] if b_shape[0] > 1 else 0
    for n in prange(out_shape[0]):
        for i in range(out_shape[1]):
            for j in range(out_shape[2]):
                acc = 0.0
                for k in range(a_shape[2]):
                    acc += a_storage[n * a_batch_stride + i * a_strides[1] + k * a_strides[2]] * b_storage[n * b_batch_stride + k * b_strides[1] + j * b_strides[2]]
                out[n * out_strides[0] + i * out_strides[1] + j * out_strides[2]] = acc


tensor_matrix_multiply = njit(parallel=True, fastmath=True)(_tensor_matrix_multiply)


class StudentOps(minitorch.TensorOps):
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
        f = tensor_zip(njit()(fn))

        def ret(a, b):
            c_shape = shape_broadcast(a.shape, b.shape)
            out = a.zeros(c_shape)
            f(*out.tuple(), *a.tuple(), *b.tuple())
            return out

        return ret

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


StudentBackend = minitorch.TensorBackend(StudentOps)
print(StudentBackend)
# expect: TensorBackend('student')


# map, zip and reduce give simple's values exactly: the scalar functions handed to the student's
# ops are the engine's float32 ones. Inputs permuted, broadcast, and of several shapes.
def both(f, *shapes):
    xs = [minitorch.rand(s, backend=minitorch.SimpleBackend) + 0.25 for s in shapes]
    ys = [x.to("student") for x in xs]
    for x in xs + ys:
        x.requires_grad_(True)
    a = f(*xs)
    b = f(*ys)
    a.sum().backward()
    b.sum().backward()
    grads = [x.grad.tolist() == y.grad.tolist() for x, y in zip(xs, ys)]
    return b.backend, a.tolist() == b.tolist(), all(grads)


print(both(lambda a: -a, (3, 4)))
# expect: ('student', True, True)
print(both(lambda a: a.sigmoid() * a.exp() + a.log() - a.relu(), (2, 3, 4)))
# expect: ('student', True, True)
print(both(lambda a: a.permute(1, 0).inv(), (3, 5)))
# expect: ('student', True, True)
print(both(lambda a, b: a * b + a / b, (2, 3, 4), (3, 1)))
# expect: ('student', True, True)
print(both(lambda a, b: (a < b) + (a == b) + a.is_close(b), (4, 1), (1, 5)))
# expect: ('student', True, True)
print(both(lambda a: a.sum(0) + a.sum(1).permute(1, 0) * a.mean(0) + a.max(1).sum(), (4, 4)))
# expect: ('student', True, True)
print(both(lambda a: a.permute(2, 0, 1).sum(1), (2, 3, 4)))
# expect: ('student', True, True)
x = minitorch.tensor([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], backend=StudentBackend)
print(x.relu(), x.sum())
# expect: tensor([[1., 0., 3.],
# expect:         [4., 5., 0.]], shape=(2, 3), backend=student) tensor([5.], shape=(1,), backend=student)

# matmul: the student's loop adds in Python floats (double), simple in float32, so close
a = minitorch.rand((2, 3, 4), backend=minitorch.SimpleBackend)
b = minitorch.rand((4, 5), backend=minitorch.SimpleBackend)
c = a.to("student") @ b.to("student")
print(c.shape, c.backend, (c.to("simple").is_close(a @ b)).all().item())
# expect: (2, 3, 5) student 1.0

# the kernels ran compiled to native code (njit), their prange loops in parallel
parallel_diagnostics(tensor_matrix_multiply)
# expect: _tensor_matrix_multiply(Storage, tuple of ints, tuple of ints, Storage, tuple of ints, tuple of ints, Storage, tuple of ints, tuple of ints): compiled to native code
# expect-re:   parallel: the prange loop \(line 4 of _tensor_matrix_multiply\)
# expect-re:     over [0-9]+ threads \(%threads\); on one where a loop without inner loops has under 256 iterations
# expect-re:     in chunks of 1 to 1024 iterations, 8 per thread where the loop is long enough
# expect-re:     the interrupt polled between chunks
# expect:   each iteration's own variables: n (int) i (int) j (int) acc (float) k (int)
# expect:   arrays every iteration shares: out (Storage, an argument: written at positions that follow from the loop's variable), out_shape (tuple of ints, an argument: not written in the loop), out_strides (tuple of ints, an argument: not written in the loop), a_storage (Storage, an argument: not written in the loop), a_shape (tuple of ints, an argument: not written in the loop), a_strides (tuple of ints, an argument: not written in the loop), b_storage (Storage, an argument: not written in the loop), b_shape (tuple of ints, an argument: not written in the loop), b_strides (tuple of ints, an argument: not written in the loop)
# expect:   built twice: its prange body nests loops two deep, so its first call waits for gcc (the quick build's code would run them several times slower), on its loops as written with -Og -fcaller-saves, which compiles them sooner; gcc -O2 then builds the grouped loops below for the calls after it
# expect:   the loop over j (line 6 of _tensor_matrix_multiply) runs 4 iterations at a time, each with variables of its own: one inner loop adds their terms in turn, each sum in its own order (the same bits, sooner); the iterations left over, those of a group that meets an index out of range, and all of them where a storage it writes overlaps one it reads, run as written
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect-re:   the last call ran matrix_multiply for the student backend; the built-in fast matrix_multiply on the same shapes and strides takes [0-9.]+ (ns|µs|ms|s) \(the last call: [0-9.e+]+x that\)
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does

# train() runs on the student's ops, autodiff and SGD steps included: with matmul taken from
# simple, the same weights as simple's to the bit
class Delegating(StudentOps):
    @staticmethod
    def matrix_multiply(a, b):
        return (a.to("simple") @ b.to("simple")).to("student")


minitorch.TensorBackend(Delegating)
weights = []
for be in ["simple", "student"]:
    seed(5)
    d = dataset("simple", 20)
    m = mlp(2, 4, 1)
    h = train(m, d, epochs=3, rate=0.5, backend=be, log=0)
    weights.append([p.tolist() for p in m.parameters()])
# expect: [..............................] epoch 0/3 starting
# expect: [##############################] epoch 3/3 done
# expect-re: Trained 3 of 3 epochs on simple \(autodiff ops\): loss 13\.843, correct 12/20, time per epoch .*
# expect: <training chart: 3 epochs on simple: decision boundary, loss and time per epoch>
# expect: [..............................] epoch 0/3 starting
# expect: [##############################] epoch 3/3 done
# expect-re: Trained 3 of 3 epochs on student \(autodiff ops\): loss 13\.843, correct 12/20, time per epoch .*
# expect: <training chart: 3 epochs on simple: decision boundary, loss and time per epoch>
print(weights[0] == weights[1])
# expect: True

# %backend and .to() take the student backend as they take the built-in ones
%backend student
z = minitorch.zeros((2,))
%backend fast
print(z.backend, z.to("simple").backend, minitorch.tensor([1.0]).backend)
# expect: student simple fast


# a class with only map written runs maps; the first zip says what is missing
class OnlyMap(minitorch.TensorOps):
    @staticmethod
    def map(fn):
        return StudentOps.map(fn)


B = minitorch.TensorBackend(OnlyMap)
x = minitorch.tensor([1.0, -2.0], backend=B)
print((-x).tolist())
# expect: [-1.0, 2.0]
try:
    x + x
except NotImplementedError as e:
    print(e)
# expect: OnlyMap.zip is not written yet: the student backend's zip(add) needs it (write it as a @staticmethod of OnlyMap, then run TensorBackend(OnlyMap) again)


# what the student's functions give is checked against the op's output
class Wrong(StudentOps):
    @staticmethod
    def zip(fn):
        def ret(a, b):
            return a.zeros((1,))

        return ret

    @staticmethod
    def reduce(fn, start=0.0):
        def ret(a, dim):
            return 3

        return ret


minitorch.TensorBackend(Wrong)
try:
    x * x
except ValueError as e:
    print(e)
# expect: the student backend's zip(mul) (from Wrong) gave a tensor of shape (1,) where the op's output has shape (2,)
try:
    x.sum()
except TypeError as e:
    print(e)
# expect: the student backend's reduce(sum) (from Wrong) gave int, not a tensor

# running TensorBackend again with the fixed class makes the fix the one that runs
minitorch.TensorBackend(StudentOps)
print((x * x).tolist(), x.sum().item())
# expect: [1.0, 4.0] -1.0


# an error in the student's kernel is the student's, with the kernel's line in the traceback
class OffByOne(StudentOps):
    @staticmethod
    def map(fn):
        def ret(a, out=None):
            storage, shape, strides = a.tuple()
            out_storage = out.tuple()[0]
            for i in range(len(out_storage) + 1):
                out_storage[i] = fn(storage[i])
            return out

        return ret


minitorch.TensorBackend(OffByOne)
x.relu()
# expect-error: IndexError: Storage index out of range
# expect-tb:   In ret(), line 296, column 44 of the cell defining it:
# expect-tb:                     out_storage[i] = fn(storage[i])
