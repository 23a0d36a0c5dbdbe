/* mlp.h — MiniTorch's network as a backend's fused training sees it (internal).
 *
 * train.c hands it to the backend table's train entries (internal.h); the cuda backend passes it
 * on to its library (cuda/plugin.h), which compiles this header as C++ too. Plain data: a
 * backend reads the pointers as addresses in its own memory. */
#ifndef MINITORCH_MLP_H
#define MINITORCH_MLP_H

#include <stdint.h>

/* The most layers a network may have (train.c's limit too). */
#define MT_MLP_MAX 8

/* nl linear layers with ReLU between them and a sigmoid after the last (one output), and the
 * data and batch order of its training, every pointer in the training backend's memory. */
struct mt_mlp {
    int nl;
    int64_t width[MT_MLP_MAX + 1]; /* width[0]: the input's; width[l + 1]: layer l's out */
    float *w[MT_MLP_MAX];          /* (width[l], width[l + 1]) row-major, updated in place */
    float *b[MT_MLP_MAX];          /* (width[l + 1]) */
    float *gw[MT_MLP_MAX];         /* the epoch's last step's gradients, same shapes */
    float *gb[MT_MLP_MAX];
    const float *x, *y; /* the points (n, width[0]) row-major and labels (n) */
    int64_t n, batch;
    float rate;
};

#endif
