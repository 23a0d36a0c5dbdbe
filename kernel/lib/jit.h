/* jit.h — functions given to numba's njit, compiled to native code, and kernels given to
 * cuda.jit, run on a GPU or in the kernel's CUDA simulator (kernel/lib/jit; internal to kernel/lib:
 * the language calls dsl_jit_call and dsl_cuda_configure through lang/library.h). */
#ifndef KERNEL_LIB_JIT_H
#define KERNEL_LIB_JIT_H

#include "lang/native.h"

/* parallel_diagnostics(fn=None, source=False): how each compiled form of fn runs (parallel
 * loop, each iteration's own variables, the functions compiled in, its loops' instructions per
 * element, the last call against the built-in op when the student backend made it) or why it
 * runs in the interpreter; without fn, the same for the functions the cell ran compiled;
 * source=True adds the C it was compiled from. */
int dsl_bi_parallel_diagnostics(struct dsl_interp *in, const struct dsl_args *a,
                                struct dsl_value *ret);

/* cuda.jit kernels run on the GPU when the cuda backend has one, else in the kernel's CUDA
 * simulator; %cuda simulate (on) or %cuda auto (off) chooses. */
void dsl_cuda_set_simulate(bool on);
/* cuda_source(kernel): the CUDA C a GPU runs for kernel f given the arguments of its last
 * launch (simulated or not): 0 with a str in *ret, or -1 after raising. */
int dsl_cuda_kernel_source(struct dsl_interp *in, struct dsl_function *f, struct dsl_value *ret);
/* The number of cuda.jit launches so far in this process. */
long dsl_cuda_launches(void);
/* Prints parallel_diagnostics' report of each kernel launched after launch number `since`
 * (%diagnostics STMT: those STMT launched); nothing when none was. */
void dsl_cuda_report_since(struct dsl_interp *in, long since);
/* Whether the simulator was chosen (%cuda simulate, MT_CUDA_SIMULATE=1), as Numba's
 * NUMBA_ENABLE_CUDASIM=1 chooses it, rather than taken for want of a GPU. */
bool dsl_cuda_simulate_chosen(void);
/* Whether the next launch is simulated (ctx: the session's, asked whether a GPU is there). */
bool dsl_cuda_simulating(struct mt_ctx *ctx);

#endif
