/* test_wire.c — the wire format: encode/decode round trips (identities, buffers, UTF-8), the
 * signature over the four JSON frames, every way a message can be malformed, and the message
 * path's reserve when memory runs out. */
#include "jupyter/jupyter.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static const char key[] = "5c0c2d8e-test-key";

static struct jp_bytes view(const char *s) { return (struct jp_bytes){s, strlen(s)}; }

/* Signs the four JSON texts with key and returns the hex signature (static buffer). */
static const char *sign4(const char *h, const char *p, const char *m, const char *c)
{
    static char hexsig[65];
    struct jp_bytes parts[4] = {view(h), view(p), view(m), view(c)};
    unsigned char mac[32];
    jp_hmac_sha256(key, strlen(key), parts, 4, mac);
    for (int i = 0; i < 32; i++) sprintf(hexsig + 2 * i, "%02x", mac[i]);
    return hexsig;
}

static void test_round_trip(void)
{
    struct jp_signer *signer = jp_signer_new(key, strlen(key));
    struct jp_message parent = {0};
    parent.header = json_pack("{s:s, s:s}", "msg_id", "p-1", "msg_type", "execute_request");
    parent.nids = 2;
    parent.ids = calloc(2, sizeof *parent.ids);
    parent.ids[0].data = (unsigned char *)strdup("client-identity");
    parent.ids[0].len = 15;
    parent.ids[1].data = malloc(3);
    memcpy(parent.ids[1].data, "\0\1\2", 3); /* identities are binary */
    parent.ids[1].len = 3;

    struct jp_message msg;
    CHECK_INT(jp_message_init(&msg, "execute_reply", &parent,
                              json_pack("{s:s, s:s}", "status", "ok", "text", "Grüße, 世界"),
                              "session-1", true),
              0);
    msg.nbuffers = 1;
    msg.buffers = calloc(1, sizeof *msg.buffers);
    msg.buffers[0].data = malloc(4);
    memcpy(msg.buffers[0].data, "\xff\0\xfe\1", 4);
    msg.buffers[0].len = 4;

    struct jp_frame *frames;
    long n = jp_wire_encode(&msg, signer, &frames);
    CHECK_INT(n, 2 + 6 + 1);
    CHECK(frames[2].len == 9 && memcmp(frames[2].data, "<IDS|MSG>", 9) == 0);
    /* the signature is HMAC-SHA256 of the four JSON frames exactly as sent */
    char json[4][512];
    for (int i = 0; i < 4; i++)
        snprintf(json[i], sizeof json[i], "%.*s", (int)frames[4 + i].len, frames[4 + i].data);
    CHECK(frames[3].len == 64 &&
          memcmp(frames[3].data, sign4(json[0], json[1], json[2], json[3]), 64) == 0);

    struct jp_bytes views[16];
    for (long i = 0; i < n; i++) views[i] = (struct jp_bytes){frames[i].data, frames[i].len};
    struct jp_message back;
    CHECK_INT(jp_wire_decode(views, (size_t)n, signer, &back), JP_WIRE_OK);
    CHECK_STR(jp_message_type(&back), "execute_reply");
    CHECK_INT(back.nids, 2);
    CHECK(back.nids == 2 && back.ids[1].len == 3 && memcmp(back.ids[1].data, "\0\1\2", 3) == 0);
    CHECK_STR(json_string_value(json_object_get(back.parent_header, "msg_id")), "p-1");
    CHECK_STR(json_string_value(json_object_get(back.content, "text")), "Grüße, 世界");
    CHECK_STR(json_string_value(json_object_get(back.header, "version")), JP_PROTOCOL_VERSION);
    CHECK_STR(json_string_value(json_object_get(back.header, "session")), "session-1");
    CHECK(back.nbuffers == 1 && back.buffers[0].len == 4 &&
          memcmp(back.buffers[0].data, "\xff\0\xfe\1", 4) == 0);

    /* flipping one byte of content or signature makes it a forgery */
    frames[7].data[frames[7].len - 2] ^= 1;
    views[7] = (struct jp_bytes){frames[7].data, frames[7].len};
    struct jp_message bad;
    CHECK_INT(jp_wire_decode(views, (size_t)n, signer, &bad), JP_WIRE_BAD_SIGNATURE);
    CHECK(bad.header == NULL);

    jp_message_clear(&back);
    jp_frames_free(frames, (size_t)n);
    jp_message_clear(&msg);
    jp_message_clear(&parent);
    jp_signer_free(signer);
}

/* Decodes the given frames (NULL-terminated list of strings) with the test key. */
static enum jp_wire_status decode_strings(const char **s, struct jp_message *out)
{
    struct jp_bytes v[16];
    size_t n = 0;
    while (s[n]) {
        v[n] = view(s[n]);
        n++;
    }
    struct jp_signer *signer = jp_signer_new(key, strlen(key));
    enum jp_wire_status st = jp_wire_decode(v, n, signer, out);
    jp_signer_free(signer);
    return st;
}

static void test_malformed(void)
{
    const char *h = "{\"msg_id\": \"1\", \"msg_type\": \"kernel_info_request\"}";
    struct jp_message m;
    char sig[65];

    const char *no_delim[] = {"id", sign4(h, "{}", "{}", "{}"), h, "{}", "{}", "{}", NULL};
    CHECK_INT(decode_strings(no_delim, &m), JP_WIRE_NO_DELIMITER);

    const char *few[] = {"<IDS|MSG>", "sig", h, "{}", "{}", NULL};
    CHECK_INT(decode_strings(few, &m), JP_WIRE_TOO_FEW_FRAMES);
    const char *only[] = {"<IDS|MSG>", NULL};
    CHECK_INT(decode_strings(only, &m), JP_WIRE_TOO_FEW_FRAMES);
    const char *none[] = {NULL};
    CHECK_INT(decode_strings(none, &m), JP_WIRE_NO_DELIMITER);

    const char *unsigned_msg[] = {"<IDS|MSG>", "", h, "{}", "{}", "{}", NULL};
    CHECK_INT(decode_strings(unsigned_msg, &m), JP_WIRE_BAD_SIGNATURE);

    /* correctly signed with a usable header, but another frame is not a JSON object: kept,
     * marked unusable (so that it is answered with an error), with {} in that frame */
    snprintf(sig, sizeof sig, "%s", sign4(h, "{}", "{}", "{not json"));
    const char *bad_json[] = {"<IDS|MSG>", sig, h, "{}", "{}", "{not json", NULL};
    CHECK_INT(decode_strings(bad_json, &m), JP_WIRE_OK);
    CHECK_STR(m.unusable, "content is not a JSON object");
    CHECK(json_is_object(m.content) && json_object_size(m.content) == 0);
    jp_message_clear(&m);
    snprintf(sig, sizeof sig, "%s", sign4(h, "[]", "{}", "{}"));
    const char *array[] = {"<IDS|MSG>", sig, h, "[]", "{}", "{}", NULL};
    CHECK_INT(decode_strings(array, &m), JP_WIRE_OK);
    CHECK_STR(m.unusable, "parent_header is not a JSON object");
    jp_message_clear(&m);
    /* a header that is not an object: nobody to answer, dropped */
    snprintf(sig, sizeof sig, "%s", sign4("[]", "{}", "{}", "{}"));
    const char *header_array[] = {"<IDS|MSG>", sig, "[]", "{}", "{}", "{}", NULL};
    CHECK_INT(decode_strings(header_array, &m), JP_WIRE_BAD_JSON);
    /* U+0000 in strings is accepted, except in msg_type, which is compared as a C string */
    const char *nul_user =
        "{\"msg_id\": \"1\", \"msg_type\": \"kernel_info_request\", \"username\": \"a\\u0000b\"}";
    snprintf(sig, sizeof sig, "%s", sign4(nul_user, "{}", "{}", "{\"v\": \"\\u0000\"}"));
    const char *nul_ok[] = {"<IDS|MSG>", sig, nul_user, "{}", "{}", "{\"v\": \"\\u0000\"}", NULL};
    CHECK_INT(decode_strings(nul_ok, &m), JP_WIRE_OK);
    CHECK(m.unusable == NULL);
    CHECK(jp_json_cstring(json_object_get(m.header, "username")) == NULL);
    CHECK_INT(json_string_length(json_object_get(m.header, "username")), 3);
    jp_message_clear(&m);
    const char *nul_type = "{\"msg_id\": \"1\", \"msg_type\": \"kernel_info_request\\u0000x\"}";
    snprintf(sig, sizeof sig, "%s", sign4(nul_type, "{}", "{}", "{}"));
    const char *nul_bad[] = {"<IDS|MSG>", sig, nul_type, "{}", "{}", "{}", NULL};
    CHECK_INT(decode_strings(nul_bad, &m), JP_WIRE_BAD_HEADER);
    const char *no_type = "{\"msg_id\": \"1\"}";
    snprintf(sig, sizeof sig, "%s", sign4(no_type, "{}", "{}", "{}"));
    const char *bad_header[] = {"<IDS|MSG>", sig, no_type, "{}", "{}", "{}", NULL};
    CHECK_INT(decode_strings(bad_header, &m), JP_WIRE_BAD_HEADER);
    const char *bad_utf8 = "{\"msg_id\": \"1\", \"msg_type\": \"x\xff\"}";
    snprintf(sig, sizeof sig, "%s", sign4(bad_utf8, "{}", "{}", "{}"));
    const char *utf8[] = {"<IDS|MSG>", sig, bad_utf8, "{}", "{}", "{}", NULL};
    CHECK_INT(decode_strings(utf8, &m), JP_WIRE_BAD_JSON);

    /* and the good one decodes, with the delimiter found after identities */
    snprintf(sig, sizeof sig, "%s", sign4(h, "{}", "{}", "{}"));
    const char *good[] = {"a", "b", "<IDS|MSG>", sig, h, "{}", "{}", "{}", NULL};
    CHECK_INT(decode_strings(good, &m), JP_WIRE_OK);
    CHECK_INT(m.nids, 2);
    CHECK_STR(jp_message_type(&m), "kernel_info_request");
    jp_message_clear(&m);
    CHECK_STR(jp_wire_status_str(JP_WIRE_BAD_SIGNATURE), "bad signature");
}

/* The replay guard: a verified message sent again is dropped (JP_WIRE_REPLAYED); the guard
 * remembers the last 8,192 signatures, so after 10,000 other messages the first is accepted
 * again while one of the recent ones is still refused; an unsigned kernel (empty key) has no
 * guard. */
static enum jp_wire_status decode_with(struct jp_signer *signer, int id, struct jp_message *out)
{
    char header[96];
    snprintf(header, sizeof header, "{\"msg_id\": \"m-%d\", \"msg_type\": \"kernel_info_request\"}",
             id);
    const char *sig = sign4(header, "{}", "{}", "{}");
    char sigcopy[65];
    snprintf(sigcopy, sizeof sigcopy, "%s", sig);
    struct jp_bytes v[6] = {view(JP_DELIMITER), view(sigcopy), view(header),
                            view("{}"),         view("{}"),    view("{}")};
    return jp_wire_decode(v, 6, signer, out);
}

static void test_replayed(void)
{
    struct jp_signer *signer = jp_signer_new(key, strlen(key));
    struct jp_message m = {0};
    CHECK_INT(decode_with(signer, 0, &m), JP_WIRE_OK);
    jp_message_clear(&m);
    CHECK_INT(decode_with(signer, 0, &m), JP_WIRE_REPLAYED);
    CHECK(m.header == NULL);
    for (int i = 1; i <= 10000; i++) {
        CHECK_INT(decode_with(signer, i, &m), JP_WIRE_OK);
        jp_message_clear(&m);
    }
    CHECK_INT(decode_with(signer, 9000, &m), JP_WIRE_REPLAYED);
    CHECK_INT(decode_with(signer, 0, &m), JP_WIRE_OK); /* out of the window: accepted again */
    jp_message_clear(&m);
    jp_signer_free(signer);
    struct jp_signer *unsigned_ = jp_signer_new("", 0);
    CHECK(!jp_signer_replayed(unsigned_, "", 0));
    jp_signer_free(unsigned_);
}

static void test_message_init(void)
{
    struct jp_message m;
    CHECK_INT(jp_message_init(&m, "status", NULL, NULL, "s", false), 0);
    const char *id = json_string_value(json_object_get(m.header, "msg_id"));
    CHECK(id && strlen(id) == 36 && id[14] == '4'); /* UUID version 4 */
    const char *date = json_string_value(json_object_get(m.header, "date"));
    CHECK(date && strlen(date) == 27 && date[10] == 'T' && date[26] == 'Z');
    CHECK(json_object_size(m.parent_header) == 0);
    CHECK(json_object_size(m.content) == 0);
    CHECK_INT(m.nids, 0);
    jp_message_clear(&m);
    char a[37], b[37];
    jp_uuid4(a);
    jp_uuid4(b);
    CHECK(strcmp(a, b) != 0);
}

/* jansson's allocations in this test: the one numbered fail_at (from 0) fails. */
static long allocs, fail_at = -1;
static void *flaky_malloc(size_t n) { return allocs++ == fail_at ? NULL : malloc(n); }

/* A request read while memory runs out. With the message path's reserve, the parse is tried
 * again and the request decodes whole, whichever allocation failed (jansson itself reports
 * most of them as syntax errors, and one as nothing: a member left out). Without it, the
 * message is dropped as out of memory (its header) or kept and marked so (the rest), to be
 * answered with a MemoryError; never taken for bad JSON or used with a member missing. */
static void test_decode_out_of_memory(void)
{
    const char *h = "{\"msg_id\": \"m-1\", \"msg_type\": \"execute_request\"}";
    const char *c = "{\"code\": \"x = [1, 2, 3]\", \"silent\": false, \"user_expressions\": {}}";
    char sig[65];
    snprintf(sig, sizeof sig, "%s", sign4(h, "{}", "{}", c));
    const char *frames[] = {JP_DELIMITER, sig, h, "{}", "{}", c, NULL};
    jp_json_alloc_init(flaky_malloc);
    long dropped = 0, marked = 0, points = 0;
    for (int with_reserve = 1; with_reserve >= 0; with_reserve--) {
        for (fail_at = 0;; fail_at++) {
            if (with_reserve)
                jp_reserve_restore();
            else
                jp_reserve_release();
            struct jp_message m = {0};
            allocs = 0;
            enum jp_wire_status st = decode_strings(frames, &m);
            if (allocs <= fail_at) { /* no allocation failed: the end of the failure points */
                CHECK_INT(st, JP_WIRE_OK);
                jp_message_clear(&m);
                break;
            }
            points++;
            if (with_reserve || st == JP_WIRE_OK) {
                CHECK_INT(st, JP_WIRE_OK);
                const char *code = json_string_value(json_object_get(m.content, "code"));
                if (with_reserve || !m.unusable_oom) {
                    CHECK(m.unusable == NULL);
                    CHECK(code && strcmp(code, "x = [1, 2, 3]") == 0);
                    CHECK_INT(json_object_size(m.content), 3);
                } else {
                    CHECK(m.unusable != NULL);
                    marked++;
                }
            } else {
                CHECK_INT(st, JP_WIRE_NO_MEMORY);
                dropped++;
            }
            jp_message_clear(&m);
        }
    }
    fail_at = -1;
    jp_json_alloc_init(malloc);
    CHECK(points > 8 && dropped > 0 && marked > 0);
}

/* A mapping of n bytes of address space (no memory), or NULL where it does not fit. */
static void *take_space(size_t n)
{
    void *p = mmap(NULL, n, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* Whether a mapping of n bytes fits in the address space left. */
static bool space_for(size_t n)
{
    void *p = take_space(n);
    if (p) munmap(p, n);
    return p != NULL;
}

/* The process's address space in use (VmSize), in bytes; 0 when unknown. */
static size_t address_space_used(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    size_t kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmSize: %zu kB", &kb) == 1) break;
    if (f) fclose(f);
    return kb * 1024;
}

/* Under a limit on address space (RLIMIT_AS, in a child process), the reserve is address space
 * that comes back when released: once a cell has filled the rest, check gives it back at once
 * (the space ZeroMQ's threads and the reply need), and restore takes it again only where as much
 * again stays free, not the last of the space. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif

static void test_reserve_under_address_limit(void)
{
#ifdef UNDER_SANITIZER
    printf("  skipped under a sanitizer: its shadow memory is mapped as the program runs, and a "
           "limit on address space stops it\n");
    return;
#endif
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int failed = 0;
#define CHILD_CHECK(c) (failed += !(c) && fprintf(stderr, "reserve: failed: %s\n", #c))
        jp_reserve_release();
        const size_t mib = (size_t)1 << 20, used = address_space_used();
        struct rlimit lim = {used + 40 * mib, used + 40 * mib};
        CHILD_CHECK(used > 0 && setrlimit(RLIMIT_AS, &lim) == 0);
        jp_reserve_restore(); /* 16 MiB taken, as much again left */
        CHILD_CHECK(!space_for(32 * mib));
        void *fill[64];
        int n = 0;
        while (n < 64 && (fill[n] = take_space(mib))) n++;
        CHILD_CHECK(n > 8 && n < 64 && !space_for(mib)); /* a cell took the rest */
        jp_reserve_check();
        CHILD_CHECK(space_for(8 * mib)); /* released: space for the reply */
        jp_reserve_restore();            /* not where it would take the last of the space */
        CHILD_CHECK(space_for(8 * mib));
        CHILD_CHECK(!jp_reserve_release());
        for (int i = 0; i < n; i++) munmap(fill[i], mib);
        jp_reserve_restore(); /* the cell's values gone: taken again */
        CHILD_CHECK(jp_reserve_release());
        fflush(NULL);
        _exit(failed ? 1 : 0);
#undef CHILD_CHECK
    }
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void test_utf8_offsets(void)
{
    const char *s = "é=1 # 世界x";
    CHECK_INT(jp_utf8_byte_offset(s, 0), 0);
    CHECK_INT(jp_utf8_byte_offset(s, 1), 2);  /* after é (2 bytes) */
    CHECK_INT(jp_utf8_byte_offset(s, 7), 10); /* after 世 (3 bytes at 7) */
    CHECK_INT(jp_utf8_byte_offset(s, 99), strlen(s));
    CHECK_INT(jp_utf8_codepoints(s, strlen(s)), 9);
    CHECK_INT(jp_utf8_codepoints(s, 2), 1);
}

int main(void)
{
    RUN_TEST(test_round_trip);
    RUN_TEST(test_malformed);
    RUN_TEST(test_replayed);
    RUN_TEST(test_message_init);
    RUN_TEST(test_decode_out_of_memory);
    RUN_TEST(test_reserve_under_address_limit);
    RUN_TEST(test_utf8_offsets);
    return TEST_SUMMARY();
}
