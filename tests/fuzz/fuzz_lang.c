/* fuzz_lang.c — libFuzzer target for the language: lexer, parser and evaluator on any input.
 *
 * Each input runs as a cell in a fresh session, then again in the same session (so state left
 * by a half-finished cell, such as a function defined before an error, is used once more), and
 * goes through the Jupyter tooling entry points a front end calls on every keystroke
 * (is_complete, complete and inspect at a few cursor positions). Whatever the input, the
 * kernel must not crash, leak (ASan's leak check runs after every input) or hang.
 *
 * Bounds, so that a valid program that runs for ever or asks for the whole machine is an
 * error, as in the kernel: the session's tensor memory limit is 16 MiB, and a watchdog thread
 * raises the cancel flag once an input has run for 10 ms — loops, sleeps and engine ops then
 * stop with KeyboardInterrupt, exactly as an interrupt from JupyterLab would stop them. 10 ms,
 * not more, and compare() times one run per backend instead of aiming at a second: a corpus
 * soon holds many inputs that call compare(), timing(), train() or sleep(), which run until
 * the watchdog, twice per input, while an ordinary input takes well under a millisecond even
 * instrumented; with a longer watchdog those few inputs take most of the fuzzing time.
 *
 * OpenMP's idle workers sleep at once (KMP_BLOCKTIME / GOMP_SPINCOUNT 0) instead of spinning for
 * the next region: between two inputs' regions they spun on the other core, about a fifth of
 * the process's CPU time. */
#include "lang/dsl.h"
#include "lang/interp.h"
#include "minitorch/minitorch.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

#define RUN_LIMIT_NS 10000000LL      /* per input; the cancel flag goes up after this */
#define MEM_LIMIT ((size_t)16 << 20) /* rand() of a few million floats is still allowed */

static atomic_llong started_ns; /* CLOCK_MONOTONIC when the current input began; 0 between */

static long long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void *watchdog(void *arg)
{
    (void)arg;
    for (;;) {
        struct timespec tick = {0, 1000000}; /* 1 ms */
        nanosleep(&tick, NULL);
        long long t0 = atomic_load(&started_ns);
        if (t0 && now_ns() - t0 > RUN_LIMIT_NS) mt_cancel_request();
    }
    return NULL;
}

/* Output is consumed, not kept: the sink's callbacks only touch what they are given. */
static void on_stream(void *ctx, const char *name, const char *text)
{
    (void)ctx;
    (void)name;
    (void)strlen(text);
}

static void on_display(void *ctx, json_t *data, const char *display_id, bool update)
{
    (void)ctx;
    (void)display_id;
    (void)update;
    char *s = json_dumps(data, JSON_COMPACT);
    free(s);
}

static const struct dsl_output sink = {.stream = on_stream, .display = on_display};

static void run(struct dsl_session *s, const char *code)
{
    json_t *result = NULL;
    struct dsl_error err = {0};
    mt_cancel_clear();
    atomic_store(&started_ns, now_ns());
    if (dsl_execute(s, code, &sink, &result, &err) == 0) {
        char *text = result ? json_dumps(result, JSON_COMPACT) : NULL;
        free(text);
        json_decref(result);
    } else {
        /* an error always names itself and carries a traceback */
        if (!err.ename || !err.evalue || !json_is_array(err.traceback)) abort();
        dsl_error_clear(&err);
    }
    atomic_store(&started_ns, 0);
    mt_cancel_clear();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    setenv("KMP_BLOCKTIME", "0", 0); /* before the first parallel region reads them */
    setenv("GOMP_SPINCOUNT", "0", 0);
    /* njit's compiler writes its C for every function it takes, but no compiler builds it and
     * no compiled code from an earlier run is loaded (an empty cache folder): a C compiler per
     * input would be most of the fuzzing time, and the system compiler's OpenMP runtime is not
     * the one of this clang build, whose threads it would leave behind */
    static char cache[] = "/tmp/mt-fuzz-jit-XXXXXX";
    if (!mkdtemp(cache)) abort();
    setenv("XDG_CACHE_HOME", cache, 1);
    setenv("MT_CC", "/nonexistent/cc", 1);
    /* minitorch.pytorch_digits_epoch() finds no Python to run: a PyTorch per input would be
     * seconds each */
    setenv("MINITORCH_TORCH_PYTHON", "/nonexistent/python3", 1);
    static pthread_t dog;
    if (pthread_create(&dog, NULL, watchdog, NULL) != 0) abort();
    /* The machine's peaks (read by diagnostics and compare) are measured once per process, on
     * first use; instrumented, that takes seconds, which would count against whichever input
     * first asks and trip libFuzzer's -timeout. Measure them here, before any input. */
    double gbps, gflops;
    mt_machine_peak(&gbps, &gflops);
    return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    char *code = malloc(size + 1);
    if (!code) return 0;
    memcpy(code, data, size);
    code[size] = '\0';

    const char *indent = NULL;
    const char *verdict = dsl_is_complete(code, &indent);
    if (!verdict) abort();

    struct dsl_session *s = dsl_session_new();
    if (!s) abort();
    mt_ctx_set_mem_limit(s->ctx, MEM_LIMIT);
    /* the values' limit follows, and is the process's: what an input's %memory set goes */
    dsl_mem_set_default(MEM_LIMIT / 2);
    dsl_mem_set_limit(0);
    s->compare_budget_s = 0.0;
    run(s, code);
    run(s, code);

    size_t len = strlen(code); /* an embedded NUL ends the cell, as it would on the wire */
    size_t cursors[3] = {0, len / 2, len};
    for (int i = 0; i < 3; i++) {
        size_t start = 0, end = 0;
        json_t *matches = dsl_complete(s, code, cursors[i], &start, &end);
        if (!json_is_array(matches) || start > end || end > len) abort();
        json_decref(matches);
        json_t *doc = dsl_inspect(s, code, cursors[i], i % 2);
        json_decref(doc);
    }
    dsl_session_free(s);
    free(code);
    return 0;
}
