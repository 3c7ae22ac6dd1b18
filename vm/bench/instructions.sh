#!/usr/bin/env bash
# vm/bench/instructions.sh BINARY [EDGES] [LINES] - user-space instructions per watched edge of
# `gpio-debounce watch` (BINARY, e.g. a release build with its debug info stripped: Debian 12's
# valgrind cannot read the toolchain's DWARF 5) next to gpiomon, counted by callgrind on a gpio-sim
# line. Unlike a latency under TCG, the count is the same from run to run. Runs INSIDE the VM:
#
#   apt-get install valgrind                       # on the host: the VM runs the host's programs
#   swift build -c release --scratch-path .build-perf --product gpio-debounce
#   strip --strip-debug -o .build-vmtest/gd-perf .build-perf/release/gpio-debounce
#   VM_MEM=1G VM_TIMEOUT=1800 bash vm/run.sh vm/bench/instructions.sh .build-vmtest/gd-perf
#
# Each reader watches LINES (1) lines and runs twice under callgrind, idle and with EDGES (100) edges
# 200 ms apart, round-robin over its lines (slow enough
# for a reader under valgrind under TCG to keep up: nearly every edge must come out as an event, else
# the line says the count is invalid); per edge = (instructions with edges - instructions idle) / EDGES, so start-up
# cancels out. The callgrind files
# stay in .build-vmtest/cg/ (ours.N and mon.N; ours-8lines.N with LINES 8) (callgrind_annotate shows where the instructions go).
# CALLGRIND_OPTIONS adds to callgrind's options (pass it with VM_PASSENV=CALLGRIND_OPTIONS), e.g.
# --dump-instr=yes for the code pages an edge runs through (vm/bench/code-pages.py).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
BIN=$(realpath -e -- "${1:?usage: instructions.sh BINARY [EDGES] [LINES]}") || exit 2
EDGES=${2:-100} LINES=${3:-1}
out=$repo/.build-vmtest/cg
mkdir -p "$out"
command -v valgrind >/dev/null || { echo "valgrind missing: apt-get install valgrind on the host" >&2; exit 2; }
HELPER=${VMHELPER:-$repo/.build-vmtest/vmhelper}
[[ -x $HELPER ]] || { HELPER=/tmp/vmhelper; cc -O2 -o "$HELPER" "$repo/vm/bench/vmhelper.c" || exit 2; }
# shellcheck source=vm/gpio-sim.sh
source "$repo/vm/gpio-sim.sh"
gpiosim_create cg $((LINES < 2 ? 4 : 2 * LINES)) >/dev/null || exit 1
CHIP=$GPIOSIM_CHIP_DEV
pull() { echo "$(_gpiosim_line_dir cg "$1")/pull"; }

count() { # count TAG "LINE..." EDGES COMMAND... -> prints the run's instruction total
    # shellcheck disable=SC2206  # the offsets are words
    local tag=$1 lines=($2) edges=$3 line pulls=()
    shift 3
    for line in "${lines[@]}"; do gpiosim_set cg "$line" 1; pulls+=("$(pull "$line")"); done
    # shellcheck disable=SC2086  # the options are words
    valgrind --tool=callgrind ${CALLGRIND_OPTIONS:-} --callgrind-out-file="$out/$tag.$edges" "$@" >"$out/$tag.$edges.out" 2>"$out/$tag.$edges.err" &
    local pid=$!
    for line in "${lines[@]}"; do
        gpiosim_wait_used cg "$line" 600 || { echo "$tag: line $line was never requested" >&2; cat "$out/$tag.$edges.err" >&2; return 1; }
    done
    sleep 3
    ((edges > 0)) && "$HELPER" rr 200000 "$edges" "${pulls[@]}" 2>/dev/null
    sleep 3
    kill -INT "$pid"
    wait "$pid"
    sed -n 's/^summary: //p' "$out/$tag.$edges"
}
for reader in ours mon; do
    if [[ $reader == ours ]]; then lines=$(seq -s ' ' 0 $((LINES - 1))); cmd=("$BIN" watch --format json --bias as-is --chip "$CHIP" --debounce eager:1ms)
    else lines=$(seq -s ' ' "$LINES" $((2 * LINES - 1))); cmd=(gpiomon "$CHIP"); fi
    # shellcheck disable=SC2206  # the offsets are words
    cmd+=($lines)
    tag=$reader
    ((LINES > 1)) && tag=$reader-${LINES}lines
    idle=$(count "$tag" "$lines" 0 "${cmd[@]}") || exit 1
    busy=$(count "$tag" "$lines" "$EDGES" "${cmd[@]}") || exit 1
    events=$(grep -c . "$out/$tag.$EDGES.out")
    printf '%-10s idle %12d  with %d edges %12d  per edge %7d instructions%s\n' "$reader" "$idle" "$EDGES" "$busy" \
        $(((busy - idle) / EDGES)) "$( ((events * 100 >= EDGES * 95)) && echo " ($events events out)" || echo " (INVALID: $events events out: the reader fell behind)")"
done
