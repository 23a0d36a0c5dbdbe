"""The binding and the tensor basics: enum tables, struct layout, creation, views, backends."""

import random

import numpy as np
import pytest
from hypothesis import given, strategies as st

import helpers as H
import mtbind
from mtbind import MtError


def test_enum_names_match_the_binding():
    lib = mtbind.lib()
    assert [lib.mt_map_name(i).decode() for i in range(len(mtbind.MAP_OPS))] == mtbind.MAP_OPS
    assert [lib.mt_zip_name(i).decode() for i in range(len(mtbind.ZIP_OPS))] == mtbind.ZIP_OPS
    assert [lib.mt_reduce_name(i).decode()
            for i in range(len(mtbind.REDUCE_OPS))] == mtbind.REDUCE_OPS
    assert [lib.mt_backend_name(i).decode() for i in range(3)] == ["simple", "fast", "cuda"]
    enames = [lib.mt_status_ename(i).decode() for i in range(1, 8)]
    assert enames[:5] == ["KeyboardInterrupt", "MemoryError", "ValueError", "ShapeError",
                          "IndexError"]
    assert enames[5:] == ["RuntimeError", "RuntimeError"]
    assert lib.mt_version().decode() == "0.1.0"


def test_struct_layout(ctx, backend):
    # shape/strides/offset/size/backend/requires_grad read through the mirrored struct
    t = ctx.tensor(np.arange(24).reshape(2, 3, 4), backend)
    assert (t.s.ndim, t.shape, t.strides, t.offset, t.size) == (3, (2, 3, 4), (12, 4, 1), 0, 24)
    assert t.backend == backend and not t.requires_grad and not t.s.grad
    assert t.s.refs == 1 and t.is_contiguous()
    p = ctx.permute(t, [2, 0, 1])
    assert (p.shape, p.strides) == ((4, 2, 3), (1, 12, 4)) and not p.is_contiguous()
    assert t.s.storage == p.s.storage and t.s.ctx == ctx.p
    t.requires_grad_(True)
    assert t.requires_grad


@given(shape=st.lists(st.integers(0, 4), min_size=1, max_size=8).map(tuple))
def test_creation(ctx, backend, shape):
    for kind, val in (("zeros", 0.0), ("ones", 1.0), ("full", -2.5)):
        t = ctx.create(kind, shape, backend, value=val if kind == "full" else None)
        assert t.shape == shape and t.size == int(np.prod(shape)) and t.backend == backend
        H.assert_exact(t.numpy(), np.full(shape, val), kind)
    e = ctx.create("empty", shape, backend)
    assert e.shape == shape and e.is_contiguous()
    x = np.random.default_rng(len(shape)).standard_normal(shape).astype(np.float32)
    H.assert_exact(ctx.tensor(x, backend).numpy(), x, "from_data")


@given(seed=st.integers(0, 2 ** 31), n=st.integers(1, 700))
def test_rand_matches_python_random(ctx, seed, n):
    # mt_seed(n) + mt_rand draw as random.seed(n); random.random() (MT19937), one per element
    ctx.seed(seed)
    got = ctx.create("rand", (n,), "fast").numpy()
    random.seed(seed)
    ref = np.array([random.random() for _ in range(n)], dtype=np.float64)
    H.assert_exact(got, ref, "rand")


def test_to_shares_storage(ctx):
    t = ctx.tensor(np.arange(6).reshape(2, 3), "simple")
    f = ctx.to(t, "fast")
    assert f.backend == "fast" and f.s.storage == t.s.storage and f.shape == t.shape
    back = ctx.to(ctx.permute(f, [1, 0]), "simple")
    assert back.backend == "simple" and back.strides == (1, 3)
    H.assert_exact(back.numpy(), np.arange(6).reshape(2, 3).T, "to")


@given(data=st.data())
def test_layouts_round_trip(ctx, backend, data):
    # the helper that builds permuted / sliced / broadcast inputs, seen through copy_out and
    # through mt_contiguous (MiniTorch's Copy) and mt_view after it
    shape = data.draw(H.small_shapes(), "shape")
    lay = data.draw(H.layouts(len(shape)), "layout")
    x = data.draw(H.arrays(shape), "x")
    t, seen = H.make(ctx, x, backend, lay)
    H.assert_exact(t.numpy(), seen, "copy_out")
    c = ctx.contiguous(t)
    assert c.is_contiguous() and c.shape == shape
    H.assert_exact(c.numpy(), seen, "contiguous")
    v = ctx.view(c, (-1,))
    assert v.shape == (int(np.prod(shape)),) and v.s.storage == c.s.storage
    H.assert_exact(v.numpy(), seen.reshape(-1), "view")


@given(data=st.data())
def test_permute_and_view_shapes(ctx, backend, data):
    shape = data.draw(H.small_shapes(), "shape")
    order = data.draw(st.permutations(range(len(shape))), "order")
    x = data.draw(H.arrays(shape), "x")
    t = ctx.tensor(x, backend)
    p = ctx.permute(t, order)
    H.assert_exact(p.numpy(), x.transpose(order), "permute")
    new = data.draw(st.permutations(shape), "new shape")
    v = ctx.view(t, new)
    H.assert_exact(v.numpy(), x.reshape(new), "view")


def test_contiguous_of_contiguous_is_same_tensor(ctx, backend):
    t = ctx.tensor(np.ones((2, 2)), backend)
    c = ctx.contiguous(t)
    assert mtbind.C.addressof(c.s) == mtbind.C.addressof(t.s)  # a new reference to t
    assert t.s.refs == 2


def test_threads_setting(ctx):
    assert ctx.threads >= 1
    ctx.set_threads(1)
    assert ctx.threads == 1
    for bad in (0, -1, 1025):
        with pytest.raises(MtError) as e:
            ctx.set_threads(bad)
        assert e.value.ename == "ValueError"
