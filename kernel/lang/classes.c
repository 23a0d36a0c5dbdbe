/* classes.c — classes, instances, super() and the built-in types as classes (see classes.h). */
#include "lang/classes.h"

#include "lang/exceptions.h"
#include "lang/library.h"

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
    T_DICT,
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
    [T_TENSOR] = {"tensor", NULL, "tensor: the type of tensors; make one with tensor(...)."},
    [T_METHOD] = {"method", NULL, NULL},
    [T_FUNCTION] = {"function", NULL, NULL},
    [T_SUPER] = {"super", "super", NULL},
    [T_STATICMETHOD] = {"staticmethod", "staticmethod", NULL},
    [T_DICT] = {"dict", "dict", NULL},
};

static struct dsl_class types[T_COUNT];
static bool types_ready;

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
    }
    types[T_BOOL].base = class_value(&types[T_INT]); /* as in Python: True + 1 == 2 */
    types_ready = true;
}

/* Library classes and the engine objects' classes (datasets, models): made once, kept. */
#define MAX_STATIC_CLASSES 64
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
    *c = (struct dsl_class){.refs = 1, .name = name, .doc = doc, .builtin = true};
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
    case DSL_LIST: t = dsl_is_tuple(v) ? T_TUPLE : T_LIST; break;
    case DSL_RANGE: t = T_RANGE; break;
    case DSL_BUILTIN: t = T_BUILTIN; break;
    case DSL_TENSOR: t = T_TENSOR; break;
    case DSL_METHOD: t = v.as.m->is_static ? T_STATICMETHOD : T_METHOD; break;
    case DSL_FUNCTION: t = T_FUNCTION; break;
    case DSL_CLASS: t = T_TYPE; break;
    case DSL_SUPER: t = T_SUPER; break;
    case DSL_DICT: t = T_DICT; break;
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
    return dsl_none();
}

/* ---- classes ---------------------------------------------------------------------------- */

int dsl_class_new(struct dsl_interp *in, const char *name, struct dsl_value base,
                  struct dsl_value *out)
{
    types_init();
    if (base.kind != DSL_NONE && base.kind != DSL_CLASS)
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
    c->name = copy;
    c->base = base.kind == DSL_CLASS && base.as.cls != &types[T_OBJECT] ? dsl_value_retain(base)
                                                                        : dsl_none();
    c->type_kind = DSL_INSTANCE;
    dsl_gc_track(&c->gc, DSL_CLASS);
    *out = class_value(c);
    return 0;
}

void dsl_class_adopt_methods(struct dsl_value cls)
{
    struct dsl_attrs *a = &cls.as.cls->attrs;
    for (size_t i = 0; i < a->len; i++) {
        struct dsl_value v = a->items[i].value;
        if (v.kind == DSL_METHOD && v.as.m->is_static) v = v.as.m->func;
        if (v.kind != DSL_FUNCTION || v.as.fn_user->owner.kind != DSL_NONE) continue;
        struct dsl_function *f = v.as.fn_user;
        f->owner = dsl_value_retain(cls);
        size_t n = strlen(cls.as.cls->name) + strlen(f->def->name) + 2;
        f->qualname = malloc(n);
        if (f->qualname) snprintf(f->qualname, n, "%s.%s", cls.as.cls->name, f->def->name);
    }
}

/* The next class in a chain, or NULL after the last. */
static const struct dsl_class *base_of(const struct dsl_class *c)
{
    return c->base.kind == DSL_CLASS ? c->base.as.cls : NULL;
}

/* What the class chain from c binds name to: an attribute (*attr) or a builtin row (*row).
 * The class it was found in goes to *where. */
static bool chain_find(const struct dsl_class *c, const char *name, struct dsl_value *attr,
                       const struct dsl_builtin **row)
{
    for (; c; c = base_of(c)) {
        struct dsl_value *slot = dsl_attrs_find(&c->attrs, name);
        if (slot) {
            *attr = *slot;
            *row = NULL;
            return true;
        }
        for (const struct dsl_builtin *m = c->methods; m && m->name; m++)
            if (strcmp(m->name, name) == 0) {
                *attr = dsl_none();
                *row = m;
                return true;
            }
    }
    return false;
}

bool dsl_isinstance(struct dsl_value v, const struct dsl_class *c)
{
    types_init();
    if (c == &types[T_OBJECT]) return true;
    for (const struct dsl_class *t = dsl_type_of(v).as.cls; t; t = base_of(t))
        if (t == c) return true;
    return false;
}

static bool is_subclass(const struct dsl_class *a, const struct dsl_class *b)
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

/* What a class attribute gives when read through an instance (bound) or a class (as is). */
static int resolve(struct dsl_interp *in, struct dsl_value attr, const struct dsl_builtin *row,
                   struct dsl_value self, bool through_instance, struct dsl_value *out)
{
    if (row) {
        struct dsl_value fn = {.kind = DSL_BUILTIN, .as.fn = row};
        if (!through_instance) {
            *out = fn;
            return 0;
        }
        return bind(in, fn, self, out);
    }
    if (attr.kind == DSL_METHOD && attr.as.m->is_static) {
        *out = dsl_value_retain(attr.as.m->func);
        return 0;
    }
    if (through_instance && attr.kind == DSL_FUNCTION) return bind(in, attr, self, out);
    *out = dsl_value_retain(attr);
    return 0;
}

/* The closest attribute name to `name` within edit distance 2 on obj and its classes, or
 * NULL. */
static const char *suggest_attr(const struct dsl_attrs *own, const struct dsl_class *c,
                                const char *name)
{
    const char *best = NULL;
    size_t best_d = 3;
    for (int pass = 0; pass < 2; pass++) {
        for (const struct dsl_class *k = pass ? c : NULL; pass == 0 || k; k = base_of(k)) {
            const struct dsl_attrs *a = pass ? &k->attrs : own;
            for (size_t i = 0; a && i < a->len; i++) {
                size_t d = dsl_edit_distance(name, a->items[i].name);
                if (d < best_d && d < strlen(name)) best = a->items[i].name, best_d = d;
            }
            for (const struct dsl_builtin *m = pass ? k->methods : NULL; m && m->name; m++) {
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
static int class_special(struct dsl_interp *in, const struct dsl_class *c, const char *name,
                         struct dsl_value *out)
{
    if (strcmp(name, "__name__") == 0)
        return dsl_str_value(c->name, strlen(c->name), out) != 0 ? dsl_raise_status(in, DSL_V_NOMEM)
                                                                 : 1;
    if (strcmp(name, "__doc__") == 0 && c->doc)
        return dsl_str_value(c->doc, strlen(c->doc), out) != 0 ? dsl_raise_status(in, DSL_V_NOMEM)
                                                               : 1;
    if (strcmp(name, "__base__") == 0) {
        *out = c->base.kind == DSL_CLASS ? dsl_value_retain(c->base)
               : c == &types[T_OBJECT]   ? dsl_none()
                                         : class_value(&types[T_OBJECT]);
        return 1;
    }
    return 0;
}

int dsl_object_getattr(struct dsl_interp *in, struct dsl_value obj, const char *name,
                       struct dsl_value *out)
{
    types_init();
    struct dsl_value attr;
    const struct dsl_builtin *row;
    if (obj.kind == DSL_INSTANCE) { /* its own attributes first: the common read, self.w */
        struct dsl_value *own = dsl_attrs_find(&obj.as.inst->attrs, name);
        if (own) {
            *out = dsl_value_retain(*own);
            return 0;
        }
    }
    if (strcmp(name, "__class__") == 0) {
        *out = dsl_value_retain(dsl_type_of(obj));
        return 0;
    }
    if (obj.kind == DSL_INSTANCE) {
        const struct dsl_class *c = obj.as.inst->cls.as.cls;
        if (chain_find(c, name, &attr, &row)) return resolve(in, attr, row, obj, true, out);
        return no_attribute(in, false, c->name, name, suggest_attr(&obj.as.inst->attrs, c, name));
    }
    if (obj.kind == DSL_CLASS) {
        const struct dsl_class *c = obj.as.cls;
        if (chain_find(c, name, &attr, &row)) return resolve(in, attr, row, obj, false, out);
        int sp = class_special(in, c, name, out);
        if (sp != 0) return sp < 0 ? -1 : 0;
        return no_attribute(in, true, c->name, name, suggest_attr(NULL, c, name));
    }
    if (obj.kind == DSL_SUPER) {
        const struct dsl_class *after = obj.as.sup->after.as.cls;
        if (chain_find(base_of(after), name, &attr, &row))
            return resolve(in, attr, row, obj.as.sup->self, true, out);
        return dsl_raise(in, "AttributeError", "'super' object has no attribute '%s'", name);
    }
    return dsl_raise(in, "AttributeError", "'%s' object has no attribute '%s'", dsl_type_name(obj),
                     name);
}

int dsl_object_setattr(struct dsl_interp *in, struct dsl_value obj, const char *name,
                       struct dsl_value v)
{
    struct dsl_attrs *a = obj.kind == DSL_INSTANCE                        ? &obj.as.inst->attrs
                          : obj.kind == DSL_CLASS && !obj.as.cls->builtin ? &obj.as.cls->attrs
                                                                          : NULL;
    if (!a) {
        if (obj.kind == DSL_CLASS)
            return dsl_raise(in, "TypeError", "cannot set '%s' attribute of immutable type '%s'",
                             name, obj.as.cls->name);
        return dsl_raise(in, "AttributeError", "'%s' object has no attribute '%s'",
                         dsl_type_name(obj), name);
    }
    int st = dsl_attrs_set(a, name, dsl_value_retain(v));
    return st != DSL_V_OK ? dsl_raise_status(in, st) : 0;
}

int dsl_object_delattr(struct dsl_interp *in, struct dsl_value obj, const char *name)
{
    struct dsl_attrs *a = obj.kind == DSL_INSTANCE                        ? &obj.as.inst->attrs
                          : obj.kind == DSL_CLASS && !obj.as.cls->builtin ? &obj.as.cls->attrs
                                                                          : NULL;
    if (a && dsl_attrs_remove(a, name)) return 0;
    return dsl_raise(in, "AttributeError", "'%s' object has no attribute '%s'", dsl_type_name(obj),
                     name);
}

bool dsl_instance_method(struct dsl_value inst, const char *name, struct dsl_value *fn)
{
    if (dsl_attrs_find(&inst.as.inst->attrs, name)) return false;
    struct dsl_value attr;
    const struct dsl_builtin *row;
    if (!chain_find(inst.as.inst->cls.as.cls, name, &attr, &row)) return false;
    if (row) {
        *fn = (struct dsl_value){.kind = DSL_BUILTIN, .as.fn = row};
        return true;
    }
    if (attr.kind != DSL_FUNCTION) return false;
    *fn = attr;
    return true;
}

/* ---- calls ------------------------------------------------------------------------------ */

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
    struct dsl_instance *o = calloc(1, sizeof *o);
    if (!o) return dsl_raise_status(in, DSL_V_NOMEM);
    o->refs = 1;
    o->cls = dsl_value_retain(cls);
    dsl_gc_track(&o->gc, DSL_INSTANCE);
    struct dsl_value self = {.kind = DSL_INSTANCE, .as.inst = o};
    struct dsl_value init;
    if (!dsl_instance_method(self, "__init__", &init)) {
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

int dsl_instance_text(struct render_buf *b, struct dsl_value v, bool repr)
{
    if (v.kind == DSL_SUPER) {
        render_buf_printf(b, "<super: <class '%s'>, <%s object>>", v.as.sup->after.as.cls->name,
                          dsl_type_name(v.as.sup->self));
        return b->over ? DSL_V_TOOBIG : b->nomem ? DSL_V_NOMEM : DSL_V_OK;
    }
    struct dsl_value fn;
    struct dsl_interp *in = dsl_running;
    bool found = in && ((!repr && dsl_instance_method(v, "__str__", &fn)) ||
                        dsl_instance_method(v, "__repr__", &fn));
    if (!found) {
        render_buf_printf(b, "<__main__.%s object at %p>", dsl_type_name(v), (void *)v.as.inst);
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
                                                                : NULL;
        bool want_instance = test == test_instance;
        *result =
            t && (v.kind == DSL_EXCEPTION) == want_instance && dsl_exc_type_is(t, spec.as.exc_type);
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
    return v.kind == DSL_CLASS ? is_subclass(v.as.cls, c) : c == &types[T_OBJECT];
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

int dsl_bi_staticmethod(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (a->slot[0].kind != DSL_FUNCTION)
        return dsl_raise(in, "TypeError",
                         "staticmethod() takes a function defined with def, not %s",
                         dsl_type_name(a->slot[0]));
    int st = dsl_method_value(NULL, dsl_none(), ret);
    if (st != DSL_V_OK) return dsl_raise_status(in, st);
    ret->as.m->func = dsl_value_retain(a->slot[0]);
    ret->as.m->is_static = true;
    return 0;
}

static int want_name(struct dsl_interp *in, struct dsl_value v, const char *fname)
{
    if (v.kind == DSL_STR) return 0;
    return dsl_raise(in, "TypeError", "%s(): attribute name must be string, not '%s'", fname,
                     dsl_type_name(v));
}

int dsl_bi_getattr(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (want_name(in, a->slot[1], "getattr") != 0) return -1;
    if (dsl_getattr(in, a->slot[0], a->slot[1].as.s->data, ret) == 0) return 0;
    if (!a->has[2] || strcmp(in->ename, "AttributeError") != 0) return -1;
    dsl_interp_clear_error(in);
    *ret = dsl_value_retain(a->slot[2]);
    return 0;
}

int dsl_bi_setattr(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (want_name(in, a->slot[1], "setattr") != 0) return -1;
    if (dsl_setattr(in, a->slot[0], a->slot[1].as.s->data, a->slot[2]) != 0) return -1;
    *ret = dsl_none();
    return 0;
}

int dsl_bi_hasattr(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (want_name(in, a->slot[1], "hasattr") != 0) return -1;
    struct dsl_value v;
    if (dsl_getattr(in, a->slot[0], a->slot[1].as.s->data, &v) == 0) {
        dsl_value_release(v);
        *ret = dsl_bool(true);
        return 0;
    }
    if (strcmp(in->ename, "AttributeError") != 0) return -1;
    dsl_interp_clear_error(in);
    *ret = dsl_bool(false);
    return 0;
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
    if (v.kind == DSL_METHOD && v.as.m->is_static) v = v.as.m->func;
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
            if (strcmp(k->attrs.items[i].name, "__doc__") == 0) continue;
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
    if (attr.kind == DSL_METHOD && attr.as.m->is_static) attr = attr.as.m->func;
    if (attr.kind == DSL_FUNCTION) {
        dsl_function_help(b, attr.as.fn_user);
        return true;
    }
    render_buf_printf(b, "%s: %s = ", name, dsl_type_name(attr));
    dsl_value_repr(b, attr);
    return true;
}
