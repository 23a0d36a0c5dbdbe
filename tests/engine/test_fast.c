/* test_fast.c — the fast backend against its slow twin, the simple backend.
 *
 * Every map, zip and reduce op and matmul runs on both backends over many shapes (1-4 dims,
 * sizes 0-3 and larger ones up to a few hundred) and layouts (contiguous, permuted, sliced
 * with an offset, broadcast with stride 0, a broadcast operand, a strided output, in place, a
 * map into a larger output), and the results are compared:
 *
 * - exactly (bit for bit, any NaN equal to any NaN) where both backends do the same IEEE
 *   operations on each element: every zip, neg/id/inv/relu/abs/sqrt, max, and reductions the
 *   fast backend folds in simple's order;
 * - within 4 float32 ulps for exp/log/sigmoid/tanh: the fast backend's vector routines are
 *   within 2.3 ulp of the float64 function (measured over all floats), libm's within about
 *   the same, so they may differ by up to about 4 ulp; 4 * FLT_EPSILON * |x| is at least 4 ulp;
 * - within the rounding-error bound of recursive summation for sum/mean/prod and matmul: both
 *   backends' results are within (n-1) * 2^-24 * sum|terms| of the exact value, whatever the
 *   order they add in, so they are within twice that of each other (sum|terms| comes from the
 *   simple backend on |x|, |a| @ |b|).
 *
 * Then fast with 1 thread against fast with 2 threads, bit for bit (memcmp), for every op on
 * sizes where the parallel path runs (the diagnostics hook confirms 2 threads ran), and a
 * raised cancel flag stops big ops with MT_ERR_CANCELLED. The whole program runs a second time
 * with MT_FAST_ISA=generic (a child process), so both instruction-set tables are covered.
 * Only the public API is used. */
#include "minitorch/minitorch.h"
#include "test.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static struct mt_ctx *ctx;

/* ---- data -------------------------------------------------------------------------------- */

static uint64_t rng = 0x9E3779B97F4A7C15u;

static float urand(float lo, float hi)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return lo + (hi - lo) * (float)((double)(rng >> 40) / (double)(1ull << 24));
}

static int64_t shape_size(int nd, const int64_t *shape)
{
    int64_t n = 1;
    for (int i = 0; i < nd; i++) n *= shape[i];
    return n;
}

/* A contiguous simple tensor with values in [lo, hi). */
static struct mt_tensor *filled(int nd, const int64_t *shape, float lo, float hi)
{
    int64_t n = shape_size(nd, shape);
    float *data = malloc((size_t)(n > 0 ? n : 1) * sizeof *data);
    for (int64_t i = 0; i < n; i++) data[i] = urand(lo, hi);
    struct mt_tensor *t = NULL;
    CHECK_INT(mt_from_data(ctx, MT_BACKEND_SIMPLE, nd, shape, data, &t), MT_OK);
    free(data);
    return t;
}

enum layout { L_CONTIG, L_PERMUTED, L_SLICED, L_BCAST, L_COUNT };
static const char *const layout_names[L_COUNT] = {"contiguous", "permuted", "sliced", "broadcast"};

/* A simple-backend tensor of `shape` in the given layout:
 * permuted: a contiguous tensor of the reversed shape seen through the reversing permutation
 *   (1-D: every other element);
 * sliced: the interior of a tensor one larger in every dim (offset, padded rows);
 * broadcast: every odd dim of size > 1 has stride 0 (one value repeated along it). */
static struct mt_tensor *make(int nd, const int64_t *shape, enum layout layout, float lo, float hi)
{
    struct mt_tensor *base = NULL, *t = NULL;
    int64_t s2[MT_MAX_DIMS] = {0}, strides[MT_MAX_DIMS] = {0}, order[MT_MAX_DIMS] = {0};
    int64_t offset = 0;
    switch (layout) {
    case L_PERMUTED:
        if (nd == 1) {
            s2[0] = 2 * shape[0] + 1;
            base = filled(1, s2, lo, hi);
            strides[0] = 2;
            CHECK_INT(mt_as_strided(ctx, base, 1, shape, strides, 1, &t), MT_OK);
            break;
        }
        for (int i = 0; i < nd; i++) {
            s2[i] = shape[nd - 1 - i];
            order[i] = nd - 1 - i;
        }
        base = filled(nd, s2, lo, hi);
        CHECK_INT(mt_permute(ctx, base, nd, order, &t), MT_OK);
        break;
    case L_SLICED:
        for (int i = 0; i < nd; i++) s2[i] = shape[i] + 1;
        base = filled(nd, s2, lo, hi);
        for (int i = nd - 1, st = 1; i >= 0; i--) {
            strides[i] = st;
            offset += st;
            st *= (int)s2[i];
        }
        CHECK_INT(mt_as_strided(ctx, base, nd, shape, strides, offset, &t), MT_OK);
        break;
    case L_BCAST:
        for (int i = 0; i < nd; i++) s2[i] = (i % 2 == 1) ? 1 : shape[i];
        base = filled(nd, s2, lo, hi);
        for (int i = nd - 1, st = 1; i >= 0; i--) {
            strides[i] = s2[i] == 1 && shape[i] != 1 ? 0 : st;
            st *= (int)s2[i];
        }
        CHECK_INT(mt_as_strided(ctx, base, nd, shape, strides, 0, &t), MT_OK);
        break;
    default: return filled(nd, shape, lo, hi);
    }
    mt_tensor_release(base);
    return t;
}

static struct mt_tensor *to_fast(struct mt_tensor *t)
{
    struct mt_tensor *f = NULL;
    CHECK_INT(mt_to(ctx, t, MT_BACKEND_FAST, &f), MT_OK);
    return f;
}

/* An uninitialised contiguous tensor, or (strided) a transposed view of one. */
static struct mt_tensor *out_tensor(enum mt_backend b, int nd, const int64_t *shape, bool strided)
{
    struct mt_tensor *t = NULL, *v = NULL;
    int64_t rev[MT_MAX_DIMS], order[MT_MAX_DIMS];
    if (!strided || nd < 2) {
        CHECK_INT(mt_full(ctx, b, nd, shape, -7.0f, &t), MT_OK);
        return t;
    }
    for (int i = 0; i < nd; i++) {
        rev[i] = shape[nd - 1 - i];
        order[i] = nd - 1 - i;
    }
    CHECK_INT(mt_full(ctx, b, nd, rev, -7.0f, &t), MT_OK);
    CHECK_INT(mt_permute(ctx, t, nd, order, &v), MT_OK);
    mt_tensor_release(t);
    return v;
}

/* ---- comparison -------------------------------------------------------------------------- */

static char what[256]; /* the case being compared, for failure messages */

static float *values(const struct mt_tensor *t)
{
    float *v = malloc((size_t)(t->size > 0 ? t->size : 1) * sizeof *v);
    mt_tensor_copy_out(t, v);
    return v;
}

/* fast against simple: |f - s| <= bound[i] (bound NULL: bit for bit); NaN matches NaN. */
static void compare(const struct mt_tensor *fast, const struct mt_tensor *simple,
                    const float *bound)
{
    CHECK_INT(fast->size, simple->size);
    if (fast->size != simple->size) return;
    float *f = values(fast), *s = values(simple);
    int bad = 0;
    for (int64_t i = 0; i < fast->size; i++) {
        bool ok;
        if (isnan(f[i]) || isnan(s[i]))
            ok = isnan(f[i]) && isnan(s[i]);
        else if (!bound || isinf(s[i]) || isinf(f[i]))
            ok = memcmp(&f[i], &s[i], sizeof f[i]) == 0;
        else
            ok = fabsf(f[i] - s[i]) <= bound[i];
        if (!ok && bad++ < 3)
            fprintf(stderr, "  %s: element %lld: fast %.9g, simple %.9g (bound %.3g)\n", what,
                    (long long)i, (double)f[i], (double)s[i], bound ? (double)bound[i] : 0.0);
    }
    CHECK(bad == 0);
    free(f);
    free(s);
}

/* 4 ulp of the simple result (see the top of the file), plus a few subnormal steps. */
static float *ulp_bound(const struct mt_tensor *simple)
{
    float *b = values(simple);
    for (int64_t i = 0; i < simple->size; i++)
        b[i] = 4.0f * FLT_EPSILON * fabsf(b[i]) + 8.0f * 1.401298e-45f;
    return b;
}

/* 2 * (n-1) * 2^-24 * sum|terms| per element (n terms), from `abs_sum` (a simple tensor). */
static float *sum_bound(const struct mt_tensor *abs_sum, int64_t n)
{
    float *b = values(abs_sum);
    double k = 2.0 * (double)(n > 1 ? n : 1) * ldexp(1.0, -24) * 1.01;
    for (int64_t i = 0; i < abs_sum->size; i++) b[i] = (float)(k * fabs((double)b[i])) + 1e-30f;
    return b;
}

static bool map_is_exact(enum mt_map_op op)
{
    return op != MT_MAP_EXP && op != MT_MAP_LOG && op != MT_MAP_SIGMOID && op != MT_MAP_TANH;
}

static void map_range(enum mt_map_op op, float *lo, float *hi)
{
    *lo = -3.0f;
    *hi = 3.0f;
    if (op == MT_MAP_LOG || op == MT_MAP_SQRT) *lo = -0.5f; /* some NaN, mostly not */
    if (op == MT_MAP_SIGMOID || op == MT_MAP_TANH) *lo = -12.0f, *hi = 12.0f;
}

/* ---- shapes ------------------------------------------------------------------------------ */

struct shape {
    int nd;
    int64_t s[4];
};

static const struct shape shapes[] = {
    {1, {1}},          {1, {3}},          {1, {0}},           {1, {17}},         {1, {1000}},
    {2, {1, 1}},       {2, {2, 3}},       {2, {3, 1}},        {2, {0, 3}},       {2, {3, 0}},
    {2, {7, 300}},     {2, {300, 7}},     {2, {33, 65}},      {2, {64, 64}},     {3, {2, 3, 1}},
    {3, {3, 1, 2}},    {3, {2, 0, 3}},    {3, {5, 9, 70}},    {3, {1, 3, 3}},    {4, {2, 3, 1, 3}},
    {4, {3, 2, 3, 2}}, {4, {5, 1, 5, 1}}, {4, {2, 3, 4, 37}}, {4, {1, 1, 1, 1}},
};
#define NSHAPES (int)(sizeof shapes / sizeof shapes[0])

static char *shape_str(const struct shape *sh, char *buf, size_t len)
{
    return mt_shape_str(sh->nd, sh->s, buf, len);
}

/* ---- fast vs simple ---------------------------------------------------------------------- */

static void check_map_case(enum mt_map_op op, const struct shape *sh, enum layout layout)
{
    char sb[64];
    float lo, hi;
    map_range(op, &lo, &hi);
    struct mt_tensor *s = make(sh->nd, sh->s, layout, lo, hi), *f = to_fast(s);
    struct mt_tensor *rs = NULL, *rf = NULL;
    snprintf(what, sizeof what, "%s %s %s", mt_map_name(op), shape_str(sh, sb, sizeof sb),
             layout_names[layout]);
    CHECK_INT(mt_map(ctx, op, s, &rs), MT_OK);
    CHECK_INT(mt_map(ctx, op, f, &rf), MT_OK);
    if (rs && rf) {
        CHECK_INT(rf->backend, MT_BACKEND_FAST);
        float *b = map_is_exact(op) ? NULL : ulp_bound(rs);
        compare(rf, rs, b);
        free(b);
    }
    mt_tensor_release(rs);
    mt_tensor_release(rf);
    mt_tensor_release(f);
    mt_tensor_release(s);
}

static void test_map_vs_simple(void)
{
    for (int op = 0; op < MT_MAP_COUNT; op++)
        for (int i = 0; i < NSHAPES; i++)
            for (int l = 0; l < L_COUNT; l++) check_map_case((enum mt_map_op)op, &shapes[i], l);
}

/* Special values through every map: NaN, infinities, signed zeros, subnormals, the edges of
 * exp's range and log's domain. */
static void test_map_special_values(void)
{
    static const float specials[] = {
        0.0f,     -0.0f,       INFINITY,    -INFINITY,   NAN,        -NAN,      1.0f,
        -1.0f,    FLT_MIN,     -FLT_MIN,    1e-40f,      -1e-40f,    1.4e-45f,  FLT_MAX,
        -FLT_MAX, 88.7228f,    88.72284f,   89.0f,       -87.3f,     -103.9f,   -104.0f,
        -150.0f,  0.625f,      -0.625f,     0.6249999f,  9.0f,       -9.0f,     20.0f,
        1e-7f,    -1e-7f,      0.70710677f, 1.4142135f,  0.5f,       2.0f,      1e30f,
        3.0e-39f, 0.99999994f, 1.0000001f,  -0.3465736f, 0.3465736f, 44.36142f, -44.36142f,
    };
    int n = (int)(sizeof specials / sizeof specials[0]);
    int64_t shape[1] = {n};
    struct mt_tensor *s = NULL, *f = NULL;
    CHECK_INT(mt_from_data(ctx, MT_BACKEND_SIMPLE, 1, shape, specials, &s), MT_OK);
    f = to_fast(s);
    for (int op = 0; op < MT_MAP_COUNT; op++) {
        struct mt_tensor *rs = NULL, *rf = NULL;
        snprintf(what, sizeof what, "%s of special values", mt_map_name((enum mt_map_op)op));
        CHECK_INT(mt_map(ctx, (enum mt_map_op)op, s, &rs), MT_OK);
        CHECK_INT(mt_map(ctx, (enum mt_map_op)op, f, &rf), MT_OK);
        float *b = map_is_exact((enum mt_map_op)op) ? NULL : ulp_bound(rs);
        compare(rf, rs, b);
        free(b);
        mt_tensor_release(rs);
        mt_tensor_release(rf);
    }
    mt_tensor_release(f);
    mt_tensor_release(s);
}

/* Map into a larger output (a broadcasts to out's shape), and in place (out is a). */
static void test_map_into_out(void)
{
    static const struct {
        struct shape a, out;
    } cases[] = {
        {{1, {1}}, {2, {3, 4}}},
        {{3, {3, 1, 4}}, {4, {2, 3, 5, 4}}},
        {{2, {5, 1}}, {2, {5, 300}}},
        {{1, {300}}, {3, {4, 50, 300}}},
    };
    char sb[64], sb2[64];
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        for (int op = 0; op < MT_MAP_COUNT; op++) {
            float lo, hi;
            map_range((enum mt_map_op)op, &lo, &hi);
            struct mt_tensor *s = filled(cases[c].a.nd, cases[c].a.s, lo, hi), *f = to_fast(s);
            struct mt_tensor *os =
                out_tensor(MT_BACKEND_SIMPLE, cases[c].out.nd, cases[c].out.s, false);
            struct mt_tensor *of =
                out_tensor(MT_BACKEND_FAST, cases[c].out.nd, cases[c].out.s, c % 2 == 1);
            struct mt_tensor *ps = os, *pf = of;
            snprintf(what, sizeof what, "%s %s into %s", mt_map_name((enum mt_map_op)op),
                     shape_str(&cases[c].a, sb, sizeof sb),
                     shape_str(&cases[c].out, sb2, sizeof sb2));
            CHECK_INT(mt_map(ctx, (enum mt_map_op)op, s, &ps), MT_OK);
            CHECK_INT(mt_map(ctx, (enum mt_map_op)op, f, &pf), MT_OK);
            CHECK(ps == os && pf == of);
            float *b = map_is_exact((enum mt_map_op)op) ? NULL : ulp_bound(os);
            compare(of, os, b);
            free(b);
            mt_tensor_release(os);
            mt_tensor_release(of);
            mt_tensor_release(f);
            mt_tensor_release(s);
        }
    }
    /* in place, contiguous and permuted */
    for (int l = 0; l < 2; l++) {
        int64_t shape[2] = {70, 300};
        struct mt_tensor *s = make(2, shape, l ? L_PERMUTED : L_CONTIG, -2, 2), *f = NULL;
        struct mt_tensor *rs = NULL, *r;
        snprintf(what, sizeof what, "neg in place (%s)", layout_names[l]);
        CHECK_INT(mt_map(ctx, MT_MAP_NEG, s, &rs), MT_OK); /* simple, out of place */
        f = to_fast(s);                                    /* then fast in place */
        r = f;
        CHECK_INT(mt_map(ctx, MT_MAP_NEG, f, &r), MT_OK);
        compare(f, rs, NULL);
        mt_tensor_release(rs);
        mt_tensor_release(f);
        mt_tensor_release(s);
    }
}

static void zip_range(enum mt_zip_op op, float *lo, float *hi)
{
    *lo = -2.0f;
    *hi = 2.0f;
    if (op == MT_ZIP_EQ || op == MT_ZIP_IS_CLOSE) *lo = 0.0f, *hi = 0.02f; /* some equal/close */
}

/* a and b of the given shapes and layouts, out fresh or strided (preallocated). */
static void check_zip_case(enum mt_zip_op op, const struct shape *sa, enum layout la,
                           const struct shape *sb, enum layout lb, bool strided_out)
{
    char b1[64], b2[64];
    float lo, hi;
    zip_range(op, &lo, &hi);
    struct mt_tensor *as = make(sa->nd, sa->s, la, lo, hi), *bs = make(sb->nd, sb->s, lb, lo, hi);
    if (op == MT_ZIP_EQ) { /* make sure some elements are equal: b's first values from a */
        float v;
        int64_t zero[MT_MAX_DIMS] = {0};
        mt_tensor_get(ctx, as, as->ndim, zero, &v);
        if (bs->size) mt_tensor_set(ctx, bs, bs->ndim, zero, v);
    }
    struct mt_tensor *af = to_fast(as), *bf = to_fast(bs), *rs = NULL, *rf = NULL;
    snprintf(what, sizeof what, "%s %s %s with %s %s%s", mt_zip_name(op), shape_str(sa, b1, 64),
             layout_names[la], shape_str(sb, b2, 64), layout_names[lb],
             strided_out ? " into a strided out" : "");
    if (strided_out) {
        int n;
        int64_t shape[MT_MAX_DIMS];
        CHECK_INT(mt_shape_broadcast(ctx, sa->nd, sa->s, sb->nd, sb->s, &n, shape), MT_OK);
        rs = out_tensor(MT_BACKEND_SIMPLE, n, shape, true);
        rf = out_tensor(MT_BACKEND_FAST, n, shape, true);
    }
    CHECK_INT(mt_zip(ctx, op, as, bs, &rs), MT_OK);
    CHECK_INT(mt_zip(ctx, op, af, bf, &rf), MT_OK);
    if (rs && rf) compare(rf, rs, NULL); /* same IEEE operation per element: exact */
    mt_tensor_release(rs);
    mt_tensor_release(rf);
    mt_tensor_release(af);
    mt_tensor_release(bf);
    mt_tensor_release(as);
    mt_tensor_release(bs);
}

static void test_zip_vs_simple(void)
{
    static const struct {
        struct shape a, b;
    } pairs[] = {
        {{1, {1}}, {1, {1}}},
        {{1, {1}}, {2, {3, 4}}},
        {{2, {3, 4}}, {1, {1}}},
        {{4, {5, 1, 5, 1}}, {4, {1, 5, 1, 5}}},
        {{2, {7, 300}}, {1, {300}}},
        {{2, {7, 300}}, {2, {7, 1}}},
        {{2, {300, 7}}, {2, {1, 7}}},
        {{3, {2, 3, 1}}, {2, {1, 4}}},
        {{3, {5, 9, 70}}, {3, {5, 9, 70}}},
        {{2, {0, 3}}, {1, {3}}},
        {{3, {2, 0, 3}}, {3, {2, 1, 3}}},
        {{4, {2, 3, 4, 37}}, {3, {3, 1, 37}}},
        {{1, {1000}}, {1, {1000}}},
        {{2, {1, 1}}, {2, {1, 1}}},
    };
    for (int op = 0; op < MT_ZIP_COUNT; op++)
        for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++)
            for (int la = 0; la < L_COUNT; la++) {
                int lb = (la + (int)p) % L_COUNT;
                check_zip_case((enum mt_zip_op)op, &pairs[p].a, la, &pairs[p].b, lb, false);
                if (la == 0) /* the same, into a transposed preallocated out */
                    check_zip_case((enum mt_zip_op)op, &pairs[p].a, la, &pairs[p].b, lb, true);
            }
    /* every layout against every layout on one shape */
    for (int la = 0; la < L_COUNT; la++)
        for (int lb = 0; lb < L_COUNT; lb++)
            check_zip_case(MT_ZIP_ADD, &shapes[19], la, &shapes[19], lb, false);
}

static void check_reduce_case(enum mt_reduce_op op, const struct shape *sh, enum layout layout,
                              int dim, bool strided_out)
{
    char sb[64];
    /* products near 1, so that no order overflows where another does not */
    float lo = op == MT_RED_PROD ? 0.95f : -1.0f, hi = op == MT_RED_PROD ? 1.05f : 1.0f;
    struct mt_tensor *s = make(sh->nd, sh->s, layout, lo, hi), *f = to_fast(s);
    struct mt_tensor *rs = NULL, *rf = NULL;
    snprintf(what, sizeof what, "%s dim %d of %s %s%s", mt_reduce_name(op), dim,
             shape_str(sh, sb, sizeof sb), layout_names[layout],
             strided_out ? " into a strided out" : "");
    if (strided_out && dim != MT_ALL_DIMS) {
        int64_t shape[MT_MAX_DIMS];
        memcpy(shape, sh->s, sizeof shape[0] * (size_t)sh->nd);
        shape[dim] = 1;
        rs = out_tensor(MT_BACKEND_SIMPLE, sh->nd, shape, true);
        rf = out_tensor(MT_BACKEND_FAST, sh->nd, shape, true);
    }
    CHECK_INT(mt_reduce(ctx, op, s, dim, &rs), MT_OK);
    CHECK_INT(mt_reduce(ctx, op, f, dim, &rf), MT_OK);
    if (rs && rf) {
        float *b = NULL;
        int64_t n = dim == MT_ALL_DIMS ? s->size : sh->s[dim];
        if (op == MT_RED_SUM || op == MT_RED_MEAN) {
            struct mt_tensor *abs = NULL, *as = NULL;
            CHECK_INT(mt_map(ctx, MT_MAP_ABS, s, &abs), MT_OK);
            CHECK_INT(mt_reduce(ctx, op, abs, dim, &as), MT_OK);
            b = sum_bound(as, n);
            mt_tensor_release(abs);
            mt_tensor_release(as);
        } else if (op == MT_RED_PROD) {
            b = sum_bound(rs, n); /* relative: products round relatively */
        }
        compare(rf, rs, b);
        free(b);
    }
    mt_tensor_release(rs);
    mt_tensor_release(rf);
    mt_tensor_release(f);
    mt_tensor_release(s);
}

static void test_reduce_vs_simple(void)
{
    for (int op = 0; op < MT_RED_COUNT; op++)
        for (int i = 0; i < NSHAPES; i++)
            for (int l = 0; l < L_COUNT; l++) {
                for (int dim = 0; dim < shapes[i].nd; dim++)
                    check_reduce_case((enum mt_reduce_op)op, &shapes[i], l, dim, l == L_SLICED);
                check_reduce_case((enum mt_reduce_op)op, &shapes[i], l, MT_ALL_DIMS, false);
            }
    /* long rows: several row blocks, split between threads when there are few rows */
    static const struct shape longs[] = {{1, {100000}}, {2, {3, 40000}}, {2, {40000, 3}}};
    for (int op = 0; op < MT_RED_COUNT; op++)
        for (int i = 0; i < 3; i++)
            for (int dim = 0; dim < longs[i].nd; dim++)
                check_reduce_case((enum mt_reduce_op)op, &longs[i], L_CONTIG, dim, false);
}

/* max keeps simple's answer bit for bit even where the order matters: NaN in the middle of a
 * row (simple forgets it at the next element), zeros of both signs (the later one wins). */
static void test_reduce_max_order(void)
{
    int64_t shape[2] = {6, 200};
    float *data = malloc(1200 * sizeof *data);
    for (int i = 0; i < 1200; i++) data[i] = urand(-3.0f, -1.0f);
    data[0 * 200 + 50] = NAN;                               /* row 0: NaN early */
    data[1 * 200 + 199] = NAN;                              /* row 1: NaN last */
    data[2 * 200 + 10] = 0.0f, data[2 * 200 + 150] = -0.0f; /* row 2: +0 then -0 */
    data[3 * 200 + 10] = -0.0f, data[3 * 200 + 150] = 0.0f; /* row 3: -0 then +0 */
    data[4 * 200 + 7] = INFINITY;                           /* row 4: +inf */
    data[5 * 200 + 7] = -INFINITY;                          /* row 5: -inf among finite */
    struct mt_tensor *s = NULL, *f = NULL, *rs = NULL, *rf = NULL;
    CHECK_INT(mt_from_data(ctx, MT_BACKEND_SIMPLE, 2, shape, data, &s), MT_OK);
    f = to_fast(s);
    for (int dim = 0; dim < 2; dim++) {
        snprintf(what, sizeof what, "max dim %d with NaN and signed zeros", dim);
        CHECK_INT(mt_reduce(ctx, MT_RED_MAX, s, dim, &rs), MT_OK);
        CHECK_INT(mt_reduce(ctx, MT_RED_MAX, f, dim, &rf), MT_OK);
        float *a = values(rs), *b = values(rf);
        CHECK(memcmp(a, b, (size_t)rs->size * sizeof *a) == 0);
        free(a);
        free(b);
        mt_tensor_release(rs);
        mt_tensor_release(rf);
        rs = rf = NULL;
    }
    mt_tensor_release(f);
    mt_tensor_release(s);
    free(data);
}

static void check_matmul_case(int na, const int64_t *sa, bool ta, int nb, const int64_t *sb,
                              bool tb)
{
    char b1[64], b2[64];
    /* a transposed operand: a contiguous tensor with the last two dims swapped, permuted back */
    struct mt_tensor *as = NULL, *bs = NULL;
    int64_t order[MT_MAX_DIMS];
    for (int k = 0; k < 2; k++) {
        int n = k ? nb : na;
        const int64_t *s = k ? sb : sa;
        bool t = k ? tb : ta;
        struct mt_tensor *r = NULL;
        if (t) {
            int64_t sw[MT_MAX_DIMS];
            memcpy(sw, s, (size_t)n * sizeof *s);
            sw[n - 2] = s[n - 1];
            sw[n - 1] = s[n - 2];
            struct mt_tensor *base = filled(n, sw, -1, 1);
            for (int i = 0; i < n; i++) order[i] = i;
            order[n - 2] = n - 1;
            order[n - 1] = n - 2;
            CHECK_INT(mt_permute(ctx, base, n, order, &r), MT_OK);
            mt_tensor_release(base);
        } else {
            r = filled(n, s, -1, 1);
        }
        if (k)
            bs = r;
        else
            as = r;
    }
    struct mt_tensor *af = to_fast(as), *bf = to_fast(bs), *rs = NULL, *rf = NULL;
    snprintf(what, sizeof what, "matmul %s%s @ %s%s", mt_shape_str(na, sa, b1, 64), ta ? "^T" : "",
             mt_shape_str(nb, sb, b2, 64), tb ? "^T" : "");
    CHECK_INT(mt_matmul_raw(ctx, as, bs, &rs), MT_OK);
    CHECK_INT(mt_matmul_raw(ctx, af, bf, &rf), MT_OK);
    if (rs && rf) {
        struct mt_tensor *aa = NULL, *ab = NULL, *mm = NULL;
        CHECK_INT(mt_map(ctx, MT_MAP_ABS, as, &aa), MT_OK);
        CHECK_INT(mt_map(ctx, MT_MAP_ABS, bs, &ab), MT_OK);
        CHECK_INT(mt_matmul_raw(ctx, aa, ab, &mm), MT_OK);
        float *b = sum_bound(mm, sa[na - 1]);
        compare(rf, rs, b);
        free(b);
        mt_tensor_release(aa);
        mt_tensor_release(ab);
        mt_tensor_release(mm);
    }
    mt_tensor_release(rs);
    mt_tensor_release(rf);
    mt_tensor_release(af);
    mt_tensor_release(bf);
    mt_tensor_release(as);
    mt_tensor_release(bs);
}

static void test_matmul_vs_simple(void)
{
    static const int64_t sizes[] = {1, 2, 3, 7, 17, 64, 131};
    for (int i = 0; i < 7; i++)
        for (int j = 0; j < 7; j++)
            for (int k = 0; k < 7; k += 2) {
                int64_t M = sizes[i], K = sizes[j], N = sizes[(k + i) % 7];
                int64_t sa[2] = {M, K}, sb[2] = {K, N};
                check_matmul_case(2, sa, (i + k) % 2 == 1, 2, sb, (j + k) % 3 == 1);
            }
    /* K = 0: zeros; batches, broadcast batch dims, 2-D @ batched */
    int64_t a0[2] = {3, 0}, b0[2] = {0, 4};
    check_matmul_case(2, a0, false, 2, b0, false);
    int64_t a1[3] = {5, 6, 7}, b1[3] = {5, 7, 3};
    check_matmul_case(3, a1, false, 3, b1, true);
    int64_t a2[4] = {2, 1, 9, 20}, b2[4] = {1, 3, 20, 11};
    check_matmul_case(4, a2, true, 4, b2, false);
    int64_t a3[2] = {9, 20}, b3[3] = {4, 20, 70};
    check_matmul_case(2, a3, false, 3, b3, false);
    int64_t a4[3] = {40, 16, 24}, b4[2] = {24, 8};
    check_matmul_case(3, a4, false, 2, b4, true);
    int64_t a5[3] = {1, 1, 1}, b5[3] = {3, 1, 1};
    check_matmul_case(3, a5, false, 3, b5, false);
}

/* Outputs of 16 MiB and more are written with non-temporal stores. Each map and zip on a
 * (4M + 37,) input that starts off a 32-byte boundary (and with a broadcast scalar operand)
 * must give, bit for bit, what the ordinary stores give on its two halves, which are below
 * the streaming size and compared with simple above. (simple itself would take a minute on
 * this size in the sanitizer build.) */
static struct mt_tensor *half(struct mt_tensor *t, int k)
{
    int64_t n = t->size, h = n / 2, len = k ? n - h : h, stride = 1;
    struct mt_tensor *v = NULL;
    if (n == 1) return mt_tensor_retain(t); /* a broadcast scalar stays itself */
    CHECK_INT(mt_as_strided(ctx, t, 1, &len, &stride, k ? h : 0, &v), MT_OK);
    return v;
}

static void check_streamed(enum mt_zip_op zop, enum mt_map_op mop, struct mt_tensor *a,
                           struct mt_tensor *b)
{
    struct mt_tensor *full = NULL;
    if (b)
        CHECK_INT(mt_zip(ctx, zop, a, b, &full), MT_OK);
    else
        CHECK_INT(mt_map(ctx, mop, a, &full), MT_OK);
    if (!full) return;
    for (int k = 0; k < 2; k++) {
        struct mt_tensor *ha = half(a, k), *hb = b ? half(b, k) : NULL, *hf = half(full, k);
        struct mt_tensor *r = NULL;
        if (b)
            CHECK_INT(mt_zip(ctx, zop, ha, hb, &r), MT_OK);
        else
            CHECK_INT(mt_map(ctx, mop, ha, &r), MT_OK);
        if (r) compare(hf, r, NULL);
        mt_tensor_release(r);
        mt_tensor_release(ha);
        mt_tensor_release(hb);
        mt_tensor_release(hf);
    }
    mt_tensor_release(full);
}

static void test_streamed_stores(void)
{
    int64_t n = ((int64_t)1 << 22) + 37, one = 1, big = n + 3, stride = 1;
    struct mt_tensor *base = filled(1, &big, -3.0f, 3.0f), *s = NULL, *sc = filled(1, &one, -1, 1);
    struct mt_tensor *s2 = filled(1, &n, -3.0f, 3.0f);
    CHECK_INT(mt_as_strided(ctx, base, 1, &n, &stride, 3, &s), MT_OK); /* offset 3 floats */
    struct mt_tensor *f = to_fast(s), *f2 = to_fast(s2), *fc = to_fast(sc);
    for (int op = 0; op < MT_MAP_COUNT; op++) {
        snprintf(what, sizeof what, "%s of (4M,) streamed", mt_map_name((enum mt_map_op)op));
        check_streamed(MT_ZIP_ADD, (enum mt_map_op)op, f, NULL);
    }
    for (int op = 0; op < MT_ZIP_COUNT; op++) {
        for (int k = 0; k < 3; k++) { /* both rows, row with scalar, scalar with row */
            snprintf(what, sizeof what, "%s of (4M,) streamed, case %d",
                     mt_zip_name((enum mt_zip_op)op), k);
            check_streamed((enum mt_zip_op)op, MT_MAP_ID, k == 2 ? fc : f,
                           k == 0   ? f2
                           : k == 1 ? fc
                                    : f);
        }
    }
    struct mt_tensor *list[] = {base, s, sc, s2, f, f2, fc};
    for (size_t i = 0; i < sizeof list / sizeof list[0]; i++) mt_tensor_release(list[i]);
}

/* ---- 1 thread vs 2 threads --------------------------------------------------------------- */

static struct mt_diag last;
static void record_diag(void *user, const struct mt_diag *d)
{
    (void)user;
    last = *d;
}

enum kind { K_MAP, K_ZIP, K_RED, K_MM };

/* Runs the op on fast with `threads`; returns the values. */
static float *run_fast(int threads, enum kind kind, int op, struct mt_tensor *a,
                       struct mt_tensor *b, int dim, int64_t *n)
{
    struct mt_tensor *r = NULL;
    CHECK_INT(mt_ctx_set_threads(ctx, threads), MT_OK);
    enum mt_status st = MT_ERR_INVALID;
    switch (kind) {
    case K_MAP: st = mt_map(ctx, (enum mt_map_op)op, a, &r); break;
    case K_ZIP: st = mt_zip(ctx, (enum mt_zip_op)op, a, b, &r); break;
    case K_RED: st = mt_reduce(ctx, (enum mt_reduce_op)op, a, dim, &r); break;
    case K_MM: st = mt_matmul_raw(ctx, a, b, &r); break;
    }
    CHECK_INT(st, MT_OK);
    if (!r) return NULL;
    float *v = values(r);
    *n = r->size;
    mt_tensor_release(r);
    return v;
}

static void check_threads(enum kind kind, int op, struct mt_tensor *a, struct mt_tensor *b, int dim,
                          bool expect_parallel)
{
    int64_t n1 = 0, n2 = 0;
    float *v1 = run_fast(1, kind, op, a, b, dim, &n1);
    CHECK_INT(last.threads, 1);
    float *v2 = run_fast(2, kind, op, a, b, dim, &n2);
#ifndef MT_HAVE_OPENMP
    expect_parallel = false; /* a build without OpenMP runs everything serially */
#endif
    if (expect_parallel && last.threads != 2) {
        fprintf(stderr, "  %s: ran on %d thread(s), expected 2\n", what, last.threads);
        CHECK(last.threads == 2);
    }
    CHECK_INT(n1, n2);
    bool same = v1 && v2 && n1 == n2 && memcmp(v1, v2, (size_t)n1 * sizeof *v1) == 0;
    if (!same) fprintf(stderr, "  %s: 1 and 2 threads differ\n", what);
    CHECK(same);
    free(v1);
    free(v2);
}

static void test_threads_bit_identical(void)
{
    mt_ctx_set_diag(ctx, record_diag, NULL);
    int64_t big[2] = {400, 601}, row[1] = {601}, col[2] = {400, 1}, huge[1] = {(1 << 22) + 37};
    struct mt_tensor *s = filled(2, big, 0.1f, 2.0f), *a = to_fast(s);
    struct mt_tensor *s2 = filled(2, big, -2.0f, 2.0f), *b = to_fast(s2);
    struct mt_tensor *sp = make(2, big, L_PERMUTED, -2.0f, 2.0f), *p = to_fast(sp);
    struct mt_tensor *sr = filled(1, row, -2.0f, 2.0f), *r = to_fast(sr);
    struct mt_tensor *sc = filled(2, col, -2.0f, 2.0f), *c = to_fast(sc);
    struct mt_tensor *sh = filled(1, huge, -2.0f, 2.0f), *h = to_fast(sh);
    for (int op = 0; op < MT_MAP_COUNT; op++) {
        snprintf(what, sizeof what, "%s (400, 601)", mt_map_name((enum mt_map_op)op));
        check_threads(K_MAP, op, a, NULL, 0, true);
        snprintf(what, sizeof what, "%s (400, 601) permuted", mt_map_name((enum mt_map_op)op));
        check_threads(K_MAP, op, p, NULL, 0, true);
        snprintf(what, sizeof what, "%s (4M,) streamed", mt_map_name((enum mt_map_op)op));
        check_threads(K_MAP, op, h, NULL, 0, true);
    }
    for (int op = 0; op < MT_ZIP_COUNT; op++) {
        snprintf(what, sizeof what, "%s (400, 601)", mt_zip_name((enum mt_zip_op)op));
        check_threads(K_ZIP, op, a, b, 0, true);
        snprintf(what, sizeof what, "%s (400, 601) permuted + row",
                 mt_zip_name((enum mt_zip_op)op));
        check_threads(K_ZIP, op, p, r, 0, true);
        snprintf(what, sizeof what, "%s (400, 601) + column", mt_zip_name((enum mt_zip_op)op));
        check_threads(K_ZIP, op, c, a, 0, true);
        snprintf(what, sizeof what, "%s (4M,) streamed", mt_zip_name((enum mt_zip_op)op));
        check_threads(K_ZIP, op, h, h, 0, true);
    }
    int64_t s3[3] = {20, 300, 30};
    struct mt_tensor *s3s = filled(3, s3, 0.9f, 1.1f), *t3 = to_fast(s3s);
    for (int op = 0; op < MT_RED_COUNT; op++) {
        const char *name = mt_reduce_name((enum mt_reduce_op)op);
        for (int dim = 0; dim < 2; dim++) {
            snprintf(what, sizeof what, "%s dim %d (400, 601)", name, dim);
            check_threads(K_RED, op, a, NULL, dim, true);
            snprintf(what, sizeof what, "%s dim %d (400, 601) permuted", name, dim);
            check_threads(K_RED, op, p, NULL, dim, true);
        }
        for (int dim = 0; dim < 3; dim++) {
            snprintf(what, sizeof what, "%s dim %d (20, 300, 30)", name, dim);
            check_threads(K_RED, op, t3, NULL, dim, true);
        }
        snprintf(what, sizeof what, "%s of (4M,) (split rows)", name);
        check_threads(K_RED, op, h, NULL, 0, true);
        snprintf(what, sizeof what, "%s of all (400, 601)", name);
        check_threads(K_RED, op, a, NULL, MT_ALL_DIMS, false);
    }
    /* matmul: one big product (threads inside the gemm), many small ones (over the batch) */
    int64_t ma[2] = {96, 200}, mb[2] = {200, 80}, ba[3] = {32, 20, 30}, bb[3] = {32, 30, 25};
    struct mt_tensor *mas = filled(2, ma, -1, 1), *mbs = filled(2, mb, -1, 1);
    struct mt_tensor *bas = filled(3, ba, -1, 1), *bbs = filled(3, bb, -1, 1);
    struct mt_tensor *maf = to_fast(mas), *mbf = to_fast(mbs), *baf = to_fast(bas),
                     *bbf = to_fast(bbs);
    snprintf(what, sizeof what, "matmul (96, 200) @ (200, 80)");
    check_threads(K_MM, 0, maf, mbf, 0, true);
    snprintf(what, sizeof what, "matmul (32, 20, 30) @ (32, 30, 25)");
    check_threads(K_MM, 0, baf, bbf, 0, true);
    struct mt_tensor *list[] = {s, a,   s2, b,   sp,  p,   sr,  r,   sc,  c,   sh,
                                h, s3s, t3, mas, mbs, bas, bbs, maf, mbf, baf, bbf};
    for (size_t i = 0; i < sizeof list / sizeof list[0]; i++) mt_tensor_release(list[i]);
    mt_ctx_set_diag(ctx, NULL, NULL);
    mt_ctx_set_threads(ctx, 2);
}

/* ---- diagnostics, tiny ops, cancellation ------------------------------------------------- */

static void test_diag_paths(void)
{
    mt_ctx_set_diag(ctx, record_diag, NULL);
    int64_t sh[2] = {40, 50}, row[1] = {50}, ms[2] = {50, 50};
    struct mt_tensor *s = filled(2, sh, -1, 1), *a = to_fast(s), *sr = filled(1, row, -1, 1),
                     *r = to_fast(sr), *sp = make(2, ms, L_PERMUTED, -1, 1), *p = to_fast(sp);
    struct mt_tensor *o = NULL;
    CHECK_INT(mt_zip(ctx, MT_ZIP_ADD, a, a, &o), MT_OK);
    CHECK_STR(last.path, "contiguous");
    CHECK(last.vec_width >= 1);
    CHECK_INT(last.threads, 1); /* 2000 elements: the tiny path */
    mt_tensor_release(o);
    o = NULL;
    CHECK_INT(mt_zip(ctx, MT_ZIP_ADD, a, r, &o), MT_OK);
    CHECK_STR(last.path, "broadcast");
    mt_tensor_release(o);
    o = NULL;
    CHECK_INT(mt_map(ctx, MT_MAP_EXP, p, &o), MT_OK);
    CHECK_STR(last.path, "strided");
    mt_tensor_release(o);
    o = NULL;
    CHECK_INT(mt_matmul_raw(ctx, p, p, &o), MT_OK);
    CHECK(strncmp(last.path, "packed gemm", 11) == 0);
    mt_tensor_release(o);
    mt_tensor_release(a);
    mt_tensor_release(s);
    mt_tensor_release(r);
    mt_tensor_release(sr);
    mt_tensor_release(p);
    mt_tensor_release(sp);
    mt_ctx_set_diag(ctx, NULL, NULL);
}

/* A given output and no diagnostics hook send small ops down the fast backend's shortcut
 * (the fast table's zip_small, before the front door's checks): it must refuse exactly what the
 * front door refuses, and compute what simple computes. */
static void test_tiny_out_checks(void)
{
    int64_t s5[1] = {5}, s1[1] = {1}, s111[3] = {1, 1, 1}, s25[2] = {2, 5}, s4[1] = {4};
    struct mt_tensor *a = filled(1, s5, -1, 1), *fa = to_fast(a), *one = filled(1, s1, -1, 1),
                     *fone = to_fast(one), *one3 = filled(3, s111, -1, 1), *fone3 = to_fast(one3);
    struct mt_tensor *out = out_tensor(MT_BACKEND_FAST, 1, s5, false), *p = out;
    struct mt_tensor *sout = out_tensor(MT_BACKEND_SIMPLE, 1, s5, false), *ps = sout;
    snprintf(what, sizeof what, "tiny zip with a given out");
    /* (1,1,1) + (5,) is (1,1,5), not the output's (5,) */
    CHECK_INT(mt_zip(ctx, MT_ZIP_ADD, fone3, fa, &p), MT_ERR_SHAPE);
    /* (1,) + (1,) is (1,), not (5,) */
    CHECK_INT(mt_zip(ctx, MT_ZIP_ADD, fone, fone, &p), MT_ERR_SHAPE);
    /* mixed backends, in the inputs or the output */
    CHECK_INT(mt_zip(ctx, MT_ZIP_ADD, fa, a, &p), MT_ERR_BACKEND);
    CHECK_INT(mt_zip(ctx, MT_ZIP_ADD, a, a, &p), MT_ERR_BACKEND);
    CHECK(p == out);
    /* a scalar broadcast either side, and flat operands: simple's values */
    for (int side = 0; side < 3; side++) {
        const struct mt_tensor *x = side == 1 ? fone : fa, *y = side == 2 ? fone : fa;
        const struct mt_tensor *xs = side == 1 ? one : a, *ys = side == 2 ? one : a;
        CHECK_INT(mt_zip(ctx, MT_ZIP_SUB, x, y, &p), MT_OK);
        CHECK_INT(mt_zip(ctx, MT_ZIP_SUB, xs, ys, &ps), MT_OK);
        CHECK(p == out && ps == sout);
        compare(out, sout, NULL);
    }
    /* map: a different shape is refused; a broadcast into a larger out takes the long way */
    struct mt_tensor *o4 = out_tensor(MT_BACKEND_FAST, 1, s4, false), *p4 = o4;
    CHECK_INT(mt_map(ctx, MT_MAP_NEG, fa, &p4), MT_ERR_SHAPE);
    struct mt_tensor *o25 = out_tensor(MT_BACKEND_FAST, 2, s25, false), *p25 = o25;
    struct mt_tensor *s25o = out_tensor(MT_BACKEND_SIMPLE, 2, s25, false), *ps25 = s25o;
    CHECK_INT(mt_map(ctx, MT_MAP_NEG, fa, &p25), MT_OK);
    CHECK_INT(mt_map(ctx, MT_MAP_NEG, a, &ps25), MT_OK);
    compare(o25, s25o, NULL);
    CHECK_INT(mt_map(ctx, MT_MAP_EXP, fa, &p), MT_OK);
    CHECK_INT(mt_map(ctx, MT_MAP_EXP, a, &ps), MT_OK);
    float *b = ulp_bound(sout);
    compare(out, sout, b);
    free(b);
    struct mt_tensor *all[] = {a, fa, one, fone, one3, fone3, out, sout, o4, o25, s25o};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) mt_tensor_release(all[i]);
}

static void test_cancel(void)
{
    int64_t sh[2] = {2048, 2048}, m[2] = {512, 512};
    struct mt_tensor *s = filled(2, sh, -1, 1), *a = to_fast(s), *ms = filled(2, m, -1, 1),
                     *mf = to_fast(ms), *r = NULL;
    for (int threads = 1; threads <= 2; threads++) {
        mt_ctx_set_threads(ctx, threads);
        mt_cancel_request();
        CHECK_INT(mt_zip(ctx, MT_ZIP_ADD, a, a, &r), MT_ERR_CANCELLED);
        CHECK(r == NULL);
        CHECK_INT(mt_map(ctx, MT_MAP_EXP, a, &r), MT_ERR_CANCELLED);
        CHECK_INT(mt_reduce(ctx, MT_RED_SUM, a, 0, &r), MT_ERR_CANCELLED);
        CHECK_INT(mt_reduce(ctx, MT_RED_SUM, a, 1, &r), MT_ERR_CANCELLED);
        CHECK_INT(mt_matmul_raw(ctx, mf, mf, &r), MT_ERR_CANCELLED);
        CHECK(r == NULL);
        mt_cancel_clear();
        CHECK_INT(mt_zip(ctx, MT_ZIP_ADD, a, a, &r), MT_OK);
        mt_tensor_release(r);
        r = NULL;
    }
    mt_tensor_release(a);
    mt_tensor_release(s);
    mt_tensor_release(mf);
    mt_tensor_release(ms);
}

static void test_all_released(void) { CHECK_INT(mt_ctx_mem_used(ctx), 0); }

/* ---- main -------------------------------------------------------------------------------- */

/* The same tests with the generic (baseline) kernels, in a child process: the table is chosen
 * once per process from MT_FAST_ISA. */
static int run_generic_child(char **argv)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return 1;
    if (pid == 0) {
        setenv("MT_FAST_ISA", "generic", 1);
        execv(argv[0], argv);
        _exit(127);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid) return 1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int main(int argc, char **argv)
{
    (void)argc;
    ctx = mt_ctx_new();
    CHECK(ctx != NULL);
    if (!ctx) return 1;
    printf("fast kernels: %s\n", getenv("MT_FAST_ISA") ? getenv("MT_FAST_ISA") : "automatic");
    mt_ctx_set_threads(ctx, 2);
    RUN_TEST(test_map_vs_simple);
    RUN_TEST(test_map_special_values);
    RUN_TEST(test_map_into_out);
    RUN_TEST(test_zip_vs_simple);
    RUN_TEST(test_reduce_vs_simple);
    RUN_TEST(test_reduce_max_order);
    RUN_TEST(test_matmul_vs_simple);
    RUN_TEST(test_streamed_stores);
    RUN_TEST(test_threads_bit_identical);
    RUN_TEST(test_diag_paths);
    RUN_TEST(test_tiny_out_checks);
    RUN_TEST(test_cancel);
    RUN_TEST(test_all_released);
    mt_ctx_free(ctx);
    int rc = TEST_SUMMARY();
    if (!getenv("MT_FAST_ISA")) {
        int child = run_generic_child(argv);
        if (child != 0) fprintf(stderr, "FAIL: the run with MT_FAST_ISA=generic\n");
        rc |= child != 0;
    }
    return rc;
}
