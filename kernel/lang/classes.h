/* classes.h — classes, instances and super(), and the built-in types as classes (internal to
 * kernel/lang).
 *
 * As in Python: `class Name(Base):` runs its body once, binding the names it assigns (methods,
 * class variables) as the class's attributes; calling the class makes an instance and runs
 * __init__ on it. Reading obj.name looks in the instance's attributes, then in its class and
 * the classes that class derives from (single inheritance, so that chain is the MRO), and
 * last in `object`'s own methods; a function found in a class comes back bound to the instance,
 * a staticmethod unbound, a classmethod bound to the class, a property as its getter's value.
 * A method knows the class whose body defined it, which is what a zero-argument super() starts
 * after. The hooks __getattr__ (a name found nowhere else) and __setattr__ (every store, which
 * reaches the instance through object.__setattr__) are called as Python calls them, and
 * obj.__dict__ is a live view of the instance's attributes. The other special methods the
 * language calls (operators, truth, len, items, iteration) are datamodel.c's.
 *
 * The built-in types (int, float, str, bool, list, tuple, range, NoneType, function, ...) are
 * classes too, so that type(x) is a class, `isinstance(x, list)` and `type(x).__name__` work,
 * and calling `int`, `list` or `str` converts as before (their constructor rows). A class of the
 * library (minitorch.Module, Parameter, SGD) is a class with builtin rows as methods. */
#ifndef KERNEL_LANG_CLASSES_H
#define KERNEL_LANG_CLASSES_H

#include "lang/interp.h"
#include "lang/native.h"

/* The class of v: type(v) (borrowed: a built-in type is static, an instance holds its class). */
struct dsl_value dsl_type_of(struct dsl_value v);
/* The built-in type a builtin row constructs ("int", "list", ...) as a class value (static),
 * or none when fn is no type's constructor. */
struct dsl_value dsl_builtin_type(const struct dsl_builtin *fn);
/* The built-in class a name without a builtin row names (object), or none. */
struct dsl_value dsl_builtin_class(const char *name);
/* A library class: name, doc, base (a class or none) and its method rows (the array ends with a
 * row whose name is NULL). Static, made once: 0 or -1 after raising MemoryError. */
struct dsl_class *dsl_library_class(const char *name, const char *doc, struct dsl_value base,
                                    const struct dsl_builtin *methods);

/* The module a class was defined in: its __module__ ("minitorch.tensor" for a package file's,
 * "__main__" for a cell's), "builtins" for a built-in type. */
const char *dsl_class_module(const struct dsl_class *c);

/* A new class `name` deriving from base (borrowed; none for object): 0 with the class in *out,
 * or -1 after raising (TypeError: a base that cannot be derived from). */
int dsl_class_new(struct dsl_interp *in, const char *name, struct dsl_value base,
                  struct dsl_value *out);
/* `name: annotation` run in a class body (ns, in->class_ns): the annotation's text recorded in
 * the class's __annotations__ dict, in order (what dataclasses read). 0 or -1. */
int dsl_class_note_annotation(struct dsl_interp *in, struct dsl_attrs *ns, const char *name,
                              struct dsl_value text);
/* Marks the functions the class body bound as defined by cls (what super() needs). */
void dsl_class_adopt_methods(struct dsl_value cls);

/* obj.name, where obj is a class, an instance or a super object: 0 with a new value in *out, or
 * -1 after raising AttributeError (with a did-you-mean). */
int dsl_object_getattr(struct dsl_interp *in, struct dsl_value obj, const char *name,
                       struct dsl_value *out);
/* dsl_object_getattr for a name whose dsl_name_hash the caller has (a parsed `.name`). */
int dsl_object_getattr_hashed(struct dsl_interp *in, struct dsl_value obj, const char *name,
                              size_t hash, struct dsl_value *out);
/* obj.name = v (v borrowed) on a class or an instance: 0 or -1. */
int dsl_object_setattr(struct dsl_interp *in, struct dsl_value obj, const char *name,
                       struct dsl_value v);
/* dsl_object_setattr for a name whose dsl_name_hash the caller has. */
int dsl_object_setattr_hashed(struct dsl_interp *in, struct dsl_value obj, const char *name,
                              size_t hash, struct dsl_value v);
/* del obj.name: 0 or -1 (AttributeError). */
int dsl_object_delattr(struct dsl_interp *in, struct dsl_value obj, const char *name);

/* The attribute `name` found on inst's class chain without binding it (borrowed): a user
 * function or a builtin row (as DSL_BUILTIN) that takes self first, for calling inst.name(...)
 * without making a bound method. False when the instance's own attribute or no method has the
 * name, or it is no plain method (a staticmethod, a class variable). */
bool dsl_instance_method(struct dsl_value inst, const char *name, struct dsl_value *fn);
/* dsl_instance_method for a name whose dsl_name_hash the caller has. */
bool dsl_instance_method_hashed(struct dsl_value inst, const char *name, size_t hash,
                                struct dsl_value *fn);

/* The user function of classmethod `name` found on class cls's chain (borrowed), for calling
 * cls.name(...) with cls first without making a bound method; false for anything else. */
bool dsl_class_method_hashed(struct dsl_value cls, const char *name, size_t hash,
                             struct dsl_value *fn);
/* What obj.name(...) calls, as call site attr (its ATTR node) finds it through the node's
 * caches (ast.h), so that a call in a loop looks its class chain up once: DSL_CALLEE_METHOD,
 * *fn (borrowed) called with obj first, without a bound method made for the one call;
 * DSL_CALLEE_PLAIN, *fn (borrowed) called as it is; DSL_CALLEE_NONE, for the general read of
 * obj.name to answer. */
enum dsl_callee { DSL_CALLEE_NONE, DSL_CALLEE_METHOD, DSL_CALLEE_PLAIN };
/* Of an instance: METHOD, a function or a builtin row of its class chain that no attribute of
 * its own shadows (dsl_instance_method_hashed); PLAIN, its own attribute, where no property of
 * the chain comes first (a module's function: operators.mul(a, b)). */
enum dsl_callee dsl_instance_callee_at(struct dsl_value inst, const struct dsl_node *attr,
                                       struct dsl_value *fn);
/* Of a class: METHOD, the function of a classmethod (dsl_class_method_hashed), called with the
 * class first; PLAIN, the function of a staticmethod (Add.forward(ctx, a, b)). */
enum dsl_callee dsl_class_callee_at(struct dsl_value cls, const struct dsl_node *attr,
                                    struct dsl_value *fn);
/* Read attr (an ATTR node) of instance inst whose own attributes did not give it
 * (dsl_instance_own_attr): the class chain's slot through attr's method cache, where that is a
 * property, or a class value (a method bound to inst) that no own attribute shadows, and the
 * name no `__special__`. 1 with *out, -1 after raising, 0 for a read to take the general way
 * (nothing done): a miss, a builtin's row, a property under a __getattr__ hook. */
int dsl_instance_attr_at(struct dsl_interp *in, struct dsl_value inst, const struct dsl_node *attr,
                         struct dsl_value *out);

/* A new instance of user class cls with no attributes and no __init__ run (object.__new__):
 * 0, or -1 after raising. */
int dsl_instance_blank(struct dsl_interp *in, struct dsl_value cls, struct dsl_value *out);
/* Calls a class: a built-in type's constructor, or a new instance with __init__ run on it. */
int dsl_class_call(struct dsl_interp *in, struct dsl_value cls, const struct dsl_value *pos,
                   size_t npos, char *const *kwnames, const struct dsl_value *kwvals, size_t nkw,
                   struct dsl_value *out);
/* Calls an instance: its class's __call__. */
int dsl_instance_call(struct dsl_interp *in, struct dsl_value inst, const struct dsl_value *pos,
                      size_t npos, char *const *kwnames, const struct dsl_value *kwvals, size_t nkw,
                      struct dsl_value *out);

/* Whether v is an instance of class c or of a class deriving from it. */
bool dsl_isinstance(struct dsl_value v, const struct dsl_class *c);
/* The built-in exception class c derives from (class MyError(ValueError)), or NULL: then c's
 * instances are exceptions, raised and caught as Python's are (exceptions.c). */
const struct dsl_exc_type *dsl_class_exc_base(const struct dsl_class *c);
/* BaseException's method `name` (__init__, __str__, __repr__) as a row, which a class deriving
 * from an exception reaches as Exception.__init__(self, msg); NULL for another name. */
const struct dsl_builtin *dsl_exception_method(const char *name);
/* Whether class a is b or derives from it. */
bool dsl_class_derives(const struct dsl_class *a, const struct dsl_class *b);

/* The text of an instance (its class's __repr__ or __str__, else Python's default) or of a
 * super object: a dsl_vstatus (DSL_V_RAISED when __repr__ raised on dsl_running). */
int dsl_instance_text(struct render_buf *b, struct dsl_value v, bool repr);

/* The attribute names completion offers after `v.` for an instance or a class: its own, then
 * its class chain's (attributes, then methods of library classes). Writes at most cap into out
 * (may be NULL) and returns how many there are. Borrowed. */
size_t dsl_attr_names(struct dsl_value v, const char **out, size_t cap);
/* help() of a class or an instance: the class line, docstring, attributes and methods by the
 * class that defines them. 0, or -1 when the buffer failed. */
int dsl_class_help(struct render_buf *b, struct dsl_value v);
/* Shift-Tab on v.name for an instance or a class: true with the help appended when v has it. */
bool dsl_attr_help(struct render_buf *b, struct dsl_value v, const char *name);

/* The function (a user function, or a builtin row as DSL_BUILTIN) that c's chain binds a special
 * method `name` to, as Python finds one: on the class, never the instance; a staticmethod's
 * function. False when none does (object's own are not counted). Borrowed. */
bool dsl_class_special(const struct dsl_class *c, const char *name, struct dsl_value *fn);
/* dsl_class_special for a name whose dsl_name_hash the caller has (an interned one is found
 * without reading its text). */
bool dsl_class_special_hashed(const struct dsl_class *c, const char *name, size_t hash,
                              struct dsl_value *fn);

/* Whether class c itself may have a property named by hash (its property_bits). */
static inline bool dsl_class_property_bit(const struct dsl_class *c, size_t hash)
{
    return c->has_property && ((c->property_bits >> (hash & 63)) & 1);
}

/* Whether a class of c's chain may have a property named by hash (false: none has): asked
 * now, as a base may gain one after its subclasses were made. */
static inline bool dsl_class_may_have_property(const struct dsl_class *c, size_t hash)
{
    for (; c; c = c->base.kind == DSL_CLASS ? c->base.as.cls : NULL)
        if (dsl_class_property_bit(c, hash)) return true;
    return false;
}

/* The slot of the instance's own attribute `name` (interned; hash its dsl_name_hash), or NULL
 * when it has none. *pos is where an earlier read or store of a node found it (its position +
 * 1; 0: none): tried first, and updated. Inline, with the position compared by the interned
 * name's pointer, as every attribute read and plain store asks it. */
static inline struct dsl_value *dsl_instance_own_slot(const struct dsl_instance *inst,
                                                      const char *name, size_t hash, size_t *pos)
{
    const struct dsl_attrs *a = &inst->attrs;
    size_t p = *pos;
    if (p && p <= a->len && a->items[p - 1].name == name) return &a->items[p - 1].value;
    for (size_t i = 0; !a->index && i < a->len; i++) /* a few names: a scan, as attrs_find's */
        if (a->items[i].name == name) {
            *pos = i + 1;
            return &a->items[i].value;
        }
    return a->index ? dsl_attrs_find_hashed(a, name, hash) : NULL;
}

/* The slot of the instance's own attribute `name` when a read inst.name gives it: the commonest
 * read, self.w. NULL when the read must look further (no such own attribute, or a property of
 * the class chain may have the name). */
static inline struct dsl_value *dsl_instance_own_attr(const struct dsl_instance *inst,
                                                      const char *name, size_t hash, size_t *pos)
{
    if (dsl_class_may_have_property(inst->cls.as.cls, hash)) return NULL;
    return dsl_instance_own_slot(inst, name, hash, pos);
}

/* Whether a store of the attribute named by hash into an instance of c is its own attribute's,
 * nothing else to look for: no class of the chain has a __setattr__ hook, a property of that
 * name's bit, or an exception base (whose `args` is a setter). One walk of the chain: the
 * commonest store, self.x = v. */
static inline bool dsl_class_plain_store(const struct dsl_class *c, size_t hash)
{
    for (; c; c = c->base.kind == DSL_CLASS ? c->base.as.cls : NULL)
        if (c->has_setattr || c->exc_base || dsl_class_property_bit(c, hash)) return false;
    return true;
}

/* obj.__dict__ and vars(obj) of an instance or a user function: a live view of its attributes
 * (0, or -1 after raising; CPython's TypeError for an instance whose class has no_dict); the
 * view's d[key], d[key] = v, del d[key], `key in d`, len(d), its keys in order,
 * and its methods (keys, values, items, get, update, pop, copy, setdefault). */
int dsl_attrs_view(struct dsl_interp *in, struct dsl_value inst, struct dsl_value *out);
static inline bool dsl_is_attrs_view(struct dsl_value v)
{
    return v.kind == DSL_METHOD && v.as.m->wrap == DSL_WRAP_ATTRS;
}
int dsl_attrs_view_getitem(struct dsl_interp *in, struct dsl_value view, struct dsl_value key,
                           struct dsl_value *out);
int dsl_attrs_view_setitem(struct dsl_interp *in, struct dsl_value view, struct dsl_value key,
                           struct dsl_value v);
int dsl_attrs_view_delitem(struct dsl_interp *in, struct dsl_value view, struct dsl_value key);
int dsl_attrs_view_keys(struct dsl_interp *in, struct dsl_value view, struct dsl_value *out);
/* A dict of the view's attributes now (a new reference): 0, or -1 after raising. */
int dsl_attrs_view_dict(struct dsl_interp *in, struct dsl_value view, struct dsl_value *out);
int dsl_wrapper_getattr(struct dsl_interp *in, struct dsl_value v, const char *name,
                        struct dsl_value *out);

/* Builtins on classes, rows of the library's table: isinstance, issubclass, type, super,
 * staticmethod, classmethod, property, vars, getattr, setattr, hasattr. */
int dsl_bi_isinstance(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_issubclass(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_type(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_super(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_staticmethod(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_classmethod(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_property(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_vars(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_getattr(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_setattr(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_delattr(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
/* del obj.name: an instance's or a class's attribute (through __delattr__); other values have
 * none to delete (AttributeError). 0 or -1. */
int dsl_delattr(struct dsl_interp *in, struct dsl_value obj, const char *name);
int dsl_bi_hasattr(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
/* hasattr(obj, name) into *has: 0, or -1 after raising an error other than AttributeError that
 * reading the attribute raised. */
int dsl_hasattr(struct dsl_interp *in, struct dsl_value obj, const char *name, bool *has);

#endif
