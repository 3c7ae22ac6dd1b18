/*
 * avahi_shim.h: the part of avahi's client library ABI (libavahi-client.so.3 and the
 * libavahi-common.so.3 it links: the client of avahi-daemon's D-Bus API, which publishes and browses
 * mDNS/DNS-SD services) that Sources/ServiceAdvertisement uses, for Swift.
 *
 * The program does not link the library: ServiceAdvertisement/AvahiLibrary.swift opens it at run
 * time (dlopen) when a configuration has an api: section, and finds each function with dlsym, so only
 * these types and constants are needed. They are declared here, as avahi 0.6 to 0.8's headers
 * (avahi-common/{watch,defs,address}.h, avahi-client/{client,publish,lookup}.h) declare them, rather
 * than included from libavahi-client-dev: that package pulls in libdbus-1-dev, whose maintainer script
 * cannot run in the arm64 sysroot's chrootless install (packaging/cross-arm64), and the ABI has not
 * changed since avahi 0.6 (2006). Tests/ServiceAdvertisementTests drive the real library with them.
 *
 * Its event loop is ours: ServiceAdvertisement/AvahiLoopPoll.swift is the AvahiPoll that the library
 * hands its D-Bus socket and timeouts to.
 */
#ifndef GPIO_DEBOUNCE_AVAHI_SHIM_H
#define GPIO_DEBOUNCE_AVAHI_SHIM_H

#include <poll.h>
#include <stdint.h>
#include <sys/time.h>

/* avahi-common/address.h */
typedef int AvahiProtocol;
typedef int AvahiIfIndex;
enum { AVAHI_PROTO_UNSPEC = -1 };
enum { AVAHI_IF_UNSPEC = -1 };

/* avahi-common/watch.h: the event-loop table a program gives the library. */
typedef enum {
    AVAHI_WATCH_IN = POLLIN,
    AVAHI_WATCH_OUT = POLLOUT,
    AVAHI_WATCH_ERR = POLLERR,
    AVAHI_WATCH_HUP = POLLHUP
} AvahiWatchEvent;
typedef struct AvahiWatch AvahiWatch;     /* the program's: AvahiLoopPoll.Watch */
typedef struct AvahiTimeout AvahiTimeout; /* the program's: AvahiLoopPoll.Timeout */
typedef struct AvahiPoll AvahiPoll;
typedef void (*AvahiWatchCallback)(AvahiWatch *w, int fd, AvahiWatchEvent event, void *userdata);
typedef void (*AvahiTimeoutCallback)(AvahiTimeout *t, void *userdata);
struct AvahiPoll {
    void *userdata;
    AvahiWatch *(*watch_new)(const AvahiPoll *api, int fd, AvahiWatchEvent event, AvahiWatchCallback callback, void *userdata);
    void (*watch_update)(AvahiWatch *w, AvahiWatchEvent event);
    AvahiWatchEvent (*watch_get_events)(AvahiWatch *w);
    void (*watch_free)(AvahiWatch *w);
    /* tv: an absolute time of gettimeofday's clock (CLOCK_REALTIME); NULL disables the timeout. */
    AvahiTimeout *(*timeout_new)(const AvahiPoll *api, const struct timeval *tv, AvahiTimeoutCallback callback, void *userdata);
    void (*timeout_update)(AvahiTimeout *t, const struct timeval *tv);
    void (*timeout_free)(AvahiTimeout *t);
};

/* avahi-common/defs.h */
typedef enum {
    AVAHI_ENTRY_GROUP_UNCOMMITED,
    AVAHI_ENTRY_GROUP_REGISTERING,
    AVAHI_ENTRY_GROUP_ESTABLISHED,
    AVAHI_ENTRY_GROUP_COLLISION,
    AVAHI_ENTRY_GROUP_FAILURE
} AvahiEntryGroupState;
typedef enum { AVAHI_PUBLISH_NONE = 0 } AvahiPublishFlags;
typedef enum { AVAHI_LOOKUP_NONE = 0 } AvahiLookupFlags;
typedef enum { AVAHI_LOOKUP_RESULT_LOCAL = 8, AVAHI_LOOKUP_RESULT_OUR_OWN = 16 } AvahiLookupResultFlags;
typedef enum {
    AVAHI_BROWSER_NEW,
    AVAHI_BROWSER_REMOVE,
    AVAHI_BROWSER_CACHE_EXHAUSTED,
    AVAHI_BROWSER_ALL_FOR_NOW,
    AVAHI_BROWSER_FAILURE
} AvahiBrowserEvent;

/* avahi-client/client.h (AVAHI_CLIENT_S_*: avahi-common/defs.h's AVAHI_SERVER_* values) */
typedef enum {
    AVAHI_CLIENT_S_REGISTERING = 1,
    AVAHI_CLIENT_S_RUNNING = 2,
    AVAHI_CLIENT_S_COLLISION = 3,
    AVAHI_CLIENT_FAILURE = 100,
    AVAHI_CLIENT_CONNECTING = 101
} AvahiClientState;
typedef enum {
    AVAHI_CLIENT_IGNORE_USER_CONFIG = 1,
    AVAHI_CLIENT_NO_FAIL = 2
} AvahiClientFlags;

#endif
