/* internal.h — what the engine's source files share and users of the engine never see.
 *
 * The layering inside the engine: the public entry points (ops.c for raw ops, autodiff.c for
 * Functions, tensor.c for construction and views) check arguments, compute result shapes,
 * allocate outputs and record diagnostics; then they call the tensor's backend through its
 * table (`struct mt_backend_ops`, below), which holds every device operation: memory, copies,
 * the kernels, user functions and the fused training epoch. */
#ifndef MINITORCH_INTERNAL_H
#define MINITORCH_INTERNAL_H

#include "minitorch/minitorch.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

struct mt_mlp;         /* mlp.h: a model for a backend's fused training */
struct mt_train_state; /* a backend's own buffers for it */

struct mt_backend_ops;

/* Reference-counted float32 buffer. `data` is 64-byte aligned. `mem` is the table of the backend
 * that allocated it, whose free gives it back: a storage of a backend whose memory is not the
 * host's (mem->host false: cuda's device memory) holds a pointer that host code never
 * dereferences; tensor.c copies through the table's upload and download. */
struct mt_storage {
    int refs;
    const struct mt_backend_ops *mem; /* whose memory data is */
    int64_t nelem;                    /* floats in data */
    size_t bytes; /* host: bytes counted against the context's limit; device: the block's size */
    float *data;
    struct mt_ctx *ctx; /* whose mem_used (dev_used) it counts in */
    uint64_t version;   /* writes in place so far (mt_written): what backward checks */
};

/* The tensor's first element: the public mt_tensor_data, inlined where a tiny op's nanoseconds
 * count. */
static inline float *mt_data(const struct mt_tensor *t) { return t->storage->data + t->offset; }

#define MT_ERR_LEN 512
#define MT_BLOCK_CACHE 16     /* freed blocks kept for reuse (see cpu/host.c) */
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
    uint32_t rng[MT_RANDOM_WORDS]; /* MT19937 state */
    int rng_i;                     /* next word of rng to temper */
    mt_diag_fn diag;               /* per-op hook, NULL when off */
    void *diag_user;
    struct mt_block cache[MT_BLOCK_CACHE];         /* freed blocks, oldest first, not in mem_used */
    size_t cache_bytes;                            /* bytes held by the cache */
    struct mt_block dev_cache[MT_DEV_BLOCK_CACHE]; /* freed device blocks, unordered */
    size_t dev_used;                               /* bytes of live device storage */
    size_t dev_cache_bytes;                        /* bytes held by dev_cache */
    const struct mt_student_ops *student;          /* the student backend's hooks, or NULL */
    void *student_user;                            /* what they get as `user` */
    unsigned backward_pass;             /* numbers mt_backward calls (node visit marks) */
    bool in_backward;                   /* mt_backward is running (a custom backward's call) */
    uint64_t ops_run[MT_BACKEND_COUNT]; /* raw ops and user functions run, per backend */
    char err[MT_ERR_LEN];               /* last error message */
};

/* The autodiff history of a computed tensor: the Function that made it and what its backward
 * needs (autodiff.c). Owned by the output tensor; it owns references to its inputs, so a
 * result keeps its graph alive and dropping the result frees the graph. */
struct mt_node {
    int fn;                                 /* enum mt_fn in autodiff.c */
    int nin;                                /* inputs: 1 or 2; a custom Function's up to 4 */
    struct mt_tensor *in[MT_CUSTOM_MAX_IN]; /* owned references */
    struct mt_tensor *saved; /* owned; a forward value the backward reuses, or NULL */
    uint64_t version[3];     /* in[0], in[1], saved: their storages' versions when recorded */
    int dim;                 /* reductions: the dim reduced (MT_ALL_DIMS allowed) */
    int ndim;                /* view: the input's shape; permute: the order */
    int64_t shape[MT_MAX_DIMS];
    enum mt_backend backend;    /* to: the input's backend */
    unsigned visit;             /* backward: the pass that last visited it */
    struct mt_tensor *gacc;     /* backward: the gradient accumulated so far, or NULL */
    char *what;                 /* forward-only ops: what made it ("map(f)"), owned; else NULL */
    struct mt_custom_fn custom; /* a custom Function's backward; its data owned */
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

/* A new storage for a tensor of `shape` on backend b (nelem floats, uninitialised), from b's
 * table's alloc. MT_ERR_NOMEM with a message naming the shape and size on failure. */
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

/* "512 bytes", "4.00 MiB", "1.50 GiB": a size in a message (cpu/host.c). */
void mt_format_bytes(size_t n, char *buf, size_t len);
/* "tensor of shape (2, 3)": what an allocation is for, in a message (cpu/host.c). */
const char *mt_shape_what(char *buf, size_t len, int ndim, const int64_t *shape);

/* ---- backends ----
 * A backend is one table, `struct mt_backend_ops`, filled in one file: cpu/simple.c, cpu/fast.c,
 * cuda/backend.c. Everything the engine does to a tensor's memory or values goes through the
 * table of the tensor's backend (mt_backend_ops_of), so the rest of the engine never asks which
 * backend it is: it asks the table, and where an entry is NULL, it takes the general path.
 *
 * The front doors (ops.c, prog.c, tensor.c, context.c, train.c) check arguments, compute result
 * shapes, allocate outputs and record diagnostics before they call an entry, so an entry may
 * assume its arguments were checked: shapes broadcast, outputs allocated with their final shape
 * and not empty (unless said otherwise), all tensors on its backend. `d`, the diagnostic entry
 * being filled, is where a kernel sets path, threads and vec_width (the front door's defaults
 * otherwise); it is never NULL for map, zip, reduce and matmul, and NULL for the others when
 * the diagnostics hook is off. Errors are recorded in ctx with mt_fail and returned;
 * MT_ERR_CANCELLED when the cancel flag (mt_cancel_requested) stopped the work.
 *
 * Required: every entry but those marked "may be NULL". */
struct mt_backend_ops {
    /* ---- availability and memory ---- */
    /* MT_OK when the backend can run in this process, else an error in ctx saying why
     * (MT_ERR_BACKEND). May be NULL: always available. The first call may start a device; no
     * entry but trim is called before it said MT_OK. */
    enum mt_status (*available)(struct mt_ctx *ctx);
    /* Storage is host memory: `data` may be read and written by host code. Backends whose
     * storage is on the host share it: a tensor moves between two of them as a view (to()), and
     * their upload and download are plain copies. */
    bool host;
    /* s->data = a block for s->nelem floats (uninitialised, 64-byte aligned), s->bytes = the
     * bytes it counts in ctx; ndim and shape name the tensor in a failure's message. The caller
     * sets every other field of s. MT_ERR_NOMEM with a message when out of memory. */
    enum mt_status (*alloc)(struct mt_ctx *ctx, int ndim, const int64_t *shape,
                            struct mt_storage *s);
    /* Gives s->data back (s->ctx's counts with it); s itself is the caller's. */
    void (*free)(struct mt_storage *s);
    /* Gives back every block the backend keeps cached for ctx (mt_ctx_trim, mt_ctx_free). May be
     * NULL. Must not start a device that holds nothing. */
    void (*trim)(struct mt_ctx *ctx);
    /* Returns when the work this backend's ops queued for ctx is done (mt_ctx_wait), with the
     * error a queued kernel hit. May be NULL: the ops return after their work. Must not start
     * a device that holds nothing. */
    enum mt_status (*wait)(struct mt_ctx *ctx);
    /* n floats from host memory into this backend's memory, from it to host memory, and a fill
     * of its memory: dst and src are storage data pointers (plus an offset). n may be 0. */
    enum mt_status (*upload)(struct mt_ctx *ctx, float *dst, const float *host, int64_t n);
    enum mt_status (*download)(struct mt_ctx *ctx, float *host, const float *src, int64_t n);
    enum mt_status (*fill)(struct mt_ctx *ctx, float *dst, int64_t n, float value);

    /* ---- the raw ops (ops.c) ---- */
    /* A raw op may run again on the same operands, for a steadier time in the diagnostics
     * (ops.c): false where another run costs more than the time it would steady (cuda: CUDA
     * events per launch, whose GPU time is measured anyway) or would be seen (student: the
     * student's code, whose prints would show again). */
    bool repeatable;
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
    /* out (B, O, OH, OW) = MiniTorch's convolution (mt_conv_raw) of input (B, C, H, W) by weight
     * (O, C, KH, KW), reverse as there: all three 4-D (the front door views a 1-D convolution
     * as one of height 1), out not empty and sharing no storage with the others. May be NULL:
     * the front door runs simple's on copies in host memory. */
    enum mt_status (*conv)(struct mt_ctx *ctx, struct mt_tensor *out, const struct mt_tensor *input,
                           const struct mt_tensor *weight, bool reverse, struct mt_diag *d);
    /* The tiny-op shortcuts, may be NULL: a map or zip into a caller's out (out and the operands
     * on this backend) small enough to run at once, before any of the front door's checks. When
     * the operands prove everything those checks would (backends aside: the caller compares
     * them) the op is done and true returned; otherwise nothing is touched and false returned.
     * Called only when no diagnostics hook is set; `d` is NULL. A 10x100 add then costs little
     * more than its loop. */
    bool (*map_small)(enum mt_map_op op, struct mt_tensor *out, const struct mt_tensor *a,
                      struct mt_diag *d);
    bool (*zip_small)(enum mt_zip_op op, struct mt_tensor *out, const struct mt_tensor *a,
                      const struct mt_tensor *b, struct mt_diag *d);

    /* ---- user functions (prog.c) ---- */
    /* out = p(a) (b NULL: map; a broadcastable to out's shape) or p(a, b) (zip), elementwise;
     * p checked (mt_prog_check), `what` "map" or "zip" for messages; out not empty. */
    enum mt_status (*prog_elementwise)(struct mt_ctx *ctx, const char *what,
                                       const struct mt_prog *p, struct mt_tensor *out,
                                       const struct mt_tensor *a, const struct mt_tensor *b,
                                       struct mt_diag *d);
    /* out = the fold of a along dim (0 <= dim < a->ndim) from start: acc = p(acc, x) in order;
     * out may be empty. d->path and d->threads are the backend's to set. */
    enum mt_status (*prog_reduce)(struct mt_ctx *ctx, const struct mt_prog *p,
                                  struct mt_tensor *out, const struct mt_tensor *a, int dim,
                                  float start, struct mt_diag *d);

    /* ---- training (train.c) ---- */
    /* The backend's fused training, may be NULL (all of them, or train_new and train_free,
     * or train_correct): MiniTorch's network (mlp.h) trained on buffers made once, without the
     * autodiff graph, giving what the ops give. `train_path` names it for mt_trainer_path.
     * train_fits: whether m can run fused here, and is faster so than through the ops, from
     * its sizes (x, y, gw, gb are not set yet).
     * train_new: the buffers the backend keeps for m, made once for every epoch, in *state
     * (NULL entry: it keeps none, state NULL); m, every pointer set in this backend's memory,
     * stays where it is and unchanged, but for the values it points to, until train_free.
     * train_epoch: one epoch in the batch order perm[0..m->n) (host memory); *loss the sum of
     * the batches' losses, m->gw and m->gb the last step's gradients. The cancel flag is polled
     * before it starts; a backend that polls it between batches stops after a whole step.
     * train_correct: *correct the points of m->x whose prediction (output > 0.5) equals their
     * label (NULL entry: the trainer runs the model's ops). */
    const char *train_path;
    bool (*train_fits)(const struct mt_mlp *m);
    enum mt_status (*train_new)(struct mt_ctx *ctx, const struct mt_mlp *m,
                                struct mt_train_state **state);
    void (*train_free)(struct mt_train_state *state);
    enum mt_status (*train_epoch)(struct mt_ctx *ctx, const struct mt_mlp *m,
                                  struct mt_train_state *state, const int64_t *perm, double *loss);
    enum mt_status (*train_correct)(struct mt_ctx *ctx, const struct mt_mlp *m,
                                    struct mt_train_state *state, int64_t *correct);
};

extern const struct mt_backend_ops mt_simple_ops;  /* cpu/simple.c */
extern const struct mt_backend_ops mt_fast_ops;    /* cpu/fast.c */
extern const struct mt_backend_ops mt_cuda_ops;    /* cuda/backend.c */
extern const struct mt_backend_ops mt_student_ops; /* student.c */

/* The table of backend b, a valid enum mt_backend (the tables: context.c). Inline: the tiny ops
 * look it up before anything else. */
extern const struct mt_backend_ops *const mt_backend_tables[MT_BACKEND_COUNT];
static inline const struct mt_backend_ops *mt_backend_ops_of(enum mt_backend b)
{
    return mt_backend_tables[b];
}

/* Host memory (cpu/host.c), the entries of every backend whose storage is on the host: blocks
 * counted against the context's limit (mt_ctx_set_mem_limit) and cached per context (freed
 * blocks wait for an allocation of their size, and are given back when an allocation fails and
 * by mt_ctx_trim); upload and download are copies, fill a loop. */
enum mt_status mt_host_alloc(struct mt_ctx *ctx, int ndim, const int64_t *shape,
                             struct mt_storage *s);
void mt_host_free(struct mt_storage *s);
void mt_host_trim(struct mt_ctx *ctx);
enum mt_status mt_host_upload(struct mt_ctx *ctx, float *dst, const float *host, int64_t n);
enum mt_status mt_host_download(struct mt_ctx *ctx, float *host, const float *src, int64_t n);
enum mt_status mt_host_fill(struct mt_ctx *ctx, float *dst, int64_t n, float value);
/* A host backend's table begins with these, its memory entries. */
#define MT_HOST_MEMORY_OPS                                                                         \
    .host = true, .alloc = mt_host_alloc, .free = mt_host_free, .trim = mt_host_trim,              \
    .upload = mt_host_upload, .download = mt_host_download, .fill = mt_host_fill

#endif
