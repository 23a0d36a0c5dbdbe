/* fuzz_wire.c — libFuzzer target for the wire decoder: arbitrary multipart messages.
 *
 * The input is split into frames at every "\n--\n" separator, so the fuzzer controls the frame
 * count and contents; messages are decoded both with signing disabled (to reach the JSON
 * parsing) and with a key (to exercise the signature check). A decoded message is re-encoded and
 * decoded again, which must succeed and give the same msg_type. */
#include "jupyter/jupyter.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    struct jp_bytes frames[64];
    size_t n = 0, start = 0;
    for (size_t i = 0; i + 4 <= size && n < 63; i++) {
        if (memcmp(data + i, "\n--\n", 4) == 0) {
            frames[n++] = (struct jp_bytes){data + start, i - start};
            start = i + 4;
            i += 3;
        }
    }
    frames[n++] = (struct jp_bytes){data + start, size - start};

    static struct jp_signer *open, *keyed;
    if (!open) open = jp_signer_new("", 0);
    if (!keyed) keyed = jp_signer_new("fuzz-key", 8);
    struct jp_signer *signers[2] = {open, keyed};
    for (int s = 0; s < 2; s++) {
        struct jp_message msg;
        if (jp_wire_decode(frames, n, signers[s], &msg) != JP_WIRE_OK) continue;
        struct jp_frame *out;
        long m = jp_wire_encode(&msg, signers[s], &out);
        if (m < 0) abort();
        struct jp_bytes views[128];
        for (long i = 0; i < m && i < 128; i++)
            views[i] = (struct jp_bytes){out[i].data, out[i].len};
        struct jp_message again;
        if (m > 128 || jp_wire_decode(views, (size_t)m, signers[s], &again) != JP_WIRE_OK) abort();
        if (strcmp(jp_message_type(&again), jp_message_type(&msg)) != 0) abort();
        jp_message_clear(&again);
        jp_frames_free(out, (size_t)m);
        jp_message_clear(&msg);
    }
    return 0;
}
