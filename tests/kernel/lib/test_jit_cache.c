/* test_jit_cache.c — the folder of compiled code (lib/jit/cache.c) is the user's alone, sound
 * against broken files and compilers, and bounded.
 *
 * - Where it is: $XDG_CACHE_HOME, else the home's .cache, the home from the password database
 *   where HOME is unset, "/" or another user's; never a fixed folder in /tmp.
 * - Another user's folder (made first by uid 65534), a folder that is a link, and one in a folder
 *   others may write without the sticky bit are refused: a shared object planted there is never
 *   loaded (its constructor would write a marker file), nothing is written there, and the
 *   function still runs compiled, from a folder of the process's own.
 * - Links planted where the kernel writes are not followed; a link, another user's file, a file
 *   others may write, a truncated file and a FIFO at a unit's name are removed and built again
 *   (njit and cuda.jit alike), without hanging.
 * - A compiler that hangs is stopped after MT_JIT_CC_TIMEOUT seconds, with a reason, and the call
 *   answers; an interrupt stops the wait and the compiler within a second, on the first call and
 *   on the later call that waits for gcc's background build; a kernel killed with SIGKILL leaves
 *   no compiler process behind, and its files go when the folder is next opened.
 * - MT_JIT_CACHE_MAX: the units used least recently are removed first, a loaded one never, and
 *   loading a unit counts as using it.
 *
 * The tests with a second user need root (CI runs as root): without it they are skipped, and
 * fail where CI=true. */
#include "kernel/dsl_helpers.h"
#include "test.h"

#include "lib/jit/cache.h"
#include "minitorch/minitorch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define OTHER_UID 65534 /* nobody: the other user */

#define KERNEL_SRC                                                                                 \
    "from numba import njit, prange\n"                                                             \
    "@njit(parallel=True)\n"                                                                       \
    "def scale(out, k):\n"                                                                         \
    "    for i in prange(len(out)):\n"                                                             \
    "        out[i] = out[i] * k + i // 2\n"                                                       \
    "t = ones(5)\n"                                                                                \
    "scale(t._tensor._storage, 3)\n"
#define SCALED "[3.0, 3.0, 4.0, 4.0, 5.0]"
#define COMPILED "scale(Storage, int): compiled to native code"

#define CUDA_SRC                                                                                   \
    "from numba import cuda\n"                                                                     \
    "@cuda.jit\n"                                                                                  \
    "def add1(out, a, size):\n"                                                                    \
    "    i = cuda.threadIdx.x\n"                                                                   \
    "    if i < size:\n"                                                                           \
    "        out[i] = a[i] + 1.0\n"                                                                \
    "a = ones(3)\n"                                                                                \
    "o = zeros(3)\n"                                                                               \
    "add1[1, 4](o._tensor._storage, a._tensor._storage, 3)\n"                                      \
    "o.tolist()\n"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A hung call fails the test (ctest would wait minutes otherwise). */
static const char *watched;
static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "test_jit_cache: a call hung in ";
    if (write(2, msg, sizeof msg - 1) < 0 || write(2, watched, strlen(watched)) < 0 ||
        write(2, "\n", 1) < 0) {}
    _exit(1);
}
static void watchdog(const char *what, unsigned seconds)
{
    watched = what;
    signal(SIGALRM, on_alarm);
    alarm(seconds);
}

/* Whether a test that needs a second user can run; where it cannot, CI=true fails it. */
static bool have_second_user(const char *what)
{
    if (geteuid() == 0 && geteuid() != OTHER_UID) return true;
    const char *ci = getenv("CI");
    bool must = ci && strcmp(ci, "true") == 0;
    fprintf(stderr, "  %s: %s (it needs root, to act as a second user)\n", what,
            must ? "FAILED: CI=true and not root" : "skipped");
    if (must) test_checks_failed++;
    return false;
}

static void remove_tree(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
}

static void temp_dir(char out[64])
{
    snprintf(out, 64, "/tmp/mt-jit-cache-XXXXXX");
    CHECK(mkdtemp(out) != NULL);
}

/* The cache folder under root (as XDG_CACHE_HOME), into out. */
static void jit_dir(const char *root, char out[256])
{
    snprintf(out, 256, "%s/minitorch-kernel/jit", root);
}

static bool exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

static int count_files(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* The one unit (a .so named by its hash) in dir, into name; false when there is not one. */
static bool unit_in(const char *dir, char name[64])
{
    DIR *d = opendir(dir);
    if (!d) return false;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len == 19 && strcmp(e->d_name + 16, ".so") == 0) {
            memcpy(name, e->d_name, 20);
            n++;
        }
    }
    closedir(d);
    return n == 1;
}

/* Runs code in a new session, its output into k: the outcome. */
static struct outcome run_new(const char *code, struct sink *k)
{
    struct dsl_session *s = dsl_session_new();
    memset(k, 0, sizeof *k);
    struct outcome o = run_cell_with(s, code, k);
    dsl_session_free(s);
    return o;
}

/* Runs scale in a new session: whether it gave the interpreter's values, compiled. */
static bool scale_compiled(struct sink *k)
{
    struct outcome o = run_new(KERNEL_SRC "print(t.tolist())\nparallel_diagnostics(scale)\n", k);
    return o.rc == 0 && strstr(k->log, "stdout:" SCALED) && strstr(k->log, COMPILED);
}

/* The name of scale's unit, built in a cache of its own, into name. */
static void scale_unit(char name[64])
{
    char root[64], dir[256];
    temp_dir(root);
    setenv("XDG_CACHE_HOME", root, 1);
    static struct sink k;
    CHECK(scale_compiled(&k));
    jit_dir(root, dir);
    CHECK(unit_in(dir, name));
    remove_tree(root);
}

/* A shared object with jit_entry whose constructor writes marker, at path (built by cc). */
static void planted_object(const char *path, const char *marker)
{
    char src[300], cmd[800];
    snprintf(src, sizeof src, "%s.c", path);
    FILE *f = fopen(src, "w");
    CHECK(f != NULL);
    if (!f) return;
    fprintf(f,
            "#include <stdio.h>\n"
            "__attribute__((constructor)) static void planted(void)\n"
            "{\n    FILE *f = fopen(\"%s\", \"w\");\n    if (f) fclose(f);\n}\n"
            "int jit_entry(void **slots, void *env) { (void)slots; (void)env; return 0; }\n",
            marker);
    fclose(f);
    snprintf(cmd, sizeof cmd, "cc -shared -fPIC -o '%s' '%s'", path, src);
    CHECK(system(cmd) == 0);
    unlink(src);
}

/* Copies file from to to (mode 0755), as whoever runs it: 0, or -1. */
static int copy_file(const char *from, const char *to)
{
    int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_EXCL, 0755);
    char buf[8192];
    ssize_t n;
    int r = in >= 0 && out >= 0 ? 0 : -1;
    while (r == 0 && (n = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)n) != n) r = -1;
    if (in >= 0) close(in);
    if (out >= 0) close(out);
    return r;
}

/* As the other user, in a child: makes dir (0777) and its folder jit (0777) in it, and copies
 * object there as name. Whether that went. */
static bool plant_as_other(const char *root, const char *object, const char *name)
{
    pid_t pid = fork();
    if (pid == 0) {
        char dir[256], path[400];
        if (setresgid(OTHER_UID, OTHER_UID, OTHER_UID) != 0 ||
            setresuid(OTHER_UID, OTHER_UID, OTHER_UID) != 0)
            _exit(2);
        umask(0);
        snprintf(dir, sizeof dir, "%s/minitorch-kernel", root);
        if (mkdir(dir, 0777) != 0) _exit(3);
        jit_dir(root, dir);
        if (mkdir(dir, 0777) != 0) _exit(4);
        snprintf(path, sizeof path, "%s/%s", dir, name);
        _exit(copy_file(object, path) == 0 ? 0 : 5);
    }
    int status = -1;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* ---- where the folder is ---------------------------------------------------------------- */

static void test_default_path(void)
{
    char want[4200], got[4200], home[64];
    struct passwd *pw = getpwuid(geteuid());
    CHECK(pw != NULL && pw->pw_dir[0] == '/');
    if (!pw) return;
    snprintf(want, sizeof want, "%s/.cache/minitorch-kernel/jit", pw->pw_dir);
    char *saved_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    unsetenv("XDG_CACHE_HOME");
    /* HOME unset, empty or "/" (docker run --user): the password database's home, never /tmp */
    unsetenv("HOME");
    CHECK(jit_cache_default_path(got, sizeof got) == 0);
    CHECK_STR(got, want);
    setenv("HOME", "", 1);
    CHECK(jit_cache_default_path(got, sizeof got) == 0);
    CHECK_STR(got, want);
    setenv("HOME", "/", 1);
    CHECK(jit_cache_default_path(got, sizeof got) == 0);
    CHECK_STR(got, want);
    /* a HOME of this user's */
    temp_dir(home);
    setenv("HOME", home, 1);
    char mine[4200];
    snprintf(mine, sizeof mine, "%s/.cache/minitorch-kernel/jit", home);
    CHECK(jit_cache_default_path(got, sizeof got) == 0);
    CHECK_STR(got, mine);
    /* another user's HOME: the database's */
    if (geteuid() == 0) {
        CHECK(chown(home, OTHER_UID, OTHER_UID) == 0);
        CHECK(jit_cache_default_path(got, sizeof got) == 0);
        CHECK_STR(got, want);
    }
    rmdir(home);
    /* XDG_CACHE_HOME first, when absolute (the XDG spec ignores a relative one) */
    setenv("XDG_CACHE_HOME", "/var/tmp/x", 1);
    CHECK(jit_cache_default_path(got, sizeof got) == 0);
    CHECK_STR(got, "/var/tmp/x/minitorch-kernel/jit");
    setenv("XDG_CACHE_HOME", "rel/x", 1);
    unsetenv("HOME");
    CHECK(jit_cache_default_path(got, sizeof got) == 0);
    CHECK_STR(got, want);
    unsetenv("XDG_CACHE_HOME");
    if (saved_home) setenv("HOME", saved_home, 1);
    free(saved_home);
}

/* The folder made where missing is the user's alone, every file in it too. */
static void test_private_modes(void)
{
    char root[64], dir[256], name[64], path[400];
    temp_dir(root);
    setenv("XDG_CACHE_HOME", root, 1);
    static struct sink k;
    CHECK(scale_compiled(&k));
    jit_dir(root, dir);
    struct stat st;
    CHECK(stat(dir, &st) == 0 && (st.st_mode & 0777) == 0700 && st.st_uid == geteuid());
    CHECK(unit_in(dir, name));
    snprintf(path, sizeof path, "%s/%s", dir, name);
    CHECK(stat(path, &st) == 0 && (st.st_mode & 077) == 0);
    path[strlen(path) - 2] = 'c', path[strlen(path) - 1] = 0;
    CHECK(stat(path, &st) == 0 && (st.st_mode & 077) == 0);
    /* a folder of ours others may read loses that */
    CHECK(chmod(dir, 0755) == 0);
    CHECK(scale_compiled(&k));
    CHECK(stat(dir, &st) == 0 && (st.st_mode & 0777) == 0700);
    remove_tree(root);
}

/* ---- folders refused -------------------------------------------------------------------- */

static void test_other_users_folder(void)
{
    if (!have_second_user("another user's folder")) return;
    char name[64], root[64], lib[64], object[128], marker[128], dir[256];
    scale_unit(name);
    /* the attacker's place: world-writable with the sticky bit, as /tmp */
    temp_dir(root);
    CHECK(chmod(root, 01777) == 0);
    temp_dir(lib);
    CHECK(chmod(lib, 0755) == 0);
    snprintf(object, sizeof object, "%s/planted.so", lib);
    snprintf(marker, sizeof marker, "%s/marker", lib);
    planted_object(object, marker);
    CHECK(chmod(object, 0755) == 0);
    CHECK(plant_as_other(root, object, name));
    setenv("XDG_CACHE_HOME", root, 1);
    static struct sink k;
    CHECK(scale_compiled(&k));
    CHECK(!exists(marker));
    CHECK(strstr(k.log, "stderr:minitorch-kernel: compiled code is not cached in") != NULL);
    CHECK(strstr(k.log, "belongs to uid 65534") != NULL);
    /* nothing was written there */
    jit_dir(root, dir);
    CHECK_INT(count_files(dir), 1);
    remove_tree(root);
    remove_tree(lib);
}

static void test_folder_link(void)
{
    char root[64], target[300], dir[256], part[300];
    temp_dir(root);
    snprintf(part, sizeof part, "%s/minitorch-kernel", root);
    snprintf(target, sizeof target, "%s/elsewhere", root);
    CHECK(mkdir(part, 0700) == 0 && mkdir(target, 0700) == 0);
    jit_dir(root, dir);
    CHECK(symlink(target, dir) == 0);
    setenv("XDG_CACHE_HOME", root, 1);
    static struct sink k;
    CHECK(scale_compiled(&k));
    CHECK(strstr(k.log, "jit is a symbolic link") != NULL);
    CHECK_INT(count_files(target), 0);
    /* a folder on the way others may write, without the sticky bit */
    CHECK(unlink(dir) == 0 && mkdir(dir, 0700) == 0 && chmod(part, 0777) == 0);
    CHECK(scale_compiled(&k));
    CHECK(strstr(k.log, "which lacks the sticky bit") != NULL);
    CHECK_INT(count_files(dir), 0);
    remove_tree(root);
}

/* ---- files refused ---------------------------------------------------------------------- */

/* Links where the kernel writes: at the names of the files an older kernel wrote its C, the
 * compiler's output and its log to, at the unit's C, and at the unit's shared object (to another
 * shared object). None is followed: the files they point to stay as they were. */
static void test_planted_links(void)
{
    char name[64], root[64], dir[256], victim[128], path[400], object[128], marker[128];
    scale_unit(name);
    temp_dir(root);
    jit_dir(root, dir);
    char mk[300];
    snprintf(mk, sizeof mk, "%s/minitorch-kernel", root);
    CHECK(mkdir(mk, 0700) == 0 && mkdir(dir, 0700) == 0);
    snprintf(victim, sizeof victim, "%s/victim", root);
    FILE *f = fopen(victim, "w");
    CHECK(f != NULL);
    if (f) {
        fputs("precious\n", f);
        fclose(f);
    }
    static const char *const older[] = {"c", "tmp", "o", "log"};
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s.%ld.%s", dir, name, (long)getpid(), older[i]);
        CHECK(symlink(victim, path) == 0);
    }
    snprintf(path, sizeof path, "%s/%.16s.c", dir, name);
    CHECK(symlink(victim, path) == 0);
    setenv("XDG_CACHE_HOME", root, 1);
    static struct sink k;
    CHECK(scale_compiled(&k));
    char text[64] = "";
    f = fopen(victim, "r");
    if (f) {
        text[fread(text, 1, sizeof text - 1, f)] = 0;
        fclose(f);
    }
    CHECK_STR(text, "precious\n");
    struct stat st;
    CHECK(lstat(path, &st) == 0 && S_ISREG(st.st_mode)); /* the link replaced, not followed */
    /* a link at the unit's shared object, to a shared object elsewhere: not loaded */
    snprintf(object, sizeof object, "%s/planted.so", root);
    snprintf(marker, sizeof marker, "%s/marker", root);
    planted_object(object, marker);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    CHECK(unlink(path) == 0 && symlink(object, path) == 0);
    CHECK(scale_compiled(&k));
    CHECK(!exists(marker));
    CHECK(lstat(path, &st) == 0 && S_ISREG(st.st_mode));
    remove_tree(root);
}

/* After the unit's shared object at path was spoilt (what): a new session must run scale
 * compiled, the file built again, a regular one of ours of its size (bytes). */
static void check_rebuilt(const char *path, const char *what, off_t bytes)
{
    static struct sink k;
    watchdog(what, 60);
    bool ok = scale_compiled(&k);
    alarm(0);
    CHECK(ok);
    if (!ok) fprintf(stderr, "  %s:\n%s\n", what, k.log);
    struct stat st;
    CHECK(lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
          st.st_size == bytes);
}

static void test_unfit_files(void)
{
    char root[64], dir[256], name[64], path[400], object[128], marker[128];
    temp_dir(root);
    setenv("XDG_CACHE_HOME", root, 1);
    static struct sink k;
    CHECK(scale_compiled(&k));
    jit_dir(root, dir);
    CHECK(unit_in(dir, name));
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct stat st;
    CHECK(stat(path, &st) == 0);
    /* truncated: its section headers cut (the loader would take it), to half (the loader would
     * map its last segment past the end: SIGBUS), to a few bytes, to nothing */
    off_t bytes = st.st_size, cuts[] = {bytes - 100, bytes / 2, 40, 0};
    for (int i = 0; i < 4; i++) {
        CHECK(truncate(path, cuts[i]) == 0);
        check_rebuilt(path, "a truncated shared object", bytes);
    }
    /* a FIFO: never opened blocking */
    CHECK(unlink(path) == 0 && mkfifo(path, 0600) == 0);
    check_rebuilt(path, "a FIFO at the shared object's name", bytes);
    /* a shared object others may write, of ours: not loaded */
    snprintf(object, sizeof object, "%s/planted.so", root);
    snprintf(marker, sizeof marker, "%s/marker", root);
    planted_object(object, marker);
    CHECK(unlink(path) == 0 && copy_file(object, path) == 0 && chmod(path, 0775) == 0);
    check_rebuilt(path, "a shared object others may write", bytes);
    CHECK(!exists(marker));
    /* another user's */
    if (have_second_user("another user's shared object")) {
        CHECK(unlink(path) == 0 && copy_file(object, path) == 0);
        CHECK(chown(path, OTHER_UID, OTHER_UID) == 0 && chmod(path, 0755) == 0);
        check_rebuilt(path, "another user's shared object", bytes);
        CHECK(!exists(marker));
    }
    remove_tree(root);
}

/* cuda.jit's simulated kernels: a truncated unit is built again, not an error from then on. */
static void test_unfit_cuda(void)
{
    char root[64], dir[256], name[64], path[400];
    temp_dir(root);
    setenv("XDG_CACHE_HOME", root, 1);
    setenv("MT_CUDA_SIMULATE", "1", 1);
    static struct sink k;
    CHECK_STR(run_new(CUDA_SRC, &k).result, "[2.0, 2.0, 2.0]");
    jit_dir(root, dir);
    CHECK(unit_in(dir, name));
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct stat st;
    CHECK(stat(path, &st) == 0 && truncate(path, st.st_size / 2) == 0);
    struct outcome o = run_new(CUDA_SRC, &k);
    CHECK_STR(o.result, "[2.0, 2.0, 2.0]");
    if (o.rc != 0) fprintf(stderr, "  %s: %s\n", o.ename, o.evalue);
    struct stat again;
    CHECK(stat(path, &again) == 0 && again.st_size == st.st_size);
    unsetenv("MT_CUDA_SIMULATE");
    remove_tree(root);
}

/* ---- compilers that hang ---------------------------------------------------------------- */

/* A compiler that hangs, at path in dir: it writes its pid and its child's (a sleep) to pids. */
static void hanging_compiler(const char *dir, char path[128], char pids[128])
{
    snprintf(path, 128, "%s/hang-cc", dir);
    snprintf(pids, 128, "%s/pids", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fprintf(f, "#!/bin/sh\necho $$ >> %s\nsleep 1000 &\necho $! >> %s\nwait\n", pids, pids);
        fclose(f);
    }
    CHECK(chmod(path, 0700) == 0);
}

/* The pids the hanging compiler wrote (at most max): how many. */
static int read_pids(const char *file, pid_t *out, int max)
{
    FILE *f = fopen(file, "r");
    if (!f) return 0;
    int n = 0;
    long v;
    while (n < max && fscanf(f, "%ld", &v) == 1) out[n++] = (pid_t)v;
    fclose(f);
    return n;
}

/* Whether process pid has ended (gone, or a zombie no one has reaped). */
static bool ended(pid_t pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    FILE *f = fopen(path, "r");
    if (!f) return true;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *p = strrchr(buf, ')');
    return !p || p[2] == 'Z' || p[2] == 'X';
}

/* Whether the hanging compiler's processes (2) all end within seconds. */
static bool compiler_ended(const char *pids, double seconds)
{
    pid_t p[4];
    int n = read_pids(pids, p, 4);
    if (n < 2) return false;
    for (double t0 = now_s(); now_s() - t0 < seconds;) {
        bool all = true;
        for (int i = 0; i < n; i++) all &= ended(p[i]);
        if (all) return true;
        struct timespec ms = {0, 10 * 1000 * 1000};
        nanosleep(&ms, NULL);
    }
    return false;
}

static void test_compiler_timeout(void)
{
    char root[64], cc[128], pids[128];
    temp_dir(root);
    hanging_compiler(root, cc, pids);
    setenv("XDG_CACHE_HOME", root, 1);
    setenv("MT_CC", cc, 1);
    setenv("MT_JIT_CC_TIMEOUT", "1", 1);
    static struct sink k;
    /* the first call waits for gcc: after a second, it runs in the interpreter, and says why */
    watchdog("a call waiting for a compiler that hangs", 30);
    double t0 = now_s();
    struct outcome o = run_new(KERNEL_SRC "print(t.tolist())\nparallel_diagnostics(scale)\n", &k);
    double took = now_s() - t0;
    CHECK_INT(o.rc, 0);
    CHECK(took >= 1.0 && took < 5.0);
    CHECK(strstr(k.log, "stdout:" SCALED) != NULL);
    CHECK(strstr(k.log, "scale(Storage, int): runs in the interpreter: the C compiler (") != NULL);
    CHECK(strstr(k.log, "did not finish within 1 s, and was stopped (MT_JIT_CC_TIMEOUT") != NULL);
    CHECK(compiler_ended(pids, 1.0));
    /* the quick build ran the first call; the next one waits for gcc's at most the limit, then
     * runs the quick build on, and says why */
    unlink(pids);
    setenv("MT_JIT_QUICK", "cc", 1);
    t0 = now_s();
    o = run_new(KERNEL_SRC "scale(t._tensor._storage, 2)\nprint(t.tolist())\n"
                           "parallel_diagnostics(scale)\n",
                &k);
    took = now_s() - t0;
    CHECK_INT(o.rc, 0);
    CHECK(took < 5.0);
    CHECK(strstr(k.log, "stdout:[6.0, 6.0, 9.0, 9.0, 12.0]") != NULL);
    CHECK(strstr(k.log, "runs tcc's quick build, on one thread: the C compiler (") != NULL);
    CHECK(compiler_ended(pids, 1.0));
    setenv("MT_JIT_QUICK", "0", 1);
    /* cuda.jit: an error that says so, and the next launch answers */
    unlink(pids);
    setenv("MT_CUDA_SIMULATE", "1", 1);
    o = run_new(CUDA_SRC, &k);
    CHECK_INT(o.rc, -1);
    CHECK_STR(o.ename, "RuntimeError");
    CHECK(strstr(o.evalue, "the CUDA simulator could not build add1(): the C compiler (") != NULL);
    CHECK(strstr(o.evalue, "did not finish within 1 s") != NULL);
    alarm(0);
    CHECK(compiler_ended(pids, 1.0));
    unsetenv("MT_CUDA_SIMULATE");
    unsetenv("MT_JIT_CC_TIMEOUT");
    unsetenv("MT_CC");
    remove_tree(root);
}

static double raised_at;

static void *raise_later(void *arg)
{
    (void)arg;
    struct timespec ts = {0, 300 * 1000 * 1000};
    nanosleep(&ts, NULL);
    raised_at = now_s();
    mt_cancel_request();
    return NULL;
}

/* Runs code on s while a thread raises the interrupt: seconds from the raise to the end. */
static double interrupted(struct dsl_session *s, const char *code, struct sink *k,
                          struct outcome *o)
{
    mt_cancel_clear();
    raised_at = 0;
    pthread_t t;
    CHECK_INT(pthread_create(&t, NULL, raise_later, NULL), 0);
    memset(k, 0, sizeof *k);
    *o = run_cell_with(s, code, k);
    double end = now_s();
    pthread_join(t, NULL);
    mt_cancel_clear();
    return raised_at > 0 ? end - raised_at : -1;
}

static void test_compiler_interrupt(void)
{
    char root[64], cc[128], pids[128];
    temp_dir(root);
    hanging_compiler(root, cc, pids);
    setenv("XDG_CACHE_HOME", root, 1);
    setenv("MT_CC", cc, 1);
    setenv("MT_JIT_CC_TIMEOUT", "60", 1);
    static struct sink k;
    struct outcome o;
    watchdog("an interrupt of a compiler that hangs", 30);
    /* the first call's wait */
    struct dsl_session *s = dsl_session_new();
    double lag = interrupted(s, KERNEL_SRC, &k, &o);
    CHECK(lag >= 0 && lag < 1.0);
    CHECK_STR(o.ename, "KeyboardInterrupt");
    CHECK(compiler_ended(pids, 1.0));
    dsl_session_free(s);
    /* the wait of the call after the quick build's, for gcc's build in the background */
    unlink(pids);
    setenv("MT_JIT_QUICK", "cc", 1);
    s = dsl_session_new();
    CHECK_INT(run_cell_with(s, KERNEL_SRC, &k).rc, 0);
    lag = interrupted(s, "scale(t._tensor._storage, 2)\n", &k, &o);
    CHECK(lag >= 0 && lag < 1.0);
    CHECK(compiler_ended(pids, 1.0));
    /* the session goes on, on the quick build, and says why */
    memset(&k, 0, sizeof k);
    CHECK_INT(
        run_cell_with(s, "scale(t._tensor._storage, 1)\nparallel_diagnostics(scale)\n", &k).rc, 0);
    CHECK(strstr(k.log, "an interrupt stopped gcc's build") != NULL);
    dsl_session_free(s);
    alarm(0);
    setenv("MT_JIT_QUICK", "0", 1);
    unsetenv("MT_JIT_CC_TIMEOUT");
    unsetenv("MT_CC");
    remove_tree(root);
}

/* The kernel killed while its compiler runs: this program again (--killed-kernel), its first
 * call waiting for the hanging compiler. */
static int killed_kernel(void)
{
    struct dsl_session *s = dsl_session_new();
    struct sink *k = calloc(1, sizeof *k);
    run_cell_with(s, KERNEL_SRC, k); /* never returns: it is killed */
    return 1;
}

static void test_kernel_killed(void)
{
    char root[64], cc[128], pids[128], dir[256];
    temp_dir(root);
    hanging_compiler(root, cc, pids);
    setenv("XDG_CACHE_HOME", root, 1);
    setenv("MT_CC", cc, 1);
    setenv("MT_JIT_QUICK", "0", 1);
    char *argv[] = {"test_jit_cache", "--killed-kernel", NULL};
    pid_t kernel;
    CHECK_INT(posix_spawn(&kernel, "/proc/self/exe", NULL, NULL, argv, environ), 0);
    pid_t p[4];
    for (double t0 = now_s(); read_pids(pids, p, 4) < 2 && now_s() - t0 < 20;) {
        struct timespec ms = {0, 10 * 1000 * 1000};
        nanosleep(&ms, NULL);
    }
    CHECK_INT(read_pids(pids, p, 4), 2);
    CHECK(kill(kernel, SIGKILL) == 0);
    waitpid(kernel, NULL, 0);
    CHECK(compiler_ended(pids, 2.0));
    /* its files go when the folder is next opened (by a build of another process) */
    jit_dir(root, dir);
    CHECK(count_files(dir) > 0);
    setenv("MT_CC", "/nonexistent/cc", 1);
    static struct sink k;
    run_new(KERNEL_SRC, &k);
    CHECK_INT(count_files(dir), 0);
    setenv("MT_JIT_QUICK", "0", 1);
    unsetenv("MT_CC");
    remove_tree(root);
}

/* Temporary files: a dead process's go when the folder is opened, a live one's stay. */
static void test_stale_files(void)
{
    char root[64], dir[256], dead_file[400], live_file[400], mk[300];
    temp_dir(root);
    jit_dir(root, dir);
    snprintf(mk, sizeof mk, "%s/minitorch-kernel", root);
    CHECK(mkdir(mk, 0700) == 0 && mkdir(dir, 0700) == 0);
    pid_t dead = fork();
    if (dead == 0) _exit(0);
    waitpid(dead, NULL, 0);
    snprintf(dead_file, sizeof dead_file, "%s/0123456789abcdef.%ld.0badf00d.c", dir, (long)dead);
    snprintf(live_file, sizeof live_file, "%s/0123456789abcdef.%ld.0badf00d.c", dir,
             (long)getppid());
    FILE *f = fopen(dead_file, "w");
    if (f) fclose(f);
    f = fopen(live_file, "w");
    if (f) fclose(f);
    setenv("XDG_CACHE_HOME", root, 1);
    static struct sink k;
    CHECK(scale_compiled(&k));
    CHECK(!exists(dead_file));
    CHECK(exists(live_file));
    remove_tree(root);
}

/* ---- the size cap ----------------------------------------------------------------------- */

/* A unit of size bytes that was last used ago seconds before now, in dir. */
static void fake_unit(const char *dir, const char *hash, long size, long ago)
{
    char path[400];
    snprintf(path, sizeof path, "%s/%s.so", dir, hash);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        CHECK(ftruncate(fileno(f), size) == 0);
        fclose(f);
    }
    struct timespec t[2] = {{time(NULL) - ago, 0}, {time(NULL) - ago, 0}};
    CHECK(utimensat(AT_FDCWD, path, t, 0) == 0);
    snprintf(path, sizeof path, "%s/%s.c", dir, hash);
    f = fopen(path, "w");
    if (f) fclose(f);
}

static bool unit_there(const char *dir, const char *hash)
{
    char path[400];
    snprintf(path, sizeof path, "%s/%s.so", dir, hash);
    return exists(path);
}

static void test_size_cap(void)
{
    char root[64], dir[256], mk[300], scale_so[64], path[400];
    temp_dir(root);
    jit_dir(root, dir);
    snprintf(mk, sizeof mk, "%s/minitorch-kernel", root);
    CHECK(mkdir(mk, 0700) == 0 && mkdir(dir, 0700) == 0);
    setenv("XDG_CACHE_HOME", root, 1);
    static struct sink k;
    CHECK(scale_compiled(&k)); /* scale's unit: loaded by this process */
    CHECK(unit_in(dir, scale_so));
    snprintf(path, sizeof path, "%s/%s", dir, scale_so);
    /* loading a unit counts as its use */
    struct timespec old[2] = {{time(NULL) - 5000, 0}, {time(NULL) - 5000, 0}};
    CHECK(utimensat(AT_FDCWD, path, old, 0) == 0);
    CHECK(scale_compiled(&k));
    struct stat st;
    CHECK(stat(path, &st) == 0 && st.st_mtime > time(NULL) - 60);
    /* three units of 1 MiB, used 3000, 2000 and 1000 s ago, and scale's the oldest of all */
    fake_unit(dir, "aaaaaaaaaaaaaaaa", 1 << 20, 3000);
    fake_unit(dir, "bbbbbbbbbbbbbbbb", 1 << 20, 2000);
    fake_unit(dir, "cccccccccccccccc", 1 << 20, 1000);
    CHECK(utimensat(AT_FDCWD, path, old, 0) == 0);
    /* a build under a cap of 2.5 MiB: the oldest unit goes, not scale's (this process loaded
     * it), and no more than needed */
    setenv("MT_JIT_CACHE_MAX", "2560K", 1);
    struct outcome o = run_new("from numba import njit\n@njit\ndef twice(x):\n    return x * 2\n"
                               "twice(21)\n",
                               &k);
    CHECK_STR(o.result, "42");
    CHECK(!unit_there(dir, "aaaaaaaaaaaaaaaa"));
    snprintf(path, sizeof path, "%s/aaaaaaaaaaaaaaaa.c", dir);
    CHECK(!exists(path));
    CHECK(unit_there(dir, "bbbbbbbbbbbbbbbb"));
    CHECK(unit_there(dir, "cccccccccccccccc"));
    snprintf(path, sizeof path, "%s/%s", dir, scale_so);
    CHECK(exists(path));
    /* a cap of nothing: every unit this process has not loaded goes, after the next build */
    setenv("MT_JIT_CACHE_MAX", "0", 1);
    o = run_new("from numba import njit\n@njit\ndef thrice(x):\n    return x * 3\nthrice(14)\n",
                &k);
    CHECK_STR(o.result, "42");
    CHECK(!unit_there(dir, "bbbbbbbbbbbbbbbb") && !unit_there(dir, "cccccccccccccccc"));
    CHECK(exists(path));
    CHECK_INT(count_files(dir), 6); /* scale's, twice's and thrice's, .so and .c each */
    unsetenv("MT_JIT_CACHE_MAX");
    remove_tree(root);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--killed-kernel") == 0) return killed_kernel();
    setenv("MT_JIT_QUICK", "0", 1); /* gcc's builds only, unless a test says otherwise */
    unsetenv("MT_CC");
    RUN_TEST(test_default_path);
    RUN_TEST(test_private_modes);
    RUN_TEST(test_other_users_folder);
    RUN_TEST(test_folder_link);
    RUN_TEST(test_planted_links);
    RUN_TEST(test_unfit_files);
    RUN_TEST(test_unfit_cuda);
    RUN_TEST(test_compiler_timeout);
    RUN_TEST(test_compiler_interrupt);
    RUN_TEST(test_kernel_killed);
    RUN_TEST(test_stale_files);
    RUN_TEST(test_size_cap);
    return TEST_SUMMARY();
}
