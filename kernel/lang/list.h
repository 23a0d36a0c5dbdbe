/* list.h — mutating lists and their methods (internal to kernel/lang).
 *
 * Lists behave as Python's: `xs[i] = v` (negative i from the end), `xs += ys` extends the list
 * in place (every name for it sees the change), and the methods append, extend, insert, pop,
 * remove, index, count, clear, copy, reverse and sort are rows of dsl_list_methods, the same
 * struct as the builtins', so help(xs.append), inspect and completion read them like any
 * builtin. A tuple-style list (a shape) is never mutated: it has count and index only.
 *
 * Every store goes through dsl_list_check_store (values.h) first, so a list never comes to
 * hold itself; such a store raises ValueError and changes nothing. */
#ifndef KERNEL_LANG_LIST_H
#define KERNEL_LANG_LIST_H

#include "lang/interp.h"
#include "lang/native.h"

extern const struct dsl_builtin dsl_list_methods[];
extern const size_t dsl_list_method_count;

/* The slot of l's item at ix when ix is an int in range (negative from the end), else NULL:
 * what xs[i] reads and xs[i] += 1 updates, where dsl_index_of would find no error. */
static inline struct dsl_value *dsl_list_item_at(const struct dsl_list *l, struct dsl_value ix)
{
    if (ix.kind != DSL_INT) return NULL;
    int64_t i = ix.as.i, len = (int64_t)l->len;
    if (i < 0) i += len;
    return i >= 0 && i < len ? &l->items[i] : NULL;
}

/* xs.append(x) of list l (x borrowed): 0, or -1 after raising (ValueError where l would come
 * to hold itself, a list at its longest). */
int dsl_list_append(struct dsl_interp *in, struct dsl_list *l, struct dsl_value x);

/* xs.pop() of list l: its last item, a new reference, in *out; 0, or -1 after raising
 * IndexError (an empty list). */
int dsl_list_pop(struct dsl_interp *in, struct dsl_list *l, struct dsl_value *out);

/* The row of the method of list (or tuple) v called name, or NULL (none, or v is a numpy
 * array, whose attributes are its own): what xs.name(...) calls with xs as self. */
const struct dsl_builtin *dsl_list_method_row(struct dsl_value v, const char *name);

/* The method of list (or tuple) v called name, bound to v, in *out; AttributeError (with a
 * suggestion) otherwise. 0 or -1. */
int dsl_list_getattr(struct dsl_interp *in, struct dsl_value v, const char *name,
                     struct dsl_value *out);

/* xs[ix] = item (all borrowed): 0, or -1 after raising TypeError (a tuple, a non-int index),
 * IndexError or ValueError (a cycle). */
int dsl_list_setitem(struct dsl_interp *in, struct dsl_value xs, struct dsl_value ix,
                     struct dsl_value item);

/* del xs[ix] (borrowed): removes the item, as xs.pop(ix) without the value. 0, or -1 after
 * raising TypeError (a non-int index) or IndexError. */
int dsl_list_delitem(struct dsl_interp *in, struct dsl_value xs, struct dsl_value ix);

/* xs += rhs (borrowed): extends xs in place by the items of any iterable, as list.extend.
 * 0 or -1. */
int dsl_list_extend(struct dsl_interp *in, struct dsl_list *xs, struct dsl_value rhs);

/* Sorts v[0..n) in place as Python's sort: stable, by key(item) (each called once, in order)
 * or, key none, by the items, with <; descending keeps equal items in their order too. 0, or -1
 * after raising (a comparison or key raised, an interrupt), with v as it was. */
int dsl_sort_values(struct dsl_interp *in, struct dsl_value *v, size_t n, struct dsl_value key,
                    bool descending);

/* Raises the ValueError of a store refused by dsl_list_check_store (or its MemoryError). */
int dsl_list_raise_store(struct dsl_interp *in, int status);

#endif
