/* classes.c — classes, instances, super() and the built-in types as classes (see classes.h). */
#include "lang/classes.h"
#include "lang/ndarray.h"

#include "lang/datamodel.h"
#include "lang/dict.h"
#include "lang/eval.h"
#include "lang/exceptions.h"
#include "lang/library.h"
#include "lang/list.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the built-in types ----------------------------------------------------------------- */

enum {
    T_OBJECT,
    T_TYPE,
    T_NONE,
    T_BOOL,
    T_INT,
    T_FLOAT,
    T_STR,
    T_LIST,
    T_TUPLE,
    T_RANGE,
    T_BUILTIN,
    T_TENSOR,
    T_METHOD,
    T_FUNCTION,
    T_SUPER,
    T_STATICMETHOD,
    T_CLASSMETHOD,
    T_PROPERTY,
    T_DICT,
    T_SET,
    T_FROZENSET,
    T_NDARRAY,
    T_COUNT
};

/* name, and the builtin row that constructs it (NULL: calling the type is not offered) */
static const struct {
    const char *name, *ctor, *doc;
} type_rows[T_COUNT] = {
    [T_OBJECT] = {"object", NULL, "object: the class every class derives from."},
    [T_TYPE] = {"type", "type", NULL},
    [T_NONE] = {"NoneType", NULL, NULL},
    [T_BOOL] = {"bool", "bool", NULL},
    [T_INT] = {"int", "int", NULL},
    [T_FLOAT] = {"float", "float", NULL},
    [T_STR] = {"str", "str", NULL},
    [T_LIST] = {"list", "list", NULL},
    [T_TUPLE] = {"tuple", "tuple", NULL},
    [T_RANGE] = {"range", "range", NULL},
    [T_BUILTIN] = {"builtin_function_or_method", NULL, NULL},
    [T_TENSOR] = {"tensor", "tensor", "tensor: the type of tensors; make one with tensor(...)."},
    [T_METHOD] = {"method", NULL, NULL},
    [T_FUNCTION] = {"function", NULL, NULL},
    [T_SUPER] = {"super", "super", NULL},
    [T_STATICMETHOD] = {"staticmethod", "staticmethod", NULL},
    [T_CLASSMETHOD] = {"classmethod", "classmethod", NULL},
    [T_PROPERTY] = {"property", "property", NULL},
    [T_DICT] = {"dict", "dict", NULL},
    [T_SET] = {"set", "set", NULL},
    [T_FROZENSET] = {"frozenset", "frozenset", NULL},
    [T_NDARRAY] = {"ndarray", NULL, DSL_NDARRAY_DOC},
};

static struct dsl_class types[T_COUNT];
static bool types_ready;
static const struct dsl_builtin object_rows[]; /* below: object.__init__, __setattr__, ... */

static struct dsl_value class_value(struct dsl_class *c)
{
    return (struct dsl_value){.kind = DSL_CLASS, .as.cls = c};
}

/* Fills the static table on first use: the constructor rows live in the library's table. */
static void types_init(void)
{
    if (types_ready) return;
    for (int i = 0; i < T_COUNT; i++) {
        struct dsl_class *c = &types[i];
        c->refs = 1;
        c->name = type_rows[i].name;
        c->base = dsl_none();
        c->builtin = true;
        c->ctor = type_rows[i].ctor ? dsl_builtin_find(type_rows[i].ctor) : NULL;
        c->doc = type_rows[i].doc ? type_rows[i].doc : c->ctor ? c->ctor->doc : NULL;
        c->type_kind = DSL_KIND_COUNT;
        c->serial = dsl_table_version();
    }
    types[T_BOOL].base = class_value(&types[T_INT]); /* as in Python: True + 1 == 2 */
    types[T_OBJECT].methods = object_rows;
    types[T_OBJECT].no_dict = true;
    types_ready = true;
}

/* Library classes and the engine objects' classes (datasets, models): made once, kept. */
#define MAX_STATIC_CLASSES 128 /* about 55 exist: the library's, the modules', the iterators' */
static struct dsl_class statics[MAX_STATIC_CLASSES];
static const void *static_keys[MAX_STATIC_CLASSES];
static size_t nstatics;

static struct dsl_class *static_class(const void *key, const char *name, const char *doc)
{
    for (size_t i = 0; i < nstatics; i++)
        if (static_keys[i] == key) return &statics[i];
    if (nstatics == MAX_STATIC_CLASSES) return &types[T_OBJECT];
    struct dsl_class *c = &statics[nstatics];
    static_keys[nstatics++] = key;
    *c = (struct dsl_class){
        .refs = 1, .name = name, .doc = doc, .builtin = true, .serial = dsl_table_version()};
    c->base = dsl_none();
    c->type_kind = DSL_KIND_COUNT;
    return c;
}

struct dsl_class *dsl_library_class(const char *name, const char *doc, struct dsl_value base,
                                    const struct dsl_builtin *methods)
{
    types_init();
    struct dsl_class *c = static_class(methods, name, doc);
    c->base = base;
    c->methods = methods;
    c->type_kind = DSL_INSTANCE;
    return c;
}

struct dsl_value dsl_type_of(struct dsl_value v)
{
    types_init();
    int t = T_OBJECT;
    switch (v.kind) {
    case DSL_INSTANCE: return v.as.inst->cls;
    case DSL_EXCEPTION: return dsl_exc_type_value(v.as.exc->type);
    case DSL_EXC_TYPE: t = T_TYPE; break;
    case DSL_OBJECT:
        return class_value(static_class(v.as.obj->cls, v.as.obj->cls->name, v.as.obj->cls->doc));
    case DSL_NONE: t = T_NONE; break;
    case DSL_BOOL: t = T_BOOL; break;
    case DSL_INT: t = T_INT; break;
    case DSL_FLOAT: t = T_FLOAT; break;
    case DSL_STR: t = T_STR; break;
    case DSL_LIST: t = dsl_is_tuple(v) ? T_TUPLE : dsl_is_ndarray(v) ? T_NDARRAY : T_LIST; break;
    case DSL_RANGE: t = T_RANGE; break;
    case DSL_BUILTIN: t = T_BUILTIN; break;
    case DSL_TENSOR: t = T_TENSOR; break;
    case DSL_METHOD: {
        static const int wrapped[] = {[DSL_WRAP_BOUND] = T_METHOD,
                                      [DSL_WRAP_STATIC] = T_STATICMETHOD,
                                      [DSL_WRAP_CLASS] = T_CLASSMETHOD,
                                      [DSL_WRAP_PROPERTY] = T_PROPERTY,
                                      [DSL_WRAP_ATTRS] = T_DICT};
        t = wrapped[v.as.m->wrap];
        break;
    }
    case DSL_FUNCTION: t = T_FUNCTION; break;
    case DSL_CLASS: t = T_TYPE; break;
    case DSL_SUPER: t = T_SUPER; break;
    case DSL_DICT: t = T_DICT; break;
    case DSL_SET: t = v.as.d->frozen ? T_FROZENSET : T_SET; break;
    default: break;
    }
    return class_value(&types[t]);
}

struct dsl_value dsl_builtin_type(const struct dsl_builtin *fn)
{
    types_init();
    for (int i = 0; i < T_COUNT; i++)
        if (types[i].ctor == fn && fn) return class_value(&types[i]);
    return dsl_none();
}

struct dsl_value dsl_builtin_class(const char *name)
{
    types_init();
    if (strcmp(name, "object") == 0) return class_value(&types[T_OBJECT]);
    if (strcmp(name, "numpy.ndarray") == 0) return class_value(&types[T_NDARRAY]);
    return dsl_none();
}

/* ---- classes ---------------------------------------------------------------------------- */

int dsl_class_new(struct dsl_interp *in, const char *name, struct dsl_value base,
                  struct dsl_value *out)
{
    types_init();
    if (base.kind != DSL_NONE && base.kind != DSL_CLASS && base.kind != DSL_EXC_TYPE)
        return dsl_raise(in, "TypeError", "a class derives from a class, not from a %s value",
                         dsl_type_name(base));
    if (base.kind == DSL_CLASS && base.as.cls->builtin && base.as.cls != &types[T_OBJECT] &&
        base.as.cls->type_kind != DSL_INSTANCE)
        return dsl_raise(in, "NotImplementedError",
                         "deriving from the built-in type '%s' is not supported in the MiniTorch "
                         "language (derive from object, a class of your own or a minitorch "
                         "class)",
                         base.as.cls->name);
    struct dsl_class *c = calloc(1, sizeof *c);
    char *copy = strdup(name);
    if (!c || !copy) {
        free(c);
        free(copy);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    c->refs = 1;
    c->serial = dsl_table_version();
    c->name = copy;
    c->base = base.kind == DSL_CLASS && base.as.cls != &types[T_OBJECT] ? dsl_value_retain(base)
                                                                        : dsl_none();
    if (base.kind == DSL_EXC_TYPE) c->exc_base = base.as.exc_type;
    c->type_kind = DSL_INSTANCE;
    dsl_gc_track(&c->gc, DSL_CLASS);
    *out = class_value(c);
    return 0;
}

/* The function a wrapper a class body binds holds (a staticmethod's, a classmethod's, a
 * property's getter), else v itself. */
static struct dsl_value unwrapped(struct dsl_value v)
{
    if (v.kind == DSL_METHOD && v.as.m->wrap != DSL_WRAP_BOUND && v.as.m->wrap != DSL_WRAP_ATTRS)
        return v.as.m->func;
    return v;
}

/* Function v, found in class cls's attributes after its body ran: cls's method when its def ran
 * there (a function defined elsewhere and assigned, `h = staticmethod(f)`, keeps its name). */
static void adopt(struct dsl_value cls, struct dsl_value v)
{
    if (v.kind != DSL_FUNCTION || v.as.fn_user->owner.kind != DSL_NONE || !v.as.fn_user->class_body)
        return;
    struct dsl_function *f = v.as.fn_user;
    f->owner = dsl_value_retain(cls);
    size_t n = strlen(cls.as.cls->name) + strlen(f->def->name) + 2;
    f->qualname = malloc(n);
    if (f->qualname) snprintf(f->qualname, n, "%s.%s", cls.as.cls->name, f->def->name);
}

int dsl_class_note_annotation(struct dsl_interp *in, struct dsl_attrs *ns, const char *name,
                              struct dsl_value text)
{
    struct dsl_value *slot = dsl_attrs_find(ns, "__annotations__");
    if (!slot || slot->kind != DSL_DICT) {
        struct dsl_dict *d = dsl_dict_new();
        if (!d) return dsl_raise_status(in, DSL_V_NOMEM);
        int st = dsl_attrs_set(ns, "__annotations__", dsl_dict_value(d));
        if (st != DSL_V_OK) return dsl_raise_status(in, st);
        slot = dsl_attrs_find(ns, "__annotations__");
    }
    struct dsl_value key;
    if (dsl_str_value(name, strlen(name), &key) != 0) return dsl_raise_status(in, DSL_V_NOMEM);
    int r = dsl_dict_store(in, slot->as.d, key, text);
    dsl_value_release(key);
    return r;
}

static void note_hooks(struct dsl_class *c);
static bool chain_has(const struct dsl_class *c, bool setattr);

void dsl_class_adopt_methods(struct dsl_value cls)
{
    note_hooks(cls.as.cls);
    struct dsl_attrs *a = &cls.as.cls->attrs;
    /* a class that defines __eq__ and not __hash__ has __hash__ None: unhashable, as Python */
    if (dsl_attrs_find(a, "__eq__") && !dsl_attrs_find(a, "__hash__"))
        dsl_attrs_set(a, "__hash__", dsl_none()); /* out of memory: left hashable by identity */
    for (size_t i = 0; i < a->len; i++) {
        struct dsl_value v = a->items[i].value;
        adopt(cls, unwrapped(v));
        if (v.kind == DSL_METHOD && v.as.m->wrap == DSL_WRAP_PROPERTY) {
            adopt(cls, v.as.m->self);
            adopt(cls, v.as.m->fdel);
        }
    }
}

/* The next class in a chain, or NULL after the last. */
static const struct dsl_class *base_of(const struct dsl_class *c)
{
    return c->base.kind == DSL_CLASS ? c->base.as.cls : NULL;
}

/* The slot of the attribute that the chain from c binds to name (with its depth), or NULL:
 * none, or a builtin row comes first (*row, which is NULL otherwise). */
static struct dsl_value *chain_slot(const struct dsl_class *c, const char *name, size_t hash,
                                    unsigned *depth, const struct dsl_builtin **row)
{
    for (unsigned d = 0; c; c = base_of(c), d++) {
        struct dsl_value *slot = dsl_attrs_find_hashed(&c->attrs, name, hash);
        if (slot) {
            *depth = d;
            return slot;
        }
        for (const struct dsl_builtin *m = c->methods; m && m->name; m++)
            if (dsl_name_eq(m->name, name)) {
                *row = m;
                return NULL;
            }
    }
    return NULL;
}

/* What the class chain from c binds name (whose dsl_name_hash is hash) to: an attribute
 * (*attr) or a builtin row (*row). */
static bool chain_find_hashed(const struct dsl_class *c, const char *name, size_t hash,
                              struct dsl_value *attr, const struct dsl_builtin **row)
{
    unsigned depth;
    *row = NULL;
    struct dsl_value *slot = chain_slot(c, name, hash, &depth, row);
    *attr = slot ? *slot : dsl_none();
    return slot || *row;
}

static bool chain_find(const struct dsl_class *c, const char *name, struct dsl_value *attr,
                       const struct dsl_builtin **row)
{
    return chain_find_hashed(c, name, dsl_name_hash(name), attr, row);
}

const struct dsl_exc_type *dsl_class_exc_base(const struct dsl_class *c)
{
    for (; c; c = base_of(c))
        if (c->exc_base) return c->exc_base;
    return NULL;
}

bool dsl_class_special(const struct dsl_class *c, const char *name, struct dsl_value *fn)
{
    return dsl_class_special_hashed(c, name, dsl_name_hash(name), fn);
}

bool dsl_class_special_hashed(const struct dsl_class *c, const char *name, size_t hash,
                              struct dsl_value *fn)
{
    struct dsl_value attr;
    const struct dsl_builtin *row;
    if (!chain_find_hashed(c, name, hash, &attr, &row)) return false;
    if (row) {
        *fn = (struct dsl_value){.kind = DSL_BUILTIN, .as.fn = row};
        return true;
    }
    if (attr.kind == DSL_METHOD && attr.as.m->wrap == DSL_WRAP_STATIC) attr = attr.as.m->func;
    if (attr.kind != DSL_FUNCTION && attr.kind != DSL_BUILTIN) return false;
    *fn = attr;
    return true;
}

bool dsl_isinstance(struct dsl_value v, const struct dsl_class *c)
{
    types_init();
    if (c == &types[T_OBJECT]) return true;
    for (const struct dsl_class *t = dsl_type_of(v).as.cls; t; t = base_of(t))
        if (t == c) return true;
    return false;
}

bool dsl_class_derives(const struct dsl_class *a, const struct dsl_class *b)
{
    if (b == &types[T_OBJECT]) return true;
    for (; a; a = base_of(a))
        if (a == b) return true;
    return false;
}

/* ---- attributes ------------------------------------------------------------------------- */

/* A bound method: fn (a user function or a builtin row as DSL_BUILTIN) bound to self. */
static int bind(struct dsl_interp *in, struct dsl_value fn, struct dsl_value self,
                struct dsl_value *out)
{
    int st;
    if (fn.kind == DSL_BUILTIN) {
        st = dsl_method_value(fn.as.fn, self, out);
    } else {
        st = dsl_method_value(NULL, self, out);
        if (st == DSL_V_OK) out->as.m->func = dsl_value_retain(fn);
    }
    return st != DSL_V_OK ? dsl_raise_status(in, st) : 0;
}

/* A property's getter run on self (property `name`): 0 with its value, or -1. */
static int property_get(struct dsl_interp *in, struct dsl_value prop, struct dsl_value self,
                        const char *name, struct dsl_value *out)
{
    if (prop.as.m->func.kind == DSL_NONE)
        return dsl_raise(in, "AttributeError", "property '%s' of '%s' object has no getter", name,
                         dsl_type_name(self));
    return dsl_call(in, prop.as.m->func, &self, 1, NULL, NULL, 0, out);
}

/* What class attribute `name` gives when read through an instance, a super object (bound to
 * self) or a class (self the class; as is). */
static int resolve(struct dsl_interp *in, struct dsl_value attr, const struct dsl_builtin *row,
                   struct dsl_value self, bool through_instance, const char *name,
                   struct dsl_value *out)
{
    if (row) {
        struct dsl_value fn = {.kind = DSL_BUILTIN, .as.fn = row};
        if (!through_instance) {
            *out = fn;
            return 0;
        }
        return bind(in, fn, self, out);
    }
    if (attr.kind == DSL_METHOD) {
        switch (attr.as.m->wrap) {
        case DSL_WRAP_STATIC: *out = dsl_value_retain(attr.as.m->func); return 0;
        case DSL_WRAP_CLASS: /* bound to the class, whichever way it was reached */
            return bind(in, attr.as.m->func, self.kind == DSL_CLASS ? self : dsl_type_of(self),
                        out);
        case DSL_WRAP_PROPERTY:
            if (through_instance && self.kind != DSL_CLASS)
                return property_get(in, attr, self, name, out);
            break;
        default: break;
        }
    }
    if (through_instance && attr.kind == DSL_FUNCTION) return bind(in, attr, self, out);
    *out = dsl_value_retain(attr);
    return 0;
}

/* The closest attribute name to `name` within edit distance 2 on obj and its classes, or
 * NULL (always, where the error will not be shown: in->quiet_attr). */
static const char *suggest_attr(const struct dsl_interp *in, const struct dsl_attrs *own,
                                const struct dsl_class *c, const char *name)
{
    if (in->quiet_attr) return NULL;
    const char *best = NULL;
    size_t best_d = 3;
    for (int pass = 0; pass < 2; pass++) {
        for (const struct dsl_class *k = pass ? c : NULL; pass == 0 || k; k = base_of(k)) {
            const struct dsl_attrs *a = pass ? &k->attrs : own;
            for (size_t i = 0; a && i < a->len; i++) {
                if (a->items[i].name[0] == '_' && name[0] != '_') continue; /* as CPython */
                size_t d = dsl_edit_distance(name, a->items[i].name);
                if (d < best_d && d < strlen(name)) best = a->items[i].name, best_d = d;
            }
            for (const struct dsl_builtin *m = pass ? k->methods : NULL; m && m->name; m++) {
                if (m->name[0] == '_' && name[0] != '_') continue;
                size_t d = dsl_edit_distance(name, m->name);
                if (d < best_d && d < strlen(name)) best = m->name, best_d = d;
            }
            if (!pass) break;
        }
    }
    return best;
}

/* AttributeError as Python words it: what is "'Linear' object" or "type object 'Linear'". */
static int no_attribute(struct dsl_interp *in, bool is_class, const char *type_name,
                        const char *name, const char *hint)
{
    char what[160];
    snprintf(what, sizeof what, is_class ? "type object '%.120s'" : "'%.120s' object", type_name);
    if (hint)
        return dsl_raise(in, "AttributeError", "%s has no attribute '%s'. Did you mean: '%s'?",
                         what, name, hint);
    return dsl_raise(in, "AttributeError", "%s has no attribute '%s'", what, name);
}

/* Attributes every class has. 1 when name is one, 0 when not, -1 after raising. */
const char *dsl_class_module(const struct dsl_class *c)
{
    if (c == &types[T_NDARRAY]) return "numpy";
    if (c->builtin) return "builtins";
    const struct dsl_value *m = dsl_attrs_find(&c->attrs, "__module__");
    return m && m->kind == DSL_STR ? m->as.s->data : "__main__";
}

static int class_special(struct dsl_interp *in, const struct dsl_class *c, const char *name,
                         struct dsl_value *out)
{
    if (strcmp(name, "__module__") == 0) { /* a cell's classes are the main module's */
        const char *m = dsl_class_module(c);
        return dsl_str_value(m, strlen(m), out) != 0 ? dsl_raise_status(in, DSL_V_NOMEM) : 1;
    }
    if (strcmp(name, "__name__") == 0)
        return dsl_str_value(c->name, strlen(c->name), out) != 0 ? dsl_raise_status(in, DSL_V_NOMEM)
                                                                 : 1;
    if (strcmp(name, "__doc__") == 0 && c->doc)
        return dsl_str_value(c->doc, strlen(c->doc), out) != 0 ? dsl_raise_status(in, DSL_V_NOMEM)
                                                               : 1;
    if (strcmp(name, "__dict__") == 0 && !c->builtin) { /* its attributes now, read only */
        struct dsl_dict *d = dsl_dict_new();
        if (!d) return dsl_raise_status(in, DSL_V_NOMEM);
        *out = dsl_dict_value(d);
        for (size_t i = 0; i < c->attrs.len; i++) {
            struct dsl_value k;
            int r = dsl_str_value(c->attrs.items[i].name, strlen(c->attrs.items[i].name), &k);
            if (r != 0) r = dsl_raise_status(in, DSL_V_NOMEM);
            if (r == 0) {
                r = dsl_dict_store(in, d, k, c->attrs.items[i].value);
                dsl_value_release(k);
            }
            if (r != 0) {
                dsl_value_release(*out);
                return -1;
            }
        }
        return 1;
    }
    if (strcmp(name, "__base__") == 0) {
        *out = c->base.kind == DSL_CLASS ? dsl_value_retain(c->base)
               : c == &types[T_OBJECT]   ? dsl_none()
                                         : class_value(&types[T_OBJECT]);
        return 1;
    }
    return 0;
}

static const struct dsl_builtin exception_rows[]; /* below: BaseException's __init__, ... */

/* What a chain ending at class c derives beyond its own classes: BaseException's methods where
 * it derives from an exception class, then object's. */
static bool past_chain(const struct dsl_class *c, const char *name, size_t hash,
                       struct dsl_value *attr, const struct dsl_builtin **row)
{
    for (const struct dsl_builtin *m = dsl_class_exc_base(c) ? exception_rows : NULL; m && m->name;
         m++)
        if (dsl_name_eq(m->name, name)) {
            *attr = dsl_none();
            *row = m;
            return true;
        }
    return chain_find_hashed(&types[T_OBJECT], name, hash, attr, row);
}

/* chain_find, then what every class of the chain derives (past_chain). */
static bool chain_or_object(const struct dsl_class *c, const char *name, size_t hash,
                            struct dsl_value *attr, const struct dsl_builtin **row)
{
    return chain_find_hashed(c, name, hash, attr, row) || past_chain(c, name, hash, attr, row);
}

/* obj.name for an instance, found the way object.__getattribute__ finds it: its own attributes
 * (but a property of its class first), its class chain, object's methods. 1 with *out, 0 when
 * none has it, -1 after raising. */
static int instance_lookup(struct dsl_interp *in, struct dsl_value obj, const char *name,
                           size_t hash, struct dsl_value *out)
{
    struct dsl_value attr;
    const struct dsl_builtin *row;
    const struct dsl_class *c = obj.as.inst->cls.as.cls;
    struct dsl_value *own = dsl_attrs_find_hashed(&obj.as.inst->attrs, name, hash);
    if (own && !(chain_find_hashed(c, name, hash, &attr, &row) && attr.kind == DSL_METHOD &&
                 attr.as.m->wrap == DSL_WRAP_PROPERTY)) {
        *out = dsl_value_retain(*own);
        return 1;
    }
    if (dsl_name_eq(name, "__class__")) {
        *out = dsl_value_retain(dsl_type_of(obj));
        return 1;
    }
    if (dsl_name_eq(name, "__dict__") && !c->no_dict)
        return dsl_attrs_view(in, obj, out) != 0 ? -1 : 1;
    if (chain_or_object(c, name, hash, &attr, &row))
        return resolve(in, attr, row, obj, true, name, out) != 0 ? -1 : 1;
    return 0;
}

int dsl_object_getattr(struct dsl_interp *in, struct dsl_value obj, const char *name,
                       struct dsl_value *out)
{
    return dsl_object_getattr_hashed(in, obj, name, dsl_name_hash(name), out);
}

int dsl_object_getattr_hashed(struct dsl_interp *in, struct dsl_value obj, const char *name,
                              size_t hash, struct dsl_value *out)
{
    types_init();
    struct dsl_value attr;
    const struct dsl_builtin *row;
    if (obj.kind == DSL_INSTANCE) { /* its own attributes first: the common read, self.w */
        struct dsl_value *own = dsl_attrs_find_hashed(&obj.as.inst->attrs, name, hash);
        if (own && !dsl_class_may_have_property(obj.as.inst->cls.as.cls, hash)) {
            *out = dsl_value_retain(*own);
            return 0;
        }
        int r = instance_lookup(in, obj, name, hash, out);
        if (r > 0) return 0; /* found: __getattr__ is for what nothing else has */
        const struct dsl_class *c = obj.as.inst->cls.as.cls;
        struct dsl_value hook;
        bool has_hook = dsl_class_special(c, "__getattr__", &hook);
        /* an AttributeError on the way (a property's getter) falls back to __getattr__ too */
        if (r < 0 && has_hook && in->ename && strcmp(in->ename, "AttributeError") == 0)
            dsl_interp_clear_error(in);
        else if (r < 0)
            return -1;
        if (has_hook) { /* what nothing else has */
            struct dsl_value key;
            if (dsl_str_value(name, strlen(name), &key) != 0)
                return dsl_raise_status(in, DSL_V_NOMEM);
            r = dsl_call_method(in, hook, obj, &key, 1, NULL, NULL, 0, out);
            dsl_value_release(key);
            return r;
        }
        return no_attribute(in, false, c->name, name,
                            suggest_attr(in, &obj.as.inst->attrs, c, name));
    }
    if (dsl_name_eq(name, "__class__")) {
        *out = dsl_value_retain(dsl_type_of(obj));
        return 0;
    }
    if (obj.kind == DSL_CLASS) {
        struct dsl_class *c = obj.as.cls;
        if (!c->builtin && dsl_name_eq(name, "__annotations__") &&
            !dsl_attrs_find(&c->attrs, name)) { /* 3.10's: made empty when first asked, the
                                                 * class's own (a base's are not inherited) */
            struct dsl_dict *d = dsl_dict_new();
            int st = d ? dsl_attrs_set(&c->attrs, name, dsl_dict_value(d)) : DSL_V_NOMEM;
            if (st != DSL_V_OK) return dsl_raise_status(in, st);
        }
        if (chain_or_object(c, name, hash, &attr, &row))
            return resolve(in, attr, row, obj, false, name, out);
        int sp = class_special(in, c, name, out);
        if (sp != 0) return sp < 0 ? -1 : 0;
        return no_attribute(in, true, c->name, name, suggest_attr(in, NULL, c, name));
    }
    if (obj.kind == DSL_SUPER) {
        const struct dsl_class *after = obj.as.sup->after.as.cls;
        if (chain_find_hashed(base_of(after), name, hash, &attr, &row) ||
            past_chain(after, name, hash, &attr, &row))
            return resolve(in, attr, row, obj.as.sup->self, true, name, out);
        return dsl_raise(in, "AttributeError", "'super' object has no attribute '%s'", name);
    }
    return dsl_raise(in, "AttributeError", "'%s' object has no attribute '%s'", dsl_type_name(obj),
                     name);
}

/* Whether the class's own attributes hold a property, a __setattr__ or __delattr__ hook: what a
 * store or a read of an instance's attribute must look for beyond the instance itself. */
static void note_hooks(struct dsl_class *c)
{
    c->has_property = c->has_setattr = c->has_getattr = false;
    c->property_bits = 0;
    for (size_t i = 0; i < c->attrs.len; i++) {
        struct dsl_value v = c->attrs.items[i].value;
        const char *name = c->attrs.items[i].name;
        if (v.kind == DSL_METHOD && v.as.m->wrap == DSL_WRAP_PROPERTY) {
            c->has_property = true;
            c->property_bits |= (uint64_t)1 << (c->attrs.items[i].hash & 63);
        }
        if (strcmp(name, "__setattr__") == 0 || strcmp(name, "__delattr__") == 0)
            c->has_setattr = true;
        if (strcmp(name, "__getattr__") == 0) c->has_getattr = true;
    }
}

/* Whether c or a class it derives from has a property (or, setattr: a __setattr__ or
 * __delattr__ hook), asked now: a base may gain one after its subclasses were made. */
static bool chain_has(const struct dsl_class *c, bool setattr)
{
    for (; c; c = base_of(c))
        if (setattr ? c->has_setattr : c->has_property) return true;
    return false;
}

/* object.__setattr__: obj.name = v on an instance without its class's hook: a property's
 * setter, else the instance's own attribute. */
static int instance_store(struct dsl_interp *in, struct dsl_value obj, const char *name,
                          size_t hash, struct dsl_value v)
{
    const struct dsl_class *c = obj.as.inst->cls.as.cls;
    struct dsl_value attr;
    const struct dsl_builtin *row;
    if (dsl_class_may_have_property(c, hash) && chain_find_hashed(c, name, hash, &attr, &row) &&
        attr.kind == DSL_METHOD && attr.as.m->wrap == DSL_WRAP_PROPERTY) {
        if (attr.as.m->self.kind == DSL_NONE)
            return dsl_raise(in, "AttributeError", "property '%s' of '%s' object has no setter",
                             name, c->name);
        struct dsl_value args[2] = {obj, v}, r;
        if (dsl_call(in, attr.as.m->self, args, 2, NULL, NULL, 0, &r) != 0) return -1;
        dsl_value_release(r);
        return 0;
    }
    if (dsl_class_exc_base(c) && strcmp(name, "args") == 0) { /* BaseException's setter */
        struct dsl_value args;
        if (dsl_exc_args_tuple(in, v, &args) != 0) return -1;
        int st = dsl_attrs_set(&obj.as.inst->attrs, name, args);
        return st != DSL_V_OK ? dsl_raise_status(in, st) : 0;
    }
    int st = dsl_attrs_set_hashed(&obj.as.inst->attrs, name, hash, dsl_value_retain(v));
    return st != DSL_V_OK ? dsl_raise_status(in, st) : 0;
}

/* Calls the hook `hook` (__setattr__, __delattr__) of obj's class with name and the rest: 1
 * when the class has one (0 or -1 to return then), 0 when not. */
static int call_hook(struct dsl_interp *in, struct dsl_value obj, const char *hook,
                     const char *name, const struct dsl_value *v, int *r)
{
    struct dsl_value fn;
    if (!chain_has(obj.as.inst->cls.as.cls, true) ||
        !dsl_class_special(obj.as.inst->cls.as.cls, hook, &fn))
        return 0;
    struct dsl_value args[2], out;
    if (dsl_str_value(name, strlen(name), &args[0]) != 0) {
        *r = dsl_raise_status(in, DSL_V_NOMEM);
        return 1;
    }
    if (v) args[1] = *v;
    *r = dsl_call_method(in, fn, obj, args, v ? 2 : 1, NULL, NULL, 0, &out);
    if (*r == 0) dsl_value_release(out);
    dsl_value_release(args[0]);
    return 1;
}

int dsl_object_setattr(struct dsl_interp *in, struct dsl_value obj, const char *name,
                       struct dsl_value v)
{
    return dsl_object_setattr_hashed(in, obj, name, dsl_name_hash(name), v);
}

int dsl_object_setattr_hashed(struct dsl_interp *in, struct dsl_value obj, const char *name,
                              size_t hash, struct dsl_value v)
{
    int r;
    if (obj.kind == DSL_INSTANCE && dsl_class_plain_store(obj.as.inst->cls.as.cls, hash)) {
        int st = dsl_attrs_set_hashed(&obj.as.inst->attrs, name, hash, dsl_value_retain(v));
        return st != DSL_V_OK ? dsl_raise_status(in, st) : 0;
    }
    if (obj.kind == DSL_INSTANCE)
        return call_hook(in, obj, "__setattr__", name, &v, &r)
                   ? r
                   : instance_store(in, obj, name, hash, v);
    if (obj.kind != DSL_CLASS || obj.as.cls->builtin) {
        if (obj.kind == DSL_CLASS)
            return dsl_raise(in, "TypeError", "cannot set '%s' attribute of immutable type '%s'",
                             name, obj.as.cls->name);
        return dsl_raise(in, "AttributeError", "'%s' object has no attribute '%s'",
                         dsl_type_name(obj), name);
    }
    int st = dsl_attrs_set_hashed(&obj.as.cls->attrs, name, hash, dsl_value_retain(v));
    if (st != DSL_V_OK) return dsl_raise_status(in, st);
    note_hooks(obj.as.cls);
    return 0;
}

/* object.__delattr__: del obj.name of an instance or a class, without the hook. */
static int plain_delattr(struct dsl_interp *in, struct dsl_value obj, const char *name)
{
    struct dsl_value attr;
    const struct dsl_builtin *row;
    if (obj.kind == DSL_INSTANCE && chain_has(obj.as.inst->cls.as.cls, false) &&
        chain_find(obj.as.inst->cls.as.cls, name, &attr, &row) && attr.kind == DSL_METHOD &&
        attr.as.m->wrap == DSL_WRAP_PROPERTY) { /* a property comes before the instance's own */
        if (attr.as.m->fdel.kind == DSL_NONE)
            return dsl_raise(in, "AttributeError", "property '%s' of '%s' object has no deleter",
                             name, dsl_type_name(obj));
        struct dsl_value prop = dsl_value_retain(attr), r; /* the deleter may delete it */
        int k = dsl_call(in, prop.as.m->fdel, &obj, 1, NULL, NULL, 0, &r);
        dsl_value_release(prop);
        if (k != 0) return -1;
        dsl_value_release(r);
        return 0;
    }
    struct dsl_attrs *a = obj.kind == DSL_INSTANCE                        ? &obj.as.inst->attrs
                          : obj.kind == DSL_CLASS && !obj.as.cls->builtin ? &obj.as.cls->attrs
                                                                          : NULL;
    if (a && dsl_attrs_remove(a, name)) {
        if (obj.kind == DSL_CLASS) note_hooks(obj.as.cls);
        return 0;
    }
    return dsl_raise(in, "AttributeError", "'%s' object has no attribute '%s'", dsl_type_name(obj),
                     name);
}

int dsl_object_delattr(struct dsl_interp *in, struct dsl_value obj, const char *name)
{
    int r;
    if (obj.kind == DSL_INSTANCE && call_hook(in, obj, "__delattr__", name, NULL, &r)) return r;
    return plain_delattr(in, obj, name);
}

bool dsl_instance_method(struct dsl_value inst, const char *name, struct dsl_value *fn)
{
    return dsl_instance_method_hashed(inst, name, dsl_name_hash(name), fn);
}

bool dsl_instance_method_hashed(struct dsl_value inst, const char *name, size_t hash,
                                struct dsl_value *fn)
{
    if (dsl_attrs_find_hashed(&inst.as.inst->attrs, name, hash)) return false;
    struct dsl_value attr;
    const struct dsl_builtin *row;
    if (!chain_find_hashed(inst.as.inst->cls.as.cls, name, hash, &attr, &row)) return false;
    if (row) {
        *fn = (struct dsl_value){.kind = DSL_BUILTIN, .as.fn = row};
        return true;
    }
    if (attr.kind != DSL_FUNCTION) return false;
    *fn = attr;
    return true;
}

bool dsl_class_method_hashed(struct dsl_value cls, const char *name, size_t hash,
                             struct dsl_value *fn)
{
    /* what dsl_object_getattr_hashed would find first; __annotations__ it may make first */
    struct dsl_value attr;
    const struct dsl_builtin *row;
    if (dsl_name_eq(name, "__annotations__") ||
        !chain_find_hashed(cls.as.cls, name, hash, &attr, &row) || row || attr.kind != DSL_METHOD ||
        attr.as.m->wrap != DSL_WRAP_CLASS || attr.as.m->func.kind != DSL_FUNCTION)
        return false;
    *fn = attr.as.m->func;
    return true;
}

/* ---- call sites' method caches ---------------------------------------------------------- */

/* The largest attribute-table version of c and the depth bases after it. */
static size_t chain_max(const struct dsl_class *c, unsigned depth)
{
    size_t max = c->attrs.version;
    for (unsigned d = 0; d < depth; d++) {
        c = base_of(c);
        if (c->attrs.version > max) max = c->attrs.version;
    }
    return max;
}

/* cached_slot's look along the chain, kept out of line: the hits stay short. A row found
 * first is not kept (rows are the library's classes', seldom called in a loop). */
static __attribute__((noinline)) struct dsl_value *
refill(const struct dsl_class *c, const struct dsl_node *attr, const struct dsl_builtin **row)
{
    unsigned depth = 0;
    struct dsl_value *slot = chain_slot(c, dsl_node_name(attr), dsl_node_hash(attr), &depth, row);
    struct dsl_node *cache = (struct dsl_node *)attr; /* the cache only: the meaning stays */
    cache->mc_serial = slot ? c->serial : 0;
    cache->mc_depth = depth;
    cache->mc_max = slot ? chain_max(c, depth) : 0;
    cache->mc_slot = slot;
    return slot;
}

/* The slot attr's cache holds for class c, found again if the cache is not c's or is stale:
 * the slot the chain from c binds attr's name to, or NULL (*row: a builtin row found first,
 * else NULL). */
static inline struct dsl_value *cached_slot(const struct dsl_class *c, const struct dsl_node *attr,
                                            const struct dsl_builtin **row)
{
    *row = NULL;
    if (attr->mc_serial && attr->mc_serial == c->serial &&
        (attr->mc_depth ? chain_max(c, attr->mc_depth) : c->attrs.version) == attr->mc_max)
        return attr->mc_slot;
    return refill(c, attr, row);
}

enum dsl_callee dsl_instance_callee_at(struct dsl_value inst, const struct dsl_node *attr,
                                       struct dsl_value *fn)
{
    const char *name = dsl_node_name(attr);
    size_t hash = dsl_node_hash(attr);
    const struct dsl_class *c = inst.as.inst->cls.as.cls;
    /* its own attribute: where this site found it last (a module's function, called in a
     * loop), else by the hash's bit, which most method calls' names miss at once */
    const struct dsl_attrs *a = &inst.as.inst->attrs;
    size_t p = attr->attr_pos;
    const struct dsl_value *own = p && p <= a->len && a->items[p - 1].name == name
                                      ? &a->items[p - 1].value
                                      : dsl_attrs_find_hashed(a, name, hash);
    if (own) {
        struct dsl_node *cache = (struct dsl_node *)attr; /* the cache only: the meaning stays */
        cache->attr_pos =
            (size_t)((const char *)own - (const char *)a->items) / sizeof *a->items + 1;
        if (dsl_class_may_have_property(c, hash)) return DSL_CALLEE_NONE;
        *fn = *own;
        return DSL_CALLEE_PLAIN;
    }
    const struct dsl_builtin *row;
    const struct dsl_value *slot = cached_slot(c, attr, &row);
    /* as dsl_instance_method_hashed answers: a plain function, or a row */
    if (slot && slot->kind == DSL_FUNCTION)
        *fn = *slot;
    else if (row)
        *fn = (struct dsl_value){.kind = DSL_BUILTIN, .as.fn = row};
    else
        return DSL_CALLEE_NONE;
    return DSL_CALLEE_METHOD;
}

int dsl_instance_attr_at(struct dsl_interp *in, struct dsl_value inst, const struct dsl_node *attr,
                         struct dsl_value *out)
{
    const char *name = dsl_node_name(attr);
    if (name[0] == '_' && name[1] == '_') return 0; /* __class__, __dict__: instance_lookup's */
    const struct dsl_class *c = inst.as.inst->cls.as.cls;
    const struct dsl_builtin *row;
    const struct dsl_value *slot = cached_slot(c, attr, &row);
    if (!slot) return 0;
    struct dsl_value found = *slot;
    bool property = found.kind == DSL_METHOD && found.as.m->wrap == DSL_WRAP_PROPERTY;
    if (property) { /* a getter's AttributeError is for the hook to answer */
        for (const struct dsl_class *k = c; k; k = base_of(k))
            if (k->has_getattr) return 0;
    } else if (dsl_attrs_find_hashed(&inst.as.inst->attrs, name, dsl_node_hash(attr))) {
        return 0;
    }
    return resolve(in, found, NULL, inst, true, name, out) != 0 ? -1 : 1;
}

enum dsl_callee dsl_class_callee_at(struct dsl_value cls, const struct dsl_node *attr,
                                    struct dsl_value *fn)
{
    const char *name = dsl_node_name(attr);
    if (dsl_name_eq(name, "__annotations__")) return DSL_CALLEE_NONE;
    const struct dsl_builtin *row;
    const struct dsl_value *slot = cached_slot(cls.as.cls, attr, &row);
    if (!slot || slot->kind != DSL_METHOD || slot->as.m->func.kind != DSL_FUNCTION)
        return DSL_CALLEE_NONE;
    *fn = slot->as.m->func;
    return slot->as.m->wrap == DSL_WRAP_CLASS    ? DSL_CALLEE_METHOD
           : slot->as.m->wrap == DSL_WRAP_STATIC ? DSL_CALLEE_PLAIN
                                                 : DSL_CALLEE_NONE;
}

/* ---- calls ------------------------------------------------------------------------------ */

/* self.args = the tuple of pos, as an exception keeps its arguments. 0 or -1. */
static int set_exc_args(struct dsl_interp *in, struct dsl_value self, const struct dsl_value *pos,
                        size_t npos)
{
    struct dsl_list *l = dsl_list_new(npos);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    l->style = DSL_LIST_TUPLE;
    for (size_t i = 0; i < npos; i++) {
        dsl_value_adopt(pos[i]);
        l->items[l->len++] = dsl_value_retain(pos[i]);
    }
    struct dsl_value t = {.kind = DSL_LIST, .as.l = l};
    int st = dsl_attrs_set(&self.as.inst->attrs, "args", t);
    return st != DSL_V_OK ? dsl_raise_status(in, st) : 0;
}

int dsl_instance_blank(struct dsl_interp *in, struct dsl_value cls, struct dsl_value *out)
{
    struct dsl_instance *o = dsl_block_new(sizeof *o);
    if (!o) return dsl_raise_status(in, DSL_V_NOMEM);
    /* field by field, the room (past attrs.len) left as it is: a memset of the struct is a
     * `rep stos`, whose start costs more than the stores (every Scalar made is an instance);
     * the assert keeps the fields and this list of them the same */
    _Static_assert(offsetof(struct dsl_instance, room) == 136,
                   "a field added to dsl_instance is set in dsl_instance_blank");
    o->refs = 1;
    o->gc = (struct dsl_gc){0};
    o->cls = dsl_value_retain(cls);
    o->attrs = (struct dsl_attrs){.items = o->room, .cap = DSL_INSTANCE_ROOM, .items_inline = true};
    o->dead = dsl_none();
    dsl_gc_track(&o->gc, DSL_INSTANCE);
    *out = (struct dsl_value){.kind = DSL_INSTANCE, .as.inst = o};
    return 0;
}

int dsl_class_call(struct dsl_interp *in, struct dsl_value cls, const struct dsl_value *pos,
                   size_t npos, char *const *kwnames, const struct dsl_value *kwvals, size_t nkw,
                   struct dsl_value *out)
{
    struct dsl_class *c = cls.as.cls;
    if (c->ctor) {
        struct dsl_value fn = {.kind = DSL_BUILTIN, .as.fn = c->ctor};
        return dsl_call(in, fn, pos, npos, kwnames, kwvals, nkw, out);
    }
    if (c->type_kind != DSL_INSTANCE && c != &types[T_OBJECT])
        return dsl_raise(in, "TypeError", "cannot create '%s' instances", c->name);
    struct dsl_value self, init;
    if (dsl_instance_blank(in, cls, &self) != 0) return -1;
    static struct dsl_name_const init_name = DSL_NAME_CONST("__init__");
    if (!init_name.name) dsl_name_const_init(&init_name);
    if (dsl_class_exc_base(c)) { /* BaseException.__new__ keeps the arguments, whatever
                                  * __init__ does with them */
        if (set_exc_args(in, self, pos, npos) != 0) {
            dsl_value_release(self);
            return -1;
        }
        if (!dsl_instance_method_hashed(self, init_name.name, init_name.hash, &init)) {
            if (nkw) {
                dsl_value_release(self);
                return dsl_raise(in, "TypeError", "%s() takes no keyword arguments", c->name);
            }
            *out = self;
            return 0;
        }
    } else if (!dsl_instance_method_hashed(self, init_name.name, init_name.hash, &init)) {
        if (npos || nkw) {
            dsl_value_release(self);
            return dsl_raise(in, "TypeError", "%s() takes no arguments", c->name);
        }
        *out = self;
        return 0;
    }
    struct dsl_value r;
    if (dsl_call_method(in, init, self, pos, npos, kwnames, kwvals, nkw, &r) != 0) {
        dsl_value_release(self);
        return -1;
    }
    if (r.kind != DSL_NONE) {
        dsl_raise(in, "TypeError", "__init__() should return None, not '%s'", dsl_type_name(r));
        dsl_value_release(r);
        dsl_value_release(self);
        return -1;
    }
    *out = self;
    return 0;
}

int dsl_instance_call(struct dsl_interp *in, struct dsl_value inst, const struct dsl_value *pos,
                      size_t npos, char *const *kwnames, const struct dsl_value *kwvals, size_t nkw,
                      struct dsl_value *out)
{
    struct dsl_value fn;
    if (!dsl_instance_method(inst, "__call__", &fn))
        return dsl_raise(in, "TypeError", "'%s' object is not callable", dsl_type_name(inst));
    return dsl_call_method(in, fn, inst, pos, npos, kwnames, kwvals, nkw, out);
}

/* ---- text ------------------------------------------------------------------------------- */

/* Whether instance v is a KeyError (its class derives from it), whose str is its key's repr. */
static bool key_error(struct dsl_value v)
{
    const struct dsl_exc_type *t = dsl_class_exc_base(v.as.inst->cls.as.cls);
    return t && dsl_exc_type_is(t, dsl_exc_type_find("KeyError"));
}

int dsl_instance_text(struct render_buf *b, struct dsl_value v, bool repr)
{
    if (v.kind == DSL_SUPER) {
        render_buf_printf(b, "<super: <class '%s'>, <%s object>>", v.as.sup->after.as.cls->name,
                          dsl_type_name(v.as.sup->self));
        return b->over ? DSL_V_TOOBIG : b->nomem ? DSL_V_NOMEM : DSL_V_OK;
    }
    struct dsl_value fn;
    struct dsl_interp *in = dsl_running;
    if (dsl_class_exc_base(v.as.inst->cls.as.cls) &&
        !(in && dsl_instance_method(v, repr ? "__repr__" : "__str__", &fn))) {
        /* BaseException's, which comes before object's __repr__ */
        struct dsl_value *args = dsl_attrs_find(&v.as.inst->attrs, "args");
        return dsl_args_text(b, dsl_type_name(v), args ? *args : dsl_none(), repr, key_error(v));
    }
    bool found = in && ((!repr && dsl_instance_method(v, "__str__", &fn)) ||
                        dsl_instance_method(v, "__repr__", &fn));
    if (!found) {
        render_buf_printf(b, "<%s.%s object at %p>", dsl_class_module(v.as.inst->cls.as.cls),
                          dsl_type_name(v), (void *)v.as.inst);
        return b->over ? DSL_V_TOOBIG : b->nomem ? DSL_V_NOMEM : DSL_V_OK;
    }
    struct dsl_value s;
    if (dsl_call_method(in, fn, v, NULL, 0, NULL, NULL, 0, &s) != 0) return DSL_V_RAISED;
    if (s.kind != DSL_STR) {
        dsl_raise(in, "TypeError", "%s returned non-string (type %s)",
                  repr ? "__repr__" : "__str__", dsl_type_name(s));
        dsl_value_release(s);
        return DSL_V_RAISED;
    }
    render_buf_append(b, s.as.s->data, s.as.s->len);
    dsl_value_release(s);
    return b->over ? DSL_V_TOOBIG : b->nomem ? DSL_V_NOMEM : DSL_V_OK;
}

/* ---- builtins --------------------------------------------------------------------------- */

static bool test_instance(struct dsl_value v, const struct dsl_class *c);

/* The classes `spec` names (a class, or a tuple of classes) into *one or the tuple; -1 after
 * raising TypeError for anything else. */
static int class_spec(struct dsl_interp *in, struct dsl_value spec, const char *fname,
                      struct dsl_value v, bool (*test)(struct dsl_value, const struct dsl_class *),
                      bool *result)
{
    *result = false;
    if (spec.kind == DSL_BUILTIN) spec = dsl_builtin_type(spec.as.fn);
    if (spec.kind == DSL_EXC_TYPE) { /* the built-in exception classes (exceptions.h) */
        const struct dsl_exc_type *t = v.kind == DSL_EXCEPTION  ? v.as.exc->type
                                       : v.kind == DSL_EXC_TYPE ? v.as.exc_type
                                       : v.kind == DSL_INSTANCE
                                           ? dsl_class_exc_base(v.as.inst->cls.as.cls)
                                       : v.kind == DSL_CLASS ? dsl_class_exc_base(v.as.cls)
                                                             : NULL;
        bool want_instance = test == test_instance;
        bool instance = v.kind == DSL_EXCEPTION || v.kind == DSL_INSTANCE;
        *result = t && instance == want_instance && dsl_exc_type_is(t, spec.as.exc_type);
        return 0;
    }
    if (spec.kind == DSL_CLASS) {
        *result = test(v, spec.as.cls);
        return 0;
    }
    if (dsl_is_tuple(spec)) {
        for (size_t i = 0; i < spec.as.l->len; i++) {
            bool r = false;
            if (class_spec(in, spec.as.l->items[i], fname, v, test, &r) != 0) return -1;
            if (r) {
                *result = true;
                return 0;
            }
        }
        return 0;
    }
    return dsl_raise(in, "TypeError", "%s() arg 2 must be a type, a tuple of types, or a union",
                     fname);
}

static bool test_instance(struct dsl_value v, const struct dsl_class *c)
{
    return dsl_isinstance(v, c);
}

static bool test_subclass(struct dsl_value v, const struct dsl_class *c)
{
    return v.kind == DSL_CLASS ? dsl_class_derives(v.as.cls, c) : c == &types[T_OBJECT];
}

int dsl_bi_isinstance(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    bool r;
    if (class_spec(in, a->slot[1], "isinstance", a->slot[0], test_instance, &r) != 0) return -1;
    *ret = dsl_bool(r);
    return 0;
}

int dsl_bi_issubclass(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value c = a->slot[0];
    if (c.kind == DSL_BUILTIN) c = dsl_builtin_type(c.as.fn);
    if (c.kind != DSL_CLASS && c.kind != DSL_EXC_TYPE)
        return dsl_raise(in, "TypeError", "issubclass() arg 1 must be a class");
    bool r;
    if (class_spec(in, a->slot[1], "issubclass", c, test_subclass, &r) != 0) return -1;
    *ret = dsl_bool(r);
    return 0;
}

int dsl_bi_type(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)in;
    *ret = dsl_value_retain(dsl_type_of(a->slot[0]));
    return 0;
}

/* The value of the running call's first parameter, and the class that defined the function:
 * what super() with no arguments uses. */
static int frame_self(struct dsl_interp *in, struct dsl_value *self, struct dsl_value *owner)
{
    const struct dsl_frame *f = in->frame;
    if (!f || f->fn->def->nkw == 0 || !f->bound[0])
        return dsl_raise(in, "RuntimeError", "super(): no arguments");
    if (f->fn->owner.kind != DSL_CLASS)
        return dsl_raise(in, "RuntimeError", "super(): __class__ cell not found");
    struct dsl_value v = f->vals[0];
    if (f->fn->is_cell[0]) {
        if (!v.as.cell->bound) return dsl_raise(in, "RuntimeError", "super(): arg[0] deleted");
        v = v.as.cell->value;
    }
    *self = v;
    *owner = f->fn->owner;
    return 0;
}

int dsl_bi_super(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value self, after;
    if (a->has[0]) {
        after = a->slot[0];
        if (after.kind != DSL_CLASS)
            return dsl_raise(in, "TypeError", "super() argument 1 must be a type, not %s",
                             dsl_type_name(after));
        if (!a->has[1])
            return dsl_raise(in, "TypeError", "super() needs an object: super(C, self)");
        self = a->slot[1];
        if (!dsl_isinstance(self, after.as.cls))
            return dsl_raise(in, "TypeError",
                             "super(type, obj): obj must be an instance or subtype of type");
    } else if (frame_self(in, &self, &after) != 0) {
        return -1;
    }
    struct dsl_super *s = calloc(1, sizeof *s);
    if (!s) return dsl_raise_status(in, DSL_V_NOMEM);
    s->refs = 1;
    s->after = dsl_value_retain(after);
    s->self = dsl_value_retain(self);
    dsl_value_adopt(self);
    dsl_gc_track(&s->gc, DSL_SUPER);
    *ret = (struct dsl_value){.kind = DSL_SUPER, .as.sup = s};
    return 0;
}

/* A wrapper (enum dsl_wrap) of func, and for a property of setter too (both borrowed). */
static int wrap(struct dsl_interp *in, enum dsl_wrap how, struct dsl_value func,
                struct dsl_value setter, struct dsl_value *ret)
{
    int st = dsl_method_value(NULL, setter, ret);
    if (st != DSL_V_OK) return dsl_raise_status(in, st);
    ret->as.m->func = dsl_value_retain(func);
    ret->as.m->wrap = how;
    return 0;
}

/* A property of fget, fset and fdel (each a function or none). */
static int property_of(struct dsl_interp *in, struct dsl_value fget, struct dsl_value fset,
                       struct dsl_value fdel, struct dsl_value *ret)
{
    if (wrap(in, DSL_WRAP_PROPERTY, fget, fset, ret) != 0) return -1;
    ret->as.m->fdel = dsl_value_retain(fdel);
    dsl_value_adopt(fdel);
    return 0;
}

int dsl_bi_staticmethod(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (a->slot[0].kind != DSL_FUNCTION)
        return dsl_raise(in, "TypeError",
                         "staticmethod() takes a function defined with def, not %s",
                         dsl_type_name(a->slot[0]));
    return wrap(in, DSL_WRAP_STATIC, a->slot[0], dsl_none(), ret);
}

int dsl_bi_classmethod(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (a->slot[0].kind != DSL_FUNCTION)
        return dsl_raise(in, "TypeError", "classmethod() takes a function defined with def, not %s",
                         dsl_type_name(a->slot[0]));
    return wrap(in, DSL_WRAP_CLASS, a->slot[0], dsl_none(), ret);
}

int dsl_bi_property(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value f[3];
    for (int i = 0; i < 3; i++) {
        f[i] = a->has[i] ? a->slot[i] : dsl_none();
        if (f[i].kind != DSL_NONE && f[i].kind != DSL_FUNCTION && f[i].kind != DSL_BUILTIN)
            return dsl_raise(in, "TypeError", "property() takes functions, not %s",
                             dsl_type_name(f[i]));
    }
    return property_of(in, f[0], f[1], f[2], ret);
}

int dsl_bi_vars(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value v = a->slot[0];
    if (v.kind == DSL_CLASS && !v.as.cls->builtin)
        return dsl_object_getattr(in, v, "__dict__", ret);
    if (v.kind != DSL_INSTANCE && v.kind != DSL_FUNCTION)
        return dsl_raise(in, "TypeError", "vars() argument must have __dict__ attribute");
    return dsl_attrs_view(in, v, ret);
}

/* ---- object's methods ------------------------------------------------------------------- */

/* A method of object's, bound (self in a->self) or called through a class
 * (object.__setattr__(self, name, v): self its first argument): self, and the `want` arguments
 * after it in *rest. 0, or -1 after raising TypeError. */
static int object_args(struct dsl_interp *in, const struct dsl_args *a, size_t want,
                       struct dsl_value *self, const struct dsl_value **rest)
{
    size_t skip = a->self.kind == DSL_NONE ? 1 : 0;
    if (a->nrest < skip || a->nrest - skip != want)
        return dsl_raise(in, "TypeError", "expected %zu argument%s, got %zu", want,
                         want == 1 ? "" : "s", a->nrest < skip ? 0 : a->nrest - skip);
    *self = skip ? a->rest[0] : a->self;
    *rest = a->rest + skip;
    return 0;
}

/* object's methods that need an instance and an attribute name: self and the name */
static int object_name_args(struct dsl_interp *in, const struct dsl_args *a, size_t want,
                            const char *method, struct dsl_value *self, const char **name,
                            const struct dsl_value **rest)
{
    if (object_args(in, a, want, self, rest) != 0) return -1;
    if ((*rest)[0].kind != DSL_STR)
        return dsl_raise(in, "TypeError", "attribute name must be string, not '%s'",
                         dsl_type_name((*rest)[0]));
    *name = (*rest)[0].as.s->data;
    if (self->kind == DSL_INSTANCE || self->kind == DSL_FUNCTION ||
        strcmp(method, "__getattribute__") == 0)
        return 0;
    if (self->kind == DSL_CLASS || self->kind == DSL_EXC_TYPE) /* type's own slot, not object's */
        return dsl_raise(in, "TypeError", "can't apply this %s to type object", method);
    /* what object's own __setattr__/__delattr__ say of a value without a __dict__ */
    return dsl_raise(in, "AttributeError", "'%s' object has no attribute '%s'",
                     dsl_type_name(*self), *name);
}

static int obj_init(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    size_t skip = a->self.kind == DSL_NONE ? 1 : 0;
    if (a->nrest < skip || a->nrest > skip)
        return dsl_raise(in, "TypeError",
                         "object.__init__() takes exactly one argument (the instance to "
                         "initialize)");
    *ret = dsl_none();
    return 0;
}

static int obj_setattr(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value self;
    const struct dsl_value *rest = NULL;
    const char *name = NULL;
    if (object_name_args(in, a, 2, "__setattr__", &self, &name, &rest) != 0) return -1;
    if (self.kind == DSL_FUNCTION ? dsl_setattr(in, self, name, rest[1])
                                  : instance_store(in, self, name, dsl_name_hash(name), rest[1]))
        return -1;
    *ret = dsl_none();
    return 0;
}

static int obj_delattr(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value self;
    const struct dsl_value *rest = NULL;
    const char *name = NULL;
    if (object_name_args(in, a, 1, "__delattr__", &self, &name, &rest) != 0) return -1;
    if (self.kind == DSL_FUNCTION ? dsl_delattr(in, self, name) : plain_delattr(in, self, name))
        return -1;
    *ret = dsl_none();
    return 0;
}

static int obj_getattribute(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value self;
    const struct dsl_value *rest = NULL;
    const char *name = NULL;
    if (object_name_args(in, a, 1, "__getattribute__", &self, &name, &rest) != 0) return -1;
    if (self.kind != DSL_INSTANCE) return dsl_getattr(in, self, name, ret);
    int r = instance_lookup(in, self, name, dsl_name_hash(name), ret);
    if (r != 0) return r < 0 ? -1 : 0;
    const struct dsl_class *c = self.as.inst->cls.as.cls;
    return no_attribute(in, false, c->name, name, suggest_attr(in, &self.as.inst->attrs, c, name));
}

/* object.__repr__ and __str__: Python's default text (str: the class's __repr__, as repr()) */
static int obj_text(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret,
                    bool repr)
{
    struct dsl_value self;
    const struct dsl_value *rest = NULL;
    if (object_args(in, a, 0, &self, &rest) != 0) return -1;
    struct render_buf b;
    render_buf_init(&b, 0);
    int st = DSL_V_OK;
    if (repr && self.kind == DSL_INSTANCE)
        render_buf_printf(&b, "<%s.%s object at %p>", dsl_class_module(self.as.inst->cls.as.cls),
                          dsl_type_name(self), (void *)self.as.inst);
    else
        st = dsl_value_repr(&b, self);
    if (st == DSL_V_OK && b.nomem) st = DSL_V_NOMEM;
    if (st == DSL_V_OK) st = dsl_str_value(render_buf_str(&b), b.len, ret);
    render_buf_free(&b);
    return st != DSL_V_OK ? dsl_raise_status(in, st) : 0;
}
static int obj_repr(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return obj_text(in, a, ret, true);
}
static int obj_str(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return obj_text(in, a, ret, false);
}

/* object.__eq__: the same object, else NotImplemented (Python then tries the other side) */
static int obj_eq(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value self;
    const struct dsl_value *rest = NULL;
    if (object_args(in, a, 1, &self, &rest) != 0) return -1;
    *ret = dsl_value_is(self, rest[0]) ? dsl_bool(true) : dsl_not_implemented();
    return 0;
}

/* object.__ne__: the class's __eq__, inverted unless it is NotImplemented */
static int obj_ne(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value self, eq, r;
    const struct dsl_value *rest = NULL;
    if (object_args(in, a, 1, &self, &rest) != 0) return -1;
    if (self.kind != DSL_INSTANCE || !dsl_class_special(self.as.inst->cls.as.cls, "__eq__", &eq)) {
        *ret = dsl_value_is(self, rest[0]) ? dsl_bool(false) : dsl_not_implemented();
        return 0;
    }
    if (dsl_call_method(in, eq, self, rest, 1, NULL, NULL, 0, &r) != 0) return -1;
    if (dsl_is_not_implemented(r)) {
        *ret = r;
        return 0;
    }
    bool t = false;
    int k = dsl_truth(in, r, &t);
    dsl_value_release(r);
    if (k != 0) return -1;
    *ret = dsl_bool(!t);
    return 0;
}

static int obj_hash(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value self;
    const struct dsl_value *rest = NULL;
    if (object_args(in, a, 0, &self, &rest) != 0) return -1;
    *ret = dsl_int(dsl_identity_hash(self));
    return 0;
}

static const struct dsl_builtin object_rows[] = {
    {"__init__", "object.__init__(self)", 0, -1, NULL, obj_init, "Does nothing."},
    {"__setattr__", "object.__setattr__(self, name, value)", 0, -1, NULL, obj_setattr,
     "Sets the instance's attribute (or calls a property's setter), without the class's "
     "__setattr__: what a __setattr__ of your own calls to store."},
    {"__delattr__", "object.__delattr__(self, name)", 0, -1, NULL, obj_delattr,
     "Deletes the instance's attribute, without the class's __delattr__."},
    {"__getattribute__", "object.__getattribute__(self, name)", 0, -1, NULL, obj_getattribute,
     "The attribute found on the instance or its classes, without __getattr__."},
    {"__repr__", "object.__repr__(self)", 0, -1, NULL, obj_repr, "<__main__.Name object at 0x...>"},
    {"__str__", "object.__str__(self)", 0, -1, NULL, obj_str, "repr(self)."},
    {"__eq__", "object.__eq__(self, other)", 0, -1, NULL, obj_eq,
     "True for the same object, else NotImplemented."},
    {"__ne__", "object.__ne__(self, other)", 0, -1, NULL, obj_ne,
     "The inverse of the class's __eq__."},
    {"__hash__", "object.__hash__(self)", 0, -1, NULL, obj_hash,
     "A hash of the object's identity."},
    {NULL, NULL, 0, 0, NULL, NULL, NULL},
};

/* getattr()'s and the others' name: 3.11's TypeError names no function (3.12's does) */
static int want_name(struct dsl_interp *in, struct dsl_value v)
{
    if (v.kind == DSL_STR) return 0;
    return dsl_raise(in, "TypeError", "attribute name must be string, not '%s'", dsl_type_name(v));
}

int dsl_bi_getattr(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (want_name(in, a->slot[1]) != 0) return -1;
    in->quiet_attr += a->has[2];
    int r = dsl_getattr(in, a->slot[0], a->slot[1].as.s->data, ret);
    in->quiet_attr -= a->has[2];
    if (r == 0) return 0;
    if (!a->has[2] || strcmp(in->ename, "AttributeError") != 0) return -1;
    dsl_interp_clear_error(in);
    *ret = dsl_value_retain(a->slot[2]);
    return 0;
}

int dsl_bi_setattr(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (want_name(in, a->slot[1]) != 0) return -1;
    if (dsl_setattr(in, a->slot[0], a->slot[1].as.s->data, a->slot[2]) != 0) return -1;
    *ret = dsl_none();
    return 0;
}

int dsl_delattr(struct dsl_interp *in, struct dsl_value obj, const char *name)
{
    if (obj.kind == DSL_INSTANCE || obj.kind == DSL_CLASS) return dsl_object_delattr(in, obj, name);
    if (obj.kind == DSL_FUNCTION && dsl_attrs_remove(&obj.as.fn_user->attrs, name)) return 0;
    if (obj.kind == DSL_FUNCTION)
        return dsl_raise(in, "AttributeError", "'function' object has no attribute '%s'", name);
    return dsl_raise(in, "AttributeError", "'%s' object attribute '%s' cannot be deleted",
                     dsl_type_name(obj), name);
}

int dsl_bi_delattr(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (want_name(in, a->slot[1]) != 0) return -1;
    if (dsl_delattr(in, a->slot[0], a->slot[1].as.s->data) != 0) return -1;
    *ret = dsl_none();
    return 0;
}

int dsl_hasattr(struct dsl_interp *in, struct dsl_value obj, const char *name, bool *has)
{
    struct dsl_value v;
    in->quiet_attr++;
    int r = dsl_getattr(in, obj, name, &v);
    in->quiet_attr--;
    *has = r == 0;
    if (r == 0) {
        dsl_value_release(v);
        return 0;
    }
    if (strcmp(in->ename, "AttributeError") != 0) return -1;
    dsl_interp_clear_error(in);
    return 0;
}

int dsl_bi_hasattr(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    bool has;
    if (want_name(in, a->slot[1]) != 0 ||
        dsl_hasattr(in, a->slot[0], a->slot[1].as.s->data, &has) != 0)
        return -1;
    *ret = dsl_bool(has);
    return 0;
}

/* ---- BaseException's methods, for classes deriving from an exception class -------------- */

static int exc_init(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    size_t skip = a->self.kind == DSL_NONE ? 1 : 0;
    struct dsl_value self = skip && a->nrest ? a->rest[0] : a->self;
    if (self.kind != DSL_INSTANCE)
        return dsl_raise(in, "TypeError", "BaseException.__init__ needs an exception");
    if (set_exc_args(in, self, a->rest + skip, a->nrest - skip) != 0) return -1;
    *ret = dsl_none();
    return 0;
}

static int exc_text(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret,
                    bool repr)
{
    struct dsl_value self;
    const struct dsl_value *rest = NULL;
    if (object_args(in, a, 0, &self, &rest) != 0) return -1;
    struct dsl_value *args =
        self.kind == DSL_INSTANCE ? dsl_attrs_find(&self.as.inst->attrs, "args") : NULL;
    struct render_buf b;
    render_buf_init(&b, 0);
    int st = dsl_args_text(&b, dsl_type_name(self), args ? *args : dsl_none(), repr,
                           self.kind == DSL_INSTANCE && key_error(self));
    if (st == DSL_V_OK && b.nomem) st = DSL_V_NOMEM;
    if (st == DSL_V_OK) st = dsl_str_value(render_buf_str(&b), b.len, ret);
    render_buf_free(&b);
    return st != DSL_V_OK ? dsl_raise_status(in, st) : 0;
}
static int exc_str(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return exc_text(in, a, ret, false);
}
static int exc_repr(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return exc_text(in, a, ret, true);
}

static const struct dsl_builtin exception_rows[] = {
    {"__init__", "BaseException.__init__(self, *args)", 0, -1, NULL, exc_init,
     "Keeps the arguments as self.args."},
    {"__str__", "BaseException.__str__(self)", 0, -1, NULL, exc_str,
     "The one argument's str, or the arguments' tuple."},
    {"__repr__", "BaseException.__repr__(self)", 0, -1, NULL, exc_repr, "Name(args...)"},
    {NULL, NULL, 0, 0, NULL, NULL, NULL},
};

const struct dsl_builtin *dsl_exception_method(const char *name)
{
    for (const struct dsl_builtin *m = exception_rows; m->name; m++)
        if (strcmp(m->name, name) == 0) return m;
    return NULL;
}

/* ---- an instance's __dict__ -------------------------------------------------------------- */

int dsl_attrs_view(struct dsl_interp *in, struct dsl_value inst, struct dsl_value *out)
{
    /* a library class's instance (Parameter, SGD, argparse's Namespace) keeps its attributes
     * there as a Python one does, so they are its __dict__ */
    if (inst.kind == DSL_INSTANCE && inst.as.inst->cls.as.cls->no_dict)
        return dsl_raise(in, "TypeError", "vars() argument must have __dict__ attribute");
    int st = dsl_method_value(NULL, inst, out);
    if (st != DSL_V_OK) return dsl_raise_status(in, st);
    out->as.m->wrap = DSL_WRAP_ATTRS;
    return 0;
}

/* A view's key as an attribute name: 0 with *name, or with NULL for a key that is no string,
 * which Python's dict looks up and no attribute has; -1 after raising TypeError for an
 * unhashable key, as a dict's lookup does. */
static int view_key(struct dsl_interp *in, struct dsl_value key, const char **name)
{
    *name = NULL;
    if (key.kind == DSL_STR) {
        *name = key.as.s->data;
        return 0;
    }
    int64_t h;
    return dsl_hash_value(in, key, &h);
}

/* The attribute slot of a view's key, or NULL. */
static struct dsl_value *view_find(struct dsl_value view, const char *name)
{
    return name ? dsl_attrs_find(dsl_view_attrs(view.as.m), name) : NULL;
}

int dsl_attrs_view_getitem(struct dsl_interp *in, struct dsl_value view, struct dsl_value key,
                           struct dsl_value *out)
{
    const char *name = NULL;
    if (view_key(in, key, &name) != 0) return -1;
    struct dsl_value *slot = view_find(view, name);
    if (!slot) return dsl_dict_raise_key(in, key);
    *out = dsl_value_retain(*slot);
    return 0;
}

int dsl_attrs_view_setitem(struct dsl_interp *in, struct dsl_value view, struct dsl_value key,
                           struct dsl_value v)
{
    const char *name = NULL;
    if (view_key(in, key, &name) != 0) return -1;
    if (!name) /* Python's __dict__ would keep it, under a key no attribute lookup finds */
        return dsl_raise(in, "TypeError",
                         "an instance's __dict__ holds attribute names (strings) in the MiniTorch "
                         "language, not %s",
                         dsl_type_name(key));
    int st = dsl_attrs_set(dsl_view_attrs(view.as.m), name, dsl_value_retain(v));
    return st != DSL_V_OK ? dsl_raise_status(in, st) : 0;
}

int dsl_attrs_view_delitem(struct dsl_interp *in, struct dsl_value view, struct dsl_value key)
{
    const char *name = NULL;
    if (view_key(in, key, &name) != 0) return -1;
    return name && dsl_attrs_remove(dsl_view_attrs(view.as.m), name) ? 0
                                                                     : dsl_dict_raise_key(in, key);
}

int dsl_attrs_view_dict(struct dsl_interp *in, struct dsl_value view, struct dsl_value *out)
{
    struct dsl_dict *d = dsl_dict_new();
    if (!d) return dsl_raise_status(in, DSL_V_NOMEM);
    *out = dsl_dict_value(d);
    const struct dsl_attrs *a = dsl_view_attrs(view.as.m);
    for (size_t i = 0; i < a->len; i++) {
        struct dsl_value k;
        int st = dsl_str_value(a->items[i].name, strlen(a->items[i].name), &k);
        if (st != DSL_V_OK) {
            dsl_value_release(*out);
            return dsl_raise_status(in, st);
        }
        int r = dsl_dict_store(in, d, k, a->items[i].value);
        dsl_value_release(k);
        if (r != 0) {
            dsl_value_release(*out);
            return -1;
        }
    }
    return 0;
}

int dsl_attrs_view_keys(struct dsl_interp *in, struct dsl_value view, struct dsl_value *out)
{
    const struct dsl_attrs *a = dsl_view_attrs(view.as.m);
    struct dsl_list *l = dsl_list_new(a->len);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    *out = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    for (size_t i = 0; i < a->len; i++) {
        struct dsl_value k;
        int st = dsl_str_value(a->items[i].name, strlen(a->items[i].name), &k);
        if (st == DSL_V_OK) st = dsl_list_push(l, k);
        if (st != DSL_V_OK) {
            dsl_value_release(*out);
            return dsl_raise_status(in, st);
        }
    }
    return 0;
}

/* keys(), values(), items(), get(), copy(): the dict method `name` of the attributes now */
static int view_read(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret,
                     const char *name)
{
    struct dsl_value d, m;
    if (dsl_attrs_view_dict(in, a->self, &d) != 0) return -1;
    int r = dsl_dict_getattr(in, d, name, &m);
    if (r == 0) {
        r = dsl_call(in, m, a->rest, a->nrest, a->kwnames, a->kwvals, a->nkw, ret);
        dsl_value_release(m);
    }
    dsl_value_release(d);
    return r;
}
#define VIEW_READ(method)                                                                          \
    static int view_##method(struct dsl_interp *in, const struct dsl_args *a,                      \
                             struct dsl_value *ret)                                                \
    {                                                                                              \
        return view_read(in, a, ret, #method);                                                     \
    }
VIEW_READ(keys)
VIEW_READ(values)
VIEW_READ(items)
VIEW_READ(get)
VIEW_READ(copy)
#undef VIEW_READ

/* update(mapping): each of its keys stored as an attribute, as assigning through the view */
static int view_update(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (a->nrest != 1 || a->rest[0].kind != DSL_DICT)
        return dsl_raise(in, "TypeError", "an instance's __dict__.update() takes one dict");
    const struct dsl_dict *d = a->rest[0].as.d;
    for (size_t i = 0; i < d->n; i++)
        if (d->entries[i].live &&
            dsl_attrs_view_setitem(in, a->self, d->entries[i].key, d->entries[i].value) != 0)
            return -1;
    *ret = dsl_none();
    return 0;
}

/* pop(key[, default]) */
static int view_pop(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (a->nrest < 1 || a->nrest > 2)
        return dsl_raise(in, "TypeError", "pop expected at least 1 argument, got %zu", a->nrest);
    const char *name = NULL;
    if (view_key(in, a->rest[0], &name) != 0) return -1;
    struct dsl_value *slot = view_find(a->self, name);
    if (!slot) {
        if (a->nrest == 2) {
            *ret = dsl_value_retain(a->rest[1]);
            return 0;
        }
        return dsl_dict_raise_key(in, a->rest[0]);
    }
    *ret = dsl_value_retain(*slot);
    dsl_attrs_remove(dsl_view_attrs(a->self.as.m), name);
    return 0;
}

static int view_clear(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (a->nrest) return dsl_raise(in, "TypeError", "clear() takes no arguments");
    struct dsl_attrs *attrs = dsl_view_attrs(a->self.as.m);
    while (attrs->len) dsl_attrs_remove(attrs, attrs->items[attrs->len - 1].name);
    *ret = dsl_none();
    return 0;
}

static const struct dsl_builtin view_rows[] = {
    {"keys", "keys()", 0, -1, NULL, view_keys, "The attribute names."},
    {"values", "values()", 0, -1, NULL, view_values, "The attributes' values."},
    {"items", "items()", 0, -1, NULL, view_items, "(name, value) pairs."},
    {"get", "get(name, default=None)", 0, -1, NULL, view_get, "The attribute, or default."},
    {"copy", "copy()", 0, -1, NULL, view_copy, "A dict of the attributes now."},
    {"update", "update(mapping)", 0, -1, NULL, view_update, "Sets an attribute for each key."},
    {"pop", "pop(name[, default])", 0, -1, NULL, view_pop, "Removes the attribute; its value."},
    {"clear", "clear()", 0, -1, NULL, view_clear, "Removes every attribute."},
    {NULL, NULL, 0, 0, NULL, NULL, NULL},
};

/* ---- what the wrappers answer ----------------------------------------------------------- */

/* prop.getter(f) (which 0), prop.setter(f) (1), prop.deleter(f) (2): a copy of prop with f in
 * that place */
static int property_with(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret,
                         int which)
{
    static const char *const what[] = {"getter", "setter", "deleter"};
    if (a->nrest != 1 || (a->rest[0].kind != DSL_FUNCTION && a->rest[0].kind != DSL_BUILTIN))
        return dsl_raise(in, "TypeError", "a property's %s takes one function", what[which]);
    const struct dsl_method *p = a->self.as.m;
    struct dsl_value f[3] = {p->func, p->self, p->fdel};
    f[which] = a->rest[0];
    return property_of(in, f[0], f[1], f[2], ret);
}
static int property_getter(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return property_with(in, a, ret, 0);
}
static int property_setter(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return property_with(in, a, ret, 1);
}
static int property_deleter(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return property_with(in, a, ret, 2);
}

static const struct dsl_builtin property_rows[] = {
    {"setter", "setter(fset)", 0, -1, NULL, property_setter,
     "The property with fset as its setter (@name.setter above the def)."},
    {"getter", "getter(fget)", 0, -1, NULL, property_getter,
     "The property with fget as its getter."},
    {"deleter", "deleter(fdel)", 0, -1, NULL, property_deleter,
     "The property with fdel as its deleter (@name.deleter above the def): what del obj.name "
     "calls."},
    {NULL, NULL, 0, 0, NULL, NULL, NULL},
};

int dsl_wrapper_getattr(struct dsl_interp *in, struct dsl_value v, const char *name,
                        struct dsl_value *out)
{
    const struct dsl_method *m = v.as.m;
    const struct dsl_builtin *rows = m->wrap == DSL_WRAP_PROPERTY ? property_rows
                                     : m->wrap == DSL_WRAP_ATTRS  ? view_rows
                                                                  : NULL;
    for (const struct dsl_builtin *r = rows; r && r->name; r++)
        if (strcmp(r->name, name) == 0) {
            int st = dsl_method_value(r, v, out);
            return st ? dsl_raise_status(in, st) : 0;
        }
    struct dsl_value field = dsl_none();
    bool found = false;
    if (m->wrap == DSL_WRAP_PROPERTY &&
        (!strcmp(name, "fget") || !strcmp(name, "fset") || !strcmp(name, "fdel")))
        field = name[1] == 'g' ? m->func : name[1] == 's' ? m->self : m->fdel, found = true;
    if ((m->wrap == DSL_WRAP_STATIC || m->wrap == DSL_WRAP_CLASS) && !strcmp(name, "__func__"))
        field = m->func, found = true;
    if (m->wrap == DSL_WRAP_BOUND && !m->fn && !strcmp(name, "__func__"))
        field = m->func, found = true;
    if (m->wrap == DSL_WRAP_BOUND && !strcmp(name, "__self__")) field = m->self, found = true;
    if (found) {
        *out = dsl_value_retain(field);
        return 0;
    }
    return dsl_raise(in, "AttributeError", "'%s' object has no attribute '%s'", dsl_type_name(v),
                     name);
}

/* ---- completion and help ---------------------------------------------------------------- */

size_t dsl_attr_names(struct dsl_value v, const char **out, size_t cap)
{
    size_t n = 0;
#define ADD(name)                                                                                  \
    do {                                                                                           \
        if (out && n < cap) out[n] = (name);                                                       \
        n++;                                                                                       \
    } while (0)
    const struct dsl_class *c = NULL;
    if (v.kind == DSL_INSTANCE) {
        for (size_t i = 0; i < v.as.inst->attrs.len; i++) ADD(v.as.inst->attrs.items[i].name);
        c = v.as.inst->cls.as.cls;
    } else if (v.kind == DSL_CLASS) {
        c = v.as.cls;
        ADD("__name__");
    }
    for (; c; c = base_of(c)) {
        for (size_t i = 0; i < c->attrs.len; i++) ADD(c->attrs.items[i].name);
        for (const struct dsl_builtin *m = c->methods; m && m->name; m++) ADD(m->name);
    }
#undef ADD
    return n;
}

/* The help line of one class attribute: a method's signature, else the value's type. */
static void attr_line(struct render_buf *b, const char *name, struct dsl_value v,
                      const struct dsl_builtin *row)
{
    if (row) {
        render_buf_printf(b, "  %s\n", row->signature);
        return;
    }
    v = unwrapped(v);
    if (v.kind == DSL_FUNCTION)
        dsl_function_signature(b, v.as.fn_user, "  ", "\n");
    else
        render_buf_printf(b, "  %s: %s\n", name, dsl_type_name(v));
}

int dsl_class_help(struct render_buf *b, struct dsl_value v)
{
    const struct dsl_class *c = v.kind == DSL_INSTANCE ? v.as.inst->cls.as.cls : v.as.cls;
    if (v.kind == DSL_INSTANCE) render_buf_printf(b, "An instance of class %s.\n\n", c->name);
    render_buf_printf(b, "class %s", c->name);
    if (base_of(c)) render_buf_printf(b, "(%s)", base_of(c)->name);
    render_buf_puts(b, "\n");
    struct dsl_value *doc = dsl_attrs_find(&c->attrs, "__doc__");
    if (doc && doc->kind == DSL_STR)
        render_buf_printf(b, "\n%s\n", doc->as.s->data);
    else if (c->doc)
        render_buf_printf(b, "\n%s\n", c->doc);
    if (v.kind == DSL_INSTANCE && v.as.inst->attrs.len) {
        render_buf_puts(b, "\nAttributes:\n");
        for (size_t i = 0; i < v.as.inst->attrs.len; i++)
            render_buf_printf(b, "  %s: %s\n", v.as.inst->attrs.items[i].name,
                              dsl_type_name(v.as.inst->attrs.items[i].value));
    }
    for (const struct dsl_class *k = c; k; k = base_of(k)) {
        bool any = false;
        for (size_t i = 0; i < k->attrs.len; i++) {
            const char *name = k->attrs.items[i].name;
            if (strcmp(name, "__doc__") == 0 || strcmp(name, "__module__") == 0) continue;
            if (!any) render_buf_printf(b, k == c ? "\nDefined here:\n" : "\nFrom %s:\n", k->name);
            any = true;
            attr_line(b, k->attrs.items[i].name, k->attrs.items[i].value, NULL);
        }
        for (const struct dsl_builtin *m = k->methods; m && m->name; m++) {
            if (!any) render_buf_printf(b, k == c ? "\nDefined here:\n" : "\nFrom %s:\n", k->name);
            any = true;
            attr_line(b, m->name, dsl_none(), m);
        }
    }
    return b->nomem || b->over ? -1 : 0;
}

bool dsl_attr_help(struct render_buf *b, struct dsl_value v, const char *name)
{
    if (v.kind == DSL_INSTANCE) {
        struct dsl_value *own = dsl_attrs_find(&v.as.inst->attrs, name);
        if (own) {
            render_buf_printf(b, "%s: %s = ", name, dsl_type_name(*own));
            dsl_value_repr(b, *own);
            return true;
        }
    }
    const struct dsl_class *c = v.kind == DSL_INSTANCE ? v.as.inst->cls.as.cls
                                : v.kind == DSL_CLASS  ? v.as.cls
                                                       : NULL;
    struct dsl_value attr;
    const struct dsl_builtin *row;
    if (!c || !chain_find(c, name, &attr, &row)) return false;
    if (row) {
        dsl_builtin_help(b, row);
        return true;
    }
    attr = unwrapped(attr);
    if (attr.kind == DSL_FUNCTION) {
        dsl_function_help(b, attr.as.fn_user);
        return true;
    }
    render_buf_printf(b, "%s: %s = ", name, dsl_type_name(attr));
    dsl_value_repr(b, attr);
    return true;
}
