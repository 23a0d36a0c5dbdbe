/* lexer.h — tokens of the MiniTorch language (internal to kernel/lang).
 *
 * The lexer turns a whole cell into a token array the way Python's tokenizer does: NEWLINE
 * ends a logical line (newlines inside (), [] and {} do not count), INDENT/DEDENT mark block
 * structure, blank and comment-only lines vanish. A cell whose first line is indented is read
 * with that indentation as its base (IPython strips it too). A line whose first character is
 * `%` is a magic command (IPython's line magics): the whole rest of that physical line becomes
 * one DSL_T_MAGIC token, since a magic's arguments are not expressions (`%backend fast`,
 * `%time x @ y`). The same pass serves the parser and dsl_is_complete, which needs to tell an
 * unfinished cell (open bracket, open triple-quoted string) from a broken one: such errors
 * carry `incomplete = true`. */
#ifndef KERNEL_LANG_LEXER_H
#define KERNEL_LANG_LEXER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DSL_MAX_BRACKETS 100 /* nesting of (), [] and {} */
#define DSL_MAX_INDENTS 100  /* levels of indentation */

enum dsl_tok {
    DSL_T_EOF,
    DSL_T_NEWLINE,
    DSL_T_INDENT,
    DSL_T_DEDENT,
    DSL_T_NAME,
    DSL_T_INT,
    DSL_T_FLOAT,
    DSL_T_STRING,
    DSL_T_LPAREN,
    DSL_T_RPAREN,
    DSL_T_LBRACKET,
    DSL_T_RBRACKET,
    DSL_T_LBRACE,
    DSL_T_RBRACE,
    DSL_T_COMMA,
    DSL_T_COLON,
    DSL_T_SEMI,
    DSL_T_DOT,
    DSL_T_PLUS,
    DSL_T_MINUS,
    DSL_T_STAR,
    DSL_T_SLASH,
    DSL_T_DSLASH,
    DSL_T_PERCENT,
    DSL_T_DSTAR,
    DSL_T_AT,
    DSL_T_AMP,    /* & */
    DSL_T_PIPE,   /* | */
    DSL_T_CARET,  /* ^ */
    DSL_T_TILDE,  /* ~ (unary only) */
    DSL_T_LSHIFT, /* << */
    DSL_T_RSHIFT, /* >> */
    DSL_T_AMP_ASSIGN,
    DSL_T_PIPE_ASSIGN,
    DSL_T_CARET_ASSIGN,
    DSL_T_LSHIFT_ASSIGN,
    DSL_T_RSHIFT_ASSIGN,
    DSL_T_ASSIGN,
    DSL_T_EQ,
    DSL_T_NE,
    DSL_T_LT,
    DSL_T_LE,
    DSL_T_GT,
    DSL_T_GE,
    DSL_T_PLUS_ASSIGN,
    DSL_T_MINUS_ASSIGN,
    DSL_T_STAR_ASSIGN,
    DSL_T_SLASH_ASSIGN,
    DSL_T_DSLASH_ASSIGN,
    DSL_T_PERCENT_ASSIGN,
    DSL_T_DSTAR_ASSIGN,
    DSL_T_AT_ASSIGN,
    DSL_T_ELLIPSIS, /* `...`: the constant Ellipsis */
    DSL_T_MAGIC,    /* `%name args` at the start of a line */
    DSL_T_IS_NOT,   /* `is not`: a comparison operator the parser makes of two keywords */
    /* An f-string is FSTRING_START, then its literal pieces (STRING, escapes decoded) and
     * replacement fields, then FSTRING_END. A field is FSTRING_FIELD ('{'), the expression's own
     * tokens, an optional FSTRING_CONV ('!r': v.i is the letter), an optional FSTRING_SPEC (':')
     * followed by the format spec's pieces and fields, and FSTRING_FIELD_END ('}'). */
    DSL_T_FSTRING_START,
    DSL_T_FSTRING_END,
    DSL_T_FSTRING_FIELD,
    DSL_T_FSTRING_CONV,
    DSL_T_FSTRING_SPEC,
    DSL_T_FSTRING_FIELD_END,
    /* keywords, in the order of dsl_keywords[] */
    DSL_T_IF,
    DSL_T_ELIF,
    DSL_T_ELSE,
    DSL_T_WHILE,
    DSL_T_FOR,
    DSL_T_IN,
    DSL_T_BREAK,
    DSL_T_CONTINUE,
    DSL_T_PASS,
    DSL_T_AND,
    DSL_T_OR,
    DSL_T_NOT,
    DSL_T_TRUE,
    DSL_T_FALSE,
    DSL_T_NONE,
    DSL_T_DEF,
    DSL_T_RETURN,
    DSL_T_ASSERT,
    DSL_T_CLASS,
    DSL_T_NONLOCAL,
    DSL_T_GLOBAL,
    DSL_T_IS,
    DSL_T_TRY,
    DSL_T_EXCEPT,
    DSL_T_FINALLY,
    DSL_T_RAISE,
    DSL_T_DEL,
    DSL_T_AS,
    DSL_T_FROM,
    DSL_T_IMPORT,
    DSL_T_LAMBDA,
    DSL_T_COUNT
};

struct dsl_token {
    enum dsl_tok type;
    size_t pos;    /* byte offset of the first character */
    size_t len;    /* bytes of source text */
    int indent;    /* indentation width of the logical line the token is on */
    bool overflow; /* DSL_T_INT: the literal does not fit in int64 */
    union {
        int64_t i; /* DSL_T_INT */
        double f;  /* DSL_T_FLOAT */
        struct {
            char *s; /* DSL_T_STRING: decoded UTF-8; DSL_T_MAGIC: the text after '%' (right
                      * spaces trimmed). malloc'd, NUL-terminated */
            size_t n;
        } str;
    } v;
};

struct dsl_tokens {
    struct dsl_token *t; /* owned array */
    size_t n, cap;
    int base_indent; /* indentation of the cell's first line */
};

/* A syntax error found before anything runs. Fixed storage: no allocation needed to report. */
struct dsl_syntax_error {
    const char *ename; /* "SyntaxError", "IndentationError", "OverflowError", "MemoryError" */
    char msg[200];
    size_t pos;      /* byte offset the caret points at */
    bool incomplete; /* the text ended too early (open bracket or string): more may follow */
};

/* Keyword spellings indexed by (token - DSL_T_IF); the aliases True/False/None map to the same
 * tokens. NULL-terminated. */
extern const char *const dsl_keywords[];

/* Tokenizes src[0..len). Returns 0 with the tokens in *out (free with dsl_tokens_free), or -1
 * with *err filled and *out empty. */
int dsl_lex(const char *src, size_t len, struct dsl_tokens *out, struct dsl_syntax_error *err);
void dsl_tokens_free(struct dsl_tokens *toks);

/* How a token type is named in messages: "')'", "end of line", "name". Static. */
const char *dsl_tok_name(enum dsl_tok t);

/* The symbol of an operator token in error messages: "+", "//", "<=", "==", ...; "?" for a
 * token that is no operator. Static. */
const char *dsl_op_symbol(enum dsl_tok op);

/* Fills *err (printf-style message) and returns -1. */
int dsl_syntax_error_set(struct dsl_syntax_error *err, const char *ename, size_t pos,
                         const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
