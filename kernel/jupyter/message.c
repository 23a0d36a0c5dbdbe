/* message.c — building messages: headers, ids, dates, replies to a parent.
 *
 * A header is {msg_id, session, username, date, msg_type, version}. msg_id is a random UUID4
 * (from getrandom(2), so two kernels never collide), date is UTC with microseconds as
 * jupyter_client writes it, and every reply or output names its request as parent_header. */
#include "jupyter/jupyter.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <time.h>

void jp_uuid4(char buf[37])
{
    unsigned char b[16];
    size_t got = 0;
    while (got < sizeof b) {
        ssize_t r = getrandom(b + got, sizeof b - got, 0);
        if (r > 0) {
            got += (size_t)r;
        } else {
            /* getrandom only fails before the entropy pool is ready or on EINTR; fall back to
             * time-seeded bytes so a message id is still unique within this process. */
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            unsigned long long x =
                (unsigned long long)ts.tv_nsec ^ ((unsigned long long)ts.tv_sec << 20);
            for (; got < sizeof b; got++, x = x * 6364136223846793005ULL + 1442695040888963407ULL)
                b[got] = (unsigned char)(x >> 56);
        }
    }
    b[6] = (unsigned char)((b[6] & 0x0f) | 0x40); /* version 4 */
    b[8] = (unsigned char)((b[8] & 0x3f) | 0x80); /* RFC 4122 variant */
    snprintf(buf, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
             b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
             b[14], b[15]);
}

void jp_iso8601_now(char buf[32])
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    size_t n = strftime(buf, 32, "%Y-%m-%dT%H:%M:%S", &tm);
    unsigned us = (unsigned)(ts.tv_nsec / 1000) % 1000000u;
    snprintf(buf + n, 32 - n, ".%06uZ", us);
}

const char *jp_message_type(const struct jp_message *msg)
{
    const char *t = json_string_value(json_object_get(msg->header, "msg_type"));
    return t ? t : "";
}

/* Address space held back for the message path. It is a mapping of its own, not a malloc block:
 * unmapped, it is free address space for every thread, where a freed malloc block may stay in the
 * arena it came from while ZeroMQ's threads allocate from theirs. It maps no memory (PROT_NONE):
 * what a cell can exhaust with the kernel still running is a limit on address space (RLIMIT_AS,
 * which counts it), not memory, which Linux overcommits. */
#define RESERVE_BYTES ((size_t)16 << 20)
static _Atomic(void *) reserve;

static void *map_space(size_t n)
{
    void *p = mmap(NULL, n, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

bool jp_reserve_release(void)
{
    void *r = atomic_exchange(&reserve, NULL);
    if (!r) return false;
    munmap(r, RESERVE_BYTES);
    fprintf(stderr, "minitorch-kernel: out of memory on the message path: released the reserve\n");
    return true;
}

void jp_reserve_check(void)
{
    if (!atomic_load(&reserve)) return;
    void *probe = map_space(RESERVE_BYTES);
    if (probe)
        munmap(probe, RESERVE_BYTES);
    else
        jp_reserve_release();
}

void jp_reserve_restore(void)
{
    if (atomic_load(&reserve)) return;
    void *r = map_space(2 * RESERVE_BYTES), *none = NULL;
    if (!r) return;
    munmap((char *)r + RESERVE_BYTES, RESERVE_BYTES); /* the half that stays free */
    if (!atomic_compare_exchange_strong(&reserve, &none, r)) munmap(r, RESERVE_BYTES);
}

static void *(*json_under)(size_t) = malloc;
static _Thread_local bool json_failed;

static void *json_malloc(size_t n)
{
    void *p = json_under(n);
    if (!p) json_failed = true;
    return p;
}

void jp_json_alloc_init(void *(*under)(size_t))
{
    json_under = under;
    json_set_alloc_funcs(json_malloc, free);
}

bool jp_json_alloc_failed(void)
{
    bool failed = json_failed;
    json_failed = false;
    return failed;
}

static int message_init(struct jp_message *msg, const char *msg_type,
                        const struct jp_message *parent, json_t *content, const char *session,
                        bool with_ids);

int jp_message_init(struct jp_message *msg, const char *msg_type, const struct jp_message *parent,
                    json_t *content, const char *session, bool with_ids)
{
    /* message_init borrows content, so that it is still there for a second try */
    int rc = message_init(msg, msg_type, parent, content, session, with_ids);
    if (rc != 0 && jp_reserve_release())
        rc = message_init(msg, msg_type, parent, content, session, with_ids);
    json_decref(content); /* stolen: the message holds its own reference */
    return rc;
}

static int message_init(struct jp_message *msg, const char *msg_type,
                        const struct jp_message *parent, json_t *content, const char *session,
                        bool with_ids)
{
    memset(msg, 0, sizeof *msg);
    char id[37], date[32];
    jp_uuid4(id);
    jp_iso8601_now(date);
    msg->header =
        json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "msg_id", id, "session", session, "username",
                  "kernel", "date", date, "msg_type", msg_type, "version", JP_PROTOCOL_VERSION);
    msg->parent_header = parent && parent->header ? json_deep_copy(parent->header) : json_object();
    msg->metadata = json_object();
    msg->content = content ? json_incref(content) : json_object();
    if (!msg->header || !msg->parent_header || !msg->metadata || !msg->content) goto fail;
    if (with_ids && parent && parent->nids) {
        msg->ids = calloc(parent->nids, sizeof *msg->ids);
        if (!msg->ids) goto fail;
        msg->nids = parent->nids; /* frames still unset are NULL, which clearing skips */
        for (size_t i = 0; i < parent->nids; i++)
            if (jp_frame_set(&msg->ids[i], parent->ids[i].data, parent->ids[i].len) != 0) goto fail;
    }
    return 0;
fail:
    jp_message_clear(msg);
    return -1;
}
