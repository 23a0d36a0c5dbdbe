/* cancel.c — the process-wide cancel flag (see minitorch.h, "Cancellation").
 *
 * It is the one global the project keeps: signal handlers cannot be handed a context pointer,
 * and every long loop in the engine, the interpreter and the kernel must see the same flag.
 * An atomic_bool that is lock-free is safe to store from a signal handler (C11 7.14.1.1). */
#include "minitorch/minitorch.h"

#include <stdatomic.h>

static atomic_bool cancel_flag = false;

_Static_assert(ATOMIC_BOOL_LOCK_FREE == 2,
               "the cancel flag must be lock-free to be raised from a signal handler");

void mt_cancel_request(void) { atomic_store_explicit(&cancel_flag, true, memory_order_relaxed); }

void mt_cancel_clear(void) { atomic_store_explicit(&cancel_flag, false, memory_order_relaxed); }

bool mt_cancel_requested(void) { return atomic_load_explicit(&cancel_flag, memory_order_relaxed); }

/* The flag is one byte (lock-free: no lock beside it), which a character type may read. */
_Static_assert(sizeof cancel_flag == 1, "the cancel flag is read as one byte");

const volatile unsigned char *mt_cancel_flag(void)
{
    return (const volatile unsigned char *)&cancel_flag;
}
