/* packages.h — a package's files written in cells (internal to kernel/lang).
 *
 * A cell that starts with `%%minitorch_file NAME.py` is the file NAME.py of the minitorch
 * package: running it runs its code as the module `minitorch.NAME`, whose attributes are that
 * code's global variables (so each file has its own, as in Python: scalar_functions.py's Mul
 * and tensor_functions.py's Mul are two names in two modules). Running the cell again runs it
 * again in the same module, as importlib.reload does. The session keeps each module until
 * %reset or its end; `import minitorch.NAME`, `from minitorch.NAME import x`, a file's relative
 * imports and `minitorch.x` (lib/modules) find them through the functions below. */
#ifndef KERNEL_LANG_PACKAGES_H
#define KERNEL_LANG_PACKAGES_H

#include "lang/interp.h"

#include <stdbool.h>

/* The package a file cell writes into. */
#define DSL_PACKAGE "minitorch"

/* The global variables of the running code when it is a package's file (its module's
 * attributes), else NULL: a cell's are the session's. Inline: every read of a global asks. */
static inline struct dsl_attrs *dsl_package_globals(const struct dsl_interp *in)
{
    return in->code && in->code->module.kind == DSL_INSTANCE ? &in->code->module.as.inst->attrs
                                                             : NULL;
}

/* Makes code (parsed from a statement the running code hands over: %time's, compare()'s) run
 * with the running code's globals. */
void dsl_package_share(const struct dsl_interp *in, struct dsl_code *code);

/* The module a file cell made under the full name `name` ("minitorch.scalar"), borrowed, or
 * NULL. */
struct dsl_value *dsl_package_find(struct dsl_session *s, const char *name);
/* dsl_package_find for a name whose dsl_name_hash the caller has: a caller that asks for the
 * same names often hashes them once. */
struct dsl_value *dsl_package_find_hashed(struct dsl_session *s, const char *name, size_t hash);

/* A file's module's __name__ (borrowed text; "?" when a program rebound it to a non-string). */
const char *dsl_package_name(struct dsl_value module);

/* In module (a file's), the value `name` that `from module import *` would bind: its __all__
 * names it, or (without __all__) it does not start with '_'. Borrowed, or NULL. */
struct dsl_value *dsl_package_export(struct dsl_value module, const char *name);
/* dsl_package_export for a name whose dsl_name_hash the caller has. */
struct dsl_value *dsl_package_export_hashed(struct dsl_value module, const char *name, size_t hash);

/* The full name of the module that relative import `dotted` (leading dots: "..a", ".") names
 * from the running code: 0 with a malloc'd name in *out, or -1 after raising ImportError (a
 * cell is in no package; more dots than the package is deep). */
int dsl_package_resolve(struct dsl_interp *in, const char *dotted, char **out);

/* Source text is a file cell: its first line is `%%NAME ARGS`. */
bool dsl_is_file_cell(const char *src);

/* Runs file cell `cell` (parsed with its magic line blanked): checks the magic, makes or finds
 * the module and runs the code with its globals. 0, or -1 after raising. */
int dsl_package_run(struct dsl_interp *in, struct dsl_code *cell);

/* Runs the kernel's own file `file` ("scalar.py", static: its code keeps it), whose text is
 * src[0..len), as the module `name` ("minitorch.scalar"), unless the session has a module of that
 * name already (a student's file, or this one loaded before). Its functions and errors name the
 * file as "minitorch/scalar.py"; a student's file cell of the same name later replaces it by a new
 * module. 0, or -1 after raising (the module is then forgotten, as a failed import). */
int dsl_package_load(struct dsl_interp *in, const char *name, const char *file, const char *src,
                     size_t len);

/* Runs the kernel's own program src[0..len) (`file` names it in errors) as a module `name` of
 * its own that the session does not keep: no import reaches it. Its parsed code is kept in
 * *cache (parsed at the first run; the caller owns it), so that a program run again and again
 * is parsed once. 0 with the module (a new reference) in *out, or -1 after raising.
 * dsl_package_private_end empties and releases it (its functions and their code hold it: a
 * cycle that emptying breaks). */
int dsl_package_private(struct dsl_interp *in, const char *name, const char *file, const char *src,
                        size_t len, struct dsl_code **cache, struct dsl_value *out);
void dsl_package_private_end(struct dsl_value module);

/* The session's module `module` (as dsl_package_find gives it) runs a file of the kernel's
 * (dsl_package_load), not a cell. */
bool dsl_package_builtin(const struct dsl_session *s, const struct dsl_value *module);

/* Empties and forgets every module (%reset, the session's end). A module's functions hold
 * their code and the code its module: emptying the modules first, as CPython empties modules
 * at exit, is what breaks those cycles. */
void dsl_packages_forget(struct dsl_session *s);

#endif
