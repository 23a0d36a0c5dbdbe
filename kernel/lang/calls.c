/* calls.c — how a call's arguments reach a user function, as CPython binds them: positional
 * parameters, *args, keyword-only parameters, **kwargs and defaults, with CPython's messages;
 * and the calls that unpack arguments at the call site (f(*xs, **d)). */
#include "lang/dict.h"
#include "lang/interp.h"

#include <stdlib.h>
#include <string.h>

/* What errors call f: "Linear.__init__" for a method, as CPython's qualified names. */
static const char *fn_name(const struct dsl_function *f)
{
    return f->qualname ? f->qualname : f->def->name;
}

/* Appends 'a'; 'a' and 'b'; 'a', 'b', and 'c' -- CPython's list of missing parameters. */
static void name_list(struct render_buf *b, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (i) render_buf_puts(b, n == 2 ? " and " : i + 1 == n ? ", and " : ", ");
        render_buf_printf(b, "'%s'", names[i]);
    }
}

/* Fills the unbound parameters [from, to) with their defaults; raises CPython's "missing"
 * error naming the others (`what`: "positional" or "keyword-only"). */
static int fill_defaults(struct dsl_interp *in, const struct dsl_function *f, size_t from,
                         size_t to, const char *what, struct dsl_frame *frame)
{
    const struct dsl_node *def = f->def;
    const char *small[8];
    const char **missing = to - from <= 8 ? small : malloc((to - from) * sizeof *missing);
    if (!missing) return dsl_raise_status(in, DSL_V_NOMEM);
    size_t n = 0;
    for (size_t i = from; i < to; i++) {
        if (frame->bound[i]) continue;
        if (def->kwvals[i]) {
            frame->vals[i] = dsl_value_retain(f->defaults[i]);
            frame->bound[i] = true;
        } else {
            missing[n++] = def->kwnames[i];
        }
    }
    int r = 0;
    if (n) {
        struct render_buf names;
        render_buf_init(&names, 4096);
        name_list(&names, missing, n);
        r = dsl_raise(in, "TypeError", "%s() missing %zu required %s argument%s: %s", fn_name(f), n,
                      what, n == 1 ? "" : "s", render_buf_str(&names));
        render_buf_free(&names);
    }
    if (missing != small) free(missing);
    return r;
}

/* CPython's "takes N positional arguments but M were given". */
static int too_many_positional(struct dsl_interp *in, const struct dsl_function *f, size_t npos,
                               size_t kw_from, size_t kw_to, const struct dsl_frame *frame)
{
    const struct dsl_node *def = f->def;
    size_t np = def->nargs, ndef = 0, kwonly = 0;
    for (size_t i = 0; i < np; i++) ndef += def->kwvals[i] != NULL;
    for (size_t i = kw_from; i < kw_to; i++) kwonly += frame->bound[i];
    struct render_buf sig;
    render_buf_init(&sig, 4096);
    if (ndef)
        render_buf_printf(&sig, "from %zu to %zu positional arguments", np - ndef, np);
    else
        render_buf_printf(&sig, "%zu positional argument%s", np, np == 1 ? "" : "s");
    struct render_buf given;
    render_buf_init(&given, 4096);
    if (kwonly)
        render_buf_printf(&given, " positional argument%s (and %zu keyword-only argument%s)",
                          npos == 1 ? "" : "s", kwonly, kwonly == 1 ? "" : "s");
    int r = dsl_raise(in, "TypeError", "%s() takes %s but %zu%s %s given", fn_name(f),
                      render_buf_str(&sig), npos, render_buf_str(&given),
                      npos == 1 && !kwonly ? "was" : "were");
    render_buf_free(&sig);
    render_buf_free(&given);
    return r;
}

int dsl_bind_params(struct dsl_interp *in, const struct dsl_function *f,
                    const struct dsl_value *pos, size_t npos, char *const *kwnames,
                    const struct dsl_value *kwvals, size_t nkw, struct dsl_frame *frame)
{
    const struct dsl_node *def = f->def;
    const size_t np = def->nargs;
    const size_t kw_from = np + (def->star ? 1 : 0), kw_to = def->nkw - (def->dstar ? 1 : 0);
    for (size_t i = 0; i < npos && i < np; i++) {
        frame->vals[i] = dsl_value_retain(pos[i]);
        frame->bound[i] = true;
    }
    if (def->star) { /* the rest of the positional arguments, as a tuple */
        struct dsl_list *rest = dsl_list_new(npos > np ? npos - np : 0);
        if (!rest) return dsl_raise_status(in, DSL_V_NOMEM);
        rest->style = DSL_LIST_TUPLE;
        frame->vals[np] = (struct dsl_value){.kind = DSL_LIST, .as.l = rest};
        frame->bound[np] = true;
        for (size_t i = np; i < npos; i++) {
            int st = dsl_list_push(rest, dsl_value_retain(pos[i]));
            if (st != DSL_V_OK) return dsl_raise_status(in, st);
        }
    }
    struct dsl_dict *extra = NULL;
    if (def->dstar) { /* the keywords no parameter takes, as a dict */
        if (!(extra = dsl_dict_new())) return dsl_raise_status(in, DSL_V_NOMEM);
        frame->vals[def->nkw - 1] = dsl_dict_value(extra);
        frame->bound[def->nkw - 1] = true;
    }
    for (size_t k = 0; k < nkw; k++) {
        size_t i = 0; /* a positional or keyword-only parameter of that name: not *args */
        while (i < kw_to && ((i >= np && i < kw_from) || strcmp(def->kwnames[i], kwnames[k]) != 0))
            i++;
        if (i < kw_to) {
            if (frame->bound[i])
                return dsl_raise(in, "TypeError", "%s() got multiple values for argument '%s'",
                                 fn_name(f), kwnames[k]);
            frame->vals[i] = dsl_value_retain(kwvals[k]);
            frame->bound[i] = true;
            continue;
        }
        if (!extra)
            return dsl_raise(in, "TypeError", "%s() got an unexpected keyword argument '%s'",
                             fn_name(f), kwnames[k]);
        struct dsl_value key;
        if (dsl_str_value(kwnames[k], strlen(kwnames[k]), &key) != DSL_V_OK)
            return dsl_raise_status(in, DSL_V_NOMEM);
        int r = dsl_dict_store(in, extra, key, kwvals[k]);
        dsl_value_release(key);
        if (r != 0) return -1;
    }
    if (npos > np && !def->star) return too_many_positional(in, f, npos, kw_from, kw_to, frame);
    if (fill_defaults(in, f, 0, np, "positional", frame) != 0) return -1;
    return fill_defaults(in, f, kw_from, kw_to, "keyword-only", frame);
}

/* The name a call-site error gives the callee, as CPython's: __main__.f (a cell's functions
 * are the main module's), print, list.append. */
static void callee_name(struct render_buf *b, struct dsl_value callee)
{
    switch (callee.kind) {
    case DSL_FUNCTION: render_buf_printf(b, "__main__.%s", fn_name(callee.as.fn_user)); break;
    case DSL_BUILTIN: render_buf_puts(b, callee.as.fn->name); break;
    case DSL_METHOD:
        if (callee.as.m->fn)
            render_buf_printf(b, "%s.%s", dsl_type_name(callee.as.m->self), callee.as.m->fn->name);
        else
            render_buf_printf(b, "__main__.%s", fn_name(callee.as.m->func.as.fn_user));
        break;
    case DSL_CLASS:
        render_buf_printf(b, "%s%s", callee.as.cls->builtin ? "" : "__main__.",
                          callee.as.cls->name);
        break;
    default: render_buf_puts(b, dsl_type_name(callee)); break;
    }
}

/* The arguments of one call being gathered: owned values, and keyword names borrowed from the
 * call node or from the strings held in `keys`. */
struct gathered {
    struct dsl_value *pos;
    size_t npos, cappos;
    char **kwnames;
    struct dsl_value *kwvals; /* owned */
    struct dsl_value *keys;   /* owned: the string each kwname of a ** comes from, or none */
    size_t nkw, capkw;
};

static int push_pos(struct gathered *g, struct dsl_value v)
{
    if (g->npos == g->cappos) {
        size_t cap = g->cappos ? g->cappos * 2 : 8;
        struct dsl_value *p = cap <= DSL_MAX_LIST_LEN ? realloc(g->pos, cap * sizeof *p) : NULL;
        if (!p) {
            dsl_value_release(v);
            return cap <= DSL_MAX_LIST_LEN ? DSL_V_NOMEM : DSL_V_TOOBIG;
        }
        g->pos = p;
        g->cappos = cap;
    }
    g->pos[g->npos++] = v;
    return DSL_V_OK;
}

/* Adds keyword name = v (v owned, key owned: the string name lives in, or none); a name given
 * twice is CPython's TypeError. */
static int push_kw(struct dsl_interp *in, struct gathered *g, struct dsl_value callee, char *name,
                   struct dsl_value v, struct dsl_value key)
{
    for (size_t k = 0; k < g->nkw; k++)
        if (strcmp(g->kwnames[k], name) == 0) {
            struct render_buf b;
            render_buf_init(&b, 4096);
            callee_name(&b, callee);
            dsl_raise(in, "TypeError", "%s() got multiple values for keyword argument '%s'",
                      render_buf_str(&b), name);
            render_buf_free(&b);
            dsl_value_release(v);
            dsl_value_release(key);
            return -1;
        }
    if (g->nkw == g->capkw) {
        size_t cap = g->capkw ? g->capkw * 2 : 8;
        char **n = realloc(g->kwnames, cap * sizeof *n);
        if (n) g->kwnames = n;
        struct dsl_value *vs = n ? realloc(g->kwvals, cap * sizeof *vs) : NULL;
        if (vs) g->kwvals = vs;
        struct dsl_value *ks = vs ? realloc(g->keys, cap * sizeof *ks) : NULL;
        if (!ks) {
            dsl_value_release(v);
            dsl_value_release(key);
            return dsl_raise_status(in, DSL_V_NOMEM);
        }
        g->keys = ks;
        g->capkw = cap;
    }
    g->kwnames[g->nkw] = name;
    g->kwvals[g->nkw] = v;
    g->keys[g->nkw++] = key;
    return 0;
}

/* `*v` into the positional arguments; `alone`: it is the call's one positional argument
 * (CPython words the error by how it compiled the call: the callee is named only then). */
static int spread(struct dsl_interp *in, struct gathered *g, struct dsl_value callee,
                  struct dsl_value v, bool alone)
{
    struct dsl_iter it;
    if (v.kind != DSL_LIST && v.kind != DSL_STR && v.kind != DSL_RANGE && v.kind != DSL_DICT) {
        if (!alone)
            return dsl_raise(in, "TypeError", "Value after * must be an iterable, not %s",
                             dsl_type_name(v));
        struct render_buf b;
        render_buf_init(&b, 4096);
        callee_name(&b, callee);
        dsl_raise(in, "TypeError", "%s() argument after * must be an iterable, not %s",
                  render_buf_str(&b), dsl_type_name(v));
        render_buf_free(&b);
        return -1;
    }
    if (dsl_iter_init(in, v, &it) != 0) return -1;
    struct dsl_value item;
    int got;
    while ((got = dsl_iter_next(in, &it, &item)) > 0) {
        int st = push_pos(g, item);
        if (st != DSL_V_OK) return dsl_raise_status(in, st);
    }
    return got;
}

/* `**v` into the keyword arguments. */
static int spread_keywords(struct dsl_interp *in, struct gathered *g, struct dsl_value callee,
                           struct dsl_value v)
{
    if (v.kind != DSL_DICT) {
        struct render_buf b;
        render_buf_init(&b, 4096);
        callee_name(&b, callee);
        dsl_raise(in, "TypeError", "%s() argument after ** must be a mapping, not %s",
                  render_buf_str(&b), dsl_type_name(v));
        render_buf_free(&b);
        return -1;
    }
    const struct dsl_dict *d = v.as.d;
    for (size_t i = 0; i < d->n; i++) {
        const struct dsl_dict_entry *e = &d->entries[i];
        if (!e->live) continue;
        if (e->key.kind != DSL_STR) return dsl_raise(in, "TypeError", "keywords must be strings");
        if (push_kw(in, g, callee, e->key.as.s->data, dsl_value_retain(e->value),
                    dsl_value_retain(e->key)) != 0)
            return -1;
    }
    return 0;
}

int dsl_call_unpacking(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value callee,
                       struct dsl_value *out)
{
    struct gathered g = {0};
    int r = -1;
    size_t npositional = 0;
    for (size_t i = 0; i < n->nkids; i++)
        npositional += n->kids[i]->kind != DSL_N_STAR || n->kids[i]->op == DSL_T_STAR;
    for (size_t i = 0; i < n->nkids; i++) {
        const struct dsl_node *arg = n->kids[i];
        struct dsl_value v;
        if (dsl_eval(in, arg->kind == DSL_N_STAR ? arg->a : arg, &v) != 0) goto done;
        if (arg->kind != DSL_N_STAR) {
            int st = push_pos(&g, v);
            if (st != DSL_V_OK) {
                dsl_raise_status(in, st);
                goto done;
            }
            continue;
        }
        int sr = arg->op == DSL_T_STAR ? spread(in, &g, callee, v, npositional == 1)
                                       : spread_keywords(in, &g, callee, v);
        dsl_value_release(v);
        if (sr != 0) {
            dsl_error_locate(in, arg->pos);
            goto done;
        }
    }
    for (size_t k = 0; k < n->nkw; k++) {
        struct dsl_value v;
        if (dsl_eval(in, n->kwvals[k], &v) != 0 ||
            push_kw(in, &g, callee, n->kwnames[k], v, dsl_none()) != 0)
            goto done;
    }
    r = dsl_call(in, callee, g.pos, g.npos, g.kwnames, g.kwvals, g.nkw, out);
done:
    for (size_t i = 0; i < g.npos; i++) dsl_value_release(g.pos[i]);
    for (size_t k = 0; k < g.nkw; k++) {
        dsl_value_release(g.kwvals[k]);
        dsl_value_release(g.keys[k]);
    }
    free(g.pos);
    free(g.kwnames);
    free(g.kwvals);
    free(g.keys);
    return r;
}
