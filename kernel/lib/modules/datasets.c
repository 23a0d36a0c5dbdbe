/* datasets.c — minitorch.datasets: MiniTorch's dict of dataset functions (Simple, Diag, Split,
 * Xor, Circle, Spiral), each drawing a Graph (N, X, y) from the session's generator by the
 * engine's mt_dataset_draw, so that the points are MiniTorch's for the same seed. */
#include "lib/modules/module.h"

#include "lib/tensor_methods.h"

#include <stdlib.h>
#include <string.h>

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
