#!/bin/bash
# The add-on's start, its entrypoint (as root: the Supervisor writes /data/options.json root-only):
#   1. reads the options (configuration file, log level, simulate);
#   2. makes the configuration from the package's example at the first start;
#   3. unless the configuration names a broker itself (a top-level `mqtt:`), asks the Supervisor's
#      services API for the Mosquitto add-on's address and this add-on's credentials, and runs on a
#      copy of the configuration with an `mqtt:` section for it (the password only in the
#      environment, never in a file); without that add-on, a configuration with `api:` runs as
#      written (Home Assistant reaches it over the ESPHome API), any other stops (exit 69);
#   4. becomes `gpio-debounce run` (exec: SIGTERM and the exit status are the program's), as the user
#      gpio-debounce with the groups that own the GPIO devices, or as root where the devices are
#      not open to a group (the log says so).
# SUPERVISOR_URL (default http://supervisor) is for tests with a stand-in Supervisor.
set -euo pipefail

say() { echo "gpio-debounce add-on: $*" >&2; }

options=/data/options.json
config_file="$(jq -r '.config_file // "buttons.yaml"' "$options")"
log_level="$(jq -r '.log_level // "info"' "$options")"
simulate="$(jq -r '.simulate // false' "$options")"
case "$config_file" in
    */* | .* | "") say "config_file '$config_file' must be a file name in the add-on's configuration folder, e.g. buttons.yaml"; exit 64 ;;
esac
config="/config/$config_file"
if [ ! -e "$config" ]; then
    install -m 0644 /etc/gpio-debounce/buttons.yaml "$config"
    say "made $config_file from the example: its pins and commands are only an example; edit it (the File editor, Samba or SSH add-on, folder addon_configs), then restart the add-on"
fi

# The broker.
run_config="$config"
if grep -qE '^mqtt[[:space:]]*:' "$config"; then
    say "publishing to the broker named in $config_file"
else
    if ! answer="$(curl -fsS --max-time 20 -H "Authorization: Bearer ${SUPERVISOR_TOKEN:-}" "${SUPERVISOR_URL:-http://supervisor}/services/mqtt")"; then
        if grep -qE '^api[[:space:]]*:' "$config"; then
            say "no MQTT broker (the Mosquitto broker add-on is not installed): Home Assistant reaches the inputs over the ESPHome API alone (api: in $config_file); add the device in Settings > Devices & services > Add integration > ESPHome, at this machine's address, port 6053"
            answer=""
        else
            say "the Supervisor names no MQTT broker: install and start the Mosquitto broker add-on, name a broker in $config_file (an mqtt: section), or add an api: section (the ESPHome API, no broker)"
            exit 69
        fi
    fi
fi
if [ -n "${answer:-}" ]; then
    host="$(jq -r '.data.host // empty' <<<"$answer")"
    port="$(jq -r '.data.port // 1883' <<<"$answer")"
    username="$(jq -r '.data.username // empty' <<<"$answer")"
    scheme=mqtt
    [ "$(jq -r '.data.ssl // false' <<<"$answer")" = true ] && scheme=mqtts
    [ -n "$host" ] || { say "the Supervisor's answer names no broker host: $(jq -c 'del(.data.password)' <<<"$answer" 2>/dev/null || echo unreadable)"; exit 69; }
    GPIO_DEBOUNCE_MQTT_PASSWORD="$(jq -r '.data.password // empty' <<<"$answer")"
    export GPIO_DEBOUNCE_MQTT_PASSWORD
    run_config=/tmp/gpio-debounce.yaml
    {
        cat "$config"
        printf '\n# Added by the add-on: the broker of the Mosquitto add-on, from the Supervisor.\nmqtt:\n'
        printf '  url: %s://%s:%s\n' "$scheme" "$host" "$port"
        if [ -n "$username" ]; then
            printf "  username: '%s'\n" "${username//\'/\'\'}"
            printf '  password_env: GPIO_DEBOUNCE_MQTT_PASSWORD\n'
        fi
    } >"$run_config"
    chmod 0644 "$run_config"
    say "publishing to the Mosquitto add-on at $host:$port as ${username:-anonymous}"
fi

arguments=(run --config "$run_config" --log-level "$log_level")
[ "$simulate" = true ] && arguments+=(--simulate)
# A simulation's ESPHome API on the add-on's port too (it would take a free one, which is not published).
[ "$simulate" = true ] && grep -qE '^api[[:space:]]*:' "$config" && arguments+=(--api-port 6053)

# The counters' totals: in /data (kept in backups), in a folder the daemon's user owns.
export STATE_DIRECTORY=/data/state
install -d -m 0750 -o gpio-debounce -g gpio-debounce "$STATE_DIRECTORY"
chown -R gpio-debounce:gpio-debounce "$STATE_DIRECTORY"  # a run as root (below) may have left files
cd /

# Drop root: every device the daemon will open must be open to a group it can join (/dev/uinput only
# for a configuration with keys). The Supervisor's token is the start's alone.
unset SUPERVISOR_TOKEN SUPERVISOR_URL
gpio_gid="$(getent group gpio | cut -d: -f3)" && input_gid="$(getent group input | cut -d: -f3)" ||
    { say "the image has no group gpio or input (the package makes them): rebuild the add-on"; exit 70; }
groups="$gpio_gid,$input_gid"
devices=(/dev/gpiochip*)
grep -qE '^[[:space:]-]*(key|keys|axis)[[:space:]]*:' "$run_config" && devices+=(/dev/uinput)
for device in "${devices[@]}"; do
    [ -e "$device" ] || continue
    mode="$(stat -c %a "$device")"
    if [ $((${mode: -2:1} & 6)) -ne 6 ]; then
        say "$device is not open to its group (mode $mode): running as root"
        exec /usr/bin/gpio-debounce "${arguments[@]}"
    fi
    groups+=",$(stat -c %g "$device")"
done
exec setpriv --reuid=gpio-debounce --regid=gpio-debounce --groups="$groups" /usr/bin/gpio-debounce "${arguments[@]}"
