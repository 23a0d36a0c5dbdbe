/* jit/call.c — calling an njit function: its arguments' types (jit_classify) pick or build a
 * specialisation, the compiled code runs with an error record (struct jit_env), and a failure
 * recorded there becomes the Python exception the interpreter would have raised. */
#include "lib/jit/internal.h"

/* ---- calls ------------------------------------------------------------------------------ */

int jit_runtime_error(struct dsl_interp *in, struct spec *s, const struct jit_env *e)
{
    int fn = (int)(e->where >> 40);
    size_t pos = (size_t)(e->where & ((1ll << 40) - 1));
    const struct dsl_function *f = fn < s->nfns ? s->fns[fn].as.fn_user : s->fns[0].as.fn_user;
    /* a race's two iterations (size and other), the earlier first */
    long long first = e->other < e->size ? e->other : e->size;
    long long second = e->other < e->size ? e->size : e->other;
    switch (e->kind) {
    case JIT_E_INDEX:
        return dsl_raise_in(in, f, pos, "IndexError",
                            "index %lld is out of bounds for %s of size %lld (compiled %s())",
                            (long long)e->index, e->what, (long long)e->size, f->def->name);
    case JIT_E_ZERO_DIV:
        return dsl_raise_in(in, f, pos, "ZeroDivisionError", "%s",
                            e->what && *e->what ? e->what : "division by zero");
    case JIT_E_RANGE_STEP:
        return dsl_raise_in(in, f, pos, "ValueError", "range() arg 3 must not be zero");
    case JIT_E_INT_NAN:
        return dsl_raise_in(in, f, pos, "ValueError", "cannot convert float nan to integer");
    case JIT_E_OVERFLOW: return dsl_raise_in(in, f, pos, "OverflowError", "%s", e->what);
    case JIT_E_VALUE: return dsl_raise_in(in, f, pos, "ValueError", "%s", e->what);
    case JIT_E_ASSERT: return dsl_raise_in(in, f, pos, "AssertionError", "%s", e->what);
    case JIT_E_UNPACK: /* CPython's words */
        return e->index > e->size
                   ? dsl_raise_in(in, f, pos, "ValueError",
                                  "too many values to unpack (expected %lld)", (long long)e->size)
                   : dsl_raise_in(in, f, pos, "ValueError",
                                  "not enough values to unpack (expected %lld, got %lld)",
                                  (long long)e->size, (long long)e->index);
    case JIT_E_RACE_WRITE:
        return dsl_raise_in(in, f, pos, "RuntimeError",
                            "iterations %lld and %lld of the prange loop both wrote %s[%lld] "
                            "(compiled %s()): they run at once on their own threads, so which "
                            "value stays is chance (a race). Give each iteration elements of "
                            "its own",
                            first, second, e->what, (long long)e->index, f->def->name);
    case JIT_E_RACE_READ:
        if (e->other < 0)
            return dsl_raise_in(in, f, pos, "RuntimeError",
                                "iteration %lld of the prange loop wrote %s[%lld], which other "
                                "iterations read (compiled %s()): they run at once on their own "
                                "threads, so whether they read the value before or after is "
                                "chance (a race). Read only elements the loop does not write, "
                                "or the iteration's own",
                                (long long)e->size, e->what, (long long)e->index, f->def->name);
        return dsl_raise_in(in, f, pos, "RuntimeError",
                            "iterations %lld and %lld of the prange loop both reach %s[%lld], "
                            "one writing it, the other reading it (compiled %s()): they run at "
                            "once on their own threads, so whether the read comes before or "
                            "after the write is chance (a race). Read only elements the loop "
                            "does not write, or the iteration's own",
                            first, second, e->what, (long long)e->index, f->def->name);
    case JIT_E_BROADCAST:
        return dsl_raise_in(in, f, pos, "ValueError",
                            "operands could not be broadcast together with shapes (%lld,) (%lld,)",
                            (long long)e->index, (long long)e->size);
    case JIT_E_MATH_DOMAIN: return dsl_raise_in(in, f, pos, "ValueError", "math domain error");
    case JIT_E_NEG_POWER:
        return dsl_raise_in(
            in, f, pos, "ValueError",
            "an int to the power %lld in compiled code: a kernel's int ** int is an "
            "int, as Numba's; write a float (2.0 ** x) for a negative power",
            (long long)e->index);
    case JIT_E_MATH_RANGE: return dsl_raise_in(in, f, pos, "OverflowError", "math range error");
    case JIT_E_INT_OVERFLOW:
        return dsl_raise_in(in, f, pos, "OverflowError",
                            "integer overflow in '%s': the result does not fit in 64 bits",
                            e->what);
    default: return dsl_raise(in, "KeyboardInterrupt", "interrupted");
    }
}

/* f's compiled code ran in this cell: f first in the session's list of those that ran last. */
void jit_recent(struct dsl_session *ses, struct dsl_function *f)
{
    struct dsl_value v = {.kind = DSL_FUNCTION, .as.fn_user = f};
    int n = ses->jit_nrecent, k = 0;
    while (k < n && ses->jit_recent[k].as.fn_user != f) k++;
    if (k == n) { /* not there: it comes in, the oldest goes when the list is full */
        if (n == (int)(sizeof ses->jit_recent / sizeof *ses->jit_recent)) {
            dsl_value_release(ses->jit_recent[--n]);
            k = n;
        }
        v = dsl_value_retain(v);
        ses->jit_nrecent = n + 1;
    } else {
        v = ses->jit_recent[k];
    }
    memmove(&ses->jit_recent[1], &ses->jit_recent[0], (size_t)k * sizeof *ses->jit_recent);
    memmove(&ses->jit_recent_cell[1], &ses->jit_recent_cell[0],
            (size_t)k * sizeof *ses->jit_recent_cell);
    ses->jit_recent[0] = v;
    ses->jit_recent_cell[0] = ses->cells_run;
}

void dsl_jit_forget(struct dsl_session *s)
{
    for (int i = 0; i < s->jit_nrecent; i++) dsl_value_release(s->jit_recent[i]);
    s->jit_nrecent = 0;
}

/* Records on f that a call runs in the interpreter because its argument i, v, is of a kind the
 * compiler does not take. Without memory for the record the call still runs: only the
 * diagnostics lose it. */
static void note_interp_call(struct dsl_function *f, int i, struct dsl_value v)
{
    if (!f->jits && !(f->jits = calloc(1, sizeof *f->jits))) return;
    struct dsl_jit_cache *c = f->jits;
    if (c->interp_calls++) return;
    c->interp_arg = i;
    if (dsl_is_ndarray(v))
        snprintf(c->interp_kind, sizeof c->interp_kind, "numpy.ndarray of %s",
                 dsl_dtype_name((enum dsl_dtype)v.as.l->dtype));
    else
        snprintf(c->interp_kind, sizeof c->interp_kind, "%s", dsl_type_name(v));
}

int dsl_jit_call(struct dsl_interp *in, struct dsl_function *f, const struct dsl_value *pos,
                 size_t npos, char *const *kwnames, const struct dsl_value *kwvals, size_t nkw,
                 struct dsl_value *out)
{
    (void)kwnames;
    (void)kwvals;
    if (nkw || npos > MAX_ARGS || npos != f->def->nargs || f->def->nkw != npos) return 1;
    union slot slots[MAX_ARGS + 1];
    void *ptrs[MAX_ARGS + 1];
    void *heap[MAX_ARGS] = {0};
    enum jt types[MAX_ARGS];
    int r = 1;
    for (size_t i = 0; i < npos; i++) {
        types[i] = jit_classify(pos[i], &slots[i], &heap[i]);
        ptrs[i] = &slots[i];
        if (types[i] == JT_NONE) {
            note_interp_call(f, (int)i, pos[i]);
            goto done;
        }
    }
    jit_share_copies(pos, types, slots, heap, npos);
    ptrs[npos] = &slots[npos];
    if (!f->jits && !(f->jits = calloc(1, sizeof *f->jits))) {
        r = dsl_raise_status(in, DSL_V_NOMEM);
        goto done;
    }
    struct spec *s = f->jits->specs;
    while (s && (s->nargs != (int)npos || memcmp(s->args, types, npos * sizeof *types) != 0))
        s = s->next;
    if (s && s->job) jit_upgrade(s);
    if (!s) {
        if (!(s = calloc(1, sizeof *s))) {
            r = dsl_raise_status(in, DSL_V_NOMEM);
            goto done;
        }
        s->nargs = (int)npos;
        memcpy(s->args, types, npos * sizeof *types);
        if (jit_build(in, f, s) != 0) {
            jit_spec_free(s); /* not kept: the race is raised at every call */
            r = -1;
            goto done;
        }
        struct spec **end = &f->jits->specs; /* kept in the order first called */
        while (*end) end = &(*end)->next;
        *end = s;
    }
    if (!s->entry) goto done; /* runs in the interpreter */
    struct jit_env e = {.threads = mt_ctx_threads(in->session->ctx), .stop = mt_cancel_flag()};
    int64_t *shadow[MAX_ARGS] = {0}; /* each recorded storage's writers, none yet */
    for (size_t i = 0; i < npos; i++)
        if (floats(types[i]) && ((f->jit_races && s->wrote[i]) || s->racy[i])) {
            shadow[i] = malloc(2 * (size_t)slots[i].f.n * sizeof **shadow + 1);
            if (!shadow[i]) {
                for (size_t j = 0; j < i; j++) free(shadow[j]);
                r = dsl_raise_size(in, "the record of each element's writer and reader",
                                   2 * (uint64_t)slots[i].f.n * sizeof **shadow);
                goto done;
            }
            memset(shadow[i], 0xff, 2 * (size_t)slots[i].f.n * sizeof **shadow); /* -1: none */
        }
    e.shadow = shadow;
    int64_t t0 = mt_now_ns();
    s->entry(ptrs, &e);
    for (size_t i = 0; i < npos; i++) free(shadow[i]);
    s->last_ns = mt_now_ns() - t0;
    s->last_first = s->ran_entry != s->entry;
    s->ran_entry = s->entry;
    if (s->later_text) jit_start_later(s);
    s->last_threads = s->quick && !s->plain ? 1 : e.threads;
    jit_recent(in->session, f);
    struct dsl_student_op op;
    if (dsl_student_op_keep(in, &op) && (s->op || (s->op = malloc(sizeof *s->op)))) {
        *s->op = op;
    } else {
        free(s->op);
        s->op = NULL;
    }
    s->last_bytes = 0;
    for (size_t i = 0; i < npos; i++)
        if (floats(types[i])) s->last_bytes += (double)slots[i].f.n * jit_elem_size(types[i]);
    for (size_t i = 0; i < npos; i++) { /* backward sees the storages the kernel wrote */
        struct mt_tensor *view;
        if (types[i] == JT_FARR && s->wrote[i] && dsl_storage_view(pos[i], &view))
            mt_tensor_mark_written(view);
    }
    for (size_t i = 0; i < npos; i++) jit_write_back(pos[i], types[i], &slots[i], s->wrote[i]);
    if (e.failed) {
        r = jit_runtime_error(in, s, &e);
        goto done;
    }
    *out = s->ret == JT_FLOAT  ? dsl_float(slots[npos].x)
           : s->ret == JT_INT  ? dsl_int(slots[npos].n)
           : s->ret == JT_BOOL ? dsl_bool(slots[npos].n != 0)
                               : dsl_none();
    r = 0;
done:
    for (size_t i = 0; i < npos; i++) free(heap[i]);
    return r;
}
