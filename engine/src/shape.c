/* shape.c — index arithmetic and broadcasting (MiniTorch's tensor_data.py).
 *
 * These are the small functions the simple backend's loops are built from: an ordinal becomes
 * an index (to_index), an index becomes a storage position (index_to_position), and an index
 * into a broadcast result becomes an index into a smaller operand (broadcast_index). Shapes
 * broadcast right-aligned: dims equal or one of them 1, missing leading dims count as 1. */
#include "internal.h"

#include <stdio.h>
#include <string.h>

int64_t mt_index_to_position(int ndim, const int64_t *index, const int64_t *strides)
{
    int64_t pos = 0;
    for (int i = 0; i < ndim; i++) pos += index[i] * strides[i];
    return pos;
}

void mt_to_index(int64_t ordinal, int ndim, const int64_t *shape, int64_t *out_index)
{
    for (int i = ndim - 1; i >= 0; i--) {
        int64_t s = shape[i] > 0 ? shape[i] : 1;
        out_index[i] = ordinal % s;
        ordinal /= s;
    }
}

void mt_broadcast_index(const int64_t *big_index, int big_ndim, int ndim, const int64_t *shape,
                        int64_t *out_index)
{
    int lead = big_ndim - ndim;
    for (int i = 0; i < ndim; i++) out_index[i] = shape[i] > 1 ? big_index[i + lead] : 0;
}

char *mt_shape_str(int ndim, const int64_t *shape, char *buf, size_t len)
{
    size_t n = 0;
    if (len == 0) return buf;
    buf[0] = '\0';
    n += (size_t)snprintf(buf + n, len - n, "(");
    for (int i = 0; i < ndim && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, i ? ", %lld" : "%lld", (long long)shape[i]);
    if (n < len) snprintf(buf + n, len - n, ndim == 1 ? ",)" : ")");
    return buf;
}

enum mt_status mt_shape_broadcast(struct mt_ctx *ctx, int na, const int64_t *a, int nb,
                                  const int64_t *b, int *nout, int64_t *out)
{
    int n = na > nb ? na : nb;
    int64_t res[MT_MAX_DIMS];
    for (int i = 0; i < n; i++) {
        /* right-aligned: position i of the result is dim i-(n-na) of a */
        int ia = i - (n - na), ib = i - (n - nb);
        int64_t da = ia >= 0 ? a[ia] : 1, db = ib >= 0 ? b[ib] : 1;
        if (da == db || db == 1)
            res[i] = da;
        else if (da == 1)
            res[i] = db;
        else {
            char sa[160], sb[160];
            return mt_fail(ctx, MT_ERR_SHAPE,
                           "shapes %s and %s cannot be broadcast: dim %d is %lld in one and %lld "
                           "in the other (sizes must be equal or 1)",
                           mt_shape_str(na, a, sa, sizeof sa), mt_shape_str(nb, b, sb, sizeof sb),
                           i - n, (long long)da, (long long)db);
        }
    }
    *nout = n;
    memcpy(out, res, (size_t)n * sizeof *out);
    return MT_OK;
}

bool mt_shape_size(int ndim, const int64_t *shape, int64_t *size)
{
    int64_t n = 1;
    bool empty = false;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] == 0)
            empty = true;
        else if (!mt_checked_mul(n, shape[i], &n))
            return false;
    }
    *size = empty ? 0 : n;
    return true;
}

int64_t mt_strides_from_shape(int ndim, const int64_t *shape, int64_t *strides)
{
    int64_t size = 1;
    for (int i = ndim - 1; i >= 0; i--) {
        strides[i] = size;
        size *= shape[i];
    }
    return size;
}

void mt_expand_strides(const struct mt_tensor *t, int ndim, const int64_t *shape, int64_t *strides)
{
    int lead = ndim - t->ndim;
    for (int i = 0; i < ndim; i++) {
        int j = i - lead;
        strides[i] = (j < 0 || (t->shape[j] == 1 && shape[i] != 1)) ? 0 : t->strides[j];
    }
}
