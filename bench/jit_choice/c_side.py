"""C side: the generated-C stand-in compiled with the system compiler, run through ctypes on the
same arrays and shapes as numba_side.py. Threads via OMP_NUM_THREADS."""
import ctypes as C, json, os, subprocess, sys, time
import numpy as np
sys.path.insert(0, os.path.dirname(__file__))
from numba_side import rows  # same data shapes (numba import is only the module's)

class fbuf(C.Structure): _fields_ = [("p", C.c_void_p), ("n", C.c_int64)]
class ibuf(C.Structure): _fields_ = [("p", C.c_void_p), ("n", C.c_int64)]
class oob(C.Structure): _fields_ = [("line", C.c_int64), ("index", C.c_int64), ("size", C.c_int64), ("which", C.c_int)]

keep = []
def tup(a):
    base = a if a.base is None else a.base
    flat = base.reshape(-1)
    sh = np.array(a.shape, np.int64); st = np.array([s // 4 for s in a.strides], np.int64)
    keep.extend([flat, sh, st])
    return (fbuf(flat.ctypes.data, flat.size), ibuf(sh.ctypes.data, sh.size), ibuf(st.ctypes.data, st.size))

def main():
    so = sys.argv[1]
    lib = C.CDLL(os.path.abspath(so))
    cancel = C.c_int(0); err = oob()
    x, row, a2, a1 = rows()
    out = np.zeros((1000, 1000), np.float32)
    res = {}
    def timeit(name, fn):
        fn()
        ts = []
        for _ in range(7):
            s = time.perf_counter(); r = fn(); ts.append(time.perf_counter() - s)
            assert r == 0
        ts.sort()
        res[name] = {"median_ms": ts[3] * 1e3, "min_ms": ts[0] * 1e3, "max_ms": ts[-1] * 1e3}
    extra = (C.byref(cancel), C.byref(err))
    t = tup(out) + tup(x); timeit("map relu contiguous", lambda: lib.k_map(*t, *extra))
    assert np.array_equal(out, np.maximum(x, 0))
    t = tup(out) + tup(x.T); timeit("map relu transposed", lambda: lib.k_map(*t, *extra))
    assert np.array_equal(out, np.maximum(x.T, 0))
    t = tup(out) + tup(x) + tup(row); timeit("zip add broadcast row", lambda: lib.k_zip(*t, *extra))
    assert np.array_equal(out, x + row)
    o0 = np.zeros((1, 1000), np.float32); o1 = np.zeros((1000, 1), np.float32)
    t = tup(o0) + tup(x); timeit("sum dim 0", lambda: (o0.fill(0), lib.k_reduce(*t, C.c_int64(0), *extra))[1])
    t = tup(o1) + tup(x); timeit("sum dim 1", lambda: (o1.fill(0), lib.k_reduce(*t, C.c_int64(1), *extra))[1])
    o2 = np.zeros((2, 256, 256), np.float32)
    t = tup(o2) + tup(a2) + tup(a2); timeit("matmul (2,256,256)", lambda: lib.k_mm(*t, *extra))
    assert np.allclose(o2, a2 @ a2, rtol=1e-4)
    o3 = np.zeros((1, 512, 512), np.float32)
    t = tup(o3) + tup(a1) + tup(a1); timeit("matmul (1,512,512)", lambda: lib.k_mm(*t, *extra))
    print(json.dumps(res))

if __name__ == "__main__":
    main()
