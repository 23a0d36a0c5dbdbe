/* magics.h — line magics (internal to kernel/dsl).
 *
 * A line starting with `%` runs a magic command, as in IPython: `%backend fast`, `%threads 2`.
 * The lexer hands the line over as one token and the parser splits it into the magic's name and
 * its argument text, so each magic parses its own arguments. Magics are rows of one table
 * {name, usage, fn, doc}; help("%name"), completion after "%" and the error for an unknown
 * magic read the same rows, so adding a magic (%time, %timeit, %who ...) is adding a row. */
#ifndef KERNEL_DSL_MAGICS_H
#define KERNEL_DSL_MAGICS_H

#include "render/render.h"

#include <stddef.h>

struct dsl_interp;

/* Runs a magic on its argument text (trimmed; "" when none). Returns 0, or -1 after raising. */
typedef int (*dsl_magic_fn)(struct dsl_interp *in, const char *args);

struct dsl_magic {
    const char *name;  /* without the '%' */
    const char *usage; /* "%backend [simple|fast|cuda]" */
    dsl_magic_fn fn;
    const char *doc;
};

extern const struct dsl_magic dsl_magics[]; /* sorted by name */
extern const size_t dsl_magic_count;

/* The magic called `name` (without '%'), or NULL. */
const struct dsl_magic *dsl_magic_find(const char *name);

/* Appends the usage line, a blank line and the doc of m. */
int dsl_magic_help(struct render_buf *b, const struct dsl_magic *m);

/* Runs `%name args`; an unknown name raises UsageError listing the known magics. Errors raised
 * without a position point at `pos` (the '%'). Returns 0 or -1. */
int dsl_magic_run(struct dsl_interp *in, const char *name, const char *args, size_t pos);

#endif
