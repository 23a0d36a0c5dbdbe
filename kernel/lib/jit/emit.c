/* jit/emit.c — the three targets a unit is written for, each an emitter: what its C says
 * differently. The host's (njit: C for gcc or tcc, called once with OpenMP inside), the
 * simulator's (cuda.jit without a GPU: host C where every CUDA thread runs on a stack of its own,
 * its shared and global accesses checked and counted by rt/sim.inc) and the GPU's (cuda.jit:
 * CUDA C, which NVRTC compiles as C++). The passes ask their emitter, never which target it is. */
#include "lib/jit/internal.h"

/* the start of a unit (CMakeLists.txt embeds each file) */
#include "jit_rt_cuda.h"
#include "jit_rt_host.h"
#include "jit_rt_sim.h"

/* A shared array's element type, by its dtype code. */
static const char *const el[] = {
    ['d'] = "double", ['f'] = "float", ['i'] = "int32_t", ['l'] = "int64_t"};

/* ---- the GPU's: CUDA's own names ----------------------------------------------------------- */

static void gpu_shared_decl(struct render_buf *b, const struct var *v)
{
    render_buf_printf(b, "__shared__ %s v_%s[%lld]; ", el[(int)v->sh_dt], v->name,
                      (long long)(v->sh_dim[0] * v->sh_dim[1]));
}

static void gpu_shared_read(struct unit *u, struct cfn *c, const struct dsl_node *n,
                            const struct var *sv, const char *k, struct ex *e)
{
    (void)u, (void)c, (void)n;
    render_buf_printf(&e->s, "(%s)v_%s[%s]", jit_c_type[e->t], sv->name, k);
}

static void gpu_shared_write(struct unit *u, struct cfn *c, const struct dsl_node *at,
                             const struct dsl_node *target, const struct var *sv, const char *k,
                             const char *value)
{
    (void)c, (void)at, (void)target;
    jit_emit(u, "{ %s w_ = (%s)(%s); v_%s[%s] = w_; }", el[(int)sv->sh_dt], el[(int)sv->sh_dt],
             value, sv->name, k);
}

static void gpu_sync(struct unit *u, struct cfn *c, const struct dsl_node *n, struct ex *e)
{
    (void)u, (void)c, (void)n;
    render_buf_puts(&e->s, "__syncthreads()");
}

/* the kernel's entry: a __global__ function whose parameters are the launch's arguments */
static void gpu_entry(const struct unit *u, struct render_buf *src)
{
    const struct cfn *k = &u->fns[0];
    render_buf_puts(src, "extern \"C\" __global__ void mt_kernel(struct jit_env *env");
    for (int i = 0; i < k->nargs; i++)
        render_buf_printf(src, ", %s a%d", jit_c_type[k->args[i]], i);
    render_buf_puts(src, ")\n{\n    f0(env");
    for (int i = 0; i < k->nargs; i++) render_buf_printf(src, ", a%d", i);
    render_buf_puts(src, ");\n}\n");
}

/* ---- the simulator's: each access to shared memory checked, the thread's place in env -------- */

static void sim_shared_decl(struct render_buf *b, const struct var *v)
{
    /* the block's memory, where the simulator put it */
    render_buf_printf(b, "%s *v_%s = (%s *)(env->shm + %lld); ", el[(int)v->sh_dt], v->name,
                      el[(int)v->sh_dt], (long long)v->sh_off);
}

/* the simulator records who read it, for its races and unwritten reads */
static void sim_shared_read(struct unit *u, struct cfn *c, const struct dsl_node *n,
                            const struct var *sv, const char *k, struct ex *e)
{
    render_buf_printf(&e->s,
                      "({ int64_t k_ = %s; if (jit_sh_read(env, %lld + k_, %lldLL, "
                      "\"%s\", k_, %d, %lld + k_ * %d)) goto JIT_FAIL; (%s)v_%s[k_]; })",
                      k, (long long)sv->sh_base, jit_loc(c, n), sv->name,
                      jit_access_site(u, c, n, 2, shared_size(sv), sv->name), (long long)sv->sh_off,
                      shared_size(sv), jit_c_type[e->t], sv->name);
}

static void sim_shared_write(struct unit *u, struct cfn *c, const struct dsl_node *at,
                             const struct dsl_node *target, const struct var *sv, const char *k,
                             const char *value)
{
    jit_emit(u,
             "{ %s w_ = (%s)(%s); int64_t k_ = %s; if (jit_sh_write(env, %lld + k_, %lldLL, "
             "\"%s\", k_, %d, %lld + k_ * %d)) goto JIT_FAIL; v_%s[k_] = w_; }",
             el[(int)sv->sh_dt], el[(int)sv->sh_dt], value, k, (long long)sv->sh_base,
             jit_loc(c, at), sv->name, jit_access_site(u, c, target, 3, shared_size(sv), sv->name),
             (long long)sv->sh_off, shared_size(sv), sv->name);
}

/* the thread's stack is left for the next thread's, until all have come (or one failed) */
static void sim_sync(struct unit *u, struct cfn *c, const struct dsl_node *n, struct ex *e)
{
    (void)u;
    render_buf_printf(&e->s, "({ if (jit_sync(env, %lldLL)) goto JIT_FAIL; })", jit_loc(c, n));
}

/* what the kernel's functions call of rt/sim.inc, which ends the unit */
static void sim_defines(const struct unit *u, struct render_buf *src)
{
    render_buf_printf(src,
                      "#define JIT_SH_BYTES %lld\n#define JIT_SH_ELEMS %lld\n"
                      "#define JIT_SITES %d\n#define JIT_STACK %lld\n"
                      "static int jit_sync(struct jit_env *, long long);\n"
                      "static int jit_sh_read(struct jit_env *, int64_t, long long, "
                      "const char *, int64_t, int, int64_t);\n"
                      "static int jit_sh_write(struct jit_env *, int64_t, long long, "
                      "const char *, int64_t, int, int64_t);\n"
                      "static void *jit_gmem(struct jit_env *, int, void *);\n"
                      "static int jit_gwrite(struct jit_env *, const void *, int64_t, long long, "
                      "const char *);\n",
                      (long long)u->sh_bytes, (long long)u->sh_elems, u->nsites,
                      (long long)sim_stack_bytes(u->fns[0].stack));
}

/* the kernel's entry: its arguments from the launch's slots; the table of its access sites
 * (struct jit_site, rt/env.h); the simulator */
static void sim_entry(const struct unit *u, struct render_buf *src)
{
    const struct cfn *k = &u->fns[0];
    const char *const *names = (const char *const *)k->f->def->kwnames;
    render_buf_puts(src,
                    "static void jit_kernel(struct jit_env *env, void **slots)\n{\n    f0(env");
    for (int i = 0; i < k->nargs; i++)
        render_buf_printf(src, ", *(%s *)slots[%d] /* %s */", jit_c_type[k->args[i]], i, names[i]);
    render_buf_puts(src, ");\n}\n");
    render_buf_printf(src,
                      "const struct jit_site jit_sites[%d] = {\n%s};\nconst int jit_nsites = %d;\n",
                      u->nsites ? u->nsites : 1,
                      u->sites.data ? u->sites.data : "    {0, \"\", 0, 0},\n", u->nsites);
    render_buf_append(src, (const char *)jit_rt_sim_src, sizeof jit_rt_sim_src - 1);
}

/* ---- the three ------------------------------------------------------------------------------- */

const struct jit_emitter jit_emitters[] = {
    [JIT_HOST] = {.target = JIT_HOST,
                  .start = jit_rt_host_src,
                  .nstart = sizeof jit_rt_host_src - 1},
    [JIT_SIM] = {.target = JIT_SIM,
                 .kernel = true,
                 .counted = true,
                 .start = jit_rt_host_src,
                 .nstart = sizeof jit_rt_host_src - 1,
                 .shared_decl = sim_shared_decl,
                 .shared_read = sim_shared_read,
                 .shared_write = sim_shared_write,
                 .sync = sim_sync,
                 .defines = sim_defines,
                 .entry = sim_entry},
    [JIT_GPU] = {.target = JIT_GPU,
                 .kernel = true,
                 .cxx = true,
                 .start = jit_rt_cuda_src,
                 .nstart = sizeof jit_rt_cuda_src - 1,
                 .shared_decl = gpu_shared_decl,
                 .shared_read = gpu_shared_read,
                 .shared_write = gpu_shared_write,
                 .sync = gpu_sync,
                 .entry = gpu_entry},
};
