#!/usr/bin/env bash
# Benchmark: `gpio-debounce analyze`'s peak memory and run time on generated traces of 1 and 10 million
# edges (a noisy bouncy button: bounce, EMI spikes, so every pass of the analysis runs), and on a
# clean square wave of 2 million transitions (one edge each: the most per-transition data).
#
# Prints peak RSS (`/usr/bin/time`, "Maximum resident set size") and wall time of each, and the
# memory per edge above the program's floor (its peak RSS on the 2,398-edge example trace: the Swift
# runtime and Foundation, about 23 MB). Fails if a figure per edge is over the limit:
#     MAX_BYTES_PER_EDGE (default 8): the edges are kept in an `EdgeStore`, about 3 bytes each for a
#     button's trace (measured 3.2 at 10 M), plus a few bytes per transition for the percentiles;
#     8 leaves room for allocator slack and the fixed costs a 1 M trace spreads thinly, and fails at
#     once on any return to arrays of 16-byte `Edge`s (the code before held about 200 bytes an edge).
#
# Usage: Benchmarks/analyze-memory.sh     (run from anywhere; SCRATCH=DIR builds in DIR instead of .build;
# GPIO_DEBOUNCE_BIN=PATH measures that release binary, as CI does the amd64 package's, without a build)
# Takes about 15 s after the release build on the 2-core CI machine (needs 250 MB in $TMPDIR for the traces).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
limit=${MAX_BYTES_PER_EDGE:-8}
scratch=${SCRATCH:-$root/.build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time; }

if [ -n "${GPIO_DEBOUNCE_BIN:-}" ]; then
    tool=$GPIO_DEBOUNCE_BIN
else
    echo "Building (release)..."
    swift build -c release --package-path "$root" --scratch-path "$scratch" --product gpio-debounce >/dev/null
    tool="$(swift build -c release --package-path "$root" --scratch-path "$scratch" --show-bin-path)/gpio-debounce"
fi

# measure NAME ARGS...: runs `analyze ARGS`, sets rss (bytes) and seconds.
measure() {
    local name=$1
    shift
    /usr/bin/time -f '%M %e' -o "$work/time" "$tool" analyze "$@" >"$work/$name.out"
    read -r kib seconds <"$work/time"
    rss=$((kib * 1024))
}

measure floor "$root/examples/traces/rocker-kcd101.csv"
floor=$rss
awk -v b="$floor" 'BEGIN { printf "floor (2,398-edge example trace): peak RSS %d bytes (%.1f MiB)\n", b, b / 1048576 }'

"$tool" generate --edges 1000000 --seed 1 --noise -o "$work/1m.csv"
"$tool" generate --edges 10000000 --seed 2 --noise -o "$work/10m.csv"
awk 'BEGIN { print "0,1"; for (i = 1; i <= 2000000; i++) printf "%d,%d\n", i * 30000000, (i + 1) % 2 }' >"$work/square.csv"

failed=0
for trace in 1m 10m square; do
    measure "$trace" "$work/$trace.csv"
    edges=$(grep -o '^[^:]*: [0-9]* edges' "$work/$trace.out" | grep -o '[0-9]* edges' | cut -d' ' -f1)
    awk -v name="$trace" -v e="$edges" -v r="$rss" -v f="$floor" -v s="$seconds" -v limit="$limit" 'BEGIN {
        perEdge = (r - f) / e
        printf "%-7s %9d edges  peak RSS %10d bytes (%6.1f MiB)  %5.2f bytes/edge above the floor  %6.2f s  %s\n",
            name, e, r, r / 1048576, perEdge, s, (perEdge > limit ? "OVER THE LIMIT (" limit ")" : "ok")
        exit (perEdge > limit)
    }' || failed=1
done
exit "$failed"
