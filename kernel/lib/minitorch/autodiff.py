"""The kernel's reference of MiniTorch's autodiff.py: the graph of Variables, their
topological order and backpropagation, and the Context a ScalarFunction saves values in.

A built-in file (kernel/lib/minitorch/README.md): a student's own autodiff.py replaces it.
"""
from dataclasses import dataclass
from typing import Any, Iterable, List, Tuple

from typing_extensions import Protocol

# MiniTorch's autodiff.py defines central_difference; here it is the kernel's C function,
# minitorch.central_difference, which existed before this file and which code that never
# touches Scalars calls too. One definition: `from .autodiff import central_difference` and
# `minitorch.central_difference` are the same function and cannot disagree.
from minitorch import central_difference

__all__ = [
    "central_difference",
    "variable_count",
    "Variable",
    "topological_sort",
    "backpropagate",
    "Context",
]

variable_count = 1


class Variable(Protocol):
    """What autodiff needs of a value in the graph (Scalar is one)."""

    def accumulate_derivative(self, x: Any) -> None:
        pass

    @property
    def unique_id(self) -> int:
        pass

    def is_leaf(self) -> bool:
        pass

    def is_constant(self) -> bool:
        pass

    @property
    def parents(self) -> Iterable["Variable"]:
        pass

    def chain_rule(self, d_output: Any) -> Iterable[Tuple["Variable", Any]]:
        pass


def topological_sort(variable: Variable) -> Iterable[Variable]:
    """The non-constant variables `variable` depends on, itself first: each comes before
    every variable it was computed from, and appears once."""
    ### BEGIN SOLUTION
    # A depth-first walk that lists a variable once all its parents are listed, then the list
    # reversed. The walk keeps its own stack rather than recursing, so that a long chain of
    # operations is not limited by the depth of calls.
    done = set()
    post: List[Variable] = []
    if variable.is_constant():
        return post
    # each entry: a variable and the index of the next parent to walk into
    stack = [[variable, 0]]
    done.add(variable.unique_id)
    while stack:
        top = stack[-1]
        var = top[0]
        parents = [] if var.is_leaf() else list(var.parents)
        if top[1] < len(parents):
            parent = parents[top[1]]
            top[1] += 1
            if not parent.is_constant() and parent.unique_id not in done:
                done.add(parent.unique_id)
                stack.append([parent, 0])
        else:
            stack.pop()
            post.append(var)
    post.reverse()
    return post
    ### END SOLUTION


def backpropagate(variable: Variable, deriv: Any) -> None:
    """Pushes the derivative `deriv` of the output `variable` back through the graph, and
    adds to each leaf the derivative of the output with respect to it
    (accumulate_derivative). Returns nothing."""
    ### BEGIN SOLUTION
    pending = {variable.unique_id: deriv}
    for var in topological_sort(variable):
        d = pending.pop(var.unique_id, 0.0)
        if var.is_leaf():
            var.accumulate_derivative(d)
            continue
        for parent, d_parent in var.chain_rule(d):
            if parent.unique_id in pending:
                pending[parent.unique_id] = pending[parent.unique_id] + d_parent
            else:
                pending[parent.unique_id] = d_parent
    ### END SOLUTION


@dataclass
class Context:
    """What a Function's forward keeps for its backward."""

    no_grad: bool = False
    saved_values: Tuple[Any, ...] = ()

    def save_for_backward(self, *values: Any) -> None:
        """Keeps `values` for backward (nothing when no_grad)."""
        if self.no_grad:
            return
        self.saved_values = values

    @property
    def saved_tensors(self) -> Tuple[Any, ...]:
        return self.saved_values
