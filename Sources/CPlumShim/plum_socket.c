#define _GNU_SOURCE
#include <sys/eventfd.h>
#include <sys/socket.h>
#include "plum_shim.h"

int plum_accept_connection(int listening) {
    return accept4(listening, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int plum_wake_descriptor(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }
