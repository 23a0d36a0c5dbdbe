/* jit.c — functions given to numba's njit, compiled to native code.
 *
 * Module 3's kernels (tensor_map's _map, _zip, _reduce, the matrix multiply) are loops over raw
 * storage with index math. A function marked by njit is compiled at its first call with each
 * kind of arguments: its body, and the functions it calls, become C (the choice and its
 * measurements: docs/ARCHITECTURE.md, "Students' kernels: the code generator"), which the
 * system's C compiler turns into a shared object that is loaded and called. A Storage argument
 * is its float32 memory, a tuple or list of ints an int64 array (a list is written back after
 * the call, as the kernels fill index lists), ints and floats are int64 and double. The
 * function the kernel was made from (tensor_map(fn)'s fn) and the helpers it calls
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
 * The C is written for gcc's optimiser (docs/ARCHITECTURE.md, "Students' kernels"): innermost
 * loops hold no call, helpers are inlined, the element a loop accumulates into is kept in a
 * local when a run-time test allows, and the prange body's accesses at its own index are
 * checked once per chunk.
 *
 * What the compiler does not take yet (another construct, another kind of value) runs in the
 * interpreter as any function; parallel_diagnostics(fn) says why.
 *
 * A function given to numba's cuda.jit is a CUDA kernel, compiled at its first launch
 * (kernel[blocks, threads](...)) by the same front end for one of two targets (docs/
 * ARCHITECTURE.md, "Students' CUDA kernels"): CUDA C that the engine compiles with NVRTC and
 * launches on a GPU, or host C ending in the simulator's run time (jit_sim.inc), where each CUDA
 * thread of a block runs on a stack of its own and the simulator checks and counts what a GPU
 * would do. A kernel the compiler does not take is a CompileError: there is no interpreter of
 * CUDA. */
#include "lib/jit.h"

#include "lang/interp.h"
#include "lang/library.h"
#include "lib/diagnostics.h"
#include "lib/jit_cache.h"
#include "lib/jit_loops.h"
#include "lib/modules.h"
#include "lib/storage.h"
#include "lib/student.h"

#include "jit_scalar.h"
#include "jit_sim.h"

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

/* ---- types ------------------------------------------------------------------------------ */

enum jt {
    JT_NONE,  /* no value: a function without return */
    JT_BOOL,  /* int64_t 0/1 */
    JT_INT,   /* int64_t */
    JT_FLOAT, /* double */
    JT_FARR,  /* farr: a Storage's float32 memory */
    JT_IARR,  /* iarr: int64 elements */
    JT_SARR,  /* a CUDA kernel's shared array (struct var says its kind): only indexed */
    JT_ITUP,  /* iarr, from a tuple: read only, as Python's tuples */
};

static const char *const c_type[] = {"void", "int64_t", "int64_t", "double",
                                     "farr", "iarr",    "",        "iarr"};
static const char *const jt_name[] = {"None",    "bool",      "int",          "float",
                                      "Storage", "int array", "shared array", "tuple of ints"};

/* What a unit is compiled for: a function given to njit (host C, called once), or a cuda.jit
 * kernel in the simulator (host C, each CUDA thread on a stack of its own) or on the GPU (CUDA
 * C for NVRTC). */
enum jit_target { JIT_HOST, JIT_SIM, JIT_GPU };

static enum jt join(enum jt a, enum jt b)
{
    if (a == b) return a;
    if ((a == JT_INT || a == JT_BOOL || a == JT_FLOAT) &&
        (b == JT_INT || b == JT_BOOL || b == JT_FLOAT))
        return a == JT_FLOAT || b == JT_FLOAT ? JT_FLOAT : JT_INT;
    return JT_NONE; /* no common type */
}

static bool numeric(enum jt t) { return t == JT_BOOL || t == JT_INT || t == JT_FLOAT; }

/* An array of ints, a list's (written back after the call) or a tuple's (read only). */
static bool ints(enum jt t) { return t == JT_IARR || t == JT_ITUP; }

/* ---- the unit being compiled ------------------------------------------------------------ */

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

struct unit {
    struct dsl_interp *in;
    enum jit_target target;
    int64_t sh_bytes, sh_elems; /* the kernel's shared arrays: bytes and elements */
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
    bool emitting; /* the final pass */
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

static int refuse(struct unit *u, const struct cfn *c, const struct dsl_node *n, const char *fmt,
                  ...) __attribute__((format(printf, 4, 5)));
static int refuse(struct unit *u, const struct cfn *c, const struct dsl_node *n, const char *fmt,
                  ...)
{
    if (u->why) return -1;
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&u->why, fmt, ap) < 0) u->why = NULL;
    va_end(ap);
    u->why_pos = n ? n->pos : c->f->def->pos;
    u->why_fn = c->f;
    return -1;
}

static struct var *find_var(struct cfn *c, const char *name)
{
    for (int i = 0; i < c->nvars; i++)
        if (strcmp(c->vars[i].name, name) == 0) return &c->vars[i];
    return NULL;
}

/* ---- expressions ------------------------------------------------------------------------ */

struct ex {
    enum jt t;
    struct render_buf s; /* C text */
};

static void ex_init(struct ex *e) { e->t = JT_NONE, render_buf_init(&e->s, 0); }
static void ex_free(struct ex *e) { render_buf_free(&e->s); }

/* The number of the prange loop's iteration being run, in its C: two strings, printed "%s%s". */
#define ITERATION(u)                                                                               \
    ((u)->prange_count[0] ? "" : "v_"), ((u)->prange_count[0] ? (u)->prange_count : (u)->prange_var)

static int expr(struct unit *u, struct cfn *c, const struct dsl_node *n, struct ex *e);
static int binary(struct unit *u, struct cfn *c, const struct dsl_node *n, struct ex *e);
static bool expr_dep(struct cfn *c, const struct dsl_node *n);
static int prange_write(struct unit *u, struct cfn *c, struct var *v, const struct dsl_node *at,
                        const struct dsl_node *ix, const char *how, bool dep);
static int prange_access(struct unit *u, struct cfn *c, struct var *o, const struct dsl_node *ix,
                         const struct dsl_node *at);
static bool shared_mem(const struct var *v);
static bool own_index(struct unit *u, struct cfn *c, const struct dsl_node *e);
static int read_whole(struct unit *u, struct cfn *c, const struct dsl_node *e,
                      const struct dsl_node *at);

/* Array v, just written by call n inside the prange loop: whether that fill makes it an index
 * of the iteration's own (var.fill_own), as to_index(i, out_shape, out_index) makes the
 * course's output index, i the iteration's own, and the call a statement of the loop's body,
 * run by every iteration (one an if skips leaves the buffer as it was made, the same in each
 * of those iterations). A buffer filled by another call (broadcast_index: many iterations, one
 * index) is not. */
static void own_fill(struct unit *u, struct cfn *c, struct var *v, const struct dsl_node *n)
{
    if (!u->in_prange || !c->top) return;
    struct var *o = v->alias_of ? find_var(c, v->alias_of) : v;
    bool every = false;
    for (size_t i = 0; i < u->prange_body->nkids && !every; i++)
        every = u->prange_body->kids[i]->kind == DSL_N_EXPR && u->prange_body->kids[i]->a == n;
    if (o)
        o->fill_own = every && n->a->kind == DSL_N_NAME && strcmp(n->a->name, "to_index") == 0 &&
                      n->nkids == 3 && own_index(u, c, n->kids[0]);
}

/* Array variable v is written: so is the argument it names (itself, or the one it is another
 * name for), which the caller then treats as written (backward, the copy back from a GPU). */
static void mark_written(struct unit *u, struct cfn *c, struct var *v)
{
    struct var *o = !v->param && v->alias_of ? find_var(c, v->alias_of) : v;
    if (o && o->param && !o->written) o->written = u->changed = true;
}

/* What a name that is not a local means: a free variable's value or a session variable. */
static const struct dsl_value *outer_value(struct unit *u, const struct cfn *c, const char *name)
{
    const struct dsl_function *f = c->f;
    for (size_t i = 0; i < f->nfree; i++)
        if (strcmp(f->freevars[i], name) == 0) {
            const struct dsl_cell *cell = f->cells[i].as.cell;
            return cell->bound ? &cell->value : NULL;
        }
    return dsl_session_lookup(u->in->session, name);
}

/* Where in the source a runtime error of the compiled code points: the function and the byte,
 * as one number the C text carries. */
static long long loc(const struct cfn *c, const struct dsl_node *n)
{
    return (long long)c->id << 40 | (long long)n->pos;
}

static int compile_fn(struct unit *u, const struct dsl_function *f, const enum jt *args, int nargs,
                      int *id);

/* name when n is numpy.name (numpy imported under any name), else NULL. */
static const char *numpy_attr(struct unit *u, const struct cfn *c, const struct dsl_node *n)
{
    if (n->kind != DSL_N_ATTR || n->a->kind != DSL_N_NAME || find_var((struct cfn *)c, n->a->name))
        return NULL;
    const struct dsl_value *m = outer_value(u, c, n->a->name);
    const char *mod = m ? dsl_module_of(*m) : NULL;
    return mod && strcmp(mod, "numpy") == 0 ? n->name : NULL;
}

/* Whether n names the module numba.cuda (`cuda`, `numba.cuda`, under any name). */
static bool cuda_module(struct unit *u, const struct cfn *c, const struct dsl_node *n)
{
    const char *want = "numba.cuda";
    if (n->kind == DSL_N_ATTR && strcmp(n->name, "cuda") == 0) n = n->a, want = "numba";
    if (n->kind != DSL_N_NAME || find_var((struct cfn *)c, n->name)) return false;
    const struct dsl_value *m = outer_value(u, c, n->name);
    const char *mod = m ? dsl_module_of(*m) : NULL;
    return mod && strcmp(mod, want) == 0;
}

/* name when n is cuda.<group>.name (cuda.threadIdx.x, cuda.shared.array), else NULL. */
static const char *cuda_member(struct unit *u, const struct cfn *c, const struct dsl_node *n,
                               const char *group)
{
    if (n->kind != DSL_N_ATTR || n->a->kind != DSL_N_ATTR || strcmp(n->a->name, group) != 0 ||
        !cuda_module(u, c, n->a->a))
        return NULL;
    return n->name;
}

/* The element type n names as a dtype: 'd' float64 (and float), 'f' float32, 'i' int32, 'l'
 * int64 (and int), of numpy or numba; 0 for anything else. */
static char dtype_code(struct unit *u, const struct cfn *c, const struct dsl_node *n)
{
    const char *name = NULL;
    if (n->kind == DSL_N_ATTR && n->a->kind == DSL_N_NAME &&
        !find_var((struct cfn *)c, n->a->name)) {
        const struct dsl_value *m = outer_value(u, c, n->a->name);
        const char *mod = m ? dsl_module_of(*m) : NULL;
        if (mod && (strcmp(mod, "numpy") == 0 || strcmp(mod, "numba") == 0)) name = n->name;
    } else if (n->kind == DSL_N_NAME && !find_var((struct cfn *)c, n->name) &&
               !outer_value(u, c, n->name)) {
        name = strcmp(n->name, "int") == 0     ? "int64"
               : strcmp(n->name, "float") == 0 ? "float64"
                                               : NULL;
    }
    if (!name) return 0;
    return strcmp(name, "float64") == 0   ? 'd'
           : strcmp(name, "float32") == 0 ? 'f'
           : strcmp(name, "int32") == 0   ? 'i'
           : strcmp(name, "int64") == 0   ? 'l'
                                          : 0;
}

/* How many times body assigns name (=, +=, a for loop's variable), and the last value given
 * by `name = <constant>` in *k. */
static int assignments(const struct dsl_node *n, const char *name, const struct dsl_node **k)
{
    if (!n) return 0;
    int count = 0;
    if (n->kind == DSL_N_ASSIGN)
        for (size_t i = 0; i < n->nkids; i++)
            if (n->kids[i]->kind == DSL_N_NAME && strcmp(n->kids[i]->name, name) == 0) {
                count++;
                *k = n->a;
            }
    if ((n->kind == DSL_N_AUG && n->a->kind == DSL_N_NAME && strcmp(n->a->name, name) == 0) ||
        (n->kind == DSL_N_FOR && n->name && strcmp(n->name, name) == 0))
        count += 2; /* changes: not a constant */
    if (n->kind == DSL_N_DEF || n->kind == DSL_N_CLASS) return count;
    if (n->kind != DSL_N_ASSIGN && n->kind != DSL_N_AUG) {
        count += assignments(n->a, name, k) + assignments(n->b, name, k);
        for (size_t i = 0; i < n->nkids; i++) count += assignments(n->kids[i], name, k);
    }
    return count;
}

/* A local assigned once, an int constant (BLOCK_DIM = 32): its value in *val. */
static bool local_const(const struct cfn *c, const char *name, int64_t *val)
{
    const struct dsl_node *k = NULL;
    if (assignments(c->f->def->b, name, &k) != 1 || !k || k->kind != DSL_N_CONST ||
        !dsl_is_intlike(k->value))
        return false;
    *val = dsl_as_int(k->value);
    return true;
}

/* fmt, a GNU statement expression "({ declarations; value; })", as the unit's target writes
 * it: unchanged for gcc, a lambda called at once for NVRTC (C++, without statement
 * expressions). The value is what follows the last ';' before the end. */
static const char *sx(const struct unit *u, const char *fmt, char *buf, size_t n)
{
    if (u->target != JIT_GPU) return fmt;
    size_t len = strlen(fmt);
    const char *end = fmt + len - 2; /* at "})"; then after the value */
    while (end > fmt + 2 && (end[-1] == ' ' || end[-1] == ';')) end--;
    const char *semi = end - 1; /* the ';' ending the declarations */
    while (semi > fmt + 2 && *semi != ';') semi--;
    snprintf(buf, n, "([&]() {%.*s; return%.*s; }())", (int)(semi - fmt - 2), fmt + 2,
             (int)(end - semi - 1), semi + 1);
    return buf;
}

/* A call of one of minitorch.operators' scalar functions (fn in the course's
 * tensor_map(njit()(operators.neg))), as the interpreter computes it (lib/modules.c): Python's
 * float arithmetic in doubles, and its errors (inv(0), log of x <= -1e-6, exp overflowing). */
static int operator_call(struct unit *u, struct cfn *c, const struct dsl_node *n, const char *op,
                         const struct ex *a, int na, struct ex *e)
{
    static const struct {
        const char *name;
        int nargs;
        const char *c; /* its C: %s each argument as a double, then %lld its place if it fails */
    } ops[] = {
        {"neg", 1, "(-(double)(%s))"},
        {"relu", 1, "({ double _x = (double)(%s); _x > 0 ? _x : 0.0; })"},
        {"sigmoid", 1, "jop_sigmoid((double)(%s))"},
        {"log", 1, "jop_log(env, (double)(%s), %lldLL)"},
        {"exp", 1, "jop_exp(env, (double)(%s), %lldLL)"},
        {"inv", 1, "jop_inv(env, (double)(%s), %lldLL)"},
        {"lt", 2, "((double)(%s) < (double)(%s) ? 1.0 : 0.0)"},
        {"eq", 2, "((double)(%s) == (double)(%s) ? 1.0 : 0.0)"},
        {"is_close", 2, "(fabs((double)(%s) - (double)(%s)) < 1e-2)"},
        {"relu_back", 2, "({ double _x = (double)(%s), _d = (double)(%s); _x > 0 ? _d : 0.0; })"},
        {"log_back", 2, "jop_log_back(env, (double)(%s), (double)(%s), %lldLL)"},
        {"inv_back", 2, "jop_inv_back(env, (double)(%s), (double)(%s), %lldLL)"}};
    for (int i = 0; i < na; i++)
        if (!numeric(a[i].t)) return refuse(u, c, n, "operators.%s of a %s", op, jt_name[a[i].t]);
    if (strcmp(op, "add") == 0 || strcmp(op, "mul") == 0) { /* x + y, x * y: Python's */
        if (na != 2) return refuse(u, c, n, "operators.%s of %d values", op, na);
        struct dsl_node b = {.kind = DSL_N_BINARY,
                             .pos = n->pos,
                             .op = op[0] == 'a' ? DSL_T_PLUS : DSL_T_STAR,
                             .a = n->kids[0],
                             .b = n->kids[1]};
        return binary(u, c, &b, e);
    }
    if (strcmp(op, "id") == 0 && na == 1) {
        e->t = a[0].t;
        render_buf_printf(&e->s, "(%s)", a[0].s.data);
        return 0;
    }
    if (strcmp(op, "max") == 0 && na == 2) { /* x if x > y else y: one of the two, as given */
        if (a[0].t != a[1].t)
            return refuse(u, c, n, "operators.max of %s and %s values", jt_name[a[0].t],
                          jt_name[a[1].t]);
        e->t = a[0].t;
        char f[160];
        render_buf_printf(
            &e->s,
            sx(u, "({%s _x = %s, _y = %s; (double)_x > (double)_y ? _x : _y;})", f, sizeof f),
            c_type[e->t], a[0].s.data, a[1].s.data);
        return 0;
    }
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        if (strcmp(ops[k].name, op) != 0) continue;
        if (na != ops[k].nargs) return refuse(u, c, n, "operators.%s of %d values", op, na);
        e->t = strcmp(op, "is_close") == 0 ? JT_BOOL : JT_FLOAT;
        if (strstr(ops[k].c, "%lld")) c->may_fail = u->soft_fail = true;
        char f[160];
        const char *fmt =
            ops[k].c[0] == '(' && ops[k].c[1] == '{' ? sx(u, ops[k].c, f, sizeof f) : ops[k].c;
        if (na == 1)
            render_buf_printf(&e->s, fmt, a[0].s.data, loc(c, n));
        else
            render_buf_printf(&e->s, fmt, a[0].s.data, a[1].s.data, loc(c, n));
        return 0;
    }
    return refuse(u, c, n, "operators.%s", op);
}

/* c calls a function that loops (a user function holding a loop, an index helper, a numpy
 * array predicate): so does c, and so do the iterations of the prange loop being compiled,
 * whose chunks are then JIT_CHUNK's, not JIT_CHUNK_LIGHT's. */
static void calls_loop(struct unit *u, struct cfn *c)
{
    c->loops = true;
    bool seen = false;
    for (int i = 0; i < u->ncalls_loops; i++) seen = seen || u->calls_loops[i] == u->cur_prange;
    if (u->in_prange && !seen && u->ncalls_loops < 8)
        u->calls_loops[u->ncalls_loops++] = u->cur_prange;
}

/* The C of a call of the unit's function fn (returning ret) with the arguments a[0..na) and
 * the text tail after them: fn(env, a..., tail). Where something before it in the statement
 * may have failed and gone on (guarded: its arguments), the arguments are evaluated first and
 * the call skipped if anything failed, as Python's call never happens: the function may write
 * arrays. 0, or -1 after raising (out of memory). */
static int call_text(struct unit *u, struct render_buf *b, const char *fn, const char *ret,
                     const struct ex *a, int na, const char *tail, bool guarded)
{
    struct render_buf t;
    render_buf_init(&t, 0);
    if (!guarded) {
        render_buf_printf(&t, "%s(env", fn);
        for (int i = 0; i < na; i++) render_buf_printf(&t, ", %s", a[i].s.data);
        render_buf_printf(&t, "%s)", tail ? tail : "");
    } else {
        int k = u->tmp++;
        render_buf_puts(&t, "({ ");
        for (int i = 0; i < na; i++)
            render_buf_printf(&t, "%s g%d_%d = %s; ", c_type[a[i].t], k, i, a[i].s.data);
        render_buf_printf(&t, "env->failed ? (%s)0 : %s(env", ret, fn);
        for (int i = 0; i < na; i++) render_buf_printf(&t, ", g%d_%d", k, i);
        render_buf_printf(&t, "%s); })", tail ? tail : "");
    }
    if (t.nomem) {
        render_buf_free(&t);
        return dsl_raise_status(u->in, DSL_V_NOMEM);
    }
    if (guarded && u->target == JIT_GPU) { /* NVRTC: a lambda called at once (sx) */
        size_t n = t.len + 64;
        char *buf = malloc(n);
        if (!buf) {
            render_buf_free(&t);
            return dsl_raise_status(u->in, DSL_V_NOMEM);
        }
        render_buf_puts(b, sx(u, t.data, buf, n));
        free(buf);
    } else {
        render_buf_puts(b, t.data);
    }
    render_buf_free(&t);
    return 0;
}

/* A call of a user function, an engine scalar function, or a builtin the compiler knows. */
static int call(struct unit *u, struct cfn *c, const struct dsl_node *n, struct ex *e)
{
    if (n->nkw || n->flag) return refuse(u, c, n, "keyword or * arguments in a call");
    const struct dsl_node *callee = n->a;
    struct ex a[MAX_ARGS];
    int na = (int)n->nkids;
    if (na > MAX_ARGS) return refuse(u, c, n, "a call with more than %d arguments", MAX_ARGS);
    for (int i = 0; i < na; i++) ex_init(&a[i]);
    int r = -1;
    for (int i = 0; i < na; i++)
        if (expr(u, c, n->kids[i], &a[i]) != 0) goto done;
    const char *name = callee->kind == DSL_N_NAME ? callee->name : NULL;
    if (callee->kind == DSL_N_ATTR && cuda_module(u, c, callee->a)) {
        if (u->target == JIT_HOST) {
            refuse(u, c, n, "cuda.%s() outside a cuda.jit kernel", callee->name);
            goto done;
        }
        if (strcmp(callee->name, "syncthreads") == 0 && na == 0) {
            /* every thread of the block meets here; in the simulator the thread's stack is
             * left for the next thread's, until all have come (or one failed) */
            e->t = JT_NONE;
            c->may_fail = true;
            if (u->target == JIT_GPU)
                render_buf_puts(&e->s, "__syncthreads()");
            else
                render_buf_printf(&e->s, "({ if (jit_sync(env, %lldLL)) goto JIT_FAIL; })",
                                  loc(c, n));
            r = 0;
            goto done;
        }
        if (strcmp(callee->name, "grid") == 0 && na == 1 && n->kids[0]->kind == DSL_N_CONST &&
            dsl_is_intlike(n->kids[0]->value) && dsl_as_int(n->kids[0]->value) == 1) {
            e->t = JT_INT;
            render_buf_puts(&e->s, u->target == JIT_GPU
                                       ? "((int64_t)blockIdx.x * blockDim.x + threadIdx.x)"
                                       : "(env->bid[0] * env->block[0] + env->tid[0])");
            r = 0;
            goto done;
        }
        refuse(u, c, n, "cuda.%s() with %d arguments", callee->name, na);
        goto done;
    }
    if (callee->kind == DSL_N_ATTR && callee->a->kind == DSL_N_NAME &&
        !find_var(c, callee->a->name)) { /* operators.mul(x, y), the module under any name */
        const struct dsl_value *m = outer_value(u, c, callee->a->name);
        const char *mod = m ? dsl_module_of(*m) : NULL;
        if (mod && strcmp(mod, "minitorch.operators") == 0) {
            r = operator_call(u, c, n, callee->name, a, na, e);
            goto done;
        }
    }
    if (callee->kind == DSL_N_ATTR && na == 0 &&
        (strcmp(callee->name, "any") == 0 || strcmp(callee->name, "all") == 0) &&
        callee->a->kind == DSL_N_COMPARE && callee->a->nkids == 2 &&
        (callee->a->ops[0] == DSL_T_NE || callee->a->ops[0] == DSL_T_EQ)) {
        /* (a != b).any(): the arrays compared element by element, as numpy's */
        struct ex x, y;
        ex_init(&x);
        ex_init(&y);
        r = expr(u, c, callee->a->kids[0], &x);
        if (r == 0) r = expr(u, c, callee->a->kids[1], &y);
        if (r == 0 && (!ints(x.t) || !ints(y.t)))
            r = refuse(u, c, n, ".%s() of a comparison of a %s and a %s", callee->name,
                       jt_name[x.t], jt_name[y.t]);
        if (r == 0) {
            c->may_fail = u->soft_fail = true;
            e->t = JT_BOOL;
            calls_loop(u, c);
            render_buf_printf(&e->s, "jit_cmp_reduce(env, %s, %s, %d, %d, %lldLL)", x.s.data,
                              y.s.data, callee->a->ops[0] == DSL_T_NE, callee->name[1] == 'n',
                              loc(c, n));
        }
        for (int i = 0; i < 2 && r == 0; i++) r = read_whole(u, c, callee->a->kids[i], n);
        ex_free(&x);
        ex_free(&y);
        goto done;
    }
    const char *np = numpy_attr(u, c, callee);
    if (np && strcmp(np, "prod") == 0 && na == 1 && ints(a[0].t)) {
        e->t = JT_INT;
        calls_loop(u, c);
        render_buf_printf(&e->s, "jit_prod(%s)", a[0].s.data);
        r = 0;
        goto done;
    }
    if (np && strcmp(np, "array_equal") == 0 && na == 2 && ints(a[0].t) && ints(a[1].t)) {
        e->t = JT_BOOL;
        calls_loop(u, c);
        render_buf_printf(&e->s, "jit_array_equal(%s, %s)", a[0].s.data, a[1].s.data);
        r = 0;
        goto done;
    }
    if (callee->kind == DSL_N_NAME && !find_var(c, name)) {
        const struct dsl_value *v = outer_value(u, c, name);
        if (v && v->kind == DSL_FUNCTION) {
            enum jt ts[MAX_ARGS];
            for (int i = 0; i < na; i++) ts[i] = a[i].t;
            for (int i = 0; i < na; i++) { /* the callee may write any of their elements */
                struct var *av =
                    n->kids[i]->kind == DSL_N_NAME ? find_var(c, n->kids[i]->name) : NULL;
                if (av && av->buflen && !av->escapes) av->escapes = u->changed = true;
            }
            int id;
            if (compile_fn(u, v->as.fn_user, ts, na, &id) != 0) goto done;
            if (u->fns[id].loops) calls_loop(u, c);
            /* the arrays the callee writes, this function writes */
            bool dep = false;
            for (int i = 0; i < na; i++) dep = dep || expr_dep(c, n->kids[i]);
            for (int i = 0; i < na; i++) {
                struct var *av =
                    n->kids[i]->kind == DSL_N_NAME ? find_var(c, n->kids[i]->name) : NULL;
                if (!av || !u->fns[id].vars[i].written) continue;
                mark_written(u, c, av);
                if (prange_write(u, c, av, n, NULL, v->as.fn_user->def->name, dep) != 0) goto done;
                if (i == na - 1) own_fill(u, c, av, n); /* the student's own to_index */
            }
            if (u->fns[id].stack > c->callee_stack) {
                c->callee_stack = u->fns[id].stack;
                c->deepest = id;
            }
            e->t = u->fns[id].ret;
            /* what failed before it in the statement (its arguments) ends the statement there,
             * as Python would: the call, which may write arrays, does not run */
            bool after_failure = u->soft_fail;
            if (u->fns[id].may_fail) c->may_fail = u->soft_fail = true;
            char fname[16];
            snprintf(fname, sizeof fname, "f%d", id);
            r = call_text(u, &e->s, fname, c_type[e->t], a, na, NULL, after_failure);
            goto done;
        }
        if (v && v->kind == DSL_BUILTIN) {
            int kind, op;
            if (dsl_student_scalar(v->as.fn, &kind, &op)) {
                if (na != kind) {
                    refuse(u, c, n, "%s takes %d numbers", v->as.fn->name, kind);
                    goto done;
                }
                for (int i = 0; i < na; i++)
                    if (!numeric(a[i].t)) {
                        refuse(u, c, n, "%s of a %s", v->as.fn->name, jt_name[a[i].t]);
                        goto done;
                    }
                e->t = JT_FLOAT;
                if (kind == 1)
                    render_buf_printf(&e->s, "(double)mt_s_%s((float)(%s))",
                                      mt_map_name((enum mt_map_op)op), a[0].s.data);
                else
                    render_buf_printf(&e->s, "(double)mt_s_%s((float)(%s), (float)(%s))",
                                      mt_zip_name((enum mt_zip_op)op), a[0].s.data, a[1].s.data);
                r = 0;
                goto done;
            }
            const char *opname = dsl_operator_name(v->as.fn);
            if (opname) {
                r = operator_call(u, c, n, opname, a, na, e);
                goto done;
            }
            name = v->as.fn->name; /* a builtin under another name: known by its own */
        } else if (v) {
            refuse(u, c, n, "a call of %s (%s)", name, dsl_type_name(*v));
            goto done;
        }
        bool imported = v != NULL; /* a builtin the session holds: from a module */
        /* MiniTorch's index helpers (minitorch.to_index, ...), as the course defines them */
        static const struct {
            const char *name;
            int nargs;
            enum jt ret;
        } helpers[] = {{"to_index", 3, JT_NONE},
                       {"broadcast_index", 4, JT_NONE},
                       {"index_to_position", 2, JT_INT}};
        for (size_t h = 0; h < sizeof helpers / sizeof helpers[0]; h++) {
            if (!imported || strcmp(name, helpers[h].name) != 0 || na != helpers[h].nargs) continue;
            for (int i = 0; i < na; i++)
                if (i == 0 && h == 0 ? !numeric(a[i].t) || a[i].t == JT_FLOAT : !ints(a[i].t)) {
                    refuse(u, c, n, "%s() of a %s", name, jt_name[a[i].t]);
                    goto done;
                }
            if (helpers[h].ret == JT_NONE && a[na - 1].t == JT_ITUP) { /* Python's TypeError */
                refuse(u, c, n, "%s() writing into a tuple (its last argument)", name);
                goto done;
            }
            e->t = helpers[h].ret;
            bool after_failure = u->soft_fail && helpers[h].ret == JT_NONE; /* (as f<n>'s) */
            if (h != 2) c->may_fail = u->soft_fail = true; /* index_to_position cannot fail */
            calls_loop(u, c);
            struct var *out = helpers[h].ret == JT_NONE && n->kids[na - 1]->kind == DSL_N_NAME
                                  ? find_var(c, n->kids[na - 1]->name)
                                  : NULL;
            if (out) mark_written(u, c, out);
            if (out && prange_write(u, c, out, n, NULL, name, true) != 0) goto done;
            if (out) own_fill(u, c, out, n);
            char fname[32], tail[96];
            snprintf(fname, sizeof fname, "jit_%s", name);
            int tl = snprintf(tail, sizeof tail, ", %lldLL", loc(c, n));
            if (helpers[h].ret == JT_NONE) { /* it writes its last argument's first elements */
                const struct dsl_node *w = n->kids[na - 1];
                const struct var *wv = w->kind == DSL_N_NAME ? find_var(c, w->name) : NULL;
                if (wv && wv->buflen && !wv->escapes)
                    snprintf(tail + tl, sizeof tail - (size_t)tl, ", &d_%s", wv->name);
                else /* gcc's unit has no NULL */
                    snprintf(tail + tl, sizeof tail - (size_t)tl, ", (int64_t *)0");
            }
            r = call_text(u, &e->s, fname, c_type[e->t], a, na, tail, after_failure);
            goto done;
        }
        if (strcmp(name, "len") == 0 && na == 1) {
            if (a[0].t != JT_FARR && !ints(a[0].t)) {
                refuse(u, c, n, "len() of a %s", jt_name[a[0].t]);
                goto done;
            }
            e->t = JT_INT;
            render_buf_printf(&e->s, "(%s).n", a[0].s.data);
            r = 0;
            goto done;
        }
        if ((strcmp(name, "int") == 0 || strcmp(name, "float") == 0) && na == 1 &&
            numeric(a[0].t)) {
            bool to_int = name[0] == 'i';
            e->t = to_int ? JT_INT : JT_FLOAT;
            if (to_int && a[0].t != JT_FLOAT)
                render_buf_printf(&e->s, "(int64_t)(%s)", a[0].s.data);
            else if (to_int) {
                c->may_fail = u->soft_fail = true;
                render_buf_printf(&e->s, "py_int(env, %s, %lldLL)", a[0].s.data, loc(c, n));
            } else
                render_buf_printf(&e->s, "(double)(%s)", a[0].s.data);
            r = 0;
            goto done;
        }
        if ((strcmp(name, "min") == 0 || strcmp(name, "max") == 0) && na == 2 && numeric(a[0].t) &&
            numeric(a[1].t)) {
            e->t = join(a[0].t, a[1].t);
            const char *cmp = name[1] == 'i' ? "<" : ">";
            /* Python: the first of equal values */
            char f[160];
            render_buf_printf(&e->s,
                              sx(u, "({%s _x = %s, _y = %s; _y %s _x ? _y : _x;})", f, sizeof f),
                              c_type[e->t], a[0].s.data, a[1].s.data, cmp);
            r = 0;
            goto done;
        }
        if (strcmp(name, "abs") == 0 && na == 1 && a[0].t == JT_FLOAT) { /* abs(-0.0) is 0.0 */
            e->t = JT_FLOAT;
            render_buf_printf(&e->s, "fabs(%s)", a[0].s.data);
            r = 0;
            goto done;
        }
        if (strcmp(name, "abs") == 0 && na == 1 && numeric(a[0].t)) {
            e->t = JT_INT;
            char f[160];
            render_buf_printf(&e->s, sx(u, "({%s _x = %s; _x < 0 ? -_x : _x;})", f, sizeof f),
                              c_type[e->t], a[0].s.data);
            r = 0;
            goto done;
        }
    }
    refuse(u, c, n, "this call");
done:
    /* an array given to a function (but len) may be read anywhere: a shared one the loop
     * writes, another iteration's elements */
    for (int i = 0; i < na && r == 0 && !(name && strcmp(name, "len") == 0 && na == 1); i++)
        r = read_whole(u, c, n->kids[i], n);
    for (int i = 0; i < na; i++) ex_free(&a[i]);
    return r;
}

/* Whether statement n holds a loop of its own (its iterations are then not light). */
static bool has_loop(const struct dsl_node *n)
{
    if (!n) return false;
    if (n->kind == DSL_N_FOR || n->kind == DSL_N_WHILE) return true;
    if (has_loop(n->b)) return true;
    for (size_t i = 0; i < n->nkids; i++)
        if (has_loop(n->kids[i])) return true;
    return false;
}

/* Whether n is an access of the prange loop whose bounds each chunk checked (see
 * unchecked_accesses). */
static bool elided(const struct unit *u, const struct dsl_node *n)
{
    for (int i = 0; i < u->nelide; i++)
        if (u->elide[i] == n) return true;
    return false;
}

/* ---- an element kept in a register ------------------------------------------------------ */

/* The reduce template's `out[o] = fn(out[o], a[j])` inside `for s in range(n)` reads and
 * writes one element of a storage at every iteration. The C compiler would keep it in a
 * register if it knew that no other access reaches it, which it cannot: the storages may be
 * views of one buffer, and the bounds check guards the first read. So the compiler does it
 * here: an innermost range loop whose stores into storages all go to A[e], with e the same
 * arithmetic of names the loop does not assign, and which reads A only there and calls no
 * function with a storage, runs with A[e] in a local when, at run time, e is inside A and
 * outside every other storage the loop reads; otherwise the loop as written runs. */

static bool same_expr(const struct dsl_node *a, const struct dsl_node *b)
{
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case DSL_N_NAME: return strcmp(a->name, b->name) == 0;
    case DSL_N_CONST:
        return a->value.kind == DSL_INT && b->value.kind == DSL_INT &&
               a->value.as.i == b->value.as.i;
    case DSL_N_UNARY: return a->op == b->op && same_expr(a->a, b->a);
    case DSL_N_BINARY: return a->op == b->op && same_expr(a->a, b->a) && same_expr(a->b, b->b);
    default: return false;
    }
}

/* Whether n is a store into the promoted element, or a read of it. */
static bool promoted(const struct unit *u, const struct dsl_node *n)
{
    return u->pr_arr && n->kind == DSL_N_INDEX && n->nkids == 1 && n->a->kind == DSL_N_NAME &&
           strcmp(n->a->name, u->pr_arr) == 0 && same_expr(n->kids[0], u->pr_ix);
}

/* Whether a loop body assigns the name (or makes it a loop's variable). */
static bool assigns(const struct dsl_node *n, const char *name)
{
    if (!n) return false;
    const struct dsl_node *t = n->kind == DSL_N_AUG ? n->a : NULL;
    if (n->kind == DSL_N_ASSIGN)
        for (size_t i = 0; i < n->nkids; i++)
            if (n->kids[i]->kind == DSL_N_NAME && strcmp(n->kids[i]->name, name) == 0) return true;
    if (t && t->kind == DSL_N_NAME && strcmp(t->name, name) == 0) return true;
    if (n->kind == DSL_N_FOR && n->name && strcmp(n->name, name) == 0) return true;
    if (n->kind == DSL_N_BLOCK || n->kind == DSL_N_IF || n->kind == DSL_N_FOR) {
        for (size_t i = 0; i < n->nkids; i++)
            if (assigns(n->kids[i], name)) return true;
        if (assigns(n->b, name)) return true;
    }
    return false;
}

/* Whether e is arithmetic (+, -, *) of int names the loop (its variable, its body) does not
 * assign, and constants: the same value at every iteration, and computing it cannot fail. */
static bool invariant_index(struct cfn *c, const struct dsl_node *e, const struct dsl_node *loop)
{
    switch (e->kind) {
    case DSL_N_CONST: return e->value.kind == DSL_INT;
    case DSL_N_NAME: {
        const struct var *v = find_var(c, e->name);
        return v && v->t == JT_INT && strcmp(e->name, loop->name) != 0 &&
               !assigns(loop->b, e->name);
    }
    case DSL_N_UNARY: return e->op == DSL_T_MINUS && invariant_index(c, e->a, loop);
    case DSL_N_BINARY:
        return (e->op == DSL_T_PLUS || e->op == DSL_T_MINUS || e->op == DSL_T_STAR) &&
               invariant_index(c, e->a, loop) && invariant_index(c, e->b, loop);
    default: return false;
    }
}

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

static bool is_storage(struct cfn *c, const struct dsl_node *n)
{
    const struct var *v = n->kind == DSL_N_NAME ? find_var(c, n->name) : NULL;
    return v && v->t == JT_FARR;
}

static void promo_scan(struct cfn *c, const struct dsl_node *n, bool store, struct promo *p)
{
    if (!n || p->no) return;
    switch (n->kind) {
    case DSL_N_FOR:
    case DSL_N_WHILE:
    case DSL_N_RETURN:
    case DSL_N_LISTCOMP:
    case DSL_N_GENEXP: p->no = true; return;
    case DSL_N_NAME: /* a storage other than indexed: passed on, or another name for it */
        if (is_storage(c, n)) p->no = true;
        return;
    case DSL_N_CALL:
        if (n->a->kind == DSL_N_NAME && strcmp(n->a->name, "len") == 0 && n->nkids == 1 &&
            is_storage(c, n->kids[0]))
            return;
        break;
    case DSL_N_INDEX:
        if (n->nkids == 1 && is_storage(c, n->a)) {
            if (p->n == MAX_ACCESS) {
                p->no = true;
                return;
            }
            p->at[p->n].arr = n->a->name;
            p->at[p->n].ix = n->kids[0];
            p->at[p->n++].store = store;
            promo_scan(c, n->kids[0], false, p);
            return;
        }
        break;
    case DSL_N_ASSIGN:
        for (size_t i = 0; i < n->nkids; i++) promo_scan(c, n->kids[i], true, p);
        promo_scan(c, n->a, false, p);
        return;
    case DSL_N_AUG:
        promo_scan(c, n->a, true, p);
        promo_scan(c, n->a, false, p);
        promo_scan(c, n->b, false, p);
        return;
    default: break;
    }
    promo_scan(c, n->a, false, p);
    promo_scan(c, n->b, false, p);
    for (size_t i = 0; i < n->nkids; i++) promo_scan(c, n->kids[i], false, p);
}

/* Whether the innermost range loop n can keep a storage element in a local: 0 and the
 * element's access in p->at[0] (the other storages it reads after it), or -1. */
static int promotable(struct cfn *c, const struct dsl_node *n, struct promo *p)
{
    *p = (struct promo){0};
    if (has_loop(n->b)) return -1;
    promo_scan(c, n->b, false, p);
    int first = -1;
    for (int i = 0; i < p->n && first < 0; i++)
        if (p->at[i].store) first = i;
    if (p->no || first < 0 || !invariant_index(c, p->at[first].ix, n)) return -1;
    const char *arr = p->at[first].arr;
    const struct dsl_node *ix = p->at[first].ix;
    /* every access to that storage is to the element, and the others are only read */
    for (int i = 0; i < p->n; i++) {
        bool mine = strcmp(p->at[i].arr, arr) == 0;
        if ((mine && !same_expr(p->at[i].ix, ix)) || (!mine && p->at[i].store)) return -1;
    }
    struct promo all = *p;
    int k = 1; /* at[0]: the element; then each other storage once */
    p->at[0] = all.at[first];
    for (int i = 0; i < all.n; i++) {
        bool seen = strcmp(all.at[i].arr, arr) == 0;
        for (int j = 1; j < k && !seen; j++) seen = strcmp(p->at[j].arr, all.at[i].arr) == 0;
        if (!seen) p->at[k++] = all.at[i];
    }
    p->n = k;
    return 0;
}

/* arr[i] as a bounds-checked read. */
/* A memory access site of the simulator's unit (kind 0 global read, 1 global write, 2 shared
 * read, 3 shared write, of elements of `size` bytes): its number, registered in the final pass
 * (the site table is the final C's). */
static int access_site(struct unit *u, const struct cfn *c, const struct dsl_node *n, int kind,
                       int size, const char *name)
{
    if (!u->emitting) return 0;
    render_buf_printf(&u->sites, "    {%lldLL, \"%s\", %d, %d},\n", loc(c, n), name, kind, size);
    return u->nsites++;
}

/* The shared array n indexes (n an INDEX node), or NULL. */
static struct var *shared_of(struct cfn *c, const struct dsl_node *n)
{
    struct var *v = n->a->kind == DSL_N_NAME ? find_var(c, n->a->name) : NULL;
    return v && v->t == JT_SARR ? v : NULL;
}

/* The bytes of an element of shared array v. */
static int shared_size(const struct var *v) { return v->sh_dt == 'f' || v->sh_dt == 'i' ? 4 : 8; }

/* The element of shared array v that index node n reaches: its number in the array, each
 * index checked against its dim, into *k. */
static int shared_index(struct unit *u, struct cfn *c, const struct dsl_node *n,
                        const struct var *v, struct render_buf *k)
{
    if ((int)n->nkids != v->sh_nd)
        return refuse(u, c, n, "%s, of %d dims, indexed with %zu values", v->name, v->sh_nd,
                      n->nkids);
    c->may_fail = true;
    render_buf_puts(k, "(INT64_C(0)");
    for (int d = 0; d < v->sh_nd; d++) {
        struct ex i;
        ex_init(&i);
        int r = expr(u, c, n->kids[d], &i);
        if (r == 0 && i.t != JT_INT && i.t != JT_BOOL)
            r = refuse(u, c, n, "an index that is a %s", jt_name[i.t]);
        if (r == 0)
            render_buf_printf(k, " * INT64_C(%lld) + CHK(%s, INT64_C(%lld), %lldLL, \"%s\")",
                              (long long)v->sh_dim[d], i.s.data, (long long)v->sh_dim[d], loc(c, n),
                              v->name);
        ex_free(&i);
        if (r != 0) return r;
    }
    render_buf_puts(k, ")");
    return 0;
}

static int index_load(struct unit *u, struct cfn *c, const struct dsl_node *n, struct ex *e)
{
    struct var *sv = shared_of(c, n);
    if (sv) { /* the simulator records who read it, for its races and unwritten reads */
        struct render_buf k;
        render_buf_init(&k, 0);
        int r = shared_index(u, c, n, sv, &k);
        e->t = sv->sh_dt == 'd' || sv->sh_dt == 'f' ? JT_FLOAT : JT_INT;
        if (r == 0 && u->target == JIT_GPU)
            render_buf_printf(&e->s, "(%s)v_%s[%s]", c_type[e->t], sv->name, k.data);
        else if (r == 0)
            render_buf_printf(&e->s,
                              "({ int64_t k_ = %s; if (jit_sh_read(env, %lld + k_, %lldLL, "
                              "\"%s\", k_, %d, %lld + k_ * %d)) goto JIT_FAIL; (%s)v_%s[k_]; })",
                              k.data, (long long)sv->sh_base, loc(c, n), sv->name,
                              access_site(u, c, n, 2, shared_size(sv), sv->name),
                              (long long)sv->sh_off, shared_size(sv), c_type[e->t], sv->name);
        render_buf_free(&k);
        return r;
    }
    if (n->nkids != 1) return refuse(u, c, n, "an index of several values");
    struct ex a, i;
    ex_init(&a);
    ex_init(&i);
    int r = -1;
    if (expr(u, c, n->a, &a) != 0 || expr(u, c, n->kids[0], &i) != 0) goto done;
    if (a.t != JT_FARR && !ints(a.t)) {
        refuse(u, c, n, "indexing a %s", jt_name[a.t]);
        goto done;
    }
    if (i.t != JT_INT && i.t != JT_BOOL) {
        refuse(u, c, n, "an index that is a %s", jt_name[i.t]);
        goto done;
    }
    e->t = a.t == JT_FARR ? JT_FLOAT : JT_INT;
    /* a read of an array the prange loop's iterations share: of the iteration's own element,
     * or recorded (racy) where the loop writes the array */
    struct var *rv =
        u->in_prange && c->top && n->a->kind == DSL_N_NAME ? find_var(c, n->a->name) : NULL;
    if (rv && rv->alias_of) rv = find_var(c, rv->alias_of);
    if (rv && shared_mem(rv) && rv->t != JT_ITUP && prange_access(u, c, rv, n->kids[0], n) != 0)
        goto done;
    if (promoted(u, n)) {
        render_buf_printf(&e->s, "(double)pv%d", u->pr_id);
        r = 0;
        goto done;
    }
    if (elided(u, n)) {
        render_buf_printf(&e->s, "%s(%s).p[%s]", a.t == JT_FARR ? "(double)" : "", a.s.data,
                          i.s.data);
        r = 0;
        goto done;
    }
    c->may_fail = true;
    const char *an = n->a->kind == DSL_N_NAME ? n->a->name : "an array";
    bool racy = rv && rv->pl[u->pno].racy;
    if (rv && rv->param && rv->t == JT_FARR && rv->pl[u->pno].written && (racy || c->f->jit_races))
        render_buf_printf(&e->s,
                          "({ int64_t k_ = CHK(%s, (%s).n, %lldLL, \"%s\"); "
                          "RACE_READ%s(%d, k_, (%s).n, %s%s, %lldLL, \"%s\"); "
                          "(double)(%s).p[k_]; })",
                          i.s.data, a.s.data, loc(c, n), an, racy ? "_ALWAYS" : "",
                          (int)(rv - c->vars), a.s.data, ITERATION(u), loc(c, n), rv->name,
                          a.s.data);
    else if (u->target == JIT_SIM && a.t == JT_FARR) /* a Storage: global memory, counted */
        render_buf_printf(
            &e->s, "(double)*jit_gmem(env, %d, &(%s).p[CHK(%s, (%s).n, %lldLL, \"%s\")])",
            access_site(u, c, n, 0, 4, an), a.s.data, i.s.data, a.s.data, loc(c, n), an);
    else
        render_buf_printf(&e->s, "%s(%s).p[CHK(%s, (%s).n, %lldLL, \"%s\")]",
                          a.t == JT_FARR ? "(double)" : "", a.s.data, i.s.data, a.s.data, loc(c, n),
                          an);
    r = 0;
done:
    ex_free(&a);
    ex_free(&i);
    return r;
}

static int binary(struct unit *u, struct cfn *c, const struct dsl_node *n, struct ex *e)
{
    struct ex a, b;
    ex_init(&a);
    ex_init(&b);
    int r = -1;
    if (expr(u, c, n->a, &a) != 0 || expr(u, c, n->b, &b) != 0) goto done;
    if (!numeric(a.t) || !numeric(b.t)) {
        refuse(u, c, n, "arithmetic on a %s and a %s", jt_name[a.t], jt_name[b.t]);
        goto done;
    }
    enum jt t = join(a.t, b.t);
    if (t == JT_BOOL) t = JT_INT; /* True + True is 2, as Python's bools are ints */
    long long line = loc(c, n);
    switch (n->op) {
    case DSL_T_PLUS:
    case DSL_T_MINUS:
    case DSL_T_STAR:
        e->t = t;
        render_buf_printf(&e->s, "(%s %c %s)", a.s.data,
                          n->op == DSL_T_PLUS    ? '+'
                          : n->op == DSL_T_MINUS ? '-'
                                                 : '*',
                          b.s.data);
        break;
    case DSL_T_SLASH:
        c->may_fail = u->soft_fail = true;
        e->t = JT_FLOAT;
        render_buf_printf(&e->s, "py_fdiv(env, %s, %s, %lldLL, \"%sdivision by zero\")", a.s.data,
                          b.s.data, line, a.t == JT_FLOAT || b.t == JT_FLOAT ? "float " : "");
        break;
    case DSL_T_DSLASH:
    case DSL_T_PERCENT:
        c->may_fail = u->soft_fail = true;
        e->t = t;
        render_buf_printf(&e->s, "%s_%s(env, %s, %s, %lldLL)", t == JT_FLOAT ? "pyf" : "py",
                          n->op == DSL_T_DSLASH ? "div" : "mod", a.s.data, b.s.data, line);
        break;
    case DSL_T_DSTAR:
        /* Python: an int to a power that is a non-negative int is an int */
        if (t != JT_FLOAT && n->b->kind == DSL_N_CONST && dsl_is_intlike(n->b->value) &&
            dsl_as_int(n->b->value) >= 0) {
            e->t = JT_INT;
            c->may_fail = u->soft_fail = true;
            render_buf_printf(&e->s, "py_ipow(env, %s, %s, %lldLL)", a.s.data, b.s.data, line);
        } else if (t != JT_FLOAT && u->target != JIT_HOST) {
            /* a kernel's 2 ** x: an int, as Numba types it (a negative power is an error) */
            e->t = JT_INT;
            c->may_fail = u->soft_fail = true;
            render_buf_printf(&e->s, "py_ipow(env, %s, %s, %lldLL)", a.s.data, b.s.data, line);
        } else {
            e->t = JT_FLOAT;
            c->may_fail = u->soft_fail = true;
            render_buf_printf(&e->s, "pyf_pow(env, (double)(%s), (double)(%s), %lldLL)", a.s.data,
                              b.s.data, line);
        }
        break;
    default: refuse(u, c, n, "this operator"); goto done;
    }
    r = 0;
done:
    ex_free(&a);
    ex_free(&b);
    return r;
}

static int compare(struct unit *u, struct cfn *c, const struct dsl_node *n, struct ex *e)
{
    e->t = JT_BOOL;
    render_buf_puts(&e->s, "(1");
    for (size_t k = 0; k + 1 < n->nkids; k++) { /* a < b < c: each pair, as Python */
        struct ex a, b;
        ex_init(&a);
        ex_init(&b);
        int r = expr(u, c, n->kids[k], &a);
        if (r == 0) r = expr(u, c, n->kids[k + 1], &b);
        const char *op = NULL;
        switch (n->ops[k]) {
        case DSL_T_LT: op = "<"; break;
        case DSL_T_LE: op = "<="; break;
        case DSL_T_GT: op = ">"; break;
        case DSL_T_GE: op = ">="; break;
        case DSL_T_EQ: op = "=="; break;
        case DSL_T_NE: op = "!="; break;
        default: break;
        }
        if (r == 0 && (!op || !numeric(a.t) || !numeric(b.t)))
            r = refuse(u, c, n, "this comparison");
        if (r == 0) render_buf_printf(&e->s, " && (%s %s %s)", a.s.data, op, b.s.data);
        ex_free(&a);
        ex_free(&b);
        if (r != 0) return -1;
    }
    render_buf_puts(&e->s, ")");
    return 0;
}

/* An int constant as C: the smallest int as an expression, since -9223372036854775808 is the
 * negation of a literal that does not fit (an unsigned one for tcc). */
static void put_int(struct render_buf *b, int64_t x)
{
    if (x == INT64_MIN)
        render_buf_puts(b, "JIT_INT64_MIN");
    else
        render_buf_printf(b, "INT64_C(%lld)", (long long)x);
}

/* A float constant as C: exact (hexadecimal), infinities and NaN by the prelude's names (C has
 * no literal for them; printf's "inf" is not C). */
static void put_double(struct render_buf *b, double x)
{
    if (isnan(x))
        render_buf_puts(b, "JIT_NAN");
    else if (isinf(x))
        render_buf_puts(b, x > 0 ? "JIT_INF" : "(-JIT_INF)");
    else
        render_buf_printf(b, "%a", x);
}

static int expr(struct unit *u, struct cfn *c, const struct dsl_node *n, struct ex *e)
{
    switch (n->kind) {
    case DSL_N_CONST:
        if (n->value.kind == DSL_INT || n->value.kind == DSL_BOOL) {
            e->t = n->value.kind == DSL_BOOL ? JT_BOOL : JT_INT;
            put_int(&e->s, dsl_as_int(n->value));
            return 0;
        }
        if (n->value.kind == DSL_FLOAT) {
            e->t = JT_FLOAT;
            put_double(&e->s, n->value.as.f);
            return 0;
        }
        return refuse(u, c, n, "a constant of type %s", dsl_type_name(n->value));
    case DSL_N_NAME: {
        struct var *v = find_var(c, n->name);
        if (v) {
            if (v->t == JT_NONE) return refuse(u, c, n, "a variable read before it is assigned");
            if (v->t == JT_SARR)
                return refuse(u, c, n, "the shared array %s other than indexed", n->name);
            if (v->in_loop && !u->in_prange)
                return refuse(u, c, n, "%s read after the prange loop that assigns it", n->name);
            if (v->reduce && u->in_prange && !v->in_loop && (!u->aug || strcmp(u->aug, v->name))) {
                u->race = true;
                return refuse(
                    u, c, n,
                    "%s is summed up by the prange loop (%s %c= ...) and read inside it: "
                    "each thread has its own partial %s until the loop ends, so the value "
                    "read would be none of them. Read it after the loop",
                    v->name, v->name, v->reduce, v->name);
            }
            e->t = v->t;
            render_buf_printf(&e->s, "v_%s", n->name);
            return 0;
        }
        const struct dsl_value *g = outer_value(u, c, n->name);
        if (g && dsl_is_intlike(*g)) {
            e->t = JT_INT;
            put_int(&e->s, dsl_as_int(*g));
            return 0;
        }
        if (g && g->kind == DSL_FLOAT) {
            e->t = JT_FLOAT;
            put_double(&e->s, g->as.f);
            return 0;
        }
        return refuse(u, c, n, "the name %s here", n->name);
    }
    case DSL_N_UNARY: {
        int r = expr(u, c, n->a, e);
        if (r != 0) return r;
        if (!numeric(e->t)) return refuse(u, c, n, "a sign on a %s", jt_name[e->t]);
        if (e->t == JT_BOOL) e->t = JT_INT;
        struct render_buf s;
        render_buf_init(&s, 0);
        render_buf_printf(&s, "(%s%s)", n->op == DSL_T_MINUS ? "-" : "+", e->s.data);
        render_buf_free(&e->s);
        e->s = s;
        return 0;
    }
    case DSL_N_NOT:
    case DSL_N_AND:
    case DSL_N_OR: {
        struct ex a, b;
        ex_init(&a);
        ex_init(&b);
        int r = expr(u, c, n->a, &a);
        if (r == 0 && n->kind != DSL_N_NOT) r = expr(u, c, n->b, &b);
        if (r == 0 && (!numeric(a.t) || (n->kind != DSL_N_NOT && !numeric(b.t))))
            r = refuse(u, c, n, "and, or, not of values that are not numbers");
        enum jt t = n->kind == DSL_N_NOT ? JT_BOOL : join(a.t, b.t);
        if (r == 0 && t == JT_BOOL) {
            e->t = JT_BOOL;
            if (n->kind == DSL_N_NOT)
                render_buf_printf(&e->s, "(!(%s))", a.s.data);
            else
                render_buf_printf(&e->s, "((%s) %s (%s))", a.s.data,
                                  n->kind == DSL_N_AND ? "&&" : "||", b.s.data);
        } else if (r == 0) { /* `a and b` is a when a is false, else b (b runs only then) */
            e->t = t;
            char f[200];
            render_buf_printf(&e->s,
                              sx(u,
                                 n->kind == DSL_N_AND ? "({%s _a = (%s)(%s); _a ? (%s)(%s) : _a;})"
                                                      : "({%s _a = (%s)(%s); _a ? _a : (%s)(%s);})",
                                 f, sizeof f),
                              c_type[t], c_type[t], a.s.data, c_type[t], b.s.data);
        }
        ex_free(&a);
        ex_free(&b);
        return r;
    }
    case DSL_N_BINARY: return binary(u, c, n, e);
    case DSL_N_COMPARE: return compare(u, c, n, e);
    case DSL_N_COND: {
        struct ex a, b, k;
        ex_init(&a);
        ex_init(&b);
        ex_init(&k);
        int r = expr(u, c, n->a, &a);
        if (r == 0) r = expr(u, c, n->b, &b);
        if (r == 0) r = expr(u, c, n->kids[0], &k);
        if (r == 0 && (!numeric(a.t) || !numeric(b.t) || !numeric(k.t)))
            r = refuse(u, c, n, "a conditional expression of values that are not numbers");
        if (r == 0) {
            e->t = join(a.t, b.t);
            render_buf_printf(&e->s, "((%s) ? (%s)(%s) : (%s)(%s))", k.s.data, c_type[e->t],
                              a.s.data, c_type[e->t], b.s.data);
        }
        ex_free(&a);
        ex_free(&b);
        ex_free(&k);
        return r;
    }
    case DSL_N_INDEX: return index_load(u, c, n, e);
    case DSL_N_ATTR: {
        /* cuda.threadIdx.x and the others: this thread's place in the launch */
        static const char *const groups[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
        static const char *const sim[] = {"tid", "bid", "block", "grid"};
        for (int g = 0; g < 4; g++) {
            const char *m = cuda_member(u, c, n, groups[g]);
            int d = !m ? -1 : !strcmp(m, "x") ? 0 : !strcmp(m, "y") ? 1 : !strcmp(m, "z") ? 2 : -1;
            if (d < 0) continue;
            if (u->target == JIT_HOST)
                return refuse(u, c, n, "cuda.%s outside a cuda.jit kernel", groups[g]);
            e->t = JT_INT;
            if (u->target == JIT_GPU)
                render_buf_printf(&e->s, "((int64_t)%s.%s)", groups[g], m);
            else
                render_buf_printf(&e->s, "env->%s[%d]", sim[g], d);
            return 0;
        }
        if (u->target != JIT_HOST && strcmp(n->name, "warpsize") == 0 && cuda_module(u, c, n->a)) {
            e->t = JT_INT;
            render_buf_puts(&e->s, "INT64_C(32)");
            return 0;
        }
        return refuse(u, c, n, "the attribute .%s here", n->name);
    }
    case DSL_N_CALL: return call(u, c, n, e);
    default: return refuse(u, c, n, "this expression");
    }
}

/* ---- statements ------------------------------------------------------------------------- */

static int block(struct unit *u, struct cfn *c, const struct dsl_node *n);
static int stmt(struct unit *u, struct cfn *c, const struct dsl_node *n);

/* The local `name` assigned a value of type t here: created or widened. */
static int assign_var(struct unit *u, struct cfn *c, const struct dsl_node *at, const char *name,
                      enum jt t, int64_t buflen, struct var **out)
{
    struct var *v = find_var(c, name);
    if (!v) { /* as in Python, a name assigned in the body is a local of it */
        if (c->nvars == MAX_VARS) return refuse(u, c, at, "more than %d local variables", MAX_VARS);
        v = &c->vars[c->nvars++];
        *v = (struct var){.name = name, .t = t, .in_loop = u->in_prange, .buflen = buflen};
        u->changed = true;
    } else {
        if (u->in_prange && !v->in_loop) {
            u->race = true;
            return refuse(u, c, at,
                          "%s is assigned before the prange loop and again inside it: every "
                          "iteration runs at once on its own thread, so they would all write "
                          "the same variable (a race). Assign it inside the loop only, or "
                          "accumulate into the output array at the iteration's own position",
                          name);
        }
        if ((v->buflen != 0) != (buflen != 0) || (buflen && v->buflen != buflen))
            return refuse(u, c, at, "%s holding arrays of different lengths", name);
        enum jt j = v->t == JT_NONE ? t : join(v->t, t);
        if (j == JT_NONE)
            return refuse(u, c, at, "%s holding a %s and a %s", name, jt_name[v->t], jt_name[t]);
        if (j != v->t) {
            v->t = j;
            u->changed = true;
        }
    }
    if (u->in_prange && c->top) { /* where, within an iteration, it takes its values */
        if (!v->pset) v->pset = at;
        /* but the variable of each of the function's prange loops, each loop's own */
        if (v->pset != at && !u->prange_head && !v->ptwice) v->ptwice = u->changed = true;
        if (u->nest > 0 && !v->pinner) v->pinner = u->changed = true;
    }
    *out = v;
    return 0;
}

/* Whether n names an int dtype: numpy.int32, numpy.int64, int. */
static bool int_dtype_node(struct unit *u, const struct cfn *c, const struct dsl_node *n)
{
    const char *np = numpy_attr(u, c, n);
    if (np) return strcmp(np, "int32") == 0 || strcmp(np, "int64") == 0;
    return n->kind == DSL_N_NAME && strcmp(n->name, "int") == 0 &&
           !find_var((struct cfn *)c, n->name) && !outer_value(u, c, n->name);
}

static int64_t const_int(struct unit *u, struct cfn *c, const struct dsl_node *k)
{
    int64_t val;
    if (k->kind == DSL_N_CONST && dsl_is_intlike(k->value)) return dsl_as_int(k->value);
    if (k->kind == DSL_N_NAME && find_var(c, k->name) && local_const(c, k->name, &val)) return val;
    if (k->kind == DSL_N_NAME && !find_var(c, k->name)) {
        const struct dsl_value *g = outer_value(u, c, k->name);
        if (g && dsl_is_intlike(*g)) return dsl_as_int(*g);
    }
    return 0;
}

/* The length n of a local array of n int zeros, one of n at most MAX_ARRAY: the length
 * given as a constant (or a global or enclosing int). */
static int64_t array_length(struct unit *u, struct cfn *c, const struct dsl_node *v,
                            const struct dsl_node *k, const char *what)
{
    int64_t len = const_int(u, c, k);
    if (len > 0 && len <= MAX_ARRAY) return len;
    if (len > MAX_ARRAY)
        return refuse(u, c, v,
                      "%s of %lld elements: a local array has at most %d (it lives on "
                      "each thread's stack)",
                      what, (long long)len, MAX_ARRAY);
    return refuse(u, c, v, "%s whose length is not a positive int constant", what);
}

/* The length of [0] * n or np.zeros(n, np.int32), n a constant (or a global or enclosing
 * int): a local int array of zeros; 0 when v is not that, -1 after refusing one that is (too
 * long, or of another kind). */
static int64_t array_literal(struct unit *u, struct cfn *c, const struct dsl_node *v)
{
    if (v->kind == DSL_N_CALL && !v->flag && v->nkw == 0 && v->nkids == 2 &&
        cuda_member(u, c, v->a, "local") && strcmp(v->a->name, "array") == 0) {
        /* cuda.local.array(n, numba.int32): each CUDA thread's own ints */
        char dt = dtype_code(u, c, v->kids[1]);
        if (dt != 'i' && dt != 'l')
            return refuse(u, c, v,
                          "cuda.local.array of %s (compiled code keeps int32 and int64 "
                          "local arrays)",
                          dt ? "floats" : "this dtype");
        return array_length(u, c, v, v->kids[0], "cuda.local.array");
    }
    if (v->kind == DSL_N_CALL && !v->flag) { /* np.zeros(n, np.int32), dtype= too */
        const char *np = numpy_attr(u, c, v->a);
        const struct dsl_node *dtype = v->nkids == 2 ? v->kids[1] : NULL;
        if (v->nkw == 1 && strcmp(v->kwnames[0], "dtype") == 0 && !dtype)
            dtype = v->kwvals[0];
        else if (v->nkw)
            return 0;
        if (!np || strcmp(np, "zeros") != 0 || v->nkids < 1 || v->nkids > 2 || !dtype ||
            !int_dtype_node(u, c, dtype))
            return 0;
        return array_length(u, c, v, v->kids[0], "np.zeros");
    }
    if (v->kind != DSL_N_BINARY || v->op != DSL_T_STAR) return 0;
    const struct dsl_node *l = v->a, *k = v->b;
    if (l->kind != DSL_N_LIST) l = v->b, k = v->a;
    if (l->kind != DSL_N_LIST || l->nkids != 1 || l->kids[0]->kind != DSL_N_CONST ||
        !dsl_is_intlike(l->kids[0]->value) || dsl_as_int(l->kids[0]->value) != 0)
        return 0;
    int64_t len = const_int(u, c, k);
    if (len > MAX_ARRAY) return array_length(u, c, v, k, "[0] * n");
    return len > 0 ? len : 0;
}

static void emit(struct unit *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(struct unit *u, const char *fmt, ...)
{
    if (!u->emitting) return;
    char *s = NULL;
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&s, fmt, ap) >= 0) {
        for (int i = 0; i < u->loop_depth + 1; i++) render_buf_puts(&u->out, "    ");
        render_buf_puts(&u->out, s);
        render_buf_puts(&u->out, "\n");
    }
    free(s);
    va_end(ap);
}

/* Whether expression n depends on the prange loop's variable: reads a variable that does. */
static bool expr_dep(struct cfn *c, const struct dsl_node *n)
{
    if (!n) return false;
    if (n->kind == DSL_N_NAME) {
        const struct var *v = find_var(c, n->name);
        return v && v->dep;
    }
    if (expr_dep(c, n->a) || expr_dep(c, n->b)) return true;
    for (size_t i = 0; i < n->nkids; i++)
        if (expr_dep(c, n->kids[i])) return true;
    return false;
}

static void set_dep(struct unit *u, struct var *v)
{
    if (v && !v->dep) {
        v->dep = true;
        u->changed = true;
    }
}

/* A call inside the prange loop given something that depends on the loop's variable fills the
 * arrays it is given accordingly (to_index(i, shape, out_index)). */
static void call_deps(struct unit *u, struct cfn *c, const struct dsl_node *n)
{
    if (!u->in_prange || n->kind != DSL_N_CALL) return;
    bool any = false;
    for (size_t i = 0; i < n->nkids; i++) any = any || expr_dep(c, n->kids[i]);
    for (size_t i = 0; any && i < n->nkids; i++)
        if (n->kids[i]->kind == DSL_N_NAME) {
            struct var *v = find_var(c, n->kids[i]->name);
            if (!v || !v->in_loop || !ints(v->t)) continue;
            set_dep(u, v);
            struct var *o = v->alias_of ? find_var(c, v->alias_of) : NULL; /* the same memory */
            if (o && o->in_loop) set_dep(u, o);
        }
}

/* What the values of an index are over the prange loop's iterations, as far as the compiler
 * can tell: the same in every iteration (IX_SAME), each iteration's own (IX_OWN: the loop's
 * variable, plus or times what does not change within an iteration (two_values), or
 * index_to_position of an index buffer the iteration filled from it once, as the course's
 * kernels make their output's position), repeating (IX_REPEATS: % or // of the loop's
 * variable), or unknown (IX_UNKNOWN: i - i, min(i, 3), an index read from data, a variable
 * given two values), whose accesses are recorded and checked at run time. */
enum ixk { IX_NONE, IX_SAME, IX_OWN, IX_UNKNOWN, IX_REPEATS };

static enum ixk ix_join(enum ixk a, enum ixk b)
{
    if (a == IX_NONE || a == b) return b;
    return a == IX_REPEATS || b == IX_REPEATS ? IX_REPEATS : IX_UNKNOWN;
}

/* Whether variable v of the prange loop may hold values that are not the iteration's own in
 * a position made from it: assigned at two places, or the variable of a loop the iteration
 * runs over an array's values (data). An inner loop's variable over a range sweeps the
 * iteration's block as the course's kernels index their output (out[n * s0 + i * s1 + j * s2],
 * i and j counting the output's dims: strides that make two iterations' blocks overlap are not
 * detected), and so does a variable assigned at one place in an inner loop, a name for its
 * expression (out_pos = n * s0 + i * s1 + j * s2; index_kind sorts the expression). */
static bool two_values(const struct var *v)
{
    if (!v->in_loop || !(v->ptwice || v->pinner)) return false;
    if (v->ptwice) return true;
    const struct dsl_node *f = v->pset, *it = f ? f->a : NULL;
    return f && f->kind == DSL_N_FOR &&
           !(it->kind == DSL_N_CALL && it->a->kind == DSL_N_NAME &&
             strcmp(it->a->name, "range") == 0);
}

/* Whether e's value may change within one iteration of the prange loop (two_values). */
static bool varies(struct cfn *c, const struct dsl_node *e)
{
    if (!e) return false;
    if (e->kind == DSL_N_NAME) {
        const struct var *v = find_var(c, e->name);
        return v && two_values(v);
    }
    if (varies(c, e->a) || varies(c, e->b)) return true;
    for (size_t i = 0; i < e->nkids; i++)
        if (varies(c, e->kids[i])) return true;
    return false;
}

static enum ixk index_kind(struct unit *u, struct cfn *c, const struct dsl_node *e)
{
    if (!expr_dep(c, e)) return IX_SAME;
    switch (e->kind) {
    case DSL_N_NAME: { /* given two values in an iteration, two elements: they may be others' */
        const struct var *v = find_var(c, e->name);
        if (v && two_values(v)) return IX_UNKNOWN;
        if (u->prange_var && strcmp(e->name, u->prange_var) == 0) return IX_OWN;
        return v && v->ixk ? (enum ixk)v->ixk : IX_UNKNOWN;
    }
    case DSL_N_UNARY: return e->op == DSL_T_MINUS ? index_kind(u, c, e->a) : IX_UNKNOWN;
    case DSL_N_BINARY: {
        enum ixk a = index_kind(u, c, e->a), b = index_kind(u, c, e->b);
        if (a == IX_REPEATS || b == IX_REPEATS) return IX_REPEATS;
        /* the iteration's own plus, or times, what is the same in every iteration; what
         * changes within one otherwise (i + v, v assigned twice) reaches others' elements */
        bool own = (a == IX_OWN && b == IX_SAME && !varies(c, e->b)) ||
                   (a == IX_SAME && b == IX_OWN && !varies(c, e->a));
        switch (e->op) {
        case DSL_T_PLUS:
        case DSL_T_MINUS: return own ? IX_OWN : IX_UNKNOWN;
        case DSL_T_STAR: { /* times a stride: a stride of 0 is a broadcast output, not ours */
            const struct dsl_node *k = a == IX_SAME ? e->a : e->b;
            if (k->kind == DSL_N_CONST && dsl_is_intlike(k->value) && dsl_as_int(k->value) == 0)
                return IX_SAME;
            return own ? IX_OWN : IX_UNKNOWN;
        }
        case DSL_T_PERCENT:
        case DSL_T_DSLASH: return IX_REPEATS;
        default: return IX_UNKNOWN;
        }
    }
    case DSL_N_CALL: /* the course's output position: an index buffer the iteration filled, */
        if (e->a->kind == DSL_N_NAME && strcmp(e->a->name, "index_to_position") == 0 &&
            e->nkids == 2 && e->kids[0]->kind == DSL_N_NAME) {
            const struct var *b = find_var(c, e->kids[0]->name);
            if (b && b->alias_of && b->in_loop && !b->alias_shared) b = find_var(c, b->alias_of);
            /* once, by to_index(i, ...), before (not changed since: out_index[d] = 0 would
             * make it another iteration's, as would a change in a loop this one runs) */
            if (b && b->in_loop && b->dep && !b->alias_shared && b->fills == 1 && b->fill_own &&
                !(u->nest > 0 && b->pfill_inner) && !expr_dep(c, e->kids[1]))
                return IX_OWN;
        }
        return IX_UNKNOWN;
    default: return IX_UNKNOWN;
    }
}

/* Whether e's values are each iteration's own (index_kind). */
static bool own_index(struct unit *u, struct cfn *c, const struct dsl_node *e)
{
    return index_kind(u, c, e) == IX_OWN;
}

/* A number variable v assigned `from` in the prange loop: what its values are as an index. */
static void index_assigned(struct unit *u, struct cfn *c, struct var *v,
                           const struct dsl_node *from)
{
    enum ixk k = ix_join((enum ixk)v->ixk, from ? index_kind(u, c, from) : IX_UNKNOWN);
    if (k != (enum ixk)v->ixk) {
        v->ixk = (char)k;
        u->changed = true;
    }
}

/* Whether array variable v's memory is the same in every iteration of the prange loop being
 * compiled: a parameter, an array made before the loop, or another name given in the loop for
 * one of those (an array made inside the loop is each iteration's own). */
static bool shared_mem(const struct var *v) { return v->param || !v->in_loop || v->alias_shared; }

static int line_at(const struct dsl_function *f, size_t pos);

/* The line of node n within c's function (its def: line 1). */
static int fn_line(const struct cfn *c, const struct dsl_node *n)
{
    return line_at(c->f, n->pos) - line_at(c->f, c->f->def->pos) + 1;
}

/* An access, at node at, of o, an array every iteration of the prange loop shares: at index
 * ix, or (ix NULL) at elements the compiler cannot name (a call given o, a loop over it). An
 * iteration that reads an element another writes races with it as surely as two writers do,
 * and so does one that writes at two indices of its own (o[i] and o[i + 1]: the second is the
 * next iteration's first). So an array the loop writes must be reached, wherever it is, at one
 * index of the iteration's own (index_kind), the same expression at every place. Otherwise a
 * Storage argument's reads and writes are recorded and checked at run time (racy), and any
 * other array, or one reached whole, refused. 0, or -1 after refusing. */
static int prange_access(struct unit *u, struct cfn *c, struct var *o, const struct dsl_node *ix,
                         const struct dsl_node *at)
{
    struct pacc *pl = &o->pl[u->pno];
    if (!ix) {
        if (!pl->whole) pl->whole = u->changed = true;
    } else {
        /* an index of the iteration's own (its names keep their values within it, or count
         * within its own block: index_kind), the same at every place */
        bool own = index_kind(u, c, ix) == IX_OWN;
        if (own && !pl->ix) {
            pl->ix = ix;
            u->changed = true;
        }
        if ((!own || (ix != pl->ix && !same_expr(pl->ix, ix))) && !pl->mixed)
            pl->mixed = u->changed = true;
    }
    if (!pl->written || (!pl->whole && !pl->mixed)) return 0;
    if (!pl->whole && o->param && o->t == JT_FARR) {
        if (!pl->racy) pl->racy = o->racy = u->changed = true;
        u->race_checks = true;
        return 0;
    }
    u->race = true;
    if (pl->whole)
        return refuse(u, c, at,
                      "%s, which every iteration of the prange loop shares, is written in the "
                      "loop and given whole to a function or a loop over it, which may read "
                      "elements other iterations write, at once on their own threads (a race). "
                      "Read and write %s in the loop's body itself, at the iteration's own "
                      "position (out[o]), or read from an array the loop does not write",
                      o->name, o->name);
    return refuse(u, c, at,
                  "%s, which every iteration of the prange loop shares, is written and read at "
                  "indices that are not all one element of the iteration's own: an iteration "
                  "may reach an element another writes, at once on their own threads (a race). "
                  "Read and write %s only at the iteration's own position (out[o], one index "
                  "everywhere), or read from an array the loop does not write",
                  o->name, o->name);
}

/* Expression e, given whole at node at (to a call, a loop over it, an elementwise comparison):
 * where e names an array every iteration of the prange loop shares, an access of all of its
 * elements, others' too (prange_access). 0, or -1 after refusing. */
static int read_whole(struct unit *u, struct cfn *c, const struct dsl_node *e,
                      const struct dsl_node *at)
{
    if (!u->in_prange || !c->top || e->kind != DSL_N_NAME) return 0;
    struct var *v = find_var(c, e->name);
    if (v && v->alias_of) v = find_var(c, v->alias_of);
    if (!v || (v->t != JT_FARR && v->t != JT_IARR) || !shared_mem(v)) return 0;
    return prange_access(u, c, v, NULL, at);
}

/* A write into array v inside the prange loop, at node at: by a store whose index is ix (how
 * NULL), or by a call of the function `how` (dep: an argument of it follows from the loop's
 * variable). Iterations run at once on their own threads, so an array they share must not be
 * written at the same elements by two of them. Refused: a store at an index that does not
 * follow from the loop's variable or repeats (y[i % 4]); a shared index buffer filled by a call
 * (to_index's out_index), which every iteration writes whole; a Storage written by a call none
 * of whose arguments follows from the loop's variable. What the analysis cannot see (a position
 * read from data) njit(check_races=True) finds at run time. */
static int prange_write(struct unit *u, struct cfn *c, struct var *v, const struct dsl_node *at,
                        const struct dsl_node *ix, const char *how, bool dep)
{
    if (!u->in_prange || !c->top) return 0;
    struct var *o = v->alias_of ? find_var(c, v->alias_of) : v;
    if (!o) o = v;
    if (!v->pwritten) v->pwritten = u->changed = true;
    if (!o->pwritten) o->pwritten = u->changed = true;
    if (!o->pl[u->pno].written) o->pl[u->pno].written = u->changed = true;
    if (o->fills < 2) o->fills++;
    o->fill_own = false;
    if (u->nest > 0 && !o->pfill_inner) o->pfill_inner = u->changed = true;
    if (!shared_mem(v)) return 0;
    char also[96] = "", by[64] = "";
    if (o != v) snprintf(also, sizeof also, ", through %s (another name for it)", v->name);
    if (how) snprintf(by, sizeof by, ", by %s()", how);
    if (o->buflen) {
        u->race = true;
        return refuse(u, c, at,
                      "%s is made once, before the prange loop (line %d of %s), and written by "
                      "every iteration%s%s: the iterations run at once on their own threads and "
                      "overwrite each other's values (a race). Make it inside the loop: move "
                      "line %d into the loop's body, so that each iteration has its own",
                      o->name, o->made ? fn_line(c, o->made) : 1, c->f->def->name, also, by,
                      o->made ? fn_line(c, o->made) : 1);
    }
    if (how && ints(v->t)) {
        u->race = true;
        return refuse(u, c, at,
                      "%s, an argument of %s(), is written by every iteration of the prange "
                      "loop%s%s: the iterations run at once on their own threads and overwrite "
                      "each other's values (a race). Give each iteration a buffer of its own, "
                      "made inside the loop (idx = np.zeros(MAX_DIMS, np.int32)), and pass that",
                      o->name, c->f->def->name, also, by);
    }
    if (how) { /* what a function stores into, the loop cannot tell apart from another's */
        (void)dep;
        u->race = true;
        return refuse(u, c, at,
                      "%s, which every iteration of the prange loop shares, is written by a "
                      "function the loop calls%s%s: which elements it writes, the compiler "
                      "cannot tell from one iteration to the next, and iterations run at once on "
                      "their own threads. Write %s in the loop's body itself, at the iteration's "
                      "own position (out[o] = ...)",
                      o->name, also, by, o->name);
    }
    enum ixk k = index_kind(u, c, ix);
    if (k == IX_SAME) {
        u->race = true;
        return refuse(u, c, at,
                      "every iteration of the prange loop writes the same element of %s%s (its "
                      "index does not follow from the loop's variable), at once on their own "
                      "threads (a race). Write %s at a position of the iteration's own, or add "
                      "into a local variable (acc += ...) and store it after the loop",
                      o->name, also, o->name);
    }
    if (k == IX_REPEATS) {
        bool direct =
            ix->kind == DSL_N_BINARY && (ix->op == DSL_T_PERCENT || ix->op == DSL_T_DSLASH);
        u->race = true;
        return refuse(u, c, at,
                      "iterations of the prange loop write the same elements of %s%s: the index "
                      "repeats (%s of the loop's variable), and they run at once on their own "
                      "threads (a race). Give each iteration its own element",
                      o->name, also,
                      !direct                   ? "% or //"
                      : ix->op == DSL_T_PERCENT ? "%"
                                                : "//");
    }
    if (k == IX_UNKNOWN && o->param && o->t == JT_FARR) { /* recorded and checked at run time */
        if (!o->pl[u->pno].racy) o->pl[u->pno].racy = o->racy = u->changed = true;
        u->race_checks = true;
    } else if (k == IX_UNKNOWN) {
        u->race = true;
        return refuse(u, c, at,
                      "the prange loop's iterations write %s%s at an index whose values the "
                      "compiler cannot follow from the loop's variable, and they run at once on "
                      "their own threads: write it at a position that is the iteration's own "
                      "(i, or an index made from it by to_index and index_to_position)",
                      o->name, also);
    }
    return prange_access(u, c, o, ix, at);
}

static int store(struct unit *u, struct cfn *c, const struct dsl_node *target, const char *value,
                 enum jt vt, const struct dsl_node *at, const struct dsl_node *from)
{
    if (vt == JT_NONE) return refuse(u, c, at, "assigning what returns None");
    if (target->kind == DSL_N_NAME) {
        struct var *v;
        struct var *src = NULL;
        if (from && from->kind == DSL_N_NAME && (ints(vt) || vt == JT_FARR)) { /* another name */
            src = find_var(c, from->name);
            if (src && src->buflen && !src->escapes) src->escapes = u->changed = true;
        }
        /* an array name stands for one array: what it writes is recorded (for backward, the
         * copy back from a GPU, the race records) as that array's */
        const struct var *old = src && vt != JT_ITUP ? find_var(c, target->name) : NULL;
        const char *root = src ? (src->alias_of ? src->alias_of : src->name) : NULL;
        if (old && (old->t == JT_FARR || old->t == JT_IARR) && strcmp(root, target->name) != 0 &&
            (old->param || old->buflen || (old->alias_of && strcmp(old->alias_of, root) != 0)))
            return refuse(u, c, at, "%s given two different arrays (%s, then %s)", target->name,
                          old->alias_of ? old->alias_of : target->name, root);
        if (assign_var(u, c, at, target->name, vt, 0, &v) != 0) return -1;
        if (src && !v->alias_of) { /* its memory is the first name's: an iteration's, or not */
            v->alias_of = src->alias_of ? src->alias_of : src->name;
            u->changed = true;
        }
        if (src && u->in_prange && v->in_loop && shared_mem(src) && !v->alias_shared)
            v->alias_shared = u->changed = true;
        if (u->in_prange && expr_dep(c, from)) set_dep(u, v);
        if (u->in_prange && numeric(vt)) index_assigned(u, c, v, from);
        emit(u, "v_%s = %s;", target->name, value);
        return 0;
    }
    struct var *sv = target->kind == DSL_N_INDEX ? shared_of(c, target) : NULL;
    if (sv) {
        static const char *const el[] = {
            ['d'] = "double", ['f'] = "float", ['i'] = "int32_t", ['l'] = "int64_t"};
        if (!numeric(vt)) return refuse(u, c, at, "storing a %s", jt_name[vt]);
        if ((sv->sh_dt == 'i' || sv->sh_dt == 'l') && vt == JT_FLOAT)
            return refuse(u, c, at, "storing a float into %s, an int array", sv->name);
        struct render_buf k;
        render_buf_init(&k, 0);
        int r = shared_index(u, c, target, sv, &k);
        if (r == 0 && u->target == JIT_GPU)
            emit(u, "{ %s w_ = (%s)(%s); v_%s[%s] = w_; }", el[(int)sv->sh_dt], el[(int)sv->sh_dt],
                 value, sv->name, k.data);
        else if (r == 0)
            emit(u,
                 "{ %s w_ = (%s)(%s); int64_t k_ = %s; if (jit_sh_write(env, %lld + k_, %lldLL, "
                 "\"%s\", k_, %d, %lld + k_ * %d)) goto JIT_FAIL; v_%s[k_] = w_; }",
                 el[(int)sv->sh_dt], el[(int)sv->sh_dt], value, k.data, (long long)sv->sh_base,
                 loc(c, at), sv->name, access_site(u, c, target, 3, shared_size(sv), sv->name),
                 (long long)sv->sh_off, shared_size(sv), sv->name);
        render_buf_free(&k);
        return r;
    }
    if (target->kind == DSL_N_INDEX && target->nkids == 1) {
        struct ex a, i;
        ex_init(&a);
        ex_init(&i);
        int r = expr(u, c, target->a, &a);
        if (r == 0) r = expr(u, c, target->kids[0], &i);
        if (r == 0 && a.t != JT_FARR && a.t != JT_IARR) /* a tuple too: Python's TypeError */
            r = refuse(u, c, at, "assigning into a %s", jt_name[a.t]);
        if (r == 0 && i.t != JT_INT && i.t != JT_BOOL)
            r = refuse(u, c, at, "an index that is a %s", jt_name[i.t]);
        if (r == 0 && !numeric(vt)) r = refuse(u, c, at, "storing a %s", jt_name[vt]);
        if (r == 0 && a.t == JT_IARR && vt == JT_FLOAT)
            r = refuse(u, c, at, "storing a float into an int array");
        struct var *lv = target->a->kind == DSL_N_NAME ? find_var(c, target->a->name) : NULL;
        if (r == 0 && lv) r = prange_write(u, c, lv, at, target->kids[0], NULL, false);
        if (r == 0 && lv) mark_written(u, c, lv);
        c->may_fail = true;
        /* the value first, then the index, as Python evaluates them; where either may have
         * failed and gone on (a division by zero), nothing is stored, as in Python */
        const char *held = u->soft_fail ? " if (env->failed) goto JIT_FAIL;" : "";
        struct var *pv = lv && !lv->param && lv->alias_of ? find_var(c, lv->alias_of) : lv;
        const char *an = target->a->kind == DSL_N_NAME ? target->a->name : "an array";
        if (r == 0 && promoted(u, target))
            emit(u, "{ float w_ = (float)(%s);%s pv%d = w_; }", value, held, u->pr_id);
        else if (r == 0 && elided(u, target))
            emit(u, "{ float w_ = (float)(%s);%s (%s).p[%s] = w_; }", value, held, a.s.data,
                 i.s.data);
        else if (r == 0 && lv && lv->buflen &&
                 !lv->escapes) /* a local array: note how far written */
            emit(u,
                 "{ int64_t w_ = (int64_t)(%s), k_ = CHK(%s, (%s).n, %lldLL, \"%s\");%s "
                 "(%s).p[k_] = w_; if (k_ >= d_%s) d_%s = k_ + 1; }",
                 value, i.s.data, a.s.data, loc(c, at), lv->name, held, a.s.data, lv->name,
                 lv->name);
        else if (r == 0 && u->in_prange && pv && pv->param && pv->t == JT_FARR) {
            /* a storage the iterations share: who writes is recorded where a store's index
             * is not known to be the iteration's own (racy), or under check_races */
            int arg = (int)(pv - c->vars);
            emit(u,
                 "{ float w_ = (float)(%s); int64_t k_ = CHK(%s, (%s).n, %lldLL, \"%s\");%s "
                 "RACE%s(%d, k_, (%s).n, %s%s, %lldLL, \"%s\"); (%s).p[k_] = w_; }",
                 value, i.s.data, a.s.data, loc(c, at), lv->name, held,
                 pv->pl[u->pno].racy ? "_ALWAYS" : "", arg, a.s.data, ITERATION(u), loc(c, at),
                 pv->name, a.s.data);
        } else if (r == 0 && u->target == JIT_SIM && a.t == JT_FARR) {
            /* the simulator records who writes each element of a Storage: two threads that
             * nothing orders writing one is a race */
            emit(u,
                 "{ float w_ = (float)(%s); int64_t k_ = CHK(%s, (%s).n, %lldLL, \"%s\");%s "
                 "if (jit_gwrite(env, (%s).p, k_, %lldLL, \"%s\")) goto JIT_FAIL; "
                 "*jit_gmem(env, %d, &(%s).p[k_]) = w_; }",
                 value, i.s.data, a.s.data, loc(c, at), an, held, a.s.data, loc(c, at), an,
                 access_site(u, c, target, 1, 4, an), a.s.data);
        } else if (r == 0 && *held) {
            emit(u,
                 "{ %s w_ = (%s)(%s); int64_t k_ = CHK(%s, (%s).n, %lldLL, \"%s\");%s "
                 "(%s).p[k_] = w_; }",
                 a.t == JT_FARR ? "float" : "int64_t", a.t == JT_FARR ? "float" : "int64_t", value,
                 i.s.data, a.s.data, loc(c, at), an, held, a.s.data);
        } else if (r == 0)
            emit(u, "{ %s w_ = (%s)(%s); (%s).p[CHK(%s, (%s).n, %lldLL, \"%s\")] = w_; }",
                 a.t == JT_FARR ? "float" : "int64_t", a.t == JT_FARR ? "float" : "int64_t", value,
                 a.s.data, i.s.data, a.s.data, loc(c, at), an);
        ex_free(&a);
        ex_free(&i);
        return r;
    }
    return refuse(u, c, at, "assigning to this target");
}

static bool is_prange(const struct dsl_node *callee)
{
    return (callee->kind == DSL_N_NAME || callee->kind == DSL_N_ATTR) &&
           strcmp(callee->name, "prange") == 0;
}

/* The loop i<k> = 0 .. e<k> - 1 of a for statement n, the body emitted between the two calls.
 * A loop with loops inside polls the interrupt (and another thread's error) at every
 * iteration, two loads of memory: an inner loop that does not poll may be long, and loops
 * nested three deep multiply their counts. The innermost loop runs in blocks of 65536
 * iterations, polled between blocks, so that its own body holds no test: one there would keep
 * the C compiler from vectorising the loop, from taking what does not change out of it and
 * from keeping the element it accumulates into in a register. `break` then leaves both loops,
 * by a label. A quiet innermost loop, as long as an int array (a shape, strides, an index
 * buffer: memory the session holds) or a small constant, does not poll: its count bounds its
 * time, and without the poll it cannot fail, nor can the index helpers made of such loops. */
static void strip_open(struct unit *u, const struct dsl_node *n, int k, bool quiet)
{
    if (quiet || has_loop(n->b)) {
        emit(u, "for (int64_t i%d = 0; i%d < e%d; i%d++) {", k, k, k, k);
        u->loop_depth++;
        if (has_loop(n->b)) emit(u, "if (jit_cancelled(env)) goto JIT_FAIL;");
        u->brk = -1;
        return;
    }
    emit(u, "for (int64_t i%d = 0; i%d < e%d;) {", k, k, k);
    u->loop_depth++;
    emit(u, "if (i%d && jit_cancelled(env)) goto JIT_FAIL;", k);
    emit(u, "int64_t b%d = e%d - i%d > 65536 ? i%d + 65536 : e%d;", k, k, k, k, k);
    emit(u, "for (; i%d < b%d; i%d++) {", k, k, k);
    u->loop_depth++;
    u->brk = k;
}

static void strip_close(struct unit *u, const struct dsl_node *n, int k, bool quiet)
{
    u->loop_depth--;
    emit(u, "}");
    if (!quiet && !has_loop(n->b)) {
        u->loop_depth--;
        emit(u, "}");
        emit(u, "brk%d:;", k);
    }
}

/* Whether a break or continue is in n (a loop's body without loops inside). */
static bool has_jump(const struct dsl_node *n)
{
    if (!n) return false;
    if (n->kind == DSL_N_BREAK || n->kind == DSL_N_CONTINUE) return true;
    if (has_jump(n->b)) return true;
    for (size_t i = 0; i < n->nkids; i++)
        if (has_jump(n->kids[i])) return true;
    return false;
}

/* The iterations of a quiet loop run as straight code before the loop itself. A shape or
 * strides has a few elements, and the C compiler does not unroll a loop whose count it does not
 * know: index_to_position in a reduce's inner loop then paid a loop's set-up and counter at
 * every element (bench/results/jit-*). */
#define PEEL 3

/* The body of the loop n (ids k; i<k> < e<k>), each iteration beginning with head, which sets
 * its variables from i<k>. A quiet loop without loops, break or continue inside first runs PEEL
 * iterations, each under its own test of the count, then the loop the rest. */
static int loop_body(struct unit *u, struct cfn *c, const struct dsl_node *n, int k, bool quiet,
                     const char *head)
{
    int brk = u->brk, r = 0;
    if (quiet && !has_loop(n->b) && !has_jump(n->b)) {
        emit(u, "int64_t i%d = 0;", k);
        for (int p = 0; p < PEEL && r == 0; p++) {
            emit(u, "if (i%d < e%d) {", k, k);
            u->loop_depth++;
            emit(u, "%s", head);
            r = block(u, c, n->b);
            emit(u, "i%d++;", k);
        }
        emit(u, "for (; i%d < e%d; i%d++) {", k, k, k);
        u->loop_depth++;
        emit(u, "%s", head);
        if (r == 0) r = block(u, c, n->b);
        for (int p = 0; p <= PEEL; p++) {
            u->loop_depth--;
            emit(u, "}");
        }
        return r;
    }
    strip_open(u, n, k, quiet);
    emit(u, "%s", head);
    r = block(u, c, n->b);
    strip_close(u, n, k, quiet);
    u->brk = brk;
    return r;
}

/* The body of a range loop (ids k: r<k> + i<k> * t<k> for i<k> < e<k>; a loop's C names are a
 * letter and its number, and none is f<n>, which names the unit's compiled functions). */
static int range_body(struct unit *u, struct cfn *c, const struct dsl_node *n, int k, bool quiet)
{
    struct render_buf head;
    render_buf_init(&head, 0);
    render_buf_printf(&head, "v_%s = r%d + i%d * t%d;", n->name, k, k, k);
    int r =
        head.nomem ? dsl_raise_status(u->in, DSL_V_NOMEM) : loop_body(u, c, n, k, quiet, head.data);
    render_buf_free(&head);
    return r;
}

/* The range loop n, with the element it reads and writes at every iteration in the local
 * pv<k> when that is safe at run time (see promotable), else as written (a copy of its own:
 * k2, whose counts are those of k). */
static int range_promoted(struct unit *u, struct cfn *c, const struct dsl_node *n, int k,
                          const struct promo *p, bool quiet)
{
    struct ex a, x;
    ex_init(&a);
    ex_init(&x);
    int r = expr(
        u, c, &(struct dsl_node){.kind = DSL_N_NAME, .pos = n->pos, .name = (char *)p->at[0].arr},
        &a);
    if (r == 0) r = expr(u, c, p->at[0].ix, &x);
    if (r == 0) {
        const char *A = a.s.data;
        emit(u, "int64_t x%d = %s;", k, x.s.data);
        emit(u, "x%d += (%s).n & (x%d >> 63);", k, A, k);
        struct render_buf cond;
        render_buf_init(&cond, 0);
        render_buf_printf(&cond, "e%d > 0 && (uint64_t)x%d < (uint64_t)(%s).n", k, k, A);
        for (int i = 1; i < p->n && r == 0; i++) {
            struct ex b;
            ex_init(&b);
            r = expr(
                u, c,
                &(struct dsl_node){.kind = DSL_N_NAME, .pos = n->pos, .name = (char *)p->at[i].arr},
                &b);
            if (r == 0)
                render_buf_printf(&cond,
                                  " && (uintptr_t)((%s).p + x%d) - (uintptr_t)(%s).p >= "
                                  "(uintptr_t)(%s).n * sizeof(float)",
                                  A, k, b.s.data, b.s.data);
            ex_free(&b);
        }
        if (r == 0) {
            char fail[sizeof u->fail];
            memcpy(fail, u->fail, sizeof fail);
            emit(u, "if (%s) {", cond.data);
            u->loop_depth++;
            emit(u, "float pv%d = (%s).p[x%d];", k, A, k);
            emit(u, "#undef JIT_FAIL");
            emit(u, "#define JIT_FAIL pw%d", k);
            snprintf(u->fail, sizeof u->fail, "pw%d", k);
            u->pr_arr = p->at[0].arr;
            u->pr_ix = p->at[0].ix;
            u->pr_id = k;
            r = range_body(u, c, n, k, quiet);
            u->pr_arr = NULL;
            memcpy(u->fail, fail, sizeof fail);
            if (u->target == JIT_SIM) /* the write the loop made, recorded (store) */
                emit(u, "if (jit_gwrite(env, (%s).p, x%d, %lldLL, \"%s\")) goto %s;", A, k,
                     loc(c, n), p->at[0].arr, fail);
            emit(u, "(%s).p[x%d] = pv%d;", A, k, k);
            emit(u, "if (0) { pw%d: (%s).p[x%d] = pv%d; goto %s; }", k, A, k, k, fail);
            emit(u, "#undef JIT_FAIL");
            emit(u, "#define JIT_FAIL %s", fail);
            u->loop_depth--;
            emit(u, "} else {");
            u->loop_depth++;
            int k2 = u->tmp++;
            emit(u, "int64_t r%d = r%d, t%d = t%d, e%d = e%d;", k2, k, k2, k, k2, k);
            if (r == 0) r = range_body(u, c, n, k2, quiet);
            u->loop_depth--;
            emit(u, "}");
        }
        render_buf_free(&cond);
    }
    ex_free(&a);
    ex_free(&x);
    return r;
}

/* for x in arr, for a, b in zip(xs, ys, ...), for i, x in enumerate(xs): over arrays, as many
 * iterations as the shortest has elements. */
static int for_each(struct unit *u, struct cfn *c, const struct dsl_node *n)
{
    const struct dsl_node *it = n->a;
    struct dsl_node *const *names = n->name ? NULL : n->kids[0]->kids;
    size_t ntargets = n->name ? 1 : n->kids[0]->nkids;
    const struct dsl_node *const *arrays = &it;
    size_t narrays = 1;
    bool counted = false; /* enumerate: the first target is the count */
    if (it->kind == DSL_N_CALL && it->a->kind == DSL_N_NAME && !it->nkw && !it->flag &&
        !find_var(c, it->a->name) && !outer_value(u, c, it->a->name)) {
        counted = strcmp(it->a->name, "enumerate") == 0 && it->nkids == 1;
        if (counted || strcmp(it->a->name, "zip") == 0) {
            arrays = (const struct dsl_node *const *)(void *)it->kids;
            narrays = it->nkids;
        }
    }
    if (narrays == 0 || narrays > MAX_ARGS || ntargets != narrays + counted)
        return refuse(u, c, n, "this for loop's targets");
    for (size_t i = 0; i < ntargets; i++)
        if (names && names[i]->kind != DSL_N_NAME)
            return refuse(u, c, n, "a for loop target that is not a name");
    struct ex a[MAX_ARGS];
    for (size_t i = 0; i < narrays; i++) ex_init(&a[i]);
    int r = 0, k = u->tmp++;
    for (size_t i = 0; i < narrays && r == 0; i++) {
        r = expr(u, c, arrays[i], &a[i]);
        if (r == 0 && a[i].t != JT_FARR && !ints(a[i].t))
            r = refuse(u, c, n, "a for loop over a %s", jt_name[a[i].t]);
        if (r == 0) r = read_whole(u, c, arrays[i], n); /* every element: others' too */
    }
    for (size_t i = 0; i < ntargets && r == 0; i++) {
        struct var *v;
        enum jt t = counted && i == 0 ? JT_INT : a[i - counted].t == JT_FARR ? JT_FLOAT : JT_INT;
        r = assign_var(u, c, n, names ? names[i]->name : n->name, t, 0, &v);
        /* an element of an array that follows from the loop's variable does too */
        if (r == 0 && u->in_prange && !(counted && i == 0) && expr_dep(c, arrays[i - counted]))
            set_dep(u, v);
    }
    /* as many iterations as the shortest array has elements: an int array bounds them */
    bool quiet = false;
    for (size_t i = 0; i < narrays && r == 0; i++) quiet = quiet || ints(a[i].t);
    if (!quiet || has_loop(n->b)) c->may_fail = true; /* a loop polls the interrupt */
    if (r == 0) {
        emit(u, "{");
        emit(u, "int64_t e%d = (%s).n;", k, a[0].s.data);
        for (size_t i = 1; i < narrays; i++)
            emit(u, "if ((%s).n < e%d) e%d = (%s).n;", a[i].s.data, k, k, a[i].s.data);
        struct render_buf head;
        render_buf_init(&head, 0);
        if (counted) render_buf_printf(&head, "v_%s = i%d; ", names[0]->name, k);
        for (size_t i = 0; i < narrays; i++)
            render_buf_printf(&head, "v_%s = (%s).p[i%d]; ",
                              names ? names[i + counted]->name : n->name, a[i].s.data, k);
        r = head.nomem ? dsl_raise_status(u->in, DSL_V_NOMEM)
                       : loop_body(u, c, n, k, quiet, head.data);
        render_buf_free(&head);
        emit(u, "}");
    }
    for (size_t i = 0; i < narrays; i++) ex_free(&a[i]);
    return r;
}

/* Collects, in the subtree n of a statement, the accesses storage[i] (i the prange loop's
 * variable, the storage a parameter) that run whenever the statement does: not under the
 * condition of `a if c else b`, `and` or `or`. */
static void collect_accesses(struct unit *u, struct cfn *c, const struct dsl_node *n,
                             const char *var)
{
    if (!n || n->kind == DSL_N_COND || n->kind == DSL_N_AND || n->kind == DSL_N_OR) return;
    if (n->kind == DSL_N_INDEX && n->nkids == 1 && n->kids[0]->kind == DSL_N_NAME &&
        strcmp(n->kids[0]->name, var) == 0 && n->a->kind == DSL_N_NAME) {
        const struct var *v = find_var(c, n->a->name);
        if (v && v->param && v->t == JT_FARR && u->nelide < 16) u->elide[u->nelide++] = n;
        return;
    }
    collect_accesses(u, c, n->a, var);
    collect_accesses(u, c, n->b, var);
    for (size_t i = 0; i < n->nkids; i++) collect_accesses(u, c, n->kids[i], var);
}

static bool has_continue(const struct dsl_node *n)
{
    if (!n || n->kind == DSL_N_FOR || n->kind == DSL_N_WHILE) return false;
    if (n->kind == DSL_N_CONTINUE) return true;
    if (has_continue(n->b)) return true;
    for (size_t i = 0; i < n->nkids; i++)
        if (has_continue(n->kids[i])) return true;
    return false;
}

/* The stride-aligned shortcut of the course's map (`out[i] = fn(in_storage[i])` over
 * prange(len(out))) is a loop the C compiler vectorises, unless every access is checked. In
 * the body of `for i in prange(n)`, when i is not assigned there and no `continue` skips
 * statements, an access storage[i] in a statement of the body's own (not under an if or a
 * loop) runs at every iteration: each chunk checks once that its last i is inside the storage,
 * and raises the IndexError the first access out of it would (the same index and size; in a
 * parallel loop, which failing iteration's error is raised is not fixed anyway). */
static void unchecked_accesses(struct unit *u, struct cfn *c, const struct dsl_node *n)
{
    u->nelide = 0;
    if (u->fns[0].f->jit_races || u->race_checks) return; /* every write is recorded */
    if (n->a->nkids != 1 || assigns(n->b, n->name) || has_continue(n->b)) return;
    for (size_t i = 0; i < n->b->nkids; i++) {
        const struct dsl_node *st = n->b->kids[i];
        if (st->kind == DSL_N_ASSIGN || st->kind == DSL_N_AUG || st->kind == DSL_N_EXPR)
            collect_accesses(u, c, st, n->name);
    }
}

/* Whether n, an int, lies within a few times the length of the int arrays it is made of
 * (len(shape) - 1, -1): small constants, len() of an int array, + and -. */
static bool small_int(struct unit *u, struct cfn *c, const struct dsl_node *n)
{
    switch (n->kind) {
    case DSL_N_CONST:
        return n->value.kind == DSL_INT && n->value.as.i >= -65536 && n->value.as.i <= 65536;
    case DSL_N_UNARY: return n->op == DSL_T_MINUS && small_int(u, c, n->a);
    case DSL_N_BINARY:
        return (n->op == DSL_T_PLUS || n->op == DSL_T_MINUS) && small_int(u, c, n->a) &&
               small_int(u, c, n->b);
    case DSL_N_CALL: {
        const struct var *v = n->nkids == 1 && !n->nkw && !n->flag && n->kids[0]->kind == DSL_N_NAME
                                  ? find_var(c, n->kids[0]->name)
                                  : NULL;
        return v && ints(v->t) && n->a->kind == DSL_N_NAME && strcmp(n->a->name, "len") == 0 &&
               !find_var(c, "len") && !outer_value(u, c, "len");
    }
    default: return false;
    }
}

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

static bool jam_has(const char *const *list, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(list[i], name) == 0) return true;
    return false;
}

/* Whether expression n is made of what cannot fail and writes nothing (names, numbers, + - *,
 * comparisons, a if c else b, element reads), every name of the copies in it already assigned
 * in the iteration (def), and its storage reads noted in j. */
static bool jam_expr(struct cfn *c, const struct dsl_node *n, struct jam *j, const char *const *def,
                     int ndef)
{
    switch (n->kind) {
    case DSL_N_CONST: return n->value.kind == DSL_INT || n->value.kind == DSL_FLOAT;
    case DSL_N_NAME: return !jam_has(j->names, j->nnames, n->name) || jam_has(def, ndef, n->name);
    case DSL_N_UNARY:
        return (n->op == DSL_T_MINUS || n->op == DSL_T_PLUS) && jam_expr(c, n->a, j, def, ndef);
    case DSL_N_BINARY:
        return (n->op == DSL_T_PLUS || n->op == DSL_T_MINUS || n->op == DSL_T_STAR) &&
               jam_expr(c, n->a, j, def, ndef) && jam_expr(c, n->b, j, def, ndef);
    case DSL_N_COND:
        return jam_expr(c, n->a, j, def, ndef) && jam_expr(c, n->b, j, def, ndef) &&
               jam_expr(c, n->kids[0], j, def, ndef);
    case DSL_N_COMPARE:
        for (size_t i = 0; i + 1 < n->nkids; i++)
            if (n->ops[i] != DSL_T_LT && n->ops[i] != DSL_T_LE && n->ops[i] != DSL_T_GT &&
                n->ops[i] != DSL_T_GE && n->ops[i] != DSL_T_EQ && n->ops[i] != DSL_T_NE)
                return false;
        for (size_t i = 0; i < n->nkids; i++)
            if (!jam_expr(c, n->kids[i], j, def, ndef)) return false;
        return true;
    case DSL_N_INDEX: {
        if (n->a->kind != DSL_N_NAME || n->nkids != 1 || !jam_expr(c, n->kids[0], j, def, ndef) ||
            jam_has(j->names, j->nnames, n->a->name))
            return false;
        const struct var *v = find_var(c, n->a->name);
        if (!v || (v->t != JT_FARR && !ints(v->t))) return false;
        if (v->t == JT_FARR && !jam_has(j->read, j->nread, n->a->name)) {
            if (j->nread == MAX_ARGS) return false;
            j->read[j->nread++] = n->a->name;
        }
        return true;
    }
    default: return false;
    }
}

/* The names statement n assigns (a name, or an augmented name), added to j->names. */
static bool jam_target(const struct dsl_node *n, struct jam *j)
{
    const char *name = NULL;
    if (n->kind == DSL_N_ASSIGN && n->nkids == 1 && n->kids[0]->kind == DSL_N_NAME)
        name = n->kids[0]->name;
    else if (n->kind == DSL_N_AUG && n->a->kind == DSL_N_NAME)
        name = n->a->name;
    else if (n->kind == DSL_N_FOR)
        name = n->name;
    if (!name || jam_has(j->names, j->nnames, name)) return true;
    if (j->nnames == JAM_NAMES) return false;
    j->names[j->nnames++] = name;
    return true;
}

/* One statement of the group (not the inner loop): an assignment of a name, an augmented
 * assignment of one (+ - *), or, after the inner loop, a store into a storage. */
static bool jam_stmt(struct cfn *c, const struct dsl_node *n, struct jam *j, const char **def,
                     int *ndef, bool after)
{
    if (n->kind == DSL_N_PASS) return true;
    const char *name = NULL;
    if (n->kind == DSL_N_AUG) {
        if (n->a->kind != DSL_N_NAME ||
            (n->op != DSL_T_PLUS && n->op != DSL_T_MINUS && n->op != DSL_T_STAR) ||
            !jam_has(def, *ndef, n->a->name) || !jam_expr(c, n->b, j, def, *ndef))
            return false;
        return true;
    }
    if (n->kind != DSL_N_ASSIGN || n->nkids != 1 || !jam_expr(c, n->a, j, def, *ndef)) return false;
    const struct dsl_node *t = n->kids[0];
    if (t->kind == DSL_N_NAME) {
        name = t->name;
    } else if (t->kind == DSL_N_INDEX && after && t->a->kind == DSL_N_NAME && t->nkids == 1 &&
               jam_expr(c, t->kids[0], j, def, *ndef)) {
        const struct var *v = find_var(c, t->a->name);
        if (!v || v->t != JT_FARR || jam_has(j->names, j->nnames, t->a->name)) return false;
        if (!jam_has(j->wrote, j->nwrote, t->a->name)) {
            if (j->nwrote == MAX_ARGS) return false;
            j->wrote[j->nwrote++] = t->a->name;
        }
        return true;
    } else {
        return false;
    }
    const struct var *v = find_var(c, name); /* none yet the first time it is compiled */
    if (v && (v->t == JT_FARR || v->reduce)) return false;
    if (!jam_has(def, *ndef, name)) def[(*ndef)++] = name;
    return true;
}

/* Whether the range loop n runs its iterations in groups (see above): its body, statements of
 * jam_stmt around one inner `for k in range(...)` whose body is made of them too (no stores),
 * every variable of theirs assigned before it is read in an iteration, the inner loop's count
 * the same in every iteration. */
static bool jam_plan(struct unit *u, struct cfn *c, const struct dsl_node *n, struct jam *j)
{
    *j = (struct jam){0};
    if (c->f->jit_races || u->race_checks || !n->b || n->b->kind != DSL_N_BLOCK || has_jump(n->b) ||
        u->pr_arr)
        return false;
    /* the names each copy has: the loop's variable and all the body assigns */
    if (!jam_target(n, j)) return false;
    for (size_t i = 0; i < n->b->nkids; i++) {
        const struct dsl_node *s = n->b->kids[i];
        if (s->kind == DSL_N_FOR) {
            if (j->inner || !s->name || !s->b || has_loop(s->b)) return false;
            j->inner = s;
            if (!jam_target(s, j)) return false;
            for (size_t k = 0; k < s->b->nkids; k++)
                if (!jam_target(s->b->kids[k], j)) return false;
        } else if (!jam_target(s, j)) {
            return false;
        }
    }
    const struct dsl_node *m = j->inner;
    if (!m) return false;
    const struct dsl_node *it = m->a;
    if (it->kind != DSL_N_CALL || it->a->kind != DSL_N_NAME || strcmp(it->a->name, "range") != 0 ||
        find_var(c, "range") || outer_value(u, c, "range") || it->nkw || it->flag ||
        it->nkids < 1 || it->nkids > 2)
        return false;
    const char *def[JAM_NAMES];
    int ndef = 0;
    def[ndef++] = n->name;
    bool after = false;
    for (size_t i = 0; i < n->b->nkids; i++) {
        const struct dsl_node *s = n->b->kids[i];
        if (s != m) {
            if (!jam_stmt(c, s, j, def, &ndef, after)) return false;
            continue;
        }
        after = true;
        for (size_t k = 0; k < it->nkids; k++) /* the same count in every copy */
            if (!jam_expr(c, it->kids[k], j, NULL, 0)) return false;
        def[ndef++] = m->name;
        for (size_t k = 0; k < m->b->nkids; k++)
            if (!jam_stmt(c, m->b->kids[k], j, def, &ndef, false)) return false;
    }
    for (int i = 0; i < j->nwrote; i++)
        if (jam_has(j->read, j->nread, j->wrote[i])) return false;
    return true;
}

/* #define (on) or #undef (off) the names of copy g, which is not the last: the last copy has
 * the variables themselves, so that they hold the last iteration's values after the loop. A
 * copy's name, j<g>_<name>, is none of a user's variables (all v_<name>). */
static void jam_names(struct unit *u, const struct jam *j, int g, bool on)
{
    if (g == JAM - 1) return;
    for (int i = 0; i < j->nnames; i++)
        if (on)
            emit(u, "#define v_%s j%d_%s", j->names[i], g, j->names[i]);
        else
            emit(u, "#undef v_%s", j->names[i]);
}

/* The statements of the block n from index from to index to, for each copy in turn. */
static int jam_copies(struct unit *u, struct cfn *c, const struct jam *j, const struct dsl_node *n,
                      size_t from, size_t to)
{
    for (int g = 0; g < JAM; g++) {
        jam_names(u, j, g, true);
        for (size_t i = from; i < to; i++)
            if (stmt(u, c, n->kids[i]) != 0) return -1;
        jam_names(u, j, g, false);
    }
    return 0;
}

/* The range loop n (ids k: r<k>, t<k>, e<k> set) run in groups of JAM iterations, then as
 * written for those left (see jam_plan). */
static int range_jammed(struct unit *u, struct cfn *c, const struct dsl_node *n, int k,
                        const struct jam *j)
{
    const struct dsl_node *m = j->inner, *it = m->a;
    size_t mi = 0;
    while (n->b->kids[mi] != m) mi++;
    struct render_buf cond;
    render_buf_init(&cond, 0);
    render_buf_printf(&cond, "e%d >= %d", k, JAM);
    int r = 0;
    for (int w = 0; w < j->nwrote && r == 0; w++)
        for (int i = 0; i < j->nread && r == 0; i++) {
            struct ex a, b;
            ex_init(&a);
            ex_init(&b);
            r = expr(
                u, c,
                &(struct dsl_node){.kind = DSL_N_NAME, .pos = n->pos, .name = (char *)j->wrote[w]},
                &a);
            if (r == 0)
                r = expr(u, c,
                         &(struct dsl_node){
                             .kind = DSL_N_NAME, .pos = n->pos, .name = (char *)j->read[i]},
                         &b);
            if (r == 0) /* the memory of the one written, apart from that of the one read */
                render_buf_printf(&cond,
                                  " && ((uintptr_t)((%s).p + (%s).n) <= (uintptr_t)(%s).p || "
                                  "(uintptr_t)((%s).p + (%s).n) <= (uintptr_t)(%s).p)",
                                  a.s.data, a.s.data, b.s.data, b.s.data, b.s.data, a.s.data);
            ex_free(&a);
            ex_free(&b);
        }
    struct ex lim[2];
    ex_init(&lim[0]);
    ex_init(&lim[1]);
    for (size_t i = 0; i < it->nkids && r == 0; i++) {
        r = expr(u, c, it->kids[i], &lim[i]);
        if (r == 0 && lim[i].t != JT_INT && lim[i].t != JT_BOOL)
            r = refuse(u, c, it, "range() of a %s", jt_name[lim[i].t]);
    }
    if (r == 0 && cond.nomem) r = dsl_raise_status(u->in, DSL_V_NOMEM);
    if (r == 0) {
        int q = u->tmp++;
        for (int g = 0; g < JAM - 1; g++) {
            struct render_buf d;
            render_buf_init(&d, 0);
            for (int i = 0; i < j->nnames; i++)
                render_buf_printf(&d, "__typeof__(v_%s) j%d_%s = v_%s; ", j->names[i], g,
                                  j->names[i], j->names[i]);
            emit(u, "%s", d.data ? d.data : "");
            render_buf_free(&d);
        }
        emit(u, "int64_t i%d = 0;", k);
        emit(u, "if (%s) {", cond.data);
        u->loop_depth++;
        emit(u, "#undef JIT_OOB");
        emit(u, "#define JIT_OOB(where, j, n, what) goto jam%d", k);
        emit(u, "for (; i%d + %d < e%d; i%d += %d) {", k, JAM - 1, k, k, JAM);
        u->loop_depth++;
        emit(u, "if (((i%d + %d) & 65535) < %d && jit_cancelled(env)) goto JIT_FAIL;", k, JAM, JAM);
        for (int g = 0; g < JAM; g++) {
            jam_names(u, j, g, true);
            emit(u, "v_%s = r%d + (i%d + %d) * t%d;", n->name, k, k, g, k);
            jam_names(u, j, g, false);
        }
        r = jam_copies(u, c, j, n->b, 0, mi);
        struct var *mv;
        if (r == 0) r = assign_var(u, c, m, m->name, JT_INT, 0, &mv); /* as for_loop's */
        if (r == 0 && u->in_prange && expr_dep(c, it)) set_dep(u, mv);
        /* the inner loop, once, its body in each copy; polled between blocks as strip_open's */
        bool loop = c->top && u->in_prange;
        if (loop && ++u->nest > u->max_nest) u->max_nest = u->nest;
        emit(u, "{");
        emit(u, "int64_t r%d = %s, s%d = %s;", q, it->nkids == 2 ? lim[0].s.data : "0", q,
             it->nkids == 2 ? lim[1].s.data : lim[0].s.data);
        emit(u, "int64_t e%d = s%d > r%d ? s%d - r%d : 0;", q, q, q, q, q);
        emit(u, "for (int64_t i%d = 0; i%d < e%d;) {", q, q, q);
        u->loop_depth++;
        emit(u, "if (i%d && jit_cancelled(env)) goto JIT_FAIL;", q);
        emit(u, "int64_t b%d = e%d - i%d > 65536 ? i%d + 65536 : e%d;", q, q, q, q, q);
        emit(u, "for (; i%d < b%d; i%d++) {", q, q, q);
        u->loop_depth++;
        for (int g = 0; g < JAM && r == 0; g++) {
            jam_names(u, j, g, true);
            emit(u, "v_%s = r%d + i%d;", m->name, q, q);
            r = block(u, c, m->b);
            jam_names(u, j, g, false);
        }
        u->loop_depth -= 2;
        emit(u, "}");
        emit(u, "}");
        emit(u, "}");
        u->nest -= loop;
        if (r == 0) r = jam_copies(u, c, j, n->b, mi + 1, n->b->nkids);
        u->loop_depth--;
        emit(u, "}");
        emit(u, "#undef JIT_OOB");
        emit(u, "#define JIT_OOB(where, j, n, what) JIT_OOB_FAIL(where, j, n, what)");
        u->loop_depth--;
        emit(u, "}");
        emit(u, "jam%d:;", k);
        /* the iterations left, as written */
        emit(u, "for (; i%d < e%d; i%d++) {", k, k, k);
        u->loop_depth++;
        emit(u, "if (((i%d + 1) & 65535) == 0 && jit_cancelled(env)) goto JIT_FAIL;", k);
        emit(u, "v_%s = r%d + i%d * t%d;", n->name, k, k, k);
        int brk = u->brk;
        u->brk = -1;
        if (r == 0) r = block(u, c, n->b);
        u->brk = brk;
        u->loop_depth--;
        emit(u, "}");
        if (u->emitting && !u->jams++) {
            u->jam_line = n;
            u->jam_fn = c->f;
        }
    }
    ex_free(&lim[0]);
    ex_free(&lim[1]);
    render_buf_free(&cond);
    return r;
}

/* The first read, in n (a statement or an expression of a prange loop's body), of a variable
 * first assigned in a prange loop that this iteration may not have assigned yet, or NULL. In
 * Python such a read sees the value an earlier iteration left; here iterations run at once on
 * their own threads, each with variables of its own. *d: the variables (bits of c->vars) every
 * path so far has assigned; after a statement, those every path through it has. */
static const struct dsl_node *unset_read(struct cfn *c, const struct dsl_node *n, uint64_t *d)
{
    const struct dsl_node *r = NULL;
    if (!n) return NULL;
    switch (n->kind) {
    case DSL_N_NAME: {
        const struct var *v = find_var(c, n->name);
        size_t i = v ? (size_t)(v - c->vars) : 0;
        return v && v->in_loop && !v->reduce && !(*d >> i & 1) ? n : NULL;
    }
    case DSL_N_ASSIGN:
    case DSL_N_FOR:
        if ((r = unset_read(c, n->a, d))) return r;
        for (size_t i = 0; n->kind == DSL_N_ASSIGN && i < n->nkids; i++) {
            const struct dsl_node *t = n->kids[i];
            bool many = t->kind == DSL_N_TUPLE; /* a, b = ...: each item a target */
            for (size_t j = 0; j < (many ? t->nkids : 1); j++) {
                const struct dsl_node *x = many ? t->kids[j] : t;
                const struct var *v = x->kind == DSL_N_NAME ? find_var(c, x->name) : NULL;
                if (v)
                    *d |= UINT64_C(1) << (v - c->vars);
                else if (x->kind != DSL_N_NAME && (r = unset_read(c, x, d)))
                    return r;
            }
        }
        if (n->kind == DSL_N_FOR) { /* the body may not run: what it assigns, not after it */
            uint64_t in = *d;
            const struct dsl_node *t = n->name ? NULL : n->nkids ? n->kids[0] : NULL;
            for (size_t j = 0; j < (t ? t->nkids : 1); j++) { /* for i / for d, s in ... */
                const char *name =
                    t ? t->kids[j]->kind == DSL_N_NAME ? t->kids[j]->name : NULL : n->name;
                const struct var *v = name ? find_var(c, name) : NULL;
                if (v) in |= UINT64_C(1) << (v - c->vars);
            }
            return unset_read(c, n->b, &in);
        }
        return NULL;
    case DSL_N_WHILE: {
        if ((r = unset_read(c, n->a, d))) return r;
        uint64_t in = *d;
        return unset_read(c, n->b, &in);
    }
    case DSL_N_IF: {
        uint64_t all = ~UINT64_C(0);
        for (size_t i = 0; i + 1 < n->nkids; i += 2) {
            if ((r = unset_read(c, n->kids[i], d))) return r;
            uint64_t in = *d;
            if ((r = unset_read(c, n->kids[i + 1], &in))) return r;
            all &= in;
        }
        uint64_t in = *d;
        if (n->b && (r = unset_read(c, n->b, &in))) return r;
        *d = all & in;
        return NULL;
    }
    case DSL_N_BLOCK:
        for (size_t i = 0; i < n->nkids; i++) {
            if ((r = unset_read(c, n->kids[i], d))) return r;
            enum dsl_node_kind k = n->kids[i]->kind;
            if (k == DSL_N_BREAK || k == DSL_N_CONTINUE || k == DSL_N_RETURN || k == DSL_N_RAISE)
                *d = ~UINT64_C(0); /* what follows does not run: no path out of the block */
        }
        return NULL;
    case DSL_N_CALL: /* the callee is not a read of a variable of the loop */
        for (size_t i = 0; i < n->nkids; i++)
            if ((r = unset_read(c, n->kids[i], d))) return r;
        for (size_t i = 0; i < n->nkw; i++)
            if ((r = unset_read(c, n->kwvals[i], d))) return r;
        return n->a->kind == DSL_N_NAME ? NULL : unset_read(c, n->a, d);
    case DSL_N_DEF:
    case DSL_N_CLASS:
    case DSL_N_LISTCOMP:
    case DSL_N_DICTCOMP:
    case DSL_N_GENEXP: return NULL; /* names of their own (the compiler takes none of them) */
    default:
        if ((r = unset_read(c, n->a, d)) || (r = unset_read(c, n->b, d))) return r;
        for (size_t i = 0; i < n->nkids; i++)
            if ((r = unset_read(c, n->kids[i], d))) return r;
        return NULL;
    }
}

/* The slot of the prange loop at pos among the function's (var.pl), the same in every pass. */
static int prange_slot(struct unit *u, size_t pos)
{
    for (int i = 0; i < u->npl; i++)
        if (u->pl_pos[i] == pos) return i;
    if (u->npl == MAX_PRANGE) return MAX_PRANGE - 1;
    u->pl_pos[u->npl] = pos;
    return u->npl++;
}

static int for_loop(struct unit *u, struct cfn *c, const struct dsl_node *n)
{
    const struct dsl_node *it = n->a;
    bool over_range =
        it->kind == DSL_N_CALL &&
        ((it->a->kind == DSL_N_NAME && strcmp(it->a->name, "range") == 0) || is_prange(it->a));
    if (!over_range || !n->name) return for_each(u, c, n);
    /* a range over an int array's indices (to_index's) is quiet, as a loop over the array is */
    bool quiet = !is_prange(it->a) && it->nkids >= 1 && it->nkids <= 3 && !it->nkw && !it->flag;
    for (size_t i = 0; quiet && i < it->nkids && i < 2; i++) quiet = small_int(u, c, it->kids[i]);
    if (quiet && it->nkids == 3) { /* a step that is a constant, so never 0 */
        const struct dsl_node *t = it->kids[2];
        if (t->kind == DSL_N_UNARY && t->op == DSL_T_MINUS) t = t->a;
        quiet = t->kind == DSL_N_CONST && t->value.kind == DSL_INT && t->value.as.i != 0;
    }
    if (!quiet || has_loop(n->b)) c->may_fail = true; /* a loop polls the interrupt */
    if (it->kind != DSL_N_CALL || it->nkw || it->flag || it->nkids < 1 || it->nkids > 3 ||
        (it->a->kind == DSL_N_NAME && strcmp(it->a->name, "range") != 0 && !is_prange(it->a)) ||
        (it->a->kind != DSL_N_NAME && !is_prange(it->a)))
        return refuse(u, c, n, "a for loop over anything but range() or prange()");
    struct ex a[3];
    int na = (int)it->nkids, r = 0;
    for (int i = 0; i < 3; i++) ex_init(&a[i]);
    for (int i = 0; i < na && r == 0; i++) {
        r = expr(u, c, it->kids[i], &a[i]);
        if (r == 0 && a[i].t != JT_INT && a[i].t != JT_BOOL)
            r = refuse(u, c, it, "range() of a %s", jt_name[a[i].t]);
    }
    const char *start = na >= 2 ? a[0].s.data : "0", *stop = na >= 2 ? a[1].s.data : a[0].s.data;
    const char *step = na == 3 ? a[2].s.data : "1";
    bool parallel = r == 0 && c->top && is_prange(it->a) && !u->in_prange && na < 3;
    int k = u->tmp++;
    if (r == 0 && parallel) {
        struct var *v;
        /* light: an iteration runs no loop, in this body or in a function it calls (known from
         * the passes before the one that emits) */
        bool light = !has_loop(n->b);
        for (int i = 0; i < u->ncalls_loops; i++) light = light && u->calls_loops[i] != n->pos;
        if (u->emitting && u->nprange < MAX_PRANGE) {
            u->prange_light[u->nprange] = light;
            u->prange_pos[u->nprange++] = n->pos;
        }
        u->cur_prange = n->pos;
        u->pno = prange_slot(u, n->pos);
        u->prange_body = n->b;
        u->in_prange = true;
        u->prange_var = n->name;
        for (int i = 0; i < c->nvars; i++) c->vars[i].fills = 0; /* none passed yet */
        u->prange_head = true;
        r = assign_var(u, c, n, n->name, JT_INT, 0, &v);
        u->prange_head = false;
        if (r == 0) set_dep(u, v);
        uint64_t assigned = r == 0 ? UINT64_C(1) << (v - c->vars) : 0;
        const struct dsl_node *unset = r == 0 ? unset_read(c, n->b, &assigned) : NULL;
        if (unset) {
            u->race = true;
            r = refuse(u, c, unset,
                       "%s is read in an iteration of the prange loop that may not have given it "
                       "a value: in Python it would hold what an earlier iteration left, but the "
                       "iterations run at once on their own threads, each with variables of its "
                       "own. Give %s a value in every iteration before reading it (%s = 0 at the "
                       "top of the loop's body)",
                       unset->name, unset->name, unset->name);
        }
        if (r == 0) {
            emit(u, "{");
            emit(u, "int64_t s%d = %s, e%d = %s;", k, start, k, stop);
            if (u->soft_fail) emit(u, "if (env->failed) goto JIT_FAIL;"); /* no iteration */
            /* chunks of up to JIT_CHUNK iterations (JIT_CHUNK_LIGHT where an iteration runs
             * no loop), at least 8 per thread when there are fewer (a batch loop of 2 still
             * runs on 2 threads); a loop of more than 2**63 - 1 iterations runs that many,
             * which no machine finishes, and nothing here overflows */
            emit(u,
                 "int64_t l%d = e%d > s%d ? ((uint64_t)e%d - (uint64_t)s%d > "
                 "(uint64_t)JIT_INT64_MAX ? JIT_INT64_MAX : e%d - s%d) : 0, "
                 "w%d = 8 * env->threads;",
                 k, k, k, k, k, k, k, k);
            emit(u, "int64_t h%d = l%d / w%d + (l%d %% w%d != 0);", k, k, k, k, k);
            emit(u, "if (h%d > %s) h%d = %s;", k, light ? "JIT_CHUNK_LIGHT" : "JIT_CHUNK", k,
                 light ? "JIT_CHUNK_LIGHT" : "JIT_CHUNK");
            emit(u, "if (h%d < 1) h%d = 1;", k, k);
            emit(u, "int64_t n%d = l%d / h%d + (l%d %% h%d != 0);", k, k, k, k, k);
            {
                /* The function's variables the loop reads (none of them can be assigned in it:
                 * assign_var) are each thread's own copies, not the shared originals OpenMP
                 * reaches through a pointer: the compiler then keeps a shape or a stride in a
                 * register instead of reading it again after every store of an int64 index,
                 * which might have changed it. An array's copy points at the same elements. */
                struct render_buf clause;
                render_buf_init(&clause, 0);
                for (int i = 0; i < c->nvars; i++) {
                    const struct var *rv = &c->vars[i];
                    if (rv->reduce)
                        render_buf_printf(&clause, " reduction(%c:v_%s)", rv->reduce, rv->name);
                }
                const char *sep = " firstprivate(";
                for (int i = 0; i < c->nvars; i++) {
                    const struct var *rv = &c->vars[i];
                    if (!rv->in_loop && !rv->reduce && rv->t != JT_NONE) {
                        render_buf_printf(&clause, "%sv_%s", sep, rv->name);
                        sep = ", ";
                    }
                }
                if (*sep == ',') render_buf_puts(&clause, ")");
                /* a short loop of light iterations costs less on one thread than the
                 * threads' start and join (far less on a machine busy with other work) */
                bool heavy = has_loop(n->b);
                char cond[64] = "";
                if (!heavy) snprintf(cond, sizeof cond, " if(l%d >= 256)", k);
                if (clause.nomem) r = dsl_raise_status(u->in, DSL_V_NOMEM);
                /* what the iterations write and read is recorded anew for each run of the
                 * loop: a run before (another prange loop, or this one in an earlier round of
                 * a loop around it) is over */
                for (int i = 0; i < c->nvars; i++) {
                    const struct var *rv = &c->vars[i];
                    if (rv->param && rv->t == JT_FARR &&
                        (rv->pl[u->pno].racy || (c->f->jit_races && rv->written)))
                        emit(u,
                             "if (env->shadow[%d]) __builtin_memset(env->shadow[%d], 0xff, "
                             "(uint64_t)v_%s.n * 2 * sizeof(int64_t));",
                             i, i, rv->name);
                }
                emit(u, "#pragma omp parallel num_threads(env->threads)%s%s", cond,
                     clause.data ? clause.data : "");
                render_buf_free(&clause);
            }
            /* each thread its run of chunks, as OpenMP's static schedule deals them, in a loop
             * of its own that an interrupt or an error ends at once (OpenMP's loops cannot
             * end early: the chunks left would each be skipped in turn) */
            emit(u, "{");
            u->loop_depth++;
            emit(u, "int64_t T%d = JIT_NUM_THREADS(), t%d = JIT_THREAD_NUM();", k, k);
            emit(u, "int64_t c%d = t%d * (n%d / T%d) + (t%d < n%d %% T%d ? t%d : n%d %% T%d);", k,
                 k, k, k, k, k, k, k, k, k);
            emit(u, "int64_t g%d = c%d + n%d / T%d + (t%d < n%d %% T%d);", k, k, k, k, k, k, k);
            emit(u, "for (; c%d < g%d; c%d++) {", k, k, k);
            u->loop_depth++;
            emit(u, "if (jit_cancelled(env)) break;");
            emit(u, "@PRIVATE@");
            emit(u, "int64_t a%d = c%d * h%d, z%d = s%d + (l%d - a%d > h%d ? a%d + h%d : l%d);", k,
                 k, k, k, k, k, k, k, k, k, k);
            unchecked_accesses(u, c, n);
            for (int i = 0; i < u->nelide; i++) { /* once per storage */
                const char *arr = u->elide[i]->a->name;
                bool seen = false;
                for (int j = 0; j < i && !seen; j++) seen = strcmp(u->elide[j]->a->name, arr) == 0;
                if (!seen)
                    emit(u,
                         "if (z%d > v_%s.n) { jit_fail(env, 1, %lldLL, s%d + a%d > v_%s.n ? "
                         "s%d + a%d : v_%s.n, v_%s.n, \"%s\"); goto pfail%d; }",
                         k, arr, loc(c, u->elide[i]), k, k, arr, k, k, arr, arr, arr, k);
            }
            /* an iteration that assigns the loop's variable changes its own copy, as in
             * Python, never the count of the iterations its thread has left */
            u->prange_count[0] = 0;
            if (assigns(n->b, n->name)) {
                snprintf(u->prange_count, sizeof u->prange_count, "q%d", k);
                emit(u, "for (int64_t q%d = s%d + a%d; q%d < z%d; q%d++) {", k, k, k, k, k, k);
            } else {
                emit(u, "for (v_%s = s%d + a%d; v_%s < z%d; v_%s++) {", n->name, k, k, n->name, k,
                     n->name);
            }
            u->loop_depth++;
            if (u->prange_count[0]) emit(u, "v_%s = q%d;", n->name, k);
            emit(u, "#undef JIT_FAIL");
            emit(u, "#define JIT_FAIL pfail%d", k);
            snprintf(u->fail, sizeof u->fail, "pfail%d", k);
            int brk = u->brk;
            u->brk = -2; /* the iterations run on their own threads: none can end the others */
            r = block(u, c, n->b);
            u->brk = brk;
            u->nelide = 0;
            u->loop_depth--;
            emit(u, "}");
            emit(u, "continue;");
            emit(u, "pfail%d:", k);
            emit(u, "break;");
            emit(u, "#undef JIT_FAIL");
            emit(u, "#define JIT_FAIL fail");
            snprintf(u->fail, sizeof u->fail, "fail");
            u->loop_depth--;
            emit(u, "}");
            u->loop_depth--;
            emit(u, "}");
            emit(u, "if (env->failed) goto JIT_FAIL;");
            emit(u, "}");
        }
        u->in_prange = false;
    } else if (r == 0) {
        struct var *v;
        r = assign_var(u, c, n, n->name, JT_INT, 0, &v);
        if (r == 0 && u->in_prange && expr_dep(c, it)) set_dep(u, v);
        if (r == 0) {
            emit(u, "{");
            emit(u, "int64_t r%d = %s, s%d = %s, t%d = %s;", k, start, k, stop, k, step);
            if (u->soft_fail) emit(u, "if (env->failed) goto JIT_FAIL;"); /* no iteration */
            emit(u, "if (t%d == 0) { jit_fail(env, 3, %lldLL, 0, 0, \"range\"); goto JIT_FAIL; }",
                 k, loc(c, it));
            /* the number of iterations, in unsigned arithmetic: no overflow at the ends; past
             * 2**63 - 1 (range(-2**62, 2**62)), that many, which no machine finishes */
            emit(u,
                 "uint64_t u%d = t%d > 0 ? (r%d < s%d ? ((uint64_t)s%d - (uint64_t)r%d - 1) / "
                 "(uint64_t)t%d + 1 : 0) : (r%d > s%d ? ((uint64_t)r%d - (uint64_t)s%d - 1) / "
                 "(0 - (uint64_t)t%d) + 1 : 0);",
                 k, k, k, k, k, k, k, k, k, k, k, k);
            emit(u, "int64_t e%d = u%d > (uint64_t)JIT_INT64_MAX ? JIT_INT64_MAX : (int64_t)u%d;",
                 k, k, k);
            struct promo p;
            struct jam j;
            bool jam = jam_plan(u, c, n, &j);
            u->jam_cand = u->jam_cand || jam;
            if (jam && u->jam_on)
                r = range_jammed(u, c, n, k, &j);
            else if (!u->pr_arr && !c->f->jit_races && !u->race_checks && promotable(c, n, &p) == 0)
                r = range_promoted(u, c, n, k, &p, quiet);
            else
                r = range_body(u, c, n, k, quiet);
            emit(u, "}");
        }
    }
    for (int i = 0; i < 3; i++) ex_free(&a[i]);
    return r;
}

static int stmt_body(struct unit *u, struct cfn *c, const struct dsl_node *n);

/* name = cuda.shared.array(shape, dtype): memory of the block, shape a constant or a tuple of
 * two (an int, or a name given an int once). Nothing runs there: the array is the block's
 * for the whole kernel, as CUDA declares it. */
static int shared_array(struct unit *u, struct cfn *c, const struct dsl_node *n)
{
    const struct dsl_node *call = n->a, *shape = call->nkids ? call->kids[0] : NULL;
    const struct dsl_node *dtype = call->nkids > 1 ? call->kids[1] : NULL;
    for (size_t i = 0; i < call->nkw; i++) {
        if (strcmp(call->kwnames[i], "shape") == 0) shape = call->kwvals[i];
        if (strcmp(call->kwnames[i], "dtype") == 0) dtype = call->kwvals[i];
    }
    if (u->target == JIT_HOST) return refuse(u, c, n, "cuda.shared.array outside a kernel");
    char dt = dtype ? dtype_code(u, c, dtype) : 0;
    if (!shape || !dt || call->flag)
        return refuse(u, c, n, "cuda.shared.array(shape, dtype) with a dtype of numba or numpy");
    int64_t dim[2] = {0, 0};
    int nd = 1;
    if (shape->kind == DSL_N_TUPLE) {
        nd = (int)shape->nkids;
        if (nd < 1 || nd > 2) return refuse(u, c, n, "a shared array of %d dims", nd);
        for (int d = 0; d < nd; d++) dim[d] = const_int(u, c, shape->kids[d]);
    } else {
        dim[0] = const_int(u, c, shape);
        dim[1] = 1;
    }
    int64_t count = dim[0] * dim[1], size = dt == 'f' || dt == 'i' ? 4 : 8;
    if (dim[0] <= 0 || dim[1] <= 0 || count > (1 << 16))
        return refuse(u, c, n,
                      "a shared array whose shape is not a constant (up to 65536 elements)");
    const char *name = n->kids[0]->name;
    struct var *v = find_var(c, name);
    if (v && (v->t != JT_SARR || v->sh_dt != dt || v->sh_nd != nd || v->sh_dim[0] != dim[0] ||
              v->sh_dim[1] != dim[1]))
        return refuse(u, c, n, "%s given two different arrays", name);
    if (v) return 0;
    if (assign_var(u, c, n, name, JT_SARR, 0, &v) != 0) return -1;
    v->sh_dt = dt;
    v->sh_nd = nd;
    v->sh_dim[0] = dim[0];
    v->sh_dim[1] = dim[1];
    v->sh_off = u->sh_bytes;
    v->sh_base = u->sh_elems;
    u->sh_bytes += (count * size + 15) / 16 * 16;
    u->sh_elems += count;
    return 0;
}

static int stmt(struct unit *u, struct cfn *c, const struct dsl_node *n)
{
    bool soft = u->soft_fail;
    u->soft_fail = false;
    bool loop = c->top && u->in_prange && (n->kind == DSL_N_FOR || n->kind == DSL_N_WHILE);
    if (loop && ++u->nest > u->max_nest) u->max_nest = u->nest;
    int r = stmt_body(u, c, n);
    u->nest -= loop;
    /* what set env->failed and went on is caught here, before anything else runs (the
     * conditions of if and while: at the end of the statement) */
    if (r == 0 && u->soft_fail) emit(u, "if (env->failed) goto JIT_FAIL;");
    u->soft_fail = soft;
    return r;
}

static int stmt_body(struct unit *u, struct cfn *c, const struct dsl_node *n)
{
    int r = 0;
    switch (n->kind) {
    case DSL_N_PASS: return 0;
    case DSL_N_EXPR: {
        if (n->a->kind == DSL_N_CONST && n->a->value.kind == DSL_STR) return 0; /* docstring */
        struct ex e;
        ex_init(&e);
        r = n->a->kind == DSL_N_CALL ? expr(u, c, n->a, &e)
                                     : refuse(u, c, n, "an expression statement");
        if (r == 0) emit(u, "(void)(%s);", e.s.data);
        ex_free(&e);
        break;
    }
    case DSL_N_ASSIGN: {
        if (n->nkids != 1) return refuse(u, c, n, "chained assignment");
        const struct dsl_node *t = n->kids[0];
        if (t->kind == DSL_N_NAME && n->a->kind == DSL_N_CALL &&
            cuda_member(u, c, n->a->a, "shared") && strcmp(n->a->a->name, "array") == 0)
            return shared_array(u, c, n);
        int64_t len = t->kind == DSL_N_NAME ? array_literal(u, c, n->a) : 0;
        if (len < 0) return -1;
        if (len) {
            struct var *v;
            if (assign_var(u, c, n, t->name, JT_IARR, len, &v) != 0) return -1;
            if (!v->made) v->made = n;
            /* a new array of zeros: the elements written since the last one are cleared */
            if (v->escapes)
                emit(u, "memset(b_%s, 0, sizeof b_%s);", t->name, t->name);
            else
                emit(u, "memset(b_%s, 0, d_%s * sizeof *b_%s); d_%s = 0;", t->name, t->name,
                     t->name, t->name);
            break;
        }
        struct ex e;
        ex_init(&e);
        r = expr(u, c, n->a, &e);
        if (r == 0) r = store(u, c, t, e.s.data, e.t, n, n->a);
        ex_free(&e);
        break;
    }
    case DSL_N_AUG: {
        struct dsl_node bin = {
            .kind = DSL_N_BINARY, .pos = n->pos, .op = n->op, .a = n->a, .b = n->b};
        struct ex e;
        ex_init(&e);
        struct var *v = n->a->kind == DSL_N_NAME ? find_var(c, n->a->name) : NULL;
        char op = n->op == DSL_T_PLUS ? '+' : n->op == DSL_T_STAR ? '*' : 0;
        if (v && u->in_prange && !v->in_loop && op && numeric(v->t)) {
            /* acc += x[i] in a prange loop: a reduction, as Numba makes it; each thread sums
             * its own part from 0 (1 for *=), the parts are added to acc when the loop ends */
            if (v->reduce && v->reduce != op) {
                u->race = true;
                r = refuse(u, c, n, "%s is reduced with both += and *= in the prange loop",
                           v->name);
            } else if (!v->reduce) {
                v->reduce = op;
                u->changed = true;
            }
            u->aug = v->name;
            if (r == 0) r = binary(u, c, &bin, &e);
            u->aug = NULL;
            if (r == 0 && join(v->t, e.t) != v->t)
                r = refuse(u, c, n, "%s, an int, reduced with a float", v->name);
            if (r == 0) emit(u, "v_%s = %s;", v->name, e.s.data);
        } else {
            r = binary(u, c, &bin, &e);
            if (r == 0) r = store(u, c, n->a, e.s.data, e.t, n, n);
        }
        ex_free(&e);
        break;
    }
    case DSL_N_IF: {
        int opened = 0; /* blocks opened to test a condition's failure before its branch */
        for (size_t i = 0; i + 1 < n->nkids && r == 0; i += 2) {
            struct ex e;
            ex_init(&e);
            bool before = u->soft_fail;
            u->soft_fail = false;
            r = expr(u, c, n->kids[i], &e);
            bool fails = u->soft_fail;
            u->soft_fail = before || fails;
            if (r == 0 && !numeric(e.t))
                r = refuse(u, c, n, "a condition that is a %s", jt_name[e.t]);
            if (r == 0 && fails) { /* a condition that failed picks no branch, as in Python */
                int k = u->tmp++;
                emit(u, "%s{", i ? "} else " : "");
                emit(u, "%s c%d = (%s);", c_type[e.t], k, e.s.data);
                emit(u, "if (env->failed) goto JIT_FAIL;");
                emit(u, "if (c%d) {", k);
                opened++;
            } else if (r == 0) {
                emit(u, "%sif (%s) {", i ? "} else " : "", e.s.data);
            }
            if (r == 0) {
                u->loop_depth++;
                r = block(u, c, n->kids[i + 1]);
                u->loop_depth--;
            }
            ex_free(&e);
        }
        if (r == 0 && n->b) {
            emit(u, "} else {");
            u->loop_depth++;
            r = block(u, c, n->b);
            u->loop_depth--;
        }
        emit(u, "}");
        while (opened--) emit(u, "}");
        break;
    }
    case DSL_N_WHILE: {
        struct ex e;
        ex_init(&e);
        r = expr(u, c, n->a, &e);
        if (r == 0 && !numeric(e.t)) r = refuse(u, c, n, "a condition that is a %s", jt_name[e.t]);
        if (r == 0) {
            int k = u->tmp++, brk = u->brk;
            c->may_fail = true;
            u->brk = -1;
            emit(u, "{");
            emit(u, "int64_t q%d = 0;", k);
            if (u->soft_fail) { /* a condition that failed ends the loop there, as in Python */
                emit(u, "while (1) {");
                emit(u, "%s c%d = (%s);", c_type[e.t], k, e.s.data);
                emit(u, "if (env->failed) goto JIT_FAIL;");
                emit(u, "if (!c%d) break;", k);
            } else {
                emit(u, "while (%s) {", e.s.data);
            }
            u->loop_depth++;
            if (has_loop(n->b)) /* as strip_open's loops */
                emit(u, "if (jit_cancelled(env)) goto JIT_FAIL;");
            else
                emit(u, "if ((++q%d & 65535) == 0 && jit_cancelled(env)) goto JIT_FAIL;", k);
            r = block(u, c, n->b);
            u->loop_depth--;
            emit(u, "}");
            emit(u, "}");
            u->brk = brk;
        }
        ex_free(&e);
        break;
    }
    case DSL_N_FOR: return for_loop(u, c, n);
    case DSL_N_BREAK:
    case DSL_N_CONTINUE:
        if (n->kind == DSL_N_BREAK && u->brk == -2)
            return refuse(u, c, n, "break out of a prange loop");
        if (n->kind == DSL_N_BREAK && u->brk >= 0)
            emit(u, "goto brk%d;", u->brk);
        else
            emit(u, n->kind == DSL_N_BREAK ? "break;" : "continue;");
        return 0;
    case DSL_N_RETURN: {
        if (u->in_prange) return refuse(u, c, n, "return inside a prange loop");
        struct ex e;
        ex_init(&e);
        if (n->a && n->a->kind != DSL_N_CONST)
            r = expr(u, c, n->a, &e);
        else if (n->a && n->a->value.kind != DSL_NONE)
            r = expr(u, c, n->a, &e);
        if (r == 0 && e.t != JT_NONE && !numeric(e.t))
            r = refuse(u, c, n, "returning a %s", jt_name[e.t]);
        if (r == 0) {
            enum jt t = c->ret_seen ? join(c->ret, e.t) : e.t;
            if (c->ret_seen && (t == JT_NONE) != (c->ret == JT_NONE && e.t == JT_NONE))
                r = refuse(u, c, n, "returning a value on one path and none on another");
            if (r == 0 && t != c->ret) u->changed = true;
            c->ret = t;
            c->ret_seen = true;
        }
        if (r == 0) {
            if (c->top)
                emit(u, e.t == JT_NONE ? "return 0;" : "{ *(%s *)slots[%d] = %s; return 0; }",
                     c_type[c->ret], c->nargs, e.s.data);
            else
                emit(u, e.t == JT_NONE ? "return;" : "return %s;", e.s.data);
        }
        ex_free(&e);
        return r;
    }
    case DSL_N_RAISE: {
        /* in a kernel, raise E or E("message"): the thread stops with that error, which the
         * launch raises (the template's NotImplementedError) */
        const struct dsl_node *x = n->a;
        const struct dsl_node *cls = x && x->kind == DSL_N_CALL ? x->a : x;
        if (u->target == JIT_HOST || !cls || cls->kind != DSL_N_NAME || n->b ||
            (x->kind == DSL_N_CALL && (x->nkw || x->nkids > 1 ||
                                       (x->nkids == 1 && (x->kids[0]->kind != DSL_N_CONST ||
                                                          x->kids[0]->value.kind != DSL_STR)))))
            return refuse(u, c, n,
                          "this raise (a kernel raises an exception class with at most "
                          "a string)");
        int id = -1;
        for (int i = 0; i < u->nraises; i++)
            if (u->raises[i] == n) id = i;
        if (id < 0 && u->nraises == 16) return refuse(u, c, n, "more than 16 raise statements");
        if (id < 0) u->raises[id = u->nraises++] = n;
        c->may_fail = true;
        emit(u, "{ jit_fail(env, 15, %lldLL, %d, 0, \"raise\"); goto JIT_FAIL; }", loc(c, n), id);
        return 0;
    }
    default: return refuse(u, c, n, "this statement");
    }
    if (r == 0 && n->kind == DSL_N_EXPR) call_deps(u, c, n->a);
    return r;
}

static int block(struct unit *u, struct cfn *c, const struct dsl_node *n)
{
    for (size_t i = 0; i < n->nkids; i++)
        if (stmt(u, c, n->kids[i]) != 0) return -1;
    return 0;
}

/* ---- functions and the unit ------------------------------------------------------------- */

/* What a unit has of the C library, before anything else. tcc reads the system's headers. gcc
 * gets the functions a unit can call, declared as the C library declares them (its types and
 * builtins are gcc's own): reading <math.h> and the engine's header was a large part of each
 * gcc build of a matrix multiply's unit (bench/results/jit-*). A function emitted without a
 * declaration here does not compile (-Werror=implicit-function-declaration). */
static const char prelude_libc[] =
    "#ifdef __TINYC__\n"
    "#include <math.h>\n#include <stdint.h>\n#include <string.h>\n"
    "#define JIT_INF ((double)INFINITY)\n#define JIT_NAN ((double)NAN)\n"
    "#else\n"
    "typedef __INT64_TYPE__ int64_t;\ntypedef __UINT64_TYPE__ uint64_t;\n"
    "typedef __INT32_TYPE__ int32_t;\ntypedef __UINT32_TYPE__ uint32_t;\n"
    "typedef __UINTPTR_TYPE__ uintptr_t;\n"
    "#define INT64_C(c) c##LL\n"
    "double exp(double); double log(double); double floor(double); double fabs(double);\n"
    "double fmod(double, double); double pow(double, double); double copysign(double, double);\n"
    "float expf(float); float logf(float); float fabsf(float); float sqrtf(float);\n"
    "float tanhf(float);\n"
    "void *memset(void *, int, __SIZE_TYPE__);\n"
    "#define INFINITY (__builtin_inff())\n"
    "#define JIT_INF (__builtin_inf())\n#define JIT_NAN (__builtin_nan(\"\"))\n"
    "#define isinf(x) __builtin_isinf_sign(x)\n#define isfinite(x) __builtin_isfinite(x)\n"
    "#endif\n"
    /* how the prelude's and the compiled functions are declared: host C here, CUDA C in
     * prelude_cuda */
    "#define JIT_FN static inline\n"
    "#define JIT_COLD __attribute__((noinline, cold)) static\n"
    "#define JIT_INLINE static inline __attribute__((always_inline))\n"
    "#define JIT_PROTO static\n#define JIT_UNUSED __attribute__((unused))\n"
    "#define JIT_FAIL_MORE(e, what)\n";

/* What a kernel's unit begins with for NVRTC, in place of prelude_libc: the same names as
 * device code (math comes with NVRTC), and the thread a failure happened in recorded with it
 * (the host reads the error record back after the launch, the array's name as text). */
static const char prelude_cuda[] =
    "typedef long long int64_t;\ntypedef unsigned long long uint64_t;\ntypedef int int32_t;\n"
    "typedef unsigned int uint32_t;\ntypedef unsigned long long uintptr_t;\n"
    "#define INT64_C(c) c##LL\n#define _Bool bool\n"
    "#define INFINITY __int_as_float(0x7f800000)\n"
    "#define JIT_INF __longlong_as_double(0x7ff0000000000000LL)\n"
    "#define JIT_NAN __longlong_as_double(0x7ff8000000000000LL)\n"
    "#define JIT_FN static __device__ inline\n#define JIT_COLD static __device__ __noinline__\n"
    "#define JIT_INLINE static __device__ __forceinline__\n#define JIT_PROTO static __device__\n"
    "#define JIT_UNUSED\n"
    "#define JIT_FAIL_MORE(e, what) { \\\n"
    "    e->bid[0] = blockIdx.x; e->bid[1] = blockIdx.y; e->bid[2] = blockIdx.z; \\\n"
    "    e->tid[0] = threadIdx.x; e->tid[1] = threadIdx.y; e->tid[2] = threadIdx.z; \\\n"
    "    for (int i_ = 0; i_ < 31 && what && what[i_]; i_++) e->name[i_] = what[i_]; }\n";

/* What every unit has next (after the engine's scalar functions): its types, the error record
 * it shares with the kernel, Python's arithmetic, bounds checks. struct jit_env must match
 * struct env below. */
static const char prelude[] =
    "typedef struct { float *p; int64_t n; } farr;\n"
    "typedef struct { int64_t *p; int64_t n; } iarr;\n"
    "struct jit_env {\n"
    "    int threads; int failed;\n"
    "    int kind; long long where; int64_t index, size; const char *what;\n"
    "    const volatile unsigned char *stop;\n"
    "    int64_t other; int64_t **shadow;\n"
    "    int64_t grid[3], block[3], bid[3], tid[3], other_tid[3];\n"
    "    long long other_where;\n"
    "    char name[32];\n"
    "    char *shm; void *blk;\n"
    "    int counting; int64_t counted; double *stats;\n"
    "    char *(*stacks_take)(int, long); void (*stacks_give)(char *);\n"
    "    int ngw; struct jit_gw *gw;\n"
    "};\n"
    /* a parallel loop's chunks: between them the interrupt is polled and a thread sees another's
     * error; a loop whose iterations run no loop takes nanoseconds an iteration, and in chunks
     * of 1024 the chunks' own costs (the poll, the bounds check, the vectorised loop's set-up)
     * were a visible part of the map's stride-aligned shortcut (bench/results/jit-*) */
    "#define JIT_CHUNK 1024\n#define JIT_CHUNK_LIGHT 65536\n#define JIT_FAIL fail\n"
    "#define JIT_INT64_MAX INT64_C(9223372036854775807)\n"
    /* a prange loop's thread and their number (one, in tcc's serial build) */
    "#if defined(_OPENMP) && !defined(__CUDACC__)\n"
    "int omp_get_num_threads(void); int omp_get_thread_num(void);\n"
    "#define JIT_NUM_THREADS() omp_get_num_threads()\n#define JIT_THREAD_NUM() "
    "omp_get_thread_num()\n"
    "#else\n#define JIT_NUM_THREADS() 1\n#define JIT_THREAD_NUM() 0\n#endif\n"
    /* the first error of any thread is the one reported; tcc's quick build runs on one
     * thread, and has no atomics */
    "#if defined(__CUDACC__)\n"
    "#define JIT_CLAIM(p) (atomicCAS((p), 0, 1) == 0)\n"
    "#elif defined(__TINYC__)\n"
    "#define JIT_CLAIM(p) (*(p) ? 0 : (*(p) = 1))\n"
    "#else\n"
    "#define JIT_CLAIM(p) ({ int x_ = 0; __atomic_compare_exchange_n((p), &x_, 1, 0, \\\n"
    "                        __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); })\n"
    "#endif\n"
    "JIT_COLD void jit_fail(struct jit_env *e, int kind, long long where, int64_t index,\n"
    "                       int64_t size, const char *what)\n{\n"
    "    if (!JIT_CLAIM(&e->failed)) return;\n"
    "    e->kind = kind; e->where = where; e->index = index; e->size = size; e->what = what;\n"
    "    JIT_FAIL_MORE(e, what)\n"
    "}\n"
    /* a GPU's threads cannot ask the host: they stop at another's error only */
    "JIT_FN _Bool jit_cancelled(struct jit_env *e)\n{\n"
    "    if (e->failed) return 1;\n"
    "#ifndef __CUDACC__\n"
    "    if (!*e->stop) return 0;\n"
    "    jit_fail(e, 4, 0, 0, 0, \"\");\n    return 1;\n"
    "#else\n    return 0;\n#endif\n}\n"
    "#if defined(__CUDACC__)\n"
    /* a GPU's thread records the error and ends there (PTX's exit), as a bounds check of the
     * other targets leaves the function; the other threads go on */
    "JIT_FN int64_t jit_chk(struct jit_env *env, int64_t i, int64_t n, long long where,\n"
    "                       const char *what)\n{\n"
    "    if ((uint64_t)i < (uint64_t)n) return i;\n"
    "    int64_t j = i + (n & (i >> 63));\n"
    "    if ((uint64_t)j < (uint64_t)n) return j;\n"
    "    jit_fail(env, 1, where, i, n, what);\n    asm volatile(\"exit;\");\n    return 0;\n}\n"
    "#define CHK(i, n, where, what) jit_chk(env, (i), (n), (where), (what))\n"
    "#elif defined(JIT_UNCHECKED)\n"
    "#define CHK(i, n, where, what) ({ int64_t _n = (n), _j = (i); _j + (_n & (_j >> 63)); })\n"
    "#else\n"
    /* one compare where the index is in range: a negative one (from the end, as Python's) is
     * made positive on the path where that compare failed */
    "#define CHK(i, n, where, what) ({ int64_t _n = (n), _j = (i), _i = _j; \\\n"
    "    if (__builtin_expect((uint64_t)_i >= (uint64_t)_n, 0)) { \\\n"
    "        _i += _n & (_j >> 63); \\\n"
    "        if ((uint64_t)_i >= (uint64_t)_n) JIT_OOB(where, _j, _n, what); } _i; })\n"
    /* an index out of range: an IndexError, or, in a group of iterations (range_jammed), the
     * iterations in order */
    "#define JIT_OOB_FAIL(where, j, n, what) \\\n"
    "    do { jit_fail(env, 1, where, j, n, what); goto JIT_FAIL; } while (0)\n"
    "#define JIT_OOB(where, j, n, what) JIT_OOB_FAIL(where, j, n, what)\n"
    "#endif\n"
    /* each element's writer and reader recorded (a Storage of n elements: its writers, then
     * its readers, -2 for several): another iteration's write, or a write of what another
     * read, is the race; under check_races for every store and read of the prange loop into
     * a storage it writes, and always for those of a storage the compiler cannot show is
     * reached at the iteration's own element only (a unit with either waits for gcc, but
     * where tcc is the only compiler: its build runs on one thread, which needs no atomics).
     * Each side publishes itself before it looks at the other's record, so that of a write
     * and a read at once, one sees the other. */
    "#ifdef __TINYC__\n"
    "#define JIT_CAS(p, e, v) (*(p) == *(e) ? (*(p) = (v), 1) : (*(e) = *(p), 0))\n"
    "#define JIT_LOAD(p) (*(p))\n"
    "#define JIT_STORE(p, v) (*(p) = (v))\n"
    "#else\n"
    "#define JIT_CAS(p, e, v) __atomic_compare_exchange_n((p), (e), (v), 0, __ATOMIC_SEQ_CST, \\\n"
    "                                                  __ATOMIC_SEQ_CST)\n"
    "#define JIT_LOAD(p) __atomic_load_n((p), __ATOMIC_SEQ_CST)\n"
    "#define JIT_STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_SEQ_CST)\n"
    "#endif\n"
    "#define JIT_RACE_AT(kd, k, it, o, at, name) do { if (JIT_CLAIM(&env->failed)) { \\\n"
    "    env->kind = kd; env->where = at; env->index = (k); env->size = (it); \\\n"
    "    env->other = (o); env->what = name; } goto JIT_FAIL; } while (0)\n"
    "#define JIT_RECORD(arg, k, n, it, at, name) do { int64_t *s_ = env->shadow[arg], p_ = -1; \\\n"
    "    if (s_) { \\\n"
    "        if (!JIT_CAS(&s_[k], &p_, (it)) && p_ != (it)) \\\n"
    "            JIT_RACE_AT(7, k, it, p_, at, name); \\\n"
    "        p_ = JIT_LOAD(&s_[(n) + (k)]); \\\n"
    "        if (p_ != -1 && p_ != (it)) JIT_RACE_AT(20, k, it, p_, at, name); } } while (0)\n"
    "#define JIT_RECORD_READ(arg, k, n, it, at, name) do { \\\n"
    "    int64_t *s_ = env->shadow[arg], p_ = -1; \\\n"
    "    if (s_) { \\\n"
    "        if (!JIT_CAS(&s_[(n) + (k)], &p_, (it)) && p_ != (it) && p_ != -2) \\\n"
    "            JIT_STORE(&s_[(n) + (k)], -2); \\\n"
    "        p_ = JIT_LOAD(&s_[k]); \\\n"
    "        if (p_ != -1 && p_ != (it)) JIT_RACE_AT(20, k, it, p_, at, name); } } while (0)\n"
    "#ifdef JIT_RACES\n"
    "#define RACE(arg, k, n, it, at, name) JIT_RECORD(arg, k, n, it, at, name)\n"
    "#define RACE_READ(arg, k, n, it, at, name) JIT_RECORD_READ(arg, k, n, it, at, name)\n"
    "#else\n"
    "#define RACE(arg, k, n, it, at, name) ((void)0)\n"
    "#define RACE_READ(arg, k, n, it, at, name) ((void)0)\n"
    "#endif\n"
    "#define RACE_ALWAYS(arg, k, n, it, at, name) JIT_RECORD(arg, k, n, it, at, name)\n"
    "#define RACE_READ_ALWAYS(arg, k, n, it, at, name) JIT_RECORD_READ(arg, k, n, it, at, name)\n"
    /* the errors' words are Python's, as the interpreter's */
    /* the one quotient that does not fit, INT64_MIN // -1, is the interpreter's OverflowError
     * (the processor's division would trap on it); its remainder is 0 */
    "#define JIT_INT64_MIN (-INT64_C(9223372036854775807) - 1)\n"
    "JIT_FN int64_t py_div(struct jit_env *env, int64_t a, int64_t b, long long w)\n{\n"
    "    if (b == 0) {\n"
    "        jit_fail(env, 2, w, 0, 0, \"integer division or modulo by zero\");\n"
    "        return 0;\n"
    "    }\n"
    "    if (b == -1) {\n"
    "        if (a == JIT_INT64_MIN) { jit_fail(env, 16, w, 0, 0, \"//\"); return 0; }\n"
    "        return -a;\n    }\n"
    "    int64_t q = a / b; return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;\n}\n"
    "JIT_FN int64_t py_mod(struct jit_env *env, int64_t a, int64_t b, long long w)\n{\n"
    "    if (b == 0) { jit_fail(env, 2, w, 0, 0, \"integer modulo by zero\"); return 0; }\n"
    "    if (b == -1) return 0;\n"
    "    int64_t r = a % b; return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;\n}\n"
    /* a float's // and % as CPython's divmod computes them: floor(a / b) is off by one where
     * the division rounds up to a whole number (1.0 // 0.1 is 9.0), and zeros keep signs */
    "JIT_FN double pyf_div(struct jit_env *env, double a, double b, long long w)\n{\n"
    "    if (b == 0) { jit_fail(env, 2, w, 0, 0, \"float floor division by zero\"); return 0; }\n"
    "    double mod = fmod(a, b), div = (a - mod) / b;\n"
    "    if (mod != 0 && (b < 0) != (mod < 0)) div -= 1.0;\n"
    "    if (div == 0) return copysign(0.0, a / b);\n"
    "    double fl = floor(div);\n    return div - fl > 0.5 ? fl + 1.0 : fl;\n}\n"
    "JIT_FN double pyf_mod(struct jit_env *env, double a, double b, long long w)\n{\n"
    "    if (b == 0) { jit_fail(env, 2, w, 0, 0, \"float modulo by zero\"); return 0; }\n"
    "    double r = fmod(a, b);\n"
    "    if (r == 0) return copysign(0.0, b);\n"
    "    return (r < 0) != (b < 0) ? r + b : r;\n}\n"
    /* a float's ** with the interpreter's errors, where C's pow gives inf or nan */
    "JIT_FN double pyf_pow(struct jit_env *env, double a, double b, long long w)\n{\n"
    "    if (a == 0 && b < 0) {\n"
    "        jit_fail(env, 2, w, 0, 0, \"0.0 cannot be raised to a negative power\");\n"
    "        return 0;\n    }\n"
    "    if (a < 0 && isfinite(b) && b != floor(b)) {\n"
    "        jit_fail(env, 19, w, 0, 0, \"negative number cannot be raised to a fractional "
    "power\");\n"
    "        return 0;\n    }\n"
    "    double r = pow(a, b);\n"
    "    if (isinf(r) && isfinite(a) && isfinite(b)) {\n"
    "        jit_fail(env, 18, w, 0, 0, \"float power overflow: result too large\");\n"
    "        return 0;\n    }\n"
    "    return r;\n}\n"
    "JIT_FN double py_fdiv(struct jit_env *env, double a, double b, long long w,\n"
    "                             const char *what)\n{\n"
    "    if (b == 0) { jit_fail(env, 2, w, 0, 0, what); return 0; }\n    return a / b;\n}\n"
    "JIT_FN void jit_to_index(struct jit_env *env, int64_t ord, iarr shape, iarr out, long "
    "long "
    "w, int64_t *dirty)\n{\n"
    "    if (out.n < shape.n) { jit_fail(env, 1, w, shape.n - 1, out.n, \"out_index\"); return; }\n"
    "    if (dirty && *dirty < shape.n) *dirty = shape.n;\n"
    "    for (int64_t i = shape.n - 1; i >= 0; i--) {\n"
    "        int64_t sh = shape.p[i];\n"
    "        if (sh == 0) { jit_fail(env, 2, w, 0, 0, \"integer modulo by zero\"); return; }\n"
    "        out.p[i] = py_mod(env, ord, sh, w); ord = py_div(env, ord, sh, w);\n    }\n}\n"
    "JIT_FN void jit_broadcast_index(struct jit_env *env, iarr big_index, iarr big_shape,\n"
    "                                iarr shape, iarr out, long long w, int64_t *dirty)\n{\n"
    "    int64_t off = big_shape.n - shape.n;\n"
    "    if (out.n < shape.n || off < 0 || big_index.n < big_shape.n) {\n"
    "        jit_fail(env, 1, w, shape.n - 1, out.n, \"out_index\"); return; }\n"
    "    if (dirty && *dirty < shape.n) *dirty = shape.n;\n"
    "    for (int64_t i = 0; i < shape.n; i++) out.p[i] = shape.p[i] > 1 ? big_index.p[i + off] : "
    "0;\n"
    "}\n"
    /* MiniTorch's: the sum over zip(index, strides), as long as the shorter */
    "JIT_FN int64_t jit_index_to_position(struct jit_env *env, iarr index, iarr strides, "
    "long long w)\n{\n"
    "    (void)env, (void)w;\n"
    "    int64_t p = 0, n = index.n < strides.n ? index.n : strides.n;\n"
    "    for (int64_t i = 0; i < n; i++) p += index.p[i] * strides.p[i];\n"
    "    return p;\n}\n"
    /* a * b into *r, or 1 where the product does not fit in 64 bits (the quotient of the
     * wrapped product then differs from a: no builtin, which tcc lacks) */
    "JIT_FN int jit_mul_ovf(int64_t a, int64_t b, int64_t *r)\n{\n"
    "    if (a == 0 || b == 0) { *r = 0; return 0; }\n"
    "    if (b == -1) { if (a == JIT_INT64_MIN) return 1; *r = -a; return 0; }\n"
    "    int64_t q = (int64_t)((uint64_t)a * (uint64_t)b);\n"
    "    if (q / b != a) return 1;\n    *r = q; return 0;\n}\n"
    /* int ** int is the interpreter's: an OverflowError where the power does not fit, so that
     * range(2**63) is an error, not a loop of none */
    "JIT_FN int64_t py_ipow(struct jit_env *env, int64_t a, int64_t b, long long w)\n{\n"
    "    if (b < 0) { jit_fail(env, 14, w, b, 0, \"\"); return 0; }\n"
    "    int64_t r = 1;\n"
    "    for (;;) {\n"
    "        if ((b & 1) && jit_mul_ovf(r, a, &r)) break;\n"
    "        if ((b >>= 1) == 0) return r;\n"
    "        if (jit_mul_ovf(a, a, &a)) break;\n"
    "    }\n"
    "    jit_fail(env, 16, w, 0, 0, \"**\");\n    return 0;\n}\n"
    "JIT_FN int64_t jit_prod(iarr a)\n{\n"
    "    int64_t p = 1;\n    for (int64_t i = 0; i < a.n; i++) p *= a.p[i];\n    return p;\n}\n"
    "JIT_FN int64_t jit_array_equal(iarr a, iarr b)\n{\n"
    "    if (a.n != b.n) return 0;\n"
    "    for (int64_t i = 0; i < a.n; i++) if (a.p[i] != b.p[i]) return 0;\n    return 1;\n}\n"
    /* (a != b).any(), (a == b).all(): numpy's elementwise comparison of two int arrays, one
     * of length 1 broadcast; other lengths are numpy's ValueError */
    "JIT_FN int64_t jit_cmp_reduce(struct jit_env *env, iarr a, iarr b, int ne, int any,\n"
    "                                     long long w)\n{\n"
    "    int64_t n = a.n > b.n ? a.n : b.n;\n"
    "    if ((a.n != n && a.n != 1) || (b.n != n && b.n != 1)) {\n"
    "        jit_fail(env, 6, w, a.n, b.n, \"\"); return 0; }\n"
    "    for (int64_t i = 0; i < n; i++) {\n"
    "        int d = (a.p[a.n == 1 ? 0 : i] != b.p[b.n == 1 ? 0 : i]) == ne;\n"
    "        if (any ? d : !d) return any;\n    }\n"
    "    return !any;\n}\n"
    /* minitorch.operators' functions that can fail, as lib/modules.c computes them */
    "JIT_FN double jop_sigmoid(double x)\n{\n"
    "    return x >= 0 ? 1.0 / (1.0 + exp(-x)) : exp(x) / (1.0 + exp(x));\n}\n"
    "JIT_FN double jop_log(struct jit_env *env, double x, long long w)\n{\n"
    "    if (x + 1e-6 <= 0) { jit_fail(env, 8, w, 0, 0, \"\"); return 0; }\n"
    "    return log(x + 1e-6);\n}\n"
    "JIT_FN double jop_exp(struct jit_env *env, double x, long long w)\n{\n"
    "    double r = exp(x);\n"
    "    if (isinf(r) && isfinite(x)) { jit_fail(env, 9, w, 0, 0, \"\"); return 0; }\n"
    "    return r;\n}\n"
    "JIT_FN double jop_inv(struct jit_env *env, double x, long long w)\n{\n"
    "    if (x == 0) { jit_fail(env, 2, w, 0, 0, \"float division by zero\"); return 0; }\n"
    "    return 1.0 / x;\n}\n"
    "JIT_FN double jop_log_back(struct jit_env *env, double x, double d, long long w)\n{\n"
    "    if (x + 1e-6 == 0) { jit_fail(env, 2, w, 0, 0, \"float division by zero\"); return 0; }\n"
    "    return d / (x + 1e-6);\n}\n"
    "JIT_FN double jop_inv_back(struct jit_env *env, double x, double d, long long w)\n{\n"
    "    if (x == 0) { jit_fail(env, 2, w, 0, 0, \"float division by zero\"); return 0; }\n"
    "    return -(1.0 / (x * x)) * d;\n}\n"
    /* int() of a float as the builtin's: NaN a ValueError, what 64 bits cannot hold (an
     * infinity, 1e19) an OverflowError */
    "JIT_FN int64_t py_int(struct jit_env *env, double x, long long w)\n{\n"
    "    if (x != x) { jit_fail(env, 5, w, 0, 0, \"\"); return 0; }\n"
    "    if (!(x > -9223372036854777856.0 && x < 9223372036854775808.0)) {\n"
    "        jit_fail(env, 18, w, x < 0, 0, x - x == 0 ? \"float too large to convert to "
    "int64\" : \"cannot convert float infinity to integer\");\n"
    "        return 0;\n    }\n"
    "    return (int64_t)x;\n}\n";

struct env {
    int threads;
    int failed;
    int kind; /* 1 IndexError, 2 ZeroDivisionError, 3 range step 0, 4 interrupt, 5 int(nan),
               * 6 arrays of lengths that do not broadcast, 7 two iterations wrote one element,
               * 20 one iteration read an element another wrote */
    long long where;
    int64_t index, size;
    const char *what;
    const volatile unsigned char *stop; /* the cancel flag (mt_cancel_flag) */
    int64_t other;                      /* kinds 7, 20: the other iteration (-2 several) */
    int64_t **shadow; /* check_races: per parameter, the iteration that wrote each element */
    /* a cuda.jit kernel's launch; the block and thread that failed, and for a race or a
     * barrier the other thread and where it was; the array's name (from the GPU) */
    int64_t grid[3], block[3], bid[3], tid[3], other_tid[3];
    long long other_where;
    char name[32];
    char *shm;
    void *blk;
    /* the simulator's counts of each access site's warps: whether to count, the blocks
     * counted, and per site requests, transactions (sectors of 32 bytes; shared memory's
     * wavefronts) and the fewest those requests could have taken */
    int counting;
    int64_t counted;
    double *stats;
    /* the simulator's blocks' stacks, from the kernel's pool (sim_stacks_take) */
    char *(*stacks_take)(int n, long each);
    void (*stacks_give)(char *stacks);
    /* the simulator's record of global writes: for each Storage the kernel writes, the thread
     * that last wrote each element and the block's interval it did so in (jit_gwrite) */
    int ngw;
    struct gw {
        float *p;
        uint64_t *who; /* (block * 1024 + thread) + 1; 0: none yet */
        uint32_t *epoch;
    } * gw;
};

/* Declarations of c's locals (private: those of its prange loop, else the others). */
static void locals_text(const struct cfn *c, bool private, enum jit_target target,
                        struct render_buf *b)
{
    for (int i = 0; i < c->nvars; i++) {
        const struct var *v = &c->vars[i];
        if (v->param || v->in_loop != private || v->t == JT_NONE) continue;
        static const char *const el[] = {
            ['d'] = "double", ['f'] = "float", ['i'] = "int32_t", ['l'] = "int64_t"};
        if (v->t == JT_SARR && target == JIT_GPU)
            render_buf_printf(b, "__shared__ %s v_%s[%lld]; ", el[(int)v->sh_dt], v->name,
                              (long long)(v->sh_dim[0] * v->sh_dim[1]));
        else if (v->t == JT_SARR) /* the block's memory, where the simulator put it */
            render_buf_printf(b, "%s *v_%s = (%s *)(env->shm + %lld); ", el[(int)v->sh_dt], v->name,
                              el[(int)v->sh_dt], (long long)v->sh_off);
        else if (v->buflen)
            render_buf_printf(b,
                              "int64_t b_%s[%lld] = {0}; int64_t d_%s = 0; (void)d_%s; "
                              "iarr v_%s = {b_%s, %lld}; ",
                              v->name, (long long)v->buflen, v->name, v->name, v->name, v->name,
                              (long long)v->buflen);
        else
            render_buf_printf(b, "%s v_%s = %s; ", c_type[v->t], v->name,
                              ints(v->t) || v->t == JT_FARR ? "{0}" : "0");
    }
}

static int compile_fn(struct unit *u, const struct dsl_function *f, const enum jt *args, int nargs,
                      int *id)
{
    for (int i = 0; i < u->nfns; i++) {
        struct cfn *c = &u->fns[i];
        if (c->f == f && c->nargs == nargs && memcmp(c->args, args, sizeof *args * nargs) == 0) {
            if (!c->done) return refuse(u, c, f->def, "recursion (%s calls itself)", f->def->name);
            *id = i;
            return 0;
        }
    }
    const struct dsl_node *def = f->def;
    if (u->nfns == MAX_FNS) return refuse(u, &u->fns[0], def, "more than %d functions", MAX_FNS);
    if (def->star || def->dstar || def->nkw != (size_t)nargs || (size_t)nargs != def->nargs) {
        struct cfn tmp = {.f = f};
        return refuse(u, &tmp, def,
                      "%s() called with %d arguments (defaults, *args, keyword "
                      "parameters are not compiled)",
                      def->name, nargs);
    }
    int me = u->nfns++;
    struct cfn *c = &u->fns[me];
    *c = (struct cfn){.f = f,
                      .nargs = nargs,
                      .id = me,
                      .top = me == 0 && u->target == JIT_HOST,
                      .ret = JT_NONE,
                      .loops = has_loop(def->b)};
    memcpy(c->args, args, sizeof *args * nargs);
    for (int i = 0; i < nargs; i++) {
        if (args[i] == JT_NONE) return refuse(u, c, def, "an argument of no known type");
        c->vars[c->nvars++] = (struct var){.name = def->kwnames[i], .t = args[i], .param = true};
    }
    /* the caller's emission state, kept while this function is compiled */
    struct render_buf saved = u->out;
    int depth = u->loop_depth, brk = u->brk;
    bool in_prange = u->in_prange, emitting = u->emitting, changed = u->changed;
    int r = 0;
    for (int pass = 0; r == 0; pass++) { /* types widen until they settle, then emit */
        bool final = !u->changed && pass > 0;
        render_buf_init(&u->out, 0);
        u->loop_depth = 0;
        u->brk = -1;
        snprintf(u->fail, sizeof u->fail, "fail");
        u->pr_arr = NULL;
        u->nelide = 0;
        u->in_prange = false;
        u->emitting = final;
        u->changed = false;
        if (!final) c->ret_seen = false;
        r = block(u, c, def->b);
        if (r == 0 && final) break;
        if (pass == 8) r = refuse(u, c, def, "types that do not settle");
        render_buf_free(&u->out);
    }
    if (r == 0 && me == 0 && u->target != JIT_HOST && c->ret != JT_NONE)
        r = refuse(u, c, def,
                   "a kernel that returns a value (a kernel writes its results into "
                   "arrays)");
    if (r == 0) {
        struct render_buf h, priv;
        render_buf_init(&h, 0);
        render_buf_init(&priv, 0);
        locals_text(c, true, u->target, &priv);
        if (c->top) {
            render_buf_puts(&h, "int jit_entry(void **slots, struct jit_env *env)\n{\n");
            for (int i = 0; i < nargs; i++)
                render_buf_printf(&h, "    %s v_%s = *(%s *)slots[%d];\n", c_type[args[i]],
                                  def->kwnames[i], c_type[args[i]], i);
        } else {
            /* inlined where called, as Numba's inline="always": the loop that calls an index
             * helper then sees what the helper reads and writes (recursion is not compiled) */
            render_buf_printf(&h, "JIT_INLINE %s f%d(struct jit_env *env", c_type[c->ret], me);
            for (int i = 0; i < nargs; i++)
                render_buf_printf(&h, ", %s v_%s", c_type[args[i]], def->kwnames[i]);
            render_buf_puts(&h, ")\n{\n");
            render_buf_printf(&u->protos, "JIT_PROTO %s f%d(struct jit_env *env", c_type[c->ret],
                              me);
            for (int i = 0; i < nargs; i++) render_buf_printf(&u->protos, ", %s", c_type[args[i]]);
            render_buf_puts(&u->protos, ");\n");
        }
        render_buf_puts(&h, "    ");
        locals_text(c, false, u->target, &h);
        render_buf_puts(&h, "\n");
        /* the body, with each prange chunk's private locals in place of its mark */
        const char *body = u->out.data ? u->out.data : "", *mark;
        while ((mark = strstr(body, "@PRIVATE@"))) {
            render_buf_append(&h, body, (size_t)(mark - body));
            render_buf_puts(&h, priv.data ? priv.data : "");
            body = mark + strlen("@PRIVATE@");
        }
        /* C++ (NVRTC) refuses a goto to the end that passes an initialised declaration of the
         * same block: the body is a block of its own */
        render_buf_puts(&h, u->target == JIT_GPU ? "{\n" : "");
        render_buf_puts(&h, body);
        render_buf_puts(&h, u->target == JIT_GPU ? "}\n" : "");
        if (c->top)
            render_buf_puts(&h, "    return 0;\nfail: JIT_UNUSED;\n    return 1;\n}\n");
        else if (c->ret == JT_NONE)
            render_buf_puts(&h, "fail: JIT_UNUSED;\n    return;\n}\n");
        else
            render_buf_printf(&h, "    return 0;\nfail: JIT_UNUSED;\n    return 0;\n}\n");
        render_buf_free(&priv);
        render_buf_puts(&u->bodies, h.data ? h.data : "");
        render_buf_free(&h);
        c->done = true;
        /* its frame: the local arrays exactly, and a generous allowance for the rest (each
         * variable, and what the C compiler keeps beside them) */
        c->stack = 1024 + 32 * (int64_t)c->nvars + c->callee_stack;
        for (int i = 0; i < c->nvars; i++) c->stack += c->vars[i].buflen * 8;
    }
    render_buf_free(&u->out);
    u->out = saved;
    u->loop_depth = depth;
    u->brk = brk;
    u->in_prange = in_prange;
    u->emitting = emitting;
    u->changed = changed;
    *id = me;
    return r;
}

/* Whether the stack unit u's called function takes, with the functions it calls, is at most
 * limit bytes: 0, or -1 after refusing, naming the chain of calls whose locals take it. */
static int stack_fits(struct unit *u, int64_t limit)
{
    const struct cfn *top = &u->fns[0];
    if (top->stack <= limit) return 0;
    char chain[256] = "";
    size_t len = 0;
    for (const struct cfn *k = top; len < sizeof chain; k = &u->fns[k->deepest]) {
        len += (size_t)snprintf(chain + len, sizeof chain - len, "%s%s()", k == top ? "" : " -> ",
                                k->f->def->name);
        if (!k->callee_stack) break;
    }
    return refuse(u, top, top->f->def,
                  "local arrays that take %lld KiB of stack along the calls %s: compiled code "
                  "keeps them on a thread's stack, of which it takes at most %lld KiB (make "
                  "the arrays smaller, or fewer)",
                  (long long)(top->stack >> 10), chain, (long long)(limit >> 10));
}

/* ---- compiling the C, and the cache of what was compiled -------------------------------- */

/* An access site of a simulated kernel, as its unit's table jit_sites[] has it. */
struct site_info {
    long long where;
    const char *name;
    int kind, size; /* kind: 0 global read, 1 global write, 2 shared read, 3 shared write */
};

/* One compiled specialisation of a jit function: for these argument types. */
struct spec {
    struct spec *next;
    enum jt args[MAX_ARGS];
    int nargs;
    enum jt ret;
    void *dl;                                 /* the loaded object, or NULL */
    int (*entry)(void **slots, struct env *); /* NULL: runs in the interpreter, why says why */
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
    const struct site_info *sites;
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
    /* the last call: its time, threads, and the bytes of the storages it was given */
    int64_t last_ns;
    int last_threads;
    double last_bytes;
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
    char *loops;               /* what its loops cost (jit_loops.h), read when first asked */
    /* A unit with loops nested two deep whose iterations run in groups (range_jammed) has two
     * builds: the loops as written, by gcc with deep_flags, for its first call (plain), which
     * then starts gcc -O2 on the grouped C (later_*), the quick build's way, which the next
     * call waits for */
    bool plain;
    char *later_text;
};

struct dsl_jit_cache {
    struct spec *specs;
};

static void spec_free(struct spec *s)
{
    free(s->later_text);
    jit_job_drop(s->job);
    jit_cache_unload(s->dl);
    jit_cache_unload(s->quick_dl);
    free(s->slow_why);
    free(s->so_path);
    free(s->op);
    free(s->loops);
    free(s->stats);
    for (int i = 1; i < s->nfns; i++) dsl_value_release(s->fns[i]);
    free(s->why);
    free(s->report);
    free(s->src);
    free(s);
}

void dsl_jit_cache_free(struct dsl_jit_cache *c)
{
    if (!c) return;
    while (c->specs) {
        struct spec *s = c->specs;
        c->specs = s->next;
        spec_free(s);
    }
    free(c);
}

/* The compiler's options, part of the cache's key. No contraction into fused multiply-adds:
 * float arithmetic as the engine's and Python's. The cheap vectoriser cost model lets -O2
 * vectorise a loop that needs a run-time test that its arrays do not overlap (the map's
 * shortcut); it never reorders float sums. The driver hands the assembly on through a pipe, a
 * little sooner. Functions start at a cache line and loops at 32 bytes: where a loop of a few
 * instructions falls otherwise follows from what the linker puts before the unit's code, which
 * moved the matrix multiply's and the sums' steady calls (bench/results/jit-*). */
static const char *const cc_flags[] = {"-O2",
                                       "-falign-functions=64",
                                       "-falign-loops=32",
                                       "-fopenmp",
                                       "-fwrapv",
                                       "-ffp-contract=off",
                                       "-fvect-cost-model=cheap",
                                       "-fPIC",
                                       "-shared",
                                       "-Werror=implicit-function-declaration",
                                       "-pipe"};
#define N_CC_FLAGS (sizeof cc_flags / sizeof cc_flags[0])
/* tcc's: it compiles a unit in milliseconds, into code that runs serially (it ignores OpenMP's
 * pragmas) a few times slower than gcc's; its arithmetic is the same C, never contracted */
static const char *const quick_flags[] = {"-fPIC", "-shared", "-w"};
#define N_QUICK_FLAGS (sizeof quick_flags / sizeof quick_flags[0])
/* gcc's for a unit with loops nested two deep in its prange body (a matrix multiply), which
 * tcc's code would run several times slower and whose first call waits for gcc: -Og compiles
 * it sooner than -O1, which compiles it sooner than -O2, and -fcaller-saves keeps the nest's
 * values in registers across the calls that poll the interrupt instead of in memory; what -Og
 * lacks beside -O2 (the vectoriser, more inlining, scheduling) such a nest's reductions, one
 * addition after another, hardly use (bench/results/jit-matmul-first-call-*). The arithmetic
 * and alignment options are cc_flags'. */
static const char *const deep_flags[] = {"-Og",
                                         "-fcaller-saves",
                                         "-falign-functions=64",
                                         "-falign-loops=32",
                                         "-fopenmp",
                                         "-fwrapv",
                                         "-ffp-contract=off",
                                         "-fPIC",
                                         "-shared",
                                         "-Werror=implicit-function-declaration",
                                         "-pipe"};
#define N_DEEP_FLAGS (sizeof deep_flags / sizeof deep_flags[0])

/* The quick compiler for a kernel's first call: $MT_JIT_QUICK, tcc by default; NULL when
 * MT_JIT_QUICK is "0" or empty (every call then waits for gcc's build). */
static const char *quick_cc(void)
{
    const char *q = getenv("MT_JIT_QUICK");
    if (!q) return "tcc";
    return *q && strcmp(q, "0") != 0 ? q : NULL;
}

static int line_in(const struct dsl_function *f, size_t pos)
{
    int line = 1;
    for (size_t i = 0; i < pos && f->code->src[i]; i++) line += f->code->src[i] == '\n';
    return line;
}

/* What parallel_diagnostics says of a compiled specialisation. */
static void report(const struct unit *u, struct spec *s)
{
    struct render_buf b;
    render_buf_init(&b, 0);
    const struct cfn *top = &u->fns[0];
    const struct dsl_function *f = top->f;
    if (u->nprange) {
        render_buf_puts(&b, "  parallel: the prange loop");
        for (int i = 0; i < u->nprange; i++)
            render_buf_printf(&b, "%s %d",
                              i                ? ","
                              : u->nprange > 1 ? "s (lines"
                                               : " (line",
                              line_in(f, u->prange_pos[i]) - line_in(f, f->def->pos) + 1);
        int light = 0;
        for (int i = 0; i < u->nprange; i++) light += u->prange_light[i];
        render_buf_printf(
            &b,
            " of %s) run%s in chunks of 1 to %s iterations%s (8 per thread where "
            "the loop is long enough) over @THREADS@ threads (%%threads), on one "
            "when a loop without inner loops has under 256 iterations; the "
            "interrupt is polled between chunks\n",
            f->def->name, u->nprange > 1 ? "" : "s", light == u->nprange ? "65536" : "1024",
            light && light < u->nprange
                ? ", 1 to 65536 where an iteration runs no loop and calls no function with one"
                : "");
        render_buf_puts(&b, "  each iteration's own variables:");
        bool any = false;
        for (int i = 0; i < top->nvars; i++)
            if (top->vars[i].in_loop) {
                const struct var *v = &top->vars[i];
                if (v->buflen)
                    render_buf_printf(&b, " %s (%lld ints)", v->name, (long long)v->buflen);
                else
                    render_buf_printf(&b, " %s (%s)", v->name, jt_name[v->t]);
                any = true;
            }
        render_buf_puts(&b, any ? "\n" : " none\n");
        /* the arrays all iterations share, and what they do with them (a write the analysis
         * found unsafe was refused: what is listed passed it) */
        any = false;
        for (int i = 0; i < top->nvars; i++) {
            const struct var *v = &top->vars[i];
            if ((v->t != JT_FARR && !ints(v->t)) || !shared_mem(v)) continue;
            render_buf_printf(&b, "%s %s (",
                              any ? "," : "  arrays every iteration shares:", v->name);
            if (v->alias_of)
                render_buf_printf(&b, "another name for %s", v->alias_of);
            else if (v->buflen)
                render_buf_printf(&b, "%lld ints made before the loop", (long long)v->buflen);
            else
                render_buf_printf(&b, "%s, an argument", jt_name[v->t]);
            render_buf_puts(&b, v->racy ? ": written, and reached at positions the compiler "
                                          "cannot show are each iteration's own: each write and "
                                          "read recorded and checked at run time)"
                                : v->pwritten
                                    ? ": written at positions that follow from the loop's variable)"
                                    : ": not written in the loop)");
            any = true;
        }
        if (any) render_buf_puts(&b, "\n");
        for (int i = 0; i < top->nvars; i++)
            if (top->vars[i].in_loop && top->vars[i].buflen) {
                render_buf_puts(&b, "  index buffers made in the loop (np.zeros, [0] * n): one "
                                    "per chunk, on its thread's stack, each iteration clearing "
                                    "what the one before wrote; nothing is allocated per "
                                    "iteration\n");
                break;
            }
        any = false;
        for (int i = 0; i < top->nvars; i++)
            if (top->vars[i].reduce) {
                render_buf_printf(&b, "%s %s (%c=)",
                                  any ? ","
                                      : "  reductions, each thread's part "
                                        "combined when the loop ends:",
                                  top->vars[i].name, top->vars[i].reduce);
                any = true;
            }
        if (any) render_buf_puts(&b, "\n");
    } else {
        render_buf_puts(&b, "  serial: no prange loop in the function called\n");
    }
    if (u->max_nest >= 2 && !u->jams)
        render_buf_puts(&b,
                        "  built by gcc -Og -fcaller-saves, not -O2: its prange body nests loops "
                        "two deep, so its first call waits for gcc (the quick build's code "
                        "would run them several times slower), and -Og compiles such loops "
                        "sooner\n");
    else if (u->max_nest >= 2)
        render_buf_puts(&b,
                        "  built twice: its prange body nests loops two deep, so its first call "
                        "waits for gcc (the quick build's code would run them several times "
                        "slower), on its loops as written with -Og -fcaller-saves, which "
                        "compiles them sooner; gcc -O2 then builds the grouped loops below for "
                        "the calls after it\n");
    if (u->jams) {
        const struct dsl_function *jf = u->jam_fn;
        render_buf_printf(&b,
                          "  the loop over %s (line %d of %s) runs %d iterations at a time, "
                          "each with variables of its own: one inner loop adds their terms in "
                          "turn, each sum in its own order (the same bits, sooner); the "
                          "iterations left over, those of a group that meets an index out of "
                          "range, and all of them where a storage it writes overlaps one it "
                          "reads, run as written\n",
                          u->jam_line->name,
                          line_in(jf, u->jam_line->pos) - line_in(jf, jf->def->pos) + 1,
                          jf->def->name, JAM);
        if (u->jams > 1) render_buf_printf(&b, "  (and %d more loops the same way)\n", u->jams - 1);
    }
    if (u->nfns > 1) {
        render_buf_puts(&b, "  compiled in and inlined, each for the types it is called with:");
        for (int i = 1; i < u->nfns; i++) render_buf_printf(&b, " %s()", u->fns[i].f->def->name);
        render_buf_puts(&b, "\n");
    }
    s->report = b.nomem ? NULL : b.data;
    if (b.nomem) render_buf_free(&b);
}

/* Writes the unit's C (text) into the folder and starts gcc on it with flags, for the unit's
 * names (u): the job, or NULL with the reason in *why. own: the C's file, of this process's own
 * until gcc's build succeeds (the quick build reads it too): kernels compiling the same code at
 * once never read each other's half-written files. */
static struct jit_job *start_build(const struct jit_folder *dir, const char *const *flags,
                                   size_t nflags, const char *text, const struct jit_unit *u,
                                   char own[JIT_NAME_MAX], char **why)
{
    if (jit_cache_write(dir, text, u, own, why) != 0) return NULL;
    const char *cc = getenv("MT_CC");
    struct jit_job *j =
        jit_job_start(dir, cc && *cc ? cc : "cc", false, flags, nflags, own, u, why);
    if (!j) jit_cache_remove(dir, own);
    return j;
}

/* Compiles the unit's C (text) into the unit u of folder dir for s, with gcc and flags. gcc
 * starts in the background; when quick, the quick compiler then builds, in milliseconds, the
 * code s's first call runs (s->entry), and gcc's build replaces it at the next call (upgrade).
 * The first call waits for gcc where the quick compiler is missing or fails, where the unit
 * checks races (its records need atomics and threads), and where it is not quick: a prange body
 * with loops nested two deep (a matrix multiply, built with deep_flags), whose work grows faster
 * than its data and runs several times faster in gcc's registers than in tcc's code, serially,
 * so that the run and not the compile decides the first call's time. 0 (s->entry set, or
 * s->why, or neither: load u), or -1 after raising (an interrupt while waiting). */
static int compile(struct dsl_interp *in, const struct dsl_function *f, bool quick,
                   const char *const *flags, size_t nflags, const char *text,
                   const struct jit_folder *dir, const struct jit_unit *u, struct spec *s)
{
    char own[JIT_NAME_MAX];
    struct jit_job *slow = start_build(dir, flags, nflags, text, u, own, &s->why);
    if (!slow) return 0;
    const char *qc = quick && !f->jit_races ? quick_cc() : NULL;
    if (qc) {
        char *qwhy = NULL;
        struct jit_job *q = jit_job_start(dir, qc, true, quick_flags, N_QUICK_FLAGS, own, u, &qwhy);
        int qr = q ? jit_job_finish(q, true, &qwhy) : -1;
        if (qr == 0 && jit_job_load(q, "jit_entry", &s->quick_dl, (void **)&s->entry, &qwhy) == 0) {
            s->quick = s->was_quick = true;
            s->job = slow;
        }
        if (qr == 1)
            jit_job_stop(q); /* an interrupt stopped the wait: it stops the job */
        else
            jit_job_free(q); /* its shared object goes: loaded, or of no use */
        free(qwhy);
        if (s->quick) return 0;
    }
    int r = jit_job_finish(slow, true, &s->why);
    if (r == 1) {
        jit_job_stop(slow);
        return dsl_raise(in, "KeyboardInterrupt", "interrupted while compiling %s()", f->def->name);
    }
    jit_job_free(slow);
    return 0;
}

/* Loads unit u of folder dir into s (s->dl, s->entry), compiling it first (compile) where it is
 * not there, or where it is unfit to load (truncated, a FIFO, not the user's, ...): then it was
 * removed, and is built again once. 0 (s->entry set, or s->why), or -1 after raising. */
static int load_or_compile(struct dsl_interp *in, const struct dsl_function *f, bool quick,
                           const char *const *flags, size_t nflags, const char *text,
                           const struct jit_folder *dir, const struct jit_unit *u, struct spec *s)
{
    char *bad = NULL, *why = NULL;
    if (jit_cache_load(dir, u->so, "jit_entry", &s->dl, (void **)&s->entry, &bad) == 0) return 0;
    int r = compile(in, f, quick, flags, nflags, text, dir, u, s);
    if (r == 0 && !s->why && !s->entry &&
        jit_cache_load(dir, u->so, "jit_entry", &s->dl, (void **)&s->entry, &why) != 0 &&
        asprintf(&s->why, "cannot load its compiled code: %s", why ? why : "it is missing") < 0)
        s->why = NULL;
    char *w = NULL;
    if (bad && s->why && asprintf(&w, "%s (the cached build was removed: %s)", s->why, bad) >= 0) {
        free(s->why);
        s->why = w;
    }
    free(bad);
    free(why);
    return r;
}

/* At a call after the first: waits for gcc's build of s and runs it from now on. An interrupt
 * stops the wait and the build (the quick build runs, and sees the interrupt); a failed gcc, or
 * one that ran past its time, keeps the quick build. */
static void upgrade(struct spec *s)
{
    int r = jit_job_finish(s->job, true, &s->slow_why);
    if (r == 1) {
        jit_job_stop(s->job);
        s->job = NULL;
        s->slow_why = strdup("an interrupt stopped gcc's build (running its cell again builds it)");
        return;
    }
    void *dl = NULL;
    int (*entry)(void **, struct env *) = NULL;
    if (r == 0 && jit_job_load(s->job, "jit_entry", &dl, (void **)&entry, &s->slow_why) == 0)
        s->so_path = jit_job_path(s->job);
    jit_job_free(s->job);
    s->job = NULL;
    if (!dl) return;
    jit_cache_unload(s->quick_dl);
    s->quick_dl = NULL;
    s->dl = dl;
    s->entry = entry;
    s->quick = false;
}

/* The bytes of a simulated CUDA thread's stack for a kernel whose locals take `need`: room for
 * the simulator's own calls (its records, the allocator, the math library) beside them, whole
 * pages, and a page at the bottom that nothing may touch (sim_stacks_take), so that a stack
 * that still overflowed would stop the kernel at once rather than write into the next
 * thread's. */
#define SIM_PAGE 4096
#define SIM_STACK_ROOM (64 << 10)
static int64_t sim_stack_bytes(int64_t need)
{
    return (need + SIM_STACK_ROOM + SIM_PAGE - 1) / SIM_PAGE * SIM_PAGE + SIM_PAGE;
}

/* The C of unit u: what every unit begins with, then its functions. */
static void unit_source(const struct unit *u, const struct dsl_function *f, struct render_buf *src)
{
    render_buf_init(src, 0);
    if (f->jit_unchecked) render_buf_puts(src, "#define JIT_UNCHECKED 1\n");
    if (f->jit_races) render_buf_puts(src, "#define JIT_RACES 1\n");
    render_buf_puts(src, u->target == JIT_GPU ? prelude_cuda : prelude_libc);
    /* the engine's scalar functions, as the engine's own source defines them */
    render_buf_append(src, (const char *)jit_scalar_src, sizeof jit_scalar_src - 1);
    render_buf_puts(src, prelude);
    if (u->target == JIT_SIM) /* the simulator's entries the kernel calls (jit_sim.inc) */
        render_buf_printf(src,
                          "#define JIT_SH_BYTES %lld\n#define JIT_SH_ELEMS %lld\n"
                          "#define JIT_SITES %d\n#define JIT_STACK %lld\n"
                          "static int jit_sync(struct jit_env *, long long);\n"
                          "static int jit_sh_read(struct jit_env *, int64_t, long long, "
                          "const char *, int64_t, int, int64_t);\n"
                          "static int jit_sh_write(struct jit_env *, int64_t, long long, "
                          "const char *, int64_t, int, int64_t);\n"
                          "static float *jit_gmem(struct jit_env *, int, float *);\n"
                          "static int jit_gwrite(struct jit_env *, float *, int64_t, long long, "
                          "const char *);\n",
                          (long long)u->sh_bytes, (long long)u->sh_elems, u->nsites,
                          (long long)sim_stack_bytes(u->fns[0].stack));
    render_buf_puts(src, u->protos.data ? u->protos.data : "");
    render_buf_puts(src, u->bodies.data ? u->bodies.data : "");
    if (u->target == JIT_HOST) return;
    /* the kernel's entry: its arguments from the launch (slots in the simulator, the
     * parameters of a __global__ function on the GPU) */
    const struct cfn *k = &u->fns[0];
    const char *const *names = (const char *const *)k->f->def->kwnames;
    if (u->target == JIT_GPU) {
        render_buf_puts(src, "extern \"C\" __global__ void mt_kernel(struct jit_env *env");
        for (int i = 0; i < k->nargs; i++)
            render_buf_printf(src, ", %s a%d", c_type[k->args[i]], i);
        render_buf_puts(src, ")\n{\n    f0(env");
        for (int i = 0; i < k->nargs; i++) render_buf_printf(src, ", a%d", i);
        render_buf_puts(src, ");\n}\n");
        return;
    }
    render_buf_puts(src,
                    "static void jit_kernel(struct jit_env *env, void **slots)\n{\n    f0(env");
    for (int i = 0; i < k->nargs; i++)
        render_buf_printf(src, ", *(%s *)slots[%d] /* %s */", c_type[k->args[i]], i, names[i]);
    render_buf_puts(src, ");\n}\n");
    /* where each counted access is (struct jit_site, jit_sim.inc) */
    render_buf_printf(
        src,
        "const struct jit_site { long long where; const char *name; int kind, size; } "
        "jit_sites[%d] = {\n%s};\nconst int jit_nsites = %d;\n",
        u->nsites ? u->nsites : 1, u->sites.data ? u->sites.data : "    {0, \"\", 0, 0},\n",
        u->nsites);
    render_buf_append(src, (const char *)jit_sim_src, sizeof jit_sim_src - 1);
}

static struct unit *unit_new(struct dsl_interp *in, bool jam, enum jit_target target)
{
    struct unit *u = calloc(1, sizeof *u);
    if (!u) return NULL;
    u->in = in;
    u->target = target;
    u->jam_on = jam;
    render_buf_init(&u->protos, 0);
    render_buf_init(&u->bodies, 0);
    render_buf_init(&u->sites, 0);
    return u;
}

static void unit_free(struct unit *u)
{
    if (!u) return;
    free(u->why);
    render_buf_free(&u->protos);
    render_buf_free(&u->bodies);
    render_buf_free(&u->sites);
    free(u);
}

/* Compiles f for argument types args into s: s->entry set, or s->why (a reason to run it in the
 * interpreter); -1 after raising (a race is the student's error, located). */
static int build(struct dsl_interp *in, struct dsl_function *f, struct spec *s)
{
    struct unit *u = unit_new(in, false, JIT_HOST), *g = NULL;
    if (!u) return dsl_raise_status(in, DSL_V_NOMEM);
    int id, r = 0;
    if (compile_fn(u, f, s->args, s->nargs, &id) == 0 && stack_fits(u, MAX_HOST_STACK) == 0) {
        /* the same unit with the iterations of its loops in groups, where some can be */
        if (u->jam_cand && (g = unit_new(in, true, JIT_HOST)) &&
            compile_fn(g, f, s->args, s->nargs, &id)) {
            unit_free(g);
            g = NULL;
        }
        s->ret = u->fns[0].ret;
        s->nfns = u->nfns;
        for (int i = 0; i < s->nargs; i++) s->wrote[i] = u->fns[0].vars[i].written;
        for (int i = 0; i < s->nargs; i++) s->racy[i] = u->fns[0].vars[i].racy;
        for (int i = 0; i < u->nfns; i++) {
            struct dsl_value v = {.kind = DSL_FUNCTION,
                                  .as.fn_user = (struct dsl_function *)u->fns[i].f};
            s->fns[i] = i ? dsl_value_retain(v) : v;
        }
        bool deep = u->max_nest >= 2;
        struct render_buf src, gsrc;
        unit_source(u, f, &src);
        render_buf_init(&gsrc, 0);
        if (g) unit_source(g, f, &gsrc);
        if (g && !deep) { /* one C for both of its builds: the grouped one */
            render_buf_free(&src);
            src = gsrc;
            render_buf_init(&gsrc, 0);
        }
        struct jit_folder *dir = NULL;
        char *note = NULL, *dir_why = NULL;
        if (src.nomem || gsrc.nomem) {
            r = dsl_raise_status(in, DSL_V_NOMEM);
        } else if (!(dir = jit_cache_open(&note, &dir_why))) {
            if (asprintf(&s->why, "no folder for compiled code: %s", dir_why) < 0) s->why = NULL;
        } else {
            if (note) dsl_emit(in, "stderr", note);
            const char *const *flags = deep ? deep_flags : cc_flags;
            size_t nflags = deep ? N_DEEP_FLAGS : N_CC_FLAGS;
            struct jit_unit unit, grouped;
            jit_unit_names(src.data, flags, nflags, &unit);
            bool later = gsrc.data != NULL;
            if (later) {            /* the grouped build, -O2's, if a kernel made it before */
                char *unfit = NULL; /* then it is built again, after the first call */
                jit_unit_names(gsrc.data, cc_flags, N_CC_FLAGS, &grouped);
                if (jit_cache_load(dir, grouped.so, "jit_entry", &s->dl, (void **)&s->entry,
                                   &unfit) == 0) {
                    later = false;
                    unit = grouped;
                    render_buf_free(&src);
                    src = gsrc;
                    render_buf_init(&gsrc, 0);
                }
                free(unfit);
            }
            if (!s->entry)
                r = load_or_compile(in, f, !deep && !u->race_checks, flags, nflags, src.data, dir,
                                    &unit, s);
            if (r == 0 && s->entry && !s->quick) s->so_path = jit_cache_path(dir, unit.so);
            if (later && s->entry && !s->quick) { /* the first calls run the loops as written */
                s->later_text = strdup(gsrc.data);
                s->plain = s->quick = true;
                s->quick_dl = s->dl;
                s->dl = NULL;
                free(s->so_path);
                s->so_path = NULL;
            }
        }
        free(note);
        free(dir_why);
        const char *text = s->later_text ? s->later_text : src.data;
        if (!s->src && text) s->src = strdup(text);
        report(g ? g : u, s);
        render_buf_free(&src);
        render_buf_free(&gsrc);
    } else if (u->race) {
        r = dsl_raise_in(in, u->why_fn, u->why_pos, "CompileError",
                         "%s() cannot run in parallel: %s", f->def->name,
                         u->why ? u->why : "a race");
    } else {
        s->why = u->why;
        u->why = NULL;
        if (s->why && u->why_fn) { /* what and where, for parallel_diagnostics */
            char *w = NULL;
            if (asprintf(&w, "the compiler does not take %s (in %s())", s->why,
                         u->why_fn->def->name) >= 0) {
                free(s->why);
                s->why = w;
            }
        }
    }
    if (r == 0 && !s->entry && !s->why) s->why = strdup("not compiled");
    unit_free(u);
    unit_free(g);
    return r;
}

/* After the first call of a plain build: gcc starts on the grouped C, for the next call. */
static void start_later(struct spec *s)
{
    char own[JIT_NAME_MAX], *why = NULL;
    struct jit_folder *dir = jit_cache_open(NULL, &why);
    struct jit_unit u;
    jit_unit_names(s->later_text, cc_flags, N_CC_FLAGS, &u);
    if (dir) s->job = start_build(dir, cc_flags, N_CC_FLAGS, s->later_text, &u, own, &why);
    if (!s->job) s->slow_why = why;
    free(s->later_text);
    s->later_text = NULL;
}

/* ---- calls ------------------------------------------------------------------------------ */

union slot {
    struct {
        float *p;
        int64_t n;
    } f;
    struct {
        int64_t *p;
        int64_t n;
    } i;
    int64_t n;
    double x;
};

/* The type of argument v, and its slot; JT_NONE for what the compiler does not take. */
static enum jt classify(struct dsl_value v, union slot *s, int64_t **heap)
{
    struct mt_tensor *t;
    if (dsl_storage_view(v, &t)) {
        if (t->backend == MT_BACKEND_CUDA) return JT_NONE;
        s->f.p = mt_tensor_data(t);
        s->f.n = t->size;
        return JT_FARR;
    }
    if (v.kind == DSL_BOOL || v.kind == DSL_INT) {
        s->n = dsl_as_int(v);
        return v.kind == DSL_BOOL ? JT_BOOL : JT_INT;
    }
    if (v.kind == DSL_FLOAT) {
        s->x = v.as.f;
        return JT_FLOAT;
    }
    if (v.kind == DSL_LIST) {
        const struct dsl_list *l = v.as.l;
        for (size_t k = 0; k < l->len; k++)
            if (!dsl_is_intlike(l->items[k])) return JT_NONE;
        *heap = malloc((l->len + 1) * sizeof **heap);
        if (!*heap) return JT_NONE;
        for (size_t k = 0; k < l->len; k++) (*heap)[k] = dsl_as_int(l->items[k]);
        s->i.p = *heap;
        s->i.n = (int64_t)l->len;
        return l->style == DSL_LIST_TUPLE ? JT_ITUP : JT_IARR;
    }
    return JT_NONE;
}

static int runtime_error(struct dsl_interp *in, struct spec *s, const struct env *e)
{
    int fn = (int)(e->where >> 40);
    size_t pos = (size_t)(e->where & ((1ll << 40) - 1));
    const struct dsl_function *f = fn < s->nfns ? s->fns[fn].as.fn_user : s->fns[0].as.fn_user;
    /* a race's two iterations (size and other), the earlier first */
    long long first = e->other < e->size ? e->other : e->size;
    long long second = e->other < e->size ? e->size : e->other;
    switch (e->kind) {
    case 1:
        return dsl_raise_in(in, f, pos, "IndexError",
                            "index %lld is out of bounds for %s of size %lld (compiled %s())",
                            (long long)e->index, e->what, (long long)e->size, f->def->name);
    case 2:
        return dsl_raise_in(in, f, pos, "ZeroDivisionError", "%s",
                            e->what && *e->what ? e->what : "division by zero");
    case 3: return dsl_raise_in(in, f, pos, "ValueError", "range() arg 3 must not be zero");
    case 5: return dsl_raise_in(in, f, pos, "ValueError", "cannot convert float nan to integer");
    case 18: return dsl_raise_in(in, f, pos, "OverflowError", "%s", e->what);
    case 19: return dsl_raise_in(in, f, pos, "ValueError", "%s", e->what);
    case 7:
        return dsl_raise_in(in, f, pos, "RuntimeError",
                            "iterations %lld and %lld of the prange loop both wrote %s[%lld] "
                            "(compiled %s()): they run at once on their own threads, so which "
                            "value stays is chance (a race). Give each iteration elements of "
                            "its own",
                            first, second, e->what, (long long)e->index, f->def->name);
    case 20:
        if (e->other < 0)
            return dsl_raise_in(in, f, pos, "RuntimeError",
                                "iteration %lld of the prange loop wrote %s[%lld], which other "
                                "iterations read (compiled %s()): they run at once on their own "
                                "threads, so whether they read the value before or after is "
                                "chance (a race). Read only elements the loop does not write, "
                                "or the iteration's own",
                                (long long)e->size, e->what, (long long)e->index, f->def->name);
        return dsl_raise_in(in, f, pos, "RuntimeError",
                            "iterations %lld and %lld of the prange loop both reach %s[%lld], "
                            "one writing it, the other reading it (compiled %s()): they run at "
                            "once on their own threads, so whether the read comes before or "
                            "after the write is chance (a race). Read only elements the loop "
                            "does not write, or the iteration's own",
                            first, second, e->what, (long long)e->index, f->def->name);
    case 6:
        return dsl_raise_in(in, f, pos, "ValueError",
                            "operands could not be broadcast together with shapes (%lld,) (%lld,)",
                            (long long)e->index, (long long)e->size);
    case 8: return dsl_raise_in(in, f, pos, "ValueError", "math domain error");
    case 14:
        return dsl_raise_in(
            in, f, pos, "ValueError",
            "an int to the power %lld in compiled code: a kernel's int ** int is an "
            "int, as Numba's; write a float (2.0 ** x) for a negative power",
            (long long)e->index);
    case 9: return dsl_raise_in(in, f, pos, "OverflowError", "math range error");
    case 16:
        return dsl_raise_in(in, f, pos, "OverflowError",
                            "integer overflow in '%s': the result does not fit in 64 bits",
                            e->what);
    default: return dsl_raise(in, "KeyboardInterrupt", "interrupted");
    }
}

/* f's compiled code ran in this cell: f first in the session's list of those that ran last. */
static void recent(struct dsl_session *ses, struct dsl_function *f)
{
    struct dsl_value v = {.kind = DSL_FUNCTION, .as.fn_user = f};
    int n = ses->jit_nrecent, k = 0;
    while (k < n && ses->jit_recent[k].as.fn_user != f) k++;
    if (k == n) { /* not there: it comes in, the oldest goes when the list is full */
        if (n == (int)(sizeof ses->jit_recent / sizeof *ses->jit_recent)) {
            dsl_value_release(ses->jit_recent[--n]);
            k = n;
        }
        v = dsl_value_retain(v);
        ses->jit_nrecent = n + 1;
    } else {
        v = ses->jit_recent[k];
    }
    memmove(&ses->jit_recent[1], &ses->jit_recent[0], (size_t)k * sizeof *ses->jit_recent);
    memmove(&ses->jit_recent_cell[1], &ses->jit_recent_cell[0],
            (size_t)k * sizeof *ses->jit_recent_cell);
    ses->jit_recent[0] = v;
    ses->jit_recent_cell[0] = ses->cells_run;
}

void dsl_jit_forget(struct dsl_session *s)
{
    for (int i = 0; i < s->jit_nrecent; i++) dsl_value_release(s->jit_recent[i]);
    s->jit_nrecent = 0;
}

int dsl_jit_call(struct dsl_interp *in, struct dsl_function *f, const struct dsl_value *pos,
                 size_t npos, char *const *kwnames, const struct dsl_value *kwvals, size_t nkw,
                 struct dsl_value *out)
{
    (void)kwnames;
    (void)kwvals;
    if (nkw || npos > MAX_ARGS || npos != f->def->nargs || f->def->nkw != npos) return 1;
    union slot slots[MAX_ARGS + 1];
    void *ptrs[MAX_ARGS + 1];
    int64_t *heap[MAX_ARGS] = {0};
    enum jt types[MAX_ARGS];
    int r = 1;
    for (size_t i = 0; i < npos; i++) {
        types[i] = classify(pos[i], &slots[i], &heap[i]);
        ptrs[i] = &slots[i];
        if (types[i] == JT_NONE) goto done;
    }
    ptrs[npos] = &slots[npos];
    if (!f->jits && !(f->jits = calloc(1, sizeof *f->jits))) {
        r = dsl_raise_status(in, DSL_V_NOMEM);
        goto done;
    }
    struct spec *s = f->jits->specs;
    while (s && (s->nargs != (int)npos || memcmp(s->args, types, npos * sizeof *types) != 0))
        s = s->next;
    if (s && s->job) upgrade(s);
    if (!s) {
        if (!(s = calloc(1, sizeof *s))) {
            r = dsl_raise_status(in, DSL_V_NOMEM);
            goto done;
        }
        s->nargs = (int)npos;
        memcpy(s->args, types, npos * sizeof *types);
        if (build(in, f, s) != 0) {
            spec_free(s); /* not kept: the race is raised at every call */
            r = -1;
            goto done;
        }
        struct spec **end = &f->jits->specs; /* kept in the order first called */
        while (*end) end = &(*end)->next;
        *end = s;
    }
    if (!s->entry) goto done; /* runs in the interpreter */
    struct env e = {.threads = mt_ctx_threads(in->session->ctx), .stop = mt_cancel_flag()};
    int64_t *shadow[MAX_ARGS] = {0}; /* each recorded storage's writers, none yet */
    for (size_t i = 0; i < npos; i++)
        if (types[i] == JT_FARR && ((f->jit_races && s->wrote[i]) || s->racy[i])) {
            shadow[i] = malloc(2 * (size_t)slots[i].f.n * sizeof **shadow + 1);
            if (!shadow[i]) {
                for (size_t j = 0; j < i; j++) free(shadow[j]);
                r = dsl_raise_size(in, "the record of each element's writer and reader",
                                   2 * (uint64_t)slots[i].f.n * sizeof **shadow);
                goto done;
            }
            memset(shadow[i], 0xff, 2 * (size_t)slots[i].f.n * sizeof **shadow); /* -1: none */
        }
    e.shadow = shadow;
    int64_t t0 = mt_now_ns();
    s->entry(ptrs, &e);
    for (size_t i = 0; i < npos; i++) free(shadow[i]);
    s->last_ns = mt_now_ns() - t0;
    if (s->later_text) start_later(s);
    s->last_threads = s->quick && !s->plain ? 1 : e.threads;
    recent(in->session, f);
    struct dsl_student_op op;
    if (dsl_student_op_keep(in, &op) && (s->op || (s->op = malloc(sizeof *s->op)))) {
        *s->op = op;
    } else {
        free(s->op);
        s->op = NULL;
    }
    s->last_bytes = 0;
    for (size_t i = 0; i < npos; i++)
        if (types[i] == JT_FARR) s->last_bytes += (double)slots[i].f.n * sizeof(float);
    for (size_t i = 0; i < npos; i++) { /* backward sees the storages the kernel wrote */
        struct mt_tensor *view;
        if (types[i] == JT_FARR && s->wrote[i] && dsl_storage_view(pos[i], &view))
            mt_tensor_mark_written(view);
    }
    for (size_t i = 0; i < npos; i++) /* lists the kernel filled (index buffers) */
        if (types[i] == JT_IARR && pos[i].kind == DSL_LIST && pos[i].as.l->style != DSL_LIST_TUPLE)
            for (int64_t k = 0; k < slots[i].i.n; k++) pos[i].as.l->items[k] = dsl_int(heap[i][k]);
    if (e.failed) {
        r = runtime_error(in, s, &e);
        goto done;
    }
    *out = s->ret == JT_FLOAT  ? dsl_float(slots[npos].x)
           : s->ret == JT_INT  ? dsl_int(slots[npos].n)
           : s->ret == JT_BOOL ? dsl_bool(slots[npos].n != 0)
                               : dsl_none();
    r = 0;
done:
    for (size_t i = 0; i < npos; i++) free(heap[i]);
    return r;
}

/* ---- cuda.jit kernels -------------------------------------------------------------------- */

/* Where kernels run: on the GPU when the cuda backend has one, else in the simulator;
 * %cuda simulate (or MT_CUDA_SIMULATE=1) keeps them in the simulator. */
static int cuda_mode = -1; /* -1 not asked yet, 0 auto, 1 simulate */
static long launches;      /* cuda.jit launches so far (diagnostics shows those of a statement) */

void dsl_cuda_set_simulate(bool on) { cuda_mode = on; }

bool dsl_cuda_simulating(struct mt_ctx *ctx)
{
    if (cuda_mode < 0) {
        const char *e = getenv("MT_CUDA_SIMULATE");
        cuda_mode = e && *e && strcmp(e, "0") != 0;
    }
    return cuda_mode == 1 || mt_backend_check(ctx, MT_BACKEND_CUDA) != MT_OK ||
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
    size_t bytes; /* the mapping's */
    long each;    /* a stack's */
    int n;        /* stacks */
};

static char *sim_stacks_take(int n, long each)
{
    for (int i = 0; i < STACK_POOL; i++) {
        char *p = __atomic_exchange_n(&stack_pool[i], (char *)NULL, __ATOMIC_ACQ_REL);
        if (!p) continue;
        const struct stack_set *h = (const struct stack_set *)p;
        if (h->each == each && h->n >= n) return p + SIM_PAGE;
        munmap(p, h->bytes);
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
    if (p) munmap(p, ((const struct stack_set *)p)->bytes);
}

/* Compiles kernel f for its arguments' types into s, for s->target: the simulator's unit
 * built and loaded (s->entry), or the GPU's CUDA C (s->src). 0, or -1 after raising: a kernel
 * the compiler does not take cannot run at all (there is no interpreter of CUDA). */
static int cuda_build(struct dsl_interp *in, struct dsl_function *f, struct spec *s)
{
    struct unit *u = unit_new(in, false, s->target);
    if (!u) return dsl_raise_status(in, DSL_V_NOMEM);
    int id, r = 0;
    if (compile_fn(u, f, s->args, s->nargs, &id) != 0 || stack_fits(u, MAX_THREAD_STACK) != 0) {
        r = dsl_raise_in(in, u->why_fn ? u->why_fn : f, u->why_fn ? u->why_pos : f->def->pos,
                         "CompileError", "cuda.jit cannot compile %s(): it does not take %s",
                         f->def->name, u->why ? u->why : "this kernel");
        unit_free(u);
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
    unit_source(u, f, &src);
    unit_free(u);
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
    jit_unit_names(src.data, cc_flags, N_CC_FLAGS, &unit);
    r = load_or_compile(in, f, false, cc_flags, N_CC_FLAGS, src.data, dir, &unit, s);
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
                   struct env *e)
{
    struct mt_ctx *ctx = in->session->ctx;
    void *dev[MAX_ARGS] = {0}, *denv = NULL;
    void *args[MAX_ARGS + 1];
    union slot dslots[MAX_ARGS];
    enum mt_status st = mt_cuda_buffer(ctx, sizeof *e, &denv);
    if (st == MT_OK) st = mt_cuda_buffer_copy(ctx, denv, e, sizeof *e, true);
    for (int i = 0; i < s->nargs && st == MT_OK; i++) {
        dslots[i] = slots[i];
        if (s->args[i] == JT_FARR && !on_dev[i]) {
            size_t bytes = (size_t)slots[i].f.n * sizeof(float);
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
        if (s->args[i] == JT_FARR && !on_dev[i] && s->wrote[i])
            st = mt_cuda_buffer_copy(ctx, slots[i].f.p, dev[i],
                                     (size_t)slots[i].f.n * sizeof(float), false);
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
static int line_at(const struct dsl_function *f, size_t pos)
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

static int cuda_error(struct dsl_interp *in, struct spec *s, const struct env *e)
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
                 line_at(of, (size_t)(e->other_where & ((1ll << 40) - 1))));
    }
    static const char *const how[] = {"read", "wrote", "wrote"};
    static const char *const other_how[] = {"wrote", "wrote", "read"};
    switch (e->kind) {
    case 1:
        return dsl_raise_in(in, f, pos, "IndexError",
                            "index %lld is out of bounds for %s of size %lld, in %s of %s[%lld, "
                            "%lld]",
                            (long long)e->index, e->what, (long long)e->size, me, k,
                            (long long)(e->grid[0] * e->grid[1] * e->grid[2]),
                            (long long)(e->block[0] * e->block[1] * e->block[2]));
    case 10:
        return dsl_raise_in(
            in, f, pos, "RuntimeError",
            "shared-memory race in %s(): %s %s %s%s, which %s of the same block %s%s with "
            "no cuda.syncthreads() between them: on a GPU their order is chance",
            k, me, how[e->size], e->what, shared_element(s, e->what, e->index, el, sizeof el),
            other, other_how[e->size], there);
    case 11:
        return dsl_raise_in(in, f, pos, "RuntimeError",
                            "%s read %s%s of shared memory, which no thread of the block had "
                            "written: it holds whatever a GPU left there",
                            me, e->what, shared_element(s, e->what, e->index, el, sizeof el));
    case 12:
        return dsl_raise_in(in, f, pos, "RuntimeError",
                            "cuda.syncthreads() in %s(): %s waits there, but %s of the block "
                            "ended without reaching it. Every thread of a block must reach each "
                            "syncthreads() (keep it outside `if`s that some threads skip, and "
                            "before any early return): on a GPU this hangs or goes wrong",
                            k, me, other);
    case 13:
        return dsl_raise_in(in, f, pos, "RuntimeError",
                            "cuda.syncthreads() in %s(): %s waits here, while %s of the block "
                            "waits at another syncthreads()%s. Every thread of a block must "
                            "reach the same barriers in the same order",
                            k, me, other, there);
    case 17: { /* two threads of the launch wrote one element of a Storage, unordered */
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
    case 15: { /* the kernel's own raise: its class and message, as written */
        const struct dsl_node *n =
            e->index >= 0 && e->index < s->nraises ? s->raises[e->index] : NULL;
        const struct dsl_node *x = n ? n->a : NULL;
        const struct dsl_node *cls = x && x->kind == DSL_N_CALL ? x->a : x;
        const char *msg =
            x && x->kind == DSL_N_CALL && x->nkids == 1 ? x->kids[0]->value.as.s->data : "";
        return dsl_raise_in(in, f, pos, cls ? cls->name : "RuntimeError", "%s", msg);
    }
    default: return runtime_error(in, s, e);
    }
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
        return dsl_raise(in, "TypeError", "%s() takes %zu arguments (%zu given)", f->def->name,
                         f->def->nkw, npos);
    enum jit_target target = dsl_cuda_simulating(in->session->ctx) ? JIT_SIM : JIT_GPU;
    union slot slots[MAX_ARGS + 1];
    void *ptrs[MAX_ARGS + 1];
    int64_t *heap[MAX_ARGS] = {0};
    bool on_dev[MAX_ARGS] = {0};
    enum jt types[MAX_ARGS];
    int r = -1;
    for (size_t i = 0; i < npos; i++) {
        struct mt_tensor *t;
        if (dsl_storage_view(pos[i], &t) && t->backend == MT_BACKEND_CUDA) {
            if (target == JIT_SIM) {
                r = dsl_raise(in, "TypeError",
                              "argument %zu of %s() is a Storage in GPU memory, which the "
                              "simulator cannot reach: give it a tensor on a CPU backend",
                              i + 1, f->def->name);
                goto done;
            }
            types[i] = JT_FARR;
            slots[i].f.p = mt_tensor_data(t);
            slots[i].f.n = t->size;
            on_dev[i] = true;
        } else {
            types[i] = classify(pos[i], &slots[i], &heap[i]);
        }
        ptrs[i] = &slots[i];
        if (types[i] == JT_NONE) {
            r = dsl_raise(
                in, "TypeError",
                "argument %zu of %s() is a %s: a kernel takes Storages (t._tensor._storage, "
                "t.tuple()), tuples or lists of ints, ints and floats",
                i + 1, f->def->name, dsl_type_name(pos[i]));
            goto done;
        }
    }
    if (!f->jits && !(f->jits = calloc(1, sizeof *f->jits))) {
        r = dsl_raise_status(in, DSL_V_NOMEM);
        goto done;
    }
    struct spec *s = f->jits->specs;
    while (s && (s->target != target || s->nargs != (int)npos ||
                 memcmp(s->args, types, npos * sizeof *types) != 0))
        s = s->next;
    if (!s) {
        if (!(s = calloc(1, sizeof *s))) {
            r = dsl_raise_status(in, DSL_V_NOMEM);
            goto done;
        }
        s->nargs = (int)npos;
        s->target = target;
        memcpy(s->args, types, npos * sizeof *types);
        if (cuda_build(in, f, s) != 0) {
            spec_free(s);
            goto done;
        }
        struct spec **end = &f->jits->specs;
        while (*end) end = &(*end)->next;
        *end = s;
    }
    struct env e = {.threads = mt_ctx_threads(in->session->ctx),
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
    struct gw gw[MAX_ARGS];
    for (size_t i = 0; target == JIT_SIM && i < npos; i++) /* who writes what (jit_gwrite) */
        if (types[i] == JT_FARR && s->wrote[i]) {
            struct gw *g = &gw[e.ngw++];
            *g = (struct gw){.p = slots[i].f.p,
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
    recent(in->session, f);
    for (size_t i = 0; i < npos; i++) { /* backward sees the storages the kernel wrote */
        struct mt_tensor *view;
        if (types[i] == JT_FARR && s->wrote[i] && dsl_storage_view(pos[i], &view))
            mt_tensor_mark_written(view);
    }
    for (size_t i = 0; i < npos; i++) /* lists the kernel filled */
        if (types[i] == JT_IARR && pos[i].kind == DSL_LIST && pos[i].as.l->style != DSL_LIST_TUPLE)
            for (int64_t k = 0; k < slots[i].i.n; k++) pos[i].as.l->items[k] = dsl_int(heap[i][k]);
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
            spec_free(gpu);
            return -1;
        }
        struct spec **end = &f->jits->specs;
        while (*end) end = &(*end)->next;
        *end = gpu;
    }
    int st = dsl_str_value(gpu->src, strlen(gpu->src), ret);
    return st ? dsl_raise_status(in, st) : 0;
}

/* ---- parallel_diagnostics ----------------------------------------------------------------- */

/* "last call: 14.4 ms on 2 threads, storages of 8.00 MB (each counted once): 0.556 GB/s, 0.8%
 * of 73 GB/s", the share against the machine's read peak (diagnostics.h) when a %diagnostics
 * table has measured it. */
static void last_call(struct render_buf *b, const struct spec *s)
{
    char t[32], rate[48], share[96];
    dsl_format_duration((double)s->last_ns * 1e-9, t, sizeof t);
    render_buf_printf(b, "  last call: %s on %d thread%s", t, s->last_threads,
                      s->last_threads == 1 ? "" : "s");
    if (s->last_bytes <= 0) {
        render_buf_puts(b, "\n");
        return;
    }
    double peak = 0;
    double gbps = s->last_bytes / (double)s->last_ns;
    dsl_diag_rate("map", s->last_bytes, 0, (double)s->last_ns, rate, sizeof rate);
    if (dsl_diag_read_peak(&peak))
        dsl_diag_share(false, gbps, peak, s->last_bytes, dsl_diag_cache_bytes(), share,
                       sizeof share);
    else /* the peak is measured by the first %diagnostics table, not here */
        snprintf(share, sizeof share, "against this machine's peak once %%diagnostics has run");
    char size[32];
    dsl_diag_si(s->last_bytes, "B", size, sizeof size);
    render_buf_printf(b, ", storages of %s (each counted once): %s, %s\n", size, rate, share);
}

/* What a GPU's memory would do for the simulated launch of s: a row per access site. */
static void memory_rows(const struct spec *s, struct render_buf *b)
{
    static const char *const kinds[] = {"global read", "global write", "shared read",
                                        "shared write"};
    int64_t blocks = s->grid[0] * s->grid[1] * s->grid[2];
    render_buf_printf(b,
                      "  memory as a GPU would serve it, counted over %s%lld of the %lld "
                      "blocks: a request is one access of a warp (32 threads in a row) at one "
                      "place; it takes a transaction per 32-byte sector of global memory, or a "
                      "wavefront per access to one of shared memory's 32 banks\n",
                      s->counted < blocks ? "the first " : "", (long long)s->counted,
                      (long long)blocks);
    render_buf_printf(b, "    %-5s %-14s %-13s %9s %20s %8s\n", "line", "array", "access",
                      "requests", "per request", "fewest");
    for (int i = 0; i < s->nsites; i++) {
        const struct site_info *site = &s->sites[i];
        double req = s->stats[i * 3], took = s->stats[i * 3 + 1], least = s->stats[i * 3 + 2];
        if (req == 0) continue;
        int fn = (int)(site->where >> 40);
        const struct dsl_function *f = fn < s->nfns ? s->fns[fn].as.fn_user : s->fns[0].as.fn_user;
        char per[32], verdict[160];
        bool shared = site->kind >= 2;
        snprintf(per, sizeof per, "%.2f %s", took / req, shared ? "wavefronts" : "sectors");
        double ratio = least > 0 ? took / least : 1;
        if (ratio <= 1.05)
            snprintf(verdict, sizeof verdict, shared ? "no bank conflict" : "coalesced");
        else if (shared)
            snprintf(verdict, sizeof verdict,
                     "%.1f-way bank conflict: threads of a warp use different words of one bank",
                     ratio);
        else
            snprintf(verdict, sizeof verdict,
                     "%.1fx the fewest: uncoalesced, the warp's threads touch addresses far apart",
                     ratio);
        render_buf_printf(b, "    %-5d %-14s %-13s %9.0f %20s %8.2f  %s\n",
                          line_at(f, (size_t)(site->where & ((1ll << 40) - 1))), site->name,
                          kinds[site->kind], req, per, least / req, verdict);
    }
}

/* How compiled code's integers differ from the interpreter's, said once per function. */
static const char int_note[] =
    "  integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter "
    "raises OverflowError; // and ** raise it as the interpreter does\n";

/* What parallel_diagnostics says of a cuda.jit kernel f, into *b. */
static void cuda_describe(const struct dsl_function *f, bool source, struct render_buf *b)
{
    const char *name = f->def->name;
    if (!f->jits || !f->jits->specs)
        render_buf_printf(b,
                          "%s() is a CUDA kernel (cuda.jit), compiled at its first launch for the "
                          "kinds of its arguments; it has not been launched yet\n",
                          name);
    bool launched = false;
    for (struct spec *s = f->jits ? f->jits->specs : NULL; s; s = s->next) {
        if (!s->launch_no) continue; /* cuda_source's text only */
        render_buf_printf(b, "%s(", name);
        for (int i = 0; i < s->nargs; i++)
            render_buf_printf(b, "%s%s", i ? ", " : "", jt_name[s->args[i]]);
        int64_t blocks = s->grid[0] * s->grid[1] * s->grid[2];
        int64_t threads = s->block[0] * s->block[1] * s->block[2];
        char t[32];
        dsl_format_duration((double)s->last_ns * 1e-9, t, sizeof t);
        render_buf_printf(
            b,
            "): a CUDA kernel, %s\n  last launch: %s[(%lld, %lld, %lld), (%lld, %lld, "
            "%lld)], %lld block%s of %lld thread%s (%lld warp%s each): %s",
            s->target == JIT_GPU ? "compiled with NVRTC for the GPU"
                                 : "run by the kernel's CUDA simulator",
            name, (long long)s->grid[0], (long long)s->grid[1], (long long)s->grid[2],
            (long long)s->block[0], (long long)s->block[1], (long long)s->block[2],
            (long long)blocks, blocks == 1 ? "" : "s", (long long)threads, threads == 1 ? "" : "s",
            (long long)((threads + 31) / 32), threads > 32 ? "s" : "", t);
        if (s->target == JIT_GPU) {
            char g[32];
            dsl_format_duration(s->gpu_ms * 1e-3, g, sizeof g);
            render_buf_printf(b, " (copies included; the kernel alone %s, CUDA events)\n", g);
        } else if (blocks > 1) {
            render_buf_printf(b, ", blocks in parallel on %d thread%s\n", s->last_threads,
                              s->last_threads == 1 ? "" : "s");
        } else {
            render_buf_puts(b, "\n");
        }
        if (s->target == JIT_SIM && s->stats && s->counted) memory_rows(s, b);
        if (source && s->src) {
            render_buf_puts(b, s->target == JIT_GPU ? "  its CUDA C:\n" : "  the simulator's C:\n");
            render_buf_puts(b, s->src);
        }
        launched = true;
    }
    if (launched) render_buf_puts(b, int_note);
}

/* What parallel_diagnostics says of f, into *b. */
static void describe(struct dsl_interp *in, const struct dsl_function *f, bool source,
                     struct render_buf *b)
{
    if (f->cuda_kernel) {
        cuda_describe(f, source, b);
        return;
    }
    const char *name = f->def->name;
    if (!f->jit)
        render_buf_printf(b, "%s() is not given to njit: it runs in the interpreter\n", name);
    else if (!f->jits || !f->jits->specs)
        render_buf_printf(b,
                          "%s() is compiled at its first call, for the kinds of its "
                          "arguments; it has not been called yet\n",
                          name);
    bool compiled = false;
    for (struct spec *s = f->jits && f->jit ? f->jits->specs : NULL; s; s = s->next) {
        render_buf_printf(b, "%s(", name);
        for (int i = 0; i < s->nargs; i++)
            render_buf_printf(b, "%s%s", i ? ", " : "", jt_name[s->args[i]]);
        if (s->entry) {
            render_buf_puts(b, f->jit_unchecked ? "): compiled to native code, indices unchecked "
                                                  "(boundscheck=False)\n"
                               : f->jit_races   ? "): compiled to native code, each write of its "
                                                  "prange loop to a storage, and each read of one "
                                                  "it writes, checked for races "
                                                  "(check_races=True)\n"
                                                : "): compiled to native code\n");
            const char *rep = s->report ? s->report : "", *mark = strstr(rep, "@THREADS@");
            if (mark) {
                render_buf_append(b, rep, (size_t)(mark - rep));
                render_buf_printf(b, "%d", mt_ctx_threads(in->session->ctx));
                rep = mark + strlen("@THREADS@");
            }
            render_buf_puts(b, rep);
            if (s->plain && s->quick && s->slow_why)
                render_buf_printf(b, "  runs gcc's build of its loops as written: %s\n",
                                  s->slow_why);
            else if (s->plain && s->quick)
                render_buf_puts(b, "  its first call ran gcc's quicker build of its loops as "
                                   "written; gcc -O2's, compiling meanwhile, runs from the next "
                                   "call\n");
            else if (s->plain)
                render_buf_puts(b, "  its first call ran gcc's quicker build of its loops as "
                                   "written, while gcc -O2 compiled this one\n");
            else if (s->quick && s->slow_why)
                render_buf_printf(b, "  runs tcc's quick build, on one thread: %s\n", s->slow_why);
            else if (s->quick)
                render_buf_puts(b, "  its first call ran a build tcc made in milliseconds, on one "
                                   "thread; gcc -O2's, compiling meanwhile, runs from the next "
                                   "call\n");
            else if (s->was_quick)
                render_buf_puts(b, "  its first call ran a build tcc made in milliseconds, on one "
                                   "thread, while gcc -O2 compiled this one\n");
            if (s->so_path && !s->quick) {
                if (!s->loops) s->loops = jit_loops_describe(s->so_path);
                if (s->loops)
                    render_buf_printf(b,
                                      "  machine code (gcc's, read by objdump), instructions in "
                                      "its loops over elements: %s\n",
                                      s->loops);
            } else if (s->quick) {
                render_buf_puts(b, "  machine code: read from gcc's build, once a call runs it\n");
            }
            if (s->last_ns > 0) last_call(b, s);
            double bns =
                s->op && s->last_ns > 0 ? dsl_student_op_builtin_ns(in->session->ctx, s->op) : -1;
            if (bns > 0) {
                char t[32];
                dsl_format_duration(bns * 1e-9, t, sizeof t);
                render_buf_printf(b,
                                  "  the last call ran %s for the student backend; the built-in "
                                  "fast %s on the same shapes and strides takes %s (the last "
                                  "call: %.3gx that)\n",
                                  s->op->what, s->op->what, t, (double)s->last_ns / bns);
            }
            if (source && s->src) {
                render_buf_puts(b, "  the C it was compiled from:\n");
                render_buf_puts(b, s->src);
            }
        } else {
            render_buf_printf(b, "): runs in the interpreter: %s\n", s->why ? s->why : "");
        }
        compiled = compiled || s->entry;
    }
    if (compiled) render_buf_puts(b, int_note);
}

/* Prints what parallel_diagnostics says of v (a function, or none: those this cell ran). */
static int print_diagnostics(struct dsl_interp *in, struct dsl_value v, bool source,
                             struct dsl_value *ret)
{
    struct render_buf b;
    render_buf_init(&b, 0);
    struct dsl_session *ses = in->session;
    if (v.kind == DSL_FUNCTION) describe(in, v.as.fn_user, source, &b);
    /* without a function: those whose compiled code this cell ran (through the student
     * backend too, where the student's kernels are out of reach), the latest first */
    int shown = 0;
    for (int i = 0; v.kind == DSL_NONE && i < ses->jit_nrecent; i++)
        if (ses->jit_recent_cell[i] == ses->cells_run) {
            describe(in, ses->jit_recent[i].as.fn_user, source, &b);
            shown++;
        }
    if (v.kind == DSL_NONE && !shown)
        render_buf_puts(&b, "no function given to njit has run compiled code in this cell\n");
    if (b.nomem) {
        render_buf_free(&b);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    dsl_emit(in, "stdout", b.data ? b.data : "");
    render_buf_free(&b);
    *ret = dsl_none();
    return 0;
}

long dsl_cuda_launches(void) { return launches; }

void dsl_cuda_report_since(struct dsl_interp *in, long since)
{
    struct dsl_session *ses = in->session;
    struct render_buf b;
    render_buf_init(&b, 0);
    for (int i = 0; i < ses->jit_nrecent; i++) {
        const struct dsl_function *f = ses->jit_recent[i].as.fn_user;
        bool launched = false;
        for (struct spec *s = f->cuda_kernel && f->jits ? f->jits->specs : NULL; s; s = s->next)
            launched |= s->launch_no > since;
        if (launched) cuda_describe(f, false, &b);
    }
    if (b.data && !b.nomem) dsl_emit(in, "stdout", b.data);
    render_buf_free(&b);
}

int dsl_bi_parallel_diagnostics(struct dsl_interp *in, const struct dsl_args *a,
                                struct dsl_value *ret)
{
    struct dsl_value v = a->has[0] ? a->slot[0] : dsl_none();
    if (v.kind != DSL_FUNCTION && v.kind != DSL_NONE)
        return dsl_raise(in, "TypeError", "parallel_diagnostics() takes a function, not %s",
                         dsl_type_name(v));
    return print_diagnostics(in, v, a->has[1] && dsl_value_truthy(a->slot[1]), ret);
}

/* Numba's levels (1 to 4) choose how much of its report it prints; this report is one size,
 * so a level is only checked. */
static int m_parallel_diagnostics(struct dsl_interp *in, const struct dsl_args *a,
                                  struct dsl_value *ret)
{
    if (a->has[0]) {
        struct dsl_value l = a->slot[0];
        if (l.kind != DSL_INT && l.kind != DSL_BOOL)
            return dsl_raise(in, "TypeError", "parallel_diagnostics() level must be an int, not %s",
                             dsl_type_name(l));
        int64_t level = dsl_as_int(l);
        if (level < 1 || level > 4)
            return dsl_raise(in, "ValueError",
                             "parallel_diagnostics() level must be 1, 2, 3 or 4 (as in Numba), "
                             "not %lld",
                             (long long)level);
    }
    return print_diagnostics(in, a->self, a->has[1] && dsl_value_truthy(a->slot[1]), ret);
}

static const char *const method_diag_params[] = {"level", "source", NULL};

const struct dsl_builtin dsl_jit_diagnostics_method = {
    "parallel_diagnostics",
    "fn.parallel_diagnostics(level=1, source=false)",
    0,
    2,
    method_diag_params,
    m_parallel_diagnostics,
    "parallel_diagnostics(fn) as Numba's method of a function given to njit: how it runs for "
    "each kind of arguments it was called with. level (1 to 4) is Numba's; the report is the "
    "same at each. Prints, and returns None."};
