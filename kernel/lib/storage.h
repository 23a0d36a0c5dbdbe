/* storage.h — a tensor's memory as MiniTorch's kernels see it: t._tensor, t.tuple() and
 * minitorch.TensorData (see storage.c). */
#ifndef KERNEL_LIB_STORAGE_H
#define KERNEL_LIB_STORAGE_H

#include "lang/native.h"

/* t._tensor: the tensor's TensorData (a property row of the tensor's). */
int dsl_tensor_data_prop(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
/* t.tuple(): (storage, shape, strides) (a method row of the tensor's). */
int dsl_tensor_tuple(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
/* minitorch.TensorData(storage, shape, strides=None): a new tensor's TensorData holding the
 * numbers of storage, laid out by shape and strides (row-major without strides). */
int dsl_bi_tensor_data(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);

/* A new Storage value of t's memory, from its first element to the last it reaches: 0 with it in
 * *out, or -1 after raising. */
int dsl_storage_of(struct dsl_interp *in, struct mt_tensor *t, struct dsl_value *out);
/* Whether v is a Storage; its 1-D view of the tensor's memory (borrowed) in *t when it is. */
bool dsl_storage_view(struct dsl_value v, struct mt_tensor **t);
/* Whether v is a TensorData; its view of the memory (borrowed) in *t when it is. */
bool dsl_tensor_data_view(struct dsl_value v, struct mt_tensor **t);

#endif
