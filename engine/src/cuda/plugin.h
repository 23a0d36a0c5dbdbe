/* plugin.h — the boundary between the engine and the cuda backend's library (internal).
 *
 * Everything CUDA lives in a shared library of its own, libminitorch_cuda.so (engine/src/cuda/
 * *.cu with the CUDA runtime linked in statically), which the engine loads with dlopen at the
 * first question about the cuda backend (loader.c). A kernel that never uses the GPU therefore
 * maps none of it: the same start-up memory as a build without CUDA. The library exports one
 * function, MT_CUDA_PLUGIN_SYMBOL, returning its table; the engine checks the version. */
#ifndef MINITORCH_CUDA_PLUGIN_H
#define MINITORCH_CUDA_PLUGIN_H

#include "device.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MT_CUDA_PLUGIN_VERSION 1
#define MT_CUDA_PLUGIN_SYMBOL "mt_cuda_plugin"
#define MT_CUDA_PLUGIN_FILE "libminitorch_cuda.so"

struct mt_cuda_plugin {
    int version; /* MT_CUDA_PLUGIN_VERSION */
    /* device.h's probe and device, run inside the library */
    bool (*probe)(const char **why);
    const struct mt_cuda_device *(*device)(void);
};

typedef const struct mt_cuda_plugin *(*mt_cuda_plugin_fn)(void);

#ifdef __cplusplus
}
#endif

#endif
