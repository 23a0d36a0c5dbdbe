/* builtins.c — the builtin functions and the table that describes them (declared in
 * lang/library.h).
 *
 * Output builtins (print, warn, display, update_display, clear_output, help, input) talk to
 * the frontend only through the `struct dsl_output` callbacks of the running cell; a NULL
 * callback drops that output. Waiting builtins (sleep, input) poll the cancel flag at least
 * every 10 ms so an interrupt ends them promptly. The conversions (int, float, str, ...)
 * follow Python, with the language's spellings true/false/none. */
#include "lang/eval.h"
#include "lang/library.h"
#include "lang/ndarray.h"

#include "lib/check.h"
#include "lib/compile.h"
#include "lib/iterables.h"
#include "lib/jit.h"

#include "lang/classes.h"
#include "lang/datamodel.h"
#include "lang/dict.h"
#include "lang/exceptions.h"
#include "lang/interp.h"
#include "lang/lexer.h"
#include "lang/list.h"
#include "lang/operators.h"
#include "lang/packages.h"
#include "lang/set.h"
#include "lang/str.h"
#include "lang/unicode.h"
#include "lib/magics.h"
#include "lib/tensor_methods.h"
#include "lib/training.h"

#include "minitorch/minitorch.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* ---- helpers ---------------------------------------------------------------------------- */

static int make_str(struct dsl_interp *in, const char *s, size_t n, struct dsl_value *ret)
{
    int st = dsl_str_value(s, n, ret);
    return st ? dsl_raise_status(in, st) : 0;
}

/* Takes a filled buffer into a string value, raising MemoryError when it failed. */
static int buf_to_str(struct dsl_interp *in, struct render_buf *b, struct dsl_value *ret)
{
    if (b->nomem || b->over) {
        int st = b->over ? DSL_V_TOOBIG : DSL_V_NOMEM;
        render_buf_free(b);
        return dsl_raise_status(in, st);
    }
    int r = make_str(in, render_buf_str(b), b->len, ret);
    render_buf_free(b);
    return r;
}

/* buf_to_str after dsl_value_str/repr returned st: whatever stopped the text (a list nested
 * too deep, an interrupt, a __repr__ that raised or returned a non-string) raises, rather than
 * returning the text cut where it stopped. */
static int text_to_str(struct dsl_interp *in, struct render_buf *b, int st, struct dsl_value *ret)
{
    if (st != DSL_V_OK) {
        render_buf_free(b);
        return dsl_raise_status(in, st);
    }
    return buf_to_str(in, b, ret);
}

/* Joins str() of args with sep into b. When one's str() fails (its __str__ raised), what came
 * before it is written to stream `name` first, as CPython's print writes each argument before
 * making the next one's text. */
static int join_args(struct dsl_interp *in, struct render_buf *b, const struct dsl_value *args,
                     size_t n, const char *sep, size_t seplen, const char *name)
{
    for (size_t i = 0; i < n; i++) {
        if (i) render_buf_append(b, sep, seplen);
        size_t before = b->len;
        int st = dsl_value_str(b, args[i]);
        if (st == DSL_V_OK) continue;
        if (!b->nomem && !b->over && before > 0) {
            b->len = before; /* the failed argument's partial text is not shown */
            b->data[before] = '\0';
            dsl_emit(in, name, render_buf_str(b));
        }
        return dsl_raise_status(in, st);
    }
    return 0;
}

static int want_int(struct dsl_interp *in, struct dsl_value v, const char *fn, int64_t *out)
{
    if (!dsl_is_intlike(v))
        return dsl_raise(in, "TypeError", "%s(): '%s' object cannot be interpreted as an integer",
                         fn, dsl_type_name(v));
    *out = dsl_as_int(v);
    return 0;
}

/* ---- output ----------------------------------------------------------------------------- */

static int text_param(struct dsl_interp *in, const struct dsl_args *a, int slot, const char *fn,
                      const char *name, const char *dflt, const char **text, size_t *len)
{
    *text = dflt;
    *len = strlen(dflt);
    if (!a->has[slot] || a->slot[slot].kind == DSL_NONE) return 0;
    if (a->slot[slot].kind != DSL_STR)
        return dsl_raise(in, "TypeError", "%s(): %s must be none or a string, not %s", fn, name,
                         dsl_type_name(a->slot[slot]));
    *text = a->slot[slot].as.s->data;
    *len = a->slot[slot].as.s->len;
    return 0;
}

static int bi_print(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    const char *sep, *end;
    size_t seplen, endlen;
    if (text_param(in, a, 0, "print", "sep", " ", &sep, &seplen) != 0 ||
        text_param(in, a, 1, "print", "end", "\n", &end, &endlen) != 0)
        return -1;
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_STR_BYTES);
    if (join_args(in, &b, a->rest, a->nrest, sep, seplen, "stdout") != 0) {
        render_buf_free(&b);
        return -1;
    }
    render_buf_append(&b, end, endlen);
    if (b.nomem || b.over) {
        int st = b.over ? DSL_V_TOOBIG : DSL_V_NOMEM;
        render_buf_free(&b);
        return dsl_raise_status(in, st);
    }
    dsl_emit(in, "stdout", render_buf_str(&b));
    render_buf_free(&b);
    *ret = dsl_none();
    return 0;
}

static int bi_warn(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_STR_BYTES);
    if (join_args(in, &b, a->rest, a->nrest, " ", 1, "stderr") != 0) {
        render_buf_free(&b);
        return -1;
    }
    render_buf_putc(&b, '\n');
    if (b.nomem || b.over) {
        int st = b.over ? DSL_V_TOOBIG : DSL_V_NOMEM;
        render_buf_free(&b);
        return dsl_raise_status(in, st);
    }
    dsl_emit(in, "stderr", render_buf_str(&b));
    render_buf_free(&b);
    *ret = dsl_none();
    return 0;
}

static int publish(struct dsl_interp *in, struct dsl_value v, const char *display_id, bool update)
{
    enum dsl_vstatus st = DSL_V_OK;
    json_t *bundle = dsl_value_bundle(v, in->session->plot_renderer, &st);
    if (!bundle) return dsl_raise_status(in, st);
    dsl_display(in, bundle, display_id, update);
    json_decref(bundle);
    return 0;
}

static int bi_display(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    const char *id = NULL;
    if (a->has[1] && a->slot[1].kind != DSL_NONE) {
        if (a->slot[1].kind != DSL_STR)
            return dsl_raise(in, "TypeError",
                             "display(): display_id must be a string or none, "
                             "not %s",
                             dsl_type_name(a->slot[1]));
        id = a->slot[1].as.s->data;
    }
    *ret = dsl_none();
    return publish(in, a->slot[0], id, false);
}

static int bi_update_display(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (!a->has[1] || a->slot[1].kind != DSL_STR)
        return dsl_raise(in, "TypeError",
                         "update_display() needs display_id=\"...\", the id "
                         "given to display()");
    *ret = dsl_none();
    return publish(in, a->slot[0], a->slot[1].as.s->data, true);
}

static int bi_clear_output(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    bool wait = a->has[0] && dsl_value_truthy(a->slot[0]);
    if (in->out->clear_output) in->out->clear_output(in->out->ctx, wait);
    *ret = dsl_none();
    return 0;
}

static int bi_sleep(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value v = a->slot[0];
    if (!dsl_is_number(v))
        return dsl_raise(in, "TypeError", "sleep(): seconds must be a number, not %s",
                         dsl_type_name(v));
    double secs = dsl_as_double(v);
    if (isnan(secs)) return dsl_raise(in, "ValueError", "sleep(): seconds is nan");
    if (secs < 0) return dsl_raise(in, "ValueError", "sleep length must be non-negative");
    if (in->out->flush) in->out->flush(in->out->ctx);
    struct timespec now, until;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (secs > 1e9) secs = 1e9;
    double whole = floor(secs);
    until.tv_sec = now.tv_sec + (time_t)whole;
    until.tv_nsec = now.tv_nsec + (long)((secs - whole) * 1e9);
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    for (;;) {
        if (mt_cancel_requested()) return dsl_raise(in, "KeyboardInterrupt", "interrupted");
        clock_gettime(CLOCK_MONOTONIC, &now);
        double left = (double)(until.tv_sec - now.tv_sec) + (until.tv_nsec - now.tv_nsec) / 1e9;
        if (left <= 0) break;
        double step = left < 0.005 ? left : 0.005; /* poll the flag every 5 ms */
        struct timespec ts = {0, (long)(step * 1e9)};
        nanosleep(&ts, NULL);
    }
    *ret = dsl_none();
    return 0;
}

static int bi_input(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    static const char *const unavailable =
        "input() is not available: the frontend does not support input requests";
    struct render_buf prompt;
    render_buf_init(&prompt, DSL_MAX_STR_BYTES);
    if (a->has[0] && dsl_str_of(in, &prompt, a->slot[0]) != 0) {
        render_buf_free(&prompt);
        return -1;
    }
    bool password = a->has[1] && dsl_value_truthy(a->slot[1]);
    if (in->out->flush) /* what the cell printed belongs above the prompt */
        in->out->flush(in->out->ctx);
    char *line = NULL;
    const char *why = NULL;
    int r = -1;
    if (in->out->input)
        r = in->out->input(in->out->ctx, render_buf_str(&prompt), password, &line, &why);
    render_buf_free(&prompt);
    if (mt_cancel_requested()) {
        free(line);
        return dsl_raise(in, "KeyboardInterrupt", "interrupted");
    }
    if (r != 0 || !line) {
        free(line);
        return dsl_raise(in, "StdinNotImplementedError", "%s",
                         in->out->input && why ? why : unavailable);
    }
    size_t n = strlen(line);
    if (n && line[n - 1] == '\n') n--;
    if (n && line[n - 1] == '\r') n--;
    int st;
    if (render_utf8_valid(line, n)) {
        st = dsl_str_value(line, n, ret);
    } else {
        json_t *fixed = render_json_string(line, n);
        st = fixed ? dsl_str_value(json_string_value(fixed), json_string_length(fixed), ret)
                   : DSL_V_NOMEM;
        json_decref(fixed);
    }
    free(line);
    return st ? dsl_raise_status(in, st) : 0;
}

static int bi_help(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_STR_BYTES);
    if (!a->has[0]) {
        render_buf_puts(&b, "MiniTorch builtins (help(name) tells more):\n\n");
        for (size_t i = 0; i < dsl_builtin_count; i++)
            render_buf_printf(&b, "  %s\n", dsl_builtins[i].signature);
        render_buf_puts(&b, "\nKeywords:");
        for (size_t i = 0; dsl_keywords[i]; i++) render_buf_printf(&b, " %s", dsl_keywords[i]);
        render_buf_puts(&b, "\n\nExceptions (help(name) tells more):");
        for (size_t i = 0; i < dsl_exc_type_count; i++)
            render_buf_printf(&b, " %s", dsl_exc_types[i].name);
        render_buf_puts(&b, "\n\nMagics (a line starting with %; help(\"%name\") tells more):");
        for (size_t i = 0; i < dsl_magic_count; i++)
            render_buf_printf(&b, " %%%s", dsl_magics[i].name);
        render_buf_puts(&b, "\n\nTensors: help(x) on a tensor lists its methods and properties.\n");
    } else {
        struct dsl_value v = a->slot[0];
        const struct dsl_builtin *fn = NULL;
        const struct dsl_magic *magic = NULL;
        if (v.kind == DSL_BUILTIN)
            fn = v.as.fn;
        else if (v.kind == DSL_METHOD)
            fn = v.as.m->fn;
        else if (v.kind == DSL_STR && v.as.s->data[0] == '%')
            magic = dsl_magic_find(v.as.s->data + 1);
        else if (v.kind == DSL_STR)
            fn = dsl_builtin_find(v.as.s->data);
        if (fn)
            dsl_builtin_help(&b, fn);
        else if (magic)
            dsl_magic_help(&b, magic);
        else if (v.kind == DSL_TENSOR)
            dsl_tensor_help(&b);
        else if (v.kind == DSL_FUNCTION)
            dsl_function_help(&b, v.as.fn_user);
        else if (v.kind == DSL_CLASS && v.as.cls->ctor)
            dsl_builtin_help(&b, v.as.cls->ctor);
        else if (v.kind == DSL_CLASS || v.kind == DSL_INSTANCE)
            dsl_class_help(&b, v);
        else if (v.kind == DSL_EXC_TYPE || v.kind == DSL_EXCEPTION)
            dsl_exc_help(&b, v.kind == DSL_EXC_TYPE ? v.as.exc_type : v.as.exc->type);
        else if (v.kind == DSL_STR && dsl_exc_type_find(v.as.s->data))
            dsl_exc_help(&b, dsl_exc_type_find(v.as.s->data));
        else
            render_buf_puts(&b, dsl_type_doc(v));
        if (v.kind == DSL_OBJECT && v.as.obj->cls->attr_name) { /* a module: its members */
            const struct dsl_object_class *c = v.as.obj->cls;
            render_buf_puts(&b, "\n\nMembers (help(module.name) tells more):");
            for (size_t i = 0; c->attr_name(c, i); i++)
                render_buf_printf(&b, " %s", c->attr_name(c, i));
        }
    }
    if (b.nomem || b.over) {
        render_buf_free(&b);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    if (in->out->page) {
        json_t *bundle = render_text_bundle(render_buf_str(&b));
        if (!bundle) {
            render_buf_free(&b);
            return dsl_raise_status(in, DSL_V_NOMEM);
        }
        in->out->page(in->out->ctx, bundle);
        json_decref(bundle);
    } else {
        render_buf_putc(&b, '\n');
        dsl_emit(in, "stdout", render_buf_str(&b));
    }
    render_buf_free(&b);
    *ret = dsl_none();
    return 0;
}

/* ---- conversions and sequences ---------------------------------------------------------- */

static int bi_len(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value v = a->slot[0];
    switch (v.kind) {
    case DSL_STR: *ret = dsl_int((int64_t)render_utf8_count(v.as.s->data, v.as.s->len)); return 0;
    case DSL_LIST: *ret = dsl_int((int64_t)v.as.l->len); return 0;
    case DSL_DICT:
    case DSL_SET: *ret = dsl_int((int64_t)v.as.d->len); return 0;
    case DSL_RANGE: *ret = dsl_int(dsl_range_len(v.as.rng->r)); return 0;
    case DSL_TENSOR: *ret = dsl_int(v.as.t->shape[0]); return 0; /* as PyTorch: the first dim */
    case DSL_INSTANCE:
    case DSL_METHOD: { /* __len__, or an instance's __dict__ */
        int64_t n = 0;
        if (dsl_instance_len(in, v, &n) != 0) return -1;
        *ret = dsl_int(n);
        return 0;
    }
    case DSL_OBJECT:
        if (v.as.obj->cls->len) {
            int64_t n = 0;
            if (v.as.obj->cls->len(in, v, &n) != 0) return -1;
            *ret = dsl_int(n);
            return 0;
        }
        /* fall through */
    default:
        return dsl_raise(in, "TypeError", "object of type '%s' has no len()", dsl_type_name(v));
    }
}

bool dsl_builtin_is_len(const struct dsl_builtin *fn) { return fn->fn == bi_len; }

static int bi_str(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (!a->has[0]) return make_str(in, "", 0, ret);
    if (a->slot[0].kind == DSL_STR) {
        *ret = dsl_value_retain(a->slot[0]);
        return 0;
    }
    if (a->slot[0].kind == DSL_INT) { /* str(n): the digits, without a text buffer */
        char digits[DSL_INT_TEXT];
        return make_str(in, digits, dsl_int_text(a->slot[0].as.i, digits), ret);
    }
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_STR_BYTES);
    return text_to_str(in, &b, dsl_value_str(&b, a->slot[0]), ret);
}

static int bi_repr(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_STR_BYTES);
    return text_to_str(in, &b, dsl_value_repr(&b, a->slot[0]), ret);
}

/* Trimmed copy of a string argument for number parsing; NULL (and MemoryError) on failure. */
static char *trimmed(struct dsl_interp *in, const struct dsl_str *s)
{
    const char *p = s->data, *e = s->data + s->len;
    while (p < e && isspace((unsigned char)*p)) p++;
    while (e > p && isspace((unsigned char)e[-1])) e--;
    char *t = strndup(p, (size_t)(e - p));
    if (!t) dsl_raise_status(in, DSL_V_NOMEM);
    return t;
}

/* The value of a one-element tensor for int() and float(), as PyTorch allows. */
static int tensor_scalar(struct dsl_interp *in, struct dsl_value v, const char *fn, double *out)
{
    struct mt_tensor *t = v.as.t;
    if (t->size != 1)
        return dsl_raise(in, "ValueError",
                         "%s(): only one-element tensors can be converted to a number (this one "
                         "has %lld elements)",
                         fn, (long long)t->size);
    int64_t zero[MT_MAX_DIMS] = {0};
    float x = 0.0f;
    enum mt_status st = mt_tensor_get(in->session->ctx, t, t->ndim, zero, &x);
    if (st != MT_OK) return dsl_engine_raise(in, st);
    *out = dsl_float32_value(x);
    return 0;
}

static int float_to_int(struct dsl_interp *in, double f, int64_t *out)
{
    if (isnan(f)) return dsl_raise(in, "ValueError", "cannot convert float nan to integer");
    if (isinf(f)) return dsl_raise(in, "OverflowError", "cannot convert float infinity to integer");
    f = trunc(f);
    if (!(f >= -9223372036854775808.0 && f < 9223372036854775808.0))
        return dsl_raise(in, "OverflowError", "float too large to convert to int64");
    *out = (int64_t)f;
    return 0;
}

static int bi_int(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (!a->has[0]) {
        *ret = dsl_int(0);
        return 0;
    }
    struct dsl_value v = a->slot[0];
    if (dsl_is_intlike(v)) {
        *ret = dsl_int(dsl_as_int(v));
        return 0;
    }
    if (v.kind == DSL_INSTANCE && !a->has[1]) { /* its class's __int__, else __index__ */
        int r = dsl_instance_special(in, v, "__int__", NULL, 0, ret);
        if (r == 0) r = dsl_instance_special(in, v, "__index__", NULL, 0, ret);
        if (r > 0 && !dsl_is_intlike(*ret)) {
            dsl_raise(in, "TypeError", "__int__ returned non-int (type %s)", dsl_type_name(*ret));
            dsl_value_release(*ret);
            return -1;
        }
        if (r != 0) return r < 0 ? -1 : 0;
    }
    if (v.kind == DSL_FLOAT || v.kind == DSL_TENSOR) {
        double f = v.kind == DSL_FLOAT ? v.as.f : 0.0;
        if (v.kind == DSL_TENSOR && tensor_scalar(in, v, "int", &f) != 0) return -1;
        int64_t i = 0;
        if (float_to_int(in, f, &i) != 0) return -1;
        *ret = dsl_int(i);
        return 0;
    }
    if (v.kind != DSL_STR)
        return dsl_raise(in, "TypeError",
                         "int() argument must be a string, a bytes-like object or a real number, "
                         "not '%s'",
                         dsl_type_name(v));
    char *t = trimmed(in, v.as.s);
    if (!t) return -1;
    /* digits with single underscores between them, after an optional sign */
    char digits[32];
    size_t nd = 0;
    const char *p = t;
    bool ok = true, too_long = false;
    if (*p == '+' || *p == '-') digits[nd++] = *p++;
    if (!isdigit((unsigned char)*p)) ok = false;
    for (; *p && ok; p++) {
        if (*p == '_' && isdigit((unsigned char)p[1]) && p > t && isdigit((unsigned char)p[-1]))
            continue;
        if (!isdigit((unsigned char)*p))
            ok = false;
        else if (nd < sizeof digits - 1)
            digits[nd++] = *p;
        else
            too_long = true;
    }
    digits[nd] = '\0';
    int r = 0;
    if (!ok) {
        struct render_buf b;
        render_buf_init(&b, 200);
        render_str_repr(&b, v.as.s->data, v.as.s->len < 80 ? v.as.s->len : 80);
        r = dsl_raise(in, "ValueError", "invalid literal for int() with base 10: %s",
                      render_buf_str(&b));
        render_buf_free(&b);
    } else {
        errno = 0;
        long long x = strtoll(digits, NULL, 10);
        if (errno == ERANGE || too_long)
            r = dsl_raise(in, "OverflowError", "int() result does not fit in 64 bits");
        else
            *ret = dsl_int((int64_t)x);
    }
    free(t);
    return r;
}

static int bi_float(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (!a->has[0]) {
        *ret = dsl_float(0.0);
        return 0;
    }
    struct dsl_value v = a->slot[0];
    if (dsl_is_number(v)) {
        *ret = dsl_float(dsl_as_double(v));
        return 0;
    }
    if (v.kind == DSL_INSTANCE) { /* its class's __float__ */
        int r = dsl_instance_special(in, v, "__float__", NULL, 0, ret);
        if (r > 0 && ret->kind != DSL_FLOAT) {
            dsl_raise(in, "TypeError", "%s.__float__ returned non-float (type %s)",
                      dsl_type_name(v), dsl_type_name(*ret));
            dsl_value_release(*ret);
            return -1;
        }
        if (r != 0) return r < 0 ? -1 : 0;
    }
    if (v.kind == DSL_TENSOR) {
        double f = 0.0;
        if (tensor_scalar(in, v, "float", &f) != 0) return -1;
        *ret = dsl_float(f);
        return 0;
    }
    if (v.kind != DSL_STR)
        return dsl_raise(in, "TypeError",
                         "float() argument must be a string or a real number, not '%s'",
                         dsl_type_name(v));
    char *t = trimmed(in, v.as.s);
    if (!t) return -1;
    /* Python's spellings only: no hex floats, underscores between digits allowed */
    char *clean = malloc(strlen(t) + 1);
    int r = 0;
    if (!clean) {
        free(t);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    size_t k = 0;
    bool ok = t[0] != '\0' && !strpbrk(t, "xXpP");
    for (const char *p = t; *p; p++) {
        if (*p == '_') {
            if (p == t || !isdigit((unsigned char)p[-1]) || !isdigit((unsigned char)p[1]))
                ok = false;
            continue;
        }
        clean[k++] = *p;
    }
    clean[k] = '\0';
    char *end = NULL;
    double f = ok ? strtod(clean, &end) : 0.0;
    if (!ok || !end || *end != '\0') {
        struct render_buf b;
        render_buf_init(&b, 200);
        render_str_repr(&b, v.as.s->data, v.as.s->len < 80 ? v.as.s->len : 80);
        r = dsl_raise(in, "ValueError", "could not convert string to float: %s",
                      render_buf_str(&b));
        render_buf_free(&b);
    } else {
        *ret = dsl_float(f);
    }
    free(clean);
    free(t);
    return r;
}

static int bi_bool(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    bool t = false;
    if (a->has[0] && dsl_truth(in, a->slot[0], &t) != 0) return -1;
    *ret = dsl_bool(t);
    return 0;
}

static int bi_list(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    /* always a new list: lists are mutable, and list(xs) is how Python copies one */
    struct dsl_iter it;
    if (a->has[0] && a->slot[0].kind == DSL_RANGE &&
        dsl_range_len(a->slot[0].as.rng->r) > (int64_t)DSL_MAX_LIST_LEN)
        return dsl_raise_size(in, "list", (uint64_t)dsl_range_len(a->slot[0].as.rng->r));
    /* a list's or a tuple's items, copied with no iterator: list(var.parents), which
     * topological_sort runs at every step */
    const struct dsl_list *src = a->has[0] && a->slot[0].kind == DSL_LIST ? a->slot[0].as.l : NULL;
    if (src && src->style != DSL_LIST_PLAIN && src->style != DSL_LIST_TUPLE) src = NULL;
    struct dsl_list *l = dsl_list_new(src ? src->len : 0);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    struct dsl_value lv = {.kind = DSL_LIST, .as.l = l};
    if (src) {
        for (size_t i = 0; i < src->len; i++) dsl_list_push(l, dsl_value_retain(src->items[i]));
        *ret = lv;
        return 0;
    }
    if (a->has[0] && dsl_iter_init(in, a->slot[0], &it) != 0) {
        dsl_value_release(lv);
        return -1;
    }
    if (a->has[0]) {
        struct dsl_value item;
        int got;
        while ((got = dsl_iter_next(in, &it, &item)) > 0) {
            int st = dsl_list_push(l, item);
            if (st != 0) {
                got = dsl_raise_status(in, st);
                break;
            }
        }
        dsl_iter_end(&it);
        if (got < 0) {
            dsl_value_release(lv);
            return -1;
        }
    }
    *ret = lv;
    return 0;
}

static int bi_tuple(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (bi_list(in, a, ret) != 0) return -1;
    ret->as.l->style = DSL_LIST_TUPLE; /* a new list no one else holds yet */
    return 0;
}

static int bi_abs(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value v = a->slot[0];
    if (dsl_is_intlike(v)) {
        int64_t i = dsl_as_int(v);
        if (i == INT64_MIN)
            return dsl_raise(in, "OverflowError", "abs() result does not fit in 64 bits");
        *ret = dsl_int(i < 0 ? -i : i);
        return 0;
    }
    if (v.kind == DSL_FLOAT) {
        *ret = dsl_float(fabs(v.as.f));
        return 0;
    }
    if (v.kind == DSL_TENSOR) return dsl_tensor_abs(in, v, ret);
    return dsl_instance_abs(in, v, ret); /* __abs__, or the TypeError */
}

static int bi_sum(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_iter it;
    if (a->has[1] && a->slot[1].kind == DSL_STR) /* CPython refuses: quadratic, join is linear */
        return dsl_raise(in, "TypeError", "sum() can't sum strings [use ''.join(seq) instead]");
    if (dsl_iter_init(in, a->slot[0], &it) != 0) return -1;
    struct dsl_value acc = a->has[1] ? dsl_value_retain(a->slot[1]) : dsl_int(0), item, next;
    int got;
    while ((got = dsl_iter_next(in, &it, &item)) > 0) {
        int r = dsl_binary(in, DSL_T_PLUS, acc, item, &next);
        dsl_value_release(item);
        dsl_value_release(acc);
        acc = r == 0 ? next : dsl_none();
        if (r == 0 && mt_cancel_requested()) r = dsl_raise(in, "KeyboardInterrupt", "interrupted");
        if (r != 0) {
            got = -1;
            break;
        }
    }
    dsl_iter_end(&it);
    if (got < 0) {
        dsl_value_release(acc);
        return -1;
    }
    *ret = acc;
    return 0;
}

static int bi_round(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value v = a->slot[0];
    if (v.kind == DSL_INSTANCE) { /* its class's __round__(ndigits) */
        int r = dsl_instance_special(in, v, "__round__", &a->slot[1], a->has[1] ? 1 : 0, ret);
        if (r != 0) return r < 0 ? -1 : 0;
    }
    bool has_nd = a->has[1] && a->slot[1].kind != DSL_NONE;
    int64_t nd = 0;
    if (has_nd && want_int(in, a->slot[1], "round", &nd) != 0) return -1;
    if (dsl_is_intlike(v)) {
        int64_t i = dsl_as_int(v);
        if (has_nd && nd < 0) {
            if (nd < -18) {
                *ret = dsl_int(0);
                return 0;
            }
            int64_t p = 1;
            for (int64_t k = 0; k < -nd; k++) p *= 10;
            /* round half to even on the integer */
            int64_t q = i / p, r = i % p;
            if (r < 0) {
                q--;
                r += p;
            }
            if (2 * (r % p) > p || (2 * r == p && (q & 1))) q++;
            if (__builtin_mul_overflow(q, p, &i))
                return dsl_raise(in, "OverflowError", "round() result does not fit in 64 bits");
        }
        *ret = dsl_int(i);
        return 0;
    }
    if (v.kind != DSL_FLOAT)
        return dsl_raise(in, "TypeError", "type %s doesn't define round()", dsl_type_name(v));
    double f = v.as.f;
    if (!has_nd) {
        int64_t i = 0;
        if (float_to_int(in, nearbyint(f), &i) != 0) return -1;
        *ret = dsl_int(i);
        return 0;
    }
    if (!isfinite(f) || nd > 320) {
        *ret = dsl_float(f);
        return 0;
    }
    if (nd >= 0) {
        /* printf rounds the exact binary value correctly, as CPython's round does */
        char buf[512];
        snprintf(buf, sizeof buf, "%.*f", (int)nd, f);
        *ret = dsl_float(strtod(buf, NULL));
        return 0;
    }
    double p = pow(10.0, (double)-nd);
    *ret = dsl_float(isinf(p) ? copysign(0.0, f) : nearbyint(f / p) * p);
    return 0;
}

static int bi_cuda_available(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)a;
    *ret = dsl_bool(mt_backend_check(in->session->ctx, MT_BACKEND_CUDA) == MT_OK);
    return 0;
}

static int bi_range(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    int64_t x[3] = {0, 0, 1};
    int n = a->has[2] ? 3 : a->has[1] ? 2 : 1;
    for (int i = 0; i < n; i++)
        if (want_int(in, a->slot[i], "range", &x[i]) != 0) return -1;
    struct dsl_range r = {0, x[0], 1};
    if (n >= 2) {
        r.start = x[0];
        r.stop = x[1];
    }
    if (n == 3) {
        if (x[2] == 0) return dsl_raise(in, "ValueError", "range() arg 3 must not be zero");
        r.step = x[2];
    }
    return dsl_range_value(r, ret) == DSL_V_OK ? 0 : dsl_raise_status(in, DSL_V_NOMEM);
}

/* ---- print options ---------------------------------------------------------------------- */

/* One whole-number option of set_printoptions: none keeps the current value. A float is taken
 * for threshold only, where inf (PyTorch's profile="full") means "never summarise". */
static int option_int(struct dsl_interp *in, const struct dsl_args *a, int slot, const char *name,
                      int64_t lo, int64_t hi, bool inf_ok, int64_t *out)
{
    if (!a->has[slot] || a->slot[slot].kind == DSL_NONE) return 0;
    struct dsl_value v = a->slot[slot];
    double f = dsl_is_number(v) ? dsl_as_double(v) : NAN;
    if (inf_ok && v.kind == DSL_FLOAT && f == INFINITY) {
        *out = hi;
        return 0;
    }
    if (!dsl_is_intlike(v))
        return dsl_raise(in, "TypeError", "set_printoptions(): %s must be an int%s, not %s", name,
                         inf_ok ? " or inf" : "", dsl_type_name(v));
    int64_t i = dsl_as_int(v);
    if (i < lo || i > hi)
        return dsl_raise(in, "ValueError",
                         "set_printoptions(): %s must be between %lld and %lld, not %lld", name,
                         (long long)lo, (long long)hi, (long long)i);
    *out = i;
    return 0;
}

/* torch.set_printoptions: a profile first ("default", "short" or "full"), then each option
 * given; sci_mode is reset to automatic unless given, as in PyTorch. */
static int bi_set_printoptions(struct dsl_interp *in, const struct dsl_args *a,
                               struct dsl_value *ret)
{
    struct render_print_options o = *render_print_options();
    const struct render_print_options dflt = RENDER_PRINT_DEFAULTS;
    if (a->has[4] && a->slot[4].kind != DSL_NONE) {
        const char *p = a->slot[4].kind == DSL_STR ? a->slot[4].as.s->data : "";
        if (strcmp(p, "default") != 0 && strcmp(p, "short") != 0 && strcmp(p, "full") != 0)
            return dsl_raise(in, "ValueError",
                             "set_printoptions(): profile must be \"default\", \"short\" or "
                             "\"full\"");
        o = dflt;
        if (strcmp(p, "short") == 0) {
            o.precision = 2;
            o.edgeitems = 2;
        } else if (strcmp(p, "full") == 0) {
            o.threshold = INT64_MAX;
        }
    }
    int64_t precision = o.precision, linewidth = o.linewidth;
    if (option_int(in, a, 0, "precision", 0, RENDER_PRINT_MAX_PRECISION, false, &precision) ||
        option_int(in, a, 1, "threshold", 0, INT64_MAX, true, &o.threshold) ||
        option_int(in, a, 2, "edgeitems", 1, INT32_MAX, false, &o.edgeitems) ||
        option_int(in, a, 3, "linewidth", 1, INT32_MAX, false, &linewidth))
        return -1;
    o.precision = (int)precision;
    o.linewidth = (int)linewidth;
    o.sci_mode = -1;
    if (a->has[5] && a->slot[5].kind != DSL_NONE) {
        if (a->slot[5].kind != DSL_BOOL)
            return dsl_raise(in, "TypeError",
                             "set_printoptions(): sci_mode must be true, false or none, not %s",
                             dsl_type_name(a->slot[5]));
        o.sci_mode = a->slot[5].as.b ? 1 : 0;
    }
    render_set_print_options(&o);
    *ret = dsl_none();
    return 0;
}

/* ---- characters, arithmetic and identity: chr ord divmod pow id callable hash dir ------- */

/* The type name CPython's messages use. */
static const char *py_type(struct dsl_value v)
{
    switch (v.kind) {
    case DSL_NONE: return "NoneType";
    case DSL_BUILTIN: return "builtin_function_or_method";
    case DSL_CLASS:
    case DSL_EXC_TYPE: return "type";
    default: return dsl_type_name(v);
    }
}

/* The one argument of chr, ord, id, callable and hash, bound as CPython binds it (their rows
 * take any number, so that the message is CPython's). 0 or -1. */
static int one_arg(struct dsl_interp *in, const struct dsl_args *a, const char *fn)
{
    if (a->nrest != 1)
        return dsl_raise(in, "TypeError", "%s() takes exactly one argument (%zu given)", fn,
                         a->nrest);
    return 0;
}

static int bi_chr(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (one_arg(in, a, "chr") != 0) return -1;
    struct dsl_value v = a->rest[0];
    if (!dsl_is_intlike(v))
        return dsl_raise(in, "TypeError", "'%s' object cannot be interpreted as an integer",
                         py_type(v));
    int64_t c = dsl_as_int(v);
    if (c < 0 || c > 0x10FFFF)
        return dsl_raise(in, "ValueError", "chr() arg not in range(0x110000)");
    if (c >= 0xD800 && c < 0xE000) /* text is UTF-8, which has no surrogates */
        return dsl_raise(in, "NotImplementedError",
                         "chr() of a surrogate (U+%04llX) is not supported in the MiniTorch "
                         "language: strings are UTF-8",
                         (long long)c);
    char u[4];
    return make_str(in, u, dsl_utf8_encode((uint32_t)c, u), ret);
}

static int bi_ord(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (one_arg(in, a, "ord") != 0) return -1;
    struct dsl_value v = a->rest[0];
    if (v.kind != DSL_STR)
        return dsl_raise(in, "TypeError", "ord() expected string of length 1, but %s found",
                         py_type(v));
    size_t n = render_utf8_count(v.as.s->data, v.as.s->len), len;
    if (n != 1)
        return dsl_raise(in, "TypeError",
                         "ord() expected a character, but string of length %zu found", n);
    *ret = dsl_int(dsl_utf8_decode(v.as.s->data, v.as.s->len, &len));
    return 0;
}

/* A tuple of two new values (taken). */
static int pair(struct dsl_interp *in, struct dsl_value x, struct dsl_value y,
                struct dsl_value *ret)
{
    struct dsl_list *l = dsl_list_new(2);
    if (!l) {
        dsl_value_release(x);
        dsl_value_release(y);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    dsl_list_push(l, x);
    dsl_list_push(l, y);
    l->style = DSL_LIST_TUPLE;
    *ret = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    return 0;
}

static int bi_divmod(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (a->nrest != 2)
        return dsl_raise(in, "TypeError", "divmod expected 2 arguments, got %zu", a->nrest);
    struct dsl_value x = a->rest[0], y = a->rest[1], q, r;
    if (!dsl_is_number(x) || !dsl_is_number(y))
        return dsl_raise(in, "TypeError", "unsupported operand type(s) for divmod(): '%s' and '%s'",
                         py_type(x), py_type(y));
    if (dsl_as_double(y) == 0.0)
        return x.kind == DSL_FLOAT || y.kind == DSL_FLOAT
                   ? dsl_raise(in, "ZeroDivisionError", "float divmod()")
                   : dsl_raise(in, "ZeroDivisionError", "integer division or modulo by zero");
    if (dsl_binary(in, DSL_T_DSLASH, x, y, &q) != 0) return -1;
    if (dsl_binary(in, DSL_T_PERCENT, x, y, &r) != 0) return -1;
    return pair(in, q, r, ret);
}

/* base ** exp % mod for ints, mod != 0, as CPython: the result has mod's sign, and a negative
 * exp takes the inverse of base modulo mod. 0 or -1. */
static int pow_mod(struct dsl_interp *in, int64_t base, int64_t exp, int64_t mod, int64_t *out)
{
    uint64_t m = mod < 0 ? (uint64_t)0 - (uint64_t)mod : (uint64_t)mod;
    if (m == 1) {
        *out = 0;
        return 0;
    }
    /* base in [0, m) */
    uint64_t b = base < 0 ? (m - ((uint64_t)0 - (uint64_t)base) % m) % m : (uint64_t)base % m;
    uint64_t e = exp < 0 ? (uint64_t)0 - (uint64_t)exp : (uint64_t)exp;
    if (exp < 0) { /* the inverse of b modulo m, by the extended Euclidean algorithm */
        __int128 r0 = (__int128)m, r1 = (__int128)b, s0 = 0, s1 = 1;
        while (r1 != 0) {
            __int128 q = r0 / r1, t = r0 - q * r1;
            r0 = r1, r1 = t;
            t = s0 - q * s1;
            s0 = s1, s1 = t;
        }
        if (r0 != 1)
            return dsl_raise(in, "ValueError", "base is not invertible for the given modulus");
        b = (uint64_t)(s0 < 0 ? s0 + (__int128)m : s0);
    }
    uint64_t r = 1 % m;
    for (; e; e >>= 1) {
        if (e & 1) r = (uint64_t)((unsigned __int128)r * b % m);
        b = (uint64_t)((unsigned __int128)b * b % m);
    }
    *out = mod < 0 && r != 0 ? (int64_t)(r - m) : (int64_t)r;
    return 0;
}

static const char *const pow_params[] = {"base", "exp", "mod"};

static int bi_pow(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    /* bound as CPython's pow binds: by position or by name, with its messages */
    const struct dsl_value *arg[3] = {NULL, NULL, NULL};
    size_t n = a->nrest;
    if (n + a->nkw > 3)
        return dsl_raise(in, "TypeError", "pow() takes at most 3 arguments (%zu given)",
                         n + a->nkw);
    for (size_t i = 0; i < n; i++) arg[i] = &a->rest[i];
    for (size_t k = 0; k < a->nkw; k++) /* a name given twice is refused below */
        for (size_t i = n; i < 3; i++)
            if (strcmp(a->kwnames[k], pow_params[i]) == 0) arg[i] = &a->kwvals[k];
    for (size_t i = 0; i < 2; i++)
        if (!arg[i])
            return dsl_raise(in, "TypeError", "pow() missing required argument '%s' (pos %zu)",
                             pow_params[i], i + 1);
    for (size_t k = 0; k < a->nkw; k++) {
        size_t i = 0;
        while (i < 3 && strcmp(a->kwnames[k], pow_params[i]) != 0) i++;
        if (i == 3)
            return dsl_raise(in, "TypeError", "'%s' is an invalid keyword argument for pow()",
                             a->kwnames[k]);
        if (i < n)
            return dsl_raise(in, "TypeError",
                             "argument for pow() given by name ('%s') and position (%zu)",
                             pow_params[i], i + 1);
    }
    struct dsl_value x = *arg[0], y = *arg[1];
    if (!arg[2] || arg[2]->kind == DSL_NONE) {
        if ((dsl_is_number(x) && dsl_is_number(y)) || x.kind == DSL_TENSOR ||
            y.kind == DSL_TENSOR || x.kind == DSL_INSTANCE || y.kind == DSL_INSTANCE)
            return dsl_binary(in, DSL_T_DSTAR, x, y, ret);
        return dsl_raise(in, "TypeError",
                         "unsupported operand type(s) for ** or pow(): '%s' and '%s'", py_type(x),
                         py_type(y));
    }
    struct dsl_value z = *arg[2];
    if (!dsl_is_number(x) || !dsl_is_number(y) || !dsl_is_number(z))
        return dsl_raise(in, "TypeError",
                         "unsupported operand type(s) for ** or pow(): '%s', '%s', '%s'",
                         py_type(x), py_type(y), py_type(z));
    if (!dsl_is_intlike(x) || !dsl_is_intlike(y) || !dsl_is_intlike(z))
        return dsl_raise(in, "TypeError",
                         "pow() 3rd argument not allowed unless all arguments are integers");
    if (dsl_as_int(z) == 0) return dsl_raise(in, "ValueError", "pow() 3rd argument cannot be 0");
    int64_t r = 0;
    if (pow_mod(in, dsl_as_int(x), dsl_as_int(y), dsl_as_int(z), &r) != 0) return -1;
    *ret = dsl_int(r);
    return 0;
}

static int bi_id(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (one_arg(in, a, "id") != 0) return -1;
    struct dsl_value v = a->rest[0];
    const void *p = dsl_value_identity(v);
    if (p) {
        *ret = dsl_int((int64_t)(uintptr_t)p);
        return 0;
    }
    /* a value kept by value is identical (`is`) to every equal one of its kind: its id comes
     * from the kind and the value, odd so that no address (malloc's are even) has it */
    uint64_t x = 0;
    switch (v.kind) {
    case DSL_BOOL: x = v.as.b; break;
    case DSL_INT: x = (uint64_t)v.as.i; break;
    case DSL_FLOAT: memcpy(&x, &v.as.f, sizeof x); break;
    case DSL_RANGE:
        x = dsl_mix64((uint64_t)v.as.rng->r.start) ^ dsl_mix64((uint64_t)v.as.rng->r.stop + 1) ^
            dsl_mix64((uint64_t)v.as.rng->r.step + 2);
        break;
    default: break;
    }
    *ret = dsl_int((int64_t)((dsl_mix64(x ^ dsl_mix64((uint64_t)v.kind + 1)) | 1) & INT64_MAX));
    return 0;
}

static int bi_callable(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (one_arg(in, a, "callable") != 0) return -1;
    struct dsl_value v = a->rest[0], fn;
    bool yes;
    switch (v.kind) { /* what a call accepts (lang/calls.c) */
    case DSL_FUNCTION:
    case DSL_BUILTIN:
    case DSL_METHOD:
    case DSL_CLASS:
    case DSL_EXC_TYPE: yes = true; break;
    case DSL_INSTANCE: yes = dsl_instance_method(v, "__call__", &fn); break;
    case DSL_OBJECT: yes = v.as.obj->cls->call != NULL; break;
    default: yes = false; break;
    }
    *ret = dsl_bool(yes);
    return 0;
}

static int bi_hash(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    int64_t h;
    if (one_arg(in, a, "hash") != 0 || dsl_hash_value(in, a->rest[0], &h) != 0) return -1;
    *ret = dsl_int(h);
    return 0;
}

/* dir(): the names a value's attributes are read by, sorted. */
struct names {
    const char **v;
    size_t n, cap;
};

static void add_name(struct names *ns, const char *name)
{
    if (ns->n == ns->cap) {
        size_t cap = ns->cap ? 2 * ns->cap : 64;
        const char **v = realloc(ns->v, cap * sizeof *v);
        if (!v) return;
        ns->v = v;
        ns->cap = cap;
    }
    ns->v[ns->n++] = name;
}

static int compare_names(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static void add_rows(struct names *ns, const struct dsl_builtin *rows, size_t n)
{
    for (size_t i = 0; i < n; i++) add_name(ns, rows[i].name);
}

/* The attributes of v this language reads (not CPython's special methods, which it has as
 * operators and builtins rather than attributes). */
static void attribute_names(struct names *ns, struct dsl_session *s, struct dsl_value v)
{
    enum dsl_kind k = v.kind;
    if (k != DSL_LIST && k != DSL_DICT && k != DSL_TENSOR && k != DSL_OBJECT && k != DSL_EXC_TYPE &&
        k != DSL_EXCEPTION) /* those whose getattr has no __class__ */
        add_name(ns, "__class__");
    switch (k) {
    case DSL_STR: add_rows(ns, dsl_str_methods, dsl_str_method_count); break;
    case DSL_LIST:
        if (dsl_is_ndarray(v)) {
            add_rows(ns, dsl_ndarray_methods, dsl_ndarray_method_count);
            for (size_t i = 0; dsl_ndarray_attrs[i]; i++) add_name(ns, dsl_ndarray_attrs[i]);
            break;
        }
        for (size_t i = 0; i < dsl_list_method_count; i++)
            if (!dsl_is_tuple(v) || strcmp(dsl_list_methods[i].name, "count") == 0 ||
                strcmp(dsl_list_methods[i].name, "index") == 0)
                add_name(ns, dsl_list_methods[i].name);
        break;
    case DSL_DICT: add_rows(ns, dsl_dict_methods, dsl_dict_method_count); break;
    case DSL_SET: /* a frozenset has those that change nothing */
        for (size_t i = 0; i < dsl_set_method_count; i++)
            if (!v.as.d->frozen || !dsl_set_method_mutates(&dsl_set_methods[i]))
                add_name(ns, dsl_set_methods[i].name);
        break;
    case DSL_TENSOR:
        add_rows(ns, dsl_tensor_methods, dsl_tensor_method_count);
        add_rows(ns, dsl_tensor_props, dsl_tensor_prop_count);
        break;
    case DSL_FUNCTION: add_name(ns, "__doc__"); /* fall through */
    case DSL_BUILTIN: add_name(ns, "__name__"); break;
    case DSL_OBJECT: {
        const struct dsl_object_class *c = v.as.obj->cls;
        for (size_t i = 0; c->attrs && c->attrs[i]; i++) add_name(ns, c->attrs[i]);
        for (size_t i = 0; !c->attrs && c->attr_name && c->attr_name(c, i); i++)
            add_name(ns, c->attr_name(c, i));
        size_t nf = dsl_module_file_names(s, c, NULL, 0); /* what files cells wrote add */
        const char **files = nf ? malloc(nf * sizeof *files) : NULL;
        if (files) dsl_module_file_names(s, c, files, nf);
        for (size_t i = 0; files && i < nf; i++) add_name(ns, files[i]);
        free(files);
        break;
    }
    case DSL_INSTANCE:
    case DSL_CLASS: {
        size_t n = dsl_attr_names(v, NULL, 0);
        const char **names = malloc((n ? n : 1) * sizeof *names);
        if (!names) break;
        dsl_attr_names(v, names, n);
        for (size_t i = 0; i < n; i++) add_name(ns, names[i]);
        free(names);
        break;
    }
    default: break;
    }
}

/* The names bound where dir() was called: the running call's locals, else the globals (a
 * package file's module's, or the session's). */
static void scope_names(struct names *ns, struct dsl_interp *in)
{
    const struct dsl_frame *f = in->frame;
    if (f) {
        for (size_t i = 0; i < f->fn->nlocals; i++) {
            struct dsl_value v = f->vals[i];
            bool bound = f->fn->is_cell[i] ? v.kind == DSL_CELL && v.as.cell->bound : f->bound[i];
            if (bound) add_name(ns, f->fn->locals[i]);
        }
        return;
    }
    const struct dsl_attrs *g = dsl_package_globals(in);
    if (g) {
        for (size_t i = 0; i < g->len; i++) add_name(ns, g->items[i].name);
        return;
    }
    const struct dsl_session *s = in->session;
    for (size_t i = 0; i < s->cap; i++)
        if (s->vars[i].name) add_name(ns, s->vars[i].name);
}

static int bi_dir(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (a->nrest > 1)
        return dsl_raise(in, "TypeError", "dir expected at most 1 argument, got %zu", a->nrest);
    struct names ns = {0};
    if (a->nrest)
        attribute_names(&ns, in->session, a->rest[0]);
    else
        scope_names(&ns, in);
    if (ns.n) qsort(ns.v, ns.n, sizeof *ns.v, compare_names);
    struct dsl_list *l = dsl_list_new(ns.n);
    int r = l ? 0 : dsl_raise_status(in, DSL_V_NOMEM);
    for (size_t i = 0; i < ns.n && r == 0; i++) {
        if (i && strcmp(ns.v[i], ns.v[i - 1]) == 0) continue; /* a name overridden */
        struct dsl_value s;
        r = make_str(in, ns.v[i], strlen(ns.v[i]), &s);
        if (r == 0 && dsl_list_push(l, s) != DSL_V_OK) r = dsl_raise_status(in, DSL_V_NOMEM);
    }
    free(ns.v);
    if (r != 0) {
        if (l) dsl_value_release((struct dsl_value){.kind = DSL_LIST, .as.l = l});
        return -1;
    }
    *ret = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    return 0;
}

/* ---- the table -------------------------------------------------------------------------- */

static const char *const compare_params[] = {"stmt", "backends", NULL};
static const char *const timing_params[] = {"op", "sizes", "backends", NULL};
static const char *const print_params[] = {"sep", "end", NULL};
static const char *const property_params[] = {"fget", "fset", "fdel", NULL};
static const char *const display_params[] = {"value", "display_id", NULL};
static const char *const dataset_params[] = {"name", "n", "seed", NULL};
static const char *const linear_params[] = {"in_size", "out_size", NULL};
static const char *const mlp_params[] = {"in_size", "hidden", "out_size", NULL};
static const char *const sgd_params[] = {"params", "rate", NULL};
static const char *const train_params[] = {"model", "data",    "rate",   "epochs", "batch",
                                           "log",   "backend", "on_nan", NULL};
static const char *const plot_params[] = {"model", "data", NULL};
static const char *const heatmap_params[] = {"t", "title", NULL};
static const char *const line_chart_params[] = {"x", "series", "title", "x_title", "y_title", NULL};
static const char *const clear_params[] = {"wait", NULL};
static const char *const sleep_params[] = {"seconds", NULL};
static const char *const input_params[] = {"prompt", "password", NULL};
static const char *const sum_params[] = {"iterable", "start", NULL};
static const char *const round_params[] = {"number", "ndigits", NULL};
static const char *const tensor_params[] = {"data", "requires_grad", "backend", NULL};
static const char *const create_params[] = {"requires_grad", "backend", NULL}; /* keyword-only */
static const char *const seed_params[] = {"n", NULL};
static const char *const printoptions_params[] = {
    "precision", "threshold", "edgeitems", "linewidth", "profile", "sci_mode", NULL};
/* What map, zip and reduce say about the functions they take (compile.c has the rules). */
#define USER_FN_DOC                                                                                \
    "A user function runs as one compiled pass over the tensor (MiniTorch's tensor_map, "          \
    "tensor_zip and tensor_reduce; Numba's njit there): it may use numbers, its parameters "       \
    "and locals, arithmetic, comparisons, and/or/not, if/else, return, for over a range() "        \
    "of constants, abs, min, max, exp, log, sqrt, sigmoid, tanh, relu and other user "             \
    "functions; anything else is a CompileError at its line. Forward only: backward through "      \
    "the result is an error."

static const char *const map_params[] = {"fn", "t", "out", NULL};
static const char *const zip_params[] = {"fn", "a", "b", NULL};
static const char *const reduce_params[] = {"fn", "t", "dim", "start", NULL};
static const char *const enumerate_params[] = {"iterable", "start", NULL};
static const char *const diag_params[] = {"fn", "source", NULL};
static const char *const check_params[] = {"task", "part", "seed", NULL};
static const char *const sorted_params[] = {"key", "reverse", NULL};
static const char *const min_max_params[] = {"key", "default", NULL};

/* MiniTorch's tensor forms of map, zip and reduce; the rows the language calls are Python's
 * too, and lib/iterables.c tells the two apart (dsl_iter_dispatch). */
static const struct dsl_builtin tensor_map = {.name = "map",
                                              .signature = "map(fn, t, out=none)",
                                              .min_args = 2,
                                              .max_args = 3,
                                              .params = map_params,
                                              .fn = dsl_bi_map,
                                              .doc = ""};
static const struct dsl_builtin tensor_zip = {.name = "zip",
                                              .signature = "zip(fn, a, b)",
                                              .min_args = 3,
                                              .max_args = 3,
                                              .params = zip_params,
                                              .fn = dsl_bi_zip,
                                              .doc = ""};
static const struct dsl_builtin tensor_reduce = {.name = "reduce",
                                                 .signature = "reduce(fn, t, dim, start=0.0)",
                                                 .min_args = 3,
                                                 .max_args = 4,
                                                 .params = reduce_params,
                                                 .fn = dsl_bi_reduce,
                                                 .doc = ""};

static int bi_map(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return dsl_iter_dispatch(in, a, &tensor_map, dsl_py_map, ret);
}

static int bi_zip(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return dsl_iter_dispatch(in, a, &tensor_zip, dsl_py_zip, ret);
}

bool dsl_builtin_is_zip(const struct dsl_builtin *fn) { return fn->fn == bi_zip; }

static int bi_reduce(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return dsl_iter_dispatch(in, a, &tensor_reduce, dsl_py_reduce, ret);
}

/* How help() tells the two forms of map, zip and reduce apart. */
#define DISPATCH_DOC                                                                               \
    " The tensor form is taken when an argument after the function is a tensor or a keyword "      \
    "(t=, out=, dim=, start=) is given; otherwise Python's form, over lists, tuples, strings, "    \
    "ranges and dicts, which returns a list."
static const char *const x_params[] = {"x", NULL};
static const char *const cuda_source_params[] = {"fn", "kind", NULL};

const struct dsl_builtin dsl_builtins[] = {
    {"abs", "abs(x)", 1, 1, NULL, bi_abs, "The absolute value of a number."},
    {"all", "all(iterable)", 1, 1, NULL, dsl_bi_all,
     "Whether every item of the iterable is true (true for an empty one); stops at the first "
     "false item."},
    {"any", "any(iterable)", 1, 1, NULL, dsl_bi_any,
     "Whether some item of the iterable is true (false for an empty one); stops at the first "
     "true item."},
    {"bool", "bool(x=false)", 0, 1, NULL, bi_bool,
     "true when x is truthy: non-zero numbers, non-empty strings, lists and ranges."},
    {"classmethod", "classmethod(fn)", 1, 1, NULL, dsl_bi_classmethod,
     "Marks a function in a class body as a class method: its first parameter (cls) is the "
     "class it was called through, or the instance's class; MiniTorch's Function.apply is one. "
     "Usually written @classmethod above the def."},
    {"clear_output", "clear_output(wait=false)", 0, 1, clear_params, bi_clear_output,
     "Clears the output of the running cell. With wait=true the old output stays until new "
     "output arrives, which avoids flicker in animations."},
    {"callable", "callable(obj)", 0, -1, NULL, bi_callable,
     "Whether obj can be called: a function, a builtin, a class, a bound method, or an "
     "instance whose class defines __call__."},
    {"chr", "chr(i)", 0, -1, NULL, bi_chr,
     "The string of the one character whose code point is the int i (chr(65) is \"A\")."},
    {"check", "check(task, part=none, seed=none)", 1, 3, check_params, dsl_bi_check,
     "MiniTorch's tests of a task, run on your backend (TensorBackend(YourOps)): check(\"3.1\") "
     "tests map, zip and reduce (every function of the course's MathTest, forward and "
     "gradients, permuted and broadcast inputs, sums and means), check(\"3.2\") matrix "
     "multiply (mm and bmm with a broadcast batch); check(\"3.3\") the same tests as 3.1 on "
     "your CudaOps backend and your jit_sum_practice kernel launched as the course does, "
     "check(\"3.4\") your jit_mm_practice and matrix multiply on CudaOps. Expected values come "
     "from the simple backend. check(\"0.1\") to check(\"2.5\") test your own files of Modules "
     "0 to 2, and check(\"4.1\") to check(\"4.4\") your Module 4 (the _tensor_conv1d and "
     "_tensor_conv2d kernels, and nn.py's functions, from your files or your notebook's cells) "
     "against values check computes itself. Prints a table of the tests and, for each failure, the "
     "smallest input that "
     "fails with the expected and the got values; raises AssertionError when any failed. "
     "check(task, part) runs one function's tests alone, forward only, so that a bug in "
     "another function cannot fail them: \"map\", \"zip\" and \"reduce\" for 3.1 and 3.3, "
     "\"sum_practice\" for 3.3, \"matrix_multiply\" for 3.2 and 3.4, \"mm_practice\" for "
     "3.4. Inputs are drawn afresh at every check; the report gives the seed, which "
     "check(..., seed=N) draws them from again. A check grades your code: ops your class "
     "inherits from the kernel's own, or that run the kernel's own backends, fail it, and "
     "the name check cannot be given another value."},
    {"compare", "compare(stmt, backends=[\"simple\", \"fast\", \"cuda\"])", 1, 2, compare_params,
     dsl_bi_compare,
     "Runs the statement stmt (a string: statements, the last expression is the result) on "
     "each backend: the variables it uses get private copies there (tensors with their own "
     "storage) and new tensors are made there; afterwards every variable is as it was, after "
     "an error or an interrupt too. Shows a table (time per run: the median of up to 5 timed "
     "batches, about a second per backend; speed-up against the first backend; whether the "
     "result agrees with the first backend's: all-close, |x - ref| <= 1e-5 + 1e-4 |ref|) and "
     "a bar chart (%plot_renderer chooses its format). A backend that cannot run here is "
     "listed with the reason. Returns none."},
    {"cuda_available", "cuda_available()", 0, 0, NULL, bi_cuda_available,
     "Whether the cuda backend can run here (PyTorch's torch.cuda.is_available()): true with "
     "a usable GPU; false without one, and then %backend cuda says why. Asking starts CUDA "
     "(once per kernel)."},
    {"cuda_source", "cuda_source(fn, kind=\"map\")", 1, 2, cuda_source_params, dsl_bi_cuda_source,
     "The CUDA C kernel that map (or kind \"zip\", \"reduce\") compiles for fn on the cuda "
     "backend, as a string: the function's operations in order, one thread per element (per "
     "output for reduce). Works without a GPU: print(cuda_source(f)) shows what f becomes."},
    {"dataset", "dataset(name, n=50, seed=none)", 1, 3, dataset_params, dsl_bi_dataset,
     "One of MiniTorch's classification sets: \"simple\" (class 1 iff x1 < 0.5), \"diag\" "
     "(x1 + x2 < 0.5), \"split\" (x1 < 0.2 or x1 > 0.8), \"xor\", \"circle\" (outside "
     "(x1-0.5)^2 + (x2-0.5)^2 = 0.1) or \"spiral\" (two arms, 2*(n//2) points), with n points "
     "uniform in [0, 1)^2 drawn from the session's random generator exactly as MiniTorch's "
     "datasets.py draws them; seed=s seeds the generator first, as random.seed(s). Returns a "
     "dataset: ds.X (n, 2), ds.y (n,) of 0.0/1.0, ds.n, ds.name; displayed, a scatter plot."},
    {"dict", "dict(iterable=(), **kwargs)", 0, 1, dsl_any_keywords, dsl_bi_dict,
     "A new dict: empty; with the pairs of a dict or of an iterable of (key, value) pairs; "
     "and with the keyword arguments as string keys (dict(a=1) is {'a': 1})."},
    {"delattr", "delattr(obj, name)", 2, 2, NULL, dsl_bi_delattr,
     "Deletes obj's attribute called name (a string): delattr(m, \"w\") is del m.w."},
    {"dir", "dir(obj=...)", 0, -1, NULL, bi_dir,
     "The sorted names of obj's attributes (methods included; CPython's special methods, which "
     "the operators and builtins stand for, are not listed); without obj, the names of the "
     "variables in scope."},
    {"divmod", "divmod(a, b)", 0, -1, NULL, bi_divmod, "The tuple (a // b, a % b) of two numbers."},
    {"display", "display(value, display_id=none)", 1, 2, display_params, bi_display,
     "Shows value in the cell's output now, as a rich output. Give display_id=\"name\" to "
     "replace it later with update_display(new_value, display_id=\"name\")."},
    {"enumerate", "enumerate(iterable, start=0)", 1, 2, enumerate_params, dsl_bi_enumerate,
     "The list of tuples (start, x0), (start + 1, x1), ... of the iterable's items: "
     "for i, x in enumerate(xs). (Python's is a lazy iterator; list() of it is the same.)"},
    {"exp", "exp(x)", 1, 1, x_params, dsl_bi_exp,
     "e to the x: a float for a number, the (differentiable) tensor op for a tensor."},
    {"filter", "filter(fn, iterable)", 0, -1, NULL, dsl_bi_filter,
     "The list of the items x of the iterable for which fn(x) is true (with fn none: the true "
     "items)."},
    {"float", "float(x=0)", 0, 1, NULL, bi_float,
     "Converts a number or a string (\"1.5\", \"inf\", \"nan\") to a float."},
    {"format", "format(value, format_spec=\"\")", 1, 2, NULL, dsl_bi_format,
     "value formatted by a format spec, as in an f-string's {value:spec}: \".3f\", \">8\", "
     "\"5d\", \",\", \"e\", \"%\", \"#x\"... (Python's format specification mini-language)."},
    {"frozenset", "frozenset(iterable=())", 0, -1, dsl_any_keywords, dsl_bi_frozenset,
     "A new frozenset: a set that never changes and is hashable (an item of a set, a dict's "
     "key), of the distinct items of the iterable; frozenset() is empty."},
    {"hash", "hash(obj)", 0, -1, NULL, bi_hash,
     "The hash of obj, as dict keys use it: CPython's for numbers (hash(1.0) == hash(1)) and "
     "tuples of them, a stable one for strings; a list or dict is unhashable (TypeError)."},
    {"heatmap", "heatmap(t, title=none)", 1, 2, heatmap_params, dsl_bi_heatmap,
     "Draws a 1-D or 2-D tensor (at most 10,000 entries) as a heat map: a cell per entry, row 0 "
     "at the top, shaded from white (the smallest value) to blue (the largest), the values "
     "written in when there are at most 64. A chart like plot's (%plot_renderer chooses its "
     "format). Returns none."},
    {"getattr", "getattr(obj, name, default)", 2, 3, NULL, dsl_bi_getattr,
     "obj's attribute called name (a string): getattr(m, \"weights\") is m.weights; with a "
     "default, that instead of an AttributeError."},
    {"hasattr", "hasattr(obj, name)", 2, 2, NULL, dsl_bi_hasattr,
     "Whether obj has an attribute called name (a string)."},
    {"help", "help(x)", 0, 1, NULL, bi_help,
     "Shows the documentation of a builtin (help(print)) or of a value's type; without an "
     "argument lists every builtin."},
    {"id", "id(obj)", 0, -1, NULL, bi_id,
     "An int identifying obj among the values alive now: x is y exactly when id(x) == id(y)."},
    {"input", "input(prompt=\"\", password=false)", 0, 2, input_params, bi_input,
     "Asks the user to type one line in the frontend and returns it as a string (without the "
     "newline). password=true hides what is typed. Raises StdinNotImplementedError when the "
     "frontend cannot answer input requests."},
    {"int", "int(x=0)", 0, 1, NULL, bi_int,
     "Converts a number (truncating toward zero) or a decimal string to a 64-bit integer."},
    {"isinstance", "isinstance(obj, cls)", 2, 2, NULL, dsl_bi_isinstance,
     "Whether obj is an instance of class cls or of a class derived from it; cls may be a "
     "tuple of classes: isinstance(x, (int, float))."},
    {"issubclass", "issubclass(cls, base)", 2, 2, NULL, dsl_bi_issubclass,
     "Whether class cls is base or derives from it; base may be a tuple of classes."},
    {"iter", "iter(iterable)", 1, 1, NULL, dsl_bi_iter,
     "An iterator over the iterable: next(it) gives its items one at a time (an object's own "
     "__iter__ when its class has one)."},
    {"len", "len(x)", 1, 1, NULL, bi_len,
     "The number of items of a list or range, of characters of a string, or the size of a "
     "tensor's first dimension (as PyTorch: len(zeros(3, 4)) is 3)."},
    {"line_chart", "line_chart(x, series, title=none, x_title=\"x\", y_title=none)", 2, 5,
     line_chart_params, dsl_bi_line_chart,
     "Draws lines of numbers: x a list of 1 to 2,000 numbers, series a dict of 1 to 8 lines, each "
     "a name and a list of as many y values ({\"relu\": [relu(v) for v in x]}), in a legend "
     "when there are several. A chart like compare's (%plot_renderer chooses its format). "
     "Returns none."},
    {"linear", "linear(in_size, out_size)", 2, 2, linear_params, dsl_bi_linear,
     "MiniTorch's Linear layer as a model: model(x) is x @ weight + bias for x (batch, "
     "in_size), with weight (in_size, out_size) drawn uniform in [-0.5, 0.5) from the session's "
     "generator and bias 0.1; both require grad."},
    {"list", "list(iterable=[])", 0, 1, NULL, bi_list,
     "A list of the items of a list, range or string: list(range(3)) is [0, 1, 2]."},
    {"log", "log(x)", 1, 1, x_params, dsl_bi_log,
     "The natural logarithm: a float for a number (log(0) is -inf, of a negative number nan, "
     "as on tensors), the tensor op for a tensor."},
    {"map", "map(fn, t, out=none) or map(fn, *iterables)", 0, -1, map_params, bi_map,
     "fn applied to every element of tensor t: a new tensor of t's shape, or written into out "
     "(t must broadcast to its shape). fn is a function of one number, def'd or a builtin "
     "such as exp. " USER_FN_DOC " Python's map(fn, xs, ys...) calls fn on the items side by "
     "side and returns the list of results." DISPATCH_DOC},
    {"max", "max(iterable, *, key=none, default=...) or max(a, b, *args, key=none)", 0, -1,
     min_max_params, dsl_bi_max,
     "The largest of several values, or of the items of one iterable (default when it is "
     "empty); key=fn compares fn(item) instead. The first of equal items wins."},
    {"min", "min(iterable, *, key=none, default=...) or min(a, b, *args, key=none)", 0, -1,
     min_max_params, dsl_bi_min,
     "The smallest of several values, or of the items of one iterable (default when it is "
     "empty); key=fn compares fn(item) instead. The first of equal items wins."},
    {"mlp", "mlp(in_size, hidden, out_size)", 3, 3, mlp_params, dsl_bi_mlp,
     "MiniTorch's network of Task 3.5: Linear(in_size, hidden) -> ReLU -> Linear(hidden, "
     "hidden) -> ReLU -> Linear(hidden, out_size) -> sigmoid, weights drawn layer by layer as "
     "MiniTorch draws them. model(x) runs it; model.parameters() lists its weights and biases."},
    {"next", "next(iterator, default)", 1, 2, NULL, dsl_bi_next,
     "The iterator's next item (its __next__); at the end default when given, else "
     "StopIteration."},
    {"ones", "ones(*shape, requires_grad=false, backend=none)", 1, -1, create_params, dsl_bi_ones,
     "A tensor of the given shape filled with 1.0: ones(2, 3) or ones([2, 3]). backend is "
     "\"simple\", \"fast\" or \"cuda\" (default: the one %backend chose)."},
    {"ord", "ord(c)", 0, -1, NULL, bi_ord,
     "The code point of the one-character string c (ord(\"A\") is 65)."},
    {"parallel_diagnostics", "parallel_diagnostics(fn=None, source=false)", 0, 2, diag_params,
     dsl_bi_parallel_diagnostics,
     "How a function given to numba's njit runs, for each kind of arguments it was called "
     "with: compiled to native code (which prange loop runs in parallel and how it is split, "
     "the variables each iteration has to itself, the functions compiled in and inlined, the "
     "instructions per element of its loops, the last call's time and rate against the "
     "machine's memory bandwidth and, when the student backend made the call, the built-in "
     "fast op's time on the same shapes) or in the interpreter, and why. Without fn: the "
     "functions whose compiled code this cell ran, the latest first (those the student "
     "backend called too). source=true also prints the C it was compiled from."},
    {"plot", "plot(model, data)", 2, 2, plot_params, dsl_bi_plot,
     "Draws the model's decision boundary (its probability of class 1 over the unit square, "
     "shaded from #69bac9 for 0 to #ea8484 for 1) under the points of the dataset."},
    {"pow", "pow(base, exp, mod=None)", 0, -1, dsl_any_keywords, bi_pow,
     "base ** exp; with mod, base ** exp % mod computed without the power, for ints (a "
     "negative exp uses the inverse of base modulo mod)."},
    {"print", "print(*args, sep=\" \", end=\"\\n\")", 0, -1, print_params, bi_print,
     "Writes the values to the cell's standard output, separated by sep and followed by end. "
     "Strings appear without quotes."},
    {"rand", "rand(*shape, requires_grad=false, backend=none)", 1, -1, create_params, dsl_bi_rand,
     "A tensor of the given shape filled with uniform numbers in [0, 1), drawn in row-major "
     "order from the session's generator, which seed(n) seeds exactly as Python's "
     "random.seed(n): seed(3); rand(4) gives MiniTorch's numbers."},
    {"property", "property(fget=None, fset=None, fdel=None)", 0, 3, property_params,
     dsl_bi_property,
     "A computed attribute: reading obj.name calls fget(obj), assigning obj.name = v calls "
     "fset(obj, v), del obj.name calls fdel(obj). Usually written @property above the getter's "
     "def, @name.setter above the setter's and @name.deleter above the deleter's."},
    {"range", "range(stop) or range(start, stop, step=1)", 1, 3, NULL, bi_range,
     "The integers from start (default 0) up to, not including, stop, counting by step; used "
     "in `for i in range(n):` loops and convertible with list()."},
    {"reduce", "reduce(fn, t, dim, start=0.0) or reduce(fn, iterable[, initial])", 0, -1,
     reduce_params, bi_reduce,
     "Folds dim of tensor t with fn: acc = start, then acc = fn(acc, x) for each element x "
     "along the dim in order; the dim is kept with size 1. fn is a function of two numbers "
     "(max works too). " USER_FN_DOC " Python's reduce (functools.reduce) folds the items of "
     "an iterable from the left: fn(fn(initial, x0), x1)..." DISPATCH_DOC},
    {"relu", "relu(x)", 1, 1, x_params, dsl_bi_relu,
     "max(x, 0): a float for a number, the tensor op for a tensor."},
    {"repr", "repr(x)", 1, 1, NULL, bi_repr,
     "The text a cell shows for x, as a string: strings quoted, floats with round-trip "
     "digits."},
    {"reversed", "reversed(seq)", 0, -1, NULL, dsl_bi_reversed,
     "The list of the items of a list, tuple, string, range or dict (its keys) in reverse "
     "order. (Python's is a lazy iterator; list() of it is the same.)"},
    {"round", "round(number, ndigits=none)", 1, 2, round_params, bi_round,
     "Rounds half to even: to an int without ndigits, else to ndigits decimals."},
    {"seed", "seed(n)", 1, 1, seed_params, dsl_bi_seed,
     "Seeds the random generator rand() draws from, as Python's random.seed(n) does (MT19937), "
     "so that results repeat."},
    {"set", "set(iterable=())", 0, -1, dsl_any_keywords, dsl_bi_set,
     "A new set of the distinct items of the iterable (hashable values); set() is empty, as "
     "{} is a dict."},
    {"set_printoptions",
     "set_printoptions(precision=none, threshold=none, edgeitems=none, linewidth=none, "
     "profile=none, sci_mode=none)",
     0, 6, printoptions_params, bi_set_printoptions,
     "How tensors are shown, as torch.set_printoptions: precision decimals (4); more than "
     "threshold elements (1000) summarised to the first and last edgeitems entries (3) of each "
     "dim around ...; text rows wrapped at linewidth columns (80); sci_mode true or false forces "
     "scientific notation on or off (none: chosen per tensor). profile=\"full\" shows every "
     "element (threshold=inf), \"short\" 2 decimals and 2 edge items, \"default\" restores "
     "the defaults. Returns none."},
    {"setattr", "setattr(obj, name, value)", 3, 3, NULL, dsl_bi_setattr,
     "Sets obj's attribute called name (a string): setattr(m, \"w\", v) is m.w = v."},
    {"sgd", "sgd(params, rate=1.0)", 1, 2, sgd_params, dsl_bi_sgd,
     "MiniTorch's SGD optimizer over a list of tensors that require grad (model.parameters()): "
     "opt.zero_grad() clears their gradients, opt.step() sets p = p - rate * p.grad in place."},
    {"sigmoid", "sigmoid(x)", 1, 1, x_params, dsl_bi_sigmoid,
     "1 / (1 + exp(-x)): a float for a number, the tensor op for a tensor."},
    {"sleep", "sleep(seconds)", 1, 1, sleep_params, bi_sleep,
     "Waits for the given number of seconds (a float is fine). An interrupt stops the wait "
     "with KeyboardInterrupt."},
    {"sorted", "sorted(iterable, *, key=none, reverse=false)", 0, -1, sorted_params, dsl_bi_sorted,
     "A new list of the iterable's items in ascending order (descending with reverse=true), "
     "compared with <, or by key(item) with key=fn; equal items keep their order (stable)."},
    {"sqrt", "sqrt(x)", 1, 1, x_params, dsl_bi_sqrt,
     "The square root: a float for a number (nan below 0, as on tensors), the tensor op for a "
     "tensor."},
    {"staticmethod", "staticmethod(fn)", 1, 1, NULL, dsl_bi_staticmethod,
     "Marks a function in a class body as a static method: called through the class or an "
     "instance without self. Usually written @staticmethod above the def."},
    {"str", "str(x=\"\")", 0, 1, NULL, bi_str, "The text print shows for x, as a string."},
    {"sum", "sum(iterable, start=0)", 1, 2, sum_params, bi_sum,
     "The sum of start and the items of a list or range."},
    {"tanh", "tanh(x)", 1, 1, x_params, dsl_bi_tanh,
     "The hyperbolic tangent: a float for a number, the tensor op for a tensor."},
    {"super", "super(cls=..., obj=...)", 0, 2, NULL, dsl_bi_super,
     "Inside a method: the classes after this method's class, bound to self, so that "
     "super().__init__() runs the base class's __init__ on self."},
    {"tensor", "tensor(data, requires_grad=false, backend=none)", 1, 1, tensor_params,
     dsl_bi_tensor,
     "A float32 tensor holding a number or a nested list of numbers: tensor([[1, 2], [3, 4]]) "
     "has shape (2, 2). The lists must be rectangular. requires_grad=true makes backward() "
     "compute its gradient into .grad; backend is \"simple\", \"fast\" or \"cuda\"."},
    {"timing",
     "timing(op=\"matmul\", sizes=[64, 128, 256, 512, 1024], backends=[\"fast\", "
     "\"cuda\"])",
     0, 3, timing_params, dsl_bi_timing,
     "MiniTorch's timing.py: for each size n, the mean of 3 runs of x = rand(2, n, n), "
     "y = rand(2, n, n) and the op (\"matmul\": x @ y, as the course; \"add\", \"mul\", "
     "\"sum\": x.sum(2)), the draws included, after a warm-up at n = 16, on each backend. "
     "Shows a table and a log-log line chart (%plot_renderer chooses its format). Every size "
     "runs: on the simple backend n = 1024 takes tens of seconds, and each doubling of n "
     "eight times longer; an interrupt stops it at once. A backend that cannot run here is "
     "listed as unavailable. Returns none."},
    {"train",
     "train(model, data, rate=0.05, epochs=500, batch=10, log=10, backend=none, "
     "on_nan=\"stop\")",
     2, 8, train_params, dsl_bi_train,
     "MiniTorch's training loop (Task 3.5) in the engine: every epoch shuffles the points, "
     "then for each batch computes out = model(x), the batch-mean binary cross-entropy of "
     "prob = out*y + (out-1)*(y-1), backward and an SGD step. Prints a log line every `log` "
     "epochs (epoch, loss summed over the epoch, correct, time per epoch), shows live progress, "
     "and ends with a summary, the decision boundary and the loss curve. backend (default: the "
     "model's) is where the steps run; the model keeps its training either way. An interrupt "
     "stops after the current batch. An epoch whose loss is nan or inf (steps too large) is "
     "reported with the epoch, the loss before it and a smaller rate to try; on_nan=\"stop\" "
     "then ends the run with the parameters as they were before that epoch, \"continue\" "
     "trains on. The same loop written by hand gives the same numbers."},
    {"tuple", "tuple(iterable=())", 0, 1, NULL, bi_tuple,
     "A tuple of the items of a list, tuple, range or string: tuple([1, 2]) is (1, 2). "
     "Tuples are lists that cannot change, written (a, b), (a,) or ()."},
    {"type", "type(x)", 1, 1, NULL, dsl_bi_type,
     "The class of x: type(1) is int, type(x).__name__ its name, type(m) the class m was made "
     "from. The built-in types (int, float, str, bool, list, tuple, dict, set, frozenset, "
     "range, NoneType, function, tensor) are classes too."},
    {"update_display", "update_display(value, display_id)", 1, 2, display_params, bi_update_display,
     "Replaces the output shown earlier by display(..., display_id=ID) with value; "
     "display_id is required."},
    {"vars", "vars(obj)", 1, 1, NULL, dsl_bi_vars,
     "An instance's __dict__: its attributes as a dict that reads and writes them."},
    {"warn", "warn(*args)", 0, -1, NULL, bi_warn,
     "Writes the values, separated by spaces, to the cell's standard error (shown highlighted "
     "in most frontends)."},
    {"zeros", "zeros(*shape, requires_grad=false, backend=none)", 1, -1, create_params,
     dsl_bi_zeros,
     "A tensor of the given shape filled with 0.0: zeros(2, 3) or zeros([2, 3]). backend is "
     "\"simple\", \"fast\" or \"cuda\" (default: the one %backend chose)."},
    {"zip", "zip(fn, a, b) or zip(*iterables)", 0, -1, zip_params, bi_zip,
     "fn applied to the elements of a and b side by side, broadcasting them together (a "
     "number counts as a one-element tensor): a new tensor. fn is a function of two "
     "numbers. " USER_FN_DOC " Python's zip(xs, ys...) gives the list of tuples of their "
     "items side by side, as long as the shortest; zip(*pairs) unzips." DISPATCH_DOC},
};
const size_t dsl_builtin_count = sizeof dsl_builtins / sizeof dsl_builtins[0];

/* Test hooks: student code that kills the kernel process or never answers an interrupt, on
 * demand, so that the grader's handling of both (tools/mt_grading.py) is tested whatever bugs
 * the kernel has or has not. They exist only when the environment says MT_TEST_HOOKS=1 (the
 * grading test sets it for the kernels nbgrader starts); otherwise their names are unknown like
 * any other, and neither help() nor completion lists them. */
#define TEST_HOOK_PREFIX "_mt_test_"

/* Dies of SIGSEGV, as a fault in native code would: the signal's default action (a handler,
 * ASan's say, could turn it into an exit), unblocked, and no core file. */
static int bi_test_crash(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)in, (void)a, (void)ret;
    fflush(NULL);
    setrlimit(RLIMIT_CORE, &(struct rlimit){0, 0});
    signal(SIGSEGV, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGSEGV);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    raise(SIGSEGV);
    abort(); /* not reached */
}

/* Never returns and never looks at the cancel flag, as native code stuck in a loop or a
 * wait: only killing the process ends it. */
static int bi_test_hang(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)a, (void)ret;
    if (in->out->flush) in->out->flush(in->out->ctx); /* what the cell printed shows */
    /* woken by a signal, it waits again; the return is never reached, but gcc asks for it in a
     * static function */
    for (;;) pause();
    return 0;
}

static const struct dsl_builtin test_hooks[] = {
    {TEST_HOOK_PREFIX "crash", TEST_HOOK_PREFIX "crash()", 0, 0, NULL, bi_test_crash,
     "Test hook: the kernel dies of SIGSEGV."},
    {TEST_HOOK_PREFIX "hang", TEST_HOOK_PREFIX "hang()", 0, 0, NULL, bi_test_hang,
     "Test hook: never returns, deaf to interrupts."},
};

static bool test_hooks_on(void)
{
    const char *on = getenv("MT_TEST_HOOKS");
    return on && strcmp(on, "1") == 0;
}

bool dsl_builtin_protected(const char *name) { return strcmp(name, "check") == 0; }

/* An index of the table by name, made once: every global name a program reads that no
 * variable has (len, range, isinstance) is looked up here. */
#define BUILTIN_SLOTS 1024
static unsigned short builtin_slots[BUILTIN_SLOTS]; /* a row's position + 1; 0: empty */
static pthread_once_t builtin_slots_once = PTHREAD_ONCE_INIT;

static size_t builtin_hash(const char *name)
{
    uint64_t x = 1469598103934665603ULL; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        x = (x ^ *p) * 1099511628211ULL;
    return (size_t)(x ^ (x >> 29)) & (BUILTIN_SLOTS - 1);
}

static void index_builtins(void)
{
    _Static_assert(BUILTIN_SLOTS < 65536, "positions fit the slots");
    for (size_t i = 0; i < dsl_builtin_count && 2 * i < BUILTIN_SLOTS; i++) {
        size_t k = builtin_hash(dsl_builtins[i].name);
        while (builtin_slots[k]) k = (k + 1) & (BUILTIN_SLOTS - 1);
        builtin_slots[k] = (unsigned short)(i + 1);
    }
}

const struct dsl_builtin *dsl_builtin_find(const char *name)
{
    pthread_once(&builtin_slots_once, index_builtins);
    if (2 * dsl_builtin_count < BUILTIN_SLOTS) {
        for (size_t k = builtin_hash(name); builtin_slots[k]; k = (k + 1) & (BUILTIN_SLOTS - 1))
            if (strcmp(dsl_builtins[builtin_slots[k] - 1].name, name) == 0)
                return &dsl_builtins[builtin_slots[k] - 1];
    } else {
        for (size_t i = 0; i < dsl_builtin_count; i++)
            if (strcmp(dsl_builtins[i].name, name) == 0) return &dsl_builtins[i];
    }
    if (strncmp(name, TEST_HOOK_PREFIX, strlen(TEST_HOOK_PREFIX)) == 0 && test_hooks_on())
        for (size_t i = 0; i < sizeof test_hooks / sizeof *test_hooks; i++)
            if (strcmp(test_hooks[i].name, name) == 0) return &test_hooks[i];
    return NULL;
}
