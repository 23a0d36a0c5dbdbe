/* argparse_namespace.c — argparse.Namespace, what parse_args returns: an object whose attributes
 * are the arguments' values (args.lr), its repr CPython's. A class of its own, apart from the
 * parser's files, since a program makes and passes Namespaces itself
 * (parse_args(namespace=...)). */
#include "lib/modules/argparse.h"

#include <ctype.h>
#include <string.h>

static int ns_init(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    for (size_t k = 0; k < a->nkw; k++)
        if (set(in, a->self, a->kwnames[k], a->kwvals[k]) != 0) return -1;
    *ret = dsl_none();
    return 0;
}

static bool is_identifier(const char *s)
{
    if (!(isalpha((unsigned char)*s) || *s == '_')) return false;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_')) return false;
    return true;
}

/* Namespace(a=1, b=2): the attributes in the order they were set; names that are not
 * identifiers as a dict after **, as CPython's. */
static int ns_repr(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    const struct dsl_attrs *at = &a->self.as.inst->attrs;
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_REPR_BYTES);
    render_buf_puts(&b, "Namespace(");
    size_t shown = 0, odd = 0;
    int st = DSL_V_OK;
    for (size_t i = 0; i < at->len && st == DSL_V_OK; i++) {
        if (!is_identifier(at->items[i].name)) {
            odd++;
            continue;
        }
        render_buf_printf(&b, "%s%s=", shown++ ? ", " : "", at->items[i].name);
        st = dsl_value_repr(&b, at->items[i].value);
    }
    if (odd && st == DSL_V_OK) {
        render_buf_printf(&b, "%s**{", shown ? ", " : "");
        size_t done = 0;
        for (size_t i = 0; i < at->len && st == DSL_V_OK; i++) {
            if (is_identifier(at->items[i].name)) continue;
            struct dsl_value key;
            st = dsl_str_value(at->items[i].name, strlen(at->items[i].name), &key);
            if (st != DSL_V_OK) break;
            if (done++) render_buf_puts(&b, ", ");
            st = dsl_value_repr(&b, key);
            dsl_value_release(key);
            render_buf_puts(&b, ": ");
            if (st == DSL_V_OK) st = dsl_value_repr(&b, at->items[i].value);
        }
        render_buf_putc(&b, '}');
    }
    render_buf_putc(&b, ')');
    if (st != DSL_V_OK) {
        render_buf_free(&b);
        return dsl_raise_status(in, st);
    }
    return ap_buf_value(in, &b, ret);
}

static const struct dsl_builtin namespace_rows[] = {
    {"__init__", "Namespace(**kwargs)", 0, 0, dsl_any_keywords, ns_init,
     "An object whose attributes are the keywords: what parse_args returns."},
    {"__repr__", "__repr__()", 0, 0, NULL, ns_repr, "Namespace(a=1, b=2)."},
    {NULL, NULL, 0, 0, NULL, NULL, NULL},
};

struct dsl_class *ap_namespace_class(void)
{
    return dsl_library_class("Namespace",
                             "argparse.Namespace(**kwargs): what parse_args returns, one "
                             "attribute per argument (args.lr).",
                             dsl_none(), namespace_rows);
}
