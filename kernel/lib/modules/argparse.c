/* argparse.c — Python's argparse, for MiniTorch's project scripts (`parser =
 * argparse.ArgumentParser(); parser.add_argument("--PTS", type=int, default=50, help=...);
 * args = parser.parse_args()`): ArgumentParser, its actions and Namespace as classes of the
 * language, parsing, help text and errors as CPython 3.11's.
 *
 * A cell has no command line: parse_args() parses an empty one, so that every argument takes
 * its default, and parse_args(["--lr", "0.1"]) parses the list it is given. As in CPython, an
 * error in the arguments writes the usage and "PROG: error: ..." to stderr and raises
 * SystemExit(2), and -h writes the help to stdout and raises SystemExit(0); the program's name
 * is the kernel's, where a script's is its file's.
 *
 * A parser keeps its arguments as CPython's does, in attributes a program may read: `_actions`,
 * a list of action instances whose attributes are CPython's (option_strings, dest, nargs,
 * const, default, type, choices, required, help, metavar), and `_defaults` (set_defaults).
 * Parsing reads them back each time. Left out: argument groups, subparsers, parents, formatter
 * classes, prefix characters other than '-', arguments read from files, Action classes of the
 * program's own. Positional strings are matched to the positional arguments all together,
 * where CPython matches them between options a run at a time; they differ only for optional
 * positionals given after an option. */
#include "lib/modules/module.h"

#include "lang/classes.h"
#include "lang/dict.h"
#include "lang/exceptions.h"
#include "lang/operators.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUPPRESS "==SUPPRESS=="
#define PROG "minitorch-kernel"
#define WIDTH 78 /* CPython's: the terminal's columns, 80 where there is none, less 2 */
#define MAX_HELP_POSITION 24
#define MANY INT_MAX /* the most values nargs '*' and '+' take */

/* ---- small helpers ------------------------------------------------------------------------ */

/* inst.name, borrowed; none when unset. */
static struct dsl_value get(struct dsl_value inst, const char *name)
{
    struct dsl_value *slot =
        inst.kind == DSL_INSTANCE ? dsl_attrs_find(&inst.as.inst->attrs, name) : NULL;
    return slot ? *slot : dsl_none();
}

static bool has(struct dsl_value inst, const char *name)
{
    return inst.kind == DSL_INSTANCE && dsl_attrs_find(&inst.as.inst->attrs, name);
}

static const char *cstr(struct dsl_value v) { return v.kind == DSL_STR ? v.as.s->data : NULL; }

static bool is_suppress(struct dsl_value v)
{
    return v.kind == DSL_STR && strcmp(v.as.s->data, SUPPRESS) == 0;
}

static int set(struct dsl_interp *in, struct dsl_value inst, const char *name, struct dsl_value v)
{
    return dsl_object_setattr(in, inst, name, v);
}

static int new_str(struct dsl_interp *in, const char *s, struct dsl_value *out)
{
    int st = dsl_str_value(s, strlen(s), out);
    return st ? dsl_raise_status(in, st) : 0;
}

static int set_str(struct dsl_interp *in, struct dsl_value inst, const char *name, const char *s)
{
    struct dsl_value v;
    if (new_str(in, s, &v) != 0) return -1;
    int r = set(in, inst, name, v);
    dsl_value_release(v);
    return r;
}

/* A text the caller frees with render_buf_free, its memory status raised when it failed. */
static int buf_check(struct dsl_interp *in, struct render_buf *b)
{
    return b->nomem  ? dsl_raise_status(in, DSL_V_NOMEM)
           : b->over ? dsl_raise_status(in, DSL_V_TOOBIG)
                     : 0;
}

static int buf_value(struct dsl_interp *in, struct render_buf *b, struct dsl_value *out)
{
    int r = buf_check(in, b);
    if (r == 0) {
        int st = dsl_str_value(render_buf_str(b), b->len, out);
        if (st) r = dsl_raise_status(in, st);
    }
    render_buf_free(b);
    return r;
}

/* repr(s) of a C string, into a fixed buffer (a message's piece). */
static const char *repr_of(const char *s, char *buf, size_t cap)
{
    struct dsl_value v;
    struct render_buf b;
    render_buf_init(&b, cap - 1);
    if (dsl_str_value(s, strlen(s), &v) == DSL_V_OK) {
        dsl_value_repr(&b, v);
        dsl_value_release(v);
    }
    snprintf(buf, cap, "%s", b.data ? render_buf_str(&b) : "''");
    render_buf_free(&b);
    return buf;
}

/* The name a type is called in "invalid NAME value": a class's or a function's __name__. */
static void type_name(struct render_buf *b, struct dsl_value t)
{
    if (t.kind == DSL_CLASS)
        render_buf_puts(b, t.as.cls->name);
    else if (t.kind == DSL_FUNCTION)
        render_buf_puts(b, t.as.fn_user->def->name);
    else if (t.kind == DSL_BUILTIN)
        render_buf_puts(b, t.as.fn->name);
    else if (t.kind == DSL_METHOD && t.as.m->fn)
        render_buf_puts(b, t.as.m->fn->name);
    else if (t.kind == DSL_METHOD)
        render_buf_puts(b, t.as.m->func.as.fn_user->def->name);
    else
        dsl_value_repr(b, t);
}

/* Binds a call's positional (a->rest) and keyword arguments to the parameters `names`, as a
 * def binds them: vals[i] borrowed, given[i] whether it was. CPython's TypeErrors. */
static int bind(struct dsl_interp *in, const char *fn, const char *const *names, size_t n,
                const struct dsl_args *a, struct dsl_value *vals, bool *given)
{
    for (size_t i = 0; i < n; i++) vals[i] = dsl_none(), given[i] = false;
    if (a->nrest > n)
        return dsl_raise(in, "TypeError",
                         "%s() takes from 1 to %zu positional arguments but %zu "
                         "were given",
                         fn, n + 1, a->nrest + 1);
    for (size_t i = 0; i < a->nrest; i++) vals[i] = a->rest[i], given[i] = true;
    for (size_t k = 0; k < a->nkw; k++) {
        size_t i = 0;
        while (i < n && strcmp(names[i], a->kwnames[k]) != 0) i++;
        if (i == n)
            return dsl_raise(in, "TypeError", "%s() got an unexpected keyword argument '%s'", fn,
                             a->kwnames[k]);
        if (given[i])
            return dsl_raise(in, "TypeError", "%s() got multiple values for argument '%s'", fn,
                             names[i]);
        vals[i] = a->kwvals[k];
        given[i] = true;
    }
    return 0;
}

/* ---- classes ------------------------------------------------------------------------------ */

enum kind {
    K_STORE,
    K_STORE_CONST,
    K_STORE_TRUE,
    K_STORE_FALSE,
    K_APPEND,
    K_APPEND_CONST,
    K_COUNT,
    K_HELP,
    K_VERSION,
    K_KINDS
};
static const char *const kind_action[K_KINDS] = {
    "store",        "store_const", "store_true", "store_false", "append",
    "append_const", "count",       "help",       "version",
};
static const char *const kind_class[K_KINDS] = {
    "_StoreAction",      "_StoreConstAction", "_StoreTrueAction",
    "_StoreFalseAction", "_AppendAction",     "_AppendConstAction",
    "_CountAction",      "_HelpAction",       "_VersionAction",
};

static int action_repr(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);

/* One class per kind of action, as CPython's: each its own rows, since a library class is
 * known by its rows. */
#define ACTION_ROWS                                                                                \
    {                                                                                              \
        {"__repr__",                                                                               \
         "__repr__()",                                                                             \
         0,                                                                                        \
         0,                                                                                        \
         NULL,                                                                                     \
         action_repr,                                                                              \
         "The class and the attributes, as CPython shows an action."},                             \
            {NULL, NULL, 0, 0, NULL, NULL, NULL},                                                  \
    }
static const struct dsl_builtin action_rows[K_KINDS][2] = {
    ACTION_ROWS, ACTION_ROWS, ACTION_ROWS, ACTION_ROWS, ACTION_ROWS,
    ACTION_ROWS, ACTION_ROWS, ACTION_ROWS, ACTION_ROWS,
};

static struct dsl_class *action_class(enum kind k)
{
    return dsl_library_class(kind_class[k],
                             "An argument of an ArgumentParser, as add_argument returns it: "
                             "option_strings, dest, nargs, const, default, type, choices, "
                             "required, help, metavar.",
                             dsl_none(), action_rows[k]);
}

static int kind_of(struct dsl_value v)
{
    if (v.kind != DSL_INSTANCE) return -1;
    for (int k = 0; k < K_KINDS; k++)
        if (v.as.inst->cls.as.cls == action_class((enum kind)k)) return k;
    return -1;
}

static struct dsl_class *parser_class(void);
static struct dsl_class *namespace_class(void);

static struct dsl_value class_value(struct dsl_class *c)
{
    return (struct dsl_value){.kind = DSL_CLASS, .as.cls = c};
}

/* The attributes of an action, in CPython's order (its repr shows them so). */
static const char *const action_attrs[] = {"option_strings", "dest",   "nargs",   "const",
                                           "default",        "type",   "choices", "required",
                                           "help",           "metavar"};
#define NATTRS (sizeof action_attrs / sizeof action_attrs[0])

/* `name=repr, ...` of inst's attributes `names` (a Namespace's: all of them). */
static int attrs_text(struct dsl_interp *in, struct render_buf *b, struct dsl_value inst,
                      const char *const *names, size_t n)
{
    const struct dsl_attrs *at = &inst.as.inst->attrs;
    size_t count = names ? n : at->len;
    bool first = true;
    for (size_t i = 0; i < count; i++) {
        const char *name = names ? names[i] : at->items[i].name;
        if (!first) render_buf_puts(b, ", ");
        first = false;
        render_buf_printf(b, "%s=", name);
        int st = dsl_value_repr(b, names ? get(inst, name) : at->items[i].value);
        if (st != DSL_V_OK) return dsl_raise_status(in, st);
    }
    return 0;
}

static int action_repr(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_REPR_BYTES);
    int k = kind_of(a->self);
    render_buf_printf(&b, "%s(", k < 0 ? "Action" : kind_class[k]);
    if (attrs_text(in, &b, a->self, action_attrs, NATTRS) != 0) {
        render_buf_free(&b);
        return -1;
    }
    render_buf_putc(&b, ')');
    return buf_value(in, &b, ret);
}

/* ---- Namespace ------------------------------------------------------------------------------ */

static int ns_init(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    for (size_t k = 0; k < a->nkw; k++)
        if (set(in, a->self, a->kwnames[k], a->kwvals[k]) != 0) return -1;
    *ret = dsl_none();
    return 0;
}

static bool is_identifier(const char *s)
{
    if (!(isalpha((unsigned char)*s) || *s == '_')) return false;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_')) return false;
    return true;
}

/* Namespace(a=1, b=2): the attributes in the order they were set; names that are not
 * identifiers as a dict after **, as CPython's. */
static int ns_repr(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    const struct dsl_attrs *at = &a->self.as.inst->attrs;
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_REPR_BYTES);
    render_buf_puts(&b, "Namespace(");
    size_t shown = 0, odd = 0;
    int st = DSL_V_OK;
    for (size_t i = 0; i < at->len && st == DSL_V_OK; i++) {
        if (!is_identifier(at->items[i].name)) {
            odd++;
            continue;
        }
        render_buf_printf(&b, "%s%s=", shown++ ? ", " : "", at->items[i].name);
        st = dsl_value_repr(&b, at->items[i].value);
    }
    if (odd && st == DSL_V_OK) {
        render_buf_printf(&b, "%s**{", shown ? ", " : "");
        size_t done = 0;
        for (size_t i = 0; i < at->len && st == DSL_V_OK; i++) {
            if (is_identifier(at->items[i].name)) continue;
            struct dsl_value key;
            st = dsl_str_value(at->items[i].name, strlen(at->items[i].name), &key);
            if (st != DSL_V_OK) break;
            if (done++) render_buf_puts(&b, ", ");
            st = dsl_value_repr(&b, key);
            dsl_value_release(key);
            render_buf_puts(&b, ": ");
            if (st == DSL_V_OK) st = dsl_value_repr(&b, at->items[i].value);
        }
        render_buf_putc(&b, '}');
    }
    render_buf_putc(&b, ')');
    if (st != DSL_V_OK) {
        render_buf_free(&b);
        return dsl_raise_status(in, st);
    }
    return buf_value(in, &b, ret);
}

static const struct dsl_builtin namespace_rows[] = {
    {"__init__", "Namespace(**kwargs)", 0, 0, dsl_any_keywords, ns_init,
     "An object whose attributes are the keywords: what parse_args returns."},
    {"__repr__", "__repr__()", 0, 0, NULL, ns_repr, "Namespace(a=1, b=2)."},
    {NULL, NULL, 0, 0, NULL, NULL, NULL},
};

static struct dsl_class *namespace_class(void)
{
    return dsl_library_class("Namespace",
                             "argparse.Namespace(**kwargs): what parse_args returns, one "
                             "attribute per argument (args.lr).",
                             dsl_none(), namespace_rows);
}

/* ---- the parser's arguments, read back from its attributes ------------------------------ */

struct act {
    struct dsl_value v; /* the action (borrowed from the parser's _actions) */
    enum kind kind;
    const struct dsl_list *opts; /* option_strings: empty for a positional */
    const char *dest;
    struct dsl_value nargs, cnst, deflt, type, choices, help, metavar;
    bool required;
    int lo, hi; /* how many strings it takes */
    bool seen;
};

struct parser {
    struct dsl_value self;
    const char *prog;
    bool allow_abbrev;
    struct act *acts;
    size_t n;
};

static const char *opt_at(const struct act *a, size_t i) { return a->opts->items[i].as.s->data; }

/* How many strings nargs takes: 0, or -1 after raising ValueError for a value argparse has
 * no meaning for. */
static int nargs_range(struct dsl_interp *in, enum kind k, struct dsl_value nargs, int *lo, int *hi)
{
    if (k != K_STORE && k != K_APPEND) return *lo = *hi = 0, 0;
    const char *s = cstr(nargs);
    if (nargs.kind == DSL_NONE) return *lo = *hi = 1, 0;
    if (nargs.kind == DSL_INT && nargs.as.i >= 1 && nargs.as.i < MANY)
        return *lo = *hi = (int)nargs.as.i, 0;
    if (s && strcmp(s, "?") == 0) return *lo = 0, *hi = 1, 0;
    if (s && strcmp(s, "*") == 0) return *lo = 0, *hi = MANY, 0;
    if (s && strcmp(s, "+") == 0) return *lo = 1, *hi = MANY, 0;
    if (nargs.kind == DSL_INT && nargs.as.i == 0)
        return dsl_raise(in, "ValueError",
                         k == K_STORE
                             ? "nargs for store actions must be != 0; if you have nothing to "
                               "store, actions such as store true or store const may be more "
                               "appropriate"
                             : "nargs for append actions must be != 0; if arg strings are not "
                               "supplying the value to append, the append const action may be "
                               "more appropriate");
    return dsl_raise(in, "ValueError", "invalid nargs value");
}

static int load_act(struct dsl_interp *in, struct dsl_value v, struct act *a)
{
    memset(a, 0, sizeof *a);
    int k = kind_of(v);
    if (k < 0)
        return dsl_raise(in, "TypeError", "an ArgumentParser's _actions hold its actions, not %s",
                         dsl_type_name(v));
    a->v = v;
    a->kind = (enum kind)k;
    struct dsl_value opts = get(v, "option_strings"), dest = get(v, "dest");
    if (opts.kind != DSL_LIST || !cstr(dest))
        return dsl_raise(in, "TypeError",
                         "an action's option_strings must be a list and its "
                         "dest a string");
    for (size_t i = 0; i < opts.as.l->len; i++)
        if (opts.as.l->items[i].kind != DSL_STR || opts.as.l->items[i].as.s->len < 1)
            return dsl_raise(in, "TypeError", "an action's option_strings must be strings");
    a->opts = opts.as.l;
    a->dest = cstr(dest);
    a->nargs = get(v, "nargs");
    a->cnst = get(v, "const");
    a->deflt = get(v, "default");
    a->type = get(v, "type");
    a->choices = get(v, "choices");
    a->help = get(v, "help");
    a->metavar = get(v, "metavar");
    a->required = dsl_value_truthy(get(v, "required"));
    return nargs_range(in, a->kind, a->nargs, &a->lo, &a->hi);
}

static void parser_done(struct parser *p) { free(p->acts); }

static int load_parser(struct dsl_interp *in, struct dsl_value self, struct parser *p)
{
    memset(p, 0, sizeof *p);
    p->self = self;
    p->prog = cstr(get(self, "prog"));
    if (!p->prog) p->prog = PROG;
    p->allow_abbrev = dsl_value_truthy(get(self, "allow_abbrev"));
    struct dsl_value list = get(self, "_actions");
    if (list.kind != DSL_LIST)
        return dsl_raise(in, "TypeError", "an ArgumentParser's _actions must be a list");
    p->n = list.as.l->len;
    if (p->n && !(p->acts = calloc(p->n, sizeof *p->acts)))
        return dsl_raise_status(in, DSL_V_NOMEM);
    for (size_t i = 0; i < p->n; i++)
        if (load_act(in, list.as.l->items[i], &p->acts[i]) != 0) {
            parser_done(p);
            return -1;
        }
    return 0;
}

/* What errors call an argument: its option strings joined by '/', else its metavar or dest. */
static void act_name(struct render_buf *b, const struct act *a)
{
    if (a->opts->len) {
        for (size_t i = 0; i < a->opts->len; i++)
            render_buf_printf(b, "%s%s", i ? "/" : "", opt_at(a, i));
    } else if (cstr(a->metavar) && !is_suppress(a->metavar)) {
        render_buf_puts(b, cstr(a->metavar));
    } else {
        render_buf_puts(b, a->dest);
    }
}

/* ---- help text ------------------------------------------------------------------------------ */

/* Appends text's lines as textwrap.wrap makes them of at most `width` columns (whitespace
 * collapsed; a word split after a hyphen between letters, a word longer than a line cut), the
 * first started by `first` spaces, the others by `rest`, each ended by '\n'. */
static void wrap(struct render_buf *b, const char *text, size_t width, size_t first, size_t rest)
{
    /* the chunks: words (or their hyphenated parts) and the single spaces between them */
    size_t cap = strlen(text) + 1, n = 0;
    struct chunk {
        const char *s;
        size_t len;
    } *c = malloc(cap * sizeof *c);
    if (!c) {
        b->nomem = true;
        return;
    }
    const char *s = text;
    while (isspace((unsigned char)*s)) s++;
    while (*s) {
        if (isspace((unsigned char)*s)) {
            while (isspace((unsigned char)*s)) s++;
            if (*s) c[n++] = (struct chunk){" ", 1};
            continue;
        }
        size_t len = 0;
        while (s[len] && !isspace((unsigned char)s[len])) {
            len++;
            if (s[len - 1] == '-' && len >= 3 && isalpha((unsigned char)s[len - 2]) &&
                isalpha((unsigned char)s[len - 3]) && isalpha((unsigned char)s[len]) &&
                isalpha((unsigned char)s[len + 1]))
                break;
        }
        c[n++] = (struct chunk){s, len};
        s += len;
    }
    size_t i = 0;
    bool first_line = true;
    while (i < n) {
        size_t indent = first_line ? first : rest;
        if (!first_line && c[i].s[0] == ' ' && c[i].len == 1) i++; /* no space starts a line */
        if (i == n) break;
        size_t line = i, used = 0;
        while (i < n && used + c[i].len <= width) used += c[i++].len;
        size_t cut = 0; /* a word too long for any line fills this one, up to a hyphen in it */
        if (i < n && c[i].len > width && used < width) {
            cut = width - used;
            for (size_t h = cut - 1; h > 0; h--)
                if (c[i].s[h] == '-' && strspn(c[i].s, "-") < h) {
                    cut = h + 1;
                    break;
                }
        }
        size_t end = i;
        while (end > line && !cut && c[end - 1].s[0] == ' ' && c[end - 1].len == 1) end--;
        render_buf_printf(b, "%*s", (int)indent, "");
        for (size_t k = line; k < end; k++) render_buf_printf(b, "%.*s", (int)c[k].len, c[k].s);
        if (cut) {
            render_buf_printf(b, "%.*s", (int)cut, c[i].s);
            c[i].s += cut;
            c[i].len -= cut;
        }
        render_buf_putc(b, '\n');
        first_line = false;
    }
    free(c);
}

/* `text % params`, CPython's printf-style formatting by name, as help strings and usage are
 * expanded: %(name)s (str), %(name)r (repr), %(name)d, %%. The names are a's attributes (a
 * class or function by its __name__, choices joined by ", ") and prog. */
static int expand(struct dsl_interp *in, struct render_buf *b, const char *text,
                  const struct act *a, const char *prog)
{
    for (const char *s = text; *s; s++) {
        if (*s != '%') {
            render_buf_putc(b, *s);
            continue;
        }
        if (s[1] == '%') {
            render_buf_putc(b, '%');
            s++;
            continue;
        }
        if (s[1] != '(') {
            if (!s[1]) return dsl_raise(in, "ValueError", "incomplete format");
            return dsl_raise(in, "ValueError",
                             "unsupported format character '%c' (0x%x) at index %zu", s[1],
                             (unsigned char)s[1], (size_t)(s + 1 - text));
        }
        const char *name = s + 2, *close = strchr(name, ')');
        if (!close) return dsl_raise(in, "ValueError", "incomplete format key");
        char key[64];
        snprintf(key, sizeof key, "%.*s", (int)(close - name), name);
        const char *spec = close + 1;
        while (*spec && strchr("-+ #0123456789.", *spec)) spec++; /* flags and width: ignored */
        char conv = *spec;
        if (!conv) return dsl_raise(in, "ValueError", "incomplete format");
        if (!strchr("rsdi", conv))
            return dsl_raise(in, "ValueError",
                             "unsupported format character '%c' (0x%x) at index %zu", conv,
                             (unsigned char)conv, (size_t)(spec - text));
        bool is_prog = strcmp(key, "prog") == 0;
        size_t at = 0;
        while (a && at < NATTRS && strcmp(action_attrs[at], key) != 0) at++;
        struct dsl_value v = a && at < NATTRS ? get(a->v, key) : dsl_none();
        if (!is_prog && (!a || at == NATTRS || is_suppress(v))) {
            char rs[128];
            return dsl_raise(in, "KeyError", "%s", repr_of(key, rs, sizeof rs));
        }
        /* the parameter, as CPython's _expand_help makes it: a name for what has one, the
         * choices joined by ", " */
        struct render_buf t;
        render_buf_init(&t, DSL_MAX_REPR_BYTES);
        bool named = true, made = false;
        int st = DSL_V_OK;
        if (is_prog) {
            render_buf_puts(&t, prog);
        } else if (v.kind == DSL_CLASS || v.kind == DSL_FUNCTION || v.kind == DSL_BUILTIN) {
            type_name(&t, v);
        } else if (strcmp(key, "choices") == 0 && v.kind != DSL_NONE) {
            struct dsl_iter it;
            if (dsl_iter_init(in, v, &it) != 0) {
                render_buf_free(&t);
                return -1;
            }
            struct dsl_value item;
            int got = 0, k = 0;
            while (st == DSL_V_OK && (got = dsl_iter_next(in, &it, &item)) == 1) {
                if (k++) render_buf_puts(&t, ", ");
                st = dsl_value_str(&t, item);
                dsl_value_release(item);
            }
            if (st == DSL_V_OK && got < 0) st = DSL_V_RAISED;
        } else {
            named = false;
        }
        struct dsl_value param = v;
        if (st == DSL_V_OK && named) {
            st = dsl_str_value(render_buf_str(&t), t.len, &param);
            made = st == DSL_V_OK;
        }
        render_buf_free(&t);
        if (st == DSL_V_RAISED) return -1;
        if (st == DSL_V_OK && (conv == 'd' || conv == 'i') && !dsl_is_number(param)) {
            if (made) dsl_value_release(param);
            return dsl_raise(in, "TypeError", "%%%c format: a real number is required, not %s",
                             conv, dsl_type_name(param));
        }
        if (st == DSL_V_OK && conv == 'r')
            st = dsl_value_repr(b, param);
        else if (st == DSL_V_OK && conv == 's')
            st = dsl_value_str(b, param);
        else if (st == DSL_V_OK)
            render_buf_printf(b, "%lld", (long long)dsl_as_double(param));
        if (made) dsl_value_release(param);
        if (st != DSL_V_OK) return dsl_raise_status(in, st);
        s = spec;
    }
    return buf_check(in, b);
}

/* The strings of a's metavar for `count` values: its own (a string, or a tuple of them), else
 * {choice,...}, else dflt. A tuple of the wrong length is CPython's ValueError. */
static int metavars(struct dsl_interp *in, const struct act *a, const char *dflt, size_t count,
                    struct render_buf *one, const char **parts)
{
    if (dsl_is_tuple(a->metavar)) {
        const struct dsl_list *t = a->metavar.as.l;
        if (t->len != count)
            return dsl_raise(in, "ValueError", "length of metavar tuple does not match nargs");
        for (size_t i = 0; i < count; i++) {
            if (t->items[i].kind != DSL_STR)
                return dsl_raise(in, "TypeError", "a metavar is a string or a tuple of strings");
            parts[i] = t->items[i].as.s->data;
        }
        return 0;
    }
    if (cstr(a->metavar)) {
        render_buf_puts(one, cstr(a->metavar));
    } else if (a->choices.kind != DSL_NONE) {
        struct dsl_iter it;
        if (dsl_iter_init(in, a->choices, &it) != 0) return -1;
        struct dsl_value item;
        int got = 0, k = 0, st = DSL_V_OK;
        render_buf_putc(one, '{');
        while (st == DSL_V_OK && (got = dsl_iter_next(in, &it, &item)) == 1) {
            if (k++) render_buf_putc(one, ',');
            st = dsl_value_str(one, item);
            dsl_value_release(item);
        }
        if (st != DSL_V_OK) return dsl_raise_status(in, st);
        if (got < 0) return -1;
        render_buf_putc(one, '}');
    } else {
        render_buf_puts(one, dflt);
    }
    if (buf_check(in, one) != 0) return -1;
    for (size_t i = 0; i < count; i++) parts[i] = render_buf_str(one);
    return 0;
}

/* CPython's _format_args: how the values of a show in usage and help (X, [X], [X ...],
 * X [X ...], X X). */
static int format_args(struct dsl_interp *in, struct render_buf *b, const struct act *a,
                       const char *dflt)
{
    const char *s = cstr(a->nargs);
    size_t count = a->nargs.kind == DSL_INT   ? (size_t)a->nargs.as.i
                   : s && strcmp(s, "+") == 0 ? 2
                                              : 1;
    if (s && strcmp(s, "*") == 0 && dsl_is_tuple(a->metavar) && a->metavar.as.l->len == 2)
        count = 2;
    const char **parts = calloc(count, sizeof *parts);
    if (!parts) return dsl_raise_status(in, DSL_V_NOMEM);
    struct render_buf one;
    render_buf_init(&one, DSL_MAX_REPR_BYTES);
    int r = metavars(in, a, dflt, count, &one, parts);
    if (r == 0) {
        if (a->nargs.kind == DSL_NONE)
            render_buf_puts(b, parts[0]);
        else if (s && strcmp(s, "?") == 0)
            render_buf_printf(b, "[%s]", parts[0]);
        else if (s && strcmp(s, "*") == 0 && count == 2)
            render_buf_printf(b, "[%s [%s ...]]", parts[0], parts[1]);
        else if (s && strcmp(s, "*") == 0)
            render_buf_printf(b, "[%s ...]", parts[0]);
        else if (s && strcmp(s, "+") == 0)
            render_buf_printf(b, "%s [%s ...]", parts[0], parts[1]);
        else
            for (size_t i = 0; i < count; i++) render_buf_printf(b, "%s%s", i ? " " : "", parts[i]);
    }
    render_buf_free(&one);
    free(parts);
    return r;
}

/* The metavar CPython makes of dest for an option: DEST upper-cased. */
static int format_option_args(struct dsl_interp *in, struct render_buf *b, const struct act *a)
{
    char *upper = strdup(a->dest);
    if (!upper) return dsl_raise_status(in, DSL_V_NOMEM);
    for (char *c = upper; *c; c++) *c = (char)toupper((unsigned char)*c);
    int r = format_args(in, b, a, upper);
    free(upper);
    return r;
}

/* How help names an argument: dest (or metavar) for a positional; `-s ARGS, --long ARGS`, or
 * `-s, --long` for an option that takes no value. */
static int invocation(struct dsl_interp *in, struct render_buf *b, const struct act *a)
{
    if (!a->opts->len) {
        const char *m = cstr(a->metavar);
        if (dsl_is_tuple(a->metavar))
            return dsl_raise(in, "ValueError", "too many values to unpack (expected 1)");
        if (m) {
            render_buf_puts(b, m);
        } else if (a->choices.kind != DSL_NONE) {
            if (format_args(in, b,
                            &(struct act){.v = a->v,
                                          .opts = a->opts,
                                          .choices = a->choices,
                                          .nargs = dsl_none(),
                                          .metavar = dsl_none()},
                            a->dest) != 0)
                return -1;
        } else {
            render_buf_puts(b, a->dest);
        }
        return 0;
    }
    for (size_t i = 0; i < a->opts->len; i++) {
        if (i) render_buf_puts(b, ", ");
        render_buf_puts(b, opt_at(a, i));
        if (a->hi == 0) continue;
        render_buf_putc(b, ' ');
        if (format_option_args(in, b, a) != 0) return -1;
    }
    return 0;
}

static bool shown(const struct act *a) { return !is_suppress(a->help); }

/* One argument's piece of the usage line: `pos`, `[--opt OPT]`, `--flag`. */
static int usage_piece(struct dsl_interp *in, struct render_buf *b, const struct act *a)
{
    if (!a->opts->len) return format_args(in, b, a, a->dest);
    if (!a->required) render_buf_putc(b, '[');
    render_buf_puts(b, opt_at(a, 0));
    if (a->hi > 0) {
        render_buf_putc(b, ' ');
        if (format_option_args(in, b, a) != 0) return -1;
    }
    if (!a->required) render_buf_putc(b, ']');
    return 0;
}

/* The usage of the options (positionals false) or of the positionals, pieces joined by spaces. */
static int usage_of(struct dsl_interp *in, struct render_buf *b, const struct parser *p,
                    bool positionals)
{
    for (size_t i = 0; i < p->n; i++) {
        const struct act *a = &p->acts[i];
        if (!shown(a) || (a->opts->len == 0) != positionals) continue;
        if (b->len) render_buf_putc(b, ' ');
        if (usage_piece(in, b, a) != 0) return -1;
    }
    return 0;
}

/* The parts usage wraps at, as CPython's regular expression finds them: a bracketed group up
 * to a closing bracket that ends a word, or a word. */
static size_t split_parts(const char *text, const char **part, size_t *len)
{
    size_t n = 0;
    for (const char *s = text; *s;) {
        if (*s == ' ') {
            s++;
            continue;
        }
        size_t l = 0;
        if (*s == '[' || *s == '(') {
            char close = *s == '[' ? ']' : ')';
            for (const char *e = s + 1; *e && !l; e++) {
                if (*e != close) continue;
                const char *after = e;
                while (*after == close) after++;
                if (*after == ' ' || !*after) l = (size_t)(after - s);
            }
        }
        if (!l)
            while (s[l] && s[l] != ' ') l++;
        part[n] = s;
        len[n++] = l;
        s += l;
    }
    return n;
}

/* CPython's get_lines: the parts filled into lines of WIDTH columns, each started by `indent`
 * spaces and ended by '\n'; when `prefix` (its columns) is not 0, the first line goes on after
 * it, without the indent. */
static void get_lines(struct render_buf *b, const char **part, const size_t *len, size_t n,
                      size_t indent, size_t prefix)
{
    size_t line_len = (prefix ? prefix : indent) - 1, count = 0;
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        if (line_len + 1 + len[i] > WIDTH && count) {
            render_buf_putc(b, '\n');
            line_len = indent - 1;
            count = 0;
            first = false;
        }
        if (count == 0 && !(first && prefix))
            render_buf_printf(b, "%*s", (int)indent, "");
        else if (count)
            render_buf_putc(b, ' ');
        render_buf_printf(b, "%.*s", (int)len[i], part[i]);
        line_len += len[i] + 1;
        count++;
    }
    if (count) render_buf_putc(b, '\n');
}

/* The usage past WIDTH, wrapped as CPython wraps it: a short prog with the options' parts then
 * the positionals' beside it, a long one on a line of its own. part[0] is prog, then nopt
 * parts of the options and npos of the positionals. Lines end with '\n'. */
static void wrap_usage(struct render_buf *b, const char **part, const size_t *len, size_t nopt,
                       size_t npos, size_t plen)
{
    const char **opt = part + 1, **pos = part + 1 + nopt;
    const size_t *optlen = len + 1, *poslen = len + 1 + nopt;
    if (4 * (plen + len[0]) <= 3 * WIDTH) {
        size_t indent = plen + len[0] + 1;
        if (nopt) {
            get_lines(b, part, len, 1 + nopt, indent, plen);
            get_lines(b, pos, poslen, npos, indent, 0);
        } else {
            get_lines(b, part, len, 1 + npos, indent, plen);
        }
        return;
    }
    render_buf_printf(b, "%s\n", part[0]);
    struct render_buf probe;
    render_buf_init(&probe, DSL_MAX_REPR_BYTES);
    get_lines(&probe, opt, optlen, nopt + npos, plen, 0);
    const char *t = render_buf_str(&probe);
    const char *nl = strchr(t, '\n');
    if (nl && nl[1]) { /* more than one line: the options' and the positionals' apart */
        get_lines(b, opt, optlen, nopt, plen, 0);
        get_lines(b, pos, poslen, npos, plen, 0);
    } else {
        render_buf_puts(b, t);
    }
    render_buf_free(&probe);
}

/* "usage: PROG [-h] ...\n", wrapped past WIDTH. */
static int format_usage(struct dsl_interp *in, struct render_buf *b, const struct parser *p)
{
    static const char prefix[] = "usage: ";
    const size_t plen = sizeof prefix - 1;
    render_buf_puts(b, prefix);
    struct dsl_value usage = get(p->self, "usage");
    if (cstr(usage)) {
        if (expand(in, b, cstr(usage), NULL, p->prog) != 0) return -1;
        render_buf_putc(b, '\n');
        return 0;
    }
    struct render_buf opt, pos;
    render_buf_init(&opt, DSL_MAX_REPR_BYTES);
    render_buf_init(&pos, DSL_MAX_REPR_BYTES);
    int r = usage_of(in, &opt, p, false);
    if (r == 0) r = usage_of(in, &pos, p, true);
    if (r == 0) r = buf_check(in, &opt);
    if (r == 0) r = buf_check(in, &pos);
    size_t full = strlen(p->prog) + (opt.len ? opt.len + 1 : 0) + (pos.len ? pos.len + 1 : 0);
    if (r == 0 && plen + full <= WIDTH) {
        render_buf_puts(b, p->prog);
        if (opt.len) render_buf_printf(b, " %s", render_buf_str(&opt));
        if (pos.len) render_buf_printf(b, " %s", render_buf_str(&pos));
        render_buf_putc(b, '\n');
    } else if (r == 0) {
        size_t cap = opt.len + pos.len + 2;
        const char **part = malloc(cap * sizeof *part);
        size_t *len = malloc(cap * sizeof *len);
        if (part && len) {
            part[0] = p->prog;
            len[0] = strlen(p->prog);
            size_t nopt = split_parts(render_buf_str(&opt), part + 1, len + 1);
            size_t npos = split_parts(render_buf_str(&pos), part + 1 + nopt, len + 1 + nopt);
            wrap_usage(b, part, len, nopt, npos, plen);
        } else {
            r = dsl_raise_status(in, DSL_V_NOMEM);
        }
        free(part);
        free(len);
    }
    render_buf_free(&opt);
    render_buf_free(&pos);
    return r;
}

/* One argument's lines of help: its invocation, then its help text wrapped beside it (or
 * under it, past the help column). */
static int format_action(struct dsl_interp *in, struct render_buf *b, const struct parser *p,
                         const struct act *a, size_t help_position)
{
    const size_t indent = 2;
    size_t help_width = WIDTH > help_position + 11 ? WIDTH - help_position : 11;
    size_t action_width = help_position - indent - 2;
    struct render_buf head;
    render_buf_init(&head, DSL_MAX_REPR_BYTES);
    if (invocation(in, &head, a) != 0 || buf_check(in, &head) != 0) {
        render_buf_free(&head);
        return -1;
    }
    const char *help = cstr(a->help);
    size_t indent_first = 0;
    bool newline = false;
    if (!help || !*help) {
        render_buf_printf(b, "%*s%s\n", (int)indent, "", render_buf_str(&head));
        newline = true;
    } else if (head.len <= action_width) {
        render_buf_printf(b, "%*s%-*s  ", (int)indent, "", (int)action_width,
                          render_buf_str(&head));
    } else {
        render_buf_printf(b, "%*s%s\n", (int)indent, "", render_buf_str(&head));
        indent_first = help_position;
        newline = true;
    }
    render_buf_free(&head);
    bool blank = true;
    for (const char *c = help; c && *c && blank; c++) blank = isspace((unsigned char)*c);
    if (help && !blank) {
        struct render_buf text;
        render_buf_init(&text, DSL_MAX_REPR_BYTES);
        if (expand(in, &text, help, a, p->prog) != 0) {
            render_buf_free(&text);
            return -1;
        }
        wrap(b, render_buf_str(&text), help_width, indent_first, help_position);
        render_buf_free(&text);
    } else if (!newline) {
        render_buf_putc(b, '\n');
    }
    return 0;
}

/* CPython's format_help: usage, description, the positionals' and the options' sections,
 * epilog; runs of blank lines made one, no blank line at either end. */
static int format_help(struct dsl_interp *in, struct render_buf *out, const struct parser *p)
{
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_REPR_BYTES);
    int r = format_usage(in, &b, p);
    render_buf_putc(&b, '\n');
    const char *texts[2] = {cstr(get(p->self, "description")), cstr(get(p->self, "epilog"))};
    size_t max_len = 0;
    for (size_t i = 0; i < p->n && r == 0; i++) {
        if (!shown(&p->acts[i])) continue;
        struct render_buf head;
        render_buf_init(&head, DSL_MAX_REPR_BYTES);
        r = invocation(in, &head, &p->acts[i]);
        if (head.len + 2 > max_len) max_len = head.len + 2;
        render_buf_free(&head);
    }
    size_t help_position = max_len + 2 < MAX_HELP_POSITION ? max_len + 2 : MAX_HELP_POSITION;
    for (int part = 0; part < 4 && r == 0; part++) {
        if (part == 0 || part == 3) { /* description, epilog */
            const char *text = texts[part == 3];
            if (!text) continue;
            struct render_buf t;
            render_buf_init(&t, DSL_MAX_REPR_BYTES);
            r = expand(in, &t, text, NULL, p->prog);
            if (r == 0) wrap(&b, render_buf_str(&t), WIDTH, 0, 0);
            render_buf_free(&t);
            render_buf_putc(&b, '\n');
            continue;
        }
        bool positionals = part == 1, any = false;
        for (size_t i = 0; i < p->n && r == 0; i++) {
            const struct act *a = &p->acts[i];
            if (!shown(a) || (a->opts->len == 0) != positionals) continue;
            if (!any)
                render_buf_puts(&b, positionals ? "\npositional arguments:\n" : "\noptions:\n");
            any = true;
            r = format_action(in, &b, p, a, help_position);
        }
        if (any) render_buf_putc(&b, '\n');
    }
    if (r == 0) r = buf_check(in, &b);
    if (r == 0) {
        const char *s = render_buf_str(&b);
        while (*s == '\n') s++;
        size_t end = strlen(s);
        while (end && s[end - 1] == '\n') end--;
        for (size_t i = 0; i < end; i++) {
            if (s[i] == '\n' && i + 2 < end && s[i + 1] == '\n' && s[i + 2] == '\n') continue;
            render_buf_putc(out, s[i]);
        }
        render_buf_putc(out, '\n');
    }
    render_buf_free(&b);
    return r;
}

/* ---- errors ----------------------------------------------------------------------------- */

/* SystemExit(code), as sys.exit raises it: the cell ends there. */
static int exit_with(struct dsl_interp *in, int code)
{
    return dsl_raise(in, "SystemExit", "%d", code);
}

/* parser.error(message): the usage and "PROG: error: message" on stderr, then SystemExit(2). */
static int parse_error(struct dsl_interp *in, const struct parser *p, const char *msg)
{
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_REPR_BYTES);
    if (format_usage(in, &b, p) != 0) {
        render_buf_free(&b);
        return -1;
    }
    render_buf_printf(&b, "%s: error: %s\n", p->prog, msg);
    if (buf_check(in, &b) == 0) dsl_emit(in, "stderr", render_buf_str(&b));
    render_buf_free(&b);
    if (in->ename) return -1;
    return exit_with(in, 2);
}

/* An error about argument a: "argument NAME: message". */
static int arg_error(struct dsl_interp *in, const struct parser *p, const struct act *a,
                     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int arg_error(struct dsl_interp *in, const struct parser *p, const struct act *a,
                     const char *fmt, ...)
{
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_REPR_BYTES);
    render_buf_puts(&b, "argument ");
    act_name(&b, a);
    render_buf_puts(&b, ": ");
    va_list ap;
    va_start(ap, fmt);
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    render_buf_puts(&b, msg);
    int r = buf_check(in, &b);
    if (r == 0) r = parse_error(in, p, render_buf_str(&b));
    render_buf_free(&b);
    return r;
}

/* ---- parsing -------------------------------------------------------------------------------- */

/* a's type called on s (s itself without a type). A TypeError or ValueError it raises is
 * CPython's "invalid int value: 'x'"; anything else goes on. */
static int get_value(struct dsl_interp *in, const struct parser *p, const struct act *a,
                     const char *s, struct dsl_value *out)
{
    struct dsl_value sv;
    if (new_str(in, s, &sv) != 0) return -1;
    if (a->type.kind == DSL_NONE) {
        *out = sv;
        return 0;
    }
    int r = dsl_call(in, a->type, &sv, 1, NULL, NULL, 0, out);
    dsl_value_release(sv);
    if (r == 0) return 0;
    struct dsl_exc_saved saved;
    dsl_exc_take(in, &saved);
    const struct dsl_exc_type *t = dsl_exc_saved_type(&saved);
    if (!dsl_exc_type_is(t, dsl_exc_type_find("TypeError")) &&
        !dsl_exc_type_is(t, dsl_exc_type_find("ValueError"))) {
        dsl_exc_put(in, &saved);
        return -1;
    }
    dsl_exc_saved_free(&saved);
    struct render_buf name;
    render_buf_init(&name, 4096);
    type_name(&name, a->type);
    char rs[512];
    r = arg_error(in, p, a, "invalid %s value: %s", render_buf_str(&name),
                  repr_of(s, rs, sizeof rs));
    render_buf_free(&name);
    return r;
}

/* A value not among a's choices is CPython's "invalid choice: 'x' (choose from 'a', 'b')". */
static int check_value(struct dsl_interp *in, const struct parser *p, const struct act *a,
                       struct dsl_value v)
{
    if (a->choices.kind == DSL_NONE) return 0;
    bool ok;
    if (dsl_contains(in, v, a->choices, &ok) != 0) return -1;
    if (ok) return 0;
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_REPR_BYTES);
    int st = dsl_value_repr(&b, v);
    render_buf_puts(&b, " (choose from ");
    struct dsl_iter it;
    if (st != DSL_V_OK || dsl_iter_init(in, a->choices, &it) != 0) {
        render_buf_free(&b);
        return st != DSL_V_OK ? dsl_raise_status(in, st) : -1;
    }
    struct dsl_value item;
    int got = 0, k = 0;
    while (st == DSL_V_OK && (got = dsl_iter_next(in, &it, &item)) == 1) {
        if (k++) render_buf_puts(&b, ", ");
        st = dsl_value_repr(&b, item);
        dsl_value_release(item);
    }
    render_buf_putc(&b, ')');
    int r = st != DSL_V_OK ? dsl_raise_status(in, st) : got < 0 ? -1 : buf_check(in, &b);
    if (r == 0) r = arg_error(in, p, a, "invalid choice: %s", render_buf_str(&b));
    render_buf_free(&b);
    return r;
}

/* CPython's _get_values: what a's strings make, converted and checked: one value (nargs None
 * or '?'), const or the default ('?' given nothing), else a list. */
static int get_values(struct dsl_interp *in, const struct parser *p, const struct act *a,
                      char *const *strs, size_t n, struct dsl_value *out)
{
    const char *nargs = cstr(a->nargs);
    bool optional = nargs && strcmp(nargs, "?") == 0, star = nargs && strcmp(nargs, "*") == 0;
    if (n == 0 && optional) {
        struct dsl_value v = a->opts->len ? a->cnst : a->deflt;
        if (v.kind == DSL_STR) {
            if (get_value(in, p, a, v.as.s->data, out) != 0) return -1;
        } else {
            *out = dsl_value_retain(v);
        }
    } else if (n == 0 && star && !a->opts->len) {
        if (a->deflt.kind != DSL_NONE) {
            *out = dsl_value_retain(a->deflt);
        } else {
            struct dsl_list *l = dsl_list_new(0);
            if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
            *out = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
        }
    } else if (n == 1 && (a->nargs.kind == DSL_NONE || optional)) {
        if (get_value(in, p, a, strs[0], out) != 0) return -1;
    } else {
        struct dsl_list *l = dsl_list_new(n);
        if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
        *out = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
        for (size_t i = 0; i < n; i++) {
            struct dsl_value v;
            if (get_value(in, p, a, strs[i], &v) != 0) {
                dsl_value_release(*out);
                return -1;
            }
            if (check_value(in, p, a, v) != 0) {
                dsl_value_release(v);
                dsl_value_release(*out);
                return -1;
            }
            l->items[l->len++] = v;
            dsl_value_adopt(v);
        }
        return 0;
    }
    if (check_value(in, p, a, *out) != 0) {
        dsl_value_release(*out);
        return -1;
    }
    return 0;
}

static int print_help(struct dsl_interp *in, const struct parser *p, const char *stream)
{
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_REPR_BYTES);
    int r = format_help(in, &b, p);
    if (r == 0) r = buf_check(in, &b);
    if (r == 0) dsl_emit(in, stream, render_buf_str(&b));
    render_buf_free(&b);
    return r;
}

/* What an action does with the strings it took, into the namespace. */
static int take_action(struct dsl_interp *in, const struct parser *p, struct act *a,
                       char *const *strs, size_t n, struct dsl_value ns)
{
    a->seen = true;
    struct dsl_value v = dsl_none(), old = get(ns, a->dest);
    int r = 0;
    switch (a->kind) {
    case K_STORE:
    case K_APPEND:
        if (get_values(in, p, a, strs, n, &v) != 0) return -1;
        break;
    case K_HELP:
        if (print_help(in, p, "stdout") != 0) return -1;
        return exit_with(in, 0);
    case K_VERSION: {
        struct render_buf t, w;
        render_buf_init(&t, DSL_MAX_REPR_BYTES);
        render_buf_init(&w, DSL_MAX_REPR_BYTES);
        const char *version = cstr(get(a->v, "version"));
        r = expand(in, &t, version ? version : "", a, p->prog);
        if (r == 0) wrap(&w, render_buf_str(&t), WIDTH, 0, 0);
        if (r == 0) r = buf_check(in, &w);
        if (r == 0) dsl_emit(in, "stdout", render_buf_str(&w));
        render_buf_free(&t);
        render_buf_free(&w);
        return r == 0 ? exit_with(in, 0) : -1;
    }
    default: v = dsl_value_retain(a->cnst); break;
    }
    if (a->kind == K_APPEND || a->kind == K_APPEND_CONST) { /* a copy of the list, one more */
        if (old.kind != DSL_NONE && (old.kind != DSL_LIST || dsl_is_tuple(old))) {
            dsl_value_release(v);
            return dsl_raise(in, "AttributeError", "'%s' object has no attribute 'append'",
                             dsl_type_name(old));
        }
        size_t len = old.kind == DSL_LIST ? old.as.l->len : 0;
        struct dsl_list *l = dsl_list_new(len + 1);
        if (!l) {
            dsl_value_release(v);
            return dsl_raise_status(in, DSL_V_NOMEM);
        }
        for (size_t i = 0; i < len; i++) {
            l->items[l->len++] = dsl_value_retain(old.as.l->items[i]);
            dsl_value_adopt(old.as.l->items[i]);
        }
        l->items[l->len++] = v;
        dsl_value_adopt(v);
        v = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    } else if (a->kind == K_COUNT) {
        if (old.kind != DSL_NONE && !dsl_is_intlike(old))
            return dsl_raise(in, "TypeError", "unsupported operand type(s) for +: '%s' and 'int'",
                             dsl_type_name(old));
        v = dsl_int((old.kind == DSL_NONE ? 0 : dsl_as_int(old)) + 1);
    }
    r = set(in, ns, a->dest, v);
    dsl_value_release(v);
    return r;
}

/* An option given by a string: the action and, for `--opt=value` or `-xVALUE`, the value
 * written with it. */
struct option_hit {
    struct act *a;
    const char *opt;      /* the option string matched */
    const char *explicit; /* the value written with it, or NULL */
};

static struct act *find_option(struct parser *p, const char *s, size_t len)
{
    for (size_t i = 0; i < p->n; i++)
        for (size_t k = 0; k < p->acts[i].opts->len; k++) {
            const char *o = opt_at(&p->acts[i], k);
            if (strlen(o) == len && strncmp(o, s, len) == 0) return &p->acts[i];
        }
    return NULL;
}

/* -5, -.5: a negative number, which is a value unless some option looks like one. */
static bool negative_number(const char *s)
{
    if (s[0] != '-') return false;
    const char *d = s + 1;
    size_t digits = strspn(d, "0123456789");
    if (!d[digits]) return digits > 0;
    return d[digits] == '.' && d[digits + 1] &&
           !d[digits + 1 + strspn(d + digits + 1, "0123456789")];
}

enum { S_VALUE, S_OPTION, S_UNKNOWN };

/* CPython's _parse_optional: whether s is a value (S_VALUE), an option of p (S_OPTION, *hit
 * filled), or an option p does not have (S_UNKNOWN); -1 after the error of an abbreviation
 * that several options share. */
static int classify(struct dsl_interp *in, struct parser *p, const char *s, bool neg_options,
                    struct option_hit *hit)
{
    memset(hit, 0, sizeof *hit);
    size_t len = strlen(s);
    if (!len || s[0] != '-') return S_VALUE;
    if ((hit->a = find_option(p, s, len))) return hit->opt = s, S_OPTION;
    if (len == 1) return S_VALUE;
    const char *eq = strchr(s, '=');
    if (eq && (hit->a = find_option(p, s, (size_t)(eq - s)))) {
        hit->explicit = eq + 1;
        for (size_t k = 0; k < hit->a->opts->len; k++)
            if (strncmp(opt_at(hit->a, k), s, (size_t)(eq - s)) == 0 && !opt_at(hit->a, k)[eq - s])
                hit->opt = opt_at(hit->a, k);
        return S_OPTION;
    }
    /* abbreviations: --pre of --prefix, -xVALUE of -x, -pre of -prefix */
    struct render_buf matches;
    render_buf_init(&matches, 4096);
    size_t found = 0;
    bool dashes = s[1] == '-';
    size_t plen = dashes && eq ? (size_t)(eq - s) : len;
    for (size_t i = 0; i < p->n && (p->allow_abbrev || !dashes); i++)
        for (size_t k = 0; k < p->acts[i].opts->len; k++) {
            const char *o = opt_at(&p->acts[i], k);
            const char *explicit = dashes && eq ? eq + 1 : NULL;
            bool match = strncmp(o, s, plen) == 0;
            if (!dashes && strlen(o) == 2 && strncmp(o, s, 2) == 0) /* -xVALUE */
                match = true, explicit = s + 2;
            if (!match) continue;
            render_buf_printf(&matches, "%s%s", found ? ", " : "", o);
            if (found++ == 0) *hit = (struct option_hit){&p->acts[i], o, explicit};
        }
    if (found > 1) {
        char msg[1024];
        snprintf(msg, sizeof msg, "ambiguous option: %s could match %s", s,
                 render_buf_str(&matches));
        render_buf_free(&matches);
        return parse_error(in, p, msg);
    }
    render_buf_free(&matches);
    if (found == 1) return S_OPTION;
    memset(hit, 0, sizeof *hit);
    if (negative_number(s) && !neg_options) return S_VALUE;
    if (strchr(s, ' ')) return S_VALUE;
    return S_UNKNOWN;
}

/* A string left over, with its place among the arguments (extras keep the order given). */
struct extra {
    size_t at;
    const char *s;
};

/* How many strings from argv[i] are values: up to the next option (or `--`). */
static int values_from(struct dsl_interp *in, struct parser *p, char *const *argv, size_t argc,
                       size_t i, bool neg_options, size_t *count)
{
    *count = 0;
    for (size_t j = i; j < argc; j++) {
        if (strcmp(argv[j], "--") == 0) break;
        struct option_hit h;
        int k = classify(in, p, argv[j], neg_options, &h);
        if (k < 0) return -1;
        if (k != S_VALUE) break;
        (*count)++;
    }
    return 0;
}

/* CPython's consume_optional: the values of option hit (written with it, or the strings after
 * it), and its action taken; flags written together (-vx) one after the other. *i moves past
 * what was used. */
static int consume_optional(struct dsl_interp *in, struct parser *p, struct option_hit hit,
                            char *const *argv, size_t argc, size_t *i, bool neg_options,
                            struct dsl_value ns)
{
    char rs[512];
    for (;;) {
        struct act *a = hit.a;
        if (hit.explicit) {
            if (a->hi == 0 && hit.opt[1] != '-' && hit.explicit[0]) { /* -vx: -v, then -x */
                if (take_action(in, p, a, NULL, 0, ns) != 0) return -1;
                char next[3] = {'-', hit.explicit[0], '\0'};
                struct act *b = find_option(p, next, 2);
                if (!b)
                    return arg_error(in, p, a, "ignored explicit argument %s",
                                     repr_of(hit.explicit, rs, sizeof rs));
                hit = (struct option_hit){b, b == a ? hit.opt : NULL,
                                          hit.explicit[1] ? hit.explicit + 1 : NULL};
                for (size_t k = 0; k < b->opts->len; k++)
                    if (strcmp(opt_at(b, k), next) == 0) hit.opt = opt_at(b, k);
                continue;
            }
            if (a->lo <= 1 && a->hi >= 1) {
                char *one[1] = {(char *)hit.explicit};
                return take_action(in, p, a, one, 1, ns);
            }
            if (a->hi == 0)
                return arg_error(in, p, a, "ignored explicit argument %s",
                                 repr_of(hit.explicit, rs, sizeof rs));
            return arg_error(in, p, a, "expected %d arguments", a->lo);
        }
        size_t avail;
        if (values_from(in, p, argv, argc, *i, neg_options, &avail) != 0) return -1;
        if (avail < (size_t)a->lo) {
            const char *nargs = cstr(a->nargs);
            if (a->nargs.kind == DSL_NONE) return arg_error(in, p, a, "expected one argument");
            if (nargs && strcmp(nargs, "+") == 0)
                return arg_error(in, p, a, "expected at least one argument");
            return arg_error(in, p, a, "expected %d argument%s", a->lo, a->lo == 1 ? "" : "s");
        }
        size_t take = avail < (size_t)a->hi ? avail : (size_t)a->hi;
        *i += take;
        return take_action(in, p, a, argv + *i - take, take, ns);
    }
}

static int extra_order(const void *x, const void *y)
{
    const struct extra *a = x, *b = y;
    return a->at < b->at ? -1 : a->at > b->at;
}

/* CPython's parse_known_args on the strings argv into ns: defaults first, then options and
 * positionals; what no argument takes goes to *extras (a new list). */
static int parse_known(struct dsl_interp *in, struct parser *p, char *const *argv, size_t argc,
                       struct dsl_value ns, struct dsl_value *extras)
{
    *extras = dsl_none();
    for (size_t i = 0; i < p->n; i++) {
        const struct act *a = &p->acts[i];
        if (strcmp(a->dest, SUPPRESS) != 0 && !has(ns, a->dest) && !is_suppress(a->deflt) &&
            set(in, ns, a->dest, a->deflt) != 0)
            return -1;
    }
    struct dsl_value defaults = get(p->self, "_defaults");
    if (defaults.kind == DSL_DICT) {
        const struct dsl_dict *d = defaults.as.d;
        for (size_t i = 0; i < d->n; i++)
            if (d->entries[i].live && d->entries[i].key.kind == DSL_STR &&
                !has(ns, d->entries[i].key.as.s->data) &&
                set(in, ns, d->entries[i].key.as.s->data, d->entries[i].value) != 0)
                return -1;
    }
    bool neg_options = false;
    for (size_t i = 0; i < p->n; i++)
        for (size_t k = 0; k < p->acts[i].opts->len; k++)
            neg_options = neg_options || negative_number(opt_at(&p->acts[i], k));

    struct extra *left = calloc(argc + 1, sizeof *left);
    struct extra *pos = calloc(argc + 1, sizeof *pos);
    size_t nleft = 0, npos = 0;
    int r = left && pos ? 0 : dsl_raise_status(in, DSL_V_NOMEM);
    for (size_t i = 0; i < argc && r == 0;) {
        if (strcmp(argv[i], "--") == 0) { /* the rest are values */
            for (size_t j = i + 1; j < argc; j++) pos[npos++] = (struct extra){j, argv[j]};
            break;
        }
        struct option_hit hit;
        int k = classify(in, p, argv[i], neg_options, &hit);
        if (k < 0) {
            r = -1;
        } else if (k == S_VALUE) {
            pos[npos] = (struct extra){i, argv[i]};
            npos++, i++;
        } else if (k == S_UNKNOWN) {
            left[nleft++] = (struct extra){i, argv[i]};
            i++;
        } else {
            i++;
            r = consume_optional(in, p, hit, argv, argc, &i, neg_options, ns);
        }
    }

    /* the positionals: as many as the strings can give their least, from the left, each taking
     * as many as it can while those after it still get their least */
    size_t m = 0, need = 0, k = 0;
    struct act **ps = r == 0 ? calloc(p->n + 1, sizeof *ps) : NULL;
    if (r == 0 && !ps) r = dsl_raise_status(in, DSL_V_NOMEM);
    for (size_t i = 0; i < p->n && r == 0; i++)
        if (!p->acts[i].opts->len) ps[m++] = &p->acts[i];
    while (k < m && need + (size_t)ps[k]->lo <= npos) need += (size_t)ps[k++]->lo;
    char **strs = r == 0 ? calloc(npos + 1, sizeof *strs) : NULL;
    if (r == 0 && !strs) r = dsl_raise_status(in, DSL_V_NOMEM);
    for (size_t i = 0; i < npos && strs; i++) strs[i] = (char *)pos[i].s;
    size_t used = 0;
    for (size_t j = 0; j < k && r == 0; j++) {
        need -= (size_t)ps[j]->lo;
        size_t room = npos - used - need;
        size_t take = room < (size_t)ps[j]->hi ? room : (size_t)ps[j]->hi;
        r = take_action(in, p, ps[j], strs + used, take, ns);
        used += take;
    }
    for (size_t i = used; i < npos && r == 0; i++) left[nleft++] = pos[i];

    /* what was not given: required ones are an error, a string default goes through type */
    struct render_buf missing;
    render_buf_init(&missing, 4096);
    for (size_t i = 0; i < p->n && r == 0; i++) {
        struct act *a = &p->acts[i];
        if (a->seen) continue;
        if (a->required) {
            if (missing.len) render_buf_puts(&missing, ", ");
            act_name(&missing, a);
        } else if (a->deflt.kind == DSL_STR && has(ns, a->dest) &&
                   dsl_value_is(a->deflt, get(ns, a->dest))) {
            struct dsl_value v;
            r = get_value(in, p, a, a->deflt.as.s->data, &v);
            if (r == 0) {
                r = set(in, ns, a->dest, v);
                dsl_value_release(v);
            }
        }
    }
    if (r == 0 && missing.len) {
        char msg[2048];
        snprintf(msg, sizeof msg, "the following arguments are required: %s",
                 render_buf_str(&missing));
        r = parse_error(in, p, msg);
    }
    render_buf_free(&missing);
    if (r == 0) {
        qsort(left, nleft, sizeof *left, extra_order);
        struct dsl_list *l = dsl_list_new(nleft);
        if (!l) r = dsl_raise_status(in, DSL_V_NOMEM);
        for (size_t i = 0; i < nleft && r == 0; i++) {
            struct dsl_value v;
            r = new_str(in, left[i].s, &v);
            if (r == 0) l->items[l->len++] = v;
        }
        if (l) *extras = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
        if (r != 0) dsl_value_release(*extras), *extras = dsl_none();
    }
    free(strs);
    free(ps);
    free(left);
    free(pos);
    return r;
}

/* ---- ArgumentParser ------------------------------------------------------------------------- */

static int ret_none(struct dsl_value *ret)
{
    *ret = dsl_none();
    return 0;
}

/* A new list of the strings of a list or tuple (argv), or of none (no command line: a cell
 * has none); *strs borrows them. */
static int argv_of(struct dsl_interp *in, struct dsl_value v, char ***strs, size_t *n)
{
    *strs = NULL;
    *n = 0;
    if (v.kind == DSL_NONE) return 0;
    if (v.kind != DSL_LIST)
        return dsl_raise(in, "TypeError", "the arguments to parse are a list of strings, not %s",
                         dsl_type_name(v));
    *n = v.as.l->len;
    if (!(*strs = calloc(*n + 1, sizeof **strs))) return dsl_raise_status(in, DSL_V_NOMEM);
    for (size_t i = 0; i < *n; i++) {
        struct dsl_value s = v.as.l->items[i];
        if (s.kind != DSL_STR) {
            free(*strs);
            *strs = NULL;
            return dsl_raise(in, "TypeError",
                             "the arguments to parse are a list of strings: item %zu is %s", i,
                             dsl_type_name(s));
        }
        (*strs)[i] = s.as.s->data;
    }
    return 0;
}

/* parse_known_args(args=None, namespace=None) and parse_args: the namespace, and the strings
 * no argument took (for parse_args an error). */
static int parse_common(struct dsl_interp *in, const struct dsl_args *a, bool known,
                        struct dsl_value *ret)
{
    struct parser p;
    if (load_parser(in, a->self, &p) != 0) return -1;
    char **argv;
    size_t argc;
    struct dsl_value ns = dsl_none(), extras = dsl_none();
    int r = argv_of(in, a->has[0] ? a->slot[0] : dsl_none(), &argv, &argc);
    if (r == 0 && a->has[1] && a->slot[1].kind != DSL_NONE) {
        if (a->slot[1].kind != DSL_INSTANCE)
            r = dsl_raise(in, "TypeError", "namespace must be an object with attributes, not %s",
                          dsl_type_name(a->slot[1]));
        else
            ns = dsl_value_retain(a->slot[1]);
    } else if (r == 0) {
        r = dsl_class_call(in, class_value(namespace_class()), NULL, 0, NULL, NULL, 0, &ns);
    }
    if (r == 0) r = parse_known(in, &p, argv, argc, ns, &extras);
    if (r == 0 && !known && extras.as.l->len) {
        struct render_buf b;
        render_buf_init(&b, DSL_MAX_REPR_BYTES);
        render_buf_puts(&b, "unrecognized arguments:");
        for (size_t i = 0; i < extras.as.l->len; i++)
            render_buf_printf(&b, " %s", extras.as.l->items[i].as.s->data);
        r = buf_check(in, &b);
        if (r == 0) r = parse_error(in, &p, render_buf_str(&b));
        render_buf_free(&b);
    }
    if (r == 0 && known) {
        struct dsl_list *t = dsl_list_new(2);
        if (!t) {
            r = dsl_raise_status(in, DSL_V_NOMEM);
        } else {
            t->style = DSL_LIST_TUPLE;
            t->items[t->len++] = ns;
            t->items[t->len++] = extras;
            dsl_value_adopt(extras);
            ns = extras = dsl_none();
            *ret = (struct dsl_value){.kind = DSL_LIST, .as.l = t};
        }
    } else if (r == 0) {
        *ret = ns;
        ns = dsl_none();
    }
    dsl_value_release(ns);
    dsl_value_release(extras);
    free(argv);
    parser_done(&p);
    return r;
}

static int p_parse_args(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return parse_common(in, a, false, ret);
}

static int p_parse_known_args(struct dsl_interp *in, const struct dsl_args *a,
                              struct dsl_value *ret)
{
    return parse_common(in, a, true, ret);
}

/* format_help, format_usage (what = 0, 1), and print_help, print_usage (2, 3) to stdout. */
static int text_method(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret,
                       int what)
{
    if (what >= 2 && a->has[0] && a->slot[0].kind != DSL_NONE)
        return dsl_raise(in, "NotImplementedError",
                         "argparse here prints to the cell's output only: leave out file=");
    struct parser p;
    if (load_parser(in, a->self, &p) != 0) return -1;
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_REPR_BYTES);
    int r = what % 2 == 0 ? format_help(in, &b, &p) : format_usage(in, &b, &p);
    parser_done(&p);
    if (r != 0) {
        render_buf_free(&b);
        return -1;
    }
    if (what < 2) return buf_value(in, &b, ret);
    r = buf_check(in, &b);
    if (r == 0) dsl_emit(in, "stdout", render_buf_str(&b));
    render_buf_free(&b);
    return r == 0 ? ret_none(ret) : -1;
}

static int p_format_help(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return text_method(in, a, ret, 0);
}
static int p_format_usage(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return text_method(in, a, ret, 1);
}
static int p_print_help(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return text_method(in, a, ret, 2);
}
static int p_print_usage(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return text_method(in, a, ret, 3);
}

static int p_error(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)ret;
    struct parser p;
    if (load_parser(in, a->self, &p) != 0) return -1;
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_REPR_BYTES);
    int r = dsl_str_of(in, &b, a->slot[0]);
    if (r == 0) r = parse_error(in, &p, render_buf_str(&b));
    render_buf_free(&b);
    parser_done(&p);
    return r;
}

static int p_exit(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)ret;
    if (a->has[1] && a->slot[1].kind != DSL_NONE) {
        struct render_buf b;
        render_buf_init(&b, DSL_MAX_REPR_BYTES);
        int r = dsl_str_of(in, &b, a->slot[1]);
        if (r == 0) dsl_emit(in, "stderr", render_buf_str(&b));
        render_buf_free(&b);
        if (r != 0) return -1;
    }
    struct dsl_value code = a->has[0] ? a->slot[0] : dsl_int(0);
    if (dsl_is_intlike(code))
        return dsl_raise(in, "SystemExit", "%lld", (long long)dsl_as_int(code));
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_REPR_BYTES);
    int r = dsl_str_of(in, &b, code);
    if (r == 0) dsl_raise(in, "SystemExit", "%s", render_buf_str(&b));
    render_buf_free(&b);
    return -1;
}

/* set_defaults(**kwargs): parser-level defaults, and those of the arguments of these dests. */
static int p_set_defaults(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value d = get(a->self, "_defaults");
    if (d.kind != DSL_DICT)
        return dsl_raise(in, "TypeError", "an ArgumentParser's _defaults must be a dict");
    struct dsl_value list = get(a->self, "_actions");
    for (size_t k = 0; k < a->nkw; k++) {
        struct dsl_value key;
        if (new_str(in, a->kwnames[k], &key) != 0) return -1;
        int r = dsl_dict_store(in, d.as.d, key, a->kwvals[k]);
        dsl_value_release(key);
        if (r != 0) return -1;
        for (size_t i = 0; list.kind == DSL_LIST && i < list.as.l->len; i++) {
            struct dsl_value act = list.as.l->items[i];
            const char *dest = cstr(get(act, "dest"));
            if (dest && strcmp(dest, a->kwnames[k]) == 0 &&
                set(in, act, "default", a->kwvals[k]) != 0)
                return -1;
        }
    }
    return ret_none(ret);
}

static int p_get_default(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    const char *dest = cstr(a->slot[0]);
    struct dsl_value list = get(a->self, "_actions");
    for (size_t i = 0; dest && list.kind == DSL_LIST && i < list.as.l->len; i++) {
        struct dsl_value act = list.as.l->items[i];
        const char *d = cstr(get(act, "dest"));
        if (d && strcmp(d, dest) == 0 && get(act, "default").kind != DSL_NONE) {
            *ret = dsl_value_retain(get(act, "default"));
            return 0;
        }
    }
    struct dsl_value defaults = get(a->self, "_defaults"), *slot = NULL;
    if (defaults.kind == DSL_DICT && dsl_dict_lookup(in, defaults.as.d, a->slot[0], &slot) != 0)
        return -1;
    *ret = slot ? dsl_value_retain(*slot) : dsl_none();
    return 0;
}

static int p_repr(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    static const char *const shown_attrs[] = {"prog", "usage", "description"};
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_REPR_BYTES);
    render_buf_puts(&b, "ArgumentParser(");
    if (attrs_text(in, &b, a->self, shown_attrs, 3) != 0) {
        render_buf_free(&b);
        return -1;
    }
    render_buf_puts(&b, ", formatter_class=<class 'argparse.HelpFormatter'>, "
                        "conflict_handler='error', add_help=");
    int st = dsl_value_repr(&b, get(a->self, "add_help"));
    render_buf_putc(&b, ')');
    if (st != DSL_V_OK) {
        render_buf_free(&b);
        return dsl_raise_status(in, st);
    }
    return buf_value(in, &b, ret);
}

/* ---- add_argument --------------------------------------------------------------------------- */

enum {
    A_ACTION,
    A_NARGS,
    A_CONST,
    A_DEFAULT,
    A_TYPE,
    A_CHOICES,
    A_REQUIRED,
    A_HELP,
    A_METAVAR,
    A_DEST,
    A_VERSION,
    A_COUNT
};
static const char *const add_names[A_COUNT] = {"action",  "nargs",   "const",    "default",
                                               "type",    "choices", "required", "help",
                                               "metavar", "dest",    "version"};

/* The keywords each kind of action takes, besides action and dest (a bit per A_ index). */
#define BIT(x) (1u << (x))
static const unsigned kind_takes[K_KINDS] = {
    [K_STORE] = BIT(A_NARGS) | BIT(A_CONST) | BIT(A_DEFAULT) | BIT(A_TYPE) | BIT(A_CHOICES) |
                BIT(A_REQUIRED) | BIT(A_HELP) | BIT(A_METAVAR),
    [K_STORE_CONST] =
        BIT(A_CONST) | BIT(A_DEFAULT) | BIT(A_REQUIRED) | BIT(A_HELP) | BIT(A_METAVAR),
    [K_STORE_TRUE] = BIT(A_DEFAULT) | BIT(A_REQUIRED) | BIT(A_HELP),
    [K_STORE_FALSE] = BIT(A_DEFAULT) | BIT(A_REQUIRED) | BIT(A_HELP),
    [K_APPEND] = BIT(A_NARGS) | BIT(A_CONST) | BIT(A_DEFAULT) | BIT(A_TYPE) | BIT(A_CHOICES) |
                 BIT(A_REQUIRED) | BIT(A_HELP) | BIT(A_METAVAR),
    [K_APPEND_CONST] =
        BIT(A_CONST) | BIT(A_DEFAULT) | BIT(A_REQUIRED) | BIT(A_HELP) | BIT(A_METAVAR),
    [K_COUNT] = BIT(A_DEFAULT) | BIT(A_REQUIRED) | BIT(A_HELP),
    [K_HELP] = BIT(A_DEFAULT) | BIT(A_HELP),
    [K_VERSION] = BIT(A_VERSION) | BIT(A_DEFAULT) | BIT(A_HELP),
};

static bool is_callable(struct dsl_value v)
{
    struct dsl_value fn;
    switch (v.kind) {
    case DSL_CLASS:
    case DSL_BUILTIN:
    case DSL_FUNCTION:
    case DSL_METHOD:
    case DSL_EXC_TYPE: return true;
    case DSL_OBJECT: return v.as.obj->cls->call != NULL;
    case DSL_INSTANCE: return dsl_instance_method(v, "__call__", &fn);
    default: return false;
    }
}

/* The option strings of the arguments given (new list, `--foo` and `-f`), their dest: CPython's
 * _get_optional_kwargs. */
static int option_strings(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value dest_kw,
                          struct dsl_value *opts, struct dsl_value *dest)
{
    struct dsl_list *l = dsl_list_new(a->nrest);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    *opts = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    const char *first_long = NULL;
    char rs[512];
    for (size_t i = 0; i < a->nrest; i++) {
        const char *s = cstr(a->rest[i]);
        if (!s)
            return dsl_raise(in, "TypeError", "an option string is a str, not %s",
                             dsl_type_name(a->rest[i]));
        if (s[0] != '-')
            return dsl_raise(in, "ValueError",
                             "invalid option string %s: must start with a character '-'",
                             repr_of(s, rs, sizeof rs));
        if (!first_long && strlen(s) > 1 && s[1] == '-') first_long = s;
        l->items[l->len++] = dsl_value_retain(a->rest[i]);
    }
    if (cstr(dest_kw)) {
        *dest = dsl_value_retain(dest_kw);
        return 0;
    }
    const char *from = first_long ? first_long : cstr(a->rest[0]);
    const char *name = from + strspn(from, "-");
    if (!*name)
        return dsl_raise(in, "ValueError", "dest= is required for options like %s",
                         repr_of(from, rs, sizeof rs));
    char *d = strdup(name);
    if (!d) return dsl_raise_status(in, DSL_V_NOMEM);
    for (char *c = d; *c; c++)
        if (*c == '-') *c = '_';
    int r = new_str(in, d, dest);
    free(d);
    return r;
}

/* add_argument(*name_or_flags, action=, nargs=, const=, default=, type=, choices=, required=,
 * help=, metavar=, dest=, version=): the new action, with CPython's checks. */
static int p_add_argument(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value kw[A_COUNT];
    bool given[A_COUNT];
    for (int i = 0; i < A_COUNT; i++) kw[i] = dsl_none(), given[i] = false;
    for (size_t k = 0; k < a->nkw; k++) {
        int i = 0;
        while (i < A_COUNT && strcmp(add_names[i], a->kwnames[k]) != 0) i++;
        if (i == A_COUNT) { /* CPython passes it to the action's class, which refuses it */
            const char *action = cstr(kw[A_ACTION]);
            int kind = K_STORE;
            for (size_t j = 0; j < a->nkw; j++)
                if (strcmp(a->kwnames[j], "action") == 0 && cstr(a->kwvals[j]))
                    action = cstr(a->kwvals[j]);
            for (int j = 0; action && j < K_KINDS; j++)
                if (strcmp(kind_action[j], action) == 0) kind = j;
            return dsl_raise(in, "TypeError",
                             "%s.__init__() got an unexpected keyword argument '%s'",
                             kind_class[kind], a->kwnames[k]);
        }
        kw[i] = a->kwvals[k];
        given[i] = true;
    }
    bool positional =
        a->nrest == 0 || (a->nrest == 1 && cstr(a->rest[0]) && cstr(a->rest[0])[0] != '-');

    /* the kind of action */
    int kind = K_STORE;
    if (given[A_ACTION] && kw[A_ACTION].kind != DSL_NONE) {
        const char *name = cstr(kw[A_ACTION]);
        if (!name)
            return dsl_raise(in, "NotImplementedError",
                             "argparse here takes the actions by name (action=\"store_true\"), "
                             "not Action classes");
        kind = -1;
        for (int j = 0; j < K_KINDS; j++)
            if (strcmp(kind_action[j], name) == 0) kind = j;
        if (kind < 0) return dsl_raise(in, "ValueError", "unknown action \"%s\"", name);
    }
    for (int i = A_NARGS; i < A_DEST; i++)
        if (given[i] && !(kind_takes[kind] & BIT(i)))
            return dsl_raise(in, "TypeError",
                             "%s.__init__() got an unexpected keyword argument '%s'",
                             kind_class[kind], add_names[i]);
    if (given[A_VERSION] && kind != K_VERSION)
        return dsl_raise(in, "TypeError",
                         "%s.__init__() got an unexpected keyword argument 'version'",
                         kind_class[kind]);

    /* option strings and dest, as CPython's _get_positional_kwargs and _get_optional_kwargs */
    struct dsl_value opts = dsl_none(), dest = dsl_none(), act = dsl_none();
    bool required = dsl_value_truthy(kw[A_REQUIRED]);
    int r = 0;
    if (positional) {
        const char *nargs = cstr(kw[A_NARGS]);
        if (a->nrest && given[A_DEST])
            return dsl_raise(in, "ValueError", "dest supplied twice for positional argument");
        if (!a->nrest && !given[A_DEST])
            return dsl_raise(in, "TypeError",
                             "_get_positional_kwargs() missing 1 required "
                             "positional argument: 'dest'");
        if (given[A_REQUIRED])
            return dsl_raise(in, "TypeError", "'required' is an invalid argument for positionals");
        bool opt_or_star = nargs && (strcmp(nargs, "?") == 0 || strcmp(nargs, "*") == 0);
        required = !opt_or_star || (strcmp(nargs, "*") == 0 && !given[A_DEFAULT]);
        struct dsl_list *l = dsl_list_new(0);
        if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
        opts = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
        dest = dsl_value_retain(a->nrest ? a->rest[0] : kw[A_DEST]);
        if (!cstr(dest))
            r = dsl_raise(in, "TypeError", "dest must be a str, not %s", dsl_type_name(dest));
    } else {
        r = option_strings(in, a, kw[A_DEST], &opts, &dest);
    }

    /* the default: given, else the parser's for that dest, else its argument_default */
    struct dsl_value deflt = kw[A_DEFAULT];
    if (r == 0 && !given[A_DEFAULT]) {
        struct dsl_value defaults = get(a->self, "_defaults"), *slot = NULL;
        if (defaults.kind == DSL_DICT) r = dsl_dict_lookup(in, defaults.as.d, dest, &slot);
        if (slot)
            deflt = *slot;
        else if (get(a->self, "argument_default").kind != DSL_NONE)
            deflt = get(a->self, "argument_default");
        else if (kind == K_STORE_TRUE)
            deflt = dsl_bool(false);
        else if (kind == K_STORE_FALSE)
            deflt = dsl_bool(true);
        else if (kind == K_HELP || kind == K_VERSION)
            deflt = dsl_none(); /* SUPPRESS, below */
    }
    if (r == 0 && given[A_TYPE] && kw[A_TYPE].kind != DSL_NONE && !is_callable(kw[A_TYPE])) {
        struct render_buf t;
        render_buf_init(&t, 4096);
        dsl_value_repr(&t, kw[A_TYPE]);
        r = dsl_raise(in, "ValueError", "%s is not callable", render_buf_str(&t));
        render_buf_free(&t);
    }

    /* the action, its attributes in CPython's order */
    if (r == 0)
        r = dsl_class_call(in, class_value(action_class((enum kind)kind)), NULL, 0, NULL, NULL, 0,
                           &act);
    struct dsl_value vals[NATTRS];
    vals[0] = opts;
    vals[1] = dest;
    vals[2] = kind == K_STORE || kind == K_APPEND ? kw[A_NARGS] : dsl_int(0);
    vals[3] = kind == K_STORE_TRUE    ? dsl_bool(true)
              : kind == K_STORE_FALSE ? dsl_bool(false)
                                      : kw[A_CONST];
    vals[4] = deflt;
    vals[5] = kw[A_TYPE];
    vals[6] = kw[A_CHOICES];
    vals[7] = dsl_bool(required);
    vals[8] = kw[A_HELP];
    vals[9] = kw[A_METAVAR];
    if (!given[A_HELP] && kind == K_HELP) vals[8] = dsl_none();
    for (size_t i = 0; i < NATTRS && r == 0; i++) {
        if ((i == 4 && (kind == K_HELP || kind == K_VERSION) && !given[A_DEFAULT]) ||
            (i == 8 && !given[A_HELP] && (kind == K_HELP || kind == K_VERSION)))
            r = set_str(in, act, action_attrs[i],
                        i == 4           ? SUPPRESS
                        : kind == K_HELP ? "show this help message and exit"
                                         : "show program's version number and exit");
        else
            r = set(in, act, action_attrs[i], vals[i]);
    }
    if (r == 0 && kind == K_VERSION) r = set(in, act, "version", kw[A_VERSION]);

    /* CPython's checks of the new action */
    struct act check;
    if (r == 0) r = load_act(in, act, &check);
    if (r == 0 && (kind == K_STORE || kind == K_APPEND) && kw[A_CONST].kind != DSL_NONE &&
        !(cstr(kw[A_NARGS]) && strcmp(cstr(kw[A_NARGS]), "?") == 0))
        r = dsl_raise(in, "ValueError", "nargs must be '?' to supply const");
    if (r == 0 && (kind == K_STORE || kind == K_APPEND)) {
        struct render_buf t;
        render_buf_init(&t, 4096);
        r = check.opts->len ? format_option_args(in, &t, &check)
                            : format_args(in, &t, &check, check.dest);
        render_buf_free(&t);
    }

    /* an option string another argument has is CPython's ArgumentError */
    struct dsl_value list = get(a->self, "_actions");
    if (r == 0 && list.kind != DSL_LIST)
        r = dsl_raise(in, "TypeError", "an ArgumentParser's _actions must be a list");
    if (r == 0) {
        struct render_buf clash;
        render_buf_init(&clash, 4096);
        size_t nclash = 0;
        for (size_t k = 0; k < check.opts->len; k++)
            for (size_t i = 0; i < list.as.l->len; i++) {
                struct dsl_value o = get(list.as.l->items[i], "option_strings");
                bool dup = false;
                for (size_t j = 0; o.kind == DSL_LIST && j < o.as.l->len && !dup; j++)
                    dup = cstr(o.as.l->items[j]) &&
                          strcmp(cstr(o.as.l->items[j]), opt_at(&check, k)) == 0;
                if (!dup) continue;
                render_buf_printf(&clash, "%s%s", nclash++ ? ", " : "", opt_at(&check, k));
                break;
            }
        if (nclash) {
            struct render_buf name;
            render_buf_init(&name, 4096);
            act_name(&name, &check);
            r = dsl_raise(in, "ArgumentError", "argument %s: conflicting option string%s: %s",
                          render_buf_str(&name), nclash > 1 ? "s" : "", render_buf_str(&clash));
            render_buf_free(&name);
        }
        render_buf_free(&clash);
    }
    if (r == 0) {
        int st = dsl_list_push(list.as.l, dsl_value_retain(act));
        if (st != DSL_V_OK) r = dsl_raise_status(in, st);
    }
    dsl_value_release(opts);
    dsl_value_release(dest);
    if (r != 0) {
        dsl_value_release(act);
        return -1;
    }
    *ret = act;
    return 0;
}

/* self.add_argument("-h", "--help", action="help"), as CPython's parser adds it. */
static int add_help(struct dsl_interp *in, struct dsl_value self)
{
    struct dsl_value flags[2] = {dsl_none(), dsl_none()}, action = dsl_none();
    struct dsl_value bound = dsl_none(), made = dsl_none();
    char *kwnames[1] = {"action"};
    int r = new_str(in, "-h", &flags[0]);
    if (r == 0) r = new_str(in, "--help", &flags[1]);
    if (r == 0) r = new_str(in, "help", &action);
    if (r == 0) r = dsl_getattr(in, self, "add_argument", &bound);
    if (r == 0) r = dsl_call(in, bound, flags, 2, kwnames, &action, 1, &made);
    dsl_value_release(flags[0]);
    dsl_value_release(flags[1]);
    dsl_value_release(action);
    dsl_value_release(bound);
    dsl_value_release(made);
    return r;
}

/* ArgumentParser(prog=None, usage=None, description=None, epilog=None, ...). */
static int p_init(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    enum {
        PROG_,
        USAGE,
        DESCRIPTION,
        EPILOG,
        PARENTS,
        FORMATTER,
        PREFIX,
        FROMFILE,
        ARGDEFAULT,
        CONFLICT,
        ADD_HELP,
        ALLOW_ABBREV,
        EXIT_ON_ERROR,
        NPARAMS
    };
    static const char *const names[NPARAMS] = {"prog",
                                               "usage",
                                               "description",
                                               "epilog",
                                               "parents",
                                               "formatter_class",
                                               "prefix_chars",
                                               "fromfile_prefix_chars",
                                               "argument_default",
                                               "conflict_handler",
                                               "add_help",
                                               "allow_abbrev",
                                               "exit_on_error"};
    struct dsl_value v[NPARAMS];
    bool given[NPARAMS];
    if (bind(in, "ArgumentParser.__init__", names, NPARAMS, a, v, given) != 0) return -1;
    const char *prefix = cstr(v[PREFIX]), *conflict = cstr(v[CONFLICT]);
    bool unsupported[NPARAMS] = {
        [PARENTS] = given[PARENTS] && !(v[PARENTS].kind == DSL_LIST && v[PARENTS].as.l->len == 0),
        [FORMATTER] = given[FORMATTER],
        [PREFIX] = given[PREFIX] && !(prefix && strcmp(prefix, "-") == 0),
        [FROMFILE] = given[FROMFILE] && v[FROMFILE].kind != DSL_NONE,
        [CONFLICT] = given[CONFLICT] && !(conflict && strcmp(conflict, "error") == 0),
        [EXIT_ON_ERROR] = given[EXIT_ON_ERROR] && !dsl_value_truthy(v[EXIT_ON_ERROR]),
    };
    for (int i = 0; i < NPARAMS; i++)
        if (unsupported[i])
            return dsl_raise(in, "NotImplementedError",
                             "ArgumentParser(%s=...) is not supported in the MiniTorch language",
                             names[i]);
    struct dsl_value self = a->self;
    int r = given[PROG_] && v[PROG_].kind != DSL_NONE ? set(in, self, "prog", v[PROG_])
                                                      : set_str(in, self, "prog", PROG);
    if (r == 0) r = set(in, self, "usage", v[USAGE]);
    if (r == 0) r = set(in, self, "description", v[DESCRIPTION]);
    if (r == 0) r = set(in, self, "epilog", v[EPILOG]);
    if (r == 0) r = set(in, self, "argument_default", v[ARGDEFAULT]);
    if (r == 0) r = set(in, self, "add_help", given[ADD_HELP] ? v[ADD_HELP] : dsl_bool(true));
    if (r == 0)
        r = set(in, self, "allow_abbrev", given[ALLOW_ABBREV] ? v[ALLOW_ABBREV] : dsl_bool(true));
    struct dsl_list *l = r == 0 ? dsl_list_new(0) : NULL;
    struct dsl_dict *d = r == 0 ? dsl_dict_new() : NULL;
    if (r == 0 && (!l || !d)) r = dsl_raise_status(in, DSL_V_NOMEM);
    struct dsl_value lv = l ? (struct dsl_value){.kind = DSL_LIST, .as.l = l} : dsl_none();
    struct dsl_value dv = d ? dsl_dict_value(d) : dsl_none();
    if (r == 0) r = set(in, self, "_actions", lv);
    if (r == 0) r = set(in, self, "_defaults", dv);
    dsl_value_release(lv);
    dsl_value_release(dv);
    if (r == 0 && (!given[ADD_HELP] || dsl_value_truthy(v[ADD_HELP]))) r = add_help(in, self);
    return r == 0 ? ret_none(ret) : -1;
}

static const char *const parse_params[] = {"args", "namespace", NULL};
static const char *const file_params[] = {"file", NULL};
static const char *const message_params[] = {"message", NULL};
static const char *const exit_params[] = {"status", "message", NULL};
static const char *const dest_params[] = {"dest", NULL};

static const struct dsl_builtin parser_rows[] = {
    {"__init__",
     "ArgumentParser(prog=None, usage=None, description=None, epilog=None, argument_default=None, "
     "add_help=True, allow_abbrev=True)",
     0, -1, dsl_any_keywords, p_init,
     "A parser of command-line arguments; a cell has none, so parse_args() gives the defaults "
     "and parse_args([\"--lr\", \"0.1\"]) parses the list."},
    {"add_argument",
     "add_argument(*name_or_flags, action='store', nargs=None, const=None, default=None, "
     "type=None, choices=None, required=False, help=None, metavar=None, dest=None)",
     0, -1, dsl_any_keywords, p_add_argument,
     "Adds a positional argument (\"name\") or an option (\"-n\", \"--name\"); action is store, "
     "store_const, store_true, store_false, append, append_const, count, help or version. "
     "Returns the action."},
    {"parse_args", "parse_args(args=None, namespace=None)", 0, 2, parse_params, p_parse_args,
     "A Namespace of the arguments in the list args (none: an empty command line, as a cell "
     "has): each argument's value, or its default."},
    {"parse_known_args", "parse_known_args(args=None, namespace=None)", 0, 2, parse_params,
     p_parse_known_args, "(namespace, the strings no argument took)."},
    {"format_help", "format_help()", 0, 0, NULL, p_format_help, "The help text, as -h prints it."},
    {"format_usage", "format_usage()", 0, 0, NULL, p_format_usage, "The usage line."},
    {"print_help", "print_help(file=None)", 0, 1, file_params, p_print_help,
     "Prints the help text."},
    {"print_usage", "print_usage(file=None)", 0, 1, file_params, p_print_usage,
     "Prints the usage line."},
    {"error", "error(message)", 1, 1, message_params, p_error,
     "Prints the usage and \"PROG: error: message\" to stderr and raises SystemExit(2)."},
    {"exit", "exit(status=0, message=None)", 0, 2, exit_params, p_exit,
     "Prints message to stderr and raises SystemExit(status)."},
    {"set_defaults", "set_defaults(**kwargs)", 0, 0, dsl_any_keywords, p_set_defaults,
     "Defaults by dest, for arguments and for attributes no argument sets."},
    {"get_default", "get_default(dest)", 1, 1, dest_params, p_get_default, "The default of dest."},
    {"__repr__", "__repr__()", 0, 0, NULL, p_repr, "CPython's repr of a parser."},
    {NULL, NULL, 0, 0, NULL, NULL, NULL},
};

static struct dsl_class *parser_class(void)
{
    return dsl_library_class("ArgumentParser",
                             "argparse.ArgumentParser: add_argument(...) for each argument, then "
                             "parse_args() for a Namespace of their values.",
                             dsl_none(), parser_rows);
}

/* ---- the module -------------------------------------------------------------------------- */

static int v_parser(struct dsl_interp *in, struct dsl_value *out)
{
    (void)in;
    *out = class_value(parser_class());
    return 0;
}

static int v_namespace(struct dsl_interp *in, struct dsl_value *out)
{
    (void)in;
    *out = class_value(namespace_class());
    return 0;
}

static int v_suppress(struct dsl_interp *in, struct dsl_value *out)
{
    return new_str(in, SUPPRESS, out);
}

static const struct member argparse_members[] = {
    VALUE("ArgumentParser", "argparse.ArgumentParser(prog=None, description=None, ...)", v_parser,
          "A parser of command-line arguments: add_argument(...), then parse_args()."),
    VALUE("Namespace", "argparse.Namespace(**kwargs)", v_namespace,
          "What parse_args returns: one attribute per argument."),
    VALUE("SUPPRESS", "argparse.SUPPRESS", v_suppress,
          "'==SUPPRESS==': as a help, leaves the argument out of the help; as a default, sets no "
          "attribute."),
};

const struct module mod_argparse = {
    .cls = MODULE_CLASS("module: Python's argparse (ArgumentParser, Namespace). A cell has no "
                        "command line: parse_args() gives every default, parse_args([...]) "
                        "parses a list."),
    .name = "argparse",
    .members = MEMBERS(argparse_members),
};
