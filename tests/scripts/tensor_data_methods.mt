# MiniTorch's TensorData methods on a tensor's layout (t._tensor): indices() in row-major order,
# get(), permute() as a view of the same storage, to_string() in MiniTorch's text, sample()
# from the session's generator, and permute's assertion.
import minitorch
t = minitorch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
td = t._tensor
print(list(td.indices()), td.get((1, 2)), type(td.indices()).__name__)
# expect: [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)] 6.0 generator
p = td.permute(1, 0)
print(p.shape, p.strides, p.get((2, 1)), [p.get(i) for i in p.indices()])
# expect: (3, 2) (1, 3) 6.0 [1.0, 4.0, 2.0, 5.0, 3.0, 6.0]
print(repr(td.to_string()))
# expect: '\n[\n\t[1.00 2.00 3.00]\n\t[4.00 5.00 6.00]]'
print(repr(minitorch.tensor([-0.5, 12.25])._tensor.to_string()))
# expect: '\n[-0.50 12.25]'
seed(5)
draws = [td.sample() for _ in range(20)]
seed(5)
again = [td.sample() for _ in range(20)]
print(all(0 <= i < 2 and 0 <= j < 3 for i, j in draws), draws == again, len({d: 1 for d in draws}) > 1)
# expect: True True True
for order in [(0, 0), (1,), (0, 2)]:
    try:
        td.permute(*order)
    except AssertionError as e:
        print(e)
# expect: Must give a position to each dimension. Shape: (2, 3) Order: (0, 0)
# expect: Must give a position to each dimension. Shape: (2, 3) Order: (1,)
# expect: Must give a position to each dimension. Shape: (2, 3) Order: (0, 2)
