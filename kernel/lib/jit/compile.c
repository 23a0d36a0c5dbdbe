/* jit/compile.c — the pipeline. jit_compile_fn takes one function through the passes: the
 * walk over its body runs until the locals' types settle (each pass may widen one) and the race
 * analysis has learnt its facts, once more to judge each prange loop (the race check), then once
 * more to emit its C, which is wrapped with its locals' declarations. jit_unit_source puts a unit's
 * functions between the run time's files (rt/); jit_build compiles an njit function and builds the
 * result (jit/build.c). */
#include "lib/jit/internal.h"

/* the run time's text (CMakeLists.txt embeds each file) */
#include "jit_rt_env.h"
#include "jit_rt_operators.h"
#include "jit_rt_runtime.h"
#include "scalar_src.h"

/* Declarations of c's locals (private: those of its prange loop, else the others). */
static void locals_text(const struct cfn *c, bool private, const struct jit_emitter *em,
                        struct render_buf *b)
{
    for (int i = 0; i < c->nvars; i++) {
        const struct var *v = &c->vars[i];
        if (v->param || v->in_loop != private || v->t == JT_NONE) continue;
        if (v->t == JT_SARR)
            em->shared_decl(b, v);
        else if (v->buflen)
            render_buf_printf(b,
                              "int64_t b_%s[%lld] = {0}; int64_t d_%s = 0; (void)d_%s; "
                              "iarr v_%s = {b_%s, %lld}; ",
                              v->name, (long long)v->buflen, v->name, v->name, v->name, v->name,
                              (long long)v->buflen);
        else
            render_buf_printf(b, "%s v_%s = %s; ", jit_c_type[v->t], v->name,
                              ints(v->t) || floats(v->t) ? "{0}" : "0");
    }
}

/* The specialisation of f for args already in the unit: 1 (its number in *id), 0 none, -1
 * after refusing recursion (a call of one still compiling). */
static int compiled_already(struct unit *u, const struct dsl_function *f, const enum jt *args,
                            int nargs, int *id)
{
    for (int i = 0; i < u->nfns; i++) {
        struct cfn *c = &u->fns[i];
        if (c->f == f && c->nargs == nargs && memcmp(c->args, args, sizeof *args * nargs) == 0) {
            if (!c->done)
                return jit_refuse(u, c, f->def, "recursion (%s calls itself)", f->def->name);
            *id = i;
            return 1;
        }
    }
    return 0;
}

/* A new function of the unit, f for args, its parameters its first variables: 0, or -1 after
 * refusing what the compiler does not take of a signature. */
static int new_fn(struct unit *u, const struct dsl_function *f, const enum jt *args, int nargs,
                  struct cfn **out)
{
    const struct dsl_node *def = f->def;
    if (u->nfns == MAX_FNS)
        return jit_refuse(u, &u->fns[0], def, "more than %d functions", MAX_FNS);
    if (def->star || def->dstar || def->nkw != (size_t)nargs || (size_t)nargs != def->nargs) {
        struct cfn tmp = {.f = f};
        return jit_refuse(u, &tmp, def,
                          "%s() called with %d arguments (defaults, *args, keyword "
                          "parameters are not compiled)",
                          def->name, nargs);
    }
    int me = u->nfns++;
    struct cfn *c = *out = &u->fns[me];
    *c = (struct cfn){.f = f,
                      .nargs = nargs,
                      .id = me,
                      .top = me == 0 && !u->em->kernel,
                      .ret = JT_NONE,
                      .loops = jit_has_loop(def->b)};
    memcpy(c->args, args, sizeof *args * nargs);
    for (int i = 0; i < nargs; i++) {
        if (args[i] == JT_NONE) return jit_refuse(u, c, def, "an argument of no known type");
        c->vars[c->nvars++] = (struct var){.name = def->kwnames[i], .t = args[i], .param = true};
    }
    return 0;
}

/* The state of a walk over a function's body, which the walk of a function it calls (compiled
 * in the middle of the caller's) must not disturb. */
struct walk {
    struct render_buf out;
    int loop_depth, brk;
    bool in_prange, changed;
    enum jit_pass pass;
};

static struct walk walk_save(const struct unit *u)
{
    return (struct walk){u->out, u->loop_depth, u->brk, u->in_prange, u->changed, u->pass};
}

static void walk_restore(struct unit *u, const struct walk *w)
{
    u->out = w->out;
    u->loop_depth = w->loop_depth;
    u->brk = w->brk;
    u->in_prange = w->in_prange;
    u->pass = w->pass;
    u->changed = w->changed;
}

/* A walk over c's body from its start, as pass (enum jit_pass) walks it. */
static int walk(struct unit *u, struct cfn *c, enum jit_pass pass)
{
    render_buf_init(&u->out, 0);
    u->loop_depth = 0;
    u->brk = -1;
    snprintf(u->fail, sizeof u->fail, "fail");
    u->pr_arr = NULL;
    u->nelide = 0;
    u->in_prange = false;
    u->pass = pass;
    u->changed = false;
    return jit_block(u, c, c->f->def->b);
}

/* The type pass: walks over c's body, emitting nothing, until no local's type widens (a local
 * takes the join of what it is given: an int given a float later is a float from its start)
 * and the race analysis has learnt all it learns (which array each iteration writes, at which
 * indices, what follows from the loop's variable). */
static int settle_types(struct unit *u, struct cfn *c)
{
    for (int pass = 0;; pass++) {
        c->ret_seen = false;
        int r = walk(u, c, JIT_PASS_TYPES);
        render_buf_free(&u->out);
        if (r != 0) return r;
        if (pass == 8) return jit_refuse(u, c, c->f->def, "types that do not settle");
        if (!u->changed) return 0;
    }
}

/* The race check: a walk with the settled facts, refusing the first race of each prange loop
 * (a store two iterations may make to one element, a variable shared by the iterations) with
 * the CompileError that names it. */
static int check_races(struct unit *u, struct cfn *c)
{
    c->ret_seen = false;
    int r = walk(u, c, JIT_PASS_RACES);
    render_buf_free(&u->out);
    return r;
}

/* c's C, from the body the final walk emitted: its signature, its locals (a prange chunk's own
 * in place of each @PRIVATE@ mark), the body, and where JIT_FAIL leads; added to the unit's
 * functions, with what its frame takes of the stack. */
static void function_text(struct unit *u, struct cfn *c)
{
    const struct dsl_node *def = c->f->def;
    int me = c->id, nargs = c->nargs;
    struct render_buf h, priv;
    render_buf_init(&h, 0);
    render_buf_init(&priv, 0);
    locals_text(c, true, u->em, &priv);
    if (c->top) {
        render_buf_puts(&h, "int jit_entry(void **slots, struct jit_env *env)\n{\n");
        for (int i = 0; i < nargs; i++)
            render_buf_printf(&h, "    %s v_%s = *(%s *)slots[%d];\n", jit_c_type[c->args[i]],
                              def->kwnames[i], jit_c_type[c->args[i]], i);
    } else {
        /* inlined where called, as Numba's inline="always": the loop that calls an index
         * helper then sees what the helper reads and writes (recursion is not compiled) */
        render_buf_printf(&h, "JIT_INLINE %s f%d(struct jit_env *env", jit_c_type[c->ret], me);
        for (int i = 0; i < nargs; i++)
            render_buf_printf(&h, ", %s v_%s", jit_c_type[c->args[i]], def->kwnames[i]);
        render_buf_puts(&h, ")\n{\n");
        render_buf_printf(&u->protos, "JIT_PROTO %s f%d(struct jit_env *env", jit_c_type[c->ret],
                          me);
        for (int i = 0; i < nargs; i++)
            render_buf_printf(&u->protos, ", %s", jit_c_type[c->args[i]]);
        render_buf_puts(&u->protos, ");\n");
    }
    render_buf_puts(&h, "    ");
    locals_text(c, false, u->em, &h);
    render_buf_puts(&h, "\n");
    const char *body = u->out.data ? u->out.data : "", *mark;
    while ((mark = strstr(body, "@PRIVATE@"))) {
        render_buf_append(&h, body, (size_t)(mark - body));
        render_buf_puts(&h, priv.data ? priv.data : "");
        body = mark + strlen("@PRIVATE@");
    }
    /* C++ (NVRTC) refuses a goto to the end that passes an initialised declaration of the
     * same block: the body is a block of its own */
    render_buf_puts(&h, u->em->cxx ? "{\n" : "");
    render_buf_puts(&h, body);
    render_buf_puts(&h, u->em->cxx ? "}\n" : "");
    if (c->top)
        render_buf_puts(&h, "    return 0;\nfail: JIT_UNUSED;\n    return 1;\n}\n");
    else if (c->ret == JT_NONE)
        render_buf_puts(&h, "fail: JIT_UNUSED;\n    return;\n}\n");
    else
        render_buf_printf(&h, "    return 0;\nfail: JIT_UNUSED;\n    return 0;\n}\n");
    render_buf_free(&priv);
    render_buf_puts(&u->bodies, h.data ? h.data : "");
    render_buf_free(&h);
    c->done = true;
    /* its frame: the local arrays exactly, and a generous allowance for the rest (each
     * variable, and what the C compiler keeps beside them) */
    c->stack = 1024 + 32 * (int64_t)c->nvars + c->callee_stack;
    for (int i = 0; i < c->nvars; i++) c->stack += c->vars[i].buflen * 8;
}

/* Compiles user function f for argument types args into the unit (once per types): the
 * pipeline of one function. 0 (its number in *id), or -1 after refusing (u->why) or raising. */
int jit_compile_fn(struct unit *u, const struct dsl_function *f, const enum jt *args, int nargs,
                   int *id)
{
    int r = compiled_already(u, f, args, nargs, id);
    if (r != 0) return r < 0 ? -1 : 0;
    struct cfn *c;
    if (new_fn(u, f, args, nargs, &c) != 0) return -1;
    struct walk caller = walk_save(u);
    r = settle_types(u, c);
    if (r == 0) r = check_races(u, c);
    if (r == 0) r = walk(u, c, JIT_PASS_EMIT);
    if (r == 0 && c->id == 0 && u->em->kernel && c->ret != JT_NONE)
        r = jit_refuse(u, c, f->def,
                       "a kernel that returns a value (a kernel writes its results into "
                       "arrays)");
    if (r == 0) function_text(u, c);
    render_buf_free(&u->out);
    walk_restore(u, &caller);
    *id = c->id;
    return r;
}

/* Whether the stack unit u's called function takes, with the functions it calls, is at most
 * limit bytes: 0, or -1 after refusing, naming the chain of calls whose locals take it. */
int jit_stack_fits(struct unit *u, int64_t limit)
{
    const struct cfn *top = &u->fns[0];
    if (top->stack <= limit) return 0;
    char chain[256] = "";
    size_t len = 0;
    for (const struct cfn *k = top; len < sizeof chain; k = &u->fns[k->deepest]) {
        len += (size_t)snprintf(chain + len, sizeof chain - len, "%s%s()", k == top ? "" : " -> ",
                                k->f->def->name);
        if (!k->callee_stack) break;
    }
    return jit_refuse(u, top, top->f->def,
                      "local arrays that take %lld KiB of stack along the calls %s: compiled code "
                      "keeps them on a thread's stack, of which it takes at most %lld KiB (make "
                      "the arrays smaller, or fewer)",
                      (long long)(top->stack >> 10), chain, (long long)(limit >> 10));
}

/* The C of unit u: what every unit begins with, then its functions. */
void jit_unit_source(const struct unit *u, const struct dsl_function *f, struct render_buf *src)
{
    render_buf_init(src, 0);
    if (f->jit_unchecked) render_buf_puts(src, "#define JIT_UNCHECKED 1\n");
    if (f->jit_races) render_buf_puts(src, "#define JIT_RACES 1\n");
    render_buf_append(src, (const char *)u->em->start, u->em->nstart);
    /* the engine's scalar functions, as the engine's own source defines them */
    render_buf_append(src, (const char *)mt_scalar_src, sizeof mt_scalar_src - 1);
    render_buf_append(src, (const char *)jit_rt_env_src, sizeof jit_rt_env_src - 1);
    render_buf_puts(src, "#define OP_FN JIT_FN\n"); /* lib/operators.h's, for the target */
    render_buf_append(src, (const char *)jit_rt_operators_src, sizeof jit_rt_operators_src - 1);
    render_buf_append(src, (const char *)jit_rt_runtime_src, sizeof jit_rt_runtime_src - 1);
    if (u->em->defines) u->em->defines(u, src);
    render_buf_puts(src, u->protos.data ? u->protos.data : "");
    render_buf_puts(src, u->bodies.data ? u->bodies.data : "");
    if (u->em->entry) u->em->entry(u, src);
}

/* Compiles f for argument types args into s: s->entry set, or s->why (a reason to run it in the
 * interpreter); -1 after raising (a race is the student's error, located). */
int jit_build(struct dsl_interp *in, struct dsl_function *f, struct spec *s)
{
    struct unit *u = jit_unit_new(in, false, JIT_HOST), *g = NULL;
    if (!u) return dsl_raise_status(in, DSL_V_NOMEM);
    int id, r = 0;
    if (jit_compile_fn(u, f, s->args, s->nargs, &id) == 0 &&
        jit_stack_fits(u, MAX_HOST_STACK) == 0) {
        /* the same unit with the iterations of its loops in groups, where some can be */
        if (u->jam_cand && (g = jit_unit_new(in, true, JIT_HOST)) &&
            jit_compile_fn(g, f, s->args, s->nargs, &id)) {
            jit_unit_free(g);
            g = NULL;
        }
        s->ret = u->fns[0].ret;
        s->nfns = u->nfns;
        for (int i = 0; i < s->nargs; i++) s->wrote[i] = u->fns[0].vars[i].written;
        for (int i = 0; i < s->nargs; i++) s->racy[i] = u->fns[0].vars[i].racy;
        for (int i = 0; i < u->nfns; i++) {
            struct dsl_value v = {.kind = DSL_FUNCTION,
                                  .as.fn_user = (struct dsl_function *)u->fns[i].f};
            s->fns[i] = i ? dsl_value_retain(v) : v;
        }
        bool deep = u->max_nest >= 2;
        struct render_buf src, gsrc;
        jit_unit_source(u, f, &src);
        render_buf_init(&gsrc, 0);
        if (g)
            jit_unit_source(g, f, &gsrc);
        else if (deep) /* its loops as written again, by gcc -O2 for the calls after the first */
            render_buf_append(&gsrc, src.data ? src.data : "", src.len);
        if (g && !deep) { /* one C for both of its builds: the grouped one */
            render_buf_free(&src);
            src = gsrc;
            render_buf_init(&gsrc, 0);
        }
        struct jit_folder *dir = NULL;
        char *note = NULL, *dir_why = NULL;
        if (src.nomem || gsrc.nomem) {
            r = dsl_raise_status(in, DSL_V_NOMEM);
        } else if (!(dir = jit_cache_open(&note, &dir_why))) {
            if (asprintf(&s->why, "no folder for compiled code: %s", dir_why) < 0) s->why = NULL;
        } else {
            if (note) dsl_emit(in, "stderr", note);
            const char *const *flags = deep ? jit_deep_flags.v : jit_cc_flags.v;
            size_t nflags = deep ? jit_deep_flags.n : jit_cc_flags.n;
            struct jit_unit unit, grouped;
            jit_unit_names(src.data, flags, nflags, &unit);
            bool later = gsrc.data != NULL;
            if (later) {            /* the grouped build, -O2's, if a kernel made it before */
                char *unfit = NULL; /* then it is built again, after the first call */
                jit_unit_names(gsrc.data, jit_cc_flags.v, jit_cc_flags.n, &grouped);
                if (jit_cache_load(dir, grouped.so, "jit_entry", &s->dl, (void **)&s->entry,
                                   &unfit) == 0) {
                    later = false;
                    unit = grouped;
                    render_buf_free(&src);
                    src = gsrc;
                    render_buf_init(&gsrc, 0);
                }
                free(unfit);
            }
            if (!s->entry)
                r = jit_load_or_compile(in, f, !deep && !u->race_checks, flags, nflags, src.data,
                                        dir, &unit, s);
            if (r == 0 && s->entry && !s->quick) s->so_path = jit_cache_path(dir, unit.so);
            if (later && s->entry && !s->quick) { /* the first calls run the loops as written */
                s->later_text = strdup(gsrc.data);
                s->plain = s->quick = true;
                s->quick_dl = s->dl;
                s->dl = NULL;
                free(s->so_path);
                s->so_path = NULL;
            }
        }
        free(note);
        free(dir_why);
        const char *text = s->later_text ? s->later_text : src.data;
        if (!s->src && text) s->src = strdup(text);
        jit_report(g ? g : u, s);
        render_buf_free(&src);
        render_buf_free(&gsrc);
    } else if (u->race) {
        r = dsl_raise_in(in, u->why_fn, u->why_pos, "CompileError",
                         "%s() cannot run in parallel: %s", f->def->name,
                         u->why ? u->why : "a race");
    } else {
        s->why = u->why;
        u->why = NULL;
        if (s->why && u->why_fn) { /* what and where, for parallel_diagnostics */
            char *w = NULL;
            if (asprintf(&w, "the compiler does not take %s (in %s())", s->why,
                         u->why_fn->def->name) >= 0) {
                free(s->why);
                s->why = w;
            }
        }
    }
    if (r == 0 && !s->entry && !s->why) s->why = strdup("not compiled");
    jit_unit_free(u);
    jit_unit_free(g);
    return r;
}
