# Calls obj.name(...) that a call site answers from its caches in a loop: an instance's own
# callable attribute (called unbound, as a module's function is: operators.mul(a, b)), which
# shadows a method of the same name until deleted; a property that comes before an entry of
# __dict__ under its name; a staticmethod and a classmethod called on the class and through an
# instance, with *args too; a module's function; an own attribute that is not callable (the
# error names its type, and the kernel adds a hint); the same site seeing instances with and without the attribute. Each
# expectation is what CPython prints.
import math


class A:
    def m(self, x):
        return "method %s" % x

    @property
    def p(self):
        return lambda: "property"

    @staticmethod
    def sm(a, b):
        return a * 10 + b

    @classmethod
    def cm(cls, *xs):
        return "%s%s" % (cls.__name__, list(xs))


class B(A):
    pass


def run():
    out = []
    a = A()
    a.f = lambda x: x + 1
    for i in range(3):
        out.append(a.f(i))
        out.append(a.m(i))
        out.append(a.p())
        out.append(A.sm(i, 1))
        out.append(B.sm(*(i, 2)))
        out.append(a.sm(i, 3))
        out.append(A.cm(i))
        out.append(B.cm(*[i, i]))
        out.append(math.floor(i + 0.5))
        if i == 0:
            a.m = lambda x: "own %s" % x
            a.__dict__["p"] = lambda: "own p"
        if i == 1:
            del a.m
    print(out)
    # one site, instances that have the attribute of their own and instances that do not
    calls = []
    for obj in [a, A(), a, B()]:
        try:
            calls.append(obj.f(1))
        except AttributeError as e:
            calls.append(str(e))
    print(calls)
    a.n = 3
    for i in range(2):
        try:
            a.n(i)
        except TypeError as e:
            print(e)


run()
# expect: [1, 'method 0', 'property', 1, 2, 3, 'A[0]', 'B[0, 0]', 0, 2, 'own 1', 'property', 11, 12, 13, 'A[1]', 'B[1, 1]', 1, 3, 'method 2', 'property', 21, 22, 23, 'A[2]', 'B[2, 2]', 2]
# expect: [2, "'A' object has no attribute 'f'", 2, "'B' object has no attribute 'f'"]
# CPython's words, then the kernel's hint
# expect-re: 'int' object is not callable.*
# expect-re: 'int' object is not callable.*
