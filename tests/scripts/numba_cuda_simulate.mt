# numba.cuda.is_available() where cuda.jit kernels were sent to the simulator by choice
# (%cuda simulate): true, as Numba's simulator answers under NUMBA_ENABLE_CUDASIM=1, so that
# MiniTorch's tests guarded by it (test_tensor_general.py's cuda backend) run there.
import numba
import numba.cuda
from numba import cuda
import minitorch

%cuda simulate
# expect-re: cuda.jit kernels run in the kernel's CUDA simulator .*
print(numba.cuda.is_available())
# expect: True

backend_tests = ["fast"]
if numba.cuda.is_available():
    backend_tests.append("cuda")
print(backend_tests)
# expect: ['fast', 'cuda']


def _double(out, a, size):
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    if i < size:
        out[i] = a[i] * 2.0


if numba.cuda.is_available():
    double = cuda.jit()(_double)
    a = minitorch.tensor([1.0, 2.5, -3.0])
    out = minitorch.zeros((3,))
    double[1, 32](out._tensor._storage, a._tensor._storage, 3)
    print(out._tensor._storage[0], out._tensor._storage[1], out._tensor._storage[2])
# expect: 2.0 5.0 -6.0

# back to the GPU when there is one: the answer is again the cuda backend's
%cuda auto
# expect-re: cuda.jit kernels run .*
print(numba.cuda.is_available() == cuda_available())
# expect: True
