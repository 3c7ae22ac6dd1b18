#!/usr/bin/env bash
# vm/bench/run.sh [--rebuild] [LABEL=BINARY...] - host entry of the watch
# bench: copies/builds the binaries like vm/kernel-tests.sh (into
# .build-vmtest/, see there), compiles vm/bench/vmhelper.c, then boots the
# gpio-sim VM with vm/bench/watch-bench.sh and prints its table.
# The output is also kept in .build-vmtest/watch-bench.log.
# Environment: VM_CPUS (1), VM_TIMEOUT (900), IDLE_S (10), EDGES (200), ROUNDS (1),
# PERIOD_US (25000), EAGER (eager:1ms), DEFER (defer:5ms; empty: skipped) and the other vm/run.sh variables.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
REPO=$(cd "$HERE/../.." && pwd -P)
prep=(--prepare-only)
if [[ ${1:-} == --rebuild ]]; then prep+=(--rebuild); shift; fi
bash "$REPO/vm/kernel-tests.sh" "${prep[@]}"
export VM_CPUS=${VM_CPUS:-1} VM_TIMEOUT=${VM_TIMEOUT:-900}
export VM_PASSENV="${VM_PASSENV:-} IDLE_S EDGES PERIOD_US ROUNDS EAGER DEFER"
start=$SECONDS
cd "$REPO"
set +e
bash vm/run.sh vm/bench/watch-bench.sh "$@" | tee "$REPO/.build-vmtest/watch-bench.log"
rc=${PIPESTATUS[0]}
echo "# bench: exit $rc, $((SECONDS - start)) s including VM boot"
exit "$rc"
