/* test_tensor.c — tensors in the language: creation, operators with broadcasting and numbers,
 * every method and property, indexing, autodiff, tolist, display, errors and keyword arguments.
 *
 * Every computed result is compared with a plain C computation on the same data (see
 * tensor_helpers.h); display tests build the expected text from the values with printf. The
 * session must stay usable after every error (FAILS checks that). */
#include "../../../engine/src/cuda/device.h" /* internal header: the reason to expect */
#include "kernel/tensor_helpers.h"

#include <float.h>

/* ---- creation ----------------------------------------------------------------------------- */

static void test_create(void)
{
    struct dsl_session *s = dsl_session_new();
    double want[6] = {1, 2, 3, 4, 5, 6};
    CHECK_VALUES(s, "tensor([[1, 2, 3], [4, 5, 6]])", want, 6, 0);
    CHECK_STR(OK(s, "tensor([[1, 2, 3], [4, 5, 6]]).shape"), "(2, 3)");
    CHECK_STR(OK(s, "tensor(2.5).shape"), "(1,)");
    CHECK_STR(OK(s, "tensor(2.5).item()"), "2.5");
    CHECK_STR(OK(s, "tensor([]).shape"), "(0,)");
    CHECK_STR(OK(s, "tensor([[true, false]]).tolist()"), "[[1.0, 0.0]]");
    CHECK_STR(OK(s, "type(tensor([1]))"), "<class 'tensor'>");

    double zeros[6] = {0}, ones[6] = {1, 1, 1, 1, 1, 1};
    CHECK_VALUES(s, "zeros(2, 3)", zeros, 6, 0);
    CHECK_VALUES(s, "zeros([2, 3])", zeros, 6, 0);
    CHECK_VALUES(s, "ones(3, 2)", ones, 6, 0);
    CHECK_VALUES(s, "ones([6])", ones, 6, 0);
    CHECK_STR(OK(s, "zeros([2, 3]).shape"), "(2, 3)");
    CHECK_STR(OK(s, "ones(3, 2).shape"), "(3, 2)");
    CHECK_STR(OK(s, "zeros(tensor([[1, 2]]).shape).shape"), "(1, 2)"); /* a shape as the size */
    CHECK_STR(OK(s, "zeros(2, 0).size"), "0");

    /* rand: uniform [0, 1), and seed() repeats it */
    double r[1000];
    size_t n = VALUES(s, "rand(10, 100)", r, 1000);
    CHECK_INT(n, 1000);
    double mean = 0;
    for (size_t i = 0; i < n; i++) {
        CHECK(r[i] >= 0 && r[i] < 1);
        mean += r[i] / (double)n;
    }
    CHECK(mean > 0.4 && mean < 0.6);
    OK(s, "seed(3); a = rand(4); seed(3); b = rand(4)");
    CHECK_STR(OK(s, "(a == b).all().item()"), "1.0");
    CHECK_STR(OK(s, "a.tolist() == b.tolist()"), "True");
    CHECK_STR(OK(s, "(a == rand(4)).all().item()"), "0.0"); /* the generator moved on */
    /* Python 3: random.seed(3); [random.random() for _ in range(4)] gives
     * 0.23796462709189137, 0.5442292252959519, 0.36995516654807925, 0.6039200385961945
     * (computed once with CPython); a tensor holds them rounded to float32. */
    const double py[4] = {0.23796462709189137, 0.5442292252959519, 0.36995516654807925,
                          0.6039200385961945};
    double got[4];
    CHECK_INT(VALUES(s, "a", got, 4), 4);
    for (int i = 0; i < 4; i++) CHECK((float)got[i] == (float)py[i]);
    OK(s, "seed(-3); c = rand(4)"); /* Python seeds with abs(n) */
    CHECK_STR(OK(s, "(a == c).all().item()"), "1.0");
    OK(s, "seed(3); big = rand(2, 2)");
    CHECK_INT(VALUES(s, "big", got, 4), 4); /* one draw per element, row-major */
    for (int i = 0; i < 4; i++) CHECK((float)got[i] == (float)py[i]);

    /* keywords */
    CHECK_STR(OK(s, "tensor([1, 2], requires_grad=true).requires_grad()"), "True");
    CHECK_STR(OK(s, "tensor([1, 2]).requires_grad()"), "False");
    CHECK_STR(OK(s, "rand(2, requires_grad=true).requires_grad()"), "True");
    CHECK_STR(OK(s, "zeros(2, backend=\"simple\").backend"), "'simple'");
    CHECK_STR(OK(s, "ones(2, requires_grad=true, backend=\"fast\").backend"), "'fast'");
    CHECK_STR(OK(s, "tensor(data=[1, 2], backend=\"simple\").backend"), "'simple'");
    const char *m = FAILS(s, "rand(2, foo=1)", "TypeError");
    CHECK(strstr(m, "'foo'") != NULL);
    FAILS(s, "tensor([1], [2])", "TypeError"); /* one positional argument */
    FAILS(s, "zeros()", "TypeError");
    FAILS(s, "zeros(-1)", "ValueError");
    FAILS(s, "zeros(2.5)", "TypeError");
    FAILS(s, "zeros(1, 1, 1, 1, 1, 1, 1, 1, 1)", "ValueError");
    FAILS(s, "zeros(2, backend=\"gpu\")", "ValueError");
    FAILS(s, "zeros(2, backend=3)", "TypeError");
    FAILS(s, "tensor(\"abc\")", "TypeError");
    FAILS(s, "seed(1.5)", "TypeError");

    /* ragged lists name the position */
    m = FAILS(s, "tensor([[1, 2], [3]])", "ValueError");
    CHECK(strstr(m, "data[1]") != NULL && strstr(m, "data[0]") != NULL);
    m = FAILS(s, "tensor([[1, 2], [3, [4]]])", "ValueError");
    CHECK(strstr(m, "data[1][1]") != NULL);
    m = FAILS(s, "tensor([[1, 2], 3])", "ValueError");
    CHECK(strstr(m, "data[1]") != NULL);
    m = FAILS(s, "tensor([1, \"a\"])", "TypeError");
    CHECK(strstr(m, "data[1]") != NULL);
    FAILS(s, "tensor([[[[[[[[[1]]]]]]]]])", "ValueError"); /* 9 dims */
    CHECK_STR(OK(s, "tensor([[[[[[[[1]]]]]]]]).dims"), "8");
    dsl_session_free(s);
}

/* ---- operators ---------------------------------------------------------------------------- */

enum { ADD, SUB, MUL, DIV, LT, GT, EQ, NE, LE, GE, NOPS };
static const char *const op_text[NOPS] = {"+", "-", "*", "/", "<", ">", "==", "!=", "<=", ">="};

static double apply(int op, float a, float b)
{
    switch (op) {
    case ADD: return (float)(a + b);
    case SUB: return (float)(a - b);
    case MUL: return (float)(a * b);
    case DIV: return (float)(a / b);
    case LT: return a < b;
    case GT: return a > b;
    case EQ: return a == b;
    case NE: return a != b;
    case LE: return a <= b;
    default: return a >= b;
    }
}

/* a (2,3) op b with b of shape (3,), (2,1), (1,3) or a number on either side. */
static void test_operators_broadcast(void)
{
    struct dsl_session *s = dsl_session_new();
    struct rng r = {42};
    float a[6], b3[3], b21[2];
    rng_fill(&r, a, 6, -3, 3);
    rng_fill(&r, b3, 3, -3, 3);
    rng_fill(&r, b21, 2, -3, 3);
    a[4] = b3[1]; /* equal pairs, so == and <= see a tie */
    const int64_t sa[] = {2, 3}, s3[] = {3}, s21[] = {2, 1}, s13[] = {1, 3};
    SET_TENSOR(s, "a", a, sa, 2, NULL);
    SET_TENSOR(s, "b3", b3, s3, 1, NULL);
    SET_TENSOR(s, "b21", b21, s21, 2, NULL);
    SET_TENSOR(s, "b13", b3, s13, 2, NULL);
    const float k = 1.5f;
    char expr[128];
    double want[6];
    for (int op = 0; op < NOPS; op++) {
        for (int i = 0; i < 6; i++) want[i] = apply(op, a[i], b3[i % 3]);
        snprintf(expr, sizeof expr, "a %s b3", op_text[op]);
        CHECK_VALUES(s, expr, want, 6, 1e-6);
        snprintf(expr, sizeof expr, "a %s b13", op_text[op]);
        CHECK_VALUES(s, expr, want, 6, 1e-6);
        for (int i = 0; i < 6; i++) want[i] = apply(op, b3[i % 3], a[i]);
        snprintf(expr, sizeof expr, "b3 %s a", op_text[op]);
        CHECK_VALUES(s, expr, want, 6, 1e-6);
        for (int i = 0; i < 6; i++) want[i] = apply(op, a[i], b21[i / 3]);
        snprintf(expr, sizeof expr, "a %s b21", op_text[op]);
        CHECK_VALUES(s, expr, want, 6, 1e-6);
        /* numbers on either side */
        for (int i = 0; i < 6; i++) want[i] = apply(op, a[i], k);
        snprintf(expr, sizeof expr, "a %s 1.5", op_text[op]);
        CHECK_VALUES(s, expr, want, 6, 1e-6);
        for (int i = 0; i < 6; i++) want[i] = apply(op, k, a[i]);
        snprintf(expr, sizeof expr, "1.5 %s a", op_text[op]);
        CHECK_VALUES(s, expr, want, 6, 1e-6);
    }
    /* (2,1) with (1,3) broadcast both ways to (2,3) */
    for (int i = 0; i < 6; i++) want[i] = (float)(b21[i / 3] * b3[i % 3]);
    CHECK_VALUES(s, "b21 * b13", want, 6, 1e-6);
    CHECK_STR(OK(s, "(b21 * b13).shape"), "(2, 3)");
    CHECK_STR(OK(s, "(zeros(4, 1, 3) - zeros(2, 1)).shape"), "(4, 2, 3)");
    /* unary minus, int operands, a comparison gives 1.0/0.0 */
    for (int i = 0; i < 6; i++) want[i] = -a[i];
    CHECK_VALUES(s, "-a", want, 6, 0);
    CHECK_VALUES(s, "+(-(-(-a)))", want, 6, 0);
    for (int i = 0; i < 6; i++) want[i] = (float)(2.0f / a[i]);
    CHECK_VALUES(s, "2 / a", want, 6, 1e-6);
    for (int i = 0; i < 6; i++) want[i] = (float)(a[i] * 3.0f - 1.0f);
    CHECK_VALUES(s, "3 * a - 1", want, 6, 1e-6);
    CHECK_VALUES(s, "true * a * 3 - 1", want, 6, 1e-6);
    /* the number takes the tensor's backend */
    CHECK_STR(OK(s, "(1 + zeros(2, backend=\"simple\")).backend"), "'simple'");
    CHECK_STR(OK(s, "(zeros(2, backend=\"simple\") * 2).backend"), "'simple'");
    /* == and != with a non-tensor compare identity, like Python */
    CHECK_STR(OK(s, "a == none"), "False");
    CHECK_STR(OK(s, "a != \"x\""), "True");
    CHECK(strncmp(OK(s, "a == a"), "tensor(", 7) == 0); /* a tensor, not a bool */
    CHECK_STR(OK(s, "[a] == [a]"), "True");             /* inside lists: identity */
    /* sum() of a list of tensors adds them */
    for (int i = 0; i < 6; i++) want[i] = (float)(a[i] + a[i]);
    CHECK_VALUES(s, "sum([a, a])", want, 6, 1e-6);
    /* augmented assignment rebinds */
    OK(s, "c = a; c += 1");
    for (int i = 0; i < 6; i++) want[i] = (float)(a[i] + 1.0f);
    CHECK_VALUES(s, "c", want, 6, 1e-6);
    for (int i = 0; i < 6; i++) want[i] = a[i];
    CHECK_VALUES(s, "a", want, 6, 0);

    /* errors */
    const char *m = FAILS(s, "zeros(5, 2) + zeros(5)", "ShapeError");
    CHECK(strstr(m, "(5, 2)") != NULL && strstr(m, "(5,)") != NULL);
    FAILS(s, "zeros(5, 7, 5, 1) + zeros(1, 5, 1, 5)", "ShapeError");
    FAILS(s, "a + \"s\"", "TypeError");
    FAILS(s, "\"s\" * a", "TypeError");
    FAILS(s, "a + [1, 2]", "TypeError");
    FAILS(s, "a @ 2", "TypeError");
    FAILS(s, "2 @ a", "TypeError");
    FAILS(s, "a ** 2", "TypeError");
    FAILS(s, "a // 2", "TypeError");
    FAILS(s, "a < \"s\"", "TypeError");
    /* two backends meet on the left operand's, as MiniTorch moves the right one */
    CHECK_STR(OK(s, "(zeros(2, backend=\"simple\") + ones(2, backend=\"fast\")).backend"),
              "'simple'");
    dsl_session_free(s);
}

static void test_matmul(void)
{
    struct dsl_session *s = dsl_session_new();
    struct rng r = {7};
    float a[2 * 3 * 4], b[4 * 5];
    rng_fill(&r, a, 24, -2, 2);
    rng_fill(&r, b, 20, -2, 2);
    const int64_t sa[] = {2, 3, 4}, sb[] = {4, 5}, sb3[] = {1, 4, 5};
    SET_TENSOR(s, "a", a, sa, 3, NULL);
    SET_TENSOR(s, "b", b, sb, 2, NULL);
    SET_TENSOR(s, "b3", b, sb3, 3, NULL);
    double want[2 * 3 * 5];
    for (int n = 0; n < 2; n++)
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 5; j++) {
                double acc = 0;
                for (int k = 0; k < 4; k++) acc += (double)a[n * 12 + i * 4 + k] * b[k * 5 + j];
                want[n * 15 + i * 5 + j] = acc;
            }
    CHECK_VALUES(s, "a @ b3", want, 30, 1e-5);
    CHECK_STR(OK(s, "(a @ b3).shape"), "(2, 3, 5)");
    CHECK_STR(OK(s, "(a @ b).shape"), "(2, 3, 5)"); /* 2-D b lifted to (1, 4, 5) */
    CHECK_VALUES(s, "a @ b", want, 30, 1e-5);
    CHECK_STR(OK(s, "(zeros(3, 4) @ zeros(4, 2)).shape"), "(3, 2)");
    const char *m = FAILS(s, "zeros(3, 4) @ zeros(3, 4)", "ShapeError");
    CHECK(strstr(m, "4") != NULL);
    dsl_session_free(s);
}

/* ---- methods and properties ------------------------------------------------------------- */

static void test_reductions(void)
{
    struct dsl_session *s = dsl_session_new();
    struct rng r = {11};
    float a[2 * 3];
    rng_fill(&r, a, 6, -1, 1);
    a[0] = 0.5f; /* all(): a product of non-zero values */
    const int64_t sa[] = {2, 3};
    SET_TENSOR(s, "a", a, sa, 2, NULL);
    double s0[3], s1[2], m0[3], m1[2], x0[3], x1[2], p0[3], total = 0, prod = 1, mx = -INFINITY;
    for (int j = 0; j < 3; j++) {
        s0[j] = (double)a[j] + a[3 + j];
        m0[j] = s0[j] / 2;
        x0[j] = fmax(a[j], a[3 + j]);
        p0[j] = (double)a[j] * a[3 + j];
    }
    for (int i = 0; i < 2; i++) {
        s1[i] = m1[i] = 0;
        x1[i] = -INFINITY;
        for (int j = 0; j < 3; j++) {
            s1[i] += a[i * 3 + j];
            x1[i] = fmax(x1[i], a[i * 3 + j]);
        }
        m1[i] = s1[i] / 3;
    }
    for (int i = 0; i < 6; i++) {
        total += a[i];
        prod *= a[i];
        mx = fmax(mx, a[i]);
    }
    double mean = total / 6;
    CHECK_VALUES(s, "a.sum(0)", s0, 3, 1e-6);
    CHECK_STR(OK(s, "a.sum(0).shape"), "(1, 3)"); /* the dim is kept */
    CHECK_VALUES(s, "a.sum(1)", s1, 2, 1e-6);
    CHECK_STR(OK(s, "a.sum(1).shape"), "(2, 1)");
    CHECK_VALUES(s, "a.sum(-1)", s1, 2, 1e-6);
    CHECK_VALUES(s, "a.sum(dim=1)", s1, 2, 1e-6);
    CHECK_VALUES(s, "a.sum()", &total, 1, 1e-6);
    CHECK_STR(OK(s, "a.sum().shape"), "(1,)");
    CHECK_VALUES(s, "a.mean(0)", m0, 3, 1e-6);
    CHECK_VALUES(s, "a.mean(1)", m1, 2, 1e-6);
    CHECK_VALUES(s, "a.mean()", &mean, 1, 1e-6);
    CHECK_STR(OK(s, "a.mean().shape"), "(1,)");
    CHECK_VALUES(s, "a.max(0)", x0, 3, 0);
    CHECK_VALUES(s, "a.max(1)", x1, 2, 0);
    CHECK_VALUES(s, "a.max()", &mx, 1, 0);
    CHECK_VALUES(s, "a.all(0)", p0, 3, 1e-6);
    CHECK_VALUES(s, "a.all()", &prod, 1, 1e-6);
    CHECK_STR(OK(s, "ones(2, 2).all().item()"), "1.0");
    CHECK_STR(OK(s, "tensor([1, 0]).all().item()"), "0.0");
    FAILS(s, "a.sum(2)", "IndexError");
    FAILS(s, "a.sum(-3)", "IndexError");
    FAILS(s, "a.sum(0.5)", "TypeError");
    FAILS(s, "a.sum(0, 1)", "TypeError");
    dsl_session_free(s);
}

static void test_elementwise_methods(void)
{
    struct dsl_session *s = dsl_session_new();
    struct rng r = {5};
    float a[12];
    rng_fill(&r, a, 12, -4, 4);
    a[3] = 0.0f;
    const int64_t sa[] = {3, 4};
    SET_TENSOR(s, "a", a, sa, 2, NULL);
    OK(s, "p = a.abs() + 0.5"); /* positive, for log, sqrt and inv */
    double want[12];
    for (int i = 0; i < 12; i++) want[i] = a[i] > 0 ? a[i] : 0;
    CHECK_VALUES(s, "a.relu()", want, 12, 0);
    for (int i = 0; i < 12; i++) want[i] = 1 / (1 + exp(-(double)a[i]));
    CHECK_VALUES(s, "a.sigmoid()", want, 12, 1e-6);
    for (int i = 0; i < 12; i++) want[i] = exp((double)a[i]);
    CHECK_VALUES(s, "a.exp()", want, 12, 1e-6);
    for (int i = 0; i < 12; i++) want[i] = -a[i];
    CHECK_VALUES(s, "a.neg()", want, 12, 0);
    for (int i = 0; i < 12; i++) want[i] = fabs((double)a[i]);
    CHECK_VALUES(s, "a.abs()", want, 12, 0);
    CHECK_VALUES(s, "abs(a)", want, 12, 0);
    for (int i = 0; i < 12; i++) want[i] = tanh((double)a[i]);
    CHECK_VALUES(s, "a.tanh()", want, 12, 1e-6);
    for (int i = 0; i < 12; i++) want[i] = log(fabs((double)a[i]) + 0.5);
    CHECK_VALUES(s, "p.log()", want, 12, 1e-5);
    for (int i = 0; i < 12; i++) want[i] = sqrt(fabs((double)a[i]) + 0.5);
    CHECK_VALUES(s, "p.sqrt()", want, 12, 1e-6);
    for (int i = 0; i < 12; i++) want[i] = 1 / (fabs((double)a[i]) + 0.5);
    CHECK_VALUES(s, "p.inv()", want, 12, 1e-6);
    /* is_close: |x - y| < 1e-2, with a number or a tensor */
    for (int i = 0; i < 12; i++) want[i] = fabs((double)a[i] - 0.5) < 1e-2;
    CHECK_VALUES(s, "a.is_close(0.5)", want, 12, 0);
    CHECK_STR(OK(s, "a.is_close(a + 0.005).all().item()"), "1.0");
    CHECK_STR(OK(s, "a.is_close(a + 0.02).all().item()"), "0.0");
    CHECK_STR(OK(s, "a.is_close(other=a).all().item()"), "1.0");
    FAILS(s, "a.is_close(\"x\")", "TypeError");
    FAILS(s, "a.relu(1)", "TypeError");
    dsl_session_free(s);
}

static void test_views(void)
{
    struct dsl_session *s = dsl_session_new();
    float a[24];
    for (int i = 0; i < 24; i++) a[i] = (float)i;
    const int64_t sa[] = {2, 3, 4};
    SET_TENSOR(s, "a", a, sa, 3, NULL);
    CHECK_STR(OK(s, "a.strides"), "(12, 4, 1)");
    CHECK_STR(OK(s, "a.is_contiguous()"), "True");
    /* permute(2, 0, 1): p[i, j, k] = a[j, k, i] */
    OK(s, "p = a.permute(2, 0, 1)");
    CHECK_STR(OK(s, "p.shape"), "(4, 2, 3)");
    CHECK_STR(OK(s, "p.strides"), "(1, 12, 4)");
    CHECK_STR(OK(s, "p.is_contiguous()"), "False");
    double want[24];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++)
            for (int k = 0; k < 3; k++) want[i * 6 + j * 3 + k] = a[j * 12 + k * 4 + i];
    CHECK_VALUES(s, "p", want, 24, 0);
    CHECK_VALUES(s, "a.permute([2, 0, 1])", want, 24, 0);
    CHECK_VALUES(s, "a.permute(-1, 0, 1)", want, 24, 0);
    CHECK_VALUES(s, "p.contiguous()", want, 24, 0);
    CHECK_STR(OK(s, "p.contiguous().is_contiguous()"), "True");
    CHECK_STR(OK(s, "p.contiguous().strides"), "(6, 3, 1)");
    /* view needs contiguous storage */
    const char *m = FAILS(s, "p.view(24)", "ShapeError");
    CHECK(strstr(m, "contiguous()") != NULL);
    CHECK_VALUES(s, "p.contiguous().view(24)", want, 24, 0);
    for (int i = 0; i < 24; i++) want[i] = a[i];
    CHECK_VALUES(s, "a.view(6, 4)", want, 24, 0);
    CHECK_STR(OK(s, "a.view(6, 4).shape"), "(6, 4)");
    CHECK_STR(OK(s, "a.view([4, 6]).shape"), "(4, 6)");
    CHECK_STR(OK(s, "a.view(-1, 2).shape"), "(12, 2)");
    CHECK_STR(OK(s, "a.view(a.shape).shape"), "(2, 3, 4)");
    FAILS(s, "a.view(5, 5)", "ShapeError");
    /* sizes whose product wraps around int64 are refused: (2^60 + 1) * 16 wraps to 16, and
     * 2^62 * 4 to 0 (which is not a size 0 beside the -1) */
    m = FAILS(s, "zeros(16).view(2**60 + 1, 16)", "ShapeError");
    CHECK(strstr(m, "cannot view a tensor of shape (16,) (16 elements)") != NULL);
    m = FAILS(s, "zeros(8).view(2**62, 4, -1)", "ShapeError");
    CHECK(strstr(m, "cannot view a tensor of shape (8,) (8 elements)") != NULL);
    CHECK(strstr(m, "ambiguous") == NULL);
    FAILS(s, "a.permute(0, 1)", "ShapeError");
    FAILS(s, "a.permute(0, 0, 1)", "IndexError");
    FAILS(s, "a.view()", "TypeError");
    FAILS(s, "a.view(2.0, 12)", "TypeError");
    /* views share storage: writing through one shows in the other */
    OK(s, "v = a.view(24); v[5] = 100");
    CHECK_STR(OK(s, "a[0, 1, 1]"), "100.0");
    dsl_session_free(s);
}

static void test_properties(void)
{
    struct dsl_session *s = dsl_session_new();
    OK(s, "x = zeros(2, 3)");
    CHECK_STR(OK(s, "x.shape"), "(2, 3)");
    CHECK_STR(OK(s, "len(x.shape)"), "2");
    CHECK_STR(OK(s, "x.shape[0]"), "2");
    CHECK_STR(OK(s, "x.shape[-1]"), "3");
    CHECK_STR(OK(s, "x.shape == (2, 3)"), "True");
    CHECK_STR(OK(s, "x.shape == [2, 3]"), "False"); /* a tuple never equals a list */
    CHECK_STR(OK(s, "type(x.shape)"), "<class 'tuple'>");
    CHECK_STR(OK(s, "zeros(5).shape"), "(5,)");
    CHECK_STR(OK(s, "list(x.shape)"), "[2, 3]");
    CHECK_STR(OK(s, "x.shape + (4,)"), "(2, 3, 4)");
    CHECK_STR(OK(s, "list(x.shape) + [4]"), "[2, 3, 4]");
    CHECK_STR(OK(s, "s = x.shape; s += (1,); s"), "(2, 3, 1)");
    CHECK_STR(OK(s, "x.shape"), "(2, 3)"); /* += made a new tuple */
    CHECK_STR(OK(s, "x.strides"), "(3, 1)");
    CHECK_STR(OK(s, "x.size"), "6");
    CHECK_STR(OK(s, "x.dims"), "2");
    CHECK_STR(OK(s, "len(x)"), "2");
    CHECK_STR(OK(s, "x.backend"), "'fast'");
    CHECK_STR(OK(s, "x.grad"), "");
    CHECK_STR(OK(s, "x.grad == none"), "True");
    const char *m = NULL;
    CHECK_STR(OK(s, "x.requires_grad()"), "False");
    OK(s, "x.requires_grad_(true)");
    CHECK_STR(OK(s, "x.requires_grad()"), "True");
    OK(s, "x.requires_grad_(false)");
    CHECK_STR(OK(s, "x.requires_grad()"), "False");
    CHECK_STR(OK(s, "x.requires_grad_().requires_grad()"), "True");
    /* MiniTorch's requires_grad is a method: assigning it names the one that sets it */
    m = FAILS(s, "x.requires_grad = true", "AttributeError");
    CHECK(strstr(m, "x.requires_grad_(True)") != NULL);
    CHECK_STR(OK(s, "x.requires_grad()"), "True"); /* unchanged by the refused assignment */
    m = FAILS(s, "x.nope", "AttributeError");
    CHECK(strstr(m, "nope") != NULL);
    m = FAILS(s, "x.shap", "AttributeError");
    CHECK(strstr(m, "shape") != NULL); /* a suggestion */
    FAILS(s, "x.shape = [1]", "AttributeError");
    FAILS(s, "x.sum = 1", "AttributeError");
    FAILS(s, "x.grad = x", "TypeError");
    FAILS(s, "x.shape()", "TypeError"); /* a tuple is not callable */
    FAILS(s, "[1].shape", "AttributeError");
    FAILS(s, "(1).x = 2", "AttributeError");
    /* methods are values */
    CHECK_STR(OK(s, "f = x.sum; f().shape"), "(1,)");
    CHECK_STR(OK(s, "type(x.sum)"), "<class 'method'>");
    CHECK_STR(OK(s, "x.sum"), "<bound method tensor.sum>");
    /* item, int, float, bool */
    CHECK_STR(OK(s, "tensor([0.1]).item()"), "0.1");
    CHECK_STR(OK(s, "float(tensor([[2.5]]))"), "2.5");
    CHECK_STR(OK(s, "int(tensor([-2.5]))"), "-2");
    CHECK_STR(OK(s, "bool(tensor([0]))"), "False");
    m = FAILS(s, "x.item()", "ValueError");
    CHECK(strstr(m, "6") != NULL);
    FAILS(s, "float(x)", "ValueError");
    /* to() moves between backends; detach() shares storage without history */
    CHECK_STR(OK(s, "x.to(\"simple\").backend"), "'simple'");
    CHECK_STR(OK(s, "x.to(backend=\"fast\").backend"), "'fast'");
    FAILS(s, "x.to(\"tpu\")", "ValueError");
    const char *why = NULL, *m2 = FAILS(s, "x.to(\"cuda\")", "RuntimeError");
    if (!mt_cuda_probe(&why)) CHECK(strstr(m2, why) != NULL); /* says what is missing */
    OK(s, "y = tensor([1, 2], requires_grad=true); d = (y * 2).detach()");
    CHECK_STR(OK(s, "d.requires_grad()"), "False");
    OK(s, "e = y.detach(); e[0] = 9");
    CHECK_STR(OK(s, "y[0]"), "9.0");
    dsl_session_free(s);
}

/* ---- indexing ----------------------------------------------------------------------------- */

static void test_indexing(void)
{
    struct dsl_session *s = dsl_session_new();
    struct rng r = {3};
    float a[12];
    rng_fill(&r, a, 12, -10, 10);
    const int64_t sa[] = {3, 4};
    SET_TENSOR(s, "a", a, sa, 2, NULL);
    char code[64];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) {
            snprintf(code, sizeof code, "a[%d, %d]", i, j);
            CHECK((float)strtod(OK(s, code), NULL) == a[i * 4 + j]);
            snprintf(code, sizeof code, "a[%d, %d]", i - 3, j - 4); /* negative from the end */
            CHECK((float)strtod(OK(s, code), NULL) == a[i * 4 + j]);
            snprintf(code, sizeof code, "a[[%d, %d]]", i, j); /* a list as the index */
            CHECK((float)strtod(OK(s, code), NULL) == a[i * 4 + j]);
        }
    CHECK_STR(OK(s, "type(a[0, 0])"), "<class 'float'>");
    CHECK_STR(OK(s, "a.permute(1, 0)[3, 2] == a[2, 3]"), "True");
    const char *m = FAILS(s, "a[3, 0]", "IndexError");
    CHECK(strstr(m, "3") != NULL);
    FAILS(s, "a[0, -5]", "IndexError");
    FAILS(s, "a[0]", "IndexError"); /* one index per dim */
    FAILS(s, "a[0, 0, 0]", "IndexError");
    FAILS(s, "a[0, 1, 2, 3, 4, 5, 6, 7, 8]", "IndexError");
    FAILS(s, "a[0.5, 1]", "TypeError");
    FAILS(s, "a[0, \"x\"]", "TypeError");

    /* assignment */
    OK(s, "a[1, 2] = 42");
    a[6] = 42;
    OK(s, "a[-1, -1] = -0.25");
    a[11] = -0.25f;
    OK(s, "a[0, 0] += 2.5");
    a[0] = (float)(a[0] + 2.5f);
    OK(s, "a[0, 1] = tensor([7])");
    a[1] = 7;
    OK(s, "i = 2; a[i - 2, i + 1] *= 2");
    a[3] = (float)(a[3] * 2.0f);
    double want[12];
    for (int i = 0; i < 12; i++) want[i] = a[i];
    CHECK_VALUES(s, "a", want, 12, 1e-6); /* += reads the element as a Python float */
    FAILS(s, "a[5, 0] = 1", "IndexError");
    FAILS(s, "a[0, 0] = \"x\"", "TypeError");
    FAILS(s, "a[0, 0] = ones(2)", "ValueError");
    FAILS(s, "a[0, 0] += \"x\"", "TypeError");
    CHECK_VALUES(s, "a", want, 12, 1e-6); /* failed assignments changed nothing */
    /* lists take item assignment too (list.c), with the same errors */
    FAILS(s, "xs = [1, 2]; xs[0] = 5; xs[0] += 5; xs[7] += 5", "IndexError");
    CHECK_STR(OK(s, "xs"), "[10, 2]");
    dsl_session_free(s);
}

/* ---- truth -------------------------------------------------------------------------------- */

static void test_truth(void)
{
    struct dsl_session *s = dsl_session_new();
    CHECK_STR(OK(s, "r = 0\nif tensor([2]) > 1:\n    r = 1\nr"), "1");
    CHECK_STR(OK(s, "r = 0\nif (ones(3) == ones(3)).all():\n    r = 1\nr"), "1");
    CHECK_STR(OK(s, "not tensor([0])"), "True");
    CHECK_STR(OK(s, "tensor([0]) or 5"), "5");
    CHECK_STR(OK(s, "i = 0\nwhile tensor([i]) < 3:\n    i += 1\ni"), "3");
    FAILS(s, "if ones(2):\n    pass", "ValueError");
    FAILS(s, "while ones(2):\n    pass", "ValueError");
    FAILS(s, "not ones(2)", "ValueError");
    FAILS(s, "ones(2) and 1", "ValueError");
    FAILS(s, "bool(zeros(0))", "ValueError");
    FAILS(s, "0 < ones(2) < 2", "ValueError"); /* a chain needs the middle truth value */
    CHECK_STR(OK(s, "(0 < tensor([1]) < 2).item()"), "1.0");
    CHECK_STR(OK(s, "(0 < tensor([1]) < 0.5).item()"), "0.0");
    dsl_session_free(s);
}

/* ---- autodiff ----------------------------------------------------------------------------- */

static void test_backward(void)
{
    struct dsl_session *s = dsl_session_new();
    /* y = sum(3 x^2 + e^x + x / (x + 1)): dy/dx = 6x + e^x + 1 / (x + 1)^2 */
    const float x[4] = {0.5f, -0.25f, 1.5f, 2.0f};
    const int64_t sx[] = {4};
    SET_TENSOR(s, "x", x, sx, 1, ", requires_grad=true");
    OK(s, "y = (3 * x * x + x.exp() + x / (x + 1)).sum()");
    CHECK_STR(OK(s, "y.requires_grad()"), "True");
    OK(s, "y.backward()");
    double want[4];
    for (int i = 0; i < 4; i++) {
        double v = x[i];
        want[i] = 6 * v + exp(v) + 1 / ((v + 1) * (v + 1));
    }
    CHECK_VALUES(s, "x.grad", want, 4, 1e-5);
    CHECK_STR(OK(s, "x.grad.shape"), "(4,)");
    /* a second backward accumulates; zero_grad forgets */
    OK(s, "y.backward()");
    for (int i = 0; i < 4; i++) want[i] *= 2;
    CHECK_VALUES(s, "x.grad", want, 4, 1e-5);
    OK(s, "x.zero_grad()");
    CHECK_STR(OK(s, "x.grad"), "");
    OK(s, "(x * x).sum().backward(); x.zero_grad_()");
    CHECK_STR(OK(s, "x.grad"), "");
    OK(s, "(x * 2).sum().backward(); x.grad = none");
    CHECK_STR(OK(s, "x.grad"), "");
    /* relu, sigmoid, log, mean through broadcasting: z = mean(relu(x) * w + log(sigmoid(x)))
     * with w of shape (2, 1): dz/dx_j = sum_i (relu'(x_j) w_i + 1 - sig(x_j)) / 8 */
    OK(s, "w = tensor([[2], [-1]])");
    OK(s, "z = ((x.relu() * w) + x.sigmoid().log()).mean()");
    OK(s, "z.backward()");
    for (int j = 0; j < 4; j++) {
        double v = x[j], sig = 1 / (1 + exp(-v));
        want[j] = 0;
        for (int i = 0; i < 2; i++) want[j] += ((v > 0 ? 1 : 0) * (i ? -1.0 : 2.0) + 1 - sig) / 8;
    }
    CHECK_VALUES(s, "x.grad", want, 4, 1e-5);
    /* backward with a gradient tensor, or a number filling the shape */
    OK(s, "x.zero_grad(); (x * 3).backward(tensor([1, 2, 3, 4]))");
    for (int i = 0; i < 4; i++) want[i] = 3.0 * (i + 1);
    CHECK_VALUES(s, "x.grad", want, 4, 1e-6);
    OK(s, "x.zero_grad(); (x * 3).backward(grad=2)");
    for (int i = 0; i < 4; i++) want[i] = 6;
    CHECK_VALUES(s, "x.grad", want, 4, 1e-6);
    /* misuse */
    FAILS(s, "(x * 3).backward()", "RuntimeError");      /* needs one element or a grad */
    FAILS(s, "ones(1).backward()", "RuntimeError");      /* nothing requires grad */
    FAILS(s, "(x * 3).backward(ones(3))", "ShapeError"); /* wrong shape */
    FAILS(s, "(x * 3).backward(\"g\")", "TypeError");
    /* comparisons carry no gradient; detach cuts the graph */
    OK(s, "x.zero_grad(); ((x < 1) * x).sum().backward()");
    for (int i = 0; i < 4; i++) want[i] = x[i] < 1;
    CHECK_VALUES(s, "x.grad", want, 4, 1e-6);
    CHECK_STR(OK(s, "(x.detach() * 2).requires_grad()"), "False");
    dsl_session_free(s);
}

/* ---- tolist ------------------------------------------------------------------------------- */

static void test_tolist(void)
{
    struct dsl_session *s = dsl_session_new();
    struct rng r = {99};
    float a[2 * 3 * 5];
    rng_fill(&r, a, 30, -1e3, 1e3);
    a[0] = 0.1f;
    a[1] = 1e-30f;
    a[2] = 3.4028235e38f;
    a[3] = -0.5f;
    a[4] = 16777217.0f; /* not a float32: rounds to 16777216 */
    const int64_t sa[] = {2, 3, 5};
    SET_TENSOR(s, "a", a, sa, 3, NULL);
    /* JSON nested as the shape, every value the same float32 */
    const char *text = OK(s, "a.tolist()");
    json_error_t err;
    json_t *j = json_loads(text, 0, &err);
    CHECK(j != NULL);
    CHECK_INT(json_array_size(j), 2);
    CHECK_INT(json_array_size(json_array_get(j, 1)), 3);
    CHECK_INT(json_array_size(json_array_get(json_array_get(j, 1), 2)), 5);
    double got[30];
    size_t n = 0;
    flatten_json(j, got, 30, &n);
    json_decref(j);
    CHECK_INT(n, 30);
    for (int i = 0; i < 30; i++) CHECK((float)got[i] == a[i]);
    /* digits: the shortest that name the float32 (at most 9 significant) */
    const char *head = "[[[0.1, 1e-30, 3.4028235e+38, -0.5, 16777216.0], [";
    CHECK(strncmp(text, head, strlen(head)) == 0);
    CHECK_STR(OK(s, "(tensor([0]) * -1).tolist()"), "[-0.0]");
    /* round trip through the language */
    CHECK_STR(OK(s, "(tensor(a.tolist()) == a).all().item()"), "1.0");
    CHECK_STR(OK(s, "a.tolist()[1][2][4] == a[1, 2, 4]"), "True");
    CHECK_STR(OK(s, "type(a.tolist())"), "<class 'list'>");
    CHECK_STR(OK(s, "zeros(0).tolist()"), "[]");
    /* non-finite values as json.loads (Python) reads them */
    CHECK_STR(OK(s, "(tensor([0, 1, -1]) / 0).tolist()"), "[NaN, Infinity, -Infinity]");
    CHECK_STR(OK(s, "[(tensor([1]) / 0).item()]"), "[inf]"); /* plain lists stay Pythonic */
    /* the non-contiguous case reads in logical order */
    double want[30];
    for (int i = 0; i < 5; i++)
        for (int k = 0; k < 6; k++) want[i * 6 + k] = a[k * 5 + i];
    CHECK_VALUES(s, "a.view(6, 5).permute(1, 0)", want, 30, 0);
    dsl_session_free(s);
}

/* ---- display ------------------------------------------------------------------------------ */

/* Appends the right-aligned "%.4f" column of v (PyTorch's fixed format). */
static void put_col(char *buf, size_t cap, double v, int width)
{
    size_t used = strlen(buf);
    snprintf(buf + used, cap - used, "%*.*f", width, 4, v);
}

static void test_display(void)
{
    struct dsl_session *s = dsl_session_new();
    CHECK_STR(OK(s, "tensor([[1, 2], [3, 4]])"),
              "tensor([[1., 2.],\n        [3., 4.]], shape=(2, 2), backend=fast)");
    CHECK_STR(OK(s, "tensor([1.5, -20, 300])"),
              "tensor([  1.5000, -20.0000, 300.0000], shape=(3,), backend=fast)");
    CHECK_STR(OK(s, "tensor([1], requires_grad=true)"),
              "tensor([1.], shape=(1,), backend=fast, requires_grad=True)");
    CHECK_STR(OK(s, "zeros(0, 3)"), "tensor([], shape=(0, 3), backend=fast)");
    CHECK_STR(OK(s, "zeros(2, backend=\"simple\")"),
              "tensor([0., 0.], shape=(2,), backend=simple)");
    /* scientific when the magnitudes need it (PyTorch's rule) */
    CHECK_STR(OK(s, "tensor([1e-5, 1, 100])"),
              "tensor([1.0000e-05, 1.0000e+00, 1.0000e+02], shape=(3,), backend=fast)");
    /* whole numbers too: torch.tensor([1., 2000.]) prints 1.0000e+00, 2.0000e+03 */
    CHECK_STR(OK(s, "tensor([1, 2000])"),
              "tensor([1.0000e+00, 2.0000e+03], shape=(2,), backend=fast)");
    CHECK_STR(OK(s, "tensor([1, 1000])"), "tensor([   1., 1000.], shape=(2,), backend=fast)");
    CHECK_STR(OK(s, "tensor([0.5, 2000])"),
              "tensor([5.0000e-01, 2.0000e+03], shape=(2,), backend=fast)");
    CHECK_STR(OK(s, "tensor([1, 0]) / 0"), "tensor([inf, nan], shape=(2,), backend=fast)");
    /* 3-D: a blank line between the 2-D blocks */
    CHECK_STR(OK(s, "zeros(2, 1, 2)"), "tensor([[[0., 0.]],\n\n        [[0., "
                                       "0.]]], shape=(2, 1, 2), backend=fast)");
    /* print shows the same text */
    CHECK_STR(stdout_of(s, "print(tensor([7]))"),
              "stdout:tensor([7.], shape=(1,), backend=fast)\n");

    /* 2000 elements: the first and last 3 around "..." */
    OK(s, "seed(1); big = rand(2000)");
    double v[2000];
    CHECK_INT(VALUES(s, "big", v, 2000), 2000);
    char want[512] = "tensor([";
    for (int i = 0; i < 3; i++) {
        put_col(want, sizeof want, v[i], 6);
        strcat(want, ", ");
    }
    strcat(want, " ..., ");
    for (int i = 1997; i < 2000; i++) {
        put_col(want, sizeof want, v[i], 6);
        strcat(want, i < 1999 ? ", " : "]");
    }
    strcat(want, ", shape=(2000,),\n       backend=fast)"); /* past 80 columns: a new line */
    CHECK_STR(OK(s, "big"), want);

    /* (40, 50): 3 rows, "...", 3 rows; each row 3 values, " ...", 3 values */
    OK(s, "m = big.view(40, 50)");
    const char *text = OK(s, "m");
    char first[256] = "tensor([[";
    for (int i = 0; i < 3; i++) {
        put_col(first, sizeof first, v[i], 6);
        strcat(first, ", ");
    }
    strcat(first, " ..., ");
    for (int i = 47; i < 50; i++) {
        put_col(first, sizeof first, v[i], 6);
        strcat(first, i < 49 ? ", " : "],\n");
    }
    CHECK(strncmp(text, first, strlen(first)) == 0);
    int lines = 1;
    for (const char *p = text; *p; p++) lines += *p == '\n';
    CHECK_INT(lines, 8); /* 7 rows and the suffix line */
    CHECK(strstr(text, "\n        ...,\n") != NULL);
    CHECK(strstr(text, "shape=(40, 50), backend=fast)") != NULL);

    /* 1000 elements are shown whole; a long row wraps at 80 columns */
    text = OK(s, "zeros(1000)");
    CHECK(strstr(text, "...") == NULL);
    size_t longest = 0, cur = 0;
    for (const char *p = text; *p; p++) {
        cur = *p == '\n' ? 0 : cur + 1;
        if (cur > longest) longest = cur;
    }
    CHECK(longest <= 80);
    CHECK(strncmp(text, "tensor([0., 0., ", 16) == 0);
    /* repr inside a list, str() and help() */
    CHECK_STR(OK(s, "[tensor([1])]"), "[tensor([1.], shape=(1,), backend=fast)]");
    CHECK_STR(OK(s, "str(tensor([1]))"), "'tensor([1.], shape=(1,), backend=fast)'");
    dsl_session_free(s);
}

/* ---- help, completion, inspection --------------------------------------------------------- */

static const char *inspect_of(struct dsl_session *s, const char *code)
{
    static char buf[4096];
    json_t *b = dsl_inspect(s, code, strlen(code), 0);
    const char *t = b ? json_string_value(json_object_get(b, "text/plain")) : NULL;
    snprintf(buf, sizeof buf, "%s", t ? t : "(null)");
    json_decref(b);
    return buf;
}

static bool completes_to(struct dsl_session *s, const char *code, const char *name)
{
    size_t start, end;
    json_t *m = dsl_complete(s, code, strlen(code), &start, &end);
    bool found = false;
    for (size_t i = 0; i < json_array_size(m); i++)
        if (strcmp(json_string_value(json_array_get(m, i)), name) == 0) found = true;
    json_decref(m);
    return found;
}

static void test_help_and_completion(void)
{
    struct dsl_session *s = dsl_session_new();
    OK(s, "x = ones(2); n = 3");
    struct sink k;
    memset(&k, 0, sizeof k);
    run_cell_with(s, "help(x)", &k);
    CHECK(strstr(k.log, "page:tensor:") != NULL);
    CHECK(strstr(k.log, "tensor.sum(dim=none)") != NULL);
    CHECK(strstr(k.log, "tensor.shape") != NULL);
    memset(&k, 0, sizeof k);
    run_cell_with(s, "help(x.view)", &k);
    CHECK(strstr(k.log, "page:tensor.view(*shape)\n\n") != NULL);
    CHECK(strstr(k.log, "contiguous") != NULL);
    memset(&k, 0, sizeof k);
    run_cell_with(s, "help(tensor)", &k);
    CHECK(strstr(k.log, "page:tensor(data, requires_grad=false, backend=none)") != NULL);
    memset(&k, 0, sizeof k);
    run_cell_with(s, "help(\"%backend\")", &k);
    CHECK(strstr(k.log, "page:%backend [simple|fast|cuda|student]") != NULL);

    /* after "x." the tensor methods and properties, after "n." nothing */
    CHECK(completes_to(s, "x.", "sum"));
    CHECK(completes_to(s, "x.", "shape"));
    CHECK(completes_to(s, "x.su", "sum"));
    CHECK(!completes_to(s, "x.su", "shape"));
    CHECK(completes_to(s, "y = x.relu().sig", "sigmoid"));
    CHECK(completes_to(s, "x.requires", "requires_grad_"));
    CHECK(!completes_to(s, "n.", "sum"));
    CHECK(!completes_to(s, "1.", "sum"));
    CHECK(completes_to(s, "ze", "zeros"));
    CHECK(completes_to(s, "%ba", "backend"));
    CHECK(completes_to(s, "for i in range(2):\n    %th", "threads"));
    CHECK(!completes_to(s, "x = 5 %ba", "backend"));

    CHECK(strncmp(inspect_of(s, "x.sum"), "tensor.sum(dim=none)\n\n", 22) == 0);
    CHECK(strncmp(inspect_of(s, "x.view(2, "), "tensor.view(*shape)", 19) == 0);
    CHECK(strncmp(inspect_of(s, "x.shape"), "tensor.shape\n\n", 14) == 0);
    CHECK(strncmp(inspect_of(s, "x"), "x: tensor = tensor([1., 1.]", 27) == 0);
    CHECK(strncmp(inspect_of(s, "%backend"), "%backend [simple|fast|cuda|student]", 35) == 0);
    CHECK(strncmp(inspect_of(s, "rand"), "rand(*shape, requires_grad=false", 32) == 0);
    CHECK_STR(inspect_of(s, "n.sum"), "(null)");
    dsl_session_free(s);
}

/* ---- errors mid-expression release everything (checked by ASan's leak checker) --------- */

static void test_errors_release(void)
{
    struct dsl_session *s = dsl_session_new();
    OK(s, "a = rand(3, 4, requires_grad=true)");
    FAILS(s, "(a * 2 + 1).sum() + undefined_name", "NameError");
    FAILS(s, "b = [a * 2, a + zeros(5)]", "ShapeError");
    FAILS(s, "c = (a @ a)", "ShapeError");
    FAILS(s, "print(a.relu(), a.nope())", "AttributeError");
    FAILS(s, "for i in range(3):\n    t = a * i\n    t[9, 9] = 1", "IndexError");
    FAILS(s, "tensor([[1, 2], [a, 3]])", "TypeError");
    FAILS(s, "tensor([a])", "TypeError");
    FAILS(s, "xs = [a, a]; xs[0] + xs", "TypeError");
    FAILS(s, "(a.sum() * zeros(2, 2)).backward()", "RuntimeError");
    FAILS(s, "a.sum(dim=\"x\")", "TypeError");
    OK(s, "keep = [a.sum(0), a.mean(), a.tolist(), a.shape, a.sum]");
    CHECK_STR(OK(s, "len(keep)"), "5");
    dsl_session_reset(s); /* releases the tensors the variables held */
    OK(s, "z = ones(2)");
    dsl_session_free(s); /* frees the context after the variables */
}

int main(void)
{
    RUN_TEST(test_create);
    RUN_TEST(test_operators_broadcast);
    RUN_TEST(test_matmul);
    RUN_TEST(test_reductions);
    RUN_TEST(test_elementwise_methods);
    RUN_TEST(test_views);
    RUN_TEST(test_properties);
    RUN_TEST(test_indexing);
    RUN_TEST(test_truth);
    RUN_TEST(test_backward);
    RUN_TEST(test_tolist);
    RUN_TEST(test_display);
    RUN_TEST(test_help_and_completion);
    RUN_TEST(test_errors_release);
    return TEST_SUMMARY();
}
