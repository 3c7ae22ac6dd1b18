#!/usr/bin/env python3
"""Validates MQTT discovery messages with Home Assistant's own code (homeassistant==2024.3.3).

Input: a file of `TOPIC<TAB>PAYLOAD` lines (what the broker received under the discovery prefix),
and the prefix. For each message, as homeassistant/components/mqtt/discovery.py does:
  - the topic must match discovery.TOPIC_MATCHER and name a SUPPORTED_COMPONENTS component;
  - the payload must be a JSON object; abbreviations are expanded (ABBREVIATIONS, DEVICE_ABBREVIATIONS);
  - it must pass the component's schema: device_trigger.TRIGGER_DISCOVERY_SCHEMA,
    event.DISCOVERY_SCHEMA, binary_sensor.DISCOVERY_SCHEMA, sensor.DISCOVERY_SCHEMA (vol.Invalid
    is a failure), picked by the topic's component;
  - every value_template must render (plain Jinja2, as Home Assistant's templates are) to the
    gesture names the device triggers and event types announce, for sample events; an encoder's
    event entity (event types rotate_left and rotate_right) to a JSON object with the detent's
    event type and its position and velocity as numbers, for sample detents;
  - a selector's event entity (event types select and invalid) renders a select to a JSON object with
    its event type, position and the position's name, and an invalid reading to its event type alone;
  - a keypad's event entity has no value_template (its payloads carry event_type themselves:
    MQTTKeypad.pressPayload, .codePayload), and each of its event types is one key's character or
    `code`;
  - a sensor of device_class enum is a selector's position: options (in the payload: 2024.3's schema
    drops them, later versions take them), a list of distinct names, no state_class and no unit (Home
    Assistant refuses those for an enum);
  - any other sensor is an encoder's position (state_class measurement) or a pulse counter's total
    (state_class total_increasing, for the Energy dashboard): a counter's value_template must render
    its state's JSON ({"total":N,"value":V,"rate_per_min":R,"rate":P}) to the value, its attributes
    come from its state topic, and its unit must be one Home Assistant allows for its device_class
    (sensor.DEVICE_CLASS_UNITS: kWh for energy, m³ or L for water...);
  - a counter's rate sensor (state_class measurement, its template reading value_json.rate) must
    render the same JSON to the rate, and its unit must be one Home Assistant allows for its
    device_class (W for power, L/min or m³/h for volume_flow_rate);
  - a diagnostic sensor (entity_category diagnostic) is an input's health: its value_template must
    render its state's JSON (edges, bounces_absorbed, glitches_rejected, noise_bursts, lost_events) to
    the edges, its attributes come from its state topic, and it is total_increasing (a restart's
    return to 0 is a reset);
  - a binary sensor's payload_on and payload_off are the states its topic carries: pressed/released
    for a button, on/off for a contact.
An empty payload (removal) is accepted. Prints one line per message; exits 1 on any failure.
Run it with the virtualenv's python (scripts/test-mqtt-ha makes it).
"""
import json
import sys

import jinja2
import voluptuous as vol
from homeassistant.components.mqtt import binary_sensor, device_trigger, event, sensor
from homeassistant.components.mqtt.abbreviations import ABBREVIATIONS, DEVICE_ABBREVIATIONS
from homeassistant.components.mqtt.discovery import SUPPORTED_COMPONENTS, TOPIC_MATCHER
from homeassistant.components.sensor import DEVICE_CLASS_UNITS

SCHEMAS = {
    "device_automation": device_trigger.TRIGGER_DISCOVERY_SCHEMA,
    "event": event.DISCOVERY_SCHEMA,
    "binary_sensor": binary_sensor.DISCOVERY_SCHEMA,
    "sensor": sensor.DISCOVERY_SCHEMA,
}

SAMPLES = {  # an event message, and the gesture it must be named
    "press": {"event": "press", "time_ns": 2, "onset_ns": 1, "button": "b", "chip": "c", "line": 1},
    "release": {"event": "release", "time_ns": 2, "onset_ns": 1, "button": "b", "chip": "c", "line": 1},
    "hold": {"event": "hold", "time_ns": 2, "onset_ns": 1, "button": "b", "chip": "c", "line": 1},
    "repeat": {"event": "repeat", "time_ns": 2, "onset_ns": 1, "button": "b", "chip": "c", "line": 1},
    "click": {"event": "click", "time_ns": 2, "onset_ns": 1, "count": 1, "button": "b", "chip": "c", "line": 1},
    "double_click": {"event": "click", "time_ns": 2, "onset_ns": 1, "count": 2, "button": "b", "chip": "c", "line": 1},
    "triple_click": {"event": "click", "time_ns": 2, "onset_ns": 1, "count": 3, "button": "b", "chip": "c", "line": 1},
    "quintuple_click": {"event": "click", "time_ns": 2, "onset_ns": 1, "count": 5, "button": "b", "chip": "c", "line": 1},
    "click_7": {"event": "click", "time_ns": 2, "onset_ns": 1, "count": 7, "button": "b", "chip": "c", "line": 1},
}

ROTATIONS = {  # a detent message (what `watch --encoder --format json` prints), and its event type
    "rotate_right": {"event": "rotate", "direction": "cw", "position": 3, "velocity": 12.5, "time_ns": 2, "onset_ns": 1,
                     "encoder": "e", "chip": "c", "lines": [1, 2]},
    "rotate_left": {"event": "rotate", "direction": "ccw", "position": -1, "velocity": 0, "time_ns": 2, "onset_ns": 1,
                    "encoder": "e", "chip": "c", "lines": [1, 2]},
}

SELECTIONS = [  # a selector's reading (what `watch --selector --format json` prints), and what the template must give
    ({"event": "select", "position": 3, "name": "au\"to", "previous": 2, "time_ns": 2, "onset_ns": 1, "selector": "s", "chip": "c", "lines": [1, 2, 3]},
     {"event_type": "select", "position": 3, "name": "au\"to"}),
    ({"event": "invalid", "active": [1, 3], "time_ns": 2, "onset_ns": 1, "selector": "s", "chip": "c", "lines": [1, 2, 3]},
     {"event_type": "invalid"}),
]

COUNTS = [  # a counter's state message (MQTTCounter.statePayload), its value, and its rate
    ({"total": 0, "value": 0, "rate_per_min": 0, "rate": 0}, 0, 0),
    ({"total": 12345, "value": 12.345, "rate_per_min": 61.5, "rate": 3690}, 12.345, 3690),
]

HEALTHS = [  # an input's health message (MQTTHealth.payload), and the state it must show
    ({"edges": 0, "bounces_absorbed": 0, "glitches_rejected": 0, "noise_bursts": 0, "lost_events": 0}, 0),
    ({"edges": 153, "bounces_absorbed": 150, "glitches_rejected": 2, "noise_bursts": 1, "lost_events": 4}, 153),
    ({"edges": 40, "bounces_absorbed": 35, "glitches_rejected": 0, "noise_bursts": 0, "lost_events": 0, "invalid_readings": 1}, 40),
]

BINARY_PAYLOADS = [("pressed", "released"), ("on", "off")]


def render(template, sample):
    return jinja2.Environment().from_string(template).render(value_json=sample, value=json.dumps(sample)).strip()


def check(topic, payload, prefix):
    if not topic.startswith(prefix + "/"):
        return f"not under the prefix {prefix}"
    match = TOPIC_MATCHER.match(topic[len(prefix) + 1 :])
    if not match:
        return "topic does not match Home Assistant's discovery TOPIC_MATCHER"
    component = match.group("component")
    if component not in SUPPORTED_COMPONENTS or component not in SCHEMAS:
        return f"component {component} is not one we validate"
    if payload == "":
        return None
    config = json.loads(payload)
    if not isinstance(config, dict):
        return "payload is not a JSON object"
    config = {ABBREVIATIONS.get(key, key): value for key, value in config.items()}
    if isinstance(config.get("device"), dict):
        config["device"] = {DEVICE_ABBREVIATIONS.get(key, key): value for key, value in config["device"].items()}
    if component != "device_automation":
        config["platform"] = "mqtt"
    try:
        validated = SCHEMAS[component](config)
    except vol.Invalid as error:
        return f"schema: {error}"
    for key in ("identifiers", "name", "model", "sw_version"):
        if key not in validated.get("device", {}):
            return f"device block lacks {key}"
    if component == "device_automation":
        for gesture, sample in SAMPLES.items():
            if gesture == config["payload"] and render(config["value_template"], sample) != gesture:
                return f"value_template names {gesture} events {render(config['value_template'], sample)!r}"
    if component == "event" and set(config["event_types"]) == set(ROTATIONS):
        for event_type, sample in ROTATIONS.items():
            rendered = json.loads(render(config["value_template"], sample))
            expected = {"event_type": event_type, "position": sample["position"], "velocity": sample["velocity"]}
            if rendered != expected:
                return f"value_template gives {rendered!r} for a detent, expected {expected!r}"
    elif component == "event" and set(config["event_types"]) == {"select", "invalid"}:
        for sample, expected in SELECTIONS:
            rendered = json.loads(render(config["value_template"], sample))
            if rendered != expected:
                return f"value_template gives {rendered!r} for a selector's reading, expected {expected!r}"
    elif component == "event" and "value_template" not in config:
        problem = check_keypad(config)
        if problem:
            return problem
    elif component == "event":
        for gesture, sample in SAMPLES.items():
            rendered = json.loads(render(config["value_template"], sample))
            if rendered.get("event_type") != gesture:
                return f"value_template gives {rendered!r} for a {gesture}"
    if component == "sensor" and config.get("entity_category") == "diagnostic":
        problem = check_health(config, validated)
        if problem:
            return problem
    elif component == "sensor" and validated.get("device_class") == "enum":
        # 2024.3's MQTT sensor has no `options` (its schema drops them); later ones take them.
        options = config.get("options")
        if not options or len(set(options)) != len(options) or not all(isinstance(o, str) for o in options):
            return f"an enum sensor's options {options!r} are not a list of distinct names"
        if "state_class" in validated or "unit_of_measurement" in validated:
            return "an enum sensor has no state_class and no unit"
    elif component == "sensor" and config.get("state_class") == "total_increasing":
        problem = check_counter(config, validated)
        if problem:
            return problem
    elif component == "sensor" and "value_json.rate" in config.get("value_template", ""):
        problem = check_rate(config, validated)
        if problem:
            return problem
    elif component == "sensor" and validated.get("state_class") != "measurement":
        return "a sensor is an encoder's position (state_class measurement) or a counter's total (total_increasing)"
    if component == "binary_sensor" and (validated.get("payload_on"), validated.get("payload_off")) not in BINARY_PAYLOADS:
        return f"payload_on/payload_off {validated.get('payload_on')!r}/{validated.get('payload_off')!r} are not a button's or a contact's states"
    if component in ("event", "binary_sensor", "sensor"):
        problem = check_availability(config, validated)
        if problem:
            return problem
    return None


def check_availability(config, validated):
    """An input's entity follows the daemon's and its own availability; a health sensor the daemon's."""
    base = config["state_topic"].rsplit("/", 2)[0]
    if config.get("entity_category") == "diagnostic":
        if config.get("availability_topic") != f"{base}/availability":
            return f"a health sensor follows {base}/availability, not {config.get('availability_topic')!r}"
        return None
    input_topic = config["state_topic"].rsplit("/", 1)[0] + "/availability"
    topics = [entry.get("topic") for entry in validated.get("availability", [])]
    if topics != [f"{base}/availability", input_topic] or validated.get("availability_mode") != "all":
        return f"availability {topics!r} (mode {validated.get('availability_mode')!r}) is not the daemon's and {input_topic}, both needed"
    return None


def check_keypad(config):
    """A keypad's event entity: its payloads are read as they are (Home Assistant's event entity pops
    event_type from the JSON and keeps the other fields as the event's attributes), so each announced
    event type must be one key's character or `code`, what the payloads of a press or a code say."""
    for event_type in config["event_types"]:
        if event_type != "code" and len(event_type) != 1:
            return f"a keypad's event type {event_type!r} is neither one key nor code"
    return None


def check_health(config, validated):
    """An input's health sensor: diagnostic, its state the edges, its attributes every count."""
    if str(validated.get("entity_category")) != "diagnostic":
        return f"entity_category {validated.get('entity_category')!r} is not diagnostic"
    if validated.get("state_class") != "total_increasing":
        return "a health sensor's edges are total_increasing"
    if config.get("json_attributes_topic") != config.get("state_topic"):
        return "a health sensor's attributes must come from its state topic"
    for sample, value in HEALTHS:
        rendered = render(config.get("value_template", "{{ value }}"), sample)
        if float(rendered) != value:
            return f"value_template gives {rendered!r} for {sample!r}, expected {value}"
    return None


def check_counter(config, validated):
    """A pulse counter's total sensor: what the Energy dashboard and the attributes need."""
    if config.get("json_attributes_topic") != config.get("state_topic"):
        return "a counter's attributes must come from its state topic"
    for sample, value, _ in COUNTS:
        rendered = render(config.get("value_template", "{{ value }}"), sample)
        if float(rendered) != value:
            return f"value_template gives {rendered!r} for {sample!r}, expected {value}"
    return check_unit(validated)


def check_rate(config, validated):
    """A pulse counter's rate sensor: a measurement read from the counter's state, in a unit its class takes."""
    if validated.get("state_class") != "measurement":
        return "a counter's rate is state_class measurement"
    for sample, _, rate in COUNTS:
        rendered = render(config["value_template"], sample)
        if float(rendered) != rate:
            return f"value_template gives {rendered!r} for {sample!r}, expected {rate}"
    return check_unit(validated)


def check_unit(validated):
    """The unit must be one Home Assistant takes for the sensor's device class."""
    device_class = validated.get("device_class")
    unit = validated.get("unit_of_measurement")
    if device_class in DEVICE_CLASS_UNITS and unit not in DEVICE_CLASS_UNITS[device_class]:
        allowed = sorted(str(u) for u in DEVICE_CLASS_UNITS[device_class] if u is not None)
        return f"unit {unit!r} is not one Home Assistant takes for device_class {device_class} ({', '.join(allowed)})"
    return None


def main():
    path, prefix = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "homeassistant"
    failures = 0
    count = 0
    for line in open(path, encoding="utf-8").read().splitlines():
        if not line.strip():
            continue
        topic, _, payload = line.partition("\t")
        count += 1
        try:
            problem = check(topic, payload, prefix)
        except Exception as error:  # a crash in validation is a failure too
            problem = f"{type(error).__name__}: {error}"
        print(f"{'ok' if problem is None else 'FAILED'}: {topic}{'' if problem is None else ': ' + problem}")
        failures += problem is not None
    print(f"{count - failures} of {count} discovery messages pass Home Assistant 2024.3.3's schemas")
    sys.exit(1 if failures or count == 0 else 0)


if __name__ == "__main__":
    main()
