# Annotations, which MiniTorch writes on every parameter and return, are parsed and never
# evaluated, as under Python's `from __future__ import annotations` (so Callable, Optional or
# TensorBackend need not exist). Expected lines: python3 running this file with that import.
def mul(x: float, y: float) -> float:
    return x * y

def RParam(*shape: int, backend: TensorBackend = None, **kw: Any) -> Parameter:
    return (shape, backend, kw)

def apply(fn: Callable[[float], float] = lambda x: x + 1, *, n: int = 2) -> list[float]:
    return [fn(n)]

print(mul(2.0, 3.0), RParam(1, 2), apply(), apply(n=5))
# expect: 6.0 ((1, 2), None, {}) [3] [6]
print(RParam)
# expect: <function RParam(*shape, backend=..., **kw)>
