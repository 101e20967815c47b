#define _GNU_SOURCE
#include <string.h>
#include "plum_shim.h"

const char *plum_errno_name(int errnum) { return strerrorname_np(errnum); }

const char *plum_errno_message(int errnum, char *buffer, unsigned long size) {
    /* The GNU strerror_r returns a pointer that may or may not be `buffer`. */
    return strerror_r(errnum, buffer, size);
}
