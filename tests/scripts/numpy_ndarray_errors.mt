# numpy.ndarray's errors, as numpy words them: casts on store (int32's range, NaN, infinity,
# None, a sequence), indices out of bounds or not ints, reshape to a wrong size, negative
# shapes, uneven nesting, list methods an array lacks. Expectations are CPython's with numpy 2.
import numpy as np
def t(f):
    try:
        r = f()
        print(repr(r) if not isinstance(r, tuple) else r)
    except Exception as e:
        print(type(e).__name__ + ":", e)
def st(arr, i, v):
    arr[i] = v
    return arr
a = np.zeros(3, np.int32)
b = np.zeros(3)

t(lambda: st(a, 0, 3000000000))
t(lambda: st(a, 0, -2147483648))
t(lambda: st(a, 1, 1e20))
t(lambda: st(a, 0, float("nan")))
t(lambda: st(a, 0, float("inf")))
t(lambda: st(a, 0, None))
t(lambda: st(a, 0, [1, 2]))
t(lambda: st(b, 0, [1, 2]))
t(lambda: st(b, 0, None))
# expect: OverflowError: Python integer 3000000000 out of bounds for int32
# expect: array([-2147483648,           0,           0], dtype=int32)
# expect: OverflowError: Python int too large to convert to C long
# expect: ValueError: cannot convert float NaN to integer
# expect: OverflowError: cannot convert float infinity to integer
# expect: TypeError: int() argument must be a string, a bytes-like object or a real number, not 'NoneType'
# expect: TypeError: int() argument must be a string, a bytes-like object or a real number, not 'list'
# expect: ValueError: setting an array element with a sequence.
# expect: array([nan,  0.,  0.])

t(lambda: st(a, 5, 1))
t(lambda: st(a, -4, 1))
t(lambda: a[3])
t(lambda: int(a[-3]))
t(lambda: b[1.0])
t(lambda: st(b, "x", 1))
t(lambda: a.append(1))
t(lambda: a.shap)
# expect: IndexError: index 5 is out of bounds for axis 0 with size 3
# expect: IndexError: index -4 is out of bounds for axis 0 with size 3
# expect: IndexError: index 3 is out of bounds for axis 0 with size 3
# expect: -2147483648
# expect: IndexError: only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid indices
# expect: IndexError: only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid indices
# expect: AttributeError: 'numpy.ndarray' object has no attribute 'append'
# expect: AttributeError: 'numpy.ndarray' object has no attribute 'shap'

t(lambda: a.reshape((4,)))
t(lambda: a.reshape(2, 2))
t(lambda: a.reshape(-1, -1))
t(lambda: a.reshape(3, -1).shape)
t(lambda: a.reshape(2, -1))
t(lambda: np.zeros(-1))
t(lambda: np.zeros((2, -3)))
t(lambda: np.array([[1, 2], [3]]))
t(lambda: np.array([1, [2, 3]]))
t(lambda: st(np.zeros((2, 2)), 0, [1, 2, 3]))
t(lambda: hash(a))
# expect: ValueError: cannot reshape array of size 3 into shape (4,)
# expect: ValueError: cannot reshape array of size 3 into shape (2,2)
# expect: ValueError: can only specify one unknown dimension
# expect: (3, 1)
# expect: ValueError: cannot reshape array of size 3 into shape (2,newaxis)
# expect: ValueError: negative dimensions are not allowed
# expect: ValueError: negative dimensions are not allowed
# expect: ValueError: setting an array element with a sequence. The requested array has an inhomogeneous shape after 1 dimensions. The detected shape was (2,) + inhomogeneous part.
# expect: ValueError: setting an array element with a sequence. The requested array has an inhomogeneous shape after 1 dimensions. The detected shape was (2,) + inhomogeneous part.
# expect: ValueError: could not broadcast input array from shape (3,) into shape (2,)
# expect: TypeError: unhashable type: 'numpy.ndarray'

t(lambda: bool(np.array([1, 2]) == np.array([1, 2])))
t(lambda: bool(np.array([])))
t(lambda: np.array([1, 2, 3]) == np.array([1, 2]))
# expect: ValueError: The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()
# expect: ValueError: The truth value of an empty array is ambiguous. Use `array.size > 0` to check that an array is not empty.
# expect: ValueError: operands could not be broadcast together with shapes (3,) (2,) 

t(lambda: np.zeros((2, 3))[1, 3])
t(lambda: np.zeros((2, 3))[2, 0])
t(lambda: np.zeros(3)[0, 0])
t(lambda: np.zeros((2, 3))[0, 1.5])

# expect: IndexError: index 3 is out of bounds for axis 1 with size 3
# expect: IndexError: index 2 is out of bounds for axis 0 with size 2
# expect: IndexError: too many indices for array: array is 1-dimensional, but 2 were indexed
# expect: IndexError: only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid indices

# %%
# What numpy computes and the kernel refuses, with its own NotImplementedError (these lines are
# the kernel's, not numpy's): bitwise operators and @ on arrays, ordering arrays (sorted), `//` of
# two bool arrays (numpy's int8), storing into a[:, j], 0-d arrays, strings stored into an array,
# an empty array with its zero before the last dimension.
t(lambda: np.array([1, 2]) & np.array([3, 4]))
# expect: NotImplementedError: '&' of 'numpy.ndarray' and 'numpy.ndarray': numpy arrays take + - * / // % ** and comparisons here, not numpy's bitwise operators or @
t(lambda: sorted([a, b]))
# expect: NotImplementedError: '<' of 'numpy.ndarray' and 'numpy.ndarray' inside lists: arrays are ordered elementwise, compare them as a < b, not within lists or sorted()
t(lambda: np.array([True]) // np.array([True]))
# expect: NotImplementedError: '//' of two bool arrays makes numpy's int8, which arrays here do not have: convert one with astype(int) first
t(lambda: b + "1")
# expect: NotImplementedError: numpy arrays are computed with numbers, lists or arrays here, not str
def st2(arr, v):
    arr[:, 0] = v
t(lambda: st2(np.zeros((2, 2)), 1))
# expect: NotImplementedError: storing into a[:, j] is not supported here (reading it is): store element by element, a[i, j] = x
t(lambda: np.array(3.0))
# expect: NotImplementedError: numpy.array makes arrays of lists, tuples or arrays of numbers here (0-d arrays, of one float, are not supported)
t(lambda: st(b, 0, "1.5"))
# expect: NotImplementedError: numpy arrays hold numbers here: convert the string with float() first
t(lambda: np.zeros((0, 2)))
# expect: NotImplementedError: an empty array has its zero in the last dimension here (shape (2, 0), not (0, 2)): an n-d array is rows of rows
t(lambda: np.zeros((1 << 20, 1 << 20)))
# expect-re: MemoryError: .*
