/* ops.cu — the cuda backend's kernels (plugin.h): map, zip, reduce and matmul with the simple
 * backend's semantics — any shape, any strides, broadcasting — each element's function taken
 * from cpu/scalar.h, compiled for the GPU. Elementwise: one thread per output element in a
 * grid-stride loop (with a shortcut for contiguous operands of one shape). Reductions: serial
 * per output for short dims (simple's order), blocks folding with shuffles and a shared-memory
 * tree for contiguous dims, a thread per output for strided ones, each cut into parts with a
 * second pass when the outputs are too few to fill the device (mt_cu_reduce says which when).
 * Matmul: the teaching progression, naive, the course's 32 x 32 shared-memory tiles, and a
 * register-blocked kernel (128 x 128 tiles, 8 x 8 per thread, float4, double-buffered).
 * Every call checks the launch and waits for the device, so an error is reported by the call
 * that caused it. None of this has run on a GPU yet: tests/engine/test_cuda.c and
 * bench/gpu.sh are what a GPU session runs first. */
#include "call.cuh"
#include "kernels.h"

#include "../cpu/scalar.h"

#include <cuda_runtime.h>

#include <pthread.h>
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

/* The contiguous case with 16-byte aligned operands: float4 loads and stores (fewer, wider
 * memory transactions in flight: what reaches the copy bandwidth), the n % 4 tail by the first
 * threads. */
__global__ void map_vec4(int op, float *out, const float *a, int64_t n)
{
    const int64_t n4 = n / 4, first = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    for (int64_t i = first; i < n4; i += (int64_t)gridDim.x * blockDim.x) {
        const float4 x = reinterpret_cast<const float4 *>(a)[i];
        reinterpret_cast<float4 *>(out)[i] =
            make_float4(map_one(op, x.x), map_one(op, x.y), map_one(op, x.z), map_one(op, x.w));
    }
    if (first < n - n4 * 4) out[n4 * 4 + first] = map_one(op, a[n4 * 4 + first]);
}

__global__ void zip_vec4(int op, float *out, const float *a, const float *b, int64_t n)
{
    const int64_t n4 = n / 4, first = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    for (int64_t i = first; i < n4; i += (int64_t)gridDim.x * blockDim.x) {
        const float4 x = reinterpret_cast<const float4 *>(a)[i];
        const float4 y = reinterpret_cast<const float4 *>(b)[i];
        reinterpret_cast<float4 *>(out)[i] =
            make_float4(zip_one(op, x.x, y.x), zip_one(op, x.y, y.y), zip_one(op, x.z, y.z),
                        zip_one(op, x.w, y.w));
    }
    if (first < n - n4 * 4) out[n4 * 4 + first] = zip_one(op, a[n4 * 4 + first], b[n4 * 4 + first]);
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

/* Folds acc across the block (all threads call it): shuffles within each warp, then the warps'
 * results through shared memory. Thread 0 gets the result. */
__device__ float block_fold(int op, float acc, float start)
{
    __shared__ float warp_acc[kThreads / 32];
    for (int off = 16; off > 0; off /= 2)
        acc = reduce_step(op, acc, __shfl_down_sync(0xffffffffu, acc, off));
    if (threadIdx.x % 32 == 0) warp_acc[threadIdx.x / 32] = acc;
    __syncthreads();
    if (threadIdx.x < 32) {
        acc = threadIdx.x < blockDim.x / 32 ? warp_acc[threadIdx.x] : start;
        for (int off = 16; off > 0; off /= 2)
            acc = reduce_step(op, acc, __shfl_down_sync(0xffffffffu, acc, off));
    }
    __syncthreads(); /* warp_acc is reused by the block's next fold */
    return acc;
}

/* A block per (output, part): the block's threads fold a strided share of part p of the dim
 * (coalesced when the dim is contiguous), then fold together. With one part the result goes to
 * out (the mean divided); with several, to partial[o * parts + p] for reduce_combine. */
__global__ void reduce_block(int op, mt_cuda_view out, mt_cuda_view a, int dim, int64_t nout,
                             int64_t parts, float *partial)
{
    const int64_t n = a.shape[dim], step = a.strides[dim], chunk = (n + parts - 1) / parts;
    const float start = mt_reduce_start((mt_reduce_op)op);
    for (int64_t w = blockIdx.x; w < nout * parts; w += gridDim.x) {
        const int64_t o = w / parts, p = w % parts;
        const int64_t j0 = p * chunk, j1 = j0 + chunk < n ? j0 + chunk : n;
        const float *src = a.data + position(a, out, o);
        float acc = start;
        for (int64_t j = j0 + threadIdx.x; j < j1; j += blockDim.x)
            acc = reduce_step(op, acc, src[j * step]);
        acc = block_fold(op, acc, start);
        if (threadIdx.x == 0) {
            if (parts > 1)
                partial[w] = acc;
            else
                out.data[position(out, out, o)] =
                    op == MT_RED_MEAN ? (n > 0 ? acc / (float)n : NAN) : acc;
        }
    }
}

/* A thread per (output, part), outputs fastest: neighbouring threads read neighbouring outputs'
 * elements (coalesced when the outputs are contiguous in a, as for dim 0 of a row-major
 * matrix), each folding part p of its output's dim in order into partial[p * nout + o]. */
__global__ void reduce_columns(int op, mt_cuda_view out, mt_cuda_view a, int dim, int64_t nout,
                               int64_t parts, float *partial)
{
    const int64_t n = a.shape[dim], step = a.strides[dim], chunk = (n + parts - 1) / parts;
    for (int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; t < nout * parts;
         t += (int64_t)gridDim.x * blockDim.x) {
        const int64_t o = t % nout, p = t / nout;
        const int64_t j0 = p * chunk, j1 = j0 + chunk < n ? j0 + chunk : n;
        const float *src = a.data + position(a, out, o);
        float acc = mt_reduce_start((mt_reduce_op)op);
        for (int64_t j = j0; j < j1; j++) acc = reduce_step(op, acc, src[j * step]);
        partial[t] = acc;
    }
}

/* The second pass: each output's parts folded in part order (a thread per output; `stride`
 * apart in partial: 1 after reduce_block, nout after reduce_columns), the mean divided. */
__global__ void reduce_combine(int op, mt_cuda_view out, const float *partial, int64_t nout,
                               int64_t parts, int64_t first, int64_t stride, int64_t n)
{
    for (int64_t o = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; o < nout;
         o += (int64_t)gridDim.x * blockDim.x) {
        float acc = mt_reduce_start((mt_reduce_op)op);
        for (int64_t p = 0; p < parts; p++)
            acc = reduce_step(op, acc, partial[o * first + p * stride]);
        out.data[position(out, out, o)] = op == MT_RED_MEAN ? (n > 0 ? acc / (float)n : NAN) : acc;
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

/* The register-blocked SGEMM: a block of 256 threads computes a kRegBM x kRegBN (128 x 128)
 * tile of out, each thread an 8 x 8 block of it held in registers, as outer products of a
 * column of a's tile and a row of b's, read from shared memory as float4. The k dimension goes
 * by slabs of kRegBK (8): a slab of a (stored transposed, so that a thread's 8 rows are
 * contiguous) and of b in shared memory, two stages of each: while the threads multiply out of
 * one stage, the next slab is loaded from global memory into registers and then stored into the
 * other stage, so there is one barrier per slab and the loads' latency is hidden behind the
 * arithmetic. A thread's 8 columns are two runs of 4, 64 apart, so that the float4 reads of a
 * quarter-warp from b's slab hit distinct banks.
 *
 * Loads: a thread brings 4 consecutive k of one row of a and 4 consecutive columns of one row
 * of b; as float4 when that operand is row-major in its last dim with every other stride, the
 * pointer, and K (for a) or N (for b) multiples of 4 (vec_a, vec_b: checked by the host), else
 * element by element with its strides. Out of range elements load as 0, so any M, N, K works.
 * blockIdx.z walks the batches. */
constexpr int kRegBM = 128, kRegBN = 128, kRegBK = 8, kRegTM = 8, kRegTN = 8;
constexpr int kRegThreads = (kRegBM / kRegTM) * (kRegBN / kRegTN);
static_assert(kRegThreads == 256, "the loads below assume 256 threads");

template <bool VecA, bool VecB>
__global__ void __launch_bounds__(kRegThreads)
    matmul_register(mt_cuda_view out, mt_cuda_view a, mt_cuda_view b, int64_t batches)
{
    __shared__ __align__(16) float as[2][kRegBK][kRegBM]; /* a's slab, transposed: [k][m] */
    __shared__ __align__(16) float bs[2][kRegBK][kRegBN];
    const int nd = out.ndim;
    const int64_t M = out.shape[nd - 2], N = out.shape[nd - 1], K = a.shape[nd - 1];
    const int64_t csa = a.strides[nd - 1], rsb = b.strides[nd - 2], csb = b.strides[nd - 1];
    const int tid = threadIdx.x;
    const int tx = tid % (kRegBN / kRegTN), ty = tid / (kRegBN / kRegTN);
    const int a_r = tid / 2, a_c = (tid % 2) * 4;   /* a's slab: 128 rows of 8 */
    const int b_r = tid / 32, b_c = (tid % 32) * 4; /* b's slab: 8 rows of 128 */
    const int64_t row0 = (int64_t)blockIdx.y * kRegBM, col0 = (int64_t)blockIdx.x * kRegBN;
    /* the elements this thread loads: a row of a and columns of b, in range or not */
    const bool a_in = row0 + a_r < M;
    const int64_t b_col = col0 + b_c;
    for (int64_t bi = blockIdx.z; bi < batches; bi += gridDim.z) {
        int64_t oo, oa, ob;
        batch_offsets(out, a, b, bi, &oo, &oa, &ob);
        /* pointers to this thread's first loads, advanced by a slab each step */
        const float *pa = a.data + oa + (a_in ? (row0 + a_r) * a.strides[nd - 2] : 0) + a_c * csa;
        const float *pb = b.data + ob + b_r * rsb + b_col * csb;
        float ra[4], rb[4];
        auto load = [&](int64_t k0) {
            const int64_t k = k0 + a_c;
            if (VecA && a_in && k < K) {
                const float4 v = *reinterpret_cast<const float4 *>(pa);
                ra[0] = v.x, ra[1] = v.y, ra[2] = v.z, ra[3] = v.w;
            } else {
#pragma unroll
                for (int q = 0; q < 4; q++) ra[q] = a_in && k + q < K ? pa[q * csa] : 0.0f;
            }
            const bool kb_in = k0 + b_r < K;
            if (VecB && kb_in && b_col < N) {
                const float4 v = *reinterpret_cast<const float4 *>(pb);
                rb[0] = v.x, rb[1] = v.y, rb[2] = v.z, rb[3] = v.w;
            } else {
#pragma unroll
                for (int q = 0; q < 4; q++) rb[q] = kb_in && b_col + q < N ? pb[q * csb] : 0.0f;
            }
            pa += kRegBK * csa;
            pb += kRegBK * rsb;
        };
        auto store = [&](int stage) {
#pragma unroll
            for (int q = 0; q < 4; q++) as[stage][a_c + q][a_r] = ra[q];
            *reinterpret_cast<float4 *>(&bs[stage][b_r][b_c]) =
                make_float4(rb[0], rb[1], rb[2], rb[3]);
        };
        float acc[kRegTM][kRegTN];
#pragma unroll
        for (int i = 0; i < kRegTM; i++)
#pragma unroll
            for (int j = 0; j < kRegTN; j++) acc[i][j] = 0.0f;
        load(0);
        store(0);
        __syncthreads();
        int stage = 0;
        for (int64_t k0 = 0; k0 < K; k0 += kRegBK) {
            const bool more = k0 + kRegBK < K;
            if (more) load(k0 + kRegBK); /* in flight during the products below */
#pragma unroll
            for (int kk = 0; kk < kRegBK; kk++) {
                const float4 a0 = *reinterpret_cast<const float4 *>(&as[stage][kk][ty * kRegTM]);
                const float4 a1 =
                    *reinterpret_cast<const float4 *>(&as[stage][kk][ty * kRegTM + 4]);
                const float4 b0 = *reinterpret_cast<const float4 *>(&bs[stage][kk][tx * 4]);
                const float4 b1 = *reinterpret_cast<const float4 *>(&bs[stage][kk][64 + tx * 4]);
                const float am[kRegTM] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
                const float bn[kRegTN] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
                for (int i = 0; i < kRegTM; i++)
#pragma unroll
                    for (int j = 0; j < kRegTN; j++) acc[i][j] = fmaf(am[i], bn[j], acc[i][j]);
            }
            /* the other stage was last read before the previous barrier: free to overwrite */
            if (more) store(stage ^ 1);
            __syncthreads();
            stage ^= 1;
        }
        const int64_t rso = out.strides[nd - 2], cso = out.strides[nd - 1];
        float *po = out.data + oo;
#pragma unroll
        for (int i = 0; i < kRegTM; i++) {
            const int64_t r = row0 + ty * kRegTM + i;
#pragma unroll
            for (int j = 0; j < kRegTN; j++) {
                const int64_t c = col0 + (j < 4 ? tx * 4 + j : 64 + tx * 4 + j - 4);
                if (r < M && c < N) po[r * rso + c * cso] = acc[i][j];
            }
        }
        /* no barrier needed before the next batch: its first store goes to stage 0, which the
         * last slab's barrier has already released (or the lone slab's: K <= kRegBK) */
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

bool aligned16(const void *p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; }

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
    if (!bytes) return 0;
    /* in the default stream, after the work queued before it: a copy to the host returns with
     * the data, one between device buffers is queued like a kernel (plugin.h) */
    return (int)cudaMemcpy(dst, src, bytes, k);
}

int mt_cu_wait(void) { return (int)cudaDeviceSynchronize(); }

int mt_cu_fill(float *dst, int64_t n, float value)
{
    if (n <= 0) return 0;
    mt_cu::Call call(nullptr);
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
    mt_cu::Call call(info);
    if (flat && aligned16(out->data) && aligned16(a->data)) {
        const unsigned grid = blocks_for((n + 3) / 4);
        map_vec4<<<grid, kThreads>>>(op, out->data, a->data, n);
        call.describe(map_vec4, "map_vec4 (contiguous, float4)", grid, kThreads, 0);
        return call.finish();
    }
    const unsigned grid = blocks_for(n);
    map_kernel<<<grid, kThreads>>>(op, *out, *a, n, flat);
    call.describe(map_kernel, flat ? "map_kernel (contiguous)" : "map_kernel (strided)", grid,
                  kThreads, 0);
    return call.finish();
}

/* A user function's kernel (prog.c's source, nvrtc.cu's compile): one thread per element
 * (map, zip) or per output (reduce, folding the dim in order), in a grid-stride loop. */
int mt_cu_prog(const char *source, const struct mt_prog *p, const struct mt_cuda_view *out,
               const struct mt_cuda_view *a, const struct mt_cuda_view *b, int dim, float start,
               char *log, size_t loglen, struct mt_cuda_launch *info)
{
    (void)p; /* the source is the program */
    cudaKernel_t kernel;
    int code = mt_cu_nvrtc_kernel(source, "mt_user", &kernel, log, loglen);
    if (code != 0) return code;
    mt_cu::Call call(info);
    const void *fn = reinterpret_cast<const void *>(kernel);
    mt_cuda_view vo = *out, va = *a, vb = b ? *b : *a;
    if (dim >= 0) {
        int64_t nout = size_of(vo);
        const unsigned grid = blocks_for(nout);
        void *args[] = {&vo, &va, &dim, &start, &nout};
        cudaLaunchKernel(fn, grid, kThreads, args, 0, nullptr);
        call.describe(fn, "user function (NVRTC, a thread per output)", grid, kThreads, 0);
        return call.finish();
    }
    int64_t n = size_of(vo);
    int flat = flat_like(vo, vo) && flat_like(va, vo) && (!b || flat_like(vb, vo));
    const unsigned grid = blocks_for(n);
    void *args[] = {&vo, &va, &vb, &n, &flat};
    cudaLaunchKernel(fn, grid, kThreads, args, 0, nullptr);
    call.describe(fn, flat ? "user function (NVRTC, contiguous)" : "user function (NVRTC, strided)",
                  grid, kThreads, 0);
    return call.finish();
}

/* A kernel written elsewhere (nvrtc.cu's compile), as its author launched it. */
int mt_cu_launch(const char *source, const unsigned grid[3], const unsigned block[3], void **args,
                 char *log, size_t loglen, struct mt_cuda_launch *info)
{
    cudaKernel_t kernel;
    int code = mt_cu_nvrtc_kernel(source, "mt_kernel", &kernel, log, loglen);
    if (code != 0) return code;
    mt_cu::Call call(info);
    const void *fn = reinterpret_cast<const void *>(kernel);
    const dim3 g(grid[0], grid[1], grid[2]), b(block[0], block[1], block[2]);
    cudaLaunchKernel(fn, g, b, args, 0, nullptr);
    call.describe(fn, "cuda.jit kernel (NVRTC)", g, b, 0);
    return call.finish(true);
}

int mt_cu_zip(enum mt_zip_op op, const struct mt_cuda_view *out, const struct mt_cuda_view *a,
              const struct mt_cuda_view *b, struct mt_cuda_launch *info)
{
    const int64_t n = size_of(*out);
    if (n == 0) return 0;
    const bool flat = flat_like(*out, *out) && flat_like(*a, *out) && flat_like(*b, *out);
    mt_cu::Call call(info);
    if (flat && aligned16(out->data) && aligned16(a->data) && aligned16(b->data)) {
        const unsigned grid = blocks_for((n + 3) / 4);
        zip_vec4<<<grid, kThreads>>>(op, out->data, a->data, b->data, n);
        call.describe(zip_vec4, "zip_vec4 (contiguous, float4)", grid, kThreads, 0);
        return call.finish();
    }
    const unsigned grid = blocks_for(n);
    zip_kernel<<<grid, kThreads>>>(op, *out, *a, *b, n, flat);
    call.describe(zip_kernel, flat ? "zip_kernel (contiguous)" : "zip_kernel (strided)", grid,
                  kThreads, 0);
    return call.finish();
}

/* The partial results of reductions cut into parts, and its lock. */
static pthread_mutex_t scratch_lock = PTHREAD_MUTEX_INITIALIZER;
static mt_cu::Scratch scratch;

/* Reductions, by the dim's length n, its stride, and the number of outputs:
 * - short dims (n < 256): a thread per output folds its dim in order, simple's order
 *   (reduce_serial);
 * - a contiguous dim (stride 1): blocks fold it, coalesced; when the outputs are too few to
 *   fill the device, each output's dim is cut into parts of at least 2048, a block each, and a
 *   second pass folds the parts (grid-wide: a sum of 10^7 elements uses every SM);
 * - otherwise, a long dim with its outputs side by side (dim 0 of a row-major matrix): a thread
 *   per output and part, neighbours reading neighbours, and the second pass when cut.
 * Sums in other orders than simple's agree with it within float32 rounding. */
int mt_cu_reduce(enum mt_reduce_op op, const struct mt_cuda_view *out, const struct mt_cuda_view *a,
                 int dim, struct mt_cuda_launch *info)
{
    const int64_t nout = size_of(*out), n = a->shape[dim], cap = max_blocks();
    if (nout == 0) return 0;
    mt_cu::Call call(info);
    if (n < 256 || (a->strides[dim] != 1 && n < 2048)) {
        const unsigned grid = blocks_for(nout);
        reduce_serial<<<grid, kThreads>>>(op, *out, *a, dim, nout);
        call.describe(reduce_serial, "reduce_serial", grid, kThreads, 0);
        return call.finish();
    }
    const bool rows = a->strides[dim] == 1;
    int64_t parts = 1;
    if (rows && nout < cap) /* blocks of 256 threads, at least 2048 elements each */
        parts = (cap + nout - 1) / nout, parts = parts < n / 2048 ? parts : n / 2048;
    if (!rows && nout < cap * kThreads) /* threads, at least 64 elements each */
        parts = (cap * kThreads + nout - 1) / nout, parts = parts < n / 64 ? parts : n / 64;
    if (parts < 1) parts = 1;
    pthread_mutex_lock(&scratch_lock);
    float *partial = nullptr;
    cudaError_t e = parts > 1 || !rows
                        ? scratch.get((size_t)(nout * parts) * sizeof(float), (void **)&partial)
                        : cudaSuccess;
    if (e != cudaSuccess) {
        pthread_mutex_unlock(&scratch_lock);
        return (int)e;
    }
    if (rows) {
        const unsigned grid = (unsigned)(nout * parts < cap ? nout * parts : cap);
        reduce_block<<<grid, kThreads>>>(op, *out, *a, dim, nout, parts, partial);
        call.describe(reduce_block,
                      parts > 1 ? "reduce_block (grid-wide, 2 passes)" : "reduce_block", grid,
                      kThreads, 0);
        if (parts > 1)
            reduce_combine<<<blocks_for(nout), kThreads>>>(op, *out, partial, nout, parts, parts, 1,
                                                           n);
    } else {
        const unsigned grid = blocks_for(nout * parts);
        reduce_columns<<<grid, kThreads>>>(op, *out, *a, dim, nout, parts, partial);
        call.describe(reduce_columns, "reduce_columns (2 passes)", grid, kThreads, 0);
        reduce_combine<<<blocks_for(nout), kThreads>>>(op, *out, partial, nout, parts, 1, nout, n);
    }
    const int r = call.finish();
    pthread_mutex_unlock(&scratch_lock);
    return r;
}

/* Whether v's loads can be float4: row-major in its last dim, every other stride, the pointer
 * and the last dim's length (`extent`) multiples of 4 floats. */
static bool vec4_ok(const mt_cuda_view &v, int64_t extent)
{
    const int nd = v.ndim;
    if (v.strides[nd - 1] != 1 || extent % 4 != 0 || reinterpret_cast<uintptr_t>(v.data) % 16)
        return false;
    for (int d = 0; d < nd - 1; d++)
        if (v.strides[d] % 4 != 0) return false;
    return true;
}

int mt_cu_matmul(enum mt_cuda_matmul kernel, const struct mt_cuda_view *out,
                 const struct mt_cuda_view *a, const struct mt_cuda_view *b,
                 struct mt_cuda_launch *info)
{
    const int nd = out->ndim;
    const int64_t M = out->shape[nd - 2], N = out->shape[nd - 1], total = size_of(*out);
    if (total == 0) return 0;
    const int64_t batches = total / (M * N);
    const unsigned gz = (unsigned)(batches < 65535 ? batches : 65535);
    if (kernel == MT_CUDA_MATMUL_AUTO) {
        /* the register kernel's 128 x 128 tiles once they can keep half the SMs busy; below
         * that, the 16 times as many 32 x 32 tiles spread wider */
        const int64_t tiles = (M + kRegBM - 1) / kRegBM * ((N + kRegBN - 1) / kRegBN) * batches;
        kernel = tiles * 64 >= max_blocks() ? MT_CUDA_MATMUL_REGISTER : MT_CUDA_MATMUL_TILED;
    }
    mt_cu::Call call(info);
    if (kernel == MT_CUDA_MATMUL_NAIVE) {
        const unsigned grid = blocks_for(total);
        matmul_naive<<<grid, kThreads>>>(*out, *a, *b, total);
        call.describe(matmul_naive, "matmul_naive", grid, kThreads, 0);
    } else if (kernel == MT_CUDA_MATMUL_TILED) {
        const int64_t gy = (M + kTile - 1) / kTile, gx = (N + kTile - 1) / kTile;
        if (gy > 65535) return (int)cudaErrorInvalidConfiguration;
        dim3 grid((unsigned)gx, (unsigned)gy, gz);
        matmul_tiled<<<grid, dim3(kTile, kTile)>>>(*out, *a, *b, batches);
        call.describe(matmul_tiled, "matmul_tiled 32x32", grid, dim3(kTile, kTile), 0);
    } else {
        const int64_t gy = (M + kRegBM - 1) / kRegBM, gx = (N + kRegBN - 1) / kRegBN;
        if (gy > 65535) return (int)cudaErrorInvalidConfiguration;
        dim3 grid((unsigned)gx, (unsigned)gy, gz);
        const bool va = vec4_ok(*a, a->shape[nd - 1]), vb = vec4_ok(*b, N);
        if (va && vb) {
            matmul_register<true, true><<<grid, kRegThreads>>>(*out, *a, *b, batches);
            call.describe(matmul_register<true, true>, "matmul_register 128x128 (float4 loads)",
                          grid, kRegThreads, 0);
        } else if (va) {
            matmul_register<true, false><<<grid, kRegThreads>>>(*out, *a, *b, batches);
            call.describe(matmul_register<true, false>,
                          "matmul_register 128x128 (float4 loads of a)", grid, kRegThreads, 0);
        } else if (vb) {
            matmul_register<false, true><<<grid, kRegThreads>>>(*out, *a, *b, batches);
            call.describe(matmul_register<false, true>,
                          "matmul_register 128x128 (float4 loads of b)", grid, kRegThreads, 0);
        } else {
            matmul_register<false, false><<<grid, kRegThreads>>>(*out, *a, *b, batches);
            call.describe(matmul_register<false, false>, "matmul_register 128x128 (strided loads)",
                          grid, kRegThreads, 0);
        }
    }
    return call.finish();
}
