/* test_magics.c — line magics: %backend and %threads, the unknown-magic error, where a magic
 * may stand, and how is_complete, completion and help see magic lines. */
#include "../../../engine/src/cuda/device.h" /* internal header: the reason to expect */
#include "kernel/tensor_helpers.h"

#include "minitorch/minitorch.h"

#include <sched.h>

static void test_backend(void)
{
    struct dsl_session *s = dsl_session_new();
    CHECK_STR(stdout_of(s, "%backend"), "stdout:backend: fast\n");
    CHECK_STR(OK(s, "zeros(1).backend"), "'fast'");
    OK(s, "old = ones(2)");
    CHECK_STR(stdout_of(s, "%backend simple"), ""); /* setting prints nothing */
    CHECK_STR(stdout_of(s, "%backend"), "stdout:backend: simple\n");
    CHECK_STR(OK(s, "zeros(1).backend"), "'simple'");
    CHECK_STR(OK(s, "old.backend"), "'fast'"); /* made before: stays */
    CHECK_STR(OK(s, "rand(2).backend"), "'simple'");
    CHECK_STR(OK(s, "tensor([1]).backend"), "'simple'");
    /* cuda where it cannot run (no GPU, no driver, no CUDA in the build, or no kernels yet) and
     * unknown names: an error, the setting unchanged; for cuda the error says which */
    const char *m = FAILS(s, "%backend cuda", "RuntimeError");
    const char *why = NULL;
    if (!mt_cuda_probe(&why))
        CHECK(strstr(m, why) != NULL);
    else
        CHECK(strstr(m, mt_cuda_device()->name) != NULL);
    CHECK_STR(OK(s, "zeros(1).backend"), "'simple'");
    m = FAILS(s, "%backend gpu", "ValueError");
    CHECK(strstr(m, "fast") != NULL); /* the message lists the known names */
    CHECK_STR(OK(s, "zeros(1).backend"), "'simple'");
    FAILS(s, "%backend fast simple", "UsageError");
    OK(s, "%backend fast   # back to the default");
    CHECK_STR(OK(s, "zeros(1).backend"), "'fast'");
    /* the error points at the magic line */
    struct outcome o = run_cell(s, "x = 1\n%backend nope");
    CHECK(strstr(o.tb, "Cell line 2, column 1:") != NULL);
    CHECK_STR(OK(s, "x"), "1"); /* what ran before the error stays */
    dsl_session_free(s);
}

static void test_threads(void)
{
    struct dsl_session *s = dsl_session_new();
    char want[64];
    struct mt_ctx *probe = mt_ctx_new(); /* the default: what a fresh context says */
    snprintf(want, sizeof want, "stdout:threads: %d\n", mt_ctx_threads(probe));
    mt_ctx_free(probe);
    CHECK_STR(stdout_of(s, "%threads"), want);
    OK(s, "%threads 1");
    CHECK_STR(stdout_of(s, "%threads"), "stdout:threads: 1\n");
    /* at most the CPUs the process may run on (1024 threads on 2 cores made x + 1 65x
     * slower), saying so */
    cpu_set_t set;
    CHECK(sched_getaffinity(0, sizeof set, &set) == 0);
    const int cpus = CPU_COUNT(&set), two = cpus < 2 ? cpus : 2;
    char cmd[64];
    snprintf(cmd, sizeof cmd, "%%threads %d", cpus);
    CHECK_STR(stdout_of(s, cmd), "");
    snprintf(want, sizeof want, "stdout:threads: %d\n", cpus);
    CHECK_STR(stdout_of(s, "%threads"), want);
    char note[160];
    snprintf(note, sizeof note, "stdout:threads: %d (not 1024: this process may run on %d CPU%s)\n",
             cpus, cpus, cpus == 1 ? "" : "s");
    CHECK_STR(stdout_of(s, "%threads 1024"), note);
    CHECK_STR(stdout_of(s, "%threads"), want);
    /* work still gives the same answers with any thread count */
    OK(s, "seed(5); a = rand(64, 64); b = rand(64, 64)");
    snprintf(cmd, sizeof cmd, "%%threads 1\nc1 = a @ b\n%%threads %d\nc2 = a @ b", two);
    OK(s, cmd);
    CHECK_STR(OK(s, "c1.is_close(c2).all().item()"), "1.0");
    FAILS(s, "%threads 0", "ValueError");
    FAILS(s, "%threads -2", "ValueError");
    FAILS(s, "%threads 100000", "ValueError");
    FAILS(s, "%threads abc", "ValueError");
    FAILS(s, "%threads 2.5", "ValueError");
    FAILS(s, "%threads 1 2", "UsageError");
    snprintf(want, sizeof want, "stdout:threads: %d\n", two);
    CHECK_STR(stdout_of(s, "%threads"), want); /* unchanged by the errors */
    dsl_session_free(s);
}

static void test_unknown_and_placement(void)
{
    struct dsl_session *s = dsl_session_new();
    const char *m = FAILS(s, "%nope 1 2", "UsageError");
    CHECK(strstr(m, "%nope") != NULL);
    CHECK(strstr(m, "%backend") != NULL && strstr(m, "%threads") != NULL);
    FAILS(s, "%%time\n1", "UsageError");
    FAILS(s, "%", "UsageError");
    /* inside blocks, and after other statements */
    CHECK_STR(OK(s, "for i in range(2):\n    %backend simple\nzeros(1).backend"), "'simple'");
    CHECK_STR(OK(s, "if true:\n    %backend fast\nelse:\n    %backend simple\nzeros(1).backend"),
              "'fast'");
    CHECK_STR(OK(s, "  %backend simple\n  zeros(1).backend"), "'simple'"); /* indented cell */
    /* % keeps its meaning inside a line */
    CHECK_STR(OK(s, "7 % 3"), "1");
    CHECK_STR(OK(s, "x = 7\nx %= 4\nx"), "3");
    CHECK_STR(OK(s, "y = (7\n% 4)\ny"), "3"); /* inside brackets: an operator */
    FAILS(s, "x = 1; %backend fast", "SyntaxError");
    FAILS(s, "if true: %backend fast", "SyntaxError");
    /* a magic is a statement: no result */
    struct outcome o = run_cell(s, "1\n%backend fast");
    CHECK(o.rc == 0 && !o.has_result);
    /* is_complete */
    const char *indent = NULL;
    CHECK_STR(dsl_is_complete("%backend fast", &indent), "complete");
    CHECK_STR(dsl_is_complete("%threads", &indent), "complete");
    CHECK_STR(dsl_is_complete("for i in range(2):\n    %threads 1", &indent), "incomplete");
    dsl_session_free(s);
}

int main(void)
{
    RUN_TEST(test_backend);
    RUN_TEST(test_threads);
    RUN_TEST(test_unknown_and_placement);
    return TEST_SUMMARY();
}
