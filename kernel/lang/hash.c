/* hash.c — Python's hash() of every hashable value, the one hash of the language: hash()
 * returns it, and dicts and sets place their keys by it (dict.h), so that a key an instance's
 * __hash__ hashes and the int or tuple it equals land in the same place.
 *
 * CPython's hashes: of an int, its value modulo the prime 2**61 - 1 with its sign; of a float
 * the same of the rational it is (so hash(1.0) == hash(1)); of a tuple the xxHash-like mix of
 * its items' hashes; of a frozenset its items' hashes combined whatever their order; -1 is
 * never a hash (it becomes -2). Strings hash stably (CPython's are salted per process), and
 * other objects by their identity. */
#include "lang/dict.h"

#include "lang/interp.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define HASH_MODULUS (((uint64_t)1 << 61) - 1)
#define HASH_INF 314159

const void *dsl_value_identity(struct dsl_value v)
{
    switch (v.kind) {
    case DSL_STR: return v.as.s;
    case DSL_LIST: return v.as.l;
    case DSL_DICT:
    case DSL_SET: return v.as.d;
    case DSL_BUILTIN: return v.as.fn;
    case DSL_TENSOR: return v.as.t;
    case DSL_METHOD: return v.as.m;
    case DSL_FUNCTION: return v.as.fn_user;
    case DSL_OBJECT: return v.as.obj;
    case DSL_CELL: return v.as.cell;
    case DSL_CLASS: return v.as.cls;
    case DSL_INSTANCE: return v.as.inst;
    case DSL_SUPER: return v.as.sup;
    case DSL_EXC_TYPE: return v.as.exc_type;
    case DSL_EXCEPTION: return v.as.exc;
    default: return NULL;
    }
}

uint64_t dsl_mix64(uint64_t x)
{
    /* splitmix64's finalizer: a bijection that spreads nearby values apart */
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

static int64_t hash_int(int64_t v)
{
    uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    int64_t h = (int64_t)(mag % HASH_MODULUS);
    if (v < 0) h = -h;
    return h == -1 ? -2 : h;
}

static int64_t hash_float(double f)
{
    if (isinf(f)) return f > 0 ? HASH_INF : -HASH_INF;
    if (isnan(f)) return 0;
    int e;
    double m = frexp(fabs(f), &e);          /* |f| = m * 2**e, m in [0.5, 1) */
    uint64_t mant = (uint64_t)ldexp(m, 53); /* |f| = mant * 2**(e - 53), exactly */
    int k = (e - 53) % 61;                  /* 2**61 is 1 modulo the prime */
    if (k < 0) k += 61;
    uint64_t h = (uint64_t)(((unsigned __int128)mant << k) % HASH_MODULUS);
    int64_t r = f < 0 ? -(int64_t)h : (int64_t)h;
    return r == -1 ? -2 : r;
}

static int64_t hash_pointer(const void *p)
{
    uint64_t y = (uint64_t)(uintptr_t)p;
    int64_t h = (int64_t)(y >> 4 | y << 60); /* the low bits of an address are all zero */
    return h == -1 ? -2 : h;
}

/* The mix of a tuple's item hashes (xxHash64's round, as CPython's tuple hash). */
static int64_t hash_items(const int64_t *h, size_t n)
{
    const uint64_t p1 = 11400714785074694791ULL, p2 = 14029467366897019727ULL,
                   p5 = 2870177450012600261ULL;
    uint64_t acc = p5;
    for (size_t i = 0; i < n; i++) {
        acc += (uint64_t)h[i] * p2;
        acc = acc << 31 | acc >> 33;
        acc *= p1;
    }
    acc += n ^ (p5 ^ 3527539UL);
    return acc == UINT64_MAX ? 1546275796 : (int64_t)acc;
}

static int hash_at(struct dsl_interp *in, struct dsl_value v, int depth, bool as_frozen,
                   int64_t *out);

static int raise_depth(struct dsl_interp *in, const char *what)
{
    return dsl_raise(in, "RecursionError",
                     "maximum recursion depth exceeded while hashing a %s nested more than %d "
                     "deep",
                     what, DSL_MAX_LIST_DEPTH);
}

/* A tuple's items are held while hashed: an item's __hash__ may change the tuple's owner, never
 * the tuple, but it may drop the last other reference to it. */
static int hash_tuple(struct dsl_interp *in, struct dsl_value v, int depth, int64_t *out)
{
    size_t n = v.as.l->len;
    int64_t small[8], *h = n <= 8 ? small : malloc(n * sizeof *h);
    if (!h) return dsl_raise_status(in, DSL_V_NOMEM);
    v = dsl_value_retain(v);
    int r = 0;
    for (size_t i = 0; i < n && r == 0; i++)
        r = hash_at(in, v.as.l->items[i], depth + 1, false, &h[i]);
    if (r == 0) *out = hash_items(h, n);
    dsl_value_release(v);
    if (h != small) free(h);
    return r;
}

/* One element's hash spread over the bits, as CPython's frozenset hash takes it. */
static uint64_t shuffle_bits(uint64_t h) { return ((h ^ 89869747ULL) ^ (h << 16)) * 3644798167ULL; }

/* CPython's hash of a frozenset: its elements' hashes combined whatever their order. A set
 * hashed as the frozenset it equals (`x in s` retries so) may change under an item's __hash__:
 * each item is held and the table read again. */
static int hash_frozenset(struct dsl_interp *in, const struct dsl_dict *s, int depth, int64_t *out)
{
    uint64_t h = 0;
    for (size_t i = 0; i < s->n; i++) {
        int64_t e;
        if (!s->entries[i].live) continue;
        struct dsl_value key = dsl_value_retain(s->entries[i].key);
        int r = hash_at(in, key, depth + 1, false, &e);
        dsl_value_release(key);
        if (r != 0) return -1;
        h ^= shuffle_bits((uint64_t)e);
    }
    h ^= ((uint64_t)s->len + 1) * 1927868237ULL;
    h ^= (h >> 11) ^ (h >> 25);
    h = h * 69069U + 907133923ULL;
    *out = h == UINT64_MAX ? 590923713 : (int64_t)h;
    return 0;
}

static int hash_at(struct dsl_interp *in, struct dsl_value v, int depth, bool as_frozen,
                   int64_t *out)
{
    switch (v.kind) {
    case DSL_NONE: *out = 0x6e6f6e65; return 0; /* any constant */
    case DSL_BOOL:
    case DSL_INT: *out = hash_int(dsl_as_int(v)); return 0;
    case DSL_FLOAT: *out = hash_float(v.as.f); return 0;
    case DSL_STR: {
        uint64_t x = 1469598103934665603ULL; /* FNV-1a, then mixed */
        for (size_t i = 0; i < v.as.s->len; i++)
            x = (x ^ (unsigned char)v.as.s->data[i]) * 1099511628211ULL;
        int64_t h = (int64_t)dsl_mix64(x);
        *out = h == -1 ? -2 : h;
        return 0;
    }
    case DSL_LIST:
        if (!dsl_is_tuple(v)) break;
        if (depth >= DSL_MAX_LIST_DEPTH) return raise_depth(in, "tuple");
        return hash_tuple(in, v, depth, out);
    case DSL_DICT: break;
    case DSL_SET: /* a frozenset; a set is unhashable */
        if (!v.as.d->frozen && !as_frozen) break;
        if (depth >= DSL_MAX_LIST_DEPTH) return raise_depth(in, "frozenset");
        return hash_frozenset(in, v.as.d, depth, out);
    case DSL_RANGE: { /* as CPython: the tuple (len, start, step), None where it does not matter */
        int64_t n = dsl_range_len(v.as.rng->r), h[3] = {hash_int(n), 0x6e6f6e65, 0x6e6f6e65};
        if (n > 0) h[1] = hash_int(v.as.rng->r.start);
        if (n > 1) h[2] = hash_int(v.as.rng->r.step);
        *out = hash_items(h, 3);
        return 0;
    }
    case DSL_METHOD: { /* its self's identity and its function's */
        const void *f = v.as.m->fn ? (const void *)v.as.m->fn : dsl_value_identity(v.as.m->func);
        int64_t h = hash_pointer(dsl_value_identity(v.as.m->self)) ^ hash_pointer(f);
        *out = h == -1 ? -2 : h;
        return 0;
    }
    case DSL_INSTANCE: return dsl_instance_hash(in, v, out); /* __hash__, as the data model */
    default: {
        const void *p = dsl_value_identity(v);
        if (!p) break;
        *out = hash_pointer(p);
        return 0;
    }
    }
    return dsl_raise(in, "TypeError", "unhashable type: '%s'", dsl_type_name(v));
}

int dsl_hash_value(struct dsl_interp *in, struct dsl_value v, int64_t *out)
{
    return hash_at(in, v, 0, false, out);
}

int dsl_hash_key(struct dsl_interp *in, struct dsl_value key, bool as_frozen, uint64_t *h)
{
    /* a non-negative int below the modulus is its own hash (hash_int): the commonest key,
     * without the switch of every kind (autodiff's dicts and sets of unique ids) */
    if (key.kind == DSL_INT && key.as.i >= 0 && (uint64_t)key.as.i < HASH_MODULUS) {
        *h = dsl_mix64((uint64_t)key.as.i);
        return 0;
    }
    int64_t py;
    if (hash_at(in, key, 0, as_frozen, &py) != 0) return -1;
    *h = dsl_mix64((uint64_t)py); /* Python's hashes of small ints are the ints: spread them */
    return 0;
}

bool dsl_key_has_instance_within(struct dsl_value key)
{
    if (key.kind == DSL_INSTANCE) return true;
    if (key.kind == DSL_LIST)
        for (size_t i = 0; i < key.as.l->len; i++)
            if (dsl_key_has_instance(key.as.l->items[i])) return true;
    if (key.kind == DSL_SET) return key.as.d->instance_keys;
    return false;
}
