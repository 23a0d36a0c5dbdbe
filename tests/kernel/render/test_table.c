/* test_render_table.c — render_grid, the one layout of the library's tables (%diagnostics and
 * its GPU table): the text form in aligned columns, and the HTML form readable in JupyterLab,
 * whose own style right-aligns every cell, and narrow enough for its output area: text cells
 * left, numbers right, headers free to break between words, a column of words between its
 * words, a list between its items (never inside one), text and numbers on one line, the
 * columns padded apart, detail columns on a line under their row. */
#include "render/render.h"
#include "test.h"

#include <string.h>

static const char *const headers[] = {"op", "strides", "calls", "of machine peak",
                                      "shapes (in -> out)"};
static const char *const cells[2][5] = {
    {"add", "(4, 1)", "1", "12.3% of 49 GB/s", "(3, 4), (4,) -> (3, 4)"},
    {"matmul", "(1, 4) -> (4, 1)", "100", "-", "(2, [1, 2])"}};
static const enum render_col kind[] = {RENDER_COL_TEXT, RENDER_COL_DETAIL, RENDER_COL_NUMBER,
                                       RENDER_COL_WORDS, RENDER_COL_LIST};

static void cell(const void *ctx, size_t row, size_t col, char *buf, size_t n)
{
    (void)ctx;
    snprintf(buf, n, "%s", cells[row][col]);
}

#define ITEM "<span style=\"white-space:nowrap\">"

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)); p += strlen(what)) n++;
    return n;
}

static void test_grid(void)
{
    struct render_buf t, h;
    render_buf_init(&t, 0);
    render_buf_init(&h, 0);
    render_grid(&t, &h, "minitorch-test", 5, headers, kind, 2, cell, NULL);
    /* every column in the text form, two spaces apart, each as wide as its widest cell,
     * numbers right-aligned, the last column not padded */
    CHECK_STR(render_buf_str(&t),
              "op      strides           calls  of machine peak   shapes (in -> out)\n"
              "add     (4, 1)                1  12.3% of 49 GB/s  (3, 4), (4,) -> (3, 4)\n"
              "matmul  (1, 4) -> (4, 1)    100  -                 (2, [1, 2])\n");
    const char *html = render_buf_str(&h);
    CHECK(strncmp(html, "<table class=\"minitorch-test\">", 30) == 0);
    /* four columns in HTML: the op and the calls on one line, the words and the list free to
     * wrap, every header too; every cell padded */
    const char *left_th = "<th style=\"text-align:left;padding",
               *right_th = "<th style=\"text-align:right;padding";
    const char *left_td = "<td style=\"text-align:left;white-space:nowrap;",
               *right_td = "<td style=\"text-align:right;white-space:nowrap;",
               *words_td = "<td style=\"text-align:left;padding";
    CHECK_INT(count(html, "<th "), 4);
    CHECK_INT(count(html, left_th), 3);
    CHECK_INT(count(html, right_th), 1);
    CHECK_INT(count(html, "white-space:nowrap;padding"), 4); /* op and calls: 2 cells each */
    CHECK_INT(count(html, left_td), 2);
    CHECK_INT(count(html, right_td), 2);
    CHECK_INT(count(html, words_td), 4);
    /* the list: its items whole, a space between them where the line may break */
    CHECK(strstr(html,
                 ">" ITEM "(3, 4),</span> " ITEM "(4,)</span> " ITEM "-&gt; (3, 4)</span></td>"));
    CHECK(strstr(html, ">" ITEM "(2, [1, 2])</span></td>")); /* no break inside brackets */
    CHECK(!strstr(html, ">strides</th>"));
    const char *calls = strstr(html, ">calls</th>"), *one = strstr(html, ">1</td>");
    CHECK(calls && strstr(html, right_th) < calls);
    CHECK(one && strstr(strstr(html, "<tbody>"), right_td) < one);
    /* the detail column: a line under each row, across the four columns, kept whole */
    CHECK_INT(count(html, "<td colspan=\"4\""), 2);
    const char *d1 = strstr(html, "<span style=\"white-space:nowrap\">strides (4, 1)</span>");
    const char *d2 = strstr(html, "<span style=\"white-space:nowrap\">strides (1, 4) -&gt; (4, 1)");
    CHECK(d1 && one < d1 && d2 && d1 < strstr(html, ">matmul</td>") &&
          strstr(html, ">matmul</td>") < d2);
    render_buf_free(&t);
    render_buf_free(&h);
}

/* compare()'s table escapes its cells: a spread under one percent reads "<1%" */
static void test_compare_escapes(void)
{
    const struct render_compare_row rows[] = {
        {"simple", "", {"1.00 ms \xc2\xb1 <1%", "3 \xc3\x97 10", "1.00x", "reference"}, ""},
        {"cuda", "no GPU <here>", {"", "", "", ""}, ""}};
    json_t *b = render_compare_table("a & b", rows, 2, "note");
    const char *html = json_string_value(json_object_get(b, "text/html"));
    CHECK(html && strstr(html, "<td>1.00 ms \xc2\xb1 &lt;1%</td>") != NULL);
    CHECK(html && strstr(html, "unavailable: no GPU &lt;here&gt;</td>") != NULL);
    CHECK(html && strstr(html, "<code>a &amp; b</code>") != NULL);
    CHECK(html && !strstr(html, "<1%") && !strstr(html, "<here>"));
    json_decref(b);
}

int main(void)
{
    RUN_TEST(test_grid);
    RUN_TEST(test_compare_escapes);
    return TEST_SUMMARY();
}
