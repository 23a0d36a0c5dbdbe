def f(x, y=2):
    "doc"
    return f(x - 1) if x > 0 else y
