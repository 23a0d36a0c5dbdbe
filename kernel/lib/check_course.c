/* check_course.c — check("0.1") to check("2.5"): the tests of Modules 0 to 2, which test the
 * student's own files of the package (operators.py, module.py, autodiff.py,
 * scalar_functions.py, scalar.py, tensor_data.py, tensor_ops.py, tensor_functions.py,
 * tensor.py) rather than a backend, and for the training tasks their notebook's network.
 *
 * The tests are a program in the language, lib/check_course.py (its docstring says what it
 * tests and how), which the build embeds. Each check runs it afresh as a module that no import
 * reaches and calls its run(task, part, ck), handing it `ck`, a module of the natives below
 * that nothing else is given: the student's definitions, calls into their code that report
 * what it raised and where, and check's own generator. While it runs, the kernel's own files of
 * the package refuse to run (session->course_grading, lang/calls.c): a student whose file
 * imported the kernel's autodiff.py before writing their own is told so, not graded on the
 * kernel's code. What the program returns is printed as Module 3's checks print theirs
 * (check.c). */
#include "lib/check.h"

#include "lang/classes.h"
#include "lang/interp.h"
#include "lang/library.h"
#include "lang/packages.h"
#include "lib/modules/module.h"
#include "lib/tensor_methods.h"

#include "check_course_src.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The running check: one at a time (a student's function that calls check() is refused). */
struct course {
    uint64_t rng;
    const char *task;            /* "0.1" */
    const char *call;            /* check("0.1", "mul"): what errors name */
    const struct dsl_code *code; /* the tests' program, which no error is placed in */
};
static _Thread_local struct course *running;

/* ---- the natives ---------------------------------------------------------------------------- */

/* ck.draw(): a float in [-100, 100), three decimals, never 0.0 */
static int ck_draw(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)in, (void)a;
    /* three decimals: a report's inputs can be typed back in as they are shown. A draw within
     * 0.001 of zero would be 0.0, where 1 / x and the derivatives of inv and log are not
     * defined: a correct student's inv or inv_back would fail at such a seed. It is drawn
     * again; the cases at zero that a test needs are among its fixed ones. */
    double x;
    do x = (double)(int64_t)(dsl_check_draw(&running->rng) * 1000.0) / 1000.0;
    while (x == 0.0);
    *ret = dsl_float(x);
    return 0;
}

/* The library modules whose functions are the kernel's own MiniTorch, never a student's. */
static const struct module *const kernel_modules[] = {
    &mod_minitorch,     &mod_operators,  &mod_mt_autodiff,    &mod_mt_module,
    &mod_mt_optim,      &mod_mt_tensor,  &mod_mt_tensor_data, &mod_mt_tensor_functions,
    &mod_mt_tensor_ops, &mod_mt_testing, &mod_mt_fast_ops,    &mod_mt_cuda_ops,
    &mod_mt_fast_conv,
};

/* Whether fn is one of the kernel's MiniTorch functions; with operators false, not counting
 * minitorch.operators' (what Modules 1 and 2 may build on when a student skipped Module 0). */
static bool kernel_function(const struct dsl_builtin *fn, bool operators)
{
    for (size_t m = 0; m < sizeof kernel_modules / sizeof *kernel_modules; m++) {
        const struct module *mod = kernel_modules[m];
        if (!operators && mod == &mod_operators) continue;
        for (size_t i = 0; i < mod->n; i++) {
            const struct member *mb = &mod->members[i];
            if (&mb->row == fn || (mb->builtin && dsl_builtin_find(mb->builtin) == fn)) return true;
        }
    }
    return false;
}

/* While a check of Module 0 runs, every kernel function refuses to run (kernel_builtin); of
 * Modules 1 and 2, all but the operators (session->course_refuses, lang/calls.c). */
static bool kernel_builtin(const struct dsl_builtin *fn) { return kernel_function(fn, true); }
static bool refuses_but_operators(const struct dsl_builtin *fn)
{
    return kernel_function(fn, false);
}

/* While a check of Module 4 runs: the kernel's convolutions (what Tasks 4.1 and 4.2 write) and
 * its tensors' max (which MiniTorch's Tensor lacks: Task 4.4 writes Max); the rest of the
 * kernel's tensors is Modules 2 and 3, which Module 4 builds on. */
static bool refuses_module4(const struct dsl_builtin *fn)
{
    if (fn->fn == dsl_bi_conv1d || fn->fn == dsl_bi_conv2d) return true;
    for (size_t i = 0; i < dsl_tensor_method_count; i++)
        if (&dsl_tensor_methods[i] == fn) return strcmp(fn->name, "max") == 0;
    return false;
}

/* Whether v is the kernel's rather than the student's: one of its C functions or classes, a
 * function of its own files, or a class that derives from one of those (a student's
 * `class Module(minitorch.Module): pass` inherits the kernel's methods). */
static bool kernel_value(struct dsl_value v)
{
    switch (v.kind) {
    case DSL_BUILTIN: return kernel_builtin(v.as.fn);
    case DSL_FUNCTION: return v.as.fn_user->code->kernel_file != NULL;
    case DSL_CLASS:
        for (const struct dsl_class *c = v.as.cls; c;
             c = c->base.kind == DSL_CLASS ? c->base.as.cls : NULL) {
            if (c->builtin && !dsl_class_exc_base(c)) return true;
            for (size_t i = 0; i < c->attrs.len; i++)
                if (kernel_value(c->attrs.items[i].value)) return true;
        }
        return false;
    default: return false;
    }
}

/* The module of the student's file minitorch.<file>, or NULL when no cell wrote it. */
static struct dsl_value *student_file(struct dsl_session *s, const char *file)
{
    char full[96];
    snprintf(full, sizeof full, "%s.%s", DSL_PACKAGE, file);
    struct dsl_value *m = dsl_package_find(s, full);
    return m && !dsl_package_builtin(s, m) ? m : NULL;
}

static const char *const student_params[] = {"file", "name", NULL};

/* ck.student(file, name): the global `name` of the student's file minitorch.<file>, or a
 * RuntimeError saying what to write */
static int ck_student(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (a->slot[0].kind != DSL_STR || a->slot[1].kind != DSL_STR)
        return dsl_raise(in, "TypeError", "student(file, name) takes two strings");
    const char *file = a->slot[0].as.s->data, *name = a->slot[1].as.s->data;
    struct dsl_value *m = student_file(in->session, file);
    if (!m)
        return dsl_raise(in, "RuntimeError",
                         "%s tests your %s.py, and no cell has written it: write it in a cell "
                         "that starts with %%%%minitorch_file %s.py, run that cell, then check",
                         running->call, file, file);
    const struct dsl_value *v = dsl_attrs_find(&m->as.inst->attrs, name);
    if (!v)
        return dsl_raise(in, "RuntimeError",
                         "%s tests %s of your %s.py, which does not define it: write it there "
                         "and run the file's cell again",
                         running->call, name, file);
    if (kernel_value(*v))
        return dsl_raise(in, "RuntimeError",
                         "%s tests your own %s, and the %s of your %s.py is (or derives from) "
                         "the kernel's: write it yourself",
                         running->call, name, name, file);
    *ret = dsl_value_retain(*v);
    return 0;
}

static const char *const notebook_params[] = {"name", NULL};

/* ck.notebook(name): the class `name` of the student's notebook (Tasks 1.5 and 2.5 test their
 * Linear and Network), or a RuntimeError saying what to run. Its bases may be the kernel's
 * (minitorch.Module is the given code those tasks build on); its own methods must not be. */
static int ck_notebook(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (a->slot[0].kind != DSL_STR)
        return dsl_raise(in, "TypeError", "notebook(name) takes a string");
    const char *name = a->slot[0].as.s->data;
    const struct dsl_value *v = dsl_session_lookup(in->session, name);
    if (!v || v->kind != DSL_CLASS)
        return dsl_raise(in, "RuntimeError",
                         "%s tests your class %s of Task %s, and %s: run the task's cell that "
                         "defines it, then check",
                         running->call, name, running->task,
                         v ? "the notebook's is not a class" : "no cell has defined it");
    const struct dsl_class *c = v->as.cls;
    bool kernel = c->builtin && !dsl_class_exc_base(c);
    for (size_t i = 0; !kernel && i < c->attrs.len; i++)
        kernel = kernel_value(c->attrs.items[i].value);
    if (kernel)
        return dsl_raise(in, "RuntimeError",
                         "%s tests your own %s, and the notebook's %s is (or takes its methods "
                         "from) the kernel's: write it yourself",
                         running->call, name, name);
    *ret = dsl_value_retain(*v);
    return 0;
}

static const char *const swap_params[] = {"name", "value", NULL};

/* ck.swap_global(name, value): binds the notebook's global name to value (none: unbinds it)
 * and returns what it was bound to (none: nothing), for check to put back */
static int ck_swap_global(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (a->slot[0].kind != DSL_STR)
        return dsl_raise(in, "TypeError", "swap_global(name, value) takes a name");
    const char *name = a->slot[0].as.s->data;
    struct dsl_value *v = dsl_session_lookup(in->session, name);
    struct dsl_value old = v ? dsl_value_retain(*v) : dsl_none();
    if (a->slot[1].kind == DSL_NONE) {
        dsl_session_unset(in->session, name);
    } else if (dsl_session_assign(in->session, name, dsl_value_retain(a->slot[1])) != 0) {
        dsl_value_release(old);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    *ret = old;
    return 0;
}

static const char *const call_params[] = {"f", "args", NULL};

/* ck.call(f, args): (True, f(*args)), or (False, "ValueError: ...", " (in f(), line 3 ...)")
 * when the call raised; an interrupt or running out of memory ends the check instead */
static int ck_call(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value args = a->slot[1];
    if (args.kind != DSL_LIST)
        return dsl_raise(in, "TypeError", "call(f, args) takes a tuple of arguments");
    struct dsl_value got;
    int r = dsl_call(in, a->slot[0], args.as.l->items, args.as.l->len, NULL, NULL, 0, &got);
    struct dsl_list *t = NULL;
    if (r == 0) {
        t = dsl_list_new(2);
        if (!t) {
            dsl_value_release(got);
            return dsl_raise_status(in, DSL_V_NOMEM);
        }
        t->items[t->len++] = dsl_bool(true);
        t->items[t->len++] = got;
    } else {
        if (!in->ename || strcmp(in->ename, "KeyboardInterrupt") == 0 ||
            strcmp(in->ename, "MemoryError") == 0)
            return -1;
        char where[256];
        dsl_check_error_place(in, running->code, where, sizeof where);
        char *text = NULL;
        int n = asprintf(&text, "%s: %s", in->ename, in->evalue ? in->evalue : "");
        if (n < 0) text = NULL; /* asprintf leaves it undefined then */
        dsl_interp_clear_error(in);
        struct dsl_value msg = dsl_none(), place = dsl_none();
        t = n >= 0 ? dsl_list_new(3) : NULL;
        if (!t || dsl_str_value(text, (size_t)n, &msg) != 0 ||
            dsl_str_value(where, strlen(where), &place) != 0) {
            free(text);
            dsl_value_release(msg);
            if (t) dsl_value_release((struct dsl_value){.kind = DSL_LIST, .as.l = t});
            return dsl_raise_status(in, DSL_V_NOMEM);
        }
        free(text);
        t->items[t->len++] = dsl_bool(false);
        t->items[t->len++] = msg;
        t->items[t->len++] = place;
    }
    t->style = DSL_LIST_TUPLE;
    *ret = (struct dsl_value){.kind = DSL_LIST, .as.l = t};
    return 0;
}

static const char *const tensor_params[] = {"values", "shape", "requires_grad", NULL};

/* ck.tensor(values, shape, requires_grad=False): the kernel's own tensor (fast backend) of the
 * floats `values` in row-major order: Module 4's tests give the student's functions inputs that
 * no code of the student's made */
static int ck_tensor(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value vals = a->slot[0], shp = a->slot[1];
    if (vals.kind != DSL_LIST || shp.kind != DSL_LIST || shp.as.l->len < 1 ||
        shp.as.l->len > MT_MAX_DIMS)
        return dsl_raise(in, "TypeError", "tensor(values, shape) takes a list and a tuple");
    int64_t shape[MT_MAX_DIMS], n = 1;
    int nd = (int)shp.as.l->len;
    for (int i = 0; i < nd; i++) {
        if (!dsl_is_intlike(shp.as.l->items[i]))
            return dsl_raise(in, "TypeError", "tensor(): a shape of ints");
        n *= shape[i] = dsl_as_int(shp.as.l->items[i]);
    }
    if ((size_t)n != vals.as.l->len)
        return dsl_raise(in, "ValueError", "tensor(): %zu values for %lld", vals.as.l->len,
                         (long long)n);
    float *f = malloc(sizeof *f * (size_t)(n ? n : 1));
    if (!f) return dsl_raise_status(in, DSL_V_NOMEM);
    for (int64_t i = 0; i < n; i++) f[i] = (float)dsl_as_double(vals.as.l->items[i]);
    struct mt_tensor *t = NULL;
    enum mt_status st = mt_from_data(in->session->ctx, MT_BACKEND_FAST, nd, shape, f, &t);
    free(f);
    if (st == MT_OK && a->has[2] && a->slot[2].kind == DSL_BOOL && a->slot[2].as.b)
        st = mt_tensor_requires_grad(t, true);
    if (st != MT_OK) {
        mt_tensor_release(t);
        return dsl_engine_raise(in, st);
    }
    *ret = dsl_tensor(t);
    return 0;
}

static const char *const values_params[] = {"t", "grad", NULL};

/* ck.values(t, grad=False): (shape, values in row-major order) of the kernel's tensor t (of its
 * gradient with grad; none when it has none), or none when t is no tensor of the kernel's */
static int ck_values(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    *ret = dsl_none();
    if (a->slot[0].kind != DSL_TENSOR) return 0;
    const struct mt_tensor *t = a->slot[0].as.t;
    if (a->has[1] && a->slot[1].kind == DSL_BOOL && a->slot[1].as.b) t = t->grad;
    if (!t) return 0;
    float *f = malloc(sizeof *f * (size_t)(t->size ? t->size : 1));
    struct dsl_list *pair = dsl_list_new(2), *vals = dsl_list_new((size_t)t->size);
    struct dsl_value shape = dsl_none();
    enum mt_status es = f && pair && vals ? mt_tensor_copy_out(t, f) : MT_ERR_NOMEM;
    int r = es == MT_OK ? dsl_int_tuple(in, t->shape, t->ndim, &shape)
                        : (es == MT_ERR_NOMEM ? dsl_raise_status(in, DSL_V_NOMEM)
                                              : dsl_engine_raise(in, es));
    for (int64_t i = 0; r == 0 && i < t->size; i++) vals->items[vals->len++] = dsl_float(f[i]);
    free(f);
    if (r != 0) {
        dsl_value_release(shape);
        if (vals) dsl_value_release((struct dsl_value){.kind = DSL_LIST, .as.l = vals});
        if (pair) dsl_value_release((struct dsl_value){.kind = DSL_LIST, .as.l = pair});
        return -1;
    }
    pair->style = DSL_LIST_TUPLE;
    pair->items[pair->len++] = shape;
    pair->items[pair->len++] = (struct dsl_value){.kind = DSL_LIST, .as.l = vals};
    *ret = (struct dsl_value){.kind = DSL_LIST, .as.l = pair};
    return 0;
}

static const char *const own_params[] = {"file", "name", NULL};

/* ck.own(file, name): Module 4's definition of name, from the student's file minitorch.<file>
 * when a cell wrote it, else the notebook's global; a RuntimeError saying what to write when
 * there is none, or when it is the kernel's own (a class deriving from minitorch.Function is
 * the student's when its own methods are) */
static int ck_own(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (a->slot[0].kind != DSL_STR || a->slot[1].kind != DSL_STR)
        return dsl_raise(in, "TypeError", "own(file, name) takes two strings");
    const char *file = a->slot[0].as.s->data, *name = a->slot[1].as.s->data;
    struct dsl_value *m = student_file(in->session, file);
    const struct dsl_value *v =
        m ? dsl_attrs_find(&m->as.inst->attrs, name) : dsl_session_lookup(in->session, name);
    if (!v || v->kind == DSL_NONE)
        return dsl_raise(in, "RuntimeError",
                         "%s tests your %s, and %s: write it (in the task's cell, or in a cell "
                         "that starts with %%%%minitorch_file %s.py), run that cell, then check",
                         running->call, name,
                         m ? "your file does not define it" : "no cell has defined it", file);
    bool kernel = v->kind == DSL_CLASS ? v->as.cls->builtin : kernel_value(*v);
    for (size_t i = 0; v->kind == DSL_CLASS && !kernel && i < v->as.cls->attrs.len; i++)
        kernel = kernel_value(v->as.cls->attrs.items[i].value);
    if (kernel)
        return dsl_raise(in, "RuntimeError",
                         "%s tests your own %s, and the %s defined is the kernel's: write it "
                         "yourself",
                         running->call, name, name);
    *ret = dsl_value_retain(*v);
    return 0;
}

static const struct member ck_members[] = {
    FN("call", "call(f, args)", 2, 2, call_params, ck_call,
       "(True, f(*args)), or (False, error, where) when it raised."),
    FN("draw", "draw()", 0, 0, NULL, ck_draw, "A float in [-100, 100) from check's generator."),
    FN("notebook", "notebook(name)", 1, 1, notebook_params, ck_notebook,
       "The class name of the student's notebook."),
    FN("own", "own(file, name)", 2, 2, own_params, ck_own,
       "Module 4's name: the student's file's, else the notebook's."),
    FN("student", "student(file, name)", 2, 2, student_params, ck_student,
       "The student's definition of name in their file minitorch.<file>."),
    FN("swap_global", "swap_global(name, value)", 2, 2, swap_params, ck_swap_global,
       "Binds the notebook's global name to value; returns the old value."),
    FN("tensor", "tensor(values, shape, requires_grad=False)", 2, 3, tensor_params, ck_tensor,
       "The kernel's own tensor of the values, row-major."),
    FN("values", "values(t, grad=False)", 1, 2, values_params, ck_values,
       "(shape, values) of the kernel's tensor t or of its gradient; none otherwise."),
};

static const struct module mod_check_natives = {
    .cls = MODULE_CLASS("module: what check's tests of Modules 0 to 2 are given."),
    .name = "check",
    .members = MEMBERS(ck_members),
};

/* ---- check(task, part) of Modules 0 to 2 ------------------------------------------------ */

static const char *const course_tasks[] = {"0.1", "0.2", "0.3", "0.4", "1.1", "1.2",
                                           "1.3", "1.4", "1.5", "2.1", "2.2", "2.3",
                                           "2.4", "2.5", "4.1", "4.2", "4.3", "4.4"};

bool dsl_check_course_task(const char *task)
{
    for (size_t i = 0; i < sizeof course_tasks / sizeof *course_tasks; i++)
        if (strcmp(course_tasks[i], task) == 0) return true;
    return false;
}

/* An error the tests' program let through (the student has no such file, say): raised again
 * from check() itself, so that its traceback is the student's cell and not the program's. */
static int raise_again(struct dsl_interp *in)
{
    const char *ename = in->ename;
    if (!ename || strcmp(ename, "KeyboardInterrupt") == 0 || strcmp(ename, "MemoryError") == 0)
        return -1;
    char *value = in->evalue ? strdup(in->evalue) : NULL;
    dsl_interp_clear_error(in);
    int r = dsl_raise(in, ename, "%s", value ? value : "");
    free(value);
    return r;
}

int dsl_check_course(struct dsl_interp *in, const char *task, const char *part, uint64_t seed,
                     const char *call, struct dsl_value *ret)
{
    if (running)
        return dsl_raise(in, "RuntimeError", "check() cannot run inside %s", running->call);
    struct dsl_session *s = in->session;
    int64_t t0 = mt_now_ns();
    struct dsl_value prog, ck = dsl_none(), run_fn = dsl_none(), result = dsl_none();
    if (dsl_package_private(in, "check", "check_course.py", (const char *)check_course_src,
                            sizeof check_course_src - 1, &s->check_code, &prog) != 0)
        return -1;
    int r = mod_module_value(in, &mod_check_natives, &ck);
    const struct dsl_value *f = r == 0 ? dsl_attrs_find(&prog.as.inst->attrs, "run") : NULL;
    struct dsl_value args[3] = {dsl_none(), dsl_none(), ck};
    if (r == 0 && !f) r = dsl_raise(in, "SystemError", "check_course.py has no run()");
    if (r == 0) run_fn = dsl_value_retain(*f);
    if (r == 0 && (dsl_str_value(task, strlen(task), &args[0]) != 0 ||
                   (part && dsl_str_value(part, strlen(part), &args[1]) != 0)))
        r = dsl_raise_status(in, DSL_V_NOMEM);
    struct course c = {.rng = seed,
                       .task = task,
                       .call = call,
                       .code = run_fn.kind == DSL_FUNCTION ? run_fn.as.fn_user->code : NULL};
    /* The training tasks build the student's network with what the notebook's minitorch holds
     * (the kernel's Module, and its Scalar or tensors where a student skipped a module) and
     * run it on Scalars and tensors of check's own: their check refuses none of the kernel. */
    bool training = strcmp(task, "1.5") == 0 || strcmp(task, "2.5") == 0;
    /* The student's code that a check runs may draw from the session's generator (MiniTorch's
     * Linear draws its parameters with random): check leaves it as it found it, as MiniTorch's
     * tests, run by pytest in a process of their own, leave a notebook's. */
    uint32_t words[MT_RANDOM_WORDS];
    int pos;
    mt_random_state(s->ctx, words, &pos);
    if (r == 0) {
        running = &c;
        s->course_grading = !training;
        /* Module 4 builds on the kernel's Modules 0 to 3 (its Context, tensors and rand):
         * only its nn.py, convolutions and max are the tasks' */
        s->course_file = task[0] == '4' ? "nn.py" : NULL;
        s->course_refuses = training         ? NULL
                            : task[0] == '0' ? kernel_builtin
                            : task[0] == '4' ? refuses_module4
                                             : refuses_but_operators;
        r = dsl_call(in, run_fn, args, 3, NULL, NULL, 0, &result);
        s->course_grading = false;
        s->course_file = NULL;
        s->course_refuses = NULL;
        running = NULL;
        mt_random_set_state(s->ctx, words, pos);
        if (r != 0) r = raise_again(in);
    }
    for (int i = 0; i < 3; i++) dsl_value_release(args[i]);
    dsl_value_release(run_fn);
    dsl_package_private_end(prog);
    if (r != 0) return r;
    const struct dsl_value *t = result.kind == DSL_LIST ? result.as.l->items : NULL;
    bool report = t && result.as.l->len == 6 && t[0].kind == DSL_STR && t[1].kind == DSL_STR &&
                  t[2].kind == DSL_INT && t[3].kind == DSL_INT && t[4].kind == DSL_STR &&
                  t[5].kind == DSL_STR;
    if (result.kind != DSL_STR && !report) {
        r = dsl_raise(in, "SystemError", "check_course.py's run() gave %s", dsl_type_name(result));
    } else if (result.kind == DSL_STR) { /* a part the task does not have: the message says which */
        r = dsl_raise(in, "ValueError", "%s", result.as.s->data);
    } else {
        char head[384];
        snprintf(head, sizeof head,
                 "%s: MiniTorch's Task %s tests%s%s on your %s, expected values computed by "
                 "check, inputs drawn with seed %llu\n",
                 call, task, part ? " of " : "", part ? part : "", t[5].as.s->data,
                 (unsigned long long)seed);
        r = dsl_check_report(in, head, t[0].as.s->data, t[1].as.s->data, (int)dsl_as_int(t[2]),
                             (int)dsl_as_int(t[3]), task, part, t[4].as.s->data,
                             (double)(mt_now_ns() - t0) * 1e-9);
    }
    dsl_value_release(result);
    if (r == 0) *ret = dsl_none();
    return r;
}
