/* str.h — the methods of strings (internal to kernel/lang).
 *
 * Strings have one method, format ("{} {:.2f}".format(a, b)), a row of dsl_str_methods like the
 * builtins', so help and inspect read it as any builtin. */
#ifndef KERNEL_LANG_STR_H
#define KERNEL_LANG_STR_H

#include "lang/interp.h"
#include "lang/native.h"

extern const struct dsl_builtin dsl_str_methods[];
extern const size_t dsl_str_method_count;

/* The method of string v called name, bound to v, in *out; AttributeError otherwise. 0 or
 * -1. */
int dsl_str_getattr(struct dsl_interp *in, struct dsl_value v, const char *name,
                    struct dsl_value *out);

#endif
