# One attribute read (o.y in read_y) meets instances whose own attributes sit at different
# positions, attributes deleted and added, a property added to the class and taken away, the
# instance's __dict__ changed, and instances with many attributes. The evaluator remembers
# where each read found its attribute; every one of these must make it look again.
class A:
    def __init__(self):
        self.x = 1
        self.y = 2


class B:
    def __init__(self):
        self.y = 20
        self.x = 10


def read_y(o):
    return o.y


a, b = A(), B()
# expect: 2 20 2
print(read_y(a), read_y(b), read_y(a))
del a.x
# expect: 2
print(read_y(a))
a.x = 5
# expect: 2 5
print(read_y(a), a.x)
A.y = property(lambda self: "property")
# expect: property 20
print(read_y(a), read_y(b))
del A.y
# expect: 2
print(read_y(a))
vars(b)["y"] = 99
# expect: 99
print(read_y(b))
del b.__dict__["y"]
# expect: AttributeError: 'B' object has no attribute 'y'
try:
    read_y(b)
except AttributeError as e:
    print("AttributeError:", e)
b.y = 7
# expect: 7
print(read_y(b))


class Many:
    pass


m = Many()
for i in range(20):
    setattr(m, "a%d" % i, i)
m.y = "many"
# expect: many 2 many
print(read_y(m), read_y(a), read_y(m))
delattr(m, "a0")
# expect: many
print(read_y(m))


class Base:
    def __init__(self):
        self.y = "base"


class Derived(Base):
    pass


d = Derived()
# expect: base
print(read_y(d))
Base.y = property(lambda self: "base property")
# expect: base property
print(read_y(d))
