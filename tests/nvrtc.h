/* nvrtc.h — NVRTC for the C tests, opened as the cuda backend's library opens it (the CUDA
 * toolkit's run-time compiler: no GPU needed), so that CUDA C the project generates is compiled
 * on machines without a GPU. */
#ifndef TESTS_NVRTC_H
#define TESTS_NVRTC_H

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

/* Its C API, with opaque handles. */
typedef int (*nvrtc_create_fn)(void **prog, const char *src, const char *name, int nheaders,
                               const char *const *headers, const char *const *names);
typedef int (*nvrtc_compile_fn)(void *prog, int n, const char *const *options);
typedef int (*nvrtc_log_size_fn)(void *prog, size_t *n);
typedef int (*nvrtc_log_fn)(void *prog, char *log);
typedef int (*nvrtc_destroy_fn)(void **prog);
static struct {
    nvrtc_create_fn create;
    nvrtc_compile_fn compile;
    nvrtc_log_size_fn log_size;
    nvrtc_log_fn log;
    nvrtc_destroy_fn destroy;
} nvrtc;

static inline bool open_nvrtc(void)
{
    const char *names[] = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"};
    void *h = NULL;
    for (size_t i = 0; i < 3 && !h; i++) h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
#ifdef MT_NVRTC_DIR
    if (!h) h = dlopen(MT_NVRTC_DIR "/libnvrtc.so", RTLD_NOW | RTLD_LOCAL);
#endif
    if (!h) return false;
    *(void **)&nvrtc.create = dlsym(h, "nvrtcCreateProgram");
    *(void **)&nvrtc.compile = dlsym(h, "nvrtcCompileProgram");
    *(void **)&nvrtc.log_size = dlsym(h, "nvrtcGetProgramLogSize");
    *(void **)&nvrtc.log = dlsym(h, "nvrtcGetProgramLog");
    *(void **)&nvrtc.destroy = dlsym(h, "nvrtcDestroyProgram");
    return nvrtc.create && nvrtc.compile && nvrtc.log_size && nvrtc.log && nvrtc.destroy;
}

/* Compiles src as the cuda backend does (cuda/nvrtc.cu's options, for compute_75, the oldest
 * device the backend supports): 0, or NVRTC's error with the source and its log on stderr. */
static inline int nvrtc_compile_source(const char *src, const char *name)
{
    const char *options[] = {"--gpu-architecture=compute_75", "--fmad=false", "--std=c++17"};
    void *prog = NULL;
    int r = nvrtc.create(&prog, src, name, 0, NULL, NULL);
    if (r != 0) return r;
    r = nvrtc.compile(prog, 3, options);
    if (r != 0) {
        size_t n = 0;
        nvrtc.log_size(prog, &n);
        char *log = malloc(n + 1);
        if (log && nvrtc.log(prog, log) == 0) fprintf(stderr, "%s\n%s\n", src, log);
        free(log);
    }
    nvrtc.destroy(&prog);
    return r;
}

#endif
