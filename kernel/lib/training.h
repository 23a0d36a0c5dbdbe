/* training.h — the engine's training objects in the language (internal to kernel/lib):
 * datasets, models (linear, mlp) and the SGD optimizer; train() with the training issue. Each is a
 * DSL_OBJECT (values.h) whose class lives in training.c. */
#ifndef KERNEL_LIB_TRAINING_H
#define KERNEL_LIB_TRAINING_H

#include "lang/library.h"
#include "lang/values.h"

extern const struct dsl_object_class dsl_dataset_class, dsl_model_class, dsl_sgd_class;

/* dataset(name, n=50, seed=none) */
int dsl_bi_dataset(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
/* linear(in, out), mlp(in, hidden, out) */
int dsl_bi_linear(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
int dsl_bi_mlp(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
/* sgd(params, rate=1.0) */
int dsl_bi_sgd(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);

/* train(model, data, rate=0.05, epochs=500, batch=10, log=10): MiniTorch's training loop on the
 * engine's trainer (mt_trainer_*), with log lines, a live progress display, and at the end a
 * summary line, the decision boundary and the loss curve. */
int dsl_bi_train(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);
/* plot(model, data): the model's decision boundary under the data's points. */
int dsl_bi_plot(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);

#endif
