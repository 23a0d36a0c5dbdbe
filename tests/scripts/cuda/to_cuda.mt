# MiniTorch's t.to_cuda_(): the tensor itself moves to the GPU, so every name for it (and its
# gradient) is on cuda afterwards, while a view made before keeps the old memory. Run through
# the cuda backend's host stand-in (see standin.mt).
import minitorch
x = minitorch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = x
v = x.permute(1, 0)
(x * x).sum().backward()
print(x.to_cuda_(), x.backend, y.backend, v.backend)
# expect: None cuda cuda fast
print(x.grad.backend, x.grad.tolist())
# expect: cuda [[2.0, 4.0], [6.0, 8.0]]

# the view keeps the values it had; a write to x after the move is not seen by it
x[0, 0] = 9.0
print(x.tolist(), v.tolist())
# expect: [[9.0, 2.0], [3.0, 4.0]] [[1.0, 3.0], [2.0, 4.0]]

# ops and backward on the moved leaf run on cuda; the gradient accumulates where it moved
z = (x * 3).sum()
print(z.backend, z.item())
# expect: cuda 54.0
z.backward()
print(x.grad.backend, x.grad.tolist())
# expect: cuda [[5.0, 7.0], [9.0, 11.0]]

# moving twice is nothing
x.to_cuda_()
print(x.backend, x.tolist())
# expect: cuda [[9.0, 2.0], [3.0, 4.0]]

# a computed tensor does not move in place
w = minitorch.tensor([1.0], requires_grad=True) * 2
try:
    w.to_cuda_()
except RuntimeError as e:
    print(e)
# expect: only a tensor without autodiff history can move to cuda in place (this one was computed from others); .to("cuda") gives a copy that gradients flow through
print(w.backend)
# expect: fast

# an op recorded before the move saved the old memory: backward says so
c = minitorch.tensor([1.0, 2.0], requires_grad=True)
d = c * c
c.to_cuda_()
try:
    d.backward(minitorch.tensor([1.0, 1.0]))
except RuntimeError as e:
    print(e)
# expect: backward: one of the values needed for gradient computation has been modified in place: the first input of mul (shape (2,)) is at version 1, mul used it at version 0 (an element assignment, a map into out=, an optimizer step or a move to another backend wrote it); make that write after backward(), or write a copy
