/* loader.c — device.h for the engine: loads the cuda backend's library (plugin.h) at the first
 * question, once per process, and asks it. Nothing CUDA is mapped before that question.
 *
 * Where the library is looked for: $MT_CUDA_PLUGIN when set (a path), else beside the binary
 * that holds this code (the kernel executable, a test, or the shared engine the Python tests
 * load) and beside the running executable, each also in ../lib/minitorch-kernel/ (the install
 * layout: bin/minitorch-kernel and lib/minitorch-kernel/libminitorch_cuda.so).
 * $MT_CUDA_PLUGIN is honoured by builds without CUDA too: that is how the tests load the host
 * stand-in of the library (tests/engine/cuda_standin.c), sanitizer builds included. */
#include "plugin.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const struct mt_cuda_plugin *plugin;
static char load_why[1024];

static bool try_open(const char *path, char *first_error, size_t len)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        if (!first_error[0]) snprintf(first_error, len, "%.400s", dlerror());
        return false;
    }
    mt_cuda_plugin_fn fn = (mt_cuda_plugin_fn)dlsym(h, MT_CUDA_PLUGIN_SYMBOL);
    const struct mt_cuda_plugin *p = fn ? fn() : NULL;
    if (!p || p->version != MT_CUDA_PLUGIN_VERSION) {
        snprintf(first_error, len, "%.300s is not this engine's cuda backend (version %d, want %d)",
                 path, p ? p->version : -1, MT_CUDA_PLUGIN_VERSION);
        dlclose(h);
        return false;
    }
    plugin = p; /* kept loaded for the life of the process */
    return true;
}

#ifdef MT_HAVE_CUDA
/* dir of `path` (resolved) into out; false when it cannot be resolved */
static bool dir_of(const char *path, char *out)
{
    char real[PATH_MAX];
    if (!path || !*path || !realpath(path, real)) return false;
    char *slash = strrchr(real, '/');
    if (!slash) return false;
    *slash = '\0';
    snprintf(out, PATH_MAX, "%s", real[0] ? real : "/");
    return true;
}

/* The library of this build, found beside the binaries. */
static void search(void)
{
    char first_error[512] = "";
    char dirs[2][PATH_MAX];
    int nd = 0;
    Dl_info info;
    if (dladdr((void *)&mt_cuda_probe, &info) && dir_of(info.dli_fname, dirs[nd])) nd++;
    if (dir_of("/proc/self/exe", dirs[nd])) nd++;
    static const char *const subdirs[] = {"", "/../lib/minitorch-kernel"};
    for (int d = 0; d < nd; d++)
        for (int s = 0; s < 2; s++) {
            char path[PATH_MAX + 64];
            const int len =
                snprintf(path, sizeof path, "%s%s/%s", dirs[d], subdirs[s], MT_CUDA_PLUGIN_FILE);
            if (len < 0 || (size_t)len >= sizeof path) continue; /* no such path can be opened */
            if (try_open(path, first_error, sizeof first_error)) return;
        }
    snprintf(load_why, sizeof load_why,
             "the cuda backend's library %s is not beside %.300s (dlopen: %.400s)",
             MT_CUDA_PLUGIN_FILE, nd ? dirs[0] : "this program",
             first_error[0] ? first_error : "not found");
}
#else
static void search(void)
{
#ifndef MT_NO_CUDA_REASON
#define MT_NO_CUDA_REASON "built without nvcc"
#endif
    snprintf(load_why, sizeof load_why, "this build has no CUDA backend (%s)", MT_NO_CUDA_REASON);
}
#endif

static void load(void)
{
    const char *env = getenv("MT_CUDA_PLUGIN");
    if (!env || !*env) {
        search();
        return;
    }
    char first_error[512] = "";
    if (!try_open(env, first_error, sizeof first_error))
        snprintf(load_why, sizeof load_why,
                 "the cuda backend's library could not be loaded from MT_CUDA_PLUGIN (%.400s)",
                 first_error);
}

bool mt_cuda_probe(const char **why)
{
    pthread_once(&load_once, load);
    if (!plugin) {
        if (why) *why = load_why;
        return false;
    }
    return plugin->probe(why);
}

const struct mt_cuda_device *mt_cuda_device(void)
{
    pthread_once(&load_once, load);
    return plugin ? plugin->device() : NULL;
}

const struct mt_cuda_plugin *mt_cuda_plugin_loaded(void)
{
    return mt_cuda_probe(NULL) ? plugin : NULL;
}
