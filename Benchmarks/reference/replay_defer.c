/*
 * replay_defer.c - plain C reference for
 *     gpio-debounce replay --debounce defer:W --format json
 *
 * Usage: replay_defer WINDOW_NS [FILE|-]
 * Build: cc -O2 -Wall -Wextra -o replay_defer replay_defer.c
 *
 * See README.md in this directory for the exact semantics.
 * Exit status: 0 ok, 64 usage, 65 malformed input, 66 cannot open input,
 * 74 I/O error.
 */
#define _POSIX_C_SOURCE 200809L   /* getline */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define EX_USAGE   64
#define EX_DATAERR 65
#define EX_NOINPUT 66
#define EX_IOERR   74

static const char *prog = "replay_defer";

/* Debouncer state. Levels: 0 = pressed (active-low), 1 = released. */
struct debouncer {
    int64_t window;
    int reported;       /* level last reported */
    int raw;            /* current raw level */
    int64_t now;
    bool pending;
    int64_t deadline;
    bool has_onset;
    int64_t onset;
    int64_t press_onset; /* onset of the latest reported press */
};

static void fire(struct debouncer *d, FILE *out)
{
    if (d->raw != d->reported) {
        if (d->raw == 0) {
            fprintf(out, "{\"event\":\"press\",\"time_ns\":%" PRId64 ",\"onset_ns\":%" PRId64 "}\n",
                    d->deadline, d->onset);
            d->press_onset = d->onset;
        } else {
            /* held_ns: this release's onset minus its press's onset. */
            fprintf(out, "{\"event\":\"release\",\"time_ns\":%" PRId64 ",\"onset_ns\":%" PRId64 ",\"held_ns\":%" PRId64 "}\n",
                    d->deadline, d->onset, d->onset - d->press_onset);
        }
        d->reported = d->raw;
    }
    d->pending = false;
    d->has_onset = false;
}

static void edge(struct debouncer *d, int64_t t, int level, FILE *out)
{
    if (t < d->now)
        t = d->now;                     /* clamp backwards timestamps */
    d->now = t;

    if (d->pending && d->deadline < t)
        fire(d, out);

    if (level == d->raw && !d->pending)
        return;                         /* duplicate while settled */

    if (level != d->raw) {
        d->raw = level;
        if (d->raw != d->reported && !d->has_onset) {
            d->has_onset = true;
            d->onset = t;
        }
    }

    d->pending = true;
    /* t + W, saturating at INT64_MAX instead of overflowing. */
    d->deadline = (t > INT64_MAX - d->window) ? INT64_MAX : t + d->window;
}

/*
 * Parse "t_ns,level" (line has no line terminator). Returns NULL on
 * success, or a reason string.
 */
static const char *parse_line(const char *s, size_t len, int64_t *t, int *level)
{
    const char *comma = memchr(s, ',', len);
    if (comma == NULL)
        return "expected 't_ns,level'";

    /* t_ns: optional sign, then one or more decimal digits, nothing else. */
    const char *p = s;
    if (p < comma && (*p == '-' || *p == '+'))
        p++;
    if (p == comma)
        return "invalid t_ns";
    for (const char *q = p; q < comma; q++)
        if (*q < '0' || *q > '9')
            return "invalid t_ns";

    errno = 0;
    char *end;
    long long v = strtoll(s, &end, 10);
    if (errno == ERANGE)
        return "t_ns out of range";
    if (end != comma)
        return "invalid t_ns";

    size_t rest = len - (size_t)(comma + 1 - s);
    if (rest != 1 || (comma[1] != '0' && comma[1] != '1'))
        return "invalid level (expected 0 or 1)";

    *t = (int64_t)v;
    *level = comma[1] - '0';
    return NULL;
}

static int usage(void)
{
    fprintf(stderr, "usage: %s WINDOW_NS [FILE|-]\n", prog);
    return EX_USAGE;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3)
        return usage();

    /* WINDOW_NS: non-negative decimal integer. */
    const char *ws = argv[1];
    if (*ws < '0' || *ws > '9')
        return usage();
    errno = 0;
    char *wend;
    long long window = strtoll(ws, &wend, 10);
    if (errno != 0 || *wend != '\0' || window < 0)
        return usage();

    FILE *in = stdin;
    const char *path = "-";
    if (argc == 3 && strcmp(argv[2], "-") != 0) {
        path = argv[2];
        in = fopen(path, "r");
        if (in == NULL) {
            fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
            return EX_NOINPUT;
        }
    }

    FILE *out = stdout;
    static char outbuf[1 << 20];
    setvbuf(out, outbuf, _IOFBF, sizeof outbuf);

    struct debouncer d = { .window = (int64_t)window };
    bool have_initial = false;
    int status = 0;

    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    uintmax_t lineno = 0;

    while ((n = getline(&line, &cap, in)) != -1) {
        lineno++;
        size_t len = (size_t)n;
        if (len > 0 && line[len - 1] == '\n')
            len--;
        if (len > 0 && line[len - 1] == '\r')
            len--;

        if (len == 0 || line[0] == '#')
            continue;
        if (!have_initial && len == 10 && memcmp(line, "t_ns,level", 10) == 0)
            continue;

        int64_t t;
        int level;
        const char *why = parse_line(line, len, &t, &level);
        if (why != NULL) {
            fflush(out);
            fprintf(stderr, "%s: line %ju: %s\n", prog, lineno, why);
            status = EX_DATAERR;
            break;
        }

        if (!have_initial) {
            have_initial = true;
            d.reported = level;
            d.raw = level;
            d.now = t;
            d.pending = false;
            d.has_onset = false;
        } else {
            edge(&d, t, level, out);
        }
    }

    if (status == 0) {
        if (ferror(in)) {
            fprintf(stderr, "%s: %s: read error\n", prog, path);
            status = EX_IOERR;
        } else if (d.pending) {
            fire(&d, out);
        }
    }

    free(line);
    if (in != stdin)
        fclose(in);

    if (fflush(out) != 0 || ferror(out)) {
        fprintf(stderr, "%s: write error: %s\n", prog, strerror(errno));
        if (status == 0)
            status = EX_IOERR;
    }
    return status;
}
