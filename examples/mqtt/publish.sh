#!/usr/bin/env bash
# Publishes every button event of this host to an MQTT broker, one JSON message per event:
#   gpio-debounce run --config CONFIG --format json | mosquitto_pub -h BROKER -t home/HOST/buttons -l
# Settings come from the environment (defaults in brackets):
#   MQTT_HOST [localhost]  MQTT_PORT [1883]  MQTT_TOPIC [home/$(hostname)/buttons]  MQTT_QOS [0]
#   MQTT_ARGS  more mosquitto_pub options, split at spaces, e.g. "-u hall --cafile /etc/ssl/certs/ca.pem"
#              (a password is better kept in mosquitto_pub's own config file than on a command line)
#   GPIO_DEBOUNCE_CONFIG [/etc/gpio-debounce/buttons.yaml]  GPIO_DEBOUNCE [gpio-debounce, from PATH]
# Arguments go to `gpio-debounce run`, e.g. `publish.sh --simulate --presses 5` to try it without buttons.
# Needs mosquitto-clients (apt-get install mosquitto-clients).
set -euo pipefail

host="${MQTT_HOST:-localhost}"
port="${MQTT_PORT:-1883}"
topic="${MQTT_TOPIC:-home/$(hostname)/buttons}"
qos="${MQTT_QOS:-0}"
read -r -a extra <<<"${MQTT_ARGS:-}"
config="${GPIO_DEBOUNCE_CONFIG:-/etc/gpio-debounce/buttons.yaml}"
program="${GPIO_DEBOUNCE:-gpio-debounce}"

command -v mosquitto_pub >/dev/null || { echo "publish.sh: mosquitto_pub is missing: apt-get install mosquitto-clients" >&2; exit 69; }

# Why `exec`, and why this shape rather than `gpio-debounce ... | mosquitto_pub ...`:
# a plain pipeline would leave this shell waiting as the parent of both, so `kill <pid>` (or systemd's
# SIGTERM to its main PID) would hit only the shell, and the script's exit status would be
# mosquitto_pub's, hiding a configuration error in gpio-debounce.
# Here the shell REPLACES ITSELF with gpio-debounce (exec), whose output goes to mosquitto_pub through
# a process substitution. So the script's PID is gpio-debounce's:
#   - SIGTERM/SIGINT reach gpio-debounce, which releases its lines and exits 0; that closes the pipe,
#     mosquitto_pub reads end-of-file, sends what it still holds and disconnects cleanly;
#   - the exit status is gpio-debounce's (65 for a bad configuration, 66 for a missing chip...);
#   - if mosquitto_pub dies (broker gone), gpio-debounce is stopped by SIGPIPE at its next event, so
#     a supervisor can restart the pair (systemd: see README.md, RestartForceExitStatus=SIGPIPE).
# The inner `exec` saves a subshell around mosquitto_pub. Ctrl-C in a terminal reaches both anyway.
exec "$program" run --config "$config" --format json "$@" \
    > >(exec mosquitto_pub -h "$host" -p "$port" -t "$topic" -q "$qos" -l ${extra[@]+"${extra[@]}"})
