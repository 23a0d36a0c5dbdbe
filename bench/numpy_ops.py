"""numpy_ops.py — numpy on the ops of bench/ops_bench.c, in the same units, for side by side.

Usage: OMP_NUM_THREADS=T OPENBLAS_NUM_THREADS=T python bench/numpy_ops.py [--reps N]

mt_ops_bench --numpy PYTHON runs this once per thread count and puts the medians next to its
own. Lines starting with RESULT are `name|median|min|max|unit` with the names ops_bench uses;
the others say what numpy ran with. numpy's ufuncs and reductions are single-threaded whatever
the thread count (only matmul goes to OpenBLAS's threads), so its 1- and 2-thread rows are the
same code; they are measured in each run anyway, since the machine is shared and noisy.
Bandwidth counts each element read or written once (a+b: 12 bytes per element).
"""

import argparse
import os
import time

import numpy as np


def measure(name, fn, inner, nbytes, unit, reps):
    fn()  # warm up: page faults, caches
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        times.append((time.perf_counter() - t0) / inner)
    times.sort()
    med, lo, hi = times[len(times) // 2], times[0], times[-1]
    if unit == "GB/s":
        med, lo, hi = nbytes / med / 1e9, nbytes / hi / 1e9, nbytes / lo / 1e9
    else:
        k = 1e9 if unit == "ns" else 1e6
        med, lo, hi = med * k, lo * k, hi * k
    print(f"RESULT {name}|{med:.4f}|{lo:.4f}|{hi:.4f}|{unit}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=11)
    args = ap.parse_args()
    reps = max(3, args.reps)
    threads = os.environ.get("OMP_NUM_THREADS", "?")
    try:
        cfg = np.show_config(mode="dicts")
        blas = cfg["Build Dependencies"]["blas"]
        blas_s = f"{blas.get('name')} {blas.get('version')}"
    except Exception:  # older numpy
        blas_s = "?"
    simd = ""
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as feats

        simd = " ".join(f for f in ("AVX512F", "AVX2", "FMA3") if feats.get(f))
    except Exception:
        pass
    print(f"numpy {np.__version__}, threads {threads}, {blas_s}, SIMD {simd}", flush=True)

    n = 1 << 24
    rng = np.random.default_rng(0)
    a = rng.random((4096, 4096), dtype=np.float32)
    b = rng.random((4096, 4096), dtype=np.float32)
    c = np.empty_like(a)
    e = n * 4.0
    ops = [
        ("a+b", lambda o: np.add(a, b, out=o), lambda: a + b, 3),
        ("neg", lambda o: np.negative(a, out=o), lambda: -a, 2),
        ("relu", lambda o: np.maximum(a, 0.0, out=o), lambda: np.maximum(a, 0.0), 2),
        ("exp", lambda o: np.exp(a, out=o), lambda: np.exp(a), 2),
    ]
    for name, into, fresh, k in ops:
        measure(f"{name} out= (16M)", lambda: into(c), 1, k * e, "GB/s", reps)
        measure(f"{name} fresh (16M)", fresh, 1, k * e, "GB/s", reps)
    measure("sum dim 0 (4096x4096)", lambda: a.sum(0), 1, e + 4096 * 4, "GB/s", reps)
    measure("sum dim 1 (4096x4096)", lambda: a.sum(1), 1, e + 4096 * 4, "GB/s", reps)
    measure("probe read sum 64MiB", lambda: a.sum(), 1, e, "GB/s", reps)
    measure("probe copy c=a", lambda: np.copyto(c, a), 1, 2 * e, "GB/s", reps)
    measure("probe scale b=3c", lambda: np.multiply(a, 3.0, out=c), 1, 2 * e, "GB/s", reps)
    measure("probe add c=a+b", lambda: np.add(a, b, out=c), 1, 3 * e, "GB/s", reps)
    # f(x) = (x * 1.5 + 0.5) * x - 2: numpy cannot fuse, so its "fused" row is the expression
    # as written (temporaries allocated), its "4 ops" row the same ops into out=
    def chain(o):
        np.multiply(a, 1.5, out=o)
        np.add(o, 0.5, out=o)
        np.multiply(o, a, out=o)
        np.subtract(o, 2.0, out=o)

    measure("4-op function fused (16M)", lambda: (a * 1.5 + 0.5) * a - 2.0, 1, 2 * e, "GB/s",
            reps)
    measure("4-op function as 4 ops (16M)", lambda: chain(c), 1, 2 * e, "GB/s", reps)
    x = rng.random((10, 100), dtype=np.float32)
    y = rng.random((10, 100), dtype=np.float32)
    z = np.empty_like(x)
    measure("tiny add 10x100 out=", lambda: np.add(x, y, out=z), 20000, 0, "ns", reps)


if __name__ == "__main__":
    main()
