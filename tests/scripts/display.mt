# how tensors show as text: PyTorch's layout (4 decimals, whole numbers as "2."), the shape and
# backend after the data, summaries with "..." past 1,000 elements (first and last 3 of each dim)
display(tensor([[1, 2], [3, 4]]))
# expect: tensor([[1., 2.],
# expect:         [3., 4.]], shape=(2, 2), backend=fast)
display(zeros(3))
# expect: tensor([0., 0., 0.], shape=(3,), backend=fast)
display(tensor([7]))
# expect: tensor([7.], shape=(1,), backend=fast)
display(tensor([]))
# expect: tensor([], shape=(0,), backend=fast)
display(zeros(2, 0))
# expect: tensor([], shape=(2, 0), backend=fast)
# 3-D: a blank line between the 2-D blocks
display(ones(2, 1, 2))
# expect: tensor([[[1., 1.]],
# expect:
# expect:         [[1., 1.]]], shape=(2, 1, 2), backend=fast)
# right-aligned to the widest value; non-finite values as nan and inf (not counted in the width,
# as in PyTorch)
display(tensor([1.5, -20, 300]))
# expect: tensor([  1.5000, -20.0000, 300.0000], shape=(3,), backend=fast)
display(tensor([1, 0, -1]) / 0)
# expect: tensor([inf, nan, -inf], shape=(3,), backend=fast)
# scientific notation when the magnitudes span more than 1000x (PyTorch's rule)
display(tensor([0.001, 1000]))
# expect: tensor([1.0000e-03, 1.0000e+03], shape=(2,), backend=fast)
# requires_grad after the backend, on results too
x = tensor([1, 2], requires_grad=true)
display(x * 2)
# expect: tensor([2., 4.], shape=(2,), backend=fast, requires_grad=True)
# a transposed view shows its own layout; print shows the same text; inside a list too
print(tensor([[1, 2, 3], [4, 5, 6]]).permute(1, 0))
# expect: tensor([[1., 4.],
# expect:         [2., 5.],
# expect:         [3., 6.]], shape=(3, 2), backend=fast)
print([tensor([1.5]), 2])
# expect: [tensor([1.5000], shape=(1,), backend=fast), 2]
# 1,000 elements are shown whole: 18 values a line ("0." and ", " in 80 columns), 56 lines
s = str(zeros(1000))
print(len(s))
# expect: 4477
# past 1,000: " ..." in each cut row, "..." for the cut rows; whole numbers as PyTorch writes
# them, "1." (the format comes from the shown values only: 100000 at [50, 5] is cut)
display(ones(1001))
# expect: tensor([1., 1., 1.,  ..., 1., 1., 1.], shape=(1001,), backend=fast)
m = ones(101, 10)
m[0, 0] = 2
m[100, 9] = 3
m[50, 5] = 100000
display(m)
# expect: tensor([[2., 1., 1.,  ..., 1., 1., 1.],
# expect:         [1., 1., 1.,  ..., 1., 1., 1.],
# expect:         [1., 1., 1.,  ..., 1., 1., 1.],
# expect:         ...,
# expect:         [1., 1., 1.,  ..., 1., 1., 1.],
# expect:         [1., 1., 1.,  ..., 1., 1., 1.],
# expect:         [1., 1., 1.,  ..., 1., 1., 3.]], shape=(101, 10), backend=fast)
# the suffix goes on a line of its own past 80 columns
display(rand(1001) * 0 + 0.5)
# expect: tensor([0.5000, 0.5000, 0.5000,  ..., 0.5000, 0.5000, 0.5000], shape=(1001,),
# expect:        backend=fast)
