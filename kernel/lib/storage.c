/* storage.c — MiniTorch's view of a tensor's memory: t._tensor (its TensorData), t.tuple()
 * (storage, shape, strides) and minitorch.TensorData.
 *
 * The templates of the course's kernels index memory directly: `_map(out, out_shape,
 * out_strides, in_storage, in_shape, in_strides)` reads in_storage[j] and writes out[i] at
 * positions computed from the strides, and its caller passes `*out.tuple(), *a.tuple()`. A
 * Storage here is that memory: the float32 elements of the tensor's storage from its first
 * element to the last one the tensor reaches, read and written in place (a write is seen by the
 * tensor and every view of it), indexed as a list is (len, negative indices, iteration, x[:] =
 * values). Shapes and strides are tuples of ints. */
#include "lib/storage.h"

#include "lang/datamodel.h"
#include "lang/interp.h"
#include "lib/jit.h"
#include "lib/tensor_methods.h"

#include "minitorch/minitorch.h"

#include <stdlib.h>
#include <string.h>

static struct mt_ctx *ctx_of(struct dsl_interp *in) { return in->session->ctx; }

static void tensor_state_free(void *state) { mt_tensor_release(state); }

/* ---- Storage ---------------------------------------------------------------------------- */

/* The state is a 1-D view of the storage the tensor reaches: element k is position k, counted
 * from the tensor's first element. */
static struct mt_tensor *view_of(struct dsl_value self) { return self.as.obj->state; }

static int storage_repr(struct render_buf *b, const void *state)
{
    const struct mt_tensor *v = state;
    render_buf_puts(b, "Storage([");
    int64_t shown = v->size < 100 ? v->size : 100;
    for (int64_t k = 0; k < shown; k++) {
        float x = 0.0f;
        mt_tensor_get(v->ctx, v, 1, &k, &x);
        char f[40];
        size_t n = render_float_repr((double)x, f, sizeof f);
        if (k) render_buf_puts(b, ", ");
        render_buf_append(b, f, n);
    }
    if (shown < v->size) render_buf_printf(b, ", ... (%lld in all)", (long long)v->size);
    render_buf_puts(b, "])");
    return b->nomem ? DSL_V_NOMEM : b->over ? DSL_V_TOOBIG : DSL_V_OK;
}

/* key as a position in [0, len): Python's rules for a list index. */
static int position(struct dsl_interp *in, struct dsl_value self, struct dsl_value key, int64_t *k)
{
    return dsl_index_of(in, key, view_of(self)->size, "Storage", k);
}

static int storage_getitem(struct dsl_interp *in, struct dsl_value self, struct dsl_value key,
                           struct dsl_value *out)
{
    int64_t k;
    if (position(in, self, key, &k) != 0) return -1;
    float x = 0.0f;
    enum mt_status st = mt_tensor_get(ctx_of(in), view_of(self), 1, &k, &x);
    if (st != MT_OK) return dsl_engine_raise(in, st);
    *out = dsl_float((double)x);
    return 0;
}

static int store_number(struct dsl_interp *in, struct dsl_value self, int64_t k, struct dsl_value v)
{
    if (!dsl_is_number(v))
        return dsl_raise(in, "TypeError", "a Storage holds numbers, not %s", dsl_type_name(v));
    enum mt_status st = mt_tensor_set(ctx_of(in), view_of(self), 1, &k, (float)dsl_as_double(v));
    return st != MT_OK ? dsl_engine_raise(in, st) : 0;
}

static int storage_setitem(struct dsl_interp *in, struct dsl_value self, struct dsl_value key,
                           struct dsl_value v)
{
    int64_t k;
    if (position(in, self, key, &k) != 0) return -1;
    return store_number(in, self, k, v);
}

/* x[:] = v: a number fills every element; an iterable of as many numbers replaces them. */
static int storage_setall(struct dsl_interp *in, struct dsl_value self, struct dsl_value v)
{
    int64_t n = view_of(self)->size;
    if (dsl_is_number(v)) {
        for (int64_t k = 0; k < n; k++)
            if (store_number(in, self, k, v) != 0) return -1;
        return 0;
    }
    struct dsl_iter it;
    if (dsl_iter_init(in, v, &it) != 0) return -1;
    int64_t k = 0;
    for (;;) {
        struct dsl_value item;
        int got = dsl_iter_next(in, &it, &item);
        int r = got > 0 && k < n ? store_number(in, self, k, item) : 0;
        if (got > 0) dsl_value_release(item);
        if (got <= 0 || r != 0) {
            dsl_iter_end(&it);
            if (got < 0 || r != 0) return -1;
            break;
        }
        k++;
    }
    if (k != n)
        return dsl_raise(in, "ValueError",
                         "could not assign %lld values to a Storage of %lld elements", (long long)k,
                         (long long)n);
    return 0;
}

static int storage_len(struct dsl_interp *in, struct dsl_value self, int64_t *n)
{
    (void)in;
    *n = view_of(self)->size;
    return 0;
}

static int storage_getattr(struct dsl_interp *in, struct dsl_value self, const char *name,
                           struct dsl_value *out)
{
    (void)self;
    (void)out;
    return dsl_raise(in, "AttributeError", "'Storage' object has no attribute '%s'", name);
}

static const char *const storage_attrs[] = {NULL};

static const struct dsl_object_class storage_class = {
    .name = "Storage",
    .doc = "Storage: a tensor's memory as MiniTorch's kernels see it (t._tensor._storage, the "
           "first item of t.tuple()): its float32 elements from position 0, indexed as a list "
           "(s[i], s[i] = x, len(s), for x in s, s[:] = values). A write changes the tensor and "
           "every view of it. Element i of a tensor with strides (s0, s1, ...) at index (i0, i1, "
           "...) is at position i0*s0 + i1*s1 + ...",
    .attrs = storage_attrs,
    .free = tensor_state_free,
    .repr = storage_repr,
    .getattr = storage_getattr,
    .getitem = storage_getitem,
    .setitem = storage_setitem,
    .setall = storage_setall,
    .len = storage_len,
};

bool dsl_storage_view(struct dsl_value v, struct mt_tensor **t)
{
    if (v.kind != DSL_OBJECT || v.as.obj->cls != &storage_class) return false;
    *t = view_of(v);
    return true;
}

/* The Storage of tensor t: every position from t's first element to the last that t reaches.
 * MiniTorch's tensors have no offset: positions count from the tensor's first element, so a
 * view that starts further into its storage indexes as the course's kernels expect. */
int dsl_storage_of(struct dsl_interp *in, struct mt_tensor *t, struct dsl_value *out)
{
    int64_t len = 0;
    if (t->size > 0) {
        len = 1;
        for (int i = 0; i < t->ndim; i++) len += (t->shape[i] - 1) * t->strides[i];
    }
    int64_t one = 1;
    struct mt_tensor *view = NULL;
    enum mt_status st = mt_as_strided(ctx_of(in), t, 1, &len, &one, 0, &view);
    if (st != MT_OK) return dsl_engine_raise(in, st);
    int vs = dsl_object_value(&storage_class, view, out);
    return vs != DSL_V_OK ? dsl_raise_status(in, vs) : 0;
}

/* ---- TensorData ------------------------------------------------------------------------- */

/* (storage, shape, strides) of t: what MiniTorch's t.tuple() and TensorData.tuple() give. */
static int tuple_of(struct dsl_interp *in, struct mt_tensor *t, struct dsl_value *out)
{
    struct dsl_value parts[3] = {dsl_none(), dsl_none(), dsl_none()};
    if (dsl_storage_of(in, t, &parts[0]) != 0 ||
        dsl_int_tuple(in, t->shape, t->ndim, &parts[1]) != 0 ||
        dsl_int_tuple(in, t->strides, t->ndim, &parts[2]) != 0) {
        for (int i = 0; i < 3; i++) dsl_value_release(parts[i]);
        return -1;
    }
    struct dsl_list *l = dsl_list_new(3);
    if (!l) {
        for (int i = 0; i < 3; i++) dsl_value_release(parts[i]);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    l->style = DSL_LIST_TUPLE;
    for (int i = 0; i < 3; i++) dsl_list_push(l, parts[i]);
    *out = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    return 0;
}

static struct mt_tensor *data_of(struct dsl_value self) { return self.as.obj->state; }

static int td_tuple(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return tuple_of(in, data_of(a->self), ret);
}

/* MiniTorch's TensorData.index: the storage position of a full index, with its checks. */
static int td_index(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    const struct mt_tensor *t = data_of(a->self);
    struct dsl_value ix = a->slot[0];
    if (dsl_is_intlike(ix) && t->ndim == 1) {
        int64_t i = dsl_as_int(ix);
        if (i < 0 || i >= t->shape[0])
            return dsl_raise(in, "IndexingError", "Index %lld out of range %lld.", (long long)i,
                             (long long)t->shape[0]);
        *ret = dsl_int(i * t->strides[0]);
        return 0;
    }
    if (ix.kind != DSL_LIST)
        return dsl_raise(in, "TypeError", "index() takes a tuple of ints, not %s",
                         dsl_type_name(ix));
    if ((int)ix.as.l->len != t->ndim)
        return dsl_raise(in, "IndexingError", "Index must be size %d.", t->ndim);
    int64_t pos = 0;
    for (int i = 0; i < t->ndim; i++) {
        struct dsl_value v = ix.as.l->items[i];
        if (!dsl_is_intlike(v))
            return dsl_raise(in, "TypeError", "index() takes a tuple of ints, not one of %s",
                             dsl_type_name(v));
        int64_t k = dsl_as_int(v);
        if (k < 0) return dsl_raise(in, "IndexingError", "Negative indexing not supported.");
        if (k >= t->shape[i])
            return dsl_raise(in, "IndexingError", "Index %lld out of range %lld.", (long long)k,
                             (long long)t->shape[i]);
        pos += k * t->strides[i];
    }
    *ret = dsl_int(pos);
    return 0;
}

static int td_is_contiguous(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)in;
    *ret = dsl_bool(mt_tensor_is_contiguous(data_of(a->self)));
    return 0;
}

static int tensor_data_value(struct dsl_interp *in, struct mt_tensor *t, struct dsl_value *out);

/* The full index of element `ordinal` in row-major order, as a tuple (MiniTorch's to_index). */
static int index_tuple(struct dsl_interp *in, const struct mt_tensor *t, int64_t ordinal,
                       struct dsl_value *out)
{
    int64_t ix[MT_MAX_DIMS];
    for (int d = t->ndim - 1; d >= 0; d--) {
        ix[d] = ordinal % t->shape[d];
        ordinal /= t->shape[d];
    }
    return dsl_int_tuple(in, ix, t->ndim, out);
}

/* indices(): every full index in row-major order, as MiniTorch's generator gives them */
static int td_indices(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    const struct mt_tensor *t = data_of(a->self);
    struct dsl_list *l = dsl_list_new((size_t)t->size);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    struct dsl_value all = {.kind = DSL_LIST, .as.l = l};
    for (int64_t k = 0; k < t->size; k++) {
        struct dsl_value ix;
        if (index_tuple(in, t, k, &ix) != 0 || dsl_list_push(l, ix) != DSL_V_OK) {
            dsl_value_release(all);
            return in->ename ? -1 : dsl_raise_status(in, DSL_V_NOMEM);
        }
    }
    int r = dsl_generator_over(in, all, dsl_none(), ret);
    dsl_value_release(all);
    return r;
}

/* sample(): a random full index, one draw per dim from the session's generator (Python's
 * randint(0, s - 1), so seed() gives MiniTorch's draws) */
static int td_sample(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    const struct mt_tensor *t = data_of(a->self);
    int64_t ix[MT_MAX_DIMS];
    for (int d = 0; d < t->ndim; d++)
        ix[d] = (int64_t)mt_random_below(ctx_of(in), (uint64_t)t->shape[d]);
    return dsl_int_tuple(in, ix, t->ndim, ret);
}

/* get(index): the element at a full index, as a float */
static int td_get(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value pos;
    if (td_index(in, a, &pos) != 0) return -1;
    int64_t k = pos.as.i, n = 1;
    struct mt_tensor *t = data_of(a->self), *flat = NULL;
    float x = 0;
    /* the storage element k, wherever the view's own offset puts it */
    int64_t one = 1;
    enum mt_status st = mt_as_strided(ctx_of(in), t, 1, &n, &one, k, &flat);
    if (st == MT_OK) st = mt_tensor_get(ctx_of(in), flat, 1, &(int64_t){0}, &x);
    mt_tensor_release(flat);
    if (st != MT_OK) return dsl_engine_raise(in, st);
    *ret = dsl_float((double)x);
    return 0;
}

/* permute(*order): the same storage seen with its dims reordered */
static int td_permute(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct mt_tensor *t = data_of(a->self), *view = NULL;
    int64_t order[MT_MAX_DIMS];
    bool seen[MT_MAX_DIMS] = {false}, ok = (int)a->nrest == t->ndim;
    for (size_t i = 0; ok && i < a->nrest; i++) {
        ok = dsl_is_intlike(a->rest[i]) && dsl_as_int(a->rest[i]) >= 0 &&
             dsl_as_int(a->rest[i]) < t->ndim && !seen[dsl_as_int(a->rest[i])];
        if (ok) seen[order[i] = dsl_as_int(a->rest[i])] = true;
    }
    if (!ok) { /* MiniTorch's assertion, word for word */
        struct render_buf b;
        char sh[160];
        render_buf_init(&b, 0);
        render_buf_printf(&b, "Must give a position to each dimension. Shape: %s Order: (",
                          mt_shape_str(t->ndim, t->shape, sh, sizeof sh));
        for (size_t i = 0; i < a->nrest; i++) {
            if (i) render_buf_puts(&b, ", ");
            dsl_value_repr(&b, a->rest[i]);
        }
        render_buf_puts(&b, a->nrest == 1 ? ",)" : ")");
        dsl_raise(in, "AssertionError", "%s", render_buf_str(&b));
        render_buf_free(&b);
        return -1;
    }
    enum mt_status st = mt_permute(ctx_of(in), t, t->ndim, order, &view);
    if (st != MT_OK) return dsl_engine_raise(in, st);
    int r = tensor_data_value(in, view, ret);
    mt_tensor_release(view);
    return r;
}

/* to_string(): MiniTorch's text of a TensorData: nested brackets, one row a line, each value
 * as f"{v:3.2f}" */
static int td_to_string(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    const struct mt_tensor *t = data_of(a->self);
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_STR_BYTES);
    int64_t ix[MT_MAX_DIMS];
    for (int64_t k = 0; k < t->size; k++) {
        int64_t rest = k;
        for (int d = t->ndim - 1; d >= 0; d--) {
            ix[d] = rest % t->shape[d];
            rest /= t->shape[d];
        }
        int open = t->ndim; /* the trailing dims at their first index open a bracket each */
        while (open > 0 && ix[open - 1] == 0) open--;
        for (int d = open; d < t->ndim; d++) {
            render_buf_putc(&b, '\n');
            for (int i = 0; i < d; i++) render_buf_putc(&b, '\t');
            render_buf_putc(&b, '[');
        }
        float x = 0;
        enum mt_status st = mt_tensor_get(ctx_of(in), t, t->ndim, ix, &x);
        if (st != MT_OK) {
            render_buf_free(&b);
            return dsl_engine_raise(in, st);
        }
        render_buf_printf(&b, "%3.2f", (double)x);
        int close = t->ndim; /* and those at their last close one */
        while (close > 0 && ix[close - 1] == t->shape[close - 1] - 1) close--;
        for (int d = close; d < t->ndim; d++) render_buf_putc(&b, ']');
        if (close == t->ndim) render_buf_putc(&b, ' ');
    }
    int r = b.nomem || b.over ? dsl_raise_status(in, DSL_V_NOMEM)
            : dsl_str_value(render_buf_str(&b), b.len, ret) != DSL_V_OK
                ? dsl_raise_status(in, DSL_V_NOMEM)
                : 0;
    render_buf_free(&b);
    return r;
}

/* MiniTorch's TensorData.to_cuda_(): its storage goes to the device unless it is there. Where
 * cuda.jit kernels run in the kernel's simulator (no GPU, or %cuda simulate), the simulator's
 * device memory is the host's, as Numba's simulator's is, so the storage stays where it is;
 * otherwise the memory moves to the GPU, and with it the tensor's it belongs to (t._tensor is
 * the tensor's own, as in MiniTorch). */
static int td_to_cuda_(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct mt_tensor *t = data_of(a->self);
    if (t->backend != MT_BACKEND_CUDA && !dsl_cuda_simulating(ctx_of(in))) {
        enum mt_status st = mt_move(ctx_of(in), t, MT_BACKEND_CUDA);
        if (st != MT_OK) return dsl_engine_raise(in, st);
    }
    *ret = dsl_none();
    return 0;
}

static const char *const index_params[] = {"index", NULL};

static const struct dsl_builtin td_methods[] = {
    {"tuple", "tensor_data.tuple()", 0, 0, NULL, td_tuple,
     "(storage, shape, strides): what a kernel of the course takes for one tensor."},
    {"index", "tensor_data.index(index)", 1, 1, index_params, td_index,
     "The storage position of a full index (a tuple of ints, one per dim): MiniTorch's "
     "index_to_position with its checks (IndexingError for a wrong length, a negative or an "
     "out-of-range index)."},
    {"is_contiguous", "tensor_data.is_contiguous()", 0, 0, NULL, td_is_contiguous,
     "Whether the strides are row-major for the shape."},
    {"get", "tensor_data.get(index)", 1, 1, index_params, td_get,
     "The element at a full index, as a float."},
    {"indices", "tensor_data.indices()", 0, 0, NULL, td_indices,
     "Every full index, in row-major order (a generator)."},
    {"permute", "tensor_data.permute(*order)", 0, -1, NULL, td_permute,
     "The same storage with its dims reordered: order is a permutation of 0 .. dims - 1."},
    {"sample", "tensor_data.sample()", 0, 0, NULL, td_sample,
     "A random full index, drawn from the session's generator."},
    {"to_string", "tensor_data.to_string()", 0, 0, NULL, td_to_string,
     "MiniTorch's text of the values: nested brackets, each value as f\"{v:3.2f}\"."},
    {"to_cuda_", "tensor_data.to_cuda_()", 0, 0, NULL, td_to_cuda_,
     "Moves the memory to the GPU, the tensor's it belongs to included (MiniTorch's "
     "to_cuda_()); where cuda.jit kernels run in the simulator, it stays in host memory, "
     "which simulated kernels take as the device's."},
};

static int td_getattr(struct dsl_interp *in, struct dsl_value self, const char *name,
                      struct dsl_value *out)
{
    struct mt_tensor *t = data_of(self);
    if (strcmp(name, "_storage") == 0) return dsl_storage_of(in, t, out);
    if (strcmp(name, "shape") == 0 || strcmp(name, "_shape") == 0)
        return dsl_int_tuple(in, t->shape, t->ndim, out);
    if (strcmp(name, "strides") == 0 || strcmp(name, "_strides") == 0)
        return dsl_int_tuple(in, t->strides, t->ndim, out);
    if (strcmp(name, "size") == 0) {
        *out = dsl_int(t->size);
        return 0;
    }
    if (strcmp(name, "dims") == 0) {
        *out = dsl_int(t->ndim);
        return 0;
    }
    for (size_t i = 0; i < sizeof td_methods / sizeof td_methods[0]; i++)
        if (strcmp(td_methods[i].name, name) == 0) {
            int st = dsl_method_value(&td_methods[i], self, out);
            return st != DSL_V_OK ? dsl_raise_status(in, st) : 0;
        }
    return dsl_raise(in, "AttributeError", "'TensorData' object has no attribute '%s'", name);
}

static int td_repr(struct render_buf *b, const void *state)
{
    const struct mt_tensor *t = state;
    char sh[160], st[160];
    render_buf_printf(b, "TensorData(shape=%s, strides=%s)",
                      mt_shape_str(t->ndim, t->shape, sh, sizeof sh),
                      mt_shape_str(t->ndim, t->strides, st, sizeof st));
    return b->nomem ? DSL_V_NOMEM : DSL_V_OK;
}

static const char *const td_attrs[] = {"_storage",      "dims",     "get",       "index", "indices",
                                       "is_contiguous", "permute",  "sample",    "shape", "size",
                                       "strides",       "to_cuda_", "to_string", "tuple", NULL};

static const struct dsl_object_class td_class = {
    .name = "TensorData",
    .doc = "TensorData: a tensor's layout and memory as MiniTorch's tensor_data module has "
           "them (t._tensor): _storage, shape, strides, size, dims, tuple(), index(idx), "
           "is_contiguous(). It shares the tensor's memory.",
    .attrs = td_attrs,
    .free = tensor_state_free,
    .repr = td_repr,
    .getattr = td_getattr,
};

static int tensor_data_value(struct dsl_interp *in, struct mt_tensor *t, struct dsl_value *out)
{
    int st = dsl_object_value(&td_class, mt_tensor_retain(t), out);
    return st != DSL_V_OK ? dsl_raise_status(in, st) : 0;
}

int dsl_tensor_data_prop(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return tensor_data_value(in, a->self.as.t, ret);
}

int dsl_tensor_tuple(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return tuple_of(in, a->self.as.t, ret);
}

/* Reads a shape or strides tuple (or list) of ints into v[0..*n). */
static int int_seq(struct dsl_interp *in, struct dsl_value s, const char *what, int64_t *v, int *n)
{
    if (s.kind != DSL_LIST || s.as.l->len == 0 || s.as.l->len > MT_MAX_DIMS)
        return dsl_raise(in, "TypeError", "TensorData(): %s must be a tuple of 1 to %d ints", what,
                         MT_MAX_DIMS);
    for (size_t i = 0; i < s.as.l->len; i++) {
        if (!dsl_is_intlike(s.as.l->items[i]))
            return dsl_raise(in, "TypeError", "TensorData(): %s must be ints, not %s", what,
                             dsl_type_name(s.as.l->items[i]));
        v[i] = dsl_as_int(s.as.l->items[i]);
    }
    *n = (int)s.as.l->len;
    return 0;
}

bool dsl_tensor_data_view(struct dsl_value v, struct mt_tensor **t)
{
    if (v.kind != DSL_OBJECT || v.as.obj->cls != &td_class) return false;
    *t = data_of(v);
    return true;
}

int dsl_bi_tensor_data(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    int64_t shape[MT_MAX_DIMS], strides[MT_MAX_DIMS];
    int nd = 0, ns = 0;
    if (int_seq(in, a->slot[1], "shape", shape, &nd) != 0) return -1;
    if (a->has[2] && a->slot[2].kind != DSL_NONE) {
        if (int_seq(in, a->slot[2], "strides", strides, &ns) != 0) return -1;
        if (ns != nd) return dsl_raise(in, "IndexingError", "Len of strides must match shape.");
    } else { /* contiguous: MiniTorch's strides_from_shape */
        int64_t s = 1;
        for (int i = nd; i-- > 0;) {
            strides[i] = s;
            s *= shape[i];
        }
    }
    struct dsl_iter it;
    struct dsl_value data = a->slot[0];
    if (dsl_iter_init(in, data, &it) != 0) return -1;
    size_t cap = 16, n = 0;
    float *vals = malloc(cap * sizeof *vals);
    if (!vals) {
        dsl_iter_end(&it);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    for (;;) {
        struct dsl_value item;
        int got = dsl_iter_next(in, &it, &item);
        if (got < 0) goto fail;
        if (got == 0) break;
        bool number = dsl_is_number(item);
        double x = number ? dsl_as_double(item) : 0.0;
        dsl_value_release(item);
        if (!number) {
            dsl_raise(in, "TypeError", "TensorData(): the storage holds numbers");
            goto fail;
        }
        if (n == cap) {
            float *p = cap > (size_t)1 << 26 ? NULL : realloc(vals, 2 * cap * sizeof *vals);
            if (!p) {
                dsl_raise_status(in, DSL_V_NOMEM);
                goto fail;
            }
            vals = p;
            cap *= 2;
        }
        vals[n++] = (float)x;
    }
    dsl_iter_end(&it);
    int64_t size = 1, reach = 0;
    for (int i = 0; i < nd; i++) {
        if (shape[i] < 1 || strides[i] < 0) {
            dsl_raise(in, "IndexingError",
                      "TensorData(): sizes must be positive and strides at "
                      "least 0");
            goto fail;
        }
        size *= shape[i];
        reach += (shape[i] - 1) * strides[i];
    }
    if (!a->has[2] && (int64_t)n != size) { /* MiniTorch asserts len(storage) == size */
        dsl_raise(in, "IndexingError", "Len of storage (%zu) must match size of tensor (%lld).", n,
                  (long long)size);
        goto fail;
    }
    if (reach >= (int64_t)n) {
        dsl_raise(in, "IndexingError",
                  "TensorData(): the strides reach position %lld of a storage of %zu",
                  (long long)reach, n);
        goto fail;
    }
    int64_t len = (int64_t)n;
    struct mt_tensor *flat = NULL, *t = NULL;
    enum mt_status st = mt_from_data(ctx_of(in), mt_ctx_backend(ctx_of(in)), 1, &len, vals, &flat);
    free(vals);
    vals = NULL;
    if (st == MT_OK) st = mt_as_strided(ctx_of(in), flat, nd, shape, strides, 0, &t);
    mt_tensor_release(flat);
    if (st != MT_OK) return dsl_engine_raise(in, st);
    int r = tensor_data_value(in, t, ret);
    mt_tensor_release(t);
    return r;
fail:
    dsl_iter_end(&it); /* ended already past the loop: then it holds nothing */
    free(vals);
    return -1;
}
