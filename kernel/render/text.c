/* text.c — the text renderer: byte buffers, Python-style reprs and text/plain bundles.
 *
 * The language shows values the way Python does, so float and string reprs follow CPython:
 * floats use the shortest digits that read back to the same double, printed fixed for
 * exponents in [-4, 16) and in scientific notation otherwise; strings pick single quotes and
 * escape control characters. Jansson accepts only valid UTF-8, so every user text
 * that becomes JSON passes through render_json_string, which repairs bad bytes. */
#include "render/render.h"

#include "minitorch/minitorch.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void render_buf_init(struct render_buf *b, size_t limit)
{
    memset(b, 0, sizeof *b);
    b->limit = limit;
}

void render_buf_free(struct render_buf *b)
{
    free(b->data);
    size_t limit = b->limit;
    render_buf_init(b, limit);
}

static int buf_reserve(struct render_buf *b, size_t extra)
{
    if (render_buf_failed(b)) return -1;
    if (extra > SIZE_MAX / 2 - b->len || (b->limit && b->len + extra > b->limit)) {
        b->over = true;
        return -1;
    }
    size_t need = b->len + extra + 1;
    if (need <= b->cap) return 0;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need) cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) {
        b->nomem = true;
        return -1;
    }
    b->data = p;
    b->cap = cap;
    return 0;
}

int render_buf_append(struct render_buf *b, const char *s, size_t n)
{
    if (buf_reserve(b, n) != 0) return -1;
    if (n) memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 0;
}

int render_buf_puts(struct render_buf *b, const char *s)
{
    return render_buf_append(b, s, strlen(s));
}

int render_buf_putc(struct render_buf *b, char c) { return render_buf_append(b, &c, 1); }

int render_buf_printf(struct render_buf *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->nomem = true;
        return -1;
    }
    if ((size_t)n < sizeof small) return render_buf_append(b, small, (size_t)n);
    if (buf_reserve(b, (size_t)n) != 0) return -1;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
    return 0;
}

char *render_buf_take(struct render_buf *b)
{
    if (render_buf_failed(b)) {
        render_buf_free(b);
        return NULL;
    }
    char *s = b->data;
    if (!s) s = strdup("");
    size_t limit = b->limit;
    render_buf_init(b, limit);
    return s;
}

const char *render_buf_str(const struct render_buf *b) { return b->data ? b->data : ""; }

double render_time_unit(double seconds, const char **name)
{
    static const struct {
        double scale;
        const char *name;
    } units[] = {{1.0, "s"}, {1e-3, "ms"}, {1e-6, "\xc2\xb5s"}, {1e-9, "ns"}};
    size_t i = 0;
    while (i + 1 < sizeof units / sizeof units[0] && seconds < units[i].scale) i++;
    *name = units[i].name;
    return units[i].scale;
}

size_t render_float_repr(double v, char *out, size_t cap)
{
    int n;
    if (isnan(v)) {
        n = snprintf(out, cap, "nan");
    } else if (isinf(v)) {
        n = snprintf(out, cap, "%s", v < 0 ? "-inf" : "inf");
    } else if (v == 0.0) {
        n = snprintf(out, cap, "%s", signbit(v) ? "-0.0" : "0.0");
    } else {
        /* The shortest %e form that reads back exactly. Trying each precision from 0 took up to
         * 17 printf/strtod pairs a number (a float32's value needs 17 digits as a double), which
         * made str() of a long list slow. Three suffice: when some p + 1 <= 15 digits read back, v
         * lies within half an ulp (2^-53 v) of that decimal, nearer than half the 15-digit spacing
         * (over 5e-16 v), so %.14e is that decimal padded with zeros, which are cut below;
         * otherwise 16 digits, else 17, which always read back. A subnormal's ulp is larger
         * than that (5e-324 reads back from one digit): every precision is tried there. */
        char e[40];
        for (int prec = fabs(v) < DBL_MIN ? 0 : 14; prec < 17; prec++) {
            snprintf(e, sizeof e, "%.*e", prec, v);
            if (strtod(e, NULL) == v) break;
        }
        bool neg = e[0] == '-';
        char digits[24];
        size_t nd = 0;
        const char *p = e + (neg ? 1 : 0);
        for (; *p && *p != 'e' && nd < sizeof digits - 1; p++)
            if (*p >= '0' && *p <= '9') digits[nd++] = *p;
        while (nd > 1 && digits[nd - 1] == '0') nd--;
        digits[nd] = '\0';
        int exp = *p == 'e' ? atoi(p + 1) : 0;
        char body[48];
        size_t k = 0;
        if (exp >= -4 && exp < 16) {
            if (exp >= 0) {
                for (int i = 0; i <= exp; i++) body[k++] = (size_t)i < nd ? digits[i] : '0';
                body[k++] = '.';
                if ((size_t)exp + 1 < nd) {
                    for (size_t i = (size_t)exp + 1; i < nd; i++) body[k++] = digits[i];
                } else {
                    body[k++] = '0';
                }
            } else {
                body[k++] = '0';
                body[k++] = '.';
                for (int i = 0; i < -exp - 1; i++) body[k++] = '0';
                for (size_t i = 0; i < nd; i++) body[k++] = digits[i];
            }
            body[k] = '\0';
        } else {
            body[k++] = digits[0];
            if (nd > 1) {
                body[k++] = '.';
                for (size_t i = 1; i < nd; i++) body[k++] = digits[i];
            }
            snprintf(body + k, sizeof body - k, "e%c%02d", exp < 0 ? '-' : '+', abs(exp));
        }
        n = snprintf(out, cap, "%s%s", neg ? "-" : "", body);
    }
    if (n < 0) return 0;
    return (size_t)n < cap ? (size_t)n : cap ? cap - 1 : 0;
}

size_t render_float32_repr(float v, char *out, size_t cap)
{
    char buf[320]; /* what gcc's -Wformat-truncation assumes %.9g of a double may need */
    int n;
    if (isnan(v)) {
        n = snprintf(buf, sizeof buf, "nan");
    } else if (isinf(v)) {
        n = snprintf(buf, sizeof buf, "%s", v < 0 ? "-inf" : "inf");
    } else {
        /* 9 significant digits always read back; binary search for the fewest that do (more
         * digits never read back worse), so a tolist() of random values costs ~4 printfs each */
        int lo = 1, hi = 9;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            snprintf(buf, sizeof buf, "%.*g", mid, (double)v);
            if (strtof(buf, NULL) == v)
                hi = mid;
            else
                lo = mid + 1;
        }
        n = snprintf(buf, sizeof buf, "%.*g", lo, (double)v);
    }
    if (n < 0 || cap == 0) return 0;
    size_t len = (size_t)n < cap ? (size_t)n : cap - 1;
    memcpy(out, buf, len);
    out[len] = '\0';
    return len;
}

size_t render_utf8_seq(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    if (n == 0) return 0;
    unsigned c = u[0];
    if (c < 0x80) return 1;
    size_t len;
    uint32_t cp;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (n < len) return 0;
    for (size_t i = 1; i < len; i++) {
        if ((u[i] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (u[i] & 0x3F);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

bool render_utf8_valid(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        if ((unsigned char)s[i] < 0x80) {
            i++;
            continue;
        }
        size_t k = render_utf8_seq(s + i, n - i);
        if (!k) return false;
        i += k;
    }
    return true;
}

size_t render_utf8_count(const char *s, size_t n)
{
    size_t count = 0;
    for (size_t i = 0; i < n; count++) {
        size_t k = render_utf8_seq(s + i, n - i);
        i += k ? k : 1;
    }
    return count;
}

/* Code points Python's str.isprintable() rejects among assigned characters above U+007F
 * (Unicode categories Cc, Cf, Co, Zl, Zp and Zs other than the space); repr escapes them. */
static const uint32_t nonprintable[][2] = {
    {0x80, 0xA0},       {0xAD, 0xAD},       {0x600, 0x605},       {0x61C, 0x61C},
    {0x6DD, 0x6DD},     {0x70F, 0x70F},     {0x890, 0x891},       {0x8E2, 0x8E2},
    {0x1680, 0x1680},   {0x180E, 0x180E},   {0x2000, 0x200F},     {0x2028, 0x202F},
    {0x205F, 0x2064},   {0x2066, 0x206F},   {0x3000, 0x3000},     {0xE000, 0xF8FF},
    {0xFEFF, 0xFEFF},   {0xFFF9, 0xFFFB},   {0x110BD, 0x110BD},   {0x110CD, 0x110CD},
    {0x13430, 0x13438}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A},   {0xE0001, 0xE0001},
    {0xE0020, 0xE007F}, {0xF0000, 0xFFFFD}, {0x100000, 0x10FFFD},
};

static bool printable(uint32_t cp)
{
    for (size_t i = 0; i < sizeof nonprintable / sizeof nonprintable[0]; i++)
        if (cp >= nonprintable[i][0] && cp <= nonprintable[i][1]) return false;
    return true;
}

/* The code point of a valid k-byte UTF-8 sequence. */
static uint32_t decode(const char *s, size_t k)
{
    const unsigned char *u = (const unsigned char *)s;
    uint32_t cp = k == 1 ? u[0] : k == 2 ? u[0] & 0x1F : k == 3 ? u[0] & 0x0F : u[0] & 0x07;
    for (size_t i = 1; i < k; i++) cp = (cp << 6) | (u[i] & 0x3F);
    return cp;
}

/* How many bytes of a string's repr are escaped between two looks at the cancel flag: about
 * a millisecond's work. */
#define REPR_POLL_EVERY ((size_t)1 << 16)

int render_str_repr(struct render_buf *b, const char *s, size_t n)
{
    bool has_single = memchr(s, '\'', n) != NULL, has_double = memchr(s, '"', n) != NULL;
    char quote = has_single && !has_double ? '"' : '\'';
    render_buf_putc(b, quote);
    size_t i = 0, polled = 0;
    while (i < n && !render_buf_failed(b)) { /* a full buffer takes nothing more: stop there */
        /* 64 MiB of text is a second of escapes: an interrupt stops it */
        if (i - polled >= REPR_POLL_EVERY) {
            polled = i;
            if (mt_cancel_requested()) b->cancelled = true;
        }
        unsigned char c = (unsigned char)s[i];
        if (c == '\\' || c == (unsigned char)quote) {
            render_buf_putc(b, '\\');
            render_buf_putc(b, (char)c);
            i++;
        } else if (c == '\n') {
            render_buf_puts(b, "\\n");
            i++;
        } else if (c == '\r') {
            render_buf_puts(b, "\\r");
            i++;
        } else if (c == '\t') {
            render_buf_puts(b, "\\t");
            i++;
        } else if (c < 0x20 || c == 0x7F) {
            render_buf_printf(b, "\\x%02x", c);
            i++;
        } else if (c < 0x80) {
            render_buf_putc(b, (char)c);
            i++;
        } else {
            size_t k = render_utf8_seq(s + i, n - i);
            if (!k) {
                render_buf_printf(b, "\\x%02x", c);
                i++;
            } else if (!printable(decode(s + i, k))) {
                uint32_t cp = decode(s + i, k);
                render_buf_printf(b,
                                  cp < 0x100     ? "\\x%02x"
                                  : cp < 0x10000 ? "\\u%04x"
                                                 : "\\U%08x",
                                  (unsigned)cp);
                i += k;
            } else {
                render_buf_append(b, s + i, k);
                i += k;
            }
        }
    }
    return render_buf_putc(b, quote);
}

int render_wrap(struct render_buf *b, const char *s, size_t n, int indent, int width)
{
    size_t i = 0;
    while (i < n) {
        while (i < n && s[i] == ' ') i++;
        if (i == n) break;
        size_t room = width > indent ? (size_t)(width - indent) : 1, used = 0, end = i, cut = i;
        /* take words while they fit, with the spaces between them as written; the first
         * always goes, however long */
        while (end < n) {
            size_t w = end;
            while (w < n && s[w] != ' ') w++;
            size_t len = render_utf8_count(s + end, w - end);
            size_t need = used ? used + (end - cut) + len : len;
            if (used && need > room) break;
            used = need;
            cut = w;
            end = w;
            while (end < n && s[end] == ' ') end++;
        }
        for (int k = 0; k < indent; k++) render_buf_putc(b, ' ');
        render_buf_append(b, s + i, cut - i);
        render_buf_putc(b, '\n');
        i = cut;
    }
    return b->nomem || b->over ? -1 : 0;
}

int render_html_escape(struct render_buf *b, const char *s, size_t n)
{
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        const char *rep = NULL;
        switch (s[i]) {
        case '&': rep = "&amp;"; break;
        case '<': rep = "&lt;"; break;
        case '>': rep = "&gt;"; break;
        case '"': rep = "&quot;"; break;
        case '\'': rep = "&#39;"; break;
        default: break;
        }
        if (rep) {
            render_buf_append(b, s + start, i - start);
            render_buf_puts(b, rep);
            start = i + 1;
        }
    }
    return render_buf_append(b, s + start, n - start);
}

json_t *render_json_string(const char *s, size_t n)
{
    if (render_utf8_valid(s, n)) return json_stringn(s, n);
    struct render_buf b;
    render_buf_init(&b, 0);
    size_t i = 0;
    while (i < n) {
        size_t k = render_utf8_seq(s + i, n - i);
        if (k) {
            render_buf_append(&b, s + i, k);
            i += k;
        } else {
            render_buf_puts(&b, "\xEF\xBF\xBD"); /* U+FFFD REPLACEMENT CHARACTER */
            i++;
        }
    }
    if (b.nomem) {
        render_buf_free(&b);
        return NULL;
    }
    json_t *j = json_stringn(render_buf_str(&b), b.len);
    render_buf_free(&b);
    return j;
}

json_t *render_text_bundle(const char *text)
{
    json_t *bundle = json_object();
    json_t *str = render_json_string(text, strlen(text));
    if (!bundle || !str || json_object_set_new(bundle, "text/plain", str) != 0) {
        json_decref(bundle);
        if (!bundle) json_decref(str);
        return NULL;
    }
    return bundle;
}
