/* str.c — the methods of strings (see str.h).
 *
 * Each method computes what CPython's does, with CPython's errors word for word, including
 * those of binding its arguments, which CPython words in several ways (`str.upper() takes no
 * arguments (1 given)`, `strip expected at most 1 argument, got 2`, `find() takes at least 1
 * argument (0 given)`): a method's row takes any arguments and its `struct sig` checks them.
 * Indices (find, count, startswith's start and end) count characters, as len() does. What a
 * character is (a letter, a space, its upper case) is CPython's, from the tables of unicode.h.
 *
 * str.format reads its template as CPython does: {} numbers the fields automatically, {0}
 * picks a positional argument and {name} a keyword one (mixing the two numberings is an
 * error), !r / !s / !a convert, and the spec after ':' may itself hold fields ("{:{w}}"), one
 * level deep; {{ and }} are braces. Field names with attributes or indices ({0.x}, {0[1]}) are
 * not supported: an f-string does the same.
 *
 * The names CPython's str has and the language does not (translate, encode, the dunder
 * methods...) are a NotImplementedError that names the method, where any other name is
 * CPython's AttributeError. */
#include "lang/str.h"

#include "lang/classes.h"
#include "lang/operators.h"
#include "lang/unicode.h"

#include <limits.h>
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

/* ---- arguments ------------------------------------------------------------------------- */

/* How CPython words a method's arity errors: its methods are bound by several mechanisms,
 * each with its own messages. */
enum style {
    NOARGS,   /* str.upper() takes no arguments (1 given) */
    ONEARG,   /* str.join() takes exactly one argument (0 given) */
    EXPECTED, /* strip expected at most 1 argument, got 2 */
    TAKES,    /* find() takes at least 1 argument (0 given) */
    KEYWORDS, /* split() takes at most 2 arguments (3 given); sep= and maxsplit= too */
};

struct sig {
    const char *name;
    enum style style;
    int min, max;
    const char *kw[3]; /* KEYWORDS: the parameters' names, NULL after the last */
};

#define MAX_ARGS 3

static const char *plural(long n) { return n == 1 ? "" : "s"; }

/* Binds a call's arguments to arg[0..MAX_ARGS) (NULL where not given), with the errors of
 * the CPython method sig describes. 0 or -1. */
static int bind(struct dsl_interp *in, const struct dsl_args *a, const struct sig *sg,
                const struct dsl_value *arg[MAX_ARGS])
{
    size_t n = a->nrest;
    for (size_t i = 0; i < MAX_ARGS; i++) arg[i] = i < n ? &a->rest[i] : NULL;
    const char *nm = sg->name;
    if (a->nkw && sg->style != KEYWORDS)
        return dsl_raise(in, "TypeError", "str.%s() takes no keyword arguments", nm);
    switch (sg->style) {
    case NOARGS:
        if (n) return dsl_raise(in, "TypeError", "str.%s() takes no arguments (%zu given)", nm, n);
        return 0;
    case ONEARG:
        if (n != 1)
            return dsl_raise(in, "TypeError", "str.%s() takes exactly one argument (%zu given)", nm,
                             n);
        return 0;
    case EXPECTED:
        if (n < (size_t)sg->min)
            return dsl_raise(in, "TypeError", "%s expected at least %d argument%s, got %zu", nm,
                             sg->min, plural(sg->min), n);
        if (n > (size_t)sg->max)
            return dsl_raise(in, "TypeError", "%s expected at most %d argument%s, got %zu", nm,
                             sg->max, plural(sg->max), n);
        return 0;
    case TAKES:
        if (n < (size_t)sg->min)
            return dsl_raise(in, "TypeError", "%s() takes at least %d argument%s (%zu given)", nm,
                             sg->min, plural(sg->min), n);
        if (n > (size_t)sg->max)
            return dsl_raise(in, "TypeError", "%s() takes at most %d argument%s (%zu given)", nm,
                             sg->max, plural(sg->max), n);
        return 0;
    case KEYWORDS:
        if (n + a->nkw > (size_t)sg->max)
            return dsl_raise(in, "TypeError", "%s() takes at most %d argument%s (%zu given)", nm,
                             sg->max, plural(sg->max), n + a->nkw);
        for (size_t k = 0; k < a->nkw; k++) {
            size_t i = 0;
            while (i < MAX_ARGS && sg->kw[i] && strcmp(sg->kw[i], a->kwnames[k]) != 0) i++;
            if (i == MAX_ARGS || !sg->kw[i])
                return dsl_raise(in, "TypeError", "'%s' is an invalid keyword argument for %s()",
                                 a->kwnames[k], nm);
            if (arg[i])
                return dsl_raise(in, "TypeError",
                                 "argument for %s() given by name ('%s') and position (%zu)", nm,
                                 sg->kw[i], i + 1);
            arg[i] = &a->kwvals[k];
        }
        return 0;
    }
    return 0;
}

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

/* An int argument (a bool is one), as CPython's __index__ takes it. 0 or -1. */
static int want_index(struct dsl_interp *in, struct dsl_value v, int64_t *out)
{
    if (!dsl_is_intlike(v))
        return dsl_raise(in, "TypeError", "'%s' object cannot be interpreted as an integer",
                         py_type(v));
    *out = dsl_as_int(v);
    return 0;
}

/* An int argument CPython keeps in a C int (splitlines' keepends, expandtabs' tabsize). */
static int want_c_int(struct dsl_interp *in, struct dsl_value v, int64_t *out)
{
    if (want_index(in, v, out) != 0) return -1;
    if (*out > INT_MAX || *out < INT_MIN)
        return dsl_raise(in, "OverflowError", "Python int too large to convert to C int");
    return 0;
}

/* A str argument: "must be str, not int" (find, count, partition). 0 or -1. */
static int want_str(struct dsl_interp *in, const struct dsl_value *v)
{
    if (v->kind == DSL_STR) return 0;
    return dsl_raise(in, "TypeError", "must be str, not %s", py_type(*v));
}

/* start and end of find, count, startswith...: none or an int, in characters. */
static int slice_index(struct dsl_interp *in, const struct dsl_value *v, int64_t dflt, int64_t *out)
{
    *out = dflt;
    if (!v || v->kind == DSL_NONE) return 0;
    if (!dsl_is_intlike(*v))
        return dsl_raise(in, "TypeError",
                         "slice indices must be integers or None or have an __index__ method");
    *out = dsl_as_int(*v);
    return 0;
}

/* ---- text ------------------------------------------------------------------------------ */

struct text {
    const char *s;
    size_t n;     /* bytes */
    size_t chars; /* code points */
};

static struct text text_of(struct dsl_value v)
{
    const char *s = v.as.s->data;
    size_t n = v.as.s->len;
    return (struct text){s, n, render_utf8_count(s, n)};
}

static bool is_ascii(const struct text *t) { return t->chars == t->n; }

/* The byte offset of character k (k <= t->chars). */
static size_t byte_at(const struct text *t, size_t k)
{
    if (is_ascii(t) || k == 0) return k;
    if (k >= t->chars) return t->n;
    size_t off = 0;
    while (k--) {
        size_t len;
        dsl_utf8_decode(t->s + off, t->n - off, &len);
        off += len;
    }
    return off;
}

/* The character index of byte offset off. */
static size_t char_at(const struct text *t, size_t off)
{
    return is_ascii(t) ? off : render_utf8_count(t->s, off);
}

/* The code point before byte offset off (> 0) and where it begins. */
static uint32_t decode_before(const char *s, size_t off, size_t *start)
{
    size_t i = off - 1;
    while (i > 0 && off - i < 4 && ((unsigned char)s[i] & 0xC0) == 0x80) i--;
    size_t len;
    uint32_t c = dsl_utf8_decode(s + i, off - i, &len);
    if (i + len != off) { /* not a sequence ending at off: the byte alone */
        i = off - 1;
        c = (unsigned char)s[i];
    }
    *start = i;
    return c;
}

static bool is_space_at(const char *s, size_t n, size_t *len)
{
    return (dsl_uc_props(dsl_utf8_decode(s, n, len)) & DSL_UC_SPACE) != 0;
}

/* CPython's ADJUST_INDICES: slice bounds clamped to a string of len characters. */
static void adjust(int64_t *start, int64_t *end, int64_t len)
{
    if (*end > len)
        *end = len;
    else if (*end < 0 && (*end += len) < 0)
        *end = 0;
    if (*start < 0 && (*start += len) < 0) *start = 0;
}

static int new_str(struct dsl_interp *in, const char *s, size_t n, struct dsl_value *out)
{
    if (n > DSL_MAX_STR_BYTES) return dsl_raise_size(in, "string", n);
    int st = dsl_str_value(s, n, out);
    return st ? dsl_raise_status(in, st) : 0;
}

/* The string a buffer holds; the buffer is freed. 0 or -1. */
static int buf_result(struct dsl_interp *in, struct render_buf *b, struct dsl_value *ret)
{
    int r = 0;
    if (b->over)
        r = dsl_raise_size(in, "string", (uint64_t)b->len + 1);
    else if (b->nomem)
        r = dsl_raise_status(in, DSL_V_NOMEM);
    else
        r = new_str(in, render_buf_str(b), b->len, ret);
    render_buf_free(b);
    return r;
}

static int same(struct dsl_value self, struct dsl_value *ret)
{
    *ret = dsl_value_retain(self);
    return 0;
}

static struct dsl_value list_value(struct dsl_list *l)
{
    return (struct dsl_value){.kind = DSL_LIST, .as.l = l};
}

/* Appends a new string s[0..n) to l; on failure raises, and the caller releases l. */
static int push_str(struct dsl_interp *in, struct dsl_list *l, const char *s, size_t n)
{
    struct dsl_value v;
    if (new_str(in, s, n, &v) != 0) return -1;
    int st = dsl_list_push(l, v);
    if (st == DSL_V_TOOBIG) return dsl_raise_size(in, "list", (uint64_t)l->len + 1);
    return st ? dsl_raise_status(in, st) : 0;
}

static int new_list(struct dsl_interp *in, struct dsl_list **l)
{
    *l = dsl_list_new(4);
    return *l ? 0 : dsl_raise_status(in, DSL_V_NOMEM);
}

/* Ends a method building list l: the list in *ret when r is 0, else l released. */
static int list_done(int r, struct dsl_list *l, struct dsl_value *ret)
{
    if (r != 0) {
        dsl_value_release(list_value(l));
        return -1;
    }
    *ret = list_value(l);
    return 0;
}

/* The last occurrence of needle in hay[0..n), or NULL. */
static const char *find_last(const char *hay, size_t n, const char *needle, size_t m)
{
    if (m > n) return NULL;
    for (size_t i = n - m + 1; i-- > 0;)
        if (hay[i] == needle[0] && memcmp(hay + i, needle, m) == 0) return hay + i;
    return NULL;
}

static const char *find_first(const char *hay, size_t n, const char *needle, size_t m)
{
    return m ? memmem(hay, n, needle, m) : hay;
}

/* ---- split and join -------------------------------------------------------------------- */

static const struct sig sig_split = {"split", KEYWORDS, 0, 2, {"sep", "maxsplit"}};
static const struct sig sig_rsplit = {"rsplit", KEYWORDS, 0, 2, {"sep", "maxsplit"}};

/* sep (a str or none) and maxsplit (-1: no limit) of split and rsplit. */
static int split_args(struct dsl_interp *in, const struct dsl_args *a, const struct sig *sg,
                      const struct dsl_value **sep, int64_t *max)
{
    const struct dsl_value *arg[MAX_ARGS];
    if (bind(in, a, sg, arg) != 0) return -1;
    *sep = arg[0] && arg[0]->kind != DSL_NONE ? arg[0] : NULL;
    if (*sep && (*sep)->kind != DSL_STR)
        return dsl_raise(in, "TypeError", "must be str or None, not %s", py_type(*arg[0]));
    *max = -1;
    if (arg[1] && want_index(in, *arg[1], max) != 0) return -1;
    if (*max < 0) *max = INT64_MAX;
    if (*sep && (*sep)->as.s->len == 0) return dsl_raise(in, "ValueError", "empty separator");
    return 0;
}

static int m_split(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    const struct dsl_value *sep;
    int64_t max;
    struct dsl_list *l;
    if (split_args(in, a, &sig_split, &sep, &max) != 0 || new_list(in, &l) != 0) return -1;
    const char *s = a->self.as.s->data;
    size_t n = a->self.as.s->len, i = 0, len = 0;
    int r = 0;
    if (sep) {
        const char *p = sep->as.s->data;
        size_t m = sep->as.s->len;
        const char *hit;
        while (r == 0 && max > 0 && (hit = find_first(s + i, n - i, p, m))) {
            r = push_str(in, l, s + i, (size_t)(hit - (s + i)));
            i = (size_t)(hit - s) + m;
            max--;
        }
        if (r == 0) r = push_str(in, l, s + i, n - i);
        return list_done(r, l, ret);
    }
    /* runs of whitespace separate the words, and none are made at the ends */
    for (; r == 0 && max > 0; max--) {
        while (i < n && is_space_at(s + i, n - i, &len)) i += len;
        if (i == n) break;
        size_t j = i;
        while (i < n && !is_space_at(s + i, n - i, &len)) i += len;
        r = push_str(in, l, s + j, i - j);
    }
    if (r == 0 && i < n) {
        while (i < n && is_space_at(s + i, n - i, &len)) i += len;
        if (i < n) r = push_str(in, l, s + i, n - i);
    }
    return list_done(r, l, ret);
}

/* Reverses the items of l (rsplit finds its parts from the end). */
static void reverse_items(struct dsl_list *l)
{
    for (size_t i = 0, j = l->len; i + 1 < j; i++, j--) {
        struct dsl_value t = l->items[i];
        l->items[i] = l->items[j - 1];
        l->items[j - 1] = t;
    }
}

static bool space_before(const char *s, size_t off, size_t *start)
{
    return (dsl_uc_props(decode_before(s, off, start)) & DSL_UC_SPACE) != 0;
}

static int m_rsplit(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    const struct dsl_value *sep;
    int64_t max;
    struct dsl_list *l;
    if (split_args(in, a, &sig_rsplit, &sep, &max) != 0 || new_list(in, &l) != 0) return -1;
    const char *s = a->self.as.s->data;
    size_t end = a->self.as.s->len, at = 0;
    int r = 0;
    if (sep) {
        const char *p = sep->as.s->data;
        size_t m = sep->as.s->len;
        const char *hit;
        while (r == 0 && max > 0 && (hit = find_last(s, end, p, m))) {
            size_t h = (size_t)(hit - s);
            r = push_str(in, l, s + h + m, end - h - m);
            end = h;
            max--;
        }
        if (r == 0) r = push_str(in, l, s, end);
    } else {
        for (; r == 0 && max > 0; max--) {
            while (end > 0 && space_before(s, end, &at)) end = at;
            if (end == 0) break;
            size_t j = end;
            while (end > 0 && !space_before(s, end, &at)) end = at;
            r = push_str(in, l, s + end, j - end);
        }
        if (r == 0 && end > 0) {
            while (end > 0 && space_before(s, end, &at)) end = at;
            if (end > 0) r = push_str(in, l, s, end);
        }
    }
    if (r == 0) reverse_items(l);
    return list_done(r, l, ret);
}

static const struct sig sig_join = {"join", ONEARG, 1, 1, {NULL}};

static int m_join(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    const struct dsl_value *arg[MAX_ARGS];
    if (bind(in, a, &sig_join, arg) != 0) return -1;
    struct dsl_iter it;
    if (dsl_iter_init(in, *arg[0], &it) != 0) {
        /* CPython's own words for what cannot be iterated */
        if (!in->ename || strcmp(in->ename, "TypeError") != 0 || !in->evalue ||
            !strstr(in->evalue, "is not iterable"))
            return -1;
        dsl_interp_clear_error(in);
        return dsl_raise(in, "TypeError", "can only join an iterable");
    }
    const struct dsl_str *sep = a->self.as.s;
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_STR_BYTES);
    struct dsl_value item;
    int got;
    size_t i = 0;
    while ((got = dsl_iter_next(in, &it, &item)) > 0) {
        if (item.kind != DSL_STR) {
            dsl_raise(in, "TypeError", "sequence item %zu: expected str instance, %s found", i,
                      py_type(item)); /* before the item, which may hold its type's name, goes */
            dsl_value_release(item);
            dsl_iter_end(&it);
            render_buf_free(&b);
            return -1;
        }
        if (i++) render_buf_append(&b, sep->data, sep->len);
        render_buf_append(&b, item.as.s->data, item.as.s->len);
        dsl_value_release(item);
        if (b.over || b.nomem) break;
    }
    dsl_iter_end(&it);
    if (got < 0) {
        render_buf_free(&b);
        return -1;
    }
    return buf_result(in, &b, ret);
}

static const struct sig sig_splitlines = {"splitlines", KEYWORDS, 0, 1, {"keepends"}};

/* The length of the line break at s[0..n), or 0: \n, \r, \r\n, \v, \f, \x1c-\x1e, U+0085,
 * U+2028, U+2029, as CPython's splitlines breaks. */
static size_t line_break(const char *s, size_t n)
{
    unsigned char c = (unsigned char)s[0];
    if (c == '\r') return n > 1 && s[1] == '\n' ? 2 : 1;
    if (c == '\n' || c == '\v' || c == '\f' || (c >= 0x1c && c <= 0x1e)) return 1;
    if (c < 0x80) return 0;
    size_t len;
    uint32_t u = dsl_utf8_decode(s, n, &len);
    return u == 0x85 || u == 0x2028 || u == 0x2029 ? len : 0;
}

static int m_splitlines(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    const struct dsl_value *arg[MAX_ARGS];
    int64_t keep = 0;
    struct dsl_list *l;
    if (bind(in, a, &sig_splitlines, arg) != 0) return -1;
    if (arg[0] && want_c_int(in, *arg[0], &keep) != 0) return -1;
    if (new_list(in, &l) != 0) return -1;
    const char *s = a->self.as.s->data;
    size_t n = a->self.as.s->len, i = 0;
    int r = 0;
    while (r == 0 && i < n) {
        size_t j = i, br = 0, len;
        while (j < n && !(br = line_break(s + j, n - j))) {
            dsl_utf8_decode(s + j, n - j, &len);
            j += len;
        }
        r = push_str(in, l, s + i, j - i + (keep ? br : 0));
        i = j + br;
    }
    return list_done(r, l, ret);
}

static const struct sig sig_partition = {"partition", ONEARG, 1, 1, {NULL}};
static const struct sig sig_rpartition = {"rpartition", ONEARG, 1, 1, {NULL}};

static int partition(struct dsl_interp *in, const struct dsl_args *a, bool right,
                     struct dsl_value *ret)
{
    const struct dsl_value *arg[MAX_ARGS];
    if (bind(in, a, right ? &sig_rpartition : &sig_partition, arg) != 0 || want_str(in, arg[0]))
        return -1;
    const char *s = a->self.as.s->data, *p = arg[0]->as.s->data;
    size_t n = a->self.as.s->len, m = arg[0]->as.s->len;
    if (m == 0) return dsl_raise(in, "ValueError", "empty separator");
    const char *hit = right ? find_last(s, n, p, m) : find_first(s, n, p, m);
    struct dsl_list *l = dsl_list_new(3);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    l->style = DSL_LIST_TUPLE;
    int r;
    if (!hit) /* the whole string on the side it was searched from */
        r = right ? push_str(in, l, "", 0) || push_str(in, l, "", 0) || push_str(in, l, s, n)
                  : push_str(in, l, s, n) || push_str(in, l, "", 0) || push_str(in, l, "", 0);
    else
        r = push_str(in, l, s, (size_t)(hit - s)) || push_str(in, l, p, m) ||
            push_str(in, l, hit + m, n - (size_t)(hit - s) - m);
    return list_done(r ? -1 : 0, l, ret);
}

static int m_partition(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return partition(in, a, false, ret);
}

static int m_rpartition(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return partition(in, a, true, ret);
}

/* ---- strip ------------------------------------------------------------------------------ */

static const struct sig sig_strip = {"strip", EXPECTED, 0, 1, {NULL}};
static const struct sig sig_lstrip = {"lstrip", EXPECTED, 0, 1, {NULL}};
static const struct sig sig_rstrip = {"rstrip", EXPECTED, 0, 1, {NULL}};

/* Whether code point c is one of chars (NULL: whitespace). */
static bool strip_this(uint32_t c, const struct dsl_str *chars)
{
    if (!chars) return (dsl_uc_props(c) & DSL_UC_SPACE) != 0;
    for (size_t i = 0; i < chars->len;) {
        size_t len;
        if (dsl_utf8_decode(chars->data + i, chars->len - i, &len) == c) return true;
        i += len;
    }
    return false;
}

/* which: 1 the left, 2 the right, 3 both. */
static int strip(struct dsl_interp *in, const struct dsl_args *a, int which, struct dsl_value *ret)
{
    const struct sig *sg = which == 3 ? &sig_strip : which == 1 ? &sig_lstrip : &sig_rstrip;
    const struct dsl_value *arg[MAX_ARGS];
    if (bind(in, a, sg, arg) != 0) return -1;
    const struct dsl_str *chars = NULL;
    if (arg[0] && arg[0]->kind != DSL_NONE) {
        if (arg[0]->kind != DSL_STR)
            return dsl_raise(in, "TypeError", "%s arg must be None or str", sg->name);
        chars = arg[0]->as.s;
    }
    const char *s = a->self.as.s->data;
    size_t n = a->self.as.s->len, i = 0, end = n, at, len;
    if (which & 1)
        while (i < n && strip_this(dsl_utf8_decode(s + i, n - i, &len), chars)) i += len;
    if (which & 2)
        while (end > i && strip_this(decode_before(s, end, &at), chars)) end = at;
    if (i == 0 && end == n) return same(a->self, ret);
    return new_str(in, s + i, end - i, ret);
}

static int m_strip(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return strip(in, a, 3, ret);
}

static int m_lstrip(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return strip(in, a, 1, ret);
}

static int m_rstrip(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return strip(in, a, 2, ret);
}

static const struct sig sig_removeprefix = {"removeprefix", ONEARG, 1, 1, {NULL}};
static const struct sig sig_removesuffix = {"removesuffix", ONEARG, 1, 1, {NULL}};

static int remove_affix(struct dsl_interp *in, const struct dsl_args *a, bool suffix,
                        struct dsl_value *ret)
{
    const struct sig *sg = suffix ? &sig_removesuffix : &sig_removeprefix;
    const struct dsl_value *arg[MAX_ARGS];
    if (bind(in, a, sg, arg) != 0) return -1;
    if (arg[0]->kind != DSL_STR) /* argument clinic's words: None is "None" */
        return dsl_raise(in, "TypeError", "%s() argument must be str, not %s", sg->name,
                         arg[0]->kind == DSL_NONE ? "None" : py_type(*arg[0]));
    const char *s = a->self.as.s->data, *p = arg[0]->as.s->data;
    size_t n = a->self.as.s->len, m = arg[0]->as.s->len;
    if (m == 0 || m > n) return same(a->self, ret);
    if (!suffix && memcmp(s, p, m) == 0) return new_str(in, s + m, n - m, ret);
    if (suffix && memcmp(s + n - m, p, m) == 0) return new_str(in, s, n - m, ret);
    return same(a->self, ret);
}

static int m_removeprefix(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return remove_affix(in, a, false, ret);
}

static int m_removesuffix(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return remove_affix(in, a, true, ret);
}

/* ---- searching -------------------------------------------------------------------------- */

static const struct sig sig_startswith = {"startswith", TAKES, 1, 3, {NULL}};
static const struct sig sig_endswith = {"endswith", TAKES, 1, 3, {NULL}};

/* Whether s[start:end] (characters) starts (or ends) with p, as CPython's tailmatch. */
static bool tail_match(const struct text *t, const struct dsl_str *p, int64_t start, int64_t end,
                       bool at_end)
{
    adjust(&start, &end, (int64_t)t->chars);
    int64_t plen = (int64_t)render_utf8_count(p->data, p->len);
    if (end - plen < start) return false;
    if (plen == 0) return true;
    size_t b0 = byte_at(t, (size_t)start), b1 = byte_at(t, (size_t)end);
    if (b1 - b0 < p->len) return false;
    return memcmp(at_end ? t->s + b1 - p->len : t->s + b0, p->data, p->len) == 0;
}

static int affix_match(struct dsl_interp *in, const struct dsl_args *a, bool at_end,
                       struct dsl_value *ret)
{
    const struct sig *sg = at_end ? &sig_endswith : &sig_startswith;
    const struct dsl_value *arg[MAX_ARGS];
    int64_t start, end;
    if (bind(in, a, sg, arg) != 0 || slice_index(in, arg[1], 0, &start) != 0 ||
        slice_index(in, arg[2], INT64_MAX, &end) != 0)
        return -1;
    struct text t = text_of(a->self);
    struct dsl_value p = *arg[0];
    if (dsl_is_tuple(p)) {
        for (size_t i = 0; i < p.as.l->len; i++) {
            struct dsl_value item = p.as.l->items[i];
            if (item.kind != DSL_STR)
                return dsl_raise(in, "TypeError", "tuple for %s must only contain str, not %s",
                                 sg->name, py_type(item));
            if (tail_match(&t, item.as.s, start, end, at_end)) {
                *ret = dsl_bool(true);
                return 0;
            }
        }
        *ret = dsl_bool(false);
        return 0;
    }
    if (p.kind != DSL_STR)
        return dsl_raise(in, "TypeError", "%s first arg must be str or a tuple of str, not %s",
                         sg->name, py_type(p));
    *ret = dsl_bool(tail_match(&t, p.as.s, start, end, at_end));
    return 0;
}

static int m_startswith(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return affix_match(in, a, false, ret);
}

static int m_endswith(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return affix_match(in, a, true, ret);
}

enum search { FIND, RFIND, INDEX, RINDEX, COUNT };

static const struct sig search_sigs[] = {
    [FIND] = {"find", TAKES, 1, 3, {NULL}},   [RFIND] = {"rfind", TAKES, 1, 3, {NULL}},
    [INDEX] = {"index", TAKES, 1, 3, {NULL}}, [RINDEX] = {"rindex", TAKES, 1, 3, {NULL}},
    [COUNT] = {"count", TAKES, 1, 3, {NULL}},
};

/* find, rfind, index, rindex and count: characters found in s[start:end]. */
static int search(struct dsl_interp *in, const struct dsl_args *a, enum search how,
                  struct dsl_value *ret)
{
    const struct dsl_value *arg[MAX_ARGS];
    int64_t start, end;
    if (bind(in, a, &search_sigs[how], arg) != 0 || want_str(in, arg[0]) != 0 ||
        slice_index(in, arg[1], 0, &start) != 0 || slice_index(in, arg[2], INT64_MAX, &end) != 0)
        return -1;
    struct text t = text_of(a->self);
    const struct dsl_str *p = arg[0]->as.s;
    int64_t plen = (int64_t)render_utf8_count(p->data, p->len);
    adjust(&start, &end, (int64_t)t.chars);
    int64_t found = -1;
    if (end - start >= plen) {
        size_t b0 = byte_at(&t, (size_t)start), b1 = byte_at(&t, (size_t)end);
        if (how == COUNT) {
            int64_t k = 0;
            if (plen == 0) {
                k = end - start + 1;
            } else {
                const char *hit, *from = t.s + b0;
                while ((hit = find_first(from, (size_t)(t.s + b1 - from), p->data, p->len))) {
                    k++;
                    from = hit + p->len;
                }
            }
            *ret = dsl_int(k);
            return 0;
        }
        bool right = how == RFIND || how == RINDEX;
        const char *hit = right ? find_last(t.s + b0, b1 - b0, p->data, p->len)
                                : find_first(t.s + b0, b1 - b0, p->data, p->len);
        if (plen == 0) hit = right ? t.s + b1 : t.s + b0;
        if (hit) found = (int64_t)char_at(&t, (size_t)(hit - t.s));
    }
    if (how == COUNT) {
        *ret = dsl_int(0);
        return 0;
    }
    if (found < 0 && (how == INDEX || how == RINDEX))
        return dsl_raise(in, "ValueError", "substring not found");
    *ret = dsl_int(found);
    return 0;
}

static int m_find(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return search(in, a, FIND, ret);
}

static int m_rfind(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return search(in, a, RFIND, ret);
}

static int m_index(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return search(in, a, INDEX, ret);
}

static int m_rindex(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return search(in, a, RINDEX, ret);
}

static int m_count(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return search(in, a, COUNT, ret);
}

static const struct sig sig_replace = {"replace", EXPECTED, 2, 3, {NULL}};

static int m_replace(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    const struct dsl_value *arg[MAX_ARGS];
    if (bind(in, a, &sig_replace, arg) != 0) return -1;
    for (int i = 0; i < 2; i++)
        if (arg[i]->kind != DSL_STR)
            return dsl_raise(in, "TypeError", "replace() argument %d must be str, not %s", i + 1,
                             arg[i]->kind == DSL_NONE ? "None" : py_type(*arg[i]));
    int64_t count = -1;
    if (arg[2] && want_index(in, *arg[2], &count) != 0) return -1;
    struct text t = text_of(a->self);
    const struct dsl_str *old = arg[0]->as.s, *new = arg[1]->as.s;
    if (count < 0) count = INT64_MAX;
    /* how many replacements, then the size, before building anything */
    uint64_t k = 0;
    if (old->len == 0) {
        k = t.chars + 1 < (uint64_t)count ? t.chars + 1 : (uint64_t)count;
    } else {
        const char *hit, *from = t.s;
        while (k < (uint64_t)count &&
               (hit = find_first(from, (size_t)(t.s + t.n - from), old->data, old->len))) {
            k++;
            from = hit + old->len;
        }
    }
    if (k == 0) return same(a->self, ret);
    uint64_t size = t.n - k * old->len;
    if (new->len && k > (DSL_MAX_STR_BYTES - size) / new->len)
        return dsl_raise_size(in, "string", size + k * new->len);
    size += k * new->len;
    struct dsl_str *out = dsl_str_alloc(size);
    if (!out) return dsl_raise_status(in, DSL_V_NOMEM);
    char *w = out->data;
    const char *from = t.s, *stop = t.s + t.n;
    for (uint64_t i = 0; i < k; i++) {
        const char *hit;
        if (old->len == 0) { /* before each character, and at the end */
            hit = from;
            if (i > 0) {
                size_t len;
                dsl_utf8_decode(from, (size_t)(stop - from), &len);
                hit = from + len;
            }
        } else {
            hit = find_first(from, (size_t)(stop - from), old->data, old->len);
        }
        memcpy(w, from, (size_t)(hit - from));
        w += hit - from;
        memcpy(w, new->data, new->len);
        w += new->len;
        from = hit + old->len;
    }
    memcpy(w, from, (size_t)(stop - from));
    ret->kind = DSL_STR;
    ret->as.s = out;
    return 0;
}

/* ---- case ------------------------------------------------------------------------------- */

enum casing { LOWER, UPPER, SWAPCASE, CAPITALIZE, TITLE, CASEFOLD };

static const struct sig casing_sigs[] = {
    [LOWER] = {"lower", NOARGS, 0, 0, {NULL}},
    [UPPER] = {"upper", NOARGS, 0, 0, {NULL}},
    [SWAPCASE] = {"swapcase", NOARGS, 0, 0, {NULL}},
    [CAPITALIZE] = {"capitalize", NOARGS, 0, 0, {NULL}},
    [TITLE] = {"title", NOARGS, 0, 0, {NULL}},
    [CASEFOLD] = {"casefold", NOARGS, 0, 0, {NULL}},
};

/* Whether the capital sigma at cp[i] ends a word: a cased letter before it and none after,
 * case-ignorable characters (apostrophes, accents) passed over. */
static bool final_sigma(const uint32_t *cp, size_t n, size_t i)
{
    size_t j = i;
    while (j > 0 && (dsl_uc_props(cp[j - 1]) & DSL_UC_CASE_IGNORABLE)) j--;
    if (j == 0 || !(dsl_uc_props(cp[j - 1]) & DSL_UC_CASED)) return false;
    j = i + 1;
    while (j < n && (dsl_uc_props(cp[j]) & DSL_UC_CASE_IGNORABLE)) j++;
    return j == n || !(dsl_uc_props(cp[j]) & DSL_UC_CASED);
}

static int lower_at(const uint32_t *cp, size_t n, size_t i, uint32_t out[3])
{
    if (cp[i] == 0x3A3) {
        out[0] = final_sigma(cp, n, i) ? 0x3C2 : 0x3C3;
        return 1;
    }
    return dsl_uc_map(cp[i], DSL_UC_TO_LOWER, out);
}

/* The case of code point i of cp[0..n) changed as `how` says; *cased: whether the character
 * before was cased (title), updated. */
static int recase(const uint32_t *cp, size_t n, size_t i, enum casing how, bool *cased,
                  uint32_t out[3])
{
    uint32_t c = cp[i];
    unsigned p = dsl_uc_props(c);
    switch (how) {
    case LOWER: return lower_at(cp, n, i, out);
    case UPPER: return dsl_uc_map(c, DSL_UC_TO_UPPER, out);
    case CASEFOLD: return dsl_uc_map(c, DSL_UC_TO_FOLD, out);
    case SWAPCASE:
        if (p & DSL_UC_UPPER) return lower_at(cp, n, i, out);
        if (p & DSL_UC_LOWER) return dsl_uc_map(c, DSL_UC_TO_UPPER, out);
        out[0] = c;
        return 1;
    case CAPITALIZE: return i == 0 ? dsl_uc_map(c, DSL_UC_TO_TITLE, out) : lower_at(cp, n, i, out);
    case TITLE: {
        int k = *cased ? lower_at(cp, n, i, out) : dsl_uc_map(c, DSL_UC_TO_TITLE, out);
        *cased = (p & DSL_UC_CASED) != 0;
        return k;
    }
    }
    return 0;
}

static char ascii_recase(char c, enum casing how, bool first, bool *cased)
{
    bool up = c >= 'A' && c <= 'Z', low = c >= 'a' && c <= 'z';
    bool to_upper;
    switch (how) {
    case UPPER: to_upper = true; break;
    case SWAPCASE: to_upper = low; break;
    case CAPITALIZE: to_upper = first; break;
    case TITLE: to_upper = !*cased; break;
    default: to_upper = false; break;
    }
    *cased = up || low;
    return to_upper ? (low ? (char)(c - 32) : c) : (up ? (char)(c + 32) : c);
}

static int change_case(struct dsl_interp *in, const struct dsl_args *a, enum casing how,
                       struct dsl_value *ret)
{
    const struct dsl_value *arg[MAX_ARGS];
    if (bind(in, a, &casing_sigs[how], arg) != 0) return -1;
    struct text t = text_of(a->self);
    bool cased = false;
    if (is_ascii(&t)) {
        struct dsl_str *out = dsl_str_alloc(t.n);
        if (!out) return dsl_raise_status(in, DSL_V_NOMEM);
        for (size_t i = 0; i < t.n; i++) out->data[i] = ascii_recase(t.s[i], how, i == 0, &cased);
        ret->kind = DSL_STR;
        ret->as.s = out;
        return 0;
    }
    uint32_t *cp = malloc(t.chars * sizeof *cp);
    if (!cp) return dsl_raise_status(in, DSL_V_NOMEM);
    for (size_t i = 0, off = 0; i < t.chars; i++) {
        size_t len;
        cp[i] = dsl_utf8_decode(t.s + off, t.n - off, &len);
        off += len;
    }
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_STR_BYTES);
    for (size_t i = 0; i < t.chars && !b.over && !b.nomem; i++) {
        uint32_t m[3];
        int k = recase(cp, t.chars, i, how, &cased, m);
        for (int j = 0; j < k; j++) {
            char u[4];
            render_buf_append(&b, u, dsl_utf8_encode(m[j], u));
        }
    }
    free(cp);
    return buf_result(in, &b, ret);
}

static int m_lower(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return change_case(in, a, LOWER, ret);
}

static int m_upper(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return change_case(in, a, UPPER, ret);
}

static int m_swapcase(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return change_case(in, a, SWAPCASE, ret);
}

static int m_capitalize(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return change_case(in, a, CAPITALIZE, ret);
}

static int m_title(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return change_case(in, a, TITLE, ret);
}

static int m_casefold(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return change_case(in, a, CASEFOLD, ret);
}

/* ---- classes of characters ------------------------------------------------------------- */

enum test {
    IS_ALPHA,
    IS_ALNUM,
    IS_DECIMAL,
    IS_DIGIT,
    IS_NUMERIC,
    IS_SPACE,
    IS_PRINTABLE,
    IS_ASCII,
    IS_LOWER,
    IS_UPPER,
    IS_TITLE,
    IS_IDENTIFIER,
};

static const struct sig test_sigs[] = {
    [IS_ALPHA] = {"isalpha", NOARGS, 0, 0, {NULL}},
    [IS_ALNUM] = {"isalnum", NOARGS, 0, 0, {NULL}},
    [IS_DECIMAL] = {"isdecimal", NOARGS, 0, 0, {NULL}},
    [IS_DIGIT] = {"isdigit", NOARGS, 0, 0, {NULL}},
    [IS_NUMERIC] = {"isnumeric", NOARGS, 0, 0, {NULL}},
    [IS_SPACE] = {"isspace", NOARGS, 0, 0, {NULL}},
    [IS_PRINTABLE] = {"isprintable", NOARGS, 0, 0, {NULL}},
    [IS_ASCII] = {"isascii", NOARGS, 0, 0, {NULL}},
    [IS_LOWER] = {"islower", NOARGS, 0, 0, {NULL}},
    [IS_UPPER] = {"isupper", NOARGS, 0, 0, {NULL}},
    [IS_TITLE] = {"istitle", NOARGS, 0, 0, {NULL}},
    [IS_IDENTIFIER] = {"isidentifier", NOARGS, 0, 0, {NULL}},
};

/* The answer of test `how` for s[0..n): every character has the property (an empty string has
 * none, except for isprintable and isascii), or CPython's rules for case and identifiers. */
static bool char_test(const char *s, size_t n, enum test how)
{
    static const unsigned every[] = {
        [IS_ALPHA] = DSL_UC_ALPHA,
        [IS_ALNUM] = DSL_UC_ALPHA | DSL_UC_DECIMAL | DSL_UC_DIGIT | DSL_UC_NUMERIC,
        [IS_DECIMAL] = DSL_UC_DECIMAL,
        [IS_DIGIT] = DSL_UC_DIGIT,
        [IS_NUMERIC] = DSL_UC_NUMERIC,
        [IS_SPACE] = DSL_UC_SPACE,
        [IS_PRINTABLE] = DSL_UC_PRINTABLE,
    };
    if (how == IS_ASCII) {
        for (size_t i = 0; i < n; i++)
            if ((unsigned char)s[i] >= 0x80) return false;
        return true;
    }
    bool cased = false, prev_cased = false;
    for (size_t i = 0, len; i < n; i += len) {
        uint32_t c = dsl_utf8_decode(s + i, n - i, &len);
        unsigned p = dsl_uc_props(c);
        switch (how) {
        case IS_LOWER:
            if (p & (DSL_UC_UPPER | DSL_UC_TITLE)) return false;
            cased |= (p & DSL_UC_LOWER) != 0;
            break;
        case IS_UPPER:
            if (p & (DSL_UC_LOWER | DSL_UC_TITLE)) return false;
            cased |= (p & DSL_UC_UPPER) != 0;
            break;
        case IS_TITLE: /* cased words begin with their one upper or title case letter */
            if (p & (DSL_UC_UPPER | DSL_UC_TITLE)) {
                if (prev_cased) return false;
                prev_cased = cased = true;
            } else if (p & DSL_UC_LOWER) {
                if (!prev_cased) return false;
                prev_cased = cased = true;
            } else {
                prev_cased = false;
            }
            break;
        case IS_IDENTIFIER:
            if (!(p & (i == 0 ? DSL_UC_XID_START : DSL_UC_XID_CONTINUE))) return false;
            break;
        default:
            if (!(p & every[how])) return false;
        }
    }
    if (how == IS_LOWER || how == IS_UPPER || how == IS_TITLE) return cased;
    return n > 0 || how == IS_PRINTABLE;
}

static int test(struct dsl_interp *in, const struct dsl_args *a, enum test how,
                struct dsl_value *ret)
{
    const struct dsl_value *arg[MAX_ARGS];
    if (bind(in, a, &test_sigs[how], arg) != 0) return -1;
    *ret = dsl_bool(char_test(a->self.as.s->data, a->self.as.s->len, how));
    return 0;
}

#define TEST_METHOD(fn, how)                                                                       \
    static int fn(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)          \
    {                                                                                              \
        return test(in, a, how, ret);                                                              \
    }
TEST_METHOD(m_isalpha, IS_ALPHA)
TEST_METHOD(m_isalnum, IS_ALNUM)
TEST_METHOD(m_isdecimal, IS_DECIMAL)
TEST_METHOD(m_isdigit, IS_DIGIT)
TEST_METHOD(m_isnumeric, IS_NUMERIC)
TEST_METHOD(m_isspace, IS_SPACE)
TEST_METHOD(m_isprintable, IS_PRINTABLE)
TEST_METHOD(m_isascii, IS_ASCII)
TEST_METHOD(m_islower, IS_LOWER)
TEST_METHOD(m_isupper, IS_UPPER)
TEST_METHOD(m_istitle, IS_TITLE)
TEST_METHOD(m_isidentifier, IS_IDENTIFIER)

/* ---- padding ---------------------------------------------------------------------------- */

static const struct sig sig_zfill = {"zfill", ONEARG, 1, 1, {NULL}};
static const struct sig sig_center = {"center", EXPECTED, 1, 2, {NULL}};
static const struct sig sig_ljust = {"ljust", EXPECTED, 1, 2, {NULL}};
static const struct sig sig_rjust = {"rjust", EXPECTED, 1, 2, {NULL}};
static const struct sig sig_expandtabs = {"expandtabs", KEYWORDS, 0, 1, {"tabsize"}};

/* self with `left` and `right` copies of fill (UTF-8, flen bytes) around it, within the size
 * limit. */
static int padded(struct dsl_interp *in, const struct text *t, uint64_t left, uint64_t right,
                  const char *fill, size_t flen, struct dsl_value *ret)
{
    uint64_t extra = left + right;
    if (extra > (DSL_MAX_STR_BYTES - t->n) / flen)
        return dsl_raise_size(in, "string", t->n + extra * flen);
    struct dsl_str *out = dsl_str_alloc(t->n + extra * flen);
    if (!out) return dsl_raise_status(in, DSL_V_NOMEM);
    char *w = out->data;
    for (uint64_t i = 0; i < left; i++, w += flen) memcpy(w, fill, flen);
    memcpy(w, t->s, t->n);
    w += t->n;
    for (uint64_t i = 0; i < right; i++, w += flen) memcpy(w, fill, flen);
    ret->kind = DSL_STR;
    ret->as.s = out;
    return 0;
}

/* align: '<' ljust, '>' rjust, '^' center. */
static int justify(struct dsl_interp *in, const struct dsl_args *a, char align,
                   struct dsl_value *ret)
{
    const struct sig *sg = align == '^' ? &sig_center : align == '<' ? &sig_ljust : &sig_rjust;
    const struct dsl_value *arg[MAX_ARGS];
    int64_t width = 0;
    if (bind(in, a, sg, arg) != 0 || want_index(in, *arg[0], &width) != 0) return -1;
    const char *fill = " ";
    size_t flen = 1;
    if (arg[1]) {
        if (arg[1]->kind != DSL_STR)
            return dsl_raise(in, "TypeError",
                             "The fill character must be a unicode character, "
                             "not %s",
                             py_type(*arg[1]));
        fill = arg[1]->as.s->data;
        flen = arg[1]->as.s->len;
        if (flen == 0 || render_utf8_count(fill, flen) != 1)
            return dsl_raise(in, "TypeError",
                             "The fill character must be exactly one character long");
    }
    struct text t = text_of(a->self);
    if (width <= (int64_t)t.chars) return same(a->self, ret);
    uint64_t marg = (uint64_t)width - t.chars, left = 0;
    if (align == '>') left = marg;
    if (align == '^') left = marg / 2 + (marg & (uint64_t)width & 1); /* CPython's tie-break */
    return padded(in, &t, left, marg - left, fill, flen, ret);
}

static int m_center(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return justify(in, a, '^', ret);
}

static int m_ljust(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return justify(in, a, '<', ret);
}

static int m_rjust(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return justify(in, a, '>', ret);
}

static int m_zfill(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    const struct dsl_value *arg[MAX_ARGS];
    int64_t width = 0;
    if (bind(in, a, &sig_zfill, arg) != 0 || want_index(in, *arg[0], &width) != 0) return -1;
    struct text t = text_of(a->self);
    if (width <= (int64_t)t.chars) return same(a->self, ret);
    if (padded(in, &t, (uint64_t)width - t.chars, 0, "0", 1, ret) != 0) return -1;
    char *w = ret->as.s->data;
    size_t fill = (size_t)width - t.chars;
    if (t.n && (t.s[0] == '+' || t.s[0] == '-')) { /* the sign goes before the zeros */
        w[0] = t.s[0];
        w[fill] = '0';
    }
    return 0;
}

static int m_expandtabs(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    const struct dsl_value *arg[MAX_ARGS];
    int64_t tab = 8;
    if (bind(in, a, &sig_expandtabs, arg) != 0) return -1;
    if (arg[0] && want_c_int(in, *arg[0], &tab) != 0) return -1;
    const char *s = a->self.as.s->data;
    size_t n = a->self.as.s->len;
    uint64_t size = 0;
    for (int pass = 0; pass < 2; pass++) { /* the size first, checked; then the text */
        struct dsl_str *out = NULL;
        if (pass) {
            if (size > DSL_MAX_STR_BYTES) return dsl_raise_size(in, "string", size);
            if (!(out = dsl_str_alloc(size))) return dsl_raise_status(in, DSL_V_NOMEM);
        }
        uint64_t col = 0, at = 0;
        for (size_t i = 0, len; i < n; i += len) {
            dsl_utf8_decode(s + i, n - i, &len);
            if (s[i] == '\t') {
                uint64_t k = tab > 0 ? (uint64_t)tab - col % (uint64_t)tab : 0;
                if (out) memset(out->data + at, ' ', k);
                col += k, at += k;
                if (!out && at > DSL_MAX_STR_BYTES) return dsl_raise_size(in, "string", at + n);
                continue;
            }
            if (out) memcpy(out->data + at, s + i, len);
            at += len;
            col = s[i] == '\n' || s[i] == '\r' ? 0 : col + 1;
        }
        size = at;
        if (out) {
            ret->kind = DSL_STR;
            ret->as.s = out;
        }
    }
    return 0;
}

/* ---- the table ------------------------------------------------------------------------- */

#define ROW(name, sig, fn, doc)                                                                    \
    {                                                                                              \
        name, "s." sig, 0, -1, dsl_any_keywords, fn, doc                                           \
    }

const struct dsl_builtin dsl_str_methods[] = {
    ROW("capitalize", "capitalize()", m_capitalize,
        "s with its first character in title case and the rest in lower case."),
    ROW("casefold", "casefold()", m_casefold,
        "s folded for caseless comparison: lower case, and more (\"ß\" is \"ss\")."),
    ROW("center", "center(width, fillchar=\" \")", m_center,
        "s centred in width characters, padded with fillchar."),
    ROW("count", "count(sub, start=None, end=None)", m_count,
        "How many times sub occurs in s[start:end], without overlapping."),
    ROW("endswith", "endswith(suffix, start=None, end=None)", m_endswith,
        "Whether s[start:end] ends with suffix (a string, or a tuple of strings: any of them)."),
    ROW("expandtabs", "expandtabs(tabsize=8)", m_expandtabs,
        "s with each tab replaced by spaces up to the next multiple of tabsize columns."),
    ROW("find", "find(sub, start=None, end=None)", m_find,
        "The lowest index where sub occurs in s[start:end], or -1."),
    {"format", "s.format(*args, **kwargs)", 0, -1, dsl_any_keywords, m_format,
     "s with its replacement fields filled: {} takes the next positional argument, {0} the "
     "first, {name} the keyword argument name; !r / !s convert and :spec formats, as in an "
     "f-string ({:.3f}, {:>8}); {{ and }} are braces."},
    ROW("index", "index(sub, start=None, end=None)", m_index,
        "As find, but a ValueError when sub is not found."),
    ROW("isalnum", "isalnum()", m_isalnum,
        "Whether s is not empty and every character is a letter or a digit."),
    ROW("isalpha", "isalpha()", m_isalpha,
        "Whether s is not empty and every character is a letter."),
    ROW("isascii", "isascii()", m_isascii, "Whether every character of s is ASCII."),
    ROW("isdecimal", "isdecimal()", m_isdecimal,
        "Whether s is not empty and every character is a decimal digit."),
    ROW("isdigit", "isdigit()", m_isdigit,
        "Whether s is not empty and every character is a digit (\"²\" too)."),
    ROW("isidentifier", "isidentifier()", m_isidentifier,
        "Whether s is a valid name (keywords included)."),
    ROW("islower", "islower()", m_islower,
        "Whether s has a cased character and all of them are lower case."),
    ROW("isnumeric", "isnumeric()", m_isnumeric,
        "Whether s is not empty and every character is numeric (\"½\" too)."),
    ROW("isprintable", "isprintable()", m_isprintable,
        "Whether every character of s is printable (an empty s is)."),
    ROW("isspace", "isspace()", m_isspace,
        "Whether s is not empty and every character is whitespace."),
    ROW("istitle", "istitle()", m_istitle,
        "Whether s has a cased character and each word begins with its only capital."),
    ROW("isupper", "isupper()", m_isupper,
        "Whether s has a cased character and all of them are upper case."),
    ROW("join", "join(iterable)", m_join,
        "The strings of iterable joined, with s between each two: \", \".join(names)."),
    ROW("ljust", "ljust(width, fillchar=\" \")", m_ljust,
        "s padded on the right with fillchar to width characters."),
    ROW("lower", "lower()", m_lower, "s in lower case."),
    ROW("lstrip", "lstrip(chars=None)", m_lstrip,
        "s without the leading characters that are in chars (whitespace by default)."),
    ROW("partition", "partition(sep)", m_partition,
        "(before, sep, after) around the first sep in s, or (s, \"\", \"\")."),
    ROW("removeprefix", "removeprefix(prefix)", m_removeprefix,
        "s without prefix when it starts with it, else s."),
    ROW("removesuffix", "removesuffix(suffix)", m_removesuffix,
        "s without suffix when it ends with it, else s."),
    ROW("replace", "replace(old, new, count=-1)", m_replace,
        "s with each occurrence of old replaced by new (the first count of them, when given)."),
    ROW("rfind", "rfind(sub, start=None, end=None)", m_rfind,
        "The highest index where sub occurs in s[start:end], or -1."),
    ROW("rindex", "rindex(sub, start=None, end=None)", m_rindex,
        "As rfind, but a ValueError when sub is not found."),
    ROW("rjust", "rjust(width, fillchar=\" \")", m_rjust,
        "s padded on the left with fillchar to width characters."),
    ROW("rpartition", "rpartition(sep)", m_rpartition,
        "(before, sep, after) around the last sep in s, or (\"\", \"\", s)."),
    ROW("rsplit", "rsplit(sep=None, maxsplit=-1)", m_rsplit,
        "As split, the splits made from the right when maxsplit limits them."),
    ROW("rstrip", "rstrip(chars=None)", m_rstrip,
        "s without the trailing characters that are in chars (whitespace by default)."),
    ROW("split", "split(sep=None, maxsplit=-1)", m_split,
        "The list of the parts of s between the occurrences of sep (at most maxsplit splits); "
        "without sep, the words between runs of whitespace, none empty."),
    ROW("splitlines", "splitlines(keepends=False)", m_splitlines,
        "The lines of s, split at \\n, \\r\\n, \\r and the other line breaks, which stay at "
        "their ends with keepends."),
    ROW("startswith", "startswith(prefix, start=None, end=None)", m_startswith,
        "Whether s[start:end] starts with prefix (a string, or a tuple of strings: any of "
        "them)."),
    ROW("strip", "strip(chars=None)", m_strip,
        "s without the leading and trailing characters that are in chars (whitespace by "
        "default)."),
    ROW("swapcase", "swapcase()", m_swapcase, "s with upper case made lower and lower upper."),
    ROW("title", "title()", m_title,
        "s with each word's first letter in title case and the others in lower case."),
    ROW("upper", "upper()", m_upper, "s in upper case."),
    ROW("zfill", "zfill(width)", m_zfill,
        "s padded with zeros on the left to width characters, after its sign."),
};
const size_t dsl_str_method_count = sizeof dsl_str_methods / sizeof dsl_str_methods[0];

/* What CPython's str has that the language's does not, and what to use instead. */
static const struct {
    const char *name, *instead;
} unsupported[] = {
    {"encode", " (there are no bytes)"},
    {"format_map", ": use s.format(**mapping)"},
    {"maketrans", ": use replace()"},
    {"translate", ": use replace()"},
};

/* CPython's special methods of str: the operators and builtins that call them work here, the
 * attributes themselves are not there. */
static const char *const dunders[] = {
    "__add__",          "__contains__",  "__delattr__",    "__dir__",
    "__doc__",          "__eq__",        "__format__",     "__ge__",
    "__getattribute__", "__getitem__",   "__getnewargs__", "__getstate__",
    "__gt__",           "__hash__",      "__init__",       "__init_subclass__",
    "__iter__",         "__le__",        "__len__",        "__lt__",
    "__mod__",          "__mul__",       "__ne__",         "__new__",
    "__reduce__",       "__reduce_ex__", "__repr__",       "__rmod__",
    "__rmul__",         "__setattr__",   "__sizeof__",     "__str__",
    "__subclasshook__",
};

/* The closest name of a str method to name (within the edit distance the language's other
 * suggestions allow), or NULL. */
static const char *suggest(const char *name)
{
    const char *best = NULL;
    size_t best_d = 3, n = strlen(name);
    for (size_t i = 0; i < dsl_str_method_count + sizeof unsupported / sizeof *unsupported; i++) {
        const char *c = i < dsl_str_method_count ? dsl_str_methods[i].name
                                                 : unsupported[i - dsl_str_method_count].name;
        size_t d = dsl_edit_distance(name, c);
        if (d < best_d && d < n) best = c, best_d = d;
    }
    return best;
}

int dsl_str_getattr(struct dsl_interp *in, struct dsl_value v, const char *name,
                    struct dsl_value *out)
{
    for (size_t i = 0; i < dsl_str_method_count; i++)
        if (strcmp(dsl_str_methods[i].name, name) == 0) {
            int st = dsl_method_value(&dsl_str_methods[i], v, out);
            return st ? dsl_raise_status(in, st) : 0;
        }
    if (strcmp(name, "__class__") == 0) {
        *out = dsl_value_retain(dsl_type_of(v));
        return 0;
    }
    for (size_t i = 0; i < sizeof unsupported / sizeof *unsupported; i++)
        if (strcmp(unsupported[i].name, name) == 0)
            return dsl_raise(in, "NotImplementedError",
                             "str.%s() is not supported in the MiniTorch language%s", name,
                             unsupported[i].instead);
    for (size_t i = 0; i < sizeof dunders / sizeof *dunders; i++)
        if (strcmp(dunders[i], name) == 0)
            return dsl_raise(in, "NotImplementedError",
                             "str.%s is not supported in the MiniTorch language", name);
    const char *hint = suggest(name);
    if (hint)
        return dsl_raise(in, "AttributeError",
                         "'str' object has no attribute '%s'. Did you mean: '%s'?", name, hint);
    return dsl_raise(in, "AttributeError", "'str' object has no attribute '%s'", name);
}
