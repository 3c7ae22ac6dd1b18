#!/usr/bin/env bash
# vm/bench/instructions.sh BINARY [EDGES] - user-space instructions per watched edge of
# `gpio-debounce watch` (BINARY, e.g. a release build with its debug info stripped: Debian 12's
# valgrind cannot read the toolchain's DWARF 5) next to gpiomon, counted by callgrind on a gpio-sim
# line. Unlike a latency under TCG, the count is the same from run to run. Runs INSIDE the VM:
#
#   apt-get install valgrind                       # on the host: the VM runs the host's programs
#   swift build -c release --scratch-path .build-perf --product gpio-debounce
#   strip --strip-debug -o .build-vmtest/gd-perf .build-perf/release/gpio-debounce
#   VM_MEM=1G VM_TIMEOUT=1800 bash vm/run.sh vm/bench/instructions.sh .build-vmtest/gd-perf
#
# Each reader runs twice under callgrind, idle and with EDGES (100) edges 200 ms apart (slow enough
# for a reader under valgrind under TCG to keep up: nearly every edge must come out as an event, else
# the line says the count is invalid); per edge = (instructions with edges - instructions idle) / EDGES, so start-up
# cancels out. The callgrind files
# stay in .build-vmtest/cg/ (callgrind_annotate shows where the instructions go).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
BIN=$(realpath -e -- "${1:?usage: instructions.sh BINARY [EDGES]}") || exit 2
EDGES=${2:-100}
out=$repo/.build-vmtest/cg
mkdir -p "$out"
command -v valgrind >/dev/null || { echo "valgrind missing: apt-get install valgrind on the host" >&2; exit 2; }
HELPER=${VMHELPER:-$repo/.build-vmtest/vmhelper}
[[ -x $HELPER ]] || { HELPER=/tmp/vmhelper; cc -O2 -o "$HELPER" "$repo/vm/bench/vmhelper.c" || exit 2; }
# shellcheck source=vm/gpio-sim.sh
source "$repo/vm/gpio-sim.sh"
gpiosim_create cg 4 >/dev/null || exit 1
CHIP=$GPIOSIM_CHIP_DEV
pull() { echo "$(_gpiosim_line_dir cg "$1")/pull"; }

count() { # count TAG LINE EDGES COMMAND... -> prints the run's instruction total
    local tag=$1 line=$2 edges=$3
    shift 3
    gpiosim_set cg "$line" 1
    valgrind --tool=callgrind --callgrind-out-file="$out/$tag.$edges" "$@" >"$out/$tag.$edges.out" 2>"$out/$tag.$edges.err" &
    local pid=$!
    gpiosim_wait_used cg "$line" 600 || { echo "$tag: the line was never requested" >&2; cat "$out/$tag.$edges.err" >&2; return 1; }
    sleep 3
    ((edges > 0)) && "$HELPER" rr 200000 "$edges" "$(pull "$line")" 2>/dev/null
    sleep 3
    kill -INT "$pid"
    wait "$pid"
    sed -n 's/^summary: //p' "$out/$tag.$edges"
}
for reader in ours mon; do
    if [[ $reader == ours ]]; then cmd=("$BIN" watch --format json --bias as-is --chip "$CHIP" 0 --debounce eager:1ms); line=0
    else cmd=(gpiomon "$CHIP" 1); line=1; fi
    idle=$(count "$reader" "$line" 0 "${cmd[@]}") || exit 1
    busy=$(count "$reader" "$line" "$EDGES" "${cmd[@]}") || exit 1
    events=$(grep -c . "$out/$reader.$EDGES.out")
    printf '%-10s idle %12d  with %d edges %12d  per edge %7d instructions%s\n' "$reader" "$idle" "$EDGES" "$busy" \
        $(((busy - idle) / EDGES)) "$( ((events * 100 >= EDGES * 95)) && echo " ($events events out)" || echo " (INVALID: $events events out: the reader fell behind)")"
done
