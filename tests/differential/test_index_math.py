"""The index math of minitorch.h (MiniTorch's tensor_data.py) and element access, against
numpy: shape_broadcast vs np.broadcast_shapes, to_index vs np.unravel_index,
index_to_position, broadcast_index, strides_from_shape, shape_str, tensor_get/set."""

import ctypes as C

import numpy as np
import pytest
from hypothesis import given, strategies as st

import helpers as H
import mtbind
from mtbind import MtError, _dims


def _shape_broadcast(ctx, a, b):
    na, pa = _dims(a)
    nb, pb = _dims(b)
    nout, out = C.c_int(), (C.c_int64 * mtbind.MT_MAX_DIMS)()
    ctx.check(mtbind.lib().mt_shape_broadcast(ctx.p, na, pa, nb, pb, C.byref(nout), out),
              "mt_shape_broadcast")
    return tuple(out[:nout.value])


@given(a=st.lists(st.integers(1, 4), min_size=1, max_size=5).map(tuple),
       b=st.lists(st.integers(1, 4), min_size=1, max_size=5).map(tuple))
def test_shape_broadcast(ctx, a, b):
    try:
        ref = np.broadcast_shapes(a, b)
    except ValueError:
        with pytest.raises(MtError) as e:
            _shape_broadcast(ctx, a, b)
        assert e.value.ename == "ShapeError"
        return
    assert _shape_broadcast(ctx, a, b) == ref


@pytest.mark.parametrize("a,b,out", [((1,), (5, 5), (5, 5)), ((1, 5, 5), (5, 5), (1, 5, 5)),
                                     ((5, 1, 5, 1), (1, 5, 1, 5), (5, 5, 5, 5)),
                                     ((2, 5), (5,), (2, 5)), ((5, 2), (5,), None),
                                     ((5, 7, 5, 1), (1, 5, 1, 5), None)])
def test_shape_broadcast_minitorch_cases(ctx, a, b, out):
    if out is None:
        with pytest.raises(MtError) as e:
            _shape_broadcast(ctx, a, b)
        assert e.value.ename == "ShapeError"
        assert str(a).replace(" ", "") in e.value.message.replace(" ", "")
        assert str(b).replace(" ", "") in e.value.message.replace(" ", "")
    else:
        assert _shape_broadcast(ctx, a, b) == out


@given(shape=st.lists(st.integers(1, 5), min_size=1, max_size=8).map(tuple), data=st.data())
def test_index_functions(shape, data):
    lib = mtbind.lib()
    n, shp = _dims(shape)
    strides = (C.c_int64 * 8)()
    size = lib.mt_strides_from_shape(n, shp, strides)
    ref = np.empty(shape, np.float32)
    assert size == ref.size and tuple(strides[:n]) == tuple(s // 4 for s in ref.strides)
    ordinal = data.draw(st.integers(0, size - 1), "ordinal")
    idx = (C.c_int64 * 8)()
    lib.mt_to_index(ordinal, n, shp, idx)
    assert tuple(idx[:n]) == tuple(int(v) for v in np.unravel_index(ordinal, shape))
    assert lib.mt_index_to_position(n, idx, strides) == ordinal
    # broadcast_index into a smaller right-aligned shape: size-1 dims get 0, leading dropped
    k = data.draw(st.integers(1, n), "small ndim")
    small = tuple(1 if data.draw(st.booleans()) else d for d in shape[n - k:])
    ns, sp = _dims(small)
    out = (C.c_int64 * 8)()
    lib.mt_broadcast_index(idx, n, ns, sp, out)
    want = tuple(0 if s == 1 else idx[n - k + i] for i, s in enumerate(small))
    assert tuple(out[:ns]) == want


@pytest.mark.parametrize("shape,text", [((2, 3), "(2, 3)"), ((4,), "(4,)"),
                                        ((1, 0, 7), "(1, 0, 7)")])
def test_shape_str(shape, text):
    n, shp = _dims(shape)
    buf = C.create_string_buffer(64)
    assert mtbind.lib().mt_shape_str(n, shp, buf, 64) == text.encode()


@given(data=st.data())
def test_get_set(ctx, backend, data):
    shape = data.draw(H.small_shapes(), "shape")
    x = data.draw(H.arrays(shape), "x")
    t, seen = H.make(ctx, x, backend, data.draw(H.layouts(len(shape), ("contig", "permuted",
                                                                        "sliced")), "layout"))
    idx = tuple(data.draw(st.integers(-d, d - 1), f"i{i}") for i, d in enumerate(shape))
    assert t.get(idx) == seen[idx]
    t.set(idx, 42.5)
    seen = seen.copy()
    seen[idx] = 42.5
    H.assert_exact(t.numpy(), seen, "after set")
    bad = list(idx)
    bad[0] = shape[0]
    for b in (tuple(bad), idx[:-1] if len(idx) > 1 else idx + (0,)):
        with pytest.raises(MtError) as e:
            t.get(b)
        assert e.value.ename == "IndexError"
