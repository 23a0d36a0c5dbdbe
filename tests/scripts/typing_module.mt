# typing and typing_extensions: the names MiniTorch's files import for their annotations, as
# values that show as CPython 3.11's do. Nothing checks types. Expected lines: python3 running
# this file.
from __future__ import annotations

from typing import (TYPE_CHECKING, Any, Callable, Dict, Final, FrozenSet, Generator, Generic,
                    Iterable, Iterator, List, Literal, Mapping, Optional, Sequence, Set, Tuple,
                    Type, TypeVar, Union, ClassVar, cast, no_type_check, overload)
from typing_extensions import Protocol, TypeAlias
import typing
import typing_extensions

if TYPE_CHECKING:
    from .tensor import Tensor
print(TYPE_CHECKING, typing.TYPE_CHECKING)
# expect: False False
print(Any, Callable, Optional, Tuple, Union, TypeAlias, Sequence, Iterable)
# expect: typing.Any typing.Callable typing.Optional typing.Tuple typing.Union typing.TypeAlias typing.Sequence typing.Iterable
print(Generic, typing.Protocol, Protocol, typing_extensions.Generic)
# expect: <class 'typing.Generic'> <class 'typing.Protocol'> <class 'typing_extensions.Protocol'> <class 'typing.Generic'>

# subscripts, as MiniTorch writes them
print(Tuple[float, ...], Tuple[int, int], Tuple[()])
# expect: typing.Tuple[float, ...] typing.Tuple[int, int] typing.Tuple[()]
print(Callable[[float], float], Callable[[float, float], float], Callable[..., Any])
# expect: typing.Callable[[float], float] typing.Callable[[float, float], float] typing.Callable[..., typing.Any]
print(Optional[int], Union[int, None], Union[None, float], Optional[Optional[str]])
# expect: typing.Optional[int] typing.Optional[int] typing.Optional[float] typing.Optional[str]
print(Union[int, str], Union[int, Union[str, float]], Union[int, int], Optional[Union[int, str]])
# expect: typing.Union[int, str] typing.Union[int, str, float] <class 'int'> typing.Union[int, str, NoneType]
print(Dict[str, int], List["Tensor"], Sequence[int], Iterable[float], Type[int])
# expect: typing.Dict[str, int] typing.List[ForwardRef('Tensor')] typing.Sequence[int] typing.Iterable[float] typing.Type[int]
print(Optional[Callable[[int, float], None]], Mapping[str, List[int]])
# expect: typing.Optional[typing.Callable[[int, float], NoneType]] typing.Mapping[str, typing.List[int]]
print(Literal["sum", 1], ClassVar[int], Final[float], Iterator[int], Generator[int, None, None])
# expect: typing.Literal['sum', 1] typing.ClassVar[int] typing.Final[float] typing.Iterator[int] typing.Generator[int, NoneType, NoneType]
print(Set[int], FrozenSet[str], typing.Tuple[typing.Any, ...], typing_extensions.Optional[int])
# expect: typing.Set[int] typing.FrozenSet[str] typing.Tuple[typing.Any, ...] typing.Optional[int]

class Scalar:
    pass
print(Optional[Scalar], Tuple[Scalar, ...])
# expect: typing.Optional[__main__.Scalar] typing.Tuple[__main__.Scalar, ...]

# one object each, as CPython's; the same subscript twice is equal
print(Optional is Optional, Tuple[int] == Tuple[int], Optional[int] == Union[int, None])
# expect: True True True
print(Tuple[int] == Tuple[str], Any == Optional)
# expect: False False

# TypeVar, cast and the decorators
T = TypeVar("T")
print(T, TypeVar("A", covariant=True), TypeVar("B", contravariant=True), TypeVar("N", bound=int))
# expect: ~T +A -B ~N
print(Generic[T], Type[T], Dict[str, T], typing_extensions.Protocol[T])
# expect: typing.Generic[~T] typing.Type[~T] typing.Dict[str, ~T] typing_extensions.Protocol[~T]
print(cast(int, "not checked"), cast(T, 3), cast("Tensor", [1]))
# expect: not checked 3 [1]

@no_type_check
def double(x: T) -> T:
    return 2 * x
print(double(4))
# expect: 8

# Generic[T] and Protocol as a class's base: only annotations, no base
A = TypeVar("A")
class MathTest(Generic[A]):
    @staticmethod
    def neg(a: A) -> A:
        "Negate the argument"
        return -a
class MathTestVariable(MathTest):
    pass
print(MathTest.neg(2), MathTestVariable.neg(3.5), isinstance(MathTestVariable(), MathTest))
# expect: -2 -3.5 True

class Variable(Protocol):
    def accumulate_derivative(self, x: Any) -> None:
        pass
class MyVar(Variable):
    def __init__(self) -> None:
        self.d = 0.0
    def accumulate_derivative(self, x: Any) -> None:
        self.d += x
v = MyVar()
v.accumulate_derivative(1.5)
print(v.d)
# expect: 1.5

# what CPython refuses
for make in [lambda: Any[int], lambda: Optional[int, str], lambda: Callable[int],
             lambda: List[int, str], lambda: Dict[str], lambda: Generic[int],
             lambda: ClassVar[int, str], lambda: Union[()], lambda: Tuple[int][int],
             lambda: T[int]]:
    try:
        make()
    except TypeError as e:
        print(e)
# expect: type 'Any' is not subscriptable
# expect: typing.Optional requires a single type. Got (<class 'int'>, <class 'str'>).
# expect: Callable must be used as Callable[[arg, ...], result].
# expect: Too many arguments for typing.List; actual 2, expected 1
# expect: Too few arguments for typing.Dict; actual 1, expected 2
# expect: Parameters to Generic[...] must all be type variables or parameter specification variables.
# expect: typing.ClassVar accepts only single type. Got (<class 'int'>, <class 'str'>).
# expect: Cannot take a Union of no types.
# expect: typing.Tuple[int] is not a generic class
# expect: 'TypeVar' object is not subscriptable
