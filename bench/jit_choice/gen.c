/* What the kernel's compiler would emit for the textbook Task 3.1/3.2 solutions: the student's
 * index helpers inlined, Python's floor division and modulo, every storage access bounds
 * checked (BOUNDS=1), prange as an OpenMP loop over chunks polling an interrupt flag. */
#include <stddef.h>
#include <stdint.h>
#define MAX_DIMS 32
typedef struct {
    float *p;
    int64_t n;
} fbuf;
typedef struct {
    const int64_t *p;
    int64_t n;
} ibuf;
typedef struct {
    int64_t line, index, size;
    int which;
} oob_t;
static inline int64_t py_mod(int64_t a, int64_t b)
{
    int64_t r = a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
static inline int64_t py_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
#if BOUNDS
#define LD(buf, i, ln)                                                                             \
    ({                                                                                             \
        int64_t _i = (i);                                                                          \
        if (__builtin_expect((uint64_t)_i >= (uint64_t)(buf).n, 0)) {                              \
            err->line = ln;                                                                        \
            err->index = _i;                                                                       \
            err->size = (buf).n;                                                                   \
            goto fail;                                                                             \
        }                                                                                          \
        (buf).p[_i];                                                                               \
    })
#define ST(buf, i, v, ln)                                                                          \
    do {                                                                                           \
        int64_t _i = (i);                                                                          \
        if (__builtin_expect((uint64_t)_i >= (uint64_t)(buf).n, 0)) {                              \
            err->line = ln;                                                                        \
            err->index = _i;                                                                       \
            err->size = (buf).n;                                                                   \
            goto fail;                                                                             \
        }                                                                                          \
        (buf).p[_i] = (v);                                                                         \
    } while (0)
#else
#define LD(buf, i, ln) ((buf).p[(i)])
#define ST(buf, i, v, ln) ((buf).p[(i)] = (v))
#endif
#define CHUNK 4096

static inline float relu(float x) { return x > 0 ? x : 0.0f; }
static inline float add(float x, float y) { return x + y; }

int k_map(fbuf out, ibuf out_shape, ibuf out_strides, fbuf in, ibuf in_shape, ibuf in_strides,
          volatile int *cancel, oob_t *err)
{
    int64_t n = out.n, nchunks = (n + CHUNK - 1) / CHUNK;
    int failed = 0;
#pragma omp parallel for schedule(static)
    for (int64_t c = 0; c < nchunks; c++) {
        if (failed || *cancel) continue;
        int64_t out_index[MAX_DIMS], in_index[MAX_DIMS];
        int64_t end = c * CHUNK + CHUNK < n ? c * CHUNK + CHUNK : n;
        for (int64_t i = c * CHUNK; i < end; i++) {
            for (int d = 0; d < MAX_DIMS; d++) out_index[d] = in_index[d] = 0;
            int64_t cur = i;
            for (int64_t d = out_shape.n - 1; d >= 0; d--) {
                int64_t sh = out_shape.p[d];
                out_index[d] = py_mod(cur, sh);
                cur = py_div(cur, sh);
            }
            for (int64_t d = 0; d < in_shape.n; d++)
                in_index[d] = in_shape.p[d] > 1 ? out_index[d + (out_shape.n - in_shape.n)] : 0;
            int64_t o = 0, j = 0;
            for (int64_t d = 0; d < out_shape.n; d++) o += out_index[d] * out_strides.p[d];
            for (int64_t d = 0; d < in_shape.n; d++) j += in_index[d] * in_strides.p[d];
            ST(out, o, relu(LD(in, j, 12)), 12);
        }
        continue;
#if BOUNDS
    fail:
        failed = 1;
#endif
    }
    return failed;
}

int k_zip(fbuf out, ibuf out_shape, ibuf out_strides, fbuf a, ibuf a_shape, ibuf a_strides, fbuf b,
          ibuf b_shape, ibuf b_strides, volatile int *cancel, oob_t *err)
{
    int64_t n = out.n, nchunks = (n + CHUNK - 1) / CHUNK;
    int failed = 0;
#pragma omp parallel for schedule(static)
    for (int64_t c = 0; c < nchunks; c++) {
        if (failed || *cancel) continue;
        int64_t out_index[MAX_DIMS], a_index[MAX_DIMS], b_index[MAX_DIMS];
        int64_t end = c * CHUNK + CHUNK < n ? c * CHUNK + CHUNK : n;
        for (int64_t i = c * CHUNK; i < end; i++) {
            for (int d = 0; d < MAX_DIMS; d++) out_index[d] = a_index[d] = b_index[d] = 0;
            int64_t cur = i;
            for (int64_t d = out_shape.n - 1; d >= 0; d--) {
                int64_t sh = out_shape.p[d];
                out_index[d] = py_mod(cur, sh);
                cur = py_div(cur, sh);
            }
            int64_t o = 0, j = 0, k = 0;
            for (int64_t d = 0; d < out_shape.n; d++) o += out_index[d] * out_strides.p[d];
            for (int64_t d = 0; d < a_shape.n; d++)
                a_index[d] = a_shape.p[d] > 1 ? out_index[d + (out_shape.n - a_shape.n)] : 0;
            for (int64_t d = 0; d < a_shape.n; d++) j += a_index[d] * a_strides.p[d];
            for (int64_t d = 0; d < b_shape.n; d++)
                b_index[d] = b_shape.p[d] > 1 ? out_index[d + (out_shape.n - b_shape.n)] : 0;
            for (int64_t d = 0; d < b_shape.n; d++) k += b_index[d] * b_strides.p[d];
            ST(out, o, add(LD(a, j, 20), LD(b, k, 20)), 20);
        }
        continue;
#if BOUNDS
    fail:
        failed = 1;
#endif
    }
    return failed;
}

int k_reduce(fbuf out, ibuf out_shape, ibuf out_strides, fbuf a, ibuf a_shape, ibuf a_strides,
             int64_t dim, volatile int *cancel, oob_t *err)
{
    int64_t n = out.n, nchunks = (n + 63) / 64;
    int failed = 0;
#pragma omp parallel for schedule(static)
    for (int64_t c = 0; c < nchunks; c++) {
        if (failed || *cancel) continue;
        int64_t out_index[MAX_DIMS];
        int64_t end = c * 64 + 64 < n ? c * 64 + 64 : n;
        for (int64_t i = c * 64; i < end; i++) {
            for (int d = 0; d < MAX_DIMS; d++) out_index[d] = 0;
            int64_t rs = a_shape.p[dim];
            int64_t cur = i;
            for (int64_t d = out_shape.n - 1; d >= 0; d--) {
                int64_t sh = out_shape.p[d];
                out_index[d] = py_mod(cur, sh);
                cur = py_div(cur, sh);
            }
            int64_t o = 0;
            for (int64_t d = 0; d < out_shape.n; d++) o += out_index[d] * out_strides.p[d];
            for (int64_t s = 0; s < rs; s++) {
                out_index[dim] = s;
                int64_t j = 0;
                for (int64_t d = 0; d < a_shape.n; d++) j += out_index[d] * a_strides.p[d];
                ST(out, o, add(LD(out, o, 30), LD(a, j, 30)), 30);
            }
        }
        continue;
#if BOUNDS
    fail:
        failed = 1;
#endif
    }
    return failed;
}

int k_mm(fbuf out, ibuf out_shape, ibuf out_strides, fbuf a, ibuf a_shape, ibuf a_strides, fbuf b,
         ibuf b_shape, ibuf b_strides, volatile int *cancel, oob_t *err)
{
    int64_t abs_ = a_shape.p[0] > 1 ? a_strides.p[0] : 0,
            bbs = b_shape.p[0] > 1 ? b_strides.p[0] : 0;
    int failed = 0;
    int64_t rows = out_shape.p[0] * out_shape.p[1];
#pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < rows; r++) {
        if (failed || *cancel) continue;
        int64_t nn = r / out_shape.p[1], i = r % out_shape.p[1];
        for (int64_t j = 0; j < out_shape.p[2]; j++) {
            int64_t ai = nn * abs_ + i * a_strides.p[1], bi = nn * bbs + j * b_strides.p[2];
            float acc = 0.0f;
            for (int64_t k = 0; k < a_shape.p[2]; k++) {
                acc += LD(a, ai, 40) * LD(b, bi, 40);
                ai += a_strides.p[2];
                bi += b_strides.p[1];
            }
            ST(out, nn * out_strides.p[0] + i * out_strides.p[1] + j * out_strides.p[2], acc, 41);
        }
        continue;
#if BOUNDS
    fail:
        failed = 1;
#endif
    }
    return failed;
}
