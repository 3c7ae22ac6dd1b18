#!/usr/bin/env bash
# vm/bench/soak.sh BINARY [EDGES] [PERIOD_US] - a long run of the daemon over every input kind:
# whether its private dirty memory and its descriptors stay flat. Runs INSIDE the VM:
#
#   VM_MEM=1G VM_TIMEOUT=3000 bash vm/run.sh vm/bench/soak.sh .build-vmtest/v2/gpio-debounce 100000
#
# `run --config` watches a button (with clicks and a hold), an encoder (two lines), a door contact
# and a meter's counter on five lines of one gpio-sim chip, which `vmhelper rr` toggles in turn, one
# edge every PERIOD_US (default 4000: each line changes every 20 ms; the encoder's A and B in
# quadrature, one detent per four of its edges; RR_STEADY: a host's stall delays the next edges
# rather than bunching them, so every pulse is longer than the debounce window). The edges come in rounds of 10,000 (every line back
# at its start level after each); after each round it prints the daemon's private dirty memory
# (/proc/PID/smaps_rollup, after a pause with no edge), its RSS and its open descriptors. At the
# end, SIGTERM and the stop summary; the counter's total must equal the pulses driven.
# Exit 1 when private dirty memory grew by more than 256 KiB from the end of the first round to
# the end of the last, when the descriptors changed, or when something was reported that was not
# driven (more pulses, presses or detents than made, a press without its release), or on libgpiod 2
# when anything driven is missing.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
BIN=$(realpath -e -- "${1:?usage: soak.sh BINARY [EDGES] [PERIOD_US]}") || exit 2
EDGES=${2:-100000}
PERIOD_US=${3:-4000}
ROUND=10000
out=$repo/.build-vmtest/soak
rm -rf "$out" && mkdir -p "$out"
HELPER=$out/vmhelper
cc -O2 -o "$HELPER" "$repo/vm/bench/vmhelper.c" || exit 2
# shellcheck source=vm/gpio-sim.sh
source "$repo/vm/gpio-sim.sh"
gpiosim_create soak 5 >/dev/null || exit 1
pulls=()
for line in 0 1 2 3 4; do
    gpiosim_set soak "$line" 1
    pulls+=("$(_gpiosim_line_dir soak "$line")/pull")
done
cat >"$out/soak.yaml" <<YAML
defaults:
  chip: $GPIOSIM_CHIP_NAME
  bias: as-is
  debounce: defer:5ms
buttons:
  - name: doorbell
    line: 0
    hold: 1s
    clicks: {window: 50ms, max: 2}
encoders:
  - name: volume
    lines: [1, 2]
    chip: $GPIOSIM_CHIP_NAME
    bias: as-is
sensors:
  - name: front-door
    line: 3
    chip: $GPIOSIM_CHIP_NAME
    bias: as-is
    debounce: defer:5ms
counters:
  - name: energy
    line: 4
    chip: $GPIOSIM_CHIP_NAME
    bias: as-is
    debounce: defer:5ms
    per_unit: 1000
    unit: kWh
    device_class: energy
YAML
"$BIN" run --config "$out/soak.yaml" --state-dir "$out/state" --format json >"$out/run.out" 2>"$out/run.err" &
PID=$!
gpiosim_wait_used soak 4 600 || { echo "soak: the lines were never requested" >&2; cat "$out/run.err" >&2; exit 1; }
sleep 2

kib() { awk -v k="$1" '$1 == k":" { print $2 }' "/proc/$PID/smaps_rollup"; }
descriptors() { find "/proc/$PID/fd" -mindepth 1 | wc -l; }
printf '%8s %18s %10s %12s\n' edges 'private dirty KiB' 'RSS KiB' descriptors
printf '%8d %18d %10d %12d\n' 0 "$(kib Private_Dirty)" "$(kib Rss)" "$(descriptors)"
start_fds=$(descriptors)
driven=0 first_dirty= last_dirty= fds_changed=0
while ((driven < EDGES)); do
    RR_STEADY=1 "$HELPER" rr "$PERIOD_US" "$ROUND" "${pulls[@]}" 2>>"$out/rr.err" || { echo "soak: vmhelper failed" >&2; exit 1; }
    driven=$((driven + ROUND))
    sleep 2
    dirty=$(kib Private_Dirty) fds=$(descriptors)
    [[ -n $first_dirty ]] || first_dirty=$dirty
    last_dirty=$dirty
    ((fds == start_fds)) || fds_changed=1
    printf '%8d %18d %10d %12d\n' "$driven" "$dirty" "$(kib Rss)" "$fds"
done
kill -TERM "$PID"
wait "$PID"
rc=$?
status=0
pulses=$((driven / 5 / 2))
counts=$(grep -c '"event":"count"' "$out/run.out")
presses=$(grep '"button":"doorbell"' "$out/run.out" | grep -c '"event":"press"')
releases=$(grep '"button":"doorbell"' "$out/run.out" | grep -c '"event":"release"')
detents=$(grep '"encoder":"volume"' "$out/run.out" | grep -c '"event":"rotate"')
printf 'driven: %d edges, %d pulses per line, %d detents; counted %d, doorbell %d presses / %d releases, volume %d detents; exit %d\n' \
    "$driven" "$pulses" $((driven / 10)) "$counts" "$presses" "$releases" "$detents" "$rc"
sed -n 's/^.*\(stopped .*\)$/\1/p; s/^.*\(counters: .*\)$/\1/p' "$out/run.err"
growth=$((last_dirty - first_dirty))
printf 'private dirty growth after the first round: %d KiB; descriptors %s\n' "$growth" "$( ((fds_changed)) && echo changed || echo flat)"
((rc == 0)) || { echo "soak: run exited $rc" >&2; status=1; }
((growth <= 256)) || { echo "soak: private dirty memory grew by $growth KiB" >&2; status=1; }
((fds_changed == 0)) || { echo "soak: the descriptors changed" >&2; status=1; }
# Nothing phantom, a release after every press. On libgpiod 1 the kernel keeps 16 events per line,
# and a reader held up longer than 16 changes (a loaded host's stall) loses some: those are counted
# short, never made up. On libgpiod 2 (1024 events per request) nothing may be missing.
if "$BIN" --version | grep -q 'libgpiod 1\.'; then
    ((counts <= pulses)) || { echo "soak: $counts pulses counted of $pulses driven" >&2; status=1; }
    ((presses <= pulses && presses == releases)) || { echo "soak: the doorbell's $presses presses and $releases releases, of $pulses" >&2; status=1; }
    ((detents <= driven / 10)) || { echo "soak: $detents detents of $((driven / 10))" >&2; status=1; }
else
    ((counts == pulses)) || { echo "soak: $counts pulses counted of $pulses driven" >&2; status=1; }
    ((presses == pulses && releases == pulses)) || { echo "soak: the doorbell's $presses presses and $releases releases, of $pulses" >&2; status=1; }
    ((detents == driven / 10)) || { echo "soak: $detents detents of $((driven / 10))" >&2; status=1; }
fi
exit "$status"
