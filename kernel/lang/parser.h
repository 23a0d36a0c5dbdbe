/* parser.h — what the two halves of the parser share (internal to kernel/lang: only parser.c
 * and parse_expr.c include it; the rest of the kernel parses through ast.h's dsl_parse_cell and
 * dsl_parse_expression).
 *
 * parser.c parses statements and blocks, parse_expr.c expressions. They read one token stream
 * through one struct parser and call each other (a statement holds expressions; a lambda's
 * parameters are a def's, a comprehension's variable a for loop's), so the token, error and node
 * helpers live here, once: the small ones static inline, dsl_parse_fail in parser.c. A function
 * one file calls in the other has the dsl_parse_ prefix, its name being global; everything else
 * stays static to its file.
 *
 * Errors: the first one is recorded in p->err and the rest ignored; a function that returns a
 * node returns NULL after an error, so callers pass failure up and free what they hold. */
#ifndef KERNEL_LANG_PARSER_H
#define KERNEL_LANG_PARSER_H

#include "lang/ast.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Nesting of expressions and blocks allowed (enter), so that the parser cannot overflow the C
 * stack whatever the input. */
#define DSL_MAX_PARSE_DEPTH 100

struct parser {
    const char *src;
    struct dsl_node *def; /* the def whose body is being parsed (a yield makes it a generator) */
    struct dsl_tokens toks;
    size_t i; /* next token */
    struct dsl_syntax_error *err;
    int depth;        /* expression/block nesting */
    int loops;        /* enclosing loops of the current function or cell (break/continue) */
    int functions;    /* enclosing function definitions (return) */
    bool annotations; /* parsing a def's parameters: `name: annotation` allowed */
    bool failed;
    /* The token from which a `from __future__ import` may still start: the cell's start, past
     * a docstring and the future imports before it, as CPython allows them only there. */
    size_t future_from;
};

/* Records the first error only. Always returns NULL so callers can `return dsl_parse_fail(...)`. */
__attribute__((format(printf, 4, 5))) void *dsl_parse_fail(struct parser *p, const char *ename,
                                                           size_t pos, const char *fmt, ...);

/* ---- tokens, errors and nodes ----------------------------------------------------------- */

static inline const struct dsl_token *peek(const struct parser *p) { return &p->toks.t[p->i]; }

static inline const struct dsl_token *peek2(const struct parser *p)
{
    return p->i + 1 < p->toks.n ? &p->toks.t[p->i + 1] : &p->toks.t[p->toks.n - 1];
}

static inline const struct dsl_token *advance(struct parser *p)
{
    const struct dsl_token *t = &p->toks.t[p->i];
    if (t->type != DSL_T_EOF) p->i++;
    return t;
}

static inline bool check(const struct parser *p, enum dsl_tok t) { return peek(p)->type == t; }

static inline bool match(struct parser *p, enum dsl_tok t)
{
    if (!check(p, t)) return false;
    advance(p);
    return true;
}

static inline void *fail_nomem(struct parser *p)
{
    return dsl_parse_fail(p, "MemoryError", peek(p)->pos, "out of memory while parsing");
}

static inline void *fail_unexpected(struct parser *p, const struct dsl_token *t)
{
    if (t->type == DSL_T_INDENT)
        return dsl_parse_fail(p, "IndentationError", t->pos, "unexpected indent");
    if (t->type == DSL_T_EOF || t->type == DSL_T_NEWLINE || t->type == DSL_T_DEDENT)
        return dsl_parse_fail(p, "SyntaxError", t->pos, "invalid syntax: unexpected %s",
                              dsl_tok_name(t->type));
    return dsl_parse_fail(p, "SyntaxError", t->pos, "invalid syntax");
}

static inline bool expect(struct parser *p, enum dsl_tok t, const char *what)
{
    if (match(p, t)) return true;
    const struct dsl_token *got = peek(p);
    if (got->type == DSL_T_INDENT) {
        fail_unexpected(p, got);
        return false;
    }
    dsl_parse_fail(p, "SyntaxError", got->pos, "expected %s", what);
    return false;
}

static inline struct dsl_node *node(struct parser *p, enum dsl_node_kind kind, size_t pos)
{
    struct dsl_node *n = dsl_node_new(kind, pos);
    if (!n) fail_nomem(p);
    return n;
}

/* Checks the height bound after a node got its children; frees n on failure. */
static inline struct dsl_node *finish(struct parser *p, struct dsl_node *n)
{
    if (!n) return NULL;
    dsl_node_update_height(n);
    if (n->height > DSL_MAX_AST_HEIGHT) {
        dsl_parse_fail(p, "SyntaxError", n->pos, "expression too complex (more than %d levels)",
                       DSL_MAX_AST_HEIGHT);
        dsl_node_free(n);
        return NULL;
    }
    return n;
}

static inline bool push(struct parser *p, struct dsl_node *n, struct dsl_node *kid)
{
    if (dsl_node_push(n, kid) != 0) {
        fail_nomem(p);
        return false;
    }
    return true;
}

/* Appends a keyword (CALL) or parameter (DEF): name and value (may be NULL) pass to n, or are
 * freed on failure. */
static inline bool push_kw(struct parser *p, struct dsl_node *n, char *name, struct dsl_node *val)
{
    char **names = realloc(n->kwnames, (n->nkw + 1) * sizeof *names);
    if (names) n->kwnames = names;
    struct dsl_node **vals = names ? realloc(n->kwvals, (n->nkw + 1) * sizeof *vals) : NULL;
    if (!vals) {
        free(name);
        dsl_node_free(val);
        fail_nomem(p);
        return false;
    }
    n->kwvals = vals;
    n->kwnames[n->nkw] = name;
    n->kwvals[n->nkw++] = val;
    return true;
}

static inline char *copy_text(struct parser *p, const struct dsl_token *t)
{
    char *s = strndup(p->src + t->pos, t->len);
    if (!s) fail_nomem(p);
    return s;
}

static inline bool enter(struct parser *p, size_t pos)
{
    if (++p->depth > DSL_MAX_PARSE_DEPTH) {
        dsl_parse_fail(p, "SyntaxError", pos, "too many nested expressions or blocks (limit %d)",
                       DSL_MAX_PARSE_DEPTH);
        return false;
    }
    return true;
}

/* ---- what one file parses for the other ------------------------------------------------- */

/* An expression: a conditional expression or anything that binds tighter (parse_expr.c). Not
 * ast.h's dsl_parse_expression, which parses a whole source text as one expression. */
struct dsl_node *dsl_parse_expr(struct parser *p);

/* A for loop's or a comprehension's variable: a name, or a tuple or list of them
 * (parse_expr.c). */
struct dsl_node *dsl_parse_for_target(struct parser *p);

/* When tok is a Python keyword the language lacks (yield as a value, async, await, with): fails
 * with the message that says so and returns true (parse_expr.c). */
bool dsl_parse_unsupported_word(struct parser *p, const struct dsl_token *tok);

/* expr (',' expr)* [','], a tuple when more than one or with a trailing comma; `one` parses an
 * item (parser.c). */
struct dsl_node *dsl_parse_exprlist(struct parser *p, struct dsl_node *(*one)(struct parser *));

/* dsl_parse_exprlist with its first item e already parsed; e passes to the result (parser.c). */
struct dsl_node *dsl_parse_exprlist_from(struct parser *p, struct dsl_node *e,
                                         struct dsl_node *(*one)(struct parser *));

/* `lambda [params]: expression` after its keyword tok: the prefix rule of `lambda` (parser.c,
 * beside def, whose parameters and function scope it shares). */
struct dsl_node *dsl_parse_lambda(struct parser *p, const struct dsl_token *tok);

#endif
