"""mt_reduce (sum, prod, max, mean) and the Functions sum/mean/max/all against numpy.

Over each dim (also counted from the end) and over all dims (shape (1,)), on every layout.
Sums are compared with a bound that scales with sum|x| (helpers.sum_bound: cancellation);
max is exact; prod gets values whose product stays in float32's normal range.
"""

import numpy as np
import pytest
from hypothesis import given, strategies as st

import helpers as H
from mtbind import MT_ALL_DIMS, REDUCE_OPS

FN_OF = {"sum": "sum", "mean": "mean", "max": "max", "prod": "all"}
PROD_SMALL = H.Domain(0.5, 2.0, signed=True)


def reduce_input(data, op, shape, size, dim):
    if op != "prod":
        return data.draw(H.arrays(shape, H.WIDE, size), "x")
    if size == "small":
        return data.draw(H.arrays(shape, PROD_SMALL, "small"), "x")
    n = int(np.prod(shape)) if dim is None else shape[dim]
    seed = data.draw(st.integers(0, 2 ** 32 - 1), "seed")
    return H.prod_values(np.random.default_rng(seed), shape, n)


@pytest.mark.parametrize("size", ["small", "large"])
@pytest.mark.parametrize("op", REDUCE_OPS)
@given(data=st.data())
def test_reduce(ctx, backend, op, size, data):
    shape = data.draw(H.shapes(size), "shape")
    nd = len(shape)
    dim = data.draw(st.sampled_from([None] + list(range(-nd, nd))), "dim (None = all)")
    lay = data.draw(H.layouts(nd), "layout")
    t, seen = H.make(ctx, reduce_input(data, op, shape, size, dim), backend, lay)
    pdim = None if dim is None else dim % nd
    out = ctx.reduce(op, t, MT_ALL_DIMS if dim is None else dim)
    assert out.backend == backend
    if dim is not None:
        want = tuple(1 if i == pdim else s for i, s in enumerate(shape))
        assert out.shape == want, f"reduce {op} dim {dim}: shape {out.shape} != {want}"
    H.check_reduce(op, out.numpy(), seen, pdim, f"reduce {op} dim {dim}")
    f = ctx.fn(FN_OF[op], t, MT_ALL_DIMS if dim is None else pdim)
    H.check_reduce(op, f.numpy(), seen, pdim, f"mt_{FN_OF[op]} dim {dim}")


def test_negative_dims_count_from_the_end(ctx, backend):
    # MT_ALL_DIMS was -1 in the first header, which made "negative dims count from the end"
    # false for -1 (sum(-1) reduced everything); it is INT_MIN now and -1 is the last dim
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = ctx.tensor(x, backend)
    H.assert_exact(ctx.reduce("sum", t, -1).numpy(), x.sum(1, keepdims=True), "sum(-1)")
    H.assert_exact(ctx.reduce("sum", t, -2).numpy(), x.sum(0, keepdims=True), "sum(-2)")
    H.assert_exact(ctx.fn("sum", t, -1).numpy(), x.sum(1, keepdims=True), "mt_sum(-1)")
    assert ctx.reduce("sum", t, MT_ALL_DIMS).shape == (1,)


@pytest.mark.parametrize("shape", [(0,), (3, 0), (0, 3), (2, 0, 4)])
@pytest.mark.parametrize("op,value", [("sum", 0.0), ("prod", 1.0), ("max", -np.inf),
                                      ("mean", np.nan)])
def test_reduce_empty(ctx, backend, op, value, shape):
    t = ctx.create("zeros", shape, backend)
    for dim in range(len(shape)):
        out = ctx.reduce(op, t, dim)
        want = tuple(1 if i == dim else s for i, s in enumerate(shape))
        assert out.shape == want
        if shape[dim] == 0:  # the reduced dim is empty: every output cell is the start value
            H.assert_exact(out.numpy(), np.full(want, value), f"{op} over empty dim {dim}")
        else:
            assert out.size == 0
    out = ctx.reduce(op, t, MT_ALL_DIMS)
    assert out.shape == (1,)
    H.assert_exact(out.numpy(), np.full((1,), value), f"{op} over all of {shape}")


@given(data=st.data())
def test_reduce_into_out(ctx, backend, data):
    op = data.draw(st.sampled_from(REDUCE_OPS), "op")
    shape = data.draw(H.small_shapes(), "shape")
    dim = data.draw(st.integers(0, len(shape) - 1), "dim")
    t, seen = H.make(ctx, reduce_input(data, op, shape, "small", dim), backend,
                     data.draw(H.layouts(len(shape)), "layout"))
    oshape = tuple(1 if i == dim else s for i, s in enumerate(shape))
    out, _ = H.make(ctx, np.full(oshape, 7.0, np.float32), backend,
                    data.draw(H.layouts(len(shape), kinds=("contig", "permuted")), "layout out"))
    ctx.reduce(op, t, dim, out=out)
    H.check_reduce(op, out.numpy(), seen, dim, f"reduce {op} into out")


def test_sum_cancellation(ctx, backend):
    # large terms that cancel: the result is exact in float64 but a float32 sum is only
    # accurate to ~u * sum|x| -- the bound must accept every summation order and still catch
    # a dropped element
    x = np.array([1e8, 1.0, -1e8, 3.0, 1e8, -1e8, 0.5] * 37, np.float32)
    t = ctx.tensor(x, backend)
    H.check_reduce("sum", ctx.reduce("sum", t, 0).numpy(), x, 0, "cancelling sum")
    H.check_reduce("mean", ctx.reduce("mean", t, 0).numpy(), x, 0, "cancelling mean")
