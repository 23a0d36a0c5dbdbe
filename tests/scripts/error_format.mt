# A format code the value's type does not have is Python's ValueError, located at the field.
loss = 0.25
print(f"loss {loss:.2f}")
# expect: loss 0.25
print(f"loss {loss:d}")
# expect-error: ValueError: Unknown format code 'd' for object of type 'float'
# expect-tb:   Cell line 5, column 15:
