/* jit/unit.c — the unit being compiled: refusals (why a function runs in the interpreter, or
 * a race error), the function's variables and the values it sees from outside, source
 * positions, and the text emitted. */
#include "lib/jit/internal.h"

/* What the compiler does not take, at node n of c's function: the unit's first reason is kept
 * (u->why, a race where u->race is set), the rest ignored. Always -1. */
static int vrefuse(struct unit *u, const struct cfn *c, const struct dsl_node *n, const char *fmt,
                   va_list ap)
{
    if (u->why) return -1;
    if (vasprintf(&u->why, fmt, ap) < 0) u->why = NULL;
    u->why_pos = n ? n->pos : c->f->def->pos;
    u->why_fn = c->f;
    return -1;
}

int jit_refuse(struct unit *u, const struct cfn *c, const struct dsl_node *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vrefuse(u, c, n, fmt, ap);
    va_end(ap);
    return r;
}

/* A race at node n: nothing yet in the type pass, whose facts are not settled (0: the walk goes
 * on learning); from the race check on, the unit's error (-1), a CompileError that names it. */
int jit_race(struct unit *u, const struct cfn *c, const struct dsl_node *n, const char *fmt, ...)
{
    if (u->pass == JIT_PASS_TYPES) return 0;
    if (!u->why) u->race = true;
    va_list ap;
    va_start(ap, fmt);
    int r = vrefuse(u, c, n, fmt, ap);
    va_end(ap);
    return r;
}

struct var *jit_find_var(struct cfn *c, const char *name)
{
    for (int i = 0; i < c->nvars; i++)
        if (strcmp(c->vars[i].name, name) == 0) return &c->vars[i];
    return NULL;
}

/* What a name that is not a local means: a free variable's value, or a global of the function's
 * code (a package file's module, or the session's variables for a cell's). */
const struct dsl_value *jit_outer_value(struct unit *u, const struct cfn *c, const char *name)
{
    const struct dsl_function *f = c->f;
    for (size_t i = 0; i < f->nfree; i++)
        if (strcmp(f->freevars[i], name) == 0) {
            const struct dsl_cell *cell = f->cells[i].as.cell;
            return cell->bound ? &cell->value : NULL;
        }
    if (f->code && f->code->module.kind == DSL_INSTANCE) /* a package file's globals */
        return dsl_attrs_find(&f->code->module.as.inst->attrs, name);
    return dsl_session_lookup(u->in->session, name);
}

/* Where in the source a runtime error of the compiled code points: the function and the byte,
 * as one number the C text carries. */
long long jit_loc(const struct cfn *c, const struct dsl_node *n)
{
    return (long long)c->id << 40 | (long long)n->pos;
}

/* name when n is numpy.name (numpy imported under any name), else NULL. */
const char *jit_numpy_attr(struct unit *u, const struct cfn *c, const struct dsl_node *n)
{
    if (n->kind != DSL_N_ATTR || n->a->kind != DSL_N_NAME ||
        jit_find_var((struct cfn *)c, n->a->name))
        return NULL;
    const struct dsl_value *m = jit_outer_value(u, c, n->a->name);
    const char *mod = m ? dsl_module_of(*m) : NULL;
    return mod && strcmp(mod, "numpy") == 0 ? n->name : NULL;
}

/* Whether n names the module numba.cuda (`cuda`, `numba.cuda`, under any name). */
bool jit_cuda_module(struct unit *u, const struct cfn *c, const struct dsl_node *n)
{
    const char *want = "numba.cuda";
    if (n->kind == DSL_N_ATTR && strcmp(n->name, "cuda") == 0) n = n->a, want = "numba";
    if (n->kind != DSL_N_NAME || jit_find_var((struct cfn *)c, n->name)) return false;
    const struct dsl_value *m = jit_outer_value(u, c, n->name);
    const char *mod = m ? dsl_module_of(*m) : NULL;
    return mod && strcmp(mod, want) == 0;
}

/* name when n is cuda.<group>.name (cuda.local.array, cuda.shared.array), else NULL. */
const char *jit_cuda_member(struct unit *u, const struct cfn *c, const struct dsl_node *n,
                            const char *group)
{
    if (n->kind != DSL_N_ATTR || n->a->kind != DSL_N_ATTR || strcmp(n->a->name, group) != 0 ||
        !jit_cuda_module(u, c, n->a->a))
        return NULL;
    return n->name;
}

/* How many times body assigns name (=, +=, a for loop's variable), and the last value given
 * by `name = <constant>` in *k. */
static int assignments(const struct dsl_node *n, const char *name, const struct dsl_node **k)
{
    if (!n) return 0;
    int count = 0;
    if (n->kind == DSL_N_ASSIGN)
        for (size_t i = 0; i < n->nkids; i++)
            if (n->kids[i]->kind == DSL_N_NAME && strcmp(n->kids[i]->name, name) == 0) {
                count++;
                *k = n->a;
            }
    if ((n->kind == DSL_N_AUG && n->a->kind == DSL_N_NAME && strcmp(n->a->name, name) == 0) ||
        (n->kind == DSL_N_FOR && n->name && strcmp(n->name, name) == 0))
        count += 2; /* changes: not a constant */
    if (n->kind == DSL_N_DEF || n->kind == DSL_N_CLASS) return count;
    if (n->kind != DSL_N_ASSIGN && n->kind != DSL_N_AUG) {
        count += assignments(n->a, name, k) + assignments(n->b, name, k);
        for (size_t i = 0; i < n->nkids; i++) count += assignments(n->kids[i], name, k);
    }
    return count;
}

/* A local assigned once, an int constant (BLOCK_DIM = 32): its value in *val. */
bool jit_local_const(const struct cfn *c, const char *name, int64_t *val)
{
    const struct dsl_node *k = NULL;
    if (assignments(c->f->def->b, name, &k) != 1 || !k || k->kind != DSL_N_CONST ||
        !dsl_is_intlike(k->value))
        return false;
    *val = dsl_as_int(k->value);
    return true;
}

void jit_emit(struct unit *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void jit_emit(struct unit *u, const char *fmt, ...)
{
    if (u->pass != JIT_PASS_EMIT) return;
    char *s = NULL;
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&s, fmt, ap) >= 0) {
        for (int i = 0; i < u->loop_depth + 1; i++) render_buf_puts(&u->out, "    ");
        render_buf_puts(&u->out, s);
        render_buf_puts(&u->out, "\n");
    }
    free(s);
    va_end(ap);
}

/* The line of node n within c's function (its def: line 1). */
int jit_fn_line(const struct cfn *c, const struct dsl_node *n)
{
    return jit_line_at(c->f, n->pos) - jit_line_at(c->f, c->f->def->pos) + 1;
}

int jit_line_in(const struct dsl_function *f, size_t pos)
{
    int line = 1;
    for (size_t i = 0; i < pos && f->code->src[i]; i++) line += f->code->src[i] == '\n';
    return line;
}

struct unit *jit_unit_new(struct dsl_interp *in, bool jam, enum jit_target target)
{
    struct unit *u = calloc(1, sizeof *u);
    if (!u) return NULL;
    u->in = in;
    u->em = &jit_emitters[target];
    u->jam_on = jam;
    render_buf_init(&u->protos, 0);
    render_buf_init(&u->bodies, 0);
    render_buf_init(&u->sites, 0);
    return u;
}

void jit_unit_free(struct unit *u)
{
    if (!u) return;
    free(u->why);
    render_buf_free(&u->protos);
    render_buf_free(&u->bodies);
    render_buf_free(&u->sites);
    free(u);
}
