# vm/tests/doctor-tests.sh - `gpio-debounce doctor` on a real kernel's gpio-sim chip, sourced by
# vm/tests/kernel-tests.sh, whose framework it uses:
#
#   s-doctor  a free line: doctor exits 0 ("run would start"); the line held by gpiomon: doctor,
#       given the line and given a configuration with it, names the consumer 'gpiomon', says what to
#       do, and exits 75 (what run exits with on a busy line), in text and JSON.

t_s_doctor() {
    local rc conf=$TMP/doctor.yaml
    new_chip s1 4 || return
    "$BIN" doctor --chip "$CHIP" 0 >"$TMP/s0.out" 2>&1
    rc=$?
    check_eq "doctor's exit status, a free line" "$rc" 0
    check_match "a free line is ok" "$(grep -E '^OK +line:' "$TMP/s0.out")" "offset 0: free, an input"
    check_match "run would start" "$(tail -n1 "$TMP/s0.out")" "^run would start$"
    gpiomon "$CHIP" 1 >/dev/null 2>&1 &
    W_PID=$! W_ERR=""
    BG+=("$W_PID")
    wait_used 1 || return
    "$BIN" doctor --chip "$CHIP" 1 >"$TMP/s1.out" 2>&1
    rc=$?
    show "$TMP/s1.out"
    check_eq "doctor's exit status, the line held by gpiomon" "$rc" 75
    check_match "doctor names the consumer" "$(grep -E '^BLOCKER +line:' "$TMP/s1.out")" "$CHIPNAME offset 1 is in use by 'gpiomon'"
    check_match "doctor says what to do" "$(<"$TMP/s1.out")" "to do: stop 'gpiomon'"
    printf 'buttons:\n  - {name: bell, chip: %s, line: 1}\n' "$CHIPNAME" >"$conf"
    "$BIN" doctor --config "$conf" --format json >"$TMP/s2.out" 2>&1
    rc=$?
    check_eq "doctor --config's exit status, the line held by gpiomon" "$rc" 75
    check_match "JSON finding names the consumer and the exit code" "$(grep '"severity":"blocker"' "$TMP/s2.out")" \
        "\"topic\":\"line\",\"found\":\"'bell' \\(chip $CHIPNAME, line 1\\): $CHIPNAME offset 1 is in use by 'gpiomon'\".*\"exit_code\":75"
}
