/* wire.c — the Jupyter wire format: a ZeroMQ multipart message <-> struct jp_message.
 *
 *   [identities...] "<IDS|MSG>" signature header parent_header metadata content [buffers...]
 *
 * Decoding never trusts its input: the frames come from the network. The signature is checked
 * over the four JSON frames before any of them is parsed, so a forged message costs one HMAC
 * and nothing else. A message without a usable header maps to a status the server logs and
 * drops; a signed one with a usable header is kept, marked unusable, so that it is answered. */
#include "jupyter/jupyter.h"

#include <stdlib.h>
#include <string.h>

static const char *const wire_status_names[] = {
    [JP_WIRE_OK] = "ok",
    [JP_WIRE_NO_DELIMITER] = "no <IDS|MSG> delimiter",
    [JP_WIRE_TOO_FEW_FRAMES] = "too few frames after the delimiter",
    [JP_WIRE_BAD_SIGNATURE] = "bad signature",
    [JP_WIRE_BAD_JSON] = "the header is not a JSON object",
    [JP_WIRE_BAD_HEADER] = "header without a msg_id string or a msg_type string without NUL",
    [JP_WIRE_REPLAYED] = "replayed (its signature was seen before)",
    [JP_WIRE_NO_MEMORY] = "out of memory decoding it",
};
_Static_assert(sizeof wire_status_names / sizeof wire_status_names[0] == JP_WIRE_STATUS_COUNT,
               "one name per jp_wire_status");

const char *jp_wire_status_str(enum jp_wire_status st)
{
    return (unsigned)st < JP_WIRE_STATUS_COUNT ? wire_status_names[st] : "unknown";
}

void jp_frames_free(struct jp_frame *frames, size_t n)
{
    if (!frames) return;
    for (size_t i = 0; i < n; i++) free(frames[i].data);
    free(frames);
}

int jp_frame_set(struct jp_frame *f, const void *data, size_t len)
{
    f->data = malloc(len ? len : 1);
    f->len = f->data ? len : 0;
    if (!f->data) return -1;
    memcpy(f->data, data, len);
    return 0;
}

/* Copies n views into a new array of owned frames; 0 or -1. */
static int copy_frames(const struct jp_bytes *src, size_t n, struct jp_frame **dst)
{
    *dst = NULL;
    if (n == 0) return 0;
    struct jp_frame *f = calloc(n, sizeof *f);
    if (!f) return -1;
    for (size_t i = 0; i < n; i++) {
        if (jp_frame_set(&f[i], src[i].data, src[i].len) != 0) {
            jp_frames_free(f, i);
            return -1;
        }
    }
    *dst = f;
    return 0;
}

void jp_message_clear(struct jp_message *msg)
{
    jp_frames_free(msg->ids, msg->nids);
    jp_frames_free(msg->buffers, msg->nbuffers);
    json_decref(msg->header);
    json_decref(msg->parent_header);
    json_decref(msg->metadata);
    json_decref(msg->content);
    memset(msg, 0, sizeof *msg);
}

/* Parses one JSON frame, which must be an object. JSON_ALLOW_NUL: a string may hold U+0000
 * (jansson refuses it by default, which dropped a correctly signed message without a word);
 * whoever needs a C string checks with jp_json_cstring(). A parse during which an allocation
 * failed (its result NULL, or an object missing a member) is tried once more with the message
 * path's reserve released; *oom says it still failed so, rather than for its text. */
static json_t *load_object(const struct jp_bytes *b, bool *oom)
{
    jp_json_alloc_failed(); /* forget failures before this parse */
    json_t *v = json_loadb(b->data, b->len, JSON_ALLOW_NUL, NULL);
    *oom = jp_json_alloc_failed();
    if (*oom && jp_reserve_release()) {
        json_decref(v);
        v = json_loadb(b->data, b->len, JSON_ALLOW_NUL, NULL);
        *oom = jp_json_alloc_failed();
    }
    if (*oom) {
        json_decref(v);
        return NULL;
    }
    if (v && !json_is_object(v)) {
        json_decref(v);
        return NULL;
    }
    return v;
}

const char *jp_json_cstring(const json_t *v)
{
    const char *s = json_string_value(v);
    return s && strlen(s) == json_string_length(v) ? s : NULL;
}

enum jp_wire_status jp_wire_decode(const struct jp_bytes *frames, size_t nframes,
                                   struct jp_signer *signer, struct jp_message *out)
{
    memset(out, 0, sizeof *out);
    size_t d = 0;
    const size_t delim_len = sizeof JP_DELIMITER - 1;
    while (d < nframes &&
           !(frames[d].len == delim_len && memcmp(frames[d].data, JP_DELIMITER, delim_len) == 0))
        d++;
    if (d == nframes) return JP_WIRE_NO_DELIMITER;
    if (nframes - d - 1 < 5) return JP_WIRE_TOO_FEW_FRAMES;
    const struct jp_bytes *sig = &frames[d + 1];
    const struct jp_bytes *json = &frames[d + 2];
    if (!jp_signer_verify(signer, json, sig->data, sig->len)) return JP_WIRE_BAD_SIGNATURE;
    if (jp_signer_replayed(signer, sig->data, sig->len)) return JP_WIRE_REPLAYED;

    /* Without a header there is nobody to answer: such a message is dropped. msg_type is
     * compared as a C string, so one with a NUL in it could pass for another type. */
    bool oom;
    out->header = load_object(&json[0], &oom);
    if (!out->header) return oom ? JP_WIRE_NO_MEMORY : JP_WIRE_BAD_JSON;
    if (!json_is_string(json_object_get(out->header, "msg_id")) ||
        !jp_json_cstring(json_object_get(out->header, "msg_type"))) {
        jp_message_clear(out);
        return JP_WIRE_BAD_HEADER;
    }
    /* A signed message with a usable header is answered even when the rest is not JSON
     * objects: it keeps {} there and says why in out->unusable, and the handler answers
     * with an error reply instead of leaving the client waiting. */
    json_t **dst[3] = {&out->parent_header, &out->metadata, &out->content};
    static const char *const why[3] = {
        "parent_header is not a JSON object",
        "metadata is not a JSON object",
        "content is not a JSON object",
    };
    for (int i = 0; i < 3; i++) {
        *dst[i] = load_object(&json[i + 1], &oom);
        if (*dst[i]) continue;
        if (!out->unusable) {
            out->unusable = oom ? "out of memory reading the request" : why[i];
            out->unusable_oom = oom;
        }
        if (!(*dst[i] = json_object())) {
            jp_message_clear(out);
            return JP_WIRE_NO_MEMORY;
        }
    }
    size_t nbuf = nframes - d - 6;
    if (copy_frames(frames, d, &out->ids) != 0 ||
        copy_frames(frames + d + 6, nbuf, &out->buffers) != 0) {
        jp_message_clear(out);
        return JP_WIRE_NO_MEMORY;
    }
    out->nids = d;
    out->nbuffers = nbuf;
    return JP_WIRE_OK;
}

long jp_wire_encode(const struct jp_message *msg, struct jp_signer *signer,
                    struct jp_frame **frames)
{
    *frames = NULL;
    size_t n = msg->nids + 6 + msg->nbuffers;
    struct jp_frame *f = calloc(n, sizeof *f);
    if (!f) return -1;
    size_t k = 0;
    for (size_t i = 0; i < msg->nids; i++, k++)
        if (jp_frame_set(&f[k], msg->ids[i].data, msg->ids[i].len) != 0) goto fail;
    if (jp_frame_set(&f[k++], JP_DELIMITER, sizeof JP_DELIMITER - 1) != 0) goto fail;
    size_t sig_at = k++;
    const json_t *parts[4] = {msg->header, msg->parent_header, msg->metadata, msg->content};
    struct jp_bytes views[4];
    for (int i = 0; i < 4; i++, k++) {
        const json_t *v = parts[i];
        char *s = v ? json_dumps(v, JSON_COMPACT) : strdup("{}");
        if (!s) goto fail;
        f[k].data = (unsigned char *)s;
        f[k].len = strlen(s);
        views[i] = (struct jp_bytes){f[k].data, f[k].len};
    }
    char hex[65];
    if (jp_signer_sign(signer, views, hex) != 0) goto fail;
    if (jp_frame_set(&f[sig_at], hex, strlen(hex)) != 0) goto fail;
    for (size_t i = 0; i < msg->nbuffers; i++, k++)
        if (jp_frame_set(&f[k], msg->buffers[i].data, msg->buffers[i].len) != 0) goto fail;
    *frames = f;
    return (long)n;
fail:
    jp_frames_free(f, n); /* frames not yet filled are NULL, and free(NULL) is fine */
    return -1;
}
