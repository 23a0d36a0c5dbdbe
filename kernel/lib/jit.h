/* jit.h — functions given to numba's njit, compiled to native code (jit.c; internal to
 * kernel/lib: the language calls dsl_jit_call through lang/library.h). */
#ifndef KERNEL_LIB_JIT_H
#define KERNEL_LIB_JIT_H

#include "lang/native.h"

/* parallel_diagnostics(fn, source=False): how each compiled form of fn runs (parallel loop,
 * each iteration's own variables, the functions compiled in) or why it runs in the
 * interpreter; source=True adds the C it was compiled from. */
int dsl_bi_parallel_diagnostics(struct dsl_interp *in, const struct dsl_args *a,
                                struct dsl_value *ret);

#endif
