/* datasets.c — minitorch.datasets: MiniTorch's dict of dataset functions (Simple, Diag, Split,
 * Xor, Circle, Spiral), each drawing a Graph (N, X, y) from the session's generator by the
 * engine's mt_dataset_draw, so that the points are MiniTorch's for the same seed; and Module 4's
 * handwritten digits (minitorch.load_digits), read from the copy scikit-learn ships, and PyTorch's
 * epoch of the course's classifier on them (minitorch.pytorch_digits_epoch). */
#include "lib/modules/module.h"

#include "lib/diagnostics.h"
#include "lib/tensor_methods.h"

#include "pytorch_digits_src.h" /* generated: lib/peers/pytorch_digits.py's bytes */

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

struct graph {
    int64_t N, m; /* as asked, and the points made (spiral: 2 * (N // 2)) */
    double *xs;   /* 2m */
    int *ys;      /* m */
};

static void graph_free(void *state)
{
    struct graph *g = state;
    if (!g) return;
    free(g->xs);
    free(g->ys);
    free(g);
}

static int graph_X(struct graph *g, struct dsl_value *out)
{
    struct dsl_list *l = dsl_list_new((size_t)g->m);
    if (!l) return DSL_V_NOMEM;
    *out = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    for (int64_t k = 0; k < g->m; k++) {
        struct dsl_list *p = dsl_list_new(2);
        if (!p) return DSL_V_NOMEM;
        p->style = DSL_LIST_TUPLE;
        dsl_list_push(p, dsl_float(g->xs[2 * k]));
        dsl_list_push(p, dsl_float(g->xs[2 * k + 1]));
        struct dsl_value pv = {.kind = DSL_LIST, .as.l = p};
        int st = dsl_list_push(l, pv);
        if (st != 0) return st;
    }
    return 0;
}

static int graph_y(struct graph *g, struct dsl_value *out)
{
    struct dsl_list *l = dsl_list_new((size_t)g->m);
    if (!l) return DSL_V_NOMEM;
    *out = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    for (int64_t k = 0; k < g->m; k++) dsl_list_push(l, dsl_int(g->ys[k]));
    return 0;
}

static int graph_repr(struct render_buf *b, const void *state)
{
    struct graph *g = (struct graph *)state;
    render_buf_printf(b, "Graph(N=%lld, X=", (long long)g->N);
    struct dsl_value v = dsl_none();
    int st = graph_X(g, &v);
    if (st == 0) st = dsl_value_repr(b, v);
    dsl_value_release(v);
    render_buf_puts(b, ", y=");
    v = dsl_none();
    if (st == 0) st = graph_y(g, &v);
    if (st == 0) st = dsl_value_repr(b, v);
    dsl_value_release(v);
    render_buf_puts(b, ")");
    return st ? st : b->nomem ? DSL_V_NOMEM : DSL_V_OK;
}

static int graph_getattr(struct dsl_interp *in, struct dsl_value self, const char *name,
                         struct dsl_value *out)
{
    struct graph *g = self.as.obj->state;
    int st;
    if (strcmp(name, "N") == 0) return *out = dsl_int(g->N), 0;
    if (strcmp(name, "X") == 0)
        st = graph_X(g, out);
    else if (strcmp(name, "y") == 0)
        st = graph_y(g, out);
    else
        return dsl_raise(in, "AttributeError",
                         "'Graph' object has no attribute '%s' (it has N, X and y)", name);
    if (st != 0) {
        dsl_value_release(*out);
        *out = dsl_none();
        return dsl_raise_status(in, st);
    }
    return 0;
}

static const char *const graph_attrs[] = {"N", "X", "y", NULL};

static const struct dsl_object_class graph_class = {
    .name = "Graph",
    .doc = "Graph: MiniTorch's dataset record, made by minitorch.datasets[name](N): N, X (a "
           "list of N (x1, x2) tuples of floats, as MiniTorch draws them: the same numbers "
           "for the same seed) and y (a list of N labels, 0 or 1). X and y are new lists at "
           "each lookup: keep them in a variable to change them.",
    .attrs = graph_attrs,
    .free = graph_free,
    .repr = graph_repr,
    .getattr = graph_getattr,
};

static int make_graph(struct dsl_interp *in, const struct dsl_args *a, enum mt_dataset d,
                      struct dsl_value *ret)
{
    int64_t N;
    if (mod_int_arg(in, a->slot[0], &N) != 0) return -1;
    struct mt_ctx *ctx = ctx_of(in);
    int64_t m = d == MT_DATASET_SPIRAL ? 2 * (N / 2) : N;
    struct graph *g = calloc(1, sizeof *g);
    if (g && m > 0 && m <= 100000000) {
        g->xs = malloc((size_t)m * 2 * sizeof *g->xs);
        g->ys = malloc((size_t)m * sizeof *g->ys);
    }
    if (!g || (m > 0 && m <= 100000000 && (!g->xs || !g->ys))) {
        graph_free(g);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    g->N = N;
    g->m = m;
    enum mt_status st = mt_dataset_draw(ctx, d, N, g->xs, g->ys);
    if (st != MT_OK) {
        graph_free(g);
        return dsl_engine_raise(in, st);
    }
    int vs = dsl_object_value(&graph_class, g, ret);
    return vs ? dsl_raise_status(in, vs) : 0;
}

#define DATASET(fname, kind)                                                                       \
    static int ds_##fname(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)  \
    {                                                                                              \
        return make_graph(in, a, kind, ret);                                                       \
    }
DATASET(simple, MT_DATASET_SIMPLE)
DATASET(diag, MT_DATASET_DIAG)
DATASET(split, MT_DATASET_SPLIT)
DATASET(xor, MT_DATASET_XOR)
DATASET(circle, MT_DATASET_CIRCLE)
DATASET(spiral, MT_DATASET_SPIRAL)
#undef DATASET

static const char *const n_params[] = {"N", NULL};
static const struct {
    const char *key;
    struct dsl_builtin row;
} dataset_rows[] = {
    {"Simple", {"simple", "simple(N)", 1, 1, n_params, ds_simple, "label 1 iff x1 < 0.5"}},
    {"Diag", {"diag", "diag(N)", 1, 1, n_params, ds_diag, "label 1 iff x1 + x2 < 0.5"}},
    {"Split", {"split", "split(N)", 1, 1, n_params, ds_split, "label 1 iff x1 < 0.2 or x1 > 0.8"}},
    {"Xor",
     {"xor", "xor(N)", 1, 1, n_params, ds_xor,
      "label 1 iff (x1 < 0.5 and x2 > 0.5) or (x1 > 0.5 and x2 < 0.5)"}},
    {"Circle",
     {"circle", "circle(N)", 1, 1, n_params, ds_circle,
      "label 1 iff (x1 - 0.5)^2 + (x2 - 0.5)^2 > 0.1"}},
    {"Spiral",
     {"spiral", "spiral(N)", 1, 1, n_params, ds_spiral,
      "two arms of N // 2 points each, labels 0 then 1 (draws nothing)"}},
};
#define NDATASETS (sizeof dataset_rows / sizeof dataset_rows[0])

static int datasets_repr(struct render_buf *b, const void *state)
{
    (void)state;
    render_buf_puts(b, "{");
    for (size_t i = 0; i < NDATASETS; i++)
        render_buf_printf(b, "%s'%s': <function %s>", i ? ", " : "", dataset_rows[i].key,
                          dataset_rows[i].row.name);
    render_buf_puts(b, "}");
    return b->nomem ? DSL_V_NOMEM : DSL_V_OK;
}

static int datasets_getitem(struct dsl_interp *in, struct dsl_value self, struct dsl_value key,
                            struct dsl_value *out)
{
    (void)self;
    if (key.kind == DSL_STR)
        for (size_t i = 0; i < NDATASETS; i++)
            if (strcmp(key.as.s->data, dataset_rows[i].key) == 0) {
                *out = (struct dsl_value){.kind = DSL_BUILTIN, .as.fn = &dataset_rows[i].row};
                return 0;
            }
    struct render_buf b;
    render_buf_init(&b, 4096);
    int st = dsl_value_repr(&b, key);
    if (dsl_text_error_drop(in, st)) { /* a key whose repr raises: as dsl_dict_raise_key */
        render_buf_free(&b);
        render_buf_puts(&b, DSL_STR_FAILED);
    } else if (st == DSL_V_RAISED) {
        render_buf_free(&b);
        return -1;
    }
    int r = dsl_raise(in, "KeyError",
                      "%s (the datasets are 'Simple', 'Diag', 'Split', 'Xor', 'Circle', "
                      "'Spiral')",
                      render_buf_str(&b));
    render_buf_free(&b);
    return r;
}

/* datasets.keys(): the names, as a list (MiniTorch's app lists them so) */
static int datasets_keys(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)a;
    struct dsl_list *l = dsl_list_new(NDATASETS);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    *ret = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    for (size_t i = 0; i < NDATASETS; i++) {
        struct dsl_value k;
        int st = dsl_str_value(dataset_rows[i].key, strlen(dataset_rows[i].key), &k);
        if (st == 0) st = dsl_list_push(l, k);
        if (st != 0) {
            dsl_value_release(*ret);
            *ret = dsl_none();
            return dsl_raise_status(in, st);
        }
    }
    return 0;
}

static const struct dsl_builtin datasets_keys_row = {
    "keys",
    "datasets.keys()",
    0,
    0,
    NULL,
    datasets_keys,
    "The names of the six datasets, as a list: Simple, Diag, Split, Xor, Circle, Spiral."};

static int datasets_getattr(struct dsl_interp *in, struct dsl_value self, const char *name,
                            struct dsl_value *out)
{
    if (strcmp(name, "keys") == 0) return mod_bound(in, &datasets_keys_row, self, out);
    return dsl_raise(in, "AttributeError", "'dict' object has no attribute '%s'", name);
}

static const char *const datasets_attrs[] = {"keys", NULL};

const struct dsl_object_class mod_datasets_class = {
    .name = "dict",
    .doc = "minitorch.datasets: MiniTorch's dict of dataset functions, "
           "minitorch.datasets[\"Xor\"](N) giving a Graph (N, X, y) drawn from the session's "
           "generator. The kernel's own dataset(name, n) gives the same points as tensors.",
    .attrs = datasets_attrs,
    .free = mod_free_nothing,
    .repr = datasets_repr,
    .getattr = datasets_getattr,
    .getitem = datasets_getitem,
};

int mod_datasets_value(struct dsl_interp *in, struct dsl_value *out)
{
    int st = dsl_object_value(&mod_datasets_class, NULL, out);
    return st ? dsl_raise_status(in, st) : 0;
}

/* ---- Module 4's handwritten digits ------------------------------------------------------ *
 *
 * The 1797 8x8 images of scikit-learn's load_digits (the test set of UCI's "Optical Recognition
 * of Handwritten Digits", CC BY 4.0): each pixel a count 0..16 of the dark points in a 4x4
 * block of a 32x32 bitmap. scikit-learn ships them in its package as
 * sklearn/datasets/data/digits.csv.gz, one image per line, 64 pixels then the label; the
 * kernel reads that file where an installed scikit-learn keeps it, never from the network. */

#define DIGITS_N 1797
#define DIGITS_SIDE 8
#define DIGITS_FILE "sklearn/datasets/data/digits.csv.gz"

/* Where to look, in order: $MINITORCH_DIGITS (the file itself), then scikit-learn in the
 * project's .venv (where `make lab` installs it), then a system's Python (Debian's
 * python3-sklearn, Colab's pip). Patterns for glob(3). */
static const char *const digits_places[] = {
#ifdef MT_SOURCE_DIR
    MT_SOURCE_DIR "/.venv/lib/python3*/site-packages/" DIGITS_FILE,
#endif
    "/usr/lib/python3/dist-packages/" DIGITS_FILE,
    "/usr/local/lib/python3*/dist-packages/" DIGITS_FILE,
    "/usr/local/lib/python3*/site-packages/" DIGITS_FILE,
    "/usr/lib/python3*/site-packages/" DIGITS_FILE,
};

/* The first file of digits_places that exists, malloc'd; NULL when none. */
static char *digits_path(void)
{
    const char *env = getenv("MINITORCH_DIGITS");
    if (env && *env) return strdup(env);
    for (size_t i = 0; i < sizeof digits_places / sizeof *digits_places; i++) {
        glob_t g;
        if (glob(digits_places[i], 0, NULL, &g) == 0 && g.gl_pathc > 0) {
            char *p = strdup(g.gl_pathv[g.gl_pathc - 1]); /* the newest Python's, by name */
            globfree(&g);
            return p;
        }
        globfree(&g);
    }
    return NULL;
}

/* Reads the gzipped CSV at path into pixels (DIGITS_N * 64 counts) and labels: NULL, or what
 * was wrong with the file. */
static const char *digits_read(const char *path, unsigned char *pixels, unsigned char *labels)
{
    gzFile f = gzopen(path, "rb");
    if (!f) return "it cannot be opened";
    char line[1024];
    const char *err = NULL;
    int n = 0;
    while (!err && gzgets(f, line, sizeof line)) {
        if (line[0] == '\n' || line[0] == '\0') continue;
        if (n == DIGITS_N) {
            err = "it has more than 1797 images";
            break;
        }
        char *p = line;
        for (int k = 0; k <= 64 && !err; k++) {
            char *end;
            long v = strtol(p, &end, 10);
            /* the file writes each count as a float ("0.0"): its integer part, checked whole */
            if (end != p && *end == '.') {
                char *frac = end + 1;
                while (*frac == '0') frac++;
                end = frac;
            }
            if (end == p || v < 0 || v > (k < 64 ? 16 : 9) ||
                (k < 64 ? *end != ',' : (*end != '\n' && *end != '\r' && *end != '\0')))
                err = "a line is not 64 counts 0..16 and a label 0..9";
            else if (k < 64)
                pixels[n * 64 + k] = (unsigned char)v;
            else
                labels[n] = (unsigned char)v;
            p = end + 1;
        }
        n++;
    }
    if (!err && n != DIGITS_N) err = "it has fewer than 1797 images";
    gzclose(f);
    return err;
}

/* The file's contents, read once per process (every session shares them, read-only). */
static struct {
    pthread_mutex_t lock;
    bool loaded;
    unsigned char pixels[DIGITS_N * 64], labels[DIGITS_N];
} digits = {.lock = PTHREAD_MUTEX_INITIALIZER};

static int digits_load(struct dsl_interp *in)
{
    pthread_mutex_lock(&digits.lock);
    if (digits.loaded) {
        pthread_mutex_unlock(&digits.lock);
        return 0;
    }
    char *path = digits_path();
    const char *err = path ? digits_read(path, digits.pixels, digits.labels) : NULL;
    digits.loaded = path && !err;
    pthread_mutex_unlock(&digits.lock);
    int r = 0;
    if (!path)
        r = dsl_raise(in, "FileNotFoundError",
                      "load_digits() reads the digits scikit-learn ships (" DIGITS_FILE
                      "), and no scikit-learn is installed where the kernel looks: run `make "
                      "lab` (it installs scikit-learn into .venv), `pip install scikit-learn`, "
                      "or set MINITORCH_DIGITS to the path of digits.csv.gz");
    else if (err)
        r = dsl_raise(in, "ValueError", "load_digits(): %s is not scikit-learn's digits: %s", path,
                      err);
    free(path);
    return r;
}

/* minitorch.load_digits(): (images, labels), MiniTorch's make_mnist's inputs for 8x8 digits */
int mod_load_digits(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)a;
    if (digits_load(in) != 0) return -1;
    struct dsl_list *images = dsl_list_new(DIGITS_N), *labels = dsl_list_new(DIGITS_N);
    struct dsl_list *pair = dsl_list_new(2);
    int st = images && labels && pair ? DSL_V_OK : DSL_V_NOMEM;
    for (int i = 0; i < DIGITS_N && st == DSL_V_OK; i++) {
        struct dsl_list *img = dsl_list_new(DIGITS_SIDE);
        st = img ? dsl_list_push(images, (struct dsl_value){.kind = DSL_LIST, .as.l = img})
                 : DSL_V_NOMEM;
        for (int r = 0; r < DIGITS_SIDE && st == DSL_V_OK; r++) {
            struct dsl_list *row = dsl_list_new(DIGITS_SIDE);
            st = row ? dsl_list_push(img, (struct dsl_value){.kind = DSL_LIST, .as.l = row})
                     : DSL_V_NOMEM;
            for (int c = 0; c < DIGITS_SIDE && st == DSL_V_OK; c++)
                st = dsl_list_push(row, dsl_float(digits.pixels[i * 64 + r * DIGITS_SIDE + c]));
        }
        if (st == DSL_V_OK) st = dsl_list_push(labels, dsl_int(digits.labels[i]));
    }
    if (pair) pair->style = DSL_LIST_TUPLE;
    if (st == DSL_V_OK) {
        dsl_list_push(pair, (struct dsl_value){.kind = DSL_LIST, .as.l = images});
        dsl_list_push(pair, (struct dsl_value){.kind = DSL_LIST, .as.l = labels});
        *ret = (struct dsl_value){.kind = DSL_LIST, .as.l = pair};
        return 0;
    }
    struct dsl_list *made[3] = {images, labels, pair};
    for (int k = 0; k < 3; k++)
        if (made[k]) dsl_value_release((struct dsl_value){.kind = DSL_LIST, .as.l = made[k]});
    return dsl_raise_status(in, st);
}

/* ---- PyTorch's epoch of the same classifier --------------------------------------------- *
 *
 * minitorch.pytorch_digits_epoch() times the course notebook's digit classifier in PyTorch on
 * this machine, so that a student sees the kernel's epoch beside PyTorch's, measured the same
 * way in the same minutes. The kernel cannot run PyTorch itself: it runs its own file
 * (lib/peers/pytorch_digits.py, built in) under a Python that has PyTorch, with the same digits
 * file and thread count, and reads back what that prints. No code of the notebook's runs there:
 * the file and its three numbers are all the child gets. */

extern char **environ;

/* Longest run to wait for: an epoch takes well under a second, PyTorch's import a few. */
#define PEER_LIMIT_S 300.0
/* Most output kept: the result's two lines, or the end of a traceback to show. */
#define PEER_OUT 16384

struct peer_run {
    char out[PEER_OUT + 1]; /* what it printed, its end where it printed more */
    size_t len;
    int status;     /* waitpid's */
    bool cancelled; /* the user interrupted the cell: the child was killed */
    bool timed_out; /* it ran past PEER_LIMIT_S: killed */
};

/* Keeps n (at most PEER_OUT) more bytes of output, dropping the oldest past PEER_OUT. */
static void peer_keep(struct peer_run *r, const char *buf, size_t n)
{
    if (r->len + n > PEER_OUT) {
        size_t drop = r->len + n - PEER_OUT;
        memmove(r->out, r->out + drop, r->len - drop);
        r->len -= drop;
    }
    memcpy(r->out + r->len, buf, n);
    r->len += n;
    r->out[r->len] = 0;
}

/* Runs argv (argv[0] found as execvp finds it), stdin /dev/null, stdout and stderr into r, the
 * kernel's own files closed: 0, or the errno that kept it from starting. An interrupt of the
 * cell or PEER_LIMIT_S kills it. */
static int peer_run(char *const *argv, struct peer_run *r)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return errno;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    posix_spawn_file_actions_addclosefrom_np(&fa, 3); /* none of the kernel's sockets */
#endif
    pid_t pid;
    int err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (err != 0) {
        close(fds[0]);
        return err;
    }
    r->len = 0;
    r->out[0] = 0;
    r->cancelled = r->timed_out = false;
    double start = mt_now_s();
    for (;;) {
        struct pollfd p = {.fd = fds[0], .events = POLLIN};
        int k = poll(&p, 1, 100);
        if (k > 0) {
            char buf[4096];
            ssize_t n = read(fds[0], buf, sizeof buf);
            if (n == 0) break; /* it closed its output: it has ended, or is ending */
            if (n > 0) peer_keep(r, buf, (size_t)n);
            if (n < 0 && errno != EINTR && errno != EAGAIN) break;
        } else if (k < 0 && errno != EINTR) {
            break;
        }
        if (mt_cancel_requested()) r->cancelled = true;
        if (mt_now_s() - start > PEER_LIMIT_S) r->timed_out = true;
        if (r->cancelled || r->timed_out) {
            kill(pid, SIGKILL);
            break;
        }
    }
    close(fds[0]);
    /* it may close its output and run on: the interrupt and the limit hold until it ends */
    for (bool killed = r->cancelled || r->timed_out;;) {
        pid_t w = waitpid(pid, &r->status, killed ? 0 : WNOHANG);
        if (w == pid) break;
        if (w < 0 && errno != EINTR) {
            r->status = 0;
            break;
        }
        if (w != 0) continue;
        if (mt_cancel_requested()) r->cancelled = true;
        if (mt_now_s() - start > PEER_LIMIT_S) r->timed_out = true;
        if (r->cancelled || r->timed_out) {
            kill(pid, SIGKILL);
            killed = true;
        } else {
            nanosleep(&(struct timespec){.tv_nsec = 10 * 1000 * 1000}, NULL);
        }
    }
    return 0;
}

/* The text after `key ` on the first line of out that starts with it, up to the line's end
 * (*end), or NULL. */
static const char *peer_line(const char *out, const char *key, const char **end)
{
    size_t n = strlen(key);
    for (const char *p = out; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (strncmp(p, key, n) == 0 && p[n] == ' ') {
            *end = p + strcspn(p, "\n");
            return p + n + 1;
        }
    return NULL;
}

/* The Pythons to ask in turn: $MINITORCH_TORCH_PYTHON alone where set; else the python3 the
 * kernel's PATH finds (a venv's, where the lab runs), then the system's (Debian's
 * python3-torch lives there). */
static const char *const peer_pythons[] = {"python3", "/usr/bin/python3"};

/* minitorch.pytorch_digits_epoch(epochs=3): (median ms of PyTorch's epoch, torch's version) */
int mod_pytorch_digits_epoch(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    int64_t epochs = 3;
    if (a->has[0] && mod_int_arg(in, a->slot[0], &epochs) != 0) return -1;
    if (epochs < 1 || epochs > 50)
        return dsl_raise(in, "ValueError",
                         "pytorch_digits_epoch(epochs=%lld): epochs is 1 to 50, the timed "
                         "epochs after one untimed",
                         (long long)epochs);
    if (digits_load(in) != 0) return -1;
    char *path = digits_path();
    if (!path) return dsl_raise_status(in, DSL_V_NOMEM);
    char threads[24], count[24];
    snprintf(threads, sizeof threads, "%d", mt_ctx_threads(in->session->ctx));
    snprintf(count, sizeof count, "%lld", (long long)epochs);
    const char *env = getenv("MINITORCH_TORCH_PYTHON");
    const char *const only[] = {env};
    const char *const *pythons = env && *env ? only : peer_pythons;
    size_t npythons = env && *env ? 1 : sizeof peer_pythons / sizeof *peer_pythons;
    struct peer_run *r = malloc(sizeof *r);
    if (!r) {
        free(path);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    struct render_buf tried;
    render_buf_init(&tried, 1024);
    int result = 1; /* 1: no Python with PyTorch found yet */
    for (size_t i = 0; i < npythons && result == 1; i++) {
        char *argv[] = {
            (char *)pythons[i], "-c", (char *)pytorch_digits_src, path, threads, count, NULL};
        render_buf_printf(&tried, "%s%s", i ? ", " : "", pythons[i]);
        int err = peer_run(argv, r);
        if (err != 0) {
            render_buf_printf(&tried, " (%s)", strerror(err));
            continue;
        }
        if (r->cancelled) {
            result = dsl_raise(in, "KeyboardInterrupt", "PyTorch's run (%s) stopped", pythons[i]);
        } else if (r->timed_out) {
            result = dsl_raise(in, "TimeoutError",
                               "pytorch_digits_epoch(): PyTorch (%s) took over %g s, and was "
                               "stopped",
                               pythons[i], PEER_LIMIT_S);
        } else if (WIFEXITED(r->status) && WEXITSTATUS(r->status) == 3 &&
                   strncmp(r->out, "no PyTorch", 10) == 0) {
            render_buf_printf(&tried, " (no torch)");
        } else {
            const char *vend = NULL, *tend = NULL;
            const char *version = peer_line(r->out, "torch", &vend);
            const char *times = version ? peer_line(vend, "epoch_ms", &tend) : NULL;
            double ms[50];
            size_t n = 0;
            for (const char *p = times; p && p < tend;) {
                char *next;
                double v = strtod(p, &next);
                if (next == p || next > tend || n == (size_t)epochs) {
                    n = 0; /* not the line the script prints */
                    break;
                }
                ms[n++] = v;
                p = next + strspn(next, " ");
            }
            if (!WIFEXITED(r->status) || WEXITSTATUS(r->status) != 0 || n != (size_t)epochs) {
                size_t len = r->len;
                while (len && (r->out[len - 1] == '\n' || r->out[len - 1] == ' ')) len--;
                size_t from = len > 600 ? len - 600 : 0;
                bool ran = WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0;
                result = dsl_raise(in, "RuntimeError",
                                   "pytorch_digits_epoch(): PyTorch's run (%s) %s: %.*s",
                                   pythons[i], ran ? "printed no times of its epochs" : "failed",
                                   (int)(len - from), r->out + from);
            } else {
                double median = dsl_median(ms, n);
                struct dsl_value v;
                struct dsl_list *pair = dsl_list_new(2);
                if (!pair || dsl_str_value(version, (size_t)(vend - version), &v) != DSL_V_OK) {
                    if (pair) dsl_value_release((struct dsl_value){.kind = DSL_LIST, .as.l = pair});
                    result = dsl_raise_status(in, DSL_V_NOMEM);
                } else {
                    pair->style = DSL_LIST_TUPLE;
                    dsl_list_push(pair, dsl_float(median));
                    dsl_list_push(pair, v);
                    *ret = (struct dsl_value){.kind = DSL_LIST, .as.l = pair};
                    result = 0;
                }
            }
        }
    }
    if (result == 1)
        result = dsl_raise(in, "ModuleNotFoundError",
                           "pytorch_digits_epoch() runs PyTorch beside the kernel, and no Python "
                           "here has it (tried %s): install it (Debian: apt install "
                           "python3-torch; pip install torch), or set MINITORCH_TORCH_PYTHON to "
                           "a Python that has it",
                           render_buf_str(&tried));
    render_buf_free(&tried);
    free(r);
    free(path);
    return result;
}
