/* call.cuh — inside libminitorch_cuda.so: how the kernel calls of ops.cu and train.cu launch,
 * check and (when asked) describe their kernels for diagnostics (plugin.h's struct
 * mt_cuda_launch). */
#ifndef MINITORCH_CUDA_CALL_CUH
#define MINITORCH_CUDA_CALL_CUH

#include "plugin.h"

#include <cuda_runtime.h>

namespace mt_cu
{

/* A call's kernels from the first launch to the device's end: when the caller asked for a
 * description (plugin.h's struct mt_cuda_launch), CUDA events around them and the main
 * kernel's attributes and theoretical occupancy. finish() checks the launches; it waits for
 * the kernels only when they are timed or `wait` says so (plugin.h: calls queue their work). */
class Call
{
  public:
    explicit Call(mt_cuda_launch *info) : info_(info)
    {
        if (info_ && cudaEventCreate(&start_) == cudaSuccess &&
            cudaEventCreate(&stop_) == cudaSuccess)
            cudaEventRecord(start_);
    }
    Call(const Call &) = delete;
    Call &operator=(const Call &) = delete;
    ~Call()
    {
        if (start_) cudaEventDestroy(start_);
        if (stop_) cudaEventDestroy(stop_);
    }

    template <typename Kernel>
    void describe(Kernel kernel, const char *name, dim3 grid, dim3 block, size_t dynamic_smem)
    {
        if (!info_) return;
        info_->kernel = name;
        info_->grid[0] = grid.x, info_->grid[1] = grid.y, info_->grid[2] = grid.z;
        info_->block[0] = block.x, info_->block[1] = block.y, info_->block[2] = block.z;
        cudaFuncAttributes fa;
        if (cudaFuncGetAttributes(&fa, kernel) == cudaSuccess) {
            info_->registers = fa.numRegs;
            info_->shared_bytes = (int)(fa.sharedSizeBytes + dynamic_smem);
        }
        const int threads = (int)(block.x * block.y * block.z);
        const int warps = (threads + 31) / 32;
        int dev = 0, resident = 0, max_threads = 0;
        if (cudaGetDevice(&dev) == cudaSuccess &&
            cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerMultiProcessor, dev) ==
                cudaSuccess &&
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernel, threads,
                                                          dynamic_smem) == cudaSuccess &&
            max_threads > 0)
            info_->occupancy = (double)(resident * warps) / (max_threads / 32);
    }

    int finish(bool wait = false)
    {
        cudaError_t e = cudaGetLastError();
        if (stop_) cudaEventRecord(stop_);
        if (e == cudaSuccess && (wait || stop_)) e = cudaDeviceSynchronize();
        float ms = 0.0f;
        if (e == cudaSuccess && stop_ && cudaEventElapsedTime(&ms, start_, stop_) == cudaSuccess)
            info_->gpu_ms = ms;
        return (int)e;
    }

  private:
    mt_cuda_launch *info_;
    cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

/* Device memory a call keeps between calls, grown on demand (callers hold a lock of their own
 * around its use). A call's kernels may still be reading it when the next call is made; that
 * call's kernels come after them in the same stream, and cudaFree, before growing, waits for
 * the device. */
class Scratch
{
  public:
    /* *out: at least `bytes` of device memory; what it held before is lost when it grows */
    cudaError_t get(size_t bytes, void **out)
    {
        if (bytes > size_) {
            if (ptr_) cudaFree(ptr_);
            ptr_ = nullptr, size_ = 0;
            cudaError_t e = cudaMalloc(&ptr_, bytes);
            if (e != cudaSuccess) return e;
            size_ = bytes;
        }
        *out = ptr_;
        return cudaSuccess;
    }

  private:
    void *ptr_ = nullptr;
    size_t size_ = 0;
};

} // namespace mt_cu

#endif
