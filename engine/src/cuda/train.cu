/* train.cu — the cuda backend's fused training epoch (plugin.h's train_smem and train_epoch):
 * train_step.h's epoch as one block of kTrainThreads threads, one launch per epoch. The
 * permutation goes over in the same call (one small copy), the loss comes back in it. */
#include "call.cuh"
#include "kernels.h"
#include "train_step.h"

#include <cuda_runtime.h>

#include <pthread.h>

namespace
{

/* As many threads as a block takes: the phases are short loops over a few thousand outputs,
 * and their latency, not the arithmetic, is the time. */
constexpr int kTrainThreads = 1024;

__global__ void __launch_bounds__(kTrainThreads)
    train_epoch_kernel(mt_mlp m, const int64_t *perm, double *loss)
{
    extern __shared__ float smem[];
    mt_ts_epoch(&m, perm, smem, loss);
}

/* The permutation and the loss on the device, and their lock. */
pthread_mutex_t buf_lock = PTHREAD_MUTEX_INITIALIZER;
mt_cu::Scratch dev_perm, dev_loss;

} // namespace

size_t mt_cu_train_smem(const struct mt_mlp *m)
{
    const size_t bytes = (size_t)mt_ts_smem_floats(m) * sizeof(float);
    int dev = 0, most = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess)
        return 0;
    return bytes <= (size_t)most ? bytes : 0;
}

int mt_cu_train_epoch(const struct mt_mlp *m, const int64_t *perm, double *loss,
                      struct mt_cuda_launch *info)
{
    const size_t smem = mt_cu_train_smem(m);
    if (smem == 0) return (int)cudaErrorInvalidValue; /* the caller asks train_smem first */
    pthread_mutex_lock(&buf_lock);
    int64_t *perm_d = nullptr;
    double *loss_d = nullptr;
    cudaError_t e = dev_perm.get((size_t)m->n * sizeof(int64_t), (void **)&perm_d);
    if (e == cudaSuccess) e = dev_loss.get(sizeof(double), (void **)&loss_d);
    if (e == cudaSuccess)
        e = cudaMemcpy(perm_d, perm, (size_t)m->n * sizeof(int64_t), cudaMemcpyHostToDevice);
    if (e == cudaSuccess && smem > 48 * 1024) /* past the default, the block must opt in */
        e = cudaFuncSetAttribute(train_epoch_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 (int)smem);
    if (e != cudaSuccess) {
        pthread_mutex_unlock(&buf_lock);
        return (int)e;
    }
    int r;
    {
        mt_cu::Call call(info);
        train_epoch_kernel<<<1, kTrainThreads, smem>>>(*m, perm_d, loss_d);
        call.describe(train_epoch_kernel, "train_epoch (fused, one block)", 1, kTrainThreads, smem);
        r = call.finish();
    }
    if (r == 0) r = (int)cudaMemcpy(loss, loss_d, sizeof(double), cudaMemcpyDeviceToHost);
    pthread_mutex_unlock(&buf_lock);
    return r;
}
