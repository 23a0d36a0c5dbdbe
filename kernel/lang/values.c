/* values.c — constructors, reference counting, truth, equality and text of values.
 *
 * Text follows Python: repr quotes strings and shows floats with the shortest round-trip
 * digits, str (print) shows strings bare. Bools and none show as Python shows them (True,
 * False, None), whichever spelling the code used: a student compares with Python. Tensors show
 * as PyTorch prints them (the formatter lives in kernel/render, which reads engine tensors).
 * Releasing never recurses (a stack of dying containers linked through their `dead` fields);
 * repr and == recurse at most DSL_MAX_LIST_DEPTH levels. */
#include "lang/values.h"

#include "lang/ast.h"
#include "lang/dict.h"
#include "lang/library.h"

#include <minitorch/minitorch.h>

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    const char *doc;
} kinds[DSL_KIND_COUNT] = {
    [DSL_NONE] = {"none", "none: the absence of a value (also spelled None; shown as None, as "
                          "Python shows it). A cell whose last expression is none shows no "
                          "result."},
    [DSL_BOOL] = {"bool", "bool: true or false (also True/False; shown as True and False, as "
                          "Python shows them). In arithmetic true is 1 and false is 0."},
    [DSL_INT] = {"int", "int: a 64-bit signed integer. Results that do not fit raise "
                        "OverflowError; / gives a float, // and % round toward minus infinity."},
    [DSL_FLOAT] = {"float", "float: a double-precision floating point number, shown with the "
                            "shortest digits that read back to the same value."},
    [DSL_STR] = {"str", "str: immutable UTF-8 text, written \"...\" or '...'. + joins, * "
                        "repeats, s[i] picks the i-th character, len(s) counts characters."},
    [DSL_LIST] = {"list", "list: a mutable sequence [a, b, ...], shared by reference (ys = xs "
                          "names the same list). + joins, * repeats, xs[i] picks an item "
                          "(negative i counts from the end) and xs[i] = v replaces it; methods "
                          "append, extend, insert, pop, remove, index, count, clear, copy, "
                          "reverse, sort. A list cannot hold itself."},
    [DSL_RANGE] = {"range", "range: the integers range(start, stop, step) yields, used by for "
                            "loops; list(range(...)) makes a list."},
    [DSL_BUILTIN] = {"builtin_function", "builtin_function: a function of the language; "
                                         "help(name) describes it."},
    [DSL_TENSOR] = {"tensor",
                    "tensor: an n-dimensional array of float32 numbers (MiniTorch's Tensor) on a "
                    "backend: simple (serial reference loops), fast (threads + SIMD) or cuda. "
                    "Make one with tensor([[1, 2], [3, 4]]), zeros(2, 3), ones(2, 3) or "
                    "rand(2, 3). Operators + - * / @ and < > == work elementwise with "
                    "broadcasting (numbers mix in); t[i, j] reads or writes one element; "
                    "requires_grad=true makes backward() fill t.grad."},
    [DSL_METHOD] = {"method", "method: a method bound to its tensor or list (x.sum, xs.append); "
                              "call it, or ask help(x.sum)."},
    [DSL_FUNCTION] = {"function", "function: made by def NAME(params): with an indented body; "
                                  "`return value` ends a call with its result. Names assigned "
                                  "in the body are local to each call; others are read from the "
                                  "cell's variables. A string first in the body is its "
                                  "docstring, shown by help(NAME)."},
    [DSL_OBJECT] = {"object", "object: something the engine made (a dataset, a model, an "
                              "optimizer); type() names it and help() describes it."},
    [DSL_DICT] = {"dict", "dict: a mutable mapping {key: value, ...} that keeps its keys in "
                          "insertion order, shared by reference. d[key] reads (KeyError when "
                          "absent) and d[key] = v stores; keys are hashable values (numbers, "
                          "strings, tuples, None); methods keys, values, items, get, pop, "
                          "popitem, setdefault, update, copy, clear."},
};
static_assert(sizeof kinds / sizeof kinds[0] == DSL_KIND_COUNT, "one row per value kind");

const char *dsl_kind_name(enum dsl_kind k)
{
    return (unsigned)k < DSL_KIND_COUNT ? kinds[k].name : "?";
}

const char *dsl_kind_doc(enum dsl_kind k)
{
    return (unsigned)k < DSL_KIND_COUNT ? kinds[k].doc : "";
}

const char *dsl_type_doc(struct dsl_value v)
{
    return v.kind == DSL_OBJECT ? v.as.obj->cls->doc : dsl_kind_doc(v.kind);
}

const char *dsl_type_name(struct dsl_value v)
{
    if (v.kind == DSL_OBJECT) return v.as.obj->cls->name;
    if (v.kind == DSL_LIST && v.as.l->style == DSL_LIST_TUPLE) return "tuple";
    return dsl_kind_name(v.kind);
}

struct dsl_value dsl_value_retain(struct dsl_value v)
{
    switch (v.kind) {
    case DSL_STR: v.as.s->refs++; break;
    case DSL_LIST: v.as.l->refs++; break;
    case DSL_TENSOR: mt_tensor_retain(v.as.t); break;
    case DSL_METHOD: v.as.m->refs++; break;
    case DSL_FUNCTION: v.as.fn_user->refs++; break;
    case DSL_OBJECT: v.as.obj->refs++; break;
    case DSL_DICT: v.as.d->refs++; break;
    default: break;
    }
    return v;
}

/* Drops one reference of v; a container reaching zero goes on the stack *dead (through its own
 * `dead` field) instead of being freed here, so freeing never recurses. */
static void drop(struct dsl_value v, struct dsl_value *dead)
{
    switch (v.kind) {
    case DSL_STR:
        if (--v.as.s->refs == 0) free(v.as.s);
        break;
    case DSL_TENSOR: mt_tensor_release(v.as.t); break;
    case DSL_LIST:
        if (--v.as.l->refs == 0) v.as.l->dead = *dead, *dead = v;
        break;
    case DSL_METHOD:
        if (--v.as.m->refs == 0) v.as.m->dead = *dead, *dead = v;
        break;
    case DSL_FUNCTION:
        if (--v.as.fn_user->refs == 0) v.as.fn_user->dead = *dead, *dead = v;
        break;
    case DSL_DICT:
        if (--v.as.d->refs == 0) v.as.d->dead = *dead, *dead = v;
        break;
    case DSL_OBJECT: /* holds no language values: freed at once, nothing to recurse into */
        if (--v.as.obj->refs == 0) {
            v.as.obj->cls->free(v.as.obj->state);
            free(v.as.obj);
        }
        break;
    default: break;
    }
}

/* Releases a held slot's value: it stops being a parent of it, then drops it. */
static void drop_held(struct dsl_value v, struct dsl_value *dead)
{
    dsl_value_orphan(v);
    drop(v, dead);
}

void dsl_value_release(struct dsl_value v)
{
    struct dsl_value dead = dsl_none();
    drop(v, &dead);
    while (dead.kind != DSL_NONE) {
        struct dsl_value c = dead;
        if (c.kind == DSL_LIST) {
            struct dsl_list *l = c.as.l;
            dead = l->dead;
            for (size_t i = 0; i < l->len; i++) drop_held(l->items[i], &dead);
            free(l->items);
            free(l);
        } else if (c.kind == DSL_DICT) {
            struct dsl_dict *d = c.as.d;
            dead = d->dead;
            for (size_t i = 0; i < d->n; i++) {
                drop_held(d->entries[i].key, &dead);
                drop_held(d->entries[i].value, &dead);
            }
            free(d->entries);
            free(d->index);
            free(d);
        } else if (c.kind == DSL_METHOD) {
            struct dsl_method *m = c.as.m;
            dead = m->dead;
            drop_held(m->self, &dead);
            free(m);
        } else {
            struct dsl_function *f = c.as.fn_user;
            dead = f->dead;
            for (size_t i = 0; f->defaults && i < f->def->nkw; i++)
                drop_held(f->defaults[i], &dead);
            free(f->defaults);
            free(f->locals);
            dsl_prog_cache_free(f->progs);
            dsl_code_release(f->code);
            free(f);
        }
    }
}

/* ---- cycle check ------------------------------------------------------------------------- */

/* The containers a cycle check has still to look into, and the lists it marked. */
struct walk {
    struct dsl_value *todo;
    size_t ntodo, captodo;
    struct dsl_list **marked;
    size_t nmarked, capmarked;
    bool nomem;
};

static void walk_push(struct walk *w, struct dsl_value v)
{
    if (v.kind == DSL_LIST) {
        if (v.as.l->mark) return;
        if (w->nmarked == w->capmarked) {
            size_t cap = w->capmarked ? w->capmarked * 2 : 16;
            struct dsl_list **p = realloc(w->marked, cap * sizeof *p);
            if (!p) {
                w->nomem = true;
                return;
            }
            w->marked = p;
            w->capmarked = cap;
        }
        v.as.l->mark = true;
        w->marked[w->nmarked++] = v.as.l;
    } else if (v.kind != DSL_METHOD && v.kind != DSL_FUNCTION) {
        return; /* holds no language values */
    }
    if (w->ntodo == w->captodo) {
        size_t cap = w->captodo ? w->captodo * 2 : 16;
        struct dsl_value *p = realloc(w->todo, cap * sizeof *p);
        if (!p) {
            w->nomem = true;
            return;
        }
        w->todo = p;
        w->captodo = cap;
    }
    w->todo[w->ntodo++] = v;
}

int dsl_list_check_store(const struct dsl_list *l, struct dsl_value v)
{
    if (v.kind == DSL_LIST && v.as.l == l) return DSL_V_CYCLE;
    /* nothing can reach a list that no container holds; strings, tensors... hold nothing */
    if (l->parents == 0 || (v.kind != DSL_LIST && v.kind != DSL_METHOD && v.kind != DSL_FUNCTION))
        return DSL_V_OK;
    struct walk w = {0};
    int st = DSL_V_OK;
    walk_push(&w, v);
    while (w.ntodo && !w.nomem && st == DSL_V_OK) {
        struct dsl_value c = w.todo[--w.ntodo];
        if (c.kind == DSL_LIST) {
            for (size_t i = 0; i < c.as.l->len && st == DSL_V_OK; i++) {
                struct dsl_value item = c.as.l->items[i];
                if (item.kind == DSL_LIST && item.as.l == l) st = DSL_V_CYCLE;
                walk_push(&w, item);
            }
        } else if (c.kind == DSL_METHOD) {
            if (c.as.m->self.kind == DSL_LIST && c.as.m->self.as.l == l) st = DSL_V_CYCLE;
            walk_push(&w, c.as.m->self);
        } else {
            const struct dsl_function *f = c.as.fn_user;
            for (size_t i = 0; f->defaults && i < f->def->nkw && st == DSL_V_OK; i++) {
                if (f->defaults[i].kind == DSL_LIST && f->defaults[i].as.l == l) st = DSL_V_CYCLE;
                walk_push(&w, f->defaults[i]);
            }
        }
    }
    if (st == DSL_V_OK && w.nomem) st = DSL_V_NOMEM;
    for (size_t i = 0; i < w.nmarked; i++) w.marked[i]->mark = false;
    free(w.marked);
    free(w.todo);
    return st;
}

int dsl_method_value(const struct dsl_builtin *fn, struct dsl_value self, struct dsl_value *out)
{
    struct dsl_method *m = malloc(sizeof *m);
    if (!m) return DSL_V_NOMEM;
    m->refs = 1;
    m->fn = fn;
    m->self = dsl_value_retain(self);
    m->dead = dsl_none();
    dsl_value_adopt(self);
    out->kind = DSL_METHOD;
    out->as.m = m;
    return DSL_V_OK;
}

struct dsl_str *dsl_str_alloc(size_t n)
{
    if (n > DSL_MAX_STR_BYTES) return NULL;
    struct dsl_str *s = malloc(sizeof *s + n + 1);
    if (!s) return NULL;
    s->refs = 1;
    s->len = n;
    s->data[n] = '\0';
    return s;
}

int dsl_str_value(const char *s, size_t n, struct dsl_value *out)
{
    if (n > DSL_MAX_STR_BYTES) return DSL_V_TOOBIG;
    struct dsl_str *str = dsl_str_alloc(n);
    if (!str) return DSL_V_NOMEM;
    if (n) memcpy(str->data, s, n);
    out->kind = DSL_STR;
    out->as.s = str;
    return DSL_V_OK;
}

struct dsl_list *dsl_list_new(size_t cap)
{
    struct dsl_list *l = calloc(1, sizeof *l);
    if (!l) return NULL;
    l->refs = 1;
    if (cap) {
        l->items = malloc(cap * sizeof *l->items);
        if (!l->items) {
            free(l);
            return NULL;
        }
        l->cap = cap;
    }
    return l;
}

int dsl_list_reserve(struct dsl_list *l, size_t n)
{
    if (n > DSL_MAX_LIST_LEN - l->len) return DSL_V_TOOBIG;
    if (l->len + n <= l->cap) return DSL_V_OK;
    size_t cap = l->cap ? l->cap : 4;
    while (cap < l->len + n) cap *= 2;
    struct dsl_value *p = realloc(l->items, cap * sizeof *p);
    if (!p) return DSL_V_NOMEM;
    l->items = p;
    l->cap = cap;
    return DSL_V_OK;
}

int dsl_list_push(struct dsl_list *l, struct dsl_value v)
{
    int st = dsl_list_reserve(l, 1);
    if (st != DSL_V_OK) {
        dsl_value_release(v);
        return st;
    }
    dsl_value_adopt(v);
    l->items[l->len++] = v;
    return DSL_V_OK;
}

int64_t dsl_range_len(struct dsl_range r)
{
    /* computed in unsigned arithmetic: stop - start may overflow int64 */
    uint64_t n = 0;
    if (r.step > 0 && r.start < r.stop) {
        uint64_t span = (uint64_t)r.stop - (uint64_t)r.start - 1;
        n = span / (uint64_t)r.step + 1;
    } else if (r.step < 0 && r.start > r.stop) {
        uint64_t span = (uint64_t)r.start - (uint64_t)r.stop - 1;
        uint64_t step = r.step == INT64_MIN ? (uint64_t)1 << 63 : (uint64_t)-r.step;
        n = span / step + 1;
    }
    return n > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)n; /* only the full int64 span */
}

bool dsl_value_truthy(struct dsl_value v)
{
    switch (v.kind) {
    case DSL_NONE: return false;
    case DSL_BOOL: return v.as.b;
    case DSL_INT: return v.as.i != 0;
    case DSL_FLOAT: return v.as.f != 0.0;
    case DSL_STR: return v.as.s->len != 0;
    case DSL_LIST: return v.as.l->len != 0;
    case DSL_DICT: return v.as.d->len != 0;
    case DSL_RANGE: return dsl_range_len(v.as.r) != 0;
    case DSL_BUILTIN: return true;
    case DSL_TENSOR:
        if (v.as.t->size == 1) {
            int64_t zero[MT_MAX_DIMS] = {0};
            float x = 0.0f;
            mt_tensor_get(v.as.t->ctx, v.as.t, v.as.t->ndim, zero, &x);
            return x != 0.0f;
        }
        return v.as.t->size != 0;
    case DSL_METHOD:
    case DSL_FUNCTION:
    case DSL_OBJECT: return true;
    case DSL_KIND_COUNT: break;
    }
    return false;
}

/* Python ==, `level` lists deep; *too_deep is set (and identity decides) past the limit. */
static bool equal_at(struct dsl_value a, struct dsl_value b, int level, bool *too_deep)
{
    if (dsl_is_number(a) && dsl_is_number(b)) {
        if (a.kind == DSL_FLOAT || b.kind == DSL_FLOAT) return dsl_as_double(a) == dsl_as_double(b);
        return dsl_as_int(a) == dsl_as_int(b);
    }
    if (a.kind != b.kind) return false;
    switch (a.kind) {
    case DSL_NONE: return true;
    case DSL_STR:
        return a.as.s->len == b.as.s->len && memcmp(a.as.s->data, b.as.s->data, a.as.s->len) == 0;
    case DSL_LIST:
        if (a.as.l == b.as.l) return true;
        if (a.as.l->len != b.as.l->len || dsl_is_tuple(a) != dsl_is_tuple(b)) return false;
        if (level >= DSL_MAX_LIST_DEPTH) {
            *too_deep = true;
            return false;
        }
        for (size_t i = 0; i < a.as.l->len; i++)
            if (!equal_at(a.as.l->items[i], b.as.l->items[i], level + 1, too_deep)) return false;
        return true;
    case DSL_RANGE: {
        int64_t n = dsl_range_len(a.as.r);
        if (n != dsl_range_len(b.as.r)) return false;
        if (n == 0) return true;
        if (a.as.r.start != b.as.r.start) return false;
        return n == 1 || a.as.r.step == b.as.r.step;
    }
    case DSL_DICT: {
        /* the same keys, each with an equal value, whatever the order */
        const struct dsl_dict *x = a.as.d, *y = b.as.d;
        if (x == y) return true;
        if (x->len != y->len) return false;
        if (level >= DSL_MAX_LIST_DEPTH) {
            *too_deep = true;
            return false;
        }
        for (size_t i = 0; i < x->n; i++) {
            if (!x->entries[i].live) continue;
            const struct dsl_dict_entry *e =
                dsl_dict_find(y, x->entries[i].key, x->entries[i].hash);
            if (!e || !equal_at(x->entries[i].value, e->value, level + 1, too_deep)) return false;
        }
        return true;
    }
    case DSL_BUILTIN: return a.as.fn == b.as.fn;
    case DSL_TENSOR: return a.as.t == b.as.t;
    case DSL_FUNCTION: return a.as.fn_user == b.as.fn_user;
    case DSL_OBJECT: return a.as.obj == b.as.obj;
    case DSL_METHOD:
        /* bound to the same object: identity, as Python's `is` on self */
        if (a.as.m->fn != b.as.m->fn || a.as.m->self.kind != b.as.m->self.kind) return false;
        if (a.as.m->self.kind == DSL_LIST) return a.as.m->self.as.l == b.as.m->self.as.l;
        return equal_at(a.as.m->self, b.as.m->self, level + 1, too_deep);
    default: return false;
    }
}

int dsl_value_equal_checked(struct dsl_value a, struct dsl_value b, bool *eq)
{
    bool too_deep = false;
    *eq = equal_at(a, b, 0, &too_deep);
    return too_deep ? DSL_V_DEPTH : DSL_V_OK;
}

bool dsl_value_equal(struct dsl_value a, struct dsl_value b)
{
    bool eq = false;
    dsl_value_equal_checked(a, b, &eq);
    return eq;
}

/* The status of a failed buffer. */
static int buf_status(const struct render_buf *b)
{
    return b->over ? DSL_V_TOOBIG : b->nomem ? DSL_V_NOMEM : DSL_V_OK;
}

/* json: inside a tensor.tolist() list, where non-finite floats take JSON's spellings; level:
 * lists around v. Returns a dsl_vstatus (DSL_V_DEPTH after writing [...] past the limit). */
static int value_text(struct render_buf *b, struct dsl_value v, bool repr, bool json, int level)
{
    switch (v.kind) {
    case DSL_NONE: render_buf_puts(b, "None"); break;
    case DSL_BOOL: render_buf_puts(b, v.as.b ? "True" : "False"); break;
    case DSL_INT: render_buf_printf(b, "%lld", (long long)v.as.i); break;
    case DSL_FLOAT: {
        if (json && !isfinite(v.as.f)) {
            render_buf_puts(b, isnan(v.as.f) ? "NaN" : v.as.f > 0 ? "Infinity" : "-Infinity");
            break;
        }
        char f[40];
        size_t n = render_float_repr(v.as.f, f, sizeof f);
        render_buf_append(b, f, n);
        break;
    }
    case DSL_STR:
        if (repr)
            render_str_repr(b, v.as.s->data, v.as.s->len);
        else
            render_buf_append(b, v.as.s->data, v.as.s->len);
        break;
    case DSL_LIST: {
        bool tuple = v.as.l->style == DSL_LIST_TUPLE;
        json = json || v.as.l->style == DSL_LIST_JSON;
        if (level >= DSL_MAX_LIST_DEPTH) { /* callers that cannot raise still show something */
            render_buf_puts(b, tuple ? "(...)" : "[...]");
            return buf_status(b) ? buf_status(b) : DSL_V_DEPTH;
        }
        render_buf_putc(b, tuple ? '(' : '[');
        for (size_t i = 0; i < v.as.l->len; i++) {
            /* str() of 4 million floats is seconds of work: it must stop at an interrupt */
            if (mt_cancel_requested()) return DSL_V_CANCELLED;
            if (i) render_buf_puts(b, ", ");
            int st = value_text(b, v.as.l->items[i], true, json, level + 1);
            if (st != DSL_V_OK) return st;
        }
        if (tuple && v.as.l->len == 1) render_buf_putc(b, ',');
        render_buf_putc(b, tuple ? ')' : ']');
        break;
    }
    case DSL_DICT: {
        if (level >= DSL_MAX_LIST_DEPTH) {
            render_buf_puts(b, "{...}");
            return buf_status(b) ? buf_status(b) : DSL_V_DEPTH;
        }
        const struct dsl_dict *d = v.as.d;
        render_buf_putc(b, '{');
        bool first = true;
        for (size_t i = 0; i < d->n; i++) {
            if (!d->entries[i].live) continue;
            if (mt_cancel_requested()) return DSL_V_CANCELLED;
            if (!first) render_buf_puts(b, ", ");
            first = false;
            int st = value_text(b, d->entries[i].key, true, json, level + 1);
            if (st == DSL_V_OK) {
                render_buf_puts(b, ": ");
                st = value_text(b, d->entries[i].value, true, json, level + 1);
            }
            if (st != DSL_V_OK) return st;
        }
        render_buf_putc(b, '}');
        break;
    }
    case DSL_RANGE:
        if (v.as.r.step == 1)
            render_buf_printf(b, "range(%lld, %lld)", (long long)v.as.r.start,
                              (long long)v.as.r.stop);
        else
            render_buf_printf(b, "range(%lld, %lld, %lld)", (long long)v.as.r.start,
                              (long long)v.as.r.stop, (long long)v.as.r.step);
        break;
    case DSL_BUILTIN: render_buf_printf(b, "<built-in function %s>", v.as.fn->name); break;
    case DSL_TENSOR: render_tensor_text(b, v.as.t); break;
    case DSL_METHOD:
        render_buf_printf(b, "<bound method %s.%s>", dsl_type_name(v.as.m->self), v.as.m->fn->name);
        break;
    case DSL_FUNCTION: dsl_function_signature(b, v.as.fn_user, "<function ", ">"); break;
    case DSL_OBJECT: {
        int st = v.as.obj->cls->repr(b, v.as.obj->state);
        if (st != DSL_V_OK) return st;
        break;
    }
    case DSL_KIND_COUNT: render_buf_puts(b, "?"); break;
    }
    return buf_status(b);
}

int dsl_function_signature(struct render_buf *b, const struct dsl_function *f, const char *before,
                           const char *after)
{
    const struct dsl_node *def = f->def;
    render_buf_printf(b, "%s%s(", before, def->name);
    bool kwonly = def->nkw - (def->dstar ? 1 : 0) > def->nargs + (def->star ? 1 : 0);
    for (size_t i = 0; i < def->nkw; i++) {
        const char *star = def->star && i == def->nargs      ? "*"
                           : def->dstar && i + 1 == def->nkw ? "**"
                                                             : "";
        if (i == def->nargs && !def->star && kwonly)
            render_buf_puts(b, i ? ", *, " : "*, ");
        else if (i)
            render_buf_puts(b, ", ");
        render_buf_printf(b, "%s%s", star, def->kwnames[i]);
        /* a default's value is not shown: it may be a big tensor or a long list */
        if (def->kwvals[i]) render_buf_puts(b, "=...");
    }
    return render_buf_printf(b, ")%s", after);
}

int dsl_function_help(struct render_buf *b, const struct dsl_function *f)
{
    dsl_function_signature(b, f, "", "");
    const struct dsl_value doc = f->def->value;
    if (doc.kind == DSL_STR) {
        render_buf_puts(b, "\n\n");
        render_buf_append(b, doc.as.s->data, doc.as.s->len);
    }
    return render_buf_puts(b, strcmp(f->def->name, "<lambda>") == 0
                                  ? "\n\nA function made by lambda in this session."
                                  : "\n\nA function defined with def in this session.");
}

int dsl_value_repr(struct render_buf *b, struct dsl_value v)
{
    return value_text(b, v, true, false, 0);
}

int dsl_value_str(struct render_buf *b, struct dsl_value v)
{
    return value_text(b, v, false, false, 0);
}

int dsl_object_value(const struct dsl_object_class *cls, void *state, struct dsl_value *out)
{
    struct dsl_object *o = malloc(sizeof *o);
    if (!o) {
        cls->free(state);
        return DSL_V_NOMEM;
    }
    *o = (struct dsl_object){.refs = 1, .cls = cls, .state = state};
    *out = (struct dsl_value){.kind = DSL_OBJECT, .as.obj = o};
    return DSL_V_OK;
}

json_t *dsl_value_bundle(struct dsl_value v, const char *renderer, enum dsl_vstatus *status)
{
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_REPR_BYTES);
    int st = dsl_value_repr(&b, v);
    if (st == DSL_V_TOOBIG && b.over && !b.nomem) { /* a huge value: its beginning, and why */
        b.over = false;
        b.limit = 0;
        render_buf_printf(&b, "\n... (cut: a value's text is shown up to %zu MiB)",
                          DSL_MAX_REPR_BYTES >> 20);
        st = b.nomem ? DSL_V_NOMEM : DSL_V_OK;
    }
    if (st != DSL_V_OK) {
        *status = st;
        render_buf_free(&b);
        return NULL;
    }
    json_t *bundle = render_text_bundle(render_buf_str(&b));
    render_buf_free(&b);
    if (bundle && v.kind == DSL_TENSOR) { /* and a table with the layout facts, for the front end */
        render_buf_init(&b, DSL_MAX_STR_BYTES);
        int st_html = render_tensor_html(&b, v.as.t);
        /* a table too big to send (set_printoptions(profile="full") on a big tensor): the text
         * alone, which says where it was cut */
        bool too_big = st_html != 0 && b.over && !b.nomem;
        json_t *html = st_html == 0 ? json_string(render_buf_str(&b)) : NULL;
        render_buf_free(&b);
        if (too_big) {
            /* nothing to add */
        } else if (!html || json_object_set_new(bundle, "text/html", html) != 0) {
            json_decref(bundle);
            bundle = NULL;
        }
    }
    if (bundle && v.kind == DSL_OBJECT && v.as.obj->cls->bundle) {
        /* the object's chart, with the text above as its text/plain */
        json_t *rich = v.as.obj->cls->bundle(v.as.obj->state, renderer);
        if (!rich || json_object_set(rich, "text/plain", json_object_get(bundle, "text/plain"))) {
            json_decref(rich);
            rich = NULL;
        }
        json_decref(bundle);
        bundle = rich;
    }
    if (!bundle) *status = DSL_V_NOMEM;
    return bundle;
}
