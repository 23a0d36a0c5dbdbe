# math's errors are CPython's: log(0) is outside the domain
import math
print(math.log(1))
# expect: 0.0
math.log(0)
# expect-tb:   Cell line 5, column 6:
# expect-error: ValueError: math domain error
