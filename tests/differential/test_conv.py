"""mt_conv_raw, mt_conv1d and mt_conv2d (MiniTorch's Module 4 convolution) against numpy in
float64.

Semantics (MiniTorch's _tensor_conv1d / _tensor_conv2d): out[b, o, x] = sum over c, k of
input[b, c, x + k] * weight[o, c, k], the terms past the input's end skipped; with reverse,
input[b, c, x - k], the terms before its start skipped. 2-D likewise in (y, x). A given out may
have other spatial sizes than the input: they say which positions are computed.

The reference is written here, independently of the C loops: the input zero-padded once, each
kernel cell (ky, kx) a shifted slice of it contracted with weight[:, :, ky, kx] (einsum); the
gradients are the same slices (weight) and their adjoint, the contraction scattered back
(input). 1-D convolutions are the 2-D ones with h = kh = 1.

Tolerance: every output is a sum of n = in_channels * kh * kw products (fewer at the edges),
so its float32 error is at most gamma_n * (|input| conv |weight|), whatever the order
(helpers.gamma, as helpers.matmul_bound); the input's gradient sums out_channels * kh * kw
terms, the weight's batch * h * w.
"""

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gradcheck as G
import helpers as H
from mtbind import MtError

CONV_DOMAIN = H.Domain(-10.0, 10.0)
LAYOUTS = ("contig", "permuted", "sliced")
SWAP = {3: (1, 0, 2), 4: (1, 0, 2, 3)}  # batch and channels exchanged (MiniTorch's backward)


# ---- numpy reference -----------------------------------------------------------------------


def _as4(x):
    """A 1-D convolution's 3-D array as the 2-D one it is: (B, C, w) -> (B, C, 1, w)."""
    x = np.asarray(x, dtype=np.float64)
    return x[:, :, None, :] if x.ndim == 3 else x


def _out_hw(x4, out_sp):
    if out_sp is None:
        return x4.shape[2:]
    out_sp = tuple(out_sp)
    return (1,) + out_sp if len(out_sp) == 1 else out_sp


class _Frame:
    """An input (B, C, H, W) inside zeros wide enough that every shift by a kernel cell of an
    output window (OH, OW) stays inside: window(ky, kx) is input[b, c, y +- ky, x +- kx] for
    y < OH, x < OW (zero outside the input), scatter() its adjoint."""

    def __init__(self, shape4, out_hw, k_hw, reverse):
        b, c, h, w = shape4
        self.h, self.w, self.oh, self.ow = h, w, out_hw[0], out_hw[1]
        self.ph, self.pw = out_hw[0] + k_hw[0] + 1, out_hw[1] + k_hw[1] + 1
        self.sign = -1 if reverse else 1
        self.shape = (b, c, h + 2 * self.ph, w + 2 * self.pw)

    def pad(self, x4):
        big = np.zeros(self.shape)
        big[:, :, self.ph:self.ph + self.h, self.pw:self.pw + self.w] = x4
        return big

    def _window(self, ky, kx):
        y0, x0 = self.ph + self.sign * ky, self.pw + self.sign * kx
        return (slice(None), slice(None), slice(y0, y0 + self.oh), slice(x0, x0 + self.ow))

    def window(self, big, ky, kx):
        return big[self._window(ky, kx)]

    def scatter(self, big, t, ky, kx):
        big[self._window(ky, kx)] += t

    def inside(self, big):
        return big[:, :, self.ph:self.ph + self.h, self.pw:self.pw + self.w]


def conv_ref(x, w, reverse=False, out_sp=None):
    """The convolution in float64; out_sp: the output's spatial sizes (default the input's)."""
    x4, w4 = _as4(x), _as4(w)
    hw = _out_hw(x4, out_sp)
    fr = _Frame(x4.shape, hw, w4.shape[2:], reverse)
    big = fr.pad(x4)
    out = np.zeros((x4.shape[0], w4.shape[0]) + tuple(hw))
    for ky in range(w4.shape[2]):
        for kx in range(w4.shape[3]):
            out += np.einsum("bcyx,oc->boyx", fr.window(big, ky, kx), w4[:, :, ky, kx])
    return out.reshape(out.shape[:2] + (tuple(out_sp) if out_sp is not None else x.shape[2:]))


def conv_bound(x, w, reverse=False, out_sp=None):
    n = x.shape[1] * int(np.prod(w.shape[2:]))
    x64, w64 = np.abs(np.asarray(x, np.float64)), np.abs(np.asarray(w, np.float64))
    return max(H.RTOL, H.gamma(n)) * conv_ref(x64, w64, reverse, out_sp) + H.FLT_MIN


def check_conv(got, x, w, reverse, what, out_sp=None):
    ref = conv_ref(x, w, reverse, out_sp)
    assert got.shape == ref.shape, f"{what}: shape {got.shape} != numpy {ref.shape}"
    H.assert_within(got, ref, conv_bound(x, w, reverse, out_sp), what)


def conv_grads_ref(x, w, g):
    """d sum(g * conv(x, w)) / dx and / dw in float64 (the forward: reverse False)."""
    x4, w4, g4 = _as4(x), _as4(w), _as4(g)
    fr = _Frame(x4.shape, g4.shape[2:], w4.shape[2:], False)
    big = fr.pad(x4)
    gbig = np.zeros(fr.shape)
    gw = np.zeros(w4.shape)
    for ky in range(w4.shape[2]):
        for kx in range(w4.shape[3]):
            gw[:, :, ky, kx] = np.einsum("boyx,bcyx->oc", g4, fr.window(big, ky, kx))
            fr.scatter(gbig, np.einsum("boyx,oc->bcyx", g4, w4[:, :, ky, kx]), ky, kx)
    return fr.inside(gbig).reshape(x.shape), gw.reshape(w.shape)


def check_conv_grads(gx, gw, x, w, g, what):
    rx, rw = conv_grads_ref(x, w, g)
    ax, aw = conv_grads_ref(np.abs(x), np.abs(w), np.abs(g))
    nx = w.shape[0] * int(np.prod(w.shape[2:]))  # out_channels * kernel cells
    nw = x.shape[0] * int(np.prod(x.shape[2:]))  # batch * input cells
    H.assert_within(gx, rx, max(H.RTOL, H.gamma(nx)) * ax + H.FLT_MIN, what + ": input grad")
    H.assert_within(gw, rw, max(H.RTOL, H.gamma(nw)) * aw + H.FLT_MIN, what + ": weight grad")


def test_reference_is_minitorch_example():
    # the reference itself, on MiniTorch's test_conv1d_simple and a by-hand reverse
    x = np.arange(4.0).reshape(1, 1, 4)
    w = np.array([1.0, 2.0, 3.0]).reshape(1, 1, 3)
    np.testing.assert_array_equal(conv_ref(x, w)[0, 0], [8, 14, 8, 3])
    np.testing.assert_array_equal(conv_ref(x, w, True)[0, 0], [0, 1, 4, 10])
    np.testing.assert_array_equal(conv_ref(x, w, False, (2,))[0, 0], [8, 14])
    np.testing.assert_array_equal(conv_ref(x, w, True, (6,))[0, 0], [0, 1, 4, 10, 12, 9])


# ---- strategies --------------------------------------------------------------------------------


@st.composite
def conv_shapes(draw, ndim, max_sp=12, kernel_over=0):
    """(input shape, weight shape): batch 1-3, channels 1-4, out channels 1-4, spatial sizes
    1-max_sp, kernel sizes 1 .. the input's (+ kernel_over)."""
    b, c, o = draw(st.integers(1, 3)), draw(st.integers(1, 4)), draw(st.integers(1, 4))
    sp = tuple(draw(st.integers(1, max_sp)) for _ in range(ndim - 2))
    k = tuple(draw(st.integers(1, s + kernel_over)) for s in sp)
    return (b, c) + sp, (o, c) + k


def _fname(ndim):
    return "conv1d" if ndim == 3 else "conv2d"


# ---- forward ---------------------------------------------------------------------------------


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("ndim", [3, 4])
@given(data=st.data())
def test_conv(ctx, backend, ndim, reverse, data):
    si, sw = data.draw(conv_shapes(ndim), "shapes")
    x, vx = H.make(ctx, data.draw(H.arrays(si, CONV_DOMAIN), "input"), backend,
                   data.draw(H.layouts(ndim, LAYOUTS), "layout input"))
    w, vw = H.make(ctx, data.draw(H.arrays(sw, CONV_DOMAIN), "weight"), backend,
                   data.draw(H.layouts(ndim, LAYOUTS), "layout weight"))
    out = ctx.conv_raw(x, w, reverse)
    assert out.backend == backend and not out.requires_grad
    what = f"conv{ndim - 2}d{' reverse' if reverse else ''} {si} * {sw}"
    check_conv(out.numpy(), vx, vw, reverse, what)
    if not reverse:  # the Function computes the same values
        check_conv(ctx.fn(_fname(ndim), x, w).numpy(), vx, vw, False, "mt_" + what)


@pytest.mark.parametrize("ndim", [3, 4])
@given(data=st.data())
def test_conv_integers_exact(ctx, backend, ndim, data):
    # small integers: every partial sum is an integer below 2^24, so any order is exact
    si, sw = data.draw(conv_shapes(ndim, max_sp=8), "shapes")
    reverse = data.draw(st.booleans(), "reverse")
    rng = np.random.default_rng(data.draw(st.integers(0, 2 ** 32 - 1), "seed"))
    vx = rng.integers(-8, 9, si).astype(np.float32)
    vw = rng.integers(-8, 9, sw).astype(np.float32)
    x, _ = H.make(ctx, vx, backend, data.draw(H.layouts(ndim, LAYOUTS), "layout input"))
    w, _ = H.make(ctx, vw, backend, data.draw(H.layouts(ndim, LAYOUTS), "layout weight"))
    H.assert_exact(ctx.conv_raw(x, w, reverse).numpy(), conv_ref(vx, vw, reverse),
                   f"integer conv {si} * {sw} reverse={reverse}")


@pytest.mark.parametrize("layout", ["contig", "permuted"])
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("si,sw", [
    ((2, 3, 2500), (4, 3, 7)),       # rows in strips of 1024 columns: three strips
    ((1, 1, 1025), (1, 1, 1025)),    # the kernel as wide as the input, one column past a strip
    ((3, 4, 5000), (4, 4, 16)),      # enough work for several threads
    ((1, 2, 3, 1100), (2, 2, 2, 9)),  # 2-D rows wider than a strip
])
def test_conv_wide(ctx, backend, si, sw, reverse, layout):
    rng = np.random.default_rng(sum(si) + sum(sw))
    vx = rng.uniform(-1, 1, si).astype(np.float32)
    vw = rng.uniform(-1, 1, sw).astype(np.float32)
    lay = H.Layout("permuted", perm=tuple(reversed(range(len(si))))) \
        if layout == "permuted" else H.Layout()
    x, _ = H.make(ctx, vx, backend, lay)  # permuted: columns strided (the strided-rows path)
    w, _ = H.make(ctx, vw, backend, lay)
    check_conv(ctx.conv_raw(x, w, reverse).numpy(), vx, vw, reverse,
               f"conv {si} * {sw} reverse={reverse} {layout}")


def test_minitorch_conv1d_simple(ctx, backend):
    # MiniTorch test_conv1d_simple: [0, 1, 2, 3] with [1, 2, 3] is exactly [8, 14, 8, 3]
    x = ctx.view(ctx.tensor(np.arange(4.0), backend), (1, 1, 4))
    w = ctx.view(ctx.tensor([1.0, 2.0, 3.0], backend), (1, 1, 3))
    H.assert_exact(ctx.fn("conv1d", x, w).numpy(), [[[8, 14, 8, 3]]], "conv1d simple")
    H.assert_exact(ctx.conv_raw(x, w).numpy(), [[[8, 14, 8, 3]]], "conv_raw simple")
    H.assert_exact(ctx.conv_raw(x, w, True).numpy(), [[[0, 1, 4, 10]]], "conv_raw reverse")


def test_conv_skips_terms_past_the_edges(ctx, backend):
    # the input is not zero-padded but the terms past its edges are skipped: an infinite
    # weight cell that falls outside contributes nothing (0 * inf would be NaN)
    x = ctx.tensor(np.ones((1, 1, 4), np.float32), backend)
    w = ctx.tensor(np.array([[[1.0, np.inf]]], np.float32), backend)
    inf = np.inf
    H.assert_exact(ctx.conv_raw(x, w).numpy(), [[[inf, inf, inf, 1]]], "forward")
    H.assert_exact(ctx.conv_raw(x, w, True).numpy(), [[[1, inf, inf, inf]]], "reverse")
    x2 = ctx.tensor(np.ones((1, 1, 3, 3), np.float32), backend)
    w2 = ctx.tensor(np.array([[[[1.0, 0.0], [0.0, np.inf]]]], np.float32), backend)
    want = np.full((3, 3), inf)
    want[2, :] = want[:, 2] = 1.0
    H.assert_exact(ctx.conv_raw(x2, w2).numpy(), want[None, None], "2-D forward")

# ---- explicit out --------------------------------------------------------------------------


@pytest.mark.parametrize("ndim", [3, 4])
@given(data=st.data())
def test_conv_into_out(ctx, backend, ndim, data):
    # out's spatial sizes chosen freely (smaller or larger than the input's), the kernel up to
    # 2 wider than the input (mt_conv_raw allows it)
    si, sw = data.draw(conv_shapes(ndim, max_sp=10, kernel_over=2), "shapes")
    reverse = data.draw(st.booleans(), "reverse")
    osp = tuple(data.draw(st.integers(1, s + 3), "out size") for s in si[2:])
    so = (si[0], sw[0]) + osp
    vx = data.draw(H.arrays(si, CONV_DOMAIN), "input")
    vw = data.draw(H.arrays(sw, CONV_DOMAIN), "weight")
    x, _ = H.make(ctx, vx, backend, data.draw(H.layouts(ndim, LAYOUTS), "layout input"))
    w, _ = H.make(ctx, vw, backend, data.draw(H.layouts(ndim, LAYOUTS), "layout weight"))
    out, _ = H.make(ctx, np.full(so, 7.0, np.float32), backend,
                    data.draw(H.layouts(ndim, ("contig", "permuted")), "layout out"))
    assert ctx.conv_raw(x, w, reverse, out=out) is out
    check_conv(out.numpy(), vx, vw, reverse, f"conv {si} * {sw} into {so} reverse={reverse}",
               out_sp=osp)


@pytest.mark.parametrize("ndim", [3, 4])
@given(data=st.data())
def test_conv_weight_grad_form(ctx, backend, ndim, data):
    # MiniTorch's backward: grad_weight = conv(input.permute(1, 0, 2), grad.permute(1, 0, 2))
    # into (C, O, kw): the "weight" is the upstream gradient, as wide as the input
    si, sw = data.draw(conv_shapes(ndim), "shapes")
    sg = (si[0], sw[0]) + si[2:]
    vx = data.draw(H.arrays(si, CONV_DOMAIN), "input")
    vg = data.draw(H.arrays(sg, CONV_DOMAIN), "grad")
    x, _ = H.make(ctx, vx, backend, data.draw(H.layouts(ndim, LAYOUTS), "layout input"))
    g, _ = H.make(ctx, vg, backend, data.draw(H.layouts(ndim, LAYOUTS), "layout grad"))
    so = (sw[1], sw[0]) + sw[2:]
    out, _ = H.make(ctx, np.full(so, 7.0, np.float32), backend,
                    data.draw(H.layouts(ndim, ("contig", "permuted")), "layout out"))
    ctx.conv_raw(ctx.permute(x, SWAP[ndim]), ctx.permute(g, SWAP[ndim]), out=out)
    check_conv(out.numpy(), vx.transpose(SWAP[ndim]), vg.transpose(SWAP[ndim]), False,
               f"weight-grad conv {si}, grad {sg} into {so}", out_sp=sw[2:])
    # the same numbers as the closed form of the weight's gradient, transposed
    _, rw = conv_grads_ref(vx, np.zeros(sw), vg)
    H.assert_within(out.numpy().transpose(SWAP[ndim]), rw,
                    conv_bound(vx.transpose(SWAP[ndim]), vg.transpose(SWAP[ndim]), False,
                               sw[2:]).transpose(SWAP[ndim]), "vs closed form")


def test_conv_out_aliasing_input(ctx, backend):
    # out = the input itself (out_channels = in_channels): the result is the convolution of
    # the input as it was, not of one partly overwritten
    rng = np.random.default_rng(5)
    vx = rng.uniform(-1, 1, (2, 3, 40)).astype(np.float32)
    vw = rng.uniform(-1, 1, (3, 3, 5)).astype(np.float32)
    for reverse in (False, True):
        x = ctx.tensor(vx, backend)
        ctx.conv_raw(x, ctx.tensor(vw, backend), reverse, out=x)
        check_conv(x.numpy(), vx, vw, reverse, f"conv into its own input reverse={reverse}")


# ---- backward ------------------------------------------------------------------------------


def _grads(ctx, backend, vx, vw, vg, layouts=None):
    ndim = vx.ndim
    out, _, (gx, gw) = G.engine_grads(ctx, backend, lambda c, a, b: c.fn(_fname(ndim), a, b),
                                      [vx, vw], layouts, w=vg)
    assert out.requires_grad and out.s.node is not None
    return out, gx, gw


@pytest.mark.parametrize("ndim", [3, 4])
@given(data=st.data())
def test_conv_grad(ctx, backend, ndim, data):
    si, sw = data.draw(conv_shapes(ndim, max_sp=8), "shapes")
    sg = (si[0], sw[0]) + si[2:]
    vx = data.draw(H.arrays(si, CONV_DOMAIN), "input")
    vw = data.draw(H.arrays(sw, CONV_DOMAIN), "weight")
    vg = data.draw(H.arrays(sg, H.Domain(-2.0, 2.0)), "upstream grad")
    lays = [data.draw(H.layouts(ndim, LAYOUTS), f"layout {n}") for n in ("input", "weight")]
    what = f"{_fname(ndim)} {si} * {sw}"
    out, gx, gw = _grads(ctx, backend, vx, vw, vg, lays)
    check_conv(out.numpy(), vx, vw, False, what)
    check_conv_grads(gx, gw, vx, vw, vg, what)


MINITORCH_SHAPES = [((1, 1, 6), (1, 1, 4)), ((2, 2, 6), (3, 2, 2)), ((1, 1, 6, 6), (1, 1, 2, 4)),
                    ((2, 1, 6, 6), (1, 1, 2, 4)), ((2, 2, 6, 6), (3, 2, 2, 4))]


@pytest.mark.parametrize("si,sw", MINITORCH_SHAPES)
def test_minitorch_conv_grad(ctx, backend, si, sw):
    # MiniTorch's test_conv1d / test_conv2d shapes: the closed form, then central differences
    rng = np.random.default_rng(sum(si) * 31 + sum(sw))
    vx = rng.uniform(-5, 5, si).astype(np.float32)
    vw = rng.uniform(-5, 5, sw).astype(np.float32)
    vg = rng.uniform(-1, 1, (si[0], sw[0]) + si[2:]).astype(np.float32)
    what = f"{_fname(len(si))} {si} * {sw}"
    lays = [H.Layout("permuted", perm=tuple(reversed(range(len(si)))))] * 2
    _, gx, gw = _grads(ctx, backend, vx, vw, vg, lays)
    check_conv_grads(gx, gw, vx, vw, vg, what)
    # linear in each argument: a large step, no truncation error (gradcheck.eps_tensor)
    G.grad_check(ctx, backend, lambda c, a, b: c.fn(_fname(len(si)), a, b), [vx, vw],
                 [G.eps_tensor, G.eps_tensor], what=what)


@pytest.mark.parametrize("ndim", [3, 4])
@given(data=st.data())
def test_conv_gradcheck(ctx, backend, ndim, data):
    si, sw = data.draw(conv_shapes(ndim, max_sp=5), "shapes")
    xs = [data.draw(H.arrays(si, CONV_DOMAIN), "input"),
          data.draw(H.arrays(sw, CONV_DOMAIN), "weight")]
    lays = [data.draw(H.layouts(ndim, LAYOUTS), f"layout {n}") for n in ("input", "weight")]
    G.grad_check(ctx, backend, lambda c, a, b: c.fn(_fname(ndim), a, b), xs,
                 [G.eps_tensor, G.eps_tensor], lays, what=f"{_fname(ndim)} {si} * {sw}")


def test_conv_grad_wide(ctx, backend):
    # the backward on rows wider than a strip: the weight's gradient sums 2 * 1500 terms
    rng = np.random.default_rng(11)
    vx = rng.uniform(-1, 1, (2, 3, 1500)).astype(np.float32)
    vw = rng.uniform(-1, 1, (2, 3, 6)).astype(np.float32)
    vg = rng.uniform(-1, 1, (2, 2, 1500)).astype(np.float32)
    _, gx, gw = _grads(ctx, backend, vx, vw, vg)
    check_conv_grads(gx, gw, vx, vw, vg, "conv1d (2, 3, 1500) * (2, 3, 6)")


# ---- fast gives the same bits on one thread and on two -----------------------------------


def _threads(ctx, n, fn):
    """fn() with the context on n threads, the context's own count restored after."""
    keep = ctx.threads
    ctx.set_threads(n)
    try:
        return fn()
    finally:
        ctx.set_threads(keep)


def _fast_on_1_and_2(ctx, fn, arrays_):
    """fn(*tensors) on fast, from the same values, on one thread and on two: the two results."""
    return [_threads(ctx, n, lambda: fn(*[ctx.tensor(a, "fast") for a in arrays_]).numpy())
            for n in (1, 2)]


@pytest.mark.parametrize("ndim", [3, 4])
@given(data=st.data())
def test_conv_fast_threads_same_bits(ctx, ndim, data):
    # each output cell is summed by one thread in an order fixed by the shapes (direct rows:
    # simple's order; im2col: the gemm's blocks), so the thread count never shows in the bits
    si, sw = data.draw(conv_shapes(ndim), "shapes")
    reverse = data.draw(st.booleans(), "reverse")
    vx = data.draw(H.arrays(si, CONV_DOMAIN), "input")
    vw = data.draw(H.arrays(sw, CONV_DOMAIN), "weight")
    one, two = _fast_on_1_and_2(ctx, lambda a, b: ctx.conv_raw(a, b, reverse), [vx, vw])
    H.assert_same_bits(one, two, f"conv {si} * {sw} reverse={reverse}: 1 thread vs 2")
    vg = data.draw(H.arrays((si[0], sw[0]) + si[2:], CONV_DOMAIN), "upstream grad")
    gs = [_threads(ctx, n, lambda: _grads(ctx, "fast", vx, vw, vg)[1:]) for n in (1, 2)]
    H.assert_same_bits(gs[0][0], gs[1][0], "input grad: 1 thread vs 2")
    H.assert_same_bits(gs[0][1], gs[1][1], "weight grad: 1 thread vs 2")


@pytest.mark.parametrize("si,sw", [((2, 3, 2500), (4, 3, 7)), ((1, 2, 3, 1100), (2, 2, 2, 9)),
                                   ((16, 4, 28, 28), (8, 4, 5, 5))])
def test_conv_fast_threads_same_bits_large(ctx, si, sw):
    # rows wider than a strip, and LeNet's sizes: several im2col blocks a thread
    rng = np.random.default_rng(3)
    vx = rng.uniform(-1, 1, si).astype(np.float32)
    vw = rng.uniform(-1, 1, sw).astype(np.float32)
    for reverse in (False, True):
        one, two = _fast_on_1_and_2(ctx, lambda a, b: ctx.conv_raw(a, b, reverse), [vx, vw])
        H.assert_same_bits(one, two, f"conv {si} * {sw} reverse={reverse}: 1 thread vs 2")
        check_conv(two, vx, vw, reverse, f"conv {si} * {sw} reverse={reverse}")


# ---- errors --------------------------------------------------------------------------------


def shape_str(s):
    return "(" + ", ".join(map(str, s)) + ("," if len(s) == 1 else "") + ")"


def _raises_shape(fn, *shapes):
    with pytest.raises(MtError) as e:
        fn()
    assert e.value.ename == "ShapeError" and e.value.status == 4, e.value
    for s in shapes:
        assert s in e.value.message, f"{s} not in {e.value.message!r}"
    return e.value


@pytest.mark.parametrize("si,sw", [((2, 3, 6), (4, 2, 3)), ((2, 3, 6, 5), (4, 1, 2, 2))])
def test_conv_channel_mismatch(ctx, backend, si, sw):
    x, w = ctx.create("ones", si, backend), ctx.create("ones", sw, backend)
    ss, sws = shape_str(si), shape_str(sw)
    _raises_shape(lambda: ctx.conv_raw(x, w), ss, sws)
    _raises_shape(lambda: ctx.conv_raw(x, w, True), ss, sws)
    _raises_shape(lambda: ctx.fn(_fname(len(si)), x, w), ss, sws)


@pytest.mark.parametrize("si,sw,word", [((2, 3, 6), (4, 3, 7), "wider"),
                                        ((1, 1, 3, 6), (1, 1, 4, 2), "taller"),
                                        ((1, 1, 6, 3), (1, 1, 2, 4), "wider")])
def test_conv_kernel_larger_than_input(ctx, backend, si, sw, word):
    x, w = ctx.create("ones", si, backend), ctx.create("ones", sw, backend)
    e = _raises_shape(lambda: ctx.fn(_fname(len(si)), x, w), shape_str(si), shape_str(sw))
    assert word in e.message, e.message


@pytest.mark.parametrize("fname,si,sw", [
    ("conv1d", (2, 3, 6, 6), (4, 3, 2, 2)),   # 2-D tensors to conv1d
    ("conv2d", (2, 3, 6), (4, 3, 2)),         # 1-D tensors to conv2d
    ("conv1d", (2, 3, 6), (4, 3, 2, 2)),      # ndim differing
    ("conv2d", (3, 6), (3, 2)),
])
def test_conv_wrong_ndim(ctx, backend, fname, si, sw):
    x, w = ctx.create("ones", si, backend), ctx.create("ones", sw, backend)
    _raises_shape(lambda: ctx.fn(fname, x, w), shape_str(si), shape_str(sw))
    if len(si) != len(sw) or len(si) not in (3, 4):
        _raises_shape(lambda: ctx.conv_raw(x, w), shape_str(si), shape_str(sw))


def test_conv_out_errors(ctx, backend):
    x, w = ctx.create("ones", (2, 3, 6), backend), ctx.create("ones", (4, 3, 2), backend)
    for so in ((3, 4, 6), (2, 3, 6), (2, 4, 6, 1), (2, 4)):  # batch, channels, ndim wrong
        out = ctx.create("full", so, backend, 7.0)
        _raises_shape(lambda: ctx.conv_raw(x, w, out=out), shape_str(so))
        np.testing.assert_array_equal(out.numpy(), np.full(so, 7.0, np.float32))  # untouched


def test_conv_mixed_backends(ctx):
    x, w = ctx.create("ones", (1, 1, 4), "simple"), ctx.create("ones", (1, 1, 2), "fast")
    for fn in (lambda: ctx.conv_raw(x, w), lambda: ctx.fn("conv1d", x, w)):
        with pytest.raises(MtError) as e:
            fn()
        assert e.value.ename == "RuntimeError", e.value
