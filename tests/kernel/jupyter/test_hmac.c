/* test_hmac.c — HMAC-SHA256 against the RFC 4231 test vectors, and the signer's behaviour
 * (hex form, split input, constant-time verify, disabled signing with an empty key). */
#include "jupyter/jupyter.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

static void hex(const unsigned char *b, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++) sprintf(out + 2 * i, "%02x", b[i]);
}

struct vector {
    unsigned char key[131];
    size_t key_len;
    const char *data;
    size_t data_len; /* 0: strlen(data) */
    const char *mac; /* hex; test case 5 gives only the first 128 bits */
};

static void test_rfc4231(void)
{
    static unsigned char data3[50], data4[50];
    memset(data3, 0xdd, sizeof data3);
    memset(data4, 0xcd, sizeof data4);
    struct vector v[6] = {
        {.key_len = 20,
         .data = "Hi There",
         .mac = "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
        {.key = "Jefe",
         .key_len = 4,
         .data = "what do ya want for nothing?",
         .mac = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
        {.key_len = 20,
         .data = (const char *)data3,
         .data_len = 50,
         .mac = "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"},
        {.key_len = 25,
         .data = (const char *)data4,
         .data_len = 50,
         .mac = "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"},
        {.key_len = 20, .data = "Test With Truncation", .mac = "a3b6167473100ee06e0c796c2955552b"},
        {.key_len = 131,
         .data = "Test Using Larger Than Block-Size Key - Hash Key First",
         .mac = "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
    };
    memset(v[0].key, 0x0b, 20);
    memset(v[2].key, 0xaa, 20);
    for (int i = 0; i < 25; i++) v[3].key[i] = (unsigned char)(i + 1);
    memset(v[4].key, 0x0c, 20);
    memset(v[5].key, 0xaa, 131);
    for (int i = 0; i < 6; i++) {
        size_t len = v[i].data_len ? v[i].data_len : strlen(v[i].data);
        struct jp_bytes part = {v[i].data, len};
        unsigned char mac[32];
        char got[65];
        CHECK_INT(jp_hmac_sha256(v[i].key, v[i].key_len, &part, 1, mac), 0);
        hex(mac, 32, got);
        got[strlen(v[i].mac)] = '\0'; /* test case 5 is truncated to 128 bits */
        CHECK_STR(got, v[i].mac);
    }
}

/* RFC 4231 test case 7, with its data split at arbitrary points: the MAC of the parts must be
 * the MAC of their concatenation (the Jupyter signature covers four frames). */
static void test_split_parts(void)
{
    unsigned char key[131];
    memset(key, 0xaa, sizeof key);
    const char *data = "This is a test using a larger than block-size key and a larger than "
                       "block-size data. The key needs to be hashed before being used by the "
                       "HMAC algorithm.";
    size_t len = strlen(data);
    struct jp_bytes parts[4] = {
        {data, 10}, {data + 10, 0}, {data + 10, 90}, {data + 100, len - 100}};
    unsigned char mac[32];
    char got[65];
    CHECK_INT(jp_hmac_sha256(key, sizeof key, parts, 4, mac), 0);
    hex(mac, 32, got);
    CHECK_STR(got, "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
}

static void test_signer(void)
{
    struct jp_signer *s = jp_signer_new("Jefe", 4);
    CHECK(s != NULL);
    CHECK(jp_signer_enabled(s));
    const char *data = "what do ya want for nothing?";
    struct jp_bytes parts[4] = {{data, 4}, {data + 4, 10}, {data + 14, 0}, {data + 14, 14}};
    char sig[65];
    /* twice: the keyed context must restart cleanly for every message */
    for (int i = 0; i < 2; i++) {
        CHECK_INT(jp_signer_sign(s, parts, sig), 0);
        CHECK_STR(sig, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    }
    CHECK(jp_signer_verify(s, parts, sig, 64));
    char forged[65];
    memcpy(forged, sig, 65);
    forged[63] = forged[63] == '0' ? '1' : '0';
    CHECK(!jp_signer_verify(s, parts, forged, 64));
    forged[63] = sig[63];
    forged[0] = forged[0] == '0' ? '1' : '0';
    CHECK(!jp_signer_verify(s, parts, forged, 64));
    CHECK(!jp_signer_verify(s, parts, sig, 63)); /* truncated */
    CHECK(!jp_signer_verify(s, parts, "", 0));   /* missing */
    char upper[65];
    for (int i = 0; i < 65; i++) upper[i] = (char)(sig[i] >= 'a' ? sig[i] - 32 : sig[i]);
    CHECK(!jp_signer_verify(s, parts, upper, 64)); /* signatures are lower-case hex */
    jp_signer_free(s);

    struct jp_signer *off = jp_signer_new("", 0);
    CHECK(off != NULL);
    CHECK(!jp_signer_enabled(off));
    CHECK_INT(jp_signer_sign(off, parts, sig), 0);
    CHECK_STR(sig, "");
    CHECK(jp_signer_verify(off, parts, "anything", 8));
    jp_signer_free(off);
}

int main(void)
{
    RUN_TEST(test_rfc4231);
    RUN_TEST(test_split_parts);
    RUN_TEST(test_signer);
    return TEST_SUMMARY();
}
