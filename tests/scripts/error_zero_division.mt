# numbers divide like Python's (tensors give inf/nan instead)
print((tensor([1]) / 0).tolist())
# expect: [Infinity]
print(1 / 0)
# expect-error: ZeroDivisionError: division by zero
