# MiniTorch's t.requires_grad() is a method; here requires_grad is a property, and calling it
# says to drop the parentheses
x = ones(2)
x.requires_grad = True
print(x.requires_grad)
# expect: True
x.requires_grad()
# expect-tb:   Cell line 7, column 3:
# expect-error: TypeError: 'bool' object is not callable (.requires_grad is a value, not a method: drop the parentheses)
