/* numba.c — numba's names MiniTorch's code uses: njit and jit (marking a function to run
 * compiled, lib/jit/), prange, the dtypes, and numba.cuda (is_available and cuda.jit). */
#include "lib/modules/module.h"

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

static const struct member numba_cuda_members[] = {
    ALIAS("is_available", "numba.cuda.is_available()", "cuda_available",
          "Whether the kernel's cuda backend can run here: the kernel's cuda_available()."),
    FN("jit", "numba.cuda.jit(fn=None, device=False, **options)", 0, 1, njit_params, n_cuda_jit,
       "@cuda.jit, cuda.jit()(fn): fn becomes a CUDA kernel, launched as fn[blocks, "
       "threads](args...) with ints or tuples of up to three; in it, cuda.threadIdx, blockIdx, "
       "blockDim and gridDim (.x .y .z), cuda.local.array, cuda.shared.array and "
       "cuda.syncthreads(). It runs on the GPU when there is one (compiled to CUDA C with NVRTC), "
       "else in the kernel's simulator, which names out-of-range indices, shared-memory races, "
       "barriers not every thread reaches and reads of shared memory nobody wrote. "
       "cuda.jit(device=True)(fn) returns fn, which kernels call."),
};

const struct module mod_numba_cuda = {
    .cls = MODULE_CLASS("module: numba.cuda, of which the kernel has is_available() and jit "
                        "(CUDA kernels, on the GPU or in the kernel's simulator)."),
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
    VALUE("cuda", "numba.cuda", v_numba_cuda, "numba.cuda: is_available(), jit."),
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
