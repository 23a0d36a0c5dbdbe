/* dsl_helpers.h — a collecting output sink and a one-call cell runner for the DSL tests.
 *
 * run_cell() executes code on a session with a sink that records every callback into a text
 * log, and returns an outcome with the result's text/plain, the error fields and the joined
 * traceback, all copied into fixed buffers so tests can compare them with CHECK_STR. */
#ifndef TESTS_KERNEL_DSL_HELPERS_H
#define TESTS_KERNEL_DSL_HELPERS_H

#include "lang/dsl.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sink {
    char log[1 << 16]; /* "stdout:hi\n", "display[id,1]:text\n", "clear(0)\n", "page:..." */
    size_t len;
    int nstream, ndisplay, nclear, npage, ninput, nflush;
    size_t len_at_flush; /* log length when flush was last called */
    /* input callback behaviour */
    const char *input_reply; /* NULL: fail with input_why */
    const char *input_why;
    char last_prompt[256];
    bool last_password;
};

static inline void sink_append(struct sink *k, const char *s)
{
    size_t n = strlen(s);
    if (k->len + n >= sizeof k->log) n = sizeof k->log - 1 - k->len;
    memcpy(k->log + k->len, s, n);
    k->len += n;
    k->log[k->len] = '\0';
}

static inline void sink_stream(void *ctx, const char *name, const char *text)
{
    struct sink *k = ctx;
    k->nstream++;
    sink_append(k, name);
    sink_append(k, ":");
    sink_append(k, text);
}

static inline void sink_display(void *ctx, json_t *data, const char *display_id, bool update)
{
    struct sink *k = ctx;
    k->ndisplay++;
    char head[128];
    snprintf(head, sizeof head, "display[%s,%d]:", display_id ? display_id : "-", update ? 1 : 0);
    sink_append(k, head);
    const char *t = json_string_value(json_object_get(data, "text/plain"));
    sink_append(k, t ? t : "(no text/plain)");
    sink_append(k, "\n");
}

static inline void sink_clear(void *ctx, bool wait)
{
    struct sink *k = ctx;
    k->nclear++;
    sink_append(k, wait ? "clear(1)\n" : "clear(0)\n");
}

static inline void sink_page(void *ctx, json_t *data)
{
    struct sink *k = ctx;
    k->npage++;
    const char *t = json_string_value(json_object_get(data, "text/plain"));
    sink_append(k, "page:");
    sink_append(k, t ? t : "(no text/plain)");
    sink_append(k, "\n");
}

static inline int sink_input(void *ctx, const char *prompt, bool password, char **line,
                             const char **why)
{
    struct sink *k = ctx;
    k->ninput++;
    snprintf(k->last_prompt, sizeof k->last_prompt, "%s", prompt);
    k->last_password = password;
    if (!k->input_reply) {
        *why = k->input_why;
        return -1;
    }
    *line = strdup(k->input_reply);
    return *line ? 0 : -1;
}

static inline void sink_flush(void *ctx)
{
    struct sink *k = ctx;
    k->nflush++;
    k->len_at_flush = k->len;
}

static inline struct dsl_output sink_output(struct sink *k)
{
    struct dsl_output o = {.ctx = k,
                           .stream = sink_stream,
                           .display = sink_display,
                           .clear_output = sink_clear,
                           .page = sink_page,
                           .input = sink_input,
                           .flush = sink_flush};
    return o;
}

struct outcome {
    int rc;
    bool has_result;
    char result[1 << 14];
    char ename[64];
    char evalue[1024];
    char tb[1 << 13]; /* traceback lines joined with '\n' */
    int tb_lines;
};

/* Runs code on s with sink k (k may be NULL: a fresh sink is used and dropped). */
static inline struct outcome run_cell_with(struct dsl_session *s, const char *code, struct sink *k)
{
    static struct outcome o;
    static struct sink scratch;
    memset(&o, 0, sizeof o);
    if (!k) {
        memset(&scratch, 0, sizeof scratch);
        k = &scratch;
    }
    struct dsl_output out = sink_output(k);
    json_t *result = NULL;
    struct dsl_error err = {0};
    o.rc = dsl_execute(s, code, &out, &result, &err);
    if (result) {
        o.has_result = true;
        const char *t = json_string_value(json_object_get(result, "text/plain"));
        snprintf(o.result, sizeof o.result, "%s", t ? t : "(no text/plain)");
        json_decref(result);
    }
    if (o.rc != 0) {
        snprintf(o.ename, sizeof o.ename, "%s", err.ename ? err.ename : "(null)");
        snprintf(o.evalue, sizeof o.evalue, "%s", err.evalue ? err.evalue : "(null)");
        size_t n = json_array_size(err.traceback), used = 0;
        o.tb_lines = (int)n;
        for (size_t i = 0; i < n; i++) {
            const char *line = json_string_value(json_array_get(err.traceback, i));
            int w = snprintf(o.tb + used, sizeof o.tb - used, "%s%s", i ? "\n" : "",
                             line ? line : "(non-string)");
            if (w < 0 || (size_t)w >= sizeof o.tb - used) break;
            used += (size_t)w;
        }
    }
    dsl_error_clear(&err);
    return o;
}

static inline struct outcome run_cell(struct dsl_session *s, const char *code)
{
    return run_cell_with(s, code, NULL);
}

/* The text/plain result of a cell run on a fresh session, or "<ENAME: evalue>" on error, or
 * "<none>" when there is no result. Static buffer. */
static inline const char *eval1(const char *code)
{
    static char buf[1 << 14];
    struct dsl_session *s = dsl_session_new();
    struct outcome o = run_cell(s, code);
    if (o.rc != 0)
        snprintf(buf, sizeof buf, "<%s: %s>", o.ename, o.evalue);
    else if (!o.has_result)
        snprintf(buf, sizeof buf, "<none>");
    else
        snprintf(buf, sizeof buf, "%s", o.result);
    dsl_session_free(s);
    return buf;
}

/* The ename of running code on a fresh session, or "ok". Static buffer. */
static inline const char *ename1(const char *code)
{
    static char buf[64];
    struct dsl_session *s = dsl_session_new();
    struct outcome o = run_cell(s, code);
    snprintf(buf, sizeof buf, "%s", o.rc ? o.ename : "ok");
    dsl_session_free(s);
    return buf;
}

#endif
