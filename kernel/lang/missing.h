/* missing.h — the names CPython has and the language lacks (internal to the language and its
 * library): the builtins, the attributes of the built-in types and the public names of the
 * modules the kernel carries, as CPython 3.11 and numpy have them (cpython_names.h, generated
 * by tools/gen_cpython_names.py).
 *
 * A lookup that fails asks here before raising Python's NameError or AttributeError: a name
 * CPython has is a NotImplementedError that names it as a construct the language does not
 * support, so that a student is not told that Python itself has no such name. As for str's
 * methods (lang/str.c), hasattr() of such a name raises rather than answer False, which would
 * contradict CPython. */
#ifndef KERNEL_LANG_MISSING_H
#define KERNEL_LANG_MISSING_H

#include "lang/interp.h"

#include <stdbool.h>

/* Whether CPython's scope has name: "builtins", a built-in type ("int", "float", "bool",
 * "list", "tuple", "dict", "set", "frozenset") or a module ("math", "random", "time",
 * "numpy"). */
bool dsl_cpython_has(const char *scope, const char *name);

/* When CPython's scope has name, raises the NotImplementedError that names it and returns -1;
 * otherwise raises nothing and returns 0, for the caller's own error. */
int dsl_raise_missing(struct dsl_interp *in, const char *scope, const char *name);
/* The same, located at byte pos of the cell (a name's own place). */
int dsl_raise_missing_at(struct dsl_interp *in, size_t pos, const char *scope, const char *name);

#endif
