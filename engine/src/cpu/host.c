/* host.c — host memory, the storage of every backend that keeps it on the host (simple and fast
 * point their tables' memory entries here; struct mt_backend_ops in internal.h).
 *
 * Storage is counted against a per-context limit (default: half of physical RAM), so a
 * student's `zeros(100000, 100000)` is a MemoryError naming the size, not an abort or the OOM
 * killer. Freed blocks go to a small cache and are reused by the next allocation of the same
 * size: training loops and benchmarks allocate the same shapes again and again. For a large
 * block a fresh mmap costs a page fault per 4 KiB on first touch (for a 64 MB output more than
 * the op itself); for a small one, aligned malloc/free was a third of a tiny op's time through
 * the language. Cached blocks do not count as used and hold at most MT_CACHE_BYTES; they are
 * dropped when an allocation fails, by mt_ctx_trim, and when the context is freed. */
#include "../internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define MT_CACHE_BYTES ((size_t)256 << 20) /* most bytes the block cache may hold */

void mt_format_bytes(size_t n, char *buf, size_t len)
{
    if (n >= ((size_t)1 << 30))
        snprintf(buf, len, "%.2f GiB", (double)n / (1 << 30));
    else if (n >= ((size_t)1 << 20))
        snprintf(buf, len, "%.2f MiB", (double)n / (1 << 20));
    else
        snprintf(buf, len, "%zu bytes", n);
}

const char *mt_shape_what(char *buf, size_t len, int ndim, const int64_t *shape)
{
    size_t n = (size_t)snprintf(buf, len, "tensor of shape ");
    if (n < len) mt_shape_str(ndim, shape, buf + n, len - n);
    return buf;
}

void mt_host_trim(struct mt_ctx *ctx)
{
    for (int i = 0; i < MT_BLOCK_CACHE; i++) {
        free(ctx->cache[i].ptr);
        ctx->cache[i] = (struct mt_block){0};
    }
    ctx->cache_bytes = 0;
}

static void *block_alloc(struct mt_ctx *ctx, size_t bytes)
{
    for (int i = 0; i < MT_BLOCK_CACHE; i++) {
        if (ctx->cache[i].ptr && ctx->cache[i].bytes == bytes) {
            void *p = ctx->cache[i].ptr;
            ctx->cache_bytes -= bytes;
            ctx->cache[i] = (struct mt_block){0};
            return p;
        }
    }
    void *p = NULL;
    if (posix_memalign(&p, 64, bytes ? bytes : 64) != 0) return NULL;
#ifdef MADV_HUGEPAGE
    /* Transparent huge pages cut the first-touch page faults of big tensors 512-fold. */
    if (bytes >= ((size_t)4 << 20))
        madvise((void *)(((uintptr_t)p + 4095) & ~(uintptr_t)4095), bytes - 4096, MADV_HUGEPAGE);
#endif
    return p;
}

/* Keeps p for reuse, evicting the oldest entries while the cache is full or too big. */
static void block_free(struct mt_ctx *ctx, void *p, size_t bytes)
{
    if (bytes > MT_CACHE_BYTES) {
        free(p);
        return;
    }
    /* entries are kept packed at the front, oldest first: close block_alloc's holes */
    int n = 0;
    for (int i = 0; i < MT_BLOCK_CACHE; i++)
        if (ctx->cache[i].ptr) ctx->cache[n++] = ctx->cache[i];
    while (n > 0 && (n == MT_BLOCK_CACHE || ctx->cache_bytes + bytes > MT_CACHE_BYTES)) {
        ctx->cache_bytes -= ctx->cache[0].bytes;
        free(ctx->cache[0].ptr);
        memmove(ctx->cache, ctx->cache + 1, (size_t)--n * sizeof ctx->cache[0]);
    }
    for (int i = n; i < MT_BLOCK_CACHE; i++) ctx->cache[i] = (struct mt_block){0};
    ctx->cache[n] = (struct mt_block){p, bytes};
    ctx->cache_bytes += bytes;
}

enum mt_status mt_host_alloc(struct mt_ctx *ctx, int ndim, const int64_t *shape,
                             struct mt_storage *s)
{
    /* messages are formatted only on failure: this runs for every op's output */
    char want[32], lim[32], used[32], what[200];
    size_t bytes = (size_t)s->nelem * sizeof(float);
    if (bytes > ctx->mem_limit || ctx->mem_used > ctx->mem_limit - bytes) {
        mt_format_bytes(bytes, want, sizeof want);
        mt_format_bytes(ctx->mem_limit, lim, sizeof lim);
        mt_format_bytes(ctx->mem_used, used, sizeof used);
        return mt_fail(ctx, MT_ERR_NOMEM,
                       "cannot allocate %s (%s): over the memory limit of %s (%s in use)",
                       mt_shape_what(what, sizeof what, ndim, shape), want, lim, used);
    }
    float *data = block_alloc(ctx, bytes);
    if (!data) {
        mt_host_trim(ctx); /* the cache may hold what we need */
        data = block_alloc(ctx, bytes);
    }
    if (!data) {
        mt_format_bytes(bytes, want, sizeof want);
        return mt_fail(ctx, MT_ERR_NOMEM, "cannot allocate %s (%s): out of memory",
                       mt_shape_what(what, sizeof what, ndim, shape), want);
    }
    s->data = data;
    s->bytes = bytes;
    ctx->mem_used += bytes;
    return MT_OK;
}

void mt_host_free(struct mt_storage *s)
{
    s->ctx->mem_used -= s->bytes;
    block_free(s->ctx, s->data, s->bytes);
}

enum mt_status mt_host_upload(struct mt_ctx *ctx, float *dst, const float *host, int64_t n)
{
    (void)ctx;
    if (n > 0) memcpy(dst, host, (size_t)n * sizeof(float));
    return MT_OK;
}

enum mt_status mt_host_download(struct mt_ctx *ctx, float *host, const float *src, int64_t n)
{
    (void)ctx;
    if (n > 0) memcpy(host, src, (size_t)n * sizeof(float));
    return MT_OK;
}

enum mt_status mt_host_fill(struct mt_ctx *ctx, float *dst, int64_t n, float value)
{
    (void)ctx;
    for (int64_t i = 0; i < n; i++) dst[i] = value;
    return MT_OK;
}
