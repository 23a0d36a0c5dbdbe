/* test_limits.c — limits with a clear error (or note) and the session alive: output per cell,
 * string and list size, tensor memory in a loop that allocates without end. */
#include "kernel/dsl_helpers.h"
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

/* The memory strings, lists, tuples and dicts hold, all together: each value below its own
 * limit, a loop that makes them without end takes the machine's memory unless the session
 * counts them. Past the limit: a MemoryError naming it and how to change it, the session alive,
 * the memory counted back when the values go. */
static void test_value_memory(void)
{
    struct dsl_session *s = dsl_session_new();
    /* by default half the tensors' limit, which is half of physical memory */
    CHECK(dsl_mem_limit() == mt_ctx_mem_limit(s->ctx) / 2);
    CHECK(dsl_mem_limit_is_default());
    const size_t base = dsl_mem_used();
    CHECK_INT(run_cell(s, "%memory values 64MiB").rc, 0);
    CHECK_INT((long)dsl_mem_limit(), 64L << 20);
    /* each loop, then what it kept (checked, then let go) */
    const char *loops[][3] = {
        /* many strings, each far below 64 MiB of a string */
        {"xs = []\nwhile true:\n    xs.append('x' * 1000000)", "len(xs) > 50", "del xs"},
        /* a comprehension that grows without end: its partial list is freed */
        {"l = [[0] * 100 for i in range(1000000)]", "True", ""},
        /* a dict that grows without end */
        {"d = {}\ni = 0\nwhile true:\n    d[i] = i\n    i += 1", "len(d) > 100000", "del d"},
        /* doubling a string, under a limit below a string's own */
        {"%memory values 16MiB\nt = 'y'\nwhile true:\n    t = t + t", "len(t) >= 2 ** 22",
         "del t\n%memory values 64MiB"},
        /* small strings into a list: they reach the limit too */
        {"ys = []\nwhile true:\n    ys.append(str(len(ys)) * 100)", "len(ys) > 100000", "del ys"},
    };
    for (size_t i = 0; i < sizeof loops / sizeof loops[0]; i++) {
        struct outcome o = run_cell(s, loops[i][0]);
        CHECK_STR(o.ename, "MemoryError");
        CHECK(strstr(o.evalue, "would pass the memory limit of the session's strings, lists, "
                               "tuples and dicts") != NULL);
        CHECK(strstr(o.evalue, "%memory values SIZE") != NULL);
        if (!strstr(o.evalue, "%memory")) fprintf(stderr, "  %s: %s\n", loops[i][0], o.evalue);
        CHECK(dsl_mem_used() <= dsl_mem_limit() + DSL_MEM_RESERVE);
        CHECK_STR(run_cell(s, loops[i][1]).result, "True"); /* the session lives on */
        CHECK_INT(run_cell(s, loops[i][2]).rc, 0);
        CHECK_INT((long)dsl_mem_used(), (long)base);
    }
    /* a MemoryError at the limit can be caught, shown, and its args read */
    struct outcome o = run_cell(s, "zs = []\ntry:\n    while true:\n        zs.append('z' * 3000)\n"
                                   "except MemoryError as e:\n    m = str(e)\n    n = len(e.args)\n"
                                   "n == 1 and 'limit' in m");
    CHECK_STR(o.result, "True");
    /* the values gone, their memory is counted back to what it was */
    CHECK_INT(run_cell(s, "%reset -f").rc, 0);
    CHECK_INT((long)dsl_mem_used(), (long)base);
    CHECK_STR(run_cell(s, "len(['x' * 1000000 for i in range(10)])").result, "10");
    /* `default` is half the tensors' limit again, and follows it */
    CHECK_INT(run_cell(s, "%memory values default\n%memory tensors 1GiB").rc, 0);
    CHECK_INT((long)dsl_mem_limit(), 512L << 20);
    CHECK_STR(run_cell(s, "%memory values 10 parsecs").ename, "UsageError");
    CHECK_STR(run_cell(s, "%memory values 10parsecs").ename, "ValueError");
    CHECK_INT(run_cell(s, "%memory tensors default").rc, 0);
    dsl_session_free(s);
    CHECK_INT((long)dsl_mem_used(), (long)base);
}

/* Every kind of value made and let go, through the paths that grow and shrink them (a string
 * extended in place, a list grown and sliced, a dict grown, emptied and compacted, exceptions
 * with their messages, keys()/items() lists, f-strings, comprehensions): the account is back
 * where it was, byte for byte, when they are gone. */
static void test_value_memory_balance(void)
{
    struct dsl_session *s = dsl_session_new();
    const size_t base = dsl_mem_used();
    const char *code =
        "s = ''\nfor i in range(1000):\n    s += str(i)\n"
        "l = list(range(5000))\nl[10:20] = ['a'] * 50\ndel l[0]\nl2 = l[::3] + l[1:5] * 3\n"
        "t = tuple(l2)\nd = {}\nfor i in range(3000):\n    d[str(i)] = [i]\n"
        "for i in range(2900):\n    del d[str(i)]\nfor i in range(100):\n    d[i] = (i, str(i))\n"
        "k = d.keys()\nit = d.items()\nd2 = {k: v for k, v in d.items()}\nd2.clear()\n"
        "f = f'{s[:10]!r:>20} {l2[3]}' + '{} {}'.format(t[1], d)\n"
        "try:\n    {}['missing']\nexcept KeyError as e:\n    m = str(e)\n"
        "try:\n    [][3]\nexcept IndexError as e:\n    m2 = repr(e)\n"
        "sorted_l = sorted([str(x) for x in range(100)], reverse=True)\n"
        "z = list(zip(l2, sorted_l))\nw = ' '.join if false else None\n"
        "def g(*a, **k):\n    return a, k\nr = g(1, 2, x=3)\n";
    struct outcome o = run_cell(s, code);
    CHECK_INT(o.rc, 0);
    if (o.rc) fprintf(stderr, "  %s: %s\n", o.ename, o.evalue);
    CHECK(dsl_mem_used() > base + 10000);
    CHECK_INT(run_cell(s, "%reset -f").rc, 0);
    CHECK_INT((long)dsl_mem_used(), (long)base);
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
    RUN_TEST(test_value_memory);
    RUN_TEST(test_value_memory_balance);
    return TEST_SUMMARY();
}
