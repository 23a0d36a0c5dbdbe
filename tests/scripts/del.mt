# del, as in Python: names (session variables and a function's locals) and list items
xs = [10, 20, 30, 40]
del xs[1]
print(xs)
# expect: [10, 30, 40]
del xs[-1]
print(xs)
# expect: [10, 30]
alpha = 1
beta = 2
del alpha, beta
try:
    print(alpha)
except NameError as err:
    print(err)
# expect: name 'alpha' is not defined
ys = [1, 2, 3]
zs = ys
del ys
print(zs)
# expect: [1, 2, 3]
try:
    del zs[3]
except IndexError as err:
    print(err)
# expect: list assignment index out of range
try:
    del (1, 2)[0]
except TypeError as err:
    print(err)
# expect: 'tuple' object doesn't support item deletion
try:
    del "abc"[0]
except TypeError as err:
    print(err)
# expect: 'str' object doesn't support item deletion

# in a function, del makes the name local, as an assignment would
def f():
    x = [1, 2, 3]
    del x[0]
    y = x
    del x
    try:
        del x
    except UnboundLocalError as err:
        print(err)
    return y

print(f())
# expect: cannot access local variable 'x' where it is not associated with a value
# expect: [2, 3]
