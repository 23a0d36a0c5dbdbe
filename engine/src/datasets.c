/* datasets.c — MiniTorch's six classification sets (minitorch/datasets.py), point for point.
 *
 * Same seed, same points: x1 and x2 are two consecutive random.random() draws per point, the
 * label is decided on those doubles (strict comparisons, so a point on a boundary is class 0),
 * and only then are the points rounded to float32. spiral follows MiniTorch's formula with
 * t = 10 * i / (n/2) for i in 5 .. 5 + n/2 - 1. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <strings.h>

static const char *const names[MT_DATASET_COUNT] = {"simple", "diag",   "split",
                                                    "xor",    "circle", "spiral"};

#define MAX_POINTS 100000000

const char *mt_dataset_name(enum mt_dataset d)
{
    return (unsigned)d < MT_DATASET_COUNT ? names[d] : NULL;
}

enum mt_status mt_dataset_parse(struct mt_ctx *ctx, const char *name, enum mt_dataset *out)
{
    for (int i = 0; name && i < MT_DATASET_COUNT; i++)
        if (strcasecmp(name, names[i]) == 0) {
            *out = (enum mt_dataset)i;
            return MT_OK;
        }
    return mt_fail(ctx, MT_ERR_INVALID,
                   "unknown dataset '%s': the datasets are simple, diag, split, xor, circle, "
                   "spiral",
                   name ? name : "(null)");
}

static bool label(enum mt_dataset d, double x1, double x2)
{
    switch (d) {
    case MT_DATASET_SIMPLE: return x1 < 0.5;
    case MT_DATASET_DIAG: return x1 + x2 < 0.5;
    case MT_DATASET_SPLIT: return x1 < 0.2 || x1 > 0.8;
    case MT_DATASET_XOR: return (x1 < 0.5 && x2 > 0.5) || (x1 > 0.5 && x2 < 0.5);
    case MT_DATASET_CIRCLE: return (x1 - 0.5) * (x1 - 0.5) + (x2 - 0.5) * (x2 - 0.5) > 0.1;
    default: return false;
    }
}

static enum mt_status check_size(struct mt_ctx *ctx, enum mt_dataset d, int64_t n)
{
    if ((unsigned)d >= MT_DATASET_COUNT)
        return mt_fail(ctx, MT_ERR_INVALID, "dataset %d is not one of the six", (int)d);
    int64_t least = d == MT_DATASET_SPIRAL ? 2 : 1;
    if (n < least || n > MAX_POINTS)
        return mt_fail(ctx, MT_ERR_INVALID, "a %s dataset has %lld to %d points, not %lld",
                       names[d], (long long)least, MAX_POINTS, (long long)n);
    return MT_OK;
}

/* Point k of a set of m (spiral: arms of h = m / 2): its coordinates and label, drawing from
 * ctx's generator for the random sets (points are drawn in order, k = 0, 1, ...). */
static void point(struct mt_ctx *ctx, enum mt_dataset d, int64_t k, int64_t h, double *x1,
                  double *x2, int *lab)
{
    if (d != MT_DATASET_SPIRAL) {
        *x1 = mt_random(ctx);
        *x2 = mt_random(ctx);
        *lab = label(d, *x1, *x2);
        return;
    }
    /* arm 0 at (x(t), y(t)), arm 1 at (y(-t), x(-t)), both shifted by 0.5 */
    *lab = k >= h;
    double t = 10.0 * ((double)(k - (*lab ? h : 0) + 5) / (double)h);
    *x1 = *lab ? -t * sin(-t) / 20.0 + 0.5 : t * cos(t) / 20.0 + 0.5;
    *x2 = *lab ? -t * cos(-t) / 20.0 + 0.5 : t * sin(t) / 20.0 + 0.5;
}

static int64_t points_of(enum mt_dataset d, int64_t n)
{
    return d == MT_DATASET_SPIRAL ? 2 * (n / 2) : n;
}

enum mt_status mt_dataset_draw(struct mt_ctx *ctx, enum mt_dataset d, int64_t n, double *xs,
                               int *ys)
{
    enum mt_status st = check_size(ctx, d, n);
    if (st != MT_OK) return st;
    for (int64_t k = 0, m = points_of(d, n); k < m; k++)
        point(ctx, d, k, n / 2, &xs[2 * k], &xs[2 * k + 1], &ys[k]);
    return MT_OK;
}

enum mt_status mt_dataset_make(struct mt_ctx *ctx, enum mt_backend b, enum mt_dataset d, int64_t n,
                               struct mt_tensor **X, struct mt_tensor **y)
{
    *X = *y = NULL;
    enum mt_status st = check_size(ctx, d, n);
    if (st != MT_OK) return st;
    int64_t m = points_of(d, n);
    float *xs = malloc((size_t)m * 2 * sizeof *xs), *ys = malloc((size_t)m * sizeof *ys);
    if (!xs || !ys) {
        free(xs);
        free(ys);
        return mt_fail(ctx, MT_ERR_NOMEM, "out of memory for a dataset of %lld points",
                       (long long)m);
    }
    for (int64_t k = 0; k < m; k++) {
        double x1, x2;
        int lab;
        point(ctx, d, k, n / 2, &x1, &x2, &lab);
        xs[2 * k] = (float)x1;
        xs[2 * k + 1] = (float)x2;
        ys[k] = lab ? 1.0f : 0.0f;
    }
    int64_t xshape[2] = {m, 2};
    st = mt_from_data(ctx, b, 2, xshape, xs, X);
    if (st == MT_OK) st = mt_from_data(ctx, b, 1, &m, ys, y);
    free(xs);
    free(ys);
    if (st != MT_OK) {
        mt_tensor_release(*X);
        *X = NULL;
    }
    return st;
}
