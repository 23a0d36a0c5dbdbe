/* parse_expr.c — expressions, by Pratt: the half of the parser (parser.h) that statements call
 * for every value they hold.
 *
 * A rule table indexed by token type (clox's design) says what each token may do: start an
 * expression (prefix), continue one (infix), and how tightly it binds. Precedence, lowest first,
 * follows Python: `a if c else b`, or, and, not, comparisons (chained, with in / not in, is /
 * is not), | ^ & << >>, + -, * / // % @, unary - + ~, ** (right-associative, binds tighter than
 * a unary minus on its left), then calls, indexing and attributes. Displays (tuples, lists,
 * sets, dicts and their comprehensions) and f-strings are prefix rules. A lambda is one too,
 * defined in parser.c beside def, whose parameters it shares.
 *
 * Every nested expression counts against DSL_MAX_PARSE_DEPTH (parse_prec) and every node's
 * height against DSL_MAX_AST_HEIGHT (finish), so no input overflows the C stack here or in the
 * evaluator. */
#include "lang/parser.h"

enum prec {
    P_NONE,
    P_COND, /* a if c else b */
    P_OR,
    P_AND,
    P_NOT,
    P_CMP,
    P_BOR,   /* | */
    P_BXOR,  /* ^ */
    P_BAND,  /* & */
    P_SHIFT, /* << >> */
    P_TERM,
    P_FACTOR,
    P_UNARY,
    P_POWER,
    P_POSTFIX,
};

typedef struct dsl_node *(*prefix_fn)(struct parser *p, const struct dsl_token *tok);
typedef struct dsl_node *(*infix_fn)(struct parser *p, struct dsl_node *left,
                                     const struct dsl_token *tok);

struct rule {
    prefix_fn prefix;
    infix_fn infix;
    enum prec prec;
};

static const struct rule *rule_of(enum dsl_tok t);
static struct dsl_node *parse_prec(struct parser *p, enum prec prec);

/* ---- expressions: prefix rules ---------------------------------------------------------- */

static struct dsl_node *prefix_int(struct parser *p, const struct dsl_token *tok)
{
    if (tok->overflow)
        return dsl_parse_fail(p, "OverflowError", tok->pos, "integer literal too large for int64");
    struct dsl_node *n = node(p, DSL_N_CONST, tok->pos);
    if (n) n->value = dsl_int(tok->v.i);
    return n;
}

static struct dsl_node *prefix_float(struct parser *p, const struct dsl_token *tok)
{
    struct dsl_node *n = node(p, DSL_N_CONST, tok->pos);
    if (n) n->value = dsl_float(tok->v.f);
    return n;
}

/* ---- f-strings: the lexer's pieces (lexer.h) into an FSTRING node ---------------------- */

static bool fstring_parts(struct parser *p, struct dsl_node *n, enum dsl_tok end);

/* A CONST string node from a STRING token. */
static struct dsl_node *string_part(struct parser *p, const struct dsl_token *t)
{
    struct dsl_node *c = node(p, DSL_N_CONST, t->pos);
    if (c && dsl_str_value(t->v.str.s, t->v.str.n, &c->value) != 0) {
        dsl_node_free(c);
        return fail_nomem(p);
    }
    return c;
}

/* A field after its FSTRING_FIELD token: the expression (a bare a, b is a tuple), the
 * conversion and the format spec. */
static struct dsl_node *fstring_field(struct parser *p, const struct dsl_token *open)
{
    struct dsl_node *f = node(p, DSL_N_FIELD, open->pos);
    if (!f || !(f->a = dsl_parse_exprlist(p, dsl_parse_expr))) goto error;
    enum dsl_tok t = peek(p)->type;
    if (t != DSL_T_FSTRING_CONV && t != DSL_T_FSTRING_SPEC && t != DSL_T_FSTRING_FIELD_END) {
        dsl_parse_fail(p, "SyntaxError", peek(p)->pos, "f-string: invalid syntax");
        goto error;
    }
    if (check(p, DSL_T_FSTRING_CONV)) f->value = dsl_int(advance(p)->v.i);
    if (check(p, DSL_T_FSTRING_SPEC)) {
        if (!(f->b = node(p, DSL_N_FSTRING, advance(p)->pos)) ||
            !fstring_parts(p, f->b, DSL_T_FSTRING_FIELD_END))
            goto error;
        dsl_node_update_height(f->b);
    }
    if (!expect(p, DSL_T_FSTRING_FIELD_END, "'}'")) goto error;
    return finish(p, f);
error:
    dsl_node_free(f);
    return NULL;
}

/* Appends the pieces and fields up to the token `end` (not consumed) to n. */
static bool fstring_parts(struct parser *p, struct dsl_node *n, enum dsl_tok end)
{
    while (!check(p, end)) {
        const struct dsl_token *t = advance(p);
        struct dsl_node *part = t->type == DSL_T_STRING          ? string_part(p, t)
                                : t->type == DSL_T_FSTRING_FIELD ? fstring_field(p, t)
                                                                 : fail_unexpected(p, t);
        if (!part || !push(p, n, part)) return false;
    }
    return true;
}

/* The rest of an f-string after FSTRING_START, then the string literals and f-strings
 * adjacent to it, which join it as Python joins them. n: the FSTRING node. */
static struct dsl_node *fstring_rest(struct parser *p, struct dsl_node *n)
{
    for (;;) {
        if (!fstring_parts(p, n, DSL_T_FSTRING_END)) goto error;
        advance(p);
        while (check(p, DSL_T_STRING)) {
            struct dsl_node *part = string_part(p, advance(p));
            if (!part || !push(p, n, part)) goto error;
        }
        if (!match(p, DSL_T_FSTRING_START)) break;
    }
    return finish(p, n);
error:
    dsl_node_free(n);
    return NULL;
}

static struct dsl_node *prefix_fstring(struct parser *p, const struct dsl_token *tok)
{
    struct dsl_node *n = node(p, DSL_N_FSTRING, tok->pos);
    return n ? fstring_rest(p, n) : NULL;
}

static struct dsl_node *prefix_string(struct parser *p, const struct dsl_token *tok)
{
    /* adjacent literals concatenate: "a" "b" == "ab" */
    size_t total = tok->v.str.n, j = p->i;
    while (p->toks.t[j].type == DSL_T_STRING) {
        total += p->toks.t[j].v.str.n;
        j++;
    }
    struct dsl_node *n = node(p, DSL_N_CONST, tok->pos);
    if (!n) return NULL;
    if (total > DSL_MAX_STR_BYTES) {
        dsl_node_free(n);
        return dsl_parse_fail(p, "MemoryError", tok->pos, "string literal too long");
    }
    struct dsl_str *s = dsl_str_alloc(total);
    if (!s) {
        dsl_node_free(n);
        return fail_nomem(p);
    }
    memcpy(s->data, tok->v.str.s, tok->v.str.n);
    size_t off = tok->v.str.n;
    while (check(p, DSL_T_STRING)) {
        const struct dsl_token *t = advance(p);
        memcpy(s->data + off, t->v.str.s, t->v.str.n);
        off += t->v.str.n;
    }
    n->value.kind = DSL_STR;
    n->value.as.s = s;
    if (check(p, DSL_T_FSTRING_START)) { /* "a" f"{b}": an f-string starting with "a" */
        struct dsl_node *f = node(p, DSL_N_FSTRING, tok->pos);
        if (!f || !push(p, f, n)) {
            if (!f) dsl_node_free(n);
            dsl_node_free(f);
            return NULL;
        }
        advance(p);
        return fstring_rest(p, f);
    }
    return n;
}

static struct dsl_node *prefix_const(struct parser *p, const struct dsl_token *tok)
{
    struct dsl_node *n = node(p, DSL_N_CONST, tok->pos);
    if (!n) return NULL;
    if (tok->type == DSL_T_TRUE)
        n->value = dsl_bool(true);
    else if (tok->type == DSL_T_FALSE)
        n->value = dsl_bool(false);
    else if (tok->type == DSL_T_ELLIPSIS)
        n->value = dsl_ellipsis();
    else
        n->value = dsl_none();
    return n;
}

/* Python's keywords the lexer reads as names, which the language does not have or (`with`)
 * has only where a statement starts: the SyntaxError that says so, wherever one starts an
 * expression. */
static const struct {
    const char *word, *msg;
} unsupported_words[] = {
    {"yield", "`yield` as a value (x = yield v, send()) is not supported in the MiniTorch "
              "language: write `yield v` as a statement of its own"},
    {"async", "`async` is not supported in the MiniTorch language (no coroutines)"},
    {"await", "`await` is not supported in the MiniTorch language (no coroutines)"},
    {"with", "invalid syntax: `with` starts a statement of its own"},
};

/* Fails with the message of an unsupported word; false when tok is none. */
bool dsl_parse_unsupported_word(struct parser *p, const struct dsl_token *tok)
{
    if (tok->type != DSL_T_NAME) return false;
    for (size_t k = 0; k < sizeof unsupported_words / sizeof unsupported_words[0]; k++)
        if (strlen(unsupported_words[k].word) == tok->len &&
            memcmp(unsupported_words[k].word, p->src + tok->pos, tok->len) == 0) {
            dsl_parse_fail(p, "SyntaxError", tok->pos, "%s", unsupported_words[k].msg);
            return true;
        }
    return false;
}

static struct dsl_node *prefix_name(struct parser *p, const struct dsl_token *tok)
{
    if (dsl_parse_unsupported_word(p, tok)) return NULL;
    struct dsl_node *n = node(p, DSL_N_NAME, tok->pos);
    if (n && !(n->name = copy_text(p, tok))) {
        dsl_node_free(n);
        return NULL;
    }
    if (n) n->hash = dsl_name_hash(n->name);
    if (n) n->iname = dsl_name_intern(n->name, n->hash); /* NULL: looked up by its text */
    return n;
}

/* A for loop's variable: a name, or a tuple or list of targets, `(i, (a, b))`; not an
 * expression, which would read `for x in xs` as a comparison. */
struct dsl_node *dsl_parse_for_target(struct parser *p)
{
    const struct dsl_token *t = peek(p);
    if (t->type == DSL_T_NAME) return prefix_name(p, advance(p));
    if (t->type != DSL_T_LPAREN && t->type != DSL_T_LBRACKET)
        return dsl_parse_fail(p, "SyntaxError", t->pos, "expected a variable name after 'for'");
    enum dsl_tok close = t->type == DSL_T_LPAREN ? DSL_T_RPAREN : DSL_T_RBRACKET;
    advance(p);
    if (!enter(p, t->pos)) return NULL;
    struct dsl_node *n = node(p, DSL_N_TUPLE, t->pos);
    bool comma = false;
    while (n && !check(p, close)) {
        struct dsl_node *item = dsl_parse_for_target(p);
        if (!item || !push(p, n, item)) goto error;
        if (!match(p, DSL_T_COMMA)) break;
        comma = true;
    }
    if (!n || !expect(p, close, close == DSL_T_RPAREN ? "')'" : "']'")) goto error;
    p->depth--;
    if (close == DSL_T_RPAREN && n->nkids == 1 && !comma) { /* (x) is x, as in Python */
        struct dsl_node *only = n->kids[0];
        n->nkids = 0;
        dsl_node_free(n);
        return only;
    }
    return finish(p, n);
error:
    p->depth--;
    dsl_node_free(n);
    return NULL;
}

/* Most `for`/`if` clauses one comprehension may have: evaluating them nests one C call per
 * clause. */
#define DSL_MAX_COMP_CLAUSES 20

/* A comprehension of `kind` whose item (a, and b for a dict) was just parsed, with the parser
 * on its first `for`: reads the clauses `for T in x` and `if c` (each an or-level expression,
 * as in Python). The items pass to the new node, or are freed on failure. */
static struct dsl_node *parse_comprehension(struct parser *p, enum dsl_node_kind kind,
                                            struct dsl_node *a, struct dsl_node *b)
{
    struct dsl_node *n = node(p, kind, a->pos);
    if (!n) {
        dsl_node_free(a);
        dsl_node_free(b);
        return NULL;
    }
    n->a = a;
    n->b = b;
    while (check(p, DSL_T_FOR) || check(p, DSL_T_IF)) {
        const struct dsl_token *kw = advance(p);
        if (n->nkids == DSL_MAX_COMP_CLAUSES) {
            dsl_parse_fail(p, "SyntaxError", kw->pos,
                           "too many clauses in one comprehension (limit %d)",
                           DSL_MAX_COMP_CLAUSES);
            goto error;
        }
        bool is_for = kw->type == DSL_T_FOR;
        struct dsl_node *c = node(p, is_for ? DSL_N_COMP_FOR : DSL_N_COMP_IF, kw->pos);
        if (!c || !push(p, n, c)) goto error;
        if (is_for) {
            struct dsl_node *target = dsl_parse_exprlist(p, dsl_parse_for_target);
            if (!target || !push(p, c, target) || !expect(p, DSL_T_IN, "'in'")) goto error;
        }
        if (!(c->a = parse_prec(p, P_OR))) goto error;
        dsl_node_update_height(c); /* n's finish below checks the bound */
    }
    return finish(p, n);
error:
    dsl_node_free(n);
    return NULL;
}

/* '(' expr ')' is grouping; a comma makes a tuple: (), (a,), (a, b); a `for` a generator
 * expression. */
static struct dsl_node *prefix_group(struct parser *p, const struct dsl_token *tok)
{
    if (match(p, DSL_T_RPAREN)) return node(p, DSL_N_TUPLE, tok->pos);
    struct dsl_node *e = dsl_parse_expr(p);
    if (e && check(p, DSL_T_FOR))
        e = parse_comprehension(p, DSL_N_GENEXP, e, NULL);
    else if (e)
        e = dsl_parse_exprlist_from(p, e, dsl_parse_expr);
    if (e && !expect(p, DSL_T_RPAREN, "')'")) {
        dsl_node_free(e);
        return NULL;
    }
    return e;
}

static struct dsl_node *prefix_list(struct parser *p, const struct dsl_token *tok)
{
    struct dsl_node *n = node(p, DSL_N_LIST, tok->pos);
    if (!n) return NULL;
    while (!check(p, DSL_T_RBRACKET)) {
        struct dsl_node *item = dsl_parse_expr(p);
        if (item && n->nkids == 0 && check(p, DSL_T_FOR)) { /* [x for x in xs] */
            dsl_node_free(n);
            n = parse_comprehension(p, DSL_N_LISTCOMP, item, NULL);
            if (!n || !expect(p, DSL_T_RBRACKET, "']'")) goto error;
            return n;
        }
        if (!item || !push(p, n, item)) goto error;
        if (!match(p, DSL_T_COMMA)) break;
    }
    if (!expect(p, DSL_T_RBRACKET, "']' or ','")) goto error;
    return finish(p, n);
error:
    dsl_node_free(n);
    return NULL;
}

/* The rest of a set display whose first item n holds: (',' item)* [','] '}', or a set
 * comprehension {x for ...}. */
static struct dsl_node *parse_set(struct parser *p, struct dsl_node *n)
{
    if (check(p, DSL_T_FOR)) {
        struct dsl_node *item = n->kids[0];
        n->nkids = 0;
        dsl_node_free(n);
        n = parse_comprehension(p, DSL_N_SETCOMP, item, NULL);
        if (!n || !expect(p, DSL_T_RBRACE, "'}'")) goto error;
        return n;
    }
    while (match(p, DSL_T_COMMA) && !check(p, DSL_T_RBRACE)) {
        struct dsl_node *item = dsl_parse_expr(p);
        if (!item || !push(p, n, item)) goto error;
    }
    n->kind = DSL_N_SET;
    if (!expect(p, DSL_T_RBRACE, "'}' or ','")) goto error;
    return finish(p, n);
error:
    dsl_node_free(n);
    return NULL;
}

/* '{' [key ':' value (',' key ':' value)* [',']] '}': a dict display; a first item without
 * its ':' makes a set display (parse_set). */
static struct dsl_node *prefix_dict(struct parser *p, const struct dsl_token *tok)
{
    struct dsl_node *n = node(p, DSL_N_DICT, tok->pos);
    if (!n) return NULL;
    while (!check(p, DSL_T_RBRACE)) {
        if (check(p, DSL_T_DSTAR)) {
            dsl_parse_fail(p, "SyntaxError", peek(p)->pos,
                           "dict unpacking {**d} is not supported in the MiniTorch language: use "
                           "d.copy() and d.update(...)");
            goto error;
        }
        struct dsl_node *key = dsl_parse_expr(p);
        if (!key || !push(p, n, key)) goto error;
        if (!check(p, DSL_T_COLON)) {
            if (n->nkids == 1 &&
                (check(p, DSL_T_COMMA) || check(p, DSL_T_RBRACE) || check(p, DSL_T_FOR)))
                return parse_set(p, n);
            dsl_parse_fail(p, "SyntaxError", peek(p)->pos, "':' expected after dictionary key");
            goto error;
        }
        advance(p);
        struct dsl_node *value = dsl_parse_expr(p);
        if (value && n->nkids == 1 && check(p, DSL_T_FOR)) { /* {k: v for ...} */
            struct dsl_node *k = n->kids[0];
            n->nkids = 0;
            dsl_node_free(n);
            n = parse_comprehension(p, DSL_N_DICTCOMP, k, value);
            if (!n || !expect(p, DSL_T_RBRACE, "'}'")) goto error;
            return n;
        }
        if (!value || !push(p, n, value)) goto error;
        if (!match(p, DSL_T_COMMA)) break;
    }
    if (!expect(p, DSL_T_RBRACE, "'}' or ','")) goto error;
    return finish(p, n);
error:
    dsl_node_free(n);
    return NULL;
}

static struct dsl_node *prefix_unary(struct parser *p, const struct dsl_token *tok)
{
    bool is_not = tok->type == DSL_T_NOT;
    struct dsl_node *n = node(p, is_not ? DSL_N_NOT : DSL_N_UNARY, tok->pos);
    if (!n) return NULL;
    n->op = tok->type;
    n->a = parse_prec(p, is_not ? P_NOT : P_UNARY);
    if (!n->a) {
        dsl_node_free(n);
        return NULL;
    }
    struct dsl_node *c = n->a;
    if ((n->op == DSL_T_MINUS || n->op == DSL_T_PLUS) && c->kind == DSL_N_CONST &&
        (c->value.kind == DSL_INT || c->value.kind == DSL_FLOAT)) {
        /* -1, -0.5: one constant, as CPython folds it, not an operator run at every read
         * (xs[-1] in a loop); no int literal is past INT64_MAX, so its negation fits */
        if (n->op == DSL_T_MINUS && c->value.kind == DSL_INT) c->value.as.i = -c->value.as.i;
        if (n->op == DSL_T_MINUS && c->value.kind == DSL_FLOAT) c->value.as.f = -c->value.as.f;
        c->pos = n->pos;
        n->a = NULL;
        dsl_node_free(n);
        return c;
    }
    return finish(p, n);
}

/* ---- expressions: infix rules ----------------------------------------------------------- */

static struct dsl_node *infix_binary(struct parser *p, struct dsl_node *left,
                                     const struct dsl_token *tok)
{
    const struct rule *r = rule_of(tok->type);
    enum dsl_node_kind kind = tok->type == DSL_T_AND  ? DSL_N_AND
                              : tok->type == DSL_T_OR ? DSL_N_OR
                                                      : DSL_N_BINARY;
    struct dsl_node *n = node(p, kind, tok->pos);
    if (!n) {
        dsl_node_free(left);
        return NULL;
    }
    n->op = tok->type;
    n->a = left;
    /* ** is right-associative and its right operand may carry a unary sign */
    n->b = parse_prec(p, tok->type == DSL_T_DSTAR ? P_UNARY : (enum prec)(r->prec + 1));
    if (!n->b) {
        dsl_node_free(n);
        return NULL;
    }
    return finish(p, n);
}

static bool is_compare_op(const struct parser *p)
{
    switch (peek(p)->type) {
    case DSL_T_EQ:
    case DSL_T_NE:
    case DSL_T_LT:
    case DSL_T_LE:
    case DSL_T_GT:
    case DSL_T_GE:
    case DSL_T_IN:
    case DSL_T_IS: return true;
    case DSL_T_NOT: return peek2(p)->type == DSL_T_IN;
    default: return false;
    }
}

static struct dsl_node *infix_compare(struct parser *p, struct dsl_node *left,
                                      const struct dsl_token *tok)
{
    struct dsl_node *n = node(p, DSL_N_COMPARE, tok->pos);
    if (!n || !push(p, n, left)) {
        if (!n) dsl_node_free(left);
        dsl_node_free(n);
        return NULL;
    }
    enum dsl_tok op = tok->type;
    for (;;) {
        if (op == DSL_T_NOT && !expect(p, DSL_T_IN, "'in' after 'not'")) goto error;
        if (op == DSL_T_IS && match(p, DSL_T_NOT)) op = DSL_T_IS_NOT;
        enum dsl_tok *ops = realloc(n->ops, n->nkids * sizeof *ops);
        if (!ops) {
            fail_nomem(p);
            goto error;
        }
        n->ops = ops;
        ops[n->nkids - 1] = op;
        struct dsl_node *right = parse_prec(p, P_BOR);
        if (!right || !push(p, n, right)) goto error;
        if (!is_compare_op(p)) break;
        op = advance(p)->type;
    }
    n->op = n->ops[0];
    const struct dsl_node *last = n->kids[1];
    n->flag = n->nkids == 2 && (n->op == DSL_T_IS || n->op == DSL_T_IS_NOT) &&
              last->kind == DSL_N_CONST && last->value.kind == DSL_NONE;
    return finish(p, n);
error:
    dsl_node_free(n);
    return NULL;
}

/* `*xs` or `**d` among a call's arguments: a STAR node in its kids, and the call's flag set.
 * `*xs` after `**d` is Python's SyntaxError. */
static bool parse_star_arg(struct parser *p, struct dsl_node *call)
{
    const struct dsl_token *star = advance(p);
    if (star->type == DSL_T_STAR)
        for (size_t k = 0; k < call->nkids; k++)
            if (call->kids[k]->kind == DSL_N_STAR && call->kids[k]->op == DSL_T_DSTAR) {
                dsl_parse_fail(p, "SyntaxError", star->pos,
                               "iterable argument unpacking follows keyword argument unpacking");
                return false;
            }
    struct dsl_node *s = node(p, DSL_N_STAR, star->pos);
    if (!s) return false;
    s->op = star->type;
    if (!(s->a = dsl_parse_expr(p))) {
        dsl_node_free(s);
        return false;
    }
    call->flag = true;
    return finish(p, s) && push(p, call, s);
}

static struct dsl_node *infix_call(struct parser *p, struct dsl_node *left,
                                   const struct dsl_token *tok)
{
    struct dsl_node *n = node(p, DSL_N_CALL, left ? left->pos : tok->pos);
    if (!n) {
        dsl_node_free(left);
        return NULL;
    }
    n->a = left;
    while (!check(p, DSL_T_RPAREN)) {
        if (check(p, DSL_T_NAME) && peek2(p)->type == DSL_T_ASSIGN) {
            const struct dsl_token *name = advance(p);
            advance(p);
            for (size_t k = 0; k < n->nkw; k++)
                if (strlen(n->kwnames[k]) == name->len &&
                    memcmp(n->kwnames[k], p->src + name->pos, name->len) == 0) {
                    dsl_parse_fail(p, "SyntaxError", name->pos, "keyword argument repeated: %s",
                                   n->kwnames[k]);
                    goto error;
                }
            char *kw = copy_text(p, name);
            if (!kw) goto error;
            struct dsl_node *val = dsl_parse_expr(p);
            if (!val) {
                free(kw);
                goto error;
            }
            if (!push_kw(p, n, kw, val)) goto error;
        } else if (check(p, DSL_T_STAR) || check(p, DSL_T_DSTAR)) {
            if (!parse_star_arg(p, n)) goto error;
        } else {
            if (n->nkw > 0 || n->flag) {
                /* after f(a=1) or f(**d), a plain argument is an error, as in Python; f(*xs)
                 * may come after a keyword, and keywords after f(*xs) */
                bool dstar = false;
                for (size_t k = 0; k < n->nkids; k++)
                    dstar =
                        dstar || (n->kids[k]->kind == DSL_N_STAR && n->kids[k]->op == DSL_T_DSTAR);
                if (n->nkw > 0 || dstar) {
                    dsl_parse_fail(p, "SyntaxError", peek(p)->pos,
                                   dstar && !n->nkw
                                       ? "positional argument follows keyword argument unpacking"
                                       : "positional argument follows keyword argument");
                    goto error;
                }
            }
            struct dsl_node *arg = dsl_parse_expr(p);
            if (arg && check(p, DSL_T_FOR)) { /* sum(x * x for x in xs): the sole argument */
                bool alone = n->nkids == 0 && n->nkw == 0;
                if (!(arg = parse_comprehension(p, DSL_N_GENEXP, arg, NULL))) goto error;
                if (!alone || !check(p, DSL_T_RPAREN)) {
                    dsl_parse_fail(p, "SyntaxError", arg->pos,
                                   "Generator expression must be parenthesized");
                    dsl_node_free(arg);
                    goto error;
                }
            }
            if (!arg || !push(p, n, arg)) goto error;
        }
        if (!match(p, DSL_T_COMMA)) break;
    }
    if (!expect(p, DSL_T_RPAREN, "')' or ','")) goto error;
    return finish(p, n);
error:
    dsl_node_free(n);
    return NULL;
}

/* Whether the next token ends one part of a slice: `xs[a:]`, `xs[::2]`, `t[1:, 0]`. */
static bool ends_slice_part(const struct parser *p)
{
    enum dsl_tok t = peek(p)->type;
    return t == DSL_T_COLON || t == DSL_T_RBRACKET || t == DSL_T_COMMA;
}

/* One subscript: an expression, or a slice [start]:[stop][:[step]]. */
static struct dsl_node *parse_subscript(struct parser *p)
{
    struct dsl_node *start = NULL;
    size_t pos = peek(p)->pos;
    if (!check(p, DSL_T_COLON) && !(start = dsl_parse_expr(p))) return NULL;
    if (!check(p, DSL_T_COLON)) return start;
    advance(p);
    struct dsl_node *n = node(p, DSL_N_SLICE, pos);
    if (!n) {
        dsl_node_free(start);
        return NULL;
    }
    n->a = start;
    if (!ends_slice_part(p) && !(n->b = dsl_parse_expr(p))) goto error;
    if (match(p, DSL_T_COLON) && !ends_slice_part(p)) {
        struct dsl_node *step = dsl_parse_expr(p);
        if (!step || !push(p, n, step)) goto error;
    }
    return finish(p, n);
error:
    dsl_node_free(n);
    return NULL;
}

static struct dsl_node *infix_index(struct parser *p, struct dsl_node *left,
                                    const struct dsl_token *tok)
{
    struct dsl_node *n = node(p, DSL_N_INDEX, tok->pos);
    if (!n) {
        dsl_node_free(left);
        return NULL;
    }
    n->a = left;
    do {
        if (check(p, DSL_T_RBRACKET) && n->nkids > 0) break;
        struct dsl_node *ix = parse_subscript(p);
        if (!ix || !push(p, n, ix)) goto error;
    } while (match(p, DSL_T_COMMA));
    if (!expect(p, DSL_T_RBRACKET, "']'")) goto error;
    return finish(p, n);
error:
    dsl_node_free(n);
    return NULL;
}

static struct dsl_node *infix_attr(struct parser *p, struct dsl_node *left,
                                   const struct dsl_token *tok)
{
    struct dsl_node *n = node(p, DSL_N_ATTR, tok->pos);
    if (!n) {
        dsl_node_free(left);
        return NULL;
    }
    n->a = left;
    if (!check(p, DSL_T_NAME)) {
        dsl_parse_fail(p, "SyntaxError", peek(p)->pos, "expected an attribute name after '.'");
        dsl_node_free(n);
        return NULL;
    }
    n->pos = peek(p)->pos;
    if (!(n->name = copy_text(p, advance(p)))) {
        dsl_node_free(n);
        return NULL;
    }
    n->hash = dsl_name_hash(n->name);
    n->iname = dsl_name_intern(n->name, n->hash); /* NULL: looked up by its text */
    return finish(p, n);
}

/* `then if cond else other`: the condition binds like an `or` operand, the else branch may
 * itself be conditional (right to left, as in Python). */
static struct dsl_node *infix_cond(struct parser *p, struct dsl_node *left,
                                   const struct dsl_token *tok)
{
    struct dsl_node *n = node(p, DSL_N_COND, tok->pos);
    if (!n) {
        dsl_node_free(left);
        return NULL;
    }
    n->a = left;
    struct dsl_node *cond = parse_prec(p, P_OR);
    if (!cond || !push(p, n, cond)) goto error;
    if (!check(p, DSL_T_ELSE)) {
        dsl_parse_fail(p, "SyntaxError", peek(p)->pos, "expected 'else' after 'if' expression");
        goto error;
    }
    advance(p);
    n->b = parse_prec(p, P_COND);
    if (!n->b) goto error;
    return finish(p, n);
error:
    dsl_node_free(n);
    return NULL;
}

static const struct rule rules[DSL_T_COUNT] = {
    [DSL_T_INT] = {prefix_int, NULL, P_NONE},
    [DSL_T_FLOAT] = {prefix_float, NULL, P_NONE},
    [DSL_T_STRING] = {prefix_string, NULL, P_NONE},
    [DSL_T_FSTRING_START] = {prefix_fstring, NULL, P_NONE},
    [DSL_T_TRUE] = {prefix_const, NULL, P_NONE},
    [DSL_T_FALSE] = {prefix_const, NULL, P_NONE},
    [DSL_T_NONE] = {prefix_const, NULL, P_NONE},
    [DSL_T_ELLIPSIS] = {prefix_const, NULL, P_NONE},
    [DSL_T_NAME] = {prefix_name, NULL, P_NONE},
    [DSL_T_LPAREN] = {prefix_group, infix_call, P_POSTFIX},
    [DSL_T_LBRACKET] = {prefix_list, infix_index, P_POSTFIX},
    [DSL_T_LBRACE] = {prefix_dict, NULL, P_NONE},
    [DSL_T_DOT] = {NULL, infix_attr, P_POSTFIX},
    [DSL_T_MINUS] = {prefix_unary, infix_binary, P_TERM},
    [DSL_T_PLUS] = {prefix_unary, infix_binary, P_TERM},
    [DSL_T_STAR] = {NULL, infix_binary, P_FACTOR},
    [DSL_T_SLASH] = {NULL, infix_binary, P_FACTOR},
    [DSL_T_DSLASH] = {NULL, infix_binary, P_FACTOR},
    [DSL_T_PERCENT] = {NULL, infix_binary, P_FACTOR},
    [DSL_T_AT] = {NULL, infix_binary, P_FACTOR},
    [DSL_T_DSTAR] = {NULL, infix_binary, P_POWER},
    [DSL_T_PIPE] = {NULL, infix_binary, P_BOR},
    [DSL_T_CARET] = {NULL, infix_binary, P_BXOR},
    [DSL_T_AMP] = {NULL, infix_binary, P_BAND},
    [DSL_T_LSHIFT] = {NULL, infix_binary, P_SHIFT},
    [DSL_T_RSHIFT] = {NULL, infix_binary, P_SHIFT},
    [DSL_T_TILDE] = {prefix_unary, NULL, P_NONE},
    [DSL_T_EQ] = {NULL, infix_compare, P_CMP},
    [DSL_T_NE] = {NULL, infix_compare, P_CMP},
    [DSL_T_LT] = {NULL, infix_compare, P_CMP},
    [DSL_T_LE] = {NULL, infix_compare, P_CMP},
    [DSL_T_GT] = {NULL, infix_compare, P_CMP},
    [DSL_T_GE] = {NULL, infix_compare, P_CMP},
    [DSL_T_IN] = {NULL, infix_compare, P_CMP},
    [DSL_T_IS] = {NULL, infix_compare, P_CMP},
    [DSL_T_NOT] = {prefix_unary, infix_compare, P_CMP},
    [DSL_T_AND] = {NULL, infix_binary, P_AND},
    [DSL_T_OR] = {NULL, infix_binary, P_OR},
    [DSL_T_IF] = {NULL, infix_cond, P_COND},
    [DSL_T_LAMBDA] = {dsl_parse_lambda, NULL, P_NONE},
};

static const struct rule *rule_of(enum dsl_tok t) { return &rules[t]; }

/* The binding power of the next token as an infix operator. */
static enum prec next_prec(const struct parser *p)
{
    const struct dsl_token *t = peek(p);
    if (t->type == DSL_T_NOT && peek2(p)->type != DSL_T_IN) return P_NONE;
    return rules[t->type].infix ? rules[t->type].prec : P_NONE;
}

static struct dsl_node *parse_prec(struct parser *p, enum prec prec)
{
    const struct dsl_token *tok = peek(p);
    if (!enter(p, tok->pos)) return NULL;
    struct dsl_node *left = NULL;
    const struct rule *r = rule_of(tok->type);
    if (tok->type == DSL_T_STAR || tok->type == DSL_T_DSTAR) {
        dsl_parse_fail(
            p, "SyntaxError", tok->pos,
            "starred expressions ('%s' before a value) are not supported here in the MiniTorch "
            "language",
            tok->type == DSL_T_STAR ? "*" : "**");
        goto done;
    }
    if (!r->prefix || (tok->type == DSL_T_NOT && prec > P_NOT)) {
        fail_unexpected(p, tok);
        goto done;
    }
    advance(p);
    left = r->prefix(p, tok);
    while (left && prec <= next_prec(p)) {
        const struct dsl_token *op = advance(p);
        left = rule_of(op->type)->infix(p, left, op);
    }
done:
    p->depth--;
    return left;
}

struct dsl_node *dsl_parse_expr(struct parser *p) { return parse_prec(p, P_COND); }
