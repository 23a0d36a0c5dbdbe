def f(x, y=2):
    if x <= 1:
        return y
    return f(x - 1, y * 2)
print(f(5), f(3, y=1))
g = f
x = [1, 2, 3]
x[1] = g(2) if len(x) > 2 else 0
x
