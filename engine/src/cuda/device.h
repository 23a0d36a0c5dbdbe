/* device.h — the cuda backend's device: is there one, which, and if not, why (internal to the
 * engine; C, implemented in runtime.cu, or in none.c by builds without CUDA).
 *
 * CUDA starts lazily: nothing here runs until the first question, so a kernel that never
 * touches the GPU never loads the driver or makes a CUDA context (the runtime is linked
 * statically; it only registers this build's kernels at start-up). The first call asks the
 * runtime for device 0 once per process, under a lock, and keeps the answer. */
#ifndef MINITORCH_CUDA_DEVICE_H
#define MINITORCH_CUDA_DEVICE_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct mt_cuda_device {
    char name[256];      /* "NVIDIA H100 80GB HBM3" */
    int major, minor;    /* compute capability */
    int sms;             /* streaming multiprocessors */
    size_t memory;       /* global memory, bytes */
    int runtime_version; /* cudaRuntimeGetVersion: 13000 = 13.0 */
    int driver_version;  /* cudaDriverGetVersion (0: no driver) */
    double dram_gbps;    /* peak DRAM bandwidth from the properties (0: unknown) */
    double fp32_gflops;  /* peak FP32 rate from the properties (0: unknown) */
};

/* True when the cuda backend can run on this machine: a build with CUDA, a driver, and a GPU
 * with code in this build. Otherwise *why (when why is not NULL) is one sentence saying which of
 * these is missing, e.g. "no NVIDIA driver is installed (cudaGetDeviceCount: CUDA driver version
 * is insufficient for CUDA runtime version)". Static strings; thread-safe. */
bool mt_cuda_probe(const char **why);

/* Device 0 as the probe found it, or NULL when mt_cuda_probe is false. */
const struct mt_cuda_device *mt_cuda_device(void);

#ifdef __cplusplus
}
#endif

#endif
