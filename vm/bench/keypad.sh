#!/usr/bin/env bash
# vm/bench/keypad.sh BINARY [KEYS] - what a 4×4 matrix keypad (`run`'s `keypads:`) costs, on 8
# gpio-sim lines played by `vmhelper keypad` (KEYS keys, 20 by default, typed one at a time over the
# layout 123A456B789C*0#D). Runs INSIDE the VM:
#
#   apt-get install valgrind                       # on the host: the VM runs the host's programs
#   swift build -c release --scratch-path .build-perf --product gpio-debounce
#   strip --strip-debug -o .build-vmtest/gd-perf .build-perf/release/gpio-debounce
#   VM_MEM=1G VM_TIMEOUT=1800 bash vm/run.sh vm/bench/keypad.sh .build-vmtest/gd-perf
#
# The keypad has q-keypad's settings (scan_settle 20ms, scan_interval 100ms, debounce defer:250ms),
# no key_map and no code, and writes JSON events to a file. Prints:
#   - wakeups: the daemon's voluntary context switches (each return from ppoll is one) in 10 s of
#     idle, and per key press while typing KEYS keys, each held HOLD_US (300000) and GAP_US (300000)
#     apart (from just before the first key to 1 s after the last release: the helper's pauses
#     included); every key must come out as exactly one press and one release, in order;
#   - the daemon's own count of scans at the stop;
#   - user-space instructions per key press, counted by callgrind ((with keys - idle) / KEYS, so
#     start-up cancels out), each key held VG_HOLD_US (600000) and VG_GAP_US (600000) apart so that
#     the daemon under valgrind keeps up with the scans; a key missed makes the count INVALID;
#     and per scan (the scans under valgrind, 6 or 7 per key held 600 ms, follow the emulation's
#     timing: the count per scan is the steadier figure).
# The callgrind files stay in .build-vmtest/keypad/ (cg.0 and cg.KEYS).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
BIN=$(realpath -e -- "${1:?usage: keypad.sh BINARY [KEYS]}") || exit 2
KEYS=${2:-20}
HOLD_US=${HOLD_US:-300000} GAP_US=${GAP_US:-300000}
VG_HOLD_US=${VG_HOLD_US:-600000} VG_GAP_US=${VG_GAP_US:-600000}
out=$repo/.build-vmtest/keypad
rm -rf "$out" && mkdir -p "$out"
command -v valgrind >/dev/null || { echo "valgrind missing: apt-get install valgrind on the host" >&2; exit 2; }
HELPER=${VMHELPER:-$repo/.build-vmtest/vmhelper}
[[ -x $HELPER ]] || { HELPER=/tmp/vmhelper; cc -O2 -o "$HELPER" "$repo/vm/bench/vmhelper.c" || exit 2; }
# shellcheck source=vm/gpio-sim.sh
source "$repo/vm/gpio-sim.sh"
gpiosim_create kp 8 >/dev/null || exit 1
LINES_DIR=$(dirname "$(_gpiosim_line_dir kp 0)")
LAYOUT='123A456B789C*0#D'
typed=""
while ((${#typed} < KEYS)); do typed+=$LAYOUT; done
typed=${typed:0:KEYS}
cat >"$out/keypad.yaml" <<YAML
keypads:
  - name: door
    chip: $GPIOSIM_CHIP_NAME
    rows: [0, 1, 2, 3]
    columns: [4, 5, 6, 7]
    keys: ["123A", "456B", "789C", "*0#D"]
    scan_settle: 20ms
    scan_interval: 100ms
    debounce: defer:250ms
YAML
"$BIN" check --config "$out/keypad.yaml" >"$out/check.out" 2>&1 || { echo "check failed:" >&2; cat "$out/check.out" >&2; exit 1; }

switches() { awk '/^voluntary_ctxt_switches/ {print $2}' "/proc/$1/status"; }
start() { # start TAG COMMAND... : in the background, until the 8 lines are requested
    local tag=$1 off
    shift
    "$@" run --config "$out/keypad.yaml" --state-dir "$out/state-$tag" --format json >"$out/$tag.out" 2>"$out/$tag.err" &
    PID=$!
    for off in 0 1 2 3 4 5 6 7; do
        gpiosim_wait_used kp "$off" 600 || { echo "$tag: line $off was never requested" >&2; cat "$out/$tag.err" >&2; exit 1; }
    done
    sleep 2
}
play() { # play HOLD_US GAP_US TAG : types the keys
    "$HELPER" keypad "$LINES_DIR" 0,1,2,3 4,5,6,7 "$LAYOUT" "$1" "$2" "$typed" 2>"$out/$3.helper" ||
        { echo "vmhelper keypad failed:" >&2; cat "$out/$3.helper" >&2; }
}
released() { grep -c '"event":"release"' "$1"; }
wait_released() { # wait_released FILE : until KEYS releases are out, at most 20 s
    local i
    for ((i = 0; i < 200; i++)); do (($(released "$1") >= KEYS)) && return; sleep 0.1; done
}
verdict() { # verdict FILE -> "ok" when every key came out as one press then one release, in order
    local want got
    want=$(for ((i = 0; i < ${#typed}; i++)); do printf 'press %s\nrelease %s\n' "${typed:i:1}" "${typed:i:1}"; done)
    got=$(sed -nE 's/.*"event":"([a-z_]+)".*"key":"([^"]*)".*/\1 \2/p' "$1")
    if [[ $got == "$want" ]]; then
        echo "ok: each of the $KEYS keys one press and one release"
    else
        printf 'MISSED: %d presses, %d releases of %d keys; diff (- wanted, + got):\n%s\n' \
            "$(grep -c '"event":"press"' "$1")" "$(released "$1")" "$KEYS" "$(diff <(echo "$want") <(echo "$got") | grep '^[<>]' | head -n 10)"
    fi
}
largest_pause() { sed -nE 's/.*largest pause between polls ([0-9]+) us/\1/p' "$1" | sort -n | tail -n 1; }

# Wakeups, without valgrind.
start plain "$BIN"
before=$(switches "$PID"); sleep 10; idle=$(($(switches "$PID") - before))
before=$(switches "$PID")
play "$HOLD_US" "$GAP_US" plain
wait_released "$out/plain.out"
sleep 1
busy=$(($(switches "$PID") - before))
kill -TERM "$PID"; wait "$PID"
scans=$(sed -nE 's/.*scans of keypad door: ([0-9]+) scans?.*/\1/p' "$out/plain.err")
printf 'wakeups   idle 10 s: %d   %d keys held %d ms, %d ms apart: %d (%s per key press)\n' "$idle" "$KEYS" \
    $((HOLD_US / 1000)) $((GAP_US / 1000)) "$busy" "$(awk -v b="$busy" -v k="$KEYS" 'BEGIN { printf "%.1f", b / k }')"
printf 'events    %s\n' "$(verdict "$out/plain.out")"
printf 'scans     %s (%s per key press); the helper paused at most %s us between polls\n' "${scans:-?}" \
    "$(awk -v s="${scans:-0}" -v k="$KEYS" 'BEGIN { printf "%.1f", s / k }')" "$(largest_pause "$out/plain.helper")"

# Instructions, under callgrind.
count() { # count KEYS -> the run's instruction total
    start "cg$1" valgrind --tool=callgrind --callgrind-out-file="$out/cg.$1" "$BIN"
    sleep 3
    if (($1 > 0)); then
        play "$VG_HOLD_US" "$VG_GAP_US" "cg$1"
        wait_released "$out/cg$1.out"
    fi
    sleep 3
    kill -INT "$PID"; wait "$PID"
    sed -n 's/^summary: //p' "$out/cg.$1"
}
idle_instructions=$(count 0)
busy_instructions=$(count "$KEYS")
check=$(verdict "$out/cg$KEYS.out")
vg_scans=$(sed -nE 's/.*scans of keypad door: ([0-9]+) scans?.*/\1/p' "$out/cg$KEYS.err")
printf 'instructions per key press %d (idle %d, with %d keys held %d ms, %d ms apart %d)%s\n' \
    $(((busy_instructions - idle_instructions) / KEYS)) "$idle_instructions" "$KEYS" $((VG_HOLD_US / 1000)) \
    $((VG_GAP_US / 1000)) "$busy_instructions" "$([[ $check == ok* ]] && echo "" || echo " INVALID")"
# the scans under valgrind follow the emulation's timing: per scan is the steadier figure
((${vg_scans:-0} > 0)) && printf 'instructions per scan %d (%d scans under valgrind, %s per key press)\n' \
    $(((busy_instructions - idle_instructions) / vg_scans)) "$vg_scans" "$(awk -v s="$vg_scans" -v k="$KEYS" 'BEGIN { printf "%.1f", s / k }')"
printf 'under valgrind: %s; the helper paused at most %s us between polls\n' "$check" "$(largest_pause "$out/cg$KEYS.helper")"
