# Arrays whose shapes do not broadcast: numpy's ValueError, located at the operator.
import numpy as np
a = np.zeros((2, 3))
print((a + np.array([1.0, 2.0, 3.0])).shape)
# expect: (2, 3)
b = a * 2 - np.zeros(2)
# expect-error: ValueError: operands could not be broadcast together with shapes (2,3) (2,) 
# expect-tb:   Cell line 6, column 11:
# expect-tb:               ^
