/* test_interrupt.c — the cancel flag stops loops, sleep, input and tensor work within a few
 * milliseconds.
 *
 * A second thread raises mt_cancel_request() ~50 ms after the cell starts; the cell must end
 * with KeyboardInterrupt no later than 100 ms after the flag went up. */
#include "kernel/dsl_helpers.h"
#include "test.h"

#include "minitorch/minitorch.h"

#include <pthread.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double raised_at;

static void *raise_later(void *arg)
{
    (void)arg;
    struct timespec ts = {0, 50 * 1000 * 1000};
    nanosleep(&ts, NULL);
    raised_at = now_s();
    mt_cancel_request();
    return NULL;
}

/* Runs code while a thread raises the flag; returns seconds from the raise to the end. */
static double interrupted_run(struct dsl_session *s, const char *code, struct sink *k,
                              struct outcome *o)
{
    mt_cancel_clear();
    raised_at = 0;
    pthread_t t;
    CHECK_INT(pthread_create(&t, NULL, raise_later, NULL), 0);
    *o = run_cell_with(s, code, k);
    double end = now_s();
    pthread_join(t, NULL);
    mt_cancel_clear();
    return end - raised_at;
}

/* code, run after setup (NULL: none) in a new session, ends with KeyboardInterrupt within
 * `within` seconds of the flag, and the session then runs the next cell. */
static void check_interrupt_after(const char *setup, const char *code, double within)
{
    struct dsl_session *s = dsl_session_new();
    if (setup) CHECK_STR(run_cell(s, setup).ename, "");
    struct sink k = {0};
    struct outcome o;
    double lag = interrupted_run(s, code, &k, &o);
    CHECK_INT(o.rc, -1);
    CHECK_STR(o.ename, "KeyboardInterrupt");
    CHECK_STR(o.evalue, "interrupted");
    CHECK(raised_at > 0);
    CHECK(lag >= 0 && lag < within);
    if (!(lag < within)) fprintf(stderr, "  %s: ended %.1f ms after the flag\n", code, lag * 1000);
    /* the session still works afterwards */
    CHECK_STR(run_cell(s, "1 + 1").result, "2");
    dsl_session_free(s);
}

static void check_interrupt(const char *code) { check_interrupt_after(NULL, code, 0.100); }

static void test_while_true(void) { check_interrupt("while true: pass"); }

static void test_while_block(void) { check_interrupt("i = 0\nwhile true:\n    i += 1"); }

static void test_sleep(void) { check_interrupt("sleep(100)"); }

static void test_long_for(void)
{
    check_interrupt("for i in range(9223372036854775807):\n    pass");
}

static void test_nested_loops(void)
{
    check_interrupt("for i in range(1000000):\n    for j in range(1000000):\n        pass");
}

/* try/except in the loop: `except Exception` does not catch KeyboardInterrupt, and a clause that
 * does (a bare except) cannot keep the cell running: the interrupt stays requested, so the next
 * iteration raises it again. */
static void test_except_exception(void)
{
    check_interrupt("while true:\n    try:\n        pass\n    except Exception:\n        pass");
}

static void test_bare_except(void)
{
    check_interrupt("while true:\n    try:\n        while true:\n            pass\n"
                    "    except:\n        pass");
}

/* train() lowers the flag itself when interrupted (to finish its summary and charts) and raises
 * KeyboardInterrupt after: a clause catching that must request the interrupt again, or the
 * loop below would train three times over. */
static void test_except_around_train(void)
{
    struct dsl_session *s = dsl_session_new();
    CHECK_INT(run_cell(s, "ds = dataset(\"split\", 50, seed=2)\nm = mlp(2, 100, 1)\ncaught = 0").rc,
              0);
    static struct sink k;
    memset(&k, 0, sizeof k);
    struct outcome o;
    double lag = interrupted_run(s,
                                 "for attempt in range(3):\n    try:\n"
                                 "        train(m, ds, epochs=20000, log=0)\n"
                                 "    except:\n        caught += 1",
                                 &k, &o);
    CHECK_STR(o.ename, "KeyboardInterrupt");
    CHECK_STR(run_cell(s, "caught").result, "1");
    CHECK(lag >= 0 && lag < 2.0);
    dsl_session_free(s);
}

static void test_state_after_interrupt(void)
{
    struct dsl_session *s = dsl_session_new();
    struct sink k = {0};
    struct outcome o;
    interrupted_run(s, "print('start')\nn = 0\nwhile true:\n    n += 1", &k, &o);
    CHECK_STR(o.ename, "KeyboardInterrupt");
    CHECK_STR(k.log, "stdout:start\n");
    CHECK(strstr(o.tb, "Cell line 3, column 1:") != NULL);
    struct outcome after = run_cell(s, "n > 0");
    CHECK_STR(after.result, "True");
    dsl_session_free(s);
}

/* An input callback that blocks until the flag rises, like the kernel's stdin channel. */
static int blocking_input(void *ctx, const char *prompt, bool password, char **line,
                          const char **why)
{
    (void)ctx;
    (void)prompt;
    (void)password;
    while (!mt_cancel_requested()) {
        struct timespec ts = {0, 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    *line = NULL;
    *why = "interrupted while waiting for input";
    return -1;
}

static void test_input_interrupted(void)
{
    struct dsl_session *s = dsl_session_new();
    struct sink k = {0};
    struct dsl_output out = sink_output(&k);
    out.input = blocking_input;
    mt_cancel_clear();
    pthread_t t;
    CHECK_INT(pthread_create(&t, NULL, raise_later, NULL), 0);
    json_t *result = NULL;
    struct dsl_error err = {0};
    CHECK_INT(dsl_execute(s, "x = input('?')", &out, &result, &err), -1);
    pthread_join(t, NULL);
    mt_cancel_clear();
    CHECK_STR(err.ename, "KeyboardInterrupt");
    dsl_error_clear(&err);
    dsl_session_free(s);
}

/* The flag raised before a cell starts is seen by the first loop iteration. */
static void test_flag_already_raised(void)
{
    struct dsl_session *s = dsl_session_new();
    mt_cancel_request();
    struct outcome o = run_cell(s, "x = 1\nfor i in range(3):\n    x = 2");
    mt_cancel_clear();
    CHECK_STR(o.ename, "KeyboardInterrupt");
    CHECK_STR(run_cell(s, "x").result, "1");
    dsl_session_free(s);
}

/* The text of a long list: str() of 4 million floats, and the same list as a cell's value,
 * are seconds of work inside one builtin, with no loop of the language's to poll the flag. */
static void test_long_repr(void)
{
    struct dsl_session *s = dsl_session_new();
    CHECK_STR(run_cell(s, "x = [0.123456789] * 4000000\nlen(x)").result, "4000000");
    const char *cells[] = {"s = str(x)", "x"};
    for (int c = 0; c < 2; c++) {
        struct sink k = {0};
        struct outcome o;
        double lag = interrupted_run(s, cells[c], &k, &o);
        CHECK_STR(o.ename, "KeyboardInterrupt");
        CHECK_STR(o.evalue, "interrupted");
        CHECK(lag >= 0 && lag < 0.100);
        if (!(lag < 0.100))
            fprintf(stderr, "  %s: ended %.1f ms after the flag\n", cells[c], lag * 1000);
    }
    CHECK_STR(run_cell(s, "str([x[0], x[3999999]])").result, "'[0.123456789, 0.123456789]'");
    dsl_session_free(s);
}

/* The repr of a 60 MiB string of control characters, each escaped as \x01: most of a second
 * of work in one builtin (until the repr passes the 64 MiB of a string). */
static void test_long_str_repr(void)
{
    struct dsl_session *s = dsl_session_new();
    CHECK_INT(run_cell(s, "t = \"\\x01\" * (60 * 2 ** 20)").rc, 0);
    struct sink k = {0};
    struct outcome o;
    double lag = interrupted_run(s, "r = repr(t)", &k, &o);
    CHECK_STR(o.ename, "KeyboardInterrupt");
    CHECK(lag >= 0 && lag < 0.100);
    if (!(lag < 0.100)) fprintf(stderr, "  repr(t): ended %.1f ms after the flag\n", lag * 1000);
    CHECK_STR(run_cell(s, "len(t)").result, "62914560");
    dsl_session_free(s);
}

/* A tensor shown whole (set_printoptions(profile="full")): its text and its table are work in
 * proportion to its 16 million elements (seconds), in the renderer, with no loop of the
 * language's to poll the flag: str(), print, display, a cell's result (text and table), a
 * 3-D one's table (its text escaped), and tolist() of the largest tensor a list can hold. The
 * cell ends within a second of the interrupt, and the next one runs. */
static void test_full_tensor_text(void)
{
    struct dsl_session *s = dsl_session_new();
    CHECK_INT(run_cell(s, "set_printoptions(profile=\"full\")\n"
                          "x = rand(4000, 4000)\ny = rand(250, 250, 256)\nz = rand(2048, 2048)")
                  .rc,
              0);
    const char *cells[] = {"s = str(x)", "print(x)", "display(x)", "x", "y", "l = z.tolist()"};
    for (size_t c = 0; c < sizeof cells / sizeof cells[0]; c++) {
        struct sink k = {0};
        struct outcome o;
        double lag = interrupted_run(s, cells[c], &k, &o);
        CHECK_STR(o.ename, "KeyboardInterrupt");
        CHECK(lag >= 0 && lag < 1.0);
        if (!(lag < 1.0))
            fprintf(stderr, "  %s: ended %.1f ms after the flag\n", cells[c], lag * 1000);
        CHECK_STR(run_cell(s, "x.shape").result, "(4000, 4000)");
    }
    CHECK_INT(run_cell(s, "set_printoptions(profile=\"default\")").rc, 0);
    dsl_session_free(s);
}

/* Tensor work: a loop of engine ops, and straight-line ops with no language loop at all (the
 * engine's own polling and the check before each op end it; a big matmul may finish its
 * current block first, hence the looser bound). */
static void test_tensor_loop(void)
{
    check_interrupt("x = rand(32, 32)\nwhile true:\n    x = (x @ x).sigmoid() - 0.5");
}

static void test_tensor_straight_line(void)
{
    struct dsl_session *s = dsl_session_new();
    struct sink k = {0};
    struct outcome o;
    /* x made in a cell of its own: on a loaded machine the interrupt could come before it */
    CHECK_STR(run_cell(s, "x = rand(600, 600)").ename, "");
    char code[8192] = "y = x";
    for (int i = 0; i < 200; i++) strcat(code, "\ny = (y @ x).sigmoid()");
    double lag = interrupted_run(s, code, &k, &o);
    CHECK_STR(o.ename, "KeyboardInterrupt");
    CHECK_STR(o.evalue, "interrupted");
    CHECK(lag >= 0 && lag < 1.0);
    CHECK_STR(run_cell(s, "x.shape").result, "(600, 600)");
    dsl_session_free(s);
}

static void test_tensor_flag_already_raised(void)
{
    struct dsl_session *s = dsl_session_new();
    mt_cancel_request();
    struct outcome o = run_cell(s, "y = ones(2) + 1");
    mt_cancel_clear();
    CHECK_STR(o.ename, "KeyboardInterrupt");
    CHECK_STR(run_cell(s, "y").ename, "NameError");
    CHECK_STR(run_cell(s, "(ones(2) + 1).tolist()").result, "[2.0, 2.0]");
    dsl_session_free(s);
}

/* Compiled code (njit, and cuda.jit in the simulator), compiled by a first call before the
 * interrupted one: the prange loop's threads, loops nested in loops that do not poll
 * themselves, and the blocks of a huge grid all stop within the second the interrupt is
 * promised in. */
#define NJIT_SETUP "from numba import njit, prange, cuda\n"

static void test_njit_prange_long(void)
{
    check_interrupt_after(NJIT_SETUP "@njit(parallel=True)\n"
                                     "def plong(n):\n"
                                     "    s = 0\n"
                                     "    for i in prange(n):\n"
                                     "        s += i % 7\n"
                                     "    return s\n"
                                     "plong(1000)",
                          "plong(10**18)", 1.0);
}

static void test_njit_quiet_nest(void)
{
    /* loops over a list's length do not poll; three of them nested must still stop */
    check_interrupt_after(NJIT_SETUP "@njit\n"
                                     "def nest(a):\n"
                                     "    s = 0\n"
                                     "    for i in range(len(a)):\n"
                                     "        for j in range(len(a)):\n"
                                     "            for k in range(len(a)):\n"
                                     "                s += a[k]\n"
                                     "    return s\n"
                                     "nest([1, 2])\n"
                                     "big = [1] * 100000",
                          "nest(big)", 1.0);
    check_interrupt_after(NJIT_SETUP "@njit(parallel=True)\n"
                                     "def spin(out):\n"
                                     "    for i in prange(len(out)):\n"
                                     "        while True:\n"
                                     "            for k in range(65536):\n"
                                     "                out[i] += 1.0\n"
                                     "spin(zeros(0)._tensor._storage)\n" /* compiled */
                                     "o = zeros(4)\n",
                          "spin(o._tensor._storage)", 1.0);
}

static void test_simulated_grid(void)
{
    check_interrupt_after(NJIT_SETUP "@cuda.jit\n"
                                     "def g(out):\n"
                                     "    if cuda.threadIdx.x == 0 and cuda.blockIdx.x == 0:\n"
                                     "        out[0] = 1.0\n"
                                     "o = zeros(4)\n"
                                     "g[1, 1](o._tensor._storage)",
                          "g[(2147483647, 65535, 65535), 1](o._tensor._storage)", 1.0);
}

int main(void)
{
    RUN_TEST(test_while_true);
    RUN_TEST(test_long_repr);
    RUN_TEST(test_long_str_repr);
    RUN_TEST(test_full_tensor_text);
    RUN_TEST(test_while_block);
    RUN_TEST(test_sleep);
    RUN_TEST(test_long_for);
    RUN_TEST(test_nested_loops);
    RUN_TEST(test_except_exception);
    RUN_TEST(test_bare_except);
    RUN_TEST(test_except_around_train);
    RUN_TEST(test_state_after_interrupt);
    RUN_TEST(test_input_interrupted);
    RUN_TEST(test_flag_already_raised);
    RUN_TEST(test_tensor_loop);
    RUN_TEST(test_tensor_straight_line);
    RUN_TEST(test_tensor_flag_already_raised);
    RUN_TEST(test_njit_prange_long);
    RUN_TEST(test_njit_quiet_nest);
    RUN_TEST(test_simulated_grid);
    return TEST_SUMMARY();
}
