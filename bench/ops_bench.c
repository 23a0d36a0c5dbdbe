/* ops_bench.c — the fast backend's map/zip/reduce beside the machine's memory bandwidth and
 * numpy, measured in one run.
 *
 * Usage: mt_ops_bench [--numpy PYTHON] [--reps N] [--quick]
 *
 * For 1 and 2 threads it prints the median and the min-max spread over N repetitions of:
 * - the ceilings: a STREAM-like probe (copy, scale, add, triad on 16M float32, plain OpenMP C
 *   loops over preallocated arrays, huge pages like the engine's tensors), a read probe (sum
 *   of 64 MiB, 16 accumulators per thread) and the cost of an empty OpenMP parallel region;
 * - the engine on the fast backend: a+b, neg, relu and exp on 16M float32 into a preallocated
 *   out (a non-NULL *out) and with a fresh output; sum over dim 0 and dim 1 of 4096x4096; a
 *   tiny op (a 10x100 add into a preallocated out) in ns per call;
 * - a user function of four operations, f(x) = (x * 1.5 + 0.5) * x - 2 on 16M float32, fused
 *   into one pass (mt_map_prog), and the same as four built-in ops (four passes), both into a
 *   preallocated out and counted as the one pass's bytes (8 per element): the fused row against
 *   the probe's copy (also 8 bytes per element) is how close to memory bandwidth it runs;
 * - a+b, exp and sum over each dim written as user functions (mt_zip_prog, mt_map_prog,
 *   mt_reduce_prog folding with add), beside the built-in rows above; a+b with b a broadcast
 *   row and a broadcast column, built-in and as a user function; max as `larger`, and
 *   folds no built-in has, over 4096 x 4096 and over the 4 rows of a 4 x 4M view (few outputs:
 *   the fast backend folds each by itself);
 * - with --numpy, the same ops in numpy (bench/numpy_ops.py, one process per thread count with
 *   OMP_NUM_THREADS/OPENBLAS_NUM_THREADS set) in the next column, and ours/numpy.
 * Bandwidth counts each element read or written once (a+b: 12 bytes per element), as STREAM
 * does, so the probe is the ceiling for the same count. Then the simple vs fast speed-up table
 * for map, zip, reduce and matmul at a few sizes (MiniTorch Task 3.1's comparison).
 *
 * These machines are shared and noisy: read the medians side by side, never a lone number. */
#include "bench.h"
#include "minitorch/minitorch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#ifdef MT_HAVE_OPENMP
#include <omp.h>
#endif

/* OpenMP pragmas that vanish (without a warning) in a build without OpenMP */
#ifdef MT_HAVE_OPENMP
#define OMP(x) _Pragma(x)
#else
#define OMP(x)
#endif

#ifndef MT_SOURCE_DIR
#define MT_SOURCE_DIR "."
#endif

static int reps = 11;

/* ---- results ----------------------------------------------------------------------------- */

struct result {
    char name[48];
    int threads;
    double med, lo, hi; /* in `unit` */
    const char *unit;   /* "GB/s", "ns", "ms" */
    double np_med, np_lo, np_hi;
    bool has_np;
};

static struct result results[128];
static int nresults;

/* Times fn `inner` times per sample, `reps` samples; records per-call values converted by
 * `scale` (GB/s: bytes/1e9; ns: 1e9 per call; us: 1e6). */
typedef void (*bench_fn)(void *arg);

static void measure(const char *name, int threads, bench_fn fn, void *arg, int inner, double bytes,
                    const char *unit)
{
    double *t = malloc((size_t)reps * sizeof *t);
    fn(arg); /* warm up: page faults, thread start, caches */
    for (int r = 0; r < reps; r++) {
        double t0 = mt_now_s();
        for (int i = 0; i < inner; i++) fn(arg);
        t[r] = (mt_now_s() - t0) / inner;
    }
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    struct result *res = &results[nresults++];
    memset(res, 0, sizeof *res);
    snprintf(res->name, sizeof res->name, "%s", name);
    res->threads = threads;
    res->unit = unit;
    if (strcmp(unit, "GB/s") == 0) { /* faster is larger: min time is max rate */
        res->med = bytes / t[reps / 2] / 1e9;
        res->lo = bytes / t[reps - 1] / 1e9;
        res->hi = bytes / t[0] / 1e9;
    } else {
        double k = strcmp(unit, "ns") == 0 ? 1e9 : 1e6;
        res->med = t[reps / 2] * k;
        res->lo = t[0] * k;
        res->hi = t[reps - 1] * k;
    }
    free(t);
}

/* ---- probes: plain OpenMP C on preallocated arrays --------------------------------------- */

#define N_BIG ((int64_t)1 << 24) /* 16M float32, 64 MiB per array */

#define N_TINY 1000 /* the tiny op's 10x100 */

struct probe {
    float *a, *b, *c;
    float *ta, *tb, *tc; /* N_TINY each, 64-byte aligned like the engine's storage */
    int64_t n;
    int threads;
    volatile float sink;
};

static void p_copy(void *arg)
{
    struct probe *p = arg;
    float *restrict a = p->a, *restrict c = p->c;
    OMP("omp parallel for num_threads(p->threads) schedule(static)")
    for (int64_t i = 0; i < p->n; i++) c[i] = a[i];
}

static void p_scale(void *arg)
{
    struct probe *p = arg;
    float *restrict b = p->b, *restrict c = p->c;
    OMP("omp parallel for num_threads(p->threads) schedule(static)")
    for (int64_t i = 0; i < p->n; i++) b[i] = 3.0f * c[i];
}

static void p_add(void *arg)
{
    struct probe *p = arg;
    float *restrict a = p->a, *restrict b = p->b, *restrict c = p->c;
    OMP("omp parallel for num_threads(p->threads) schedule(static)")
    for (int64_t i = 0; i < p->n; i++) c[i] = a[i] + b[i];
}

static void p_triad(void *arg)
{
    struct probe *p = arg;
    float *restrict a = p->a, *restrict b = p->b, *restrict c = p->c;
    OMP("omp parallel for num_threads(p->threads) schedule(static)")
    for (int64_t i = 0; i < p->n; i++) a[i] = b[i] + 3.0f * c[i];
}

/* The read ceiling: 16 independent partial sums per thread keep the adder busy. */
static void p_read(void *arg)
{
    struct probe *p = arg;
    const float *a = p->a;
    float total = 0.0f;
    OMP("omp parallel num_threads(p->threads) reduction(+ : total)")
    {
        int64_t lo = 0, hi = p->n;
#ifdef MT_HAVE_OPENMP
        int nt = omp_get_num_threads(), id = omp_get_thread_num();
        lo = p->n * id / nt;
        hi = p->n * (id + 1) / nt;
#endif
        float acc[16] = {0};
        int64_t i = lo;
        for (; i + 16 <= hi; i += 16)
            for (int k = 0; k < 16; k++) acc[k] += a[i + k];
        for (; i < hi; i++) acc[0] += a[i];
        for (int k = 0; k < 16; k++) total += acc[k];
    }
    p->sink = total;
}

/* The tiny op's floor: the same 1,000-float add as one plain loop, with nothing around it (no
 * shapes to check, no output to look at). Ours minus this is what the engine's front door costs. */
static void tiny_loop(struct probe *p)
{
    float *restrict a = p->ta, *restrict b = p->tb, *restrict c = p->tc;
    for (int64_t i = 0; i < N_TINY; i++) c[i] = a[i] + b[i];
    __asm__ volatile("" : : "r"(c) : "memory"); /* the stores happen on every call */
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* the same loop with the AVX2 the engine picks at run time, so the floor is not an SSE2 one */
__attribute__((target("avx2"))) static void tiny_loop_avx2(struct probe *p)
{
    float *restrict a = p->ta, *restrict b = p->tb, *restrict c = p->tc;
    for (int64_t i = 0; i < N_TINY; i++) c[i] = a[i] + b[i];
    __asm__ volatile("" : : "r"(c) : "memory");
}
#endif

static void p_tiny(void *arg)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (__builtin_cpu_supports("avx2")) {
        tiny_loop_avx2(arg);
        return;
    }
#endif
    tiny_loop(arg);
}

/* The probes' arrays get the memory the engine's tensors get (context.c asks for transparent
 * huge pages on big blocks): with 4 KiB pages a streaming loop pays a TLB miss and a stopped
 * hardware prefetcher at every page, so the probe would measure the pages, not the memory, and
 * would be no ceiling for the engine's rows. */
static float *probe_alloc(size_t bytes)
{
    void *p = aligned_alloc((size_t)2 << 20, bytes);
#ifdef MADV_HUGEPAGE
    if (p) madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return p;
}

/* An empty parallel region: what every parallel op pays on top of its work. On a shared
 * virtual machine it is not constant: there are phases where another virtual CPU answers a
 * wake-up only at the next timer tick and every region costs milliseconds. This row says which
 * phase a run saw, so that the parallel rows beside it can be read. */
static void p_region(void *arg)
{
    struct probe *p = arg;
    OMP("omp parallel num_threads(p->threads)") { p->sink = 1.0f; }
}

static void run_probes(int threads)
{
    static struct probe p;
    if (!p.a) {
        p.n = N_BIG;
        p.a = probe_alloc((size_t)N_BIG * sizeof(float));
        p.b = probe_alloc((size_t)N_BIG * sizeof(float));
        p.c = probe_alloc((size_t)N_BIG * sizeof(float));
        if (!p.a || !p.b || !p.c) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
        p.ta = aligned_alloc(64, N_TINY * sizeof(float));
        p.tb = aligned_alloc(64, N_TINY * sizeof(float));
        p.tc = aligned_alloc(64, N_TINY * sizeof(float));
        if (!p.ta || !p.tb || !p.tc) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
        for (int i = 0; i < N_TINY; i++) p.ta[i] = (float)i, p.tb[i] = 0.5f, p.tc[i] = 0.0f;
        p.threads = 2;
        OMP("omp parallel for num_threads(2) schedule(static)")
        for (int64_t i = 0; i < N_BIG; i++) p.a[i] = 1.0f, p.b[i] = 2.0f, p.c[i] = 0.5f;
    }
    p.threads = threads;
    double e = (double)N_BIG * sizeof(float);
    measure("probe copy c=a", threads, p_copy, &p, 1, 2 * e, "GB/s");
    measure("probe scale b=3c", threads, p_scale, &p, 1, 2 * e, "GB/s");
    measure("probe add c=a+b", threads, p_add, &p, 1, 3 * e, "GB/s");
    measure("probe triad a=b+3c", threads, p_triad, &p, 1, 3 * e, "GB/s");
    measure("probe read sum 64MiB", threads, p_read, &p, 1, e, "GB/s");
    measure("probe empty omp region", threads, p_region, &p, 100, 0, "us");
    measure("probe tiny add 10x100 loop", threads, p_tiny, &p, 20000, 0, "ns");
}

/* ---- the engine -------------------------------------------------------------------------- */

struct eng {
    struct mt_ctx *ctx;
    struct mt_tensor *a, *b, *out, *tiny_a, *tiny_b, *tiny_out;
    struct mt_tensor *k15, *k05, *k2; /* (1,) constants of the built-in chain */
    int kind; /* 0 zip add, 1 map; e_user: 2 add, 3 larger, 4 decay, 5 sumsq (the folds below) */
    enum mt_map_op map;
    enum mt_reduce_op red;
    int dim;
    bool fresh;
};

static void check(enum mt_status st, struct mt_ctx *ctx)
{
    if (st != MT_OK) {
        fprintf(stderr, "engine error: %s: %s\n", mt_status_ename(st), mt_ctx_error(ctx));
        exit(1);
    }
}

static void e_op(void *arg)
{
    struct eng *e = arg;
    struct mt_tensor *r = e->fresh ? NULL : e->out;
    if (e->kind == 0)
        check(mt_zip(e->ctx, MT_ZIP_ADD, e->a, e->b, &r), e->ctx);
    else
        check(mt_map(e->ctx, e->map, e->a, &r), e->ctx);
    if (e->fresh) mt_tensor_release(r);
}

static void e_sum(void *arg)
{
    struct eng *e = arg;
    struct mt_tensor *r = NULL;
    check(mt_reduce(e->ctx, e->red, e->a, e->dim, &r), e->ctx);
    mt_tensor_release(r);
}

/* bench.h's f(x) = (x * 1.5 + 0.5) * x - 2 as a user function (one pass over memory: x read,
 * out written), and as four built-in ops into the same out (four passes). */
static void e_fused(void *arg)
{
    struct eng *e = arg;
    check(mt_map_prog(e->ctx, &bench_fused_prog, e->a, &e->out), e->ctx);
}

static void e_chain(void *arg)
{
    struct eng *e = arg;
    check(mt_zip(e->ctx, MT_ZIP_MUL, e->a, e->k15, &e->out), e->ctx);
    check(mt_zip(e->ctx, MT_ZIP_ADD, e->out, e->k05, &e->out), e->ctx);
    check(mt_zip(e->ctx, MT_ZIP_MUL, e->out, e->a, &e->out), e->ctx);
    check(mt_zip(e->ctx, MT_ZIP_SUB, e->out, e->k2, &e->out), e->ctx);
}

/* The built-in ops above written as user functions (a+b, exp, a sum over a dim as a fold): the
 * same work, for the "within 1.5x of the built-in" */
static const struct mt_prog_insn add_insn = {.op = MT_P_ADD, .dst = 2, .a = 0, .b = 1};
static const struct mt_prog add_prog = {
    .name = "add", .nargs = 2, .ninsn = 1, .insn = &add_insn, .result = 2};
static const struct mt_prog_insn exp_insn = {.op = MT_P_EXP, .dst = 1, .a = 0};
static const struct mt_prog exp_prog = {
    .name = "exp", .nargs = 1, .ninsn = 1, .insn = &exp_insn, .result = 1};
/* the issue's `larger`: a if a > b else b, the built-in max's fold */
static const struct mt_prog_insn larger_insn[] = {
    {.op = MT_P_GT, .dst = 2, .a = 0, .b = 1},
    {.op = MT_P_SELECT, .dst = 3, .a = 2, .b = 0, .c = 1}};
static const struct mt_prog larger_prog = {
    .name = "larger", .nargs = 2, .ninsn = 2, .insn = larger_insn, .result = 3};
/* a fold no built-in has, acc * 0.5 + x: the program runs once per step of the fold */
static const struct mt_prog_insn decay_insn[] = {{.op = MT_P_CONST, .dst = 2, .imm = 0.5f},
                                                 {.op = MT_P_MUL, .dst = 3, .a = 0, .b = 2},
                                                 {.op = MT_P_ADD, .dst = 4, .a = 3, .b = 1}};
static const struct mt_prog decay_prog = {
    .name = "decay", .nargs = 2, .ninsn = 3, .insn = decay_insn, .result = 4};
/* acc + x * x: x * x needs no acc, and the rest is the sum's fold */
static const struct mt_prog_insn sumsq_insn[] = {{.op = MT_P_MUL, .dst = 2, .a = 1, .b = 1},
                                                 {.op = MT_P_ADD, .dst = 3, .a = 0, .b = 2}};
static const struct mt_prog sumsq_prog = {
    .name = "sumsq", .nargs = 2, .ninsn = 2, .insn = sumsq_insn, .result = 3};

static void e_user(void *arg)
{
    struct eng *e = arg;
    if (e->kind == 0)
        check(mt_zip_prog(e->ctx, &add_prog, e->a, e->b, &e->out), e->ctx);
    else if (e->kind == 1)
        check(mt_map_prog(e->ctx, &exp_prog, e->a, &e->out), e->ctx);
    else {
        const struct mt_prog *p = e->kind == 2   ? &add_prog
                                  : e->kind == 3 ? &larger_prog
                                  : e->kind == 4 ? &decay_prog
                                                 : &sumsq_prog;
        struct mt_tensor *r = NULL;
        check(mt_reduce_prog(e->ctx, p, e->a, e->dim, e->kind == 3 ? -1e30f : 0.0f, &r), e->ctx);
        mt_tensor_release(r);
    }
}

static void e_tiny(void *arg)
{
    struct eng *e = arg;
    check(mt_zip(e->ctx, MT_ZIP_ADD, e->tiny_a, e->tiny_b, &e->tiny_out), e->ctx);
}

static void run_engine(struct eng *e, int threads)
{
    check(mt_ctx_set_threads(e->ctx, threads), e->ctx);
    double el = (double)N_BIG * sizeof(float);
    static const struct {
        const char *name;
        int kind;
        enum mt_map_op map;
    } ops[] = {
        {"a+b", 0, MT_MAP_ID},
        {"neg", 1, MT_MAP_NEG},
        {"relu", 1, MT_MAP_RELU},
        {"exp", 1, MT_MAP_EXP},
    };
    char name[48];
    for (int i = 0; i < 4; i++) {
        e->kind = ops[i].kind;
        e->map = ops[i].map;
        double bytes = (e->kind == 0 ? 3 : 2) * el;
        e->fresh = false;
        snprintf(name, sizeof name, "%s out= (16M)", ops[i].name);
        measure(name, threads, e_op, e, 1, bytes, "GB/s");
        e->fresh = true;
        snprintf(name, sizeof name, "%s fresh (16M)", ops[i].name);
        measure(name, threads, e_op, e, 1, bytes, "GB/s");
    }
    e->red = MT_RED_SUM;
    for (int dim = 0; dim < 2; dim++) {
        e->dim = dim;
        snprintf(name, sizeof name, "sum dim %d (4096x4096)", dim);
        measure(name, threads, e_sum, e, 1, el + 4096.0 * sizeof(float), "GB/s");
    }
    measure("tiny add 10x100 out=", threads, e_tiny, e, 20000, 0, "ns");
    /* bytes of the one pass (x read, out written) for both: the chain's rate is then what it
     * delivers of the same work */
    measure("4-op function fused (16M)", threads, e_fused, e, 1, 2 * el, "GB/s");
    measure("4-op function as 4 ops (16M)", threads, e_chain, e, 1, 2 * el, "GB/s");
    e->kind = 0;
    measure("a+b as a user function (16M)", threads, e_user, e, 1, 3 * el, "GB/s");
    e->kind = 1;
    measure("exp as a user function (16M)", threads, e_user, e, 1, 2 * el, "GB/s");
    /* broadcasting: a row (1 x 4096) added to every row, a column (4096 x 1) to every column;
     * counted as x read and out written */
    struct mt_tensor *full = e->b, *bc[2] = {NULL, NULL};
    check(mt_rand(e->ctx, MT_BACKEND_FAST, 2, (const int64_t[]){1, 4096}, &bc[0]), e->ctx);
    check(mt_rand(e->ctx, MT_BACKEND_FAST, 2, (const int64_t[]){4096, 1}, &bc[1]), e->ctx);
    for (int w = 0; w < 2; w++) {
        e->b = bc[w];
        e->kind = 0;
        e->fresh = false;
        snprintf(name, sizeof name, "a+%s out= (4096^2)", w ? "column" : "row");
        measure(name, threads, e_op, e, 1, 2 * el, "GB/s");
        snprintf(name, sizeof name, "a+%s as a user function (4096^2)", w ? "column" : "row");
        measure(name, threads, e_user, e, 1, 2 * el, "GB/s");
        mt_tensor_release(bc[w]);
    }
    e->b = full;
    e->kind = 2;
    for (int dim = 0; dim < 2; dim++) {
        e->dim = dim;
        snprintf(name, sizeof name, "sum dim %d as a user fold (4096^2)", dim);
        measure(name, threads, e_user, e, 1, el + 4096.0 * sizeof(float), "GB/s");
    }
    e->red = MT_RED_MAX;
    for (int dim = 0; dim < 2; dim++) {
        e->dim = dim;
        snprintf(name, sizeof name, "max dim %d (4096x4096)", dim);
        measure(name, threads, e_sum, e, 1, el + 4096.0 * sizeof(float), "GB/s");
        e->kind = 3;
        snprintf(name, sizeof name, "max dim %d as `larger` (4096^2)", dim);
        measure(name, threads, e_user, e, 1, el + 4096.0 * sizeof(float), "GB/s");
        e->kind = 4;
        snprintf(name, sizeof name, "fold acc*0.5+x dim %d (4096^2)", dim);
        measure(name, threads, e_user, e, 1, el + 4096.0 * sizeof(float), "GB/s");
    }
    /* four outputs */
    struct mt_tensor *square = e->a, *rows = NULL;
    check(mt_view(e->ctx, square, 2, (const int64_t[]){4, -1}, &rows), e->ctx);
    e->a = rows;
    e->dim = 1;
    e->red = MT_RED_SUM;
    measure("sum dim 1 (4 x 4M)", threads, e_sum, e, 1, el + 4.0 * sizeof(float), "GB/s");
    e->kind = 5;
    measure("fold acc+x*x dim 1 (4 x 4M)", threads, e_user, e, 1, el + 4.0 * sizeof(float), "GB/s");
    e->kind = 4;
    measure("fold acc*0.5+x dim 1 (4 x 4M)", threads, e_user, e, 1, el + 4.0 * sizeof(float),
            "GB/s");
    e->a = square;
    mt_tensor_release(rows);
}

/* ---- numpy beside it --------------------------------------------------------------------- */

/* Runs bench/numpy_ops.py with `threads` and attaches its rows to ours by name. */
static void run_numpy(const char *python, int threads)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "OMP_NUM_THREADS=%d OPENBLAS_NUM_THREADS=%d MKL_NUM_THREADS=%d %s "
             "%s/bench/numpy_ops.py --reps %d",
             threads, threads, threads, python, MT_SOURCE_DIR, reps);
    FILE *f = popen(cmd, "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char name[64], unit[16];
        double med, lo, hi;
        /* RESULT name|median|min|max|unit ; other lines are context, printed as they are */
        if (sscanf(line, "RESULT %63[^|]|%lf|%lf|%lf|%15s", name, &med, &lo, &hi, unit) != 5) {
            printf("  numpy: %s", line);
            continue;
        }
        for (int i = 0; i < nresults; i++) {
            if (results[i].threads == threads && strcmp(results[i].name, name) == 0) {
                results[i].has_np = true;
                results[i].np_med = med;
                results[i].np_lo = lo;
                results[i].np_hi = hi;
            }
        }
    }
    pclose(f);
}

static void print_results(void)
{
    printf("\n%-26s %3s %8s %19s %8s %19s %7s %5s\n", "op", "thr", "ours", "[min .. max]", "numpy",
           "[min .. max]", "ratio", "unit");
    for (int i = 0; i < nresults; i++) {
        struct result *r = &results[i];
        char spread[40], nps[40] = "", npm[16] = "-", ratio[16] = "";
        snprintf(spread, sizeof spread, "[%.1f .. %.1f]", r->lo, r->hi);
        if (r->has_np) {
            snprintf(nps, sizeof nps, "[%.1f .. %.1f]", r->np_lo, r->np_hi);
            snprintf(npm, sizeof npm, "%.1f", r->np_med);
            bool rate = strcmp(r->unit, "GB/s") == 0;
            snprintf(ratio, sizeof ratio, "%.2fx", rate ? r->med / r->np_med : r->np_med / r->med);
        }
        printf("%-26s %3d %8.1f %19s %8s %19s %7s %5s\n", r->name, r->threads, r->med, spread, npm,
               nps, ratio, r->unit);
    }
    printf("(ratio: ours over numpy, >1 = ours faster)\n");
}

/* ---- simple vs fast ---------------------------------------------------------------------- */

struct sv {
    struct mt_ctx *ctx;
    struct mt_tensor *a, *b;
    int kind; /* 0 map exp, 1 zip add, 2 reduce sum dim 1, 3 matmul */
};

static void sv_op(void *arg)
{
    struct sv *s = arg;
    struct mt_tensor *r = NULL;
    switch (s->kind) {
    case 0: check(mt_map(s->ctx, MT_MAP_EXP, s->a, &r), s->ctx); break;
    case 1: check(mt_zip(s->ctx, MT_ZIP_ADD, s->a, s->b, &r), s->ctx); break;
    case 2: check(mt_reduce(s->ctx, MT_RED_SUM, s->a, 1, &r), s->ctx); break;
    default: check(mt_matmul_raw(s->ctx, s->a, s->b, &r), s->ctx); break;
    }
    mt_tensor_release(r);
}

/* Median time of one call on backend b with `threads`, in microseconds. */
static double sv_time(struct sv *s, enum mt_backend b, int threads, double budget_s)
{
    struct mt_tensor *a = NULL, *bb = NULL;
    check(mt_to(s->ctx, s->a, b, &a), s->ctx);
    check(mt_to(s->ctx, s->b, b, &bb), s->ctx);
    struct sv t = {s->ctx, a, bb, s->kind};
    check(mt_ctx_set_threads(s->ctx, threads), s->ctx);
    double t0 = mt_now_s();
    sv_op(&t);
    double one = mt_now_s() - t0;
    int inner = one > 0 ? (int)(budget_s / 5 / one) : 1000;
    if (inner < 1) inner = 1;
    if (inner > 100000) inner = 100000;
    int saved = reps;
    reps = one * inner * 5 > 2.0 ? 3 : 5;
    measure("sv", threads, sv_op, &t, inner, 0, "us");
    reps = saved;
    nresults--;
    double med = results[nresults].med;
    mt_tensor_release(a);
    mt_tensor_release(bb);
    return med;
}

static void run_simple_vs_fast(struct mt_ctx *ctx, bool quick)
{
    static const struct {
        const char *op;
        int kind;
        int64_t m, n;
    } cases[] = {
        {"map exp", 0, 10, 100},          {"map exp", 0, 100, 100},
        {"map exp", 0, 1000, 1000},       {"zip add", 1, 10, 100},
        {"zip add", 1, 100, 100},         {"zip add", 1, 1000, 1000},
        {"reduce sum(1)", 2, 10, 100},    {"reduce sum(1)", 2, 100, 100},
        {"reduce sum(1)", 2, 1000, 1000}, {"matmul n^3", 3, 32, 32},
        {"matmul n^3", 3, 128, 128},      {"matmul n^3", 3, 256, 256},
    };
    printf("\nsimple vs fast (median time per call; speed-up = simple / fast)\n");
    printf("%-15s %11s %12s %12s %12s %9s %9s\n", "op", "shape", "simple us", "fast 1t us",
           "fast 2t us", "x 1t", "x 2t");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (quick && cases[i].m > 100 && cases[i].kind != 3) continue;
        struct sv s = {ctx, NULL, NULL, cases[i].kind};
        int64_t shape[2] = {cases[i].m, cases[i].n};
        check(mt_rand(ctx, MT_BACKEND_SIMPLE, 2, shape, &s.a), ctx);
        check(mt_rand(ctx, MT_BACKEND_SIMPLE, 2, shape, &s.b), ctx);
        double ts = sv_time(&s, MT_BACKEND_SIMPLE, 1, 1.0);
        double t1 = sv_time(&s, MT_BACKEND_FAST, 1, 0.3);
        double t2 = sv_time(&s, MT_BACKEND_FAST, 2, 0.3);
        char sh[32];
        snprintf(sh, sizeof sh, "%lldx%lld", (long long)cases[i].m, (long long)cases[i].n);
        printf("%-15s %11s %12.2f %12.2f %12.2f %8.1fx %8.1fx\n", cases[i].op, sh, ts, t1, t2,
               ts / t1, ts / t2);
        mt_tensor_release(s.a);
        mt_tensor_release(s.b);
    }
}

/* ---- main -------------------------------------------------------------------------------- */

static void diag_keep(void *user, const struct mt_diag *d) { *(struct mt_diag *)user = *d; }

int main(int argc, char **argv)
{
    const char *python = NULL;
    bool quick = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--numpy") == 0 && i + 1 < argc)
            python = argv[++i];
        else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--quick") == 0)
            quick = true;
        else {
            fprintf(stderr, "usage: %s [--numpy PYTHON] [--reps N] [--quick]\n", argv[0]);
            return 2;
        }
    }
    if (reps < 3) reps = 3;

    struct mt_ctx *ctx = mt_ctx_new();
    if (!ctx) return 1;
    struct eng e = {.ctx = ctx};
    int64_t big[2] = {4096, 4096}, tiny[2] = {10, 100};
    check(mt_rand(ctx, MT_BACKEND_FAST, 2, big, &e.a), ctx);
    check(mt_rand(ctx, MT_BACKEND_FAST, 2, big, &e.b), ctx);
    check(mt_empty(ctx, MT_BACKEND_FAST, 2, big, &e.out), ctx);
    check(mt_rand(ctx, MT_BACKEND_FAST, 2, tiny, &e.tiny_a), ctx);
    check(mt_rand(ctx, MT_BACKEND_FAST, 2, tiny, &e.tiny_b), ctx);
    check(mt_empty(ctx, MT_BACKEND_FAST, 2, tiny, &e.tiny_out), ctx);
    int64_t one = 1;
    check(mt_full(ctx, MT_BACKEND_FAST, 1, &one, 1.5f, &e.k15), ctx);
    check(mt_full(ctx, MT_BACKEND_FAST, 1, &one, 0.5f, &e.k05), ctx);
    check(mt_full(ctx, MT_BACKEND_FAST, 1, &one, 2.0f, &e.k2), ctx);

    /* what the engine runs here, from its diagnostics */
    struct mt_diag d1 = {0}, d2 = {0};
    mt_ctx_set_diag(ctx, diag_keep, &d1);
    e_tiny(&e);
    mt_ctx_set_diag(ctx, diag_keep, &d2);
    struct mt_tensor *mm = NULL, *tt = NULL;
    int64_t order[2] = {1, 0};
    check(mt_permute(ctx, e.tiny_a, 2, order, &tt), ctx);
    check(mt_matmul_raw(ctx, e.tiny_a, tt, &mm), ctx); /* (10,100) @ (100,10) */
    mt_tensor_release(mm);
    mt_tensor_release(tt);
    mt_ctx_set_diag(ctx, NULL, NULL);
    printf("mt_ops_bench: %d samples per row (median [min .. max]); fast backend %d lanes "
           "(%s), matmul \"%s\"; OpenMP threads available: %d\n",
           reps, d1.vec_width, getenv("MT_FAST_ISA") ? getenv("MT_FAST_ISA") : "auto",
           d2.path ? d2.path : "?", mt_ctx_threads(ctx));

    for (int t = 1; t <= 2; t++) {
        run_probes(t);
        run_engine(&e, t);
        if (python) run_numpy(python, t);
    }
    print_results();
    run_simple_vs_fast(ctx, quick);

    mt_tensor_release(e.a);
    mt_tensor_release(e.b);
    mt_tensor_release(e.out);
    mt_tensor_release(e.tiny_a);
    mt_tensor_release(e.tiny_b);
    mt_tensor_release(e.tiny_out);
    mt_tensor_release(e.k15);
    mt_tensor_release(e.k05);
    mt_tensor_release(e.k2);
    mt_ctx_free(ctx);
    return 0;
}
