#!/usr/bin/env bash
# vm/smoke.sh - smoke test of the VM harness; run it through the VM:
#
#   bash vm/run.sh vm/smoke.sh
#
# Creates an 8-line gpio-sim chip, checks its /dev node, drives a line up and
# down and reads it back with gpioget (libgpiod 1.6 tools), catches a rising
# and a falling edge with a background gpiomon --num-events=2, then removes
# the chip. Exits non-zero on the first mismatch.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=vm/gpio-sim.sh
source "${GPIOSIM_LIB:-$here/gpio-sim.sh}"

fail() { echo "smoke: FAIL: $*" >&2; exit 1; }
expect() { # expect WHAT GOT WANT
    [[ $2 == "$3" ]] || fail "$1: got '$2', want '$3'"
    echo "smoke: ok   $1 = $2"
}

[[ ${GPIO_DEBOUNCE_VM:-} == 1 ]] || fail "run me inside the VM: bash vm/run.sh vm/smoke.sh"
echo "smoke: kernel $(uname -r), $(nproc) vCPU, $(gpioget --version | head -n1)"

chip=$(gpiosim_create smoke 8 btn0 btn1 btn2 btn3 btn4 btn5 btn6 btn7)
echo "smoke: created chip $chip"
[[ -c $chip ]] || fail "$chip is not a character device"
expect "gpiodetect lists the chip" "$(gpiodetect | grep -c "^${chip#/dev/} \[gpio-sim")" 1
expect "gpiofind btn3" "$(gpiofind btn3)" "${chip#/dev/} 3"

# Level: the pull decides what a requested input line reads.
expect "initial gpioget line 3" "$(gpioget "$chip" 3)" 0
gpiosim_set smoke 3 1
expect "gpioget line 3 after pull-up" "$(gpioget "$chip" 3)" 1
expect "sim value line 3" "$(gpiosim_get smoke 3)" 1
gpiosim_set smoke 3 0
expect "gpioget line 3 after pull-down" "$(gpioget "$chip" 3)" 0
expect "sim value line 3" "$(gpiosim_get smoke 3)" 0

# Edges: gpiomon in the background must see exactly rising then falling.
mon_out=$(mktemp)
gpiomon --num-events=2 "$chip" 5 >"$mon_out" 2>&1 &
mon_pid=$!
gpiosim_wait_used smoke 5 10 || { kill "$mon_pid" 2>/dev/null; cat "$mon_out" >&2; fail "gpiomon did not request line 5"; }
gpiosim_set smoke 5 1
sleep 0.05
gpiosim_set smoke 5 0
for ((i = 0; i < 500; i++)); do            # gpiomon exits after 2 events
    kill -0 "$mon_pid" 2>/dev/null || break
    sleep 0.01
done
if kill -0 "$mon_pid" 2>/dev/null; then
    kill "$mon_pid"
    cat "$mon_out" >&2
    fail "gpiomon did not report 2 events within 5 s"
fi
wait "$mon_pid" || fail "gpiomon exited with status $?"
sed 's/^/smoke:      gpiomon: /' "$mon_out"
# libgpiod 1.6: "event:  RISING EDGE offset: 5 timestamp: [   12.345678901]"
expect "gpiomon edges" "$(grep -oE '(RISING|FALLING) EDGE offset: [0-9]+' "$mon_out" | tr '\n' ',')" \
    "RISING EDGE offset: 5,FALLING EDGE offset: 5,"
rm -f "$mon_out"

gpiosim_remove smoke
[[ ! -e $chip ]] || fail "$chip still exists after gpiosim_remove"
[[ ! -e $GPIOSIM_CONFIGFS/smoke ]] || fail "configfs entry still exists"
echo "smoke: ok   chip removed"
echo "smoke: PASS"
