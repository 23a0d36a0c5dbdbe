/* session.c — sessions, their variables, and the public run entry points of dsl.h.
 *
 * A session is the state that outlives a cell: the user's variables, kept in an
 * open-addressing hash table (names are few, lookups are many), and the engine context that
 * every tensor of the session is made with (backend, threads, memory limit, random generator).
 * The context outlives every variable: tensors must be released before it is freed. dsl_execute
 * parses a whole cell first (a syntax error runs nothing), then runs it statement by statement;
 * whatever a statement assigned stays assigned when a later one fails, as in Python. Errors become
 * Jupyter-style tracebacks that point at the line and column of the offending token, then at
 * every call the error went through, each in the text of the cell that defined the function
 * (In[n] once the caller numbers the cells, as IPython does):
 *
 *       Cell In[4], line 2, column 5:
 *         y = scale(x)
 *             ^
 *       Cell In[3], line 2, column 14, in scale():
 *             return x + "a"
 *                      ^
 *     TypeError: unsupported operand type(s) for +: 'int' and 'str' */
#include "lang/dsl.h"

#include "lang/ast.h"
#include "lang/interp.h"
#include "lang/library.h"
#include "lang/packages.h"
#include "render/render.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- variables -------------------------------------------------------------------------- */

/* The slot of name, whose dsl_name_hash is hash: its own or the empty one it would take. */
static struct dsl_var *find_slot_hashed(struct dsl_var *vars, size_t cap, const char *name,
                                        size_t hash)
{
    size_t i = hash & (cap - 1);
    while (vars[i].name && strcmp(vars[i].name, name) != 0) i = (i + 1) & (cap - 1);
    return &vars[i];
}

static struct dsl_var *find_slot(struct dsl_var *vars, size_t cap, const char *name)
{
    return find_slot_hashed(vars, cap, name, dsl_name_hash(name));
}

struct dsl_value *dsl_session_lookup(struct dsl_session *s, const char *name)
{
    return dsl_session_lookup_hashed(s, name, dsl_name_hash(name));
}

struct dsl_value *dsl_session_lookup_hashed(struct dsl_session *s, const char *name, size_t hash)
{
    if (!s->cap) return NULL;
    struct dsl_var *v = find_slot_hashed(s->vars, s->cap, name, hash);
    return v->name ? &v->value : NULL;
}

static int grow(struct dsl_session *s)
{
    size_t cap = s->cap ? s->cap * 2 : 32;
    struct dsl_var *vars = calloc(cap, sizeof *vars);
    if (!vars) return DSL_V_NOMEM;
    for (size_t i = 0; i < s->cap; i++)
        if (s->vars[i].name) *find_slot(vars, cap, s->vars[i].name) = s->vars[i];
    free(s->vars);
    s->vars = vars;
    s->cap = cap;
    s->version = dsl_table_version(); /* every slot moved */
    return DSL_V_OK;
}

int dsl_session_assign(struct dsl_session *s, const char *name, struct dsl_value value)
{
    if ((s->count + 1) * 4 > s->cap * 3 && grow(s) != 0) {
        dsl_value_release(value);
        return DSL_V_NOMEM;
    }
    struct dsl_var *v = find_slot(s->vars, s->cap, name);
    if (v->name) {
        dsl_value_release(v->value);
        v->value = value;
        return DSL_V_OK;
    }
    char *copy = strdup(name);
    if (!copy) {
        dsl_value_release(value);
        return DSL_V_NOMEM;
    }
    v->name = copy;
    v->value = value;
    s->count++;
    s->version = dsl_table_version();
    return DSL_V_OK;
}

void dsl_session_unset(struct dsl_session *s, const char *name)
{
    if (!s->cap) return;
    struct dsl_var *v = find_slot(s->vars, s->cap, name);
    if (!v->name) return;
    free(v->name);
    dsl_value_release(v->value);
    *v = (struct dsl_var){0};
    s->count--;
    s->version = dsl_table_version();
    /* open addressing: re-place the entries after the hole so that lookups still find them */
    size_t i = (size_t)(v - s->vars);
    for (size_t j = (i + 1) & (s->cap - 1); s->vars[j].name; j = (j + 1) & (s->cap - 1)) {
        struct dsl_var moved = s->vars[j];
        s->vars[j] = (struct dsl_var){0};
        *find_slot(s->vars, s->cap, moved.name) = moved;
    }
}

struct dsl_session *dsl_session_new(void)
{
    struct dsl_session *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->ctx = mt_ctx_new();
    if (!s->ctx) {
        free(s);
        return NULL;
    }
    /* Colab's front end renders neither Vega-Lite's mime type nor (reliably) SVG from a kernel
     * other than its own, but runs the scripts of text/html outputs: there the charts start as
     * HTML pages with vega-embed. Colab's VMs set COLAB_RELEASE_TAG (what Google's own
     * libraries test). */
    const char *colab = getenv("COLAB_RELEASE_TAG");
    s->plot_renderer = colab && *colab ? "html" : "auto";
    s->compare_budget_s = 1.0;
    /* values may hold half what tensors may: together, within three quarters of the memory */
    dsl_mem_set_default(mt_ctx_mem_limit(s->ctx) / 2);
    return s;
}

void dsl_session_set_execution_count(struct dsl_session *s, long n)
{
    if (s) s->execution_count = n > 0 ? n : 0;
}

void dsl_session_reset(struct dsl_session *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->cap; i++)
        if (s->vars[i].name) {
            free(s->vars[i].name);
            dsl_value_release(s->vars[i].value);
        }
    free(s->vars);
    s->vars = NULL;
    s->cap = s->count = 0;
    s->version = dsl_table_version();
    dsl_student_forget(s);
    dsl_jit_forget(s);
    dsl_packages_forget(s);
    dsl_gc_collect(); /* what only cycles kept alive, tensors among it, goes now too */
}

void dsl_session_free(struct dsl_session *s)
{
    if (!s) return;
    dsl_session_reset(s); /* releases every tensor a variable held ... */
    dsl_code_release(s->check_code);
    mt_ctx_free(s->ctx); /* ... before the context they count against goes */
    free(s);
}

/* ---- errors ----------------------------------------------------------------------------- */

void dsl_error_clear(struct dsl_error *err)
{
    if (!err) return;
    free(err->ename);
    free(err->evalue);
    json_decref(err->traceback);
    memset(err, 0, sizeof *err);
}

static void tb_line(json_t *tb, const char *text, size_t n)
{
    json_t *s = render_json_string(text, n);
    if (s) json_array_append_new(tb, s);
}

/* Appends the three lines locating pos in src: where, the source line, a caret under it.
 * cell_no: the In[n] src ran under (0: unnumbered); func: the function whose body it is, or
 * NULL at cell level. */
static void tb_location(json_t *tb, const char *src, size_t len, size_t pos, long cell_no,
                        const char *func, const char *file)
{
    struct render_buf b;
    render_buf_init(&b, 0);
    if (pos > len) pos = len;
    size_t ls = pos;
    while (ls > 0 && src[ls - 1] != '\n') ls--;
    size_t le = pos;
    while (le < len && src[le] != '\n') le++;
    size_t line = 1;
    for (size_t i = 0; i < ls; i++) line += src[i] == '\n';
    size_t col = render_utf8_count(src + ls, pos - ls) + 1;
    size_t shown = le - ls;
    if (shown && src[ls + shown - 1] == '\r') shown--;
    /* line numbers of a function count in the cell that defined it */
    if (cell_no > 0)
        render_buf_printf(&b, "  Cell In[%ld]%s%s%s, line %zu, column %zu%s%s%s:", cell_no,
                          file ? " (" : "", file ? file : "", file ? ")" : "", line, col,
                          func ? ", in " : "", func ? func : "", func ? "()" : "");
    else if (func)
        render_buf_printf(&b, "  In %s(), line %zu, column %zu of %s:", func, line, col,
                          file ? file : "the cell defining it");
    else
        render_buf_printf(&b, "  Cell line %zu, column %zu:", line, col);
    tb_line(tb, render_buf_str(&b), b.len);
    render_buf_free(&b);
    render_buf_puts(&b, "    ");
    render_buf_append(&b, src + ls, shown);
    tb_line(tb, render_buf_str(&b), b.len);
    render_buf_free(&b);
    render_buf_puts(&b, "    ");
    /* the caret under the character: tabs copied so the columns line up */
    for (size_t i = ls; i < pos;) {
        if (src[i] == '\t') {
            render_buf_putc(&b, '\t');
            i++;
            continue;
        }
        size_t k = render_utf8_seq(src + i, pos - i);
        i += k ? k : 1;
        render_buf_putc(&b, ' ');
    }
    render_buf_putc(&b, '^');
    tb_line(tb, render_buf_str(&b), b.len);
    render_buf_free(&b);
}

/* Fills *err; positions index src, then the calls the error went through (innermost first in
 * calls[], shown outermost first as Python does). Strings are copied. On exhaustion the fields
 * that could not be built stay NULL except ename/evalue, which fall back to static-free
 * duplicates. */
static void make_error(struct dsl_error *err, const char *src, size_t len, long cell_no,
                       const char *ename, const char *evalue, bool has_pos, size_t pos,
                       const struct dsl_tb_entry *calls, size_t ncalls)
{
    if (!err) return;
    memset(err, 0, sizeof *err);
    if (!evalue) evalue = "out of memory";
    json_t *fixed = render_json_string(evalue, strlen(evalue)); /* repairs bad UTF-8 */
    err->ename = strdup(ename);
    err->evalue = strdup(fixed ? json_string_value(fixed) : "out of memory");
    json_decref(fixed);
    err->traceback = json_array();
    if (!err->traceback) return;
    if (has_pos && src) tb_location(err->traceback, src, len, pos, cell_no, NULL, NULL);
    struct render_buf b;
    render_buf_init(&b, 0);
    for (size_t i = ncalls; i-- > 0;) {
        /* a function of a package's file names its file, as Python's tracebacks do */
        char file[160] = "";
        const struct dsl_value m = calls[i].code->module;
        const char *name = m.kind == DSL_INSTANCE ? dsl_package_name(m) : NULL;
        if (name) {
            snprintf(file, sizeof file, "%s.py", name);
            for (char *c = file; *c && strcmp(c, ".py") != 0; c++)
                if (*c == '.') *c = '/';
        }
        tb_location(err->traceback, calls[i].code->src, calls[i].code->len, calls[i].pos,
                    calls[i].code->cell_no, calls[i].func, *file ? file : NULL);
        /* a recursion shows its repeating line once, as Python does */
        size_t same = 0;
        while (i > 0 && calls[i - 1].code == calls[i].code && calls[i - 1].pos == calls[i].pos)
            same++, i--;
        if (same) {
            render_buf_printf(&b, "  [Previous line repeated %zu more time%s]", same,
                              same == 1 ? "" : "s");
            tb_line(err->traceback, render_buf_str(&b), b.len);
            render_buf_free(&b);
        }
    }
    /* a bare `assert x` has no message: Python's last line is then the name alone */
    if (err->evalue && *err->evalue)
        render_buf_printf(&b, "%s: %s", ename, err->evalue);
    else
        render_buf_printf(&b, "%s", ename);
    tb_line(err->traceback, render_buf_str(&b), b.len);
    render_buf_free(&b);
}

static void syntax_error(struct dsl_error *err, const char *src, size_t len, long cell_no,
                         const struct dsl_syntax_error *se)
{
    make_error(err, src, len, cell_no, se->ename ? se->ename : "SyntaxError",
               se->msg[0] ? se->msg : "invalid syntax", true, se->pos, NULL, 0);
}

static void interp_init(struct dsl_interp *in, struct dsl_session *s, const struct dsl_output *out,
                        const char *src, size_t len)
{
    memset(in, 0, sizeof *in);
    in->session = s;
    in->out = out;
    in->src = src;
    in->src_len = len;
    in->outer = dsl_running;
    dsl_running = in;
    if (!in->outer) dsl_mem_refusal(NULL, NULL); /* one no one reported is not this run's */
}

struct dsl_interp *dsl_running;

void dsl_interp_clear_tb(struct dsl_interp *in)
{
    for (size_t i = 0; i < in->ntb; i++) {
        dsl_code_release(in->tb[i].code);
        free(in->tb[i].func);
    }
    free(in->tb);
    in->tb = NULL;
    in->ntb = in->captb = 0;
}

void dsl_interp_clear_error(struct dsl_interp *in)
{
    in->ename = NULL;
    free(in->evalue);
    in->evalue = NULL;
    in->has_pos = false;
    dsl_value_release(in->exc);
    in->exc = dsl_none();
    dsl_interp_clear_tb(in);
}

static void interp_error(struct dsl_interp *in, struct dsl_error *err)
{
    make_error(err, in->src, in->src_len, in->code ? in->code->cell_no : 0, in->ename, in->evalue,
               in->has_pos, in->pos, in->tb, in->ntb);
    free(in->evalue);
    in->evalue = NULL;
}

/* Releases what an interp holds after its run. */
static void interp_done(struct dsl_interp *in)
{
    dsl_value_release(in->retval);
    in->retval = dsl_none();
    dsl_value_release(in->exc);
    in->exc = dsl_none();
    dsl_interp_clear_tb(in);
    dsl_running = in->outer;
    if (!dsl_running) dsl_gc_maybe_collect();
}

/* ---- running ---------------------------------------------------------------------------- */

static int result_bundle(struct dsl_interp *in, struct dsl_value v, json_t **result)
{
    enum dsl_vstatus st = DSL_V_OK;
    *result = dsl_value_bundle(v, in->session->plot_renderer, &st);
    if (!*result) return dsl_raise_status(in, st);
    return 0;
}

int dsl_execute(struct dsl_session *s, const char *code, const struct dsl_output *out,
                json_t **result, struct dsl_error *err)
{
    static const struct dsl_output no_output = {0};
    if (result) *result = NULL;
    if (!code) code = "";
    if (strncmp(code, DSL_SKIP_CELL, strlen(DSL_SKIP_CELL)) == 0) return 0; /* not ours */
    size_t len = strlen(code);
    struct dsl_syntax_error se;
    /* a package's file: its magic line is parsed as a blank line, so that the lines keep their
     * numbers (dsl_package_run reads the line) */
    bool file = dsl_is_file_cell(code);
    char *body = file ? strdup(code) : NULL;
    if (file && !body) {
        make_error(err, code, len, s->execution_count, "MemoryError", NULL, false, 0, NULL, 0);
        return -1;
    }
    for (size_t i = 0; body && body[i] && body[i] != '\n'; i++) body[i] = ' ';
    /* a code object, not a bare tree: functions the cell defines keep it after the cell */
    struct dsl_code *cell = dsl_code_parse(file ? body : code, len, &se);
    free(body);
    if (!cell) {
        syntax_error(err, code, len, s->execution_count, &se);
        return -1;
    }
    cell->cell_no = s->execution_count;
    s->cells_run++;
    const struct dsl_node *block = cell->ast;
    struct dsl_interp in;
    interp_init(&in, s, out ? out : &no_output, file ? code : cell->src, cell->len);
    in.code = cell;
    struct dsl_value value = dsl_none();
    struct dsl_diag_log *log = s->diagnostics ? dsl_diag_open(s->ctx) : NULL;
    int r = file ? dsl_package_run(&in, cell) : dsl_run_block(&in, block, result ? &value : NULL);
    if (r == 0) r = dsl_engine_wait(&in);
    if (log) {
        /* %diagnostics on: the table comes before the cell's result, as a display */
        json_t *table = dsl_diag_close(log, in.out->display != NULL, &s->diag_explained);
        if (table) dsl_display(&in, table, NULL, false);
        json_decref(table);
    }
    if (r == 0 && value.kind != DSL_NONE) {
        r = result_bundle(&in, value, result);
        if (r != 0 && block->nkids) dsl_error_locate(&in, block->kids[block->nkids - 1]->pos);
    }
    dsl_value_release(value);
    if (r != 0) interp_error(&in, err);
    interp_done(&in);
    dsl_code_release(cell);
    return r != 0 ? -1 : 0;
}

int dsl_evaluate(struct dsl_session *s, const char *expr, json_t **result, struct dsl_error *err)
{
    static const struct dsl_output no_output = {0};
    *result = NULL;
    if (!expr) expr = "";
    size_t len = strlen(expr);
    struct dsl_syntax_error se;
    struct dsl_node *e = dsl_parse_expression(expr, len, &se);
    if (!e) {
        syntax_error(err, expr, len, 0, &se);
        return -1;
    }
    struct dsl_interp in;
    interp_init(&in, s, &no_output, expr, len);
    struct dsl_value v;
    int r = dsl_eval(&in, e, &v);
    if (r == 0) {
        r = result_bundle(&in, v, result);
        dsl_value_release(v);
    }
    dsl_node_free(e);
    if (r != 0) interp_error(&in, err);
    interp_done(&in);
    return r != 0 ? -1 : 0;
}
