"""numpy arrays' whole-array reductions in the kernel (a.sum(), a.max(), a.min(), a.mean())
against numpy itself, to the last bit: one script of many arrays of every dtype the kernel's
numpy knows, 0 to 3 dims, up to 700 elements (past the 128 where numpy's pairwise sum splits in
halves), values over many magnitudes, some NaN."""

import math
import warnings

import numpy as np

from helpers import run_script

DTYPES = ["float64", "float32", "int64", "int32", "bool"]
OPS = ["sum", "max", "min", "mean"]


def draw(rng, dtype):
    nd = int(rng.integers(1, 4))
    if nd == 1:
        shape = (int(rng.choice([0, 1, 5, 7, 8, 9, 16, 127, 128, 129, 200, 257, 700])),)
    else:
        shape = tuple(int(rng.integers(1, 9)) for _ in range(nd))
    size = int(np.prod(shape))
    if dtype == "bool":
        a = rng.random(size) < 0.5
    elif dtype.startswith("int"):
        a = rng.integers(-10**6, 10**6, size)
    else:
        a = rng.uniform(-1, 1, size) * 10.0 ** rng.integers(-6, 7, size)
        if size and rng.random() < 0.15:
            a[rng.integers(0, size)] = math.nan
    return np.array(a, dtype=dtype).reshape(shape)


def literal(a):
    """a as nested lists the kernel reads back exactly (repr of each float64 value)"""
    return repr(a.astype(object).tolist() if a.dtype != np.bool_ else a.tolist()).replace(
        "nan", 'float("nan")')


def test_reductions_match_numpy():
    rng = np.random.default_rng(7)
    cases = [(d, draw(rng, d)) for d in DTYPES for _ in range(12)]
    lines = ["import numpy as np"]
    want = []
    for k, (dtype, a) in enumerate(cases):
        src = literal(a.astype(np.float64) if dtype.startswith("float") else a)
        lines.append(f"a = np.array({src}, {'bool' if dtype == 'bool' else 'np.' + dtype})")
        for op in OPS:
            lines += ["try:", f"    print({k}, '{op}', repr(a.{op}()))",
                      "except ValueError as e:", f"    print({k}, '{op}', 'ValueError', e)"]
            try:
                with warnings.catch_warnings():  # the mean of nothing: numpy warns
                    warnings.simplefilter("ignore")
                    want.append((k, op, getattr(a, op)()))
            except ValueError as e:
                want.append((k, op, ValueError(str(e))))
    out = run_script("# %%\n" + "\n".join(lines) + "\n", 120)
    assert out.returncode == 0, out.stdout + out.stderr
    got = out.stdout.splitlines()
    assert len(got) == len(want), out.stdout[-2000:] + out.stderr
    for line, (k, op, w) in zip(got, want):
        num, name, value = line.split(" ", 2)
        assert (int(num), name) == (k, op), line
        dtype, a = cases[k]
        where = f"{dtype} {a.shape} .{op}(): kernel {value}, numpy {w!r}"
        if isinstance(w, ValueError):
            assert value == f"ValueError {w}", where
        elif isinstance(w, (bool, np.bool_)):
            assert value == repr(bool(w)), where
        elif isinstance(w, (int, np.integer)):
            assert value == repr(int(w)), where
        elif math.isnan(float(w)):
            assert value == "nan", where
        else:
            assert float(value) == float(w), where
