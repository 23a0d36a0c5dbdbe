# Tensors are indexed one element at a time: a slice says so, located at the slice.
t = tensor([[1, 2], [3, 4]])
print(t[1, 0])
# expect: 3.0
t[0, :]
# expect-error: NotImplementedError: slicing of tensors is not supported in the MiniTorch language: index one element (t[i, j]), or use view() or permute()
# expect-tb:   Cell line 5, column 6:
