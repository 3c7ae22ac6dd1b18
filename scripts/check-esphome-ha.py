"""What a Home Assistant user sees of a gpio-debounce device with no broker: Home Assistant 2024.3.3's
own zeroconf discovery, ESPHome config flow and entities, read through its REST and WebSocket APIs.

    python check-esphome-ha.py URL TOKEN STEP [ARGS]

Steps (each waits for what it checks, prints what it found, and exits 1 when it is not so):
    discovered MAC TITLE     an ESPHome flow from zeroconf for the device MAC (aa:bb:...), titled TITLE
    add KEY WRONG            the Discovered card's "Add": asks for the key, refuses WRONG, takes KEY
    entities PREFIX          the device's entities (PREFIX: their entity id's start) with their kinds
    changes PREFIX           the simulated doorbell seen pressed and released
    device MAC MAKER MODEL VERSION   the device of MAC address MAC in the registry: its maker, model and firmware
    available PREFIX yes|no  the entities available, or unavailable (the device stopped)
"""

import asyncio
import json
import sys
import time

import aiohttp


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


async def websocket(url, token, message):
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(f"{url}/api/websocket") as ws:
            await ws.receive_json()
            await ws.send_json({"type": "auth", "access_token": token})
            if (await ws.receive_json())["type"] != "auth_ok":
                fail("the token is refused")
            await ws.send_json({"id": 1, **message})
            answer = await ws.receive_json()
            if not answer.get("success"):
                fail(f"{message['type']}: {answer}")
            return answer["result"]


async def rest(url, token, path, body=None):
    headers = {"Authorization": f"Bearer {token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        if body is None:
            async with session.get(f"{url}/api/{path}") as response:
                return await response.json()
        async with session.post(f"{url}/api/{path}", json=body) as response:
            return await response.json()


async def until(seconds, probe, what):
    deadline = time.monotonic() + seconds
    while True:
        found = await probe()
        if found:
            return found
        if time.monotonic() > deadline:
            fail(f"not within {seconds} s: {what}")
        await asyncio.sleep(0.5)


async def esphome_flow(url, token):
    flows = await websocket(url, token, {"type": "config_entries/flow/progress"})
    return next((f for f in flows if f["handler"] == "esphome"), None)


async def states(url, token, prefix):
    return {s["entity_id"]: s for s in await rest(url, token, "states") if s["entity_id"].split(".", 1)[1].startswith(prefix)}


async def main(url, token, step, args):
    if step == "discovered":
        mac, title = args
        flow = await until(60, lambda: esphome_flow(url, token), "an ESPHome flow under Discovered")
        context = flow["context"]
        print(f"discovered: {context}")
        if context.get("source") != "zeroconf" or context.get("unique_id") != mac or context.get("title_placeholders", {}).get("name") != title:
            fail(f"the discovery is not zeroconf's of {mac} titled {title!r}: {context}")
    elif step == "add":
        key, wrong = args
        flow = await esphome_flow(url, token)
        asked = await rest(url, token, f"config/config_entries/flow/{flow['flow_id']}", {})
        if asked.get("step_id") != "encryption_key":
            fail(f"Add did not ask for the key: {asked}")
        refused = await rest(url, token, f"config/config_entries/flow/{flow['flow_id']}", {"noise_psk": wrong})
        if refused.get("step_id") != "encryption_key" or refused.get("errors", {}).get("base") != "invalid_psk":
            fail(f"a wrong key was not refused as invalid: {refused}")
        print(f"a wrong key: {refused['errors']}")
        entry = await rest(url, token, f"config/config_entries/flow/{flow['flow_id']}", {"noise_psk": key})
        if entry.get("type") != "create_entry" or entry["result"]["state"] != "loaded":
            fail(f"the device was not added: {entry}")
        print(f"added: {entry['title']}, {entry['result']['source']}, {entry['result']['state']}")
    elif step == "entities":
        prefix, = args
        expected = {
            f"binary_sensor.{prefix}doorbell_state": {"device_class": None},
            f"binary_sensor.{prefix}front_door_state": {"device_class": "door"},
            f"sensor.{prefix}energy_total": {"unit_of_measurement": "kWh", "device_class": "energy", "state_class": "total_increasing"},
            f"sensor.{prefix}energy_rate": {"device_class": "power"},
            f"sensor.{prefix}volume_position": {},
            f"sensor.{prefix}mode_state": {},
            f"sensor.{prefix}doorbell_health": {"unit_of_measurement": "edges", "state_class": "total_increasing"},
        }

        async def all_there():
            found = await states(url, token, prefix)
            return found if set(expected) <= set(found) and all(found[e]["state"] not in ("unavailable",) for e in expected) else None

        found = await until(60, all_there, f"the entities {sorted(expected)}")
        for entity_id, attributes in expected.items():
            for name, value in attributes.items():
                if found[entity_id]["attributes"].get(name) != value:
                    fail(f"{entity_id}: {name} is {found[entity_id]['attributes'].get(name)!r}, not {value!r}")
        print("entities: " + ", ".join(f"{e}={found[e]['state']}" for e in sorted(found)))
        registry = await websocket(url, token, {"type": "config/entity_registry/list"})
        health = next((e for e in registry if e["entity_id"] == f"sensor.{prefix}doorbell_health"), None)
        if health is None or health.get("entity_category") != "diagnostic":
            fail(f"the doorbell's health is not a diagnostic entity: {health}")
    elif step == "changes":
        prefix, = args
        seen = set()

        async def pressed_and_released():
            seen.add((await states(url, token, prefix))[f"binary_sensor.{prefix}doorbell_state"]["state"])
            return {"on", "off"} <= seen

        await until(60, pressed_and_released, "the doorbell pressed and released")
        print(f"the doorbell: {sorted(seen)}")
    elif step == "device":
        mac, *args_device = args
        devices = await websocket(url, token, {"type": "config/device_registry/list"})
        device = next((d for d in devices if ["mac", mac] in d.get("connections", [])), None)
        if device is None:
            fail(f"no device of MAC address {mac}: {devices}")
        print(f"device: {device['name']}, {device['manufacturer']} {device['model']}, firmware {device['sw_version']}")
        maker, model, version = args_device
        if (device["manufacturer"], device["model"], device["sw_version"]) != (maker, model, version):
            fail(f"the device is not made by {maker!r}, a {model!r} with firmware {version!r}: {device}")
    elif step == "available":
        prefix, want = args

        async def settled():
            found = await states(url, token, prefix)
            door = found.get(f"binary_sensor.{prefix}front_door_state", {}).get("state")
            return door is not None and (door != "unavailable") == (want == "yes")

        await until(90, settled, f"the entities {'available' if want == 'yes' else 'unavailable'}")
        print(f"the door's state: {(await states(url, token, prefix))[f'binary_sensor.{prefix}front_door_state']['state']}")
    else:
        fail(f"no step {step}")


asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]))
