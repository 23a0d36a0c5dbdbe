/* module.c — what every module shares: the module class (attribute lookup with a suggestion,
 * completion and help from the table), the list of modules `import` finds (lib/modules.h,
 * lang/library.h), and the argument and call helpers the modules' functions use. */
#include "lib/modules/module.h"

#include "lang/missing.h"
#include "lang/native.h"
#include "lang/packages.h"

#include <stdio.h>
#include <string.h>

/* ---- the module class ------------------------------------------------------------------- */

static const struct module *module_of(const struct dsl_object_class *cls)
{
    return (const struct module *)cls;
}

const struct member *mod_member_find(const struct module *m, const char *name)
{
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->members[i].row.name, name) == 0) return &m->members[i];
    return NULL;
}

/* The closest member name within edit distance 2, or NULL. */
static const char *member_suggest(const struct module *m, const char *name)
{
    const char *best = NULL;
    size_t best_d = 3;
    for (size_t i = 0; i < m->n; i++) {
        size_t d = dsl_edit_distance(name, m->members[i].row.name);
        if (d < best_d && d < strlen(name)) best = m->members[i].row.name, best_d = d;
    }
    return best;
}

/* The member a FROM row stands for (the row itself otherwise). */
static const struct member *resolved(const struct member *mb)
{
    while (mb && mb->from) mb = mod_member_find(mb->from, mb->row.name);
    return mb;
}

static int member_value(struct dsl_interp *in, const struct member *mb, struct dsl_value *out)
{
    if (mb->from) { /* the same value as the other module's, written files included */
        struct dsl_value m;
        if (mod_module_value(in, mb->from, &m) != 0) return -1;
        int r = dsl_getattr(in, m, mb->row.name, out);
        dsl_value_release(m);
        return r;
    }
    if (mb->value) return mb->value(in, out);
    const struct dsl_builtin *fn = mb->builtin ? dsl_builtin_find(mb->builtin) : &mb->row;
    *out = (struct dsl_value){.kind = DSL_BUILTIN, .as.fn = fn};
    return 0;
}

void mod_free_nothing(void *state) { (void)state; }

int mod_module_repr(struct render_buf *b, const void *state)
{
    const struct module *m = state;
    render_buf_printf(b, "<module '%s'>", m->name);
    return b->nomem ? DSL_V_NOMEM : DSL_V_OK;
}

/* m.name where the session has files of m's package (a student's cells, the kernel's own
 * files): what a student's files give m (minitorch's star imports), else the file m.name itself,
 * run first if it is one of the kernel's the session lacks. 1 with a new value in *out, 0 when
 * none, -1 after raising. */
static int package_attr(struct dsl_interp *in, const struct module *m, const char *name,
                        struct dsl_value *out)
{
    /* as in MiniTorch, a star import binds over a submodule's name (minitorch.tensor is
     * tensor_functions' function, not the file tensor.py) */
    bool files = m == &mod_minitorch && in->session->npackages;
    struct dsl_value *v = files ? mod_minitorch_module_kept(in, name) : NULL;
    if (v) {
        *out = dsl_value_retain(*v);
        return 1;
    }
    if (files) v = mod_minitorch_file_export(in, name);
    if (!v) {
        /* "m.name", cut as snprintf would (no module's name is that long); snprintf itself
         * costs more than the rest of a minitorch.scalar read */
        char full[160];
        size_t lm = strlen(m->name), ln = strnlen(name, sizeof full);
        if (lm + 1 + ln >= sizeof full) {
            snprintf(full, sizeof full, "%s.%s", m->name, name);
        } else {
            memcpy(full, m->name, lm);
            full[lm] = '.';
            memcpy(full + lm + 1, name, ln + 1);
        }
        /* the kernel's own file runs only when the session has no module of that name */
        v = dsl_package_find(in->session, full);
        if (!v && mod_minitorch_builtin_load(in, full) != 0) return -1;
        if (!v) v = dsl_package_find(in->session, full);
        if (v && files) mod_minitorch_module_keep(in, name, v);
    }
    if (!v) return 0;
    *out = dsl_value_retain(*v);
    return 1;
}

static const struct module *submodule(const struct module *m, const char *name);

/* m.name: a file a cell wrote or what it gives m, m's member, m's submodule (the kernel's
 * minitorch.tensor_data), or what the kernel's own files give minitorch (minitorch.Scalar),
 * last so that a name of the C library never runs them. 1 with a new value in *out, 0 when m
 * has none, -1 after raising. */
static int module_attr(struct dsl_interp *in, const struct module *m, const char *name,
                       struct dsl_value *out)
{
    int got = package_attr(in, m, name, out);
    if (got) return got;
    const struct member *mb = mod_member_find(m, name);
    if (mb) return member_value(in, mb, out) == 0 ? 1 : -1;
    const struct module *sub = submodule(m, name);
    if (sub) return mod_module_value(in, sub, out) == 0 ? 1 : -1;
    return m == &mod_minitorch ? mod_minitorch_builtin_export(in, name, out) : 0;
}

int mod_module_getattr(struct dsl_interp *in, struct dsl_value self, const char *name,
                       struct dsl_value *out)
{
    const struct module *m = self.as.obj->state;
    int got = module_attr(in, m, name, out);
    if (got) return got > 0 ? 0 : -1;
    if (dsl_raise_missing(in, m->name, name) != 0) return -1; /* math.prod, numpy.linspace */
    const char *hint = member_suggest(m, name);
    if (hint)
        return dsl_raise(in, "AttributeError",
                         "module '%s' has no attribute '%s', did you mean '%s'?", m->name, name,
                         hint);
    return dsl_raise(in, "AttributeError", "module '%s' has no attribute '%s'", m->name, name);
}

const char *mod_module_attr_name(const struct dsl_object_class *cls, size_t i)
{
    const struct module *m = module_of(cls);
    return i < m->n ? m->members[i].row.name : NULL;
}

bool mod_module_attr_help(const struct dsl_object_class *cls, const char *name,
                          struct render_buf *b)
{
    const struct member *mb = resolved(mod_member_find(module_of(cls), name));
    if (!mb) return false;
    const struct dsl_builtin *fn = mb->builtin ? dsl_builtin_find(mb->builtin) : &mb->row;
    if (mb->builtin && mb->row.doc) { /* the same function under MiniTorch's name */
        render_buf_printf(b, "%s\n\n%s\n\n", mb->row.signature, mb->row.doc);
        dsl_builtin_help(b, fn);
        return true;
    }
    dsl_builtin_help(b, fn);
    return true;
}

int mod_module_value(struct dsl_interp *in, const struct module *m, struct dsl_value *out)
{
    int st = dsl_object_value(&m->cls, (void *)m, out);
    return st ? dsl_raise_status(in, st) : 0;
}

const char *dsl_module_of(struct dsl_value v)
{
    if (v.kind != DSL_OBJECT || v.as.obj->cls->repr != mod_module_repr) return NULL;
    return module_of(v.as.obj->cls)->name;
}

/* ---- arguments and calls ---------------------------------------------------------------- */

int mod_real_arg(struct dsl_interp *in, struct dsl_value v, double *out)
{
    *out = 0;
    if (!dsl_is_number(v))
        return dsl_raise(in, "TypeError", "must be real number, not %s", dsl_type_name(v));
    *out = dsl_as_double(v);
    return 0;
}

int mod_int_arg(struct dsl_interp *in, struct dsl_value v, int64_t *out)
{
    *out = 0;
    if (!dsl_is_intlike(v))
        return dsl_raise(in, "TypeError", "'%s' object cannot be interpreted as an integer",
                         dsl_type_name(v));
    *out = dsl_as_int(v);
    return 0;
}

int mod_domain_error(struct dsl_interp *in)
{
    return dsl_raise(in, "ValueError", "math domain error");
}

int mod_call(struct dsl_interp *in, struct dsl_value fn, const struct dsl_value *args, size_t n,
             struct dsl_value *out)
{
    return dsl_call(in, fn, args, n, NULL, NULL, 0, out);
}

int mod_check_callable(struct dsl_interp *in, struct dsl_value fn, const char *who)
{
    bool ok = fn.kind == DSL_BUILTIN || fn.kind == DSL_METHOD || fn.kind == DSL_FUNCTION ||
              (fn.kind == DSL_OBJECT && fn.as.obj->cls->call);
    return ok ? 0
              : dsl_raise(in, "TypeError", "%s(): fn must be a function, not %s", who,
                          dsl_type_name(fn));
}

int mod_bound(struct dsl_interp *in, const struct dsl_builtin *row, struct dsl_value self,
              struct dsl_value *ret)
{
    int st = dsl_method_value(row, self, ret);
    return st ? dsl_raise_status(in, st) : 0;
}

int mod_class_wrap(struct dsl_interp *in, struct dsl_class *c, const struct dsl_builtin *rows,
                   size_t n, enum dsl_wrap how)
{
    for (size_t i = 0; i < n; i++) {
        struct dsl_value m;
        if (dsl_method_value(NULL, dsl_none(), &m) != DSL_V_OK ||
            (m.as.m->func = (struct dsl_value){.kind = DSL_BUILTIN, .as.fn = &rows[i]},
             m.as.m->wrap = how, dsl_attrs_set(&c->attrs, rows[i].name, m) != DSL_V_OK))
            return dsl_raise_status(in, DSL_V_NOMEM);
    }
    return 0;
}

/* ---- the modules ------------------------------------------------------------------------ */

static const struct module *const all_modules[] = {
    &mod_argparse,
    &mod_dataclasses,
    &mod_ipython,
    &mod_ipython_display,
    &mod_math,
    &mod_minitorch,
    &mod_operators,
    &mod_numba,
    &mod_numba_cuda,
    &mod_numpy,
    &mod_numpy_testing,
    &mod_numpy_typing,
    &mod_random,
    &mod_time,
    &mod_typing,
    &mod_typing_extensions,
    &mod_mt_autodiff,
    &mod_mt_cuda_ops,
    &mod_mt_fast_conv,
    &mod_mt_fast_ops,
    &mod_mt_module,
    &mod_mt_optim,
    &mod_mt_tensor,
    &mod_mt_tensor_data,
    &mod_mt_tensor_functions,
    &mod_mt_tensor_ops,
    &mod_mt_testing,
};
#define NMODULES (sizeof all_modules / sizeof all_modules[0])

/* The submodule of m called name: the module whose name is m's, a dot, and name; or NULL. */
static const struct module *submodule(const struct module *m, const char *name)
{
    size_t len = strlen(m->name);
    for (size_t i = 0; i < NMODULES; i++) {
        const char *full = all_modules[i]->name;
        if (strncmp(full, m->name, len) == 0 && full[len] == '.' &&
            strcmp(full + len + 1, name) == 0)
            return all_modules[i];
    }
    return NULL;
}

const struct dsl_object_class *mod_module_attr_class(const struct dsl_object_class *cls,
                                                     const char *name)
{
    const struct module *m = module_of(cls);
    const struct module *sub = submodule(m, name);
    if (sub) return &sub->cls;
    if (m == &mod_minitorch && strcmp(name, "datasets") == 0) return &mod_datasets_class;
    return NULL;
}

size_t dsl_module_file_names(struct dsl_session *s, const struct dsl_object_class *cls,
                             const char **out, size_t cap)
{
    if (!s || cls->repr != mod_module_repr) return 0;
    const struct module *m = module_of(cls);
    size_t n = 0, len = strlen(m->name);
    for (size_t i = 0; i < s->npackages; i++) { /* its files */
        const char *full = s->package_names[i];
        if (strncmp(full, m->name, len) != 0 || full[len] != '.' || strchr(full + len + 1, '.'))
            continue;
        if (out && n < cap) out[n] = full + len + 1;
        n++;
    }
    if (m == &mod_minitorch)
        n += mod_minitorch_file_names(s, out ? out + (n < cap ? n : cap) : NULL,
                                      n < cap ? cap - n : 0);
    return n;
}

struct dsl_value *dsl_module_file(struct dsl_session *s, const struct dsl_object_class *cls,
                                  const char *name)
{
    if (!s || cls->repr != mod_module_repr) return NULL;
    char full[160];
    snprintf(full, sizeof full, "%s.%s", module_of(cls)->name, name);
    return dsl_package_find(s, full);
}

const struct dsl_object_class *dsl_module_class(const char *name)
{
    for (size_t i = 0; i < NMODULES; i++)
        if (strcmp(all_modules[i]->name, name) == 0) return &all_modules[i]->cls;
    return NULL;
}

const char *dsl_module_name(size_t i) { return i < NMODULES ? all_modules[i]->name : NULL; }

int dsl_module_import(struct dsl_interp *in, const char *name, struct dsl_value *out)
{
    *out = dsl_none();
    if (mod_minitorch_builtin_load(in, name) != 0) return -1; /* the kernel's own file */
    struct dsl_value *file = dsl_package_find(in->session, name);
    if (file) { /* a file a cell wrote comes before the kernel's module of that name */
        *out = dsl_value_retain(*file);
        return 0;
    }
    for (size_t i = 0; i < NMODULES; i++)
        if (strcmp(all_modules[i]->name, name) == 0)
            return mod_module_value(in, all_modules[i], out);
    size_t pl = strlen(DSL_PACKAGE);
    if (strncmp(name, DSL_PACKAGE, pl) == 0 && name[pl] == '.')
        return dsl_raise(in, "ModuleNotFoundError",
                         "No module named '%s': the kernel's minitorch has no such file; write "
                         "yours in a cell that starts with %%%%minitorch_file %s.py",
                         name, name + pl + 1);
    return dsl_raise(
        in, "ModuleNotFoundError",
        "No module named '%s' (the kernel has math, random, time, argparse, dataclasses, "
        "typing, typing_extensions, numba, part of numpy, IPython.display, and minitorch with "
        "its files "
        "minitorch.operators, minitorch.tensor_data, ...; a cell that starts with "
        "%%%%minitorch_file NAME.py adds one)",
        name);
}

int dsl_module_from(struct dsl_interp *in, struct dsl_value module, const char *name,
                    struct dsl_value *out)
{
    *out = dsl_none();
    if (module.kind == DSL_INSTANCE) { /* a file a cell wrote */
        const struct dsl_value *v = dsl_attrs_find(&module.as.inst->attrs, name);
        if (v) {
            *out = dsl_value_retain(*v);
            return 0;
        }
        return dsl_raise(in, "ImportError", "cannot import name '%s' from '%s'", name,
                         dsl_package_name(module));
    }
    const struct module *m = module.as.obj->state;
    int got = module_attr(in, m, name, out);
    if (got) return got > 0 ? 0 : -1;
    const char *hint = member_suggest(m, name);
    if (hint)
        return dsl_raise(in, "ImportError", "cannot import name '%s' from '%s', did you mean '%s'?",
                         name, m->name, hint);
    return dsl_raise(in, "ImportError", "cannot import name '%s' from '%s'", name, m->name);
}
