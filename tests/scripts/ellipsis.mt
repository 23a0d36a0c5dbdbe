# `...` (Ellipsis) as CPython has it: a value, a function's whole body, a default meaning "not
# given", inside subscripts and annotations (MiniTorch's `Tuple[float, ...]`,
# `out: Optional[Tensor] = ...`). Expected lines: python3 running this file.
from __future__ import annotations
x = ...
print(x, repr(x), str(x), type(x))
# expect: Ellipsis Ellipsis Ellipsis <class 'ellipsis'>
print(x is ..., ... is Ellipsis, x == ..., ... != None, bool(...))
# expect: True True True True True
print([1, ..., 3], (..., ...), {...: "e"}[...], f"{...}")
# expect: [1, Ellipsis, 3] (Ellipsis, Ellipsis) e Ellipsis

def todo():
    ...
def stub(a): ...
print(todo(), stub(1))
# expect: None None

def apply(fn, out=...):
    if out is ...:
        return "no out"
    return fn(out)
print(apply(abs), apply(abs, -2))
# expect: no out 2

# in annotations, which are parsed and not evaluated
def saved_tensors(self) -> Tuple[Any, ...]:
    return (1, 2)
saved: Tuple[float, ...] = ...
shape: Tuple[int, ...] = (2, 3)
print(saved_tensors(None), saved, shape)
# expect: (1, 2) Ellipsis (2, 3)

class MapProto:
    def __call__(self, x: Tensor, out: Optional[Tensor] = ...) -> Tensor:
        ...
print(MapProto()(1))
# expect: None

# a placeholder in a list of values, looked up in a dict
marks = {...: "any", 1: "one"}
print([marks.get(k, "?") for k in [1, ..., 2]])
# expect: ['one', 'any', '?']
