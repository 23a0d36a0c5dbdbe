"""Gradients of every differentiable Function against central differences (gradcheck.py), and
the semantics of backward: broadcasting sums grads back, accumulation, zero_grad, explicit
gradients, errors, detach."""

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gradcheck as G
import helpers as H
from mtbind import MtError

SMALL_LAYOUTS = ("contig", "permuted", "sliced")  # leaves: stride-0 leaves alias their elements

# name -> (domain, step). Domains keep 10+ steps away from poles (inv, log, div) and kinks
# (relu, abs: |x| >= 0.01 > 2 h); exp stays below float32 overflow with its step.
UNARY = {
    "neg": (H.WIDE, G.eps_tensor),
    "inv": (H.Domain(0.2, 100.0, signed=True), G.eps_elem),
    "relu": (H.Domain(away=0.01), G.eps_elem),
    "sigmoid": (H.WIDE, G.eps_elem),
    "log": (H.Domain(0.1, 100.0), G.eps_elem),
    "exp": (H.Domain(-50.0, 50.0), G.eps_elem),
    "abs": (H.Domain(away=0.01), G.eps_elem),
    "sqrt": (H.Domain(0.1, 100.0), G.eps_elem),
    "tanh": (H.WIDE, G.eps_elem),
}
BINARY = {
    "add": ((H.WIDE, H.WIDE), (G.eps_tensor, G.eps_tensor)),
    "sub": ((H.WIDE, H.WIDE), (G.eps_tensor, G.eps_tensor)),
    "mul": ((H.WIDE, H.WIDE), (G.eps_elem, G.eps_elem)),
    "div": ((H.WIDE, H.Domain(0.2, 100.0, signed=True)), (G.eps_elem, G.eps_elem)),
}


@pytest.mark.parametrize("name", list(UNARY))
@given(data=st.data())
def test_unary_grad(ctx, backend, name, data):
    dom, eps = UNARY[name]
    shape = data.draw(H.small_shapes(), "shape")
    x = data.draw(H.arrays(shape, dom), "x")
    lay = data.draw(H.layouts(len(shape), SMALL_LAYOUTS), "layout")
    G.grad_check(ctx, backend, lambda c, a: c.fn(name, a), [x], [eps], [lay], what=name)


@pytest.mark.parametrize("name", list(BINARY))
@given(data=st.data())
def test_binary_grad(ctx, backend, name, data):
    doms, eps = BINARY[name]
    sa, sb = data.draw(H.broadcast_pair(), "shapes")  # (3,1) with (1,4), (2,3) with (3,)...
    xs = [data.draw(H.arrays(sa, doms[0]), "a"), data.draw(H.arrays(sb, doms[1]), "b")]
    lays = [data.draw(H.layouts(len(s), SMALL_LAYOUTS), f"layout {n}")
            for s, n in ((sa, "a"), (sb, "b"))]
    G.grad_check(ctx, backend, lambda c, a, b: c.fn(name, a, b), xs, list(eps), lays,
                 what=f"{name} {sa} {sb}")


@pytest.mark.parametrize("name", ["lt", "gt", "eq"])
@given(data=st.data())
def test_comparison_grads_are_zero(ctx, backend, name, data):
    sa, sb = data.draw(H.broadcast_pair(), "shapes")
    xs = [data.draw(H.arrays(sa, H.CMP), "a"), data.draw(H.arrays(sb, H.CMP), "b")]
    _, _, grads = G.engine_grads(ctx, backend, lambda c, a, b: c.fn(name, a, b), xs)
    for g, x in zip(grads, xs):
        H.assert_exact(g, np.zeros(x.shape), f"{name} grad")
    # inside a product: d/da [cmp(a,b) * a] = cmp(a,b) (summed over broadcast dims), since
    # the comparison contributes zero
    _, W, (ga, gb) = G.engine_grads(
        ctx, backend, lambda c, a, b: c.fn("mul", c.fn(name, a, b), a), xs)
    cmp = H.ZIP_REF[name](xs[0].astype(np.float64), xs[1].astype(np.float64))
    want = H.unbroadcast(W.astype(np.float64) * cmp, sa)
    H.assert_close(ga, want, atol=1e-5, what=f"d/da {name}(a,b)*a")
    H.assert_exact(gb, np.zeros(sb), f"d/db {name}(a,b)*a")


@pytest.mark.parametrize("name", ["sum", "mean"])
@given(data=st.data())
def test_reduce_grad(ctx, backend, name, data):
    shape = data.draw(H.small_shapes(), "shape")
    dim = data.draw(st.sampled_from([None] + list(range(len(shape)))), "dim")
    x = data.draw(H.arrays(shape), "x")
    lay = data.draw(H.layouts(len(shape), SMALL_LAYOUTS), "layout")
    G.grad_check(ctx, backend, lambda c, a: c.fn(name, a, dim), [x], [G.eps_tensor], [lay],
                 what=f"{name}({dim})")


@st.composite
def distinct_values(draw, shape):
    """Values 0.5 apart (shuffled), so the max along any dim is unique and no +-h step
    (h = 0.01) changes which element it is."""
    n = int(np.prod(shape))
    perm = draw(st.permutations(range(n)))
    off = draw(st.floats(-50, 50))
    return (np.array(perm, np.float64) * 0.5 + off).astype(np.float32).reshape(shape)


@given(data=st.data())
def test_max_grad(ctx, backend, data):
    shape = data.draw(H.small_shapes(), "shape")
    dim = data.draw(st.sampled_from([None] + list(range(len(shape)))), "dim")
    x = data.draw(distinct_values(shape), "x")
    lay = data.draw(H.layouts(len(shape), SMALL_LAYOUTS), "layout")
    G.grad_check(ctx, backend, lambda c, a: c.fn("max", a, dim), [x],
                 [lambda v: np.full(v.shape, 0.01)], [lay], what=f"max({dim})")


def test_max_grad_ties(ctx, backend):
    # MiniTorch's argmax: every element equal to the max gets the gradient
    x = np.array([[1.0, 3.0, 3.0, 2.0], [5.0, 5.0, 5.0, -1.0]], np.float32)
    _, _, (g,) = G.engine_grads(ctx, backend, lambda c, a: c.fn("max", a, 1), [x],
                                w=np.array([[2.0], [-1.0]], np.float32))
    H.assert_exact(g, [[0, 2, 2, 0], [-1, -1, -1, 0]], "max grad with ties")


@given(data=st.data())
def test_permute_grad(ctx, backend, data):
    shape = data.draw(H.small_shapes(), "shape")
    order = data.draw(st.permutations(range(len(shape))), "order")
    x = data.draw(H.arrays(shape), "x")
    lay = data.draw(H.layouts(len(shape), SMALL_LAYOUTS), "layout")
    G.grad_check(ctx, backend, lambda c, a: c.permute(a, order), [x], [G.eps_tensor], [lay],
                 what=f"permute{tuple(order)}")
    # the gradient is the upstream one permuted back, exactly
    _, W, (g,) = G.engine_grads(ctx, backend, lambda c, a: c.permute(a, order), [x])
    H.assert_exact(g, W.transpose(np.argsort(order)), "permute grad")


@given(data=st.data())
def test_view_grad(ctx, backend, data):
    shape = data.draw(H.small_shapes(), "shape")
    new = data.draw(st.sampled_from([(-1,), tuple(reversed(shape)), shape + (1,),
                                     (1,) + shape]), "view shape")
    x = data.draw(H.arrays(shape), "x")
    f = lambda c, a: c.view(a, new)  # noqa: E731
    G.grad_check(ctx, backend, f, [x], [G.eps_tensor], what=f"view{new}")
    _, W, (g,) = G.engine_grads(ctx, backend, f, [x])
    H.assert_exact(g, W.reshape(shape), "view grad")


@given(data=st.data())
def test_contiguous_grad(ctx, backend, data):
    shape = data.draw(H.small_shapes(), "shape")
    order = data.draw(st.permutations(range(len(shape))), "order")
    x = data.draw(H.arrays(shape), "x")

    def f(c, a):  # Copy of a non-contiguous view, then a view (needs the copy) and a product
        p = c.contiguous(c.permute(a, order))
        return c.fn("mul", c.view(p, (-1,)), c.view(p, (-1,)))

    G.grad_check(ctx, backend, f, [x], [G.eps_elem], what="contiguous")


@st.composite
def mm_grad_shapes(draw):
    m, k, n, d = (draw(st.integers(1, 4)) for _ in range(4))
    return draw(st.sampled_from([((m, k), (k, n)), ((d, m, k), (d, k, n)),
                                 ((d, m, k), (1, k, n)), ((d, m, k), (k, n)),
                                 ((m, k), (d, k, n)), ((2, 1, m, k), (d, k, n))]))


@given(data=st.data())
def test_matmul_grad(ctx, backend, data):
    sa, sb = data.draw(mm_grad_shapes(), "shapes")
    dom = H.Domain(-10.0, 10.0)
    xs = [data.draw(H.arrays(sa, dom), "a"), data.draw(H.arrays(sb, dom), "b")]
    lays = [data.draw(H.layouts(len(s), ("contig", "permuted")), f"layout {n}")
            for s, n in ((sa, "a"), (sb, "b"))]
    G.grad_check(ctx, backend, lambda c, a, b: c.fn("matmul", a, b), xs,
                 [G.eps_tensor, G.eps_tensor], lays, what=f"matmul {sa} @ {sb}")


@given(data=st.data())
def test_grad_through_sum_then_broadcast(ctx, backend, data):
    # MiniTorch test_two_grad_broadcast: f(t1, t2), f(t1.sum(0), t2), f(t1, t2.sum(0))
    shape = data.draw(H.small_shapes(), "shape")
    name = data.draw(st.sampled_from(["add", "sub", "mul", "div"]), "fn")
    dom_b = H.Domain(0.5, 100.0, signed=True) if name == "div" else H.WIDE
    x1 = data.draw(H.arrays(shape, H.Domain(-10, 10)), "t1")
    x2 = data.draw(H.arrays(shape, dom_b), "t2")
    which = data.draw(st.sampled_from(["none", "sum t1", "sum t2"]), "variant")

    def f(c, a, b):
        if which == "sum t1":
            a = c.fn("sum", a, 0)
        elif which == "sum t2" and name != "div":
            b = c.fn("sum", b, 0)
        return c.fn(name, a, b)

    # linear in t1 (and in t2 but for div): eps_tensor; div's divisor: eps_elem
    G.grad_check(ctx, backend, f, [x1, x2],
                 [G.eps_tensor, G.eps_elem if name == "div" else G.eps_tensor],
                 what=f"{name} {which}")


@pytest.mark.parametrize("sa,sb", [((300, 257), (257, 129)), ((3, 97, 64), (1, 64, 80)),
                                   ((2, 50, 40), (40, 70))])
def test_large_matmul_grad_vs_numpy(ctx, backend, sa, sb):
    # the backward of sigmoid(a @ b) on shapes that take the blocked/parallel paths, against
    # the analytic gradient in float64: dA = G @ B^T, dB = sum over batch of A^T @ G with
    # G = W * s * (1 - s); each is a dot product of length N (resp. M * batch): matmul_bound
    rng = np.random.default_rng(sum(sa) + sum(sb))
    xa = rng.uniform(-1, 1, sa).astype(np.float32)
    xb = rng.uniform(-1, 1, sb).astype(np.float32)
    out_shape = np.matmul(xa, xb).shape
    w = rng.uniform(-1, 1, out_shape).astype(np.float32)
    out, _, (ga, gb) = G.engine_grads(ctx, backend,
                                      lambda c, a, b: c.fn("sigmoid", c.fn("matmul", a, b)),
                                      [xa, xb], w=w)
    a64, b64 = xa.astype(np.float64), xb.astype(np.float64)
    s = H.MAP_REF["sigmoid"](a64 @ b64)
    g = w.astype(np.float64) * s * (1 - s)
    # the engine's G is itself rounded (relative ~few u): fold that into the bound's 4x
    bt = np.swapaxes(b64, -1, -2)
    ref_a = H.unbroadcast(g @ bt, sa)
    bound_a = 4 * H.unbroadcast(H.matmul_bound(np.abs(g), bt, g.shape[-1]), sa)
    H.assert_within(ga, ref_a, bound_a, "dA")
    at = np.swapaxes(a64, -1, -2)
    ref_b = H.unbroadcast(at @ g, sb)
    bound_b = 4 * H.unbroadcast(H.matmul_bound(at, np.abs(g), g.shape[-2]), sb) * \
        (g.size // (g.shape[-1] * g.shape[-2]))  # summed over the broadcast batch too
    H.assert_within(gb, ref_b, bound_b, "dB")


@pytest.mark.parametrize("sa,sb", [((300, 1), (1, 257)), ((1, 300), (257, 300)),
                                   ((4, 1, 130), (1, 90, 1))])
def test_large_broadcast_grad_vs_numpy(ctx, backend, sa, sb):
    # grads summed back over large broadcast dims: d(a*b)/da = sum over broadcast of W*b
    rng = np.random.default_rng(len(sa) + sa[0])
    xa = rng.uniform(-2, 2, sa).astype(np.float32)
    xb = rng.uniform(-2, 2, sb).astype(np.float32)
    w = rng.uniform(-1, 1, np.broadcast_shapes(sa, sb)).astype(np.float32)
    _, _, (ga, gb) = G.engine_grads(ctx, backend, lambda c, a, b: c.fn("mul", a, b),
                                    [xa, xb], w=w)
    w64 = w.astype(np.float64)
    for g, mine, other, shape, name in ((ga, xa, xb, sa, "da"), (gb, xb, xa, sb, "db")):
        terms = w64 * other.astype(np.float64)
        n = terms.size // int(np.prod(shape))
        bound = max(H.RTOL, H.gamma(n + 1)) * H.unbroadcast(np.abs(terms), shape) + H.FLT_MIN
        H.assert_within(g, H.unbroadcast(terms, shape), bound, name)


# ---- backward semantics ----------------------------------------------------------------------


def _x(ctx, backend, vals=((1.0, -2.0, 3.0), (0.5, 4.0, -1.5))):
    return ctx.tensor(np.array(vals, np.float32), backend).requires_grad_()


def test_accumulate_over_two_backward_calls(ctx, backend):
    x = _x(ctx, backend)
    xv = x.numpy().astype(np.float64)
    for _ in range(2):  # two graphs
        ctx.fn("sum", ctx.fn("mul", x, x)).backward()
    H.assert_close(x.grad.numpy(), 2 * (2 * xv), what="grad after two backward calls")
    loss = ctx.fn("sum", ctx.fn("mul", x, x))
    x.zero_grad()
    assert x.grad is None and not x.s.grad
    loss.backward()
    loss.backward()  # the same graph twice (MiniTorch keeps the history)
    H.assert_close(x.grad.numpy(), 2 * (2 * xv), what="same graph backward twice")
    x.zero_grad()
    ctx.fn("sum", x).backward()
    H.assert_exact(x.grad.numpy(), np.ones((2, 3)), "grad after zero_grad")


def test_backward_explicit_gradient(ctx, backend):
    x = _x(ctx, backend)
    y = ctx.fn("exp", x)
    g = np.array([[1, 2, 3], [-1, 0.5, 0]], np.float32)
    y.backward(ctx.tensor(g, backend))
    H.assert_close(x.grad.numpy(), g * np.exp(x.numpy().astype(np.float64)), what="explicit")
    assert y.grad is None, "a non-leaf got .grad (only leaves accumulate)"


def test_backward_errors(ctx, backend):
    x = _x(ctx, backend)
    y = ctx.fn("mul", x, x)
    with pytest.raises(MtError) as e:
        y.backward()  # non-scalar without a gradient
    assert e.value.ename == "RuntimeError" and e.value.status == 7, e.value
    with pytest.raises(MtError):
        y.backward(ctx.tensor(np.ones((3, 2)), backend))  # gradient of the wrong shape
    c = ctx.tensor(np.ones((1,)), backend)
    with pytest.raises(MtError) as e:
        c.backward()  # nothing requires grad
    assert e.value.status == 7
    with pytest.raises(MtError) as e:
        y.requires_grad_(False)  # turning it off on a non-leaf
    assert e.value.status == 7
    assert x.grad is None  # failed calls accumulated nothing


def test_detach_cuts_the_graph(ctx, backend):
    x = _x(ctx, backend)
    d = ctx.detach(x)
    assert not d.requires_grad and d.s.storage == x.s.storage and d.s.node is None
    H.assert_exact(d.numpy(), x.numpy(), "detach values")
    ctx.fn("sum", ctx.fn("mul", d, x)).backward()  # d(x_detached * x)/dx = x (not 2x)
    H.assert_exact(x.grad.numpy(), x.numpy(), "grad through detach")
    y = ctx.fn("exp", x)
    yd = ctx.detach(y)
    with pytest.raises(MtError):
        ctx.fn("sum", yd).backward()


def test_no_grad_without_requires_grad(ctx, backend):
    x = _x(ctx, backend)
    c = ctx.tensor(np.full((2, 3), 2.0), backend)
    out = ctx.fn("mul", x, c)
    assert out.requires_grad and out.s.node is not None
    ctx.fn("sum", out).backward()
    assert c.grad is None
    H.assert_exact(x.grad.numpy(), np.full((2, 3), 2.0), "grad")
    plain = ctx.fn("mul", c, c)
    assert not plain.requires_grad and plain.s.node is None


def test_is_close_and_all_record_nothing(ctx, backend):
    x = _x(ctx, backend)
    for out in (ctx.fn("is_close", x, x), ctx.fn("all", x)):
        H.assert_exact(out.numpy(), out.numpy(), "forward")
        with pytest.raises(MtError):
            ctx.fn("sum", out).backward()


def test_deep_chain_is_freed(ctx, backend):
    # 20000 Functions deep: backward and release must not recurse the C stack away
    x = ctx.tensor(np.array([0.5], np.float32), backend).requires_grad_()
    y = x
    for _ in range(20000):
        y = ctx.fn("neg", y)
    y.backward()
    H.assert_exact(x.grad.numpy(), [1.0], "grad of 20000 negs")
    del y
