/* jit/internal.h — what the parts of the function compiler share: its types, the unit being
 * compiled, a function's variables, a specialisation, and the parts' functions.
 *
 * Functions given to numba's njit are compiled to native code.
 *
 * Module 3's kernels (tensor_map's _map, _zip, _reduce, the matrix multiply) are loops over raw
 * storage with index math. A function marked by njit is compiled at its first call with each
 * kind of arguments: its body, and the functions it calls, become C (docs/JIT.md), which the
 * system's C compiler turns into a shared object that is loaded and called. A Storage argument
 * is its float32 memory, a numpy float64 array (MiniTorch's own storages) an array of doubles, a
 * tuple or list of ints an int64 array; a list or numpy array is copied for the call and what
 * the code wrote copied back (as the kernels fill index lists); ints and floats are int64 and
 * double. The function the kernel was made from (tensor_map(fn)'s fn) and the helpers it calls
 * (to_index, ...) are looked up when it compiles and called directly; an engine scalar
 * function (the student backend's neg, add, ...) is the engine's own float32 one, its source
 * compiled into the unit. Compiled code is kept on disk by a hash of its C, so a restarted
 * kernel loads it without compiling.
 *
 * Python's meaning is kept: // and % floor, an index outside an array is an IndexError naming
 * the function, the line, the index and the size, never a crash (unless njit was told
 * boundscheck=False); a division by zero is a ZeroDivisionError. The outermost
 * `for i in prange(n)` of the called function runs in chunks on OpenMP threads (%threads of
 * them), polling the interrupt between chunks. Variables first assigned inside that loop belong
 * to each iteration; `acc += x` on one assigned before it is a reduction, as in Numba. The
 * races Numba compiles into wrong results are refused with errors that explain them: a variable
 * or local array shared by the iterations and written by them, and stores into a shared array
 * at an index that does not follow from the loop's variable or repeats (y[i % 4]). What each
 * variable follows from is tracked through assignments, loops and the arrays calls fill. The
 * races it cannot see (an index read from data) njit(check_races=True) finds at run time, from
 * a record of which iteration wrote each element.
 *
 * The C is written for gcc's optimiser (docs/JIT.md): innermost loops hold no call, helpers are
 * inlined, the element a loop accumulates into is kept in a local when a run-time test allows,
 * and the prange body's accesses at its own index are checked once per chunk.
 *
 * What the compiler does not take yet (another construct, another kind of value) runs in the
 * interpreter as any function; parallel_diagnostics(fn) says why.
 *
 * A function given to numba's cuda.jit is a CUDA kernel, compiled at its first launch
 * (kernel[blocks, threads](...)) by the same front end for one of two targets (docs/JIT.md):
 * CUDA C that the engine compiles with NVRTC and launches on a GPU, or host C ending in the
 * simulator's run time (rt/sim.inc), where each CUDA thread of a block runs on a stack of its own
 * and the simulator checks and counts what a GPU would do. A kernel the compiler does not take is a
 * CompileError: there is no interpreter of CUDA.
 *
 * The parts, as the pipeline runs them (jit/compile.c): types.c, then the walk over a
 * function's body (stmt.c, loops.c, expr.c, builtins.c) with the race analysis (races.c) and
 * the promotion and jam passes (promote.c, jam.c), the unit's text around the run time (rt/),
 * its build and cache (build.c, cache.c), calls and their errors (call.c), cuda.jit launches
 * (cuda.c), and what parallel_diagnostics says (diagnostics.c, listing.c). */
#ifndef KERNEL_LIB_JIT_INTERNAL_H
#define KERNEL_LIB_JIT_INTERNAL_H

#include "lib/jit.h"

#include "lang/interp.h"
#include "lang/library.h"
#include "lang/ndarray.h"
#include "lib/diagnostics.h"
#include "lib/jit/cache.h"
#include "lib/jit/listing.h"
#include "lib/modules.h"
#include "lib/storage.h"
#include "lib/student.h"

#include "minitorch/minitorch.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/jit/rt/env.h" /* after <stdint.h>: it uses its types */

#define MAX_ARGS 16
#define MAX_FNS 32     /* compiled functions (specialisations) in one unit */
#define MAX_VARS 64    /* locals of one function (unset_read: a bit of a uint64_t each) */
#define MAX_PRANGE 8   /* prange loops of one function told apart (the rest: as the last one) */
#define MAX_ARRAY 1024 /* elements of a local array ([0] * n): each thread's stack holds them */
/* The stack the locals of a chain of compiled calls may take: an njit function's run on the
 * kernel's threads (whose stacks are a few MiB), and each CUDA thread's, as a GPU's 512 KiB of
 * local memory per thread; a simulated thread's stack is sized from its kernel's need */
#define MAX_HOST_STACK (1 << 20)
#define MAX_THREAD_STACK (512 << 10)

enum jt {
    JT_NONE,  /* no value: a function without return */
    JT_BOOL,  /* int64_t 0/1 */
    JT_INT,   /* int64_t */
    JT_FLOAT, /* double */
    JT_FARR,  /* farr: a Storage's float32 memory (or a numpy float32 array's, copied) */
    JT_IARR,  /* iarr: int64 elements */
    JT_SARR,  /* a CUDA kernel's shared array (struct var says its kind): only indexed */
    JT_ITUP,  /* iarr, from a tuple: read only, as Python's tuples */
    JT_DARR,  /* darr: a numpy float64 array's numbers (MiniTorch's own storages) */
};

/* What a unit is compiled for: a function given to njit (host C, called once), or a cuda.jit
 * kernel in the simulator (host C, each CUDA thread on a stack of its own) or on the GPU (CUDA
 * C for NVRTC). */
enum jit_target { JIT_HOST, JIT_SIM, JIT_GPU };

static inline enum jt join(enum jt a, enum jt b)
{
    if (a == b) return a;
    if ((a == JT_INT || a == JT_BOOL || a == JT_FLOAT) &&
        (b == JT_INT || b == JT_BOOL || b == JT_FLOAT))
        return a == JT_FLOAT || b == JT_FLOAT ? JT_FLOAT : JT_INT;
    return JT_NONE; /* no common type */
}

static inline bool numeric(enum jt t) { return t == JT_BOOL || t == JT_INT || t == JT_FLOAT; }

/* An array of ints, a list's (written back after the call) or a tuple's (read only). */
static inline bool ints(enum jt t) { return t == JT_IARR || t == JT_ITUP; }

/* An array of floats: a Storage's float32 memory or a float64 array (a kernel's data). */
static inline bool floats(enum jt t) { return t == JT_FARR || t == JT_DARR; }

/* The C type of an element of array type t, and its bytes. */
static inline const char *jit_elem_c(enum jt t)
{
    return t == JT_DARR ? "double" : t == JT_FARR ? "float" : "int64_t";
}
static inline int jit_elem_size(enum jt t) { return t == JT_FARR ? 4 : 8; }

/* A shared array's accesses in one prange loop (var.pl). */
struct pacc {
    const struct dsl_node *ix;
    bool written, mixed, whole, racy;
};

struct var {
    const char *name;
    enum jt t;
    bool param;
    bool in_loop;   /* first assigned inside the prange loop: private to each iteration */
    int64_t buflen; /* a local array's length ([0] * n), else 0 */
    char reduce;    /* '+' or '*': a reduction of the prange loop (acc += x[i]), else 0 */
    bool dep;       /* its value follows from the prange loop's variable (which element) */
    bool written;   /* a parameter array the function stores into (itself or by a call) */
    bool escapes;   /* a local array also reachable another way (a user function's parameter,
                     * another name): zeroed whole when made again, not just what was written */
    /* the prange loop's view of an array: another name, given in the loop, for one every
     * iteration shares (a parameter, or an array made before the loop: alias_of, the first
     * such name); written in a prange loop, by a store or a call; where a local array was made */
    bool alias_shared, pwritten;
    const char *alias_of;
    const struct dsl_node *made;
    /* an int variable of the prange loop as a store's index: what its values are (enum ixk,
     * the join of all its assignments'); a Storage parameter some store into which the
     * analysis cannot show one iteration's own, recorded at run time (racy: in some loop) */
    char ixk;
    bool racy;
    /* the prange loop's view of what may change within one iteration: where a variable is
     * first assigned in the loop, and whether it may hold two values in an iteration (assigned
     * at two places, or in a loop the iteration runs: an inner loop's variable) */
    const struct dsl_node *pset;
    bool ptwice, pinner;
    /* of a shared array, in each prange loop of the function (its slot: prange_slot; loops
     * run one after the other, so what one does cannot race with another's): the index of its
     * first access at an element of the iteration's own; whether the loop writes it, whether
     * some access may reach another iteration's element (mixed) or elements the compiler
     * cannot name (whole: a call given the array, a loop over it), and whether its accesses
     * are recorded at run time (racy) */
    struct pacc pl[MAX_PRANGE];
    /* an array of the iteration's own: the writes into it the compiler has passed so far in
     * the loop's body (in this pass), and whether one is in a loop the iteration runs */
    int fills;
    bool fill_own; /* and whether the last is to_index of an ordinal of the iteration's own */
    bool pfill_inner;
    /* a shared array (JT_SARR): its elements ('d' float64, 'f' float32, 'i' int32, 'l' int64),
     * its dims, its place in the simulator's block memory (bytes), and the number of its first
     * element among the kernel's shared elements (the simulator's record of each) */
    char sh_dt;
    int sh_nd;
    int64_t sh_dim[2];
    int64_t sh_off, sh_base;
};

/* One C function: a user function compiled for its argument types. */
struct cfn {
    const struct dsl_function *f;
    enum jt args[MAX_ARGS];
    int nargs;
    enum jt ret;
    bool ret_seen;
    struct var vars[MAX_VARS];
    int nvars;
    int id;
    bool top;      /* the called function: its prange runs in parallel */
    bool done;     /* compiled (a call of one still compiling is recursion) */
    bool may_fail; /* it can end with env->failed set: its callers test that after the call */
    bool loops;    /* its body holds a loop, or calls a function that does */
    /* the stack it takes, as bytes: its own frame (its local arrays, room for its other locals)
     * and, of the functions it calls, the largest such need (callee_stack, that of deepest) */
    int64_t stack, callee_stack;
    int deepest;
};

/* The walks over a function's body (compile.c): the type pass, repeated until no local's type
 * widens (the race analysis learns on the way what each variable follows from, but judges
 * nothing on facts not settled yet); the race check, one walk that refuses each race; the
 * emitting pass. */
enum jit_pass { JIT_PASS_TYPES, JIT_PASS_RACES, JIT_PASS_EMIT };

struct unit {
    struct dsl_interp *in;
    const struct jit_emitter *em; /* its target's */
    int64_t sh_bytes, sh_elems;   /* the kernel's shared arrays: bytes and elements */
    /* the simulator's memory access sites (a global or shared array read or written at one
     * place of the source), whose warps' accesses it counts: their table's C text */
    int nsites;
    struct render_buf sites;
    /* a kernel's `raise E("message")` statements: the nodes, whose number the error carries */
    const struct dsl_node *raises[16];
    int nraises;
    struct cfn fns[MAX_FNS];
    int nfns;
    struct render_buf out;    /* the C text of the function being emitted */
    struct render_buf protos; /* the compiled functions' prototypes */
    struct render_buf bodies; /* and their bodies */
    char *why;                /* what the compiler did not take: the first reason */
    size_t why_pos;
    const struct dsl_function *why_fn;
    bool race;                     /* why is a race: an error, not a fallback */
    int loop_depth;                /* nested loops, inside the function being emitted */
    bool in_prange;                /* emitting the body of the parallel loop */
    const char *prange_var;        /* its variable */
    char prange_count[24];         /* the C counter of its iterations, where not that variable */
    bool changed;                  /* a local's type widened during this pass */
    const char *aug;               /* the reduction variable an augmented assignment is reading */
    size_t prange_pos[MAX_PRANGE]; /* the parallel loops of the called function (the first) */
    bool prange_light[MAX_PRANGE]; /* and whether an iteration of each runs no loop nor calls one */
    int nprange;
    size_t cur_prange;         /* the parallel loop being compiled (its position) */
    size_t pl_pos[MAX_PRANGE]; /* the prange loops met, by slot (their positions) */
    int npl;
    int pno;                            /* the slot of the one being compiled (var.pl) */
    bool prange_head;                   /* assigning a prange loop's variable, in its header */
    const struct dsl_node *prange_body; /* and the loop's body */
    size_t calls_loops[8]; /* the parallel loops whose bodies call a function holding a loop */
    int ncalls_loops;
    enum jit_pass pass; /* the walk under way */
    int tmp;
    bool soft_fail; /* the statement being emitted holds something that sets env->failed and
                     * goes on (a division, a call of a function that may fail): it is tested
                     * after the statement */
    int brk; /* where `break` goes in the loop being emitted: the label brk<n>, or -1 `break;`,
              * or -2 nowhere (the prange loop's own body) */
    char fail[24]; /* the label JIT_FAIL stands for now */
    /* the storage element an innermost loop keeps in a register (promote): its array's name,
     * its index, and the id of the C variable pv<id> holding it; NULL when none */
    const char *pr_arr;
    const struct dsl_node *pr_ix;
    int pr_id;
    /* the accesses x[i] of the prange loop's body whose bounds each chunk checks once, before
     * it runs (see unchecked_accesses) */
    const struct dsl_node *elide[16];
    int nelide;
    /* loops nested inside the called function's prange body: now, and at most */
    int nest, max_nest;
    /* loops whose iterations run in groups (range_jammed): whether to, whether one could, how
     * many do, and the first */
    bool jam_on, jam_cand;
    bool race_checks; /* some store of the prange loop is recorded and checked at run time */
    int jams;
    const struct dsl_node *jam_line;
    const struct dsl_function *jam_fn;
};

/* ---- expressions ------------------------------------------------------------------------ */

struct ex {
    enum jt t;
    struct render_buf s; /* C text */
};

static inline void ex_init(struct ex *e) { e->t = JT_NONE, render_buf_init(&e->s, 0); }
static inline void ex_free(struct ex *e) { render_buf_free(&e->s); }

/* The number of the prange loop's iteration being run, in its C: two strings, printed "%s%s". */
#define ITERATION(u)                                                                               \
    ((u)->prange_count[0] ? "" : "v_"), ((u)->prange_count[0] ? (u)->prange_count : (u)->prange_var)

/* What the values of an index are over the prange loop's iterations, as far as the compiler
 * can tell: the same in every iteration (IX_SAME), each iteration's own (IX_OWN: the loop's
 * variable, plus or times what does not change within an iteration (two_values), or
 * index_to_position of an index buffer the iteration filled from it once, as the course's
 * kernels make their output's position), repeating (IX_REPEATS: % or // of the loop's
 * variable), or unknown (IX_UNKNOWN: i - i, min(i, 3), an index read from data, a variable
 * given two values), whose accesses are recorded and checked at run time. */
enum ixk { IX_NONE, IX_SAME, IX_OWN, IX_UNKNOWN, IX_REPEATS };

/* One compiled specialisation of a jit function: for these argument types. */
struct spec {
    struct spec *next;
    enum jt args[MAX_ARGS];
    int nargs;
    enum jt ret;
    void *dl;                                     /* the loaded object, or NULL */
    int (*entry)(void **slots, struct jit_env *); /* NULL: runs in the interpreter, why says why */
    char *why;
    bool wrote[MAX_ARGS]; /* the storages (parameters) the called function writes */
    bool racy[MAX_ARGS];  /* and those its prange loop's writes are recorded in (var.racy) */
    char *report;         /* what parallel_diagnostics says of it */
    char *src;            /* the C it was compiled from (a kernel on the GPU: the
                           * CUDA C NVRTC compiles at its launch) */
    enum jit_target target;
    /* a kernel's last launch: its grid and block, its number among the process's launches,
     * its time on the GPU (CUDA events), and in the simulator the counts of its access sites
     * (requests, transactions, fewest: 3 per site) over the blocks counted */
    int64_t grid[3], block[3];
    long launch_no;
    double gpu_ms;
    int nsites;
    const struct jit_site *sites;
    double *stats;
    int64_t counted;
    const struct dsl_node *raises[16]; /* the kernel's raise statements (their error's index) */
    int nraises;
    /* a kernel's shared arrays (the first 8), for its errors: an element of a 2-D one is said
     * as [i, j], as the kernel indexes it */
    struct {
        const char *name;
        int nd;
        int64_t dim[2];
    } shared[8];
    int nshared;
    struct dsl_value fns[MAX_FNS]; /* the functions compiled in (errors point into them);
                                    * fns[0], the owner itself, is not held */
    int nfns;
    /* the last call: its time, threads, and the bytes of the storages it was given; whether it
     * was the first call of its build (ran_entry: the build the call before ran) */
    int64_t last_ns;
    int last_threads;
    double last_bytes;
    bool last_first;
    int (*ran_entry)(void **slots, struct jit_env *);
    /* Tiers: the first call runs a quick build (quick_cc) while gcc's runs in the background;
     * the next call waits for gcc's and switches to it. */
    struct jit_job *job;       /* gcc's build, while it runs */
    void *quick_dl;            /* the quick build, loaded while entry is it */
    bool quick;                /* entry is the quick build */
    bool was_quick;            /* the first call ran the quick build */
    char *slow_why;            /* why gcc failed where the quick compiler did not */
    char *so_path;             /* gcc's build, once entry is it */
    struct dsl_student_op *op; /* the engine op the last call ran for, from the student
                                * backend (NULL: called directly) */
    char *loops;               /* what its loops cost (jit/listing.h), read when first asked */
    /* A unit with loops nested two deep whose iterations run in groups (range_jammed) has two
     * builds: the loops as written, by gcc with deep_flags, for its first call (plain), which
     * then starts gcc -O2 on the grouped C (later_*), the quick build's way, which the next
     * call waits for */
    bool plain;
    char *later_text;
};

struct dsl_jit_cache {
    struct spec *specs;
    /* Calls that ran in the interpreter because an argument is of a kind the compiler does not
     * take (no spec is built for them), and the first such argument of the first such call:
     * what parallel_diagnostics says in place of "not called yet" */
    int64_t interp_calls;
    int interp_arg;
    char interp_kind[64];
};

/* The bytes of a simulated CUDA thread's stack for a kernel whose locals take `need`: room for
 * the simulator's own calls (its records, the allocator, the math library) beside them, whole
 * pages, and a page at the bottom that nothing may touch (sim_stacks_take), so that a stack
 * that still overflowed would stop the kernel at once rather than write into the next
 * thread's. */
#define SIM_PAGE 4096
#define SIM_STACK_ROOM (64 << 10)
static inline int64_t sim_stack_bytes(int64_t need)
{
    return (need + SIM_STACK_ROOM + SIM_PAGE - 1) / SIM_PAGE * SIM_PAGE + SIM_PAGE;
}

/* An argument as compiled code takes it. Its arrays are a pointer and a length in that order,
 * so f.n is the length of any of them. */
union slot {
    struct {
        float *p;
        int64_t n;
    } f;
    struct {
        int64_t *p;
        int64_t n;
    } i;
    struct {
        double *p;
        int64_t n;
    } d;
    int64_t n;
    double x;
};

/* gcc's options for a unit's build (build.c): the usual ones, and those for loops nested two
 * deep */
struct jit_flags {
    const char *const *v;
    size_t n;
};
extern const struct jit_flags jit_cc_flags, jit_deep_flags;

/* The bytes of an element of shared array v. */
static inline int shared_size(const struct var *v)
{
    return v->sh_dt == 'f' || v->sh_dt == 'i' ? 4 : 8;
}

extern const char *const jit_c_type[];    /* an enum jt's C type */
extern const char *const jit_type_name[]; /* and its name in an error */

/* What a loop body does with storages: each element access (name, index, store or read). */
#define MAX_ACCESS 32
struct promo {
    struct {
        const char *arr;
        const struct dsl_node *ix;
        bool store;
    } at[MAX_ACCESS];
    int n;
    bool no; /* something else: a loop, a return, a storage passed on or named otherwise */
};

/* ---- iterations of a loop run together ----------------------------------------------------
 *
 * The textbook matrix multiply's `for j` loop holds an inner loop that adds one product after
 * another into acc: each addition waits for the one before, and the machine idles between
 * them. Four iterations of the j loop are independent, so the compiler runs them together (an
 * unroll-and-jam): four copies of the statements before the inner loop, one inner loop whose
 * body holds four copies, then four copies of the statements after it. Each copy has its own
 * variables (C macros rename them), so each acc still adds its products in their own order,
 * and the results are the same bits. The loop as written runs the iterations left over, and
 * those of a group that met an index out of range, so that the error raised is the one the
 * iterations in order meet first: inside a group, an index out of range jumps there without a
 * record. A group runs only where what the loop writes (storages, after the inner loop) is not
 * read in it, checked by name and, for the storages' memory, at run time. */
#define JAM 4
#define JAM_NAMES 16

struct jam {
    const struct dsl_node *inner; /* the inner loop */
    const char *names[JAM_NAMES]; /* what each copy has of its own */
    int nnames;
    const char *wrote[MAX_ARGS]; /* the storages stored into (after the inner loop) */
    int nwrote;
    const char *read[MAX_ARGS]; /* and those read */
    int nread;
};

/* ---- the targets (emit.c) ---- */

/* What a target's C says differently: the passes ask the unit's emitter, never its target. */
struct jit_emitter {
    enum jit_target target;
    bool kernel;  /* a cuda.jit kernel's: cuda's names and arrays are there, it returns nothing */
    bool cxx;     /* C++ for NVRTC: statement expressions as lambdas (jit_sx), a function's body
                   * a block of its own */
    bool counted; /* the simulator's: global memory's accesses counted, its writes recorded */
    const unsigned char *start; /* what a unit begins with (rt/host.inc, rt/cuda.inc) */
    size_t nstart;
    /* a kernel's: a shared array declared among its locals, an element of one read (e->t
     * set) and written, at index k; cuda.syncthreads() */
    void (*shared_decl)(struct render_buf *b, const struct var *v);
    void (*shared_read)(struct unit *u, struct cfn *c, const struct dsl_node *n,
                        const struct var *sv, const char *k, struct ex *e);
    void (*shared_write)(struct unit *u, struct cfn *c, const struct dsl_node *at,
                         const struct dsl_node *target, const struct var *sv, const char *k,
                         const char *value);
    void (*sync)(struct unit *u, struct cfn *c, const struct dsl_node *n, struct ex *e);
    /* what the unit has before its functions (NULL: nothing) and after them (the launch's
     * entry; NULL: none, an njit function's unit is called at jit_entry) */
    void (*defines)(const struct unit *u, struct render_buf *src);
    void (*entry)(const struct unit *u, struct render_buf *src);
};
extern const struct jit_emitter jit_emitters[];

/* ---- the table of compiled builtins (builtins.c) ---- */

/* Where a builtin is found: Python's own, a module's member (numpy, math, numba, numba.cuda and
 * its local and shared groups, minitorch.operators, MiniTorch's index helpers), a method of a
 * comparison of arrays; JB_IMPORTED: a name bound to some module's builtin (Python's, numba's or
 * MiniTorch's rows); JB_NOWHERE: not a builtin. */
enum jb_where {
    JB_NOWHERE,
    JB_PYTHON,
    JB_IMPORTED,
    JB_MATH,
    JB_NUMPY,
    JB_NUMBA,
    JB_CUDA,
    JB_CUDA_LOCAL,
    JB_CUDA_SHARED,
    JB_OPERATORS,
    JB_MINITORCH,
    JB_METHOD,
};

/* What the analyses know of a builtin beside its value: len (no element read: an int the size
 * of an array), to_index (fills its last argument with the position of an ordinal),
 * index_to_position. From JB_LOCAL_ARRAY on, what is not a call in an expression: the arrays
 * made by an assignment (np.zeros and cuda.local.array, a thread's own ints;
 * cuda.shared.array); what a for loop runs over (range, prange, enumerate, zip); an attribute
 * (cuda.threadIdx and its kin, whose C is the row's format of the member after it: x, y or z;
 * cuda.warpsize); a dtype (np.float32, int, ...: the row's dtype). */
enum jb_role {
    JB_VALUE,
    JB_LENGTH,
    JB_TO_INDEX,
    JB_POSITION,
    JB_LOCAL_ARRAY,
    JB_SHARED_ARRAY,
    JB_RANGE,
    JB_PRANGE,
    JB_ENUMERATE,
    JB_ZIP,
    JB_ATTRIBUTE,
    JB_DTYPE,
};

/* Whether a builtin's C can fail: never, by setting env->failed and going on (the statement is
 * tested after it), or by leaving the function itself. */
enum jb_fails { JB_NEVER, JB_SETS, JB_LEAVES };

struct bcall;
struct jit_builtin {
    enum jb_where where;
    const char *name;
    int nargs;
    enum jb_role role;
    enum jt ret; /* its result's type, where check does not say another */
    int (*check)(const struct bcall *k, enum jt *t);
    /* its C for each enum jit_target (NULL: the host's): a printf format of the result's C type
     * when typed, then each argument's C, then the call's place (%lld) */
    const char *emit[3];
    int (*emit_fn)(const struct bcall *k, struct ex *e); /* instead of emit */
    bool typed;
    enum jb_fails fails;
    bool loops; /* it runs a loop (the prange loop's iterations are then not light) */
    /* a dtype's element: 'd' float64, 'f' float32, 'i' int32, 'l' int64 */
    char dtype;
};
extern const struct jit_builtin jit_builtins[];

/* The row of the builtin callee names (the first of its rows), or NULL. */
const struct jit_builtin *jit_builtin_of(struct unit *u, struct cfn *c,
                                         const struct dsl_node *callee);
/* The row of the builtin n names that has this role, or NULL (`int` is a function and a
 * dtype). */
const struct jit_builtin *jit_builtin_as(struct unit *u, struct cfn *c, const struct dsl_node *n,
                                         enum jb_role role);
/* Whether some Python or MiniTorch builtin of this name has this role (the analyses that look
 * at a call's name only). */
bool jit_builtin_named(const char *name, enum jb_role role);

/* ---- the parts' functions, by file (each said where it is defined) ---- */

/* build.c */
void jit_spec_free(struct spec *s);
int jit_load_or_compile(struct dsl_interp *in, const struct dsl_function *f, bool quick,
                        const char *const *flags, size_t nflags, const char *text,
                        const struct jit_folder *dir, const struct jit_unit *u, struct spec *s);
void jit_upgrade(struct spec *s);
void jit_start_later(struct spec *s);

/* builtins.c */
const char *jit_sx(const struct unit *u, const char *fmt, char *buf, size_t n);
int jit_call(struct unit *u, struct cfn *c, const struct dsl_node *n, struct ex *e);

/* call.c */
int jit_runtime_error(struct dsl_interp *in, struct spec *s, const struct jit_env *e);
void jit_recent(struct dsl_session *ses, struct dsl_function *f);

/* compile.c */
int jit_compile_fn(struct unit *u, const struct dsl_function *f, const enum jt *args, int nargs,
                   int *id);
int jit_stack_fits(struct unit *u, int64_t limit);
void jit_unit_source(const struct unit *u, const struct dsl_function *f, struct render_buf *src);
int jit_build(struct dsl_interp *in, struct dsl_function *f, struct spec *s);

/* cuda.c */
int jit_line_at(const struct dsl_function *f, size_t pos);

/* diagnostics.c */
void jit_report(const struct unit *u, struct spec *s);

/* expr.c */
int jit_access_site(struct unit *u, const struct cfn *c, const struct dsl_node *n, int kind,
                    int size, const char *name);
struct var *jit_shared_of(struct cfn *c, const struct dsl_node *n);
int jit_shared_index(struct unit *u, struct cfn *c, const struct dsl_node *n, const struct var *v,
                     struct render_buf *k);
int jit_binary(struct unit *u, struct cfn *c, const struct dsl_node *n, struct ex *e);
int jit_expr(struct unit *u, struct cfn *c, const struct dsl_node *n, struct ex *e);

/* jam.c */
bool jit_small_int(struct unit *u, struct cfn *c, const struct dsl_node *n);
bool jit_jam_plan(struct unit *u, struct cfn *c, const struct dsl_node *n, struct jam *j);
int jit_range_jammed(struct unit *u, struct cfn *c, const struct dsl_node *n, int k,
                     const struct jam *j);

/* loops.c */
bool jit_has_jump(const struct dsl_node *n);
int jit_range_body(struct unit *u, struct cfn *c, const struct dsl_node *n, int k, bool quiet);
int jit_for_loop(struct unit *u, struct cfn *c, const struct dsl_node *n);

/* promote.c */
bool jit_has_loop(const struct dsl_node *n);
bool jit_elided(const struct unit *u, const struct dsl_node *n);
bool jit_same_expr(const struct dsl_node *a, const struct dsl_node *b);
bool jit_promoted(const struct unit *u, const struct dsl_node *n);
bool jit_assigns(const struct dsl_node *n, const char *name);
int jit_promotable(struct cfn *c, const struct dsl_node *n, struct promo *p);
int jit_range_promoted(struct unit *u, struct cfn *c, const struct dsl_node *n, int k,
                       const struct promo *p, bool quiet);
void jit_unchecked_accesses(struct unit *u, struct cfn *c, const struct dsl_node *n);

/* races.c */
bool jit_shared_mem(const struct var *v);
void jit_own_fill(struct unit *u, struct cfn *c, struct var *v, const struct dsl_node *n);
void jit_mark_written(struct unit *u, struct cfn *c, struct var *v);
bool jit_expr_dep(struct cfn *c, const struct dsl_node *n);
void jit_set_dep(struct unit *u, struct var *v);
void jit_call_deps(struct unit *u, struct cfn *c, const struct dsl_node *n);
void jit_index_assigned(struct unit *u, struct cfn *c, struct var *v, const struct dsl_node *from);
int jit_prange_access(struct unit *u, struct cfn *c, struct var *o, const struct dsl_node *ix,
                      const struct dsl_node *at);
int jit_read_whole(struct unit *u, struct cfn *c, const struct dsl_node *e,
                   const struct dsl_node *at);
int jit_prange_write(struct unit *u, struct cfn *c, struct var *v, const struct dsl_node *at,
                     const struct dsl_node *ix, const char *how, bool dep);
const struct dsl_node *jit_unset_read(struct cfn *c, const struct dsl_node *n, uint64_t *d);
int jit_prange_slot(struct unit *u, size_t pos);

/* stmt.c */
int jit_assign_var(struct unit *u, struct cfn *c, const struct dsl_node *at, const char *name,
                   enum jt t, int64_t buflen, struct var **out);
int jit_store(struct unit *u, struct cfn *c, const struct dsl_node *target, const char *value,
              enum jt vt, const struct dsl_node *at, const struct dsl_node *from);
int jit_stmt(struct unit *u, struct cfn *c, const struct dsl_node *n);
int jit_block(struct unit *u, struct cfn *c, const struct dsl_node *n);

/* types.c */
char jit_dtype_code(struct unit *u, const struct cfn *c, const struct dsl_node *n);
/* The type of argument v and its slot, JT_NONE for what the compiler does not take. An array
 * whose numbers live in the interpreter's values (a list, a numpy array) is copied into *heap
 * (free it), and jit_write_back copies what the compiled code wrote back into it: wrote says
 * whether the code stores into the argument. */
enum jt jit_classify(struct dsl_value v, union slot *s, void **heap);
void jit_write_back(struct dsl_value v, enum jt t, const union slot *s, bool wrote);
/* One array given twice is one array to the compiled code, as to Numba: later copies of an
 * argument given before share its copy. */
void jit_share_copies(const struct dsl_value *pos, const enum jt *types, union slot *slots,
                      void **heap, size_t npos);

/* unit.c */
int jit_refuse(struct unit *u, const struct cfn *c, const struct dsl_node *n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int jit_race(struct unit *u, const struct cfn *c, const struct dsl_node *n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
struct var *jit_find_var(struct cfn *c, const char *name);
const struct dsl_value *jit_outer_value(struct unit *u, const struct cfn *c, const char *name);
long long jit_loc(const struct cfn *c, const struct dsl_node *n);
const char *jit_numpy_attr(struct unit *u, const struct cfn *c, const struct dsl_node *n);
bool jit_cuda_module(struct unit *u, const struct cfn *c, const struct dsl_node *n);
const char *jit_cuda_member(struct unit *u, const struct cfn *c, const struct dsl_node *n,
                            const char *group);
bool jit_local_const(const struct cfn *c, const char *name, int64_t *val);
void jit_emit(struct unit *u, const char *fmt, ...);
int jit_fn_line(const struct cfn *c, const struct dsl_node *n);
int jit_line_in(const struct dsl_function *f, size_t pos);
struct unit *jit_unit_new(struct dsl_interp *in, bool jam, enum jit_target target);
void jit_unit_free(struct unit *u);

#endif
