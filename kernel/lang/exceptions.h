/* exceptions.h — Python's exceptions: the built-in exception classes, exception values, and
 * what try/except/raise need from the pending error (internal to kernel/lang).
 *
 * An error travels as interp.h describes: (ename, evalue, position, traceback) on the interp,
 * passed up as -1. That stays the one mechanism: the library raises by name (dsl_raise), and the
 * language adds only what Python code can see of it:
 *
 *  - the exception classes are values (DSL_EXC_TYPE): one static row per class, with its name,
 *    its base and its help text, in one table (exceptions.c) that follows CPython's hierarchy
 *    (ZeroDivisionError < ArithmeticError < Exception < BaseException; KeyboardInterrupt <
 *    BaseException only), plus MiniTorch's IndexingError and the kernel's own ShapeError,
 *    CompileError, UsageError and StdinNotImplementedError. Every name the library raises is a
 *    row, so `except` can tell where any error belongs;
 *  - an exception is a value (DSL_EXCEPTION): its class and its `args` tuple, made by calling a
 *    class (`ValueError("msg")`) or, for an error the interpreter or the library raised, when an
 *    `except E as e` clause first asks for it (args = (message,));
 *  - `raise e` puts e on the interp beside its name and str(e) (`exc`), so that catching it
 *    again gives the same object back.
 *
 * Subclassing (`class MyError(Exception)`): a class is found by name only where an error is
 * raised by name; everywhere else code goes through dsl_exc_class_of and dsl_exc_type_is, so a
 * user class deriving from a row is one more way to answer those two, not a second mechanism. */
#ifndef KERNEL_LANG_EXCEPTIONS_H
#define KERNEL_LANG_EXCEPTIONS_H

#include "lang/interp.h"
#include "lang/native.h"

/* A built-in exception class: a static row of the table. */
struct dsl_exc_type {
    const char *name;
    const struct dsl_exc_type *base; /* NULL for BaseException */
    const char *doc;                 /* help(ValueError) */
};

/* An exception value: what `ValueError("msg")` makes. */
struct dsl_exception {
    size_t refs;
    struct dsl_gc gc;
    const struct dsl_exc_type *type;
    struct dsl_value args; /* a tuple, owned (a list's parents count it) */
    struct dsl_str *msg;   /* str(e) when the library raised it (its message as written), else
                            * NULL: str(e) comes from args, as Python's */
    struct dsl_value dead; /* while being freed: the next container to free */
};

/* The table, in declaration order (a base before the classes deriving from it). */
extern const struct dsl_exc_type dsl_exc_types[];
extern const size_t dsl_exc_type_count;

/* The class called name, or NULL. */
const struct dsl_exc_type *dsl_exc_type_find(const char *name);
/* Whether a is b or derives from it. */
bool dsl_exc_type_is(const struct dsl_exc_type *a, const struct dsl_exc_type *b);

static inline struct dsl_value dsl_exc_type_value(const struct dsl_exc_type *t)
{
    return (struct dsl_value){.kind = DSL_EXC_TYPE, .as.exc_type = t};
}

/* A new exception of class t with args (a tuple, owned) and, when msg is not NULL, its str:
 * DSL_V_OK or DSL_V_NOMEM (args released). */
int dsl_exception_new(const struct dsl_exc_type *t, struct dsl_value args, const char *msg,
                      struct dsl_value *out);
/* Calls exception class t with positional arguments (borrowed): 0 with the exception, or -1
 * after raising (TypeError for keyword arguments, MemoryError). */
int dsl_exc_type_call(struct dsl_interp *in, const struct dsl_exc_type *t,
                      const struct dsl_value *pos, size_t npos, size_t nkw, struct dsl_value *out);
/* e.args, and a class's __name__: 0 with a new value, or -1 after raising AttributeError. */
int dsl_exc_getattr(struct dsl_interp *in, struct dsl_value v, const char *name,
                    struct dsl_value *out);
/* BaseException's args setter: tuple(v) (a TypeError when v is not iterable) into *out. 0 or
 * -1. */
int dsl_exc_args_tuple(struct dsl_interp *in, struct dsl_value v, struct dsl_value *out);
/* e.name = value on an exception (DSL_EXCEPTION): `args` (as a tuple), else AttributeError. */
int dsl_exc_setattr(struct dsl_interp *in, struct dsl_value v, const char *name,
                    struct dsl_value value);
/* help(ValueError), help(e): the class line, its bases and its doc. */
int dsl_exc_help(struct render_buf *b, const struct dsl_exc_type *t);

/* ---- the pending error, as try/except/finally handle it -------------------------------- */

/* An error taken off the interp: everything dsl_raise and the unwinding put there. */
struct dsl_exc_saved {
    const char *ename; /* NULL: nothing saved */
    char *evalue;
    bool has_pos;
    size_t pos;
    const char *src;               /* the source pos indexes */
    const struct dsl_frame *frame; /* the call it was caught in (NULL: cell level) */
    struct dsl_tb_entry *tb;
    size_t ntb, captb;
    struct dsl_value exc; /* the exception value, or none until one is asked for */
};

/* Moves the pending error into *s, leaving the interp with none. */
void dsl_exc_take(struct dsl_interp *in, struct dsl_exc_saved *s);
/* Moves *s back onto the interp (which must have no error pending); *s is left empty. */
void dsl_exc_put(struct dsl_interp *in, struct dsl_exc_saved *s);
/* Frees what *s holds. */
void dsl_exc_saved_free(struct dsl_exc_saved *s);
/* The class of the saved error (a name the table lacks counts as Exception). */
const struct dsl_exc_type *dsl_exc_saved_type(const struct dsl_exc_saved *s);
/* Whether the saved error is an instance of `cls`: a class or a tuple of classes (borrowed).
 * 0 with *match set, or -1 after raising TypeError for anything else. */
int dsl_exc_matches(struct dsl_interp *in, const struct dsl_exc_saved *s, struct dsl_value cls,
                    bool *match);
/* The saved error as an exception value (a new reference): the one raised, or one made now
 * from its name and message and kept in s->exc, so that asking twice gives the same one. 0 or
 * -1 after raising MemoryError. */
int dsl_exc_value(struct dsl_interp *in, struct dsl_exc_saved *s, struct dsl_value *out);

/* An except clause caught the saved error: for KeyboardInterrupt the interrupt is requested
 * again (see exceptions.c for why). */
void dsl_exc_caught(const struct dsl_exc_saved *s);

/* Whether v is an exception or an exception class (a row, or a class deriving from one). */
bool dsl_exc_raisable(struct dsl_value v);
/* `raise v`: v (borrowed) an exception or a class (called without arguments). Raises it on the
 * interp at pos and returns -1, also when v is neither (TypeError). */
int dsl_exc_raise(struct dsl_interp *in, struct dsl_value v, size_t pos);
/* The same without a position, for a builtin (its call locates the error). -1. */
int dsl_exc_throw(struct dsl_interp *in, struct dsl_value v);
/* Bare `raise`: raises the exception being handled again (its position and traceback when
 * raised again from the source it was caught in), or RuntimeError when there is none. -1. */
int dsl_exc_reraise(struct dsl_interp *in, size_t pos);

#endif
