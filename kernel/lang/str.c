/* str.c — the methods of strings: "{} {}".format(a, b) (see operators.h).
 *
 * str.format reads its template as CPython does: {} numbers the fields automatically, {0}
 * picks a positional argument and {name} a keyword one (mixing the two numberings is an
 * error), !r / !s / !a convert, and the spec after ':' may itself hold fields ("{:{w}}"), one
 * level deep; {{ and }} are braces. Field names with attributes or indices ({0.x}, {0[1]}) are
 * not supported: an f-string does the same. */
#include "lang/str.h"

#include "lang/operators.h"

#include <stdlib.h>
#include <string.h>

struct fmt_args {
    const struct dsl_args *a;
    int64_t next; /* the next automatic field number; -1 once a number was given */
};

/* The argument a field name (fname[0..n)) picks, borrowed. 0 or -1. */
static int field_value(struct dsl_interp *in, struct fmt_args *fa, const char *fname, size_t n,
                       struct dsl_value *out)
{
    const struct dsl_args *a = fa->a;
    if (n == 0) {
        if (fa->next < 0)
            return dsl_raise(in, "ValueError",
                             "cannot switch from manual field specification to "
                             "automatic field numbering");
        int64_t k = fa->next++;
        if ((size_t)k >= a->nrest)
            return dsl_raise(in, "IndexError",
                             "Replacement index %lld out of range for positional args tuple",
                             (long long)k);
        *out = a->rest[k];
        return 0;
    }
    if (memchr(fname, '.', n) || memchr(fname, '[', n))
        return dsl_raise(in, "NotImplementedError",
                         "attribute and index lookups in str.format fields ({0.x}, {0[1]}) are "
                         "not supported in the MiniTorch language: use an f-string");
    if (fname[0] >= '0' && fname[0] <= '9') {
        if (fa->next > 0)
            return dsl_raise(in, "ValueError",
                             "cannot switch from automatic field numbering to "
                             "manual field specification");
        fa->next = -1;
        int64_t k = 0;
        for (size_t i = 0; i < n; i++) {
            if (fname[i] < '0' || fname[i] > '9' || k > 100000000) goto by_name;
            k = k * 10 + (fname[i] - '0');
        }
        if ((size_t)k >= a->nrest)
            return dsl_raise(in, "IndexError",
                             "Replacement index %lld out of range for positional args tuple",
                             (long long)k);
        *out = a->rest[k];
        return 0;
    }
by_name:
    for (size_t i = 0; i < a->nkw; i++)
        if (strlen(a->kwnames[i]) == n && memcmp(a->kwnames[i], fname, n) == 0) {
            *out = a->kwvals[i];
            return 0;
        }
    return dsl_raise(in, "KeyError", "'%.*s'", (int)n, fname);
}

/* Appends template t[0..n) with its fields replaced; depth: specs being formatted around it. */
static int format_template(struct dsl_interp *in, struct render_buf *b, const char *t, size_t n,
                           struct fmt_args *fa, int depth)
{
    if (depth > 1) return dsl_raise(in, "ValueError", "Max string recursion exceeded");
    for (size_t i = 0; i < n;) {
        char c = t[i];
        if ((c == '{' || c == '}') && i + 1 < n && t[i + 1] == c) {
            render_buf_putc(b, c);
            i += 2;
            continue;
        }
        if (c == '}') return dsl_raise(in, "ValueError", "Single '}' encountered in format string");
        if (c != '{') {
            render_buf_putc(b, c);
            i++;
            continue;
        }
        if (i + 1 == n)
            return dsl_raise(in, "ValueError", "Single '{' encountered in format string");
        /* the field runs to the '}' that balances its '{' (a spec may hold fields) */
        size_t start = ++i, level = 1;
        while (i < n && level) {
            if (t[i] == '{') level++;
            if (t[i] == '}') level--;
            i++;
        }
        if (level) return dsl_raise(in, "ValueError", "expected '}' before end of string");
        const char *f = t + start;
        size_t flen = i - 1 - start, name_len = 0;
        while (name_len < flen && f[name_len] != '!' && f[name_len] != ':') name_len++;
        char conv = 0;
        size_t at = name_len;
        if (at < flen && f[at] == '!') {
            if (at + 1 >= flen || (at + 2 < flen && f[at + 2] != ':'))
                return dsl_raise(in, "ValueError", "expected ':' after conversion specifier");
            conv = f[at + 1];
            if (conv != 'r' && conv != 's' && conv != 'a')
                return dsl_raise(in, "ValueError", "Unknown conversion specifier %c", conv);
            at += 2;
        }
        struct dsl_value v;
        if (field_value(in, fa, f, name_len, &v) != 0) return -1;
        struct render_buf spec;
        render_buf_init(&spec, DSL_MAX_STR_BYTES);
        int r =
            at < flen ? format_template(in, &spec, f + at + 1, flen - at - 1, fa, depth + 1) : 0;
        struct dsl_value text = dsl_none();
        if (r == 0 && conv) {
            struct render_buf cb;
            render_buf_init(&cb, DSL_MAX_STR_BYTES);
            int st = conv == 's' ? dsl_value_str(&cb, v) : dsl_value_repr(&cb, v);
            if (st == DSL_V_OK) st = dsl_str_value(render_buf_str(&cb), cb.len, &text);
            render_buf_free(&cb);
            if (st != DSL_V_OK) r = dsl_raise_status(in, st);
            v = text;
        }
        if (r == 0) r = dsl_format(in, b, v, render_buf_str(&spec), spec.len);
        dsl_value_release(text);
        render_buf_free(&spec);
        if (r != 0) return -1;
    }
    return 0;
}

static int m_format(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct fmt_args fa = {a, 0};
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_STR_BYTES);
    int r = format_template(in, &b, a->self.as.s->data, a->self.as.s->len, &fa, 0);
    if (r == 0 && (b.over || b.nomem))
        r = b.over ? dsl_raise_size(in, "string", (uint64_t)b.len + 1)
                   : dsl_raise_status(in, DSL_V_NOMEM);
    if (r == 0 && dsl_str_value(render_buf_str(&b), b.len, ret) != DSL_V_OK)
        r = dsl_raise_status(in, DSL_V_NOMEM);
    render_buf_free(&b);
    return r;
}

const struct dsl_builtin dsl_str_methods[] = {
    {"format", "s.format(*args, **kwargs)", 0, -1, dsl_any_keywords, m_format,
     "s with its replacement fields filled: {} takes the next positional argument, {0} the "
     "first, {name} the keyword argument name; !r / !s convert and :spec formats, as in an "
     "f-string ({:.3f}, {:>8}); {{ and }} are braces."},
};
const size_t dsl_str_method_count = sizeof dsl_str_methods / sizeof dsl_str_methods[0];

int dsl_str_getattr(struct dsl_interp *in, struct dsl_value v, const char *name,
                    struct dsl_value *out)
{
    for (size_t i = 0; i < dsl_str_method_count; i++)
        if (strcmp(dsl_str_methods[i].name, name) == 0) {
            int st = dsl_method_value(&dsl_str_methods[i], v, out);
            return st ? dsl_raise_status(in, st) : 0;
        }
    return dsl_raise(in, "AttributeError", "'str' object has no attribute '%s'", name);
}
