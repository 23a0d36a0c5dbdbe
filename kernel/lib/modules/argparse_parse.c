/* argparse_parse.c — parse_args and parse_known_args: a command line (a list of strings; none
 * in a cell) matched to a parser's arguments as CPython 3.11 matches it, each argument's action
 * taken into the namespace, and the errors in the arguments written as CPython writes them
 * (the usage, "PROG: error: ...", SystemExit(2)). The parser is read back from its attributes
 * first (argparse.h), so parsing sees whatever a program changed in _actions or _defaults. */
#include "lib/modules/argparse.h"

#include "lang/dict.h"
#include "lang/exceptions.h"
#include "lang/operators.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors ----------------------------------------------------------------------------- */

/* SystemExit(code), as sys.exit raises it: the cell ends there. */
static int exit_with(struct dsl_interp *in, int code)
{
    return dsl_raise(in, "SystemExit", "%d", code);
}

/* parser.error(message): the usage and "PROG: error: message" on stderr, then SystemExit(2). */
int ap_parse_error(struct dsl_interp *in, const struct parser *p, const char *msg)
{
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_REPR_BYTES);
    if (ap_format_usage(in, &b, p) != 0) {
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
    ap_act_name(&b, a);
    render_buf_puts(&b, ": ");
    va_list ap;
    va_start(ap, fmt);
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    render_buf_puts(&b, msg);
    int r = buf_check(in, &b);
    if (r == 0) r = ap_parse_error(in, p, render_buf_str(&b));
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
    ap_type_name(&name, a->type);
    char rs[512];
    r = arg_error(in, p, a, "invalid %s value: %s", render_buf_str(&name),
                  ap_repr_of(s, rs, sizeof rs));
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
    dsl_iter_end(&it);
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
    int r = ap_format_help(in, &b, p);
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
        r = ap_expand(in, &t, version ? version : "", a, p->prog);
        if (r == 0) ap_wrap(&w, render_buf_str(&t), WIDTH, 0, 0);
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
        return ap_parse_error(in, p, msg);
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
                                     ap_repr_of(hit.explicit, rs, sizeof rs));
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
                                 ap_repr_of(hit.explicit, rs, sizeof rs));
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
            ap_act_name(&missing, a);
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
        r = ap_parse_error(in, p, msg);
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

/* ---- parse_args, parse_known_args --------------------------------------------------------- */

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
    if (ap_load_parser(in, a->self, &p) != 0) return -1;
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
        r = dsl_class_call(in, class_value(ap_namespace_class()), NULL, 0, NULL, NULL, 0, &ns);
    }
    if (r == 0) r = parse_known(in, &p, argv, argc, ns, &extras);
    if (r == 0 && !known && extras.as.l->len) {
        struct render_buf b;
        render_buf_init(&b, DSL_MAX_REPR_BYTES);
        render_buf_puts(&b, "unrecognized arguments:");
        for (size_t i = 0; i < extras.as.l->len; i++)
            render_buf_printf(&b, " %s", extras.as.l->items[i].as.s->data);
        r = buf_check(in, &b);
        if (r == 0) r = ap_parse_error(in, &p, render_buf_str(&b));
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
    ap_parser_done(&p);
    return r;
}

int ap_parse_args(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return parse_common(in, a, false, ret);
}

int ap_parse_known_args(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return parse_common(in, a, true, ret);
}
