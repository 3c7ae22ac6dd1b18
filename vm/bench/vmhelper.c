/*
 * vm/bench/vmhelper.c - tiny helper for the VM kernel tests and the bench
 * (compiled on the host by vm/kernel-tests.sh and vm/bench/run.sh into
 * .build-vmtest/vmhelper; bash and python are too slow under TCG).
 *
 *   vmhelper drive PULL_PATH LEVEL0 [GAP_US...]
 *       Writes LEVEL0 (0 = pull-down, 1 = pull-up) to a gpio-sim line's
 *       sysfs `pull` attribute, then after each GAP_US (microseconds, from
 *       the previous write; 0 = as fast as possible) toggles the level and
 *       writes again: one edge per write. A gap written as -N is a hold:
 *       wait N us without toggling. Gaps < 300 us are busy-waited, longer
 *       ones slept with clock_nanosleep(TIMER_ABSTIME). A burst is a run of
 *       writes between holds; on stderr it prints one line:
 *       "drive: W writes, B bursts of E1..E2 edges lasting D1..D2 us, largest
 *        gap inside a burst G us" (the first write of a burst counts as its
 *       start, so a 1-edge burst lasts 0 us).
 *   vmhelper keys EVENT_DEVICE
 *       Reads an input device (/dev/input/eventN) and prints one line per
 *       event: "CODE:VALUE" for EV_KEY, "SYN" for SYN_REPORT, other types as
 *       "TYPE/CODE:VALUE"; prints "GONE" and exits 0 when the device goes
 *       away (ENODEV), for the keyboard test (vm/tests/kernel-tests.sh l-keys); "READY" on
 *       stderr once the device is open.
 *   vmhelper rr PERIOD_US EDGES PULL_PATH...
 *       Pulls every line up (raw 1), waits PERIOD_US, then makes EDGES edges,
 *       one every PERIOD_US (absolute schedule), round-robin over the lines:
 *       line k%n toggles at edge k. For the latency bench. With RR_STEADY=1 in
 *       the environment, an edge written late moves the schedule on instead
 *       of the next edges catching up: consecutive edges are never closer
 *       than PERIOD_US, however the host stalls (vm/bench/soak.sh).
 *   vmhelper stamp
 *       Copies stdin to stdout, prefixing each line with the CLOCK_MONOTONIC
 *       time (ns) at which the read() that delivered it returned:
 *       "<arrival_ns> <line>". Output is flushed at EOF only.
 *   vmhelper now
 *       Prints CLOCK_MONOTONIC in ns.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/input.h>

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void wait_until(int64_t t)
{
	if (t - now_ns() > 300000) {
		struct timespec ts = { .tv_sec = (t - 200000) / 1000000000, .tv_nsec = (t - 200000) % 1000000000 };
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
	}
	while (now_ns() < t)
		;
}

static int drive(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: vmhelper drive PULL_PATH LEVEL0 [GAP_US...]\n");
		return 2;
	}
	int fd = open(argv[0], O_WRONLY);
	if (fd < 0) {
		perror(argv[0]);
		return 1;
	}
	static const char *pulls[] = { "pull-down\n", "pull-up\n" };
	int level = atoi(argv[1]) ? 1 : 0;
	long writes = 0, bursts = 0, edges = 0, emin = LONG_MAX, emax = 0;
	int64_t bstart = 0, last = 0, dmin = INT64_MAX, dmax = 0, gmax = 0;
	int in_burst = 0;
	if (pwrite(fd, pulls[level], strlen(pulls[level]), 0) < 0) {
		perror("write");
		return 1;
	}
	int64_t due = last = now_ns();
	writes++;
#define END_BURST()                                              \
	do {                                                     \
		if (in_burst) {                                  \
			bursts++;                                \
			if (edges < emin) emin = edges;          \
			if (edges > emax) emax = edges;          \
			if (last - bstart < dmin) dmin = last - bstart; \
			if (last - bstart > dmax) dmax = last - bstart; \
			in_burst = 0;                            \
		}                                                \
	} while (0)
	for (int i = 2; i < argc; i++) {
		long long g = atoll(argv[i]);
		int hold = g < 0 || argv[i][0] == '-';
		if (g < 0)
			g = -g;
		due += g * 1000;
		wait_until(due);
		if (hold) {
			END_BURST();
			continue;
		}
		level ^= 1;
		if (pwrite(fd, pulls[level], strlen(pulls[level]), 0) < 0) {
			perror("write");
			return 1;
		}
		int64_t t = now_ns();
		if (!in_burst) {
			in_burst = 1;
			bstart = t;
			edges = 0;
		} else if (t - last > gmax) {
			gmax = t - last;
		}
		edges++;
		last = t;
		if (t > due)
			due = t;
		writes++;
	}
	END_BURST();
	if (bursts)
		fprintf(stderr, "drive: %ld writes, %ld bursts of %ld..%ld edges lasting %lld..%lld us, largest gap inside a burst %lld us\n",
			writes, bursts, emin, emax, (long long)dmin / 1000, (long long)dmax / 1000, (long long)gmax / 1000);
	close(fd);
	return 0;
}

static int rr(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: vmhelper rr PERIOD_US EDGES PULL_PATH...\n");
		return 2;
	}
	int64_t period = atoll(argv[0]) * 1000;
	long edges = atol(argv[1]);
	int n = argc - 2, fds[64], levels[64];
	static const char *pulls[] = { "pull-down\n", "pull-up\n" };
	if (n > 64)
		n = 64;
	for (int i = 0; i < n; i++) {
		fds[i] = open(argv[2 + i], O_WRONLY);
		if (fds[i] < 0) {
			perror(argv[2 + i]);
			return 1;
		}
		levels[i] = 1;
		if (pwrite(fds[i], pulls[1], strlen(pulls[1]), 0) < 0) {
			perror("write");
			return 1;
		}
	}
	int64_t due = now_ns(), late = 0;
	const char *steady_env = getenv("RR_STEADY");
	int steady = steady_env && strcmp(steady_env, "1") == 0;
	for (long k = 0; k < edges; k++) {
		due += period;
		wait_until(due);
		int i = k % n;
		levels[i] ^= 1;
		if (pwrite(fds[i], pulls[levels[i]], strlen(pulls[levels[i]]), 0) < 0) {
			perror("write");
			return 1;
		}
		int64_t written = now_ns(), l = written - due;
		if (l > late)
			late = l;
		if (steady && l > 0)
			due = written;
	}
	fprintf(stderr, "rr: %ld edges on %d lines every %lld us (worst write lateness %lld us)\n", edges, n,
		(long long)period / 1000, (long long)late / 1000);
	return 0;
}

static int stamp(void)
{
	static char in[1 << 16];
	size_t cap = 1 << 20, len = 0;
	char *out = malloc(cap);
	int at_line_start = 1;
	for (;;) {
		ssize_t n = read(0, in, sizeof in);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		int64_t t = now_ns();
		for (ssize_t i = 0; i < n; i++) {
			if (len + 64 > cap)
				out = realloc(out, cap *= 2);
			if (at_line_start) {
				len += sprintf(out + len, "%lld ", (long long)t);
				at_line_start = 0;
			}
			out[len++] = in[i];
			if (in[i] == '\n')
				at_line_start = 1;
		}
	}
	fwrite(out, 1, len, stdout);
	return 0;
}

static int keys(int argc, char **argv)
{
	struct input_event event;
	int fd;

	if (argc != 1) {
		fprintf(stderr, "usage: vmhelper keys EVENT_DEVICE\n");
		return 2;
	}
	fd = open(argv[0], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[0]);
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	fprintf(stderr, "READY\n"); /* the device is open: events from now on are seen */
	for (;;) {
		ssize_t n = read(fd, &event, sizeof event);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == ENODEV) {
			printf("GONE\n");
			return 0;
		}
		if (n != (ssize_t)sizeof event) {
			perror("read");
			return 1;
		}
		if (event.type == EV_KEY)
			printf("%u:%d\n", event.code, event.value);
		else if (event.type == EV_SYN && event.code == SYN_REPORT)
			printf("SYN\n");
		else
			printf("%u/%u:%d\n", event.type, event.code, event.value);
	}
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "keys"))
		return keys(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "drive"))
		return drive(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "rr"))
		return rr(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "stamp"))
		return stamp();
	if (argc >= 2 && !strcmp(argv[1], "now")) {
		printf("%lld\n", (long long)now_ns());
		return 0;
	}
	fprintf(stderr, "usage: vmhelper drive PULL_PATH LEVEL0 [GAP_US...] | rr PERIOD_US EDGES PULL_PATH... | keys EVENT_DEVICE | stamp | now\n");
	return 2;
}
