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
#include <errno.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

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

/* Unix stream sockets (unix(7)): the events socket the daemon listens on, and its clients. */

/* accept4(2) is a GNU extension the Glibc module leaves out. */
extern int accept4(int sockfd, struct sockaddr *addr, socklen_t *addrlen, int flags);

/* The longest path a sockaddr_un holds, without its terminating NUL (107 on Linux). */
static const int clinuxsys_unix_path_max = (int)sizeof(((struct sockaddr_un *)0)->sun_path) - 1;

/* A socket bound to `path` and listening with `backlog`, non-blocking and close-on-exec (socket, bind,
 * listen); -1 with errno when a step fails (the socket closed again). The path must not exist. */
static inline int clinuxsys_unix_listen(const char *path, int backlog) {
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    if (strlen(path) > (size_t)clinuxsys_unix_path_max) { errno = ENAMETOOLONG; return -1; }
    strncpy(address.sun_path, path, sizeof address.sun_path - 1);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0 || listen(fd, backlog) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

/* A blocking, close-on-exec socket connected to the socket at `path` (socket, connect); -1 with errno. */
static inline int clinuxsys_unix_connect(const char *path) {
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    if (strlen(path) > (size_t)clinuxsys_unix_path_max) { errno = ENAMETOOLONG; return -1; }
    strncpy(address.sun_path, path, sizeof address.sun_path - 1);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int result;
    do { result = connect(fd, (struct sockaddr *)&address, sizeof address); } while (result != 0 && errno == EINTR);
    if (result != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

/* A non-blocking, close-on-exec TCP socket listening on `port` of every address of the machine (IPv6's
 * `::` taking IPv4 too, or IPv4's 0.0.0.0 where the kernel has no IPv6), SO_REUSEADDR set so that a
 * restart finds its port free while the last run's connections wait out TIME_WAIT; `backlog` waiting
 * connections. Port 0: one the kernel chooses. The port it listens on in `*bound_port`. -1 with errno. */
static inline int clinuxsys_tcp_listen(uint16_t port, int backlog, uint16_t *bound_port) {
    int on = 1, off = 0;
    int fd = socket(AF_INET6, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd >= 0) {
        struct sockaddr_in6 address;
        memset(&address, 0, sizeof address);
        address.sin6_family = AF_INET6;
        address.sin6_addr = in6addr_any;
        address.sin6_port = htons(port);
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof off);
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
        if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0) goto failed;
    } else if (errno == EAFNOSUPPORT) {
        fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0) return -1;
        struct sockaddr_in address;
        memset(&address, 0, sizeof address);
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_ANY);
        address.sin_port = htons(port);
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
        if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0) goto failed;
    } else {
        return -1;
    }
    if (listen(fd, backlog) != 0) goto failed;
    struct sockaddr_storage bound;
    socklen_t length = sizeof bound;
    if (getsockname(fd, (struct sockaddr *)&bound, &length) != 0) goto failed;
    *bound_port = ntohs(bound.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&bound)->sin6_port : ((struct sockaddr_in *)&bound)->sin_port);
    return fd;
failed:;
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
}

/* Sends each small write of `fd` at once (TCP_NODELAY): a message of ESPHome's API is one write, and
 * Nagle's algorithm would hold it until the last one's acknowledgement. 0, or -1 with errno. */
static inline int clinuxsys_tcp_no_delay(int fd) {
    int on = 1;
    return setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

/* The peer of connected socket `fd` as text (`192.168.1.20`, `fe80::1`: an IPv4 address mapped into IPv6
 * shown as IPv4) into `text` of `size` bytes; 0, or -1 with errno. */
static inline int clinuxsys_tcp_peer(int fd, char *text, size_t size) {
    struct sockaddr_storage peer;
    socklen_t length = sizeof peer;
    if (getpeername(fd, (struct sockaddr *)&peer, &length) != 0) return -1;
    if (peer.ss_family == AF_INET6) {
        struct sockaddr_in6 *six = (struct sockaddr_in6 *)&peer;
        if (IN6_IS_ADDR_V4MAPPED(&six->sin6_addr)) return inet_ntop(AF_INET, &six->sin6_addr.s6_addr[12], text, size) ? 0 : -1;
        return inet_ntop(AF_INET6, &six->sin6_addr, text, size) ? 0 : -1;
    }
    return inet_ntop(AF_INET, &((struct sockaddr_in *)&peer)->sin_addr, text, size) ? 0 : -1;
}

/* The next waiting connection on listening socket `fd`, non-blocking and close-on-exec (accept4); -1
 * with errno (EAGAIN: none waits). */
static inline int clinuxsys_unix_accept(int fd) { return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC); }

/* The process at the other end of connected socket `fd` when it connected (SO_PEERCRED): 0 and its
 * pid and uid, or -1 with errno. struct ucred needs _GNU_SOURCE; this is its layout. */
static inline int clinuxsys_peer_credentials(int fd, int32_t *pid, uint32_t *uid) {
    struct { int32_t pid; uint32_t uid; uint32_t gid; } credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *pid = credentials.pid;
    *uid = credentials.uid;
    return 0;
}

/* send(2) of `count` bytes without SIGPIPE and without blocking (MSG_NOSIGNAL | MSG_DONTWAIT): a
 * client that went away is an EPIPE, never a signal. */
static inline long clinuxsys_send(int fd, const void *bytes, unsigned long count) {
    return (long)send(fd, bytes, count, MSG_NOSIGNAL | MSG_DONTWAIT);
}

/* epoll(7), for a sink with many descriptors: the loop polls the epoll descriptor alone, which is
 * readable whenever one of its descriptors is ready as watched. */

/* A new epoll descriptor, close-on-exec (epoll_create1); -1 with errno. */
static inline int clinuxsys_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

/* Watches `fd` in `epfd` for reading when `want_read`, for writing when `want_write`, and for a hang-up
 * or an error always, under `token` (epoll_ctl ADD, or MOD when it is there already). */
static inline int clinuxsys_epoll_set(int epfd, int fd, int want_read, int want_write, uint64_t token) {
    struct epoll_event event;
    memset(&event, 0, sizeof event);
    event.events = (want_read ? EPOLLIN : 0) | (want_write ? EPOLLOUT : 0);
    event.data.u64 = token;
    if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &event) == 0) return 0;
    if (errno != EEXIST) return -1;
    return epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &event);
}

/* Stops watching `fd` (epoll_ctl DEL); one not watched is not an error. */
static inline int clinuxsys_epoll_remove(int epfd, int fd) {
    struct epoll_event event;
    memset(&event, 0, sizeof event);
    if (epoll_ctl(epfd, EPOLL_CTL_DEL, fd, &event) == 0) return 0;
    return (errno == ENOENT || errno == EBADF) ? 0 : -1;
}

/* What is ready now, without waiting (epoll_wait, timeout 0), at most `capacity`: each one's token and
 * whether it is readable (bit 1), writable (bit 2) or failed or hung up (bit 4). The count, or -1. */
static inline int clinuxsys_epoll_take(int epfd, uint64_t *tokens, uint8_t *ready, int capacity) {
    struct epoll_event events[64];
    if (capacity > 64) capacity = 64;
    int count;
    do { count = epoll_wait(epfd, events, capacity, 0); } while (count < 0 && errno == EINTR);
    for (int i = 0; i < count; i++) {
        tokens[i] = events[i].data.u64;
        ready[i] = (uint8_t)(((events[i].events & EPOLLIN) ? 1 : 0) | ((events[i].events & EPOLLOUT) ? 2 : 0) |
                             ((events[i].events & (EPOLLERR | EPOLLHUP | EPOLLRDHUP)) ? 4 : 0));
    }
    return count;
}

#endif
