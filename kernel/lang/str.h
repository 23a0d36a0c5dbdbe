/* str.h — the methods of strings (internal to kernel/lang).
 *
 * Python's str methods (split, join, strip, find, replace, upper, isdigit, format...), each a row
 * of dsl_str_methods like the builtins', so help and inspect read them as any builtin. */
#ifndef KERNEL_LANG_STR_H
#define KERNEL_LANG_STR_H

#include "lang/interp.h"
#include "lang/native.h"

extern const struct dsl_builtin dsl_str_methods[];
extern const size_t dsl_str_method_count;

/* The method of string v called name, bound to v, in *out (0); or -1 after raising: a
 * NotImplementedError for a name CPython's str has and the language's does not (translate,
 * __len__), else AttributeError (with a suggestion when a method's name is close). */
int dsl_str_getattr(struct dsl_interp *in, struct dsl_value v, const char *name,
                    struct dsl_value *out);

#endif
