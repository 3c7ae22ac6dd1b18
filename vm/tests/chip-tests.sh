# vm/tests/chip-tests.sh - chips that are not there when the daemon starts, sourced by
# vm/tests/kernel-tests.sh, whose framework it uses:
#
#   t-chip-arrival  `run --wait-for-chips` with a button on a chip (named by its label) that does not
#       exist yet: the daemon logs that it waits and keeps running; once the gpio-sim chip is made,
#       it requests the line and reports a press and a release; SIGTERM exits 0. Without
#       --wait-for-chips the same configuration exits 66 at once.

t_t_chip_arrival() {
    local conf=$TMP/arrival.yaml label=kt-arrival-$$ rc pid
    cat >"$conf" <<YAML
buttons:
  - name: bell
    chip: $label
    line: 0
    bias: as-is
    active: high
    debounce: $KT_DEFER
YAML
    "$BIN" run --config "$conf" >"$TMP/t0.out" 2>&1
    rc=$?
    check_eq "run's exit status, the chip missing, no --wait-for-chips" "$rc" 66
    "$BIN" run --config "$conf" --wait-for-chips --format json >"$TMP/t.out" 2>"$TMP/t.err" &
    pid=$!
    W_PID=$pid W_ERR=$TMP/t.err
    BG+=("$pid")
    wait_lines "$TMP/t.err" "waiting for $label to appear" 1 20 || { show "$TMP/t.err"; return; }
    nap 1
    kill -0 "$pid" 2>/dev/null || { err "run --wait-for-chips exited while waiting"; show "$TMP/t.err"; return; }
    gpiosim_create_labelled kt-t "$label" 1 >/dev/null || { err "cannot create gpio-sim chip kt-t"; return; }
    CHIPS+=(kt-t)
    SIM=kt-t
    wait_used 0 || { show "$TMP/t.err"; return; }
    wait_lines "$TMP/t.err" "$label is there: starting" 1 10 || show "$TMP/t.err"
    gpiosim_set kt-t 0 1
    wait_lines "$TMP/t.out" '"event":"press"' 1 10 || { show "$TMP/t.out" "$TMP/t.err"; return; }
    gpiosim_set kt-t 0 0
    wait_lines "$TMP/t.out" '"event":"release"' 1 10 || { show "$TMP/t.out" "$TMP/t.err"; return; }
    kill -TERM "$pid"
    wait_exit "$pid" 10
    check_eq "run's exit status after SIGTERM" "$W_RC" 0
}
