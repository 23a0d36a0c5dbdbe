/* values.h — runtime values of the MiniTorch language (internal to kernel/lang).
 *
 * A `struct dsl_value` is a tagged union of two words, passed by value in registers. Scalars
 * (none, bool, int, float, builtin function) live inside it; strings, lists, ranges, functions
 * and bound methods live on the heap with a reference count.
 *
 * Lists are mutable, as in Python (xs[i] = v, xs.append(v), xs += ys; see list.h), and shared
 * by reference: `ys = xs` names the same list. Counting references is enough only while there
 * are no cycles, so a store that would make a list reach itself (xs.append(xs), or through a
 * function's default or a bound method) is refused with a ValueError; to make that check cheap,
 * a list counts the container slots holding it (`parents`), and a list no container holds
 * cannot be reached from anything. Nesting depth is not bounded when building (mutating an inner
 * list deepens every list holding it, which it cannot know about), so nothing recurses down a
 * chain of lists: releasing is iterative, and the walks that must recurse (repr, ==, <) stop at
 * DSL_MAX_LIST_DEPTH with a RecursionError, as Python's do at its recursion limit.
 *
 * A user function (`def`) is a DSL_FUNCTION: its name, parameters, default values (computed when
 * the def ran, as in Python) and the parsed cell that holds its body.
 *
 * Tensors are mutable too (t[i] = v, requires_grad): a DSL_TENSOR holds one reference of the
 * engine's own count (mt_tensor_retain/release), so `y = x` shares the tensor as in Python. A
 * tensor holds no language values, so it takes no part in cycles. A method looked up on a
 * tensor or a list (`x.sum`, `xs.append`) is a DSL_METHOD: the table row plus the value it is
 * bound to, itself reference counted.
 *
 * Ownership: a dsl_value holding a heap object owns one reference. Copying the struct does
 * not add one: call dsl_value_retain for a second owner and dsl_value_release when done. */
#ifndef KERNEL_LANG_VALUES_H
#define KERNEL_LANG_VALUES_H

#include "render/render.h"

#include "minitorch/minitorch.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define DSL_MAX_STR_BYTES ((size_t)64 << 20) /* longest string a cell may build */
#define DSL_MAX_LIST_LEN ((size_t)1 << 22)   /* most items in one list (128 MiB of values) */
/* Most text/plain a displayed value (a cell's result, display()) gets: past it the text is cut
 * with a note, as the cell's printed output is (DSL_MAX_CELL_OUTPUT, interp.h). */
#define DSL_MAX_REPR_BYTES ((size_t)10 << 20)
#define DSL_MAX_LIST_DEPTH 1000 /* nesting that repr, == and < walk down */

enum dsl_kind {
    DSL_NONE,
    DSL_BOOL,
    DSL_INT,
    DSL_FLOAT,
    DSL_STR,
    DSL_LIST,
    DSL_RANGE,
    DSL_BUILTIN,
    DSL_TENSOR,    /* an engine tensor (float32) */
    DSL_METHOD,    /* a tensor method bound to its tensor: x.sum */
    DSL_FUNCTION,  /* a function defined with def */
    DSL_OBJECT,    /* an engine object (dataset, model, optimizer): struct dsl_object */
    DSL_CELL,      /* a variable shared by a function and the functions nested in it (never a
                    * value a program sees: frames and closures hold it) */
    DSL_CLASS,     /* a class: made by `class`, or a built-in type (int, list, ...) */
    DSL_INSTANCE,  /* an instance of a class made by `class` */
    DSL_SUPER,     /* what super() returns: attribute lookup past a class, bound to self */
    DSL_DICT,      /* a dict: struct dsl_dict (lang/dict.h) */
    DSL_SET,       /* a set or a frozenset: a struct dsl_dict holding keys only (lang/set.h) */
    DSL_EXC_TYPE,  /* a built-in exception class (ValueError): a static row, exceptions.h */
    DSL_EXCEPTION, /* an exception: struct dsl_exception, exceptions.h */
    DSL_KIND_COUNT
};

/* Status codes of value operations; eval maps them to Python exceptions. */
enum dsl_vstatus {
    DSL_V_OK = 0,
    DSL_V_NOMEM = -1,     /* MemoryError: out of memory */
    DSL_V_TOOBIG = -2,    /* MemoryError: over DSL_MAX_STR_BYTES or DSL_MAX_LIST_LEN */
    DSL_V_DEPTH = -3,     /* RecursionError: a walk down lists nested deeper than
                           * DSL_MAX_LIST_DEPTH */
    DSL_V_CYCLE = -4,     /* ValueError: the store would put a list inside itself */
    DSL_V_CANCELLED = -5, /* KeyboardInterrupt: the cancel flag was seen (a long repr) */
    DSL_V_RAISED = -6,    /* an error is pending on the running interp (a __repr__ failed) */
};

struct dsl_str {
    size_t refs;
    size_t len;  /* bytes, excluding the NUL */
    char data[]; /* UTF-8, NUL-terminated */
};

/* A list's style. A tuple, `(1, 2)` (a literal, a shape, what zip yields), is a list that is
 * never mutated (no item assignment, append...) and that, as in Python, never equals or orders
 * against a list; + and * of tuples make tuples. A list made by tensor.tolist() must be text
 * that json.loads reads, so its non-finite floats show as NaN/Infinity; otherwise it is a plain
 * list. Everything else (len, indexing, iteration, in) is the same for all three. */
enum dsl_list_style {
    DSL_LIST_PLAIN,   /* [1, 2] */
    DSL_LIST_TUPLE,   /* (1, 2), (1,), (): type() says "tuple" */
    DSL_LIST_JSON,    /* [1.0, NaN, Infinity] */
    DSL_LIST_NDARRAY, /* numpy's array: array([1., 2.]); see ndarray.h */
};

/* The element type of an ndarray-style list. Its items are always ints (an int dtype), floats
 * (a float dtype) or bools (bool), within the dtype's range, as every store casts (ndarray.h). */
enum dsl_dtype {
    DSL_DT_NONE, /* not an ndarray */
    DSL_DT_INT32,
    DSL_DT_INT64,
    DSL_DT_FLOAT32,
    DSL_DT_FLOAT64,
    DSL_DT_BOOL, /* items are bools */
};

struct dsl_range {
    int64_t start, stop, step; /* step != 0 */
};
/* A range value's object: boxed, so that a value is two words (passed and returned in
 * registers) rather than four. */
struct dsl_range_obj {
    size_t refs;
    struct dsl_range r;
};

struct dsl_builtin;    /* native.h */
struct dsl_method;     /* below */
struct dsl_function;   /* below */
struct dsl_prog_cache; /* lib/compile.c (freed through lang/library.h) */
struct dsl_jit_cache;  /* lib/jit (freed through lang/library.h) */
struct dsl_code;       /* ast.h */
struct dsl_node;       /* ast.h */
struct dsl_dict;       /* dict.h */

struct dsl_cell;
struct dsl_class;
struct dsl_instance;
struct dsl_super;
struct dsl_exc_type;  /* exceptions.h */
struct dsl_exception; /* exceptions.h */

struct dsl_value {
    enum dsl_kind kind;
    union {
        bool b;
        int64_t i;
        double f;
        struct dsl_str *s;
        struct dsl_list *l;
        struct dsl_range_obj *rng;
        const struct dsl_builtin *fn;
        struct mt_tensor *t; /* DSL_TENSOR: one engine reference */
        struct dsl_method *m;
        struct dsl_function *fn_user;        /* DSL_FUNCTION */
        struct dsl_object *obj;              /* DSL_OBJECT */
        struct dsl_cell *cell;               /* DSL_CELL */
        struct dsl_class *cls;               /* DSL_CLASS */
        struct dsl_instance *inst;           /* DSL_INSTANCE */
        struct dsl_super *sup;               /* DSL_SUPER */
        struct dsl_dict *d;                  /* DSL_DICT, DSL_SET */
        const struct dsl_exc_type *exc_type; /* DSL_EXC_TYPE: static */
        struct dsl_exception *exc;           /* DSL_EXCEPTION */
        size_t *refs; /* the heap kinds but tensors: each object starts with its count */
    } as;
};

/* Every container that can hold language values (lists, tuples, bound methods, functions,
 * cells, classes, instances) is on one list, so that the cycle collector (dsl_gc_collect) can
 * find reference cycles that counting alone never frees: `self.me = self`, a nested function
 * that calls itself, a class whose methods name it. */
struct dsl_gc {
    struct dsl_gc *prev, *next; /* NULL: not tracked (a built-in type, which lives forever) */
    size_t gc_refs;             /* during a collection: references from outside the list */
    unsigned char kind;         /* the container's enum dsl_kind */
    unsigned char state;        /* during a collection */
};

struct dsl_list {
    size_t refs;
    struct dsl_gc gc;
    size_t parents; /* container slots (list items, defaults, bound methods) holding it */
    size_t len, cap;
    enum dsl_list_style style; /* how repr shows it; a tuple is never mutated */
    bool mark;                 /* visited, during a cycle check */
    unsigned char dtype;       /* an ndarray's enum dsl_dtype */
    unsigned char room;        /* items its own block has room for (values.c), 0: none */
    struct dsl_value *items;   /* owned references */
    struct dsl_value dead;     /* while being freed: the next container to free */
};

/* What a DSL_METHOD is: a method bound to the value it was looked up on (a builtin row, a
 * tensor's or a list's method, or a user function, a method of a class bound to its instance),
 * or one of the wrappers a class body binds, which a lookup through the class or an instance
 * turns into something else: a staticmethod gives the function itself, a classmethod the
 * function bound to the class, a property calls its getter (fget) on the instance. An
 * instance's `__dict__` is a view of its attributes, bound to it. */
enum dsl_wrap {
    DSL_WRAP_BOUND,
    DSL_WRAP_STATIC,
    DSL_WRAP_CLASS,
    DSL_WRAP_PROPERTY,
    DSL_WRAP_ATTRS,
};
struct dsl_method {
    size_t refs;
    struct dsl_gc gc;
    const struct dsl_builtin *fn; /* the method's row (lib/tensor_methods.c, list.c), or NULL */
    struct dsl_value func;        /* when fn is NULL: the user function (owned); a property's
                                   * fget (none: unreadable) */
    struct dsl_value self;        /* owned reference (a list's parents count it); a property's
                                   * fset (none: read only); the instance or function of a
                                   * __dict__ view */
    struct dsl_value fdel;        /* a property's deleter (owned; none: del is refused), else
                                   * none */
    enum dsl_wrap wrap;
    struct dsl_value dead; /* while being freed: the next container to free */
};

/* Attributes: names and values in the order they were first set, as a Python __dict__ keeps
 * them (a Module's parameters come out in that order). Most instances have few, where a scan
 * beats hashing; a class of many methods or a package file's globals get an index. */
struct dsl_attr {
    const char *name;       /* interned (dsl_name_intern): one reference */
    size_t hash;            /* of name: a lookup compares it before the text */
    struct dsl_value value; /* owned reference */
};
struct dsl_attrs {
    struct dsl_attr *items;
    size_t len, cap;
    size_t *index; /* past a few names: icap open-addressing slots, an item's position + 1 (0:
                    * empty), by the name's hash; NULL below that or when out of memory */
    size_t icap;
    /* what dsl_table_version gave when a name last came or went (0: none ever did): a read
     * that found a name's slot, or found no slot, may keep the answer while it is the same */
    size_t version;
    /* items is room in the holder's own block (an instance's): never freed or reallocated;
     * a table that outgrows it moves to an array of its own */
    bool items_inline;
    /* bit (hash & 63) set for each of its names' dsl_name_hash: a name whose bit is clear is
     * not there, which most lookups of a method on an instance learn without a scan */
    uint64_t name_bits;
};
/* A new version for a table of names whose names just changed (not their values): one clock
 * for every table, so that no two changes anywhere share a version. */
size_t dsl_table_version(void);
/* A name's hash, as attribute tables and the session's modules keep it. */
size_t dsl_name_hash(const char *name);
/* Interned names: one copy of each name's text, which attribute tables and the parser's names
 * share, counting references. A lookup given the interned copy finds its entry by comparing
 * pointers, without reading the text (any other copy of the text still finds it); and an
 * instance's attribute costs no copy of its name. The table is the process's, used by one
 * thread at a time, as the cycle collector's list is.
 *
 * The interned copy of name (whose dsl_name_hash is hash), with one more reference; NULL when
 * out of memory. */
const char *dsl_name_intern(const char *name, size_t hash);
/* Drops a reference dsl_name_intern gave; the text is freed with the last. */
void dsl_name_release(const char *interned);
/* Whether two names are the same: the same copy, or the same text. Most names compared are
 * interned copies or dunders, which the first two letters do not tell apart: the third is
 * looked at before the whole text. */
static inline bool dsl_name_eq(const char *a, const char *b)
{
    return a == b || (a[0] == b[0] && (!a[0] || (a[1] == b[1] && (!a[1] || a[2] == b[2]))) &&
                      strcmp(a, b) == 0);
}
/* The slot of name, or NULL. */
struct dsl_value *dsl_attrs_find(const struct dsl_attrs *a, const char *name);
/* dsl_attrs_find for a name whose dsl_name_hash the caller has (a lookup along a class chain
 * hashes the name once). The common cases are inline, as every attribute read and method call
 * makes a few of these: no name of that hash, or the one there given as its interned copy;
 * dsl_attrs_find_slow does the rest (another copy of the text, two names of one hash). */
struct dsl_value *dsl_attrs_find_slow(const struct dsl_attrs *a, const char *name, size_t hash);
static inline struct dsl_value *dsl_attrs_find_hashed(const struct dsl_attrs *a, const char *name,
                                                      size_t hash)
{
    if (!(a->name_bits >> (hash & 63) & 1)) return NULL;
    if (!a->index) {
        for (size_t i = 0; i < a->len; i++)
            if (a->items[i].hash == hash)
                return a->items[i].name == name ? &a->items[i].value
                                                : dsl_attrs_find_slow(a, name, hash);
        return NULL;
    }
    size_t mask = a->icap - 1;
    for (size_t i = hash & mask; a->index[i]; i = (i + 1) & mask) {
        struct dsl_attr *item = &a->items[a->index[i] - 1];
        if (item->hash == hash)
            return item->name == name ? &item->value : dsl_attrs_find_slow(a, name, hash);
    }
    return NULL;
}
/* A name the kernel's C looks up often ("__all__"): hashed and interned when first used, kept
 * for the process's life (its text when out of memory). A static one per name:
 * `static struct dsl_name_const all = DSL_NAME_CONST("__all__");`. */
struct dsl_name_const {
    const char *text, *name;
    size_t hash;
};
#define DSL_NAME_CONST(text)                                                                       \
    {                                                                                              \
        (text), NULL, 0                                                                            \
    }
void dsl_name_const_init(struct dsl_name_const *c);
/* dsl_attrs_find of a name const. */
static inline struct dsl_value *dsl_attrs_find_const(const struct dsl_attrs *a,
                                                     struct dsl_name_const *c)
{
    if (!c->name) dsl_name_const_init(c);
    return dsl_attrs_find_hashed(a, c->name, c->hash);
}
/* Binds name to v (owned; released on failure): DSL_V_OK or DSL_V_NOMEM. */
int dsl_attrs_set(struct dsl_attrs *a, const char *name, struct dsl_value v);
/* dsl_attrs_set for a name whose dsl_name_hash the caller has. */
int dsl_attrs_set_hashed(struct dsl_attrs *a, const char *name, size_t hash, struct dsl_value v);
/* dsl_attrs_set of a name known to be absent from a, given as its interned copy
 * (dsl_name_intern's, as a parsed name's iname is): the new attribute's store that a search
 * just missed, with no second search. */
int dsl_attrs_add_interned(struct dsl_attrs *a, const char *iname, size_t hash, struct dsl_value v);
/* Removes name: true when it was there. */
bool dsl_attrs_remove(struct dsl_attrs *a, const char *name);

/* A function made by `def`. Parameters and body are the DEF node's (inside `code`); `locals`
 * are the names the body assigns (parameters first), which are local to a call, as in Python.
 *
 * Closures, as Python's: a local that a function nested in this one reads (`is_cell`) lives in
 * a cell, made when the call starts, so that both functions see every assignment to it; the
 * nested function holds the cells of the names it reads from enclosing functions (`freevars`,
 * `cells`), taken when its def runs. `nonlocal x` makes x one of those; `global x` keeps x out of
 * the locals, so that it stays a session variable although the body assigns it. What every call
 * reads comes first, in the first 64 bytes (dsl_make_function allocates it on a line's start):
 * some of it taken from the def and its code once, when the def ran, so that a call touches the
 * function's memory and not the tree's. */
struct dsl_function {
    size_t refs;
    struct dsl_code *code;      /* owned reference: the cell the def was in */
    const struct dsl_node *def; /* the DSL_N_DEF node inside code->ast */
    const struct dsl_node *ret; /* the body's one statement where it is `return expr`, and no
                                 * generator's; else NULL (run without the statement loop) */
    const char *src;            /* code->src and code->len */
    size_t src_len;
    unsigned nlocals;
    unsigned nargs;             /* def->nargs */
    unsigned short height;      /* def->height (at most DSL_MAX_AST_HEIGHT) */
    bool any_cell;              /* one of its locals lives in a cell (is_cell) */
    bool jit;                   /* given to numba's njit: calls run its compiled code */
    bool generator;             /* def->flag: its body yields */
    bool plain;                 /* no *args, keyword-only or **kwargs parameter, few locals,
                                 * none a cell, no generator (calls.c: plain_positional) */
    bool kernel_file;           /* code->kernel_file: a kernel's own file (call_refused) */
    bool cuda_kernel;           /* given to numba's cuda.jit: launched as f[blocks, threads](...),
                                 * on the GPU or in the kernel's simulator */
    unsigned char nrequired;    /* how many positional parameters come before the last ones
                                 * that all have defaults (at most 255; read for a plain
                                 * function only: calls.c, takes_plainly) */
    bool *is_cell;              /* nlocals flags: the local lives in a cell */
    bool jit_unchecked;         /* njit(boundscheck=False): its indices are not checked */
    bool jit_races;             /* njit(check_races=True): writes of two iterations of its
                                 * prange loop to one element are an error */
    bool class_body;            /* its def ran in a class body, which adopts it (owner, qualname) */
    struct dsl_value *defaults; /* def->nkw slots, owned (a list's parents count them); none
                                 * where a parameter has none */
    const char **locals;        /* names borrowed from the AST; params are the first nkw */
    struct dsl_gc gc;
    const char **freevars;   /* names borrowed from the AST */
    struct dsl_value *cells; /* nfree owned DSL_CELL values, one per free variable */
    size_t nfree;
    struct dsl_value owner; /* DSL_CLASS whose body defined it (zero-argument super()), or none */
    char *qualname;         /* "Class.method" for a method (what errors name it), or NULL */
    struct dsl_prog_cache *progs; /* owned: its compiled programs for map/zip/reduce
                                   * (lib/compile.c), or NULL */
    struct dsl_jit_cache *jits;   /* owned: that code, per argument types (lib/jit), or NULL */
    struct dsl_attrs attrs;       /* f.name = value: its own attributes, its __dict__ */
    struct dsl_value dead;        /* while being freed: the next container to free */
};

/* An engine object: C state behind a class of functions. Objects hold engine tensors and C
 * data, never language values, so they cannot be part of a reference cycle and are freed at
 * once when the last reference goes. */
struct dsl_interp;
struct dsl_object_class {
    const char *name;         /* what type() says: "dataset" */
    const char *doc;          /* help(obj), and the kind's paragraph */
    const char *const *attrs; /* attribute names, NULL-terminated (completion, help) */
    void (*free)(void *state);
    /* text/plain, one or a few lines: DSL_V_OK or a dsl_vstatus */
    int (*repr)(struct render_buf *b, const void *state);
    /* self.name into *out (a new reference): 0; -1 after raising (AttributeError and others) */
    int (*getattr)(struct dsl_interp *in, struct dsl_value self, const char *name,
                   struct dsl_value *out);
    /* The rich display (text/plain set by the caller) for the session's chart renderer; NULL
     * for none (text only) or when out of memory. May be NULL. */
    json_t *(*bundle)(const void *state, const char *renderer);
    /* obj(...): a builtin row run with args.self = the object (a model's forward); NULL: not
     * callable. */
    const struct dsl_builtin *call;
    /* obj[key] (a dict-like object: minitorch.datasets): 0 with a new value, or -1 after
     * raising (KeyError). NULL: not subscriptable. */
    int (*getitem)(struct dsl_interp *in, struct dsl_value self, struct dsl_value key,
                   struct dsl_value *out);
    /* For completion and Shift-Tab of a class whose attributes are not a fixed list (a
     * module): the i-th attribute name or NULL past the last (used when attrs is NULL); help
     * for attribute `name` appended to b (false: unknown); the class of the object attribute
     * `name` holds (a submodule), for completing `a.b.` (NULL: not an object). Each may be
     * NULL. */
    const char *(*attr_name)(const struct dsl_object_class *cls, size_t i);
    bool (*attr_help)(const struct dsl_object_class *cls, const char *name, struct render_buf *b);
    const struct dsl_object_class *(*attr_class)(const struct dsl_object_class *cls,
                                                 const char *name);
    /* A sequence-like object (a tensor's Storage): obj[key] = v (borrowed), obj[:] = v (every
     * item from v), and len(obj), which with getitem also makes it iterable. 0 or -1 after
     * raising. Each may be NULL. */
    int (*setitem)(struct dsl_interp *in, struct dsl_value self, struct dsl_value key,
                   struct dsl_value v);
    int (*setall)(struct dsl_interp *in, struct dsl_value self, struct dsl_value v);
    int (*len)(struct dsl_interp *in, struct dsl_value self, int64_t *n);
    /* As a class's base, no base at all: typing's Protocol and Generic[T], which only tell a
     * type checker about the class (`class MapProto(Protocol):`). */
    bool erased_base;
};
struct dsl_object {
    size_t refs;
    const struct dsl_object_class *cls;
    void *state; /* owned: cls->free releases it */
};

/* A variable shared between a call and the functions nested in it (see struct dsl_function). */
struct dsl_cell {
    size_t refs;
    struct dsl_gc gc;
    bool bound;             /* assigned yet */
    struct dsl_value value; /* owned; none while unbound */
    struct dsl_value dead;
};

/* A class. A `class` statement makes one (name, base, the attributes its body bound); the
 * built-in types (int, list, ...) are static ones whose instances are values of `type_kind`,
 * called through their constructor row `ctor`. A built-in class of the library (Module,
 * Parameter, SGD) adds `methods`: builtin rows run with args.self = the instance, found after
 * the attributes, so a subclass overrides them as in Python. */
struct dsl_class {
    size_t refs;
    struct dsl_gc gc;
    const char *name;                  /* owned (a copy) unless `builtin` */
    struct dsl_value base;             /* DSL_CLASS, or none: object */
    struct dsl_attrs attrs;            /* methods, class variables, __doc__ */
    const struct dsl_builtin *ctor;    /* built-in types: what calling the class runs */
    const struct dsl_builtin *methods; /* NULL-name-terminated rows, or NULL */
    const char *doc;                   /* built-in classes: help() text */
    enum dsl_kind type_kind;           /* the kind of its instances: DSL_INSTANCE for `class` */
    bool builtin;                      /* static: never freed, never collected */
    /* its instances have no __dict__ (object(), the iterators, whose attributes are the
     * kernel's own state): vars() and .__dict__ are Python's errors, as for CPython's */
    bool no_dict;
    /* its own attributes hold a property, a __setattr__ or __delattr__ hook: an instance's
     * attribute reads and stores look at the classes where one of its chain does (else the
     * instance's own attributes answer); a __getattr__ hook */
    bool has_property, has_setattr, has_getattr;
    /* bit (hash & 63) set for the dsl_name_hash of each of its own properties' names: a name
     * whose bit is clear in every class of a chain is no property there, which an instance's
     * attribute read or store asks without looking the name up in the classes */
    uint64_t property_bits;
    /* the built-in exception class it derives from (class MyError(ValueError)): set on the
     * class naming it as its base; its instances are exceptions (exceptions.h) */
    const struct dsl_exc_type *exc_base;
    /* a number no other class had or will have (dsl_table_version's when it was made): what a
     * call site's method cache (ast.h) knows it by, as its address may be a later class's */
    size_t serial;
    struct dsl_value dead;
};

/* An instance of a class made by `class` (or of a library class). Its first attributes live in
 * its own block (room): most instances get a few in __init__ (a Scalar five), and making one
 * then costs one allocation, not two. */
#define DSL_INSTANCE_ROOM 6
struct dsl_instance {
    size_t refs;
    struct dsl_gc gc;
    struct dsl_value cls;   /* DSL_CLASS, owned */
    struct dsl_attrs attrs; /* self.name = value */
    struct dsl_value dead;
    struct dsl_attr room[DSL_INSTANCE_ROOM];
};

/* The attributes an obj.__dict__ view (the method of a DSL_METHOD of wrap DSL_WRAP_ATTRS,
 * classes.h) stands for: its instance's or its function's. */
static inline struct dsl_attrs *dsl_view_attrs(const struct dsl_method *view)
{
    struct dsl_value self = view->self;
    return self.kind == DSL_FUNCTION ? &self.as.fn_user->attrs : &self.as.inst->attrs;
}

/* super(): attributes are looked up in the classes after `after` in self's class chain and bound
 * to self. */
struct dsl_super {
    size_t refs;
    struct dsl_gc gc;
    struct dsl_value after; /* DSL_CLASS, owned */
    struct dsl_value self;  /* owned */
    struct dsl_value dead;
};

/* ---- the cycle collector (gc.c) ---------------------------------------------------------- */

/* Puts a new container (refs == 1) on the collector's list; dsl_value_release takes it off. */
void dsl_gc_track(struct dsl_gc *g, enum dsl_kind kind);
void dsl_gc_untrack(struct dsl_gc *g);
/* Frees every container that only reference cycles keep alive. Any container may be held by C
 * code at the time (a reference the collector cannot see counts as one from outside), so it is
 * safe wherever a value could be released. Returns how many it freed. */
size_t dsl_gc_collect(void);
/* How many containers are alive now (on the collector's list). */
size_t dsl_gc_tracked(void);
/* Collects when enough containers were made since the last collection for it to pay: cheap
 * to call often (the evaluator calls it at loop iterations and after every cell). */
void dsl_gc_maybe_collect(void);
/* The reference count of a heap value, or NULL (scalars, tensors, built-in classes). */
size_t *dsl_value_refs(struct dsl_value v);
/* Drops every value container c holds, leaving it empty but valid (how the collector breaks
 * a cycle). */
void dsl_value_clear(struct dsl_value c);
/* Calls visit on every value container v holds (lists' items, a function's defaults and
 * cells, an instance's class and attributes...). */
void dsl_value_traverse(struct dsl_value v, void (*visit)(struct dsl_value held, void *arg),
                        void *arg);

/* A new object value owning state (freed with cls->free on failure too): 0 or DSL_V_NOMEM. */
int dsl_object_value(const struct dsl_object_class *cls, void *state, struct dsl_value *out);

static inline struct dsl_value dsl_none(void) { return (struct dsl_value){.kind = DSL_NONE}; }
static inline struct dsl_value dsl_bool(bool b)
{
    return (struct dsl_value){.kind = DSL_BOOL, .as.b = b};
}
static inline struct dsl_value dsl_int(int64_t i)
{
    return (struct dsl_value){.kind = DSL_INT, .as.i = i};
}
static inline struct dsl_value dsl_float(double f)
{
    return (struct dsl_value){.kind = DSL_FLOAT, .as.f = f};
}

/* Whether v is held by value, with no reference to count: None, a bool, a number, a builtin
 * function. */
static inline bool dsl_value_plain(struct dsl_value v)
{
    const unsigned plain =
        1u << DSL_NONE | 1u << DSL_BOOL | 1u << DSL_INT | 1u << DSL_FLOAT | 1u << DSL_BUILTIN;
    return (plain >> v.kind) & 1u;
}
/* Whether v's object starts with its reference count (as.refs): every heap kind but tensors
 * (counted by the engine) and classes (a built-in one is static, uncounted). */
static inline bool dsl_value_counted(struct dsl_value v)
{
    const unsigned counted = 1u << DSL_STR | 1u << DSL_LIST | 1u << DSL_METHOD |
                             1u << DSL_FUNCTION | 1u << DSL_OBJECT | 1u << DSL_CELL |
                             1u << DSL_INSTANCE | 1u << DSL_SUPER | 1u << DSL_DICT | 1u << DSL_SET |
                             1u << DSL_EXCEPTION | 1u << DSL_RANGE;
    return (counted >> v.kind) & 1u;
}
/* dsl_value_retain and dsl_value_release of a value that is not plain. */
void dsl_value_retain_held(struct dsl_value v);
void dsl_value_release_held(struct dsl_value v);
/* Adds one reference (heap kinds) and returns v. Inline, with the count of the common kinds
 * changed in place, as every name read, argument and store makes one. */
static inline struct dsl_value dsl_value_retain(struct dsl_value v)
{
    if (dsl_value_counted(v))
        ++*v.as.refs;
    else if (!dsl_value_plain(v))
        dsl_value_retain_held(v);
    return v;
}
/* Drops one reference; frees the object at zero, and what only it held, without recursion (a
 * chain of a million nested lists is fine). Scalars: no-op. Inline where the object stays. */
static inline void dsl_value_release(struct dsl_value v)
{
    if (dsl_value_counted(v) && *v.as.refs > 1)
        --*v.as.refs;
    else if (!dsl_value_plain(v))
        dsl_value_release_held(v);
}

/* A container slot starts or stops holding v: counts a list's parents (see above). Every store
 * into a list item, a default or a bound method's self calls adopt; taking it out, orphan. */
static inline void dsl_value_adopt(struct dsl_value v)
{
    if (v.kind == DSL_LIST) v.as.l->parents++;
}
static inline void dsl_value_orphan(struct dsl_value v)
{
    if (v.kind == DSL_LIST) v.as.l->parents--;
}

/* dsl_list_check_store's walk of what v holds. */
int dsl_list_check_walk(const struct dsl_list *l, struct dsl_value v);
/* Whether storing v into list l would make l reach itself: DSL_V_OK, DSL_V_CYCLE, or
 * DSL_V_NOMEM (the check could not run). Cheap unless l is held by another container and v is
 * (or holds) a list, a function with defaults or a bound method: inline, as every append asks
 * it. */
static inline int dsl_list_check_store(const struct dsl_list *l, struct dsl_value v)
{
    if (v.kind == DSL_LIST && v.as.l == l) return DSL_V_CYCLE;
    /* nothing can reach a list that no container holds; strings, tensors... hold nothing */
    if (l->parents == 0 || (v.kind != DSL_LIST && v.kind != DSL_METHOD && v.kind != DSL_FUNCTION &&
                            v.kind != DSL_EXCEPTION))
        return DSL_V_OK;
    return dsl_list_check_walk(l, v);
}

static inline bool dsl_is_tuple(struct dsl_value v)
{
    return v.kind == DSL_LIST && v.as.l->style == DSL_LIST_TUPLE;
}

/* Whether v is a numpy array (an ndarray-style list, ndarray.h). */
static inline bool dsl_is_ndarray(struct dsl_value v)
{
    return v.kind == DSL_LIST && v.as.l->style == DSL_LIST_NDARRAY;
}

/* Blocks of the sizes the commonest containers take (an instance, a small list), kept when
 * freed for the next one made, as every Scalar operation makes and frees several: a new block
 * of `size` bytes, not zeroed (the caller sets its header: items past a container's length
 * are never read), NULL when out of memory; and giving one back. Builds with AddressSanitizer
 * keep none, so that it sees every use after free. */
void *dsl_block_new(size_t size);
void dsl_block_free(void *block, size_t size);

/* ---- the memory values hold (values.c) ----------------------------------------------------
 *
 * Strings, lists (tuples too) and dicts count the bytes they allocate in one account, against
 * one limit, as the engine counts tensor storage against its context's: an allocation that
 * would pass it fails as when memory is exhausted (NULL, DSL_V_NOMEM), and the MemoryError
 * dsl_raise_status raises then names the limit and how to change it (the refusal is kept for
 * it, as errno keeps a failure's cause). Without a limit a loop that builds strings or lists
 * takes the machine's memory until the system kills the kernel, per-value limits
 * (DSL_MAX_STR_BYTES, DSL_MAX_LIST_LEN) notwithstanding: many values each within them add up.
 *
 * The account is the process's, like the cycle collector's list (a kernel runs one session).
 * The limit is half the session's tensor memory limit (itself half of physical memory: a
 * quarter of it) unless %memory sets another; none until a session sets it. An allocation of
 * at most DSL_MEM_SMALL bytes may go up to DSL_MEM_RESERVE past the limit, so that after
 * reaching it a session can still make small values (a number's str(), a short list) while no
 * number of small values gets further. */
#define DSL_MEM_SMALL ((size_t)4096)
#define DSL_MEM_RESERVE ((size_t)1 << 20)

/* Counts `bytes` more for a `what` ("string", "list", "dict": static) about to be allocated:
 * true, or false (nothing counted, the refusal kept) when that would pass the limit. */
bool dsl_mem_take(size_t bytes, const char *what);
/* Counts `bytes` less: memory taken before has been freed. */
void dsl_mem_give(size_t bytes);
/* The bytes counted now, and the limit (SIZE_MAX: none). */
size_t dsl_mem_used(void);
size_t dsl_mem_limit(void);
/* Sets the limit; 0 goes back to the default. */
void dsl_mem_set_limit(size_t bytes);
/* Sets the default (half a session's tensor limit), which is the limit unless one was set. */
void dsl_mem_set_default(size_t bytes);
/* Whether the limit is the default one. */
bool dsl_mem_limit_is_default(void);
/* While on (calls nest), the limit refuses nothing, the bytes still counted: for what catching
 * an error makes (the exception, its args and message), so that a MemoryError raised at the
 * limit can be caught. */
void dsl_mem_exempt(bool on);
/* The last refusal not yet reported: true with its size and kind, which are forgotten then
 * (NULL pointers: only forget it). */
bool dsl_mem_refusal(size_t *bytes, const char **what);

/* A new string value copying s[0..n) (must be valid UTF-8) into *out. */
int dsl_str_value(const char *s, size_t n, struct dsl_value *out);
/* A new string object with room for n bytes, len = n, data uninitialised but NUL-terminated.
 * NULL when out of memory (or past the limit of values' memory) or n > DSL_MAX_STR_BYTES (check
 * n first to tell them apart). */
struct dsl_str *dsl_str_alloc(size_t n);
/* String s, which no one else holds, lengthened to n bytes (its old bytes kept, the rest
 * uninitialised, NUL-terminated), perhaps moved; NULL (s unchanged) when memory or the limit
 * refuses. */
struct dsl_str *dsl_str_grow(struct dsl_str *s, size_t n);

/* A new empty list (one reference) with room for cap items; NULL when out of memory. */
struct dsl_list *dsl_list_new(size_t cap);
/* Makes room for n more items: DSL_V_OK, DSL_V_TOOBIG or DSL_V_NOMEM. */
int dsl_list_reserve(struct dsl_list *l, size_t n);
/* dsl_list_push where l has no room left. */
int dsl_list_push_grow(struct dsl_list *l, struct dsl_value v);
/* Appends v to l, taking ownership of v (released on failure): DSL_V_OK, DSL_V_TOOBIG or
 * DSL_V_NOMEM. No cycle check: the caller knows v cannot reach l (a list being built) or ran
 * dsl_list_check_store. Inline where l has room, as most appends find. */
static inline int dsl_list_push(struct dsl_list *l, struct dsl_value v)
{
    if (l->len == l->cap) return dsl_list_push_grow(l, v);
    dsl_value_adopt(v);
    l->items[l->len++] = v;
    return DSL_V_OK;
}

/* Number of ints a range yields (0 when empty). */
int64_t dsl_range_len(struct dsl_range r);
/* *out = a new range value of r: DSL_V_OK or DSL_V_NOMEM. */
int dsl_range_value(struct dsl_range r, struct dsl_value *out);

/* A tensor value owning `t` (the caller's reference passes to it). */
static inline struct dsl_value dsl_tensor(struct mt_tensor *t)
{
    return (struct dsl_value){.kind = DSL_TENSOR, .as.t = t};
}

/* A method value bound to self (retained), or DSL_V_NOMEM. */
int dsl_method_value(const struct dsl_builtin *fn, struct dsl_value self, struct dsl_value *out);

/* "int", "float", "str", "bool", "none", "list", "range", "builtin_function", "tensor",
 * "method", "function". Static. */
const char *dsl_kind_name(enum dsl_kind k);
/* A paragraph describing the type, for help(value). Static. */
const char *dsl_kind_doc(enum dsl_kind k);
/* The type name type() reports: the kind's name, or "tuple" for a tuple-style list. */
const char *dsl_type_name(struct dsl_value v);
/* The paragraph help(v) shows for its type: the kind's, or an object's class doc. */
const char *dsl_type_doc(struct dsl_value v);

/* Python truth. A tensor is truthy when its one element is non-zero; for tensors of other sizes
 * (ambiguous) this answers size != 0, and the evaluator raises instead (dsl_tensor_truth). */
bool dsl_value_truthy(struct dsl_value v);
/* True for int and bool (bools take part in arithmetic as 0 and 1, as in Python). */
static inline bool dsl_is_intlike(struct dsl_value v)
{
    return v.kind == DSL_INT || v.kind == DSL_BOOL;
}
static inline bool dsl_is_number(struct dsl_value v)
{
    return dsl_is_intlike(v) || v.kind == DSL_FLOAT;
}
static inline int64_t dsl_as_int(struct dsl_value v)
{
    return v.kind == DSL_BOOL ? (int64_t)v.as.b : v.as.i;
}
static inline double dsl_as_double(struct dsl_value v)
{
    return v.kind == DSL_FLOAT ? v.as.f : (double)dsl_as_int(v);
}

/* Python ==: numbers by value (1 == 1.0 == true), strings by bytes, lists item by item (a
 * tuple never equals a list: `x.shape == (2, 3)` holds, `x.shape == [2, 3]` does not), tensors and
 * methods by identity, other kinds of different type are unequal. (`tensor == x` in a cell compares
 * elementwise; see lang/library.h.) The _checked form returns DSL_V_DEPTH for lists nested deeper
 * than DSL_MAX_LIST_DEPTH, where the plain form falls back to identity. */
int dsl_value_equal_checked(struct dsl_value a, struct dsl_value b, bool *eq);
bool dsl_value_equal(struct dsl_value a, struct dsl_value b);

/* Python `a is b`: the same object for heap values (strings, lists, dicts, tensors, functions,
 * methods, objects), the same value for None, bools, numbers and ranges (which the language
 * keeps by value: `x is None`, `flag is True` and small ints behave as in CPython), never across
 * kinds (1 is not True). */
bool dsl_value_is(struct dsl_value a, struct dsl_value b);

/* Appends the repr (what a result shows: strings quoted) or the str (what print shows) of v.
 * Returns DSL_V_OK; DSL_V_NOMEM or DSL_V_TOOBIG when the buffer failed (see its flags); or
 * DSL_V_DEPTH when lists nest deeper than DSL_MAX_LIST_DEPTH, shown as [...] from there. */
int dsl_value_repr(struct render_buf *b, struct dsl_value v);
int dsl_value_str(struct render_buf *b, struct dsl_value v);
/* The decimal digits of v, as str(v) and repr(v) give them, into out (not NUL-terminated):
 * their number. Without printf, as str(n) is called where every Scalar gets its name. */
#define DSL_INT_TEXT 20 /* "-9223372036854775808" */
size_t dsl_int_text(int64_t v, char out[DSL_INT_TEXT]);
/* The text of an exception of class `name` whose args are `args` (a tuple; anything else: its
 * own text), as BaseException's __str__ (repr false) and __repr__ make it; `key`: a KeyError's,
 * whose str is its one argument's repr. A dsl_vstatus. */
int dsl_args_text(struct render_buf *b, const char *name, struct dsl_value args, bool repr,
                  bool key);

/* Appends before + "NAME(a, b=...)" + after for a user function. 0 or -1 (buffer failed). */
int dsl_function_signature(struct render_buf *b, const struct dsl_function *f, const char *before,
                           const char *after);

/* Appends help(f): its signature and docstring. 0 or -1 (buffer failed). */
int dsl_function_help(struct render_buf *b, const struct dsl_function *f);

/* The mime bundle showing v (text/plain: its repr; an object adds its chart, drawn for
 * renderer, a %plot_renderer name) as a new reference, or NULL with *status
 * set to DSL_V_NOMEM or DSL_V_TOOBIG. */
json_t *dsl_value_bundle(struct dsl_value v, const char *renderer, enum dsl_vstatus *status);

#endif
