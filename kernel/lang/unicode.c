/* unicode.c — character properties and case mappings from the generated tables (see
 * unicode.h). */
#include "lang/unicode.h"

#include <stdbool.h>

struct uc_prop_run {
    uint32_t start;
    unsigned short props;
};
struct uc_case_run {
    uint32_t start, end;
    int stride;
    int32_t delta;
};
struct uc_case_multi {
    uint32_t c;
    uint32_t to[3]; /* 0 after the last */
};

#include "lang/unicode_tables.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

_Static_assert(UC_ALPHA == DSL_UC_ALPHA && UC_SPACE == DSL_UC_SPACE &&
                   UC_CASE_IGNORABLE == DSL_UC_CASE_IGNORABLE &&
                   UC_XID_CONTINUE == DSL_UC_XID_CONTINUE,
               "the generated table's bits are unicode.h's");

unsigned dsl_uc_props(uint32_t c)
{
    if (c < 128) return uc_ascii[c];
    if (c > 0x10FFFF) return 0;
    size_t lo = 0, hi = COUNT(uc_props); /* the last run starting at or before c */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (uc_props[mid].start <= c)
            lo = mid;
        else
            hi = mid;
    }
    return uc_props[lo].props;
}

static int map_with(uint32_t c, const struct uc_case_run *runs, size_t nruns,
                    const struct uc_case_multi *multi, size_t nmulti, uint32_t out[3])
{
    size_t lo = 0, hi = nmulti;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (multi[mid].c < c)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < nmulti && multi[lo].c == c) {
        int n = 0;
        while (n < 3 && multi[lo].to[n]) out[n] = multi[lo].to[n], n++;
        return n;
    }
    out[0] = c;
    lo = 0, hi = nruns;
    while (lo < hi) { /* the first run ending at or after c */
        size_t mid = lo + (hi - lo) / 2;
        if (runs[mid].end < c)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < nruns && runs[lo].start <= c && (c - runs[lo].start) % (uint32_t)runs[lo].stride == 0)
        out[0] = (uint32_t)((int32_t)c + runs[lo].delta);
    return 1;
}

int dsl_uc_map(uint32_t c, enum dsl_uc_case k, uint32_t out[3])
{
    if (c < 128) {
        bool upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z';
        out[0] = k == DSL_UC_TO_LOWER || k == DSL_UC_TO_FOLD ? (upper ? c + 32 : c)
                                                             : (lower ? c - 32 : c);
        return 1;
    }
    switch (k) {
    case DSL_UC_TO_LOWER:
        return map_with(c, uc_lower_runs, COUNT(uc_lower_runs), uc_lower_multi,
                        COUNT(uc_lower_multi), out);
    case DSL_UC_TO_UPPER:
        return map_with(c, uc_upper_runs, COUNT(uc_upper_runs), uc_upper_multi,
                        COUNT(uc_upper_multi), out);
    case DSL_UC_TO_TITLE:
        return map_with(c, uc_title_runs, COUNT(uc_title_runs), uc_title_multi,
                        COUNT(uc_title_multi), out);
    default:
        return map_with(c, uc_casefold_runs, COUNT(uc_casefold_runs), uc_casefold_multi,
                        COUNT(uc_casefold_multi), out);
    }
}

uint32_t dsl_utf8_decode(const char *s, size_t n, size_t *len)
{
    const unsigned char *u = (const unsigned char *)s;
    uint32_t c = u[0];
    size_t k = c < 0x80             ? 1
               : (c & 0xE0) == 0xC0 ? 2
               : (c & 0xF0) == 0xE0 ? 3
               : (c & 0xF8) == 0xF0 ? 4
                                    : 0;
    if (k <= 1 || k > n) {
        *len = 1;
        return c;
    }
    c &= 0x7Fu >> k;
    for (size_t i = 1; i < k; i++) {
        if ((u[i] & 0xC0) != 0x80) {
            *len = 1;
            return u[0];
        }
        c = c << 6 | (u[i] & 0x3F);
    }
    *len = k;
    return c;
}

size_t dsl_utf8_encode(uint32_t c, char out[4])
{
    if (c < 0x80) {
        out[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        out[0] = (char)(0xC0 | (c >> 6));
        out[1] = (char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        out[0] = (char)(0xE0 | (c >> 12));
        out[1] = (char)(0x80 | ((c >> 6) & 0x3F));
        out[2] = (char)(0x80 | (c & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (c >> 18));
    out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((c >> 6) & 0x3F));
    out[3] = (char)(0x80 | (c & 0x3F));
    return 4;
}
