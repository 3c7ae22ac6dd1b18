/*
 * linux_sys.h: the Linux calls LinuxSys wraps that Swift's Glibc module does not export (it is built
 * without _GNU_SOURCE): ppoll, signalfd, eventfd, inotify, pidfd_open, sched_getaffinity and POSIX_SPAWN_SETSID; and the
 * uinput ioctls, whose request numbers are function-like macros Swift cannot import.
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
#include <string.h>
#include <sys/ioctl.h>
#include <linux/input.h>
#include <linux/uinput.h>

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

/* The CPUs this process may run on: sched_getaffinity(2) called directly (glibc's wrapper and CPU_COUNT
 * need _GNU_SOURCE), its mask's bits counted; -1 (errno set) if the call fails. 1024 CPUs at most. */
static inline int clinuxsys_allowed_cpu_count(void) {
    unsigned long mask[1024 / (8 * sizeof(unsigned long))];
    long written = syscall(SYS_sched_getaffinity, 0, sizeof mask, mask);
    if (written < 0) return -1;
    int count = 0;
    for (long i = 0; i < written / (long)sizeof(unsigned long); i++) count += __builtin_popcountl(mask[i]);
    return count;
}

/* uinput (Documentation/input/uinput.rst): a virtual input device made by writing to /dev/uinput. */

/* ioctl(fd, UI_SET_EVBIT, type): the device reports events of `type` (EV_KEY, EV_REP). */
static inline int clinuxsys_uinput_set_evbit(int fd, int type) { return ioctl(fd, UI_SET_EVBIT, type); }
/* ioctl(fd, UI_SET_KEYBIT, code): the device has key `code`. */
static inline int clinuxsys_uinput_set_keybit(int fd, int code) { return ioctl(fd, UI_SET_KEYBIT, code); }
/* UI_SET_RELBIT: the device has relative axis `code` (REL_WHEEL, REL_DIAL...). */
static inline int clinuxsys_uinput_set_relbit(int fd, int code) { return ioctl(fd, UI_SET_RELBIT, code); }
/* ioctl(fd, UI_DEV_SETUP, ...) (Linux 4.5): the device's name (cut to UINPUT_MAX_NAME_SIZE - 1 bytes)
 * and ids, on the virtual bus. */
static inline int clinuxsys_uinput_setup(int fd, const char *name, unsigned short vendor, unsigned short product) {
    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.id.bustype = BUS_VIRTUAL;
    setup.id.vendor = vendor;
    setup.id.product = product;
    setup.id.version = 1;
    strncpy(setup.name, name, UINPUT_MAX_NAME_SIZE - 1);
    return ioctl(fd, UI_DEV_SETUP, &setup);
}
/* ioctl(fd, UI_DEV_CREATE): the device appears (/dev/input/eventN). */
static inline int clinuxsys_uinput_create(int fd) { return ioctl(fd, UI_DEV_CREATE); }
/* ioctl(fd, UI_DEV_DESTROY): the device goes away (closing the descriptor does it too). */
static inline int clinuxsys_uinput_destroy(int fd) { return ioctl(fd, UI_DEV_DESTROY); }
/* ioctl(fd, UI_GET_SYSNAME(length), buffer) (Linux 3.15): the device's name in /sys/class/input ("input7"). */
static inline int clinuxsys_uinput_sysname(int fd, char *buffer, unsigned length) { return ioctl(fd, UI_GET_SYSNAME(length), buffer); }
static const int clinuxsys_uinput_max_name_size = UINPUT_MAX_NAME_SIZE;

#endif
