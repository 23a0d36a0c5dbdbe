/* calls.c — calls: dsl_call, which calls any callable value (a user function, its body run in
 * a frame of its own; a builtin's row; a bound method; a class; a callable instance), and the
 * call expression; how a call's arguments reach a user function, as CPython binds them:
 * positional parameters, *args, keyword-only parameters, **kwargs and defaults, with CPython's
 * messages; and the calls that unpack arguments at the call site (f(*xs, **d)). */
#include "lang/classes.h"
#include "lang/dict.h"
#include "lang/eval.h"
#include "lang/exceptions.h"
#include "lang/list.h"
#include "lang/set.h"

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

/* CPython's error for keywords naming positional-only parameters, all of them listed; true
 * after raising it, false when no keyword names one. */
static bool posonly_as_keyword(struct dsl_interp *in, const struct dsl_function *f,
                               char *const *kwnames, size_t nkw)
{
    struct render_buf names;
    render_buf_init(&names, 4096);
    for (size_t k = 0; k < nkw; k++)
        for (size_t i = 0; i < f->def->nposonly; i++)
            if (strcmp(f->def->kwnames[i], kwnames[k]) == 0)
                render_buf_printf(&names, "%s%s", names.len ? ", " : "", kwnames[k]);
    bool any = names.len > 0;
    if (any)
        dsl_raise(in, "TypeError",
                  "%s() got some positional-only arguments passed as keyword arguments: '%s'",
                  fn_name(f), render_buf_str(&names));
    render_buf_free(&names);
    return any;
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
    /* the common call, one argument per parameter and nothing else, is done */
    if (npos == np && nkw == 0 && def->nkw == np) return 0;
    if (def->star) { /* the rest of the positional arguments, as a tuple */
        struct dsl_list *rest = dsl_list_new(npos > np ? npos - np : 0);
        if (!rest) return dsl_raise_status(in, DSL_V_NOMEM);
        rest->style = DSL_LIST_TUPLE;
        frame->vals[np] = (struct dsl_value){.kind = DSL_LIST, .as.l = rest};
        frame->bound[np] = true;
        for (size_t i = np; i < npos; i++) { /* room made; a new tuple is in no cycle */
            dsl_value_adopt(pos[i]);
            rest->items[rest->len++] = dsl_value_retain(pos[i]);
        }
    }
    struct dsl_dict *extra = NULL;
    if (def->dstar) { /* the keywords no parameter takes, as a dict */
        if (!(extra = dsl_dict_new())) return dsl_raise_status(in, DSL_V_NOMEM);
        frame->vals[def->nkw - 1] = dsl_dict_value(extra);
        frame->bound[def->nkw - 1] = true;
    }
    for (size_t k = 0; k < nkw; k++) {
        /* a parameter of that name a keyword may give: not positional-only, not *args */
        size_t i = def->nposonly;
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
        if (!extra && posonly_as_keyword(in, f, kwnames, nkw)) return -1;
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
    if (npos < np && fill_defaults(in, f, 0, np, "positional", frame) != 0) return -1;
    return kw_from < kw_to ? fill_defaults(in, f, kw_from, kw_to, "keyword-only", frame) : 0;
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
    struct dsl_value *pos; /* small until more are gathered */
    size_t npos, cappos;
    struct dsl_value small[8];
    char **kwnames;
    struct dsl_value *kwvals; /* owned */
    struct dsl_value *keys;   /* owned: the string each kwname of a ** comes from, or none */
    size_t nkw, capkw;
};

/* push_pos where the arguments outgrow their array. */
static int push_pos_grow(struct gathered *g, struct dsl_value v)
{
    size_t cap = g->cappos * 2;
    bool small = g->pos == g->small;
    struct dsl_value *p = cap > DSL_MAX_LIST_LEN ? NULL
                          : small                ? malloc(cap * sizeof *p)
                                                 : realloc(g->pos, cap * sizeof *p);
    if (!p) {
        dsl_value_release(v);
        return cap <= DSL_MAX_LIST_LEN ? DSL_V_NOMEM : DSL_V_TOOBIG;
    }
    if (small) memcpy(p, g->small, g->npos * sizeof *p);
    g->pos = p;
    g->cappos = cap;
    g->pos[g->npos++] = v;
    return DSL_V_OK;
}

/* Adds positional argument v (owned; released when it cannot be added). */
static inline int push_pos(struct gathered *g, struct dsl_value v)
{
    if (g->npos == g->cappos) return push_pos_grow(g, v);
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

/* Whether call node n has one positional argument, a `*v` included (not a `**v`). */
static bool one_positional(const struct dsl_node *n)
{
    size_t count = 0;
    for (size_t i = 0; i < n->nkids; i++)
        count += n->kids[i]->kind != DSL_N_STAR || n->kids[i]->op == DSL_T_STAR;
    return count == 1;
}

/* `*v` of call node n into the positional arguments. CPython words the error by how it
 * compiled the call: the callee is named only where `*v` is its one positional argument. */
static int spread(struct dsl_interp *in, struct gathered *g, struct dsl_value callee,
                  struct dsl_value v, const struct dsl_node *n)
{
    struct dsl_iter it;
    if (v.kind != DSL_LIST && v.kind != DSL_STR && v.kind != DSL_RANGE && v.kind != DSL_DICT &&
        v.kind != DSL_SET) {
        if (!one_positional(n))
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
    if (v.kind == DSL_LIST) { /* f(*args): the tuple's items, no iterator */
        for (size_t i = 0; i < v.as.l->len; i++) {
            int st = push_pos(g, dsl_value_retain(v.as.l->items[i]));
            if (st != DSL_V_OK) return dsl_raise_status(in, st);
        }
        return 0;
    }
    if (dsl_iter_init(in, v, &it) != 0) return -1;
    struct dsl_value item;
    int got;
    while ((got = dsl_iter_next(in, &it, &item)) > 0) {
        int st = push_pos(g, item);
        if (st != DSL_V_OK) {
            got = dsl_raise_status(in, st);
            break;
        }
    }
    dsl_iter_end(&it);
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

/* Whether f's parameters are all plain positional ones (no *args, keyword-only or **kwargs),
 * its locals few, none of them a cell, and it is neither compiled nor a generator: a call
 * giving it exactly its positional arguments binds them straight into the frame's slots. */
static inline bool plain_positional(const struct dsl_function *f) { return f->plain && !f->jit; }

/* Whether a call giving plain_positional f `given` positional arguments (and no keywords)
 * binds them with no binding step: one per parameter, or fewer where the parameters left have
 * defaults (Scalar(v), whose history and name have theirs), which fill_plain fills in. */
static inline bool takes_plainly(const struct dsl_function *f, size_t given)
{
    return (given == f->nargs || (given < f->nargs && given >= f->nrequired)) &&
           plain_positional(f);
}

/* The slots of f's parameters from `given` on (takes_plainly) bound to their defaults. */
static inline void fill_plain(const struct dsl_function *f, size_t given, struct dsl_value *vals,
                              bool *bound)
{
    for (size_t i = given; i < f->nargs; i++) {
        vals[i] = dsl_value_retain(f->defaults[i]);
        bound[i] = true;
    }
}
static int call_moving(struct dsl_interp *in, struct dsl_function *f, struct dsl_value *args,
                       size_t nargs, struct dsl_value *out);

int dsl_call_unpacking(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value callee,
                       struct dsl_value self, struct dsl_value *out)
{
    struct gathered g; /* its small array is written as it fills */
    g.pos = g.small;
    g.npos = 0;
    g.cappos = sizeof g.small / sizeof g.small[0];
    g.kwnames = NULL;
    g.kwvals = g.keys = NULL;
    g.nkw = g.capkw = 0;
    int r = -1;
    if (self.kind != DSL_NONE) { /* the callee's first argument, as a bound method's self */
        int st = push_pos(&g, dsl_value_retain(self));
        if (st != DSL_V_OK) {
            dsl_raise_status(in, st);
            goto done;
        }
    }
    for (size_t i = 0; i < n->nkids; i++) {
        const struct dsl_node *arg = n->kids[i];
        struct dsl_value v;
        if (arg->kind != DSL_N_STAR) {
            if (dsl_eval_node(in, arg, &v) != 0) goto done;
            int st = push_pos(&g, v);
            if (st != DSL_V_OK) {
                dsl_raise_status(in, st);
                goto done;
            }
            continue;
        }
        bool owned; /* *xs of a local: its items are taken, the tuple itself lent */
        if (dsl_eval_lent(in, arg->a, &v, &owned) != 0) goto done;
        int sr = arg->op == DSL_T_STAR ? spread(in, &g, callee, v, n)
                                       : spread_keywords(in, &g, callee, v);
        if (owned) dsl_value_release(v);
        if (sr != 0) {
            dsl_error_locate(in, arg->pos);
            goto done;
        }
    }
    for (size_t k = 0; k < n->nkw; k++) {
        struct dsl_value v;
        if (dsl_eval_node(in, n->kwvals[k], &v) != 0 ||
            push_kw(in, &g, callee, n->kwnames[k], v, dsl_none()) != 0)
            goto done;
    }
    if (!g.nkw && callee.kind == DSL_FUNCTION &&
        takes_plainly(callee.as.fn_user, g.npos)) { /* cls.forward(ctx, *inps) */
        r = call_moving(in, callee.as.fn_user, g.pos, g.npos, out);
        g.npos = 0;
    } else {
        r = dsl_call(in, callee, g.pos, g.npos, g.kwnames, g.kwvals, g.nkw, out);
    }
done:
    for (size_t i = 0; i < g.npos; i++) dsl_value_release(g.pos[i]);
    for (size_t k = 0; k < g.nkw; k++) {
        dsl_value_release(g.kwvals[k]);
        dsl_value_release(g.keys[k]);
    }
    if (g.pos != g.small) free(g.pos);
    if (g.kwnames) { /* push_kw grows kwnames first, then the others: none without it */
        free(g.kwnames);
        free(g.kwvals);
        free(g.keys);
    }
    return r;
}

/* ---- calling a value -------------------------------------------------------------------- */

/* Calls user function f (arguments borrowed): its body runs in a frame of its own, reading and
 * writing its locals, with error positions in the source of the cell that defined it. */
static int call_function_held(struct dsl_interp *in, struct dsl_function *f,
                              const struct dsl_value *pos, size_t npos, char *const *kwnames,
                              const struct dsl_value *kwvals, size_t nkw, struct dsl_value *out);

/* PEP 479: a StopIteration (or a subclass's) leaving a generator's body is a RuntimeError, so
 * that it cannot end the loop that consumes the generator as if the values had run out. The
 * error keeps the position and the traceback of the StopIteration. */
static void stop_iteration_escaped(struct dsl_interp *in)
{
    struct dsl_exc_saved s;
    dsl_exc_take(in, &s);
    if (!s.ename || !dsl_exc_type_is(dsl_exc_saved_type(&s), dsl_exc_type_find("StopIteration"))) {
        dsl_exc_put(in, &s);
        return;
    }
    if (s.has_pos)
        dsl_raise_at(in, s.pos, "RuntimeError", "generator raised StopIteration");
    else
        dsl_raise(in, "RuntimeError", "generator raised StopIteration");
    in->tb = s.tb, in->ntb = s.ntb, in->captb = s.captb;
    s.tb = NULL, s.ntb = s.captb = 0;
    dsl_exc_saved_free(&s);
}

/* Not inlined, nor call_builtin: dsl_call, which every kind of call goes through, stays a
 * switch whose frame is small, where the frames of all its cases inlined would be pushed for
 * each (a Python call's depth of C stack is what its cache lines hold). */
static __attribute__((noinline)) int call_function(struct dsl_interp *in, struct dsl_function *f,
                                                   const struct dsl_value *pos, size_t npos,
                                                   char *const *kwnames,
                                                   const struct dsl_value *kwvals, size_t nkw,
                                                   struct dsl_value *out)
{
    /* the function may be a class's attribute that the call itself deletes (del A.__add__ in
     * __add__): it is held until the call ends */
    struct dsl_value held =
        dsl_value_retain((struct dsl_value){.kind = DSL_FUNCTION, .as.fn_user = f});
    int r = call_function_held(in, f, pos, npos, kwnames, kwvals, nkw, out);
    dsl_value_release(held);
    return r;
}

/* What calling f refuses before its arguments are bound: a CUDA kernel called as a function;
 * a kernel's file that check() must not run in the student's place. 0, or -1 after raising. */
static int call_refused(struct dsl_interp *in, const struct dsl_function *f)
{
    const struct dsl_node *def = f->def;
    if (f->cuda_kernel)
        return dsl_raise(in, "TypeError",
                         "%s() is a CUDA kernel (cuda.jit): launch it with a grid, as "
                         "%s[blocks, threads](...)",
                         def->name, def->name);
    if (f->kernel_file && in->session && in->session->course_grading && in->session->course_file &&
        strcmp(in->session->course_file, f->code->kernel_file) == 0)
        return dsl_raise(in, "RuntimeError",
                         "check() grades your own code, and this called %s() of the kernel's "
                         "%s: write it yourself",
                         f->qualname ? f->qualname : def->name, f->code->kernel_file);
    if (f->kernel_file && in->session && in->session->course_grading && !in->session->course_file)
        return dsl_raise(in, "RuntimeError",
                         "check() grades your own files, and this called %s() of the kernel's "
                         "%s: write your %s in a cell that starts with %%%%minitorch_file %s, "
                         "then run again the cells of your files that import it",
                         f->qualname ? f->qualname : def->name, f->code->kernel_file,
                         f->code->kernel_file, f->code->kernel_file);
    return 0;
}

/* What running body `return expr` (ret) does, without the statement loop: the value left in
 * in->retval, DSL_X_RETURN; DSL_X_ERR with the error located. */
static inline int return_of(struct dsl_interp *in, const struct dsl_node *ret)
{
    struct dsl_value v;
    if (dsl_eval_node(in, ret->a, &v) != 0) return dsl_error_locate(in, ret->pos), DSL_X_ERR;
    dsl_value_release(in->retval);
    in->retval = v;
    return DSL_X_RETURN;
}

/* Runs f's body in frame, whose parameters are bound: its cells made, the interpreter's state
 * switched to the call and back. Releases the frame's locals (its arrays are the caller's). */
static int run_frame(struct dsl_interp *in, struct dsl_function *f, struct dsl_frame *frame,
                     struct dsl_value *out)
{
    int r = -1;
    if (in->calls >= DSL_MAX_CALL_DEPTH || in->height + f->height > DSL_MAX_EVAL_HEIGHT) {
        dsl_raise(in, "RecursionError", "maximum recursion depth exceeded in %s() (%d calls deep)",
                  f->def->name, in->calls);
        goto done;
    }
    for (size_t k = 0; f->any_cell && k < f->nlocals; k++) { /* the locals nested functions share */
        if (!f->is_cell[k]) continue;
        struct dsl_value cell;
        if (dsl_new_cell(&cell) != DSL_V_OK) {
            dsl_raise_status(in, DSL_V_NOMEM);
            goto done;
        }
        if (frame->bound[k]) dsl_cell_set(cell.as.cell, frame->vals[k]);
        frame->vals[k] = cell;
        frame->bound[k] = true;
    }
    struct dsl_frame *up = in->frame;
    struct dsl_attrs *class_ns = in->class_ns;
    in->class_ns = NULL;
    const char *src = in->src;
    size_t src_len = in->src_len;
    struct dsl_code *code = in->code;
    struct dsl_comp_scope *comp = in->comp; /* a body sees no comprehension's variables */
    struct dsl_frame *locals = in->locals;
    in->comp = NULL;
    in->frame = frame;
    in->locals = frame;
    in->src = f->src;
    in->src_len = f->src_len;
    in->code = f->code;
    in->calls++;
    in->height += f->height;
    /* a generator's body runs to its end now, its yields kept for the iterator it returns */
    struct dsl_list *yields = in->yields, *mine = f->generator ? dsl_list_new(0) : NULL;
    in->yields = mine;
    int x = f->ret                  ? return_of(in, f->ret)
            : f->generator && !mine ? (dsl_raise_status(in, DSL_V_NOMEM), DSL_X_ERR)
                                    : dsl_exec_body(in, f->def);
    in->yields = yields;
    if (x == DSL_X_ERR && mine) stop_iteration_escaped(in);
    in->calls--;
    in->height -= f->height;
    if (x == DSL_X_ERR) dsl_interp_push_tb(in, f);
    in->frame = up;
    in->class_ns = class_ns;
    in->comp = comp;
    in->locals = locals;
    in->src = src;
    in->src_len = src_len;
    in->code = code;
    if (x != DSL_X_ERR) {
        *out = x == DSL_X_RETURN ? in->retval : dsl_none();
        in->retval = dsl_none();
        r = 0;
    }
    if (mine) {
        struct dsl_value list = {.kind = DSL_LIST, .as.l = mine};
        if (r == 0) { /* what it returns is its StopIteration's value, which next() shows */
            struct dsl_value returned = *out;
            r = dsl_generator_over(in, list, returned, out);
            dsl_value_release(returned);
        }
        dsl_value_release(list);
    }
done:
    for (size_t i = 0; i < f->nlocals; i++)
        if (frame->bound[i]) dsl_value_release(frame->vals[i]);
    return r;
}

/* dsl_jit_call, apart: its frame, which holds a native call's arguments, is pushed for a call
 * of compiled code only, not for every call of a user function. */
static __attribute__((noinline)) int jit_call(struct dsl_interp *in, struct dsl_function *f,
                                              const struct dsl_value *pos, size_t npos,
                                              char *const *kwnames, const struct dsl_value *kwvals,
                                              size_t nkw, struct dsl_value *out)
{
    return dsl_jit_call(in, f, pos, npos, kwnames, kwvals, nkw, out);
}

static int call_function_held(struct dsl_interp *in, struct dsl_function *f,
                              const struct dsl_value *pos, size_t npos, char *const *kwnames,
                              const struct dsl_value *kwvals, size_t nkw, struct dsl_value *out)
{
    if (call_refused(in, f) != 0) return -1;
    if (f->jit) {
        int j = jit_call(in, f, pos, npos, kwnames, kwvals, nkw, out);
        if (j <= 0) return j;
    }
    /* most functions have few locals: their slots live on the C stack, so a call allocates
     * nothing (a call's cost is what students time against method calls and CPython) */
    struct dsl_value small_vals[DSL_SMALL_LOCALS];
    bool small_bound[DSL_SMALL_LOCALS];
    bool small = f->nlocals <= DSL_SMALL_LOCALS;
    struct dsl_frame frame = {f, small ? small_vals : calloc(f->nlocals + 1, sizeof *frame.vals),
                              small ? small_bound : calloc(f->nlocals + 1, sizeof *frame.bound)};
    if (small) memset(small_bound, 0, sizeof small_bound);
    int r = -1;
    if (!frame.vals || !frame.bound) {
        dsl_raise_status(in, DSL_V_NOMEM);
    } else if (dsl_bind_params(in, f, pos, npos, kwnames, kwvals, nkw, &frame) != 0) {
        for (size_t i = 0; i < f->nlocals; i++)
            if (frame.bound[i]) dsl_value_release(frame.vals[i]);
    } else {
        r = run_frame(in, f, &frame, out);
    }
    if (!small) {
        free(frame.vals);
        free(frame.bound);
    }
    return r;
}

/* A call of f with self (where not none: the first argument) and pos (borrowed), which it
 * takes plainly (takes_plainly): held for the call, as call_function holds it. */
static int call_exact(struct dsl_interp *in, struct dsl_function *f, struct dsl_value self,
                      const struct dsl_value *pos, size_t npos, struct dsl_value *out)
{
    if (call_refused(in, f) != 0) return -1;
    size_t first = self.kind != DSL_NONE;
    struct dsl_value vals[DSL_SMALL_LOCALS];
    bool bound[DSL_SMALL_LOCALS];
    struct dsl_frame frame = {f, vals, bound};
    memset(bound, 0, sizeof bound); /* all DSL_SMALL_LOCALS: a store, not a call */
    if (first) vals[0] = dsl_value_retain(self);
    for (size_t i = 0; i < npos; i++) vals[first + i] = dsl_value_retain(pos[i]);
    for (size_t i = 0; i < npos + first; i++) bound[i] = true;
    fill_plain(f, npos + first, vals, bound);
    struct dsl_value held =
        dsl_value_retain((struct dsl_value){.kind = DSL_FUNCTION, .as.fn_user = f});
    int r = run_frame(in, f, &frame, out);
    dsl_value_release(held);
    return r;
}

/* A call of f with args, which it takes plainly (takes_plainly), owned: they move into the
 * frame's slots (released there, or here when the call is refused). The callee is held by the
 * caller. */
static int call_moving(struct dsl_interp *in, struct dsl_function *f, struct dsl_value *args,
                       size_t nargs, struct dsl_value *out)
{
    if (call_refused(in, f) != 0) {
        dsl_release_all(args, nargs);
        return -1;
    }
    struct dsl_value vals[DSL_SMALL_LOCALS];
    bool bound[DSL_SMALL_LOCALS];
    struct dsl_frame frame = {f, vals, bound};
    memset(bound, 0, sizeof bound);
    for (size_t i = 0; i < nargs; i++) {
        vals[i] = args[i];
        bound[i] = true;
    }
    fill_plain(f, nargs, vals, bound);
    return run_frame(in, f, &frame, out);
}

/* f(a, b) or obj.method(b) of a user function that takes its arguments plainly (self first
 * where self is not none: borrowed; takes_plainly): the arguments evaluated straight into the
 * new frame's slots, with no array between and no binding step. The callee is held by the
 * caller. 1 when it is not such a call (nothing done), else 0 or -1 as the call went. */
static int call_direct(struct dsl_interp *in, const struct dsl_node *n, struct dsl_function *f,
                       struct dsl_value self, struct dsl_value *out)
{
    size_t first = self.kind != DSL_NONE;
    if (n->nkw || !takes_plainly(f, n->nkids + first)) return 1;
    if (call_refused(in, f) != 0) return -1;
    struct dsl_value vals[DSL_SMALL_LOCALS];
    bool bound[DSL_SMALL_LOCALS];
    struct dsl_frame frame = {f, vals, bound};
    memset(bound, 0, sizeof bound);
    if (first) {
        vals[0] = dsl_value_retain(self);
        bound[0] = true;
    }
    for (size_t i = 0; i < n->nkids; i++) {
        if (dsl_eval_inline(in, n->kids[i], &vals[first + i]) != 0) {
            for (size_t k = 0; k < first + i; k++) dsl_value_release(vals[k]);
            return -1;
        }
        bound[first + i] = true;
    }
    fill_plain(f, n->nkids + first, vals, bound);
    return run_frame(in, f, &frame, out);
}

/* What a call of builtin row fn refuses: the kernel's own functions while check() grades the
 * student's code. 0, or -1 after raising. */
static inline int builtin_refused(struct dsl_interp *in, const struct dsl_builtin *fn)
{
    if (!in->session || !in->session->course_refuses || !in->session->course_refuses(fn)) return 0;
    return dsl_raise(in, "RuntimeError",
                     "check() grades your own code, and this called the kernel's %s(): write it "
                     "yourself",
                     fn->name);
}

/* Runs builtin row fn on args, bound: 0 with a new value in *out, or -1. */
static inline int run_row(struct dsl_interp *in, const struct dsl_builtin *fn,
                          const struct dsl_args *args, struct dsl_value *out)
{
    if (fn->fn(in, args, out) != 0) return -1;
    if (in->ename) {
        /* it succeeded over an error of user code it ran (a __repr__ that raised) and left it
         * pending: raise it here, at its call, not at whatever next looks for an error */
        dsl_value_release(*out);
        *out = dsl_none();
        return -1;
    }
    return 0;
}

/* Runs builtin row fn with the arguments bound to it and args.self = self. */
static __attribute__((noinline)) int
call_builtin(struct dsl_interp *in, const struct dsl_builtin *fn, struct dsl_value self,
             const struct dsl_value *pos, size_t npos, char *const *kwnames,
             const struct dsl_value *kwvals, size_t nkw, struct dsl_value *out)
{
    if (builtin_refused(in, fn) != 0) return -1;
    struct dsl_args args;
    if (dsl_bind_args(in, fn, pos, npos, kwnames, kwvals, nkw, &args) != 0) return -1;
    args.self = self;
    return run_row(in, fn, &args, out);
}

int dsl_call_method(struct dsl_interp *in, struct dsl_value fn, struct dsl_value self,
                    const struct dsl_value *pos, size_t npos, char *const *kwnames,
                    const struct dsl_value *kwvals, size_t nkw, struct dsl_value *out)
{
    if (fn.kind == DSL_BUILTIN)
        return call_builtin(in, fn.as.fn, self, pos, npos, kwnames, kwvals, nkw, out);
    if (fn.kind == DSL_FUNCTION && !nkw &&
        takes_plainly(fn.as.fn_user, npos + 1)) /* an operator's method: a.__add__(b) */
        return call_exact(in, fn.as.fn_user, self, pos, npos, out);
    struct dsl_value small[DSL_SMALL_ARGS];
    struct dsl_value *all = npos + 1 <= DSL_SMALL_ARGS ? small : malloc((npos + 1) * sizeof *all);
    if (!all) return dsl_raise_status(in, DSL_V_NOMEM);
    all[0] = self;
    if (npos) memcpy(all + 1, pos, npos * sizeof *pos);
    int r = dsl_call(in, fn, all, npos + 1, kwnames, kwvals, nkw, out);
    if (all != small) free(all);
    return r;
}

int dsl_call(struct dsl_interp *in, struct dsl_value callee, const struct dsl_value *pos,
             size_t npos, char *const *kwnames, const struct dsl_value *kwvals, size_t nkw,
             struct dsl_value *out)
{
    switch (callee.kind) {
    case DSL_FUNCTION:
        return call_function(in, callee.as.fn_user, pos, npos, kwnames, kwvals, nkw, out);
    case DSL_BUILTIN:
        return call_builtin(in, callee.as.fn, dsl_none(), pos, npos, kwnames, kwvals, nkw, out);
    case DSL_METHOD: {
        const struct dsl_method *m = callee.as.m;
        if (m->fn) return call_builtin(in, m->fn, m->self, pos, npos, kwnames, kwvals, nkw, out);
        if (m->wrap == DSL_WRAP_STATIC)
            return dsl_call(in, m->func, pos, npos, kwnames, kwvals, nkw, out);
        if (m->wrap == DSL_WRAP_BOUND)
            return dsl_call_method(in, m->func, m->self, pos, npos, kwnames, kwvals, nkw, out);
        break; /* a classmethod, a property, a __dict__: not callable, as in Python */
    }
    case DSL_CLASS: return dsl_class_call(in, callee, pos, npos, kwnames, kwvals, nkw, out);
    case DSL_INSTANCE: return dsl_instance_call(in, callee, pos, npos, kwnames, kwvals, nkw, out);
    case DSL_EXC_TYPE: return dsl_exc_type_call(in, callee.as.exc_type, pos, npos, nkw, out);
    case DSL_OBJECT:
        if (callee.as.obj->cls->call)
            return call_builtin(in, callee.as.obj->cls->call, callee, pos, npos, kwnames, kwvals,
                                nkw, out);
        break;
    default: break;
    }
    return dsl_raise(in, "TypeError", "'%s' object is not callable", dsl_type_name(callee));
}

/* Whether dsl_call can call v. */
static bool callable(struct dsl_value v)
{
    struct dsl_value fn;
    switch (v.kind) {
    case DSL_FUNCTION:
    case DSL_BUILTIN:
    case DSL_METHOD:
    case DSL_CLASS:
    case DSL_EXC_TYPE: return true;
    case DSL_INSTANCE: return dsl_instance_method(v, "__call__", &fn);
    case DSL_OBJECT: return v.as.obj->cls->call != NULL;
    default: return false;
    }
}

/* Which method table serves v, and which part of it (a tuple, a frozenset: the methods that
 * do not change it): the key of an ATTR node's row cache, 0 for a value of no table. */
static int row_key(struct dsl_value v)
{
    switch (v.kind) {
    case DSL_LIST: return dsl_is_ndarray(v) ? 0 : v.as.l->style == DSL_LIST_TUPLE ? 2 : 1;
    case DSL_DICT: return 3;
    case DSL_SET: return v.as.d->frozen ? 5 : 4;
    default: return 0;
    }
}

/* The methods the course's loops call most (topological_sort's stack and its set of visited
 * ids, backpropagate's derivatives, a layer's outputs), which call_hot runs on a call's
 * arguments as they are, with no row's arguments to fill: an ATTR node's row_hot. */
enum { HOT_NONE, HOT_APPEND, HOT_LIST_POP, HOT_SET_ADD, HOT_DICT_POP };

/* The hot method that call n of method `name` of a receiver whose row_key is key runs, or
 * HOT_NONE: positional arguments only, as many as the method's hot form takes. */
static unsigned char hot_method(const struct dsl_node *n, int key, const char *name)
{
    if (n->flag || n->nkw) return HOT_NONE;
    switch (key) {
    case 1:
        return n->nkids == 1 && strcmp(name, "append") == 0 ? HOT_APPEND
               : n->nkids == 0 && strcmp(name, "pop") == 0  ? HOT_LIST_POP
                                                            : HOT_NONE;
    case 3:
        return n->nkids >= 1 && n->nkids <= 2 && strcmp(name, "pop") == 0 ? HOT_DICT_POP : HOT_NONE;
    case 4: return n->nkids == 1 && strcmp(name, "add") == 0 ? HOT_SET_ADD : HOT_NONE;
    default: return HOT_NONE;
    }
}

/* The builtin method row that call n of `attr.name` (n->a) finds on obj, whose row_key is key
 * (not 0), or NULL: through the node's cache, so that a call in a loop looks its name up once. */
static const struct dsl_builtin *method_row(const struct dsl_node *n, struct dsl_value obj, int key)
{
    const struct dsl_node *attr = n->a;
    if (attr->row_key == key) return attr->row;
    const char *name = dsl_node_name(attr);
    const struct dsl_builtin *row = key <= 2   ? dsl_list_method_row(obj, name)
                                    : key == 3 ? dsl_dict_method_row(name)
                                               : dsl_set_method_row(obj, name);
    if (row) { /* the cache only: the node's meaning stays */
        struct dsl_node *cache = (struct dsl_node *)attr;
        cache->row_key = (short)key;
        cache->row = row;
        cache->row_hot = hot_method(n, key, name);
    }
    return row;
}

/* Whether call node n gives builtin row fn what a row takes with no binding step: positional
 * arguments only (no *xs, no keywords), as many as its positional arity takes. */
static inline bool row_call_plain(const struct dsl_node *n, const struct dsl_builtin *fn)
{
    return !n->flag && !n->nkw && n->nkids <= DSL_SMALL_ARGS && fn->max_args >= 0 &&
           n->nkids >= (size_t)fn->min_args && n->nkids <= (size_t)fn->max_args;
}

/* The call n of builtin row fn (row_call_plain) with self (borrowed; none for a function):
 * xs.append(v), len(xs), isinstance(v, C), as call_builtin runs it, with the arguments lent
 * where they are locals and straight in the row's slots. */
static int call_row_plain(struct dsl_interp *in, const struct dsl_node *n,
                          const struct dsl_builtin *fn, struct dsl_value self,
                          struct dsl_value *out)
{
    struct dsl_value vals[DSL_SMALL_ARGS];
    bool own[DSL_SMALL_ARGS];
    size_t done = 0;
    int r = -1;
    for (; done < n->nkids; done++)
        if (dsl_eval_lent(in, n->kids[done], &vals[done], &own[done]) != 0) goto cleanup;
    if (builtin_refused(in, fn) != 0) {
        r = -1;
    } else if (fn->fn == dsl_bi_isinstance && vals[1].kind == DSL_CLASS) {
        /* isinstance(x, C) of one class, what apply() asks of every argument: its answer,
         * with no row's arguments to bind (as CPython's CALL_NO_KW_ISINSTANCE) */
        const struct dsl_class *c = vals[1].as.cls;
        *out = dsl_bool(vals[0].kind == DSL_INSTANCE
                            ? dsl_class_derives(vals[0].as.inst->cls.as.cls, c)
                            : dsl_isinstance(vals[0], c));
        r = 0;
    } else if (dsl_builtin_is_len(fn) &&
               (vals[0].kind == DSL_LIST || vals[0].kind == DSL_DICT || vals[0].kind == DSL_SET)) {
        /* len(xs) of a list, a dict or a set (topological_sort's loop test), as CPython's
         * CALL_NO_KW_LEN: its length, with no row's arguments to bind */
        *out = dsl_int(vals[0].kind == DSL_LIST ? (int64_t)vals[0].as.l->len
                                                : (int64_t)vals[0].as.d->len);
        r = 0;
    } else {
        struct dsl_args args;
        dsl_args_start(fn, vals, n->nkids, &args);
        args.self = self;
        r = run_row(in, fn, &args, out);
    }
cleanup:
    if (r != 0) dsl_error_locate(in, n->pos);
    for (size_t i = 0; i < done; i++)
        if (own[i]) dsl_value_release(vals[i]);
    return r;
}

/* Call n of hot method `hot` (its ATTR's row_hot) on self (borrowed), with the arguments lent
 * where they are locals: what call_row_plain runs for that row, with no row's arguments. */
static __attribute__((noinline)) int call_hot(struct dsl_interp *in, const struct dsl_node *n,
                                              unsigned hot, const struct dsl_builtin *row,
                                              struct dsl_value self, struct dsl_value *out)
{
    struct dsl_value args[2];
    bool own[2];
    size_t done = 0;
    int r = -1;
    for (; done < n->nkids; done++)
        if (dsl_eval_lent(in, n->kids[done], &args[done], &own[done]) != 0) goto cleanup;
    if (builtin_refused(in, row) != 0) goto cleanup;
    switch (hot) {
    case HOT_APPEND:
        *out = dsl_none();
        r = dsl_list_append(in, self.as.l, args[0]);
        break;
    case HOT_LIST_POP: r = dsl_list_pop(in, self.as.l, out); break;
    case HOT_SET_ADD:
        *out = dsl_none();
        r = dsl_set_add(in, self.as.d, args[0]);
        break;
    default: r = dsl_dict_pop(in, self.as.d, args[0], n->nkids == 2 ? &args[1] : NULL, out);
    }
    if (r == 0 && in->ename) { /* as run_row: an error of user code it ran, left pending */
        dsl_value_release(*out);
        *out = dsl_none();
        r = -1;
    }
cleanup:
    if (r != 0) dsl_error_locate(in, n->pos);
    for (size_t i = 0; i < done; i++)
        if (own[i]) dsl_value_release(args[i]);
    return r;
}

/* dsl_eval_call's general way, for call n of callee (held) with self (none, or held where
 * own_self, else lent): the arguments evaluated into an array, then the call. Apart, so that
 * the array takes no room in the frame of dsl_eval_call, which the C stack holds one of for
 * every Python call in progress. */
static __attribute__((noinline)) int call_evaluated(struct dsl_interp *in, const struct dsl_node *n,
                                                    struct dsl_value callee, struct dsl_value self,
                                                    bool own_self, struct dsl_value *out)
{
    size_t total = n->nkids + n->nkw;
    /* vals[0] is left for self, so that a method call passes self and the arguments as one
     * array without copying them */
    struct dsl_value small[DSL_SMALL_ARGS + 1];
    bool small_own[DSL_SMALL_ARGS]; /* false: vals[i] is lent by a local's slot */
    struct dsl_value *vals = small + 1;
    bool *own = small_own;
    if (total > DSL_SMALL_ARGS) {
        struct dsl_value *all = malloc((total + 1) * sizeof *vals + total * sizeof *own);
        if (!all) {
            dsl_value_release(callee);
            if (own_self) dsl_value_release(self);
            return dsl_raise_status(in, DSL_V_NOMEM), dsl_error_locate(in, n->pos), -1;
        }
        vals = all + 1;
        own = (bool *)(vals + total);
    }
    size_t done = 0;
    int r = -1;
    for (; done < n->nkids; done++)
        if (dsl_eval_lent(in, n->kids[done], &vals[done], &own[done]) != 0) goto cleanup;
    for (; done < total; done++)
        if (dsl_eval_lent(in, n->kwvals[done - n->nkids], &vals[done], &own[done]) != 0)
            goto cleanup;
    if (self.kind != DSL_NONE && callee.kind == DSL_BUILTIN)
        r = call_builtin(in, callee.as.fn, self, vals, n->nkids, n->kwnames, vals + n->nkids,
                         n->nkw, out);
    else if (self.kind != DSL_NONE) { /* what dsl_call_method does, self in the slot before */
        vals[-1] = self;
        r = dsl_call(in, callee, vals - 1, n->nkids + 1, n->kwnames, vals + n->nkids, n->nkw, out);
    } else
        r = dsl_call(in, callee, vals, n->nkids, n->kwnames, vals + n->nkids, n->nkw, out);
cleanup:
    if (r != 0) dsl_error_locate(in, n->pos);
    for (size_t i = 0; i < done; i++)
        if (own[i]) dsl_value_release(vals[i]);
    if (vals != small + 1) free(vals - 1);
    dsl_value_release(callee);
    if (own_self) dsl_value_release(self);
    return r;
}

int dsl_eval_call(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    struct dsl_value callee, self = dsl_none();
    bool own_self = true; /* false: self is lent by a local's slot (dsl_eval_lent) */
    /* obj.method(...) calls the method with obj first, as Python's LOAD_METHOD does, without
     * making a bound method for the one call: a method of an instance's class, a classmethod
     * called on its class, a method of a list, tuple, dict, set or frozenset */
    if (n->a->kind == DSL_N_ATTR) {
        const char *name = dsl_node_name(n->a);
        size_t hash = dsl_node_hash(n->a);
        struct dsl_value obj, fn;
        if (dsl_eval_lent(in, n->a->a, &obj, &own_self) != 0) return -1;
        const struct dsl_builtin *row = NULL;
        enum dsl_callee found = DSL_CALLEE_NONE;
        int key;
        if (obj.kind == DSL_INSTANCE)
            found = dsl_instance_callee_at(obj, n->a, &fn);
        else if (obj.kind == DSL_CLASS)
            found = dsl_class_callee_at(obj, n->a, &fn);
        else if ((key = row_key(obj)) != 0)
            row = method_row(n, obj, key);
        if (row && n->a->row_hot) {
            int r = call_hot(in, n, n->a->row_hot, row, obj, out);
            if (own_self) dsl_value_release(obj);
            return r;
        }
        if (row && row_call_plain(n, row)) {
            int r = call_row_plain(in, n, row, obj, out);
            if (own_self) dsl_value_release(obj);
            return r;
        }
        if (row)
            found = DSL_CALLEE_METHOD, fn = (struct dsl_value){.kind = DSL_BUILTIN, .as.fn = row};
        /* f(*xs) names a bound builtin method as type.name in its errors: that one is bound; a
         * value that is not callable gets its error from the general way */
        if (found == DSL_CALLEE_METHOD && n->flag && fn.kind != DSL_FUNCTION)
            found = DSL_CALLEE_NONE;
        if (found == DSL_CALLEE_PLAIN && !callable(fn)) found = DSL_CALLEE_NONE;
        if (found == DSL_CALLEE_METHOD) {
            self = obj;
            callee = dsl_value_retain(fn);
        } else if (found == DSL_CALLEE_PLAIN) {
            callee = dsl_value_retain(fn);
            if (own_self) dsl_value_release(obj);
            own_self = true;  /* self stays none */
        } else if (n->flag) { /* as eval_attr reads it: called as any value is */
            int r = dsl_getattr_hashed(in, obj, name, hash, &callee);
            if (own_self) dsl_value_release(obj);
            own_self = true;
            if (r != 0) return dsl_error_locate(in, n->a->pos), -1;
        } else {
            int r = dsl_getattr_hashed(in, obj, name, hash, &callee);
            if (own_self) dsl_value_release(obj);
            own_self = true;
            if (r != 0) return dsl_error_locate(in, n->a->pos), -1;
            if (!callable(callee)) { /* `t.shape()`: an attribute that is a value */
                r = dsl_raise_at(in, n->pos, "TypeError",
                                 "'%s' object is not callable (.%s is a value, not a method: "
                                 "drop the parentheses)",
                                 dsl_type_name(callee), n->a->name);
                dsl_value_release(callee);
                return r;
            }
        }
    } else if (dsl_eval_node(in, n->a, &callee) != 0) {
        return -1;
    } else if (callee.kind == DSL_BUILTIN && row_call_plain(n, callee.as.fn)) {
        return call_row_plain(in, n, callee.as.fn, dsl_none(), out); /* len(xs): plain, held */
    }
    if (n->flag) { /* f(*xs, **d) */
        int r = dsl_call_unpacking(in, n, callee, self, out);
        if (r != 0) dsl_error_locate(in, n->pos);
        dsl_value_release(callee);
        if (own_self) dsl_value_release(self);
        return r;
    }
    if (callee.kind == DSL_FUNCTION) {
        int r = call_direct(in, n, callee.as.fn_user, self, out);
        if (r != 1) {
            if (r != 0) dsl_error_locate(in, n->pos);
            dsl_value_release(callee);
            if (own_self) dsl_value_release(self);
            return r;
        }
    }
    return call_evaluated(in, n, callee, self, own_self, out);
}
