#!/usr/bin/env bash
# Runs the gpio-debounce benchmarks (package Benchmarks/, target DebounceBenchmarks) non-interactively
# and prints the result table. Run it from anywhere; extra arguments go to the benchmark plugin,
# e.g.  Benchmarks/run-benchmarks.sh --filter 'Replay.*'   (filters are whole-name regexes).
#
# Every benchmark handles 1,000,000 edges per sample (scalingFactor .mega). The table printed here is
# per sample, i.e. per 1,000,000 edges, with times in microseconds, so:
#     ns per edge      = the time column / 1000         (e.g. 11234 μs -> 11.234 ns per edge)
#     mallocs per edge = the Malloc (total) column / 1,000,000
# "Overhead: 1M blackHole calls" shows what the framework itself counts per sample: 16 mallocs, made
# while sampling the CPU-time metrics. Subtract them: --allocation-stacks shows the Debouncer makes 0
# allocations and the replay pipeline 7 per run (reader, its buffer, path, output buffer).
# Pass nothing extra to get this; in benchmark 1.38.1 the plugin's --scale flag *disables* the
# per-edge scaling (the default table is already per edge, rounded to whole ns, which hides the
# small malloc counts), so this script passes --scale.
# Note: "Time (total CPU)" is read from /proc in 10 ms ticks on Linux: use the wall clock.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"   # .../Benchmarks
root="$(dirname "$here")"

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi
command -v swift >/dev/null 2>&1 || { echo "run-benchmarks.sh: swift not found on PATH" >&2; exit 1; }

# System packages: benchmark 1.38.1 with the MallocInterposer trait counts mallocs with its own
# interposer (ordo-one/malloc-interposer, built from source), so no jemalloc or other -dev package
# is needed. The C shims need only a C compiler and libc headers, which the Swift toolchain brings.
missing=()
for pkg in libc6-dev; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "run-benchmarks.sh: installing ${missing[*]}" >&2
    if [ "$(id -u)" -eq 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
    else
        sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
    fi
fi

cd "$root"
# The first run builds the benchmark framework and its dependencies in release mode (several
# minutes on 2 cores), into Benchmarks/.build (ignored by git via .build*/).
exec swift package --package-path Benchmarks benchmark run \
    --no-progress --scale --time-units microseconds "$@"
