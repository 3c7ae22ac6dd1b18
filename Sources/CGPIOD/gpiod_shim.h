/*
 * gpiod_shim.h: one small C API over libgpiod 1.6 (C API v1: Debian 12, Raspberry Pi OS bookworm)
 * and libgpiod 2.x (C API v2: Debian 13, Raspberry Pi OS trixie, Ubuntu 24.04), for Swift.
 *
 * Neither gpiod.h has a version macro and both share one include guard, but only v1 defines
 * GPIOD_LINE_BULK_MAX_LINES, so that is what we branch on. Same-named enums have different
 * values in v1 and v2 (bias pull-up is 3 in v1, 4 in v2), so raw values never cross this header:
 * callers use the GDB_* constants below and the shim maps them.
 *
 * Every function returns -1 or NULL with errno set on failure, like libgpiod itself.
 * Levels are raw (active-low is applied by the debouncer, never by the kernel).
 * Timestamps are nanoseconds of CLOCK_MONOTONIC.
 */
#ifndef GPIO_DEBOUNCE_GPIOD_SHIM_H
#define GPIO_DEBOUNCE_GPIOD_SHIM_H

#include <gpiod.h>
#include <linux/gpio.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef GPIOD_LINE_BULK_MAX_LINES
#define GDB_LIBGPIOD_MAJOR 1
#else
#define GDB_LIBGPIOD_MAJOR 2
#endif

/* Bias, as the caller asks for it (mapped to each generation's own values). */
enum gdb_bias { GDB_BIAS_AS_IS = 0, GDB_BIAS_DISABLED = 1, GDB_BIAS_PULL_UP = 2, GDB_BIAS_PULL_DOWN = 3 };

/* One edge event, the same for both generations. */
typedef struct {
    uint64_t timestamp_ns;      /* CLOCK_MONOTONIC (v1: the kernel's choice, monotonic since Linux 5.7) */
    unsigned int offset;        /* line offset on the chip */
    int rising;                 /* 1: the raw level went to 1; 0: to 0 */
    unsigned long line_seqno;   /* v2: per-line sequence number (gaps = lost events); v1: 0 */
} gdb_edge_event;

/* The most lines one request may hold (v1's bulk limit; v2 allows the same 64). */
#define GDB_MAX_LINES 64
/* Events read per call. */
#define GDB_EVENT_BATCH 64

/* 1 or 2: the libgpiod generation this was compiled against. */
static inline int gdb_libgpiod_major(void) { return GDB_LIBGPIOD_MAJOR; }

/* The library's version string (v1: gpiod_version_string, v2: gpiod_api_version). Owned by libgpiod. */
static inline const char *gdb_libgpiod_version(void) {
#if GDB_LIBGPIOD_MAJOR == 1
    return gpiod_version_string();
#else
    return gpiod_api_version();
#endif
}

/* Copies at most size - 1 bytes of src (NULL: "") into dst, always terminated. */
static inline void gdb_copy(char *dst, size_t size, const char *src) {
    if (size == 0) return;
    if (!src) src = "";
    strncpy(dst, src, size - 1);
    dst[size - 1] = '\0';
}

/* ---- Chips ------------------------------------------------------------------------------- */

/* Opens a chip by path (gpiod_chip_open). Close with gdb_chip_close. */
static inline struct gpiod_chip *gdb_chip_open(const char *path) { return gpiod_chip_open(path); }

/* gpiod_chip_close. */
static inline void gdb_chip_close(struct gpiod_chip *chip) { gpiod_chip_close(chip); }

/* The chip's name ("gpiochip0"), label ("pinctrl-bcm2711") and number of lines.
 * (v1: gpiod_chip_name/label/num_lines; v2: gpiod_chip_get_info and its getters.) */
static inline int gdb_chip_info(struct gpiod_chip *chip, char *name, size_t name_size, char *label,
                                size_t label_size, unsigned int *num_lines) {
#if GDB_LIBGPIOD_MAJOR == 1
    gdb_copy(name, name_size, gpiod_chip_name(chip));
    gdb_copy(label, label_size, gpiod_chip_label(chip));
    *num_lines = gpiod_chip_num_lines(chip);
    return 0;
#else
    struct gpiod_chip_info *info = gpiod_chip_get_info(chip);
    if (!info) return -1;
    gdb_copy(name, name_size, gpiod_chip_info_get_name(info));
    gdb_copy(label, label_size, gpiod_chip_info_get_label(info));
    *num_lines = (unsigned int)gpiod_chip_info_get_num_lines(info);
    gpiod_chip_info_free(info);
    return 0;
#endif
}

/* A line's name, consumer (empty when unused), whether it is used, and whether it is an output: one
 * line-info ioctl. (v1: gpiod_chip_get_line, which reads the line's info every time it is called
 * (gpiod_line_update), + getters; v2: gpiod_chip_get_line_info + getters.) */
static inline int gdb_line_info(struct gpiod_chip *chip, unsigned int offset, char *name, size_t name_size,
                                char *consumer, size_t consumer_size, int *used, int *output) {
#if GDB_LIBGPIOD_MAJOR == 1
    struct gpiod_line *line = gpiod_chip_get_line(chip, offset);
    if (!line) return -1;
    gdb_copy(name, name_size, gpiod_line_name(line));
    gdb_copy(consumer, consumer_size, gpiod_line_consumer(line));
    *used = gpiod_line_is_used(line) ? 1 : 0;
    *output = gpiod_line_direction(line) == GPIOD_LINE_DIRECTION_OUTPUT ? 1 : 0;
    return 0;
#else
    struct gpiod_line_info *info = gpiod_chip_get_line_info(chip, offset);
    if (!info) return -1;
    gdb_copy(name, name_size, gpiod_line_info_get_name(info));
    gdb_copy(consumer, consumer_size, gpiod_line_info_get_consumer(info));
    *used = gpiod_line_info_is_used(info) ? 1 : 0;
    *output = gpiod_line_info_get_direction(info) == GPIOD_LINE_DIRECTION_OUTPUT ? 1 : 0;
    gpiod_line_info_free(info);
    return 0;
#endif
}

/* ---- Requests ---------------------------------------------------------------------------- */

/* Lines requested as inputs with both-edge events. Owned by the caller: free with gdb_request_release. */
typedef struct gdb_request {
    unsigned int count;
    unsigned int offsets[GDB_MAX_LINES];
    /* The descriptors events are read from, taken from libgpiod once the lines are requested and
     * owned by it (v1: one per line, gpiod_line_event_get_fd; v2: fds[0], gpiod_line_request_get_fd). */
    int fds[GDB_MAX_LINES];
#if GDB_LIBGPIOD_MAJOR == 1
    struct gpiod_line_bulk bulk;
#else
    struct gpiod_line_request *request;
#endif
} gdb_request;

/* Requests `count` lines of `chip` (by offset) as inputs with both-edge events, each with its own
 * bias `biases[i]` and (v2 only) kernel debouncing `debounce_periods_us[i]` (0: none), as consumer
 * `consumer`, with (v2 only) a kernel event queue of `event_buffer_size` events (0: the kernel's
 * default of 16 per line). v1 with any debounce period fails with ENOTSUP: only uAPI v2 debounces in
 * the kernel. v1 requests each line on its own (its flags are per request); v2 makes one request.
 * (v1: gpiod_line_request_both_edges_events_flags; v2: gpiod_chip_request_lines.) */
static inline gdb_request *gdb_request_lines(struct gpiod_chip *chip, const unsigned int *offsets,
                                             unsigned int count, const char *consumer, const int *biases,
                                             const unsigned long *debounce_periods_us,
                                             unsigned int event_buffer_size) {
    if (count == 0 || count > GDB_MAX_LINES) { errno = EINVAL; return NULL; }
    gdb_request *request = (gdb_request *)calloc(1, sizeof(gdb_request));
    if (!request) return NULL;
    request->count = count;
    memcpy(request->offsets, offsets, count * sizeof(unsigned int));
#if GDB_LIBGPIOD_MAJOR == 1
    (void)event_buffer_size;
    for (unsigned int i = 0; i < count; i++) {
        if (debounce_periods_us[i] != 0) { free(request); errno = ENOTSUP; return NULL; }
    }
    gpiod_line_bulk_init(&request->bulk);
    for (unsigned int i = 0; i < count; i++) {
        int flags = 0;
        switch (biases[i]) {
        case GDB_BIAS_DISABLED: flags = GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE; break;
        case GDB_BIAS_PULL_UP: flags = GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP; break;
        case GDB_BIAS_PULL_DOWN: flags = GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN; break;
        default: break;
        }
        struct gpiod_line *line = gpiod_chip_get_line(chip, offsets[i]);
        if (!line || gpiod_line_request_both_edges_events_flags(line, consumer, flags) < 0) {
            int saved = errno;
            /* libgpiod 1.6 crashes releasing an empty bulk: release only what was requested. */
            if (gpiod_line_bulk_num_lines(&request->bulk) > 0) gpiod_line_release_bulk(&request->bulk);
            free(request);
            errno = saved;
            return NULL;
        }
        gpiod_line_bulk_add(&request->bulk, line);
        request->fds[i] = gpiod_line_event_get_fd(line);
    }
    return request;
#else
    struct gpiod_line_config *line_config = gpiod_line_config_new();
    struct gpiod_request_config *request_config = gpiod_request_config_new();
    int ok = line_config && request_config;
    for (unsigned int i = 0; ok && i < count; i++) {
        struct gpiod_line_settings *settings = gpiod_line_settings_new();
        if (!settings) { ok = 0; break; }
        enum gpiod_line_bias mapped = GPIOD_LINE_BIAS_AS_IS;
        switch (biases[i]) {
        case GDB_BIAS_DISABLED: mapped = GPIOD_LINE_BIAS_DISABLED; break;
        case GDB_BIAS_PULL_UP: mapped = GPIOD_LINE_BIAS_PULL_UP; break;
        case GDB_BIAS_PULL_DOWN: mapped = GPIOD_LINE_BIAS_PULL_DOWN; break;
        default: break;
        }
        ok = gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT) == 0
            && gpiod_line_settings_set_edge_detection(settings, GPIOD_LINE_EDGE_BOTH) == 0
            && gpiod_line_settings_set_bias(settings, mapped) == 0
            && gpiod_line_settings_set_event_clock(settings, GPIOD_LINE_CLOCK_MONOTONIC) == 0;
        gpiod_line_settings_set_debounce_period_us(settings, debounce_periods_us[i]);
        if (ok) ok = gpiod_line_config_add_line_settings(line_config, &offsets[i], 1, settings) == 0;
        int saved = errno;
        gpiod_line_settings_free(settings);
        errno = saved;
    }
    if (ok) {
        gpiod_request_config_set_consumer(request_config, consumer);
        gpiod_request_config_set_event_buffer_size(request_config, event_buffer_size);
        request->request = gpiod_chip_request_lines(chip, request_config, line_config);
        ok = request->request != NULL;
    }
    if (ok) request->fds[0] = gpiod_line_request_get_fd(request->request);
    int saved = errno;
    if (line_config) gpiod_line_config_free(line_config);
    if (request_config) gpiod_request_config_free(request_config);
    if (!ok) {
        if (request->request) gpiod_line_request_release(request->request);
        free(request);
        errno = saved ? saved : ENOMEM;
        return NULL;
    }
    return request;
#endif
}

/* How many file descriptors to poll: v1 has one per line, v2 one per request. */
static inline unsigned int gdb_request_fd_count(const gdb_request *request) {
#if GDB_LIBGPIOD_MAJOR == 1
    return request->count;
#else
    (void)request;
    return 1;
#endif
}

/* File descriptor `index` (< gdb_request_fd_count) to poll for POLLIN.
 * (v1: gpiod_line_event_get_fd; v2: gpiod_line_request_get_fd, both taken at the request.) Owned by the request. */
static inline int gdb_request_fd(gdb_request *request, unsigned int index) { return request->fds[index]; }

/* Reads up to `max` (at most GDB_EVENT_BATCH) queued events from file descriptor `index` into
 * `events`: one read(2) of the kernel's own records (<linux/gpio.h>: v1 struct gpioevent_data, v2
 * struct gpio_v2_line_event), as libgpiod's readers do. Returns the count, or -1 (errno EAGAIN when
 * none is queued on a non-blocking descriptor, as GPIODLines makes them; a blocking one waits; EIO
 * for a short record).
 *
 * This one read is libgpiod's own (v1: gpiod_line_event_read_fd_multiple; v2:
 * gpiod_edge_event_buffer_read_fd) without its layers: they are four or five calls into the shared
 * library per read (and a getter per field per event on v2) on the way of every event, which the
 * latency measured against gpiomon in docs/performance.md pays. The records are the kernel's stable
 * ABI; requests, configuration and levels stay libgpiod's. */
static inline int gdb_request_read_events(gdb_request *request, unsigned int index, gdb_edge_event *events,
                                          unsigned int max) {
    if (max > GDB_EVENT_BATCH) max = GDB_EVENT_BATCH;
#if GDB_LIBGPIOD_MAJOR == 1
    struct gpioevent_data raw[GDB_EVENT_BATCH];
#else
    struct gpio_v2_line_event raw[GDB_EVENT_BATCH];
#endif
    ssize_t bytes = read(request->fds[index], raw, max * sizeof raw[0]);
    if (bytes < 0) return -1;
    if ((size_t)bytes < sizeof raw[0]) { errno = EIO; return -1; }
    int count = (int)((size_t)bytes / sizeof raw[0]);
    for (int i = 0; i < count; i++) {
#if GDB_LIBGPIOD_MAJOR == 1
        events[i].timestamp_ns = raw[i].timestamp;
        events[i].offset = request->offsets[index];
        events[i].rising = raw[i].id == GPIOEVENT_EVENT_RISING_EDGE;
        events[i].line_seqno = 0;
#else
        events[i].timestamp_ns = raw[i].timestamp_ns;
        events[i].offset = raw[i].offset;
        events[i].rising = raw[i].id == GPIO_V2_LINE_EVENT_RISING_EDGE;
        events[i].line_seqno = raw[i].line_seqno;
#endif
    }
    return count;
}

/* The raw level (0 or 1) of the request's line `index`, or -1.
 * (v1: gpiod_line_get_value; v2: gpiod_line_request_get_value.) */
static inline int gdb_request_get_value(gdb_request *request, unsigned int index) {
#if GDB_LIBGPIOD_MAJOR == 1
    return gpiod_line_get_value(gpiod_line_bulk_get_line(&request->bulk, index));
#else
    enum gpiod_line_value value = gpiod_line_request_get_value(request->request, request->offsets[index]);
    if (value == GPIOD_LINE_VALUE_ERROR) return -1;
    return value == GPIOD_LINE_VALUE_ACTIVE ? 1 : 0;
#endif
}

/* Releases the lines and frees the request (v1: gpiod_line_release_bulk; v2: gpiod_line_request_release). */
static inline void gdb_request_release(gdb_request *request) {
    if (!request) return;
#if GDB_LIBGPIOD_MAJOR == 1
    gpiod_line_release_bulk(&request->bulk);
#else
    gpiod_line_request_release(request->request);
#endif
    free(request);
}

#endif
