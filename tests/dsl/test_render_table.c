/* test_render_table.c — render_grid, the one layout of the library's tables (%diagnostics and
 * its GPU table): the text form in aligned columns, and the HTML form readable in JupyterLab,
 * whose own style right-aligns every cell and wraps headers: text cells left, numbers right,
 * no cell wrapped, the columns padded apart. */
#include "render/render.h"
#include "test.h"

#include <string.h>

static const char *const headers[] = {"op", "calls", "of machine peak"};
static const char *const cells[2][3] = {{"add", "1", "12.3% of 49 GB/s"}, {"matmul", "100", "-"}};
static const bool right[] = {false, true, false};

static void cell(const void *ctx, size_t row, size_t col, char *buf, size_t n)
{
    (void)ctx;
    snprintf(buf, n, "%s", cells[row][col]);
}

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
    render_grid(&t, &h, "minitorch-test", 3, headers, right, 2, cell, NULL);
    /* columns two spaces apart, each as wide as its widest cell, numbers right-aligned, the
     * last column not padded */
    CHECK_STR(render_buf_str(&t), "op      calls  of machine peak\n"
                                  "add         1  12.3% of 49 GB/s\n"
                                  "matmul    100  -\n");
    const char *html = render_buf_str(&h);
    CHECK(strncmp(html, "<table class=\"minitorch-test\">", 30) == 0);
    /* every header and cell: aligned as its column, never wrapped, padded */
    CHECK_INT(count(html, "white-space:nowrap"), 9);
    CHECK_INT(count(html, "padding:"), 9);
    const char *left_th = "<th style=\"text-align:left;",
               *right_th = "<th style=\"text-align:right;";
    const char *left_td = "<td style=\"text-align:left;",
               *right_td = "<td style=\"text-align:right;";
    CHECK_INT(count(html, left_th), 2);
    CHECK_INT(count(html, right_th), 1);
    CHECK_INT(count(html, left_td), 4);
    CHECK_INT(count(html, right_td), 2);
    const char *calls = strstr(html, ">calls</th>"), *one = strstr(html, ">1</td>");
    CHECK(calls && strstr(html, right_th) < calls);
    CHECK(one && strstr(strstr(html, "<tbody>"), right_td) < one);
    render_buf_free(&t);
    render_buf_free(&h);
}

int main(void)
{
    RUN_TEST(test_grid);
    return TEST_SUMMARY();
}
