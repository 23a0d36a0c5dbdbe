/* unicode.h — the character properties and case mappings of the string methods (internal to
 * kernel/lang).
 *
 * str.isalpha, str.upper, str.split() and the rest answer per character as CPython does: the
 * tables (unicode_tables.h) are made by tools/gen_unicode_tables.py from what CPython's own str
 * methods say of each code point, so they follow its Unicode version, and no locale of the
 * machine plays a part. */
#ifndef KERNEL_LANG_UNICODE_H
#define KERNEL_LANG_UNICODE_H

#include <stddef.h>
#include <stdint.h>

/* Properties, a bit each (dsl_uc_props). */
enum {
    DSL_UC_ALPHA = 1 << 0,           /* str.isalpha */
    DSL_UC_DECIMAL = 1 << 1,         /* str.isdecimal */
    DSL_UC_DIGIT = 1 << 2,           /* str.isdigit */
    DSL_UC_NUMERIC = 1 << 3,         /* str.isnumeric */
    DSL_UC_SPACE = 1 << 4,           /* str.isspace, and what split() and strip() take away */
    DSL_UC_PRINTABLE = 1 << 5,       /* str.isprintable */
    DSL_UC_LOWER = 1 << 6,           /* lowercase (str.islower of the one character) */
    DSL_UC_UPPER = 1 << 7,           /* uppercase */
    DSL_UC_TITLE = 1 << 8,           /* a titlecase letter (Dž) */
    DSL_UC_CASED = 1 << 9,           /* lowercase, uppercase or titlecase */
    DSL_UC_CASE_IGNORABLE = 1 << 10, /* passed over when lower() asks if a sigma ends a word */
    DSL_UC_XID_START = 1 << 11,      /* may begin an identifier */
    DSL_UC_XID_CONTINUE = 1 << 12,   /* may continue one */
};

/* The property bits of code point c (none past U+10FFFF). */
unsigned dsl_uc_props(uint32_t c);

enum dsl_uc_case { DSL_UC_TO_LOWER, DSL_UC_TO_UPPER, DSL_UC_TO_TITLE, DSL_UC_TO_FOLD };

/* The full case mapping of c (str.lower, upper, title of one character, casefold): one to three
 * code points into out; returns how many. Lowering a capital sigma depends on its neighbours:
 * the caller decides that one (dsl_uc_props' CASED and CASE_IGNORABLE). */
int dsl_uc_map(uint32_t c, enum dsl_uc_case k, uint32_t out[3]);

/* UTF-8: the code point at s[0..n) (n > 0) and its length in bytes in *len (1 for a byte that
 * begins no valid sequence, read as itself). */
uint32_t dsl_utf8_decode(const char *s, size_t n, size_t *len);
/* Writes c as UTF-8 into out; returns its length (1 to 4). */
size_t dsl_utf8_encode(uint32_t c, char out[4]);

#endif
