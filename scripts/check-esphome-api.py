"""Home Assistant's own client of ESPHome's native API (aioesphomeapi) against a gpio-debounce device.

    python check-esphome-api.py PORT NAME [--key BASE64] [--expect wrong-key|requires-encryption|garbage|reload CONFIG PID]

Connects as Home Assistant does (hello, password, device info, entities, states, its own
subscriptions), checks the device's information and that every input kind's entities are listed, then
waits for each kind's states and events to arrive with the right types. The other checks: a wrong key
and a plaintext client of an encrypted device fail as Home Assistant reports them; a client sending
garbage is closed while another goes on; a reload that adds an input makes the device ask its clients
to connect again, and the new input is listed. Prints one line per finding; exits 1 on the first
failure.
"""

import argparse
import asyncio
import os
import re
import signal
import sys

from aioesphomeapi import APIClient, model
from aioesphomeapi.core import APIConnectionError

HAS_EVENTS = hasattr(model, "EventInfo")  # aioesphomeapi 24.3 and later: Home Assistant 2024.5 and later


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


async def connect(port, key, on_stop=None):
    client = APIClient("127.0.0.1", port, None, noise_psk=key, client_info="gpio-debounce CI")
    if on_stop is None:
        await client.connect(login=True)
    else:
        await client.connect(on_stop=on_stop, login=True)
    return client


def subscribe_home_assistant(client):
    # What Home Assistant subscribes to after the states (the device has none of it to send).
    if hasattr(client, "subscribe_home_assistant_states_and_services"):
        client.subscribe_home_assistant_states_and_services(lambda *a: None, lambda *a: None, lambda *a: None, lambda *a: None)
    else:
        client.subscribe_service_calls(lambda *a: None)
        client.subscribe_home_assistant_states(lambda *a: None)


async def full(port, name, key):
    client = await connect(port, key)
    info = await client.device_info()
    if info.name != name:
        fail(f"device name {info.name!r}, expected {name!r}")
    if not re.fullmatch(r"([0-9A-F]{2}:){5}[0-9A-F]{2}", info.mac_address):
        fail(f"MAC address {info.mac_address!r} is not ESPHome's AA:BB:CC:DD:EE:FF")
    if not info.model or not info.manufacturer or not info.esphome_version:
        fail(f"device info without model, manufacturer or version: {info}")
    print(f"device: {info.name} ({info.friendly_name}), {info.mac_address}, {info.manufacturer} {info.model}, version {info.esphome_version}")
    entities, _ = await client.list_entities_services()
    by_id = {e.object_id: e for e in entities}
    listed = sorted(f"{type(e).__name__}:{e.object_id}" for e in entities)
    print("entities: " + " ".join(listed))
    expected = {
        "doorbell_state": "BinarySensorInfo", "front_door_state": "BinarySensorInfo", "energy_total": "SensorInfo",
        "energy_rate": "SensorInfo", "volume_position": "SensorInfo", "mode_state": "TextSensorInfo",
    }
    if HAS_EVENTS:
        expected.update({"doorbell_event": "EventInfo", "volume_event": "EventInfo", "mode_event": "EventInfo", "door_keys_event": "EventInfo"})
    for object_id, kind in expected.items():
        entity = by_id.get(object_id)
        if entity is None or type(entity).__name__ != kind:
            fail(f"{object_id} is not listed as a {kind}: {listed}")
    total = by_id["energy_total"]
    if (total.unit_of_measurement, total.device_class, total.accuracy_decimals) != ("kWh", "energy", 3) or total.state_class != model.SensorStateClass.TOTAL_INCREASING:
        fail(f"the meter's total is not an energy total in kWh: {total}")
    if by_id["front_door_state"].device_class != "door":
        fail(f"the door is not a door: {by_id['front_door_state']}")
    if HAS_EVENTS and by_id["doorbell_event"].event_types[:3] != ["press", "release", "click"]:
        fail(f"the doorbell's event types: {by_id['doorbell_event'].event_types}")
    for input_name in ("doorbell", "volume", "energy", "mode", "door_keys", "front_door"):
        health = by_id.get(f"{input_name}_health")
        if type(health).__name__ != "SensorInfo" or health.entity_category != model.EntityCategory.DIAGNOSTIC or health.unit_of_measurement != "edges":
            fail(f"{input_name}'s health is not a diagnostic sensor of edges: {health}")
    keys = {e.key: e.object_id for e in entities}
    seen = {}
    done = asyncio.Event()
    wanted = {"doorbell_state:True", "doorbell_state:False", "front_door_state:True", "front_door_state:False", "energy_total:>0", "volume_position:any", "mode_state:any",
              "doorbell_health:any"}
    if HAS_EVENTS:
        wanted |= {"doorbell_event:press", "doorbell_event:release", "volume_event:rotate", "mode_event:select", "door_keys_event:any"}

    def on_state(state):
        object_id = keys.get(state.key)
        if object_id is None:
            fail(f"a state of key {state.key}, which no entity has")
        if type(state).__name__ == "Event":
            found = {f"{object_id}:{state.event_type}", f"{object_id}:any"}
            if state.event_type.startswith("rotate_"):
                found.add(f"{object_id}:rotate")
        elif getattr(state, "missing_state", False):
            found = set()
        else:
            found = {f"{object_id}:{state.state}", f"{object_id}:any"}
            if isinstance(state.state, float) and state.state > 0:
                found.add(f"{object_id}:>0")
        for item in found:
            seen[item] = seen.get(item, 0) + 1
        if wanted <= seen.keys():
            done.set()

    client.subscribe_states(on_state)
    subscribe_home_assistant(client)
    try:
        await asyncio.wait_for(done.wait(), 60)
    except asyncio.TimeoutError:
        fail(f"not seen within 60 s: {sorted(wanted - seen.keys())}; seen: {seen}")
    print("states and events: " + " ".join(f"{item}×{seen[item]}" for item in sorted(wanted)))
    await client.disconnect()


async def expect_failure(port, key, error):
    try:
        client = await connect(port, key)
    except APIConnectionError as caught:
        if type(caught).__name__ != error:
            fail(f"expected {error}, got {type(caught).__name__}: {caught}")
        print(f"{error}: {caught}")
        return
    await client.disconnect()
    fail(f"connected, where {error} was expected")


async def garbage(port, key):
    # A client that sends a frame of 2^27 bytes: closed, while Home Assistant's connection goes on.
    good = await connect(port, key)
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"\x01\x7f\xff" if key else b"\x00\x80\x80\x80\x40\x01")
    await writer.drain()
    try:
        left = await asyncio.wait_for(reader.read(), 5)
    except asyncio.TimeoutError:
        fail("a client that sent garbage was not closed within 5 s")
    print(f"garbage: closed by the device after {len(left)} bytes")
    info = await good.device_info()
    print(f"garbage: the other client goes on ({info.name})")
    await good.disconnect()


async def reload(port, key, config, pid):
    stopped = asyncio.Event()
    expected = []

    async def on_stop(expected_disconnect):
        expected.append(expected_disconnect)
        stopped.set()

    client = await connect(port, key, on_stop)
    entities, _ = await client.list_entities_services()
    if any(e.object_id == "garage_state" for e in entities):
        fail("garage listed before the reload")
    with open(config, "a") as file:
        file.write("  - {name: garage, line: GPIO25, device_class: garage_door}\n")
    os.kill(pid, signal.SIGHUP)
    try:
        await asyncio.wait_for(stopped.wait(), 15)
    except asyncio.TimeoutError:
        fail("the device did not disconnect its client after a reload that added an input")
    print(f"reload: the device asked its client to connect again (expected disconnect: {expected[0]})")
    client = await connect(port, key)
    entities, _ = await client.list_entities_services()
    if not any(e.object_id == "garage_state" for e in entities):
        fail(f"garage not listed after the reload: {[e.object_id for e in entities]}")
    print("reload: garage_state listed")
    await client.disconnect()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("name")
    parser.add_argument("--key")
    parser.add_argument("--expect", choices=["wrong-key", "requires-encryption", "garbage", "reload"])
    parser.add_argument("--config")
    parser.add_argument("--pid", type=int)
    args = parser.parse_args()
    if args.expect == "wrong-key":
        asyncio.run(expect_failure(args.port, "MDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDA=", "InvalidEncryptionKeyAPIError"))
    elif args.expect == "requires-encryption":
        asyncio.run(expect_failure(args.port, None, "RequiresEncryptionAPIError"))
    elif args.expect == "garbage":
        asyncio.run(garbage(args.port, args.key))
    elif args.expect == "reload":
        asyncio.run(reload(args.port, args.key, args.config, args.pid))
    else:
        asyncio.run(full(args.port, args.name, args.key))


if __name__ == "__main__":
    main()
