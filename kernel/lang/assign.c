/* assign.c — assignment targets: `=` into a name, an item (of a tensor, list, dict or object),
 * an attribute, or a tuple or list of targets that the value is unpacked into; `op=`, which
 * evaluates its target's object and subscripts once; and `del`. As in Python the value is
 * computed first, then the target's object, then its subscripts. */
#include "lang/eval.h"
#include "lang/ndarray.h"

#include "lang/classes.h"
#include "lang/dict.h"
#include "lang/list.h"
#include "lang/operators.h"

#include "minitorch/minitorch.h"

#include <stdlib.h>
#include <string.h>

/* obj[key] = v or obj[:] = v on a sequence-like object (a Storage); other slices are not
 * supported. */
static int store_object_item(struct dsl_interp *in, const struct dsl_node *target,
                             struct dsl_value obj, const struct dsl_value *subs, struct dsl_value v)
{
    const struct dsl_object_class *c = obj.as.obj->cls;
    if (!dsl_is_slice(target)) return c->setitem(in, obj, subs[0], v);
    const struct dsl_node *sl = target->kids[0];
    if (sl->a || sl->b || sl->nkids || !c->setall)
        return dsl_raise(in, "NotImplementedError",
                         "a %s takes item assignment and x[:] = values, not other slices",
                         dsl_type_name(obj));
    return c->setall(in, obj, v);
}

/* Stores v (borrowed) into obj[subs] or obj.name, the target node's object and subscripts
 * already evaluated (dsl_eval_subscripts). Tensors take either, lists item assignment. */
/* a[i, j] = v for an n-d array a. */
static int store_element(struct dsl_interp *in, struct dsl_value a, const struct dsl_value *subs,
                         size_t nsubs, struct dsl_value v)
{
    struct dsl_list *row;
    int64_t i;
    if (dsl_ndarray_at(in, a, subs, nsubs, &row, &i) != 0) return -1;
    return dsl_ndarray_setitem(in, row, i, v);
}

/* Whether index node n has a slice among several indices (a[:, j]). */
static bool has_slice(const struct dsl_node *n)
{
    for (size_t k = 0; n->nkids > 1 && k < n->nkids; k++)
        if (n->kids[k]->kind == DSL_N_SLICE) return true;
    return false;
}

static int store_into(struct dsl_interp *in, const struct dsl_node *target, struct dsl_value obj,
                      const struct dsl_value *subs, size_t nsubs, struct dsl_value v)
{
    int r;
    if (target->kind == DSL_N_INDEX && obj.kind == DSL_TENSOR)
        r = dsl_tensor_setitem(in, obj, subs, nsubs, v);
    else if (target->kind == DSL_N_INDEX && obj.kind == DSL_OBJECT)
        r = store_object_item(in, target, obj, subs, v);
    else if (target->kind == DSL_N_INDEX && obj.kind == DSL_INSTANCE)
        r = dsl_instance_setitem(in, obj, subs[0], v);
    else if (target->kind == DSL_N_INDEX && dsl_is_attrs_view(obj))
        r = dsl_attrs_view_setitem(in, obj, subs[0], v);
    else if (dsl_is_slice(target))
        r = dsl_slice_set(in, obj, subs, v);
    else if (target->kind == DSL_N_INDEX && obj.kind == DSL_DICT)
        r = dsl_dict_store(in, obj.as.d, subs[0], v);
    else if (target->kind == DSL_N_INDEX && obj.kind != DSL_LIST)
        r = dsl_raise(in, "TypeError", "'%s' object does not support item assignment",
                      dsl_type_name(obj));
    else if (target->kind == DSL_N_INDEX && dsl_is_ndarray(obj) && nsubs > 1)
        r = has_slice(target) ? dsl_raise(in, "NotImplementedError",
                                          "storing into a[:, j] is not supported here (reading "
                                          "it is): store element by element, a[i, j] = x")
                              : store_element(in, obj, subs, nsubs, v);
    else if (target->kind == DSL_N_INDEX)
        r = dsl_list_setitem(in, obj, subs[0], v);
    else
        r = dsl_setattr_hashed(in, obj, dsl_node_name(target), dsl_node_hash(target), v);
    if (r != 0) dsl_error_locate(in, target->pos);
    return r != 0 ? DSL_X_ERR : DSL_X_OK;
}

/* Evaluates the subscripts of an index target on obj, as for reading, except that an object that
 * takes no item assignment says so first (Python's message for `"abc"[0] = 1`). */
static int target_subscripts(struct dsl_interp *in, const struct dsl_node *target,
                             struct dsl_value obj, struct dsl_value *subs, size_t *nsubs)
{
    *nsubs = 0;
    if (target->kind != DSL_N_INDEX) return 0;
    bool settable = (obj.kind == DSL_OBJECT && obj.as.obj->cls->setitem) ||
                    obj.kind == DSL_INSTANCE || dsl_is_attrs_view(obj);
    if (obj.kind != DSL_TENSOR && obj.kind != DSL_DICT && !settable &&
        (obj.kind != DSL_LIST || obj.as.l->style == DSL_LIST_TUPLE))
        return dsl_raise(in, "TypeError", "'%s' object does not support item assignment",
                         dsl_type_name(obj));
    return dsl_eval_subscripts(in, target, obj, subs, nsubs);
}

static int unpack_to(struct dsl_interp *in, const struct dsl_node *target, struct dsl_value v);

/* Whether every target of unpacking `target` (a TUPLE or LIST node) is a plain name. */
static bool names_only(const struct dsl_node *target)
{
    for (size_t i = 0; i < target->nkids; i++)
        if (target->kids[i]->kind != DSL_N_NAME) return false;
    return true;
}

/* The store into target (an INDEX or an ATTR) of v, once target's object is evaluated into obj
 * (obj and v owned, both released). */
static int assign_into(struct dsl_interp *in, const struct dsl_node *target, struct dsl_value obj,
                       struct dsl_value v)
{
    struct dsl_value subs[MT_MAX_DIMS];
    subs[0] = dsl_none(); /* an attribute's store, or obj[:] = v, has none to read */
    size_t nsubs = 0;
    int r = DSL_X_ERR;
    if (target_subscripts(in, target, obj, subs, &nsubs) != 0)
        dsl_error_locate(in, target->pos);
    else
        r = store_into(in, target, obj, subs, nsubs, v);
    dsl_release_all(subs, nsubs);
    dsl_value_release(obj);
    dsl_value_release(v);
    return r;
}

/* `d[k] = v` or `xs[i] = v` (t: an INDEX of one subscript, no slice; v owned): into a dict or a
 * list (a tuple raises; not an array) with no subscripts array, the object and the key lent where
 * they are locals, as a read of d[k] is. Any other object goes on to assign_into, evaluated once.
 */
static int store_item(struct dsl_interp *in, const struct dsl_node *t, struct dsl_value v)
{
    struct dsl_value obj, key;
    bool own_obj, own_key;
    if (dsl_eval_lent(in, t->a, &obj, &own_obj) != 0) {
        dsl_value_release(v);
        return DSL_X_ERR;
    }
    bool list = obj.kind == DSL_LIST && !dsl_is_ndarray(obj); /* a tuple: TypeError, as Python,
                                                               * once the key is evaluated */
    if (obj.kind != DSL_DICT && !list)
        return assign_into(in, t, own_obj ? obj : dsl_value_retain(obj), v);
    int r = dsl_eval_lent(in, t->kids[0], &key, &own_key);
    if (r == 0) {
        r = obj.kind == DSL_DICT ? dsl_dict_store(in, obj.as.d, key, v)
                                 : dsl_list_setitem(in, obj, key, v);
        if (own_key) dsl_value_release(key);
    }
    if (r != 0) dsl_error_locate(in, t->pos); /* the key's error too, as assign_into's */
    if (own_obj) dsl_value_release(obj);
    dsl_value_release(v);
    return r != 0 ? DSL_X_ERR : DSL_X_OK;
}

int dsl_assign_to(struct dsl_interp *in, const struct dsl_node *target, struct dsl_value v)
{
    if (target->kind == DSL_N_TUPLE || target->kind == DSL_N_LIST) return unpack_to(in, target, v);
    if (target->kind == DSL_N_NAME) {
        if (dsl_store_local(in, target, v)) return DSL_X_OK;
        if (dsl_bind_in(in, dsl_node_name(target), dsl_node_slot(in, target), v) != 0)
            return dsl_error_locate(in, target->pos), DSL_X_ERR;
        return DSL_X_OK;
    }
    struct dsl_value obj;
    if (dsl_eval_node(in, target->a, &obj) != 0) {
        dsl_value_release(v);
        return DSL_X_ERR;
    }
    return assign_into(in, target, obj, v);
}

static int unpack_any(struct dsl_interp *in, const struct dsl_node *target, struct dsl_value v);

/* `a, b = v` (v owned): takes exactly as many items from the iterable v as there are targets,
 * then assigns them left to right, as Python does; a wrong count is Python's ValueError. */
static int unpack_to(struct dsl_interp *in, const struct dsl_node *target, struct dsl_value v)
{
    size_t want = target->nkids;
    if (v.kind != DSL_LIST || v.as.l->len != want || !names_only(target))
        return unpack_any(in, target, v);
    /* `a, b = pair` into names, the commonest unpacking: a store to a name runs no code of the
     * user's and cannot change the pair, so each item goes straight to its name */
    int r = DSL_X_OK;
    for (size_t i = 0; i < want && r == DSL_X_OK; i++) {
        const struct dsl_node *t = target->kids[i];
        struct dsl_value item = dsl_value_retain(v.as.l->items[i]);
        if (!dsl_store_local(in, t, item)) r = dsl_assign_to(in, t, item);
    }
    dsl_value_release(v);
    return r;
}

/* unpack_to's every other case: any iterable, any targets, the items all taken first. */
static __attribute__((noinline)) int unpack_any(struct dsl_interp *in,
                                                const struct dsl_node *target, struct dsl_value v)
{
    size_t want = target->nkids, got = 0;
    struct dsl_value small[8];
    struct dsl_value *items = want <= 8 ? small : calloc(want, sizeof *items);
    struct dsl_iter it;
    int r = DSL_X_ERR;
    if (!items) {
        dsl_raise_status(in, DSL_V_NOMEM);
        goto located;
    }
    if (v.kind == DSL_LIST && v.as.l->len == want) { /* a, b = pair: its items, no iterator */
        for (; got < want; got++) items[got] = dsl_value_retain(v.as.l->items[got]);
        goto assign;
    }
    if ((v.kind != DSL_LIST && v.kind != DSL_STR && v.kind != DSL_RANGE && v.kind != DSL_DICT &&
         v.kind != DSL_SET && v.kind != DSL_INSTANCE) ||
        (v.kind == DSL_INSTANCE && !dsl_instance_iterable(v))) {
        dsl_raise(in, "TypeError", "cannot unpack non-iterable %s object", dsl_type_name(v));
        goto located;
    }
    if (dsl_iter_init(in, v, &it) != 0) goto located;
    for (;;) {
        struct dsl_value item;
        int k = dsl_iter_next(in, &it, &item);
        if (k == 0) break;
        if (k > 0 && got == want) {
            dsl_value_release(item);
            dsl_raise(in, "ValueError", "too many values to unpack (expected %zu)", want);
            k = -1;
        }
        if (k < 0) {
            dsl_iter_end(&it);
            goto located;
        }
        items[got++] = item;
    }
    dsl_iter_end(&it);
    if (got < want) {
        dsl_raise(in, "ValueError", "not enough values to unpack (expected %zu, got %zu)", want,
                  got);
        goto located;
    }
assign:
    r = DSL_X_OK;
    for (size_t i = 0; i < want; i++) {
        struct dsl_value item = items[i];
        items[i] = dsl_none();
        const struct dsl_node *t = target->kids[i];
        if (r == DSL_X_OK)
            r = t->kind == DSL_N_NAME && dsl_store_local(in, t, item) ? DSL_X_OK
                                                                      : dsl_assign_to(in, t, item);
        else
            dsl_value_release(item);
    }
    got = 0; /* each item went to its target, or was released */
    goto done;
located:
    dsl_error_locate(in, target->pos);
done:
    if (items) dsl_release_all(items, got);
    if (items != small) free(items);
    dsl_value_release(v);
    return r;
}

/* `x = v` (n) where x is a plain local of the running call: v stored into its slot, found
 * through n's own copy of its target's cache, so that the store reads no line of the target's
 * (see DSL_N_ASSIGN). False, with nothing done, for any other assignment. */
static inline bool store_one_name(struct dsl_interp *in, const struct dsl_node *n,
                                  struct dsl_value v)
{
    struct dsl_frame *f = in->locals;
    if (!f) return false;
    if (n->scope_def == f->fn->def) return dsl_store_slot(f, n->scope_slot, v);
    const struct dsl_node *t = n->nkids == 1 ? n->kids[0] : NULL;
    if (!t || t->kind != DSL_N_NAME || !dsl_store_local(in, t, v)) return false;
    struct dsl_node *cache = (struct dsl_node *)n; /* the cache only: the meaning stays */
    cache->scope_slot = t->scope_slot;
    cache->scope_def = t->scope_def;
    return true;
}

int dsl_exec_assign(struct dsl_interp *in, const struct dsl_node *n)
{
    struct dsl_value v;
    if (dsl_eval_node(in, n->a, &v) != 0) return DSL_X_ERR;
    /* `name: annotation = value` in a class body: the annotation recorded, then assigned */
    if (in->class_ns && n->value.kind == DSL_STR &&
        dsl_class_note_annotation(in, in->class_ns, n->kids[0]->name, n->value) != 0) {
        dsl_value_release(v);
        return dsl_error_locate(in, n->pos), DSL_X_ERR;
    }
    if (store_one_name(in, n, v)) return DSL_X_OK;
    const struct dsl_node *one = n->nkids == 1 ? n->kids[0] : NULL;
    if (one && one->kind == DSL_N_INDEX && one->nkids == 1 && one->kids[0]->kind != DSL_N_SLICE)
        return store_item(in, one, v);
    if (n->nkids == 1 && (n->kids[0]->kind == DSL_N_TUPLE || n->kids[0]->kind == DSL_N_LIST))
        return unpack_to(in, n->kids[0], v);
    if (n->nkids == 1 && n->kids[0]->kind == DSL_N_ATTR) {
        /* obj.name = value: the object lent where it is a local (self.x = v), as a read of
         * obj.name is, with no subscripts to evaluate */
        const struct dsl_node *t = n->kids[0];
        struct dsl_value obj;
        bool owned;
        int r = dsl_eval_lent(in, t->a, &obj, &owned);
        const char *name = dsl_node_name(t);
        size_t hash = dsl_node_hash(t);
        if (r == 0 && obj.kind == DSL_INSTANCE &&
            dsl_class_plain_store(obj.as.inst->cls.as.cls, hash)) {
            /* the instance's own attribute, with nothing else to ask: v's reference moves in */
            struct dsl_value *slot = dsl_instance_own_slot(
                obj.as.inst, name, hash, &((struct dsl_node *)t)->attr_pos); /* a cache only */
            int st = DSL_V_OK;
            if (slot) {
                struct dsl_value old = *slot;
                dsl_value_adopt(v);
                *slot = v;
                dsl_value_orphan(old);
                dsl_value_release(old);
            } else if (t->iname) { /* the slot search compared interned copies: a sure miss */
                st = dsl_attrs_add_interned(&obj.as.inst->attrs, t->iname, hash, v);
            } else {
                st = dsl_attrs_set_hashed(&obj.as.inst->attrs, name, hash, v);
            }
            if (owned) dsl_value_release(obj);
            if (st != DSL_V_OK)
                return dsl_raise_status(in, st), dsl_error_locate(in, t->pos), DSL_X_ERR;
            return DSL_X_OK;
        }
        if (r == 0) {
            r = dsl_setattr_hashed(in, obj, name, hash, v);
            if (r != 0) dsl_error_locate(in, t->pos);
            if (owned) dsl_value_release(obj);
        }
        dsl_value_release(v);
        return r != 0 ? DSL_X_ERR : DSL_X_OK;
    }
    for (size_t i = 0; i < n->nkids; i++)
        if (dsl_assign_to(in, n->kids[i], dsl_value_retain(v)) != DSL_X_OK) {
            dsl_value_release(v);
            return DSL_X_ERR;
        }
    dsl_value_release(v);
    return DSL_X_OK;
}

/* Whether `v += x` extends v itself, as Python's list += does (every name for the list sees
 * it); a tuple, which never changes, makes a new tuple instead. */
static bool extends_in_place(struct dsl_value v, enum dsl_tok op)
{
    return op == DSL_T_PLUS && v.kind == DSL_LIST && v.as.l->style != DSL_LIST_TUPLE &&
           !dsl_is_ndarray(v);
}

/* `s += t` on a string variable nobody else references: extend it in place (strings are
 * immutable, so no one can tell), so building a string in a loop is linear. Returns true when
 * done. */
static bool extend_in_place(struct dsl_value *slot, struct dsl_value rhs)
{
    if (slot->kind == DSL_STR && rhs.kind == DSL_STR && slot->as.s->refs == 1) {
        size_t old = slot->as.s->len, add = rhs.as.s->len;
        struct dsl_str *p = dsl_str_grow(slot->as.s, old + add);
        if (!p) return false; /* the plain + then says why */
        memcpy(p->data + old, rhs.as.s->data, add);
        slot->as.s = p;
        return true;
    }
    return false;
}

/* cur op= rhs (borrowed) as a value: a list extended in place (then the same list), else the
 * operator's new value. 0 or -1. */
static int augment(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value cur,
                   struct dsl_value rhs, struct dsl_value *res)
{
    int r;
    if (extends_in_place(cur, n->op)) {
        r = dsl_list_extend(in, cur.as.l, rhs);
        if (r == 0) *res = dsl_value_retain(cur);
    } else {
        r = dsl_binary_inplace(in, n->op, cur, rhs, res);
    }
    if (r != 0) dsl_error_locate(in, n->pos);
    return r;
}

/* *slot op= rhs for an int or a float and a number under + - *, as dsl_binary_inplace gives
 * it: false, nothing done, for anything else (an int result that overflows included). */
static bool number_in_place(struct dsl_value *slot, enum dsl_tok op, struct dsl_value rhs)
{
    struct dsl_value a = *slot;
    if (op != DSL_T_PLUS && op != DSL_T_MINUS && op != DSL_T_STAR) return false;
    if (a.kind == DSL_INT && rhs.kind == DSL_INT) {
        int64_t r;
        bool over = op == DSL_T_PLUS    ? __builtin_add_overflow(a.as.i, rhs.as.i, &r)
                    : op == DSL_T_MINUS ? __builtin_sub_overflow(a.as.i, rhs.as.i, &r)
                                        : __builtin_mul_overflow(a.as.i, rhs.as.i, &r);
        if (over) return false;
        slot->as.i = r;
        return true;
    }
    if ((a.kind != DSL_FLOAT && a.kind != DSL_INT) ||
        (rhs.kind != DSL_FLOAT && rhs.kind != DSL_INT))
        return false;
    double x = a.kind == DSL_FLOAT ? a.as.f : (double)a.as.i;
    double y = rhs.kind == DSL_FLOAT ? rhs.as.f : (double)rhs.as.i;
    *slot = dsl_float(op == DSL_T_PLUS ? x + y : op == DSL_T_MINUS ? x - y : x * y);
    return true;
}

/* `obj[i] op= v` / `obj.name op= v`: obj and the subscripts are evaluated once, as in Python:
 * read the item, apply op, store the result back. */
static int exec_aug_item(struct dsl_interp *in, const struct dsl_node *n)
{
    const struct dsl_node *target = n->a;
    struct dsl_value obj, cur = dsl_none(), rhs = dsl_none(), res = dsl_none();
    struct dsl_value subs[MT_MAX_DIMS];
    size_t nsubs = 0;
    int r = DSL_X_ERR;
    if (dsl_eval_node(in, target->a, &obj) != 0) return DSL_X_ERR;
    if (target->kind == DSL_N_INDEX) {
        if (dsl_eval_subscripts(in, target, obj, subs, &nsubs) != 0) goto done;
        /* a list's item (not a tuple's or an ndarray's, whose stores refuse or cast) */
        struct dsl_value *item = obj.kind == DSL_LIST && obj.as.l->style != DSL_LIST_TUPLE &&
                                         !dsl_is_ndarray(obj) && nsubs == 1
                                     ? dsl_list_item_at(obj.as.l, subs[0])
                                     : NULL;
        /* top[1] += 1: a constant added to a list's number, which nothing evaluated between
         * the read and the store can change */
        if (item && n->b->kind == DSL_N_CONST && number_in_place(item, n->op, n->b->value)) {
            r = DSL_X_OK;
            goto done;
        }
        if (dsl_get_item(in, target, obj, subs, nsubs, &cur) != 0) goto done;
    } else if (dsl_getattr_hashed(in, obj, dsl_node_name(target), dsl_node_hash(target), &cur) !=
               0) {
        goto done;
    }
    if (dsl_eval_node(in, n->b, &rhs) != 0 || augment(in, n, cur, rhs, &res) != 0) goto done;
    r = store_into(in, target, obj, subs, nsubs, res);
done:
    if (r != DSL_X_OK) dsl_error_locate(in, target->pos);
    dsl_release_all(subs, nsubs);
    dsl_value_release(obj);
    dsl_value_release(cur);
    dsl_value_release(rhs);
    dsl_value_release(res);
    return r;
}

int dsl_exec_aug(struct dsl_interp *in, const struct dsl_node *n)
{
    const struct dsl_node *target = n->a;
    if (target->kind != DSL_N_NAME) return exec_aug_item(in, n);
    struct dsl_value rhs, cur, res;
    if (dsl_eval_node(in, n->b, &rhs) != 0) return DSL_X_ERR;
    struct dsl_value *slot = dsl_lookup_node(in, target);
    if (slot && n->op == DSL_T_PLUS && extend_in_place(slot, rhs)) {
        dsl_value_release(rhs);
        return DSL_X_OK;
    }
    /* n += 1, total += x: the number in the variable's slot replaced by the result, where
     * binding would write that same slot (outside class bodies and comprehensions, whose
     * reads may find a variable their binding does not write) */
    if (slot && !in->class_ns && !in->comp && number_in_place(slot, n->op, rhs)) return DSL_X_OK;
    /* not a variable: a builtin's name (TypeError below) or a NameError */
    if (slot)
        cur = dsl_value_retain(*slot);
    else if (dsl_eval_name(in, target, &cur) != 0) {
        dsl_value_release(rhs);
        return DSL_X_ERR;
    }
    int r = augment(in, n, cur, rhs, &res);
    bool same = r == 0 && res.kind == DSL_LIST && cur.kind == DSL_LIST && res.as.l == cur.as.l;
    dsl_value_release(cur);
    dsl_value_release(rhs);
    if (r != 0) return DSL_X_ERR;
    if (same && slot) { /* extended in place: the variable names it already */
        dsl_value_release(res);
        return DSL_X_OK;
    }
    return dsl_assign_to(in, target, res);
}

/* del xs[i]: the item of a list; other values take no item deletion. */
static int del_item(struct dsl_interp *in, const struct dsl_node *t)
{
    struct dsl_value obj, subs[MT_MAX_DIMS];
    size_t nsubs = 0;
    if (dsl_eval_node(in, t->a, &obj) != 0) return DSL_X_ERR;
    int r = -1;
    if (obj.kind == DSL_DICT || obj.kind == DSL_INSTANCE || dsl_is_attrs_view(obj)) {
        if (dsl_eval_subscripts(in, t, obj, subs, &nsubs) == 0)
            r = obj.kind == DSL_DICT       ? dsl_dict_delete(in, obj.as.d, subs[0])
                : obj.kind == DSL_INSTANCE ? dsl_instance_delitem(in, obj, subs[0])
                                           : dsl_attrs_view_delitem(in, obj, subs[0]);
    } else if (dsl_is_ndarray(obj)) {
        dsl_raise(in, "ValueError", "cannot delete array elements");
    } else if (obj.kind != DSL_LIST || obj.as.l->style == DSL_LIST_TUPLE) {
        dsl_raise(in, "TypeError", "'%s' object doesn't support item deletion", dsl_type_name(obj));
    } else if (dsl_eval_subscripts(in, t, obj, subs, &nsubs) == 0) {
        r = dsl_list_delitem(in, obj, subs[0]);
    }
    dsl_release_all(subs, nsubs);
    dsl_value_release(obj);
    if (r != 0) dsl_error_locate(in, t->pos);
    return r != 0 ? DSL_X_ERR : DSL_X_OK;
}

/* Deletes one del target, a tuple or list target item by item. */
static int del_target(struct dsl_interp *in, const struct dsl_node *t)
{
    switch (t->kind) {
    case DSL_N_TUPLE:
    case DSL_N_LIST:
        for (size_t i = 0; i < t->nkids; i++)
            if (del_target(in, t->kids[i]) != DSL_X_OK) return DSL_X_ERR;
        return DSL_X_OK;
    case DSL_N_NAME:
        if (dsl_unbind_var(in, t->name)) return DSL_X_OK;
        if (dsl_local_slot(in, t->name) >= 0)
            return dsl_raise_at(in, t->pos, "UnboundLocalError",
                                "cannot access local variable '%s' where it is not associated "
                                "with a value",
                                t->name),
                   DSL_X_ERR;
        return dsl_raise_at(in, t->pos, "NameError", "name '%s' is not defined", t->name),
               DSL_X_ERR;
    case DSL_N_INDEX: return del_item(in, t);
    default: { /* an attribute: of an instance or a class; other values have none to delete */
        struct dsl_value obj;
        if (dsl_eval_node(in, t->a, &obj) != 0) return DSL_X_ERR;
        int r = dsl_delattr(in, obj, t->name);
        dsl_value_release(obj);
        if (r != 0) dsl_error_locate(in, t->pos);
        return r != 0 ? DSL_X_ERR : DSL_X_OK;
    }
    }
}

int dsl_exec_del(struct dsl_interp *in, const struct dsl_node *n) { return del_target(in, n->a); }
