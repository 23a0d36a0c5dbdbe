# %% [markdown]
# # Module 0 · Fundamentals
#
# MiniTorch's first module builds the smallest pieces of a deep-learning library: the functions
# of one or two numbers every later module computes with (Task 0.1), the properties they must
# have (Task 0.2), functions that take functions, over lists (Task 0.3), and the `Module` class
# that holds a network's parameters in a tree (Task 0.4).
#
# You write MiniTorch's own files here. A cell whose first line is `%%minitorch_file
# operators.py` is your `minitorch/operators.py`: running it makes it the module
# `minitorch.operators`, which `import minitorch` and every later cell then use, as MiniTorch's
# tests do. Your code goes where the template raises `NotImplementedError()` (the instructor's
# copy has a solution there). After each task, cells draw what your functions compute, and the
# cells that call `check` are the graded tests: `check("0.1", "mul")` runs the course's tests
# of one function on your file, on inputs drawn afresh each time, and says for each failure the
# smallest input that fails, what was expected and what your code gave.

# %% [markdown]
# ## Task 0.1: operators
#
# Every function below takes and returns plain floats. A comparison returns `1.0` for true and
# `0.0` for false (the later modules add and multiply them). Three of them are the backward
# functions of autodiff (Module 1): `log_back(x, d)` is `d` times the derivative of `log` at `x`,
# the chain rule's step through `log`, and so are `inv_back` and `relu_back` for theirs.
#
# Two details matter. `sigmoid` of a large negative number must not compute `exp` of a large
# positive one, which overflows: for `x < 0` use the equal form `exp(x) / (1 + exp(x))`. And
# `is_close` is how the course's tests compare floats: within `1e-2` of each other.
#
# The same cell holds Task 0.3's functions, at its end; leave them for now.

# %%
%%minitorch_file operators.py
"""The functions of numbers, and of lists of numbers, that the rest of MiniTorch is built on."""

import math
from typing import Callable, Iterable

# ## Task 0.1


def mul(x: float, y: float) -> float:
    """The product x * y."""
    ### BEGIN SOLUTION
    return x * y
    ### END SOLUTION


def id(x: float) -> float:
    """x itself, unchanged."""
    ### BEGIN SOLUTION
    return x
    ### END SOLUTION


def add(x: float, y: float) -> float:
    """The sum x + y."""
    ### BEGIN SOLUTION
    return x + y
    ### END SOLUTION


def neg(x: float) -> float:
    """-x."""
    ### BEGIN SOLUTION
    return -x
    ### END SOLUTION


def lt(x: float, y: float) -> float:
    """1.0 when x is less than y, else 0.0."""
    ### BEGIN SOLUTION
    return 1.0 if x < y else 0.0
    ### END SOLUTION


def eq(x: float, y: float) -> float:
    """1.0 when x equals y, else 0.0."""
    ### BEGIN SOLUTION
    return 1.0 if x == y else 0.0
    ### END SOLUTION


def max(x: float, y: float) -> float:
    """The larger of x and y."""
    ### BEGIN SOLUTION
    return x if x > y else y
    ### END SOLUTION


def is_close(x: float, y: float) -> bool:
    """Whether x and y are less than 1e-2 apart."""
    ### BEGIN SOLUTION
    return abs(x - y) < 1e-2
    ### END SOLUTION


def sigmoid(x: float) -> float:
    """The logistic function 1 / (1 + e^-x), in a form that does not overflow for any x: for
    negative x, e^x / (1 + e^x)."""
    ### BEGIN SOLUTION
    if x >= 0.0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)
    ### END SOLUTION


def relu(x: float) -> float:
    """x when x is positive, else 0.0."""
    ### BEGIN SOLUTION
    return x if x > 0.0 else 0.0
    ### END SOLUTION


def log(x: float) -> float:
    """The natural logarithm of x (x > 0)."""
    ### BEGIN SOLUTION
    return math.log(x)
    ### END SOLUTION


def exp(x: float) -> float:
    """e to the power x."""
    ### BEGIN SOLUTION
    return math.exp(x)
    ### END SOLUTION


def inv(x: float) -> float:
    """1 / x (x not 0)."""
    ### BEGIN SOLUTION
    return 1.0 / x
    ### END SOLUTION


def log_back(x: float, d: float) -> float:
    """d times the derivative of log at x."""
    ### BEGIN SOLUTION
    return d / x
    ### END SOLUTION


def inv_back(x: float, d: float) -> float:
    """d times the derivative of inv at x."""
    ### BEGIN SOLUTION
    return -d / (x * x)
    ### END SOLUTION


def relu_back(x: float, d: float) -> float:
    """d times the derivative of relu at x (taken as 0 at x = 0)."""
    ### BEGIN SOLUTION
    return d if x > 0.0 else 0.0
    ### END SOLUTION


# ## Task 0.3


def map(fn: Callable[[float], float]) -> Callable[[Iterable[float]], Iterable[float]]:
    """A function that takes a list and returns the list of fn of each of its elements."""
    ### BEGIN SOLUTION
    def apply(ls: Iterable[float]) -> Iterable[float]:
        return [fn(x) for x in ls]

    return apply
    ### END SOLUTION


def zipWith(
    fn: Callable[[float, float], float]
) -> Callable[[Iterable[float], Iterable[float]], Iterable[float]]:
    """A function that takes two lists of one length and returns the list of fn of their
    elements at each position."""
    ### BEGIN SOLUTION
    def apply(ls1: Iterable[float], ls2: Iterable[float]) -> Iterable[float]:
        return [fn(x, y) for x, y in zip(ls1, ls2)]

    return apply
    ### END SOLUTION


def reduce(
    fn: Callable[[float, float], float], start: float
) -> Callable[[Iterable[float]], float]:
    """A function that takes a list and folds it into one value: start, then fn(that value, x)
    for each element x in order."""
    ### BEGIN SOLUTION
    def apply(ls: Iterable[float]) -> float:
        acc = start
        for x in ls:
            acc = fn(acc, x)
        return acc

    return apply
    ### END SOLUTION


def negList(ls: Iterable[float]) -> Iterable[float]:
    """Every element of ls negated, with map and neg."""
    ### BEGIN SOLUTION
    return map(neg)(ls)
    ### END SOLUTION


def addLists(ls1: Iterable[float], ls2: Iterable[float]) -> Iterable[float]:
    """The elements of ls1 and ls2 added position by position, with zipWith and add."""
    ### BEGIN SOLUTION
    return zipWith(add)(ls1, ls2)
    ### END SOLUTION


def sum(ls: Iterable[float]) -> float:
    """The sum of the elements of ls (0.0 for none), with reduce and add."""
    ### BEGIN SOLUTION
    return reduce(add, 0.0)(ls)
    ### END SOLUTION


def prod(ls: Iterable[float]) -> float:
    """The product of the elements of ls (1.0 for none), with reduce and mul."""
    ### BEGIN SOLUTION
    return reduce(mul, 1.0)(ls)
    ### END SOLUTION

# %% [markdown]
# Your functions drawn: `sigmoid` and `relu` over [-4, 4], and beside them their slopes, as your
# backward function gives it (`relu_back(x, 1.0)`) and as a central difference of your forward
# function measures it, `(f(x + h) - f(x - h)) / 2h`. Where the two lines of a function part,
# the backward function is wrong.

# %%
import minitorch
from minitorch import operators

xs = [i / 10 for i in range(-40, 41)]
line_chart(xs, {"sigmoid": [operators.sigmoid(x) for x in xs],
                "relu": [operators.relu(x) for x in xs]},
           title="your sigmoid and relu", y_title="f(x)")


def slope(f, x, h=1e-3):
    return (f(x + h) - f(x - h)) / (2 * h)


line_chart(xs, {"relu_back(x, 1.0)": [operators.relu_back(x, 1.0) for x in xs],
                "slope of relu": [slope(operators.relu, x) for x in xs],
                "slope of sigmoid": [slope(operators.sigmoid, x) for x in xs]},
           title="their derivatives", y_title="f'(x)")

# %% [markdown]
# The same for `log` over [0.5, 3], with `log_back(x, 1.0)`, and the slope of `inv` with
# `inv_back(x, 1.0)`:

# %%
ps = [i / 20 for i in range(10, 61)]
line_chart(ps, {"log": [operators.log(x) for x in ps],
                "log_back(x, 1.0)": [operators.log_back(x, 1.0) for x in ps],
                "slope of log": [slope(operators.log, x) for x in ps],
                "inv_back(x, 1.0)": [operators.inv_back(x, 1.0) for x in ps],
                "slope of inv": [slope(operators.inv, x) for x in ps]},
           title="your log, and the derivatives of log and inv", y_title="f(x), f'(x)")

# %% [markdown]
# The graded tests of Task 0.1, a cell for a function or a few small ones:

# %%
# NBGRADER_TESTS test_mul_id_add_neg 2
check("0.1", "mul")
check("0.1", "id")
check("0.1", "add")
check("0.1", "neg")

# %%
# NBGRADER_TESTS test_lt_eq 1
check("0.1", "lt")
check("0.1", "eq")

# %%
# NBGRADER_TESTS test_max 1
check("0.1", "max")

# %%
# NBGRADER_TESTS test_is_close 1
check("0.1", "is_close")

# %%
# NBGRADER_TESTS test_sigmoid 1
check("0.1", "sigmoid")

# %%
# NBGRADER_TESTS test_relu 1
check("0.1", "relu")

# %%
# NBGRADER_TESTS test_log_exp 1
check("0.1", "log")
check("0.1", "exp")

# %%
# NBGRADER_TESTS test_inv 1
check("0.1", "inv")

# %%
# NBGRADER_TESTS test_log_back 1
check("0.1", "log_back")

# %%
# NBGRADER_TESTS test_inv_back 1
check("0.1", "inv_back")

# %%
# NBGRADER_TESTS test_relu_back 1
check("0.1", "relu_back")

# %% [markdown]
# ## Task 0.2: properties
#
# A test of a few chosen inputs shows that a function is right there; a *property* says what
# must hold for every input, and a test of it runs on many drawn at random (MiniTorch's tests
# use the `hypothesis` library for that). The course asks for four: `sigmoid` stays within
# [0, 1], `1 - sigmoid(a)` is `sigmoid(-a)`, `sigmoid(0)` is 0.5 and it never decreases;
# `lt` is transitive (`a < b` and `b < c` give `a < c`); `mul` is symmetric; and `mul`
# distributes over `add`: `z * (x + y) == z * x + z * y`, within `is_close`.
#
# Write each as a function that asserts it for the numbers it is given:

# %%
def prop_sigmoid(a):
    """sigmoid(a) is in [0, 1], 1 - sigmoid(a) is close to sigmoid(-a), sigmoid(0) is close to
    0.5, and sigmoid(a + 1) >= sigmoid(a)."""
    ### BEGIN SOLUTION
    s = operators.sigmoid(a)
    assert 0.0 <= s <= 1.0
    assert operators.is_close(1.0 - s, operators.sigmoid(-a))
    assert operators.is_close(operators.sigmoid(0.0), 0.5)
    assert operators.sigmoid(a + 1.0) >= s
    ### END SOLUTION


def prop_transitive(a, b, c):
    """lt(a, b) and lt(b, c) give lt(a, c)."""
    ### BEGIN SOLUTION
    if operators.lt(a, b) and operators.lt(b, c):
        assert operators.lt(a, c) == 1.0
    ### END SOLUTION


def prop_symmetric(x, y):
    """mul(x, y) equals mul(y, x)."""
    ### BEGIN SOLUTION
    assert operators.mul(x, y) == operators.mul(y, x)
    ### END SOLUTION


def prop_distribute(x, y, z):
    """mul(z, add(x, y)) is close to add(mul(z, x), mul(z, y))."""
    ### BEGIN SOLUTION
    assert operators.is_close(operators.mul(z, operators.add(x, y)),
                              operators.add(operators.mul(z, x), operators.mul(z, y)))
    ### END SOLUTION

# %% [markdown]
# Your properties run on 200 draws of numbers in [-100, 100], as `hypothesis` draws them:

# %%
import random

random.seed(0)
for _ in range(200):
    a, b, c = [random.uniform(-100, 100) for _ in range(3)]
    prop_sigmoid(a)
    prop_transitive(a, b, c)
    prop_symmetric(a, b)
    prop_distribute(a, b, c)
print("200 draws: every property holds")

# %% [markdown]
# `check("0.2")` asserts the same properties of your operators on its own draws (it grades
# your operators, not your tests: a property that fails here is a bug in `operators.py`):

# %%
# NBGRADER_TESTS test_properties 2
check("0.2")

# %% [markdown]
# ## Task 0.3: higher-order functions
#
# `map`, `zipWith` and `reduce` take a function and return a new one that applies it over lists:
# `map(neg)` is the function that negates every element of a list, `zipWith(add)` adds two lists
# position by position, and `reduce(add, 0.0)` folds a list into its sum, starting from `0.0`.
# Tensors (Module 2) have the same three operations over whole arrays, and Module 3 makes them
# fast. Write them at the end of the `operators.py` cell above (then run it again), and the four
# list functions with them: each is a line.

# %%
print(operators.negList([1.0, -2.0, 3.5]))
print(operators.addLists([1.0, 2.0, 3.0], [10.0, 20.0, 30.0]))
print(operators.sum([1.0, 2.0, 3.0, 4.0]), operators.prod([1.0, 2.0, 3.0, 4.0]))
print(operators.reduce(operators.max, -1e9)([3.0, 7.0, -1.0]))

# %% [markdown]
# The graded tests: each higher-order function with the list functions made from it.

# %%
# NBGRADER_TESTS test_map_negList 3
check("0.3", "map")
check("0.3", "negList")

# %%
# NBGRADER_TESTS test_zipWith_addLists 3
check("0.3", "zipWith")
check("0.3", "addLists")

# %%
# NBGRADER_TESTS test_reduce_sum_prod 3
check("0.3", "reduce")
check("0.3", "sum")
check("0.3", "prod")

# %% [markdown]
# ## Task 0.4: modules
#
# A network is a tree of modules: each `Module` holds its own parameters and its child modules,
# both found by name. Assigning a `Parameter` or a `Module` to an attribute (`self.w =
# Parameter(...)`, `self.layer = Linear(...)`) files it in the module's `_parameters` or
# `_modules` dict (the given `__setattr__` does it), and a module is in training or evaluation
# mode (`training`). Write the methods that walk the tree: `train()` and `eval()` set the mode of
# the module and of every module below it; `named_parameters()` gives every parameter of the
# tree with its path of names (`"layer1.weight"`, a parameter of the child `layer1`), and
# `parameters()` the parameters alone.

# %%
%%minitorch_file module.py
from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Tuple


class Module:
    """A node of a network's tree: its own parameters (_parameters), its child modules
    (_modules), and whether it is training (training)."""

    _modules: Dict[str, Module]
    _parameters: Dict[str, Parameter]
    training: bool

    def __init__(self) -> None:
        self._modules = {}
        self._parameters = {}
        self.training = True

    def modules(self) -> Sequence[Module]:
        """The module's children (not their children)."""
        m: Dict[str, Module] = self.__dict__["_modules"]
        return list(m.values())

    def train(self) -> None:
        """Puts this module and every module below it in training mode."""
        ### BEGIN SOLUTION
        self.training = True
        for child in self.__dict__["_modules"].values():
            child.train()
        ### END SOLUTION

    def eval(self) -> None:
        """Puts this module and every module below it in evaluation mode."""
        ### BEGIN SOLUTION
        self.training = False
        for child in self.__dict__["_modules"].values():
            child.eval()
        ### END SOLUTION

    def named_parameters(self) -> Sequence[Tuple[str, Parameter]]:
        """Every parameter of this module and of the modules below it, each with its name: its
        own name for this module's, and the child's name, a dot and the name within the child
        for a child's ("layer1.weight")."""
        ### BEGIN SOLUTION
        found = list(self.__dict__["_parameters"].items())
        for name, child in self.__dict__["_modules"].items():
            for sub, p in child.named_parameters():
                found.append((name + "." + sub, p))
        return found
        ### END SOLUTION

    def parameters(self) -> Sequence[Parameter]:
        """Every parameter of this module and of the modules below it."""
        ### BEGIN SOLUTION
        return [p for _, p in self.named_parameters()]
        ### END SOLUTION

    def add_parameter(self, k: str, v: Any) -> Parameter:
        """Makes v a parameter of this module named k, and returns it."""
        val = Parameter(v, k)
        self.__dict__["_parameters"][k] = val
        return val

    def __setattr__(self, key: str, val: Any) -> None:
        if isinstance(val, Parameter):
            self.__dict__["_parameters"][key] = val
        elif isinstance(val, Module):
            self.__dict__["_modules"][key] = val
        else:
            super().__setattr__(key, val)

    def __getattr__(self, key: str) -> Any:
        if key in self.__dict__["_parameters"]:
            return self.__dict__["_parameters"][key]
        if key in self.__dict__["_modules"]:
            return self.__dict__["_modules"][key]
        return None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.forward(*args, **kwargs)

    def __repr__(self) -> str:
        lines = [self.__class__.__name__ + "("]
        for key, module in self._modules.items():
            inner = repr(module).split("\n")
            lines.append("  (" + key + "): " + inner[0])
            lines += ["  " + line for line in inner[1:]]
        if len(lines) == 1:
            return lines[0] + ")"
        return "\n".join(lines) + "\n)"


class Parameter:
    """A value a module trains (a number here; a Scalar or a tensor in later modules), with its
    name."""

    def __init__(self, x: Any, name: Optional[str] = None) -> None:
        self.value = x
        self.name = name
        if hasattr(x, "requires_grad_"):
            self.value.requires_grad_(True)
            if self.name:
                self.value.name = self.name

    def update(self, x: Any) -> None:
        """Replaces the value."""
        self.value = x
        if hasattr(x, "requires_grad_"):
            self.value.requires_grad_(True)
            if self.name:
                self.value.name = self.name

    def __repr__(self) -> str:
        return repr(self.value)

    def __str__(self) -> str:
        return str(self.value)

# %% [markdown]
# A small network as a tree: two layers, each with a weight and a bias, and a scale of its own.
# `tree()` draws it from your methods: each module with its mode, and under it the names your
# `named_parameters()` gives its parameters (the full path, as an optimizer sees them).

# %%
from minitorch import Module, Parameter


class Layer(Module):
    def __init__(self, w, b):
        super().__init__()
        self.weight = Parameter(w)
        self.bias = Parameter(b)


class Network(Module):
    def __init__(self):
        super().__init__()
        self.scale = Parameter(0.5)
        self.layer1 = Layer(2.0, -1.0)
        self.layer2 = Layer(3.0, 0.25)

    def forward(self, x):
        h = operators.relu(self.layer1.weight.value * x + self.layer1.bias.value)
        return self.scale.value * (self.layer2.weight.value * h + self.layer2.bias.value)


def tree(root):
    """The module tree drawn as text: each module with its mode, and under it the parameters
    that root.named_parameters() names with that module's path."""
    named = root.named_parameters()

    def draw(module, name, path, indent):
        mode = "training" if module.training else "eval"
        print(f"{indent}{name}: {type(module).__name__} ({mode})")
        for full, p in named:
            if full.startswith(path) and "." not in full[len(path):]:
                print(f"{indent}    {full} = {p.value}")
        for child_name, child in module._modules.items():
            draw(child, child_name, path + child_name + ".", indent + "    ")

    draw(root, "(root)", "", "")


net = Network()
net.layer2.eval()
tree(net)
print([name for name, _ in net.named_parameters()])
print(len(net.parameters()), "parameters; net(1.5) =", net(1.5))

# %%
net.eval()
tree(net)
net.train()
print(net.training, net.layer1.training, net.layer2.training)

# %% [markdown]
# The graded tests of Task 0.4 build trees of the course's test modules, of random sizes
# (`modules()` is given code, so it has no graded cell):

# %%
# NBGRADER_TESTS test_train 2
check("0.4", "train")

# %%
# NBGRADER_TESTS test_eval 2
check("0.4", "eval")

# %%
# NBGRADER_TESTS test_named_parameters 2
check("0.4", "named_parameters")

# %%
# NBGRADER_TESTS test_parameters 2
check("0.4", "parameters")

# %% [markdown]
# Last, each task whole, as the course runs its tests: `modules()` (given) is in Task 0.4's.
# These cells are not graded (the cells above are), but they are the course's tests.

# %%
check("0.1")
check("0.2")

# %%
check("0.3")
check("0.4")
