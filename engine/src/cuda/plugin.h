/* plugin.h — the boundary between the engine and the cuda backend's library (internal).
 *
 * Everything CUDA lives in a shared library of its own, libminitorch_cuda.so (engine/src/cuda/
 * *.cu with the CUDA runtime linked in statically), which the engine loads with dlopen at the
 * first question about the cuda backend (loader.c). A kernel that never uses the GPU therefore
 * maps none of it: the same start-up memory as a build without CUDA. The library exports one
 * function, MT_CUDA_PLUGIN_SYMBOL, returning its table; the engine checks the version. */
#ifndef MINITORCH_CUDA_PLUGIN_H
#define MINITORCH_CUDA_PLUGIN_H

#include "../mlp.h"
#include "device.h"

#include "minitorch/minitorch.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MT_CUDA_PLUGIN_VERSION 7
#define MT_CUDA_PLUGIN_SYMBOL "mt_cuda_plugin"
#define MT_CUDA_PLUGIN_FILE "libminitorch_cuda.so"

/* A tensor as the kernels see it: device pointer to its first element, shape and strides in
 * elements (0 on broadcast dims), as struct mt_tensor has them. */
struct mt_cuda_view {
    float *data;
    int ndim;
    int64_t shape[MT_MAX_DIMS];
    int64_t strides[MT_MAX_DIMS];
};

enum mt_cuda_copy { MT_CUDA_H2D, MT_CUDA_D2H, MT_CUDA_D2D };
/* the code `alloc` returns when the device is out of memory (cudaErrorMemoryAllocation) */
#define MT_CUDA_ERR_NOMEM 2
/* `prog`'s own failures (not CUDA error codes, which are positive): its log says what */
#define MT_CUDA_ERR_COMPILE (-2) /* NVRTC is missing, or refused the source */
/* The matmul kernels, kept side by side for teaching (ops.cu): one thread per output; the
 * course's 32 x 32 shared-memory tiles; 128 x 128 tiles with 8 x 8 outputs per thread in
 * registers, float4 loads and double-buffered shared memory. AUTO: the fastest for the shape
 * (what the language's matmul uses). */
enum mt_cuda_matmul {
    MT_CUDA_MATMUL_NAIVE,
    MT_CUDA_MATMUL_TILED,
    MT_CUDA_MATMUL_REGISTER,
    MT_CUDA_MATMUL_AUTO,
};

/* An op's main kernel launch, for diagnostics (struct mt_diag's cuda fields). The kernel calls
 * below fill one when given it, and then time their kernels with CUDA events; with NULL they
 * do neither. */
struct mt_cuda_launch {
    const char *kernel; /* static name */
    unsigned grid[3], block[3];
    int shared_bytes, registers;
    double occupancy; /* cudaOccupancyMaxActiveBlocksPerMultiprocessor's warps / the SM's most */
    double gpu_ms;    /* every kernel of the call, event to event */
};

/* Every call after `probe` returns 0 or a CUDA error code (cudaError_t), which `error` names;
 * the kernels have the semantics of struct mt_backend_ops (internal.h) — shapes already checked,
 * out allocated.
 *
 * The kernel calls queue their work in the default stream and return, as PyTorch's ops do:
 * waiting for the device after each of them costs more than a small kernel, and a training
 * step is hundreds of small kernels. Everything runs in queue order, so a call may use what
 * earlier ones have not finished writing, and memory given back is reused only by later work.
 * A copy to the host, `release` and `wait` return after all queued work. An error in a launch
 * (a bad configuration) is returned by the call that made it; one that a kernel hits while
 * running comes back from a later call, at the latest `wait`. Calls that are timed (an
 * mt_cuda_launch given) and `launch` (students' kernels, whose errors belong to their launch)
 * wait for their kernels before they return. */
struct mt_cuda_plugin {
    int version; /* MT_CUDA_PLUGIN_VERSION */
    /* device.h's probe and device, run inside the library */
    bool (*probe)(const char **why);
    const struct mt_cuda_device *(*device)(void);
    const char *(*error)(int code); /* "cudaErrorMemoryAllocation: out of memory" */
    int (*alloc)(size_t bytes, void **out);
    void (*release)(void *p);
    int (*copy)(void *dst, const void *src, size_t bytes, enum mt_cuda_copy kind);
    /* dst[0..n) = value (device memory) */
    int (*fill)(float *dst, int64_t n, float value);
    /* returns when every queued kernel and copy is done; the error one of them hit, if any */
    int (*wait)(void);
    /* the device's free and total memory, bytes (cudaMemGetInfo) */
    int (*mem_info)(size_t *free_bytes, size_t *total_bytes);
    /* out = op(a), a broadcast to out's shape (aligned at the last dim) */
    int (*map)(enum mt_map_op op, const struct mt_cuda_view *out, const struct mt_cuda_view *a,
               struct mt_cuda_launch *info);
    /* out = op(a, b), both broadcast to out's shape */
    int (*zip)(enum mt_zip_op op, const struct mt_cuda_view *out, const struct mt_cuda_view *a,
               const struct mt_cuda_view *b, struct mt_cuda_launch *info);
    /* out = reduce(a) over dim; out has a's shape with that dim of size 1 */
    int (*reduce)(enum mt_reduce_op op, const struct mt_cuda_view *out,
                  const struct mt_cuda_view *a, int dim, struct mt_cuda_launch *info);
    /* out (..., M, N) = a (..., M, K) @ b (..., K, N), all three of out's ndim >= 3, batch dims
     * of a and b equal to out's or 1 */
    int (*matmul)(enum mt_cuda_matmul kernel, const struct mt_cuda_view *out,
                  const struct mt_cuda_view *a, const struct mt_cuda_view *b,
                  struct mt_cuda_launch *info);
    /* Shared memory bytes the fused epoch needs for m, or 0 when it cannot run (more than the
     * device gives one block). Not a CUDA call's status: no error. */
    size_t (*train_smem)(const struct mt_mlp *m);
    /* One epoch of m in one launch (train_step.h), batches in the order perm[0..n) (host
     * memory); *loss (host) gets the sum of the batches' losses. */
    int (*train_epoch)(const struct mt_mlp *m, const int64_t *perm, double *loss,
                       struct mt_cuda_launch *info);
    /* A user function (prog.c): `source` is mt_prog_cuda_source's kernel for p, compiled with
     * NVRTC at its first use and kept by its text; p itself is for a library that does not
     * compile (the host stand-in). dim < 0: map (b NULL) or zip, out = f(a[, b]) broadcast;
     * dim >= 0: reduce, out = the fold of a along dim from start. MT_CUDA_ERR_COMPILE with
     * the reason in log[0..loglen) when the source could not become a kernel. */
    int (*prog)(const char *source, const struct mt_prog *p, const struct mt_cuda_view *out,
                const struct mt_cuda_view *a, const struct mt_cuda_view *b, int dim, float start,
                char *log, size_t loglen, struct mt_cuda_launch *info);
    /* A kernel written elsewhere (a student's cuda.jit kernel, as the language compiles it):
     * source's extern "C" kernel `mt_kernel`, compiled with NVRTC at its first use and kept
     * by its text, launched with grid and block on args (pointers to each parameter's value,
     * cudaLaunchKernel's array), and waited for. MT_CUDA_ERR_COMPILE with the reason in log.
     * NULL in a library that compiles no CUDA C (the host stand-in). */
    int (*launch)(const char *source, const unsigned grid[3], const unsigned block[3], void **args,
                  char *log, size_t loglen, struct mt_cuda_launch *info);
};

typedef const struct mt_cuda_plugin *(*mt_cuda_plugin_fn)(void);

/* The engine's side (loader.c): the loaded library's table, or NULL unless mt_cuda_probe is
 * true (a usable GPU). */
const struct mt_cuda_plugin *mt_cuda_plugin_loaded(void);

#ifdef __cplusplus
}
#endif

#endif
