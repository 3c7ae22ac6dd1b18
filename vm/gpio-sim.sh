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
#   gpiosim_board pi5-old                 # a Raspberry Pi's chips (below)
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
    gpiosim_create_labelled "${1:?usage: gpiosim_create NAME NUM_LINES [names...]}" "" "${@:2}"
}

# gpiosim_create_labelled NAME LABEL NUM_LINES [LINE_NAME...]
# The same with the chip's label (as gpiodetect shows it; empty: gpio-sim's own).
gpiosim_create_labelled() {
    local name=${1:?usage: gpiosim_create_labelled NAME LABEL NUM_LINES [names...]} label=$2 n=${3:?num lines}
    shift 3
    local d=$GPIOSIM_CONFIGFS/$name i=0 ln dev chip t dirs=()
    [[ -d $GPIOSIM_CONFIGFS ]] || { _gpiosim_err "$GPIOSIM_CONFIGFS missing (gpio-sim module / configfs)"; return 1; }
    [[ ! -e $d ]] || { _gpiosim_err "chip '$name' already exists"; return 1; }
    mkdir "$d" "$d/bank0" || return 1
    echo "$n" >"$d/bank0/num_lines" || return 1
    [[ -z $label ]] || echo "$label" >"$d/bank0/label" || return 1
    for ln in "$@"; do
        [[ -n $ln ]] && dirs+=("$d/bank0/line$i")
        i=$((i + 1))
    done
    # one mkdir for all named lines: each command run costs ~50 ms under TCG
    ((${#dirs[@]} == 0)) || mkdir "${dirs[@]}" || return 1
    i=0
    for ln in "$@"; do
        if [[ -n $ln ]]; then
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
# requested the line (gpioinfo shows it as [used]); 1 on timeout. With
# GPIOSIM_HELPER set (vm/bench/vmhelper.c), it waits blocked on the chip's
# line-info watch (`vmhelper wait-used`) instead of a loop of gpioinfo, grep
# and sleep, which takes most of a 1-vCPU VM from the program starting.
gpiosim_wait_used() {
    local name=${1:?usage: gpiosim_wait_used NAME OFFSET [timeout]} off=${2:?offset}
    local timeout=${3:-5} chip deadline status
    chip=$(gpiosim_chip "$name") || return 1
    if [[ -n ${GPIOSIM_HELPER:-} ]]; then
        status=0
        "$GPIOSIM_HELPER" wait-used "$chip" "$off" "$((${timeout%.*} * 1000))" || status=$?
        ((status == 1)) && _gpiosim_err "line $off of '$name' not requested within ${timeout}s"
        return "$status"
    fi
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

# ---------------------------------------------------------------- Raspberry Pi chip layouts
# gpiosim_board pi4|pi5-old|pi5-new -> removes every gpio-sim chip, then creates the GPIO chips
# of a Raspberry Pi kernel in the order that kernel numbers them, with its labels, line counts and
# line names (the header's: ID_SDA, ID_SCL, GPIO2 ... GPIO27 at offsets 0 to 27):
#   pi4      gpiochip0 pinctrl-bcm2711 (58 lines), gpiochip1 raspberrypi-exp-gpio (8)
#   pi5-old  gpiochip0-3 gpio-brcmstb@107d508500 (32), @107d508520 (4), @107d517c00 (17),
#            @107d517c20 (6), then gpiochip4 pinctrl-rp1 (54): kernels from before
#            the renumbering (raspberrypi/linux pull request 6144)
#   pi5-new  gpiochip0 pinctrl-rp1, gpiochip10-13 the four brcmstb chips, and the link
#            /dev/gpiochip4 -> gpiochip0 that Raspberry Pi OS's udev rules make
# The header's chip is the gpio-sim chip named board-header (the others board-soc0..3, board-exp);
# prints its /dev/gpiochipN. The kernel gives a new chip the lowest free number, so with no other
# GPIO chip the numbers are the real kernel's (10-13 by holding 1-9 with placeholder chips while the
# brcmstb chips are made). If lower numbers are still taken (see _gpiosim_order's caller) it says so
# on stderr and keeps the kernel's order; returns 1 if even the order differs.
# gpiosim_board_remove removes the chips and the link again.

# _gpiosim_header_names -> sets NAMES to the header's line names (no <(...): the VM has no /dev/fd)
_gpiosim_header_names() {
    local i
    NAMES=(ID_SDA ID_SCL)
    for ((i = 2; i <= 27; i++)); do NAMES+=("GPIO$i"); done
}
_gpiosim_brcmstb() { # _gpiosim_brcmstb -> creates the Pi 5's four SoC chips (names from its kernel)
    local b=()
    b=(- 2712_BOOT_CS_N 2712_BOOT_MISO 2712_BOOT_MOSI 2712_BOOT_SCLK - - - - - - - - - PCIE_SDA PCIE_SCL
        - - - - PWR_GPIO 2712_G21_FS - - BT_RTS BT_CTS BT_TXD BT_RXD WL_ON BT_ON WIFI_SDIO_CLK WIFI_SDIO_CMD)
    gpiosim_create_labelled board-soc0 gpio-brcmstb@107d508500 32 "${b[@]}" >/dev/null || return 1
    gpiosim_create_labelled board-soc1 gpio-brcmstb@107d508520 4 WIFI_SDIO_D0 WIFI_SDIO_D1 WIFI_SDIO_D2 WIFI_SDIO_D3 >/dev/null || return 1
    b=(RP1_SDA RP1_SCL RP1_RUN SD_IOVDD_SEL SD_PWR_ON SD_CDET_N SD_FLG_N - 2712_WAKE 2712_STAT_LED - - PMIC_INT UART_TX_FS UART_RX_FS - -)
    gpiosim_create_labelled board-soc2 gpio-brcmstb@107d517c00 17 "${b[@]}" >/dev/null || return 1
    gpiosim_create_labelled board-soc3 gpio-brcmstb@107d517c20 6 HDMI0_SCL HDMI0_SDA HDMI1_SCL HDMI1_SDA PMIC_SCL PMIC_SDA >/dev/null
}
_gpiosim_rp1() {
    local NAMES
    _gpiosim_header_names
    NAMES+=(PCIE_RP1_WAKE FAN_TACH HOST_SDA HOST_SCL ETH_RST_N - CD0_IO0_MICCLK CD0_IO0_MICDAT0 RP1_PCIE_CLKREQ_N -
        CD0_SDA CD0_SCL CD1_SDA CD1_SCL USB_VBUS_EN USB_OC_N RP1_STAT_LED FAN_PWM CD0_IO1_MICCLK 2712_WAKE
        CD1_IO1_MICDAT1 EN_MAX_USB_CUR - - - -)
    gpiosim_create_labelled board-header pinctrl-rp1 54 "${NAMES[@]}" >/dev/null
}
gpiosim_board() {
    local layout=${1:?usage: gpiosim_board pi4|pi5-old|pi5-new} NAMES i want got
    gpiosim_board_remove || return 1
    case $layout in
    pi4)
        _gpiosim_header_names
        NAMES+=(RGMII_MDIO RGMIO_MDC CTS0 RTS0 TXD0 RXD0 SD1_CLK SD1_CMD SD1_DATA0 SD1_DATA1 SD1_DATA2 SD1_DATA3
            PWM0_MISO PWM1_MOSI STATUS_LED_G_CLK SPIFLASH_CE_N SDA0 SCL0 RGMII_RXCLK RGMII_RXCTL RGMII_RXD0
            RGMII_RXD1 RGMII_RXD2 RGMII_RXD3 RGMII_TXCLK RGMII_TXCTL RGMII_TXD0 RGMII_TXD1 RGMII_TXD2 RGMII_TXD3)
        gpiosim_create_labelled board-header pinctrl-bcm2711 58 "${NAMES[@]}" >/dev/null || return 1
        gpiosim_create_labelled board-exp raspberrypi-exp-gpio 8 BT_ON WL_ON PWR_LED_OFF GLOBAL_RESET VDD_SD_IO_SEL CAM_GPIO SD_PWR_ON SD_OC_N >/dev/null || return 1
        want="board-header=gpiochip0 board-exp=gpiochip1"
        ;;
    pi5-old)
        _gpiosim_brcmstb && _gpiosim_rp1 || return 1
        want="board-soc0=gpiochip0 board-soc1=gpiochip1 board-soc2=gpiochip2 board-soc3=gpiochip3 board-header=gpiochip4"
        ;;
    pi5-new)
        _gpiosim_rp1 || return 1
        for ((i = 1; i <= 9; i++)); do gpiosim_create "board-hold$i" 1 >/dev/null || return 1; done
        _gpiosim_brcmstb || return 1
        for ((i = 1; i <= 9; i++)); do gpiosim_remove "board-hold$i" || return 1; done
        ln -s gpiochip0 /dev/gpiochip4 || return 1
        want="board-header=gpiochip0 board-soc0=gpiochip10 board-soc1=gpiochip11 board-soc2=gpiochip12 board-soc3=gpiochip13"
        ;;
    *) _gpiosim_err "no board layout '$layout' (pi4, pi5-old, pi5-new)"; return 1 ;;
    esac
    got=""
    for i in $want; do got+="${i%%=*}=$(<"$GPIOSIM_CONFIGFS/${i%%=*}/bank0/chip_name") "; done
    if [[ $got != "$want " ]]; then
        # Numbers held by chips that are gone but still referenced (Linux 6.1 keeps a chip removed
        # under a line request) shift the layout: then the order must still be the kernel's.
        [[ $(_gpiosim_order "$got") == $(_gpiosim_order "$want") ]] ||
            { _gpiosim_err "$layout: the chips are numbered $got, not in the kernel's order ($want)"; return 1; }
        echo "gpio-sim.sh: NOTE: $layout numbered $got (lower numbers taken): the kernel's order, not its numbers ($want)" >&2
    fi
    gpiosim_chip board-header
}
# _gpiosim_order "NAME=gpiochipN ..." -> the names sorted by chip number
_gpiosim_order() {
    local i
    for i in $1; do echo "${i##*=gpiochip} ${i%%=*}"; done | sort -n | cut -d' ' -f2 | tr '\n' ' '
}
gpiosim_board_remove() {
    [[ -L /dev/gpiochip4 ]] && { rm -f /dev/gpiochip4 || return 1; }
    gpiosim_remove_all
}
