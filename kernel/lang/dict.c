/* dict.c — dicts: hashing, lookup and storing, the dict() builtin and the methods (see dict.h).
 *
 * Errors and their messages are Python's. The hash table is rebuilt from `entries` whenever it
 * grows or the entries are compacted, so `entries` stays the only owner of what the dict holds.
 * A method that fails changes nothing it has not finished: update() stores pair by pair, as
 * Python's does. */
#include "lang/dict.h"

#include "lang/exceptions.h"

#include "lang/interp.h"
#include "lang/missing.h"
#include "lang/native.h"
#include "lang/operators.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the table -------------------------------------------------------------------------- */

/* What d is called in MemoryError's messages. */
static const char *what_of(const struct dsl_dict *d)
{
    return d->gc.kind == DSL_SET ? "set" : "dict";
}

struct dsl_dict *dsl_dict_new_as(enum dsl_kind kind)
{
    if (!dsl_mem_take(sizeof(struct dsl_dict), kind == DSL_SET ? "set" : "dict")) return NULL;
    struct dsl_dict *d = calloc(1, sizeof *d);
    if (!d) {
        dsl_mem_give(sizeof(struct dsl_dict));
        return NULL;
    }
    d->refs = 1;
    dsl_gc_track(&d->gc, kind);
    return d;
}

struct dsl_dict *dsl_dict_new(void) { return dsl_dict_new_as(DSL_DICT); }

size_t dsl_dict_bytes(const struct dsl_dict *d)
{
    return sizeof *d + d->cap * sizeof *d->entries + d->icap * sizeof *d->index;
}

/* Whether keys a and b are equal: two ints (autodiff's unique ids) compared in place. */
static inline bool key_equal(struct dsl_value a, struct dsl_value b)
{
    if (a.kind == DSL_INT && b.kind == DSL_INT) return a.as.i == b.as.i;
    return dsl_value_equal(a, b);
}

/* dsl_dict_find's search, inline in find_key, which every d[k], `k in d` and store runs */
static inline struct dsl_dict_entry *probe(const struct dsl_dict *d, struct dsl_value key,
                                           uint64_t hash)
{
    if (!d->icap) return NULL;
    size_t mask = d->icap - 1;
    for (size_t i = (size_t)hash & mask;; i = (i + 1) & mask) {
        size_t s = d->index[i];
        if (!s) return NULL;
        struct dsl_dict_entry *e = &d->entries[s - 1];
        if (e->live && e->hash == hash && key_equal(e->key, key)) return e;
    }
}

struct dsl_dict_entry *dsl_dict_find(const struct dsl_dict *d, struct dsl_value key, uint64_t hash)
{
    return probe(d, key, hash);
}

/* dsl_dict_find where a key may be an instance, whose class's __eq__ decides (after identity,
 * as Python's dict compares): 0 with the entry or NULL in *out, or -1 after raising. */
static int find_key(struct dsl_interp *in, const struct dsl_dict *d, struct dsl_value key,
                    uint64_t hash, struct dsl_dict_entry **out)
{
    *out = NULL;
    if (!d->instance_keys && !dsl_key_has_instance(key)) {
        *out = probe(d, key, hash);
        return 0;
    }
    /* an __eq__ may change the dict under the search (insert, delete, clear): then the search
     * starts again, as CPython's does, from what the dict is now */
    for (int tries = 0; tries < 100; tries++) {
        if (!d->icap) return 0;
        const struct dsl_dict_entry *entries = d->entries;
        size_t n = d->n, len = d->len, mask = d->icap - 1;
        bool restart = false;
        for (size_t i = (size_t)hash & mask; !restart; i = (i + 1) & mask) {
            size_t s = d->index[i];
            if (!s) return 0;
            struct dsl_dict_entry *e = &d->entries[s - 1];
            if (!e->live || e->hash != hash) continue;
            bool eq = false;
            struct dsl_value k = dsl_value_retain(e->key);
            int r = dsl_equal(in, k, key, &eq);
            dsl_value_release(k);
            if (r != 0) return -1;
            restart = d->entries != entries || d->n != n || d->len != len || !d->icap;
            if (eq && !restart) {
                *out = e;
                return 0;
            }
        }
    }
    return dsl_raise(in, "RuntimeError", "dictionary changed size during lookup");
}

/* Puts entry position pos into the index (which has a free slot). */
static void index_put(size_t *index, size_t icap, uint64_t hash, size_t pos)
{
    size_t mask = icap - 1, i = (size_t)hash & mask;
    while (index[i]) i = (i + 1) & mask;
    index[i] = pos + 1;
}

/* Makes room for one more entry: drops dead entries or grows the array, and keeps the index
 * at most half full. DSL_V_OK, DSL_V_NOMEM or DSL_V_TOOBIG; nothing changes on failure. */
static int make_room(struct dsl_dict *d)
{
    if (d->len >= DSL_MAX_LIST_LEN) return DSL_V_TOOBIG;
    /* many removed: compact in place (order kept) rather than grow */
    bool compact = d->n == d->cap && d->n - d->len > d->n / 4;
    if (d->n == d->cap && !compact) {
        size_t cap = d->cap ? d->cap * 2 : 8;
        size_t more = (cap - d->cap) * sizeof *d->entries;
        if (!dsl_mem_take(more, what_of(d))) return DSL_V_NOMEM;
        struct dsl_dict_entry *p = realloc(d->entries, cap * sizeof *p);
        if (!p) {
            dsl_mem_give(more);
            return DSL_V_NOMEM;
        }
        d->entries = p;
        d->cap = cap;
    }
    size_t n = compact ? d->len : d->n, icap = d->icap ? d->icap : 16;
    while ((n + 1) * 2 > icap) icap *= 2;
    if (!compact && icap == d->icap) return DSL_V_OK;
    /* the new index first: on failure nothing has changed (but a larger entries array) */
    if (!dsl_mem_take(icap * sizeof *d->index, what_of(d))) return DSL_V_NOMEM;
    size_t *index = calloc(icap, sizeof *index);
    if (!index) {
        dsl_mem_give(icap * sizeof *d->index);
        return DSL_V_NOMEM;
    }
    dsl_mem_give(d->icap * sizeof *d->index);
    if (compact) {
        size_t k = 0;
        for (size_t i = 0; i < d->n; i++)
            if (d->entries[i].live) d->entries[k++] = d->entries[i];
        d->n = k;
    }
    for (size_t i = 0; i < d->n; i++) index_put(index, icap, d->entries[i].hash, i);
    free(d->index);
    d->index = index;
    d->icap = icap;
    return DSL_V_OK;
}

/* Appends a new pair (owned references; released on failure). */
static int insert_new(struct dsl_dict *d, struct dsl_value key, uint64_t hash,
                      struct dsl_value value)
{
    int st = make_room(d);
    if (st != DSL_V_OK) {
        dsl_value_release(key);
        dsl_value_release(value);
        return st;
    }
    dsl_value_adopt(key);
    dsl_value_adopt(value);
    d->entries[d->n] = (struct dsl_dict_entry){key, value, hash, true};
    index_put(d->index, d->icap, hash, d->n);
    d->n++;
    d->len++;
    return DSL_V_OK;
}

void dsl_dict_remove(struct dsl_dict *d, struct dsl_dict_entry *e, struct dsl_value *key,
                     struct dsl_value *value)
{
    *key = e->key;
    *value = e->value;
    dsl_value_orphan(e->key);
    dsl_value_orphan(e->value);
    e->key = e->value = dsl_none();
    e->live = false;
    d->len--;
    if (d->len == 0) { /* empty again: start over rather than keep dead entries */
        d->n = 0;
        if (d->index) memset(d->index, 0, d->icap * sizeof *d->index);
    }
}

int dsl_dict_find_key(struct dsl_interp *in, const struct dsl_dict *d, struct dsl_value key,
                      struct dsl_dict_entry **e)
{
    uint64_t h;
    *e = NULL;
    return dsl_hash_key(in, key, false, &h) != 0 || find_key(in, d, key, h, e) != 0 ? -1 : 0;
}

int dsl_dict_lookup(struct dsl_interp *in, const struct dsl_dict *d, struct dsl_value key,
                    struct dsl_value **slot)
{
    uint64_t h;
    struct dsl_dict_entry *e;
    if (dsl_hash_key(in, key, false, &h) != 0 || find_key(in, d, key, h, &e) != 0) return -1;
    *slot = e ? &e->value : NULL;
    return 0;
}

int dsl_dict_store(struct dsl_interp *in, struct dsl_dict *d, struct dsl_value key,
                   struct dsl_value value)
{
    uint64_t h;
    struct dsl_dict_entry *e;
    if (dsl_hash_key(in, key, false, &h) != 0 || find_key(in, d, key, h, &e) != 0) return -1;
    if (e) { /* the first key stays, as in Python: d[1] = 'a'; d[1.0] = 'b' keeps 1 */
        struct dsl_value old = e->value;
        e->value = dsl_value_retain(value);
        dsl_value_adopt(value);
        dsl_value_orphan(old);
        dsl_value_release(old);
        return 0;
    }
    if (dsl_key_has_instance(key)) d->instance_keys = true;
    int st = insert_new(d, dsl_value_retain(key), h, dsl_value_retain(value));
    if (st == DSL_V_TOOBIG) return dsl_raise_size(in, what_of(d), (uint64_t)d->len + 1);
    return st != DSL_V_OK ? dsl_raise_status(in, st) : 0;
}

int dsl_dict_delete(struct dsl_interp *in, struct dsl_dict *d, struct dsl_value key)
{
    uint64_t h;
    struct dsl_dict_entry *e;
    if (dsl_hash_key(in, key, false, &h) != 0 || find_key(in, d, key, h, &e) != 0) return -1;
    if (!e) return dsl_dict_raise_key(in, key);
    struct dsl_value k, v;
    dsl_dict_remove(d, e, &k, &v);
    dsl_value_release(k);
    dsl_value_release(v);
    return 0;
}

int dsl_dict_raise_key(struct dsl_interp *in, struct dsl_value key)
{
    if (in->ename) return -1; /* a second raise is ignored; no __repr__ runs with one pending */
    struct render_buf b;
    render_buf_init(&b, 200);
    int st = dsl_value_repr(&b, key);
    /* the message is what Python's traceback shows, where a key whose repr raises shows as
     * this; the KeyError itself is raised all the same (an interrupt goes on instead) */
    if (dsl_text_error_drop(in, st)) {
        render_buf_free(&b);
        render_buf_puts(&b, DSL_STR_FAILED);
    } else if (st == DSL_V_RAISED) {
        render_buf_free(&b);
        return -1;
    }
    int r = dsl_raise(in, "KeyError", "%s%s", render_buf_str(&b), b.over ? "..." : "");
    render_buf_free(&b);
    /* the exception a handler catches holds the key itself, as Python's: e.args[0] is key and
     * repr(e) is KeyError('k'), not a KeyError of the message's text */
    struct dsl_list *args = dsl_list_new(1);
    struct dsl_value e;
    if (args) {
        args->style = DSL_LIST_TUPLE;
        dsl_list_push(args, dsl_value_retain(key)); /* room was made */
        if (dsl_exception_new(dsl_exc_type_find("KeyError"),
                              (struct dsl_value){.kind = DSL_LIST, .as.l = args}, NULL,
                              &e) == DSL_V_OK) {
            dsl_value_release(in->exc);
            in->exc = e;
        }
    }
    return r;
}

/* ---- filling a dict: update() and dict() ------------------------------------------------ */

/* Stores every pair of src: a dict's, or an iterable's items, each a pair (Python's errors
 * name the item's position). 0 or -1. */
static int update_from(struct dsl_interp *in, struct dsl_dict *d, struct dsl_value src)
{
    if (src.kind == DSL_DICT) {
        const struct dsl_dict *s = src.as.d;
        size_t n = s->n; /* d.update(d) stores each pair onto itself: no growth */
        for (size_t i = 0; i < n && i < s->n; i++)
            if (s->entries[i].live &&
                dsl_dict_store(in, d, s->entries[i].key, s->entries[i].value) != 0)
                return -1;
        return 0;
    }
    struct dsl_iter it;
    if (dsl_iter_init(in, src, &it) != 0) return -1;
    struct dsl_value item;
    int got;
    for (size_t k = 0; (got = dsl_iter_next(in, &it, &item)) > 0; k++) {
        int r = 0;
        if (item.kind != DSL_LIST && item.kind != DSL_STR)
            r = dsl_raise(in, "TypeError",
                          "cannot convert dictionary update sequence element #%zu to a sequence",
                          k);
        size_t n = item.kind == DSL_LIST  ? item.as.l->len
                   : item.kind == DSL_STR ? render_utf8_count(item.as.s->data, item.as.s->len)
                                          : 0;
        if (r == 0 && n != 2)
            r = dsl_raise(in, "ValueError",
                          "dictionary update sequence element #%zu has length %zu; 2 is required",
                          k, n);
        if (r == 0 && item.kind == DSL_LIST)
            r = dsl_dict_store(in, d, item.as.l->items[0], item.as.l->items[1]);
        if (r == 0 && item.kind == DSL_STR) { /* "ab" is the pair ('a', 'b') */
            struct dsl_iter si;
            struct dsl_value a = dsl_none(), b = dsl_none();
            dsl_iter_init(in, item, &si); /* a string: nothing held, nothing to end */
            r = dsl_iter_next(in, &si, &a) < 0 || dsl_iter_next(in, &si, &b) < 0 ? -1 : 0;
            if (r == 0) r = dsl_dict_store(in, d, a, b);
            dsl_value_release(a);
            dsl_value_release(b);
        }
        dsl_value_release(item);
        if (r != 0) {
            dsl_iter_end(&it);
            return -1;
        }
    }
    dsl_iter_end(&it);
    return got < 0 ? -1 : 0;
}

/* The keyword arguments of a call (dict(a=1), d.update(b=2)), stored as string keys. */
static int update_from_keywords(struct dsl_interp *in, struct dsl_dict *d, const struct dsl_args *a)
{
    for (size_t k = 0; k < a->nkw; k++) {
        struct dsl_value key;
        int st = dsl_str_value(a->kwnames[k], strlen(a->kwnames[k]), &key);
        if (st != DSL_V_OK) return dsl_raise_status(in, st);
        int r = dsl_dict_store(in, d, key, a->kwvals[k]);
        dsl_value_release(key);
        if (r != 0) return -1;
    }
    return 0;
}

int dsl_bi_dict(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_dict *d = dsl_dict_new();
    if (!d) return dsl_raise_status(in, DSL_V_NOMEM);
    struct dsl_value dv = dsl_dict_value(d);
    if ((a->has[0] && update_from(in, d, a->slot[0]) != 0) || update_from_keywords(in, d, a) != 0) {
        dsl_value_release(dv);
        return -1;
    }
    *ret = dv;
    return 0;
}

/* ---- methods ---------------------------------------------------------------------------- */

/* A new list of what `pick` takes from each live entry: 0 key, 1 value, 2 (key, value). */
static int entries_list(struct dsl_interp *in, const struct dsl_dict *d, int pick,
                        struct dsl_value *ret)
{
    struct dsl_list *l = dsl_list_new(d->len);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    struct dsl_value lv = {.kind = DSL_LIST, .as.l = l};
    for (size_t i = 0; i < d->n; i++) {
        const struct dsl_dict_entry *e = &d->entries[i];
        if (!e->live) continue;
        struct dsl_value v;
        if (pick < 2) {
            v = dsl_value_retain(pick == 0 ? e->key : e->value);
        } else {
            struct dsl_list *pair = dsl_list_new(2);
            if (!pair) {
                dsl_value_release(lv);
                return dsl_raise_status(in, DSL_V_NOMEM);
            }
            pair->style = DSL_LIST_TUPLE;
            dsl_list_push(pair, dsl_value_retain(e->key));
            dsl_list_push(pair, dsl_value_retain(e->value));
            v = (struct dsl_value){.kind = DSL_LIST, .as.l = pair};
        }
        dsl_list_push(l, v); /* room reserved above */
    }
    *ret = lv;
    return 0;
}

static int m_keys(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return entries_list(in, a->self.as.d, 0, ret);
}

static int m_values(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return entries_list(in, a->self.as.d, 1, ret);
}

static int m_items(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return entries_list(in, a->self.as.d, 2, ret);
}

static int m_get(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value *slot;
    if (dsl_dict_lookup(in, a->self.as.d, a->slot[0], &slot) != 0) return -1;
    *ret = dsl_value_retain(slot ? *slot : a->has[1] ? a->slot[1] : dsl_none());
    return 0;
}

int dsl_dict_pop(struct dsl_interp *in, struct dsl_dict *d, struct dsl_value key,
                 const struct dsl_value *dflt, struct dsl_value *out)
{
    uint64_t h;
    struct dsl_dict_entry *e = NULL;
    /* an empty dict has no key to look for: CPython answers before hashing it, so that
     * {}.pop([], 0) is 0 */
    if (d->len && (dsl_hash_key(in, key, false, &h) != 0 || find_key(in, d, key, h, &e) != 0))
        return -1;
    if (!e) {
        if (dflt) {
            *out = dsl_value_retain(*dflt);
            return 0;
        }
        return dsl_dict_raise_key(in, key);
    }
    struct dsl_value old;
    dsl_dict_remove(d, e, &old, out);
    dsl_value_release(old);
    return 0;
}

static int m_pop(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return dsl_dict_pop(in, a->self.as.d, a->slot[0], a->has[1] ? &a->slot[1] : NULL, ret);
}

static int m_popitem(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_dict *d = a->self.as.d;
    if (d->len == 0) return dsl_raise(in, "KeyError", "'popitem(): dictionary is empty'");
    struct dsl_list *pair = dsl_list_new(2);
    if (!pair) return dsl_raise_status(in, DSL_V_NOMEM);
    size_t i = d->n;
    while (!d->entries[i - 1].live) i--;
    struct dsl_value key, value;
    dsl_dict_remove(d, &d->entries[i - 1], &key, &value);
    pair->style = DSL_LIST_TUPLE;
    dsl_list_push(pair, key);
    dsl_list_push(pair, value);
    *ret = (struct dsl_value){.kind = DSL_LIST, .as.l = pair};
    return 0;
}

static int m_setdefault(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value *slot, dflt = a->has[1] ? a->slot[1] : dsl_none();
    if (dsl_dict_lookup(in, a->self.as.d, a->slot[0], &slot) != 0) return -1;
    if (!slot && dsl_dict_store(in, a->self.as.d, a->slot[0], dflt) != 0) return -1;
    *ret = dsl_value_retain(slot ? *slot : dflt);
    return 0;
}

static int m_update(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    *ret = dsl_none();
    if (a->has[0] && update_from(in, a->self.as.d, a->slot[0]) != 0) return -1;
    return update_from_keywords(in, a->self.as.d, a);
}

static int m_copy(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_dict *d = dsl_dict_new();
    if (!d) return dsl_raise_status(in, DSL_V_NOMEM);
    *ret = dsl_dict_value(d);
    if (update_from(in, d, a->self) != 0) {
        dsl_value_release(*ret);
        *ret = dsl_none();
        return -1;
    }
    return 0;
}

static int m_clear(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)in;
    struct dsl_dict *d = a->self.as.d;
    for (size_t i = d->n; i > 0; i--) {
        struct dsl_dict_entry *e = &d->entries[i - 1];
        if (!e->live) continue;
        struct dsl_value key, value;
        dsl_dict_remove(d, e, &key, &value);
        dsl_value_release(key);
        dsl_value_release(value);
    }
    *ret = dsl_none();
    return 0;
}

const struct dsl_builtin dsl_dict_methods[] = {
    {"clear", "d.clear()", 0, 0, NULL, m_clear, "Removes every key."},
    {"copy", "d.copy()", 0, 0, NULL, m_copy,
     "A new dict with the same keys and values (a shallow copy: values are shared)."},
    {"get", "d.get(key, default=None)", 1, 2, NULL, m_get,
     "The value of key, or default when key is not in the dict."},
    {"items", "d.items()", 0, 0, NULL, m_items,
     "A new list of the (key, value) pairs, in insertion order."},
    {"keys", "d.keys()", 0, 0, NULL, m_keys, "A new list of the keys, in insertion order."},
    {"pop", "d.pop(key[, default])", 1, 2, NULL, m_pop,
     "Removes key and returns its value; default when key is absent, else KeyError."},
    {"popitem", "d.popitem()", 0, 0, NULL, m_popitem,
     "Removes the last inserted pair and returns it as (key, value); KeyError when empty."},
    {"setdefault", "d.setdefault(key, default=None)", 1, 2, NULL, m_setdefault,
     "The value of key; when key is absent, stores default under it first."},
    {"update", "d.update([other], **kwargs)", 0, 1, dsl_any_keywords, m_update,
     "Stores the pairs of other (a dict, or an iterable of (key, value) pairs), then the "
     "keyword arguments."},
    {"values", "d.values()", 0, 0, NULL, m_values, "A new list of the values, in insertion order."},
};
const size_t dsl_dict_method_count = sizeof dsl_dict_methods / sizeof dsl_dict_methods[0];

const struct dsl_builtin *dsl_dict_method_row(const char *name)
{
    for (size_t i = 0; i < dsl_dict_method_count; i++)
        if (strcmp(dsl_dict_methods[i].name, name) == 0) return &dsl_dict_methods[i];
    return NULL;
}

int dsl_dict_getattr(struct dsl_interp *in, struct dsl_value v, const char *name,
                     struct dsl_value *out)
{
    const struct dsl_builtin *row = dsl_dict_method_row(name);
    if (row) {
        int st = dsl_method_value(row, v, out);
        return st ? dsl_raise_status(in, st) : 0;
    }
    if (dsl_raise_missing(in, "dict", name) != 0) return -1;
    const char *best = NULL; /* only now: a method call must not pay for a suggestion */
    size_t best_d = 3;
    for (size_t i = 0; i < dsl_dict_method_count; i++) {
        size_t d = dsl_edit_distance(name, dsl_dict_methods[i].name);
        if (d < best_d) best_d = d, best = dsl_dict_methods[i].name;
    }
    if (best)
        return dsl_raise(in, "AttributeError",
                         "'dict' object has no attribute '%s', did you mean '%s'?", name, best);
    return dsl_raise(in, "AttributeError", "'dict' object has no attribute '%s'", name);
}
