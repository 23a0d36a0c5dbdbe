# classes: attributes, methods, inheritance, super(), special methods, isinstance, type
class Counter:
    "Counts calls."
    start = 10

    def __init__(self, step=1):
        self.step = step
        self.n = self.start

    def tick(self, times=1):
        for i in range(times):
            self.n += self.step
        return self.n

    def __call__(self, x):
        return self.tick(x)

    def __repr__(self):
        return "Counter(" + str(self.n) + ")"


c = Counter()
print(c.tick(), c.tick(3), c(2), c.n, c.step)
# expect: 11 14 16 16 1
print(c, [c, Counter(5)], str(c))
# expect: Counter(16) [Counter(16), Counter(10)] Counter(16)
print(Counter.start, Counter.__doc__, Counter.__name__)
# expect: 10 Counts calls. Counter
Counter.start = 0
print(Counter().n, c.start)
# expect: 0 0
c.start = 7
print(c.start, Counter.start)
# expect: 7 0
m = c.tick
print(m(), m(), c.n)
# expect: 17 18 18
print(Counter.tick(c, 2))
# expect: 20


class Layer:
    def __init__(self, n):
        self.n = n
        self.name = "layer"

    def forward(self, x):
        return x * self.n

    def describe(self):
        return self.name + " " + str(self.n)


class Scaled(Layer):
    def __init__(self, n, k):
        super().__init__(n)
        self.k = k

    def forward(self, x):
        return super().forward(x) + self.k


s = Scaled(3, 1)
print(s.forward(2), s.describe(), s.n, s.k)
# expect: 7 layer 3 3 1
print(isinstance(s, Scaled), isinstance(s, Layer), isinstance(Layer(1), Scaled))
# expect: True True False
print(issubclass(Scaled, Layer), issubclass(Layer, Scaled), issubclass(Scaled, object))
# expect: True False True
print(type(s) == Scaled, type(s).__name__, Scaled.__base__ == Layer)
# expect: True Scaled True
print(isinstance(1, int), isinstance(True, int), isinstance(1.5, (int, float)), isinstance("a", (int, list)))
# expect: True True True False
print(isinstance([], list), isinstance((), tuple), isinstance((), list), isinstance(None, object))
# expect: True True False True
print(type(1), type("a"), type([]), type(()), type(None), type(Scaled), type(len))
# expect: <class 'int'> <class 'str'> <class 'list'> <class 'tuple'> <class 'NoneType'> <class 'type'> <class 'builtin_function_or_method'>
print(type(1).__name__, type(1.5).__name__, type(None).__name__, int.__name__)
# expect: int float NoneType int
print(int("3") + 1, str(5) + "!", list((1, 2)), float(2))
# expect: 4 5! [1, 2] 2.0


class Static:
    def twice(x):
        return 2 * x
    twice = staticmethod(twice)

    def use(self, x):
        return self.twice(x) + 1


print(Static.twice(4), Static().twice(5), Static().use(1))
# expect: 8 10 3


class Empty:
    pass


e = Empty()
e.me = e
e.items = [e, 1]
print(hasattr(e, "me"), hasattr(e, "nope"), getattr(e, "nope", 42), getattr(e, "items")[1])
# expect: True False 42 1
setattr(e, "x", 3)
print(e.x, e.me.me.x)
# expect: 3 3


class Node:
    def __init__(self, value, rest=None):
        self.value = value
        self.rest = rest


def total(node):
    t = 0
    while node != None:
        t += node.value
        node = node.rest
    return t


chain = None
for i in range(100):
    chain = Node(i, chain)
print(total(chain))
# expect: 4950


def make():
    class Local:
        def get(self):
            return secret
    secret = "closure"
    return Local()


print(make().get())
# expect: closure
print(type(s) is Scaled, s is s, s is Scaled(1, 1), type(1) is int, Scaled is not Layer)
# expect: True True False True True

# classes, instances and exception classes are dict keys by identity, as in Python
class Key:
    pass
k = Key()
keys = {k: 1, Key: 2, int: 3, ValueError: 4}
print(keys[k], keys[Key], keys[int], keys[ValueError], len(keys))
# expect: 1 2 3 4 4
