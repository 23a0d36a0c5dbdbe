/* missing.c — the names CPython has and the language lacks (missing.h). */
#include "lang/missing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/cpython_names.h"

static int by_name(const void *key, const void *item)
{
    return strcmp((const char *)key, *(const char *const *)item);
}

bool dsl_cpython_has(const char *scope, const char *name)
{
    for (size_t i = 0; i < sizeof cpython_scopes / sizeof *cpython_scopes; i++)
        if (strcmp(cpython_scopes[i].scope, scope) == 0)
            return bsearch(name, cpython_scopes[i].names, cpython_scopes[i].n, sizeof(char *),
                           by_name) != NULL;
    return false;
}

/* The message for scope.name into buf. */
static void message(char *buf, size_t size, const char *scope, const char *name)
{
    if (strcmp(scope, "builtins") == 0)
        snprintf(buf, size, "the Python builtin '%s' is not supported in the MiniTorch language",
                 name);
    else if (name[0] == '_' && name[1] == '_') /* a special method: what calls it works */
        snprintf(buf, size,
                 "%s.%s is not supported in the MiniTorch language: use the operator or builtin "
                 "that calls it (len(x), x[i], x + y, str(x), ...)",
                 scope, name);
    else
        snprintf(buf, size, "%s.%s is not supported in the MiniTorch language", scope, name);
}

int dsl_raise_missing(struct dsl_interp *in, const char *scope, const char *name)
{
    if (!dsl_cpython_has(scope, name)) return 0;
    char buf[512];
    message(buf, sizeof buf, scope, name);
    return dsl_raise(in, "NotImplementedError", "%s", buf);
}

int dsl_raise_missing_at(struct dsl_interp *in, size_t pos, const char *scope, const char *name)
{
    if (!dsl_cpython_has(scope, name)) return 0;
    char buf[512];
    message(buf, sizeof buf, scope, name);
    return dsl_raise_at(in, pos, "NotImplementedError", "%s", buf);
}
