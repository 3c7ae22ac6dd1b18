#!/usr/bin/env bash
# vm/kernel-tests.sh [--rebuild] [--only v1|v2] [--side-by-side] [--v1-generation-tests]
#                    [--prepare-only] [TEST...] - host entry of the real-kernel tests: runs
# vm/tests/kernel-tests.sh in the gpio-sim VM, once against the libgpiod 1.6 build and once against
# the libgpiod 2 build.
#
#   bash vm/kernel-tests.sh              # as root; prepares the VM on first use
#   bash vm/kernel-tests.sh --rebuild    # rebuild both binaries first
#   bash vm/kernel-tests.sh --only v2 c d-busy
#   bash vm/kernel-tests.sh --side-by-side --v1-generation-tests   # what CI runs
#
# --side-by-side runs the two labels' VMs at the same time (one vCPU each: give it two free cores);
# each label's output goes to .build-vmtest/kernel-tests-LABEL.log, and a failing label's log is
# printed whole at the end.
# --v1-generation-tests runs on v1 only the tests of what the two libgpiod generations do
# differently (GENERATION_TESTS below: requests, flags and bias, reading and losing events, line
# and chip lookup, chips that go and come back, the keypad's port, the errors libgpiod reports),
# and leaves the rest (the daemon's configuration, MQTT, actions, gestures, state files, uinput),
# whose code is the same over either, to v2, which runs every other test. A few of the rest run on
# v1 instead (BALANCING_TESTS below), so that the two VMs take about as long side by side.
#
# The binaries under test are copies, so a parallel `swift build` cannot change
# them mid-run: .build-vmtest/v1/gpio-debounce (from .build/debug, built by
# scripts/test) and .build-vmtest/v2/gpio-debounce (from .build-libgpiod2/debug,
# built by scripts/test-libgpiod2). Those scripts (which also run the unit
# tests) are only run when a binary is missing or with --rebuild. The same goes
# for examples/swift-button, built against each libgpiod in .build-example and
# .build-example-libgpiod2 and copied to .build-vmtest/v{1,2}/button-lights.
# The helper vm/bench/vmhelper.c is compiled with cc into .build-vmtest/.
# --prepare-only stops after that (vm/bench/run.sh uses it).
# Environment: VM_CPUS (default 1), VM_TIMEOUT (default 1800) and the other
# vm/run.sh variables. Exit status: 0 if both runs passed.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
REPO=$(cd "$HERE/.." && pwd -P)
OUT=$REPO/.build-vmtest
rebuild=0 prepare_only=0 side_by_side=0 v1_generation=0
labels=(v1 v2)
while (($#)); do
    case $1 in
    --rebuild) rebuild=1 ;;
    --only) labels=("$2"); shift ;;
    --side-by-side) side_by_side=1 ;;
    --v1-generation-tests) v1_generation=1 ;;
    --prepare-only) prepare_only=1 ;;
    -h | --help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    *) break ;;
    esac
    shift
done

start=$SECONDS
mkdir -p "$OUT/v1" "$OUT/v2"
cd "$REPO"

# build_and_copy LABEL BUILD_SCRIPT BUILT_BINARY
build_and_copy() {
    local label=$1 script=$2 built=$3
    if ((rebuild)) || [[ ! -x $built ]]; then
        echo "kernel-tests: building $label with $script" >&2
        "$script" >&2 || { echo "kernel-tests: $script failed" >&2; return 1; }
    fi
    [[ -x $built ]] || { echo "kernel-tests: $built missing after $script" >&2; return 1; }
    # copy via a temp name: the copy is atomic, never half-written
    cp "$built" "$OUT/$label/gpio-debounce.tmp"
    mv -f "$OUT/$label/gpio-debounce.tmp" "$OUT/$label/gpio-debounce"
}
# build_example LABEL SCRATCH [SWIFT BUILD ARGS...]: the swift-button example (the library's
# Button(line: 17)) against the same libgpiod, copied next to the binary as button-lights
build_example() {
    local label=$1 scratch=$REPO/$2
    shift 2
    local built=$scratch/debug/button-lights
    if ((rebuild)) || [[ ! -x $built ]]; then
        echo "kernel-tests: building the swift-button example for $label in $scratch" >&2
        swift build --package-path examples/swift-button --scratch-path "$scratch" "$@" >&2 ||
            { echo "kernel-tests: the swift-button example did not build" >&2; return 1; }
    fi
    cp "$built" "$OUT/$label/button-lights.tmp"
    mv -f "$OUT/$label/button-lights.tmp" "$OUT/$label/button-lights"
}
for label in "${labels[@]}"; do
    case $label in
    v1)
        build_and_copy v1 scripts/test .build/debug/gpio-debounce
        (source scripts/require-swift && build_example v1 .build-example)
        ;;
    v2)
        build_and_copy v2 scripts/test-libgpiod2 .build-libgpiod2/debug/gpio-debounce
        (
            source scripts/require-swift
            pcdir=$(scripts/fetch-libgpiod2)
            libdir=$(PKG_CONFIG_PATH="$pcdir" pkg-config --variable=libdir libgpiod)
            export PKG_CONFIG_PATH=$pcdir
            build_example v2 .build-example-libgpiod2 -Xlinker -rpath -Xlinker "$libdir"
        )
        ;;
    *) echo "kernel-tests: unknown label $label" >&2; exit 2 ;;
    esac
done
# prepare.sh (idempotent, ~0.2 s when warm) installs gcc, gpiod, qemu... on a
# fresh machine; run.sh would call it too, but cc is needed first.
bash vm/prepare.sh -q >&2
cc -O2 -Wall -o "$OUT/vmhelper" vm/bench/vmhelper.c
((prepare_only)) && exit 0

export VM_CPUS=${VM_CPUS:-1} VM_TIMEOUT=${VM_TIMEOUT:-1800}
# The tests that remove a gpio-sim chip while a line of it is requested. Linux 6.1 then frees the
# line's /proc/irq directory with the request's entry still in it ("remove_proc_entry: removing
# non-empty directory 'irq/NN', leaking at least 'gpio-debounce'"), and releasing the request writes
# to the freed memory: a later allocation may crash the kernel (a general protection fault in
# kmem_cache_alloc when the next test requests a line). Each runs in a VM of its own, after the rest.
isolated=(d-chip-removed-idle d-chip-removed-pending u-chip-gone-and-back q-keypad-gone)
# wanted TEST ARGS...: whether the arguments (test names or letters; none: every test) select TEST
wanted() {
    local test=$1 a
    shift
    (($# == 0)) && return 0
    for a in "$@"; do [[ $a == "$test" || $a == "${test%%-*}" ]] && return 0; done
    return 1
}
# The tests whose code differs between the libgpiod generations (--v1-generation-tests).
GENERATION_TESTS=(m-pi4 m-pi5-old m-pi5-new n-ioctls r-one-scan a-clean b-bouncy-defer b-bouncy-eager
    c-storm-pressed c-storm-released c-overflow-eager c-event-buffer d-busy d-out-of-range d-unknown-name
    d-permission d-chip-removed-idle d-chip-removed-pending f-kernel-debounce g-named-lines h-bias
    i-multi-line o-encoder-burst q-keypad q-keypad-gone s-doctor t-chip-arrival u-chip-gone-and-back t-press-at-request)
# Tests whose code is the same over either generation that --v1-generation-tests runs on v1 rather
# than on v2: without them v1's VM ended about five minutes before v2's (756 s against 1,066 s).
BALANCING_TESTS=(p-contact-counter k-record-analyze o-encoder l-keys)
# run_label LABEL TEST...: the label's main VM, then each isolated test in a VM of its own; its log in
# .build-vmtest/kernel-tests-LABEL.log (also on stdout unless side by side); its status in
# .build-vmtest/kernel-tests-LABEL.status
run_label() {
    local label=$1 log=$OUT/kernel-tests-$1.log status=0 test t0=$SECONDS
    shift
    set +e # a failing VM is counted in status, and the next one runs
    local skip="${isolated[*]}"
    if [[ $label == v1 ]] && ((v1_generation && $# == 0)); then set -- "${GENERATION_TESTS[@]}" "${BALANCING_TESTS[@]}"; fi
    if [[ $label == v2 ]] && ((v1_generation && $# == 0)); then skip+=" ${BALANCING_TESTS[*]}"; fi
    show() { if ((side_by_side)); then cat >>"$log"; else tee -a "$log"; fi; }
    : >"$log"
    rm -f "$OUT/kernel-tests-$label.status"
    echo "==== $label: bash vm/run.sh vm/tests/kernel-tests.sh .build-vmtest/$label/gpio-debounce $label $*" | show
    KT_SKIP="$skip" VM_PASSENV="${VM_PASSENV:-} KT_SKIP" \
        bash vm/run.sh vm/tests/kernel-tests.sh "$OUT/$label/gpio-debounce" "$label" "$@" 2>&1 | show
    ((PIPESTATUS[0] == 0)) || status=1
    for test in "${isolated[@]}"; do
        wanted "$test" "$@" || continue
        echo "==== $label, a VM of its own: $test" | show
        bash vm/run.sh vm/tests/kernel-tests.sh "$OUT/$label/gpio-debounce" "$label" "$test" 2>&1 | show
        ((PIPESTATUS[0] == 0)) || status=1
    done
    echo "$status $((SECONDS - t0))" >"$OUT/kernel-tests-$label.status"
}
declare -A rc summary secs
if ((side_by_side)); then
    echo "==== side by side: ${labels[*]} (logs in .build-vmtest/kernel-tests-LABEL.log)"
    pids=()
    for label in "${labels[@]}"; do
        run_label "$label" "$@" &
        pids+=($!)
    done
    wait "${pids[@]}" || true
else
    for label in "${labels[@]}"; do run_label "$label" "$@"; done
    set -e
fi
for label in "${labels[@]}"; do
    log=$OUT/kernel-tests-$label.log
    read -r rc[$label] secs[$label] <"$OUT/kernel-tests-$label.status" || rc[$label]=1
    summary[$label]=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" |
        awk '{ p += $1; f += $3 } END { if (NR) printf "%d passed, %d failed", p, f }')
    if ((side_by_side)) && [[ ${rc[$label]} != 0 ]]; then
        echo "==== $label failed: its whole log"
        cat "$log"
    fi
done

echo "==== kernel-tests results ($((SECONDS - start)) s, VM_CPUS=$VM_CPUS)"
status=0
for label in "${labels[@]}"; do
    printf '%s: %s (exit %s, %s s)\n' "$label" "${summary[$label]:-no result line}" "${rc[$label]}" "${secs[$label]}"
    grep -E '^FAIL ' "$OUT/kernel-tests-$label.log" | sed "s/^/  $label /" || true
    [[ ${rc[$label]} == 0 ]] || status=1
done
exit $status
