/* test_connection.c — connection-file parsing: good files (tcp, ipc, empty key), and bad ones
 * (each with a message that names the problem). */
#include "jupyter/jupyter.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char good[] =
    "{\"shell_port\": 5001, \"iopub_port\": 5002, \"stdin_port\": 5003,"
    " \"control_port\": 5004, \"hb_port\": 5005, \"ip\": \"127.0.0.1\","
    " \"key\": \"a0b1-secret\", \"transport\": \"tcp\","
    " \"signature_scheme\": \"hmac-sha256\", \"kernel_name\": \"minitorch\"}";

static void test_good_tcp(void)
{
    struct jp_connection c;
    char err[256] = "";
    CHECK_INT(jp_connection_parse(good, strlen(good), &c, err, sizeof err), 0);
    CHECK_STR(c.transport, "tcp");
    CHECK_STR(c.ip, "127.0.0.1");
    CHECK_INT(c.ports[JP_SHELL], 5001);
    CHECK_INT(c.ports[JP_IOPUB], 5002);
    CHECK_INT(c.ports[JP_STDIN], 5003);
    CHECK_INT(c.ports[JP_CONTROL], 5004);
    CHECK_INT(c.ports[JP_HEARTBEAT], 5005);
    CHECK_INT(c.key_len, 11);
    CHECK(c.key && memcmp(c.key, "a0b1-secret", 11) == 0);
    CHECK_STR(c.kernel_name, "minitorch");
    char ep[128];
    CHECK_INT(jp_connection_endpoint(&c, JP_CONTROL, ep, sizeof ep), 0);
    CHECK_STR(ep, "tcp://127.0.0.1:5004");
    CHECK_INT(jp_connection_endpoint(&c, JP_CONTROL, ep, 8), -1); /* too small */
    jp_connection_clear(&c);
}

static void test_good_ipc_defaults(void)
{
    /* transport and signature_scheme default; an empty key disables signing */
    const char *text = "{\"shell_port\": 1, \"iopub_port\": 2, \"stdin_port\": 3,"
                       " \"control_port\": 4, \"hb_port\": 5, \"ip\": \"/tmp/mt-kernel\","
                       " \"key\": \"\", \"transport\": \"ipc\"}";
    struct jp_connection c;
    char err[256] = "";
    CHECK_INT(jp_connection_parse(text, strlen(text), &c, err, sizeof err), 0);
    CHECK_STR(c.signature_scheme, "hmac-sha256");
    CHECK_INT(c.key_len, 0);
    CHECK(c.key == NULL);
    char ep[128];
    CHECK_INT(jp_connection_endpoint(&c, JP_HEARTBEAT, ep, sizeof ep), 0);
    CHECK_STR(ep, "ipc:///tmp/mt-kernel-5");
    jp_connection_clear(&c);
}

/* Replaces the first occurrence of from with to in good and expects an error containing want. */
static void expect_error(const char *from, const char *to, const char *want)
{
    char text[1024];
    const char *at = strstr(good, from);
    CHECK(at != NULL);
    if (!at) return;
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - good), good, to, at + strlen(from));
    struct jp_connection c;
    char err[256] = "";
    CHECK_INT(jp_connection_parse(text, strlen(text), &c, err, sizeof err), -1);
    if (!strstr(err, want)) {
        fprintf(stderr, "  error \"%s\" does not mention \"%s\"\n", err, want);
        CHECK(strstr(err, want) != NULL);
    }
}

static void test_bad_files(void)
{
    expect_error("\"hmac-sha256\"", "\"hmac-md5\"", "hmac-md5");
    expect_error("\"tcp\"", "\"udp\"", "transport");
    expect_error("\"shell_port\": 5001,", "", "shell_port");
    expect_error("5002", "\"5002\"", "iopub_port");
    expect_error("5003", "70000", "stdin_port");
    expect_error("5005", "-1", "hb_port");
    expect_error("\"ip\": \"127.0.0.1\",", "", "ip");
    expect_error("\"a0b1-secret\"", "42", "key");
    expect_error("{", "[", "JSON");
    expect_error("\"kernel_name\"", "\"kernel_name\": 1, \"x\"", "kernel_name");
    expect_error("\"hb_port\": 5005,", "\"hb_port\": 5005, \"hb_port\": 5006,", "JSON"); /* dup */
    struct jp_connection c;
    char err[256] = "";
    CHECK_INT(jp_connection_parse("", 0, &c, err, sizeof err), -1);
    CHECK_INT(jp_connection_parse("{}", 2, &c, err, sizeof err), -1);
}

static void test_load_file(void)
{
    char path[] = "/tmp/mt-conn-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0) return;
    CHECK(write(fd, good, strlen(good)) == (ssize_t)strlen(good));
    close(fd);
    struct jp_connection c;
    char err[256] = "";
    CHECK_INT(jp_connection_load(path, &c, err, sizeof err), 0);
    CHECK_INT(c.ports[JP_SHELL], 5001);
    jp_connection_clear(&c);
    unlink(path);
    CHECK_INT(jp_connection_load(path, &c, err, sizeof err), -1);
    CHECK(strstr(err, "cannot open") != NULL);
}

int main(void)
{
    RUN_TEST(test_good_tcp);
    RUN_TEST(test_good_ipc_defaults);
    RUN_TEST(test_bad_files);
    RUN_TEST(test_load_file);
    return TEST_SUMMARY();
}
