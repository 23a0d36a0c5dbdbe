"""User mistakes are statuses with a message, never crashes: shapes that must not broadcast,
matmul size mismatches, views of non-contiguous tensors, bad dims, mixed backends. Failed
calls leave their output NULL (the header's contract)."""

import ctypes as C

import numpy as np
import pytest

import mtbind
from mtbind import MtError


def raises(ename, fn, *args, **kw):
    with pytest.raises(MtError) as e:
        fn(*args, **kw)
    assert e.value.ename == ename, f"{e.value} (expected {ename})"
    assert e.value.message, "no message in the context"
    return e.value


def shape_str(s):
    return "(" + ", ".join(map(str, s)) + ("," if len(s) == 1 else "") + ")"


@pytest.mark.parametrize("sa,sb", [((5, 2), (5,)), ((5, 7, 5, 1), (1, 5, 1, 5)),
                                   ((2, 3), (3, 2)), ((4,), (3,))])
def test_zip_shapes_that_do_not_broadcast(ctx, backend, sa, sb):
    a, b = ctx.create("ones", sa, backend), ctx.create("ones", sb, backend)
    for fn in (lambda: ctx.zip("add", a, b), lambda: ctx.fn("add", a, b),
               lambda: ctx.fn("mul", b, a), lambda: ctx.zip("lt", b, a)):
        e = raises("ShapeError", fn)
        assert shape_str(sa) in e.message and shape_str(sb) in e.message, e.message


@pytest.mark.parametrize("sa,sb", [((2, 3), (4, 5)), ((3, 2), (3, 2)), ((2, 3, 4), (3, 4, 5)),
                                   ((7,), (7, 2)), ((2, 5, 3), (5, 3, 2))])
def test_matmul_mismatch(ctx, backend, sa, sb):
    a, b = ctx.create("ones", sa, backend), ctx.create("ones", sb, backend)
    for fn in (lambda: ctx.matmul_raw(a, b), lambda: ctx.fn("matmul", a, b)):
        e = raises("ShapeError", fn)
        assert shape_str(sa) in e.message and shape_str(sb) in e.message, e.message


def test_view_errors(ctx, backend):
    t = ctx.tensor(np.arange(6).reshape(2, 3), backend)
    p = ctx.permute(t, [1, 0])
    e = raises("ShapeError", ctx.view, p, (6,))
    assert "contiguous" in e.message, e.message
    e = raises("ShapeError", ctx.view, t, (4, 2))
    assert "(2, 3)" in e.message and "(4, 2)" in e.message, e.message
    raises("ShapeError", ctx.view, t, (-1, -1))
    raises("ShapeError", ctx.view, t, (-1, 4))
    assert ctx.view(t, (-1, 2)).shape == (3, 2)


def test_view_ambiguous_minus_one(ctx, backend):
    # -1 beside a 0: any size fits; numpy ("cannot reshape array of size 0 into shape
    # (-1,0)") and PyTorch ("ambiguous") refuse to guess
    z = ctx.create("zeros", (0, 3), backend)
    raises("ShapeError", ctx.view, z, (-1, 0))
    assert ctx.view(z, (-1,)).shape == (0,) and ctx.view(z, (5, 0)).shape == (5, 0)


def test_out_shape_errors(ctx, backend):
    a = ctx.create("ones", (3, 4), backend)
    out = ctx.create("zeros", (4, 3), backend)
    raises("ShapeError", ctx.map, "neg", a, out=out)          # a does not broadcast to out
    raises("ShapeError", ctx.map, "neg", ctx.create("ones", (5, 3, 4), backend),
           out=ctx.create("zeros", (3, 4), backend))       # out smaller than a
    raises("ShapeError", ctx.zip, "add", a, a, out=out)
    raises("ShapeError", ctx.zip, "add", a, a, out=ctx.create("zeros", (2, 3, 4), backend))
    raises("ShapeError", ctx.matmul_raw, a, ctx.create("ones", (4, 2), backend),
           out=ctx.create("zeros", (3, 3), backend))
    np.testing.assert_array_equal(out.numpy(), np.zeros((4, 3), np.float32))  # untouched


def test_reduce_dim_errors(ctx, backend):
    a = ctx.create("ones", (3, 4), backend)
    for dim in (2, 3, -3, 100):
        raises("IndexError", ctx.reduce, "sum", a, dim)
        raises("IndexError", ctx.fn, "sum", a, dim)


def test_permute_errors(ctx, backend):
    a = ctx.create("ones", (3, 4, 5), backend)
    for order in ([0, 1], [0, 0, 1], [0, 1, 3], [2, 1, -5]):
        with pytest.raises(MtError) as e:
            ctx.permute(a, order)
        assert e.value.ename in ("ValueError", "IndexError", "ShapeError")


def test_as_strided_outside_storage(ctx, backend):
    a = ctx.create("ones", (3, 4), backend)
    for shape, strides, off in (((3, 5), (4, 1), 0), ((12,), (1,), 1), ((2,), (12,), 0),
                                ((3,), (-1,), 0)):
        with pytest.raises(MtError):
            ctx.as_strided(a, shape, strides, off)
    assert ctx.as_strided(a, (2, 2), (0, 11), 0).numpy().shape == (2, 2)


def test_mixed_backends(ctx):
    a, b = ctx.create("ones", (2,), "simple"), ctx.create("ones", (2,), "fast")
    raises("RuntimeError", ctx.zip, "add", a, b)
    raises("RuntimeError", ctx.fn, "mul", a, b)
    raises("RuntimeError", ctx.matmul_raw, ctx.create("ones", (2, 2), "simple"),
           ctx.create("ones", (2, 2), "fast"))


def test_bad_creation(ctx, backend):
    for shape in ((), (-1,), (1,) * 9):
        with pytest.raises(MtError) as e:
            ctx.create("zeros", shape, backend)
        assert e.value.ename in ("ValueError", "ShapeError")
    if not mtbind.cuda_available():  # the backend refused, saying why
        with pytest.raises(MtError) as e:
            ctx.create("zeros", (2,), "cuda")
        assert e.value.ename == "RuntimeError"


def test_failed_call_leaves_out_null(ctx, backend):
    lib = mtbind.lib()
    a = ctx.create("ones", (5, 2), backend)
    b = ctx.create("ones", (5,), backend)
    out = mtbind.TP()
    assert lib.mt_zip(ctx.p, 0, a.ptr, b.ptr, C.byref(out)) != 0 and not out
    assert lib.mt_add(ctx.p, a.ptr, b.ptr, C.byref(out)) != 0 and not out
    assert lib.mt_matmul(ctx.p, a.ptr, a.ptr, C.byref(out)) != 0 and not out
    assert lib.mt_reduce(ctx.p, 0, a.ptr, 5, C.byref(out)) != 0 and not out


def test_memory_limit(ctx, backend):
    if backend == "cuda":
        pytest.skip("the context's limit counts host memory; running out of device memory is "
                    "tests/engine/test_cuda_tensors.c's")
    lib = mtbind.lib()
    lib.mt_ctx_set_mem_limit(ctx.p, 1 << 20)
    e = raises("MemoryError", ctx.create, "zeros", (1024, 1024), backend)
    assert any(s in e.message for s in ("1024", "4194304", "4.0 MiB", "4 MiB", "4.2 MB")), \
        e.message  # the size asked for
    lib.mt_ctx_set_mem_limit(ctx.p, 0)
    assert ctx.create("zeros", (1024, 1024), backend).size == 1 << 20
