# errors of the tensor library are caught like the interpreter's: ShapeError is MiniTorch's
# IndexingError and a RuntimeError, and the exception carries the library's message
try:
    zeros(2, 3) + zeros(4)
except RuntimeError as e:
    print(e)
    print(len(e.args), e.args[0] == str(e))
# expect: shapes (2, 3) and (4,) cannot be broadcast: dim -1 is 3 in one and 4 in the other (sizes must be equal or 1)
# expect: 1 True
try:
    zeros(2, 3)[5, 0]
except LookupError as e:
    print("IndexError:", e)
# expect: IndexError: index 5 is out of bounds for dim 0 with size 2
try:
    zeros(2).view(3)
except IndexingError as e:
    print(repr(e))
# expect: ShapeError('cannot view a tensor of shape (2,) (2 elements) as (3,)')
# the tensors of the session are as they were
x = ones(2)
try:
    x + zeros(3)
except ShapeError:
    x = x * 2
print(x.tolist())
# expect: [2.0, 2.0]
