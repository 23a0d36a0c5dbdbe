# MiniTorch's RParam(*shape, backend) called without its keyword-only backend: CPython's message,
# located at the call
def RParam(*shape, backend):
    return shape
print(RParam(2, 3, backend="fast"))
# expect: (2, 3)
w = RParam(2, 3)
# expect-tb:   Cell line 7, column 5:
# expect-tb:     w = RParam(2, 3)
# expect-tb:         ^
# expect-error: TypeError: RParam() missing 1 required keyword-only argument: 'backend'
