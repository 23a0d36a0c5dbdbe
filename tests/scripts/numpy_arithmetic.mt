# numpy.ndarray's elementwise arithmetic against numpy 2 (the expectations are CPython's output
# with numpy for the same program): + - * / // % ** and unary - + ~ with arrays of one shape, a
# number on either side, lists, broadcasting (a row against a 2-d array, a column, shapes of 1);
# numpy 2's result dtypes for int32, int64, float32, float64 and bool (a Python number takes the
# array's dtype where it can); integer wrap and division by zero (inf, nan, 0; numpy also warns
# on standard error, which the kernel does not); in-place operators writing into the array;
# a[:, j], a[i, :] and other slices among an array's indices (copies here, views in numpy).
import numpy as np
def t(f):
    try:
        r = f()
        print(repr(r))
    except Exception as e:
        print(type(e).__name__ + ":", e)
i64 = np.array([1, 2, 3])
i32 = np.array([1, -2, 3], np.int32)
f64 = np.array([0.5, -1.5, 2.0])
f32 = np.array([0.5, -1.5, 2.0], np.float32)
bb = np.array([True, False, True])

t(lambda: i64 + i64)
t(lambda: i64 - f64)
t(lambda: i64 * 2)
t(lambda: 2 * i64)
t(lambda: 10 - i64)
t(lambda: i64 / i64)
t(lambda: i64 / 2)
t(lambda: 7 // i64)
t(lambda: -7 % i64)
t(lambda: i64 ** 2)
t(lambda: 2 ** i64)
t(lambda: i64 ** 0.5)
t(lambda: -i64)
t(lambda: +f64)
t(lambda: ~i64)
t(lambda: i64 + [10, 20, 30])
t(lambda: [10, 20, 30] - i64)
# expect: array([2, 4, 6])
# expect: array([0.5, 3.5, 1. ])
# expect: array([2, 4, 6])
# expect: array([2, 4, 6])
# expect: array([9, 8, 7])
# expect: array([1., 1., 1.])
# expect: array([0.5, 1. , 1.5])
# expect: array([7, 3, 2])
# expect: array([0, 1, 2])
# expect: array([1, 4, 9])
# expect: array([2, 4, 8])
# expect: array([1.        , 1.41421356, 1.73205081])
# expect: array([-1, -2, -3])
# expect: array([ 0.5, -1.5,  2. ])
# expect: array([-2, -3, -4])
# expect: array([11, 22, 33])
# expect: array([ 9, 18, 27])

t(lambda: i32 + 1)
t(lambda: i32 + i32)
t(lambda: i32 + i64)
t(lambda: i32 * 1.5)
t(lambda: i32 / i32)
t(lambda: i32 // 2)
t(lambda: i32 % 2)
t(lambda: i32 + True)
t(lambda: i32 + f32)
t(lambda: f32 + 0.1)
t(lambda: f32 * 3)
t(lambda: f32 / 3)
t(lambda: f32 + f64)
print((f32 ** 0.5).dtype)
t(lambda: f32 // 0.3)
t(lambda: f32 % 0.3)
t(lambda: np.array([1e-5, 3e10], np.float32) * 3)
t(lambda: bb + bb)
t(lambda: bb * bb)
t(lambda: bb + 1)
t(lambda: bb * 2.5)
t(lambda: bb / bb)
t(lambda: ~bb)
print((i64 + 0.0).dtype)
print((i32 - i32).dtype)
# expect: array([ 2, -1,  4], dtype=int32)
# expect: array([ 2, -4,  6], dtype=int32)
# expect: array([2, 0, 6])
# expect: array([ 1.5, -3. ,  4.5])
# expect: array([1., 1., 1.])
# expect: array([ 0, -1,  1], dtype=int32)
# expect: array([1, 0, 1], dtype=int32)
# expect: array([ 2, -1,  4], dtype=int32)
# expect: array([ 1.5, -3.5,  5. ])
# expect: array([ 0.6, -1.4,  2.1], dtype=float32)
# expect: array([ 1.5, -4.5,  6. ], dtype=float32)
# expect: array([ 0.16666667, -0.5       ,  0.6666667 ], dtype=float32)
# expect: array([ 1., -3.,  4.])
# expect: float32
# expect: array([ 1., -5.,  6.], dtype=float32)
# expect: array([1.9999999e-01, 5.9604645e-08, 1.9999993e-01], dtype=float32)
# expect: array([3.e-05, 9.e+10], dtype=float32)
# expect: array([ True, False,  True])
# expect: array([ True, False,  True])
# expect: array([2, 1, 2])
# expect: array([2.5, 0. , 2.5])
# expect: array([ 1., nan,  1.])
# expect: array([False,  True, False])
# expect: float64
# expect: int32

t(lambda: np.array([2147483647], np.int32) + 1)
t(lambda: np.array([9223372036854775807]) + 1)
t(lambda: -np.array([-9223372036854775807 - 1]))
t(lambda: np.array([-9223372036854775807 - 1]) // -1)
t(lambda: np.array([3], np.int32) ** 40)
t(lambda: np.array([7, -7, 0]) // 0)
t(lambda: np.array([7, -7, 0]) % 0)
t(lambda: np.array([1.0, -1.0, 0.0]) / 0)
t(lambda: np.array([1.0, -1.0, 0.0]) // 0.0)
t(lambda: np.array([1.0, -1.0, 0.0]) % 0.0)
t(lambda: np.array([5.5, -5.5, 5.5, -5.5]) % np.array([2.0, 2.0, -2.0, -2.0]))
t(lambda: np.array([5.5, -5.5, 5.5, -5.5]) // np.array([2.0, 2.0, -2.0, -2.0]))
t(lambda: np.array([1.0, -1.0]) % float("inf"))
t(lambda: np.array([1.0, -1.0]) // float("inf"))
t(lambda: np.array([-7, 7, -7]) % np.array([3, -3, -3]))
t(lambda: np.array([-7, 7, -7]) // np.array([3, -3, -3]))
t(lambda: np.array([0.0, 2.0]) ** -1)
# expect: array([-2147483648], dtype=int32)
# expect: array([-9223372036854775808])
# expect: array([-9223372036854775808])
# expect: array([-9223372036854775808])
# expect: array([689956897], dtype=int32)
# expect: array([0, 0, 0])
# expect: array([0, 0, 0])
# expect: array([ inf, -inf,  nan])
# expect: array([ inf, -inf,  nan])
# expect: array([nan, nan, nan])
# expect: array([ 1.5,  0.5, -0.5, -1.5])
# expect: array([ 2., -3., -3.,  2.])
# expect: array([ 1., inf])
# expect: array([ 0., -1.])
# expect: array([ 2, -2, -1])
# expect: array([-3, -3,  2])
# expect: array([inf, 0.5])

m = np.array([[1, 2, 3], [4, 5, 6]])
row = np.array([10, 20, 30])
col = np.array([[100], [200]])
t(lambda: m + row)
t(lambda: row - m)
t(lambda: m * col)
t(lambda: col + row)
t(lambda: m / np.array([[2.0, 4.0, 8.0]]))
t(lambda: m + [1, 2, 3])
t(lambda: m > row / 10)
t(lambda: np.zeros((2, 2)) < np.zeros(2))
t(lambda: np.zeros((2, 3, 2)) + np.array([1.0, 2.0]))
t(lambda: (m + m).shape)
t(lambda: np.array([]) + 1)
t(lambda: np.array([]) + np.array([]))
# expect: array([[11, 22, 33],
# expect:        [14, 25, 36]])
# expect: array([[ 9, 18, 27],
# expect:        [ 6, 15, 24]])
# expect: array([[ 100,  200,  300],
# expect:        [ 800, 1000, 1200]])
# expect: array([[110, 120, 130],
# expect:        [210, 220, 230]])
# expect: array([[0.5  , 0.5  , 0.375],
# expect:        [2.   , 1.25 , 0.75 ]])
# expect: array([[2, 4, 6],
# expect:        [5, 7, 9]])
# expect: array([[False, False, False],
# expect:        [ True,  True,  True]])
# expect: array([[False, False],
# expect:        [False, False]])
# expect: array([[[1., 2.],
# expect:         [1., 2.],
# expect:         [1., 2.]],
# expect:
# expect:        [[1., 2.],
# expect:         [1., 2.],
# expect:         [1., 2.]]])
# expect: (2, 3)
# expect: array([], dtype=float64)
# expect: array([], dtype=float64)

x = np.array([1, 2, 3])
y = x
x += 1
print(x, y, x is y)
x *= np.array([2, 3, 4])
print(y)
z = np.array([[1.0, 2.0], [3.0, 4.0]])
z /= np.array([2.0, 4.0])
print(z)
z[0] -= 1
print(z)
w = np.array([1, 2], np.int32)
w += 10
w **= 2
print(w, w.dtype)
f = np.array([0.5], np.float32)
f += 0.1
print(f, f.dtype)
# expect: [2 3 4] [2 3 4] True
# expect: [ 4  9 16]
# expect: [[0.5 0.5]
# expect:  [1.5 1. ]]
# expect: [[-0.5 -0.5]
# expect:  [ 1.5  1. ]]
# expect: [121 144] int32
# expect: [0.6] float32

print(m[:, 1])
print(m[1, :])
print(m[0, 1:])
print(m[:, ::-1])
print(m[-1, ::2])
print(m[:, -1].dtype, m[:, 0].shape)
cube = np.array([[[1, 2], [3, 4]], [[5, 6], [7, 8]]])
print(cube[:, 1])
print(cube[1, :, 0])
print(cube[:, :, 1])
print(cube[0, 1:, :])
print(m[:, 1] * m[:, 2])
# expect: [2 5]
# expect: [4 5 6]
# expect: [2 3]
# expect: [[3 2 1]
# expect:  [6 5 4]]
# expect: [4 6]
# expect: int64 (2,)
# expect: [[3 4]
# expect:  [7 8]]
# expect: [5 7]
# expect: [[2 4]
# expect:  [6 8]]
# expect: [[3 4]]
# expect: [ 6 30]

# numpy's errors, as numpy words them
t(lambda: np.zeros(2) + np.zeros(3))
t(lambda: m + np.array([1, 2]))
t(lambda: m * np.zeros((3, 1)))
t(lambda: i64 + [1, 2])
t(lambda: i32 + 3000000000)
t(lambda: i64 ** -1)
t(lambda: 2 ** np.array([3, -1]))
t(lambda: bb - bb)
t(lambda: -bb)
t(lambda: ~f64)
t(lambda: m[:, 3])
t(lambda: m[2, :])
t(lambda: m[:, :, 0])
t(lambda: m[:, 1.5])
t(lambda: m[:, "a":])
# expect: ValueError: operands could not be broadcast together with shapes (2,) (3,) 
# expect: ValueError: operands could not be broadcast together with shapes (2,3) (2,) 
# expect: ValueError: operands could not be broadcast together with shapes (2,3) (3,1) 
# expect: ValueError: operands could not be broadcast together with shapes (3,) (2,) 
# expect: OverflowError: Python integer 3000000000 out of bounds for int32
# expect: ValueError: Integers to negative integer powers are not allowed.
# expect: ValueError: Integers to negative integer powers are not allowed.
# expect: TypeError: numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, or the logical_xor function instead.
# expect: TypeError: The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or the logical_not function instead.
# expect: TypeError: ufunc 'invert' not supported for the input types, and the inputs could not be safely coerced to any supported types according to the casting rule ''safe''
# expect: IndexError: index 3 is out of bounds for axis 1 with size 3
# expect: IndexError: index 2 is out of bounds for axis 0 with size 2
# expect: IndexError: too many indices for array: array is 2-dimensional, but 3 were indexed
# expect: IndexError: only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid indices
# expect: TypeError: slice indices must be integers or None or have an __index__ method

def iadd(a, b):
    a += b
    return a
def idiv(a, b):
    a /= b
    return a
def t_type(f):  # numpy's UFuncTypeError is a TypeError; the kernel raises TypeError itself
    try:
        f()
    except TypeError as e:
        print("TypeError:", e)
t_type(lambda: iadd(np.array([1, 2]), 1.5))
t_type(lambda: idiv(np.array([1, 2]), 2))
t_type(lambda: iadd(np.array([True]), 1))
t(lambda: iadd(np.zeros(3), np.zeros((2, 3))))
# expect: TypeError: Cannot cast ufunc 'add' output from dtype('float64') to dtype('int64') with casting rule 'same_kind'
# expect: TypeError: Cannot cast ufunc 'divide' output from dtype('float64') to dtype('int64') with casting rule 'same_kind'
# expect: TypeError: Cannot cast ufunc 'add' output from dtype('int64') to dtype('bool') with casting rule 'same_kind'
# expect: ValueError: non-broadcastable output operand with shape (3,) doesn't match the broadcast shape (2,3)
