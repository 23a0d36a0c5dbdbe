/* interp.c — the running cell's state (interp.h): raising errors, the cell's output within
 * its limits, and the cancel poll of every loop. */
#include "lang/interp.h"
#include "lang/list.h"

#include "minitorch/minitorch.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int raise_v(struct dsl_interp *in, bool has_pos, size_t pos, const char *ename,
                   const char *fmt, va_list ap)
{
    if (in->ename) return -1;
    in->ename = ename;
    in->has_pos = has_pos;
    in->pos = pos;
    char *msg = NULL;
    if (vasprintf(&msg, fmt, ap) < 0) msg = NULL;
    in->evalue = msg;
    return -1;
}

int dsl_raise(struct dsl_interp *in, const char *ename, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    raise_v(in, false, 0, ename, fmt, ap);
    va_end(ap);
    return -1;
}

int dsl_raise_at(struct dsl_interp *in, size_t pos, const char *ename, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    raise_v(in, true, pos, ename, fmt, ap);
    va_end(ap);
    return -1;
}

int dsl_raise_status(struct dsl_interp *in, int status)
{
    switch (status) {
    case DSL_V_TOOBIG:
        return dsl_raise(in, "MemoryError",
                         "value too large (strings are limited to %zu MiB, lists to %zu items)",
                         DSL_MAX_STR_BYTES >> 20, DSL_MAX_LIST_LEN);
    case DSL_V_DEPTH:
        return dsl_raise(in, "RecursionError",
                         "maximum recursion depth exceeded while getting the repr of an object "
                         "(lists nested more than %d deep)",
                         DSL_MAX_LIST_DEPTH);
    case DSL_V_CYCLE: return dsl_list_raise_store(in, status);
    case DSL_V_CANCELLED: return dsl_raise(in, "KeyboardInterrupt", "interrupted");
    case DSL_V_RAISED: /* the error is pending: the user's __repr__ raised it */
        if (in->ename) return -1;
        return dsl_raise(in, "SystemError", "a value's text failed without an error");
    default: {
        size_t asked;
        const char *what;
        if (!dsl_mem_refusal(&asked, &what)) return dsl_raise(in, "MemoryError", "out of memory");
        /* the limit of values' memory refused it, not malloc */
        char a[32], used[32], limit[32];
        dsl_format_bytes(asked, a, sizeof a);
        dsl_format_bytes(dsl_mem_used(), used, sizeof used);
        dsl_format_bytes(dsl_mem_limit(), limit, sizeof limit);
        return dsl_raise(in, "MemoryError",
                         "a %s needing %s more would pass the memory limit of the session's "
                         "strings, lists, tuples and dicts, %s (they hold %s): del the values "
                         "no longer needed, or raise the limit with %%memory values SIZE",
                         what, a, limit, used);
    }
    }
}

void dsl_format_bytes(size_t bytes, char *buf, size_t n)
{
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024.0 && u < 6) v /= 1024.0, u++;
    if (u == 0)
        snprintf(buf, n, "%zu bytes", bytes);
    else
        snprintf(buf, n, v >= 99.95 ? "%.0f %s" : "%.1f %s", v, units[u]);
}

int dsl_raise_size(struct dsl_interp *in, const char *what, uint64_t asked)
{
    bool str = strcmp(what, "string") == 0;
    uint64_t limit = str ? DSL_MAX_STR_BYTES : DSL_MAX_LIST_LEN;
    if (str)
        return dsl_raise(in, "MemoryError",
                         "cannot make a string of %llu bytes: strings are limited to %llu MiB",
                         (unsigned long long)asked, (unsigned long long)(limit >> 20));
    return dsl_raise(in, "MemoryError",
                     "cannot make a %s of %llu items: %ss are limited to %llu items", what,
                     (unsigned long long)asked, what, (unsigned long long)limit);
}

void dsl_interp_push_tb(struct dsl_interp *in, const struct dsl_function *f)
{
    dsl_interp_push_tb_code(in, f->code, f->def->name);
}

void dsl_interp_push_tb_code(struct dsl_interp *in, struct dsl_code *code, const char *func)
{
    if (in->ntb == in->captb) {
        size_t cap = in->captb ? in->captb * 2 : 8;
        struct dsl_tb_entry *p = realloc(in->tb, cap * sizeof *p);
        if (!p) return; /* the traceback is shorter, the error itself is kept */
        in->tb = p;
        in->captb = cap;
    }
    char *name = strdup(func);
    if (!name) return;
    in->tb[in->ntb++] = (struct dsl_tb_entry){dsl_code_retain(code), in->pos, name};
    in->has_pos = false;
}

int dsl_raise_in(struct dsl_interp *in, const struct dsl_function *f, size_t pos, const char *ename,
                 const char *fmt, ...)
{
    const char *src = in->src;
    size_t src_len = in->src_len;
    struct dsl_code *code = in->code;
    in->src = f->code->src;
    in->src_len = f->code->len;
    in->code = f->code;
    va_list ap;
    va_start(ap, fmt);
    raise_v(in, true, pos, ename, fmt, ap);
    va_end(ap);
    dsl_interp_push_tb(in, f);
    in->src = src;
    in->src_len = src_len;
    in->code = code;
    return -1;
}

void dsl_error_locate(struct dsl_interp *in, size_t pos)
{
    if (in->ename && !in->has_pos) {
        in->has_pos = true;
        in->pos = pos;
    }
}

void dsl_emit(struct dsl_interp *in, const char *name, const char *text)
{
    if (!in->out->stream || !text[0] || in->out_bytes > DSL_MAX_CELL_OUTPUT) return;
    size_t n = strlen(text), room = DSL_MAX_CELL_OUTPUT - in->out_bytes;
    if (n <= room) {
        in->out_bytes += n;
        in->out->stream(in->out->ctx, name, text);
        return;
    }
    while (room > 0 && ((unsigned char)text[room] & 0xC0) == 0x80) room--; /* whole characters */
    char *head = strndup(text, room);
    if (head && room) in->out->stream(in->out->ctx, name, head);
    free(head);
    in->out_bytes = DSL_MAX_CELL_OUTPUT + 1; /* nothing more from this cell */
    char note[160];
    snprintf(note, sizeof note,
             "\n[output truncated: this cell wrote more than %zu MiB; the rest is not shown]\n",
             DSL_MAX_CELL_OUTPUT >> 20);
    in->out->stream(in->out->ctx, "stderr", note);
}

/* The bytes of a mime bundle's data: its strings' lengths (text, HTML, SVG, base64 images), and
 * anything else as serialized JSON. */
static size_t bundle_bytes(json_t *bundle)
{
    size_t n = 0;
    const char *key;
    json_t *v;
    json_object_foreach(bundle, key, v)
    {
        n += strlen(key);
        n += json_is_string(v) ? json_string_length(v) : json_dumpb(v, NULL, 0, JSON_COMPACT);
    }
    return n;
}

void dsl_display(struct dsl_interp *in, json_t *bundle, const char *display_id, bool update)
{
    if (!in->out->display) return;
    if (update) {
        in->out->display(in->out->ctx, bundle, display_id, true);
        return;
    }
    if (in->shown > DSL_MAX_CELL_DISPLAYS) return; /* past the limit, the note already said so */
    const size_t n = bundle_bytes(bundle);
    if (in->shown < DSL_MAX_CELL_DISPLAYS && n <= DSL_MAX_CELL_DISPLAY - in->shown_bytes) {
        in->shown++;
        in->shown_bytes += n;
        in->out->display(in->out->ctx, bundle, display_id, false);
        return;
    }
    in->shown = DSL_MAX_CELL_DISPLAYS + 1; /* nothing more from this cell */
    char note[200];
    snprintf(note, sizeof note,
             "\n[output truncated: this cell displayed more than %zu MiB or %d values; the rest "
             "is not shown]\n",
             DSL_MAX_CELL_DISPLAY >> 20, DSL_MAX_CELL_DISPLAYS);
    if (in->out->stream) in->out->stream(in->out->ctx, "stderr", note);
}

/* How often loops let the output sink flush: often enough to look live to a person. */
#define FLUSH_EVERY_NS 50000000LL

int dsl_poll(struct dsl_interp *in, size_t pos)
{
    if (mt_cancel_requested()) return dsl_raise_at(in, pos, "KeyboardInterrupt", "interrupted");
    /* a loop that makes cycles of garbage (objects pointing at each other) frees them as it
     * goes, not only when the cell ends */
    dsl_gc_maybe_collect();
    /* Reading the clock costs more than the rest of the poll: look at it every 1024
     * iterations only. */
    if (in->out->flush) {
        long long now = (long long)mt_now_ns();
        if (now - in->last_flush_ns >= FLUSH_EVERY_NS) {
            in->last_flush_ns = now;
            in->out->flush(in->out->ctx);
        }
    }
    return 0;
}

int dsl_str_of(struct dsl_interp *in, struct render_buf *b, struct dsl_value v)
{
    int st = dsl_value_str(b, v);
    return st != DSL_V_OK ? dsl_raise_status(in, st) : 0;
}

bool dsl_text_error_drop(struct dsl_interp *in, int st)
{
    if (st != DSL_V_RAISED || !in->ename || strcmp(in->ename, "KeyboardInterrupt") == 0)
        return false;
    dsl_interp_clear_error(in);
    return true;
}
