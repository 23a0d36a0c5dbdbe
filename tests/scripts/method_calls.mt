# obj.name(...) calls a method with obj first without making a bound method (an instance's
# method, a classmethod called on its class, a list's or a dict's method), unpacking calls
# f(*xs) included; what it calls and the errors it raises are those of the bound method. The
# values are CPython's.
class Base:
    scale = 2

    @classmethod
    def make(cls, *vals):
        return (cls.__name__, cls.scale * sum(vals))

    @staticmethod
    def static(*vals):
        return len(vals)

    def method(self, *vals):
        return (type(self).__name__, vals)


class Child(Base):
    scale = 10


args = [1, 2, 3]
print(Base.make(*args), Child.make(*args), Child.make(4), Base.static(*args), Child.static())
c = Child()
print(c.make(*args), c.method(*args), c.method(), c.static(*args))
Base.make = classmethod(lambda cls, *v: ("rebound", cls.__name__, v))
print(Child.make(*args), Base.make(5))
c.method = lambda *v: ("own", v)
print(c.method(*args), c.method(1))
del c.method
print(c.method(*args))
Child.method = lambda self, *v: ("child", len(v))
print(c.method(*args), Base().method(*args))

xs = [3, 1]
xs.append(*[2])
xs.extend(*[[5, 4]])
print(xs, xs.index(*[5]), xs.pop(), xs.count(3))
t = (1, 2, 1)
print(t.count(*[1]), t.index(2))
d = {"a": 1}
print(d.get(*["a"]), d.get("b", 0), d.setdefault(*["c", 3]), sorted(d.items()))
for call in (lambda: xs.append(*5), lambda: t.append(1), lambda: c.nothing(*args)):
    try:
        call()
    except (TypeError, AttributeError) as e:
        print(type(e).__name__, e)
# expect: ('Base', 12) ('Child', 60) ('Child', 40) 3 0
# expect: ('Child', 60) ('Child', (1, 2, 3)) ('Child', ()) 3
# expect: ('rebound', 'Child', (1, 2, 3)) ('rebound', 'Base', (5,))
# expect: ('own', (1, 2, 3)) ('own', (1,))
# expect: ('Child', (1, 2, 3))
# expect: ('child', 3) ('Base', (1, 2, 3))
# expect: [3, 1, 2, 5] 3 4 1
# expect: 2 1
# expect: 1 0 3 [('a', 1), ('c', 3)]
# expect: TypeError list.append() argument after * must be an iterable, not int
# expect: AttributeError 'tuple' object has no attribute 'append'
# expect: AttributeError 'Child' object has no attribute 'nothing'
