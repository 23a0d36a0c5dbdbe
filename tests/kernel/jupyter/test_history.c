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
    struct jp_history *h = jp_history_new(500, (size_t)64 << 20);
    const long total = 20000;
    for (long i = 1; i <= total; i++) {
        char *s = input_of(i);
        CHECK_INT(jp_history_append(h, i, s, strlen(s)), 0);
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
    struct jp_history *h = jp_history_new(1, (size_t)64 << 20);
    CHECK_INT(jp_history_append(h, 1, "a", 1), 0);
    CHECK_INT(jp_history_append(h, 2, "bb", 2), 0);
    CHECK_INT(jp_history_append(h, 3, "ccc", 3), 0);
    json_t *r = query(h, "{\"hist_access_type\": \"tail\", \"n\": 10}");
    CHECK_INT(json_array_size(r), 1);
    CHECK_STR(json_string_value(json_array_get(json_array_get(r, 0), 2)), "ccc");
    json_decref(r);
    jp_history_free(h);
}

/* The memory bound: inputs of 900 kB each under an 8 MiB bound keep the newest that fit, the
 * memory held stays under the bound, and clearing frees it all (issue 23: 8 cells of 40 MB
 * kept 330 MB, and %reset did not free them). */
static void test_byte_bound_and_clear(void)
{
    const size_t bound = (size_t)8 << 20, len = 900000;
    struct jp_history *h = jp_history_new(10000, bound);
    char *big = malloc(len);
    for (long i = 1; i <= 40; i++) {
        memset(big, 'a' + (int)(i % 26), len);
        CHECK_INT(jp_history_append(h, i, big, len), 0);
        CHECK(jp_history_bytes(h) <= bound);
    }
    json_t *r = query(h, "{\"hist_access_type\": \"tail\", \"n\": 1000}");
    size_t kept = json_array_size(r);
    CHECK(kept >= 7 && kept <= 9);
    CHECK_INT(json_integer_value(json_array_get(json_array_get(r, kept - 1), 1)), 40);
    CHECK_INT(json_string_length(json_array_get(json_array_get(r, kept - 1), 2)), len);
    json_decref(r);
    jp_history_clear(h);
    CHECK_INT(jp_history_bytes(h), 0);
    r = query(h, "{\"hist_access_type\": \"tail\", \"n\": 10}");
    CHECK_INT(json_array_size(r), 0);
    json_decref(r);
    free(big);
    jp_history_free(h);
}

/* An input over JP_HISTORY_MAX_INPUT is kept cut at a UTF-8 boundary with a note; one holding
 * NUL comes back whole. */
static void test_long_input_and_nul(void)
{
    struct jp_history *h = jp_history_new(100, (size_t)64 << 20);
    size_t len = JP_HISTORY_MAX_INPUT + 10;
    char *big = malloc(len);
    for (size_t i = 0; i < len; i += 2) memcpy(big + i, "\xc3\xa9", 2); /* é */
    CHECK_INT(jp_history_append(h, 1, big, len), 0);
    CHECK_INT(jp_history_append(h, 2, "a\0b", 3), 0);
    json_t *r = query(h, "{\"hist_access_type\": \"tail\", \"n\": 10}");
    json_t *kept = json_array_get(json_array_get(r, 0), 2);
    CHECK(kept != NULL); /* json_stringn refuses invalid UTF-8: the cut is at a boundary */
    CHECK(kept && json_string_length(kept) < JP_HISTORY_MAX_INPUT + 200);
    CHECK(kept && strstr(json_string_value(kept), "only its first") != NULL);
    json_t *nul = json_array_get(json_array_get(r, 1), 2);
    CHECK_INT(json_string_length(nul), 3);
    CHECK(nul && memcmp(json_string_value(nul), "a\0b", 3) == 0);
    json_decref(r);
    free(big);
    jp_history_free(h);
}

int main(void)
{
    RUN_TEST(test_byte_bound_and_clear);
    RUN_TEST(test_long_input_and_nul);
    RUN_TEST(test_cap_and_order);
    RUN_TEST(test_cap_of_one);
    return TEST_SUMMARY();
}
