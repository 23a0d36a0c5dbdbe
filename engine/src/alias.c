/* alias.c — outputs that overlap their inputs.
 *
 * The raw ops and user functions may write into a tensor the caller gives (`out`), and that
 * tensor may view the storage an input views: map(exp, x.permute(1, 0), out=x). Writing out
 * while reading such an input reads elements already overwritten, in an order that depends on
 * the backend's loops and threads. numpy answers by reading a copy of the input when the two
 * overlap; PyTorch raises. The engine copies (students write `out=`), except where the input is
 * out itself: an elementwise op reading each element before writing it in place is how in-place
 * updates work (SGD's p = p - lr * grad, written into p). */
#include "internal.h"

/* The lowest and highest storage positions t reaches (t->size > 0). Geometry was checked when
 * the view was made, so these sums stay far inside int64 (MT_MAX_ELEMS). */
static void reach(const struct mt_tensor *t, int64_t *lo, int64_t *hi)
{
    *lo = *hi = t->offset;
    for (int d = 0; d < t->ndim; d++) {
        int64_t span = (t->shape[d] - 1) * t->strides[d];
        if (span < 0)
            *lo += span;
        else
            *hi += span;
    }
}

/* The same elements in the same order: equal shapes, offsets and strides (a dim of size 1 is
 * never stepped, so its stride does not count). */
static bool same_geometry(const struct mt_tensor *a, const struct mt_tensor *b)
{
    if (a->ndim != b->ndim || a->offset != b->offset) return false;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d] || (a->shape[d] != 1 && a->strides[d] != b->strides[d]))
            return false;
    return true;
}

/* mt_overlaps past its inline test that the storages are the same */
bool mt_overlaps_shared(const struct mt_tensor *out, const struct mt_tensor *in, bool elementwise)
{
    if (out->size == 0 || in->size == 0) return false;
    if (elementwise && same_geometry(out, in)) return false;
    int64_t olo, ohi, ilo, ihi;
    reach(out, &olo, &ohi);
    reach(in, &ilo, &ihi);
    return olo <= ihi && ilo <= ohi;
}

enum mt_status mt_check_out(struct mt_ctx *ctx, const char *op, const struct mt_tensor *out)
{
    /* An empty output is never written, whatever its strides: row-major strides of a shape
     * with a 0 in it are 0 on the dims before the 0, and a permute moves them anywhere. */
    if (out->size == 0) return MT_OK;
    for (int d = 0; d < out->ndim; d++)
        if (out->shape[d] > 1 && out->strides[d] == 0)
            return mt_fail(ctx, MT_ERR_INVALID,
                           "%s: the output repeats elements (its dim %d of size %lld has stride "
                           "0, as a broadcast view's), so its values would depend on the order of "
                           "the writes: write into a tensor of its own",
                           op, d, (long long)out->shape[d]);
    return MT_OK;
}

enum mt_status mt_unalias(struct mt_ctx *ctx, const struct mt_tensor *out,
                          const struct mt_tensor **in, bool elementwise, struct mt_tensor **copy)
{
    *copy = NULL;
    if (!*in || !mt_overlaps(out, *in, elementwise)) return MT_OK;
    enum mt_status st = mt_copy_raw(ctx, *in, copy);
    if (st == MT_OK) *in = *copy;
    return st;
}
