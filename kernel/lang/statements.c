/* statements.c — the tree-walking evaluator's statements: dsl_run_block, and the table, indexed
 * by node kind, of what each statement does (if, while, for, def, class, return, assert, try,
 * raise, import; assignments and del are assign.c's). Each ends in an enum dsl_exec_status
 * (eval.h): OK, BREAK, CONTINUE, RETURN, or ERR with an error pending. Every loop iteration
 * polls the cancel flag so an interrupt ends any cell within one iteration. A line magic is
 * handed to the library (library.h). */
#include "lang/eval.h"

#include "lang/classes.h"
#include "lang/exceptions.h"
#include "lang/packages.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* ---- statements ------------------------------------------------------------------------- */

typedef int (*exec_fn)(struct dsl_interp *in, const struct dsl_node *n);

static int exec_stmt(struct dsl_interp *in, const struct dsl_node *n);

int dsl_exec_block(struct dsl_interp *in, const struct dsl_node *n)
{
    for (size_t i = 0; i < n->nkids; i++) {
        int r = exec_stmt(in, n->kids[i]);
        if (r != DSL_X_OK) return r;
    }
    return DSL_X_OK;
}

int dsl_exec_body(struct dsl_interp *in, const struct dsl_node *def)
{
    const struct dsl_node *b = def->b;
    for (size_t i = def->doc; i < b->nkids; i++) {
        int r = exec_stmt(in, b->kids[i]);
        if (r != DSL_X_OK) return r;
    }
    return DSL_X_OK;
}

static int exec_expr(struct dsl_interp *in, const struct dsl_node *n)
{
    struct dsl_value v;
    if (dsl_eval_node(in, n->a, &v) != 0) return DSL_X_ERR;
    dsl_value_release(v);
    return DSL_X_OK;
}

/* ---- control flow ----------------------------------------------------------------------- */

static int exec_if(struct dsl_interp *in, const struct dsl_node *n)
{
    for (size_t i = 0; i + 1 < n->nkids; i += 2) {
        struct dsl_value c;
        if (dsl_eval_node(in, n->kids[i], &c) != 0) return DSL_X_ERR;
        bool t = false;
        int r = dsl_truth(in, c, &t);
        dsl_value_release(c);
        if (r != 0) return dsl_error_locate(in, n->kids[i]->pos), DSL_X_ERR;
        if (t) return dsl_exec_block(in, n->kids[i + 1]);
    }
    return n->b ? dsl_exec_block(in, n->b) : DSL_X_OK;
}

static int exec_while(struct dsl_interp *in, const struct dsl_node *n)
{
    for (;;) {
        if (dsl_check_cancel(in, n->pos) != 0) return DSL_X_ERR;
        struct dsl_value c;
        if (dsl_eval_node(in, n->a, &c) != 0) return DSL_X_ERR;
        bool t = false;
        int tr = dsl_truth(in, c, &t);
        dsl_value_release(c);
        if (tr != 0) return dsl_error_locate(in, n->a->pos), DSL_X_ERR;
        if (!t) return DSL_X_OK;
        int r = dsl_exec_block(in, n->b);
        if (r == DSL_X_ERR || r == DSL_X_RETURN) return r;
        if (r == DSL_X_BREAK) return DSL_X_OK;
    }
}

/* Runs the body of `for` loop n once: true to go on; false with the loop's status in *r (a
 * `break` ends it with DSL_X_OK). */
static inline bool for_pass(struct dsl_interp *in, const struct dsl_node *n, int *r)
{
    int x = dsl_exec_block(in, n->b);
    *r = x == DSL_X_ERR || x == DSL_X_RETURN ? x : DSL_X_OK;
    return x == DSL_X_OK || x == DSL_X_CONTINUE;
}

/* Stores item (owned) into the target of `for` loop n. A DSL_X_ status. */
static inline int for_store(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value item)
{
    if (!n->name) return dsl_assign_to(in, n->kids[0], item); /* for a, b in ...: unpacks */
    if (dsl_store_local(in, n, item)) return DSL_X_OK;
    if (dsl_bind_in(in, dsl_node_name(n), dsl_node_slot(in, n), item) != 0)
        return dsl_error_locate(in, n->pos), DSL_X_ERR;
    return DSL_X_OK;
}

/* `for` loop n over zip(...) (dsl_zip_loop_syntax), walked side by side: true with its status
 * in *status; false with the value to walk in *seq where the call was not Python's zip. Apart,
 * so that its iterators take no room in the frame of every other loop. */
static __attribute__((noinline)) bool exec_for_zip(struct dsl_interp *in, const struct dsl_node *n,
                                                   int *status, struct dsl_value *seq)
{
    struct dsl_zip_loop z;
    if (dsl_zip_loop_start(in, n->a, &z, seq) != 0) return *status = DSL_X_ERR, true;
    if (!z.n) return false;
    int r = DSL_X_OK;
    for (;;) {
        struct dsl_value row[DSL_ZIP_LOOP], tuple;
        if (dsl_check_cancel(in, n->pos) != 0) {
            r = DSL_X_ERR;
            break;
        }
        int got = dsl_zip_loop_next(in, &z, row, n->pos);
        if (got <= 0) {
            if (got < 0) r = DSL_X_ERR;
            break;
        }
        if (!n->name)
            r = dsl_zip_loop_assign(in, &z, n->kids[0], row);
        else
            r = dsl_zip_loop_tuple(in, &z, row, &tuple) != 0 ? DSL_X_ERR : for_store(in, n, tuple);
        if (r != DSL_X_OK) break;
        if (!for_pass(in, n, &r)) break;
    }
    dsl_zip_loop_end(&z);
    *status = r;
    return true;
}

static int exec_for(struct dsl_interp *in, const struct dsl_node *n)
{
    struct dsl_value seq;
    int r = DSL_X_OK;
    if (dsl_zip_loop_syntax(n->a)) {
        if (exec_for_zip(in, n, &r, &seq)) return r;
    } else if (dsl_eval_node(in, n->a, &seq) != 0) {
        return DSL_X_ERR;
    }
    struct dsl_iter it;
    if (dsl_iter_init(in, seq, &it) != 0) {
        dsl_error_locate(in, n->a->pos);
        r = DSL_X_ERR;
        goto done;
    }
    for (;;) {
        if (dsl_check_cancel(in, n->pos) != 0) {
            r = DSL_X_ERR;
            break;
        }
        struct dsl_value item;
        int got = dsl_iter_next(in, &it, &item);
        if (got <= 0) {
            if (got < 0) {
                dsl_error_locate(in, n->pos);
                r = DSL_X_ERR;
            }
            break;
        }
        if (for_store(in, n, item) != DSL_X_OK) {
            r = DSL_X_ERR;
            break;
        }
        if (!for_pass(in, n, &r)) break;
    }
    dsl_iter_end(&it);
done:
    dsl_value_release(seq);
    return r;
}

static int exec_break(struct dsl_interp *in, const struct dsl_node *n)
{
    (void)in;
    (void)n;
    return DSL_X_BREAK;
}

static int exec_continue(struct dsl_interp *in, const struct dsl_node *n)
{
    (void)in;
    (void)n;
    return DSL_X_CONTINUE;
}

/* The values of a generator's body outgrew a list (or memory) at a yield: said so, as the cause
 * is that the body runs to its end at the call, which a generator that never ends cannot. */
static int yields_refused(struct dsl_interp *in, int st)
{
    if (st != DSL_V_TOOBIG && st != DSL_V_NOMEM) return dsl_raise_status(in, st);
    const char *name = in->frame ? in->frame->fn->def->name : "?";
    size_t n = in->yields->len;
    const char *why = "here a generator's body runs to its end when the generator is called, "
                      "not one value per next(), so a generator that never ends is not supported";
    if (st == DSL_V_TOOBIG)
        return dsl_raise(in, "MemoryError", "generator %s() yielded more than %zu values: %s", name,
                         n, why);
    dsl_raise_status(in, st); /* memory's own message (the session's limit, how to raise it) */
    char *both = NULL;
    if (in->evalue && asprintf(&both, "%s (generator %s(), after %zu values: %s)", in->evalue, name,
                               n, why) > 0) {
        free(in->evalue);
        in->evalue = both;
    }
    return -1;
}

/* `yield v` and `yield from xs` in a generator's body, which runs to its end when the generator
 * is called (calls.c): the values are kept, in order, for the iterator it returns. */
static int exec_yield(struct dsl_interp *in, const struct dsl_node *n)
{
    struct dsl_value v = dsl_none();
    if (n->a && dsl_eval_node(in, n->a, &v) != 0) return DSL_X_ERR;
    struct dsl_list *out = in->yields;
    if (!n->flag) {
        int st = dsl_list_push(out, v);
        if (st != DSL_V_OK) return yields_refused(in, st), dsl_error_locate(in, n->pos), DSL_X_ERR;
        return DSL_X_OK;
    }
    struct dsl_iter it;
    bool started = dsl_iter_init(in, v, &it) == 0;
    int got = started ? 1 : -1;
    struct dsl_value item;
    while (got > 0 && (got = dsl_iter_next(in, &it, &item)) > 0) {
        int st = dsl_list_push(out, item);
        if (st != DSL_V_OK) got = yields_refused(in, st);
    }
    if (started) dsl_iter_end(&it);
    dsl_value_release(v);
    return got < 0 ? (dsl_error_locate(in, n->pos), DSL_X_ERR) : DSL_X_OK;
}

/* pass, and `name: annotation` without a value, which a class body records */
static int exec_pass(struct dsl_interp *in, const struct dsl_node *n)
{
    if (in->class_ns && n->name && n->value.kind == DSL_STR &&
        dsl_class_note_annotation(in, in->class_ns, n->name, n->value) != 0)
        return dsl_error_locate(in, n->pos), DSL_X_ERR;
    return DSL_X_OK;
}

static int exec_magic(struct dsl_interp *in, const struct dsl_node *n)
{
    return dsl_magic_run(in, n->name, n->value.as.s->data, n->pos, NULL) != 0 ? DSL_X_ERR
                                                                              : DSL_X_OK;
}

/* ---- def, class, return and assert ------------------------------------------------------ */

/* `def`: makes the function value, passes it through the decorators (bottom-up: the one
 * nearest the def first, as Python; each evaluated before the function is made) and binds its
 * name. */
static int exec_def(struct dsl_interp *in, const struct dsl_node *n)
{
    struct dsl_value small[DSL_SMALL_ARGS];
    struct dsl_value *decos = small;
    if (n->nkids > DSL_SMALL_ARGS && !(decos = malloc(n->nkids * sizeof *decos)))
        return dsl_raise_status(in, DSL_V_NOMEM), DSL_X_ERR;
    size_t done = 0;
    int r = DSL_X_ERR;
    struct dsl_value fv = dsl_none();
    for (; done < n->nkids; done++)
        if (dsl_eval_node(in, n->kids[done], &decos[done]) != 0) goto cleanup;
    if (dsl_make_function(in, n, &fv) != 0) goto cleanup;
    fv.as.fn_user->class_body = in->class_ns != NULL;
    for (size_t i = n->nkids; i-- > 0;) {
        struct dsl_value next;
        if (dsl_call(in, decos[i], &fv, 1, NULL, NULL, 0, &next) != 0) {
            dsl_error_locate(in, n->kids[i]->pos);
            goto cleanup;
        }
        dsl_value_release(fv);
        fv = next;
    }
    r = dsl_bind_var(in, n->name, fv);
    fv = dsl_none();
    if (r != 0) r = (dsl_error_locate(in, n->pos), DSL_X_ERR);
cleanup:
    dsl_value_release(fv);
    for (size_t i = 0; i < done; i++) dsl_value_release(decos[i]);
    if (decos != small) free(decos);
    return r;
}

/* The class of node n, its base evaluated, its body run with its names bound as the class's
 * attributes: 0 with it in *out, or -1. */
static int make_class(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value *out)
{
    struct dsl_value base = dsl_none(), cls;
    if (n->a && dsl_eval_node(in, n->a, &base) != 0) return -1;
    if (base.kind == DSL_OBJECT && base.as.obj->cls->erased_base) {
        dsl_value_release(base);
        base = dsl_none();
    }
    int r = dsl_class_new(in, n->name, base, &cls);
    dsl_value_release(base);
    if (r != 0) return dsl_error_locate(in, n->a ? n->a->pos : n->pos), -1;
    if (n->value.kind == DSL_STR &&
        dsl_attrs_set(&cls.as.cls->attrs, "__doc__", dsl_value_retain(n->value)) != 0) {
        dsl_value_release(cls);
        return dsl_raise_status(in, DSL_V_NOMEM), -1;
    }
    /* its module, as Python records it first in the class body: a package file's, or a cell's
     * __main__ */
    struct dsl_attrs *g = dsl_package_globals(in);
    struct dsl_value *file = g ? dsl_attrs_find(g, "__name__") : NULL, module;
    if (file && file->kind == DSL_STR)
        module = dsl_value_retain(*file);
    else if (dsl_str_value("__main__", 8, &module) != 0)
        module = dsl_none();
    if (module.kind == DSL_NONE || dsl_attrs_set(&cls.as.cls->attrs, "__module__", module) != 0) {
        dsl_value_release(cls);
        return dsl_raise_status(in, DSL_V_NOMEM), -1;
    }
    struct dsl_attrs *outer = in->class_ns;
    struct dsl_frame *locals = in->locals;
    in->class_ns = &cls.as.cls->attrs;
    in->locals = NULL;
    int x = dsl_exec_block(in, n->b);
    in->class_ns = outer;
    in->locals = locals;
    if (x == DSL_X_ERR) {
        dsl_value_release(cls);
        return -1;
    }
    dsl_class_adopt_methods(cls);
    *out = cls;
    return 0;
}

/* `class`: its decorators evaluated first, then the class made, then each decorator applied to
 * it (the innermost first, as in Python: @dataclass), then its name bound. */
static int exec_class(struct dsl_interp *in, const struct dsl_node *n)
{
    struct dsl_value small[DSL_SMALL_ARGS];
    struct dsl_value *decos = small;
    if (n->nkids > DSL_SMALL_ARGS && !(decos = malloc(n->nkids * sizeof *decos)))
        return dsl_raise_status(in, DSL_V_NOMEM), DSL_X_ERR;
    size_t done = 0;
    int r = DSL_X_ERR;
    struct dsl_value cls = dsl_none();
    for (; done < n->nkids; done++)
        if (dsl_eval_node(in, n->kids[done], &decos[done]) != 0) goto cleanup;
    if (make_class(in, n, &cls) != 0) goto cleanup;
    for (size_t i = n->nkids; i-- > 0;) {
        struct dsl_value next;
        if (dsl_call(in, decos[i], &cls, 1, NULL, NULL, 0, &next) != 0) {
            dsl_error_locate(in, n->kids[i]->pos);
            goto cleanup;
        }
        dsl_value_release(cls);
        cls = next;
    }
    r = dsl_bind_var(in, n->name, cls) != 0 ? (dsl_error_locate(in, n->pos), DSL_X_ERR) : DSL_X_OK;
    cls = dsl_none();
cleanup:
    dsl_value_release(cls);
    for (size_t i = 0; i < done; i++) dsl_value_release(decos[i]);
    if (decos != small) free(decos);
    return r;
}

/* nonlocal and global act when a def runs (analyse_function); at run time they do nothing. */
static int exec_decl(struct dsl_interp *in, const struct dsl_node *n)
{
    (void)in;
    (void)n;
    return DSL_X_OK;
}

static int exec_return(struct dsl_interp *in, const struct dsl_node *n)
{
    struct dsl_value v = dsl_none();
    if (n->a && dsl_eval_node(in, n->a, &v) != 0) return DSL_X_ERR;
    dsl_value_release(in->retval);
    in->retval = v;
    return DSL_X_RETURN;
}

/* assert cond[, msg]: AssertionError with msg's str, located at the keyword. */
static int exec_assert(struct dsl_interp *in, const struct dsl_node *n)
{
    struct dsl_value v;
    bool ok;
    if (dsl_eval_node(in, n->a, &v) != 0) return DSL_X_ERR;
    int r = dsl_truth(in, v, &ok);
    dsl_value_release(v);
    if (r != 0) return dsl_error_locate(in, n->a->pos), DSL_X_ERR;
    if (ok) return DSL_X_OK;
    if (!n->b) return dsl_raise_at(in, n->pos, "AssertionError", "%s", ""), DSL_X_ERR;
    if (dsl_eval_node(in, n->b, &v) != 0) return DSL_X_ERR;
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_REPR_BYTES);
    int st = dsl_value_str(&b, v);
    dsl_value_release(v);
    if (dsl_text_error_drop(in, st)) { /* as `raise` does (exceptions.c) */
        render_buf_free(&b);
        st = render_buf_puts(&b, DSL_STR_FAILED) == 0 ? DSL_V_OK : DSL_V_NOMEM;
    }
    if (st == DSL_V_OK)
        dsl_raise_at(in, n->pos, "AssertionError", "%s", render_buf_str(&b));
    else
        dsl_raise_status(in, st), dsl_error_locate(in, n->pos);
    render_buf_free(&b);
    return DSL_X_ERR;
}

/* ---- try and raise ---------------------------------------------------------------------- */

/* The except clauses of try node n, given the error its body raised: the first whose class
 * matches runs, with the error handled (no longer pending) and, for `as e`, bound to e until
 * the clause ends, as Python 3 does. No match: the error stays pending. */
static int run_handlers(struct dsl_interp *in, const struct dsl_node *n)
{
    struct dsl_exc_saved saved;
    dsl_exc_take(in, &saved);
    for (size_t i = 0; i < n->nkids && n->kids[i]->kind == DSL_N_EXCEPT; i++) {
        const struct dsl_node *h = n->kids[i];
        bool match = true;
        if (h->a) {
            /* evaluated with no error pending, so that an error of its own is raised */
            struct dsl_value cls;
            if (dsl_eval_node(in, h->a, &cls) != 0) goto replaced;
            int r = dsl_exc_matches(in, &saved, cls, &match);
            dsl_value_release(cls);
            if (r != 0) {
                dsl_error_locate(in, h->a->pos);
                goto replaced;
            }
        }
        if (!match) continue;
        dsl_exc_caught(&saved);
        if (h->name) {
            struct dsl_value e;
            if (dsl_exc_value(in, &saved, &e) != 0) goto replaced;
            if (dsl_bind_var(in, h->name, e) != 0) goto replaced;
        }
        const struct dsl_exc_saved *outer = in->handling;
        in->handling = &saved;
        int r = dsl_exec_block(in, h->b);
        in->handling = outer;
        if (h->name) dsl_unbind_var(in, h->name);
        dsl_exc_saved_free(&saved);
        return r;
    }
    dsl_exc_put(in, &saved);
    return DSL_X_ERR;
replaced: /* a new error, raised while looking for the clause, replaces the one caught */
    dsl_exc_saved_free(&saved);
    return DSL_X_ERR;
}

/* The finally block after the rest of the try ended with r: it runs whatever r is. When it
 * completes normally r stands (its error or return value kept aside meanwhile); a return,
 * break, continue or error of its own replaces r, as in Python. */
static int run_finally(struct dsl_interp *in, const struct dsl_node *fin, int r)
{
    struct dsl_exc_saved saved = {.exc = dsl_none()};
    if (r == DSL_X_ERR) dsl_exc_take(in, &saved);
    struct dsl_value ret = dsl_none();
    if (r == DSL_X_RETURN) {
        ret = in->retval;
        in->retval = dsl_none();
    }
    /* while an error goes through finally, a bare raise there raises it, as in Python */
    const struct dsl_exc_saved *outer = in->handling;
    if (r == DSL_X_ERR) in->handling = &saved;
    int f = dsl_exec_block(in, fin);
    in->handling = outer;
    if (f == DSL_X_OK) {
        if (r == DSL_X_ERR) dsl_exc_put(in, &saved);
        if (r == DSL_X_RETURN) in->retval = ret;
        return r;
    }
    dsl_exc_saved_free(&saved);
    dsl_value_release(ret);
    return f;
}

static int exec_try(struct dsl_interp *in, const struct dsl_node *n)
{
    int r = dsl_exec_block(in, n->a);
    const struct dsl_node *last = n->nkids ? n->kids[n->nkids - 1] : NULL;
    if (r == DSL_X_ERR && n->nkids)
        r = run_handlers(in, n);
    else if (r == DSL_X_OK && last && last->kind == DSL_N_BLOCK)
        r = dsl_exec_block(in, last);
    return n->b ? run_finally(in, n->b, r) : r;
}

/* with: the manager's __enter__ (its value to the `as` target), the body, then its __exit__
 * whatever the body did: with the error the body raised (type, value, None), whose truth says
 * whether the error is swallowed, or (None, None, None). An error of __exit__'s own replaces
 * the body's, as in Python. */
static int exec_with(struct dsl_interp *in, const struct dsl_node *n)
{
    struct dsl_value mgr, enter, leave, v;
    if (dsl_eval_node(in, n->a, &mgr) != 0) return DSL_X_ERR;
    if (mgr.kind != DSL_INSTANCE || !dsl_instance_method(mgr, "__enter__", &enter) ||
        !dsl_instance_method(mgr, "__exit__", &leave)) {
        dsl_raise_at(in, n->a->pos, "TypeError",
                     "'%s' object does not support the context manager protocol",
                     dsl_type_name(mgr));
        dsl_value_release(mgr);
        return DSL_X_ERR;
    }
    /* held: the methods are the class's, which __enter__ or the body may change */
    enter = dsl_value_retain(enter);
    leave = dsl_value_retain(leave);
    int r = dsl_call_method(in, enter, mgr, NULL, 0, NULL, NULL, 0, &v) != 0 ? DSL_X_ERR : DSL_X_OK;
    if (r == DSL_X_OK && n->nkids)
        r = dsl_assign_to(in, n->kids[0], v);
    else if (r == DSL_X_OK)
        dsl_value_release(v);
    if (r != DSL_X_OK) { /* __enter__ failed: no __exit__, as in Python */
        dsl_value_release(mgr);
        dsl_value_release(enter);
        dsl_value_release(leave);
        return DSL_X_ERR;
    }
    r = dsl_exec_block(in, n->b);
    struct dsl_value args[3] = {dsl_none(), dsl_none(), dsl_none()}, res, ret = dsl_none();
    struct dsl_exc_saved saved = {.exc = dsl_none()};
    int x = 0;
    bool swallow = false;
    if (r == DSL_X_RETURN) ret = in->retval, in->retval = dsl_none();
    if (r == DSL_X_ERR) {
        dsl_exc_take(in, &saved);
        x = dsl_exc_value(in, &saved, &args[1]); /* fails only without memory: that error */
        if (x == 0) args[0] = dsl_value_retain(dsl_type_of(args[1]));
    }
    if (x == 0) x = dsl_call_method(in, leave, mgr, args, 3, NULL, NULL, 0, &res);
    if (x == 0) {
        if (r == DSL_X_ERR) x = dsl_truth(in, res, &swallow);
        dsl_value_release(res);
    }
    for (int i = 0; i < 3; i++) dsl_value_release(args[i]);
    dsl_value_release(mgr);
    dsl_value_release(enter);
    dsl_value_release(leave);
    if (x != 0) { /* __exit__'s own error replaces the body's */
        dsl_exc_saved_free(&saved);
        dsl_value_release(ret);
        return DSL_X_ERR;
    }
    if (r == DSL_X_ERR && swallow) {
        dsl_exc_caught(&saved);
        dsl_exc_saved_free(&saved);
        return DSL_X_OK;
    }
    if (r == DSL_X_ERR) dsl_exc_put(in, &saved);
    if (r == DSL_X_RETURN) in->retval = ret;
    return r;
}

/* raise [e [from cause]]: the cause must be an exception, a class or None, as in Python, and is
 * not shown (no chained tracebacks). */
static int exec_raise(struct dsl_interp *in, const struct dsl_node *n)
{
    if (!n->a) return dsl_exc_reraise(in, n->pos), DSL_X_ERR;
    struct dsl_value e, cause = dsl_none();
    if (dsl_eval_node(in, n->a, &e) != 0) return DSL_X_ERR;
    if (n->b && dsl_eval_node(in, n->b, &cause) != 0) {
        dsl_value_release(e);
        return DSL_X_ERR;
    }
    if (cause.kind != DSL_NONE && !dsl_exc_raisable(cause))
        dsl_raise_at(in, n->b->pos, "TypeError", "exception causes must derive from BaseException");
    else
        dsl_exc_raise(in, e, n->pos);
    dsl_value_release(e);
    dsl_value_release(cause);
    return DSL_X_ERR;
}

/* ---- import, and the table -------------------------------------------------------------- */

/* `import m as x` and `from m import a as x`: the library knows the modules (library.h); each
 * name is bound as an assignment binds it, so an import inside a function makes a local. */
static int exec_import(struct dsl_interp *in, const struct dsl_node *n)
{
    struct dsl_value from = dsl_none();
    if (n->flag && n->name[0] == '.') { /* relative: a package's file imports its siblings */
        char *full;
        if (dsl_package_resolve(in, n->name, &full) != 0) return DSL_X_ERR;
        int got = dsl_module_import(in, full, &from);
        free(full);
        if (got != 0) return DSL_X_ERR;
    } else if (n->flag && dsl_module_import(in, n->name, &from) != 0) {
        return DSL_X_ERR;
    }
    int r = DSL_X_OK;
    for (size_t i = 0; i < n->nkw && r == DSL_X_OK; i++) {
        const struct dsl_node *var = n->kwvals[i];
        struct dsl_value v;
        int got = n->flag ? dsl_module_from(in, from, n->kwnames[i], &v)
                          : dsl_module_import(in, n->kwnames[i], &v);
        if (got == 0 && !n->flag && !var->flag && strchr(n->kwnames[i], '.')) {
            /* `import a.b` binds a, the package, once a.b is known to exist */
            dsl_value_release(v);
            got = dsl_module_import(in, var->name, &v);
        }
        if (got != 0)
            r = DSL_X_ERR, dsl_error_locate(in, var->pos);
        else if (dsl_bind_var(in, var->name, v) != 0)
            r = DSL_X_ERR, dsl_error_locate(in, var->pos);
    }
    dsl_value_release(from);
    return r;
}

static const exec_fn exec_table[DSL_N_COUNT] = {
    [DSL_N_BLOCK] = dsl_exec_block, [DSL_N_EXPR] = exec_expr,     [DSL_N_ASSIGN] = dsl_exec_assign,
    [DSL_N_AUG] = dsl_exec_aug,     [DSL_N_IF] = exec_if,         [DSL_N_WHILE] = exec_while,
    [DSL_N_FOR] = exec_for,         [DSL_N_BREAK] = exec_break,   [DSL_N_CONTINUE] = exec_continue,
    [DSL_N_PASS] = exec_pass,       [DSL_N_MAGIC] = exec_magic,   [DSL_N_DEF] = exec_def,
    [DSL_N_RETURN] = exec_return,   [DSL_N_ASSERT] = exec_assert, [DSL_N_CLASS] = exec_class,
    [DSL_N_NONLOCAL] = exec_decl,   [DSL_N_GLOBAL] = exec_decl,   [DSL_N_TRY] = exec_try,
    [DSL_N_RAISE] = exec_raise,     [DSL_N_DEL] = dsl_exec_del,   [DSL_N_IMPORT] = exec_import,
    [DSL_N_YIELD] = exec_yield,     [DSL_N_WITH] = exec_with,
};

static int exec_stmt(struct dsl_interp *in, const struct dsl_node *n)
{
    exec_fn fn = (unsigned)n->kind < DSL_N_COUNT ? exec_table[n->kind] : NULL;
    assert(fn && "not a statement node");
    if (!fn) return dsl_raise_at(in, n->pos, "SystemError", "internal error: not a statement");
    int r = fn(in, n);
    if (r == DSL_X_ERR) dsl_error_locate(in, n->pos);
    return r;
}

int dsl_run_block(struct dsl_interp *in, const struct dsl_node *block, struct dsl_value *result)
{
    if (result) *result = dsl_none();
    for (size_t i = 0; i < block->nkids; i++) {
        const struct dsl_node *s = block->kids[i];
        bool last = i + 1 == block->nkids;
        if (last && result && s->kind == DSL_N_MAGIC)
            return dsl_magic_run(in, s->name, s->value.as.s->data, s->pos, result) != 0 ? -1 : 0;
        if (last && result && s->kind == DSL_N_EXPR && !s->flag) {
            if (dsl_eval_node(in, s->a, result) != 0) {
                dsl_error_locate(in, s->pos);
                return -1;
            }
            return 0;
        }
        if (exec_stmt(in, s) == DSL_X_ERR) return -1;
    }
    return 0;
}
