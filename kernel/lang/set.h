/* set.h — sets and frozensets (internal to kernel/lang).
 *
 * A set is a dict's hash table (struct dsl_dict, lang/dict.h) holding keys only, every value
 * none: the hashing, the lookup, insertion order and removal are the dict's. It is a kind of its
 * own, DSL_SET, rather than a style of DSL_DICT as a tuple is a style of list: a tuple shares
 * nearly everything a list does, while the language's code asks `kind == DSL_DICT` where it
 * means a mapping (d[k], d[k] = v, f(**d), dict(d), a class's fields), which a set is not; as
 * its own kind a set reaches only the code written for it. `frozen` marks a frozenset, which
 * nothing changes once it is made and which is hashable (a set is not: `unhashable type:
 * 'set'`).
 *
 * Python's semantics and errors: `{a, b}` and `{x for x in xs}` (`{}` stays a dict), set(),
 * frozenset(), the operators | & - ^ between two sets (frozensets too; the result has the left
 * operand's type), their in-place forms (a set changed in place, a frozenset rebound to a new
 * one), the comparisons <= < >= > as subset tests, == by elements (a set equals a frozenset of
 * the same elements), `in`, len and iteration in insertion order (CPython's order follows the
 * hashes), and the methods of dsl_set_methods. Where Python takes a set as the key of another
 * (x in s, s.remove(x), s.discard(x)), a set x is looked up as the frozenset it equals. */
#ifndef KERNEL_LANG_SET_H
#define KERNEL_LANG_SET_H

#include "lang/dict.h"
#include "lang/interp.h"
#include "lang/lexer.h"
#include "lang/native.h"

#include <stdbool.h>
#include <stddef.h>

extern const struct dsl_builtin dsl_set_methods[];
extern const size_t dsl_set_method_count;

/* Whether the method row m changes its set (add, update, ...): a frozenset lacks it. */
bool dsl_set_method_mutates(const struct dsl_builtin *m);

/* The method row `name` of set or frozenset v, or NULL when it has none by that name. */
const struct dsl_builtin *dsl_set_method_row(struct dsl_value v, const char *name);

/* A new empty set, or frozenset when frozen (one reference); NULL when out of memory. */
struct dsl_dict *dsl_set_new(bool frozen);

/* A set value owning s (the caller's reference passes to it). */
static inline struct dsl_value dsl_set_value(struct dsl_dict *s)
{
    return (struct dsl_value){.kind = DSL_SET, .as.d = s};
}

/* Adds key (borrowed) to s: 0, or -1 after raising (unhashable, memory). */
int dsl_set_add(struct dsl_interp *in, struct dsl_dict *s, struct dsl_value key);

/* `key in s` (borrowed): 0 with *res, or -1 after raising TypeError (unhashable). */
int dsl_set_contains(struct dsl_interp *in, const struct dsl_dict *s, struct dsl_value key,
                     bool *res);

/* a op b for two sets, op one of | & - ^ (inplace: a op= b, which changes a set a itself and
 * gives it back): 1 with the result in *out, 0 when op is no set operator (nothing raised), -1
 * after raising. */
int dsl_set_binary(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a, struct dsl_value b,
                   bool inplace, struct dsl_value *out);

/* a op b for two sets, op one of < <= > >= ==: subset, superset and equality tests, items
 * found as `in` finds them. 0 with *res, or -1 after raising (an __eq__ or __hash__ did). */
int dsl_set_compare(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a, struct dsl_value b,
                    bool *res);

/* The method of set v called name, bound to v, in *out; AttributeError otherwise. 0 or -1. */
int dsl_set_getattr(struct dsl_interp *in, struct dsl_value v, const char *name,
                    struct dsl_value *out);

/* The builtins set(iterable=()) and frozenset(iterable=()). */
int dsl_bi_set(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_frozenset(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);

#endif
