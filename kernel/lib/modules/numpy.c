/* numpy.c — the part of numpy MiniTorch's tensor files use: numpy.ndarray (lang/ndarray.h),
 * zeros, array, prod, array_equal and the dtypes; and numpy.testing.assert_allclose, which
 * MiniTorch's derivative_check and grad_check call. */
#include "lib/modules/module.h"

#include "lang/classes.h"
#include "lang/eval.h"
#include "lang/ndarray.h"
#include "render/render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The dtype argument in slot `slot`: DSL_DT_NONE when not given. 0, or -1 after raising. */
static int dtype_of(struct dsl_interp *in, const struct dsl_args *a, int slot, enum dsl_dtype *dt)
{
    *dt = DSL_DT_NONE;
    if (!a->has[slot] || a->slot[slot].kind == DSL_NONE) return 0;
    *dt = dsl_dtype_of(in, a->slot[slot]);
    return *dt == DSL_DT_NONE ? -1 : 0;
}

static int np_zeros(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value shape = a->slot[0];
    int64_t dims[DSL_ND_MAX_DIMS];
    int nd = 0;
    if (dsl_is_intlike(shape)) {
        dims[nd++] = dsl_as_int(shape);
    } else if (shape.kind == DSL_LIST && shape.as.l->len > DSL_ND_MAX_DIMS) {
        return dsl_raise(in, "ValueError", "an array has at most %d dimensions here",
                         DSL_ND_MAX_DIMS);
    } else if (shape.kind == DSL_LIST) {
        for (size_t k = 0; k < shape.as.l->len; k++) {
            struct dsl_value d = shape.as.l->items[k];
            if (!dsl_is_intlike(d))
                return dsl_raise(in, "TypeError", "'%s' object cannot be interpreted as an integer",
                                 dsl_type_name(d));
            dims[nd++] = dsl_as_int(d);
        }
    } else {
        return dsl_raise(in, "TypeError",
                         "numpy.zeros takes a shape: an int, or a tuple of at most %d ints, not "
                         "%s",
                         DSL_ND_MAX_DIMS, dsl_type_name(shape));
    }
    enum dsl_dtype dt;
    if (dtype_of(in, a, 1, &dt) != 0) return -1;
    return dsl_ndarray_zeros(in, dt == DSL_DT_NONE ? DSL_DT_FLOAT64 : dt, dims, nd, ret);
}

static int np_array(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    enum dsl_dtype dt;
    if (dtype_of(in, a, 1, &dt) != 0) return -1;
    return dsl_ndarray_from(in, a->slot[0], dt, ret);
}

/* The product of the numbers of v (nested lists, tuples and arrays), as ints while all are. */
static int prod_of(struct dsl_interp *in, struct dsl_value v, int64_t *pi, double *pf, bool *ints,
                   int depth)
{
    if (depth > DSL_ND_MAX_DIMS) return dsl_raise(in, "ValueError", "array nested too deeply");
    if (v.kind == DSL_LIST) {
        for (size_t i = 0; i < v.as.l->len; i++)
            if (prod_of(in, v.as.l->items[i], pi, pf, ints, depth + 1) != 0) return -1;
        return 0;
    }
    if (!dsl_is_number(v)) return dsl_raise(in, "TypeError", "numpy.prod of numbers");
    if (dsl_is_intlike(v)) {
        *pf *= (double)dsl_as_int(v);
        *pi = (int64_t)((uint64_t)*pi * (uint64_t)dsl_as_int(v)); /* numpy's int64 wraps */
    } else {
        *ints = false, *pf *= v.as.f;
    }
    return 0;
}

static int np_prod(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value v = a->slot[0];
    if (v.kind != DSL_LIST && !dsl_is_number(v))
        return dsl_raise(in, "TypeError", "numpy.prod of an array, list or tuple");
    int64_t pi = 1;
    double pf = 1.0;
    bool ints =
        !dsl_is_ndarray(v) || v.as.l->dtype == DSL_DT_INT32 || v.as.l->dtype == DSL_DT_INT64;
    if (prod_of(in, v, &pi, &pf, &ints, 0) != 0) return -1;
    *ret = ints ? dsl_int(pi) : dsl_float(pf);
    return 0;
}

/* Whether x and y have one shape and equal numbers (nested lists, tuples, arrays). */
static bool same_array(struct dsl_value x, struct dsl_value y, int depth)
{
    if (x.kind == DSL_LIST || y.kind == DSL_LIST) {
        if (x.kind != y.kind || x.as.l->len != y.as.l->len || depth > DSL_ND_MAX_DIMS) return false;
        for (size_t i = 0; i < x.as.l->len; i++)
            if (!same_array(x.as.l->items[i], y.as.l->items[i], depth + 1)) return false;
        return true;
    }
    if (!dsl_is_number(x) || !dsl_is_number(y)) return false;
    if (dsl_is_intlike(x) && dsl_is_intlike(y)) return dsl_as_int(x) == dsl_as_int(y);
    return dsl_as_double(x) == dsl_as_double(y);
}

static int np_array_equal(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)in;
    *ret = dsl_bool(same_array(a->slot[0], a->slot[1], 0));
    return 0;
}

static int v_ndarray(struct dsl_interp *in, struct dsl_value *out)
{
    (void)in;
    *out = dsl_builtin_class("numpy.ndarray");
    return 0;
}

static int dtype_value(const char *name, struct dsl_interp *in, struct dsl_value *out)
{
    int st = dsl_str_value(name, strlen(name), out);
    return st ? dsl_raise_status(in, st) : 0;
}
int mod_dtype_int32(struct dsl_interp *in, struct dsl_value *out)
{
    return dtype_value("int32", in, out);
}
int mod_dtype_int64(struct dsl_interp *in, struct dsl_value *out)
{
    return dtype_value("int64", in, out);
}
int mod_dtype_float32(struct dsl_interp *in, struct dsl_value *out)
{
    return dtype_value("float32", in, out);
}
int mod_dtype_float64(struct dsl_interp *in, struct dsl_value *out)
{
    return dtype_value("float64", in, out);
}

static int v_numpy_typing(struct dsl_interp *in, struct dsl_value *out)
{
    return mod_module_value(in, &mod_numpy_typing, out);
}

/* ---- numpy.testing ---------------------------------------------------------------------- */

/* A number as numpy shows it: an int or a bool as Python writes it, a float as above. */
static void np_format_number(struct dsl_value v, int precision, char *out, size_t cap)
{
    if (v.kind == DSL_BOOL)
        snprintf(out, cap, "%s", v.as.b ? "True" : "False");
    else if (v.kind == DSL_INT)
        snprintf(out, cap, "%lld", (long long)v.as.i);
    else
        dsl_np_format_double(v.as.f, precision, out, cap);
}

/* The numbers of v (a tensor, or lists and tuples of numbers, nested) appended to *out, in
 * order. 0, or -1 after raising. */
static int flatten(struct dsl_interp *in, struct dsl_value v, double **out, size_t *n, size_t *cap,
                   int depth)
{
    if (depth > 32) return dsl_raise(in, "ValueError", "array nested deeper than 32 levels");
    if (v.kind == DSL_TENSOR) { /* its numbers as tolist() gives them */
        struct dsl_value m, l;
        if (dsl_getattr(in, v, "tolist", &m) != 0) return -1;
        int r = dsl_call(in, m, NULL, 0, NULL, NULL, 0, &l);
        dsl_value_release(m);
        if (r != 0) return -1;
        r = flatten(in, l, out, n, cap, depth + 1);
        dsl_value_release(l);
        return r;
    }
    if (v.kind == DSL_LIST) {
        for (size_t i = 0; i < v.as.l->len; i++)
            if (flatten(in, v.as.l->items[i], out, n, cap, depth + 1) != 0) return -1;
        return 0;
    }
    if (!dsl_is_number(v))
        return dsl_raise(in, "NotImplementedError",
                         "numpy.testing.assert_allclose compares numbers, tensors and lists or "
                         "tuples of numbers here, not %s",
                         dsl_type_name(v));
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 16;
        double *p = realloc(*out, c * sizeof *p);
        if (!p) return dsl_raise_status(in, DSL_V_NOMEM);
        *out = p, *cap = c;
    }
    (*out)[(*n)++] = dsl_as_double(v);
    return 0;
}

/* numpy's test of every element (one number against each of the other's), with its message:
 * NaN and infinity positions first, then the tolerance; the arrays are written out element by
 * element in numpy's number format (numpy also pads them to one width). */
static int allclose_arrays(struct dsl_interp *in, const struct dsl_args *a, double rtol,
                           double atol, bool equal_nan, bool verbose)
{
    double *x = NULL, *y = NULL;
    size_t nx = 0, ny = 0, cx = 0, cy = 0;
    int r = flatten(in, a->slot[0], &x, &nx, &cx, 0);
    if (r == 0) r = flatten(in, a->slot[1], &y, &ny, &cy, 0);
    if (r == 0 && nx != ny && nx != 1 && ny != 1)
        r = dsl_raise(in, "ValueError",
                      "operands could not be broadcast together: %zu and %zu numbers", nx, ny);
    size_t n = nx > ny ? nx : ny, bad = 0;
    const char *where = NULL;
    double max_abs = 0, max_rel = 0;
    for (size_t i = 0; r == 0 && i < n && !where; i++) {
        double p = x[nx == 1 ? 0 : i], q = y[ny == 1 ? 0 : i];
        if (isnan(p) || isnan(q)) {
            if (!(isnan(p) && isnan(q)))
                where = "nan location mismatch:";
            else if (!equal_nan) /* two NaNs that are not equal differ by NaN */
                bad++, max_abs = max_rel = NAN;
        } else if (isinf(p) || isinf(q)) {
            if (p != q)
                where = isinf(p) && isinf(q) ? "inf values mismatch:" : "inf location mismatch:";
        } else if (fabs(p - q) > atol + rtol * fabs(q)) {
            bad++;
            if (!(fabs(p - q) <= max_abs)) max_abs = isnan(max_abs) ? max_abs : fabs(p - q);
            if (!(fabs(p - q) / fabs(q) <= max_rel))
                max_rel = isnan(max_rel) ? max_rel : fabs(p - q) / fabs(q);
        }
    }
    if (r != 0 || (!bad && !where)) {
        free(x);
        free(y);
        return r;
    }
    struct render_buf b;
    render_buf_init(&b, 0);
    render_buf_printf(&b, "\nNot equal to tolerance rtol=%g, atol=%g\n", rtol, atol);
    if (a->has[5]) r = dsl_str_of(in, &b, a->slot[5]);
    char num[64], num2[64];
    if (r == 0 && where) {
        render_buf_printf(&b, "\n%s", where);
    } else if (r == 0) {
        dsl_np_format_double(max_abs, 8, num, sizeof num);
        dsl_np_format_double(max_rel, 8, num2, sizeof num2);
        render_buf_printf(&b,
                          "\nMismatched elements: %zu / %zu (%.3g%%)\n"
                          "Max absolute difference among violations: %s\n"
                          "Max relative difference among violations: %s",
                          bad, n, 100.0 * (double)bad / (double)n, num, num2);
    }
    for (int k = 0; r == 0 && verbose && k < 2; k++) {
        const double *v = k ? y : x;
        size_t m = k ? ny : nx;
        render_buf_puts(&b, k ? "\n DESIRED: array(" : "\n ACTUAL: array(");
        for (size_t i = 0; i < m; i++) {
            dsl_np_format_double(v[i], 6, num, sizeof num);
            render_buf_printf(&b, "%s%s%s",
                              i       ? ", "
                              : m > 1 ? "["
                                      : "",
                              num, m > 1 && i + 1 == m ? "]" : "");
        }
        render_buf_puts(&b, ")");
    }
    free(x);
    free(y);
    if (r == 0 && render_buf_failed(&b)) r = dsl_raise_status(in, DSL_V_NOMEM);
    if (r == 0) dsl_raise(in, "AssertionError", "%s", render_buf_str(&b));
    render_buf_free(&b);
    return -1;
}

static int np_assert_allclose(struct dsl_interp *in, const struct dsl_args *a,
                              struct dsl_value *ret)
{
    *ret = dsl_none();
    struct dsl_value x = a->slot[0], y = a->slot[1];
    double rtol = 1e-7, atol = 0.0;
    if (a->has[2] && mod_real_arg(in, a->slot[2], &rtol) != 0) return -1;
    if (a->has[3] && mod_real_arg(in, a->slot[3], &atol) != 0) return -1;
    bool equal_nan = true, verbose = true;
    if (a->has[4] && dsl_truth(in, a->slot[4], &equal_nan) != 0) return -1;
    if (a->has[6] && dsl_truth(in, a->slot[6], &verbose) != 0) return -1;
    if (!dsl_is_number(x) || !dsl_is_number(y))
        return allclose_arrays(in, a, rtol, atol, equal_nan, verbose);
    double xd = dsl_as_double(x), yd = dsl_as_double(y);
    const char *where = NULL; /* numpy's checks of nan and inf positions come first */
    if (isnan(xd) || isnan(yd)) {
        if (!(isnan(xd) && isnan(yd)))
            where = "nan location mismatch:";
        else if (equal_nan)
            return *ret = dsl_none(), 0;
    } else if (isinf(xd) || isinf(yd)) {
        if (xd == yd) return *ret = dsl_none(), 0;
        where = isinf(xd) && isinf(yd) ? "inf values mismatch:" : "inf location mismatch:";
    } else if (fabs(xd - yd) <= atol + rtol * fabs(yd))
        return *ret = dsl_none(), 0;

    struct render_buf b;
    render_buf_init(&b, 0);
    render_buf_printf(&b, "\nNot equal to tolerance rtol=%g, atol=%g\n", rtol, atol);
    if (a->has[5] && dsl_str_of(in, &b, a->slot[5]) != 0) {
        render_buf_free(&b);
        return -1;
    }
    char xs[64], ys[64];
    if (where)
        render_buf_printf(&b, "\n%s", where);
    else {
        /* the differences: exact for two ints, as numpy subtracts them */
        char abs_s[64], rel_s[64];
        int64_t d;
        if (dsl_is_intlike(x) && dsl_is_intlike(y) &&
            !__builtin_sub_overflow(dsl_as_int(x), dsl_as_int(y), &d) && d != INT64_MIN)
            snprintf(abs_s, sizeof abs_s, "%lld", (long long)(d < 0 ? -d : d));
        else
            dsl_np_format_double(fabs(xd - yd), 8, abs_s, sizeof abs_s);
        dsl_np_format_double(fabs(xd - yd) / fabs(yd), 8, rel_s, sizeof rel_s);
        render_buf_printf(&b,
                          "\nMismatched elements: 1 / 1 (100%%)\n"
                          "Max absolute difference among violations: %s\n"
                          "Max relative difference among violations: %s",
                          abs_s, rel_s);
    }
    if (verbose) {
        np_format_number(x, 6, xs, sizeof xs);
        np_format_number(y, 6, ys, sizeof ys);
        render_buf_printf(&b, "\n ACTUAL: array(%s)\n DESIRED: array(%s)", xs, ys);
    }
    if (render_buf_failed(&b)) {
        render_buf_free(&b);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    dsl_raise(in, "AssertionError", "%s", render_buf_str(&b));
    render_buf_free(&b);
    return -1;
}

static const char *const np_allclose_params[] = {"actual",    "desired", "rtol",    "atol",
                                                 "equal_nan", "err_msg", "verbose", NULL};

static const struct member numpy_testing_members[] = {
    FN("assert_allclose",
       "numpy.testing.assert_allclose(actual, desired, rtol=1e-07, atol=0, equal_nan=True, "
       "err_msg='', verbose=True)",
       2, 7, np_allclose_params, np_assert_allclose,
       "Raises numpy's AssertionError unless |actual - desired| <= atol + rtol * |desired| "
       "for every number (numbers, tensors, lists or tuples of numbers; one number is "
       "compared with each of the other's; NaNs equal when equal_nan)."),
};

const struct module mod_numpy_testing = {
    .cls = MODULE_CLASS("module: numpy.testing, of which the kernel has assert_allclose "
                        "(MiniTorch's derivative_check and grad_check)."),
    .name = "numpy.testing",
    .members = MEMBERS(numpy_testing_members),
};

static int v_numpy_testing(struct dsl_interp *in, struct dsl_value *out)
{
    return mod_module_value(in, &mod_numpy_testing, out);
}

static const char *const np_shape_params[] = {"shape", "dtype", NULL};
static const char *const np_obj_params[] = {"object", "dtype", NULL};
static const char *const np_a_params[] = {"a", NULL};
static const char *const np_ab_params[] = {"a1", "a2", NULL};

static const struct member numpy_members[] = {
    FN("array", "numpy.array(object, dtype=None)", 1, 2, np_obj_params, np_array,
       "A new array of the numbers of a list, tuple or array (nested evenly for more "
       "dimensions), cast to dtype; without one, int64 when all are ints and float64 "
       "otherwise."),
    FN("array_equal", "numpy.array_equal(a1, a2)", 2, 2, np_ab_params, np_array_equal,
       "Whether two arrays (or lists or tuples of numbers) have one shape and equal elements."),
    VALUE("float32", "numpy.float32", mod_dtype_float32, "The dtype name 'float32'."),
    VALUE("float64", "numpy.float64", mod_dtype_float64, "The dtype name 'float64'."),
    VALUE("int32", "numpy.int32", mod_dtype_int32, "The dtype name 'int32'."),
    VALUE("int64", "numpy.int64", mod_dtype_int64, "The dtype name 'int64'."),
    VALUE("ndarray", "numpy.ndarray", v_ndarray,
          "The type of numpy's arrays, for isinstance(x, np.ndarray)."),
    FN("prod", "numpy.prod(a)", 1, 1, np_a_params, np_prod,
       "The product of the numbers of a (an int when they all are): np.prod(shape) is a "
       "tensor's size."),
    VALUE("testing", "numpy.testing", v_numpy_testing, "numpy.testing: assert_allclose."),
    VALUE("typing", "numpy.typing", v_numpy_typing,
          "numpy.typing: NDArray and ArrayLike, for annotations (typing.c)."),
    FN("zeros", "numpy.zeros(shape, dtype=float)", 1, 2, np_shape_params, np_zeros,
       "A new array of zeros of the shape (an int, or a tuple of ints) and dtype (float64 "
       "when not given): the index buffers of the course's kernels, "
       "np.zeros(MAX_DIMS, np.int32)."),
};

const struct module mod_numpy = {
    .cls = MODULE_CLASS(
        "module: the part of numpy MiniTorch's tensor files use: ndarray (arrays of int32, "
        "int64, float32 or float64 numbers, one or more dimensions), zeros, array, prod, "
        "array_equal, the dtypes, and testing; compiled code (njit) takes int arrays."),
    .name = "numpy",
    .members = MEMBERS(numpy_members),
};
