/* argparse.h — what the files of the argparse module share (internal to lib/modules/, as
 * module.h is): the kinds of action, a parser and its arguments as they are read back from its
 * attributes, the small helpers every file uses, and the functions one file calls in another.
 *
 * The module is split where its parts meet only through these: argparse.c (the module, the
 * ArgumentParser and action classes, reading a parser's arguments back), argparse_add.c
 * (add_argument, where actions are made), argparse_parse.c (parsing a command line),
 * argparse_help.c (help and usage text) and argparse_namespace.c (Namespace). A parser keeps
 * its arguments in attributes a program may read and change (_actions, _defaults), so each
 * method reads them back into a struct parser (ap_load_parser) rather than keep state of its
 * own; that struct is what the parts hand each other. The small helpers are static inline;
 * the rest are prefixed ap_, since they link with the whole kernel. */
#ifndef KERNEL_LIB_MODULES_ARGPARSE_H
#define KERNEL_LIB_MODULES_ARGPARSE_H

#include "lib/modules/module.h"

#include "lang/classes.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#define SUPPRESS "==SUPPRESS=="
#define PROG "minitorch-kernel"
#define WIDTH 78 /* CPython's: the terminal's columns, 80 where there is none, less 2 */
#define MAX_HELP_POSITION 24
#define MANY INT_MAX /* the most values nargs '*' and '+' take */

/* ---- small helpers ------------------------------------------------------------------------ */

/* inst.name, borrowed; none when unset. */
static inline struct dsl_value get(struct dsl_value inst, const char *name)
{
    struct dsl_value *slot =
        inst.kind == DSL_INSTANCE ? dsl_attrs_find(&inst.as.inst->attrs, name) : NULL;
    return slot ? *slot : dsl_none();
}

static inline bool has(struct dsl_value inst, const char *name)
{
    return inst.kind == DSL_INSTANCE && dsl_attrs_find(&inst.as.inst->attrs, name);
}

static inline const char *cstr(struct dsl_value v)
{
    return v.kind == DSL_STR ? v.as.s->data : NULL;
}

static inline bool is_suppress(struct dsl_value v)
{
    return v.kind == DSL_STR && strcmp(v.as.s->data, SUPPRESS) == 0;
}

static inline int set(struct dsl_interp *in, struct dsl_value inst, const char *name,
                      struct dsl_value v)
{
    return dsl_object_setattr(in, inst, name, v);
}

static inline int new_str(struct dsl_interp *in, const char *s, struct dsl_value *out)
{
    int st = dsl_str_value(s, strlen(s), out);
    return st ? dsl_raise_status(in, st) : 0;
}

static inline int set_str(struct dsl_interp *in, struct dsl_value inst, const char *name,
                          const char *s)
{
    struct dsl_value v;
    if (new_str(in, s, &v) != 0) return -1;
    int r = set(in, inst, name, v);
    dsl_value_release(v);
    return r;
}

/* A text the caller frees with render_buf_free, its memory status raised when it failed. */
static inline int buf_check(struct dsl_interp *in, struct render_buf *b)
{
    return b->nomem  ? dsl_raise_status(in, DSL_V_NOMEM)
           : b->over ? dsl_raise_status(in, DSL_V_TOOBIG)
                     : 0;
}

static inline struct dsl_value class_value(struct dsl_class *c)
{
    return (struct dsl_value){.kind = DSL_CLASS, .as.cls = c};
}

/* b's text as a new str value into *out, b freed: 0, or -1 after raising. */
int ap_buf_value(struct dsl_interp *in, struct render_buf *b, struct dsl_value *out);
/* repr(s) of a C string, into a fixed buffer (a message's piece). */
const char *ap_repr_of(const char *s, char *buf, size_t cap);
/* The name a type is called in "invalid NAME value": a class's or a function's __name__. */
void ap_type_name(struct render_buf *b, struct dsl_value t);

/* ---- the classes (argparse.c, argparse_namespace.c) --------------------------------------- */

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
/* The class of each kind of action, by CPython's name (_StoreAction, ...). */
extern const char *const ap_kind_class[K_KINDS];
struct dsl_class *ap_action_class(enum kind k);

/* The attributes of an action, in CPython's order (its repr shows them so). */
#define NATTRS 10
extern const char *const ap_action_attrs[NATTRS];

/* argparse.Namespace, what parse_args returns (argparse_namespace.c). */
struct dsl_class *ap_namespace_class(void);

/* ---- the parser's arguments, read back from its attributes (argparse.c) ------------------- */

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

static inline const char *opt_at(const struct act *a, size_t i)
{
    return a->opts->items[i].as.s->data;
}

/* The action v read back into *a: 0, or -1 after raising (v is no action, or an attribute
 * argparse has no meaning for). */
int ap_load_act(struct dsl_interp *in, struct dsl_value v, struct act *a);
/* The parser self and its actions into *p, which ap_parser_done frees: 0, or -1 after
 * raising. */
int ap_load_parser(struct dsl_interp *in, struct dsl_value self, struct parser *p);
void ap_parser_done(struct parser *p);
/* What errors call an argument: its option strings joined by '/', else its metavar or dest. */
void ap_act_name(struct render_buf *b, const struct act *a);

/* ---- help and usage text (argparse_help.c) ------------------------------------------------ */

/* Appends text's lines as textwrap.wrap makes them of at most `width` columns, the first
 * started by `first` spaces, the others by `rest`, each ended by '\n'. */
void ap_wrap(struct render_buf *b, const char *text, size_t width, size_t first, size_t rest);
/* `text % params`, as help strings and usage are expanded: the names are a's attributes (a
 * may be NULL) and prog. 0, or -1 after CPython's error. */
int ap_expand(struct dsl_interp *in, struct render_buf *b, const char *text, const struct act *a,
              const char *prog);
/* How the values of a show in usage and help (X, [X], [X ...], X [X ...], X X), dflt their
 * name where a has no metavar or choices. */
int ap_format_args(struct dsl_interp *in, struct render_buf *b, const struct act *a,
                   const char *dflt);
/* The same for an option, named by its dest upper-cased. */
int ap_format_option_args(struct dsl_interp *in, struct render_buf *b, const struct act *a);
/* "usage: PROG [-h] ...\n", wrapped past WIDTH. */
int ap_format_usage(struct dsl_interp *in, struct render_buf *b, const struct parser *p);
/* The whole help text, as -h prints it. */
int ap_format_help(struct dsl_interp *in, struct render_buf *out, const struct parser *p);

/* ---- parsing a command line (argparse_parse.c) -------------------------------------------- */

/* parser.error(message): the usage and "PROG: error: message" on stderr, then SystemExit(2);
 * returns -1. */
int ap_parse_error(struct dsl_interp *in, const struct parser *p, const char *msg);
/* The methods parse_args(args=None, namespace=None) and parse_known_args. */
int ap_parse_args(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int ap_parse_known_args(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);

/* ---- add_argument (argparse_add.c) -------------------------------------------------------- */

/* The method add_argument(*name_or_flags, action=, ...): the new action. */
int ap_add_argument(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);

#endif
