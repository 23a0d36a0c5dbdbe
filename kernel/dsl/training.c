/* training.c — MiniTorch's datasets as language objects (and, with the training issue, its
 * models, optimizers and train()).
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

static json_t *dataset_bundle(const void *state, const char *renderer)
{
    const struct dataset *d = state;
    float *xy = malloc((size_t)d->n * 2 * sizeof *xy),
          *label = malloc((size_t)d->n * sizeof *label);
    json_t *bundle = NULL;
    if (xy && label) {
        mt_tensor_copy_out(d->X, xy);
        mt_tensor_copy_out(d->y, label);
        char title[64];
        snprintf(title, sizeof title, "%s, %lld points", mt_dataset_name(d->kind), (long long)d->n);
        struct chart_points c = {.title = title, .n = (size_t)d->n, .xy = xy, .label = label};
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
    if (a->has[2] && a->slot[2].kind != DSL_NONE) {
        if (!dsl_is_intlike(a->slot[2]))
            return dsl_raise(in, "TypeError", "dataset(): seed must be an integer, not %s",
                             dsl_type_name(a->slot[2]));
        int64_t s = dsl_as_int(a->slot[2]); /* random.seed(n) uses abs(n) */
        mt_seed(ctx, s < 0 ? (uint64_t)0 - (uint64_t)s : (uint64_t)s);
    }
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
