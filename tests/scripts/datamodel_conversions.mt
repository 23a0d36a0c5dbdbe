# int(), float(), round() and pow() of instances (their classes' __int__, else __index__,
# __float__, __round__, __pow__), and __getattr__ after a property's AttributeError, with
# CPython's errors. Each expectation is what CPython prints.
class V:
    def __pow__(self, o):
        return "pow"

    def __round__(self, n=None):
        return 7 if n is None else n

    def __int__(self):
        return 3

    def __float__(self):
        return 3.5


class I:
    def __index__(self):
        return 2


print(pow(V(), 3), round(V()), round(V(), 2), int(V()), float(V()), int(I()))
# expect: pow 7 2 3 3.5 2


class Bad:
    def __float__(self):
        return 1


try:
    float(Bad())
except TypeError as e:
    print(e)
# expect: Bad.__float__ returned non-float (type int)
class A:
    @property
    def p(self):
        raise AttributeError("inner")
    def __getattr__(self, n):
        return "fallback:" + n
print(A().p, A().q)
# expect: fallback:p fallback:q
class B:
    @property
    def p(self):
        raise AttributeError("inner")
try:
    B().p
except AttributeError as e:
    print(e)
# expect: inner

