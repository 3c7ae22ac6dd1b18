/*
 * mosquitto_shim.h: libmosquitto's declarations (Debian's libmosquitto-dev, 2.0.x: the client library
 * of the Mosquitto broker) for Swift, plus the few calls that drive its socket from our own event loop.
 * The program does not link libmosquitto: Sources/MQTT/MosquittoLibrary.swift opens it at run time
 * (dlopen) when a configuration has an mqtt: section, so only the types and constants are used here.
 *
 * We never call mosquitto_loop_start (no threads) nor mosquitto_loop (it blocks in select): the MQTT
 * sink hands the loop one epoll descriptor that watches the client's socket for reading and, while
 * libmosquitto has bytes to send (mosquitto_want_write), for writing. The epoll descriptor outlives
 * reconnects, so the loop polls one stable descriptor while the socket under it changes.
 *
 * Every function returns -1 with errno set on failure, like the system calls it wraps.
 */
#ifndef GPIO_DEBOUNCE_MOSQUITTO_SHIM_H
#define GPIO_DEBOUNCE_MOSQUITTO_SHIM_H

#include <mosquitto.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

/* A new epoll descriptor, close-on-exec (epoll_create1). Owned by the caller. */
static inline int gdm_watch_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

/* Watches `fd` in `epfd` for reading, and for writing too when `want_write` (epoll_ctl ADD, or MOD
 * when it is already there). */
static inline int gdm_watch_set(int epfd, int fd, bool want_write) {
    struct epoll_event event;
    memset(&event, 0, sizeof event);
    event.events = EPOLLIN | (want_write ? EPOLLOUT : 0);
    event.data.fd = fd;
    if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &event) == 0) return 0;
    if (errno != EEXIST) return -1;
    return epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &event);
}

/* Stops watching `fd` (epoll_ctl DEL); a descriptor already closed is not an error. */
static inline int gdm_watch_remove(int epfd, int fd) {
    struct epoll_event event;
    memset(&event, 0, sizeof event);
    if (epoll_ctl(epfd, EPOLL_CTL_DEL, fd, &event) == 0) return 0;
    if (errno == ENOENT || errno == EBADF) return 0;
    return -1;
}

/* Without waiting (epoll_wait, timeout 0): 1 and the ready events in *readable / *writable /
 * *failed, 0 when nothing is ready, -1 on failure. */
static inline int gdm_watch_take(int epfd, bool *readable, bool *writable, bool *failed) {
    struct epoll_event event;
    memset(&event, 0, sizeof event);
    int count;
    do { count = epoll_wait(epfd, &event, 1, 0); } while (count < 0 && errno == EINTR);
    *readable = count > 0 && (event.events & EPOLLIN);
    *writable = count > 0 && (event.events & EPOLLOUT);
    *failed = count > 0 && (event.events & (EPOLLERR | EPOLLHUP));
    return count;
}

#endif
