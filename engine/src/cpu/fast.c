/* fast.c — the `fast` backend: MiniTorch's FastOps in C, OpenMP threads around SIMD rows.
 *
 * Same semantics as the simple backend (simple.c, the slow twin the tests compare against),
 * organised for speed:
 *
 * - map/zip: broadcasting becomes stride-0 dims (mt_expand_strides) and dims that are
 *   contiguous with each other in every operand are merged, so a contiguous tensor is one flat
 *   loop and `x + bias` is an outer loop around a contiguous row with a shared row. The
 *   innermost dim runs through a vector kernel of fast.h (unit or zero stride), other strides
 *   are gathered into an L1 buffer first. Outputs bigger than the caches are written with
 *   non-temporal stores (the write-allocate read they avoid is a quarter of a+b's traffic).
 * - reduce: along a contiguous dim, 32 partial accumulators per row; along an outer dim
 *   (sum(0) of a row-major matrix), vectorised across the output columns: each thread owns a
 *   strip of columns, walks the rows and folds them into an accumulator strip in L1. Every
 *   output is computed by one thread in an order that depends on the shape only, so results
 *   are bit-identical for any thread count; along an outer dim they are even identical to
 *   simple's. Long rows with fewer outputs than threads are cut at fixed block boundaries
 *   (MT_FAST_ROW_BLOCK), the same blocks a serial run folds, so that stays true.
 * - matmul: mt_cpu_gemm (gemm.c) per batch slice with the slices' strides, threads inside
 *   the gemm for big products, over the batch for many small ones.
 * - conv: blocks of the im2col matrix (each input value a cell's sum reads, copied as runs of
 *   input rows) multiplied by the weight through the same gemm, a block per thread, the block
 *   read in place; with fewer channels out than in, each weight cell times the image, then
 *   the products summed shifted; the tiniest convolutions run direct rows instead.
 *
 * Threads. Below FAST_PAR_WORK units of work (an element of a cheap op is one unit, see the
 * cost tables) an op runs serially: no OpenMP region, no allocation, no clock read (a 10x100
 * add costs about 60 ns more than the bare loop, ops.c's checks included). Above it, the work
 * is cut into chunks of FAST_CHUNK_WORK units (tens of microseconds), handed out statically
 * (each thread a contiguous range, which is what the memory system prefers) and the cancel
 * flag is polled before each chunk; once it is seen, the remaining chunks are skipped. */
#include "../internal.h"
#define MT_FAST_KERNEL_BODIES
#include "fast.h"
#include "gemm.h"
#include "scalar.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#ifdef MT_HAVE_OPENMP
#include <omp.h>
#endif

/* ---- tuning ---------------------------------------------------------------------------------
 * Chosen by timing a loop of ops of each size on 1 and on 2 threads, workers warm. A parallel
 * region costs a few microseconds per op (far more when the other core is busy), so two
 * threads pay only once an op takes several times that on one. The crossovers found: a+b and
 * neg between 32K and 64K elements, vector exp near 16K, sum(1) near 48K, sum(0) only above
 * 128K (one thread folds columns from L2/L3 fast). Costs per element relative to add: vector
 * exp/log ~3, sigmoid/tanh ~5, libm expf ~50. */

/* Work (in units of one cheap element) below which an op runs on one thread. (#ifndef: a
 * tuning build can pass -DFAST_PAR_WORK=1 to time every size on two threads.) */
#ifndef FAST_PAR_WORK
#define FAST_PAR_WORK ((int64_t)49152)
#endif
/* Work per chunk: the cancel-poll interval (tens of us) and the grain of the static schedule. */
#define FAST_CHUNK_WORK ((int64_t)1 << 16)
/* Outputs of at least this many bytes are written with non-temporal stores. On 16M-element
 * a+b they gave +20% (1 thread) and +25% (2 threads) over ordinary stores, which first read
 * every output line; below the L3 size they only push a result out that the next op would
 * have found in cache (a 2M-element add ran 4x slower with them). 16 MiB out: a+b touches
 * 48 MiB, more than the 32 MiB L3. */
#ifndef FAST_NT_BYTES
#define FAST_NT_BYTES MT_FAST_NT_BYTES
#endif
/* Rows shorter than this are reduced serially (32 accumulators would not pay). */
#define FAST_ROW_MIN 64
/* Most columns a thread folds at once in a column reduction. The strip (16 KiB) stays in L1;
 * wider strips read longer runs of each row: sum(0) of 4096x4096 on one thread went 12.6,
 * 16.5, 18.0, 20.4 GB/s for 512, 1024, 2048, 4096 columns, 8192 no better. */
#ifndef FAST_STRIP
#define FAST_STRIP 4096
#endif
/* A column reduction goes parallel only above FAST_PAR_COL elements, and never in strips
 * narrower than FAST_STRIP_MIN columns: 1M elements as 4096 x 256 ran at 0.8x on two threads
 * splitting each row's 1 KiB in two. */
#define FAST_PAR_COL ((int64_t)1 << 17)
#define FAST_STRIP_MIN 256
/* Elements gathered per pass for strided rows (three such buffers live on the stack). */
#define FAST_BUF 256

/* Relative cost of an element: vector kernels, then the generic table's libm calls. */
static const unsigned char map_cost_vec[MT_MAP_COUNT] = {
    [MT_MAP_NEG] = 1, [MT_MAP_ID] = 1,  [MT_MAP_INV] = 2, [MT_MAP_RELU] = 1, [MT_MAP_SIGMOID] = 5,
    [MT_MAP_LOG] = 3, [MT_MAP_EXP] = 3, [MT_MAP_ABS] = 1, [MT_MAP_SQRT] = 2, [MT_MAP_TANH] = 5,
};
static const unsigned char map_cost_libm[MT_MAP_COUNT] = {
    [MT_MAP_NEG] = 1,      [MT_MAP_ID] = 1,    [MT_MAP_INV] = 2,  [MT_MAP_RELU] = 1,
    [MT_MAP_SIGMOID] = 40, [MT_MAP_LOG] = 32,  [MT_MAP_EXP] = 32, [MT_MAP_ABS] = 1,
    [MT_MAP_SQRT] = 2,     [MT_MAP_TANH] = 48,
};
static const unsigned char zip_cost[MT_ZIP_COUNT] = {
    [MT_ZIP_ADD] = 1, [MT_ZIP_SUB] = 1,       [MT_ZIP_MUL] = 1,      [MT_ZIP_DIV] = 2,
    [MT_ZIP_LT] = 1,  [MT_ZIP_GT] = 1,        [MT_ZIP_EQ] = 1,       [MT_ZIP_IS_CLOSE] = 1,
    [MT_ZIP_MAX] = 1, [MT_ZIP_RELU_BACK] = 1, [MT_ZIP_LOG_BACK] = 2, [MT_ZIP_INV_BACK] = 2,
};
_Static_assert(MT_MAP_COUNT == 10 && MT_ZIP_COUNT == 12, "a cost for every op");

static inline int64_t min64(int64_t x, int64_t y) { return x < y ? x : y; }
static inline int64_t max64(int64_t x, int64_t y) { return x > y ? x : y; }

/* ---- the instruction set ----------------------------------------------------------------- */

#if defined(__SSE2__) || defined(__ARM_NEON)
#define GENERIC_WIDTH 4
#else
#define GENERIC_WIDTH 1
#endif

/* The baseline has no non-temporal store the compiler would emit from a loop: compute 256
 * elements into an L1 buffer, then stream them out (SSE2's movntps). */
static void generic_stream(int64_t n, const float *src, float *dst)
{
    int64_t i = 0;
#if defined(__SSE2__)
    for (; i < n && ((uintptr_t)(dst + i) & 15); i++) dst[i] = src[i];
    for (; i + 4 <= n; i += 4) _mm_stream_ps(dst + i, _mm_loadu_ps(src + i));
#endif
    for (; i < n; i++) dst[i] = src[i];
}

static void generic_map_nt(enum mt_map_op op, int64_t n, const float *a, float *out)
{
    _Alignas(64) float buf[256];
    for (int64_t j = 0; j < n; j += 256) {
        int64_t c = n - j < 256 ? n - j : 256;
        fk_map(op, c, a + j, buf);
        generic_stream(c, buf, out + j);
    }
#if defined(__SSE2__)
    _mm_sfence();
#endif
}

static void generic_zip_nt(enum mt_zip_op op, int64_t n, const float *a, int64_t sa, const float *b,
                           int64_t sb, float *out)
{
    _Alignas(64) float buf[256];
    for (int64_t j = 0; j < n; j += 256) {
        int64_t c = n - j < 256 ? n - j : 256;
        fk_zip(op, c, a + j * sa, sa, b + j * sb, sb, buf);
        generic_stream(c, buf, out + j);
    }
#if defined(__SSE2__)
    _mm_sfence();
#endif
}

const struct mt_fast_kernels mt_fast_kernels_generic = {
    .isa = "generic",
    .width = GENERIC_WIDTH,
    .map_vector = {[MT_MAP_NEG] = true,
                   [MT_MAP_ID] = true,
                   [MT_MAP_INV] = true,
                   [MT_MAP_RELU] = true,
                   [MT_MAP_ABS] = true,
                   [MT_MAP_SQRT] = true},
    FK_TABLE_FUNCS,
    .map_nt = generic_map_nt,
    .zip_nt = generic_zip_nt,
};

/* The best table this CPU runs, chosen once; MT_FAST_ISA=generic forces the baseline (tests and
 * benchmarks use it to exercise and compare both; MT_FAST_ISA=avx2 is read by
 * mt_fast_prog_kernel). */
static const struct mt_fast_kernels *pick_kernels(void)
{
    const char *want = getenv("MT_FAST_ISA");
    if (want && strcmp(want, "generic") == 0) return &mt_fast_kernels_generic;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    /* also checks that the OS saves the ymm registers (XGETBV), not only the CPUID bits */
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return &mt_fast_kernels_avx2;
#endif
    return &mt_fast_kernels_generic;
}

static const struct mt_fast_kernels *kernels(void)
{
    static _Atomic(const struct mt_fast_kernels *) chosen;
    const struct mt_fast_kernels *k = atomic_load_explicit(&chosen, memory_order_relaxed);
    if (!k) { /* racing first calls all store the same pointer */
        k = pick_kernels();
        atomic_store_explicit(&chosen, k, memory_order_relaxed);
    }
    return k;
}

const struct mt_fast_kernels *mt_fast_active(void) { return kernels(); }

/* AVX-512's chunks pay where there are several steps: they amortise a step's dispatch over four
 * times the elements. With one step there is no dispatch to amortise, and a+b as a function ran
 * slower in them than in AVX2's, on one thread and on two (16M floats). */
mt_fast_prog_fn mt_fast_prog_kernel(const struct mt_fast_kernels *k, const struct mt_fast_prog *fp,
                                    int *width)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    static atomic_int avx512 = -1; /* not yet asked */
    int has = atomic_load_explicit(&avx512, memory_order_relaxed);
    if (has < 0) {
        const char *want = getenv("MT_FAST_ISA");
        __builtin_cpu_init();
        has = __builtin_cpu_supports("avx512f") && !(want && strcmp(want, "avx2") == 0);
        atomic_store_explicit(&avx512, has, memory_order_relaxed);
    }
    if (has && k == &mt_fast_kernels_avx2 && fp->nsteps >= 2) {
        *width = 16;
        return mt_fast_prog_avx512;
    }
#endif
    *width = k->width;
    return k->prog;
}

float mt_fast_sum_contig(int64_t n, const float *a)
{
    const struct mt_fast_kernels *k = kernels();
    float acc = 0.0f;
    if (n >= FAST_ROW_MIN) { /* fast_reduce's row path (red_one), blocks folded in order */
        for (int64_t j = 0; j < n; j += MT_FAST_ROW_BLOCK)
            acc = acc + k->red_row(MT_RED_SUM,
                                   n - j < MT_FAST_ROW_BLOCK ? n - j : MT_FAST_ROW_BLOCK, a + j);
        return acc;
    }
    for (int64_t j = 0; j < n; j++) acc = acc + a[j]; /* simple's loop (red_serial) */
    return acc;
}

/* ---- chunked, cancellable, parallel loops ------------------------------------------------ */

typedef void (*chunk_fn)(void *arg, int64_t lo, int64_t hi);

/* Runs fn over items [0, n) in chunks of `chunk`, on up to `threads` threads (contiguous ranges
 * of chunks per thread), polling the cancel flag before each chunk. d gets the number of
 * threads that ran and the chunking, for diagnostics. MT_OK or MT_ERR_CANCELLED. */
static enum mt_status run_chunks(int threads, int64_t n, int64_t chunk, chunk_fn fn, void *arg,
                                 struct mt_diag *d)
{
    int *used = &d->threads;
    int64_t nchunks = (n + chunk - 1) / chunk;
    if (threads > 1 && nchunks < threads && n > 1) {
        /* fewer chunks than threads: split evenly instead (keeping 16-item multiples) */
        chunk = (n + threads - 1) / threads;
        if (chunk > 16) chunk = (chunk + 15) & ~(int64_t)15;
        nchunks = (n + chunk - 1) / chunk;
    }
    if (threads > nchunks) threads = (int)nchunks;
    *used = 1;
    d->chunk = chunk;
    d->nchunks = nchunks;
#ifdef MT_HAVE_OPENMP
    if (threads > 1) {
        atomic_int stop = 0;
        int team = 1;
#pragma omp parallel num_threads(threads)
        {
            if (omp_get_thread_num() == 0) team = omp_get_num_threads();
#pragma omp for schedule(static)
            for (int64_t c = 0; c < nchunks; c++) {
                if (atomic_load_explicit(&stop, memory_order_relaxed)) continue;
                if (mt_cancel_requested()) {
                    atomic_store_explicit(&stop, 1, memory_order_relaxed);
                    continue;
                }
                fn(arg, c * chunk, min64(n, (c + 1) * chunk));
            }
        }
        *used = team;
        return atomic_load(&stop) ? MT_ERR_CANCELLED : MT_OK;
    }
#endif
    for (int64_t c = 0; c < nchunks; c++) {
        if (mt_cancel_requested()) return MT_ERR_CANCELLED;
        fn(arg, c * chunk, min64(n, (c + 1) * chunk));
    }
    return MT_OK;
}

/* Items per chunk for `cost` units per item, a multiple of 16 so that contiguous outputs split
 * on 64-byte lines (no false sharing between threads). */
static int64_t chunk_items(int64_t cost)
{
    int64_t c = FAST_CHUNK_WORK / (cost > 0 ? cost : 1);
    return c < 16 ? 16 : c & ~(int64_t)15;
}

/* ---- map and zip ------------------------------------------------------------------------- */

/* The loop nest of an elementwise op after broadcasting and merging dims: operand 0 is out, 1
 * is a, 2 is b (map: unused). Row-major over `shape`, the last dim innermost. */
struct ew {
    const struct mt_fast_kernels *k;
    bool zip;
    int op;
    int nd;
    bool nt; /* stream the output past the caches */
    int64_t shape[MT_MAX_DIMS];
    int64_t st[3][MT_MAX_DIMS];
    float *o;
    const float *a, *b;
};

/* Fills e's dims from out's shape: size-1 dims dropped, neighbours merged where every operand
 * steps through them as one dim. Returns the number of elements. */
static int64_t ew_build(struct ew *e, const struct mt_tensor *out, const struct mt_tensor *a,
                        const struct mt_tensor *b)
{
    int n = out->ndim, m = 0;
    int64_t sa[MT_MAX_DIMS], sb[MT_MAX_DIMS] = {0}, total = 1;
    mt_expand_strides(a, n, out->shape, sa);
    if (b) mt_expand_strides(b, n, out->shape, sb);
    for (int i = 0; i < n; i++) {
        int64_t len = out->shape[i], so = out->strides[i];
        total *= len;
        if (len == 1) continue;
        if (m > 0 && e->st[0][m - 1] == so * len && e->st[1][m - 1] == sa[i] * len &&
            e->st[2][m - 1] == sb[i] * len) {
            e->shape[m - 1] *= len;
        } else {
            e->shape[m] = len;
            m++;
        }
        e->st[0][m - 1] = so;
        e->st[1][m - 1] = sa[i];
        e->st[2][m - 1] = sb[i];
    }
    if (m == 0) { /* one element */
        e->shape[0] = 1;
        e->st[0][0] = e->st[1][0] = e->st[2][0] = 1;
        m = 1;
    }
    e->nd = m;
    e->o = mt_data(out);
    e->a = mt_data(a);
    e->b = b ? mt_data(b) : NULL;
    return total;
}

/* A contiguous row of the output: ordinary stores, or non-temporal ones when streaming. */
static void ew_row(const struct ew *e, int64_t n, const float *a, int64_t sa, const float *b,
                   int64_t sb, float *o)
{
    bool nt = e->nt && n >= 64;
    if (e->zip)
        (nt ? e->k->zip_nt : e->k->zip)(e->op, n, a, sa, b, sb, o);
    else
        (nt ? e->k->map_nt : e->k->map)(e->op, n, a, o);
}

/* `len` elements of the innermost dim starting at element offsets off[0..2]. */
static void ew_segment(const struct ew *e, int64_t len, const int64_t *off)
{
    int d = e->nd - 1;
    float *o = e->o + off[0];
    const float *a = e->a + off[1], *b = e->zip ? e->b + off[2] : NULL;
    int64_t so = e->st[0][d], sa = e->st[1][d], sb = e->st[2][d];
    bool unit_a = e->zip ? (sa == 0 || sa == 1) : sa == 1;
    bool unit_b = !e->zip || sb == 0 || sb == 1;
    if (so == 1 && unit_a && unit_b) {
        ew_row(e, len, a, sa, b, sb, o);
        return;
    }
    /* Strided: gather what the kernel cannot step through, run it, scatter the result. */
    float ba[FAST_BUF], bb[FAST_BUF], bo[FAST_BUF];
    for (int64_t j = 0; j < len; j += FAST_BUF) {
        int64_t c = min64(FAST_BUF, len - j);
        const float *pa = a + j * sa, *pb = b ? b + j * sb : NULL;
        int64_t ka = sa, kb = sb;
        if (!unit_a) {
            for (int64_t i = 0; i < c; i++) ba[i] = pa[i * sa];
            pa = ba;
            ka = 1;
        }
        if (!unit_b) {
            for (int64_t i = 0; i < c; i++) bb[i] = pb[i * sb];
            pb = bb;
            kb = 1;
        }
        float *po = so == 1 ? o + j : bo;
        if (e->zip)
            e->k->zip(e->op, c, pa, ka, pb, kb, po);
        else
            e->k->map(e->op, c, pa, po);
        if (so != 1)
            for (int64_t i = 0; i < c; i++) o[(j + i) * so] = bo[i];
    }
}

/* Elements [lo, hi) in row-major order: one index computation, then an odometer. */
static void ew_range(void *arg, int64_t lo, int64_t hi)
{
    const struct ew *e = arg;
    int nd = e->nd;
    int64_t idx[MT_MAX_DIMS] = {0}, off[3] = {0, 0, 0}, rem = lo;
    for (int i = nd - 1; i >= 0 && rem > 0; i--) {
        idx[i] = rem % e->shape[i];
        rem /= e->shape[i];
        for (int k = 0; k < 3; k++) off[k] += idx[i] * e->st[k][i];
    }
    int64_t inner = e->shape[nd - 1];
    while (lo < hi) {
        int64_t len = min64(inner - idx[nd - 1], hi - lo);
        ew_segment(e, len, off);
        lo += len;
        if (lo >= hi) break;
        /* the row is done: carry into the outer dims */
        for (int k = 0; k < 3; k++) off[k] += len * e->st[k][nd - 1];
        idx[nd - 1] += len;
        for (int i = nd - 1; i > 0 && idx[i] == e->shape[i]; i--) {
            idx[i] = 0;
            idx[i - 1]++;
            for (int k = 0; k < 3; k++) off[k] += e->st[k][i - 1] - e->shape[i] * e->st[k][i];
        }
    }
}

static const char *ew_path(const struct ew *e)
{
    int nops = e->zip ? 3 : 2;
    bool contiguous = e->nd == 1, broadcast = false;
    for (int k = 0; k < nops; k++) {
        if (e->st[k][e->nd - 1] != 1) contiguous = false;
        for (int i = 0; i < e->nd; i++)
            if (e->st[k][i] == 0) broadcast = true;
    }
    return contiguous ? "contiguous" : broadcast ? "broadcast" : "strided";
}

/* Runs the elementwise op described by e over `total` elements of `cost` units each. */
static enum mt_status ew_run(struct mt_ctx *ctx, struct ew *e, int64_t total, int64_t cost,
                             bool vector, struct mt_diag *d)
{
    d->path = ew_path(e);
    d->vec_width = vector ? e->k->width : 1;
    d->threads = 1;
    int64_t work = total * cost;
    if (work <= FAST_PAR_WORK) { /* the tiny path: nothing but the loop */
        e->nt = false;
        ew_range(e, 0, total);
        return MT_OK;
    }
    /* Output elements written more than once (a stride-0 out) keep simple's serial order. */
    bool serial = ctx->threads <= 1;
    for (int i = 0; i < e->nd; i++)
        if (e->st[0][i] == 0) serial = true;
    e->nt = total * (int64_t)sizeof(float) >= FAST_NT_BYTES && e->st[0][e->nd - 1] == 1;
    return run_chunks(serial ? 1 : ctx->threads, total, chunk_items(cost), ew_range, e, d);
}

/* True when t has out's shape and both are row-major: one flat loop covers them. */
static bool same_flat(const struct mt_tensor *t, const struct mt_tensor *out)
{
    if (t->ndim != out->ndim) return false;
    int64_t expect = 1;
    for (int i = t->ndim - 1; i >= 0; i--) {
        if (t->shape[i] != out->shape[i]) return false;
        if (t->shape[i] != 1 && (t->strides[i] != expect || out->strides[i] != expect))
            return false;
        expect *= t->shape[i];
    }
    return true;
}

/* The tiny ops: the table's map_small and zip_small (internal.h says what they must prove), and
 * the first thing fast_map and fast_zip try. */
static bool fast_map_small(enum mt_map_op op, struct mt_tensor *out, const struct mt_tensor *a,
                           struct mt_diag *d)
{
    const struct mt_fast_kernels *k = kernels();
    bool vec = k->map_vector[op];
    int64_t cost = vec ? map_cost_vec[op] : map_cost_libm[op];
    if (out->size * cost > FAST_PAR_WORK || !same_flat(a, out)) return false;
    if (d) {
        d->path = "contiguous";
        d->threads = 1;
        d->vec_width = vec ? k->width : 1;
    }
    k->map(op, out->size, mt_data(a), mt_data(out));
    return true;
}

static bool fast_zip_small(enum mt_zip_op op, struct mt_tensor *out, const struct mt_tensor *a,
                           const struct mt_tensor *b, struct mt_diag *d)
{
    if (out->size * zip_cost[op] > FAST_PAR_WORK) return false;
    bool fa = same_flat(a, out), fb = same_flat(b, out);
    /* a single element broadcasts to out's shape when it has no more dims than out */
    bool one_a = a->size == 1 && a->ndim <= out->ndim, one_b = b->size == 1 && b->ndim <= out->ndim;
    if (!(fa || fb) || !(fa || one_a) || !(fb || one_b)) return false;
    const struct mt_fast_kernels *k = kernels();
    if (d) {
        d->path = fa && fb ? "contiguous" : "broadcast";
        d->threads = 1;
        d->vec_width = k->width;
    }
    k->zip(op, out->size, mt_data(a), fa, mt_data(b), fb, mt_data(out));
    return true;
}

static enum mt_status fast_map(struct mt_ctx *ctx, enum mt_map_op op, struct mt_tensor *out,
                               const struct mt_tensor *a, struct mt_diag *d)
{
    if (fast_map_small(op, out, a, d)) return MT_OK;
    const struct mt_fast_kernels *k = kernels();
    bool vec = k->map_vector[op];
    struct ew e;
    e.k = k;
    e.zip = false;
    e.op = (int)op;
    int64_t total = ew_build(&e, out, a, NULL);
    return ew_run(ctx, &e, total, vec ? map_cost_vec[op] : map_cost_libm[op], vec, d);
}

static enum mt_status fast_zip(struct mt_ctx *ctx, enum mt_zip_op op, struct mt_tensor *out,
                               const struct mt_tensor *a, const struct mt_tensor *b,
                               struct mt_diag *d)
{
    if (fast_zip_small(op, out, a, b, d)) return MT_OK;
    struct ew e;
    e.k = kernels();
    e.zip = true;
    e.op = (int)op;
    int64_t total = ew_build(&e, out, a, b);
    return ew_run(ctx, &e, total, zip_cost[op], true, d);
}

/* ---- reduce ------------------------------------------------------------------------------ */

static inline float red_step(enum mt_reduce_op op, float acc, float x)
{
    switch (op) {
    case MT_RED_PROD: return acc * x;
    case MT_RED_MAX: return mt_s_max(acc, x);
    default: return acc + x; /* sum, mean */
    }
}

/* simple's loop, the reference order, continued from acc. */
static float red_serial(enum mt_reduce_op op, float acc, int64_t n, const float *a, int64_t stride)
{
    for (int64_t j = 0; j < n; j++) acc = red_step(op, acc, a[j * stride]);
    return acc;
}

static inline float red_finish(enum mt_reduce_op op, float acc, int64_t n)
{
    return op == MT_RED_MEAN ? acc / (float)n : acc;
}

enum red_path {
    RED_ROW,     /* reduced dim contiguous: 32-accumulator rows */
    RED_COL,     /* a kept dim contiguous: vectorised across columns, rows folded in order */
    RED_STRIDED, /* neither: simple's loop per output */
};

/* A reduction's loop nest: the kept dims (merged, reduced dim removed) with a's and out's
 * strides, and the reduced dim (R elements, stride rs in a). */
struct red {
    const struct mt_fast_kernels *k;
    enum mt_reduce_op op;
    enum red_path path;
    int nd;
    int64_t shape[MT_MAX_DIMS], sa[MT_MAX_DIMS], so[MT_MAX_DIMS];
    int64_t R, rs;
    const float *a;
    float *o;
    /* column path: the kept dim with unit stride in a, and the strips it is cut into */
    int col;
    int64_t strip, nstrips;
    /* split rows: blocks per row and their results */
    int64_t nblocks;
    float *part;
    atomic_int cancelled; /* raised by the first thread that sees the cancel flag */
};

/* Polled between blocks of long rows and between row pieces of column strips: a chunk of the
 * parallel loop can be one long row. */
static bool red_cancelled(struct red *r)
{
    if (atomic_load_explicit(&r->cancelled, memory_order_relaxed)) return true;
    if (!mt_cancel_requested()) return false;
    atomic_store_explicit(&r->cancelled, 1, memory_order_relaxed);
    return true;
}

/* simple's loop over a whole row, polling between blocks (the order is unchanged). */
static float red_serial_row(struct red *r, const float *row, int64_t stride)
{
    float acc = mt_reduce_start(r->op);
    for (int64_t j = 0; j < r->R; j += MT_FAST_ROW_BLOCK) {
        if (j > 0 && red_cancelled(r)) break;
        acc = red_serial(r->op, acc, min64(MT_FAST_ROW_BLOCK, r->R - j), row + j * stride, stride);
    }
    return acc;
}

/* One output: on the row path, blocks of MT_FAST_ROW_BLOCK through the 32-accumulator kernel
 * folded in order (a max the kernel cannot give exactly, see fast.h, is redone serially);
 * otherwise simple's loop. */
static float red_one(struct red *r, const float *row)
{
    if (r->path != RED_ROW) return red_serial_row(r, row, r->rs);
    float acc = mt_reduce_start(r->op);
    for (int64_t j = 0; j < r->R; j += MT_FAST_ROW_BLOCK) {
        if (j > 0 && red_cancelled(r)) break;
        float p = r->k->red_row(r->op, min64(MT_FAST_ROW_BLOCK, r->R - j), row + j);
        if (r->op == MT_RED_MAX && isnan(p)) return red_serial_row(r, row, 1);
        acc = red_step(r->op, acc, p);
    }
    return acc;
}

/* Offsets in a and out of output ordinal q over the kept dims, leaving out dim `skip`. */
static void red_locate(const struct red *r, int64_t q, int skip, int64_t *oa, int64_t *oo)
{
    int64_t pa = 0, po = 0;
    for (int i = r->nd - 1; i >= 0; i--) {
        if (i == skip) continue;
        int64_t ix = q % r->shape[i];
        q /= r->shape[i];
        pa += ix * r->sa[i];
        po += ix * r->so[i];
    }
    *oa = pa;
    *oo = po;
}

/* Outputs [lo, hi), each a whole row reduced by this thread; an odometer steps the offsets. */
static void red_rows(void *arg, int64_t lo, int64_t hi)
{
    struct red *r = arg;
    int64_t idx[MT_MAX_DIMS], pa = 0, po = 0, q = lo;
    for (int i = r->nd - 1; i >= 0; i--) {
        idx[i] = q % r->shape[i];
        q /= r->shape[i];
        pa += idx[i] * r->sa[i];
        po += idx[i] * r->so[i];
    }
    for (int64_t i = lo; i < hi; i++) {
        r->o[po] = red_finish(r->op, red_one(r, r->a + pa), r->R);
        for (int d = r->nd - 1; d >= 0; d--) {
            pa += r->sa[d];
            po += r->so[d];
            if (++idx[d] < r->shape[d]) break;
            pa -= r->shape[d] * r->sa[d];
            po -= r->shape[d] * r->so[d];
            idx[d] = 0;
        }
    }
}

/* Column path: unit u is (outer ordinal, strip of columns). The strip's accumulators stay in
 * L1 while the rows stream past, folded in order. */
static void red_cols(void *arg, int64_t lo, int64_t hi)
{
    struct red *r = arg;
    _Alignas(64) float acc[FAST_STRIP];
    int64_t cols = r->shape[r->col], soc = r->so[r->col];
    for (int64_t u = lo; u < hi; u++) {
        int64_t q = u / r->nstrips, s = u % r->nstrips, pa, po;
        red_locate(r, q, r->col, &pa, &po);
        int64_t j0 = s * r->strip, w = min64(r->strip, cols - j0);
        int64_t piece = 4 * (1 + FAST_CHUNK_WORK / (4 * w)); /* rows between polls */
        float start = mt_reduce_start(r->op);
        for (int64_t j = 0; j < w; j++) acc[j] = start;
        for (int64_t i = 0; i < r->R; i += piece) {
            if (i > 0 && red_cancelled(r)) return;
            r->k->red_cols(r->op, min64(piece, r->R - i), w, r->a + pa + j0 + i * r->rs, r->rs,
                           acc);
        }
        float *o = r->o + po + j0 * soc;
        for (int64_t j = 0; j < w; j++) o[j * soc] = red_finish(r->op, acc[j], r->R);
    }
}

/* Split rows: item i is block i % nblocks of output i / nblocks. */
static void red_blocks(void *arg, int64_t lo, int64_t hi)
{
    struct red *r = arg;
    for (int64_t i = lo; i < hi; i++) {
        int64_t q = i / r->nblocks, j = (i % r->nblocks) * MT_FAST_ROW_BLOCK, pa, po;
        red_locate(r, q, -1, &pa, &po);
        r->part[i] = r->k->red_row(r->op, min64(MT_FAST_ROW_BLOCK, r->R - j), r->a + pa + j);
    }
}

/* Folds each output's block results in order: the sequence red_one runs. */
static void red_fold(struct red *r, int64_t nout)
{
    for (int64_t q = 0; q < nout; q++) {
        int64_t pa, po;
        red_locate(r, q, -1, &pa, &po);
        float acc = mt_reduce_start(r->op);
        for (int64_t b = 0; b < r->nblocks; b++) {
            float p = r->part[q * r->nblocks + b];
            if (r->op == MT_RED_MAX && isnan(p)) {
                acc = red_serial_row(r, r->a + pa, 1);
                break;
            }
            acc = red_step(r->op, acc, p);
        }
        r->o[po] = red_finish(r->op, acc, r->R);
    }
}

static enum mt_status red_status(struct red *r, enum mt_status st)
{
    return st == MT_OK && atomic_load(&r->cancelled) ? MT_ERR_CANCELLED : st;
}

static enum mt_status fast_reduce(struct mt_ctx *ctx, enum mt_reduce_op op, struct mt_tensor *out,
                                  const struct mt_tensor *a, int dim, struct mt_diag *d)
{
    struct red r = {.k = kernels(), .op = op, .R = a->shape[dim], .rs = a->strides[dim]};
    r.a = mt_data(a);
    r.o = mt_data(out);
    atomic_init(&r.cancelled, 0);
    /* the kept dims, size-1 dropped, neighbours merged where both a and out allow */
    int64_t nout = 1;
    bool out_repeats = false, broadcast = r.rs == 0 && r.R > 1;
    for (int i = 0; i < a->ndim; i++) {
        int64_t len = a->shape[i];
        if (i == dim || len == 1) continue;
        nout *= len;
        if (out->strides[i] == 0) out_repeats = true;
        if (a->strides[i] == 0) broadcast = true;
        int m = r.nd;
        if (m > 0 && r.sa[m - 1] == a->strides[i] * len && r.so[m - 1] == out->strides[i] * len) {
            r.shape[m - 1] *= len;
        } else {
            r.shape[m] = len;
            r.nd = ++m;
        }
        r.sa[m - 1] = a->strides[i];
        r.so[m - 1] = out->strides[i];
    }
    if (r.nd == 0) { /* one output */
        r.nd = 1;
        r.shape[0] = 1;
        r.sa[0] = r.so[0] = 0;
    }
    d->threads = 1;
    d->vec_width = 1;
    d->path = broadcast ? "broadcast" : mt_tensor_is_contiguous(a) ? "contiguous" : "strided";

    if (r.R == 0) { /* the start value everywhere; the mean of nothing is nan */
        float v = op == MT_RED_MEAN ? NAN : mt_reduce_start(op);
        for (int64_t q = 0; q < nout; q++) {
            int64_t pa, po;
            red_locate(&r, q, -1, &pa, &po);
            r.o[po] = v;
        }
        return MT_OK;
    }

    r.path = RED_STRIDED;
    r.col = -1;
    if (r.rs == 1 && r.R >= FAST_ROW_MIN) {
        r.path = RED_ROW;
    } else if (r.R > 1 && !out_repeats) {
        for (int i = 0; i < r.nd; i++)
            if (r.sa[i] == 1 && r.shape[i] > 1) r.col = i;
        if (r.col >= 0) r.path = RED_COL;
    }
    if (r.path != RED_STRIDED) d->vec_width = r.k->width;

    /* A stride-0 out (one element written by several outputs) keeps simple's serial order. */
    int64_t work = a->size * (op == MT_RED_MAX ? 2 : 1);
    int threads = work <= FAST_PAR_WORK || out_repeats ? 1 : ctx->threads;
    enum mt_status st;

    if (r.path == RED_COL) {
        int64_t cols = r.shape[r.col], outer = nout / cols;
        if (work <= FAST_PAR_COL) threads = 1;
        r.strip = min64(cols, FAST_STRIP);
        if (outer < threads) { /* cut the columns so that every thread gets some */
            int64_t per = (cols + threads - 1) / threads;
            per = (per + 15) & ~(int64_t)15;
            if (per < FAST_STRIP_MIN) per = FAST_STRIP_MIN;
            if (per < r.strip) r.strip = per;
        }
        r.nstrips = (cols + r.strip - 1) / r.strip;
        if (threads == 1 && work <= FAST_PAR_COL) {
            red_cols(&r, 0, outer * r.nstrips);
            return MT_OK;
        }
        st = run_chunks(threads, outer * r.nstrips, 1 + FAST_CHUNK_WORK / (r.R * r.strip), red_cols,
                        &r, d);
        return red_status(&r, st);
    }

    if (r.path == RED_ROW && nout < threads && r.R >= 2 * MT_FAST_ROW_BLOCK) {
        /* fewer rows than threads: cut them at block boundaries, fold the blocks in order */
        r.nblocks = (r.R + MT_FAST_ROW_BLOCK - 1) / MT_FAST_ROW_BLOCK;
        r.part = malloc((size_t)(nout * r.nblocks) * sizeof *r.part);
        if (!r.part)
            return mt_fail(ctx, MT_ERR_NOMEM, "%s: out of memory for %lld partial results",
                           mt_reduce_name(op), (long long)(nout * r.nblocks));
        st = run_chunks(threads, nout * r.nblocks, 1 + FAST_CHUNK_WORK / MT_FAST_ROW_BLOCK,
                        red_blocks, &r, d);
        if (st == MT_OK) red_fold(&r, nout);
        free(r.part);
        return st;
    }

    if (work <= FAST_PAR_WORK) {
        red_rows(&r, 0, nout);
        return MT_OK;
    }
    st = run_chunks(threads, nout, 1 + FAST_CHUNK_WORK / r.R, red_rows, &r, d);
    return red_status(&r, st);
}

/* ---- matmul ------------------------------------------------------------------------------ */

/* gemm.c runs products below this many multiply-adds on one thread (MT_GEMM_SERIAL_FLOPS
 * there); used here only to report the threads that ran. */
#define FAST_GEMM_SERIAL_MNK (64.0 * 64.0 * 64.0)
/* Batched products whose slices are smaller than this (M*N*K) run one slice per thread; larger
 * ones use all threads inside each gemm. */
#define FAST_BATCH_PAR_MNK (128.0 * 128.0 * 128.0)
/* ... and only when all the slices together are at least this many multiply-adds. */
#define FAST_BATCH_PAR_MIN (4.0 * (double)FAST_PAR_WORK)

struct mm {
    int nd;
    int64_t M, N, K, nbatch;
    const struct mt_tensor *out, *a, *b;
    int gemm_threads;
    atomic_int status;
};

static void mm_slice_ptrs(const struct mm *m, int64_t bi, const float **pa, const float **pb,
                          float **po)
{
    int64_t oa = 0, ob = 0, oo = 0;
    for (int i = m->nd - 3; i >= 0; i--) {
        int64_t len = m->out->shape[i], ix = bi % len;
        bi /= len;
        /* a batch dim of size 1 broadcasts */
        oa += (m->a->shape[i] == 1 ? 0 : ix) * m->a->strides[i];
        ob += (m->b->shape[i] == 1 ? 0 : ix) * m->b->strides[i];
        oo += ix * m->out->strides[i];
    }
    *pa = mt_data(m->a) + oa;
    *pb = mt_data(m->b) + ob;
    *po = mt_data(m->out) + oo;
}

static void mm_slices(void *arg, int64_t lo, int64_t hi)
{
    struct mm *m = arg;
    int nd = m->nd;
    for (int64_t bi = lo; bi < hi; bi++) {
        if (atomic_load_explicit(&m->status, memory_order_relaxed) != MT_OK) return;
        const float *pa, *pb;
        float *po;
        mm_slice_ptrs(m, bi, &pa, &pb, &po);
        int st =
            mt_cpu_gemm(m->gemm_threads, m->M, m->N, m->K, pa, m->a->strides[nd - 2],
                        m->a->strides[nd - 1], pb, m->b->strides[nd - 2], m->b->strides[nd - 1], po,
                        m->out->strides[nd - 2], m->out->strides[nd - 1]);
        if (st != MT_OK) {
            int ok = MT_OK;
            atomic_compare_exchange_strong(&m->status, &ok, st);
            return;
        }
    }
}

static const char *gemm_path(const char *isa, int *width)
{
    static const struct {
        const char *isa, *path;
        int width;
    } known[] = {
        {"avx512", "packed gemm avx512", 16},
        {"avx2", "packed gemm avx2", 8},
        {"avx512emu", "packed gemm avx512emu", 8},
        {"scalar", "packed gemm scalar", GENERIC_WIDTH},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        if (strcmp(isa, known[i].isa) == 0) {
            *width = known[i].width;
            return known[i].path;
        }
    }
    *width = 1;
    return "packed gemm";
}

/* gemm statuses carry no message: say what ran out. */
static enum mt_status mm_status(struct mt_ctx *ctx, int st)
{
    if (st == MT_ERR_NOMEM)
        return mt_fail(ctx, MT_ERR_NOMEM, "matmul: out of memory for the packing buffers");
    return (enum mt_status)st;
}

static enum mt_status fast_matmul(struct mt_ctx *ctx, struct mt_tensor *out,
                                  const struct mt_tensor *a, const struct mt_tensor *b,
                                  struct mt_diag *d)
{
    int nd = out->ndim;
    struct mm m = {.nd = nd, .out = out, .a = a, .b = b};
    m.M = out->shape[nd - 2];
    m.N = out->shape[nd - 1];
    m.K = a->shape[nd - 1];
    m.nbatch = 1;
    for (int i = 0; i < nd - 2; i++) m.nbatch *= out->shape[i];
    atomic_init(&m.status, MT_OK);
    d->path = gemm_path(mt_cpu_gemm_isa(), &d->vec_width);

    double mnk = (double)m.M * (double)m.N * (double)m.K;
    int threads = ctx->threads;
    if (m.nbatch > 1 && threads > 1 && mnk < FAST_BATCH_PAR_MNK &&
        mnk * (double)m.nbatch >= FAST_BATCH_PAR_MIN) {
        /* many small products: one slice per thread at a time, each gemm serial */
        m.gemm_threads = 1;
        enum mt_status st = run_chunks(threads, m.nbatch, 1, mm_slices, &m, d);
        int gst = atomic_load(&m.status);
        return gst != MT_OK ? mm_status(ctx, gst) : st;
    }
    m.gemm_threads = threads;
    d->threads = mnk < FAST_GEMM_SERIAL_MNK ? 1 : threads;
    for (int64_t bi = 0; bi < m.nbatch; bi++) {
        if (m.nbatch > 1 && mt_cancel_requested()) return MT_ERR_CANCELLED;
        mm_slices(&m, bi, bi + 1);
        int st = atomic_load(&m.status);
        if (st != MT_OK) return mm_status(ctx, st);
    }
    return MT_OK;
}

/* ---- convolution ------------------------------------------------------------------------ */

/* Output columns one pass accumulates: a strip of the row on the stack (4 KiB), in L1. */
#define CONV_STRIP 1024
/* The im2col matrix of one block: at most this many floats (2 MiB, about twice one core's L2),
 * so that the gemm reads it mostly from cache. */
#define CONV_COLS_FLOATS ((int64_t)1 << 19)
/* Blocks that would need more than this many floats for their smallest unit (one output row,
 * or one output cell's terms) are not worth the memory: such convolutions run the direct rows. */
#define CONV_COLS_MAX ((int64_t)1 << 22)
/* Convolutions of fewer multiply-adds than this run the direct rows, which need no buffer. */
#ifndef CONV_GEMM_MIN_MACS
#define CONV_GEMM_MIN_MACS ((double)(1 << 12))
#endif

struct conv {
    struct mt_tensor *out;
    const struct mt_tensor *in, *w;
    bool reverse;
    /* The im2col path. The weight is an (O, K) matrix, K = (c, ky, kx), rows wm_rs apart
     * (with cell_rows: its transpose, (K, O) rows wm_rs apart). A block is `per` units:
     * output rows of one sample (nper blocks a sample), or with `cell_rows` output cells of
     * the whole output, a row of K values each (when the kernel has more cells than the
     * output, as in the weight gradient's call: its long runs are then the kernel's). Each
     * thread has a buffer of `cols` floats; the gemm runs on gemm_threads inside a block. */
    const float *wm;
    int64_t wm_rs, K, per, nper, cols;
    bool cell_rows;
    float *bufs;
    int gemm_threads;
    atomic_int status;
};

/* Output rows [lo, hi), row r being (b, o, y) in row-major order: each strip of a row summed
 * over the input channels and the kernel's cells, every kernel cell a scaled run of an input
 * row added to the strip (contiguous input rows: a loop the compiler vectorizes). Each output
 * cell gets its terms in simple's order (channel, then kernel row, then kernel column). */
static void conv_rows(void *arg, int64_t lo, int64_t hi)
{
    const struct conv *cv = arg;
    const struct mt_tensor *out = cv->out, *in = cv->in, *w = cv->w;
    const int64_t O = out->shape[1], OH = out->shape[2], OW = out->shape[3];
    const int64_t C = in->shape[1], H = in->shape[2], W = in->shape[3];
    const int64_t KH = w->shape[2], KW = w->shape[3];
    const int64_t *si = in->strides, *sw = w->strides, *so = out->strides;
    const float *pin = mt_data(in), *pw = mt_data(w);
    float *po = mt_data(out);
    float acc[CONV_STRIP];
    for (int64_t r = lo; r < hi; r++) {
        const int64_t y = r % OH, o = r / OH % O, b = r / OH / O;
        for (int64_t x0 = 0; x0 < OW; x0 += CONV_STRIP) {
            const int64_t n = min64(CONV_STRIP, OW - x0);
            for (int64_t x = 0; x < n; x++) acc[x] = 0.0f;
            for (int64_t c = 0; c < C; c++)
                for (int64_t ky = 0; ky < KH; ky++) {
                    const int64_t iy = cv->reverse ? y - ky : y + ky;
                    if (iy < 0 || iy >= H) continue;
                    const float *row = pin + b * si[0] + c * si[1] + iy * si[2];
                    for (int64_t kx = 0; kx < KW; kx++) {
                        const float wv = pw[o * sw[0] + c * sw[1] + ky * sw[2] + kx * sw[3]];
                        /* the strip's columns x whose input column base + x is inside */
                        const int64_t base = x0 + (cv->reverse ? -kx : kx);
                        const int64_t from = max64(0, -base), len = min64(n, W - base) - from;
                        if (len <= 0) continue; /* no pointer is formed past the input's row */
                        const float *src = row + (base + from) * si[3];
                        float *into = acc + from;
                        if (si[3] == 1)
                            for (int64_t x = 0; x < len; x++) into[x] += wv * src[x];
                        else
                            for (int64_t x = 0; x < len; x++) into[x] += wv * src[x * si[3]];
                    }
                }
            float *dst = po + b * so[0] + o * so[1] + y * so[2] + x0 * so[3];
            for (int64_t x = 0; x < n; x++) dst[x * so[3]] = acc[x];
        }
    }
}

/* One image of the input moved by (dy, dx): dst[(r - r0) * S + s] = img[r + dy][s + dx] for
 * rows r in [r0, r1) and columns s < S, 0 where that falls outside the H x W image (rows sh
 * apart, columns sw). Every im2col row is one of these. An image of contiguous rows as wide
 * as the result is copied in one run, the cells that run brought from the next or previous
 * row then cleared. */
static void conv_shifted(const float *img, int64_t H, int64_t W, int64_t sh, int64_t sw, int64_t dy,
                         int64_t dx, int64_t r0, int64_t r1, int64_t S, float *dst)
{
    /* the rows that fall inside: [a, z) */
    const int64_t a = min64(r1, max64(r0, -dy)), z = max64(a, min64(r1, H - dy));
    if (a > r0) memset(dst, 0, (size_t)((a - r0) * S) * sizeof *dst);
    if (r1 > z) memset(dst + (z - r0) * S, 0, (size_t)((r1 - z) * S) * sizeof *dst);
    if (a == z) return;
    float *d = dst + (a - r0) * S;
    if (sw == 1 && sh == W && S == W && (dx < 0 ? -dx : dx) < W) {
        const int64_t n = (z - a) * W;
        if (dx >= 0) { /* each row's last dx cells came from the next row */
            memcpy(d, img + (a + dy) * W + dx, (size_t)(n - dx) * sizeof *d);
            for (int64_t r = 0; r < z - a; r++)
                for (int64_t s = W - dx; s < W; s++) d[r * W + s] = 0.0f;
        } else { /* each row's first -dx cells came from the row before */
            memcpy(d - dx, img + (a + dy) * W, (size_t)(n + dx) * sizeof *d);
            for (int64_t r = 0; r < z - a; r++)
                for (int64_t s = 0; s < -dx; s++) d[r * W + s] = 0.0f;
        }
        return;
    }
    /* the columns that fall inside: [from, to) */
    const int64_t from = min64(S, max64(0, -dx)), to = max64(from, min64(S, W - dx));
    for (int64_t r = a; r < z; r++, d += S) {
        const float *src = img + (r + dy) * sh + (from + dx) * sw;
        for (int64_t s = 0; s < from; s++) d[s] = 0.0f;
        if (sw == 1)
            memcpy(d + from, src, (size_t)(to - from) * sizeof *d);
        else
            for (int64_t s = from; s < to; s++) d[s] = src[(s - from) * sw];
        for (int64_t s = to; s < S; s++) d[s] = 0.0f;
    }
}

/* Row layout: the im2col matrix of sample b's output rows [y0, y1). Its row k = (c, ky, kx)
 * holds, for each output cell of those rows, the input value the cell's sum multiplies by
 * weight (o, c, ky, kx), 0 past the input's edges (MiniTorch's zero padding: after the input,
 * or before it when reversed). */
static void conv_im2col_rows(const struct conv *cv, int64_t b, int64_t y0, int64_t y1, float *cols)
{
    const struct mt_tensor *in = cv->in, *w = cv->w;
    const int64_t OW = cv->out->shape[3], cells = (y1 - y0) * OW;
    const int64_t C = in->shape[1], H = in->shape[2], W = in->shape[3];
    const int64_t KH = w->shape[2], KW = w->shape[3], sign = cv->reverse ? -1 : 1;
    const int64_t *si = in->strides;
    const float *pin = mt_data(in) + b * si[0];
    for (int64_t c = 0; c < C; c++)
        for (int64_t ky = 0; ky < KH; ky++)
            for (int64_t kx = 0; kx < KW; kx++)
                conv_shifted(pin + c * si[1], H, W, si[2], si[3], sign * ky, sign * kx, y0, y1, OW,
                             cols + ((c * KH + ky) * KW + kx) * cells);
}

/* Cell layout: output cells [u0, u1) counted over the whole output (u = (b, y, x)), each a row
 * of the matrix holding the K input values its sum multiplies by the weight's (c, ky, kx):
 * for each c, the input's image moved by the cell's position. */
static void conv_im2col_cells(const struct conv *cv, int64_t u0, int64_t u1, float *cols)
{
    const struct mt_tensor *in = cv->in, *w = cv->w;
    const int64_t OH = cv->out->shape[2], OW = cv->out->shape[3];
    const int64_t C = in->shape[1], H = in->shape[2], W = in->shape[3];
    const int64_t KH = w->shape[2], KW = w->shape[3];
    /* reversed, cell (y, x) reads in[y - ky, x - kx]: the image moved by (y - KH + 1,
     * x - KW + 1) read against the weight flipped (conv_gemm packs it so) */
    const int64_t fy = cv->reverse ? KH - 1 : 0, fx = cv->reverse ? KW - 1 : 0;
    const int64_t *si = in->strides;
    for (int64_t u = u0; u < u1; u++) {
        const int64_t b = u / (OH * OW), y = u / OW % OH, x = u % OW;
        for (int64_t c = 0; c < C; c++)
            conv_shifted(mt_data(in) + b * si[0] + c * si[1], H, W, si[2], si[3], y - fy, x - fx, 0,
                         KH, KW, cols + (u - u0) * cv->K + c * KH * KW);
    }
}

/* Blocks [lo, hi) of the im2col path, each of `per` units (output rows of one sample, nper
 * blocks a sample; or output cells of any samples): its im2col matrix built in this thread's
 * buffer, then out (O, cells) = weight (O, K) @ matrix (K, cells), a cell's terms summed in
 * the gemm's fixed order whatever the blocking and the threads. Written in place when the
 * block's cells lie one stride apart in out, else through the buffer's end. */
static void conv_blocks(void *arg, int64_t lo, int64_t hi)
{
    struct conv *cv = arg;
    const struct mt_tensor *out = cv->out;
    const int64_t O = out->shape[1], OH = out->shape[2], OW = out->shape[3];
    const int64_t *so = out->strides;
    int t = 0;
#ifdef MT_HAVE_OPENMP
    t = omp_get_thread_num();
#endif
    float *cols = cv->bufs + (int64_t)t * cv->cols;
    const bool flat = !cv->cell_rows && (OH == 1 || so[2] == OW * so[3]);
    for (int64_t i = lo; i < hi; i++) {
        if (atomic_load_explicit(&cv->status, memory_order_relaxed) != MT_OK) return;
        int64_t u0, n, b = 0; /* first cell (of sample b, or of all), cells */
        if (cv->cell_rows) {
            u0 = i * cv->per;
            n = min64(out->shape[0] * OH * OW, u0 + cv->per) - u0;
            conv_im2col_cells(cv, u0, u0 + n, cols);
        } else {
            const int64_t y0 = i % cv->nper * cv->per, y1 = min64(OH, y0 + cv->per);
            b = i / cv->nper, u0 = y0 * OW, n = (y1 - y0) * OW;
            conv_im2col_rows(cv, b, y0, y1, cols);
        }
        float *po = mt_data(out) + b * so[0];
        float *dst = flat ? po + u0 * so[3] : cols + cv->K * n; /* else the buffer's end */
        /* Rows of cells: out (O, n) = weight (O, K) @ matrix (K, n). A row of K values per
         * cell: out^T (n, O) = matrix (n, K) @ weight^T (K, O), the weight packed so
         * (conv_gemm). One block per thread: the gemm reads the matrix in place rather than
         * copy it first (with as few output channels as a convolution has, that copy cost
         * about what the product did); both routes give the same bits. */
        const bool cells = cv->cell_rows;
        const int64_t M = cells ? n : O, N = cells ? O : n;
        const float *A = cells ? cols : cv->wm, *Bm = cells ? cv->wm : cols;
        const int64_t rsa = cells ? cv->K : cv->wm_rs, rsb = cells ? cv->wm_rs : n;
        const int64_t rsc = flat ? so[1] : N, csc = flat ? so[3] : 1;
        int st =
            cv->gemm_threads == 1
                ? mt_cpu_gemm_unpacked(M, N, cv->K, A, rsa, 1, Bm, rsb, dst, rsc, csc)
                : mt_cpu_gemm(cv->gemm_threads, M, N, cv->K, A, rsa, 1, Bm, rsb, 1, dst, rsc, csc);
        if (!flat) { /* then to each cell's place: dst is (O, n), or (n, O) for cells */
            const int64_t to = cv->cell_rows ? 1 : n, tu = cv->cell_rows ? O : 1;
            for (int64_t o = 0; st == MT_OK && o < O; o++)
                for (int64_t u = u0; u < u0 + n; u++) /* of sample b, or of all (b = 0) */
                    po[u / (OH * OW) * so[0] + o * so[1] + u / OW % OH * so[2] + u % OW * so[3]] =
                        dst[o * to + (u - u0) * tu];
        }
        if (st != MT_OK) {
            int ok = MT_OK;
            atomic_compare_exchange_strong(&cv->status, &ok, st);
            return;
        }
    }
}

/* The weight w (O, C, KH, KW) copied into dst, element (o, c, ky, kx) at o * d[0] + c * d[1] +
 * ky * d[2] + kx * d[3]; flipped (the cell (KH-1-ky, KW-1-kx) read) when asked. */
static void conv_pack_weight(const struct mt_tensor *w, const int64_t d[4], bool flip, float *dst)
{
    const int64_t O = w->shape[0], C = w->shape[1], KH = w->shape[2], KW = w->shape[3];
    const int64_t *sw = w->strides;
    const float *pw = mt_data(w);
    for (int64_t o = 0; o < O; o++)
        for (int64_t c = 0; c < C; c++)
            for (int64_t ky = 0; ky < KH; ky++)
                for (int64_t kx = 0; kx < KW; kx++)
                    dst[o * d[0] + c * d[1] + ky * d[2] + kx * d[3]] =
                        pw[o * sw[0] + c * sw[1] + (flip ? KH - 1 - ky : ky) * sw[2] +
                           (flip ? KW - 1 - kx : kx) * sw[3]];
}

/* The im2col path: MT_OK, MT_ERR_CANCELLED, or MT_ERR_NOMEM (the caller then runs the direct
 * rows, which need no memory). */
static int conv_gemm(struct mt_ctx *ctx, struct conv *cv, struct mt_diag *d)
{
    const struct mt_tensor *w = cv->w, *out = cv->out;
    const int64_t O = w->shape[0], C = w->shape[1], KH = w->shape[2], KW = w->shape[3];
    const int64_t B = out->shape[0], OH = out->shape[2], OW = out->shape[3];
    const int64_t *sw = w->strides;
    cv->K = C * KH * KW;
    cv->cell_rows = OH * OW < KH * KW;
    /* Blocks of as many units as fit, all of one size. A cell has a row of its own, K long:
     * such a matrix (the weight gradient's, one cell per weight cell of every channel) holds
     * few cells, so that a block of them may take up to CONV_COLS_MAX, one block per thread,
     * every cell of the gemm sharing the packing of the weight. */
    int64_t units, unit, limit;
    if (cv->cell_rows)
        units = B * OH * OW, unit = cv->K, limit = CONV_COLS_MAX;
    else
        units = OH, unit = cv->K * OW, limit = CONV_COLS_FLOATS;
    const int64_t most = min64(units, max64(1, limit / unit));
    int64_t nblocks = (units + most - 1) / most;
    if (cv->cell_rows && units >= ctx->threads)
        nblocks = (nblocks + ctx->threads - 1) / ctx->threads * ctx->threads;
    cv->per = (units + nblocks - 1) / nblocks;
    cv->nper = cv->cell_rows ? 1 : (units + cv->per - 1) / cv->per;
    const int64_t blocks = cv->cell_rows ? (units + cv->per - 1) / cv->per : B * cv->nper;
    const bool flat = !cv->cell_rows && (OH == 1 || out->strides[2] == OW * out->strides[3]);
    const int64_t cells = cv->per * (cv->cell_rows ? 1 : OW);
    cv->cols = cv->K * cells + (flat ? 0 : O * cells);
    /* one block per thread at a time while there are enough to share; else the gemm's own */
    int threads = blocks >= ctx->threads ? ctx->threads : 1;
    cv->gemm_threads = threads > 1 ? 1 : ctx->threads;
    /* buffers from the context's block cache (host.c): the same sizes come back every step
     * of a training loop, and a fresh mapping would fault in every page again */
    struct mt_storage wbuf = {.ctx = ctx, .nelem = O * cv->K}, cbuf = {.ctx = ctx};
    float *wm = NULL;
    const bool flip = cv->cell_rows && cv->reverse;
    if (sw[3] == 1 && sw[2] == KW && sw[1] == KH * KW && !cv->cell_rows) {
        cv->wm = mt_data(w); /* already (O, K) rows */
        cv->wm_rs = sw[0];
    } else { /* (O, K) rows; for cells, (K, O) rows (conv_blocks) */
        if (mt_host_alloc(ctx, 1, &wbuf.nelem, &wbuf) != MT_OK) return MT_ERR_NOMEM;
        wm = wbuf.data;
        const int64_t ro = cv->cell_rows ? 1 : cv->K, rk = cv->cell_rows ? O : 1;
        conv_pack_weight(w, (const int64_t[4]){ro, KH * KW * rk, KW * rk, rk}, flip, wm);
        cv->wm = wm;
        cv->wm_rs = cv->cell_rows ? O : cv->K;
    }
    cbuf.nelem = threads * cv->cols;
    if (mt_host_alloc(ctx, 1, &cbuf.nelem, &cbuf) != MT_OK) {
        if (wm) mt_host_free(&wbuf);
        return MT_ERR_NOMEM;
    }
    cv->bufs = cbuf.data;
    atomic_init(&cv->status, MT_OK);
    enum mt_status st = run_chunks(threads, blocks, 1, conv_blocks, cv, d);
    if (cv->gemm_threads > 1 && (double)O * (double)cells * (double)cv->K >= FAST_GEMM_SERIAL_MNK)
        d->threads = cv->gemm_threads;
    mt_host_free(&cbuf);
    if (wm) mt_host_free(&wbuf);
    int gst = atomic_load(&cv->status);
    return gst != MT_OK ? gst : (int)st;
}

/* ---- convolution as products, then shifted sums ---------------------------------------- */

/* Where the output has fewer channels than the input (the input gradient's call: the layer's
 * in_channels out of its out_channels), the im2col matrix (C * KH * KW rows per image) is
 * larger than the products of each weight cell with the image: q (O * KH * KW, H * W) = weight
 * (O * KH * KW, C) @ image (C, H * W), a gemm with the image read in place. out[o] is then the
 * sum over (ky, kx) of q's row (o, ky, kx) moved by (ky, kx) (back by them when reversed), in
 * that order: each cell summed by one thread in an order fixed by the shapes. */
struct conv_q {
    const struct conv *cv;
    const float *wq; /* (O * KH * KW, C), row-major */
    float *bufs;     /* per thread: q, then one output image */
    int64_t per_thread;
    atomic_int status;
};

static void conv_q_images(void *arg, int64_t lo, int64_t hi)
{
    struct conv_q *cq = arg;
    const struct mt_tensor *out = cq->cv->out, *in = cq->cv->in, *w = cq->cv->w;
    const int64_t O = w->shape[0], C = w->shape[1], KH = w->shape[2], KW = w->shape[3];
    const int64_t H = in->shape[2], W = in->shape[3], HW = H * W;
    const int64_t *si = in->strides, *so = out->strides;
    int t = 0;
#ifdef MT_HAVE_OPENMP
    t = omp_get_thread_num();
#endif
    float *q = cq->bufs + (int64_t)t * cq->per_thread, *acc = q + O * KH * KW * HW;
    for (int64_t b = lo; b < hi; b++) {
        if (atomic_load_explicit(&cq->status, memory_order_relaxed) != MT_OK) return;
        int st = mt_cpu_gemm_unpacked(O * KH * KW, HW, C, cq->wq, C, 1, mt_data(in) + b * si[0],
                                      si[1], q, HW, 1);
        if (st != MT_OK) {
            int ok = MT_OK;
            atomic_compare_exchange_strong(&cq->status, &ok, st);
            return;
        }
        for (int64_t o = 0; o < O; o++) {
            for (int64_t i = 0; i < HW; i++) acc[i] = 0.0f;
            for (int64_t ky = 0; ky < KH; ky++)
                for (int64_t kx = 0; kx < KW; kx++) {
                    const float *row = q + ((o * KH + ky) * KW + kx) * HW;
                    /* cell (y, x) adds row's (y + dy, x + dx) where that is inside */
                    const int64_t dy = cq->cv->reverse ? -ky : ky, dx = cq->cv->reverse ? -kx : kx;
                    const int64_t y0 = max64(0, -dy), y1 = min64(H, H - dy);
                    const int64_t x0 = max64(0, -dx), x1 = min64(W, W - dx);
                    for (int64_t y = y0; y < y1; y++) {
                        float *into = acc + y * W;
                        const float *from = row + (y + dy) * W + dx;
                        for (int64_t x = x0; x < x1; x++) into[x] += from[x];
                    }
                }
            float *dst = mt_data(out) + b * so[0] + o * so[1];
            for (int64_t y = 0; y < H; y++)
                for (int64_t x = 0; x < W; x++) dst[y * so[2] + x * so[3]] = acc[y * W + x];
        }
    }
}

/* The path above, when it applies and its buffers fit: 1 (not taken), MT_OK, MT_ERR_CANCELLED
 * or MT_ERR_NOMEM. */
static int conv_q(struct mt_ctx *ctx, const struct conv *cv, struct mt_diag *d)
{
    const struct mt_tensor *w = cv->w, *out = cv->out, *in = cv->in;
    const int64_t O = w->shape[0], C = w->shape[1], KH = w->shape[2], KW = w->shape[3];
    const int64_t B = out->shape[0], H = in->shape[2], W = in->shape[3];
    /* an output as large as the input, fewer channels out than in, image rows one run (the
     * shapes and strides alone decide: the sums' order must not depend on the threads) */
    if (out->shape[2] != H || out->shape[3] != W || O >= C || in->strides[3] != 1 ||
        in->strides[2] != W)
        return 1;
    const int64_t per_thread = (O * KH * KW + 1) * H * W;
    if (per_thread > CONV_COLS_FLOATS) return 1;
    struct mt_storage wbuf = {.ctx = ctx, .nelem = O * KH * KW * C}, qbuf = {.ctx = ctx};
    if (mt_host_alloc(ctx, 1, &wbuf.nelem, &wbuf) != MT_OK) return MT_ERR_NOMEM;
    float *wq = wbuf.data;
    conv_pack_weight(w, (const int64_t[4]){KH * KW * C, 1, KW * C, C}, false, wq);
    const int threads = (int)min64(B, ctx->threads); /* run_chunks uses no more */
    qbuf.nelem = threads * per_thread;
    if (mt_host_alloc(ctx, 1, &qbuf.nelem, &qbuf) != MT_OK) {
        mt_host_free(&wbuf);
        return MT_ERR_NOMEM;
    }
    struct conv_q cq = {.cv = cv, .wq = wq, .bufs = qbuf.data, .per_thread = per_thread};
    atomic_init(&cq.status, MT_OK);
    enum mt_status st = run_chunks(threads, B, 1, conv_q_images, &cq, d);
    mt_host_free(&qbuf);
    mt_host_free(&wbuf);
    int gst = atomic_load(&cq.status);
    return gst != MT_OK ? gst : (int)st;
}

static enum mt_status fast_conv(struct mt_ctx *ctx, struct mt_tensor *out,
                                const struct mt_tensor *input, const struct mt_tensor *weight,
                                bool reverse, struct mt_diag *d)
{
    struct conv cv = {.out = out, .in = input, .w = weight, .reverse = reverse};
    const int64_t rows = out->shape[0] * out->shape[1] * out->shape[2];
    const int64_t K = weight->size / max64(1, weight->shape[0]);
    const int64_t cost = out->shape[3] * K;
    const double macs = (double)rows * (double)cost;
    /* the smallest block: one output row's matrix, or one cell's terms */
    const bool cell_rows = out->shape[2] * out->shape[3] < weight->shape[2] * weight->shape[3];
    const int64_t unit = cell_rows ? K : K * out->shape[3];
    if (macs >= CONV_GEMM_MIN_MACS) {
        gemm_path(mt_cpu_gemm_isa(), &d->vec_width);
        d->path = "gemm, then shifted sums";
        int st = conv_q(ctx, &cv, d);
        if (st != 1 && st != MT_ERR_NOMEM) return (enum mt_status)st;
    }
    if (macs >= CONV_GEMM_MIN_MACS && unit <= CONV_COLS_MAX) {
        d->path = "im2col, packed gemm";
        int st = conv_gemm(ctx, &cv, d);
        if (st != MT_ERR_NOMEM) return (enum mt_status)st;
    }
    d->path = input->strides[3] == 1 ? "direct, rows" : "direct, strided rows";
    d->vec_width = 1;
    int threads = macs <= (double)FAST_PAR_WORK ? 1 : ctx->threads;
    return run_chunks(threads, rows, max64(1, FAST_CHUNK_WORK / max64(1, cost)), conv_rows, &cv, d);
}

/* Storage on the host (cpu/host.c, shared with simple); user functions run by prog_fast.c; the
 * fused training step by fast_train.c, on these kernels. */
const struct mt_backend_ops mt_fast_ops = {
    MT_HOST_MEMORY_OPS,
    .repeatable = true,
    .map = fast_map,
    .zip = fast_zip,
    .reduce = fast_reduce,
    .matmul = fast_matmul,
    .conv = fast_conv,
    .map_small = fast_map_small,
    .zip_small = fast_zip_small,
    .prog_elementwise = mt_fast_prog_elementwise,
    .prog_reduce = mt_fast_prog_reduce,
    .train_path = "fused step",
    .train_fits = mt_fast_train_fits,
    .train_new = mt_fast_train_new,
    .train_free = mt_fast_train_free,
    .train_epoch = mt_fast_train_epoch,
    .train_correct = mt_fast_train_correct,
};
