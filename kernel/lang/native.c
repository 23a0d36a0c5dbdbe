/* native.c — binding a call's arguments to the row of a function written in C (see native.h). */
#include "lang/native.h"

#include "lang/interp.h"

#include <string.h>

int dsl_builtin_help(struct render_buf *b, const struct dsl_builtin *fn)
{
    render_buf_puts(b, fn->signature);
    render_buf_puts(b, "\n\n");
    return render_buf_puts(b, fn->doc);
}

const char *const dsl_any_keywords[] = {NULL};

static int param_index(const struct dsl_builtin *fn, const char *name)
{
    for (int i = 0; fn->params && fn->params[i]; i++)
        if (strcmp(fn->params[i], name) == 0) return i;
    return -1;
}

int dsl_bind_args_any(struct dsl_interp *in, const struct dsl_builtin *fn,
                      const struct dsl_value *pos, size_t npos, char *const *kwnames,
                      const struct dsl_value *kwvals, size_t nkw, struct dsl_args *args)
{
    bool varargs = fn->max_args < 0;
    dsl_args_start(fn, pos, varargs || npos > (size_t)fn->max_args ? 0 : npos, args);
    if (varargs) {
        args->rest = pos;
        args->nrest = npos;
        if (npos < (size_t)fn->min_args)
            return dsl_raise(in, "TypeError", "%s() expected at least %d argument%s, got %zu",
                             fn->name, fn->min_args, fn->min_args == 1 ? "" : "s", npos);
    } else {
        if (npos > (size_t)fn->max_args) {
            if (fn->min_args == fn->max_args)
                return dsl_raise(in, "TypeError", "%s() takes %d argument%s (%zu given)", fn->name,
                                 fn->max_args, fn->max_args == 1 ? "" : "s", npos);
            return dsl_raise(in, "TypeError", "%s() takes at most %d arguments (%zu given)",
                             fn->name, fn->max_args, npos);
        }
    }
    if (fn->params == dsl_any_keywords) {
        args->kwnames = kwnames;
        args->kwvals = kwvals;
        args->nkw = nkw;
        nkw = 0;
    }
    if (nkw && !fn->params)
        return dsl_raise(in, "TypeError", "%s() takes no keyword arguments", fn->name);
    for (size_t k = 0; k < nkw; k++) {
        int i = param_index(fn, kwnames[k]);
        if (i < 0 || i >= DSL_MAX_PARAMS)
            return dsl_raise(in, "TypeError", "%s() got an unexpected keyword argument '%s'",
                             fn->name, kwnames[k]);
        if (args->has[i])
            return dsl_raise(in, "TypeError", "%s() got multiple values for argument '%s'",
                             fn->name, kwnames[k]);
        args->slot[i] = kwvals[k];
        args->has[i] = true;
    }
    if (!varargs)
        for (int i = 0; i < fn->min_args; i++)
            if (!args->has[i]) {
                if (fn->params)
                    return dsl_raise(in, "TypeError", "%s() missing required argument '%s'",
                                     fn->name, fn->params[i]);
                return dsl_raise(in, "TypeError", "%s() takes %s%d argument%s (%zu given)",
                                 fn->name, fn->min_args == fn->max_args ? "" : "at least ",
                                 fn->min_args, fn->min_args == 1 ? "" : "s", npos);
            }
    return 0;
}
