/* argparse_add.c — ArgumentParser.add_argument: the keywords it was given bound and checked
 * against the kind of action they ask for, the option strings and dest, the default, and the
 * new action made, its attributes in CPython's order, and appended to the parser's _actions.
 * Apart from the rest of the parser because this is where actions are made, with CPython
 * 3.11's checks and errors for each thing a call can get wrong; parsing and help only read the
 * actions back (ap_load_act). */
#include "lib/modules/argparse.h"

#include "lang/dict.h"

#include <stdlib.h>
#include <string.h>

/* The name action= gives each kind of action. */
static const char *const kind_action[K_KINDS] = {
    "store",        "store_const", "store_true", "store_false", "append",
    "append_const", "count",       "help",       "version",
};

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
                             ap_repr_of(s, rs, sizeof rs));
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
                         ap_repr_of(from, rs, sizeof rs));
    char *d = strdup(name);
    if (!d) return dsl_raise_status(in, DSL_V_NOMEM);
    for (char *c = d; *c; c++)
        if (*c == '-') *c = '_';
    int r = new_str(in, d, dest);
    free(d);
    return r;
}

/* What an add_argument call was given, as its steps work it out. */
struct added {
    struct dsl_value kw[A_COUNT]; /* the keywords, borrowed; none where not given */
    bool given[A_COUNT];
    int kind;                    /* enum kind */
    struct dsl_value opts, dest; /* option_strings and dest, owned */
    struct dsl_value deflt;      /* borrowed */
    bool required;
};

/* The call's keywords into x->kw and x->given. One add_argument does not know is the
 * TypeError of the class of the action asked for, as CPython passes it on to that class. */
static int bind_keywords(struct dsl_interp *in, const struct dsl_args *a, struct added *x)
{
    for (int i = 0; i < A_COUNT; i++) x->kw[i] = dsl_none(), x->given[i] = false;
    for (size_t k = 0; k < a->nkw; k++) {
        int i = 0;
        while (i < A_COUNT && strcmp(add_names[i], a->kwnames[k]) != 0) i++;
        if (i == A_COUNT) {
            const char *action = cstr(x->kw[A_ACTION]);
            int kind = K_STORE;
            for (size_t j = 0; j < a->nkw; j++)
                if (strcmp(a->kwnames[j], "action") == 0 && cstr(a->kwvals[j]))
                    action = cstr(a->kwvals[j]);
            for (int j = 0; action && j < K_KINDS; j++)
                if (strcmp(kind_action[j], action) == 0) kind = j;
            return dsl_raise(in, "TypeError",
                             "%s.__init__() got an unexpected keyword argument '%s'",
                             ap_kind_class[kind], a->kwnames[k]);
        }
        x->kw[i] = a->kwvals[k];
        x->given[i] = true;
    }
    return 0;
}

/* x->kind, the kind action= names (store when not given), and CPython's TypeError for a
 * keyword that kind does not take. */
static int kind_given(struct dsl_interp *in, struct added *x)
{
    int kind = K_STORE;
    if (x->given[A_ACTION] && x->kw[A_ACTION].kind != DSL_NONE) {
        const char *name = cstr(x->kw[A_ACTION]);
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
        if (x->given[i] && !(kind_takes[kind] & BIT(i)))
            return dsl_raise(in, "TypeError",
                             "%s.__init__() got an unexpected keyword argument '%s'",
                             ap_kind_class[kind], add_names[i]);
    if (x->given[A_VERSION] && kind != K_VERSION)
        return dsl_raise(in, "TypeError",
                         "%s.__init__() got an unexpected keyword argument 'version'",
                         ap_kind_class[kind]);
    x->kind = kind;
    return 0;
}

/* A positional's dest (its name, or dest= where it has none) and its empty option strings, as
 * CPython's _get_positional_kwargs makes them; whether it is required follows from nargs. */
static int positional_names(struct dsl_interp *in, const struct dsl_args *a, struct added *x)
{
    const char *nargs = cstr(x->kw[A_NARGS]);
    if (a->nrest && x->given[A_DEST])
        return dsl_raise(in, "ValueError", "dest supplied twice for positional argument");
    if (!a->nrest && !x->given[A_DEST])
        return dsl_raise(in, "TypeError",
                         "_get_positional_kwargs() missing 1 required "
                         "positional argument: 'dest'");
    if (x->given[A_REQUIRED])
        return dsl_raise(in, "TypeError", "'required' is an invalid argument for positionals");
    bool opt_or_star = nargs && (strcmp(nargs, "?") == 0 || strcmp(nargs, "*") == 0);
    x->required = !opt_or_star || (strcmp(nargs, "*") == 0 && !x->given[A_DEFAULT]);
    struct dsl_list *l = dsl_list_new(0);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    x->opts = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    x->dest = dsl_value_retain(a->nrest ? a->rest[0] : x->kw[A_DEST]);
    if (!cstr(x->dest))
        return dsl_raise(in, "TypeError", "dest must be a str, not %s", dsl_type_name(x->dest));
    return 0;
}

/* x->deflt for an argument given no default=: the parser's for its dest (set_defaults), else
 * the parser's argument_default, else the kind's own (store_true's False, store_false's True),
 * else none. help and version get SUPPRESS when their attributes are set (make_action). */
static int default_of(struct dsl_interp *in, struct dsl_value self, struct added *x)
{
    struct dsl_value defaults = get(self, "_defaults"), *slot = NULL;
    int r = 0;
    if (defaults.kind == DSL_DICT) r = dsl_dict_lookup(in, defaults.as.d, x->dest, &slot);
    if (slot)
        x->deflt = *slot;
    else if (get(self, "argument_default").kind != DSL_NONE)
        x->deflt = get(self, "argument_default");
    else if (x->kind == K_STORE_TRUE)
        x->deflt = dsl_bool(false);
    else if (x->kind == K_STORE_FALSE)
        x->deflt = dsl_bool(true);
    else if (x->kind == K_HELP || x->kind == K_VERSION)
        x->deflt = dsl_none();
    return r;
}

/* type= is something to call (or None, no type): else CPython's ValueError. */
static int check_type(struct dsl_interp *in, struct dsl_value type)
{
    if (type.kind == DSL_NONE || is_callable(type)) return 0;
    struct render_buf t;
    render_buf_init(&t, 4096);
    dsl_value_repr(&t, type);
    int r = dsl_raise(in, "ValueError", "%s is not callable", render_buf_str(&t));
    render_buf_free(&t);
    return r;
}

/* The new action of x's kind into *act, its attributes set in CPython's order: nargs 0 and
 * const True or False where the kind fixes them; a help or version action given no default
 * or help gets SUPPRESS and its own help. */
static int make_action(struct dsl_interp *in, const struct added *x, struct dsl_value *act)
{
    int kind = x->kind;
    int r = dsl_class_call(in, class_value(ap_action_class((enum kind)kind)), NULL, 0, NULL, NULL,
                           0, act);
    struct dsl_value vals[NATTRS];
    vals[0] = x->opts;
    vals[1] = x->dest;
    vals[2] = kind == K_STORE || kind == K_APPEND ? x->kw[A_NARGS] : dsl_int(0);
    vals[3] = kind == K_STORE_TRUE    ? dsl_bool(true)
              : kind == K_STORE_FALSE ? dsl_bool(false)
                                      : x->kw[A_CONST];
    vals[4] = x->deflt;
    vals[5] = x->kw[A_TYPE];
    vals[6] = x->kw[A_CHOICES];
    vals[7] = dsl_bool(x->required);
    vals[8] = x->kw[A_HELP];
    vals[9] = x->kw[A_METAVAR];
    if (!x->given[A_HELP] && kind == K_HELP) vals[8] = dsl_none();
    for (size_t i = 0; i < NATTRS && r == 0; i++) {
        if ((i == 4 && (kind == K_HELP || kind == K_VERSION) && !x->given[A_DEFAULT]) ||
            (i == 8 && !x->given[A_HELP] && (kind == K_HELP || kind == K_VERSION)))
            r = set_str(in, *act, ap_action_attrs[i],
                        i == 4           ? SUPPRESS
                        : kind == K_HELP ? "show this help message and exit"
                                         : "show program's version number and exit");
        else
            r = set(in, *act, ap_action_attrs[i], vals[i]);
    }
    if (r == 0 && kind == K_VERSION) r = set(in, *act, "version", x->kw[A_VERSION]);
    return r;
}

/* CPython's checks of the new action, read back into *check: const only with nargs='?', and
 * values help can show (a metavar tuple as long as nargs). */
static int check_action(struct dsl_interp *in, const struct added *x, struct dsl_value act,
                        struct act *check)
{
    int r = ap_load_act(in, act, check);
    bool stores = x->kind == K_STORE || x->kind == K_APPEND;
    if (r == 0 && stores && x->kw[A_CONST].kind != DSL_NONE &&
        !(cstr(x->kw[A_NARGS]) && strcmp(cstr(x->kw[A_NARGS]), "?") == 0))
        r = dsl_raise(in, "ValueError", "nargs must be '?' to supply const");
    if (r == 0 && stores) {
        struct render_buf t;
        render_buf_init(&t, 4096);
        r = check->opts->len ? ap_format_option_args(in, &t, check)
                             : ap_format_args(in, &t, check, check->dest);
        render_buf_free(&t);
    }
    return r;
}

/* An option string of check that an argument of the list already has is CPython's
 * ArgumentError (its conflict_handler 'error'), naming each one. */
static int check_conflicts(struct dsl_interp *in, const struct dsl_list *list,
                           const struct act *check)
{
    struct render_buf clash;
    render_buf_init(&clash, 4096);
    size_t nclash = 0;
    for (size_t k = 0; k < check->opts->len; k++)
        for (size_t i = 0; i < list->len; i++) {
            struct dsl_value o = get(list->items[i], "option_strings");
            bool dup = false;
            for (size_t j = 0; o.kind == DSL_LIST && j < o.as.l->len && !dup; j++)
                dup =
                    cstr(o.as.l->items[j]) && strcmp(cstr(o.as.l->items[j]), opt_at(check, k)) == 0;
            if (!dup) continue;
            render_buf_printf(&clash, "%s%s", nclash++ ? ", " : "", opt_at(check, k));
            break;
        }
    int r = 0;
    if (nclash) {
        struct render_buf name;
        render_buf_init(&name, 4096);
        ap_act_name(&name, check);
        r = dsl_raise(in, "ArgumentError", "argument %s: conflicting option string%s: %s",
                      render_buf_str(&name), nclash > 1 ? "s" : "", render_buf_str(&clash));
        render_buf_free(&name);
    }
    render_buf_free(&clash);
    return r;
}

/* act appended to the parser's _actions, once no other argument has its option strings. */
static int append_action(struct dsl_interp *in, struct dsl_value self, struct dsl_value act,
                         const struct act *check)
{
    struct dsl_value list = get(self, "_actions");
    if (list.kind != DSL_LIST)
        return dsl_raise(in, "TypeError", "an ArgumentParser's _actions must be a list");
    if (check_conflicts(in, list.as.l, check) != 0) return -1;
    int st = dsl_list_push(list.as.l, dsl_value_retain(act));
    return st != DSL_V_OK ? dsl_raise_status(in, st) : 0;
}

/* add_argument(*name_or_flags, action=, nargs=, const=, default=, type=, choices=, required=,
 * help=, metavar=, dest=, version=): the new action, with CPython's checks, each step in
 * CPython's order so that a call with several faults gets CPython's error. */
int ap_add_argument(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct added x;
    if (bind_keywords(in, a, &x) != 0 || kind_given(in, &x) != 0) return -1;
    bool positional =
        a->nrest == 0 || (a->nrest == 1 && cstr(a->rest[0]) && cstr(a->rest[0])[0] != '-');
    x.opts = x.dest = dsl_none();
    x.required = dsl_value_truthy(x.kw[A_REQUIRED]);
    int r = positional ? positional_names(in, a, &x)
                       : option_strings(in, a, x.kw[A_DEST], &x.opts, &x.dest);
    x.deflt = x.kw[A_DEFAULT];
    if (r == 0 && !x.given[A_DEFAULT]) r = default_of(in, a->self, &x);
    if (r == 0) r = check_type(in, x.kw[A_TYPE]);
    struct dsl_value act = dsl_none();
    struct act check;
    if (r == 0) r = make_action(in, &x, &act);
    if (r == 0) r = check_action(in, &x, act, &check);
    if (r == 0) r = append_action(in, a->self, act, &check);
    dsl_value_release(x.opts);
    dsl_value_release(x.dest);
    if (r != 0) {
        dsl_value_release(act);
        return -1;
    }
    *ret = act;
    return 0;
}
