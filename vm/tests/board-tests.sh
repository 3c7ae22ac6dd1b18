# vm/tests/board-tests.sh - tests on the chip layouts of three Raspberry Pi kernels
# (gpiosim_board in vm/gpio-sim.sh), sourced by vm/tests/kernel-tests.sh, whose framework they use:
#
#   m-pi4, m-pi5-old, m-pi5-new  offsets alone and the header's names mean the header's chip:
#       `list` marks it, `watch 17`, `watch GPIO17`, `run` with `line: 17` and no chip:, and the
#       library's Button(line: 17) (the swift-button example, $KT_BUTTON) see a press and a release
#       of the header's line 17; `check` names the chip; on the Pi 4, two buttons that resolve to one
#       line are refused.
#   n-ioctls  under `strace -f -e trace=ioctl`, list, watch (offset, name), record, run and
#       --kernel-debounce 1ms make no v1 GPIO ioctl and (but list) a GPIO_V2_GET_LINE_IOCTL, on the
#       v2 build; on the v1 build the same trace must show the v1 requests (the check can fail).
#   r-one-scan  under `strace -f -e trace=openat,ioctl`, the start of `run` with 8 buttons without
#       chip: on pi5-old (six offsets, two names), `check` of that file and the library's
#       Button(line: 17) open each chip once and read each line's info at most once: at most as many
#       line-info ioctls as the chips have lines (libgpiod 1.6 adds two per requested line: its request
#       reads the line's info before and after).

# The swift-button example built against the same libgpiod as $BIN (vm/kernel-tests.sh builds it).
KT_BUTTON=${KT_BUTTON:-$(dirname "$BIN")/button-lights}

# use_board LAYOUT -> the layout from a clean state; SIM CHIP CHIPNAME are its header's chip
use_board() {
    local dev
    dev=$(gpiosim_board "$1" 2>"$TMP/board.err") || { err "gpiosim_board $1: $(<"$TMP/board.err")"; return 1; }
    BOARD=1 SIM=board-header CHIP=$dev CHIPNAME=${dev#/dev/}
    [[ -s $TMP/board.err ]] && log "$(<"$TMP/board.err")"
    log "$1: $(cd "$GPIOSIM_CONFIGFS" && for c in *; do printf '%s=%s[%s] ' "$(<"$c/bank0/chip_name")" "$c" "$(<"$c/bank0/label")"; done)"
}

# press_release_17 TAG: a press and a release of the header's line 17 once the reader ($W_PID) holds it
press_release_17() {
    wait_used 17 || return 1
    drive 17 1 -20000 150000 150000
}

# watch_header TAG ARGS...: `watch ARGS` sees one press and one release of the header's line 17
watch_header() {
    local tag=$1
    shift
    start_watch "$tag" "$@" --bias as-is --num-events 2 --idle-timeout 60s
    press_release_17 || return
    wait_exit "$W_PID" 20
    check_eq "exit status, watch $*" "$W_RC" 0
    check_presses "$TMP/$tag.out" 1 17
}

# header_config FILE [EXTRA BUTTON LINES]: one button on line 17 without chip:
header_config() {
    printf 'buttons:\n  - name: header\n    line: 17\n    bias: as-is\n    debounce: defer:30ms\n%s' "${2:-}" >"$1"
}

board_test() { # board_test LAYOUT LABEL CHIPS: the header's chip has LABEL; CHIPS chips listed
    local layout=$1 label=$2 chips=$3 described
    use_board "$layout" || return
    described="$CHIPNAME (the 40-pin header's chip, label $label)"
    gpiosim_set "$SIM" 17 1
    [[ $layout == pi5-old ]] && gpiosim_set board-soc0 17 1 # the SoC's own line 17 (not the header's)
    "$BIN" list >"$TMP/list.out" 2>&1 || err "list failed: $(<"$TMP/list.out")"
    check_match "list marks the header's chip" "$(grep -F '(40-pin header)' "$TMP/list.out")" "^$CHIPNAME \[$label\] [0-9]+ lines \(/dev/$CHIPNAME\) \(40-pin header\)$"
    check_eq "chips marked as the header's" "$(grep -cF '(40-pin header)' "$TMP/list.out")" 1
    check_eq "chips listed, each once" "$(grep -cE '^gpiochip[0-9]+ \[' "$TMP/list.out")" "$chips"
    check_match "list says what offsets alone mean" "$(<"$TMP/list.out")" "offsets alone \(watch 17\) mean $(printf '%s' "$described" | sed 's/[()]/\\&/g')"

    watch_header "$layout-17" 17
    watch_header "$layout-name" GPIO17

    header_config "$TMP/$layout.yaml"
    "$BIN" check --config "$TMP/$layout.yaml" >"$TMP/check.out" 2>&1 || err "check failed: $(<"$TMP/check.out")"
    check_match "check names the chip" "$(<"$TMP/check.out")" "header: $(printf '%s' "$described" | sed 's/[()]/\\&/g') line 17,"
    W_ERR=$TMP/$layout-run.err
    "$BIN" run --config "$TMP/$layout.yaml" --format json -n 2 >"$TMP/$layout-run.out" 2>"$W_ERR" &
    W_PID=$!
    BG+=("$W_PID")
    press_release_17 || return
    wait_exit "$W_PID" 20
    check_eq "run exit status (-n 2)" "$W_RC" 0
    check_presses "$TMP/$layout-run.out" 1 17
    check_match "run logs the chip" "$(<"$W_ERR")" "offsets without chip: mean $(printf '%s' "$described" | sed 's/[()]/\\&/g')"

    library_button "$layout"

    if [[ $layout == pi4 ]]; then
        header_config "$TMP/twice.yaml" $'  - name: again\n    line: 17\n    chip: '"$CHIPNAME"$'\n'
        "$BIN" run --config "$TMP/twice.yaml" -n 1 >/dev/null 2>"$TMP/twice.err"
        check_eq "run, line: 17 and line: 17 on $CHIPNAME (one line here)" "$?" 65
        check_match "the message names both buttons and the line" "$(<"$TMP/twice.err")" "'header' and 'again' are both on line 17 of $CHIPNAME"
    fi
}

# library_button LAYOUT: the swift-button example, `button-lights 17`, sees the press and the release
library_button() {
    [[ -x $KT_BUTTON ]] || { err "no $KT_BUTTON (the swift-button example; vm/kernel-tests.sh builds it)"; return; }
    W_ERR=$TMP/$1-button.err
    stdbuf -oL "$KT_BUTTON" 17 >"$TMP/$1-button.out" 2>"$W_ERR" &
    W_PID=$!
    BG+=("$W_PID")
    press_release_17 || return
    wait_lines "$TMP/$1-button.out" '^release at ' 1 20
    kill -TERM "$W_PID"
    wait_exit "$W_PID" 10
    check_eq "Button(line: 17): events" "$(grep -oE '^(press|release) at' "$TMP/$1-button.out" | tr '\n' ,)" "press at,release at,"
}

t_m_pi4() { board_test pi4 pinctrl-bcm2711 2; }
t_m_pi5_old() { board_test pi5-old pinctrl-rp1 5; }
t_m_pi5_new() { board_test pi5-new pinctrl-rp1 5; }

# traced TAG CMD...: CMD under strace in the background (W_PID), the trace in $TMP/TAG.strace
traced() {
    local tag=$1
    shift
    W_ERR=$TMP/$tag.err
    strace -f -qq -o "$TMP/$tag.strace" -e trace=ioctl "$@" >"$TMP/$tag.out" 2>"$W_ERR" &
    W_PID=$!
    BG+=("$W_PID")
}
# check_ioctls TAG REQUESTS: the uAPI the trace shows (REQUESTS: whether a line request is expected)
check_ioctls() {
    local tag=$1 requests=$2 v1 v2
    # v1 requests by name or number (strace prints either): LINEEVENT, LINEHANDLE, LINEINFO, LINEINFO_WATCH
    v1=$(grep -cE '\bGPIO_GET_LINE(EVENT|HANDLE|INFO|INFO_WATCH)_IOCTL\b|0xc030b404|0xc16cb403|0xc048b402|0xc048b40b' "$TMP/$tag.strace")
    v2=$(grep -cE '\bGPIO_V2_GET_LINE_IOCTL\b|0xc250b407' "$TMP/$tag.strace")
    log "$tag ioctls: $(grep -oE 'ioctl\([0-9]+, [A-Za-z0-9_]+' "$TMP/$tag.strace" | sed 's/.*, //' | sort | uniq -c | tr -s ' \n' ' ')"
    if [[ $LABEL == v2 ]]; then
        check_eq "$tag: v1 GPIO ioctls" "$v1" 0
        if ((requests)); then
            if ((v2 > 0)); then log "ok: $tag: $v2 GPIO_V2_GET_LINE_IOCTL"; else err "$tag: no GPIO_V2_GET_LINE_IOCTL"; fi
        fi
    elif ((requests)); then
        # libgpiod 1.6 speaks v1 only: the same check sees its requests
        if ((v1 > 0)); then log "ok: $tag (v1 build): $v1 v1 GPIO ioctls seen"; else err "$tag (v1 build): no v1 ioctl seen: the check could not fail"; fi
    fi
}
t_n_ioctls() {
    use_board pi5-old || return
    gpiosim_set "$SIM" 17 1
    traced list "$BIN" list
    wait_exit "$W_PID" 20
    check_eq "list exit status" "$W_RC" 0
    check_ioctls list 0
    local what
    for what in 17 GPIO17; do
        traced "watch-$what" "$BIN" watch --format json "$what" --bias as-is --num-events 2 --idle-timeout 60s
        press_release_17 || return
        wait_exit "$W_PID" 20
        check_eq "watch $what exit status" "$W_RC" 0
        check_presses "$TMP/watch-$what.out" 1 17
        check_ioctls "watch-$what" 1
    done
    traced record "$BIN" record 17 --bias as-is -o "$TMP/rec.csv" --duration 6s
    press_release_17 || return
    wait_exit "$W_PID" 30
    check_eq "record exit status" "$W_RC" 0
    check_match "record wrote the edges of line 17" "$(<"$W_ERR")" "recorded [0-9]+ edges of $CHIPNAME line 17"
    check_ioctls record 1
    header_config "$TMP/ioctls.yaml"
    traced run "$BIN" run --config "$TMP/ioctls.yaml" --format json -n 2
    press_release_17 || return
    wait_exit "$W_PID" 20
    check_eq "run exit status" "$W_RC" 0
    check_presses "$TMP/run.out" 1 17
    check_ioctls run 1
    [[ $LABEL == v2 ]] || return # v1: --kernel-debounce is refused (f-kernel-debounce)
    traced kdebounce "$BIN" watch --format json 17 --bias as-is --kernel-debounce 1ms --num-events 2 --idle-timeout 60s
    press_release_17 || return
    wait_exit "$W_PID" 20
    check_eq "watch 17 --kernel-debounce 1ms exit status" "$W_RC" 0
    check_presses "$TMP/kdebounce.out" 1 17
    check_ioctls kdebounce 1
}

# scan_counts TAG -> sets OPENS, LINEINFOS, CHIPINFOS from $TMP/TAG.strace and logs them: the chips'
# device files opened, and the line-info (v1 or v2 uAPI, not the watch) and chip-info ioctls
scan_counts() {
    local trace=$TMP/$1.strace
    OPENS=$(grep -cE 'open(at)?\(.*"/dev/gpiochip[0-9]+"' "$trace")
    LINEINFOS=$(grep -cE '\bGPIO(_V2)?_GET_LINEINFO_IOCTL\b|0xc048b402|0xc100b405' "$trace")
    CHIPINFOS=$(grep -cE '\bGPIO_GET_CHIPINFO_IOCTL\b|0x8044b401' "$trace")
    log "$1: $OPENS opens of /dev/gpiochip*, $LINEINFOS line-info ioctls, $CHIPINFOS chip-info ioctls"
    log "$1 ioctls: $(grep -oE 'ioctl\([0-9]+, [A-Za-z0-9_]+' "$trace" | sed 's/.*, //' | sort | uniq -c | tr -s ' \n' ' ')"
}
# stop_traced: SIGTERM to the program that strace ($W_PID) runs, then its exit status in W_RC
stop_traced() {
    local child
    child=$(<"/proc/$W_PID/task/$W_PID/children")
    [[ -n $child ]] || { err "strace ($W_PID) runs no program"; return 1; }
    kill -TERM $child
    wait_exit "$W_PID" 20
}
# check_one_scan TAG CHIPS LINES REQUESTED: at most CHIPS opens and one scan of LINES lines (on v1 and
# REQUESTED lines requested, two more line-info ioctls per requested line: libgpiod 1.6's
# gpiod_chip_get_line, and its request, read the line's info)
check_one_scan() {
    local tag=$1 chips=$2 lines=$3 most=$3
    [[ $LABEL == v1 ]] && most=$((lines + 2 * $4))
    scan_counts "$tag"
    if ((OPENS >= 1 && OPENS <= chips)); then log "ok: $tag opens each chip once ($OPENS)"; else err "$tag: $OPENS opens of /dev/gpiochip*, want 1 to $chips"; fi
    if ((LINEINFOS <= most)); then
        log "ok: $tag reads the lines' info once ($LINEINFOS <= $most)"
    else
        err "$tag: $LINEINFOS line-info ioctls, more than one scan of the chips' $lines lines ($most on $LABEL)"
    fi
}
t_r_one_scan() {
    use_board pi5-old || return
    local chips=0 lines=0 c offset
    for c in "$GPIOSIM_CONFIGFS"/board-*; do chips=$((chips + 1)) lines=$((lines + $(<"$c/bank0/num_lines"))); done
    log "pi5-old: $chips chips, $lines lines"
    {
        echo "buttons:"
        for offset in 5 6 12 13 16 17; do echo "  - {name: b$offset, line: $offset, bias: as-is}"; done
        for offset in 22 27; do echo "  - {name: b$offset, line: GPIO$offset, bias: as-is}"; done
    } >"$TMP/eight.yaml"
    strace -f -qq -o "$TMP/scan-check.strace" -e trace=openat,open,ioctl "$BIN" check --config "$TMP/eight.yaml" >"$TMP/scan-check.out" 2>&1
    check_eq "check exit status" "$?" 0
    check_match "check finds GPIO27 on the header's chip" "$(<"$TMP/scan-check.out")" "b27: $CHIPNAME line GPIO27 \(offset 27\)"
    check_one_scan scan-check "$chips" "$lines" 0
    W_ERR=$TMP/scan-run.err
    strace -f -qq -o "$TMP/scan-run.strace" -e trace=openat,open,ioctl "$BIN" run --config "$TMP/eight.yaml" --format json >"$TMP/scan-run.out" 2>"$W_ERR" &
    W_PID=$!
    BG+=("$W_PID")
    wait_lines "$W_ERR" 'watching 8 buttons' 1 20 || { show "$W_ERR"; return; }
    wait_used 27 || return
    stop_traced || return
    check_eq "run exit status after SIGTERM" "$W_RC" 0
    check_one_scan scan-run "$chips" "$lines" 8
    [[ -x $KT_BUTTON ]] || { err "no $KT_BUTTON (the swift-button example; vm/kernel-tests.sh builds it)"; return; }
    W_ERR=$TMP/scan-button.err
    strace -f -qq -o "$TMP/scan-button.strace" -e trace=openat,open,ioctl "$KT_BUTTON" 17 >"$TMP/scan-button.out" 2>"$W_ERR" &
    W_PID=$!
    BG+=("$W_PID")
    wait_used 17 || return
    stop_traced || return
    check_one_scan scan-button "$chips" "$lines" 1
}
