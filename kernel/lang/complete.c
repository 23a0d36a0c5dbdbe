/* complete.c — what a frontend asks about code it has not run: is_complete, complete, inspect.
 *
 * is_complete follows IPython's console rules: an open bracket, an open triple-quoted string
 * or a trailing backslash wants more lines; a last line ending in ':' opens a block; while the
 * last line is inside an indented block the cell goes on until an empty line; a lexical error
 * (bad character, unterminated one-line string) or any other syntax error is "invalid".
 * Completion and inspection read the builtin table, the keyword table, the tensor method and
 * property tables (after "x."), the magic table (after a '%' that starts a line; a magic's
 * first argument from the alternatives its usage line lists, `%backend [simple|fast|cuda|student]`)
 * and the session's variables, so they always agree with what the evaluator knows. Nothing is
 * evaluated: after "x." only a variable's kind is looked at (a tensor's methods and properties,
 * a list's methods, nothing for other kinds), and an unknown receiver (a name the cell has not
 * run yet, a call's result) is taken for a tensor, the kind students chain methods on. Inside a
 * string literal or a comment nothing is offered. Every position is clamped to the text, so no
 * request can fail. */
#include "lang/dsl.h"
#include "lang/ndarray.h"

#include "lang/ast.h"
#include "lang/classes.h"
#include "lang/dict.h"
#include "lang/exceptions.h"
#include "lang/interp.h"
#include "lang/lexer.h"
#include "lang/library.h"
#include "lang/list.h"
#include "lang/set.h"
#include "render/render.h"

#include <stdint.h>
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
    /* a file cell (%%minitorch_file) goes on, as IPython's cell magics do, until it ends with
     * an empty line */
    if (strncmp(code, "%%", 2) == 0)
        return len >= 2 && code[len - 1] == '\n' && code[len - 2] == '\n' ? "complete"
                                                                          : "incomplete";
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
    CTX_PLAIN,     /* a variable, builtin or keyword */
    CTX_TENSOR,    /* after '.' of a tensor (or of an unknown value): its methods, properties */
    CTX_LIST,      /* after '.' of a list: its methods */
    CTX_TUPLE,     /* after '.' of a tuple-style list (a shape): count and index */
    CTX_NDARRAY,   /* after '.' of a numpy array: its methods and attributes */
    CTX_OBJECT,    /* after '.' of an engine object (a dataset): its class's attributes */
    CTX_INSTANCE,  /* after '.' of a class or an instance of one: its attributes and methods */
    CTX_EXCEPTION, /* after '.' of an exception: args */
    CTX_SELF,      /* after `self.` inside a class being written: what its text and class set */
    CTX_NO_ATTR,   /* after '.' of a value known to have no attributes, or of a number */
    CTX_MAGIC,     /* after a '%' that starts its line */
    CTX_MAGIC_ARG, /* the first argument of a magic: `%backend fa` */
    CTX_TEXT,      /* inside a string literal or a comment */
    CTX_DICT,      /* after '.' of a dict: its methods */
    CTX_IMPORT,    /* a module's name after `import` or `from` (after its dotted prefix) */
    CTX_SET,       /* after '.' of a set: its methods */
    CTX_FROZENSET, /* after '.' of a frozenset: those of its methods that change nothing */
};

/* What surrounds byte `cursor`: whether it lies inside a string literal or a comment, and
 * the innermost bracket still open there. One forward scan rather than the lexer, which stops
 * at the first error and drops comments, while the code before a cursor is usually unfinished
 * (an open bracket, a string being typed). Triple quotes span lines; a one-line string ends at
 * its line's end, as the lexer's error does; a stray closing bracket is ignored. */
struct surroundings {
    bool in_text; /* in a string literal or a comment */
    size_t open;  /* byte offset of the innermost open bracket, SIZE_MAX when none */
};

static struct surroundings scan_to(const char *code, size_t len, size_t cursor)
{
    size_t stack[DSL_MAX_BRACKETS];
    size_t depth = 0; /* may exceed the stack: deeper brackets are counted, not placed */
    char quote = 0;
    bool triple = false;
    struct surroundings r = {.in_text = false, .open = SIZE_MAX};
    for (size_t i = 0; i < cursor; i++) {
        char c = code[i];
        if (quote) {
            if (c == '\\')
                i++;
            else if (c == '\n' && !triple)
                quote = 0;
            else if (c == quote && !triple)
                quote = 0;
            else if (c == quote && i + 2 < len && code[i + 1] == quote && code[i + 2] == quote) {
                quote = 0;
                i += 2;
            }
        } else if (c == '#') {
            while (i < cursor && code[i] != '\n') i++;
            if (i >= cursor) r.in_text = true;
        } else if (c == '"' || c == '\'') {
            quote = c;
            triple = i + 2 < len && code[i + 1] == c && code[i + 2] == c;
            if (triple) i += 2;
        } else if (c == '(' || c == '[' || c == '{') {
            if (depth < DSL_MAX_BRACKETS) stack[depth] = i;
            depth++;
        } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
            depth--;
        }
    }
    if (quote) r.in_text = true;
    if (depth > 0 && depth <= DSL_MAX_BRACKETS) r.open = stack[depth - 1];
    return r;
}

static bool in_text(const char *code, size_t len, size_t cursor)
{
    return scan_to(code, len, cursor).in_text;
}

/* The magic of the line holding byte b when b starts that magic's first argument (only blanks
 * between the magic's name and b), else NULL. */
static const struct dsl_magic *magic_arg_of(const char *code, size_t b)
{
    size_t k = b;
    while (k > 0 && (code[k - 1] == ' ' || code[k - 1] == '\t')) k--;
    if (k == b) return NULL; /* the argument is separated from the name by blanks */
    size_t ne = k;
    while (k > 0 && ident_char(code[k - 1])) k--;
    if (k == ne || k == 0 || code[k - 1] != '%') return NULL;
    size_t pct = k - 1;
    while (pct > 0 && (code[pct - 1] == ' ' || code[pct - 1] == '\t')) pct--;
    if (pct > 0 && code[pct - 1] != '\n') return NULL; /* `x %mod y` is an operator */
    char name[64];
    if (ne - k >= sizeof name) return NULL;
    memcpy(name, code + k, ne - k);
    name[ne - k] = '\0';
    return dsl_magic_find(name);
}

static bool blank_char(char c) { return c == ' ' || c == '\t'; }

/* Whether the name starting at byte b is a module's name being imported (`import mi`, `import
 * minitorch.op`, `from mi`, `import math, ra`): its line so far is `import`/`from` and dotted
 * names. *dotted_from gets where the dotted name holding b starts. For `from M import x, y`
 * (*from_module = M, malloc'd) the name is a member of M instead. */
static bool import_context(const char *code, size_t b, size_t *dotted_from, char **from_module)
{
    *from_module = NULL;
    size_t ls = b;
    while (ls > 0 && code[ls - 1] != '\n') ls--;
    size_t i = ls;
    while (blank_char(code[i])) i++;
    bool is_import = strncmp(code + i, "import", 6) == 0 && blank_char(code[i + 6]);
    bool is_from = strncmp(code + i, "from", 4) == 0 && blank_char(code[i + 4]);
    if (!is_import && !is_from) return false;
    i += is_import ? 6 : 4;
    while (blank_char(code[i])) i++;
    size_t name_at = i;
    while (i < b && (ident_char(code[i]) || code[i] == '.')) i++;
    if (i == b) { /* still in the first dotted name */
        *dotted_from = name_at;
        return true;
    }
    if (is_from) { /* `from M import a, b` */
        size_t name_end = i;
        while (blank_char(code[i])) i++;
        if (strncmp(code + i, "import", 6) != 0 || !blank_char(code[i + 6])) return false;
        for (size_t k = i + 6; k < b; k++)
            if (!ident_char(code[k]) && !blank_char(code[k]) && code[k] != ',' && code[k] != '(')
                return false;
        *from_module = strndup(code + name_at, name_end - name_at);
        return *from_module != NULL;
    }
    for (size_t k = i; k < b; k++) /* `import a, b as c, d` */
        if (!ident_char(code[k]) && !blank_char(code[k]) && code[k] != ',' && code[k] != '.')
            return false;
    size_t k = b;
    while (k > name_at && (ident_char(code[k - 1]) || code[k - 1] == '.')) k--;
    *dotted_from = k;
    return true;
}

#define SELF_NAMES 256 /* most names `self.` offers from the text of a class */

/* The `class NAME` block of code that byte b is inside (a line above b, less indented than b's
 * line, starting `class `): true with [*start, *end) its text and its name copied into name
 * (64 bytes), when those are not NULL. */
static bool class_block(const char *code, size_t b, size_t *start, size_t *end, char *name)
{
    int indent = line_indent(code, b);
    size_t ls = b;
    while (ls > 0 && code[ls - 1] != '\n') ls--;
    while (ls > 0) {
        size_t prev = ls - 1; /* the '\n' ending the line above */
        while (prev > 0 && code[prev - 1] != '\n') prev--;
        ls = prev;
        size_t t = ls;
        while (code[t] == ' ' || code[t] == '\t') t++;
        if (code[t] == '\n' || code[t] == '#' || code[t] == '\0') continue; /* blank */
        int w = line_indent(code, ls);
        if (w >= indent) continue;
        if (strncmp(code + t, "class ", 6) != 0) {
            if (w == 0) return false; /* left every class at the margin */
            indent = w;
            continue;
        }
        if (name) {
            size_t k = t + 6, n = 0;
            while (code[k] == ' ') k++;
            while (ident_char(code[k]) && n < 63) name[n++] = code[k++];
            name[n] = '\0';
        }
        if (start) *start = ls;
        if (end) { /* to the first line after it that is not indented deeper */
            size_t e = ls;
            while (code[e] && code[e] != '\n') e++;
            while (code[e] == '\n') {
                size_t next = e + 1, k = next;
                while (code[k] == ' ' || code[k] == '\t') k++;
                if (code[k] != '\n' && code[k] != '\0' && code[k] != '#' &&
                    line_indent(code, next) <= w)
                    break;
                e = k;
                while (code[e] && code[e] != '\n') e++;
            }
            *end = e;
        }
        return true;
    }
    return false;
}

/* The names `self.` completes to inside the class block [start, end) of code: the attributes
 * its methods set (self.NAME = ...) and the methods it defines, as new strings added to out
 * (at most cap); returns how many were added. */
static size_t self_names(const char *code, size_t start, size_t end, char **out, size_t cap)
{
    size_t n = 0;
    for (size_t i = start; i < end && n < cap; i++) {
        bool attr = strncmp(code + i, "self.", 5) == 0 && (i == 0 || !ident_char(code[i - 1]));
        bool def = strncmp(code + i, "def ", 4) == 0 && (i == 0 || !ident_char(code[i - 1]));
        if (!attr && !def) continue;
        size_t k = i + (attr ? 5 : 4), b = k;
        while (def && code[b] == ' ') b++, k++;
        while (k < end && ident_char(code[k])) k++;
        if (k == b) continue;
        size_t after = k;
        while (code[after] == ' ') after++;
        /* self.x = ... sets x (not self.x == y); def NAME( defines NAME */
        if (attr && !(code[after] == '=' && code[after + 1] != '=')) continue;
        if (def && code[after] != '(') continue;
        char *copy = strndup(code + b, k - b);
        if (copy) out[n++] = copy;
    }
    return n;
}

/* The context of a name starting at byte b of code: after `x.` it looks at x (a tensor, a
 * list or an object has attributes, other kinds none; an unknown name or a call result is
 * taken for a tensor). For CTX_OBJECT, *cls (when cls is not NULL) gets the object's class; for
 * CTX_INSTANCE, *obj (when not NULL) the class or instance (borrowed). */
static enum name_context context_of(struct dsl_session *s, const char *code, size_t b,
                                    const struct dsl_object_class **cls, struct dsl_value *obj)
{
    if (in_text(code, strlen(code), b)) return CTX_TEXT;
    size_t dotted = 0;
    char *from = NULL;
    if (import_context(code, b, &dotted, &from)) {
        if (!from) return CTX_IMPORT;
        const struct dsl_object_class *c = dsl_module_class(from);
        free(from);
        if (!c) return CTX_NO_ATTR;
        if (cls) *cls = c;
        return CTX_OBJECT;
    }
    if (magic_arg_of(code, b)) return CTX_MAGIC_ARG;
    if (b > 0 && code[b - 1] == '%') {
        size_t k = b - 1;
        while (k > 0 && (code[k - 1] == ' ' || code[k - 1] == '\t')) k--;
        return k == 0 || code[k - 1] == '\n' ? CTX_MAGIC : CTX_PLAIN;
    }
    if (b == 0 || code[b - 1] != '.') return CTX_PLAIN;
    size_t re = b - 1, rb = re;
    while (rb > 0 && ident_char(code[rb - 1])) rb--;
    if (rb == re) /* `f(x).`, `xs[0].` */
        return re > 0 && (code[re - 1] == ')' || code[re - 1] == ']') ? CTX_TENSOR : CTX_NO_ATTR;
    if (code[rb] >= '0' && code[rb] <= '9') return CTX_NO_ATTR; /* `1.` is a float */
    if (rb > 0 && code[rb - 1] == '.') { /* `minitorch.operators.`: through the classes */
        const struct dsl_object_class *owner = NULL;
        enum name_context up = context_of(s, code, rb, &owner, NULL);
        if (up != CTX_OBJECT) return up == CTX_TEXT ? CTX_TEXT : CTX_TENSOR;
        char *attr = strndup(code + rb, re - rb);
        struct dsl_value *file = attr ? dsl_module_file(s, owner, attr) : NULL;
        if (file) { /* a file a cell wrote: its globals */
            free(attr);
            if (obj) *obj = *file;
            return CTX_INSTANCE;
        }
        const struct dsl_object_class *c =
            attr && owner->attr_class ? owner->attr_class(owner, attr) : NULL;
        free(attr);
        if (!c) return CTX_TENSOR;
        if (cls) *cls = c;
        return CTX_OBJECT;
    }
    char *name = strndup(code + rb, re - rb);
    if (!name) return CTX_NO_ATTR;
    struct dsl_value *v = s ? dsl_session_lookup(s, name) : NULL;
    bool self = strcmp(name, "self") == 0;
    free(name);
    if (!v && self && class_block(code, rb, NULL, NULL, NULL)) return CTX_SELF;
    if (!v || v->kind == DSL_TENSOR) return CTX_TENSOR;
    if (dsl_is_ndarray(*v)) return CTX_NDARRAY;
    if (v->kind == DSL_LIST) return v->as.l->style == DSL_LIST_TUPLE ? CTX_TUPLE : CTX_LIST;
    if (v->kind == DSL_DICT) return CTX_DICT;
    if (v->kind == DSL_SET) return v->as.d->frozen ? CTX_FROZENSET : CTX_SET;
    if (v->kind == DSL_OBJECT) {
        if (cls) *cls = v->as.obj->cls;
        return CTX_OBJECT;
    }
    if (v->kind == DSL_INSTANCE || v->kind == DSL_CLASS) {
        if (obj) *obj = *v;
        return CTX_INSTANCE;
    }
    if (v->kind == DSL_EXCEPTION) return CTX_EXCEPTION;
    return CTX_NO_ATTR;
}

/* A tuple (a shape) is never mutated: of the list methods it has count and index (list.c). */
static bool tuple_method(const struct dsl_builtin *m)
{
    return strcmp(m->name, "count") == 0 || strcmp(m->name, "index") == 0;
}

/* The attribute called name of a receiver in context `where`, or NULL. */
static const struct dsl_builtin *attr_find(enum name_context where, const char *name)
{
    if (where == CTX_TENSOR) return dsl_tensor_attr_find(name, NULL);
    if (where == CTX_DICT) {
        for (size_t i = 0; i < dsl_dict_method_count; i++)
            if (strcmp(dsl_dict_methods[i].name, name) == 0) return &dsl_dict_methods[i];
        return NULL;
    }
    if (where == CTX_SET || where == CTX_FROZENSET) {
        for (size_t i = 0; i < dsl_set_method_count; i++)
            if (strcmp(dsl_set_methods[i].name, name) == 0)
                return where == CTX_SET || !dsl_set_method_mutates(&dsl_set_methods[i])
                           ? &dsl_set_methods[i]
                           : NULL;
        return NULL;
    }
    if (where == CTX_NDARRAY) {
        for (size_t i = 0; i < dsl_ndarray_method_count; i++)
            if (strcmp(dsl_ndarray_methods[i].name, name) == 0) return &dsl_ndarray_methods[i];
        return NULL;
    }
    if (where != CTX_LIST && where != CTX_TUPLE) return NULL;
    for (size_t i = 0; i < dsl_list_method_count; i++)
        if (strcmp(dsl_list_methods[i].name, name) == 0)
            return where == CTX_LIST || tuple_method(&dsl_list_methods[i]) ? &dsl_list_methods[i]
                                                                           : NULL;
    return NULL;
}

#define MAGIC_WORDS 8
#define MAGIC_WORD_LEN 24

/* The literal words of a magic's first argument, from the alternatives its usage line lists
 * ("%backend [simple|fast|cuda|student]", "%diagnostics on|off|STMT"): into words (at most
 * MAGIC_WORDS), their count returned. A placeholder in capitals (STMT, N) or an option (-f) is
 * not a word; *stmt tells whether the magic takes a statement (STMT in its usage). */
static size_t magic_words(const struct dsl_magic *m, char words[][MAGIC_WORD_LEN], bool *stmt)
{
    *stmt = false;
    if (!m) return 0;
    *stmt = strstr(m->usage, "STMT") != NULL;
    const char *p = strchr(m->usage, ' ');
    if (!p) return 0;
    while (*p == ' ') p++;
    if (*p == '[') p++;
    size_t n = 0;
    for (;;) {
        size_t w = strcspn(p, "|] ");
        bool literal = w > 0 && w < MAGIC_WORD_LEN;
        for (size_t i = 0; i < w && literal; i++)
            literal = (p[i] >= 'a' && p[i] <= 'z') || p[i] == '_';
        if (literal && n < MAGIC_WORDS) {
            memcpy(words[n], p, w);
            words[n++][w] = '\0';
        }
        if (p[w] != '|') break;
        p += w + 1;
    }
    return n;
}

/* The name of the call whose parentheses are the innermost bracket open at byte `cursor`
 * (`zeros(2, requi|`, also on a continuation line), NULL when there is none; *at is where that
 * name starts. Returns a malloc'd copy. */
static char *enclosing_call(const char *code, size_t cursor, size_t *at)
{
    struct surroundings r = scan_to(code, strlen(code), cursor);
    if (r.open == SIZE_MAX || code[r.open] != '(') return NULL;
    size_t ne = r.open;
    while (ne > 0 && (code[ne - 1] == ' ' || code[ne - 1] == '\t')) ne--;
    size_t nb = ne;
    while (nb > 0 && ident_char(code[nb - 1])) nb--;
    *at = nb;
    if (ne > nb && !(code[nb] >= '0' && code[nb] <= '9')) return strndup(code + nb, ne - nb);
    return NULL;
}

/* The parameter names of the function a call names: a builtin, a method after '.', or a
 * function the session defined: into *builtin_params or *user_params (borrowed; *user_def: the
 * function's DEF node, whose *args and **kwargs take no keyword) with their
 * count in *n, which stays 0 when the call is unknown. */
static void call_params(struct dsl_session *s, const char *code, size_t cursor,
                        const char *const **builtin_params, char *const **user_params,
                        const struct dsl_node **user_def, size_t *n)
{
    *builtin_params = NULL;
    *user_def = NULL;
    *user_params = NULL;
    *n = 0;
    size_t at = 0;
    char *name = enclosing_call(code, cursor, &at);
    if (!name) return;
    const struct dsl_builtin *fn = NULL;
    if (at > 0 && code[at - 1] == '.')
        fn = attr_find(context_of(s, code, at, NULL, NULL), name);
    else {
        struct dsl_value *v = s ? dsl_session_lookup(s, name) : NULL;
        if (v && v->kind == DSL_FUNCTION) {
            *user_def = v->as.fn_user->def;
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

/* The names completion offers: those of the candidates that start with the typed prefix, at
 * most cap of them. */
struct offer {
    const char **names; /* borrowed: from the tables, the session or the caller's copies */
    size_t n, cap;
    const char *prefix;
    size_t plen;
};

static void offer(struct offer *o, const char *name)
{
    if (o->n < o->cap && strncmp(name, o->prefix, o->plen) == 0) o->names[o->n++] = name;
}

/* After "x.": the methods and attributes of what context_of found x to be (cls: an engine
 * object's class; obj: a class or an instance). */
static void offer_attrs(struct offer *o, struct dsl_session *s, enum name_context where,
                        const struct dsl_object_class *cls, struct dsl_value obj)
{
    if (where == CTX_TENSOR) {
        for (size_t i = 0; i < dsl_tensor_method_count; i++) offer(o, dsl_tensor_methods[i].name);
        for (size_t i = 0; i < dsl_tensor_prop_count; i++) offer(o, dsl_tensor_props[i].name);
    } else if (where == CTX_NDARRAY) {
        for (size_t i = 0; i < dsl_ndarray_method_count; i++) offer(o, dsl_ndarray_methods[i].name);
        for (size_t i = 0; dsl_ndarray_attrs[i]; i++) offer(o, dsl_ndarray_attrs[i]);
    } else if (where == CTX_LIST || where == CTX_TUPLE) {
        for (size_t i = 0; i < dsl_list_method_count; i++)
            if (where == CTX_LIST || tuple_method(&dsl_list_methods[i]))
                offer(o, dsl_list_methods[i].name);
    } else if (where == CTX_DICT) {
        for (size_t i = 0; i < dsl_dict_method_count; i++) offer(o, dsl_dict_methods[i].name);
    } else if (where == CTX_SET || where == CTX_FROZENSET) {
        for (size_t i = 0; i < dsl_set_method_count; i++)
            if (where == CTX_SET || !dsl_set_method_mutates(&dsl_set_methods[i]))
                offer(o, dsl_set_methods[i].name);
    } else if (where == CTX_OBJECT) {
        for (size_t i = 0; cls->attrs && cls->attrs[i]; i++) offer(o, cls->attrs[i]);
        for (size_t i = 0; !cls->attrs && cls->attr_name && cls->attr_name(cls, i); i++)
            offer(o, cls->attr_name(cls, i));
        size_t nf = dsl_module_file_names(s, cls, o->names + o->n, o->cap - o->n), kept = o->n;
        for (size_t i = 0; i < nf && kept + i < o->cap; i++) offer(o, o->names[kept + i]);
    } else if (where == CTX_INSTANCE) {
        size_t na = dsl_attr_names(obj, o->names + o->n, o->cap - o->n), kept = o->n;
        for (size_t i = 0; i < na; i++) /* every class's __module__ is no name one looks for */
            if (strcmp(o->names[kept + i], "__module__") != 0) offer(o, o->names[kept + i]);
    } else if (where == CTX_EXCEPTION) {
        offer(o, "args");
    }
}

/* After `self.` inside the class before b: the names its text sets on self (copied into
 * selfnames, *nself of them, which the caller frees), then the attributes of the class as a
 * cell defined it before. */
static void offer_self(struct offer *o, struct dsl_session *s, const char *code, size_t b,
                       char **selfnames, size_t *nself)
{
    size_t cs = 0, ce = 0;
    char cname[64];
    class_block(code, b, &cs, &ce, cname);
    *nself = self_names(code, cs, ce, selfnames, SELF_NAMES);
    for (size_t i = 0; i < *nself; i++) offer(o, selfnames[i]);
    struct dsl_value *cv = s ? dsl_session_lookup(s, cname) : NULL;
    if (cv && cv->kind == DSL_CLASS) { /* the class as a cell defined it before */
        size_t na = dsl_attr_names(*cv, o->names + o->n, o->cap - o->n), kept = o->n;
        for (size_t i = 0; i < na; i++)
            if (strcmp(o->names[kept + i], "__name__") != 0 &&
                strcmp(o->names[kept + i], "__module__") != 0)
                offer(o, o->names[kept + i]);
    }
}

/* After `import` or `from`: the modules whose dotted names continue what is typed before b:
 * after `minitorch.`, the part after that prefix. */
static void offer_modules(struct offer *o, const char *code, size_t b)
{
    size_t dotted = 0;
    char *from = NULL;
    import_context(code, b, &dotted, &from);
    free(from);
    for (size_t i = 0; dsl_module_name(i); i++) {
        const char *m = dsl_module_name(i);
        if (strncmp(m, code + dotted, b - dotted) == 0 && !strchr(m + (b - dotted), '.'))
            offer(o, m + (b - dotted));
    }
}

/* Where a name is read: a magic's words (one that takes a statement), builtins, keywords,
 * exception types and the session's variables. */
static void offer_names(struct offer *o, struct dsl_session *s, char words[][MAGIC_WORD_LEN],
                        size_t nwords)
{
    for (size_t i = 0; i < nwords; i++) offer(o, words[i]);
    for (size_t i = 0; i < dsl_builtin_count; i++) offer(o, dsl_builtins[i].name);
    for (size_t i = 0; dsl_keywords[i]; i++) offer(o, dsl_keywords[i]);
    for (size_t i = 0; extra_keywords[i]; i++) offer(o, extra_keywords[i]);
    for (size_t i = 0; i < dsl_exc_type_count; i++) offer(o, dsl_exc_types[i].name);
    for (size_t i = 0; s && i < s->cap; i++)
        if (s->vars[i].name) offer(o, s->vars[i].name);
}

/* Inside a call's parentheses: its keyword parameters (as call_params found them) as `name=`,
 * each made into kw[i], which the caller frees. */
static void offer_keywords(struct offer *o, const char *const *bparams, char *const *uparams,
                           const struct dsl_node *udef, size_t nparams, char **kw)
{
    for (size_t i = 0; i < nparams; i++) {
        const char *p = bparams ? bparams[i] : uparams[i];
        /* *args and **kwargs take no keyword of their name */
        if (udef && ((udef->star && i == udef->nargs) || (udef->dstar && i + 1 == nparams)))
            continue;
        if (asprintf(&kw[i], "%s=", p) < 0)
            kw[i] = NULL;
        else
            offer(o, kw[i]);
    }
}

/* Appends names[0..n) to matches sorted, each once. */
static void append_sorted(json_t *matches, const char **names, size_t n)
{
    qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && strcmp(names[i], names[i - 1]) == 0) continue;
        json_t *str = json_string(names[i]);
        if (str) json_array_append_new(matches, str);
    }
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
    const struct dsl_object_class *cls = NULL;
    struct dsl_value obj = dsl_none();
    enum name_context where = code ? context_of(s, code, b, &cls, &obj) : CTX_PLAIN;
    if (where == CTX_NO_ATTR || where == CTX_TEXT) return matches;
    /* a magic's first argument: the words its usage line offers, and names when it takes a
     * statement (%time, %diagnostics) */
    char words[MAGIC_WORDS][MAGIC_WORD_LEN];
    size_t nwords = 0;
    if (where == CTX_MAGIC_ARG) {
        bool stmt = false;
        nwords = magic_words(magic_arg_of(code, b), words, &stmt);
        if (stmt) where = CTX_PLAIN;
    }
    /* inside a call's parentheses, its keyword parameters complete as `name=` */
    const char *const *bparams = NULL;
    char *const *uparams = NULL;
    size_t nparams = 0;
    const struct dsl_node *udef = NULL;
    if (code && where == CTX_PLAIN) call_params(s, code, b, &bparams, &uparams, &udef, &nparams);
    char **kw = nparams ? calloc(nparams, sizeof *kw) : NULL;
    char *selfnames[SELF_NAMES]; /* CTX_SELF: names copied out of the cell */
    size_t nself = 0;
    size_t cap = dsl_builtin_count + dsl_exc_type_count + dsl_tensor_method_count +
                 dsl_tensor_prop_count + dsl_list_method_count + dsl_dict_method_count +
                 dsl_magic_count + 32 + (s ? s->count : 0) + nparams + nwords +
                 (where == CTX_INSTANCE ? dsl_attr_names(obj, NULL, 0) : 0) +
                 (where == CTX_OBJECT && cls ? dsl_module_file_names(s, cls, NULL, 0) : 0) +
                 (where == CTX_SELF ? SELF_NAMES + 64 : 0);
    const char **names = malloc(cap * sizeof *names);
    if (!names || (nparams && !kw)) {
        free(names);
        free(kw);
        return matches;
    }
    struct offer o = {names, 0, cap, prefix, plen};
    if (where == CTX_SELF) {
        offer_self(&o, s, code, b, selfnames, &nself);
    } else if (where == CTX_IMPORT) {
        offer_modules(&o, code, b);
    } else if (where == CTX_MAGIC) {
        for (size_t i = 0; i < dsl_magic_count; i++) offer(&o, dsl_magics[i].name);
    } else if (where == CTX_MAGIC_ARG) {
        for (size_t i = 0; i < nwords; i++) offer(&o, words[i]);
    } else if (where == CTX_PLAIN) {
        offer_names(&o, s, words, nwords);
        offer_keywords(&o, bparams, uparams, udef, nparams, kw);
    } else { /* after "x." */
        offer_attrs(&o, s, where, cls, obj);
    }
    append_sorted(matches, names, o.n);
    free(names);
    for (size_t i = 0; i < nparams; i++) free(kw[i]);
    free(kw);
    for (size_t i = 0; i < nself; i++) free(selfnames[i]);
    return matches;
}

/* ---- inspection ------------------------------------------------------------------------- */

/* The identifier under or just before the cursor (outside strings and comments) as a malloc'd
 * copy, or NULL; *at is where it starts. */
static char *name_at(const char *code, size_t len, size_t cursor, size_t *at)
{
    size_t b = cursor, e = cursor;
    while (b > 0 && ident_char(code[b - 1])) b--;
    while (e < len && ident_char(code[e])) e++;
    *at = b;
    if (e > b && !(code[b] >= '0' && code[b] <= '9') && !in_text(code, len, b))
        return strndup(code + b, e - b);
    return NULL;
}

/* IPython's `f??`: the def's lines as written, from the cell that defined it (the def line
 * and every following line indented deeper, blank lines inside kept). */
static void function_source(struct render_buf *b, const struct dsl_function *f)
{
    const char *src = f->code->src;
    size_t len = f->code->len, start = f->def->pos;
    if (start > len) return;
    while (start > 0 && src[start - 1] != '\n') start--;
    int indent = line_indent(src, start);
    size_t end = start;
    while (end < len && src[end] != '\n') end++; /* the def line */
    for (size_t next = end; next < len;) {       /* next: the '\n' ending the kept text */
        size_t ls = next + 1, le = ls;
        while (le < len && src[le] != '\n') le++;
        if (!blank(src + ls, le - ls)) {
            if (line_indent(src, ls) <= indent) break;
            end = le; /* blank lines count only when a body line follows */
        }
        next = le;
    }
    render_buf_puts(b, "\n\nSource:\n");
    render_buf_append(b, src + start, end - start);
}

/* Appends what `name` at byte `at` of code is: a tensor attribute after '.', a magic after
 * '%', else a variable (its type, value and, for a tensor, its layout) or a builtin. Returns
 * whether the name is known. */
static bool describe(struct dsl_session *s, const char *code, const char *name, size_t at,
                     int detail_level, struct render_buf *b)
{
    const struct dsl_object_class *cls = NULL;
    struct dsl_value obj = dsl_none();
    enum name_context where = context_of(s, code, at, &cls, &obj);
    if (where == CTX_OBJECT) /* a module's members; other objects' attributes: help(obj) */
        return cls->attr_help && cls->attr_help(cls, name, b);
    if (where == CTX_EXCEPTION || where == CTX_SELF) return false;
    if (where == CTX_INSTANCE) return dsl_attr_help(b, obj, name);
    if (where == CTX_TENSOR || where == CTX_LIST || where == CTX_TUPLE || where == CTX_NDARRAY ||
        where == CTX_NO_ATTR || where == CTX_DICT || where == CTX_SET || where == CTX_FROZENSET) {
        const struct dsl_builtin *attr = attr_find(where, name);
        if (attr) dsl_builtin_help(b, attr);
        return attr != NULL;
    }
    if (where == CTX_IMPORT) { /* a module's name: its doc */
        size_t dotted = 0;
        char *from = NULL;
        import_context(code, at, &dotted, &from);
        free(from);
        char *full = strndup(code + dotted, at - dotted + strlen(name));
        const struct dsl_object_class *c = full ? dsl_module_class(full) : NULL;
        free(full);
        if (c) render_buf_puts(b, c->doc);
        return c != NULL;
    }
    if (where == CTX_MAGIC) {
        const struct dsl_magic *m = dsl_magic_find(name);
        if (m) dsl_magic_help(b, m);
        return m != NULL;
    }
    struct dsl_value *v = s ? dsl_session_lookup(s, name) : NULL;
    if (v && v->kind == DSL_FUNCTION) {
        dsl_function_help(b, v->as.fn_user);
        if (detail_level > 0) function_source(b, v->as.fn_user);
    } else if (v && (v->kind == DSL_CLASS || v->kind == DSL_INSTANCE)) {
        if (v->kind == DSL_INSTANCE) {
            render_buf_printf(b, "%s: %s = ", name, dsl_type_name(*v));
            dsl_value_repr(b, *v);
            render_buf_puts(b, "\n\n");
        }
        dsl_class_help(b, *v);
    } else if (v) {
        render_buf_printf(b, "%s: %s = ", name, dsl_type_name(*v));
        dsl_value_repr(b, *v);
        if (v->kind == DSL_TENSOR) { /* the layout facts a student checks */
            const struct mt_tensor *t = v->as.t;
            char sh[160], st[160];
            render_buf_printf(b,
                              "\n\nshape %s, strides %s, dtype float32, backend %s, "
                              "requires_grad %s, grad %s",
                              mt_shape_str(t->ndim, t->shape, sh, sizeof sh),
                              mt_shape_str(t->ndim, t->strides, st, sizeof st),
                              mt_backend_name(t->backend), t->requires_grad ? "True" : "False",
                              t->grad ? "set" : "None");
            if (detail_level > 0) {
                render_buf_puts(b, "\n\n");
                dsl_tensor_help(b);
            }
        } else if (detail_level > 0) { /* the type's documentation, as help(x) shows */
            render_buf_puts(b, "\n\n");
            render_buf_puts(b, dsl_type_doc(*v));
        }
    } else {
        const struct dsl_builtin *fn = dsl_builtin_find(name);
        const struct dsl_exc_type *exc = fn ? NULL : dsl_exc_type_find(name);
        if (fn)
            dsl_builtin_help(b, fn);
        else if (exc)
            dsl_exc_help(b, exc);
        else
            return false;
    }
    return true;
}

json_t *dsl_inspect(struct dsl_session *s, const char *code, size_t cursor, int detail_level)
{
    if (!code) return NULL;
    size_t len = strlen(code);
    if (cursor > len) cursor = len;
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_STR_BYTES);
    /* the name under the cursor; when it is unknown (a keyword argument's name, a string, a
     * number), the call whose parentheses hold the cursor, as shift-tab in IPython does */
    size_t at = 0;
    char *name = name_at(code, len, cursor, &at);
    bool found = name && describe(s, code, name, at, detail_level, &b);
    if (!found) {
        free(name);
        render_buf_free(&b);
        name = enclosing_call(code, at, &at);
        found = name && describe(s, code, name, at, detail_level, &b);
    }
    free(name);
    json_t *bundle = found && !b.nomem && !b.over ? render_text_bundle(render_buf_str(&b)) : NULL;
    render_buf_free(&b);
    return bundle;
}
