/* jit/loops.c — loops: range and prange (the called function's outermost prange runs in
 * chunks on OpenMP threads, polling the interrupt between them), loops over arrays, enumerate
 * and zip, break and continue; short loops peeled into straight code. */
#include "lib/jit/internal.h"

/* What for loop n runs over, as the table's role: JB_RANGE, JB_PRANGE, JB_ENUMERATE, JB_ZIP,
 * or JB_VALUE for an array (a call of another function among them). */
static enum jb_role over(struct unit *u, struct cfn *c, const struct dsl_node *n)
{
    static const enum jb_role loops[] = {JB_RANGE, JB_PRANGE, JB_ENUMERATE, JB_ZIP};
    const struct dsl_node *it = n->a;
    if (it->kind != DSL_N_CALL || it->nkw || it->flag) return JB_VALUE;
    for (size_t i = 0; i < sizeof loops / sizeof loops[0]; i++)
        if (jit_builtin_as(u, c, it->a, loops[i])) return loops[i];
    return JB_VALUE;
}

/* The loop i<k> = 0 .. e<k> - 1 of a for statement n, the body emitted between the two calls.
 * A loop with loops inside polls the interrupt (and another thread's error) at every
 * iteration, two loads of memory: an inner loop that does not poll may be long, and loops
 * nested three deep multiply their counts. The innermost loop runs in blocks of 65536
 * iterations, polled between blocks, so that its own body holds no test: one there would keep
 * the C compiler from vectorising the loop, from taking what does not change out of it and
 * from keeping the element it accumulates into in a register. `break` then leaves both loops,
 * by a label. A quiet innermost loop, as long as an int array (a shape, strides, an index
 * buffer: memory the session holds) or a small constant, does not poll: its count bounds its
 * time, and without the poll it cannot fail, nor can the index helpers made of such loops. */
static void strip_open(struct unit *u, const struct dsl_node *n, int k, bool quiet)
{
    if (quiet || jit_has_loop(n->b)) {
        jit_emit(u, "for (int64_t i%d = 0; i%d < e%d; i%d++) {", k, k, k, k);
        u->loop_depth++;
        if (jit_has_loop(n->b)) jit_emit(u, "if (jit_cancelled(env)) goto JIT_FAIL;");
        u->brk = -1;
        return;
    }
    jit_emit(u, "for (int64_t i%d = 0; i%d < e%d;) {", k, k, k);
    u->loop_depth++;
    jit_emit(u, "if (i%d && jit_cancelled(env)) goto JIT_FAIL;", k);
    jit_emit(u, "int64_t b%d = e%d - i%d > 65536 ? i%d + 65536 : e%d;", k, k, k, k, k);
    jit_emit(u, "for (; i%d < b%d; i%d++) {", k, k, k);
    u->loop_depth++;
    u->brk = k;
}

static void strip_close(struct unit *u, const struct dsl_node *n, int k, bool quiet)
{
    u->loop_depth--;
    jit_emit(u, "}");
    if (!quiet && !jit_has_loop(n->b)) {
        u->loop_depth--;
        jit_emit(u, "}");
        jit_emit(u, "brk%d:;", k);
    }
}

/* Whether a break or continue is in n (a loop's body without loops inside). */
bool jit_has_jump(const struct dsl_node *n)
{
    if (!n) return false;
    if (n->kind == DSL_N_BREAK || n->kind == DSL_N_CONTINUE) return true;
    if (jit_has_jump(n->b)) return true;
    for (size_t i = 0; i < n->nkids; i++)
        if (jit_has_jump(n->kids[i])) return true;
    return false;
}

/* The iterations of a quiet loop run as straight code before the loop itself. A shape or
 * strides has a few elements, and the C compiler does not unroll a loop whose count it does not
 * know: index_to_position in a reduce's inner loop then paid a loop's set-up and counter at
 * every element (bench/results/jit-*). */
#define PEEL 3

/* The body of the loop n (ids k; i<k> < e<k>), each iteration beginning with head, which sets
 * its variables from i<k>. A quiet loop without loops, break or continue inside first runs PEEL
 * iterations, each under its own test of the count, then the loop the rest. */
static int loop_body(struct unit *u, struct cfn *c, const struct dsl_node *n, int k, bool quiet,
                     const char *head)
{
    int brk = u->brk, r = 0;
    if (quiet && !jit_has_loop(n->b) && !jit_has_jump(n->b)) {
        jit_emit(u, "int64_t i%d = 0;", k);
        for (int p = 0; p < PEEL && r == 0; p++) {
            jit_emit(u, "if (i%d < e%d) {", k, k);
            u->loop_depth++;
            jit_emit(u, "%s", head);
            r = jit_block(u, c, n->b);
            jit_emit(u, "i%d++;", k);
        }
        jit_emit(u, "for (; i%d < e%d; i%d++) {", k, k, k);
        u->loop_depth++;
        jit_emit(u, "%s", head);
        if (r == 0) r = jit_block(u, c, n->b);
        for (int p = 0; p <= PEEL; p++) {
            u->loop_depth--;
            jit_emit(u, "}");
        }
        return r;
    }
    strip_open(u, n, k, quiet);
    jit_emit(u, "%s", head);
    r = jit_block(u, c, n->b);
    strip_close(u, n, k, quiet);
    u->brk = brk;
    return r;
}

/* The body of a range loop (ids k: r<k> + i<k> * t<k> for i<k> < e<k>; a loop's C names are a
 * letter and its number, and none is f<n>, which names the unit's compiled functions). */
int jit_range_body(struct unit *u, struct cfn *c, const struct dsl_node *n, int k, bool quiet)
{
    struct render_buf head;
    render_buf_init(&head, 0);
    render_buf_printf(&head, "v_%s = r%d + i%d * t%d;", n->name, k, k, k);
    int r =
        head.nomem ? dsl_raise_status(u->in, DSL_V_NOMEM) : loop_body(u, c, n, k, quiet, head.data);
    render_buf_free(&head);
    return r;
}

/* for x in arr, for a, b in zip(xs, ys, ...), for i, x in enumerate(xs): over arrays, as many
 * iterations as the shortest has elements. */
static int for_each(struct unit *u, struct cfn *c, const struct dsl_node *n, enum jb_role role)
{
    const struct dsl_node *it = n->a;
    struct dsl_node *const *names = n->name ? NULL : n->kids[0]->kids;
    size_t ntargets = n->name ? 1 : n->kids[0]->nkids;
    const struct dsl_node *const *arrays = &it;
    size_t narrays = 1;
    bool counted = role == JB_ENUMERATE && it->nkids == 1; /* the first target the count */
    if (counted || role == JB_ZIP) {
        arrays = (const struct dsl_node *const *)(void *)it->kids;
        narrays = it->nkids;
    }
    if (narrays == 0 || narrays > MAX_ARGS || ntargets != narrays + counted)
        return jit_refuse(u, c, n, "this for loop's targets");
    for (size_t i = 0; i < ntargets; i++)
        if (names && names[i]->kind != DSL_N_NAME)
            return jit_refuse(u, c, n, "a for loop target that is not a name");
    struct ex a[MAX_ARGS];
    for (size_t i = 0; i < narrays; i++) ex_init(&a[i]);
    int r = 0, k = u->tmp++;
    for (size_t i = 0; i < narrays && r == 0; i++) {
        r = jit_expr(u, c, arrays[i], &a[i]);
        if (r == 0 && !floats(a[i].t) && !ints(a[i].t))
            r = jit_refuse(u, c, n, "a for loop over a %s", jit_type_name[a[i].t]);
        if (r == 0) r = jit_read_whole(u, c, arrays[i], n); /* every element: others' too */
    }
    for (size_t i = 0; i < ntargets && r == 0; i++) {
        struct var *v;
        enum jt t = counted && i == 0 ? JT_INT : floats(a[i - counted].t) ? JT_FLOAT : JT_INT;
        r = jit_assign_var(u, c, n, names ? names[i]->name : n->name, t, 0, &v);
        /* an element of an array that follows from the loop's variable does too */
        if (r == 0 && u->in_prange && !(counted && i == 0) && jit_expr_dep(c, arrays[i - counted]))
            jit_set_dep(u, v);
    }
    /* as many iterations as the shortest array has elements: an int array bounds them */
    bool quiet = false;
    for (size_t i = 0; i < narrays && r == 0; i++) quiet = quiet || ints(a[i].t);
    if (!quiet || jit_has_loop(n->b)) c->may_fail = true; /* a loop polls the interrupt */
    if (r == 0) {
        jit_emit(u, "{");
        jit_emit(u, "int64_t e%d = (%s).n;", k, a[0].s.data);
        for (size_t i = 1; i < narrays; i++)
            jit_emit(u, "if ((%s).n < e%d) e%d = (%s).n;", a[i].s.data, k, k, a[i].s.data);
        struct render_buf head;
        render_buf_init(&head, 0);
        if (counted) render_buf_printf(&head, "v_%s = i%d; ", names[0]->name, k);
        for (size_t i = 0; i < narrays; i++)
            render_buf_printf(&head, "v_%s = (%s).p[i%d]; ",
                              names ? names[i + counted]->name : n->name, a[i].s.data, k);
        r = head.nomem ? dsl_raise_status(u->in, DSL_V_NOMEM)
                       : loop_body(u, c, n, k, quiet, head.data);
        render_buf_free(&head);
        jit_emit(u, "}");
    }
    for (size_t i = 0; i < narrays; i++) ex_free(&a[i]);
    return r;
}

/* Whether range loop n needs no poll of the interrupt: a range over an int array's indices
 * (to_index's) is quiet, as a loop over the array is. */
static bool quiet_range(struct unit *u, struct cfn *c, const struct dsl_node *it, enum jb_role role)
{
    bool quiet = role == JB_RANGE && it->nkids >= 1 && it->nkids <= 3;
    for (size_t i = 0; quiet && i < it->nkids && i < 2; i++)
        quiet = jit_small_int(u, c, it->kids[i]);
    if (quiet && it->nkids == 3) { /* a step that is a constant, so never 0 */
        const struct dsl_node *t = it->kids[2];
        if (t->kind == DSL_N_UNARY && t->op == DSL_T_MINUS) t = t->a;
        quiet = t->kind == DSL_N_CONST && t->value.kind == DSL_INT && t->value.as.i != 0;
    }
    return quiet;
}

/* Entering prange loop n of the called function: the loop's state in the unit, its variable
 * (each iteration's own), and the refusal of a variable an iteration may read before giving it
 * a value. Whether an iteration runs no loop, in this body or in a function it calls (known
 * from the passes before the one that emits), in *light. */
static int prange_enter(struct unit *u, struct cfn *c, const struct dsl_node *n, bool *light)
{
    int r;
    struct var *v;
    *light = !jit_has_loop(n->b);
    for (int i = 0; i < u->ncalls_loops; i++) *light = *light && u->calls_loops[i] != n->pos;
    if (u->pass == JIT_PASS_EMIT && u->nprange < MAX_PRANGE) {
        u->prange_light[u->nprange] = *light;
        u->prange_pos[u->nprange++] = n->pos;
    }
    u->cur_prange = n->pos;
    u->pno = jit_prange_slot(u, n->pos);
    u->prange_body = n->b;
    u->in_prange = true;
    u->prange_var = n->name;
    for (int i = 0; i < c->nvars; i++) c->vars[i].fills = 0; /* none passed yet */
    u->prange_head = true;
    r = jit_assign_var(u, c, n, n->name, JT_INT, 0, &v);
    u->prange_head = false;
    if (r == 0) jit_set_dep(u, v);
    uint64_t assigned = r == 0 ? UINT64_C(1) << (v - c->vars) : 0;
    const struct dsl_node *unset = r == 0 ? jit_unset_read(c, n->b, &assigned) : NULL;
    if (unset) {
        r = jit_race(u, c, unset,
                     "%s is read in an iteration of the prange loop that may not have given it "
                     "a value: in Python it would hold what an earlier iteration left, but the "
                     "iterations run at once on their own threads, each with variables of its "
                     "own. Give %s a value in every iteration before reading it (%s = 0 at the "
                     "top of the loop's body)",
                     unset->name, unset->name, unset->name);
    }
    return r;
}

/* The OpenMP pragma of prange loop n (its counter k): reductions, each thread's copies of the
 * variables it reads, one thread for a short loop of light iterations; and, before it, the
 * race records cleared for this run of the loop. 0, or -1 after raising. */
static int prange_pragma(struct unit *u, struct cfn *c, const struct dsl_node *n, int k)
{
    int r = 0;
    /* The function's variables the loop reads (none of them can be assigned in it:
     * assign_var) are each thread's own copies, not the shared originals OpenMP
     * reaches through a pointer: the compiler then keeps a shape or a stride in a
     * register instead of reading it again after every store of an int64 index,
     * which might have changed it. An array's copy points at the same elements. */
    struct render_buf clause;
    render_buf_init(&clause, 0);
    for (int i = 0; i < c->nvars; i++) {
        const struct var *rv = &c->vars[i];
        if (rv->reduce) render_buf_printf(&clause, " reduction(%c:v_%s)", rv->reduce, rv->name);
    }
    const char *sep = " firstprivate(";
    for (int i = 0; i < c->nvars; i++) {
        const struct var *rv = &c->vars[i];
        if (!rv->in_loop && !rv->reduce && rv->t != JT_NONE) {
            render_buf_printf(&clause, "%sv_%s", sep, rv->name);
            sep = ", ";
        }
    }
    if (*sep == ',') render_buf_puts(&clause, ")");
    /* a short loop of light iterations costs less on one thread than the
     * threads' start and join (far less on a machine busy with other work) */
    bool heavy = jit_has_loop(n->b);
    char cond[64] = "";
    if (!heavy) snprintf(cond, sizeof cond, " if(l%d >= 256)", k);
    if (clause.nomem) r = dsl_raise_status(u->in, DSL_V_NOMEM);
    /* what the iterations write and read is recorded anew for each run of the
     * loop: a run before (another prange loop, or this one in an earlier round of
     * a loop around it) is over */
    for (int i = 0; i < c->nvars; i++) {
        const struct var *rv = &c->vars[i];
        if (rv->param && floats(rv->t) && (rv->pl[u->pno].racy || (c->f->jit_races && rv->written)))
            jit_emit(u,
                     "if (env->shadow[%d]) __builtin_memset(env->shadow[%d], 0xff, "
                     "(uint64_t)v_%s.n * 2 * sizeof(int64_t));",
                     i, i, rv->name);
    }
    jit_emit(u, "#pragma omp parallel num_threads(env->threads)%s%s", cond,
             clause.data ? clause.data : "");
    render_buf_free(&clause);
    return r;
}

/* The threads' chunks of prange loop n (its counter k) and, in each, the iterations: the body
 * compiled with a failure leading to the end of the chunk. */
static int prange_chunks(struct unit *u, struct cfn *c, const struct dsl_node *n, int k)
{
    int r;
    /* each thread its run of chunks, as OpenMP's static schedule deals them, in a loop
     * of its own that an interrupt or an error ends at once (OpenMP's loops cannot
     * end early: the chunks left would each be skipped in turn) */
    jit_emit(u, "{");
    u->loop_depth++;
    jit_emit(u, "int64_t T%d = JIT_NUM_THREADS(), t%d = JIT_THREAD_NUM();", k, k);
    jit_emit(u, "int64_t c%d = t%d * (n%d / T%d) + (t%d < n%d %% T%d ? t%d : n%d %% T%d);", k, k, k,
             k, k, k, k, k, k, k);
    jit_emit(u, "int64_t g%d = c%d + n%d / T%d + (t%d < n%d %% T%d);", k, k, k, k, k, k, k);
    jit_emit(u, "for (; c%d < g%d; c%d++) {", k, k, k);
    u->loop_depth++;
    jit_emit(u, "if (jit_cancelled(env)) break;");
    jit_emit(u, "@PRIVATE@");
    jit_emit(u, "int64_t a%d = c%d * h%d, z%d = s%d + (l%d - a%d > h%d ? a%d + h%d : l%d);", k, k,
             k, k, k, k, k, k, k, k, k);
    jit_unchecked_accesses(u, c, n);
    for (int i = 0; i < u->nelide; i++) { /* once per storage */
        const char *arr = u->elide[i]->a->name;
        bool seen = false;
        for (int j = 0; j < i && !seen; j++) seen = strcmp(u->elide[j]->a->name, arr) == 0;
        if (!seen)
            jit_emit(u,
                     "if (z%d > v_%s.n) { jit_fail(env, JIT_E_INDEX, %lldLL, s%d + a%d > "
                     "v_%s.n ? "
                     "s%d + a%d : v_%s.n, v_%s.n, \"%s\"); goto pfail%d; }",
                     k, arr, jit_loc(c, u->elide[i]), k, k, arr, k, k, arr, arr, arr, k);
    }
    /* an iteration that assigns the loop's variable changes its own copy, as in
     * Python, never the count of the iterations its thread has left */
    u->prange_count[0] = 0;
    if (jit_assigns(n->b, n->name)) {
        snprintf(u->prange_count, sizeof u->prange_count, "q%d", k);
        jit_emit(u, "for (int64_t q%d = s%d + a%d; q%d < z%d; q%d++) {", k, k, k, k, k, k);
    } else {
        jit_emit(u, "for (v_%s = s%d + a%d; v_%s < z%d; v_%s++) {", n->name, k, k, n->name, k,
                 n->name);
    }
    u->loop_depth++;
    if (u->prange_count[0]) jit_emit(u, "v_%s = q%d;", n->name, k);
    jit_emit(u, "#undef JIT_FAIL");
    jit_emit(u, "#define JIT_FAIL pfail%d", k);
    snprintf(u->fail, sizeof u->fail, "pfail%d", k);
    int brk = u->brk;
    u->brk = -2; /* the iterations run on their own threads: none can end the others */
    r = jit_block(u, c, n->b);
    u->brk = brk;
    u->nelide = 0;
    u->loop_depth--;
    jit_emit(u, "}");
    jit_emit(u, "continue;");
    jit_emit(u, "pfail%d:", k);
    jit_emit(u, "break;");
    jit_emit(u, "#undef JIT_FAIL");
    jit_emit(u, "#define JIT_FAIL fail");
    snprintf(u->fail, sizeof u->fail, "fail");
    u->loop_depth--;
    jit_emit(u, "}");
    u->loop_depth--;
    jit_emit(u, "}");
    jit_emit(u, "if (env->failed) goto JIT_FAIL;");
    jit_emit(u, "}");
    return r;
}

/* prange loop n of the called function, from start to stop: chunks of its iterations on the
 * OpenMP threads, polling the interrupt between them. */
static int prange_loop(struct unit *u, struct cfn *c, const struct dsl_node *n, const char *start,
                       const char *stop)
{
    bool light;
    int k = u->tmp++, r = prange_enter(u, c, n, &light);
    if (r == 0) {
        jit_emit(u, "{");
        jit_emit(u, "int64_t s%d = %s, e%d = %s;", k, start, k, stop);
        if (u->soft_fail) jit_emit(u, "if (env->failed) goto JIT_FAIL;"); /* no iteration */
        /* chunks of up to JIT_CHUNK iterations (JIT_CHUNK_LIGHT where an iteration runs
         * no loop), at least 8 per thread when there are fewer (a batch loop of 2 still
         * runs on 2 threads); a loop of more than 2**63 - 1 iterations runs that many,
         * which no machine finishes, and nothing here overflows */
        jit_emit(u,
                 "int64_t l%d = e%d > s%d ? ((uint64_t)e%d - (uint64_t)s%d > "
                 "(uint64_t)JIT_INT64_MAX ? JIT_INT64_MAX : e%d - s%d) : 0, "
                 "w%d = 8 * env->threads;",
                 k, k, k, k, k, k, k, k);
        jit_emit(u, "int64_t h%d = l%d / w%d + (l%d %% w%d != 0);", k, k, k, k, k);
        jit_emit(u, "if (h%d > %s) h%d = %s;", k, light ? "JIT_CHUNK_LIGHT" : "JIT_CHUNK", k,
                 light ? "JIT_CHUNK_LIGHT" : "JIT_CHUNK");
        jit_emit(u, "if (h%d < 1) h%d = 1;", k, k);
        jit_emit(u, "int64_t n%d = l%d / h%d + (l%d %% h%d != 0);", k, k, k, k, k);
        r = prange_pragma(u, c, n, k);
    }
    if (r == 0) r = prange_chunks(u, c, n, k);
    u->in_prange = false;
    return r;
}

/* A range loop, serial: its count of iterations, computed once without overflow, then the
 * body as one of the loop passes has it (jammed, with an element kept in a register, or as
 * written). */
static int range_loop(struct unit *u, struct cfn *c, const struct dsl_node *n, const char *start,
                      const char *stop, const char *step, bool quiet)
{
    const struct dsl_node *it = n->a;
    int k = u->tmp++, r;
    struct var *v;
    r = jit_assign_var(u, c, n, n->name, JT_INT, 0, &v);
    if (r == 0 && u->in_prange && jit_expr_dep(c, it)) jit_set_dep(u, v);
    if (r == 0) {
        jit_emit(u, "{");
        jit_emit(u, "int64_t r%d = %s, s%d = %s, t%d = %s;", k, start, k, stop, k, step);
        if (u->soft_fail) jit_emit(u, "if (env->failed) goto JIT_FAIL;"); /* no iteration */
        jit_emit(u,
                 "if (t%d == 0) { jit_fail(env, JIT_E_RANGE_STEP, %lldLL, 0, 0, \"range\"); "
                 "goto JIT_FAIL; }",
                 k, jit_loc(c, it));
        /* the number of iterations, in unsigned arithmetic: no overflow at the ends; past
         * 2**63 - 1 (range(-2**62, 2**62)), that many, which no machine finishes */
        jit_emit(u,
                 "uint64_t u%d = t%d > 0 ? (r%d < s%d ? ((uint64_t)s%d - (uint64_t)r%d - 1) / "
                 "(uint64_t)t%d + 1 : 0) : (r%d > s%d ? ((uint64_t)r%d - (uint64_t)s%d - 1) / "
                 "(0 - (uint64_t)t%d) + 1 : 0);",
                 k, k, k, k, k, k, k, k, k, k, k, k);
        jit_emit(u, "int64_t e%d = u%d > (uint64_t)JIT_INT64_MAX ? JIT_INT64_MAX : (int64_t)u%d;",
                 k, k, k);
        struct promo p;
        struct jam j;
        bool jam = jit_jam_plan(u, c, n, &j);
        u->jam_cand = u->jam_cand || jam;
        if (jam && u->jam_on)
            r = jit_range_jammed(u, c, n, k, &j);
        else if (!u->pr_arr && !c->f->jit_races && !u->race_checks && jit_promotable(c, n, &p) == 0)
            r = jit_range_promoted(u, c, n, k, &p, quiet);
        else
            r = jit_range_body(u, c, n, k, quiet);
        jit_emit(u, "}");
    }
    return r;
}

int jit_for_loop(struct unit *u, struct cfn *c, const struct dsl_node *n)
{
    const struct dsl_node *it = n->a;
    enum jb_role role = over(u, c, n);
    if ((role != JB_RANGE && role != JB_PRANGE) || !n->name) return for_each(u, c, n, role);
    bool quiet = quiet_range(u, c, it, role);
    if (!quiet || jit_has_loop(n->b)) c->may_fail = true; /* a loop polls the interrupt */
    if (it->nkids < 1 || it->nkids > 3)
        return jit_refuse(u, c, n, "range() or prange() of %u arguments", it->nkids);
    struct ex a[3];
    int na = (int)it->nkids, r = 0;
    for (int i = 0; i < 3; i++) ex_init(&a[i]);
    for (int i = 0; i < na && r == 0; i++) {
        r = jit_expr(u, c, it->kids[i], &a[i]);
        if (r == 0 && a[i].t != JT_INT && a[i].t != JT_BOOL)
            r = jit_refuse(u, c, it, "range() of a %s", jit_type_name[a[i].t]);
    }
    const char *start = na >= 2 ? a[0].s.data : "0", *stop = na >= 2 ? a[1].s.data : a[0].s.data;
    const char *step = na == 3 ? a[2].s.data : "1";
    bool parallel = r == 0 && c->top && role == JB_PRANGE && !u->in_prange && na < 3;
    if (r == 0 && parallel)
        r = prange_loop(u, c, n, start, stop);
    else if (r == 0)
        r = range_loop(u, c, n, start, stop, step, quiet);
    for (int i = 0; i < 3; i++) ex_free(&a[i]);
    return r;
}
