# A compiled function that writes a tensor's storage through another name for its argument
# writes it in place, as a store through the argument's own name does: backward then refuses
# rather than give d(x*x)/dx at the new values
import minitorch
from numba import njit


@njit
def overwrite(x, n):
    z = x
    for i in range(n):
        z[i] = 100.0


xa = minitorch.tensor([1.0, 2.0, 3.0], requires_grad=True)
ya = xa * xa
overwrite(xa._tensor._storage, 3)
print(xa)
# expect: tensor([100., 100., 100.], shape=(3,), backend=fast, requires_grad=True)
ya.sum().backward()
# expect-error: RuntimeError: backward: one of the values needed for gradient computation has been modified in place: the first input of mul (shape (3,)) is at version 1, mul used it at version 0 (an element assignment, a map into out=, an optimizer step or a move to another backend wrote it); make that write after backward(), or write a copy
