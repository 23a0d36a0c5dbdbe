/* test_ipython_display.c — IPython.display (kernel/lib/modules/ipython.c): the mime bundle that
 * display() of SVG, HTML and Markdown sends (that type with the text given, byte for byte, and
 * IPython's text/plain, nothing else), the same as a cell's result and through update_display,
 * and the errors of a wrong argument. */
#include "test.h"

#include "kernel/dsl_helpers.h"

/* The displays of the last cell run by run_keep, in order, with their ids. */
static json_t *shown[8];
static char shown_id[8][32];
static bool shown_update[8];
static int nshown;
static json_t *result;

static void keep(void *ctx, json_t *data, const char *id, bool update)
{
    (void)ctx;
    if (nshown == 8) return;
    snprintf(shown_id[nshown], sizeof shown_id[nshown], "%s", id ? id : "-");
    shown_update[nshown] = update;
    shown[nshown++] = json_incref(data);
}

static void forget(void)
{
    for (int i = 0; i < nshown; i++) json_decref(shown[i]);
    nshown = 0;
    json_decref(result);
    result = NULL;
}

/* Runs code keeping its displays and result; the error "ENAME: evalue", or "ok". */
static const char *run_keep(struct dsl_session *s, const char *code)
{
    static char why[512];
    struct dsl_output out = {.display = keep};
    struct dsl_error err = {0};
    forget();
    int r = dsl_execute(s, code, &out, &result, &err);
    if (r)
        snprintf(why, sizeof why, "%s: %s", err.ename, err.evalue);
    else
        snprintf(why, sizeof why, "ok");
    dsl_error_clear(&err);
    return why;
}

static const char *mime(json_t *bundle, const char *type)
{
    const char *v = json_string_value(json_object_get(bundle, type));
    return v ? v : "(none)";
}

static void test_bundles(void)
{
    struct dsl_session *s = dsl_session_new();
    CHECK_STR(run_keep(s, "from IPython.display import SVG, HTML, Markdown, display\n"
                          "display(SVG('<svg width=\"4\"><text>\\u03c3 < 1</text></svg>'))\n"
                          "display(HTML('<b>bold</b>'))\n"
                          "display(Markdown('*it*'))"),
              "ok");
    CHECK_INT(nshown, 3);
    if (nshown == 3) {
        /* the text as given (UTF-8 and all), one rich type and IPython's text/plain */
        CHECK_STR(mime(shown[0], "image/svg+xml"),
                  "<svg width=\"4\"><text>\xcf\x83 < 1</text></svg>");
        CHECK_STR(mime(shown[0], "text/plain"), "<IPython.core.display.SVG object>");
        CHECK_INT(json_object_size(shown[0]), 2);
        CHECK_STR(mime(shown[1], "text/html"), "<b>bold</b>");
        CHECK_STR(mime(shown[1], "text/plain"), "<IPython.core.display.HTML object>");
        CHECK_INT(json_object_size(shown[1]), 2);
        CHECK_STR(mime(shown[2], "text/markdown"), "*it*");
        CHECK_STR(mime(shown[2], "text/plain"), "<IPython.core.display.Markdown object>");
        CHECK_INT(json_object_size(shown[2]), 2);
    }
    /* a cell's last value is shown the same way */
    CHECK_STR(run_keep(s, "SVG(data='<svg/>')"), "ok");
    CHECK(result != NULL);
    CHECK_STR(mime(result, "image/svg+xml"), "<svg/>");
    CHECK_STR(mime(result, "text/plain"), "<IPython.core.display.SVG object>");
    /* redrawn in place: display_id, then update_display with it */
    CHECK_STR(run_keep(s, "import IPython\n"
                          "IPython.display.display(SVG('<svg>1</svg>'), display_id='g')\n"
                          "IPython.display.update_display(SVG('<svg>2</svg>'), display_id='g')"),
              "ok");
    CHECK_INT(nshown, 2);
    if (nshown == 2) {
        CHECK_STR(shown_id[0], "g");
        CHECK(!shown_update[0]);
        CHECK_STR(mime(shown[0], "image/svg+xml"), "<svg>1</svg>");
        CHECK_STR(shown_id[1], "g");
        CHECK(shown_update[1]);
        CHECK_STR(mime(shown[1], "image/svg+xml"), "<svg>2</svg>");
    }
    forget();
    dsl_session_free(s);
}

static void test_values_and_errors(void)
{
    CHECK_STR(eval1("from IPython.display import SVG\nSVG('<svg/>').data"), "'<svg/>'");
    CHECK_STR(eval1("from IPython.display import HTML\nrepr(HTML('x'))"),
              "'<IPython.core.display.HTML object>'");
    /* the module's display is the builtin itself */
    CHECK_STR(eval1("import IPython.display\nIPython.display.display is display"), "True");
    CHECK_STR(eval1("from IPython.display import SVG\nSVG(3)"),
              "<TypeError: SVG(data): data must be the text as a string, not int (the kernel "
              "reads no file or URL)>");
    CHECK_STR(ename1("from IPython.display import SVG\nSVG()"), "TypeError");
    CHECK_STR(ename1("from IPython.display import SVG\nSVG('a', 'b')"), "TypeError");
    CHECK_STR(eval1("from IPython.display import Markdown\nMarkdown('a').text"),
              "<AttributeError: 'Markdown' object has no attribute 'text' (it has data)>");
    CHECK_STR(ename1("from IPython.display import Image"), "ImportError");
}

int main(void)
{
    RUN_TEST(test_bundles);
    RUN_TEST(test_values_and_errors);
    return TEST_SUMMARY();
}
