#!/usr/bin/env python3
"""Prints what the buttons of a running `gpio-debounce run` do, from its events socket.

Standard library only. Usage: python3 buttons.py [SOCKET]
(default /run/gpio-debounce/events.sock; the user must be in the gpio-debounce-events group).
"""
import json
import socket
import sys

path = sys.argv[1] if len(sys.argv) > 1 else "/run/gpio-debounce/events.sock"
with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as daemon:
    daemon.connect(path)
    daemon.sendall(b'{"request":"subscribe","events":["press","release","hold"]}\n')
    for line in daemon.makefile(encoding="utf-8"):  # one JSON object a line, until the daemon stops
        event = json.loads(line)
        if event.get("snapshot"):  # every input's state when we connected
            print(f"{event['input']} ({event['kind']}) is {event.get('state', 'idle')}", flush=True)
        elif event["event"] in ("press", "release", "hold"):
            print(f"{event['input']} {event['event']} at {event['time_ns'] / 1e9:.3f} s", flush=True)
