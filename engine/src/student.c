/* student.c — the `student` backend: MiniTorch's TensorBackend(ops) over ops written outside
 * the engine.
 *
 * The course's Task 3.1 to 3.4 are a student's own map, zip, reduce and matrix multiply; the
 * kernel gives them to the engine as hooks (mt_ctx_set_student), and this table runs every raw
 * op through them, so that autodiff, nn and train() run on the student's code. Memory is the
 * host's, as simple's and fast's. A hook always gets a fresh contiguous output filled with
 * zeros: a kernel that forgets an element then gives 0 there on every run, never whatever the
 * memory held, and the result goes into a caller's strided `out` here. */
#include "internal.h"

#include <math.h>
#include <string.h>

void mt_ctx_set_student(struct mt_ctx *ctx, const struct mt_student_ops *ops, void *user)
{
    ctx->student = ops;
    ctx->student_user = user;
}

static enum mt_status student_available(struct mt_ctx *ctx)
{
    if (ctx->student) return MT_OK;
    return mt_fail(ctx, MT_ERR_BACKEND,
                   "the student backend has no ops yet: make it from your class of ops with "
                   "minitorch.TensorBackend(YourOps)");
}

/* A zeroed contiguous tensor of out's shape, for a hook to write: out itself when it is one
 * that shares no memory with the inputs a and b (may be NULL; an elementwise op may write its
 * input in place, p = p - step, and the student's kernel must read p before it is cleared). */
static enum mt_status scratch(struct mt_ctx *ctx, struct mt_tensor *out, const struct mt_tensor *a,
                              const struct mt_tensor *b, struct mt_tensor **s)
{
    if (mt_tensor_is_contiguous(out) && out->storage != a->storage &&
        (!b || out->storage != b->storage)) {
        if (out->size) memset(mt_data(out), 0, (size_t)out->size * sizeof(float));
        *s = mt_tensor_retain(out);
        return MT_OK;
    }
    return mt_zeros(ctx, MT_BACKEND_STUDENT, out->ndim, out->shape, s);
}

/* Writes s's values into out (of s's shape), when s is a scratch of its own, and releases s. */
static enum mt_status settle(struct mt_tensor *out, struct mt_tensor *s, enum mt_status st,
                             struct mt_diag *d)
{
    if (st == MT_OK && s != out) {
        const float *src = mt_data(s);
        int64_t idx[MT_MAX_DIMS];
        for (int64_t i = 0; i < out->size; i++) {
            mt_to_index(i, out->ndim, out->shape, idx);
            mt_data(out)[mt_index_to_position(out->ndim, idx, out->strides)] = src[i];
        }
    }
    mt_tensor_release(s);
    if (d) d->path = "student ops";
    return st;
}

static enum mt_status student_map(struct mt_ctx *ctx, enum mt_map_op op, struct mt_tensor *out,
                                  const struct mt_tensor *a, struct mt_diag *d)
{
    struct mt_tensor *s = NULL;
    enum mt_status st = scratch(ctx, out, a, NULL, &s);
    if (st != MT_OK) return st;
    /* the hooks take references to their inputs, which they leave as they found them */
    st = ctx->student->map(ctx->student_user, ctx, op, s, (struct mt_tensor *)a);
    return settle(out, s, st, d);
}

static enum mt_status student_zip(struct mt_ctx *ctx, enum mt_zip_op op, struct mt_tensor *out,
                                  const struct mt_tensor *a, const struct mt_tensor *b,
                                  struct mt_diag *d)
{
    struct mt_tensor *s = NULL;
    enum mt_status st = scratch(ctx, out, a, b, &s);
    if (st != MT_OK) return st;
    st = ctx->student->zip(ctx->student_user, ctx, op, s, (struct mt_tensor *)a,
                           (struct mt_tensor *)b);
    return settle(out, s, st, d);
}

static enum mt_status student_reduce(struct mt_ctx *ctx, enum mt_reduce_op op,
                                     struct mt_tensor *out, const struct mt_tensor *a, int dim,
                                     struct mt_diag *d)
{
    struct mt_tensor *s = NULL;
    enum mt_status st = scratch(ctx, out, a, NULL, &s);
    if (st != MT_OK) return st;
    st = ctx->student->reduce(ctx->student_user, ctx, op == MT_RED_MEAN ? MT_RED_SUM : op, s,
                              (struct mt_tensor *)a, dim);
    if (st == MT_OK && op == MT_RED_MEAN) { /* as simple: the sum over the dim, divided */
        float n = (float)a->shape[dim];
        for (int64_t i = 0; i < s->size; i++) mt_data(s)[i] = n > 0 ? mt_data(s)[i] / n : NAN;
    }
    return settle(out, s, st, d);
}

static enum mt_status student_matmul(struct mt_ctx *ctx, struct mt_tensor *out,
                                     const struct mt_tensor *a, const struct mt_tensor *b,
                                     struct mt_diag *d)
{
    struct mt_tensor *s = NULL;
    enum mt_status st = scratch(ctx, out, a, b, &s);
    if (st != MT_OK) return st;
    st = ctx->student->matmul(ctx->student_user, ctx, s, (struct mt_tensor *)a,
                              (struct mt_tensor *)b);
    return settle(out, s, st, d);
}

/* A user function's map, zip and reduce (the kernel's own compiled scalar functions, not the
 * student's ops) run as simple runs them: the memory is the same. */
static enum mt_status student_prog_elementwise(struct mt_ctx *ctx, const char *what,
                                               const struct mt_prog *p, struct mt_tensor *out,
                                               const struct mt_tensor *a, const struct mt_tensor *b,
                                               struct mt_diag *d)
{
    return mt_simple_ops.prog_elementwise(ctx, what, p, out, a, b, d);
}

static enum mt_status student_prog_reduce(struct mt_ctx *ctx, const struct mt_prog *p,
                                          struct mt_tensor *out, const struct mt_tensor *a, int dim,
                                          float start, struct mt_diag *d)
{
    return mt_simple_ops.prog_reduce(ctx, p, out, a, dim, start, d);
}

/* No tiny-op shortcuts and no fused epoch: every op is the student's, through the front door,
 * and runs once (not repeatable: the student's prints would show again). */
const struct mt_backend_ops mt_student_ops = {
    MT_HOST_MEMORY_OPS,
    .available = student_available,
    .map = student_map,
    .zip = student_zip,
    .reduce = student_reduce,
    .matmul = student_matmul,
    .prog_elementwise = student_prog_elementwise,
    .prog_reduce = student_prog_reduce,
};
