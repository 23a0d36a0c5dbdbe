/* format.c — Python's format(value, spec): the format specification mini-language of
 * f-strings ({x:.3f}), the format() builtin and str.format; and printf-style formatting,
 * "%.3f" % x (see operators.h).
 *
 * spec is [[fill]align][sign][z][#][0][width][grouping][.precision][type], read as CPython
 * reads it, with CPython's errors. Strings take s; ints d n b o x X c (and the float types,
 * converting); floats e E f F g G n % and none (repr-like, or like g with at least one digit
 * after the point when a precision is given); a bool with an empty spec shows as True/False and
 * otherwise as the int it is. Other values accept only an empty spec (their str). Widths count
 * characters, not bytes.
 *
 * str % args is CPython's: conversions s r a c d i u o x X e E f F g G, flags - + space # 0,
 * widths and precisions (* takes them from the arguments), %(name)s from a mapping, and its
 * errors, down to which argument is taken before an unknown conversion is refused. */
#include "lang/operators.h"

#include "lang/classes.h"
#include "lang/datamodel.h"
#include "lang/dict.h"
#include "lang/interp.h"
#include "lang/native.h"
#include "lang/unicode.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct spec {
    const char *fill; /* UTF-8 sequence of the fill character */
    size_t fill_len;
    char align; /* '<' '>' '^' '=' or 0 */
    char sign;  /* '+' '-' ' ' or 0 */
    bool z, alt, zero;
    int64_t width;     /* -1: none */
    char grouping;     /* ',' '_' or 0 */
    int64_t precision; /* -1: none */
    char type;         /* 0: none */
};

static int invalid(struct dsl_interp *in, const char *s, size_t n, const char *type)
{
    return dsl_raise(in, "ValueError", "Invalid format specifier '%.*s' for object of type '%s'",
                     (int)n, s, type);
}

/* Reads a spec; type_name names the value in errors. 0 or -1. */
static int parse_spec(struct dsl_interp *in, const char *s, size_t n, const char *type_name,
                      struct spec *sp)
{
    *sp = (struct spec){" ", 1, 0, 0, false, false, false, -1, 0, -1, 0};
    size_t i = 0;
    size_t k = n ? render_utf8_seq(s, n) : 0;
    if (k && k < n && strchr("<>=^", s[k])) {
        sp->fill = s;
        sp->fill_len = k;
        sp->align = s[k];
        i = k + 1;
    } else if (n && strchr("<>=^", s[0])) {
        sp->align = s[0];
        i = 1;
    }
    if (i < n && (s[i] == '+' || s[i] == '-' || s[i] == ' ')) sp->sign = s[i++];
    if (i < n && s[i] == 'z') sp->z = true, i++;
    if (i < n && s[i] == '#') sp->alt = true, i++;
    if (i < n && s[i] == '0') {
        sp->zero = true;
        i++;
    }
    if (i < n && s[i] >= '0' && s[i] <= '9') {
        sp->width = 0;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            if (sp->width > 100000000)
                return dsl_raise(in, "ValueError", "Too many decimal digits in format string");
            sp->width = sp->width * 10 + (s[i++] - '0');
        }
    }
    if (i < n && (s[i] == ',' || s[i] == '_')) sp->grouping = s[i++];
    if (i < n && s[i] == '.') {
        i++;
        if (i >= n || s[i] < '0' || s[i] > '9')
            return dsl_raise(in, "ValueError", "Format specifier missing precision");
        sp->precision = 0;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            if (sp->precision > 100000000)
                return dsl_raise(in, "ValueError", "Too many decimal digits in format string");
            sp->precision = sp->precision * 10 + (s[i++] - '0');
        }
    }
    if (n - i > 1) return invalid(in, s, n, type_name);
    if (i < n) sp->type = s[i];
    if (sp->zero && !sp->align) { /* 0 before the width: pad with zeros after the sign */
        sp->fill = "0";
        sp->fill_len = 1;
        sp->align = '=';
    }
    return 0;
}

/* Appends body (UTF-8) padded to the spec's width: prefix (a sign, 0x) goes before the fill
 * under '=' alignment. default_align: '<' for strings, '>' for numbers. */
static int pad(struct dsl_interp *in, struct render_buf *b, const struct spec *sp,
               const char *prefix, const char *body, size_t body_len, char default_align)
{
    size_t plen = strlen(prefix);
    int64_t chars = (int64_t)(render_utf8_count(prefix, plen) + render_utf8_count(body, body_len));
    int64_t fill = sp->width > chars ? sp->width - chars : 0;
    char align = sp->align ? sp->align : default_align;
    int64_t left = align == '>' || align == '=' ? fill : align == '^' ? fill / 2 : 0;
    int64_t right = fill - left;
    if ((uint64_t)fill * sp->fill_len > DSL_MAX_STR_BYTES)
        return dsl_raise_size(in, "string", (uint64_t)fill * sp->fill_len);
    if (align != '=') {
        for (int64_t i = 0; i < left; i++) render_buf_append(b, sp->fill, sp->fill_len);
        render_buf_puts(b, prefix);
    } else {
        render_buf_puts(b, prefix);
        for (int64_t i = 0; i < left; i++) render_buf_append(b, sp->fill, sp->fill_len);
    }
    render_buf_append(b, body, body_len);
    for (int64_t i = 0; i < right; i++) render_buf_append(b, sp->fill, sp->fill_len);
    return 0;
}

/* Appends the digits digits[0..n) grouped by `every` with separator sep (0: none). */
static void grouped(struct render_buf *b, const char *digits, size_t n, char sep, size_t every)
{
    for (size_t i = 0; i < n; i++) {
        render_buf_putc(b, digits[i]);
        size_t rest = n - i - 1;
        if (sep && rest && rest % every == 0) render_buf_putc(b, sep);
    }
}

static int format_str(struct dsl_interp *in, struct render_buf *b, const char *s, size_t n,
                      const struct spec *sp)
{
    if (sp->type && sp->type != 's')
        return dsl_raise(in, "ValueError", "Unknown format code '%c' for object of type 'str'",
                         sp->type);
    if (sp->sign) return dsl_raise(in, "ValueError", "Sign not allowed in string format specifier");
    if (sp->alt)
        return dsl_raise(in, "ValueError",
                         "Alternate form (#) not allowed in string format specifier");
    if (sp->align == '=')
        return dsl_raise(in, "ValueError", "'=' alignment not allowed in string format specifier");
    if (sp->grouping)
        return dsl_raise(in, "ValueError", "Cannot specify '%c' with 's'.", sp->grouping);
    if (sp->precision >= 0) { /* at most that many characters */
        size_t off = 0;
        for (int64_t c = 0; c < sp->precision && off < n; c++) {
            size_t k = render_utf8_seq(s + off, n - off);
            off += k ? k : 1;
        }
        n = off;
    }
    return pad(in, b, sp, "", s, n, '<');
}

static int format_float(struct dsl_interp *in, struct render_buf *b, double x,
                        const struct spec *sp, const char *type_name)
{
    char type = sp->type;
    if (type && !strchr("eEfFgGn%", type))
        return dsl_raise(in, "ValueError", "Unknown format code '%c' for object of type '%s'", type,
                         type_name);
    if (sp->z && x == 0.0) x = 0.0; /* z: no negative zero */
    bool neg = signbit(x) && !isnan(x);
    double a = fabs(x);
    int prec = sp->precision < 0 ? 6 : sp->precision > 1000 ? 1000 : (int)sp->precision;
    char *num = malloc((size_t)prec + 400);
    if (!num) return dsl_raise_status(in, DSL_V_NOMEM);
    size_t cap = (size_t)prec + 400;
    if (type == '%') a *= 100.0;
    if (!isfinite(a)) {
        bool upper = type == 'E' || type == 'F' || type == 'G';
        snprintf(num, cap, "%s", isnan(a) ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf"));
    } else if (type == 'f' || type == 'F' || type == '%') {
        snprintf(num, cap, "%.*f", prec, a);
    } else if (type == 'e' || type == 'E') {
        snprintf(num, cap, sp->alt && prec == 0 ? "%#.*e" : "%.*e", prec, a);
        if (type == 'E') *strchr(num, 'e') = 'E';
    } else if (type == 'g' || type == 'G' || type == 'n') {
        snprintf(num, cap, sp->alt ? "%#.*g" : "%.*g", prec ? prec : 1, a);
        if (type == 'G' && strchr(num, 'e')) *strchr(num, 'e') = 'E';
    } else if (sp->precision < 0) { /* none: repr */
        render_float_repr(a, num, cap);
    } else {
        /* none with a precision: like g, but scientific from an exponent of prec - 1 and always
         * a digit after the point */
        int p = prec ? prec : 1;
        snprintf(num, cap, "%.*e", p - 1, a);
        int exp = atoi(strchr(num, 'e') + 1);
        if (exp >= -4 && exp < p - 1) {
            snprintf(num, cap, "%.*f", p - 1 - exp, a);
            char *end = num + strlen(num);
            if (strchr(num, '.')) {
                while (end[-1] == '0') *--end = '\0';
                if (end[-1] == '.') *end++ = '0', *end = '\0';
            } else {
                strcat(num, ".0");
            }
        } else {
            char *e = strchr(num, 'e'), *m = e;
            if (strchr(num, '.')) {
                while (m[-1] == '0') m--;
                if (m[-1] == '.') m--;
            }
            memmove(m, e, strlen(e) + 1);
        }
    }
    if (type == '%') strcat(num, "%");
    /* the digits before the point take the grouping */
    struct render_buf body;
    render_buf_init(&body, 0);
    size_t int_len = strspn(num, "0123456789");
    if (sp->grouping && isfinite(a)) {
        grouped(&body, num, int_len, sp->grouping, 3);
        render_buf_puts(&body, num + int_len);
    } else {
        render_buf_puts(&body, num);
    }
    free(num);
    char prefix[2] = {neg ? '-' : sp->sign == '+' ? '+' : sp->sign == ' ' ? ' ' : '\0', '\0'};
    int r = body.nomem ? dsl_raise_status(in, DSL_V_NOMEM)
                       : pad(in, b, sp, prefix, render_buf_str(&body), body.len, '>');
    render_buf_free(&body);
    return r;
}

static int format_int(struct dsl_interp *in, struct render_buf *b, int64_t v, const struct spec *sp,
                      const char *type_name)
{
    char type = sp->type;
    if (type && strchr("eEfFgG%", type)) return format_float(in, b, (double)v, sp, type_name);
    if (type && !strchr("dnbcoxX", type))
        return dsl_raise(in, "ValueError", "Unknown format code '%c' for object of type '%s'", type,
                         type_name);
    if (sp->precision >= 0)
        return dsl_raise(in, "ValueError", "Precision not allowed in integer format specifier");
    if (sp->z)
        return dsl_raise(in, "ValueError",
                         "Negative zero coercion (z) not allowed in integer format specifier");
    if (sp->grouping == ',' && type && type != 'd')
        return dsl_raise(in, "ValueError", "Cannot specify ',' with '%c'.", type);
    if (type == 'c') {
        if (sp->sign)
            return dsl_raise(in, "ValueError",
                             "Sign not allowed with integer format specifier 'c'");
        if (v < 0 || v > 0x10FFFF)
            return dsl_raise(in, "OverflowError", "%%c arg not in range(0x110000)");
        char u[5] = {0};
        uint32_t c = (uint32_t)v;
        if (c < 0x80) {
            u[0] = (char)c;
        } else if (c < 0x800) {
            u[0] = (char)(0xC0 | (c >> 6)), u[1] = (char)(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            u[0] = (char)(0xE0 | (c >> 12)), u[1] = (char)(0x80 | ((c >> 6) & 0x3F));
            u[2] = (char)(0x80 | (c & 0x3F));
        } else {
            u[0] = (char)(0xF0 | (c >> 18)), u[1] = (char)(0x80 | ((c >> 12) & 0x3F));
            u[2] = (char)(0x80 | ((c >> 6) & 0x3F)), u[3] = (char)(0x80 | (c & 0x3F));
        }
        return pad(in, b, sp, "", u, strlen(u), '>');
    }
    uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    unsigned base = type == 'b' ? 2 : type == 'o' ? 8 : (type == 'x' || type == 'X') ? 16 : 10;
    const char *dig = type == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
    char digits[70];
    size_t nd = 0;
    do {
        digits[sizeof digits - 1 - nd++] = dig[mag % base];
        mag /= base;
    } while (mag);
    char prefix[8];
    size_t pl = 0;
    if (v < 0)
        prefix[pl++] = '-';
    else if (sp->sign == '+' || sp->sign == ' ')
        prefix[pl++] = sp->sign;
    if (sp->alt && base != 10) {
        prefix[pl++] = '0';
        prefix[pl++] = type;
    }
    prefix[pl] = '\0';
    struct render_buf body;
    render_buf_init(&body, 0);
    grouped(&body, digits + sizeof digits - nd, nd, sp->grouping, base == 10 ? 3 : 4);
    int r = body.nomem ? dsl_raise_status(in, DSL_V_NOMEM)
                       : pad(in, b, sp, prefix, render_buf_str(&body), body.len, '>');
    render_buf_free(&body);
    return r;
}

/* The type name Python's format errors use. */
static const char *py_type_name(struct dsl_value v)
{
    return v.kind == DSL_NONE ? "NoneType" : dsl_type_name(v);
}

int dsl_format(struct dsl_interp *in, struct render_buf *b, struct dsl_value v, const char *spec,
               size_t n)
{
    struct dsl_value fn;
    if (v.kind == DSL_INSTANCE && dsl_class_special(v.as.inst->cls.as.cls, "__format__", &fn)) {
        struct dsl_value arg, s;
        if (dsl_str_value(spec, n, &arg) != DSL_V_OK) return dsl_raise_status(in, DSL_V_NOMEM);
        int r = dsl_call_method(in, fn, v, &arg, 1, NULL, NULL, 0, &s);
        dsl_value_release(arg);
        if (r != 0) return -1;
        if (s.kind != DSL_STR) {
            dsl_raise(in, "TypeError", "__format__ must return a str, not %s", dsl_type_name(s));
            dsl_value_release(s);
            return -1;
        }
        render_buf_append(b, s.as.s->data, s.as.s->len);
        dsl_value_release(s);
        return b->nomem ? dsl_raise_status(in, DSL_V_NOMEM) : 0;
    }
    bool is_str = v.kind == DSL_STR, is_num = dsl_is_number(v);
    if (n == 0 || (!is_str && !is_num)) {
        if (n)
            return dsl_raise(in, "TypeError", "unsupported format string passed to %s.__format__",
                             py_type_name(v));
        return dsl_str_of(in, b, v);
    }
    struct spec sp;
    if (parse_spec(in, spec, n, py_type_name(v), &sp) != 0) return -1;
    int r = is_str                ? format_str(in, b, v.as.s->data, v.as.s->len, &sp)
            : v.kind == DSL_FLOAT ? format_float(in, b, v.as.f, &sp, "float")
                                  : format_int(in, b, dsl_as_int(v), &sp, py_type_name(v));
    if (r == 0 && (b->nomem || b->over))
        return b->over ? dsl_raise_size(in, "string", b->len) : dsl_raise_status(in, DSL_V_NOMEM);
    return r;
}

int dsl_bi_format(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value spec = a->slot[1];
    if (a->has[1] && spec.kind != DSL_STR)
        return dsl_raise(in, "TypeError", "format() argument 2 must be str, not %s",
                         dsl_type_name(spec));
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_STR_BYTES);
    int r = a->has[1] ? dsl_format(in, &b, a->slot[0], spec.as.s->data, spec.as.s->len)
                      : dsl_format(in, &b, a->slot[0], "", 0);
    if (r == 0 && dsl_str_value(render_buf_str(&b), b.len, ret) != DSL_V_OK)
        r = dsl_raise_status(in, DSL_V_NOMEM);
    render_buf_free(&b);
    return r;
}

/* ---- printf-style formatting: "%.3f %s" % (x, name) ------------------------------------- */

/* Where the conversions take their values, as CPython's str % keeps it: a tuple's items in
 * turn, or a single value once (arglen -1, argidx -2 until it is taken); `mapping` is the
 * right operand when it can be subscripted by a key (%(name)s), else none. A %(name) field's
 * value becomes the single value of that field, and positional values are over from then on,
 * as in CPython. */
struct pct {
    struct dsl_value args; /* borrowed, or owned when `owned` (a value found by key) */
    bool owned;
    int64_t argidx, arglen;
    struct dsl_value mapping; /* borrowed */
};

static int next_arg(struct dsl_interp *in, struct pct *p, struct dsl_value *out)
{
    if (p->argidx >= p->arglen)
        return dsl_raise(in, "TypeError", "not enough arguments for format string");
    int64_t i = p->argidx++;
    *out = p->arglen < 0 ? p->args : p->args.as.l->items[i];
    return 0;
}

/* Whether CPython would take v as a mapping for %(name) fields: what can be subscripted, but
 * not a tuple or a string (so "%s" % [1] formats the list, and "abc" % [] is "abc"). */
static bool is_mapping(struct dsl_value v)
{
    struct dsl_value fn;
    switch (v.kind) {
    case DSL_DICT:
    case DSL_RANGE: return true;
    case DSL_LIST: return !dsl_is_tuple(v);
    case DSL_OBJECT: return v.as.obj->cls->getitem != NULL;
    case DSL_INSTANCE: return dsl_class_special(v.as.inst->cls.as.cls, "__getitem__", &fn);
    default: return false;
    }
}

/* mapping[key]: a new value in *out. 0 or -1. */
static int mapping_get(struct dsl_interp *in, struct dsl_value m, struct dsl_value key,
                       struct dsl_value *out)
{
    switch (m.kind) {
    case DSL_DICT: {
        struct dsl_value *slot;
        if (dsl_dict_lookup(in, m.as.d, key, &slot) != 0) return -1;
        if (!slot) return dsl_dict_raise_key(in, key);
        *out = dsl_value_retain(*slot);
        return 0;
    }
    case DSL_OBJECT: return m.as.obj->cls->getitem(in, m, key, out);
    case DSL_INSTANCE: return dsl_instance_getitem(in, m, key, out);
    default:
        return dsl_raise(in, "TypeError", "%s indices must be integers or slices, not str",
                         dsl_type_name(m));
    }
}

/* One conversion's flags, width and precision. */
struct conv {
    bool left, plus, space, alt, zero;
    int64_t width; /* 0: none */
    int64_t prec;  /* -1: none */
};

/* Appends text (UTF-8) padded with spaces to the width: strings, %c and the numbers' bodies
 * that do not pad with zeros. */
static int pct_pad(struct dsl_interp *in, struct render_buf *b, const struct conv *cv,
                   const char *text, size_t n)
{
    int64_t chars = (int64_t)render_utf8_count(text, n);
    int64_t fill = cv->width > chars ? cv->width - chars : 0;
    if ((uint64_t)fill > DSL_MAX_STR_BYTES) return dsl_raise_size(in, "string", (uint64_t)fill + n);
    for (int64_t i = 0; !cv->left && i < fill; i++) render_buf_putc(b, ' ');
    render_buf_append(b, text, n);
    for (int64_t i = 0; cv->left && i < fill; i++) render_buf_putc(b, ' ');
    return 0;
}

/* Appends a number: sign and prefix ("0x"), then digits, padded as CPython pads: spaces before
 * the sign, or with the 0 flag zeros after the prefix; left-justified with '-'. */
static int pct_number(struct dsl_interp *in, struct render_buf *b, const struct conv *cv, bool neg,
                      const char *prefix, const char *digits, size_t nd)
{
    char sign[2] = {neg ? '-' : cv->plus ? '+' : cv->space ? ' ' : '\0', '\0'};
    size_t plen = strlen(sign) + strlen(prefix);
    int64_t fill = cv->width > (int64_t)(plen + nd) ? cv->width - (int64_t)(plen + nd) : 0;
    if ((uint64_t)fill > DSL_MAX_STR_BYTES)
        return dsl_raise_size(in, "string", (uint64_t)fill + plen + nd);
    bool zeros = cv->zero && !cv->left;
    for (int64_t i = 0; !cv->left && !zeros && i < fill; i++) render_buf_putc(b, ' ');
    render_buf_puts(b, sign);
    render_buf_puts(b, prefix);
    for (int64_t i = 0; zeros && i < fill; i++) render_buf_putc(b, '0');
    render_buf_append(b, digits, nd);
    for (int64_t i = 0; cv->left && i < fill; i++) render_buf_putc(b, ' ');
    return 0;
}

/* %d %i %u %o %x %X: an int, or for d i u a float (truncated: its digits exactly, however
 * large). */
static int pct_int(struct dsl_interp *in, struct render_buf *b, const struct conv *cv, char c,
                   struct dsl_value v)
{
    bool decimal = c == 'd' || c == 'i' || c == 'u';
    if (!dsl_is_intlike(v) && !(decimal && v.kind == DSL_FLOAT))
        return dsl_raise(in, "TypeError", "%%%c format: %s is required, not %s", c,
                         decimal ? "a real number" : "an integer", py_type_name(v));
    char digits[400];
    size_t nd;
    bool neg;
    if (v.kind == DSL_FLOAT) {
        double f = trunc(v.as.f);
        if (isinf(f))
            return dsl_raise(in, "OverflowError", "cannot convert float infinity to integer");
        if (isnan(f)) return dsl_raise(in, "ValueError", "cannot convert float NaN to integer");
        neg = f < 0;
        nd = (size_t)snprintf(digits, sizeof digits, "%.0f", fabs(f));
    } else {
        int64_t x = dsl_as_int(v);
        neg = x < 0;
        uint64_t mag = neg ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
        nd = (size_t)snprintf(digits, sizeof digits,
                              c == 'o'   ? "%llo"
                              : c == 'x' ? "%llx"
                              : c == 'X' ? "%llX"
                                         : "%llu",
                              (unsigned long long)mag);
    }
    const char *prefix = !cv->alt || decimal ? "" : c == 'o' ? "0o" : c == 'x' ? "0x" : "0X";
    if (cv->prec > (int64_t)nd) { /* the precision is the fewest digits, zeros before */
        if ((uint64_t)cv->prec > DSL_MAX_STR_BYTES)
            return dsl_raise_size(in, "string", (uint64_t)cv->prec);
        struct render_buf z;
        render_buf_init(&z, 0);
        for (int64_t i = (int64_t)nd; i < cv->prec; i++) render_buf_putc(&z, '0');
        render_buf_append(&z, digits, nd);
        int r = z.nomem ? dsl_raise_status(in, DSL_V_NOMEM)
                        : pct_number(in, b, cv, neg, prefix, render_buf_str(&z), z.len);
        render_buf_free(&z);
        return r;
    }
    return pct_number(in, b, cv, neg, prefix, digits, nd);
}

/* C's digits of x >= 0 for conversion c with the # flag (alt) and precision prec: snprintf's
 * count. */
static int float_digits(char *buf, size_t cap, char c, bool alt, int prec, double x)
{
    switch (c) {
    case 'e':
        return alt ? snprintf(buf, cap, "%#.*e", prec, x) : snprintf(buf, cap, "%.*e", prec, x);
    case 'E':
        return alt ? snprintf(buf, cap, "%#.*E", prec, x) : snprintf(buf, cap, "%.*E", prec, x);
    case 'f':
        return alt ? snprintf(buf, cap, "%#.*f", prec, x) : snprintf(buf, cap, "%.*f", prec, x);
    case 'F':
        return alt ? snprintf(buf, cap, "%#.*F", prec, x) : snprintf(buf, cap, "%.*F", prec, x);
    case 'g':
        return alt ? snprintf(buf, cap, "%#.*g", prec, x) : snprintf(buf, cap, "%.*g", prec, x);
    default:
        return alt ? snprintf(buf, cap, "%#.*G", prec, x) : snprintf(buf, cap, "%.*G", prec, x);
    }
}

/* %e %E %f %F %g %G of a number, with C's digits (the same as CPython's, both exact). */
static int pct_float(struct dsl_interp *in, struct render_buf *b, const struct conv *cv, char c,
                     struct dsl_value v)
{
    if (!dsl_is_number(v))
        return dsl_raise(in, "TypeError", "must be real number, not %s", py_type_name(v));
    double x = dsl_as_double(v);
    bool upper = c == 'E' || c == 'F' || c == 'G';
    if (!isfinite(x)) /* no sign on a NaN, as CPython shows it */
        return pct_number(in, b, cv, isinf(x) && x < 0, "",
                          isnan(x) ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf"), 3);
    int prec = cv->prec < 0 ? 6 : (int)cv->prec;
    int n = float_digits(NULL, 0, c, cv->alt, prec, fabs(x));
    if (n < 0 || (size_t)n > DSL_MAX_STR_BYTES)
        return dsl_raise_size(in, "string", n < 0 ? (uint64_t)DSL_MAX_STR_BYTES + 1 : (uint64_t)n);
    char *digits = malloc((size_t)n + 1);
    if (!digits) return dsl_raise_status(in, DSL_V_NOMEM);
    float_digits(digits, (size_t)n + 1, c, cv->alt, prec, fabs(x));
    int r = pct_number(in, b, cv, signbit(x), "", digits, (size_t)n);
    free(digits);
    return r;
}

/* %c: an int in range(0x110000), or a string of one character. */
static int pct_char(struct dsl_interp *in, struct render_buf *b, const struct conv *cv,
                    struct dsl_value v)
{
    char u[4];
    size_t n;
    if (dsl_is_intlike(v)) {
        int64_t x = dsl_as_int(v);
        if (x < 0 || x > 0x10FFFF)
            return dsl_raise(in, "OverflowError", "%%c arg not in range(0x110000)");
        n = dsl_utf8_encode((uint32_t)x, u);
        return pct_pad(in, b, cv, u, n);
    }
    if (v.kind == DSL_STR && v.as.s->len && render_utf8_count(v.as.s->data, v.as.s->len) == 1)
        return pct_pad(in, b, cv, v.as.s->data, v.as.s->len);
    return dsl_raise(in, "TypeError", "%%c requires int or char");
}

/* Appends ascii(): the repr text t with every non-ASCII character escaped (\xe9, \u20ac,
 * \U0001f600). */
static void ascii_escape(struct render_buf *b, const char *t, size_t n)
{
    for (size_t i = 0, len; i < n; i += len) {
        uint32_t c = dsl_utf8_decode(t + i, n - i, &len);
        if (c < 0x80)
            render_buf_putc(b, (char)c);
        else
            render_buf_printf(b, c < 0x100 ? "\\x%02x" : c < 0x10000 ? "\\u%04x" : "\\U%08x", c);
    }
}

/* %s %r %a: the value's text, cut to the precision in characters. */
static int pct_text(struct dsl_interp *in, struct render_buf *b, const struct conv *cv, char c,
                    struct dsl_value v)
{
    struct render_buf t;
    render_buf_init(&t, DSL_MAX_STR_BYTES);
    int st = c == 's' ? dsl_value_str(&t, v) : dsl_value_repr(&t, v);
    if (st == DSL_V_OK && c == 'a') {
        struct render_buf e;
        render_buf_init(&e, DSL_MAX_STR_BYTES);
        ascii_escape(&e, render_buf_str(&t), t.len);
        render_buf_free(&t);
        t = e;
        if (t.over || t.nomem) st = t.over ? DSL_V_TOOBIG : DSL_V_NOMEM;
    }
    if (st != DSL_V_OK) {
        render_buf_free(&t);
        return dsl_raise_status(in, st);
    }
    size_t n = t.len;
    if (cv->prec >= 0) {
        const char *s = render_buf_str(&t);
        size_t off = 0;
        for (int64_t k = 0; k < cv->prec && off < n; k++) {
            size_t len;
            dsl_utf8_decode(s + off, n - off, &len);
            off += len;
        }
        n = off;
    }
    int r = pct_pad(in, b, cv, render_buf_str(&t), n);
    render_buf_free(&t);
    return r;
}

/* A '*' width or precision: the next value, an int. */
static int star_arg(struct dsl_interp *in, struct pct *p, int64_t *out)
{
    struct dsl_value v;
    if (next_arg(in, p, &v) != 0) return -1;
    if (!dsl_is_intlike(v)) return dsl_raise(in, "TypeError", "* wants int");
    *out = dsl_as_int(v);
    return 0;
}

/* Reads the conversion at fmt[*i] (just after its '%') and appends it. 0 or -1. */
static int pct_convert(struct dsl_interp *in, struct render_buf *b, const char *fmt, size_t n,
                       size_t *i, struct pct *p)
{
    size_t k = *i;
    if (k < n && fmt[k] == '(') { /* %(name)s: the key runs to the ')' balancing its '(' */
        if (p->mapping.kind == DSL_NONE)
            return dsl_raise(in, "TypeError", "format requires a mapping");
        size_t start = ++k, depth = 1;
        for (; k < n; k++) {
            if (fmt[k] == '(') depth++;
            if (fmt[k] == ')' && --depth == 0) break;
        }
        if (k == n) return dsl_raise(in, "ValueError", "incomplete format key");
        struct dsl_value key, v;
        if (dsl_str_value(fmt + start, k - start, &key) != DSL_V_OK)
            return dsl_raise_status(in, DSL_V_NOMEM);
        int r = mapping_get(in, p->mapping, key, &v);
        dsl_value_release(key);
        if (r != 0) return -1;
        if (p->owned) dsl_value_release(p->args);
        p->args = v;
        p->owned = true;
        p->arglen = -1;
        p->argidx = -2;
        k++;
    }
    struct conv cv = {.prec = -1};
    for (; k < n; k++) {
        char f = fmt[k];
        if (f == '-')
            cv.left = true;
        else if (f == '+')
            cv.plus = true;
        else if (f == ' ')
            cv.space = true;
        else if (f == '#')
            cv.alt = true;
        else if (f == '0')
            cv.zero = true;
        else
            break;
    }
    if (k < n && fmt[k] == '*') {
        if (star_arg(in, p, &cv.width) != 0) return -1;
        if (cv.width < 0) { /* a negative width left-justifies */
            cv.left = true;
            cv.width = cv.width == INT64_MIN ? INT64_MAX : -cv.width;
        }
        k++;
    } else {
        for (; k < n && fmt[k] >= '0' && fmt[k] <= '9'; k++) {
            if (cv.width > (INT64_MAX - (fmt[k] - '0')) / 10)
                return dsl_raise(in, "ValueError", "width too big");
            cv.width = cv.width * 10 + (fmt[k] - '0');
        }
    }
    if (k < n && fmt[k] == '.') {
        cv.prec = 0;
        if (++k < n && fmt[k] == '*') {
            if (star_arg(in, p, &cv.prec) != 0) return -1;
            if (cv.prec > INT32_MAX || cv.prec < INT32_MIN) /* CPython keeps it in a C int */
                return dsl_raise(in, "OverflowError", "Python int too large to convert to C int");
            if (cv.prec < 0) cv.prec = 0;
            k++;
        } else {
            for (; k < n && fmt[k] >= '0' && fmt[k] <= '9'; k++) {
                if (cv.prec > (INT32_MAX - (fmt[k] - '0')) / 10)
                    return dsl_raise(in, "ValueError", "precision too big");
                cv.prec = cv.prec * 10 + (fmt[k] - '0');
            }
        }
    }
    while (k < n && (fmt[k] == 'h' || fmt[k] == 'l' || fmt[k] == 'L')) k++; /* C's, ignored */
    if (k == n) return dsl_raise(in, "ValueError", "incomplete format");
    size_t len;
    uint32_t c = dsl_utf8_decode(fmt + k, n - k, &len);
    *i = k + len;
    struct dsl_value v;
    if (next_arg(in, p, &v) != 0) return -1; /* taken before the character is looked at */
    switch (c) {
    case 's':
    case 'r':
    case 'a': return pct_text(in, b, &cv, (char)c, v);
    case 'c': return pct_char(in, b, &cv, v);
    case 'd':
    case 'i':
    case 'u':
    case 'o':
    case 'x':
    case 'X': return pct_int(in, b, &cv, (char)c, v);
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G': return pct_float(in, b, &cv, (char)c, v);
    default:
        return dsl_raise(in, "ValueError", "unsupported format character '%c' (0x%x) at index %zu",
                         c >= 32 && c < 127 ? (char)c : '?', (unsigned)c,
                         render_utf8_count(fmt, k));
    }
}

int dsl_str_percent(struct dsl_interp *in, struct dsl_value fmt, struct dsl_value args,
                    struct dsl_value *out)
{
    struct pct p = {.args = args, .arglen = -1, .argidx = -2, .mapping = dsl_none()};
    if (dsl_is_tuple(args)) p.arglen = (int64_t)args.as.l->len, p.argidx = 0;
    if (is_mapping(args)) p.mapping = args;
    const char *s = fmt.as.s->data;
    size_t n = fmt.as.s->len;
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_STR_BYTES);
    int r = 0;
    for (size_t i = 0; i < n && r == 0 && !b.over && !b.nomem;) {
        const char *pc = memchr(s + i, '%', n - i);
        size_t lit = pc ? (size_t)(pc - (s + i)) : n - i;
        render_buf_append(&b, s + i, lit);
        i += lit;
        if (i == n) break;
        if (i + 1 < n && s[i + 1] == '%') { /* %% */
            render_buf_putc(&b, '%');
            i += 2;
            continue;
        }
        i++;
        r = pct_convert(in, &b, s, n, &i, &p);
    }
    if (p.owned) dsl_value_release(p.args);
    if (r == 0 && p.argidx < p.arglen && p.mapping.kind == DSL_NONE)
        r = dsl_raise(in, "TypeError", "not all arguments converted during string formatting");
    if (r == 0 && (b.over || b.nomem))
        r = b.over ? dsl_raise_size(in, "string", (uint64_t)b.len + 1)
                   : dsl_raise_status(in, DSL_V_NOMEM);
    if (r == 0 && dsl_str_value(render_buf_str(&b), b.len, out) != DSL_V_OK)
        r = dsl_raise_status(in, DSL_V_NOMEM);
    render_buf_free(&b);
    return r;
}
