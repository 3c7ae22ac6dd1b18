#!/usr/bin/env python3
"""Runs a command whose standard output is `--format json` events, in a private mount namespace
whose /etc/resolv.conf names a DNS server that takes every query and never answers, and checks that
the events come out when they happen: each event's lag (its arrival on the wall clock minus its
time_ns, less the smallest such difference of the run) stays within --max-lag seconds.

    check-dns-stall.py --seconds 8 --max-lag 0.5 -- COMMAND ARGS...

A blocking host name lookup on the program's event loop (libmosquitto's getaddrinfo) holds every
event back for the resolver's whole timeout, then lets them out in a burst: that is what fails.
Needs root (unshare --mount). Prints the events' lags and the command's standard error; exit 0 when
every lag is within the bound and at least --min-events events came out, 1 otherwise.
"""
import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

parser = argparse.ArgumentParser()
parser.add_argument("--seconds", type=float, default=8.0, help="how long the command runs (then SIGTERM)")
parser.add_argument("--max-lag", type=float, default=0.5, help="the largest lag allowed, in seconds")
parser.add_argument("--min-events", type=int, default=8)
parser.add_argument("--stderr", help="a file to keep the command's standard error in")
parser.add_argument("command", nargs=argparse.REMAINDER)
args = parser.parse_args()
command = args.command[1:] if args.command[:1] == ["--"] else args.command

# The black hole: a UDP and a TCP socket on 127.0.0.153:53 that read and never answer.
address = ("127.0.0.153", 53)
udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
udp.bind(address)
tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
tcp.bind(address)
tcp.listen(16)
queries = []


def swallow_udp():
    while True:
        data, _ = udp.recvfrom(4096)
        queries.append(time.monotonic())


def swallow_tcp():
    held = []
    while True:
        connection, _ = tcp.accept()
        held.append(connection)  # kept open, never read from, never answered


threading.Thread(target=swallow_udp, daemon=True).start()
threading.Thread(target=swallow_tcp, daemon=True).start()

with tempfile.TemporaryDirectory() as directory:
    resolv = os.path.join(directory, "resolv.conf")
    with open(resolv, "w") as f:
        f.write("nameserver 127.0.0.153\noptions timeout:3 attempts:2\n")
    wrapped = ["unshare", "--mount", "--", "sh", "-c",
               'mount --bind "$0" /etc/resolv.conf && exec "$@"', resolv] + command
    stderr = open(args.stderr, "w") if args.stderr else subprocess.DEVNULL
    process = subprocess.Popen(wrapped, stdout=subprocess.PIPE, stderr=stderr, text=True)
    timer = threading.Timer(args.seconds, lambda: process.send_signal(signal.SIGTERM))
    timer.start()
    arrivals = []
    for line in process.stdout:
        now = time.monotonic()
        try:
            event = json.loads(line)
        except ValueError:
            print(f"not JSON: {line!r}")
            continue
        arrivals.append((now, event["time_ns"] / 1e9, event["event"], event.get("button", "?")))
    status = process.wait()
    timer.cancel()

if not arrivals:
    print("no events came out")
    sys.exit(1)
# Each event's lag: how much later than the promptest event it came out, relative to its own time.
offset = min(wall - at for wall, at, _, _ in arrivals)
first_time = min(at for _, at, _, _ in arrivals)
worst = 0.0
for wall, at, kind, button in arrivals:
    lag = wall - at - offset
    worst = max(worst, lag)
    print(f"  {at - first_time:7.3f} s  {button:>8} {kind:<8} out {lag * 1000:7.1f} ms late")
print(f"{len(arrivals)} events, worst lag {worst * 1000:.1f} ms (bound {args.max_lag * 1000:.0f} ms), "
      f"{len(queries)} DNS queries swallowed, exit {status}")
ok = worst <= args.max_lag and len(arrivals) >= args.min_events and len(queries) > 0
sys.exit(0 if ok else 1)
