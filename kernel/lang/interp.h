/* interp.h — the evaluator's state and error raising (internal to kernel/lang).
 *
 * A `struct dsl_interp` lives for one dsl_execute/dsl_evaluate call: the session whose
 * variables it reads and writes, the output sink, the cell source (for error locations) and
 * the pending error. Errors are Python-style exceptions carried as (ename, evalue, position):
 * a function that fails raises on the interp and returns -1, and callers pass -1 up. A raise
 * without a position gets the position of the innermost enclosing call or statement that
 * notices it, so builtins need not know where they were called from. */
#ifndef KERNEL_LANG_INTERP_H
#define KERNEL_LANG_INTERP_H

#include "lang/ast.h"
#include "lang/dsl.h"
#include "lang/values.h"

#include "minitorch/minitorch.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dsl_exc_saved;  /* exceptions.h */
struct dsl_student_op; /* the library's lib/student.h */

struct dsl_var {
    char *name;             /* owned; NULL marks an empty slot */
    struct dsl_value value; /* owned reference */
};

/* The state of a session: the variables, an open-addressing hash table (power-of-two
 * capacity), and the engine context every tensor of the session is made with (default backend,
 * threads, memory limit, random generator). */
/* One function per map, zip and reduce op of the engine, and matrix_multiply. */
#define DSL_STUDENT_FNS (MT_MAP_COUNT + MT_ZIP_COUNT + MT_RED_COUNT + 1)

struct dsl_session {
    struct dsl_var *vars;
    size_t cap, count;
    size_t version;            /* dsl_table_version of the last name to come or go (0: none) */
    struct mt_ctx *ctx;        /* owned; freed after every variable is released */
    bool diagnostics;          /* %diagnostics on: every cell shows what the engine did */
    bool diag_explained;       /* a diagnostics table has said what its columns mean */
    const char *plot_renderer; /* %plot_renderer: "auto", "vegalite", "html" or "svg" (static) */
    unsigned train_runs;       /* train() calls so far: each live display gets its own id */
    long execution_count;      /* In[n] of the cells being run; 0: unnumbered */
    double compare_budget_s;   /* compare(): what each backend's timing aims for (1 s; the
                                * language's fuzz target sets 0: one timed run) */
    /* The student backend (lib/student.c): the class of ops minitorch.TensorBackend(ops) was
     * last given (none before), and what its map, zip, reduce and matrix_multiply made for each
     * engine op so far (none until the op's first use). Owned references. */
    struct dsl_value student_ops;
    struct dsl_value student_fns[DSL_STUDENT_FNS];
    /* the engine op the student's code is running for (lib/student.c; NULL otherwise) */
    const struct dsl_student_op *student_op;
    /* cells run so far, silent ones too (a cell's number where execution_count is not) */
    unsigned long cells_run;
    /* the functions given to njit whose compiled code ran last, the latest first, and the
     * cell (cells_run) each last ran in; held for parallel_diagnostics() without arguments
     * (lib/jit) */
    struct dsl_value jit_recent[8];
    unsigned long jit_recent_cell[8];
    int jit_nrecent;
    unsigned grader_rebound; /* cells' attempts to bind a grader's name (refused) */
    /* the modules of the package's files that cells wrote (lang/packages.c): owned instances
     * of the module class, in the order first written */
    struct dsl_value *packages;
    char **package_names;   /* owned: each module's full name, as made (lookups by name) */
    size_t *package_hashes; /* owned: each name's dsl_name_hash, compared before its text */
    bool *package_builtin;  /* owned: the module runs a file of the kernel's (dsl_package_load) */
    size_t npackages;
    /* changes whenever a module is added or dropped, to a value no session had before (0: none
     * ever was): what a cache of positions in the arrays above checks */
    size_t packages_gen;
    /* check is running: the ops (1 << DSL_SOP_MAP, ...) that must be the student's class's own
     * (lib/student.c refuses them inherited, or run by the kernel's own backends), and the ops
     * the student backend ran on those for the ops it inherits */
    unsigned grading;
    /* check() of the course's Modules is running: code of the kernel's own files
     * (dsl_package_load) refuses to run, every file's or (course_file) only that file's, and so
     * does a builtin this says is the kernel's MiniTorch (a student's function that hands its
     * work to the kernel's operators), so that what is graded is the student's */
    bool course_grading;
    const char *course_file;
    bool (*course_refuses)(const struct dsl_builtin *fn);
    struct dsl_code *check_code; /* owned: that check's program, parsed at its first run */
    uint64_t inherited_ops;
    int graded_ops; /* graded student ops running (nested: an op that calls ops) */
};

/* The local variables of one running call of a user function: slot i holds fn->locals[i]. */
struct dsl_frame {
    const struct dsl_function *fn;
    struct dsl_value *vals; /* owned references; none where !bound */
    bool *bound;            /* assigned yet (reading an unbound local is UnboundLocalError) */
};

/* The variables of one running comprehension ([x * y for x in xs for y in ys]): its `for`
 * targets, which as in Python 3 live in a scope of their own, seen by the comprehension's
 * expressions before the enclosing call's locals and the session's variables, and gone when it
 * ends. Comprehensions nest through `up`; a function called from inside one does not see them. */
struct dsl_comp_var {
    const char *name;       /* borrowed from the AST */
    struct dsl_value value; /* owned reference, where bound */
    bool bound;
};
struct dsl_comp_scope {
    struct dsl_comp_var *vars; /* owned array */
    size_t n, cap;
    struct dsl_comp_scope *up; /* the enclosing comprehension's, or NULL */
};

/* One line of a traceback below the cell: where the error, or the call leading to it, was in a
 * function's body. */
struct dsl_tb_entry {
    struct dsl_code *code; /* owned reference: the source the position indexes */
    size_t pos;
    char *func; /* owned: the function's name */
};

/* Calls nest at most this deep (Python's default recursion limit)... */
#define DSL_MAX_CALL_DEPTH 1000
/* ...and the syntax trees of the running calls' bodies add up to at most this height, so that a
 * deep recursion through a complicated body cannot overflow the C stack either (one level of
 * tree costs about two C frames of the evaluator; an ASan build's frames are the largest, and
 * twice this height overflows its 8 MiB stack). */
#define DSL_MAX_EVAL_HEIGHT 10000

struct dsl_interp {
    struct dsl_session *session;
    const struct dsl_output *out; /* never NULL; its callbacks may be */
    const char *src;              /* the source being run: the cell's, or inside a call the
                                   * function's defining cell (error positions index it) */
    size_t src_len;
    struct dsl_code *code;   /* the parsed cell that src belongs to (a def keeps it);
                              * NULL for an expression evaluated alone */
    struct dsl_frame *frame; /* the innermost running call, NULL at cell level */
    /* frame where neither a comprehension nor a class body runs in it (comp and class_ns
     * NULL), else NULL: where a name's read or store may be its plain local's
     * (dsl_local_value). Whoever sets frame, comp or class_ns sets it too. */
    struct dsl_frame *locals;
    int calls;               /* running calls */
    int height;              /* the running calls' body heights added up */
    struct dsl_value retval; /* the value of the `return` that is ending a call */
    struct dsl_tb_entry *tb; /* innermost first: the calls an error went through */
    size_t ntb, captb;
    size_t out_bytes;            /* stream text the cell has written (see dsl_emit) */
    size_t shown_bytes;          /* displayed data the cell has sent (see dsl_display) */
    size_t shown;                /* new displays the cell has sent */
    const char *ename;           /* the pending error's name (static), NULL when none */
    char *evalue;                /* its message, malloc'd (NULL: out of memory) */
    bool has_pos;                /* the error has a position */
    size_t pos;                  /* byte offset into src */
    unsigned polls;              /* loop iterations seen by dsl_check_cancel */
    int quiet_attr;              /* in hasattr(), getattr(o, n, default): no near-name hint */
    struct dsl_attrs *class_ns;  /* running a class body: where its names are bound, else NULL */
    struct dsl_interp *outer;    /* the run this one started inside, if any */
    long long last_flush_ns;     /* CLOCK_MONOTONIC of the last out->flush from a loop */
    struct dsl_comp_scope *comp; /* the innermost running comprehension's scope, or NULL */
    struct dsl_list *yields;     /* what the running generator's `yield` appends to, or NULL */
    struct dsl_value exc;        /* the pending error's exception value when `raise` raised one
                                  * (owned), else none (see exceptions.h) */
    const struct dsl_exc_saved *handling; /* the error the innermost running `except` clause
                                           * caught (what a bare `raise` raises), or NULL */
};

/* The innermost run in progress (NULL between runs): what text of a value calls a class's
 * __repr__ or __str__ with, since a value's text is asked for far from any interp. */
extern struct dsl_interp *dsl_running;

/* Calls callee (a function, builtin, bound method, class or callable instance) with the
 * arguments (borrowed): 0 with a new value in *out, or -1 after raising. */
int dsl_call(struct dsl_interp *in, struct dsl_value callee, const struct dsl_value *pos,
             size_t npos, char *const *kwnames, const struct dsl_value *kwvals, size_t nkw,
             struct dsl_value *out);

/* Calls fn (a user function, or a builtin row as DSL_BUILTIN, which gets self as args.self)
 * with self before the arguments: a method call without a bound method. 0 or -1. */
int dsl_call_method(struct dsl_interp *in, struct dsl_value fn, struct dsl_value self,
                    const struct dsl_value *pos, size_t npos, char *const *kwnames,
                    const struct dsl_value *kwvals, size_t nkw, struct dsl_value *out);

/* obj.name, for any value: 0 with a new value in *out, or -1 after raising AttributeError. */
int dsl_getattr(struct dsl_interp *in, struct dsl_value obj, const char *name,
                struct dsl_value *out);
/* obj.name = v (borrowed): 0 or -1. */
int dsl_setattr(struct dsl_interp *in, struct dsl_value obj, const char *name, struct dsl_value v);
/* dsl_getattr and dsl_setattr for a name whose dsl_name_hash the caller has (a parsed `.name`):
 * the lookups in instances and classes take it instead of hashing the name each time. */
int dsl_getattr_hashed(struct dsl_interp *in, struct dsl_value obj, const char *name, size_t hash,
                       struct dsl_value *out);
int dsl_setattr_hashed(struct dsl_interp *in, struct dsl_value obj, const char *name, size_t hash,
                       struct dsl_value v);
/* Binds a call's arguments (borrowed) to user function f's parameters in frame (positional,
 * *args as a tuple, keyword-only, **kwargs as a dict, defaults), with CPython's TypeErrors
 * (lang/calls.c). 0 or -1. */
int dsl_bind_params(struct dsl_interp *in, const struct dsl_function *f,
                    const struct dsl_value *pos, size_t npos, char *const *kwnames,
                    const struct dsl_value *kwvals, size_t nkw, struct dsl_frame *frame);

/* Evaluates the arguments of call node n, which unpacks some (f(*xs, **d): its flag), and
 * calls callee (borrowed, from a caller that holds it until the call returns) with them, after
 * self (borrowed) unless self is none: a method called on its object without a bound method
 * (lang/calls.c). 0 with a new value in *out, or -1. */
int dsl_call_unpacking(struct dsl_interp *in, const struct dsl_node *n, struct dsl_value callee,
                       struct dsl_value self, struct dsl_value *out);

/* Raises ename (a static string) with a printf-style message; returns -1. The _at form also
 * records the position. A second raise while one is pending is ignored. */
int dsl_raise(struct dsl_interp *in, const char *ename, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int dsl_raise_at(struct dsl_interp *in, size_t pos, const char *ename, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Raises ename at byte `pos` of user function f's source, with f's traceback line, as an error
 * inside a call of f would be (the compiler of user functions reports through it). -1. */
int dsl_raise_in(struct dsl_interp *in, const struct dsl_function *f, size_t pos, const char *ename,
                 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Records that an error left user function f's body at in->pos: one traceback line, innermost
 * first. The position is then cleared so that the call site in the caller's source locates it
 * next. */
void dsl_interp_push_tb(struct dsl_interp *in, const struct dsl_function *f);
/* The same for code that is no function's body (a module's top level): func names it. */
void dsl_interp_push_tb_code(struct dsl_interp *in, struct dsl_code *code, const char *func);
/* Raises the error a dsl_vstatus stands for (MemoryError, RecursionError); returns -1.
 * DSL_V_NOMEM after the limit of values' memory refused an allocation (values.h) raises the
 * MemoryError that names the limit. */
int dsl_raise_status(struct dsl_interp *in, int status);
/* A size as a person reads it: "512 bytes", "1.5 KiB", "64.0 MiB", "128 GiB". */
void dsl_format_bytes(size_t bytes, char *buf, size_t n);
/* Raises the MemoryError of a `what` ("string" or "list") of `asked` bytes or items, over
 * DSL_MAX_STR_BYTES or DSL_MAX_LIST_LEN: it names the size asked for and the limit. -1. */
int dsl_raise_size(struct dsl_interp *in, const char *what, uint64_t asked);
/* Gives a pending error without a position the position `pos`. */
void dsl_error_locate(struct dsl_interp *in, size_t pos);
/* dsl_check_cancel's poll when the flag is up, and every 1024th. */
int dsl_poll(struct dsl_interp *in, size_t pos);
/* Called at every loop iteration. Raises KeyboardInterrupt at pos and returns -1 when the
 * cancel flag is up, else 0. Every FLUSH_EVERY_NS it also calls out->flush, so that what a cell
 * printed before a long computation reaches the user while the computation runs. The flag is
 * read atomically (another thread raises it); the rest of the poll is inline. */
static inline int dsl_check_cancel(struct dsl_interp *in, size_t pos)
{
    if (!mt_cancel_requested() && (++in->polls & 1023) != 0) return 0;
    return dsl_poll(in, pos);
}

/* Most stream text one cell may write: a front end given more freezes, and no one reads it.
 * Past it the cell goes on, its stream output dropped after one note saying so. */
#define DSL_MAX_CELL_OUTPUT ((size_t)10 << 20)

/* Writes text to the cell's stream `name` ("stdout", "stderr"), within DSL_MAX_CELL_OUTPUT. */
void dsl_emit(struct dsl_interp *in, const char *name, const char *text);

/* Most data, and most new displays, one cell may display: each new display stays in the
 * notebook, and thousands of them freeze a front end as stream text does. Updates of a display
 * (update=true) replace what is shown instead, and are not counted: the Jupyter layer sends at
 * most one per display id every 50 ms. Past either limit the cell goes on, its new displays
 * dropped after one note saying so. */
#define DSL_MAX_CELL_DISPLAY ((size_t)10 << 20)
#define DSL_MAX_CELL_DISPLAYS 1000

/* Sends a mime bundle to the cell's output (display(), charts, tables), within the limits
 * above: the one way values reach in->out->display. */
void dsl_display(struct dsl_interp *in, json_t *bundle, const char *display_id, bool update);

/* Frees the traceback entries (after the error was reported). */
void dsl_interp_clear_tb(struct dsl_interp *in);
/* Drops the pending error (and its traceback): for a builtin that handles the failure of a
 * call it made itself. */
void dsl_interp_clear_error(struct dsl_interp *in);

/* Variables: the value bound to name (borrowed), or NULL. */
struct dsl_value *dsl_session_lookup(struct dsl_session *s, const char *name);
/* dsl_session_lookup for a name whose dsl_name_hash the caller has (a parsed name). */
struct dsl_value *dsl_session_lookup_hashed(struct dsl_session *s, const char *name, size_t hash);
/* Forgets the variable name (releasing its value); nothing when there is none. */
void dsl_session_unset(struct dsl_session *s, const char *name);
/* Binds name to value, taking ownership of value (released on failure). 0 or DSL_V_NOMEM. */
int dsl_session_assign(struct dsl_session *s, const char *name, struct dsl_value value);

/* Runs a parsed cell. When `result` is non-NULL and the last statement is an expression not
 * followed by ';', its value lands there (owned by the caller); otherwise *result is none.
 * Returns 0 or -1 (error pending on `in`). */
int dsl_run_block(struct dsl_interp *in, const struct dsl_node *block, struct dsl_value *result);
/* Evaluates an expression: 0 with a new value in *out, or -1. */
int dsl_eval(struct dsl_interp *in, const struct dsl_node *expr, struct dsl_value *out);

/* Appends the str() of v, raising MemoryError on failure. */
int dsl_str_of(struct dsl_interp *in, struct render_buf *b, struct dsl_value v);

/* A value's text is made by calling the user's __repr__ or __str__, which may raise: the
 * status DSL_V_RAISED of dsl_value_repr/str (values.h) says so, its error pending on the
 * running interp. Most callers pass it on (dsl_raise_status returns -1 for it), as CPython
 * does. Where CPython shows a value without letting its text fail (a traceback's last line
 * prints "<exception str() failed>", IPython's %whos a stand-in), the caller drops the error
 * with this and shows its stand-in: true when st is DSL_V_RAISED and the error was cleared;
 * false for any other status, and for an interrupt, which stays pending and must be passed on. */
bool dsl_text_error_drop(struct dsl_interp *in, int st);
/* What CPython's traceback shows for an exception whose str() raised. */
#define DSL_STR_FAILED "<exception str() failed>"

/* Python comparison a < b etc. for numbers, strings and lists (op: DSL_T_LT, LE, GT, GE).
 * 0 with *res set, or -1 after raising TypeError. */
int dsl_compare(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a, struct dsl_value b,
                bool *res);

/* One comparison `left op right` (any of Python's comparison operators, `in` and `is`) as a
 * value: a bool, or what a tensor's or an instance's comparison gives (a tensor; whatever the
 * method returns). 0 with a new value in *out, or -1 after raising. */
int dsl_compare_value(struct dsl_interp *in, enum dsl_tok op, struct dsl_value left,
                      struct dsl_value right, struct dsl_value *out);
/* Python's unary operator `op` (DSL_T_MINUS, DSL_T_PLUS, DSL_T_TILDE) on v (borrowed): 0 with a
 * new value in *out, or -1 after raising. */
int dsl_unary(struct dsl_interp *in, enum dsl_tok op, struct dsl_value v, struct dsl_value *out);

/* Python's binary operator `op` (DSL_T_PLUS ... DSL_T_DSTAR, DSL_T_AT) on a and b (borrowed):
 * 0 with a new value in *out, or -1 after raising. */
int dsl_binary(struct dsl_interp *in, enum dsl_tok op, struct dsl_value a, struct dsl_value b,
               struct dsl_value *out);

/* Iteration over a list, string (by character), range, dict (its keys), a sequence-like
 * object, or an instance of a user class (its __iter__, datamodel.h). The iterator borrows the
 * value it was given; what it makes to iterate (what __iter__ returned) it owns until
 * dsl_iter_end, which every dsl_iter_init that succeeded must be paired with. */
struct dsl_iter {
    struct dsl_value src;
    size_t i;             /* next list index or string byte offset */
    int64_t k;            /* next range index */
    int64_t n;            /* a range's length */
    struct dsl_value own; /* what the iterator holds (none: nothing) */
};
/* 0, or -1 after raising TypeError when v is not iterable (nothing then to end). */
int dsl_iter_init(struct dsl_interp *in, struct dsl_value v, struct dsl_iter *it);
/* dsl_iter_next of what is neither a list nor a range. */
int dsl_iter_next_any(struct dsl_interp *in, struct dsl_iter *it, struct dsl_value *out);
/* 1 with a new value in *out, 0 at the end, -1 after raising. Inline for a list or a range,
 * what most loops go over. */
static inline int dsl_iter_next(struct dsl_interp *in, struct dsl_iter *it, struct dsl_value *out)
{
    struct dsl_value v = it->src;
    if (v.kind == DSL_LIST) {
        if (it->i >= v.as.l->len) return 0;
        *out = dsl_value_retain(v.as.l->items[it->i++]);
        return 1;
    }
    if (v.kind == DSL_RANGE) {
        if (it->k >= it->n) return 0;
        *out = dsl_int(
            (int64_t)((uint64_t)v.as.rng->r.start + (uint64_t)it->k * (uint64_t)v.as.rng->r.step));
        it->k++;
        return 1;
    }
    return dsl_iter_next_any(in, it, out);
}
/* Releases what the iterator holds. */
static inline void dsl_iter_end(struct dsl_iter *it)
{
    dsl_value_release(it->own);
    it->own = dsl_none();
}

/* Special methods of an instance of a user class, for the builtins: truth (__bool__, else
 * __len__), len(v) (__len__; also the length of an instance's __dict__), hash(v) (__hash__, or
 * the identity's; unhashable where the class defines __eq__ alone), abs(v) (__abs__). 0 or -1
 * after raising CPython's TypeError. dsl_identity_hash: object.__hash__. */
int dsl_instance_truth(struct dsl_interp *in, struct dsl_value v, bool *out);
int dsl_instance_len(struct dsl_interp *in, struct dsl_value v, int64_t *n);
int dsl_instance_hash(struct dsl_interp *in, struct dsl_value v, int64_t *h);
int dsl_instance_abs(struct dsl_interp *in, struct dsl_value v, struct dsl_value *out);
/* v.name(*args) for an instance v whose class defines special method `name` (int() asks
 * __int__, float() __float__, round() __round__): 1 with its result, 0 when the class defines
 * none, -1 after raising. */
int dsl_instance_special(struct dsl_interp *in, struct dsl_value v, const char *name,
                         const struct dsl_value *args, size_t nargs, struct dsl_value *out);
int64_t dsl_identity_hash(struct dsl_value v);

/* Python's index rules for a sequence of len items: an int (or bool), negative counting from
 * the end. 0 with *out in [0, len), or -1 after raising TypeError ("<what> indices must be
 * integers") or IndexError ("<what> index out of range"). */
int dsl_index_of(struct dsl_interp *in, struct dsl_value ix, int64_t len, const char *what,
                 int64_t *out);

/* Levenshtein distance of two names (99 for names longer than 64 bytes). */
size_t dsl_edit_distance(const char *a, const char *b);

/* The closest known name to `name` (variables, builtins, constants) within edit distance 2,
 * or NULL. Borrowed from the session/builtin table. */
const char *dsl_suggest_name(struct dsl_session *s, const char *name);

#endif
