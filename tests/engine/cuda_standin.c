/* cuda_standin.c — a test double of the cuda backend's library (engine/src/cuda/plugin.h) that
 * runs on the host, so that everything the engine does with device tensors (allocation and its
 * cache, copies both ways, views with offsets and strides handed to kernels, autodiff and
 * training on the cuda backend, error and out-of-memory paths) is tested on machines without a
 * GPU. It is not a GPU: its kernels are the `simple` backend's loops (compiled into it), so
 * results through it say nothing about the CUDA kernels — those are tested on a GPU against
 * simple by the same tests, with the real library loaded.
 *
 * Loaded like the real library, through MT_CUDA_PLUGIN=path/to/libmt_cuda_standin.so.
 *
 * "Device" memory is host memory handed out under a pointer with bit 62 flipped: a
 * non-canonical address, so host code in the engine that dereferences a device pointer crashes
 * at once (SIGSEGV, or an ASan report) instead of quietly working here and failing on a GPU.
 * The library clears the bit before it touches memory. Tests steer it through
 * mt_cuda_standin_control (dlsym): a device memory size, and an error to return from the next
 * launch or copy. */
#include "engine/src/internal.h"

#include "engine/src/cuda/plugin.h"
#include "engine/src/cuda/train_step.h"
#include "engine/src/prog_eval.h"
#include "tests/engine/cuda_standin.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TAG ((uintptr_t)1 << 62)
#define EXPORT __attribute__((visibility("default")))

static struct mt_cuda_standin state = {.memory = (size_t)1 << 30};

EXPORT struct mt_cuda_standin *mt_cuda_standin_control(void);
EXPORT const struct mt_cuda_plugin *mt_cuda_plugin(void);

struct mt_cuda_standin *mt_cuda_standin_control(void) { return &state; }

/* simple.c, host.c and shape.c are compiled in; these are the engine functions they call besides.
 */
enum mt_status mt_fail(struct mt_ctx *ctx, enum mt_status status, const char *fmt, ...)
{
    (void)ctx, (void)fmt;
    return status;
}

int64_t mt_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void *untag(const void *p) { return (void *)((uintptr_t)p ^ TAG); }

static int injected(void)
{
    int code = state.fail_next;
    state.fail_next = 0;
    return code;
}

/* Peaks of 1 GB/s and 1 GFLOP/s: round numbers a test can check percentages against. */
static const struct mt_cuda_device device_info = {
    .name = "host stand-in (tests/engine/cuda_standin.c, not a GPU)",
    .major = 9,
    .minor = 0,
    .sms = 1,
    .memory = (size_t)1 << 30,
    .dram_gbps = 1.0,
    .fp32_gflops = 1.0,
};

static bool probe(const char **why)
{
    (void)why;
    return true;
}

static const struct mt_cuda_device *device(void) { return &device_info; }

static const char *error(int code)
{
    static char buf[96];
    if (code == MT_CUDA_ERR_NOMEM)
        snprintf(buf, sizeof buf, "cudaErrorMemoryAllocation: out of memory (stand-in)");
    else
        snprintf(buf, sizeof buf, "stand-in error %d", code);
    return buf;
}

/* Each block starts with its size, so that release can count it. */
static int alloc(size_t bytes, void **out)
{
    if (bytes > state.memory || state.live > state.memory - bytes) return MT_CUDA_ERR_NOMEM;
    void *p = NULL;
    if (posix_memalign(&p, 64, 64 + bytes) != 0) return MT_CUDA_ERR_NOMEM;
    *(size_t *)p = bytes;
    state.live += bytes;
    state.allocs++;
    *out = (void *)((uintptr_t)((char *)p + 64) ^ TAG);
    return 0;
}

static void release(void *p)
{
    if (!p) return;
    char *base = (char *)untag(p) - 64;
    state.live -= *(size_t *)base;
    free(base);
}

static int copy(void *dst, const void *src, size_t bytes, enum mt_cuda_copy kind)
{
    state.copies++;
    int code = injected();
    if (code) return code;
    if (kind != MT_CUDA_H2D) src = untag(src);
    if (kind != MT_CUDA_D2H) dst = untag(dst);
    memcpy(dst, src, bytes);
    return 0;
}

static int mem_info(size_t *free_bytes, size_t *total_bytes)
{
    *free_bytes = state.memory - state.live;
    *total_bytes = state.memory;
    return 0;
}

static int fill(float *dst, int64_t n, float value)
{
    state.launches++;
    int code = injected();
    if (code) return code;
    float *d = untag(dst);
    for (int64_t i = 0; i < n; i++) d[i] = value;
    return 0;
}

/* Its kernels run in the call, so nothing is ever queued; a test sets fail_wait to play a
 * queued kernel's error, which the real library reports here. */
static int wait_all(void)
{
    state.waits++;
    int code = state.fail_wait;
    state.fail_wait = 0;
    return code;
}

/* A view as a tensor of the simple backend: its own storage struct, offset 0. */
struct wrapped {
    struct mt_storage s;
    struct mt_tensor t;
};

static void wrap(const struct mt_cuda_view *v, struct wrapped *w)
{
    memset(w, 0, sizeof *w);
    w->s.refs = 1;
    w->s.data = untag(v->data);
    w->t.refs = 1;
    w->t.ndim = v->ndim;
    memcpy(w->t.shape, v->shape, sizeof v->shape);
    memcpy(w->t.strides, v->strides, sizeof v->strides);
    w->t.size = 1;
    for (int i = 0; i < v->ndim; i++) w->t.size *= v->shape[i];
    w->t.backend = MT_BACKEND_SIMPLE;
    w->t.storage = &w->s;
}

/* The end of a "launch": an injected error, or simple's status; and, when asked, a launch
 * description that says what this is (one host thread, no kernel attributes) and its time. */
static int launched(enum mt_status st, struct mt_cuda_launch *info, int64_t t0)
{
    state.launches++;
    if (info) {
        *info = (struct mt_cuda_launch){
            .kernel = "stand-in (simple's loops)",
            .grid = {1, 1, 1},
            .block = {1, 1, 1},
            .gpu_ms = (double)(mt_now_ns() - t0) * 1e-6,
        };
    }
    int code = injected();
    return code ? code : st == MT_OK ? 0 : 1;
}

static int map(enum mt_map_op op, const struct mt_cuda_view *out, const struct mt_cuda_view *a,
               struct mt_cuda_launch *info)
{
    int64_t t0 = mt_now_ns();
    struct wrapped o, x;
    struct mt_diag d;
    wrap(out, &o);
    wrap(a, &x);
    return launched(mt_simple_ops.map(NULL, op, &o.t, &x.t, &d), info, t0);
}

static int zip(enum mt_zip_op op, const struct mt_cuda_view *out, const struct mt_cuda_view *a,
               const struct mt_cuda_view *b, struct mt_cuda_launch *info)
{
    int64_t t0 = mt_now_ns();
    struct wrapped o, x, y;
    struct mt_diag d;
    wrap(out, &o);
    wrap(a, &x);
    wrap(b, &y);
    return launched(mt_simple_ops.zip(NULL, op, &o.t, &x.t, &y.t, &d), info, t0);
}

static int reduce(enum mt_reduce_op op, const struct mt_cuda_view *out,
                  const struct mt_cuda_view *a, int dim, struct mt_cuda_launch *info)
{
    int64_t t0 = mt_now_ns();
    struct wrapped o, x;
    struct mt_diag d;
    wrap(out, &o);
    wrap(a, &x);
    return launched(mt_simple_ops.reduce(NULL, op, &o.t, &x.t, dim, &d), info, t0);
}

static int matmul(enum mt_cuda_matmul kernel, const struct mt_cuda_view *out,
                  const struct mt_cuda_view *a, const struct mt_cuda_view *b,
                  struct mt_cuda_launch *info)
{
    int64_t t0 = mt_now_ns();
    struct wrapped o, x, y;
    struct mt_diag d;
    state.matmul_kernel = (int)kernel;
    wrap(out, &o);
    wrap(a, &x);
    wrap(b, &y);
    return launched(mt_simple_ops.matmul(NULL, &o.t, &x.t, &y.t, &d), info, t0);
}

/* A user function: the program itself, element by element (prog_eval.h, the reference), over
 * the views as the generated kernel indexes them (output ordinal -> broadcast position). The
 * source must be a kernel for it; nothing compiles it here (the real library does, and
 * tests/engine/test_prog.c compiles every kind of source with NVRTC where NVRTC exists). */
static int64_t position(const struct mt_cuda_view *v, const struct mt_cuda_view *out, int64_t i)
{
    int64_t pos = 0;
    const int shift = out->ndim - v->ndim;
    for (int d = out->ndim - 1; d >= 0; d--) {
        const int64_t n = out->shape[d], idx = i % n;
        i /= n;
        const int vd = d - shift;
        if (vd >= 0 && v->shape[vd] != 1) pos += idx * v->strides[vd];
    }
    return pos;
}

static int prog(const char *source, const struct mt_prog *p, const struct mt_cuda_view *out,
                const struct mt_cuda_view *a, const struct mt_cuda_view *b, int dim, float start,
                char *log, size_t loglen, struct mt_cuda_launch *info)
{
    int64_t t0 = mt_now_ns();
    if (!strstr(source, "extern \"C\" __global__ void mt_user(")) {
        snprintf(log, loglen, "stand-in: the source has no mt_user kernel");
        return MT_CUDA_ERR_COMPILE;
    }
    int64_t n = 1;
    for (int d = 0; d < out->ndim; d++) n *= out->shape[d];
    const float *pa = untag(a->data), *pb = b ? untag(b->data) : NULL;
    float *po = untag(out->data);
    for (int64_t i = 0; i < n; i++) {
        float args[2];
        if (dim >= 0) { /* reduce: fold a's dim from start */
            const int64_t base = position(a, out, i);
            args[0] = start;
            for (int64_t j = 0; j < a->shape[dim]; j++) {
                args[1] = pa[base + j * a->strides[dim]];
                args[0] = mt_prog_eval_inline(p, args);
            }
            po[position(out, out, i)] = args[0];
            continue;
        }
        args[0] = pa[position(a, out, i)];
        if (pb) args[1] = pb[position(b, out, i)];
        po[position(out, out, i)] = mt_prog_eval_inline(p, args);
    }
    return launched(MT_OK, info, t0);
}

/* The fused epoch: train_step.h's code itself, on one host thread, "shared memory" from the
 * heap (as large as the device's 227 KiB of an H100 allows: the same refusals as there). */
#define STANDIN_SMEM_MAX (227 * 1024)

static size_t train_smem(const struct mt_mlp *m)
{
    size_t bytes = (size_t)mt_ts_smem_floats(m) * sizeof(float);
    return bytes <= STANDIN_SMEM_MAX ? bytes : 0;
}

static int train_epoch(const struct mt_mlp *m, const int64_t *perm, double *loss,
                       struct mt_cuda_launch *info)
{
    int64_t t0 = mt_now_ns();
    if (train_smem(m) == 0) return 1;
    struct mt_mlp h = *m; /* its pointers as host addresses */
    for (int l = 0; l < h.nl; l++) {
        h.w[l] = untag(h.w[l]), h.b[l] = untag(h.b[l]);
        if (h.gw[l]) h.gw[l] = untag(h.gw[l]);
        if (h.gb[l]) h.gb[l] = untag(h.gb[l]);
    }
    h.x = untag(h.x), h.y = untag(h.y);
    state.copies++; /* the permutation, sent over as the library does */
    float *smem = malloc(train_smem(m));
    if (!smem) return MT_CUDA_ERR_NOMEM;
    mt_ts_epoch(&h, perm, smem, loss);
    free(smem);
    return launched(MT_OK, info, t0);
}

static const struct mt_cuda_plugin table = {
    .version = MT_CUDA_PLUGIN_VERSION,
    .probe = probe,
    .device = device,
    .error = error,
    .alloc = alloc,
    .release = release,
    .copy = copy,
    .fill = fill,
    .wait = wait_all,
    .mem_info = mem_info,
    .map = map,
    .zip = zip,
    .reduce = reduce,
    .matmul = matmul,
    .train_smem = train_smem,
    .train_epoch = train_epoch,
    .prog = prog,
    .launch = NULL, /* it compiles no CUDA C: the language simulates cuda.jit kernels */
};

const struct mt_cuda_plugin *mt_cuda_plugin(void) { return &table; }
