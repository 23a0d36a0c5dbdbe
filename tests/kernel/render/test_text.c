/* test_render.c — the text renderer: buffers, float and string reprs, UTF-8, bundles; and the
 * text/plain and text/html forms of engine tensors, built here with the engine's API (views,
 * empty and one-element tensors, summaries past 1,000 elements, non-finite values, autodiff
 * state). The expected texts are PyTorch's layout worked out by hand. */
#include "minitorch/minitorch.h"
#include "render/render.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>

static const char *frepr(double v)
{
    static char buf[64];
    render_float_repr(v, buf, sizeof buf);
    return buf;
}

static void test_float_repr(void)
{
    CHECK_STR(frepr(0.5), "0.5");
    CHECK_STR(frepr(2.0), "2.0");
    CHECK_STR(frepr(1e20), "1e+20");
    CHECK_STR(frepr(0.1), "0.1");
    CHECK_STR(frepr(INFINITY), "inf");
    CHECK_STR(frepr(-INFINITY), "-inf");
    CHECK_STR(frepr(NAN), "nan");
    CHECK_STR(frepr(-0.0), "-0.0");
    CHECK_STR(frepr(1e16), "1e+16");
    CHECK_STR(frepr(9999999999999998.0), "9999999999999998.0");
    CHECK_STR(frepr(1e-4), "0.0001");
    CHECK_STR(frepr(1e-5), "1e-05");
    CHECK_STR(frepr(-1.5e-10), "-1.5e-10");
    CHECK_STR(frepr(1e100), "1e+100");
    CHECK_STR(frepr(1.2345678901234567e-300), "1.2345678901234568e-300");
    CHECK_STR(frepr(5e-324), "5e-324");
    CHECK_STR(frepr(123.0), "123.0");
    CHECK_STR(frepr(0.3), "0.3");
    CHECK_STR(frepr(1.0 / 3.0), "0.3333333333333333");
    CHECK_STR(frepr(3.4028234663852886e+38), "3.4028234663852886e+38");
    char small[4];
    size_t n = render_float_repr(0.123456, small, sizeof small);
    CHECK_INT(n, 3); /* truncated, still terminated */
    CHECK_STR(small, "0.1");
}

static struct render_buf repr_buf;

static const char *srepr(const char *s)
{
    render_buf_free(&repr_buf);
    render_str_repr(&repr_buf, s, strlen(s));
    return render_buf_str(&repr_buf);
}

static void test_str_repr(void)
{
    CHECK_STR(srepr("abc"), "'abc'");
    CHECK_STR(srepr(""), "''");
    CHECK_STR(srepr("it's"), "\"it's\"");
    CHECK_STR(srepr("'\""), "'\\'\"'");
    CHECK_STR(srepr("a\nb\tc\r\\"), "'a\\nb\\tc\\r\\\\'");
    CHECK_STR(srepr("\x01\x7f"), "'\\x01\\x7f'");
    CHECK_STR(srepr("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"),
              "'\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80'");
    CHECK_STR(srepr("\xc2\xa0\xc2\x85\xe2\x80\xa8"), "'\\xa0\\x85\\u2028'");
    CHECK_STR(srepr("bad\xff"), "'bad\\xff'");
    render_buf_free(&repr_buf);
}

static void test_buffer(void)
{
    struct render_buf b;
    render_buf_init(&b, 10);
    CHECK_INT(render_buf_puts(&b, "12345"), 0);
    CHECK_INT(render_buf_printf(&b, "%d", 678), 0);
    CHECK_STR(render_buf_str(&b), "12345678");
    CHECK_INT(render_buf_puts(&b, "abc"), -1); /* would pass the limit */
    CHECK(b.over);
    CHECK_INT(render_buf_putc(&b, 'x'), -1); /* stays failed */
    CHECK(render_buf_take(&b) == NULL);
    CHECK_INT(b.len, 0);
    render_buf_init(&b, 0);
    char big[1000];
    memset(big, 'q', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    CHECK_INT(render_buf_printf(&b, "<%s>", big), 0);
    CHECK_INT(b.len, 1001);
    char *s = render_buf_take(&b);
    CHECK(s && s[0] == '<' && s[1000] == '>');
    free(s);
    CHECK_STR(render_buf_str(&b), "");
    s = render_buf_take(&b); /* empty buffer gives "" */
    CHECK_STR(s, "");
    free(s);
    render_buf_free(&b);
}

/* render_wrap breaks between words only, within the width, a long word on a line of its own */
static void test_wrap(void)
{
    struct render_buf b;
    render_buf_init(&b, 0);
    const char *t = "one two  three four\u00e9\u00e9 five";
    CHECK_INT(render_wrap(&b, t, strlen(t), 2, 12), 0);
    CHECK_STR(render_buf_str(&b), "  one two\n  three\n  four\u00e9\u00e9\n  five\n");
    render_buf_free(&b);
    t = "abcdefghijklmnop qr";
    render_wrap(&b, t, strlen(t), 0, 8);
    CHECK_STR(render_buf_str(&b), "abcdefghijklmnop\nqr\n");
    render_buf_free(&b);
    render_wrap(&b, "   ", 3, 0, 8);
    CHECK_STR(render_buf_str(&b), "");
    render_buf_free(&b);
}

static void test_html_escape(void)
{
    struct render_buf b;
    render_buf_init(&b, 0);
    const char *in = "<a href=\"x\">Tom & 'Jerry'</a>";
    render_html_escape(&b, in, strlen(in));
    CHECK_STR(render_buf_str(&b),
              "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;");
    render_buf_free(&b);
}

static void test_utf8(void)
{
    CHECK(render_utf8_valid("abc\xc3\xa9", 5));
    CHECK(!render_utf8_valid("\xc3", 1));             /* truncated */
    CHECK(!render_utf8_valid("\xc0\xaf", 2));         /* overlong */
    CHECK(!render_utf8_valid("\xed\xa0\x80", 3));     /* surrogate */
    CHECK(!render_utf8_valid("\xf4\x90\x80\x80", 4)); /* > U+10FFFF */
    CHECK_INT(render_utf8_count("h\xc3\xa9llo\xf0\x9f\x98\x80", 10), 6);
    json_t *j = render_json_string("a\xff"
                                   "b",
                                   3);
    CHECK(j != NULL);
    CHECK_STR(json_string_value(j), "a\xef\xbf\xbd"
                                    "b");
    json_decref(j);
    json_t *bundle = render_text_bundle("x\xc3");
    CHECK(bundle != NULL);
    CHECK_STR(json_string_value(json_object_get(bundle, "text/plain")), "x\xef\xbf\xbd");
    CHECK_INT(json_object_size(bundle), 1);
    json_decref(bundle);
}

/* ---- tensors ------------------------------------------------------------------------------ */

static struct mt_ctx *ctx;

/* A new simple-backend tensor holding data (row-major). */
static struct mt_tensor *make(int ndim, const int64_t *shape, const float *data)
{
    struct mt_tensor *t = NULL;
    CHECK_INT(mt_from_data(ctx, MT_BACKEND_SIMPLE, ndim, shape, data, &t), MT_OK);
    return t;
}

/* The tensor offset + scale * i for i = 0, 1, 2, ... (row-major), of the given shape. */
static struct mt_tensor *arange(int ndim, const int64_t *shape, float offset, float scale)
{
    int64_t n = 1;
    for (int d = 0; d < ndim; d++) n *= shape[d];
    float *data = malloc((size_t)(n ? n : 1) * sizeof *data);
    for (int64_t i = 0; i < n; i++) data[i] = offset + (float)i * scale;
    struct mt_tensor *t = make(ndim, shape, data);
    free(data);
    return t;
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static struct render_buf out;

static const char *text_of(const struct mt_tensor *t)
{
    render_buf_free(&out);
    CHECK_INT(render_tensor_text(&out, t), 0);
    return render_buf_str(&out);
}

static const char *html_of(const struct mt_tensor *t)
{
    render_buf_free(&out);
    CHECK_INT(render_tensor_html(&out, t), 0);
    return render_buf_str(&out);
}

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)); p += strlen(what)) n++;
    return n;
}

static void test_tensor_text(void)
{
    struct mt_tensor *a = make(2, (int64_t[]){2, 2}, (float[]){1, 2, 3, 4});
    CHECK_STR(text_of(a), "tensor([[1., 2.],\n"
                          "        [3., 4.]], shape=(2, 2), backend=simple)");
    struct mt_tensor *one = make(1, (int64_t[]){1}, (float[]){7});
    CHECK_STR(text_of(one), "tensor([7.], shape=(1,), backend=simple)");
    /* empty tensors of any shape keep their shape in the suffix */
    struct mt_tensor *e1 = make(2, (int64_t[]){0, 3}, NULL), *e2 = make(2, (int64_t[]){2, 0}, NULL);
    CHECK_STR(text_of(e1), "tensor([], shape=(0, 3), backend=simple)");
    CHECK_STR(text_of(e2), "tensor([], shape=(2, 0), backend=simple)");
    /* non-finite values do not decide the format and align to the widest */
    struct mt_tensor *nf = make(1, (int64_t[]){4}, (float[]){1, NAN, -INFINITY, 2.5f});
    CHECK_STR(text_of(nf), "tensor([1.0000,    nan,   -inf, 2.5000], shape=(4,), backend=simple)");
    /* integral values switch to scientific notation only past 1e8 (PyTorch's rule) */
    struct mt_tensor *big = make(1, (int64_t[]){2}, (float[]){1e9f, 1});
    CHECK_STR(text_of(big), "tensor([1.0000e+09, 1.0000e+00], shape=(2,), backend=simple)");
    /* requires_grad shows in the suffix */
    CHECK_INT(mt_tensor_requires_grad(one, true), MT_OK);
    CHECK_STR(text_of(one), "tensor([7.], shape=(1,), backend=simple, requires_grad=True)");
    mt_tensor_release(a);
    mt_tensor_release(one);
    mt_tensor_release(e1);
    mt_tensor_release(e2);
    mt_tensor_release(nf);
    mt_tensor_release(big);
}

static void test_tensor_text_views(void)
{
    /* a transposed view reads through its strides */
    struct mt_tensor *a = arange(2, (int64_t[]){2, 3}, 0, 1), *p = NULL, *bc = NULL;
    CHECK_INT(mt_permute(ctx, a, 2, (int64_t[]){1, 0}, &p), MT_OK);
    CHECK_STR(text_of(p), "tensor([[0., 3.],\n"
                          "        [1., 4.],\n"
                          "        [2., 5.]], shape=(3, 2), backend=simple)");
    /* a broadcast view (stride 0): the second row of a repeated */
    CHECK_INT(mt_as_strided(ctx, a, 2, (int64_t[]){2, 3}, (int64_t[]){0, 1}, 3, &bc), MT_OK);
    CHECK_STR(text_of(bc), "tensor([[3., 4., 5.],\n"
                           "        [3., 4., 5.]], shape=(2, 3), backend=simple)");
    mt_tensor_release(a);
    mt_tensor_release(p);
    mt_tensor_release(bc);
}

static void test_tensor_text_summary(void)
{
    /* 1,000 elements are shown whole (numpy's threshold: summarised past it) */
    struct mt_tensor *t = arange(1, (int64_t[]){1000}, 0, 0);
    CHECK_INT(count(text_of(t), "0."), 1000);
    CHECK(strstr(text_of(t), "...") == NULL);
    mt_tensor_release(t);
    /* 1,001: the first and last 3 around " ..."; the suffix wraps past 80 columns */
    t = arange(1, (int64_t[]){1001}, 0, 0.001f);
    CHECK_STR(text_of(t), "tensor([0.0000, 0.0010, 0.0020,  ..., 0.9980, 0.9990, 1.0000], "
                          "shape=(1001,),\n       backend=simple)");
    mt_tensor_release(t);
    /* 3-D, (11, 10, 10) = 1,100: every dim cut, a blank line between 2-D blocks; element
     * (i, j, k) = 1 + (100 i + 10 j + k) / 100 */
    t = arange(3, (int64_t[]){11, 10, 10}, 1, 0.01f);
    const char *s = text_of(t);
    CHECK(starts_with(s,
                      "tensor([[[ 1.0000,  1.0100,  1.0200,  ...,  1.0700,  1.0800,  1.0900],\n"
                      "         [ 1.1000,  1.1100,  1.1200,  ...,  1.1700,  1.1800,  1.1900],\n"
                      "         [ 1.2000,  1.2100,  1.2200,  ...,  1.2700,  1.2800,  1.2900],\n"
                      "         ...,\n"
                      "         [ 1.7000,  1.7100,  1.7200,  ...,  1.7700,  1.7800,  1.7900],\n"));
    CHECK(strstr(s, "1.9900]],\n\n        [[ 2.0000,") != NULL); /* block 0, then 1 */
    CHECK(strstr(s, "3.9900]],\n\n        ...,\n\n        [[ 9.0000,") != NULL); /* 3..7 cut */
    CHECK_INT(count(s, " ..."), 6 * 6 + 6 + 1); /* in each row, in each block, in dim 0 */
    CHECK(strstr(s, "11.9700, 11.9800, 11.9900]]],\n       shape=(11, 10, 10), backend=simple)"));
    mt_tensor_release(t);
}

static void test_tensor_text_limit(void)
{
    /* a buffer limit stops the text with an error, never a partial success */
    struct mt_tensor *t = arange(2, (int64_t[]){30, 30}, 0, 1);
    struct render_buf small;
    render_buf_init(&small, 40);
    CHECK_INT(render_tensor_text(&small, t), -1);
    CHECK(small.over);
    render_buf_free(&small);
    render_buf_init(&small, 40);
    CHECK_INT(render_tensor_html(&small, t), -1);
    render_buf_free(&small);
    mt_tensor_release(t);
}

#define BOX "<div class=\"minitorch-tensor\" style=\"overflow-x:auto\">"
#define TABLE BOX "<table style=\"font-family:monospace;text-align:right;white-space:nowrap\">"
#define PRE "<pre style=\"white-space:pre\">"
#define FOOTER "<div style=\"font-size:smaller;color:#666\">"

static void test_tensor_html(void)
{
    /* 2-D: a header row of column indices, a header column of row indices */
    struct mt_tensor *a = make(2, (int64_t[]){2, 2}, (float[]){1, 2.5f, 3, -4});
    CHECK_STR(html_of(a), TABLE "<tr><th></th><th>0</th><th>1</th></tr>"
                                "<tr><th>0</th><td>1.0000</td><td>2.5000</td></tr>"
                                "<tr><th>1</th><td>3.0000</td><td>-4.0000</td></tr></table>" FOOTER
                                "shape (2, 2) &middot; strides (2, 1) &middot; backend simple "
                                "&middot; requires_grad False</div></div>");
    /* 1-D: one row under the indices */
    struct mt_tensor *one = make(1, (int64_t[]){1}, (float[]){7});
    CHECK(strstr(html_of(one), "<tr><th>0</th></tr><tr><td>7.</td></tr></table>") != NULL);
    /* non-finite values */
    struct mt_tensor *nf = make(1, (int64_t[]){3}, (float[]){NAN, -INFINITY, 1});
    CHECK(strstr(html_of(nf), "<td>nan</td><td>-inf</td><td>1.</td>") != NULL);
    /* a view: its own strides */
    struct mt_tensor *p = NULL;
    CHECK_INT(mt_permute(ctx, a, 2, (int64_t[]){1, 0}, &p), MT_OK);
    CHECK(strstr(html_of(p), "<tr><th>0</th><td>1.0000</td><td>3.0000</td></tr>") != NULL);
    CHECK(strstr(html_of(p), "shape (2, 2) &middot; strides (1, 2)") != NULL);
    /* autodiff state: a leaf, a computed tensor, a gradient present */
    CHECK_INT(mt_tensor_requires_grad(a, true), MT_OK);
    CHECK(strstr(html_of(a), "requires_grad True (leaf)</div></div>") != NULL);
    struct mt_tensor *sq = NULL, *sum = NULL;
    CHECK_INT(mt_mul(ctx, a, a, &sq), MT_OK);
    CHECK(strstr(html_of(sq), "requires_grad True (computed, not a leaf)</div>") != NULL);
    CHECK_INT(mt_sum(ctx, sq, MT_ALL_DIMS, &sum), MT_OK);
    CHECK_INT(mt_backward(ctx, sum, NULL), MT_OK);
    CHECK(strstr(html_of(a), "requires_grad True (leaf) &middot; grad set</div>") != NULL);
    /* empty and 3-D: the text form in <pre> */
    struct mt_tensor *e = make(2, (int64_t[]){0, 3}, NULL);
    CHECK_STR(html_of(e),
              BOX PRE "tensor([], shape=(0, 3), "
                      "backend=simple)</pre>" FOOTER "shape (0, 3) &middot; strides (3, 1) "
                      "&middot; backend simple &middot; requires_grad False</div></div>");
    struct mt_tensor *cube = arange(3, (int64_t[]){2, 1, 2}, 0, 1);
    CHECK(strstr(html_of(cube), PRE "tensor([[[0., 1.]],\n\n        [[2., "
                                    "3.]]], shape=(2, 1, 2), backend=simple)</pre>") != NULL);
    CHECK(strstr(html_of(cube), "<table") == NULL);
    mt_tensor_release(a);
    mt_tensor_release(one);
    mt_tensor_release(nf);
    mt_tensor_release(p);
    mt_tensor_release(sq);
    mt_tensor_release(sum);
    mt_tensor_release(e);
    mt_tensor_release(cube);
}

static void test_tensor_html_summary(void)
{
    /* 1,000 elements are shown whole, as in the text form: 20 x 50, 50 columns wide (the box
     * scrolls) */
    struct mt_tensor *t = arange(2, (int64_t[]){20, 50}, 0, 1);
    const char *h = html_of(t);
    CHECK_INT(count(h, "<tr>"), 21);
    CHECK_INT(count(h, "<td>"), 1000);
    CHECK(strstr(h, "&hellip;") == NULL && strstr(h, "&#8942;") == NULL);
    mt_tensor_release(t);
    /* 40 x 30 (past 1,000): rows 0-2 and 37-39 around a row of vertical ellipses, columns 0-2
     * and 27-29 around a column of ellipses, where the text form has "..."; element (i, j) =
     * 100 + 30 i + j */
    t = arange(2, (int64_t[]){40, 30}, 100, 1);
    h = html_of(t);
    CHECK_INT(count(h, "<tr>"), 1 + 3 + 1 + 3);
    CHECK_INT(count(h, "<td>&hellip;</td>"), 6);
    CHECK_INT(count(h, "<td>&#8942;</td>"), 6);
    CHECK_INT(count(h, "&#8945;"), 1);
    CHECK(strstr(h, "<th></th><th>0</th><th>1</th><th>2</th><th>&hellip;</th><th>27</th>"
                    "<th>28</th><th>29</th></tr>") != NULL);
    CHECK(strstr(h, "<th>3</th>") == NULL && strstr(h, "<th>36</th>") == NULL);
    CHECK(strstr(h, "<tr><th>2</th><td>160.</td><td>161.</td><td>162.</td>"
                    "<td>&hellip;</td><td>187.</td><td>188.</td><td>189.</td></tr>"
                    "<tr><th>&#8942;</th><td>&#8942;</td>") != NULL);
    CHECK(strstr(h, "</tr><tr><th>37</th><td>1210.</td>") != NULL);
    CHECK(strstr(h, "<td>1299.</td></tr></table>") != NULL);
    CHECK(strstr(h, "shape (40, 30) &middot; strides (30, 1)") != NULL);
    /* the text form leaves out the same entries: 160, 161, 162, ..., 187, 188, 189 */
    CHECK(strstr(text_of(t), "[ 160.,  161.,  162.,  ...,  187.,  188.,  189.],\n        ...,\n"
                             "        [1210.,") != NULL);
    mt_tensor_release(t);
    /* 1-D past 1,000: entries 0-2 and 998-1000 */
    t = arange(1, (int64_t[]){1001}, 0, 1);
    h = html_of(t);
    CHECK(strstr(h, "<th>2</th><th>&hellip;</th><th>998</th>") != NULL);
    CHECK(strstr(h, "<td>2.</td><td>&hellip;</td><td>998.</td>") != NULL);
    CHECK_INT(count(h, "<tr>"), 2);
    mt_tensor_release(t);
    /* a huge one reads only what it shows and stays small */
    t = NULL;
    CHECK_INT(mt_zeros(ctx, MT_BACKEND_SIMPLE, 2, (int64_t[]){2000, 3000}, &t), MT_OK);
    h = html_of(t);
    CHECK(strlen(h) < 2000);
    CHECK_INT(count(h, "<td>0.</td>"), 36);
    mt_tensor_release(t);
}

/* set_printoptions' settings reach both forms alike */
static void test_print_options(void)
{
    const struct render_print_options dflt = RENDER_PRINT_DEFAULTS;
    struct render_print_options o = dflt;
    struct mt_tensor *t = arange(2, (int64_t[]){5, 4}, 0, 0.5f);
    /* threshold 10, 1 edge item, 2 decimals: rows 0 and 4, columns 0 and 3 */
    o.threshold = 10;
    o.edgeitems = 1;
    o.precision = 2;
    render_set_print_options(&o);
    CHECK_STR(text_of(t), "tensor([[0.00,  ..., 1.50],\n        ...,\n        [8.00,  ..., 9.50]], "
                          "shape=(5, 4), backend=simple)");
    const char *h = html_of(t);
    CHECK(strstr(h,
                 "<th></th><th>0</th><th>&hellip;</th><th>3</th></tr>"
                 "<tr><th>0</th><td>0.00</td><td>&hellip;</td><td>1.50</td></tr>"
                 "<tr><th>&#8942;</th><td>&#8942;</td><td>&#8945;</td><td>&#8942;</td></tr>"
                 "<tr><th>4</th><td>8.00</td><td>&hellip;</td><td>9.50</td></tr></table>") != NULL);
    /* scientific notation forced on; a line width of 30 */
    o = dflt;
    o.sci_mode = 1;
    o.linewidth = 30;
    render_set_print_options(&o);
    struct mt_tensor *v = make(1, (int64_t[]){3}, (float[]){1.5f, 2, -3});
    CHECK_STR(text_of(v), "tensor([ 1.5000e+00,\n         2.0000e+00,\n        -3.0000e+00],\n"
                          "       shape=(3,),\n       backend=simple)");
    CHECK(strstr(html_of(v), "<td>1.5000e+00</td><td>2.0000e+00</td><td>-3.0000e+00</td>") != NULL);
    /* and off: fixed even where the magnitudes would ask for scientific */
    o.sci_mode = 0;
    o.linewidth = 80;
    render_set_print_options(&o);
    struct mt_tensor *w = make(1, (int64_t[]){2}, (float[]){0.001f, 1000});
    CHECK_STR(text_of(w), "tensor([   0.0010, 1000.0000], shape=(2,), backend=simple)");
    render_set_print_options(&dflt);
    CHECK_STR(text_of(w), "tensor([1.0000e-03, 1.0000e+03], shape=(2,), backend=simple)");
    mt_tensor_release(t);
    mt_tensor_release(v);
    mt_tensor_release(w);
}

int main(void)
{
    RUN_TEST(test_float_repr);
    RUN_TEST(test_str_repr);
    RUN_TEST(test_buffer);
    RUN_TEST(test_html_escape);
    RUN_TEST(test_wrap);
    RUN_TEST(test_utf8);
    ctx = mt_ctx_new();
    RUN_TEST(test_tensor_text);
    RUN_TEST(test_tensor_text_views);
    RUN_TEST(test_tensor_text_summary);
    RUN_TEST(test_tensor_text_limit);
    RUN_TEST(test_tensor_html);
    RUN_TEST(test_tensor_html_summary);
    RUN_TEST(test_print_options);
    render_buf_free(&out);
    mt_ctx_free(ctx);
    return TEST_SUMMARY();
}
