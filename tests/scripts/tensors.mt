# tensors: creation, broadcasting, reductions (dims kept), matmul, autodiff
a = tensor([[1, 2, 3], [4, 5, 6]])
print(a.shape, a.size, a.dims)
# expect: (2, 3) 6 2
print((a + tensor([10, 20, 30])).tolist())
# expect: [[11.0, 22.0, 33.0], [14.0, 25.0, 36.0]]
print(a.sum(0).tolist(), a.sum(1).tolist(), a.sum().tolist())
# expect: [[5.0, 7.0, 9.0]] [[6.0], [15.0]] [21.0]
print((a @ a.permute(1, 0)).tolist())
# expect: [[14.0, 32.0], [32.0, 77.0]]
print(a.mean(1).tolist(), a.max(0).tolist())
# expect: [[2.0], [5.0]] [[4.0, 5.0, 6.0]]
x = tensor([1, -2, 3], requires_grad=true)
y = (x * x).sum()
y.backward()
print(y.item(), x.grad.tolist())
# expect: 14.0 [2.0, -4.0, 6.0]
%backend simple
s = tensor([[1, 2], [3, 4]]) @ tensor([[1], [1]])
print(s.backend, s.tolist())
# expect: simple [[3.0], [7.0]]
