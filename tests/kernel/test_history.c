/* test_history.c — the in-memory history (kernel/jupyter/history.c): entries kept oldest first
 * up to the cap, the oldest dropped past it (with the chunks that held their text), inputs of
 * any length (longer than a chunk too), and tail/range/search answering from what is kept. */
#include "jupyter/jupyter.h"
#include "test.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* input i: "cell i" padded to a length that varies, sometimes past 64 KiB */
static char *input_of(long i)
{
    size_t pad = (size_t)(i % 7 == 0 ? 70000 : (i * 37) % 300);
    char *s = malloc(pad + 32);
    if (!s) abort();
    int n = snprintf(s, 32, "cell %ld ", i);
    memset(s + n, 'x', pad);
    s[(size_t)n + pad] = '\0';
    return s;
}

static json_t *query(struct jp_history *h, const char *json)
{
    json_t *req = json_loads(json, 0, NULL);
    json_t *out = jp_history_query(h, req);
    json_decref(req);
    return out;
}

static void test_cap_and_order(void)
{
    struct jp_history *h = jp_history_new(500);
    const long total = 20000;
    for (long i = 1; i <= total; i++) {
        char *s = input_of(i);
        CHECK_INT(jp_history_append(h, i, s), 0);
        free(s);
    }
    json_t *all = query(h, "{\"hist_access_type\": \"tail\", \"n\": 100000}");
    CHECK_INT(json_array_size(all), 500);
    int bad = 0;
    for (size_t k = 0; k < json_array_size(all); k++) {
        long line = total - 500 + 1 + (long)k;
        json_t *e = json_array_get(all, k);
        char *want = input_of(line);
        bad += json_integer_value(json_array_get(e, 1)) != line ||
               strcmp(json_string_value(json_array_get(e, 2)), want) != 0;
        free(want);
    }
    CHECK_INT(bad, 0);
    json_decref(all);
    json_t *r = query(h, "{\"hist_access_type\": \"range\", \"start\": 19990, \"stop\": 19993}");
    CHECK_INT(json_array_size(r), 3);
    json_decref(r);
    r = query(h, "{\"hist_access_type\": \"search\", \"pattern\": \"cell 1999?*\", \"n\": 2}");
    CHECK_INT(json_array_size(r), 2);
    CHECK(r && strncmp(json_string_value(json_array_get(json_array_get(r, 1), 2)), "cell 19999 ",
                       11) == 0);
    json_decref(r);
    jp_history_free(h);
}

static void test_cap_of_one(void)
{
    struct jp_history *h = jp_history_new(1);
    CHECK_INT(jp_history_append(h, 1, "a"), 0);
    CHECK_INT(jp_history_append(h, 2, "bb"), 0);
    CHECK_INT(jp_history_append(h, 3, "ccc"), 0);
    json_t *r = query(h, "{\"hist_access_type\": \"tail\", \"n\": 10}");
    CHECK_INT(json_array_size(r), 1);
    CHECK_STR(json_string_value(json_array_get(json_array_get(r, 0), 2)), "ccc");
    json_decref(r);
    jp_history_free(h);
}

int main(void)
{
    RUN_TEST(test_cap_and_order);
    RUN_TEST(test_cap_of_one);
    return TEST_SUMMARY();
}
