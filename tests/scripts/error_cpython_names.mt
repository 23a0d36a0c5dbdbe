# Names CPython has and the language lacks are a NotImplementedError that names them, never
# Python's NameError or AttributeError (which would tell a student that Python has no such name):
# builtins, attributes of the built-in types (special methods with a hint), names of the modules
# the kernel carries. Names CPython lacks too keep CPython's errors. The messages are the
# kernel's own (CPython runs all of these).
import math
import random
import numpy as np


def attempt(f):
    try:
        f()
    except NotImplementedError as e:
        print("NotImplementedError:", e)
    except (AttributeError, NameError) as e:
        print(type(e).__name__ + ":", e)


attempt(lambda: (1).bit_length())
# expect: NotImplementedError: int.bit_length is not supported in the MiniTorch language
attempt(lambda: (2.5).is_integer())
# expect: NotImplementedError: float.is_integer is not supported in the MiniTorch language
attempt(lambda: True.conjugate())
# expect: NotImplementedError: bool.conjugate is not supported in the MiniTorch language
attempt(lambda: [1].__len__())
# expect: NotImplementedError: list.__len__ is not supported in the MiniTorch language: use the operator or builtin that calls it (len(x), x[i], x + y, str(x), ...)
attempt(lambda: (1, 2).__getitem__(0))
# expect: NotImplementedError: tuple.__getitem__ is not supported in the MiniTorch language: use the operator or builtin that calls it (len(x), x[i], x + y, str(x), ...)
attempt(lambda: {"a": 1}.__contains__("a"))
# expect: NotImplementedError: dict.__contains__ is not supported in the MiniTorch language: use the operator or builtin that calls it (len(x), x[i], x + y, str(x), ...)
attempt(lambda: {1}.__len__())
# expect: NotImplementedError: set.__len__ is not supported in the MiniTorch language: use the operator or builtin that calls it (len(x), x[i], x + y, str(x), ...)
attempt(lambda: hex(255))
# expect: NotImplementedError: the Python builtin 'hex' is not supported in the MiniTorch language
attempt(lambda: open("data.txt"))
# expect: NotImplementedError: the Python builtin 'open' is not supported in the MiniTorch language
attempt(lambda: math.prod([1, 2]))
# expect: NotImplementedError: math.prod is not supported in the MiniTorch language
attempt(lambda: random.gauss(0.0, 1.0))
# expect: NotImplementedError: random.gauss is not supported in the MiniTorch language
attempt(lambda: np.linspace(0.0, 1.0, 5))
# expect: NotImplementedError: numpy.linspace is not supported in the MiniTorch language

# what CPython lacks too keeps CPython's error
attempt(lambda: (1).nope)
# expect: AttributeError: 'int' object has no attribute 'nope'
attempt(lambda: (1, 2).append(3))
# expect: AttributeError: 'tuple' object has no attribute 'append'
attempt(lambda: np.nope)
# expect: AttributeError: module 'numpy' has no attribute 'nope'
attempt(lambda: not_a_name_anywhere)
# expect: NameError: name 'not_a_name_anywhere' is not defined

# hasattr cannot answer CPython's True for such a name: it raises, as for str's
attempt(lambda: print(hasattr(1, "bit_length")))
# expect: NotImplementedError: int.bit_length is not supported in the MiniTorch language
print(hasattr(1, "nope"))
# expect: False

# uncaught: located at the name
y = 1 + eval("2")
# expect-error: NotImplementedError: the Python builtin 'eval' is not supported in the MiniTorch language
# expect-tb:     y = 1 + eval("2")
# expect-tb:             ^
