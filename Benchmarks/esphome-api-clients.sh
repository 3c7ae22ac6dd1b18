#!/usr/bin/env bash
# Benchmarks/esphome-api-clients.sh [BINARY] - what the ESPHome API costs the daemon, on a simulation
# (no GPIO needed), as counts and ratios:
#   - user-space instructions per event of `run` with no API client and with one aioesphomeapi client
#     subscribed, plaintext and encrypted (callgrind: the same seeded presses each time; per event =
#     the difference between 30 and 10 presses over the events it adds), and in the API's sink alone;
#   - private memory per connected client (Private_Dirty of /proc/PID/smaps_rollup, 8 clients subscribed).
# BINARY: a release build (default .build-perf/release/gpio-debounce:
#   swift build -c release --scratch-path .build-perf --product gpio-debounce), its debug info stripped
# for Debian 12's valgrind. The client: aioesphomeapi 46.23.0 (scripts/esphome-venv).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build-perf/release/gpio-debounce}
[ -x "$bin" ] || { echo "esphome-api-clients.sh: no binary $bin (build it: see the top of this script)" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "esphome-api-clients.sh: valgrind missing (apt-get install valgrind)" >&2; exit 2; }
python=$(scripts/esphome-venv 46.23.0)/bin/python
work=$(mktemp -d /tmp/gpio-debounce-api-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
[ -n "${KEEP_CALLGRIND:-}" ] && trap 'echo "kept: $work"' EXIT
strip --strip-debug -o "$work/gpio-debounce" "$bin"
key=$(openssl rand -base64 32)
for security in plaintext encrypted; do
    cp examples/buttons.yaml "$work/$security.yaml"
    encryption=$([ "$security" = plaintext ] && echo none || echo "{key: \"$key\"}")
    printf 'api: {name: bench, encryption: %s}\nsocket: {enabled: false}\n' "$encryption" >>"$work/$security.yaml"
done

# clients K LOG KEY: K aioesphomeapi clients, each subscribed to the states until the device
# disconnects it; the port from the daemon's LOG.
clients() {
    "$python" - "$@" <<'PY'
import asyncio, re, sys, time
from aioesphomeapi import APIClient
count, log, key = int(sys.argv[1]), sys.argv[2], sys.argv[3]
async def one(port):
    done = asyncio.Event()
    async def on_stop(expected):
        done.set()
    client = APIClient("127.0.0.1", port, None, noise_psk=None if key == "-" else key)
    await client.connect(on_stop=on_stop, login=True)
    await client.device_info()
    await client.list_entities_services()
    client.subscribe_states(lambda state: None)
    await done.wait()
async def main():
    port = None
    while port is None:
        match = re.search(r"listens on port (\d+)", open(log).read())
        port = int(match.group(1)) if match else None
        await asyncio.sleep(0.05)
    await asyncio.gather(*(one(port) for _ in range(count)))
asyncio.run(main())
PY
}

echo "== instructions per event of run (callgrind; examples/buttons.yaml with api:, --simulate --seed 9, 10 and 30 presses)"
declare -A total events
for case in none plaintext encrypted; do
    config=$work/$([ "$case" = none ] && echo plaintext || echo "$case").yaml
    for presses in 10 30; do
        valgrind --tool=callgrind --callgrind-out-file="$work/cg.$case.$presses" "$work/gpio-debounce" run --config "$config" \
            --simulate --seed 9 --presses "$presses" --format json >"$work/out.$case.$presses" 2>"$work/err.$case.$presses" &
        daemon=$!
        if [ "$case" != none ]; then clients 1 "$work/err.$case.$presses" "$([ "$case" = plaintext ] && echo - || echo "$key")"; fi
        wait "$daemon"
        total[$case.$presses]=$(sed -n 's/^summary: //p' "$work/cg.$case.$presses")
        events[$case.$presses]=$(grep -c . "$work/out.$case.$presses")
        printf '%-9s client, %2d presses: %12d instructions, %d events\n' "$case" "$presses" "${total[$case.$presses]}" "${events[$case.$presses]}"
    done
done
more=$((events[none.30] - events[none.10]))
base=$(((total[none.30] - total[none.10]) / more))
echo "run with no client: $base instructions per event (the whole daemon: the simulation, pipeline, printer, loop)"
# What the loop spends in the API's sink (its Sink methods, through their protocol witnesses, inclusive).
sink_total() { callgrind_annotate --inclusive=yes --threshold=100 "$1" 2>/dev/null | { grep -E 'ESPHomeDevice0A7APISinkC.*TW ' || true; } | awk '{gsub(",", "", $1); s += $1} END {print s + 0}'; }
for case in none plaintext encrypted; do
    [ "$((events[$case.30] - events[$case.10]))" -eq "$more" ] || echo "(the runs of $case made other events: not comparable)"
    sink=$(($(sink_total "$work/cg.$case.30") - $(sink_total "$work/cg.$case.10")))
    printf 'with %-9s client: run %d instructions per event; the API sink %d (%d.%02d %% of the daemon'"'"'s with none)\n' "$case" \
        $(((total[$case.30] - total[$case.10]) / more)) $((sink / more)) $((sink * 100 / more / base)) $((sink * 10000 / more / base % 100))
done

echo "== private memory per connected client (8 clients subscribed, encrypted), natively"
"$bin" run --config "$work/encrypted.yaml" --simulate --seed 9 >/dev/null 2>"$work/memory.err" &
daemon=$!
until grep -q "listens on port" "$work/memory.err"; do sleep 0.05; done
sleep 2
before=$(awk '/^Private_Dirty/ {print $2}' "/proc/$daemon/smaps_rollup")
clients 8 "$work/memory.err" "$key" &
readers=$!
sleep 5
after=$(awk '/^Private_Dirty/ {print $2}' "/proc/$daemon/smaps_rollup")
kill -TERM "$daemon"
wait "$daemon" || true
wait "$readers" || true
echo "private dirty: $before KiB with no client, $after KiB with 8: $(((after - before) * 1024 / 8)) bytes per client"
