# A generator's end against CPython 3.11: `return v` is the value of the StopIteration that
# next() raises at its end (once), and a StopIteration leaving a generator's body is a
# RuntimeError (PEP 479), so that it cannot end the loop that reads the generator.

def counted(n):
    for i in range(n):
        yield i
    return "done after " + str(n)

g = counted(2)
print(next(g), next(g))
# expect: 0 1
try:
    next(g)
except StopIteration as e:
    print("value:", e.value, "args:", e.args, "str:", str(e))
# expect: value: done after 2 args: ('done after 2',) str: done after 2
try:
    next(g)
except StopIteration as e:
    print("again:", e.value, e.args)
# expect: again: None ()
print(next(counted(0), "default"), list(counted(3)), [x for x in counted(2)])
# expect: default [0, 1, 2] [0, 1]

def bare():
    yield 1
    return

b = bare()
next(b)
try:
    next(b)
except StopIteration as e:
    print("bare:", e.value, e.args)
# expect: bare: None ()

print(StopIteration().value, StopIteration(3).value, StopIteration(3, 4).value)
# expect: None 3 3
try:
    next(iter([]))
except StopIteration as e:
    print("list end:", e.value, e.args)
# expect: list end: None ()

# a StopIteration inside the body: a RuntimeError
def leaks():
    yield 1
    raise StopIteration("inner")

try:
    list(leaks())
except RuntimeError as e:
    print(type(e).__name__ + ":", e)
# expect: RuntimeError: generator raised StopIteration

class Done(StopIteration):
    pass

def leaks_subclass():
    yield 1
    raise Done()

total = 0
try:
    for x in leaks_subclass():  # (the kernel runs the body before the loop starts)
        total += x
except RuntimeError as e:
    print(type(e).__name__ + ":", e)
# expect: RuntimeError: generator raised StopIteration

# the common mistake: next() on an exhausted iterator inside a generator
def pairs(xs):
    it = iter(xs)
    while True:
        a = next(it)
        yield a, next(it)

try:
    print(list(pairs([1, 2, 3, 4])))
except RuntimeError as e:
    print(type(e).__name__ + ":", e)
# expect: RuntimeError: generator raised StopIteration

# caught inside the body, it is no error
def careful(xs):
    it = iter(xs)
    while True:
        try:
            a = next(it)
        except StopIteration:
            return "exhausted"
        yield a

print(list(careful([5, 6])))
# expect: [5, 6]

# a generator inside __next__ no longer ends the caller's loop silently
class Reader:
    def __init__(self):
        self.n = 0
    def __iter__(self):
        return self
    def __next__(self):
        self.n += 1
        if self.n > 3:
            raise StopIteration
        return list(leaks())

try:
    for row in Reader():
        print(row)
except RuntimeError as e:
    print("loop:", type(e).__name__ + ":", e)
# expect: loop: RuntimeError: generator raised StopIteration

list(leaks())

# expect-error: RuntimeError: generator raised StopIteration
# expect-tb:         raise StopIteration("inner")
