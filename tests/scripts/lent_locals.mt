# A call's plain locals are lent to the attribute reads, operators and calls of an expression
# without a reference of their own (dsl_eval_lent); a local that a nested function rebinds
# (nonlocal: a cell) is not, so that the object it held stays alive while the expression that
# read it still uses it. The values are Python's (CPython 3.11 prints the same).
class Box:
    def __init__(self, items):
        self.items = items

    @property
    def drop(self):
        forget()  # rebinds the caller's x: the last reference to this Box but the read's
        return len(self.items)

    def size_after_forget(self, extra):
        forget()
        return len(self.items) + extra


def outer():
    global forget
    x = Box([1, 2, 3])

    def forget_x():
        nonlocal x
        x = None

    forget = forget_x
    first = x.drop
    x = Box([4, 5])
    second = x.size_after_forget(10)
    x = Box([6])
    third = x.size_after_forget(len([x.items, x])) + 1
    return first, second, third, x


print(outer())
# expect: (3, 12, 4, None)


def plain(a, b):
    c = a.items
    return a.items + b.items, c is a.items, len(a.items) * len(b.items)


print(plain(Box([1]), Box([2, 3])))
# expect: ([1, 2, 3], True, 2)
