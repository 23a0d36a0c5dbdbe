/* nn.h — MiniTorch's Module, Parameter, Optimizer and SGD as classes of the language (see
 * nn.c). */
#ifndef KERNEL_LIB_NN_H
#define KERNEL_LIB_NN_H

#include "lang/values.h"

/* The class called name ("Module", "Parameter", "Optimizer", "SGD"), static, or none. */
struct dsl_value dsl_nn_class(const char *name);

#endif
