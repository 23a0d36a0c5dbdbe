/* fuzz_connection.c — libFuzzer target for the connection-file parser: any bytes must give
 * either a connection with valid ports and a supported transport, or an error message. */
#include "jupyter/jupyter.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    struct jp_connection c;
    char err[256] = "";
    if (jp_connection_parse((const char *)data, size, &c, err, sizeof err) == 0) {
        for (int ch = 0; ch < JP_CHANNEL_COUNT; ch++)
            if (c.ports[ch] < 1 || c.ports[ch] > 65535) abort();
        if (strcmp(c.transport, "tcp") != 0 && strcmp(c.transport, "ipc") != 0) abort();
        char ep[400];
        if (jp_connection_endpoint(&c, JP_SHELL, ep, sizeof ep) != 0) abort();
        jp_connection_clear(&c);
    } else if (err[0] == '\0') {
        abort();
    }
    return 0;
}
