/* dict.h — dicts, their hashing and their methods (internal to kernel/lang).
 *
 * A dict maps hashable keys to values and keeps its keys in insertion order, as Python's does
 * (repr, iteration, keys()/values()/items()). Keys are compared with Python's == (1, 1.0 and True
 * are one key) and hashed consistently with it: None, bools, ints, floats, strings, tuples of
 * hashable values, ranges, and by identity tensors, functions, builtins, methods and engine
 * objects. A list or a dict is `TypeError: unhashable type: 'list'`.
 *
 * Layout: `entries` holds every (key, value) pair in insertion order, and is the one place that
 * holds the dict's language values (a traversal for a cycle collector walks it alone); a
 * removed pair stays in place as a dead entry holding nothing until the array is compacted.
 * `index` is an open-addressing hash table of positions into `entries`.
 *
 * The same table, holding keys only (every value none), is a set or a frozenset (kind
 * DSL_SET, lang/set.h): the hashing, lookup, storing and removal here are theirs too.
 *
 * keys(), values() and items() return new lists (items() a list of (key, value) tuples), not
 * Python's live views. The methods are rows of dsl_dict_methods, the same struct as the
 * builtins', so help, inspect and completion read them like any builtin. */
#ifndef KERNEL_LANG_DICT_H
#define KERNEL_LANG_DICT_H

#include "lang/interp.h"
#include "lang/native.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dsl_dict_entry {
    struct dsl_value key, value; /* owned references; none in a dead entry */
    uint64_t hash;
    bool live; /* false: removed (key and value are none) */
};

struct dsl_dict {
    size_t refs;
    struct dsl_gc gc;
    size_t len;                     /* live entries */
    size_t n, cap;                  /* entries used (live and dead), allocated */
    struct dsl_dict_entry *entries; /* insertion order */
    size_t *index;                  /* icap slots: entry position + 1, 0 when empty */
    size_t icap;                    /* a power of two, more than twice n; 0 before the first */
    bool instance_keys;             /* an instance has been a key: lookups ask its __eq__ */
    bool frozen;                    /* a DSL_SET's: a frozenset, never changed once made */
    struct dsl_value dead;          /* while being freed: the next container to free */
};

extern const struct dsl_builtin dsl_dict_methods[];
extern const size_t dsl_dict_method_count;

/* A new empty dict (one reference), or NULL when out of memory (or past the limit of values'
 * memory, values.h). */
struct dsl_dict *dsl_dict_new(void);
/* The same table for a value of `kind`: DSL_DICT, or DSL_SET (a set, which the cycle collector
 * and the memory account then know as one). */
struct dsl_dict *dsl_dict_new_as(enum dsl_kind kind);
/* The bytes d counts against that limit: its header, entries and index. */
size_t dsl_dict_bytes(const struct dsl_dict *d);

/* Python's hash(v) (lang/hash.c): an instance's __hash__, a tuple's and a frozenset's of their
 * items'. 0, or -1 after raising TypeError (unhashable) or RecursionError. */
int dsl_hash_value(struct dsl_interp *in, struct dsl_value v, int64_t *out);
/* Where key goes in a table: its hash() spread over the bits; with as_frozen, a set hashed as
 * the frozenset it equals (`x in s` retries so). 0, or -1 after raising. */
int dsl_hash_key(struct dsl_interp *in, struct dsl_value key, bool as_frozen, uint64_t *h);
/* key is or holds (a tuple's item, a frozenset's) an instance: equal keys are found by its
 * __eq__. Asked of every key a dict stores or looks up: a number or a string answers inline. */
bool dsl_key_has_instance_within(struct dsl_value key);
static inline bool dsl_key_has_instance(struct dsl_value key)
{
    return (key.kind == DSL_INSTANCE || key.kind == DSL_LIST || key.kind == DSL_SET) &&
           dsl_key_has_instance_within(key);
}
/* The address of a heap value (its identity), or NULL for the values the language keeps by
 * value (None, bools, numbers, ranges). */
const void *dsl_value_identity(struct dsl_value v);
/* splitmix64's finalizer: a bijection that spreads nearby values apart. */
uint64_t dsl_mix64(uint64_t x);

/* The live entry whose key equals key (of hash `hash`), or NULL. No errors: keys are hashable. */
struct dsl_dict_entry *dsl_dict_find(const struct dsl_dict *d, struct dsl_value key, uint64_t hash);

/* The live entry of d whose key equals key (NULL: none) into *e, as d[key] finds it: an
 * instance's own __hash__ and __eq__ asked. 0, or -1 after raising. */
int dsl_dict_find_key(struct dsl_interp *in, const struct dsl_dict *d, struct dsl_value key,
                      struct dsl_dict_entry **e);
/* d[key] (borrowed) into *slot (borrowed, NULL when absent): 0, or -1 after raising TypeError
 * for an unhashable key. */
int dsl_dict_lookup(struct dsl_interp *in, const struct dsl_dict *d, struct dsl_value key,
                    struct dsl_value **slot);
/* d[key] = value (both borrowed): 0 or -1. */
int dsl_dict_store(struct dsl_interp *in, struct dsl_dict *d, struct dsl_value key,
                   struct dsl_value value);
/* del d[key] (borrowed): 0, or -1 after raising KeyError or TypeError (unhashable). */
int dsl_dict_delete(struct dsl_interp *in, struct dsl_dict *d, struct dsl_value key);
/* Removes the live entry e of d, handing its key and value (owned references) to the caller. */
void dsl_dict_remove(struct dsl_dict *d, struct dsl_dict_entry *e, struct dsl_value *key,
                     struct dsl_value *value);
/* d.pop(key[, default]) (key and *dflt borrowed; dflt NULL: none given): the value removed, or
 * the default, as a new reference in *out; 0, or -1 after raising KeyError or TypeError. */
int dsl_dict_pop(struct dsl_interp *in, struct dsl_dict *d, struct dsl_value key,
                 const struct dsl_value *dflt, struct dsl_value *out);
/* Raises Python's KeyError for key: its message is repr(key). -1. */
int dsl_dict_raise_key(struct dsl_interp *in, struct dsl_value key);

/* The row of the method of dict v called name, or NULL: what d.name(...) calls with d as
 * self. */
const struct dsl_builtin *dsl_dict_method_row(const char *name);

/* The method of dict v called name, bound to v, in *out; AttributeError (with a suggestion)
 * otherwise. 0 or -1. */
int dsl_dict_getattr(struct dsl_interp *in, struct dsl_value v, const char *name,
                     struct dsl_value *out);

/* The builtin dict(): dict(), dict(mapping), dict(iterable of pairs), dict(**keywords). */
int dsl_bi_dict(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);

/* A dict value owning d (the caller's reference passes to it). */
static inline struct dsl_value dsl_dict_value(struct dsl_dict *d)
{
    return (struct dsl_value){.kind = DSL_DICT, .as.d = d};
}

#endif
