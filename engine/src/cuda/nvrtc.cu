/* nvrtc.cu — inside libminitorch_cuda.so: CUDA C source to a launchable kernel at run time (the
 * user functions of prog.c; Numba's cuda.jit does the same for the course's Python functions).
 *
 * NVRTC (libnvrtc, part of the CUDA toolkit, also on Colab) is opened with dlopen at the first
 * user function, not linked: a machine with the driver and no toolkit still runs every other
 * cuda op, and a user function there says NVRTC is missing. The source is compiled to PTX for
 * the device's compute capability (or the newest NVRTC knows, when the device is newer), with
 * --fmad=false so that a * b + c rounds twice as on the CPU, and loaded with
 * cudaLibraryLoadData (the driver finishes the PTX for the device). Kernels are kept by their
 * source text: the same function on the same kind of operands compiles once per process. */
#include "kernels.h"

#include <cuda_runtime.h>
#include <nvrtc.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace
{

/* The NVRTC functions used, from the library opened at run time. */
struct nvrtc_api {
    bool tried, ok;
    char why[256];
    decltype(&nvrtcGetErrorString) error;
    decltype(&nvrtcCreateProgram) create;
    decltype(&nvrtcCompileProgram) compile;
    decltype(&nvrtcGetProgramLogSize) log_size;
    decltype(&nvrtcGetProgramLog) log;
    decltype(&nvrtcGetPTXSize) ptx_size;
    decltype(&nvrtcGetPTX) ptx;
    decltype(&nvrtcDestroyProgram) destroy;
    decltype(&nvrtcGetNumSupportedArchs) num_archs;
    decltype(&nvrtcGetSupportedArchs) archs;
};

nvrtc_api api;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* api, the cache; compiling is rare */

template <typename F> bool sym(void *h, const char *name, F *out)
{
    *out = reinterpret_cast<F>(dlsym(h, name));
    return *out != nullptr;
}

/* Opens libnvrtc of the toolkit's major version (or any), once. */
bool open_nvrtc()
{
    if (api.tried) return api.ok;
    api.tried = true;
    char name[64];
    snprintf(name, sizeof name, "libnvrtc.so.%d", CUDART_VERSION / 1000);
    void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!h) h = dlopen("libnvrtc.so", RTLD_NOW | RTLD_LOCAL);
#ifdef MT_NVRTC_DIR
    if (!h) { /* the toolkit this library was built with, where the loader does not look */
        char path[512];
        snprintf(path, sizeof path, "%s/%s", MT_NVRTC_DIR, name);
        h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    }
#endif
    if (!h) {
        snprintf(api.why, sizeof api.why,
                 "NVRTC (%s, the CUDA toolkit's run-time compiler) is not installed or not on the "
                 "library path: %s",
                 name, dlerror());
        return false;
    }
    api.ok = sym(h, "nvrtcGetErrorString", &api.error) &&
             sym(h, "nvrtcCreateProgram", &api.create) &&
             sym(h, "nvrtcCompileProgram", &api.compile) &&
             sym(h, "nvrtcGetProgramLogSize", &api.log_size) &&
             sym(h, "nvrtcGetProgramLog", &api.log) && sym(h, "nvrtcGetPTXSize", &api.ptx_size) &&
             sym(h, "nvrtcGetPTX", &api.ptx) && sym(h, "nvrtcDestroyProgram", &api.destroy) &&
             sym(h, "nvrtcGetNumSupportedArchs", &api.num_archs) &&
             sym(h, "nvrtcGetSupportedArchs", &api.archs);
    if (!api.ok) snprintf(api.why, sizeof api.why, "%s lacks a function: %s", name, dlerror());
    return api.ok;
}

/* compute_XY for the current device: its own capability when NVRTC knows it, else the newest
 * NVRTC knows below it (PTX runs on later devices). */
int target_arch()
{
    int dev = 0, major = 0, minor = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
    const int want = major * 10 + minor;
    int n = 0, best = 0;
    if (api.num_archs(&n) != NVRTC_SUCCESS || n <= 0 || n > 256) return want;
    int archs[256];
    if (api.archs(archs) != NVRTC_SUCCESS) return want;
    for (int i = 0; i < n; i++)
        if (archs[i] <= want && archs[i] > best) best = archs[i];
    return best ? best : want;
}

struct entry {
    char *source;
    cudaLibrary_t library;
    cudaKernel_t kernel;
};
constexpr int kCache = 64;
entry cache[kCache];
int cached, next_evict;

/* Compiles and loads source; 0 or a CUDA error, or MT_CUDA_ERR_COMPILE with log filled. */
int build(const char *source, const char *name, cudaLibrary_t *library, cudaKernel_t *kernel,
          char *log, size_t loglen)
{
    if (!open_nvrtc()) {
        snprintf(log, loglen, "%s", api.why);
        return MT_CUDA_ERR_COMPILE;
    }
    nvrtcProgram prog;
    nvrtcResult r = api.create(&prog, source, "user_function.cu", 0, nullptr, nullptr);
    if (r != NVRTC_SUCCESS) {
        snprintf(log, loglen, "nvrtcCreateProgram: %s", api.error(r));
        return MT_CUDA_ERR_COMPILE;
    }
    char arch[48];
    snprintf(arch, sizeof arch, "--gpu-architecture=compute_%d", target_arch());
    const char *options[] = {arch, "--fmad=false", "--std=c++17"};
    r = api.compile(prog, 3, options);
    if (r != NVRTC_SUCCESS) {
        size_t n = 0;
        api.log_size(prog, &n);
        char *text = static_cast<char *>(malloc(n + 1));
        if (text && api.log(prog, text) == NVRTC_SUCCESS)
            snprintf(log, loglen, "NVRTC could not compile the generated kernel (%s): %s",
                     api.error(r), text);
        else
            snprintf(log, loglen, "NVRTC could not compile the generated kernel: %s", api.error(r));
        free(text);
        api.destroy(&prog);
        return MT_CUDA_ERR_COMPILE;
    }
    size_t n = 0;
    api.ptx_size(prog, &n);
    char *ptx = static_cast<char *>(malloc(n));
    if (!ptx) {
        api.destroy(&prog);
        return (int)cudaErrorMemoryAllocation;
    }
    api.ptx(prog, ptx);
    api.destroy(&prog);
    cudaError_t e = cudaLibraryLoadData(library, ptx, nullptr, nullptr, 0, nullptr, nullptr, 0);
    free(ptx);
    if (e == cudaSuccess) e = cudaLibraryGetKernel(kernel, *library, name);
    return (int)e;
}

} // namespace

int mt_cu_nvrtc_kernel(const char *source, const char *name, cudaKernel_t *kernel, char *log,
                       size_t loglen)
{
    pthread_mutex_lock(&lock);
    for (int i = 0; i < cached; i++)
        if (strcmp(cache[i].source, source) == 0) {
            *kernel = cache[i].kernel;
            pthread_mutex_unlock(&lock);
            return 0;
        }
    cudaLibrary_t library;
    int code = build(source, name, &library, kernel, log, loglen);
    char *copy = code == 0 ? strdup(source) : nullptr;
    if (copy) {
        int slot;
        if (cached < kCache) {
            slot = cached++;
        } else { /* full: the oldest kernel goes (the engine launches from one thread) */
            slot = next_evict;
            next_evict = (next_evict + 1) % kCache;
            free(cache[slot].source);
            cudaLibraryUnload(cache[slot].library);
        }
        cache[slot] = entry{copy, library, *kernel};
    } /* without the copy (out of memory) the kernel runs uncached: compiled again next time */
    pthread_mutex_unlock(&lock);
    return code;
}
