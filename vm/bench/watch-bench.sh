#!/usr/bin/env bash
# vm/bench/watch-bench.sh [LABEL=BINARY...] - idle wakeups, memory and event
# latency of `gpio-debounce watch` (1 and 8 lines) next to gpiomon (libgpiod
# 1.6 tools). Runs INSIDE the VM; the host entry is vm/bench/run.sh:
#
#   bash vm/bench/run.sh                      # boots the VM with this bench
#   bash vm/run.sh vm/bench/watch-bench.sh v1=.build-vmtest/v1/gpio-debounce
#
# Default binaries: v1=<repo>/.build-vmtest/v1/gpio-debounce and v2=… (those
# that exist). Helper: $VMHELPER or <repo>/.build-vmtest/vmhelper
# (vm/bench/vmhelper.c), compiled here if missing.
#
# All readers watch lines of ONE 48-line gpio-sim chip, in the same VM:
#  (i)  idle wakeups: every reader runs at once, untouched for IDLE_S (10) s;
#       voluntary (and involuntary) context switches summed over all threads
#       of the process (/proc/PID/task/*/status), after a 2 s settle.
#  (ii) VmRSS (/proc/PID/status) at idle, and again after the latency run.
#  (iii) latency: each reader's stdout piped into `vmhelper stamp`, which
#       stamps each arriving line with CLOCK_MONOTONIC. EDGES (200) edges per
#       reader, one every PERIOD_US (25000) µs, round-robin over its lines.
#       eager:1ms runs PAIRED: gpio-debounce and gpiomon (on as many lines)
#       run at once and their edges alternate (one of theirs, then one of
#       ours), so a stall of the host hits both alike and the ratio of their
#       medians compares the same minutes, not two different ones.
#       ROUNDS (1) repeats each pairing with fresh processes and pools the
#       samples (EDGES x ROUNDS per reader): a round's scheduling luck is
#       averaged out, and the medians move far less from run to run.
#       defer:5ms runs alone. Latency = arrival - kernel timestamp of the line:
#       gpiomon: its "[sec.nsec]" event timestamp (run with stdbuf -oL: a
#       plain gpiomon 1.6 block-buffers a pipe and delivers nothing until it
#       exits); gpio-debounce eager:1ms: time_ns (= the edge's kernel
#       timestamp); gpio-debounce defer:5ms: time_ns = the DECISION time
#       (5 ms after the edge, user-space clock), so that latency is the cost
#       of the decision path, not edge-to-output (which is ~5 ms + that).
# Output: raw numbers per run, then a table with ratios to gpiomon.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=vm/gpio-sim.sh
source "${GPIOSIM_LIB:-$repo/vm/gpio-sim.sh}"
[[ ${GPIO_DEBOUNCE_VM:-} == 1 ]] || { echo "run me inside the VM (vm/bench/run.sh)" >&2; exit 2; }

IDLE_S=${IDLE_S:-10} EDGES=${EDGES:-200} PERIOD_US=${PERIOD_US:-25000} ROUNDS=${ROUNDS:-1}
# The strategies measured: EAGER (eager:1ms) paired with gpiomon, DEFER (defer:5ms) alone; DEFER= skips it.
EAGER=${EAGER-eager:1ms} DEFER=${DEFER-defer:5ms}
TMP=$(mktemp -d /tmp/bench.XXXXXX)
mkfifo "$TMP/nap"
exec {SLEEP_FD}<>"$TMP/nap"
nap() { read -rt "$1" -u "$SLEEP_FD" || true; }

HELPER=${VMHELPER:-$repo/.build-vmtest/vmhelper}
if [[ ! -x $HELPER ]]; then
    HELPER=$TMP/vmhelper
    cc -O2 -o "$HELPER" "$repo/vm/bench/vmhelper.c" || exit 2
fi

declare -A BINS=()
LABELS=()
if (($#)); then
    for a in "$@"; do LABELS+=("${a%%=*}"); BINS[${a%%=*}]=$(realpath -e "${a#*=}") || exit 2; done
else
    for l in v1 v2; do
        [[ -x $repo/.build-vmtest/$l/gpio-debounce ]] && { LABELS+=("$l"); BINS[$l]=$repo/.build-vmtest/$l/gpio-debounce; }
    done
fi
((${#LABELS[@]})) || { echo "no gpio-debounce binary to bench" >&2; exit 2; }

SIM=bench
gpiosim_create "$SIM" 48 >/dev/null || exit 1
CHIP=$GPIOSIM_CHIP_DEV
for ((i = 0; i < 48; i++)); do gpiosim_set "$SIM" "$i" 1; done
pull() { echo "$(_gpiosim_line_dir "$SIM" "$1")/pull"; }
echo "# watch-bench: kernel $(uname -r), $(nproc) vCPU, chip $CHIP; $(gpiomon --version | head -n1)"
# The binaries run from the guest's own tmpfs, as an installed one runs from a local disk, not from
# the work tree's uncached 9p mount (no difference measured, but nothing to explain away either).
for l in "${LABELS[@]}"; do
    echo "# $l: ${BINS[$l]} ($("${BINS[$l]}" --version))"
    cp "${BINS[$l]}" "$TMP/$l-gpio-debounce" && BINS[$l]=$TMP/$l-gpio-debounce
done

# Readers: NAME -> command (with a placeholder for the lines) and line set.
# Line sets are disjoint, so all readers can hold their lines at once.
RNAMES=()
declare -A RCMD=() RLINES=()
next=0
add_reader() { # add_reader NAME NLINES CMD...  (CMD gets the offsets appended)
    local name=$1 n=$2 i lines=()
    shift 2
    for ((i = 0; i < n; i++)); do lines+=($((next + i))); done
    next=$((next + n))
    RNAMES+=("$name")
    RLINES[$name]="${lines[*]}"
    RCMD[$name]="$*"
}
for l in "${LABELS[@]}"; do
    add_reader "$l-1line" 1 "${BINS[$l]}" watch --format json --bias as-is --chip "$CHIP"
    add_reader "$l-8lines" 8 "${BINS[$l]}" watch --format json --bias as-is --chip "$CHIP"
done
add_reader gpiomon-1line 1 stdbuf -oL gpiomon "$CHIP"
add_reader gpiomon-8lines 8 stdbuf -oL gpiomon "$CHIP"

# status_sum PID FIELD -> sum of FIELD over all threads
status_sum() {
    local f s=0 v
    for f in /proc/"$1"/task/*/status; do
        v=$(grep -E "^$2:" "$f" 2>/dev/null | tr -dc 0-9)
        s=$((s + ${v:-0}))
    done
    echo "$s"
}
rss_kb() { grep -E '^VmRSS:' /proc/"$1"/status | tr -dc 0-9; }
wait_all_used() { # wait_all_used LINES...
    local o
    for o in "$@"; do gpiosim_wait_used "$SIM" "$o" 30 || return 1; done
}

# ------------------------------------------------------------- (i) + (ii) idle
echo "# idle: all ${#RNAMES[@]} readers at once, ${IDLE_S}s without edges"
declare -A PID=() VOL=() INVOL=() RSS=() THREADS=()
for r in "${RNAMES[@]}"; do
    # shellcheck disable=SC2086  # word splitting of the command and offsets is intended
    ${RCMD[$r]} ${RLINES[$r]} >"$TMP/idle-$r.out" 2>"$TMP/idle-$r.err" &
    PID[$r]=$!
done
for r in "${RNAMES[@]}"; do
    # shellcheck disable=SC2086
    wait_all_used ${RLINES[$r]} || { echo "$r did not request its lines" >&2; cat "$TMP/idle-$r.err" >&2; }
done
nap 2
# stdbuf execs gpiomon in place, so PID is gpiomon's
declare -A V0=() N0=()
for r in "${RNAMES[@]}"; do
    V0[$r]=$(status_sum "${PID[$r]}" voluntary_ctxt_switches)
    N0[$r]=$(status_sum "${PID[$r]}" nonvoluntary_ctxt_switches)
done
nap "$IDLE_S"
for r in "${RNAMES[@]}"; do
    VOL[$r]=$(($(status_sum "${PID[$r]}" voluntary_ctxt_switches) - V0[$r]))
    INVOL[$r]=$(($(status_sum "${PID[$r]}" nonvoluntary_ctxt_switches) - N0[$r]))
    RSS[$r]=$(rss_kb "${PID[$r]}")
    THREADS[$r]=$(ls /proc/"${PID[$r]}"/task | wc -l)
    printf '  %-16s voluntary %4d  involuntary %4d  VmRSS %6d kB  threads %d\n' "$r" "${VOL[$r]}" "${INVOL[$r]}" "${RSS[$r]}" "${THREADS[$r]}"
done
for r in "${RNAMES[@]}"; do kill -TERM "${PID[$r]}" 2>/dev/null; done
for r in "${RNAMES[@]}"; do wait "${PID[$r]}" 2>/dev/null; done

# ------------------------------------------------------------ (iii) latency
# stats FILE -> "median p99 n" of the numbers in FILE (µs, one per line)
stats() {
    sort -n "$1" | awk '{ v[NR] = $1 } END {
        if (NR == 0) { print "- - 0"; exit }
        m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        i = int(NR * 0.99 + 0.999999); if (i < 1) i = 1; if (i > NR) i = NR
        printf "%.0f %.0f %d\n", m, v[i], NR }'
}
# deciles FILE -> p10 p20 ... p90 of the numbers in FILE
deciles() {
    sort -n "$1" | awk '{ v[NR] = $1 } END { if (NR == 0) exit; for (d = 1; d <= 9; d++) { i = int(NR * d / 10); if (i < 1) i = 1; printf "%.0f ", v[i] } }'
}
declare -A LAT_MED=() LAT_P99=() LAT_N=() RSS_AFTER=() ONSET_MED=()
# latency_of KEY READER -> fills LAT_MED/P99/N[KEY] (and ONSET_MED) from $TMP/lat-KEY.stamped
latency_of() {
    local key=$1 r=$2 out=$TMP/lat-$1
    if [[ $r == gpiomon* ]]; then
        # "<arrival_ns> event:  RISING EDGE offset: 5 timestamp: [      12.345678901]"
        sed -nE 's/^([0-9]+) .*timestamp: \[ *([0-9]+)\.([0-9]{9})\].*/\1 \2\3/p' "$out.stamped" |
            awk '{ printf "%.1f\n", ($1 - $2) / 1000 }' >"$out.lat"
    else
        sed -nE 's/^([0-9]+) .*"time_ns":([0-9]+).*"onset_ns":([0-9]+).*/\1 \2 \3/p' "$out.stamped" |
            awk '{ printf "%.1f\n", ($1 - $2) / 1000 }' >"$out.lat"
        sed -nE 's/^([0-9]+) .*"time_ns":([0-9]+).*"onset_ns":([0-9]+).*/\1 \2 \3/p' "$out.stamped" |
            awk '{ printf "%.1f\n", ($1 - $3) / 1000 }' >"$out.onset"
        read -r ONSET_MED[$key] _ _ <<<"$(stats "$out.onset")"
    fi
    read -r LAT_MED[$key] LAT_P99[$key] LAT_N[$key] <<<"$(stats "$out.lat")"
}
# run_latency KEY READER [EXTRA ARGS] - the reader alone, EDGES edges
run_latency() {
    run_pair "$1" "$2" "" "" "${@:3}"
}
# run_pair KEY READER KEY2 READER2 [EXTRA ARGS for READER] - both readers at once, their edges
# interleaved (READER's line, then READER2's, PERIOD_US apart; EDGES each): whatever the host does
# to the VM meanwhile, it does to both, so their ratio is not the difference between two moments.
run_pair() {
    local keys=("$1") rs=("$2") key r i o p
    [[ -n $3 ]] && { keys+=("$3"); rs+=("$4"); }
    local extra=("${@:5}")
    local pids=() stamps=() paths=()
    for i in "${!rs[@]}"; do
        key=${keys[$i]} r=${rs[$i]}
        local out=$TMP/lat-$key
        for o in ${RLINES[$r]}; do gpiosim_set "$SIM" "$o" 1; done  # all released before the reader starts
        mkfifo "$out.fifo"
        "$HELPER" stamp <"$out.fifo" >>"$out.stamped" &  # appended: rounds pool their samples
        stamps+=($!)
        local args=()
        ((i == 0)) && args=("${extra[@]}")  # the extra arguments are the first reader's
        # shellcheck disable=SC2086
        ${RCMD[$r]} "${args[@]}" ${RLINES[$r]} >"$out.fifo" 2>"$out.err" &
        pids+=($!)
    done
    for i in "${!rs[@]}"; do
        # shellcheck disable=SC2086
        wait_all_used ${RLINES[${rs[$i]}]} || { echo "${keys[$i]}: lines not requested" >&2; cat "$TMP/lat-${keys[$i]}.err" >&2; }
    done
    nap 0.5
    local first=(${RLINES[${rs[0]}]}) second=()
    ((${#rs[@]} > 1)) && second=(${RLINES[${rs[1]}]})
    for i in "${!first[@]}"; do
        paths+=("$(pull "${first[$i]}")")
        ((${#second[@]})) && paths+=("$(pull "${second[$i]}")")
    done
    "$HELPER" rr "$PERIOD_US" $((EDGES * ${#rs[@]})) "${paths[@]}" 2>"$TMP/lat-${keys[0]}.rr"
    nap 0.5
    for i in "${!rs[@]}"; do RSS_AFTER[${keys[$i]}]=$(rss_kb "${pids[$i]}"); done
    for p in "${pids[@]}"; do kill -TERM "$p"; done
    for p in "${pids[@]}" "${stamps[@]}"; do wait "$p" 2>/dev/null; done
    for i in "${!rs[@]}"; do
        key=${keys[$i]}
        rm -f "$TMP/lat-$key.fifo"
        latency_of "$key" "${rs[$i]}"
        printf '  %-24s n=%3d  median %6s us  p99 %6s us  VmRSS after %6s kB  (%s)\n' "$key" "${LAT_N[$key]}" \
            "${LAT_MED[$key]}" "${LAT_P99[$key]}" "${RSS_AFTER[$key]}" "$(<"$TMP/lat-${keys[0]}.rr")"
        printf '  %-24s deciles (us): %s\n' "$key" "$(deciles "$TMP/lat-$key.lat")"
    done
}
echo "# latency: $EDGES edges every ${PERIOD_US} us per reader and round, $ROUNDS round(s) pooled, kernel timestamp -> line read from the pipe;"
echo "# eager: each reader paired with gpiomon on as many lines, their edges interleaved (n and the stats are cumulative over the rounds)"
for ((round = 1; round <= ROUNDS; round++)); do
    for l in "${LABELS[@]}"; do
        for n in 1line 8lines; do
            run_pair "$l-$n-eager" "$l-$n" "gpiomon-$n-with-$l" "gpiomon-$n" --debounce "$EAGER"
            [[ -n $DEFER ]] && run_latency "$l-$n-defer" "$l-$n" --debounce "$DEFER"
        done
    done
done

# ------------------------------------------------------------------- table
ratio() { # ratio A B -> A/B with two decimals, or -
    [[ $1 =~ ^[0-9.]+$ && $2 =~ ^[0-9.]+$ ]] && awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }' || echo "-"
}
echo
echo "## watch-bench results ($(nproc) vCPU TCG, kernel $(uname -r); latency in us, median / p99 over $EDGES edges x $ROUNDS round(s); ratio = / gpiomon with the same number of lines)"
echo
echo "| reader | idle wakeups / ${IDLE_S} s (vol+invol) | VmRSS idle kB (ratio) | VmRSS after kB | $EAGER latency med / p99, paired gpiomon med (ratio med) | ${DEFER:-defer} latency from time_ns med / p99 | defer from onset med |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for r in "${RNAMES[@]}"; do
    n=${r##*-}
    g=gpiomon-$n
    if [[ $r == gpiomon* ]]; then
        printf '| %s | %s+%s | %s | - | (paired below) | - | - |\n' "$r" "${VOL[$r]}" "${INVOL[$r]}" "${RSS[$r]}"
    else
        l=${r%-*}
        printf '| %s | %s+%s | %s (%s) | %s | %s / %s, %s (%s) | %s / %s | %s |\n' "$r" "${VOL[$r]}" "${INVOL[$r]}" \
            "${RSS[$r]}" "$(ratio "${RSS[$r]}" "${RSS[$g]}")" "${RSS_AFTER[$r-eager]}" \
            "${LAT_MED[$r-eager]}" "${LAT_P99[$r-eager]}" "${LAT_MED[$g-with-$l]}" \
            "$(ratio "${LAT_MED[$r-eager]}" "${LAT_MED[$g-with-$l]}")" \
            "${LAT_MED[$r-defer]:--}" "${LAT_P99[$r-defer]:--}" "${ONSET_MED[$r-defer]:--}"
    fi
done
gpiosim_remove "$SIM"
rm -rf "$TMP"
