/* version.c — version and status strings of the engine. */
#include "minitorch/minitorch.h"

#include <assert.h>

const char *mt_version(void) { return MT_VERSION_STRING; }

static const char *const status_names[] = {
    [MT_OK] = "ok",
    [MT_ERR_CANCELLED] = "cancelled",
    [MT_ERR_NOMEM] = "out of memory",
    [MT_ERR_INVALID] = "invalid argument",
};
static_assert(sizeof status_names / sizeof status_names[0] == MT_STATUS_COUNT,
              "one name per mt_status");

const char *mt_status_str(enum mt_status status)
{
    if ((unsigned)status >= MT_STATUS_COUNT) return "unknown status";
    return status_names[status];
}
