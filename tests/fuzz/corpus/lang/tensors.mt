seed(1)
a = rand(3, 4, requires_grad=true)
b = tensor([[1, 2, 3, 4]])
c = (a * b + 1).relu().sum(1)
c.sum().backward()
print(a.grad.shape, c.tolist())
a.permute(1, 0).contiguous().view(12)[5]
