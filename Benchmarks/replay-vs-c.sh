#!/usr/bin/env bash
# Benchmark: `gpio-debounce replay --debounce defer:5ms --format json` against a plain C program doing
# the same work (Benchmarks/reference/replay_defer.c) on the same 2-million-edge trace.
# Prints the best-of-N wall time of each (the two taking turns), their ratio (goal: Swift <= 0.8 x C;
# docs/performance.md has the figures), checks that both outputs are byte-identical, and shows that
# peak memory does not grow with the trace (2M vs 10M edges). It prints the machine's load average too:
# time it when the machine is quiet.
#
# Usage: Benchmarks/replay-vs-c.sh [RUNS]    (default 5 runs each; run from anywhere)
# GPIO_DEBOUNCE_BIN=PATH times that release binary (CI passes the amd64 package's) instead of building one.
set -euo pipefail
runs=${1:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

command -v cc >/dev/null || { apt-get update -qq && apt-get install -y -qq gcc; }
[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time; }

if [ -n "${GPIO_DEBOUNCE_BIN:-}" ]; then
    tool=$GPIO_DEBOUNCE_BIN
else
    echo "Building (release)..."
    swift build -c release --package-path "$root" --product gpio-debounce >/dev/null
    tool="$(swift build -c release --package-path "$root" --show-bin-path)/gpio-debounce"
fi
cc -O2 -Wall -Wextra -o "$work/replay_defer" "$root/Benchmarks/reference/replay_defer.c"

"$tool" generate --edges 2000000 --seed 1 -o "$work/trace.csv"
edges=$(($(grep -vc "^[#t]" "$work/trace.csv") - 1))  # less the initial-level line
echo "Trace: $edges edges, $(du -h "$work/trace.csv" | cut -f1)"

# elapsed_ns CMD...: one run's wall time in ns, output to /dev/null.
elapsed_ns() {
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null
    end=$(date +%s%N)
    echo $((end - start))
}

# The best (smallest) of $runs runs each, the two programs taking turns, so that a burst of load on
# the machine hits both rather than one of them.
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
swift_ns=0 c_ns=0
for _ in $(seq "$runs"); do
    elapsed=$(elapsed_ns "$tool" replay "$work/trace.csv" --debounce defer:5ms --format json)
    if [ "$swift_ns" -eq 0 ] || [ "$elapsed" -lt "$swift_ns" ]; then swift_ns=$elapsed; fi
    elapsed=$(elapsed_ns "$work/replay_defer" 5000000 "$work/trace.csv")
    if [ "$c_ns" -eq 0 ] || [ "$elapsed" -lt "$c_ns" ]; then c_ns=$elapsed; fi
done

"$tool" replay "$work/trace.csv" --debounce defer:5ms --format json >"$work/swift.out"
"$work/replay_defer" 5000000 "$work/trace.csv" >"$work/c.out"
if cmp -s "$work/swift.out" "$work/c.out"; then same="identical ($(wc -l <"$work/c.out") events)"; else same="DIFFERENT"; fi

rss_kib() { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -n 1; }
swift_rss=$(rss_kib "$tool" replay "$work/trace.csv" --debounce defer:5ms --format json)
c_rss=$(rss_kib "$work/replay_defer" 5000000 "$work/trace.csv")
"$tool" generate --edges 10000000 --seed 2 -o "$work/trace10m.csv"
swift_rss_10m=$(rss_kib "$tool" replay "$work/trace10m.csv" --debounce defer:5ms --format json)

awk -v s="$swift_ns" -v c="$c_ns" -v e="$edges" -v same="$same" \
    -v sr="$swift_rss" -v cr="$c_rss" -v sr10="$swift_rss_10m" -v runs="$runs" 'BEGIN {
    printf "replay, parse + defer:5ms + JSON, best of %d runs over %d edges:\n", runs, e
    printf "  gpio-debounce  %7.1f ms  %6.1f ns/edge  peak RSS %6d KiB (10M edges: %d KiB)\n", s/1e6, s/e, sr, sr10
    printf "  plain C        %7.1f ms  %6.1f ns/edge  peak RSS %6d KiB\n", c/1e6, c/e, cr
    printf "  ratio Swift/C  %.2f   (goal <= 0.80)\n", s/c
    printf "  outputs        %s\n", same
}'
echo "  load average   $(cut -d' ' -f1-3 /proc/loadavg) (before the runs: $load_before)"
[ "$same" != "DIFFERENT" ]
