/*
 * linux_sys.h: the Linux calls LinuxSys wraps that Swift's Glibc module does not export (it is built
 * without _GNU_SOURCE): ppoll, signalfd, eventfd, inotify, pidfd_open and POSIX_SPAWN_SETSID.
 */
#ifndef GPIO_DEBOUNCE_LINUX_SYS_H
#define GPIO_DEBOUNCE_LINUX_SYS_H

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

extern int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *timeout, const sigset_t *sigmask);

/* posix_spawn flag (glibc 2.26): the child calls setsid(), so it leads a session and process group of its own. */
#ifndef POSIX_SPAWN_SETSID
#define POSIX_SPAWN_SETSID 0x80
#endif
static const short clinuxsys_posix_spawn_setsid = POSIX_SPAWN_SETSID;

/* pidfd_open(2) (Linux 5.3): a descriptor that becomes readable when the process ends. glibc has a
 * wrapper only from 2.36, so call it directly; its number is the same on every architecture. */
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
static inline int clinuxsys_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

#endif
