/* version.c — version and status strings of the engine. */
#include "minitorch/minitorch.h"

#include <assert.h>

const char *mt_version(void) { return MT_VERSION_STRING; }

/* {description, the Python exception a user sees} per status. */
static const struct {
    const char *str, *ename;
} statuses[] = {
    [MT_OK] = {"ok", ""},
    [MT_ERR_CANCELLED] = {"cancelled", "KeyboardInterrupt"},
    [MT_ERR_NOMEM] = {"out of memory", "MemoryError"},
    [MT_ERR_INVALID] = {"invalid argument", "ValueError"},
    [MT_ERR_SHAPE] = {"shape mismatch", "ShapeError"},
    [MT_ERR_INDEX] = {"index out of range", "IndexError"},
    [MT_ERR_BACKEND] = {"backend unavailable or mixed", "RuntimeError"},
    [MT_ERR_GRAD] = {"invalid backward", "RuntimeError"},
};
static_assert(sizeof statuses / sizeof statuses[0] == MT_STATUS_COUNT, "one entry per mt_status");

const char *mt_status_str(enum mt_status status)
{
    if ((unsigned)status >= MT_STATUS_COUNT) return "unknown status";
    return statuses[status].str;
}

const char *mt_status_ename(enum mt_status status)
{
    if ((unsigned)status >= MT_STATUS_COUNT) return "RuntimeError";
    return statuses[status].ename;
}
