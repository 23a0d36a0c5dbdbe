/* native.h — functions written in C: the row that describes one, and how a call's arguments
 * bind to it (internal to kernel/lang).
 *
 * Every builtin and every method (of lists here, of tensors in the library) is one row: name,
 * signature line, docstring, positional arity, keyword parameters and the C function. The
 * evaluator binds call arguments against the row, and help(), dsl_inspect and dsl_complete read
 * the same rows, so a builtin is documented and completable the moment it is added. The
 * library's table of builtins is declared in library.h.
 *
 * Binding rules (dsl_bind_args):
 *  - max_args >= 0: positional argument i fills slot i; `params` (may be NULL: no keywords
 *    accepted) names the slots, so they may also be passed by keyword. Slots [0, min_args)
 *    must be filled.
 *  - max_args < 0 (varargs, like print): positional arguments go to `rest`, of which at least
 *    min_args are needed; `params` are keyword-only parameters filling the slots.
 *  - params == dsl_any_keywords: every keyword argument is handed over as it is, in
 *    kwnames/kwvals. */
#ifndef KERNEL_LANG_NATIVE_H
#define KERNEL_LANG_NATIVE_H

#include "lang/values.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#define DSL_MAX_PARAMS 8

struct dsl_interp;

struct dsl_args {
    struct dsl_value self;        /* methods: the value the method is bound to; else none */
    const struct dsl_value *rest; /* varargs builtins: the positional arguments (borrowed) */
    size_t nrest;
    struct dsl_value slot[DSL_MAX_PARAMS]; /* borrowed; valid where has[i] */
    bool has[DSL_MAX_PARAMS];
    char *const *kwnames; /* dsl_any_keywords rows: the call's keyword arguments (borrowed) */
    const struct dsl_value *kwvals;
    size_t nkw;
};

/* Runs a builtin: returns 0 with a new value in *ret (owned by the caller), or -1 after
 * raising an error on `in`. Arguments are borrowed. */
typedef int (*dsl_builtin_fn)(struct dsl_interp *in, const struct dsl_args *args,
                              struct dsl_value *ret);

struct dsl_builtin {
    const char *name;
    const char *signature;     /* first line of help: "print(*args, sep=\" \", end=\"\\n\")" */
    int min_args, max_args;    /* positional arity; max_args < 0: any number */
    const char *const *params; /* NULL-terminated slot names, or NULL */
    dsl_builtin_fn fn;
    const char *doc; /* the docstring, without the signature */
};

/* The `params` of a row that takes any keyword arguments, handed over in args->kwnames and
 * kwvals (dict(a=1)). */
extern const char *const dsl_any_keywords[];

/* Starts *args for row fn with npos positional arguments in its slots (none for a varargs
 * row, whose arguments go to rest), self none: field by field, as every call of a builtin runs
 * this; the slots a row may read unset (as none) are those past the positional arguments, up
 * to its last parameter (any, for a row that takes keywords). */
static inline void dsl_args_start(const struct dsl_builtin *fn, const struct dsl_value *pos,
                                  size_t npos, struct dsl_args *args)
{
    args->self = dsl_none();
    args->rest = NULL;
    args->nrest = 0;
    args->kwnames = NULL;
    args->kwvals = NULL;
    args->nkw = 0;
    memset(args->has, 0, sizeof args->has);
    size_t upto = fn->max_args < 0 || fn->params ? DSL_MAX_PARAMS : (size_t)fn->max_args;
    for (size_t i = 0; i < npos && i < DSL_MAX_PARAMS; i++) {
        args->slot[i] = pos[i];
        args->has[i] = true;
    }
    for (size_t i = npos; i < upto && i < DSL_MAX_PARAMS; i++) args->slot[i] = dsl_none();
}

/* dsl_bind_args for any call: keywords, varargs, and the errors of a wrong call. */
int dsl_bind_args_any(struct dsl_interp *in, const struct dsl_builtin *fn,
                      const struct dsl_value *pos, size_t npos, char *const *kwnames,
                      const struct dsl_value *kwvals, size_t nkw, struct dsl_args *args);

/* Binds a call's arguments (all borrowed) into *args per the rules above (self left none).
 * Returns 0, or -1 after raising a TypeError on `in`. Inline for the commonest call: positional
 * arguments only, as many as the row takes. */
static inline int dsl_bind_args(struct dsl_interp *in, const struct dsl_builtin *fn,
                                const struct dsl_value *pos, size_t npos, char *const *kwnames,
                                const struct dsl_value *kwvals, size_t nkw, struct dsl_args *args)
{
    if (nkw || fn->max_args < 0 || npos < (size_t)fn->min_args || npos > (size_t)fn->max_args)
        return dsl_bind_args_any(in, fn, pos, npos, kwnames, kwvals, nkw, args);
    dsl_args_start(fn, pos, npos, args);
    return 0;
}

/* Appends the signature line, a blank line and the doc of fn. */
int dsl_builtin_help(struct render_buf *b, const struct dsl_builtin *fn);

#endif
