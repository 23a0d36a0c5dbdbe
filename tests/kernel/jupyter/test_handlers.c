/* test_handlers.c — the kernel's handlers driven without sockets (xeus's mock-server idea).
 *
 * A mock outbox records every message the handlers send, with its channel, so the tests check
 * the exact order the protocol requires: busy -> execute_input -> outputs -> reply -> idle, all
 * with the request as parent; and what each request type answers. The language is the real one. */
#include "jupyter/jupyter.h"
#include "test.h"

#include <minitorch/minitorch.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SENT 64

struct mock {
    struct {
        enum jp_channel ch;
        char type[64];
        json_t *content;
        json_t *parent;
        bool has_ids;
        json_t *transient_id;
    } sent[MAX_SENT];
    int n;
    const char *stdin_value; /* answer to input_request, or NULL: interrupted */
};

static int mock_send(void *ctx, enum jp_channel ch, const struct jp_message *msg)
{
    struct mock *m = ctx;
    if (m->n == MAX_SENT) return -1;
    m->sent[m->n].ch = ch;
    snprintf(m->sent[m->n].type, sizeof m->sent[m->n].type, "%s", jp_message_type(msg));
    m->sent[m->n].content = json_deep_copy(msg->content);
    m->sent[m->n].parent = json_deep_copy(msg->parent_header);
    m->sent[m->n].has_ids = msg->nids > 0;
    m->n++;
    return 0;
}

static int mock_recv_stdin(void *ctx, const char *request_id, struct jp_message *reply)
{
    struct mock *m = ctx;
    if (!m->stdin_value) return -1;
    if (jp_message_init(reply, "input_reply", NULL, json_pack("{s:s}", "value", m->stdin_value),
                        "client", false) != 0)
        return -1;
    /* answers the request it was asked for, as a frontend does */
    json_object_set_new(reply->parent_header, "msg_id", json_string(request_id));
    return 0;
}

/* Records the call as a pseudo-message so sequence() shows where it happened. */
static void mock_abort_queued(void *ctx)
{
    struct mock *m = ctx;
    if (m->n == MAX_SENT) return;
    memset(&m->sent[m->n], 0, sizeof m->sent[m->n]);
    snprintf(m->sent[m->n].type, sizeof m->sent[m->n].type, "ABORT_QUEUED");
    m->n++;
}

static void mock_reset(struct mock *m)
{
    for (int i = 0; i < m->n; i++) {
        json_decref(m->sent[i].content);
        json_decref(m->sent[i].parent);
    }
    m->n = 0;
}

/* A request from a client with one routing identity. content is stolen. */
static void make_request(struct jp_message *req, const char *type, json_t *content)
{
    jp_message_init(req, type, NULL, content, "client-session", false);
    req->nids = 1;
    req->ids = calloc(1, sizeof *req->ids);
    req->ids[0].data = (unsigned char *)strdup("peer");
    req->ids[0].len = 4;
}

/* Sends one request through dispatch and leaves the recorded messages in *m. */
static void run(struct jp_kernel *k, struct mock *m, enum jp_channel ch, const char *type,
                json_t *content, struct jp_message *req_out)
{
    mock_reset(m);
    struct jp_message req;
    make_request(&req, type, content);
    jp_kernel_dispatch(k, ch, &req);
    if (req_out)
        *req_out = req;
    else
        jp_message_clear(&req);
}

/* The recorded message types joined by spaces, e.g. "status execute_input stream ...". */
static const char *sequence(const struct mock *m)
{
    static char buf[1024];
    buf[0] = '\0';
    for (int i = 0; i < m->n; i++) {
        if (i) strcat(buf, " ");
        if (strcmp(m->sent[i].type, "status") == 0)
            strcat(buf, json_string_value(json_object_get(m->sent[i].content, "execution_state")));
        else
            strcat(buf, m->sent[i].type);
    }
    return buf;
}

static struct mock mk;
static struct jp_kernel kernel;

static json_t *execute_content(const char *code)
{
    return json_pack("{s:s, s:b, s:b, s:{}, s:b, s:b}", "code", code, "silent", 0, "store_history",
                     1, "user_expressions", "allow_stdin", 1, "stop_on_error", 1);
}

static void test_execute_order(void)
{
    struct jp_message req;
    run(&kernel, &mk, JP_SHELL, "execute_request",
        execute_content("print(\"hello, world\")\nwarn(\"careful\")\n6 * 7"), &req);
    CHECK_STR(sequence(&mk), "busy execute_input stream stream execute_result execute_reply idle");
    const char *id = json_string_value(json_object_get(req.header, "msg_id"));
    for (int i = 0; i < mk.n; i++) {
        /* every message names the request as parent; only the reply is routed back */
        CHECK_STR(json_string_value(json_object_get(mk.sent[i].parent, "msg_id")), id);
        bool is_reply = strcmp(mk.sent[i].type, "execute_reply") == 0;
        CHECK_INT(mk.sent[i].ch, is_reply ? JP_SHELL : JP_IOPUB);
        CHECK_INT(mk.sent[i].has_ids, is_reply);
    }
    CHECK_STR(json_string_value(json_object_get(mk.sent[2].content, "name")), "stdout");
    CHECK_STR(json_string_value(json_object_get(mk.sent[2].content, "text")), "hello, world\n");
    CHECK_STR(json_string_value(json_object_get(mk.sent[3].content, "name")), "stderr");
    json_t *data = json_object_get(mk.sent[4].content, "data");
    CHECK_STR(json_string_value(json_object_get(data, "text/plain")), "42");
    json_t *reply = mk.sent[5].content;
    CHECK_STR(json_string_value(json_object_get(reply, "status")), "ok");
    long count = (long)json_integer_value(json_object_get(reply, "execution_count"));
    CHECK_INT(json_integer_value(json_object_get(mk.sent[1].content, "execution_count")), count);
    CHECK_INT(json_integer_value(json_object_get(mk.sent[4].content, "execution_count")), count);
    jp_message_clear(&req);

    /* the next stored execution gets the next count */
    run(&kernel, &mk, JP_SHELL, "execute_request", execute_content("1"), NULL);
    CHECK_INT(json_integer_value(json_object_get(mk.sent[3].content, "execution_count")),
              count + 1);
}

static void test_execute_error(void)
{
    run(&kernel, &mk, JP_SHELL, "execute_request", execute_content("print(1)\nnope + 1"), NULL);
    /* stop_on_error: what is queued now is aborted; the snapshot comes before the reply */
    CHECK_STR(sequence(&mk), "busy execute_input stream error ABORT_QUEUED execute_reply idle");
    json_t *err = mk.sent[3].content;
    CHECK_STR(json_string_value(json_object_get(err, "ename")), "NameError");
    CHECK(json_array_size(json_object_get(err, "traceback")) > 0);
    json_t *reply = mk.sent[5].content;
    CHECK_STR(json_string_value(json_object_get(reply, "status")), "error");
    CHECK_STR(json_string_value(json_object_get(reply, "ename")), "NameError");

    json_t *c = execute_content("nope");
    json_object_set_new(c, "stop_on_error", json_false());
    run(&kernel, &mk, JP_SHELL, "execute_request", c, NULL);
    CHECK_STR(sequence(&mk), "busy execute_input error execute_reply idle");
    c = execute_content("nope");
    json_object_set_new(c, "silent", json_true());
    run(&kernel, &mk, JP_SHELL, "execute_request", c, NULL);
    CHECK_STR(sequence(&mk), "busy error execute_reply idle");

    struct jp_message req;
    make_request(&req, "execute_request", execute_content("print(\"never\")"));
    mock_reset(&mk);
    jp_kernel_abort_request(&kernel, JP_SHELL, &req);
    CHECK_STR(sequence(&mk), "busy execute_reply idle");
    CHECK_STR(json_string_value(json_object_get(mk.sent[1].content, "status")), "aborted");
    jp_message_clear(&req);
}

static void test_silent_and_history(void)
{
    run(&kernel, &mk, JP_SHELL, "execute_request", execute_content("1"), NULL);
    json_int_t before = json_integer_value(json_object_get(mk.sent[3].content, "execution_count"));

    json_t *c = execute_content("silent_var = 5\nprint(\"shh\")\nsilent_var");
    json_object_set_new(c, "silent", json_true());
    run(&kernel, &mk, JP_SHELL, "execute_request", c, NULL);
    /* silent: no execute_input, no execute_result, count unchanged; output still goes out */
    CHECK_STR(sequence(&mk), "busy stream execute_reply idle");
    CHECK_INT(json_integer_value(json_object_get(mk.sent[2].content, "execution_count")), before);

    c = execute_content("silent_var + 1");
    json_object_set_new(c, "store_history", json_false());
    run(&kernel, &mk, JP_SHELL, "execute_request", c, NULL);
    CHECK_STR(sequence(&mk), "busy execute_input execute_result execute_reply idle");
    CHECK_INT(json_integer_value(json_object_get(mk.sent[3].content, "execution_count")), before);
    json_t *data = json_object_get(mk.sent[2].content, "data");
    CHECK_STR(json_string_value(json_object_get(data, "text/plain")), "6");

    run(&kernel, &mk, JP_SHELL, "execute_request", execute_content("history_marker = 2"), NULL);
    run(&kernel, &mk, JP_SHELL, "history_request",
        json_pack("{s:s, s:i, s:b, s:b}", "hist_access_type", "tail", "n", 2, "output", 0, "raw",
                  1),
        NULL);
    CHECK_STR(sequence(&mk), "busy history_reply idle");
    json_t *h = json_object_get(mk.sent[1].content, "history");
    CHECK_INT(json_array_size(h), 2);
    CHECK_STR(json_string_value(json_array_get(json_array_get(h, 1), 2)), "history_marker = 2");
    CHECK_INT(json_integer_value(json_array_get(json_array_get(h, 1), 1)), before + 1);
    CHECK_STR(json_string_value(json_array_get(json_array_get(h, 0), 2)), "1");

    run(&kernel, &mk, JP_SHELL, "history_request",
        json_pack("{s:s, s:s, s:b}", "hist_access_type", "search", "pattern", "history_*", "unique",
                  1),
        NULL);
    h = json_object_get(mk.sent[1].content, "history");
    CHECK_INT(json_array_size(h), 1);
    run(&kernel, &mk, JP_SHELL, "history_request",
        json_pack("{s:s, s:i, s:I, s:I}", "hist_access_type", "range", "session", 0, "start",
                  before + 1, "stop", before + 2),
        NULL);
    h = json_object_get(mk.sent[1].content, "history");
    CHECK_INT(json_array_size(h), 1);
}

static void test_user_expressions(void)
{
    json_t *c = execute_content("ux = 20");
    json_object_set_new(c, "user_expressions", json_pack("{s:s, s:s}", "a", "ux * 2", "b", "nope"));
    run(&kernel, &mk, JP_SHELL, "execute_request", c, NULL);
    json_t *ue = json_object_get(mk.sent[2].content, "user_expressions");
    json_t *a = json_object_get(ue, "a"), *b = json_object_get(ue, "b");
    CHECK_STR(json_string_value(json_object_get(a, "status")), "ok");
    CHECK_STR(json_string_value(json_object_get(json_object_get(a, "data"), "text/plain")), "40");
    CHECK_STR(json_string_value(json_object_get(b, "status")), "error");
    CHECK_STR(json_string_value(json_object_get(b, "ename")), "NameError");
}

static void test_input(void)
{
    mk.stdin_value = "typed";
    run(&kernel, &mk, JP_SHELL, "execute_request", execute_content("print(input(\"name? \"))"),
        NULL);
    CHECK_STR(sequence(&mk), "busy execute_input input_request stream execute_reply idle");
    CHECK_INT(mk.sent[2].ch, JP_STDIN);
    CHECK(mk.sent[2].has_ids); /* routed to the client that sent the execute_request */
    CHECK_STR(json_string_value(json_object_get(mk.sent[2].content, "prompt")), "name? ");
    CHECK_STR(json_string_value(json_object_get(mk.sent[3].content, "text")), "typed\n");

    json_t *c = execute_content("input(\"x\")");
    json_object_set_new(c, "allow_stdin", json_false());
    run(&kernel, &mk, JP_SHELL, "execute_request", c, NULL);
    CHECK_STR(sequence(&mk), "busy execute_input error ABORT_QUEUED execute_reply idle");
    CHECK_STR(json_string_value(json_object_get(mk.sent[2].content, "ename")),
              "StdinNotImplementedError");
}

static void test_display(void)
{
    run(&kernel, &mk, JP_SHELL, "execute_request",
        execute_content("display(\"a\", display_id=\"d1\")\nupdate_display(\"b\", "
                        "display_id=\"d1\")\nclear_output(wait=true)\nhelp(print)"),
        NULL);
    CHECK_STR(
        sequence(&mk),
        "busy execute_input display_data update_display_data clear_output execute_reply idle");
    json_t *tr = json_object_get(mk.sent[2].content, "transient");
    CHECK_STR(json_string_value(json_object_get(tr, "display_id")), "d1");
    tr = json_object_get(mk.sent[3].content, "transient");
    CHECK_STR(json_string_value(json_object_get(tr, "display_id")), "d1");
    CHECK(json_is_true(json_object_get(mk.sent[4].content, "wait")));
    json_t *payload = json_object_get(mk.sent[5].content, "payload");
    CHECK_INT(json_array_size(payload), 1);
    CHECK_STR(json_string_value(json_object_get(json_array_get(payload, 0), "source")), "page");
}

static void test_kernel_info_and_misc(void)
{
    run(&kernel, &mk, JP_CONTROL, "kernel_info_request", json_object(), NULL);
    CHECK_STR(sequence(&mk), "busy kernel_info_reply idle");
    CHECK_INT(mk.sent[1].ch, JP_CONTROL);
    json_t *li = json_object_get(mk.sent[1].content, "language_info");
    CHECK_STR(json_string_value(json_object_get(li, "name")), "minitorch");
    CHECK_STR(json_string_value(json_object_get(li, "file_extension")), ".mt");
    CHECK_STR(json_string_value(json_object_get(mk.sent[1].content, "protocol_version")), "5.3");

    run(&kernel, &mk, JP_SHELL, "comm_info_request", json_object(), NULL);
    CHECK_STR(sequence(&mk), "busy comm_info_reply idle");
    CHECK_INT(json_object_size(json_object_get(mk.sent[1].content, "comms")), 0);

    run(&kernel, &mk, JP_SHELL, "comm_open",
        json_pack("{s:s, s:s, s:{}}", "comm_id", "c-1", "target_name", "x", "data"), NULL);
    CHECK_STR(sequence(&mk), "busy comm_close idle");
    CHECK_STR(json_string_value(json_object_get(mk.sent[1].content, "comm_id")), "c-1");

    run(&kernel, &mk, JP_SHELL, "no_such_request", json_object(), NULL);
    CHECK_STR(sequence(&mk), "busy idle");
    /* interrupt is a control message only: on shell it is answered with an error, and does
     * not interrupt; execute_request on control likewise */
    run(&kernel, &mk, JP_SHELL, "interrupt_request", json_object(), NULL);
    CHECK_STR(sequence(&mk), "busy interrupt_reply idle");
    CHECK_STR(json_string_value(json_object_get(mk.sent[1].content, "status")), "error");
    CHECK(!mt_cancel_requested());
    run(&kernel, &mk, JP_CONTROL, "execute_request", json_pack("{s:s}", "code", "x_ctl = 1"), NULL);
    CHECK_STR(sequence(&mk), "busy execute_reply idle");
    CHECK_STR(json_string_value(json_object_get(mk.sent[1].content, "status")), "error");
    run(&kernel, &mk, JP_CONTROL, "comm_info_request", json_object(), NULL);
    CHECK_STR(sequence(&mk), "busy comm_info_reply idle");
    run(&kernel, &mk, JP_CONTROL, "interrupt_request", json_object(), NULL);
    CHECK_STR(sequence(&mk), "busy interrupt_reply idle");
    CHECK(mt_cancel_requested());
    mt_cancel_clear();
}

static void test_complete_inspect_is_complete(void)
{
    /* cursor positions count code points: "é" is one */
    run(&kernel, &mk, JP_SHELL, "complete_request",
        json_pack("{s:s, s:i}", "code", "é = 1; pri", "cursor_pos", 10), NULL);
    CHECK_STR(sequence(&mk), "busy complete_reply idle");
    json_t *r = mk.sent[1].content;
    CHECK_INT(json_array_size(json_object_get(r, "matches")), 1);
    CHECK_STR(json_string_value(json_array_get(json_object_get(r, "matches"), 0)), "print");
    CHECK_INT(json_integer_value(json_object_get(r, "cursor_start")), 7);
    CHECK_INT(json_integer_value(json_object_get(r, "cursor_end")), 10);

    run(&kernel, &mk, JP_SHELL, "inspect_request",
        json_pack("{s:s, s:i, s:i}", "code", "print", "cursor_pos", 5, "detail_level", 0), NULL);
    r = mk.sent[1].content;
    CHECK(json_is_true(json_object_get(r, "found")));
    const char *doc = json_string_value(json_object_get(json_object_get(r, "data"), "text/plain"));
    CHECK(doc && strstr(doc, "print") != NULL);
    run(&kernel, &mk, JP_SHELL, "inspect_request",
        json_pack("{s:s, s:i}", "code", "zzz_unknown", "cursor_pos", 3), NULL);
    CHECK(json_is_false(json_object_get(mk.sent[1].content, "found")));

    run(&kernel, &mk, JP_SHELL, "is_complete_request", json_pack("{s:s}", "code", "x = (1 +"),
        NULL);
    CHECK_STR(json_string_value(json_object_get(mk.sent[1].content, "status")), "incomplete");
    run(&kernel, &mk, JP_SHELL, "is_complete_request",
        json_pack("{s:s}", "code", "for i in range(3):"), NULL);
    CHECK_STR(json_string_value(json_object_get(mk.sent[1].content, "indent")), "    ");
    run(&kernel, &mk, JP_SHELL, "is_complete_request", json_pack("{s:s}", "code", "1 + 2"), NULL);
    CHECK_STR(json_string_value(json_object_get(mk.sent[1].content, "status")), "complete");
    CHECK(json_object_get(mk.sent[1].content, "indent") == NULL);
}

static void test_shutdown(void)
{
    run(&kernel, &mk, JP_CONTROL, "shutdown_request", json_pack("{s:b}", "restart", 1), NULL);
    CHECK_STR(sequence(&mk), "busy shutdown_reply shutdown_reply idle");
    CHECK_INT(mk.sent[1].ch, JP_IOPUB);
    CHECK_INT(mk.sent[2].ch, JP_CONTROL);
    CHECK(json_is_true(json_object_get(mk.sent[2].content, "restart")));
    CHECK(atomic_load(&kernel.shutdown_requested));
    mt_cancel_clear();
}

int main(void)
{
    struct jp_outbox box = {&mk, mock_send, mock_recv_stdin, mock_abort_queued, NULL};
    if (jp_kernel_init(&kernel, box) != 0) return 1;
    RUN_TEST(test_execute_order);
    RUN_TEST(test_execute_error);
    RUN_TEST(test_silent_and_history);
    RUN_TEST(test_user_expressions);
    RUN_TEST(test_input);
    RUN_TEST(test_display);
    RUN_TEST(test_kernel_info_and_misc);
    RUN_TEST(test_complete_inspect_is_complete);
    RUN_TEST(test_shutdown);
    mock_reset(&mk);
    jp_kernel_destroy(&kernel);
    return TEST_SUMMARY();
}
