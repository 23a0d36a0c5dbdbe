/* nn.c — MiniTorch's Module, Parameter, Optimizer, SGD and tensor Function as classes of the
 * language.
 *
 * They behave as MiniTorch's module.py and optim.py (what a student's Module 0 solution makes
 * of them), so that the course's `class Network(minitorch.Module)` runs as written: a
 * Parameter wraps a value (a tensor is made to require grad); a Module's parameters are the
 * Parameters among its attributes, in the order they were first set, then its child Modules'
 * parameters, named "child.name"; calling a Module calls its forward; SGD.step does
 * p.update(p.value - lr * p.value.grad) for every parameter with a gradient, the same float
 * operations as MiniTorch's, so a model built from these classes trains to the same bits as
 * mlp/train (the engine's fused step is checked against the same ops).
 *
 * One difference, on purpose: MiniTorch's Module answers None for an attribute it does not
 * have (its __getattr__), which hides a misspelt name until much later; here it is an
 * AttributeError naming the attribute, as for any object. */
#include "lib/nn.h"

#include "lang/classes.h"
#include "lang/eval.h"
#include "lang/interp.h"
#include "lang/library.h"
#include "lib/modules/module.h"
#include "lib/tensor_methods.h"

#include "minitorch/minitorch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct dsl_class *module_class(void);
static struct dsl_class *parameter_class(void);

static int set(struct dsl_interp *in, struct dsl_value self, const char *name, struct dsl_value v)
{
    return dsl_object_setattr(in, self, name, v);
}

static int ret_none(struct dsl_value *ret)
{
    *ret = dsl_none();
    return 0;
}

/* ---- Parameter -------------------------------------------------------------------------- */

/* MiniTorch's `x.requires_grad_(True)` on a value that has that method, and `x.name = name`
 * when the Parameter has a name: 0, or -1 after raising. Any value may be a Parameter's
 * (MiniTorch's test_parameter gives one a mock object). */
static int parameter_mark(struct dsl_interp *in, struct dsl_value self, struct dsl_value x)
{
    struct dsl_value fn, r = dsl_none(), name = dsl_none(), t = dsl_bool(true);
    if (dsl_getattr(in, x, "requires_grad_", &fn) != 0) {
        if (strcmp(in->ename, "AttributeError") != 0) return -1;
        dsl_interp_clear_error(in); /* hasattr(x, "requires_grad_") is false */
        return 0;
    }
    int st = dsl_call(in, fn, &t, 1, NULL, NULL, 0, &r);
    dsl_value_release(fn);
    dsl_value_release(r);
    if (st == 0) st = dsl_getattr(in, self, "name", &name);
    bool named = false;
    if (st == 0) st = dsl_truth(in, name, &named);
    if (st == 0 && named) st = dsl_setattr(in, x, "name", name);
    dsl_value_release(name);
    return st;
}

/* self.value = x, marked as MiniTorch's Parameter marks it. A tensor of the kernel is made a
 * leaf that requires grad; one computed from others (SGD's p.value - lr * grad) keeps no
 * history: MiniTorch's requires_grad_(True) gives it a fresh History, so the next backward
 * stops at it and fills its .grad, as at any leaf. Here that is its detached view, which shares
 * its storage. The kernel's tensors have no name to set. */
static int parameter_set_value(struct dsl_interp *in, struct dsl_value self, struct dsl_value x)
{
    if (x.kind != DSL_TENSOR) {
        if (set(in, self, "value", x) != 0) return -1;
        return parameter_mark(in, self, x);
    }
    struct mt_tensor *leaf = mt_tensor_retain(x.as.t);
    if (leaf->node) {
        mt_tensor_release(leaf);
        leaf = NULL;
        enum mt_status st = mt_detach(in->session->ctx, x.as.t, &leaf);
        if (st != MT_OK) return dsl_engine_raise(in, st);
    }
    enum mt_status st = mt_tensor_requires_grad(leaf, true);
    struct dsl_value v = dsl_tensor(leaf);
    int r = st != MT_OK ? dsl_engine_raise(in, st) : set(in, self, "value", v);
    dsl_value_release(v);
    return r;
}

static int parameter_init(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    /* value, then name, in the instance's attributes, as MiniTorch sets them; marking the value
     * reads the name */
    if (set(in, a->self, "value", dsl_none()) != 0 ||
        set(in, a->self, "name", a->has[1] ? a->slot[1] : dsl_none()) != 0 ||
        parameter_set_value(in, a->self, a->slot[0]) != 0)
        return -1;
    return ret_none(ret);
}

static int parameter_update(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (parameter_set_value(in, a->self, a->slot[0]) != 0) return -1;
    return ret_none(ret);
}

/* repr/str of the value it holds, as MiniTorch's Parameter shows. */
static int parameter_text(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret,
                          bool repr)
{
    struct dsl_value v;
    if (dsl_getattr(in, a->self, "value", &v) != 0) return -1;
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_REPR_BYTES);
    int st = repr ? dsl_value_repr(&b, v) : dsl_value_str(&b, v);
    dsl_value_release(v);
    if (st == DSL_V_OK) st = dsl_str_value(render_buf_str(&b), b.len, ret);
    render_buf_free(&b);
    return st != DSL_V_OK ? dsl_raise_status(in, st) : 0;
}

static int parameter_repr(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return parameter_text(in, a, ret, true);
}

static int parameter_str(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return parameter_text(in, a, ret, false);
}

static const char *const parameter_params[] = {"x", "name", NULL};
static const char *const update_params[] = {"x", NULL};

static const struct dsl_builtin parameter_methods[] = {
    {"__init__", "Parameter(x, name=None)", 1, 2, parameter_params, parameter_init,
     "Wraps x as a parameter of a Module: x.value is x, made to require grad when it is a "
     "tensor."},
    {"update", "update(x)", 1, 1, update_params, parameter_update,
     "Replaces the value (what SGD.step does): self.value = x, made to require grad."},
    {"__repr__", "__repr__()", 0, 0, NULL, parameter_repr, "The repr of the value."},
    {"__str__", "__str__()", 0, 0, NULL, parameter_str, "The str of the value."},
    {NULL, NULL, 0, 0, NULL, NULL, NULL},
};

static struct dsl_class *parameter_class(void)
{
    return dsl_library_class("Parameter",
                             "minitorch.Parameter(x, name=None): a value a Module learns. "
                             "p.value is the tensor; p.update(x) replaces it (what SGD.step "
                             "does).",
                             dsl_none(), parameter_methods);
}

/* ---- Module ----------------------------------------------------------------------------- */

static bool is_module(struct dsl_value v) { return dsl_isinstance(v, module_class()); }
static bool is_parameter(struct dsl_value v) { return dsl_isinstance(v, parameter_class()); }

static int module_init(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (set(in, a->self, "training", dsl_bool(true)) != 0) return -1;
    return ret_none(ret);
}

/* Appends a new (name, value) tuple to list l (owned values). 0 or a dsl_vstatus. */
static int push_pair(struct dsl_list *l, const char *name, struct dsl_value v)
{
    struct dsl_list *t = dsl_list_new(2);
    if (!t) return DSL_V_NOMEM;
    t->style = DSL_LIST_TUPLE;
    struct dsl_value s;
    int st = dsl_str_value(name, strlen(name), &s);
    if (st == DSL_V_OK) st = dsl_list_push(t, s);
    if (st == DSL_V_OK) st = dsl_list_push(t, dsl_value_retain(v));
    struct dsl_value tv = {.kind = DSL_LIST, .as.l = t};
    if (st != DSL_V_OK) {
        dsl_value_release(tv);
        return st;
    }
    return dsl_list_push(l, tv);
}

/* MiniTorch's named_parameters: the module's own parameters in the order they were set, then
 * each child module's, prefixed "child.". A tree deeper than the interpreter's call limit is
 * refused, as Python's recursion limit would. */
static int collect_named(struct dsl_interp *in, struct dsl_value m, const char *prefix,
                         struct dsl_list *out, int depth)
{
    if (depth > DSL_MAX_CALL_DEPTH)
        return dsl_raise(in, "RecursionError", "modules nested more than %d deep",
                         DSL_MAX_CALL_DEPTH);
    const struct dsl_attrs *attrs = &m.as.inst->attrs;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < attrs->len; i++) {
            struct dsl_value v = attrs->items[i].value;
            if (pass == 0 ? !is_parameter(v) : !is_module(v)) continue;
            size_t n = strlen(prefix) + strlen(attrs->items[i].name) + 2;
            char *name = malloc(n);
            if (!name) return dsl_raise_status(in, DSL_V_NOMEM);
            snprintf(name, n, "%s%s%s", prefix, attrs->items[i].name, pass ? "." : "");
            int r = 0;
            if (pass == 0) {
                int st = push_pair(out, name, v);
                if (st != DSL_V_OK) r = dsl_raise_status(in, st);
            } else {
                r = collect_named(in, v, name, out, depth + 1);
            }
            free(name);
            if (r != 0) return -1;
        }
    return 0;
}

static int named_parameters(struct dsl_interp *in, struct dsl_value self, struct dsl_value *ret)
{
    struct dsl_list *l = dsl_list_new(0);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    *ret = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    if (collect_named(in, self, "", l, 0) == 0) return 0;
    dsl_value_release(*ret);
    *ret = dsl_none();
    return -1;
}

static int module_named_parameters(struct dsl_interp *in, const struct dsl_args *a,
                                   struct dsl_value *ret)
{
    return named_parameters(in, a->self, ret);
}

static int module_parameters(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value pairs;
    if (named_parameters(in, a->self, &pairs) != 0) return -1;
    struct dsl_list *l = pairs.as.l;
    for (size_t i = 0; i < l->len; i++) { /* each (name, p) becomes p */
        struct dsl_value p = dsl_value_retain(l->items[i].as.l->items[1]);
        dsl_value_orphan(l->items[i]);
        dsl_value_release(l->items[i]);
        dsl_value_adopt(p);
        l->items[i] = p;
    }
    *ret = pairs;
    return 0;
}

static int module_modules(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_list *l = dsl_list_new(0);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    const struct dsl_attrs *attrs = &a->self.as.inst->attrs;
    for (size_t i = 0; i < attrs->len; i++) {
        if (!is_module(attrs->items[i].value)) continue;
        int st = dsl_list_push(l, dsl_value_retain(attrs->items[i].value));
        if (st != DSL_V_OK) {
            dsl_value_release((struct dsl_value){.kind = DSL_LIST, .as.l = l});
            return dsl_raise_status(in, st);
        }
    }
    *ret = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    return 0;
}

static int set_training(struct dsl_interp *in, struct dsl_value m, bool on, int depth)
{
    if (depth > DSL_MAX_CALL_DEPTH)
        return dsl_raise(in, "RecursionError", "modules nested more than %d deep",
                         DSL_MAX_CALL_DEPTH);
    if (set(in, m, "training", dsl_bool(on)) != 0) return -1;
    const struct dsl_attrs *attrs = &m.as.inst->attrs;
    for (size_t i = 0; i < attrs->len; i++)
        if (is_module(attrs->items[i].value) &&
            set_training(in, attrs->items[i].value, on, depth + 1) != 0)
            return -1;
    return 0;
}

static int module_train(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return set_training(in, a->self, true, 0) != 0 ? -1 : ret_none(ret);
}

static int module_eval(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return set_training(in, a->self, false, 0) != 0 ? -1 : ret_none(ret);
}

static int module_add_parameter(struct dsl_interp *in, const struct dsl_args *a,
                                struct dsl_value *ret)
{
    if (a->slot[0].kind != DSL_STR)
        return dsl_raise(in, "TypeError", "add_parameter(k, v): k must be a string, not %s",
                         dsl_type_name(a->slot[0]));
    struct dsl_value args[2] = {a->slot[1], a->slot[0]};
    struct dsl_value p;
    if (dsl_call(in, (struct dsl_value){.kind = DSL_CLASS, .as.cls = parameter_class()}, args, 2,
                 NULL, NULL, 0, &p) != 0)
        return -1;
    int r = set(in, a->self, a->slot[0].as.s->data, p);
    if (r != 0) {
        dsl_value_release(p);
        return -1;
    }
    *ret = p;
    return 0;
}

/* model(x) is model.forward(x), as MiniTorch's Module.__call__. */
static int module_call(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value fn;
    if (!dsl_instance_method(a->self, "forward", &fn))
        return dsl_raise(in, "NotImplementedError",
                         "%s has no forward(self, ...) method: calling a Module calls its forward",
                         dsl_type_name(a->self));
    return dsl_call_method(in, fn, a->self, a->rest, a->nrest, NULL, NULL, 0, ret);
}

/* MiniTorch's repr: the class name, then each child module on its own line, indented. */
static int module_text(struct dsl_interp *in, struct render_buf *b, struct dsl_value m, int indent,
                       int depth)
{
    if (depth > DSL_MAX_CALL_DEPTH)
        return dsl_raise(in, "RecursionError", "modules nested more than %d deep",
                         DSL_MAX_CALL_DEPTH);
    render_buf_printf(b, "%s(", dsl_type_name(m));
    const struct dsl_attrs *attrs = &m.as.inst->attrs;
    bool any = false;
    for (size_t i = 0; i < attrs->len; i++) {
        if (!is_module(attrs->items[i].value)) continue;
        any = true;
        render_buf_printf(b, "\n%*s(%s): ", indent + 2, "", attrs->items[i].name);
        if (module_text(in, b, attrs->items[i].value, indent + 2, depth + 1) != 0) return -1;
    }
    if (any) render_buf_printf(b, "\n%*s", indent, "");
    render_buf_putc(b, ')');
    return 0;
}

static int module_repr(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_REPR_BYTES);
    int r = module_text(in, &b, a->self, 0, 0);
    int st = b.nomem ? DSL_V_NOMEM : b.over ? DSL_V_TOOBIG : DSL_V_OK;
    if (r == 0 && st == DSL_V_OK) st = dsl_str_value(render_buf_str(&b), b.len, ret);
    render_buf_free(&b);
    if (r != 0) return -1;
    return st != DSL_V_OK ? dsl_raise_status(in, st) : 0;
}

static const char *const add_parameter_params[] = {"k", "v", NULL};

static const struct dsl_builtin module_methods[] = {
    {"__init__", "Module()", 0, 0, NULL, module_init,
     "Sets training = True. A subclass's __init__ calls it first: super().__init__()."},
    {"parameters", "parameters()", 0, 0, NULL, module_parameters,
     "Every Parameter of this module and of the modules under it: its own in the order they "
     "were set, then each child module's."},
    {"named_parameters", "named_parameters()", 0, 0, NULL, module_named_parameters,
     "(name, Parameter) pairs in the order of parameters(); a child's are named "
     "\"child.name\"."},
    {"modules", "modules()", 0, 0, NULL, module_modules,
     "The direct child modules, in the order they were set."},
    {"train", "train()", 0, 0, NULL, module_train,
     "Sets training = True on this module and every module under it."},
    {"eval", "eval()", 0, 0, NULL, module_eval,
     "Sets training = False on this module and every module under it."},
    {"add_parameter", "add_parameter(k, v)", 2, 2, add_parameter_params, module_add_parameter,
     "Makes Parameter(v, k), sets it as attribute k and returns it."},
    {"__call__", "__call__(*args)", 0, -1, NULL, module_call, "module(x) calls module.forward(x)."},
    {"__repr__", "__repr__()", 0, 0, NULL, module_repr,
     "The class name and, indented under it, each child module: MiniTorch's layout."},
    {NULL, NULL, 0, 0, NULL, NULL, NULL},
};

static struct dsl_class *module_class(void)
{
    return dsl_library_class(
        "Module",
        "minitorch.Module: the base of a network. Derive from it, call super().__init__() in "
        "__init__, set Parameters and child Modules as attributes, and write forward(self, x); "
        "model(x) calls forward, model.parameters() lists every Parameter.",
        dsl_none(), module_methods);
}

/* ---- Optimizer and SGD ------------------------------------------------------------------ */

static int optimizer_init(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (set(in, a->self, "parameters", a->slot[0]) != 0) return -1;
    return ret_none(ret);
}

static int sgd_init(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (set(in, a->self, "parameters", a->slot[0]) != 0) return -1;
    if (set(in, a->self, "lr", a->has[1] ? a->slot[1] : dsl_float(1.0)) != 0) return -1;
    return ret_none(ret);
}

/* Calls fn(in, p, arg) for each item of self.parameters. */
static int each_parameter(struct dsl_interp *in, struct dsl_value self,
                          int (*fn)(struct dsl_interp *, struct dsl_value, struct dsl_value),
                          struct dsl_value arg)
{
    struct dsl_value params;
    if (dsl_getattr(in, self, "parameters", &params) != 0) return -1;
    struct dsl_iter it;
    int r = dsl_iter_init(in, params, &it);
    while (r == 0) {
        struct dsl_value p;
        int got = dsl_iter_next(in, &it, &p);
        if (got <= 0) {
            r = got;
            break;
        }
        r = fn(in, p, arg);
        dsl_value_release(p);
    }
    dsl_iter_end(&it);
    dsl_value_release(params);
    return r;
}

/* p.value, or none when p has no value attribute. */
static int value_of(struct dsl_interp *in, struct dsl_value p, struct dsl_value *v)
{
    return dsl_getattr(in, p, "value", v);
}

/* v.name as hasattr() sees it: 1 with a new value in *out, 0 when v has no such attribute,
 * -1 after another error. */
static int attr_if_any(struct dsl_interp *in, struct dsl_value v, const char *name,
                       struct dsl_value *out)
{
    if (dsl_getattr(in, v, name, out) == 0) return 1;
    *out = dsl_none();
    if (strcmp(in->ename, "AttributeError") != 0) return -1;
    dsl_interp_clear_error(in);
    return 0;
}

static int zero_one(struct dsl_interp *in, struct dsl_value p, struct dsl_value unused)
{
    (void)unused;
    struct dsl_value v, d;
    if (value_of(in, p, &v) != 0) return -1;
    int r = 0;
    if (v.kind == DSL_TENSOR) {
        r = dsl_setattr(in, v, "grad", dsl_none());
    } else if (v.kind != DSL_NONE) {
        /* MiniTorch's optim.py: a Scalar's p.value.derivative = None, and a Tensor of the
         * student's tensor.py (an object with a grad) p.value.grad = None */
        r = attr_if_any(in, v, "derivative", &d);
        if (r > 0 && d.kind != DSL_NONE) r = dsl_setattr(in, v, "derivative", dsl_none());
        dsl_value_release(d);
        if (r >= 0) {
            r = attr_if_any(in, v, "grad", &d);
            if (r > 0 && d.kind != DSL_NONE) r = dsl_setattr(in, v, "grad", dsl_none());
            dsl_value_release(d);
        }
    }
    dsl_value_release(v);
    return r < 0 ? -1 : 0;
}

/* p.update(x) */
static int update(struct dsl_interp *in, struct dsl_value p, struct dsl_value x)
{
    struct dsl_value fn, r;
    if (dsl_getattr(in, p, "update", &fn) != 0) return -1;
    int rc = dsl_call(in, fn, &x, 1, NULL, NULL, 0, &r);
    dsl_value_release(fn);
    if (rc == 0) dsl_value_release(r);
    return rc;
}

/* A Scalar parameter: MiniTorch's p.update(Scalar(p.value.data - lr * p.value.derivative)),
 * Scalar being minitorch.scalar's (the student's file, or the kernel's). */
static int step_scalar(struct dsl_interp *in, struct dsl_value p, struct dsl_value v,
                       struct dsl_value d, struct dsl_value lr)
{
    struct dsl_value data = dsl_none(), scaled = dsl_none(), next = dsl_none(), mod = dsl_none(),
                     cls = dsl_none(), made = dsl_none();
    int rc = dsl_getattr(in, v, "data", &data);
    if (rc == 0) rc = dsl_binary(in, DSL_T_STAR, lr, d, &scaled);
    if (rc == 0) rc = dsl_binary(in, DSL_T_MINUS, data, scaled, &next);
    if (rc == 0) rc = dsl_module_import(in, "minitorch.scalar", &mod);
    if (rc == 0) rc = dsl_getattr(in, mod, "Scalar", &cls);
    if (rc == 0) rc = dsl_call(in, cls, &next, 1, NULL, NULL, 0, &made);
    if (rc == 0) rc = update(in, p, made);
    struct dsl_value all[] = {data, scaled, next, mod, cls, made};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) dsl_value_release(all[i]);
    return rc;
}

static int step_one(struct dsl_interp *in, struct dsl_value p, struct dsl_value lr)
{
    struct dsl_value v, grad = dsl_none(), scaled = dsl_none(), next = dsl_none();
    if (value_of(in, p, &v) != 0) return -1;
    int rc = 0;
    if (v.kind != DSL_TENSOR && v.kind != DSL_NONE) {
        /* MiniTorch's optim.py: a value with a derivative is a Scalar; else one with a grad is
         * a Tensor of the student's tensor.py, stepped with its own operators */
        struct dsl_value d;
        int has = attr_if_any(in, v, "derivative", &d);
        rc = has < 0 ? -1 : has && d.kind != DSL_NONE ? step_scalar(in, p, v, d, lr) : 0;
        dsl_value_release(d);
        if (rc == 0 && !has) {
            has = attr_if_any(in, v, "grad", &d);
            if (has < 0) rc = -1;
            if (has > 0 && d.kind != DSL_NONE) {
                rc = dsl_binary(in, DSL_T_STAR, lr, d, &scaled);
                if (rc == 0) rc = dsl_binary(in, DSL_T_MINUS, v, scaled, &next);
                if (rc == 0) rc = update(in, p, next);
            }
            dsl_value_release(d);
        }
    }
    if (v.kind == DSL_TENSOR && dsl_getattr(in, v, "grad", &grad) != 0) rc = -1;
    if (rc == 0 && grad.kind == DSL_TENSOR) {
        /* MiniTorch's p.update(p.value - self.lr * p.value.grad), operation for operation */
        rc = dsl_tensor_binary(in, DSL_T_STAR, lr, grad, &scaled);
        if (rc == 0) rc = dsl_tensor_binary(in, DSL_T_MINUS, v, scaled, &next);
        if (rc == 0) rc = update(in, p, next);
    }
    dsl_value_release(v);
    dsl_value_release(grad);
    dsl_value_release(scaled);
    dsl_value_release(next);
    return rc;
}

static int sgd_zero_grad(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return each_parameter(in, a->self, zero_one, dsl_none()) != 0 ? -1 : ret_none(ret);
}

static int sgd_step(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value lr;
    if (dsl_getattr(in, a->self, "lr", &lr) != 0) return -1;
    int r = each_parameter(in, a->self, step_one, lr);
    dsl_value_release(lr);
    return r != 0 ? -1 : ret_none(ret);
}

static const char *const optimizer_params[] = {"parameters", NULL};
static const char *const sgd_params[] = {"parameters", "lr", NULL};

static const struct dsl_builtin optimizer_methods[] = {
    {"__init__", "Optimizer(parameters)", 1, 1, optimizer_params, optimizer_init,
     "Keeps the parameters to optimise as self.parameters."},
    {NULL, NULL, 0, 0, NULL, NULL, NULL},
};

static const struct dsl_builtin sgd_methods[] = {
    {"__init__", "SGD(parameters, lr=1.0)", 1, 2, sgd_params, sgd_init,
     "Stochastic gradient descent over a list of Parameters with learning rate lr."},
    {"zero_grad", "zero_grad()", 0, 0, NULL, sgd_zero_grad,
     "Drops every parameter's gradient (p.value.grad = None; a Scalar's p.value.derivative)."},
    {"step", "step()", 0, 0, NULL, sgd_step,
     "p.update(p.value - lr * p.value.grad) for every parameter that has a gradient; a Scalar "
     "p.update(Scalar(p.value.data - lr * p.value.derivative))."},
    {NULL, NULL, 0, 0, NULL, NULL, NULL},
};

static struct dsl_class *optimizer_class(void)
{
    return dsl_library_class("Optimizer", "minitorch.Optimizer(parameters): the base of SGD.",
                             dsl_none(), optimizer_methods);
}

static struct dsl_class *sgd_class(void)
{
    struct dsl_class *base = optimizer_class();
    return dsl_library_class("SGD",
                             "minitorch.SGD(parameters, lr=1.0): opt.zero_grad() before a "
                             "backward, opt.step() after it.",
                             (struct dsl_value){.kind = DSL_CLASS, .as.cls = base}, sgd_methods);
}

/* ---- Function ---------------------------------------------------------------------------
 *
 * MiniTorch's tensor Function (tensor_functions.py), which Module 4's student derives from
 * (`class Max(Function)` with static forward(ctx, ...) and backward(ctx, grad_output)):
 * Max.apply(*tensors) calls forward with the inputs detached and a Context(no_grad) of
 * minitorch's (the student's autodiff.py's, else the kernel's), and gives its result a history
 * in the engine's autodiff (mt_record_custom) whose backward calls the class's backward. As
 * MiniTorch's, a number among backward's results is a gradient of that value everywhere, and
 * each gradient is summed back over the dims its input was broadcast over. */

static struct dsl_class *function_class(void);

/* What one apply keeps for its backward: owned by the engine's node. */
struct fn_history {
    const struct dsl_session *ses;
    struct dsl_value cls, ctx; /* owned */
    int nin;
    struct {
        int ndim;
        int64_t shape[MT_MAX_DIMS];
        enum mt_backend backend;
        bool grad; /* it required grad: a constant's gradient is never read, as MiniTorch's */
    } in[MT_CUSTOM_MAX_IN];
};

static void fn_history_release(void *data)
{
    struct fn_history *h = data;
    dsl_value_release(h->cls);
    dsl_value_release(h->ctx);
    free(h);
}

/* backward's result for input i (0-based) as a gradient: *g a new tensor, or NULL for None.
 * 0, or -1 after raising. */
static int fn_gradient(struct dsl_interp *in, const struct fn_history *h, int i, struct dsl_value v,
                       struct mt_tensor **g)
{
    const char *name = h->cls.as.cls->name;
    struct mt_ctx *ctx = in->session->ctx;
    char s1[160], s2[160];
    *g = NULL;
    if (v.kind == DSL_NONE) return 0;
    if (dsl_is_number(v)) { /* MiniTorch's _ensure_tensor: a tensor of one value */
        const int64_t one = 1;
        enum mt_status st = mt_full(ctx, h->in[i].backend, 1, &one, (float)dsl_as_double(v), g);
        return st == MT_OK ? 0 : dsl_engine_raise(in, st);
    }
    if (v.kind != DSL_TENSOR)
        return dsl_raise(in, "TypeError",
                         "%s.backward returned %s as the gradient of input %d: a gradient is a "
                         "tensor or a number",
                         name, dsl_type_name(v), i + 1);
    const struct mt_tensor *t = v.as.t;
    int n;
    int64_t shape[MT_MAX_DIMS];
    if (mt_shape_broadcast(ctx, t->ndim, t->shape, h->in[i].ndim, h->in[i].shape, &n, shape) !=
        MT_OK)
        return dsl_raise(in, "ValueError",
                         "%s.backward returned a gradient of shape %s for input %d, of shape %s: "
                         "a gradient has its input's shape (or one that broadcasts to it)",
                         name, mt_shape_str(t->ndim, t->shape, s1, sizeof s1), i + 1,
                         mt_shape_str(h->in[i].ndim, h->in[i].shape, s2, sizeof s2));
    if (t->backend != h->in[i].backend)
        return dsl_raise(in, "RuntimeError",
                         "%s.backward returned a gradient on %s for input %d, which is on %s", name,
                         mt_backend_name(t->backend), i + 1, mt_backend_name(h->in[i].backend));
    *g = mt_tensor_retain(v.as.t);
    return 0;
}

static enum mt_status fn_backward(void *data, struct mt_ctx *ctx, struct mt_tensor *grad, int nin,
                                  struct mt_tensor **grads)
{
    (void)ctx;
    struct fn_history *h = data;
    struct dsl_interp *in = dsl_running;
    if (!in || in->session != h->ses) return MT_ERR_GRAD; /* run only from its own session */
    const char *name = h->cls.as.cls->name;
    struct dsl_value fn, r = dsl_none(), args[2] = {h->ctx, dsl_tensor(mt_tensor_retain(grad))};
    int st = dsl_getattr(in, h->cls, "backward", &fn);
    if (st == 0) {
        st = dsl_call(in, fn, args, 2, NULL, NULL, 0, &r);
        dsl_value_release(fn);
    }
    dsl_value_release(args[1]);
    /* MiniTorch's wrap_tuple: a tuple holds one gradient per input, anything else is one */
    const struct dsl_value *items = &r;
    size_t count = 1;
    if (st == 0 && dsl_is_tuple(r)) {
        items = r.as.l->items;
        count = r.as.l->len;
    }
    for (int i = 0; i < nin && st == 0; i++) {
        if (!h->in[i].grad) continue;
        if ((size_t)i >= count) {
            st = dsl_raise(in, "ValueError",
                           "%s.backward returned %zu gradient%s for %d inputs: one per input of "
                           "forward after ctx, in order (a tuple)",
                           name, count, count == 1 ? "" : "s", nin);
            break;
        }
        st = fn_gradient(in, h, i, items[i], &grads[i]);
    }
    dsl_value_release(r);
    if (st == 0) return MT_OK;
    return strcmp(in->ename, "KeyboardInterrupt") == 0 ? MT_ERR_CANCELLED : MT_ERR_GRAD;
}

static int function_apply(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value cls = a->self;
    if (cls.kind != DSL_CLASS || cls.as.cls == function_class())
        return dsl_raise(in, "TypeError",
                         "apply is called on a subclass of Function that defines forward(ctx, "
                         "...) and backward(ctx, grad_output): Max.apply(t, dim)");
    const char *name = cls.as.cls->name;
    size_t n = a->nrest;
    if (n < 1 || n > MT_CUSTOM_MAX_IN)
        return dsl_raise(in, "TypeError", "%s.apply() takes 1 to %d tensors, not %zu", name,
                         MT_CUSTOM_MAX_IN, n);
    struct mt_ctx *mctx = in->session->ctx;
    struct mt_tensor *ins[MT_CUSTOM_MAX_IN];
    bool need = false;
    for (size_t i = 0; i < n; i++) {
        if (a->rest[i].kind != DSL_TENSOR)
            return dsl_raise(in, "TypeError",
                             "%s.apply(): argument %zu is %s, not a tensor: a Function's inputs "
                             "are tensors (make a number one with tensor(x), or "
                             "t._ensure_tensor(x))",
                             name, i + 1, dsl_type_name(a->rest[i]));
        ins[i] = a->rest[i].as.t;
        need = need || ins[i]->requires_grad;
    }
    /* forward(ctx, *inputs detached), as MiniTorch's apply calls it */
    struct dsl_value args[1 + MT_CUSTOM_MAX_IN], mt, context = dsl_none(), fn = dsl_none(),
                                                     r = dsl_none();
    size_t made = 0;
    int st = 0;
    for (; made < n && st == 0; made++) {
        struct mt_tensor *d = NULL;
        enum mt_status es = mt_detach(mctx, ins[made], &d);
        if (es != MT_OK) {
            st = dsl_engine_raise(in, es);
            break;
        }
        args[1 + made] = dsl_tensor(d);
    }
    if (st == 0 && (st = mod_module_value(in, &mod_minitorch, &mt)) == 0) {
        st = dsl_getattr(in, mt, "Context", &context);
        dsl_value_release(mt);
    }
    struct dsl_value no_grad = dsl_bool(!need);
    if (st == 0) st = dsl_call(in, context, &no_grad, 1, NULL, NULL, 0, &args[0]);
    if (st == 0 && (st = dsl_getattr(in, cls, "forward", &fn)) == 0) {
        st = dsl_call(in, fn, args, 1 + n, NULL, NULL, 0, &r);
        if (st == 0 && r.kind != DSL_TENSOR)
            st = dsl_raise(in, "TypeError",
                           "%s.forward returned %s: a Function's forward returns "
                           "a tensor",
                           name, dsl_type_name(r));
    }
    dsl_value_release(context);
    dsl_value_release(fn);
    for (size_t i = 0; i < made; i++) dsl_value_release(args[1 + i]);
    struct dsl_value ctx_value = st == 0 ? args[0] : dsl_none();
    if (st != 0) {
        if (made == n && args[0].kind != DSL_NONE) dsl_value_release(args[0]);
        dsl_value_release(r);
        return -1;
    }
    /* a new tensor for the result, as MiniTorch's apply makes: forward may have saved its own
     * result in ctx, which the history owns, and the history is the result's */
    struct mt_tensor *out = NULL;
    enum mt_status es = mt_detach(mctx, r.as.t, &out);
    dsl_value_release(r);
    struct fn_history *h = es == MT_OK && need ? calloc(1, sizeof *h) : NULL;
    if (es == MT_OK && need && !h) es = MT_ERR_NOMEM;
    if (h) {
        h->ses = in->session;
        h->cls = dsl_value_retain(cls);
        h->ctx = ctx_value;
        h->nin = (int)n;
        for (size_t i = 0; i < n; i++) {
            h->in[i].ndim = ins[i]->ndim;
            memcpy(h->in[i].shape, ins[i]->shape, sizeof *ins[i]->shape * (size_t)ins[i]->ndim);
            h->in[i].backend = ins[i]->backend;
            h->in[i].grad = ins[i]->requires_grad;
        }
        const struct mt_custom_fn custom = {fn_backward, fn_history_release, h};
        es = mt_record_custom(mctx, &out, (int)n, ins, &custom);
    } else {
        dsl_value_release(ctx_value);
    }
    if (es != MT_OK) {
        mt_tensor_release(out);
        return es == MT_ERR_NOMEM && !out ? dsl_raise_status(in, DSL_V_NOMEM)
                                          : dsl_engine_raise(in, es);
    }
    *ret = dsl_tensor(out);
    return 0;
}

static const struct dsl_builtin function_class_methods[] = {
    {"apply", "apply(*tensors)", 0, -1, NULL, function_apply,
     "Runs cls.forward(ctx, *tensors) on the tensors detached and returns its result; when an "
     "input requires grad, backward() then calls cls.backward(ctx, grad_output), which returns "
     "one gradient per input (a tuple when there are several)."},
};
static const struct dsl_builtin function_methods[] = {{NULL, NULL, 0, 0, NULL, NULL, NULL}};

static struct dsl_class *function_class(void)
{
    return dsl_library_class(
        "Function",
        "minitorch.Function: the base of a differentiable function of tensors. Derive from it "
        "with @staticmethod forward(ctx, *inputs) and backward(ctx, grad_output), keep what "
        "backward needs with ctx.save_for_backward(...), and call Cls.apply(*inputs).",
        dsl_none(), function_methods);
}

int dsl_nn_function_class(struct dsl_interp *in, struct dsl_value *out)
{
    struct dsl_class *c = function_class();
    if (!dsl_attrs_find(&c->attrs, "apply") &&
        mod_class_wrap(in, c, function_class_methods, 1, DSL_WRAP_CLASS) != 0)
        return -1;
    *out = (struct dsl_value){.kind = DSL_CLASS, .as.cls = c};
    return 0;
}

struct dsl_value dsl_nn_class(const char *name)
{
    struct dsl_class *c = strcmp(name, "Module") == 0      ? module_class()
                          : strcmp(name, "Parameter") == 0 ? parameter_class()
                          : strcmp(name, "Optimizer") == 0 ? optimizer_class()
                          : strcmp(name, "SGD") == 0       ? sgd_class()
                                                           : NULL;
    return c ? (struct dsl_value){.kind = DSL_CLASS, .as.cls = c} : dsl_none();
}
