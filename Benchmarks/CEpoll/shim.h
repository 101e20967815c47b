// epoll for the benchmark's client swarm; Glibc's module map leaves <sys/epoll.h> out.
#include <sys/epoll.h>
