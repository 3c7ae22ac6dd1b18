/*
 * gpiod_matrix.h: what a matrix keypad needs beyond gpiod_shim.h: its columns requested as outputs
 * that are driven low one at a time or all at once and are inputs (high impedance) otherwise, and its
 * rows' levels read in one call. Same conventions as gpiod_shim.h: -1 or NULL with errno on failure,
 * raw levels (0 low, 1 high).
 */
#ifndef GPIO_DEBOUNCE_GPIOD_MATRIX_H
#define GPIO_DEBOUNCE_GPIOD_MATRIX_H

#include "gpiod_shim.h"

/* A keypad's columns: `count` lines of one chip, each driven low or an input. Owned by the caller:
 * free with gdb_columns_release, which leaves every column an input. */
typedef struct gdb_columns {
    unsigned int count;
    unsigned int offsets[GDB_MAX_LINES];
    /* Bit i set: column i is driven low now; clear: it is an input. */
    uint64_t driven;
#if GDB_LIBGPIOD_MAJOR == 1
    struct gpiod_line *lines[GDB_MAX_LINES];
#else
    struct gpiod_line_request *request;
    /* One line configuration per drive, made once: configs[i] drives column i alone, configs[count]
     * drives them all (a scan step reconfigures with one ioctl and allocates nothing). */
    struct gpiod_line_config *configs[GDB_MAX_LINES + 1];
#endif
} gdb_columns;

#if GDB_LIBGPIOD_MAJOR == 2
/* A line configuration of `count` lines, those whose bit is set in `driven` outputs at 0 (low),
 * the others inputs with no bias. */
static inline struct gpiod_line_config *gdb_columns_config(const unsigned int *offsets, unsigned int count, uint64_t driven) {
    struct gpiod_line_config *config = gpiod_line_config_new();
    if (!config) return NULL;
    for (unsigned int i = 0; i < count; i++) {
        struct gpiod_line_settings *settings = gpiod_line_settings_new();
        int ok = settings != NULL;
        if (ok && (driven >> i) & 1) {
            ok = gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_OUTPUT) == 0
                && gpiod_line_settings_set_output_value(settings, GPIOD_LINE_VALUE_INACTIVE) == 0;
        } else if (ok) {
            ok = gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT) == 0;
        }
        if (ok) ok = gpiod_line_config_add_line_settings(config, &offsets[i], 1, settings) == 0;
        int saved = errno;
        if (settings) gpiod_line_settings_free(settings);
        if (!ok) { gpiod_line_config_free(config); errno = saved ? saved : ENOMEM; return NULL; }
    }
    return config;
}
#endif

/* Requests `count` lines of `chip` as a keypad's columns, all driven low (waiting for a key).
 * (v1: gpiod_line_request_output per line; v2: gpiod_chip_request_lines.) */
static inline gdb_columns *gdb_columns_request(struct gpiod_chip *chip, const unsigned int *offsets, unsigned int count, const char *consumer) {
    if (count == 0 || count > GDB_MAX_LINES) { errno = EINVAL; return NULL; }
    gdb_columns *columns = (gdb_columns *)calloc(1, sizeof(gdb_columns));
    if (!columns) return NULL;
    columns->count = count;
    memcpy(columns->offsets, offsets, count * sizeof(unsigned int));
    uint64_t all = count == 64 ? ~(uint64_t)0 : (((uint64_t)1 << count) - 1);
#if GDB_LIBGPIOD_MAJOR == 1
    for (unsigned int i = 0; i < count; i++) {
        struct gpiod_line *line = gpiod_chip_get_line(chip, offsets[i]);
        if (!line || gpiod_line_request_output(line, consumer, 0) < 0) {
            int saved = errno;
            for (unsigned int j = 0; j < i; j++) gpiod_line_release(columns->lines[j]);
            free(columns);
            errno = saved;
            return NULL;
        }
        columns->lines[i] = line;
    }
#else
    int ok = 1;
    for (unsigned int i = 0; ok && i <= count; i++) {
        columns->configs[i] = gdb_columns_config(offsets, count, i == count ? all : ((uint64_t)1 << i));
        ok = columns->configs[i] != NULL;
    }
    struct gpiod_request_config *request_config = ok ? gpiod_request_config_new() : NULL;
    if (request_config) {
        gpiod_request_config_set_consumer(request_config, consumer);
        columns->request = gpiod_chip_request_lines(chip, request_config, columns->configs[count]);
        int saved = errno;
        gpiod_request_config_free(request_config);
        errno = saved;
    }
    if (!columns->request) {
        int saved = errno ? errno : ENOMEM;
        for (unsigned int i = 0; i <= count; i++) if (columns->configs[i]) gpiod_line_config_free(columns->configs[i]);
        free(columns);
        errno = saved;
        return NULL;
    }
#endif
    columns->driven = all;
    return columns;
}

/* Drives column `column` low and makes the others inputs; `column` == -1 drives them all low.
 * (v1: gpiod_line_set_direction_output / _input for each column that changes; v2:
 * gpiod_line_request_reconfigure_lines, one ioctl.) */
static inline int gdb_columns_drive(gdb_columns *columns, int column) {
    if (column >= (int)columns->count) { errno = EINVAL; return -1; }
    uint64_t all = columns->count == 64 ? ~(uint64_t)0 : (((uint64_t)1 << columns->count) - 1);
    uint64_t wanted = column < 0 ? all : ((uint64_t)1 << column);
    if (wanted == columns->driven) return 0;
#if GDB_LIBGPIOD_MAJOR == 1
    for (unsigned int i = 0; i < columns->count; i++) {
        int now = (columns->driven >> i) & 1, then = (wanted >> i) & 1;
        if (now == then) continue;
        /* Inputs first, then outputs: two columns are never driven at once by a step that moves the drive. */
        if (!then && gpiod_line_set_direction_input(columns->lines[i]) < 0) return -1;
    }
    for (unsigned int i = 0; i < columns->count; i++) {
        int now = (columns->driven >> i) & 1, then = (wanted >> i) & 1;
        if (now == then) continue;
        if (then && gpiod_line_set_direction_output(columns->lines[i], 0) < 0) return -1;
    }
#else
    struct gpiod_line_config *config = columns->configs[column < 0 ? columns->count : (unsigned int)column];
    if (gpiod_line_request_reconfigure_lines(columns->request, config) < 0) return -1;
#endif
    columns->driven = wanted;
    return 0;
}

/* Releases the columns of a chip that is gone, without a call on its lines (v1: gpiod_line_release;
 * v2: gpiod_line_request_release): a removed chip has no lines to leave as inputs, and every call on
 * them would only fail (ENODEV). */
static inline void gdb_columns_release_gone(gdb_columns *columns) {
    if (!columns) return;
#if GDB_LIBGPIOD_MAJOR == 1
    for (unsigned int i = 0; i < columns->count; i++) gpiod_line_release(columns->lines[i]);
#else
    gpiod_line_request_release(columns->request);
    for (unsigned int i = 0; i <= columns->count; i++) if (columns->configs[i]) gpiod_line_config_free(columns->configs[i]);
#endif
    free(columns);
}

/* Leaves every column an input and releases them (v1: gpiod_line_release; v2: gpiod_line_request_release). */
static inline void gdb_columns_release(gdb_columns *columns) {
    if (!columns) return;
#if GDB_LIBGPIOD_MAJOR == 1
    for (unsigned int i = 0; i < columns->count; i++) {
        gpiod_line_set_direction_input(columns->lines[i]);
        gpiod_line_release(columns->lines[i]);
    }
#else
    struct gpiod_line_config *inputs = gdb_columns_config(columns->offsets, columns->count, 0);
    if (inputs) {
        gpiod_line_request_reconfigure_lines(columns->request, inputs);
        gpiod_line_config_free(inputs);
    }
    gpiod_line_request_release(columns->request);
    for (unsigned int i = 0; i <= columns->count; i++) if (columns->configs[i]) gpiod_line_config_free(columns->configs[i]);
#endif
    free(columns);
}

/* The raw levels of every line of `request`, bit i for line i, into `levels`. Returns 0 or -1.
 * (v1: gpiod_line_get_value per line, each its own request; v2: gpiod_line_request_get_values, one ioctl.) */
static inline int gdb_request_get_levels(gdb_request *request, uint64_t *levels) {
    uint64_t bits = 0;
#if GDB_LIBGPIOD_MAJOR == 1
    for (unsigned int i = 0; i < request->count; i++) {
        int value = gpiod_line_get_value(gpiod_line_bulk_get_line(&request->bulk, i));
        if (value < 0) return -1;
        if (value) bits |= (uint64_t)1 << i;
    }
#else
    enum gpiod_line_value values[GDB_MAX_LINES];
    if (gpiod_line_request_get_values(request->request, values) < 0) return -1;
    for (unsigned int i = 0; i < request->count; i++) {
        if (values[i] == GPIOD_LINE_VALUE_ACTIVE) bits |= (uint64_t)1 << i;
    }
#endif
    *levels = bits;
    return 0;
}

#endif
