/* module.h — what the files of lib/modules/ share (internal to that folder): a module's table
 * of members and the macros that write its rows, the modules themselves (each defined in the
 * file of its name), and the helpers more than one module calls (module.c).
 *
 * A module is an engine object (values.h) of its own class, whose state is its table: a
 * member is a function (a builtin row of the module's file, called as any builtin), another
 * name for a library builtin (time.sleep is sleep, minitorch.tensor's numbers are tensor's), or
 * a value computed when looked up (math.pi, minitorch.operators, minitorch.datasets).
 * Completion and Shift-Tab read the same tables through the class's attr_name, attr_help and
 * attr_class. */
#ifndef KERNEL_LIB_MODULES_MODULE_H
#define KERNEL_LIB_MODULES_MODULE_H

#include "lib/modules.h"

#include "lang/interp.h"

#include "minitorch/minitorch.h"

#include <stdbool.h>
#include <stdint.h>

static inline struct mt_ctx *ctx_of(struct dsl_interp *in) { return in->session->ctx; }

/* A module's member. Exactly one of row.fn (a function of the module's file), builtin (the
 * library builtin of that name), value (computed on lookup; row.signature and row.doc
 * describe it for help) and from (the member of that name of another module, which MiniTorch's
 * files import from each other: minitorch.tensor_data.to_index is minitorch.to_index) is set. */
struct module;
struct member {
    struct dsl_builtin row; /* first: a DSL_BUILTIN value points at it */
    const char *builtin;
    int (*value)(struct dsl_interp *in, struct dsl_value *out);
    const struct module *from;
};

struct module {
    struct dsl_object_class cls; /* first: a module object's class is its module */
    const char *name;
    const struct member *members; /* sorted by name */
    size_t n;
};

/* The modules, each in the file of its name; module.c lists them for `import`. */
extern const struct module mod_math, mod_random, mod_time, mod_numpy, mod_numba, mod_numba_cuda,
    mod_operators, mod_minitorch, mod_typing, mod_typing_extensions, mod_numpy_typing, mod_argparse,
    mod_dataclasses, mod_numpy_testing, mod_ipython, mod_ipython_display;
/* minitorch's files as the kernel provides them, each the names of minitorch that MiniTorch
 * defines in that file (minitorch_files.c) */
extern const struct module mod_mt_autodiff, mod_mt_cuda_ops, mod_mt_fast_conv, mod_mt_fast_ops,
    mod_mt_module, mod_mt_tensor, mod_mt_optim, mod_mt_tensor_data, mod_mt_tensor_functions,
    mod_mt_tensor_ops, mod_mt_testing;

/* The class of minitorch.datasets (datasets.c), a dict rather than a module. */
extern const struct dsl_object_class mod_datasets_class;

/* ---- the module class (module.c) -------------------------------------------------------- */

/* The functions of a module's class, which MODULE_CLASS names. A module's state is its static
 * table, so freeing it frees nothing (as for the other static states: backends, datasets). */
void mod_free_nothing(void *state);
int mod_module_repr(struct render_buf *b, const void *state);
int mod_module_getattr(struct dsl_interp *in, struct dsl_value self, const char *name,
                       struct dsl_value *out);
const char *mod_module_attr_name(const struct dsl_object_class *cls, size_t i);
bool mod_module_attr_help(const struct dsl_object_class *cls, const char *name,
                          struct render_buf *b);
const struct dsl_object_class *mod_module_attr_class(const struct dsl_object_class *cls,
                                                     const char *name);

#define MODULE_CLASS(doc_)                                                                         \
    {                                                                                              \
        .name = "module", .doc = doc_, .free = mod_free_nothing, .repr = mod_module_repr,          \
        .getattr = mod_module_getattr, .attr_name = mod_module_attr_name,                          \
        .attr_help = mod_module_attr_help, .attr_class = mod_module_attr_class,                    \
    }
#define MEMBERS(arr) arr, sizeof arr / sizeof arr[0]

/* The rows of a module's table: a function of its file, a value computed on lookup, another
 * name for a library builtin. */
#define FN(name_, sig, lo, hi, params, fn, doc_)                                                   \
    {                                                                                              \
        .row = { name_, sig, lo, hi, params, fn, doc_ }                                            \
    }
#define VALUE(name_, sig, fn, doc_)                                                                \
    {                                                                                              \
        .row = {name_, sig, 0, 0, NULL, NULL, doc_}, .value = fn                                   \
    }
#define FROM(name_, module_)                                                                       \
    {                                                                                              \
        .row = {name_, NULL, 0, 0, NULL, NULL, NULL}, .from = &module_                             \
    }
#define ALIAS(name_, sig, builtin_, doc_)                                                          \
    {                                                                                              \
        .row = {name_, sig, 0, 0, NULL, NULL, doc_}, .builtin = builtin_                           \
    }

/* The member of m called name, or NULL. */
const struct member *mod_member_find(const struct module *m, const char *name);
/* A new module value (its state is the static table): 0, or -1 after raising. */
int mod_module_value(struct dsl_interp *in, const struct module *m, struct dsl_value *out);

/* ---- arguments and calls (module.c) ----------------------------------------------------- */

/* A real number argument, as CPython's math functions take it: 0, or -1 after TypeError. */
int mod_real_arg(struct dsl_interp *in, struct dsl_value v, double *out);
/* An integer argument: 0, or -1 after TypeError. */
int mod_int_arg(struct dsl_interp *in, struct dsl_value v, int64_t *out);
/* Raises ValueError: math domain error; returns -1. */
int mod_domain_error(struct dsl_interp *in);

/* fn(args...) with n positional arguments. */
int mod_call(struct dsl_interp *in, struct dsl_value fn, const struct dsl_value *args, size_t n,
             struct dsl_value *out);
/* 0 when fn can be called, else -1 after TypeError naming who was given it. */
int mod_check_callable(struct dsl_interp *in, struct dsl_value fn, const char *who);
/* The method value of row bound to self: 0, or -1 after raising. */
int mod_bound(struct dsl_interp *in, const struct dsl_builtin *row, struct dsl_value self,
              struct dsl_value *ret);
/* Binds each of the n rows as a staticmethod (DSL_WRAP_STATIC) or classmethod (DSL_WRAP_CLASS)
 * attribute of library class c. 0, or -1 after raising. */
int mod_class_wrap(struct dsl_interp *in, struct dsl_class *c, const struct dsl_builtin *rows,
                   size_t n, enum dsl_wrap how);

/* ---- values more than one module holds -------------------------------------------------- */

/* math.exp(x), which operators.exp is too (math.c). */
int mod_math_exp(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);

/* The dtype names numpy.int32 ... numpy.float64, which numba has too (numpy.c). */
int mod_dtype_int32(struct dsl_interp *in, struct dsl_value *out);
int mod_dtype_int64(struct dsl_interp *in, struct dsl_value *out);
int mod_dtype_float32(struct dsl_interp *in, struct dsl_value *out);
int mod_dtype_float64(struct dsl_interp *in, struct dsl_value *out);

/* minitorch.NAME as the package's files that cells wrote give it (MiniTorch's star imports of
 * them, minitorch_files.c): borrowed, or NULL when none gives the name. */
struct dsl_value *mod_minitorch_file_export(struct dsl_interp *in, const char *name);
/* minitorch.NAME read as a module of the session (minitorch.scalar, which every
 * ScalarFunction.apply reads) when no file gives the name: the module `slot` (the session's, as
 * dsl_package_find found it) kept by mod_minitorch_module_keep, and given again by
 * mod_minitorch_module_kept (borrowed; NULL when not kept, or no longer good: the session's
 * modules or the names the star-imported files bind have changed since). */
void mod_minitorch_module_keep(struct dsl_interp *in, const char *name, struct dsl_value *slot);
struct dsl_value *mod_minitorch_module_kept(struct dsl_interp *in, const char *name);
/* Runs the kernel's own file whose module is `name` ("minitorch.scalar") unless the session has
 * that module already; nothing for a name that is none of the kernel's files. 0, or -1 after
 * raising (minitorch_files.c). */
int mod_minitorch_builtin_load(struct dsl_interp *in, const char *name);
/* minitorch.NAME as the kernel's own files give it, after everything else had no NAME: runs the
 * file whose __all__ lists NAME (unless a student's file of that name replaced it), then 1 with
 * a new value in *out, 0 when none gives the name, -1 after raising. */
int mod_minitorch_builtin_export(struct dsl_interp *in, const char *name, struct dsl_value *out);
/* The names those star imports give minitorch (duplicates included), borrowed: up to cap into
 * out, the count returned. */
size_t mod_minitorch_file_names(struct dsl_session *s, const char **out, size_t cap);

/* minitorch.Tensor and minitorch.tensor.Tensor: the class of the kernel's tensors, whose
 * constructor is the builtin tensor() (minitorch_files.c). */
int mod_tensor_class_value(struct dsl_interp *in, struct dsl_value *out);

/* minitorch.MathTest and MathTestVariable, the classes (testing.c). */
int mod_math_test_value(struct dsl_interp *in, struct dsl_value *out);
int mod_math_test_variable_value(struct dsl_interp *in, struct dsl_value *out);
/* minitorch.grad_check(f, *vals) (testing.c). */
int mod_grad_check(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);

/* minitorch.datasets, a new value of mod_datasets_class (datasets.c). */
int mod_datasets_value(struct dsl_interp *in, struct dsl_value *out);
/* minitorch.load_digits(): scikit-learn's 8x8 handwritten digits as (images, labels). */
int mod_load_digits(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
/* minitorch.pytorch_digits_epoch(epochs=3): the same classifier's epoch in PyTorch, run by a
 * Python that has it, as (median ms, torch's version). */
int mod_pytorch_digits_epoch(struct dsl_interp *in, const struct dsl_args *a,
                             struct dsl_value *ret);

#endif
