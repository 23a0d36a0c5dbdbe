/* nn.c — MiniTorch's Module, Parameter, Optimizer and SGD as classes of the language.
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
#include "lang/library.h"
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

struct dsl_value dsl_nn_class(const char *name)
{
    struct dsl_class *c = strcmp(name, "Module") == 0      ? module_class()
                          : strcmp(name, "Parameter") == 0 ? parameter_class()
                          : strcmp(name, "Optimizer") == 0 ? optimizer_class()
                          : strcmp(name, "SGD") == 0       ? sgd_class()
                                                           : NULL;
    return c ? (struct dsl_value){.kind = DSL_CLASS, .as.cls = c} : dsl_none();
}
