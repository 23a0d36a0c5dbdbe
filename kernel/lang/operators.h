/* operators.h — Python's operators on the language's values, one file per kind of operand
 * (internal to kernel/lang).
 *
 * dsl_binary and dsl_compare (interp.h) are the entry points; they pick the arithmetic of the
 * operands' kind: numbers (numbers.c), strings and lists (sequences.c), tensors (the library's,
 * through library.h). All take borrowed operands and return 0 with a new value in *out, or -1
 * after raising on `in`. */
#ifndef KERNEL_LANG_OPERATORS_H
#define KERNEL_LANG_OPERATORS_H

#include "lang/lexer.h"
#include "lang/values.h"

#include <stdbool.h>
#include <stdint.h>

struct dsl_interp;

/* Arithmetic operator `op` (+ - * / // % **, not @) on two numbers: float arithmetic when
 * either is a float, else int64 with Python's floor division and modulo; or a bitwise one (& | ^
 * << >>) on two ints or bools (never floats), of two bools a bool for & | ^. */
int dsl_number_binary(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a,
                      struct dsl_value b, struct dsl_value *out);

/* a + b for two strings or two lists (of the same kind). */
int dsl_seq_concat(struct dsl_interp *in, struct dsl_value a, struct dsl_value b,
                   struct dsl_value *out);
/* seq * n for a string or a list; n <= 0 gives an empty one. */
int dsl_seq_repeat(struct dsl_interp *in, struct dsl_value seq, int64_t n, struct dsl_value *out);

/* Python's a // b of ints (b != 0), and a % b into *mod unless NULL: both round toward minus
 * infinity. INT64_MIN // -1 wraps to INT64_MIN, as numpy's int64 does (numbers.c; Python's own
 * int raises first). */
int64_t dsl_int_floordiv(int64_t a, int64_t b, int64_t *mod);
/* Python's a // b of floats (b != 0, CPython's float_divmod), and a % b into *mod. */
double dsl_float_floordiv(double a, double b, double *mod);

/* The slice parts[3] (none where omitted) over a sequence of len items, as CPython's
 * slice.indices: the first index, the step and how many (slices.c). 0 or -1 after raising. */
int dsl_slice_span(struct dsl_interp *in, const struct dsl_value parts[3], int64_t len,
                   int64_t *start, int64_t *step, int64_t *count);

/* seq[start:stop:step] for a list, tuple, string or range (slices.c): parts are the three
 * bounds, none where omitted. */
int dsl_slice_get(struct dsl_interp *in, struct dsl_value seq, const struct dsl_value parts[3],
                  struct dsl_value *out);
/* xs[start:stop:step] = v (all borrowed) for a list: the items of the iterable v replace the
 * slice (an extended slice, step != 1, takes exactly as many as it has). */
int dsl_slice_set(struct dsl_interp *in, struct dsl_value xs, const struct dsl_value parts[3],
                  struct dsl_value v);

/* Appends format(v, spec[0..n)) (format.c): Python's format specification mini-language for
 * strings, ints, bools and floats; other values take only an empty spec (their str). 0, or -1
 * after raising ValueError or TypeError with CPython's messages. */
struct render_buf;
int dsl_format(struct dsl_interp *in, struct render_buf *b, struct dsl_value v, const char *spec,
               size_t n);
/* fmt % args for a string fmt (format.c): printf-style formatting with CPython's rules and
 * errors; args is a tuple of values, a mapping for %(name)s, or one value. */
int dsl_str_percent(struct dsl_interp *in, struct dsl_value fmt, struct dsl_value args,
                    struct dsl_value *out);
/* The builtin format(value, format_spec=""). */
struct dsl_args;
int dsl_bi_format(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret);

/* Python ==, raising RecursionError for lists nested too deep to compare. 0 or -1. */
int dsl_equal(struct dsl_interp *in, struct dsl_value a, struct dsl_value b, bool *res);
/* a op= b where no in-place form applies (a list's +=, a string's): a op b, an instance's
 * __iop__ first, and the error naming op= as CPython's does. 0 or -1. */
int dsl_binary_inplace(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a,
                       struct dsl_value b, struct dsl_value *out);
/* `item in seq` for a list, string, range, dict, set or instance; TypeError for other kinds.
 * 0 or -1. */
int dsl_contains(struct dsl_interp *in, struct dsl_value item, struct dsl_value seq, bool *res);

#endif
