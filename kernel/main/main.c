/* main.c — the minitorch-kernel command line.
 *
 *   minitorch-kernel -f CONNECTION_FILE      run as a Jupyter kernel (what kernel.json starts)
 *   minitorch-kernel install [...]           write the kernelspec, like `ipykernel install`
 *   minitorch-kernel run FILE.mt             run a file of the language in the terminal
 *
 * The kernelspec template and logos are read from the installed share directory next to the
 * binary, or from the source tree when the binary runs from a build directory. */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <minitorch/minitorch.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jupyter/jupyter.h"
#include "lang/dsl.h"

static const char usage[] =
    "usage: minitorch-kernel -f CONNECTION_FILE\n"
    "       minitorch-kernel install [--user | --sys-prefix | --prefix DIR] [--name NAME]\n"
    "                                [--display-name TEXT]\n"
    "       minitorch-kernel run FILE.mt\n"
    "       minitorch-kernel --version | --help\n"
    "\n"
    "A Jupyter kernel for the MiniTorch tensor language.\n"
    "\n"
    "  -f FILE          run the kernel with a Jupyter connection file (started by Jupyter)\n"
    "  install          write the kernelspec: default the system-wide\n"
    "                   /usr/local/share/jupyter/kernels/NAME; --user: the user's Jupyter data\n"
    "                   directory; --sys-prefix: the active virtual environment; --prefix DIR:\n"
    "                   DIR/share/jupyter/kernels/NAME. NAME defaults to minitorch, TEXT to\n"
    "                   MiniTorch.\n"
    "  run FILE         run FILE and print what it outputs as text; exit status 1 on an error.\n"
    "                   Lines starting with `# %%` split it into cells, run in order.\n"
    "  --version        print the version\n"
    "  --help           print this help\n";

/* ---------------------------------------------------------------------------------------- */
/* install                                                                                    */

static int mkdir_p(const char *path)
{
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) return -1;
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* The directory holding kernel.json (the template) and the logos. */
static int find_kernelspec_source(const char *exe, char *out, size_t n)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", exe);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = '\0';
    const char *candidates[3];
    char installed[PATH_MAX + 64];
    snprintf(installed, sizeof installed, "%s/../share/minitorch-kernel/kernelspec", dir);
    candidates[0] = installed;
    candidates[1] = MT_INSTALL_KERNELSPEC_DIR;
    candidates[2] = MT_SOURCE_KERNELSPEC_DIR;
    for (int i = 0; i < 3; i++) {
        char probe[PATH_MAX + 64];
        snprintf(probe, sizeof probe, "%s/kernel.json", candidates[i]);
        if (access(probe, R_OK) == 0) {
            snprintf(out, n, "%s", candidates[i]);
            return 0;
        }
    }
    return -1;
}

static int copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb");
    if (!in) return -1;
    FILE *out = fopen(to, "wb");
    if (!out) {
        fclose(in);
        return -1;
    }
    char buf[8192];
    size_t n;
    int rc = 0;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n) rc = -1;
    if (ferror(in)) rc = -1;
    fclose(in);
    if (fclose(out) != 0) rc = -1;
    return rc;
}

/* The prefix of the active Python environment for --sys-prefix. */
static int sys_prefix(char *out, size_t n)
{
    const char *env = getenv("VIRTUAL_ENV");
    if (!env || !*env) env = getenv("CONDA_PREFIX");
    if (env && *env) {
        snprintf(out, n, "%s", env);
        return 0;
    }
    FILE *p = popen("python3 -c 'import sys; print(sys.prefix)' 2>/dev/null", "r");
    if (!p) return -1;
    int ok = fgets(out, (int)n, p) != NULL;
    if (pclose(p) != 0 || !ok) return -1;
    out[strcspn(out, "\n")] = '\0';
    return out[0] ? 0 : -1;
}

/* Where `install` puts the kernelspec: the system's, the user's or the active environment's
 * Jupyter data folder, or PREFIX/share/jupyter. */
enum install_where { INSTALL_SYSTEM, INSTALL_USER, INSTALL_SYS_PREFIX, INSTALL_PREFIX };

struct install_options {
    const char *name, *display, *prefix;
    enum install_where where;
};

/* Reads install's options into *o: 0, or 2 (the exit status) after saying what is wrong. */
static int install_options(int argc, char **argv, struct install_options *o)
{
    *o = (struct install_options){"minitorch", "MiniTorch", NULL, INSTALL_SYSTEM};
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--user") == 0) {
            o->where = INSTALL_USER;
        } else if (strcmp(a, "--sys-prefix") == 0) {
            o->where = INSTALL_SYS_PREFIX;
        } else if ((strcmp(a, "--prefix") == 0 || strcmp(a, "--name") == 0 ||
                    strcmp(a, "--display-name") == 0) &&
                   i + 1 < argc) {
            const char *v = argv[++i];
            if (strcmp(a, "--prefix") == 0) {
                o->where = INSTALL_PREFIX;
                o->prefix = v;
            } else if (strcmp(a, "--name") == 0) {
                o->name = v;
            } else {
                o->display = v;
            }
        } else {
            fprintf(stderr, "minitorch-kernel install: unknown or incomplete option '%s'\n%s", a,
                    usage);
            return 2;
        }
    }
    if (!*o->name || strchr(o->name, '/') ||
        strspn(o->name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") !=
            strlen(o->name)) {
        fprintf(stderr,
                "minitorch-kernel install: invalid kernel name '%s' (letters, digits, "
                "'.', '_', '-')\n",
                o->name);
        return 2;
    }
    return 0;
}

/* The Jupyter data folder o names into base: 0, or 1 (the exit status) after saying why not. */
static int install_base(const struct install_options *o, char *base, size_t n)
{
    switch (o->where) {
    case INSTALL_SYSTEM: snprintf(base, n, "/usr/local/share/jupyter"); break;
    case INSTALL_PREFIX: snprintf(base, n, "%s/share/jupyter", o->prefix); break;
    case INSTALL_SYS_PREFIX: {
        char sp[PATH_MAX - 32];
        if (sys_prefix(sp, sizeof sp) != 0) {
            fprintf(stderr, "minitorch-kernel install: --sys-prefix needs an active virtual "
                            "environment (VIRTUAL_ENV) or python3 on PATH\n");
            return 1;
        }
        snprintf(base, n, "%s/share/jupyter", sp);
        break;
    }
    case INSTALL_USER: {
        const char *data = getenv("JUPYTER_DATA_DIR");
        const char *xdg = getenv("XDG_DATA_HOME");
        const char *home = getenv("HOME");
        if (data && *data)
            snprintf(base, n, "%s", data);
        else if (xdg && *xdg)
            snprintf(base, n, "%s/jupyter", xdg);
        else if (home && *home)
            snprintf(base, n, "%s/.local/share/jupyter", home);
        else {
            fprintf(stderr, "minitorch-kernel install: --user needs HOME to be set\n");
            return 1;
        }
        break;
    }
    }
    return 0;
}

/* Writes the kernelspec into folder dst: the template kernel.json of folder src with this
 * executable (exe) as its command and `display` as its name, and the logos. 0, or 1 (the exit
 * status) after saying what failed. */
static int write_kernelspec(const char *exe, const char *src, const char *dst, const char *display)
{
    char path[PATH_MAX + 128];
    snprintf(path, sizeof path, "%s/kernel.json", src);
    json_error_t jerr;
    json_t *spec = json_load_file(path, 0, &jerr);
    if (!spec || !json_is_array(json_object_get(spec, "argv"))) {
        fprintf(stderr, "minitorch-kernel install: bad template %s: %s\n", path,
                spec ? "no argv" : jerr.text);
        json_decref(spec);
        return 1;
    }
    json_array_set_new(json_object_get(spec, "argv"), 0, json_string(exe));
    json_object_set_new(spec, "display_name", json_string(display));
    snprintf(path, sizeof path, "%s/kernel.json", dst);
    int rc = json_dump_file(spec, path, JSON_INDENT(2) | JSON_SORT_KEYS);
    json_decref(spec);
    if (rc != 0) {
        fprintf(stderr, "minitorch-kernel install: cannot write %s\n", path);
        return 1;
    }
    static const char *const logos[] = {"logo-32x32.png", "logo-64x64.png", "logo-svg.svg"};
    for (size_t i = 0; i < sizeof logos / sizeof logos[0]; i++) {
        char from[PATH_MAX + 64], to[PATH_MAX + 128];
        snprintf(from, sizeof from, "%s/%s", src, logos[i]);
        snprintf(to, sizeof to, "%s/%s", dst, logos[i]);
        if (copy_file(from, to) != 0) {
            fprintf(stderr, "minitorch-kernel install: cannot copy %s to %s\n", from, to);
            return 1;
        }
    }
    return 0;
}

static int cmd_install(int argc, char **argv)
{
    struct install_options o;
    int bad = install_options(argc, argv, &o);
    if (bad) return bad;

    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) {
        fprintf(stderr, "minitorch-kernel install: cannot find this executable: %s\n",
                strerror(errno));
        return 1;
    }
    exe[len] = '\0';

    char base[PATH_MAX];
    if (install_base(&o, base, sizeof base) != 0) return 1;

    char src[PATH_MAX], dst[PATH_MAX + 64];
    if (find_kernelspec_source(exe, src, sizeof src) != 0) {
        fprintf(stderr,
                "minitorch-kernel install: cannot find the kernelspec files "
                "(kernel.json and logos) next to %s\n",
                exe);
        return 1;
    }
    snprintf(dst, sizeof dst, "%s/kernels/%s", base, o.name);
    if (mkdir_p(dst) != 0) {
        fprintf(stderr, "minitorch-kernel install: cannot create %s: %s\n", dst, strerror(errno));
        return 1;
    }
    if (write_kernelspec(exe, src, dst, o.display) != 0) return 1;
    printf("Installed kernelspec %s in %s\n", o.name, dst);
    return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* run FILE                                                                                   */

static void print_bundle(FILE *f, json_t *data)
{
    const char *text = json_string_value(json_object_get(data, "text/plain"));
    if (text) fprintf(f, "%s\n", text);
}

static void run_stream(void *ctx, const char *name, const char *text)
{
    (void)ctx;
    FILE *f = strcmp(name, "stderr") == 0 ? stderr : stdout;
    fputs(text, f);
    fflush(f);
}

static void run_display(void *ctx, json_t *data, const char *display_id, bool update)
{
    (void)ctx, (void)display_id, (void)update;
    print_bundle(stdout, data);
}

static void run_page(void *ctx, json_t *data)
{
    (void)ctx;
    print_bundle(stdout, data);
}

static int run_input(void *ctx, const char *prompt, bool password, char **line, const char **why)
{
    (void)ctx, (void)password;
    fputs(prompt, stdout);
    fflush(stdout);
    char *buf = NULL;
    size_t cap = 0;
    ssize_t n = getline(&buf, &cap, stdin);
    if (n < 0) {
        free(buf);
        *why = "end of input";
        return -1;
    }
    if (n > 0 && buf[n - 1] == '\n') buf[n - 1] = '\0';
    *line = buf;
    return 0;
}

static void on_sigint(int sig)
{
    (void)sig;
    mt_cancel_request(); /* async-signal-safe: one atomic store */
}

static int cmd_run(const char *file)
{
    FILE *f = fopen(file, "rb");
    if (!f) {
        fprintf(stderr, "minitorch-kernel run: cannot open %s: %s\n", file, strerror(errno));
        return 2;
    }
    size_t cap = 1 << 16, len = 0;
    char *code = malloc(cap);
    size_t n;
    while (code && (n = fread(code + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (len + 1 == cap) {
            char *bigger = realloc(code, cap *= 2);
            if (!bigger) free(code);
            code = bigger;
        }
    }
    fclose(f);
    if (!code) {
        fprintf(stderr, "minitorch-kernel run: out of memory reading %s\n", file);
        return 1;
    }
    code[len] = '\0';

    struct sigaction sa = {0};
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);

    struct dsl_session *s = dsl_session_new();
    struct dsl_output out = {
        .stream = run_stream,
        .display = run_display,
        .page = run_page,
        .input = run_input,
    };
    int status = 0;
    if (!s) {
        fprintf(stderr, "minitorch-kernel run: out of memory\n");
        status = 1;
    }
    /* a file in the percent format (VS Code's and jupytext's): a line starting with `# %%`
     * begins a cell; the cells run in order in one session, as a notebook's would */
    for (char *cell = code; s && cell && status == 0;) {
        if (strncmp(cell, "# %%", 4) == 0) { /* the marker line is not the cell's */
            char *nl = strchr(cell, '\n');
            cell = nl ? nl + 1 : cell + strlen(cell);
        }
        char *next = strstr(cell, "\n# %%");
        if (next) *next++ = '\0';
        json_t *result = NULL;
        struct dsl_error err = {0};
        if (dsl_execute(s, cell, &out, &result, &err) == 0) {
            if (result) print_bundle(stdout, result);
        } else {
            size_t i;
            json_t *line;
            json_array_foreach(err.traceback, i, line)
                fprintf(stderr, "%s\n", json_string_value(line));
            status = 1;
        }
        json_decref(result);
        dsl_error_clear(&err);
        cell = next;
    }
    dsl_session_free(s);
    free(code);
    return status;
}

/* ---------------------------------------------------------------------------------------- */

/* glibc's malloc raises its mmap threshold each time a large block is freed, after which blocks
 * of that size come from the heap instead of their own mappings. In a long session of mixed
 * cells (a 256 KiB tensor freed between small, longer-lived allocations of autodiff graphs)
 * that heap keeps growing and never shrinks, because the small blocks pin its top. A fixed
 * threshold keeps large blocks mmapped and given back on free (the engine caches the ones it
 * reuses, context.c), so RSS follows what is live; tests/soak/soak.py bounds the growth over a
 * long session. glibc only. */
static void malloc_policy(void)
{
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}

int main(int argc, char **argv)
{
    malloc_policy();
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        fputs(usage, stdout);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
        printf("minitorch-kernel %s (engine %s, Jupyter protocol %s)\n", MT_KERNEL_VERSION,
               mt_version(), JP_PROTOCOL_VERSION);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "install") == 0) return cmd_install(argc - 2, argv + 2);
    if (argc == 3 && strcmp(argv[1], "run") == 0) return cmd_run(argv[2]);
    if (argc == 3 && strcmp(argv[1], "-f") == 0) return jp_server_run(argv[2]);
    if (argc == 2 && strncmp(argv[1], "-f=", 3) == 0) return jp_server_run(argv[1] + 3);
    fputs(usage, stderr);
    return 2;
}
