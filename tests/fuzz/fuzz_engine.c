/* fuzz_engine.c — libFuzzer target for the engine's public API: shapes, strides, views,
 * indexing and ops, driven by the input as a little program.
 *
 * The input is a sequence of commands (one byte each, then their arguments) on eight tensor
 * slots: create a tensor of a shape (zeros, ones, rand, data), view, permute, as_strided,
 * contiguous, move between simple and fast, get and set an element, the raw and differentiable
 * ops (map, zip with broadcasting, reduce, matmul with batch dims, written into an `out`), user
 * functions (map, zip, reduce of a small program), backward. Sizes, strides, offsets and indices
 * are mostly small, with an escape to values that overflow int64 products and sums (2^60 + 1,
 * 2^62, INT64_MAX, ...) and to any 8 bytes, so that the geometry checks meet both the common
 * case and the wrapping one. The context's memory limit is 8 KiB: a shape that is valid but
 * large must be MemoryError, and every tensor stays small enough for an input to take well
 * under a millisecond.
 *
 * Whatever the input, besides what ASan and UBSan catch:
 *  - a call returns a known status; on failure its output is NULL and the context holds a
 *    message; on success the tensor's geometry is sound: 1 to MT_MAX_DIMS dims, sizes >= 0,
 *    size their product, and every position it reaches lies inside its storage (whose element
 *    count this file tracks itself: a new storage holds `size` elements, a view shares its
 *    base's);
 *  - a view reads the values its geometry says (each element compared with the storage read at
 *    offset + sum(index * stride), computed here in 128 bits), and get/set hit that position;
 *  - an op on fast gives what the same op on simple gives, within a rounding bound: exactly for
 *    comparisons and the like, a few ulp for the transcendental maps, and for sums and matmul
 *    (whose order differs) n * eps times the same op on absolute values;
 *  - when every tensor is released, the context counts no memory in use.
 *
 * To read a crash: FUZZ_ENGINE_TRACE=1 build-fuzz/fuzz_engine CRASH-FILE prints each command
 * and the geometry of each tensor made. */
#include "minitorch/minitorch.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
const char *__ubsan_default_options(void);

/* The fuzz build lets UBSan go on after a report; here a wrapped size or position is the bug
 * being looked for, so it stops the run as ASan's reports do. */
const char *__ubsan_default_options(void) { return "halt_on_error=1:print_stacktrace=1"; }
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

#define SLOTS 8
#define MAX_CMDS 32
#define MEM_LIMIT ((size_t)8 << 10)
/* Elements an op may touch. A view is not bounded by the memory limit: as_strided with stride 0
 * makes 2^50 elements of one float, and an op over them runs for days, as it would in numpy. */
#define OP_ELEMS 4096

struct slot {
    struct mt_tensor *t;
    int64_t nelem; /* elements of t's storage; -1 when not known here */
};

struct input {
    const unsigned char *p, *end;
};

static struct mt_ctx *ctx;
static bool trace; /* FUZZ_ENGINE_TRACE set: each command and tensor on stderr */
static struct mt_prog map_fn, zip_fn;

static unsigned byte(struct input *in) { return in->p < in->end ? *in->p++ : 0; }

/* Sizes that wrap int64 products and sums, or pass any storage. */
static const int64_t special[] = {
    -1,
    -2,
    INT64_MIN,
    INT64_MAX,
    (int64_t)1 << 31,
    (int64_t)1 << 32,
    ((int64_t)1 << 32) + 1,
    (int64_t)1 << 40,
    (int64_t)1 << 50,
    ((int64_t)1 << 50) + 1,
    (int64_t)1 << 60,
    ((int64_t)1 << 60) + 1,
    (int64_t)1 << 62,
    ((int64_t)1 << 62) + 1,
    (int64_t)3 << 61,
    -((int64_t)1 << 62),
    -((int64_t)1 << 60) - 1,
    (int64_t)1 << 21,
    (int64_t)1 << 26,
    ((int64_t)1 << 31) - 1,
    INT64_MAX / 2 + 1,
    INT64_MIN + 1,
    1000,
    4096,
    16,
    -16,
    7,
    0,
    1,
    2,
    3,
};

/* A raw 8-byte value, or one of the special ones; `b` chose the escape. */
static int64_t escape(struct input *in, unsigned b)
{
    if (b == 0xFF) {
        uint64_t v = 0;
        for (int i = 0; i < 8; i++) v = v << 8 | byte(in);
        return (int64_t)v;
    }
    return special[(b - 0xE0) % (sizeof special / sizeof special[0])];
}

/* A size: mostly 0..5, sometimes up to 128, rarely an escape. */
static int64_t size_arg(struct input *in)
{
    unsigned b = byte(in);
    if (b >= 0xE0) return escape(in, b);
    if (b >= 0xC0) return 8 + (int64_t)(b - 0xC0) * 4;
    return b % 6;
}

/* A stride, offset or index: mostly -4..8, rarely an escape. */
static int64_t signed_arg(struct input *in)
{
    unsigned b = byte(in);
    if (b >= 0xE0) return escape(in, b);
    return (int64_t)(b % 13) - 4;
}

/* ndim: mostly 1..4, sometimes 0 or past MT_MAX_DIMS (both must be refused). */
static int ndim_arg(struct input *in)
{
    unsigned b = byte(in);
    if (b >= 0xF0) return (int)(b - 0xF0); /* 0..15 */
    return 1 + (int)(b % 4);
}

static struct slot *slot_arg(struct slot *s, struct input *in) { return &s[byte(in) % SLOTS]; }

/* The status of a call that may fail: known, and on failure a message and no output. */
static void check_status(enum mt_status st, struct mt_tensor *out)
{
    if ((unsigned)st >= MT_STATUS_COUNT) abort();
    if (st != MT_OK && (out != NULL || mt_ctx_error(ctx)[0] == '\0')) abort();
}

/* The lowest and highest storage positions t reaches (t->size > 0). */
static void reach(const struct mt_tensor *t, __int128 *lo, __int128 *hi)
{
    *lo = *hi = t->offset;
    for (int i = 0; i < t->ndim; i++) {
        __int128 span = (__int128)(t->shape[i] - 1) * t->strides[i];
        if (span < 0)
            *lo += span;
        else
            *hi += span;
    }
}

/* t's geometry is sound and, when its storage's size is known, inside it. */
static void check_geometry(const struct mt_tensor *t, int64_t nelem)
{
    if (t->ndim < 1 || t->ndim > MT_MAX_DIMS) abort();
    __int128 n = 1;
    for (int i = 0; i < t->ndim; i++) {
        if (t->shape[i] < 0) abort();
        n *= t->shape[i];
        if (n > ((__int128)1 << 62)) abort();
    }
    if (n != t->size) abort();
    if (nelem < 0) return;
    if (t->offset < 0 || t->offset > nelem) abort();
    if (t->size == 0) return;
    __int128 lo, hi;
    reach(t, &lo, &hi);
    if (lo < 0 || hi >= nelem) abort();
}

/* The element count of r's storage when one of the slots shares it; else r is a new storage
 * of its own size (an op's result) when contiguous from 0, or unknown (a gradient). */
static int64_t storage_nelem(const struct slot *s, const struct mt_tensor *r)
{
    for (int i = 0; i < SLOTS; i++)
        if (s[i].t && s[i].t->storage == r->storage) return s[i].nelem;
    return r->offset == 0 && mt_tensor_is_contiguous(r) ? r->size : -1;
}

/* Stores a new tensor r (one reference) in *dst after checking it. */
static void keep(struct slot *s, struct slot *dst, struct mt_tensor *r)
{
    int64_t nelem = storage_nelem(s, r);
    if (trace) {
        char a[160], b[160];
        fprintf(stderr, "  -> slot %d: %s shape %s strides %s offset %lld, storage of %lld\n",
                (int)(dst - s), mt_backend_name(r->backend),
                mt_shape_str(r->ndim, r->shape, a, sizeof a),
                mt_shape_str(r->ndim, r->strides, b, sizeof b), (long long)r->offset,
                (long long)nelem);
    }
    check_geometry(r, nelem);
    mt_tensor_release(dst->t);
    dst->t = r;
    dst->nelem = nelem;
}

/* Every element of v (a view, or an op's result, whose storage starts at base) as copied out
 * is the storage's value at the position its index gives. */
static void check_view_values(const struct mt_tensor *v, const float *base)
{
    if (v->size == 0 || v->size > 4096) return;
    float *got = malloc((size_t)v->size * sizeof *got);
    if (!got) abort();
    if (mt_tensor_copy_out(v, got) != MT_OK) abort();
    int64_t idx[MT_MAX_DIMS] = {0};
    for (int64_t i = 0; i < v->size; i++) {
        __int128 pos = v->offset;
        for (int d = 0; d < v->ndim; d++) pos += (__int128)idx[d] * v->strides[d];
        if (memcmp(&got[i], &base[(int64_t)pos], sizeof(float)) != 0) abort();
        for (int d = v->ndim - 1; d >= 0; d--) {
            if (++idx[d] < v->shape[d]) break;
            idx[d] = 0;
        }
    }
    free(got);
}

/* How closely fast must match simple. */
enum tolerance {
    EXACT,   /* the same float (NaN matching NaN) */
    ULPS,    /* a few ulp: vector exp, log, sigmoid, tanh; a*a folded differently */
    BOUNDED, /* |fast - simple| <= 2e-3 * bound, bound the op on absolute values */
};

static bool close_enough(float a, float b, enum tolerance tol, float bound)
{
    if (tol == BOUNDED && !isfinite(bound)) return true; /* partial results overflowed */
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
    if (a == b) return true;
    if (tol == EXACT) return false;
    if (isinf(a) || isinf(b)) /* one overflowed where the other rounded just below */
        return fabsf(isinf(a) ? b : a) > 1e37f && (a > 0) == (b > 0);
    if (tol == ULPS)
        return fabsf(a - b) <= 1e-4f * fmaxf(fabsf(a), fabsf(b)) || fabsf(a - b) < 1e-30f;
    return fabsf(a - b) <= 2e-3f * bound + 1e-30f;
}

/* Values of x (simple) and y (fast) agree; `bound` (may be NULL) has their shape. */
static void check_same(const struct mt_tensor *x, const struct mt_tensor *y, enum tolerance tol,
                       const struct mt_tensor *bound)
{
    if (x->ndim != y->ndim || x->size != y->size) abort();
    if (memcmp(x->shape, y->shape, (size_t)x->ndim * sizeof x->shape[0]) != 0) abort();
    if (x->size == 0 || x->size > 4096) return;
    float *a = malloc((size_t)x->size * 3 * sizeof *a);
    if (!a) abort();
    float *b = a + x->size, *c = b + x->size;
    if (mt_tensor_copy_out(x, a) != MT_OK || mt_tensor_copy_out(y, b) != MT_OK) abort();
    if (bound && mt_tensor_copy_out(bound, c) != MT_OK) abort();
    for (int64_t i = 0; i < x->size; i++)
        if (!close_enough(a[i], b[i], tol, bound ? c[i] : 0.0f)) {
            fprintf(stderr, "simple %.9g, fast %.9g (bound %.9g) at element %lld\n", a[i], b[i],
                    bound ? c[i] : 0.0f, (long long)i);
            abort();
        }
    free(a);
}

/* t on the other CPU backend (sharing its storage), or NULL. */
static struct mt_tensor *twin(struct mt_tensor *t)
{
    struct mt_tensor *r = NULL;
    enum mt_backend other = t->backend == MT_BACKEND_SIMPLE ? MT_BACKEND_FAST : MT_BACKEND_SIMPLE;
    enum mt_status st = mt_to(ctx, t, other, &r);
    check_status(st, r);
    return r;
}

/* Runs one raw op (kind 0 map, 1 zip, 2 reduce, 3 matmul) on simple and fast with the same
 * inputs, checks both agree, and keeps the result of a's backend. */
static enum mt_status raw_both(int kind, int op, struct mt_tensor *a, struct mt_tensor *b, int dim,
                               struct mt_tensor **out)
{
    struct mt_tensor *a2 = twin(a), *b2 = b ? twin(b) : NULL, *r1 = NULL, *r2 = NULL;
    struct mt_tensor *ab1 = NULL, *ab2 = NULL, *bound = NULL;
    enum mt_status s1, s2;
    if (!a2 || (b && !b2)) {
        mt_tensor_release(a2);
        mt_tensor_release(b2);
        return MT_ERR_NOMEM;
    }
    if (kind == 0) {
        s1 = mt_map(ctx, (enum mt_map_op)op, a, &r1);
        s2 = mt_map(ctx, (enum mt_map_op)op, a2, &r2);
    } else if (kind == 1) {
        s1 = mt_zip(ctx, (enum mt_zip_op)op, a, b, &r1);
        s2 = mt_zip(ctx, (enum mt_zip_op)op, a2, b2, &r2);
    } else if (kind == 2) {
        s1 = mt_reduce(ctx, (enum mt_reduce_op)op, a, dim, &r1);
        s2 = mt_reduce(ctx, (enum mt_reduce_op)op, a2, dim, &r2);
    } else {
        s1 = mt_matmul_raw(ctx, a, b, &r1);
        s2 = mt_matmul_raw(ctx, a2, b2, &r2);
    }
    check_status(s1, r1);
    check_status(s2, r2);
    /* the same checks on either backend (the second may also run out of memory) */
    if (s1 != s2 && s1 != MT_ERR_NOMEM && s2 != MT_ERR_NOMEM) abort();
    if (s1 == MT_OK && s2 == MT_OK) {
        struct mt_tensor *x = a->backend == MT_BACKEND_SIMPLE ? r1 : r2;
        struct mt_tensor *y = x == r1 ? r2 : r1;
        enum tolerance tol = EXACT;
        if (kind == 0 &&
            (op == MT_MAP_EXP || op == MT_MAP_LOG || op == MT_MAP_SIGMOID || op == MT_MAP_TANH))
            tol = ULPS;
        if (kind == 1 && op == MT_ZIP_INV_BACK) tol = ULPS;
        if ((kind == 2 && (op == MT_RED_SUM || op == MT_RED_MEAN)) || kind == 3) {
            /* the same op on |a| (and |b|) on simple bounds the rounding of any order */
            struct mt_tensor *sa = a->backend == MT_BACKEND_SIMPLE ? a : a2;
            struct mt_tensor *sb = b ? (b->backend == MT_BACKEND_SIMPLE ? b : b2) : NULL;
            enum mt_status sb_st = mt_map(ctx, MT_MAP_ABS, sa, &ab1);
            if (sb_st == MT_OK && sb) sb_st = mt_map(ctx, MT_MAP_ABS, sb, &ab2);
            if (sb_st == MT_OK)
                sb_st = kind == 3 ? mt_matmul_raw(ctx, ab1, ab2, &bound)
                                  : mt_reduce(ctx, (enum mt_reduce_op)op, ab1, dim, &bound);
            tol = BOUNDED;
            if (sb_st != MT_OK) x = y = NULL; /* no bound (out of memory): nothing to compare */
        }
        if (kind == 2 && op == MT_RED_PROD) x = y = NULL; /* overflow depends on the order */
        if (x) check_same(x, y, tol, bound);
    }
    mt_tensor_release(bound);
    mt_tensor_release(ab1);
    mt_tensor_release(ab2);
    mt_tensor_release(a2);
    mt_tensor_release(b2);
    if (s1 == MT_OK) {
        mt_tensor_release(r2);
        *out = r1;
        return MT_OK;
    }
    mt_tensor_release(r2);
    return s1;
}

/* False when a @ b would take long (more than 2^14 multiply-adds); operands of fewer than 2
 * dims are refused at once. */
static bool matmul_small(const struct mt_tensor *a, const struct mt_tensor *b)
{
    if (a->ndim < 2 || b->ndim < 2) return true;
    return (__int128)a->size * b->shape[b->ndim - 1] <= 16384 &&
           (__int128)b->size * a->shape[a->ndim - 2] <= 16384;
}

/* Reads a shape of ndim sizes. */
static int shape_arg(struct input *in, int64_t *shape)
{
    int n = ndim_arg(in);
    for (int i = 0; i < n && i < 16; i++) {
        int64_t v = size_arg(in);
        if (i < MT_MAX_DIMS) shape[i] = v;
    }
    return n;
}

/* The commands. Each reads its arguments from the input after run's three slots; one that
 * makes a tensor returns its status with the tensor in *r, which stays NULL where the command
 * made none (an operand missing or too large: nothing to check). */

/* create: zeros, full, rand, or data of a pattern (with negatives, zeros and repeats: max's
 * ties), kept in slot d. */
static void cmd_create(struct slot *s, struct slot *d, struct input *in)
{
    struct mt_tensor *r = NULL;
    enum mt_status st;
    int64_t shape[MT_MAX_DIMS] = {0};
    enum mt_backend b = byte(in) & 1 ? MT_BACKEND_FAST : MT_BACKEND_SIMPLE;
    unsigned how = byte(in) % 5;
    int n = shape_arg(in, shape);
    int nd = n > MT_MAX_DIMS ? MT_MAX_DIMS : n;
    if (how == 0)
        st = mt_zeros(ctx, b, n, shape, &r);
    else if (how == 1)
        st = mt_full(ctx, b, n, shape, (float)((int)byte(in) - 128) / 8.0f, &r);
    else if (how == 2)
        st = mt_rand(ctx, b, n, shape, &r);
    else { /* data: a pattern with negatives, zeros, repeats (max's ties) */
        __int128 cnt = 1;
        for (int i = 0; i < nd; i++) cnt *= shape[i] < 0 ? 0 : shape[i] > 8192 ? 8193 : shape[i];
        if (n < 1 || n > MT_MAX_DIMS || cnt > 8192) return;
        float *vals = malloc((size_t)(cnt > 0 ? cnt : 1) * sizeof *vals);
        if (!vals) abort();
        unsigned seed = byte(in);
        for (int64_t i = 0; i < (int64_t)cnt; i++)
            vals[i] = (float)((int)((i * 7 + seed) % 11) - 5) * (how == 3 ? 1.0f : 0.37f);
        st = mt_from_data(ctx, b, n, shape, vals, &r);
        free(vals);
    }
    check_status(st, r);
    if (st == MT_OK) keep(s, d, r);
}

static enum mt_status cmd_view(struct mt_tensor *t, struct input *in, struct mt_tensor **r)
{
    int64_t shape[MT_MAX_DIMS] = {0};
    int n = ndim_arg(in);
    for (int i = 0; i < n && i < MT_MAX_DIMS; i++) shape[i] = byte(in) < 40 ? -1 : size_arg(in);
    return mt_view(ctx, t, n, shape, r);
}

static enum mt_status cmd_permute(struct mt_tensor *t, struct input *in, struct mt_tensor **r)
{
    int64_t idx[MT_MAX_DIMS] = {0};
    int n = ndim_arg(in);
    for (int i = 0; i < n && i < MT_MAX_DIMS; i++) idx[i] = signed_arg(in);
    return mt_permute(ctx, t, n, idx, r); /* a count other than t's is refused first */
}

static enum mt_status cmd_as_strided(struct mt_tensor *t, struct input *in, struct mt_tensor **r)
{
    int64_t shape[MT_MAX_DIMS] = {0}, strides[MT_MAX_DIMS] = {0};
    int n = ndim_arg(in);
    for (int i = 0; i < n && i < MT_MAX_DIMS; i++) {
        shape[i] = size_arg(in);
        strides[i] = signed_arg(in);
    }
    int64_t off = signed_arg(in);
    return mt_as_strided(ctx, t, n, shape, strides, off, r);
}

/* get an element of x's tensor (after setting it, when set): the storage's value at the
 * position its index gives, inside the storage. */
static void cmd_get_set(struct slot *x, struct input *in, bool set)
{
    struct mt_tensor *t = x->t;
    int64_t idx[MT_MAX_DIMS] = {0};
    int n = (byte(in) & 7) ? t->ndim : (int)(byte(in) % 10);
    for (int i = 0; i < n && i < MT_MAX_DIMS; i++) idx[i] = signed_arg(in);
    if (n > MT_MAX_DIMS) n = MT_MAX_DIMS + 1; /* the count is checked before the values */
    float v = 0.0f, put = (float)byte(in) - 100.0f;
    enum mt_status st;
    if (set) {
        st = mt_tensor_set(ctx, t, n, idx, put);
        check_status(st, NULL);
    }
    st = mt_tensor_get(ctx, t, n, idx, &v);
    check_status(st, NULL);
    if (st != MT_OK) return;
    __int128 pos = t->offset;
    for (int i = 0; i < t->ndim; i++) {
        int64_t k = idx[i] < 0 ? idx[i] + t->shape[i] : idx[i];
        pos += (__int128)k * t->strides[i];
    }
    if (x->nelem >= 0 && (pos < 0 || pos >= x->nelem)) abort();
    const float *base = mt_tensor_data(t) - t->offset;
    if (memcmp(&v, &base[(int64_t)pos], sizeof v) != 0) abort();
    if (set && v != put) abort();
}

/* raw zip of t and u, broadcasting */
static enum mt_status cmd_raw_zip(struct mt_tensor *t, struct mt_tensor *u, struct input *in,
                                  struct mt_tensor **r)
{
    if (!u) return MT_OK;
    return raw_both(1, (int)(byte(in) % MT_ZIP_COUNT), t, u, 0, r);
}

static enum mt_status cmd_raw_reduce(struct mt_tensor *t, struct input *in, struct mt_tensor **r)
{
    unsigned b = byte(in);
    int dim = b >= 0xF0 ? MT_ALL_DIMS : (int)(b % 20) - 10;
    return raw_both(2, (int)(byte(in) % MT_RED_COUNT), t, NULL, dim, r);
}

static enum mt_status cmd_raw_matmul(struct mt_tensor *t, struct mt_tensor *u, struct mt_tensor **r)
{
    if (!u || !matmul_small(t, u)) return MT_OK;
    return raw_both(3, 0, t, u, 0, r);
}

/* into an out: map of t into y's tensor (broadcast), or zip of t and y's into d's */
static void cmd_into_out(struct mt_tensor *t, struct slot *y, struct slot *d, struct input *in)
{
    if (!y->t) return;
    struct mt_tensor *o = y->t;
    enum mt_status st;
    if (byte(in) & 1) {
        st = mt_map(ctx, (enum mt_map_op)(byte(in) % MT_MAP_COUNT), t, &o);
    } else {
        if (!d->t) return;
        o = d->t;
        st = mt_zip(ctx, (enum mt_zip_op)(byte(in) % MT_ZIP_COUNT), t, y->t, &o);
    }
    if ((unsigned)st >= MT_STATUS_COUNT || o == NULL) abort();
}

/* the differentiable ops, on t and u (may be NULL) */
static enum mt_status cmd_autodiff(struct mt_tensor *t, struct mt_tensor *u, struct input *in,
                                   struct mt_tensor **r)
{
    unsigned k = byte(in) % 8;
    if (k == 0) return mt_neg(ctx, t, r);
    if (k == 1) return mt_sigmoid(ctx, t, r);
    if (k == 2) return mt_relu(ctx, t, r);
    if (k == 3) return u ? mt_mul(ctx, t, u, r) : mt_exp(ctx, t, r);
    if (k == 4) return u ? mt_add(ctx, t, u, r) : mt_log(ctx, t, r);
    if (k == 5) return mt_sum(ctx, t, (int)(byte(in) % 6) - 3, r);
    if (k == 6) return mt_max(ctx, t, (int)(byte(in) % 6) - 3, r);
    if (!u || !matmul_small(t, u)) return MT_OK;
    return mt_matmul(ctx, t, u, r);
}

/* backward from the sum of t: every slot's gradient has its leaf's shape */
static void cmd_backward(struct slot *s, struct mt_tensor *t)
{
    struct mt_tensor *sum = NULL;
    enum mt_status st = mt_sum(ctx, t, MT_ALL_DIMS, &sum);
    check_status(st, sum);
    if (st == MT_OK) {
        st = mt_backward(ctx, sum, NULL);
        check_status(st, NULL);
    }
    mt_tensor_release(sum);
    for (int i = 0; i < SLOTS; i++) /* gradients have their leaf's shape */
        if (s[i].t && s[i].t->grad) {
            const struct mt_tensor *g = s[i].t->grad;
            check_geometry(g, -1);
            if (g->ndim != s[i].t->ndim ||
                memcmp(g->shape, s[i].t->shape, (size_t)g->ndim * sizeof g->shape[0]) != 0)
                abort();
        }
}

/* user functions (map, zip, reduce of a program) on both backends: the results agree */
static enum mt_status cmd_user_fn(struct mt_tensor *t, struct mt_tensor *u, struct input *in,
                                  struct mt_tensor **r)
{
    struct mt_tensor *a2 = twin(t), *b2 = u ? twin(u) : NULL, *r2 = NULL;
    unsigned k = byte(in) % 3;
    enum mt_status st, s2;
    if (!a2 || (u && !b2)) {
        mt_tensor_release(a2);
        mt_tensor_release(b2);
        return MT_OK;
    }
    int dim = (int)(byte(in) % 8) - 4;
    if (k == 0) {
        st = mt_map_prog(ctx, &map_fn, t, r);
        s2 = mt_map_prog(ctx, &map_fn, a2, &r2);
    } else if (k == 1 && u) {
        st = mt_zip_prog(ctx, &zip_fn, t, u, r);
        s2 = mt_zip_prog(ctx, &zip_fn, a2, b2, &r2);
    } else {
        st = mt_reduce_prog(ctx, &zip_fn, t, dim, 0.5f, r);
        s2 = mt_reduce_prog(ctx, &zip_fn, a2, dim, 0.5f, &r2);
    }
    check_status(st, *r);
    check_status(s2, r2);
    if (st != s2 && st != MT_ERR_NOMEM && s2 != MT_ERR_NOMEM) abort();
    if (st == MT_OK && s2 == MT_OK) {
        struct mt_tensor *bound = NULL, *ab = NULL;
        struct mt_tensor *sa = t->backend == MT_BACKEND_SIMPLE ? t : a2;
        enum tolerance tol = ULPS;
        if (k == 2) { /* a fold of acc + x/2: bounded by 0.5 + the sum of |x| */
            tol = BOUNDED;
            if (mt_map(ctx, MT_MAP_ABS, sa, &ab) != MT_OK ||
                mt_reduce(ctx, MT_RED_SUM, ab, dim, &bound) != MT_OK)
                tol = EXACT;
        }
        if (tol != EXACT || k != 2)
            check_same(t->backend == MT_BACKEND_SIMPLE ? *r : r2,
                       t->backend == MT_BACKEND_SIMPLE ? r2 : *r, tol, bound);
        mt_tensor_release(bound);
        mt_tensor_release(ab);
    }
    mt_tensor_release(r2);
    mt_tensor_release(a2);
    mt_tensor_release(b2);
    return st;
}

/* the broadcast shape of t and u, checked against its rule */
static void cmd_broadcast(const struct mt_tensor *t, const struct mt_tensor *u)
{
    if (!u) return;
    int nout;
    int64_t out[MT_MAX_DIMS];
    enum mt_status st = mt_shape_broadcast(ctx, t->ndim, t->shape, u->ndim, u->shape, &nout, out);
    check_status(st, NULL);
    if (st != MT_OK) return;
    if (nout != (t->ndim > u->ndim ? t->ndim : u->ndim)) abort();
    for (int i = 0; i < nout; i++) {
        int ia = i - (nout - t->ndim), ib = i - (nout - u->ndim);
        int64_t da = ia >= 0 ? t->shape[ia] : 1, db = ib >= 0 ? u->shape[ib] : 1;
        if (out[i] != (da == 1 ? db : da) || (da != db && da != 1 && db != 1)) abort();
    }
}

/* the slot emptied (its tensor released) */
static void drop(struct slot *x)
{
    mt_tensor_release(x->t);
    x->t = NULL;
}

static void run(struct slot *s, struct input *in)
{
    unsigned cmd = byte(in) % 20;
    struct slot *d = slot_arg(s, in), *x = slot_arg(s, in), *y = slot_arg(s, in);
    if (trace)
        fprintf(stderr, "command %u: d %d, x %d, y %d\n", cmd, (int)(d - s), (int)(x - s),
                (int)(y - s));
    if (cmd == 0) {
        cmd_create(s, d, in);
        return;
    }
    if (!x->t) return;
    struct mt_tensor *t = x->t, *u = y->t, *r = NULL;
    if (cmd >= 8 && cmd <= 16 && cmd != 14 &&
        (t->size > OP_ELEMS || (y->t && y->t->size > OP_ELEMS) || (d->t && d->t->size > OP_ELEMS)))
        return;
    enum mt_status st;
    switch (cmd) {
    case 1: st = cmd_view(t, in, &r); break;
    case 2: st = cmd_permute(t, in, &r); break;
    case 3: st = cmd_as_strided(t, in, &r); break;
    case 4: st = mt_contiguous(ctx, t, &r); break;
    case 5: st = mt_to(ctx, t, byte(in) & 1 ? MT_BACKEND_FAST : MT_BACKEND_SIMPLE, &r); break;
    case 6: cmd_get_set(x, in, false); return;
    case 7: cmd_get_set(x, in, true); return;
    case 8: /* raw map */ st = raw_both(0, (int)(byte(in) % MT_MAP_COUNT), t, NULL, 0, &r); break;
    case 9: st = cmd_raw_zip(t, u, in, &r); break;
    case 10: st = cmd_raw_reduce(t, in, &r); break;
    case 11: st = cmd_raw_matmul(t, u, &r); break;
    case 12: cmd_into_out(t, y, d, in); return;
    case 13: st = cmd_autodiff(t, u, in, &r); break;
    case 14: check_status(mt_tensor_requires_grad(t, byte(in) & 1), NULL); return;
    case 15: cmd_backward(s, t); return;
    case 16: st = cmd_user_fn(t, u, in, &r); break;
    case 17: st = mt_detach(ctx, t, &r); break;
    case 18: drop(x); return;
    default: cmd_broadcast(t, u); return;
    }
    check_status(st, r);
    if (trace && st != MT_OK) fprintf(stderr, "  %s: %s\n", mt_status_ename(st), mt_ctx_error(ctx));
    if (st != MT_OK || !r) return;
    keep(s, d, r); /* the geometry first: the values are read through it */
    if (d->nelem >= 0) check_view_values(r, mt_tensor_data(r) - r->offset);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    setenv("KMP_BLOCKTIME", "0", 0); /* before the first parallel region reads them */
    setenv("GOMP_SPINCOUNT", "0", 0);
    trace = getenv("FUZZ_ENGINE_TRACE") != NULL;
    ctx = mt_ctx_new();
    if (!ctx) abort();
    mt_ctx_set_mem_limit(ctx, MEM_LIMIT);
    if (mt_ctx_set_threads(ctx, 1) != MT_OK) abort();
    /* map: x * 2 + 1 with a branch; zip and reduce: acc + x / 2 */
    static const struct mt_prog_insn map_insn[] = {
        {MT_P_CONST, 1, 0, 0, 0, 2.0f}, {MT_P_MUL, 2, 0, 1, 0, 0}, {MT_P_CONST, 3, 0, 0, 0, 1.0f},
        {MT_P_ADD, 4, 2, 3, 0, 0},      {MT_P_LT, 5, 0, 3, 0, 0},  {MT_P_TANH, 6, 0, 0, 0, 0},
        {MT_P_SELECT, 7, 5, 4, 6, 0},
    };
    static const struct mt_prog_insn zip_insn[] = {
        {MT_P_CONST, 2, 0, 0, 0, 0.5f},
        {MT_P_MUL, 3, 1, 2, 0, 0},
        {MT_P_ADD, 4, 0, 3, 0, 0},
    };
    map_fn = (struct mt_prog){"fuzz_map", 1, 7, map_insn, 7};
    zip_fn = (struct mt_prog){"fuzz_zip", 2, 3, zip_insn, 4};
    if (mt_prog_check(ctx, &map_fn) != MT_OK || mt_prog_check(ctx, &zip_fn) != MT_OK) abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    struct slot s[SLOTS] = {{0}};
    struct input in = {data, data + size};
    mt_seed(ctx, 0);
    for (int i = 0; i < MAX_CMDS && in.p < in.end; i++) run(s, &in);
    for (int i = 0; i < SLOTS; i++) mt_tensor_release(s[i].t);
    if (mt_ctx_mem_used(ctx) != 0) abort();
    return 0;
}
