# minitorch.shape_broadcast raises MiniTorch's IndexingError for shapes that do not broadcast
import minitorch
print(minitorch.shape_broadcast((2, 1), (1, 3)))
# expect: (2, 3)
# minitorch.IndexingError is that class (MiniTorch's tests name it so), a RuntimeError
try:
    minitorch.shape_broadcast((2,), (3,))
except minitorch.IndexingError as e:
    print(type(e).__name__, isinstance(e, RuntimeError), minitorch.IndexingError.__name__)
# expect: IndexingError True IndexingError
minitorch.shape_broadcast((2, 3), (4,))
# expect-tb:   Cell line 11, column 11:
# expect-error: IndexingError: cannot broadcast shapes (2, 3) and (4,): dim -1 of one is 3, of the other 4
