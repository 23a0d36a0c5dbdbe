/* ops.cu — the cuda backend's kernels (plugin.h): map, zip, reduce and matmul with the simple
 * backend's semantics — any shape, any strides, broadcasting — each element's function taken
 * from cpu/scalar.h, compiled for the GPU. First versions, correct before fast: one thread per
 * output element in a grid-stride loop (with a shortcut for contiguous operands of one shape),
 * reductions either serial per output (simple's order, for short dims) or one block per output
 * (shuffles and a shared-memory tree, for long dims), matmul naive or in the course's 32 x 32
 * shared-memory tiles. Every call checks the launch and waits for the device, so an error is
 * reported by the call that caused it. */
#include "kernels.h"

#include "../cpu/scalar.h"

#include <cuda_runtime.h>

#include <stdio.h>

namespace
{

constexpr int kThreads = 256;
constexpr int kTile = 32;

/* Position in v of the element that output ordinal i (row-major over out's shape) reads: out's
 * index, aligned at the last dim, 0 where v broadcasts (size 1). */
__device__ int64_t position(const mt_cuda_view &v, const mt_cuda_view &out, int64_t i)
{
    int64_t pos = 0;
    const int shift = out.ndim - v.ndim;
    for (int d = out.ndim - 1; d >= 0; d--) {
        const int64_t n = out.shape[d];
        const int64_t idx = i % n;
        i /= n;
        const int vd = d - shift;
        if (vd >= 0 && v.shape[vd] != 1) pos += idx * v.strides[vd];
    }
    return pos;
}

__device__ float map_one(int op, float x)
{
    switch (op) {
    case MT_MAP_NEG: return mt_s_neg(x);
    case MT_MAP_ID: return mt_s_id(x);
    case MT_MAP_INV: return mt_s_inv(x);
    case MT_MAP_RELU: return mt_s_relu(x);
    case MT_MAP_SIGMOID: return mt_s_sigmoid(x);
    case MT_MAP_LOG: return mt_s_log(x);
    case MT_MAP_EXP: return mt_s_exp(x);
    case MT_MAP_ABS: return mt_s_abs(x);
    case MT_MAP_SQRT: return mt_s_sqrt(x);
    default: return mt_s_tanh(x);
    }
}

__device__ float zip_one(int op, float a, float b)
{
    switch (op) {
    case MT_ZIP_ADD: return mt_s_add(a, b);
    case MT_ZIP_SUB: return mt_s_sub(a, b);
    case MT_ZIP_MUL: return mt_s_mul(a, b);
    case MT_ZIP_DIV: return mt_s_div(a, b);
    case MT_ZIP_LT: return mt_s_lt(a, b);
    case MT_ZIP_GT: return mt_s_gt(a, b);
    case MT_ZIP_EQ: return mt_s_eq(a, b);
    case MT_ZIP_IS_CLOSE: return mt_s_is_close(a, b);
    case MT_ZIP_MAX: return mt_s_max(a, b);
    case MT_ZIP_RELU_BACK: return mt_s_relu_back(a, b);
    case MT_ZIP_LOG_BACK: return mt_s_log_back(a, b);
    default: return mt_s_inv_back(a, b);
    }
}

__device__ float reduce_step(int op, float acc, float x)
{
    switch (op) {
    case MT_RED_PROD: return acc * x;
    case MT_RED_MAX: return mt_s_max(acc, x);
    default: return acc + x; /* sum, mean */
    }
}

__global__ void fill_kernel(float *dst, int64_t n, float value)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x)
        dst[i] = value;
}

__global__ void map_kernel(int op, mt_cuda_view out, mt_cuda_view a, int64_t n, bool flat)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        const int64_t po = flat ? i : position(out, out, i), pa = flat ? i : position(a, out, i);
        out.data[po] = map_one(op, a.data[pa]);
    }
}

__global__ void zip_kernel(int op, mt_cuda_view out, mt_cuda_view a, mt_cuda_view b, int64_t n,
                           bool flat)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        const int64_t po = flat ? i : position(out, out, i);
        const int64_t pa = flat ? i : position(a, out, i), pb = flat ? i : position(b, out, i);
        out.data[po] = zip_one(op, a.data[pa], b.data[pb]);
    }
}

/* One thread per output, the dim folded in order (simple's order, so the same float). */
__global__ void reduce_serial(int op, mt_cuda_view out, mt_cuda_view a, int dim, int64_t nout)
{
    const int64_t n = a.shape[dim], step = a.strides[dim];
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < nout;
         i += (int64_t)gridDim.x * blockDim.x) {
        const float *p = a.data + position(a, out, i);
        float acc = mt_reduce_start((mt_reduce_op)op);
        for (int64_t j = 0; j < n; j++) acc = reduce_step(op, acc, p[j * step]);
        if (op == MT_RED_MEAN) acc = n > 0 ? acc / (float)n : NAN;
        out.data[position(out, out, i)] = acc;
    }
}

/* One block per output: each thread folds a strided share of the dim, then the warp folds with
 * shuffles and the warps' results fold in shared memory. */
__global__ void reduce_block(int op, mt_cuda_view out, mt_cuda_view a, int dim, int64_t nout)
{
    __shared__ float warp_acc[kThreads / 32];
    const int64_t n = a.shape[dim], step = a.strides[dim];
    const float start = mt_reduce_start((mt_reduce_op)op);
    for (int64_t o = blockIdx.x; o < nout; o += gridDim.x) {
        const float *p = a.data + position(a, out, o);
        float acc = start;
        for (int64_t j = threadIdx.x; j < n; j += blockDim.x)
            acc = reduce_step(op, acc, p[j * step]);
        for (int off = 16; off > 0; off /= 2)
            acc = reduce_step(op, acc, __shfl_down_sync(0xffffffffu, acc, off));
        if (threadIdx.x % 32 == 0) warp_acc[threadIdx.x / 32] = acc;
        __syncthreads();
        if (threadIdx.x < 32) {
            acc = threadIdx.x < blockDim.x / 32 ? warp_acc[threadIdx.x] : start;
            for (int off = 16; off > 0; off /= 2)
                acc = reduce_step(op, acc, __shfl_down_sync(0xffffffffu, acc, off));
            if (threadIdx.x == 0) {
                if (op == MT_RED_MEAN) acc = n > 0 ? acc / (float)n : NAN;
                out.data[position(out, out, o)] = acc;
            }
        }
        __syncthreads(); /* warp_acc is reused by the next output */
    }
}

/* The element offsets of batch bi (row-major over out's batch dims) in out, a and b. */
__device__ void batch_offsets(const mt_cuda_view &out, const mt_cuda_view &a, const mt_cuda_view &b,
                              int64_t bi, int64_t *oo, int64_t *oa, int64_t *ob)
{
    *oo = *oa = *ob = 0;
    for (int d = out.ndim - 3; d >= 0; d--) {
        const int64_t idx = bi % out.shape[d];
        bi /= out.shape[d];
        *oo += idx * out.strides[d];
        if (a.shape[d] != 1) *oa += idx * a.strides[d];
        if (b.shape[d] != 1) *ob += idx * b.strides[d];
    }
}

__global__ void matmul_naive(mt_cuda_view out, mt_cuda_view a, mt_cuda_view b, int64_t total)
{
    const int nd = out.ndim;
    const int64_t M = out.shape[nd - 2], N = out.shape[nd - 1], K = a.shape[nd - 1];
    for (int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; t < total;
         t += (int64_t)gridDim.x * blockDim.x) {
        const int64_t j = t % N, i = t / N % M, bi = t / (M * N);
        int64_t oo, oa, ob;
        batch_offsets(out, a, b, bi, &oo, &oa, &ob);
        const float *pa = a.data + oa + i * a.strides[nd - 2];
        const float *pb = b.data + ob + j * b.strides[nd - 1];
        float acc = 0.0f;
        for (int64_t k = 0; k < K; k++)
            acc += pa[k * a.strides[nd - 1]] * pb[k * b.strides[nd - 2]];
        out.data[oo + i * out.strides[nd - 2] + j * out.strides[nd - 1]] = acc;
    }
}

/* The course's shared-memory matmul: a kTile x kTile block of threads computes a tile of out,
 * staging kTile-wide slabs of a and b through shared memory (b's row padded against bank
 * conflicts). blockIdx.z walks the batches. */
__global__ void matmul_tiled(mt_cuda_view out, mt_cuda_view a, mt_cuda_view b, int64_t batches)
{
    __shared__ float as[kTile][kTile];
    __shared__ float bs[kTile][kTile + 1];
    const int nd = out.ndim;
    const int64_t M = out.shape[nd - 2], N = out.shape[nd - 1], K = a.shape[nd - 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t i = (int64_t)blockIdx.y * kTile + ty, j = (int64_t)blockIdx.x * kTile + tx;
    for (int64_t bi = blockIdx.z; bi < batches; bi += gridDim.z) {
        int64_t oo, oa, ob;
        batch_offsets(out, a, b, bi, &oo, &oa, &ob);
        float acc = 0.0f;
        for (int64_t k0 = 0; k0 < K; k0 += kTile) {
            as[ty][tx] = i < M && k0 + tx < K
                             ? a.data[oa + i * a.strides[nd - 2] + (k0 + tx) * a.strides[nd - 1]]
                             : 0.0f;
            bs[ty][tx] = k0 + ty < K && j < N
                             ? b.data[ob + (k0 + ty) * b.strides[nd - 2] + j * b.strides[nd - 1]]
                             : 0.0f;
            __syncthreads();
            for (int kk = 0; kk < kTile; kk++) acc += as[ty][kk] * bs[kk][tx];
            __syncthreads();
        }
        if (i < M && j < N) out.data[oo + i * out.strides[nd - 2] + j * out.strides[nd - 1]] = acc;
    }
}

int64_t size_of(const mt_cuda_view &v)
{
    int64_t n = 1;
    for (int d = 0; d < v.ndim; d++) n *= v.shape[d];
    return n;
}

/* v is row-major contiguous with out's shape: ordinal i is position i */
bool flat_like(const mt_cuda_view &v, const mt_cuda_view &out)
{
    if (v.ndim != out.ndim) return false;
    int64_t expect = 1;
    for (int d = v.ndim - 1; d >= 0; d--) {
        if (v.shape[d] != out.shape[d]) return false;
        if (v.shape[d] != 1 && v.strides[d] != expect) return false;
        expect *= v.shape[d];
    }
    return true;
}

/* Blocks that fill the device (32 per SM); more work is taken by grid stride. */
int64_t max_blocks()
{
    static int sms = 0;
    if (!sms) {
        int dev = 0;
        if (cudaGetDevice(&dev) != cudaSuccess ||
            cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess)
            sms = 80;
    }
    return (int64_t)sms * 32;
}

/* Blocks for n items of one thread each. */
unsigned blocks_for(int64_t n)
{
    const int64_t want = (n + kThreads - 1) / kThreads, cap = max_blocks();
    return (unsigned)(want < 1 ? 1 : want < cap ? want : cap);
}

/* A call's kernels from the first launch to the device's end: when the caller asked for a
 * description (plugin.h's struct mt_cuda_launch), CUDA events around them and the main
 * kernel's attributes and theoretical occupancy. finish() checks the launches and waits. */
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

    int finish()
    {
        cudaError_t e = cudaGetLastError();
        if (stop_) cudaEventRecord(stop_);
        if (e == cudaSuccess) e = cudaDeviceSynchronize();
        float ms = 0.0f;
        if (e == cudaSuccess && stop_ && cudaEventElapsedTime(&ms, start_, stop_) == cudaSuccess)
            info_->gpu_ms = ms;
        return (int)e;
    }

  private:
    mt_cuda_launch *info_;
    cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

} // namespace

const char *mt_cu_error(int code)
{
    static thread_local char buf[256];
    const cudaError_t e = (cudaError_t)code;
    snprintf(buf, sizeof buf, "%s: %s", cudaGetErrorName(e), cudaGetErrorString(e));
    return buf;
}

int mt_cu_alloc(size_t bytes, void **out) { return (int)cudaMalloc(out, bytes ? bytes : 1); }

void mt_cu_release(void *p)
{
    if (p) cudaFree(p);
}

int mt_cu_copy(void *dst, const void *src, size_t bytes, enum mt_cuda_copy kind)
{
    const cudaMemcpyKind k = kind == MT_CUDA_H2D   ? cudaMemcpyHostToDevice
                             : kind == MT_CUDA_D2H ? cudaMemcpyDeviceToHost
                                                   : cudaMemcpyDeviceToDevice;
    return bytes ? (int)cudaMemcpy(dst, src, bytes, k) : 0;
}

int mt_cu_fill(float *dst, int64_t n, float value)
{
    if (n <= 0) return 0;
    Call call(nullptr);
    fill_kernel<<<blocks_for(n), kThreads>>>(dst, n, value);
    return call.finish();
}

int mt_cu_mem_info(size_t *free_bytes, size_t *total_bytes)
{
    return (int)cudaMemGetInfo(free_bytes, total_bytes);
}

int mt_cu_map(enum mt_map_op op, const struct mt_cuda_view *out, const struct mt_cuda_view *a,
              struct mt_cuda_launch *info)
{
    const int64_t n = size_of(*out);
    if (n == 0) return 0;
    const bool flat = flat_like(*out, *out) && flat_like(*a, *out);
    Call call(info);
    const unsigned grid = blocks_for(n);
    map_kernel<<<grid, kThreads>>>(op, *out, *a, n, flat);
    call.describe(map_kernel, flat ? "map_kernel (contiguous)" : "map_kernel (strided)", grid,
                  kThreads, 0);
    return call.finish();
}

int mt_cu_zip(enum mt_zip_op op, const struct mt_cuda_view *out, const struct mt_cuda_view *a,
              const struct mt_cuda_view *b, struct mt_cuda_launch *info)
{
    const int64_t n = size_of(*out);
    if (n == 0) return 0;
    const bool flat = flat_like(*out, *out) && flat_like(*a, *out) && flat_like(*b, *out);
    Call call(info);
    const unsigned grid = blocks_for(n);
    zip_kernel<<<grid, kThreads>>>(op, *out, *a, *b, n, flat);
    call.describe(zip_kernel, flat ? "zip_kernel (contiguous)" : "zip_kernel (strided)", grid,
                  kThreads, 0);
    return call.finish();
}

/* Long dims with few outputs get a block each; the rest a thread each (a block per output of a
 * short dim would leave most of its threads idle). */
#define REDUCE_BLOCK_MIN 2048

int mt_cu_reduce(enum mt_reduce_op op, const struct mt_cuda_view *out, const struct mt_cuda_view *a,
                 int dim, struct mt_cuda_launch *info)
{
    const int64_t nout = size_of(*out);
    if (nout == 0) return 0;
    Call call(info);
    if (a->shape[dim] >= REDUCE_BLOCK_MIN && nout <= max_blocks()) {
        reduce_block<<<(unsigned)nout, kThreads>>>(op, *out, *a, dim, nout);
        call.describe(reduce_block, "reduce_block", (unsigned)nout, kThreads, 0);
    } else {
        const unsigned grid = blocks_for(nout);
        reduce_serial<<<grid, kThreads>>>(op, *out, *a, dim, nout);
        call.describe(reduce_serial, "reduce_serial", grid, kThreads, 0);
    }
    return call.finish();
}

int mt_cu_matmul(enum mt_cuda_matmul kernel, const struct mt_cuda_view *out,
                 const struct mt_cuda_view *a, const struct mt_cuda_view *b,
                 struct mt_cuda_launch *info)
{
    const int nd = out->ndim;
    const int64_t M = out->shape[nd - 2], N = out->shape[nd - 1], total = size_of(*out);
    if (total == 0) return 0;
    Call call(info);
    if (kernel == MT_CUDA_MATMUL_NAIVE) {
        const unsigned grid = blocks_for(total);
        matmul_naive<<<grid, kThreads>>>(*out, *a, *b, total);
        call.describe(matmul_naive, "matmul_naive", grid, kThreads, 0);
    } else {
        const int64_t batches = total / (M * N);
        const int64_t gy = (M + kTile - 1) / kTile, gx = (N + kTile - 1) / kTile;
        if (gy > 65535) return (int)cudaErrorInvalidConfiguration;
        dim3 grid((unsigned)gx, (unsigned)gy, (unsigned)(batches < 65535 ? batches : 65535));
        matmul_tiled<<<grid, dim3(kTile, kTile)>>>(*out, *a, *b, batches);
        call.describe(matmul_tiled, "matmul_tiled 32x32", grid, dim3(kTile, kTile), 0);
    }
    return call.finish();
}
