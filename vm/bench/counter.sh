#!/usr/bin/env bash
# vm/bench/counter.sh BINARY [PULSES] - what a pulse counter (an S0 meter on `run`'s `counters:`)
# costs, on a gpio-sim line driven by `vmhelper rr` (each pulse 50 ms low, 50 ms high: 10 pulses a
# second, an S0 meter of 1000 imp/kWh at 36 kW). Runs INSIDE the VM:
#
#   swift build -c release --scratch-path .build-perf --product gpio-debounce
#   strip --strip-debug -o .build-vmtest/gd-perf .build-perf/release/gpio-debounce
#   VM_MEM=1G VM_TIMEOUT=1800 bash vm/run.sh vm/bench/counter.sh .build-vmtest/gd-perf
#
# Prints, for the default configuration of a counter (debounce defer:10ms, flush 5s):
#   - wakeups: the daemon's voluntary context switches (each return from ppoll is one) in 10 s of
#     idle, and per pulse at 10 pulses a second (exact counts, whatever TCG's speed);
#   - state-file writes: `run`'s own count at the stop, for PULSES pulses at 10 a second;
#   - user-space instructions per pulse, counted by callgrind ((with pulses - idle) / PULSES, so
#     start-up cancels out), at 5 pulses a second so that the reader under valgrind keeps up.
# CPU time under TCG says little about a Pi, so it is not printed; the instruction count is the
# figure to compare between versions.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
BIN=$(realpath -e -- "${1:?usage: counter.sh BINARY [PULSES]}") || exit 2
PULSES=${2:-100}
out=$repo/.build-vmtest/counter
rm -rf "$out" && mkdir -p "$out"
HELPER=${VMHELPER:-$repo/.build-vmtest/vmhelper}
[[ -x $HELPER ]] || { HELPER=/tmp/vmhelper; cc -O2 -o "$HELPER" "$repo/vm/bench/vmhelper.c" || exit 2; }
# shellcheck source=vm/gpio-sim.sh
source "$repo/vm/gpio-sim.sh"
gpiosim_create ctr 2 >/dev/null || exit 1
gpiosim_set ctr 0 1
PULL="$(_gpiosim_line_dir ctr 0)/pull"
cat >"$out/meter.yaml" <<YAML
counters:
  - name: energy
    chip: $GPIOSIM_CHIP_NAME
    line: 0
    bias: as-is
    per_unit: 1000
    unit: kWh
    device_class: energy
YAML
switches() { awk '/^voluntary_ctxt_switches/ {print $2}' "/proc/$1/status"; }
start() { # start TAG COMMAND... : in the background, until line 0 is requested
    local tag=$1
    shift
    "$@" run --config "$out/meter.yaml" --state-dir "$out/state-$tag" --format json >"$out/$tag.out" 2>"$out/$tag.err" &
    PID=$!
    gpiosim_wait_used ctr 0 600 || { echo "$tag: the line was never requested" >&2; cat "$out/$tag.err" >&2; exit 1; }
    sleep 2
}

# Wakeups and writes, without valgrind.
start plain "$BIN"
before=$(switches "$PID"); sleep 10; idle=$(($(switches "$PID") - before))
before=$(switches "$PID")
"$HELPER" rr 50000 $((2 * PULSES)) "$PULL" 2>"$out/rr.err"
sleep 1
busy=$(($(switches "$PID") - before))
kill -TERM "$PID"; wait "$PID"
counted=$(grep -c '"event":"count"' "$out/plain.out")
writes=$(sed -n 's/.*counters: \([0-9]*\) writes\{0,1\} of .*/\1/p' "$out/plain.err")
seconds=$(( (PULSES + 9) / 10 ))
printf 'wakeups   idle 10 s: %d   %d pulses at 10/s: %d (%s per pulse), %d counted\n' "$idle" "$PULSES" "$busy" \
    "$(awk -v b="$busy" -v p="$PULSES" 'BEGIN { printf "%.2f", b / p }')" "$counted"
printf 'writes    %s in %d s of pulses (flush 5s): at most %d an hour while pulses come, none while idle\n' "${writes:-?}" "$seconds" 720

# Instructions, under callgrind.
count() { # count PULSES -> the run's instruction total
    start "cg$1" valgrind --tool=callgrind --callgrind-out-file="$out/cg.$1" "$BIN"
    sleep 3
    (($1 > 0)) && "$HELPER" rr 100000 $((2 * $1)) "$PULL" 2>/dev/null
    sleep 3
    kill -INT "$PID"; wait "$PID"
    sed -n 's/^summary: //p' "$out/cg.$1"
}
idle_instructions=$(count 0)
busy_instructions=$(count "$PULSES")
counted=$(grep -c '"event":"count"' "$out/cg$PULSES.out")
printf 'instructions per pulse %d (%d of %d pulses counted under valgrind)\n' $(((busy_instructions - idle_instructions) / PULSES)) "$counted" "$PULSES"
