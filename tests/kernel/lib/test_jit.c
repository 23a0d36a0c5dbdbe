/* test_jit.c — where njit's compiled code comes from: the cache folder (made when missing,
 * reused by a later session without compiling again), the two builds (tcc's for the first
 * call, gcc's from the next; gcc alone for loop nests, without tcc, or when told), and a
 * machine without a C compiler (the function then runs in the interpreter, with the same
 * result, and the diagnostics say why). The language-level behaviour is in tests/scripts/njit.mt;
 * both builds against the interpreter in tests/differential/test_njit_programs.py. */
#include "kernel/dsl_helpers.h"
#include "test.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define KERNEL_SRC                                                                                 \
    "from numba import njit, prange\n"                                                             \
    "@njit(parallel=True)\n"                                                                       \
    "def scale(out, k):\n"                                                                         \
    "    for i in prange(len(out)):\n"                                                             \
    "        out[i] = out[i] * k + i // 2\n"                                                       \
    "t = ones(5)\n"                                                                                \
    "scale(t._tensor._storage, 3)\n"                                                               \
    "t.tolist()\n"

/* Files in dir whose name ends in suffix. */
static int count_files(const char *dir, const char *suffix)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name), sl = strlen(suffix);
        n += len > sl && strcmp(e->d_name + len - sl, suffix) == 0;
    }
    closedir(d);
    return n;
}

static void remove_tree(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
}

static void test_cache_folder(void)
{
    char root[] = "/tmp/mt-jit-test-XXXXXX";
    CHECK(mkdtemp(root) != NULL);
    setenv("XDG_CACHE_HOME", root, 1);
    unsetenv("MT_CC");
    char dir[600];
    snprintf(dir, sizeof dir, "%s/minitorch-kernel/jit", root);

    struct dsl_session *s = dsl_session_new();
    CHECK_STR(run_cell(s, KERNEL_SRC).result, "[3.0, 3.0, 4.0, 4.0, 5.0]");
    dsl_session_free(s);
    /* the folder was made, with the C and the compiled object */
    CHECK_INT(count_files(dir, ".so"), 1);
    CHECK_INT(count_files(dir, ".c"), 1);

    /* a new session (a restarted kernel) loads it: even without a compiler it runs compiled */
    setenv("MT_CC", "/nonexistent/cc", 1);
    s = dsl_session_new();
    struct sink k = {0};
    CHECK_STR(run_cell_with(s, KERNEL_SRC "parallel_diagnostics(scale)\n", &k).result, "");
    CHECK(strstr(k.log, "scale(Storage, int): compiled to native code") != NULL);
    dsl_session_free(s);
    CHECK_INT(count_files(dir, ".so"), 1);
    unsetenv("MT_CC");
    unsetenv("XDG_CACHE_HOME");
    remove_tree(root);
}

/* A scale kernel and a matrix-vector product (loops two deep in its prange body), each
 * called twice with different arguments; then their diagnostics. */
#define TWO_CALLS                                                                                  \
    KERNEL_SRC                                                                                     \
    "scale(t._tensor._storage, 2)\n"                                                               \
    "@njit(parallel=True)\n"                                                                       \
    "def mv(out, a, x, n):\n"                                                                      \
    "    for i in prange(n):\n"                                                                    \
    "        acc = 0.0\n"                                                                          \
    "        for r in range(2):\n"                                                                 \
    "            for j in range(n):\n"                                                             \
    "                acc += a[i * n + j] * x[j]\n"                                                 \
    "        out[i] = acc\n"                                                                       \
    "a = ones(9)\n"                                                                                \
    "x = ones(3)\n"                                                                                \
    "o = zeros(3)\n"                                                                               \
    "mv(o._tensor._storage, a._tensor._storage, x._tensor._storage, 3)\n"                          \
    "mv(o._tensor._storage, a._tensor._storage, x._tensor._storage, 2)\n"                          \
    "print(t.tolist(), o.tolist())\n"                                                              \
    "parallel_diagnostics(scale)\n"                                                                \
    "parallel_diagnostics(mv)\n"

/* Runs TWO_CALLS in a fresh session with an empty cache, MT_CC and MT_JIT_QUICK as given (NULL:
 * unset); its output in k. */
static void run_two_calls(const char *cc, const char *quick, struct sink *k)
{
    char root[] = "/tmp/mt-jit-test-XXXXXX";
    CHECK(mkdtemp(root) != NULL);
    setenv("XDG_CACHE_HOME", root, 1);
    if (cc) setenv("MT_CC", cc, 1);
    if (quick) setenv("MT_JIT_QUICK", quick, 1);
    struct dsl_session *s = dsl_session_new();
    memset(k, 0, sizeof *k);
    CHECK_STR(run_cell_with(s, TWO_CALLS, k).result, "");
    /* 5 ones scaled by 3, then by 2, plus i // 2 each time; rows of 3 ones, twice over 3 then
     * over 2 columns */
    CHECK(strstr(k->log, "[6.0, 6.0, 9.0, 9.0, 12.0] [4.0, 4.0, 6.0]") != NULL);
    dsl_session_free(s);
    unsetenv("MT_CC");
    unsetenv("MT_JIT_QUICK");
    unsetenv("XDG_CACHE_HOME");
    remove_tree(root);
}

static const char quick_line[] = "its first call ran a build tcc made in milliseconds, on one "
                                 "thread, while gcc -O2 compiled this one";

static void test_two_builds(void)
{
    struct sink k;
    run_two_calls(NULL, NULL, &k);
    /* scale's first call ran tcc's build; mv, a loop nest, waited for gcc's */
    const char *mv = strstr(k.log, "mv(Storage, Storage, Storage, int)");
    CHECK(mv != NULL);
    const char *q = strstr(k.log, quick_line);
    CHECK(q != NULL && mv && q < mv);
    CHECK(mv && strstr(mv, "tcc") == NULL);
    CHECK(strstr(k.log, "last call:") != NULL);
    /* gcc's machine code, read for both: mv's loop over j does float work per element */
    const char *mc = "machine code (gcc's, read by objdump), instructions in its loops over "
                     "elements: ";
    const char *m1 = strstr(k.log, mc), *m2 = mv ? strstr(mv, mc) : NULL;
    CHECK(m1 && m1 < mv && m2);
    CHECK(m2 && strstr(m2, " per element") != NULL);
}

static void test_recent(void)
{
    struct dsl_session *s = dsl_session_new();
    struct sink k = {0};
    /* none yet */
    CHECK_STR(run_cell_with(s, "from numba import njit\nparallel_diagnostics()", &k).result, "");
    CHECK(strstr(k.log, "no function given to njit has run compiled code in this cell") != NULL);
    /* scale, then mv: without a function, both, the latest first */
    memset(&k, 0, sizeof k);
    CHECK_STR(run_cell_with(s, TWO_CALLS "parallel_diagnostics()\n", &k).result, "");
    const char *all = strstr(k.log, "mv(Storage, Storage, Storage, int)");
    all = all ? strstr(all + 1, "mv(Storage, Storage, Storage, int)") : NULL;
    CHECK(all && strstr(all, "scale(Storage, int)") != NULL);
    /* the next cell ran none */
    memset(&k, 0, sizeof k);
    CHECK_STR(run_cell_with(s, "parallel_diagnostics()", &k).result, "");
    CHECK(strstr(k.log, "no function given to njit has run compiled code in this cell") != NULL);
    dsl_session_free(s);
}

static void test_one_build(void)
{
    struct sink k;
    /* told: gcc only */
    run_two_calls(NULL, "0", &k);
    CHECK(strstr(k.log, "tcc") == NULL);
    /* no quick compiler on the machine: gcc only, as well */
    run_two_calls(NULL, "/nonexistent/tcc", &k);
    CHECK(strstr(k.log, "tcc") == NULL);
    CHECK(strstr(k.log, "scale(Storage, int): compiled to native code") != NULL);
}

static void test_gcc_fails(void)
{
    /* gcc's build fails where tcc's did not: scale keeps running tcc's, and says why; mv,
     * which waits for gcc, runs in the interpreter */
    struct sink k;
    run_two_calls("false", NULL, &k);
    CHECK(strstr(k.log, "runs tcc's quick build, on one thread: the C compiler failed") != NULL);
    CHECK(strstr(k.log, "mv(Storage, Storage, Storage, int): runs in the interpreter: the C "
                        "compiler failed") != NULL);
}

/* Where tcc is the only compiler, a prange loop whose accesses are recorded at run time (they
 * wait for gcc elsewhere, whose atomics tcc lacks) is tcc's build, on its one thread: the
 * records need no atomics there, and the race is found as gcc's build finds it. */
static void test_tcc_records(void)
{
    char root[] = "/tmp/mt-jit-test-XXXXXX";
    CHECK(mkdtemp(root) != NULL);
    setenv("XDG_CACHE_HOME", root, 1);
    setenv("MT_CC", "tcc", 1);
    struct dsl_session *s = dsl_session_new();
    struct sink k = {0};
    CHECK_STR(run_cell_with(s,
                            "import minitorch\n"
                            "from numba import njit, prange\n"
                            "@njit(parallel=True)\n"
                            "def shift(x, n):\n"
                            "    for i in prange(n):\n"
                            "        x[i] = x[(i + 1) % n] + 1.0\n"
                            "try:\n"
                            "    shift(minitorch.zeros((8,))._tensor._storage, 6)\n"
                            "except RuntimeError as e:\n"
                            "    print(e)\n"
                            "parallel_diagnostics(shift)\n",
                            &k)
                  .result,
              "");
    /* iteration 0 reads x[1] first, iteration 1 then writes it */
    CHECK(strstr(k.log, "iterations 0 and 1 of the prange loop both reach x[1], one writing it, "
                        "the other reading it (compiled shift())") != NULL);
    CHECK(strstr(k.log, "shift(Storage, int): compiled to native code") != NULL);
    dsl_session_free(s);
    unsetenv("MT_CC");
    unsetenv("XDG_CACHE_HOME");
    remove_tree(root);
}

/* A program (tool, in dir: cc or ld) that appends its command line to log (tool.log in dir),
 * then runs the tool of that name. */
static void logging_tool(const char *dir, const char *tool, char path[64], char log[64])
{
    snprintf(path, 64, "%s/%s", dir, tool);
    snprintf(log, 64, "%s/%s.log", dir, tool);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fprintf(f, "#!/bin/sh\necho \"$*\" >> %s\nexec %s \"$@\"\n", log, tool);
        fclose(f);
    }
    CHECK(chmod(path, 0700) == 0);
}

/* The command lines a logging_tool ran. */
static void read_log(const char *log, char *calls, size_t size)
{
    calls[0] = 0;
    FILE *f = fopen(log, "r");
    CHECK(f != NULL);
    if (f) {
        calls[fread(calls, 1, size - 1, f)] = 0;
        fclose(f);
    }
}

/* How often a string occurs in s. */
static int occurrences(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)) != NULL; p += strlen(what)) n++;
    return n;
}

/* The units gcc builds: scale's with -O2; mv's (loops two deep in its prange body) with -Og
 * -fcaller-saves for its first call, then with -O2 for the next; parallel_diagnostics says so
 * of mv only. */
static void test_deep_flags(void)
{
    char dir[] = "/tmp/mt-jit-cc-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char cc[64], log[64];
    logging_tool(dir, "cc", cc, log);
    struct sink k;
    run_two_calls(cc, NULL, &k);
    char calls[4096];
    read_log(log, calls, sizeof calls);
    /* scale's unit built once (-O2), mv's twice (-Og, then -O2) */
    CHECK_INT(occurrences(calls, "-O2 "), 2);
    CHECK_INT(occurrences(calls, "-Og -fcaller-saves "), 1);
    const char *o1 = strstr(calls, "-Og -fcaller-saves "), *o2 = o1 ? strstr(o1, "-O2 ") : NULL;
    CHECK(o2 != NULL); /* mv's -O2 build after its -Og one */
    const char *deep = "built twice: its prange body nests loops two deep";
    const char *mv = strstr(k.log, "mv(Storage, Storage, Storage, int): compiled to native code");
    CHECK(mv && strstr(mv, deep) != NULL);
    const char *d = strstr(k.log, deep);
    CHECK(d && mv && d > mv);
    unlink(log);
    unlink(cc);
    rmdir(dir);
}

/* A parallel loop whose iterations run no loop, in its body or in a function it calls, runs in
 * chunks of up to JIT_CHUNK_LIGHT iterations; the others (a loop in the body, a call of a
 * function that loops: the session's, minitorch's index helpers) in chunks of up to JIT_CHUNK.
 * The C (source=True) and the diagnostics show it; the values are the interpreter's. */
static void test_chunks(void)
{
    struct dsl_session *s = dsl_session_new();
    struct sink k = {0};
    const char *code = "from numba import njit, prange\n"
                       "from minitorch import index_to_position\n"
                       "def helper(shape):\n"
                       "    p = 0\n"
                       "    for s in shape:\n"
                       "        p += s\n"
                       "    return p\n"
                       "def twice(x):\n"
                       "    return x * 2.0\n"
                       "def k(out, shape):\n"
                       "    for i in prange(len(out)):\n"
                       "        out[i] = twice(out[i])\n"
                       "    for i in prange(len(out)):\n"
                       "        out[i] = out[i] + helper(shape)\n"
                       "    for i in prange(len(out)):\n"
                       "        for j in range(2):\n"
                       "            out[i] += 1.0\n"
                       "    for i in prange(len(out)):\n"
                       "        out[i] -= index_to_position(shape, shape)\n"
                       "t = ones(300)\nk(t._tensor._storage, (1, 2))\n"
                       "helper = njit(helper)\ntwice = njit(twice)\njk = njit(parallel=True)(k)\n"
                       "u = ones(300)\njk(u._tensor._storage, (1, 2))\n"
                       "t.tolist() == u.tolist() and t.tolist()[0] == 2.0\n";
    CHECK_STR(run_cell_with(s, code, &k).result, "True");
    memset(&k, 0, sizeof k);
    run_cell_with(s, "parallel_diagnostics(jk, source=True)", &k);
    CHECK(occurrences(k.log, "JIT_CHUNK_LIGHT) h") == 1 && occurrences(k.log, "JIT_CHUNK) h") == 3);
    CHECK(strstr(k.log, "in chunks of 1 to 1024 iterations (to 65536 where an iteration runs "
                        "no loop and calls no function with one), 8 per thread") != NULL);
    dsl_session_free(s);
}

/* gcc reads no header for a unit: the C declares what it calls (tcc's build includes the
 * system's), and of minitorch.h it has only the enum scalar.h uses. */
static void test_unit_header(void)
{
    struct dsl_session *s = dsl_session_new();
    struct sink k = {0};
    CHECK_STR(run_cell_with(s,
                            "from numba import njit\n@njit\ndef half(x):\n    return x / 2\n"
                            "half(3.0)\n",
                            &k)
                  .result,
              "1.5");
    memset(&k, 0, sizeof k);
    run_cell_with(s, "parallel_diagnostics(half, source=True)", &k);
    const char *c = strstr(k.log, "the C it was compiled from:");
    CHECK(c != NULL);
    const char *tcc = c ? strstr(c, "#ifdef __TINYC__\n#include <math.h>") : NULL;
    CHECK(tcc && occurrences(c, "#include") == 3);
    CHECK(c && strstr(c, "enum mt_reduce_op") && !strstr(c, "struct mt_tensor"));
    dsl_session_free(s);
}

/* gcc's builds are linked by ld against the OpenMP runtime and libm this process has loaded
 * (not through the compiler's driver), so that a unit's exp binds to libm's current version;
 * where ld cannot be run (MT_LD names a program that is not there), the driver links them. */
static void test_linking(void)
{
    char dir[] = "/tmp/mt-jit-cc-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char cc[64], cc_log[64], ld[64], ld_log[64];
    logging_tool(dir, "cc", cc, cc_log);
    logging_tool(dir, "ld", ld, ld_log);
    setenv("MT_LD", ld, 1);
    struct sink k;
    run_two_calls(cc, NULL, &k);
    char calls[4096];
    read_log(cc_log, calls, sizeof calls);
    /* the three builds (scale's; mv's -Og and -O2) compiled to objects, none linked by the
     * compiler */
    CHECK(occurrences(calls, " -c ") == 3 && !strstr(calls, "-shared"));
    read_log(ld_log, calls, sizeof calls);
    CHECK(occurrences(calls, "-shared ") == 3 && occurrences(calls, "--as-needed ") == 3);
    /* the OpenMP runtime: gcc's libgomp.so, or libomp.so in a build by clang */
    CHECK(occurrences(calls, "omp.so") == 3 && occurrences(calls, "libm.so") == 3);
    CHECK(strstr(k.log, "scale(Storage, int): compiled to native code") != NULL);
    CHECK(strstr(k.log, "mv(Storage, Storage, Storage, int): compiled to native code") != NULL);
    /* exp's reference in a unit carries libm's version */
    char root[] = "/tmp/mt-jit-test-XXXXXX", cmd[256];
    CHECK(mkdtemp(root) != NULL);
    setenv("XDG_CACHE_HOME", root, 1);
    struct dsl_session *s = dsl_session_new();
    memset(&k, 0, sizeof k);
    /* the interpreter's values (exp(exp(1)), twice rounded to float32) */
    CHECK_STR(run_cell_with(s,
                            "from numba import njit, prange\nfrom minitorch import operators\n"
                            "def ex(out):\n"
                            "    for i in prange(len(out)):\n"
                            "        out[i] = operators.exp(out[i])\n"
                            "jex = njit(parallel=True)(ex)\n"
                            "t = ones(3)\njex(t._tensor._storage)\njex(t._tensor._storage)\n"
                            "u = ones(3)\nex(u._tensor._storage)\nex(u._tensor._storage)\n"
                            "t.tolist() == u.tolist() and t.tolist() != [1.0, 1.0, 1.0]\n",
                            &k)
                  .result,
              "True");
    dsl_session_free(s);
    snprintf(cmd, sizeof cmd, "readelf -V %s/minitorch-kernel/jit/*.so", root);
    FILE *p = popen(cmd, "r");
    CHECK(p != NULL);
    char versions[8192] = "";
    if (p) {
        versions[fread(versions, 1, sizeof versions - 1, p)] = 0;
        CHECK(pclose(p) == 0);
    }
    CHECK(strstr(versions, "File: libm.so") != NULL);
    remove_tree(root);
    unsetenv("XDG_CACHE_HOME");
    /* no ld: the same results (run_two_calls checks them), linked by the compiler */
    setenv("MT_LD", "/nonexistent/ld", 1);
    unlink(cc_log);
    run_two_calls(cc, NULL, &k);
    read_log(cc_log, calls, sizeof calls);
    CHECK(occurrences(calls, " -c ") == 3 && occurrences(calls, "-shared ") == 3);
    CHECK(strstr(k.log, "mv(Storage, Storage, Storage, int): compiled to native code") != NULL);
    unsetenv("MT_LD");
    remove_tree(dir);
}

/* A matrix multiply's loop over j runs four iterations at a time (range_jammed) in a second
 * build: its first call waits for gcc -Og's build of the loops as written, which then starts
 * gcc -O2 on the grouped C; the next call waits for that and runs it, and a new session loads
 * it at once. Both builds give the interpreter's values; 5 columns leave one iteration over. */
#define MM_SRC                                                                                     \
    "from numba import njit, prange\n"                                                             \
    "def mm(out, a, b, n, m):\n"                                                                   \
    "    for i in prange(n):\n"                                                                    \
    "        for r in range(1):\n"                                                                 \
    "            for j in range(m):\n"                                                             \
    "                acc = 0.5\n"                                                                  \
    "                for k in range(n):\n"                                                         \
    "                    acc += a[i * n + k] * b[k * m + j] - k\n"                                 \
    "                out[i * m + j] = acc\n"                                                       \
    "a = tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]])\n"                            \
    "b = tensor([[1.0, 0.0, 2.0, -1.0, 0.5], [0.0, 1.0, 1.0, 2.0, 0.25], [3.0, 1.0, 0.0, 1.0, "    \
    "4.0]])\n"                                                                                     \
    "def run(f):\n"                                                                                \
    "    o = zeros(15)\n"                                                                          \
    "    f(o._tensor._storage, a._tensor._storage, b._tensor._storage, 3, 5)\n"                    \
    "    return o.tolist()\n"                                                                      \
    "want = run(mm)\n"                                                                             \
    "mm = njit(parallel=True)(mm)\n"

static void test_grouped_builds(void)
{
    char dir[] = "/tmp/mt-jit-cc-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char cc[64], log[64];
    logging_tool(dir, "cc", cc, log);
    setenv("XDG_CACHE_HOME", dir, 1);
    setenv("MT_CC", cc, 1);
    const char *grouped = "the loop over j (line 4 of mm) runs 4 iterations at a time";
    const char *first = "its first call ran gcc's quicker build of its loops as written; gcc "
                        "-O2's, compiling meanwhile, runs from the next call";
    const char *second = "its first call ran gcc's quicker build of its loops as written, while "
                         "gcc -O2 compiled this one";
    struct dsl_session *s = dsl_session_new();
    struct sink k = {0};
    CHECK_STR(
        run_cell_with(s, MM_SRC "print(run(mm) == want)\nparallel_diagnostics(mm)\n", &k).result,
        "");
    CHECK(strstr(k.log, "stdout:True") != NULL);
    CHECK(strstr(k.log, grouped) != NULL);
    CHECK(strstr(k.log, first) != NULL);
    memset(&k, 0, sizeof k);
    CHECK_STR(run_cell_with(s, "print(run(mm) == want)\nparallel_diagnostics(mm)\n", &k).result,
              "");
    CHECK(strstr(k.log, "stdout:True") != NULL);
    CHECK(strstr(k.log, second) != NULL);
    dsl_session_free(s);
    /* the two builds: -Og on the loops as written, -O2 on the grouped ones */
    char calls[4096];
    read_log(log, calls, sizeof calls);
    CHECK(occurrences(calls, "-Og ") == 1 && occurrences(calls, "-O2 ") == 1);
    /* a new session loads the grouped build at once, compiling nothing */
    s = dsl_session_new();
    memset(&k, 0, sizeof k);
    CHECK_STR(
        run_cell_with(s, MM_SRC "print(run(mm) == want)\nparallel_diagnostics(mm)\n", &k).result,
        "");
    CHECK(strstr(k.log, "stdout:True") != NULL);
    CHECK(strstr(k.log, grouped) != NULL && !strstr(k.log, "its first call ran"));
    dsl_session_free(s);
    read_log(log, calls, sizeof calls);
    CHECK(occurrences(calls, "-Og ") == 1 && occurrences(calls, "-O2 ") == 1);
    unsetenv("MT_CC");
    unsetenv("XDG_CACHE_HOME");
    remove_tree(dir);
}

/* Loops as long as an int array (index_to_position's over an index and strides, to_index's
 * over range(len(shape) - 1, -1, -1)) do not poll the interrupt, so the helper cannot fail
 * and its callers test nothing after it; a loop over a storage, or over a range of any other
 * length, polls. The C each function compiled to (source=True) shows it. */
static void test_quiet_loops(void)
{
    struct dsl_session *s = dsl_session_new();
    struct sink k = {0};
    const char *code = "from numba import njit\n"
                       "@njit\n"
                       "def position(index, strides):\n"
                       "    p = 0\n"
                       "    for i, s in zip(index, strides):\n"
                       "        p += i * s\n"
                       "    for d in range(len(strides) - 1, -1, -1):\n"
                       "        p += d\n"
                       "    return p\n"
                       "@njit\n"
                       "def total(xs, n):\n"
                       "    t = 0.0\n"
                       "    for x in xs:\n"
                       "        t += x\n"
                       "    for d in range(n):\n"
                       "        t += d\n"
                       "    return t\n"
                       "@njit\n"
                       "def first_big(shape):\n"
                       "    k = -1\n"
                       "    for i in range(len(shape)):\n"
                       "        if shape[i] > 1:\n"
                       "            k = i\n"
                       "            break\n"
                       "    return k\n"
                       "print(position([1, 2], [3, 4]), total(ones(3)._tensor._storage, 2),\n"
                       "      first_big([1, 1, 5, 7, 1]))\n"
                       "parallel_diagnostics(position, source=True)\n";
    CHECK_STR(run_cell_with(s, code, &k).result, "");
    CHECK(strstr(k.log, "stdout:12 4.0 2") != NULL);
    const char *entry = strstr(k.log, "int jit_entry(");
    CHECK(entry && occurrences(entry, "jit_cancelled(env)") == 0);
    /* a quiet loop's first three iterations are straight code before the loop: four copies of
     * its body */
    CHECK(entry && occurrences(entry, "v_p = (v_p + (v_i * v_s));") == 4);
    CHECK(entry && occurrences(entry, "v_p = (v_p + v_d);") == 4);
    memset(&k, 0, sizeof k);
    /* but not one that may leave early: break has a loop to leave */
    CHECK_STR(run_cell_with(s, "parallel_diagnostics(first_big, source=True)", &k).result, "");
    entry = strstr(k.log, "int jit_entry(");
    CHECK(entry && occurrences(entry, "v_k = v_i;") == 1);
    memset(&k, 0, sizeof k);
    CHECK_STR(run_cell_with(s, "parallel_diagnostics(total, source=True)", &k).result, "");
    entry = strstr(k.log, "int jit_entry(");
    CHECK(entry && occurrences(entry, "jit_cancelled(env)") == 2);
    dsl_session_free(s);
}

static void test_no_compiler(void)
{
    char root[] = "/tmp/mt-jit-test-XXXXXX";
    CHECK(mkdtemp(root) != NULL);
    setenv("XDG_CACHE_HOME", root, 1);
    setenv("MT_CC", "/nonexistent/cc", 1);
    struct dsl_session *s = dsl_session_new();
    struct sink k = {0};
    /* the same values, from the interpreter */
    CHECK_STR(run_cell_with(s, KERNEL_SRC, &k).result, "[3.0, 3.0, 4.0, 4.0, 5.0]");
    memset(&k, 0, sizeof k);
    run_cell_with(s, "parallel_diagnostics(scale)", &k);
    CHECK(strstr(k.log, "scale(Storage, int): runs in the interpreter: no C compiler: "
                        "/nonexistent/cc") != NULL);
    dsl_session_free(s);
    unsetenv("MT_CC");
    unsetenv("XDG_CACHE_HOME");
    remove_tree(root);
}

int main(void)
{
    RUN_TEST(test_cache_folder);
    RUN_TEST(test_two_builds);
    RUN_TEST(test_recent);
    RUN_TEST(test_one_build);
    RUN_TEST(test_gcc_fails);
    RUN_TEST(test_tcc_records);
    RUN_TEST(test_deep_flags);
    RUN_TEST(test_quiet_loops);
    RUN_TEST(test_grouped_builds);
    RUN_TEST(test_chunks);
    RUN_TEST(test_unit_header);
    RUN_TEST(test_linking);
    RUN_TEST(test_no_compiler);
    return TEST_SUMMARY();
}
