/* minitorch.h — the public API of libminitorch, the tensor engine.
 *
 * This header is the engine's manual. The engine is a plain C11 library: it never includes the
 * kernel's headers, ZeroMQ or Jansson, so it builds and tests on a machine that has only a
 * compiler, CMake and (optionally) CUDA.
 *
 * Cancellation. Long-running engine loops poll one process-wide flag, the only global state the
 * project allows: a SIGINT handler (or sigwait thread) and the kernel's control thread raise it
 * with mt_cancel_request(); the code that runs a user's request clears it with
 * mt_cancel_clear() before starting, and loops test it with mt_cancel_requested(). The flag is a
 * lock-free atomic, so raising it is async-signal-safe.
 *
 *     mt_cancel_clear();
 *     for (long i = 0; i < n; i++) {
 *         if (mt_cancel_requested()) return MT_ERR_CANCELLED;
 *         ...
 *     }
 */
#ifndef MINITORCH_MINITORCH_H
#define MINITORCH_MINITORCH_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MT_VERSION_MAJOR 0
#define MT_VERSION_MINOR 1
#define MT_VERSION_PATCH 0
#define MT_VERSION_STRING "0.1.0"

/* Status codes returned by engine calls. A user mistake is a status, never an abort. */
enum mt_status {
    MT_OK = 0,
    MT_ERR_CANCELLED, /* the cancel flag was raised while the call ran */
    MT_ERR_NOMEM,     /* an allocation failed or the memory limit was reached */
    MT_ERR_INVALID,   /* an argument was out of its domain */
    MT_STATUS_COUNT
};

/* The engine's version string, e.g. "0.1.0". Static storage; never freed. */
const char *mt_version(void);

/* A short English description of a status ("cancelled", ...). Static storage. */
const char *mt_status_str(enum mt_status status);

/* Raises the cancel flag. Async-signal-safe; callable from any thread. */
void mt_cancel_request(void);

/* Lowers the cancel flag; called before a request starts running user code. */
void mt_cancel_clear(void);

/* True while the flag is raised. Cheap enough for every iteration of an outer loop. */
bool mt_cancel_requested(void);

#ifdef __cplusplus
}
#endif

#endif
