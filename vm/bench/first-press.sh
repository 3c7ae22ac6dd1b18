#!/usr/bin/env bash
# vm/bench/first-press.sh [LABEL=BINARY...] - is the first press after a start as fast as any later
# one? Runs INSIDE the VM:
#
#   bash vm/run.sh vm/bench/first-press.sh debug=.build/debug/gpio-debounce
#   VM_PASSENV=ROUNDS ROUNDS=10 bash vm/run.sh vm/bench/first-press.sh a=BIN1 b=BIN2
#
# Each BINARY must be inside the work dir or another host path the VM sees (not /tmp): it runs from
# there, from a file system whose pages the kernel reads back when they were dropped, as an installed
# binary runs from a disk or an SD card (a copy on the guest's tmpfs could never fault).
#
# Per round and binary: `watch --format json --debounce eager:5ms` on one gpio-sim line (pulled up,
# released); once the line is requested, SETTLE_S (3) s later, the page cache is dropped (sync, then
# `echo 3 > /proc/sys/vm/drop_caches`); then one press (the sim's pull to 0), and 1 s later MORE (40)
# edges one every PERIOD_US (25000) µs. Printed per round:
#   - majflt: major page faults of the reader (/proc/PID/stat) from just before the press to 1 s
#     after it (the first event), and over the MORE edges after it;
#   - the first event's latency and the median latency of the later ones, each the moment its JSON
#     line arrives on the pipe's reader (`vmhelper stamp`, CLOCK_MONOTONIC) minus the event's
#     time_ns (with eager, the edge's kernel timestamp), and their ratio;
#   - with DETAIL=1, the files whose resident pages in the reader grew with the first press (the
#     mappings the first event faulted in, /proc/PID/smaps).
# The last lines sum the rounds up per binary: first-press faults (min..max), ratios (min..max), and
# whether every round met the goal: 0 major faults on the first press and a first latency at most
# 2 x the median of the later ones. Exit 0 when every binary met it in every round, 1 otherwise.
# Environment: ROUNDS (3), SETTLE_S (3), MORE (40), PERIOD_US (25000), DETAIL (0).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=vm/gpio-sim.sh
source "${GPIOSIM_LIB:-$repo/vm/gpio-sim.sh}"
[[ ${GPIO_DEBOUNCE_VM:-} == 1 ]] || { echo "run me inside the VM (bash vm/run.sh $0 LABEL=BINARY...)" >&2; exit 2; }

ROUNDS=${ROUNDS:-3} SETTLE_S=${SETTLE_S:-3} MORE=${MORE:-40} PERIOD_US=${PERIOD_US:-25000} DETAIL=${DETAIL:-0} DROP=${DROP:-1}
TMP=$(mktemp -d /tmp/first-press.XXXXXX)
mkfifo "$TMP/nap"
exec {SLEEP_FD}<>"$TMP/nap"
nap() { read -rt "$1" -u "$SLEEP_FD" || true; }

HELPER=${VMHELPER:-$repo/.build-vmtest/vmhelper}
if [[ ! -x $HELPER ]]; then
    HELPER=$TMP/vmhelper
    cc -O2 -o "$HELPER" "$repo/vm/bench/vmhelper.c" || exit 2
fi

LABELS=()
declare -A BINS=()
(($#)) || { echo "usage: $0 LABEL=BINARY..." >&2; exit 2; }
for a in "$@"; do
    [[ $a == *=* ]] || { echo "not LABEL=BINARY: $a" >&2; exit 2; }
    LABELS+=("${a%%=*}")
    BINS[${a%%=*}]=$(realpath -e -- "${a#*=}") || exit 2
    case ${BINS[${a%%=*}]} in /tmp/* | /var/tmp/* | /run/* | /dev/shm/*)
        echo "${a#*=} is on the guest's tmpfs, whose pages are never dropped: give a binary in the work dir" >&2
        exit 2 ;;
    esac
done

SIM=firstpress
gpiosim_create "$SIM" 1 >/dev/null || exit 1
CHIP=$GPIOSIM_CHIP_DEV
PULL="$(_gpiosim_line_dir "$SIM" 0)/pull"
echo "# first-press: kernel $(uname -r), $(nproc) vCPU, chip $CHIP; $ROUNDS round(s), drop ${SETTLE_S} s after the start, 1 press then $MORE edges every $PERIOD_US us"
for l in "${LABELS[@]}"; do echo "# $l: ${BINS[$l]} ($("${BINS[$l]}" --version))"; done

majflt() { awk '{ print $12 }' "/proc/$1/stat"; }  # field 12 of /proc/PID/stat: major faults
minflt() { awk '{ print $10 }' "/proc/$1/stat"; }
# resident PID -> "KB PATH" per mapping, summed by path (anonymous ones as "[anonymous]")
resident() {
    awk '/^[0-9a-f]+-[0-9a-f]+ / { path = (NF >= 6) ? $6 : "[anonymous]" } /^Rss:/ { kb[path] += $2 }
         END { for (p in kb) print kb[p], p }' "/proc/$1/smaps" | sort -k2
}
# quotient A B -> A / B with one decimal, or - when B is not a number above 0
quotient() { awk -v a="$1" -v b="$2" 'BEGIN { if (b ~ /^[0-9.]+$/ && b > 0) printf "%.1f", a / b; else print "-" }'; }
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) { print "-"; exit } print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

declare -A FAULTS=() RATIOS=() IDLE_RATIOS=() MET=()
for l in "${LABELS[@]}"; do MET[$l]=yes; done
# drop: the page cache (and the kernel's other caches) dropped, as a long idle under memory pressure would
drop() {
    sync
    ((DROP)) && echo 3 >/proc/sys/vm/drop_caches
    nap 0.5
}
for ((round = 1; round <= ROUNDS; round++)); do
    for l in "${LABELS[@]}"; do
        out=$TMP/$l-$round
        gpiosim_set "$SIM" 0 1
        mkfifo "$out.fifo"
        "$HELPER" stamp <"$out.fifo" >"$out.stamped" &
        stamp_pid=$!
        # A first line through the stamper, so that its own first read and clock reading (code it has
        # not run yet: under TCG, translated on first use) are not in the reader's first latency.
        exec {warm}>"$out.fifo"
        echo "warm-up" >&"$warm"
        if [[ ${BINS[$l]##*/} == gpiomon ]]; then  # the C reference; a plain gpiomon 1.6 block-buffers a pipe
            stdbuf -oL "${BINS[$l]}" "$CHIP" 0 >"$out.fifo" 2>"$out.err" &
        else
            "${BINS[$l]}" watch --format json --bias as-is --debounce eager:5ms --chip "$CHIP" 0 >"$out.fifo" 2>"$out.err" &
        fi
        pid=$!
        exec {warm}>&-
        gpiosim_wait_used "$SIM" 0 60 || { echo "$l: the line was never requested" >&2; cat "$out.err" >&2; exit 1; }
        nap "$SETTLE_S"
        drop
        ((DETAIL)) && resident "$pid" >"$out.rss0"
        major0=$(majflt "$pid") minor0=$(minflt "$pid")
        # The press, then a 1 s hold during which the driver sleeps, as it does between the later edges.
        "$HELPER" drive "$PULL" 0 -1000000
        major1=$(majflt "$pid") minor1=$(minflt "$pid")
        ((DETAIL)) && resident "$pid" >"$out.rss1"
        # MORE edges: rr's first pull-up (the release), then MORE - 1 toggles.
        "$HELPER" rr "$PERIOD_US" $((MORE - 1)) "$PULL" 2>"$out.rr"
        nap 0.5
        # A later press after the same idle and drop as the first: what any press after a pause costs here.
        "$HELPER" drive "$PULL" 1 -500000
        nap "$SETTLE_S"
        drop
        major2=$(majflt "$pid")
        "$HELPER" drive "$PULL" 0 -1000000
        major3=$(majflt "$pid")
        kill -TERM "$pid"
        wait "$pid" "$stamp_pid" 2>/dev/null
        rm -f "$out.fifo"
        # "<arrival_ns> {...,"time_ns":T,...}" (gpiomon: "<arrival_ns> event: ... timestamp: [S.N]") -> latency
        # in µs, in order of arrival
        sed -nE -e 's/^([0-9]+) .*"time_ns":([0-9]+).*/\1 \2/p' -e 's/^([0-9]+) .*timestamp: \[ *([0-9]+)\.([0-9]{9})\].*/\1 \2\3/p' \
            "$out.stamped" | awk '{ printf "%.0f\n", ($1 - $2) / 1000 }' >"$out.lat"
        events=$(wc -l <"$out.lat")
        first=$(head -n 1 "$out.lat")
        later=$(sed -n "2,$((MORE + 1))p" "$out.lat" | median)
        idle=$( ((events == MORE + 3)) && tail -n 1 "$out.lat" || echo -)
        ratio=$(quotient "${first:-0}" "$later")
        idle_ratio=$(quotient "${first:-0}" "$idle")
        faults=$((major1 - major0))
        printf '%-8s round %d: first press %2d major / %3d minor faults (later %d, the idle press %d); latency us: first %6s, later median %5s, idle press %6s; first / later median %5s x, first / idle press %5s x\n' \
            "$l" "$round" "$faults" $((minor1 - minor0)) $((major2 - major1)) $((major3 - major2)) "${first:--}" "$later" "$idle" "$ratio" "$idle_ratio"
        if ((DETAIL)); then
            join -1 2 -2 2 -a 2 -e 0 -o 0,1.1,2.1 "$out.rss0" "$out.rss1" |
                awk '$3 != $2 { printf "             %+6d kB resident  %s\n", $3 - $2, $1 }'
        fi
        ((events == MORE + 3)) || echo "         $l: $events events, want $((MORE + 3)) (an edge lost to a late driver? $(<"$out.rr"))"
        FAULTS[$l]+="$faults "
        RATIOS[$l]+="$ratio "
        IDLE_RATIOS[$l]+="$idle_ratio "
        if ((faults > 0 || events != MORE + 3)) || [[ $ratio == - ]] || awk -v r="$ratio" 'BEGIN { exit !(r > 2) }'; then
            MET[$l]=no
        fi
    done
done
status=0
for l in "${LABELS[@]}"; do
    printf '%-8s %d rounds: first-press major faults %s; first / later median: %s(median %s x); first / idle press: %s(median %s x); goal (0 faults, at most 2 x the later median): %s\n' \
        "$l" "$ROUNDS" "${FAULTS[$l]}" "${RATIOS[$l]}" "$(tr ' ' '\n' <<<"${RATIOS[$l]}" | grep -v '^-\?$' | median)" \
        "${IDLE_RATIOS[$l]}" "$(tr ' ' '\n' <<<"${IDLE_RATIOS[$l]}" | grep -v '^-\?$' | median)" "${MET[$l]}"
    [[ ${MET[$l]} == yes ]] || status=1
done
gpiosim_remove "$SIM"
rm -rf "$TMP"
exit "$status"
