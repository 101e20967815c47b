#ifndef PLUM_SYSTEM_H
#define PLUM_SYSTEM_H
/*
 * What PlumSystem needs from the C library and Glibc's Swift module map leaves out (GNU
 * extensions, macros). Every symbol is prefixed plum_system_.
 *
 * Conventions, as in CPlumShim: functions returning int return -1 and set errno on failure;
 * nothing prints, nothing aborts.
 */

/* errno as its symbolic name ("EACCES"), or NULL when unknown (glibc strerrorname_np). */
const char *plum_system_errno_name(int errnum);
/* errno as the system's message ("Permission denied"), thread-safe (GNU strerror_r). */
const char *plum_system_errno_message(int errnum, char *buffer, unsigned long size);

/* accept4(2) of a connection on `listening`, non-blocking and close-on-exec; the Glibc module
 * leaves accept4 out, since it is a GNU extension. */
int plum_system_accept(int listening);
/* A non-blocking, close-on-exec eventfd(2) counting from 0, for waking a thread in poll(2). */
int plum_system_wake_descriptor(void);
/* The peer of a connected Unix socket as the kernel saw it at connect(2) (SO_PEERCRED):
 * its pid, uid and gid. */
int plum_system_peer_credentials(int socket, int *pid, unsigned int *uid, unsigned int *gid);
/* The peer's supplementary groups (SO_PEERGROUPS, Linux 4.13): at most `capacity` of them
 * into `groups`; returns how many, or -1 with errno (ERANGE: more than `capacity`). */
int plum_system_peer_groups(int socket, unsigned int *groups, int capacity);
/* The calling thread's name as the kernel keeps it (at most 15 bytes), for ps, top and gdb:
 * pthread_setname_np and pthread_getname_np, which Glibc's module map leaves out. */
int plum_system_set_thread_name(const char *name);
int plum_system_thread_name(char *buffer, unsigned long size);
#endif
