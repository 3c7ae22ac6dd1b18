/*
 * glibc-compat.c: the glibc 2.38 symbols that Debian unstable's static Swift libraries reference and
 * Debian 12's glibc 2.36 lacks, linked into the arm64 binary by packaging/cross-arm64 so that it runs
 * on Debian 12 / Raspberry Pi OS bookworm (and on later systems, where these stay private copies).
 *
 * __isoc23_strtol & co. are C23's strtol & co., which also accept a "0b" binary prefix with base 0
 * or 2; the Swift runtime never parses such input, so the C17 functions serve. strlcpy and strlcat
 * are the BSD functions glibc 2.38 added.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long __isoc23_strtol(const char *s, char **end, int base) { return strtol(s, end, base); }
long long __isoc23_strtoll(const char *s, char **end, int base) { return strtoll(s, end, base); }
unsigned long __isoc23_strtoul(const char *s, char **end, int base) { return strtoul(s, end, base); }
unsigned long long __isoc23_strtoull(const char *s, char **end, int base) { return strtoull(s, end, base); }

int __isoc23_sscanf(const char *s, const char *format, ...) {
    va_list args;
    va_start(args, format);
    int n = vsscanf(s, format, args);
    va_end(args);
    return n;
}

/* Copies src into dst (size bytes, always terminated if size > 0); returns strlen(src). */
size_t strlcpy(char *dst, const char *src, size_t size) {
    size_t length = strlen(src);
    if (size > 0) {
        size_t n = length < size - 1 ? length : size - 1;
        memcpy(dst, src, n);
        dst[n] = '\0';
    }
    return length;
}

/* Appends src to dst (size bytes in all); returns the length it tried to make. */
size_t strlcat(char *dst, const char *src, size_t size) {
    size_t used = strnlen(dst, size);
    if (used == size) return size + strlen(src);
    return used + strlcpy(dst + used, src, size - used);
}
