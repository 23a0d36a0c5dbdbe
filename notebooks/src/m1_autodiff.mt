# %% [markdown]
# # Module 1 · Autodiff
#
# MiniTorch's Module 1 builds **automatic differentiation** on single numbers. A `Scalar` is a
# float that remembers how it was computed: every operation on it is a `ScalarFunction` with a
# `forward` (the value) and a `backward` (the derivative), and the result keeps a *history*, the
# function and its inputs. Calling `backward()` on a result walks that history back and gives
# every `Scalar` it came from its derivative. Then (Task 1.5) a small network of Scalars learns
# to separate two classes of points.
#
# The tasks, as the course numbers them:
#
# | task | you write | in |
# |---|---|---|
# | 1.1 | `central_difference`: a derivative estimated from two values of the function | `autodiff.py` |
# | 1.2 | the `forward` of `Mul Inv Neg Sigmoid ReLU Exp LT EQ`; Scalar's operators | `scalar_functions.py`, `scalar.py` |
# | 1.3 | `chain_rule`: from a result's derivative to its inputs' | `scalar.py` |
# | 1.4 | `topological_sort`, `backpropagate`; the `backward` of each function | `autodiff.py`, `scalar_functions.py` |
# | 1.5 | `Linear.forward` and `Network`, trained on the course's datasets | below |
#
# ## Your files
#
# In the course these are files of the `minitorch` package. Here each is a cell that starts with
# `%%minitorch_file NAME.py`: running it runs the file as the module `minitorch.NAME`, with its
# imports as written (`from .autodiff import Context`), so the code is MiniTorch's and pastes in
# and out unchanged. Your code goes where the template raises `NotImplementedError()`; run the
# three cells in this order after every change (each imports the one before), then the checks.
#
# `operators.py` is Module 0's: until you write yours in a cell `%%minitorch_file operators.py`
# above these, `minitorch.operators` is the kernel's (`mul add neg lt eq sigmoid relu log exp
# inv log_back inv_back relu_back ...`, MiniTorch's functions). Its `log(x)` is MiniTorch's,
# `math.log(x + 1e-6)`.
#
# **autodiff.py** — `central_difference` (Task 1.1); `Variable`, the protocol `Scalar`
# implements; `topological_sort` and `backpropagate` (Task 1.4); `Context`, where a function's
# forward keeps what its backward needs.

# %% file kernel/lib/minitorch/autodiff.py
# replace: from minitorch import central_difference


def central_difference(f: Any, *vals: Any, arg: int = 0, epsilon: float = 1e-6) -> Any:
    """An estimate of the derivative of f(*vals) with respect to vals[arg]: the central
    difference with step epsilon."""
    ### BEGIN SOLUTION
    up = list(vals)
    down = list(vals)
    up[arg] = up[arg] + epsilon
    down[arg] = down[arg] - epsilon
    return (f(*up) - f(*down)) / (2 * epsilon)
    ### END SOLUTION

# %% [markdown]
# **scalar_functions.py** — `ScalarFunction.apply` runs `forward` on the inputs' floats in a
# fresh `Context` and wraps the result in a `Scalar` whose history records the function, the
# context and the inputs. `Add` and `Log` are given whole; the others are yours: `forward`
# (Task 1.2) computes with `operators`, saving in `ctx` what `backward` (Task 1.4) will need.

# %% file kernel/lib/minitorch/scalar_functions.py

# %% [markdown]
# **scalar.py** — `Scalar` and its operators (Task 1.2: each is one of the functions above,
# `a - b` is `a + (-b)`), `chain_rule` (Task 1.3), and `derivative_check`, which compares
# `backward()` with central differences.

# %% file kernel/lib/minitorch/scalar.py

# %% [markdown]
# ## Task 1.1: central difference
#
# The derivative of $f$ at $x$ is the slope of $f$ over a vanishing interval around $x$. With a
# small but finite step $\epsilon$ the symmetric (central) difference
#
# $$f'(x) \approx \frac{f(x + \epsilon) - f(x - \epsilon)}{2\epsilon}$$
#
# is off by a term in $\epsilon^2$ only. For a function of several arguments, step one of them,
# `vals[arg]`, and keep the others. Being two evaluations of `f`, it is the reference every
# derivative of this module is checked against; and it is what autodiff avoids, since it needs
# two runs of `f` per argument.
#
# `check("1.1")` calls your `central_difference` on functions whose derivatives are known and
# compares. Like every check of this notebook, it prints a line per test and, for a failure, the
# first input that fails with what was expected and what your code gave (or the error it raised,
# with your line); the cell then fails. Its inputs are drawn afresh each time (the seed is
# printed: `check("1.1", seed=N)` draws them again).

# %%
# NBGRADER_TESTS test_central_difference 5
check("1.1")

# %% [markdown]
# The estimate beside the exact derivative: `operators.sigmoid` and its derivative
# $\sigma(x)(1 - \sigma(x))$, and `operators.relu`, whose derivative jumps at 0. The central
# difference follows the smooth one exactly; at the kink it sees half of each side. The
# pictures are SVG drawn by the cell below (given code: it shows them with `IPython.display.HTML`,
# scaled down where the output area is narrower than the drawing).

# %%
from IPython.display import HTML, display, update_display


def esc(text):
    """text made safe inside an SVG element"""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def is_leaf(s):
    return s.history is None or s.history.last_fn is None


def picture(width, height, parts):
    """The SVG parts as a drawing of width x height pixels, scaled down where the output area is
    narrower (an open side panel, a small window)."""
    return HTML(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
                f'viewBox="0 0 {width} {height}" style="max-width:100%;height:auto" '
                f'font-family="sans-serif" font-size="11">' + "\n".join(parts) + "</svg>")


def num(v):
    """v with 4 decimals, without the sign of a value that rounds to 0"""
    text = f"{v:.4f}"
    return "0.0000" if text == "-0.0000" else text


def graph_svg(out):
    """The graph that made the Scalar `out`, as an SVG picture: a box per Scalar with its name,
    value and (for a leaf, after backward) derivative; arrows from each input to the result,
    labelled with the ScalarFunction that made it. Each result is one column right of its
    deepest input, and each leaf just left of the first result that uses it."""
    seen = {}
    stack = [out]
    while stack:
        s = stack.pop()
        if s.unique_id in seen:
            continue
        seen[s.unique_id] = s
        if not is_leaf(s):
            stack.extend(s.history.inputs)
    # inputs are made before their result: in the order of unique_id, every input comes first
    ids = sorted(seen.keys())
    made = [i for i in ids if not is_leaf(seen[i])]
    depth = {}
    for i in made:
        depth[i] = 1 + max(depth.get(x.unique_id, 0) for x in seen[i].history.inputs)
    # a leaf goes in the column just left of the first result that uses it
    for i in made:
        for x in seen[i].history.inputs:
            if is_leaf(x):
                depth[x.unique_id] = min(depth.get(x.unique_id, depth[i] - 1), depth[i] - 1)
    if not made:
        depth[out.unique_id] = 0
    low = min(depth.values())
    columns = {}
    for i in ids:
        depth[i] -= low
        columns.setdefault(depth[i], []).append(i)
    # in each column the results first, in the order of the mean row of their inputs (so that
    # arrows cross less), then the leaves
    place = {}
    for d in sorted(columns.keys()):
        results = [i for i in columns[d] if not is_leaf(seen[i])]
        results = sorted(results, key=lambda i: sum(place[x.unique_id][1] for x in
                                                    seen[i].history.inputs)
                         / len(seen[i].history.inputs))
        leaves = [i for i in columns[d] if is_leaf(seen[i])]
        for r, i in enumerate(results + leaves):
            place[i] = (d, r)
    rows = {d: len(columns[d]) for d in columns}
    box_w, box_h, col_w, row_h = 128, 50, 190, 66
    width = 20 + (max(depth.values()) + 1) * col_w - (col_w - box_w)
    height = 20 + max(rows.values()) * row_h
    parts = [
        '<defs><marker id="mt-arrow" viewBox="0 0 8 8" refX="8" refY="4" markerWidth="7" '
        'markerHeight="7" orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="#666"/></marker></defs>',
    ]

    def corner(i):
        d, r = place[i]
        return 10 + d * col_w, 10 + r * row_h

    for i in ids:
        s = seen[i]
        if is_leaf(s):
            continue
        x1, y1 = corner(i)
        for inp in s.history.inputs:
            x0, y0 = corner(inp.unique_id)
            sx, sy, ex, ey = x0 + box_w, y0 + box_h / 2, x1, y1 + box_h / 2
            mx = (sx + ex) / 2
            parts.append(f'<path d="M{sx},{sy} C{mx},{sy} {mx},{ey} {ex},{ey}" fill="none" '
                         'stroke="#666" marker-end="url(#mt-arrow)"/>')
        parts.append(f'<text x="{x1 - 10}" y="{y1 + box_h / 2 - 6}" text-anchor="end" '
                     f'fill="#a33" font-weight="bold">{esc(s.history.last_fn.__name__)}</text>')
    for i in ids:
        s = seen[i]
        x, y = corner(i)
        fill = "#fde9d9" if s is out else ("#dbe9f6" if is_leaf(s) else "#ffffff")
        # a Scalar without a name of yours is numbered in the picture (its unique_id counts
        # every Scalar this session made, the checks' too)
        name = s.name if not s.name.isdigit() else f"#{ids.index(i) + 1}"
        parts.append(f'<rect x="{x}" y="{y}" width="{box_w}" height="{box_h}" rx="6" '
                     f'fill="{fill}" stroke="#333"/>')
        parts.append(f'<text x="{x + 8}" y="{y + 15}" font-weight="bold">{esc(name)}</text>')
        parts.append(f'<text x="{x + 8}" y="{y + 30}">data {num(s.data)}</text>')
        if s.derivative is not None:
            parts.append(f'<text x="{x + 8}" y="{y + 44}" fill="#1a6">'
                         f'derivative {num(s.derivative)}</text>')
    return picture(width, height, parts)


def line_chart(xs, series, title, width=460, height=270):
    """An SVG line chart of several series over the same xs: series is a list of
    (label, ys, colour, dots), dots drawing points instead of a line."""
    left, right, top, bottom = 50, 130, 28, 30
    lo = min(min(ys) for _, ys, _, _ in series)
    hi = max(max(ys) for _, ys, _, _ in series)
    if hi - lo < 1e-9:
        hi = lo + 1.0
    x0, x1 = xs[0], xs[-1]
    pw, ph = width - left - right, height - top - bottom

    def px(x):
        return left + (x - x0) / (x1 - x0) * pw

    def py(y):
        return top + (hi - y) / (hi - lo) * ph

    parts = [
        f'<text x="{left}" y="16" font-size="13">{esc(title)}</text>',
        f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="#999"/>',
    ]
    if lo < 0 < hi:
        parts.append(f'<line x1="{left}" y1="{py(0):.1f}" x2="{left + pw}" y2="{py(0):.1f}" '
                     'stroke="#ccc"/>')
    for y in [lo, hi]:
        parts.append(f'<text x="{left - 4}" y="{py(y) + 4:.1f}" text-anchor="end">{y:.2f}</text>')
    for x in [x0, x1]:
        parts.append(f'<text x="{px(x):.1f}" y="{top + ph + 14}" text-anchor="middle">{x:g}</text>')
    for k, (label, ys, colour, dots) in enumerate(series):
        if dots:
            for x, y in zip(xs, ys):
                parts.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="2.5" fill="{colour}"/>')
        else:
            pts = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in zip(xs, ys))
            parts.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" '
                         'stroke-width="2"/>')
        ly = top + 10 + 16 * k
        parts.append(f'<rect x="{left + pw + 10}" y="{ly - 7}" width="12" height="8" '
                     f'fill="{colour}"/>')
        parts.append(f'<text x="{left + pw + 26}" y="{ly}">{esc(label)}</text>')
    return picture(width, height, parts)


def mix(p):
    """a colour between blue (probability 0) and red (1)"""
    r = int(70 + 170 * p)
    g = int(120 - 40 * abs(2 * p - 1))
    b = int(240 - 170 * p)
    return f"rgb({r},{g},{b})"


def boundary_svg(predict, data, losses, title, grid=15):
    """The decision boundary of predict(x1, x2) (a probability) over the unit square, with
    the points of data on top (MiniTorch's Graph: X and y), beside the loss per epoch."""
    size, gap, lw, lh = 240, 40, 260, 240
    cell = size / grid
    parts = [f'<text x="0" y="14" font-size="13">{esc(title)}</text>']
    for i in range(grid):
        for j in range(grid):
            p = predict((i + 0.5) / grid, (j + 0.5) / grid)
            parts.append(f'<rect x="{i * cell:.1f}" y="{24 + size - (j + 1) * cell:.1f}" '
                         f'width="{cell:.1f}" height="{cell:.1f}" fill="{mix(p)}" '
                         'fill-opacity="0.45" shape-rendering="crispEdges"/>')
    for (x1, x2), label in zip(data.X, data.y):
        parts.append(f'<circle cx="{x1 * size:.1f}" cy="{24 + size - x2 * size:.1f}" r="4" '
                     f'fill="{mix(float(label))}" stroke="#222"/>')
    parts.append(f'<rect x="0" y="24" width="{size}" height="{size}" fill="none" stroke="#999"/>')
    ox = size + gap
    parts.append(f'<rect x="{ox}" y="24" width="{lw}" height="{lh}" fill="none" stroke="#999"/>')
    parts.append(f'<text x="{ox}" y="{24 + lh + 14}">loss per epoch</text>')
    if len(losses) > 1:
        hi = max(losses)
        n = len(losses)
        pts = " ".join(f"{ox + k / (n - 1) * lw:.1f},{24 + lh - l / hi * lh:.1f}"
                       for k, l in enumerate(losses))
        parts.append(f'<polyline points="{pts}" fill="none" stroke="#a33" stroke-width="2"/>')
        parts.append(f'<text x="{ox + 4}" y="38">{hi:.1f}</text>')
    return picture(size + gap + lw + 20, size + 40, parts)

# %%
from minitorch import operators
from minitorch.autodiff import central_difference

xs = [i / 10 for i in range(-40, 41)]
display(line_chart(xs, [
    ("sigmoid", [operators.sigmoid(x) for x in xs], "#bbb", False),
    ("its derivative", [operators.sigmoid(x) * (1 - operators.sigmoid(x)) for x in xs], "#333", False),
    ("central difference", [central_difference(operators.sigmoid, x) for x in xs], "#d62", True),
], "sigmoid: derivative and central difference"))
display(line_chart(xs, [
    ("relu", [operators.relu(x) for x in xs], "#bbb", False),
    ("its derivative", [1.0 if x > 0 else 0.0 for x in xs], "#333", False),
    ("central difference", [central_difference(operators.relu, x) for x in xs], "#d62", True),
], "relu: derivative and central difference"))
print("at the kink: central_difference(relu, 0.0) =", round(central_difference(operators.relu, 0.0), 6))

# %% [markdown]
# ## Task 1.2: Scalars and their functions, forward
#
# `Scalar(2.0)` wraps a float; `Scalar(2.0, name="x")` names it for the pictures. Each operator
# calls a function's `apply`, which returns a new `Scalar` with a history: `x * y` is
# `Mul.apply(x, y)`, `-x` is `Neg.apply(x)`, `x < y` is `LT.apply(x, y)` (1.0 or 0.0),
# `x.sigmoid()` is `Sigmoid.apply(x)`. A plain number in an operation is wrapped in a `Scalar`
# by `apply`. Division is given, as `Mul` and `Inv`.

# %%
from minitorch import Scalar

x = Scalar(2.0, name="x")
y = Scalar(-1.5, name="y")
z = (x * y + x.exp()).sigmoid() - y
print(z, " made by", z.history.last_fn.__name__, "from", [round(v.data, 6) for v in z.history.inputs])

# %% [markdown]
# `z`'s history, and its inputs' histories, are the **computation graph**: each box a `Scalar`
# (its `name`, or a number in the picture) with its value, each arrow an input, labelled with the
# function that made the result. Leaves, the Scalars you made, are blue; `z` is orange. Columns
# go by depth, so every arrow points right:

# %%
graph_svg(z)

# %% [markdown]
# `check("1.2", part)` tests one function's forward alone: `check("1.2", "mul")` runs
# `Mul.apply` and `a * b` on your Scalars and compares `.data`, and so on for each part. These
# are the graded tests, a cell each, so that a mistake in one function costs that function only.

# %%
# NBGRADER_TESTS test_forward_mul 2
check("1.2", "mul")

# %%
# NBGRADER_TESTS test_forward_inv 2
check("1.2", "inv")

# %%
# NBGRADER_TESTS test_forward_neg 2
check("1.2", "neg")

# %%
# NBGRADER_TESTS test_forward_sigmoid 2
check("1.2", "sigmoid")

# %%
# NBGRADER_TESTS test_forward_relu 2
check("1.2", "relu")

# %%
# NBGRADER_TESTS test_forward_exp 2
check("1.2", "exp")

# %%
# NBGRADER_TESTS test_forward_lt 2
check("1.2", "lt")

# %%
# NBGRADER_TESTS test_forward_eq 2
check("1.2", "eq")

# %% [markdown]
# Then the whole task as the course tests it: MiniTorch's `MathTest` expressions (`a * a * a`,
# `a / 5`, `(a + 100000).log() + (a - 200).exp()`, ...) on your Scalars, which combine your
# functions with the given `Add` and `Log`. Not graded on its own (the parts above are).

# %%
check("1.2")

# %% [markdown]
# ## Task 1.3: the chain rule
#
# A result $z = f(x, y)$ made by one function knows, through its history, the function, the
# context its forward filled and its inputs. Given $\partial L / \partial z$ (the derivative of the
# final output $L$ with respect to $z$, `d_output`), `z.chain_rule(d_output)` returns, for each
# input that is not a constant, the pair (input, $\partial L / \partial x_i = f'_i \cdot
# \partial L / \partial z$), the $f'_i$ coming from the function's `backward(ctx, d_output)`
# (through `_backward`, which makes its result a tuple).
#
# For $z = x \cdot y$ at $x = 3$, $y = 4$ and `d_output` 2, the pairs are $(x, 2 y) = (x, 8)$ and
# $(y, 2 x) = (y, 6)$:

# %%
x = Scalar(3.0, name="x")
y = Scalar(4.0, name="y")
z = x * y
[(v.name, d) for v, d in z.chain_rule(2.0)]

# %% [markdown]
# `check("1.3")` runs MiniTorch's chain-rule tests: a `ScalarFunction` of its own (so your
# `backward`s do not matter here) applied to Scalars, and to a number and a Scalar.

# %%
# NBGRADER_TESTS test_chain_rule 4
check("1.3")

# %% [markdown]
# ## Task 1.4: backpropagation
#
# `chain_rule` takes one step back. `backpropagate(variable, deriv)` takes them all: starting
# from the output with derivative `deriv`, it visits the graph in **topological order** (the
# output first, and every Scalar before each Scalar it was computed from), so that when a
# Scalar's turn comes, the derivatives from every result it went into have been added up. It
# then pushes that sum to its inputs with `chain_rule`; a leaf instead keeps it
# (`accumulate_derivative`). `topological_sort(variable)` gives that order: each non-constant
# Scalar once, the output first. A Scalar used twice (a diamond in the graph) must be visited
# once, after both of its uses.
#
# `backward` of each function gives its inputs' derivatives from what its `forward` saved in
# `ctx`: for `Mul` $(b \cdot d, a \cdot d)$, for `Inv` $-d / a^2$ (`operators.inv_back`), for
# `ReLU` `operators.relu_back`, for `Sigmoid` $\sigma(a)(1 - \sigma(a)) \cdot d$, for `Exp`
# $e^a \cdot d$; `LT` and `EQ` are flat: $(0, 0)$.
#
# The graded tests: `topological_sort` and `backpropagate` on MiniTorch's test graphs (built with
# a function of check's own), then each function's `backward` alone (called on a `Context` its
# own `forward` filled).

# %%
# NBGRADER_TESTS test_topological_sort 5
check("1.4", "topological_sort")

# %%
# NBGRADER_TESTS test_backpropagate 5
check("1.4", "backpropagate")

# %%
# NBGRADER_TESTS test_backward_mul 2
check("1.4", "mul")

# %%
# NBGRADER_TESTS test_backward_inv 2
check("1.4", "inv")

# %%
# NBGRADER_TESTS test_backward_neg 2
check("1.4", "neg")

# %%
# NBGRADER_TESTS test_backward_sigmoid 2
check("1.4", "sigmoid")

# %%
# NBGRADER_TESTS test_backward_relu 2
check("1.4", "relu")

# %%
# NBGRADER_TESTS test_backward_exp 2
check("1.4", "exp")

# %%
# NBGRADER_TESTS test_backward_lt 2
check("1.4", "lt")

# %%
# NBGRADER_TESTS test_backward_eq 2
check("1.4", "eq")

# %% [markdown]
# And the whole task: MiniTorch's derivative tests, every `MathTest` expression's `backward()`
# on your Scalars against central differences.

# %%
check("1.4")

# %% [markdown]
# The graph of Task 1.2 again, after `z.backward()`: each leaf now has its derivative, the
# derivative of `z` with respect to it. (Intermediate Scalars keep none: `backpropagate` passes
# theirs on.)

# %%
x = Scalar(2.0, name="x")
y = Scalar(-1.5, name="y")
z = (x * y + x.exp()).sigmoid() - y
z.backward()
graph_svg(z)

# %% [markdown]
# `x` is used twice, by `Mul` and by `Exp`: its derivative is the sum of both paths'. The same
# with numbers: $\partial z / \partial x = \sigma'(u) (y + e^x)$ with $u = xy + e^x$, and
# $\partial z / \partial y = \sigma'(u) x - 1$:

# %%
from minitorch import operators

u = 2.0 * -1.5 + operators.exp(2.0)
s = operators.sigmoid(u) * (1 - operators.sigmoid(u))
print("by hand:  ", round(s * (-1.5 + operators.exp(2.0)), 6), round(s * 2.0 - 1, 6))
print("backward: ", round(x.derivative, 6), round(y.derivative, 6))

# %% [markdown]
# ### Derivatives beside central differences
#
# Over a range of inputs: a function of one Scalar, the derivative `backward()` gives (a line) and
# the central difference of Task 1.1 (dots). Where they part, a `backward` is wrong. At $x = 1$
# the `relu` term makes the derivative jump; the central difference there sees half of each
# side.

# %%
def f(x):
    return (x * x - 2.0).sigmoid() * x + (x - 1.0).relu()


xs = [i / 10 for i in range(-30, 31)]
values = []
grads = []
diffs = []
for v in xs:
    x = Scalar(v)
    out = f(x)
    out.backward()
    values.append(out.data)
    grads.append(x.derivative)
    diffs.append(central_difference(f, Scalar(v)).data)
line_chart(xs, [
    ("f(x)", values, "#bbb", False),
    ("backward()", grads, "#333", False),
    ("central difference", diffs, "#d62", True),
], "f(x) = sigmoid(x * x - 2) * x + relu(x - 1)")

# %% [markdown]
# MiniTorch's own check of this, `derivative_check(f, *scalars)` (in your `scalar.py`), runs
# `backward()` and asserts that each argument's derivative is within 1e-2 of the central
# difference, printing the arguments, the derivative, the argument's number and the estimate:

# %%
import minitorch

minitorch.derivative_check(lambda a, b: (a * b + a * a) / b, Scalar(1.5), Scalar(0.7))

# %% [markdown]
# ## Task 1.5: training a network of Scalars
#
# MiniTorch's `project/run_scalar.py` trains a classifier of points in the unit square: two
# inputs, two hidden layers of `hidden` units with ReLU, one output through a sigmoid, the
# probability of class 1. Everything is Scalars: each weight is a `Parameter` of a `Module`
# (Module 0), the loss is built from your functions, `backward()` is your `backpropagate`, and
# `SGD` moves each weight against its derivative.
#
# Yours: `Linear.forward` (each output `j` is `bias[j]` plus the sum over inputs `i` of
# `inputs[i] * weights[i][j]`, the parameters' `.value`s) and `Network.__init__` (its three
# layers, `layer1` from 2 to `hidden`, `layer2` from `hidden` to `hidden`, `layer3` from
# `hidden` to 1). `minitorch.Module` and `Parameter` are the kernel's, as MiniTorch's
# `module.py` has them (your `module.py` of Module 0, in a `%%minitorch_file module.py` cell
# above, takes their place), and so is `SGD` (MiniTorch's `optim.py`).

# %%
import random

import minitorch
from minitorch import Scalar


class Network(minitorch.Module):
    def __init__(self, hidden_layers):
        super().__init__()
        ### BEGIN SOLUTION
        self.layer1 = Linear(2, hidden_layers)
        self.layer2 = Linear(hidden_layers, hidden_layers)
        self.layer3 = Linear(hidden_layers, 1)
        ### END SOLUTION

    def forward(self, x):
        middle = [h.relu() for h in self.layer1.forward(x)]
        end = [h.relu() for h in self.layer2.forward(middle)]
        return self.layer3.forward(end)[0].sigmoid()


class Linear(minitorch.Module):
    def __init__(self, in_size, out_size):
        super().__init__()
        # weights[i][j] from input i to output j, and bias[j]: uniform in [-1, 1)
        self.weights = []
        self.bias = []
        for i in range(in_size):
            self.weights.append([])
            for j in range(out_size):
                w = minitorch.Scalar(2 * (random.random() - 0.5), name=f"weight_{i}_{j}")
                self.weights[i].append(self.add_parameter(f"weight_{i}_{j}", w))
        for j in range(out_size):
            b = minitorch.Scalar(2 * (random.random() - 0.5), name=f"bias_{j}")
            self.bias.append(self.add_parameter(f"bias_{j}", b))

    def forward(self, inputs):
        ### BEGIN SOLUTION
        out = [b.value for b in self.bias]
        for i, x in enumerate(inputs):
            for j in range(len(out)):
                out[j] = out[j] + x * self.weights[i][j].value
        return out
        ### END SOLUTION

# %% [markdown]
# Before training them, `check("1.5", part)` grades the two classes: `"Linear"` runs
# `Linear.forward` and checks each output and the derivatives `backward()` leaves in the
# inputs, the weights and the biases; `"Network"` checks the three layers' sizes, the number of
# parameters and the output; `"training"` runs three epochs of the course's loop (below), check
# taking each SGD step, and compares the loss and every parameter after each epoch with its
# own. check gives the parameters values of its own draws, and runs your classes on Scalars of
# its own, so that this task's grade is your network's alone (Tasks 1.2 to 1.4 grade your
# Scalars). It leaves `random` as it found it.

# %%
# NBGRADER_TESTS test_linear 2
check("1.5", "Linear")

# %%
# NBGRADER_TESTS test_network 2
check("1.5", "Network")

# %%
# NBGRADER_TESTS test_training 2
check("1.5", "training")

# %% [markdown]
# A first look, untrained: the network's output for one point, and its graph, which is already
# large for 2 hidden units (the same graph is built anew for every point of every epoch).

# %%
random.seed(3)
net = Network(2)
out = net.forward((Scalar(0.2, name="x_1"), Scalar(0.7, name="x_2")))
print(out, " parameters:", len(net.parameters()))
graph_svg(out)

# %% [markdown]
# The training loop, as the course's: every epoch runs every point forward, adds the binary
# cross-entropy of its probability ($-\log p$ of the right class) to the total, and
# backpropagates it divided by the number of points, so that the derivatives that pile up in
# the weights are those of the mean loss; then one SGD step. Every `every` epochs the picture is
# redrawn in place (`update_display` with the `display_id` of its first `display`): the decision
# boundary (the network's probability on a grid over the square, blue for class 0, red for 1)
# under the points, and the loss so far.

# %%
def one_epoch(model, data):
    """Backpropagates the mean loss over data into the model's parameters; returns the total
    loss and how many points the model classified correctly before the step."""
    total = 0.0
    correct = 0
    for (x_1, x_2), label in zip(data.X, data.y):
        out = model.forward((Scalar(x_1), Scalar(x_2)))
        prob = out if label == 1 else -out + 1.0
        correct += 1 if (out.data > 0.5) == (label == 1) else 0
        loss = -prob.log()
        (loss / data.N).backward()
        total += loss.data
    return total, correct


def train_scalar(data, hidden, rate, epochs, every, name):
    """A new Network(hidden) trained on data with SGD; the picture redrawn every `every`
    epochs under the display id `name`. Returns the model and the loss of every epoch."""
    model = Network(hidden)
    optim = minitorch.SGD(model.parameters(), rate)
    losses = []

    def predict(x_1, x_2):
        return model.forward((Scalar(x_1), Scalar(x_2))).data

    display(boundary_svg(predict, data, losses, "epoch 0"), display_id=name)
    for epoch in range(1, epochs + 1):
        optim.zero_grad()
        total, correct = one_epoch(model, data)
        losses.append(total)
        optim.step()
        if epoch % every == 0 or epoch == epochs:
            title = f"epoch {epoch}: loss {total:.3f}, {correct} of {data.N} correct"
            update_display(boundary_svg(predict, data, losses, title), display_id=name)
    return model, losses

# %% [markdown]
# MiniTorch's `Simple` set (the same points as in Python for the same seed), 2 hidden units,
# rate 0.5. (The picture is redrawn while the cell runs; the tests run this cell but compare the
# results in the cells after it.)

# %%
# NBVAL_IGNORE_OUTPUT
random.seed(1)
simple = minitorch.datasets["Simple"](50)
model, losses = train_scalar(simple, 2, 0.5, 150, 10, "train-simple")

# %%
def accuracy(model, data):
    right = 0
    for (x_1, x_2), label in zip(data.X, data.y):
        p = model.forward((Scalar(x_1), Scalar(x_2))).data
        right += 1 if (p > 0.5) == (label == 1) else 0
    return right


print("loss", round(losses[0], 3), "->", round(losses[-1], 3), "; correct:", accuracy(model, simple), "of", simple.N)

# %% [markdown]
# The trained boundary, and the loss of every epoch:

# %%
boundary_svg(lambda a, b: model.forward((Scalar(a), Scalar(b))).data, simple, losses,
             f"Simple, 2 hidden units, {len(losses)} epochs")

# %% [markdown]
# The course's other sets need more: `minitorch.datasets["Xor"](50)` wants about 10 hidden units
# and several hundred epochs, and each epoch builds and walks a graph of thousands of Scalars
# per point. That cost, one Python object per number, is what Module 2's tensors remove.
