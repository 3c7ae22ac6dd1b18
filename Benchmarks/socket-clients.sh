#!/usr/bin/env bash
# Benchmarks/socket-clients.sh [BINARY] - what the events socket costs the daemon, on a simulation
# (no GPIO needed), as counts and ratios:
#   - user-space instructions per event of `run` with 0, 1 and 10 clients reading the socket (callgrind:
#     the same seeded presses each time; per event = (instructions with k clients - with none) / events);
#   - the latency a reading client sees (its receipt less the event's time_ns, on the daemon's clock as
#     the first hello's receipt gives it), with and without one more client that connects and never reads;
#   - private memory per connected client (Private_Dirty of /proc/PID/smaps_rollup, 100 clients reading).
# BINARY: a release build (default .build-perf/release/gpio-debounce:
#   swift build -c release --scratch-path .build-perf --product gpio-debounce), its debug info stripped
# for Debian 12's valgrind, which cannot read the toolchain's DWARF 5.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build-perf/release/gpio-debounce}
[ -x "$bin" ] || { echo "socket-clients.sh: no binary $bin (build it: see the top of this script)" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "socket-clients.sh: valgrind missing (apt-get install valgrind)" >&2; exit 2; }
work=$(mktemp -d /tmp/gpio-debounce-socket-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
strip --strip-debug -o "$work/gpio-debounce" "$bin"
config=examples/buttons.yaml
presses=20

# clients K SOCKET [STUCK]: K clients read every line until the stream ends; prints their mean latency
# in microseconds (live lines only); STUCK=1 adds one client that never reads.
clients() {
    python3 - "$@" <<'PY'
import json, os, selectors, socket, sys, time
count, path, stuck = int(sys.argv[1]), sys.argv[2], len(sys.argv) > 3 and sys.argv[3] == "1"
while not os.path.exists(path):
    time.sleep(0.01)
def connect():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    return s
held = connect() if stuck else None
chosen, buffers, delays, offset = selectors.DefaultSelector(), {}, [], None
for _ in range(count):
    s = connect()
    chosen.register(s, selectors.EVENT_READ)
    buffers[s] = b""
while buffers:
    for key, _ in chosen.select():
        s = key.fileobj
        data = s.recv(65536)
        now = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        if not data:
            chosen.unregister(s); s.close(); del buffers[s]
            continue
        *lines, buffers[s] = (buffers[s] + data).split(b"\n")
        for line in lines:
            event = json.loads(line)
            # A simulation's clock is not the machine's: the first hello's receipt sets the offset.
            if event.get("event") == "hello" and offset is None:
                offset = now - event["time_ns"]
            elif "seq" in event and offset is not None and event.get("event") not in ("state", "lost") and "time_ns" in event:
                delays.append(now - offset - event["time_ns"])
print(f"{sum(delays) / len(delays) / 1000:.0f}" if delays else "-")
PY
}

echo "== instructions per event of run (callgrind; $config, --simulate --seed 9, 10 and 30 presses)"
# The cost of an event is the difference between a run of 30 presses and one of 10 (start-up, the
# clients' connecting and their snapshots cancel out), less the same difference with no client.
declare -A total events
for k in 0 1 10; do
    for presses in 10 30; do
        sock=$work/bench-$k-$presses.sock
        valgrind --tool=callgrind --callgrind-out-file="$work/cg.$k.$presses" "$work/gpio-debounce" run --config "$config" \
            --simulate --seed 9 --presses "$presses" --format json --socket "$sock" >"$work/out.$k.$presses" 2>"$work/err.$k.$presses" &
        daemon=$!
        if [ "$k" -gt 0 ]; then clients "$k" "$sock" >/dev/null; fi
        wait "$daemon"
        total[$k.$presses]=$(sed -n 's/^summary: //p' "$work/cg.$k.$presses")
        events[$k.$presses]=$(grep -c . "$work/out.$k.$presses")
        printf '%3d clients, %2d presses: %12d instructions, %d events\n' "$k" "$presses" "${total[$k.$presses]}" "${events[$k.$presses]}"
    done
done
more=$((events[0.30] - events[0.10]))
base=$(((total[0.30] - total[0.10]) / more))
echo "run with no client: $base instructions per event (the whole daemon: the simulation, pipeline, printer, loop)"
for k in 1 10; do
    [ "$((events[$k.30] - events[$k.10]))" -eq "$more" ] || echo "(the runs with $k clients made other events: not comparable)"
    printf 'run with %2d clients: %d instructions per event (the runs'"'"' totals move by a few thousand per event: real time)\n' "$k" \
        $(((total[$k.30] - total[$k.10]) / more))
done
# What the loop spends in the socket's sink (its Sink methods, called through their protocol
# witnesses, inclusive), per event: exact, whatever the run's timing.
sink_total() { callgrind_annotate --inclusive=yes --threshold=100 "$1" 2>/dev/null | grep -E 'EventSocket0aB4SinkC.*TW ' | awk '{gsub(",", "", $1); s += $1} END {print s + 0}'; }
for k in 0 1 10; do
    sink=$(($(sink_total "$work/cg.$k.30") - $(sink_total "$work/cg.$k.10")))
    printf 'the socket'"'"'s sink with %2d clients: %d instructions per event (%d.%02d %% of the daemon'"'"'s with none)\n' "$k" $((sink / more)) \
        $((sink * 100 / more / base)) $((sink * 10000 / more / base % 100))
done

echo "== a reading client's latency (us, mean of live events), natively"
for stuck in 0 1; do
    sock=$work/latency-$stuck.sock
    "$bin" run --config "$config" --simulate --seed 9 --presses "$presses" --socket "$sock" >/dev/null 2>&1 &
    daemon=$!
    mean=$(clients 1 "$sock" "$stuck")
    wait "$daemon"
    printf '%s: %s us\n' "$([ "$stuck" = 1 ] && echo "with a client that never reads" || echo "alone                        ")" "$mean"
done

echo "== private memory per connected client (100 clients reading), natively"
sock=$work/memory.sock
"$bin" run --config "$config" --simulate --seed 9 --socket "$sock" >/dev/null 2>&1 &
daemon=$!
while [ ! -S "$sock" ]; do sleep 0.05; done
sleep 2
before=$(awk '/^Private_Dirty/ {print $2}' "/proc/$daemon/smaps_rollup")
python3 - "$sock" <<'PY' &
import socket, sys, time, selectors
chosen = selectors.DefaultSelector()
for _ in range(100):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect(sys.argv[1]); chosen.register(s, selectors.EVENT_READ)
end = time.monotonic() + 6
while time.monotonic() < end:
    for key, _ in chosen.select(0.5):
        key.fileobj.recv(65536)
PY
readers=$!
sleep 4
after=$(awk '/^Private_Dirty/ {print $2}' "/proc/$daemon/smaps_rollup")
wait "$readers"
kill -TERM "$daemon"
wait "$daemon" || true
echo "private dirty: $before KiB with no client, $after KiB with 100: $(((after - before) * 1024 / 100)) bytes per client"
