"""helpers.py — strategies, layouts, numpy references and tolerances for the differential suite.

Shapes. As MiniTorch's tests: 1-4 dims of size 1-3 (`small_shapes`), plus larger ones of size
1-257 with at most LARGE_ELEMS elements (`large_shapes`). Small tensors get their values drawn
element by element by hypothesis (so it can shrink them); large ones from a numpy generator
seeded by a drawn integer (the falsifying example prints shape, layout and seed: enough to
rebuild the input).

Layouts. MiniTorch builds every test tensor with permuted storage and un-permutes it, so
non-contiguous strides are the norm. `Layout` describes how an input is laid out in the engine:
  contig    mt_from_data
  permuted  storage holds x.transpose(perm); mt_permute by the inverse brings back x's shape
  sliced    x sits at [start::step] of a bigger NaN-filled buffer; mt_as_strided with an
            offset and steps (a read outside the slice shows up as NaN)
  bcast     stride-0 dims (mt_as_strided); the values are constant along them (make() returns
            the values the engine sees)

Tolerances (see assert_* below). The references are computed in float64 from the same float32
inputs. IEEE operations (+ - * / sqrt, comparisons, max, relu, neg, abs) are correctly rounded,
so rtol 1e-5 is ~80 ulp of slack; transcendental functions (libm or SIMD polynomials) are
within a few ulp. The absolute term is FLT_MIN (1.18e-38): below it float32 is subnormal, holds
only 2^-149 absolute precision and may be flushed to zero by SIMD code, so relative accuracy
cannot be asked there.
"""

import dataclasses
import math
import os
import subprocess
import tempfile

import numpy as np
import pytest
from hypothesis import assume, strategies as st

import mtbind

U = 2.0 ** -24                   # float32 unit roundoff
FLT_MIN = float(np.finfo(np.float32).tiny)  # smallest normal float32
RTOL = 1e-5
LARGE_ELEMS = 20000             # elements of a `large` random tensor (2-core time budget)
LARGE_DIM = 257

# ---- shapes ------------------------------------------------------------------------------


def small_shapes(min_dims=1, max_dims=4):
    return st.lists(st.integers(1, 3), min_size=min_dims, max_size=max_dims).map(tuple)


@st.composite
def large_shapes(draw, min_dims=1, max_dims=4, max_elems=LARGE_ELEMS, max_dim=LARGE_DIM):
    nd = draw(st.integers(min_dims, max_dims))
    shape, left = [], max_elems
    for i in range(nd):
        hi = max(1, min(max_dim, left // 2 ** (nd - 1 - i)))  # leave room for later dims
        d = draw(st.integers(1, hi))
        shape.append(d)
        left //= d
    return tuple(draw(st.permutations(shape)))


def shapes(size):
    return small_shapes() if size == "small" else large_shapes()


@st.composite
def broadcast_pair(draw, size="small", max_elems=LARGE_ELEMS):
    """(shape_a, shape_b) that broadcast: dims set to 1 on either side, leading dims dropped."""
    full = draw(small_shapes() if size == "small" else large_shapes(max_elems=max_elems))
    nd = len(full)
    a = tuple(1 if draw(st.booleans()) else d for d in full)
    b = tuple(1 if draw(st.booleans()) else d for d in full)
    a = a[draw(st.integers(0, nd - 1)):] if draw(st.booleans()) else a
    b = b[draw(st.integers(0, nd - 1)):] if draw(st.booleans()) else b
    return a, b


def broadcast_shape(a, b):
    return np.broadcast_shapes(a, b)


def unbroadcast(g, shape):
    """Sums g (of a broadcast shape) back to `shape`: MiniTorch's expand in backward."""
    g = g.sum(axis=tuple(range(g.ndim - len(shape))))
    return g.sum(axis=tuple(i for i, s in enumerate(shape) if s == 1), keepdims=True)


# ---- values ------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Domain:
    """Values in [lo, hi]; `away` > 0 keeps |x - center| >= away (poles, kinks); `pos` draws
    magnitudes in [lo, hi] with a random sign when signed=True."""
    lo: float = -100.0
    hi: float = 100.0
    away: float = 0.0
    center: float = 0.0
    signed: bool = False
    discrete: bool = False  # mix in a few repeated values so ties and equalities happen

    def element(self):
        lo, hi = np.float32(self.lo), np.float32(self.hi)
        lo = np.nextafter(lo, np.float32(np.inf)) if lo < self.lo else lo
        hi = np.nextafter(hi, np.float32(-np.inf)) if hi > self.hi else hi
        s = st.floats(float(lo), float(hi), allow_nan=False, width=32)
        if self.discrete:
            pts = [v for v in (-1.0, -0.5, 0.0, 0.005, 0.01, 0.015, 0.5, 1.0)
                   if self.lo <= v <= self.hi]
            s = st.one_of(st.sampled_from(pts), s)
        if self.signed:
            s = st.tuples(s, st.booleans()).map(lambda t: -t[0] if t[1] else t[0])
        if self.away:
            s = s.filter(lambda v: abs(v - self.center) >= self.away)
        return s

    def sample(self, rng, shape):
        x = rng.uniform(self.lo, self.hi, size=shape)
        if self.discrete:
            pts = np.array([-1.0, -0.5, 0.0, 0.5, 1.0])
            x = np.where(rng.random(shape) < 0.3, rng.choice(pts, size=shape), x)
            x = np.clip(x, self.lo, self.hi)
        if self.signed:
            x = np.where(rng.random(shape) < 0.5, -x, x)
        if self.away:
            d = x - self.center
            near = np.abs(d) < self.away
            x = np.where(near, self.center + np.where(d < 0, -1, 1) * (self.away + np.abs(d)), x)
        return x.astype(np.float32)


WIDE = Domain()
POS = Domain(0.1, 100.0)                     # log, sqrt
NONZERO = Domain(0.01, 100.0, signed=True)   # inv, divisors
EXP = Domain(-80.0, 80.0)                    # exp(80) = 5.5e34 < FLT_MAX
CMP = Domain(discrete=True)                  # comparisons: equal values must occur


@st.composite
def arrays(draw, shape, domain=WIDE, size=None):
    """A float32 array of `shape`: element-wise hypothesis draws for small tensors, a seeded
    numpy generator for large ones."""
    n = int(np.prod(shape))
    if size == "large" or (size is None and n > 100):
        seed = draw(st.integers(0, 2 ** 32 - 1))
        return domain.sample(np.random.default_rng(seed), shape)
    vals = draw(st.lists(domain.element(), min_size=n, max_size=n))
    return np.array(vals, dtype=np.float32).reshape(shape)


# ---- layouts -----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Layout:
    kind: str = "contig"
    perm: tuple = ()
    starts: tuple = ()
    steps: tuple = ()
    bdims: tuple = ()


KINDS = ("contig", "permuted", "sliced", "bcast")


@st.composite
def layouts(draw, ndim, kinds=KINDS):
    kind = draw(st.sampled_from(kinds))
    if kind == "permuted":
        return Layout(kind, perm=tuple(draw(st.permutations(range(ndim)))))
    if kind == "sliced":
        return Layout(kind, starts=tuple(draw(st.integers(0, 2)) for _ in range(ndim)),
                      steps=tuple(draw(st.integers(1, 3)) for _ in range(ndim)))
    if kind == "bcast":
        return Layout(kind, bdims=tuple(d for d in range(ndim) if draw(st.booleans())))
    return Layout(kind)


def make(ctx, x, backend, layout=Layout()):
    """An engine tensor with x's values laid out as `layout`; returns (tensor, values seen)."""
    x = np.asarray(x, dtype=np.float32)
    k = layout.kind
    if k == "contig":
        return ctx.tensor(x, backend), x
    if k == "permuted":
        p = list(layout.perm)
        store = ctx.tensor(np.ascontiguousarray(x.transpose(p)), backend)
        t = ctx.permute(store, list(np.argsort(p)))
        assert t.shape == x.shape
        return t, x
    if k == "sliced":
        big_shape = [s + (d - 1) * st_ + 1 + 1 if d else s + 1
                     for d, s, st_ in zip(x.shape, layout.starts, layout.steps)]
        big = np.full(big_shape, np.nan, dtype=np.float32)
        sl = tuple(slice(s, s + (d - 1) * st_ + 1, st_) if d else slice(s, s)
                   for d, s, st_ in zip(x.shape, layout.starts, layout.steps))
        big[sl] = x
        store = ctx.tensor(big, backend)
        bstr = [int(v) for v in np.array(big.strides) // 4]
        strides = [b * s for b, s in zip(bstr, layout.steps)]
        offset = sum(b * s for b, s in zip(bstr, layout.starts))
        return ctx.as_strided(store, x.shape, strides, offset), x
    if k == "bcast":
        base = x[tuple(slice(0, 1) if d in layout.bdims else slice(None)
                       for d in range(x.ndim))]
        store = ctx.tensor(np.ascontiguousarray(base), backend)
        strides = [0 if d in layout.bdims else s for d, s in enumerate(store.strides)]
        seen = np.broadcast_to(base, x.shape)
        return ctx.as_strided(store, x.shape, strides, 0), np.ascontiguousarray(seen)
    raise ValueError(k)


# ---- references ----------------------------------------------------------------------------


def _sigmoid(x):
    with np.errstate(over="ignore", invalid="ignore"):  # the branch not taken may overflow
        return np.where(x >= 0, 1.0 / (1.0 + np.exp(-x)), np.exp(x) / (1.0 + np.exp(x)))


MAP_REF = {
    "neg": lambda x: -x,
    "id": lambda x: x,
    "inv": lambda x: 1.0 / x,
    "relu": lambda x: np.where(x > 0, x, 0.0),
    "sigmoid": _sigmoid,
    "log": np.log,
    "exp": np.exp,
    "abs": np.abs,
    "sqrt": np.sqrt,
    "tanh": np.tanh,
}
MAP_DOMAIN = {"inv": NONZERO, "log": POS, "sqrt": Domain(0.0, 100.0), "exp": EXP}
# Results exactly determined by IEEE arithmetic: compared bit for bit with numpy's float32
# value and between backends.
MAP_EXACT = {"neg", "id", "relu", "abs"}
MAP_IEEE = MAP_EXACT | {"inv", "sqrt"}  # correctly rounded: simple and fast must agree exactly
# log's outputs near 0 come from inputs near 1, where float32 itself spaces values 2^-24 apart
# relative; an implementation computing log(m) + e*ln2 is accurate to ~1 ulp of 1, not of the
# tiny result. Allow that absolute 2^-23.
MAP_ATOL = {"log": 2.0 ** -23}

ZIP_REF = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
    "lt": lambda a, b: (a < b).astype(np.float64),
    "gt": lambda a, b: (a > b).astype(np.float64),
    "eq": lambda a, b: (a == b).astype(np.float64),
    # |a-b| < 1e-2 evaluated in float32 as the engine (and MiniTorch on float32 data) does
    "is_close": lambda a, b: (np.abs(a.astype(np.float32) - b.astype(np.float32))
                              < np.float32(1e-2)).astype(np.float64),
    "max": lambda a, b: np.where(a > b, a, b),
    "relu_back": lambda a, b: np.where(a > 0, b, 0.0),
    "log_back": lambda a, b: b / a,
    "inv_back": lambda a, b: -b / (a * a),
}
ZIP_EXACT = {"lt", "gt", "eq", "is_close", "max", "relu_back"}
ZIP_IEEE = ZIP_EXACT | {"add", "sub", "mul", "div", "log_back"}
# domains of (a, b)
ZIP_DOMAIN = {"div": (WIDE, NONZERO), "log_back": (NONZERO, WIDE), "inv_back": (NONZERO, WIDE)}
for _op in ("lt", "gt", "eq", "is_close", "max", "relu_back"):
    ZIP_DOMAIN[_op] = (CMP, CMP)


def gamma(n):
    """Higham's gamma_n = n u / (1 - n u): bounds the relative error of any n-term float
    summation order (serial, pairwise, SIMD lanes, per-thread partials) w.r.t. sum |x_i|."""
    return n * U / (1 - n * U)


def _fail_msg(got, ref, bound, what):
    bad = np.argwhere(~(np.abs(got.astype(np.float64) - ref) <= bound) &
                      ~(np.isnan(got) & np.isnan(ref)) &
                      ~(np.isinf(ref) & (got.astype(np.float64) == ref)))
    lines = [f"{what}: {len(bad)} of {got.size} elements out of tolerance"]
    for idx in bad[:8]:
        i = tuple(int(v) for v in idx)
        b = bound[i] if np.ndim(bound) else bound
        lines.append(f"  at {i}: engine {got[i]!r} numpy {ref[i]!r} |diff| "
                     f"{abs(float(got[i]) - float(ref[i])):.3g} > bound {float(b):.3g}")
    return "\n".join(lines)


def assert_within(got, ref, bound, what="values"):
    """|got - ref| <= bound elementwise (NaN matches NaN, inf matches the same inf)."""
    got = np.asarray(got)
    ref = np.broadcast_to(np.asarray(ref, dtype=np.float64), got.shape)
    assert got.shape == ref.shape, f"{what}: shape {got.shape} != numpy {ref.shape}"
    g = got.astype(np.float64)
    with np.errstate(invalid="ignore"):
        ok = (np.abs(g - ref) <= bound) | (np.isnan(g) & np.isnan(ref)) | \
             (np.isinf(ref) & (g == ref))
    assert ok.all(), _fail_msg(got, ref, bound, what)


def assert_close(got, ref, rtol=RTOL, atol=FLT_MIN, what="values"):
    ref = np.asarray(ref, dtype=np.float64)
    assert_within(got, ref, rtol * np.abs(ref) + atol, what)


def assert_exact(got, ref, what="values"):
    got = np.asarray(got)
    ref32 = np.asarray(ref).astype(np.float32)
    assert got.shape == ref32.shape, f"{what}: shape {got.shape} != numpy {ref32.shape}"
    ok = (got == ref32) | (np.isnan(got) & np.isnan(ref32))
    assert ok.all(), _fail_msg(got, ref32.astype(np.float64), 0.0, what + " (exact)")


def assert_same_bits(a, b, what="results"):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape, f"{what}: shapes {a.shape} != {b.shape}"
    if a.tobytes() != b.tobytes():
        diff = np.argwhere(a.view(np.uint32) != b.view(np.uint32))
        i = tuple(int(v) for v in diff[0])
        raise AssertionError(f"{what}: {len(diff)} of {a.size} elements differ in bits; first at "
                             f"{i}: {a[i]!r} vs {b[i]!r}")


def sum_bound(x64, axis, n):
    """Tolerance of a float32 sum of n terms: max(1e-5, gamma_{n-1}) * sum |x|. With
    cancellation the sum can be ~0 while each partial sum is exact only to u*|partial|, so
    the bound scales with sum |x|, not |sum x|; gamma covers every summation order."""
    return max(RTOL, gamma(max(n - 1, 0))) * np.abs(x64).sum(axis=axis, keepdims=True) + FLT_MIN


def matmul_bound(a64, b64, k):
    """Each output is a K-term dot product: |err| <= gamma_K * (|A| @ |B|) for any order of
    accumulation (blocked GEMM, FMA, split K). Floor 1e-5 like the other ops."""
    return max(RTOL, gamma(k)) * (np.abs(a64) @ np.abs(b64)) + FLT_MIN


def reduce_ref(op, x64, dim):
    """numpy reference of mt_reduce: keeps dim; dim None = all (shape (1,))."""
    if dim is None:
        x64 = x64.reshape(-1)
        dim = 0
    n = x64.shape[dim]
    with np.errstate(invalid="ignore", divide="ignore"):
        if op == "sum":
            r = x64.sum(axis=dim, keepdims=True)
        elif op == "prod":
            r = x64.prod(axis=dim, keepdims=True)
        elif op == "max":
            r = x64.max(axis=dim, keepdims=True, initial=-np.inf)
        else:
            r = x64.sum(axis=dim, keepdims=True) / n if n else \
                np.full(x64.sum(axis=dim, keepdims=True).shape, np.nan)
    return r


def check_reduce(op, got, x32, dim, what="reduce"):
    x64 = x32.astype(np.float64)
    ref = reduce_ref(op, x64, dim)
    flat = x64.reshape(-1) if dim is None else x64
    ax = 0 if dim is None else dim
    n = flat.shape[ax]
    if dim is None:
        assert got.shape == (1,), f"{what}: shape {got.shape}, expected (1,)"
    if op == "max":
        assert_exact(got, ref, what)
    elif op == "sum":
        assert_within(got, ref, sum_bound(flat, ax, n), what)
    elif op == "mean":
        assert_within(got, ref, sum_bound(flat, ax, n) / max(n, 1) * (1 + 2 * U), what)
    else:  # prod: n-1 roundings, each relative u
        assert_within(got, ref, max(RTOL, gamma(n)) * np.abs(ref) + FLT_MIN, what)


def prod_domain(n):
    """Values whose product over n terms stays well inside float32's normal range."""
    L = min(math.log(2.0), 30.0 / max(n, 1))
    return L


def prod_values(rng, shape, n):
    L = prod_domain(n)
    mag = np.exp(rng.uniform(-L, L, size=shape))
    sign = np.where(rng.random(shape) < 0.5, -1.0, 1.0)
    return (mag * sign).astype(np.float32)


__all__ = ["assume"]


def run_script(text, timeout):
    """Runs a language script with `minitorch-kernel run` (the binary next to MT_ENGINE_LIB), on
    an empty compile cache: the completed process, its output as text."""
    lib = os.environ.get("MT_ENGINE_LIB", "")
    kernel = os.path.join(os.path.dirname(lib), "minitorch-kernel")
    if not os.access(kernel, os.X_OK):
        pytest.fail(f"no kernel binary next to {lib!r}: build the minitorch-kernel target")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "script.mt")
        with open(path, "w") as f:
            f.write(text)
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
        return subprocess.run([kernel, "run", path], capture_output=True, text=True, env=env,
                              timeout=timeout)
