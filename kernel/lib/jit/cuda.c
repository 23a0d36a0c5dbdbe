/* jit/cuda.c — cuda.jit kernels: kernel[blocks, threads](...) compiles the kernel for the GPU
 * (CUDA C, built by the engine with NVRTC) or for the simulator (host C ending in rt/sim.inc,
 * each CUDA thread on a stack of its own), launches it, and maps what failed in a thread to a
 * Python error naming the block and the thread. */
#include "lib/jit/internal.h"

/* ---- cuda.jit kernels -------------------------------------------------------------------- */

/* Where kernels run: on the GPU when the cuda backend has one, else in the simulator;
 * %cuda simulate (or MT_CUDA_SIMULATE=1) keeps them in the simulator. */
static int cuda_mode = -1; /* -1 not asked yet, 0 auto, 1 simulate */
static long launches;      /* cuda.jit launches so far (diagnostics shows those of a statement) */

void dsl_cuda_set_simulate(bool on) { cuda_mode = on; }

bool dsl_cuda_simulate_chosen(void)
{
    if (cuda_mode < 0) {
        const char *e = getenv("MT_CUDA_SIMULATE");
        cuda_mode = e && *e && strcmp(e, "0") != 0;
    }
    return cuda_mode == 1;
}

bool dsl_cuda_simulating(struct mt_ctx *ctx)
{
    return dsl_cuda_simulate_chosen() || mt_backend_check(ctx, MT_BACKEND_CUDA) != MT_OK ||
           !mt_cuda_runs_source();
}

/* The simulator's stacks for the CUDA threads of one block, kept between launches: a stack's
 * first use costs the page faults of its pages, which for a block of 1024 threads took longer
 * than running it. Each OpenMP thread of a launch takes one set and gives it back. A set is one
 * mapping: a page saying its size, then n stacks of `each` bytes (whole pages, sim_stack_bytes),
 * the lowest page of each without access. Memory is reserved only as a stack touches it. */
#define STACK_POOL 8
static char *stack_pool[STACK_POOL];

struct stack_set {
    size_t bytes;          /* the mapping's */
    long each;             /* a stack's */
    int n;                 /* stacks */
    unsigned *valgrind_id; /* each stack's id in valgrind's record (NULL: not running on it) */
};

/* Under valgrind, each stack is registered as one: otherwise memcheck takes a switch onto a
 * stack mapped near the thread's own for a call or return moving the stack pointer, and marks
 * the frames between the two as freed (invalid reads of the block's state in the simulator's
 * scheduler). Builds without valgrind's header, which never run under it in the tests, skip
 * this. */
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
static void stacks_register(struct stack_set *h, char *first)
{
    if (!RUNNING_ON_VALGRIND || !(h->valgrind_id = calloc((size_t)h->n, sizeof *h->valgrind_id)))
        return;
    for (int k = 0; k < h->n; k++) {
        char *lo = first + (size_t)k * (size_t)h->each;
        h->valgrind_id[k] = VALGRIND_STACK_REGISTER(lo + SIM_PAGE, lo + h->each);
    }
}
static void stacks_deregister(struct stack_set *h)
{
    for (int k = 0; h->valgrind_id && k < h->n; k++) VALGRIND_STACK_DEREGISTER(h->valgrind_id[k]);
    free(h->valgrind_id);
}
#else
static void stacks_register(struct stack_set *h, char *first)
{
    (void)h;
    (void)first;
}
static void stacks_deregister(struct stack_set *h) { (void)h; }
#endif

static void stacks_unmap(char *p)
{
    struct stack_set *h = (struct stack_set *)p;
    stacks_deregister(h);
    munmap(p, h->bytes);
}

static char *sim_stacks_take(int n, long each)
{
    for (int i = 0; i < STACK_POOL; i++) {
        char *p = __atomic_exchange_n(&stack_pool[i], (char *)NULL, __ATOMIC_ACQ_REL);
        if (!p) continue;
        const struct stack_set *h = (const struct stack_set *)p;
        if (h->each == each && h->n >= n) return p + SIM_PAGE;
        stacks_unmap(p);
    }
    if (each <= SIM_PAGE || each % SIM_PAGE) return NULL;
    size_t bytes = SIM_PAGE + (size_t)n * (size_t)each;
    char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p == MAP_FAILED) return NULL;
    *(struct stack_set *)p = (struct stack_set){.bytes = bytes, .each = each, .n = n};
    for (int k = 0; k < n; k++)
        if (mprotect(p + SIM_PAGE + (size_t)k * (size_t)each, SIM_PAGE, PROT_NONE) != 0) {
            munmap(p, bytes);
            return NULL;
        }
    stacks_register((struct stack_set *)p, p + SIM_PAGE);
    return p + SIM_PAGE;
}

static void sim_stacks_give(char *stacks)
{
    char *p = stacks ? stacks - SIM_PAGE : NULL;
    for (int i = 0; p && i < STACK_POOL; i++) {
        char *none = NULL;
        if (__atomic_compare_exchange_n(&stack_pool[i], &none, p, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE))
            return;
    }
    if (p) stacks_unmap(p);
}

/* Compiles kernel f for its arguments' types into s, for s->target: the simulator's unit
 * built and loaded (s->entry), or the GPU's CUDA C (s->src). 0, or -1 after raising: a kernel
 * the compiler does not take cannot run at all (there is no interpreter of CUDA). */
static int cuda_build(struct dsl_interp *in, struct dsl_function *f, struct spec *s)
{
    struct unit *u = jit_unit_new(in, false, s->target);
    if (!u) return dsl_raise_status(in, DSL_V_NOMEM);
    int id, r = 0;
    if (jit_compile_fn(u, f, s->args, s->nargs, &id) != 0 ||
        jit_stack_fits(u, MAX_THREAD_STACK) != 0) {
        r = dsl_raise_in(in, u->why_fn ? u->why_fn : f, u->why_fn ? u->why_pos : f->def->pos,
                         "CompileError", "cuda.jit cannot compile %s(): it does not take %s",
                         f->def->name, u->why ? u->why : "this kernel");
        jit_unit_free(u);
        return r;
    }
    s->nfns = u->nfns;
    s->nraises = u->nraises;
    memcpy(s->raises, u->raises, sizeof s->raises);
    for (int i = 0; i < u->nfns; i++)
        for (int j = 0; j < u->fns[i].nvars && s->nshared < 8; j++) {
            const struct var *v = &u->fns[i].vars[j];
            if (v->t != JT_SARR) continue;
            s->shared[s->nshared].name = v->name;
            s->shared[s->nshared].nd = v->sh_nd;
            memcpy(s->shared[s->nshared++].dim, v->sh_dim, sizeof v->sh_dim);
        }
    for (int i = 0; i < s->nargs; i++) s->wrote[i] = u->fns[0].vars[i].written;
    for (int i = 0; i < u->nfns; i++) {
        struct dsl_value v = {.kind = DSL_FUNCTION,
                              .as.fn_user = (struct dsl_function *)u->fns[i].f};
        s->fns[i] = i ? dsl_value_retain(v) : v;
    }
    struct render_buf src;
    jit_unit_source(u, f, &src);
    jit_unit_free(u);
    if (src.nomem) {
        render_buf_free(&src);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    s->src = strdup(src.data);
    if (s->target == JIT_GPU) {
        render_buf_free(&src);
        return s->src ? 0 : dsl_raise_status(in, DSL_V_NOMEM);
    }
    char *note = NULL, *why = NULL;
    struct jit_folder *dir = jit_cache_open(&note, &why);
    if (!dir) {
        render_buf_free(&src);
        r = dsl_raise(in, "RuntimeError", "no folder for compiled code: %s", why);
        free(why);
        return r;
    }
    if (note) dsl_emit(in, "stderr", note);
    free(note);
    struct jit_unit unit;
    jit_unit_names(src.data, jit_cc_flags.v, jit_cc_flags.n, &unit);
    r = jit_load_or_compile(in, f, false, jit_cc_flags.v, jit_cc_flags.n, src.data, dir, &unit, s);
    render_buf_free(&src);
    if (r == 0 && !s->entry)
        r = dsl_raise(in, "RuntimeError", "the CUDA simulator could not build %s(): %s",
                      f->def->name, s->why ? s->why : "no C compiler");
    const int *nsites = s->dl ? dlsym(s->dl, "jit_nsites") : NULL;
    if (r == 0 && nsites) {
        s->nsites = *nsites;
        s->sites = dlsym(s->dl, "jit_sites");
        if (!s->sites) s->nsites = 0;
    }
    return r;
}

/* A dim of a launch: an int, or a tuple or list of up to three, into d[3] (the rest 1). */
static int launch_dims(struct dsl_interp *in, struct dsl_value v, const char *what, int64_t d[3])
{
    d[0] = d[1] = d[2] = 1;
    if (dsl_is_intlike(v) && v.kind != DSL_BOOL) {
        d[0] = dsl_as_int(v);
    } else if (v.kind == DSL_LIST && v.as.l->len >= 1 && v.as.l->len <= 3) {
        for (size_t i = 0; i < v.as.l->len; i++) {
            if (!dsl_is_intlike(v.as.l->items[i]))
                return dsl_raise(in, "TypeError", "the launch's %s must be ints, not %s", what,
                                 dsl_type_name(v.as.l->items[i]));
            d[i] = dsl_as_int(v.as.l->items[i]);
        }
    } else {
        return dsl_raise(in, "TypeError",
                         "the launch's %s: an int or a tuple of one to three ints, not %s", what,
                         dsl_type_name(v));
    }
    for (int i = 0; i < 3; i++)
        if (d[i] < 1)
            return dsl_raise(in, "ValueError", "the launch's %s must be positive, not %lld", what,
                             (long long)d[i]);
    return 0;
}

static int cuda_launch(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);

static const struct dsl_builtin cuda_launch_method = {
    "kernel",
    "kernel[blocks, threads](*args)",
    0,
    -1,
    NULL,
    cuda_launch,
    "Runs the kernel once for every thread of every block: on the GPU when there is one, else "
    "in the kernel's CUDA simulator."};

int dsl_cuda_configure(struct dsl_interp *in, struct dsl_value f, const struct dsl_value *subs,
                       size_t nsubs, struct dsl_value *out)
{
    if (nsubs != 2)
        return dsl_raise(in, "TypeError",
                         "a kernel is launched as %s[blocks, threads](...), with %s",
                         f.as.fn_user->def->name, nsubs < 2 ? "both" : "two values only");
    int64_t g[3], b[3];
    if (launch_dims(in, subs[0], "blocks", g) != 0 || launch_dims(in, subs[1], "threads", b) != 0)
        return -1;
    /* a GPU's limits (CUDA's, for every device since compute capability 3.0) */
    if (b[0] * b[1] * b[2] > 1024 || b[0] > 1024 || b[1] > 1024 || b[2] > 64)
        return dsl_raise(in, "ValueError",
                         "%lld x %lld x %lld threads in a block: a GPU runs at most 1024 "
                         "(at most 1024 along x and y, 64 along z)",
                         (long long)b[0], (long long)b[1], (long long)b[2]);
    if (g[0] > 2147483647 || g[1] > 65535 || g[2] > 65535)
        return dsl_raise(in, "ValueError",
                         "a grid of %lld x %lld x %lld blocks: a GPU takes at most 2^31 - 1 "
                         "along x and 65535 along y and z",
                         (long long)g[0], (long long)g[1], (long long)g[2]);
    struct dsl_list *l = dsl_list_new(7);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    struct dsl_value self = {.kind = DSL_LIST, .as.l = l};
    l->style = DSL_LIST_TUPLE;
    int st = dsl_list_push(l, dsl_value_retain(f));
    for (int i = 0; i < 3 && st == DSL_V_OK; i++) st = dsl_list_push(l, dsl_int(g[i]));
    for (int i = 0; i < 3 && st == DSL_V_OK; i++) st = dsl_list_push(l, dsl_int(b[i]));
    if (st == DSL_V_OK) st = dsl_method_value(&cuda_launch_method, self, out);
    dsl_value_release(self);
    return st == DSL_V_OK ? 0 : dsl_raise_status(in, st);
}

/* The GPU's run of s: storages in host memory copied to the device and back (those the kernel
 * writes), int arrays copied there, the error record zeroed there and read back. */
static int gpu_run(struct dsl_interp *in, struct spec *s, union slot *slots, const bool *on_dev,
                   struct jit_env *e)
{
    struct mt_ctx *ctx = in->session->ctx;
    void *dev[MAX_ARGS] = {0}, *denv = NULL;
    void *args[MAX_ARGS + 1];
    union slot dslots[MAX_ARGS];
    enum mt_status st = mt_cuda_buffer(ctx, sizeof *e, &denv);
    if (st == MT_OK) st = mt_cuda_buffer_copy(ctx, denv, e, sizeof *e, true);
    for (int i = 0; i < s->nargs && st == MT_OK; i++) {
        dslots[i] = slots[i];
        if (floats(s->args[i]) && !on_dev[i]) {
            size_t bytes = (size_t)slots[i].f.n * jit_elem_size(s->args[i]);
            st = mt_cuda_buffer(ctx, bytes, &dev[i]);
            if (st == MT_OK) st = mt_cuda_buffer_copy(ctx, dev[i], slots[i].f.p, bytes, true);
            dslots[i].f.p = dev[i];
        } else if (ints(s->args[i])) {
            size_t bytes = (size_t)slots[i].i.n * sizeof(int64_t);
            st = mt_cuda_buffer(ctx, bytes, &dev[i]);
            if (st == MT_OK) st = mt_cuda_buffer_copy(ctx, dev[i], slots[i].i.p, bytes, true);
            dslots[i].i.p = dev[i];
        }
        args[i + 1] = &dslots[i];
    }
    args[0] = &denv;
    unsigned grid[3], block[3];
    for (int d = 0; d < 3; d++) grid[d] = (unsigned)e->grid[d], block[d] = (unsigned)e->block[d];
    if (st == MT_OK) st = mt_cuda_run_kernel(ctx, s->src, grid, block, args, &s->gpu_ms);
    if (st == MT_OK) st = mt_cuda_buffer_copy(ctx, e, denv, sizeof *e, false);
    for (int i = 0; i < s->nargs && st == MT_OK; i++)
        if (floats(s->args[i]) && !on_dev[i] && s->wrote[i])
            st = mt_cuda_buffer_copy(ctx, slots[i].f.p, dev[i],
                                     (size_t)slots[i].f.n * jit_elem_size(s->args[i]), false);
    for (int i = 0; i < s->nargs; i++) mt_cuda_buffer_free(dev[i]);
    mt_cuda_buffer_free(denv);
    if (st != MT_OK) {
        const struct dsl_function *f = s->fns[0].as.fn_user;
        return dsl_raise(in, "RuntimeError", "%s[(%u, %u, %u), (%u, %u, %u)] on the GPU: %s",
                         f->def->name, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                         mt_ctx_error(ctx));
    }
    e->what = e->name; /* the GPU's record names the array as text */
    return 0;
}

/* The line of byte pos in f's cell, counted from 1. */
int jit_line_at(const struct dsl_function *f, size_t pos)
{
    int line = 1;
    for (size_t i = 0; i < pos && i < f->code->len; i++) line += f->code->src[i] == '\n';
    return line;
}

/* The error a kernel's thread met, with the block and thread. */
/* Element `flat` of kernel s's shared array `name` as the kernel indexes it: "[3]", "[1, 2]". */
static const char *shared_element(const struct spec *s, const char *name, int64_t flat, char *buf,
                                  size_t n)
{
    for (int i = 0; i < s->nshared; i++)
        if (s->shared[i].nd == 2 && strcmp(s->shared[i].name, name) == 0) {
            int64_t cols = s->shared[i].dim[1];
            snprintf(buf, n, "[%lld, %lld]", (long long)(flat / cols), (long long)(flat % cols));
            return buf;
        }
    snprintf(buf, n, "[%lld]", (long long)flat);
    return buf;
}

static int cuda_error(struct dsl_interp *in, struct spec *s, const struct jit_env *e)
{
    int fn = (int)(e->where >> 40);
    size_t pos = (size_t)(e->where & ((1ll << 40) - 1));
    const struct dsl_function *f = fn < s->nfns ? s->fns[fn].as.fn_user : s->fns[0].as.fn_user;
    const char *k = s->fns[0].as.fn_user->def->name;
    char me[96], other[64], there[64] = "", el[64];
    snprintf(me, sizeof me, "thread (%lld, %lld, %lld) of block (%lld, %lld, %lld)",
             (long long)e->tid[0], (long long)e->tid[1], (long long)e->tid[2], (long long)e->bid[0],
             (long long)e->bid[1], (long long)e->bid[2]);
    snprintf(other, sizeof other, "thread (%lld, %lld, %lld)", (long long)e->other_tid[0],
             (long long)e->other_tid[1], (long long)e->other_tid[2]);
    if (e->other_where) {
        int ofn = (int)(e->other_where >> 40);
        const struct dsl_function *of = ofn < s->nfns ? s->fns[ofn].as.fn_user : f;
        snprintf(there, sizeof there, " (line %d)",
                 jit_line_at(of, (size_t)(e->other_where & ((1ll << 40) - 1))));
    }
    static const char *const how[] = {"read", "wrote", "wrote"};
    static const char *const other_how[] = {"wrote", "wrote", "read"};
    switch (e->kind) {
    case JIT_E_INDEX:
        return dsl_raise_in(in, f, pos, "IndexError",
                            "index %lld is out of bounds for %s of size %lld, in %s of %s[%lld, "
                            "%lld]",
                            (long long)e->index, e->what, (long long)e->size, me, k,
                            (long long)(e->grid[0] * e->grid[1] * e->grid[2]),
                            (long long)(e->block[0] * e->block[1] * e->block[2]));
    case JIT_E_SHARED_RACE:
        return dsl_raise_in(
            in, f, pos, "RuntimeError",
            "shared-memory race in %s(): %s %s %s%s, which %s of the same block %s%s with "
            "no cuda.syncthreads() between them: on a GPU their order is chance",
            k, me, how[e->size], e->what, shared_element(s, e->what, e->index, el, sizeof el),
            other, other_how[e->size], there);
    case JIT_E_SHARED_UNSET:
        return dsl_raise_in(in, f, pos, "RuntimeError",
                            "%s read %s%s of shared memory, which no thread of the block had "
                            "written: it holds whatever a GPU left there",
                            me, e->what, shared_element(s, e->what, e->index, el, sizeof el));
    case JIT_E_SYNC_ENDED:
        return dsl_raise_in(in, f, pos, "RuntimeError",
                            "cuda.syncthreads() in %s(): %s waits there, but %s of the block "
                            "ended without reaching it. Every thread of a block must reach each "
                            "syncthreads() (keep it outside `if`s that some threads skip, and "
                            "before any early return): on a GPU this hangs or goes wrong",
                            k, me, other);
    case JIT_E_SYNC_OTHER:
        return dsl_raise_in(in, f, pos, "RuntimeError",
                            "cuda.syncthreads() in %s(): %s waits here, while %s of the block "
                            "waits at another syncthreads()%s. Every thread of a block must "
                            "reach the same barriers in the same order",
                            k, me, other, there);
    case JIT_E_GLOBAL_RACE: { /* two threads of the launch wrote one element of a Storage, unordered
                               */
        int64_t ob = e->other, obid[3] = {ob % e->grid[0], ob / e->grid[0] % e->grid[1],
                                          ob / (e->grid[0] * e->grid[1])};
        return dsl_raise_in(in, f, pos, "RuntimeError",
                            "%s and thread (%lld, %lld, %lld) of block (%lld, %lld, %lld) both "
                            "wrote %s[%lld] in %s(), with no barrier of one block between them: "
                            "on a GPU which value stays is chance. Give each element one "
                            "writer: a thread past the data (i >= the size) must not write",
                            me, (long long)e->other_tid[0], (long long)e->other_tid[1],
                            (long long)e->other_tid[2], (long long)obid[0], (long long)obid[1],
                            (long long)obid[2], e->what, (long long)e->index, k);
    }
    case JIT_E_RAISE: { /* the kernel's own raise: its class and message, as written */
        const struct dsl_node *n =
            e->index >= 0 && e->index < s->nraises ? s->raises[e->index] : NULL;
        const struct dsl_node *x = n ? n->a : NULL;
        const struct dsl_node *cls = x && x->kind == DSL_N_CALL ? x->a : x;
        const char *msg =
            x && x->kind == DSL_N_CALL && x->nkids == 1 ? x->kids[0]->value.as.s->data : "";
        return dsl_raise_in(in, f, pos, cls ? cls->name : "RuntimeError", "%s", msg);
    }
    default: return jit_runtime_error(in, s, e);
    }
}

/* A launch's arguments as the compiled kernel takes them: each one's type and slot (a Storage
 * in GPU memory as it is, for the GPU only). 0, or -1 after raising. */
static int launch_args(struct dsl_interp *in, const struct dsl_function *f,
                       const struct dsl_value *pos, size_t npos, enum jit_target target,
                       union slot *slots, void **ptrs, void **heap, bool *on_dev, enum jt *types)
{
    for (size_t i = 0; i < npos; i++) {
        struct mt_tensor *t;
        if (dsl_storage_view(pos[i], &t) && !mt_backend_is_host(t->backend)) {
            if (target == JIT_SIM) {
                return dsl_raise(in, "TypeError",
                                 "argument %zu of %s() is a Storage in GPU memory, which the "
                                 "simulator cannot reach: give it a tensor on a CPU backend",
                                 i + 1, f->def->name);
            }
            types[i] = JT_FARR;
            slots[i].f.p = mt_tensor_data(t);
            slots[i].f.n = t->size;
            on_dev[i] = true;
        } else {
            types[i] = jit_classify(pos[i], &slots[i], &heap[i]);
        }
        ptrs[i] = &slots[i];
        if (types[i] == JT_NONE)
            return dsl_raise(
                in, "TypeError",
                "argument %zu of %s() is a %s: a kernel takes Storages (t._tensor._storage, "
                "t.tuple()), 1-d numpy arrays of numbers, tuples or lists of ints, ints and "
                "floats",
                i + 1, f->def->name, dsl_type_name(pos[i]));
    }
    jit_share_copies(pos, types, slots, heap, npos);
    return 0;
}

/* Kernel f's specialisation for these arguments' types on target, compiled at its first
 * launch; NULL after raising. */
static struct spec *launch_spec(struct dsl_interp *in, struct dsl_function *f,
                                enum jit_target target, const enum jt *types, size_t npos)
{
    if (!f->jits && !(f->jits = calloc(1, sizeof *f->jits))) {
        dsl_raise_status(in, DSL_V_NOMEM);
        return NULL;
    }
    struct spec *s = f->jits->specs;
    while (s && (s->target != target || s->nargs != (int)npos ||
                 memcmp(s->args, types, npos * sizeof *types) != 0))
        s = s->next;
    if (!s) {
        if (!(s = calloc(1, sizeof *s))) {
            dsl_raise_status(in, DSL_V_NOMEM);
            return NULL;
        }
        s->nargs = (int)npos;
        s->target = target;
        memcpy(s->args, types, npos * sizeof *types);
        if (cuda_build(in, f, s) != 0) {
            jit_spec_free(s);
            return NULL;
        }
        struct spec **end = &f->jits->specs;
        while (*end) end = &(*end)->next;
        *end = s;
    }
    return s;
}

static int cuda_launch(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    const struct dsl_list *self = a->self.as.l;
    struct dsl_function *f = self->items[0].as.fn_user;
    size_t npos = a->nrest;
    const struct dsl_value *pos = a->rest;
    if (f->def->nargs > MAX_ARGS)
        return dsl_raise(in, "TypeError", "%s() has %zu parameters: a kernel takes at most %d",
                         f->def->name, f->def->nargs, MAX_ARGS);
    if (npos != f->def->nargs || f->def->nkw != npos)
        return dsl_raise(in, "TypeError", "%s() takes %u arguments (%zu given)", f->def->name,
                         f->def->nkw, npos);
    enum jit_target target = dsl_cuda_simulating(in->session->ctx) ? JIT_SIM : JIT_GPU;
    union slot slots[MAX_ARGS + 1];
    void *ptrs[MAX_ARGS + 1];
    void *heap[MAX_ARGS] = {0};
    bool on_dev[MAX_ARGS] = {0};
    enum jt types[MAX_ARGS];
    int r = -1;
    if (launch_args(in, f, pos, npos, target, slots, ptrs, heap, on_dev, types) != 0) goto done;
    struct spec *s = launch_spec(in, f, target, types, npos);
    if (!s) goto done;
    struct jit_env e = {.threads = mt_ctx_threads(in->session->ctx),
                        .stop = mt_cancel_flag(),
                        .stacks_take = sim_stacks_take,
                        .stacks_give = sim_stacks_give};
    for (int d = 0; d < 3; d++) {
        e.grid[d] = dsl_as_int(self->items[1 + d]);
        e.block[d] = dsl_as_int(self->items[4 + d]);
    }
    double *stats = NULL;
    if (target == JIT_SIM && s->nsites) {
        stats = calloc((size_t)s->nsites * 3, sizeof *stats);
        if (!stats) {
            r = dsl_raise_status(in, DSL_V_NOMEM);
            goto done;
        }
        e.counting = 1;
        e.stats = stats;
    }
    struct jit_gw gw[MAX_ARGS];
    for (size_t i = 0; target == JIT_SIM && i < npos; i++) /* who writes what (jit_gwrite) */
        if (floats(types[i]) && s->wrote[i]) {
            struct jit_gw *g = &gw[e.ngw++];
            *g = (struct jit_gw){.p = slots[i].f.p,
                                 .who = calloc((size_t)slots[i].f.n + 1, sizeof *g->who),
                                 .epoch = calloc((size_t)slots[i].f.n + 1, sizeof *g->epoch)};
            if (!g->who || !g->epoch) {
                for (int j = 0; j < e.ngw; j++) free(gw[j].who), free(gw[j].epoch);
                free(stats);
                r = dsl_raise_size(in, "the record of each element's writer",
                                   (uint64_t)slots[i].f.n * 12);
                goto done;
            }
        }
    e.gw = gw;
    int64_t t0 = mt_now_ns();
    int ran = target == JIT_GPU ? gpu_run(in, s, slots, on_dev, &e) : s->entry(ptrs, &e);
    for (int j = 0; j < e.ngw; j++) free(gw[j].who), free(gw[j].epoch);
    if (target == JIT_GPU && ran != 0) goto done;
    if (target == JIT_SIM && ran == 2) {
        free(stats);
        r = dsl_raise(in, "MemoryError", "the CUDA simulator could not allocate %s()'s blocks",
                      f->def->name);
        goto done;
    }
    s->last_ns = mt_now_ns() - t0;
    s->last_threads = e.threads;
    free(s->stats);
    s->stats = stats;
    s->counted = e.counted;
    memcpy(s->grid, e.grid, sizeof s->grid);
    memcpy(s->block, e.block, sizeof s->block);
    s->launch_no = ++launches;
    jit_recent(in->session, f);
    for (size_t i = 0; i < npos; i++) { /* backward sees the storages the kernel wrote */
        struct mt_tensor *view;
        if (types[i] == JT_FARR && s->wrote[i] && dsl_storage_view(pos[i], &view))
            mt_tensor_mark_written(view);
    }
    for (size_t i = 0; i < npos; i++) jit_write_back(pos[i], types[i], &slots[i], s->wrote[i]);
    if (e.failed) {
        r = cuda_error(in, s, &e);
        goto done;
    }
    *ret = dsl_none();
    r = 0;
done:
    for (size_t i = 0; i < npos; i++) free(heap[i]);
    return r;
}

int dsl_cuda_kernel_source(struct dsl_interp *in, struct dsl_function *f, struct dsl_value *ret)
{
    struct spec *last = NULL, *gpu = NULL;
    for (struct spec *s = f->jits ? f->jits->specs : NULL; s; s = s->next) last = s;
    if (!last)
        return dsl_raise(in, "ValueError",
                         "cuda_source(%s): a kernel is compiled for the kinds of its arguments "
                         "at its first launch, and this one has not run (launch it first)",
                         f->def->name);
    for (struct spec *s = f->jits->specs; s; s = s->next)
        if (s->target == JIT_GPU && s->nargs == last->nargs &&
            memcmp(s->args, last->args, sizeof *s->args * (size_t)s->nargs) == 0)
            gpu = s;
    if (!gpu) {
        if (!(gpu = calloc(1, sizeof *gpu))) return dsl_raise_status(in, DSL_V_NOMEM);
        gpu->nargs = last->nargs;
        gpu->target = JIT_GPU;
        memcpy(gpu->args, last->args, sizeof *gpu->args * (size_t)gpu->nargs);
        if (cuda_build(in, f, gpu) != 0) {
            jit_spec_free(gpu);
            return -1;
        }
        struct spec **end = &f->jits->specs;
        while (*end) end = &(*end)->next;
        *end = gpu;
    }
    int st = dsl_str_value(gpu->src, strlen(gpu->src), ret);
    return st ? dsl_raise_status(in, st) : 0;
}

long dsl_cuda_launches(void) { return launches; }
