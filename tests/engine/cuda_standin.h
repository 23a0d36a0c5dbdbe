/* cuda_standin.h — how a test steers and observes the host stand-in of the cuda backend's
 * library (cuda_standin.c): find mt_cuda_standin_control with dlsym in the loaded library. */
#ifndef TESTS_CUDA_STANDIN_H
#define TESTS_CUDA_STANDIN_H

#include <stddef.h>

#define MT_CUDA_STANDIN_CONTROL "mt_cuda_standin_control"

/* All counters since the library was loaded. */
struct mt_cuda_standin {
    size_t memory;     /* device memory: allocations beyond it fail with MT_CUDA_ERR_NOMEM */
    size_t live;       /* bytes allocated and not released */
    long allocs;       /* successful alloc calls */
    long launches;     /* fill/map/zip/reduce/matmul calls */
    long copies;       /* copy calls */
    int fail_next;     /* a nonzero code: returned by the next launch or copy, then cleared */
    int fail_wait;     /* a nonzero code: returned by the next wait (a queued kernel's error) */
    long waits;        /* wait calls */
    int matmul_kernel; /* the kernel (enum mt_cuda_matmul) the last matmul asked for */
};

typedef struct mt_cuda_standin *(*mt_cuda_standin_control_fn)(void);

#endif
