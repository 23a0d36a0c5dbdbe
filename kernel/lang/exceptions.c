/* exceptions.c — the built-in exception classes, exception values and the pending error as
 * try/except/raise see it (exceptions.h). */
#include "lang/exceptions.h"

#include "lang/classes.h"
#include "lang/list.h"

#include "minitorch/minitorch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Row indices, so that each row can name its base. */
enum {
    E_BASE,
    E_KEYBOARD,
    E_SYSTEMEXIT,
    E_EXCEPTION,
    E_ARITH,
    E_ZERODIV,
    E_OVERFLOW,
    E_ASSERT,
    E_ATTR,
    E_IMPORT,
    E_MODULE,
    E_LOOKUP,
    E_INDEX,
    E_KEY,
    E_MEMORY,
    E_NAME,
    E_UNBOUND,
    E_RUNTIME,
    E_NOTIMPL,
    E_RECURSION,
    E_STOPITER,
    E_SYNTAX,
    E_INDENT,
    E_SYSTEM,
    E_TYPE,
    E_VALUE,
    E_INDEXING,
    E_SHAPE,
    E_COMPILE,
    E_USAGE,
    E_STDIN,
    E_COUNT
};

#define ROW(i, n, b, d) [i] = {n, &dsl_exc_types[b], d}

/* CPython's classes and docstrings, then MiniTorch's and the kernel's own. ShapeError derives
 * from MiniTorch's IndexingError (a RuntimeError), which MiniTorch raises for a broadcast
 * failure, so that code written for either catches it, as it would PyTorch's shape errors;
 * CompileError (a function map/zip/reduce cannot compile) from Exception, as Numba's errors;
 * UsageError (a magic's arguments) and StdinNotImplementedError as IPython's. */
const struct dsl_exc_type dsl_exc_types[] = {
    [E_BASE] = {"BaseException", NULL,
                "Common base class for all exceptions. `except BaseException:` and a bare "
                "`except:` also catch KeyboardInterrupt."},
    ROW(E_KEYBOARD, "KeyboardInterrupt", E_BASE,
        "Program interrupted by user (Kernel > Interrupt). Not an Exception: `except "
        "Exception:` lets it through. A clause that catches it runs, but the interrupt stays "
        "requested, so the cell stops at its next loop iteration or tensor operation."),
    ROW(E_SYSTEMEXIT, "SystemExit", E_BASE,
        "Request to exit from the interpreter: argparse raises it after -h or an error in the "
        "arguments (its code: 0, or 2). Not an Exception: `except Exception:` lets it through."),
    ROW(E_EXCEPTION, "Exception", E_BASE,
        "Common base class for all non-exit exceptions: `except Exception:` catches every "
        "error but KeyboardInterrupt."),
    ROW(E_ARITH, "ArithmeticError", E_EXCEPTION, "Base class for arithmetic errors."),
    ROW(E_ZERODIV, "ZeroDivisionError", E_ARITH,
        "Second argument to a division or modulo operation was zero."),
    ROW(E_OVERFLOW, "OverflowError", E_ARITH,
        "Result too large to be represented (an int beyond 64 bits)."),
    ROW(E_ASSERT, "AssertionError", E_EXCEPTION, "Assertion failed."),
    ROW(E_ATTR, "AttributeError", E_EXCEPTION, "Attribute not found."),
    ROW(E_IMPORT, "ImportError", E_EXCEPTION,
        "Import can't find module, or can't find name in module."),
    ROW(E_MODULE, "ModuleNotFoundError", E_IMPORT, "Module not found."),
    ROW(E_LOOKUP, "LookupError", E_EXCEPTION, "Base class for lookup errors."),
    ROW(E_INDEX, "IndexError", E_LOOKUP, "Sequence index out of range."),
    ROW(E_KEY, "KeyError", E_LOOKUP, "Mapping key not found."),
    ROW(E_MEMORY, "MemoryError", E_EXCEPTION,
        "Out of memory, or a value over the kernel's limits on strings and lists."),
    ROW(E_NAME, "NameError", E_EXCEPTION, "Name not found globally."),
    ROW(E_UNBOUND, "UnboundLocalError", E_NAME, "Local name referenced but not bound to a value."),
    ROW(E_RUNTIME, "RuntimeError", E_EXCEPTION, "Unspecified run-time error."),
    ROW(E_NOTIMPL, "NotImplementedError", E_RUNTIME,
        "Method or function hasn't been implemented yet (MiniTorch's templates raise it where "
        "a task's code goes)."),
    ROW(E_RECURSION, "RecursionError", E_RUNTIME,
        "Recursion limit exceeded (calls nested deeper than the limit)."),
    ROW(E_STOPITER, "StopIteration", E_EXCEPTION, "Signal the end from iterator.__next__()."),
    ROW(E_SYNTAX, "SyntaxError", E_EXCEPTION,
        "Invalid syntax. A cell with a syntax error does not run at all, so no `except` in "
        "it can catch one."),
    ROW(E_INDENT, "IndentationError", E_SYNTAX, "Improper indentation."),
    ROW(E_SYSTEM, "SystemError", E_EXCEPTION, "Internal error in the interpreter."),
    ROW(E_TYPE, "TypeError", E_EXCEPTION, "Inappropriate argument type."),
    ROW(E_VALUE, "ValueError", E_EXCEPTION, "Inappropriate argument value (of correct type)."),
    ROW(E_INDEXING, "IndexingError", E_RUNTIME,
        "MiniTorch's error for shapes and indices that do not fit (minitorch.tensor_data's "
        "IndexingError, which shape_broadcast raises). The kernel's ShapeError is one."),
    ROW(E_SHAPE, "ShapeError", E_INDEXING,
        "Tensor shapes that do not fit an operation (broadcasting, matmul, view). An "
        "IndexingError, as a broadcast failure is in MiniTorch, so a RuntimeError too, as "
        "PyTorch's shape errors are."),
    ROW(E_COMPILE, "CompileError", E_EXCEPTION,
        "A function given to map, zip or reduce that the kernel cannot compile for a "
        "tensor's backend."),
    ROW(E_USAGE, "UsageError", E_EXCEPTION, "A magic command used with wrong arguments."),
    ROW(E_STDIN, "StdinNotImplementedError", E_NOTIMPL,
        "input() where the front end cannot answer it."),
};
#undef ROW
_Static_assert(sizeof dsl_exc_types / sizeof dsl_exc_types[0] == E_COUNT, "one row per index");
const size_t dsl_exc_type_count = E_COUNT;

const struct dsl_exc_type *dsl_exc_type_find(const char *name)
{
    for (size_t i = 0; i < E_COUNT; i++)
        if (strcmp(dsl_exc_types[i].name, name) == 0) return &dsl_exc_types[i];
    return NULL;
}

bool dsl_exc_type_is(const struct dsl_exc_type *a, const struct dsl_exc_type *b)
{
    for (; a; a = a->base)
        if (a == b) return true;
    return false;
}

int dsl_exception_new(const struct dsl_exc_type *t, struct dsl_value args, const char *msg,
                      struct dsl_value *out)
{
    struct dsl_exception *e = calloc(1, sizeof *e);
    struct dsl_str *m = NULL;
    if (e && msg) {
        size_t n = strlen(msg);
        m = dsl_str_alloc(n);
        if (m) memcpy(m->data, msg, n);
    }
    if (!e || (msg && !m)) {
        free(e);
        dsl_value_release(args);
        return DSL_V_NOMEM;
    }
    e->refs = 1;
    dsl_gc_track(&e->gc, DSL_EXCEPTION);
    e->type = t;
    e->args = args;
    e->msg = m;
    e->dead = dsl_none();
    dsl_value_adopt(args);
    *out = (struct dsl_value){.kind = DSL_EXCEPTION, .as.exc = e};
    return DSL_V_OK;
}

int dsl_exc_type_call(struct dsl_interp *in, const struct dsl_exc_type *t,
                      const struct dsl_value *pos, size_t npos, size_t nkw, struct dsl_value *out)
{
    if (nkw) return dsl_raise(in, "TypeError", "%s() takes no keyword arguments", t->name);
    struct dsl_list *l = dsl_list_new(npos);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    l->style = DSL_LIST_TUPLE;
    for (size_t i = 0; i < npos; i++) {
        dsl_value_adopt(pos[i]);
        l->items[l->len++] = dsl_value_retain(pos[i]);
    }
    int st = dsl_exception_new(t, (struct dsl_value){.kind = DSL_LIST, .as.l = l}, NULL, out);
    return st != DSL_V_OK ? dsl_raise_status(in, st) : 0;
}

int dsl_exc_getattr(struct dsl_interp *in, struct dsl_value v, const char *name,
                    struct dsl_value *out)
{
    if (v.kind == DSL_EXCEPTION && strcmp(name, "args") == 0) {
        *out = dsl_value_retain(v.as.exc->args);
        return 0;
    }
    if (v.kind == DSL_EXCEPTION && strcmp(name, "value") == 0 &&
        dsl_exc_type_is(v.as.exc->type, dsl_exc_type_find("StopIteration"))) {
        /* StopIteration's first argument: what a generator returned */
        const struct dsl_list *a = v.as.exc->args.as.l;
        *out = a->len ? dsl_value_retain(a->items[0]) : dsl_none();
        return 0;
    }
    if (v.kind == DSL_EXC_TYPE && strcmp(name, "__name__") == 0) {
        int st = dsl_str_value(v.as.exc_type->name, strlen(v.as.exc_type->name), out);
        return st != DSL_V_OK ? dsl_raise_status(in, st) : 0;
    }
    const struct dsl_builtin *row = v.kind == DSL_EXC_TYPE ? dsl_exception_method(name) : NULL;
    if (row) { /* Exception.__init__(self, msg) in a class of the program's own */
        *out = (struct dsl_value){.kind = DSL_BUILTIN, .as.fn = row};
        return 0;
    }
    if (v.kind == DSL_EXC_TYPE)
        return dsl_raise(in, "AttributeError", "type object '%s' has no attribute '%s'",
                         v.as.exc_type->name, name);
    return dsl_raise(in, "AttributeError", "'%s' object has no attribute '%s'",
                     v.as.exc->type->name, name);
}

int dsl_exc_args_tuple(struct dsl_interp *in, struct dsl_value v, struct dsl_value *out)
{
    struct dsl_list *l = dsl_list_new(0);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    l->style = DSL_LIST_TUPLE;
    *out = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    if (dsl_list_extend(in, l, v) == 0) return 0;
    dsl_value_release(*out);
    return -1;
}

int dsl_exc_setattr(struct dsl_interp *in, struct dsl_value v, const char *name,
                    struct dsl_value value)
{
    if (strcmp(name, "args") != 0)
        return dsl_raise(in, "AttributeError", "'%s' object has no attribute '%s'",
                         v.as.exc->type->name, name);
    struct dsl_value args;
    if (dsl_exc_args_tuple(in, value, &args) != 0) return -1;
    struct dsl_exception *e = v.as.exc;
    dsl_value_orphan(e->args);
    dsl_value_release(e->args);
    dsl_value_adopt(args);
    e->args = args;
    if (e->msg) { /* str(e) comes from the new args, as Python's */
        dsl_value_release((struct dsl_value){.kind = DSL_STR, .as.s = e->msg});
        e->msg = NULL;
    }
    return 0;
}

int dsl_exc_help(struct render_buf *b, const struct dsl_exc_type *t)
{
    render_buf_printf(b, "class %s(%s)\n\n%s\n\nBuilt-in exception: ", t->name,
                      t->base ? t->base->name : "object", t->doc);
    for (const struct dsl_exc_type *c = t; c; c = c->base)
        render_buf_printf(b, "%s%s", c == t ? "" : " < ", c->name);
    return render_buf_puts(b, ". `except C:` catches C and every class deriving from it; "
                              "C(args) makes one (e.args holds args, str(e) the message), and "
                              "`raise C(\"message\")` raises it.");
}

/* ---- the pending error ------------------------------------------------------------------ */

void dsl_exc_take(struct dsl_interp *in, struct dsl_exc_saved *s)
{
    *s = (struct dsl_exc_saved){.ename = in->ename,
                                .evalue = in->evalue,
                                .has_pos = in->has_pos,
                                .pos = in->pos,
                                .src = in->src,
                                .frame = in->frame,
                                .tb = in->tb,
                                .ntb = in->ntb,
                                .captb = in->captb,
                                .exc = in->exc};
    in->ename = NULL;
    in->evalue = NULL;
    in->has_pos = false;
    in->tb = NULL;
    in->ntb = in->captb = 0;
    in->exc = dsl_none();
}

void dsl_exc_put(struct dsl_interp *in, struct dsl_exc_saved *s)
{
    in->ename = s->ename;
    in->evalue = s->evalue;
    in->has_pos = s->has_pos;
    in->pos = s->pos;
    in->tb = s->tb;
    in->ntb = s->ntb;
    in->captb = s->captb;
    in->exc = s->exc;
    *s = (struct dsl_exc_saved){.exc = dsl_none()};
}

void dsl_exc_saved_free(struct dsl_exc_saved *s)
{
    free(s->evalue);
    for (size_t i = 0; i < s->ntb; i++) {
        dsl_code_release(s->tb[i].code);
        free(s->tb[i].func);
    }
    free(s->tb);
    dsl_value_release(s->exc);
    *s = (struct dsl_exc_saved){.exc = dsl_none()};
}

const struct dsl_exc_type *dsl_exc_saved_type(const struct dsl_exc_saved *s)
{
    if (s->exc.kind == DSL_EXCEPTION) return s->exc.as.exc->type;
    if (s->exc.kind == DSL_INSTANCE) return dsl_class_exc_base(s->exc.as.inst->cls.as.cls);
    const struct dsl_exc_type *t = s->ename ? dsl_exc_type_find(s->ename) : NULL;
    return t ? t : &dsl_exc_types[E_EXCEPTION];
}

/* Whether v is an exception class: a row of the table, or a class deriving from one. */
static bool is_exception_class(struct dsl_value v)
{
    return v.kind == DSL_EXC_TYPE || (v.kind == DSL_CLASS && dsl_class_exc_base(v.as.cls));
}

bool dsl_exc_raisable(struct dsl_value v)
{
    return is_exception_class(v) || v.kind == DSL_EXCEPTION ||
           (v.kind == DSL_INSTANCE && is_exception_class(v.as.inst->cls));
}

/* Whether the saved error is an instance of exception class cls. */
static bool matches(const struct dsl_exc_saved *s, struct dsl_value cls)
{
    if (cls.kind == DSL_EXC_TYPE) return dsl_exc_type_is(dsl_exc_saved_type(s), cls.as.exc_type);
    return s->exc.kind == DSL_INSTANCE && dsl_isinstance(s->exc, cls.as.cls);
}

int dsl_exc_matches(struct dsl_interp *in, const struct dsl_exc_saved *s, struct dsl_value cls,
                    bool *match)
{
    *match = false;
    if (is_exception_class(cls)) {
        *match = matches(s, cls);
        return 0;
    }
    if (dsl_is_tuple(cls)) {
        for (size_t i = 0; i < cls.as.l->len; i++)
            if (!is_exception_class(cls.as.l->items[i])) goto bad;
        for (size_t i = 0; i < cls.as.l->len && !*match; i++)
            *match = matches(s, cls.as.l->items[i]);
        return 0;
    }
bad:
    return dsl_raise(in, "TypeError",
                     "catching classes that do not inherit from BaseException is not allowed");
}

int dsl_exc_value(struct dsl_interp *in, struct dsl_exc_saved *s, struct dsl_value *out)
{
    if (s->exc.kind != DSL_EXCEPTION && s->exc.kind != DSL_INSTANCE) {
        /* an error of the interpreter or the library: args = (message,), as CPython's own
         * errors carry theirs; a bare `assert` has none, so no args */
        const char *msg = s->evalue ? s->evalue : "out of memory";
        /* a MemoryError raised at the limit of values' memory must still be caught */
        dsl_mem_exempt(true);
        struct dsl_list *l = dsl_list_new(1);
        struct dsl_value str;
        int st = l ? DSL_V_OK : DSL_V_NOMEM;
        struct dsl_value args = l ? (struct dsl_value){.kind = DSL_LIST, .as.l = l} : dsl_none();
        if (l) l->style = DSL_LIST_TUPLE;
        if (l && *msg) {
            st = dsl_str_value(msg, strlen(msg), &str);
            if (st == DSL_V_OK) l->items[l->len++] = str;
        }
        if (st == DSL_V_OK)
            st = dsl_exception_new(dsl_exc_saved_type(s), args, *msg ? msg : NULL, &s->exc);
        else
            dsl_value_release(args);
        dsl_mem_exempt(false);
        if (st != DSL_V_OK) return dsl_raise_status(in, st);
    }
    *out = dsl_value_retain(s->exc);
    return 0;
}

/* A name for the pending error that outlives the class it names (an error's name is static
 * wherever it travels): each class name raised is copied once and kept, NULL when out of
 * memory. */
static const char *interned(const char *name)
{
    static char **names;
    static size_t n, cap;
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0) return names[i];
    if (n == cap) {
        size_t ncap = cap ? 2 * cap : 16;
        char **p = realloc(names, ncap * sizeof *p);
        if (!p) return NULL;
        names = p;
        cap = ncap;
    }
    char *copy = strdup(name);
    if (!copy) return NULL;
    return names[n++] = copy;
}

int dsl_exc_throw(struct dsl_interp *in, struct dsl_value v)
{
    struct dsl_value e;
    if (v.kind == DSL_EXC_TYPE) {
        if (dsl_exc_type_call(in, v.as.exc_type, NULL, 0, 0, &e) != 0) return -1;
    } else if (v.kind == DSL_CLASS && is_exception_class(v)) {
        if (dsl_class_call(in, v, NULL, 0, NULL, NULL, 0, &e) != 0) return -1;
    } else if (v.kind == DSL_EXCEPTION ||
               (v.kind == DSL_INSTANCE && is_exception_class(v.as.inst->cls))) {
        e = dsl_value_retain(v);
    } else {
        return dsl_raise(in, "TypeError", "exceptions must derive from BaseException");
    }
    const char *name = e.kind == DSL_EXCEPTION ? e.as.exc->type->name : interned(dsl_type_name(e));
    if (!name) {
        dsl_value_release(e);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_REPR_BYTES);
    int st = dsl_value_str(&b, e);
    /* Python makes the message when the traceback shows it, and shows this when the str() of an
     * argument raises there: the exception itself is raised all the same */
    if (dsl_text_error_drop(in, st)) {
        render_buf_free(&b);
        st = render_buf_puts(&b, DSL_STR_FAILED) == 0 ? DSL_V_OK : DSL_V_NOMEM;
    }
    if (st == DSL_V_OK) {
        dsl_raise(in, name, "%s", render_buf_str(&b));
        dsl_value_release(in->exc);
        in->exc = e;
    } else {
        dsl_value_release(e);
        dsl_raise_status(in, st);
    }
    render_buf_free(&b);
    return -1;
}

int dsl_exc_raise(struct dsl_interp *in, struct dsl_value v, size_t pos)
{
    dsl_exc_throw(in, v);
    dsl_error_locate(in, pos);
    return -1;
}

int dsl_exc_reraise(struct dsl_interp *in, size_t pos)
{
    const struct dsl_exc_saved *h = in->handling;
    if (!h) return dsl_raise_at(in, pos, "RuntimeError", "No active exception to reraise");
    dsl_raise_at(in, pos, h->ename, "%s", h->evalue ? h->evalue : "out of memory");
    dsl_value_release(in->exc);
    in->exc = dsl_value_retain(h->exc);
    /* Python shows where the error first happened, not the `raise` that passes it on; that
     * position (and the calls below it) fits only the call it was caught in: raised again from a
     * function the clause called, it shows that `raise` */
    if (h->src != in->src || h->frame != in->frame || !h->has_pos) return -1;
    in->pos = h->pos;
    for (size_t i = 0; i < h->ntb; i++) {
        if (in->ntb == in->captb) {
            size_t cap = in->captb ? in->captb * 2 : 8;
            struct dsl_tb_entry *p = realloc(in->tb, cap * sizeof *p);
            if (!p) break; /* a shorter traceback; the error itself is kept */
            in->tb = p;
            in->captb = cap;
        }
        char *func = strdup(h->tb[i].func);
        if (!func) break;
        in->tb[in->ntb++] =
            (struct dsl_tb_entry){dsl_code_retain(h->tb[i].code), h->tb[i].pos, func};
    }
    return -1;
}

void dsl_exc_caught(const struct dsl_exc_saved *s)
{
    /* A clause that catches an interrupt (`except:`, `except BaseException:`) runs, as in
     * Python, but the kernel must stay stoppable: `while True: try: ... except: pass` would
     * otherwise swallow every interrupt. So the request stays up and the next poll (a loop
     * iteration, a tensor operation) raises it again; the next cell starts with it cleared. A
     * KeyboardInterrupt the program raised itself (it has a value) is no interrupt. */
    if (s->exc.kind == DSL_NONE &&
        dsl_exc_type_is(dsl_exc_saved_type(s), &dsl_exc_types[E_KEYBOARD]))
        mt_cancel_request();
}
