# MiniTorch's TensorBackend attributes on the kernel's backends, called as MiniTorch's Tensor and
# Functions call them (map: f(a, out=None); zip: f(a, b); reduce: f(a, dim)); Parameter's
# semantics in test_module.py's test_parameter; Tensor.to_numpy(); TensorData.to_cuda_() and
# numba.cuda's is_cuda_array and to_device as cuda_ops.py's sum_practice uses them, in the
# kernel's CUDA simulator. Values worked out by hand.
%cuda simulate
# expect-re: cuda\.jit kernels run in the kernel's CUDA simulator.*
import minitorch
import numba
from minitorch import FastTensorBackend, SimpleBackend, tensor

B = minitorch.TensorBackend(minitorch.FastOps)
a = tensor([[1.0, -2.0, 3.0]], backend=SimpleBackend, requires_grad=True)
b = tensor([[0.5], [2.0]], backend=SimpleBackend)
print(B.neg_map(a).tolist(), B.relu_map(a).tolist(), B.inv_map(b).tolist(), B.id_map(b).tolist())
# expect: [[-1.0, 2.0, -3.0]] [[1.0, 0.0, 3.0]] [[2.0], [0.5]] [[0.5], [2.0]]
print(B.exp_map(tensor([0.0])).tolist(), B.log_map(tensor([1.0])).tolist(), B.sigmoid_map(tensor([0.0])).tolist())
# expect: [1.0] [0.0] [0.5]
print(B.add_zip(a, b).tolist(), B.mul_zip(a, b).tolist())
# expect: [[1.5, -1.5, 3.5], [3.0, 0.0, 5.0]] [[0.5, -1.0, 1.5], [2.0, -4.0, 6.0]]
print(B.lt_zip(a, b).tolist(), B.eq_zip(a, tensor([1.0])).tolist(), B.is_close_zip(a, tensor([1.005])).tolist())
# expect: [[0.0, 1.0, 0.0], [1.0, 1.0, 0.0]] [[1.0, 0.0, 0.0]] [[1.0, 0.0, 0.0]]
print(B.relu_back_zip(a, b).tolist(), B.log_back_zip(b, b).tolist(), B.inv_back_zip(b, b).tolist())
# expect: [[0.5, 0.0, 0.5], [2.0, 0.0, 2.0]] [[1.0], [1.0]] [[-2.0], [-0.5]]
print(B.add_reduce(b, 0).tolist(), B.mul_reduce(a, 1).tolist(), B.add_reduce(a, -1).tolist())
# expect: [[2.5]] [[-6.0]] [[2.0]]
print(B.matrix_multiply(b, a).tolist(), B.cuda, minitorch.GPUBackend.cuda)
# expect: [[0.5, -1.0, 1.5], [2.0, -4.0, 6.0]] False True
# Tensor.expand's broadcast: id_map(other, buf) fills buf and returns it; the ops keep no history
buf = a.zeros((2, 3))
print(SimpleBackend.id_map(a, buf) is buf, buf.tolist(), B.neg_map(a).requires_grad(), B.neg_map(a).backend)
# expect: True [[1.0, -2.0, 3.0], [1.0, -2.0, 3.0]] False simple

# test_parameter: a value with requires_grad_ is marked through it, whatever its class
class MockParam:
    def __init__(self):
        self.x = False

    def requires_grad_(self, x):
        self.x = x


t = MockParam()
q = minitorch.Parameter(t)
t2 = MockParam()
q.update(t2)
print(t.x, t2.x, minitorch.Parameter(2.5).value, minitorch.Parameter(MockParam(), "w").value.name)
# expect: True True 2.5 w

# to_numpy(): a float64 numpy array of the values in the shape, which tensor() takes back
t = tensor([[2, 3, 4], [4, 5, 7]])
n = t.to_numpy()
t2 = tensor(n)
print(n, all(t[ind] == t2[ind] for ind in t._tensor.indices()), t.permute(1, 0).to_numpy())
# expect: [[2. 3. 4.]
# expect:  [4. 5. 7.]] True [[2. 4.]
# expect:  [3. 5.]
# expect:  [4. 7.]]

# sum_practice's out: a TensorData moved to the device, written by a kernel, read back; in the
# simulator the device's memory is the host's, as in Numba's
@numba.cuda.jit
def block_sums(out, a, size):
    i = numba.cuda.threadIdx.x
    if i * 4 < size:
        for k in range(4):
            out[i] += a[i * 4 + k]


out = minitorch.TensorData([0.0 for i in range(2)], (2,))
out.to_cuda_()
x = tensor([1.0, 2.0, 3.0, 4.0, 10.0, 20.0, 30.0, 40.0])
block_sums[1, 2](out.tuple()[0], x._tensor._storage, 8)
print(out._storage[0], out._storage[1], numba.cuda.is_cuda_array(out._storage))
# expect: 10.0 100.0 False
d = numba.cuda.to_device(out._storage)
d[0] = 5.0
print(d[0], out._storage[0], numba.cuda.to_device([1, 2.5]), numba.cuda.is_cuda_array([1.0]))
# expect: 5.0 10.0 Storage([1.0, 2.5]) False
numba.cuda.to_device("abc")
# expect-error: TypeError: cuda.to_device() copies a Storage or a list of numbers, not str
