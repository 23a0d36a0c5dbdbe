/* operators.c — minitorch.operators, MiniTorch's Task 0.1 and 0.3: the scalar functions
 * (their formulas are lib/operators.h; here Python's argument checks and errors around them)
 * and the higher-order list functions map, zipWith and reduce, with what MiniTorch composes of
 * them (negList, addLists, sum, prod). */
#include "lib/modules/module.h"

#include "lib/operators.h"

#include <string.h>

static const char *const x_params[] = {"x", NULL};
static const char *const xy_params[] = {"x", "y", NULL};

static int two_reals(struct dsl_interp *in, const struct dsl_args *a, double *x, double *y)
{
    return mod_real_arg(in, a->slot[0], x) != 0 || mod_real_arg(in, a->slot[1], y) != 0 ? -1 : 0;
}

static int o_mul(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return dsl_binary(in, DSL_T_STAR, a->slot[0], a->slot[1], ret);
}
static int o_add(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return dsl_binary(in, DSL_T_PLUS, a->slot[0], a->slot[1], ret);
}
static int o_neg(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x;
    if (mod_real_arg(in, a->slot[0], &x) != 0) return -1;
    return *ret = dsl_float(op_neg(x)), 0;
}
static int o_id(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)in;
    return *ret = dsl_value_retain(a->slot[0]), 0;
}
static int o_lt(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x, y;
    if (two_reals(in, a, &x, &y) != 0) return -1;
    return *ret = dsl_float(op_lt(x, y)), 0;
}
static int o_eq(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x, y;
    if (two_reals(in, a, &x, &y) != 0) return -1;
    return *ret = dsl_float(op_eq(x, y)), 0;
}
static int o_max(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x, y;
    if (two_reals(in, a, &x, &y) != 0) return -1;
    return *ret = dsl_value_retain(x > y ? a->slot[0] : a->slot[1]), 0;
}
static int o_is_close(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x, y;
    if (two_reals(in, a, &x, &y) != 0) return -1;
    return *ret = dsl_bool(op_is_close(x, y)), 0;
}
static int o_sigmoid(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x;
    if (mod_real_arg(in, a->slot[0], &x) != 0) return -1;
    return *ret = dsl_float(op_sigmoid(x)), 0;
}
static int o_relu(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x;
    if (mod_real_arg(in, a->slot[0], &x) != 0) return -1;
    return *ret = dsl_float(op_relu(x)), 0;
}
static int o_log(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x;
    if (mod_real_arg(in, a->slot[0], &x) != 0) return -1;
    if (x + OP_EPS <= 0) return mod_domain_error(in);
    return *ret = dsl_float(op_log(x)), 0;
}
static int o_exp(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return mod_math_exp(in, a, ret);
}
static int o_inv(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x;
    if (mod_real_arg(in, a->slot[0], &x) != 0) return -1;
    if (x == 0) return dsl_raise(in, "ZeroDivisionError", "float division by zero");
    return *ret = dsl_float(op_inv(x)), 0;
}
static int o_log_back(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x, d;
    if (two_reals(in, a, &x, &d) != 0) return -1;
    if (x + OP_EPS == 0) return dsl_raise(in, "ZeroDivisionError", "float division by zero");
    return *ret = dsl_float(op_log_back(x, d)), 0;
}
static int o_inv_back(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x, d;
    if (two_reals(in, a, &x, &d) != 0) return -1;
    if (x == 0) return dsl_raise(in, "ZeroDivisionError", "float division by zero");
    return *ret = dsl_float(op_inv_back(x, d)), 0;
}
static int o_relu_back(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double x, d;
    if (two_reals(in, a, &x, &d) != 0) return -1;
    return *ret = dsl_float(op_relu_back(x, d)), 0;
}

/* The higher-order functions return functions: a method row bound to what they were given
 * (fn, or the tuple (fn, start) for reduce). */
static int o_map_apply(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_iter it;
    if (dsl_iter_init(in, a->slot[0], &it) != 0) return -1;
    struct dsl_list *l = dsl_list_new(0);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    struct dsl_value out = {.kind = DSL_LIST, .as.l = l}, x, y;
    int r;
    while ((r = dsl_iter_next(in, &it, &x)) == 1) {
        int c = mod_call(in, a->self, &x, 1, &y);
        dsl_value_release(x);
        if (c != 0) break;
        int st = dsl_list_push(l, y);
        if (st != 0) {
            dsl_raise_status(in, st);
            break;
        }
    }
    dsl_iter_end(&it);
    if (r != 0) {
        dsl_value_release(out);
        return -1;
    }
    return *ret = out, 0;
}

static int o_zip_apply(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_iter i1, i2;
    if (dsl_iter_init(in, a->slot[0], &i1) != 0) return -1;
    if (dsl_iter_init(in, a->slot[1], &i2) != 0) {
        dsl_iter_end(&i1);
        return -1;
    }
    struct dsl_list *l = dsl_list_new(0);
    if (!l) {
        dsl_iter_end(&i1);
        dsl_iter_end(&i2);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    struct dsl_value out = {.kind = DSL_LIST, .as.l = l}, xy[2], z;
    for (;;) {
        int r1 = dsl_iter_next(in, &i1, &xy[0]);
        if (r1 <= 0) {
            if (r1 == 0) break;
            goto fail;
        }
        int r2 = dsl_iter_next(in, &i2, &xy[1]);
        if (r2 <= 0) {
            dsl_value_release(xy[0]);
            if (r2 == 0) break; /* the shorter list ends it, as zip does */
            goto fail;
        }
        int c = mod_call(in, a->self, xy, 2, &z);
        dsl_value_release(xy[0]);
        dsl_value_release(xy[1]);
        if (c != 0) goto fail;
        int st = dsl_list_push(l, z);
        if (st != 0) {
            dsl_raise_status(in, st);
            goto fail;
        }
    }
    dsl_iter_end(&i1);
    dsl_iter_end(&i2);
    return *ret = out, 0;
fail:
    dsl_iter_end(&i1);
    dsl_iter_end(&i2);
    dsl_value_release(out);
    return -1;
}

static int o_reduce_apply(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value fn = a->self.as.l->items[0];
    struct dsl_value acc = dsl_value_retain(a->self.as.l->items[1]), x;
    struct dsl_iter it;
    if (dsl_iter_init(in, a->slot[0], &it) != 0) return dsl_value_release(acc), -1;
    int r;
    while ((r = dsl_iter_next(in, &it, &x)) == 1) {
        /* MiniTorch's reduce: fn(x, acc), each item first */
        struct dsl_value args[2] = {x, acc}, next;
        int c = mod_call(in, fn, args, 2, &next);
        dsl_value_release(x);
        dsl_value_release(acc);
        acc = dsl_none();
        if (c != 0) {
            r = -1;
            break;
        }
        acc = next;
    }
    dsl_iter_end(&it);
    if (r != 0) return dsl_value_release(acc), -1;
    return *ret = acc, 0;
}

static const char *const ls_params[] = {"ls", NULL};
static const char *const ls2_params[] = {"ls1", "ls2", NULL};
static const struct dsl_builtin map_apply = {"map",       "map(fn)(ls)",        1, 1, ls_params,
                                             o_map_apply, "[fn(x) for x in ls]"};
static const struct dsl_builtin zip_apply = {"zipWith",
                                             "zipWith(fn)(ls1, ls2)",
                                             2,
                                             2,
                                             ls2_params,
                                             o_zip_apply,
                                             "[fn(x, y) for x, y in zip(ls1, ls2)]"};
static const struct dsl_builtin reduce_apply = {
    "reduce",
    "reduce(fn, start)(ls)",
    1,
    1,
    ls_params,
    o_reduce_apply,
    "fn(x_n, ... fn(x_1, fn(x_0, start))): start for an empty list."};

static int o_map(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (mod_check_callable(in, a->slot[0], "map") != 0) return -1;
    return mod_bound(in, &map_apply, a->slot[0], ret);
}
static int o_zipWith(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (mod_check_callable(in, a->slot[0], "zipWith") != 0) return -1;
    return mod_bound(in, &zip_apply, a->slot[0], ret);
}
static int o_reduce(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (mod_check_callable(in, a->slot[0], "reduce") != 0) return -1;
    struct dsl_list *l = dsl_list_new(2);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    l->style = DSL_LIST_TUPLE;
    struct dsl_value pair = {.kind = DSL_LIST, .as.l = l};
    int st = dsl_list_push(l, dsl_value_retain(a->slot[0]));
    if (st == 0) st = dsl_list_push(l, dsl_value_retain(a->slot[1]));
    if (st != 0) {
        dsl_value_release(pair);
        return dsl_raise_status(in, st);
    }
    int r = mod_bound(in, &reduce_apply, pair, ret);
    dsl_value_release(pair);
    return r;
}

/* negList, addLists, sum and prod are MiniTorch's compositions of the three above. */
static const struct member *op_row(const char *name)
{
    return mod_member_find(&mod_operators, name);
}

static int builtin_of(const char *name, struct dsl_value *out)
{
    *out = (struct dsl_value){.kind = DSL_BUILTIN, .as.fn = &op_row(name)->row};
    return 0;
}

static int o_negList(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value neg;
    builtin_of("neg", &neg);
    struct dsl_args b = {.self = neg, .slot = {a->slot[0]}, .has = {true}};
    return o_map_apply(in, &b, ret);
}
static int o_addLists(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value add;
    builtin_of("add", &add);
    struct dsl_args b = {.self = add, .slot = {a->slot[0], a->slot[1]}, .has = {true, true}};
    return o_zip_apply(in, &b, ret);
}

static int fold(struct dsl_interp *in, const struct dsl_args *a, const char *op, double start,
                struct dsl_value *ret)
{
    struct dsl_value fn;
    builtin_of(op, &fn);
    struct dsl_list *l = dsl_list_new(2);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    l->style = DSL_LIST_TUPLE;
    struct dsl_value pair = {.kind = DSL_LIST, .as.l = l};
    dsl_list_push(l, fn);
    dsl_list_push(l, dsl_float(start));
    struct dsl_args b = {.self = pair, .slot = {a->slot[0]}, .has = {true}};
    int r = o_reduce_apply(in, &b, ret);
    dsl_value_release(pair);
    return r;
}
static int o_sum(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return fold(in, a, "add", 0.0, ret);
}
static int o_prod(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return fold(in, a, "mul", 1.0, ret);
}

static const char *const xd_params[] = {"x", "d", NULL};
static const char *const fn_params[] = {"fn", NULL};
static const char *const reduce_params[] = {"fn", "start", NULL};

static const struct member operators_members[] = {
    FN("add", "operators.add(x, y)", 2, 2, xy_params, o_add, "x + y"),
    FN("addLists", "operators.addLists(ls1, ls2)", 2, 2, ls2_params, o_addLists,
       "zipWith(add)(ls1, ls2): the lists added item by item."),
    FN("eq", "operators.eq(x, y)", 2, 2, xy_params, o_eq, "1.0 if x == y else 0.0"),
    FN("exp", "operators.exp(x)", 1, 1, x_params, o_exp, "math.exp(x)"),
    FN("id", "operators.id(x)", 1, 1, x_params, o_id, "x itself."),
    FN("inv", "operators.inv(x)", 1, 1, x_params, o_inv, "1.0 / x"),
    FN("inv_back", "operators.inv_back(x, d)", 2, 2, xd_params, o_inv_back,
       "The derivative of inv at x times d: -(1.0 / x ** 2) * d."),
    FN("is_close", "operators.is_close(x, y)", 2, 2, xy_params, o_is_close,
       "|x - y| < 1e-2 (MiniTorch's tolerance), a bool."),
    FN("log", "operators.log(x)", 1, 1, x_params, o_log,
       "MiniTorch's log: math.log(x + 1e-6) (operators.EPS keeps log(0) finite)."),
    FN("log_back", "operators.log_back(x, d)", 2, 2, xd_params, o_log_back,
       "The derivative of log at x times d: d / (x + 1e-6)."),
    FN("lt", "operators.lt(x, y)", 2, 2, xy_params, o_lt, "1.0 if x < y else 0.0"),
    FN("map", "operators.map(fn)", 1, 1, fn_params, o_map,
       "A function taking a list ls and giving [fn(x) for x in ls] (MiniTorch's map is "
       "higher-order: map(neg)([1, 2]) is [-1.0, -2.0])."),
    FN("max", "operators.max(x, y)", 2, 2, xy_params, o_max, "x if x > y else y"),
    FN("mul", "operators.mul(x, y)", 2, 2, xy_params, o_mul, "x * y"),
    FN("neg", "operators.neg(x)", 1, 1, x_params, o_neg, "-x, as a float."),
    FN("negList", "operators.negList(ls)", 1, 1, ls_params, o_negList,
       "map(neg)(ls): every item negated."),
    FN("prod", "operators.prod(ls)", 1, 1, ls_params, o_prod,
       "reduce(mul, 1.0)(ls): the product of the items."),
    FN("reduce", "operators.reduce(fn, start)", 2, 2, reduce_params, o_reduce,
       "A function taking a list ls and folding it: fn(x_n, ... fn(x_1, fn(x_0, start)))."),
    FN("relu", "operators.relu(x)", 1, 1, x_params, o_relu, "x if x > 0 else 0.0"),
    FN("relu_back", "operators.relu_back(x, d)", 2, 2, xd_params, o_relu_back,
       "The derivative of relu at x times d: d if x > 0 else 0.0."),
    FN("sigmoid", "operators.sigmoid(x)", 1, 1, x_params, o_sigmoid,
       "1 / (1 + e^-x), computed as e^x / (1 + e^x) for x < 0 so that it never overflows."),
    FN("sum", "operators.sum(ls)", 1, 1, ls_params, o_sum,
       "reduce(add, 0.0)(ls): the sum of the items."),
    FN("zipWith", "operators.zipWith(fn)", 1, 1, fn_params, o_zipWith,
       "A function taking two lists and giving [fn(x, y) for x, y in zip(ls1, ls2)]."),
};

const char *dsl_operator_name(const struct dsl_builtin *fn)
{
    /* a member's row is its first field; addresses compared as numbers, fn being any row */
    uintptr_t p = (uintptr_t)fn, lo = (uintptr_t)operators_members;
    uintptr_t hi =
        (uintptr_t)(operators_members + sizeof operators_members / sizeof operators_members[0]);
    return p >= lo && p < hi ? fn->name : NULL;
}

const struct module mod_operators = {
    .cls = MODULE_CLASS("module: MiniTorch's operators (Task 0.1 and 0.3): the scalar "
                        "functions and the higher-order list functions, with MiniTorch's "
                        "semantics (lt and eq give 1.0/0.0, log is ln(x + 1e-6))."),
    .name = "minitorch.operators",
    .members = MEMBERS(operators_members),
};
