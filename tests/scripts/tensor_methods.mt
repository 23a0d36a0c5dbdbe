# tensor methods and properties (MiniTorch semantics), indexing, comparisons, backends
a = tensor([[-1, 0], [2, 3]])
print(a.relu().tolist(), a.neg().tolist(), a.abs().tolist())
# expect: [[0.0, 0.0], [2.0, 3.0]] [[1.0, -0.0], [-2.0, -3.0]] [[1.0, 0.0], [2.0, 3.0]]
print(tensor([0]).sigmoid().item(), tensor([0]).exp().item(), tensor([1]).log().item())
# expect: 0.5 1.0 0.0
print(tensor([4]).inv().item(), tensor([9]).sqrt().item(), tensor([0]).tanh().item())
# expect: 0.25 3.0 0.0
# views share storage: view needs a contiguous tensor, permute changes the strides
print(a.view(4).tolist(), a.view(1, -1).shape, a.shape, a.strides, a.size, a.dims)
# expect: [-1.0, 0.0, 2.0, 3.0] (1, 4) (2, 2) (2, 1) 4 2
p = a.permute(1, 0)
print(p.strides, p.is_contiguous(), p.contiguous().is_contiguous(), p.contiguous().view(4).tolist())
# expect: (1, 2) False True [-1.0, 2.0, 0.0, 3.0]
# reductions keep the reduced dim; without a dim they give shape (1,)
print(a.sum(0).tolist(), a.sum(1).tolist(), a.sum().shape, a.mean().item(), a.mean(0).tolist())
# expect: [[1.0, 3.0]] [[-1.0], [5.0]] (1,) 1.0 [[0.5, 1.5]]
print(a.max(0).tolist(), a.max(1).tolist(), a.max().tolist())
# expect: [[2.0, 3.0]] [[0.0], [3.0]] [3.0]
print(a.is_close(a + 0.001).all().item(), a.is_close(a + 0.1).all().item())
# expect: 1.0 0.0
print((a > -2).all().item(), (a > 0).all().item(), (a > 0).all(1).tolist())
# expect: 1.0 0.0 [[0.0], [1.0]]
# comparisons give 1.0 / 0.0 tensors, broadcasting with numbers
print((a < 1).tolist(), (a == 2).tolist(), (a > 0).sum().item())
# expect: [[1.0, 1.0], [0.0, 0.0]] [[0.0, 0.0], [1.0, 0.0]] 2.0
# indexing reads a float; assignment writes through views
print(a[1, 0], a[0, 1], a[-1, -1])
# expect: 2.0 0.0 3.0
p[1, 0] = 10
print(a.tolist())
# expect: [[-1.0, 10.0], [2.0, 3.0]]
# operators broadcast; numbers mix in on either side
print((tensor([1, 2, 3]) * 2 - 1).tolist(), (1 / tensor([2, 4])).tolist(), (-tensor([1])).tolist())
# expect: [1.0, 3.0, 5.0] [0.5, 0.25] [-1.0]
print((tensor([[1], [2]]) + tensor([10, 20, 30])).tolist())
# expect: [[11.0, 21.0, 31.0], [12.0, 22.0, 32.0]]
print((tensor([[1, 2], [3, 4]]) @ tensor([[5], [6]])).tolist())
# expect: [[17.0], [39.0]]
# backends: simple and fast give the same values
s = a.to("simple")
print(s.backend, a.backend, (s @ s).tolist() == (a @ a).tolist(), (s @ s).backend)
# expect: simple fast True simple
# tolist round-trips float32 with the fewest digits; non-finite values as JSON reads them
print(tensor([0.1]).tolist(), tensor([1 / 3]).tolist(), (tensor([1, -1, 0]) / 0).tolist())
# expect: [0.1] [0.33333334] [Infinity, -Infinity, NaN]
print(tensor([[1, 2], [3, 4]]).shape[0], len(tensor([1, 2, 3]).shape), float(tensor([2.5])))
# expect: 2 1 2.5
