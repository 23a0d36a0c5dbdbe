/* lexer.c — source text to tokens (see lexer.h).
 *
 * One forward pass with a bracket stack and an indentation stack, as in CPython's tokenizer.
 * Operators are matched longest-first from a table; keywords come from a table as well so the
 * completer and the tokenizer agree. Every limit (bracket depth, indentation levels, string
 * size) ends in a located error instead of unbounded growth. Source must be valid UTF-8:
 * anything else is a SyntaxError pointing at the bad byte, so every string value the language
 * builds is valid UTF-8 and can become JSON. */
#include "lang/lexer.h"

#include "render/render.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DSL_MAX_LITERAL (64u << 20)

const char *const dsl_keywords[] = {
    "if",      "elif",   "else",  "while",    "for",    "in",     "break",  "continue",
    "pass",    "and",    "or",    "not",      "true",   "false",  "none",   "def",
    "return",  "assert", "class", "nonlocal", "global", "is",     "try",    "except",
    "finally", "raise",  "del",   "as",       "from",   "import", "lambda", NULL};
static_assert(DSL_T_LAMBDA - DSL_T_IF + 1 == 31, "dsl_keywords must list every keyword token");

static const struct {
    const char *text;
    enum dsl_tok type;
} operators[] = {
    /* longest first */
    {"...", DSL_T_ELLIPSIS},
    {"**=", DSL_T_DSTAR_ASSIGN},
    {"//=", DSL_T_DSLASH_ASSIGN},
    {"<<=", DSL_T_LSHIFT_ASSIGN},
    {">>=", DSL_T_RSHIFT_ASSIGN},
    {"**", DSL_T_DSTAR},
    {"//", DSL_T_DSLASH},
    {"==", DSL_T_EQ},
    {"!=", DSL_T_NE},
    {"<=", DSL_T_LE},
    {">=", DSL_T_GE},
    {"<<", DSL_T_LSHIFT},
    {">>", DSL_T_RSHIFT},
    {"&=", DSL_T_AMP_ASSIGN},
    {"|=", DSL_T_PIPE_ASSIGN},
    {"^=", DSL_T_CARET_ASSIGN},
    {"+=", DSL_T_PLUS_ASSIGN},
    {"-=", DSL_T_MINUS_ASSIGN},
    {"*=", DSL_T_STAR_ASSIGN},
    {"/=", DSL_T_SLASH_ASSIGN},
    {"%=", DSL_T_PERCENT_ASSIGN},
    {"@=", DSL_T_AT_ASSIGN},
    {"(", DSL_T_LPAREN},
    {")", DSL_T_RPAREN},
    {"[", DSL_T_LBRACKET},
    {"]", DSL_T_RBRACKET},
    {"{", DSL_T_LBRACE},
    {"}", DSL_T_RBRACE},
    {",", DSL_T_COMMA},
    {":", DSL_T_COLON},
    {";", DSL_T_SEMI},
    {".", DSL_T_DOT},
    {"+", DSL_T_PLUS},
    {"-", DSL_T_MINUS},
    {"*", DSL_T_STAR},
    {"/", DSL_T_SLASH},
    {"%", DSL_T_PERCENT},
    {"@", DSL_T_AT},
    {"=", DSL_T_ASSIGN},
    {"<", DSL_T_LT},
    {">", DSL_T_GT},
    {"&", DSL_T_AMP},
    {"|", DSL_T_PIPE},
    {"^", DSL_T_CARET},
    {"~", DSL_T_TILDE},
};

static const char *const tok_names[DSL_T_COUNT] = {
    [DSL_T_EOF] = "end of input",
    [DSL_T_NEWLINE] = "end of line",
    [DSL_T_INDENT] = "indent",
    [DSL_T_DEDENT] = "dedent",
    [DSL_T_NAME] = "name",
    [DSL_T_INT] = "integer",
    [DSL_T_FLOAT] = "float",
    [DSL_T_STRING] = "string",
    [DSL_T_LPAREN] = "'('",
    [DSL_T_RPAREN] = "')'",
    [DSL_T_LBRACKET] = "'['",
    [DSL_T_RBRACKET] = "']'",
    [DSL_T_LBRACE] = "'{'",
    [DSL_T_RBRACE] = "'}'",
    [DSL_T_COMMA] = "','",
    [DSL_T_COLON] = "':'",
    [DSL_T_SEMI] = "';'",
    [DSL_T_DOT] = "'.'",
    [DSL_T_PLUS] = "'+'",
    [DSL_T_MINUS] = "'-'",
    [DSL_T_STAR] = "'*'",
    [DSL_T_SLASH] = "'/'",
    [DSL_T_DSLASH] = "'//'",
    [DSL_T_PERCENT] = "'%'",
    [DSL_T_DSTAR] = "'**'",
    [DSL_T_AT] = "'@'",
    [DSL_T_AMP] = "'&'",
    [DSL_T_PIPE] = "'|'",
    [DSL_T_CARET] = "'^'",
    [DSL_T_TILDE] = "'~'",
    [DSL_T_LSHIFT] = "'<<'",
    [DSL_T_RSHIFT] = "'>>'",
    [DSL_T_AMP_ASSIGN] = "'&='",
    [DSL_T_PIPE_ASSIGN] = "'|='",
    [DSL_T_CARET_ASSIGN] = "'^='",
    [DSL_T_LSHIFT_ASSIGN] = "'<<='",
    [DSL_T_RSHIFT_ASSIGN] = "'>>='",
    [DSL_T_ASSIGN] = "'='",
    [DSL_T_EQ] = "'=='",
    [DSL_T_NE] = "'!='",
    [DSL_T_LT] = "'<'",
    [DSL_T_LE] = "'<='",
    [DSL_T_GT] = "'>'",
    [DSL_T_GE] = "'>='",
    [DSL_T_PLUS_ASSIGN] = "'+='",
    [DSL_T_MINUS_ASSIGN] = "'-='",
    [DSL_T_STAR_ASSIGN] = "'*='",
    [DSL_T_SLASH_ASSIGN] = "'/='",
    [DSL_T_DSLASH_ASSIGN] = "'//='",
    [DSL_T_PERCENT_ASSIGN] = "'%='",
    [DSL_T_DSTAR_ASSIGN] = "'**='",
    [DSL_T_AT_ASSIGN] = "'@='",
    [DSL_T_ELLIPSIS] = "'...'",
    [DSL_T_MAGIC] = "magic command",
    [DSL_T_IF] = "'if'",
    [DSL_T_ELIF] = "'elif'",
    [DSL_T_ELSE] = "'else'",
    [DSL_T_WHILE] = "'while'",
    [DSL_T_FOR] = "'for'",
    [DSL_T_IN] = "'in'",
    [DSL_T_BREAK] = "'break'",
    [DSL_T_CONTINUE] = "'continue'",
    [DSL_T_PASS] = "'pass'",
    [DSL_T_AND] = "'and'",
    [DSL_T_OR] = "'or'",
    [DSL_T_NOT] = "'not'",
    [DSL_T_TRUE] = "'true'",
    [DSL_T_FALSE] = "'false'",
    [DSL_T_NONE] = "'none'",
    [DSL_T_DEF] = "'def'",
    [DSL_T_RETURN] = "'return'",
    [DSL_T_ASSERT] = "'assert'",
    [DSL_T_CLASS] = "'class'",
    [DSL_T_NONLOCAL] = "'nonlocal'",
    [DSL_T_GLOBAL] = "'global'",
    [DSL_T_IS] = "'is'",
    [DSL_T_IS_NOT] = "'is not'",
    [DSL_T_FSTRING_START] = "f-string",
    [DSL_T_FSTRING_END] = "end of f-string",
    [DSL_T_FSTRING_FIELD] = "'{'",
    [DSL_T_FSTRING_CONV] = "'!'",
    [DSL_T_FSTRING_SPEC] = "':'",
    [DSL_T_FSTRING_FIELD_END] = "'}'",
    [DSL_T_TRY] = "'try'",
    [DSL_T_EXCEPT] = "'except'",
    [DSL_T_FINALLY] = "'finally'",
    [DSL_T_RAISE] = "'raise'",
    [DSL_T_DEL] = "'del'",
    [DSL_T_AS] = "'as'",
    [DSL_T_FROM] = "'from'",
    [DSL_T_IMPORT] = "'import'",
    [DSL_T_LAMBDA] = "'lambda'",
};

const char *dsl_tok_name(enum dsl_tok t)
{
    return (unsigned)t < DSL_T_COUNT && tok_names[t] ? tok_names[t] : "token";
}

const char *dsl_op_symbol(enum dsl_tok op)
{
    switch (op) {
    case DSL_T_PLUS: return "+";
    case DSL_T_MINUS: return "-";
    case DSL_T_STAR: return "*";
    case DSL_T_SLASH: return "/";
    case DSL_T_DSLASH: return "//";
    case DSL_T_PERCENT: return "%";
    case DSL_T_DSTAR: return "**";
    case DSL_T_AT: return "@";
    case DSL_T_AMP: return "&";
    case DSL_T_PIPE: return "|";
    case DSL_T_CARET: return "^";
    case DSL_T_TILDE: return "~";
    case DSL_T_LSHIFT: return "<<";
    case DSL_T_RSHIFT: return ">>";
    case DSL_T_LT: return "<";
    case DSL_T_GT: return ">";
    case DSL_T_EQ: return "==";
    case DSL_T_NE: return "!=";
    case DSL_T_LE: return "<=";
    case DSL_T_GE: return ">=";
    default: return "?";
    }
}

int dsl_syntax_error_set(struct dsl_syntax_error *err, const char *ename, size_t pos,
                         const char *fmt, ...)
{
    err->ename = ename;
    err->pos = pos;
    err->incomplete = false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

void dsl_tokens_free(struct dsl_tokens *toks)
{
    for (size_t i = 0; i < toks->n; i++)
        if (toks->t[i].type == DSL_T_STRING || toks->t[i].type == DSL_T_MAGIC)
            free(toks->t[i].v.str.s);
    free(toks->t);
    memset(toks, 0, sizeof *toks);
}

/* The lexer's working state. */
struct lexer {
    const char *src;
    size_t len;
    size_t i;               /* read position */
    struct dsl_tokens *out; /* tokens so far */
    struct dsl_syntax_error *err;
    char brackets[DSL_MAX_BRACKETS]; /* open bracket characters, innermost last */
    size_t bracket_pos[DSL_MAX_BRACKETS];
    int depth; /* open brackets */
    int indents[DSL_MAX_INDENTS + 1];
    int nindents;
    int cur_indent; /* indentation of the current logical line */
    int fstrings;   /* f-strings open around the current token (one inside another's field) */
    bool raw;       /* the string being read had an r prefix: backslashes are kept */
};

static struct dsl_token *emit(struct lexer *lx, enum dsl_tok type, size_t pos, size_t len)
{
    struct dsl_tokens *t = lx->out;
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        struct dsl_token *p = realloc(t->t, cap * sizeof *p);
        if (!p) {
            dsl_syntax_error_set(lx->err, "MemoryError", pos,
                                 "out of memory while reading the cell");
            return NULL;
        }
        t->t = p;
        t->cap = cap;
    }
    struct dsl_token *tok = &t->t[t->n++];
    memset(tok, 0, sizeof *tok);
    tok->type = type;
    tok->pos = pos;
    tok->len = len;
    tok->indent = lx->cur_indent;
    return tok;
}

static bool is_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }

static int hex_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int put_utf8(struct render_buf *b, unsigned long cp)
{
    char u[4];
    size_t n;
    if (cp < 0x80) {
        u[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        u[0] = (char)(0xC0 | (cp >> 6));
        u[1] = (char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | (cp >> 12));
        u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        u[0] = (char)(0xF0 | (cp >> 18));
        u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[3] = (char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    return render_buf_append(b, u, n);
}

/* Decodes the escape sequence at s[*i] (a backslash) into b and moves *i past it; unknown
 * escapes keep their backslash, as in Python. 0, or -1 with the error set. */
static int lex_escape(struct lexer *lx, size_t *pi, struct render_buf *b)
{
    const char *s = lx->src;
    size_t n = lx->len, i = *pi;
    if (i + 1 >= n) {
        *pi = i + 1; /* reported as unterminated by the caller */
        return 0;
    }
    char e = s[i + 1];
    int digits = 0;
    switch (e) {
    case 'n': render_buf_putc(b, '\n'); break;
    case 't': render_buf_putc(b, '\t'); break;
    case 'r': render_buf_putc(b, '\r'); break;
    case '\\': render_buf_putc(b, '\\'); break;
    case '\'': render_buf_putc(b, '\''); break;
    case '"': render_buf_putc(b, '"'); break;
    case '\n': break; /* continuation: both vanish */
    case 'x': digits = 2; break;
    case 'u': digits = 4; break;
    case 'U': digits = 8; break;
    default:
        render_buf_putc(b, '\\');
        *pi = i + 1;
        return 0;
    }
    if (digits) {
        unsigned long cp = 0;
        for (int k = 0; k < digits; k++) {
            int h = i + 2 + (size_t)k < n ? hex_value(s[i + 2 + k]) : -1;
            if (h < 0)
                return dsl_syntax_error_set(lx->err, "SyntaxError", i,
                                            "truncated \\%c escape in string", e);
            cp = cp * 16 + (unsigned long)h;
        }
        if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return dsl_syntax_error_set(lx->err, "SyntaxError", i,
                                        "\\%c escape gives an unsupported character", e);
        put_utf8(b, cp);
        *pi = i + 2 + (size_t)digits;
    } else {
        *pi = i + 2;
    }
    return 0;
}

/* Reads a string literal starting at lx->i (on the quote). */
static int lex_string(struct lexer *lx)
{
    const char *s = lx->src;
    size_t start = lx->i, n = lx->len, i = lx->i;
    char quote = s[i];
    bool triple = i + 2 < n && s[i + 1] == quote && s[i + 2] == quote;
    i += triple ? 3 : 1;
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_LITERAL);
    for (;;) {
        if (i >= n) {
            render_buf_free(&b);
            if (triple) {
                dsl_syntax_error_set(lx->err, "SyntaxError", start,
                                     "unterminated triple-quoted string literal");
                lx->err->incomplete = true;
            } else {
                /* IPython calls a one-line string cut by the end "invalid", not unfinished */
                dsl_syntax_error_set(lx->err, "SyntaxError", start, "unterminated string literal");
            }
            return -1;
        }
        char c = s[i];
        if (c == '\n' && !triple) {
            render_buf_free(&b);
            return dsl_syntax_error_set(lx->err, "SyntaxError", start,
                                        "unterminated string literal");
        }
        if (c == quote) {
            if (!triple) {
                i++;
                break;
            }
            if (i + 2 < n && s[i + 1] == quote && s[i + 2] == quote) {
                i += 3;
                break;
            }
            render_buf_putc(&b, c);
            i++;
            continue;
        }
        if (c == '\\' && lx->raw) { /* r"...": the backslash stays, and hides a quote */
            render_buf_putc(&b, c);
            i++;
            if (i < n && (s[i] == quote || s[i] == '\\')) render_buf_putc(&b, s[i++]);
            continue;
        }
        if (c == '\\') {
            if (lex_escape(lx, &i, &b) != 0) {
                render_buf_free(&b);
                return -1;
            }
            continue;
        }
        if ((unsigned char)c >= 0x80) {
            size_t k = render_utf8_seq(s + i, n - i);
            if (!k) {
                render_buf_free(&b);
                return dsl_syntax_error_set(lx->err, "SyntaxError", i,
                                            "invalid UTF-8 byte 0x%02x in string literal",
                                            (unsigned char)c);
            }
            render_buf_append(&b, s + i, k);
            i += k;
            continue;
        }
        render_buf_putc(&b, c);
        i++;
    }
    if (b.over) {
        render_buf_free(&b);
        return dsl_syntax_error_set(lx->err, "MemoryError", start, "string literal too long");
    }
    size_t blen = b.len;
    char *text = render_buf_take(&b);
    if (!text)
        return dsl_syntax_error_set(lx->err, "MemoryError", start,
                                    "out of memory while reading the cell");
    struct dsl_token *tok = emit(lx, DSL_T_STRING, start, i - start);
    if (!tok) {
        free(text);
        return -1;
    }
    tok->v.str.s = text;
    tok->v.str.n = blen;
    lx->i = i;
    return 0;
}

static int lex_number(struct lexer *lx)
{
    const char *s = lx->src;
    size_t start = lx->i, n = lx->len, i = lx->i;
    char digits[128];
    size_t nd = 0;
    bool is_float = false, overflow = false, too_long = false;
    int64_t value = 0;
    int base = 10;
    if (s[i] == '0' && i + 1 < n && strchr("xXoObB", s[i + 1]) && s[i + 1] != '\0') {
        char b = s[i + 1];
        base = (b == 'x' || b == 'X') ? 16 : (b == 'o' || b == 'O') ? 8 : 2;
        i += 2;
        size_t first = i;
        while (i < n) {
            if (s[i] == '_' && i + 1 < n && hex_value(s[i + 1]) >= 0 &&
                hex_value(s[i + 1]) < base) {
                i++;
                continue;
            }
            int h = hex_value(s[i]);
            if (h < 0 || h >= base) break;
            if (value > (INT64_MAX - h) / base)
                overflow = true;
            else
                value = value * base + h;
            i++;
        }
        if (i == first)
            return dsl_syntax_error_set(lx->err, "SyntaxError", start, "invalid %s literal",
                                        base == 16  ? "hexadecimal"
                                        : base == 8 ? "octal"
                                                    : "binary");
    } else {
        while (i < n && (is_digit(s[i]) || (s[i] == '_' && i + 1 < n && is_digit(s[i + 1])))) {
            if (s[i] != '_') {
                if (nd < sizeof digits - 1)
                    digits[nd++] = s[i];
                else
                    too_long = true;
            }
            i++;
        }
        if (i < n && s[i] == '.') {
            is_float = true;
            if (nd < sizeof digits - 1) digits[nd++] = '.';
            i++;
            while (i < n && (is_digit(s[i]) || (s[i] == '_' && i + 1 < n && is_digit(s[i + 1])))) {
                if (s[i] != '_') {
                    if (nd < sizeof digits - 1)
                        digits[nd++] = s[i];
                    else
                        too_long = true;
                }
                i++;
            }
        }
        if (i < n && (s[i] == 'e' || s[i] == 'E')) {
            size_t j = i + 1;
            if (j < n && (s[j] == '+' || s[j] == '-')) j++;
            if (j < n && is_digit(s[j])) {
                is_float = true;
                if (nd < sizeof digits - 1) digits[nd++] = 'e';
                for (size_t k = i + 1; k < j; k++)
                    if (nd < sizeof digits - 1) digits[nd++] = s[k];
                i = j;
                while (i < n && is_digit(s[i])) {
                    if (nd < sizeof digits - 1)
                        digits[nd++] = s[i];
                    else
                        too_long = true;
                    i++;
                }
            }
        }
        digits[nd] = '\0';
        if (is_float && too_long)
            return dsl_syntax_error_set(lx->err, "SyntaxError", start, "float literal too long");
        if (!is_float) {
            if (nd > 1 && digits[0] == '0' && strspn(digits, "0") != nd)
                return dsl_syntax_error_set(
                    lx->err, "SyntaxError", start,
                    "leading zeros in decimal integer literals are not permitted");
            if (too_long) overflow = true;
            for (size_t k = 0; k < nd && !overflow; k++) {
                int d = digits[k] - '0';
                if (value > (INT64_MAX - d) / 10)
                    overflow = true;
                else
                    value = value * 10 + d;
            }
        }
    }
    if (i < n && (is_ident_char(s[i]) || (unsigned char)s[i] >= 0x80))
        return dsl_syntax_error_set(lx->err, "SyntaxError", i, "invalid %s literal",
                                    base == 10 ? "decimal" : "number");
    struct dsl_token *tok = emit(lx, is_float ? DSL_T_FLOAT : DSL_T_INT, start, i - start);
    if (!tok) return -1;
    if (is_float)
        tok->v.f = strtod(digits, NULL);
    else
        tok->v.i = value;
    tok->overflow = overflow;
    lx->i = i;
    return 0;
}

static int lex_name(struct lexer *lx)
{
    size_t start = lx->i, i = lx->i;
    while (i < lx->len && is_ident_char(lx->src[i])) i++;
    size_t len = i - start;
    enum dsl_tok type = DSL_T_NAME;
    const char *w = lx->src + start;
    if (len <= 2 && i < lx->len && (lx->src[i] == '"' || lx->src[i] == '\'') &&
        strspn(w, "bBrRfFuU") >= len) {                 /* a string prefix the lexer did not take */
        if ((w[0] == 'u' || w[0] == 'U') && len == 1) { /* u"...": a plain string */
            lx->i++;
            int r = lex_string(lx);
            if (r == 0) lx->out->t[lx->out->n - 1].pos = start, lx->out->t[lx->out->n - 1].len++;
            return r;
        }
        char p[3] = {0};
        for (size_t k = 0; k < len; k++) p[k] = (char)(w[k] | 0x20); /* lower case */
        if (!strcmp(p, "b") || !strcmp(p, "br") || !strcmp(p, "rb"))
            return dsl_syntax_error_set(lx->err, "SyntaxError", start,
                                        "bytes literals (b'...') are not supported in the "
                                        "MiniTorch language");
        if (!strcmp(p, "rf") || !strcmp(p, "fr"))
            return dsl_syntax_error_set(lx->err, "SyntaxError", start,
                                        "raw f-strings (rf'...') are not supported in the "
                                        "MiniTorch language");
    }
    for (int k = 0; dsl_keywords[k]; k++)
        if (strlen(dsl_keywords[k]) == len && memcmp(dsl_keywords[k], w, len) == 0)
            type = (enum dsl_tok)(DSL_T_IF + k);
    if (len == 4 && memcmp(w, "True", 4) == 0)
        type = DSL_T_TRUE;
    else if (len == 5 && memcmp(w, "False", 5) == 0)
        type = DSL_T_FALSE;
    else if (len == 4 && memcmp(w, "None", 4) == 0)
        type = DSL_T_NONE;
    if (!emit(lx, type, start, len)) return -1;
    lx->i = i;
    return 0;
}

/* Python operators and IPython syntax the language does not have: a SyntaxError that names
 * what was written, rather than "invalid character". Returns 0 when s starts with none. */
static int unsupported_operator(struct lexer *lx, const char *s, size_t rest)
{
    if (rest >= 2 && s[0] == ':' && s[1] == '=')
        return dsl_syntax_error_set(lx->err, "SyntaxError", lx->i,
                                    "assignment expressions (':=') are not supported in the "
                                    "MiniTorch language");
    if (s[0] == '`')
        return dsl_syntax_error_set(lx->err, "SyntaxError", lx->i,
                                    "backticks are not Python 3 syntax: use repr(x)");
    if (s[0] == '?')
        return dsl_syntax_error_set(lx->err, "SyntaxError", lx->i,
                                    "IPython's '?' help is not supported in the MiniTorch "
                                    "kernel: use help(x), or Shift-Tab on the name");
    if (s[0] == '!' && (rest < 2 || s[1] != '='))
        return dsl_syntax_error_set(lx->err, "SyntaxError", lx->i,
                                    "IPython's shell commands ('!cmd') are not supported in the "
                                    "MiniTorch kernel; Python's negation is `not`");
    return 0;
}

static int lex_operator(struct lexer *lx)
{
    const char *s = lx->src + lx->i;
    size_t rest = lx->len - lx->i;
    if (unsupported_operator(lx, s, rest) != 0) return -1;
    for (size_t k = 0; k < sizeof operators / sizeof operators[0]; k++) {
        size_t ol = strlen(operators[k].text);
        if (ol > rest || memcmp(s, operators[k].text, ol) != 0) continue;
        enum dsl_tok type = operators[k].type;
        char c = s[0];
        if (type == DSL_T_LPAREN || type == DSL_T_LBRACKET || type == DSL_T_LBRACE) {
            if (lx->depth >= DSL_MAX_BRACKETS)
                return dsl_syntax_error_set(lx->err, "SyntaxError", lx->i,
                                            "too many nested parentheses (limit %d)",
                                            DSL_MAX_BRACKETS);
            lx->brackets[lx->depth] = c;
            lx->bracket_pos[lx->depth++] = lx->i;
        } else if (type == DSL_T_RPAREN || type == DSL_T_RBRACKET || type == DSL_T_RBRACE) {
            char open = type == DSL_T_RPAREN ? '(' : type == DSL_T_RBRACKET ? '[' : '{';
            if (lx->depth == 0)
                return dsl_syntax_error_set(lx->err, "SyntaxError", lx->i, "unmatched '%c'", c);
            if (lx->brackets[lx->depth - 1] != open)
                return dsl_syntax_error_set(
                    lx->err, "SyntaxError", lx->i,
                    "closing parenthesis '%c' does not match opening parenthesis '%c'", c,
                    lx->brackets[lx->depth - 1]);
            lx->depth--;
        }
        if (!emit(lx, type, lx->i, ol)) return -1;
        lx->i += ol;
        return 0;
    }
    unsigned char c = (unsigned char)s[0];
    if (c >= 0x80) {
        size_t k = render_utf8_seq(s, rest);
        if (!k)
            return dsl_syntax_error_set(lx->err, "SyntaxError", lx->i, "invalid UTF-8 byte 0x%02x",
                                        c);
        return dsl_syntax_error_set(lx->err, "SyntaxError", lx->i, "invalid character '%.*s'",
                                    (int)k, s);
    }
    if (c < 0x20 || c == 0x7F)
        return dsl_syntax_error_set(lx->err, "SyntaxError", lx->i,
                                    "invalid non-printable character U+%04X", c);
    return dsl_syntax_error_set(lx->err, "SyntaxError", lx->i, "invalid character '%c'", c);
}

/* Reads a magic line starting at lx->i (on the '%'): everything up to the end of the physical
 * line, right-trimmed, belongs to the magic. */
static int lex_magic(struct lexer *lx)
{
    size_t start = lx->i, e = lx->i;
    while (e < lx->len && lx->src[e] != '\n') e++;
    size_t te = e;
    while (te > start + 1 && (lx->src[te - 1] == ' ' || lx->src[te - 1] == '\t' ||
                              lx->src[te - 1] == '\r' || lx->src[te - 1] == '\f'))
        te--;
    if (!render_utf8_valid(lx->src + start, te - start))
        return dsl_syntax_error_set(lx->err, "SyntaxError", start, "invalid UTF-8 in magic line");
    char *text = strndup(lx->src + start + 1, te - start - 1);
    if (!text)
        return dsl_syntax_error_set(lx->err, "MemoryError", start,
                                    "out of memory while reading the cell");
    struct dsl_token *tok = emit(lx, DSL_T_MAGIC, start, te - start);
    if (!tok) {
        free(text);
        return -1;
    }
    tok->v.str.s = text;
    tok->v.str.n = te - start - 1;
    lx->i = e;
    return 0;
}

/* Width of the indentation starting at *j, advancing *j past it. Tabs go to multiples of 8. */
static int measure_indent(const char *s, size_t n, size_t *j)
{
    int w = 0;
    while (*j < n && (s[*j] == ' ' || s[*j] == '\t' || s[*j] == '\f')) {
        if (s[*j] == ' ')
            w++;
        else if (s[*j] == '\t')
            w = (w / 8 + 1) * 8;
        else
            w = 0;
        if (w > 100000) w = 100000;
        (*j)++;
    }
    return w;
}

static bool last_is_statement_token(const struct lexer *lx)
{
    if (lx->out->n == 0) return false;
    enum dsl_tok t = lx->out->t[lx->out->n - 1].type;
    return t != DSL_T_NEWLINE && t != DSL_T_INDENT && t != DSL_T_DEDENT;
}

/* Handles the start of a physical line outside brackets: skips blank lines, emits INDENT or
 * DEDENTs. Returns 1 when the line was blank (caller loops), 0 when a token line starts, -1 on
 * error. */
static int line_start(struct lexer *lx)
{
    size_t j = lx->i;
    int w = measure_indent(lx->src, lx->len, &j);
    if (j >= lx->len) {
        lx->i = j;
        return 0;
    }
    char c = lx->src[j];
    if (c == '\n' || c == '\r' || c == '#') {
        while (j < lx->len && lx->src[j] != '\n') j++;
        lx->i = j < lx->len ? j + 1 : j;
        return 1;
    }
    lx->i = j;
    if (w > lx->indents[lx->nindents - 1]) {
        if (lx->nindents > DSL_MAX_INDENTS)
            return dsl_syntax_error_set(lx->err, "SyntaxError", j,
                                        "too many levels of indentation (limit %d)",
                                        DSL_MAX_INDENTS);
        lx->indents[lx->nindents++] = w;
        lx->cur_indent = w;
        if (!emit(lx, DSL_T_INDENT, j, 0)) return -1;
    } else {
        lx->cur_indent = w;
        while (lx->nindents > 1 && w < lx->indents[lx->nindents - 1]) {
            lx->nindents--;
            if (!emit(lx, DSL_T_DEDENT, j, 0)) return -1;
        }
        if (w != lx->indents[lx->nindents - 1])
            return dsl_syntax_error_set(lx->err, "IndentationError", j,
                                        "unindent does not match any outer indentation level");
    }
    return 0;
}

static int base_indent(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        size_t j = i;
        int w = measure_indent(s, n, &j);
        if (j < n && s[j] != '\n' && s[j] != '\r' && s[j] != '#') return w;
        while (j < n && s[j] != '\n') j++;
        i = j + 1;
    }
    return 0;
}

/* A raw string literal at lx->i (on the r): read as any string, its backslashes kept. The
 * token spans the prefix too. */
static int lex_raw_string(struct lexer *lx)
{
    size_t start = lx->i++;
    lx->raw = true;
    int r = lex_string(lx);
    lx->raw = false;
    if (r == 0) {
        struct dsl_token *t = &lx->out->t[lx->out->n - 1];
        t->pos = start;
        t->len++;
    }
    return r;
}

/* ---- f-strings ------------------------------------------------------------------------- */

#define DSL_MAX_FSTRING_NESTING 4 /* f-strings inside f-strings' fields */

static int lex_fstring(struct lexer *lx);

/* The tokens of an f-string field's expression, src[a..b): as anywhere inside brackets, lines
 * may break. */
static int lex_range(struct lexer *lx, size_t a, size_t b)
{
    size_t len = lx->len;
    int depth = lx->depth, r = 0;
    lx->i = a;
    lx->len = b;
    while (r == 0 && lx->i < lx->len) {
        const char *s = lx->src;
        char c = s[lx->i];
        if (c == ' ' || c == '\t' || c == '\f' || c == '\r' || c == '\n')
            lx->i++;
        else if (is_digit(c) || (c == '.' && lx->i + 1 < lx->len && is_digit(s[lx->i + 1])))
            r = lex_number(lx);
        else if ((c == 'f' || c == 'F') && lx->i + 1 < lx->len &&
                 (s[lx->i + 1] == '"' || s[lx->i + 1] == '\''))
            r = lex_fstring(lx);
        else if ((c == 'r' || c == 'R') && lx->i + 1 < lx->len &&
                 (s[lx->i + 1] == '"' || s[lx->i + 1] == '\''))
            r = lex_raw_string(lx);
        else if (is_ident_start(c))
            r = lex_name(lx);
        else if (c == '"' || c == '\'')
            r = lex_string(lx);
        else
            r = lex_operator(lx);
    }
    lx->len = len;
    if (r == 0 && lx->depth != depth) {
        lx->depth = depth;
        return dsl_syntax_error_set(lx->err, "SyntaxError", b, "f-string: expecting '}'");
    }
    return r;
}

/* Emits the literal text collected in b (if any) as a STRING token at pos..end. */
static int flush_literal(struct lexer *lx, struct render_buf *b, size_t pos, size_t end)
{
    if (b->len == 0) return 0;
    if (b->over)
        return dsl_syntax_error_set(lx->err, "MemoryError", pos, "string literal too long");
    size_t n = b->len;
    char *text = render_buf_take(b);
    struct dsl_token *tok = text ? emit(lx, DSL_T_STRING, pos, end - pos) : NULL;
    if (!tok) {
        free(text);
        return text ? -1
                    : dsl_syntax_error_set(lx->err, "MemoryError", pos,
                                           "out of memory while reading the cell");
    }
    tok->v.str.s = text;
    tok->v.str.n = n;
    return 0;
}

static int fstring_body(struct lexer *lx, size_t *pi, char quote, bool triple, size_t start,
                        int nest, bool spec);

/* A replacement field at src[*pi] ('{'): `{expr[!c][:spec]}`, its end found as CPython 3.11
 * finds it (brackets and quotes of the other kind skipped; no backslash, no '#', not the
 * f-string's own quote). `{expr=}` shows the expression's text, then its repr (or its
 * formatted value, given a spec). nest: fields around it (a spec's field is one deeper). */
static int lex_field(struct lexer *lx, size_t *pi, char quote, bool triple, size_t start, int nest)
{
    const char *s = lx->src;
    size_t n = lx->len, open = *pi, i = open + 1;
    if (nest >= 2)
        return dsl_syntax_error_set(lx->err, "SyntaxError", open,
                                    "f-string: expressions nested too deeply");
    int depth = 0;
    bool debug = false;
    for (;; i++) {
        char c = i < n ? s[i] : '\0';
        if (i >= n || (c == '\n' && !triple)) {
            dsl_syntax_error_set(lx->err, "SyntaxError", start, "unterminated %sstring literal",
                                 triple ? "triple-quoted " : "");
            lx->err->incomplete = triple && i >= n;
            return -1;
        }
        if (c == quote)
            return dsl_syntax_error_set(lx->err, "SyntaxError", open, "f-string: expecting '}'");
        if (c == '\\')
            return dsl_syntax_error_set(lx->err, "SyntaxError", i,
                                        "f-string expression part cannot include a backslash");
        if (c == '#')
            return dsl_syntax_error_set(lx->err, "SyntaxError", i,
                                        "f-string expression part cannot include '#'");
        if (c == '\'' || c == '"') { /* a string inside: to its closing quote */
            size_t j = i + 1;
            while (j < n && s[j] != c && s[j] != '\n') j++;
            if (j >= n || s[j] != c)
                return dsl_syntax_error_set(lx->err, "SyntaxError", open,
                                            "f-string: expecting '}'");
            i = j;
        } else if (c == '(' || c == '[' || c == '{') {
            depth++;
        } else if (c == ')' || c == ']' || c == '}') {
            if (depth == 0 && c == '}') break;
            if (depth == 0)
                return dsl_syntax_error_set(lx->err, "SyntaxError", i, "f-string: unmatched '%c'",
                                            c);
            depth--;
        } else if (depth == 0 && (c == ':' || (c == '!' && !(i + 1 < n && s[i + 1] == '=')))) {
            break;
        } else if (depth == 0 && c == '=' && !strchr("=!<>", s[i - 1])) {
            size_t j = i + 1;
            while (j < n && (s[j] == ' ' || s[j] == '\t')) j++;
            if (j < n && s[j] && strchr("}!:", s[j])) {
                debug = true;
                break;
            }
        }
    }
    size_t a = open + 1, b = i;
    if (debug) { /* the text up to the '=' and the spaces after it is shown as written */
        size_t j = i + 1;
        while (s[j] == ' ' || s[j] == '\t') j++;
        struct render_buf text;
        render_buf_init(&text, DSL_MAX_LITERAL);
        render_buf_append(&text, s + a, j - a);
        int r = flush_literal(lx, &text, a, j);
        render_buf_free(&text);
        if (r != 0) return -1;
        i = j;
    }
    if (!emit(lx, DSL_T_FSTRING_FIELD, open, 1)) return -1;
    while (a < b && strchr(" \t\f\r\n", s[a])) a++;
    if (a == b)
        return dsl_syntax_error_set(lx->err, "SyntaxError", i,
                                    "f-string: empty expression not allowed");
    if (lex_range(lx, a, b) != 0) return -1;
    if (s[i] == '!') {
        i++;
        if (i >= n || !strchr("rsa", s[i]) || s[i] == '\0')
            return dsl_syntax_error_set(
                lx->err, "SyntaxError", i,
                "f-string: invalid conversion character: expected 's', 'r', or 'a'");
        struct dsl_token *t = emit(lx, DSL_T_FSTRING_CONV, i - 1, 2);
        if (!t) return -1;
        t->v.i = s[i++];
    } else if (debug && !(i < n && s[i] == ':')) {
        struct dsl_token *t = emit(lx, DSL_T_FSTRING_CONV, b, 1);
        if (!t) return -1;
        t->v.i = 'r';
    }
    if (i < n && s[i] == ':') {
        if (!emit(lx, DSL_T_FSTRING_SPEC, i, 1)) return -1;
        i++;
        if (fstring_body(lx, &i, quote, triple, start, nest + 1, true) != 0) return -1;
    }
    if (i >= n || s[i] != '}')
        return dsl_syntax_error_set(lx->err, "SyntaxError", i < n ? i : open,
                                    "f-string: expecting '}'");
    if (!emit(lx, DSL_T_FSTRING_FIELD_END, i, 1)) return -1;
    *pi = i + 1;
    return 0;
}

/* Literal text and fields from src[*pi]: to the closing quote (consumed), or for a format spec
 * (spec) to the '}' that ends its field (left for the caller). */
static int fstring_body(struct lexer *lx, size_t *pi, char quote, bool triple, size_t start,
                        int nest, bool spec)
{
    const char *s = lx->src;
    size_t n = lx->len, i = *pi, lit = i;
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_LITERAL);
    int r = 0;
    for (;;) {
        if (i >= n || (s[i] == '\n' && !triple)) {
            if (spec) {
                r = dsl_syntax_error_set(lx->err, "SyntaxError", i, "f-string: expecting '}'");
            } else if (triple) {
                r = dsl_syntax_error_set(lx->err, "SyntaxError", start,
                                         "unterminated triple-quoted string literal");
                lx->err->incomplete = i >= n;
            } else {
                r = dsl_syntax_error_set(lx->err, "SyntaxError", start,
                                         "unterminated string literal");
            }
            break;
        }
        char c = s[i];
        if (c == quote && (!triple || (i + 2 < n && s[i + 1] == quote && s[i + 2] == quote))) {
            if (spec) {
                r = dsl_syntax_error_set(lx->err, "SyntaxError", i, "f-string: expecting '}'");
                break;
            }
            if ((r = flush_literal(lx, &b, lit, i)) != 0) break;
            i += triple ? 3 : 1;
            if (!emit(lx, DSL_T_FSTRING_END, i - 1, 1)) r = -1;
            break;
        }
        if (spec && c == '}') {
            r = flush_literal(lx, &b, lit, i);
            break;
        }
        if (!spec && (c == '{' || c == '}') && i + 1 < n && s[i + 1] == c) { /* {{ and }} */
            render_buf_putc(&b, c);
            i += 2;
        } else if (c == '}') {
            r = dsl_syntax_error_set(lx->err, "SyntaxError", i,
                                     "f-string: single '}' is not allowed");
            break;
        } else if (c == '{') {
            if ((r = flush_literal(lx, &b, lit, i)) != 0 ||
                (r = lex_field(lx, &i, quote, triple, start, nest)) != 0)
                break;
            lit = i;
        } else if (c == '\\') {
            if ((r = lex_escape(lx, &i, &b)) != 0) break;
        } else if ((unsigned char)c >= 0x80) {
            size_t k = render_utf8_seq(s + i, n - i);
            if (!k) {
                r = dsl_syntax_error_set(lx->err, "SyntaxError", i,
                                         "invalid UTF-8 byte 0x%02x in string literal",
                                         (unsigned char)c);
                break;
            }
            render_buf_append(&b, s + i, k);
            i += k;
        } else {
            render_buf_putc(&b, c);
            i++;
        }
    }
    render_buf_free(&b);
    *pi = i;
    return r;
}

/* An f-string at lx->i (on the f): its tokens, see lexer.h. */
static int lex_fstring(struct lexer *lx)
{
    const char *s = lx->src;
    size_t start = lx->i, i = lx->i + 1, n = lx->len;
    char quote = s[i];
    bool triple = i + 2 < n && s[i + 1] == quote && s[i + 2] == quote;
    i += triple ? 3 : 1;
    if (lx->fstrings >= DSL_MAX_FSTRING_NESTING)
        return dsl_syntax_error_set(lx->err, "SyntaxError", start,
                                    "f-string: expressions nested too deeply");
    if (!emit(lx, DSL_T_FSTRING_START, start, i - start)) return -1;
    lx->fstrings++;
    int r = fstring_body(lx, &i, quote, triple, start, 0, false);
    lx->fstrings--;
    lx->i = i;
    return r;
}

static int lex_all(struct lexer *lx)
{
    bool at_line_start = true;
    while (1) {
        if (at_line_start && lx->depth == 0) {
            int r = line_start(lx);
            if (r < 0) return -1;
            if (r > 0) continue;
            at_line_start = false;
            if (lx->i < lx->len && lx->src[lx->i] == '%') {
                if (lex_magic(lx) != 0) return -1;
                continue;
            }
        }
        if (lx->i >= lx->len) break;
        const char *s = lx->src;
        char c = s[lx->i];
        if (c == ' ' || c == '\t' || c == '\f' || c == '\r') {
            lx->i++;
        } else if (c == '#') {
            while (lx->i < lx->len && s[lx->i] != '\n') lx->i++;
        } else if (c == '\\') {
            size_t j = lx->i + 1;
            if (j < lx->len && s[j] == '\r') j++;
            if (j >= lx->len) {
                dsl_syntax_error_set(lx->err, "SyntaxError", lx->i,
                                     "unexpected end of input after line continuation");
                lx->err->incomplete = true;
                return -1;
            }
            if (s[j] != '\n')
                return dsl_syntax_error_set(lx->err, "SyntaxError", lx->i,
                                            "unexpected character after line continuation "
                                            "character");
            lx->i = j + 1;
        } else if (c == '\n') {
            if (lx->depth == 0) {
                if (last_is_statement_token(lx) && !emit(lx, DSL_T_NEWLINE, lx->i, 1)) return -1;
                at_line_start = true;
            }
            lx->i++;
        } else if (is_digit(c) || (c == '.' && lx->i + 1 < lx->len && is_digit(s[lx->i + 1]))) {
            if (lex_number(lx) != 0) return -1;
        } else if ((c == 'f' || c == 'F') && lx->i + 1 < lx->len &&
                   (s[lx->i + 1] == '"' || s[lx->i + 1] == '\'')) {
            if (lex_fstring(lx) != 0) return -1;
        } else if ((c == 'r' || c == 'R') && lx->i + 1 < lx->len &&
                   (s[lx->i + 1] == '"' || s[lx->i + 1] == '\'')) {
            if (lex_raw_string(lx) != 0) return -1;
        } else if (is_ident_start(c)) {
            if (lex_name(lx) != 0) return -1;
        } else if (c == '"' || c == '\'') {
            if (lex_string(lx) != 0) return -1;
        } else if (lex_operator(lx) != 0) {
            return -1;
        }
    }
    if (lx->depth > 0) {
        int d = lx->depth - 1;
        dsl_syntax_error_set(lx->err, "SyntaxError", lx->bracket_pos[d], "'%c' was never closed",
                             lx->brackets[d]);
        lx->err->incomplete = true;
        return -1;
    }
    if (last_is_statement_token(lx) && !emit(lx, DSL_T_NEWLINE, lx->len, 0)) return -1;
    lx->cur_indent = lx->indents[0];
    while (lx->nindents > 1) {
        lx->nindents--;
        if (!emit(lx, DSL_T_DEDENT, lx->len, 0)) return -1;
    }
    if (!emit(lx, DSL_T_EOF, lx->len, 0)) return -1;
    return 0;
}

int dsl_lex(const char *src, size_t len, struct dsl_tokens *out, struct dsl_syntax_error *err)
{
    memset(out, 0, sizeof *out);
    memset(err, 0, sizeof *err);
    struct lexer lx;
    memset(&lx, 0, sizeof lx);
    lx.src = src;
    lx.len = len;
    lx.out = out;
    lx.err = err;
    lx.indents[0] = base_indent(src, len);
    lx.nindents = 1;
    lx.cur_indent = lx.indents[0];
    out->base_indent = lx.indents[0];
    if (lex_all(&lx) != 0) {
        dsl_tokens_free(out);
        return -1;
    }
    return 0;
}
