/* modules.h — what `import` finds (internal to kernel/lib; the language reaches it through
 * dsl_module_import and dsl_module_from in lang/library.h). The modules are lib/modules/, a file
 * each. */
#ifndef KERNEL_LIB_MODULES_H
#define KERNEL_LIB_MODULES_H

#include "lang/library.h"
#include "lang/values.h"

#include "minitorch/minitorch.h"

#include <stdbool.h>

/* The class of minitorch.SimpleBackend, FastTensorBackend and GPUBackend. */
extern const struct dsl_object_class dsl_backend_class;

/* Whether v is one of those backend values; its backend in *out when it is. */
bool dsl_backend_object(struct dsl_value v, enum mt_backend *out);
/* The value that stands for backend b (minitorch.FastTensorBackend for fast) in *out: 0, or -1
 * after raising. */
int dsl_backend_value(struct dsl_interp *in, enum mt_backend b, struct dsl_value *out);

/* The kernel backend whose ops class (minitorch.SimpleOps, FastOps, CudaOps) class c is or
 * derives from, in *out: false when it derives only from TensorOps. */
bool dsl_ops_class_backend(const struct dsl_class *c, enum mt_backend *out);

/* The name of module value v ("numpy", "minitorch.operators"), or NULL when v is no module. */
const char *dsl_module_of(struct dsl_value v);

/* The name of fn ("neg", "mul") when it is one of minitorch.operators' functions, else NULL. */
const char *dsl_operator_name(const struct dsl_builtin *fn);

#endif
