"""mt_matmul_raw and mt_matmul against numpy.matmul in float64.

2-D, batched, broadcast batch dims ((D,A,B) @ (1,B,C), (D,M,K) @ (K,N), (2,1,M,K) @ (3,K,N)),
transposed (permuted) and sliced operands, sizes up to ~300. Tolerance: every output is a
K-term dot product, so its float32 error is bounded by gamma_K * (|A| @ |B|) whatever the
order of accumulation (blocked/packed GEMM, FMA, split K): helpers.matmul_bound. A fixed
relative tolerance on |C| would fail on cancellation, and one not growing with K would fail
on long dot products.
"""

import numpy as np
import pytest
from hypothesis import given, strategies as st

import helpers as H

MM_DOMAIN = H.Domain(-10.0, 10.0)


def check_mm(got, va, vb, what):
    a64, b64 = va.astype(np.float64), vb.astype(np.float64)
    ref = np.matmul(a64, b64)
    k = va.shape[-1]
    assert got.shape == ref.shape, f"{what}: shape {got.shape} != numpy {ref.shape}"
    H.assert_within(got, ref, H.matmul_bound(a64, b64, k), what)


@st.composite
def mm_shapes(draw, max_mnk=24):
    m, k, n = (draw(st.integers(1, max_mnk)) for _ in range(3))
    kind = draw(st.sampled_from(["2d", "batch", "bcast1", "lift_b", "lift_a", "4d"]))
    d = draw(st.integers(1, 4))
    if kind == "2d":
        return (m, k), (k, n)
    if kind == "batch":
        return (d, m, k), (d, k, n)
    if kind == "bcast1":  # MiniTorch's test_bmm: (D,A,B) @ (1,B,C)
        return (d, m, k), (1, k, n)
    if kind == "lift_b":
        return (d, m, k), (k, n)
    if kind == "lift_a":
        return (m, k), (d, k, n)
    return (2, 1, m, k), (d, k, n)


@pytest.mark.parametrize("size", [4, 40])
@given(data=st.data())
def test_matmul(ctx, backend, size, data):
    sa, sb = data.draw(mm_shapes(size), "shapes")
    a, va = H.make(ctx, data.draw(H.arrays(sa, MM_DOMAIN), "a"), backend,
                   data.draw(H.layouts(len(sa), ("contig", "permuted", "sliced")), "layout a"))
    b, vb = H.make(ctx, data.draw(H.arrays(sb, MM_DOMAIN), "b"), backend,
                   data.draw(H.layouts(len(sb), ("contig", "permuted", "sliced")), "layout b"))
    out = ctx.matmul_raw(a, b)
    assert out.backend == backend
    check_mm(out.numpy(), va, vb, f"matmul {sa} @ {sb}")
    check_mm(ctx.fn("matmul", a, b).numpy(), va, vb, f"mt_matmul {sa} @ {sb}")


def _operand(ctx, x, backend, transposed):
    """x as a transposed view (storage holds x^T, last two dims swapped back) or plain."""
    if not transposed:
        return ctx.tensor(x, backend)
    p = list(range(x.ndim))
    p[-1], p[-2] = p[-2], p[-1]
    t, _ = H.make(ctx, x, backend, H.Layout("permuted", perm=tuple(p)))
    assert not t.is_contiguous() or min(x.shape[-2:]) == 1
    return t


@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize("sa,sb", [
    ((300, 257), (257, 299)),
    ((3, 97, 130), (1, 130, 65)),      # (D,A,B) @ (1,B,C): broadcast batch
    ((2, 64, 33), (33, 200)),          # 2-D b lifted
    ((1, 1), (1, 300)),
    ((300, 1), (1, 1)),
    ((5, 0), (0, 7)),                  # K = 0: zeros
    ((9, 70), (70, 4200)),             # N above one packed B panel (NC ~ 4080)
    ((8, 1100), (1100, 9)),            # K over several KC blocks
])
def test_matmul_fixed(ctx, backend, sa, sb, ta, tb):
    rng = np.random.default_rng(sum(sa) + 7 * sum(sb))
    xa = rng.uniform(-1, 1, sa).astype(np.float32)
    xb = rng.uniform(-1, 1, sb).astype(np.float32)
    a, b = _operand(ctx, xa, backend, ta), _operand(ctx, xb, backend, tb)
    check_mm(ctx.matmul_raw(a, b).numpy(), xa, xb, f"matmul {sa}{'T' * ta} @ {sb}{'T' * tb}")


@given(data=st.data())
def test_matmul_into_out(ctx, backend, data):
    sa, sb = data.draw(mm_shapes(8), "shapes")
    va = data.draw(H.arrays(sa, MM_DOMAIN), "a")
    vb = data.draw(H.arrays(sb, MM_DOMAIN), "b")
    sout = np.matmul(va, vb).shape
    out, _ = H.make(ctx, np.full(sout, 7.0, np.float32), backend,
                    data.draw(H.layouts(len(sout), ("contig", "permuted")), "layout out"))
    ctx.matmul_raw(ctx.tensor(va, backend), ctx.tensor(vb, backend), out=out)
    check_mm(out.numpy(), va, vb, f"matmul {sa} @ {sb} into out")


def test_minitorch_mm2(ctx, backend):
    # MiniTorch test_mm2: a @ b == (a.view(2,3,1) * b.view(1,3,4)).sum(1).view(2,4), all in
    # the engine
    rng = np.random.default_rng(1)
    a = ctx.tensor(rng.uniform(-5, 5, (2, 3)), backend)
    b = ctx.tensor(rng.uniform(-5, 5, (3, 4)), backend)
    c = ctx.matmul_raw(a, b)
    prod = ctx.zip("mul", ctx.view(a, (2, 3, 1)), ctx.view(b, (1, 3, 4)))
    c2 = ctx.view(ctx.reduce("sum", prod, 1), (2, 4))
    H.assert_close(c.numpy(), c2.numpy().astype(np.float64), rtol=1e-5, atol=1e-5,
                   what="mm2 vs broadcast mul-sum")


@given(d=st.integers(2, 4), a_=st.integers(2, 4), b_=st.integers(2, 4), c_=st.integers(2, 4),
       data=st.data())
def test_minitorch_bmm(ctx, backend, d, a_, b_, c_, data):
    # MiniTorch test_bmm: a (D,A,B) non-contiguous, b (1,B,C), vs broadcast mul + sum
    xa = data.draw(H.arrays((d, a_, b_), MM_DOMAIN), "a")
    xb = data.draw(H.arrays((1, b_, c_), MM_DOMAIN), "b")
    perm = data.draw(st.permutations(range(3)), "perm a")
    a, _ = H.make(ctx, xa, backend, H.Layout("permuted", perm=tuple(perm)))
    b = ctx.tensor(xb, backend)
    c = ctx.matmul_raw(a, b)
    prod = ctx.zip("mul", ctx.view(ctx.contiguous(a), (d, a_, b_, 1)),
                   ctx.view(b, (1, 1, b_, c_)))
    c2 = ctx.view(ctx.reduce("sum", prod, 2), (d, a_, c_))
    check_mm(c.numpy(), xa, xb, "bmm")
    H.assert_within(c.numpy(), c2.numpy().astype(np.float64),
                    2 * H.matmul_bound(xa.astype(np.float64), xb.astype(np.float64), b_),
                    "bmm vs broadcast mul-sum")
