/* test_tensor_minitorch.c — MiniTorch's task 3.1/3.2 test list (tests/test_tensor_general.py,
 * reference §4) reproduced at the language level, on the simple and the fast backend.
 *
 * As in MiniTorch's strategies, inputs have 1-4 dims of size 1-3, values in [-100, 100], and
 * are built permuted and then un-permuted, so their strides are not row-major. Each forward
 * result is checked in the language itself (`f(a).is_close(ref).all()`, MiniTorch's
 * assert_close_tensor) against a reference tensor computed here in C with the same float32
 * operations, and again value by value from C. Where MiniTorch checks gradients against central
 * differences (grad_check), these tests check backward() against the analytic gradient of
 * `(f(a) * w).sum()` for a random weight w, computed in C. */
#include "kernel/tensor_helpers.h"

#define EXAMPLES 20 /* hypothesis runs 25-100 per test; the data here differs per example too */
#define MAXN 81     /* 3^4 elements */

static const char *const backends[] = {"simple", "fast"};

/* ---- shapes ------------------------------------------------------------------------------- */

struct nd {
    int ndim;
    int64_t shape[4];
};

static size_t nd_size(const struct nd *s)
{
    size_t n = 1;
    for (int i = 0; i < s->ndim; i++) n *= (size_t)s->shape[i];
    return n;
}

static void unravel(size_t lin, const struct nd *s, int64_t *idx)
{
    for (int i = s->ndim - 1; i >= 0; i--) {
        idx[i] = (int64_t)(lin % (size_t)s->shape[i]);
        lin /= (size_t)s->shape[i];
    }
}

static size_t ravel(const int64_t *idx, const struct nd *s)
{
    size_t lin = 0;
    for (int i = 0; i < s->ndim; i++) lin = lin * (size_t)s->shape[i] + (size_t)idx[i];
    return lin;
}

static int rng_int(struct rng *r, int lo, int hi) /* in [lo, hi] */
{
    return lo + (int)floor(rng_uniform(r, 0, hi - lo + 1));
}

static struct nd random_shape(struct rng *r)
{
    struct nd s = {.ndim = rng_int(r, 1, 4)};
    for (int i = 0; i < s.ndim; i++) s.shape[i] = rng_int(r, 1, 3);
    return s;
}

static void random_perm(struct rng *r, int n, int *p)
{
    for (int i = 0; i < n; i++) p[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = rng_int(r, 0, i), t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
}

/* Defines `name` as a tensor of shape S holding vals (row-major over S) whose storage is laid
 * out in a random other order: tensor(base).permute(Q), MiniTorch's permuted strategy. */
static void make_input(struct dsl_session *s, struct rng *r, const char *name, const struct nd *S,
                       const float *vals, bool grad)
{
    int P[4], Q[4];
    random_perm(r, S->ndim, P);
    struct nd B = {.ndim = S->ndim};
    for (int k = 0; k < S->ndim; k++) {
        B.shape[k] = S->shape[P[k]];
        Q[P[k]] = k;
    }
    float base[MAXN];
    int64_t idx[4], j[4];
    for (size_t i = 0; i < nd_size(S); i++) {
        unravel(i, S, idx);
        for (int k = 0; k < S->ndim; k++) j[k] = idx[P[k]];
        base[ravel(j, &B)] = vals[i];
    }
    char suffix[96] = ".permute(";
    for (int k = 0; k < S->ndim; k++) {
        size_t n = strlen(suffix);
        snprintf(suffix + n, sizeof suffix - n, "%s%d", k ? ", " : "", Q[k]);
    }
    strcat(suffix, grad ? ").requires_grad_()" : ")");
    set_tensor(s, name, base, B.shape, B.ndim, NULL, suffix, __FILE__, __LINE__);
}

static void fill(struct rng *r, float *v, size_t n) { rng_fill(r, v, n, -100, 100); }

/* Checks in the language that `expr` is close to ref (MiniTorch's assert_close_tensor). */
#define CHECK_CLOSE_IN_LANGUAGE(s, expr)                                                           \
    do {                                                                                           \
        char code_[512];                                                                           \
        snprintf(code_, sizeof code_, "(%s).is_close(ref).all().item()", (expr));                  \
        const char *got_ = OK((s), code_);                                                         \
        if (strcmp(got_, "1.0") != 0) {                                                            \
            fprintf(stderr, "%s:%d: %s is not close to the reference (%s)\n", __FILE__, __LINE__,  \
                    (expr), got_);                                                                 \
            test_checks_failed++;                                                                  \
        }                                                                                          \
    } while (0)

static struct dsl_session *session_on(const char *backend)
{
    struct dsl_session *s = dsl_session_new();
    char code[64];
    snprintf(code, sizeof code, "%%backend %s", backend);
    OK(s, code);
    return s;
}

/* ---- test_create ---------------------------------------------------------------------------- */

static void test_create(void)
{
    struct rng r = {1};
    for (int b = 0; b < 2; b++) {
        struct dsl_session *s = session_on(backends[b]);
        for (int e = 0; e < EXAMPLES; e++) {
            struct nd S = random_shape(&r);
            float v[MAXN];
            fill(&r, v, nd_size(&S));
            set_tensor(s, "t", v, S.shape, S.ndim, NULL, NULL, __FILE__, __LINE__);
            double got[MAXN];
            CHECK_INT(VALUES(s, "t", got, MAXN), nd_size(&S));
            for (size_t i = 0; i < nd_size(&S); i++) CHECK((float)got[i] == v[i]); /* exact */
        }
        dsl_session_free(s);
    }
}

/* ---- one-argument functions (MathTest) ---------------------------------------------------- */

static float sigmoidf(float x) { return x >= 0 ? 1 / (1 + expf(-x)) : expf(x) / (1 + expf(x)); }
static float relu(float x) { return x > 0 ? x : 0; }

static float f_add_constant(float a) { return 5 + a; }
static float f_complex(float a) { return logf(sigmoidf(relu(relu(a * 10 + 7) * 6 + 5) * 10)) / 50; }
static float f_cube(float a) { return a * a * a; }
static float f_div(float a) { return a / 5; }
static float f_exp(float a) { return expf(a - 200); }
static float f_explog(float a) { return logf(a + 100000) + expf(a - 200); }
static float f_inv(float a) { return 1 / (a + 3.5f); }
static float f_log(float a) { return logf(a + 100000); }
static float f_mult_constant(float a) { return 5 * a; }
static float f_neg(float a) { return -a; }
static float f_relu(float a) { return relu(a + 5.5f); }
static float f_sig(float a) { return sigmoidf(a); }
static float f_square(float a) { return a * a; }
static float f_sub_constant(float a) { return a - 5; }

static const struct {
    const char *name;
    const char *expr; /* of a */
    float (*fn)(float);
} one_args[] = {
    {"addConstant", "5 + a", f_add_constant},
    {"complex", "(((((a * 10 + 7).relu() * 6 + 5).relu() * 10).sigmoid()).log()) / 50", f_complex},
    {"cube", "a * a * a", f_cube},
    {"div", "a / 5", f_div},
    {"exp", "(a - 200).exp()", f_exp},
    {"explog", "(a + 100000).log() + (a - 200).exp()", f_explog},
    {"inv", "1 / (a + 3.5)", f_inv},
    {"log", "(a + 100000).log()", f_log},
    {"multConstant", "5 * a", f_mult_constant},
    {"neg", "-a", f_neg},
    {"relu", "(a + 5.5).relu()", f_relu},
    {"sig", "a.sigmoid()", f_sig},
    {"square", "a * a", f_square},
    {"subConstant", "a - 5", f_sub_constant},
};

static void test_one_args(void)
{
    struct rng r = {2};
    for (int b = 0; b < 2; b++) {
        struct dsl_session *s = session_on(backends[b]);
        for (size_t f = 0; f < sizeof one_args / sizeof one_args[0]; f++) {
            for (int e = 0; e < EXAMPLES; e++) {
                struct nd S = random_shape(&r);
                size_t n = nd_size(&S);
                float v[MAXN], out[MAXN];
                double want[MAXN];
                fill(&r, v, n);
                for (size_t i = 0; i < n; i++) {
                    if (fabsf(v[i] + 3.5f) < 0.1f) v[i] += 1; /* inv's pole */
                    out[i] = one_args[f].fn(v[i]);
                    want[i] = out[i];
                }
                make_input(s, &r, "a", &S, v, false);
                set_tensor(s, "ref", out, S.shape, S.ndim, NULL, NULL, __FILE__, __LINE__);
                CHECK_CLOSE_IN_LANGUAGE(s, one_args[f].expr);
                CHECK_VALUES(s, one_args[f].expr, want, n, 1e-5);
            }
        }
        dsl_session_free(s);
    }
}

/* ---- two-argument functions --------------------------------------------------------------- */

static float g_add2(float a, float b) { return a + b; }
static float g_mul2(float a, float b) { return a * b; }
static float g_div2(float a, float b) { return a / (b + 5.5f); }
static float g_eq2(float a, float b) { return a == b + 5.5f; }
static float g_gt2(float a, float b) { return a + 1.2f > b; }
static float g_lt2(float a, float b) { return a + 1.2f < b; }

/* d/da and d/db of each (double precision, for the gradient checks) */
static void d_add2(double a, double b, double *da, double *db)
{
    (void)a, (void)b;
    *da = *db = 1;
}
static void d_mul2(double a, double b, double *da, double *db)
{
    *da = b;
    *db = a;
}
static void d_div2(double a, double b, double *da, double *db)
{
    *da = 1 / (b + 5.5);
    *db = -a / ((b + 5.5) * (b + 5.5));
}
static void d_zero(double a, double b, double *da, double *db)
{
    (void)a, (void)b;
    *da = *db = 0;
}

static const struct {
    const char *name;
    const char *expr; /* of a and b */
    float (*fn)(float, float);
    void (*grad)(double, double, double *, double *);
} two_args[] = {
    {"add2", "a + b", g_add2, d_add2},         {"mul2", "a * b", g_mul2, d_mul2},
    {"div2", "a / (b + 5.5)", g_div2, d_div2}, {"eq2", "a == (b + 5.5)", g_eq2, d_zero},
    {"gt2", "a + 1.2 > b", g_gt2, d_zero},     {"lt2", "a + 1.2 < b", g_lt2, d_zero},
};
#define NTWO (sizeof two_args / sizeof two_args[0])

/* Two inputs of one shape; a few b chosen so that eq2 sees equal pairs and away from div2's
 * pole. */
static void two_inputs(struct rng *r, size_t n, float *a, float *b)
{
    fill(r, a, n);
    fill(r, b, n);
    for (size_t i = 0; i < n; i++) {
        if (i % 3 == 0) b[i] = a[i] - 5.5f;
        if (fabsf(b[i] + 5.5f) < 0.5f) b[i] += 2;
    }
}

static void test_two_args(void)
{
    struct rng r = {3};
    for (int bk = 0; bk < 2; bk++) {
        struct dsl_session *s = session_on(backends[bk]);
        for (size_t f = 0; f < NTWO; f++)
            for (int e = 0; e < EXAMPLES; e++) {
                struct nd S = random_shape(&r);
                size_t n = nd_size(&S);
                float a[MAXN], b[MAXN], out[MAXN];
                double want[MAXN];
                two_inputs(&r, n, a, b);
                for (size_t i = 0; i < n; i++) want[i] = out[i] = two_args[f].fn(a[i], b[i]);
                make_input(s, &r, "a", &S, a, false);
                make_input(s, &r, "b", &S, b, false);
                set_tensor(s, "ref", out, S.shape, S.ndim, NULL, NULL, __FILE__, __LINE__);
                CHECK_CLOSE_IN_LANGUAGE(s, two_args[f].expr);
                CHECK_VALUES(s, two_args[f].expr, want, n, 1e-5);
            }
        dsl_session_free(s);
    }
}

/* Checks leaf `name`'s gradient against want (MiniTorch's grad_check tolerance). */
static void check_grad(struct dsl_session *s, const char *name, const double *want, size_t n)
{
    char expr[64];
    snprintf(expr, sizeof expr, "%s.grad", name);
    CHECK_VALUES(s, expr, want, n, 1e-2);
}

/* test_two_grad and test_two_grad_broadcast: f(a, b), f(a.sum(0), b) and f(a, b.sum(0)), with
 * the gradients of (f * w).sum() summed back over the broadcast dim. */
static void test_two_grad(void)
{
    struct rng r = {4};
    for (int bk = 0; bk < 2; bk++) {
        struct dsl_session *s = session_on(backends[bk]);
        for (size_t f = 0; f < NTWO; f++)
            for (int e = 0; e < EXAMPLES / 2; e++)
                for (int mode = 0; mode < 3; mode++) { /* 0: same shape, 1: a summed, 2: b */
                    struct nd S = random_shape(&r), R = S;
                    R.shape[0] = 1; /* the shape after sum(0) */
                    size_t n = nd_size(&S), nr = nd_size(&R);
                    float a[MAXN], b[MAXN], w[MAXN];
                    two_inputs(&r, n, a, b);
                    fill(&r, w, n);
                    /* the summed input holds the sums over dim 0 in its first nr cells */
                    float *x = mode == 1 ? a : b;
                    if (mode) {
                        float sum[MAXN] = {0};
                        int64_t idx[4];
                        for (size_t i = 0; i < n; i++) {
                            unravel(i, &S, idx);
                            idx[0] = 0;
                            sum[ravel(idx, &R)] += x[i];
                        }
                        memcpy(x, sum, nr * sizeof *x);
                        if (mode == 2) /* keep b + 5.5 away from 0 */
                            for (size_t i = 0; i < nr; i++)
                                if (fabsf(x[i] + 5.5f) < 0.5f) x[i] += 2;
                    }
                    make_input(s, &r, "a", mode == 1 ? &R : &S, a, true);
                    make_input(s, &r, "b", mode == 2 ? &R : &S, b, true);
                    set_tensor(s, "w", w, S.shape, S.ndim, NULL, NULL, __FILE__, __LINE__);
                    char code[256];
                    snprintf(code, sizeof code, "((%s) * w).sum().backward()", two_args[f].expr);
                    OK(s, code);
                    double ga[MAXN] = {0}, gb[MAXN] = {0};
                    int64_t idx[4];
                    for (size_t i = 0; i < n; i++) {
                        unravel(i, &S, idx);
                        size_t ia = i, ib = i;
                        idx[0] = 0;
                        if (mode == 1) ia = ravel(idx, &R);
                        if (mode == 2) ib = ravel(idx, &R);
                        double da, db;
                        two_args[f].grad(a[ia], b[ib], &da, &db);
                        ga[ia] += w[i] * da;
                        gb[ib] += w[i] * db;
                    }
                    check_grad(s, "a", ga, mode == 1 ? nr : n);
                    check_grad(s, "b", gb, mode == 2 ? nr : n);
                }
        dsl_session_free(s);
    }
}

/* ---- reductions and permute --------------------------------------------------------------- */

static void test_reduce(void)
{
    struct rng r = {5};
    for (int bk = 0; bk < 2; bk++) {
        struct dsl_session *s = session_on(backends[bk]);
        for (int e = 0; e < EXAMPLES; e++) {
            struct nd S = random_shape(&r), R = S;
            R.shape[0] = 1;
            size_t n = nd_size(&S), nr = nd_size(&R);
            float a[MAXN], w[MAXN];
            fill(&r, a, n);
            fill(&r, w, n);
            make_input(s, &r, "a", &S, a, true);
            double sum0[MAXN] = {0}, total = 0;
            int64_t idx[4];
            for (size_t i = 0; i < n; i++) {
                unravel(i, &S, idx);
                idx[0] = 0;
                sum0[ravel(idx, &R)] += a[i];
                total += a[i];
            }
            double mean0[MAXN], mean = total / (double)n;
            for (size_t i = 0; i < nr; i++) mean0[i] = sum0[i] / (double)S.shape[0];
            CHECK_VALUES(s, "a.sum(0)", sum0, nr, 1e-5);
            CHECK_VALUES(s, "a.mean(0)", mean0, nr, 1e-5);
            CHECK_VALUES(s, "a.mean()", &mean, 1, 1e-5);
            float fsum0[MAXN];
            for (size_t i = 0; i < nr; i++) fsum0[i] = (float)sum0[i];
            set_tensor(s, "ref", fsum0, R.shape, R.ndim, NULL, NULL, __FILE__, __LINE__);
            CHECK_CLOSE_IN_LANGUAGE(s, "a.sum(0)");
            /* gradients: sum(0) -> w[0, rest]; mean(0) -> w[0, rest] / n0; mean() -> w / n */
            set_tensor(s, "w", w, R.shape, R.ndim, NULL, NULL, __FILE__, __LINE__);
            double g[MAXN];
            for (size_t i = 0; i < n; i++) {
                unravel(i, &S, idx);
                idx[0] = 0;
                g[i] = w[ravel(idx, &R)];
            }
            OK(s, "a.zero_grad(); (a.sum(0) * w).sum().backward()");
            check_grad(s, "a", g, n);
            for (size_t i = 0; i < n; i++) g[i] /= (double)S.shape[0];
            OK(s, "a.zero_grad(); (a.mean(0) * w).sum().backward()");
            check_grad(s, "a", g, n);
            for (size_t i = 0; i < n; i++) g[i] = 1.0 / (double)n;
            OK(s, "a.zero_grad(); a.mean().backward()");
            check_grad(s, "a", g, n);
        }
        dsl_session_free(s);
    }
}

static void test_permute(void)
{
    struct rng r = {6};
    for (int bk = 0; bk < 2; bk++) {
        struct dsl_session *s = session_on(backends[bk]);
        for (int e = 0; e < EXAMPLES; e++) {
            struct nd S = random_shape(&r), O = {.ndim = S.ndim};
            size_t n = nd_size(&S);
            int P[4];
            random_perm(&r, S.ndim, P);
            for (int k = 0; k < S.ndim; k++) O.shape[k] = S.shape[P[k]];
            float a[MAXN], w[MAXN];
            fill(&r, a, n);
            fill(&r, w, n);
            make_input(s, &r, "a", &S, a, true);
            set_tensor(s, "w", w, O.shape, O.ndim, NULL, NULL, __FILE__, __LINE__);
            /* out[j] = a[i] with i[P[k]] = j[k] */
            double want[MAXN], g[MAXN];
            int64_t i_[4], j[4];
            for (size_t k = 0; k < n; k++) {
                unravel(k, &O, j);
                for (int d = 0; d < S.ndim; d++) i_[P[d]] = j[d];
                want[k] = a[ravel(i_, &S)];
                g[ravel(i_, &S)] = w[k];
            }
            char order[64] = "", expr[128], code[192];
            for (int d = 0; d < S.ndim; d++) {
                size_t len = strlen(order);
                snprintf(order + len, sizeof order - len, "%s%d", d ? ", " : "", P[d]);
            }
            snprintf(expr, sizeof expr, "a.permute(%s)", order);
            CHECK_VALUES(s, expr, want, n, 0);
            snprintf(code, sizeof code, "(%s * w).sum().backward()", expr);
            OK(s, code);
            check_grad(s, "a", g, n);
        }
        dsl_session_free(s);
    }
}

/* ---- matrix multiply (task 3.2) ----------------------------------------------------------- */

static void test_mm2(void)
{
    struct rng r = {7};
    for (int bk = 0; bk < 2; bk++) {
        struct dsl_session *s = session_on(backends[bk]);
        const struct nd SA = {2, {2, 3}}, SB = {2, {3, 4}};
        float a[6], b[12], w[8];
        fill(&r, a, 6);
        fill(&r, b, 12);
        fill(&r, w, 8);
        /* contiguous, as MiniTorch's rand((2, 3)): view() needs that */
        set_tensor(s, "a", a, SA.shape, 2, ", requires_grad=true", NULL, __FILE__, __LINE__);
        set_tensor(s, "b", b, SB.shape, 2, ", requires_grad=true", NULL, __FILE__, __LINE__);
        OK(s, "c = a @ b; c2 = (a.view(2, 3, 1) * b.view(1, 3, 4)).sum(1).view(2, 4)");
        CHECK_STR(OK(s, "c.shape"), "(2, 4)");
        CHECK_STR(OK(s, "c.is_close(c2).all().item()"), "1.0");
        double want[8];
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 4; j++) {
                want[i * 4 + j] = 0;
                for (int k = 0; k < 3; k++) want[i * 4 + j] += (double)a[i * 3 + k] * b[k * 4 + j];
            }
        CHECK_VALUES(s, "c", want, 8, 1e-2);
        /* d/da (c * w).sum() = w @ b^T, d/db = a^T @ w */
        const int64_t sw[] = {2, 4};
        set_tensor(s, "w", w, sw, 2, NULL, NULL, __FILE__, __LINE__);
        OK(s, "(c * w).sum().backward()");
        double ga[6] = {0}, gb[12] = {0};
        for (int i = 0; i < 2; i++)
            for (int k = 0; k < 3; k++)
                for (int j = 0; j < 4; j++) {
                    ga[i * 3 + k] += (double)w[i * 4 + j] * b[k * 4 + j];
                    gb[k * 4 + j] += (double)a[i * 3 + k] * w[i * 4 + j];
                }
        check_grad(s, "a", ga, 6);
        check_grad(s, "b", gb, 12);
        dsl_session_free(s);
    }
}

/* a (D, A, B) non-contiguous @ b (1, B, C): the batch dim broadcasts. */
static void test_bmm(void)
{
    struct rng r = {8};
    for (int bk = 0; bk < 2; bk++) {
        struct dsl_session *s = session_on(backends[bk]);
        for (int e = 0; e < EXAMPLES; e++) {
            int A = rng_int(&r, 2, 4), B = rng_int(&r, 2, 4), C = rng_int(&r, 2, 4),
                D = rng_int(&r, 2, 4);
            const struct nd SA = {3, {D, A, B}}, SB = {3, {1, B, C}};
            float a[64], b[16];
            fill(&r, a, nd_size(&SA));
            fill(&r, b, nd_size(&SB));
            make_input(s, &r, "a", &SA, a, false);
            make_input(s, &r, "b", &SB, b, false);
            char code[256];
            snprintf(code, sizeof code,
                     "c = a @ b; c2 = (a.contiguous().view(%d, %d, %d, 1) * "
                     "b.contiguous().view(1, 1, %d, %d)).sum(2).view(%d, %d, %d)",
                     D, A, B, B, C, D, A, C);
            OK(s, code);
            CHECK_STR(OK(s, "c.is_close(c2).all().item()"), "1.0");
            double want[64];
            for (int d = 0; d < D; d++)
                for (int i = 0; i < A; i++)
                    for (int j = 0; j < C; j++) {
                        double acc = 0;
                        for (int k = 0; k < B; k++)
                            acc += (double)a[(d * A + i) * B + k] * b[k * C + j];
                        want[(d * A + i) * C + j] = acc;
                    }
            /* sums of B products of values up to 1e4 in float32: MiniTorch's tolerance */
            CHECK_VALUES(s, "c", want, (size_t)(D * A * C), 1e-2);
        }
        dsl_session_free(s);
    }
}

int main(void)
{
    RUN_TEST(test_create);
    RUN_TEST(test_one_args);
    RUN_TEST(test_two_args);
    RUN_TEST(test_two_grad);
    RUN_TEST(test_reduce);
    RUN_TEST(test_permute);
    RUN_TEST(test_mm2);
    RUN_TEST(test_bmm);
    return TEST_SUMMARY();
}
