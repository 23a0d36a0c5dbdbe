/* jit/types.c — the compiler's types (enum jt): their C types and names, numpy's dtypes as the
 * compiler writes them, and the type of a value given to a compiled function. */
#include "lib/jit/internal.h"

const char *const jit_c_type[] = {"void", "int64_t", "int64_t", "double", "farr",
                                  "iarr", "",        "iarr",    "darr"};
const char *const jit_type_name[] = {"None",         "bool",          "int",
                                     "float",        "Storage",       "int array",
                                     "shared array", "tuple of ints", "float64 array"};

/* The element type n names as a dtype (the table's dtype rows): 'd' float64 (and float), 'f'
 * float32, 'i' int32, 'l' int64 (and int), of numpy or numba; 0 for anything else. */
char jit_dtype_code(struct unit *u, const struct cfn *c, const struct dsl_node *n)
{
    const struct jit_builtin *b = jit_builtin_as(u, (struct cfn *)c, n, JB_DTYPE);
    return b ? b->dtype : 0;
}

/* Memory for n elements of size bytes, aligned as a GPU's allocations are (at least 256 bytes
 * there), so that the simulator counts a warp's accesses to a copied array in the sectors a GPU
 * would touch. */
static void *array_copy_memory(size_t n, size_t size)
{
    size_t bytes = ((n + 1) * size + 255) / 256 * 256;
    return aligned_alloc(256, bytes);
}

enum jt jit_classify(struct dsl_value v, union slot *s, void **heap)
{
    struct mt_tensor *t;
    if (dsl_storage_view(v, &t)) {
        if (!mt_backend_is_host(t->backend)) return JT_NONE; /* a device's memory */
        s->f.p = mt_tensor_data(t);
        s->f.n = t->size;
        return JT_FARR;
    }
    if (v.kind == DSL_BOOL || v.kind == DSL_INT) {
        s->n = dsl_as_int(v);
        return v.kind == DSL_BOOL ? JT_BOOL : JT_INT;
    }
    if (v.kind == DSL_FLOAT) {
        s->x = v.as.f;
        return JT_FLOAT;
    }
    if (v.kind != DSL_LIST) return JT_NONE;
    const struct dsl_list *l = v.as.l;
    enum dsl_dtype dt = dsl_is_ndarray(v) ? (enum dsl_dtype)l->dtype : DSL_DT_NONE;
    if (dt == DSL_DT_FLOAT64 || dt == DSL_DT_FLOAT32) { /* one dimension: its items numbers */
        for (size_t k = 0; k < l->len; k++)
            if (l->items[k].kind != DSL_FLOAT) return JT_NONE;
        size_t size = dt == DSL_DT_FLOAT64 ? sizeof(double) : sizeof(float);
        if (!(*heap = array_copy_memory(l->len, size))) return JT_NONE;
        if (dt == DSL_DT_FLOAT64) {
            s->d.p = *heap;
            s->d.n = (int64_t)l->len;
            for (size_t k = 0; k < l->len; k++) s->d.p[k] = l->items[k].as.f;
            return JT_DARR;
        }
        s->f.p = *heap;
        s->f.n = (int64_t)l->len;
        for (size_t k = 0; k < l->len; k++) s->f.p[k] = (float)l->items[k].as.f;
        return JT_FARR;
    }
    for (size_t k = 0; k < l->len; k++)
        if (!dsl_is_intlike(l->items[k])) return JT_NONE;
    if (!(*heap = array_copy_memory(l->len, sizeof(int64_t)))) return JT_NONE;
    s->i.p = *heap;
    s->i.n = (int64_t)l->len;
    for (size_t k = 0; k < l->len; k++) s->i.p[k] = dsl_as_int(l->items[k]);
    return l->style == DSL_LIST_TUPLE ? JT_ITUP : JT_IARR;
}

void jit_write_back(struct dsl_value v, enum jt t, const union slot *s, bool wrote)
{
    if (v.kind != DSL_LIST || v.as.l->style == DSL_LIST_TUPLE) return; /* a Storage: in place */
    struct dsl_list *l = v.as.l;
    if (t == JT_DARR && wrote)
        for (int64_t k = 0; k < s->d.n; k++) l->items[k] = dsl_float(s->d.p[k]);
    else if (t == JT_FARR && wrote)
        for (int64_t k = 0; k < s->f.n; k++) l->items[k] = dsl_float((double)s->f.p[k]);
    else if (t == JT_IARR) /* the index lists kernels fill; an int32 array's dtype holds */
        for (int64_t k = 0; k < s->i.n; k++)
            l->items[k] = dsl_ndarray_int((enum dsl_dtype)l->dtype, s->i.p[k]);
}

void jit_share_copies(const struct dsl_value *pos, const enum jt *types, union slot *slots,
                      void **heap, size_t npos)
{
    for (size_t i = 1; i < npos; i++)
        for (size_t j = 0; j < i && heap[i]; j++)
            if (heap[j] && types[j] == types[i] && pos[j].as.l == pos[i].as.l) {
                free(heap[i]);
                heap[i] = NULL;
                slots[i] = slots[j];
            }
}
