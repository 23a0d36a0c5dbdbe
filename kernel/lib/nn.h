/* nn.h — MiniTorch's Module, Parameter, Optimizer, SGD and Function as classes of the language (see
 * nn.c). */
#ifndef KERNEL_LIB_NN_H
#define KERNEL_LIB_NN_H

#include "lang/values.h"

/* The class called name ("Module", "Parameter", "Optimizer", "SGD"), static, or none. */
struct dsl_value dsl_nn_class(const char *name);

struct dsl_interp;
/* minitorch.Function (MiniTorch's tensor Function), its classmethod apply bound at the first
 * use: 0 with the class in *out, or -1 after raising. */
int dsl_nn_function_class(struct dsl_interp *in, struct dsl_value *out);

#endif
