#!/usr/bin/env bash
# vm/bench/tcg-costs.sh - what a wakeup's user-space work costs under the VM's emulated CPU (TCG),
# apart from its instructions: after a context switch, each page touched (its address translation is
# refilled) and each call to a different place (its return and a call into another page go through
# QEMU's translated-code lookup, whose cache a context switch empties). Runs INSIDE the VM:
#
#   bash vm/run.sh vm/bench/tcg-costs.sh
#
# Builds small C probes (cc -O1) that block in read(2) on a pipe, are woken 300 times, 5 ms apart, by
# a child, and time (CLOCK_MONOTONIC, median) what they do right after each wakeup: touch N pages of
# data, or make N calls to N different functions, packed in a few pages or one per page. Prints the
# medians and the cost per page or call above the empty probe. The numbers are the VM's, on this
# host; they explain why the loop's path is measured in calls and pages as much as in instructions.
set -euo pipefail
[[ ${GPIO_DEBOUNCE_VM:-} == 1 ]] || { echo "run me inside the VM (bash vm/run.sh vm/bench/tcg-costs.sh)" >&2; exit 2; }
TMP=$(mktemp -d /tmp/tcg-costs.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

# probe NAME SETUP WORK [FUNCTIONS] -> a C program timing WORK after each wakeup
probe() {
    cat >"$TMP/$1.c" <<C
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
${4:-}
static long long now_ns(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1000000000LL + t.tv_nsec; }
static int by_value(const void *a, const void *b) { long long x = *(const long long *)a, y = *(const long long *)b; return (x > y) - (x < y); }
int main(void) {
    enum { WAKEUPS = 300 };
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0) return 1;
    $2
    pid_t child = fork();
    if (child == 0) { for (int i = 0; i < WAKEUPS; i++) { usleep(5000); if (write(pipe_fds[1], "x", 1) != 1) _exit(1); } _exit(0); }
    static long long took[WAKEUPS];
    volatile long sink = 0;
    long x = 1;
    char byte;
    for (int i = 0; i < WAKEUPS; i++) {
        if (read(pipe_fds[0], &byte, 1) != 1) return 1;
        long long start = now_ns();
        $3
        sink += x;
        took[i] = now_ns() - start;
    }
    waitpid(child, NULL, 0);
    qsort(took, WAKEUPS, sizeof took[0], by_value);
    printf("%lld\n", took[WAKEUPS / 2]);
    return 0;
}
C
    cc -O1 -o "$TMP/$1" "$TMP/$1.c"
}
functions() { # functions N ATTRIBUTES -> N functions f0..f(N-1) and the calls to them, in $DEFS and $CALLS
    DEFS="" CALLS=""
    for ((i = 0; i < $1; i++)); do DEFS+="__attribute__((noinline$2)) long f$i(long v) { return v * 3 + $i; }"$'\n'; CALLS+="x = f$i(x); "; done
}
probe empty "" ""
probe pages64 "char *memory = malloc(65 * 4096); for (int i = 0; i < 65 * 4096; i++) memory[i] = (char)i;" "for (int k = 0; k < 64; k++) x += memory[k * 4096];"
functions 50 ""
probe calls50packed "" "$CALLS" "$DEFS"
functions 50 ",aligned(4096)"
probe calls50pages "" "$CALLS" "$DEFS"

empty=$("$TMP/empty")
echo "# tcg-costs: kernel $(uname -r), $(nproc) vCPU; median ns of the work right after a wakeup (300 wakeups)"
printf '  %-44s %6s ns\n' "nothing (two clock reads)" "$empty"
for spec in "pages64 64 touch 64 pages of data" "calls50packed 50 make 50 calls, functions packed" "calls50pages 50 make 50 calls, one function per page"; do
    read -r name n what <<<"$spec"
    t=$("$TMP/$name")
    printf '  %-44s %6s ns  (%s ns each)\n' "$what" "$t" "$(((t - empty) / n))"
done
