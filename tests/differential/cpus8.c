/* cpus8.c — preloaded into the kernel by test_prange_races.py: the process is told it may run
 * on 8 CPUs, so that %threads 8 (which the kernel holds to the CPUs it may use) runs 8 threads
 * on any machine, and a race has threads preempted in the middle of their chunks. */
#define _GNU_SOURCE
#include <sched.h>

int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set)
{
    (void)pid;
    CPU_ZERO_S(size, set);
    for (int i = 0; i < 8; i++) CPU_SET_S(i, size, set);
    return 0;
}
