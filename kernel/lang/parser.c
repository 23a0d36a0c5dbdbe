/* parser.c — tokens to syntax tree: statements and blocks by recursive descent, and the entry
 * points dsl_parse_cell and dsl_parse_expression (ast.h). Expressions are parse_expr.c's; what
 * the two share is parser.h.
 *
 * Statements are Python's: simple statements (`return` too, inside a function) separated by ';'
 * on a line, compound statements (if/elif/else, while, for, try, def, class) with a ':' suite
 * that is either the rest of the line or an indented block.
 *
 * Limits: nesting of expressions and blocks counts against DSL_MAX_PARSE_DEPTH and tree height
 * against DSL_MAX_AST_HEIGHT, so neither this parser nor the evaluator can overflow the C
 * stack, whatever the input. */
#include "lang/parser.h"
#include "lang/exceptions.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>

/* Out of line, unlike the other helpers in parser.h: a variadic function does not inline. */
void *dsl_parse_fail(struct parser *p, const char *ename, size_t pos, const char *fmt, ...)
{
    if (p->failed) return NULL;
    p->failed = true;
    p->err->ename = ename;
    p->err->pos = pos;
    p->err->incomplete = false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err->msg, sizeof p->err->msg, fmt, ap);
    va_end(ap);
    return NULL;
}

/* ---- statements ------------------------------------------------------------------------- */

static struct dsl_node *parse_block(struct parser *p, const struct dsl_token *header);
static bool parse_line(struct parser *p, struct dsl_node *block);

static bool is_assign_op(enum dsl_tok t)
{
    switch (t) {
    case DSL_T_PLUS_ASSIGN:
    case DSL_T_MINUS_ASSIGN:
    case DSL_T_STAR_ASSIGN:
    case DSL_T_SLASH_ASSIGN:
    case DSL_T_DSLASH_ASSIGN:
    case DSL_T_PERCENT_ASSIGN:
    case DSL_T_DSTAR_ASSIGN:
    case DSL_T_AT_ASSIGN:
    case DSL_T_AMP_ASSIGN:
    case DSL_T_PIPE_ASSIGN:
    case DSL_T_CARET_ASSIGN:
    case DSL_T_LSHIFT_ASSIGN:
    case DSL_T_RSHIFT_ASSIGN: return true;
    default: return false;
    }
}

static enum dsl_tok aug_binary_op(enum dsl_tok t)
{
    switch (t) {
    case DSL_T_PLUS_ASSIGN: return DSL_T_PLUS;
    case DSL_T_MINUS_ASSIGN: return DSL_T_MINUS;
    case DSL_T_STAR_ASSIGN: return DSL_T_STAR;
    case DSL_T_SLASH_ASSIGN: return DSL_T_SLASH;
    case DSL_T_DSLASH_ASSIGN: return DSL_T_DSLASH;
    case DSL_T_PERCENT_ASSIGN: return DSL_T_PERCENT;
    case DSL_T_AT_ASSIGN: return DSL_T_AT;
    case DSL_T_AMP_ASSIGN: return DSL_T_AMP;
    case DSL_T_PIPE_ASSIGN: return DSL_T_PIPE;
    case DSL_T_CARET_ASSIGN: return DSL_T_CARET;
    case DSL_T_LSHIFT_ASSIGN: return DSL_T_LSHIFT;
    case DSL_T_RSHIFT_ASSIGN: return DSL_T_RSHIFT;
    default: return DSL_T_DSTAR;
    }
}

/* What an assignment (verb "assign to") or a del ("delete") can take: a name, an item, an
 * attribute, or a tuple or list of those (the parser bounds the nesting). */
static bool check_target_as(struct parser *p, const struct dsl_node *t, const char *verb)
{
    if (t->kind == DSL_N_NAME || t->kind == DSL_N_INDEX || t->kind == DSL_N_ATTR) return true;
    if (t->kind == DSL_N_TUPLE || t->kind == DSL_N_LIST) {
        for (size_t i = 0; i < t->nkids; i++)
            if (!check_target_as(p, t->kids[i], verb)) return false;
        return true;
    }
    const char *what = t->kind == DSL_N_CALL      ? "function call"
                       : t->kind == DSL_N_CONST   ? "literal"
                       : t->kind == DSL_N_COMPARE ? "comparison"
                                                  : "expression";
    dsl_parse_fail(p, "SyntaxError", t->pos, "cannot %s %s", verb, what);
    return false;
}

static bool check_target(struct parser *p, const struct dsl_node *t)
{
    return check_target_as(p, t, "assign to");
}

/* Whether the token ends a tuple without its own brackets, after a comma that may be trailing:
 * `x = 1,`, `(1,)`. */
static bool ends_exprlist(const struct parser *p)
{
    switch (peek(p)->type) {
    case DSL_T_NEWLINE:
    case DSL_T_EOF:
    case DSL_T_SEMI:
    case DSL_T_DEDENT:
    case DSL_T_ASSIGN:
    case DSL_T_RPAREN:
    case DSL_T_IN: return true;
    default: return is_assign_op(peek(p)->type);
    }
}

/* expr (',' expr)* [','] — more than one expression, or a trailing comma, is a tuple, as on
 * either side of `=`, after `return`, between `for` and `in` and inside parentheses. `one`
 * parses an item. */
struct dsl_node *dsl_parse_exprlist(struct parser *p, struct dsl_node *(*one)(struct parser *))
{
    struct dsl_node *e = one(p);
    return e ? dsl_parse_exprlist_from(p, e, one) : NULL;
}

/* dsl_parse_exprlist with its first item e already parsed (e passes to the result). */
struct dsl_node *dsl_parse_exprlist_from(struct parser *p, struct dsl_node *e,
                                         struct dsl_node *(*one)(struct parser *))
{
    if (!check(p, DSL_T_COMMA)) return e;
    struct dsl_node *n = node(p, DSL_N_TUPLE, e->pos);
    if (!n || !push(p, n, e)) {
        if (!n) dsl_node_free(e);
        dsl_node_free(n);
        return NULL;
    }
    while (match(p, DSL_T_COMMA) && !ends_exprlist(p)) {
        struct dsl_node *item = one(p);
        if (!item || !push(p, n, item)) {
            dsl_node_free(n);
            return NULL;
        }
    }
    return finish(p, n);
}

/* `nonlocal a, b` / `global a, b`: the names, each once. */
static struct dsl_node *parse_scope_decl(struct parser *p)
{
    const struct dsl_token *kw = advance(p);
    bool nonlocal = kw->type == DSL_T_NONLOCAL;
    if (nonlocal && p->functions == 0)
        return dsl_parse_fail(p, "SyntaxError", kw->pos,
                              "nonlocal declaration not allowed at module level");
    struct dsl_node *n = node(p, nonlocal ? DSL_N_NONLOCAL : DSL_N_GLOBAL, kw->pos);
    if (!n) return NULL;
    do {
        if (!check(p, DSL_T_NAME)) {
            dsl_parse_fail(p, "SyntaxError", peek(p)->pos, "expected a name after %s",
                           dsl_tok_name(kw->type));
            dsl_node_free(n);
            return NULL;
        }
        char *name = copy_text(p, advance(p));
        if (!name || !push_kw(p, n, name, NULL)) {
            if (!name) fail_nomem(p);
            dsl_node_free(n);
            return NULL;
        }
    } while (match(p, DSL_T_COMMA));
    return finish(p, n);
}

/* Whether the next token ends a simple statement. */
static bool at_statement_end(const struct parser *p)
{
    return check(p, DSL_T_NEWLINE) || check(p, DSL_T_EOF) || check(p, DSL_T_SEMI) ||
           check(p, DSL_T_DEDENT);
}

/* raise [EXPR [from EXPR]] */
static struct dsl_node *parse_raise(struct parser *p)
{
    const struct dsl_token *kw = advance(p);
    struct dsl_node *n = node(p, DSL_N_RAISE, kw->pos);
    if (!n || at_statement_end(p)) return n;
    if (check(p, DSL_T_FROM)) {
        dsl_parse_fail(p, "SyntaxError", peek(p)->pos,
                       "invalid syntax: 'from' needs an exception to raise");
        goto error;
    }
    if (!(n->a = dsl_parse_expr(p))) goto error;
    if (match(p, DSL_T_FROM) && !(n->b = dsl_parse_expr(p))) goto error;
    return finish(p, n);
error:
    dsl_node_free(n);
    return NULL;
}

/* A dotted module name, `minitorch.operators`, as a new string; NULL after failing. */
static char *parse_dotted(struct parser *p)
{
    const struct dsl_token *t = peek(p);
    if (t->type != DSL_T_NAME)
        return dsl_parse_fail(p, "SyntaxError", t->pos, "expected a module name");
    char *name = copy_text(p, advance(p));
    while (name && match(p, DSL_T_DOT)) {
        t = peek(p);
        if (t->type != DSL_T_NAME) {
            free(name);
            return dsl_parse_fail(p, "SyntaxError", t->pos, "expected a module name after '.'");
        }
        char *longer = NULL;
        if (asprintf(&longer, "%s.%.*s", name, (int)t->len, p->src + t->pos) < 0) longer = NULL;
        free(name);
        if (!longer) return fail_nomem(p);
        name = longer;
        advance(p);
    }
    return name;
}

/* One imported name and the variable it binds: `x`, `x as y` (for `import`, x is dotted and
 * binds its first part unless `as` renames it). */
static bool parse_import_item(struct parser *p, struct dsl_node *n, bool from)
{
    const struct dsl_token *t = peek(p);
    char *name = NULL;
    if (from) {
        if (t->type != DSL_T_NAME) {
            dsl_parse_fail(p, "SyntaxError", t->pos,
                           t->type == DSL_T_STAR
                               ? "'from ... import *' is not supported in the MiniTorch "
                                 "language: name what you import"
                               : "expected a name to import");
            return false;
        }
        name = copy_text(p, advance(p));
    } else {
        name = parse_dotted(p);
    }
    if (!name) return false;
    struct dsl_node *var = node(p, DSL_N_NAME, t->pos);
    if (!var || !push_kw(p, n, name, var)) {
        if (!var) free(name);
        return false;
    }
    if (match(p, DSL_T_AS)) {
        const struct dsl_token *a = peek(p);
        if (a->type != DSL_T_NAME) {
            dsl_parse_fail(p, "SyntaxError", a->pos, "expected a name after 'as'");
            return false;
        }
        var->flag = true;
        var->name = copy_text(p, advance(p));
    } else {
        size_t first = from ? strlen(name) : strcspn(name, ".");
        var->name = strndup(name, first);
        if (!var->name) fail_nomem(p);
    }
    if (var->name) var->hash = dsl_name_hash(var->name);
    if (var->name) var->iname = dsl_name_intern(var->name, var->hash);
    return var->name != NULL;
}

/* Whether a future import starting at token `at` comes where CPython allows one: nothing but
 * line ends between it and the docstring or future imports before it. */
static bool future_in_place(const struct parser *p, size_t at)
{
    for (size_t k = p->future_from; k < at; k++)
        if (p->toks.t[k].type != DSL_T_NEWLINE && p->toks.t[k].type != DSL_T_SEMI) return false;
    return true;
}

/* What `from __future__ import ...` (parsed into n) may name: Python 3's features, each
 * already how the language behaves (annotations are never evaluated, print is a function...),
 * so the statement does nothing. */
static bool future_features_known(struct parser *p, const struct dsl_node *n, size_t pos)
{
    static const char *const features[] = {
        "absolute_import", "annotations",   "barry_as_FLUFL", "division",         "generator_stop",
        "generators",      "nested_scopes", "print_function", "unicode_literals", "with_statement",
    };
    for (size_t i = 0; i < n->nkw; i++) {
        bool known = false;
        for (size_t k = 0; k < sizeof features / sizeof features[0] && !known; k++)
            known = strcmp(n->kwnames[i], features[k]) == 0;
        if (known) continue;
        if (strcmp(n->kwnames[i], "braces") == 0)
            dsl_parse_fail(p, "SyntaxError", pos, "not a chance");
        else
            dsl_parse_fail(p, "SyntaxError", pos, "future feature %s is not defined",
                           n->kwnames[i]);
        return false;
    }
    return true;
}

/* `import a.b as c, d` or `from a.b import x as y, z` (the names may be in parentheses); `from
 * __future__ import ...` does nothing. A relative import keeps its dots in the module's name
 * (`from ..a import x` is "..a", `from . import x` is "."): which package they name is known
 * only when it runs, in a package's file or (an ImportError) in a cell. */
static struct dsl_node *parse_import(struct parser *p)
{
    size_t at = p->i;
    const struct dsl_token *tok = advance(p);
    struct dsl_node *n = node(p, DSL_N_IMPORT, tok->pos);
    if (!n) return NULL;
    if (tok->type == DSL_T_FROM) {
        n->flag = true;
        size_t dots = 0;
        for (;;)
            if (match(p, DSL_T_DOT))
                dots++;
            else if (match(p, DSL_T_ELLIPSIS))
                dots += 3;
            else
                break;
        if (dots > 32) {
            dsl_parse_fail(p, "SyntaxError", tok->pos, "a relative import of over 32 levels");
            goto error;
        }
        bool bare = dots && check(p, DSL_T_IMPORT); /* from . import x */
        char *dotted = bare ? strdup("") : parse_dotted(p);
        if (!dotted) {
            if (bare) fail_nomem(p);
            goto error;
        }
        int got =
            asprintf(&n->name, "%.*s%s", (int)dots, "................................", dotted);
        free(dotted);
        if (got < 0) {
            n->name = NULL;
            fail_nomem(p);
            goto error;
        }
        if (!expect(p, DSL_T_IMPORT, "'import'")) goto error;
        bool paren = match(p, DSL_T_LPAREN);
        do {
            if (paren && check(p, DSL_T_RPAREN) && n->nkw > 0) break;
            if (!parse_import_item(p, n, true)) goto error;
        } while (match(p, DSL_T_COMMA));
        if (paren && !expect(p, DSL_T_RPAREN, "')'")) goto error;
        if (strcmp(n->name, "__future__") == 0) {
            if (!future_in_place(p, at)) {
                dsl_parse_fail(p, "SyntaxError", tok->pos,
                               "from __future__ imports must occur at the beginning of the file");
                goto error;
            }
            if (!future_features_known(p, n, tok->pos)) goto error;
            p->future_from = p->i;
            dsl_node_free(n);
            return node(p, DSL_N_PASS, tok->pos);
        }
    } else {
        do {
            if (!parse_import_item(p, n, false)) goto error;
        } while (match(p, DSL_T_COMMA));
    }
    return finish(p, n);
error:
    dsl_node_free(n);
    return NULL;
}

/* What `del` can delete: what an assignment can bind. */
static bool check_del_target(struct parser *p, const struct dsl_node *t)
{
    return check_target_as(p, t, "delete");
}

/* del TARGET (',' TARGET)*: `del a, b` deletes the tuple target (a, b), item by item. */
static struct dsl_node *parse_del(struct parser *p)
{
    const struct dsl_token *kw = advance(p);
    if (at_statement_end(p))
        return dsl_parse_fail(p, "SyntaxError", peek(p)->pos,
                              "invalid syntax: 'del' needs a name to delete");
    struct dsl_node *n = node(p, DSL_N_DEL, kw->pos);
    if (!n) return NULL;
    if (!(n->a = dsl_parse_exprlist(p, dsl_parse_expr)) || !check_del_target(p, n->a)) {
        dsl_node_free(n);
        return NULL;
    }
    return finish(p, n);
}

/* Whether `e:` starts an annotated assignment: a name (not one that begins a statement the
 * language lacks, `match x:`), an attribute or an item. */
static bool annotation_target(const struct dsl_node *e)
{
    if (e->kind == DSL_N_NAME)
        return strcmp(e->name, "match") != 0 && strcmp(e->name, "case") != 0 &&
               strcmp(e->name, "lambda") != 0;
    return e->kind == DSL_N_ATTR || e->kind == DSL_N_INDEX;
}

/* The text of annotation ann, from byte start to end of the source, its trailing blanks
 * dropped, in node n's value: what `from __future__ import annotations` keeps of it (a string;
 * an annotation that is itself a string literal kept as its repr, as CPython writes it back). */
static bool annotation_text(struct parser *p, struct dsl_node *n, const struct dsl_node *ann,
                            size_t start, size_t end)
{
    while (end > start && isspace((unsigned char)p->src[end - 1])) end--;
    struct render_buf b;
    render_buf_init(&b, 0);
    bool literal = ann->kind == DSL_N_CONST && ann->value.kind == DSL_STR;
    if (literal && dsl_value_repr(&b, ann->value) == DSL_V_OK && !b.nomem) {
        start = 0;
        end = b.len;
    }
    const char *text = literal && !b.nomem ? render_buf_str(&b) : p->src;
    bool ok = dsl_str_value(text + start, end - start, &n->value) == 0;
    render_buf_free(&b);
    if (!ok) dsl_parse_fail(p, "MemoryError", start, "out of memory");
    return ok;
}

/* `target: annotation [= value]` (target owned). The annotation is parsed, never evaluated, as
 * Python 3.14 defers annotations: MiniTorch's (`Dict[str, Module]`, `Callable[[float], float]`)
 * name types the language does not have. A name's annotation keeps its text in the node's value
 * (with the name, in a PASS), which a class body records in its __annotations__ (what
 * dataclasses read). With a value it is an assignment; without one it does nothing else. */
static struct dsl_node *parse_annotated(struct parser *p, struct dsl_node *target)
{
    advance(p); /* ':' */
    size_t start = peek(p)->pos;
    struct dsl_node *ann = dsl_parse_expr(p);
    if (!ann) {
        dsl_node_free(target);
        return NULL;
    }
    size_t end = peek(p)->pos;
    bool named = target->kind == DSL_N_NAME;
    if (!check(p, DSL_T_ASSIGN)) {
        struct dsl_node *n = node(p, DSL_N_PASS, target->pos);
        if (n && named) {
            n->name = target->name; /* moved */
            target->name = NULL;
        }
        dsl_node_free(target);
        bool ok = !n || !named || annotation_text(p, n, ann, start, end);
        dsl_node_free(ann);
        if (!ok) {
            dsl_node_free(n);
            return NULL;
        }
        return n;
    }
    struct dsl_node *n = node(p, DSL_N_ASSIGN, advance(p)->pos);
    if (!n || !push(p, n, target)) {
        if (!n) dsl_node_free(target);
        dsl_node_free(n);
        dsl_node_free(ann);
        return NULL;
    }
    bool ok = !named || annotation_text(p, n, ann, start, end);
    dsl_node_free(ann);
    if (!ok) {
        dsl_node_free(n);
        return NULL;
    }
    if (!(n->a = dsl_parse_exprlist(p, dsl_parse_expr))) {
        dsl_node_free(n);
        return NULL;
    }
    return finish(p, n);
}

/* Whether token tok is the name `word`. */
static bool is_word(const struct parser *p, const struct dsl_token *tok, const char *word)
{
    return tok->type == DSL_T_NAME && strlen(word) == tok->len &&
           memcmp(p->src + tok->pos, word, tok->len) == 0;
}

/* `yield [value]` or `yield from iterable` as a statement of a def's body, which makes the def a
 * generator (ast.h). Anywhere else, and as a value (`x = yield v`, which send() would give), it
 * is the SyntaxError that says so. */
static struct dsl_node *parse_yield(struct parser *p)
{
    const struct dsl_token *kw = advance(p);
    if (p->functions == 0)
        return dsl_parse_fail(p, "SyntaxError", kw->pos, "'yield' outside function");
    if (!p->def)
        return dsl_parse_fail(p, "SyntaxError", kw->pos,
                              "`yield` in a lambda is not supported in the MiniTorch language");
    struct dsl_node *n = node(p, DSL_N_YIELD, kw->pos);
    if (!n) return NULL;
    const struct dsl_token *t = peek(p);
    n->flag = is_word(p, t, "from") || t->type == DSL_T_FROM;
    if (n->flag) advance(p);
    if ((n->flag || !at_statement_end(p)) && !(n->a = dsl_parse_exprlist(p, dsl_parse_expr))) {
        dsl_node_free(n);
        return NULL;
    }
    p->def->flag = true;
    return finish(p, n);
}

static struct dsl_node *parse_simple(struct parser *p)
{
    const struct dsl_token *tok = peek(p);
    switch (tok->type) {
    case DSL_T_PASS: advance(p); return node(p, DSL_N_PASS, tok->pos);
    case DSL_T_IMPORT:
    case DSL_T_FROM: return parse_import(p);
    case DSL_T_BREAK:
    case DSL_T_CONTINUE:
        advance(p);
        if (p->loops == 0)
            return dsl_parse_fail(p, "SyntaxError", tok->pos, "'%s' outside loop",
                                  tok->type == DSL_T_BREAK ? "break" : "continue");
        return node(p, tok->type == DSL_T_BREAK ? DSL_N_BREAK : DSL_N_CONTINUE, tok->pos);
    case DSL_T_RETURN: {
        advance(p);
        if (p->functions == 0)
            return dsl_parse_fail(p, "SyntaxError", tok->pos, "'return' outside function");
        struct dsl_node *n = node(p, DSL_N_RETURN, tok->pos);
        if (!n) return NULL;
        if (!check(p, DSL_T_NEWLINE) && !check(p, DSL_T_EOF) && !check(p, DSL_T_SEMI) &&
            !check(p, DSL_T_DEDENT) && !(n->a = dsl_parse_exprlist(p, dsl_parse_expr))) {
            dsl_node_free(n);
            return NULL;
        }
        return finish(p, n);
    }
    case DSL_T_ASSERT: {
        advance(p);
        struct dsl_node *n = node(p, DSL_N_ASSERT, tok->pos);
        if (!n) return NULL;
        if (!(n->a = dsl_parse_expr(p)) || (match(p, DSL_T_COMMA) && !(n->b = dsl_parse_expr(p)))) {
            dsl_node_free(n);
            return NULL;
        }
        return finish(p, n);
    }
    case DSL_T_NONLOCAL:
    case DSL_T_GLOBAL: return parse_scope_decl(p);
    case DSL_T_RAISE: return parse_raise(p);
    case DSL_T_NAME:
        if (is_word(p, tok, "yield")) return parse_yield(p);
        break;
    case DSL_T_DEL: return parse_del(p);
    case DSL_T_IF:
    case DSL_T_ELIF:
    case DSL_T_ELSE:
    case DSL_T_WHILE:
    case DSL_T_FOR:
    case DSL_T_DEF:
    case DSL_T_CLASS:
    case DSL_T_TRY:
    case DSL_T_EXCEPT:
    case DSL_T_FINALLY:
        return dsl_parse_fail(p, "SyntaxError", tok->pos,
                              "invalid syntax: %s here needs its own line",
                              dsl_tok_name(tok->type));
    default: break;
    }
    struct dsl_node *e = dsl_parse_exprlist(p, dsl_parse_expr);
    if (!e) return NULL;
    if (check(p, DSL_T_COLON) && annotation_target(e)) return parse_annotated(p, e);
    if (check(p, DSL_T_ASSIGN)) {
        struct dsl_node *n = node(p, DSL_N_ASSIGN, peek(p)->pos);
        if (!n) {
            dsl_node_free(e);
            return NULL;
        }
        while (match(p, DSL_T_ASSIGN)) {
            if (!check_target(p, e)) {
                dsl_node_free(e);
                goto assign_error;
            }
            if (!push(p, n, e)) /* frees e */
                goto assign_error;
            e = dsl_parse_exprlist(p, dsl_parse_expr);
            if (!e) goto assign_error;
        }
        n->a = e;
        return finish(p, n);
    assign_error:
        dsl_node_free(n);
        return NULL;
    }
    if (is_assign_op(peek(p)->type)) {
        const struct dsl_token *op = advance(p);
        if (e->kind != DSL_N_NAME && e->kind != DSL_N_INDEX && e->kind != DSL_N_ATTR) {
            dsl_parse_fail(p, "SyntaxError", e->pos, "illegal target for augmented assignment");
            dsl_node_free(e);
            return NULL;
        }
        struct dsl_node *n = node(p, DSL_N_AUG, op->pos);
        if (!n) {
            dsl_node_free(e);
            return NULL;
        }
        n->op = aug_binary_op(op->type);
        n->a = e;
        n->b = dsl_parse_expr(p);
        if (!n->b) {
            dsl_node_free(n);
            return NULL;
        }
        return finish(p, n);
    }
    struct dsl_node *n = node(p, DSL_N_EXPR, e->pos);
    if (!n) {
        dsl_node_free(e);
        return NULL;
    }
    n->a = e;
    return finish(p, n);
}

/* simple (';' simple)* [';'] NEWLINE, appended to block */
/* The statement `s` was followed by a token that cannot follow it: when s is a name that
 * starts a Python statement the language lacks (`print x`, `match x:`), the SyntaxError naming
 * it. False when none applies. */
static bool unsupported_statement(struct parser *p, const struct dsl_node *s)
{
    if (s->kind != DSL_N_EXPR) return false;
    const struct dsl_node *e = s->a;
    if (e->kind != DSL_N_NAME) return false;
    if (strcmp(e->name, "print") == 0)
        dsl_parse_fail(p, "SyntaxError", e->pos,
                       "Missing parentheses in call to 'print'. Did you mean print(...)?");
    else if (strcmp(e->name, "match") == 0 || strcmp(e->name, "case") == 0)
        dsl_parse_fail(
            p, "SyntaxError", e->pos,
            "the `match` statement is not supported in the MiniTorch language: use if/elif");
    else if (strcmp(e->name, "type") == 0)
        dsl_parse_fail(p, "SyntaxError", e->pos,
                       "the `type` statement is not supported in the MiniTorch language");
    else
        return false;
    return true;
}

static bool parse_simple_line(struct parser *p, struct dsl_node *block)
{
    for (;;) {
        struct dsl_node *s = parse_simple(p);
        if (!s || !push(p, block, s)) return false;
        if (!check(p, DSL_T_NEWLINE) && !check(p, DSL_T_EOF) && !check(p, DSL_T_SEMI) &&
            unsupported_statement(p, s))
            return false;
        if (match(p, DSL_T_SEMI)) {
            /* only an expression's flag means this: an import's says `from` */
            if (s->kind == DSL_N_EXPR) s->flag = true;
            if (check(p, DSL_T_NEWLINE) || check(p, DSL_T_EOF)) break;
            continue;
        }
        break;
    }
    if (!check(p, DSL_T_NEWLINE) && !check(p, DSL_T_EOF)) {
        const struct dsl_token *t = peek(p);
        if (t->type == DSL_T_ASSIGN)
            dsl_parse_fail(p, "SyntaxError", t->pos,
                           "invalid syntax: maybe you meant '==' instead of '='?");
        else
            fail_unexpected(p, t);
        return false;
    }
    match(p, DSL_T_NEWLINE);
    return true;
}

static struct dsl_node *parse_if(struct parser *p)
{
    const struct dsl_token *kw = advance(p);
    struct dsl_node *n = node(p, DSL_N_IF, kw->pos);
    if (!n) return NULL;
    for (;;) {
        struct dsl_node *cond = dsl_parse_expr(p);
        if (!cond || !push(p, n, cond)) goto error;
        struct dsl_node *body = parse_block(p, kw);
        if (!body || !push(p, n, body)) goto error;
        if (check(p, DSL_T_ELIF)) {
            kw = advance(p);
            continue;
        }
        if (check(p, DSL_T_ELSE)) {
            kw = advance(p);
            n->b = parse_block(p, kw);
            if (!n->b) goto error;
        }
        break;
    }
    return finish(p, n);
error:
    dsl_node_free(n);
    return NULL;
}

static struct dsl_node *parse_while(struct parser *p)
{
    const struct dsl_token *kw = advance(p);
    struct dsl_node *n = node(p, DSL_N_WHILE, kw->pos);
    if (!n) return NULL;
    n->a = dsl_parse_expr(p);
    if (!n->a) goto error;
    p->loops++;
    n->b = parse_block(p, kw);
    p->loops--;
    if (!n->b) goto error;
    if (check(p, DSL_T_ELSE)) {
        dsl_parse_fail(
            p, "SyntaxError", peek(p)->pos,
            "`else` after a `%s` loop is not supported in the MiniTorch language: set a flag "
            "before `break` and test it after the loop",
            kw->type == DSL_T_FOR ? "for" : "while");
        goto error;
    }
    return finish(p, n);
error:
    dsl_node_free(n);
    return NULL;
}

static struct dsl_node *parse_for(struct parser *p)
{
    const struct dsl_token *kw = advance(p);
    struct dsl_node *n = node(p, DSL_N_FOR, kw->pos);
    if (!n) return NULL;
    struct dsl_node *target = dsl_parse_exprlist(p, dsl_parse_for_target);
    if (!target) goto error;
    if (target->kind == DSL_N_NAME) { /* one variable: the common case keeps its name */
        n->name = target->name;
        target->name = NULL;
        dsl_node_free(target);
    } else if (!push(p, n, target)) {
        goto error;
    }
    if (!expect(p, DSL_T_IN, "'in'")) goto error;
    n->a = dsl_parse_expr(p);
    if (!n->a) goto error;
    p->loops++;
    n->b = parse_block(p, kw);
    p->loops--;
    if (!n->b) goto error;
    if (check(p, DSL_T_ELSE)) {
        dsl_parse_fail(
            p, "SyntaxError", peek(p)->pos,
            "`else` after a `%s` loop is not supported in the MiniTorch language: set a flag "
            "before `break` and test it after the loop",
            kw->type == DSL_T_FOR ? "for" : "while");
        goto error;
    }
    return finish(p, n);
error:
    dsl_node_free(n);
    return NULL;
}

/* The body's first statement, when it is a string literal: a docstring. */
static struct dsl_value docstring_of(const struct dsl_node *body)
{
    const struct dsl_node *first = body->nkids ? body->kids[0] : NULL;
    if (first && first->kind == DSL_N_EXPR && first->a->kind == DSL_N_CONST &&
        first->a->value.kind == DSL_STR)
        return dsl_value_retain(first->a->value);
    return dsl_none();
}

/* def NAME '(' [param ['=' default] (',' ...)*] ')' ':' block. The docstring is the body's first
 * statement when that is a string literal. */
/* Skips an annotation (`: expr` after a parameter, `-> expr` after a def's parameters): parsed,
 * so that it must be an expression, then dropped unevaluated, as under Python's `from
 * __future__ import annotations` (MiniTorch's files name typing's Callable, Optional...). */
static bool skip_annotation(struct parser *p)
{
    struct dsl_node *e = dsl_parse_expr(p);
    dsl_node_free(e);
    return e != NULL;
}

/* One parameter name (and, when `with_default`, an optional '=' default) appended to def n; a
 * def's parameters may be annotated (p->annotations), a lambda's may not. */
static bool parse_param(struct parser *p, struct dsl_node *n, bool with_default, bool *defaults)
{
    if (!check(p, DSL_T_NAME)) {
        dsl_parse_fail(p, "SyntaxError", peek(p)->pos, "expected a parameter name");
        return false;
    }
    const struct dsl_token *pt = advance(p);
    for (size_t k = 0; k < n->nkw; k++)
        if (strlen(n->kwnames[k]) == pt->len &&
            memcmp(n->kwnames[k], p->src + pt->pos, pt->len) == 0) {
            dsl_parse_fail(p, "SyntaxError", pt->pos,
                           "duplicate argument '%s' in function definition", n->kwnames[k]);
            return false;
        }
    if (p->annotations && match(p, DSL_T_COLON) && !skip_annotation(p)) return false;
    struct dsl_node *def = NULL;
    if (with_default && match(p, DSL_T_ASSIGN)) {
        if (!(def = dsl_parse_expr(p))) return false;
        *defaults = true;
    } else if (with_default && *defaults && !n->star && n->nargs == SIZE_MAX) {
        dsl_parse_fail(p, "SyntaxError", pt->pos, "non-default argument follows default argument");
        return false;
    }
    char *pname = copy_text(p, pt);
    if (!pname) {
        dsl_node_free(def);
        return false;
    }
    return push_kw(p, n, pname, def);
}

/* The parameters of def or lambda n, up to (not including) `close`: names with defaults, then
 * `*args` or a bare `*` and keyword-only names, then `**kwargs` (see DSL_N_DEF in ast.h). */
static bool parse_params(struct parser *p, struct dsl_node *n, enum dsl_tok close)
{
    bool defaults = false;
    const struct dsl_token *bare = NULL;
    n->nargs = SIZE_MAX; /* until a * is seen */
    while (!check(p, close)) {
        const struct dsl_token *t = peek(p);
        if (match(p, DSL_T_SLASH)) { /* the names before it are positional-only */
            const char *why = n->nargs != SIZE_MAX ? "/ must be ahead of *"
                              : n->nposonly        ? "/ may appear only once"
                              : n->nkw == 0        ? "at least one argument must precede /"
                                                   : NULL;
            if (why) {
                dsl_parse_fail(p, "SyntaxError", t->pos, "%s", why);
                return false;
            }
            n->nposonly = n->nkw;
        } else if (match(p, DSL_T_STAR)) {
            if (n->nargs != SIZE_MAX) {
                dsl_parse_fail(p, "SyntaxError", t->pos, "* argument may appear only once");
                return false;
            }
            n->nargs = n->nkw;
            if (check(p, DSL_T_NAME)) {
                if (!parse_param(p, n, false, &defaults)) return false;
                n->star = true;
            } else {
                bare = t;
            }
        } else if (match(p, DSL_T_DSTAR)) {
            if (!parse_param(p, n, false, &defaults)) return false;
            n->dstar = true;
            if (match(p, DSL_T_COMMA) && !check(p, close)) {
                dsl_parse_fail(p, "SyntaxError", peek(p)->pos,
                               "arguments cannot follow var-keyword argument");
                return false;
            }
            break;
        } else if (!parse_param(p, n, true, &defaults)) {
            return false;
        }
        if (!match(p, DSL_T_COMMA)) break;
    }
    if (n->nargs == SIZE_MAX) n->nargs = n->nkw - (n->dstar ? 1 : 0);
    if (bare && n->nkw - (n->dstar ? 1 : 0) == n->nargs) {
        dsl_parse_fail(p, "SyntaxError", bare->pos, "named arguments must follow bare *");
        return false;
    }
    return true;
}

/* lambda [params]: expression -- a DEF named "<lambda>" whose body returns the expression, so
 * that it is a function like any other (calls, errors, closures). */
struct dsl_node *dsl_parse_lambda(struct parser *p, const struct dsl_token *tok)
{
    struct dsl_node *n = node(p, DSL_N_DEF, tok->pos);
    if (!n) return NULL;
    struct dsl_node *ret = NULL;
    if (!(n->name = malloc(sizeof "<lambda>"))) {
        fail_nomem(p);
        goto error;
    }
    memcpy(n->name, "<lambda>", sizeof "<lambda>");
    bool annotations = p->annotations; /* a lambda in a def's default: its ':' ends params */
    p->annotations = false;
    bool params = parse_params(p, n, DSL_T_COLON);
    p->annotations = annotations;
    if (!params || !expect(p, DSL_T_COLON, "':' or ','")) goto error;
    if (!(n->b = node(p, DSL_N_BLOCK, tok->pos))) goto error;
    ret = node(p, DSL_N_RETURN, peek(p)->pos);
    if (!ret) goto error;
    int loops = p->loops;
    struct dsl_node *outer = p->def;
    p->loops = 0;
    p->functions++;
    p->def = NULL; /* a yield in a lambda is no statement: an error below */
    ret->a = dsl_parse_expr(p);
    p->def = outer;
    p->functions--;
    p->loops = loops;
    if (!ret->a) goto error;
    bool pushed = finish(p, ret) && push(p, n->b, ret);
    ret = NULL; /* freed by finish or push on failure, else the block's */
    if (!pushed) goto error;
    if (!finish(p, n->b)) {
        n->b = NULL;
        goto error;
    }
    return finish(p, n);
error:
    dsl_node_free(ret);
    dsl_node_free(n);
    return NULL;
}

/* def NAME '(' params ')' ':' block. The docstring is the body's first statement when that is a
 * string literal. */
static struct dsl_node *parse_def(struct parser *p)
{
    const struct dsl_token *kw = advance(p);
    if (!check(p, DSL_T_NAME))
        return dsl_parse_fail(p, "SyntaxError", peek(p)->pos,
                              "expected a function name after 'def'");
    if (dsl_parse_unsupported_word(p, peek(p))) return NULL;
    const struct dsl_token *name = advance(p);
    struct dsl_node *n = node(p, DSL_N_DEF, name->pos);
    if (!n) return NULL;
    if (!(n->name = copy_text(p, name))) goto error;
    if (!expect(p, DSL_T_LPAREN, "'(' after the function name")) goto error;
    p->annotations = true;
    bool params = parse_params(p, n, DSL_T_RPAREN);
    p->annotations = false;
    if (!params || !expect(p, DSL_T_RPAREN, "')' or ','")) goto error;
    if (check(p, DSL_T_MINUS) && peek2(p)->type == DSL_T_GT && peek2(p)->pos == peek(p)->pos + 1) {
        advance(p); /* `->`: the return annotation */
        advance(p);
        if (!skip_annotation(p)) goto error;
    }
    int loops = p->loops; /* a loop around the def does not make `break` valid inside it */
    struct dsl_node *outer = p->def;
    p->loops = 0;
    p->functions++;
    p->def = n;
    n->b = parse_block(p, kw);
    p->def = outer;
    p->functions--;
    p->loops = loops;
    if (!n->b) goto error;
    n->value = docstring_of(n->b);
    n->doc = n->value.kind == DSL_STR;
    return finish(p, n);
error:
    dsl_node_free(n);
    return NULL;
}

/* class NAME ['(' [base] ')'] ':' block. One base at most: single inheritance. */
static struct dsl_node *parse_class(struct parser *p)
{
    const struct dsl_token *kw = advance(p);
    if (!check(p, DSL_T_NAME))
        return dsl_parse_fail(p, "SyntaxError", peek(p)->pos,
                              "expected a class name after 'class'");
    const struct dsl_token *name = advance(p);
    struct dsl_node *n = node(p, DSL_N_CLASS, name->pos);
    if (!n) return NULL;
    if (!(n->name = copy_text(p, name))) goto error;
    if (match(p, DSL_T_LPAREN) && !check(p, DSL_T_RPAREN)) {
        if (check(p, DSL_T_NAME) && peek2(p)->type == DSL_T_ASSIGN) {
            dsl_parse_fail(
                p, "SyntaxError", peek(p)->pos,
                "class keywords (metaclass=...) are not supported in the MiniTorch language");
            goto error;
        }
        if (!(n->a = dsl_parse_expr(p))) goto error;
        if (match(p, DSL_T_COMMA) && !check(p, DSL_T_RPAREN)) {
            dsl_parse_fail(
                p, "SyntaxError", peek(p)->pos,
                "multiple inheritance is not supported in the MiniTorch language: one base "
                "class at most");
            goto error;
        }
        if (!expect(p, DSL_T_RPAREN, "')'")) goto error;
    } else if (p->toks.t[p->i - 1].type == DSL_T_LPAREN && !expect(p, DSL_T_RPAREN, "')'")) {
        goto error;
    }
    /* a class body is no function and no loop: return, break and continue are errors there */
    int loops = p->loops, functions = p->functions;
    struct dsl_node *def = p->def; /* a class body is no function: yield is an error there */
    p->loops = p->functions = 0;
    p->def = NULL;
    n->b = parse_block(p, kw);
    p->loops = loops;
    p->functions = functions;
    p->def = def;
    if (!n->b) goto error;
    n->value = docstring_of(n->b);
    return finish(p, n);
error:
    dsl_node_free(n);
    return NULL;
}

/* try ':' block (except [EXPR [as NAME]] ':' block)* [else ':' block] [finally ':' block],
 * with at least one except or the finally, a bare except last. */
static struct dsl_node *parse_try(struct parser *p)
{
    const struct dsl_token *kw = advance(p);
    struct dsl_node *n = node(p, DSL_N_TRY, kw->pos);
    if (!n) return NULL;
    if (!(n->a = parse_block(p, kw))) goto error;
    size_t handlers = 0;
    const struct dsl_token *bare = NULL;
    while (check(p, DSL_T_EXCEPT)) {
        const struct dsl_token *ek = advance(p);
        if (bare) {
            dsl_parse_fail(p, "SyntaxError", bare->pos, "default 'except:' must be last");
            goto error;
        }
        if (check(p, DSL_T_STAR)) {
            dsl_parse_fail(
                p, "SyntaxError", peek(p)->pos,
                "`except*` (exception groups) is not supported in the MiniTorch language");
            goto error;
        }
        struct dsl_node *h = node(p, DSL_N_EXCEPT, ek->pos);
        if (!h || !push(p, n, h)) goto error;
        handlers++;
        if (check(p, DSL_T_COLON)) {
            bare = ek;
        } else {
            if (!(h->a = dsl_parse_expr(p))) goto error;
            if (check(p, DSL_T_COMMA)) {
                dsl_parse_fail(p, "SyntaxError", h->a->pos,
                               "multiple exception types must be parenthesized");
                goto error;
            }
            if (match(p, DSL_T_AS)) {
                if (!check(p, DSL_T_NAME)) {
                    dsl_parse_fail(p, "SyntaxError", peek(p)->pos, "expected a name after 'as'");
                    goto error;
                }
                if (dsl_parse_unsupported_word(p, peek(p)) || !(h->name = copy_text(p, advance(p))))
                    goto error;
            }
        }
        if (!(h->b = parse_block(p, ek))) goto error;
        dsl_node_update_height(h);
    }
    if (check(p, DSL_T_ELSE)) {
        const struct dsl_token *ek = advance(p);
        if (!handlers) {
            dsl_parse_fail(p, "SyntaxError", ek->pos, "expected 'except' or 'finally' block");
            goto error;
        }
        struct dsl_node *b = parse_block(p, ek);
        if (!b || !push(p, n, b)) goto error;
    }
    if (check(p, DSL_T_FINALLY)) {
        const struct dsl_token *fk = advance(p);
        if (!(n->b = parse_block(p, fk))) goto error;
    } else if (!handlers) {
        dsl_parse_fail(p, "SyntaxError", peek(p)->pos, "expected 'except' or 'finally' block");
        goto error;
    }
    return finish(p, n);
error:
    dsl_node_free(n);
    return NULL;
}

/* ':' then the rest of the line, or NEWLINE INDENT statements DEDENT. */
static struct dsl_node *parse_block(struct parser *p, const struct dsl_token *header)
{
    if (!expect(p, DSL_T_COLON, "':'")) return NULL;
    if (!enter(p, header->pos)) return NULL;
    struct dsl_node *block = node(p, DSL_N_BLOCK, header->pos);
    if (!block) goto done;
    if (!match(p, DSL_T_NEWLINE)) {
        if (!parse_simple_line(p, block)) goto error;
        goto done;
    }
    if (!match(p, DSL_T_INDENT)) {
        int line = 1;
        for (size_t k = 0; k < header->pos; k++) line += p->src[k] == '\n';
        dsl_parse_fail(p, "IndentationError", peek(p)->pos,
                       "expected an indented block after %s statement on line %d",
                       dsl_tok_name(header->type), line);
        goto error;
    }
    while (!check(p, DSL_T_DEDENT) && !check(p, DSL_T_EOF))
        if (!parse_line(p, block)) goto error;
    match(p, DSL_T_DEDENT);
    block = finish(p, block);
    goto done;
error:
    dsl_node_free(block);
    block = NULL;
done:
    p->depth--;
    return block;
}

/* `%name args`: the name is the first word after '%', the argument text the rest. */
static struct dsl_node *parse_magic(struct parser *p)
{
    const struct dsl_token *t = advance(p);
    const char *text = t->v.str.s;
    size_t nl = 0;
    while (text[nl] && text[nl] != ' ' && text[nl] != '\t' && text[nl] != '\f' && text[nl] != '\r')
        nl++;
    const char *args = text + nl;
    while (*args == ' ' || *args == '\t' || *args == '\f' || *args == '\r') args++;
    struct dsl_node *n = node(p, DSL_N_MAGIC, t->pos);
    if (!n) return NULL;
    n->name = strndup(text, nl);
    if (!n->name || dsl_str_value(args, strlen(args), &n->value) != 0) {
        dsl_node_free(n);
        return fail_nomem(p);
    }
    if (!check(p, DSL_T_NEWLINE) && !check(p, DSL_T_EOF)) {
        dsl_node_free(n);
        return fail_unexpected(p, peek(p));
    }
    match(p, DSL_T_NEWLINE);
    return n;
}

/* '@' expression NEWLINE, one or more, then the def or class they decorate: the decorators
 * become its kids, outermost first (applied last, as in Python). */
static struct dsl_node *parse_decorated(struct parser *p)
{
    struct dsl_node *decos = node(p, DSL_N_BLOCK, peek(p)->pos), *n = NULL;
    if (!decos) return NULL;
    while (match(p, DSL_T_AT)) {
        struct dsl_node *e = dsl_parse_expr(p);
        if (!e || !push(p, decos, e)) goto done;
        if (!check(p, DSL_T_NEWLINE)) {
            dsl_parse_fail(p, "SyntaxError", peek(p)->pos,
                           "expected a new line after the decorator");
            goto done;
        }
        advance(p);
        while (match(p, DSL_T_NEWLINE)) {}
    }
    if (!check(p, DSL_T_DEF) && !check(p, DSL_T_CLASS)) {
        dsl_parse_fail(p, "SyntaxError", peek(p)->pos,
                       check(p, DSL_T_INDENT)
                           ? "unexpected indent"
                           : "invalid syntax: a decorator must be followed by a def or a class");
        goto done;
    }
    if (!(n = check(p, DSL_T_DEF) ? parse_def(p) : parse_class(p))) goto done;
    n->kids = decos->kids; /* a def or a class has no kids of its own */
    n->nkids = decos->nkids;
    n->capkids = decos->capkids;
    decos->kids = NULL;
    decos->nkids = decos->capkids = 0;
    n = finish(p, n);
done:
    dsl_node_free(decos);
    return n;
}

/* with ITEM (',' ITEM)* ':' block, where ITEM is EXPR ['as' TARGET]: several items nest, as
 * Python's `with a, b:` is `with a:` around `with b:`. */
#define MAX_WITH_ITEMS 16
static struct dsl_node *parse_with(struct parser *p)
{
    const struct dsl_token *kw = advance(p);
    struct dsl_node *items[MAX_WITH_ITEMS], *body = NULL;
    size_t n = 0;
    do {
        if (n == MAX_WITH_ITEMS) {
            dsl_parse_fail(p, "SyntaxError", peek(p)->pos, "more than %d items in one `with`",
                           MAX_WITH_ITEMS);
            goto error;
        }
        struct dsl_node *w = node(p, DSL_N_WITH, n ? peek(p)->pos : kw->pos);
        if (!w) goto error;
        items[n++] = w;
        if (!(w->a = dsl_parse_expr(p))) goto error;
        if (match(p, DSL_T_AS)) {
            struct dsl_node *t = dsl_parse_for_target(p);
            if (!t) goto error;
            if (!push(p, w, t)) {
                dsl_node_free(t);
                goto error;
            }
        }
    } while (match(p, DSL_T_COMMA));
    if (!(body = parse_block(p, kw))) goto error;
    /* inside out: each item's body is the next item's statement */
    for (size_t i = n; i-- > 0;) {
        items[i]->b = body;
        body = NULL;
        n = i; /* items[i] and those after it now belong to items[i] */
        if (!finish(p, items[i])) goto error;
        if (i == 0) return items[0];
        if (!(body = node(p, DSL_N_BLOCK, items[i]->pos)) || !push(p, body, items[i])) {
            dsl_node_free(items[i]);
            goto error;
        }
        body = finish(p, body);
        if (!body) goto error;
    }
error:
    for (size_t i = 0; i < n; i++) dsl_node_free(items[i]);
    dsl_node_free(body);
    return NULL;
}

/* One statement line (simple statements or a compound statement) appended to block. */
static bool parse_line(struct parser *p, struct dsl_node *block)
{
    const struct dsl_token *t = peek(p);
    struct dsl_node *s = NULL;
    switch (t->type) {
    case DSL_T_IF: s = parse_if(p); break;
    case DSL_T_WHILE: s = parse_while(p); break;
    case DSL_T_FOR: s = parse_for(p); break;
    case DSL_T_DEF: s = parse_def(p); break;
    case DSL_T_CLASS: s = parse_class(p); break;
    case DSL_T_AT: s = parse_decorated(p); break;
    case DSL_T_MAGIC: s = parse_magic(p); break;
    case DSL_T_TRY: s = parse_try(p); break;
    case DSL_T_NAME:
        if (!is_word(p, t, "with")) return parse_simple_line(p, block);
        s = parse_with(p);
        break;
    case DSL_T_ELIF:
    case DSL_T_ELSE:
        dsl_parse_fail(p, "SyntaxError", t->pos, "%s without a matching 'if'",
                       dsl_tok_name(t->type));
        return false;
    case DSL_T_EXCEPT:
    case DSL_T_FINALLY:
        dsl_parse_fail(p, "SyntaxError", t->pos, "%s without a matching 'try'",
                       dsl_tok_name(t->type));
        return false;
    case DSL_T_INDENT: fail_unexpected(p, t); return false;
    case DSL_T_NEWLINE: advance(p); return true;
    default: return parse_simple_line(p, block);
    }
    return s && push(p, block, s);
}

static bool parser_init(struct parser *p, const char *src, size_t len, struct dsl_syntax_error *err)
{
    memset(p, 0, sizeof *p);
    p->src = src;
    p->err = err;
    return dsl_lex(src, len, &p->toks, err) == 0;
}

struct dsl_node *dsl_parse_cell(const char *src, size_t len, struct dsl_syntax_error *err)
{
    struct parser p;
    if (!parser_init(&p, src, len, err)) return NULL;
    if (p.toks.n > 1 && p.toks.t[0].type == DSL_T_STRING &&
        (p.toks.t[1].type == DSL_T_NEWLINE || p.toks.t[1].type == DSL_T_SEMI))
        p.future_from = 2; /* a docstring may come before the future imports */
    struct dsl_node *block = node(&p, DSL_N_BLOCK, 0);
    while (block && !check(&p, DSL_T_EOF)) {
        if (!parse_line(&p, block)) {
            dsl_node_free(block);
            block = NULL;
        } else if (check(&p, DSL_T_DEDENT)) {
            fail_unexpected(&p, peek(&p));
            dsl_node_free(block);
            block = NULL;
        }
    }
    if (block) block = finish(&p, block);
    dsl_tokens_free(&p.toks);
    return block;
}

struct dsl_node *dsl_parse_expression(const char *src, size_t len, struct dsl_syntax_error *err)
{
    struct parser p;
    if (!parser_init(&p, src, len, err)) return NULL;
    struct dsl_node *e = NULL;
    if (check(&p, DSL_T_EOF)) {
        dsl_parse_fail(&p, "SyntaxError", peek(&p)->pos, "invalid syntax: expected an expression");
    } else {
        e = dsl_parse_expr(&p);
        match(&p, DSL_T_NEWLINE);
        if (e && !check(&p, DSL_T_EOF)) {
            fail_unexpected(&p, peek(&p));
            dsl_node_free(e);
            e = NULL;
        }
    }
    dsl_tokens_free(&p.toks);
    return e;
}
