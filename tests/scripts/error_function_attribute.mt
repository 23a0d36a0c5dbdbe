# A function's attribute it does not have: CPython's AttributeError, located at the name.
def f(x):
    return x
f.scale = 2
print(f(3) * f.scale)
# expect: 6
print(f.shift)
# expect-error: AttributeError: 'function' object has no attribute 'shift'
# expect-tb:   Cell line 7, column 9:
# expect-tb:     print(f.shift)
