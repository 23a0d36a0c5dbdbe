/* set.c — sets and frozensets on a dict's table: their operators, methods and builtins (see
 * set.h).
 *
 * Errors and their messages are CPython's. The table's values are all none, and every store
 * goes through dict.c, which owns the entries. A set operand is walked through its entries
 * (reading its length again at each step: `s |= s` stores only what is there), any other
 * iterable through dsl_iter, which may run a user's __next__. Which of two equal keys a result
 * keeps (1 or 1.0) follows CPython: a union keeps the left one's, an intersection the keys of
 * the operand it walks, the smaller (the right one on a tie). */
#include "lang/set.h"
#include "lang/missing.h"

#include "lang/classes.h"
#include "lang/eval.h"

#include <string.h>

struct dsl_dict *dsl_set_new(bool frozen)
{
    struct dsl_dict *s = dsl_dict_new_as(DSL_SET);
    if (s) s->frozen = frozen;
    return s;
}

int dsl_set_add(struct dsl_interp *in, struct dsl_dict *s, struct dsl_value key)
{
    return dsl_dict_store(in, s, key, dsl_none());
}

/* The live entry of s equal to key, into *e (NULL when absent): 0 or -1. */
static int lookup(struct dsl_interp *in, const struct dsl_dict *s, struct dsl_value key,
                  bool as_frozen, struct dsl_dict_entry **e)
{
    *e = NULL;
    if (!as_frozen || key.kind != DSL_SET || key.as.d->frozen) /* as a dict finds its keys */
        return dsl_dict_find_key(in, s, key, e);
    uint64_t h;
    if (dsl_hash_key(in, key, as_frozen, &h) != 0) return -1;
    *e = dsl_dict_find(s, key, h);
    return 0;
}

/* Whether key is in s: 0 with *res, or -1. */
static int contains(struct dsl_interp *in, const struct dsl_dict *s, struct dsl_value key,
                    bool as_frozen, bool *res)
{
    struct dsl_dict_entry *e;
    if (lookup(in, s, key, as_frozen, &e) != 0) return -1;
    *res = e != NULL;
    return 0;
}

int dsl_set_contains(struct dsl_interp *in, const struct dsl_dict *s, struct dsl_value key,
                     bool *res)
{
    return contains(in, s, key, true, res);
}

/* Removes key from s when it is there (*found says whether it was): 0 or -1. */
static int discard(struct dsl_interp *in, struct dsl_dict *s, struct dsl_value key, bool as_frozen,
                   bool *found)
{
    struct dsl_dict_entry *e;
    if (lookup(in, s, key, as_frozen, &e) != 0) return -1;
    *found = e != NULL;
    if (e) {
        struct dsl_value k, v;
        dsl_dict_remove(s, e, &k, &v);
        dsl_value_release(k);
    }
    return 0;
}

/* ---- walking an operand ----------------------------------------------------------------- */

/* Calls fn(in, s, key, arg) on every item of src: a set's or a dict's keys, or an iterable's
 * items. 0, or -1 once fn or the iteration failed. */
static int each(struct dsl_interp *in, struct dsl_value src,
                int (*fn)(struct dsl_interp *in, struct dsl_dict *s, struct dsl_value key,
                          void *arg),
                struct dsl_dict *s, void *arg)
{
    if (src.kind == DSL_SET || src.kind == DSL_DICT) {
        const struct dsl_dict *d = src.as.d;
        for (size_t i = 0; i < d->n; i++) { /* d is never s: update() treats s op s alone */
            if (!d->entries[i].live) continue;
            /* held: an __eq__ that fn asks may take it out of d */
            struct dsl_value key = dsl_value_retain(d->entries[i].key);
            int r = fn(in, s, key, arg);
            dsl_value_release(key);
            if (r != 0) return -1;
        }
        return 0;
    }
    struct dsl_iter it;
    if (dsl_iter_init(in, src, &it) != 0) return -1;
    struct dsl_value item;
    int got;
    while ((got = dsl_iter_next(in, &it, &item)) > 0) {
        int r = fn(in, s, item, arg);
        dsl_value_release(item);
        if (r != 0) {
            got = -1;
            break;
        }
    }
    dsl_iter_end(&it);
    return got < 0 ? -1 : 0;
}

static int add_one(struct dsl_interp *in, struct dsl_dict *s, struct dsl_value key, void *arg)
{
    (void)arg;
    return dsl_set_add(in, s, key);
}

static int discard_one(struct dsl_interp *in, struct dsl_dict *s, struct dsl_value key, void *arg)
{
    (void)arg;
    bool found;
    return discard(in, s, key, false, &found);
}

/* key into s when it is in the set arg (the other operand of an intersection). */
static int add_if_in(struct dsl_interp *in, struct dsl_dict *s, struct dsl_value key, void *arg)
{
    bool in_other = false;
    if (contains(in, arg, key, false, &in_other) != 0) return -1;
    return in_other ? dsl_set_add(in, s, key) : 0;
}

/* key out of s when it is there, else into it: a symmetric difference's step. */
static int toggle(struct dsl_interp *in, struct dsl_dict *s, struct dsl_value key, void *arg)
{
    (void)arg;
    bool found;
    if (discard(in, s, key, false, &found) != 0) return -1;
    return found ? 0 : dsl_set_add(in, s, key);
}

/* A new set (frozen: a frozenset) holding the keys of src (any iterable): 0 or -1. */
static int set_of(struct dsl_interp *in, struct dsl_value src, bool frozen, struct dsl_value *out)
{
    struct dsl_dict *s = dsl_set_new(frozen);
    if (!s) return dsl_raise_status(in, DSL_V_NOMEM);
    *out = dsl_set_value(s);
    if (each(in, src, add_one, s, NULL) != 0) {
        dsl_value_release(*out);
        *out = dsl_none();
        return -1;
    }
    return 0;
}

/* src as a set to test against: itself when it is one (borrowed, *own none), else a new set of
 * its items (*own holds it). 0 or -1. */
static int as_set(struct dsl_interp *in, struct dsl_value src, struct dsl_value *set,
                  struct dsl_value *own)
{
    *own = dsl_none();
    if (src.kind == DSL_SET) {
        *set = src;
        return 0;
    }
    if (set_of(in, src, false, own) != 0) return -1;
    *set = *own;
    return 0;
}

/* ---- the operations --------------------------------------------------------------------- */

enum set_op { OP_UNION, OP_INTERSECTION, OP_DIFFERENCE, OP_SYMMETRIC };

/* s becomes s op other (any iterable): 0 or -1 (s then holds what the steps before made). */
static int update(struct dsl_interp *in, struct dsl_value s, enum set_op op, struct dsl_value other)
{
    struct dsl_dict *d = s.as.d;
    bool same = other.kind == DSL_SET && other.as.d == d;
    switch (op) {
    case OP_UNION: return same ? 0 : each(in, other, add_one, d, NULL);
    case OP_DIFFERENCE:
        if (!same) return each(in, other, discard_one, d, NULL);
        break; /* s - s: empty */
    case OP_SYMMETRIC: {
        if (same) break;
        /* each distinct item once: a list naming one twice toggles it once, as CPython's */
        struct dsl_value set, own;
        if (as_set(in, other, &set, &own) != 0) return -1;
        int r = each(in, set, toggle, d, NULL);
        dsl_value_release(own);
        return r;
    }
    case OP_INTERSECTION: {
        if (same) return 0;
        struct dsl_dict *keep = dsl_set_new(false);
        if (!keep) return dsl_raise_status(in, DSL_V_NOMEM);
        struct dsl_value kv = dsl_set_value(keep);
        int r = each(in, other, add_if_in, keep, d);
        if (r == 0) { /* s's table takes keep's entries: s stays the same object */
            struct dsl_dict t = *d;
            d->len = keep->len, d->n = keep->n, d->cap = keep->cap;
            d->entries = keep->entries, d->index = keep->index, d->icap = keep->icap;
            keep->len = t.len, keep->n = t.n, keep->cap = t.cap;
            keep->entries = t.entries, keep->index = t.index, keep->icap = t.icap;
        }
        dsl_value_release(kv);
        return r;
    }
    }
    struct dsl_value k, v;
    for (size_t i = d->n; i > 0; i--)
        if (d->entries[i - 1].live) {
            dsl_dict_remove(d, &d->entries[i - 1], &k, &v);
            dsl_value_release(k);
        }
    return 0;
}

/* A new set of a's type holding a op b (b any iterable): 0 or -1. */
static int combine(struct dsl_interp *in, struct dsl_value a, enum set_op op, struct dsl_value b,
                   struct dsl_value *out)
{
    bool frozen = a.as.d->frozen;
    if (op == OP_INTERSECTION) {
        struct dsl_dict *s = dsl_set_new(frozen);
        if (!s) return dsl_raise_status(in, DSL_V_NOMEM);
        *out = dsl_set_value(s);
        /* the smaller of two sets is walked (the right one on a tie) and its keys kept */
        bool walk_a = b.kind == DSL_SET && b.as.d->len > a.as.d->len;
        int r = walk_a ? each(in, a, add_if_in, s, b.as.d) : each(in, b, add_if_in, s, a.as.d);
        if (r != 0) {
            dsl_value_release(*out);
            *out = dsl_none();
        }
        return r;
    }
    if (set_of(in, a, frozen, out) != 0) return -1;
    if (update(in, *out, op, b) == 0) return 0;
    dsl_value_release(*out);
    *out = dsl_none();
    return -1;
}

/* Whether every key of a is in b (both sets). */
static bool subset(const struct dsl_dict *a, const struct dsl_dict *b)
{
    if (a->len > b->len) return false;
    for (size_t i = 0; i < a->n; i++)
        if (a->entries[i].live && !dsl_dict_find(b, a->entries[i].key, a->entries[i].hash))
            return false;
    return true;
}

/* Whether every item of a is in b as `in` finds it (an instance's __hash__ and __eq__ asked,
 * where either set has held one): 0 with *res, or -1 after raising. */
static int subset_of(struct dsl_interp *in, const struct dsl_dict *a, const struct dsl_dict *b,
                     bool *res)
{
    if (!a->instance_keys && !b->instance_keys) {
        *res = subset(a, b);
        return 0;
    }
    *res = a->len <= b->len;
    for (size_t i = 0; *res && i < a->n; i++) {
        if (!a->entries[i].live) continue;
        struct dsl_value key = dsl_value_retain(a->entries[i].key); /* an __eq__ may drop it */
        int r = contains(in, b, key, true, res);
        dsl_value_release(key);
        if (r != 0) return -1;
    }
    return 0;
}

int dsl_set_compare(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a, struct dsl_value b,
                    bool *res)
{
    const struct dsl_dict *x = a.as.d, *y = b.as.d;
    switch (op) {
    case DSL_T_LT: *res = x->len < y->len; break;
    case DSL_T_GT: *res = y->len < x->len; break;
    case DSL_T_EQ: *res = x->len == y->len; break;
    default: *res = true; break;
    }
    if (!*res) return 0;
    return op == DSL_T_GT || op == DSL_T_GE ? subset_of(in, y, x, res) : subset_of(in, x, y, res);
}

int dsl_set_binary(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a, struct dsl_value b,
                   bool inplace, struct dsl_value *out)
{
    enum set_op sop;
    switch (op) {
    case DSL_T_PIPE: sop = OP_UNION; break;
    case DSL_T_AMP: sop = OP_INTERSECTION; break;
    case DSL_T_MINUS: sop = OP_DIFFERENCE; break;
    case DSL_T_CARET: sop = OP_SYMMETRIC; break;
    default: return 0;
    }
    if (inplace && !a.as.d->frozen) { /* s |= t changes s: every name for it sees the change */
        if (update(in, a, sop, b) != 0) return -1;
        *out = dsl_value_retain(a);
        return 1;
    }
    return combine(in, a, sop, b, out) != 0 ? -1 : 1;
}

/* ---- methods ---------------------------------------------------------------------------- */

static int m_add(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    *ret = dsl_none();
    return dsl_set_add(in, a->self.as.d, a->slot[0]);
}

static int m_remove(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    bool found = false;
    *ret = dsl_none();
    if (discard(in, a->self.as.d, a->slot[0], true, &found) != 0) return -1;
    return found ? 0 : dsl_dict_raise_key(in, a->slot[0]);
}

static int m_discard(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    bool found;
    *ret = dsl_none();
    return discard(in, a->self.as.d, a->slot[0], true, &found);
}

static int m_pop(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_dict *s = a->self.as.d;
    if (s->len == 0) return dsl_raise(in, "KeyError", "'pop from an empty set'");
    size_t i = 0; /* the first in insertion order: CPython's is the first in its table */
    while (!s->entries[i].live) i++;
    struct dsl_value value;
    dsl_dict_remove(s, &s->entries[i], ret, &value);
    return 0;
}

static int m_clear(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    *ret = dsl_none();
    return update(in, a->self, OP_DIFFERENCE, a->self);
}

static int m_copy(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (a->self.as.d->frozen) { /* never changes: the copy is itself, as CPython's */
        *ret = dsl_value_retain(a->self);
        return 0;
    }
    return set_of(in, a->self, false, ret);
}

/* s.op(*others): a new set of s's type. */
static int combine_all(struct dsl_interp *in, const struct dsl_args *a, enum set_op op,
                       struct dsl_value *ret)
{
    struct dsl_value acc = dsl_value_retain(a->self);
    for (size_t k = 0; k < a->nrest; k++) {
        struct dsl_value next = dsl_none();
        int r = combine(in, acc, op, a->rest[k], &next);
        dsl_value_release(acc);
        if (r != 0) return -1;
        acc = next;
    }
    if (a->nrest == 0) { /* s.union(): a copy (of a frozenset, itself) */
        dsl_value_release(acc);
        return m_copy(in, a, ret);
    }
    *ret = acc;
    return 0;
}

/* s.op_update(*others): s itself changed. */
static int update_all(struct dsl_interp *in, const struct dsl_args *a, enum set_op op,
                      struct dsl_value *ret)
{
    *ret = dsl_none();
    for (size_t k = 0; k < a->nrest; k++)
        if (update(in, a->self, op, a->rest[k]) != 0) return -1;
    return 0;
}

static int m_union(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return combine_all(in, a, OP_UNION, ret);
}

static int m_intersection(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return combine_all(in, a, OP_INTERSECTION, ret);
}

static int m_difference(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return combine_all(in, a, OP_DIFFERENCE, ret);
}

static int m_symmetric_difference(struct dsl_interp *in, const struct dsl_args *a,
                                  struct dsl_value *ret)
{
    return combine(in, a->self, OP_SYMMETRIC, a->slot[0], ret);
}

static int m_update(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return update_all(in, a, OP_UNION, ret);
}

static int m_intersection_update(struct dsl_interp *in, const struct dsl_args *a,
                                 struct dsl_value *ret)
{
    return update_all(in, a, OP_INTERSECTION, ret);
}

static int m_difference_update(struct dsl_interp *in, const struct dsl_args *a,
                               struct dsl_value *ret)
{
    return update_all(in, a, OP_DIFFERENCE, ret);
}

static int m_symmetric_difference_update(struct dsl_interp *in, const struct dsl_args *a,
                                         struct dsl_value *ret)
{
    *ret = dsl_none();
    return update(in, a->self, OP_SYMMETRIC, a->slot[0]);
}

/* s.issubset(other) (superset: other's keys all in s): other any iterable. */
static int subset_test(struct dsl_interp *in, const struct dsl_args *a, bool superset,
                       struct dsl_value *ret)
{
    struct dsl_value set, own;
    if (as_set(in, a->slot[0], &set, &own) != 0) return -1;
    bool res;
    int r = superset ? subset_of(in, set.as.d, a->self.as.d, &res)
                     : subset_of(in, a->self.as.d, set.as.d, &res);
    dsl_value_release(own);
    *ret = dsl_bool(r == 0 && res);
    return r;
}

static int m_issubset(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return subset_test(in, a, false, ret);
}

static int m_issuperset(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return subset_test(in, a, true, ret);
}

/* Fails (1, nothing raised) at the first key that is in the set arg. */
static int absent(struct dsl_interp *in, struct dsl_dict *s, struct dsl_value key, void *arg)
{
    (void)s;
    bool found = false;
    if (contains(in, arg, key, false, &found) != 0) return -1;
    return found ? 1 : 0;
}

static int m_isdisjoint(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    int r = each(in, a->slot[0], absent, NULL, a->self.as.d);
    if (r != 0 && in->ename) return -1;
    *ret = dsl_bool(r == 0);
    return 0;
}

const struct dsl_builtin dsl_set_methods[] = {
    {"add", "s.add(x)", 1, 1, NULL, m_add, "Adds x to the set (nothing changes when it is there)."},
    {"clear", "s.clear()", 0, 0, NULL, m_clear, "Removes every item."},
    {"copy", "s.copy()", 0, 0, NULL, m_copy, "A new set with the same items (a shallow copy)."},
    {"difference", "s.difference(*others)", 0, -1, NULL, m_difference,
     "A new set of the items of s that are in none of the others (any iterables); s - t."},
    {"difference_update", "s.difference_update(*others)", 0, -1, NULL, m_difference_update,
     "Removes from s the items of the others (any iterables); s -= t."},
    {"discard", "s.discard(x)", 1, 1, NULL, m_discard,
     "Removes x from the set when it is there (no error when it is not)."},
    {"intersection", "s.intersection(*others)", 0, -1, NULL, m_intersection,
     "A new set of the items of s that are in every one of the others; s & t."},
    {"intersection_update", "s.intersection_update(*others)", 0, -1, NULL, m_intersection_update,
     "Keeps in s only the items that are in every one of the others; "
     "s &= t."},
    {"isdisjoint", "s.isdisjoint(other)", 1, 1, NULL, m_isdisjoint,
     "Whether s and other (any iterable) have no item in common."},
    {"issubset", "s.issubset(other)", 1, 1, NULL, m_issubset,
     "Whether every item of s is in other (any iterable); s <= t."},
    {"issuperset", "s.issuperset(other)", 1, 1, NULL, m_issuperset,
     "Whether every item of other (any iterable) is in s; s >= t."},
    {"pop", "s.pop()", 0, 0, NULL, m_pop,
     "Removes an item and returns it (here the first added); KeyError when the set is empty."},
    {"remove", "s.remove(x)", 1, 1, NULL, m_remove,
     "Removes x from the set; KeyError when it is not there."},
    {"symmetric_difference", "s.symmetric_difference(other)", 1, 1, NULL, m_symmetric_difference,
     "A new set of the items in exactly one of s and other; s ^ t."},
    {"symmetric_difference_update", "s.symmetric_difference_update(other)", 1, 1, NULL,
     m_symmetric_difference_update, "Makes s the items in exactly one of s and other; s ^= t."},
    {"union", "s.union(*others)", 0, -1, NULL, m_union,
     "A new set of the items of s and of the others (any iterables); s | t."},
    {"update", "s.update(*others)", 0, -1, NULL, m_update,
     "Adds the items of the others (any iterables) to s; s |= t."},
};
const size_t dsl_set_method_count = sizeof dsl_set_methods / sizeof dsl_set_methods[0];

bool dsl_set_method_mutates(const struct dsl_builtin *m)
{
    return m->fn == m_add || m->fn == m_clear || m->fn == m_difference_update ||
           m->fn == m_discard || m->fn == m_intersection_update || m->fn == m_pop ||
           m->fn == m_remove || m->fn == m_symmetric_difference_update || m->fn == m_update;
}

const struct dsl_builtin *dsl_set_method_row(struct dsl_value v, const char *name)
{
    bool frozen = v.as.d->frozen;
    for (size_t i = 0; i < dsl_set_method_count; i++) {
        const struct dsl_builtin *m = &dsl_set_methods[i];
        if (frozen && dsl_set_method_mutates(m)) continue; /* a frozenset never changes */
        if (strcmp(m->name, name) == 0) return m;
    }
    return NULL;
}

int dsl_set_getattr(struct dsl_interp *in, struct dsl_value v, const char *name,
                    struct dsl_value *out)
{
    bool frozen = v.as.d->frozen;
    const struct dsl_builtin *row = dsl_set_method_row(v, name);
    if (row) {
        int st = dsl_method_value(row, v, out);
        return st ? dsl_raise_status(in, st) : 0;
    }
    if (strcmp(name, "__class__") == 0) {
        *out = dsl_value_retain(dsl_type_of(v));
        return 0;
    }
    if (dsl_raise_missing(in, dsl_type_name(v), name) != 0) return -1;
    const char *best = NULL; /* only now: a method call must not pay for a suggestion */
    size_t best_d = 3;
    for (size_t i = 0; i < dsl_set_method_count; i++) {
        const struct dsl_builtin *m = &dsl_set_methods[i];
        if (frozen && dsl_set_method_mutates(m)) continue;
        size_t d = dsl_edit_distance(name, m->name);
        if (d < best_d) best_d = d, best = m->name;
    }
    if (best)
        return dsl_raise(in, "AttributeError",
                         "'%s' object has no attribute '%s', did you mean '%s'?", dsl_type_name(v),
                         name, best);
    return dsl_raise(in, "AttributeError", "'%s' object has no attribute '%s'", dsl_type_name(v),
                     name);
}

/* ---- set() and frozenset() -------------------------------------------------------------- */

static int make(struct dsl_interp *in, const struct dsl_args *a, bool frozen, struct dsl_value *ret)
{
    const char *name = frozen ? "frozenset" : "set";
    if (a->nkw) return dsl_raise(in, "TypeError", "%s() takes no keyword arguments", name);
    if (a->nrest > 1)
        return dsl_raise(in, "TypeError", "%s expected at most 1 argument, got %zu", name,
                         a->nrest);
    if (a->nrest == 0) {
        struct dsl_dict *s = dsl_set_new(frozen);
        if (!s) return dsl_raise_status(in, DSL_V_NOMEM);
        *ret = dsl_set_value(s);
        return 0;
    }
    struct dsl_value src = a->rest[0];
    if (frozen && src.kind == DSL_SET && src.as.d->frozen) { /* never changes: itself */
        *ret = dsl_value_retain(src);
        return 0;
    }
    return set_of(in, src, frozen, ret);
}

int dsl_bi_set(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return make(in, a, false, ret);
}

int dsl_bi_frozenset(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return make(in, a, true, ret);
}
