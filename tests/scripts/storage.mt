# a tensor's memory as MiniTorch's kernels see it: t.tuple(), t._tensor, minitorch.TensorData;
# expected values worked out by hand from the shapes and strides (row-major (2, 1); a
# permute swaps them; TensorData.index is sum(index[i] * strides[i]))
import minitorch
t = minitorch.tensor([[1.0, 2.0], [3.0, 4.0]])
storage, shape, strides = t.tuple()
print(len(storage), shape, strides, storage[3], storage[-1])
# expect: 4 (2, 2) (2, 1) 4.0 4.0
storage[0] = 10.0
print(t[0, 0], list(storage))
# expect: 10.0 [10.0, 2.0, 3.0, 4.0]
u = t.permute(1, 0)
s2, sh2, st2 = u.tuple()
print(sh2, st2, s2[st2[0] * 1 + st2[1] * 0])
# expect: (2, 2) (1, 2) 2.0
td = t._tensor
print(td.shape, td.strides, td.index((1, 0)), td.size)
# expect: (2, 2) (2, 1) 2 4
td._storage[:] = 0.5
print(t.tolist())
# expect: [[0.5, 0.5], [0.5, 0.5]]
td._storage[:] = [1, 2, 3, 4]
print(t.tolist(), sum(x for x in td._storage))
# expect: [[1.0, 2.0], [3.0, 4.0]] 10.0
d = minitorch.TensorData([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], (2, 3))
print(d.shape, d.strides, d.index((1, 2)), d._storage[d.index((1, 2))])
# expect: (2, 3) (3, 1) 5 6.0
e = minitorch.TensorData([1.0, 2.0, 3.0, 4.0], (2, 2), (1, 2))
print(e.strides, e.is_contiguous(), d.is_contiguous())
# expect: (1, 2) False True


def tensor_map(fn):
    def _map(out, out_shape, out_strides, in_storage, in_shape, in_strides):
        for i in range(len(out)):
            out[i] = fn(in_storage[i])
    return _map


a = minitorch.tensor([1.0, -2.0, 3.0])
out = minitorch.zeros((3,))
tensor_map(lambda x: x * 2)(*out.tuple(), *a.tuple())
print(out.tolist())
# expect: [2.0, -4.0, 6.0]
try:
    td.index((0, 5))
except Exception as ex:
    print(type(ex).__name__, ex)
    # expect: IndexingError Index 5 out of range 2.
try:
    storage[9]
except IndexError as ex:
    print("IndexError", ex)
    # expect: IndexError Storage index out of range

# t.zeros(shape=None): zeros on t's backend, of t's shape or the one given, as the course's ops
# make their outputs
a = minitorch.tensor([[1.0, 2.0, 3.0]], backend=minitorch.SimpleBackend)
print(a.zeros(), a.zeros((2, 1)).shape, a.zeros([4]).backend)
# expect: tensor([[0., 0., 0.]], shape=(1, 3), backend=simple) (2, 1) simple

# t.to_cuda_() moves t itself (tests/scripts/cuda/to_cuda.mt); without a GPU it says why
try:
    a.to_cuda_()
    print(a.backend == "cuda")
except RuntimeError as e:
    print(not cuda_available() and "the cuda backend is not available" in str(e))
# expect: True

storage[1:3]
# expect-error: NotImplementedError: slicing a Storage is not supported: index it, or make a list with list(x)
