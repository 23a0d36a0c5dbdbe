/* magics.c — the line magics and their table (see magics.h).
 *
 * %backend and %threads change the session's engine context: the backend new tensors are made
 * on (existing tensors stay where they are, as with PyTorch devices) and the threads the fast
 * backend uses. Without an argument each shows the current setting. A rejected argument raises
 * the engine's own error (mt_backend_parse lists the names, mt_backend_check says why cuda is
 * unavailable) and leaves the setting as it was. */
#include "dsl/magics.h"

#include "dsl/interp.h"
#include "dsl/tensor.h"

#include "minitorch/minitorch.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- argument words --------------------------------------------------------------------- */

#define MAX_WORDS 8
#define MAX_WORD 64

/* Splits args at whitespace into at most MAX_WORDS words of under MAX_WORD bytes; a '#' starts
 * a comment. Returns the word count, or -1 (after raising UsageError) when there are too many
 * or too long. */
static int split_words(struct dsl_interp *in, const char *magic, const char *args,
                       char words[][MAX_WORD])
{
    int n = 0;
    const char *p = args;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\f' || *p == '\r') p++;
        if (!*p || *p == '#') break;
        const char *w = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\f' && *p != '\r') p++;
        size_t len = (size_t)(p - w);
        if (n == MAX_WORDS || len >= MAX_WORD)
            return dsl_raise(in, "UsageError", "%%%s: too many or too long arguments", magic);
        memcpy(words[n], w, len);
        words[n][len] = '\0';
        n++;
    }
    return n;
}

static void say(struct dsl_interp *in, const char *text)
{
    if (in->out->stream) in->out->stream(in->out->ctx, "stdout", text);
}

/* ---- the magics ------------------------------------------------------------------------- */

static int magic_backend(struct dsl_interp *in, const char *args)
{
    char words[MAX_WORDS][MAX_WORD];
    int n = split_words(in, "backend", args, words);
    if (n < 0) return -1;
    struct mt_ctx *ctx = in->session->ctx;
    if (n == 0) {
        char line[64];
        snprintf(line, sizeof line, "backend: %s\n", mt_backend_name(mt_ctx_backend(ctx)));
        say(in, line);
        return 0;
    }
    if (n > 1)
        return dsl_raise(in, "UsageError", "%%backend takes one backend name: %s",
                         dsl_magic_find("backend")->usage);
    enum mt_backend b;
    enum mt_status st = mt_backend_parse(ctx, words[0], &b);
    if (!st) st = mt_backend_check(ctx, b);
    if (!st) st = mt_ctx_set_backend(ctx, b);
    return st ? dsl_engine_raise(in, st) : 0;
}

static int magic_threads(struct dsl_interp *in, const char *args)
{
    char words[MAX_WORDS][MAX_WORD];
    int n = split_words(in, "threads", args, words);
    if (n < 0) return -1;
    struct mt_ctx *ctx = in->session->ctx;
    if (n == 0) {
        char line[64];
        snprintf(line, sizeof line, "threads: %d\n", mt_ctx_threads(ctx));
        say(in, line);
        return 0;
    }
    if (n > 1)
        return dsl_raise(in, "UsageError", "%%threads takes one number: %s",
                         dsl_magic_find("threads")->usage);
    char *end = NULL;
    errno = 0;
    long v = strtol(words[0], &end, 10);
    if (end == words[0] || *end || errno == ERANGE || v < -1000000 || v > 1000000)
        return dsl_raise(in, "ValueError",
                         "%%threads: expected a whole number of threads, not '%s'", words[0]);
    enum mt_status st = mt_ctx_set_threads(ctx, (int)v);
    return st ? dsl_engine_raise(in, st) : 0;
}

/* ---- the table -------------------------------------------------------------------------- */

const struct dsl_magic dsl_magics[] = {
    {"backend", "%backend [simple|fast|cuda]", magic_backend,
     "Chooses the backend new tensors are made on: simple (serial reference loops), fast "
     "(threads and SIMD) or cuda (the GPU, when this machine has one). Tensors made before keep "
     "their backend; x.to(\"simple\") moves one. Without a name, shows the current backend."},
    {"threads", "%threads [N]", magic_threads,
     "Sets how many threads the fast backend uses (1 runs serially). Without a number, shows "
     "the current count."},
};
const size_t dsl_magic_count = sizeof dsl_magics / sizeof dsl_magics[0];

const struct dsl_magic *dsl_magic_find(const char *name)
{
    for (size_t i = 0; i < dsl_magic_count; i++)
        if (strcmp(dsl_magics[i].name, name) == 0) return &dsl_magics[i];
    return NULL;
}

int dsl_magic_help(struct render_buf *b, const struct dsl_magic *m)
{
    render_buf_puts(b, m->usage);
    render_buf_puts(b, "\n\n");
    return render_buf_puts(b, m->doc);
}

int dsl_magic_run(struct dsl_interp *in, const char *name, const char *args, size_t pos)
{
    const struct dsl_magic *m = dsl_magic_find(name);
    if (!m) {
        struct render_buf known;
        render_buf_init(&known, 4096);
        for (size_t i = 0; i < dsl_magic_count; i++)
            render_buf_printf(&known, "%s%%%s", i ? ", " : "", dsl_magics[i].name);
        dsl_raise_at(in, pos, "UsageError", "unknown magic %%%s; the known magics are %s",
                     name[0] ? name : "", render_buf_str(&known));
        render_buf_free(&known);
        return -1;
    }
    if (m->fn(in, args) != 0) {
        dsl_error_locate(in, pos);
        return -1;
    }
    return 0;
}
