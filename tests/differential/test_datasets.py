"""MiniTorch's datasets and Python's random module against the engine (datasets.c, context.c).

The reference is MiniTorch's datasets.py written out again here with Python's own `random`
(MT19937, random.seed(n)): the engine must draw the same points, give the same labels (decided
on the doubles, strictly), the same spiral, and shuffle a list into the same order as
random.shuffle. Points are compared after rounding the reference to float32, as the engine
stores them; labels and permutations exactly.
"""

import ctypes as C
import math
import random

import numpy as np
import pytest
from hypothesis import given, strategies as st

import mtbind
from mtbind import MtError, Tensor

NAMES = ["simple", "diag", "split", "xor", "circle", "spiral"]

RULES = {
    "simple": lambda x1, x2: x1 < 0.5,
    "diag": lambda x1, x2: x1 + x2 < 0.5,
    "split": lambda x1, x2: x1 < 0.2 or x1 > 0.8,
    "xor": lambda x1, x2: (x1 < 0.5 and x2 > 0.5) or (x1 > 0.5 and x2 < 0.5),
    "circle": lambda x1, x2: (x1 - 0.5) ** 2 + (x2 - 0.5) ** 2 > 0.1,
}


def reference(name, n, seed):
    """datasets.py: make_pts then the rule; spiral by its formula (no draws)."""
    random.seed(seed)
    if name == "spiral":
        def x(t):
            return t * math.cos(t) / 20.0

        def y(t):
            return t * math.sin(t) / 20.0
        h = n // 2
        X = [(x(10.0 * (float(i) / h)) + 0.5, y(10.0 * (float(i) / h)) + 0.5)
             for i in range(5, 5 + h)]
        X += [(y(-10.0 * (float(i) / h)) + 0.5, x(-10.0 * (float(i) / h)) + 0.5)
              for i in range(5, 5 + h)]
        return X, [0] * h + [1] * h
    X = []
    for _ in range(n):
        x1 = random.random()
        x2 = random.random()
        X.append((x1, x2))
    return X, [1 if RULES[name](x1, x2) else 0 for x1, x2 in X]


def make(ctx, name, n, seed, backend="fast"):
    kind = C.c_int()
    ctx.check(mtbind.lib().mt_dataset_parse(ctx.p, name.encode(), C.byref(kind)), "parse")
    ctx.seed(seed)
    X, y = mtbind.TP(), mtbind.TP()
    ctx.check(mtbind.lib().mt_dataset_make(ctx.p, mtbind.BACKENDS[backend], kind.value, n,
                                           C.byref(X), C.byref(y)), "mt_dataset_make")
    return Tensor(ctx, X), Tensor(ctx, y)


@pytest.mark.parametrize("name", NAMES)
@given(n=st.integers(2, 300), seed=st.integers(0, 2**32 - 1))
def test_points_and_labels_match_minitorch(ctx, backend, name, n, seed):
    X, y = make(ctx, name, n, seed, backend)
    rX, ry = reference(name, n, seed)
    assert X.shape == (len(rX), 2) and y.shape == (len(rX),)
    np.testing.assert_array_equal(X.numpy(), np.array(rX, np.float64).astype(np.float32))
    np.testing.assert_array_equal(y.numpy(), np.array(ry, np.float32))


def test_default_size_and_classes_present(ctx):
    # MiniTorch's N = 50: both classes occur for every set with seed 0 (a usable dataset)
    for name in NAMES:
        X, y = make(ctx, name, 50, 0)
        assert X.shape[0] == 50
        assert 0 < y.numpy().sum() < 50, name
    X, _ = make(ctx, "spiral", 51, 0)  # odd n: one point fewer, as datasets.py
    assert X.shape == (50, 2)


def test_names_and_errors(ctx):
    lib = mtbind.lib()
    assert [lib.mt_dataset_name(i).decode() for i in range(6)] == NAMES
    assert lib.mt_dataset_name(6) is None
    kind = C.c_int()
    ctx.check(lib.mt_dataset_parse(ctx.p, b"Xor", C.byref(kind)), "parse")  # registry's spelling
    assert kind.value == 3
    with pytest.raises(MtError) as e:
        ctx.check(lib.mt_dataset_parse(ctx.p, b"moons", C.byref(kind)), "parse")
    assert e.value.ename == "ValueError" and "simple, diag, split, xor, circle, spiral" in str(e.value)
    X, y = mtbind.TP(), mtbind.TP()
    for kind, n in ((0, 0), (0, -3), (5, 1), (0, 10**9), (9, 10)):
        with pytest.raises(MtError) as e:
            ctx.check(lib.mt_dataset_make(ctx.p, 1, kind, n, C.byref(X), C.byref(y)), "make")
        assert e.value.ename == "ValueError"
        assert not X and not y


@given(n=st.integers(0, 200), seed=st.integers(0, 2**32 - 1))
def test_shuffle_matches_random_shuffle(ctx, n, seed):
    ctx.seed(seed)
    perm = (C.c_int64 * max(n, 1))(*range(n))
    mtbind.lib().mt_shuffle(ctx.p, perm, n)
    random.seed(seed)
    ref = list(range(n))
    random.shuffle(ref)
    assert list(perm)[:n] == ref
    # the generator is left where Python's is: the next draws agree too
    assert mtbind.lib().mt_random(ctx.p) == random.random()


@given(bound=st.integers(1, 2**63), seed=st.integers(0, 2**32 - 1))
def test_random_below_matches_randbelow(ctx, bound, seed):
    ctx.seed(seed)
    random.seed(seed)
    got = [mtbind.lib().mt_random_below(ctx.p, bound) for _ in range(5)]
    assert got == [random.randrange(bound) for _ in range(5)]
