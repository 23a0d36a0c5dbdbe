# numpy.ndarray as MiniTorch's tensor_data.py, tensor_ops.py and tensor.py use it: isinstance,
# the dtypes and their casts on store, shape, size, ndim, reshape (n-d), tolist, copy, [:] = x,
# iteration, tuple(), enumerate, and numpy's printing (padding, wrapping, summaries). numpy's
# scalars (np.int32(1)) print as Python's numbers here, so elements are shown through str or int.
# Expectations are what CPython with numpy 2 prints for the same program.
import numpy as np
from numpy import array, float64
a = np.array([1, 2], dtype=np.int32)
print(a.shape, a.shape[0], len(a), a.size, a.ndim, a.dtype)
print(isinstance(a, np.ndarray), isinstance(a, list), type(a).__name__, type(a))
print(repr(a), a, a.tolist(), str(a[0]), tuple(int(x) for x in a))
# expect: (2,) 2 2 2 1 int32
# expect: True False ndarray <class 'numpy.ndarray'>
# expect: array([1, 2], dtype=int32) [1 2] [1, 2] 1 (1, 2)

s = array([0.0, 0.0], dtype=float64)
s[:] = 1.0
print(repr(s), s)
r = s.reshape((2, 1))
print(repr(r), r.shape, r.ndim, r.size)
print(r)
# expect: array([1., 1.]) [1. 1.]
# expect: array([[1.],
# expect:        [1.]]) (2, 1) 2 2
# expect: [[1.]
# expect:  [1.]]

b = np.zeros(3, np.int32)
b[0] = 2.7
b[1] = -3.9
b[2] = True
print(repr(b), [int(x) for x in b], [(i, int(x)) for i, x in enumerate(b)])
f = np.zeros(2, np.float32)
f[0] = 0.1
print(repr(f), f.dtype)
i64 = np.array([3, 4])
print(repr(i64), i64.dtype, repr(np.array([1, 2.5])), np.array((1, 2.5)).dtype)
# expect: array([ 2, -3,  1], dtype=int32) [2, -3, 1] [(0, 2), (1, -3), (2, 1)]
# expect: array([0.1, 0. ], dtype=float32) float32
# expect: array([3, 4]) int64 array([1. , 2.5]) float64

print(repr(np.zeros(40)))
print(repr(np.zeros(30, np.int32)))
print(repr(np.array([1.5, 2.0])), repr(np.array([1.0, 10.0])), repr(np.array([-1.5, 2.25, 3.0])))
print(repr(np.array([0.001, 10.0])), repr(np.array([1e10, 1.5])), repr(np.array([1e-5, 1.0])))
print(repr(np.array([float("nan"), 1.0, float("inf")])), repr(np.array([float("-inf"), 2.0])))
print(repr(np.array([], np.int32)), repr(np.array([])), repr(np.zeros((2, 0))), np.array([]))
# expect: array([0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.,
# expect:        0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0., 0.,
# expect:        0., 0., 0., 0., 0., 0.])
# expect: array([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
# expect:        0, 0, 0, 0, 0, 0, 0, 0], dtype=int32)
# expect: array([1.5, 2. ]) array([ 1., 10.]) array([-1.5 ,  2.25,  3.  ])
# expect: array([1.e-03, 1.e+01]) array([1.0e+10, 1.5e+00]) array([1.e-05, 1.e+00])
# expect: array([nan,  1., inf]) array([-inf,   2.])
# expect: array([], dtype=int32) array([], dtype=float64) array([], shape=(2, 0), dtype=float64) []

m = np.array([[0.0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]])
print(repr(m))
print(m)
print(repr(np.array(list(range(24))).reshape(2, 3, 4)))
print(repr(m.reshape(-1, 6)), repr(m.flatten()), m.reshape(2, -1).shape)
print(repr(np.array(list(range(2000)))))
print(np.array([float(i) for i in range(1100)]).reshape(100, 11))
# expect: array([[ 0.,  1.,  2.,  3.],
# expect:        [ 4.,  5.,  6.,  7.],
# expect:        [ 8.,  9., 10., 11.]])
# expect: [[ 0.  1.  2.  3.]
# expect:  [ 4.  5.  6.  7.]
# expect:  [ 8.  9. 10. 11.]]
# expect: array([[[ 0,  1,  2,  3],
# expect:         [ 4,  5,  6,  7],
# expect:         [ 8,  9, 10, 11]],
# expect:
# expect:        [[12, 13, 14, 15],
# expect:         [16, 17, 18, 19],
# expect:         [20, 21, 22, 23]]])
# expect: array([[ 0.,  1.,  2.,  3.,  4.,  5.],
# expect:        [ 6.,  7.,  8.,  9., 10., 11.]]) array([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11.]) (2, 6)
# expect: array([   0,    1,    2, ..., 1997, 1998, 1999], shape=(2000,))
# expect: [[0.000e+00 1.000e+00 2.000e+00 ... 8.000e+00 9.000e+00 1.000e+01]
# expect:  [1.100e+01 1.200e+01 1.300e+01 ... 1.900e+01 2.000e+01 2.100e+01]
# expect:  [2.200e+01 2.300e+01 2.400e+01 ... 3.000e+01 3.100e+01 3.200e+01]
# expect:  ...
# expect:  [1.067e+03 1.068e+03 1.069e+03 ... 1.075e+03 1.076e+03 1.077e+03]
# expect:  [1.078e+03 1.079e+03 1.080e+03 ... 1.086e+03 1.087e+03 1.088e+03]
# expect:  [1.089e+03 1.090e+03 1.091e+03 ... 1.097e+03 1.098e+03 1.099e+03]]

z = np.zeros((2, 3))
z[1] = 5
z[0][2] = 7
z[0][:2] = [8, 9]
print(repr(z), z.tolist(), len(z), z.size, z.shape)
c = np.array([1.5, 2.5])
d = c.copy()
d[0] = 0
d.fill(4)
print(c, d, repr(c.astype(np.int32)), c[-1], [float(x) for x in c[::-1]])
e = np.array([1, 2, 3])
e[::2] = [9, 8]
print(e)
e[1:] = e[:2]
print(e, repr(e[1:]))
print(np.prod(np.array([2, 3, 4])), np.prod((2, 3)), np.prod(np.array([1.5, 2.0])))
print(np.array_equal(np.array([1, 2]), np.array([1, 2])), np.array_equal(np.array([1, 2]), [1, 3]))
print(np.array_equal(m, m.copy()), np.array_equal(m, m.reshape(4, 3)))
print([np.array([1, 2])], (np.zeros(1),))
# expect: array([[8., 9., 7.],
# expect:        [5., 5., 5.]]) [[8.0, 9.0, 7.0], [5.0, 5.0, 5.0]] 2 6 (2, 3)
# expect: [1.5 2.5] [4. 4.] array([1, 2], dtype=int32) 2.5 [2.5, 1.5]
# expect: [9 2 8]
# expect: [9 9 2] array([9, 2])
# expect: 24 6 3.0
# expect: True False
# expect: True False
# expect: [array([1, 2])] (array([0.]),)

x = np.array([1, 2, 3])
y = np.array([1, 5, 3])
print(repr(x == y), repr(x != y), repr(x < 2), repr(x >= [1, 3, 3]), repr(2 > x))
print((x == y).all(), (x == y).any(), (x != x).any(), (x == x).all(), repr(m == m))
print(repr(np.array([True, False])), np.array([True]).dtype, repr(np.zeros(2, bool)))
print(repr(np.array([], bool)), repr(np.array([True, 2])), np.array([1.5]) == 1.5)
g = np.zeros(3, bool)
g[0] = 2.5
g[1] = 0.0
print(repr(g), repr(g.astype(np.int32)), bool(np.array([0])), bool(np.array([[2.0]])))
if (x == x).all():
    print("all equal")
# expect: array([ True, False,  True]) array([False,  True, False]) array([ True, False, False]) array([ True, False,  True]) array([ True, False, False])
# expect: False True False True array([[ True,  True,  True,  True],
# expect:        [ True,  True,  True,  True],
# expect:        [ True,  True,  True,  True]])
# expect: array([ True, False]) bool array([False, False])
# expect: array([], dtype=bool) array([1, 2]) [ True]
# expect: array([ True, False, False]) array([1, 0, 0], dtype=int32) False True
# expect: all equal

h = np.zeros((2, 3), np.int32)
h[1, 2] = 7.9
h[0, -1] = -2
h[1, 0] += 5
print(repr(h), int(h[1, 2]), int(h[-1, 0]), repr(h[1]), np.array([[1.5, 2.5]])[0, 1])
k = np.zeros((2, 2, 2))
k[1, 0] = 3.0
k[0, 1, 1] = 4.0
print(k[1, 0, 1], repr(k[1, 0]), k.tolist())

# expect: array([[ 0,  0, -2],
# expect:        [ 5,  0,  7]], dtype=int32) 7 5 array([5, 0, 7], dtype=int32) 2.5
# expect: 3.0 array([3., 3.]) [[[0.0, 0.0], [0.0, 4.0]], [[3.0, 3.0], [0.0, 0.0]]]
