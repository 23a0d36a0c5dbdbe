/* packages.c — a package's files written in cells: their modules, relative imports and what a
 * star import of one would bind (packages.h). */
#include "lang/packages.h"

#include "lang/classes.h"
#include "lang/eval.h"
#include "lang/str.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the module class ------------------------------------------------------------------- */

const char *dsl_package_name(struct dsl_value self)
{
    const struct dsl_value *v =
        self.kind == DSL_INSTANCE ? dsl_attrs_find(&self.as.inst->attrs, "__name__") : NULL;
    return v && v->kind == DSL_STR ? v->as.s->data : "?";
}

static bool is_builtin(const struct dsl_session *s, const struct dsl_instance *inst)
{
    for (size_t i = 0; s && i < s->npackages; i++)
        if (s->packages[i].as.inst == inst) return s->package_builtin[i];
    return false;
}

static int module_repr(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    const struct dsl_value *file = dsl_attrs_find(&a->self.as.inst->attrs, "__file__");
    const char *name = dsl_package_name(a->self);
    char *text = NULL;
    int n = !file || file->kind != DSL_STR ? asprintf(&text, "<module '%s'>", name)
            : is_builtin(in->session, a->self.as.inst)
                ? asprintf(&text, "<module '%s' (the kernel's %s/%s)>", name, DSL_PACKAGE,
                           file->as.s->data)
                : asprintf(&text, "<module '%s' (%%%%minitorch_file %s)>", name, file->as.s->data);
    if (n < 0) return dsl_raise_status(in, DSL_V_NOMEM);
    int st = dsl_str_value(text, (size_t)n, ret);
    free(text);
    return st ? dsl_raise_status(in, st) : 0;
}

/* Called for a name the module's globals lack: Python's words, with a suggestion. */
static int module_getattr(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)ret;
    if (a->slot[0].kind != DSL_STR)
        return dsl_raise(in, "TypeError", "attribute name must be string, not '%s'",
                         dsl_type_name(a->slot[0]));
    const char *name = a->slot[0].as.s->data;
    const struct dsl_attrs *g = &a->self.as.inst->attrs;
    const char *best = NULL;
    size_t best_d = 3;
    for (size_t i = 0; i < g->len; i++) {
        if (g->items[i].name[0] == '_' && name[0] != '_') continue;
        size_t d = dsl_edit_distance(name, g->items[i].name);
        if (d < best_d && d < strlen(name)) best = g->items[i].name, best_d = d;
    }
    if (best)
        return dsl_raise(in, "AttributeError",
                         "module '%s' has no attribute '%s', did you mean '%s'?",
                         dsl_package_name(a->self), name, best);
    return dsl_raise(in, "AttributeError", "module '%s' has no attribute '%s'",
                     dsl_package_name(a->self), name);
}

static const char *const getattr_params[] = {"name", NULL};
static const struct dsl_builtin module_rows[] = {
    {"__repr__", "module.__repr__(self)", 0, 0, NULL, module_repr,
     "<module 'minitorch.NAME' (%%minitorch_file NAME.py)>, or (the kernel's minitorch/NAME.py) "
     "for a file of the kernel's."},
    {"__getattr__", "module.__getattr__(self, name)", 1, 1, getattr_params, module_getattr,
     "AttributeError: the module has no global variable of that name."},
    {NULL, NULL, 0, 0, NULL, NULL, NULL},
};

static struct dsl_value module_class(void)
{
    struct dsl_class *c =
        dsl_library_class("module",
                          "A module: a file of the minitorch package, written in a cell that "
                          "starts with %%minitorch_file NAME.py. Its attributes are the file's "
                          "global variables.",
                          dsl_none(), module_rows);
    return (struct dsl_value){.kind = DSL_CLASS, .as.cls = c};
}

/* ---- the session's modules -------------------------------------------------------------- */

/* The modules' positions changed: a generation no session has had (sessions may run on several
 * threads, each with caches of its own). */
static void packages_changed(struct dsl_session *s)
{
    static atomic_size_t generation;
    s->packages_gen = atomic_fetch_add(&generation, 1) + 1;
}

void dsl_package_share(const struct dsl_interp *in, struct dsl_code *code)
{
    if (!in->code || code == in->code) return;
    dsl_value_release(code->module);
    code->module = dsl_value_retain(in->code->module);
}

struct dsl_value *dsl_package_find_hashed(struct dsl_session *s, const char *name, size_t hash)
{
    for (size_t i = 0; i < s->npackages; i++)
        if (s->package_hashes[i] == hash && strcmp(s->package_names[i], name) == 0)
            return &s->packages[i];
    return NULL;
}

struct dsl_value *dsl_package_find(struct dsl_session *s, const char *name)
{
    return dsl_package_find_hashed(s, name, dsl_name_hash(name));
}

static int set_str(struct dsl_interp *in, struct dsl_value module, const char *name,
                   const char *text)
{
    struct dsl_value v;
    int st = dsl_str_value(text, strlen(text), &v);
    if (st == 0) st = dsl_attrs_set(&module.as.inst->attrs, name, v);
    return st ? dsl_raise_status(in, st) : 0;
}

bool dsl_package_builtin(const struct dsl_session *s, const struct dsl_value *module)
{
    return s->package_builtin[module - s->packages];
}

/* The module `name` of file `file`: the one the session has, else a new one it keeps (a file
 * of the kernel's when builtin). 0 with a borrowed value in *out, or -1 after raising. */
static int module_for(struct dsl_interp *in, const char *name, const char *file, bool builtin,
                      struct dsl_value *out)
{
    struct dsl_session *s = in->session;
    struct dsl_value *have = dsl_package_find(s, name);
    if (have) {
        *out = *have;
        return 0;
    }
    struct dsl_value *grown = realloc(s->packages, (s->npackages + 1) * sizeof *grown);
    if (grown) s->packages = grown;
    char **names = grown ? realloc(s->package_names, (s->npackages + 1) * sizeof *names) : NULL;
    if (names) s->package_names = names;
    size_t *hashes = names ? realloc(s->package_hashes, (s->npackages + 1) * sizeof *hashes) : NULL;
    if (hashes) s->package_hashes = hashes;
    bool *flags = hashes ? realloc(s->package_builtin, (s->npackages + 1) * sizeof *flags) : NULL;
    if (flags) s->package_builtin = flags;
    char *copy = flags ? strdup(name) : NULL;
    if (!copy) return dsl_raise_status(in, DSL_V_NOMEM);
    struct dsl_value m;
    if (dsl_class_call(in, module_class(), NULL, 0, NULL, NULL, 0, &m) != 0) {
        free(copy);
        return -1;
    }
    if (set_str(in, m, "__name__", name) != 0 || set_str(in, m, "__file__", file) != 0 ||
        set_str(in, m, "__package__", DSL_PACKAGE) != 0 ||
        dsl_attrs_set(&m.as.inst->attrs, "__doc__", dsl_none()) != 0) {
        dsl_value_release(m);
        free(copy);
        return -1;
    }
    s->package_names[s->npackages] = copy;
    s->package_hashes[s->npackages] = dsl_name_hash(copy);
    s->package_builtin[s->npackages] = builtin;
    s->packages[s->npackages++] = m;
    packages_changed(s);
    *out = m;
    return 0;
}

/* Removes module m's globals (its __name__ too, unless keep_name) and releases it: its
 * functions hold their code and the code its module, a cycle that emptying breaks. */
static void empty(struct dsl_value m, bool keep_name)
{
    struct dsl_attrs *g = &m.as.inst->attrs;
    for (size_t k = g->len; k-- > 0;)
        if (!keep_name || strcmp(g->items[k].name, "__name__") != 0)
            dsl_attrs_remove(g, g->items[k].name);
    dsl_value_release(m);
}

/* Empties module i and drops it from the session. With keep_name its __name__ stays, for the
 * traceback of the error that made it fail to name its file (lang/session.c). */
static void drop(struct dsl_session *s, size_t i, bool keep_name)
{
    struct dsl_value m = s->packages[i];
    free(s->package_names[i]);
    memmove(&s->packages[i], &s->packages[i + 1], (s->npackages - i - 1) * sizeof m);
    memmove(&s->package_names[i], &s->package_names[i + 1],
            (s->npackages - i - 1) * sizeof *s->package_names);
    memmove(&s->package_hashes[i], &s->package_hashes[i + 1],
            (s->npackages - i - 1) * sizeof *s->package_hashes);
    memmove(&s->package_builtin[i], &s->package_builtin[i + 1],
            (s->npackages - i - 1) * sizeof *s->package_builtin);
    s->npackages--;
    packages_changed(s);
    empty(m, keep_name);
}

static void forget(struct dsl_session *s, size_t i) { drop(s, i, false); }

void dsl_packages_forget(struct dsl_session *s)
{
    while (s->npackages) forget(s, s->npackages - 1);
    free(s->packages);
    free(s->package_names);
    free(s->package_hashes);
    free(s->package_builtin);
    s->packages = NULL;
    s->package_names = NULL;
    s->package_hashes = NULL;
    s->package_builtin = NULL;
}

struct dsl_value *dsl_package_export(struct dsl_value module, const char *name)
{
    return dsl_package_export_hashed(module, name, dsl_name_hash(name));
}

struct dsl_value *dsl_package_export_hashed(struct dsl_value module, const char *name, size_t hash)
{
    if (module.kind != DSL_INSTANCE) return NULL;
    const struct dsl_attrs *g = &module.as.inst->attrs;
    /* a name the module does not bind is no export, whatever __all__ lists: that answer needs
     * no walk of __all__ (minitorch.scalar asks every star-imported file) */
    struct dsl_value *v = dsl_attrs_find_hashed(g, name, hash);
    if (!v) return NULL;
    static struct dsl_name_const all_name = DSL_NAME_CONST("__all__");
    const struct dsl_value *all = dsl_attrs_find_const(g, &all_name);
    if (all && all->kind == DSL_LIST) {
        bool listed = false;
        for (size_t i = 0; i < all->as.l->len && !listed; i++) {
            struct dsl_value e = all->as.l->items[i];
            listed = e.kind == DSL_STR && strcmp(e.as.s->data, name) == 0;
        }
        if (!listed) return NULL;
    } else if (name[0] == '_') {
        return NULL;
    }
    return v;
}

/* ---- relative imports ------------------------------------------------------------------- */

int dsl_package_resolve(struct dsl_interp *in, const char *dotted, char **out)
{
    *out = NULL;
    size_t dots = strspn(dotted, ".");
    const char *from = in->code && in->code->module.kind == DSL_INSTANCE
                           ? dsl_package_name(in->code->module)
                           : NULL;
    if (!from)
        return dsl_raise(in, "ImportError",
                         "attempted relative import with no known parent package (only a file "
                         "of the package, a cell that starts with %%%%minitorch_file NAME.py, "
                         "is in one)");
    /* the package of a module is its name without the last part; each further dot drops one */
    size_t len = strlen(from);
    for (size_t k = 0; k < dots; k++) {
        while (len > 0 && from[len - 1] != '.') len--;
        if (len == 0)
            return dsl_raise(in, "ImportError",
                             "attempted relative import beyond top-level package");
        len--;
    }
    const char *rest = dotted + dots;
    if (asprintf(out, "%.*s%s%s", (int)len, from, *rest ? "." : "", rest) < 0) {
        *out = NULL;
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    return 0;
}

/* ---- file cells ------------------------------------------------------------------------- */

bool dsl_is_file_cell(const char *src) { return strncmp(src, "%%", 2) == 0; }

/* The module name a file name NAME.py gives ("minitorch.NAME" into out), or false when it is
 * not a Python identifier followed by ".py". */
static bool file_module(const char *file, char *out, size_t n)
{
    size_t len = strlen(file);
    if (len < 4 || strcmp(file + len - 3, ".py") != 0) return false;
    for (size_t i = 0; i + 3 < len; i++) {
        char c = file[i];
        bool ok = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                  (i > 0 && c >= '0' && c <= '9');
        if (!ok) return false;
    }
    return snprintf(out, n, "%s.%.*s", DSL_PACKAGE, (int)(len - 3), file) < (int)n;
}

/* The magic line's name and argument words: `%%NAME WORD...` into name and file (the one
 * word), or a UsageError. */
static int magic_line(struct dsl_interp *in, const char *src, char *file, size_t n)
{
    const char *p = src + 2, *e = strchr(src, '\n');
    if (!e) e = src + strlen(src);
    size_t nl = strcspn(p, " \t\r\n");
    if (nl != strlen("minitorch_file") || strncmp(p, "minitorch_file", nl) != 0)
        return dsl_raise_at(in, 0, "UsageError",
                            "unknown cell magic %%%%%.*s; the cell magic is %%%%minitorch_file "
                            "NAME.py (the cell is that file of the minitorch package); the "
                            "line magics (%%time, %%timeit, ...) go on a line of their own",
                            (int)(nl > 40 ? 40 : nl), p);
    p += nl;
    p += strspn(p, " \t");
    size_t wl = strcspn(p, " \t\r\n");
    const char *after = p + wl;
    after += strspn(after, " \t\r");
    if (wl == 0 || wl >= n || after < e) {
        return dsl_raise_at(in, 0, "UsageError",
                            "%%%%minitorch_file NAME.py: name one file of the package, as "
                            "%%%%minitorch_file scalar.py");
    }
    memcpy(file, p, wl);
    file[wl] = '\0';
    return 0;
}

int dsl_package_run(struct dsl_interp *in, struct dsl_code *cell)
{
    char file[64], name[96];
    if (magic_line(in, in->src, file, sizeof file) != 0) return -1;
    if (!file_module(file, name, sizeof name))
        return dsl_raise_at(in, 0, "UsageError",
                            "%%%%minitorch_file %s: a file of the package is NAME.py, NAME a "
                            "Python name (scalar.py, tensor_functions.py)",
                            file);
    /* a student's file replaces the kernel's of that name: a new module, none of the kernel's
     * globals left in it (what other modules imported from the kernel's stays theirs, as
     * after a reload in Python) */
    struct dsl_value *was = dsl_package_find(in->session, name);
    if (was && dsl_package_builtin(in->session, was))
        forget(in->session, (size_t)(was - in->session->packages));
    bool first = !dsl_package_find(in->session, name);
    struct dsl_value m;
    if (module_for(in, name, file, false, &m) != 0) return -1;
    dsl_value_release(cell->module);
    cell->module = dsl_value_retain(m);
    int r = dsl_run_block(in, cell->ast, NULL);
    struct dsl_value *have = dsl_package_find(in->session, name);
    if (r != 0 && first && have) /* as a failed import: a file that never ran whole is none */
        forget(in->session, (size_t)(have - in->session->packages));
    return r;
}

/* Runs parsed code's top level as module m's, as a call would run a body: its own source,
 * globals and frame. 0, or -1 after raising. */
static int run_top_level(struct dsl_interp *in, struct dsl_code *code, struct dsl_value m)
{
    code->module = dsl_value_retain(m);
    const char *src_was = in->src;
    size_t len_was = in->src_len;
    struct dsl_code *code_was = in->code;
    struct dsl_frame *frame_was = in->frame;
    struct dsl_attrs *class_ns = in->class_ns;
    struct dsl_comp_scope *comp = in->comp;
    struct dsl_frame *locals = in->locals;
    in->src = code->src;
    in->src_len = code->len;
    in->code = code;
    in->frame = NULL;
    in->class_ns = NULL;
    in->comp = NULL;
    in->locals = NULL;
    int r = dsl_run_block(in, code->ast, NULL);
    if (r != 0) dsl_interp_push_tb_code(in, code, "<module>");
    in->src = src_was;
    in->src_len = len_was;
    in->code = code_was;
    in->frame = frame_was;
    in->class_ns = class_ns;
    in->comp = comp;
    in->locals = locals;
    return r;
}

/* The kernel's own source src[0..len) (file names it), parsed: NULL after raising. */
static struct dsl_code *parse_kernel_file(struct dsl_interp *in, const char *file, const char *src,
                                          size_t len)
{
    struct dsl_syntax_error se;
    struct dsl_code *code = dsl_code_parse(src, len, &se);
    if (code) return code;
    /* the build embeds files the tests run: only memory can fail here */
    if (se.ename && strcmp(se.ename, "MemoryError") != 0)
        dsl_raise(in, "SystemError", "the kernel's %s does not parse: %s", file, se.msg);
    else
        dsl_raise_status(in, DSL_V_NOMEM);
    return NULL;
}

int dsl_package_private(struct dsl_interp *in, const char *name, const char *file, const char *src,
                        size_t len, struct dsl_code **cache, struct dsl_value *out)
{
    if (!*cache && !(*cache = parse_kernel_file(in, file, src, len))) return -1;
    struct dsl_code *code = *cache;
    dsl_value_release(code->module); /* the module of its last run, emptied since */
    code->module = dsl_none();
    struct dsl_value m;
    int r = dsl_class_call(in, module_class(), NULL, 0, NULL, NULL, 0, &m);
    if (r == 0 &&
        (set_str(in, m, "__name__", name) != 0 || set_str(in, m, "__file__", file) != 0)) {
        empty(m, false);
        r = -1;
    }
    if (r == 0 && run_top_level(in, code, m) != 0) {
        empty(m, false);
        r = -1;
    }
    if (r == 0) *out = m;
    return r;
}

void dsl_package_private_end(struct dsl_value module) { empty(module, false); }

int dsl_package_load(struct dsl_interp *in, const char *name, const char *file, const char *src,
                     size_t len)
{
    if (dsl_package_find(in->session, name)) return 0;
    char path[128];
    snprintf(path, sizeof path, "%s/%s", DSL_PACKAGE, file);
    struct dsl_code *code = parse_kernel_file(in, path, src, len);
    if (!code) return -1;
    code->kernel_file = file;
    struct dsl_value m;
    if (module_for(in, name, file, true, &m) != 0) {
        dsl_code_release(code);
        return -1;
    }
    int r = run_top_level(in, code, m);
    struct dsl_value *have = dsl_package_find(in->session, name);
    if (r != 0 && have) drop(in->session, (size_t)(have - in->session->packages), true);
    dsl_code_release(code);
    return r;
}
