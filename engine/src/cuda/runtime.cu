/* runtime.cu — the cuda backend's device probe, inside libminitorch_cuda.so (plugin.h): asks
 * the CUDA runtime for device 0 at the first question, once per process, and turns every way of
 * not having a GPU into a sentence a student can act on. */
#include "kernels.h"

#include <cuda_runtime.h>

#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* The oldest device this build has code for: CMAKE_CUDA_ARCHITECTURES starts at sm_75 (Colab's
 * T4), and the PTX is for sm_90, which older devices cannot JIT. */
#define MT_CUDA_MIN_MAJOR 7
#define MT_CUDA_MIN_MINOR 5

/* FP32 lanes per SM by compute capability (the CUDA C Programming Guide's throughput table:
 * 64 on Turing and A100, 128 on the later consumer Ampere, Ada, Hopper and Blackwell). */
static int fp32_lanes(int major, int minor)
{
    if (major < 8 || (major == 8 && minor == 0)) return 64;
    return 128;
}

/* The device's peaks from its attributes: DRAM (double data rate) and FP32 FMA. */
static void peaks(struct mt_cuda_device *d)
{
    int sm_khz = 0, mem_khz = 0, bus_bits = 0;
    if (cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0) == cudaSuccess &&
        cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0) == cudaSuccess)
        d->dram_gbps = 2.0 * mem_khz * 1e3 * (bus_bits / 8.0) / 1e9;
    if (cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, 0) == cudaSuccess)
        d->fp32_gflops = (double)d->sms * fp32_lanes(d->major, d->minor) * 2.0 * sm_khz * 1e3 / 1e9;
}

static pthread_once_t probe_once = PTHREAD_ONCE_INIT;
static bool probe_ok;
static char probe_why[512];
static struct mt_cuda_device probe_dev;

static void probe_run(void)
{
    cudaRuntimeGetVersion(&probe_dev.runtime_version);
    if (cudaDriverGetVersion(&probe_dev.driver_version) != cudaSuccess)
        probe_dev.driver_version = 0;
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    const int rv = probe_dev.runtime_version;
    if (e == cudaErrorInsufficientDriver && probe_dev.driver_version == 0) {
        snprintf(probe_why, sizeof probe_why,
                 "no NVIDIA driver is installed (cudaGetDeviceCount: %s)", cudaGetErrorString(e));
    } else if (e == cudaErrorInsufficientDriver) {
        snprintf(probe_why, sizeof probe_why,
                 "the NVIDIA driver supports CUDA %d.%d, older than this build's runtime %d.%d "
                 "(cudaGetDeviceCount: %s)",
                 probe_dev.driver_version / 1000, probe_dev.driver_version % 1000 / 10, rv / 1000,
                 rv % 1000 / 10, cudaGetErrorString(e));
    } else if (e == cudaErrorNoDevice || (e == cudaSuccess && n == 0)) {
        snprintf(probe_why, sizeof probe_why,
                 "no CUDA GPU is visible on this machine (cudaGetDeviceCount: %s)",
                 cudaGetErrorString(e == cudaSuccess ? cudaErrorNoDevice : e));
    } else if (e != cudaSuccess) {
        snprintf(probe_why, sizeof probe_why, "CUDA did not start (cudaGetDeviceCount: %s: %s)",
                 cudaGetErrorName(e), cudaGetErrorString(e));
    } else {
        cudaDeviceProp p;
        e = cudaGetDeviceProperties(&p, 0);
        if (e != cudaSuccess) {
            snprintf(probe_why, sizeof probe_why,
                     "CUDA did not start (cudaGetDeviceProperties: %s: %s)", cudaGetErrorName(e),
                     cudaGetErrorString(e));
            return;
        }
        snprintf(probe_dev.name, sizeof probe_dev.name, "%s", p.name);
        probe_dev.major = p.major;
        probe_dev.minor = p.minor;
        probe_dev.sms = p.multiProcessorCount;
        probe_dev.memory = p.totalGlobalMem;
        peaks(&probe_dev);
        if (p.major < MT_CUDA_MIN_MAJOR ||
            (p.major == MT_CUDA_MIN_MAJOR && p.minor < MT_CUDA_MIN_MINOR)) {
            snprintf(probe_why, sizeof probe_why,
                     "the GPU %s has compute capability %d.%d; this build has code for %d.%d "
                     "and newer",
                     p.name, p.major, p.minor, MT_CUDA_MIN_MAJOR, MT_CUDA_MIN_MINOR);
            return;
        }
        probe_ok = true;
    }
}

static bool probe(const char **why)
{
    pthread_once(&probe_once, probe_run);
    if (!probe_ok && why) *why = probe_why;
    return probe_ok;
}

static const struct mt_cuda_device *device(void)
{
    pthread_once(&probe_once, probe_run);
    return probe_ok ? &probe_dev : NULL;
}

static const struct mt_cuda_plugin plugin = {MT_CUDA_PLUGIN_VERSION,
                                             probe,
                                             device,
                                             mt_cu_error,
                                             mt_cu_alloc,
                                             mt_cu_release,
                                             mt_cu_copy,
                                             mt_cu_fill,
                                             mt_cu_wait,
                                             mt_cu_mem_info,
                                             mt_cu_map,
                                             mt_cu_zip,
                                             mt_cu_reduce,
                                             mt_cu_matmul,
                                             mt_cu_train_smem,
                                             mt_cu_train_epoch,
                                             mt_cu_prog,
                                             mt_cu_launch};

extern "C" __attribute__((visibility("default"))) const struct mt_cuda_plugin *mt_cuda_plugin(void)
{
    return &plugin;
}
