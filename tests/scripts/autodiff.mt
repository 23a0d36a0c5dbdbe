# backward() fills .grad of the leaves that require it; each value below worked out by hand
x = tensor([[1, 2], [3, 4]], requires_grad=true)
(x * x).sum().backward()
print(x.grad.tolist())
# expect: [[2.0, 4.0], [6.0, 8.0]]
# gradients accumulate until zero_grad()
(x * 3).sum().backward()
print(x.grad.tolist())
# expect: [[5.0, 7.0], [9.0, 11.0]]
x.zero_grad()
print(x.grad)
# expect: None
# matmul: d/dx (x @ w).sum() = w^T on every row, d/dw = the column sums of x
w = tensor([[1], [-1]], requires_grad=true)
(x @ w).sum().backward()
print(x.grad.tolist(), w.grad.tolist())
# expect: [[1.0, -1.0], [1.0, -1.0]] [[4.0], [6.0]]
# sigmoid'(0) = 1/4; sigmoid'(1) = s (1 - s) with s = 1 / (1 + e**-1)
z = tensor([0, 1], requires_grad=true)
z.sigmoid().sum().backward()
print(z.grad.tolist())
# expect: [0.25, 0.19661193]
# a broadcast operand gets the gradient summed over the broadcast dim; mean divides by 6
b = tensor([1, 2, 3], requires_grad=true)
(tensor([[1, 1, 1], [2, 2, 2]]) * b).mean().backward()
print(b.grad.tolist())
# expect: [0.5, 0.5, 0.5]
r = tensor([-1, 0.5, 2], requires_grad=true)
r.relu().sum().backward()
print(r.grad.tolist())
# expect: [0.0, 1.0, 1.0]
e = tensor([1, 2], requires_grad=true)
y = (e * e * e).sum()
y.backward()
print(y.item(), e.grad.tolist())
# expect: 9.0 [3.0, 12.0]
# max sends the gradient to every element equal to the max (MiniTorch)
m = tensor([1, 5, 5], requires_grad=true)
m.max().backward()
print(m.grad.tolist())
# expect: [0.0, 1.0, 1.0]
# a gradient of the output's shape for a tensor of many elements
v = tensor([1, 2, 3], requires_grad=true)
(v * 2).backward(tensor([1, 10, 100]))
print(v.grad.tolist())
# expect: [2.0, 20.0, 200.0]
print(e.requires_grad(), (e * 2).requires_grad(), e.detach().requires_grad(), tensor([1]).grad)
# expect: True True False None
