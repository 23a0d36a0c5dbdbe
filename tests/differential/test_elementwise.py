"""mt_map / mt_zip (and the Functions that compute the same thing) against numpy in float64.

Every op on both backends, small (MiniTorch: 1-4 dims of 1-3) and large (sizes up to 257)
shapes, inputs contiguous, permuted, sliced or stride-0 broadcast, genuine broadcasting
shapes for zip, and outputs preallocated (numpy's out=, MiniTorch's map into a larger out).
"""

import numpy as np
import pytest
from hypothesis import given, strategies as st

import helpers as H
from mtbind import FN1, FN2, MAP_OPS, ZIP_OPS

SIZES = ["small", "large"]


def check_map_result(op, got, seen, what):
    ref = H.MAP_REF[op](seen.astype(np.float64))
    if op in H.MAP_EXACT:
        H.assert_exact(got, ref, what)
    else:
        H.assert_close(got, ref, atol=H.MAP_ATOL.get(op, H.FLT_MIN), what=what)


def check_zip_result(op, got, sa, sb, what):
    ref = H.ZIP_REF[op](sa.astype(np.float64), sb.astype(np.float64))
    if op in H.ZIP_EXACT:
        H.assert_exact(got, ref, what)
    else:
        H.assert_close(got, ref, what=what)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("op", MAP_OPS)
@given(data=st.data())
def test_map(ctx, backend, op, size, data):
    shape = data.draw(H.shapes(size), "shape")
    lay = data.draw(H.layouts(len(shape)), "layout")
    x = data.draw(H.arrays(shape, H.MAP_DOMAIN.get(op, H.WIDE), size), "x")
    t, seen = H.make(ctx, x, backend, lay)
    out = ctx.map(op, t)
    assert out.shape == shape and out.backend == backend
    check_map_result(op, out.numpy(), seen, f"map {op}")
    if op in FN1:  # the Function computes the same values
        check_map_result(op, ctx.fn(op, t).numpy(), seen, f"mt_{op}")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("op", ZIP_OPS)
@given(data=st.data())
def test_zip(ctx, backend, op, size, data):
    sa, sb = data.draw(H.broadcast_pair(size), "shapes")
    la = data.draw(H.layouts(len(sa)), "layout a")
    lb = data.draw(H.layouts(len(sb)), "layout b")
    da, db = H.ZIP_DOMAIN.get(op, (H.WIDE, H.WIDE))
    a, va = H.make(ctx, data.draw(H.arrays(sa, da, size), "a"), backend, la)
    b, vb = H.make(ctx, data.draw(H.arrays(sb, db, size), "b"), backend, lb)
    out = ctx.zip(op, a, b)
    assert out.shape == H.broadcast_shape(sa, sb) and out.backend == backend
    check_zip_result(op, out.numpy(), va, vb, f"zip {op}")
    if op in FN2:
        check_zip_result(op, ctx.fn(op, a, b).numpy(), va, vb, f"mt_{op}")


@pytest.mark.parametrize("sa,sb,sout", [
    ((1,), (5, 5), (5, 5)),
    ((1, 5, 5), (5, 5), (1, 5, 5)),
    ((5, 1, 5, 1), (1, 5, 1, 5), (5, 5, 5, 5)),
    ((2, 5), (5,), (2, 5)),
    ((3, 1), (1, 4), (3, 4)),
    ((4, 1, 3), (1, 2, 1), (4, 2, 3)),
])
def test_minitorch_broadcast_cases(ctx, backend, sa, sb, sout):
    rng = np.random.default_rng(0)
    a = rng.uniform(-10, 10, sa).astype(np.float32)
    b = rng.uniform(-10, 10, sb).astype(np.float32)
    for op in ("add", "mul", "lt"):
        out = ctx.zip(op, ctx.tensor(a, backend), ctx.tensor(b, backend))
        assert out.shape == sout
        check_zip_result(op, out.numpy(), a, b, f"{op} {sa} {sb}")


@given(data=st.data())
def test_map_into_larger_out(ctx, backend, data):
    # MiniTorch's map(fn)(a, out) with out bigger than a (Tensor.expand uses id_map this way);
    # out may itself be a permuted view: values must land at out's strides
    size = data.draw(st.sampled_from(SIZES), "size")
    op = data.draw(st.sampled_from(MAP_OPS), "op")
    small, big = data.draw(H.broadcast_pair(size), "shapes")
    big = H.broadcast_shape(small, big)
    la = data.draw(H.layouts(len(small)), "layout a")
    x = data.draw(H.arrays(small, H.MAP_DOMAIN.get(op, H.WIDE), size), "x")
    a, seen = H.make(ctx, x, backend, la)
    lo = data.draw(H.layouts(len(big), kinds=("contig", "permuted")), "layout out")
    out, _ = H.make(ctx, np.full(big, 7.0, np.float32), backend, lo)
    res = ctx.map(op, a, out=out)
    assert res is out and out.shape == big
    check_map_result(op, out.numpy(), np.broadcast_to(seen, big), f"map {op} into {big}")


@given(data=st.data())
def test_zip_into_out(ctx, backend, data):
    op = data.draw(st.sampled_from(ZIP_OPS), "op")
    sa, sb = data.draw(H.broadcast_pair("small"), "shapes")
    sout = H.broadcast_shape(sa, sb)
    da, db = H.ZIP_DOMAIN.get(op, (H.WIDE, H.WIDE))
    a, va = H.make(ctx, data.draw(H.arrays(sa, da), "a"), backend,
                   data.draw(H.layouts(len(sa)), "layout a"))
    b, vb = H.make(ctx, data.draw(H.arrays(sb, db), "b"), backend,
                   data.draw(H.layouts(len(sb)), "layout b"))
    out, _ = H.make(ctx, np.full(sout, 7.0, np.float32), backend,
                    data.draw(H.layouts(len(sout), kinds=("contig", "permuted")), "layout out"))
    ctx.zip(op, a, b, out=out)
    check_zip_result(op, out.numpy(), va, vb, f"zip {op} into out")


@pytest.mark.parametrize("op", ["add", "mul", "max"])
def test_zip_same_tensor_twice(ctx, backend, op):
    # both operands one tensor (x*x in the language): no aliasing trouble
    x = np.linspace(-3, 3, 35, dtype=np.float32).reshape(5, 7)
    t = ctx.tensor(x, backend)
    check_zip_result(op, ctx.zip(op, t, t).numpy(), x, x, f"{op}(t, t)")
    ctx.zip(op, t, t, out=t)  # in place over an input, element by element
    check_zip_result(op, t.numpy(), x, x, f"{op}(t, t, out=t)")


def test_special_values(ctx, backend):
    # inf/nan/-0 pass through as IEEE says (MiniTorch computes on doubles with the same rules)
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 3e38], np.float32)
    t = ctx.tensor(x, backend)
    for op in MAP_OPS:
        got = ctx.map(op, t).numpy()
        with np.errstate(all="ignore"):
            ref = H.MAP_REF[op](x.astype(np.float64))
        if op in ("relu", "neg", "id", "abs", "sigmoid", "exp", "tanh"):
            # inf/nan positions must agree; subnormal inputs may be flushed (FTZ) -> atol
            H.assert_within(got, ref, 1e-5 * np.abs(np.nan_to_num(ref)) + H.FLT_MIN, op)
