/* student.c — MiniTorch's TensorBackend(ops) for a class of ops a student wrote.
 *
 * Module 3's homework is a class deriving from minitorch.TensorOps whose static methods make the
 * backend's kernels: map(fn) and zip(fn) give a function of tensors, reduce(fn, start) one of a
 * tensor and a dim, matrix_multiply(a, b) is one. TensorBackend(ops) makes that class the
 * session's student backend (the engine's `student`, engine/src/student.c): every op on a tensor
 * there, autodiff's and train()'s included, calls the student's functions, as MiniTorch's
 * Tensor does. As in MiniTorch the functions are made from the class once per op (map(neg),
 * zip(add), reduce(add, 0.0), ...), but at the op's first use rather than all at once, so that
 * a class with only map written already runs maps. The scalar functions handed to map, zip and
 * reduce are the engine's own (float32, as every backend computes them), so that a correct
 * student backend gives simple's values exactly.
 *
 * A later TensorBackend(ops) gives the student backend its new class: re-running a notebook's
 * cell after fixing a kernel makes the fix the one that runs. */
#include "lib/student.h"

#include "lang/classes.h"
#include "lang/interp.h"
#include "lib/jit.h"
#include "lib/modules.h"
#include "lib/tensor_methods.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the scalar functions the student's ops are made from -------------------------------- */

static int scalar_arg(struct dsl_interp *in, const struct dsl_args *a, int i, const char *fn,
                      float *x)
{
    if (!dsl_is_number(a->slot[i]))
        return dsl_raise(in, "TypeError", "%s() takes numbers, not %s", fn,
                         dsl_type_name(a->slot[i]));
    *x = (float)dsl_as_double(a->slot[i]);
    return 0;
}

static int map_scalar(struct dsl_interp *in, const struct dsl_args *a, enum mt_map_op op,
                      struct dsl_value *ret)
{
    float x = 0.0f;
    if (scalar_arg(in, a, 0, mt_map_name(op), &x) != 0) return -1;
    *ret = dsl_float((double)mt_map_scalar(op, x));
    return 0;
}

static int zip_scalar(struct dsl_interp *in, const struct dsl_args *a, enum mt_zip_op op,
                      struct dsl_value *ret)
{
    float x = 0.0f, y = 0.0f;
    if (scalar_arg(in, a, 0, mt_zip_name(op), &x) != 0 ||
        scalar_arg(in, a, 1, mt_zip_name(op), &y) != 0)
        return -1;
    *ret = dsl_float((double)mt_zip_scalar(op, x, y));
    return 0;
}

#define MAP_FN(name, op)                                                                           \
    static int s_##name(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)    \
    {                                                                                              \
        return map_scalar(in, a, op, ret);                                                         \
    }
#define ZIP_FN(name, op)                                                                           \
    static int s_##name(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)    \
    {                                                                                              \
        return zip_scalar(in, a, op, ret);                                                         \
    }
MAP_FN(neg, MT_MAP_NEG)
MAP_FN(id, MT_MAP_ID)
MAP_FN(inv, MT_MAP_INV)
MAP_FN(relu, MT_MAP_RELU)
MAP_FN(sigmoid, MT_MAP_SIGMOID)
MAP_FN(log, MT_MAP_LOG)
MAP_FN(exp, MT_MAP_EXP)
MAP_FN(abs, MT_MAP_ABS)
MAP_FN(sqrt, MT_MAP_SQRT)
MAP_FN(tanh, MT_MAP_TANH)
ZIP_FN(add, MT_ZIP_ADD)
ZIP_FN(sub, MT_ZIP_SUB)
ZIP_FN(mul, MT_ZIP_MUL)
ZIP_FN(div, MT_ZIP_DIV)
ZIP_FN(lt, MT_ZIP_LT)
ZIP_FN(gt, MT_ZIP_GT)
ZIP_FN(eq, MT_ZIP_EQ)
ZIP_FN(is_close, MT_ZIP_IS_CLOSE)
ZIP_FN(max, MT_ZIP_MAX)
ZIP_FN(relu_back, MT_ZIP_RELU_BACK)
ZIP_FN(log_back, MT_ZIP_LOG_BACK)
ZIP_FN(inv_back, MT_ZIP_INV_BACK)

#define SCALAR_DOC                                                                                 \
    "The engine's scalar function of this name, in float32, as every backend applies it (log "     \
    "is ln(x), without operators.log's 1e-6): what the student backend makes its ops from."
#define ROW1(name)                                                                                 \
    {                                                                                              \
#name, #name "(x)", 1, 1, NULL, s_##name, SCALAR_DOC                                       \
    }
#define ROW2(name)                                                                                 \
    {                                                                                              \
#name, #name "(x, y)", 2, 2, NULL, s_##name, SCALAR_DOC                                    \
    }
static const struct dsl_builtin map_rows[MT_MAP_COUNT] = {
    [MT_MAP_NEG] = ROW1(neg),   [MT_MAP_ID] = ROW1(id),           [MT_MAP_INV] = ROW1(inv),
    [MT_MAP_RELU] = ROW1(relu), [MT_MAP_SIGMOID] = ROW1(sigmoid), [MT_MAP_LOG] = ROW1(log),
    [MT_MAP_EXP] = ROW1(exp),   [MT_MAP_ABS] = ROW1(abs),         [MT_MAP_SQRT] = ROW1(sqrt),
    [MT_MAP_TANH] = ROW1(tanh),
};
static const struct dsl_builtin zip_rows[MT_ZIP_COUNT] = {
    [MT_ZIP_ADD] = ROW2(add),
    [MT_ZIP_SUB] = ROW2(sub),
    [MT_ZIP_MUL] = ROW2(mul),
    [MT_ZIP_DIV] = ROW2(div),
    [MT_ZIP_LT] = ROW2(lt),
    [MT_ZIP_GT] = ROW2(gt),
    [MT_ZIP_EQ] = ROW2(eq),
    [MT_ZIP_IS_CLOSE] = ROW2(is_close),
    [MT_ZIP_MAX] = ROW2(max),
    [MT_ZIP_RELU_BACK] = ROW2(relu_back),
    [MT_ZIP_LOG_BACK] = ROW2(log_back),
    [MT_ZIP_INV_BACK] = ROW2(inv_back),
};
/* A reduction folds with a zip's function from its start value (mean: a sum, divided by the
 * engine). */
static const enum mt_zip_op reduce_step[MT_RED_COUNT] = {
    [MT_RED_SUM] = MT_ZIP_ADD,
    [MT_RED_PROD] = MT_ZIP_MUL,
    [MT_RED_MAX] = MT_ZIP_MAX,
    [MT_RED_MEAN] = MT_ZIP_ADD,
};

bool dsl_student_scalar(const struct dsl_builtin *row, int *nargs, int *op)
{
    if (row >= map_rows && row < map_rows + MT_MAP_COUNT) {
        *nargs = 1;
        *op = (int)(row - map_rows);
        return true;
    }
    if (row >= zip_rows && row < zip_rows + MT_ZIP_COUNT) {
        *nargs = 2;
        *op = (int)(row - zip_rows);
        return true;
    }
    return false;
}

static struct dsl_value row_value(const struct dsl_builtin *row)
{
    return (struct dsl_value){.kind = DSL_BUILTIN, .as.fn = row};
}

/* ---- the session's class of ops, and what it made ---------------------------------------- */

enum {
    SLOT_MAP = 0,
    SLOT_ZIP = MT_MAP_COUNT,
    SLOT_REDUCE = SLOT_ZIP + MT_ZIP_COUNT,
    SLOT_MATMUL = SLOT_REDUCE + MT_RED_COUNT
};
_Static_assert(SLOT_MATMUL + 1 == DSL_STUDENT_FNS, "one slot per op");

static void forget_fns(struct dsl_session *s)
{
    for (int i = 0; i < DSL_STUDENT_FNS; i++) {
        dsl_value_release(s->student_fns[i]);
        s->student_fns[i] = dsl_none();
    }
}

void dsl_student_forget(struct dsl_session *s)
{
    forget_fns(s);
    dsl_value_release(s->student_ops);
    s->student_ops = dsl_none();
    mt_ctx_set_student(s->ctx, NULL, NULL);
}

static const char *ops_name(const struct dsl_session *s) { return s->student_ops.as.cls->name; }

const char *dsl_student_label(struct dsl_interp *in, char *buf, size_t n)
{
    struct dsl_session *s = in->session;
    if (s->student_ops.kind != DSL_CLASS) {
        snprintf(buf, n, "student");
        return buf;
    }
    const struct dsl_value *cuda = dsl_attrs_find(&s->student_ops.as.cls->attrs, "cuda");
    if (cuda && dsl_value_truthy(*cuda))
        snprintf(buf, n, "student (%s, %s)", ops_name(s),
                 dsl_cuda_simulating(s->ctx) ? "simulated" : "GPU");
    else
        snprintf(buf, n, "student (%s)", ops_name(s));
    return buf;
}

/* The class's `method`: NotImplementedError when only TensorOps names it (the student has not
 * written it yet), saying which op needed it. */
static int ops_method(struct dsl_interp *in, const char *method, const char *need,
                      struct dsl_value *out)
{
    struct dsl_session *s = in->session;
    if (dsl_getattr(in, s->student_ops, method, out) != 0) return -1;
    enum mt_backend be;
    if (out->kind == DSL_BUILTIN && dsl_ops_class_backend(s->student_ops.as.cls, &be) &&
        mt_backend_is_host(be)) {
        /* a class deriving from minitorch.FastOps (or SimpleOps) inherits its kernels: the op
         * runs on that backend (see inherited) */
        dsl_value_release(*out);
        *out = dsl_int((int64_t)be);
        return 0;
    }
    if (out->kind == DSL_BUILTIN) { /* TensorOps's own: nothing to run */
        dsl_value_release(*out);
        return dsl_raise(in, "NotImplementedError",
                         "%s.%s is not written yet: the student backend's %s needs it (write it "
                         "as a @staticmethod of %s, then run TensorBackend(%s) again)",
                         ops_name(s), method, need, ops_name(s), ops_name(s));
    }
    return 0;
}

/* The function the class made for slot `slot` (made now at its first use): map(fn) and zip(fn)
 * from the op's scalar function, reduce(fn, start), or matrix_multiply itself. A new reference:
 * the student's code may give the backend a new class while it runs. */
static int made(struct dsl_interp *in, int slot, struct dsl_value *out)
{
    struct dsl_session *s = in->session;
    struct dsl_value *have = &s->student_fns[slot];
    if (have->kind != DSL_NONE) {
        *out = dsl_value_retain(*have);
        return 0;
    }
    char need[64];
    const char *method;
    struct dsl_value args[2] = {dsl_none(), dsl_none()}; /* none for matrix_multiply */
    size_t nargs = 1;
    if (slot < SLOT_ZIP) {
        method = "map";
        args[0] = row_value(&map_rows[slot - SLOT_MAP]);
    } else if (slot < SLOT_REDUCE) {
        method = "zip";
        args[0] = row_value(&zip_rows[slot - SLOT_ZIP]);
    } else if (slot < SLOT_MATMUL) {
        enum mt_reduce_op op = (enum mt_reduce_op)(slot - SLOT_REDUCE);
        method = "reduce";
        args[0] = row_value(&zip_rows[reduce_step[op]]);
        args[1] = dsl_float((double)mt_reduce_start_value(op));
        nargs = 2;
    } else {
        method = "matrix_multiply";
    }
    if (slot == SLOT_MATMUL)
        snprintf(need, sizeof need, "matmul");
    else if (nargs == 2)
        snprintf(need, sizeof need, "%s(%s, %g)", method, args[0].as.fn->name, args[1].as.f);
    else
        snprintf(need, sizeof need, "%s(%s)", method, args[0].as.fn->name);
    struct dsl_value m;
    if (ops_method(in, method, need, &m) != 0) return -1;
    if (slot == SLOT_MATMUL || m.kind == DSL_INT) {
        *have = m;
    } else {
        int st = dsl_call(in, m, args, nargs, NULL, NULL, 0, have);
        dsl_value_release(m);
        if (st != 0) return -1;
    }
    *out = dsl_value_retain(*have);
    return 0;
}

/* The ops run so far on the kernel's own backends (all but the student's). */
static uint64_t builtin_ops(const struct mt_ctx *ctx)
{
    uint64_t n = 0;
    for (int b = 0; b < MT_BACKEND_COUNT; b++)
        if (b != MT_BACKEND_STUDENT) n += mt_ctx_ops_run(ctx, (enum mt_backend)b);
    return n;
}

/* The running cell of session user, where the hooks run the student's code. */
static struct dsl_interp *running(void *user)
{
    struct dsl_interp *in = dsl_running;
    return in && in->session == user && in->session->student_ops.kind == DSL_CLASS ? in : NULL;
}

/* Calls the function of slot with args (owned, released here) and puts what it gave into out
 * (the engine's fresh contiguous output): a tensor of out's shape, or out itself (None too when
 * out was among the arguments, as a map's is). */
static enum mt_status run(struct dsl_interp *in, int slot, struct mt_tensor *out,
                          struct dsl_value *args, size_t n, bool out_passed,
                          const struct dsl_student_op *op)
{
    const char *what = op->what;
    struct dsl_value fn, r = dsl_none();
    struct dsl_session *ses = in->session;
    uint64_t builtin = builtin_ops(ses->ctx), inherited = ses->inherited_ops;
    bool graded = ses->grading & 1u << op->kind;
    int st = made(in, slot, &fn);
    if (st == 0) {
        const struct dsl_student_op *was = in->session->student_op;
        in->session->student_op = op;
        ses->graded_ops += graded;
        st = dsl_call(in, fn, args, n, NULL, NULL, 0, &r);
        ses->graded_ops -= graded;
        in->session->student_op = was;
        dsl_value_release(fn);
    }
    for (size_t i = 0; i < n; i++) dsl_value_release(args[i]);
    /* graded, the op is the student's kernels' work: their code ran no op of the kernel's own
     * backends (those the backend ran for the ops the class inherits aside) */
    if (st == 0 && graded && builtin_ops(ses->ctx) - builtin != ses->inherited_ops - inherited) {
        dsl_raise(in, "RuntimeError",
                  "%s.%.*s ran ops on a backend of the kernel's own (fast, simple or cuda): "
                  "check grades your kernels, so they must compute the op",
                  ops_name(ses), (int)strcspn(what, "("), what);
        st = -1;
    }
    if (st != 0) {
        dsl_value_release(r);
        return MT_ERR_BACKEND;
    }
    enum mt_status es = MT_OK;
    if (r.kind == DSL_NONE && out_passed) {
        /* written into out */
    } else if (r.kind != DSL_TENSOR) {
        dsl_raise(in, "TypeError", "the student backend's %s (from %s) gave %s, not a tensor", what,
                  ops_name(in->session), dsl_type_name(r));
        es = MT_ERR_BACKEND;
    } else if (r.as.t != out) {
        const struct mt_tensor *g = r.as.t;
        if (g->ndim != out->ndim ||
            memcmp(g->shape, out->shape, sizeof *g->shape * (size_t)g->ndim) != 0) {
            char a[160], b[160];
            /* MiniTorch's CudaOps.reduce: one partial result per 1024 values of the dim */
            int partial = -1;
            for (int d = 0; d < g->ndim && g->ndim == out->ndim && strncmp(what, "reduce", 6) == 0;
                 d++)
                if (g->shape[d] != out->shape[d])
                    partial = partial == -1 && out->shape[d] == 1 && g->shape[d] > 1 ? d : -2;
            dsl_raise(in, "ValueError",
                      "the student backend's %s (from %s) gave a tensor of shape %s where the "
                      "op's output has shape %s%s",
                      what, ops_name(in->session), mt_shape_str(g->ndim, g->shape, a, sizeof a),
                      mt_shape_str(out->ndim, out->shape, b, sizeof b),
                      partial >= 0 ? ": one value per block of the dim, as MiniTorch's "
                                     "CudaOps.reduce leaves a dim longer than a block of 1024 "
                                     "threads (out_shape[dim] = (n - 1) // 1024 + 1). Reduce "
                                     "dims of at most 1024 values, or reduce the partial results "
                                     "again in your reduce"
                                   : "");
            es = MT_ERR_BACKEND;
        } else if ((es = mt_tensor_copy_out(g, mt_tensor_data(out))) != MT_OK) {
            dsl_engine_raise(in, es);
        }
    }
    dsl_value_release(r);
    return es;
}

/* Whether the op of slot is inherited from one of the kernel's ops classes: 1 with its backend
 * in *be, 0 when the student's class writes it, -1 after raising. */
static int inherited(struct dsl_interp *in, int slot, enum mt_backend *be)
{
    struct dsl_value fn;
    if (made(in, slot, &fn) != 0) return -1;
    int r = fn.kind == DSL_INT;
    if (r) *be = (enum mt_backend)fn.as.i;
    dsl_value_release(fn);
    return r;
}

/* The views of out and the inputs on backend be (sharing their memory), for the built-in op. */
static enum mt_status on(struct mt_ctx *ctx, enum mt_backend be, struct mt_tensor **t, int n)
{
    enum mt_status st = MT_OK;
    for (int i = 0; i < n; i++) {
        struct mt_tensor *v = NULL;
        if (st == MT_OK) st = mt_to(ctx, t[i], be, &v);
        t[i] = v;
    }
    return st;
}

static void release_all(struct mt_tensor **t, int n)
{
    for (int i = 0; i < n; i++) mt_tensor_release(t[i]);
}

/* The record of an op of kind on inputs a and b (NULL for one input). */
static void op_record(struct dsl_student_op *o, int kind, int op, int dim,
                      const struct mt_tensor *a, const struct mt_tensor *b)
{
    memset(o, 0, sizeof *o);
    o->kind = kind;
    o->op = op;
    o->dim = dim;
    const char *name = kind == DSL_SOP_MAP      ? mt_map_name((enum mt_map_op)op)
                       : kind == DSL_SOP_ZIP    ? mt_zip_name((enum mt_zip_op)op)
                       : kind == DSL_SOP_REDUCE ? mt_reduce_name((enum mt_reduce_op)op)
                                                : NULL;
    static const char *const kinds[] = {"map", "zip", "reduce", "matrix_multiply"};
    if (name)
        snprintf(o->what, sizeof o->what, "%s(%s)", kinds[kind], name);
    else
        snprintf(o->what, sizeof o->what, "%s", kinds[kind]);
    const struct mt_tensor *in[2] = {a, b};
    for (int i = 0; i < 2 && in[i]; i++) {
        o->nin = i + 1;
        o->ndim[i] = in[i]->ndim;
        memcpy(o->shape[i], in[i]->shape, sizeof *in[i]->shape * (size_t)in[i]->ndim);
        memcpy(o->strides[i], in[i]->strides, sizeof *in[i]->strides * (size_t)in[i]->ndim);
    }
}

bool dsl_student_op_keep(const struct dsl_interp *in, struct dsl_student_op *o)
{
    if (!in->session->student_op) return false;
    *o = *in->session->student_op;
    return true;
}

/* A zero-filled fast tensor with i's shape and strides, in *t: a view of a storage as large as
 * the strides reach. */
static enum mt_status strided_zeros(struct mt_ctx *ctx, const struct dsl_student_op *o, int i,
                                    struct mt_tensor **t)
{
    int64_t extent = 1;
    for (int d = 0; d < o->ndim[i]; d++)
        if (o->shape[i][d] == 0)
            extent = 0;
        else if (extent)
            extent += (o->shape[i][d] - 1) * o->strides[i][d];
    struct mt_tensor *base = NULL;
    int64_t n = extent ? extent : 1;
    enum mt_status st = mt_zeros(ctx, MT_BACKEND_FAST, 1, &n, &base);
    if (st == MT_OK) st = mt_as_strided(ctx, base, o->ndim[i], o->shape[i], o->strides[i], 0, t);
    mt_tensor_release(base);
    return st;
}

static int cmp_ns(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The built-in op of kind (DSL_SOP_*) on a (and b), into *out (NULL: a new tensor). */
static enum mt_status builtin_op(struct mt_ctx *ctx, int kind, int op, int dim,
                                 const struct mt_tensor *a, const struct mt_tensor *b,
                                 struct mt_tensor **out)
{
    switch (kind) {
    case DSL_SOP_MAP: return mt_map(ctx, (enum mt_map_op)op, a, out);
    case DSL_SOP_ZIP: return mt_zip(ctx, (enum mt_zip_op)op, a, b, out);
    case DSL_SOP_REDUCE: return mt_reduce(ctx, (enum mt_reduce_op)op, a, dim, out);
    default: return mt_matmul_raw(ctx, a, b, out);
    }
}

double dsl_student_op_builtin_ns(struct mt_ctx *ctx, const struct dsl_student_op *o)
{
    /* these runs are not the student's: no %diagnostics rows for them */
    mt_diag_fn diag;
    void *diag_user;
    mt_ctx_diag(ctx, &diag, &diag_user);
    mt_ctx_set_diag(ctx, NULL, NULL);
    struct mt_tensor *x[2] = {NULL, NULL};
    enum mt_status st = MT_OK;
    for (int i = 0; i < o->nin && st == MT_OK; i++) st = strided_zeros(ctx, o, i, &x[i]);
    int64_t ns[6];
    for (int k = 0; k < 6 && st == MT_OK; k++) {
        struct mt_tensor *out = NULL;
        int64_t t0 = mt_now_ns();
        st = builtin_op(ctx, o->kind, o->op, o->dim, x[0], x[1], &out);
        ns[k] = mt_now_ns() - t0;
        mt_tensor_release(out);
    }
    release_all(x, 2);
    mt_ctx_set_diag(ctx, diag, diag_user);
    if (st != MT_OK) return -1;
    qsort(ns + 1, 5, sizeof *ns, cmp_ns); /* the first run warms the caches, untimed */
    return (double)ns[3];
}

/* An engine op on the student backend: the built-in op of the backend the student's class
 * inherits it from, or the function the class's map, zip, reduce or matrix_multiply made (a
 * map is handed out to write into; the others give their result). */
static enum mt_status hook(void *user, struct mt_ctx *ctx, int kind, int op, int dim,
                           struct mt_tensor *out, struct mt_tensor *a, struct mt_tensor *b)
{
    static const int first_slot[] = {SLOT_MAP, SLOT_ZIP, SLOT_REDUCE, SLOT_MATMUL};
    int slot = first_slot[kind] + op;
    struct dsl_interp *in = running(user);
    if (!in) return MT_ERR_BACKEND;
    enum mt_backend be;
    int own = inherited(in, slot, &be);
    if (own < 0) return MT_ERR_BACKEND;
    static const char *const method[] = {"map", "zip", "reduce", "matrix_multiply"};
    if (own && (in->session->grading & 1u << kind)) {
        dsl_raise(in, "RuntimeError",
                  "%s.%s is the kernel's own (%s derives from minitorch's %s ops): check grades "
                  "the kernels you write, so %s must define %s itself",
                  ops_name(in->session), method[kind], ops_name(in->session), mt_backend_name(be),
                  ops_name(in->session), method[kind]);
        return MT_ERR_BACKEND;
    }
    /* inside an op that is graded, an inherited op would compute it (a matmul as a broadcast
     * product summed): only a copy (contiguous()) may be the kernel's own */
    if (own && in->session->graded_ops && !(kind == DSL_SOP_MAP && op == MT_MAP_ID)) {
        dsl_raise(in, "RuntimeError",
                  "a graded op of %s ran %s, which %s inherits from minitorch's %s ops: check "
                  "grades your kernels, so they must compute it (a copy, as contiguous() makes, "
                  "may be inherited)",
                  ops_name(in->session), method[kind], ops_name(in->session), mt_backend_name(be));
        return MT_ERR_BACKEND;
    }
    if (own) {
        struct mt_tensor *t[3] = {out, a, b};
        int n = b ? 3 : 2;
        uint64_t before = builtin_ops(ctx);
        enum mt_status st = on(ctx, be, t, n);
        if (st == MT_OK) st = builtin_op(ctx, kind, op, dim, t[1], b ? t[2] : NULL, &t[0]);
        in->session->inherited_ops += builtin_ops(ctx) - before;
        release_all(t, n);
        return st;
    }
    struct dsl_student_op rec;
    op_record(&rec, kind, op, dim, a, b);
    struct dsl_value args[2] = {dsl_tensor(mt_tensor_retain(a)),
                                kind == DSL_SOP_MAP      ? dsl_tensor(mt_tensor_retain(out))
                                : kind == DSL_SOP_REDUCE ? dsl_int(dim)
                                                         : dsl_tensor(mt_tensor_retain(b))};
    return run(in, slot, out, args, 2, kind == DSL_SOP_MAP, &rec);
}

static enum mt_status hook_map(void *user, struct mt_ctx *ctx, enum mt_map_op op,
                               struct mt_tensor *out, struct mt_tensor *a)
{
    return hook(user, ctx, DSL_SOP_MAP, (int)op, 0, out, a, NULL);
}

static enum mt_status hook_zip(void *user, struct mt_ctx *ctx, enum mt_zip_op op,
                               struct mt_tensor *out, struct mt_tensor *a, struct mt_tensor *b)
{
    return hook(user, ctx, DSL_SOP_ZIP, (int)op, 0, out, a, b);
}

static enum mt_status hook_reduce(void *user, struct mt_ctx *ctx, enum mt_reduce_op op,
                                  struct mt_tensor *out, struct mt_tensor *a, int dim)
{
    return hook(user, ctx, DSL_SOP_REDUCE, (int)op, dim, out, a, NULL);
}

static enum mt_status hook_matmul(void *user, struct mt_ctx *ctx, struct mt_tensor *out,
                                  struct mt_tensor *a, struct mt_tensor *b)
{
    return hook(user, ctx, DSL_SOP_MATMUL, 0, 0, out, a, b);
}

static const struct mt_student_ops hooks = {
    .map = hook_map,
    .zip = hook_zip,
    .reduce = hook_reduce,
    .matmul = hook_matmul,
};

void dsl_student_refresh(struct dsl_interp *in, char *note, size_t n)
{
    struct dsl_session *s = in->session;
    *note = 0;
    forget_fns(s);
    if (s->student_ops.kind != DSL_CLASS) return;
    const struct dsl_class *was = s->student_ops.as.cls;
    const struct dsl_value *now = dsl_session_lookup(s, was->name);
    if (!now || now->kind != DSL_CLASS || now->as.cls == was) return;
    const struct dsl_value *ops = NULL;
    for (const struct dsl_class *c = now->as.cls; c && !ops;
         c = c->base.kind == DSL_CLASS ? c->base.as.cls : NULL)
        if (strcmp(c->name, "TensorOps") == 0) ops = now;
    if (!ops) return;
    dsl_value_release(s->student_ops);
    s->student_ops = dsl_value_retain(*now);
    snprintf(note, n,
             "%s was defined again after TensorBackend(%s): this check runs the new one (run the "
             "TensorBackend cell again for the session's other ops to run it too)\n",
             was->name, was->name);
}

int dsl_student_backend(struct dsl_interp *in, struct dsl_value ops, struct dsl_value *ret)
{
    struct dsl_session *s = in->session;
    forget_fns(s);
    dsl_value_release(s->student_ops);
    s->student_ops = dsl_value_retain(ops);
    mt_ctx_set_student(s->ctx, &hooks, s);
    return dsl_backend_value(in, MT_BACKEND_STUDENT, ret);
}
