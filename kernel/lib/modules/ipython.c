/* ipython.c — IPython.display, the part a notebook's own code uses to show a picture or a
 * formatted text it made: SVG(data), HTML(data) and Markdown(data), whose display is a rich
 * output of that one mime type (image/svg+xml, text/html, text/markdown) with IPython's
 * text/plain beside it, and display, update_display and clear_output, the library's builtins
 * under IPython's names. `import IPython` gives the package, whose `display` is this module.
 *
 * An object keeps a copy of its text and nothing else: the front end draws it, the kernel never
 * reads it (an SVG is not checked or cleaned, as IPython's is not). */
#include "lib/modules/module.h"

#include "render/render.h"

#include <stdlib.h>
#include <string.h>

struct rich {
    const char *mime; /* the one rich type this object shows as */
    char *data;
    size_t len;
};

static void rich_free(void *state)
{
    struct rich *r = state;
    free(r->data);
    free(r);
}

static json_t *rich_bundle(const void *state, const char *renderer)
{
    (void)renderer; /* the user's own drawing, whatever the charts' renderer */
    const struct rich *r = state;
    json_t *bundle = json_object();
    if (!bundle || json_object_set_new(bundle, r->mime, render_json_string(r->data, r->len))) {
        json_decref(bundle);
        return NULL;
    }
    return bundle;
}

static int rich_getattr(struct dsl_interp *in, struct dsl_value self, const char *name,
                        struct dsl_value *out)
{
    const struct rich *r = self.as.obj->state;
    if (strcmp(name, "data") == 0) {
        int st = dsl_str_value(r->data, r->len, out);
        return st ? dsl_raise_status(in, st) : 0;
    }
    return dsl_raise(in, "AttributeError", "'%s' object has no attribute '%s' (it has data)",
                     self.as.obj->cls->name, name);
}

static const char *const rich_attrs[] = {"data", NULL};

/* IPython's text/plain of these objects: the default repr of its class */
#define RICH_REPR(cls_)                                                                            \
    static int repr_##cls_(struct render_buf *b, const void *state)                                \
    {                                                                                              \
        (void)state;                                                                               \
        render_buf_puts(b, "<IPython.core.display." #cls_ " object>");                             \
        return b->nomem ? DSL_V_NOMEM : DSL_V_OK;                                                  \
    }
RICH_REPR(SVG)
RICH_REPR(HTML)
RICH_REPR(Markdown)

#define RICH_CLASS(cls_, doc_)                                                                     \
    {                                                                                              \
        .name = #cls_, .doc = doc_, .attrs = rich_attrs, .free = rich_free, .repr = repr_##cls_,   \
        .getattr = rich_getattr, .bundle = rich_bundle,                                            \
    }
static const struct dsl_object_class svg_class =
    RICH_CLASS(SVG, "SVG: an SVG drawing (its text in .data); displayed, the front end draws it.");
static const struct dsl_object_class html_class =
    RICH_CLASS(HTML, "HTML: a piece of HTML (its text in .data); displayed, the front end "
                     "renders it.");
static const struct dsl_object_class markdown_class =
    RICH_CLASS(Markdown, "Markdown: Markdown text (in .data); displayed, the front end renders "
                         "it as a markdown cell's.");

static int make(struct dsl_interp *in, const struct dsl_args *a, const struct dsl_object_class *cls,
                const char *mime, struct dsl_value *ret)
{
    struct dsl_value v = a->slot[0];
    if (v.kind != DSL_STR)
        return dsl_raise(in, "TypeError",
                         "%s(data): data must be the text as a string, not %s (the kernel "
                         "reads no file or URL)",
                         cls->name, dsl_type_name(v));
    struct rich *r = malloc(sizeof *r);
    char *copy = malloc(v.as.s->len + 1);
    if (!r || !copy) {
        free(r);
        free(copy);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    memcpy(copy, v.as.s->data, v.as.s->len);
    copy[v.as.s->len] = '\0';
    *r = (struct rich){.mime = mime, .data = copy, .len = v.as.s->len};
    int st = dsl_object_value(cls, r, ret); /* frees r when it fails */
    return st ? dsl_raise_status(in, st) : 0;
}

static int d_svg(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return make(in, a, &svg_class, "image/svg+xml", ret);
}

static int d_html(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return make(in, a, &html_class, "text/html", ret);
}

static int d_markdown(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    return make(in, a, &markdown_class, "text/markdown", ret);
}

static const char *const data_params[] = {"data", NULL};

static const struct member display_members[] = {
    FN("HTML", "IPython.display.HTML(data)", 1, 1, data_params, d_html,
       "HTML text to show: display(HTML(s)), or an HTML(...) as a cell's last line, is a "
       "text/html output."),
    FN("Markdown", "IPython.display.Markdown(data)", 1, 1, data_params, d_markdown,
       "Markdown text to show: display(Markdown(s)) is a text/markdown output."),
    FN("SVG", "IPython.display.SVG(data)", 1, 1, data_params, d_svg,
       "An SVG drawing to show: display(SVG(s)), or an SVG(...) as a cell's last line, is an "
       "image/svg+xml output. update_display(SVG(s2), display_id=...) redraws it."),
    ALIAS("clear_output", "IPython.display.clear_output(wait=False)", "clear_output", NULL),
    ALIAS("display", "IPython.display.display(value, display_id=None)", "display", NULL),
    ALIAS("update_display", "IPython.display.update_display(value, display_id)", "update_display",
          NULL),
};

const struct module mod_ipython_display = {
    .cls = MODULE_CLASS("module: IPython.display, of which the kernel has display, "
                        "update_display, clear_output, SVG, HTML and Markdown."),
    .name = "IPython.display",
    .members = MEMBERS(display_members),
};

static int v_display(struct dsl_interp *in, struct dsl_value *out)
{
    return mod_module_value(in, &mod_ipython_display, out);
}

static const struct member ipython_members[] = {
    VALUE("display", "IPython.display", v_display,
          "IPython.display: display, update_display, clear_output, SVG, HTML, Markdown."),
};

const struct module mod_ipython = {
    .cls = MODULE_CLASS("module: IPython, of which the kernel has the module IPython.display."),
    .name = "IPython",
    .members = MEMBERS(ipython_members),
};
