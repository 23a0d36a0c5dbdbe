/* jupyter.h — the public API of the Jupyter protocol layer (kernel/jupyter).
 *
 * Only this layer touches ZeroMQ. It is built from parts that can be tested without sockets:
 *
 *   connection.c  the connection file (transport, ip, five ports, key, signature scheme)
 *   hmac.c        HMAC-SHA256 signing and constant-time verification (libsodium)
 *   wire.c        a multipart message <-> struct jp_message (identities, delimiter, signature,
 *                 header, parent_header, metadata, content, buffers)
 *   message.c     new messages: headers, ids, dates, replies to a parent
 *   history.c     the in-memory input history (tail, range, search)
 *   handlers.c    message type -> handler table; every reply and IOPub message goes to an
 *                 outbox (struct jp_outbox), so tests drive handlers with a mock outbox
 *   server.c      sockets and threads: shell on the calling thread, control, heartbeat, IOPub
 *                 publisher and signal threads; the real outbox
 *
 * Message flow for one request (Jupyter messaging 5.3): the server receives a multipart
 * message, jp_wire_decode() checks its signature and parses it, jp_kernel_dispatch() publishes
 * `busy`, runs the handler (which publishes outputs and sends the reply through the outbox)
 * and publishes `idle`.
 */
#ifndef KERNEL_JUPYTER_JUPYTER_H
#define KERNEL_JUPYTER_JUPYTER_H

#include <jansson.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lang/dsl.h"

#define JP_PROTOCOL_VERSION "5.3"
#define JP_DELIMITER "<IDS|MSG>"
/* The largest source a request may carry for parsing (execute code, user expressions,
 * complete, inspect, is_complete): parsing holds tokens and syntax-tree nodes many times the
 * size of the source, so an unbounded cell (a pasted data file) could exhaust memory while
 * being parsed. Past it: an error reply. */
#define JP_MAX_SOURCE_BYTES ((size_t)4 << 20)

/* ---------------------------------------------------------------------------------------- */
/* Channels and the connection file                                                           */

enum jp_channel { JP_SHELL, JP_CONTROL, JP_STDIN, JP_IOPUB, JP_HEARTBEAT, JP_CHANNEL_COUNT };

/* The connection-file key for a channel's port ("shell_port", ...). Static storage. */
const char *jp_channel_port_key(enum jp_channel ch);

struct jp_connection {
    char transport[8];           /* "tcp" or "ipc" */
    char ip[256];                /* tcp: address to bind; ipc: path prefix */
    int ports[JP_CHANNEL_COUNT]; /* tcp port, or ipc suffix (path is "ip-port") */
    unsigned char *key;          /* HMAC key bytes (malloc'd; NULL when empty) */
    size_t key_len;              /* 0: signing disabled */
    char signature_scheme[32];   /* "hmac-sha256" (the only scheme supported) */
    char kernel_name[128];       /* informational, may be empty */
};

/* Parses a connection file's JSON text. Returns 0, or -1 with a one-line reason in err (which
 * names the offending field). On success the caller owns c and frees it with
 * jp_connection_clear(). */
int jp_connection_parse(const char *text, size_t len, struct jp_connection *c, char *err,
                        size_t errlen);

/* Reads and parses the file at path; errors as jp_connection_parse (plus I/O errors). */
int jp_connection_load(const char *path, struct jp_connection *c, char *err, size_t errlen);

void jp_connection_clear(struct jp_connection *c);

/* Writes the ZeroMQ endpoint of a channel: "tcp://IP:PORT" or "ipc://IP-PORT". Returns 0, or
 * -1 when buf is too small. */
int jp_connection_endpoint(const struct jp_connection *c, enum jp_channel ch, char *buf, size_t n);

/* ---------------------------------------------------------------------------------------- */
/* HMAC-SHA256                                                                                */

/* A read-only view of bytes. */
struct jp_bytes {
    const void *data;
    size_t len;
};

/* HMAC-SHA256 of the concatenation of parts under key, into out (32 bytes). Returns 0, or -1
 * if libsodium cannot be initialised (reported on stderr). Thread-safe. */
int jp_hmac_sha256(const void *key, size_t key_len, const struct jp_bytes *parts, size_t nparts,
                   unsigned char out[32]);

struct jp_signer; /* a key absorbed into a prepared MAC state; thread-safe */

/* A signer for key (copied). key_len 0 disables signing: signatures are "" and every message
 * is accepted. Returns NULL when out of memory, or when libsodium cannot be initialised
 * (reported on stderr). */
struct jp_signer *jp_signer_new(const void *key, size_t key_len);
void jp_signer_free(struct jp_signer *s);
bool jp_signer_enabled(const struct jp_signer *s);

/* Signs the four JSON frames (header, parent_header, metadata, content) as lower-case hex
 * into hex (65 bytes, NUL-terminated; "" when disabled). Returns 0 or -1. */
int jp_signer_sign(struct jp_signer *s, const struct jp_bytes parts[4], char hex[65]);

/* True when sig (not NUL-terminated, siglen bytes) is the signature of parts. The comparison
 * takes the same time wherever the first difference is. Always true when disabled. */
bool jp_signer_verify(struct jp_signer *s, const struct jp_bytes parts[4], const void *sig,
                      size_t siglen);

/* The replay guard, for a verified message's signature: true when the same signature came
 * among the last 8,192 messages (the message is a replay: drop it); otherwise remembers it and
 * returns false. Always false when signing is disabled. Thread-safe. */
bool jp_signer_replayed(struct jp_signer *s, const void *sig, size_t siglen);

/* ---------------------------------------------------------------------------------------- */
/* Messages and the wire format                                                               */

/* One owned frame (identities, buffers). */
struct jp_frame {
    unsigned char *data;
    size_t len;
};

struct jp_message {
    struct jp_frame *ids; /* routing identities before the delimiter (owned) */
    size_t nids;
    json_t *header; /* owned references; never NULL in a decoded or new message */
    json_t *parent_header;
    json_t *metadata;
    json_t *content;
    struct jp_frame *buffers; /* binary buffers after content (owned) */
    size_t nbuffers;
    /* NULL, or why a signed message with a usable header cannot be used (static text: "content
     * is not a JSON object"); such a frame is {} here, and the request gets an error reply. */
    const char *unusable;
    bool unusable_oom; /* unusable because reading it ran out of memory: a MemoryError reply */
};

enum jp_wire_status {
    JP_WIRE_OK,
    JP_WIRE_NO_DELIMITER,   /* no "<IDS|MSG>" frame */
    JP_WIRE_TOO_FEW_FRAMES, /* fewer than signature + 4 frames after the delimiter */
    JP_WIRE_BAD_SIGNATURE,  /* HMAC mismatch */
    JP_WIRE_BAD_JSON,       /* the header frame is not a JSON object */
    JP_WIRE_BAD_HEADER,     /* header lacks msg_id/msg_type strings, or msg_type holds a NUL */
    JP_WIRE_REPLAYED,       /* a signature seen before: the message was sent again */
    JP_WIRE_NO_MEMORY, /* out of memory decoding it (its header, even with the reserve freed) */
    JP_WIRE_STATUS_COUNT
};

/* A short description of a status ("bad signature", ...). Static storage. */
const char *jp_wire_status_str(enum jp_wire_status st);

/* Decodes the frames of one multipart message. The signature is checked before any JSON is
 * parsed; strings may hold U+0000 (see jp_json_cstring). On JP_WIRE_OK *out is filled and owned
 * by the caller (jp_message_clear); out->unusable is set when the parent_header, metadata or
 * content frame is not a JSON object (the request is to be answered with an error). On any
 * other status *out is left empty. */
enum jp_wire_status jp_wire_decode(const struct jp_bytes *frames, size_t nframes,
                                   struct jp_signer *signer, struct jp_message *out);

/* The text of a JSON string as a C string, or NULL when v is not a string or holds a NUL
 * (U+0000), which a C string would silently cut short. Borrowed. */
const char *jp_json_cstring(const json_t *v);

/* Encodes msg into frames: ids, delimiter, signature, 4 JSON frames, buffers. Returns the frame
 * count and a malloc'd array of malloc'd frames in *frames (free with jp_frames_free), or -1 on
 * failure. */
long jp_wire_encode(const struct jp_message *msg, struct jp_signer *signer,
                    struct jp_frame **frames);
void jp_frames_free(struct jp_frame *frames, size_t n);

/* Sets *f to an owned copy of len bytes. Returns 0, or -1 (f left empty) when out of memory. */
int jp_frame_set(struct jp_frame *f, const void *data, size_t len);

/* Frees everything msg owns and zeroes it. Safe on a zeroed message. */
void jp_message_clear(struct jp_message *msg);

/* A new message of msg_type whose parent is parent (may be NULL), for session. content is
 * stolen (NULL means {}). When with_ids, the parent's identities are copied (replies on
 * shell/control/stdin go back to the sender). Returns 0 or -1 on out of memory. */
int jp_message_init(struct jp_message *msg, const char *msg_type, const struct jp_message *parent,
                    json_t *content, const char *session, bool with_ids);

/* A reserve of address space for the message path (16 MiB, process-wide, thread-safe): when
 * building or encoding a message fails for want of memory (a cell filled the address space),
 * release unmaps it (true if it was held) and the caller tries once more, so that busy, the error
 * reply and idle still go out. check releases it at once where less than its size is left, as
 * after a cell that filled the address space: ZeroMQ's own threads need memory too, and abort
 * the process when they get none. restore takes it again (the server does after each request),
 * only where as much again stays free. */
bool jp_reserve_release(void);
void jp_reserve_check(void);
void jp_reserve_restore(void);

/* jansson's allocations go through `under` (malloc in the kernel), and each thread notes when
 * one failed: jansson reports a failed allocation while parsing as a syntax error, or not at all
 * (a member left out), so the decoder asks jp_json_alloc_failed instead. Not thread-safe with
 * JSON in use: call before the threads start. */
void jp_json_alloc_init(void *(*under)(size_t));
/* Whether an allocation of jansson's failed on this thread since the last call. */
bool jp_json_alloc_failed(void);

/* The header's msg_type ("" if absent). Borrowed. */
const char *jp_message_type(const struct jp_message *msg);

/* A fresh random UUID4 string into buf (37 bytes). */
void jp_uuid4(char buf[37]);

/* The current time as ISO 8601 with microseconds in UTC ("YYYY-MM-DDThh:mm:ss.ffffffZ"). */
void jp_iso8601_now(char buf[32]);

/* ---------------------------------------------------------------------------------------- */
/* History (in memory, like xeus's)                                                           */

/* An input longer than this is kept as its first JP_HISTORY_MAX_INPUT bytes (cut at a UTF-8
 * boundary) and a comment line saying how long it was. */
#define JP_HISTORY_MAX_INPUT ((size_t)1 << 20)

struct jp_history;
/* A history that keeps at most max_entries inputs and max_bytes of memory for their text
 * (raised to hold at least one input of JP_HISTORY_MAX_INPUT); past either, the oldest go. */
struct jp_history *jp_history_new(size_t max_entries, size_t max_bytes);
void jp_history_free(struct jp_history *h);
/* Forgets every input and frees their memory (%reset). */
void jp_history_clear(struct jp_history *h);
/* The bytes of memory held for the inputs' text. */
size_t jp_history_bytes(const struct jp_history *h);
/* Records input (len bytes, which may hold NUL) of execution_count line (session 1: this
 * kernel's run). Returns 0, or -1 when out of memory (the input is not recorded). */
int jp_history_append(struct jp_history *h, long line, const char *input, size_t len);
/* Builds the history_reply "history" array: [[session, line, input], ...] (or with output:
 * [session, line, [input, null]]) for a history_request's content. */
json_t *jp_history_query(const struct jp_history *h, const json_t *request);

/* ---------------------------------------------------------------------------------------- */
/* The kernel: state and message handlers, independent of sockets                             */

/* Where handlers send messages. The server implements it with sockets; tests with arrays. */
struct jp_outbox {
    void *ctx;
    /* sends msg on channel (JP_SHELL, JP_CONTROL, JP_STDIN or JP_IOPUB); msg stays the
     * caller's. Returns 0, or -1 when it could not be sent (logged). Must be callable from the
     * shell and the control thread. */
    int (*send)(void *ctx, enum jp_channel ch, const struct jp_message *msg);
    /* Waits for the input_reply to the input_request request_id just sent on stdin; replies
     * whose parent_header names another request (late answers to an interrupted input) are
     * dropped, replies without a parent (jupyter_client sends none) taken. Returns 0 and
     * fills *reply (caller clears), or -1 when interrupted (cancel flag) or the kernel is
     * stopping. */
    int (*recv_stdin)(void *ctx, const char *request_id, struct jp_message *reply);
    /* Called when an execute failed with stop_on_error, before its reply: the execute
     * requests queued on shell by now are to be answered with status "aborted" without
     * running, after this request's idle. May be NULL. */
    void (*abort_queued)(void *ctx);
    /* Discards what is queued on stdin (stale replies), before an input_request. May be NULL. */
    void (*discard_stdin)(void *ctx);
};

struct jp_kernel {
    struct dsl_session *dsl;    /* the language's state */
    struct jp_history *history; /* inputs stored with store_history */
    struct jp_outbox outbox;
    char session[37];               /* this kernel's session id (header.session) */
    long execution_count;           /* the count of the last stored execution */
    atomic_bool shutdown_requested; /* set by shutdown_request (any thread); the server stops */
    json_t *payloads;               /* execute_reply payloads collected while a cell runs */
};

/* Sets up k with a new DSL session and history. Returns 0 or -1 (out of memory). */
int jp_kernel_init(struct jp_kernel *k, struct jp_outbox outbox);
void jp_kernel_destroy(struct jp_kernel *k);

/* Handles one decoded request that arrived on channel ch: publishes busy, runs the handler
 * for its msg_type (unknown types are logged and ignored), publishes idle. Must be called from
 * one thread per channel; shell requests touch the DSL session, control requests never do. */
void jp_kernel_dispatch(struct jp_kernel *k, enum jp_channel ch, const struct jp_message *req);

/* Answers a queued request without running it (status "aborted"), with busy/idle around. */
void jp_kernel_abort_request(struct jp_kernel *k, enum jp_channel ch, const struct jp_message *req);

/* Publishes an IOPub message of msg_type with content (stolen) whose parent is parent. */
int jp_kernel_publish(struct jp_kernel *k, const struct jp_message *parent, const char *msg_type,
                      json_t *content);

/* The kernel_info_reply content. New reference. */
json_t *jp_kernel_info_content(void);

/* ---------------------------------------------------------------------------------------- */
/* UTF-8 offsets: the protocol counts cursor positions in Unicode code points.                */

/* Byte offset of code point index cp in s (clamped to strlen(s)). */
size_t jp_utf8_byte_offset(const char *s, size_t cp);
/* Number of code points in the first nbytes bytes of s. */
size_t jp_utf8_codepoints(const char *s, size_t nbytes);

/* ---------------------------------------------------------------------------------------- */
/* The server                                                                                 */

/* Runs the kernel for a connection file until shutdown, SIGTERM or the parent named by
 * JPY_PARENT_PID exits. Returns the process exit status (0 on a clean shutdown). */
int jp_server_run(const char *connection_file);

#endif
