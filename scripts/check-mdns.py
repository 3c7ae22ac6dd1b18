"""What Home Assistant's zeroconf discovery sees of a gpio-debounce device: a browse for
_esphomelib._tcp with python-zeroconf (the library Home Assistant discovers with), then, as the
esphome integration's zeroconf step does, a connection to the advertised port whose device info must
carry the advertised MAC address.

    python check-mdns.py NAME [--key BASE64] [--friendly-name TEXT] [--absent] [--wait SECONDS]

Prints what it found; exits 1 when the service is not as expected (or, with --absent, when it is
still advertised).
"""

import argparse
import asyncio
import sys
import time

from zeroconf import Zeroconf

TYPE = "_esphomelib._tcp.local."


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def lookup(name, seconds):
    zc = Zeroconf()
    try:
        deadline = time.monotonic() + seconds
        while True:
            info = zc.get_service_info(TYPE, f"{name}.{TYPE}", timeout=1500)
            if info is not None or time.monotonic() > deadline:
                return info
    finally:
        zc.close()


async def device_mac(host, port, key):
    from aioesphomeapi import APIClient

    client = APIClient(host, port, None, noise_psk=key, client_info="gpio-debounce CI (mDNS)")
    await client.connect(login=True)
    try:
        return (await client.device_info()).mac_address
    finally:
        await client.disconnect()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("name")
    parser.add_argument("--key")
    parser.add_argument("--friendly-name")
    parser.add_argument("--absent", action="store_true")
    parser.add_argument("--wait", type=float, default=10)
    args = parser.parse_args()
    if args.absent:
        info = lookup(args.name, 3)
        if info is not None:
            fail(f"{args.name} is still advertised: {info}")
        print(f"{args.name}._esphomelib._tcp is not advertised")
        return
    info = lookup(args.name, args.wait)
    if info is None:
        fail(f"no {args.name}.{TYPE} within {args.wait} s")
    text = {k.decode(): (v or b"").decode() for k, v in info.properties.items()}
    print(f"found {info.name} at {info.server} {info.parsed_addresses()} port {info.port}: {text}")
    # What the esphome integration's async_step_zeroconf reads.
    mac = text.get("mac", "")
    if len(mac) != 12 or mac != mac.lower():
        fail(f"TXT mac {mac!r} is not 12 lower-case hex digits (Home Assistant aborts with mdns_missing_mac)")
    if bool(text.get("api_encryption")) != bool(args.key):
        fail(f"TXT api_encryption {text.get('api_encryption')!r}, the device {'is' if args.key else 'is not'} encrypted")
    if args.friendly_name is not None and text.get("friendly_name") != args.friendly_name:
        fail(f"TXT friendly_name {text.get('friendly_name')!r}, expected {args.friendly_name!r}")
    if text.get("network") not in ("ethernet", "wifi"):
        fail(f"TXT network {text.get('network')!r}")
    host = info.parsed_addresses()[0]
    actual = asyncio.run(device_mac(host, info.port, args.key))
    if actual.replace(":", "").lower() != mac:
        fail(f"the device at {host}:{info.port} says MAC {actual}, the advertisement {mac}: Home Assistant would call it an unexpected device")
    print(f"the device at {host}:{info.port} is the advertised one ({actual})")


main()
