/* numba.c — numba's names MiniTorch's code uses: njit and jit (marking a function to run
 * compiled, lib/jit/), prange, the dtypes, and numba.cuda (is_available and cuda.jit). */
#include "lib/modules/module.h"

#include "lang/ndarray.h"
#include "lib/jit.h"
#include "lib/storage.h"
#include "lib/tensor_methods.h"

#include <stdlib.h>

/* njit(fn) gives fn; njit(parallel=True) and friends give a decorator that does. */
static int n_identity(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)in;
    *ret = dsl_value_retain(a->slot[0]);
    return 0;
}

/* njit(fn): fn itself, marked to run compiled (lib/jit/), its indices checked or not; what
 * is not a def is returned as it is (a builtin is native code already). */
static int mark_jit(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret,
                    bool unchecked, bool races)
{
    if (a->slot[0].kind == DSL_FUNCTION) {
        struct dsl_function *f = a->slot[0].as.fn_user;
        if (f->jit_unchecked != unchecked || f->jit_races != races) {
            dsl_jit_cache_free(f->jits); /* what was compiled before checked otherwise */
            f->jits = NULL;
        }
        f->jit = true;
        f->jit_unchecked = unchecked;
        f->jit_races = races;
    }
    return n_identity(in, a, ret);
}
static int n_mark_jit(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return mark_jit(in, a, ret, false, false);
}
static int n_mark_jit_unchecked(struct dsl_interp *in, const struct dsl_args *a,
                                struct dsl_value *ret)
{
    return mark_jit(in, a, ret, true, false);
}
static int n_mark_jit_races(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return mark_jit(in, a, ret, false, true);
}

static const struct dsl_builtin njit_apply = {
    "njit",
    "njit(...)(fn)",
    1,
    1,
    NULL,
    n_mark_jit,
    "Compiles fn to native code at its first call with each kind of arguments, as numba's "
    "njit does, and returns it."};
static const struct dsl_builtin njit_apply_unchecked = {
    "njit",
    "njit(..., boundscheck=False)(fn)",
    1,
    1,
    NULL,
    n_mark_jit_unchecked,
    "Compiles fn to native code without checking its indices (an index outside an array reads "
    "or writes other memory), and returns it."};

static const struct dsl_builtin njit_apply_races = {
    "njit",
    "njit(..., check_races=True)(fn)",
    1,
    1,
    NULL,
    n_mark_jit_races,
    "Compiles fn to native code that records which iteration of its prange loop wrote each "
    "element of a storage, so that two iterations writing one element are an error, and "
    "returns it."};

static const char *const njit_params[] = {
    "fn", "parallel", "inline", "fastmath", "cache", "device", "boundscheck", "check_races", NULL};

static int n_njit(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    /* boundscheck=False: Numba's default, here asked for (the kernel checks unless told) */
    bool unchecked = a->has[6] && a->slot[6].kind != DSL_NONE && !dsl_value_truthy(a->slot[6]);
    bool races = a->has[7] && dsl_value_truthy(a->slot[7]);
    if (unchecked && races)
        return dsl_raise(in, "ValueError",
                         "njit(check_races=True) checks indices: it cannot be boundscheck=False");
    if (a->has[0] && a->slot[0].kind != DSL_NONE) return mark_jit(in, a, ret, unchecked, races);
    *ret = (struct dsl_value){.kind = DSL_BUILTIN,
                              .as.fn = races       ? &njit_apply_races
                                       : unchecked ? &njit_apply_unchecked
                                                   : &njit_apply};
    return 0;
}

/* cuda.jit(fn): fn marked as a CUDA kernel (launched as fn[blocks, threads](...), lib/jit/cuda.c);
 * cuda.jit(device=True)(fn): fn as it is, a function kernels call (compiled into them). */
static int mark_cuda_kernel(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (a->slot[0].kind != DSL_FUNCTION)
        return dsl_raise(in, "TypeError", "cuda.jit compiles a function (def), not a %s",
                         dsl_type_name(a->slot[0]));
    a->slot[0].as.fn_user->cuda_kernel = true;
    return n_identity(in, a, ret);
}

static const struct dsl_builtin cuda_jit_apply = {
    "jit",
    "cuda.jit(...)(fn)",
    1,
    1,
    NULL,
    mark_cuda_kernel,
    "Makes fn a CUDA kernel, launched as fn[blocks, threads](args...): on the GPU when there is "
    "one, else in the kernel's CUDA simulator."};
static const struct dsl_builtin cuda_device_apply = {
    "jit",
    "cuda.jit(device=True)(fn)",
    1,
    1,
    NULL,
    n_identity,
    "Returns fn, a device function: kernels that call it compile it in."};

static int n_cuda_jit(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    bool device = a->has[5] && dsl_value_truthy(a->slot[5]);
    if (a->has[0] && a->slot[0].kind != DSL_NONE)
        return device ? n_identity(in, a, ret) : mark_cuda_kernel(in, a, ret);
    *ret = (struct dsl_value){.kind = DSL_BUILTIN,
                              .as.fn = device ? &cuda_device_apply : &cuda_jit_apply};
    return 0;
}

/* cuda.is_available(): whether cuda.jit kernels have a device to run on: the cuda backend's GPU,
 * or the simulator where it was chosen (%cuda simulate), as Numba's simulator says true under
 * NUMBA_ENABLE_CUDASIM=1, so that code guarded by it (MiniTorch's cuda tests) runs there. */
static int n_cuda_is_available(struct dsl_interp *in, const struct dsl_args *a,
                               struct dsl_value *ret)
{
    (void)a;
    *ret = dsl_bool(dsl_cuda_simulate_chosen() ||
                    mt_backend_check(ctx_of(in), MT_BACKEND_CUDA) == MT_OK);
    return 0;
}

/* cuda.is_cuda_array(x): whether x is memory on the GPU (a Storage or a tensor of the cuda
 * backend), as Numba asks of an array; a list, a number or host memory is not. */
static int n_is_cuda_array(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)in;
    struct mt_tensor *t = NULL;
    struct dsl_value x = a->slot[0];
    if (!dsl_storage_view(x, &t) && x.kind == DSL_TENSOR) t = x.as.t;
    *ret = dsl_bool(t && t->backend == MT_BACKEND_CUDA);
    return 0;
}

/* The numbers of a list or tuple (numpy's arrays here), as a new tensor on backend b. */
static int numbers_tensor(struct dsl_interp *in, struct dsl_value v, enum mt_backend b,
                          struct mt_tensor **out)
{
    size_t n = v.as.l->len;
    float *vals = malloc((n ? n : 1) * sizeof *vals);
    if (!vals) return dsl_raise_status(in, DSL_V_NOMEM);
    for (size_t i = 0; i < n; i++) {
        if (!dsl_is_number(v.as.l->items[i])) {
            free(vals);
            return dsl_raise(in, "TypeError", "cuda.to_device() copies numbers, not %s",
                             dsl_type_name(v.as.l->items[i]));
        }
        vals[i] = (float)dsl_as_double(v.as.l->items[i]);
    }
    int64_t len = (int64_t)n;
    enum mt_status st = mt_from_data(ctx_of(in), b, 1, &len, vals, out);
    free(vals);
    return st != MT_OK ? dsl_engine_raise(in, st) : 0;
}

/* cuda.to_device(x): a copy of x (a Storage, or a list or tuple of numbers) in the device's
 * memory, as a Storage. Where cuda.jit kernels run in the kernel's simulator (no GPU, or %cuda
 * simulate), the device's memory is the host's, as in Numba's simulator, whose to_device
 * copies into host memory too. A numpy array's copy is a numpy array of its dtype (a Storage
 * holds float32, MiniTorch's storages are float64), in host memory: a kernel given it copies
 * it to the GPU and back at each launch, as Numba does with a host array. */
static int n_to_device(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct mt_ctx *ctx = ctx_of(in);
    enum mt_backend b = dsl_cuda_simulating(ctx) ? MT_BACKEND_SIMPLE : MT_BACKEND_CUDA;
    struct dsl_value x = a->slot[0];
    struct mt_tensor *src = NULL, *copy = NULL;
    enum mt_status st = MT_OK;
    if (dsl_storage_view(x, &src)) {
        st = mt_zeros(ctx, b, src->ndim, src->shape, &copy);
        struct mt_tensor *there = NULL; /* src's values where copy is (a copy off the host) */
        if (st == MT_OK) st = mt_detach(ctx, src, &there);
        if (st == MT_OK && there->backend != b) {
            struct mt_tensor *moved = NULL;
            st = mt_to(ctx, there, b, &moved);
            mt_tensor_release(there);
            there = moved;
        }
        if (st == MT_OK) st = mt_map(ctx, MT_MAP_ID, there, &copy);
        mt_tensor_release(there);
    } else if (dsl_is_ndarray(x)) { /* of its dtype: float64 has no Storage */
        return dsl_ndarray_from(in, x, (enum dsl_dtype)x.as.l->dtype, ret);
    } else if (x.kind == DSL_LIST) {
        if (numbers_tensor(in, x, b, &copy) != 0) return -1;
    } else {
        return dsl_raise(in, "TypeError",
                         "cuda.to_device() copies a Storage or a list of numbers, not %s",
                         dsl_type_name(x));
    }
    int r = st != MT_OK ? dsl_engine_raise(in, st) : dsl_storage_of(in, copy, ret);
    mt_tensor_release(copy);
    return r;
}

static const char *const obj_params[] = {"obj", NULL};

static const struct member numba_cuda_members[] = {
    FN("is_available", "numba.cuda.is_available()", 0, 0, NULL, n_cuda_is_available,
       "Whether cuda.jit kernels have a device: true where the kernel's cuda backend can run "
       "(cuda_available()), and under %cuda simulate (or MT_CUDA_SIMULATE=1), as Numba's "
       "simulator says under NUMBA_ENABLE_CUDASIM=1; false in the simulator taken for want "
       "of a GPU."),
    FN("is_cuda_array", "numba.cuda.is_cuda_array(obj)", 1, 1, obj_params, n_is_cuda_array,
       "Whether obj is memory on the GPU: a Storage or a tensor of the cuda backend (lists, "
       "numbers and host memory are not)."),
    FN("jit", "numba.cuda.jit(fn=None, device=False, **options)", 0, 1, njit_params, n_cuda_jit,
       "@cuda.jit, cuda.jit()(fn): fn becomes a CUDA kernel, launched as fn[blocks, "
       "threads](args...) with ints or tuples of up to three; in it, cuda.threadIdx, blockIdx, "
       "blockDim and gridDim (.x .y .z), cuda.local.array, cuda.shared.array and "
       "cuda.syncthreads(). It runs on the GPU when there is one (compiled to CUDA C with NVRTC), "
       "else in the kernel's simulator, which names out-of-range indices, shared-memory races, "
       "barriers not every thread reaches and reads of shared memory nobody wrote. "
       "cuda.jit(device=True)(fn) returns fn, which kernels call."),
    FN("to_device", "numba.cuda.to_device(obj)", 1, 1, obj_params, n_to_device,
       "A copy of obj (a Storage, or a list or tuple of numbers) in the device's memory, as a "
       "Storage: on the GPU, or in host memory where cuda.jit kernels run in the simulator "
       "(as Numba's simulator copies). A numpy array's copy is a numpy array of its dtype, "
       "which kernels copy to the GPU and back at each launch."),
};

const struct module mod_numba_cuda = {
    .cls = MODULE_CLASS("module: numba.cuda, of which the kernel has is_available(), jit (CUDA "
                        "kernels, on the GPU or in the kernel's simulator), is_cuda_array and "
                        "to_device."),
    .name = "numba.cuda",
    .members = MEMBERS(numba_cuda_members),
};

static int v_numba_cuda(struct dsl_interp *in, struct dsl_value *out)
{
    return mod_module_value(in, &mod_numba_cuda, out);
}

/* prange(...): range(...), under a name of its own, which the compiler knows wherever it is
 * bound (from numba import prange as pr). */
static int n_prange(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return dsl_builtin_find("range")->fn(in, a, ret);
}

static const struct member numba_members[] = {
    VALUE("cuda", "numba.cuda", v_numba_cuda,
          "numba.cuda: is_available(), jit, is_cuda_array, to_device."),
    VALUE("float32", "numba.float32", mod_dtype_float32, "The dtype name 'float32'."),
    VALUE("float64", "numba.float64", mod_dtype_float64, "The dtype name 'float64'."),
    VALUE("int32", "numba.int32", mod_dtype_int32, "The dtype name 'int32'."),
    VALUE("int64", "numba.int64", mod_dtype_int64, "The dtype name 'int64'."),
    FN("jit", "numba.jit(fn=None, **options)", 0, 1, njit_params, n_njit, "The same as njit."),
    FN("njit", "numba.njit(fn=None, parallel=False, inline=None, fastmath=False, cache=False)", 0,
       1, njit_params, n_njit,
       "As MiniTorch's code uses it, `njit(parallel=True)(fn)`, `@njit`: fn compiled to native "
       "code at its first call with each kind of arguments (storages, tuples and lists of ints, "
       "ints, floats), prange loops run on the engine's threads. What the compiler does not "
       "take yet runs as the language runs any function. boundscheck=False leaves indices "
       "unchecked; check_races=True makes two iterations of a prange loop writing one element "
       "of a storage an error."),
    FN("prange", "numba.prange(stop) or prange(start, stop, step=1)", 1, 3, NULL, n_prange,
       "numba's parallel range: run by the language, the same as range; the outermost prange "
       "loop of a function compiled with njit runs in parallel."),
};

const struct module mod_numba = {
    .cls = MODULE_CLASS("module: numba's names MiniTorch's code uses (njit, prange, cuda), "
                        "accepted so that the course's code runs unchanged; njit returns the "
                        "function as it is."),
    .name = "numba",
    .members = MEMBERS(numba_members),
};
