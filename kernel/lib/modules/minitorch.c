/* minitorch.c — the minitorch module: MiniTorch's API as the kernel provides it, under
 * MiniTorch's names and signatures. Its backends (SimpleBackend, FastTensorBackend, GPUBackend:
 * the kernel's, as values of dsl_backend_class), the ops classes TensorBackend(ops) takes,
 * tensor, zeros, ones and rand, tensor_data's functions (index_to_position, broadcast_index,
 * ...), and the names of its submodules operators (operators.c) and datasets (datasets.c). */
#include "lib/modules/module.h"

#include "lang/classes.h"
#include "lang/exceptions.h"
#include "lang/packages.h"
#include "lib/compile.h"
#include "lib/nn.h"
#include "lib/storage.h"
#include "lib/student.h"
#include "lib/tensor_methods.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- minitorch: backends ---------------------------------------------------------------- */

static int backend_repr(struct render_buf *b, const void *state)
{
    render_buf_printf(b, "TensorBackend('%s')", mt_backend_name(*(const enum mt_backend *)state));
    return b->nomem ? DSL_V_NOMEM : DSL_V_OK;
}

/* ---- minitorch: a TensorBackend's ops -------------------------------------------------- */

/* MiniTorch's TensorBackend keeps the functions its ops class makes (neg_map = ops.map(neg),
 * add_zip = ops.zip(add), add_reduce = ops.reduce(add, 0.0), matrix_multiply), which its
 * Functions call on tensors without recording autodiff history. Here each is the engine's raw
 * op run on the backend the object is: the inputs are taken there without their history (simple,
 * fast and the student backend share host memory, so that copies nothing), and the result comes
 * back on the first input's backend, as MiniTorch's ops make their output with a.zeros(...). The
 * scalar functions are the engine's, as the student backend is handed them (log is ln). */
enum backend_op_kind { OP_MAP, OP_ZIP, OP_REDUCE, OP_MATMUL };

static bool backends_share(enum mt_backend a, enum mt_backend b)
{
    return a == b || (mt_backend_is_host(a) && mt_backend_is_host(b));
}

/* t on backend b, without autodiff history: *out a new reference, or an error status. */
static enum mt_status raw_on(struct mt_ctx *ctx, struct mt_tensor *t, enum mt_backend b,
                             struct mt_tensor **out)
{
    struct mt_tensor *d = NULL;
    enum mt_status st = mt_detach(ctx, t, &d);
    if (st != MT_OK || d->backend == b) return *out = d, st;
    st = mt_to(ctx, d, b, out);
    mt_tensor_release(d);
    return st;
}

/* map's `out`: op(a) written into out, which a broadcasts to (MiniTorch's map(fn)(a, out)). */
static enum mt_status map_into(struct mt_ctx *ctx, enum mt_map_op op, struct mt_tensor *x,
                               enum mt_backend be, struct mt_tensor *out)
{
    struct mt_tensor *o = NULL, *r = NULL, *back = NULL;
    enum mt_status st;
    if (backends_share(out->backend, be)) { /* a view of out's memory, written in place */
        st = raw_on(ctx, out, be, &o);
        if (st == MT_OK) st = mt_map(ctx, op, x, &o);
    } else { /* out's memory is elsewhere: computed here, then copied into it */
        st = mt_map(ctx, op, x, &r);
        if (st == MT_OK) st = raw_on(ctx, r, out->backend, &back);
        if (st == MT_OK) st = mt_map(ctx, MT_MAP_ID, back, &out);
    }
    mt_tensor_release(o);
    mt_tensor_release(r);
    mt_tensor_release(back);
    return st;
}

static int backend_op(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret,
                      enum backend_op_kind kind, int op)
{
    enum mt_backend be = *(const enum mt_backend *)a->self.as.obj->state;
    struct mt_ctx *ctx = ctx_of(in);
    int nin = kind == OP_ZIP || kind == OP_MATMUL ? 2 : 1;
    bool has_out = kind == OP_MAP && a->has[1] && a->slot[1].kind != DSL_NONE;
    int64_t dim = 0;
    for (int i = 0; i < nin + has_out; i++)
        if (a->slot[i].kind != DSL_TENSOR)
            return dsl_raise(in, "TypeError", "the backend's ops take tensors, not %s",
                             dsl_type_name(a->slot[i]));
    if (kind == OP_REDUCE && mod_int_arg(in, a->slot[1], &dim) != 0) return -1;
    struct mt_tensor *x[2] = {NULL, NULL}, *r = NULL, *res = NULL;
    enum mt_status st = MT_OK;
    for (int i = 0; i < nin && st == MT_OK; i++) st = raw_on(ctx, a->slot[i].as.t, be, &x[i]);
    if (st == MT_OK && has_out) {
        st = map_into(ctx, (enum mt_map_op)op, x[0], be, a->slot[1].as.t);
    } else if (st == MT_OK) {
        switch (kind) {
        case OP_MAP: st = mt_map(ctx, (enum mt_map_op)op, x[0], &r); break;
        case OP_ZIP: st = mt_zip(ctx, (enum mt_zip_op)op, x[0], x[1], &r); break;
        case OP_REDUCE: /* a dim out of range is an IndexError (the engine's message) */
            st = mt_reduce(ctx, (enum mt_reduce_op)op, x[0], dim < -64 || dim > 64 ? 64 : (int)dim,
                           &r);
            break;
        case OP_MATMUL: st = mt_matmul_raw(ctx, x[0], x[1], &r); break;
        }
        if (st == MT_OK) st = raw_on(ctx, r, a->slot[0].as.t->backend, &res);
    }
    mt_tensor_release(x[0]);
    mt_tensor_release(x[1]);
    mt_tensor_release(r);
    if (st != MT_OK) return dsl_engine_raise(in, st);
    *ret = has_out ? dsl_value_retain(a->slot[1]) : dsl_tensor(res);
    return 0;
}

#define BACKEND_OP(name_, kind, op)                                                                \
    static int bo_##name_(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)  \
    {                                                                                              \
        return backend_op(in, a, ret, kind, op);                                                   \
    }
BACKEND_OP(add_reduce, OP_REDUCE, MT_RED_SUM)
BACKEND_OP(add_zip, OP_ZIP, MT_ZIP_ADD)
BACKEND_OP(eq_zip, OP_ZIP, MT_ZIP_EQ)
BACKEND_OP(exp_map, OP_MAP, MT_MAP_EXP)
BACKEND_OP(id_map, OP_MAP, MT_MAP_ID)
BACKEND_OP(inv_back_zip, OP_ZIP, MT_ZIP_INV_BACK)
BACKEND_OP(inv_map, OP_MAP, MT_MAP_INV)
BACKEND_OP(is_close_zip, OP_ZIP, MT_ZIP_IS_CLOSE)
BACKEND_OP(log_back_zip, OP_ZIP, MT_ZIP_LOG_BACK)
BACKEND_OP(log_map, OP_MAP, MT_MAP_LOG)
BACKEND_OP(lt_zip, OP_ZIP, MT_ZIP_LT)
BACKEND_OP(matrix_multiply, OP_MATMUL, 0)
BACKEND_OP(mul_reduce, OP_REDUCE, MT_RED_PROD)
BACKEND_OP(mul_zip, OP_ZIP, MT_ZIP_MUL)
BACKEND_OP(neg_map, OP_MAP, MT_MAP_NEG)
BACKEND_OP(relu_back_zip, OP_ZIP, MT_ZIP_RELU_BACK)
BACKEND_OP(relu_map, OP_MAP, MT_MAP_RELU)
BACKEND_OP(sigmoid_map, OP_MAP, MT_MAP_SIGMOID)

static const char *const map_params[] = {"a", "out", NULL};
static const char *const pytorch_digits_epoch_params[] = {"epochs", NULL};
static const char *const zip_params[] = {"a", "b", NULL};
static const char *const reduce_params[] = {"a", "dim", NULL};

#define MAP_ROW(name_, what)                                                                       \
    {                                                                                              \
#name_, "TensorBackend." #name_ "(a, out=None)", 1, 2, map_params, bo_##name_,             \
            what                                                                                   \
            " of each element of a, a new tensor; with out, written into out (which a broadcasts " \
            "to) and out returned. No autodiff history."                                           \
    }
#define ZIP_ROW(name_, what)                                                                       \
    {                                                                                              \
#name_, "TensorBackend." #name_ "(a, b)", 2, 2, zip_params, bo_##name_,                    \
            what                                                                                   \
            " of the elements of a and b, broadcast together: a new tensor, without autodiff "     \
            "history."                                                                             \
    }
static const struct dsl_builtin backend_op_rows[] = {
    {"add_reduce", "TensorBackend.add_reduce(a, dim)", 2, 2, reduce_params, bo_add_reduce,
     "The sum of a along dim, which is kept with size 1: a new tensor, without autodiff "
     "history."},
    ZIP_ROW(add_zip, "x + y"),
    ZIP_ROW(eq_zip, "1.0 where x == y, else 0.0,"),
    MAP_ROW(exp_map, "e**x"),
    MAP_ROW(id_map, "x itself"),
    ZIP_ROW(inv_back_zip, "-d / x**2 (inv's backward: x of a, d of b)"),
    MAP_ROW(inv_map, "1 / x"),
    ZIP_ROW(is_close_zip, "1.0 where |x - y| < 1e-2, else 0.0,"),
    ZIP_ROW(log_back_zip, "d / x (log's backward: x of a, d of b)"),
    MAP_ROW(log_map, "ln(x)"),
    ZIP_ROW(lt_zip, "1.0 where x < y, else 0.0,"),
    {"matrix_multiply", "TensorBackend.matrix_multiply(a, b)", 2, 2, zip_params, bo_matrix_multiply,
     "a @ b, batched over the leading dims (two matrices give a matrix): a new tensor, without "
     "autodiff history."},
    {"mul_reduce", "TensorBackend.mul_reduce(a, dim)", 2, 2, reduce_params, bo_mul_reduce,
     "The product of a along dim, which is kept with size 1: a new tensor, without autodiff "
     "history."},
    ZIP_ROW(mul_zip, "x * y"),
    MAP_ROW(neg_map, "-x"),
    ZIP_ROW(relu_back_zip, "d where x > 0, else 0 (relu's backward: x of a, d of b),"),
    MAP_ROW(relu_map, "max(x, 0)"),
    MAP_ROW(sigmoid_map, "1 / (1 + e**-x)"),
};

static int backend_getattr(struct dsl_interp *in, struct dsl_value self, const char *name,
                           struct dsl_value *out)
{
    enum mt_backend be = *(const enum mt_backend *)self.as.obj->state;
    if (strcmp(name, "cuda") == 0)
        return *out = dsl_bool(!mt_backend_is_host(be)), 0; /* a device's memory */
    if (strcmp(name, "name") == 0) {
        const char *s = mt_backend_name(be);
        int st = dsl_str_value(s, strlen(s), out);
        return st ? dsl_raise_status(in, st) : 0;
    }
    for (size_t i = 0; i < sizeof backend_op_rows / sizeof backend_op_rows[0]; i++)
        if (strcmp(name, backend_op_rows[i].name) == 0)
            return mod_bound(in, &backend_op_rows[i], self, out);
    return dsl_raise(in, "AttributeError", "'TensorBackend' object has no attribute '%s'", name);
}

static const char *const backend_attrs[] = {"add_reduce",
                                            "add_zip",
                                            "cuda",
                                            "eq_zip",
                                            "exp_map",
                                            "id_map",
                                            "inv_back_zip",
                                            "inv_map",
                                            "is_close_zip",
                                            "log_back_zip",
                                            "log_map",
                                            "lt_zip",
                                            "matrix_multiply",
                                            "mul_reduce",
                                            "mul_zip",
                                            "name",
                                            "neg_map",
                                            "relu_back_zip",
                                            "relu_map",
                                            "sigmoid_map",
                                            NULL};

const struct dsl_object_class dsl_backend_class = {
    .name = "TensorBackend",
    .doc = "TensorBackend: one of the kernel's backends under MiniTorch's name "
           "(minitorch.SimpleBackend is \"simple\", FastTensorBackend \"fast\", GPUBackend "
           "\"cuda\"); backend= of tensor(), zeros(), rand() ... takes it as it takes the "
           "name.",
    .attrs = backend_attrs,
    .free = mod_free_nothing,
    .repr = backend_repr,
    .getattr = backend_getattr,
};

static const enum mt_backend backends[] = {MT_BACKEND_SIMPLE, MT_BACKEND_FAST, MT_BACKEND_CUDA,
                                           MT_BACKEND_STUDENT};
_Static_assert(sizeof backends / sizeof backends[0] == MT_BACKEND_COUNT, "one value per backend");

int dsl_backend_value(struct dsl_interp *in, enum mt_backend b, struct dsl_value *out)
{
    int st = dsl_object_value(&dsl_backend_class, (void *)&backends[b], out);
    return st ? dsl_raise_status(in, st) : 0;
}
static int v_simple(struct dsl_interp *in, struct dsl_value *out)
{
    return dsl_backend_value(in, MT_BACKEND_SIMPLE, out);
}
static int v_fast(struct dsl_interp *in, struct dsl_value *out)
{
    return dsl_backend_value(in, MT_BACKEND_FAST, out);
}
static int v_gpu(struct dsl_interp *in, struct dsl_value *out)
{
    return dsl_backend_value(in, MT_BACKEND_CUDA, out);
}

bool dsl_backend_object(struct dsl_value v, enum mt_backend *out)
{
    if (v.kind != DSL_OBJECT || v.as.obj->cls != &dsl_backend_class) return false;
    *out = *(const enum mt_backend *)v.as.obj->state;
    return true;
}

/* ---- minitorch: TensorOps and TensorBackend --------------------------------------------- */

/* MiniTorch builds a backend from a class of ops: TensorBackend(FastOps). The kernel's three
 * backends are such classes (SimpleOps, FastOps, CudaOps, deriving from TensorOps), so that
 * `minitorch.TensorBackend(minitorch.FastOps)` is the kernel's fast backend; TensorOps is the
 * base a student's own ops class derives from. Its methods are what a backend class defines;
 * called on TensorOps itself they say so. */
static int ops_abstract(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)a;
    (void)ret;
    return dsl_raise(in, "NotImplementedError",
                     "TensorOps only names map, cmap, zip, reduce and matrix_multiply: a class "
                     "of ops (minitorch.FastOps, or one of your own deriving from TensorOps) "
                     "defines them");
}

static const struct dsl_builtin tensor_ops_methods[] = {
    {"map", "map(fn)", 0, -1, NULL, ops_abstract, "A backend's elementwise map, made from fn."},
    {"cmap", "cmap(fn)", 0, -1, NULL, ops_abstract, "map into an existing output."},
    {"zip", "zip(fn)", 0, -1, NULL, ops_abstract, "A backend's elementwise zip, made from fn."},
    {"reduce", "reduce(fn, start=0.0)", 0, -1, NULL, ops_abstract,
     "A backend's reduction along a dim, made from fn."},
    {"matrix_multiply", "matrix_multiply(a, b)", 0, -1, NULL, ops_abstract,
     "A backend's batched matrix multiply."},
    {NULL, NULL, 0, 0, NULL, NULL, NULL},
};
static const struct dsl_builtin simple_ops_methods[] = {{NULL, NULL, 0, 0, NULL, NULL, NULL}};
static const struct dsl_builtin fast_ops_methods[] = {{NULL, NULL, 0, 0, NULL, NULL, NULL}};
static const struct dsl_builtin cuda_ops_methods[] = {{NULL, NULL, 0, 0, NULL, NULL, NULL}};

static struct dsl_class *tensor_ops_class(void)
{
    struct dsl_class *c = dsl_library_class(
        "TensorOps",
        "minitorch.TensorOps: the base class of a backend's ops (map, zip, reduce, "
        "matrix_multiply); cuda says whether they run on the GPU.",
        dsl_none(), tensor_ops_methods);
    if (!dsl_attrs_find(&c->attrs, "cuda")) dsl_attrs_set(&c->attrs, "cuda", dsl_bool(false));
    return c;
}

/* One of the kernel's ops classes: 0 simple, 1 fast, 2 cuda. */
static struct dsl_class *kernel_ops_class(int which)
{
    static const char *const names[] = {"SimpleOps", "FastOps", "CudaOps"};
    static const char *const docs[] = {
        "minitorch.SimpleOps: the kernel's simple backend (plain loops) as MiniTorch's ops class: "
        "TensorBackend(SimpleOps) is minitorch.SimpleBackend.",
        "minitorch.FastOps: the kernel's fast backend (OpenMP and SIMD) as MiniTorch's ops "
        "class: TensorBackend(FastOps) is minitorch.FastTensorBackend.",
        "minitorch.CudaOps: the kernel's cuda backend as MiniTorch's ops class: "
        "TensorBackend(CudaOps) is minitorch.GPUBackend."};
    static const struct dsl_builtin *const rows[] = {simple_ops_methods, fast_ops_methods,
                                                     cuda_ops_methods};
    struct dsl_value base = {.kind = DSL_CLASS, .as.cls = tensor_ops_class()};
    struct dsl_class *c = dsl_library_class(names[which], docs[which], base, rows[which]);
    if (which == 2 && !dsl_attrs_find(&c->attrs, "cuda"))
        dsl_attrs_set(&c->attrs, "cuda", dsl_bool(true));
    return c;
}

/* The kernel's ops classes' map, zip and reduce, as MiniTorch's FastOps has them: each makes,
 * from a scalar function (a def, a lambda or one of minitorch.operators), a function of
 * tensors that runs it on the tensors' own backend, compiled as the builtins map(fn, t),
 * zip(fn, a, b) and reduce(fn, t, dim, start) compile it: FastOps.reduce(operators.max, -1e9)
 * is Module 4's max_reduce. The function made is a method bound to fn (to (fn, start) for
 * reduce), which the call hands to those builtins. */
static int made_call(struct dsl_interp *in, dsl_builtin_fn builtin, const struct dsl_builtin *row,
                     const struct dsl_value *pos, size_t n, struct dsl_value *ret)
{
    struct dsl_args args;
    dsl_args_start(row, pos, n, &args);
    return builtin(in, &args, ret);
}
static int made_map(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
static int made_zip(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
static int made_reduce(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
static const char *const made_map_params[] = {"a", "out", NULL};
static const char *const made_zip_params[] = {"a", "b", NULL};
static const char *const made_reduce_params[] = {"a", "dim", NULL};
static const struct dsl_builtin made_rows[] = {
    {"map", "map(a, out=None)", 1, 2, made_map_params, made_map,
     "fn applied to every element of a: a new tensor, or written into out (a broadcasts to "
     "it)."},
    {"zip", "zip(a, b)", 2, 2, made_zip_params, made_zip,
     "fn of the elements of a and b, broadcast together: a new tensor."},
    {"reduce", "reduce(a, dim)", 2, 2, made_reduce_params, made_reduce,
     "Along dim (kept, with size 1): start, then fn(acc, x) for each x of the dim in order."},
};
static int made_map(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value pos[3] = {a->self, a->slot[0], a->slot[1]};
    size_t n = a->has[1] && a->slot[1].kind != DSL_NONE ? 3 : 2;
    return made_call(in, dsl_bi_map, &made_rows[0], pos, n, ret);
}
static int made_zip(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value pos[3] = {a->self, a->slot[0], a->slot[1]};
    return made_call(in, dsl_bi_zip, &made_rows[1], pos, 3, ret);
}
static int made_reduce(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    const struct dsl_value *fs = a->self.as.l->items; /* (fn, start) */
    struct dsl_value pos[4] = {fs[0], a->slot[0], a->slot[1], fs[1]};
    return made_call(in, dsl_bi_reduce, &made_rows[2], pos, 4, ret);
}

static int ops_map(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return mod_bound(in, &made_rows[0], a->slot[0], ret);
}
static int ops_zip(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return mod_bound(in, &made_rows[1], a->slot[0], ret);
}
static int ops_reduce(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value start = a->has[1] ? a->slot[1] : dsl_float(0.0);
    if (!dsl_is_number(start))
        return dsl_raise(in, "TypeError", "reduce(fn, start): start must be a number, not %s",
                         dsl_type_name(start));
    struct dsl_list *l = dsl_list_new(2);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    l->style = DSL_LIST_TUPLE;
    dsl_list_push(l, dsl_value_retain(a->slot[0])); /* room reserved: cannot fail */
    dsl_list_push(l, dsl_value_retain(start));
    struct dsl_value fs = {.kind = DSL_LIST, .as.l = l};
    int r = mod_bound(in, &made_rows[2], fs, ret);
    dsl_value_release(fs);
    return r;
}
static const char *const ops_fn_params[] = {"fn", NULL};
static const char *const ops_reduce_params[] = {"fn", "start", NULL};
static const struct dsl_builtin kernel_ops_rows[] = {
    {"map", "map(fn)", 1, 1, ops_fn_params, ops_map,
     "A function map(a, out=None) applying the scalar function fn to every element of a tensor."},
    {"zip", "zip(fn)", 1, 1, ops_fn_params, ops_zip,
     "A function zip(a, b) applying the scalar function fn(x, y) to two tensors broadcast "
     "together."},
    {"reduce", "reduce(fn, start=0.0)", 1, 2, ops_reduce_params, ops_reduce,
     "A function reduce(a, dim) folding dim with fn(acc, x) from start, keeping dim with size "
     "1: FastOps.reduce(operators.max, -1e9) is a max along a dim."},
};

static int ops_value(struct dsl_interp *in, int which, struct dsl_value *out)
{
    struct dsl_class *c = kernel_ops_class(which);
    if (!dsl_attrs_find(&c->attrs, "map") &&
        mod_class_wrap(in, c, kernel_ops_rows, sizeof kernel_ops_rows / sizeof *kernel_ops_rows,
                       DSL_WRAP_STATIC) != 0)
        return -1;
    *out = (struct dsl_value){.kind = DSL_CLASS, .as.cls = c};
    return 0;
}
/* ---- Module 4's convolutions ------------------------------------------------------------ */

static const char *const conv_params[] = {"input", "weight", NULL};
static const struct dsl_builtin conv_apply[] = {
    {"apply", "Conv1dFun.apply(input, weight)", 2, 2, conv_params, dsl_bi_conv1d,
     "The 1-D convolution of input (batch, in_channels, w) by weight (out_channels, "
     "in_channels, kw): (batch, out_channels, w), the input read as zeros past its end; "
     "differentiable in both."},
    {"apply", "Conv2dFun.apply(input, weight)", 2, 2, conv_params, dsl_bi_conv2d,
     "The 2-D convolution of input (batch, in_channels, h, w) by weight (out_channels, "
     "in_channels, kh, kw): (batch, out_channels, h, w), the input read as zeros past its "
     "edges; differentiable in both."},
};
/* no method rows: apply is an attribute; one empty table per class, as a library class is
 * made once per table */
static const struct dsl_builtin conv_fun_methods[2][1] = {{{NULL, NULL, 0, 0, NULL, NULL, NULL}},
                                                          {{NULL, NULL, 0, 0, NULL, NULL, NULL}}};

/* MiniTorch's Conv1dFun (which 0) or Conv2dFun (1): a class whose apply is the convolution, as
 * MiniTorch's Function classes are used (Conv1dFun.apply(input, weight)). */
static int conv_fun(int which, struct dsl_value *out)
{
    static const char *const names[] = {"Conv1dFun", "Conv2dFun"};
    static const char *const docs[] = {
        "minitorch.Conv1dFun: MiniTorch's 1-D convolution as a Function; "
        "Conv1dFun.apply(input, weight) is minitorch.conv1d(input, weight).",
        "minitorch.Conv2dFun: MiniTorch's 2-D convolution as a Function; "
        "Conv2dFun.apply(input, weight) is minitorch.conv2d(input, weight)."};
    struct dsl_class *c =
        dsl_library_class(names[which], docs[which], dsl_none(), conv_fun_methods[which]);
    if (!c) return -1;
    if (!dsl_attrs_find(&c->attrs, "apply"))
        dsl_attrs_set(&c->attrs, "apply",
                      (struct dsl_value){.kind = DSL_BUILTIN, .as.fn = &conv_apply[which]});
    *out = (struct dsl_value){.kind = DSL_CLASS, .as.cls = c};
    return 0;
}
static int v_conv1d_fun(struct dsl_interp *in, struct dsl_value *out)
{
    (void)in;
    return conv_fun(0, out);
}
static int v_conv2d_fun(struct dsl_interp *in, struct dsl_value *out)
{
    (void)in;
    return conv_fun(1, out);
}

static int v_tensor_ops(struct dsl_interp *in, struct dsl_value *out)
{
    (void)in;
    *out = (struct dsl_value){.kind = DSL_CLASS, .as.cls = tensor_ops_class()};
    return 0;
}
static int v_simple_ops(struct dsl_interp *in, struct dsl_value *out)
{
    return ops_value(in, 0, out);
}
static int v_fast_ops(struct dsl_interp *in, struct dsl_value *out)
{
    return ops_value(in, 1, out);
}
static int v_cuda_ops(struct dsl_interp *in, struct dsl_value *out)
{
    return ops_value(in, 2, out);
}

bool dsl_ops_class_backend(const struct dsl_class *c, enum mt_backend *out)
{
    for (; c; c = c->base.kind == DSL_CLASS ? c->base.as.cls : NULL)
        for (int which = 0; which < 3; which++)
            if (c == kernel_ops_class(which)) {
                *out = backends[which];
                return true;
            }
    return false;
}

/* TensorBackend(ops): the kernel's backend for one of its ops classes. */
static int tensor_backend_fn(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value ops = a->slot[0];
    for (int which = 0; which < 3; which++)
        if (ops.kind == DSL_CLASS && ops.as.cls == kernel_ops_class(which))
            return dsl_backend_value(in, backends[which], ret);
    if (ops.kind == DSL_CLASS) {
        const struct dsl_class *c = ops.as.cls;
        if (c == tensor_ops_class())
            return dsl_raise(in, "TypeError",
                             "TensorBackend(TensorOps): TensorOps only names the ops; give "
                             "TensorBackend a class deriving from it that defines them");
        for (const struct dsl_class *k = c; k;
             k = k->base.kind == DSL_CLASS ? k->base.as.cls : NULL)
            if (k == tensor_ops_class()) return dsl_student_backend(in, ops, ret);
    }
    return dsl_raise(in, "TypeError",
                     "TensorBackend() takes a class of ops (minitorch.FastOps, SimpleOps or "
                     "CudaOps), not %s",
                     dsl_type_name(ops));
}

/* ---- minitorch: tensors with MiniTorch's signatures ------------------------------------- */

/* tensor(ls, backend=None, requires_grad=False): the kernel's tensor(data, requires_grad,
 * backend), its slots in MiniTorch's order. */
static int mt_tensor_fn(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_args b = {.slot = {a->slot[0], a->slot[2], a->slot[1]},
                         .has = {true, a->has[2], a->has[1]}};
    return dsl_bi_tensor(in, &b, ret);
}

/* zeros/ones/rand(shape, backend=None, requires_grad=False): the shape one tuple or list. */
static int creation(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret,
                    dsl_builtin_fn fn)
{
    struct dsl_args b = {.rest = &a->slot[0],
                         .nrest = 1,
                         .slot = {a->slot[2], a->slot[1]},
                         .has = {a->has[2], a->has[1]}};
    if (a->slot[0].kind != DSL_LIST)
        return dsl_raise(in, "TypeError", "shape must be a tuple of ints, not %s",
                         dsl_type_name(a->slot[0]));
    return fn(in, &b, ret);
}
static int mt_zeros_fn(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return creation(in, a, ret, dsl_bi_zeros);
}
static int mt_ones_fn(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return creation(in, a, ret, dsl_bi_ones);
}
static int mt_rand_fn(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return creation(in, a, ret, dsl_bi_rand);
}

/* ---- minitorch: tensor_data's functions ------------------------------------------------- */

/* A sequence of ints (a tuple or list) as values; TypeError otherwise. */
static int ints_arg(struct dsl_interp *in, struct dsl_value v, const char *what, int64_t *out,
                    size_t *n)
{
    if (v.kind != DSL_LIST)
        return dsl_raise(in, "TypeError", "%s must be a tuple or list of ints, not %s", what,
                         dsl_type_name(v));
    if (v.as.l->len > 32) /* MAX_DIMS */
        return dsl_raise(in, "IndexingError", "%s has %zu dims; MAX_DIMS is 32", what, v.as.l->len);
    for (size_t i = 0; i < v.as.l->len; i++) {
        if (!dsl_is_intlike(v.as.l->items[i]))
            return dsl_raise(in, "TypeError", "%s[%zu] must be an int, not %s", what, i,
                             dsl_type_name(v.as.l->items[i]));
        out[i] = dsl_as_int(v.as.l->items[i]);
    }
    *n = v.as.l->len;
    return 0;
}

static int tuple_of(struct dsl_interp *in, const int64_t *xs, size_t n, struct dsl_value *out)
{
    struct dsl_list *l = dsl_list_new(n);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    l->style = DSL_LIST_TUPLE;
    for (size_t i = 0; i < n; i++) dsl_list_push(l, dsl_int(xs[i]));
    *out = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    return 0;
}

/* out_index[i] = v, out_index a list (MiniTorch writes into a numpy array given by the caller). */
static int store_index(struct dsl_interp *in, struct dsl_value out, size_t i, int64_t v)
{
    if (out.kind != DSL_LIST || out.as.l->style == DSL_LIST_TUPLE)
        return dsl_raise(in, "TypeError", "out_index must be a list, not %s", dsl_type_name(out));
    if (i >= out.as.l->len)
        return dsl_raise(in, "IndexError", "out_index has %zu items; index %zu is out of range",
                         out.as.l->len, i);
    dsl_value_orphan(out.as.l->items[i]);
    dsl_value_release(out.as.l->items[i]);
    out.as.l->items[i] = dsl_int(v);
    return 0;
}

static int td_index_to_position(struct dsl_interp *in, const struct dsl_args *a,
                                struct dsl_value *ret)
{
    int64_t ix[64], st[64];
    size_t n, m;
    if (ints_arg(in, a->slot[0], "index", ix, &n) != 0 ||
        ints_arg(in, a->slot[1], "strides", st, &m) != 0)
        return -1;
    int64_t pos = 0;
    for (size_t i = 0; i < n && i < m; i++) pos += ix[i] * st[i];
    return *ret = dsl_int(pos), 0;
}

static int td_to_index(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    int64_t ord, shape[64];
    size_t n;
    if (mod_int_arg(in, a->slot[0], &ord) != 0 || ints_arg(in, a->slot[1], "shape", shape, &n) != 0)
        return -1;
    for (size_t k = n; k-- > 0;) {
        if (shape[k] <= 0) return dsl_raise(in, "ZeroDivisionError", "integer modulo by zero");
        /* Python's % and // (floor), for a negative ordinal too */
        int64_t q = ord / shape[k], r = ord % shape[k];
        if (r < 0) r += shape[k], q--;
        if (store_index(in, a->slot[2], k, r) != 0) return -1;
        ord = q;
    }
    return *ret = dsl_none(), 0;
}

static int td_broadcast_index(struct dsl_interp *in, const struct dsl_args *a,
                              struct dsl_value *ret)
{
    int64_t big[64], big_shape[64], shape[64];
    size_t nb, nbs, ns;
    if (ints_arg(in, a->slot[0], "big_index", big, &nb) != 0 ||
        ints_arg(in, a->slot[1], "big_shape", big_shape, &nbs) != 0 ||
        ints_arg(in, a->slot[2], "shape", shape, &ns) != 0)
        return -1;
    if (ns > nbs)
        return dsl_raise(in, "IndexingError",
                         "shape has %zu dims, more than big_shape's %zu: it cannot broadcast to it",
                         ns, nbs);
    for (size_t i = 0; i < ns; i++) {
        size_t j = i + nbs - ns; /* the big dim this one lines up with, from the right */
        if (j >= nb)
            return dsl_raise(in, "IndexError", "big_index has no dim %zu for shape's dim %zu", j,
                             i);
        if (store_index(in, a->slot[3], i, shape[i] > 1 ? big[j] : 0) != 0) return -1;
    }
    return *ret = dsl_none(), 0;
}

static int td_shape_broadcast(struct dsl_interp *in, const struct dsl_args *a,
                              struct dsl_value *ret)
{
    int64_t s1[64], s2[64], out[64];
    size_t n1, n2;
    if (ints_arg(in, a->slot[0], "shape1", s1, &n1) != 0 ||
        ints_arg(in, a->slot[1], "shape2", s2, &n2) != 0)
        return -1;
    size_t m = n1 > n2 ? n1 : n2;
    for (size_t i = 0; i < m; i++) { /* from the right */
        int64_t x = i < n1 ? s1[n1 - 1 - i] : 1, y = i < n2 ? s2[n2 - 1 - i] : 1;
        if (x != y && x != 1 && y != 1) {
            struct render_buf b;
            render_buf_init(&b, 4096);
            dsl_value_repr(&b, a->slot[0]);
            render_buf_puts(&b, " and ");
            dsl_value_repr(&b, a->slot[1]);
            int r = dsl_raise(in, "IndexingError",
                              "cannot broadcast shapes %s: dim %lld of one is %lld, of the other "
                              "%lld",
                              render_buf_str(&b), -(long long)i - 1, (long long)x, (long long)y);
            render_buf_free(&b);
            return r;
        }
        out[m - 1 - i] = x == 1 ? y : x;
    }
    return tuple_of(in, out, m, ret);
}

static int td_strides_from_shape(struct dsl_interp *in, const struct dsl_args *a,
                                 struct dsl_value *ret)
{
    int64_t shape[64], st[64];
    size_t n;
    if (ints_arg(in, a->slot[0], "shape", shape, &n) != 0) return -1;
    int64_t off = 1;
    for (size_t k = n; k-- > 0;) {
        st[k] = off;
        off *= shape[k];
    }
    return tuple_of(in, st, n, ret);
}

/* central_difference(f, *vals, arg=0, epsilon=1e-6): (f(..x + eps..) - f(..x - eps..)) / (2
 * eps) in argument `arg`, MiniTorch's numerical derivative. x +/- eps, the difference and the
 * division are the language's operators, as in MiniTorch, so that a Scalar's (x + eps is a
 * Scalar, the result one too: derivative_check reads its .data) are its own. */
static int td_central_difference(struct dsl_interp *in, const struct dsl_args *a,
                                 struct dsl_value *ret)
{
    struct dsl_value f = a->rest[0];
    int64_t arg = 0;
    double eps = 1e-6;
    if (mod_check_callable(in, f, "central_difference") != 0) return -1;
    if (a->has[0] && mod_int_arg(in, a->slot[0], &arg) != 0) return -1;
    if (a->has[1] && mod_real_arg(in, a->slot[1], &eps) != 0) return -1;
    size_t n = a->nrest - 1;
    const struct dsl_value *rest = a->rest + 1;
    if (arg < 0 || (size_t)arg >= n)
        return dsl_raise(in, "IndexError",
                         "central_difference(): arg %lld is not one of the %zu values",
                         (long long)arg, n);
    struct dsl_value *vals = malloc(n * sizeof *vals);
    if (!vals) return dsl_raise_status(in, DSL_V_NOMEM);
    memcpy(vals, rest, n * sizeof *vals);
    struct dsl_value x = rest[arg], moved = dsl_none(), hi = dsl_none(), lo = dsl_none();
    int r = dsl_binary(in, DSL_T_PLUS, x, dsl_float(eps), &moved);
    if (r == 0) {
        vals[arg] = moved;
        r = mod_call(in, f, vals, n, &hi);
        dsl_value_release(moved);
        moved = dsl_none();
    }
    if (r == 0) r = dsl_binary(in, DSL_T_MINUS, x, dsl_float(eps), &moved);
    if (r == 0) {
        vals[arg] = moved;
        r = mod_call(in, f, vals, n, &lo);
    }
    dsl_value_release(moved);
    free(vals);
    struct dsl_value diff = dsl_none();
    if (r == 0) r = dsl_binary(in, DSL_T_MINUS, hi, lo, &diff);
    if (r == 0) r = dsl_binary(in, DSL_T_SLASH, diff, dsl_float(2.0 * eps), ret);
    dsl_value_release(hi);
    dsl_value_release(lo);
    dsl_value_release(diff);
    return r;
}

static int v_max_dims(struct dsl_interp *in, struct dsl_value *out)
{
    (void)in;
    return *out = dsl_int(32), 0;
}

/* minitorch.IndexingError: the exception class the kernel raises for MiniTorch's shape errors,
 * so that MiniTorch's tests (`with pytest.raises(minitorch.IndexingError)`) name it */
static int v_indexing_error(struct dsl_interp *in, struct dsl_value *out)
{
    (void)in;
    return *out = dsl_exc_type_value(dsl_exc_type_find("IndexingError")), 0;
}

/* ---- minitorch -------------------------------------------------------------------------- */

static int v_operators(struct dsl_interp *in, struct dsl_value *out)
{
    return mod_module_value(in, &mod_operators, out);
}

static const char *const tensor_params[] = {"ls", "backend", "requires_grad", NULL};
static const char *const shape_params[] = {"shape", "backend", "requires_grad", NULL};
static const char *const index_to_position_params[] = {"index", "strides", NULL};
static const char *const to_index_params[] = {"ordinal", "shape", "out_index", NULL};
static const char *const broadcast_index_params[] = {"big_index", "big_shape", "shape", "out_index",
                                                     NULL};
static const char *const shape_broadcast_params[] = {"shape1", "shape2", NULL};
static const char *const strides_params[] = {"shape", NULL};
static const char *const central_params[] = {"arg", "epsilon", NULL};
static const char *const grad_check_params[] = {NULL};
static const char *const tensor_backend_params[] = {"ops", NULL};
static const char *const tensor_data_params[] = {"storage", "shape", "strides", NULL};

/* MiniTorch's classes (lib/nn.c) */
static int nn_class(struct dsl_interp *in, const char *name, struct dsl_value *out)
{
    (void)in;
    *out = dsl_nn_class(name);
    return 0;
}
static int v_module(struct dsl_interp *in, struct dsl_value *out)
{
    return nn_class(in, "Module", out);
}
static int v_parameter(struct dsl_interp *in, struct dsl_value *out)
{
    return nn_class(in, "Parameter", out);
}
static int v_optimizer(struct dsl_interp *in, struct dsl_value *out)
{
    return nn_class(in, "Optimizer", out);
}
static int v_sgd(struct dsl_interp *in, struct dsl_value *out) { return nn_class(in, "SGD", out); }
static int v_function(struct dsl_interp *in, struct dsl_value *out)
{
    return dsl_nn_function_class(in, out);
}

static const struct member minitorch_members[] = {
    VALUE("Conv1dFun", "class minitorch.Conv1dFun", v_conv1d_fun,
          "MiniTorch's 1-D convolution as a Function: Conv1dFun.apply(input, weight)."),
    VALUE("Conv2dFun", "class minitorch.Conv2dFun", v_conv2d_fun,
          "MiniTorch's 2-D convolution as a Function: Conv2dFun.apply(input, weight)."),
    VALUE("CudaOps", "class minitorch.CudaOps", v_cuda_ops,
          "The kernel's cuda backend as MiniTorch's ops class: TensorBackend(CudaOps)."),
    VALUE("FastOps", "class minitorch.FastOps", v_fast_ops,
          "The kernel's fast backend as MiniTorch's ops class: TensorBackend(FastOps) is "
          "FastTensorBackend."),
    VALUE("FastTensorBackend", "minitorch.FastTensorBackend", v_fast,
          "The kernel's fast backend (OpenMP, SIMD) under MiniTorch's name: "
          "tensor(..., backend=minitorch.FastTensorBackend)."),
    VALUE("Function", "class minitorch.Function", v_function,
          "MiniTorch's tensor Function: derive from it with static forward(ctx, *inputs) and "
          "backward(ctx, grad_output); Cls.apply(*inputs) runs it with autodiff."),
    VALUE("GPUBackend", "minitorch.GPUBackend", v_gpu,
          "The kernel's cuda backend (what run_fast_tensor.py builds as "
          "TensorBackend(CudaOps)); using it where no GPU is raises."),
    VALUE("IndexingError", "class minitorch.IndexingError", v_indexing_error,
          "MiniTorch's shape error (a RuntimeError): an index out of a shape, shapes that do not "
          "broadcast."),
    VALUE("MAX_DIMS", "minitorch.MAX_DIMS", v_max_dims,
          "MiniTorch's limit on a tensor's dims, 32 (the kernel's own tensors have at most 8)."),
    VALUE("MathTest", "class minitorch.MathTest", mod_math_test_value,
          "The functions MiniTorch's tests check every unit on, as static methods on numbers "
          "(minitorch.operators); _tests() and _comp_testing() list them."),
    VALUE("MathTestVariable", "class minitorch.MathTestVariable(MathTest)",
          mod_math_test_variable_value,
          "MathTest's functions with the value's own methods and operators (x.sigmoid(), "
          "a.sum(0)), for tensors and Scalars; _comp_testing() pairs them with MathTest's."),
    VALUE("Module", "class minitorch.Module", v_module,
          "The base of a network: derive from it, call super().__init__(), set Parameters and "
          "child Modules as attributes, write forward(self, x). help(minitorch.Module) lists "
          "its methods."),
    VALUE("Optimizer", "class minitorch.Optimizer(parameters)", v_optimizer,
          "The base of SGD: keeps self.parameters."),
    VALUE("Parameter", "class minitorch.Parameter(x, name=None)", v_parameter,
          "A value a Module learns: p.value, p.update(x)."),
    VALUE("SGD", "class minitorch.SGD(parameters, lr=1.0)", v_sgd,
          "Stochastic gradient descent: zero_grad(), step() does p.update(p.value - lr * "
          "p.value.grad)."),
    VALUE("SimpleBackend", "minitorch.SimpleBackend", v_simple,
          "The kernel's simple backend (plain loops) under MiniTorch's name."),
    VALUE("SimpleOps", "class minitorch.SimpleOps", v_simple_ops,
          "The kernel's simple backend as MiniTorch's ops class: TensorBackend(SimpleOps) is "
          "SimpleBackend."),
    VALUE("Tensor", "class minitorch.Tensor", mod_tensor_class_value,
          "MiniTorch's Tensor: the class of tensors (isinstance, annotations); Tensor(td, "
          "backend=None) makes a tensor over a TensorData's memory."),
    FN("TensorBackend", "minitorch.TensorBackend(ops)", 1, 1, tensor_backend_params,
       tensor_backend_fn,
       "The backend a class of ops makes: TensorBackend(minitorch.FastOps) is "
       "FastTensorBackend, SimpleOps SimpleBackend, CudaOps GPUBackend."),
    FN("TensorData", "minitorch.TensorData(storage, shape, strides=None)", 2, 3, tensor_data_params,
       dsl_bi_tensor_data,
       "A tensor's layout and memory, as MiniTorch's TensorData: the numbers of storage (a list "
       "or tuple) laid out by shape and strides (row-major when strides is None)."),
    VALUE("TensorOps", "class minitorch.TensorOps", v_tensor_ops,
          "The base class of a backend's ops: map, cmap, zip, reduce, matrix_multiply; cuda."),
    FN("broadcast_index", "minitorch.broadcast_index(big_index, big_shape, shape, out_index)", 4, 4,
       broadcast_index_params, td_broadcast_index,
       "Writes into the list out_index the index into `shape` that big_index (an index into "
       "big_shape) broadcasts from: the aligned dims, 0 where shape's dim is 1. Returns None."),
    FN("central_difference", "minitorch.central_difference(f, *vals, arg=0, epsilon=1e-6)", 1, -1,
       central_params, td_central_difference,
       "(f(..., x + epsilon, ...) - f(..., x - epsilon, ...)) / (2 * epsilon) for x the value "
       "number `arg`: MiniTorch's numerical derivative, of numbers or Scalars."),
    FN("conv1d", "minitorch.conv1d(input, weight)", 2, 2, conv_params, dsl_bi_conv1d,
       "MiniTorch's 1-D convolution (Conv1dFun.apply): input (batch, in_channels, w) by weight "
       "(out_channels, in_channels, kw) gives (batch, out_channels, w), out[b, o, x] the sum "
       "over i and k of input[b, i, x + k] * weight[o, i, k], zeros past the input's end; "
       "differentiable in both."),
    FN("conv2d", "minitorch.conv2d(input, weight)", 2, 2, conv_params, dsl_bi_conv2d,
       "MiniTorch's 2-D convolution (Conv2dFun.apply): input (batch, in_channels, h, w) by "
       "weight (out_channels, in_channels, kh, kw) gives (batch, out_channels, h, w), zeros "
       "past the input's edges; differentiable in both."),
    VALUE("datasets", "minitorch.datasets", mod_datasets_value,
          "MiniTorch's dict of datasets: minitorch.datasets[\"Simple\"](50) is a Graph with N, "
          "X and y. Keys: Simple, Diag, Split, Xor, Circle, Spiral."),
    FN("grad_check", "minitorch.grad_check(f, *vals)", 1, -1, grad_check_params, mod_grad_check,
       "Checks f's gradients: backward() from f(*vals).sum(), then for each input, at an index "
       "its TensorData samples, the gradient against a central difference (sized for float32), "
       "within rtol = atol = 1e-2; AssertionError naming the function, argument and index "
       "otherwise."),
    FN("index_to_position", "minitorch.index_to_position(index, strides)", 2, 2,
       index_to_position_params, td_index_to_position,
       "The storage position of a multidimensional index: sum of index[i] * strides[i]."),
    FN("load_digits", "minitorch.load_digits()", 0, 0, NULL, mod_load_digits,
       "Module 4's handwritten digits: (images, labels), 1797 images as 8x8 lists of pixel "
       "counts 0.0..16.0 and their labels 0..9, the set scikit-learn ships (UCI's optical "
       "digits, CC BY 4.0), read from its package where it is installed."),
    FN("ones", "minitorch.ones(shape, backend=None, requires_grad=False)", 1, 3, shape_params,
       mt_ones_fn, "A tensor of ones of the shape (a tuple)."),
    VALUE("operators", "minitorch.operators", v_operators,
          "minitorch.operators: mul, add, neg, id, lt, eq, max, is_close, sigmoid, relu, log, "
          "exp, inv, log_back, inv_back, relu_back, map, zipWith, reduce, negList, addLists, "
          "sum, prod."),
    FN("pytorch_digits_epoch", "minitorch.pytorch_digits_epoch(epochs=3)", 0, 1,
       pytorch_digits_epoch_params, mod_pytorch_digits_epoch,
       "Module 4's digit classifier (the course notebook's network, data, batch and rate) "
       "trained in PyTorch on this machine with the session's %threads: (the median ms of its "
       "timed epochs, after one untimed; torch's version). Runs PyTorch under a Python that "
       "has it ($MINITORCH_TORCH_PYTHON, else python3, else /usr/bin/python3); "
       "ModuleNotFoundError when none has."),
    FN("rand", "minitorch.rand(shape, backend=None, requires_grad=False)", 1, 3, shape_params,
       mt_rand_fn,
       "A tensor of the shape (a tuple) of uniform [0, 1) numbers from the session's "
       "generator, one draw per element in order, as MiniTorch's rand."),
    FN("shape_broadcast", "minitorch.shape_broadcast(shape1, shape2)", 2, 2, shape_broadcast_params,
       td_shape_broadcast,
       "The shape two shapes broadcast to, as a tuple; IndexingError when they cannot."),
    FN("strides_from_shape", "minitorch.strides_from_shape(shape)", 1, 1, strides_params,
       td_strides_from_shape, "The contiguous (row-major) strides of a shape, as a tuple."),
    FN("tensor", "minitorch.tensor(ls, backend=None, requires_grad=False)", 1, 3, tensor_params,
       mt_tensor_fn,
       "A tensor from a number or nested lists or tuples of numbers (MiniTorch's argument "
       "order; the kernel's tensor(data, requires_grad, backend) is the same function)."),
    FN("to_index", "minitorch.to_index(ordinal, shape, out_index)", 3, 3, to_index_params,
       td_to_index,
       "Writes into the list out_index the multidimensional index of position `ordinal` in a "
       "contiguous tensor of `shape`. Returns None."),
    FN("zeros", "minitorch.zeros(shape, backend=None, requires_grad=False)", 1, 3, shape_params,
       mt_zeros_fn, "A tensor of zeros of the shape (a tuple)."),
};

const struct module mod_minitorch = {
    .cls = MODULE_CLASS("module: MiniTorch's API as the kernel provides it: tensor, zeros, "
                        "rand, the backends, datasets, operators and tensor_data's functions, "
                        "under MiniTorch's names and signatures."),
    .name = "minitorch",
    .members = MEMBERS(minitorch_members),
};
