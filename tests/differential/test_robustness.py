"""Beyond nice inputs: IEEE special values on every path, contexts used from two threads at
once, cancellation, running out of memory in the middle of backward."""

import sys
import threading

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gradcheck as G
import helpers as H
import mtbind
from mtbind import MAP_OPS, MT_ALL_DIMS, REDUCE_OPS, ZIP_OPS, MtError

SPECIALS = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-45, -1e-40, 3.4e38, -3.4e38, 1.0,
                     -1.0, 0.5, 88.8, -104.0, 1e-3], np.float32)


def special_array(rng, shape, frac=0.2):
    x = rng.uniform(-10, 10, shape).astype(np.float32)
    mask = rng.random(shape) < frac
    x[mask] = rng.choice(SPECIALS, size=int(mask.sum()))
    return x


def same_or_both_nan(fast, simple, what):
    H.assert_exact(fast, simple, what)  # NaN matches NaN; -0 == +0


def agree_special(kind, op, fast, simple, what):
    """IEEE-determined ops: identical. Transcendental ones: the same non-finite positions,
    finite values within the numpy tolerance (flushed subnormals allowed)."""
    if (kind == "map" and op in H.MAP_IEEE) or (kind == "zip" and op in H.ZIP_IEEE) or \
            (kind == "reduce" and op == "max"):
        same_or_both_nan(fast, simple, what)
        return
    s = simple.astype(np.float64)
    assert np.array_equal(np.isnan(fast), np.isnan(simple)), f"{what}: NaN positions differ"
    fin = np.isfinite(s)
    H.assert_exact(fast[~fin], simple[~fin], f"{what}: infinities")
    if kind == "reduce":
        return  # sums of +-3.4e38 overflow in an order-dependent way; positions checked above
    H.assert_within(fast[fin], s[fin], 2e-5 * np.abs(s[fin]) + H.MAP_ATOL.get(op, H.FLT_MIN),
                    what)


@pytest.mark.parametrize("shape", [(7, 37), (3, 300), (1000,)])
def test_special_values_fast_vs_simple(ctx, shape):
    # lengths beyond a SIMD vector (tails) and rows >= 64 (the 32-accumulator row reduction)
    rng = np.random.default_rng(sum(shape))
    x, y = special_array(rng, shape), special_array(rng, shape)
    xs, ys = ctx.tensor(x, "simple"), ctx.tensor(y, "simple")
    xf, yf = ctx.to(xs, "fast"), ctx.to(ys, "fast")
    with np.errstate(all="ignore"):
        for op in MAP_OPS:
            agree_special("map", op, ctx.map(op, xf).numpy(), ctx.map(op, xs).numpy(),
                          f"map {op}")
        for op in ZIP_OPS:
            rf, rs = ctx.zip(op, xf, yf).numpy(), ctx.zip(op, xs, ys).numpy()
            agree_special("zip", op, rf, rs, f"zip {op}")
            if op in ("lt", "gt", "eq", "is_close", "max", "relu_back"):
                H.assert_exact(rf, H.ZIP_REF[op](x.astype(np.float64), y.astype(np.float64)),
                               f"zip {op} vs numpy")
        for op in REDUCE_OPS:
            for dim in list(range(len(shape))) + [MT_ALL_DIMS]:
                agree_special("reduce", op, ctx.reduce(op, xf, dim).numpy(),
                              ctx.reduce(op, xs, dim).numpy(), f"reduce {op} dim {dim}")


def test_max_reduce_nan_semantics(ctx, backend):
    # MiniTorch folds acc = max(acc, x) = acc if acc > x else x from -inf, in order: a NaN
    # replaces acc (acc > NaN is false) and the next element replaces the NaN (NaN > x is
    # false), so only a trailing NaN survives; long rows take the fast path's SIMD kernel,
    # which must give the same answer (fast.c redoes NaN rows serially)
    x = np.array([[np.nan, 1.0, 2.0], [1.0, np.nan, 0.5], [np.nan, np.nan, np.nan],
                  [3.0, 1.0, np.nan]], np.float32)
    got = ctx.reduce("max", ctx.tensor(x, backend), 1).numpy().ravel()
    H.assert_exact(got, [2.0, 0.5, np.nan, np.nan], "max over rows with NaN")
    long = np.tile(x, (1, 40))  # rows of 120 >= 64: the row kernel
    got = ctx.reduce("max", ctx.tensor(long, backend), 1).numpy().ravel()
    H.assert_exact(got, [2.0, 0.5, np.nan, np.nan], "max over long rows with NaN")


def test_two_contexts_on_two_threads(ctx):
    # all state lives in the context: two threads, each with its own, running big fast ops at
    # once (ctypes releases the GIL) get the same bytes as one thread alone
    rng = np.random.default_rng(5)
    a = rng.uniform(-1, 1, (300, 300)).astype(np.float32)
    b = rng.uniform(-1, 1, (300, 300)).astype(np.float32)

    def work(c):
        ta, tb = c.tensor(a, "fast"), c.tensor(b, "fast")
        m = c.matmul_raw(ta, tb)
        s = c.reduce("sum", c.map("exp", m), 0)
        return np.concatenate([m.numpy().ravel(), s.numpy().ravel()])

    ref = work(ctx)
    results, errors = {}, []

    def run(i):
        c = mtbind.Ctx()
        try:
            for _ in range(5):
                r = work(c)
                if r.tobytes() != ref.tobytes():
                    errors.append(f"thread {i}: results differ")
            results[i] = True
        except Exception as e:  # reported below
            errors.append(f"thread {i}: {e!r}")
        finally:
            c.close()

    ts = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors and len(results) == 2, errors


def test_cancellation(ctx, backend):
    lib = mtbind.lib()
    big = ctx.tensor(np.ones((2048, 1024), np.float32), backend)
    x = ctx.tensor(np.ones((512, 512), np.float32), backend).requires_grad_()
    loss = ctx.fn("sum", ctx.fn("exp", x))
    try:
        lib.mt_cancel_request()
        assert lib.mt_cancel_requested()
        for fn in (lambda: ctx.map("exp", big), lambda: ctx.zip("add", big, big),
                   lambda: ctx.reduce("sum", big, 0), lambda: ctx.matmul_raw(big, ctx.view(
                       big, (1024, 2048))), lambda: loss.backward()):
            with pytest.raises(MtError) as e:
                fn()
            assert e.value.ename == "KeyboardInterrupt", e.value
    finally:
        lib.mt_cancel_clear()
    assert not lib.mt_cancel_requested()
    H.assert_exact(ctx.reduce("sum", big, MT_ALL_DIMS).numpy(), [2048 * 1024], "after clear")
    x.zero_grad()
    loss.backward()
    H.assert_close(x.grad.numpy(), np.full((512, 512), np.e), what="backward after clear")


@given(limit_kb=st.integers(1, 64))
def test_out_of_memory_in_backward(ctx, backend, limit_kb):
    # whatever the limit, every call either works or says MemoryError; nothing leaks (the
    # ctx fixture checks that 0 bytes remain) and a later call with room works
    lib = mtbind.lib()
    rng = np.random.default_rng(limit_kb)
    xa = rng.uniform(-1, 1, (16, 24)).astype(np.float32)
    xb = rng.uniform(-1, 1, (24, 20)).astype(np.float32)
    lib.mt_ctx_set_mem_limit(ctx.p, limit_kb * 1024)
    try:
        a = ctx.tensor(xa, backend).requires_grad_()
        b = ctx.tensor(xb, backend).requires_grad_()
        loss = ctx.fn("sum", ctx.fn("sigmoid", ctx.fn("matmul", a, b)))
        loss.backward()
    except MtError as e:
        assert e.ename == "MemoryError", e
    finally:
        lib.mt_ctx_set_mem_limit(ctx.p, 0)
    _, _, (ga, gb) = G.engine_grads(
        ctx, backend, lambda c, a, b: c.fn("sum", c.fn("sigmoid", c.fn("matmul", a, b))),
        [xa, xb])
    s = H.MAP_REF["sigmoid"](xa.astype(np.float64) @ xb.astype(np.float64))
    H.assert_close(ga, (s * (1 - s)) @ xb.T.astype(np.float64), rtol=1e-4, atol=1e-6,
                   what="grad after a memory error")


_MM_SCRIPT = """
import sys; sys.path.insert(0, %r)
import numpy as np, mtbind
c = mtbind.Ctx(); rng = np.random.default_rng(0)
a = c.tensor(rng.uniform(-1, 1, (300, 300))); b = c.tensor(rng.uniform(-1, 1, (300, 300)))
sys.stdout.write(c.matmul_raw(a, b).numpy().tobytes().hex())
"""


@pytest.mark.parametrize("env", [{"T_KC": "100"}, {"T_KC": "0"}, {"T_MC": "0"},
                                 {"T_NC": "8"}])
def test_environment_does_not_change_results(env):
    # nothing in the process environment may change (or crash) a matmul; in a subprocess so
    # that a crash fails this test instead of the whole suite
    import os
    import subprocess
    script = _MM_SCRIPT % os.path.dirname(os.path.abspath(__file__))

    def run(extra):
        e = {k: v for k, v in os.environ.items() if k not in ("T_KC", "T_MC", "T_NC")}
        e.update(extra, MT_ENGINE_LIB=mtbind.LIB_PATH)
        return subprocess.run([sys.executable, "-c", script], env=e, capture_output=True,
                              text=True, timeout=120)

    base, other = run({}), run(env)
    assert base.returncode == 0, base.stderr
    assert other.returncode == 0, f"{env}: exit status {other.returncode} {other.stderr[-300:]}"
    same = other.stdout == base.stdout
    assert same, f"{env} changed the bytes of a 300^3 matmul"
