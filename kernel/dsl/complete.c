/* complete.c — what a frontend asks about code it has not run: is_complete, complete, inspect.
 *
 * is_complete follows IPython's console rules: an open bracket, an open triple-quoted string
 * or a trailing backslash wants more lines; a last line ending in ':' opens a block; while the
 * last line is inside an indented block the cell goes on until an empty line; a lexical error
 * (bad character, unterminated one-line string) or any other syntax error is "invalid".
 * Completion and inspection read the builtin table, the keyword table, the tensor method and
 * property tables (after "x."), the magic table (after a '%' that starts a line) and the
 * session's variables, so they always agree with what the evaluator knows. Nothing is evaluated:
 * after "x." only a variable's kind is looked at, and since only tensors have attributes an
 * unknown receiver is taken for a tensor. */
#include "dsl/dsl.h"

#include "dsl/ast.h"
#include "dsl/builtins.h"
#include "dsl/interp.h"
#include "dsl/lexer.h"
#include "dsl/magics.h"
#include "dsl/tensor.h"
#include "render/render.h"

#include <stdlib.h>
#include <string.h>

#define MAX_INDENT 64
static const char spaces[MAX_INDENT + 1] =
    "                                                                ";
_Static_assert(sizeof spaces == MAX_INDENT + 1, "64 spaces");

static const char *indent_of(int width)
{
    if (width < 0) width = 0;
    if (width > MAX_INDENT) width = MAX_INDENT;
    return spaces + (MAX_INDENT - width);
}

/* Indentation width of the line holding byte `pos`. */
static int line_indent(const char *code, size_t pos)
{
    size_t ls = pos;
    while (ls > 0 && code[ls - 1] != '\n') ls--;
    int w = 0;
    for (size_t i = ls; code[i] == ' ' || code[i] == '\t'; i++)
        w = code[i] == '\t' ? (w / 8 + 1) * 8 : w + 1;
    return w;
}

static bool blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\f') return false;
    return true;
}

const char *dsl_is_complete(const char *code, const char **indent)
{
    static const char *const none = "";
    if (indent) *indent = none;
    if (!code) return "complete";
    size_t len = strlen(code);
    struct dsl_tokens toks;
    struct dsl_syntax_error se;
    if (dsl_lex(code, len, &toks, &se) != 0) {
        if (se.incomplete) {
            if (indent) *indent = indent_of(line_indent(code, len));
            return "incomplete";
        }
        return "invalid";
    }
    /* the last token that is not layout */
    const struct dsl_token *last = NULL;
    for (size_t i = toks.n; i-- > 0;) {
        enum dsl_tok t = toks.t[i].type;
        if (t != DSL_T_EOF && t != DSL_T_NEWLINE && t != DSL_T_DEDENT && t != DSL_T_INDENT) {
            last = &toks.t[i];
            break;
        }
    }
    size_t ll = len; /* start of the last physical line */
    while (ll > 0 && code[ll - 1] != '\n') ll--;
    bool last_line_blank = blank(code + ll, len - ll);
    const char *status = NULL;
    if (last && last->type == DSL_T_COLON) {
        status = "incomplete";
        if (indent) *indent = indent_of(last->indent + 4);
    } else if (last && !last_line_blank && last->indent > toks.base_indent) {
        status = "incomplete";
        if (indent) *indent = indent_of(last->indent);
    }
    dsl_tokens_free(&toks);
    if (status) return status;
    struct dsl_node *block = dsl_parse_cell(code, len, &se);
    if (!block) return "invalid";
    dsl_node_free(block);
    return "complete";
}

/* ---- completion ------------------------------------------------------------------------- */

static bool ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static const char *const extra_keywords[] = {"True", "False", "None", NULL};

/* What the name ending at byte b is attached to. */
enum name_context {
    CTX_PLAIN,   /* a variable, builtin or keyword */
    CTX_ATTR,    /* after '.': a tensor attribute (only tensors have attributes) */
    CTX_NO_ATTR, /* after '.' of a value known to have no attributes, or of a number */
    CTX_MAGIC,   /* after a '%' that starts its line */
};

/* The context of a name starting at byte b of code: after `x.` it looks at x (a variable
 * holding something other than a tensor has no attributes; an unknown name or a call result
 * is taken for a tensor). */
static enum name_context context_of(struct dsl_session *s, const char *code, size_t b)
{
    if (b > 0 && code[b - 1] == '%') {
        size_t k = b - 1;
        while (k > 0 && (code[k - 1] == ' ' || code[k - 1] == '\t')) k--;
        return k == 0 || code[k - 1] == '\n' ? CTX_MAGIC : CTX_PLAIN;
    }
    if (b == 0 || code[b - 1] != '.') return CTX_PLAIN;
    size_t re = b - 1, rb = re;
    while (rb > 0 && ident_char(code[rb - 1])) rb--;
    if (rb == re) /* `f(x).`, `xs[0].` */
        return re > 0 && (code[re - 1] == ')' || code[re - 1] == ']') ? CTX_ATTR : CTX_NO_ATTR;
    if (code[rb] >= '0' && code[rb] <= '9') return CTX_NO_ATTR; /* `1.` is a float */
    char *name = strndup(code + rb, re - rb);
    if (!name) return CTX_NO_ATTR;
    struct dsl_value *v = s ? dsl_session_lookup(s, name) : NULL;
    free(name);
    return v && v->kind != DSL_TENSOR ? CTX_NO_ATTR : CTX_ATTR;
}

/* The name of the call whose argument list holds byte `cursor` (`zeros(2, requi|`), NULL when
 * none on this line; *at is where that name starts. Returns a malloc'd copy. */
static char *enclosing_call(const char *code, size_t cursor, size_t *at)
{
    int depth = 0;
    for (size_t i = cursor; i-- > 0;) {
        char c = code[i];
        if (c == '\n' && depth == 0) break;
        if (c == ')' || c == ']')
            depth++;
        else if ((c == '(' || c == '[') && depth > 0)
            depth--;
        else if (c == '(') {
            size_t ne = i;
            while (ne > 0 && (code[ne - 1] == ' ' || code[ne - 1] == '\t')) ne--;
            size_t nb = ne;
            while (nb > 0 && ident_char(code[nb - 1])) nb--;
            *at = nb;
            if (ne > nb && !(code[nb] >= '0' && code[nb] <= '9'))
                return strndup(code + nb, ne - nb);
            return NULL;
        }
    }
    return NULL;
}

/* The parameter names of the function a call names: a builtin, a tensor method after '.', or
 * a function the session defined: into *builtin_params or *user_params (borrowed) with their
 * count in *n, which stays 0 when the call is unknown. */
static void call_params(struct dsl_session *s, const char *code, size_t cursor,
                        const char *const **builtin_params, char *const **user_params, size_t *n)
{
    *builtin_params = NULL;
    *user_params = NULL;
    *n = 0;
    size_t at = 0;
    char *name = enclosing_call(code, cursor, &at);
    if (!name) return;
    const struct dsl_builtin *fn = NULL;
    if (at > 0 && code[at - 1] == '.')
        fn = dsl_tensor_attr_find(name, NULL);
    else {
        struct dsl_value *v = s ? dsl_session_lookup(s, name) : NULL;
        if (v && v->kind == DSL_FUNCTION) {
            *user_params = v->as.fn_user->def->kwnames;
            *n = v->as.fn_user->def->nkw;
        } else if (!v) {
            fn = dsl_builtin_find(name);
        }
    }
    if (fn && fn->params) {
        *builtin_params = fn->params;
        while (fn->params[*n]) (*n)++;
    }
    free(name);
}

json_t *dsl_complete(struct dsl_session *s, const char *code, size_t cursor, size_t *start,
                     size_t *end)
{
    size_t len = code ? strlen(code) : 0;
    if (cursor > len) cursor = len;
    size_t b = cursor;
    while (b > 0 && ident_char(code[b - 1])) b--;
    *start = b;
    *end = cursor;
    json_t *matches = json_array();
    if (!matches) return NULL;
    const char *prefix = code ? code + b : "";
    size_t plen = cursor - b;
    if (plen && prefix[0] >= '0' && prefix[0] <= '9') return matches; /* a number */
    enum name_context where = code ? context_of(s, code, b) : CTX_PLAIN;
    if (where == CTX_NO_ATTR) return matches;
    /* inside a call's parentheses, its keyword parameters complete as `name=` */
    const char *const *bparams = NULL;
    char *const *uparams = NULL;
    size_t nparams = 0;
    if (code && where == CTX_PLAIN) call_params(s, code, b, &bparams, &uparams, &nparams);
    char **kw = nparams ? calloc(nparams, sizeof *kw) : NULL;
    size_t cap = dsl_builtin_count + dsl_tensor_method_count + dsl_tensor_prop_count +
                 dsl_magic_count + 32 + (s ? s->count : 0) + nparams;
    const char **names = malloc(cap * sizeof *names);
    if (!names || (nparams && !kw)) {
        free(names);
        free(kw);
        return matches;
    }
    size_t n = 0;
#define CONSIDER(name)                                                                             \
    do {                                                                                           \
        const char *nm_ = (name);                                                                  \
        if (n < cap && strncmp(nm_, prefix, plen) == 0) names[n++] = nm_;                          \
    } while (0)
    if (where == CTX_ATTR) {
        for (size_t i = 0; i < dsl_tensor_method_count; i++) CONSIDER(dsl_tensor_methods[i].name);
        for (size_t i = 0; i < dsl_tensor_prop_count; i++) CONSIDER(dsl_tensor_props[i].name);
    } else if (where == CTX_MAGIC) {
        for (size_t i = 0; i < dsl_magic_count; i++) CONSIDER(dsl_magics[i].name);
    } else {
        for (size_t i = 0; i < dsl_builtin_count; i++) CONSIDER(dsl_builtins[i].name);
        for (size_t i = 0; dsl_keywords[i]; i++) CONSIDER(dsl_keywords[i]);
        for (size_t i = 0; extra_keywords[i]; i++) CONSIDER(extra_keywords[i]);
        for (size_t i = 0; s && i < s->cap; i++)
            if (s->vars[i].name) CONSIDER(s->vars[i].name);
        for (size_t i = 0; i < nparams; i++) {
            const char *p = bparams ? bparams[i] : uparams[i];
            if (asprintf(&kw[i], "%s=", p) < 0)
                kw[i] = NULL;
            else
                CONSIDER(kw[i]);
        }
    }
#undef CONSIDER
    qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && strcmp(names[i], names[i - 1]) == 0) continue;
        json_t *str = json_string(names[i]);
        if (str) json_array_append_new(matches, str);
    }
    free(names);
    for (size_t i = 0; i < nparams; i++) free(kw[i]);
    free(kw);
    return matches;
}

/* ---- inspection ------------------------------------------------------------------------- */

/* The identifier under or just before the cursor, else the name of the call whose argument
 * list holds the cursor ("print(1, |"). Returns a malloc'd copy or NULL, and in *at the byte
 * offset where the name starts. */
static char *name_at(const char *code, size_t cursor, size_t *at)
{
    size_t len = strlen(code);
    if (cursor > len) cursor = len;
    size_t b = cursor, e = cursor;
    while (b > 0 && ident_char(code[b - 1])) b--;
    while (e < len && ident_char(code[e])) e++;
    *at = b;
    if (e > b && !(code[b] >= '0' && code[b] <= '9')) return strndup(code + b, e - b);
    return enclosing_call(code, cursor, at);
}

json_t *dsl_inspect(struct dsl_session *s, const char *code, size_t cursor, int detail_level)
{
    (void)detail_level;
    if (!code) return NULL;
    size_t at = 0;
    char *name = name_at(code, cursor, &at);
    if (!name) return NULL;
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_STR_BYTES);
    bool found = true;
    enum name_context where = context_of(s, code, at);
    if (where == CTX_ATTR || where == CTX_NO_ATTR) {
        const struct dsl_builtin *attr = dsl_tensor_attr_find(name, NULL);
        if (attr && where == CTX_ATTR)
            dsl_builtin_help(&b, attr);
        else
            found = false;
    } else if (where == CTX_MAGIC) {
        const struct dsl_magic *m = dsl_magic_find(name);
        if (m)
            dsl_magic_help(&b, m);
        else
            found = false;
    } else {
        struct dsl_value *v = s ? dsl_session_lookup(s, name) : NULL;
        const struct dsl_builtin *fn = dsl_builtin_find(name);
        if (v && v->kind == DSL_FUNCTION) {
            dsl_function_help(&b, v->as.fn_user);
        } else if (v) {
            render_buf_printf(&b, "%s: %s = ", name, dsl_type_name(*v));
            dsl_value_repr(&b, *v);
            if (v->kind == DSL_TENSOR) { /* the layout facts a student checks */
                const struct mt_tensor *t = v->as.t;
                char sh[160], st[160];
                render_buf_printf(&b,
                                  "\n\nshape %s, strides %s, dtype float32, backend %s, "
                                  "requires_grad %s, grad %s",
                                  mt_shape_str(t->ndim, t->shape, sh, sizeof sh),
                                  mt_shape_str(t->ndim, t->strides, st, sizeof st),
                                  mt_backend_name(t->backend), t->requires_grad ? "true" : "false",
                                  t->grad ? "set" : "none");
            }
            if (v->kind == DSL_TENSOR && detail_level > 0) {
                render_buf_puts(&b, "\n\n");
                dsl_tensor_help(&b);
            }
        } else if (fn) {
            dsl_builtin_help(&b, fn);
        } else {
            found = false;
        }
    }
    free(name);
    json_t *bundle = found && !b.nomem && !b.over ? render_text_bundle(render_buf_str(&b)) : NULL;
    render_buf_free(&b);
    return bundle;
}
