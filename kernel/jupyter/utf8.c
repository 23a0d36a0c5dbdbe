/* utf8.c — code-point offsets for the protocol.
 *
 * Jupyter counts cursor_pos, cursor_start and cursor_end in Unicode code points (protocol 5.2+),
 * while the language works on UTF-8 bytes. These two conversions sit at that boundary; invalid
 * UTF-8 never reaches them because Jansson rejects it when a message is decoded. */
#include "jupyter/jupyter.h"

size_t jp_utf8_byte_offset(const char *s, size_t cp)
{
    size_t i = 0;
    for (size_t seen = 0; s[i] && seen < cp; seen++) {
        i++;
        while (((unsigned char)s[i] & 0xC0) == 0x80) i++; /* skip continuation bytes */
    }
    return i;
}

size_t jp_utf8_codepoints(const char *s, size_t nbytes)
{
    size_t n = 0;
    for (size_t i = 0; i < nbytes && s[i]; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80) n++;
    return n;
}
