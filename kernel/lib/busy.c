/* busy.c — was the machine busy while a timing ran (see busy.h). */
#include "lib/busy.h"

#include "lang/interp.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double clock_s(clockid_t id)
{
    struct timespec t;
    if (clock_gettime(id, &t) != 0) return 0;
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#ifdef __linux__
/* The aggregate "cpu" line of /proc/stat: user nice system idle iowait irq softirq steal, in
 * ticks (guest time is inside user already). */
static bool read_stat(struct dsl_busy_sample *s)
{
    FILE *f = fopen("/proc/stat", "r");
    if (!f) return false;
    unsigned long long v[8] = {0};
    int got = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
                     &v[4], &v[5], &v[6], &v[7]);
    fclose(f);
    long hz = sysconf(_SC_CLK_TCK);
    if (got < 7 || hz <= 0) return false;
    s->busy_s = (double)(v[0] + v[1] + v[2] + v[5] + v[6]) / (double)hz;
    s->steal_s = got == 8 ? (double)v[7] / (double)hz : 0;
    return true;
}

/* The run-queue wait of every thread of this process, summed (seconds; -1 when unknown), and
 * per thread in s->task for the first DSL_BUSY_MAX_TASKS threads. */
static double read_wait(struct dsl_busy_sample *s)
{
    DIR *dir = opendir("/proc/self/task");
    if (!dir) return -1;
    double total = 0;
    bool any = false;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char path[300];
        snprintf(path, sizeof path, "/proc/self/task/%s/schedstat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        unsigned long long run, wait;
        if (fscanf(f, "%llu %llu", &run, &wait) == 2) {
            total += (double)wait * 1e-9;
            any = true;
            if (s->ntasks < DSL_BUSY_MAX_TASKS) {
                s->task[s->ntasks].tid = atoi(e->d_name);
                s->task[s->ntasks++].wait_s = (double)wait * 1e-9;
            }
        }
        fclose(f);
    }
    closedir(dir);
    return any ? total : -1;
}
#endif

void dsl_busy_sample(struct dsl_busy_sample *s)
{
    memset(s, 0, sizeof *s);
    s->wait_s = -1;
#ifdef __linux__
    s->has_stat = read_stat(s);
    s->wait_s = read_wait(s);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    s->cpus = n > 0 ? (int)n : 1;
#endif
    s->cpu_s = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    s->wall_s = clock_s(CLOCK_MONOTONIC);
}

/* The threads' wait between two samples: over the threads seen at both ends where they were
 * read one by one, else (made-up readings) the totals' difference. */
static double waited(const struct dsl_busy_sample *b, const struct dsl_busy_sample *e)
{
    if (b->ntasks == 0 || e->ntasks == 0) return e->wait_s - b->wait_s;
    double sum = 0;
    for (int i = 0; i < e->ntasks; i++)
        for (int j = 0; j < b->ntasks; j++)
            if (b->task[j].tid == e->task[i].tid) sum += e->task[i].wait_s - b->task[j].wait_s;
    return sum;
}

void dsl_busy_judge(const struct dsl_busy_sample *b, const struct dsl_busy_sample *e, int threads,
                    struct dsl_busy *v)
{
    memset(v, 0, sizeof *v);
    v->threads = threads < 1 ? 1 : threads;
    v->cpus = e->cpus;
    v->waited = -1;
    v->wall_s = e->wall_s - b->wall_s;
    if (v->wall_s <= 0 || e->cpus <= 0) return;
    v->got = fmax(0, e->cpu_s - b->cpu_s) / v->wall_s;
    if (b->wait_s >= 0 && e->wait_s >= 0) {
        v->known = true;
        v->waited = fmax(0, waited(b, e));
        /* and the timing's threads got fewer cores than they are: waits among this process's
         * own threads (one sending output while the others compute) are not other programs */
        v->busy = v->waited >= DSL_BUSY_WAIT_MIN_S &&
                  v->waited >= DSL_BUSY_WAIT_SHARE * v->wall_s &&
                  v->got < v->threads - DSL_BUSY_MIN_TAKEN;
    }
    if (b->has_stat && e->has_stat && v->wall_s >= DSL_BUSY_STAT_MIN_S) {
        v->known = v->from_stat = true;
        double mine = e->cpu_s - b->cpu_s;
        /* ticks: a window's reading can pass the machine's cores by a tick or two */
        v->others = fmin(fmax(0, (e->busy_s - b->busy_s) - mine) / v->wall_s, (double)e->cpus);
        v->steal = fmax(0, e->steal_s - b->steal_s) / v->wall_s;
        double taken = v->others + v->steal;
        if (taken >= DSL_BUSY_MIN_TAKEN && e->cpus - taken < v->threads + DSL_BUSY_SPARE)
            v->busy = true;
    }
}

void dsl_busy_begin(struct dsl_busy_window *w) { dsl_busy_sample(&w->begin); }

void dsl_busy_end(const struct dsl_busy_window *w, int threads, struct dsl_busy *v)
{
    struct dsl_busy_sample end;
    dsl_busy_sample(&end);
    dsl_busy_judge(&w->begin, &end, threads, v);
}

bool dsl_busy_note(const struct dsl_busy *v, char *buf, size_t n)
{
    if (n) buf[0] = '\0';
    if (!v->known || !v->busy || n == 0) return false;
    int k;
    const char *s = v->cpus == 1 ? "" : "s";
    if (v->from_stat && v->others >= 0.05 && v->steal >= 0.05)
        k = snprintf(buf, n,
                     "note: other programs used ~%.1f and the hypervisor ~%.1f (steal) of the %d "
                     "core%s while this ran",
                     v->others, v->steal, v->cpus, s);
    else if (v->from_stat && v->steal >= 0.05)
        k = snprintf(buf, n,
                     "note: the hypervisor took ~%.1f of the %d core%s (steal) while this ran",
                     v->steal, v->cpus, s);
    else if (v->from_stat && v->others >= 0.05)
        k = snprintf(buf, n, "note: other programs used ~%.1f of the %d core%s while this ran",
                     v->others, v->cpus, s);
    else
        k = snprintf(buf, n,
                     "note: this process's threads waited %.0f ms in all for a CPU during the "
                     "%.0f ms this ran: other programs were using the cores",
                     1e3 * v->waited, 1e3 * v->wall_s);
    if (k < 0 || (size_t)k >= n) return true;
    if (v->threads > 1)
        snprintf(buf + k, n - (size_t)k,
                 "; timings are slower and noisier than on an idle machine, and %d threads may "
                 "look slower than 1",
                 v->threads);
    else
        snprintf(buf + k, n - (size_t)k,
                 "; timings are slower and noisier than on an idle machine");
    return true;
}

void dsl_busy_say(struct dsl_interp *in, const struct dsl_busy *v)
{
    char note[400];
    if (!dsl_busy_note(v, note, sizeof note - 1)) return;
    strcat(note, "\n");
    dsl_emit(in, "stdout", note);
}
