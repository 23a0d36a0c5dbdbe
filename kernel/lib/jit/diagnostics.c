/* jit/diagnostics.c — what parallel_diagnostics(fn) and a kernel's description say: how each
 * specialisation was compiled or why it runs in the interpreter, its prange loops, what its
 * loops cost (jit/listing.c), and its last call or launch. */
#include "lib/jit/internal.h"

/* What parallel_diagnostics says of a compiled specialisation. */
void jit_report(const struct unit *u, struct spec *s)
{
    struct render_buf b;
    render_buf_init(&b, 0);
    const struct cfn *top = &u->fns[0];
    const struct dsl_function *f = top->f;
    if (u->nprange) {
        render_buf_puts(&b, "  parallel: the prange loop");
        for (int i = 0; i < u->nprange; i++)
            render_buf_printf(&b, "%s %d",
                              i                ? ","
                              : u->nprange > 1 ? "s (lines"
                                               : " (line",
                              jit_line_in(f, u->prange_pos[i]) - jit_line_in(f, f->def->pos) + 1);
        int light = 0;
        for (int i = 0; i < u->nprange; i++) light += u->prange_light[i];
        /* short lines, one fact each: how many threads, what a chunk is, the interrupt */
        render_buf_printf(
            &b,
            " of %s)\n"
            "    over @THREADS@ threads (%%threads); on one where a loop without inner loops "
            "has under 256 iterations\n"
            "    in chunks of 1 to %s iterations%s, 8 per thread where the loop is long enough\n"
            "    the interrupt polled between chunks\n",
            f->def->name, light == u->nprange ? "65536" : "1024",
            light && light < u->nprange
                ? " (to 65536 where an iteration runs no loop and calls no function with one)"
                : "");
        render_buf_puts(&b, "  each iteration's own variables:");
        bool any = false;
        for (int i = 0; i < top->nvars; i++)
            if (top->vars[i].in_loop) {
                const struct var *v = &top->vars[i];
                if (v->buflen)
                    render_buf_printf(&b, " %s (%lld ints)", v->name, (long long)v->buflen);
                else
                    render_buf_printf(&b, " %s (%s)", v->name, jit_type_name[v->t]);
                any = true;
            }
        render_buf_puts(&b, any ? "\n" : " none\n");
        /* the arrays all iterations share, and what they do with them (a write the analysis
         * found unsafe was refused: what is listed passed it) */
        any = false;
        for (int i = 0; i < top->nvars; i++) {
            const struct var *v = &top->vars[i];
            if ((!floats(v->t) && !ints(v->t)) || !jit_shared_mem(v)) continue;
            render_buf_printf(&b, "%s %s (",
                              any ? "," : "  arrays every iteration shares:", v->name);
            if (v->alias_of)
                render_buf_printf(&b, "another name for %s", v->alias_of);
            else if (v->buflen)
                render_buf_printf(&b, "%lld ints made before the loop", (long long)v->buflen);
            else
                render_buf_printf(&b, "%s, an argument", jit_type_name[v->t]);
            render_buf_puts(&b, v->racy ? ": written, and reached at positions the compiler "
                                          "cannot show are each iteration's own: each write and "
                                          "read recorded and checked at run time)"
                                : v->pwritten
                                    ? ": written at positions that follow from the loop's variable)"
                                    : ": not written in the loop)");
            any = true;
        }
        if (any) render_buf_puts(&b, "\n");
        for (int i = 0; i < top->nvars; i++)
            if (top->vars[i].in_loop && top->vars[i].buflen) {
                render_buf_puts(&b, "  index buffers made in the loop (np.zeros, [0] * n): one "
                                    "per chunk, on its thread's stack, each iteration clearing "
                                    "what the one before wrote; nothing is allocated per "
                                    "iteration\n");
                break;
            }
        any = false;
        for (int i = 0; i < top->nvars; i++)
            if (top->vars[i].reduce) {
                render_buf_printf(&b, "%s %s (%c=)",
                                  any ? ","
                                      : "  reductions, each thread's part "
                                        "combined when the loop ends:",
                                  top->vars[i].name, top->vars[i].reduce);
                any = true;
            }
        if (any) render_buf_puts(&b, "\n");
    } else {
        render_buf_puts(&b, "  serial: no prange loop in the function called\n");
    }
    if (u->max_nest >= 2)
        render_buf_printf(&b,
                          "  built twice: its prange body nests loops two deep, so its first call "
                          "waits for gcc (the quick build's code would run them several times "
                          "slower), on its loops as written with -Og -fcaller-saves, which "
                          "compiles them sooner; gcc -O2 then builds %s for the calls after "
                          "it\n",
                          u->jams ? "the grouped loops below" : "the same loops");
    if (u->jams) {
        const struct dsl_function *jf = u->jam_fn;
        render_buf_printf(&b,
                          "  the loop over %s (line %d of %s) runs %d iterations at a time, "
                          "each with variables of its own: one inner loop adds their terms in "
                          "turn, each sum in its own order (the same bits, sooner); the "
                          "iterations left over, those of a group that meets an index out of "
                          "range, and all of them where a storage it writes overlaps one it "
                          "reads, run as written\n",
                          u->jam_line->name,
                          jit_line_in(jf, u->jam_line->pos) - jit_line_in(jf, jf->def->pos) + 1,
                          jf->def->name, JAM);
        if (u->jams > 1) render_buf_printf(&b, "  (and %d more loops the same way)\n", u->jams - 1);
    }
    if (u->nfns > 1) {
        render_buf_puts(&b, "  compiled in and inlined, each for the types it is called with:");
        for (int i = 1; i < u->nfns; i++) render_buf_printf(&b, " %s()", u->fns[i].f->def->name);
        render_buf_puts(&b, "\n");
    }
    s->report = b.nomem ? NULL : b.data;
    if (b.nomem) render_buf_free(&b);
}

/* ---- parallel_diagnostics ----------------------------------------------------------------- */

/* Fewest bytes a call's storages hold for its rate to say something of memory's speed: below,
 * the call's fixed costs (starting its threads, its first chunk) take most of its time. */
#define RATE_MIN_BYTES (64.0 * 1024)

/* "last call: 14.4 ms on 2 threads, storages of 8.00 MB (each counted once): 0.556 GB/s, 0.8%
 * of 73 GB/s", the share against the machine's read peak (diagnostics.h) when a %diagnostics
 * table has measured it. No rate for the first call of a build (its time holds its threads'
 * start and its pages' first touch), nor for storages under RATE_MIN_BYTES. */
static void last_call(struct render_buf *b, const struct spec *s)
{
    char t[32], rate[48], share[96], size[32];
    dsl_format_duration((double)s->last_ns * 1e-9, t, sizeof t);
    render_buf_printf(b, "  last call: %s on %d thread%s", t, s->last_threads,
                      s->last_threads == 1 ? "" : "s");
    if (s->last_bytes <= 0) {
        render_buf_puts(b, "\n");
        return;
    }
    dsl_diag_si(s->last_bytes, "B", size, sizeof size);
    if (s->last_first || s->last_bytes < RATE_MIN_BYTES) {
        render_buf_printf(b, ", storages of %s (each counted once): %s\n", size,
                          s->last_first ? "the first call of this build, whose time holds its "
                                          "start (no rate: call it again for one)"
                                        : "too little data for a rate to mean anything");
        return;
    }
    double peak = 0;
    double gbps = s->last_bytes / (double)s->last_ns;
    dsl_diag_rate("map", s->last_bytes, 0, (double)s->last_ns, rate, sizeof rate);
    if (dsl_diag_read_peak(&peak))
        dsl_diag_share(false, gbps, peak, s->last_bytes, dsl_diag_cache_bytes(), share,
                       sizeof share);
    else /* the peak is measured by the first %diagnostics table, not here */
        snprintf(share, sizeof share, "against this machine's peak once %%diagnostics has run");
    render_buf_printf(b, ", storages of %s (each counted once): %s, %s\n", size, rate, share);
}

/* What a GPU's memory would do for the simulated launch of s: a row per access site. */
static void memory_rows(const struct spec *s, struct render_buf *b)
{
    static const char *const kinds[] = {"global read", "global write", "shared read",
                                        "shared write"};
    int64_t blocks = s->grid[0] * s->grid[1] * s->grid[2];
    render_buf_printf(b,
                      "  memory as a GPU would serve it, counted over %s%lld of the %lld "
                      "blocks: a request is one access of a warp (32 threads in a row) at one "
                      "place; it takes a transaction per 32-byte sector of global memory, or a "
                      "wavefront per access to one of shared memory's 32 banks\n",
                      s->counted < blocks ? "the first " : "", (long long)s->counted,
                      (long long)blocks);
    /* a row's columns fit 72 characters, what a notebook's output area beside an open side
     * panel shows of a line; its verdict, prose that may wrap, goes on a line under it */
    render_buf_printf(b, "    %-5s %-13s %-13s %8s %17s %7s\n", "line", "array", "access",
                      "requests", "per request", "fewest");
    for (int i = 0; i < s->nsites; i++) {
        const struct jit_site *site = &s->sites[i];
        double req = s->stats[i * 3], took = s->stats[i * 3 + 1], least = s->stats[i * 3 + 2];
        if (req == 0) continue;
        int fn = (int)(site->where >> 40);
        const struct dsl_function *f = fn < s->nfns ? s->fns[fn].as.fn_user : s->fns[0].as.fn_user;
        char per[32], verdict[160];
        bool shared = site->kind >= 2;
        snprintf(per, sizeof per, "%.2f %s", took / req, shared ? "wavefronts" : "sectors");
        double ratio = least > 0 ? took / least : 1;
        if (ratio <= 1.05)
            snprintf(verdict, sizeof verdict, shared ? "no bank conflict" : "coalesced");
        else if (shared)
            snprintf(verdict, sizeof verdict,
                     "%.1f-way bank conflict: threads of a warp use different words of one bank",
                     ratio);
        else
            snprintf(verdict, sizeof verdict,
                     "%.1fx the fewest: uncoalesced, the warp's threads touch addresses far apart",
                     ratio);
        render_buf_printf(b, "    %-5d %-13s %-13s %8.0f %17s %7.2f\n          %s\n",
                          jit_line_at(f, (size_t)(site->where & ((1ll << 40) - 1))), site->name,
                          kinds[site->kind], req, per, least / req, verdict);
    }
}

/* How compiled code's integers differ from the interpreter's, said once per function. */
static const char int_note[] =
    "  integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter "
    "raises OverflowError; // and ** raise it as the interpreter does\n";

/* What parallel_diagnostics says of a cuda.jit kernel f, into *b. */
static void cuda_describe(const struct dsl_function *f, bool source, struct render_buf *b)
{
    const char *name = f->def->name;
    if (!f->jits || !f->jits->specs)
        render_buf_printf(b,
                          "%s() is a CUDA kernel (cuda.jit), compiled at its first launch for the "
                          "kinds of its arguments; it has not been launched yet\n",
                          name);
    bool launched = false;
    for (struct spec *s = f->jits ? f->jits->specs : NULL; s; s = s->next) {
        if (!s->launch_no) continue; /* cuda_source's text only */
        render_buf_printf(b, "%s(", name);
        for (int i = 0; i < s->nargs; i++)
            render_buf_printf(b, "%s%s", i ? ", " : "", jit_type_name[s->args[i]]);
        int64_t blocks = s->grid[0] * s->grid[1] * s->grid[2];
        int64_t threads = s->block[0] * s->block[1] * s->block[2];
        char t[32];
        dsl_format_duration((double)s->last_ns * 1e-9, t, sizeof t);
        render_buf_printf(
            b,
            "): a CUDA kernel, %s\n  last launch: %s[(%lld, %lld, %lld), (%lld, %lld, "
            "%lld)], %lld block%s of %lld thread%s (%lld warp%s each): %s",
            s->target == JIT_GPU ? "compiled with NVRTC for the GPU"
                                 : "run by the kernel's CUDA simulator",
            name, (long long)s->grid[0], (long long)s->grid[1], (long long)s->grid[2],
            (long long)s->block[0], (long long)s->block[1], (long long)s->block[2],
            (long long)blocks, blocks == 1 ? "" : "s", (long long)threads, threads == 1 ? "" : "s",
            (long long)((threads + 31) / 32), threads > 32 ? "s" : "", t);
        if (s->target == JIT_GPU) {
            char g[32];
            dsl_format_duration(s->gpu_ms * 1e-3, g, sizeof g);
            render_buf_printf(b, " (copies included; the kernel alone %s, CUDA events)\n", g);
        } else if (blocks > 1) {
            render_buf_printf(b, ", blocks in parallel on %d thread%s\n", s->last_threads,
                              s->last_threads == 1 ? "" : "s");
        } else {
            render_buf_puts(b, "\n");
        }
        if (s->target == JIT_SIM && s->stats && s->counted) memory_rows(s, b);
        if (source && s->src) {
            render_buf_puts(b, s->target == JIT_GPU ? "  its CUDA C:\n" : "  the simulator's C:\n");
            render_buf_puts(b, s->src);
        }
        launched = true;
    }
    if (launched) render_buf_puts(b, int_note);
}

/* What parallel_diagnostics says of f, into *b. */
static void describe(struct dsl_interp *in, const struct dsl_function *f, bool source,
                     struct render_buf *b)
{
    if (f->cuda_kernel) {
        cuda_describe(f, source, b);
        return;
    }
    const char *name = f->def->name;
    if (!f->jit)
        render_buf_printf(b, "%s() is not given to njit: it runs in the interpreter\n", name);
    else if (!f->jits || (!f->jits->specs && !f->jits->interp_calls))
        render_buf_printf(b,
                          "%s() is compiled at its first call, for the kinds of its "
                          "arguments; it has not been called yet\n",
                          name);
    if (f->jit && f->jits && f->jits->interp_calls) {
        const struct dsl_jit_cache *c = f->jits;
        render_buf_printf(b,
                          "%s(): %lld call%s ran in the interpreter, not compiled: the first "
                          "one's argument %s is a %s, a kind the compiler does not take\n",
                          name, (long long)c->interp_calls, c->interp_calls == 1 ? "" : "s",
                          f->def->kwnames[c->interp_arg], c->interp_kind);
    }
    bool compiled = false;
    for (struct spec *s = f->jits && f->jit ? f->jits->specs : NULL; s; s = s->next) {
        render_buf_printf(b, "%s(", name);
        for (int i = 0; i < s->nargs; i++)
            render_buf_printf(b, "%s%s", i ? ", " : "", jit_type_name[s->args[i]]);
        if (s->entry) {
            render_buf_puts(b, f->jit_unchecked ? "): compiled to native code, indices unchecked "
                                                  "(boundscheck=False)\n"
                               : f->jit_races   ? "): compiled to native code, each write of its "
                                                  "prange loop to a storage, and each read of one "
                                                  "it writes, checked for races "
                                                  "(check_races=True)\n"
                                                : "): compiled to native code\n");
            const char *rep = s->report ? s->report : "", *mark = strstr(rep, "@THREADS@");
            if (mark) {
                render_buf_append(b, rep, (size_t)(mark - rep));
                render_buf_printf(b, "%d", mt_ctx_threads(in->session->ctx));
                rep = mark + strlen("@THREADS@");
            }
            render_buf_puts(b, rep);
            if (s->plain && s->quick && s->slow_why)
                render_buf_printf(b, "  runs gcc's build of its loops as written: %s\n",
                                  s->slow_why);
            else if (s->plain && s->quick)
                render_buf_puts(b, "  its first call ran gcc's quicker build of its loops as "
                                   "written; gcc -O2's, compiling meanwhile, runs from the next "
                                   "call\n");
            else if (s->plain)
                render_buf_puts(b, "  its first call ran gcc's quicker build of its loops as "
                                   "written, while gcc -O2 compiled this one\n");
            else if (s->quick && s->slow_why)
                render_buf_printf(b, "  runs tcc's quick build, on one thread: %s\n", s->slow_why);
            else if (s->quick)
                render_buf_puts(b, "  its first call ran a build tcc made in milliseconds, on one "
                                   "thread; gcc -O2's, compiling meanwhile, runs from the next "
                                   "call\n");
            else if (s->was_quick)
                render_buf_puts(b, "  its first call ran a build tcc made in milliseconds, on one "
                                   "thread, while gcc -O2 compiled this one\n");
            if (s->so_path && !s->quick) {
                if (!s->loops) s->loops = jit_loops_describe(s->so_path);
                if (s->loops)
                    render_buf_printf(b,
                                      "  machine code (gcc's, read by objdump), instructions in "
                                      "its loops over elements: %s\n",
                                      s->loops);
            } else if (s->quick) {
                render_buf_puts(b, "  machine code: read from gcc's build, once a call runs it\n");
            }
            if (s->last_ns > 0) last_call(b, s);
            double bns =
                s->op && s->last_ns > 0 ? dsl_student_op_builtin_ns(in->session->ctx, s->op) : -1;
            if (bns > 0) {
                char t[32];
                dsl_format_duration(bns * 1e-9, t, sizeof t);
                render_buf_printf(b,
                                  "  the last call ran %s for the student backend; the built-in "
                                  "fast %s on the same shapes and strides takes %s (the last "
                                  "call: %.3gx that)\n",
                                  s->op->what, s->op->what, t, (double)s->last_ns / bns);
            }
            if (source && s->src) {
                render_buf_puts(b, "  the C it was compiled from:\n");
                render_buf_puts(b, s->src);
            }
        } else {
            render_buf_printf(b, "): runs in the interpreter: %s\n", s->why ? s->why : "");
        }
        compiled = compiled || s->entry;
    }
    if (compiled) render_buf_puts(b, int_note);
}

/* Prints what parallel_diagnostics says of v (a function, or none: those this cell ran). */
static int print_diagnostics(struct dsl_interp *in, struct dsl_value v, bool source,
                             struct dsl_value *ret)
{
    struct render_buf b;
    render_buf_init(&b, 0);
    struct dsl_session *ses = in->session;
    if (v.kind == DSL_FUNCTION) describe(in, v.as.fn_user, source, &b);
    /* without a function: those whose compiled code this cell ran (through the student
     * backend too, where the student's kernels are out of reach), the latest first */
    int shown = 0;
    for (int i = 0; v.kind == DSL_NONE && i < ses->jit_nrecent; i++)
        if (ses->jit_recent_cell[i] == ses->cells_run) {
            describe(in, ses->jit_recent[i].as.fn_user, source, &b);
            shown++;
        }
    if (v.kind == DSL_NONE && !shown)
        render_buf_puts(&b, "no function given to njit has run compiled code in this cell\n");
    if (b.nomem) {
        render_buf_free(&b);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    dsl_emit(in, "stdout", b.data ? b.data : "");
    render_buf_free(&b);
    *ret = dsl_none();
    return 0;
}

void dsl_cuda_report_since(struct dsl_interp *in, long since)
{
    struct dsl_session *ses = in->session;
    struct render_buf b;
    render_buf_init(&b, 0);
    for (int i = 0; i < ses->jit_nrecent; i++) {
        const struct dsl_function *f = ses->jit_recent[i].as.fn_user;
        bool launched = false;
        for (struct spec *s = f->cuda_kernel && f->jits ? f->jits->specs : NULL; s; s = s->next)
            launched |= s->launch_no > since;
        if (launched) cuda_describe(f, false, &b);
    }
    if (b.data && !b.nomem) dsl_emit(in, "stdout", b.data);
    render_buf_free(&b);
}

int dsl_bi_parallel_diagnostics(struct dsl_interp *in, const struct dsl_args *a,
                                struct dsl_value *ret)
{
    struct dsl_value v = a->has[0] ? a->slot[0] : dsl_none();
    if (v.kind != DSL_FUNCTION && v.kind != DSL_NONE)
        return dsl_raise(in, "TypeError", "parallel_diagnostics() takes a function, not %s",
                         dsl_type_name(v));
    return print_diagnostics(in, v, a->has[1] && dsl_value_truthy(a->slot[1]), ret);
}

/* Numba's levels (1 to 4) choose how much of its report it prints; this report is one size,
 * so a level is only checked. */
static int m_parallel_diagnostics(struct dsl_interp *in, const struct dsl_args *a,
                                  struct dsl_value *ret)
{
    if (a->has[0]) {
        struct dsl_value l = a->slot[0];
        if (l.kind != DSL_INT && l.kind != DSL_BOOL)
            return dsl_raise(in, "TypeError", "parallel_diagnostics() level must be an int, not %s",
                             dsl_type_name(l));
        int64_t level = dsl_as_int(l);
        if (level < 1 || level > 4)
            return dsl_raise(in, "ValueError",
                             "parallel_diagnostics() level must be 1, 2, 3 or 4 (as in Numba), "
                             "not %lld",
                             (long long)level);
    }
    return print_diagnostics(in, a->self, a->has[1] && dsl_value_truthy(a->slot[1]), ret);
}

static const char *const method_diag_params[] = {"level", "source", NULL};

const struct dsl_builtin dsl_jit_diagnostics_method = {
    "parallel_diagnostics",
    "fn.parallel_diagnostics(level=1, source=false)",
    0,
    2,
    method_diag_params,
    m_parallel_diagnostics,
    "parallel_diagnostics(fn) as Numba's method of a function given to njit: how it runs for "
    "each kind of arguments it was called with. level (1 to 4) is Numba's; the report is the "
    "same at each. Prints, and returns None."};
