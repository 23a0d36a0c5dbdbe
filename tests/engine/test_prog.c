/* test_prog.c — user functions as register programs (prog.c): mt_map_prog, mt_zip_prog and
 * mt_reduce_prog on simple and fast against an independent reference, the element-by-element
 * evaluation of this file (ref_eval: its own switch over the ops, written from minitorch.h's
 * definitions, not prog.c's), on random programs, random shapes, strided and broadcast views.
 *
 * Exactness. Programs without exp, log, sigmoid and tanh must give the reference's bits on both
 * backends (every other op is one IEEE operation or a selection). With those four, simple
 * must still match the reference exactly (both use libm), and fast's vector routines must match
 * the built-in maps bit for bit (a user function calling exp is the built-in exp). */
#include "minitorch/minitorch.h"

#include "../nvrtc.h"
#include "../test.h"
#include "prog_helpers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static struct mt_ctx *ctx;

/* ---- the reference ------------------------------------------------------------------------ */

static float ref_op(const struct mt_prog_insn *in, const float *v)
{
    float a = v[in->a], b = v[in->b], c = v[in->c];
    switch (in->op) {
    case MT_P_CONST: return in->imm;
    case MT_P_NEG: return -a;
    case MT_P_ABS: return fabsf(a);
    case MT_P_SQRT: return sqrtf(a);
    case MT_P_EXP: return expf(a);
    case MT_P_LOG: return logf(a);
    case MT_P_SIGMOID: return a >= 0 ? 1.0f / (1.0f + expf(-a)) : expf(a) / (1.0f + expf(a));
    case MT_P_TANH: return tanhf(a);
    case MT_P_RELU: return a > 0 ? a : 0.0f;
    case MT_P_NOT: return !(a != 0) ? 1.0f : 0.0f;
    case MT_P_ADD: return a + b;
    case MT_P_SUB: return a - b;
    case MT_P_MUL: return a * b;
    case MT_P_DIV: return a / b;
    case MT_P_POW: return powf(a, b);
    case MT_P_MIN: return b < a ? b : a;
    case MT_P_MAX: return b > a ? b : a;
    case MT_P_LT: return (float)(a < b);
    case MT_P_LE: return (float)(a <= b);
    case MT_P_GT: return (float)(a > b);
    case MT_P_GE: return (float)(a >= b);
    case MT_P_EQ: return (float)(a == b);
    case MT_P_NE: return (float)(a != b);
    case MT_P_AND: return a != 0 ? b : a;
    case MT_P_OR: return a != 0 ? a : b;
    case MT_P_SELECT: return a != 0 ? b : c;
    default: abort();
    }
}

static float ref_eval(const struct mt_prog *p, const float *args)
{
    float v[MT_PROG_MAX_INSNS + 2] = {0};
    for (int r = 0; r < p->nargs; r++) v[r] = args[r];
    for (int i = 0; i < p->ninsn; i++) v[p->insn[i].dst] = ref_op(&p->insn[i], v);
    return v[p->result];
}

static bool same_bits(float a, float b)
{
    return memcmp(&a, &b, sizeof a) == 0 || (a != a && b != b);
}

static struct mt_tensor *random_tensor(uint64_t *rng, enum mt_backend b, int ndim,
                                       const int64_t *shape)
{
    struct mt_tensor *t = NULL;
    CHECK_INT(mt_empty(ctx, b, ndim, shape, &t), MT_OK);
    float *d = mt_tensor_data(t);
    for (int64_t i = 0; i < t->size; i++) {
        /* some exact zeros, ones and repeats, so that comparisons and and/or take both sides */
        int k = test_rand_below(rng, 8);
        d[i] = k == 0 ? 0.0f : k == 1 ? 1.0f : k == 2 ? d[i > 0 ? i - 1 : 0] : test_rand_float(rng);
    }
    return t;
}

/* The element of t at out's index idx (t broadcast to out's shape, right-aligned). */
static float at(const struct mt_tensor *t, int ndim, const int64_t *idx)
{
    int64_t pos = 0;
    for (int d = 0; d < t->ndim; d++) {
        int64_t i = idx[ndim - t->ndim + d];
        pos += (t->shape[d] == 1 ? 0 : i) * t->strides[d];
    }
    return mt_tensor_data(t)[pos];
}

/* out against ref_eval at every element; `exact`: bit for bit, else within 4 ulp-ish relative. */
static int compare_elementwise(const struct mt_prog *p, const struct mt_tensor *a,
                               const struct mt_tensor *b, const struct mt_tensor *out)
{
    int bad = 0;
    int64_t idx[MT_MAX_DIMS];
    for (int64_t e = 0; e < out->size; e++) {
        mt_to_index(e, out->ndim, out->shape, idx);
        float args[2] = {at(a, out->ndim, idx), b ? at(b, out->ndim, idx) : 0.0f};
        float want = ref_eval(p, args), got = at(out, out->ndim, idx);
        if (!same_bits(want, got) && bad++ < 3)
            fprintf(stderr, "  %s element %lld: got %.9g, want %.9g\n",
                    mt_backend_name(out->backend), (long long)e, got, want);
    }
    return bad;
}

/* The outputs of reduce(p, x, dim, start) in out that differ from the serial fold of ref_eval:
 * acc = start, then acc = p(acc, x) along the dim in order. */
static int reduce_mismatches(const struct mt_prog *p, const struct mt_tensor *x, int dim,
                             float start, const struct mt_tensor *out)
{
    int bad = 0;
    int64_t idx[MT_MAX_DIMS];
    for (int64_t e = 0; e < out->size; e++) {
        mt_to_index(e, x->ndim, out->shape, idx);
        float acc = start;
        for (int64_t k = 0; k < x->shape[dim]; k++) {
            idx[dim] = k;
            float args[2] = {acc, at(x, x->ndim, idx)};
            acc = ref_eval(p, args);
        }
        idx[dim] = 0;
        bad += !same_bits(acc, at(out, x->ndim, idx));
    }
    return bad;
}

/* A random tensor of `shape`, half the time (ndim >= 2) a transposed view: made with its last
 * two dims swapped and permuted back, so that its strides are not row-major. */
static struct mt_tensor *random_view(uint64_t *rng, enum mt_backend b, int ndim,
                                     const int64_t *shape)
{
    if (ndim < 2 || test_rand_below(rng, 2) == 0) return random_tensor(rng, b, ndim, shape);
    int64_t swapped[MT_MAX_DIMS], order[MT_MAX_DIMS];
    for (int d = 0; d < ndim; d++) swapped[d] = shape[d], order[d] = d;
    swapped[ndim - 1] = shape[ndim - 2];
    swapped[ndim - 2] = shape[ndim - 1];
    order[ndim - 1] = ndim - 2;
    order[ndim - 2] = ndim - 1;
    struct mt_tensor *t = random_tensor(rng, b, ndim, swapped), *v = NULL;
    CHECK_INT(mt_permute(ctx, t, ndim, order, &v), MT_OK);
    mt_tensor_release(t); /* the view keeps the storage */
    return v;
}

/* ---- tests ---------------------------------------------------------------------------------- */

static void test_check_rejects(void)
{
    struct mt_prog_insn in[2] = {{.op = MT_P_ADD, .dst = 1, .a = 0, .b = 2}};
    struct mt_prog p = {.name = "f", .nargs = 1, .ninsn = 1, .insn = in, .result = 1};
    CHECK_INT(mt_prog_check(ctx, &p), MT_ERR_INVALID); /* reads register 2 before it is written */
    CHECK(strstr(mt_ctx_error(ctx), "reads register 2 before it is written") != NULL);
    in[0] = (struct mt_prog_insn){.op = MT_P_NEG, .dst = 0, .a = 0};
    CHECK_INT(mt_prog_check(ctx, &p), MT_ERR_INVALID); /* writes the argument */
    in[0] = (struct mt_prog_insn){.op = MT_P_NEG, .dst = 1, .a = 0};
    in[1] = (struct mt_prog_insn){.op = MT_P_NEG, .dst = 1, .a = 0};
    p.ninsn = 2;
    CHECK_INT(mt_prog_check(ctx, &p), MT_ERR_INVALID); /* writes register 1 twice */
    in[1] = (struct mt_prog_insn){.op = (enum mt_prog_op)MT_P_COUNT, .dst = 2, .a = 0};
    CHECK_INT(mt_prog_check(ctx, &p), MT_ERR_INVALID);
    p.ninsn = 1;
    p.result = 2;
    CHECK_INT(mt_prog_check(ctx, &p), MT_ERR_INVALID); /* result never written */
    p.result = 1;
    CHECK_INT(mt_prog_check(ctx, &p), MT_OK);
    p.name = NULL;
    CHECK_INT(mt_prog_check(ctx, &p), MT_ERR_INVALID);
    p.name = "f";
    p.nargs = 3;
    CHECK_INT(mt_prog_check(ctx, &p), MT_ERR_INVALID);
    /* 49 values alive at once (-x each), then summed: more values than the block machine
     * holds */
    static struct mt_prog_insn many[1100 * 2];
    int n = 0, live = MT_PROG_MAX_LIVE + 1;
    for (int i = 0; i < live; i++)
        many[n++] = (struct mt_prog_insn){.op = MT_P_NEG, .dst = 1 + i, .a = 0};
    int acc = 1;
    for (int i = 1; i < live; i++, n++) {
        many[n] = (struct mt_prog_insn){.op = MT_P_ADD, .dst = 1 + n, .a = acc, .b = 1 + i};
        acc = 1 + n;
    }
    struct mt_prog big = {.name = "wide", .nargs = 1, .ninsn = n, .insn = many, .result = acc};
    CHECK_INT(mt_prog_check(ctx, &big), MT_ERR_INVALID);
    CHECK(strstr(mt_ctx_error(ctx), "values are needed at once") != NULL);
    /* with two fewer it fits: the first sum is written while the others are all alive */
    live = MT_PROG_MAX_LIVE - 1;
    n = 0;
    for (int i = 0; i < live; i++)
        many[n++] = (struct mt_prog_insn){.op = MT_P_NEG, .dst = 1 + i, .a = 0};
    acc = 1;
    for (int i = 1; i < live; i++, n++) {
        many[n] = (struct mt_prog_insn){.op = MT_P_ADD, .dst = 1 + n, .a = acc, .b = 1 + i};
        acc = 1 + n;
    }
    big.ninsn = n;
    big.result = acc;
    CHECK_INT(mt_prog_check(ctx, &big), MT_OK);
    /* 1,100 constants (an unrolled loop's counters), each read where an immediate cannot take
     * it (a selection's operand): more than there are buffers, but each is alive for two
     * instructions only, so they share them (and an unread one needs none) */
    n = 0;
    acc = 0;
    for (int i = 0; i < 1100; i++) {
        const int k = 1 + n;
        many[n++] = (struct mt_prog_insn){.op = MT_P_CONST, .dst = k, .imm = (float)i};
        many[n] =
            (struct mt_prog_insn){.op = MT_P_SELECT, .dst = 1 + n, .a = acc, .b = k, .c = acc};
        acc = 1 + n++;
    }
    big.ninsn = n;
    big.result = acc;
    CHECK_INT(mt_prog_check(ctx, &big), MT_OK);
}

/* Random programs through map and zip on both backends, shapes with broadcasting, transposed
 * views, and outputs large enough for several blocks and (fast) both threads. */
static void test_random_elementwise(void)
{
    uint64_t rng = 42;
    static struct mt_prog_insn insn[64];
    int failures = 0;
    for (int t = 0; t < 300; t++) {
        const int nargs = 1 + test_rand_below(&rng, 2);
        const bool exactable = test_rand_below(&rng, 3) != 0;
        struct mt_prog p;
        random_prog(&rng, nargs, 1 + test_rand_below(&rng, 40), !exactable, insn, &p);
        CHECK_INT(mt_prog_check(ctx, &p), MT_OK);
        int ndim = 1 + test_rand_below(&rng, 3);
        int64_t shape[3], bshape[3];
        for (int d = 0; d < ndim; d++) {
            shape[d] = 1 + test_rand_below(&rng, t % 10 == 0 && d == ndim - 1 ? 3000 : 12);
            bshape[d] = test_rand_below(&rng, 3) == 0 ? 1 : shape[d];
        }
        for (int be = 0; be < 2; be++) {
            enum mt_backend b = be ? MT_BACKEND_FAST : MT_BACKEND_SIMPLE;
            struct mt_tensor *a = random_view(&rng, b, ndim, shape);
            struct mt_tensor *bb = random_view(&rng, b, ndim, bshape);
            struct mt_tensor *out = NULL;
            enum mt_status st =
                nargs == 1 ? mt_map_prog(ctx, &p, a, &out) : mt_zip_prog(ctx, &p, a, bb, &out);
            CHECK_INT(st, MT_OK);
            /* simple is always exact; fast is when no transcendental op ran */
            if (out && (b == MT_BACKEND_SIMPLE || exactable)) {
                int bad = compare_elementwise(&p, a, nargs == 2 ? bb : NULL, out);
                if (bad && failures++ < 3)
                    fprintf(stderr, "  program %d (%d ops, %s): %d elements differ\n", t, p.ninsn,
                            mt_backend_name(b), bad);
                CHECK(bad == 0);
            }
            mt_tensor_release(out);
            mt_tensor_release(a);
            mt_tensor_release(bb);
        }
    }
}

/* fast's exp, log, sigmoid and tanh in a user function are the built-in maps' own */
static void test_builtin_equivalence(void)
{
    uint64_t rng = 7;
    const enum mt_prog_op ops[] = {MT_P_EXP,  MT_P_LOG, MT_P_SIGMOID, MT_P_TANH,
                                   MT_P_SQRT, MT_P_ABS, MT_P_RELU,    MT_P_NEG};
    const enum mt_map_op maps[] = {MT_MAP_EXP,  MT_MAP_LOG, MT_MAP_SIGMOID, MT_MAP_TANH,
                                   MT_MAP_SQRT, MT_MAP_ABS, MT_MAP_RELU,    MT_MAP_NEG};
    int64_t shape[2] = {333, 77};
    struct mt_tensor *x = random_tensor(&rng, MT_BACKEND_FAST, 2, shape);
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        struct mt_prog_insn in = {.op = ops[i], .dst = 1, .a = 0};
        struct mt_prog p = {.name = "f", .nargs = 1, .ninsn = 1, .insn = &in, .result = 1};
        struct mt_tensor *u = NULL, *v = NULL;
        CHECK_INT(mt_map_prog(ctx, &p, x, &u), MT_OK);
        CHECK_INT(mt_map(ctx, maps[i], x, &v), MT_OK);
        int bad = 0;
        for (int64_t e = 0; u && v && e < x->size; e++)
            bad += !same_bits(mt_tensor_data(u)[e], mt_tensor_data(v)[e]);
        if (bad)
            fprintf(stderr, "  %s: %d elements differ from the built-in\n", mt_prog_op_name(ops[i]),
                    bad);
        CHECK(bad == 0);
        mt_tensor_release(u);
        mt_tensor_release(v);
    }
    mt_tensor_release(x);
}

/* The reduction's serial order: start, then fn(acc, x) along the dim, for every dim of a
 * permuted 3-D tensor, outputs both few (folded one by one) and many (blocks). fn = acc*0.5 + x
 * is not associative: any other order gives other bits. */
static void test_reduce_order(void)
{
    uint64_t rng = 99;
    struct mt_prog_insn in[3] = {{.op = MT_P_CONST, .dst = 2, .imm = 0.5f},
                                 {.op = MT_P_MUL, .dst = 3, .a = 0, .b = 2},
                                 {.op = MT_P_ADD, .dst = 4, .a = 3, .b = 1}};
    struct mt_prog p = {.name = "decay", .nargs = 2, .ninsn = 3, .insn = in, .result = 4};
    const int64_t shapes[][3] = {{3, 4, 5}, {70, 9, 33}, {2, 300, 200}};
    for (size_t s = 0; s < 3; s++)
        for (int be = 0; be < 2; be++) {
            enum mt_backend b = be ? MT_BACKEND_FAST : MT_BACKEND_SIMPLE;
            struct mt_tensor *x = random_view(&rng, b, 3, shapes[s]);
            for (int dim = 0; dim < 3; dim++) {
                struct mt_tensor *out = NULL;
                CHECK_INT(mt_reduce_prog(ctx, &p, x, dim, 1.5f, &out), MT_OK);
                if (!out) continue;
                CHECK_INT(out->shape[dim], 1);
                const int bad = reduce_mismatches(&p, x, dim, 1.5f, out);
                if (bad)
                    fprintf(stderr, "  %s dim %d of (%lld, %lld, %lld): %d outputs differ\n",
                            mt_backend_name(b), dim, (long long)shapes[s][0],
                            (long long)shapes[s][1], (long long)shapes[s][2], bad);
                CHECK(bad == 0);
                mt_tensor_release(out);
            }
            mt_tensor_release(x);
        }
}

/* map into a larger out (broadcast), into a strided out, and the shape errors */
static void test_outputs_and_errors(void)
{
    uint64_t rng = 5;
    struct mt_prog_insn in = {.op = MT_P_NEG, .dst = 1, .a = 0};
    struct mt_prog neg = {.name = "neg", .nargs = 1, .ninsn = 1, .insn = &in, .result = 1};
    int64_t row[1] = {7}, big[2] = {5, 7}, wrong[2] = {5, 6};
    struct mt_tensor *x = random_tensor(&rng, MT_BACKEND_FAST, 1, row);
    struct mt_tensor *out = NULL, *t = NULL, *bad = NULL;
    CHECK_INT(mt_zeros(ctx, MT_BACKEND_FAST, 2, big, &out), MT_OK);
    CHECK_INT(mt_map_prog(ctx, &neg, x, &out), MT_OK);
    CHECK_INT(compare_elementwise(&neg, x, NULL, out), 0);
    int64_t order[2] = {1, 0};
    struct mt_tensor *o2 = NULL;
    int64_t tb[2] = {7, 5};
    CHECK_INT(mt_zeros(ctx, MT_BACKEND_FAST, 2, tb, &t), MT_OK);
    CHECK_INT(mt_permute(ctx, t, 2, order, &o2), MT_OK); /* a (5, 7) view with strides (1, 5) */
    CHECK_INT(mt_map_prog(ctx, &neg, x, &o2), MT_OK);
    CHECK_INT(compare_elementwise(&neg, x, NULL, o2), 0);
    CHECK_INT(mt_zeros(ctx, MT_BACKEND_FAST, 2, wrong, &bad), MT_OK);
    CHECK_INT(mt_map_prog(ctx, &neg, x, &bad), MT_ERR_SHAPE); /* (7,) and (5, 6) */
    int64_t one_row[2] = {1, 7};
    struct mt_tensor *small = NULL;
    CHECK_INT(mt_zeros(ctx, MT_BACKEND_FAST, 2, one_row, &small), MT_OK);
    CHECK_INT(mt_map_prog(ctx, &neg, out, &small), MT_ERR_SHAPE); /* (5, 7) into (1, 7) */
    CHECK(strstr(mt_ctx_error(ctx), "map(neg): shape (5, 7) does not broadcast to the output's "
                                    "(1, 7)") != NULL);
    mt_tensor_release(small);
    struct mt_tensor *none = NULL;
    CHECK_INT(mt_zip_prog(ctx, &neg, x, x, &none), MT_ERR_INVALID); /* one argument, not two */
    CHECK(strstr(mt_ctx_error(ctx), "zip needs a function of 2 arguments; neg takes 1") != NULL);
    CHECK(none == NULL);
    CHECK_INT(mt_reduce_prog(ctx, &neg, x, 0, 0.0f, &none), MT_ERR_INVALID);
    struct mt_tensor *s = NULL;
    CHECK_INT(mt_to(ctx, x, MT_BACKEND_SIMPLE, &s), MT_OK);
    struct mt_prog_insn add = {.op = MT_P_ADD, .dst = 2, .a = 0, .b = 1};
    struct mt_prog plus = {.name = "plus", .nargs = 2, .ninsn = 1, .insn = &add, .result = 2};
    CHECK_INT(mt_zip_prog(ctx, &plus, x, s, &none), MT_ERR_BACKEND);
    CHECK_INT(mt_reduce_prog(ctx, &plus, x, 1, 0.0f, &none), MT_ERR_INDEX);
    CHECK(none == NULL);
    /* cancelled: an error, and no output left behind */
    int64_t large[1] = {1 << 18};
    struct mt_tensor *l = random_tensor(&rng, MT_BACKEND_FAST, 1, large);
    mt_cancel_request();
    CHECK_INT(mt_map_prog(ctx, &neg, l, &none), MT_ERR_CANCELLED);
    CHECK_INT(mt_reduce_prog(ctx, &plus, l, 0, 0.0f, &none), MT_ERR_CANCELLED);
    mt_cancel_clear();
    CHECK(none == NULL);
    mt_tensor_release(l);
    mt_tensor_release(s);
    mt_tensor_release(bad);
    mt_tensor_release(o2);
    mt_tensor_release(t);
    mt_tensor_release(out);
    mt_tensor_release(x);
}

/* Outputs of 16 MiB and more are written with non-temporal stores, in chunks, and a one-op
 * program of exp runs as the built-in map: both on a size that is no multiple of any chunk. */
static void test_large_outputs(void)
{
    uint64_t rng = 11;
    int64_t shape[1] = {((int64_t)4 << 20) + 333};
    struct mt_tensor *x = random_tensor(&rng, MT_BACKEND_FAST, 1, shape);
    /* (x * 1.5 + 0.5) * x - 2, then its minimum with x * 1.5 (a value kept for the end) */
    struct mt_prog_insn in[8] = {
        {.op = MT_P_CONST, .dst = 1, .imm = 1.5f},  {.op = MT_P_MUL, .dst = 2, .a = 0, .b = 1},
        {.op = MT_P_CONST, .dst = 3, .imm = 0.5f},  {.op = MT_P_ADD, .dst = 4, .a = 2, .b = 3},
        {.op = MT_P_MUL, .dst = 5, .a = 4, .b = 0}, {.op = MT_P_CONST, .dst = 6, .imm = 2.0f},
        {.op = MT_P_SUB, .dst = 7, .a = 5, .b = 6}, {.op = MT_P_MIN, .dst = 8, .a = 7, .b = 2}};
    struct mt_prog p = {.name = "f", .nargs = 1, .ninsn = 8, .insn = in, .result = 8};
    struct mt_tensor *y = NULL;
    CHECK_INT(mt_map_prog(ctx, &p, x, &y), MT_OK);
    if (y) CHECK_INT(compare_elementwise(&p, x, NULL, y), 0);
    struct mt_prog_insn e = {.op = MT_P_EXP, .dst = 1, .a = 0};
    struct mt_prog pe = {.name = "e", .nargs = 1, .ninsn = 1, .insn = &e, .result = 1};
    struct mt_tensor *u = NULL, *v = NULL;
    CHECK_INT(mt_map_prog(ctx, &pe, x, &u), MT_OK);
    CHECK_INT(mt_map(ctx, MT_MAP_EXP, x, &v), MT_OK);
    int bad = 0;
    for (int64_t i = 0; u && v && i < x->size; i++)
        bad += !same_bits(mt_tensor_data(u)[i], mt_tensor_data(v)[i]);
    CHECK_INT(bad, 0);
    mt_tensor_release(u);
    mt_tensor_release(v);
    mt_tensor_release(y);
    mt_tensor_release(x);
}

/* the diagnostics of a user function's op: one entry, its instruction count */
static struct mt_diag last;
static int seen;
static void on_diag(void *user, const struct mt_diag *d)
{
    (void)user;
    last = *d;
    seen++;
}

static void test_diagnostics(void)
{
    uint64_t rng = 3;
    struct mt_prog_insn in[3] = {{.op = MT_P_CONST, .dst = 1, .imm = 2.0f},
                                 {.op = MT_P_MUL, .dst = 2, .a = 0, .b = 1},
                                 {.op = MT_P_ADD, .dst = 3, .a = 2, .b = 1}};
    struct mt_prog p = {.name = "f", .nargs = 1, .ninsn = 3, .insn = in, .result = 3};
    int64_t shape[1] = {1000};
    struct mt_tensor *x = random_tensor(&rng, MT_BACKEND_FAST, 1, shape), *y = NULL;
    mt_ctx_set_diag(ctx, on_diag, NULL);
    CHECK_INT(mt_map_prog(ctx, &p, x, &y), MT_OK);
    mt_ctx_set_diag(ctx, NULL, NULL);
    CHECK_INT(seen, 1);
    CHECK_STR(last.op, "map");
    CHECK_STR(last.path, "user function, fused blocks");
    CHECK_INT(last.prog_insns, 2); /* the multiply and the add; the constant is no operation */
    CHECK_STR(last.prog_name, "f");
    CHECK(last.flops == 2000.0);
    CHECK(last.bytes == 8000.0);
    mt_tensor_release(y);
    mt_tensor_release(x);
}

/* Folds of one add, mul or max (also as a comparison and a select) go through the fast backend's
 * fold kernels instead of the program (prog.c's fold_op: red_cols for outputs side by side,
 * fold_rows for contiguous rows, red_cols on a tile otherwise): still the serial order, so the
 * same bits as the reference, with signed zeros, infinities and NaNs in the data (where
 * max(acc, x) and max(x, acc) differ, and only the second is the kernel's), and without them
 * (where the order of the additions shows), outputs side by side (dim 0) and gathered (dim 1,
 * and a transposed view), with the path the diagnostics name. ctest runs this file on the
 * generic (SSE) table too. */
static void test_reduce_one_op_folds(void)
{
    uint64_t rng = 17;
    const struct {
        enum mt_prog_op op;
        bool select; /* then select(op's result, r0, r1): `a if a > b else b` */
        int a, b;
        bool kernel; /* expected to take a fold kernel */
    } folds[] = {{MT_P_ADD, false, 0, 1, true},  {MT_P_ADD, false, 1, 0, true},
                 {MT_P_MUL, false, 0, 1, true},  {MT_P_MUL, false, 1, 0, true},
                 {MT_P_MAX, false, 1, 0, true},  {MT_P_MAX, false, 0, 1, false},
                 {MT_P_SUB, false, 0, 1, false}, {MT_P_ADD, false, 0, 0, false},
                 {MT_P_GT, true, 0, 1, true},    {MT_P_LT, true, 1, 0, true},
                 {MT_P_GT, true, 1, 0, false},   {MT_P_GE, true, 0, 1, false}};
    const float special[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1.0f, -1.0f};
    /* the third has few outputs along dim 1, fewer than the reduction's blocks hold; the last
     * two rows too short for fold_rows' second group to run ahead (37), and just long enough
     * (41, the columns past the groups' last full vector too) */
    const int64_t shapes[][2] = {{300, 200}, {77, 130}, {2, 1000}, {40, 37}, {33, 41}};
    const size_t nshapes = sizeof shapes / sizeof shapes[0];
    for (size_t f = 0; f < sizeof folds / sizeof folds[0]; f++)
        for (size_t s = 0; s < nshapes; s++)
            for (int view = 0; view < 3; view++) {
                struct mt_prog_insn in[2] = {
                    {.op = folds[f].op, .dst = 2, .a = folds[f].a, .b = folds[f].b},
                    {.op = MT_P_SELECT, .dst = 3, .a = 2, .b = 0, .c = 1}};
                const int n = folds[f].select ? 2 : 1;
                struct mt_prog p = {
                    .name = "fold", .nargs = 2, .ninsn = n, .insn = in, .result = n + 1};
                /* view 0: contiguous; 1: transposed; 2: 3-D, where dim 1's rows are strided
                 * and its outputs not side by side (the tile) */
                struct mt_tensor *x = NULL;
                const int nd = view == 2 ? 3 : 2;
                int64_t shape[3] = {shapes[s][view == 1], shapes[s][view != 1], 0};
                if (view == 2) shape[0] = 3, shape[1] = shapes[s][0], shape[2] = shapes[s][1];
                CHECK_INT(mt_empty(ctx, MT_BACKEND_FAST, nd, shape, &x), MT_OK);
                float *d = mt_tensor_data(x);
                for (int64_t i = 0; i < x->size; i++) {
                    /* near 1 (products stay finite for a while); for the first shape some
                     * specials too, for the second none (a NaN or an infinity in every row
                     * would hide the order of the additions) */
                    int r = test_rand_below(&rng, 40);
                    d[i] = s == 0 && r < 7 ? special[r] : 1.0f + test_rand_float(&rng) / 64.0f;
                }
                if (view == 1) { /* the transpose: a view whose dim 0 is contiguous */
                    struct mt_tensor *v = NULL;
                    CHECK_INT(mt_permute(ctx, x, 2, (int64_t[]){1, 0}, &v), MT_OK);
                    mt_tensor_release(x);
                    x = v;
                }
                for (int dim = 0; dim < nd; dim++) {
                    struct mt_tensor *out = NULL;
                    seen = 0;
                    mt_ctx_set_diag(ctx, on_diag, NULL);
                    CHECK_INT(mt_reduce_prog(ctx, &p, x, dim, -0.0f, &out), MT_OK);
                    mt_ctx_set_diag(ctx, NULL, NULL);
                    if (!out) continue;
                    CHECK_INT(seen, 1);
                    CHECK(!!strstr(last.path, "built-in fold kernel") == folds[f].kernel);
                    const int bad = reduce_mismatches(&p, x, dim, -0.0f, out);
                    if (bad)
                        fprintf(stderr,
                                "  %s%s(r%d, r%d) dim %d of %lld x %lld%s: %d outputs differ\n",
                                folds[f].select ? "select on " : "", mt_prog_op_name(folds[f].op),
                                folds[f].a, folds[f].b, dim, (long long)shapes[s][0],
                                (long long)shapes[s][1],
                                view == 1   ? " (transposed)"
                                : view == 2 ? " (3-D, 3 x it)"
                                            : "",
                                bad);
                    CHECK(bad == 0);
                    mt_tensor_release(out);
                }
                mt_tensor_release(x);
            }
}

/* Few outputs go one at a time (prog.c's serial_block): fn(acc, x) split into g(x), run over
 * pieces of 2,048 in vector chunks, and the chain on (acc, g(x)), a fold kernel's or element by
 * element. Random g (clamped, so that the fold stays finite for a while) under chains of every
 * kind, and fully random programs; along dims of several pieces, contiguous, strided and
 * transposed; against the reference bit for bit (no exp, log, sigmoid or tanh: fast's vector
 * routines round differently from libm), with the path the diagnostics name. */
static void test_reduce_few_outputs(void)
{
    uint64_t rng = 2026;
    enum { WHOLE, FOLD, ELEMENTS, NPATHS };
    /* and the blocks, where fn itself is a fold kernel's or the outputs are too many */
    const char *const paths[NPATHS + 2] = {
        "user function, one output at a time, element by element",
        "user function, one output at a time: the part without acc in fused blocks, then a "
        "built-in fold kernel",
        "user function, one output at a time: the part without acc in fused blocks, then "
        "element by element",
        "user function, fused blocks (a built-in fold kernel)", "user function, fused blocks"};
    int taken[NPATHS + 2] = {0};
    /* the chain on acc (r0) and v: {op, a, b}, then for a select, select(op's result, r0, v);
     * kind: the path expected when g is more than x */
    const struct {
        enum mt_prog_op op;
        bool select, scaled; /* scaled: op(acc * 0.5, v) */
        int a, b;            /* 0: acc, 1: v */
        int kind;
    } chains[] = {
        {MT_P_ADD, false, false, 0, 1, FOLD},     {MT_P_ADD, false, false, 1, 0, FOLD},
        {MT_P_MUL, false, false, 0, 1, FOLD},     {MT_P_MAX, false, false, 1, 0, FOLD},
        {MT_P_GT, true, false, 0, 1, FOLD},       {MT_P_MAX, false, false, 0, 1, ELEMENTS},
        {MT_P_MIN, false, false, 0, 1, ELEMENTS}, {MT_P_SUB, false, false, 0, 1, ELEMENTS},
        {MT_P_ADD, false, true, 0, 1, ELEMENTS},  {MT_P_LT, true, false, 1, 0, FOLD},
        {MT_P_GE, true, true, 0, 1, ELEMENTS}};
    const size_t nchains = sizeof chains / sizeof chains[0];
    /* {outputs, length} as rows; 5,000 is three pieces, the last partial. Up to 4 outputs go one
     * at a time on any number of threads; 64 may (the fold kernel's chain, 2 threads) */
    const int64_t shapes[][2] = {{1, 5000}, {3, 4100}, {2, 2048}, {4, 700}, {64, 90}};
    static struct mt_prog_insn insn[64];
    int failures = 0;
    for (int t = 0; t < 120; t++) {
        /* g: a random program of x (its registers moved up by one, past acc), clamped to
         * [-2, 2]; then the chain; every seventh a random program of (acc, x) instead */
        struct mt_prog p;
        const size_t c = (size_t)t % nchains;
        const bool random_fn = t % 7 == 6;
        if (random_fn) {
            random_prog(&rng, 2, 1 + test_rand_below(&rng, 12), false, insn, &p);
        } else {
            const int ng = test_rand_below(&rng, 8); /* 0: v is x, the chain is the program */
            random_prog(&rng, 1, ng, false, insn, &p);
            for (int i = 0; i < ng; i++) {
                insn[i].dst++;
                insn[i].a++, insn[i].b++, insn[i].c++;
            }
            int n = ng, v = ng ? 1 + ng : 1, acc = 0;
#define EMIT(...) (insn[n] = (struct mt_prog_insn){.dst = 2 + n, __VA_ARGS__}, 2 + n++)
            if (ng) {
                const int hi = EMIT(.op = MT_P_CONST, .imm = 2.0f);
                v = EMIT(.op = MT_P_MIN, .a = v, .b = hi);
                const int lo = EMIT(.op = MT_P_CONST, .imm = -2.0f);
                v = EMIT(.op = MT_P_MAX, .a = v, .b = lo);
            }
            if (chains[c].scaled) {
                const int half = EMIT(.op = MT_P_CONST, .imm = 0.5f);
                acc = EMIT(.op = MT_P_MUL, .a = 0, .b = half);
            }
            const int ops[2] = {acc, v};
            int r = EMIT(.op = chains[c].op, .a = ops[chains[c].a], .b = ops[chains[c].b]);
            if (chains[c].select) r = EMIT(.op = MT_P_SELECT, .a = r, .b = acc, .c = v);
#undef EMIT
            p = (struct mt_prog){
                .name = "g then chain", .nargs = 2, .ninsn = n, .insn = insn, .result = r};
        }
        CHECK_INT(mt_prog_check(ctx, &p), MT_OK);
        const int64_t *sh = shapes[test_rand_below(&rng, 5)];
        /* view 0: rows (dim 1, contiguous); 1: the transpose, dim 0 (contiguous again, from
         * the other side); 2: 3-D with the rows in the middle (dim 1, strided); 3: a
         * transposed view's dim 1 (strided) */
        const int view = test_rand_below(&rng, 4);
        struct mt_tensor *x = NULL;
        int dim = 1;
        if (view == 2) {
            x = random_tensor(&rng, MT_BACKEND_FAST, 3, (const int64_t[]){1, sh[1], sh[0]});
        } else {
            const int64_t shape[2] = {view == 3 ? sh[1] : sh[0], view == 3 ? sh[0] : sh[1]};
            x = random_tensor(&rng, MT_BACKEND_FAST, 2, shape);
            if (view >= 1) {
                struct mt_tensor *v = NULL;
                CHECK_INT(mt_permute(ctx, x, 2, (const int64_t[]){1, 0}, &v), MT_OK);
                mt_tensor_release(x);
                x = v;
                dim = view == 1 ? 0 : 1;
            }
        }
        struct mt_tensor *out = NULL;
        seen = 0;
        mt_ctx_set_diag(ctx, on_diag, NULL);
        CHECK_INT(mt_reduce_prog(ctx, &p, x, dim, 0.25f, &out), MT_OK);
        mt_ctx_set_diag(ctx, NULL, NULL);
        if (!out) {
            mt_tensor_release(x);
            continue;
        }
        CHECK_INT(seen, 1);
        int path = -1;
        for (int k = 0; k < NPATHS + 2; k++)
            if (strcmp(last.path, paths[k]) == 0) path = k;
        if (path < 0) fprintf(stderr, "  program %d: path %s\n", t, last.path);
        CHECK(path >= 0);
        if (path >= 0) taken[path]++;
        if (!random_fn && p.ninsn > 2 + chains[c].scaled * 2 + chains[c].select && out->size <= 4)
            CHECK_INT(path, chains[c].kind); /* g was more than x: split */
        const int bad = reduce_mismatches(&p, x, dim, 0.25f, out);
        if (bad && failures++ < 3)
            fprintf(stderr, "  program %d (%d ops, view %d, %s): %d of %lld outputs differ\n", t,
                    p.ninsn, view, last.path, bad, (long long)out->size);
        CHECK(bad == 0);
        mt_tensor_release(out);
        mt_tensor_release(x);
    }
    for (int k = 0; k < NPATHS; k++) {
        if (!taken[k]) fprintf(stderr, "  no program took the path: %s\n", paths[k]);
        CHECK(taken[k] > 0);
    }
}

/* a user function has no derivative: backward through its result is a clear error */
static void test_backward_refused(void)
{
    uint64_t rng = 11;
    struct mt_prog_insn in = {.op = MT_P_RELU, .dst = 1, .a = 0};
    struct mt_prog p = {.name = "myrelu", .nargs = 1, .ninsn = 1, .insn = &in, .result = 1};
    int64_t shape[1] = {6};
    struct mt_tensor *x = random_tensor(&rng, MT_BACKEND_FAST, 1, shape), *y = NULL, *s = NULL;
    CHECK_INT(mt_map_prog(ctx, &p, x, &y), MT_OK);
    CHECK(y && !y->requires_grad); /* nothing to refuse when no input needs a gradient */
    mt_tensor_release(y);
    y = NULL;
    CHECK_INT(mt_tensor_requires_grad(x, true), MT_OK);
    CHECK_INT(mt_map_prog(ctx, &p, x, &y), MT_OK);
    CHECK(y && y->requires_grad);
    CHECK_INT(mt_sum(ctx, y, MT_ALL_DIMS, &s), MT_OK);
    CHECK_INT(mt_backward(ctx, s, NULL), MT_ERR_GRAD);
    CHECK(strstr(mt_ctx_error(ctx), "backward cannot pass through map(myrelu)") != NULL);
    CHECK(x->grad == NULL);
    mt_tensor_release(s);
    mt_tensor_release(y);
    mt_tensor_release(x);
}

/* ---- the cuda backend's source ----------------------------------------------------------- */

/* What the generated kernel says, checked as text: each instruction in order, constants by
 * their bits, Python's min, and the reduction's fold. */
static void test_cuda_source_text(void)
{
    struct mt_prog_insn in[3] = {{.op = MT_P_CONST, .dst = 2, .imm = 1.5f},
                                 {.op = MT_P_MUL, .dst = 3, .a = 1, .b = 2},
                                 {.op = MT_P_MIN, .dst = 4, .a = 0, .b = 3}};
    struct mt_prog p = {.name = "g", .nargs = 2, .ninsn = 3, .insn = in, .result = 4};
    char *zip = mt_prog_cuda_source(&p, "zip", true),
         *red = mt_prog_cuda_source(&p, "reduce", false);
    CHECK(zip && red);
    CHECK(mt_prog_cuda_source(&p, "matmul", true) == NULL);
    /* what a reader is shown names the engine's functions; what compiles defines them */
    CHECK(zip && strstr(zip, "#include \"scalar.h\"") && !strstr(zip, "mt_s_mul(float a"));
    CHECK(red && !strstr(red, "#include \"scalar.h\"") && strstr(red, "mt_s_sigmoid(float x)"));
    if (!zip || !red) return;
    CHECK(strstr(zip, "/* zip(g), generated by minitorch-kernel") == zip);
    CHECK(strstr(zip, "extern \"C\" __global__ void mt_user(mt_view out, mt_view a, mt_view b,") !=
          NULL);
    CHECK(strstr(zip, "const float r2 = __int_as_float(0x3fc00000); /* 1.5 */") != NULL);
    CHECK(strstr(zip, "const float r3 = mt_s_mul(r1, r2);") != NULL);
    CHECK(strstr(zip, "const float r4 = r3 < r0 ? r3 : r0;") != NULL); /* b if b < a else a */
    CHECK(strstr(zip, "out.data[flat ? i : mt_pos(out, out, i)] = r4;") != NULL);
    CHECK(strstr(red, "float acc = start;") != NULL);
    CHECK(strstr(red, "const float r0 = acc, r1 = a.data[base + j * a.strides[dim]];") != NULL);
    CHECK(strstr(red, "acc = r4;") != NULL);
    free(zip);
    free(red);
}

/* Random programs using every op, as map, zip and reduce kernels: NVRTC compiles each as the
 * cuda backend would. */
static void test_cuda_source_compiles(void)
{
    uint64_t rng = 2026;
    static struct mt_prog_insn insn[48];
    const char *kinds[] = {"map", "zip", "reduce"};
    int compiled = 0, used[MT_P_COUNT] = {0};
    for (int t = 0; t < 24; t++) {
        const char *kind = kinds[t % 3];
        struct mt_prog p;
        random_prog(&rng, strcmp(kind, "map") == 0 ? 1 : 2, 8 + t, true, insn, &p);
        for (int i = 0; i < p.ninsn; i++) used[p.insn[i].op]++;
        char *src = mt_prog_cuda_source(&p, kind, false);
        CHECK(src != NULL);
        int r = src ? nvrtc_compile_source(src, "user_function.cu") : -1;
        CHECK_INT(r, 0);
        compiled += r == 0;
        free(src);
    }
    for (int op = 0; op < MT_P_COUNT; op++)
        if (!used[op])
            fprintf(stderr, "  op %s never generated\n", mt_prog_op_name((enum mt_prog_op)op));
    CHECK_INT(compiled, 24);
    printf("  NVRTC compiled %d generated kernels (map, zip, reduce)\n", compiled);
}

int main(void)
{
    ctx = mt_ctx_new();
    RUN_TEST(test_check_rejects);
    RUN_TEST(test_random_elementwise);
    RUN_TEST(test_builtin_equivalence);
    RUN_TEST(test_large_outputs);
    RUN_TEST(test_reduce_order);
    RUN_TEST(test_outputs_and_errors);
    RUN_TEST(test_diagnostics);
    RUN_TEST(test_reduce_one_op_folds);
    RUN_TEST(test_reduce_few_outputs);
    RUN_TEST(test_backward_refused);
    RUN_TEST(test_cuda_source_text);
    if (open_nvrtc())
        RUN_TEST(test_cuda_source_compiles);
    else /* not a pass: said, and not counted */
        printf("SKIPPED 1 test (the generated CUDA C through NVRTC): libnvrtc is not installed\n");
    CHECK_INT(mt_ctx_mem_used(ctx), 0);
    mt_ctx_free(ctx);
    return TEST_SUMMARY();
}
