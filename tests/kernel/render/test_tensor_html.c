/* test_render_html.c — the text/html form of tensors in a result bundle: a table for 1-D and
 * 2-D tensors (cut where the text form cuts), the escaped text form for the rest, and the footer
 * with shape, strides, backend and requires_grad. */
#include "kernel/dsl_helpers.h"
#include "test.h"

/* The text/html of the cell's result (static buffer; "" when none). */
static const char *html_of(struct dsl_session *s, const char *code)
{
    static char buf[1 << 16];
    json_t *res = NULL;
    struct dsl_error err = {0};
    buf[0] = '\0';
    if (dsl_execute(s, code, NULL, &res, &err) != 0) {
        fprintf(stderr, "cell failed: %s: %s\n", err.ename, err.evalue);
        test_checks_failed++;
        dsl_error_clear(&err);
        return buf;
    }
    const char *h = json_string_value(json_object_get(res, "text/html"));
    snprintf(buf, sizeof buf, "%s", h ? h : "");
    json_decref(res);
    return buf;
}

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)); p += strlen(what)) n++;
    return n;
}

static void test_small_table(void)
{
    struct dsl_session *s = dsl_session_new();
    const char *h = html_of(s, "tensor([[1, 2.5], [3, -4]], requires_grad=true)");
    CHECK(strstr(h, "<table") != NULL);
    CHECK_INT(count(h, "<tr>"), 3); /* the column indices, two rows */
    CHECK_INT(count(h, "<td>"), 4);
    CHECK(strstr(h, "<tr><th></th><th>0</th><th>1</th></tr>"
                    "<tr><th>0</th><td>1.0000</td><td>2.5000</td></tr>"
                    "<tr><th>1</th><td>3.0000</td><td>-4.0000</td></tr>") != NULL);
    CHECK(strstr(h, "shape (2, 2) &middot; strides (2, 1) &middot; backend fast &middot; "
                    "requires_grad True (leaf)</div>") != NULL);
    /* a transposed view: its own strides; a 1-D tensor is one row under its indices */
    h = html_of(s, "tensor([[1, 2, 3], [4, 5, 6]]).permute(1, 0)");
    CHECK_INT(count(h, "<tr>"), 4);
    CHECK(strstr(h, "<tr><th>0</th><td>1.</td><td>4.</td></tr>") != NULL);
    CHECK(strstr(h, "strides (1, 3)") != NULL);
    h = html_of(s, "%backend simple\nzeros(3)");
    CHECK_INT(count(h, "<tr>"), 2);
    CHECK_INT(count(h, "<td>"), 3);
    CHECK(strstr(h, "backend simple &middot; requires_grad False</div>") != NULL);
    /* non-finite values, a computed tensor and a gradient present */
    h = html_of(s, "x = tensor([1, 2], requires_grad=true)\n(x * x).sum().backward()\n"
                   "y = x.detach() / 0\ny");
    CHECK(strstr(h, "<td>inf</td>") != NULL);
    h = html_of(s, "x");
    CHECK(strstr(h, "requires_grad True (leaf) &middot; grad set") != NULL);
    h = html_of(s, "x * 2");
    CHECK(strstr(h, "requires_grad True (computed, not a leaf)</div>") != NULL);
    dsl_session_free(s);
}

static void test_big_and_deep(void)
{
    struct dsl_session *s = dsl_session_new();
    /* 1,000 elements whole, in a box that scrolls, cells that do not wrap; past 1,000 the first
     * and last 3 columns around an ellipsis column, as the text form */
    const char *h = html_of(s, "zeros(2, 500)");
    CHECK(strstr(h, "<table") != NULL && strstr(h, "<pre") == NULL);
    CHECK(strstr(h, "overflow-x:auto") != NULL && strstr(h, "white-space:nowrap") != NULL);
    CHECK_INT(count(h, "&hellip;"), 0);
    CHECK_INT(count(h, "<td>"), 1000);
    h = html_of(s, "zeros(2, 501)");
    CHECK_INT(count(h, "&hellip;"), 3); /* the header and both rows */
    CHECK_INT(count(h, "<td>"), 2 * 7);
    CHECK(strstr(h, "shape (2, 501)") != NULL);
    /* set_printoptions shows everything */
    h = html_of(s, "set_printoptions(profile=\"full\")\nzeros(2, 501)");
    CHECK_INT(count(h, "&hellip;"), 0);
    CHECK_INT(count(h, "<td>"), 1002);
    h = html_of(s, "set_printoptions(profile=\"default\")\nzeros(2, 501)");
    CHECK_INT(count(h, "<td>"), 2 * 7);
    /* 3-D and empty: the text form, escaped, in <pre> */
    h = html_of(s, "ones(2, 2, 2)");
    CHECK(strstr(h, "<pre style=\"white-space:pre\">tensor([[[1., 1.],") != NULL);
    h = html_of(s, "zeros(0, 3)");
    CHECK(strstr(h, ">tensor([], shape=(0, 3), backend=fast)</pre>") != NULL);
    /* a big one stays small: 6 x 6 values around the cut */
    h = html_of(s, "zeros(1000, 1000)");
    CHECK(strlen(h) < 2000);
    CHECK_INT(count(h, "<td>0.</td>"), 36);
    h = html_of(s, "zeros(10, 10, 10, 10)");
    CHECK_INT(count(h, "0."), 6 * 6 * 6 * 6); /* 3 + 3 of each dim, as the text form */
    /* other values have no html */
    h = html_of(s, "[1, 2]");
    CHECK_STR(h, "");
    dsl_session_free(s);
}

int main(void)
{
    RUN_TEST(test_small_table);
    RUN_TEST(test_big_and_deep);
    return TEST_SUMMARY();
}
