/* handlers.c — what the kernel does with each request, independent of sockets.
 *
 * A table maps msg_type to a handler and the channels it is accepted on (xeus's handler map).
 * jp_kernel_dispatch() wraps every request in busy/idle on IOPub, kernel_info included, as nbval
 * and jupyter_client's wait_for_ready expect. Handlers send their replies and outputs through
 * k->outbox, so tests can run them against a mock outbox and check the exact message order:
 * busy, execute_input, outputs, execute_reply, idle.
 *
 * Threads: shell requests run on the shell (main) thread and are the only ones that touch the
 * DSL session; control requests (kernel_info, shutdown, interrupt) run on the control thread and
 * touch only immutable fields and atomics. */
#include "jupyter/jupyter.h"

#include <minitorch/minitorch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HISTORY_MAX_ENTRIES 10000
/* The memory the history's text may hold: without a bound, a few cells with huge literals
 * (pasted data) would stay in memory for the whole session. */
#define HISTORY_MAX_BYTES ((size_t)32 << 20)

enum { ON_SHELL = 1 << JP_SHELL, ON_CONTROL = 1 << JP_CONTROL };

typedef void (*handler_fn)(struct jp_kernel *k, enum jp_channel ch, const struct jp_message *req);

/* ---------------------------------------------------------------------------------------- */

int jp_kernel_publish(struct jp_kernel *k, const struct jp_message *parent, const char *msg_type,
                      json_t *content)
{
    struct jp_message msg;
    if (jp_message_init(&msg, msg_type, parent, content, k->session, false) != 0) return -1;
    int rc = k->outbox.send(k->outbox.ctx, JP_IOPUB, &msg);
    jp_message_clear(&msg);
    return rc;
}

/* Sends a reply of msg_type with content (stolen) to req on channel ch. */
static int send_reply(struct jp_kernel *k, enum jp_channel ch, const struct jp_message *req,
                      const char *msg_type, json_t *content)
{
    struct jp_message msg;
    if (jp_message_init(&msg, msg_type, req, content, k->session, true) != 0) return -1;
    int rc = k->outbox.send(k->outbox.ctx, ch, &msg);
    jp_message_clear(&msg);
    return rc;
}

/* "execute_request" -> "execute_reply" into buf. */
static void reply_type(const struct jp_message *req, char *buf, size_t n)
{
    const char *t = jp_message_type(req);
    size_t len = strlen(t);
    if (len > 8 && strcmp(t + len - 8, "_request") == 0)
        snprintf(buf, n, "%.*s_reply", (int)(len - 8), t);
    else
        snprintf(buf, n, "%s_reply", t);
}

static json_t *status_content(const char *state)
{
    return json_pack("{s:s}", "execution_state", state);
}

/* Answers req with an error reply ({status: error, ename, evalue, traceback}) of the type that
 * answers it, for a request that cannot be served as sent. */
static void send_error_reply(struct jp_kernel *k, enum jp_channel ch, const struct jp_message *req,
                             const char *ename, const char *evalue)
{
    char type[128];
    reply_type(req, type, sizeof type);
    char line[512];
    snprintf(line, sizeof line, "%s: %s", ename, evalue);
    json_t *content = json_pack("{s:s, s:s, s:s, s:[s]}", "status", "error", "ename", ename,
                                "evalue", evalue, "traceback", line);
    if (content && strcmp(type, "execute_reply") == 0) {
        json_object_set_new(content, "execution_count", json_integer(k->execution_count));
        json_object_set_new(content, "user_expressions", json_object());
        json_object_set_new(content, "payload", json_array());
    }
    send_reply(k, ch, req, type, content);
}

/* The source text of a request, content[key]: a string without NUL of at most
 * JP_MAX_SOURCE_BYTES (parsing takes up to about 200 bytes of memory per byte of source).
 * Returns it, or NULL with a one-line reason in why (ename in *ename). */
static const char *request_source(const json_t *content, const char *key, const char **ename,
                                  char *why, size_t n)
{
    json_t *v = json_object_get(content, key);
    const char *s = json_string_value(v);
    if (!s) {
        *ename = "TypeError";
        snprintf(why, n, "content.%s must be a string", key);
        return NULL;
    }
    size_t len = json_string_length(v);
    if (len > JP_MAX_SOURCE_BYTES) {
        *ename = "MemoryError";
        snprintf(why, n, "the source is %zu bytes, over the limit of %zu (%zu MiB) for one cell",
                 len, (size_t)JP_MAX_SOURCE_BYTES, (size_t)JP_MAX_SOURCE_BYTES >> 20);
        return NULL;
    }
    size_t nul = strlen(s);
    if (nul < len) {
        size_t line = 1, col = 1;
        for (size_t i = 0; i < nul; i++) {
            if (s[i] == '\n') {
                line++, col = 1;
            } else if (((unsigned char)s[i] & 0xC0) != 0x80) {
                col++;
            }
        }
        *ename = "SyntaxError";
        snprintf(why, n, "source code cannot contain null bytes (U+0000 at line %zu, column %zu)",
                 line, col);
        return NULL;
    }
    return s;
}

/* A request's code (complete, inspect, is_complete), or NULL after answering it with an error. */
static const char *code_or_error(struct jp_kernel *k, enum jp_channel ch,
                                 const struct jp_message *req)
{
    char why[160];
    const char *ename;
    const char *code = request_source(req->content, "code", &ename, why, sizeof why);
    if (!code) send_error_reply(k, ch, req, ename, why);
    return code;
}

/* ---------------------------------------------------------------------------------------- */
/* kernel_info                                                                                */

json_t *jp_kernel_info_content(void)
{
    return json_pack(
        "{s:s, s:s, s:s, s:s, s:{s:s, s:s, s:s, s:s, s:s, s:s, s:s}, s:s, s:[{s:s, s:s}, {s:s, "
        "s:s}], s:b}",
        "status", "ok", "protocol_version", JP_PROTOCOL_VERSION, "implementation",
        "minitorch-kernel", "implementation_version", MT_KERNEL_VERSION, "language_info", "name",
        "minitorch", "version", mt_version(), "mimetype", "text/x-minitorch", "file_extension",
        ".mt", "pygments_lexer", "python", "codemirror_mode", "python", "nbconvert_exporter",
        "script", "banner",
        "MiniTorch " MT_KERNEL_VERSION " — a Jupyter kernel in C for the MiniTorch tensor "
        "language.\nType help(print) for help on a builtin.",
        "help_links", "text", "MiniTorch", "url", "https://minitorch.github.io/", "text",
        "Jupyter messaging", "url",
        "https://jupyter-client.readthedocs.io/en/latest/messaging.html", "debugger", 0);
}

static void handle_kernel_info(struct jp_kernel *k, enum jp_channel ch,
                               const struct jp_message *req)
{
    send_reply(k, ch, req, "kernel_info_reply", jp_kernel_info_content());
}

/* ---------------------------------------------------------------------------------------- */
/* execute                                                                                    */

/* Stream output is coalesced, as ipykernel's OutStream does: a loop that prints 20,000 lines
 * must not send 20,000 messages, which would overrun the IOPub high-water mark (ZeroMQ then
 * drops messages, idle included, and the frontend waits forever). Text is held until the stream
 * changes, 64 KiB accumulate, STREAM_FLUSH_NS pass, any other message is about to go out, or
 * the language calls flush (before sleep and input, and every 50 ms from inside loops). */
#define STREAM_FLUSH_NS 50000000LL /* 50 ms: soon enough for a person to see it live */
#define STREAM_FLUSH_BYTES 65536
/* Updates of a display are coalesced the same way: a loop that updates a display at every step
 * sent 80,000 messages in 1.5 s, which a client took 34 s to take in. The latest update of
 * each display id is held (at most UPDATES_HELD ids) and they go out with the held text (every
 * 50 ms from the language's loops, before it waits), before any other message, and when the
 * cell ends: the last value always arrives. */
#define UPDATES_HELD 16

struct exec_ctx {
    struct jp_kernel *k;
    const struct jp_message *req;
    bool allow_stdin;
    const char *stream; /* "stdout" or "stderr": the stream of the held text */
    char *held;         /* text not yet published (malloc'd) */
    size_t held_len, held_cap;
    int64_t last_flush; /* mt_now_ns() of the last flush */
    /* update_display_data held back, the latest per display id (see out_display) */
    json_t *held_updates[UPDATES_HELD];
    int nheld_updates;
};

/* Sends the held updates, in the order their display ids were first held. */
static void send_updates(struct exec_ctx *e)
{
    for (int i = 0; i < e->nheld_updates; i++)
        jp_kernel_publish(e->k, e->req, "update_display_data", e->held_updates[i]);
    e->nheld_updates = 0;
}

static void out_flush(void *ctx)
{
    struct exec_ctx *e = ctx;
    send_updates(e);
    if (e->held_len > 0)
        jp_kernel_publish(
            e->k, e->req, "stream",
            json_pack("{s:s, s:s%}", "name", e->stream, "text", e->held, e->held_len));
    e->held_len = 0;
    e->last_flush = mt_now_ns();
}

static void out_stream(void *ctx, const char *name, const char *text)
{
    struct exec_ctx *e = ctx;
    if (e->held_len > 0 && strcmp(name, e->stream) != 0) out_flush(e);
    size_t len = strlen(text);
    if (e->held_len + len + 1 > e->held_cap) {
        size_t cap = e->held_cap ? e->held_cap : 4096;
        while (cap < e->held_len + len + 1) cap *= 2;
        char *bigger = realloc(e->held, cap);
        if (!bigger) { /* out of memory: send what we have and this piece on its own */
            out_flush(e);
            jp_kernel_publish(e->k, e->req, "stream",
                              json_pack("{s:s, s:s}", "name", name, "text", text));
            return;
        }
        e->held = bigger;
        e->held_cap = cap;
    }
    memcpy(e->held + e->held_len, text, len);
    e->held_len += len;
    e->stream = strcmp(name, "stderr") == 0 ? "stderr" : "stdout";
    if (e->held_len >= STREAM_FLUSH_BYTES || mt_now_ns() - e->last_flush >= STREAM_FLUSH_NS)
        out_flush(e);
}

static const char *update_id(json_t *content)
{
    return json_string_value(json_object_get(json_object_get(content, "transient"), "display_id"));
}

static void out_display(void *ctx, json_t *data, const char *display_id, bool update)
{
    struct exec_ctx *e = ctx;
    json_t *content = json_pack("{s:O, s:{}, s:{}}", "data", data, "metadata", "transient");
    if (content && display_id)
        json_object_set_new(json_object_get(content, "transient"), "display_id",
                            json_string(display_id));
    if (update && content && display_id) {
        int i = 0; /* the id's held update is replaced; a new id takes the next place */
        while (i < e->nheld_updates && strcmp(update_id(e->held_updates[i]), display_id) != 0) i++;
        if (i == UPDATES_HELD) {
            send_updates(e);
            i = 0;
        }
        if (i < e->nheld_updates)
            json_decref(e->held_updates[i]);
        else
            e->nheld_updates++;
        e->held_updates[i] = content;
        /* the language flushes every 50 ms from its loops and before it waits; this is for
         * code that updates without either */
        if (mt_now_ns() - e->last_flush >= 2 * STREAM_FLUSH_NS) out_flush(e);
        return;
    }
    out_flush(e);
    jp_kernel_publish(e->k, e->req, update ? "update_display_data" : "display_data", content);
}

static void out_clear(void *ctx, bool wait)
{
    struct exec_ctx *e = ctx;
    out_flush(e);
    jp_kernel_publish(e->k, e->req, "clear_output", json_pack("{s:b}", "wait", wait));
}

static void out_page(void *ctx, json_t *data)
{
    struct exec_ctx *e = ctx;
    json_array_append_new(e->k->payloads,
                          json_pack("{s:s, s:O, s:i}", "source", "page", "data", data, "start", 0));
}

static void out_reset(void *ctx)
{
    struct exec_ctx *e = ctx;
    jp_history_clear(e->k->history);
}

static int out_input(void *ctx, const char *prompt, bool password, char **line, const char **why)
{
    struct exec_ctx *e = ctx;
    *line = NULL;
    if (!e->allow_stdin || !e->k->outbox.recv_stdin) {
        *why = "input() is not available: the frontend does not support input requests";
        return -1;
    }
    /* Replies still queued answer earlier requests (one interrupted while its frontend was
     * answering): as ipykernel, discard them before asking, and then take only the reply whose
     * parent is this request, so a late answer never becomes the next input()'s. */
    if (e->k->outbox.discard_stdin) e->k->outbox.discard_stdin(e->k->outbox.ctx);
    struct jp_message request;
    if (jp_message_init(&request, "input_request", e->req,
                        json_pack("{s:s, s:b}", "prompt", prompt, "password", password),
                        e->k->session, true) != 0) {
        *why = "out of memory";
        return -1;
    }
    char request_id[64];
    snprintf(request_id, sizeof request_id, "%s",
             json_string_value(json_object_get(request.header, "msg_id")));
    int sent = e->k->outbox.send(e->k->outbox.ctx, JP_STDIN, &request);
    jp_message_clear(&request);
    if (sent != 0) {
        *why = "the input request could not be sent";
        return -1;
    }
    struct jp_message reply;
    if (e->k->outbox.recv_stdin(e->k->outbox.ctx, request_id, &reply) != 0) {
        *why = "interrupted while waiting for input";
        return -1;
    }
    json_t *v = json_object_get(reply.content, "value");
    const char *value = jp_json_cstring(v);
    if (reply.unusable || !value) {
        *why = reply.unusable || !json_is_string(v)
                   ? "the frontend's input_reply has no string content.value"
                   : "the frontend's input_reply holds a NUL character, which text cannot hold";
        jp_message_clear(&reply);
        return -1;
    }
    *line = strdup(value);
    jp_message_clear(&reply);
    if (!*line) {
        *why = "out of memory";
        return -1;
    }
    return 0;
}

/* {"name": {"status": "ok", "data": ..., "metadata": {}}, ...} for user_expressions. */
static json_t *eval_user_expressions(struct jp_kernel *k, json_t *exprs)
{
    json_t *out = json_object();
    const char *name;
    json_t *v;
    json_object_foreach(exprs, name, v)
    {
        json_t *item;
        json_t *data = NULL;
        struct dsl_error err = {0};
        char why[160];
        const char *ename;
        const char *expr = request_source(exprs, name, &ename, why, sizeof why);
        if (!expr) {
            item = json_pack("{s:s, s:s, s:s, s:[]}", "status", "error", "ename", ename, "evalue",
                             why, "traceback");
        } else if (dsl_evaluate(k->dsl, expr, &data, &err) == 0) {
            item = json_pack("{s:s, s:o, s:{}}", "status", "ok", "data",
                             data ? data : json_object(), "metadata");
        } else {
            item = json_pack("{s:s, s:s, s:s, s:O}", "status", "error", "ename", err.ename,
                             "evalue", err.evalue, "traceback", err.traceback);
            dsl_error_clear(&err);
        }
        json_object_set_new(out, name, item);
    }
    return out;
}

static bool get_bool(const json_t *obj, const char *key, bool dflt)
{
    json_t *v = json_object_get(obj, key);
    return json_is_boolean(v) ? json_is_true(v) : dflt;
}

static void handle_execute(struct jp_kernel *k, enum jp_channel ch, const struct jp_message *req)
{
    const json_t *c = req->content;
    json_t *code_json = json_object_get(c, "code");
    if (!json_is_string(code_json)) {
        /* a malformed request: answer it with an error rather than guess what was meant */
        send_error_reply(k, ch, req, "TypeError", "execute_request: content.code must be a string");
        return;
    }
    /* Code that cannot run (a NUL, or over the size limit) fails as a cell does, counted and
     * kept in the history, with the reason as its error. */
    char why[160];
    const char *ename;
    const char *code = request_source(c, "code", &ename, why, sizeof why);
    bool silent = get_bool(c, "silent", false);
    bool store_history = !silent && get_bool(c, "store_history", true);
    bool stop_on_error = get_bool(c, "stop_on_error", true);
    /* last_flush 0: the cell's first output goes out at once */
    struct exec_ctx e = {
        .k = k, .req = req, .allow_stdin = get_bool(c, "allow_stdin", true), .stream = "stdout"};

    /* An interrupt from before this request is not for it; one from now on is. */
    mt_cancel_clear();
    if (store_history) {
        k->execution_count++;
        jp_history_append(k->history, k->execution_count, json_string_value(code_json),
                          json_string_length(code_json));
    }
    json_int_t count = k->execution_count;
    if (!silent)
        jp_kernel_publish(k, req, "execute_input",
                          json_pack("{s:O, s:I}", "code", code_json, "execution_count", count));

    struct dsl_output out = {
        .ctx = &e,
        .stream = out_stream,
        .display = out_display,
        .clear_output = out_clear,
        .page = out_page,
        .input = out_input,
        .flush = out_flush,
        .reset = out_reset,
    };
    json_t *result = NULL;
    struct dsl_error err = {0};
    json_decref(k->payloads);
    k->payloads = json_array();
    char started[32];
    jp_iso8601_now(started);
    /* Tracebacks say "Cell In[n]" for a cell kept in the history, "Cell" for one that is not
     * (silent or store_history false), as IPython's do. */
    dsl_session_set_execution_count(k->dsl, store_history ? (long)count : 0);
    int rc = -1;
    if (code) {
        rc = dsl_execute(k->dsl, code, &out, &result, &err);
        jp_reserve_check(); /* a cell that filled the address space: the reserve goes now */
    } else {
        char line[400];
        snprintf(line, sizeof line, "%s: %s", ename, why);
        err.ename = strdup(ename);
        err.evalue = strdup(why);
        err.traceback = json_pack("[s]", line);
    }
    out_flush(&e);
    free(e.held);

    json_t *reply;
    if (rc == 0) {
        if (result && !silent)
            jp_kernel_publish(k, req, "execute_result",
                              json_pack("{s:I, s:O, s:{}}", "execution_count", count, "data",
                                        result, "metadata"));
        json_t *exprs = json_object_get(c, "user_expressions");
        reply = json_pack("{s:s, s:I, s:o, s:O}", "status", "ok", "execution_count", count,
                          "user_expressions",
                          json_is_object(exprs) ? eval_user_expressions(k, exprs) : json_object(),
                          "payload", k->payloads);
    } else {
        /* an error that could not be built for want of memory still gets its reply */
        const char *en = err.ename ? err.ename : "MemoryError";
        const char *ev = err.evalue ? err.evalue : "out of memory";
        json_t *tb = err.traceback ? json_incref(err.traceback) : json_array();
        jp_kernel_publish(k, req, "error",
                          json_pack("{s:s, s:s, s:O}", "ename", en, "evalue", ev, "traceback", tb));
        reply = json_pack("{s:s, s:I, s:s, s:s, s:o, s:{}, s:[]}", "status", "error",
                          "execution_count", count, "ename", en, "evalue", ev, "traceback", tb,
                          "user_expressions", "payload");
        /* Requests queued by now are aborted; the snapshot is taken before the reply goes out,
         * so a client that sends its next request on seeing the reply never has it aborted. */
        if (stop_on_error && !silent && k->outbox.abort_queued)
            k->outbox.abort_queued(k->outbox.ctx);
    }
    if (!reply && jp_reserve_release()) /* out of memory: the reply still goes out */
        reply = json_pack("{s:s, s:I, s:s, s:s, s:[], s:{}, s:[]}", "status", "error",
                          "execution_count", count, "ename", "MemoryError", "evalue",
                          "out of memory while building the reply", "traceback", "user_expressions",
                          "payload");
    json_decref(result);
    dsl_error_clear(&err);
    json_decref(k->payloads);
    k->payloads = NULL;

    struct jp_message msg;
    if (jp_message_init(&msg, "execute_reply", req, reply, k->session, true) == 0) {
        json_object_set_new(msg.metadata, "started", json_string(started));
        json_object_set_new(msg.metadata, "dependencies_met", json_true());
        json_object_set_new(msg.metadata, "engine", json_string(k->session));
        json_object_set_new(msg.metadata, "status", json_string(rc == 0 ? "ok" : "error"));
        k->outbox.send(k->outbox.ctx, ch, &msg);
        jp_message_clear(&msg);
    }
}

/* ---------------------------------------------------------------------------------------- */
/* complete, inspect, is_complete, history, comms                                             */

/* The request's code and its cursor as a byte offset (cursor_pos counts code points); NULL
 * after an error reply when the code is not usable. */
static const char *code_and_cursor(struct jp_kernel *k, enum jp_channel ch,
                                   const struct jp_message *req, size_t *cursor)
{
    const char *code = code_or_error(k, ch, req);
    if (!code) return NULL;
    json_t *pos = json_object_get(req->content, "cursor_pos");
    size_t cp = json_is_integer(pos) && json_integer_value(pos) >= 0
                    ? (size_t)json_integer_value(pos)
                    : jp_utf8_codepoints(code, strlen(code));
    *cursor = jp_utf8_byte_offset(code, cp);
    return code;
}

static void handle_complete(struct jp_kernel *k, enum jp_channel ch, const struct jp_message *req)
{
    size_t cursor, start = 0, end = 0;
    const char *code = code_and_cursor(k, ch, req, &cursor);
    if (!code) return;
    json_t *matches = dsl_complete(k->dsl, code, cursor, &start, &end);
    if (!matches) {
        matches = json_array();
        start = end = cursor;
    }
    send_reply(k, ch, req, "complete_reply",
               json_pack("{s:s, s:o, s:I, s:I, s:{}}", "status", "ok", "matches", matches,
                         "cursor_start", (json_int_t)jp_utf8_codepoints(code, start), "cursor_end",
                         (json_int_t)jp_utf8_codepoints(code, end), "metadata"));
}

static void handle_inspect(struct jp_kernel *k, enum jp_channel ch, const struct jp_message *req)
{
    size_t cursor;
    const char *code = code_and_cursor(k, ch, req, &cursor);
    if (!code) return;
    json_t *level = json_object_get(req->content, "detail_level");
    json_t *data = dsl_inspect(k->dsl, code, cursor,
                               json_is_integer(level) ? (int)json_integer_value(level) : 0);
    send_reply(k, ch, req, "inspect_reply",
               json_pack("{s:s, s:b, s:o, s:{}}", "status", "ok", "found", data != NULL, "data",
                         data ? data : json_object(), "metadata"));
}

static void handle_is_complete(struct jp_kernel *k, enum jp_channel ch,
                               const struct jp_message *req)
{
    const char *code = code_or_error(k, ch, req);
    if (!code) return;
    const char *indent = "";
    const char *status = dsl_is_complete(code, &indent);
    json_t *content = json_pack("{s:s}", "status", status);
    if (strcmp(status, "incomplete") == 0)
        json_object_set_new(content, "indent", json_string(indent ? indent : ""));
    send_reply(k, ch, req, "is_complete_reply", content);
}

static void handle_history(struct jp_kernel *k, enum jp_channel ch, const struct jp_message *req)
{
    json_t *history = jp_history_query(k->history, req->content);
    send_reply(
        k, ch, req, "history_reply",
        json_pack("{s:s, s:o}", "status", "ok", "history", history ? history : json_array()));
}

static void handle_comm_info(struct jp_kernel *k, enum jp_channel ch, const struct jp_message *req)
{
    send_reply(k, ch, req, "comm_info_reply", json_pack("{s:s, s:{}}", "status", "ok", "comms"));
}

/* No comm targets exist yet: like ipykernel for an unknown target, close the comm at once so
 * the frontend does not wait on it. */
static void handle_comm_open(struct jp_kernel *k, enum jp_channel ch, const struct jp_message *req)
{
    (void)ch;
    const char *id = json_string_value(json_object_get(req->content, "comm_id"));
    if (!id) return;
    jp_kernel_publish(k, req, "comm_close", json_pack("{s:s, s:{}}", "comm_id", id, "data"));
}

static void handle_ignore(struct jp_kernel *k, enum jp_channel ch, const struct jp_message *req)
{
    (void)k, (void)ch, (void)req;
}

/* ---------------------------------------------------------------------------------------- */
/* shutdown and interrupt (control; shutdown on shell too, deprecated but still sent)          */

static void handle_shutdown(struct jp_kernel *k, enum jp_channel ch, const struct jp_message *req)
{
    bool restart = get_bool(req->content, "restart", false);
    json_t *content = json_pack("{s:s, s:b}", "status", "ok", "restart", restart);
    /* ipykernel also publishes the reply on IOPub so every client learns of the shutdown. */
    jp_kernel_publish(k, req, "shutdown_reply", json_deep_copy(content));
    send_reply(k, ch, req, "shutdown_reply", content);
    atomic_store(&k->shutdown_requested, true);
    mt_cancel_request(); /* a cell still running on the shell stops at its next poll */
}

static void handle_interrupt(struct jp_kernel *k, enum jp_channel ch, const struct jp_message *req)
{
    mt_cancel_request();
    send_reply(k, ch, req, "interrupt_reply", json_pack("{s:s}", "status", "ok"));
}

/* ---------------------------------------------------------------------------------------- */

static const struct {
    const char *msg_type;
    handler_fn fn;
    unsigned channels; /* bit set of the channels the request is accepted on */
} handlers[] = {
    {"kernel_info_request", handle_kernel_info, ON_SHELL | ON_CONTROL},
    {"execute_request", handle_execute, ON_SHELL},
    {"complete_request", handle_complete, ON_SHELL},
    {"inspect_request", handle_inspect, ON_SHELL},
    {"is_complete_request", handle_is_complete, ON_SHELL},
    {"history_request", handle_history, ON_SHELL},
    {"comm_info_request", handle_comm_info, ON_SHELL | ON_CONTROL}, /* as ipykernel */
    {"comm_open", handle_comm_open, ON_SHELL},
    {"comm_msg", handle_ignore, ON_SHELL},
    {"comm_close", handle_ignore, ON_SHELL},
    {"shutdown_request", handle_shutdown, ON_SHELL | ON_CONTROL},
    {"interrupt_request", handle_interrupt, ON_CONTROL},
};

void jp_kernel_dispatch(struct jp_kernel *k, enum jp_channel ch, const struct jp_message *req)
{
    const char *type = jp_message_type(req);
    handler_fn fn = NULL;
    bool elsewhere = false; /* a known type, for another channel */
    for (size_t i = 0; i < sizeof handlers / sizeof handlers[0]; i++)
        if (strcmp(handlers[i].msg_type, type) == 0) {
            if (handlers[i].channels & (1u << ch))
                fn = handlers[i].fn;
            else
                elsewhere = true;
        }
    size_t len = strlen(type);
    bool is_request = len > 8 && strcmp(type + len - 8, "_request") == 0;
    jp_kernel_publish(k, req, "status", status_content("busy"));
    if (!fn && elsewhere && is_request) {
        /* a request the kernel knows, on the wrong channel (execute_request on control runs
         * nowhere but on shell, whose thread alone touches the session): answered, not ignored */
        char why[200];
        snprintf(why, sizeof why, "%s is not handled on the %s channel", type,
                 ch == JP_CONTROL ? "control" : "shell");
        send_error_reply(k, ch, req, "ValueError", why);
    } else if (fn && req->unusable) {
        /* signed and addressed, but not usable as sent: say why rather than stay silent (a
         * request type without a reply, comm_msg, ..., is only logged) */
        if (is_request) {
            char why[200];
            snprintf(why, sizeof why, "%s: %s", type, req->unusable);
            send_error_reply(k, ch, req, req->unusable_oom ? "MemoryError" : "ValueError", why);
        } else {
            fprintf(stderr, "minitorch-kernel: ignoring a %s whose %s\n", type, req->unusable);
        }
    } else if (fn) {
        fn(k, ch, req);
    } else {
        fprintf(stderr, "minitorch-kernel: ignoring unknown message type \"%s\" on %s\n", type,
                ch == JP_CONTROL ? "control" : "shell");
    }
    jp_kernel_publish(k, req, "status", status_content("idle"));
}

void jp_kernel_abort_request(struct jp_kernel *k, enum jp_channel ch, const struct jp_message *req)
{
    char type[128];
    reply_type(req, type, sizeof type);
    jp_kernel_publish(k, req, "status", status_content("busy"));
    send_reply(k, ch, req, type, json_pack("{s:s}", "status", "aborted"));
    jp_kernel_publish(k, req, "status", status_content("idle"));
}

int jp_kernel_init(struct jp_kernel *k, struct jp_outbox outbox)
{
    memset(k, 0, sizeof *k);
    k->outbox = outbox;
    jp_uuid4(k->session);
    atomic_init(&k->shutdown_requested, false);
    k->dsl = dsl_session_new();
    k->history = jp_history_new(HISTORY_MAX_ENTRIES, HISTORY_MAX_BYTES);
    if (!k->dsl || !k->history) {
        jp_kernel_destroy(k);
        return -1;
    }
    return 0;
}

void jp_kernel_destroy(struct jp_kernel *k)
{
    dsl_session_free(k->dsl);
    jp_history_free(k->history);
    json_decref(k->payloads);
    memset(k, 0, sizeof *k);
}
