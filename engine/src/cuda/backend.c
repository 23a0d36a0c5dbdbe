/* backend.c — the cuda backend on the engine's side: device memory, copies, and the kernel
 * table (struct mt_backend_ops) that hands checked ops to the library (plugin.h).
 *
 * The library does the CUDA; this file turns tensors into the library's views, its error codes
 * into language errors, and polls the cancel flag before every launch. It is plain C in every
 * build: without a library (no CUDA, no GPU) mt_backend_check refuses the backend first, so
 * nothing here runs, and a test can load a host stand-in of the library instead of the real
 * one (tests/engine/cuda_standin.c).
 *
 * Device memory is cached per context, as the CUDA allocators of PyTorch and others do:
 * cudaMalloc and cudaFree synchronise the device and cost tens of microseconds, more than a
 * small kernel, and a training step frees and allocates the same sizes every batch. Sizes are
 * rounded up to 512 bytes; a freed block is kept (at most MT_DEV_BLOCK_CACHE of them) and given
 * to the next request that it fits with at most a quarter to spare. When the device is out of
 * memory the cache is given back and the allocation tried once more before it is a
 * MemoryError. */
#include "../internal.h"

#include "plugin.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEV_ROUND 512

static const struct mt_cuda_plugin *lib(void) { return mt_cuda_plugin_loaded(); }

/* The backend's `available` entry: the first question starts CUDA (device.h), so nothing
 * touches it before. */
static enum mt_status cuda_available(struct mt_ctx *ctx)
{
    const char *why = NULL;
    if (!mt_cuda_probe(&why))
        return mt_fail(ctx, MT_ERR_BACKEND, "the cuda backend is not available: %s", why);
    return MT_OK;
}

/* A failed library call as a language error: RuntimeError naming the call and the CUDA error. */
static enum mt_status cuda_fail(struct mt_ctx *ctx, const char *what, int code)
{
    const struct mt_cuda_plugin *p = lib();
    return mt_fail(ctx, MT_ERR_BACKEND, "cuda %s failed: %s", what,
                   p ? p->error(code) : "the cuda backend is not loaded");
}

/* ---- device memory -------------------------------------------------------------------------- */

static void *cache_take(struct mt_ctx *ctx, size_t need, size_t *got)
{
    int best = -1;
    for (int i = 0; i < MT_DEV_BLOCK_CACHE; i++) {
        size_t b = ctx->dev_cache[i].bytes;
        if (ctx->dev_cache[i].ptr && b >= need && b - need <= need / 4 &&
            (best < 0 || b < ctx->dev_cache[best].bytes))
            best = i;
    }
    if (best < 0) return NULL;
    void *p = ctx->dev_cache[best].ptr;
    *got = ctx->dev_cache[best].bytes;
    ctx->dev_cache_bytes -= *got;
    ctx->dev_cache[best] = (struct mt_block){0};
    return p;
}

static void cuda_trim(struct mt_ctx *ctx)
{
    if (ctx->dev_cache_bytes == 0) return; /* never loads the library: nothing of it is held */
    const struct mt_cuda_plugin *p = lib();
    for (int i = 0; i < MT_DEV_BLOCK_CACHE; i++) {
        if (ctx->dev_cache[i].ptr && p) p->release(ctx->dev_cache[i].ptr);
        ctx->dev_cache[i] = (struct mt_block){0};
    }
    ctx->dev_cache_bytes = 0;
}

/* `bytes` on the device for `what` (a tensor, named in a failure's message). */
static enum mt_status dev_alloc(struct mt_ctx *ctx, size_t bytes, const char *what, void **out,
                                size_t *block_bytes)
{
    const struct mt_cuda_plugin *p = lib();
    if (!p) return cuda_available(ctx);
    if (bytes > SIZE_MAX - DEV_ROUND)
        return mt_fail(ctx, MT_ERR_NOMEM, "cannot allocate %s on the GPU: too many elements", what);
    size_t need = (bytes + DEV_ROUND - 1) / DEV_ROUND * DEV_ROUND;
    if (need == 0) need = DEV_ROUND;
    size_t got = need;
    void *ptr = cache_take(ctx, need, &got);
    int code = 0;
    if (!ptr) {
        code = p->alloc(need, &ptr);
        if (code != 0) { /* the cached blocks may be what the device lacks */
            cuda_trim(ctx);
            code = p->alloc(need, &ptr);
        }
        got = need;
    }
    if (code != 0) {
        char want[32], used[32], fr[32] = "?", total[32] = "?";
        size_t f = 0, t = 0;
        mt_format_bytes(bytes, want, sizeof want);
        mt_format_bytes(ctx->dev_used, used, sizeof used);
        if (p->mem_info(&f, &t) == 0) {
            mt_format_bytes(f, fr, sizeof fr);
            mt_format_bytes(t, total, sizeof total);
        }
        if (code == MT_CUDA_ERR_NOMEM)
            return mt_fail(ctx, MT_ERR_NOMEM,
                           "cannot allocate %s (%s) on the GPU: out of device memory (%s free of "
                           "%s; this kernel's tensors hold %s)",
                           what, want, fr, total, used);
        return mt_fail(ctx, MT_ERR_BACKEND, "cannot allocate %s (%s) on the GPU: %s", what, want,
                       p->error(code));
    }
    ctx->dev_used += got;
    *out = ptr;
    *block_bytes = got;
    return MT_OK;
}

static void dev_free(struct mt_ctx *ctx, void *p, size_t block_bytes)
{
    ctx->dev_used -= block_bytes;
    /* kept packed, oldest first: a full cache gives its oldest block back */
    int n = 0;
    for (int i = 0; i < MT_DEV_BLOCK_CACHE; i++)
        if (ctx->dev_cache[i].ptr) ctx->dev_cache[n++] = ctx->dev_cache[i];
    if (n == MT_DEV_BLOCK_CACHE) {
        ctx->dev_cache_bytes -= ctx->dev_cache[0].bytes;
        lib()->release(ctx->dev_cache[0].ptr);
        memmove(ctx->dev_cache, ctx->dev_cache + 1, (size_t)--n * sizeof ctx->dev_cache[0]);
    }
    for (int i = n; i < MT_DEV_BLOCK_CACHE; i++) ctx->dev_cache[i] = (struct mt_block){0};
    ctx->dev_cache[n] = (struct mt_block){p, block_bytes};
    ctx->dev_cache_bytes += block_bytes;
}

static enum mt_status cuda_alloc(struct mt_ctx *ctx, int ndim, const int64_t *shape,
                                 struct mt_storage *s)
{
    char what[200];
    void *data = NULL;
    size_t block = 0;
    enum mt_status st = dev_alloc(ctx, (size_t)s->nelem * sizeof(float),
                                  mt_shape_what(what, sizeof what, ndim, shape), &data, &block);
    if (st != MT_OK) return st;
    s->data = data;
    s->bytes = block;
    return MT_OK;
}

static void cuda_free(struct mt_storage *s) { dev_free(s->ctx, s->data, s->bytes); }

/* ---- copies -----------------------------------------------------------------------------------
 */

static enum mt_status copy(struct mt_ctx *ctx, void *dst, const void *src, int64_t n,
                           enum mt_cuda_copy kind)
{
    if (n <= 0) return MT_OK;
    const struct mt_cuda_plugin *p = lib();
    if (!p) return cuda_available(ctx);
    int code = p->copy(dst, src, (size_t)n * sizeof(float), kind);
    if (code == 0) return MT_OK;
    static const char *const names[] = {[MT_CUDA_H2D] = "copy to the GPU",
                                        [MT_CUDA_D2H] = "copy from the GPU",
                                        [MT_CUDA_D2D] = "copy on the GPU"};
    return cuda_fail(ctx, names[kind], code);
}

static enum mt_status cuda_upload(struct mt_ctx *ctx, float *dev, const float *host, int64_t n)
{
    return copy(ctx, dev, host, n, MT_CUDA_H2D);
}

static enum mt_status cuda_download(struct mt_ctx *ctx, float *host, const float *dev, int64_t n)
{
    return copy(ctx, host, dev, n, MT_CUDA_D2H);
}

static enum mt_status cuda_fill(struct mt_ctx *ctx, float *dev, int64_t n, float value)
{
    if (n <= 0) return MT_OK;
    const struct mt_cuda_plugin *p = lib();
    if (!p) return cuda_available(ctx);
    if (mt_cancel_requested()) return mt_fail(ctx, MT_ERR_CANCELLED, "interrupted");
    int code = p->fill(dev, n, value);
    return code == 0 ? MT_OK : cuda_fail(ctx, "fill", code);
}

/* The library's kernels run behind the calls that queue them (plugin.h). A context that holds
 * no device memory has nothing queued: every block it had was given back through cudaFree,
 * which waits for the device, or sits in its cache. */
static enum mt_status cuda_wait(struct mt_ctx *ctx)
{
    if (ctx->dev_used == 0 && ctx->dev_cache_bytes == 0) return MT_OK;
    const struct mt_cuda_plugin *p = lib();
    if (!p) return MT_OK;
    int code = p->wait();
    return code == 0 ? MT_OK : cuda_fail(ctx, "work queued on the GPU", code);
}

/* ---- the kernel table ---------------------------------------------------------------------------
 */

static struct mt_cuda_view view_of(const struct mt_tensor *t)
{
    struct mt_cuda_view v = {.data = mt_data(t), .ndim = t->ndim};
    memcpy(v.shape, t->shape, sizeof v.shape);
    memcpy(v.strides, t->strides, sizeof v.strides);
    return v;
}

/* Before a launch: the library, and the cancel flag (polled between launches: a kernel runs
 * to its end). *info is where the library describes the launch when diagnostics are on (it
 * then also times it with CUDA events), else NULL. */
static enum mt_status before(struct mt_ctx *ctx, const struct mt_cuda_plugin **p,
                             struct mt_cuda_launch *launch, struct mt_cuda_launch **info)
{
    *p = lib();
    if (!*p) return cuda_available(ctx);
    if (mt_cancel_requested()) return mt_fail(ctx, MT_ERR_CANCELLED, "interrupted");
    memset(launch, 0, sizeof *launch);
    *info = ctx->diag ? launch : NULL;
    return MT_OK;
}

/* After it: a failure as a language error, or the launch into the diagnostic entry. */
static enum mt_status after(struct mt_ctx *ctx, const char *op, int code,
                            const struct mt_cuda_launch *info, struct mt_diag *d)
{
    if (code != 0) return cuda_fail(ctx, op, code);
    d->path = "cuda";
    d->threads = 1;
    d->vec_width = 1;
    d->kernel = NULL;
    if (!info) return MT_OK;
    d->path = info->kernel ? info->kernel : "cuda";
    d->kernel = d->path;
    memcpy(d->grid, info->grid, sizeof d->grid);
    memcpy(d->block, info->block, sizeof d->block);
    double threads = 1.0; /* every thread launched, the GPU's counterpart of the CPU's */
    for (int i = 0; i < 3; i++) threads *= (double)info->grid[i] * info->block[i];
    d->threads = threads < INT_MAX ? (int)threads : INT_MAX;
    d->shared_bytes = info->shared_bytes;
    d->registers = info->registers;
    d->occupancy = info->occupancy;
    d->gpu_ns = (int64_t)(info->gpu_ms * 1e6);
    return MT_OK;
}

static enum mt_status cuda_map(struct mt_ctx *ctx, enum mt_map_op op, struct mt_tensor *out,
                               const struct mt_tensor *a, struct mt_diag *d)
{
    const struct mt_cuda_plugin *p;
    struct mt_cuda_launch launch, *info = NULL;
    enum mt_status st = before(ctx, &p, &launch, &info);
    if (st != MT_OK) return st;
    struct mt_cuda_view vo = view_of(out), va = view_of(a);
    return after(ctx, mt_map_name(op), p->map(op, &vo, &va, info), info, d);
}

static enum mt_status cuda_zip(struct mt_ctx *ctx, enum mt_zip_op op, struct mt_tensor *out,
                               const struct mt_tensor *a, const struct mt_tensor *b,
                               struct mt_diag *d)
{
    const struct mt_cuda_plugin *p;
    struct mt_cuda_launch launch, *info = NULL;
    enum mt_status st = before(ctx, &p, &launch, &info);
    if (st != MT_OK) return st;
    struct mt_cuda_view vo = view_of(out), va = view_of(a), vb = view_of(b);
    return after(ctx, mt_zip_name(op), p->zip(op, &vo, &va, &vb, info), info, d);
}

static enum mt_status cuda_reduce(struct mt_ctx *ctx, enum mt_reduce_op op, struct mt_tensor *out,
                                  const struct mt_tensor *a, int dim, struct mt_diag *d)
{
    const struct mt_cuda_plugin *p;
    struct mt_cuda_launch launch, *info = NULL;
    enum mt_status st = before(ctx, &p, &launch, &info);
    if (st != MT_OK) return st;
    struct mt_cuda_view vo = view_of(out), va = view_of(a);
    return after(ctx, mt_reduce_name(op), p->reduce(op, &vo, &va, dim, info), info, d);
}

static enum mt_status cuda_matmul(struct mt_ctx *ctx, struct mt_tensor *out,
                                  const struct mt_tensor *a, const struct mt_tensor *b,
                                  struct mt_diag *d)
{
    const struct mt_cuda_plugin *p;
    struct mt_cuda_launch launch, *info = NULL;
    enum mt_status st = before(ctx, &p, &launch, &info);
    if (st != MT_OK) return st;
    struct mt_cuda_view vo = view_of(out), va = view_of(a), vb = view_of(b);
    return after(ctx, "matmul",
                 p->matmul((enum mt_cuda_matmul)ctx->cuda_matmul, &vo, &va, &vb, info), info, d);
}

/* A user function: `what` "map", "zip" (dim < 0) or "reduce" (dim and start). */
static enum mt_status cuda_prog(struct mt_ctx *ctx, const char *what, const struct mt_prog *p,
                                struct mt_tensor *out, const struct mt_tensor *a,
                                const struct mt_tensor *b, int dim, float start, struct mt_diag *d)
{
    const struct mt_cuda_plugin *lp;
    struct mt_cuda_launch launch, *info = NULL;
    enum mt_status st = before(ctx, &lp, &launch, &info);
    if (st != MT_OK) return st;
    char *source = mt_prog_cuda_source(p, what, false);
    if (!source) return mt_fail(ctx, MT_ERR_NOMEM, "%s(%s): out of memory", what, p->name);
    struct mt_cuda_view vo = view_of(out), va = view_of(a), vb = b ? view_of(b) : va;
    char log[2048] = "";
    int code = lp->prog(source, p, &vo, &va, b ? &vb : NULL, dim, start, log, sizeof log, info);
    free(source);
    if (code == MT_CUDA_ERR_COMPILE)
        return mt_fail(ctx, MT_ERR_BACKEND, "%s(%s) on cuda: %s", what, p->name, log);
    struct mt_diag scratch;
    return after(ctx, what, code, info, d ? d : &scratch);
}

static enum mt_status cuda_prog_elementwise(struct mt_ctx *ctx, const char *what,
                                            const struct mt_prog *p, struct mt_tensor *out,
                                            const struct mt_tensor *a, const struct mt_tensor *b,
                                            struct mt_diag *d)
{
    return cuda_prog(ctx, what, p, out, a, b, -1, 0.0f, d);
}

/* An empty out launches nothing; the entry's path is "" then, and its threads 1 (one fold per
 * output is the kernel's own business). */
static enum mt_status cuda_prog_reduce(struct mt_ctx *ctx, const struct mt_prog *p,
                                       struct mt_tensor *out, const struct mt_tensor *a, int dim,
                                       float start, struct mt_diag *d)
{
    enum mt_status st =
        out->size ? cuda_prog(ctx, "reduce", p, out, a, NULL, dim, start, d) : MT_OK;
    if (d) {
        if (!d->path) d->path = "";
        d->threads = 1;
    }
    return st;
}

/* The fused kernel is one block: its epoch grows with the parameters, while the autodiff ops'
 * epoch is mostly the launches of their small kernels, near constant for MiniTorch's sizes.
 * Past FUSED_MAX_PARAMS, about where the two cross in bench/gpu.sh's training table (hidden
 * 100 is far below it, hidden 500 far above), the ops are the faster path. */
#define FUSED_MAX_PARAMS 65536.0

static bool cuda_train_fits(const struct mt_mlp *m)
{
    double params = 0;
    for (int l = 0; l < m->nl; l++)
        params += (double)m->width[l] * m->width[l + 1] + m->width[l + 1];
    if (params > FUSED_MAX_PARAMS) return false;
    const struct mt_cuda_plugin *p = lib();
    return p && p->train_smem(m) > 0;
}

/* One launch per epoch: the cancel flag, polled before it, cannot stop it part-way. The library
 * keeps no buffers between epochs (no train_new): state is NULL. */
static enum mt_status cuda_train_epoch(struct mt_ctx *ctx, const struct mt_mlp *m,
                                       struct mt_train_state *state, const int64_t *perm,
                                       double *loss)
{
    (void)state;
    const struct mt_cuda_plugin *p;
    struct mt_cuda_launch launch, *info = NULL;
    enum mt_status st = before(ctx, &p, &launch, &info);
    if (st != MT_OK) return st;
    struct mt_diag d = {0};
    int64_t t0 = mt_now_ns();
    st = after(ctx, "training epoch", p->train_epoch(m, perm, loss, info), info, &d);
    if (st != MT_OK || !ctx->diag) return st;
    /* one row for the epoch: its data in, its loss out; per point, the forward's and the
     * backward's two products (2 FLOPs per weight each) */
    double params = 0;
    for (int l = 0; l < m->nl; l++)
        params += (double)m->width[l] * m->width[l + 1] + m->width[l + 1];
    d.op = "train_epoch";
    d.backend = MT_BACKEND_CUDA;
    d.nin = 1;
    d.in_ndim[0] = 2;
    d.in_shape[0][0] = m->n, d.in_shape[0][1] = m->width[0];
    d.in_strides[0][0] = m->width[0], d.in_strides[0][1] = 1;
    d.out_ndim = 1;
    d.out_shape[0] = 1, d.out_strides[0] = 1;
    d.bytes = 4.0 * ((double)m->n * (m->width[0] + 1) + 3.0 * params);
    d.flops = 6.0 * params * (double)m->n;
    d.ns = d.ns_min = d.ns_max = mt_now_ns() - t0;
    d.runs = 1;
    ctx->diag(ctx->diag_user, &d);
    return MT_OK;
}

/* Device memory cached per context (above); every op a kernel of the library, run once even for
 * diagnostics (not repeatable: a launch described costs CUDA events, which time it anyway). */
const struct mt_backend_ops mt_cuda_ops = {
    .available = cuda_available,
    .host = false,
    .alloc = cuda_alloc,
    .free = cuda_free,
    .trim = cuda_trim,
    .wait = cuda_wait,
    .upload = cuda_upload,
    .download = cuda_download,
    .fill = cuda_fill,
    .map = cuda_map,
    .zip = cuda_zip,
    .reduce = cuda_reduce,
    .matmul = cuda_matmul,
    .prog_elementwise = cuda_prog_elementwise,
    .prog_reduce = cuda_prog_reduce,
    .train_path = "fused kernel",
    .train_fits = cuda_train_fits,
    .train_epoch = cuda_train_epoch,
};

bool mt_cuda_peak(double *dram_gbps, double *fp32_gflops, const char **name)
{
    const struct mt_cuda_plugin *p = lib();
    const struct mt_cuda_device *dev = p ? p->device() : NULL;
    if (!dev) return false;
    *dram_gbps = dev->dram_gbps;
    *fp32_gflops = dev->fp32_gflops;
    *name = dev->name;
    return true;
}

/* ---- kernels compiled elsewhere ------------------------------------------------------------ */

enum mt_status mt_cuda_buffer(struct mt_ctx *ctx, size_t bytes, void **dev)
{
    const struct mt_cuda_plugin *p = lib();
    if (!p) return cuda_available(ctx);
    int code = p->alloc(bytes ? bytes : 1, dev);
    if (code == MT_CUDA_ERR_NOMEM)
        return mt_fail(ctx, MT_ERR_NOMEM, "cannot allocate %zu bytes on the GPU: out of memory",
                       bytes);
    return code == 0 ? MT_OK : cuda_fail(ctx, "allocation", code);
}

void mt_cuda_buffer_free(void *dev)
{
    const struct mt_cuda_plugin *p = lib();
    if (p && dev) p->release(dev);
}

enum mt_status mt_cuda_buffer_copy(struct mt_ctx *ctx, void *dst, const void *src, size_t bytes,
                                   bool to_device)
{
    const struct mt_cuda_plugin *p = lib();
    if (!p) return cuda_available(ctx);
    if (bytes == 0) return MT_OK;
    int code = p->copy(dst, src, bytes, to_device ? MT_CUDA_H2D : MT_CUDA_D2H);
    return code == 0 ? MT_OK
                     : cuda_fail(ctx, to_device ? "copy to the GPU" : "copy from the GPU", code);
}

bool mt_cuda_runs_source(void)
{
    const struct mt_cuda_plugin *p = lib();
    return p && p->launch;
}

enum mt_status mt_cuda_run_kernel(struct mt_ctx *ctx, const char *source, const unsigned grid[3],
                                  const unsigned block[3], void **args, double *gpu_ms)
{
    const struct mt_cuda_plugin *p = lib();
    if (!p) return cuda_available(ctx);
    if (!p->launch)
        return mt_fail(ctx, MT_ERR_BACKEND, "the cuda library loaded compiles no CUDA C");
    struct mt_cuda_launch launch = {0};
    char log[4096] = "";
    int code = p->launch(source, grid, block, args, log, sizeof log, gpu_ms ? &launch : NULL);
    if (code == MT_CUDA_ERR_COMPILE) return mt_fail(ctx, MT_ERR_BACKEND, "%s", log);
    if (code != 0) return mt_fail(ctx, MT_ERR_BACKEND, "%s", p->error(code));
    if (gpu_ms) *gpu_ms = launch.gpu_ms;
    return MT_OK;
}
