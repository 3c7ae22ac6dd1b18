#!/usr/bin/env bash
# vm/bench/timeline.sh BINARY [EDGES [LINES]] - where an eager event's latency goes, step by step, for
# `gpio-debounce watch` (BINARY) next to gpiomon: the kernel's own trace (ftrace: the line's
# interrupt, the wakeup of the reader, its system calls) of EDGES (20) edges per reader, each
# reader watching LINES (1) lines, paired and interleaved as in watch-bench.sh. Runs INSIDE the VM:
#
#   bash vm/run.sh vm/bench/timeline.sh .build-vmtest/new
#
# Prints, per reader, the median time of each step in µs: interrupt -> reader woken -> its
# poll returns -> read(2) of the events starts -> returns -> write(2) of the line starts -> the
# pipe's reader (vmhelper stamp) returns from its read, and how often that reader got the CPU
# straight after the write rather than once the writer went back to its poll.
# The trace itself costs time: the totals are larger than watch-bench.sh's; compare the steps.
# TRACE_OUT=FILE (a path the host sees, e.g. under .build-vmtest/) keeps the raw trace.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
[[ ${GPIO_DEBOUNCE_VM:-} == 1 ]] || { echo "run me inside the VM (bash vm/run.sh vm/bench/timeline.sh BINARY)" >&2; exit 2; }
BIN=$(realpath -e -- "${1:?usage: timeline.sh BINARY [EDGES]}") || exit 2
EDGES=${2:-20}
LINES=${3:-1}
# shellcheck source=vm/gpio-sim.sh
source "${GPIOSIM_LIB:-$repo/vm/gpio-sim.sh}"
TMP=$(mktemp -d /tmp/timeline.XXXXXX)
HELPER=${VMHELPER:-$repo/.build-vmtest/vmhelper}
[[ -x $HELPER ]] || { HELPER=$TMP/vmhelper; cc -O2 -o "$HELPER" "$repo/vm/bench/vmhelper.c" || exit 2; }
gpiosim_create tl $((2 * LINES)) >/dev/null || exit 1
CHIP=$GPIOSIM_CHIP_DEV
for ((i = 0; i < 2 * LINES; i++)); do gpiosim_set tl "$i" 1; done
pull() { echo "$(_gpiosim_line_dir tl "$1")/pull"; }
# Ours watches lines 0, 2, 4...; gpiomon 1, 3, 5...: the round-robin below alternates between them.
ours_lines=() mon_lines=() pulls=()
for ((i = 0; i < LINES; i++)); do
    ours_lines+=($((2 * i))) mon_lines+=($((2 * i + 1)))
    pulls+=("$(pull $((2 * i)))" "$(pull $((2 * i + 1)))")
done
cp "$BIN" "$TMP/gpio-debounce"  # from the guest's tmpfs, as from a local disk
T=/sys/kernel/tracing
mountpoint -q $T || mount -t tracefs nodev $T || exit 1
mkfifo "$TMP/ours" "$TMP/mon"
"$HELPER" stamp <"$TMP/ours" >/dev/null &
"$HELPER" stamp <"$TMP/mon" >/dev/null &
"$TMP/gpio-debounce" watch --format json --bias as-is --chip "$CHIP" "${ours_lines[@]}" --debounce eager:1ms >"$TMP/ours" 2>"$TMP/ours.err" &
ours=$!
stdbuf -oL gpiomon "$CHIP" "${mon_lines[@]}" >"$TMP/mon" 2>"$TMP/mon.err" &
mon=$!
for ((i = 0; i < 2 * LINES; i++)); do
    gpiosim_wait_used tl "$i" 30 || { echo "a reader did not request line $i" >&2; exit 1; }
done
sleep 1
echo 0 >$T/tracing_on
echo >$T/trace
echo 20000 >$T/buffer_size_kb
echo 'sched:sched_switch sched:sched_wakeup raw_syscalls:sys_enter raw_syscalls:sys_exit irq:irq_handler_entry' >$T/set_event
echo 1 >$T/tracing_on
"$HELPER" rr 25000 $((2 * EDGES)) "${pulls[@]}" 2>/dev/null
echo 0 >$T/tracing_on
kill "$ours" "$mon"
wait "$ours" "$mon" 2>/dev/null
cp $T/trace "$TMP/trace"
[[ -n ${TRACE_OUT:-} ]] && cp $T/trace "$TRACE_OUT"  # the raw trace, to read step by step
echo nop >$T/current_tracer
gpiosim_remove tl
# The interrupt's name is the line's consumer: "gpio-debounce" or "gpiomon"; the reader's comm
# is "gpio-debounce" (15 characters at most) or "gpiomon".
python3 - "$TMP/trace" <<'EOF'
import re, statistics, sys
events = []
for text in open(sys.argv[1]):
    m = re.match(r'\s*(.+?)-(\d+)\s+\[\d+\]\s+\S+\s+([\d.]+): (\w+): (.*)', text)
    if m:
        events.append((m.group(1), m.group(2), float(m.group(3)) * 1e6, m.group(4), m.group(5)))
steps = ['interrupt', 'woken', 'poll returns', 'read starts', 'read returns', 'write starts', 'pipe read returns']
for reader in ['gpio-debounce', 'gpiomon']:
    samples, preempted = [], 0
    for i, (comm, pid, t, kind, rest) in enumerate(events):
        if kind != 'irq_handler_entry' or f'name={reader}' not in rest:
            continue
        marks, stamp = [t], None
        for comm2, pid2, t2, kind2, rest2 in events[i + 1:i + 200]:
            mine = comm2 == reader
            want = len(marks)
            if want == 1 and kind2 == 'sched_wakeup' and f'comm={reader} ' in rest2: marks.append(t2)
            elif want == 2 and mine and kind2 == 'sys_exit' and re.match(r'NR (7|271) ', rest2): marks.append(t2)
            elif want == 3 and mine and kind2 == 'sys_enter' and rest2.startswith('NR 0 '): marks.append(t2)
            elif want == 4 and mine and kind2 == 'sys_exit' and rest2.startswith('NR 0 '): marks.append(t2)
            elif want == 5 and mine and kind2 == 'sys_enter' and rest2.startswith('NR 1 '): marks.append(t2)
            elif want == 6 and stamp is None and mine and kind2 == 'sched_wakeup':
                stamp = re.search(r' pid=(\d+)', rest2).group(1)
            elif want == 6 and stamp is not None and mine and kind2 == 'sched_switch' and f'next_pid={stamp} ' in rest2 and 'prev_state=R' in rest2:
                preempted += 1  # the pipe's reader took over right after the write, before the poll
            elif want == 6 and stamp is not None and pid2 == stamp and kind2 == 'sys_exit' and rest2.startswith('NR 0 '):
                marks.append(t2)
                break
        if len(marks) == 7:
            samples.append(marks)
    if not samples:
        print(f'{reader}: no complete sample'); continue
    parts = [f'{steps[k]} -> {steps[k + 1]} {statistics.median(s[k + 1] - s[k] for s in samples):.0f}' for k in range(6)]
    print(f'{reader:14} {len(samples)} edges, median µs: ' + ', '.join(parts)
          + f'; interrupt -> pipe read {statistics.median(s[6] - s[0] for s in samples):.0f}; the pipe\'s reader ran at once after {preempted} of the writes')
EOF
rm -rf "$TMP"
