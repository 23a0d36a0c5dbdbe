# One attribute store (o.y = v in set_y) meets instances whose own attributes sit at different
# positions, an attribute deleted and set again, a property, a __setattr__ hook and an
# exception base given to a class after stores ran, and instances with many attributes. The
# evaluator remembers where each store found its attribute and replaces the value in place;
# every one of these must make it look again, or go the whole way.
class A:
    def __init__(self):
        self.x = 1
        self.y = 2


class B:
    def __init__(self):
        self.y = 20
        self.x = 10


def set_y(o, v):
    o.y = v


a, b = A(), B()
set_y(a, 3)
set_y(b, 30)
set_y(a, 4)
# expect: {'x': 1, 'y': 4} {'y': 30, 'x': 10}
print(vars(a), vars(b))
del a.x
set_y(a, 5)
# expect: {'y': 5}
print(vars(a))
del a.y
set_y(a, 6)
a.x = 7
set_y(a, 8)
# expect: {'y': 8, 'x': 7}
print(vars(a))
stored = []
A.y = property(lambda self: "read", lambda self, v: stored.append(v))
set_y(a, 9)
# expect: read [9] {'y': 8, 'x': 7}
print(a.y, stored, vars(a))
del A.y
set_y(a, 10)
# expect: 10
print(a.y)


def hook(self, name, value):
    object.__setattr__(self, name, value * 100)


A.__setattr__ = hook
set_y(a, 11)
# expect: 1100
print(a.y)
del A.__setattr__
set_y(a, 12)
# expect: 12
print(a.y)


class C(B):
    pass


c = C()
set_y(c, 40)
B.__setattr__ = hook
set_y(c, 41)
# expect: 4100
print(c.y)
del B.__setattr__


class Many:
    def __init__(self):
        for i in range(40):
            setattr(self, "a%d" % i, i)
        self.y = 0


m = Many()
for v in range(3):
    set_y(m, v)
    set_y(a, v)
# expect: 2 2 41
print(m.y, a.y, len(vars(m)))


class E(Exception):
    pass


e = E("one")
e.args = ("two",)
# expect: ('two',)
print(e.args)
e.args = ["three"]
# expect: ('three',)
print(e.args)
