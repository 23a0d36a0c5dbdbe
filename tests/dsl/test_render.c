/* test_render.c — the text renderer: buffers, float and string reprs, UTF-8, bundles. */
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

int main(void)
{
    RUN_TEST(test_float_repr);
    RUN_TEST(test_str_repr);
    RUN_TEST(test_buffer);
    RUN_TEST(test_html_escape);
    RUN_TEST(test_utf8);
    return TEST_SUMMARY();
}
