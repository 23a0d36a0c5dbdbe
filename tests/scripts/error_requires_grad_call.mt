# MiniTorch's t.requires_grad() is a method, and requires_grad_(flag) sets it; assigning the
# name, as a property would be, is an error that names the method to call
x = ones(2)
x.requires_grad_(True)
print(x.requires_grad(), (x * 2).requires_grad(), ones(2).requires_grad())
# expect: True True False
x.requires_grad = True
# expect-tb:   Cell line 7, column 3:
# expect-error: AttributeError: 'tensor' object attribute 'requires_grad' is a method (x.requires_grad() says whether it requires grad): set it with x.requires_grad_(True)
