/* hmac.c — HMAC-SHA256 message signing with OpenSSL 3's EVP_MAC.
 *
 * Every Jupyter message is signed over its four JSON frames with the connection file's key.
 * A signer fetches the MAC once and keeps one context initialised with the key; each signature
 * runs under a mutex because the shell and control threads (and the IOPub publishers on them)
 * sign concurrently and an EVP_MAC_CTX is not thread-safe. Re-initialising with a NULL key
 * restarts the MAC with the same key, so the key schedule is computed once.
 * Verification compares with CRYPTO_memcmp so the time taken does not reveal how many leading
 * bytes of a forged signature were right. */
#include "jupyter/jupyter.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <pthread.h>
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
    pthread_mutex_t lock; /* guards ctx and seen */
    EVP_MAC *mac;         /* the fetched HMAC implementation */
    EVP_MAC_CTX *ctx;     /* initialised with the key and SHA256 */
    bool enabled;         /* false when the key is empty */
    struct replay *seen;  /* NULL until the first verified message */
};

static void report_openssl(const char *what, const char *file, int line)
{
    unsigned long e = ERR_get_error();
    char buf[256] = "unknown error";
    if (e) ERR_error_string_n(e, buf, sizeof buf);
    fprintf(stderr, "minitorch-kernel: %s:%d: %s failed: %s\n", file, line, what, buf);
    ERR_clear_error();
}
#define OPENSSL_FAIL(what) report_openssl(what, __FILE__, __LINE__)

/* A context for key; NULL on failure. */
static EVP_MAC_CTX *new_ctx(EVP_MAC *mac, const void *key, size_t key_len)
{
    EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(mac);
    if (!ctx) {
        OPENSSL_FAIL("EVP_MAC_CTX_new");
        return NULL;
    }
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA256", 0),
        OSSL_PARAM_construct_end(),
    };
    /* HMAC accepts an empty key, but OpenSSL wants a non-NULL pointer for it. */
    static const unsigned char empty_key[1];
    if (!EVP_MAC_init(ctx, key_len ? key : empty_key, key_len, params)) {
        OPENSSL_FAIL("EVP_MAC_init");
        EVP_MAC_CTX_free(ctx);
        return NULL;
    }
    return ctx;
}

/* Runs the MAC in ctx (already keyed) over parts; restarts ctx first. */
static int mac_parts(EVP_MAC_CTX *ctx, bool restart, const struct jp_bytes *parts, size_t nparts,
                     unsigned char out[32])
{
    if (restart && !EVP_MAC_init(ctx, NULL, 0, NULL)) {
        OPENSSL_FAIL("EVP_MAC_init");
        return -1;
    }
    for (size_t i = 0; i < nparts; i++) {
        if (parts[i].len && !EVP_MAC_update(ctx, parts[i].data, parts[i].len)) {
            OPENSSL_FAIL("EVP_MAC_update");
            return -1;
        }
    }
    size_t outlen = 0;
    if (!EVP_MAC_final(ctx, out, &outlen, 32) || outlen != 32) {
        OPENSSL_FAIL("EVP_MAC_final");
        return -1;
    }
    return 0;
}

int jp_hmac_sha256(const void *key, size_t key_len, const struct jp_bytes *parts, size_t nparts,
                   unsigned char out[32])
{
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    if (!mac) {
        OPENSSL_FAIL("EVP_MAC_fetch(HMAC)");
        return -1;
    }
    EVP_MAC_CTX *ctx = new_ctx(mac, key, key_len);
    int rc = ctx ? mac_parts(ctx, false, parts, nparts, out) : -1;
    EVP_MAC_CTX_free(ctx);
    EVP_MAC_free(mac);
    return rc;
}

struct jp_signer *jp_signer_new(const void *key, size_t key_len)
{
    struct jp_signer *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->enabled = key_len > 0;
    if (s->enabled) {
        s->mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
        if (!s->mac) {
            OPENSSL_FAIL("EVP_MAC_fetch(HMAC)");
            free(s);
            return NULL;
        }
        s->ctx = new_ctx(s->mac, key, key_len);
        if (!s->ctx) {
            EVP_MAC_free(s->mac);
            free(s);
            return NULL;
        }
    }
    if (pthread_mutex_init(&s->lock, NULL) != 0) {
        EVP_MAC_CTX_free(s->ctx);
        EVP_MAC_free(s->mac);
        free(s);
        return NULL;
    }
    return s;
}

void jp_signer_free(struct jp_signer *s)
{
    if (!s) return;
    EVP_MAC_CTX_free(s->ctx);
    EVP_MAC_free(s->mac);
    pthread_mutex_destroy(&s->lock);
    free(s->seen);
    free(s);
}

bool jp_signer_enabled(const struct jp_signer *s) { return s && s->enabled; }

static int signer_mac(struct jp_signer *s, const struct jp_bytes parts[4], unsigned char out[32])
{
    pthread_mutex_lock(&s->lock);
    int rc = mac_parts(s->ctx, true, parts, 4, out);
    pthread_mutex_unlock(&s->lock);
    return rc;
}

int jp_signer_sign(struct jp_signer *s, const struct jp_bytes parts[4], char hex[65])
{
    hex[0] = '\0';
    if (!jp_signer_enabled(s)) return 0;
    unsigned char mac[32];
    if (signer_mac(s, parts, mac) != 0) return -1;
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
    return CRYPTO_memcmp(expected, sig, 64) == 0;
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
