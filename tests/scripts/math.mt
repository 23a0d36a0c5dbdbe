# math: the functions MiniTorch's code uses, with CPython's values (worked out by python3)
# and errors; a module shows as <module 'NAME'>.
import math
# expect: <module 'math'>
print(math)
# expect: 3.141592653589793 2.718281828459045 6.283185307179586
print(math.pi, math.e, math.tau)
# expect: inf -inf nan
print(math.inf, -math.inf, math.nan)
# expect: 0.0 1.0 3.0 2.0 -0.6931471805599453
print(math.log(1), math.log(math.e), math.log(8, 2), math.log(100, 10), math.log(0.5))
# expect: 1.0 2.718281828459045 0.0 0.0
print(math.exp(0), math.exp(1), math.exp(-745.2), math.exp(-1000))
# expect: 1.4142135623730951 0.0 3.0 2.5
print(math.sqrt(2), math.sqrt(0), math.fabs(-3), math.fabs(2.5))
# expect: 2 -3 3 -2 7
print(math.floor(2.7), math.floor(-2.5), math.ceil(2.1), math.ceil(-2.9), math.floor(7))
# expect: 2 2
print(repr(math.floor(2.5)), repr(math.ceil(1.5)))
# expect: True False True
print(math.isclose(1.0, 1.0 + 1e-10), math.isclose(1.0, 1.001), math.isclose(1.0, 1.001, rel_tol=1e-2))
# expect: False True
print(math.isclose(0.0, 1e-12), math.isclose(0.0, 1e-12, abs_tol=1e-9))
# expect: True False True False True
print(math.isnan(math.nan), math.isnan(1.0), math.isinf(math.inf), math.isinf(1e308), math.isfinite(2))
# expect: 0.46211715726000974 0.8414709848078965 0.5403023058681398 0.5463024898437905 0.7853981633974483
print(math.tanh(0.5), math.sin(1), math.cos(1), math.tan(0.5), math.atan(1))
# expect: 1024.0 1.4142135623730951 -512.0 1.0
print(math.pow(2, 10), math.pow(2, 0.5), math.pow(-8, 3), math.pow(0, 0))
# expect: 9.999999999500001e-11 10.0 3.0 1.00000000005e-10
print(math.log1p(1e-10), math.log2(1024), math.log10(1000), math.expm1(1e-10))
def safe_log(x):
    return math.log(x) if x > 0 else -math.inf
# expect: -inf 0.6931471805599453
print(safe_log(0), safe_log(2.0))
# expect: 0.0 1.0
print(math.log(True), math.exp(False))

