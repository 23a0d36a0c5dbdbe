/* busy.h — was the machine busy while a timing ran? (internal to kernel/lib)
 *
 * Every timing the library shows (%time, %timeit, %diagnostics, compare(), timing()) opens a
 * window before it runs and closes it after: the verdict says whether other programs took CPU
 * time the timing needed, so that the output can say so in plain words instead of letting a
 * student read a neighbour's build as "2 threads are slower than 1".
 *
 * A sample holds the wall clock, this process's CPU time (all its threads) and, on Linux, the
 * time its threads spent runnable but waiting for a CPU (/proc/self/task/N/schedstat, in ns)
 * and the machine's CPU time from /proc/stat (busy and steal, in ticks of 10 ms). The verdict
 * of two samples:
 *  - over a window of at least DSL_BUSY_STAT_MIN_S (shorter ones are a few ticks), other
 *    programs' cores are the machine's busy time less this process's, over the wall time; with
 *    the hypervisor's steal they are the cores taken. Busy when at least DSL_BUSY_MIN_TAKEN
 *    cores were taken and fewer than threads + DSL_BUSY_SPARE cores were left for this
 *    process's threads (a 16-core machine with one other program on it leaves a 2-thread
 *    timing alone).
 *  - over any window, busy when this process's threads waited for a CPU at least
 *    DSL_BUSY_WAIT_MIN_S and a quarter of the wall time while the timing's threads got at
 *    least DSL_BUSY_MIN_TAKEN cores fewer than they are: a CPU shared with another program
 *    waits its time slices, milliseconds each, while on an idle machine the waits are a thread
 *    waking (microseconds) and, now and then, one slice lost to the kernel's own threads or
 *    the system's housekeeping, which must not read as "the machine is busy".
 * The load average (/proc/loadavg) is not used: it counts tasks blocked on I/O and, in a
 * container, other containers' tasks, and read 2.8 on an idle 2-core VM.
 *
 * Elsewhere than Linux the verdict is unknown and nothing is said. */
#ifndef KERNEL_LIB_BUSY_H
#define KERNEL_LIB_BUSY_H

#include <stdbool.h>
#include <stddef.h>

#define DSL_BUSY_STAT_MIN_S 0.1
#define DSL_BUSY_MIN_TAKEN 0.25
#define DSL_BUSY_SPARE 0.75
#define DSL_BUSY_WAIT_MIN_S 0.005
#define DSL_BUSY_WAIT_SHARE 0.25
#define DSL_BUSY_MAX_TASKS 64

/* One reading of the clocks and counters. */
struct dsl_busy_sample {
    double wall_s;  /* CLOCK_MONOTONIC */
    double cpu_s;   /* this process's CPU time, all threads */
    bool has_stat;  /* the machine's counters below were read */
    double busy_s;  /* the machine's CPU time summed over its CPUs: user, nice, system, irq */
    double steal_s; /* time the hypervisor ran something else on this machine's CPUs */
    double wait_s;  /* this process's threads' time runnable but not running; negative when
                     * unknown (a thread that ended in the window takes its time with it) */
    int cpus;       /* the machine's online CPUs */
    /* the same wait per thread, where it was read: a window counts only the threads it saw
     * at both ends, since a thread started inside it (the first parallel op starts the pool)
     * waits to be scheduled once, whether or not the machine is busy */
    int ntasks;
    struct {
        int tid;
        double wait_s;
    } task[DSL_BUSY_MAX_TASKS];
};

/* The verdict on a window. */
struct dsl_busy {
    bool known;     /* false: nothing could be read (not Linux); nothing is said */
    bool busy;      /* other programs took CPU time this timing needed */
    bool from_stat; /* others and steal were read (a long enough window) */
    double wall_s;
    double others; /* cores other programs used, on average (from_stat) */
    double steal;  /* cores the hypervisor took (from_stat) */
    double got;    /* cores this process got: its CPU time over the wall time */
    double waited; /* seconds this process's threads waited for a CPU; negative: unknown */
    int cpus, threads;
};

struct dsl_busy_window {
    struct dsl_busy_sample begin;
};

void dsl_busy_sample(struct dsl_busy_sample *s);
/* The verdict of two samples for a timing that runs on `threads` threads (pure: tests feed it
 * made-up readings). */
void dsl_busy_judge(const struct dsl_busy_sample *begin, const struct dsl_busy_sample *end,
                    int threads, struct dsl_busy *v);

/* Opens a window; closing it samples again and judges. */
void dsl_busy_begin(struct dsl_busy_window *w);
void dsl_busy_end(const struct dsl_busy_window *w, int threads, struct dsl_busy *v);

/* The note to show under a timing when the machine was busy ("note: other programs used ~1.3
 * of the 2 cores while this ran; ..."), without a newline; false and "" when it was not (or
 * nothing is known). */
bool dsl_busy_note(const struct dsl_busy *v, char *buf, size_t n);

/* Writes that note, when there is one, to the running cell's stdout as a line of its own:
 * under a timing's line or table. */
struct dsl_interp;
void dsl_busy_say(struct dsl_interp *in, const struct dsl_busy *v);

#endif
