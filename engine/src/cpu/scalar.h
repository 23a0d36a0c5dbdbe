/* scalar.h — the scalar functions every backend applies (MiniTorch's operators.py).
 *
 * One definition of each op's meaning: the simple backend calls these through the tables at the
 * bottom, the fast backend inlines them into its loops (or uses vector versions that must agree
 * with them within float32 rounding), and the cuda backend's kernels (cuda/ops.cu) compile the
 * same functions for the GPU (MT_HD). Computation is in float32, as the tensors are. */
#ifndef MINITORCH_CPU_SCALAR_H
#define MINITORCH_CPU_SCALAR_H

#include "minitorch/minitorch.h"

#include <math.h>

/* host and device under nvcc; plain C elsewhere */
#ifdef __CUDACC__
#define MT_HD __host__ __device__
#else
#define MT_HD
#endif

MT_HD static inline float mt_s_neg(float x) { return -x; }
MT_HD static inline float mt_s_id(float x) { return x; }
MT_HD static inline float mt_s_inv(float x) { return 1.0f / x; }
MT_HD static inline float mt_s_relu(float x) { return x > 0.0f ? x : 0.0f; }
/* Two branches so that exp never overflows: for large |x| the result saturates to 0 or 1. */
MT_HD static inline float mt_s_sigmoid(float x)
{
    if (x >= 0.0f) return 1.0f / (1.0f + expf(-x));
    float e = expf(x);
    return e / (1.0f + e);
}
MT_HD static inline float mt_s_log(float x) { return logf(x); }
MT_HD static inline float mt_s_exp(float x) { return expf(x); }
MT_HD static inline float mt_s_abs(float x) { return fabsf(x); }
MT_HD static inline float mt_s_sqrt(float x) { return sqrtf(x); }
MT_HD static inline float mt_s_tanh(float x) { return tanhf(x); }

MT_HD static inline float mt_s_add(float a, float b) { return a + b; }
MT_HD static inline float mt_s_sub(float a, float b) { return a - b; }
MT_HD static inline float mt_s_mul(float a, float b) { return a * b; }
MT_HD static inline float mt_s_div(float a, float b) { return a / b; }
MT_HD static inline float mt_s_lt(float a, float b) { return a < b ? 1.0f : 0.0f; }
MT_HD static inline float mt_s_gt(float a, float b) { return a > b ? 1.0f : 0.0f; }
MT_HD static inline float mt_s_eq(float a, float b) { return a == b ? 1.0f : 0.0f; }
MT_HD static inline float mt_s_is_close(float a, float b)
{
    return fabsf(a - b) < 1e-2f ? 1.0f : 0.0f;
}
MT_HD static inline float mt_s_max(float a, float b) { return a > b ? a : b; }
MT_HD static inline float mt_s_relu_back(float a, float b) { return a > 0.0f ? b : 0.0f; }
MT_HD static inline float mt_s_log_back(float a, float b) { return b / a; }
MT_HD static inline float mt_s_inv_back(float a, float b) { return -b / (a * a); }

typedef float (*mt_scalar_map_fn)(float);
typedef float (*mt_scalar_zip_fn)(float, float);

/* Indexed by enum mt_map_op / mt_zip_op (checked by static_assert in cpu/simple.c). */
#define MT_SCALAR_MAP_TABLE                                                                        \
    {                                                                                              \
        [MT_MAP_NEG] = mt_s_neg, [MT_MAP_ID] = mt_s_id, [MT_MAP_INV] = mt_s_inv,                   \
        [MT_MAP_RELU] = mt_s_relu, [MT_MAP_SIGMOID] = mt_s_sigmoid, [MT_MAP_LOG] = mt_s_log,       \
        [MT_MAP_EXP] = mt_s_exp, [MT_MAP_ABS] = mt_s_abs, [MT_MAP_SQRT] = mt_s_sqrt,               \
        [MT_MAP_TANH] = mt_s_tanh,                                                                 \
    }
#define MT_SCALAR_ZIP_TABLE                                                                        \
    {                                                                                              \
        [MT_ZIP_ADD] = mt_s_add, [MT_ZIP_SUB] = mt_s_sub, [MT_ZIP_MUL] = mt_s_mul,                 \
        [MT_ZIP_DIV] = mt_s_div, [MT_ZIP_LT] = mt_s_lt, [MT_ZIP_GT] = mt_s_gt,                     \
        [MT_ZIP_EQ] = mt_s_eq, [MT_ZIP_IS_CLOSE] = mt_s_is_close, [MT_ZIP_MAX] = mt_s_max,         \
        [MT_ZIP_RELU_BACK] = mt_s_relu_back, [MT_ZIP_LOG_BACK] = mt_s_log_back,                    \
        [MT_ZIP_INV_BACK] = mt_s_inv_back,                                                         \
    }

/* The reduction's start value and step (MiniTorch: add_reduce starts at 0, mul_reduce at 1,
 * max_reduce at -inf). Mean is a sum divided by the dim's size afterwards. */
MT_HD static inline float mt_reduce_start(enum mt_reduce_op op)
{
    switch (op) {
    case MT_RED_PROD: return 1.0f;
    case MT_RED_MAX: return -INFINITY;
    default: return 0.0f;
    }
}

#endif
