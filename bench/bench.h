/* bench.h — what every benchmark program in bench/ times with: a monotonic clock and the
 * comparison qsort needs for medians. */
#ifndef MINITORCH_BENCH_H
#define MINITORCH_BENCH_H

#include <time.h>

/* seconds on CLOCK_MONOTONIC */
static inline double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* qsort order for doubles, ascending */
static inline int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#endif
