/* tensor_helpers.h — helpers for the tensor tests of the language: run a cell and insist it
 * worked, read a tensor's values back through x.tolist() (parsed with Jansson, independently of
 * the language's own number parsing), write C arrays as tensor literals, and a small
 * deterministic generator for test data.
 *
 * Expected values in these tests come from plain C loops over the same data, never from the
 * implementation's own output. */
#ifndef TESTS_KERNEL_TENSOR_HELPERS_H
#define TESTS_KERNEL_TENSOR_HELPERS_H

#include "dsl_helpers.h"
#include "test.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runs code and checks it succeeded; returns the result text ("" when none). Static buffer. */
#define OK(s, code) ok_cell((s), (code), __FILE__, __LINE__)

static inline const char *ok_cell(struct dsl_session *s, const char *code, const char *file,
                                  int line)
{
    static char buf[1 << 14];
    struct outcome o = run_cell(s, code);
    if (o.rc != 0) {
        fprintf(stderr, "%s:%d: cell failed: %s\n  %s: %s\n", file, line, code, o.ename, o.evalue);
        test_checks_failed++;
        buf[0] = '\0';
        return buf;
    }
    snprintf(buf, sizeof buf, "%s", o.has_result ? o.result : "");
    return buf;
}

/* Runs code, checks it failed with ename, and that the session still works afterwards.
 * Returns the error message (static buffer). */
#define FAILS(s, code, ename) fails_cell((s), (code), (ename), __FILE__, __LINE__)

static inline const char *fails_cell(struct dsl_session *s, const char *code, const char *ename,
                                     const char *file, int line)
{
    static char msg[1024];
    struct outcome o = run_cell(s, code);
    if (o.rc == 0 || strcmp(o.ename, ename) != 0) {
        fprintf(stderr, "%s:%d: expected %s from: %s\n  got rc %d, %s: %s\n", file, line, ename,
                code, o.rc, o.ename, o.evalue);
        test_checks_failed++;
    }
    snprintf(msg, sizeof msg, "%s", o.evalue);
    struct outcome after = run_cell(s, "1 + 1");
    if (after.rc != 0 || strcmp(after.result, "2") != 0) {
        fprintf(stderr, "%s:%d: session unusable after: %s\n", file, line, code);
        test_checks_failed++;
    }
    return msg;
}

static inline void flatten_json(json_t *j, double *out, size_t max, size_t *n)
{
    if (json_is_array(j)) {
        for (size_t i = 0; i < json_array_size(j); i++)
            flatten_json(json_array_get(j, i), out, max, n);
    } else if (json_is_number(j)) {
        if (*n < max) out[*n] = json_number_value(j);
        (*n)++;
    } else {
        if (*n < max) out[*n] = NAN;
        (*n)++;
    }
}

/* The values of the tensor expression `expr`, row-major, via (expr).tolist() parsed as JSON.
 * Returns how many there are (or 0 when the cell failed). The whole result text is read (no
 * fixed buffer), so large tensors work. */
#define VALUES(s, expr, out, max) values_of((s), (expr), (out), (max), __FILE__, __LINE__)

static inline size_t values_of(struct dsl_session *s, const char *expr, double *out, size_t max,
                               const char *file, int line)
{
    size_t len = strlen(expr) + 32;
    char *code = malloc(len);
    snprintf(code, len, "(%s).tolist()", expr);
    json_t *result = NULL;
    struct dsl_error err = {0};
    static const struct dsl_output quiet = {0};
    int rc = dsl_execute(s, code, &quiet, &result, &err);
    free(code);
    const char *text = json_string_value(json_object_get(result, "text/plain"));
    json_t *j = rc == 0 && text ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;
    if (!j) {
        fprintf(stderr, "%s:%d: (%s).tolist() failed or is not JSON: %s: %s\n", file, line, expr,
                err.ename ? err.ename : "-", err.evalue ? err.evalue : (text ? text : "-"));
        test_checks_failed++;
    }
    dsl_error_clear(&err);
    json_decref(result);
    if (!j) return 0;
    size_t n = 0;
    flatten_json(j, out, max, &n);
    json_decref(j);
    return n;
}

/* Checks the tensor expression has n values, each within tol of want[i] (relative to
 * max(1, |want|)); tol 0 asks for the same float32. */
#define CHECK_VALUES(s, expr, want, n, tol)                                                        \
    check_values((s), (expr), (want), (n), (tol), __FILE__, __LINE__)

static inline void check_values(struct dsl_session *s, const char *expr, const double *want,
                                size_t n, double tol, const char *file, int line)
{
    double *got = malloc((n + 1) * sizeof *got);
    size_t m = values_of(s, expr, got, n + 1, file, line);
    if (m != n) {
        fprintf(stderr, "%s:%d: %s has %zu values, expected %zu\n", file, line, expr, m, n);
        test_checks_failed++;
    } else {
        for (size_t i = 0; i < n; i++) {
            double scale = fabs(want[i]) > 1 ? fabs(want[i]) : 1;
            bool same = (isnan(want[i]) && isnan(got[i])) ||
                        fabs(got[i] - want[i]) <= tol * scale ||
                        (isinf(want[i]) && got[i] == want[i]) ||
                        (tol == 0 && (float)got[i] == (float)want[i]);
            if (!same) {
                fprintf(stderr, "%s:%d: %s[%zu] = %.9g, expected %.9g\n", file, line, expr, i,
                        got[i], want[i]);
                test_checks_failed++;
                break;
            }
        }
    }
    free(got);
}

/* Deterministic data: xorshift64*, uniform in [lo, hi). */
struct rng {
    uint64_t s;
};

static inline double rng_uniform(struct rng *r, double lo, double hi)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    uint64_t x = r->s * 2685821657736338717ull;
    return lo + (hi - lo) * (double)(x >> 11) / 9007199254740992.0;
}

/* Fills v[0..n) with float32 values in [lo, hi). */
static inline void rng_fill(struct rng *r, float *v, size_t n, double lo, double hi)
{
    for (size_t i = 0; i < n; i++) v[i] = (float)rng_uniform(r, lo, hi);
}

/* Appends the nested list literal of v (row-major, shape[0..ndim)) to buf with "%.9g", which
 * reads back as the same float32. */
static inline void put_nested(char *buf, size_t cap, size_t *used, const float *v,
                              const int64_t *shape, int ndim, size_t *k)
{
    *used += (size_t)snprintf(buf + *used, cap - *used, "[");
    for (int64_t i = 0; i < shape[0]; i++) {
        if (i) *used += (size_t)snprintf(buf + *used, cap - *used, ", ");
        if (ndim == 1)
            *used += (size_t)snprintf(buf + *used, cap - *used, "%.9g", (double)v[(*k)++]);
        else
            put_nested(buf, cap, used, v, shape + 1, ndim - 1, k);
    }
    *used += (size_t)snprintf(buf + *used, cap - *used, "]");
}

/* Assigns `name = tensor(<literal of v><args>)<after>` in session s: args are more arguments
 * of tensor() (", requires_grad=true"), after a method chain (".permute(1, 0)"); both may be
 * NULL. */
#define SET_TENSOR(s, name, v, shape, ndim, args)                                                  \
    set_tensor((s), (name), (v), (shape), (ndim), (args), NULL, __FILE__, __LINE__)

static inline void set_tensor(struct dsl_session *s, const char *name, const float *v,
                              const int64_t *shape, int ndim, const char *args, const char *after,
                              const char *file, int line)
{
    size_t cap = 1 << 20, used = 0, k = 0;
    char *buf = malloc(cap);
    used += (size_t)snprintf(buf, cap, "%s = tensor(", name);
    put_nested(buf, cap, &used, v, shape, ndim, &k);
    snprintf(buf + used, cap - used, "%s)%s", args ? args : "", after ? after : "");
    ok_cell(s, buf, file, line);
    free(buf);
}

/* The text of a cell's stdout, as the sink recorded it ("stdout:..." lines). */
static inline const char *stdout_of(struct dsl_session *s, const char *code)
{
    static struct sink k;
    memset(&k, 0, sizeof k);
    struct outcome o = run_cell_with(s, code, &k);
    if (o.rc != 0) {
        fprintf(stderr, "cell failed: %s\n  %s: %s\n", code, o.ename, o.evalue);
        test_checks_failed++;
    }
    return k.log;
}

#endif
