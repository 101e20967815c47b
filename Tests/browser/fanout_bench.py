#!/usr/bin/env python3
"""plumscale-web's WebSocket fan-out: N browsers' worth of WebSocket clients on the live page,
against plumscaled --simulate (two pans, 80 samples a second each).

usage: fanout_bench.py [--bin DIR] [--clients 100] [--seconds 20]

Prints, for the frames every client received: the latency from the sample's own time (the
daemon's timestamp in each WEIGHT report) to the frame's arrival, p50/p99/max, frames lost per
client, and plumscale-web's RSS (VmRSS, VmHWM). Clients and servers share this machine's cores,
so the figures include the clients' own CPU. Loopback only; bounded in clients and time.
"""
import argparse, json, os, selectors, sys, time

import websocket

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_web import Stack, wait_until  # noqa: E402


def status_kib(pid, field):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/debug")
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20)
    args = parser.parse_args()
    stack = Stack(os.path.abspath(args.bin))
    try:
        rss_idle = status_kib(stack.web.pid, "VmRSS")
        url = stack.url.replace("http://", "ws://") + "/ws"
        clients = [websocket.create_connection(url, timeout=10) for _ in range(min(args.clients, 1000))]
        selector = selectors.DefaultSelector()
        for index, client in enumerate(clients):
            client.sock.setblocking(True)
            selector.register(client.sock, selectors.EVENT_READ, index)
        latencies, counts = [], [0] * len(clients)
        deadline = time.monotonic() + min(args.seconds, 120)
        while time.monotonic() < deadline:
            for key, _ in selector.select(timeout=0.5):
                frame = clients[key.data].recv()
                now = time.time()
                message = json.loads(frame)
                if message.get("type") == "weight":
                    latencies.append(now - message["time"])
                    counts[key.data] += 1
        rss = status_kib(stack.web.pid, "VmRSS")
        peak = status_kib(stack.web.pid, "VmHWM")
        for client in clients:
            client.close()
        latencies.sort()
        pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000
        print(f"clients {len(clients)}, {args.seconds:.0f} s, frames {len(latencies)} "
              f"(per client min {min(counts)}, max {max(counts)})")
        print(f"sample -> frame latency ms: p50 {pick(0.5):.2f}  p99 {pick(0.99):.2f}  max {latencies[-1] * 1000:.2f}")
        print(f"plumscale-web RSS: idle {rss_idle / 1024:.1f} MiB, with clients {rss / 1024:.1f} MiB, "
              f"peak {peak / 1024:.1f} MiB")
    finally:
        stack.stop(keep_logs=False)


if __name__ == "__main__":
    main()
