/* test_cuda_jit.c — the CUDA C of cuda.jit kernels through NVRTC, without a GPU.
 *
 * tests/scripts/cuda/kernels.mt (the course's kernels, its CudaOps), tests/scripts/cuda/float64.mt
 * (kernels given numpy float64 arrays) and tests/scripts/cuda_jit.mt (the simulator's checks)
 * launch their kernels in the simulator; here they run again, and
 * cuda_source() gives, for every kernel launched, the CUDA C a GPU would run for the same
 * arguments, which NVRTC must compile as the cuda backend does. The kernels are found in the
 * scripts themselves (each `@cuda.jit` def, and each name assigned a cuda.jit kernel), so a
 * kernel added there is compiled here too. */
#include "kernel/dsl_helpers.h"
#include "nvrtc.h"
#include "test.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s) s[n] = 0;
    fclose(f);
    return s;
}

/* The kernels script defines: names after `@cuda.jit` + `def`, and names assigned from
 * cuda.jit(...), jit(...) or one of the kernel factories (tensor_map, tensor_zip,
 * tensor_reduce). At most max, each at most 63 bytes. */
static int kernel_names(const char *script, char names[][64], int max)
{
    static const char *const makers[] = {"cuda.jit(", "jit(", "tensor_map(", "tensor_zip(",
                                         "tensor_reduce("};
    int n = 0;
    bool decorated = false;
    for (const char *line = script; line && *line && n < max;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char name[64];
        int k = 0;
        if (strncmp(line, "@cuda.jit", 9) == 0) {
            decorated = true;
        } else if (decorated && strncmp(line, "def ", 4) == 0) {
            for (const char *p = line + 4; (isalnum((unsigned char)*p) || *p == '_') && k < 63; p++)
                name[k++] = *p;
            name[k] = 0;
            snprintf(names[n++], 64, "%s", name);
            decorated = false;
        } else if (isalpha((unsigned char)*line) || *line == '_') {
            const char *p = line;
            while ((isalnum((unsigned char)*p) || *p == '_') && k < 63) name[k++] = *p++;
            name[k] = 0;
            if (strncmp(p, " = ", 3) == 0)
                for (size_t m = 0; m < sizeof makers / sizeof makers[0]; m++)
                    if (strncmp(p + 3, makers[m], strlen(makers[m])) == 0) {
                        snprintf(names[n++], 64, "%s", name);
                        break;
                    }
        }
        line = end ? line + len + 1 : NULL;
    }
    return n;
}

/* What a cell printed: the sink's log without its "stdout:" marks. */
static void printed(const struct sink *k, char *out, size_t size)
{
    size_t used = 0;
    for (const char *p = k->log; *p && used + 1 < size;) {
        if (strncmp(p, "stdout:", 7) == 0) {
            p += 7;
            continue;
        }
        out[used++] = *p++;
    }
    out[used] = 0;
}

static const char *const scripts[] = {MT_SOURCE_DIR "/tests/scripts/cuda/kernels.mt",
                                      MT_SOURCE_DIR "/tests/scripts/cuda/float64.mt",
                                      MT_SOURCE_DIR "/tests/scripts/cuda_jit.mt"};

/* A session that ran both scripts, simulated; the kernels they define into names (n of them). */
static struct dsl_session *run_scripts(char names[][64], int max, int *n)
{
    setenv("MT_CUDA_SIMULATE", "1", 1);
    struct dsl_session *s = dsl_session_new();
    *n = 0;
    for (size_t i = 0; i < sizeof scripts / sizeof *scripts; i++) {
        char *script = read_file(scripts[i]);
        CHECK(script != NULL);
        if (!script) continue;
        CHECK_INT(run_cell(s, script).rc, 0);
        *n += kernel_names(script, names + *n, max - *n);
        free(script);
    }
    return s;
}

static void test_kernels_compile(void)
{
    static char names[64][64];
    memset(names, 0, sizeof names);
    int n, compiled = 0, refused = 0;
    struct dsl_session *s = run_scripts(names, 64, &n);
    struct outcome o;
    static struct sink k;
    static char src[1 << 16];
    for (int i = 0; i < n; i++) {
        char code[200];
        snprintf(code, sizeof code, "print(cuda_source(%.63s), end='')", names[i]);
        memset(&k, 0, sizeof k);
        o = run_cell_with(s, code, &k);
        if (o.rc != 0) { /* the one kernel the script shows the compiler refusing: never run */
            CHECK_STR(o.ename, "ValueError");
            CHECK_STR(names[i], "returns");
            refused++;
            continue;
        }
        printed(&k, src, sizeof src);
        CHECK(strstr(src, "extern \"C\" __global__ void mt_kernel(") != NULL);
        int r = nvrtc_compile_source(src, names[i]);
        if (r != 0) fprintf(stderr, "  %s: NVRTC error %d\n", names[i], r);
        CHECK_INT(r, 0);
        compiled += r == 0;
    }
    CHECK_INT(refused, 1);
    CHECK(n >= 14);
    CHECK_INT(compiled, n - refused);
    printf("  NVRTC compiled the CUDA C of %d kernels of the scripts\n", compiled);
    dsl_session_free(s);
}

/* The two targets differ where CUDA C differs from the host's: a kernel entry, __shared__
 * arrays, the launch's coordinates from CUDA's variables, bounds checks as calls, and no GNU
 * statement expressions (NVRTC is C++: lambdas instead). */
static void test_source_shape(void)
{
    struct dsl_session *s = dsl_session_new();
    static struct sink k;
    setenv("MT_CUDA_SIMULATE", "1", 1);
    struct outcome o = run_cell(s, "import numba\nfrom numba import cuda\nimport minitorch\n"
                                   "@cuda.jit\n"
                                   "def k(out, a):\n"
                                   "    t = cuda.shared.array((4, 8), numba.float32)\n"
                                   "    i = cuda.threadIdx.x\n"
                                   "    t[i // 8, i % 8] = a[i]\n"
                                   "    cuda.syncthreads()\n"
                                   "    out[i] = max(t[i % 4, i // 4], 0.5) + abs(a[i])\n"
                                   "x = minitorch.tensor([float(i) for i in range(32)])\n"
                                   "y = minitorch.zeros((32,))\n"
                                   "k[1, 32](y._tensor._storage, x._tensor._storage)\n");
    CHECK_INT(o.rc, 0);
    o = run_cell_with(s, "print(cuda_source(k), end='')", &k);
    CHECK_INT(o.rc, 0);
    static char src[1 << 16];
    printed(&k, src, sizeof src);
    CHECK(strstr(src, "__shared__ float v_t[32];") != NULL);
    CHECK(strstr(src, "((int64_t)threadIdx.x)") != NULL);
    CHECK(strstr(src, "__syncthreads()") != NULL);
    CHECK(strstr(src, "([&]() {") != NULL);
    const char *body = strstr(src, "JIT_INLINE void f0(");
    CHECK(body && strstr(body, "({") == NULL);
    CHECK(strstr(src, "jit_sync") == NULL);
    if (open_nvrtc()) CHECK_INT(nvrtc_compile_source(src, "k"), 0);
    dsl_session_free(s);
}

/* What the prelude says for edge cases compiles for the GPU as well: an infinite constant, an
 * integer division (the one quotient that does not fit raises), a power, local arrays in a
 * kernel and in a device function it calls. */
static void test_edges_compile(void)
{
    if (!open_nvrtc()) return;
    struct dsl_session *s = dsl_session_new();
    static struct sink k;
    setenv("MT_CUDA_SIMULATE", "1", 1);
    CHECK_INT(run_cell(s, "import numba\nfrom numba import cuda\n"
                          "@cuda.jit(device=True)\n"
                          "def third(i):\n"
                          "    c = cuda.local.array(1024, numba.int32)\n"
                          "    c[3] = i\n"
                          "    return c[3]\n"
                          "@cuda.jit\n"
                          "def edges(out, a, b):\n"
                          "    i = cuda.threadIdx.x\n"
                          "    loc = cuda.local.array(1024, numba.int32)\n"
                          "    loc[i] = a // b + a % b + a ** 3\n"
                          "    out[i] = -1e309 if a < 0 else loc[i] + third(i)\n"
                          "o = zeros(4)\n"
                          "edges[1, 4](o._tensor._storage, 7, 2)\n")
                  .rc,
              0);
    struct outcome o = run_cell_with(s, "print(cuda_source(edges), end='')", &k);
    CHECK_INT(o.rc, 0);
    static char src[1 << 16];
    printed(&k, src, sizeof src);
    CHECK(strstr(src, "JIT_INF") != NULL);
    CHECK_INT(nvrtc_compile_source(src, "edges"), 0);
    dsl_session_free(s);
}

/* The line of a train() summary ("Trained 3 of 3 epochs on ..."), from its loss on. */
static void summary(const char *log, const char *backend, char *out, size_t size)
{
    char head[96];
    snprintf(head, sizeof head, "epochs on %s (autodiff ops): ", backend);
    const char *p = strstr(log, head);
    const char *end = p ? strstr(p, ", time per epoch") : NULL;
    snprintf(out, size, "%.*s", p && end ? (int)(end - p - strlen(head)) : 0,
             p ? p + strlen(head) : "");
}

/* train() through TensorBackend(CudaOps) of the script's kernels, simulated: the loss and the
 * points right after three epochs are simple's. */
static void test_train_on_kernels(void)
{
    static char names[64][64];
    int n;
    struct dsl_session *s = run_scripts(names, 64, &n);
    static struct sink k;
    memset(&k, 0, sizeof k);
    struct outcome o = run_cell_with(
        s,
        "seed(5)\ntrain(mlp(2, 4, 1), dataset('simple', 20), epochs=3, rate=0.5, "
        "backend='simple', log=0)\nseed(5)\ntrain(mlp(2, 4, 1), dataset('simple', 20), epochs=3, "
        "rate=0.5, backend=GPUBackend, log=0)\n",
        &k);
    CHECK_INT(o.rc, 0);
    char on_simple[128], on_kernels[128];
    summary(k.log, "simple", on_simple, sizeof on_simple);
    summary(k.log, "student", on_kernels, sizeof on_kernels);
    CHECK(strstr(on_simple, "loss ") == on_simple && strstr(on_simple, "correct ") != NULL);
    CHECK_STR(on_kernels, on_simple);
    dsl_session_free(s);
}

/* mm_practice as the template asks, with or without the barrier between loading the tiles and
 * using them */
#define MM_PRACTICE(sync)                                                                          \
    "def _mm_practice(out, a, b, size):\n"                                                         \
    "    BLOCK_DIM = 32\n"                                                                         \
    "    a_shared = cuda.shared.array((BLOCK_DIM, BLOCK_DIM), numba.float64)\n"                    \
    "    b_shared = cuda.shared.array((BLOCK_DIM, BLOCK_DIM), numba.float64)\n"                    \
    "    i = cuda.threadIdx.x\n"                                                                   \
    "    j = cuda.threadIdx.y\n"                                                                   \
    "    if i < size and j < size:\n"                                                              \
    "        a_shared[i, j] = a[i * size + j]\n"                                                   \
    "        b_shared[i, j] = b[i * size + j]\n" sync "    if i < size and j < size:\n"            \
    "        acc = 0.0\n"                                                                          \
    "        for k in range(size):\n"                                                              \
    "            acc += a_shared[i, k] * b_shared[k, j]\n"                                         \
    "        out[i * size + j] = acc\n"                                                            \
    "jit_mm_practice = cuda.jit()(_mm_practice)\n"

/* Runs a check() cell with its output in k (emptied first), which must hold `says`. */
static struct outcome run_check(struct dsl_session *s, struct sink *k, const char *cell,
                                const char *says)
{
    memset(k, 0, sizeof *k);
    struct outcome o = run_cell_with(s, cell, k);
    CHECK(strstr(k->log, says) != NULL);
    return o;
}

/* The parts of the scripts' CudaOps that pass, but for any whose cell names `except`: each with
 * its count of tests. */
static void parts_pass(struct dsl_session *s, struct sink *k, const char *except)
{
    static const char *const passing[][2] = {
        {"check('3.3', 'map')", "6 passed, 0 failed"},
        {"check('3.3', 'zip')", "8 passed, 0 failed"},
        {"check('3.3', 'reduce')", "8 passed, 0 failed"},
        {"check('3.4', 'matrix_multiply')", "3 passed, 0 failed"},
    };
    for (size_t i = 0; i < sizeof passing / sizeof *passing; i++)
        if (!except || !strstr(passing[i][0], except))
            CHECK_INT(run_check(s, k, passing[i][0], passing[i][1]).rc, 0);
}

/* check("3.3") and check("3.4") on the scripts' CudaOps: the course's sum_practice launch makes
 * the script's kernel write past out (said, with the why); guarded, every test passes; a
 * mm_practice without its barrier is the simulator's race. */
static void test_check(void)
{
    static char names[64][64];
    int n;
    struct dsl_session *s = run_scripts(names, 64, &n);
    static struct sink k;
    memset(&k, 0, sizeof k);
    struct outcome o = run_cell_with(s, "check('3.3')", &k);
    CHECK_STR(o.ename, "AssertionError");
    CHECK(strstr(k.log, "sum_practice (64 values)               1 case   FAILED") != NULL);
    CHECK(strstr(k.log, "sum_practice (48 values)               1 case   passed") != NULL);
    CHECK(strstr(k.log, "56 passed, 1 failed") != NULL);
    CHECK(strstr(k.log, "The course launches size // 32 + 1 = 3 blocks for 64 values") != NULL);
    /* its parts: sum_practice fails alone, map, zip and reduce (forward on CudaOps) pass */
    o = run_check(s, &k, "check('3.3', 'sum_practice')", "2 passed, 1 failed");
    CHECK_STR(o.ename, "AssertionError");
    CHECK_STR(o.evalue, "1 of 3 tests of Task 3.3 (sum_practice) failed (the first: "
                        "sum_practice (64 values)); see above");
    CHECK(strstr(k.log,
                 "check(\"3.3\", \"sum_practice\"): MiniTorch's Task 3.3 tests of "
                 "sum_practice on your kernel (_sum_practice)") == k.log + strlen("stdout:"));
    parts_pass(s, &k, NULL);
    CHECK(strstr(k.log, "mul_practice (x @ y)                   4 cases  passed") != NULL);
    /* a zip planted with fn(a, a) fails 3.3's zip part alone */
    CHECK_INT(
        run_cell(s, "class ZipSelfOps(CudaOps):\n"
                    "    @staticmethod\n"
                    "    def zip(fn):\n"
                    "        f = tensor_zip(cuda.jit(device=True)(fn))\n"
                    "        def ret(a, b):\n"
                    "            out = a.zeros(minitorch.shape_broadcast(a.shape, b.shape))\n"
                    "            blocks = (out.size + THREADS_PER_BLOCK - 1) // THREADS_PER_BLOCK\n"
                    "            f[blocks, THREADS_PER_BLOCK](*out.tuple(), out.size, *a.tuple(), "
                    "*a.tuple())\n"
                    "            return out\n"
                    "        return ret\n"
                    "minitorch.TensorBackend(ZipSelfOps)\n")
            .rc,
        0);
    CHECK_STR(run_check(s, &k, "check('3.3', 'zip')", "0 passed, 8 failed").ename,
              "AssertionError");
    parts_pass(s, &k, "zip");
    CHECK_INT(run_cell(s, "minitorch.TensorBackend(CudaOps)").rc, 0);
    /* the write guarded: a block writes when its first value is inside a */
    CHECK_INT(run_cell(s, "def _sum_practice2(out, a, size):\n"
                          "    cache = cuda.shared.array(32, numba.float64)\n"
                          "    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x\n"
                          "    pos = cuda.threadIdx.x\n"
                          "    cache[pos] = a[i] if i < size else 0.0\n"
                          "    cuda.syncthreads()\n"
                          "    s = 1\n"
                          "    while s < 32:\n"
                          "        if pos % (2 * s) == 0:\n"
                          "            cache[pos] += cache[pos + s]\n"
                          "        s *= 2\n"
                          "        cuda.syncthreads()\n"
                          "    if pos == 0 and cuda.blockIdx.x * cuda.blockDim.x < size:\n"
                          "        out[cuda.blockIdx.x] = cache[0]\n"
                          "jit_sum_practice = cuda.jit()(_sum_practice2)\n")
                  .rc,
              0);
    CHECK_INT(run_check(s, &k, "check('3.3')", "57 passed, 0 failed").rc, 0);
    CHECK_INT(run_check(s, &k, "check('3.3', 'sum_practice')", "3 passed, 0 failed").rc, 0);
    /* Task 3.4: no mm_practice yet, then one without its barrier, then the template's */
    memset(&k, 0, sizeof k);
    o = run_cell_with(s, "check('3.4')", &k);
    CHECK_STR(o.ename, "AssertionError");
    CHECK(strstr(k.log, "no kernel jit_mm_practice in the session") != NULL);
    CHECK_STR(run_check(s, &k, "check('3.4', 'mm_practice')", "0 passed, 2 failed").ename,
              "AssertionError");
    CHECK_INT(run_cell(s, MM_PRACTICE("")).rc, 0);
    memset(&k, 0, sizeof k);
    o = run_cell_with(s, "check('3.4')", &k);
    CHECK_STR(o.ename, "AssertionError");
    CHECK(strstr(k.log, "your kernel raised RuntimeError: shared-memory race in _mm_practice()") !=
          NULL);
    CHECK_INT(run_cell(s, MM_PRACTICE("    cuda.syncthreads()\n")).rc, 0);
    memset(&k, 0, sizeof k);
    o = run_cell_with(s, "check('3.4')", &k);
    CHECK_INT(o.rc, 0);
    CHECK(strstr(k.log, "mm_practice (32 x 32)                  1 case   passed") != NULL);
    CHECK(strstr(k.log, "5 passed, 0 failed") != NULL);
    CHECK_INT(run_check(s, &k, "check('3.4', 'mm_practice')", "2 passed, 0 failed").rc, 0);
    dsl_session_free(s);
}

int main(void)
{
    RUN_TEST(test_source_shape);
    RUN_TEST(test_edges_compile);
    RUN_TEST(test_train_on_kernels);
    RUN_TEST(test_check);
    if (open_nvrtc())
        RUN_TEST(test_kernels_compile);
    else /* not a pass: said, and not counted */
        printf("SKIPPED 1 test (cuda.jit kernels' CUDA C through NVRTC): libnvrtc is not "
               "installed\n");
    return TEST_SUMMARY();
}
