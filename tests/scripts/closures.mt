# closures: nested functions read the enclosing call's variables; nonlocal writes them
def make_counter():
    count = 0

    def inc(by=1):
        nonlocal count
        count += by
        return count

    def peek():
        return count

    return inc, peek


inc, peek = make_counter()
inc2, peek2 = make_counter()
print(inc(), inc(5), peek(), inc2(), peek2(), peek())
# expect: 1 6 6 1 1 6


def adder(k):
    def add(x):
        return x + k
    return add


add3 = adder(3)
add10 = adder(10)
print(add3(1), add10(1), adder(0.5)(1))
# expect: 4 11 1.5


# late binding, as in Python: the closure sees the variable, not its value at def time
def late():
    fs = []
    for i in range(3):
        def f():
            return i
        fs.append(f)
    return [fs[0](), fs[1](), fs[2]()]


print(late())
# expect: [2, 2, 2]


# the template of MiniTorch's Task 3.1: a function returning a function that uses its argument
def tensor_map(fn):
    def _map(out, in_storage):
        for i in range(len(out)):
            out[i] = fn(in_storage[i])
    return _map


def neg(x):
    return -x


out = [0.0] * 3
tensor_map(neg)(out, [1.0, 2.0, 3.0])
print(out)
# expect: [-1.0, -2.0, -3.0]


# three levels: the innermost reads the outermost's variable
def outer(a):
    def middle(b):
        def inner(c):
            return a + b + c
        return inner
    return middle


print(outer(1)(10)(100))
# expect: 111


# a recursive nested function (a cycle: its cell holds it)
def fact_of(n):
    def fact(k):
        return 1 if k <= 1 else k * fact(k - 1)
    return fact(n)


print(fact_of(10))
# expect: 3628800

total = 0


def bump(n):
    global total
    total += n
    return total


bump(2)
bump(3)
print(total)
# expect: 5


def shadow():
    x = "local"

    def g():
        x = "inner"
        return x

    return g(), x


print(shadow())
# expect: ('inner', 'local')


def nonlocal_later():
    def g():
        nonlocal v
        v = v * 2
    v = 21
    g()
    return v


print(nonlocal_later())
# expect: 42


# a lambda captures its enclosing call's variables as a def does
def scaler(k):
    return lambda x: x * k


print(scaler(3)(4), list(map(scaler(2), [1, 2])))
# expect: 12 [2, 4]
