/* test_limits.c — limits with a clear error (or note) and the session alive: output per cell,
 * string and list size, tensor memory in a loop that allocates without end. */
#include "dsl_helpers.h"
#include "test.h"

#include "lang/interp.h"

#include "minitorch/minitorch.h"

static size_t out_bytes, err_bytes;
static int notes;
static void count_stream(void *ctx, const char *name, const char *text)
{
    (void)ctx;
    if (strcmp(name, "stdout") == 0)
        out_bytes += strlen(text);
    else {
        err_bytes += strlen(text);
        notes += strstr(text, "[output truncated: this cell wrote more than 10 MiB") != NULL;
    }
}

static void test_output_per_cell(void)
{
    struct dsl_session *s = dsl_session_new();
    struct dsl_output out = {.stream = count_stream};
    struct dsl_error err = {0};
    json_t *res = NULL;
    /* 12,000 lines of 1,001 bytes: 12 MB asked, 10 MiB shown, one note, the cell completes */
    CHECK_INT(dsl_execute(s, "s = \"x\" * 1000\nfor i in range(12000):\n    print(s)\ndone = 1",
                          &out, &res, &err),
              0);
    CHECK_INT((long)out_bytes, (long)DSL_MAX_CELL_OUTPUT);
    CHECK_INT(notes, 1);
    CHECK_STR(run_cell(s, "done").result, "1");
    /* the next cell has its own allowance */
    out_bytes = 0;
    CHECK_INT(dsl_execute(s, "print('again')", &out, &res, &err), 0);
    CHECK_INT((long)out_bytes, 6);
    dsl_session_free(s);
}

static void test_sizes(void)
{
    /* the size asked for is in the message, and nothing that size is allocated (a 10 GB malloc
     * would fail or, worse, succeed lazily) */
    CHECK_STR(eval1("s = 'x' * 10000000000"), "<MemoryError: cannot make a string of 10000000000 "
                                              "bytes: strings are limited to 64 MiB>");
    CHECK_STR(eval1("s = 'ab' * 5000000000"), "<MemoryError: cannot make a string of 10000000000 "
                                              "bytes: strings are limited to 64 MiB>");
    CHECK_STR(eval1("s = [0, 0] * 10000000000"),
              "<MemoryError: cannot make a list of 20000000000 items: lists are limited to "
              "4194304 items>");
    /* repeated concatenation stops at the limit; the string built so far is kept */
    struct dsl_session *s = dsl_session_new();
    struct outcome o = run_cell(s, "s = 'x' * 1048576\nwhile true:\n    s += s");
    CHECK_STR(o.evalue, "cannot make a string of 134217728 bytes: strings are limited to 64 MiB");
    CHECK_STR(run_cell(s, "len(s)").result, "67108864");
    o = run_cell(s, "t = s + 'y'");
    CHECK_STR(o.evalue, "cannot make a string of 67108865 bytes: strings are limited to 64 MiB");
    dsl_session_free(s);
    s = dsl_session_new();
    mt_ctx_set_mem_limit(s->ctx, (size_t)64 << 20);
    o = run_cell(s, "xs = []\nwhile true:\n    xs += [zeros(1000, 1000)]");
    CHECK_STR(o.ename, "MemoryError");
    CHECK(strstr(o.evalue, "over the memory limit") != NULL);
    /* the session lives on, with what it made before the error */
    o = run_cell(s, "len(xs)");
    CHECK(o.rc == 0 && atoi(o.result) >= 10);
    o = run_cell(s, "xs = []\n1 + 1");
    CHECK_STR(o.result, "2");
    CHECK_INT((long)mt_ctx_mem_used(s->ctx), 0);
    dsl_session_free(s);
}

/* A cell's result is cut at 10 MiB of text with a note (the language fuzzer found a 64 MiB
 * string whose repr took ten seconds and would have been sent whole) */
static void test_result_cut(void)
{
    struct dsl_session *s = dsl_session_new();
    struct outcome o = run_cell(s, "' f ' * 8 ** 8");
    CHECK_INT(o.rc, 0);
    const char *note = "\n... (cut: a value's text is shown up to 10 MiB)";
    size_t len = strlen(o.result); /* run_cell keeps the first 16 KiB of it */
    CHECK(len > 1000 && strncmp(o.result, "' f  f  f ", 10) == 0);
    struct sink k;
    memset(&k, 0, sizeof k);
    json_t *res = NULL;
    struct dsl_error err = {0};
    struct dsl_output out = sink_output(&k);
    CHECK_INT(dsl_execute(s, "'ab' * 6000000", &out, &res, &err), 0);
    const char *text = json_string_value(json_object_get(res, "text/plain"));
    CHECK(text && strlen(text) == DSL_MAX_REPR_BYTES + strlen(note));
    CHECK(text && strcmp(text + DSL_MAX_REPR_BYTES, note) == 0);
    json_decref(res);
    /* a value below the limit is shown whole */
    CHECK_STR(run_cell(s, "len(repr('x' * 1000000))").result, "1000002");
    dsl_session_free(s);
}

int main(void)
{
    RUN_TEST(test_output_per_cell);
    RUN_TEST(test_sizes);
    RUN_TEST(test_result_cut);
    return TEST_SUMMARY();
}
