/* train_step.h — one epoch of MiniTorch's training loop (train.c's contract, mlp.h's struct
 * mt_mlp) in one CUDA block: the cuda backend's fused training step (train.cu).
 *
 * Why one block: at the course's sizes (batch 10, hidden 100) a step is about 300,000
 * multiply-adds in a dozen dependent phases. As separate kernels that is some 60 launches per
 * batch, each costing more than its work; as one launch per epoch the phases are separated by
 * __syncthreads and the activations stay in shared memory. The weights stay in global memory
 * (the model's own tensors, updated in place; small enough to live in L1/L2), so the size of
 * the network is bounded by the activations' shared memory only (mt_ts_smem_floats).
 *
 * The arithmetic is the ops path's (train.c's ops_step on the simple backend), operation for
 * operation and sum for sum in the same order: each product is a k-ordered sum of rounded
 * products (no fused multiply-add: __fmul_rn/__fadd_rn on the GPU, where nvcc would fuse), the
 * loss and its gradient in autodiff's order (as the fast backend's fused step, cpu/fast_train.c,
 * writes them), each parameter updated as p - grad * rate after the gradient of the layer below was
 * computed with its old value. So on the host (the tests' stand-in of the backend's library
 * compiles this file as C, one thread) it gives simple's bits exactly, and on a GPU it differs from
 * simple only where CUDA's expf/logf differ from glibc's.
 *
 * Shared memory, floats, for batch B and widths w[0..nl]: the batch B*w[0], its labels B, z and
 * h of every layer 2*B*w[l+1] each, two gradient buffers B*max(w), and the per-row probability
 * and loss 2*B. */
#ifndef MINITORCH_CUDA_TRAIN_STEP_H
#define MINITORCH_CUDA_TRAIN_STEP_H

#include "../cpu/scalar.h"
#include "plugin.h"

#ifdef __CUDACC__
#define TS_FN __device__ static inline
#define TS_SYNC() __syncthreads()
#define TS_TID ((int64_t)threadIdx.x)
#define TS_NT ((int64_t)blockDim.x)
#define TS_ADD(a, b) __fadd_rn(a, b)
#define TS_SUB(a, b) __fsub_rn(a, b)
#define TS_MUL(a, b) __fmul_rn(a, b)
#define TS_DIV(a, b) __fdiv_rn(a, b)
#else
#define TS_FN static inline
#define TS_SYNC() ((void)0)
#define TS_TID ((int64_t)0)
#define TS_NT ((int64_t)1)
#define TS_ADD(a, b) ((a) + (b))
#define TS_SUB(a, b) ((a) - (b))
#define TS_MUL(a, b) ((a) * (b))
#define TS_DIV(a, b) ((a) / (b))
#endif

/* The shared memory the epoch needs, in floats. */
MT_HD static inline int64_t mt_ts_smem_floats(const struct mt_mlp *m)
{
    int64_t acts = 0, widest = m->width[0];
    for (int l = 0; l < m->nl; l++) {
        acts += 2 * m->width[l + 1];
        if (m->width[l + 1] > widest) widest = m->width[l + 1];
    }
    return m->batch * (m->width[0] + 1 + acts + 2 * widest + 2);
}

/* One epoch: every thread of the block calls it with the same arguments; *loss (written by
 * thread 0) is the sum of the batches' losses, as train.c adds them. */
TS_FN void mt_ts_epoch(const struct mt_mlp *m, const int64_t *perm, float *smem, double *loss)
{
    const int64_t B = m->batch, n = m->n, *w = m->width, tid = TS_TID, nt = TS_NT;
    const int nl = m->nl;
    int64_t widest = w[0];
    for (int l = 0; l < nl; l++)
        if (w[l + 1] > widest) widest = w[l + 1];
    float *xb = smem, *yb = xb + B * w[0], *z[MT_MLP_MAX], *h[MT_MLP_MAX];
    float *p = yb + B;
    for (int l = 0; l < nl; l++) {
        z[l] = p, p += B * w[l + 1];
        h[l] = p, p += B * w[l + 1];
    }
    float *g0 = p, *g1 = g0 + B * widest, *prob = g1 + B * widest, *lossv = prob + B;
    double total = 0.0;
    for (int64_t b0 = 0; b0 < n; b0 += B) {
        const int64_t bs = n - b0 < B ? n - b0 : B;
        const bool last_step = b0 + bs >= n;
        /* the batch, gathered */
        for (int64_t t = tid; t < bs * w[0]; t += nt)
            xb[t] = m->x[perm[b0 + t / w[0]] * w[0] + t % w[0]];
        for (int64_t t = tid; t < bs; t += nt) yb[t] = m->y[perm[b0 + t]];
        TS_SYNC();
        /* forward: z = h @ W + bias (the k-ordered sum, then the bias), h = relu(z) or sigmoid */
        const float *hin = xb;
        for (int l = 0; l < nl; l++) {
            const int64_t K = w[l], N = w[l + 1];
            const float *W = m->w[l], *bias = m->b[l];
            for (int64_t t = tid; t < bs * N; t += nt) {
                const int64_t i = t / N, j = t % N;
                float acc = 0.0f;
                for (int64_t k = 0; k < K; k++)
                    acc = TS_ADD(acc, TS_MUL(hin[i * K + k], W[k * N + j]));
                const float zz = TS_ADD(acc, bias[j]);
                z[l][t] = zz;
                h[l][t] = l + 1 < nl ? mt_s_relu(zz) : mt_s_sigmoid(zz);
            }
            TS_SYNC();
            hin = h[l];
        }
        /* loss = -log(out*y + (out-1)*(y-1)), and its gradient back to the last z, in the
         * order autodiff.c's backward takes (cpu/fast_train.c's fused step spells it out) */
        const float *out = h[nl - 1];
        for (int64_t t = tid; t < bs; t += nt) {
            const float o = out[t], yy = yb[t];
            const float t2 = TS_SUB(o, 1.0f), t3 = TS_SUB(yy, 1.0f);
            const float pr = TS_ADD(TS_MUL(o, yy), TS_MUL(t2, t3));
            prob[t] = pr;
            lossv[t] = -mt_s_log(pr);
            const float g_div = TS_DIV(1.0f, (float)bs), g_log = -g_div;
            const float g_prob = TS_DIV(g_log, pr);
            const float g_out = TS_ADD(TS_MUL(g_prob, yy), TS_MUL(g_prob, t3));
            const float v = TS_MUL(o, TS_SUB(o, 1.0f));
            g0[t] = TS_MUL(g_out, -v);
        }
        TS_SYNC();
        if (tid == 0) {
            float bl = 0.0f; /* sum(loss): the batch's loss, in row order */
            for (int64_t i = 0; i < bs; i++) bl = TS_ADD(bl, lossv[i]);
            total += (double)bl;
        }
        /* backward, layer by layer: the gradient into the layer below with the old W, then
         * W and bias updated (nothing below reads them) */
        float *gz = g0, *gnext = g1;
        for (int l = nl - 1; l >= 0; l--) {
            const int64_t K = w[l], N = w[l + 1];
            float *W = m->w[l], *bias = m->b[l];
            const float *h_in = l > 0 ? h[l - 1] : xb;
            if (l > 0) /* g @ W^T, then back through the ReLU below */
                for (int64_t t = tid; t < bs * K; t += nt) {
                    const int64_t i = t / K, k = t % K;
                    float acc = 0.0f;
                    for (int64_t j = 0; j < N; j++)
                        acc = TS_ADD(acc, TS_MUL(gz[i * N + j], W[k * N + j]));
                    gnext[t] = mt_s_relu_back(z[l - 1][t], acc);
                }
            TS_SYNC(); /* every read of the old W before it changes */
            for (int64_t t = tid; t < K * N; t += nt) { /* h^T @ g, batch-ordered; the update */
                const int64_t k = t / N, j = t % N;
                float acc = 0.0f;
                for (int64_t i = 0; i < bs; i++)
                    acc = TS_ADD(acc, TS_MUL(h_in[i * K + k], gz[i * N + j]));
                if (last_step && m->gw[l]) m->gw[l][t] = acc;
                W[t] = TS_SUB(W[t], TS_MUL(acc, m->rate));
            }
            for (int64_t j = tid; j < N; j += nt) { /* the bias: g summed over the batch */
                float acc = 0.0f;
                for (int64_t i = 0; i < bs; i++) acc = TS_ADD(acc, gz[i * N + j]);
                if (last_step && m->gb[l]) m->gb[l][j] = acc;
                bias[j] = TS_SUB(bias[j], TS_MUL(acc, m->rate));
            }
            TS_SYNC();
            float *swap = gz;
            gz = gnext, gnext = swap;
        }
    }
    if (tid == 0) *loss = total;
}

#endif
