/* context.c — engine contexts: errors, settings, tensor memory and the random generator.
 *
 * Memory. Storage is counted against a per-context limit (default: half of physical RAM), so a
 * student's `zeros(100000, 100000)` is a MemoryError naming the size, not an abort or the OOM
 * killer. Freed blocks go to a small cache and are reused by the next allocation of the same
 * size: training loops and benchmarks allocate the same shapes again and again. For a large
 * block a fresh mmap costs a page fault per 4 KiB on first touch (for a 64 MB output more than
 * the op itself); for a small one, aligned malloc/free was a third of a tiny op's time through
 * the language. Cached blocks do not count as used and hold at most MT_CACHE_BYTES; they are
 * dropped when an allocation fails, and when the context is freed. The cuda backend's storage
 * is device memory with a cache of its own (cuda/backend.c); the limit is the device's.
 *
 * Random numbers. MT19937 seeded by init_by_array with the seed's 32-bit words, tempered and
 * combined into 53-bit doubles exactly as CPython's random module does, so `seed(n)` followed by
 * `rand(...)` reproduces MiniTorch's `random.seed(n)` + `random.random()` draws. */
#include "internal.h"

#include "cuda/plugin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#ifdef MT_HAVE_OPENMP
#include <omp.h>
#endif

#define MT_CACHE_BYTES ((size_t)256 << 20) /* most bytes the block cache may hold */

enum mt_status mt_fail(struct mt_ctx *ctx, enum mt_status status, const char *fmt, ...)
{
    if (ctx) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ctx->err, sizeof ctx->err, fmt, ap);
        va_end(ap);
    }
    return status;
}

int64_t mt_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

double mt_now_s(void) { return (double)mt_now_ns() * 1e-9; }

static size_t default_mem_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) return (size_t)1 << 30;
    return (size_t)pages * (size_t)page / 2;
}

struct mt_ctx *mt_ctx_new(void)
{
    struct mt_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return NULL;
    ctx->backend = MT_BACKEND_FAST;
    ctx->cuda_matmul = MT_CUDA_MATMUL_AUTO;
#ifdef MT_HAVE_OPENMP
    ctx->threads = omp_get_max_threads();
#else
    ctx->threads = 1;
#endif
    if (ctx->threads < 1) ctx->threads = 1;
    ctx->mem_default = ctx->mem_limit = default_mem_limit();
    mt_seed(ctx, 0);
    return ctx;
}

static void drop_cache(struct mt_ctx *ctx)
{
    for (int i = 0; i < MT_BLOCK_CACHE; i++) {
        free(ctx->cache[i].ptr);
        ctx->cache[i] = (struct mt_block){0};
    }
    ctx->cache_bytes = 0;
}

void mt_ctx_trim(struct mt_ctx *ctx)
{
    drop_cache(ctx);
    mt_dev_trim(ctx);
}

void mt_ctx_free(struct mt_ctx *ctx)
{
    if (!ctx) return;
    mt_ctx_trim(ctx);
    free(ctx);
}

const char *mt_ctx_error(const struct mt_ctx *ctx) { return ctx->err; }

enum mt_backend mt_ctx_backend(const struct mt_ctx *ctx) { return ctx->backend; }

enum mt_status mt_ctx_set_backend(struct mt_ctx *ctx, enum mt_backend b)
{
    enum mt_status st = mt_backend_check(ctx, b);
    if (st == MT_OK) ctx->backend = b;
    return st;
}

static const char *const cuda_matmul_names[] = {
    [MT_CUDA_MATMUL_NAIVE] = "naive",
    [MT_CUDA_MATMUL_TILED] = "tiled",
    [MT_CUDA_MATMUL_REGISTER] = "register",
    [MT_CUDA_MATMUL_AUTO] = "auto",
};

enum mt_status mt_ctx_set_cuda_matmul(struct mt_ctx *ctx, const char *kernel)
{
    for (int k = 0; k < (int)(sizeof cuda_matmul_names / sizeof cuda_matmul_names[0]); k++)
        if (strcmp(kernel, cuda_matmul_names[k]) == 0) {
            ctx->cuda_matmul = k;
            return MT_OK;
        }
    return mt_fail(ctx, MT_ERR_INVALID,
                   "unknown cuda matmul kernel '%s' (known: auto, naive, tiled, register)", kernel);
}

const char *mt_ctx_cuda_matmul(const struct mt_ctx *ctx)
{
    return cuda_matmul_names[ctx->cuda_matmul];
}

int mt_ctx_threads(const struct mt_ctx *ctx) { return ctx->threads; }

enum mt_status mt_ctx_set_threads(struct mt_ctx *ctx, int n)
{
    if (n < 1 || n > 1024)
        return mt_fail(ctx, MT_ERR_INVALID, "threads must be between 1 and 1024, not %d", n);
    ctx->threads = n;
    return MT_OK;
}

size_t mt_ctx_mem_limit(const struct mt_ctx *ctx) { return ctx->mem_limit; }
size_t mt_ctx_mem_used(const struct mt_ctx *ctx) { return ctx->mem_used; }

void mt_ctx_set_mem_limit(struct mt_ctx *ctx, size_t bytes)
{
    ctx->mem_limit = bytes ? bytes : ctx->mem_default;
}

void mt_ctx_set_diag(struct mt_ctx *ctx, mt_diag_fn fn, void *user)
{
    ctx->diag = fn;
    ctx->diag_user = user;
}

void mt_ctx_diag(const struct mt_ctx *ctx, mt_diag_fn *fn, void **user)
{
    *fn = ctx->diag;
    *user = ctx->diag_user;
}

/* ---- backends ---- */

static const char *const backend_names[] = {
    [MT_BACKEND_SIMPLE] = "simple",
    [MT_BACKEND_FAST] = "fast",
    [MT_BACKEND_CUDA] = "cuda",
};
_Static_assert(sizeof backend_names / sizeof backend_names[0] == MT_BACKEND_COUNT,
               "one name per backend");

const char *mt_backend_name(enum mt_backend b)
{
    return (unsigned)b < MT_BACKEND_COUNT ? backend_names[b] : "unknown";
}

enum mt_status mt_backend_parse(struct mt_ctx *ctx, const char *name, enum mt_backend *out)
{
    for (int b = 0; b < MT_BACKEND_COUNT; b++) {
        if (strcmp(name, backend_names[b]) == 0) {
            *out = (enum mt_backend)b;
            return MT_OK;
        }
    }
    return mt_fail(ctx, MT_ERR_INVALID, "unknown backend '%s' (known: simple, fast, cuda)", name);
}

enum mt_status mt_backend_check(struct mt_ctx *ctx, enum mt_backend b)
{
    if (b == MT_BACKEND_SIMPLE || b == MT_BACKEND_FAST) return MT_OK;
    if (b == MT_BACKEND_CUDA) {
        /* the first question starts CUDA (device.h): nothing touches it before */
        const char *why = NULL;
        if (!mt_cuda_probe(&why))
            return mt_fail(ctx, MT_ERR_BACKEND, "the cuda backend is not available: %s", why);
        return MT_OK;
    }
    return mt_fail(ctx, MT_ERR_INVALID, "unknown backend %d", (int)b);
}

/* ---- storage ---- */

void mt_format_bytes(size_t n, char *buf, size_t len)
{
    if (n >= ((size_t)1 << 30))
        snprintf(buf, len, "%.2f GiB", (double)n / (1 << 30));
    else if (n >= ((size_t)1 << 20))
        snprintf(buf, len, "%.2f MiB", (double)n / (1 << 20));
    else
        snprintf(buf, len, "%zu bytes", n);
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

/* "tensor of shape (2, 3)" for error messages */
static const char *what_str(char *buf, size_t len, int ndim, const int64_t *shape)
{
    size_t n = (size_t)snprintf(buf, len, "tensor of shape ");
    if (n < len) mt_shape_str(ndim, shape, buf + n, len - n);
    return buf;
}

/* A storage of device memory (cuda/backend.c allocates and caches it). */
static enum mt_status device_storage_new(struct mt_ctx *ctx, int ndim, const int64_t *shape,
                                         int64_t nelem, struct mt_storage **out)
{
    char what[200];
    struct mt_storage *s = malloc(sizeof *s);
    if (!s) return mt_fail(ctx, MT_ERR_NOMEM, "out of memory for a tensor");
    void *data = NULL;
    size_t block = 0;
    enum mt_status st = mt_dev_alloc(ctx, (size_t)nelem * sizeof(float),
                                     what_str(what, sizeof what, ndim, shape), &data, &block);
    if (st != MT_OK) {
        free(s);
        return st;
    }
    *s = (struct mt_storage){
        .refs = 1, .device = true, .nelem = nelem, .bytes = block, .data = data, .ctx = ctx};
    *out = s;
    return MT_OK;
}

enum mt_status mt_storage_new(struct mt_ctx *ctx, enum mt_backend b, int ndim, const int64_t *shape,
                              int64_t nelem, struct mt_storage **out)
{
    /* messages are formatted only on failure: this runs for every op's output */
    char want[32], lim[32], used[32], what[200];
    if (nelem < 0 || (uint64_t)nelem > SIZE_MAX / 8)
        return mt_fail(ctx, MT_ERR_NOMEM, "cannot allocate %s: too many elements",
                       what_str(what, sizeof what, ndim, shape));
    if (b == MT_BACKEND_CUDA) return device_storage_new(ctx, ndim, shape, nelem, out);
    size_t bytes = (size_t)nelem * sizeof(float);
    if (bytes > ctx->mem_limit || ctx->mem_used > ctx->mem_limit - bytes) {
        mt_format_bytes(bytes, want, sizeof want);
        mt_format_bytes(ctx->mem_limit, lim, sizeof lim);
        mt_format_bytes(ctx->mem_used, used, sizeof used);
        return mt_fail(ctx, MT_ERR_NOMEM,
                       "cannot allocate %s (%s): over the memory limit of %s (%s in use)",
                       what_str(what, sizeof what, ndim, shape), want, lim, used);
    }
    struct mt_storage *s = malloc(sizeof *s);
    float *data = s ? block_alloc(ctx, bytes) : NULL;
    if (s && !data) {
        drop_cache(ctx); /* the cache may hold what we need */
        data = block_alloc(ctx, bytes);
    }
    if (!data) {
        free(s);
        mt_format_bytes(bytes, want, sizeof want);
        return mt_fail(ctx, MT_ERR_NOMEM, "cannot allocate %s (%s): out of memory",
                       what_str(what, sizeof what, ndim, shape), want);
    }
    *s = (struct mt_storage){.refs = 1, .nelem = nelem, .bytes = bytes, .data = data, .ctx = ctx};
    ctx->mem_used += bytes;
    *out = s;
    return MT_OK;
}

void mt_storage_release(struct mt_storage *s)
{
    if (!s || --s->refs > 0) return;
    if (s->device) {
        mt_dev_free(s->ctx, s->data, s->bytes);
    } else {
        s->ctx->mem_used -= s->bytes;
        block_free(s->ctx, s->data, s->bytes);
    }
    free(s);
}

/* ---- random: MT19937 as CPython's _randommodule.c ---- */

static void rng_init_genrand(struct mt_ctx *ctx, uint32_t s)
{
    uint32_t *mt = ctx->rng;
    mt[0] = s;
    for (int i = 1; i < 624; i++)
        mt[i] = 1812433253u * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i;
    ctx->rng_i = 624;
}

void mt_seed(struct mt_ctx *ctx, uint64_t seed)
{
    /* init_by_array with the seed's 32-bit words, least significant first (at least one). */
    uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    int klen = key[1] ? 2 : 1;
    uint32_t *mt = ctx->rng;
    rng_init_genrand(ctx, 19650218u);
    int i = 1, j = 0;
    for (int k = 624 > klen ? 624 : klen; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= 624) {
            mt[0] = mt[623];
            i = 1;
        }
        if (j >= klen) j = 0;
    }
    for (int k = 623; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= 624) {
            mt[0] = mt[623];
            i = 1;
        }
    }
    mt[0] = 0x80000000u;
    ctx->rng_i = 624;
}

static uint32_t rng_next(struct mt_ctx *ctx)
{
    uint32_t *mt = ctx->rng;
    if (ctx->rng_i >= 624) {
        static const uint32_t mag01[2] = {0u, 0x9908b0dfu};
        int kk;
        uint32_t y;
        for (kk = 0; kk < 624 - 397; kk++) {
            y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
            mt[kk] = mt[kk + 397] ^ (y >> 1) ^ mag01[y & 1u];
        }
        for (; kk < 623; kk++) {
            y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
            mt[kk] = mt[kk + (397 - 624)] ^ (y >> 1) ^ mag01[y & 1u];
        }
        y = (mt[623] & 0x80000000u) | (mt[0] & 0x7fffffffu);
        mt[623] = mt[396] ^ (y >> 1) ^ mag01[y & 1u];
        ctx->rng_i = 0;
    }
    uint32_t y = mt[ctx->rng_i++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

double mt_random(struct mt_ctx *ctx)
{
    uint32_t a = rng_next(ctx) >> 5, b = rng_next(ctx) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* Python's getrandbits(k) for 1 <= k <= 64: 32-bit words from the least significant up, the
 * last one shifted down to the bits still wanted. */
static uint64_t rng_bits(struct mt_ctx *ctx, int k)
{
    if (k <= 32) return rng_next(ctx) >> (32 - k);
    uint64_t lo = rng_next(ctx);
    return lo | (uint64_t)(rng_next(ctx) >> (64 - k)) << 32;
}

uint64_t mt_random_below(struct mt_ctx *ctx, uint64_t n)
{
    if (n <= 1) return 0;
    int k = 64 - __builtin_clzll(n); /* n.bit_length() */
    uint64_t r = rng_bits(ctx, k);
    while (r >= n) r = rng_bits(ctx, k);
    return r;
}

void mt_shuffle(struct mt_ctx *ctx, int64_t *perm, int64_t n)
{
    for (int64_t i = n - 1; i >= 1; i--) {
        int64_t j = (int64_t)mt_random_below(ctx, (uint64_t)i + 1), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
}
