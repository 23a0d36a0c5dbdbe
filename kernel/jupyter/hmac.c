/* hmac.c — HMAC-SHA256 message signing with libsodium.
 *
 * Every Jupyter message is signed over its four JSON frames with the connection file's key.
 * A signer absorbs the key once into a keyed HMAC state (the key schedule: inner and outer
 * hashes over the padded key); each signature starts from a copy of that state on the stack,
 * so the shell and control threads (and the IOPub publishers on them) sign concurrently
 * without a lock. libsodium rather than OpenSSL because libzmq already loads it into the
 * process, while OpenSSL 3's library, provider and name tables add megabytes of RSS for one
 * MAC (bench/results/kernel-2026-11-26.txt).
 * Verification compares with sodium_memcmp so the time taken does not reveal how many leading
 * bytes of a forged signature were right. */
#include "jupyter/jupyter.h"

#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The replay guard: the signatures of the last REPLAY_WINDOW messages received (their first
 * 16 bytes: 128 bits of an HMAC), in a ring, found through a chained hash table. jupyter_client's
 * Session keeps such a digest history too (its digest_history). Allocated at the first message,
 * 200 KiB, so that a kernel that never receives one does not touch it. */
#define REPLAY_WINDOW 8192
#define REPLAY_BUCKETS (2 * REPLAY_WINDOW)
struct replay {
    unsigned char sig[REPLAY_WINDOW][16];
    int32_t next[REPLAY_WINDOW];     /* the bucket chain; -1 ends it */
    int32_t buckets[REPLAY_BUCKETS]; /* first slot of each chain, -1: none */
    size_t head, count;              /* the next slot to fill; slots in use */
};

struct jp_signer {
    crypto_auth_hmacsha256_state keyed; /* the key absorbed; copied for each signature */
    bool enabled;                       /* false when the key is empty */
    pthread_mutex_t lock;               /* guards seen */
    struct replay *seen;                /* NULL until the first verified message */
};

/* sodium_init once per process before the first MAC (thread-safe, and a no-op when libzmq or
 * an earlier signer already ran it). Returns 0, or -1 with a message on stderr. */
static int sodium_ready(void)
{
    if (sodium_init() < 0) {
        fprintf(stderr, "minitorch-kernel: sodium_init failed\n");
        return -1;
    }
    return 0;
}

/* Absorbs key into st; HMAC accepts any key length, the empty key included. */
static void keyed_state(crypto_auth_hmacsha256_state *st, const void *key, size_t key_len)
{
    static const unsigned char empty_key[1];
    crypto_auth_hmacsha256_init(st, key_len ? key : empty_key, key_len);
}

/* Finishes the MAC in st (already keyed) over parts into out; st is consumed. */
static void mac_parts(crypto_auth_hmacsha256_state *st, const struct jp_bytes *parts, size_t nparts,
                      unsigned char out[32])
{
    for (size_t i = 0; i < nparts; i++)
        if (parts[i].len) crypto_auth_hmacsha256_update(st, parts[i].data, parts[i].len);
    crypto_auth_hmacsha256_final(st, out);
}

int jp_hmac_sha256(const void *key, size_t key_len, const struct jp_bytes *parts, size_t nparts,
                   unsigned char out[32])
{
    if (sodium_ready() != 0) return -1;
    crypto_auth_hmacsha256_state st;
    keyed_state(&st, key, key_len);
    mac_parts(&st, parts, nparts, out);
    sodium_memzero(&st, sizeof st);
    return 0;
}

struct jp_signer *jp_signer_new(const void *key, size_t key_len)
{
    if (sodium_ready() != 0) return NULL;
    struct jp_signer *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->enabled = key_len > 0;
    if (s->enabled) keyed_state(&s->keyed, key, key_len);
    if (pthread_mutex_init(&s->lock, NULL) != 0) {
        free(s);
        return NULL;
    }
    return s;
}

void jp_signer_free(struct jp_signer *s)
{
    if (!s) return;
    sodium_memzero(&s->keyed, sizeof s->keyed);
    pthread_mutex_destroy(&s->lock);
    free(s->seen);
    free(s);
}

bool jp_signer_enabled(const struct jp_signer *s) { return s && s->enabled; }

int jp_signer_sign(struct jp_signer *s, const struct jp_bytes parts[4], char hex[65])
{
    hex[0] = '\0';
    if (!jp_signer_enabled(s)) return 0;
    crypto_auth_hmacsha256_state st = s->keyed;
    unsigned char mac[32];
    mac_parts(&st, parts, 4, mac);
    sodium_memzero(&st, sizeof st);
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        hex[2 * i] = digits[mac[i] >> 4];
        hex[2 * i + 1] = digits[mac[i] & 15];
    }
    hex[64] = '\0';
    return 0;
}

bool jp_signer_verify(struct jp_signer *s, const struct jp_bytes parts[4], const void *sig,
                      size_t siglen)
{
    if (!jp_signer_enabled(s)) return true;
    char expected[65];
    if (siglen != 64 || jp_signer_sign(s, parts, expected) != 0) return false;
    /* Frontends send lower-case hex (Python's hexdigest); compare in constant time. */
    return sodium_memcmp(expected, sig, 64) == 0;
}

static int hex_value(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static size_t bucket_of(const unsigned char key[16])
{
    uint32_t h;
    memcpy(&h, key, sizeof h); /* an HMAC's bytes are uniform already */
    return h % REPLAY_BUCKETS;
}

bool jp_signer_replayed(struct jp_signer *s, const void *sig, size_t siglen)
{
    if (!jp_signer_enabled(s) || siglen < 32) return false;
    unsigned char key[16];
    const char *hex = sig;
    for (int i = 0; i < 16; i++) {
        int hi = hex_value(hex[2 * i]), lo = hex_value(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) return false; /* not a signature this kernel accepts anyway */
        key[i] = (unsigned char)(hi << 4 | lo);
    }
    bool seen = false;
    pthread_mutex_lock(&s->lock);
    struct replay *r = s->seen;
    if (!r && (r = s->seen = malloc(sizeof *r)) != NULL) {
        memset(r->buckets, 0xff, sizeof r->buckets); /* -1 everywhere */
        r->head = r->count = 0;
    }
    if (r) {
        size_t b = bucket_of(key);
        for (int32_t i = r->buckets[b]; i >= 0 && !seen; i = r->next[i])
            seen = memcmp(r->sig[i], key, 16) == 0;
        if (!seen) {
            size_t slot = r->head;
            if (r->count == REPLAY_WINDOW) { /* the oldest leaves its chain */
                int32_t *link = &r->buckets[bucket_of(r->sig[slot])];
                while (*link != (int32_t)slot) link = &r->next[*link];
                *link = r->next[slot];
            } else {
                r->count++;
            }
            memcpy(r->sig[slot], key, 16);
            r->next[slot] = r->buckets[b];
            r->buckets[b] = (int32_t)slot;
            r->head = (slot + 1) % REPLAY_WINDOW;
        }
    }
    pthread_mutex_unlock(&s->lock);
    return seen;
}
