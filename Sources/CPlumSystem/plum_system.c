#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
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

int plum_system_peer_credentials(int socket, int *pid, unsigned int *uid, unsigned int *gid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(socket, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *pid = credentials.pid;
    *uid = credentials.uid;
    *gid = credentials.gid;
    return 0;
}

#ifndef SO_PEERGROUPS
#define SO_PEERGROUPS 59 /* Linux 4.13, <asm-generic/socket.h>, for older C library headers */
#endif

int plum_system_peer_groups(int socket, unsigned int *groups, int capacity) {
    socklen_t length = (socklen_t)(capacity * sizeof *groups);
    if (getsockopt(socket, SOL_SOCKET, SO_PEERGROUPS, groups, &length) != 0) return -1;
    return (int)(length / sizeof *groups);
}

int plum_system_set_thread_name(const char *name) {
    int error = pthread_setname_np(pthread_self(), name);
    if (error != 0) { errno = error; return -1; }
    return 0;
}

int plum_system_thread_name(char *buffer, unsigned long size) {
    int error = pthread_getname_np(pthread_self(), buffer, size);
    if (error != 0) { errno = error; return -1; }
    return 0;
}
