# MiniTorch's tensor_data functions (Task 2.1) as the kernel provides them: to_index and
# broadcast_index write into an out_index list; expected values from a python3
# re-implementation of the course's semantics.
import minitorch
from minitorch import to_index, broadcast_index, shape_broadcast, strides_from_shape, index_to_position
# expect: 32
print(minitorch.MAX_DIMS)
# expect: (12, 4, 1) (1,) (1, 1) ()
print(strides_from_shape((2, 3, 4)), strides_from_shape((5,)), strides_from_shape([3, 1]), strides_from_shape(()))
# expect: 5 17 0
print(index_to_position((1, 2), (3, 1)), index_to_position([1, 1, 1], (12, 4, 1)), index_to_position((), ()))
# expect: (5, 5) (5, 5) (1, 5, 5)
print(shape_broadcast((1,), (5, 5)), shape_broadcast((5, 5), (1,)), shape_broadcast((1, 5, 5), (5, 5)))
# expect: (5, 5, 5, 5) (2, 3) (4,)
print(shape_broadcast((5, 1, 5, 1), (1, 5, 1, 5)), shape_broadcast((2, 1), (3,)), shape_broadcast((), (4,)))
out = [0, 0, 0]
to_index(0, (2, 3, 4), out)
# expect: [0, 0, 0]
print(out)
to_index(23, (2, 3, 4), out)
# expect: [1, 2, 3]
print(out)
to_index(13, (2, 3, 4), out)
# expect: [1, 0, 1]
print(out)
shape = (3, 2)
strides = strides_from_shape(shape)
seen = []
ix = [0, 0]
for ordinal in range(6):
    to_index(ordinal, shape, ix)
    seen.append(index_to_position(ix, strides))
# expect: [0, 1, 2, 3, 4, 5]
print(seen)
small = [0, 0]
broadcast_index([1, 2, 3], (2, 3, 4), (3, 1), small)
# expect: [2, 0]
print(small)
broadcast_index([1, 2, 3], (2, 3, 4), (1, 4), small)
# expect: [0, 3]
print(small)
one = [9]
broadcast_index((1, 2), (2, 3), (1,), one)
# expect: [0]
print(one)
# expect: None
print(to_index(1, (2,), [0]))
def f(x):
    return x * x
def g(x, y):
    return x * y + y
# expect: 6.0 3.0
print(round(minitorch.central_difference(f, 3.0), 4), round(minitorch.central_difference(g, 2.0, 5.0, arg=1), 4))
# expect: 2.0
print(round(minitorch.central_difference(f, 1.0, epsilon=1e-3), 6))
# expect: 0.5
print(round(minitorch.central_difference(minitorch.operators.log, 2.0), 5))

