/* test_jit.c — where njit's compiled code comes from: the cache folder (made when missing,
 * reused by a later session without compiling again), and a machine without a C compiler
 * (the function then runs in the interpreter, with the same result, and the diagnostics say
 * why). The language-level behaviour is in tests/lang/njit.mt. */
#include "dsl_helpers.h"
#include "test.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
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
    RUN_TEST(test_no_compiler);
    return TEST_SUMMARY();
}
