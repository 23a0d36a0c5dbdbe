/* tensor.c — tensor objects: reference counts, construction, geometry, element access.
 *
 * A tensor is a small struct (shape, strides, offset) viewing a shared storage. Releasing the
 * last reference to a computed tensor also drops its autodiff node, whose inputs may be the
 * only owners of other nodes, and so on down a chain as long as a training loop: that walk uses
 * an explicit work list instead of recursion so that no chain length can overflow the stack. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

struct mt_tensor *mt_tensor_retain(struct mt_tensor *t)
{
    if (t) t->refs++;
    return t;
}

/* Frees t (refs already 0), pushing the tensors it owned onto the work list. */
static void free_one(struct mt_tensor *t, struct mt_tensor ***list, size_t *n, size_t *cap)
{
    enum { NOWNED = 3 + MT_CUSTOM_MAX_IN };
    struct mt_tensor *owned[NOWNED] = {t->grad, NULL};
    if (t->node) {
        owned[1] = t->node->saved;
        owned[2] = t->node->gacc;
        for (int i = 0; i < t->node->nin; i++) owned[3 + i] = t->node->in[i];
        free(t->node->what);
        /* a custom Function's data may own tensors: released through mt_tensor_release,
         * which frees with its own work list */
        if (t->node->custom.release) t->node->custom.release(t->node->custom.data);
        free(t->node);
    }
    mt_storage_release(t->storage);
    free(t);
    for (int i = 0; i < NOWNED; i++) {
        struct mt_tensor *o = owned[i];
        if (!o || --o->refs > 0) continue;
        if (*n == *cap) {
            size_t ncap = *cap ? *cap * 2 : 16;
            struct mt_tensor **grown = realloc(*list, ncap * sizeof **list);
            if (!grown) { /* out of memory for the list: recurse instead (rare, still correct) */
                free_one(o, list, n, cap);
                continue;
            }
            *list = grown;
            *cap = ncap;
        }
        (*list)[(*n)++] = o;
    }
}

void mt_tensor_release(struct mt_tensor *t)
{
    if (!t || --t->refs > 0) return;
    struct mt_tensor **list = NULL;
    size_t n = 0, cap = 0;
    free_one(t, &list, &n, &cap);
    while (n > 0) free_one(list[--n], &list, &n, &cap);
    free(list);
}

/* Releases *t (made by the failing function) and returns st. */
static enum mt_status drop(struct mt_tensor **t, enum mt_status st)
{
    mt_tensor_release(*t);
    *t = NULL;
    return st;
}

static enum mt_status check_shape(struct mt_ctx *ctx, int ndim, const int64_t *shape, int64_t *size)
{
    if (ndim < 1 || ndim > MT_MAX_DIMS)
        return mt_fail(ctx, MT_ERR_SHAPE, "a tensor has 1 to %d dims, not %d", MT_MAX_DIMS, ndim);
    for (int i = 0; i < ndim; i++)
        if (shape[i] < 0)
            return mt_fail(ctx, MT_ERR_INVALID, "negative size %lld in a shape",
                           (long long)shape[i]);
    if (!mt_shape_size(ndim, shape, size))
        return mt_fail(ctx, MT_ERR_NOMEM, "a tensor of that shape has too many elements");
    return MT_OK;
}

enum mt_status mt_tensor_wrap(struct mt_ctx *ctx, struct mt_storage *s, enum mt_backend b, int ndim,
                              const int64_t *shape, const int64_t *strides, int64_t offset,
                              struct mt_tensor **out)
{
    struct mt_tensor *t = calloc(1, sizeof *t);
    if (!t) return mt_fail(ctx, MT_ERR_NOMEM, "out of memory for a tensor");
    t->refs = 1;
    t->ndim = ndim;
    memcpy(t->shape, shape, (size_t)ndim * sizeof *shape);
    memcpy(t->strides, strides, (size_t)ndim * sizeof *strides);
    t->offset = offset;
    t->size = 1;
    for (int i = 0; i < ndim; i++) t->size *= shape[i];
    t->backend = b;
    t->storage = s;
    s->refs++;
    t->ctx = ctx;
    *out = t;
    return MT_OK;
}

enum mt_status mt_empty(struct mt_ctx *ctx, enum mt_backend b, int ndim, const int64_t *shape,
                        struct mt_tensor **out)
{
    int64_t size, strides[MT_MAX_DIMS];
    enum mt_status st = mt_backend_check(ctx, b);
    if (st == MT_OK) st = check_shape(ctx, ndim, shape, &size);
    if (st != MT_OK) return st;
    struct mt_storage *s;
    st = mt_storage_new(ctx, b, ndim, shape, size, &s);
    if (st != MT_OK) return st;
    mt_strides_from_shape(ndim, shape, strides);
    st = mt_tensor_wrap(ctx, s, b, ndim, shape, strides, 0, out);
    mt_storage_release(s);
    return st;
}

enum mt_status mt_full(struct mt_ctx *ctx, enum mt_backend b, int ndim, const int64_t *shape,
                       float value, struct mt_tensor **out)
{
    enum mt_status st = mt_empty(ctx, b, ndim, shape, out);
    if (st != MT_OK) return st;
    st = (*out)->storage->mem->fill(ctx, (*out)->storage->data, (*out)->size, value);
    return st == MT_OK ? MT_OK : drop(out, st);
}

enum mt_status mt_zeros(struct mt_ctx *ctx, enum mt_backend b, int ndim, const int64_t *shape,
                        struct mt_tensor **out)
{
    return mt_full(ctx, b, ndim, shape, 0.0f, out);
}

enum mt_status mt_ones(struct mt_ctx *ctx, enum mt_backend b, int ndim, const int64_t *shape,
                       struct mt_tensor **out)
{
    return mt_full(ctx, b, ndim, shape, 1.0f, out);
}

enum mt_status mt_rand(struct mt_ctx *ctx, enum mt_backend b, int ndim, const int64_t *shape,
                       struct mt_tensor **out)
{
    enum mt_status st = mt_empty(ctx, b, ndim, shape, out);
    if (st != MT_OK) return st;
    const int64_t n = (*out)->size;
    const struct mt_backend_ops *mem = (*out)->storage->mem;
    bool dev = !mem->host; /* drawn on the host (the same stream), then copied */
    float *d = dev ? malloc((size_t)(n > 0 ? n : 1) * sizeof *d) : (*out)->storage->data;
    if (!d) return drop(out, mt_fail(ctx, MT_ERR_NOMEM, "out of memory for random numbers"));
    for (int64_t i = 0; i < n; i++) {
        /* tens of milliseconds per million draws: an interrupt must not wait for them all */
        if ((i & 0xFFFF) == 0 && i && mt_cancel_requested()) {
            if (dev) free(d);
            return drop(out, mt_fail(ctx, MT_ERR_CANCELLED, "interrupted"));
        }
        d[i] = (float)mt_random(ctx);
    }
    if (dev) {
        st = mem->upload(ctx, (*out)->storage->data, d, n);
        free(d);
        if (st != MT_OK) return drop(out, st);
    }
    return MT_OK;
}

enum mt_status mt_from_data(struct mt_ctx *ctx, enum mt_backend b, int ndim, const int64_t *shape,
                            const float *data, struct mt_tensor **out)
{
    enum mt_status st = mt_empty(ctx, b, ndim, shape, out);
    if (st != MT_OK) return st;
    st = (*out)->storage->mem->upload(ctx, (*out)->storage->data, data, (*out)->size);
    return st == MT_OK ? MT_OK : drop(out, st);
}

bool mt_tensor_is_contiguous(const struct mt_tensor *t)
{
    int64_t expect = 1;
    for (int i = t->ndim - 1; i >= 0; i--) {
        if (t->shape[i] != 1 && t->strides[i] != expect) return false;
        expect *= t->shape[i];
    }
    return true;
}

float *mt_tensor_data(const struct mt_tensor *t) { return mt_data(t); }

static enum mt_status locate(struct mt_ctx *ctx, const struct mt_tensor *t, int n,
                             const int64_t *index, int64_t *pos)
{
    char sh[160];
    if (n != t->ndim)
        return mt_fail(ctx, MT_ERR_INDEX, "a tensor of shape %s needs %d indices, got %d",
                       mt_shape_str(t->ndim, t->shape, sh, sizeof sh), t->ndim, n);
    int64_t p = 0;
    for (int i = 0; i < n; i++) {
        int64_t k = index[i] < 0 ? index[i] + t->shape[i] : index[i];
        if (k < 0 || k >= t->shape[i])
            return mt_fail(ctx, MT_ERR_INDEX, "index %lld is out of range for dim %d of size %lld",
                           (long long)index[i], i, (long long)t->shape[i]);
        p += k * t->strides[i];
    }
    *pos = p;
    return MT_OK;
}

enum mt_status mt_tensor_get(struct mt_ctx *ctx, const struct mt_tensor *t, int n,
                             const int64_t *index, float *value)
{
    int64_t p;
    enum mt_status st = locate(ctx, t, n, index, &p);
    if (st != MT_OK) return st;
    if (!t->storage->mem->host) return t->storage->mem->download(ctx, value, mt_data(t) + p, 1);
    *value = mt_data(t)[p];
    return MT_OK;
}

enum mt_status mt_tensor_set(struct mt_ctx *ctx, struct mt_tensor *t, int n, const int64_t *index,
                             float value)
{
    int64_t p;
    enum mt_status st = locate(ctx, t, n, index, &p);
    if (st != MT_OK) return st;
    mt_written(t);
    if (!t->storage->mem->host) return t->storage->mem->upload(ctx, mt_data(t) + p, &value, 1);
    mt_data(t)[p] = value;
    return MT_OK;
}

void mt_tensor_mark_written(struct mt_tensor *t) { mt_written(t); }

enum mt_status mt_tensor_copy_out(const struct mt_tensor *t, float *dst)
{
    if (t->size == 0) return MT_OK;
    const float *src = mt_data(t);
    const struct mt_backend_ops *mem = t->storage->mem;
    if (!mem->host) { /* made contiguous on the device first: one copy across */
        if (mt_tensor_is_contiguous(t)) return mem->download(t->ctx, dst, src, t->size);
        struct mt_tensor *c = NULL;
        enum mt_status st = mt_copy_raw(t->ctx, t, &c);
        if (st == MT_OK) st = mem->download(t->ctx, dst, mt_data(c), c->size);
        mt_tensor_release(c);
        return st;
    }
    if (mt_tensor_is_contiguous(t)) {
        memcpy(dst, src, (size_t)t->size * sizeof(float));
        return MT_OK;
    }
    int64_t idx[MT_MAX_DIMS] = {0};
    for (int64_t i = 0; i < t->size; i++) {
        dst[i] = src[mt_index_to_position(t->ndim, idx, t->strides)];
        for (int d = t->ndim - 1; d >= 0; d--) { /* odometer, last dim fastest */
            if (++idx[d] < t->shape[d]) break;
            idx[d] = 0;
        }
    }
    return MT_OK;
}

enum mt_status mt_to_raw(struct mt_ctx *ctx, struct mt_tensor *t, enum mt_backend b,
                         struct mt_tensor **out)
{
    if (b == t->backend) {
        *out = mt_tensor_retain(t);
        return MT_OK;
    }
    const struct mt_backend_ops *to = mt_backend_ops_of(b);
    if (to->host && t->storage->mem->host) /* between host backends the storage is shared */
        return mt_tensor_wrap(ctx, t->storage, b, t->ndim, t->shape, t->strides, t->offset, out);
    struct mt_tensor *r = NULL;
    enum mt_status st = mt_empty(ctx, b, t->ndim, t->shape, &r);
    if (st != MT_OK) return st;
    if (to->host) { /* from the device */
        st = mt_tensor_copy_out(t, mt_data(r));
    } else if (t->storage->mem->host && mt_tensor_is_contiguous(t)) {
        st = to->upload(ctx, mt_data(r), mt_data(t), t->size);
    } else { /* gathered on the host, then one copy across */
        float *tmp = malloc((size_t)(t->size > 0 ? t->size : 1) * sizeof *tmp);
        st = tmp ? mt_tensor_copy_out(t, tmp)
                 : mt_fail(ctx, MT_ERR_NOMEM, "out of memory for a copy to the GPU");
        if (st == MT_OK) st = to->upload(ctx, mt_data(r), tmp, t->size);
        free(tmp);
    }
    if (st != MT_OK) return drop(&r, st);
    *out = r;
    return MT_OK;
}

/* Gives t the memory, strides and backend of r (t's values on another backend); r takes t's. */
static void swap_place(struct mt_tensor *t, struct mt_tensor *r)
{
    struct mt_tensor keep = *t;
    memcpy(t->strides, r->strides, sizeof t->strides);
    t->offset = r->offset;
    t->backend = r->backend;
    t->storage = r->storage;
    memcpy(r->strides, keep.strides, sizeof r->strides);
    r->offset = keep.offset;
    r->backend = keep.backend;
    r->storage = keep.storage;
}

enum mt_status mt_move(struct mt_ctx *ctx, struct mt_tensor *t, enum mt_backend b)
{
    enum mt_status st = mt_backend_check(ctx, b);
    if (st != MT_OK || b == t->backend) return st;
    if (t->node)
        return mt_fail(ctx, MT_ERR_GRAD,
                       "only a tensor without autodiff history can move to %s in place (this "
                       "one was computed from others); .to(\"%s\") gives a copy that gradients "
                       "flow through",
                       mt_backend_name(b), mt_backend_name(b));
    struct mt_tensor *r = NULL, *g = NULL;
    if ((st = mt_to_raw(ctx, t, b, &r)) != MT_OK) return st;
    if (t->grad && (st = mt_to_raw(ctx, t->grad, b, &g)) != MT_OK) return drop(&r, st);
    /* Ops recorded before the move saved t's old memory: a new storage starts past its version,
     * so that backward through them says t was changed rather than mixing two backends. */
    if (r->storage != t->storage) r->storage->version = t->storage->version + 1;
    swap_place(t, r);
    mt_tensor_release(r);
    if (g) {
        if (g->storage != t->grad->storage) g->storage->version = t->grad->storage->version + 1;
        swap_place(t->grad, g);
        mt_tensor_release(g);
    }
    return MT_OK;
}

/* ---- raw views ---- */

enum mt_status mt_view_raw(struct mt_ctx *ctx, struct mt_tensor *t, int ndim,
                           const int64_t *shape_in, struct mt_tensor **out)
{
    char a[160], b[160];
    if (ndim < 1 || ndim > MT_MAX_DIMS)
        return mt_fail(ctx, MT_ERR_SHAPE, "a tensor has 1 to %d dims, not %d", MT_MAX_DIMS, ndim);
    int64_t shape[MT_MAX_DIMS], known, strides[MT_MAX_DIMS];
    int infer = -1;
    for (int i = 0; i < ndim; i++) {
        shape[i] = shape_in[i];
        if (shape[i] == -1 && infer < 0) {
            infer = i;
            shape[i] = 1; /* the known sizes' product first */
        } else if (shape[i] < 0)
            return mt_fail(ctx, MT_ERR_SHAPE, "invalid size %lld in view (only one -1 allowed)",
                           (long long)shape[i]);
    }
    /* sizes whose product passes any tensor's cannot match t's (and would wrap) */
    bool fits = mt_shape_size(ndim, shape, &known);
    if (fits && infer >= 0 && known == 0) /* any size fits beside a 0: numpy, PyTorch refuse */
        return mt_fail(ctx, MT_ERR_SHAPE,
                       "cannot view a tensor of shape %s as %s: the -1 is "
                       "ambiguous next to a size 0",
                       mt_shape_str(t->ndim, t->shape, a, sizeof a),
                       mt_shape_str(ndim, shape_in, b, sizeof b));
    if (fits && infer >= 0) {
        fits = t->size % known == 0;
        shape[infer] = t->size / known;
        known *= shape[infer]; /* at most t->size */
    }
    if (!fits || known != t->size)
        return mt_fail(ctx, MT_ERR_SHAPE, "cannot view a tensor of shape %s (%lld elements) as %s",
                       mt_shape_str(t->ndim, t->shape, a, sizeof a), (long long)t->size,
                       mt_shape_str(ndim, shape_in, b, sizeof b));
    if (!mt_tensor_is_contiguous(t))
        return mt_fail(ctx, MT_ERR_SHAPE,
                       "view needs a contiguous tensor; this one (shape %s, strides %s) is not: "
                       "call contiguous() first",
                       mt_shape_str(t->ndim, t->shape, a, sizeof a),
                       mt_shape_str(t->ndim, t->strides, b, sizeof b));
    mt_strides_from_shape(ndim, shape, strides);
    return mt_tensor_wrap(ctx, t->storage, t->backend, ndim, shape, strides, t->offset, out);
}

enum mt_status mt_permute_raw(struct mt_ctx *ctx, struct mt_tensor *t, int ndim,
                              const int64_t *order, struct mt_tensor **out)
{
    if (ndim != t->ndim)
        return mt_fail(ctx, MT_ERR_SHAPE, "permute of a %d-dim tensor needs %d dims, got %d",
                       t->ndim, t->ndim, ndim);
    int64_t shape[MT_MAX_DIMS], strides[MT_MAX_DIMS];
    bool seen[MT_MAX_DIMS] = {false};
    for (int i = 0; i < ndim; i++) {
        int64_t d = order[i] < 0 ? order[i] + ndim : order[i];
        if (d < 0 || d >= ndim || seen[d])
            return mt_fail(ctx, MT_ERR_INDEX,
                           "permute needs each dim 0..%d exactly once (bad or repeated: %lld)",
                           ndim - 1, (long long)order[i]);
        seen[d] = true;
        shape[i] = t->shape[d];
        strides[i] = t->strides[d];
    }
    return mt_tensor_wrap(ctx, t->storage, t->backend, ndim, shape, strides, t->offset, out);
}

enum mt_status mt_copy_raw(struct mt_ctx *ctx, const struct mt_tensor *t, struct mt_tensor **out)
{
    struct mt_tensor *r = NULL;
    enum mt_status st = mt_map(ctx, MT_MAP_ID, t, &r);
    if (st == MT_OK) *out = r;
    return st;
}

enum mt_status mt_as_strided(struct mt_ctx *ctx, struct mt_tensor *t, int ndim,
                             const int64_t *shape, const int64_t *strides, int64_t offset,
                             struct mt_tensor **out)
{
    int64_t size;
    enum mt_status st = check_shape(ctx, ndim, shape, &size);
    if (st != MT_OK) return st;
    /* Every reachable position must lie in [0, nelem), and every stride be at most the
     * storage's size, so that loops stepping once past a dim's end (the GEMM's, the odometers')
     * stay within nelem of the storage. A dim of size 1 never steps by its stride: one longer
     * than the storage there (x[::3] of two elements) becomes 0 instead of an error. An empty
     * view reaches nothing, so any offset from 0 is accepted, as an empty slice past the end is
     * (x[1:, 1:] of a (1, 4) tensor starts at position 5 of 4); it is kept clamped to nelem, with
     * row-major strides (bounded by its sizes) whatever it was given. */
    const int64_t nelem = t->storage->nelem;
    int64_t start, lo, hi, rowmajor[MT_MAX_DIMS], kept[MT_MAX_DIMS];
    for (int i = 0; i < ndim; i++)
        kept[i] = shape[i] == 1 && (strides[i] < -nelem || strides[i] > nelem) ? 0 : strides[i];
    bool in = mt_checked_add(t->offset, offset, &start);
    lo = hi = start;
    for (int i = 0; i < ndim && in && size > 0; i++) {
        int64_t span;
        in = kept[i] >= -nelem && kept[i] <= nelem && mt_checked_mul(shape[i] - 1, kept[i], &span);
        if (in) in = span < 0 ? mt_checked_add(lo, span, &lo) : mt_checked_add(hi, span, &hi);
    }
    char sh[160], sd[160];
    if (!in || start < 0 || (size > 0 && (lo < 0 || hi >= nelem)))
        return mt_fail(ctx, MT_ERR_INDEX,
                       "as_strided view (shape %s, strides %s, offset %lld) reaches outside the "
                       "storage of %lld elements",
                       mt_shape_str(ndim, shape, sh, sizeof sh),
                       mt_shape_str(ndim, strides, sd, sizeof sd), (long long)offset,
                       (long long)nelem);
    if (size == 0) {
        mt_strides_from_shape(ndim, shape, rowmajor);
        memcpy(kept, rowmajor, (size_t)ndim * sizeof *kept);
        start = start > nelem ? nelem : start;
    }
    return mt_tensor_wrap(ctx, t->storage, t->backend, ndim, shape, kept, start, out);
}

enum mt_status mt_tensor_requires_grad(struct mt_tensor *t, bool on)
{
    if (!on && t->node)
        return mt_fail(t->ctx, MT_ERR_GRAD,
                       "requires_grad can only be turned off on a leaf tensor; use detach()");
    t->requires_grad = on;
    return MT_OK;
}

enum mt_status mt_detach(struct mt_ctx *ctx, struct mt_tensor *t, struct mt_tensor **out)
{
    return mt_tensor_wrap(ctx, t->storage, t->backend, t->ndim, t->shape, t->strides, t->offset,
                          out);
}

void mt_zero_grad(struct mt_tensor *t)
{
    mt_tensor_release(t->grad);
    t->grad = NULL;
}
