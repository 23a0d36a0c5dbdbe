# math's functions in compiled code (njit, and a prange loop): each row of the compiler's table
# of builtins gives the interpreter's value, bit for bit, and its errors (math domain error,
# math range error) with the interpreter's words.
import math
from numba import njit, prange

def every(x):
    return (math.exp(x) + math.expm1(x) + math.log(x + 2.0) + math.log1p(x + 0.5) +
            math.log2(x + 3.0) + math.log10(x + 4.0) + math.sqrt(x + 1.0) + math.fabs(x - 3.0) +
            math.tanh(x) + math.sin(x) + math.cos(x) + math.tan(x) + math.atan(x))

compiled = njit(every)
xs = [0.0, 0.5, -0.25, 1.25, 3.0, 7.5]
print([compiled(x) == every(x) for x in xs])
# expect: [True, True, True, True, True, True]
# compiled, not run by the interpreter (where the two would agree whatever the table said)
parallel_diagnostics(compiled)
# expect: every(float): compiled to native code
# expect:   serial: no prange loop in the function called
# expect-re:   machine code.*
# expect-re:   last call: .*
# expect-re:   integers: 64 bits.*

# the module under another name, in a prange loop over a Storage
import math as m

@njit(parallel=True)
def softplus(out, a):
    for i in prange(len(out)):
        out[i] = m.log1p(m.exp(a[i]))

t = tensor([-2.0, 0.0, 0.5, 3.0])
o = zeros(4)
softplus(o._tensor._storage, t._tensor._storage)
print([round(v, 5) for v in o.tolist()])
# expect: [0.12693, 0.69315, 0.97408, 3.04859]

# the interpreter's errors, with its words
@njit
def log_of(x):
    return math.log(x)

@njit
def exp_of(x):
    return math.exp(x)

@njit
def sqrt_of(x):
    return math.sqrt(x)

for fn, x in [(log_of, 0.0), (log_of, -1.0), (sqrt_of, -1.0), (exp_of, 1000.0)]:
    try:
        fn(x)
    except ValueError as e:
        print("ValueError:", e)
    except OverflowError as e:
        print("OverflowError:", e)
# expect: ValueError: math domain error
# expect: ValueError: math domain error
# expect: ValueError: math domain error
# expect: OverflowError: math range error
# an infinity or a NaN given is no error, as in Python
print(exp_of(float("inf")), log_of(float("nan")), sqrt_of(float("inf")))
# expect: inf nan inf
