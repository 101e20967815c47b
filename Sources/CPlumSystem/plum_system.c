#define _GNU_SOURCE
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include "plum_system.h"

const char *plum_system_errno_name(int errnum) { return strerrorname_np(errnum); }

const char *plum_system_errno_message(int errnum, char *buffer, unsigned long size) {
    /* The GNU strerror_r returns a pointer that may or may not be `buffer`. */
    return strerror_r(errnum, buffer, size);
}

int plum_system_accept(int listening) {
    return accept4(listening, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int plum_system_wake_descriptor(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }
