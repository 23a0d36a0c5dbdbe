/* dataclasses.c — Python's dataclasses: @dataclass reads a class's annotated names (its
 * __annotations__, which a class body records in order) and gives it __init__, __repr__ and
 * __eq__ as Python generates them; field(), fields(), asdict(), astuple(), is_dataclass(),
 * MISSING.
 *
 * A field is an instance of the library class Field (name, type, default, default_factory, init,
 * repr, compare), kept in the class's __dataclass_fields__ dict in definition order, a base
 * dataclass's first. The generated methods are builtin rows of the class, found after what its
 * body defines, so a method the class writes itself stays its own, as with Python's dataclass;
 * they read the fields from the instance's class when called. */
#include "lib/modules/module.h"

#include "lang/classes.h"
#include "lang/datamodel.h"
#include "lang/dict.h"
#include "lang/exceptions.h"
#include "lang/operators.h"
#include "lang/set.h"

#include <stdlib.h>
#include <string.h>

/* ---- MISSING ---------------------------------------------------------------------------- */

static int missing_repr(struct render_buf *b, const void *state)
{
    (void)state;
    render_buf_puts(b, "<dataclasses._MISSING_TYPE object>");
    return b->nomem ? DSL_V_NOMEM : DSL_V_OK;
}

static int missing_getattr(struct dsl_interp *in, struct dsl_value self, const char *name,
                           struct dsl_value *out)
{
    (void)self, (void)out;
    return dsl_raise(in, "AttributeError", "'_MISSING_TYPE' object has no attribute '%s'", name);
}

static const struct dsl_object_class missing_class = {
    .name = "_MISSING_TYPE",
    .doc = "dataclasses.MISSING: a field without a default (or default_factory).",
    .free = mod_free_nothing,
    .repr = missing_repr,
    .getattr = missing_getattr,
};

/* One object for the session's life: its count starts too high to reach zero. */
static struct dsl_object missing_obj = {.refs = SIZE_MAX / 2, .cls = &missing_class};

static struct dsl_value missing(void)
{
    missing_obj.refs++;
    return (struct dsl_value){.kind = DSL_OBJECT, .as.obj = &missing_obj};
}

static bool is_missing(struct dsl_value v)
{
    return v.kind == DSL_OBJECT && v.as.obj == &missing_obj;
}

static int v_missing(struct dsl_interp *in, struct dsl_value *out)
{
    (void)in;
    *out = missing();
    return 0;
}

/* ---- Field ------------------------------------------------------------------------------ */

static int field_repr_row(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);

static const struct dsl_builtin field_rows[] = {
    {"__repr__", "__repr__()", 0, 0, NULL, field_repr_row, "Field(name=..., type=..., ...)"},
    {NULL, NULL, 0, 0, NULL, NULL, NULL},
};

static struct dsl_class *field_class(void)
{
    return dsl_library_class("Field", "A dataclass's field: what field() makes, fields() lists.",
                             dsl_none(), field_rows);
}

static bool is_field(struct dsl_value v)
{
    struct dsl_class *c = field_class();
    return c && v.kind == DSL_INSTANCE && v.as.inst->cls.as.cls == c;
}

/* field.name's value (borrowed; none when unset). */
static struct dsl_value get(struct dsl_value obj, const char *name)
{
    struct dsl_value *slot = dsl_attrs_find(&obj.as.inst->attrs, name);
    return slot ? *slot : dsl_none();
}

/* A Field's attributes, in field_attrs' order: every call of a generated method reads them
 * (get_at). */
enum { F_NAME, F_TYPE, F_DEFAULT, F_FACTORY, F_INIT, F_REPR, F_COMPARE, F_COUNT };
static const char *const field_attrs[] = {"name", "type", "default", "default_factory",
                                          "init", "repr", "compare", NULL};
static struct dsl_name_const field_names[F_COUNT] = {
    DSL_NAME_CONST("name"),    DSL_NAME_CONST("type"),
    DSL_NAME_CONST("default"), DSL_NAME_CONST("default_factory"),
    DSL_NAME_CONST("init"),    DSL_NAME_CONST("repr"),
    DSL_NAME_CONST("compare"),
};

/* get(field, field_attrs[i]). */
static struct dsl_value get_at(struct dsl_value field, size_t i)
{
    struct dsl_value *slot = dsl_attrs_find_const(&field.as.inst->attrs, &field_names[i]);
    return slot ? *slot : dsl_none();
}

/* Every attribute of a Field, in field_attrs' order, into v (borrowed): where new_field put
 * them, unless the program has deleted and set one again (then looked up by name). Each
 * instance a dataclass makes reads them all for each field. */
static void field_values(struct dsl_value field, struct dsl_value v[F_COUNT])
{
    const struct dsl_attrs *a = &field.as.inst->attrs;
    for (size_t k = 0; k < F_COUNT; k++) {
        if (!field_names[k].name) dsl_name_const_init(&field_names[k]);
        v[k] = k < a->len && a->items[k].name == field_names[k].name ? a->items[k].value
                                                                     : get_at(field, k);
    }
}

/* obj.name = v (borrowed) on an instance, without its class's hooks. 0 or -1. */
static int put(struct dsl_interp *in, struct dsl_value obj, const char *name, struct dsl_value v)
{
    int st = dsl_attrs_set(&obj.as.inst->attrs, name, dsl_value_retain(v));
    return st != DSL_V_OK ? dsl_raise_status(in, st) : 0;
}

/* A new Field with default and factory (borrowed), the rest as given. */
static int new_field(struct dsl_interp *in, struct dsl_value def, struct dsl_value factory,
                     bool init, bool repr, bool compare, struct dsl_value *out)
{
    struct dsl_class *c = field_class();
    if (!c) return dsl_raise_status(in, DSL_V_NOMEM);
    struct dsl_value cls = {.kind = DSL_CLASS, .as.cls = c};
    if (dsl_class_call(in, cls, NULL, 0, NULL, NULL, 0, out) != 0) return -1;
    struct dsl_value vals[] = {dsl_none(),     dsl_none(),       def, factory, dsl_bool(init),
                               dsl_bool(repr), dsl_bool(compare)};
    for (size_t i = 0; field_attrs[i]; i++)
        if (put(in, *out, field_attrs[i], vals[i]) != 0) {
            dsl_value_release(*out);
            return -1;
        }
    return 0;
}

static int field_repr_row(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct render_buf b;
    render_buf_init(&b, 0);
    render_buf_puts(&b, "Field(");
    int st = DSL_V_OK;
    for (size_t i = 0; field_attrs[i] && st == DSL_V_OK; i++) {
        render_buf_printf(&b, "%s%s=", i ? "," : "", field_attrs[i]);
        st = dsl_value_repr(&b, get(a->self, field_attrs[i]));
    }
    render_buf_putc(&b, ')');
    if (st == DSL_V_OK && b.nomem) st = DSL_V_NOMEM;
    if (st == DSL_V_OK) st = dsl_str_value(render_buf_str(&b), b.len, ret);
    render_buf_free(&b);
    return st != DSL_V_OK ? dsl_raise_status(in, st) : 0;
}

static const char *const field_params[] = {"default", "default_factory", "init",
                                           "repr",    "compare",         NULL};

static int d_field(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value def = a->has[0] ? a->slot[0] : missing();
    struct dsl_value factory = a->has[1] ? a->slot[1] : missing();
    int r = -1;
    if (!is_missing(def) && !is_missing(factory))
        dsl_raise(in, "ValueError", "cannot specify both default and default_factory");
    else
        r = new_field(in, def, factory, !a->has[2] || dsl_value_truthy(a->slot[2]),
                      !a->has[3] || dsl_value_truthy(a->slot[3]),
                      !a->has[4] || dsl_value_truthy(a->slot[4]), ret);
    if (!a->has[0]) dsl_value_release(def);
    if (!a->has[1]) dsl_value_release(factory);
    return r;
}

/* ---- the fields of a class -------------------------------------------------------------- */

/* cls's __dataclass_fields__ (borrowed), found on it or a base (*owner: that class, where
 * owner is not NULL); none when it is no dataclass. */
static struct dsl_value fields_in(struct dsl_value cls, const struct dsl_class **owner)
{
    for (const struct dsl_class *c = cls.kind == DSL_CLASS ? cls.as.cls : NULL; c;
         c = c->base.kind == DSL_CLASS ? c->base.as.cls : NULL) {
        static struct dsl_name_const fields = DSL_NAME_CONST("__dataclass_fields__");
        struct dsl_value *f = dsl_attrs_find_const(&c->attrs, &fields);
        if (f && f->kind == DSL_DICT) {
            if (owner) *owner = c;
            return *f;
        }
    }
    return dsl_none();
}

static struct dsl_value fields_of(struct dsl_value cls) { return fields_in(cls, NULL); }

/* The Field values of a fields dict, in order, into out[0..*n) (borrowed; room for d->len). */
static size_t field_list(const struct dsl_dict *d, struct dsl_value *out)
{
    size_t n = 0;
    for (size_t i = 0; i < d->n; i++)
        if (d->entries[i].live) out[n++] = d->entries[i].value;
    return n;
}

/* What an annotation's text says of its name: a class variable (typing.ClassVar), no field. */
static bool class_var(struct dsl_value text)
{
    const char *s = text.kind == DSL_STR ? text.as.s->data : "";
    while (*s == '"' || *s == '\'') s++;
    if (strncmp(s, "typing.", 7) == 0) s += 7;
    return strncmp(s, "ClassVar", 8) == 0;
}

/* A default Python refuses, shared by every instance: a list, a dict (or a set). */
static bool mutable_default(struct dsl_value v)
{
    return (v.kind == DSL_LIST && !dsl_is_tuple(v)) || v.kind == DSL_DICT;
}

/* The field of cls's own annotation `name` (text its type): its default from the class body,
 * a field() there, or none; the class attribute left the default (a field()'s), or removed. */
static int own_field(struct dsl_interp *in, struct dsl_class *c, struct dsl_value name,
                     struct dsl_value text, struct dsl_value *out)
{
    struct dsl_value *attr = dsl_attrs_find(&c->attrs, name.as.s->data);
    if (attr && is_field(*attr)) {
        *out = dsl_value_retain(*attr);
        struct dsl_value def = get(*out, "default");
        if (is_missing(def))
            dsl_attrs_remove(&c->attrs, name.as.s->data);
        else if (dsl_attrs_set(&c->attrs, name.as.s->data, dsl_value_retain(def)) != DSL_V_OK)
            return dsl_value_release(*out), dsl_raise_status(in, DSL_V_NOMEM);
    } else {
        if (attr && mutable_default(*attr))
            return dsl_raise(in, "ValueError",
                             "mutable default <class '%s'> for field %s is not allowed: use "
                             "default_factory",
                             dsl_type_name(*attr), name.as.s->data);
        struct dsl_value def = attr ? *attr : missing();
        int r = new_field(in, def, missing(), true, true, true, out);
        if (!attr) dsl_value_release(def);
        if (r != 0) return -1;
    }
    if (put(in, *out, "name", name) != 0 || put(in, *out, "type", text) != 0) {
        dsl_value_release(*out);
        return -1;
    }
    return 0;
}

/* The fields of dataclass c: its base's, then its own annotations', in a new dict. */
static int collect_fields(struct dsl_interp *in, struct dsl_class *c, struct dsl_dict **out)
{
    struct dsl_dict *d = dsl_dict_new();
    if (!d) return dsl_raise_status(in, DSL_V_NOMEM);
    struct dsl_value dv = dsl_dict_value(d), base = fields_of(c->base), ann = dsl_none();
    for (size_t i = 0; base.kind == DSL_DICT && i < base.as.d->n; i++) {
        const struct dsl_dict_entry *e = &base.as.d->entries[i];
        if (e->live && dsl_dict_store(in, d, e->key, e->value) != 0) goto fail;
    }
    /* held: own_field changes the class's attributes, where it lives */
    struct dsl_value *slot = dsl_attrs_find(&c->attrs, "__annotations__");
    if (slot && slot->kind == DSL_DICT) ann = dsl_value_retain(*slot);
    for (size_t i = 0; ann.kind == DSL_DICT && i < ann.as.d->n; i++) {
        const struct dsl_dict_entry *e = &ann.as.d->entries[i];
        if (!e->live || e->key.kind != DSL_STR || class_var(e->value)) continue;
        struct dsl_value f;
        if (own_field(in, c, e->key, e->value, &f) != 0) goto fail;
        int r = dsl_dict_store(in, d, e->key, f);
        dsl_value_release(f);
        if (r != 0) goto fail;
    }
    dsl_value_release(ann);
    *out = d;
    return 0;
fail:
    dsl_value_release(ann);
    dsl_value_release(dv);
    return -1;
}

/* Python's rule for the generated __init__: a field without a default after one with. */
static int check_order(struct dsl_interp *in, const struct dsl_dict *d)
{
    bool defaulted = false;
    for (size_t i = 0; i < d->n; i++) {
        if (!d->entries[i].live) continue;
        struct dsl_value f = d->entries[i].value;
        if (!dsl_value_truthy(get(f, "init"))) continue;
        bool has = !is_missing(get(f, "default")) || !is_missing(get(f, "default_factory"));
        if (defaulted && !has)
            return dsl_raise(in, "TypeError", "non-default argument '%s' follows default argument",
                             get(f, "name").as.s->data);
        defaulted = defaulted || has;
    }
    return 0;
}

/* ---- the generated methods -------------------------------------------------------------- */

/* A field as the generated methods and asdict() read it. */
struct snap {
    struct dsl_value name, def, factory; /* name a string; held, or lent by a snapshot */
    bool init, repr, compare;
};

/* The fields that __init__, __repr__ and __eq__ use are those dataclass() found when it
 * decorated the class, as CPython makes those methods then: a Field changed afterwards (its
 * default, the fields dict) changes nothing they do. The snapshot is kept in the class as
 * __dataclass_params__ (where CPython keeps the decorator's options): a tuple of MISSING, the
 * class's SNAPSHOT_* bits, then one (name, default, default_factory, flags) tuple per field,
 * flags SNAP_* bits. A value of that name not so made (the program's: one that does not start
 * with MISSING and an int, or whose other items are not such tuples) sends the methods back to
 * the Fields as they are. The class's bits: whether it had a __post_init__ then, which the
 * generated __init__ calls (as CPython's, made then, calls it or not whatever the class gets
 * afterwards). */
enum { SNAP_INIT = 1, SNAP_REPR = 2, SNAP_COMPARE = 4 };
enum { SNAPSHOT_POST_INIT = 1 };
static struct dsl_name_const params_name = DSL_NAME_CONST("__dataclass_params__");

/* A Field's init, repr or compare: a bool as field() makes it, else its truth. */
static bool flag(struct dsl_value v) { return v.kind == DSL_BOOL ? v.as.b : dsl_value_truthy(v); }

/* The attributes of fv, a value of a fields dict, as they are now, into v (borrowed): 0, or -1
 * after raising when fv is no Field or its name no string. */
static int field_at(struct dsl_interp *in, struct dsl_value fv, struct dsl_value v[F_COUNT])
{
    if (fv.kind == DSL_INSTANCE) field_values(fv, v);
    if (fv.kind != DSL_INSTANCE) return dsl_raise(in, "TypeError", "a dataclass field is no Field");
    if (v[F_NAME].kind != DSL_STR)
        return dsl_raise(in, "TypeError", "a dataclass field's name must be a string");
    return 0;
}

/* The snapshot of fields dict d, with the class's bits, as a new tuple into *out: 0, or -1
 * after raising. */
static int make_snapshot(struct dsl_interp *in, const struct dsl_dict *d, int64_t class_bits,
                         struct dsl_value *out)
{
    struct dsl_list *l = dsl_list_new(d->len + 2);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    l->style = DSL_LIST_TUPLE;
    *out = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    dsl_list_push(l, missing()); /* room made */
    dsl_list_push(l, dsl_int(class_bits));
    for (size_t i = 0; i < d->n; i++) {
        if (!d->entries[i].live) continue;
        struct dsl_value v[F_COUNT];
        int r = field_at(in, d->entries[i].value, v), st = DSL_V_OK;
        struct dsl_list *e = r == 0 ? dsl_list_new(4) : NULL;
        if (r == 0 && !e) st = DSL_V_NOMEM;
        if (e) {
            e->style = DSL_LIST_TUPLE;
            int64_t bits = (flag(v[F_INIT]) ? SNAP_INIT : 0) | (flag(v[F_REPR]) ? SNAP_REPR : 0) |
                           (flag(v[F_COMPARE]) ? SNAP_COMPARE : 0);
            struct dsl_value items[4] = {v[F_NAME], v[F_DEFAULT], v[F_FACTORY], dsl_int(bits)};
            for (size_t k = 0; k < 4 && st == DSL_V_OK; k++)
                st = dsl_list_push(e, dsl_value_retain(items[k]));
            if (st == DSL_V_OK)
                st = dsl_list_push(l, (struct dsl_value){.kind = DSL_LIST, .as.l = e});
            else
                dsl_value_release((struct dsl_value){.kind = DSL_LIST, .as.l = e});
        }
        if (r != 0 || st != DSL_V_OK) {
            dsl_value_release(*out);
            return r != 0 ? -1 : dsl_raise_status(in, st);
        }
    }
    return 0;
}

/* Whether l is a snapshot of dataclass()'s making (the program may have replaced it). */
static bool is_snapshot(const struct dsl_list *l)
{
    if (l->len < 2 || !is_missing(l->items[0]) || l->items[1].kind != DSL_INT) return false;
    for (size_t i = 2; i < l->len; i++) {
        struct dsl_value e = l->items[i];
        if (!dsl_is_tuple(e) || e.as.l->len != 4 || e.as.l->items[0].kind != DSL_STR ||
            e.as.l->items[3].kind != DSL_INT)
            return false;
    }
    return true;
}

/* A snapshot worked out once for the generated methods, which every instance a dataclass makes
 * runs: its snaps (lent by the snapshot, which the plan holds), and each field's name interned
 * with its hash, as an instance's attribute table keys it. A few plans are kept (PLANS), each
 * holding its snapshot, so that a snapshot found at a plan's address is that plan's (tuples do
 * not change). A call holds its plan while it runs: a plan replaced meanwhile (a default
 * factory that makes instances of other dataclasses) stays whole until the call returns. */
struct plan {
    size_t refs;
    struct dsl_value snapshot;
    size_t n;
    struct snap *f;
    const char **iname;
    size_t *hash;
    bool post_init; /* SNAPSHOT_POST_INIT */
};

enum { PLANS = 8 };
static struct plan *plans[PLANS];
static size_t plans_next;

static void plan_release(struct plan *p)
{
    if (!p || --p->refs) return;
    for (size_t i = 0; p->iname && i < p->n; i++)
        if (p->iname[i]) dsl_name_release(p->iname[i]);
    dsl_value_release(p->snapshot);
    free(p->f);
    free(p->iname);
    free(p->hash);
    free(p);
}

/* A new plan (one reference) for snapshot l (is_snapshot), or NULL when out of memory. */
static struct plan *plan_new(const struct dsl_list *l)
{
    struct plan *p = calloc(1, sizeof *p);
    size_t n = l->len - 2; /* MISSING and the class's bits come first */
    if (!p) return NULL;
    p->refs = 1;
    p->snapshot =
        dsl_value_retain((struct dsl_value){.kind = DSL_LIST, .as.l = (struct dsl_list *)l});
    p->n = n;
    p->post_init = l->items[1].as.i & SNAPSHOT_POST_INIT;
    p->f = calloc(n + 1, sizeof *p->f);
    p->iname = calloc(n + 1, sizeof *p->iname);
    p->hash = calloc(n + 1, sizeof *p->hash);
    bool ok = p->f && p->iname && p->hash;
    for (size_t i = 0; ok && i < n; i++) {
        const struct dsl_value *e = l->items[i + 2].as.l->items;
        int64_t bits = e[3].as.i;
        p->f[i] = (struct snap){
            e[0], e[1], e[2], bits & SNAP_INIT, bits & SNAP_REPR, bits & SNAP_COMPARE};
        p->hash[i] = dsl_name_hash(e[0].as.s->data);
        ok = (p->iname[i] = dsl_name_intern(e[0].as.s->data, p->hash[i])) != NULL;
    }
    if (ok) return p;
    plan_release(p);
    return NULL;
}

/* The plan of dataclass c's snapshot (a new reference) into *out, or NULL when c has no
 * snapshot of dataclass()'s making: 0, or -1 after raising. */
static int plan_of(struct dsl_interp *in, const struct dsl_class *c, struct plan **out)
{
    *out = NULL;
    if (!params_name.name) dsl_name_const_init(&params_name);
    const struct dsl_value *v = dsl_attrs_find_const(&c->attrs, &params_name);
    if (!v || !dsl_is_tuple(*v)) return 0;
    for (size_t i = 0; i < PLANS; i++)
        if (plans[i] && plans[i]->snapshot.as.l == v->as.l) {
            plans[i]->refs++;
            *out = plans[i];
            return 0;
        }
    if (!is_snapshot(v->as.l)) return 0;
    struct plan *p = plan_new(v->as.l);
    if (!p) return dsl_raise_status(in, DSL_V_NOMEM);
    plan_release(plans[plans_next]);
    plans[plans_next] = p;
    plans_next = (plans_next + 1) % PLANS;
    p->refs++;
    *out = p;
    return 0;
}

/* The fields of self's class for one call of a method: an array of *n snaps, and what holds
 * their values while the method runs: the plan of the class's snapshot (generated: __init__,
 * __repr__, __eq__), or each snap its own, read from the Fields as they are now (asdict()).
 * What the program does to the class while the method runs (a default factory, __setattr__,
 * __eq__) changes nothing the method holds. */
struct snaps {
    struct snap *f;
    size_t n;
    struct plan *plan; /* the plan lending f, or NULL: each snap holds its values */
};

static void snaps_free(struct snaps *s)
{
    if (s->plan) {
        plan_release(s->plan);
        return;
    }
    for (size_t i = 0; i < s->n; i++) {
        dsl_value_release(s->f[i].name);
        dsl_value_release(s->f[i].def);
        dsl_value_release(s->f[i].factory);
    }
    free(s->f);
}

/* The fields of self's class into *s, from its snapshot (generated) or its Fields now: 0, or -1
 * after raising. */
static int snaps_of(struct dsl_interp *in, struct dsl_value self, bool generated, struct snaps *s)
{
    const struct dsl_class *c = NULL;
    struct dsl_value fv = self.kind == DSL_INSTANCE ? fields_in(self.as.inst->cls, &c) : dsl_none();
    *s = (struct snaps){NULL, 0, NULL};
    if (fv.kind != DSL_DICT) return dsl_raise(in, "TypeError", "not a dataclass instance");
    if (generated && plan_of(in, c, &s->plan) != 0) return -1;
    if (s->plan) {
        s->f = s->plan->f;
        s->n = s->plan->n;
        return 0;
    }
    const struct dsl_dict *d = fv.as.d;
    struct snap *f = calloc(d->len + 1, sizeof *f);
    if (!f) return dsl_raise_status(in, DSL_V_NOMEM);
    s->f = f;
    for (size_t i = 0; i < d->n && s->n < d->len; i++) {
        if (!d->entries[i].live) continue;
        struct dsl_value v[F_COUNT];
        if (field_at(in, d->entries[i].value, v) != 0) {
            snaps_free(s);
            return -1;
        }
        f[s->n++] = (struct snap){dsl_value_retain(v[F_NAME]),
                                  dsl_value_retain(v[F_DEFAULT]),
                                  dsl_value_retain(v[F_FACTORY]),
                                  flag(v[F_INIT]),
                                  flag(v[F_REPR]),
                                  flag(v[F_COMPARE])};
    }
    return 0;
}

/* The value of a field the call gives none for: its default, or its factory's result; *absent
 * when it has neither. 0 or -1. */
static int snap_default(struct dsl_interp *in, const struct snap *f, struct dsl_value *out,
                        bool *absent)
{
    *absent = false;
    if (!is_missing(f->def)) return *out = dsl_value_retain(f->def), 0;
    if (!is_missing(f->factory)) return dsl_call(in, f->factory, NULL, 0, NULL, NULL, 0, out);
    *absent = true;
    return 0;
}

/* CPython's TypeError for the required arguments a call left out: 'x', 'x' and 'y', ... */
static int raise_missing(struct dsl_interp *in, const char *cls, const char **names, size_t n)
{
    struct render_buf b;
    render_buf_init(&b, 0);
    for (size_t i = 0; i < n; i++)
        render_buf_printf(&b, "%s'%s'",
                          i == 0       ? ""
                          : i + 1 == n ? (n > 2 ? ", and " : " and ")
                                       : ", ",
                          names[i]);
    dsl_raise(in, "TypeError", "%s.__init__() missing %zu required positional argument%s: %s", cls,
              n, n == 1 ? "" : "s", render_buf_str(&b));
    render_buf_free(&b);
    return -1;
}

/* The positional and keyword arguments of a call of the generated __init__, checked against
 * the init fields as CPython checks a function's: 0, or -1 after raising. */
static int check_call(struct dsl_interp *in, const struct dsl_args *a, const char *cls,
                      const struct snap *f, size_t n)
{
    size_t ninit = 0, nrequired = 0;
    for (size_t i = 0; i < n; i++) {
        if (!f[i].init) continue;
        ninit++;
        nrequired += is_missing(f[i].def) && is_missing(f[i].factory);
    }
    if (a->nrest > ninit && nrequired == ninit)
        return dsl_raise(in, "TypeError",
                         "%s.__init__() takes %zu positional argument%s but %zu %s given", cls,
                         ninit + 1, ninit ? "s" : "", a->nrest + 1, a->nrest ? "were" : "was");
    if (a->nrest > ninit)
        return dsl_raise(in, "TypeError",
                         "%s.__init__() takes from %zu to %zu positional arguments but %zu were "
                         "given",
                         cls, nrequired + 1, ninit + 1, a->nrest + 1);
    for (size_t k = 0; k < a->nkw; k++) { /* every keyword names an init field, once */
        size_t p = 0, i = 0;
        for (; i < n; i++) {
            if (!f[i].init) continue;
            if (strcmp(f[i].name.as.s->data, a->kwnames[k]) == 0) break;
            p++;
        }
        if (i == n)
            return dsl_raise(in, "TypeError",
                             "%s.__init__() got an unexpected keyword argument '%s'", cls,
                             a->kwnames[k]);
        if (p < a->nrest)
            return dsl_raise(in, "TypeError", "%s.__init__() got multiple values for argument '%s'",
                             cls, a->kwnames[k]);
    }
    return 0;
}

/* Each field's value for this call, into v[0..n), set[i] false for an init=False field without
 * a default (which is not set, as in Python); the required ones the call left out named in
 * absent. */
static int call_values(struct dsl_interp *in, const struct dsl_args *a, const struct snap *f,
                       size_t n, struct dsl_value *v, bool *set, const char **absent,
                       size_t *nabsent)
{
    for (size_t i = 0, p = 0; i < n; i++) {
        bool missing_arg = false;
        v[i] = dsl_none();
        int r = 0;
        if (!f[i].init) {
            r = snap_default(in, &f[i], &v[i], &missing_arg);
            set[i] = !missing_arg;
        } else if (p < a->nrest) {
            v[i] = dsl_value_retain(a->rest[p++]);
            set[i] = true;
        } else {
            p++;
            size_t k = 0;
            while (k < a->nkw && strcmp(a->kwnames[k], f[i].name.as.s->data) != 0) k++;
            if (k < a->nkw)
                v[i] = dsl_value_retain(a->kwvals[k]);
            else
                r = snap_default(in, &f[i], &v[i], &missing_arg);
            if (missing_arg) absent[(*nabsent)++] = f[i].name.as.s->data;
            set[i] = true;
        }
        if (r != 0) return -1;
    }
    return 0;
}

static int dc_init(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value self = a->self;
    struct snaps held;
    if (snaps_of(in, self, true, &held) != 0) return -1;
    const struct snap *f = held.f;
    size_t n = held.n;
    const char *cls = dsl_type_name(self);
    /* most dataclasses have few fields: their room on the C stack (each instance made runs
     * this: MiniTorch's Context, ScalarHistory) */
    enum { SMALL = 8 };
    struct dsl_value small_v[SMALL];
    bool small_set[SMALL];
    const char *small_absent[SMALL];
    bool small = n <= SMALL;
    struct dsl_value *v = small ? small_v : calloc(n, sizeof *v);
    bool *set = small ? small_set : calloc(n, sizeof *set);
    const char **absent = small ? small_absent : calloc(n, sizeof *absent);
    size_t nabsent = 0;
    for (size_t i = 0; small && i < n; i++) v[i] = dsl_none(), set[i] = false;
    int r =
        !v || !set || !absent ? dsl_raise_status(in, DSL_V_NOMEM) : check_call(in, a, cls, f, n);
    if (r == 0) r = call_values(in, a, f, n, v, set, absent, &nabsent);
    if (r == 0 && nabsent) r = raise_missing(in, cls, absent, nabsent);
    struct dsl_instance *o = self.as.inst; /* self is an instance: snaps_of */
    for (size_t i = 0; i < n && r == 0; i++) {
        if (!set[i]) continue;
        const char *iname = held.plan ? held.plan->iname[i] : NULL;
        size_t hash = held.plan ? held.plan->hash[i] : 0;
        /* a new attribute with nothing to ask (no __setattr__, no property of that name), as
         * `self.name = value` stores it: its interned name, with no second search */
        if (iname && dsl_class_plain_store(o->cls.as.cls, hash) &&
            !dsl_attrs_find_hashed(&o->attrs, iname, hash)) {
            int st = dsl_attrs_add_interned(&o->attrs, iname, hash, dsl_value_retain(v[i]));
            if (st != DSL_V_OK) r = dsl_raise_status(in, st);
        } else {
            r = dsl_object_setattr(in, self, f[i].name.as.s->data, v[i]);
        }
    }
    for (size_t i = 0; v && i < n; i++) dsl_value_release(v[i]);
    if (!small) {
        free(v);
        free(set);
        free(absent);
    }
    /* self.__post_init__(): where the class had one when decorated, as CPython's generated
     * __init__ (made then) calls it, looked up on self now; without its snapshot, where the
     * class has one now. A plain method of the class is called without binding it. */
    static struct dsl_name_const post_init = DSL_NAME_CONST("__post_init__");
    if (!post_init.name) dsl_name_const_init(&post_init);
    bool decided = held.plan != NULL, post = decided && held.plan->post_init;
    snaps_free(&held);
    if (r == 0 && (post || !decided)) {
        struct dsl_value fn, out;
        bool plain = dsl_instance_method_hashed(self, post_init.name, post_init.hash, &fn);
        if (plain) {
            r = dsl_call_method(in, fn, self, NULL, 0, NULL, NULL, 0, &out);
        } else if (post && (r = dsl_getattr(in, self, post_init.name, &fn)) == 0) {
            r = dsl_call(in, fn, NULL, 0, NULL, NULL, 0, &out);
            dsl_value_release(fn);
        }
        if (r == 0 && (plain || post)) dsl_value_release(out);
    }
    if (r != 0) return -1;
    *ret = dsl_none();
    return 0;
}

/* The instances whose generated __repr__ is running, as reprlib.recursive_repr keeps them:
 * one met again shows as "...". */
#define REPR_NESTING 64
static const void *in_repr[REPR_NESTING];
static int nrepr;

static int dc_repr(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    for (int i = 0; i < nrepr; i++)
        if (in_repr[i] == a->self.as.inst) return dsl_str_value("...", 3, ret) ? -1 : 0;
    if (nrepr == REPR_NESTING)
        return dsl_raise(in, "RecursionError", "maximum recursion depth exceeded in __repr__");
    struct snaps held;
    if (snaps_of(in, a->self, true, &held) != 0) return -1;
    const struct snap *f = held.f;
    size_t n = held.n;
    in_repr[nrepr++] = a->self.as.inst;
    struct render_buf b;
    render_buf_init(&b, 0);
    render_buf_printf(&b, "%s(", dsl_type_name(a->self));
    int st = DSL_V_OK;
    bool first = true;
    for (size_t i = 0; i < n && st == DSL_V_OK; i++) {
        if (!f[i].repr) continue;
        struct dsl_value v;
        if (dsl_getattr(in, a->self, f[i].name.as.s->data, &v) != 0) {
            st = DSL_V_RAISED;
            break;
        }
        render_buf_printf(&b, "%s%s=", first ? "" : ", ", f[i].name.as.s->data);
        first = false;
        st = dsl_value_repr(&b, v);
        dsl_value_release(v);
    }
    nrepr--;
    snaps_free(&held);
    render_buf_putc(&b, ')');
    if (st == DSL_V_OK && b.nomem) st = DSL_V_NOMEM;
    if (st == DSL_V_OK) st = dsl_str_value(render_buf_str(&b), b.len, ret);
    render_buf_free(&b);
    return st == DSL_V_RAISED ? -1 : st != DSL_V_OK ? dsl_raise_status(in, st) : 0;
}

/* The compared fields of obj as a tuple (a new reference). */
static int compared(struct dsl_interp *in, struct dsl_value obj, const struct snap *f, size_t n,
                    struct dsl_value *out)
{
    struct dsl_list *l = dsl_list_new(n);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    l->style = DSL_LIST_TUPLE;
    *out = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    for (size_t i = 0; i < n; i++) {
        struct dsl_value v;
        if (!f[i].compare) continue;
        int st = dsl_getattr(in, obj, f[i].name.as.s->data, &v) != 0 ? -1 : dsl_list_push(l, v);
        if (st != 0) {
            dsl_value_release(*out);
            return in->ename ? -1 : dsl_raise_status(in, st);
        }
    }
    return 0;
}

static int dc_eq(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value self = a->self, other = a->slot[0], x = dsl_none(), y = dsl_none();
    if (other.kind != DSL_INSTANCE || self.kind != DSL_INSTANCE ||
        other.as.inst->cls.as.cls != self.as.inst->cls.as.cls) {
        *ret = dsl_not_implemented();
        return 0;
    }
    struct snaps held;
    if (snaps_of(in, self, true, &held) != 0) return -1;
    bool eq = false;
    int r = compared(in, self, held.f, held.n, &x);
    if (r == 0) r = compared(in, other, held.f, held.n, &y);
    snaps_free(&held);
    if (r == 0) r = dsl_equal(in, x, y, &eq);
    dsl_value_release(x);
    dsl_value_release(y);
    if (r != 0) return -1;
    *ret = dsl_bool(eq);
    return 0;
}

/* The generated methods, for each choice of init, repr and eq (bit 0, 1, 2 of the index). */
#define INIT_ROW                                                                                   \
    {                                                                                              \
        "__init__", "__init__(self, *fields)", 0, -1, dsl_any_keywords, dc_init,                   \
            "Sets each field, from the arguments or its default; then __post_init__()."            \
    }
#define REPR_ROW                                                                                   \
    {                                                                                              \
        "__repr__", "__repr__(self)", 0, 0, NULL, dc_repr, "Name(field=value, ...)"                \
    }
#define EQ_ROW                                                                                     \
    {                                                                                              \
        "__eq__", "__eq__(self, other)", 1, 1, NULL, dc_eq,                                        \
            "The fields compared as a tuple, for an instance of the same class."                   \
    }
#define END_ROW                                                                                    \
    {                                                                                              \
        NULL, NULL, 0, 0, NULL, NULL, NULL                                                         \
    }
static const struct dsl_builtin generated[8][4] = {
    {END_ROW},
    {INIT_ROW, END_ROW},
    {REPR_ROW, END_ROW},
    {INIT_ROW, REPR_ROW, END_ROW},
    {EQ_ROW, END_ROW},
    {INIT_ROW, EQ_ROW, END_ROW},
    {REPR_ROW, EQ_ROW, END_ROW},
    {INIT_ROW, REPR_ROW, EQ_ROW, END_ROW},
};

/* ---- dataclass() ------------------------------------------------------------------------ */

static const char *const dataclass_params[] = {"init", "repr", "eq", "order", "frozen", NULL};

/* dataclass's options, from a call's keywords: a bitmask of init, repr, eq. */
static int options(struct dsl_interp *in, const struct dsl_args *a, int *mask)
{
    *mask = 0;
    for (int i = 0; i < 3; i++)
        if (!a->has[i] || dsl_value_truthy(a->slot[i])) *mask |= 1 << i;
    for (int i = 3; i < 5; i++)
        if (a->has[i] && dsl_value_truthy(a->slot[i]))
            return dsl_raise(in, "NotImplementedError",
                             "dataclass(%s=True) is not supported in the MiniTorch language",
                             dataclass_params[i]);
    return 0;
}

static bool generated_rows(const struct dsl_builtin *m);

static int make_dataclass(struct dsl_interp *in, struct dsl_value cls, int mask,
                          struct dsl_value *ret)
{
    if (cls.kind != DSL_CLASS || cls.as.cls->builtin)
        return dsl_raise(in, "TypeError",
                         "dataclass() should be called on a class of your own, "
                         "not %s",
                         dsl_type_name(cls));
    struct dsl_class *c = cls.as.cls;
    if (c->methods && generated_rows(c->methods) &&
        dsl_attrs_find(&c->attrs, "__dataclass_fields__")) {
        /* @dataclass again: as Python's, the methods made before stay (a method already in the
         * class is never replaced) and those missing are added; the fields stay those the
         * first pass read, which its __init__ takes (Python reads them again, with the defaults
         * the first pass left in the class, but its __init__ is the first one still) */
        int old = 0;
        while (generated[old] != c->methods) old++;
        int st = DSL_V_OK;
        if ((mask & 4) && !(old & 4) && !dsl_attrs_find(&c->attrs, "__hash__"))
            st = dsl_attrs_set(&c->attrs, "__hash__", dsl_none()); /* __eq__ added: as below */
        if (st != DSL_V_OK) return dsl_raise_status(in, st);
        c->methods = generated[old | mask];
        c->attrs.version = dsl_table_version(); /* new rows: call sites look again */
        *ret = dsl_value_retain(cls);
        return 0;
    }
    if (c->methods)
        return dsl_raise(in, "NotImplementedError",
                         "dataclass on a class deriving from a library class (%s) is not "
                         "supported in the MiniTorch language",
                         c->name);
    struct dsl_dict *d = NULL;
    if (collect_fields(in, c, &d) != 0) return -1;
    struct dsl_value dv = dsl_dict_value(d);
    if (check_order(in, d) != 0) {
        dsl_value_release(dv);
        return -1;
    }
    bool post_init;
    struct dsl_value snapshot;
    if (dsl_hasattr(in, cls, "__post_init__", &post_init) != 0 ||
        make_snapshot(in, d, post_init ? SNAPSHOT_POST_INIT : 0, &snapshot) != 0) {
        dsl_value_release(dv);
        return -1;
    }
    int st = dsl_attrs_set(&c->attrs, "__dataclass_fields__", dv);
    if (st == DSL_V_OK)
        st = dsl_attrs_set(&c->attrs, "__dataclass_params__", snapshot);
    else
        dsl_value_release(snapshot);
    /* __eq__ without __hash__ makes instances unhashable, as Python's dataclass does */
    if (st == DSL_V_OK && (mask & 4) && !dsl_attrs_find(&c->attrs, "__hash__"))
        st = dsl_attrs_set(&c->attrs, "__hash__", dsl_none());
    if (st != DSL_V_OK) return dsl_raise_status(in, st);
    c->methods = generated[mask];
    c->attrs.version = dsl_table_version(); /* new rows: call sites look again */
    *ret = dsl_value_retain(cls);
    return 0;
}

/* dataclass(init=..., ...) without a class: this decorator, bound to the options */
static int d_dataclass_with(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return make_dataclass(in, a->slot[0], (int)a->self.as.i, ret);
}

static const struct dsl_builtin dataclass_with = {
    "dataclass", "dataclass(cls)", 1, 1, NULL, d_dataclass_with, "@dataclass(...) applied."};

static int d_dataclass(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    int mask;
    if (options(in, a, &mask) != 0) return -1;
    if (a->nrest > 1) return dsl_raise(in, "TypeError", "dataclass() takes one class");
    if (a->nrest == 1) return make_dataclass(in, a->rest[0], mask, ret);
    return mod_bound(in, &dataclass_with, dsl_int(mask), ret);
}

/* ---- fields(), asdict(), is_dataclass() ------------------------------------------------- */

static struct dsl_value class_of(struct dsl_value v)
{
    return v.kind == DSL_INSTANCE ? v.as.inst->cls : v;
}

static int d_fields(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value f = fields_of(class_of(a->slot[0]));
    if (f.kind != DSL_DICT)
        return dsl_raise(in, "TypeError", "must be called with a dataclass type or instance");
    struct dsl_list *l = dsl_list_new(f.as.d->len);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    l->style = DSL_LIST_TUPLE;
    l->len = field_list(f.as.d, l->items);
    for (size_t i = 0; i < l->len; i++) {
        dsl_value_retain(l->items[i]);
        dsl_value_adopt(l->items[i]);
    }
    *ret = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    return 0;
}

static int d_is_dataclass(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)in;
    *ret = dsl_bool(fields_of(class_of(a->slot[0])).kind == DSL_DICT);
    return 0;
}

/* Whether a class's builtin rows are the ones @dataclass gave it (not a library class's). */
static bool generated_rows(const struct dsl_builtin *m)
{
    for (size_t i = 0; i < sizeof generated / sizeof generated[0]; i++)
        if (m == generated[i]) return true;
    return false;
}

/* The copies copy.deepcopy has made so far in one call (its memo): the same object reached
 * twice is copied once, and an instance that holds itself holds its copy. */
struct memo {
    const void **from;
    struct dsl_value *to; /* held */
    size_t n, cap;
};

static void memo_free(struct memo *m)
{
    for (size_t i = 0; i < m->n; i++) dsl_value_release(m->to[i]);
    free(m->from);
    free(m->to);
}

static int memo_put(struct dsl_interp *in, struct memo *m, const void *from, struct dsl_value to)
{
    if (m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 8;
        const void **f = realloc(m->from, cap * sizeof *f);
        if (f) m->from = f;
        struct dsl_value *t = f ? realloc(m->to, cap * sizeof *t) : NULL;
        if (!t) return dsl_raise_status(in, DSL_V_NOMEM);
        m->to = t;
        m->cap = cap;
    }
    m->from[m->n] = from;
    m->to[m->n++] = dsl_value_retain(to);
    return 0;
}

static bool memo_get(const struct memo *m, const void *from, struct dsl_value *out)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->from[i] == from) return *out = dsl_value_retain(m->to[i]), true;
    return false;
}

static int no_deepcopy(struct dsl_interp *in, struct dsl_value v)
{
    return dsl_raise(in, "NotImplementedError",
                     "asdict()/astuple() copy a field's value as copy.deepcopy does; copying a "
                     "'%s' value is not supported in the MiniTorch language",
                     dsl_type_name(v));
}

/* A plain instance's class, as copy.deepcopy copies it (a new instance, its attributes copied,
 * no __init__ run): false for a class that customises copying or pickling, derives from an
 * exception or from a library class, whose copy the kernel cannot make as Python would. */
static bool plain_class(const struct dsl_class *c)
{
    static const char *const hooks[] = {"__deepcopy__", "__reduce_ex__", "__reduce__",
                                        "__getstate__", "__setstate__",  NULL};
    struct dsl_value fn;
    if (dsl_class_exc_base(c)) return false;
    for (size_t i = 0; hooks[i]; i++)
        if (dsl_class_special(c, hooks[i], &fn)) return false;
    for (; c; c = c->base.kind == DSL_CLASS ? c->base.as.cls : NULL)
        if (c->builtin || (c->methods && !generated_rows(c->methods))) return false;
    return true;
}

/* copy.deepcopy(v) into *out: 0, or -1 after raising. */
static int deep_copy(struct dsl_interp *in, struct dsl_value v, struct memo *m, int depth,
                     struct dsl_value *out)
{
    if (depth > DSL_MAX_LIST_DEPTH)
        return dsl_raise(in, "RecursionError", "maximum recursion depth exceeded in deepcopy");
    switch (v.kind) {
    case DSL_NONE:
    case DSL_BOOL:
    case DSL_INT:
    case DSL_FLOAT:
    case DSL_STR:
    case DSL_RANGE:
    case DSL_BUILTIN:
    case DSL_FUNCTION:
    case DSL_CLASS:
    case DSL_EXC_TYPE:
        *out = dsl_value_retain(v); /* immutable, or copied by reference as Python's are */
        return 0;
    case DSL_OBJECT:
        if (!dsl_is_not_implemented(v) && !is_missing(v)) return no_deepcopy(in, v);
        *out = dsl_value_retain(v);
        return 0;
    case DSL_LIST:
    case DSL_DICT:
    case DSL_SET:
    case DSL_INSTANCE: break;
    default: return no_deepcopy(in, v);
    }
    const void *key = v.kind == DSL_LIST       ? (const void *)v.as.l
                      : v.kind == DSL_INSTANCE ? (const void *)v.as.inst
                                               : (const void *)v.as.d;
    if (memo_get(m, key, out)) return 0;
    if (dsl_is_ndarray(v)) { /* numpy's __deepcopy__: a copy of the array */
        struct dsl_value copy;
        if (dsl_getattr(in, v, "copy", &copy) != 0) return -1;
        int r = dsl_call(in, copy, NULL, 0, NULL, NULL, 0, out);
        dsl_value_release(copy);
        return r != 0 ? -1 : memo_put(in, m, key, *out);
    }
    int r = 0;
    if (v.kind == DSL_LIST) {
        struct dsl_list *l = dsl_list_new(v.as.l->len);
        if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
        l->style = v.as.l->style;
        *out = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
        bool same = true, tup = dsl_is_tuple(v);
        if (!tup) r = memo_put(in, m, key, *out);
        for (size_t i = 0; r == 0 && i < v.as.l->len; i++) {
            struct dsl_value x = dsl_value_retain(v.as.l->items[i]), y;
            r = deep_copy(in, x, m, depth + 1, &y);
            if (r == 0) {
                same = same && dsl_value_is(x, y);
                int st = dsl_list_push(l, y);
                if (st != DSL_V_OK) r = dsl_raise_status(in, st);
            }
            dsl_value_release(x);
        }
        if (r == 0 && same && tup) { /* a tuple of what copies as itself */
            dsl_value_release(*out);
            *out = dsl_value_retain(v);
        }
        if (r == 0 && tup) r = memo_put(in, m, key, *out);
    } else if (v.kind == DSL_INSTANCE) {
        if (!plain_class(v.as.inst->cls.as.cls)) return no_deepcopy(in, v);
        if (dsl_instance_blank(in, v.as.inst->cls, out) != 0) return -1;
        r = memo_put(in, m, key, *out); /* first: an attribute may lead back to v */
        /* the attributes as they are now, each read by name: a copy may run user code */
        for (size_t i = 0; r == 0 && i < v.as.inst->attrs.len; i++) {
            char *name = strdup(v.as.inst->attrs.items[i].name);
            struct dsl_value x = dsl_value_retain(v.as.inst->attrs.items[i].value), y;
            r = name ? deep_copy(in, x, m, depth + 1, &y) : dsl_raise_status(in, DSL_V_NOMEM);
            if (r == 0) {
                int st = dsl_attrs_set(&out->as.inst->attrs, name, y);
                if (st != DSL_V_OK) r = dsl_raise_status(in, st);
            }
            dsl_value_release(x);
            free(name);
        }
    } else { /* a dict, a set or a frozenset: keys (and values) copied */
        bool set = v.kind == DSL_SET;
        struct dsl_dict *d = set ? dsl_set_new(v.as.d->frozen) : dsl_dict_new();
        if (!d) return dsl_raise_status(in, DSL_V_NOMEM);
        *out = set ? dsl_set_value(d) : dsl_dict_value(d);
        if (!set) r = memo_put(in, m, key, *out);
        for (size_t i = 0; r == 0 && i < v.as.d->n; i++) {
            if (!v.as.d->entries[i].live) continue;
            struct dsl_value k = dsl_value_retain(v.as.d->entries[i].key);
            struct dsl_value x = set ? dsl_none() : dsl_value_retain(v.as.d->entries[i].value);
            struct dsl_value k2 = dsl_none(), x2 = dsl_none();
            r = deep_copy(in, k, m, depth + 1, &k2);
            if (r == 0 && !set) r = deep_copy(in, x, m, depth + 1, &x2);
            if (r == 0) r = set ? dsl_set_add(in, d, k2) : dsl_dict_store(in, d, k2, x2);
            dsl_value_release(k);
            dsl_value_release(x);
            dsl_value_release(k2);
            dsl_value_release(x2);
        }
        if (r == 0 && set) r = memo_put(in, m, key, *out);
    }
    if (r != 0) dsl_value_release(*out);
    return r;
}

/* v as asdict() (tuple false) or astuple() gives it, as CPython's _asdict_inner: a dataclass
 * instance as a dict (a tuple) of its fields, made by factory when given; lists, tuples and
 * dicts (keys and values) item by item; anything else as copy.deepcopy copies it. */
static int as_plain(struct dsl_interp *in, struct dsl_value v, bool tuple, struct dsl_value factory,
                    int depth, struct dsl_value *out)
{
    if (depth > DSL_MAX_LIST_DEPTH)
        return dsl_raise(in, "RecursionError", "maximum recursion depth exceeded in %s()",
                         tuple ? "astuple" : "asdict");
    int r = 0;
    if (v.kind == DSL_INSTANCE && fields_of(v.as.inst->cls).kind == DSL_DICT) {
        struct snaps held;
        if (snaps_of(in, v, false, &held) != 0) return -1;
        const struct snap *f = held.f;
        size_t n = held.n;
        struct dsl_list *l = dsl_list_new(n); /* the values, or (name, value) pairs */
        if (!l) {
            snaps_free(&held);
            return dsl_raise_status(in, DSL_V_NOMEM);
        }
        struct dsl_value items = {.kind = DSL_LIST, .as.l = l};
        for (size_t i = 0; i < n && r == 0; i++) {
            struct dsl_value x, y;
            r = dsl_getattr(in, v, f[i].name.as.s->data, &x);
            if (r == 0) {
                r = as_plain(in, x, tuple, factory, depth + 1, &y);
                dsl_value_release(x);
            }
            if (r == 0 && !tuple) {
                struct dsl_list *pair = dsl_list_new(2);
                if (!pair) {
                    dsl_value_release(y);
                    r = dsl_raise_status(in, DSL_V_NOMEM);
                } else {
                    pair->style = DSL_LIST_TUPLE;
                    dsl_list_push(pair, dsl_value_retain(f[i].name)); /* room made above */
                    dsl_list_push(pair, y);
                    y = (struct dsl_value){.kind = DSL_LIST, .as.l = pair};
                }
            }
            if (r == 0) {
                int st = dsl_list_push(l, y);
                if (st != DSL_V_OK) r = dsl_raise_status(in, st);
            }
        }
        snaps_free(&held);
        if (r == 0 && factory.kind != DSL_NONE) {
            r = dsl_call(in, factory, &items, 1, NULL, NULL, 0, out);
        } else if (r == 0 && tuple) {
            l->style = DSL_LIST_TUPLE;
            *out = dsl_value_retain(items);
        } else if (r == 0) {
            struct dsl_dict *d = dsl_dict_new();
            if (!d)
                r = dsl_raise_status(in, DSL_V_NOMEM);
            else
                *out = dsl_dict_value(d);
            for (size_t i = 0; r == 0 && i < l->len; i++)
                r = dsl_dict_store(in, d, l->items[i].as.l->items[0], l->items[i].as.l->items[1]);
            if (r != 0 && d) dsl_value_release(*out);
        }
        dsl_value_release(items);
        return r;
    }
    if (v.kind == DSL_LIST && !dsl_is_ndarray(v)) { /* read live, as CPython's generator */
        struct dsl_list *l = dsl_list_new(v.as.l->len);
        if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
        l->style = v.as.l->style;
        *out = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
        for (size_t i = 0; r == 0 && i < v.as.l->len; i++) {
            struct dsl_value x = dsl_value_retain(v.as.l->items[i]), y;
            r = as_plain(in, x, tuple, factory, depth + 1, &y);
            dsl_value_release(x);
            if (r == 0) {
                int st = dsl_list_push(l, y);
                if (st != DSL_V_OK) r = dsl_raise_status(in, st);
            }
        }
        if (r != 0) dsl_value_release(*out);
        return r;
    }
    if (v.kind == DSL_DICT) {
        struct dsl_dict *d = dsl_dict_new();
        if (!d) return dsl_raise_status(in, DSL_V_NOMEM);
        *out = dsl_dict_value(d);
        const struct dsl_dict *src = v.as.d;
        size_t len = src->len;
        for (size_t i = 0; r == 0 && i < src->n; i++) {
            if (!src->entries[i].live) continue;
            struct dsl_value k = dsl_value_retain(src->entries[i].key);
            struct dsl_value x = dsl_value_retain(src->entries[i].value);
            struct dsl_value k2 = dsl_none(), x2 = dsl_none();
            r = as_plain(in, k, tuple, factory, depth + 1, &k2);
            if (r == 0) r = as_plain(in, x, tuple, factory, depth + 1, &x2);
            if (r == 0) r = dsl_dict_store(in, d, k2, x2);
            dsl_value_release(k);
            dsl_value_release(x);
            dsl_value_release(k2);
            dsl_value_release(x2);
            if (r == 0 && src->len != len)
                r = dsl_raise(in, "RuntimeError", "dictionary changed size during iteration");
        }
        if (r != 0) dsl_value_release(*out);
        return r;
    }
    struct memo m = {0};
    r = deep_copy(in, v, &m, depth, out);
    memo_free(&m);
    return r;
}

static const char *const asdict_params[] = {"obj", "dict_factory", NULL};
static const char *const astuple_params[] = {"obj", "tuple_factory", NULL};

static int as_plain_call(struct dsl_interp *in, const struct dsl_args *a, bool tuple,
                         struct dsl_value *ret)
{
    if (a->slot[0].kind != DSL_INSTANCE || fields_of(a->slot[0].as.inst->cls).kind != DSL_DICT)
        return dsl_raise(in, "TypeError", "%s() should be called on dataclass instances",
                         tuple ? "astuple" : "asdict");
    return as_plain(in, a->slot[0], tuple, a->has[1] ? a->slot[1] : dsl_none(), 0, ret);
}

static int d_asdict(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return as_plain_call(in, a, false, ret);
}

static int d_astuple(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return as_plain_call(in, a, true, ret);
}

static const struct member dataclasses_members[] = {
    VALUE("MISSING", "dataclasses.MISSING", v_missing,
          "What a field without a default has as its default."),
    FN("asdict", "dataclasses.asdict(obj, *, dict_factory=dict)", 1, 1, asdict_params, d_asdict,
       "A dataclass instance's fields as a dict: nested dataclasses, lists, tuples and dicts "
       "converted too, other values copied as copy.deepcopy copies them."),
    FN("astuple", "dataclasses.astuple(obj, *, tuple_factory=tuple)", 1, 1, astuple_params,
       d_astuple,
       "A dataclass instance's field values as a tuple, converted as asdict() converts them."),
    FN("dataclass", "@dataclass or @dataclass(init=True, repr=True, eq=True)", 0, -1,
       dataclass_params, d_dataclass,
       "Reads the class's annotated names (`x: float = 0.0`) as its fields and gives it "
       "__init__ (arguments in field order, defaults after), __repr__ (Name(x=1.0)) and __eq__ "
       "(fields compared as a tuple), unless the class defines its own. field(default_factory="
       "list) makes a new default for each instance."),
    FN("field",
       "dataclasses.field(*, default, default_factory, init=True, repr=True, "
       "compare=True)",
       0, 0, field_params, d_field, "A field's options, as the value of its annotated name."),
    FN("fields", "dataclasses.fields(cls_or_instance)", 1, 1, NULL, d_fields,
       "The fields of a dataclass, as a tuple of Field (name, type, default, ...)."),
    FN("is_dataclass", "dataclasses.is_dataclass(obj)", 1, 1, NULL, d_is_dataclass,
       "Whether obj is a dataclass or an instance of one."),
};

const struct module mod_dataclasses = {
    .cls =
        MODULE_CLASS("module: Python's dataclasses: @dataclass, field, fields, asdict, astuple."),
    .name = "dataclasses",
    .members = MEMBERS(dataclasses_members),
};
