/* test_busy.c — the busy-machine note (lib/busy.h) and the share of a peak (dsl_diag_share).
 *
 * The verdict is checked two ways so that no test depends on how idle the machine running it
 * is: on made-up counter readings (idle, busy, steal, a big machine, a short window, nothing
 * known), and on a real load too big to miss: twice as many spinning processes as the machine
 * has CPUs while a timing runs, which must then carry the note. */
#include "kernel/tensor_helpers.h"

#include "lib/busy.h"
#include "lib/diagnostics.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const struct dsl_busy_sample start = {.wall_s = 100,
                                             .cpu_s = 5,
                                             .has_stat = true,
                                             .busy_s = 1000,
                                             .steal_s = 10,
                                             .wait_s = 2,
                                             .cpus = 2};

/* start, `wall` seconds later, with this process using `mine`, others `others` and the
 * hypervisor `steal` CPU-seconds, and this process's threads waiting `wait` seconds. */
static struct dsl_busy_sample after(double wall, double mine, double others, double steal,
                                    double wait, int cpus)
{
    struct dsl_busy_sample e = start;
    e.wall_s += wall;
    e.cpu_s += mine;
    e.busy_s += mine + others;
    e.steal_s += steal;
    e.wait_s += wait;
    e.cpus = cpus;
    return e;
}

static void test_verdict_on_readings(void)
{
    struct dsl_busy v;
    char note[400];
    /* idle: 2 threads got their 2 cores, the rest of the machine did nothing to speak of */
    struct dsl_busy_sample e = after(1.0, 1.95, 0.05, 0, 0.0003, 2);
    dsl_busy_judge(&start, &e, 2, &v);
    CHECK(v.known && v.from_stat && !v.busy);
    CHECK(!dsl_busy_note(&v, note, sizeof note) && note[0] == '\0');
    /* other programs took 1.3 of the 2 cores */
    e = after(1.0, 0.7, 1.3, 0, 0, 2); /* (no wait: the counters alone decide) */
    dsl_busy_judge(&start, &e, 2, &v);
    CHECK(v.known && v.busy && fabs(v.others - 1.3) < 1e-9);
    CHECK(dsl_busy_note(&v, note, sizeof note));
    CHECK_STR(note, "note: other programs used ~1.3 of the 2 cores while this ran; timings are "
                    "slower and noisier than on an idle machine, and 2 threads may look slower "
                    "than 1");
    /* ... and for a serial timing the threads are not mentioned */
    dsl_busy_judge(&start, &e, 1, &v);
    CHECK(dsl_busy_note(&v, note, sizeof note) && !strstr(note, "threads may"));
    /* the hypervisor's steal counts as taken */
    e = after(2.0, 3.0, 0, 1.0, 0, 2);
    dsl_busy_judge(&start, &e, 2, &v);
    CHECK(v.busy && fabs(v.steal - 0.5) < 1e-9);
    CHECK(dsl_busy_note(&v, note, sizeof note) && strstr(note, "the hypervisor took ~0.5 of the "
                                                               "2 cores (steal)"));
    /* a 16-core machine with one other program on it leaves a 2-thread timing alone */
    e = after(1.0, 2.0, 1.0, 0, 0, 16);
    dsl_busy_judge(&start, &e, 2, &v);
    CHECK(v.known && !v.busy);
    /* ... but not with 14 */
    e = after(1.0, 2.0, 14.0, 0, 0, 16);
    dsl_busy_judge(&start, &e, 2, &v);
    CHECK(v.busy);
    /* a window too short for /proc/stat's ticks: the threads' wait for a CPU decides */
    e = after(0.020, 0.012, 0.04, 0, 0.009, 2);
    dsl_busy_judge(&start, &e, 2, &v);
    CHECK(v.known && !v.from_stat && v.busy);
    CHECK(dsl_busy_note(&v, note, sizeof note));
    CHECK(strncmp(note,
                  "note: this process's threads waited 9 ms in all for a CPU during the 20 "
                  "ms this ran",
                  80) == 0);
    /* ... but not when the timing's threads got their cores: the wait was this process's
     * own threads' (one sending output while two compute) */
    e = after(0.020, 0.040, 0.04, 0, 0.009, 2);
    dsl_busy_judge(&start, &e, 2, &v);
    CHECK(v.known && !v.busy);
    /* a thread started inside the window (the first parallel op starts the pool) waits to be
     * scheduled once: only the threads seen at both ends count */
    struct dsl_busy_sample b1 = start;
    b1.ntasks = 1;
    b1.task[0].tid = 100, b1.task[0].wait_s = 1.0;
    e = after(0.020, 0.012, 0.04, 0, 0.021, 2);
    e.ntasks = 2;
    e.task[0].tid = 100, e.task[0].wait_s = 1.001;
    e.task[1].tid = 101, e.task[1].wait_s = 0.020;
    dsl_busy_judge(&b1, &e, 2, &v);
    CHECK(v.known && !v.busy && fabs(v.waited - 0.001) < 1e-9);
    e.task[0].wait_s = 1.012; /* ... while the threads it saw throughout did wait */
    dsl_busy_judge(&b1, &e, 2, &v);
    CHECK(v.known && v.busy);
    /* one time slice lost now and then on an idle machine is not a busy one */
    e = after(0.004, 0.006, 0.01, 0, 0.004, 2);
    dsl_busy_judge(&start, &e, 2, &v);
    CHECK(v.known && !v.busy);
    e = after(0.010, 0.010, 0.02, 0, 0.00005, 2); /* waking a thread: microseconds */
    dsl_busy_judge(&start, &e, 2, &v);
    CHECK(v.known && !v.busy);
    /* nothing readable (not Linux): nothing known, nothing said */
    struct dsl_busy_sample b0 = {.wall_s = 1, .wait_s = -1, .cpus = 2}, e0 = b0;
    e0.wall_s = 3;
    dsl_busy_judge(&b0, &e0, 2, &v);
    CHECK(!v.known && !dsl_busy_note(&v, note, sizeof note));
}

#ifdef __linux__
#define MAX_SPINNERS 256

/* Starts n processes that spin until killed; returns how many started. */
static int spin_up(pid_t *pids, int n)
{
    int k = 0;
    for (; k < n; k++) {
        pid_t p = fork();
        if (p < 0) break;
        if (p == 0)
            for (volatile unsigned long i = 0;; i++) {}
        pids[k] = p;
    }
    return k;
}

static void spin_down(const pid_t *pids, int n)
{
    for (int k = 0; k < n; k++) kill(pids[k], SIGKILL);
    for (int k = 0; k < n; k++) waitpid(pids[k], NULL, 0);
}

static void test_busy_machine_is_noted(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int want = cpus > 0 && cpus < MAX_SPINNERS / 2 ? 2 * (int)cpus : MAX_SPINNERS;
    pid_t pids[MAX_SPINNERS];
    struct dsl_session *s = dsl_session_new();
    OK(s, "%threads 2\nx = rand(200, 200)");
    int n = spin_up(pids, want);
    CHECK_INT(n, want);
    /* the module on its own: a window of our own spinning */
    struct dsl_busy_window w;
    struct dsl_busy v;
    dsl_busy_begin(&w);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double wall0 = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9, wall = wall0;
    while (wall - wall0 < 0.4) { /* 0.4 s of this thread wanting a CPU */
        clock_gettime(CLOCK_MONOTONIC, &ts);
        wall = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
    }
    dsl_busy_end(&w, 1, &v);
    CHECK(v.known && v.from_stat && v.busy);
    CHECK(v.others >= 0.5);
    /* and as a student sees it: %timeit's output ends with the note */
    const char *out = stdout_of(s, "%timeit -r 3 y = x + x");
    spin_down(pids, n);
    CHECK(strstr(out, " per loop (median ") != NULL);
    CHECK(strstr(out, "stdout:note: ") != NULL);
    CHECK(strstr(out, "timings are slower and noisier than on an idle machine") != NULL);
    dsl_session_free(s);
}
#endif

static void test_share_of_peak(void)
{
    char cell[128];
    dsl_diag_share(false, 12.3, 49.0, 1e6, 32e6, cell, sizeof cell);
    CHECK_STR(cell, "25.1% of 49 GB/s");
    /* above the peak a number is never printed: why, instead */
    dsl_diag_share(false, 241.0, 49.0, 12e6, 32e6, cell, sizeof cell);
    CHECK_STR(cell, ">100% of 49 GB/s: data in cache");
    dsl_diag_share(false, 60.0, 49.0, 400e6, 32e6, cell, sizeof cell); /* past the cache */
    CHECK_STR(cell, ">100% of 49 GB/s: peak read low");
    dsl_diag_share(false, 60.0, 49.0, 1e6, 0, cell, sizeof cell); /* cache size unknown */
    CHECK_STR(cell, ">100% of 49 GB/s: peak read low");
    dsl_diag_share(true, 500.0, 473.0, 1e3, 32e6, cell, sizeof cell); /* no cache for FMAs */
    CHECK_STR(cell, ">100% of 473 GFLOP/s: peak read low");
    dsl_diag_share(true, 473.0, 473.0, 1e3, 32e6, cell, sizeof cell);
    CHECK_STR(cell, "100% of 473 GFLOP/s");
    dsl_diag_share(false, 1.0, 0.0, 1e3, 32e6, cell, sizeof cell); /* no peak measured */
    CHECK_STR(cell, "-");
}

int main(void)
{
    RUN_TEST(test_verdict_on_readings);
    RUN_TEST(test_share_of_peak);
#ifdef __linux__
    RUN_TEST(test_busy_machine_is_noted);
#endif
    return TEST_SUMMARY();
}
