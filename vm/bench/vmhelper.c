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
 *   vmhelper keypad LINES_DIR ROWS COLUMNS LAYOUT HOLD_US GAP_US KEYS
 *       Plays a matrix keypad on gpio-sim lines for vm/tests/kernel-tests.sh
 *       q-keypad. LINES_DIR is the chip's sysfs directory (the one holding
 *       sim_gpioK/); ROWS and COLUMNS are comma-separated offsets; LAYOUT
 *       names the keys row by row (rows x columns characters, "123A456B..."),
 *       KEYS the keys typed, one at a time: each held HOLD_US, then GAP_US
 *       with no key down. While a key is held it polls every 500 us: writes
 *       pull-up to the key's column (no effect while the consumer drives the
 *       column, and a column switched back to an input, which gpio-sim leaves
 *       at its last driven level, then reads 1 as an undriven column joined
 *       to a pulled-up row does), reads the column's `value` and writes its
 *       row's pull to that level (0 while the column is driven low). The row
 *       is written every poll, as the consumer's reconfiguring of its request
 *       re-applies its bias (pull-up) to every line of it. Rows are pulled up
 *       at the start and while no key is held. On stderr, per key: the row's
 *       level changes, and the largest pause between two polls (a late
 *       helper, under emulation, makes a scan read wrong).
 *   vmhelper press-when-armed CHIP_DEV OFFSET CONSUMER PULL_PATH DELAY_US HOLD_US
 *       Waits for the line to be used (blocked on its line-info watch), then
 *       polls /proc/interrupts until an interrupt named CONSUMER is
 *       there (the request's edge detection is armed: the kernel requests
 *       the line's interrupt last, after the line shows as used; a press
 *       before that makes no edge, and is a button held at the start), waits
 *       DELAY_US more (busy below 300 us), then pulls the line down (a press),
 *       holds HOLD_US and pulls it up: a press that begins as the line is
 *       requested, for the start's reconciliation (vm/tests/kernel-tests.sh
 *       t-press-at-request). Prints on stderr how long after the interrupt
 *       was seen the press came; exits 1 if it is not there within 60 s.
 *   vmhelper wait-used CHIP_DEV OFFSET TIMEOUT_MS
 *       Waits until the line is used (requested by a consumer), blocked in
 *       poll() on the chip's line-info watch (GPIO_V2_GET_LINEINFO_WATCH_IOCTL),
 *       so the waiting takes no CPU from the program starting beside it on
 *       the VM's one vCPU (a loop of gpioinfo, grep and sleep took most of
 *       it). Exits 0 once used, 1 after TIMEOUT_MS, 2 on an error.
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
#include <linux/gpio.h>
#include <linux/input.h>
#include <poll.h>
#include <sys/ioctl.h>

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

/* Whether /proc/interrupts names `consumer` (a line request's interrupt). */
static int interrupt_named(const char *consumer)
{
	static char text[65536];
	int fd = open("/proc/interrupts", O_RDONLY);
	if (fd < 0)
		return 0;
	ssize_t total = 0, n;
	while (total < (ssize_t)sizeof text - 1 && (n = read(fd, text + total, sizeof text - 1 - (size_t)total)) > 0)
		total += n;
	close(fd);
	text[total] = 0;
	return strstr(text, consumer) != NULL;
}

/* Waits until line `offset` of the chip open as `chip` is used, blocked in poll() on the chip's
 * line-info watch (GPIO_V2_GET_LINEINFO_WATCH_IOCTL): 0 once used, 1 at `deadline` (CLOCK_MONOTONIC
 * ns), -1 on an error (errno set). */
static int wait_line_used(int chip, unsigned int offset, int64_t deadline)
{
	struct gpio_v2_line_info info;
	memset(&info, 0, sizeof info);
	info.offset = offset;
	if (ioctl(chip, GPIO_V2_GET_LINEINFO_WATCH_IOCTL, &info) < 0)
		return -1;
	while (!(info.flags & GPIO_V2_LINE_FLAG_USED)) {
		int64_t left = deadline - now_ns();
		if (left <= 0)
			return 1;
		struct pollfd p = { .fd = chip, .events = POLLIN };
		int n = poll(&p, 1, (int)((left + 999999) / 1000000));
		if (n < 0 && errno != EINTR)
			return -1;
		if (n <= 0)
			continue;
		struct gpio_v2_line_info_changed change;
		if (read(chip, &change, sizeof change) != (ssize_t)sizeof change)
			return -1;
		if (change.info.offset == offset)
			info = change.info;
	}
	return 0;
}

static int press_when_armed(int argc, char **argv)
{
	if (argc < 6) {
		fprintf(stderr, "usage: vmhelper press-when-armed CHIP_DEV OFFSET CONSUMER PULL_PATH DELAY_US HOLD_US\n");
		return 2;
	}
	int chip = open(argv[0], O_RDONLY);
	if (chip < 0) {
		perror(argv[0]);
		return 1;
	}
	int pull = open(argv[3], O_WRONLY);
	if (pull < 0) {
		perror(argv[3]);
		return 1;
	}
	int64_t deadline = now_ns() + 60000000000LL, seen;
	if (wait_line_used(chip, (unsigned int)atoi(argv[1]), deadline) < 0) {
		perror("press-when-armed: the line-info watch");
		return 1;
	}
	for (;;) {
		int armed = interrupt_named(argv[2]);
		seen = now_ns();
		if (armed)
			break;
		if (seen > deadline) {
			fprintf(stderr, "press-when-armed: no interrupt named %s within 60 s\n", argv[2]);
			return 1;
		}
	}
	wait_until(seen + atoll(argv[4]) * 1000);
	int64_t pressed = now_ns();
	if (pwrite(pull, "pull-down\n", 10, 0) < 0) {
		perror(argv[3]);
		return 1;
	}
	wait_until(pressed + atoll(argv[5]) * 1000);
	if (pwrite(pull, "pull-up\n", 8, 0) < 0) {
		perror(argv[3]);
		return 1;
	}
	fprintf(stderr, "press-when-armed: pressed %lld us after the interrupt was seen\n", (long long)((pressed - seen) / 1000));
	return 0;
}

static int wait_used(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: vmhelper wait-used CHIP_DEV OFFSET TIMEOUT_MS\n");
		return 2;
	}
	int chip = open(argv[0], O_RDONLY);
	if (chip < 0) {
		perror(argv[0]);
		return 2;
	}
	int status = wait_line_used(chip, (unsigned int)atoi(argv[1]), now_ns() + atoll(argv[2]) * 1000000LL);
	if (status < 0) {
		perror("wait-used: the line-info watch");
		return 2;
	}
	return status;
}

/* Parses "0,1,2,3" into at most `max` offsets; returns the count, or -1. */
static int parse_offsets(const char *text, int *offsets, int max)
{
	int n = 0;
	const char *p = text;
	while (*p) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p || v < 0 || n == max)
			return -1;
		offsets[n++] = (int)v;
		p = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return -1;
	}
	return n;
}

static int open_line_file(const char *dir, int offset, const char *file, int flags)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/sim_gpio%d/%s", dir, offset, file);
	int fd = open(path, flags);
	if (fd < 0)
		perror(path);
	return fd;
}

static int write_pull(int fd, int level)
{
	static const char *pulls[] = { "pull-down\n", "pull-up\n" };
	return pwrite(fd, pulls[level], strlen(pulls[level]), 0) < 0 ? -1 : 0;
}

static int keypad(int argc, char **argv)
{
	if (argc != 7) {
		fprintf(stderr, "usage: vmhelper keypad LINES_DIR ROWS COLUMNS LAYOUT HOLD_US GAP_US KEYS\n");
		return 2;
	}
	int rows[16], columns[16];
	int nrows = parse_offsets(argv[1], rows, 16), ncolumns = parse_offsets(argv[2], columns, 16);
	const char *layout = argv[3], *keys = argv[6];
	int64_t hold = atoll(argv[4]) * 1000, gap = atoll(argv[5]) * 1000;
	if (nrows <= 0 || ncolumns <= 0 || (int)strlen(layout) != nrows * ncolumns) {
		fprintf(stderr, "keypad: bad rows, columns or layout (%d rows, %d columns, %zu keys)\n", nrows, ncolumns, strlen(layout));
		return 2;
	}
	int row_pull[16], column_pull[16], column_value[16];
	for (int r = 0; r < nrows; r++) {
		if ((row_pull[r] = open_line_file(argv[0], rows[r], "pull", O_WRONLY)) < 0)
			return 1;
		if (write_pull(row_pull[r], 1) < 0) {
			perror("keypad: row pull");
			return 1;
		}
	}
	for (int c = 0; c < ncolumns; c++) {
		if ((column_pull[c] = open_line_file(argv[0], columns[c], "pull", O_WRONLY)) < 0 ||
		    (column_value[c] = open_line_file(argv[0], columns[c], "value", O_RDONLY)) < 0)
			return 1;
	}
	int64_t due = now_ns();
	for (const char *k = keys; *k; k++) {
		const char *at = strchr(layout, *k);
		if (!at) {
			fprintf(stderr, "keypad: no key '%c' in the layout %s\n", *k, layout);
			return 2;
		}
		int r = (int)(at - layout) / ncolumns, c = (int)(at - layout) % ncolumns;
		int level = 1, changes = 0;
		int64_t end = due + hold, last = now_ns(), pause = 0;
		for (;;) {
			char value[8] = { 0 };
			if (write_pull(column_pull[c], 1) < 0 || pread(column_value[c], value, sizeof value - 1, 0) <= 0) {
				perror("keypad: column");
				return 1;
			}
			int now_level = value[0] == '0' ? 0 : 1;
			if (write_pull(row_pull[r], now_level) < 0) {
				perror("keypad: row pull");
				return 1;
			}
			if (now_level != level)
				changes++;
			level = now_level;
			int64_t t = now_ns();
			if (t - last > pause)
				pause = t - last;
			last = t;
			if (t >= end)
				break;
			struct timespec step = { 0, 500000 };
			nanosleep(&step, NULL);
		}
		if (write_pull(row_pull[r], 1) < 0) {
			perror("keypad: row pull");
			return 1;
		}
		fprintf(stderr, "keypad: key %c (row %d, column %d): %d row changes, largest pause between polls %lld us\n", *k, r, c,
			changes, (long long)pause / 1000);
		due = end + gap;
		wait_until(due);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "press-when-armed"))
		return press_when_armed(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "wait-used"))
		return wait_used(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "keypad"))
		return keypad(argc - 2, argv + 2);
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
	fprintf(stderr, "usage: vmhelper drive PULL_PATH LEVEL0 [GAP_US...] | rr PERIOD_US EDGES PULL_PATH... | keys EVENT_DEVICE | stamp | now | press-when-armed CHIP_DEV OFFSET CONSUMER PULL_PATH DELAY_US HOLD_US | keypad LINES_DIR ROWS COLUMNS LAYOUT HOLD_US GAP_US KEYS | wait-used CHIP_DEV OFFSET TIMEOUT_MS\n");
	return 2;
}
