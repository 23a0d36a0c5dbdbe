"""simple (the serial reference twin) against fast, and fast against itself across thread counts.

* simple and fast agree on every op: bit for bit where IEEE fixes the result (+ - * / sqrt,
  comparisons, max, relu, neg, abs, inv), within the numpy tolerance otherwise (SIMD exp/log
  polynomials, other summation orders). Both read the same storage (mt_to shares it).
* fast with 1 and 2 threads gives the same bytes on every op, including shapes large enough to
  take the parallel paths (the diagnostics hook must report >1 thread there), so results do
  not depend on the machine's core count.
"""

import numpy as np
import pytest
from hypothesis import given, strategies as st

import helpers as H
from mtbind import MAP_OPS, MT_ALL_DIMS, REDUCE_OPS, ZIP_OPS

OPS = ([("map", o) for o in MAP_OPS] + [("zip", o) for o in ZIP_OPS] +
       [("reduce", o) for o in REDUCE_OPS] + [("matmul", "matmul")])
OP_IDS = [f"{k}-{o}" for k, o in OPS]


def ieee_exact(kind, op):
    return (kind == "map" and op in H.MAP_IEEE) or (kind == "zip" and op in H.ZIP_IEEE) or \
        (kind == "reduce" and op == "max")


@st.composite
def op_case(draw, kind, op, size, max_elems=H.LARGE_ELEMS):
    """(arrays, layouts, dim) for one op."""
    shapes = H.small_shapes() if size == "small" else H.large_shapes(max_elems=max_elems)
    if kind == "map":
        shape = draw(shapes)
        xs = [draw(H.arrays(shape, H.MAP_DOMAIN.get(op, H.WIDE), size))]
        dim = None
    elif kind == "zip":
        sa, sb = draw(H.broadcast_pair(size, max_elems))
        da, db = H.ZIP_DOMAIN.get(op, (H.WIDE, H.WIDE))
        xs = [draw(H.arrays(sa, da, size)), draw(H.arrays(sb, db, size))]
        dim = None
    elif kind == "reduce":
        shape = draw(shapes)
        dim = draw(st.sampled_from([None] + list(range(len(shape)))))
        if op == "prod":
            n = int(np.prod(shape)) if dim is None else shape[dim]
            xs = [H.prod_values(np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1))),
                                shape, n)]
        else:
            xs = [draw(H.arrays(shape, H.WIDE, size))]
    else:
        m, k, n = (draw(st.integers(1, 4 if size == "small" else 80)) for _ in range(3))
        d = draw(st.integers(1, 3))
        sa, sb = draw(st.sampled_from([((m, k), (k, n)), ((d, m, k), (1, k, n)),
                                       ((d, m, k), (d, k, n))]))
        xs = [draw(H.arrays(sa, H.Domain(-10, 10), size)),
              draw(H.arrays(sb, H.Domain(-10, 10), size))]
        dim = None
    lays = [draw(H.layouts(x.ndim)) for x in xs]
    return xs, lays, dim


def run(ctx, kind, op, ts, dim):
    if kind == "map":
        return ctx.map(op, ts[0])
    if kind == "zip":
        return ctx.zip(op, ts[0], ts[1])
    if kind == "reduce":
        return ctx.reduce(op, ts[0], MT_ALL_DIMS if dim is None else dim)
    return ctx.matmul_raw(ts[0], ts[1])


def agree_bound(kind, op, seen, dim, ref_s):
    """Twice the numpy tolerance: each backend is within it of the exact value."""
    if kind == "map":
        return 2 * (H.RTOL * np.abs(ref_s) + H.MAP_ATOL.get(op, H.FLT_MIN))
    if kind == "zip":
        return 2 * (H.RTOL * np.abs(ref_s) + H.FLT_MIN)
    if kind == "matmul":
        a, b = (s.astype(np.float64) for s in seen)
        return 2 * H.matmul_bound(a, b, a.shape[-1])
    x = seen[0].astype(np.float64)
    if dim is None:
        x, dim = x.reshape(-1), 0
    n = x.shape[dim]
    if op == "prod":
        return 2 * (max(H.RTOL, H.gamma(n)) * np.abs(ref_s) + H.FLT_MIN)
    b = H.sum_bound(x, dim, n)
    return 2 * (b / max(n, 1) if op == "mean" else b)


@pytest.mark.parametrize("size", ["small", "large"])
@pytest.mark.parametrize("kind,op", OPS, ids=OP_IDS)
@given(data=st.data())
def test_simple_and_fast_agree(ctx, kind, op, size, data):
    xs, lays, dim = data.draw(op_case(kind, op, size), "case")
    made = [H.make(ctx, x, "simple", lay) for x, lay in zip(xs, lays)]
    ts = [t for t, _ in made]
    seen = [s for _, s in made]
    fs = [ctx.to(t, "fast") for t in ts]
    assert all(f.s.storage == t.s.storage for f, t in zip(fs, ts))
    rs = run(ctx, kind, op, ts, dim).numpy()
    rf = run(ctx, kind, op, fs, dim).numpy()
    what = f"{kind} {op}: fast vs simple"
    if ieee_exact(kind, op):
        H.assert_exact(rf, rs, what)
    else:
        H.assert_within(rf, rs.astype(np.float64),
                        agree_bound(kind, op, seen, dim, rs.astype(np.float64)), what)


def two_thread_counts(ctx, fn):
    ctx.set_threads(1)
    r1 = fn().numpy()
    ctx.set_threads(2)
    r2 = fn().numpy()
    return r1, r2


@pytest.mark.parametrize("kind,op", OPS, ids=OP_IDS)
@given(data=st.data())
def test_threads_bit_identical(ctx, kind, op, data):
    # up to 150000 elements: most cases are above the fast backend's serial threshold (2^15)
    xs, lays, dim = data.draw(op_case(kind, op, "large", 150000), "case")
    ts = [H.make(ctx, x, "fast", lay)[0] for x, lay in zip(xs, lays)]
    r1, r2 = two_thread_counts(ctx, lambda: run(ctx, kind, op, ts, dim))
    H.assert_same_bits(r1, r2, f"{kind} {op}: 1 vs 2 threads")


def _big_cases():
    rng = np.random.default_rng(12345)
    x = rng.uniform(-5, 5, (300, 300)).astype(np.float32)
    y = rng.uniform(-5, 5, (300, 300)).astype(np.float32)
    pos = rng.uniform(0.1, 50, (300, 300)).astype(np.float32)
    big = rng.uniform(-5, 5, (512, 512)).astype(np.float32)
    cases = []
    for op in MAP_OPS:
        v = pos if op in ("log", "sqrt", "inv") else x
        cases.append((f"map-{op}-300x300", "map", op, [v], None, "contig"))
        cases.append((f"map-{op}-300x300T", "map", op, [v], None, "permuted"))
    for op in ZIP_OPS:
        b = pos if op in ("div",) else y
        a = pos if op in ("log_back", "inv_back") else x
        cases.append((f"zip-{op}-300x300", "zip", op, [a, b], None, "contig"))
        cases.append((f"zip-{op}-300x1,1x300", "zip", op, [a[:, :1], b[:1, :]], None,
                      "contig"))
    for op in REDUCE_OPS:
        for dim in (0, 1, None):
            v = H.prod_values(rng, (512, 512), 512 * 512 if dim is None else 512) \
                if op == "prod" else big
            cases.append((f"reduce-{op}-512x512-dim{dim}", "reduce", op, [v], dim, "contig"))
    # the fast backend's other paths: outputs >= 8 MiB (non-temporal stores), column
    # reductions cut into strips (> 1024 columns, fewer outer rows than threads), rows longer
    # than a block (8192) with few outputs, a kept unit-stride dim of 3, NaN inside max rows
    nt = rng.uniform(-5, 5, (2100, 1024)).astype(np.float32)
    cases.append(("map-exp-2100x1024-nt", "map", "exp", [nt], None, "contig"))
    cases.append(("map-neg-2100x1024T-nt", "map", "neg", [nt], None, "permuted"))
    cases.append(("zip-mul-2100x1024-nt", "zip", "mul", [nt, nt[::-1].copy()], None, "contig"))
    cases.append(("zip-add-2100x1024,1x1024-nt", "zip", "add", [nt, nt[:1]], None, "contig"))
    cases.append(("zip-sub-2100x1,1x1024-nt", "zip", "sub", [nt[:, :1], nt[:1]], None,
                  "contig"))
    wide = rng.uniform(-5, 5, (40, 3000)).astype(np.float32)
    tall = rng.uniform(-5, 5, (3000, 40)).astype(np.float32)
    long_rows = rng.uniform(-5, 5, (4, 20000)).astype(np.float32)
    one_row = rng.uniform(-5, 5, (1, 40000)).astype(np.float32)
    mid = rng.uniform(-5, 5, (2, 5000, 3)).astype(np.float32)
    nan_rows = rng.uniform(-5, 5, (6, 9000)).astype(np.float32)
    nan_rows[1, 17] = nan_rows[3, 8500] = nan_rows[4, 0] = np.nan
    nan_rows[5, 8999] = np.inf
    for op in REDUCE_OPS:
        fix = (lambda v, n: H.prod_values(rng, v.shape, n)) if op == "prod" else \
            (lambda v, n: v)
        cases += [
            (f"reduce-{op}-40x3000-dim0", "reduce", op, [fix(wide, 40)], 0, "contig"),
            (f"reduce-{op}-3000x40-dim0", "reduce", op, [fix(tall, 3000)], 0, "contig"),
            (f"reduce-{op}-3000x40T-dim1", "reduce", op, [fix(tall, 40)], 1, "permuted"),
            (f"reduce-{op}-4x20000-dim1", "reduce", op, [fix(long_rows, 20000)], 1, "contig"),
            (f"reduce-{op}-1x40000-dim1", "reduce", op, [fix(one_row, 40000)], 1, "contig"),
            (f"reduce-{op}-2x5000x3-dim1", "reduce", op, [fix(mid, 5000)], 1, "contig"),
        ]
    cases.append(("reduce-max-nan-rows", "reduce", "max", [nan_rows], 1, "contig"))
    cases.append(("reduce-sum-nan-rows", "reduce", "sum", [nan_rows], 1, "contig"))
    a = rng.uniform(-1, 1, (256, 256)).astype(np.float32)
    b = rng.uniform(-1, 1, (256, 256)).astype(np.float32)
    cases.append(("matmul-256^3", "matmul", "matmul", [a, b], None, "contig"))
    cases.append(("matmul-256^3-T", "matmul", "matmul", [a, b], None, "permuted"))
    cases.append(("matmul-batch", "matmul", "matmul",
                  [rng.uniform(-1, 1, (4, 128, 96)).astype(np.float32),
                   rng.uniform(-1, 1, (1, 96, 80)).astype(np.float32)], None, "contig"))
    return cases


BIG = _big_cases()


@pytest.mark.parametrize("name,kind,op,xs,dim,lay", BIG, ids=[c[0] for c in BIG])
def test_threads_bit_identical_large(ctx, name, kind, op, xs, dim, lay):
    layout = (H.Layout("permuted", perm=tuple(reversed(range(xs[0].ndim))))
              if lay == "permuted" else H.Layout())
    ts = [H.make(ctx, x, "fast", layout)[0] for x in xs]
    seen = [x for x in xs]
    r1, r2 = two_thread_counts(ctx, lambda: run(ctx, kind, op, ts, dim))
    H.assert_same_bits(r1, r2, f"{name}: 1 vs 2 threads")
    # the serial twin on the same storage
    rs = run(ctx, kind, op, [ctx.to(t, "simple") for t in ts], dim).numpy()
    if ieee_exact(kind, op):
        H.assert_exact(r2, rs, f"{name}: fast vs simple")
    elif "nan" not in name:
        H.assert_within(r2, rs.astype(np.float64),
                        agree_bound(kind, op, [t.numpy() for t in ts], dim,
                                    rs.astype(np.float64)), f"{name}: fast vs simple")
    for n in (3, 16):  # a machine with more cores must get the same bytes too
        ctx.set_threads(n)
        H.assert_same_bits(r1, run(ctx, kind, op, ts, dim).numpy(), f"{name}: 1 vs {n} threads")
    ctx.set_threads(2)
    # and the values themselves, against numpy
    if kind == "map":
        ref = H.MAP_REF[op](seen[0].astype(np.float64))
        if op in H.MAP_EXACT:
            H.assert_exact(r2, ref, name)
        else:
            H.assert_close(r2, ref, atol=H.MAP_ATOL.get(op, H.FLT_MIN), what=name)
    elif kind == "zip":
        ref = H.ZIP_REF[op](seen[0].astype(np.float64), seen[1].astype(np.float64))
        (H.assert_exact(r2, ref, name) if op in H.ZIP_EXACT
         else H.assert_close(r2, ref, what=name))
    elif kind == "reduce":
        if "nan" in name:  # MiniTorch's max: x if x > acc else acc, so NaN's fate depends on
            ref = H.reduce_ref(op, seen[0].astype(np.float64), dim)  # the order; check rows
            ok = ~np.isnan(seen[0]).any(axis=dim, keepdims=True)     # without NaN only
            H.assert_exact(r2[ok], ref[ok], name) if op == "max" else \
                H.assert_within(r2[ok], ref[ok], H.sum_bound(seen[0].astype(np.float64),
                                                             dim, seen[0].shape[dim])[ok], name)
            assert np.isnan(r2[~ok]).all() if op == "sum" else True
        else:
            H.check_reduce(op, r2, seen[0], dim, name)
    else:
        a, b = (s.astype(np.float64) for s in seen)
        H.assert_within(r2, a @ b, H.matmul_bound(a, b, a.shape[-1]), name)


@pytest.mark.parametrize("name,kind,op,xs,dim", [
    ("map-exp-300x300", "map", "exp", [np.ones((300, 300), np.float32)], None),
    ("zip-add-300x300", "zip", "add", [np.ones((300, 300), np.float32)] * 2, None),
    ("sum-512x512-dim0", "reduce", "sum", [np.ones((512, 512), np.float32)], 0),
    ("sum-512x512-dim1", "reduce", "sum", [np.ones((512, 512), np.float32)], 1),
    ("matmul-256^3", "matmul", "matmul", [np.ones((256, 256), np.float32)] * 2, None),
])
def test_large_ops_take_parallel_path(ctx, name, kind, op, xs, dim):
    # the bit-identity tests above are only meaningful if 2 threads really ran
    ts = [ctx.tensor(x, "fast") for x in xs]
    ctx.set_threads(2)
    rec = ctx.record_diag()
    run(ctx, kind, op, ts, dim)
    ctx.stop_diag()
    assert rec, "diagnostics hook not called"
    d = rec[-1]
    assert d["threads"] > 1, f"{name} ran on {d['threads']} thread(s), path {d['path']!r}"


def test_backward_threads_bit_identical(ctx):
    rng = np.random.default_rng(3)
    xa = rng.uniform(-1, 1, (3, 200, 150)).astype(np.float32)
    xb = rng.uniform(-1, 1, (1, 150, 170)).astype(np.float32)
    w = rng.uniform(-1, 1, (3, 200, 170)).astype(np.float32)

    def grads():
        a = ctx.tensor(xa, "fast").requires_grad_()
        b = ctx.tensor(xb, "fast").requires_grad_()
        out = ctx.fn("sigmoid", ctx.fn("matmul", a, b))
        out.backward(ctx.tensor(w, "fast"))
        return np.concatenate([a.grad.numpy().ravel(), b.grad.numpy().ravel()])

    ctx.set_threads(1)
    g1 = grads()
    ctx.set_threads(2)
    g2 = grads()
    H.assert_same_bits(g1, g2, "matmul backward: 1 vs 2 threads")
