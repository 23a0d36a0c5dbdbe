/* internal.h — what the engine's source files share and users of the engine never see.
 *
 * The layering inside the engine: the public entry points (ops.c for raw ops, autodiff.c for
 * Functions, tensor.c for construction and views) check arguments, compute result shapes,
 * allocate outputs and record diagnostics; then they call the tensor's backend through a table
 * of kernels (`struct mt_backend_ops`). A backend kernel may assume its arguments were checked:
 * shapes broadcast, outputs allocated, all tensors on its backend. */
#ifndef MINITORCH_INTERNAL_H
#define MINITORCH_INTERNAL_H

#include "minitorch/minitorch.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* Reference-counted float32 buffer. `data` is 64-byte aligned. A storage of the cuda backend
 * holds device memory: `data` is a device pointer that host code never dereferences (tensor.c
 * and cuda/backend.c copy through the plugin). */
struct mt_storage {
    int refs;
    bool device;   /* data is the cuda backend's device memory */
    int64_t nelem; /* floats in data */
    size_t bytes;  /* host: bytes counted against the context's limit; device: the block's size */
    float *data;
    struct mt_ctx *ctx; /* whose mem_used (dev_used) it counts in */
    uint64_t version;   /* writes in place so far (mt_written): what backward checks */
};

/* The tensor's first element: the public mt_tensor_data, inlined where a tiny op's nanoseconds
 * count. */
static inline float *mt_data(const struct mt_tensor *t) { return t->storage->data + t->offset; }

#define MT_ERR_LEN 512
#define MT_BLOCK_CACHE 16     /* freed blocks kept for reuse (see context.c) */
#define MT_DEV_BLOCK_CACHE 64 /* freed device blocks kept for reuse (see cuda/backend.c) */

struct mt_block {
    void *ptr;
    size_t bytes;
};

struct mt_ctx {
    enum mt_backend backend; /* default for new tensors */
    int cuda_matmul;         /* the cuda matmul's kernel (cuda/plugin.h's enum mt_cuda_matmul) */
    int threads;             /* fast backend's OpenMP threads */
    size_t mem_limit;        /* bytes of storage allowed */
    size_t mem_used;         /* bytes of live storage */
    size_t mem_default;      /* the limit 0 restores */
    uint32_t rng[624];       /* MT19937 state */
    int rng_i;               /* next word of rng to temper */
    mt_diag_fn diag;         /* per-op hook, NULL when off */
    void *diag_user;
    struct mt_block cache[MT_BLOCK_CACHE];         /* freed blocks, oldest first, not in mem_used */
    size_t cache_bytes;                            /* bytes held by the cache */
    struct mt_block dev_cache[MT_DEV_BLOCK_CACHE]; /* freed device blocks, unordered */
    size_t dev_used;                               /* bytes of live device storage */
    size_t dev_cache_bytes;                        /* bytes held by dev_cache */
    unsigned backward_pass; /* numbers mt_backward calls (node visit marks) */
    char err[MT_ERR_LEN];   /* last error message */
};

/* The autodiff history of a computed tensor: the Function that made it and what its backward
 * needs (autodiff.c). Owned by the output tensor; it owns references to its inputs, so a
 * result keeps its graph alive and dropping the result frees the graph. */
struct mt_node {
    int fn;                  /* enum mt_fn in autodiff.c */
    int nin;                 /* inputs: 1 or 2 */
    struct mt_tensor *in[2]; /* owned references */
    struct mt_tensor *saved; /* owned; a forward value the backward reuses, or NULL */
    uint64_t version[3];     /* in[0], in[1], saved: their storages' versions when recorded */
    int dim;                 /* reductions: the dim reduced (MT_ALL_DIMS allowed) */
    int ndim;                /* view: the input's shape; permute: the order */
    int64_t shape[MT_MAX_DIMS];
    enum mt_backend backend; /* to: the input's backend */
    unsigned visit;          /* backward: the pass that last visited it */
    struct mt_tensor *gacc;  /* backward: the gradient accumulated so far, or NULL */
    char *what;              /* forward-only ops: what made it ("map(f)"), owned; else NULL */
};

/* When a or b (may be NULL) requires grad, gives *out a history that backward cannot pass:
 * mt_backward then fails with MT_ERR_GRAD naming `what` (a user function's map, zip or reduce,
 * which has no derivative). On failure *out is released and NULL. */
enum mt_status mt_record_forward_only(struct mt_ctx *ctx, struct mt_tensor **out,
                                      const struct mt_tensor *a, const struct mt_tensor *b,
                                      const char *what);

/* Records a user-facing error message in ctx (when non-NULL) and returns status. */
enum mt_status mt_fail(struct mt_ctx *ctx, enum mt_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A new storage for a tensor of `shape` on backend b (nelem floats, uninitialised): host memory
 * counted against the limit, or device memory for cuda. MT_ERR_NOMEM with a message naming the
 * shape and size on failure. */
enum mt_status mt_storage_new(struct mt_ctx *ctx, enum mt_backend b, int ndim, const int64_t *shape,
                              int64_t nelem, struct mt_storage **out);
void mt_storage_release(struct mt_storage *s);

/* The most elements a tensor may have, and the largest stride, offset or position: 2^50 (4 PiB
 * of float32, beyond any machine), so that sums and products of checked sizes, strides and
 * offsets stay far inside int64. */
#define MT_MAX_ELEMS ((int64_t)1 << 50)

/* *r = a * b (a + b): false when the exact result is outside [-MT_MAX_ELEMS, MT_MAX_ELEMS],
 * int64 overflow included. The one checked arithmetic of sizes, strides and offsets. */
static inline bool mt_checked_mul(int64_t a, int64_t b, int64_t *r)
{
    return !__builtin_mul_overflow(a, b, r) && *r >= -MT_MAX_ELEMS && *r <= MT_MAX_ELEMS;
}
static inline bool mt_checked_add(int64_t a, int64_t b, int64_t *r)
{
    return !__builtin_add_overflow(a, b, r) && *r >= -MT_MAX_ELEMS && *r <= MT_MAX_ELEMS;
}

/* *size = the product of shape[0..ndim) (sizes >= 0). False when the product of the non-zero
 * sizes passes MT_MAX_ELEMS: a size 0 does not excuse the others, whose products are the
 * row-major strides. */
bool mt_shape_size(int ndim, const int64_t *shape, int64_t *size);

/* ---- aliasing (alias.c) ----
 * Two tensors alias when they view one storage. An op writing into a caller's output while it
 * reads an input that aliases it would read elements it already wrote; and a value autodiff saved
 * for backward changes under it when its storage is written in place. */

/* Whether an op writing `out` while reading `in` must read a copy of in instead: they share a
 * storage, the ranges of positions they reach meet, and in is not out itself (the same shape,
 * strides and offset, which an elementwise op reads then writes element by element: in-place
 * `x = f(x)` into x). `elementwise` false, for ops that read an input element after writing
 * other outputs (reductions, matmul): any meeting counts. Ranges, not positions, are compared:
 * interleaved views (every other element each) count as meeting, costing a copy, never a
 * wrong value. Inline, so that where the storages differ a tiny op pays one compare. */
bool mt_overlaps_shared(const struct mt_tensor *out, const struct mt_tensor *in, bool elementwise);
static inline bool mt_overlaps(const struct mt_tensor *out, const struct mt_tensor *in,
                               bool elementwise)
{
    return out->storage == in->storage && mt_overlaps_shared(out, in, elementwise);
}
/* When mt_overlaps(out, *in, elementwise), *in becomes a contiguous copy of it, held in *copy for
 * the caller to release (numpy's answer to np.exp(x.T, out=x)); else nothing changes and *copy
 * is NULL. */
enum mt_status mt_unalias(struct mt_ctx *ctx, const struct mt_tensor *out,
                          const struct mt_tensor **in, bool elementwise, struct mt_tensor **copy);
/* MT_ERR_INVALID naming op when `out` reaches one position through several of its elements (a
 * dim of size > 1 with stride 0, as broadcast views have): the result would depend on the order
 * of the writes, and threads would race on them. PyTorch refuses the same. */
enum mt_status mt_check_out(struct mt_ctx *ctx, const char *op, const struct mt_tensor *out);
/* Records that t's storage was written in place: every view of it sees the new version, and
 * backward refuses a graph that saved one of them at an older version. */
static inline void mt_written(const struct mt_tensor *t) { t->storage->version++; }

/* A new tensor struct viewing `s` (takes one reference to s) with the given geometry. */
enum mt_status mt_tensor_wrap(struct mt_ctx *ctx, struct mt_storage *s, enum mt_backend b, int ndim,
                              const int64_t *shape, const int64_t *strides, int64_t offset,
                              struct mt_tensor **out);

/* Raw views (no history): checked geometry changes sharing t's storage. */
enum mt_status mt_view_raw(struct mt_ctx *ctx, struct mt_tensor *t, int ndim, const int64_t *shape,
                           struct mt_tensor **out);
enum mt_status mt_permute_raw(struct mt_ctx *ctx, struct mt_tensor *t, int ndim,
                              const int64_t *order, struct mt_tensor **out);
/* A contiguous copy of t on the same backend (always a new storage). */
enum mt_status mt_copy_raw(struct mt_ctx *ctx, const struct mt_tensor *t, struct mt_tensor **out);
/* t's values on backend b without history: a new view of the same storage between the CPU
 * backends, a contiguous copy to or from the device. */
enum mt_status mt_to_raw(struct mt_ctx *ctx, struct mt_tensor *t, enum mt_backend b,
                         struct mt_tensor **out);

/* Strides that view t as `shape` (ndim >= t->ndim, t broadcastable to it): leading new dims
 * and broadcast dims get stride 0. The caller has checked broadcastability. */
void mt_expand_strides(const struct mt_tensor *t, int ndim, const int64_t *shape, int64_t *strides);

/* "512 bytes", "4.00 MiB", "1.50 GiB": a size in a message. */
void mt_format_bytes(size_t n, char *buf, size_t len);

/* The kernels of a backend. `out` is allocated with its final shape; `d` is the diagnostic
 * entry being filled (a backend sets path, threads and vec_width). */
struct mt_backend_ops {
    /* out = op(a), a broadcastable to out's shape. */
    enum mt_status (*map)(struct mt_ctx *ctx, enum mt_map_op op, struct mt_tensor *out,
                          const struct mt_tensor *a, struct mt_diag *d);
    /* out = op(a, b), out's shape = broadcast(a, b). */
    enum mt_status (*zip)(struct mt_ctx *ctx, enum mt_zip_op op, struct mt_tensor *out,
                          const struct mt_tensor *a, const struct mt_tensor *b, struct mt_diag *d);
    /* out = reduce(a) over dim (0 <= dim < a->ndim); out has a's shape with dim of size 1. */
    enum mt_status (*reduce)(struct mt_ctx *ctx, enum mt_reduce_op op, struct mt_tensor *out,
                             const struct mt_tensor *a, int dim, struct mt_diag *d);
    /* out (..., M, N) = a (..., M, K) @ b (..., K, N). All three have the same ndim >= 3; the
     * batch dims of a and b equal out's or are 1 (broadcast). */
    enum mt_status (*matmul)(struct mt_ctx *ctx, struct mt_tensor *out, const struct mt_tensor *a,
                             const struct mt_tensor *b, struct mt_diag *d);
};

extern const struct mt_backend_ops mt_simple_ops; /* cpu/simple.c */
extern const struct mt_backend_ops mt_fast_ops;   /* cpu/fast.c */
extern const struct mt_backend_ops mt_cuda_ops;   /* cuda/backend.c */

/* The cuda backend's memory and copies (cuda/backend.c), for the rest of the engine. The
 * backend must have passed mt_backend_check. Device blocks are cached per context like host
 * blocks (context.c): freed blocks wait for an allocation of about their size, and all of them
 * are given back when an allocation fails, by mt_ctx_trim, and when the context is freed. */
enum mt_status mt_dev_alloc(struct mt_ctx *ctx, size_t bytes, const char *what, void **out,
                            size_t *block_bytes);
void mt_dev_free(struct mt_ctx *ctx, void *p, size_t block_bytes);
void mt_dev_trim(struct mt_ctx *ctx);
/* n floats host -> device, device -> host, and a device fill. */
enum mt_status mt_dev_upload(struct mt_ctx *ctx, float *dev, const float *host, int64_t n);
enum mt_status mt_dev_download(struct mt_ctx *ctx, float *host, const float *dev, int64_t n);
enum mt_status mt_dev_fill(struct mt_ctx *ctx, float *dev, int64_t n, float value);

/* The fast backend's tiny ops (cpu/fast.c): a map or zip small enough to run serially, whose
 * operands are row-major with out's shape (for zip, one of them may be a single element), is
 * done at once and true returned; otherwise nothing is touched and false returned. The
 * conditions tested prove everything the front door's checks would (backends aside), so the
 * front door calls these first when the caller gave the output and no diagnostics hook is set:
 * a 10x100 add then costs little more than its loop. `d` may be NULL. */
bool mt_fast_map_small(enum mt_map_op op, struct mt_tensor *out, const struct mt_tensor *a,
                       struct mt_diag *d);
bool mt_fast_zip_small(enum mt_zip_op op, struct mt_tensor *out, const struct mt_tensor *a,
                       const struct mt_tensor *b, struct mt_diag *d);

#endif
