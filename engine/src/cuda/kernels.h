/* kernels.h — inside libminitorch_cuda.so: the functions of ops.cu and train.cu that runtime.cu
 * puts in the plugin table (plugin.h documents each). */
#ifndef MINITORCH_CUDA_KERNELS_H
#define MINITORCH_CUDA_KERNELS_H

#include "plugin.h"

const char *mt_cu_error(int code);
int mt_cu_alloc(size_t bytes, void **out);
void mt_cu_release(void *p);
int mt_cu_copy(void *dst, const void *src, size_t bytes, enum mt_cuda_copy kind);
int mt_cu_fill(float *dst, int64_t n, float value);
int mt_cu_wait(void);
int mt_cu_mem_info(size_t *free_bytes, size_t *total_bytes);
int mt_cu_map(enum mt_map_op op, const struct mt_cuda_view *out, const struct mt_cuda_view *a,
              struct mt_cuda_launch *info);
int mt_cu_zip(enum mt_zip_op op, const struct mt_cuda_view *out, const struct mt_cuda_view *a,
              const struct mt_cuda_view *b, struct mt_cuda_launch *info);
int mt_cu_reduce(enum mt_reduce_op op, const struct mt_cuda_view *out, const struct mt_cuda_view *a,
                 int dim, struct mt_cuda_launch *info);
int mt_cu_matmul(enum mt_cuda_matmul kernel, const struct mt_cuda_view *out,
                 const struct mt_cuda_view *a, const struct mt_cuda_view *b,
                 struct mt_cuda_launch *info);

int mt_cu_prog(const char *source, const struct mt_prog *p, const struct mt_cuda_view *out,
               const struct mt_cuda_view *a, const struct mt_cuda_view *b, int dim, float start,
               char *log, size_t loglen, struct mt_cuda_launch *info);
int mt_cu_launch(const char *source, const unsigned grid[3], const unsigned block[3], void **args,
                 char *log, size_t loglen, struct mt_cuda_launch *info);
#ifdef __CUDACC__
/* nvrtc.cu: the kernel `name` of source, compiled at its first use and kept; 0, a CUDA error,
 * or MT_CUDA_ERR_COMPILE with the reason in log */
int mt_cu_nvrtc_kernel(const char *source, const char *name, cudaKernel_t *kernel, char *log,
                       size_t loglen);
#endif

size_t mt_cu_train_smem(const struct mt_mlp *m);
int mt_cu_train_epoch(const struct mt_mlp *m, const int64_t *perm, double *loss,
                      struct mt_cuda_launch *info);

#endif
