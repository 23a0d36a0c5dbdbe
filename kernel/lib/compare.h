/* compare.h — the agreement check of compare() (compare.c), shared with its tests.
 *
 * compare() runs one statement on several backends and asks whether each result agrees with
 * the first backend's. Float32 results of the same maths differ in the last bits when the
 * backends sum in different orders (the fast backend's blocked GEMM, its SIMD reductions), so
 * "agree" is numpy's allclose with float32 tolerances:
 *
 *     |got - ref| <= DSL_AGREE_ATOL + DSL_AGREE_RTOL * |ref|    for every element
 *
 * NaN agrees only with NaN, an infinity only with the same infinity. The builtins themselves
 * (dsl_bi_compare, dsl_bi_timing) are declared with the other tensor builtins in tensor_methods.h.
 */
#ifndef KERNEL_LIB_COMPARE_H
#define KERNEL_LIB_COMPARE_H

#include "lang/values.h"

#include <stdbool.h>

#define DSL_AGREE_RTOL 1e-4
#define DSL_AGREE_ATOL 1e-5

/* Whether got agrees with ref: tensors of the same shape element by element as above, numbers
 * likewise, lists item by item, anything else by ==. *max_diff gets the largest absolute
 * difference of the numbers compared (0 when none; NAN when the shapes, lengths or kinds
 * differ, or memory ran out for the check, which then answers false). */
bool dsl_values_agree(struct dsl_value ref, struct dsl_value got, double *max_diff);

#endif
