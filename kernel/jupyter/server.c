/* server.c — sockets and threads: the kernel's process model.
 *
 * Topology (xeus-zmq's "shell main" server, with IJulia's heartbeat):
 *
 *   main thread     shell ROUTER + stdin ROUTER; runs every shell request, so user code runs
 *                   here and may take minutes
 *   control thread  control ROUTER: kernel_info, shutdown, interrupt — answered while the shell
 *                   is busy
 *   iopub thread    owns the XPUB socket; forwards what the other threads push to
 *                   inproc://iopub and answers each subscription with iopub_welcome (JEP 65)
 *   heartbeat       zmq_proxy_steerable(hb, hb): echoes pings in C without ever taking a lock
 *   signal thread   sigtimedwait(): SIGINT raises the cancel flag, SIGTERM asks for shutdown;
 *                   once a second it checks that the JPY_PARENT_PID process is alive
 *
 * ZeroMQ sockets are not thread-safe, so each thread owns its sockets; every thread that
 * publishes has its own PUSH into the IOPub thread (thread-local). All signals are blocked
 * before the first thread starts (ZeroMQ's I/O threads included), so only the signal thread
 * ever receives them and no handler runs inside library code. Every thread is joined before
 * the process returns from main, so that no thread still signs or sends while the libraries'
 * exit-time cleanup runs. */
#include "jupyter/jupyter.h"

#include <errno.h>
#include <minitorch/minitorch.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>

#define POLL_MS 100      /* how often loops look at their stop flags */
#define LINGER_MS 1000   /* how long closing sockets keep trying to deliver replies */
#define IOPUB_HWM 100000 /* messages queued per IOPub subscriber before ZeroMQ drops */
#define MAX_FRAMES 4096  /* a message with more frames is dropped */
/* A port of the connection file still held by the process that had it last (a restart reuses
 * the file; a kernel exiting, or the frontend's port probe, lets go a moment later): a bind
 * refused as in use is tried again, every BIND_RETRY_MS up to BIND_RETRIES times, before the
 * kernel gives up. */
#define BIND_RETRIES 40
#define BIND_RETRY_MS 50
/* Largest frame ZeroMQ accepts from a peer (ZMQ_MAXMSGSIZE): larger, and it drops the peer's
 * connection before the frame is buffered. A request's source is at most JP_MAX_SOURCE_BYTES,
 * which JSON may escape to six times its size ("\u0001" for one byte): eight times leaves room
 * for that and the message around it. */
#define MAX_FRAME_BYTES ((int64_t)(8 * JP_MAX_SOURCE_BYTES))
/* Dropped messages are logged one by one up to this many, then as a count at most every
 * DROP_SUMMARY_NS: a flood of garbage must not fill the disk with one line per message. */
#define DROP_LOG_FIRST 20
#define DROP_SUMMARY_NS 10000000000LL
#define IOPUB_INPROC "inproc://iopub"
#define HB_CTRL_INPROC "inproc://heartbeat-control"

struct server {
    void *zctx;
    struct jp_connection conn;
    struct jp_signer *signer;
    struct jp_kernel kernel;
    void *sock[JP_CHANNEL_COUNT]; /* bound sockets; each used by one thread only */
    void *iopub_pull;             /* inproc PULL read by the IOPub thread */
    void *hb_ctrl;                /* inproc PAIR to stop the heartbeat proxy (main side) */
    void *hb_ctrl_peer;           /* its peer, used by the heartbeat thread */
    pthread_t control_thread, iopub_thread, hb_thread, signal_thread;
    bool control_started, iopub_started, hb_started, signal_started;
    atomic_bool stopping; /* tells the control and signal threads to return */
    pid_t parent_pid;     /* JPY_PARENT_PID, or 0 */
    struct held {         /* requests queued behind a failed execute (stop_on_error) */
        struct jp_message msg;
        bool abort; /* an execute_request: answer "aborted" without running */
    } * held;
    size_t nheld, held_cap;
};

/* The PUSH socket this thread publishes through (main and control each have one). */
static _Thread_local void *tls_iopub_push;

/* Dropped-message logging, shared by the shell, stdin and control threads. */
static pthread_mutex_t drop_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long long drops_logged, drops_unlogged;
static long long drops_summary_at; /* CLOCK_MONOTONIC ns of the last summary */

static long long monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Logs that a message on channel was dropped for why: the first DROP_LOG_FIRST one by one,
 * then a count of those not logged, at most every DROP_SUMMARY_NS. */
static void log_dropped(const char *channel, const char *why)
{
    pthread_mutex_lock(&drop_lock);
    long long now = monotonic_ns();
    if (drops_logged < DROP_LOG_FIRST) {
        drops_logged++;
        fprintf(stderr, "minitorch-kernel: dropped a message on %s: %s%s\n", channel, why,
                drops_logged == DROP_LOG_FIRST ? " (from now on dropped messages are counted)"
                                               : "");
        drops_summary_at = now;
    } else {
        drops_unlogged++;
        if (now - drops_summary_at >= DROP_SUMMARY_NS) {
            fprintf(stderr, "minitorch-kernel: %llu more messages dropped (the last on %s: %s)\n",
                    drops_unlogged, channel, why);
            drops_unlogged = 0;
            drops_summary_at = now;
        }
    }
    pthread_mutex_unlock(&drop_lock);
}

#define ZMQ_CHECK(call)                                                                            \
    ((call) == -1 ? (fprintf(stderr, "minitorch-kernel: %s:%d: %s failed: %s\n", __FILE__,         \
                             __LINE__, #call, zmq_strerror(zmq_errno())),                          \
                     -1)                                                                           \
                  : 0)

/* ---------------------------------------------------------------------------------------- */
/* Sending and receiving multipart messages                                                   */

/* Sends frames (plus a leading topic frame when topic is not NULL) as one multipart message.
 * Every frame is copied into a ZeroMQ message before the first is sent: a multipart message
 * that stopped halfway (a copy failing when memory runs out) would take the next message's
 * frames as its own, and the client would read frames shifted under a signature that no longer
 * matches them. Built in advance, the message goes out whole or not at all. */
#define SMALL_FRAMES 16
static int send_frames(void *sock, const char *topic, const struct jp_frame *frames, size_t n)
{
    size_t first = topic ? 1 : 0, total = n + first, built = 0, sent = 0;
    zmq_msg_t small[SMALL_FRAMES];
    zmq_msg_t *m = total <= SMALL_FRAMES ? small : malloc(total * sizeof *m);
    int rc = -1;
    if (!m) goto done;
    for (; built < total; built++) {
        const void *data = built < first ? (const void *)topic : frames[built - first].data;
        size_t len = built < first ? strlen(topic) : frames[built - first].len;
        if (zmq_msg_init_size(&m[built], len) != 0) goto done;
        if (len) memcpy(zmq_msg_data(&m[built]), data, len);
    }
    /* a built message moves into the socket's queue without a copy, so what can refuse one is
     * the socket itself, and that it does at the first frame */
    for (; sent < total; sent++)
        if (zmq_msg_send(&m[sent], sock, sent + 1 < total ? ZMQ_SNDMORE : 0) == -1) break;
    rc = sent == total ? 0 : -1;
done:
    for (size_t i = sent; m && i < built; i++) zmq_msg_close(&m[i]);
    if (m != small) free(m);
    if (rc != 0)
        fprintf(stderr, "minitorch-kernel: sending a message failed: %s\n",
                zmq_strerror(zmq_errno()));
    return rc;
}

static int send_message(struct server *s, void *sock, bool iopub, const struct jp_message *msg)
{
    struct jp_frame *frames;
    long n = jp_wire_encode(msg, s->signer, &frames);
    if (n < 0 && jp_reserve_release()) n = jp_wire_encode(msg, s->signer, &frames);
    if (n < 0) {
        fprintf(stderr, "minitorch-kernel: could not encode a %s message\n", jp_message_type(msg));
        return -1;
    }
    /* IOPub messages carry a topic as their identity, as ipykernel's do ("kernel.ID.TYPE"). */
    char topic[128];
    if (iopub)
        snprintf(topic, sizeof topic, "kernel.%s.%s", s->kernel.session, jp_message_type(msg));
    int rc = send_frames(sock, iopub ? topic : NULL, frames, (size_t)n);
    jp_frames_free(frames, (size_t)n);
    return rc;
}

/* Receives one multipart message (all of it, even when it is dropped). Returns 1 and fills *msg
 * with a verified, decoded message; 0 when the message was malformed or forged (logged);
 * -1 when nothing could be received. */
static int recv_message(struct server *s, void *sock, const char *channel, struct jp_message *msg)
{
    zmq_msg_t parts[64];
    zmq_msg_t *v = parts;
    size_t n = 0, cap = 64;
    int more = 1, rc = -1;
    bool too_many = false;
    while (more) {
        if (n == cap) {
            if (cap >= MAX_FRAMES) {
                /* keep draining the message's frames, but do not store them */
                too_many = true;
                zmq_msg_t skip;
                zmq_msg_init(&skip);
                if (zmq_msg_recv(&skip, sock, 0) == -1) {
                    zmq_msg_close(&skip);
                    goto out;
                }
                more = zmq_msg_more(&skip);
                zmq_msg_close(&skip);
                continue;
            }
            zmq_msg_t *bigger = malloc(2 * cap * sizeof *bigger);
            if (!bigger) goto out;
            memcpy(bigger, v, n * sizeof *v);
            if (v != parts) free(v);
            v = bigger;
            cap *= 2;
        }
        zmq_msg_init(&v[n]);
        if (zmq_msg_recv(&v[n], sock, 0) == -1) {
            zmq_msg_close(&v[n]);
            goto out;
        }
        more = zmq_msg_more(&v[n]);
        n++;
    }
    rc = 0;
    if (too_many) {
        char why[64];
        snprintf(why, sizeof why, "more than %d frames", MAX_FRAMES);
        log_dropped(channel, why);
        goto out;
    }
    struct jp_bytes *views = malloc(n * sizeof *views);
    if (!views) goto out;
    for (size_t i = 0; i < n; i++)
        views[i] = (struct jp_bytes){zmq_msg_data(&v[i]), zmq_msg_size(&v[i])};
    enum jp_wire_status st = jp_wire_decode(views, n, s->signer, msg);
    free(views);
    if (st == JP_WIRE_OK)
        rc = 1;
    else
        log_dropped(channel, jp_wire_status_str(st));
out:
    for (size_t i = 0; i < n; i++) zmq_msg_close(&v[i]);
    if (v != parts) free(v);
    return rc;
}

/* ---------------------------------------------------------------------------------------- */
/* The outbox handlers write to                                                               */

static int outbox_send(void *ctx, enum jp_channel ch, const struct jp_message *msg)
{
    struct server *s = ctx;
    if (ch == JP_IOPUB) {
        if (!tls_iopub_push) return -1; /* a thread without a publisher: a programming error */
        return send_message(s, tls_iopub_push, true, msg);
    }
    return send_message(s, s->sock[ch], false, msg);
}

static void outbox_discard_stdin(void *ctx)
{
    struct server *s = ctx;
    for (;;) {
        zmq_pollitem_t item = {s->sock[JP_STDIN], 0, ZMQ_POLLIN, 0};
        if (zmq_poll(&item, 1, 0) <= 0) return;
        struct jp_message stale;
        int got = recv_message(s, s->sock[JP_STDIN], "stdin", &stale);
        if (got < 0) return;
        if (got == 1) {
            fprintf(stderr, "minitorch-kernel: discarded a stale %s on stdin\n",
                    jp_message_type(&stale));
            jp_message_clear(&stale);
        }
    }
}

static int outbox_recv_stdin(void *ctx, const char *request_id, struct jp_message *reply)
{
    struct server *s = ctx;
    for (;;) {
        if (mt_cancel_requested() || atomic_load(&s->kernel.shutdown_requested)) return -1;
        zmq_pollitem_t item = {s->sock[JP_STDIN], 0, ZMQ_POLLIN, 0};
        int rc = zmq_poll(&item, 1, 10); /* 10 ms: an interrupt ends the wait promptly */
        if (rc < 0) return -1;
        if (rc == 0) continue;
        int got = recv_message(s, s->sock[JP_STDIN], "stdin", reply);
        if (got < 0) return -1;
        if (got == 0) continue;
        /* jupyter_client's input() sends no parent_header: such a reply is taken (stale ones
         * were discarded before the request went out); one that names a parent must name this
         * request */
        json_t *parent = json_object_get(reply->parent_header, "msg_id");
        if (strcmp(jp_message_type(reply), "input_reply") == 0 &&
            (!parent ||
             (jp_json_cstring(parent) && strcmp(json_string_value(parent), request_id) == 0)))
            return 0;
        fprintf(stderr, "minitorch-kernel: ignoring %s on stdin (not the reply to %s)\n",
                jp_message_type(reply), request_id);
        jp_message_clear(reply);
    }
}

/* ---------------------------------------------------------------------------------------- */
/* Threads                                                                                    */

static void *control_main(void *arg)
{
    struct server *s = arg;
    tls_iopub_push = zmq_socket(s->zctx, ZMQ_PUSH);
    if (!tls_iopub_push || ZMQ_CHECK(zmq_connect(tls_iopub_push, IOPUB_INPROC))) {
        /* without a publisher this thread cannot answer; close what it has so that
         * zmq_ctx_term does not wait for it, and let the shell go on alone */
        if (tls_iopub_push) zmq_close(tls_iopub_push);
        tls_iopub_push = NULL;
        return NULL;
    }
    int linger = LINGER_MS;
    zmq_setsockopt(tls_iopub_push, ZMQ_LINGER, &linger, sizeof linger);
    while (!atomic_load(&s->stopping)) {
        zmq_pollitem_t item = {s->sock[JP_CONTROL], 0, ZMQ_POLLIN, 0};
        int rc = zmq_poll(&item, 1, POLL_MS);
        if (rc < 0) {
            if (zmq_errno() == ETERM) break;
            continue;
        }
        if (rc == 0) continue;
        struct jp_message req;
        if (recv_message(s, s->sock[JP_CONTROL], "control", &req) == 1) {
            jp_kernel_dispatch(&s->kernel, JP_CONTROL, &req);
            jp_message_clear(&req);
            jp_reserve_restore();
        }
    }
    zmq_close(tls_iopub_push);
    tls_iopub_push = NULL;
    return NULL;
}

/* Answers a subscription on the XPUB socket with iopub_welcome (JEP 65), so a client knows its
 * subscription is live before it sends its first request. */
static void send_welcome(struct server *s, const unsigned char *sub, size_t len)
{
    struct jp_message msg;
    json_t *content = json_pack("{s:s%}", "subscription", (const char *)sub, len);
    if (!content || jp_message_init(&msg, "iopub_welcome", NULL, content, s->kernel.session, false))
        return;
    struct jp_frame *frames;
    long n = jp_wire_encode(&msg, s->signer, &frames);
    if (n >= 0) {
        /* the topic is the subscription itself, so the subscriber's filter lets it through */
        if (zmq_send(s->sock[JP_IOPUB], sub, len, ZMQ_SNDMORE) != -1)
            send_frames(s->sock[JP_IOPUB], NULL, frames, (size_t)n);
        jp_frames_free(frames, (size_t)n);
    }
    jp_message_clear(&msg);
}

/* Moves one multipart message from the PULL socket to the XPUB socket. Returns 1 if it was the
 * stop sentinel (a single empty frame), 0 otherwise, -1 on error. */
static int forward_one(struct server *s, int flags)
{
    void *xpub = s->sock[JP_IOPUB];
    int more = 1, first = 1, stop = 0;
    while (more) {
        zmq_msg_t m;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, s->iopub_pull, first ? flags : 0) == -1) {
            zmq_msg_close(&m);
            return -1;
        }
        more = zmq_msg_more(&m);
        if (first && !more && zmq_msg_size(&m) == 0) {
            stop = 1;
            zmq_msg_close(&m);
            break;
        }
        if (zmq_msg_send(&m, xpub, more ? ZMQ_SNDMORE : 0) == -1) zmq_msg_close(&m);
        first = 0;
    }
    return stop;
}

static void *iopub_main(void *arg)
{
    struct server *s = arg;
    for (;;) {
        zmq_pollitem_t items[2] = {
            {s->iopub_pull, 0, ZMQ_POLLIN, 0},
            {s->sock[JP_IOPUB], 0, ZMQ_POLLIN, 0},
        };
        if (zmq_poll(items, 2, -1) < 0) {
            if (zmq_errno() == ETERM) break;
            continue;
        }
        if (items[1].revents & ZMQ_POLLIN) {
            zmq_msg_t sub;
            zmq_msg_init(&sub);
            if (zmq_msg_recv(&sub, s->sock[JP_IOPUB], ZMQ_DONTWAIT) >= 0) {
                const unsigned char *d = zmq_msg_data(&sub);
                if (zmq_msg_size(&sub) >= 1 && d[0] == 1)
                    send_welcome(s, d + 1, zmq_msg_size(&sub) - 1);
            }
            zmq_msg_close(&sub);
        }
        if ((items[0].revents & ZMQ_POLLIN) && forward_one(s, ZMQ_DONTWAIT) == 1) {
            /* Stop: first forward what the other publishers queued before they closed. */
            while (forward_one(s, ZMQ_DONTWAIT) >= 0) {}
            break;
        }
    }
    return NULL;
}

static void *heartbeat_main(void *arg)
{
    struct server *s = arg;
    /* Echoes every ping back to its sender until "TERMINATE" arrives on the control pair. */
    zmq_proxy_steerable(s->sock[JP_HEARTBEAT], s->sock[JP_HEARTBEAT], NULL, s->hb_ctrl_peer);
    return NULL;
}

static bool parent_alive(pid_t pid)
{
    if (kill(pid, 0) == -1 && errno == ESRCH) return false;
    /* A parent that died but was not reaped yet is a zombie: treat it as gone. */
    char path[64], buf[256];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return true;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *close_paren = strrchr(buf, ')');
    return !(close_paren && close_paren[1] == ' ' && close_paren[2] == 'Z');
}

/* Takes SIGINT (raise the cancel flag) and SIGTERM (shut down), and once a second checks that
 * the parent named by JPY_PARENT_PID is alive: here rather than in the shell loop, so that a
 * kernel whose frontend died also stops while a cell runs. Returns on SIGUSR1 at exit. */
static void *signal_main(void *arg)
{
    struct server *s = arg;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGUSR1);
    for (;;) {
        struct timespec second = {1, 0};
        int sig = sigtimedwait(&set, NULL, &second);
        if (sig == SIGINT) {
            mt_cancel_request();
        } else if (sig == SIGTERM) {
            atomic_store(&s->kernel.shutdown_requested, true);
            mt_cancel_request();
        } else if (sig < 0 && errno == EAGAIN && s->parent_pid > 0 &&
                   !atomic_load(&s->kernel.shutdown_requested) && !parent_alive(s->parent_pid)) {
            fprintf(stderr, "minitorch-kernel: parent process %d exited; shutting down\n",
                    (int)s->parent_pid);
            atomic_store(&s->kernel.shutdown_requested, true);
            mt_cancel_request();
        }
        if (atomic_load(&s->stopping)) return NULL; /* SIGUSR1 from the main thread at exit */
    }
}

/* ---------------------------------------------------------------------------------------- */
/* Set-up and tear-down                                                                       */

static int bind_sockets(struct server *s)
{
    static const int types[JP_CHANNEL_COUNT] = {
        [JP_SHELL] = ZMQ_ROUTER, [JP_CONTROL] = ZMQ_ROUTER,   [JP_STDIN] = ZMQ_ROUTER,
        [JP_IOPUB] = ZMQ_XPUB,   [JP_HEARTBEAT] = ZMQ_ROUTER,
    };
    int linger = LINGER_MS, one = 1;
    for (int ch = 0; ch < JP_CHANNEL_COUNT; ch++) {
        char endpoint[320];
        s->sock[ch] = zmq_socket(s->zctx, types[ch]);
        if (!s->sock[ch] || jp_connection_endpoint(&s->conn, ch, endpoint, sizeof endpoint)) {
            fprintf(stderr, "minitorch-kernel: cannot create the %s socket\n",
                    jp_channel_port_key(ch));
            return -1;
        }
        zmq_setsockopt(s->sock[ch], ZMQ_LINGER, &linger, sizeof linger);
        int64_t max_frame = MAX_FRAME_BYTES;
        zmq_setsockopt(s->sock[ch], ZMQ_MAXMSGSIZE, &max_frame, sizeof max_frame);
        if (types[ch] == ZMQ_ROUTER && ch != JP_HEARTBEAT)
            /* a frontend that reconnects with the same identity takes over its old route */
            zmq_setsockopt(s->sock[ch], ZMQ_ROUTER_HANDOVER, &one, sizeof one);
        if (ch == JP_IOPUB) {
            /* pass every subscription up, even repeated ones, so each gets a welcome */
            zmq_setsockopt(s->sock[ch], ZMQ_XPUB_VERBOSE, &one, sizeof one);
            /* XPUB drops messages for a subscriber past its high-water mark, idle included,
             * and a frontend that misses an idle waits forever. Streams are coalesced, but a
             * cell may still publish thousands of displays faster than a browser reads them:
             * queue up to IOPUB_HWM messages per subscriber instead of ZeroMQ's 1000. */
            int hwm = IOPUB_HWM;
            zmq_setsockopt(s->sock[ch], ZMQ_SNDHWM, &hwm, sizeof hwm);
        }
        for (int tries = 0; zmq_bind(s->sock[ch], endpoint) == -1; tries++) {
            if (zmq_errno() != EADDRINUSE || tries == BIND_RETRIES) {
                fprintf(stderr, "minitorch-kernel: cannot bind %s (%s): %s\n", endpoint,
                        jp_channel_port_key(ch), zmq_strerror(zmq_errno()));
                return -1;
            }
            nanosleep(&(struct timespec){.tv_nsec = BIND_RETRY_MS * 1000000L}, NULL);
        }
    }
    s->iopub_pull = zmq_socket(s->zctx, ZMQ_PULL);
    s->hb_ctrl_peer = zmq_socket(s->zctx, ZMQ_PAIR);
    s->hb_ctrl = zmq_socket(s->zctx, ZMQ_PAIR);
    tls_iopub_push = zmq_socket(s->zctx, ZMQ_PUSH);
    if (!s->iopub_pull || !s->hb_ctrl_peer || !s->hb_ctrl || !tls_iopub_push ||
        ZMQ_CHECK(zmq_bind(s->iopub_pull, IOPUB_INPROC)) ||
        ZMQ_CHECK(zmq_bind(s->hb_ctrl_peer, HB_CTRL_INPROC)) ||
        ZMQ_CHECK(zmq_connect(s->hb_ctrl, HB_CTRL_INPROC)) ||
        ZMQ_CHECK(zmq_connect(tls_iopub_push, IOPUB_INPROC)))
        return -1;
    zmq_setsockopt(tls_iopub_push, ZMQ_LINGER, &linger, sizeof linger);
    return 0;
}

static void close_sockets(struct server *s)
{
    for (int ch = 0; ch < JP_CHANNEL_COUNT; ch++)
        if (s->sock[ch]) zmq_close(s->sock[ch]);
    void *others[] = {s->iopub_pull, s->hb_ctrl, s->hb_ctrl_peer, tls_iopub_push};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        if (others[i]) zmq_close(others[i]);
    tls_iopub_push = NULL;
}

/* Stops and joins every thread that was started, in an order that lets each flush. */
static void stop_threads(struct server *s)
{
    atomic_store(&s->stopping, true);
    if (s->control_started) pthread_join(s->control_thread, NULL);
    if (s->iopub_started) {
        zmq_send(tls_iopub_push, "", 0, 0); /* the stop sentinel, after everything we sent */
        pthread_join(s->iopub_thread, NULL);
    }
    if (s->hb_started) {
        zmq_send(s->hb_ctrl, "TERMINATE", 9, 0);
        pthread_join(s->hb_thread, NULL);
    }
    if (s->signal_started) {
        pthread_kill(s->signal_thread, SIGUSR1);
        pthread_join(s->signal_thread, NULL);
    }
}

/* Called when an execute failed with stop_on_error, before its reply: takes every request
 * already queued on shell into s->held, so that the shell loop answers the execute requests
 * among them with status "aborted" (and handles the others) after the failed request's idle.
 * Messages that arrive later run normally. As in ipykernel 7, busy/idle of different requests
 * never nest. */
static void outbox_abort_queued(void *ctx)
{
    struct server *s = ctx;
    for (;;) {
        zmq_pollitem_t item = {s->sock[JP_SHELL], 0, ZMQ_POLLIN, 0};
        if (zmq_poll(&item, 1, 0) <= 0) break;
        struct jp_message req;
        if (recv_message(s, s->sock[JP_SHELL], "shell", &req) != 1) continue;
        if (s->nheld == s->held_cap) {
            size_t cap = s->held_cap ? 2 * s->held_cap : 8;
            struct held *bigger = realloc(s->held, cap * sizeof *bigger);
            if (!bigger) { /* out of memory: answer it now rather than lose it */
                jp_kernel_abort_request(&s->kernel, JP_SHELL, &req);
                jp_message_clear(&req);
                continue;
            }
            s->held = bigger;
            s->held_cap = cap;
        }
        s->held[s->nheld].msg = req;
        s->held[s->nheld].abort = strcmp(jp_message_type(&req), "execute_request") == 0;
        s->nheld++;
    }
}

/* Handles the requests taken by outbox_abort_queued, oldest first. */
static void handle_held(struct server *s)
{
    /* A held request may fail again and hold more; take the list first so none is skipped. */
    while (s->nheld > 0) {
        struct held *list = s->held;
        size_t n = s->nheld;
        s->held = NULL;
        s->nheld = s->held_cap = 0;
        for (size_t i = 0; i < n; i++) {
            if (list[i].abort)
                jp_kernel_abort_request(&s->kernel, JP_SHELL, &list[i].msg);
            else
                jp_kernel_dispatch(&s->kernel, JP_SHELL, &list[i].msg);
            jp_message_clear(&list[i].msg);
        }
        free(list);
    }
}

static void shell_loop(struct server *s)
{
    while (!atomic_load(&s->kernel.shutdown_requested)) {
        zmq_pollitem_t item = {s->sock[JP_SHELL], 0, ZMQ_POLLIN, 0};
        int rc = zmq_poll(&item, 1, POLL_MS);
        if (rc > 0) {
            struct jp_message req;
            if (recv_message(s, s->sock[JP_SHELL], "shell", &req) == 1) {
                jp_kernel_dispatch(&s->kernel, JP_SHELL, &req);
                jp_message_clear(&req);
                handle_held(s);
                jp_reserve_restore();
            }
        } else if (rc < 0 && zmq_errno() != EINTR) {
            fprintf(stderr, "minitorch-kernel: polling shell failed: %s\n",
                    zmq_strerror(zmq_errno()));
            break;
        }
    }
}

int jp_server_run(const char *connection_file)
{
    struct server *s = calloc(1, sizeof *s);
    if (!s) return 1;
    atomic_init(&s->stopping, false);
    char err[512];
    int status = 1;
    if (jp_connection_load(connection_file, &s->conn, err, sizeof err) != 0) {
        fprintf(stderr, "minitorch-kernel: %s\n", err);
        free(s);
        return 1;
    }
    const char *ppid = getenv("JPY_PARENT_PID");
    if (ppid) s->parent_pid = (pid_t)strtol(ppid, NULL, 10);

    /* A frontend that closed the pipe our stderr (or a log) goes to must not kill the kernel
     * with SIGPIPE at the next line logged: ignored process-wide, before any thread starts, a
     * write to it fails with EPIPE instead. */
    signal(SIGPIPE, SIG_IGN);
    jp_json_alloc_init(malloc);

    /* Block the signals we wait for in this thread and, by inheritance, in every thread
     * created from here on (ZeroMQ's included); the signal thread takes them with sigwait. */
    sigset_t set, old;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &set, &old);

    s->signer = jp_signer_new(s->conn.key, s->conn.key_len);
    s->zctx = zmq_ctx_new();
    struct jp_outbox outbox = {s, outbox_send, outbox_recv_stdin, outbox_abort_queued,
                               outbox_discard_stdin};
    if (!s->signer || !s->zctx || jp_kernel_init(&s->kernel, outbox) != 0) {
        fprintf(stderr, "minitorch-kernel: out of memory at start-up\n");
        goto done;
    }
    if (bind_sockets(s) != 0) goto done;
    jp_reserve_restore();

    s->signal_started = pthread_create(&s->signal_thread, NULL, signal_main, s) == 0;
    s->iopub_started = pthread_create(&s->iopub_thread, NULL, iopub_main, s) == 0;
    s->hb_started = pthread_create(&s->hb_thread, NULL, heartbeat_main, s) == 0;
    s->control_started = pthread_create(&s->control_thread, NULL, control_main, s) == 0;
    if (!s->signal_started || !s->iopub_started || !s->hb_started || !s->control_started) {
        fprintf(stderr, "minitorch-kernel: cannot start threads: %s\n", strerror(errno));
        goto done;
    }

    jp_kernel_publish(&s->kernel, NULL, "status",
                      json_pack("{s:s}", "execution_state", "starting"));
    shell_loop(s);
    status = 0;
done:
    stop_threads(s);
    close_sockets(s);
    if (s->zctx) zmq_ctx_term(s->zctx);
    for (size_t i = 0; i < s->nheld; i++) jp_message_clear(&s->held[i].msg);
    free(s->held);
    if (s->kernel.dsl) jp_kernel_destroy(&s->kernel);
    jp_signer_free(s->signer);
    jp_connection_clear(&s->conn);
    free(s);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return status;
}
