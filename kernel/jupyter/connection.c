/* connection.c — reading a Jupyter connection file.
 *
 * The frontend writes a JSON file with the transport, the address, five ports, the HMAC key and
 * the signature scheme, and starts the kernel with `-f FILE`. Every problem is reported in one
 * line naming the field, because that message is all a user sees when a kernel fails to start.
 * Only hmac-sha256 is supported (what every current frontend writes); an empty key disables
 * signing as in ipykernel. */
#include "jupyter/jupyter.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const port_keys[JP_CHANNEL_COUNT] = {
    [JP_SHELL] = "shell_port", [JP_CONTROL] = "control_port", [JP_STDIN] = "stdin_port",
    [JP_IOPUB] = "iopub_port", [JP_HEARTBEAT] = "hb_port",
};
_Static_assert(sizeof port_keys / sizeof port_keys[0] == JP_CHANNEL_COUNT, "one key per channel");

const char *jp_channel_port_key(enum jp_channel ch)
{
    return (unsigned)ch < JP_CHANNEL_COUNT ? port_keys[ch] : "?";
}

/* Copies a string field into dst; missing fields take dflt (NULL: required). */
static int get_string(json_t *root, const char *name, const char *dflt, char *dst, size_t n,
                      char *err, size_t errlen)
{
    json_t *v = json_object_get(root, name);
    const char *s = dflt;
    if (v) {
        if (!json_is_string(v)) {
            snprintf(err, errlen, "connection file: \"%s\" must be a string", name);
            return -1;
        }
        s = json_string_value(v);
    } else if (!dflt) {
        snprintf(err, errlen, "connection file: \"%s\" is missing", name);
        return -1;
    }
    if (strlen(s) >= n) {
        snprintf(err, errlen, "connection file: \"%s\" is too long (%zu bytes at most)", name,
                 n - 1);
        return -1;
    }
    strcpy(dst, s);
    return 0;
}

int jp_connection_parse(const char *text, size_t len, struct jp_connection *c, char *err,
                        size_t errlen)
{
    memset(c, 0, sizeof *c);
    json_error_t jerr;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        snprintf(err, errlen, "connection file: invalid JSON at line %d, column %d: %s", jerr.line,
                 jerr.column, jerr.text);
        return -1;
    }
    int rc = -1;
    if (!json_is_object(root)) {
        snprintf(err, errlen, "connection file: the top level must be a JSON object");
        goto out;
    }
    if (get_string(root, "transport", "tcp", c->transport, sizeof c->transport, err, errlen) ||
        get_string(root, "ip", NULL, c->ip, sizeof c->ip, err, errlen) ||
        get_string(root, "signature_scheme", "hmac-sha256", c->signature_scheme,
                   sizeof c->signature_scheme, err, errlen) ||
        get_string(root, "kernel_name", "", c->kernel_name, sizeof c->kernel_name, err, errlen))
        goto out;
    if (strcmp(c->transport, "tcp") != 0 && strcmp(c->transport, "ipc") != 0) {
        snprintf(err, errlen, "connection file: transport \"%s\" is not supported (tcp or ipc)",
                 c->transport);
        goto out;
    }
    if (c->ip[0] == '\0') {
        snprintf(err, errlen, "connection file: \"ip\" is empty");
        goto out;
    }
    for (int ch = 0; ch < JP_CHANNEL_COUNT; ch++) {
        json_t *v = json_object_get(root, port_keys[ch]);
        if (!v) {
            snprintf(err, errlen, "connection file: \"%s\" is missing", port_keys[ch]);
            goto out;
        }
        if (!json_is_integer(v) || json_integer_value(v) <= 0 || json_integer_value(v) > 65535) {
            snprintf(err, errlen, "connection file: \"%s\" must be an integer in 1..65535",
                     port_keys[ch]);
            goto out;
        }
        c->ports[ch] = (int)json_integer_value(v);
    }
    json_t *key = json_object_get(root, "key");
    if (key && !json_is_string(key)) {
        snprintf(err, errlen, "connection file: \"key\" must be a string");
        goto out;
    }
    c->key_len = key ? json_string_length(key) : 0;
    if (strcmp(c->signature_scheme, "hmac-sha256") != 0) {
        snprintf(err, errlen,
                 "connection file: signature_scheme \"%s\" is not supported (only hmac-sha256)",
                 c->signature_scheme);
        goto out;
    }
    if (c->key_len > 0) {
        c->key = malloc(c->key_len);
        if (!c->key) {
            snprintf(err, errlen, "connection file: out of memory");
            goto out;
        }
        memcpy(c->key, json_string_value(key), c->key_len);
    }
    rc = 0;
out:
    json_decref(root);
    if (rc != 0) jp_connection_clear(c);
    return rc;
}

int jp_connection_load(const char *path, struct jp_connection *c, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open connection file %s: %s", path, strerror(errno));
        return -1;
    }
    /* Connection files are a few hundred bytes; 1 MiB bounds a wrong path to a huge file. */
    enum { MAX_SIZE = 1 << 20 };
    char *buf = malloc(MAX_SIZE);
    if (!buf) {
        fclose(f);
        snprintf(err, errlen, "connection file: out of memory");
        return -1;
    }
    size_t n = fread(buf, 1, MAX_SIZE, f);
    int rd_err = ferror(f);
    int too_big = n == MAX_SIZE;
    fclose(f);
    int rc;
    if (rd_err) {
        snprintf(err, errlen, "cannot read connection file %s", path);
        rc = -1;
    } else if (too_big) {
        snprintf(err, errlen, "connection file %s is larger than 1 MiB", path);
        rc = -1;
    } else {
        rc = jp_connection_parse(buf, n, c, err, errlen);
    }
    free(buf);
    return rc;
}

void jp_connection_clear(struct jp_connection *c)
{
    free(c->key);
    memset(c, 0, sizeof *c);
}

int jp_connection_endpoint(const struct jp_connection *c, enum jp_channel ch, char *buf, size_t n)
{
    int w;
    if (strcmp(c->transport, "ipc") == 0)
        w = snprintf(buf, n, "ipc://%s-%d", c->ip, c->ports[ch]);
    else
        w = snprintf(buf, n, "tcp://%s:%d", c->ip, c->ports[ch]);
    return w < 0 || (size_t)w >= n ? -1 : 0;
}
