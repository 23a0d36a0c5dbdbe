/* format.c — Python's format(value, spec): the format specification mini-language of
 * f-strings ({x:.3f}), the format() builtin and str.format (see operators.h).
 *
 * spec is [[fill]align][sign][z][#][0][width][grouping][.precision][type], read as CPython
 * reads it, with CPython's errors. Strings take s; ints d n b o x X c (and the float types,
 * converting); floats e E f F g G n % and none (repr-like, or like g with at least one digit
 * after the point when a precision is given); a bool with an empty spec shows as True/False and
 * otherwise as the int it is. Other values accept only an empty spec (their str). Widths count
 * characters, not bytes. */
#include "lang/operators.h"

#include "lang/interp.h"
#include "lang/native.h"

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
