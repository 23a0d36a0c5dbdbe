/* check.h — check(): MiniTorch's tests of Tasks 3.1 to 3.4 on the student's backend (check.c),
 * and of Modules 0 to 2 on the student's files (check_course.c); internal to kernel/lib. */
#ifndef KERNEL_LIB_CHECK_H
#define KERNEL_LIB_CHECK_H

#include "lang/native.h"

#include <stdbool.h>
#include <stdint.h>

/* check(task, part=none, seed=none): runs the task's tests (or those of one of its parts, one
 * function of the student's), for Module 3 on the session's student backend against simple,
 * prints a table of
 * passed and failed tests and, for each failure, the smallest failing input with the expected
 * and the got values (or the exception the student's code raised); an AssertionError naming the
 * first failure when any failed. */
int dsl_bi_check(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);

/* ---- what check.c and check_course.c share ------------------------------------------------- */

/* The next draw of check's own generator at *state (splitmix64): a double in [-100, 100). */
double dsl_check_draw(uint64_t *state);

/* Where in the student's code the pending error was raised, as " (in f(), line 9 of the cell
 * defining it: out[o] = ...)": the innermost call it went through (what a traceback shows
 * last) whose code is not `skip` (check's own program, or NULL), or "" when it came from no
 * function of theirs. */
void dsl_check_error_place(const struct dsl_interp *in, const struct dsl_code *skip, char *buf,
                           size_t n);

/* Prints a check's report (head, the table of tests, "N passed, M failed (s)", the failures)
 * and raises the AssertionError that names the first failure when any failed. 0, or -1. */
int dsl_check_report(struct dsl_interp *in, const char *head, const char *table, const char *fails,
                     int passed, int failed, const char *task, const char *part, const char *first,
                     double seconds);

/* Modules 0 to 2 (check_course.c): whether task is one of theirs ("0.1" ... "2.5"), and
 * check(task, part) of it with inputs drawn from seed; call is how reports name the call. */
bool dsl_check_course_task(const char *task);
int dsl_check_course(struct dsl_interp *in, const char *task, const char *part, uint64_t seed,
                     const char *call, struct dsl_value *ret);

#endif
