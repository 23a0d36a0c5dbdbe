# The Python operations a student's Module 1 code is made of, one loop each, for
# bench/course/instructions.py: it runs the loop of one case (CASE, N iterations) under the
# kernel and under CPython, and the difference between N and 0 iterations is what the case
# costs. Written in the subset both run alike.
from dataclasses import dataclass


class A:
    def __init__(self, x):
        self.x = x
        self.y = None

    def m(self, b):
        return b

    @classmethod
    def cm(cls, *vals):
        return vals

    @staticmethod
    def sm(a, b):
        return a

    @property
    def p(self):
        return self.x

    def __add__(self, o):
        return self


@dataclass
class D:
    a: object = None
    b: object = None
    c: tuple = ()


def f(a, b):
    return a


def loop_empty():
    for i in range(N):
        pass


def call_func():
    for i in range(N):
        f(i, i)


def call_method():
    a = A(1)
    for i in range(N):
        a.m(i)


def call_classmethod():
    for i in range(N):
        A.cm(i, i)


def call_static():
    for i in range(N):
        A.sm(i, i)


def new_instance():
    for i in range(N):
        A(i)


def new_dataclass():
    for i in range(N):
        D(i, i, ())


def get_attribute():
    a = A(1)
    for i in range(N):
        a.x


def set_attribute():
    a = A(1)
    for i in range(N):
        a.x = i


def get_property():
    a = A(1)
    for i in range(N):
        a.p


def isinstance_call():
    a = A(1)
    for i in range(N):
        isinstance(a, A)


def operator_method():
    a = A(1)
    for i in range(N):
        a + a


def list_append():
    for i in range(N):
        xs = []
        xs.append(i)


def float_arithmetic():
    x = 0.5
    for i in range(N):
        x = x * 0.999 + 0.001


def list_comprehension():
    xs = [1, 2, 3]
    for i in range(N):
        [v for v in xs]


def tuple_unpack():
    t = (1, 2)
    for i in range(N):
        a, b = t


def dict_store_pop():
    d = {}
    for i in range(N):
        d[i] = 1
        d.pop(i, 0)


def star_call():
    for i in range(N):
        f(*(i, i))


def list_index():
    xs = [1, 2, 3]
    for i in range(N):
        xs[1]


def set_add_in():
    s = set()
    for i in range(N):
        s.add(i)
        i in s
