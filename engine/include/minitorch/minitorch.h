/* minitorch.h — the public API of libminitorch, the tensor engine.
 *
 * This header is the engine's manual. The engine is a plain C11 library: it never includes the
 * kernel's headers, ZeroMQ or Jansson, so it builds and tests on a machine that has only a
 * compiler, CMake and (optionally) CUDA. It is what MiniTorch Modules 2-3 build in Python.
 *
 * A worked example:
 *
 *     struct mt_ctx *ctx = mt_ctx_new();                 // backend fast, all cores
 *     struct mt_tensor *x = NULL, *w = NULL, *y = NULL, *loss = NULL;
 *     int64_t xs[] = {4, 2}, ws[] = {2, 3};
 *     if (mt_rand(ctx, MT_BACKEND_FAST, 2, xs, &x) ||
 *         mt_rand(ctx, MT_BACKEND_FAST, 2, ws, &w)) goto fail;
 *     mt_tensor_requires_grad(w, true);
 *     if (mt_matmul(ctx, x, w, &y) ||                     // (4,2) @ (2,3) -> (4,3)
 *         mt_sum(ctx, y, MT_ALL_DIMS, &loss) ||           // -> (1,)
 *         mt_backward(ctx, loss, NULL)) goto fail;        // w->grad is (2,3)
 *     ...
 *     fail: fprintf(stderr, "%s: %s\n", mt_status_ename(status), mt_ctx_error(ctx));
 *     mt_tensor_release(loss); mt_tensor_release(y); mt_tensor_release(w); mt_tensor_release(x);
 *     mt_ctx_free(ctx);
 *
 * Memory model. A tensor is a view (shape, strides, offset) of a reference-counted float32
 * storage; views (permute, view, as_strided, transposes made by autodiff) share it. Tensors are
 * reference counted too: every function returning a tensor through `struct mt_tensor **out`
 * gives the caller one reference, released with mt_tensor_release. When *out is non-NULL on
 * entry to a raw op (mt_map, mt_zip, mt_reduce, mt_matmul_raw) the result is written into that
 * existing tensor instead (the `out=` of numpy; MiniTorch's map into a larger `out`); so do the
 * user functions (mt_map_prog, mt_zip_prog, mt_reduce_prog). An `out` that overlaps an input
 * (another view of its storage) gets what the op gives on a copy of that input, as numpy's
 * `out=` does; an input that is `out` itself (same shape, strides and offset) is read in place
 * by the elementwise ops. An `out` that repeats elements (a dim of size > 1 with stride 0) is
 * MT_ERR_INVALID. Writes into an existing tensor (an `out`, mt_tensor_set, SGD steps)
 * count as versions of its storage, which mt_backward checks. Storage is counted against the
 * context's memory limit; going over it, or a failed allocation, is MT_ERR_NOMEM with the size
 * asked for in the message — never an abort.
 *
 * Errors. Every call that can fail returns an `enum mt_status`; MT_OK is 0, so `if (call(...))`
 * tests for failure. On failure the context holds a message for the user (mt_ctx_error) and the
 * status names the Python exception it stands for (mt_status_ename): a user mistake is a status,
 * only a broken internal invariant aborts. Outputs are left untouched (NULL) on failure.
 *
 * Contexts. All state is in a `struct mt_ctx` passed explicitly: default backend, thread count,
 * memory limit and use, the random generator, the diagnostics hook and the last error. One
 * context is used by one thread at a time (the kernel's shell thread); the fast backend's OpenMP
 * workers are internal. Tensors must be released before their context is freed.
 *
 * Backends. `simple` runs serial reference loops with plain index arithmetic (MiniTorch's
 * SimpleOps, the slow twin every fast path is checked against); `fast` runs OpenMP parallel
 * outer loops and SIMD inner loops with contiguous fast paths and a packed GEMM; `cuda` runs
 * CUDA kernels on tensors in GPU memory. simple and fast share the CPU storage format, so
 * moving between them (mt_to) copies nothing; moving to or from cuda copies. An op's inputs
 * must all be on one backend.
 *
 * Cancellation. Long-running engine loops poll one process-wide flag, the only global state the
 * project allows: a SIGINT handler (or sigwait thread) and the kernel's control thread raise it
 * with mt_cancel_request(); the code that runs a user's request clears it with
 * mt_cancel_clear() before starting, and loops test it with mt_cancel_requested(). The flag is a
 * lock-free atomic, so raising it is async-signal-safe. An op that sees it returns
 * MT_ERR_CANCELLED (its output, if preallocated, is then partly written).
 *
 *     mt_cancel_clear();
 *     for (long i = 0; i < n; i++) {
 *         if (mt_cancel_requested()) return MT_ERR_CANCELLED;
 *         ...
 *     }
 */
#ifndef MINITORCH_MINITORCH_H
#define MINITORCH_MINITORCH_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MT_VERSION_MAJOR 0
#define MT_VERSION_MINOR 1
#define MT_VERSION_PATCH 0
#define MT_VERSION_STRING "0.1.0"

#define MT_MAX_DIMS 8      /* most dimensions a tensor may have */
#define MT_CUSTOM_MAX_IN 4 /* most inputs of a custom Function (mt_record_custom) */
/* The `dim` of a reduction over every element (result shape (1,)). Not -1: negative dims count
 * from the end, so -1 is the last dim. */
#define MT_ALL_DIMS INT_MIN

struct mt_ctx; /* engine state, see "contexts" below */

/* Status codes returned by engine calls. A user mistake is a status, never an abort. */
enum mt_status {
    MT_OK = 0,
    MT_ERR_CANCELLED, /* KeyboardInterrupt: the cancel flag was raised while the call ran */
    MT_ERR_NOMEM,     /* MemoryError: an allocation failed or the memory limit was reached */
    MT_ERR_INVALID,   /* ValueError: an argument was out of its domain */
    MT_ERR_SHAPE,     /* ShapeError: shapes that do not broadcast, bad view, matmul sizes */
    MT_ERR_INDEX,     /* IndexError: an index or dim out of range */
    MT_ERR_BACKEND,   /* RuntimeError: backend unavailable, or inputs on different backends */
    MT_ERR_GRAD,      /* RuntimeError: backward misused (no grad, non-scalar without gradient) */
    MT_STATUS_COUNT
};

/* The engine's version string, e.g. "0.1.0". Static storage; never freed. */
const char *mt_version(void);

/* A short English description of a status ("cancelled", ...). Static storage. */
const char *mt_status_str(enum mt_status status);

/* The Python exception a status stands for ("MemoryError", "ShapeError", ...). Static. */
const char *mt_status_ename(enum mt_status status);

/* Raises the cancel flag. Async-signal-safe; callable from any thread. */
void mt_cancel_request(void);

/* Lowers the cancel flag; called before a request starts running user code. */
void mt_cancel_clear(void);

/* True while the flag is raised. Cheap enough for every iteration of an outer loop. */
bool mt_cancel_requested(void);

/* The flag itself, one byte, nonzero while raised: for code that polls it with a load and no
 * call (compiled kernels' loops). Static storage. */
const volatile unsigned char *mt_cancel_flag(void);

/* ---- backends --------------------------------------------------------------------------- */

enum mt_backend {
    MT_BACKEND_SIMPLE,  /* serial reference loops */
    MT_BACKEND_FAST,    /* OpenMP + SIMD */
    MT_BACKEND_CUDA,    /* the GPU: tensors in device memory (mt_backend_check says if usable) */
    MT_BACKEND_STUDENT, /* ops given from outside the engine (mt_ctx_set_student), host memory */
    MT_BACKEND_COUNT
};

/* "simple", "fast", "cuda", "student". Static. */
const char *mt_backend_name(enum mt_backend b);
/* The backend called `name`: MT_OK, or MT_ERR_INVALID (message in ctx, when ctx is non-NULL,
 * listing the known names). */
enum mt_status mt_backend_parse(struct mt_ctx *ctx, const char *name, enum mt_backend *out);
/* MT_OK when the backend can run here, else MT_ERR_BACKEND with the reason in ctx. */
enum mt_status mt_backend_check(struct mt_ctx *ctx, enum mt_backend b);
/* Whether b's tensors are in host memory: true for simple, fast and student, whose
 * mt_tensor_data the caller may read and write; false for cuda, whose data is a device address
 * (read its values with mt_tensor_copy_out or mt_tensor_get). False for b out of range. Loads
 * nothing: it says where the memory would be, not whether the backend can run. */
bool mt_backend_is_host(enum mt_backend b);

/* ---- contexts ----------------------------------------------------------------------------- */

struct mt_ctx;

/* A new context: backend fast, threads = the number of CPUs OpenMP sees, memory limit = half of
 * physical RAM, random generator seeded with 0. NULL when out of memory. */
struct mt_ctx *mt_ctx_new(void);
/* Frees the context. Every tensor made with it must have been released. NULL is a no-op. */
void mt_ctx_free(struct mt_ctx *ctx);

/* The message of the last failed call ("" if none). Owned by ctx, valid until the next call. */
const char *mt_ctx_error(const struct mt_ctx *ctx);

/* The backend new tensors get when the caller does not name one. */
enum mt_backend mt_ctx_backend(const struct mt_ctx *ctx);
enum mt_status mt_ctx_set_backend(struct mt_ctx *ctx, enum mt_backend b);

/* The kernel the cuda backend's matmul runs: "auto" (the default: the fastest for the shape),
 * "naive" (a thread per output), "tiled" (the course's 32 x 32 shared-memory tiles) or
 * "register" (128 x 128 tiles, 8 x 8 outputs per thread in registers) — the teaching
 * progression of Task 3.4. MT_ERR_INVALID naming the choices for another name. */
enum mt_status mt_ctx_set_cuda_matmul(struct mt_ctx *ctx, const char *kernel);
const char *mt_ctx_cuda_matmul(const struct mt_ctx *ctx);

/* Threads the fast backend may use (1 = serial). MT_ERR_INVALID unless 1 <= n <= 1024. */
int mt_ctx_threads(const struct mt_ctx *ctx);
enum mt_status mt_ctx_set_threads(struct mt_ctx *ctx, int n);

/* Tensor memory: the limit and the bytes of storage alive now. A limit of 0 restores the
 * default. */
size_t mt_ctx_mem_limit(const struct mt_ctx *ctx);
void mt_ctx_set_mem_limit(struct mt_ctx *ctx, size_t bytes);
size_t mt_ctx_mem_used(const struct mt_ctx *ctx);
/* Returns the freed blocks the context keeps for reuse (up to 256 MiB) to the system; the
 * language's %reset calls it so that forgetting big tensors also shrinks the process. */
void mt_ctx_trim(struct mt_ctx *ctx);
/* Ops on the cuda backend return once their kernels are queued, as PyTorch's do; reading a
 * tensor's values waits for them. This waits for all of ctx's queued work: before a clock is
 * read, and to have the error a queued kernel hit (MT_ERR_BACKEND) reported now. At once when
 * nothing is queued, and on the CPU backends. */
enum mt_status mt_ctx_wait(struct mt_ctx *ctx);

/* The random generator: MT19937 seeded like Python's random.seed(n) for n >= 0, so that
 * seed(n) then rand(...) draws the same numbers as `random.seed(n); random.random()` in
 * MiniTorch (one draw per element, row-major). */
void mt_seed(struct mt_ctx *ctx, uint64_t seed);
/* The generator's whole state as CPython's random.getstate() holds it: MT19937's words and
 * the position of the next one to use (0 to MT_RANDOM_WORDS; MT_RANDOM_WORDS after seeding).
 * mt_random_set_state puts one back: MT_ERR_INVALID for a position past MT_RANDOM_WORDS. */
#define MT_RANDOM_WORDS 624
void mt_random_state(const struct mt_ctx *ctx, uint32_t words[MT_RANDOM_WORDS], int *pos);
enum mt_status mt_random_set_state(struct mt_ctx *ctx, const uint32_t words[MT_RANDOM_WORDS],
                                   int pos);
double mt_random(struct mt_ctx *ctx); /* uniform in [0, 1), 53 bits, as random.random() */
/* An integer uniform in [0, n) for 1 <= n <= 2^63, drawn as Python's random._randbelow(n)
 * (getrandbits of n's bit length, redrawn while >= n): the same numbers for the same seed. */
uint64_t mt_random_below(struct mt_ctx *ctx, uint64_t n);
/* Shuffles perm[0..n) in place as Python's random.shuffle does (Fisher-Yates from the end,
 * j = _randbelow(i + 1)), so MiniTorch's `random.shuffle(data)` order is reproduced. */
void mt_shuffle(struct mt_ctx *ctx, int64_t *perm, int64_t n);

/* ---- diagnostics -------------------------------------------------------------------------- */

/* One op as it ran, for the language's %diagnostics and timings. Strings are static. */
struct mt_diag {
    const char *op; /* "add", "sum", "matmul", ... */
    enum mt_backend backend;
    int nin; /* inputs described below (1-2) */
    int in_ndim[2];
    int64_t in_shape[2][MT_MAX_DIMS];
    int64_t in_strides[2][MT_MAX_DIMS]; /* in elements; 0 on broadcast dims */
    int out_ndim;
    int64_t out_shape[MT_MAX_DIMS];
    int64_t out_strides[MT_MAX_DIMS];
    const char *path; /* "contiguous", "strided", "broadcast", "packed gemm avx2", ... */
    int threads;      /* threads that ran it (1: serial) */
    int64_t chunk;    /* items per chunk of the parallel loop (OpenMP schedule(static) over
                       * chunks, each thread a contiguous range); 0: one straight loop */
    int64_t nchunks;  /* chunks of that loop */
    int vec_width;    /* float32 lanes per SIMD vector on the path taken (1: scalar) */
    double bytes;     /* bytes read and written (each element once) */
    double flops;     /* floating-point operations (matmul: 2*M*N*K) */
    int64_t ns;       /* wall time (on cuda: from the call to the kernel's end, copies of the
                       * arguments and the launch included) */
    /* cuda only (kernel is NULL on the CPU backends): the op's main kernel launch */
    const char *kernel;     /* "map_kernel", "matmul_tiled", ... */
    unsigned grid[3];       /* blocks in x, y, z */
    unsigned block[3];      /* threads per block in x, y, z */
    int shared_bytes;       /* shared memory per block, static and dynamic */
    int registers;          /* per thread */
    double occupancy;       /* resident warps per SM over the SM's most, 0..1 (theoretical) */
    int64_t gpu_ns;         /* the op's kernels on the device, from CUDA events */
    int prog_insns;         /* a user function's op (map, zip, reduce): its operations on values
                             * (constants not counted), all fused into this one pass; 0 for the
                             * built-in ops */
    char prog_name[32];     /* and the function's name ("shifted_relu"), cut to fit; "" else */
    int runs;               /* times the op ran for this report: a built-in op (map, zip,
                             * reduce, matmul) on a CPU backend, its output on no input's
                             * storage, runs again while its runs total under 20 ms, 5 runs at
                             * most, and ns is then the median run; 1 otherwise */
    int64_t ns_min, ns_max; /* the fastest and slowest of those runs (both ns when one) */
};
/* (tests/differential/mtbind.py mirrors this struct for ctypes: change both together) */

typedef void (*mt_diag_fn)(void *user, const struct mt_diag *d);
/* Calls fn after every op while set (NULL: off). Timing costs two clock reads per op. */
void mt_ctx_set_diag(struct mt_ctx *ctx, mt_diag_fn fn, void *user);
/* The hook set now (NULL, NULL when off), so that a caller can chain to it and restore it. */
void mt_ctx_diag(const struct mt_ctx *ctx, mt_diag_fn *fn, void **user);

/* ---- the clock ---- */

/* The project's one clock, CLOCK_MONOTONIC: in nanoseconds, and in seconds as a double. */
int64_t mt_now_ns(void);
double mt_now_s(void);

/* ---- the machine's peaks (peak.c) ---- */

/* GFLOP/s of vector FMAs on `threads` threads at once (12 independent register chains each,
 * with `isa` "avx512", "avx2" or anything else: 0, no vector probe), the median of `runs` runs
 * of about 0.1 s. */
double mt_probe_fma_gflops(const char *isa, int threads, int runs);
/* GB/s reading 64 MiB on `threads` threads, the best of `runs`. */
double mt_probe_read_gbps(int threads, int runs);
/* Both on all threads with the GEMM's instruction set, measured once per process at the first
 * call (about 0.3 s; later calls return at once): what diagnostics compare an op's rate with. */
void mt_machine_peak(double *read_gbps, double *fma_gflops);

/* ---- the cuda device (cuda/backend.c) ------------------------------------------------------
 * The calls that only the cuda backend answers: its device's peaks, and kernels compiled outside
 * the engine run on it. Where the backend cannot run they fail, or say false. */

/* The cuda device's peaks from its properties (not measured): DRAM bandwidth in GB/s (memory
 * clock x bus width x 2) and FP32 GFLOP/s (SMs x FP32 lanes per SM x 2 x SM clock), and its
 * name. False, and nothing written, when the cuda backend is unavailable. Asking loads the
 * backend (see mt_backend_check). */
bool mt_cuda_peak(double *dram_gbps, double *fp32_gflops, const char **name);

/* Kernels compiled elsewhere (the language's cuda.jit): device memory and a launch of CUDA C.
 * Each fails with MT_ERR_BACKEND (no usable GPU, or the CUDA error) or MT_ERR_NOMEM, the
 * message in ctx. Buffers are not counted against the context's memory limit: they live for
 * one launch. */
enum mt_status mt_cuda_buffer(struct mt_ctx *ctx, size_t bytes, void **dev);
/* Whether the loaded cuda library runs CUDA C (mt_cuda_run_kernel): false without a GPU, and
 * with a library that only stands in for one. */
bool mt_cuda_runs_source(void);
void mt_cuda_buffer_free(void *dev);
/* bytes from host src to device dst (to_device), or from device src to host dst */
enum mt_status mt_cuda_buffer_copy(struct mt_ctx *ctx, void *dst, const void *src, size_t bytes,
                                   bool to_device);
/* Compiles source (CUDA C holding extern "C" __global__ void mt_kernel(...)) with NVRTC at its
 * first use, kept by its text; launches it with grid and block on args (a pointer to each
 * parameter's value, as cudaLaunchKernel takes them) and waits for it. The message of a
 * failure is the CUDA error's name and text, or NVRTC's log. gpu_ms (may be NULL): the
 * kernel's time, CUDA events around it. */
enum mt_status mt_cuda_run_kernel(struct mt_ctx *ctx, const char *source, const unsigned grid[3],
                                  const unsigned block[3], void **args, double *gpu_ms);

/* ---- tensors ------------------------------------------------------------------------------ */

struct mt_storage; /* reference-counted float32 buffer (internal) */
struct mt_node;    /* autodiff history of a computed tensor (internal) */

/* Fields are read-only for users of the engine; change tensors only through these functions. */
struct mt_tensor {
    int refs;                     /* owners; released at zero */
    int ndim;                     /* 1..MT_MAX_DIMS */
    int64_t shape[MT_MAX_DIMS];   /* sizes; a size may be 0 */
    int64_t strides[MT_MAX_DIMS]; /* in elements; 0 for broadcast dims of views */
    int64_t offset;               /* first element's index in the storage */
    int64_t size;                 /* product of shape */
    enum mt_backend backend;      /* where ops on it run */
    bool requires_grad;           /* gradients flow into it (leaf) or through it */
    struct mt_tensor *grad;       /* owned; the accumulated gradient of a leaf, or NULL */
    struct mt_node *node;         /* owned; the Function that made it, NULL for leaves */
    struct mt_storage *storage;   /* shared with views */
    struct mt_ctx *ctx;           /* the context whose memory it counts against */
};

/* Adds a reference; returns t. */
struct mt_tensor *mt_tensor_retain(struct mt_tensor *t);
/* Drops a reference (NULL is a no-op); frees the tensor, its grad and history at zero. Deep
 * autodiff chains are freed without recursion. */
void mt_tensor_release(struct mt_tensor *t);

/* New tensors of the given shape (ndim 1..MT_MAX_DIMS, sizes >= 0) on backend `b`. */
enum mt_status mt_empty(struct mt_ctx *ctx, enum mt_backend b, int ndim, const int64_t *shape,
                        struct mt_tensor **out); /* contents undefined */
enum mt_status mt_full(struct mt_ctx *ctx, enum mt_backend b, int ndim, const int64_t *shape,
                       float value, struct mt_tensor **out);
enum mt_status mt_zeros(struct mt_ctx *ctx, enum mt_backend b, int ndim, const int64_t *shape,
                        struct mt_tensor **out);
enum mt_status mt_ones(struct mt_ctx *ctx, enum mt_backend b, int ndim, const int64_t *shape,
                       struct mt_tensor **out);
/* Uniform [0,1) from the context's generator, one draw per element in row-major order. The
 * cancel flag stops it (MT_ERR_CANCELLED, no tensor) with the generator past the draws made. */
enum mt_status mt_rand(struct mt_ctx *ctx, enum mt_backend b, int ndim, const int64_t *shape,
                       struct mt_tensor **out);
/* A contiguous tensor holding a copy of data[0..size) (row-major). */
enum mt_status mt_from_data(struct mt_ctx *ctx, enum mt_backend b, int ndim, const int64_t *shape,
                            const float *data, struct mt_tensor **out);

/* True when the strides are row-major for the shape (dims of size 1 may have any stride). */
bool mt_tensor_is_contiguous(const struct mt_tensor *t);
/* Pointer to the element at t's offset in CPU memory (simple and fast backends); elements are
 * at data[sum(index[i] * strides[i])]. For a cuda tensor it is a device address: read those
 * with mt_tensor_get or mt_tensor_copy_out. */
float *mt_tensor_data(const struct mt_tensor *t);
/* Records that t's memory was written through mt_tensor_data: backward then refuses a graph
 * that saved a value of it from before (as it does after mt_tensor_set). */
void mt_tensor_mark_written(struct mt_tensor *t);
/* The element at a full index (ndim values, each 0 <= index[i] < shape[i]; negative values
 * count from the end as in Python). MT_ERR_INDEX with a message otherwise. */
enum mt_status mt_tensor_get(struct mt_ctx *ctx, const struct mt_tensor *t, int n,
                             const int64_t *index, float *value);
enum mt_status mt_tensor_set(struct mt_ctx *ctx, struct mt_tensor *t, int n, const int64_t *index,
                             float value);
/* Copies every element, row-major, into host memory dst[0..t->size). Cannot fail for a CPU
 * tensor; a cuda tensor's copy can (a CUDA error: message in t->ctx). */
enum mt_status mt_tensor_copy_out(const struct mt_tensor *t, float *dst);
/* Writes "(2, 3)" (",)" for one dim) into buf; returns buf. */
char *mt_shape_str(int ndim, const int64_t *shape, char *buf, size_t len);

/* ---- index math (MiniTorch's tensor_data.py) --------------------------------------------- */

/* sum(index[i] * strides[i]) */
int64_t mt_index_to_position(int ndim, const int64_t *index, const int64_t *strides);
/* The row-major index of the `ordinal`-th element of `shape` (last dim fastest). */
void mt_to_index(int64_t ordinal, int ndim, const int64_t *shape, int64_t *out_index);
/* The index into a smaller, right-aligned broadcast `shape` of `big_index`: dims of size 1
 * get 0, missing leading dims are dropped. */
void mt_broadcast_index(const int64_t *big_index, int big_ndim, int ndim, const int64_t *shape,
                        int64_t *out_index);
/* Right-aligned broadcasting: each dim equal, or one of them 1; the result has the larger
 * rank. MT_ERR_SHAPE naming both shapes otherwise (message in ctx when ctx is non-NULL). */
enum mt_status mt_shape_broadcast(struct mt_ctx *ctx, int na, const int64_t *a, int nb,
                                  const int64_t *b, int *nout, int64_t *out);
/* Row-major strides of shape into strides; returns the size (product). */
int64_t mt_strides_from_shape(int ndim, const int64_t *shape, int64_t *strides);

/* ---- raw ops: no autodiff ----------------------------------------------------------------- */

enum mt_map_op {
    MT_MAP_NEG,
    MT_MAP_ID,
    MT_MAP_INV,
    MT_MAP_RELU,
    MT_MAP_SIGMOID,
    MT_MAP_LOG,
    MT_MAP_EXP,
    MT_MAP_ABS,
    MT_MAP_SQRT,
    MT_MAP_TANH,
    MT_MAP_COUNT
};
enum mt_zip_op {
    MT_ZIP_ADD,
    MT_ZIP_SUB,
    MT_ZIP_MUL,
    MT_ZIP_DIV,
    MT_ZIP_LT,
    MT_ZIP_GT,
    MT_ZIP_EQ,
    MT_ZIP_IS_CLOSE, /* |a-b| < 1e-2, as MiniTorch */
    MT_ZIP_MAX,
    MT_ZIP_RELU_BACK, /* b if a > 0 else 0 */
    MT_ZIP_LOG_BACK,  /* b / a */
    MT_ZIP_INV_BACK,  /* -b / a^2 */
    MT_ZIP_COUNT
};
enum mt_reduce_op { MT_RED_SUM, MT_RED_PROD, MT_RED_MAX, MT_RED_MEAN, MT_RED_COUNT };

/* "neg", "add", "sum", ... Static. */
const char *mt_map_name(enum mt_map_op op);
const char *mt_zip_name(enum mt_zip_op op);
const char *mt_reduce_name(enum mt_reduce_op op);
/* The scalar function an op applies to each element (each pair), as every backend computes it
 * in float32; and the value a reduction starts from (0 sum and mean, 1 prod, -inf max). */
float mt_map_scalar(enum mt_map_op op, float x);
float mt_zip_scalar(enum mt_zip_op op, float x, float y);
float mt_reduce_start_value(enum mt_reduce_op op);

/* ---- the student backend: ops written outside the engine ------------------------------------
 * MiniTorch's TensorBackend(ops) builds a backend from a student's map, zip, reduce and matrix
 * multiply. The student backend runs every raw op through the hooks its user gives: tensors on
 * it live in host memory (shared with simple and fast, so .to() between them copies nothing),
 * and autodiff, training and the front door's checks are the engine's as on any backend. Each
 * hook writes `out` (a new contiguous tensor of the op's shape, filled with zeros) from its
 * inputs, with the engine's semantics (mt_map_scalar, mt_zip_scalar; a reduce keeps dim with
 * size 1; matmul's operands have equal ndim >= 3 with batch dims equal to out's or 1), and
 * returns MT_OK, or an error status (a message in ctx when the hook can set one; a hook that
 * reports its error elsewhere may leave ctx's). Mean is the hook's sum divided by the size. The
 * hooks may call the engine (make tensors, run ops) but not set new hooks. */
struct mt_student_ops {
    enum mt_status (*map)(void *user, struct mt_ctx *ctx, enum mt_map_op op, struct mt_tensor *out,
                          struct mt_tensor *a);
    enum mt_status (*zip)(void *user, struct mt_ctx *ctx, enum mt_zip_op op, struct mt_tensor *out,
                          struct mt_tensor *a, struct mt_tensor *b);
    enum mt_status (*reduce)(void *user, struct mt_ctx *ctx, enum mt_reduce_op op,
                             struct mt_tensor *out, struct mt_tensor *a, int dim);
    enum mt_status (*matmul)(void *user, struct mt_ctx *ctx, struct mt_tensor *out,
                             struct mt_tensor *a, struct mt_tensor *b);
};
/* Gives the student backend its ops (borrowed until replaced; NULL: none, and the backend is
 * unavailable, saying how to make one) and the `user` pointer they get. */
void mt_ctx_set_student(struct mt_ctx *ctx, const struct mt_student_ops *ops, void *user);

/* How many raw ops (map, zip, reduce, matmul) and user functions have run on backend b in ctx
 * so far: what ran between two readings, for instance while a student's op computed. */
uint64_t mt_ctx_ops_run(const struct mt_ctx *ctx, enum mt_backend b);

/* out = op(a) elementwise. *out NULL: a new tensor of a's shape. *out non-NULL: written in
 * place; a must broadcast to its shape (MiniTorch's map into a larger out). */
enum mt_status mt_map(struct mt_ctx *ctx, enum mt_map_op op, const struct mt_tensor *a,
                      struct mt_tensor **out);
/* out = op(a, b) with a and b broadcast together. *out non-NULL: written in place; its shape
 * must be the broadcast shape. */
enum mt_status mt_zip(struct mt_ctx *ctx, enum mt_zip_op op, const struct mt_tensor *a,
                      const struct mt_tensor *b, struct mt_tensor **out);
/* Reduces dim `dim` (negative counts from the end) keeping it with size 1; MT_ALL_DIMS reduces
 * every element into shape (1,). An empty dim gives sum 0, prod 1, max -inf, mean nan. */
enum mt_status mt_reduce(struct mt_ctx *ctx, enum mt_reduce_op op, const struct mt_tensor *a,
                         int dim, struct mt_tensor **out);
/* a (..., M, K) @ b (..., K, N) -> (..., M, N), batch dims broadcast, 2-D operands lifted to
 * (1, M, K); the result is 2-D only when both inputs are. One fused kernel, any strides. */
enum mt_status mt_matmul_raw(struct mt_ctx *ctx, const struct mt_tensor *a,
                             const struct mt_tensor *b, struct mt_tensor **out);

/* MiniTorch's convolution (Module 4), raw: no history. 1-D: input (batch, in_channels, w),
 * weight (out_channels, in_channels, kw); 2-D: input (batch, in_channels, h, w), weight
 * (out_channels, in_channels, kh, kw). The result is (batch, out_channels, w) or (batch,
 * out_channels, h, w), the input read as zeros past its edges:
 *   out[b, o, x] = sum over i < in_channels, k < kw of input[b, i, x + k] * weight[o, i, k]
 * (2-D: y + ky and x + kx likewise); with reverse, input[b, i, x - k]: the weight anchored at the
 * right, as MiniTorch's backward applies it. A given *out may have spatial sizes other than the
 * input's (the backward's gradient of the weight is one kw wide); its batch and channels must
 * be the input's batch and the weight's out_channels. */
enum mt_status mt_conv_raw(struct mt_ctx *ctx, const struct mt_tensor *input,
                           const struct mt_tensor *weight, bool reverse, struct mt_tensor **out);

/* ---- user functions: scalar programs run over tensors (prog.c) ---------------------------- */

/* A scalar function of float32 values as a register program: the language compiles a `def` into
 * one, and map/zip/reduce run it over every element (MiniTorch's tensor_map(fn), tensor_zip(fn)
 * and tensor_reduce(fn)). Registers 0 .. nargs-1 hold the arguments; every instruction writes
 * a new register (dst >= nargs, each register written once, read only after it is written) from
 * the registers its op reads (a, b, c) or from imm; register `result` is the function's value.
 * Every op is float32 and never traps: comparisons give 1.0 or 0.0, and a value counts as true
 * when it is not 0 (NaN is true, as in Python). */
enum mt_prog_op {
    MT_P_CONST, /* dst = imm */
    MT_P_NEG,   /* dst = -a; the unary ops below as the map ops of the same name */
    MT_P_ABS,
    MT_P_SQRT,
    MT_P_EXP,
    MT_P_LOG,
    MT_P_SIGMOID,
    MT_P_TANH,
    MT_P_RELU,
    MT_P_NOT, /* 1 if a == 0 else 0 */
    MT_P_ADD, /* dst = a + b; the binary ops below take a, b in that order */
    MT_P_SUB,
    MT_P_MUL,
    MT_P_DIV,
    MT_P_POW, /* powf */
    MT_P_MIN, /* Python's min(a, b): b if b < a else a */
    MT_P_MAX, /* Python's max(a, b): b if b > a else a */
    MT_P_LT,
    MT_P_LE,
    MT_P_GT,
    MT_P_GE,
    MT_P_EQ,
    MT_P_NE,
    MT_P_AND,    /* Python's a and b: b if a else a */
    MT_P_OR,     /* Python's a or b: a if a else b */
    MT_P_SELECT, /* dst = b if a else c */
    MT_P_COUNT
};
#define MT_PROG_MAX_INSNS 4096 /* instructions in one program */
#define MT_PROG_MAX_LIVE 48    /* values alive at once, constants counted throughout (registers) */

struct mt_prog_insn {
    enum mt_prog_op op;
    int dst, a, b, c; /* registers; those the op does not read are ignored */
    float imm;        /* MT_P_CONST's value */
};

struct mt_prog {
    const char *name; /* the function's name, for messages and diagnostics */
    int nargs;        /* 1 for map, 2 for zip and reduce (the accumulator first) */
    int ninsn;
    const struct mt_prog_insn *insn;
    int result; /* the register holding the function's value */
};

/* "add", "select", ... Static. */
const char *mt_prog_op_name(enum mt_prog_op op);
/* The program checked (the rules above, at most MT_PROG_MAX_INSNS instructions and
 * MT_PROG_MAX_LIVE values alive at once): MT_OK, or MT_ERR_INVALID with a message in ctx. */
enum mt_status mt_prog_check(struct mt_ctx *ctx, const struct mt_prog *p);
/* The function's value at args[0 .. nargs): the reference meaning, one element at a time (the
 * simple backend runs it; the fast backend's vector exp, log, sigmoid and tanh agree with it to
 * a few ulp, exactly as its built-in maps do). p must have passed mt_prog_check. */
float mt_prog_eval(const struct mt_prog *p, const float *args);
/* The CUDA C the cuda backend compiles (NVRTC, at the first use of each text, cached) to run p
 * as `what` ("map", "zip" or "reduce"): one kernel, `mt_user`, whose body is the program's
 * instructions as float32 expressions in order (Numba's cuda.jit, written out: students can
 * read what their function became). With `shown`, the text for a reader: the engine's scalar
 * functions it calls are an #include line instead of their definitions. malloc'd,
 * NUL-terminated; NULL when out of memory or what is unknown. p must have passed
 * mt_prog_check. */
char *mt_prog_cuda_source(const struct mt_prog *p, const char *what, bool shown);
/* out = fn(a) elementwise, as mt_map: *out NULL gives a new tensor of a's shape, a non-NULL
 * *out is written in place (a must broadcast to its shape). */
enum mt_status mt_map_prog(struct mt_ctx *ctx, const struct mt_prog *p, const struct mt_tensor *a,
                           struct mt_tensor **out);
/* out = fn(a, b) with a and b broadcast together, as mt_zip. */
enum mt_status mt_zip_prog(struct mt_ctx *ctx, const struct mt_prog *p, const struct mt_tensor *a,
                           const struct mt_tensor *b, struct mt_tensor **out);
/* Along dim (kept, with size 1): acc = start, then acc = fn(acc, x) for each x of the dim in
 * order (MiniTorch's tensor_reduce). A new result of inputs that require grad requires grad
 * too, but backward through it fails with MT_ERR_GRAD: a user function has no derivative. */
enum mt_status mt_reduce_prog(struct mt_ctx *ctx, const struct mt_prog *p,
                              const struct mt_tensor *a, int dim, float start,
                              struct mt_tensor **out);

/* ---- views -------------------------------------------------------------------------------- */

/* Views share storage; they are differentiable (grads flow back to t). */
/* The same storage seen with `shape`; t must be contiguous (MT_ERR_SHAPE otherwise, telling to
 * call contiguous()) and the sizes must agree. One size may be -1 (inferred). */
enum mt_status mt_view(struct mt_ctx *ctx, struct mt_tensor *t, int ndim, const int64_t *shape,
                       struct mt_tensor **out);
/* Dims reordered: order is a permutation of 0..ndim-1. */
enum mt_status mt_permute(struct mt_ctx *ctx, struct mt_tensor *t, int ndim, const int64_t *order,
                          struct mt_tensor **out);
/* A contiguous copy (MiniTorch's Copy); a contiguous t gives a new reference to t itself. */
enum mt_status mt_contiguous(struct mt_ctx *ctx, struct mt_tensor *t, struct mt_tensor **out);
/* Any view of t's storage (not differentiable): every reachable element must lie inside the
 * storage. For tests and slicing. */
enum mt_status mt_as_strided(struct mt_ctx *ctx, struct mt_tensor *t, int ndim,
                             const int64_t *shape, const int64_t *strides, int64_t offset,
                             struct mt_tensor **out);
/* The same values on backend b (simple <-> fast share storage: nothing is copied; to or from
 * cuda, a contiguous copy). Differentiable: the gradient goes back to t's backend. */
enum mt_status mt_to(struct mt_ctx *ctx, struct mt_tensor *t, enum mt_backend b,
                     struct mt_tensor **out);
/* Moves t itself to backend b (MiniTorch's t.to_cuda_()): every holder of t sees its values, and
 * its gradient's, on b. Only a tensor without autodiff history moves (MT_ERR_GRAD otherwise: use
 * mt_to); views made of t before keep the old memory, and backward through an op that used t
 * before the move refuses it as written in place. */
enum mt_status mt_move(struct mt_ctx *ctx, struct mt_tensor *t, enum mt_backend b);

/* ---- autodiff: MiniTorch's Functions ------------------------------------------------------ */

/* Each computes like the raw op and, when an input requires grad, records the Function so that
 * mt_backward can apply its chain rule; gradients are summed back over broadcast dims. */
enum mt_status mt_neg(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor **out);
enum mt_status mt_inv(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor **out);
enum mt_status mt_relu(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor **out);
enum mt_status mt_sigmoid(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor **out);
enum mt_status mt_log(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor **out);
enum mt_status mt_exp(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor **out);
enum mt_status mt_abs(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor **out);
enum mt_status mt_sqrt(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor **out);
enum mt_status mt_tanh(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor **out);
enum mt_status mt_add(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor *b,
                      struct mt_tensor **out);
enum mt_status mt_sub(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor *b,
                      struct mt_tensor **out);
enum mt_status mt_mul(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor *b,
                      struct mt_tensor **out);
enum mt_status mt_div(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor *b,
                      struct mt_tensor **out);
/* Comparisons give 1.0/0.0 and zero gradients (LT, EQ); is_close has no backward. */
enum mt_status mt_lt(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor *b,
                     struct mt_tensor **out);
enum mt_status mt_gt(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor *b,
                     struct mt_tensor **out);
enum mt_status mt_eq(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor *b,
                     struct mt_tensor **out);
enum mt_status mt_is_close(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor *b,
                           struct mt_tensor **out);
/* Reductions keep `dim` (size 1); MT_ALL_DIMS gives shape (1,). max's gradient goes to every
 * element equal to the max (MiniTorch's argmax, ties all 1); all() (product) has none. */
enum mt_status mt_sum(struct mt_ctx *ctx, struct mt_tensor *a, int dim, struct mt_tensor **out);
enum mt_status mt_mean(struct mt_ctx *ctx, struct mt_tensor *a, int dim, struct mt_tensor **out);
enum mt_status mt_max(struct mt_ctx *ctx, struct mt_tensor *a, int dim, struct mt_tensor **out);
enum mt_status mt_all(struct mt_ctx *ctx, struct mt_tensor *a, int dim, struct mt_tensor **out);
/* a @ b (see mt_matmul_raw); grads g @ b^T and a^T @ g through transposed views. */
enum mt_status mt_matmul(struct mt_ctx *ctx, struct mt_tensor *a, struct mt_tensor *b,
                         struct mt_tensor **out);
/* MiniTorch's Conv1dFun and Conv2dFun (see mt_conv_raw): input (batch, in_channels, w) and
 * weight (out_channels, in_channels, kw), or their 2-D forms, no kernel wider (or taller) than
 * the input; the gradients are convolutions too, as MiniTorch's backward computes them. */
enum mt_status mt_conv1d(struct mt_ctx *ctx, struct mt_tensor *input, struct mt_tensor *weight,
                         struct mt_tensor **out);
enum mt_status mt_conv2d(struct mt_ctx *ctx, struct mt_tensor *input, struct mt_tensor *weight,
                         struct mt_tensor **out);

/* A Function written outside the engine (a student's `class Max(Function)`), whose forward
 * ran on detached inputs and made *out. mt_record_custom gives *out, when one of the nin
 * inputs `in` requires grad, the history that makes mt_backward call
 * fn->backward(fn->data, ctx, grad, nin, grads) with the gradient of *out: it sets grads[i] (a
 * new reference, or NULL for none) for each input, which is then summed back over the dims
 * the input was broadcast over, as for the engine's own Functions. A status other than MT_OK
 * stops the backward (a message in ctx, unless the caller reports the error itself). The
 * history takes over fn->data: fn->release(fn->data) runs when the graph is freed, and at
 * once when nothing is recorded or recording fails (then *out is released and NULL). A custom
 * backward may run ops but not mt_backward. nin is 1 to MT_CUSTOM_MAX_IN. */
struct mt_custom_fn {
    enum mt_status (*backward)(void *data, struct mt_ctx *ctx, struct mt_tensor *grad, int nin,
                               struct mt_tensor **grads);
    void (*release)(void *data); /* may be NULL */
    void *data;
};
enum mt_status mt_record_custom(struct mt_ctx *ctx, struct mt_tensor **out, int nin,
                                struct mt_tensor *const *in, const struct mt_custom_fn *fn);

/* Marks a leaf as needing gradients (MT_ERR_GRAD for a non-leaf when turning it off). */
enum mt_status mt_tensor_requires_grad(struct mt_tensor *t, bool on);
/* A new tensor sharing t's storage with no history and requires_grad false. */
enum mt_status mt_detach(struct mt_ctx *ctx, struct mt_tensor *t, struct mt_tensor **out);
/* Backpropagates from t. grad NULL is allowed only for a tensor of one element (the gradient is
 * then 1); otherwise grad must have t's shape. Leaves that require grad accumulate into ->grad.
 * MT_ERR_GRAD when t does not require grad, or when a value that a Function of the graph reads
 * for its gradient (mul's inputs, exp's result, ...) was written in place after the Function
 * ran (PyTorch's "modified by an inplace operation"); then no gradient is accumulated. Writes
 * through mt_tensor_data are not seen. */
enum mt_status mt_backward(struct mt_ctx *ctx, struct mt_tensor *t, struct mt_tensor *grad);
/* Drops t's accumulated gradient (MiniTorch's zero_grad_: grad = None). */
void mt_zero_grad(struct mt_tensor *t);

/* ---- datasets (MiniTorch's datasets.py, datasets.c) ---------------------------------------- */

/* The six 2-D classification sets of MiniTorch. Points are uniform in [0, 1)^2, drawn as
 * MiniTorch draws them (x1 then x2 per point, random.random()); the label is 1 iff
 *   simple  x1 < 0.5                      diag    x1 + x2 < 0.5
 *   split   x1 < 0.2 or x1 > 0.8          xor     (x1 < 0.5 and x2 > 0.5) or (x1 > 0.5 and x2 <
 * 0.5) circle  (x1-0.5)^2 + (x2-0.5)^2 > 0.1 compared strictly in double precision before the
 * points are stored as float32. spiral draws nothing: two deterministic arms of n/2 points each
 * (2*(n/2) points, labels 0 then 1). */
enum mt_dataset {
    MT_DATASET_SIMPLE,
    MT_DATASET_DIAG,
    MT_DATASET_SPLIT,
    MT_DATASET_XOR,
    MT_DATASET_CIRCLE,
    MT_DATASET_SPIRAL,
    MT_DATASET_COUNT
};
const char *mt_dataset_name(enum mt_dataset d); /* "simple", ...; NULL when out of range */
/* By name, case-insensitively ("Simple" as MiniTorch's registry spells it, or "simple");
 * MT_ERR_INVALID naming the six otherwise. */
enum mt_status mt_dataset_parse(struct mt_ctx *ctx, const char *name, enum mt_dataset *out);
/* The points X (m, 2) and labels y (m,) of 0.0/1.0 on backend b, from ctx's generator (seed it
 * first for a repeatable set); m = n, or 2*(n/2) for spiral. n from 1 to 10^8 (spiral: 2). */
enum mt_status mt_dataset_make(struct mt_ctx *ctx, enum mt_backend b, enum mt_dataset d, int64_t n,
                               struct mt_tensor **X, struct mt_tensor **y);
/* The same points in double precision, as MiniTorch's lists hold them: xs[2k], xs[2k+1] and
 * label ys[k] (0 or 1) for k < m, m as above (the caller gives room for it); the same draws as
 * mt_dataset_make. MT_ERR_INVALID for d or n out of range. */
enum mt_status mt_dataset_draw(struct mt_ctx *ctx, enum mt_dataset d, int64_t n, double *xs,
                               int *ys);

/* ---- layers and optimisers (MiniTorch's Linear, Parameter and SGD) ----------------------- */

/* y = x @ weight + bias with weight (in, out) and bias (out,), both leaves requiring grad. */
struct mt_linear {
    struct mt_tensor *weight; /* owned, (in, out), U(-0.5, 0.5) */
    struct mt_tensor *bias;   /* owned, (out,), 0.1 */
};
/* MiniTorch's initialisation: weight = rand(in, out) - 0.5 (in*out draws from the context's
 * generator, row-major), bias = 0.1 (no draws). On failure *l is left empty. */
enum mt_status mt_linear_init(struct mt_ctx *ctx, enum mt_backend b, int64_t in, int64_t out,
                              struct mt_linear *l);
/* x (batch, in) -> (batch, out), differentiable. */
enum mt_status mt_linear_forward(struct mt_ctx *ctx, const struct mt_linear *l, struct mt_tensor *x,
                                 struct mt_tensor **out);
/* Releases the weights; the struct may be reused. */
void mt_linear_free(struct mt_linear *l);

/* One SGD step on n parameters: p -= rate * p->grad, in place (p stays the same leaf tensor,
 * as MiniTorch's p.update(p.value - lr * grad)). Parameters without a gradient are skipped. */
enum mt_status mt_sgd_step(struct mt_ctx *ctx, struct mt_tensor *const *params, int n, float rate);
/* Drops the gradient of every parameter (MiniTorch's SGD.zero_grad). */
void mt_sgd_zero_grad(struct mt_tensor *const *params, int n);

/* ---- training (MiniTorch's Task 3.5 loop, train.c) ---------------------------------------- */

/* Trains MiniTorch's Network in place: layers[0..nlayers) with ReLU between them and a sigmoid
 * after the last (whose out size must be 1), on points X (n, in) with labels y (n,) of 0/1.
 * Each epoch shuffles the n points with the context's generator (random.shuffle of MiniTorch's
 * list(zip(X, y))), then for each batch of `batch` points (the last may be smaller): zero_grad,
 * out = model(xb).view(bs), prob = out*y + (out-1)*(y-1), loss = -log(prob),
 * (loss / bs).sum().view(1).backward(), SGD step p -= rate * grad.
 *
 * Two ways to run a step, with the same float operations in the same order:
 *  - "autodiff ops": the ops above with the autodiff graph, as a loop written in the language;
 *  - "fused step": on the fast backend, the same sums computed on buffers allocated once, with
 *    no graph and no tensors per op (the GEMM sums in the same order as the fast matmul, the
 *    maps call the fast backend's own kernels): the same bits, 20-100x less overhead.
 * The fused step is used when the model and data are on `fast` and its GEMM sums by FMA
 * chains (AVX2/AVX-512), unless `ops_only`. On `cuda` the counterpart is the "fused kernel":
 * a whole epoch in one kernel launch (cuda/train_step.h), when a batch's activations fit one
 * block's shared memory; the same operations as the ops in the same order, without fused
 * multiply-adds, so it differs from the ops only where the GPU's expf/logf do. */
struct mt_trainer;
enum mt_status mt_trainer_new(struct mt_ctx *ctx, const struct mt_linear *layers, int nlayers,
                              struct mt_tensor *X, struct mt_tensor *y, int64_t batch, float rate,
                              bool ops_only, struct mt_trainer **out);
/* One epoch. *loss = the sum over its batches of loss.sum() (each a float32 sum, added in
 * double): the binary cross-entropy summed over every point. On MT_ERR_CANCELLED (the cancel
 * flag rose) the epoch stopped after a whole batch: the model holds every step taken. */
enum mt_status mt_trainer_epoch(struct mt_trainer *t, double *loss);
/* The number of points whose prediction (output > 0.5) equals the label, over all n. */
enum mt_status mt_trainer_correct(struct mt_trainer *t, int64_t *correct);
/* Leaves the parameters' .grad as the loop written with ops would (the last batch's
 * gradients); the fused step keeps them in its own buffers until this is called. */
enum mt_status mt_trainer_sync(struct mt_trainer *t);
/* "fused step" or "autodiff ops" (static string). */
const char *mt_trainer_path(const struct mt_trainer *t);
void mt_trainer_free(struct mt_trainer *t);

#ifdef __cplusplus
}
#endif

#endif
