/*
 * avahi_shim.h: avahi's client library declarations (Debian's libavahi-client-dev, 0.8: the client of
 * avahi-daemon's D-Bus API, which publishes and browses mDNS/DNS-SD services) for Swift.
 * The program does not link libavahi-client: Sources/ServiceAdvertisement/AvahiLibrary.swift opens it
 * at run time (dlopen) when a configuration has an api: section, so only the types and constants are
 * used here. Its event loop is ours: ServiceAdvertisement/AvahiLoopPoll.swift is the AvahiPoll that
 * the library hands its D-Bus socket and timeouts to.
 */
#ifndef GPIO_DEBOUNCE_AVAHI_SHIM_H
#define GPIO_DEBOUNCE_AVAHI_SHIM_H

#include <avahi-client/client.h>
#include <avahi-client/lookup.h>
#include <avahi-client/publish.h>
#include <avahi-common/error.h>
#include <avahi-common/strlst.h>
#include <avahi-common/watch.h>

#endif
