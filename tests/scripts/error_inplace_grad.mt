# A value that a Function's backward reads, written in place after the Function ran, makes
# backward refuse (PyTorch: "one of the variables needed for gradient computation has been
# modified by an inplace operation") instead of giving the gradient at the new value (here
# d(x*x)/dx[0] would have been 2 * 100 = 200 instead of 2 * 1)
xa = tensor([1.0, 2.0, 3.0], requires_grad=true)
ya = xa * xa
xa[0] = 100
print(xa.grad)
# expect: None
ya.sum().backward()
# expect-error: RuntimeError: backward: one of the values needed for gradient computation has been modified in place: the first input of mul (shape (3,)) is at version 1, mul used it at version 0 (an element assignment, a map into out=, an optimizer step or a move to another backend wrote it); make that write after backward(), or write a copy
