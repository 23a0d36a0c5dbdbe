"""mtbind.py — a thin ctypes binding of libminitorch for the differential tests.

Loads the shared library named by $MT_ENGINE_LIB (default build/libminitorch.so under the repo
root), declares the part of engine/include/minitorch/minitorch.h the tests use, and wraps it:

    ctx = Ctx()                                  # struct mt_ctx, freed by ctx.close()
    a = ctx.tensor(np.ones((2, 3)), "fast")      # mt_from_data; Tensor releases its reference
    b = ctx.map("exp", a)                        # raw op; ctx.fn("exp", a) is the Function
    b.numpy()                                    # mt_tensor_copy_out -> float32 array of b's shape

Every engine call that returns a non-OK status raises MtError(status, ename, message), with
ename from mt_status_ename (ShapeError, IndexError, ...) and the message from mt_ctx_error.
Memory: a Tensor owns one reference and drops it in close()/__del__; a Ctx remembers its live
tensors (weakly) and releases them before mt_ctx_free, since the engine requires it.
"""

import ctypes as C
import os
import weakref

import numpy as np

MT_MAX_DIMS = 8
MT_ALL_DIMS = -2**31  # INT_MIN, as in minitorch.h

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIB_PATH = os.environ.get("MT_ENGINE_LIB", os.path.join(REPO_ROOT, "build", "libminitorch.so"))

# enum mt_status, in header order
STATUS = ["OK", "CANCELLED", "NOMEM", "INVALID", "SHAPE", "INDEX", "BACKEND", "GRAD"]
BACKENDS = {"simple": 0, "fast": 1, "cuda": 2}
BACKEND_NAMES = {v: k for k, v in BACKENDS.items()}
# enum mt_map_op / mt_zip_op / mt_reduce_op, in header order (the tests check mt_*_name agrees)
MAP_OPS = ["neg", "id", "inv", "relu", "sigmoid", "log", "exp", "abs", "sqrt", "tanh"]
ZIP_OPS = ["add", "sub", "mul", "div", "lt", "gt", "eq", "is_close", "max", "relu_back",
           "log_back", "inv_back"]
REDUCE_OPS = ["sum", "prod", "max", "mean"]
# differentiable Functions: one tensor in / two tensors in / tensor + dim
FN1 = ["neg", "inv", "relu", "sigmoid", "log", "exp", "abs", "sqrt", "tanh"]
FN2 = ["add", "sub", "mul", "div", "lt", "gt", "eq", "is_close", "matmul", "conv1d", "conv2d"]
FNR = ["sum", "mean", "max", "all"]


class MtTensorStruct(C.Structure):
    """struct mt_tensor, field for field (minitorch.h)."""


MtTensorStruct._fields_ = [
    ("refs", C.c_int),
    ("ndim", C.c_int),
    ("shape", C.c_int64 * MT_MAX_DIMS),
    ("strides", C.c_int64 * MT_MAX_DIMS),
    ("offset", C.c_int64),
    ("size", C.c_int64),
    ("backend", C.c_int),  # enum mt_backend
    ("requires_grad", C.c_bool),
    ("grad", C.POINTER(MtTensorStruct)),
    ("node", C.c_void_p),
    ("storage", C.c_void_p),
    ("ctx", C.c_void_p),
]


class MtDiag(C.Structure):
    """struct mt_diag (one op as it ran): field for field as in minitorch.h, which it must
    follow whenever that struct changes."""
    _fields_ = [
        ("op", C.c_char_p),
        ("backend", C.c_int),
        ("nin", C.c_int),
        ("in_ndim", C.c_int * 2),
        ("in_shape", (C.c_int64 * MT_MAX_DIMS) * 2),
        ("in_strides", (C.c_int64 * MT_MAX_DIMS) * 2),
        ("out_ndim", C.c_int),
        ("out_shape", C.c_int64 * MT_MAX_DIMS),
        ("out_strides", C.c_int64 * MT_MAX_DIMS),
        ("path", C.c_char_p),
        ("threads", C.c_int),
        ("chunk", C.c_int64),
        ("nchunks", C.c_int64),
        ("vec_width", C.c_int),
        ("bytes", C.c_double),
        ("flops", C.c_double),
        ("ns", C.c_int64),
        ("kernel", C.c_char_p),
        ("grid", C.c_uint * 3),
        ("block", C.c_uint * 3),
        ("shared_bytes", C.c_int),
        ("registers", C.c_int),
        ("occupancy", C.c_double),
        ("gpu_ns", C.c_int64),
        ("prog_insns", C.c_int),
        ("prog_name", C.c_char * 32),
        ("runs", C.c_int),
        ("ns_min", C.c_int64),
        ("ns_max", C.c_int64),
    ]


class MtLinear(C.Structure):
    """struct mt_linear: y = x @ weight + bias."""
    _fields_ = [("weight", C.POINTER(MtTensorStruct)), ("bias", C.POINTER(MtTensorStruct))]


DIAG_FN = C.CFUNCTYPE(None, C.c_void_p, C.POINTER(MtDiag))
TP = C.POINTER(MtTensorStruct)
TPP = C.POINTER(TP)
I64P = C.POINTER(C.c_int64)


class MtError(Exception):
    """A non-OK status from the engine."""

    def __init__(self, status, ename, message, call):
        self.status, self.ename, self.message, self.call = status, ename, message, call
        super().__init__(f"{call}: {ename} ({STATUS[status] if status < len(STATUS) else status})"
                         f": {message}")


class LibraryMissing(RuntimeError):
    pass


def _load():
    if not os.path.exists(LIB_PATH):
        raise LibraryMissing(f"libminitorch not found at {LIB_PATH} (set MT_ENGINE_LIB)")
    lib = C.CDLL(LIB_PATH)
    st, ctxp, i, b = C.c_int, C.c_void_p, C.c_int, C.c_int
    sig = {
        "mt_version": (C.c_char_p, []),
        "mt_status_str": (C.c_char_p, [st]),
        "mt_status_ename": (C.c_char_p, [st]),
        "mt_backend_name": (C.c_char_p, [b]),
        "mt_map_name": (C.c_char_p, [i]),
        "mt_zip_name": (C.c_char_p, [i]),
        "mt_reduce_name": (C.c_char_p, [i]),
        "mt_ctx_new": (ctxp, []),
        "mt_ctx_free": (None, [ctxp]),
        "mt_ctx_error": (C.c_char_p, [ctxp]),
        "mt_ctx_threads": (i, [ctxp]),
        "mt_ctx_set_threads": (st, [ctxp, i]),
        "mt_ctx_mem_used": (C.c_size_t, [ctxp]),
        "mt_seed": (None, [ctxp, C.c_uint64]),
        "mt_random": (C.c_double, [ctxp]),
        "mt_random_below": (C.c_uint64, [ctxp, C.c_uint64]),
        "mt_shuffle": (None, [ctxp, I64P, C.c_int64]),
        "mt_dataset_name": (C.c_char_p, [i]),
        "mt_dataset_parse": (st, [ctxp, C.c_char_p, C.POINTER(C.c_int)]),
        "mt_dataset_make": (st, [ctxp, b, i, C.c_int64, TPP, TPP]),
        "mt_ctx_set_mem_limit": (None, [ctxp, C.c_size_t]),
        "mt_ctx_set_diag": (None, [ctxp, DIAG_FN, C.c_void_p]),
        "mt_tensor_retain": (TP, [TP]),
        "mt_tensor_release": (None, [TP]),
        "mt_empty": (st, [ctxp, b, i, I64P, TPP]),
        "mt_full": (st, [ctxp, b, i, I64P, C.c_float, TPP]),
        "mt_zeros": (st, [ctxp, b, i, I64P, TPP]),
        "mt_ones": (st, [ctxp, b, i, I64P, TPP]),
        "mt_rand": (st, [ctxp, b, i, I64P, TPP]),
        "mt_from_data": (st, [ctxp, b, i, I64P, C.POINTER(C.c_float), TPP]),
        "mt_tensor_is_contiguous": (C.c_bool, [TP]),
        "mt_tensor_copy_out": (st, [TP, C.POINTER(C.c_float)]),
        "mt_backend_check": (st, [ctxp, b]),
        "mt_map": (st, [ctxp, i, TP, TPP]),
        "mt_zip": (st, [ctxp, i, TP, TP, TPP]),
        "mt_reduce": (st, [ctxp, i, TP, i, TPP]),
        "mt_matmul_raw": (st, [ctxp, TP, TP, TPP]),
        "mt_conv_raw": (st, [ctxp, TP, TP, C.c_bool, TPP]),  # bool reverse
        "mt_view": (st, [ctxp, TP, i, I64P, TPP]),
        "mt_permute": (st, [ctxp, TP, i, I64P, TPP]),
        "mt_contiguous": (st, [ctxp, TP, TPP]),
        "mt_as_strided": (st, [ctxp, TP, i, I64P, I64P, C.c_int64, TPP]),
        "mt_to": (st, [ctxp, TP, b, TPP]),
        "mt_tensor_requires_grad": (st, [TP, C.c_bool]),
        "mt_detach": (st, [ctxp, TP, TPP]),
        "mt_backward": (st, [ctxp, TP, TP]),
        "mt_zero_grad": (None, [TP]),
        "mt_tensor_get": (st, [ctxp, TP, i, I64P, C.POINTER(C.c_float)]),
        "mt_tensor_set": (st, [ctxp, TP, i, I64P, C.c_float]),
        "mt_shape_str": (C.c_char_p, [i, I64P, C.c_char_p, C.c_size_t]),
        "mt_index_to_position": (C.c_int64, [i, I64P, I64P]),
        "mt_to_index": (None, [C.c_int64, i, I64P, I64P]),
        "mt_broadcast_index": (None, [I64P, i, i, I64P, I64P]),
        "mt_shape_broadcast": (st, [ctxp, i, I64P, i, I64P, C.POINTER(C.c_int), I64P]),
        "mt_strides_from_shape": (C.c_int64, [i, I64P, I64P]),
        "mt_cancel_request": (None, []),
        "mt_cancel_clear": (None, []),
        "mt_cancel_requested": (C.c_bool, []),
        "mt_linear_init": (st, [ctxp, b, C.c_int64, C.c_int64, C.POINTER(MtLinear)]),
        "mt_linear_forward": (st, [ctxp, C.POINTER(MtLinear), TP, TPP]),
        "mt_linear_free": (None, [C.POINTER(MtLinear)]),
        "mt_sgd_step": (st, [ctxp, C.POINTER(TP), i, C.c_float]),
        "mt_sgd_zero_grad": (None, [C.POINTER(TP), i]),
        "mt_trainer_new": (st, [ctxp, C.POINTER(MtLinear), i, TP, TP, C.c_int64, C.c_float,
                                C.c_bool, C.POINTER(C.c_void_p)]),
        "mt_trainer_epoch": (st, [C.c_void_p, C.POINTER(C.c_double)]),
        "mt_trainer_correct": (st, [C.c_void_p, I64P]),
        "mt_trainer_path": (C.c_char_p, [C.c_void_p]),
        "mt_trainer_free": (None, [C.c_void_p]),
    }
    for name in FN1:
        sig["mt_" + name] = (st, [ctxp, TP, TPP])
    for name in FN2:
        sig["mt_" + name] = (st, [ctxp, TP, TP, TPP])
    for name in FNR:
        sig["mt_" + name] = (st, [ctxp, TP, i, TPP])
    for name, (res, args) in sig.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args
    return lib


_lib = None


def cuda_available():
    """Whether the engine can run the cuda backend here (a GPU, or MT_CUDA_PLUGIN naming the
    tests' host stand-in of its library); False when the library itself is missing."""
    try:
        ctx = lib().mt_ctx_new()
    except (LibraryMissing, OSError):
        return False
    ok = lib().mt_backend_check(ctx, BACKENDS["cuda"]) == 0
    lib().mt_ctx_free(ctx)
    return ok


def lib():
    """The loaded library (loaded on first use; LibraryMissing if the file is absent)."""
    global _lib
    if _lib is None:
        _lib = _load()
    return _lib


def _dims(seq):
    seq = [int(s) for s in seq]
    return len(seq), (C.c_int64 * max(1, len(seq)))(*seq)


class Tensor:
    """One reference to an engine tensor. Read-only views of the struct's fields."""

    def __init__(self, ctx, ptr):
        assert ptr, "engine returned OK with a NULL tensor"
        self.ctx, self.ptr = ctx, ptr
        ctx._live.add(self)

    def close(self):
        if self.ptr:
            self.ctx._live.discard(self)
            self.__del__()

    def __del__(self):  # the WeakSet forgets a collected Tensor by itself
        if self.ptr:
            p, self.ptr = self.ptr, None
            lib().mt_tensor_release(p)

    @property
    def s(self):
        return self.ptr.contents

    @property
    def shape(self):
        s = self.s
        return tuple(s.shape[:s.ndim])

    @property
    def strides(self):
        s = self.s
        return tuple(s.strides[:s.ndim])

    offset = property(lambda self: self.s.offset)
    size = property(lambda self: self.s.size)
    backend = property(lambda self: BACKEND_NAMES[self.s.backend])
    requires_grad = property(lambda self: bool(self.s.requires_grad))

    @property
    def grad(self):
        """A new reference to ->grad, or None."""
        g = self.s.grad
        return Tensor(self.ctx, lib().mt_tensor_retain(g)) if g else None

    def is_contiguous(self):
        return bool(lib().mt_tensor_is_contiguous(self.ptr))

    def numpy(self):
        out = np.empty(self.shape, dtype=np.float32)
        self.ctx.check(lib().mt_tensor_copy_out(self.ptr, out.ctypes.data_as(C.POINTER(C.c_float))),
                       "mt_tensor_copy_out")
        return out

    def get(self, index):
        n, idx = _dims(index)
        v = C.c_float()
        self.ctx.check(lib().mt_tensor_get(self.ctx.p, self.ptr, n, idx, C.byref(v)),
                       "mt_tensor_get")
        return v.value

    def set(self, index, value):
        n, idx = _dims(index)
        self.ctx.check(lib().mt_tensor_set(self.ctx.p, self.ptr, n, idx, value), "mt_tensor_set")

    def requires_grad_(self, on=True):
        self.ctx.check(lib().mt_tensor_requires_grad(self.ptr, on), "mt_tensor_requires_grad")
        return self

    def zero_grad(self):
        lib().mt_zero_grad(self.ptr)

    def backward(self, grad=None):
        self.ctx.check(lib().mt_backward(self.ctx.p, self.ptr, grad.ptr if grad else None),
                       "mt_backward")

    def __repr__(self):
        return f"<mt tensor {self.backend} shape={self.shape} strides={self.strides}>"


class Ctx:
    """struct mt_ctx. close() releases the tensors still alive, then frees the context."""

    def __init__(self):
        self.p = lib().mt_ctx_new()
        assert self.p, "mt_ctx_new returned NULL"
        self._live = weakref.WeakSet()

    def close(self):
        if self.p:
            for t in list(self._live):
                t.close()
            lib().mt_ctx_free(self.p)
            self.p = None

    def error(self):
        return lib().mt_ctx_error(self.p).decode()

    def check(self, status, call):
        if status != 0:
            ename = lib().mt_status_ename(status)
            raise MtError(status, ename.decode() if ename else "?", self.error(), call)

    def _out(self, status, out, call):
        self.check(status, call)
        return Tensor(self, out)

    # ---- settings
    threads = property(lambda self: lib().mt_ctx_threads(self.p))

    def set_threads(self, n):
        self.check(lib().mt_ctx_set_threads(self.p, n), "mt_ctx_set_threads")

    def mem_used(self):
        return lib().mt_ctx_mem_used(self.p)

    def seed(self, n):
        lib().mt_seed(self.p, n)

    def record_diag(self):
        """Starts recording ops as they run; returns the list that fills up (stop_diag ends)."""
        rec = []

        def hook(_user, d):
            d = d.contents
            rec.append(dict(op=d.op.decode() if d.op else None,
                            path=d.path.decode() if d.path else None,
                            threads=d.threads, vec_width=d.vec_width,
                            out_shape=tuple(d.out_shape[:d.out_ndim])))

        self._diag_hook = DIAG_FN(hook)  # kept alive while set
        lib().mt_ctx_set_diag(self.p, self._diag_hook, None)
        return rec

    def stop_diag(self):
        lib().mt_ctx_set_diag(self.p, DIAG_FN(), None)
        self._diag_hook = None

    # ---- creation
    def tensor(self, data, backend="fast"):
        """mt_from_data of a copy of `data` as float32 (row-major)."""
        a = np.ascontiguousarray(np.asarray(data, dtype=np.float32))
        if a.ndim == 0:
            a = a.reshape(1)
        n, shp = _dims(a.shape)
        out = TP()
        st = lib().mt_from_data(self.p, BACKENDS[backend], n, shp,
                                a.ctypes.data_as(C.POINTER(C.c_float)), C.byref(out))
        return self._out(st, out, "mt_from_data")

    def create(self, kind, shape, backend="fast", value=None):
        """mt_empty / mt_zeros / mt_ones / mt_rand / mt_full(value)."""
        n, shp = _dims(shape)
        out = TP()
        f = getattr(lib(), "mt_" + kind)
        if kind == "full":
            st = f(self.p, BACKENDS[backend], n, shp, C.c_float(value), C.byref(out))
        else:
            st = f(self.p, BACKENDS[backend], n, shp, C.byref(out))
        return self._out(st, out, "mt_" + kind)

    # ---- raw ops; `out` = a preallocated Tensor written in place (returned)
    def _raw(self, call, out, fn, *args):
        p = TP() if out is None else out.ptr
        before = C.cast(p, C.c_void_p).value
        st = fn(*args, C.byref(p))
        self.check(st, call)
        if out is not None:
            assert C.cast(p, C.c_void_p).value == before, f"{call} replaced a preallocated out"
            return out
        return Tensor(self, p)

    def map(self, op, a, out=None):
        return self._raw("mt_map", out, lib().mt_map, self.p, MAP_OPS.index(op), a.ptr)

    def zip(self, op, a, b, out=None):
        return self._raw("mt_zip", out, lib().mt_zip, self.p, ZIP_OPS.index(op), a.ptr, b.ptr)

    def reduce(self, op, a, dim=MT_ALL_DIMS, out=None):
        return self._raw("mt_reduce", out, lib().mt_reduce, self.p, REDUCE_OPS.index(op),
                         a.ptr, dim)

    def matmul_raw(self, a, b, out=None):
        return self._raw("mt_matmul_raw", out, lib().mt_matmul_raw, self.p, a.ptr, b.ptr)

    def conv_raw(self, input, weight, reverse=False, out=None):
        """mt_conv_raw: 1-D (3-D tensors) or 2-D (4-D); `out` may have other spatial sizes."""
        return self._raw("mt_conv_raw", out, lib().mt_conv_raw, self.p, input.ptr, weight.ptr,
                         bool(reverse))

    # ---- views
    def view(self, t, shape):
        n, shp = _dims(shape)
        out = TP()
        return self._out(lib().mt_view(self.p, t.ptr, n, shp, C.byref(out)), out, "mt_view")

    def permute(self, t, order):
        n, o = _dims(order)
        out = TP()
        return self._out(lib().mt_permute(self.p, t.ptr, n, o, C.byref(out)), out, "mt_permute")

    def contiguous(self, t):
        out = TP()
        return self._out(lib().mt_contiguous(self.p, t.ptr, C.byref(out)), out, "mt_contiguous")

    def as_strided(self, t, shape, strides, offset):
        n, shp = _dims(shape)
        _, std = _dims(strides)
        out = TP()
        st = lib().mt_as_strided(self.p, t.ptr, n, shp, std, offset, C.byref(out))
        return self._out(st, out, "mt_as_strided")

    def to(self, t, backend):
        out = TP()
        st = lib().mt_to(self.p, t.ptr, BACKENDS[backend], C.byref(out))
        return self._out(st, out, "mt_to")

    def detach(self, t):
        out = TP()
        return self._out(lib().mt_detach(self.p, t.ptr, C.byref(out)), out, "mt_detach")

    # ---- differentiable Functions: fn("exp", a), fn("add", a, b), fn("sum", a, dim)
    def fn(self, name, a, b=None):
        out = TP()
        f = getattr(lib(), "mt_" + name)
        if name in FN1:
            st = f(self.p, a.ptr, C.byref(out))
        elif name in FN2:
            st = f(self.p, a.ptr, b.ptr, C.byref(out))
        else:
            st = f(self.p, a.ptr, MT_ALL_DIMS if b is None else b, C.byref(out))
        return self._out(st, out, "mt_" + name)
