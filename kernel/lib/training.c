/* training.c — MiniTorch's datasets, models and SGD as language objects (train() comes with
 * the training issue).
 *
 * dataset(name, n=50, seed=none) draws the points from the session's random generator, as
 * MiniTorch's scripts draw them from Python's global `random`: with a seed the generator is
 * seeded first (random.seed(seed)), so what is drawn next (a model's weights) follows the same
 * sequence as in MiniTorch. The object shows as a summary line and a scatter plot of the two
 * classes in MiniTorch's colours; ds.X (n, 2) and ds.y (n,) are its tensors, shared, not
 * copied, so a change through one name is seen through the other as in MiniTorch. */
#include "lib/training.h"

#include "lang/interp.h"
#include "lib/tensor_methods.h"
#include "render/chart.h"
#include "render/render.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct dataset {
    enum mt_dataset kind;
    int64_t n;           /* points */
    int64_t ones;        /* points of class 1 */
    struct mt_tensor *X; /* (n, 2) */
    struct mt_tensor *y; /* (n,) */
};

static void dataset_free(void *state)
{
    struct dataset *d = state;
    if (!d) return;
    mt_tensor_release(d->X);
    mt_tensor_release(d->y);
    free(d);
}

static int dataset_repr(struct render_buf *b, const void *state)
{
    const struct dataset *d = state;
    render_buf_printf(b, "dataset('%s', n=%lld): %lld points, %lld of class 1, %lld of class 0",
                      mt_dataset_name(d->kind), (long long)d->n, (long long)d->n,
                      (long long)d->ones, (long long)(d->n - d->ones));
    return b->nomem ? DSL_V_NOMEM : DSL_V_OK;
}

static const char *const dataset_attrs[] = {"X", "y", "n", "name", "batches", NULL};

/* ds.batches(size=10): one epoch's batches as train() makes them — the points shuffled with the
 * session's generator (MiniTorch's random.shuffle of list(zip(X, y))), cut into [x, y] pairs of
 * `size` points (the last may be smaller) — so that a loop written by hand draws exactly what
 * train() draws. */
static int dataset_batches(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    const struct dataset *d = a->self.as.obj->state;
    int64_t size = 10;
    if (a->has[0]) {
        if (!dsl_is_intlike(a->slot[0]) || dsl_as_int(a->slot[0]) < 1)
            return dsl_raise(in, "ValueError", "batches(): size must be an integer >= 1");
        size = dsl_as_int(a->slot[0]);
    }
    if (size > d->n) size = d->n;
    struct mt_ctx *ctx = in->session->ctx;
    int64_t *perm = malloc((size_t)d->n * sizeof *perm);
    float *X = malloc((size_t)d->n * 2 * sizeof *X), *y = malloc((size_t)d->n * sizeof *y),
          *xb = malloc((size_t)size * 2 * sizeof *xb), *yb = malloc((size_t)size * sizeof *yb);
    struct dsl_list *l = dsl_list_new((size_t)((d->n + size - 1) / size));
    int r = 0;
    if (!perm || !X || !y || !xb || !yb || !l) {
        r = dsl_raise_status(in, DSL_V_NOMEM);
        goto out;
    }
    mt_tensor_copy_out(d->X, X);
    mt_tensor_copy_out(d->y, y);
    for (int64_t i = 0; i < d->n; i++) perm[i] = i;
    mt_shuffle(ctx, perm, d->n);
    for (int64_t b0 = 0; b0 < d->n && r == 0; b0 += size) {
        int64_t bs = d->n - b0 < size ? d->n - b0 : size, xs[2] = {bs, 2};
        for (int64_t i = 0; i < bs; i++) {
            xb[2 * i] = X[2 * perm[b0 + i]];
            xb[2 * i + 1] = X[2 * perm[b0 + i] + 1];
            yb[i] = y[perm[b0 + i]];
        }
        struct mt_tensor *tx = NULL, *ty = NULL;
        enum mt_status st = mt_from_data(ctx, d->X->backend, 2, xs, xb, &tx);
        if (st == MT_OK) st = mt_from_data(ctx, d->y->backend, 1, &bs, yb, &ty);
        struct dsl_list *pair = st == MT_OK ? dsl_list_new(2) : NULL;
        if (st != MT_OK || !pair) {
            mt_tensor_release(tx);
            mt_tensor_release(ty);
            r = st != MT_OK ? dsl_engine_raise(in, st) : dsl_raise_status(in, DSL_V_NOMEM);
            break;
        }
        dsl_list_push(pair, dsl_tensor(tx)); /* room was reserved: the pushes cannot fail */
        dsl_list_push(pair, dsl_tensor(ty));
        dsl_list_push(l, (struct dsl_value){.kind = DSL_LIST, .as.l = pair});
    }
out:
    free(perm);
    free(X);
    free(y);
    free(xb);
    free(yb);
    if (r != 0) {
        if (l) dsl_value_release((struct dsl_value){.kind = DSL_LIST, .as.l = l});
        return r;
    }
    *ret = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    return 0;
}

static const char *const batches_params[] = {"size", NULL};
static const struct dsl_builtin dataset_methods[] = {
    {"batches", "ds.batches(size=10)", 0, 1, batches_params, dataset_batches,
     "One epoch's batches as train() draws them: the points shuffled with the session's "
     "generator (as MiniTorch's random.shuffle), cut into [x, y] pairs of `size` points; the "
     "last may be smaller."},
};

static int dataset_getattr(struct dsl_interp *in, struct dsl_value self, const char *name,
                           struct dsl_value *out)
{
    const struct dataset *d = self.as.obj->state;
    if (strcmp(name, "X") == 0) {
        *out = dsl_tensor(mt_tensor_retain(d->X));
        return 0;
    }
    if (strcmp(name, "y") == 0) {
        *out = dsl_tensor(mt_tensor_retain(d->y));
        return 0;
    }
    if (strcmp(name, "n") == 0) {
        *out = dsl_int(d->n);
        return 0;
    }
    if (strcmp(name, "batches") == 0) {
        int st = dsl_method_value(&dataset_methods[0], self, out);
        return st ? dsl_raise_status(in, st) : 0;
    }
    if (strcmp(name, "name") == 0) {
        const char *s = mt_dataset_name(d->kind);
        int st = dsl_str_value(s, strlen(s), out);
        return st ? dsl_raise_status(in, st) : 0;
    }
    return dsl_raise(in, "AttributeError",
                     "'dataset' object has no attribute '%s' (it has X, y, n, name and batches())",
                     name);
}

/* A scatter plot of more points than this shows the first ones only (and says so): a chart is
 * for looking at, and a million points would be a 50 MB message. */
#define PLOT_MAX_POINTS 5000

static json_t *dataset_bundle(const void *state, const char *renderer)
{
    const struct dataset *d = state;
    float *xy = malloc((size_t)d->n * 2 * sizeof *xy),
          *label = malloc((size_t)d->n * sizeof *label);
    json_t *bundle = NULL;
    if (xy && label) {
        mt_tensor_copy_out(d->X, xy);
        mt_tensor_copy_out(d->y, label);
        char title[96];
        int64_t shown = d->n < PLOT_MAX_POINTS ? d->n : PLOT_MAX_POINTS;
        if (shown < d->n)
            snprintf(title, sizeof title, "%s, the first %lld of %lld points",
                     mt_dataset_name(d->kind), (long long)shown, (long long)d->n);
        else
            snprintf(title, sizeof title, "%s, %lld points", mt_dataset_name(d->kind),
                     (long long)d->n);
        struct chart_points c = {.title = title, .n = (size_t)shown, .xy = xy, .label = label};
        bundle = chart_points_bundle(renderer, &c);
    }
    free(xy);
    free(label);
    return bundle;
}

const struct dsl_object_class dsl_dataset_class = {
    .name = "dataset",
    .doc = "dataset: one of MiniTorch's 2-D classification sets, made by dataset(name, n, seed). "
           "ds.X is the (n, 2) tensor of points in [0, 1)^2, ds.y the (n,) tensor of labels 0.0 "
           "or 1.0, ds.n the number of points, ds.name the set's name. Displayed, it is a "
           "scatter plot of the two classes.",
    .attrs = dataset_attrs,
    .free = dataset_free,
    .repr = dataset_repr,
    .getattr = dataset_getattr,
    .bundle = dataset_bundle,
};

int dsl_bi_dataset(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct mt_ctx *ctx = in->session->ctx;
    struct dsl_value name = a->slot[0];
    if (name.kind != DSL_STR)
        return dsl_raise(in, "TypeError",
                         "dataset(): name must be a string such as \"xor\", not %s",
                         dsl_type_name(name));
    enum mt_dataset kind;
    enum mt_status st = mt_dataset_parse(ctx, name.as.s->data, &kind);
    if (st) return dsl_engine_raise(in, st);
    int64_t n = 50;
    if (a->has[1] && a->slot[1].kind != DSL_NONE) {
        if (!dsl_is_intlike(a->slot[1]))
            return dsl_raise(in, "TypeError", "dataset(): n must be an integer, not %s",
                             dsl_type_name(a->slot[1]));
        n = dsl_as_int(a->slot[1]);
    }
    if (a->has[2] && a->slot[2].kind != DSL_NONE &&
        dsl_seed_value(in, a->slot[2], "dataset", "seed") != 0)
        return -1;
    struct dataset *d = calloc(1, sizeof *d);
    if (!d) return dsl_raise_status(in, DSL_V_NOMEM);
    d->kind = kind;
    st = mt_dataset_make(ctx, mt_ctx_backend(ctx), kind, n, &d->X, &d->y);
    if (st) {
        dataset_free(d);
        return dsl_engine_raise(in, st);
    }
    d->n = d->X->shape[0];
    float *label = malloc((size_t)d->n * sizeof *label);
    if (!label) {
        dataset_free(d);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    mt_tensor_copy_out(d->y, label);
    for (int64_t i = 0; i < d->n; i++) d->ones += label[i] != 0.0f;
    free(label);
    int vs = dsl_object_value(&dsl_dataset_class, d, ret);
    return vs ? dsl_raise_status(in, vs) : 0;
}

/* ---- models ------------------------------------------------------------------------------ */

/* linear(in, out): one Linear layer. mlp(in, hidden, out): MiniTorch's Network, Linear -> ReLU
 * -> Linear -> ReLU -> Linear -> sigmoid. Weights are drawn at creation from the session's
 * generator in MiniTorch's order (layer by layer, row-major), so after the same seed and the
 * same dataset the network starts from MiniTorch's weights. */
#define MAX_LAYERS 3

struct model {
    int nlayers;
    bool mlp;
    int64_t in, hidden, out;
    struct mt_linear layers[MAX_LAYERS];
};

static void model_free(void *state)
{
    struct model *m = state;
    if (!m) return;
    for (int i = 0; i < m->nlayers; i++) mt_linear_free(&m->layers[i]);
    free(m);
}

static int model_repr(struct render_buf *b, const void *state)
{
    const struct model *m = state;
    if (m->mlp)
        render_buf_printf(b,
                          "mlp(%lld, %lld, %lld): Linear(%lld, %lld) -> ReLU -> Linear(%lld, %lld) "
                          "-> ReLU -> Linear(%lld, %lld) -> sigmoid, %lld parameters",
                          (long long)m->in, (long long)m->hidden, (long long)m->out,
                          (long long)m->in, (long long)m->hidden, (long long)m->hidden,
                          (long long)m->hidden, (long long)m->hidden, (long long)m->out,
                          (long long)(m->in * m->hidden + m->hidden + m->hidden * m->hidden +
                                      m->hidden + m->hidden * m->out + m->out));
    else
        render_buf_printf(b, "linear(%lld, %lld): x @ weight + bias, %lld parameters",
                          (long long)m->in, (long long)m->out,
                          (long long)(m->in * m->out + m->out));
    return b->nomem ? DSL_V_NOMEM : DSL_V_OK;
}

/* The model's forward pass on x (batch, in): differentiable. */
static int model_forward(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    const struct model *m = a->self.as.obj->state;
    struct dsl_value x = a->slot[0];
    if (x.kind != DSL_TENSOR)
        return dsl_raise(in, "TypeError", "a model takes a tensor of shape (batch, %lld), not %s",
                         (long long)m->in, dsl_type_name(x));
    struct mt_ctx *ctx = in->session->ctx;
    struct mt_tensor *h = mt_tensor_retain(x.as.t);
    enum mt_status st = MT_OK;
    for (int i = 0; i < m->nlayers && st == MT_OK; i++) {
        struct mt_tensor *z = NULL, *act = NULL;
        st = mt_linear_forward(ctx, &m->layers[i], h, &z);
        if (st == MT_OK && m->mlp)
            st = i + 1 < m->nlayers ? mt_relu(ctx, z, &act) : mt_sigmoid(ctx, z, &act);
        else if (st == MT_OK)
            act = mt_tensor_retain(z);
        mt_tensor_release(z);
        mt_tensor_release(h);
        h = act;
    }
    if (st) {
        mt_tensor_release(h);
        return dsl_engine_raise(in, st);
    }
    *ret = dsl_tensor(h);
    return 0;
}

/* model.parameters(): the weight and bias of every layer in order, as MiniTorch's
 * Module.parameters() lists them; the very tensors the model uses. */
static int model_parameters(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    const struct model *m = a->self.as.obj->state;
    struct dsl_list *l = dsl_list_new((size_t)m->nlayers * 2);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    for (int i = 0; i < m->nlayers; i++) {
        /* room was reserved: the pushes cannot fail */
        dsl_list_push(l, dsl_tensor(mt_tensor_retain(m->layers[i].weight)));
        dsl_list_push(l, dsl_tensor(mt_tensor_retain(m->layers[i].bias)));
    }
    *ret = (struct dsl_value){.kind = DSL_LIST, .as.l = l};
    return 0;
}

static const char *const forward_params[] = {"x", NULL};
static const struct dsl_builtin model_call = {
    "model",
    "model(x)",
    1,
    1,
    forward_params,
    model_forward,
    "The model's output for the batch x of shape (batch, in): differentiable, so "
    "loss.backward() fills the parameters' grad."};
static const struct dsl_builtin model_methods[] = {
    {"parameters", "model.parameters()", 0, 0, NULL, model_parameters,
     "The model's parameters (each layer's weight (in, out) then bias (out,)) as a list of the "
     "tensors the model uses, for sgd(model.parameters(), rate)."},
};

static const char *const model_attrs[] = {"parameters", "layers", NULL};

static int model_getattr(struct dsl_interp *in, struct dsl_value self, const char *name,
                         struct dsl_value *out)
{
    const struct model *m = self.as.obj->state;
    if (strcmp(name, "parameters") == 0) {
        int st = dsl_method_value(&model_methods[0], self, out);
        return st ? dsl_raise_status(in, st) : 0;
    }
    if (strcmp(name, "layers") == 0) {
        *out = dsl_int(m->nlayers);
        return 0;
    }
    return dsl_raise(in, "AttributeError",
                     "'%s' object has no attribute '%s' (it has parameters() and layers)",
                     self.as.obj->cls->name, name);
}

const struct dsl_object_class dsl_model_class = {
    .name = "model",
    .doc = "model: a network made by linear(in, out) or mlp(in, hidden, out). model(x) runs it "
           "on a batch x of shape (batch, in); model.parameters() lists its weights and biases "
           "(leaf tensors with requires_grad), model.layers counts its Linear layers.",
    .attrs = model_attrs,
    .free = model_free,
    .repr = model_repr,
    .getattr = model_getattr,
    .call = &model_call,
};

static int size_arg(struct dsl_interp *in, const char *fn, const char *what, struct dsl_value v,
                    int64_t *out)
{
    if (!dsl_is_intlike(v))
        return dsl_raise(in, "TypeError", "%s(): %s must be an integer, not %s", fn, what,
                         dsl_type_name(v));
    *out = dsl_as_int(v);
    if (*out < 1 || *out > (1 << 20))
        return dsl_raise(in, "ValueError", "%s(): %s must be from 1 to %d, not %lld", fn, what,
                         1 << 20, (long long)*out);
    return 0;
}

static int make_model(struct dsl_interp *in, struct model *m, struct dsl_value *ret)
{
    struct mt_ctx *ctx = in->session->ctx;
    int64_t sizes[MAX_LAYERS + 1] = {m->in, m->hidden, m->hidden, m->out};
    if (!m->mlp) sizes[1] = m->out;
    for (int i = 0; i < m->nlayers; i++) {
        enum mt_status st =
            mt_linear_init(ctx, mt_ctx_backend(ctx), sizes[i], sizes[i + 1], &m->layers[i]);
        if (st) {
            model_free(m);
            return dsl_engine_raise(in, st);
        }
    }
    int vs = dsl_object_value(&dsl_model_class, m, ret);
    return vs ? dsl_raise_status(in, vs) : 0;
}

int dsl_bi_linear(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct model *m = calloc(1, sizeof *m);
    if (!m) return dsl_raise_status(in, DSL_V_NOMEM);
    if (size_arg(in, "linear", "in", a->slot[0], &m->in) != 0 ||
        size_arg(in, "linear", "out", a->slot[1], &m->out) != 0) {
        free(m);
        return -1;
    }
    m->nlayers = 1;
    return make_model(in, m, ret);
}

int dsl_bi_mlp(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct model *m = calloc(1, sizeof *m);
    if (!m) return dsl_raise_status(in, DSL_V_NOMEM);
    if (size_arg(in, "mlp", "in", a->slot[0], &m->in) != 0 ||
        size_arg(in, "mlp", "hidden", a->slot[1], &m->hidden) != 0 ||
        size_arg(in, "mlp", "out", a->slot[2], &m->out) != 0) {
        free(m);
        return -1;
    }
    m->nlayers = 3;
    m->mlp = true;
    return make_model(in, m, ret);
}

/* ---- SGD ----------------------------------------------------------------------------------- */

/* sgd(params, rate=1.0): MiniTorch's SGD. It holds the parameter tensors themselves, so
 * step() changes what the model (and every variable naming them) sees. */
struct sgd {
    int n;
    float rate;
    struct mt_tensor **params;
};

static void sgd_free(void *state)
{
    struct sgd *o = state;
    if (!o) return;
    for (int i = 0; i < o->n; i++) mt_tensor_release(o->params[i]);
    free(o->params);
    free(o);
}

static int sgd_repr(struct render_buf *b, const void *state)
{
    const struct sgd *o = state;
    render_buf_printf(b, "sgd(%d parameters, rate=%g)", o->n, (double)o->rate);
    return b->nomem ? DSL_V_NOMEM : DSL_V_OK;
}

static int sgd_step(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    const struct sgd *o = a->self.as.obj->state;
    enum mt_status st = mt_sgd_step(in->session->ctx, o->params, o->n, o->rate);
    if (st) return dsl_engine_raise(in, st);
    *ret = dsl_none();
    return 0;
}

static int sgd_zero_grad(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)in;
    const struct sgd *o = a->self.as.obj->state;
    mt_sgd_zero_grad(o->params, o->n);
    *ret = dsl_none();
    return 0;
}

static const struct dsl_builtin sgd_methods[] = {
    {"step", "opt.step()", 0, 0, NULL, sgd_step,
     "One step of gradient descent: every parameter p with a gradient becomes p - rate * "
     "p.grad, in place (the model sees the new values). Parameters without a gradient are "
     "left alone."},
    {"zero_grad", "opt.zero_grad()", 0, 0, NULL, sgd_zero_grad,
     "Forgets every parameter's gradient (grad becomes none), before the next backward()."},
};

static const char *const sgd_attrs[] = {"step", "zero_grad", "rate", NULL};

static int sgd_getattr(struct dsl_interp *in, struct dsl_value self, const char *name,
                       struct dsl_value *out)
{
    const struct sgd *o = self.as.obj->state;
    for (size_t i = 0; i < sizeof sgd_methods / sizeof sgd_methods[0]; i++)
        if (strcmp(name, sgd_methods[i].name) == 0) {
            int st = dsl_method_value(&sgd_methods[i], self, out);
            return st ? dsl_raise_status(in, st) : 0;
        }
    if (strcmp(name, "rate") == 0) {
        *out = dsl_float(o->rate);
        return 0;
    }
    return dsl_raise(in, "AttributeError",
                     "'sgd' object has no attribute '%s' (it has step(), zero_grad() and rate)",
                     name);
}

const struct dsl_object_class dsl_sgd_class = {
    .name = "sgd",
    .doc = "sgd: MiniTorch's SGD optimizer, made by sgd(params, rate=1.0). opt.zero_grad() "
           "clears the gradients, opt.step() moves every parameter by -rate * grad, opt.rate "
           "is the learning rate.",
    .attrs = sgd_attrs,
    .free = sgd_free,
    .repr = sgd_repr,
    .getattr = sgd_getattr,
};

int dsl_bi_sgd(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value p = a->slot[0];
    if (p.kind != DSL_LIST)
        return dsl_raise(in, "TypeError",
                         "sgd(): params must be a list of tensors (model.parameters()), not %s",
                         dsl_type_name(p));
    double rate = 1.0;
    if (a->has[1]) {
        if (!dsl_is_number(a->slot[1]))
            return dsl_raise(in, "TypeError", "sgd(): rate must be a number, not %s",
                             dsl_type_name(a->slot[1]));
        rate = dsl_as_double(a->slot[1]);
    }
    if (p.as.l->len > (1u << 20))
        return dsl_raise(in, "ValueError", "sgd(): too many parameters (%zu)", p.as.l->len);
    for (size_t i = 0; i < p.as.l->len; i++) {
        struct dsl_value t = p.as.l->items[i];
        if (t.kind != DSL_TENSOR)
            return dsl_raise(in, "TypeError", "sgd(): params[%zu] is %s, not a tensor", i,
                             dsl_type_name(t));
        if (!t.as.t->requires_grad)
            return dsl_raise(in, "ValueError",
                             "sgd(): params[%zu] does not require grad (set requires_grad=true)",
                             i);
    }
    struct sgd *o = calloc(1, sizeof *o);
    if (o) o->params = calloc(p.as.l->len ? p.as.l->len : 1, sizeof *o->params);
    if (!o || !o->params) {
        sgd_free(o);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    o->rate = (float)rate;
    for (size_t i = 0; i < p.as.l->len; i++)
        o->params[o->n++] = mt_tensor_retain(p.as.l->items[i].as.t);
    int vs = dsl_object_value(&dsl_sgd_class, o, ret);
    return vs ? dsl_raise_status(in, vs) : 0;
}

/* ---- train() and plot() ------------------------------------------------------------------ */

/* Cells per side of a decision-boundary chart: 625 model evaluations, ~30 KB of spec. */
#define BOUNDARY_GRID 25

static const struct model *model_of(struct dsl_interp *in, const char *fn, struct dsl_value v)
{
    if (v.kind != DSL_OBJECT || v.as.obj->cls != &dsl_model_class) {
        dsl_raise(in, "TypeError", "%s(): model must be a model made by mlp(...), not %s", fn,
                  dsl_type_name(v));
        return NULL;
    }
    return v.as.obj->state;
}

static const struct dataset *dataset_of(struct dsl_interp *in, const char *fn, struct dsl_value v)
{
    if (v.kind != DSL_OBJECT || v.as.obj->cls != &dsl_dataset_class) {
        dsl_raise(in, "TypeError", "%s(): data must be a dataset made by dataset(...), not %s", fn,
                  dsl_type_name(v));
        return NULL;
    }
    return v.as.obj->state;
}

/* The model's probability at the centre of each cell of the grid (row k = x2 from the bottom),
 * by its forward pass (the same function the user calls as model(x)). */
static int boundary_probs(struct dsl_interp *in, struct dsl_value model, float *prob)
{
    const int g = BOUNDARY_GRID;
    float pts[BOUNDARY_GRID * BOUNDARY_GRID * 2];
    for (int k = 0; k < g; k++)
        for (int j = 0; j < g; j++) {
            pts[2 * (k * g + j)] = (float)((j + 0.5) / g);
            pts[2 * (k * g + j) + 1] = (float)((k + 0.5) / g);
        }
    const struct model *m = model.as.obj->state;
    struct mt_tensor *x = NULL;
    int64_t shape[2] = {(int64_t)g * g, 2};
    enum mt_status st =
        mt_from_data(in->session->ctx, m->layers[0].weight->backend, 2, shape, pts, &x);
    if (st) return dsl_engine_raise(in, st);
    struct dsl_args a = {.self = model};
    a.slot[0] = dsl_tensor(x); /* the args own nothing: x is released below */
    a.has[0] = true;
    struct dsl_value out;
    int r = model_forward(in, &a, &out);
    mt_tensor_release(x);
    if (r != 0) return r;
    if (out.as.t->size != (int64_t)g * g) {
        dsl_value_release(out);
        return dsl_raise(in, "ValueError", "the model must have one output to draw a boundary");
    }
    st = mt_tensor_copy_out(out.as.t, prob);
    dsl_value_release(out);
    return st == MT_OK ? 0 : dsl_engine_raise(in, st);
}

/* A decision-boundary chart's data: the model's probabilities on the grid and the points. */
struct boundary {
    float prob[BOUNDARY_GRID * BOUNDARY_GRID];
    float *xy, *label;
    struct chart_points c;
};

static void boundary_free(struct boundary *b)
{
    free(b->xy);
    free(b->label);
    free(b);
}

/* The boundary of `model` under the points of `d` (the first PLOT_MAX_POINTS); NULL after
 * raising. */
static struct boundary *boundary_make(struct dsl_interp *in, struct dsl_value model,
                                      const struct dataset *d, const char *title)
{
    struct boundary *b = calloc(1, sizeof *b);
    if (!b) {
        dsl_raise_status(in, DSL_V_NOMEM);
        return NULL;
    }
    if (boundary_probs(in, model, b->prob) != 0) {
        boundary_free(b);
        return NULL;
    }
    b->xy = malloc((size_t)d->n * 2 * sizeof *b->xy);
    b->label = malloc((size_t)d->n * sizeof *b->label);
    if (!b->xy || !b->label) {
        boundary_free(b);
        dsl_raise_status(in, DSL_V_NOMEM);
        return NULL;
    }
    mt_tensor_copy_out(d->X, b->xy);
    mt_tensor_copy_out(d->y, b->label);
    b->c = (struct chart_points){.title = title,
                                 .n = (size_t)(d->n < PLOT_MAX_POINTS ? d->n : PLOT_MAX_POINTS),
                                 .xy = b->xy,
                                 .label = b->label,
                                 .grid = BOUNDARY_GRID,
                                 .prob = b->prob};
    return b;
}

/* The decision boundary of `model` under the points of `d`, as a chart bundle. */
static int boundary_bundle(struct dsl_interp *in, struct dsl_value model, const struct dataset *d,
                           const char *title, json_t **bundle)
{
    struct boundary *b = boundary_make(in, model, d, title);
    if (!b) return -1;
    *bundle = chart_points_bundle(in->session->plot_renderer, &b->c);
    boundary_free(b);
    return *bundle ? 0 : dsl_raise_status(in, DSL_V_NOMEM);
}

static void emit(struct dsl_interp *in, json_t *bundle, const char *id, bool update)
{
    if (bundle) dsl_display(in, bundle, id, update);
    json_decref(bundle);
}

static void say(struct dsl_interp *in, const char *text)
{
    if (in->out->stream) in->out->stream(in->out->ctx, "stdout", text);
}

/* plot(model, data): the decision boundary alone. */
int dsl_bi_plot(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    const struct dataset *d = dataset_of(in, "plot", a->slot[1]);
    if (!d || !model_of(in, "plot", a->slot[0])) return -1;
    char title[96];
    snprintf(title, sizeof title, "decision boundary, %s, %lld points", mt_dataset_name(d->kind),
             (long long)d->n);
    json_t *bundle = NULL;
    if (boundary_bundle(in, a->slot[0], d, title, &bundle) != 0) return -1;
    emit(in, bundle, NULL, false);
    *ret = dsl_none();
    return 0;
}

/* A loss as Python prints a float to `digits` significant digits: nan and inf without a sign
 * for nan (C's printf says "-nan" for the NaN that a log of 0 times 0 gives). */
static const char *fmt_loss(char *buf, size_t len, double v, int digits)
{
    if (isnan(v))
        snprintf(buf, len, "nan");
    else
        snprintf(buf, len, "%.*g", digits, v);
    return buf;
}

/* "23.4 us" / "1.25 ms" / "2.10 s": one fixed format per range, for the sanitize file. */
static void fmt_time(char *buf, size_t len, double s)
{
    if (s < 1e-3)
        snprintf(buf, len, "%.1f us", s * 1e6);
    else if (s < 1.0)
        snprintf(buf, len, "%.2f ms", s * 1e3);
    else
        snprintf(buf, len, "%.2f s", s);
}

/* The live progress display (render/table.c draws the bar): epoch, loss, correct, time per
 * epoch and time left. */
static json_t *progress_bundle(int epoch, int epochs, double loss, int64_t correct, int64_t n,
                               double per_epoch, bool done)
{
    char status[256], per[32], left[32], lbuf[32];
    fmt_time(per, sizeof per, per_epoch);
    fmt_time(left, sizeof left, per_epoch * (epochs - epoch));
    if (done)
        snprintf(status, sizeof status, "epoch %d/%d done", epoch, epochs);
    else if (epoch == 0)
        snprintf(status, sizeof status, "epoch 0/%d starting", epochs);
    else
        snprintf(status, sizeof status,
                 "epoch %d/%d  loss %s  correct %lld/%lld  %s per epoch  %s left", epoch, epochs,
                 fmt_loss(lbuf, sizeof lbuf, loss, 4), (long long)correct, (long long)n, per, left);
    return render_progress_bundle(epoch, epochs, status);
}

/* t seen from backend b: an alias of its storage (no history), a leaf needing grad when asked. */
static enum mt_status alias_on(struct mt_ctx *ctx, struct mt_tensor *t, enum mt_backend b,
                               bool grad, struct mt_tensor **out)
{
    struct mt_tensor *v = NULL;
    enum mt_status st = mt_to(ctx, t, b, &v);
    if (st == MT_OK) st = mt_detach(ctx, v, out);
    mt_tensor_release(v);
    if (st == MT_OK && grad) st = mt_tensor_requires_grad(*out, true);
    return st;
}

/* train()'s arguments, checked: train(model, data, rate=0.05, epochs=500, batch=10, log=10,
 * backend=none, on_nan="stop"). */
struct train_args {
    const struct model *m;
    const struct dataset *d;
    double rate;
    int64_t epochs, batch, log_every;
    enum mt_backend be;
    bool nan_stops; /* on_nan="stop": a nan or inf loss ends the run */
};

static int train_args(struct dsl_interp *in, const struct dsl_args *a, struct train_args *ta)
{
    const struct model *m = model_of(in, "train", a->slot[0]);
    const struct dataset *d = m ? dataset_of(in, "train", a->slot[1]) : NULL;
    if (!d) return -1;
    if (!m->mlp)
        return dsl_raise(in, "TypeError",
                         "train(): the model must end in a sigmoid (its output is a "
                         "probability): use mlp(in, hidden, 1), not linear(...)");
    *ta = (struct train_args){m, d, 0.05, 500, 10, 10, m->layers[0].weight->backend, true};
    if (a->has[2]) {
        if (!dsl_is_number(a->slot[2]))
            return dsl_raise(in, "TypeError", "train(): rate must be a number, not %s",
                             dsl_type_name(a->slot[2]));
        ta->rate = dsl_as_double(a->slot[2]);
    }
    if ((a->has[3] && size_arg(in, "train", "epochs", a->slot[3], &ta->epochs) != 0) ||
        (a->has[4] && size_arg(in, "train", "batch", a->slot[4], &ta->batch) != 0))
        return -1;
    if (a->has[5]) {
        if (!dsl_is_intlike(a->slot[5]) || dsl_as_int(a->slot[5]) < 0)
            return dsl_raise(in, "ValueError",
                             "train(): log must be the epochs between log lines (0: none)");
        ta->log_every = dsl_as_int(a->slot[5]);
    }
    if (a->has[6] && a->slot[6].kind != DSL_NONE &&
        dsl_backend_arg(in, a, 6, "train", &ta->be) != 0)
        return -1;
    if (a->has[7]) {
        struct dsl_value v = a->slot[7];
        const char *s = v.kind == DSL_STR ? v.as.s->data : "";
        if (strcmp(s, "stop") != 0 && strcmp(s, "continue") != 0)
            return dsl_raise(in, "ValueError", "train(): on_nan must be \"stop\" or \"continue\"");
        ta->nan_stops = strcmp(s, "stop") == 0;
    }
    return 0;
}

/* The model and the data as seen from backend ta->be: aliases of the same storage (simple and
 * fast share it), leaves of their own, so the steps land in the model's tensors; and the
 * trainer over them in *t. 0, or -1 after raising (the aliases then freed). */
static int train_alias(struct dsl_interp *in, const struct train_args *ta, struct mt_linear *alias,
                       struct mt_trainer **t)
{
    struct mt_ctx *ctx = in->session->ctx;
    const struct model *m = ta->m;
    struct mt_tensor *Xa = NULL, *ya = NULL;
    enum mt_status st = alias_on(ctx, ta->d->X, ta->be, false, &Xa);
    if (st == MT_OK) st = alias_on(ctx, ta->d->y, ta->be, false, &ya);
    for (int l = 0; l < m->nlayers; l++) alias[l] = (struct mt_linear){NULL, NULL};
    for (int l = 0; l < m->nlayers && st == MT_OK; l++) {
        st = alias_on(ctx, m->layers[l].weight, ta->be, true, &alias[l].weight);
        if (st == MT_OK) st = alias_on(ctx, m->layers[l].bias, ta->be, true, &alias[l].bias);
    }
    *t = NULL;
    if (st == MT_OK)
        st = mt_trainer_new(ctx, alias, m->nlayers, Xa, ya, ta->batch, (float)ta->rate, false, t);
    mt_tensor_release(Xa);
    mt_tensor_release(ya);
    if (st) {
        for (int l = 0; l < m->nlayers; l++) mt_linear_free(&alias[l]);
        return dsl_engine_raise(in, st);
    }
    return 0;
}

/* Frees the aliases, leaving the last gradients, as the loop by hand leaves them, on the
 * model's own tensors. MT_OK, or the status of a copy that failed (sync: one before it). */
static enum mt_status train_unalias(struct mt_ctx *ctx, const struct model *m,
                                    struct mt_linear *alias, enum mt_status sync)
{
    for (int l = 0; l < m->nlayers; l++) {
        struct mt_tensor *own[2] = {m->layers[l].weight, m->layers[l].bias},
                         *al[2] = {alias[l].weight, alias[l].bias};
        for (int i = 0; i < 2 && sync == MT_OK; i++) {
            if (!al[i]->grad) continue;
            struct mt_tensor *g = NULL;
            sync = mt_to(ctx, al[i]->grad, own[i]->backend, &g);
            if (sync == MT_OK) {
                mt_tensor_release(own[i]->grad);
                own[i]->grad = g;
            }
        }
        mt_linear_free(&alias[l]);
    }
    return sync;
}

/* What the epochs did: per-epoch loss and time, and how the run ended. */
struct train_run {
    double *loss, *epoch_us; /* epochs entries; the first `done` set */
    int64_t done, correct;
    int64_t bad_epoch; /* the first epoch whose loss was nan or inf; -1: none */
    bool nan_stopped;  /* on_nan="stop" ended the run there, the parameters put back */
    double train_s;    /* the epochs' time */
    enum mt_status st;
    bool interrupted;  /* by the user: the flag is lowered again */
    bool chart_failed; /* the live chart raised (an error is pending) */
    char *live_svg;    /* the boundary as it stands, under the progress bar; NULL: none yet */
    char id[48];
};

/* The parameters before an epoch, kept while on_nan="stop" so that a run stopped by a nan or
 * inf loss leaves the model as it was before that epoch, not full of nan: a student can still
 * plot it, and train it again with a smaller rate from where it was. A copy on the device that
 * trains (mt_map's out=), outside the timed epoch. */
struct param_copy {
    struct mt_tensor *t[2 * MAX_LAYERS];
};

static enum mt_status params_keep(struct mt_ctx *ctx, const struct model *m,
                                  const struct mt_linear *alias, struct param_copy *c)
{
    enum mt_status st = MT_OK;
    for (int l = 0; l < m->nlayers && st == MT_OK; l++) {
        st = mt_map(ctx, MT_MAP_ID, alias[l].weight, &c->t[2 * l]);
        if (st == MT_OK) st = mt_map(ctx, MT_MAP_ID, alias[l].bias, &c->t[2 * l + 1]);
    }
    return st;
}

static enum mt_status params_restore(struct mt_ctx *ctx, const struct model *m,
                                     struct mt_linear *alias, const struct param_copy *c)
{
    enum mt_status st = MT_OK;
    for (int l = 0; l < m->nlayers && st == MT_OK; l++) {
        st = mt_map(ctx, MT_MAP_ID, c->t[2 * l], &alias[l].weight);
        if (st == MT_OK) st = mt_map(ctx, MT_MAP_ID, c->t[2 * l + 1], &alias[l].bias);
    }
    return st;
}

static void params_free(struct param_copy *c)
{
    for (size_t i = 0; i < sizeof c->t / sizeof c->t[0]; i++) mt_tensor_release(c->t[i]);
}

/* Says, on the cell's stderr (highlighted in notebooks, as Python's warnings), that epoch e's
 * loss was nan or inf, what it was before, what was done about it and what to try: a rate ten
 * times smaller, the usual cure for steps that overshoot (a larger rate diverges). */
static void say_bad_loss(struct dsl_interp *in, const struct train_args *ta,
                         const struct train_run *run, int64_t e)
{
    char text[640], what[160], lbuf[32], before[32], rate[32];
    /* a tenth of the rate, spelt as Python would write it back (0.5, 2.0) */
    snprintf(rate, sizeof rate, "%g", ta->rate / 10);
    if (!strpbrk(rate, ".en")) strcat(rate, ".0");
    fmt_loss(lbuf, sizeof lbuf, run->loss[e], 6);
    if (e > 0)
        snprintf(what, sizeof what, "Epoch %lld: the loss became %s (it was %s at epoch %lld).",
                 (long long)e, lbuf, fmt_loss(before, sizeof before, run->loss[e - 1], 6),
                 (long long)(e - 1));
    else
        snprintf(what, sizeof what, "Epoch 0: the loss is %s from the first epoch on.", lbuf);
    snprintf(text, sizeof text,
             "%s Steps too large usually do this: try a smaller rate, e.g. train(..., rate=%s). "
             "%s\n",
             what, rate,
             ta->nan_stops ? "Training stopped, and the parameters are back to their values "
                             "before this epoch (on_nan=\"continue\" trains on regardless)."
                           : "Training goes on (on_nan=\"continue\").");
    dsl_emit(in, "stderr", text);
}

/* The live display: the progress bar, and under it the boundary forming once there is one.
 * One display updated in place, created before the first log line, so that the whole log runs
 * below the chart (a chart displayed when the first second had passed came after the log lines
 * printed so far, with the rest below it). The drawing is the kernel's own SVG inside the HTML,
 * which a front end replaces in one step; JupyterLab's Vega renderer empties its output and
 * draws the chart again asynchronously on every update. */
static json_t *live_bundle(const struct train_run *run, json_t *progress)
{
    const char *html = json_string_value(json_object_get(progress, "text/html"));
    if (!html || !run->live_svg) return progress;
    struct render_buf h;
    render_buf_init(&h, 0);
    render_buf_printf(&h, "%s\n<div class=\"minitorch-chart\">\n%s</div>\n", html, run->live_svg);
    if (h.nomem ||
        json_object_set_new(progress, "text/html", render_json_string(h.data, h.len)) != 0) {
        json_decref(progress);
        progress = NULL;
    }
    render_buf_free(&h);
    return progress;
}

/* The epoch loop: a log line every ta->log_every epochs, the live progress display as often as
 * a person can follow, and a run long enough to watch shows its boundary forming. */
static void train_epochs(struct dsl_interp *in, struct dsl_value model, const struct train_args *ta,
                         struct mt_trainer *t, struct mt_linear *alias, struct train_run *run)
{
    struct param_copy kept = {{NULL}};
    const struct dataset *d = ta->d;
    int64_t epochs = ta->epochs;
    char line[256], per[32], lbuf[32];
    snprintf(run->id, sizeof run->id, "minitorch-train-%u", ++in->session->train_runs);
    emit(in, progress_bundle(0, (int)epochs, 0, 0, d->n, 0, false), run->id, false);
    double started = mt_now_s(), last_update = started, last_chart = started;
    enum mt_status st = MT_OK;
    run->bad_epoch = -1;
    for (int64_t e = 0; e < epochs; e++) {
        if (ta->nan_stops && (st = params_keep(in->session->ctx, ta->m, alias, &kept)) != MT_OK)
            break;
        double e0 = mt_now_s();
        st = mt_trainer_epoch(t, &run->loss[e]);
        double took = mt_now_s() - e0;
        run->train_s += took;
        run->epoch_us[e] = round(took * 1e7) / 10; /* 0.1 us: what a timer this coarse can say */
        if (st) break;
        run->done = e + 1;
        if (!isfinite(run->loss[e]) && run->bad_epoch < 0) { /* said once, at the first */
            run->bad_epoch = e;
            say_bad_loss(in, ta, run, e);
            if (ta->nan_stops) { /* the run keeps the epochs before this one, and their model */
                run->done = e;
                run->train_s -= took;
                st = params_restore(in->session->ctx, ta->m, alias, &kept);
                if (st == MT_OK) st = mt_trainer_correct(t, &run->correct);
                run->nan_stopped = st == MT_OK;
                break;
            }
        }
        bool logged = ta->log_every && e % ta->log_every == 0;
        if (logged || e + 1 == epochs) {
            if ((st = mt_trainer_correct(t, &run->correct)) != MT_OK) break;
        }
        if (logged) {
            fmt_time(per, sizeof per, run->train_s / (double)run->done);
            snprintf(line, sizeof line,
                     "Epoch %lld  loss %s  correct %lld/%lld  time per epoch %s\n", (long long)e,
                     fmt_loss(lbuf, sizeof lbuf, run->loss[e], 6), (long long)run->correct,
                     (long long)d->n, per);
            say(in, line);
        }
        double now = mt_now_s();
        if (now - last_update >= 0.25) { /* as often as a person can follow, no more */
            last_update = now;
            /* a run long enough to watch also shows its boundary forming, once a second */
            if (now - last_chart >= 1.0 && e + 1 < epochs) {
                char title[128];
                snprintf(title, sizeof title, "decision boundary at epoch %lld, %s",
                         (long long)run->done, mt_dataset_name(d->kind));
                struct boundary *b = boundary_make(in, model, d, title);
                if (!b) {
                    /* an interrupt that lands in the chart's forward pass stops the training
                     * as one between batches does: summary, charts, then KeyboardInterrupt */
                    if (mt_cancel_requested()) {
                        dsl_interp_clear_error(in);
                        st = MT_ERR_CANCELLED;
                    } else {
                        run->chart_failed = true;
                    }
                    break;
                }
                char *svg = chart_points_svg(&b->c);
                boundary_free(b);
                if (!svg) {
                    dsl_raise_status(in, DSL_V_NOMEM);
                    run->chart_failed = true;
                    break;
                }
                free(run->live_svg);
                run->live_svg = svg;
                last_chart = mt_now_s();
            }
            emit(in,
                 live_bundle(run, progress_bundle((int)run->done, (int)epochs, run->loss[e],
                                                  run->correct, d->n,
                                                  run->train_s / (double)run->done, false)),
                 run->id, true);
            if (in->out->flush) in->out->flush(in->out->ctx);
        }
    }
    params_free(&kept);
    /* Interrupted: the flag has stopped the training; lower it so that the model as it stands
     * can still be evaluated, summarised and drawn, and raise KeyboardInterrupt after that. */
    run->st = st;
    run->interrupted = st == MT_ERR_CANCELLED;
    if (run->interrupted) {
        mt_cancel_clear();
        if (run->done > 0 && mt_trainer_correct(t, &run->correct) != MT_OK) run->correct = 0;
    }
}

/* The run's one chart: the boundary beside the loss curve and the time per epoch. 0, or -1
 * after raising. */
static int train_chart(struct dsl_interp *in, struct dsl_value model, const struct dataset *d,
                       const struct train_run *run)
{
    int64_t done = run->done;
    int r = 0;
    /* the chart's title says what ran; its panels, what each shows (no title twice) */
    struct boundary *b = boundary_make(in, model, d, "decision boundary");
    double *x = malloc((size_t)(done ? done : 1) * sizeof *x);
    double *t = malloc((size_t)(done ? done : 1) * sizeof *t);
    if (!b) {
        r = -1;
    } else if (!x || !t) {
        r = dsl_raise_status(in, DSL_V_NOMEM);
    } else {
        for (int64_t e = 0; e < done; e++) x[e] = (double)e;
        /* the times in the unit the slowest epoch reads best in */
        double slowest = 0;
        for (int64_t e = 0; e < done; e++) slowest = fmax(slowest, run->epoch_us[e]);
        const char *unit;
        const double per = render_time_unit(slowest * 1e-6, &unit) * 1e6; /* µs per unit */
        for (int64_t e = 0; e < done; e++) t[e] = run->epoch_us[e] / per;
        char time_title[48];
        snprintf(time_title, sizeof time_title, "time per epoch (%s)", unit);
        const char *loss_series[] = {"loss"}, *time_series[] = {"time per epoch"};
        struct chart_lines lc = {.title = "loss per epoch (summed over the points)",
                                 .x_title = "epoch",
                                 .y_title = "loss",
                                 .nseries = 1,
                                 .npoints = (size_t)done,
                                 .series = loss_series,
                                 .x = x,
                                 .y = run->loss,
                                 .dense = true};
        struct chart_lines tc = {.title = time_title,
                                 .x_title = "epoch",
                                 .y_title = unit,
                                 .nseries = 1,
                                 .npoints = (size_t)done,
                                 .series = time_series,
                                 .x = x,
                                 .y = t,
                                 .dense = true};
        char all[192];
        snprintf(all, sizeof all, "%lld epoch%s on %s: decision boundary, loss and time per epoch",
                 (long long)done, done == 1 ? "" : "s", mt_dataset_name(d->kind));
        json_t *bundle = chart_training_bundle(in->session->plot_renderer, all, &b->c, &lc, &tc);
        if (!bundle) r = dsl_raise_status(in, DSL_V_NOMEM);
        emit(in, bundle, NULL, false);
    }
    if (b) boundary_free(b);
    free(x);
    free(t);
    return r;
}

/* 1 when every parameter of m is finite, 0 when one is not, -1 when they cannot be read. */
static int params_finite(const struct model *m)
{
    for (int l = 0; l < m->nlayers; l++) {
        const struct mt_tensor *p[2] = {m->layers[l].weight, m->layers[l].bias};
        for (int i = 0; i < 2; i++) {
            float *v = malloc((size_t)p[i]->size * sizeof *v);
            int ok = v && mt_tensor_copy_out(p[i], v) == MT_OK ? 1 : -1;
            for (int64_t k = 0; ok == 1 && k < p[i]->size; k++)
                if (!isfinite(v[k])) ok = 0;
            free(v);
            if (ok != 1) return ok;
        }
    }
    return 1;
}

/* train(model, data, rate=0.05, epochs=500, batch=10, log=10, backend=none, on_nan="stop") */
int dsl_bi_train(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct train_args ta;
    if (train_args(in, a, &ta) != 0) return -1;
    const struct model *m = ta.m;
    const struct dataset *d = ta.d;
    int64_t epochs = ta.epochs;
    struct mt_ctx *ctx = in->session->ctx;
    struct mt_linear alias[MAX_LAYERS];
    struct mt_trainer *t = NULL;
    if (train_alias(in, &ta, alias, &t) != 0) return -1;
    struct train_run run = {.loss = malloc((size_t)epochs * sizeof *run.loss),
                            .epoch_us = malloc((size_t)epochs * sizeof *run.epoch_us)};
    double *loss = run.loss, *epoch_us = run.epoch_us;
    if (!loss || !epoch_us) {
        free(loss);
        free(epoch_us);
        mt_trainer_free(t);
        for (int l = 0; l < m->nlayers; l++) mt_linear_free(&alias[l]);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    train_epochs(in, a->slot[0], &ta, t, alias, &run);
    int64_t done = run.done, correct = run.correct;
    bool interrupted = run.interrupted;
    enum mt_status st = run.st;
    char line[256], per[32], lbuf[32];
    enum mt_status sync = mt_trainer_sync(t);
    const char *path = mt_trainer_path(t);
    mt_trainer_free(t);
    sync = train_unalias(ctx, m, alias, sync);
    free(run.live_svg); /* the final chart below replaces the live one */
    if (run.chart_failed) {
        free(loss);
        free(epoch_us);
        return -1;
    }
    if (st && !interrupted) {
        free(loss);
        free(epoch_us);
        return dsl_engine_raise(in, st);
    }
    emit(in, progress_bundle((int)done, (int)epochs, 0, 0, d->n, 0, true), run.id, true);
    double per_epoch = done ? run.train_s / (double)done : 0;
    fmt_time(per, sizeof per, per_epoch);
    if (done == 0 && run.nan_stopped) /* no epoch kept: no loss or time to tell */
        snprintf(
            line, sizeof line, "Stopped after 0 of %lld epochs on %s (%s): correct %lld/%lld\n",
            (long long)epochs, mt_backend_name(ta.be), path, (long long)correct, (long long)d->n);
    else
        snprintf(line, sizeof line,
                 "%s %lld of %lld epochs on %s (%s): loss %s, correct %lld/%lld, time per epoch "
                 "%s\n",
                 interrupted       ? "Interrupted after"
                 : run.nan_stopped ? "Stopped after"
                                   : "Trained",
                 (long long)done, (long long)epochs, mt_backend_name(ta.be), path,
                 fmt_loss(lbuf, sizeof lbuf, done ? loss[done - 1] : 0.0, 6), (long long)correct,
                 (long long)d->n, per);
    say(in, line);
    if (run.bad_epoch >= 0 && !run.nan_stopped && params_finite(m) == 0)
        dsl_emit(in, "stderr",
                 "The model's parameters now hold nan or inf: make the model again (e.g. "
                 "mlp(...)) and train it with a smaller rate.\n");
    int r = train_chart(in, a->slot[0], d, &run);
    free(epoch_us);
    free(loss);
    if (r != 0) return r;
    if (sync) return dsl_engine_raise(in, sync);
    if (interrupted) return dsl_engine_raise(in, MT_ERR_CANCELLED);
    *ret = dsl_none();
    return 0;
}
