/* training.c — MiniTorch's datasets, models and SGD as language objects (train() comes with
 * the training issue).
 *
 * dataset(name, n=50, seed=none) draws the points from the session's random generator, as
 * MiniTorch's scripts draw them from Python's global `random`: with a seed the generator is
 * seeded first (random.seed(seed)), so what is drawn next (a model's weights) follows the same
 * sequence as in MiniTorch. The object shows as a summary line and a scatter plot of the two
 * classes in MiniTorch's colours; ds.X (n, 2) and ds.y (n,) are its tensors, shared, not
 * copied, so a change through one name is seen through the other as in MiniTorch. */
#include "dsl/training.h"

#include "dsl/interp.h"
#include "dsl/tensor.h"
#include "render/chart.h"

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

static const char *const dataset_attrs[] = {"X", "y", "n", "name", NULL};

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
    if (strcmp(name, "name") == 0) {
        const char *s = mt_dataset_name(d->kind);
        int st = dsl_str_value(s, strlen(s), out);
        return st ? dsl_raise_status(in, st) : 0;
    }
    return dsl_raise(in, "AttributeError",
                     "'dataset' object has no attribute '%s' (it has X, y, n and name)", name);
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
