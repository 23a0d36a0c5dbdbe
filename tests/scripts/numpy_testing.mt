# numpy.testing.assert_allclose of two numbers, as MiniTorch's derivative_check calls it:
# the passing cases return None, a failing one raises numpy's AssertionError with its text
# (the expectations are what numpy 2.4 under CPython 3.11 prints for this program, but the
# last, the kernel's own: arrays are not compared here).
import numpy as np


def central_difference(f, *vals, arg=0, epsilon=1e-6):
    up = [v for v in vals]
    down = [v for v in vals]
    up[arg] = up[arg] + epsilon
    down[arg] = down[arg] - epsilon
    return (f(*up) - f(*down)) / (2 * epsilon)


def square(x):
    return x * x


def derivative_check(f, derivative, *vals):
    for i in range(len(vals)):
        check = central_difference(f, *vals, arg=i)
        np.testing.assert_allclose(
            derivative, check, 1e-2, 1e-2, err_msg="f'(%s) for argument %d" % (vals, i)
        )


print(derivative_check(square, 6.0, 3.0))
# expect: None
print(np.testing.assert_allclose(1, 1))
# expect: None
print(np.testing.assert_allclose(1.0, 1.005, 1e-2, 1e-2))
# expect: None
print(np.testing.assert_allclose(float("nan"), float("nan")))
# expect: None
print(np.testing.assert_allclose(float("inf"), float("inf")))
# expect: None
print(np.testing.assert_allclose(1, 2, rtol=0.5))
# expect: None
print(np.testing.assert_allclose(0.5, 1, atol=0.6, rtol=0))
# expect: None


def show(*args, **kwargs):
    try:
        np.testing.assert_allclose(*args, **kwargs)
        print("passed")
    except AssertionError as e:
        print(repr(str(e)))


show(1.5, 1.0, 1e-2, 1e-2, err_msg="two\nlines")
# expect: '\nNot equal to tolerance rtol=0.01, atol=0.01\ntwo\nlines\nMismatched elements: 1 / 1 (100%)\nMax absolute difference among violations: 0.5\nMax relative difference among violations: 0.5\n ACTUAL: array(1.5)\n DESIRED: array(1.)'
show(2.0, 3)
# expect: '\nNot equal to tolerance rtol=1e-07, atol=0\n\nMismatched elements: 1 / 1 (100%)\nMax absolute difference among violations: 1.\nMax relative difference among violations: 0.33333333\n ACTUAL: array(2.)\n DESIRED: array(3)'
show(5, 0)
# expect: '\nNot equal to tolerance rtol=1e-07, atol=0\n\nMismatched elements: 1 / 1 (100%)\nMax absolute difference among violations: 5\nMax relative difference among violations: inf\n ACTUAL: array(5)\n DESIRED: array(0)'
show(True, 2)
# expect: '\nNot equal to tolerance rtol=1e-07, atol=0\n\nMismatched elements: 1 / 1 (100%)\nMax absolute difference among violations: 1\nMax relative difference among violations: 0.5\n ACTUAL: array(True)\n DESIRED: array(2)'
show(1 / 3, 2 / 3)
# expect: '\nNot equal to tolerance rtol=1e-07, atol=0\n\nMismatched elements: 1 / 1 (100%)\nMax absolute difference among violations: 0.33333333\nMax relative difference among violations: 0.5\n ACTUAL: array(0.333333)\n DESIRED: array(0.666667)'
show(123456.789, 1.0)
# expect: '\nNot equal to tolerance rtol=1e-07, atol=0\n\nMismatched elements: 1 / 1 (100%)\nMax absolute difference among violations: 123455.789\nMax relative difference among violations: 123455.789\n ACTUAL: array(123456.789)\n DESIRED: array(1.)'
show(1e9, 2e9)
# expect: '\nNot equal to tolerance rtol=1e-07, atol=0\n\nMismatched elements: 1 / 1 (100%)\nMax absolute difference among violations: 1.e+09\nMax relative difference among violations: 0.5\n ACTUAL: array(1.e+09)\n DESIRED: array(2.e+09)'
show(1e-6, 3e-5)
# expect: '\nNot equal to tolerance rtol=1e-07, atol=0\n\nMismatched elements: 1 / 1 (100%)\nMax absolute difference among violations: 2.9e-05\nMax relative difference among violations: 0.96666667\n ACTUAL: array(1.e-06)\n DESIRED: array(3.e-05)'
show(0.0, 1e-5)
# expect: '\nNot equal to tolerance rtol=1e-07, atol=0\n\nMismatched elements: 1 / 1 (100%)\nMax absolute difference among violations: 1.e-05\nMax relative difference among violations: 1.\n ACTUAL: array(0.)\n DESIRED: array(1.e-05)'
show(1e20, 1.5)
# expect: '\nNot equal to tolerance rtol=1e-07, atol=0\n\nMismatched elements: 1 / 1 (100%)\nMax absolute difference among violations: 1.e+20\nMax relative difference among violations: 6.66666667e+19\n ACTUAL: array(1.e+20)\n DESIRED: array(1.5)'
show(-2.5, 1.0)
# expect: '\nNot equal to tolerance rtol=1e-07, atol=0\n\nMismatched elements: 1 / 1 (100%)\nMax absolute difference among violations: 3.5\nMax relative difference among violations: 3.5\n ACTUAL: array(-2.5)\n DESIRED: array(1.)'
show(1.0, 1.0000001, 0)
# expect: '\nNot equal to tolerance rtol=0, atol=0\n\nMismatched elements: 1 / 1 (100%)\nMax absolute difference among violations: 1.e-07\nMax relative difference among violations: 9.99999901e-08\n ACTUAL: array(1.)\n DESIRED: array(1.)'
show(1, 2, err_msg=5)
# expect: '\nNot equal to tolerance rtol=1e-07, atol=0\n5\nMismatched elements: 1 / 1 (100%)\nMax absolute difference among violations: 1\nMax relative difference among violations: 0.5\n ACTUAL: array(1)\n DESIRED: array(2)'
show(1, 2, verbose=False)
# expect: '\nNot equal to tolerance rtol=1e-07, atol=0\n\nMismatched elements: 1 / 1 (100%)\nMax absolute difference among violations: 1\nMax relative difference among violations: 0.5'
show(float("nan"), 2.0)
# expect: '\nNot equal to tolerance rtol=1e-07, atol=0\n\nnan location mismatch:\n ACTUAL: array(nan)\n DESIRED: array(2.)'
show(float("nan"), float("nan"), equal_nan=False)
# expect: '\nNot equal to tolerance rtol=1e-07, atol=0\n\nMismatched elements: 1 / 1 (100%)\nMax absolute difference among violations: nan\nMax relative difference among violations: nan\n ACTUAL: array(nan)\n DESIRED: array(nan)'
show(float("inf"), 1.0)
# expect: '\nNot equal to tolerance rtol=1e-07, atol=0\n\ninf location mismatch:\n ACTUAL: array(inf)\n DESIRED: array(1.)'
show(float("inf"), float("-inf"))
# expect: '\nNot equal to tolerance rtol=1e-07, atol=0\n\ninf values mismatch:\n ACTUAL: array(inf)\n DESIRED: array(-inf)'
from numpy import testing
print(testing.assert_allclose(2.0, 2.0))
# expect: None
try:
    derivative_check(square, 7.0, 3.0)
except AssertionError as e:
    print(str(e).splitlines()[2])
# expect: f'((3.0,)) for argument 0

# arrays: lists and tuples of numbers, nested, one number against each of the other's; the
# message's first four lines are numpy's (numpy 2.4 then lists the mismatched indices, which the
# kernel does not, and its printout of the arrays may differ in spacing)
cases = [([1.0, 2.0, 4.0], [1.0, 2.0, 3.0]), ([1, 2], (1, 2)), ([[1.0, 2.5]], [[1.0, 2.0]]),
         (3.0, [3.0, 3.0]), ([1.0, float("nan")], [1.0, 2.0]), ([0.5, 7.0, 9.0], 7.0),
         ([float("inf"), 1.0], [float("inf"), 1.0]),
         ([float("nan")], [float("nan")])]
for a, b in cases:
    try:
        np.testing.assert_allclose(a, b, 1e-2, 1e-2, err_msg="check")
        print("ok")
    except AssertionError as e:
        print(str(e).split("\n")[:4])
# expect: ['', 'Not equal to tolerance rtol=0.01, atol=0.01', 'check', 'Mismatched elements: 1 / 3 (33.3%)']
# expect: ok
# expect: ['', 'Not equal to tolerance rtol=0.01, atol=0.01', 'check', 'Mismatched elements: 1 / 2 (50%)']
# expect: ok
# expect: ['', 'Not equal to tolerance rtol=0.01, atol=0.01', 'check', 'nan location mismatch:']
# expect: ['', 'Not equal to tolerance rtol=0.01, atol=0.01', 'check', 'Mismatched elements: 2 / 3 (66.7%)']
# expect: ok
# expect: ok
# a tensor is an array of its numbers (no numpy here to compare with: the kernel's own)
import minitorch
np.testing.assert_allclose(minitorch.tensor([[1.0, 2.0]]), [[1.0, 2.0]])
try:
    np.testing.assert_allclose(minitorch.tensor([1.0, 2.0]), [1.0, 3.0], err_msg="t")
except AssertionError as e:
    print(str(e).split("\n")[:4])
# expect: ['', 'Not equal to tolerance rtol=1e-07, atol=0', 't', 'Mismatched elements: 1 / 2 (50%)']
