"""Outputs that overlap their inputs, and values written after autodiff used them, against numpy.

An op given an `out` that views the storage one of its inputs views (engine/src/alias.c) must
do what numpy's ufuncs do with `out=`: give the values the op has on a copy of the inputs taken
before it runs, written into out's positions, every other position of the storage untouched.
Each case here builds one storage, an output view of it that does not overlap itself (a
row-major block, transposed or with reversed rows) and input views of the same storage with any
strides (negative, zero: broadcast) and offset, runs the op, and compares the whole storage
with numpy's result on a copy. The values are small integers, so sums and products are exact in
float32 whatever order a backend adds them in: the comparison is exact. The built-in ops
(mt_map, mt_zip, mt_reduce, mt_matmul_raw) and the user-function programs (mt_map_prog,
mt_zip_prog, mt_reduce_prog, bound here) run on every backend.

backward (engine/src/autodiff.c) must never use a value written in place after the Function
that reads it ran: it either refuses (RuntimeError, as PyTorch) or gives the gradient at the
values the forward saw; Functions whose backward reads no value (neg, add, sub) never refuse.
"""

import ctypes as C

import numpy as np
import pytest
from hypothesis import given, strategies as hs
from numpy.lib.stride_tricks import as_strided

import mtbind
from mtbind import TP, MtError, lib

F32 = np.float32


# ---- the user-function programs (minitorch.h's struct mt_prog), bound for these tests only
class ProgInsn(C.Structure):
    _fields_ = [("op", C.c_int), ("dst", C.c_int), ("a", C.c_int), ("b", C.c_int),
                ("c", C.c_int), ("imm", C.c_float)]


class Prog(C.Structure):
    _fields_ = [("name", C.c_char_p), ("nargs", C.c_int), ("ninsn", C.c_int),
                ("insn", C.POINTER(ProgInsn)), ("result", C.c_int)]


P_NEG, P_ADD = 1, 10  # enum mt_prog_op


def _prog(name, nargs, insns):
    arr = (ProgInsn * len(insns))(*[ProgInsn(*i) for i in insns])
    p = Prog(name.encode(), nargs, len(insns), arr, insns[-1][1])
    p._keep = arr
    return p


NEG_PROG = _prog("neg", 1, [(P_NEG, 1, 0, 0, 0, 0.0)])
ADD_PROG = _prog("add", 2, [(P_ADD, 2, 0, 1, 0, 0.0)])


def _bind_progs():
    L = lib()
    st, ctxp = C.c_int, C.c_void_p
    L.mt_map_prog.restype = L.mt_zip_prog.restype = L.mt_reduce_prog.restype = st
    L.mt_map_prog.argtypes = [ctxp, C.POINTER(Prog), TP, C.POINTER(TP)]
    L.mt_zip_prog.argtypes = [ctxp, C.POINTER(Prog), TP, TP, C.POINTER(TP)]
    L.mt_reduce_prog.argtypes = [ctxp, C.POINTER(Prog), TP, C.c_int, C.c_float, C.POINTER(TP)]
    return L


def run_into(ctx, call, out):
    p = out.ptr
    before = C.cast(p, C.c_void_p).value
    ctx.check(call(C.byref(p)), "prog")
    assert C.cast(p, C.c_void_p).value == before


# ---- views of one storage, in the engine and in numpy
def view(ctx, base, geom):
    shape, strides, offset = geom
    return ctx.as_strided(base, shape, strides, offset)


def np_view(store, geom):
    shape, strides, offset = geom
    return as_strided(store[offset:], shape=shape, strides=[s * 4 for s in strides],
                      writeable=True)


def reach(geom):
    shape, strides, offset = geom
    lo = offset + sum(min(0, (n - 1) * s) for n, s in zip(shape, strides))
    hi = offset + sum(max(0, (n - 1) * s) for n, s in zip(shape, strides))
    return lo, hi


@hs.composite
def out_geometry(draw, shape, length):
    """A view of `shape` that reaches each position at most once: a row-major block, its
    transpose, or with its rows reversed, at some offset."""
    r, c = shape
    kind = draw(hs.sampled_from(["rows", "transposed", "reversed"]))
    strides = {"rows": (c, 1), "transposed": (1, r), "reversed": (-c, 1)}[kind]
    lo, hi = reach((shape, strides, 0))
    offset = draw(hs.integers(-lo, length - 1 - hi))
    return shape, strides, offset


@hs.composite
def in_geometry(draw, shape, length):
    """Any view of `shape` inside the storage: strides from -3 to 3 (0 broadcasts)."""
    strides = tuple(draw(hs.integers(-3, 3)) if n > 1 else 1 for n in shape)
    lo, hi = reach((shape, strides, 0))
    if hi - lo >= length:
        strides = tuple(0 for _ in shape)
        lo = hi = 0
    offset = draw(hs.integers(-lo, length - 1 - hi))
    return shape, strides, offset


LENGTH = 96


def storage(ctx, backend):
    data = (np.arange(LENGTH) % 9 - 4).astype(F32)
    return data, ctx.tensor(data, backend)


def check_storage(base, want, what):
    got = base.numpy()
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, (f"{what}: {bad.size} positions differ, first {bad[0]}: got "
                           f"{got[bad[0]]}, numpy {want[bad[0]]}")


@given(data=hs.data())
@pytest.mark.parametrize("kind", ["map", "zip", "map_prog", "zip_prog"])
def test_elementwise_out_overlapping_inputs(ctx, backend, kind, data):
    r, c = data.draw(hs.integers(1, 6)), data.draw(hs.integers(1, 6))
    og = data.draw(out_geometry((r, c), LENGTH))
    shapes = [(r, c), (1, c), (r, 1)]
    ga = data.draw(hs.sampled_from([og, None]))  # the output itself, or any view
    ga = ga or data.draw(in_geometry(data.draw(hs.sampled_from(shapes)), LENGTH))
    gb = data.draw(in_geometry((r, c), LENGTH))
    store, base = storage(ctx, backend)
    out, a, b = view(ctx, base, og), view(ctx, base, ga), view(ctx, base, gb)
    want = store.copy()
    va, vb = np_view(store, ga).copy(), np_view(store, gb).copy()
    if kind == "map":
        np_view(want, og)[...] = -va
        ctx.map("neg", a, out=out)
    elif kind == "map_prog":
        np_view(want, og)[...] = -va
        run_into(ctx, lambda o: _bind_progs().mt_map_prog(ctx.p, C.byref(NEG_PROG), a.ptr, o), out)
    elif kind == "zip":
        np_view(want, og)[...] = va + vb
        ctx.zip("add", a, b, out=out)
    else:
        np_view(want, og)[...] = va + vb
        run_into(ctx, lambda o: _bind_progs().mt_zip_prog(ctx.p, C.byref(ADD_PROG), a.ptr, b.ptr,
                                                          o), out)
    check_storage(base, want, f"{kind} out={og} a={ga} b={gb}")


@given(data=hs.data())
@pytest.mark.parametrize("kind", ["sum", "reduce_prog", "matmul"])
def test_reduce_and_matmul_out_overlapping_inputs(ctx, backend, kind, data):
    r, c = data.draw(hs.integers(1, 6)), data.draw(hs.integers(1, 6))
    store, base = storage(ctx, backend)
    want = store.copy()
    if kind == "matmul":
        k = data.draw(hs.integers(1, 5))
        og = data.draw(out_geometry((r, c), LENGTH))
        ga, gb = data.draw(in_geometry((r, k), LENGTH)), data.draw(in_geometry((k, c), LENGTH))
        va, vb = np_view(store, ga).copy(), np_view(store, gb).copy()
        np_view(want, og)[...] = va @ vb
        a, b, out = view(ctx, base, ga), view(ctx, base, gb), view(ctx, base, og)
        ctx.matmul_raw(a, b, out=out)
    else:
        dim = data.draw(hs.integers(0, 1))
        oshape = (1, c) if dim == 0 else (r, 1)
        og = data.draw(out_geometry(oshape, LENGTH))
        ga = data.draw(hs.sampled_from([og, None])) if oshape == (r, c) else None
        ga = ga or data.draw(in_geometry((r, c), LENGTH))
        va = np_view(store, ga).copy()
        np_view(want, og)[...] = va.sum(axis=dim, keepdims=True)
        a, out = view(ctx, base, ga), view(ctx, base, og)
        if kind == "sum":
            ctx.reduce("sum", a, dim, out=out)
        else:
            run_into(ctx, lambda o: _bind_progs().mt_reduce_prog(ctx.p, C.byref(ADD_PROG), a.ptr,
                                                                 dim, 0.0, o), out)
    check_storage(base, want, f"{kind} out={og}")


# Past the user functions' blocks of 2,048 elements and the fast backend's tiles: x = f(x^T)
@pytest.mark.parametrize("kind", ["map", "map_prog", "zip", "sum"])
def test_large_transpose_into_itself(ctx, backend, kind):
    n = 96
    data = (np.arange(n * n) % 13 - 6).astype(F32)
    x = ctx.tensor(data.reshape(n, n), backend)
    t = ctx.permute(x, (1, 0))
    ref = data.reshape(n, n)
    if kind == "map":
        want = -ref.T
        ctx.map("neg", t, out=x)
    elif kind == "map_prog":
        want = -ref.T
        run_into(ctx, lambda o: _bind_progs().mt_map_prog(ctx.p, C.byref(NEG_PROG), t.ptr, o), x)
    elif kind == "zip":
        want = ref.T + ref
        ctx.zip("add", t, x, out=x)
    else:  # column sums down x's last column
        want = ref.copy()
        want[:, n - 1] = ref.sum(axis=0)
        col = ctx.as_strided(x, (1, n), (1, n), n - 1)
        ctx.reduce("sum", x, 0, out=col)
    np.testing.assert_array_equal(x.numpy(), want)


# ---- backward after an in-place write
D1 = {  # d f / d x at x, for the one-input Functions
    "neg": lambda x: -np.ones_like(x), "inv": lambda x: -1 / (x * x),
    "relu": lambda x: (x > 0).astype(F32), "sigmoid": lambda x: _sig(x) * (1 - _sig(x)),
    "log": lambda x: 1 / x, "exp": np.exp, "abs": np.sign, "sqrt": lambda x: 0.5 / np.sqrt(x),
    "tanh": lambda x: 1 - np.tanh(x) ** 2,
}
D2 = {  # (d/da, d/db) of the two-input Functions
    "add": lambda a, b: (np.ones_like(a), np.ones_like(b)),
    "sub": lambda a, b: (np.ones_like(a), -np.ones_like(b)),
    "mul": lambda a, b: (b, a), "div": lambda a, b: (1 / b, -a / (b * b)),
}
READS_NOTHING = {"neg", "add", "sub"}


def _sig(x):
    return 1 / (1 + np.exp(-x))


@pytest.mark.parametrize("name", list(D1) + list(D2))
@pytest.mark.parametrize("written", ["input", "result"])
def test_backward_after_inplace_write_is_right_or_refused(ctx, backend, name, written):
    xa = np.array([0.5, 1.25, 2.0], dtype=F32)
    xb = np.array([1.5, 0.75, 3.0], dtype=F32)
    a = ctx.tensor(xa, backend).requires_grad_()
    b = ctx.tensor(xb, backend).requires_grad_()
    y = ctx.fn(name, a, b) if name in D2 else ctx.fn(name, a)
    (a if written == "input" else y).set([0], 4.0)  # after the forward used it
    s = ctx.fn("sum", y)
    try:
        s.backward()
    except MtError as e:
        assert e.ename == "RuntimeError" and "modified in place" in e.message, e
        assert name not in READS_NOTHING, f"{name}'s backward reads no value, yet: {e.message}"
        assert a.grad is None and b.grad is None, "a refused backward accumulated a gradient"
        return
    want = D2[name](xa, xb) if name in D2 else (D1[name](xa),)
    np.testing.assert_allclose(a.grad.numpy(), want[0], rtol=1e-5)
    if name in D2:
        np.testing.assert_allclose(b.grad.numpy(), want[1], rtol=1e-5)


def test_views_share_the_version(ctx, backend):
    x = ctx.tensor(np.array([1.0, 2.0, 3.0], dtype=F32), backend).requires_grad_()
    y = ctx.fn("mul", x, x)
    ctx.view(ctx.detach(x), (3, 1)).set([2, 0], 10.0)
    with pytest.raises(MtError, match="modified in place"):
        ctx.fn("sum", y).backward()
    # recomputed after the write, the graph is used as usual: d(x*x)/dx = 2x at the new x
    ctx.fn("sum", ctx.fn("mul", x, x)).backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0, 20.0])


def test_sgd_steps_between_graphs_train(ctx, backend):
    w = ctx.tensor(np.array([1.0, 2.0], dtype=F32), backend).requires_grad_()
    x = ctx.tensor(np.array([3.0, -1.0], dtype=F32), backend)
    params = (TP * 1)(w.ptr)
    want = np.array([1.0, 2.0], dtype=F32)
    for _ in range(4):
        lib().mt_sgd_zero_grad(params, 1)
        ctx.fn("sum", ctx.fn("mul", w, x)).backward()  # grad w = x
        ctx.check(lib().mt_sgd_step(ctx.p, params, 1, C.c_float(0.25)), "mt_sgd_step")
        want = want - F32(0.25) * np.array([3.0, -1.0], dtype=F32)
    np.testing.assert_array_equal(w.numpy(), want)


def test_issue_examples_through_the_language_engine(ctx):
    """The two cases of issue 23: map(f, xs.permute(1, 0), out=xs) and x*x then x[0] = 100."""
    xs = ctx.tensor(np.arange(4, dtype=F32).reshape(2, 2) + 1, "simple")
    t = ctx.permute(xs, (1, 0))
    run_into(ctx, lambda o: _bind_progs().mt_map_prog(ctx.p, C.byref(NEG_PROG), t.ptr, o), xs)
    np.testing.assert_array_equal(xs.numpy(), -(np.arange(4, dtype=F32).reshape(2, 2) + 1).T)
    xa = ctx.tensor(np.array([1.0, 2.0, 3.0], dtype=F32), "fast").requires_grad_()
    ya = ctx.fn("mul", xa, xa)
    xa.set([0], 100.0)
    with pytest.raises(MtError, match="mul"):
        ctx.fn("sum", ya).backward()
    assert xa.grad is None
