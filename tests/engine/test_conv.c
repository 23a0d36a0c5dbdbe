/* test_conv.c — MiniTorch's convolutions (Module 4) in the engine: mt_conv_raw, mt_conv1d and
 * mt_conv2d on the simple and fast backends. Expected values come from MiniTorch's definition
 * computed here in double over row-major copies (the input read as zeros past its edges, the
 * weight anchored left, or right with reverse), from MiniTorch's own worked example, and for
 * the gradients from the definition of the derivative (central differences of the double
 * reference) and its closed form; never from the engine's kernels. */
#include "minitorch/minitorch.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static struct mt_ctx *ctx;
static uint64_t seed = 0x5eed0c0471ull;

/* Sizes of a convolution seen as 2-D (a 1-D one has h = kh = oh = 1). */
struct dims {
    int64_t B, C, H, W, O, KH, KW, OH, OW;
};

/* out[b, o, y, x] = sum over c, ky, kx of in[b, c, y +- ky, x +- kx] * w[o, c, ky, kx], the input
 * read as zero past its edges: MiniTorch's _tensor_conv2d, in double, row-major arrays. */
static void reference(const struct dims *d, const double *in, const double *w, bool reverse,
                      double *out)
{
    for (int64_t b = 0; b < d->B; b++)
        for (int64_t o = 0; o < d->O; o++)
            for (int64_t y = 0; y < d->OH; y++)
                for (int64_t x = 0; x < d->OW; x++) {
                    double acc = 0.0;
                    for (int64_t c = 0; c < d->C; c++)
                        for (int64_t ky = 0; ky < d->KH; ky++)
                            for (int64_t kx = 0; kx < d->KW; kx++) {
                                int64_t iy = reverse ? y - ky : y + ky;
                                int64_t ix = reverse ? x - kx : x + kx;
                                if (iy < 0 || iy >= d->H || ix < 0 || ix >= d->W) continue;
                                acc += in[((b * d->C + c) * d->H + iy) * d->W + ix] *
                                       w[((o * d->C + c) * d->KH + ky) * d->KW + kx];
                            }
                    out[((b * d->O + o) * d->OH + y) * d->OW + x] = acc;
                }
}

static void fill(double *v, int64_t n)
{
    for (int64_t i = 0; i < n; i++) v[i] = test_rand_float(&seed);
}

static float *to_float(const double *v, int64_t n)
{
    float *f = malloc((size_t)n * sizeof *f);
    for (int64_t i = 0; i < n; i++) f[i] = (float)v[i];
    return f;
}

/* A tensor of `shape` on backend b holding v (row-major), laid out as `layout` says: 0
 * contiguous; 1 the first two dims stored swapped (a permuted view, unit last stride); 2 the
 * last dim stored first (a permuted view whose last stride is not 1). */
static struct mt_tensor *make(enum mt_backend b, int ndim, const int64_t *shape, const double *v,
                              int layout)
{
    int64_t n = 1;
    for (int i = 0; i < ndim; i++) n *= shape[i];
    int64_t order[MT_MAX_DIMS], stored[MT_MAX_DIMS];
    for (int i = 0; i < ndim; i++) order[i] = i;
    if (layout == 1) order[0] = 1, order[1] = 0;
    if (layout == 2) { /* stored (d_last, d0, d1, ...): viewed back by moving it last */
        for (int i = 0; i < ndim; i++) order[i] = i == 0 ? ndim - 1 : i - 1;
    }
    for (int i = 0; i < ndim; i++) stored[i] = shape[order[i]];
    /* the stored tensor's row-major data: element at stored index s is v at index with
     * index[order[i]] = s[i] */
    float *data = malloc((size_t)n * sizeof *data);
    int64_t s[MT_MAX_DIMS], idx[MT_MAX_DIMS], strides[MT_MAX_DIMS];
    mt_strides_from_shape(ndim, shape, strides);
    for (int64_t i = 0; i < n; i++) {
        mt_to_index(i, ndim, stored, s);
        for (int k = 0; k < ndim; k++) idx[order[k]] = s[k];
        data[i] = (float)v[mt_index_to_position(ndim, idx, strides)];
    }
    struct mt_tensor *t = NULL, *view = NULL;
    CHECK(mt_from_data(ctx, b, ndim, stored, data, &t) == MT_OK);
    free(data);
    if (layout == 0) return t;
    int64_t back[MT_MAX_DIMS]; /* the permutation that undoes `order` */
    for (int i = 0; i < ndim; i++) back[order[i]] = i;
    CHECK(mt_permute(ctx, t, ndim, back, &view) == MT_OK);
    mt_tensor_release(t);
    for (int i = 0; i < ndim; i++) CHECK_INT(view->shape[i], shape[i]);
    return view;
}

/* |got - want| within 1e-4 relative to the terms' scale, for every element (row-major). */
static bool close_to(const struct mt_tensor *t, const double *want, int64_t n, double scale)
{
    float *got = malloc((size_t)n * sizeof *got);
    CHECK_INT(t->size, n);
    mt_tensor_copy_out(t, got);
    bool ok = true;
    for (int64_t i = 0; i < n && ok; i++)
        if (!(fabs(got[i] - want[i]) <= 1e-4 * scale)) {
            fprintf(stderr, "  element %lld: got %.7g, want %.7g\n", (long long)i, got[i], want[i]);
            ok = false;
        }
    free(got);
    return ok;
}

/* MiniTorch's test_conv1d_simple: [0, 1, 2, 3] by [1, 2, 3], the input padded with zeros. */
static void test_minitorch_example(void)
{
    for (int b = MT_BACKEND_SIMPLE; b <= MT_BACKEND_FAST; b++) {
        int64_t is[] = {1, 1, 4}, ws[] = {1, 1, 3};
        float iv[] = {0, 1, 2, 3}, wv[] = {1, 2, 3}, got[4];
        struct mt_tensor *in = NULL, *w = NULL, *out = NULL;
        CHECK(mt_from_data(ctx, b, 3, is, iv, &in) == MT_OK);
        CHECK(mt_from_data(ctx, b, 3, ws, wv, &w) == MT_OK);
        CHECK(mt_conv1d(ctx, in, w, &out) == MT_OK);
        CHECK_INT(out->ndim, 3);
        CHECK_INT(out->shape[2], 4);
        mt_tensor_copy_out(out, got);
        CHECK(got[0] == 0 * 1 + 1 * 2 + 2 * 3);
        CHECK(got[1] == 1 * 1 + 2 * 2 + 3 * 3);
        CHECK(got[2] == 2 * 1 + 3 * 2);
        CHECK(got[3] == 3 * 1);
        mt_tensor_release(out);
        out = NULL;
        /* reverse anchors the weight at the right: out[x] = sum in[x - k] * w[k] */
        CHECK(mt_conv_raw(ctx, in, w, true, &out) == MT_OK);
        mt_tensor_copy_out(out, got);
        CHECK(got[0] == 0 * 1);
        CHECK(got[1] == 1 * 1 + 0 * 2);
        CHECK(got[2] == 2 * 1 + 1 * 2 + 0 * 3);
        CHECK(got[3] == 3 * 1 + 2 * 2 + 1 * 3);
        mt_tensor_release(out);
        mt_tensor_release(in);
        mt_tensor_release(w);
    }
}

/* The input's and the weight's shapes of convolution d, 1-D or 2-D. */
static void shapes_of(const struct dims *d, bool two_d, int64_t *is, int64_t *ws)
{
    int64_t i4[] = {d->B, d->C, d->H, d->W}, w4[] = {d->O, d->C, d->KH, d->KW};
    int64_t i3[] = {d->B, d->C, d->W}, w3[] = {d->O, d->C, d->KW};
    memcpy(is, two_d ? i4 : i3, two_d ? sizeof i4 : sizeof i3);
    memcpy(ws, two_d ? w4 : w3, two_d ? sizeof w4 : sizeof w3);
}

/* One forward case: both anchors, every layout of the input, against the reference. */
static void forward_case(enum mt_backend b, bool two_d, struct dims d)
{
    int nd = two_d ? 4 : 3;
    int64_t is[4], ws[4];
    shapes_of(&d, two_d, is, ws);
    int64_t ni = d.B * d.C * d.H * d.W, nw = d.O * d.C * d.KH * d.KW, no = d.B * d.O * d.OH * d.OW;
    double *iv = malloc((size_t)ni * sizeof *iv), *wv = malloc((size_t)nw * sizeof *wv);
    double *want = malloc((size_t)no * sizeof *want);
    fill(iv, ni);
    fill(wv, nw);
    double scale = 4.0 * (double)(d.C * d.KH * d.KW); /* |terms| <= 4: the sum's size */
    for (int rev = 0; rev < 2; rev++) {
        reference(&d, iv, wv, rev, want);
        for (int layout = 0; layout < 3; layout++) {
            struct mt_tensor *in = make(b, nd, is, iv, layout);
            struct mt_tensor *w = make(b, nd, ws, wv, 2 - layout);
            struct mt_tensor *out = NULL;
            CHECK(mt_conv_raw(ctx, in, w, rev, &out) == MT_OK);
            if (out) {
                CHECK_INT(out->ndim, nd);
                if (!close_to(out, want, no, scale))
                    fprintf(stderr, "  %s %s reverse %d layout %d\n", mt_backend_name(b),
                            two_d ? "2-D" : "1-D", rev, layout);
                CHECK(close_to(out, want, no, scale));
            }
            mt_tensor_release(out);
            mt_tensor_release(in);
            mt_tensor_release(w);
        }
    }
    free(iv), free(wv), free(want);
}

static void test_forward(void)
{
    for (int b = MT_BACKEND_SIMPLE; b <= MT_BACKEND_FAST; b++) {
        /* MiniTorch's test shapes, then more channels, kernels as wide as the input, a wide
         * row past fast's strip of 1024 columns */
        forward_case(b, false, (struct dims){1, 1, 1, 6, 1, 1, 4, 1, 6});
        forward_case(b, false, (struct dims){2, 2, 1, 6, 3, 1, 2, 1, 6});
        forward_case(b, false, (struct dims){3, 4, 1, 9, 5, 1, 9, 1, 9});
        forward_case(b, false, (struct dims){2, 3, 1, 2100, 2, 1, 5, 1, 2100});
        forward_case(b, true, (struct dims){1, 1, 6, 6, 1, 2, 4, 6, 6});
        forward_case(b, true, (struct dims){2, 2, 6, 6, 3, 2, 4, 6, 6});
        forward_case(b, true, (struct dims){2, 3, 8, 7, 4, 3, 3, 8, 7});
        forward_case(b, true, (struct dims){1, 2, 5, 5, 2, 5, 5, 5, 5});
    }
}

/* An output of other spatial sizes than the input's, as the backward's weight gradient is:
 * the sum runs over the weight's cells, the output's size only says where to stop. */
static void test_given_output(void)
{
    struct dims d = {2, 3, 1, 8, 2, 1, 8, 1, 3}; /* a kernel as wide as the input, 3 outputs */
    int64_t ni = d.B * d.C * d.W, nw = d.O * d.C * d.KW, no = d.B * d.O * d.OW;
    double iv[48], wv[48], want[12];
    fill(iv, ni);
    fill(wv, nw);
    reference(&d, iv, wv, false, want);
    for (int b = MT_BACKEND_SIMPLE; b <= MT_BACKEND_FAST; b++) {
        int64_t is[] = {d.B, d.C, d.W}, ws[] = {d.O, d.C, d.KW}, os[] = {d.B, d.O, d.OW};
        struct mt_tensor *in = make(b, 3, is, iv, 0), *w = make(b, 3, ws, wv, 0), *out = NULL;
        CHECK(mt_zeros(ctx, b, 3, os, &out) == MT_OK);
        struct mt_tensor *given = out;
        CHECK(mt_conv_raw(ctx, in, w, false, &out) == MT_OK);
        CHECK(out == given); /* written in place */
        CHECK(close_to(out, want, no, 4.0 * 24));
        /* an output whose batch or channels do not fit is refused, naming the shapes */
        int64_t bad[] = {d.B, d.O + 1, 3};
        struct mt_tensor *wrong = NULL;
        CHECK(mt_zeros(ctx, b, 3, bad, &wrong) == MT_OK);
        CHECK(mt_conv_raw(ctx, in, w, false, &wrong) == MT_ERR_SHAPE);
        CHECK(strstr(mt_ctx_error(ctx), "(2, 3, 3)") != NULL);
        mt_tensor_release(wrong);
        mt_tensor_release(out);
        mt_tensor_release(in);
        mt_tensor_release(w);
    }
}

/* Gradients of sum(conv(in, w) * g) for a random g: d/d in and d/d w by central differences of
 * the double reference (the definition), and the engine's backward within float's error. */
static void backward_case(enum mt_backend b, bool two_d, struct dims d)
{
    int nd = two_d ? 4 : 3;
    int64_t is[4], ws[4];
    shapes_of(&d, two_d, is, ws);
    int64_t os[4] = {d.B, d.O, two_d ? d.OH : d.OW, d.OW};
    int64_t ni = d.B * d.C * d.H * d.W, nw = d.O * d.C * d.KH * d.KW, no = d.B * d.O * d.OH * d.OW;
    double *iv = malloc((size_t)ni * sizeof *iv), *wv = malloc((size_t)nw * sizeof *wv);
    double *gv = malloc((size_t)no * sizeof *gv), *tmp = malloc((size_t)no * sizeof *tmp);
    double *gin = malloc((size_t)ni * sizeof *gin), *gw = malloc((size_t)nw * sizeof *gw);
    fill(iv, ni);
    fill(wv, nw);
    fill(gv, no);
    /* L(in, w) = sum(conv(in, w) * g); conv is linear in each, so the central difference with
     * a step of 1 is exact up to rounding */
    for (int which = 0; which < 2; which++) {
        double *v = which ? wv : iv, *grad = which ? gw : gin;
        int64_t n = which ? nw : ni;
        for (int64_t i = 0; i < n; i++) {
            double keep = v[i], up = 0.0, down = 0.0;
            v[i] = keep + 1.0;
            reference(&d, iv, wv, false, tmp);
            for (int64_t k = 0; k < no; k++) up += tmp[k] * gv[k];
            v[i] = keep - 1.0;
            reference(&d, iv, wv, false, tmp);
            for (int64_t k = 0; k < no; k++) down += tmp[k] * gv[k];
            v[i] = keep;
            grad[i] = (up - down) / 2.0;
        }
    }
    struct mt_tensor *in = make(b, nd, is, iv, 1), *w = make(b, nd, ws, wv, 0);
    struct mt_tensor *g = make(b, nd, os, gv, 0), *out = NULL;
    CHECK(mt_tensor_requires_grad(in, true) == MT_OK);
    CHECK(mt_tensor_requires_grad(w, true) == MT_OK);
    CHECK((two_d ? mt_conv2d : mt_conv1d)(ctx, in, w, &out) == MT_OK);
    CHECK(out && out->requires_grad);
    if (out) CHECK(mt_backward(ctx, out, g) == MT_OK);
    double scale = 4.0 * (double)(d.B * d.O * d.KH * d.KW + d.B * d.OH * d.OW);
    CHECK(in->grad && close_to(in->grad, gin, ni, scale));
    CHECK(w->grad && close_to(w->grad, gw, nw, scale));
    mt_tensor_release(out);
    mt_tensor_release(in);
    mt_tensor_release(w);
    mt_tensor_release(g);
    free(iv), free(wv), free(gv), free(tmp), free(gin), free(gw);
}

static void test_backward(void)
{
    for (int b = MT_BACKEND_SIMPLE; b <= MT_BACKEND_FAST; b++) {
        /* MiniTorch's test_conv1d, test_conv1d_channel, test_conv, test_conv_channel shapes */
        backward_case(b, false, (struct dims){1, 1, 1, 6, 1, 1, 4, 1, 6});
        backward_case(b, false, (struct dims){2, 2, 1, 6, 3, 1, 2, 1, 6});
        backward_case(b, true, (struct dims){1, 1, 6, 6, 1, 2, 4, 6, 6});
        backward_case(b, true, (struct dims){2, 1, 6, 6, 1, 2, 4, 6, 6});
        backward_case(b, true, (struct dims){2, 2, 6, 6, 3, 2, 4, 6, 6});
    }
}

/* MiniTorch's test_conv2: a 4x4 image of columns 0..3 by a 2x2 kernel of ones, out.sum()
 * backward: each input cell's gradient counts the outputs it feeds, each weight cell's sums
 * the input cells it meets. */
static void test_minitorch_conv2(void)
{
    for (int b = MT_BACKEND_SIMPLE; b <= MT_BACKEND_FAST; b++) {
        int64_t is[] = {1, 1, 4, 4}, ws[] = {1, 1, 2, 2};
        float iv[16], wv[] = {1, 1, 1, 1}, gi[16], gw[4];
        for (int i = 0; i < 16; i++) iv[i] = (float)(i % 4);
        struct mt_tensor *in = NULL, *w = NULL, *out = NULL, *s = NULL;
        CHECK(mt_from_data(ctx, b, 4, is, iv, &in) == MT_OK);
        CHECK(mt_from_data(ctx, b, 4, ws, wv, &w) == MT_OK);
        CHECK(mt_tensor_requires_grad(in, true) == MT_OK);
        CHECK(mt_tensor_requires_grad(w, true) == MT_OK);
        CHECK(mt_conv2d(ctx, in, w, &out) == MT_OK);
        CHECK(mt_sum(ctx, out, MT_ALL_DIMS, &s) == MT_OK);
        CHECK(mt_backward(ctx, s, NULL) == MT_OK);
        mt_tensor_copy_out(in->grad, gi);
        mt_tensor_copy_out(w->grad, gw);
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 4; x++) /* outputs (y - ky, x - kx) for ky, kx in {0, 1} */
                CHECK(gi[y * 4 + x] == (float)((y > 0 ? 2 : 1) * (x > 0 ? 2 : 1)));
        /* weight (ky, kx): the sum of in[y + ky, x + kx] over the 16 outputs, inside */
        for (int ky = 0; ky < 2; ky++)
            for (int kx = 0; kx < 2; kx++) {
                float want = 0.0f;
                for (int y = ky; y < 4; y++)
                    for (int x = kx; x < 4; x++) want += (float)x;
                CHECK(gw[ky * 2 + kx] == want);
            }
        mt_tensor_release(s);
        mt_tensor_release(out);
        mt_tensor_release(in);
        mt_tensor_release(w);
    }
}

/* The closed forms of the gradients of sum(conv(in, w) * g): in's cell gets g times the
 * weight cells that read it, w's cell sums g times the input cells it meets. */
static void backward_reference(const struct dims *d, const double *in, const double *w,
                               const double *g, double *gin, double *gw)
{
    memset(gin, 0, (size_t)(d->B * d->C * d->H * d->W) * sizeof *gin);
    memset(gw, 0, (size_t)(d->O * d->C * d->KH * d->KW) * sizeof *gw);
    for (int64_t b = 0; b < d->B; b++)
        for (int64_t o = 0; o < d->O; o++)
            for (int64_t y = 0; y < d->OH; y++)
                for (int64_t x = 0; x < d->OW; x++) {
                    double gv = g[((b * d->O + o) * d->OH + y) * d->OW + x];
                    for (int64_t c = 0; c < d->C; c++)
                        for (int64_t ky = 0; ky < d->KH && y + ky < d->H; ky++)
                            for (int64_t kx = 0; kx < d->KW && x + kx < d->W; kx++) {
                                int64_t i = ((b * d->C + c) * d->H + y + ky) * d->W + x + kx;
                                int64_t k = ((o * d->C + c) * d->KH + ky) * d->KW + kx;
                                gin[i] += gv * w[k];
                                gw[k] += gv * in[i];
                            }
                }
}

/* Convolution d into an output given by the caller, of d's (OH, OW), laid out three ways:
 * contiguous; its cells one stride apart but not adjacent ((b, y, x, o) storage); its cells
 * not one stride apart ((b, x, o, y) storage). The input and the weight strided too. */
static void given_output_case(struct dims d)
{
    int64_t ni = d.B * d.C * d.H * d.W, nw = d.O * d.C * d.KH * d.KW;
    int64_t no = d.B * d.O * d.OH * d.OW;
    double *iv = malloc((size_t)ni * sizeof *iv), *wv = malloc((size_t)nw * sizeof *wv);
    double *want = malloc((size_t)no * sizeof *want);
    fill(iv, ni);
    fill(wv, nw);
    int64_t is[] = {d.B, d.C, d.H, d.W}, ws[] = {d.O, d.C, d.KH, d.KW};
    int64_t stored[3][4] = {{d.B, d.O, d.OH, d.OW}, {d.B, d.OH, d.OW, d.O}, {d.B, d.OW, d.O, d.OH}};
    int64_t back[3][4] = {{0, 1, 2, 3}, {0, 3, 1, 2}, {0, 2, 3, 1}};
    for (int rev = 0; rev < 2; rev++) {
        reference(&d, iv, wv, rev, want);
        for (int b = MT_BACKEND_SIMPLE; b <= MT_BACKEND_FAST; b++)
            for (int layout = 0; layout < 3; layout++) {
                struct mt_tensor *in = make(b, 4, is, iv, layout % 2);
                struct mt_tensor *w = make(b, 4, ws, wv, 1 - layout % 2);
                struct mt_tensor *store = NULL, *out = NULL;
                CHECK(mt_zeros(ctx, b, 4, stored[layout], &store) == MT_OK);
                CHECK(mt_permute(ctx, store, 4, back[layout], &out) == MT_OK);
                CHECK_INT(out->shape[1], d.O);
                CHECK_INT(out->shape[3], d.OW);
                CHECK(mt_conv_raw(ctx, in, w, rev, &out) == MT_OK);
                if (!close_to(out, want, no, 4.0 * (double)(d.C * d.KH * d.KW)))
                    fprintf(stderr, "  %s output layout %d reverse %d\n", mt_backend_name(b),
                            layout, rev);
                CHECK(close_to(out, want, no, 4.0 * (double)(d.C * d.KH * d.KW)));
                mt_tensor_release(out);
                mt_tensor_release(store);
                mt_tensor_release(in);
                mt_tensor_release(w);
            }
    }
    free(iv), free(wv), free(want);
}

/* Sizes at which fast runs a gemm (the sizes above run its direct rows): im2col blocks times
 * the weight, or the weight's cells times the image then shifted sums; the forward with both
 * anchors and strided operands, an output narrower than the input (the weight gradient's
 * call), a strided output, and a whole backward against the closed forms. */
static void test_gemm_sizes(void)
{
    for (int b = MT_BACKEND_SIMPLE; b <= MT_BACKEND_FAST; b++) {
        forward_case(b, true, (struct dims){4, 3, 20, 20, 16, 5, 5, 20, 20});
        forward_case(b, true, (struct dims){3, 8, 9, 13, 20, 3, 4, 9, 13});
        forward_case(b, false, (struct dims){5, 6, 1, 300, 12, 1, 7, 1, 300});
        /* fewer channels out than in (the input gradient's call): fast's products of each
         * weight cell with the image, then their shifted sums */
        forward_case(b, true, (struct dims){4, 12, 10, 9, 5, 3, 4, 10, 9});
        forward_case(b, false, (struct dims){3, 10, 1, 40, 4, 1, 5, 1, 40});
    }
    /* the weight gradient's call: a "kernel" as large as the image, a 3x3 output */
    given_output_case((struct dims){2, 64, 12, 12, 8, 12, 12, 3, 3});
    /* more cells than one im2col block holds: two blocks per image, split inside a row */
    given_output_case((struct dims){1, 16, 39, 41, 4, 5, 5, 39, 41});
    /* fewer channels out than in: the shifted sums' path */
    given_output_case((struct dims){2, 12, 9, 11, 5, 3, 3, 9, 11});

    /* LeNet's second layer on a batch: forward, then both gradients through mt_conv2d */
    struct dims d = {8, 6, 14, 14, 16, 5, 5, 14, 14};
    int64_t ni = d.B * d.C * d.H * d.W, nw = d.O * d.C * d.KH * d.KW;
    int64_t no = d.B * d.O * d.OH * d.OW;
    double *iv = malloc((size_t)ni * sizeof *iv), *wv = malloc((size_t)nw * sizeof *wv);
    double *gv = malloc((size_t)no * sizeof *gv);
    double *gin = malloc((size_t)ni * sizeof *gin), *gw = malloc((size_t)nw * sizeof *gw);
    fill(iv, ni);
    fill(wv, nw);
    fill(gv, no);
    backward_reference(&d, iv, wv, gv, gin, gw);
    int64_t is[] = {d.B, d.C, d.H, d.W}, ws[] = {d.O, d.C, d.KH, d.KW};
    int64_t os[] = {d.B, d.O, d.OH, d.OW};
    for (int b = MT_BACKEND_SIMPLE; b <= MT_BACKEND_FAST; b++) {
        struct mt_tensor *in = make(b, 4, is, iv, 0), *w = make(b, 4, ws, wv, 0);
        struct mt_tensor *g = make(b, 4, os, gv, 0), *out = NULL;
        CHECK(mt_tensor_requires_grad(in, true) == MT_OK);
        CHECK(mt_tensor_requires_grad(w, true) == MT_OK);
        CHECK(mt_conv2d(ctx, in, w, &out) == MT_OK);
        if (out) CHECK(mt_backward(ctx, out, g) == MT_OK);
        CHECK(in->grad && close_to(in->grad, gin, ni, 4.0 * (double)(d.O * 25)));
        CHECK(w->grad && close_to(w->grad, gw, nw, 4.0 * (double)(d.B * 196)));
        mt_tensor_release(out);
        mt_tensor_release(in);
        mt_tensor_release(w);
        mt_tensor_release(g);
    }
    free(iv), free(wv), free(gv), free(gin), free(gw);
}

/* fast at sizes of LeNet's layers (direct rows and im2col both) on one thread and on two: the
 * same bits, as for every fast op (each output cell summed by one thread in an order fixed by
 * the shapes), and within float's error of simple's. */
static void test_fast_repeatable(void)
{
    struct dims cases[] = {{8, 4, 1, 28, 8, 1, 5, 1, 28}, {16, 4, 28, 28, 8, 5, 5, 28, 28}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct dims d = cases[k];
        int64_t is[] = {d.B, d.C, d.H, d.W}, ws[] = {d.O, d.C, d.KH, d.KW};
        int64_t ni = d.B * d.C * d.H * d.W, nw = d.O * d.C * d.KH * d.KW;
        double *iv = malloc((size_t)ni * sizeof *iv), *wv = malloc((size_t)nw * sizeof *wv);
        fill(iv, ni);
        fill(wv, nw);
        float *fi = to_float(iv, ni), *fw = to_float(wv, nw);
        struct mt_tensor *t[3][3] = {{NULL}}; /* simple; fast on 1 thread; fast on 2 */
        for (int r = 0; r < 3; r++) {
            enum mt_backend b = r == 0 ? MT_BACKEND_SIMPLE : MT_BACKEND_FAST;
            CHECK(mt_ctx_set_threads(ctx, r == 1 ? 1 : 2) == MT_OK);
            CHECK(mt_from_data(ctx, b, 4, is, fi, &t[r][0]) == MT_OK);
            CHECK(mt_from_data(ctx, b, 4, ws, fw, &t[r][1]) == MT_OK);
            CHECK(mt_conv_raw(ctx, t[r][0], t[r][1], false, &t[r][2]) == MT_OK);
        }
        int64_t no = t[0][2]->size;
        float *got[3];
        double *want = malloc((size_t)no * sizeof *want);
        for (int r = 0; r < 3; r++) {
            got[r] = malloc((size_t)no * sizeof *got[r]);
            mt_tensor_copy_out(t[r][2], got[r]);
        }
        for (int64_t i = 0; i < no; i++) want[i] = got[0][i];
        CHECK(memcmp(got[1], got[2], (size_t)no * sizeof *got[1]) == 0);
        CHECK(close_to(t[1][2], want, no, 4.0 * (double)(d.C * d.KH * d.KW)));
        for (int r = 0; r < 3; r++) {
            for (int i = 0; i < 3; i++) mt_tensor_release(t[r][i]);
            free(got[r]);
        }
        free(iv), free(wv), free(fi), free(fw), free(want);
    }
}

static void test_errors(void)
{
    for (int b = MT_BACKEND_SIMPLE; b <= MT_BACKEND_FAST; b++) {
        int64_t is[] = {2, 3, 6}, ws[] = {4, 2, 3}, wide[] = {4, 3, 7}, is2[] = {2, 3, 6, 6};
        struct mt_tensor *in = NULL, *w = NULL, *wv = NULL, *in2 = NULL, *out = NULL;
        CHECK(mt_zeros(ctx, b, 3, is, &in) == MT_OK);
        CHECK(mt_zeros(ctx, b, 3, ws, &w) == MT_OK);
        CHECK(mt_zeros(ctx, b, 3, wide, &wv) == MT_OK);
        CHECK(mt_zeros(ctx, b, 4, is2, &in2) == MT_OK);
        /* channels that differ */
        CHECK(mt_conv1d(ctx, in, w, &out) == MT_ERR_SHAPE);
        CHECK(strstr(mt_ctx_error(ctx), "(2, 3, 6)") && strstr(mt_ctx_error(ctx), "(4, 2, 3)"));
        /* a kernel wider than the input */
        CHECK(mt_conv1d(ctx, in, wv, &out) == MT_ERR_SHAPE);
        CHECK(strstr(mt_ctx_error(ctx), "wider") && strstr(mt_ctx_error(ctx), "(4, 3, 7)"));
        /* the wrong number of dims */
        CHECK(mt_conv1d(ctx, in2, w, &out) == MT_ERR_SHAPE);
        CHECK(strstr(mt_ctx_error(ctx), "conv1d takes input (batch, in_channels, w)"));
        CHECK(mt_conv2d(ctx, in, w, &out) == MT_ERR_SHAPE);
        CHECK(mt_conv_raw(ctx, in2, w, false, &out) == MT_ERR_SHAPE);
        CHECK(out == NULL);
        mt_tensor_release(in);
        mt_tensor_release(w);
        mt_tensor_release(wv);
        mt_tensor_release(in2);
    }
}

/* Empty sizes: no output channels, no input channels (whose backward convolves by a weight
 * with no output channels), no batch: empty or zero results, never a division by zero. */
static void test_empty(void)
{
    for (int b = MT_BACKEND_SIMPLE; b <= MT_BACKEND_FAST; b++) {
        int64_t is[] = {1, 1, 4}, ws[] = {0, 1, 2}, is0[] = {1, 0, 4}, ws0[] = {1, 0, 2};
        int64_t ib[] = {0, 1, 4};
        struct mt_tensor *in = NULL, *w = NULL, *out = NULL, *s = NULL, *nb = NULL, *o2 = NULL;
        CHECK(mt_ones(ctx, b, 3, is, &in) == MT_OK);
        CHECK(mt_ones(ctx, b, 3, ws, &w) == MT_OK);
        CHECK(mt_conv_raw(ctx, in, w, false, &out) == MT_OK);
        CHECK(out && out->size == 0 && out->shape[1] == 0);
        mt_tensor_release(in), mt_tensor_release(w), mt_tensor_release(out);
        in = w = out = NULL;
        CHECK(mt_ones(ctx, b, 3, is0, &in) == MT_OK);
        CHECK(mt_ones(ctx, b, 3, ws0, &w) == MT_OK);
        CHECK(mt_tensor_requires_grad(in, true) == MT_OK);
        CHECK(mt_tensor_requires_grad(w, true) == MT_OK);
        CHECK(mt_conv1d(ctx, in, w, &out) == MT_OK);
        CHECK(out && out->size == 4);
        if (out) CHECK(mt_sum(ctx, out, MT_ALL_DIMS, &s) == MT_OK);
        if (s) CHECK(mt_backward(ctx, s, NULL) == MT_OK);
        CHECK(in->grad && in->grad->size == 0 && w->grad && w->grad->size == 0);
        CHECK(mt_ones(ctx, b, 3, ib, &nb) == MT_OK);
        CHECK(mt_conv_raw(ctx, nb, w, false, &o2) == MT_ERR_SHAPE); /* 1 channel, weight 0 */
        mt_tensor_release(in), mt_tensor_release(w), mt_tensor_release(out);
        mt_tensor_release(s), mt_tensor_release(nb), mt_tensor_release(o2);
    }
}

int main(void)
{
    ctx = mt_ctx_new();
    RUN_TEST(test_minitorch_example);
    RUN_TEST(test_forward);
    RUN_TEST(test_given_output);
    RUN_TEST(test_backward);
    RUN_TEST(test_minitorch_conv2);
    RUN_TEST(test_gemm_sizes);
    RUN_TEST(test_fast_repeatable);
    RUN_TEST(test_errors);
    RUN_TEST(test_empty);
    mt_ctx_free(ctx);
    return TEST_SUMMARY();
}
