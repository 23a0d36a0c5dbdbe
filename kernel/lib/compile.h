/* compile.h — user functions compiled for map, zip and reduce (compile.c; internal to
 * kernel/lib).
 *
 * MiniTorch's tensor_map(fn), tensor_zip(fn) and tensor_reduce(fn) in the language:
 * `map(f, x)`, `zip(f, x, y)` and `reduce(f, x, dim, start)` compile the scalar function f (a
 * `def`, or a numeric builtin such as exp or max) into the engine's register program
 * (minitorch.h, struct mt_prog) and run it over every element, as Numba's njit does for the
 * course's Python functions. */
#ifndef KERNEL_LIB_COMPILE_H
#define KERNEL_LIB_COMPILE_H

#include "lang/interp.h"
#include "lang/library.h"

#include "minitorch/minitorch.h"

struct dsl_prog {
    struct mt_prog p; /* p.insn points into insn */
    struct mt_prog_insn *insn;
    int cap;
    char name[64]; /* p.name */
};

/* Compiles `fn` (a user function or a numeric builtin) into a program of nargs arguments, for
 * the builtin `what` ("map", "zip", "reduce"): *out points at it. A user function keeps its
 * programs (Numba's cache): the next call finds it compiled, unless a global it read now holds
 * something else; *out then stays valid while the function lives. Otherwise (a builtin) the
 * program is in *scratch. 0, or -1 with an error pending: what cannot be compiled is a
 * CompileError located in the function's source. Free *scratch with dsl_prog_free either
 * way. */
int dsl_prog_compile(struct dsl_interp *in, struct dsl_value fn, int nargs, const char *what,
                     const struct mt_prog **out, struct dsl_prog *scratch);
void dsl_prog_free(struct dsl_prog *p);

/* The builtins. */
int dsl_bi_map(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_zip(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_reduce(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
/* cuda_source(fn, kind="map"): the CUDA C kernel the cuda backend compiles for fn, as a string */
int dsl_bi_cuda_source(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
/* exp, log, sqrt, sigmoid, tanh and relu of a number (float) or a tensor (the tensor op) */
int dsl_bi_exp(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_log(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_sqrt(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_sigmoid(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_tanh(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_relu(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);

#endif
