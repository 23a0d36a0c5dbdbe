/* values.c — constructors, reference counting, truth, equality and text of values.
 *
 * Text follows Python: repr quotes strings and shows floats with the shortest round-trip
 * digits, str (print) shows strings bare. Bools and none show as Python shows them (True,
 * False, None), whichever spelling the code used: a student compares with Python. Tensors show
 * as PyTorch prints them (the formatter lives in kernel/render, which reads engine tensors).
 * Releasing never recurses (a stack of dying containers linked through their `dead` fields);
 * repr and == recurse at most DSL_MAX_LIST_DEPTH levels. */
#include "lang/values.h"

#include "lang/ast.h"
#include "lang/classes.h"
#include "lang/dict.h"
#include "lang/exceptions.h"
#include "lang/library.h"
#include "lang/ndarray.h"

#include <minitorch/minitorch.h>

#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    const char *doc;
} kinds[DSL_KIND_COUNT] = {
    [DSL_NONE] = {"none", "none: the absence of a value (also spelled None; shown as None, as "
                          "Python shows it). A cell whose last expression is none shows no "
                          "result."},
    [DSL_BOOL] = {"bool", "bool: true or false (also True/False; shown as True and False, as "
                          "Python shows them). In arithmetic true is 1 and false is 0."},
    [DSL_INT] = {"int", "int: a 64-bit signed integer. Results that do not fit raise "
                        "OverflowError; / gives a float, // and % round toward minus infinity."},
    [DSL_FLOAT] = {"float", "float: a double-precision floating point number, shown with the "
                            "shortest digits that read back to the same value."},
    [DSL_STR] = {"str", "str: immutable UTF-8 text, written \"...\" or '...'. + joins, * "
                        "repeats, s[i] picks the i-th character, len(s) counts characters."},
    [DSL_LIST] = {"list", "list: a mutable sequence [a, b, ...], shared by reference (ys = xs "
                          "names the same list). + joins, * repeats, xs[i] picks an item "
                          "(negative i counts from the end) and xs[i] = v replaces it; methods "
                          "append, extend, insert, pop, remove, index, count, clear, copy, "
                          "reverse, sort. A list cannot hold itself."},
    [DSL_RANGE] = {"range", "range: the integers range(start, stop, step) yields, used by for "
                            "loops; list(range(...)) makes a list."},
    [DSL_BUILTIN] = {"builtin_function", "builtin_function: a function of the language; "
                                         "help(name) describes it."},
    [DSL_TENSOR] = {"tensor",
                    "tensor: an n-dimensional array of float32 numbers (MiniTorch's Tensor) on a "
                    "backend: simple (serial reference loops), fast (threads + SIMD) or cuda. "
                    "Make one with tensor([[1, 2], [3, 4]]), zeros(2, 3), ones(2, 3) or "
                    "rand(2, 3). Operators + - * / @ and < > == work elementwise with "
                    "broadcasting (numbers mix in); t[i, j] reads or writes one element; "
                    "requires_grad=true makes backward() fill t.grad."},
    [DSL_METHOD] = {"method", "method: a method bound to its tensor or list (x.sum, xs.append); "
                              "call it, or ask help(x.sum)."},
    [DSL_FUNCTION] = {"function", "function: made by def NAME(params): with an indented body; "
                                  "`return value` ends a call with its result. Names assigned "
                                  "in the body are local to each call; others are read from the "
                                  "cell's variables. A string first in the body is its "
                                  "docstring, shown by help(NAME)."},
    [DSL_OBJECT] = {"object", "object: something the engine made (a dataset, a model, an "
                              "optimizer); type() names it and help() describes it."},
    [DSL_CELL] = {"cell", "cell: a variable shared by a function and the functions nested in "
                          "it."},
    [DSL_CLASS] = {"type", "type: a class, made by `class Name(Base):` with its methods in the "
                           "indented body; calling it makes an instance and runs __init__."},
    [DSL_INSTANCE] = {"instance", "An instance of a class made by `class`: its attributes are "
                                  "set with self.name = value; its methods come from its "
                                  "class and the classes it derives from."},
    [DSL_SUPER] = {"super", "super: super() inside a method looks attributes up in the "
                            "classes after the method's own class, bound to self: "
                            "super().__init__()."},
    [DSL_DICT] = {"dict", "dict: a mutable mapping {key: value, ...} that keeps its keys in "
                          "insertion order, shared by reference. d[key] reads (KeyError when "
                          "absent) and d[key] = v stores; keys are hashable values (numbers, "
                          "strings, tuples, None); methods keys, values, items, get, pop, "
                          "popitem, setdefault, update, copy, clear."},
    [DSL_SET] = {"set", "set: a mutable collection {a, b, ...} of distinct hashable values "
                        "(set() when empty: {} is a dict), shared by reference; frozenset(...) "
                        "makes one that never changes and is hashable. x in s, len, iteration; "
                        "| & - ^ are union, intersection, difference and symmetric difference, "
                        "<= and < test subsets; methods add, remove, discard, pop, clear, copy, "
                        "update, union, intersection, difference, symmetric_difference, "
                        "issubset, issuperset, isdisjoint."},
    [DSL_EXC_TYPE] = {"type", "type: an exception class (ValueError, Exception, ...); "
                              "help(ValueError) describes it."},
    [DSL_EXCEPTION] = {"exception", "exception: made by calling an exception class, "
                                    "ValueError(\"message\"), or caught by `except E as e`; "
                                    "e.args holds what it was made with."},
};
static_assert(sizeof kinds / sizeof kinds[0] == DSL_KIND_COUNT, "one row per value kind");
/* Values are copied and passed everywhere: two words travel in registers, a wider union on the
 * stack. What does not fit in a word is boxed (dsl_range_obj). */
static_assert(sizeof(struct dsl_value) <= 2 * sizeof(uint64_t), "a value stays two words");

const char *dsl_kind_name(enum dsl_kind k)
{
    return (unsigned)k < DSL_KIND_COUNT ? kinds[k].name : "?";
}

const char *dsl_kind_doc(enum dsl_kind k)
{
    return (unsigned)k < DSL_KIND_COUNT ? kinds[k].doc : "";
}

const char *dsl_type_doc(struct dsl_value v)
{
    if (v.kind == DSL_INSTANCE) {
        const struct dsl_class *c = v.as.inst->cls.as.cls;
        return c->doc ? c->doc : dsl_kind_doc(v.kind);
    }
    if (v.kind == DSL_EXCEPTION) return v.as.exc->type->doc;
    if (dsl_is_ndarray(v)) return DSL_NDARRAY_DOC;
    return v.kind == DSL_OBJECT ? v.as.obj->cls->doc : dsl_kind_doc(v.kind);
}

const char *dsl_type_name(struct dsl_value v)
{
    if (v.kind == DSL_NONE) return "NoneType"; /* what Python's messages call it */
    if (v.kind == DSL_BUILTIN) return "builtin_function_or_method";
    if (v.kind == DSL_METHOD) {
        static const char *const wrapped[] = {[DSL_WRAP_BOUND] = "method",
                                              [DSL_WRAP_STATIC] = "staticmethod",
                                              [DSL_WRAP_CLASS] = "classmethod",
                                              [DSL_WRAP_PROPERTY] = "property",
                                              [DSL_WRAP_ATTRS] = "dict"};
        return wrapped[v.as.m->wrap];
    }
    if (v.kind == DSL_OBJECT) return v.as.obj->cls->name;
    if (v.kind == DSL_INSTANCE) return v.as.inst->cls.as.cls->name;
    if (v.kind == DSL_EXCEPTION) return v.as.exc->type->name;
    if (v.kind == DSL_LIST && v.as.l->style == DSL_LIST_TUPLE) return "tuple";
    if (v.kind == DSL_LIST && v.as.l->style == DSL_LIST_NDARRAY) return "numpy.ndarray";
    if (v.kind == DSL_SET && v.as.d->frozen) return "frozenset";
    return dsl_kind_name(v.kind);
}

/* The reference count of a heap value, or NULL (scalars, tensors, built-in classes). */
size_t *dsl_value_refs(struct dsl_value v)
{
    switch (v.kind) {
    case DSL_STR: return &v.as.s->refs;
    case DSL_LIST: return &v.as.l->refs;
    case DSL_METHOD: return &v.as.m->refs;
    case DSL_FUNCTION: return &v.as.fn_user->refs;
    case DSL_OBJECT: return &v.as.obj->refs;
    case DSL_CELL: return &v.as.cell->refs;
    case DSL_CLASS: return v.as.cls->builtin ? NULL : &v.as.cls->refs;
    case DSL_INSTANCE: return &v.as.inst->refs;
    case DSL_SUPER: return &v.as.sup->refs;
    case DSL_DICT:
    case DSL_SET: return &v.as.d->refs;
    case DSL_EXCEPTION: return &v.as.exc->refs;
    case DSL_RANGE: return &v.as.rng->refs;
    default: return NULL;
    }
}

void dsl_value_retain_held(struct dsl_value v)
{
    switch (v.kind) {
    case DSL_TENSOR: mt_tensor_retain(v.as.t); return;
    case DSL_STR: v.as.s->refs++; return;
    case DSL_LIST: v.as.l->refs++; return;
    default: {
        size_t *refs = dsl_value_refs(v);
        if (refs) ++*refs;
        return;
    }
    }
}

/* ---- the memory values hold ------------------------------------------------------------- */

static size_t mem_used;
static size_t mem_limit = SIZE_MAX, mem_default = SIZE_MAX;
static bool mem_set;   /* the limit was set, not the default */
static int mem_exempt; /* dsl_mem_exempt: on while > 0 */
static size_t refused_bytes;
static const char *refused_what;

bool dsl_mem_take(size_t bytes, const char *what)
{
    size_t limit = mem_limit;
    if (bytes <= DSL_MEM_SMALL)
        limit = limit > SIZE_MAX - DSL_MEM_RESERVE ? SIZE_MAX : limit + DSL_MEM_RESERVE;
    if (mem_exempt > 0) limit = SIZE_MAX;
    if (mem_used > limit || bytes > limit - mem_used) {
        refused_bytes = bytes;
        refused_what = what;
        return false;
    }
    mem_used += bytes;
    return true;
}

void dsl_mem_give(size_t bytes)
{
    assert(bytes <= mem_used);
    mem_used -= bytes <= mem_used ? bytes : mem_used;
}

void dsl_mem_exempt(bool on) { mem_exempt += on ? 1 : -1; }

size_t dsl_mem_used(void) { return mem_used; }

size_t dsl_mem_limit(void) { return mem_limit; }

void dsl_mem_set_limit(size_t bytes)
{
    mem_set = bytes != 0;
    mem_limit = mem_set ? bytes : mem_default;
}

void dsl_mem_set_default(size_t bytes)
{
    mem_default = bytes;
    if (!mem_set) mem_limit = bytes;
}

bool dsl_mem_limit_is_default(void) { return !mem_set; }

bool dsl_mem_refusal(size_t *bytes, const char **what)
{
    if (!refused_what) return false;
    if (bytes) *bytes = refused_bytes;
    if (what) *what = refused_what;
    refused_what = NULL;
    return true;
}

/* What a string of len bytes counts: its header, its bytes and the NUL. */
static size_t str_bytes(size_t len) { return sizeof(struct dsl_str) + len + 1; }

static void str_free(struct dsl_str *s)
{
    if (!s) return;
    dsl_mem_give(str_bytes(s->len));
    free(s);
}

/* What a list with room for cap items counts: its header and its item array. */
static size_t list_bytes(size_t cap)
{
    return sizeof(struct dsl_list) + cap * sizeof(struct dsl_value);
}

/* The link a dying container is stacked by, or NULL for a value that holds no language values
 * (freed at once). */
static struct dsl_value *dead_link(struct dsl_value v)
{
    switch (v.kind) {
    case DSL_LIST: return &v.as.l->dead;
    case DSL_METHOD: return &v.as.m->dead;
    case DSL_FUNCTION: return &v.as.fn_user->dead;
    case DSL_CELL: return &v.as.cell->dead;
    case DSL_CLASS: return &v.as.cls->dead;
    case DSL_INSTANCE: return &v.as.inst->dead;
    case DSL_SUPER: return &v.as.sup->dead;
    case DSL_DICT:
    case DSL_SET: return &v.as.d->dead;
    case DSL_EXCEPTION: return &v.as.exc->dead;
    default: return NULL;
    }
}

/* Drops one reference of v where that frees nothing: a plain value, a tensor (the engine's
 * count), a reference that is not the last. False, with nothing done, for the last reference of
 * a string or container. */
static inline bool drop_alive(struct dsl_value v)
{
    if (dsl_value_counted(v)) { /* the common kinds: their count is first */
        if (*v.as.refs == 1) return false;
        --*v.as.refs;
        return true;
    }
    switch (v.kind) {
    case DSL_NONE:
    case DSL_BOOL:
    case DSL_INT:
    case DSL_FLOAT:
    case DSL_RANGE:
    case DSL_BUILTIN: return true;
    case DSL_TENSOR: mt_tensor_release(v.as.t); return true;
    default: break;
    }
    size_t *refs = dsl_value_refs(v);
    if (!refs) return true;
    if (*refs == 1) return false;
    --*refs;
    return true;
}

/* Drops one reference of v; a container reaching zero goes on the stack *dead (through its own
 * `dead` field) instead of being freed here, so freeing never recurses. */
static void drop(struct dsl_value v, struct dsl_value *dead)
{
    if (drop_alive(v)) return;
    *dsl_value_refs(v) = 0;
    struct dsl_value *link = dead_link(v);
    if (link) {
        *link = *dead;
        *dead = v;
    } else if (v.kind == DSL_STR) {
        str_free(v.as.s);
    } else if (v.kind == DSL_OBJECT) { /* holds no language values: nothing to recurse into */
        v.as.obj->cls->free(v.as.obj->state);
        free(v.as.obj);
    } else if (v.kind == DSL_RANGE) {
        dsl_mem_give(sizeof *v.as.rng);
        free(v.as.rng);
    }
}

/* Calls fn on every slot holding a language value in container c. */
static void for_each_slot(struct dsl_value c, void (*fn)(struct dsl_value *slot, void *arg),
                          void *arg)
{
    switch (c.kind) {
    case DSL_LIST:
        for (size_t i = 0; i < c.as.l->len; i++) fn(&c.as.l->items[i], arg);
        break;
    case DSL_METHOD:
        fn(&c.as.m->self, arg);
        fn(&c.as.m->func, arg);
        fn(&c.as.m->fdel, arg);
        break;
    case DSL_FUNCTION: {
        struct dsl_function *f = c.as.fn_user;
        for (size_t i = 0; f->defaults && i < f->def->nkw; i++) fn(&f->defaults[i], arg);
        for (size_t i = 0; f->cells && i < f->nfree; i++) fn(&f->cells[i], arg);
        for (size_t i = 0; i < f->attrs.len; i++) fn(&f->attrs.items[i].value, arg);
        fn(&f->owner, arg);
        break;
    }
    case DSL_CELL: fn(&c.as.cell->value, arg); break;
    case DSL_CLASS:
        fn(&c.as.cls->base, arg);
        for (size_t i = 0; i < c.as.cls->attrs.len; i++) fn(&c.as.cls->attrs.items[i].value, arg);
        break;
    case DSL_INSTANCE:
        fn(&c.as.inst->cls, arg);
        for (size_t i = 0; i < c.as.inst->attrs.len; i++) fn(&c.as.inst->attrs.items[i].value, arg);
        break;
    case DSL_SUPER:
        fn(&c.as.sup->after, arg);
        fn(&c.as.sup->self, arg);
        break;
    case DSL_EXCEPTION: fn(&c.as.exc->args, arg); break;
    case DSL_DICT: /* its entries hold every value it holds, dead entries none */
    case DSL_SET:  /* a set's values are all none */
        for (size_t i = 0; i < c.as.d->n; i++) {
            fn(&c.as.d->entries[i].key, arg);
            fn(&c.as.d->entries[i].value, arg);
        }
        break;
    default: break;
    }
}

struct visit_arg {
    void (*visit)(struct dsl_value held, void *arg);
    void *arg;
};

static void visit_slot(struct dsl_value *slot, void *arg)
{
    const struct visit_arg *va = arg;
    va->visit(*slot, va->arg);
}

void dsl_value_traverse(struct dsl_value v, void (*visit)(struct dsl_value held, void *arg),
                        void *arg)
{
    struct visit_arg va = {visit, arg};
    for_each_slot(v, visit_slot, &va);
}

/* Releases a held slot's value: it stops being a parent of it, then drops it. */
static void drop_held(struct dsl_value v, struct dsl_value *dead)
{
    dsl_value_orphan(v);
    drop(v, dead);
}

static void drop_slot(struct dsl_value *slot, void *dead)
{
    drop_held(*slot, dead);
    *slot = dsl_none();
}

/* ---- blocks kept for reuse ------------------------------------------------------------- */

/* Per size class (a multiple of 16 bytes, below BLOCK_CLASSES * 16), up to BLOCK_KEEP freed
 * blocks. Every block of a class is allocated at the class's full size, so that any of them
 * serves any request of the class. */
#define BLOCK_CLASSES 32
#define BLOCK_KEEP 256
static struct {
    void *kept[BLOCK_KEEP];
    size_t n;
} blocks[BLOCK_CLASSES];

/* none kept under AddressSanitizer (gcc says so by a macro, clang by a feature) */
#if defined(__SANITIZE_ADDRESS__)
#define BLOCK_REUSE 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BLOCK_REUSE 0
#endif
#endif
#ifndef BLOCK_REUSE
#define BLOCK_REUSE 1
#endif

void *dsl_block_new(size_t size)
{
    size_t k = (size + 15) / 16;
    if (!BLOCK_REUSE || k >= BLOCK_CLASSES) return malloc(size);
    if (blocks[k].n) return blocks[k].kept[--blocks[k].n];
    return malloc(k * 16);
}

void dsl_block_free(void *block, size_t size)
{
    size_t k = (size + 15) / 16;
    if (BLOCK_REUSE && k < BLOCK_CLASSES && blocks[k].n < BLOCK_KEEP)
        blocks[k].kept[blocks[k].n++] = block;
    else
        free(block);
}

/* Lists made with room for at most this many items hold them in their own block, right after
 * the struct (list_inline); a list that grows past its room moves them to an array of their own. */
#define LIST_INLINE 8
#define LIST_MIN_ROOM 4
static struct dsl_value *list_inline(struct dsl_list *l)
{
    return (struct dsl_value *)(void *)(l + 1);
}

static void free_attrs(struct dsl_attrs *a)
{
    for (size_t i = 0; i < a->len; i++) dsl_name_release(a->items[i].name);
    if (!a->items_inline) free(a->items);
    free(a->index);
    *a = (struct dsl_attrs){0};
}

/* Frees the memory of container c, whose values were dropped already. */
static void free_container(struct dsl_value c)
{
    switch (c.kind) {
    case DSL_LIST:
        dsl_gc_untrack(&c.as.l->gc);
        dsl_mem_give(list_bytes(c.as.l->cap));
        if (c.as.l->items != list_inline(c.as.l)) free(c.as.l->items);
        dsl_block_free(c.as.l, sizeof *c.as.l + c.as.l->room * sizeof *c.as.l->items);
        break;
    case DSL_METHOD:
        dsl_gc_untrack(&c.as.m->gc);
        free(c.as.m);
        break;
    case DSL_FUNCTION: {
        struct dsl_function *f = c.as.fn_user;
        dsl_gc_untrack(&f->gc);
        free(f->defaults);
        free(f->locals);
        free(f->is_cell);
        free(f->qualname);
        free(f->freevars);
        free(f->cells);
        dsl_prog_cache_free(f->progs);
        dsl_jit_cache_free(f->jits);
        free_attrs(&f->attrs);
        dsl_code_release(f->code);
        free(f);
        break;
    }
    case DSL_CELL:
        dsl_gc_untrack(&c.as.cell->gc);
        free(c.as.cell);
        break;
    case DSL_CLASS:
        dsl_gc_untrack(&c.as.cls->gc);
        free_attrs(&c.as.cls->attrs);
        free((char *)c.as.cls->name);
        free(c.as.cls);
        break;
    case DSL_INSTANCE:
        dsl_gc_untrack(&c.as.inst->gc);
        free_attrs(&c.as.inst->attrs);
        dsl_block_free(c.as.inst, sizeof *c.as.inst);
        break;
    case DSL_SUPER:
        dsl_gc_untrack(&c.as.sup->gc);
        free(c.as.sup);
        break;
    case DSL_EXCEPTION:
        dsl_gc_untrack(&c.as.exc->gc);
        str_free(c.as.exc->msg);
        free(c.as.exc);
        break;
    case DSL_DICT:
    case DSL_SET:
        dsl_gc_untrack(&c.as.d->gc);
        dsl_mem_give(dsl_dict_bytes(c.as.d));
        free(c.as.d->entries);
        free(c.as.d->index);
        free(c.as.d);
        break;
    default: break;
    }
}

/* Drops what container c holds, whose memory is freed next: lists and instances, most of
 * what dies (a call's argument tuple, a Scalar), in a loop of their own, without the call per
 * slot of for_each_slot or the slots set to none. */
static void drop_held_by(struct dsl_value c, struct dsl_value *dead)
{
    if (c.kind == DSL_LIST) {
        for (size_t i = 0; i < c.as.l->len; i++) drop_held(c.as.l->items[i], dead);
    } else if (c.kind == DSL_INSTANCE) {
        drop(c.as.inst->cls, dead);
        for (size_t i = 0; i < c.as.inst->attrs.len; i++)
            drop_held(c.as.inst->attrs.items[i].value, dead);
    } else {
        for_each_slot(c, drop_slot, dead);
    }
}

/* Frees the stack of dying containers that starts at dead, and what only they held. */
static void free_dead(struct dsl_value dead)
{
    while (dead.kind != DSL_NONE) {
        struct dsl_value c = dead;
        dead = *dead_link(c);
        drop_held_by(c, &dead);
        free_container(c);
    }
}

void dsl_value_release_held(struct dsl_value v)
{
    /* most releases free nothing: they return before the stack of dying containers is made */
    if (drop_alive(v)) return;
    struct dsl_value dead = dsl_none();
    drop(v, &dead);
    free_dead(dead);
}

void dsl_value_clear(struct dsl_value c)
{
    struct dsl_value dead = dsl_none();
    for_each_slot(c, drop_slot, &dead);
    if (c.kind == DSL_LIST) c.as.l->len = 0;
    if (c.kind == DSL_CELL) c.as.cell->bound = false;
    if (c.kind == DSL_DICT || c.kind == DSL_SET) { /* every entry is dead now: empty */
        c.as.d->len = c.as.d->n = 0;
        if (c.as.d->index) memset(c.as.d->index, 0, c.as.d->icap * sizeof *c.as.d->index);
    }
    free_dead(dead);
}

/* ---- attributes ------------------------------------------------------------------------- */

/* Up to this many names a scan; past it the index. */
#define ATTRS_SCAN 8

size_t dsl_name_hash(const char *name)
{
    uint64_t x = 1469598103934665603ULL; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        x = (x ^ *p) * 1099511628211ULL;
    return (size_t)(x ^ (x >> 29));
}

/* ---- interned names --------------------------------------------------------------------- */

struct iname {
    size_t refs;
    size_t hash;
    char text[];
};

/* Open addressing by hash, at most half full counting the slots of removed names (GONE). */
static struct iname **names;
static size_t names_cap, names_used, names_gone;
static struct iname names_gone_mark;
#define GONE (&names_gone_mark)

static struct iname *iname_of(const char *text)
{
    return (struct iname *)(void *)(text - offsetof(struct iname, text));
}

/* Rebuilds the table with room for twice the names there are, without GONE slots: false when
 * out of memory (the table unchanged). */
static bool names_rebuild(void)
{
    size_t cap = 64;
    while (cap < 4 * (names_used + 1)) cap *= 2;
    struct iname **t = calloc(cap, sizeof *t);
    if (!t) return false;
    for (size_t i = 0; i < names_cap; i++) {
        struct iname *e = names[i];
        if (!e || e == GONE) continue;
        size_t k = e->hash & (cap - 1);
        while (t[k]) k = (k + 1) & (cap - 1);
        t[k] = e;
    }
    free(names);
    names = t;
    names_cap = cap;
    names_gone = 0;
    return true;
}

const char *dsl_name_intern(const char *name, size_t hash)
{
    size_t mask = names_cap - 1;
    for (size_t i = hash & mask; names_cap && names[i]; i = (i + 1) & mask) {
        struct iname *e = names[i];
        if (e != GONE && e->hash == hash && (e->text == name || strcmp(e->text, name) == 0)) {
            e->refs++;
            return e->text;
        }
    }
    if (2 * (names_used + names_gone + 1) > names_cap && !names_rebuild()) return NULL;
    size_t len = strlen(name);
    struct iname *e = malloc(sizeof *e + len + 1);
    if (!e) return NULL;
    e->refs = 1;
    e->hash = hash;
    memcpy(e->text, name, len + 1);
    mask = names_cap - 1;
    size_t i = hash & mask;
    while (names[i] && names[i] != GONE) i = (i + 1) & mask;
    if (names[i] == GONE) names_gone--;
    names[i] = e;
    names_used++;
    return e->text;
}

void dsl_name_release(const char *interned)
{
    if (!interned) return;
    struct iname *e = iname_of(interned);
    if (--e->refs) return;
    size_t mask = names_cap - 1, i = e->hash & mask;
    while (names[i] != e) i = (i + 1) & mask;
    names[i] = GONE;
    names_used--;
    names_gone++;
    free(e);
}

void dsl_name_const_init(struct dsl_name_const *c)
{
    c->hash = dsl_name_hash(c->text);
    const char *name = dsl_name_intern(c->text, c->hash);
    c->name = name ? name : c->text;
}

/* ---- attribute tables ------------------------------------------------------------------- */

static void index_put(struct dsl_attrs *a, size_t pos)
{
    size_t mask = a->icap - 1, i = a->items[pos].hash & mask;
    while (a->index[i]) i = (i + 1) & mask;
    a->index[i] = pos + 1;
}

/* (Re)builds the index for the names there are, at most a quarter full; without memory for it
 * the table is scanned, as a small one is. */
static void index_rebuild(struct dsl_attrs *a)
{
    free(a->index);
    a->index = NULL;
    a->icap = 0;
    if (a->len <= ATTRS_SCAN) return;
    size_t icap = 64;
    while (icap < 4 * a->len) icap *= 2;
    if (!(a->index = calloc(icap, sizeof *a->index))) return;
    a->icap = icap;
    for (size_t i = 0; i < a->len; i++) index_put(a, i);
}

/* The position of name, whose hash is h, or -1: names of another hash are passed over
 * without reading their text. */
size_t dsl_table_version(void)
{
    static size_t clock;
    return ++clock;
}

static ptrdiff_t attrs_pos(const struct dsl_attrs *a, const char *name, size_t h)
{
    if (!a->index) {
        for (size_t i = 0; i < a->len; i++)
            if (a->items[i].hash == h &&
                (a->items[i].name == name || strcmp(a->items[i].name, name) == 0))
                return (ptrdiff_t)i;
        return -1;
    }
    size_t mask = a->icap - 1;
    for (size_t i = h & mask; a->index[i]; i = (i + 1) & mask) {
        size_t pos = a->index[i] - 1;
        if (a->items[pos].hash == h &&
            (a->items[pos].name == name || strcmp(a->items[pos].name, name) == 0))
            return (ptrdiff_t)pos;
    }
    return -1;
}

struct dsl_value *dsl_attrs_find_slow(const struct dsl_attrs *a, const char *name, size_t hash)
{
    ptrdiff_t pos = attrs_pos(a, name, hash);
    return pos < 0 ? NULL : &a->items[pos].value;
}

struct dsl_value *dsl_attrs_find(const struct dsl_attrs *a, const char *name)
{
    return a->len ? dsl_attrs_find_hashed(a, name, dsl_name_hash(name)) : NULL;
}

int dsl_attrs_set(struct dsl_attrs *a, const char *name, struct dsl_value v)
{
    return dsl_attrs_set_hashed(a, name, dsl_name_hash(name), v);
}

/* Appends name (an interned copy whose reference the table takes) with v (whose reference
 * moves in, and is released when out of memory). */
static int attrs_append(struct dsl_attrs *a, const char *name, size_t h, struct dsl_value v)
{
    if (a->len == a->cap) {
        /* a first array with room for a few names (an instance has its room from the start) */
        size_t cap = a->cap ? a->cap * 2 : 6;
        struct dsl_attr *p =
            a->items_inline ? malloc(cap * sizeof *p) : realloc(a->items, cap * sizeof *p);
        if (!p) {
            dsl_value_release(v);
            return DSL_V_NOMEM;
        }
        if (a->items_inline) memcpy(p, a->items, a->len * sizeof *p);
        a->items = p;
        a->cap = cap;
        a->items_inline = false;
    }
    dsl_value_adopt(v);
    a->items[a->len++] = (struct dsl_attr){name, h, v};
    a->name_bits |= (uint64_t)1 << (h & 63);
    a->version = dsl_table_version();
    if (a->len > ATTRS_SCAN) {
        if (a->index && 4 * a->len <= a->icap)
            index_put(a, a->len - 1);
        else
            index_rebuild(a);
    }
    return DSL_V_OK;
}

int dsl_attrs_set_hashed(struct dsl_attrs *a, const char *name, size_t h, struct dsl_value v)
{
    ptrdiff_t pos = attrs_pos(a, name, h);
    if (pos >= 0) {
        struct dsl_value *slot = &a->items[pos].value, old = *slot;
        dsl_value_adopt(v);
        *slot = v;
        dsl_value_orphan(old);
        dsl_value_release(old);
        return DSL_V_OK;
    }
    const char *copy = dsl_name_intern(name, h);
    if (!copy) {
        dsl_value_release(v);
        return DSL_V_NOMEM;
    }
    int st = attrs_append(a, copy, h, v);
    if (st != DSL_V_OK) dsl_name_release(copy);
    return st;
}

int dsl_attrs_add_interned(struct dsl_attrs *a, const char *iname, size_t h, struct dsl_value v)
{
    int st = attrs_append(a, iname, h, v);
    if (st == DSL_V_OK) iname_of(iname)->refs++;
    return st;
}

bool dsl_attrs_remove(struct dsl_attrs *a, const char *name)
{
    ptrdiff_t pos = a->len ? attrs_pos(a, name, dsl_name_hash(name)) : -1;
    if (pos < 0) return false;
    size_t i = (size_t)pos;
    struct dsl_attr gone = a->items[i];
    memmove(&a->items[i], &a->items[i + 1], (a->len - i - 1) * sizeof *a->items);
    a->len--;
    a->version = dsl_table_version();
    a->name_bits = 0;
    for (size_t k = 0; k < a->len; k++) a->name_bits |= (uint64_t)1 << (a->items[k].hash & 63);
    if (a->index) index_rebuild(a); /* the positions after i moved */
    dsl_name_release(gone.name);
    dsl_value_orphan(gone.value);
    dsl_value_release(gone.value);
    return true;
}

/* ---- cycle check ------------------------------------------------------------------------- */

/* The containers a cycle check has still to look into, and the lists it marked. */
struct walk {
    struct dsl_value *todo;
    size_t ntodo, captodo;
    struct dsl_list **marked;
    size_t nmarked, capmarked;
    bool nomem;
};

static void walk_push(struct walk *w, struct dsl_value v)
{
    if (v.kind == DSL_LIST) {
        if (v.as.l->mark) return;
        if (w->nmarked == w->capmarked) {
            size_t cap = w->capmarked ? w->capmarked * 2 : 16;
            struct dsl_list **p = realloc(w->marked, cap * sizeof *p);
            if (!p) {
                w->nomem = true;
                return;
            }
            w->marked = p;
            w->capmarked = cap;
        }
        v.as.l->mark = true;
        w->marked[w->nmarked++] = v.as.l;
    } else if (v.kind != DSL_METHOD && v.kind != DSL_FUNCTION && v.kind != DSL_EXCEPTION) {
        return; /* holds no language values */
    }
    if (w->ntodo == w->captodo) {
        size_t cap = w->captodo ? w->captodo * 2 : 16;
        struct dsl_value *p = realloc(w->todo, cap * sizeof *p);
        if (!p) {
            w->nomem = true;
            return;
        }
        w->todo = p;
        w->captodo = cap;
    }
    w->todo[w->ntodo++] = v;
}

int dsl_list_check_walk(const struct dsl_list *l, struct dsl_value v)
{
    struct walk w = {0};
    int st = DSL_V_OK;
    walk_push(&w, v);
    while (w.ntodo && !w.nomem && st == DSL_V_OK) {
        struct dsl_value c = w.todo[--w.ntodo];
        if (c.kind == DSL_LIST) {
            for (size_t i = 0; i < c.as.l->len && st == DSL_V_OK; i++) {
                struct dsl_value item = c.as.l->items[i];
                if (item.kind == DSL_LIST && item.as.l == l) st = DSL_V_CYCLE;
                walk_push(&w, item);
            }
        } else if (c.kind == DSL_METHOD) {
            if (c.as.m->self.kind == DSL_LIST && c.as.m->self.as.l == l) st = DSL_V_CYCLE;
            walk_push(&w, c.as.m->self);
        } else if (c.kind == DSL_EXCEPTION) {
            walk_push(&w, c.as.exc->args); /* a tuple: the list case above looks into it */
        } else {
            const struct dsl_function *f = c.as.fn_user;
            for (size_t i = 0; f->defaults && i < f->def->nkw && st == DSL_V_OK; i++) {
                if (f->defaults[i].kind == DSL_LIST && f->defaults[i].as.l == l) st = DSL_V_CYCLE;
                walk_push(&w, f->defaults[i]);
            }
        }
    }
    if (st == DSL_V_OK && w.nomem) st = DSL_V_NOMEM;
    for (size_t i = 0; i < w.nmarked; i++) w.marked[i]->mark = false;
    free(w.marked);
    free(w.todo);
    return st;
}

int dsl_method_value(const struct dsl_builtin *fn, struct dsl_value self, struct dsl_value *out)
{
    struct dsl_method *m = calloc(1, sizeof *m);
    if (!m) return DSL_V_NOMEM;
    m->refs = 1;
    m->fn = fn;
    m->self = dsl_value_retain(self);
    dsl_value_adopt(self);
    dsl_gc_track(&m->gc, DSL_METHOD);
    out->kind = DSL_METHOD;
    out->as.m = m;
    return DSL_V_OK;
}

struct dsl_str *dsl_str_alloc(size_t n)
{
    if (n > DSL_MAX_STR_BYTES || !dsl_mem_take(str_bytes(n), "string")) return NULL;
    struct dsl_str *s = malloc(str_bytes(n));
    if (!s) {
        dsl_mem_give(str_bytes(n));
        return NULL;
    }
    s->refs = 1;
    s->len = n;
    s->data[n] = '\0';
    return s;
}

struct dsl_str *dsl_str_grow(struct dsl_str *s, size_t n)
{
    if (n > DSL_MAX_STR_BYTES || n < s->len || !dsl_mem_take(n - s->len, "string")) return NULL;
    struct dsl_str *p = realloc(s, str_bytes(n));
    if (!p) {
        dsl_mem_give(n - s->len);
        return NULL;
    }
    p->len = n;
    p->data[n] = '\0';
    return p;
}

int dsl_str_value(const char *s, size_t n, struct dsl_value *out)
{
    if (n > DSL_MAX_STR_BYTES) return DSL_V_TOOBIG;
    struct dsl_str *str = dsl_str_alloc(n);
    if (!str) return DSL_V_NOMEM;
    if (n) memcpy(str->data, s, n);
    out->kind = DSL_STR;
    out->as.s = str;
    return DSL_V_OK;
}

/* A new list's header, field by field: a memset of the struct is a `rep stos`, whose start
 * costs more than the stores (every Scalar operation makes lists). The assert keeps the
 * fields and this list of them the same. */
_Static_assert(sizeof(struct dsl_list) == 96, "a field added to dsl_list is set in list_init");
static inline void list_init(struct dsl_list *l)
{
    l->refs = 0;
    l->gc = (struct dsl_gc){0};
    l->parents = l->len = l->cap = 0;
    l->style = DSL_LIST_PLAIN;
    l->mark = false;
    l->dtype = 0;
    l->room = 0;
    l->items = NULL;
    l->dead = dsl_none();
}

struct dsl_list *dsl_list_new(size_t cap)
{
    /* room for a few items even in a list made empty: most get one to four (inputs = [] then
     * appends, a comprehension's result) */
    if (cap < LIST_MIN_ROOM) cap = LIST_MIN_ROOM;
    if (cap > SIZE_MAX / 2 / sizeof(struct dsl_value) || !dsl_mem_take(list_bytes(cap), "list"))
        return NULL;
    /* a small list (a tuple of arguments, a pair) keeps its items in its own block: one
     * allocation, and one free */
    size_t room = cap <= LIST_INLINE ? cap : 0;
    struct dsl_list *l = dsl_block_new(sizeof *l + room * sizeof *l->items);
    if (l) list_init(l);
    if (l && room) {
        l->room = (unsigned char)room;
        l->items = list_inline(l);
    } else if (l && cap) {
        l->items = malloc(cap * sizeof *l->items);
        if (!l->items) {
            dsl_block_free(l, sizeof *l);
            l = NULL;
        }
    }
    if (!l) {
        dsl_mem_give(list_bytes(cap));
        return NULL;
    }
    l->refs = 1;
    l->cap = cap;
    dsl_gc_track(&l->gc, DSL_LIST);
    return l;
}

int dsl_list_reserve(struct dsl_list *l, size_t n)
{
    if (n > DSL_MAX_LIST_LEN - l->len) return DSL_V_TOOBIG;
    if (l->len + n <= l->cap) return DSL_V_OK;
    size_t cap = l->cap ? l->cap : 4;
    while (cap < l->len + n) cap *= 2;
    size_t more = (cap - l->cap) * sizeof(struct dsl_value);
    if (!dsl_mem_take(more, "list")) return DSL_V_NOMEM;
    bool inline_items = l->items == list_inline(l);
    struct dsl_value *p =
        inline_items ? malloc(cap * sizeof *p) : realloc(l->items, cap * sizeof *p);
    if (p && inline_items) memcpy(p, l->items, l->len * sizeof *p);
    if (!p) {
        dsl_mem_give(more);
        return DSL_V_NOMEM;
    }
    l->items = p;
    l->cap = cap;
    return DSL_V_OK;
}

int dsl_list_push_grow(struct dsl_list *l, struct dsl_value v)
{
    int st = dsl_list_reserve(l, 1);
    if (st != DSL_V_OK) {
        dsl_value_release(v);
        return st;
    }
    dsl_value_adopt(v);
    l->items[l->len++] = v;
    return DSL_V_OK;
}

int dsl_range_value(struct dsl_range r, struct dsl_value *out)
{
    if (!dsl_mem_take(sizeof *out->as.rng, "range")) return DSL_V_NOMEM;
    struct dsl_range_obj *o = malloc(sizeof *o);
    if (!o) {
        dsl_mem_give(sizeof *o);
        return DSL_V_NOMEM;
    }
    *o = (struct dsl_range_obj){.refs = 1, .r = r};
    *out = (struct dsl_value){.kind = DSL_RANGE, .as.rng = o};
    return DSL_V_OK;
}

int64_t dsl_range_len(struct dsl_range r)
{
    /* computed in unsigned arithmetic: stop - start may overflow int64 */
    uint64_t n = 0;
    if (r.step > 0 && r.start < r.stop) {
        uint64_t span = (uint64_t)r.stop - (uint64_t)r.start - 1;
        n = span / (uint64_t)r.step + 1;
    } else if (r.step < 0 && r.start > r.stop) {
        uint64_t span = (uint64_t)r.start - (uint64_t)r.stop - 1;
        uint64_t step = r.step == INT64_MIN ? (uint64_t)1 << 63 : (uint64_t)-r.step;
        n = span / step + 1;
    }
    return n > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)n; /* only the full int64 span */
}

bool dsl_value_truthy(struct dsl_value v)
{
    switch (v.kind) {
    case DSL_NONE: return false;
    case DSL_BOOL: return v.as.b;
    case DSL_INT: return v.as.i != 0;
    case DSL_FLOAT: return v.as.f != 0.0;
    case DSL_STR: return v.as.s->len != 0;
    case DSL_LIST: return v.as.l->len != 0;
    case DSL_DICT:
    case DSL_SET: return v.as.d->len != 0;
    case DSL_RANGE: return dsl_range_len(v.as.rng->r) != 0;
    case DSL_BUILTIN: return true;
    case DSL_TENSOR:
        if (v.as.t->size == 1) {
            int64_t zero[MT_MAX_DIMS] = {0};
            float x = 0.0f;
            mt_tensor_get(v.as.t->ctx, v.as.t, v.as.t->ndim, zero, &x);
            return x != 0.0f;
        }
        return v.as.t->size != 0;
    case DSL_METHOD:
    case DSL_FUNCTION:
    case DSL_OBJECT:
    case DSL_CELL:
    case DSL_CLASS:
    case DSL_INSTANCE:
    case DSL_SUPER: return true;
    case DSL_EXC_TYPE:
    case DSL_EXCEPTION: return true;
    case DSL_KIND_COUNT: break;
    }
    return false;
}

/* Python ==, `level` lists deep; *too_deep is set (and identity decides) past the limit. */
static bool equal_at(struct dsl_value a, struct dsl_value b, int level, bool *too_deep)
{
    if (dsl_is_number(a) && dsl_is_number(b)) {
        if (a.kind == DSL_FLOAT || b.kind == DSL_FLOAT) return dsl_as_double(a) == dsl_as_double(b);
        return dsl_as_int(a) == dsl_as_int(b);
    }
    if (a.kind != b.kind) return false;
    switch (a.kind) {
    case DSL_NONE: return true;
    case DSL_STR:
        return a.as.s->len == b.as.s->len && memcmp(a.as.s->data, b.as.s->data, a.as.s->len) == 0;
    case DSL_LIST:
        if (a.as.l == b.as.l) return true;
        if (a.as.l->len != b.as.l->len || dsl_is_tuple(a) != dsl_is_tuple(b)) return false;
        if (level >= DSL_MAX_LIST_DEPTH) {
            *too_deep = true;
            return false;
        }
        for (size_t i = 0; i < a.as.l->len; i++)
            if (!equal_at(a.as.l->items[i], b.as.l->items[i], level + 1, too_deep)) return false;
        return true;
    case DSL_RANGE: {
        int64_t n = dsl_range_len(a.as.rng->r);
        if (n != dsl_range_len(b.as.rng->r)) return false;
        if (n == 0) return true;
        if (a.as.rng->r.start != b.as.rng->r.start) return false;
        return n == 1 || a.as.rng->r.step == b.as.rng->r.step;
    }
    case DSL_DICT: {
        /* the same keys, each with an equal value, whatever the order */
        const struct dsl_dict *x = a.as.d, *y = b.as.d;
        if (x == y) return true;
        if (x->len != y->len) return false;
        if (level >= DSL_MAX_LIST_DEPTH) {
            *too_deep = true;
            return false;
        }
        for (size_t i = 0; i < x->n; i++) {
            if (!x->entries[i].live) continue;
            const struct dsl_dict_entry *e =
                dsl_dict_find(y, x->entries[i].key, x->entries[i].hash);
            if (!e || !equal_at(x->entries[i].value, e->value, level + 1, too_deep)) return false;
        }
        return true;
    }
    case DSL_SET: {
        /* the same elements, a set's or a frozenset's (whose hashing bounds their nesting) */
        const struct dsl_dict *x = a.as.d, *y = b.as.d;
        if (x == y) return true;
        if (x->len != y->len) return false;
        for (size_t i = 0; i < x->n; i++)
            if (x->entries[i].live && !dsl_dict_find(y, x->entries[i].key, x->entries[i].hash))
                return false;
        return true;
    }
    case DSL_BUILTIN: return a.as.fn == b.as.fn;
    case DSL_TENSOR: return a.as.t == b.as.t;
    case DSL_FUNCTION: return a.as.fn_user == b.as.fn_user;
    case DSL_OBJECT: /* an object owns its state, except a module's static table: one module */
        return a.as.obj == b.as.obj ||
               (a.as.obj->cls == b.as.obj->cls && a.as.obj->state == b.as.obj->state);
    case DSL_CELL: return a.as.cell == b.as.cell;
    case DSL_CLASS: return a.as.cls == b.as.cls;
    case DSL_INSTANCE: return a.as.inst == b.as.inst;
    case DSL_SUPER: return a.as.sup == b.as.sup;
    case DSL_EXC_TYPE: return a.as.exc_type == b.as.exc_type;
    case DSL_EXCEPTION: return a.as.exc == b.as.exc;
    case DSL_METHOD:
        /* bound to the same object: identity, as Python's `is` on self */
        if (a.as.m->fn != b.as.m->fn || a.as.m->self.kind != b.as.m->self.kind) return false;
        if (!a.as.m->fn && a.as.m->func.as.fn_user != b.as.m->func.as.fn_user) return false;
        if (a.as.m->self.kind == DSL_LIST) return a.as.m->self.as.l == b.as.m->self.as.l;
        return equal_at(a.as.m->self, b.as.m->self, level + 1, too_deep);
    default: return false;
    }
}

bool dsl_value_is(struct dsl_value a, struct dsl_value b)
{
    if (a.kind != b.kind) return false;
    switch (a.kind) {
    case DSL_NONE: return true;
    case DSL_BOOL: return a.as.b == b.as.b;
    case DSL_INT: return a.as.i == b.as.i;
    case DSL_FLOAT: return memcmp(&a.as.f, &b.as.f, sizeof a.as.f) == 0;
    case DSL_RANGE:
        return a.as.rng->r.start == b.as.rng->r.start && a.as.rng->r.stop == b.as.rng->r.stop &&
               a.as.rng->r.step == b.as.rng->r.step;
    case DSL_STR: return a.as.s == b.as.s;
    case DSL_LIST: return a.as.l == b.as.l;
    case DSL_DICT:
    case DSL_SET: return a.as.d == b.as.d;
    case DSL_BUILTIN: return a.as.fn == b.as.fn;
    case DSL_TENSOR: return a.as.t == b.as.t;
    case DSL_METHOD: /* an instance's __dict__ is one object however often it is asked for */
        if (a.as.m->wrap == DSL_WRAP_ATTRS && b.as.m->wrap == DSL_WRAP_ATTRS)
            return dsl_view_attrs(a.as.m) == dsl_view_attrs(b.as.m);
        return a.as.m == b.as.m;
    case DSL_FUNCTION: return a.as.fn_user == b.as.fn_user;
    case DSL_OBJECT: return a.as.obj == b.as.obj;
    case DSL_CELL: return a.as.cell == b.as.cell;
    case DSL_CLASS: return a.as.cls == b.as.cls;
    case DSL_INSTANCE: return a.as.inst == b.as.inst;
    case DSL_SUPER: return a.as.sup == b.as.sup;
    case DSL_EXC_TYPE: return a.as.exc_type == b.as.exc_type;
    case DSL_EXCEPTION: return a.as.exc == b.as.exc;
    case DSL_KIND_COUNT: break;
    }
    return false;
}

int dsl_value_equal_checked(struct dsl_value a, struct dsl_value b, bool *eq)
{
    bool too_deep = false;
    *eq = equal_at(a, b, 0, &too_deep);
    return too_deep ? DSL_V_DEPTH : DSL_V_OK;
}

bool dsl_value_equal(struct dsl_value a, struct dsl_value b)
{
    bool eq = false;
    dsl_value_equal_checked(a, b, &eq);
    return eq;
}

/* The status of a failed buffer. */
static int buf_status(const struct render_buf *b)
{
    return b->cancelled ? DSL_V_CANCELLED
           : b->over    ? DSL_V_TOOBIG
           : b->nomem   ? DSL_V_NOMEM
                        : DSL_V_OK;
}

static int value_text(struct render_buf *b, struct dsl_value v, bool repr, bool json, int level);

/* Python's BaseException text: repr `ValueError('msg')`; str the message a library error was
 * raised with, else nothing for no args, str(arg) for one (repr(key) for a KeyError, as
 * Python's), the args tuple for more. Its args count as one level of nesting. */
/* An exception's text from its class's name and its args (a tuple), as BaseException's __str__
 * and __repr__ make it: str is the one argument's (a KeyError's repr), or the tuple's repr. */
static int args_text(struct render_buf *b, const char *name, struct dsl_value argv, bool repr,
                     bool key, int level)
{
    const struct dsl_list *args = argv.as.l;
    if (level >= DSL_MAX_LIST_DEPTH) {
        render_buf_printf(b, "%s(...)", name);
        return buf_status(b) ? buf_status(b) : DSL_V_DEPTH;
    }
    if (!repr && args->len == 0) return buf_status(b);
    if (!repr && args->len == 1) return value_text(b, args->items[0], key, false, level + 1);
    if (!repr) return value_text(b, argv, true, false, level);
    render_buf_printf(b, "%s(", name);
    for (size_t i = 0; i < args->len; i++) {
        if (i) render_buf_puts(b, ", ");
        int st = value_text(b, args->items[i], true, false, level + 1);
        if (st != DSL_V_OK) return st;
    }
    render_buf_putc(b, ')');
    return buf_status(b);
}

static int exception_text(struct render_buf *b, const struct dsl_exception *e, bool repr, int level)
{
    if (!repr && e->msg) {
        render_buf_append(b, e->msg->data, e->msg->len);
        return buf_status(b);
    }
    return args_text(b, e->type->name, e->args, repr, strcmp(e->type->name, "KeyError") == 0,
                     level);
}

int dsl_args_text(struct render_buf *b, const char *name, struct dsl_value args, bool repr,
                  bool key)
{
    if (!dsl_is_tuple(args)) return value_text(b, args, repr, false, 0);
    return args_text(b, name, args, repr, key, 0);
}

/* A DSL_METHOD's text: a bound method as Python shows it, or a wrapper a class binds. */
static int method_text(struct render_buf *b, const struct dsl_method *m, bool json, int level)
{
    const char *fname = m->func.kind == DSL_FUNCTION  ? m->func.as.fn_user->def->name
                        : m->func.kind == DSL_BUILTIN ? m->func.as.fn->name
                                                      : "?";
    switch (m->wrap) {
    case DSL_WRAP_STATIC: render_buf_printf(b, "<staticmethod(%s)>", fname); break;
    case DSL_WRAP_CLASS: render_buf_printf(b, "<classmethod(%s)>", fname); break;
    case DSL_WRAP_PROPERTY: render_buf_printf(b, "<property object at %p>", (void *)m); break;
    case DSL_WRAP_ATTRS: { /* an object's __dict__, shown as the dict it stands for */
        const struct dsl_attrs *a = dsl_view_attrs(m);
        /* one that holds itself (self.d = self.__dict__) shows as {...} there, as a dict does */
        static const struct dsl_attrs *shown[DSL_MAX_LIST_DEPTH];
        static int nshown;
        for (int i = 0; i < nshown; i++)
            if (shown[i] == a) {
                render_buf_puts(b, "{...}");
                return buf_status(b);
            }
        if (nshown == DSL_MAX_LIST_DEPTH) return DSL_V_DEPTH;
        shown[nshown++] = a;
        render_buf_putc(b, '{');
        int st = DSL_V_OK;
        for (size_t i = 0; i < a->len && st == DSL_V_OK; i++) {
            if (i) render_buf_puts(b, ", ");
            render_str_repr(b, a->items[i].name, strlen(a->items[i].name));
            render_buf_puts(b, ": ");
            st = value_text(b, a->items[i].value, true, json, level + 1);
        }
        nshown--;
        if (st != DSL_V_OK) return st;
        render_buf_putc(b, '}');
        break;
    }
    default:
        if (m->fn) {
            render_buf_printf(b, "<bound method %s.%s>", dsl_type_name(m->self), m->fn->name);
            break;
        }
        /* a user function bound: Python's text, with what it is bound to */
        render_buf_printf(b, "<bound method %s of ",
                          m->func.as.fn_user->qualname ? m->func.as.fn_user->qualname : fname);
        int st = value_text(b, m->self, true, json, level + 1);
        if (st != DSL_V_OK) return st;
        render_buf_putc(b, '>');
    }
    return buf_status(b);
}

size_t dsl_int_text(int64_t v, char out[DSL_INT_TEXT])
{
    /* the magnitude as unsigned, so that INT64_MIN's has no overflow */
    uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    char rev[DSL_INT_TEXT];
    size_t n = 0;
    do {
        rev[n++] = (char)('0' + m % 10);
        m /= 10;
    } while (m);
    size_t len = 0;
    if (v < 0) out[len++] = '-';
    while (n) out[len++] = rev[--n];
    return len;
}

static int value_text_at(struct render_buf *b, struct dsl_value v, bool repr, bool json, int level);

/* How deep value texts are nested at once, across the __repr__ methods and builtin texts they
 * call (each of which starts a text of its own at level 0): past twice the lists' own limit,
 * DSL_V_DEPTH, so that a structure that holds itself through an instance ends in
 * RecursionError, not in the end of the C stack. */
static int texts;

/* json: inside a tensor.tolist() list, where non-finite floats take JSON's spellings; level:
 * lists around v. Returns a dsl_vstatus (DSL_V_DEPTH after writing [...] past the limit). */
static int value_text(struct render_buf *b, struct dsl_value v, bool repr, bool json, int level)
{
    if (texts >= 2 * DSL_MAX_LIST_DEPTH) return DSL_V_DEPTH;
    texts++;
    int st = value_text_at(b, v, repr, json, level);
    texts--;
    return st;
}

/* A dict's text, {k: v, ...}, or a set's, {1, 2} (frozenset({1, 2}); empty, set() and
 * frozenset()): the live entries in order. */
static int table_text(struct render_buf *b, struct dsl_value v, bool json, int level)
{
    const struct dsl_dict *d = v.as.d;
    bool set = v.kind == DSL_SET;
    const char *name = set && d->frozen ? "frozenset" : "set";
    if (set && d->len == 0) {
        render_buf_printf(b, "%s()", name);
        return buf_status(b);
    }
    if (level >= DSL_MAX_LIST_DEPTH) {
        if (set)
            render_buf_printf(b, "%s(...)", name);
        else
            render_buf_puts(b, "{...}");
        return buf_status(b) ? buf_status(b) : DSL_V_DEPTH;
    }
    if (set && d->frozen) render_buf_puts(b, "frozenset(");
    render_buf_putc(b, '{');
    bool first = true;
    for (size_t i = 0; i < d->n; i++) {
        if (!d->entries[i].live) continue;
        if (mt_cancel_requested()) return DSL_V_CANCELLED;
        if (!first) render_buf_puts(b, ", ");
        first = false;
        int st = value_text(b, d->entries[i].key, true, json, level + 1);
        if (st == DSL_V_OK && !set) {
            render_buf_puts(b, ": ");
            st = value_text(b, d->entries[i].value, true, json, level + 1);
        }
        if (st != DSL_V_OK) return st;
    }
    render_buf_putc(b, '}');
    if (set && d->frozen) render_buf_putc(b, ')');
    return buf_status(b);
}

static int value_text_at(struct render_buf *b, struct dsl_value v, bool repr, bool json, int level)
{
    switch (v.kind) {
    case DSL_NONE: render_buf_puts(b, "None"); break;
    case DSL_BOOL: render_buf_puts(b, v.as.b ? "True" : "False"); break;
    case DSL_INT: {
        char d[DSL_INT_TEXT];
        render_buf_append(b, d, dsl_int_text(v.as.i, d));
        break;
    }
    case DSL_FLOAT: {
        if (json && !isfinite(v.as.f)) {
            render_buf_puts(b, isnan(v.as.f) ? "NaN" : v.as.f > 0 ? "Infinity" : "-Infinity");
            break;
        }
        char f[40];
        size_t n = render_float_repr(v.as.f, f, sizeof f);
        render_buf_append(b, f, n);
        break;
    }
    case DSL_STR:
        if (repr)
            render_str_repr(b, v.as.s->data, v.as.s->len);
        else
            render_buf_append(b, v.as.s->data, v.as.s->len);
        break;
    case DSL_LIST: {
        if (dsl_is_ndarray(v)) {
            dsl_ndarray_text(b, v, repr);
            if (b->cancelled || mt_cancel_requested()) return DSL_V_CANCELLED;
            break;
        }
        bool tuple = v.as.l->style == DSL_LIST_TUPLE;
        json = json || v.as.l->style == DSL_LIST_JSON;
        if (level >= DSL_MAX_LIST_DEPTH) { /* callers that cannot raise still show something */
            render_buf_puts(b, tuple ? "(...)" : "[...]");
            return buf_status(b) ? buf_status(b) : DSL_V_DEPTH;
        }
        render_buf_putc(b, tuple ? '(' : '[');
        for (size_t i = 0; i < v.as.l->len; i++) {
            /* str() of 4 million floats is seconds of work: it must stop at an interrupt */
            if (mt_cancel_requested()) return DSL_V_CANCELLED;
            if (i) render_buf_puts(b, ", ");
            int st = value_text(b, v.as.l->items[i], true, json, level + 1);
            if (st != DSL_V_OK) return st;
        }
        if (tuple && v.as.l->len == 1) render_buf_putc(b, ',');
        render_buf_putc(b, tuple ? ')' : ']');
        break;
    }
    case DSL_DICT:
    case DSL_SET: {
        int st = table_text(b, v, json, level);
        if (st != DSL_V_OK) return st;
        break;
    }
    case DSL_RANGE:
        if (v.as.rng->r.step == 1)
            render_buf_printf(b, "range(%lld, %lld)", (long long)v.as.rng->r.start,
                              (long long)v.as.rng->r.stop);
        else
            render_buf_printf(b, "range(%lld, %lld, %lld)", (long long)v.as.rng->r.start,
                              (long long)v.as.rng->r.stop, (long long)v.as.rng->r.step);
        break;
    case DSL_BUILTIN: render_buf_printf(b, "<built-in function %s>", v.as.fn->name); break;
    case DSL_TENSOR: render_tensor_text(b, v.as.t); break;
    case DSL_METHOD: {
        int st = method_text(b, v.as.m, json, level);
        if (st != DSL_V_OK) return st;
        break;
    }
    case DSL_FUNCTION: dsl_function_signature(b, v.as.fn_user, "<function ", ">"); break;
    case DSL_OBJECT: {
        int st = v.as.obj->cls->repr(b, v.as.obj->state);
        if (st != DSL_V_OK) return st;
        break;
    }
    case DSL_CELL: render_buf_puts(b, "<cell>"); break;
    case DSL_CLASS: { /* a cell's class lives in the notebook's __main__, as Python says */
        const char *mod = dsl_class_module(v.as.cls);
        bool bare = strcmp(mod, "builtins") == 0; /* int, not builtins.int */
        render_buf_printf(b, "<class '%s%s%s'>", bare ? "" : mod, bare ? "" : ".", v.as.cls->name);
        break;
    }
    case DSL_INSTANCE:
    case DSL_SUPER: {
        int st = dsl_instance_text(b, v, repr);
        if (st != DSL_V_OK) return st;
        break;
    }
    case DSL_EXC_TYPE: render_buf_printf(b, "<class '%s'>", v.as.exc_type->name); break;
    case DSL_EXCEPTION: return exception_text(b, v.as.exc, repr, level);
    case DSL_KIND_COUNT: render_buf_puts(b, "?"); break;
    }
    return buf_status(b);
}

int dsl_function_signature(struct render_buf *b, const struct dsl_function *f, const char *before,
                           const char *after)
{
    const struct dsl_node *def = f->def;
    render_buf_printf(b, "%s%s(", before, def->name);
    bool kwonly = def->nkw - (def->dstar ? 1 : 0) > def->nargs + (def->star ? 1 : 0);
    for (size_t i = 0; i < def->nkw; i++) {
        const char *star = def->star && i == def->nargs      ? "*"
                           : def->dstar && i + 1 == def->nkw ? "**"
                                                             : "";
        if (i == def->nargs && !def->star && kwonly)
            render_buf_puts(b, i ? ", *, " : "*, ");
        else if (i)
            render_buf_puts(b, ", ");
        render_buf_printf(b, "%s%s", star, def->kwnames[i]);
        /* a default's value is not shown: it may be a big tensor or a long list */
        if (def->kwvals[i]) render_buf_puts(b, "=...");
        if (i + 1 == def->nposonly) render_buf_puts(b, ", /");
    }
    return render_buf_printf(b, ")%s", after);
}

int dsl_function_help(struct render_buf *b, const struct dsl_function *f)
{
    dsl_function_signature(b, f, "", "");
    const struct dsl_value doc = f->def->value;
    if (doc.kind == DSL_STR) {
        render_buf_puts(b, "\n\n");
        render_buf_append(b, doc.as.s->data, doc.as.s->len);
    }
    return render_buf_puts(b, strcmp(f->def->name, "<lambda>") == 0
                                  ? "\n\nA function made by lambda in this session."
                                  : "\n\nA function defined with def in this session.");
}

int dsl_value_repr(struct render_buf *b, struct dsl_value v)
{
    return value_text(b, v, true, false, 0);
}

int dsl_value_str(struct render_buf *b, struct dsl_value v)
{
    return value_text(b, v, false, false, 0);
}

int dsl_object_value(const struct dsl_object_class *cls, void *state, struct dsl_value *out)
{
    struct dsl_object *o = malloc(sizeof *o);
    if (!o) {
        cls->free(state);
        return DSL_V_NOMEM;
    }
    *o = (struct dsl_object){.refs = 1, .cls = cls, .state = state};
    *out = (struct dsl_value){.kind = DSL_OBJECT, .as.obj = o};
    return DSL_V_OK;
}

json_t *dsl_value_bundle(struct dsl_value v, const char *renderer, enum dsl_vstatus *status)
{
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_REPR_BYTES);
    int st = dsl_value_repr(&b, v);
    if (st == DSL_V_TOOBIG && b.over && !b.nomem) { /* a huge value: its beginning, and why */
        b.over = false;
        b.limit = 0;
        render_buf_printf(&b, "\n... (cut: a value's text is shown up to %zu MiB)",
                          DSL_MAX_REPR_BYTES >> 20);
        st = b.nomem ? DSL_V_NOMEM : DSL_V_OK;
    }
    if (st != DSL_V_OK) {
        *status = st;
        render_buf_free(&b);
        return NULL;
    }
    json_t *bundle = render_text_bundle(render_buf_str(&b));
    render_buf_free(&b);
    if (bundle && v.kind == DSL_TENSOR) { /* and a table with the layout facts, for the front end */
        render_buf_init(&b, DSL_MAX_STR_BYTES);
        int st_html = render_tensor_html(&b, v.as.t);
        /* a table too big to send (set_printoptions(profile="full") on a big tensor): the text
         * alone, which says where it was cut */
        bool too_big = st_html != 0 && b.over && !b.nomem && !b.cancelled;
        bool cancelled = b.cancelled;
        json_t *html = st_html == 0 ? json_string(render_buf_str(&b)) : NULL;
        render_buf_free(&b);
        if (too_big) {
            /* nothing to add */
        } else if (!html || json_object_set_new(bundle, "text/html", html) != 0) {
            json_decref(bundle);
            *status = cancelled ? DSL_V_CANCELLED : DSL_V_NOMEM;
            return NULL;
        }
    }
    if (bundle && v.kind == DSL_OBJECT && v.as.obj->cls->bundle) {
        /* the object's chart, with the text above as its text/plain */
        json_t *rich = v.as.obj->cls->bundle(v.as.obj->state, renderer);
        if (!rich || json_object_set(rich, "text/plain", json_object_get(bundle, "text/plain"))) {
            json_decref(rich);
            rich = NULL;
        }
        json_decref(bundle);
        bundle = rich;
    }
    if (!bundle) *status = DSL_V_NOMEM;
    return bundle;
}
