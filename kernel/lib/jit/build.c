/* jit/build.c — building a unit's C and keeping what was built: gcc's options (and those for
 * loops nested two deep), the quick compiler (tcc) whose build a first call runs while gcc's
 * runs in the background, loading either from the cache folder (jit/cache.c), and the switch to
 * gcc's build at a later call. */
#include "lib/jit/internal.h"

/* ---- compiling the C, and the cache of what was compiled -------------------------------- */

void jit_spec_free(struct spec *s)
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
        jit_spec_free(s);
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
const struct jit_flags jit_cc_flags = {cc_flags, sizeof cc_flags / sizeof cc_flags[0]};
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
const struct jit_flags jit_deep_flags = {deep_flags, sizeof deep_flags / sizeof deep_flags[0]};

/* The quick compiler for a kernel's first call: $MT_JIT_QUICK, tcc by default; NULL when
 * MT_JIT_QUICK is "0" or empty (every call then waits for gcc's build). */
static const char *quick_cc(void)
{
    const char *q = getenv("MT_JIT_QUICK");
    if (!q) return "tcc";
    return *q && strcmp(q, "0") != 0 ? q : NULL;
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
int jit_load_or_compile(struct dsl_interp *in, const struct dsl_function *f, bool quick,
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
void jit_upgrade(struct spec *s)
{
    int r = jit_job_finish(s->job, true, &s->slow_why);
    if (r == 1) {
        jit_job_stop(s->job);
        s->job = NULL;
        s->slow_why = strdup("an interrupt stopped gcc's build (running its cell again builds it)");
        return;
    }
    void *dl = NULL;
    int (*entry)(void **, struct jit_env *) = NULL;
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

/* After the first call of a plain build: gcc starts on the grouped C, for the next call. */
void jit_start_later(struct spec *s)
{
    char own[JIT_NAME_MAX], *why = NULL;
    struct jit_folder *dir = jit_cache_open(NULL, &why);
    struct jit_unit u;
    jit_unit_names(s->later_text, jit_cc_flags.v, jit_cc_flags.n, &u);
    if (dir)
        s->job = start_build(dir, jit_cc_flags.v, jit_cc_flags.n, s->later_text, &u, own, &why);
    if (!s->job) s->slow_why = why;
    free(s->later_text);
    s->later_text = NULL;
}
