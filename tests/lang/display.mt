# how tensors show as text: PyTorch's layout with 4 decimals, the shape and backend after the
# data, summaries with "..." past 1,000 elements (first and last 3 of each dim)
display(tensor([[1, 2], [3, 4]]))
# expect: tensor([[1.0000, 2.0000],
# expect:         [3.0000, 4.0000]], shape=(2, 2), backend=fast)
display(zeros(3))
# expect: tensor([0.0000, 0.0000, 0.0000], shape=(3,), backend=fast)
display(tensor([7]))
# expect: tensor([7.0000], shape=(1,), backend=fast)
display(tensor([]))
# expect: tensor([], shape=(0,), backend=fast)
display(zeros(2, 0))
# expect: tensor([], shape=(2, 0), backend=fast)
# 3-D: a blank line between the 2-D blocks
display(ones(2, 1, 2))
# expect: tensor([[[1.0000, 1.0000]],
# expect:
# expect:         [[1.0000, 1.0000]]], shape=(2, 1, 2), backend=fast)
# right-aligned to the widest value; non-finite values as nan and inf
display(tensor([1.5, -20, 300]))
# expect: tensor([  1.5000, -20.0000, 300.0000], shape=(3,), backend=fast)
display(tensor([1, 0, -1]) / 0)
# expect: tensor([ inf,  nan, -inf], shape=(3,), backend=fast)
# scientific notation when the magnitudes span more than 1000x (PyTorch's rule)
display(tensor([0.001, 1000]))
# expect: tensor([1.0000e-03, 1.0000e+03], shape=(2,), backend=fast)
# requires_grad after the backend, on results too
x = tensor([1, 2], requires_grad=true)
display(x * 2)
# expect: tensor([2.0000, 4.0000], shape=(2,), backend=fast, requires_grad=True)
# a transposed view shows its own layout; print shows the same text; inside a list too
print(tensor([[1, 2, 3], [4, 5, 6]]).permute(1, 0))
# expect: tensor([[1.0000, 4.0000],
# expect:         [2.0000, 5.0000],
# expect:         [3.0000, 6.0000]], shape=(3, 2), backend=fast)
print([tensor([1.5]), 2])
# expect: [tensor([1.5000], shape=(1,), backend=fast), 2]
# 1,000 elements are shown whole: 9 values a line (80 columns), 112 lines
s = str(zeros(1000))
print(len(s))
# expect: 8925
# past 1,000: " ..." in each cut row, "..." for the cut rows; the suffix wraps past 80 columns
display(ones(1001))
# expect: tensor([1.0000, 1.0000, 1.0000,  ..., 1.0000, 1.0000, 1.0000], shape=(1001,),
# expect:        backend=fast)
m = ones(101, 10)
m[0, 0] = 2
m[100, 9] = 3
m[50, 5] = 100000
display(m)
# expect: tensor([[2.0000, 1.0000, 1.0000,  ..., 1.0000, 1.0000, 1.0000],
# expect:         [1.0000, 1.0000, 1.0000,  ..., 1.0000, 1.0000, 1.0000],
# expect:         [1.0000, 1.0000, 1.0000,  ..., 1.0000, 1.0000, 1.0000],
# expect:         ...,
# expect:         [1.0000, 1.0000, 1.0000,  ..., 1.0000, 1.0000, 1.0000],
# expect:         [1.0000, 1.0000, 1.0000,  ..., 1.0000, 1.0000, 1.0000],
# expect:         [1.0000, 1.0000, 1.0000,  ..., 1.0000, 1.0000, 3.0000]],
# expect:        shape=(101, 10), backend=fast)
