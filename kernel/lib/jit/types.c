/* jit/types.c — the compiler's types (enum jt): their C types and names, numpy's dtypes as the
 * compiler writes them, and the type of a value given to a compiled function. */
#include "lib/jit/internal.h"

const char *const jit_c_type[] = {"void", "int64_t", "int64_t", "double",
                                  "farr", "iarr",    "",        "iarr"};
const char *const jit_type_name[] = {"None",    "bool",      "int",          "float",
                                     "Storage", "int array", "shared array", "tuple of ints"};

/* The element type n names as a dtype (the table's dtype rows): 'd' float64 (and float), 'f'
 * float32, 'i' int32, 'l' int64 (and int), of numpy or numba; 0 for anything else. */
char jit_dtype_code(struct unit *u, const struct cfn *c, const struct dsl_node *n)
{
    const struct jit_builtin *b = jit_builtin_as(u, (struct cfn *)c, n, JB_DTYPE);
    return b ? b->dtype : 0;
}

/* The type of argument v, and its slot; JT_NONE for what the compiler does not take. */
enum jt jit_classify(struct dsl_value v, union slot *s, int64_t **heap)
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
    if (v.kind == DSL_LIST) {
        const struct dsl_list *l = v.as.l;
        for (size_t k = 0; k < l->len; k++)
            if (!dsl_is_intlike(l->items[k])) return JT_NONE;
        *heap = malloc((l->len + 1) * sizeof **heap);
        if (!*heap) return JT_NONE;
        for (size_t k = 0; k < l->len; k++) (*heap)[k] = dsl_as_int(l->items[k]);
        s->i.p = *heap;
        s->i.n = (int64_t)l->len;
        return l->style == DSL_LIST_TUPLE ? JT_ITUP : JT_IARR;
    }
    return JT_NONE;
}
