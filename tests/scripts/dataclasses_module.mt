# dataclasses as MiniTorch's files use them (datasets.Graph, autodiff.Context, scalar.ScalarHistory),
# with their `from __future__ import annotations`: @dataclass reads the annotated names of the
# class body as its fields and gives it __init__, __repr__ and __eq__; field(default_factory=...),
# fields(), asdict(), __post_init__, a dataclass deriving from another, a class decorator of
# your own, and Python's errors. Each expectation is what CPython prints.
from __future__ import annotations
from dataclasses import dataclass, field, fields, asdict, is_dataclass
import dataclasses


@dataclass
class Graph:
    N: int
    X: list
    y: list


g = Graph(3, [(0.0, 1.0)], [1])
print(g, g.N, g == Graph(3, [(0.0, 1.0)], [1]), g == Graph(2, [], []), g != g)
# expect: Graph(N=3, X=[(0.0, 1.0)], y=[1]) 3 True False False


@dataclass
class Context:
    no_grad: bool = False
    saved_values: tuple = ()

    def save_for_backward(self, *values):
        if self.no_grad:
            return
        self.saved_values = values

    @property
    def saved_tensors(self):
        return self.saved_values


c = Context()
c.save_for_backward(1, 2)
print(c, c.saved_tensors, Context(True), Context(no_grad=True).no_grad)
# expect: Context(no_grad=False, saved_values=(1, 2)) (1, 2) Context(no_grad=True, saved_values=()) True


@dataclass
class History:
    last_fn: object = None
    ctx: Context = None
    inputs: list = field(default_factory=list)
    tag: str = field(default="h", repr=False)


h1, h2 = History(), History()
h1.inputs.append(5)
print(h1, h2, h1.inputs is h2.inputs, [f.name for f in fields(History)])
# expect: History(last_fn=None, ctx=None, inputs=[5]) History(last_fn=None, ctx=None, inputs=[]) False ['last_fn', 'ctx', 'inputs', 'tag']
print(is_dataclass(h1), is_dataclass(History), is_dataclass(5), asdict(History(ctx=Context())))
# expect: True True False {'last_fn': None, 'ctx': {'no_grad': False, 'saved_values': ()}, 'inputs': [], 'tag': 'h'}


@dataclass
class Point:
    x: float
    y: float = 0.0

    def __post_init__(self):
        self.norm = abs(self.x) + abs(self.y)


@dataclass
class Point3(Point):
    z: float = 0.0


print(Point(1.0), Point(-1, 2), Point3(1, 2, 3), Point3(1).norm)
# expect: Point(x=1.0, y=0.0) Point(x=-1, y=2) Point3(x=1, y=2, z=3) 1.0
for attempt in [lambda: Point(), lambda: Point(1, 2, 3), lambda: Point(1, q=2), lambda: Point(1, x=2)]:
    try:
        attempt()
    except TypeError as e:
        print(e)
# expect: Point.__init__() missing 1 required positional argument: 'x'
# expect: Point.__init__() takes from 2 to 3 positional arguments but 4 were given
# expect: Point.__init__() got an unexpected keyword argument 'q'
# expect: Point.__init__() got multiple values for argument 'x'
try:
    hash(Point(1))
except TypeError as e:
    print(e)
# expect: unhashable type: 'Point'


@dataclass(repr=False)
class Quiet:
    a: int = 1


print(Quiet() == Quiet(), "Quiet object" in repr(Quiet()))
# expect: True True
try:
    @dataclass
    class Bad:
        a: int = 1
        b: int
except TypeError as e:
    print(e)
# expect: non-default argument 'b' follows default argument
try:
    @dataclass
    class Shared:
        xs: list = []
except ValueError as e:
    print(e)
# expect: mutable default <class 'list'> for field xs is not allowed: use default_factory
print(dataclasses.MISSING is dataclasses.MISSING, fields(Point)[1].default, fields(Point)[0].type)
# expect: True 0.0 float


def register(cls):
    cls.registered = True
    return cls


@register
class Plain:
    x: int
    y: "List[int]" = []


print(Plain.registered, Plain.__annotations__, Plain.y)
# expect: True {'x': 'int', 'y': "'List[int]'"} []

