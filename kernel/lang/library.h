/* library.h — what the language asks of its library (internal to kernel/lang).
 *
 * The evaluator, the session and completion know the builtins, tensors, magics and
 * %diagnostics only through the declarations below; kernel/lib defines them (builtins.c,
 * tensor_methods.c, magics.c, diagnostics.c, compile.c). The arrow between the two folders
 * points one way: the library includes the language's headers, the language includes this one
 * and never a header of kernel/lib (the build's include roots and tools/check-layers.py hold
 * it). The two are linked into one library, mt_dsl. */
#ifndef KERNEL_LANG_LIBRARY_H
#define KERNEL_LANG_LIBRARY_H

#include "lang/lexer.h"
#include "lang/native.h"
#include "lang/values.h"

#include "render/render.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct dsl_interp;
struct dsl_session;
struct mt_ctx;

/* ---- builtins (lib/builtins.c) ---------------------------------------------------------- */

extern const struct dsl_builtin dsl_builtins[];
extern const size_t dsl_builtin_count;

/* The builtin called `name`, or NULL. */
const struct dsl_builtin *dsl_builtin_find(const char *name);

/* Whether fn is the builtin zip: Python's zip(*iterables) where no argument after the first is
 * a tensor. A `for` loop or a comprehension over its call walks the iterables side by side
 * (dsl_zip_loop_start), as Python's lazy zip does, where the row returns the list of tuples. */
bool dsl_builtin_is_zip(const struct dsl_builtin *fn);

/* Whether fn is the builtin len. */
bool dsl_builtin_is_len(const struct dsl_builtin *fn);

/* Whether `name` is a builtin that grades (check): no session variable may take its name, so
 * that no cell can replace what a notebook's graded cells call. */
bool dsl_builtin_protected(const char *name);

/* ---- tensors (lib/tensor_methods.c) ----------------------------------------------------- */

/* Waits for the tensor work the session queued on the GPU (mt_ctx_wait): before a clock is
 * read, and at the end of a cell, so that a kernel's error belongs to the cell that queued it.
 * 0, or -1 after raising that error. */
int dsl_engine_wait(struct dsl_interp *in);

/* Methods and properties of tensors, sorted by name. A property row has min = max = 0 and its
 * fn returns the value. */
extern const struct dsl_builtin dsl_tensor_methods[];
extern const size_t dsl_tensor_method_count;
extern const struct dsl_builtin dsl_tensor_props[];
extern const size_t dsl_tensor_prop_count;

/* The method or property called name (*is_prop tells which), or NULL. */
const struct dsl_builtin *dsl_tensor_attr_find(const char *name, bool *is_prop);

/* Appends help for a tensor value: the type's doc and every method and property. */
int dsl_tensor_help(struct render_buf *b);

/* Operator `op` (DSL_T_PLUS, MINUS, STAR, SLASH, AT) where a or b (borrowed) is a tensor: 0 with
 * a new tensor in *out, or -1 after raising. */
int dsl_tensor_binary(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a,
                      struct dsl_value b, struct dsl_value *out);
/* Comparison `op` (DSL_T_LT, GT, EQ, NE, LE, GE) where a or b is a tensor. The other operand
 * must be a tensor or a number, except for == and != which compare anything else by identity
 * (false / true) as Python does. 0 with a new value in *out, or -1. */
int dsl_tensor_compare(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a,
                       struct dsl_value b, struct dsl_value *out);
/* Unary `op` (DSL_T_MINUS, DSL_T_PLUS) on tensor v. */
int dsl_tensor_unary(struct dsl_interp *in, enum dsl_tok op, struct dsl_value v,
                     struct dsl_value *out);
/* Python truth of a tensor: its one element != 0; ValueError for other sizes. */
int dsl_tensor_truth(struct dsl_interp *in, struct dsl_value v, bool *out);

/* t[ix...]: every dim indexed (or one list holding the indices) gives a float. */
int dsl_tensor_getitem(struct dsl_interp *in, struct dsl_value t, const struct dsl_value *ix,
                       size_t n, struct dsl_value *out);
/* t[ix...] = v, v a number or a one-element tensor. */
int dsl_tensor_setitem(struct dsl_interp *in, struct dsl_value t, const struct dsl_value *ix,
                       size_t n, struct dsl_value v);
/* t.name: a property's value or a bound method; AttributeError (with a suggestion) otherwise. */
int dsl_tensor_getattr(struct dsl_interp *in, struct dsl_value t, const char *name,
                       struct dsl_value *out);
/* t.name = v: grad (none only) is writable; requires_grad, a method, says to call
 * requires_grad_(). */
int dsl_tensor_setattr(struct dsl_interp *in, struct dsl_value t, const char *name,
                       struct dsl_value v);

/* ---- modules (lib/modules/) ------------------------------------------------------------ */

/* `import name`: the module called name (dotted for a submodule: "minitorch.operators") as a
 * new value: 0, or -1 after raising ModuleNotFoundError that lists the modules there are. */
int dsl_module_import(struct dsl_interp *in, const char *name, struct dsl_value *out);
/* The name of the i-th module there is ("math", "minitorch.operators", ...), NULL past the
 * last: for a NameError's hint and for completing `import `. */
const char *dsl_module_name(size_t i);
/* The class of the module called name (its members: attr_name, attr_help), or NULL. */
const struct dsl_object_class *dsl_module_class(const char *name);
/* The names the package's files that cells wrote add to the module of class cls (its files,
 * and minitorch's star imports of them), borrowed: up to cap into out, the count returned (dir(),
 * completion). 0 for another class. */
size_t dsl_module_file_names(struct dsl_session *s, const struct dsl_object_class *cls,
                             const char **out, size_t cap);
/* The file a cell wrote that is the attribute `name` of the module of class cls
 * (minitorch.scalar), borrowed, or NULL. */
struct dsl_value *dsl_module_file(struct dsl_session *s, const struct dsl_object_class *cls,
                                  const char *name);
/* `from module import name`: the member as a new value: 0, or -1 after raising ImportError
 * (cannot import name ..., with a suggestion). */
int dsl_module_from(struct dsl_interp *in, struct dsl_value module, const char *name,
                    struct dsl_value *out);

/* ---- line magics (lib/magics.c) --------------------------------------------------------- */

/* Runs a magic. `call` (lib/magics.c) holds its argument text, where that starts in the
 * source, the words of that text for a magic whose row says `words`, and the slot for a value.
 * Returns 0, or -1 after raising. */
struct dsl_magic_call;
typedef int (*dsl_magic_fn)(struct dsl_interp *in, const struct dsl_magic_call *call);

struct dsl_magic {
    const char *name;  /* without the '%' */
    const char *usage; /* "%backend [simple|fast|cuda|student]" */
    dsl_magic_fn fn;
    const char *doc;
    bool words; /* its arguments are words, split before fn runs (a '#' starts a comment) */
};

extern const struct dsl_magic dsl_magics[]; /* sorted by name */
extern const size_t dsl_magic_count;

/* The magic called `name` (without '%'), or NULL. */
const struct dsl_magic *dsl_magic_find(const char *name);

/* Appends the usage line, a blank line and the doc of m. */
int dsl_magic_help(struct render_buf *b, const struct dsl_magic *m);

/* Runs `%name args`; an unknown name raises UsageError listing the known magics. Errors raised
 * without a position point at `pos` (the '%'). `result` is non-NULL when the magic is the
 * cell's last statement: a magic running a statement (%time) leaves its value there, as
 * IPython shows `%time 1 + 1`'s value as the result. Returns 0 or -1. */
int dsl_magic_run(struct dsl_interp *in, const char *name, const char *args, size_t pos,
                  struct dsl_value *result);

/* ---- %diagnostics (lib/diagnostics.c) --------------------------------------------------- */

struct dsl_diag_log;
/* A new log collecting the ops run on ctx, or NULL when out of memory. */
struct dsl_diag_log *dsl_diag_open(struct mt_ctx *ctx);
/* Stops and frees the log. Returns its table as a new mime bundle when `table` is true and an
 * op ran (NULL otherwise, or when memory ran out); *explained as dsl_diag_bundle takes it. */
json_t *dsl_diag_close(struct dsl_diag_log *log, bool table, bool *explained);

/* ---- the student backend (lib/student.c) ----------------------------------------------- */

/* Forgets the session's class of ops and what it made (session reset): the student backend is
 * unavailable until TensorBackend(ops) is called again. */
void dsl_student_forget(struct dsl_session *s);

/* ---- user functions compiled for map, zip and reduce (lib/compile.c) -------------------- */

/* Frees a function's compiled programs. */
void dsl_prog_cache_free(struct dsl_prog_cache *c);

/* ---- functions given to numba's njit, compiled to native code (lib/jit) --------------- */

/* Calls f, a function marked jit, through its compiled code: 0 with the result in *out, -1
 * after raising, or 1 when the compiler does not take the function or these arguments yet
 * (the caller then runs it as any function). */
int dsl_jit_call(struct dsl_interp *in, struct dsl_function *f, const struct dsl_value *pos,
                 size_t npos, char *const *kwnames, const struct dsl_value *kwvals, size_t nkw,
                 struct dsl_value *out);
/* f[blocks, threads] of a function given to cuda.jit: the kernel ready to launch, a value
 * whose call runs it (lib/jit): 0, or -1 after raising. */
int dsl_cuda_configure(struct dsl_interp *in, struct dsl_value f, const struct dsl_value *subs,
                       size_t nsubs, struct dsl_value *out);
/* Frees a function's compiled code. */
void dsl_jit_cache_free(struct dsl_jit_cache *c);
/* Forgets the functions whose compiled code the session ran last (session reset). */
void dsl_jit_forget(struct dsl_session *s);
/* fn.parallel_diagnostics(level=1, source=False), Numba's method of a function given to njit
 * (MiniTorch's parallel_check.py prints it): parallel_diagnostics(fn), bound to fn. */
extern const struct dsl_builtin dsl_jit_diagnostics_method;

#endif
