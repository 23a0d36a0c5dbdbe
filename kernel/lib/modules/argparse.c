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
 * positionals given after an option.
 *
 * This file holds the module's table, the classes of the parser and its actions, the reading
 * back of a parser's arguments that every method starts from, and the parser's methods other
 * than add_argument and parsing; argparse.h names the files that hold the rest. */
#include "lib/modules/argparse.h"

#include "lang/dict.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- small helpers ------------------------------------------------------------------------ */

int ap_buf_value(struct dsl_interp *in, struct render_buf *b, struct dsl_value *out)
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
const char *ap_repr_of(const char *s, char *buf, size_t cap)
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
void ap_type_name(struct render_buf *b, struct dsl_value t)
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

const char *const ap_kind_class[K_KINDS] = {
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

struct dsl_class *ap_action_class(enum kind k)
{
    return dsl_library_class(ap_kind_class[k],
                             "An argument of an ArgumentParser, as add_argument returns it: "
                             "option_strings, dest, nargs, const, default, type, choices, "
                             "required, help, metavar.",
                             dsl_none(), action_rows[k]);
}

static int kind_of(struct dsl_value v)
{
    if (v.kind != DSL_INSTANCE) return -1;
    for (int k = 0; k < K_KINDS; k++)
        if (v.as.inst->cls.as.cls == ap_action_class((enum kind)k)) return k;
    return -1;
}

/* The attributes of an action, in CPython's order (its repr shows them so). */
const char *const ap_action_attrs[NATTRS] = {"option_strings", "dest",   "nargs",   "const",
                                             "default",        "type",   "choices", "required",
                                             "help",           "metavar"};

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
    render_buf_printf(&b, "%s(", k < 0 ? "Action" : ap_kind_class[k]);
    if (attrs_text(in, &b, a->self, ap_action_attrs, NATTRS) != 0) {
        render_buf_free(&b);
        return -1;
    }
    render_buf_putc(&b, ')');
    return ap_buf_value(in, &b, ret);
}

/* ---- the parser's arguments, read back from its attributes ------------------------------ */

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

int ap_load_act(struct dsl_interp *in, struct dsl_value v, struct act *a)
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

void ap_parser_done(struct parser *p) { free(p->acts); }

int ap_load_parser(struct dsl_interp *in, struct dsl_value self, struct parser *p)
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
        if (ap_load_act(in, list.as.l->items[i], &p->acts[i]) != 0) {
            ap_parser_done(p);
            return -1;
        }
    return 0;
}

/* What errors call an argument: its option strings joined by '/', else its metavar or dest. */
void ap_act_name(struct render_buf *b, const struct act *a)
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

/* ---- ArgumentParser ------------------------------------------------------------------------- */

static int ret_none(struct dsl_value *ret)
{
    *ret = dsl_none();
    return 0;
}

/* format_help, format_usage (what = 0, 1), and print_help, print_usage (2, 3) to stdout. */
static int text_method(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret,
                       int what)
{
    if (what >= 2 && a->has[0] && a->slot[0].kind != DSL_NONE)
        return dsl_raise(in, "NotImplementedError",
                         "argparse here prints to the cell's output only: leave out file=");
    struct parser p;
    if (ap_load_parser(in, a->self, &p) != 0) return -1;
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_REPR_BYTES);
    int r = what % 2 == 0 ? ap_format_help(in, &b, &p) : ap_format_usage(in, &b, &p);
    ap_parser_done(&p);
    if (r != 0) {
        render_buf_free(&b);
        return -1;
    }
    if (what < 2) return ap_buf_value(in, &b, ret);
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
    if (ap_load_parser(in, a->self, &p) != 0) return -1;
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_REPR_BYTES);
    int r = dsl_str_of(in, &b, a->slot[0]);
    if (r == 0) r = ap_parse_error(in, &p, render_buf_str(&b));
    render_buf_free(&b);
    ap_parser_done(&p);
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
    return ap_buf_value(in, &b, ret);
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
     0, -1, dsl_any_keywords, ap_add_argument,
     "Adds a positional argument (\"name\") or an option (\"-n\", \"--name\"); action is store, "
     "store_const, store_true, store_false, append, append_const, count, help or version. "
     "Returns the action."},
    {"parse_args", "parse_args(args=None, namespace=None)", 0, 2, parse_params, ap_parse_args,
     "A Namespace of the arguments in the list args (none: an empty command line, as a cell "
     "has): each argument's value, or its default."},
    {"parse_known_args", "parse_known_args(args=None, namespace=None)", 0, 2, parse_params,
     ap_parse_known_args, "(namespace, the strings no argument took)."},
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
    *out = class_value(ap_namespace_class());
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
