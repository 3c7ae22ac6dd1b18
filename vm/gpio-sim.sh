# vm/gpio-sim.sh - bash helpers to drive the kernel's gpio-sim from a test
# script running inside the VM (vm/run.sh sets GPIOSIM_LIB to this file):
#
#   source "$GPIOSIM_LIB"
#   dev=$(gpiosim_create btns 8 up down)  # /dev/gpiochipN; lines 0,1 named
#   gpiosim_wait_used btns 0              # until a consumer requested line 0
#   gpiosim_set btns 0 1                  # pull-up   -> line reads 1
#   gpiosim_set btns 0 0                  # pull-down -> line reads 0
#   gpiosim_get btns 0                    # prints 0 or 1 (sysfs value)
#   gpiosim_remove btns                   # chip vanishes (consumers get ENODEV)
#
# The functions keep no shell state (they work from $(...) subshells too):
# everything is read back from configfs, /sys/kernel/config/gpio-sim/NAME.
# gpiosim_create also sets GPIOSIM_DEV_NAME/GPIOSIM_CHIP_NAME/GPIOSIM_CHIP_DEV
# when not called in a subshell. Functions return non-zero and print a
# message on stderr on failure; they do not call exit.
#
# Sysfs layout used (kernel 6.1):
#   /sys/kernel/config/gpio-sim/NAME/{live,dev_name}
#   /sys/kernel/config/gpio-sim/NAME/bank0/{num_lines,chip_name,lineK/name}
#   /sys/devices/platform/<dev_name>/<chip_name>/sim_gpioK/{pull,value}

GPIOSIM_CONFIGFS=${GPIOSIM_CONFIGFS:-/sys/kernel/config/gpio-sim}

_gpiosim_err() { echo "gpio-sim.sh: $*" >&2; return 1; }

# _gpiosim_line_dir NAME OFFSET -> sysfs dir of the simulated line
_gpiosim_line_dir() {
    local d=$GPIOSIM_CONFIGFS/$1 dev chip
    [[ -f $d/dev_name ]] || { _gpiosim_err "no gpio-sim chip '$1'"; return 1; }
    dev=$(<"$d/dev_name")
    chip=$(<"$d/bank0/chip_name")
    [[ -n $dev && -n $chip ]] || { _gpiosim_err "chip '$1' is not live"; return 1; }
    local ld=/sys/devices/platform/$dev/$chip/sim_gpio$2
    [[ -d $ld ]] || { _gpiosim_err "chip '$1' has no line $2"; return 1; }
    echo "$ld"
}

# gpiosim_create NAME NUM_LINES [LINE_NAME...]
# Creates and enables a one-bank chip, prints its /dev/gpiochipN path.
gpiosim_create() {
    local name=${1:?usage: gpiosim_create NAME NUM_LINES [names...]} n=${2:?num lines}
    shift 2
    local d=$GPIOSIM_CONFIGFS/$name i=0 ln dev chip t
    [[ -d $GPIOSIM_CONFIGFS ]] || { _gpiosim_err "$GPIOSIM_CONFIGFS missing (gpio-sim module / configfs)"; return 1; }
    [[ ! -e $d ]] || { _gpiosim_err "chip '$name' already exists"; return 1; }
    mkdir "$d" "$d/bank0" || return 1
    echo "$n" >"$d/bank0/num_lines" || return 1
    for ln in "$@"; do
        if [[ -n $ln ]]; then
            mkdir "$d/bank0/line$i" || return 1
            echo "$ln" >"$d/bank0/line$i/name" || return 1
        fi
        i=$((i + 1))
    done
    echo 1 >"$d/live" || { _gpiosim_err "could not enable chip '$name'"; return 1; }
    dev=$(<"$d/dev_name")
    chip=$(<"$d/bank0/chip_name")
    # devtmpfs creates the node asynchronously; wait up to 5 s.
    for ((t = 0; t < 500; t++)); do
        [[ -c /dev/$chip ]] && break
        sleep 0.01
    done
    [[ -c /dev/$chip ]] || { _gpiosim_err "/dev/$chip did not appear"; return 1; }
    # shellcheck disable=SC2034  # for callers that do not use $(...)
    GPIOSIM_DEV_NAME=$dev GPIOSIM_CHIP_NAME=$chip GPIOSIM_CHIP_DEV=/dev/$chip
    echo "/dev/$chip"
}

# gpiosim_chip NAME -> /dev/gpiochipN of a live chip
gpiosim_chip() {
    local d=$GPIOSIM_CONFIGFS/${1:?usage: gpiosim_chip NAME}
    [[ -f $d/bank0/chip_name ]] || { _gpiosim_err "no gpio-sim chip '$1'"; return 1; }
    echo "/dev/$(<"$d/bank0/chip_name")"
}

# gpiosim_set NAME OFFSET 0|1 -> pull-down / pull-up the line
gpiosim_set() {
    local ld pull
    case ${3:-} in
    0) pull="pull-down" ;;
    1) pull="pull-up" ;;
    *) _gpiosim_err "usage: gpiosim_set NAME OFFSET 0|1"; return 1 ;;
    esac
    ld=$(_gpiosim_line_dir "$1" "$2") || return 1
    echo "$pull" >"$ld/pull"
}

# gpiosim_get NAME OFFSET -> prints the line's current value (0|1)
gpiosim_get() {
    local ld
    ld=$(_gpiosim_line_dir "${1:?usage: gpiosim_get NAME OFFSET}" "${2:?offset}") || return 1
    cat "$ld/value"
}

# gpiosim_wait_used NAME OFFSET [TIMEOUT_S=5] -> waits until a consumer has
# requested the line (gpioinfo shows it as [used]); 1 on timeout.
gpiosim_wait_used() {
    local name=${1:?usage: gpiosim_wait_used NAME OFFSET [timeout]} off=${2:?offset}
    local timeout=${3:-5} chip deadline
    chip=$(gpiosim_chip "$name") || return 1
    deadline=$(($(date +%s%N) + ${timeout%.*} * 1000000000))
    while :; do
        # libgpiod 1.6: 'line   3:  "name" "consumer"  input  active-high [used]'
        if gpioinfo "$chip" 2>/dev/null | grep -Eq "^[[:space:]]*line[[:space:]]+$off:.*\[used"; then
            return 0
        fi
        (($(date +%s%N) < deadline)) || {
            _gpiosim_err "line $off of '$name' not requested within ${timeout}s"
            return 1
        }
        sleep 0.01
    done
}

# gpiosim_remove NAME -> disable the chip (it vanishes) and delete its config
gpiosim_remove() {
    local d=$GPIOSIM_CONFIGFS/${1:?usage: gpiosim_remove NAME} l
    [[ -d $d ]] || { _gpiosim_err "no gpio-sim chip '$1'"; return 1; }
    if [[ $(<"$d/live") == 1 ]]; then
        echo 0 >"$d/live" || return 1
    fi
    for l in "$d"/bank*/line*; do
        [[ -d $l ]] && { rmdir "$l" || return 1; }
    done
    for l in "$d"/bank*; do
        [[ -d $l ]] && { rmdir "$l" || return 1; }
    done
    rmdir "$d"
}

# gpiosim_remove_all -> remove every gpio-sim chip (test cleanup)
gpiosim_remove_all() {
    local d rc=0
    for d in "$GPIOSIM_CONFIGFS"/*; do
        [[ -d $d ]] && { gpiosim_remove "${d##*/}" || rc=1; }
    done
    return $rc
}
