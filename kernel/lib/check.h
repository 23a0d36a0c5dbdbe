/* check.h — check("3.1") to check("3.4"): MiniTorch's tests of Tasks 3.1 to 3.4 on the
 * student's backend (check.c; internal to kernel/lib). */
#ifndef KERNEL_LIB_CHECK_H
#define KERNEL_LIB_CHECK_H

#include "lang/native.h"

/* check(task, part=none): runs the task's tests (or those of one of its parts, one function of
 * the student's ops forward) on the session's student backend against simple, prints a table of
 * passed and failed tests and, for each failure, the smallest failing input with the expected
 * and the got values (or the exception the student's code raised); an AssertionError naming the
 * first failure when any failed. */
int dsl_bi_check(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);

#endif
