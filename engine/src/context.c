/* context.c — engine contexts: errors, settings, the backend tables, storages and the random
 * generator.
 *
 * Memory. A storage's block comes from its backend's table (alloc, free, trim): host memory for
 * the CPU backends (cpu/host.c, counted against the context's limit), device memory for cuda
 * (cuda/backend.c); this file keeps the limit's setting and the storage's reference count.
 *
 * Random numbers. MT19937 seeded by init_by_array with the seed's 32-bit words, tempered and
 * combined into 53-bit doubles exactly as CPython's random module does, so `seed(n)` followed by
 * `rand(...)` reproduces MiniTorch's `random.seed(n)` + `random.random()` draws. */
#include "internal.h"

#include "cuda/plugin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef MT_HAVE_OPENMP
#include <omp.h>
#endif

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
    /* The thread pool starts here rather than inside the first parallel op: otherwise a
     * student's first timed op carries the threads' start, and their first wait to be
     * scheduled reads as a busy machine. */
#pragma omp parallel num_threads(ctx->threads)
    {
    }
#else
    ctx->threads = 1;
#endif
    if (ctx->threads < 1) ctx->threads = 1;
    ctx->mem_default = ctx->mem_limit = default_mem_limit();
    mt_seed(ctx, 0);
    return ctx;
}

void mt_ctx_trim(struct mt_ctx *ctx)
{
    for (int b = 0; b < MT_BACKEND_COUNT; b++) {
        const struct mt_backend_ops *ops = mt_backend_ops_of((enum mt_backend)b);
        if (ops->trim) ops->trim(ctx);
    }
}

enum mt_status mt_ctx_wait(struct mt_ctx *ctx)
{
    for (int b = 0; b < MT_BACKEND_COUNT; b++) {
        const struct mt_backend_ops *ops = mt_backend_ops_of((enum mt_backend)b);
        enum mt_status st = ops->wait ? ops->wait(ctx) : MT_OK;
        if (st != MT_OK) return st;
    }
    return MT_OK;
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

uint64_t mt_ctx_ops_run(const struct mt_ctx *ctx, enum mt_backend b)
{
    return (unsigned)b < MT_BACKEND_COUNT ? ctx->ops_run[b] : 0;
}

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
    [MT_BACKEND_STUDENT] = "student",
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
    return mt_fail(ctx, MT_ERR_INVALID, "unknown backend '%s' (known: simple, fast, cuda, student)",
                   name);
}

const struct mt_backend_ops *const mt_backend_tables[MT_BACKEND_COUNT] = {
    [MT_BACKEND_SIMPLE] = &mt_simple_ops,
    [MT_BACKEND_FAST] = &mt_fast_ops,
    [MT_BACKEND_CUDA] = &mt_cuda_ops,
    [MT_BACKEND_STUDENT] = &mt_student_ops,
};

bool mt_backend_is_host(enum mt_backend b)
{
    return (unsigned)b < MT_BACKEND_COUNT && mt_backend_tables[b]->host;
}

enum mt_status mt_backend_check(struct mt_ctx *ctx, enum mt_backend b)
{
    if ((unsigned)b >= MT_BACKEND_COUNT)
        return mt_fail(ctx, MT_ERR_INVALID, "unknown backend %d", (int)b);
    const struct mt_backend_ops *ops = mt_backend_tables[b];
    return ops->available ? ops->available(ctx) : MT_OK;
}

/* ---- storage (the memory itself is the backend's: cpu/host.c, cuda/backend.c) ---- */

enum mt_status mt_storage_new(struct mt_ctx *ctx, enum mt_backend b, int ndim, const int64_t *shape,
                              int64_t nelem, struct mt_storage **out)
{
    char what[200];
    if (nelem < 0 || (uint64_t)nelem > SIZE_MAX / 8)
        return mt_fail(ctx, MT_ERR_NOMEM, "cannot allocate %s: too many elements",
                       mt_shape_what(what, sizeof what, ndim, shape));
    const struct mt_backend_ops *ops = mt_backend_ops_of(b);
    struct mt_storage *s = malloc(sizeof *s);
    if (!s) return mt_fail(ctx, MT_ERR_NOMEM, "out of memory for a tensor");
    *s = (struct mt_storage){.refs = 1, .mem = ops, .nelem = nelem, .ctx = ctx};
    enum mt_status st = ops->alloc(ctx, ndim, shape, s);
    if (st != MT_OK) {
        free(s);
        return st;
    }
    *out = s;
    return MT_OK;
}

void mt_storage_release(struct mt_storage *s)
{
    if (!s || --s->refs > 0) return;
    s->mem->free(s);
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

void mt_random_state(const struct mt_ctx *ctx, uint32_t words[MT_RANDOM_WORDS], int *pos)
{
    memcpy(words, ctx->rng, sizeof ctx->rng);
    *pos = ctx->rng_i;
}

enum mt_status mt_random_set_state(struct mt_ctx *ctx, const uint32_t words[MT_RANDOM_WORDS],
                                   int pos)
{
    if (pos < 0 || pos > MT_RANDOM_WORDS)
        return mt_fail(ctx, MT_ERR_INVALID, "invalid state: position %d of %d words", pos,
                       MT_RANDOM_WORDS);
    memcpy(ctx->rng, words, sizeof ctx->rng);
    ctx->rng_i = pos;
    return MT_OK;
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
    if (n == 0) return 0;
    int k = 64 - __builtin_clzll(n); /* n.bit_length(): CPython draws one bit even for n = 1 */
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
