#!/usr/bin/env bash
# vm/arm64/package-test.sh [BIN] - runs INSIDE the arm64 VM (vm/arm64/run-package-test.sh boots it
# with the package installed in the guest's root): the package's binary (default
# /usr/bin/gpio-debounce) on Debian's arm64 kernel, on gpio-sim chips laid out as a Raspberry Pi 5's
# kernel before 6.6.47 numbers them: gpiochip0-3 the SoC's gpio-brcmstb@... chips (gpiochip0 has a
# line 17 of its own), gpiochip4 pinctrl-rp1 with the 40-pin header's line names.
#
# Checks (one `ok`/`FAIL` line each; last line `N passed, M failed`; exit 1 on any failure):
#   board          the guest is aarch64, the five chips have the Pi 5's numbers, labels and sizes
#   version        the binary runs and names libgpiod 2.x (C API v2)
#   watch-17       `watch 17`: offsets alone mean the header's chip, so the press and the release come
#                  from pinctrl-rp1 (gpiochip4) line 17, not from gpiochip0's line 17
#   watch-GPIO17   `watch GPIO17`: the same by the line's name
#   watch-chip     `watch --chip pinctrl-rp1 17`: the same with the chip named by its label
#   uapi-v2        `watch 17` and `watch GPIO17` under strace: GPIO_V2_GET_LINE_IOCTL and none of the
#                  v1 ioctls (GET_LINEEVENT, GET_LINEHANDLE, GET_LINEINFO, GET_LINEINFO_WATCH)
# Each watch presses once (the sim line pulled low for 300 ms) and releases (pulled high), and wants
# exactly one press then one release, chip gpiochip4, line 17, from `--format json`.
set -uo pipefail

BIN=${1:-/usr/bin/gpio-debounce}
# The same checks run in the amd64 VM on any build: VM_PASSENV=PACKAGE_TEST_MACHINE
# PACKAGE_TEST_MACHINE=x86_64 bash vm/run.sh vm/arm64/package-test.sh BIN
MACHINE=${PACKAGE_TEST_MACHINE:-aarch64}
# shellcheck source=vm/gpio-sim.sh
source "${GPIOSIM_LIB:?run me in the VM: bash vm/arm64/run-package-test.sh}"
TMP=$(mktemp -d)
PASSED=0 FAILED=0 FAILED_NAMES=() T_ERRS=0
HEADER=board-header SOC0=board-soc0 # gpio-sim chip names (as vm/gpio-sim.sh's gpiosim_board names them)

log() { echo "     $*"; }
err() { echo "  !! $*"; T_ERRS=$((T_ERRS + 1)); }
show() { sed 's/^/       | /' "$@"; }
now_ns() { date +%s%N; }
run_test() { # run_test NAME FUNCTION [ARGS...]
    local name=$1 start
    shift
    T_ERRS=0 start=$(now_ns)
    echo "---- $name"
    "$@"
    local ms=$((($(now_ns) - start) / 1000000))
    if ((T_ERRS == 0)); then
        PASSED=$((PASSED + 1))
        printf 'ok   %-14s %6d ms\n' "$name" "$ms"
    else
        FAILED=$((FAILED + 1)) FAILED_NAMES+=("$name")
        printf 'FAIL %-14s %6d ms (%d checks failed)\n' "$name" "$ms" "$T_ERRS"
    fi
}

# ------------------------------------------------------------------------------- the board
# pi5_old_layout: the chips of a Pi 5 kernel before 6.6.47 (labels and sizes from its device tree,
# the header's line names on the rp1 chip), unless vm/gpio-sim.sh has gpiosim_board, which then
# makes them with every line name of the real board.
pi5_old_layout() {
    if declare -F gpiosim_board >/dev/null; then
        gpiosim_board pi5-old >/dev/null
        return
    fi
    local chip label lines d i
    for chip in board-soc0:gpio-brcmstb@107d508500:32 board-soc1:gpio-brcmstb@107d508520:4 \
        board-soc2:gpio-brcmstb@107d517c00:17 board-soc3:gpio-brcmstb@107d517c20:6 board-header:pinctrl-rp1:54; do
        IFS=: read -r chip label lines <<<"$chip"
        d=$GPIOSIM_CONFIGFS/$chip
        mkdir "$d" "$d/bank0" && echo "$lines" >"$d/bank0/num_lines" && echo "$label" >"$d/bank0/label" || return 1
        if [[ $chip == board-header ]]; then
            mkdir "$d"/bank0/line{0..27} || return 1
            echo ID_SDA >"$d/bank0/line0/name" && echo ID_SCL >"$d/bank0/line1/name" || return 1
            for ((i = 2; i <= 27; i++)); do echo "GPIO$i" >"$d/bank0/line$i/name" || return 1; done
        fi
        echo 1 >"$d/live" || return 1
    done
}
t_board() {
    [[ $(uname -m) == "$MACHINE" ]] || err "uname -m is $(uname -m), not $MACHINE"
    log "kernel $(uname -r) $(uname -m); $(grep -m1 -i 'cpu part' /proc/cpuinfo)"
    # qemu's virt machine has a PL061 GPIO controller, which would be gpiochip0: unbind it, so the
    # sim chips get the numbers the Pi's kernel gives its chips.
    local pl061
    for pl061 in /sys/bus/amba/drivers/pl061_gpio/*.pl061; do
        [[ -e $pl061 ]] && echo "${pl061##*/}" >/sys/bus/amba/drivers/pl061_gpio/unbind
    done
    pi5_old_layout || { err "could not make the Pi 5 chips"; return; }
    gpiodetect >"$TMP/gpiodetect" 2>&1
    show "$TMP/gpiodetect"
    local want
    want=$(printf '%s\n' "gpiochip0 [gpio-brcmstb@107d508500] (32 lines)" "gpiochip1 [gpio-brcmstb@107d508520] (4 lines)" \
        "gpiochip2 [gpio-brcmstb@107d517c00] (17 lines)" "gpiochip3 [gpio-brcmstb@107d517c20] (6 lines)" \
        "gpiochip4 [pinctrl-rp1] (54 lines)")
    [[ $(<"$TMP/gpiodetect") == "$want" ]] || err "gpiodetect does not show the Pi 5's chips in the kernel's order"
    [[ $(gpiofind GPIO17) == "gpiochip4 17" ]] || err "gpiofind GPIO17: '$(gpiofind GPIO17)', want 'gpiochip4 17'"
    [[ $(gpiosim_chip "$HEADER") == /dev/gpiochip4 && $(gpiosim_chip "$SOC0") == /dev/gpiochip0 ]] ||
        err "the sim chips are not gpiochip4 (header) and gpiochip0"
}

t_version() {
    "$BIN" --version >"$TMP/version" 2>&1 || err "$BIN --version failed ($?)"
    show "$TMP/version"
    grep -Eq '^built with libgpiod 2\.[0-9.]+ \(C API v2\)$' "$TMP/version" || err "--version names no libgpiod 2.x (C API v2)"
}

# ------------------------------------------------------------------------------- watching
set_pull() { # set_pull SIMCHIP OFFSET pull-up|pull-down
    local ld
    ld=$(_gpiosim_line_dir "$1" "$2") && echo "$3" >"$ld/pull"
}
# used_17 -> prints which chip's line 17 a consumer holds: header, soc0, both or nothing
used_17() {
    local h s
    h=$(gpioinfo gpiochip4 | grep -Ec '^[[:space:]]*line[[:space:]]+17:.*\[used')
    s=$(gpioinfo gpiochip0 | grep -Ec '^[[:space:]]*line[[:space:]]+17:.*\[used')
    case $h$s in 10) echo header ;; 01) echo soc0 ;; 11) echo both ;; *) echo "" ;; esac
}
# press_release TAG PREFIX... : runs `PREFIX... watch --format json ARGS` (PREFIX: the binary, or
# strace ... the binary; the watch's arguments follow `--`), waits until it holds a line 17, presses
# and releases the header's line 17, and checks the events. Sets W_PID while it runs.
press_release() {
    local tag=$1 cmd=() args=() held t rc
    shift
    while (($#)) && [[ $1 != -- ]]; do cmd+=("$1"); shift; done
    shift
    args=("$@")
    if ! set_pull "$HEADER" 17 pull-up || ! set_pull "$SOC0" 17 pull-up; then
        err "cannot pull the lines up"
        return
    fi
    # its own process group: a kill reaches a traced binary too (a killed strace lets it run on)
    setsid "${cmd[@]}" watch --format json "${args[@]}" --bias as-is --num-events 2 --idle-timeout 60s \
        >"$TMP/$tag.out" 2>"$TMP/$tag.err" &
    W_PID=$!
    log "$ ${cmd[*]} watch --format json ${args[*]} --bias as-is --num-events 2 --idle-timeout 60s"
    for ((t = 0; t < 1200; t++)); do # 60 s: a start under TCG takes 1 to 5 s
        held=$(used_17)
        [[ -n $held ]] && break
        kill -0 "$W_PID" 2>/dev/null || break
        sleep 0.05
    done
    if [[ $held != header ]]; then
        if [[ $held == soc0 && -n ${PR_CHIP_NOT_CHECKED:-} ]]; then
            log "it requested line 17 of gpiochip0, not the header's (a failure of watch-17, not counted here)"
        elif [[ $held == soc0 ]]; then
            err "it requested line 17 of gpiochip0 (gpio-brcmstb@107d508500), not the header's (pinctrl-rp1, gpiochip4)"
        else
            err "line 17 of the header's chip was not requested (held: '${held:-nothing}')"
        fi
        kill -- -"$W_PID" 2>/dev/null
        wait "$W_PID"
        show "$TMP/$tag.err"
        return
    fi
    set_pull "$HEADER" 17 pull-down # press (active low)
    sleep 0.3
    set_pull "$HEADER" 17 pull-up # release
    for ((t = 0; t < 600; t++)); do
        kill -0 "$W_PID" 2>/dev/null || break
        sleep 0.05
    done
    kill -0 "$W_PID" 2>/dev/null && { err "still running 30 s after the release"; kill -KILL -- -"$W_PID"; }
    wait "$W_PID"
    rc=$?
    ((rc == 0)) || { err "exit status $rc"; show "$TMP/$tag.err"; }
    check_events "$TMP/$tag.out"
}
# check_events FILE: exactly a press then a release, both on gpiochip4 line 17
check_events() {
    local l kinds=""
    while IFS= read -r l; do
        [[ $l =~ \"event\":\"([a-z]+)\" ]] && kinds+="${BASH_REMATCH[1]},"
        [[ $l =~ \"chip\":\"gpiochip4\" && $l =~ \"line\":17[,}] ]] || err "not on gpiochip4 line 17: $l"
    done <"$1"
    if [[ $kinds == press,release, ]]; then
        log "one press, one release, on gpiochip4 line 17"
    else
        err "events: '${kinds:-none}', want press,release"
        show "$1"
    fi
}

t_watch() { press_release "$1" "$BIN" -- "${@:2}"; }

# The GPIO ioctls (linux/gpio.h) by number, as strace -e raw=ioctl prints them; V1: the v1 uAPI's.
declare -A IOCTL_NAME=([0xc048b402]=GPIO_GET_LINEINFO_IOCTL [0xc16cb403]=GPIO_GET_LINEHANDLE_IOCTL
    [0xc030b404]=GPIO_GET_LINEEVENT_IOCTL [0xc048b40b]=GPIO_GET_LINEINFO_WATCH_IOCTL
    [0x8044b401]=GPIO_GET_CHIPINFO_IOCTL [0xc100b405]=GPIO_V2_GET_LINEINFO_IOCTL
    [0xc100b406]=GPIO_V2_GET_LINEINFO_WATCH_IOCTL [0xc250b407]=GPIO_V2_GET_LINE_IOCTL
    [0xc004b40c]=GPIO_GET_LINEINFO_UNWATCH_IOCTL [0xc010b40e]=GPIO_V2_LINE_GET_VALUES_IOCTL)
V1_IOCTLS=(0xc048b402 0xc16cb403 0xc030b404 0xc048b40b)
V2_GET_LINE=0xc250b407
t_uapi() {
    local tag args
    for tag in offset name; do
        args=(17)
        [[ $tag == name ]] && args=(GPIO17)
        PR_CHIP_NOT_CHECKED=1 press_release "strace-$tag" strace -f -e trace=ioctl -e raw=ioctl -o "$TMP/strace-$tag.txt" "$BIN" -- "${args[@]}"
        # "1234  ioctl(0x3, 0xc250b407, 0xffffc2a0e1d8) = 0x4": the request numbers it made
        # (an arm64 register holds the 32-bit request sign-extended: 0xffffffffc100b405)
        grep -Eo 'ioctl\((0x)?[0-9a-f]+, 0x[0-9a-f]+' "$TMP/strace-$tag.txt" | sed -E 's/.*, //; s/^0xffffffff([0-9a-f]{8})$/0x\1/' |
            sort -u >"$TMP/ioctls-$tag"
        local code seen=()
        while read -r code; do seen+=("${IOCTL_NAME[$code]:-$code}"); done <"$TMP/ioctls-$tag"
        log "watch ${args[*]} made the ioctls: ${seen[*]}"
        grep -qx "$V2_GET_LINE" "$TMP/ioctls-$tag" || err "watch ${args[*]}: no GPIO_V2_GET_LINE_IOCTL ($V2_GET_LINE)"
        for code in "${V1_IOCTLS[@]}"; do
            grep -qx "$code" "$TMP/ioctls-$tag" && err "watch ${args[*]}: a v1 ioctl, ${IOCTL_NAME[$code]} ($code)"
        done
    done
}

echo "package-test: $BIN on $(uname -r) ($(uname -m)), $(nproc) vCPU"
run_test board t_board
if ((FAILED == 0)); then
    run_test version t_version
    run_test watch-17 t_watch watch-17 17
    run_test watch-GPIO17 t_watch watch-GPIO17 GPIO17
    run_test watch-chip t_watch watch-chip --chip pinctrl-rp1 17
    run_test uapi-v2 t_uapi
fi
((FAILED == 0)) || echo "failed: ${FAILED_NAMES[*]}"
echo "$PASSED passed, $FAILED failed"
((FAILED == 0))
