/* time.c — Python's time module: time(), perf_counter() and sleep (the library's sleep). */
#include "lib/modules/module.h"

#include "lang/library.h"

#include <time.h>

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Both clocks first wait for the GPU work queued so far: a student timing `x @ y` on cuda
 * times the product, not its launch (MiniTorch's CUDA ops return after their work). */
static int t_time(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)a;
    if (dsl_engine_wait(in) != 0) return -1;
    *ret = dsl_float(clock_s(CLOCK_REALTIME));
    return 0;
}

static int t_perf_counter(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)a;
    if (dsl_engine_wait(in) != 0) return -1;
    *ret = dsl_float(clock_s(CLOCK_MONOTONIC));
    return 0;
}

static const struct member time_members[] = {
    FN("perf_counter", "time.perf_counter()", 0, 0, NULL, t_perf_counter,
       "Seconds on a monotonic clock, for timing: only differences mean anything."),
    ALIAS("sleep", "time.sleep(seconds)", "sleep", NULL),
    FN("time", "time.time()", 0, 0, NULL, t_time, "Seconds since the epoch, as a float."),
};

const struct module mod_time = {
    .cls = MODULE_CLASS("module: Python's time: time(), perf_counter() and sleep()."),
    .name = "time",
    .members = MEMBERS(time_members),
};
