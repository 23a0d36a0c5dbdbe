"""MiniTorch Module 3's MathTest functions (tests/test_tensor_general.py: test_one_args,
test_two_args, test_one_derivative, test_two_grad, test_two_grad_broadcast), composed from the
engine's differentiable Functions: forward against numpy in float64, gradients against central
differences (gradcheck.py).

Each function is written once and evaluated on two wrappers: `E` (engine tensors; Python
numbers become shape-(1,) tensors and broadcast, as MiniTorch's _ensure_tensor does) and `N`
(numpy arrays).
"""

import numpy as np
import pytest
from hypothesis import assume, given, strategies as st

import gradcheck as G
import helpers as H


class E:
    """An engine tensor with MiniTorch's operators."""

    def __init__(self, ctx, t, backend):
        self.ctx, self.t, self.backend = ctx, t, backend

    def _c(self, v):
        return v.t if isinstance(v, E) else self.ctx.tensor(np.array([v], np.float32),
                                                           self.backend)

    def _w(self, t):
        return E(self.ctx, t, self.backend)

    def _f2(self, name, a, b):
        return self._w(self.ctx.fn(name, self._c(a), self._c(b)))

    __add__ = lambda s, o: s._f2("add", s, o)  # noqa: E731
    __radd__ = lambda s, o: s._f2("add", o, s)  # noqa: E731
    __sub__ = lambda s, o: s._f2("sub", s, o)  # noqa: E731
    __mul__ = lambda s, o: s._f2("mul", s, o)  # noqa: E731
    __rmul__ = lambda s, o: s._f2("mul", o, s)  # noqa: E731
    __truediv__ = lambda s, o: s._f2("div", s, o)  # noqa: E731
    __rtruediv__ = lambda s, o: s._f2("div", o, s)  # noqa: E731
    __lt__ = lambda s, o: s._f2("lt", s, o)  # noqa: E731
    __gt__ = lambda s, o: s._f2("gt", s, o)  # noqa: E731
    __eq__ = lambda s, o: s._f2("eq", s, o)  # noqa: E731
    __neg__ = lambda s: s._w(s.ctx.fn("neg", s.t))  # noqa: E731
    relu = lambda s: s._w(s.ctx.fn("relu", s.t))  # noqa: E731
    sigmoid = lambda s: s._w(s.ctx.fn("sigmoid", s.t))  # noqa: E731
    log = lambda s: s._w(s.ctx.fn("log", s.t))  # noqa: E731
    exp = lambda s: s._w(s.ctx.fn("exp", s.t))  # noqa: E731
    sum = lambda s, dim: s._w(s.ctx.fn("sum", s.t, dim))  # noqa: E731


class N:
    """A numpy array with the same operators (dtype float64, or float32 to mirror the
    engine's rounding where a comparison depends on it)."""

    def __init__(self, a, dtype=np.float64):
        self.a, self.dt = np.asarray(a, dtype), dtype

    def _v(self, o):
        return o.a if isinstance(o, N) else self.dt(o)

    def _w(self, a):
        return N(a, self.dt)

    __add__ = lambda s, o: s._w(s.a + s._v(o))  # noqa: E731
    __radd__ = lambda s, o: s._w(s._v(o) + s.a)  # noqa: E731
    __sub__ = lambda s, o: s._w(s.a - s._v(o))  # noqa: E731
    __mul__ = lambda s, o: s._w(s.a * s._v(o))  # noqa: E731
    __rmul__ = lambda s, o: s._w(s._v(o) * s.a)  # noqa: E731
    __truediv__ = lambda s, o: s._w(s.a / s._v(o))  # noqa: E731
    __rtruediv__ = lambda s, o: s._w(s._v(o) / s.a)  # noqa: E731
    __lt__ = lambda s, o: s._w(s.a < s._v(o))  # noqa: E731
    __gt__ = lambda s, o: s._w(s.a > s._v(o))  # noqa: E731
    __eq__ = lambda s, o: s._w(s.a == s._v(o))  # noqa: E731
    __neg__ = lambda s: s._w(-s.a)  # noqa: E731
    relu = lambda s: s._w(np.where(s.a > 0, s.a, 0))  # noqa: E731
    sigmoid = lambda s: s._w(H._sigmoid(s.a))  # noqa: E731
    log = lambda s: s._w(np.log(s.a))  # noqa: E731
    exp = lambda s: s._w(np.exp(s.a))  # noqa: E731
    sum = lambda s, dim: s._w(s.a.sum(axis=dim, keepdims=True))  # noqa: E731


# name -> (function, domain, forward atol). Domains: MiniTorch's small_floats [-100, 100],
# kept away from inv's pole (-3.5) and relu's kink (-5.5) by many gradient steps.
# Forward atol: FLT_MIN unless a float32 intermediate caps the absolute accuracy:
#   complex   sigmoid(s) for s >= 50 is 1 - e^-s: 1.0 in float32, so log(...) / 50 is 0
#             there while the float64 value is ~ -4e-24; 1e-6 covers ~16 ulp of 1 / 50.
ONE_ARG = {
    "addConstant": (lambda a: 5 + a, H.WIDE, H.FLT_MIN),
    "complex": (lambda a: (((a * 10 + 7).relu() * 6 + 5).relu() * 10).sigmoid().log() / 50,
                H.WIDE, 1e-6),
    "cube": (lambda a: a * a * a, H.WIDE, H.FLT_MIN),
    "div": (lambda a: a / 5, H.WIDE, H.FLT_MIN),
    "exp": (lambda a: (a - 200).exp(), H.WIDE, H.FLT_MIN),
    "explog": (lambda a: (a + 100000).log() + (a - 200).exp(), H.WIDE, H.FLT_MIN),
    "inv": (lambda a: 1.0 / (a + 3.5), H.Domain(away=0.5, center=-3.5), H.FLT_MIN),
    "log": (lambda a: (a + 100000).log(), H.WIDE, H.FLT_MIN),
    "multConstant": (lambda a: 5 * a, H.WIDE, H.FLT_MIN),
    "neg": (lambda a: -a, H.WIDE, H.FLT_MIN),
    "relu": (lambda a: (a + 5.5).relu(), H.Domain(away=0.1, center=-5.5), H.FLT_MIN),
    "sig": (lambda a: a.sigmoid(), H.WIDE, H.FLT_MIN),
    "square": (lambda a: a * a, H.WIDE, H.FLT_MIN),
    "subConstant": (lambda a: a - 5, H.WIDE, H.FLT_MIN),
}
# the comparisons' 0/1 depend on float32 rounding of b + 5.5 and a + 1.2: their numpy side
# runs in float32, and values that make them equal are mixed in
CMP2 = H.Domain(discrete=True)
TWO_ARG = {
    "add2": (lambda a, b: a + b, (H.WIDE, H.WIDE), False),
    "mul2": (lambda a, b: a * b, (H.WIDE, H.WIDE), False),
    "div2": (lambda a, b: a / (b + 5.5), (H.WIDE, H.Domain(away=0.5, center=-5.5)), False),
    "eq2": (lambda a, b: a == (b + 5.5), (CMP2, CMP2), True),
    "gt2": (lambda a, b: (a + 1.2) > b, (CMP2, CMP2), True),
    "lt2": (lambda a, b: (a + 1.2) < b, (CMP2, CMP2), True),
}


def engine_fn(fn):
    return lambda c, *ts: fn(*[E(c, t, ts[0].backend) for t in ts]).t


@st.composite
def eq_friendly(draw, shape):
    """Arrays where b + 5.5 == a and a + 1.2 == b happen."""
    pts = [-5.5, -4.5, -1.2, 0.0, 1.0, 1.2, 2.2, 5.5, 6.5]
    el = st.one_of(st.sampled_from(pts), st.floats(-100, 100, width=32))
    return np.array(draw(st.lists(el, min_size=int(np.prod(shape)),
                                  max_size=int(np.prod(shape)))), np.float32).reshape(shape)


@pytest.mark.parametrize("name", list(ONE_ARG))
@given(data=st.data())
def test_one_args(ctx, backend, name, data):
    fn, dom, atol = ONE_ARG[name]
    shape = data.draw(H.small_shapes(), "shape")
    x = data.draw(H.arrays(shape, dom), "x")
    t, seen = H.make(ctx, x, backend, data.draw(H.layouts(len(shape)), "layout"))
    got = engine_fn(fn)(ctx, t).numpy()
    H.assert_close(got, fn(N(seen)).a, atol=atol, what=name)


@pytest.mark.parametrize("name", list(ONE_ARG))
@given(data=st.data())
def test_one_derivative(ctx, backend, name, data):
    fn, dom, _ = ONE_ARG[name]
    shape = data.draw(H.small_shapes(), "shape")
    x = data.draw(H.arrays(shape, dom), "x")
    lay = data.draw(H.layouts(len(shape), ("contig", "permuted")), "layout")
    G.grad_check(ctx, backend, engine_fn(fn), [x], [G.eps_elem], [lay], what=name)


def _two_inputs(data, name, shape):
    fn, doms, is_cmp = TWO_ARG[name]
    if is_cmp:
        return fn, is_cmp, [data.draw(eq_friendly(shape), "a"), data.draw(eq_friendly(shape), "b")]
    return fn, is_cmp, [data.draw(H.arrays(shape, doms[0]), "a"),
                        data.draw(H.arrays(shape, doms[1]), "b")]


@pytest.mark.parametrize("name", list(TWO_ARG))
@given(data=st.data())
def test_two_args(ctx, backend, name, data):
    shape = data.draw(H.small_shapes(), "shape")
    fn, is_cmp, xs = _two_inputs(data, name, shape)
    lays = [data.draw(H.layouts(len(shape)), f"layout {n}") for n in "ab"]
    made = [H.make(ctx, x, backend, lay) for x, lay in zip(xs, lays)]
    got = engine_fn(fn)(ctx, *[t for t, _ in made]).numpy()
    if is_cmp:
        H.assert_exact(got, fn(*[N(s, np.float32) for _, s in made]).a, name)
    else:
        H.assert_close(got, fn(*[N(s) for _, s in made]).a, what=name)


def _check_two_grad(ctx, backend, name, fn, is_cmp, xs, variant):
    def f(c, a, b):
        ea, eb = E(c, a, backend), E(c, b, backend)
        if variant == "sum t1":
            ea = ea.sum(0)
        elif variant == "sum t2":
            eb = eb.sum(0)
        return fn(ea, eb).t

    if is_cmp:  # piecewise constant: the gradient is exactly zero
        _, _, grads = G.engine_grads(ctx, backend, f, xs)
        for g, x in zip(grads, xs):
            H.assert_exact(g, np.zeros(x.shape), f"{name} {variant} grad")
        return
    # add2, mul2 are linear in each input, div2 in a: eps_tensor (no truncation error; a step
    # far above the ulp of a sum of three values of 100). div2 in b: eps_elem, or after a
    # sum a fixed 0.01 -- above the ulp of the sum (3e-5), below the pole margin 0.5.
    eb = G.eps_tensor if name != "div2" else (
        G.eps_elem if variant != "sum t2" else (lambda x: np.full(x.shape, 0.01)))
    G.grad_check(ctx, backend, f, xs, [G.eps_tensor, eb], what=f"{name} {variant}")


@pytest.mark.parametrize("name", list(TWO_ARG))
@given(data=st.data())
def test_two_grad(ctx, backend, name, data):
    shape = data.draw(H.small_shapes(), "shape")
    fn, is_cmp, xs = _two_inputs(data, name, shape)
    _check_two_grad(ctx, backend, name, fn, is_cmp, xs, "plain")


@pytest.mark.parametrize("name", list(TWO_ARG))
@given(data=st.data())
def test_two_grad_broadcast(ctx, backend, name, data):
    shape = data.draw(H.small_shapes(), "shape")
    fn, is_cmp, xs = _two_inputs(data, name, shape)
    variant = data.draw(st.sampled_from(["sum t1", "sum t2"]), "variant")
    if name == "div2" and variant == "sum t2":  # keep the summed divisor off the pole
        assume(np.all(np.abs(xs[1].astype(np.float64).sum(0) + 5.5) >= 0.5))
    _check_two_grad(ctx, backend, name, fn, is_cmp, xs, variant)
