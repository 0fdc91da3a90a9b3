#!/usr/bin/env python3
"""Load, latency and slowloris clients for scripts/load.sh (loopback only, standard library only).

  loadclient.py load      --port P --pid PID --connections 256 --duration 60   mixed small/large uploads
  loadclient.py latency   --port P --connections 8 --duration 15               small uploads, latency figures
  loadclient.py slowloris --port P --connections 1000 --duration 30            heads dribbled 1 byte/s

Each prints one JSON object on standard output. Every loop ends at its phase's deadline; every request has
a timeout; every connection is closed by the time the command returns.
"""
import argparse
import asyncio
import heapq
import json
import os
import random
import resource
import selectors
import socket
import sys
import time

BOUNDARY = "loadclient-b0undary-7d3f9a"


def raise_nofile():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def form(parts):
    out = bytearray()
    for name, filename, ctype, data in parts:
        out += b"--" + BOUNDARY.encode() + b"\r\n"
        out += b'Content-Disposition: form-data; name="' + name.encode() + b'"'
        if filename:
            out += b'; filename="' + filename.encode() + b'"'
        out += b"\r\n"
        if ctype:
            out += b"Content-Type: " + ctype.encode() + b"\r\n"
        out += b"\r\n" + data + b"\r\n"
    out += b"--" + BOUNDARY.encode() + b"--\r\n"
    return bytes(out)


def request(body, path="/upload"):
    head = (
        f"POST {path} HTTP/1.1\r\nHost: load.test\r\n"
        f"Content-Type: multipart/form-data; boundary={BOUNDARY}\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


def bodies(large_bytes):
    rng = random.Random(7)
    small = [
        request(form([("title", None, None, b"hello %d" % i), ("internal_note", None, None, b"drop me"),
                      ("file", "note%d.txt" % i, "text/plain", bytes(rng.getrandbits(8) for _ in range(2048 + 512 * i)))]))
        for i in range(4)
    ]
    blob = os.urandom(large_bytes)
    large = [request(form([("title", None, None, b"big"), ("file", "blob.bin", "application/octet-stream", blob)]))]
    return small, large


async def read_response(reader):
    """Reads one response; returns (status, keep_alive)."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    fields = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            fields[name.strip().lower()] = value.strip()
    if "content-length" in fields:
        await reader.readexactly(int(fields["content-length"]))
    elif fields.get("transfer-encoding", "").lower() == "chunked":
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            await reader.readexactly(size + 2)
            if size == 0:
                break
    else:
        await reader.read()
        return status, False
    return status, fields.get("connection", "").lower() != "close"


def percentile(values, fraction):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class Stats:
    def __init__(self):
        self.requests = 0
        self.large = 0
        self.errors = 0
        self.error_kinds = {}
        self.statuses = {}
        self.latencies = []
        self.bytes_sent = 0
        self.connections = 0

    def error(self, kind):
        self.errors += 1
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1


async def uploader(port, deadline, stats, small, large, large_every, seed, timeout, pace=0.0):
    """Uploads on one keep-alive connection until the deadline; with `pace`, starts a request every `pace`
    seconds at most (a steady client that does not saturate the CPU it shares with the proxy)."""
    rng = random.Random(seed)
    reader = writer = None
    next_start = time.monotonic()
    try:
        while time.monotonic() < deadline:
            if writer is None:
                reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
                stats.connections += 1
            if pace > 0:
                next_start += pace
                await asyncio.sleep(max(0.0, next_start - pace - time.monotonic()))
            is_large = large and large_every > 0 and rng.randrange(large_every) == 0
            payload = large[0] if is_large else small[rng.randrange(len(small))]
            started = time.monotonic()
            try:
                writer.write(payload)
                await asyncio.wait_for(writer.drain(), timeout)
                status, keep_alive = await asyncio.wait_for(read_response(reader), timeout)
            except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, ValueError) as error:
                stats.error(type(error).__name__)
                writer.close()
                reader = writer = None
                continue
            stats.latencies.append(time.monotonic() - started)
            stats.requests += 1
            stats.large += 1 if is_large else 0
            stats.bytes_sent += len(payload)
            stats.statuses[status] = stats.statuses.get(status, 0) + 1
            if not keep_alive:
                writer.close()
                reader = writer = None
    except (OSError, asyncio.TimeoutError) as error:
        stats.error("connect " + type(error).__name__)
    finally:
        if writer is not None:
            writer.close()


def sample(pid):
    """(VmRSS in KiB, open descriptors) of process `pid`, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            rss = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
        return rss, len(os.listdir(f"/proc/{pid}/fd"))
    except (OSError, StopIteration):
        return None


async def sampler(pid, deadline, samples, started):
    while time.monotonic() < deadline:
        value = sample(pid)
        if value is not None:
            samples.append((time.monotonic() - started, value[0], value[1]))
        await asyncio.sleep(1.0)


def figures(stats, elapsed):
    return {
        "requests": stats.requests,
        "large_requests": stats.large,
        "errors": stats.errors,
        "error_kinds": stats.error_kinds,
        "statuses": {str(k): v for k, v in sorted(stats.statuses.items())},
        "rps": round(stats.requests / elapsed, 1) if elapsed > 0 else 0,
        "upload_mb_per_s": round(stats.bytes_sent / elapsed / 1e6, 1) if elapsed > 0 else 0,
        "p50_ms": round(percentile(stats.latencies, 0.50) * 1000, 2) if stats.latencies else None,
        "p99_ms": round(percentile(stats.latencies, 0.99) * 1000, 2) if stats.latencies else None,
        "connections_opened": stats.connections,
    }


async def run_load(args):
    small, large = bodies(args.large_bytes)
    stats = Stats()
    samples = []
    started = time.monotonic()
    deadline = started + args.duration
    tasks = [asyncio.create_task(sampler(args.pid, deadline, samples, started))] if args.pid else []
    tasks += [
        asyncio.create_task(uploader(args.port, deadline, stats, small, large, args.large_every, i, args.timeout))
        for i in range(args.connections)
    ]
    await asyncio.gather(*tasks)
    elapsed = time.monotonic() - started
    result = figures(stats, elapsed)
    result["duration_s"] = round(elapsed, 1)
    result["connections"] = args.connections
    if samples:
        window = min(10.0, args.duration / 3)
        first = [s for s in samples if s[0] < window]
        last = [s for s in samples if s[0] >= elapsed - window]
        result["rss_kib_first"] = max(s[1] for s in first) if first else None
        result["rss_kib_last"] = max(s[1] for s in last) if last else None
        result["fds_first"] = max(s[2] for s in first) if first else None
        result["fds_last"] = max(s[2] for s in last) if last else None
        result["rss_kib_max"] = max(s[1] for s in samples)
        result["samples"] = [[round(t, 1), rss, fds] for t, rss, fds in samples]
    return result


class SlowClient:
    """One slow connection: its socket, how far into the head it is, and when its next byte is due."""

    def __init__(self, sock, due):
        self.sock = sock
        self.fd = sock.fileno()
        self.sent = 0
        self.due = due
        self.closed = False


def run_slowloris(args):
    """Dribbles a request head one byte per --interval on --connections connections until the deadline, with
    one selector loop and no per-byte tasks or timers, so that the attacker spends little of the CPU it
    shares with partgate and the latency client. Connections start evenly over --ramp seconds; one that is
    answered or closed is replaced by a fresh one at once. Counts the outcomes."""
    counts = {k: 0 for k in ["opened", "open_max", "connect_failed", "answered_408", "answered_other",
                              "closed_without_answer", "reset", "head_completed", "open_at_end"]}
    head = b"POST /upload HTTP/1.1\r\nHost: load.test\r\nX-Slow: " + b"a" * 4000 + b"\r\n\r\n"
    selector = selectors.DefaultSelector()
    clients = {}  # fd -> SlowClient
    due = []  # heap of (due time, sequence, client)
    sequence = 0
    started = time.monotonic()
    deadline = started + args.duration
    pending_starts = [started + args.ramp * i / args.connections for i in range(args.connections)]
    pending_starts.reverse()  # pop() takes the earliest

    def open_one(now):
        nonlocal sequence
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.settimeout(2)
        try:
            sock.connect(("127.0.0.1", args.port))
        except OSError:
            sock.close()
            counts["connect_failed"] += 1
            return False
        sock.setblocking(False)
        client = SlowClient(sock, now)
        clients[sock.fileno()] = client
        selector.register(sock, selectors.EVENT_READ)
        heapq.heappush(due, (now, sequence, client))
        sequence += 1
        counts["opened"] += 1
        counts["open_max"] = max(counts["open_max"], len(clients))
        return True

    def finish(fd, outcome):
        client = clients.pop(fd)
        client.closed = True
        selector.unregister(client.sock)
        client.sock.close()
        counts[outcome] += 1

    replacements = 0
    while True:
        now = time.monotonic()
        if now >= deadline:
            break
        while pending_starts and pending_starts[-1] <= now:
            pending_starts.pop()
            if not open_one(now):
                pending_starts.append(now + args.interval)  # retry later, as the task-based client did
        while replacements and open_one(now):
            replacements -= 1
        while due and due[0][0] <= now:
            _, _, client = heapq.heappop(due)
            if client.closed:
                continue  # finished meanwhile (its fd number may belong to a newer client by now)
            fd = client.fd
            if client.sent == len(head):
                finish(fd, "head_completed")
                replacements += 1
                continue
            try:
                client.sock.send(head[client.sent:client.sent + 1])
                client.sent += 1
                client.due = now + args.interval
                heapq.heappush(due, (client.due, sequence, client))
                sequence += 1
            except BlockingIOError:
                heapq.heappush(due, (now + args.interval, sequence, client))
                sequence += 1
            except OSError:
                finish(fd, "reset")
                replacements += 1
        wake = min([deadline] + ([due[0][0]] if due else []) + ([pending_starts[-1]] if pending_starts else []))
        for key, _ in selector.select(timeout=max(0.0, min(wake - time.monotonic(), 0.05))):
            fd = key.fd
            if fd not in clients:
                continue
            try:
                data = clients[fd].sock.recv(4096)
            except BlockingIOError:
                continue
            except OSError:
                finish(fd, "reset")
                replacements += 1
                continue
            if not data:
                finish(fd, "closed_without_answer")
            elif data.startswith(b"HTTP/1.1 408"):
                finish(fd, "answered_408")
            else:
                finish(fd, "answered_other")
            replacements += 1
    for fd in list(clients):
        finish(fd, "open_at_end")
    selector.close()
    counts["duration_s"] = round(time.monotonic() - started, 1)
    counts["connections"] = args.connections
    return counts


async def run_latency(args):
    small, _ = bodies(1)
    stats = Stats()
    started = time.monotonic()
    deadline = started + args.duration
    await asyncio.gather(*[
        asyncio.create_task(uploader(args.port, deadline, stats, small, [], 0, i, args.timeout, args.pace_ms / 1000))
        for i in range(args.connections)
    ])
    elapsed = time.monotonic() - started
    result = figures(stats, elapsed)
    result["duration_s"] = round(elapsed, 1)
    result["connections"] = args.connections
    # Every request's latency, so that rounds can be pooled (load.sh judges the pooled p99).
    result["latencies_ms"] = [round(latency * 1000, 3) for latency in stats.latencies]
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["load", "latency", "slowloris"])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, default=0, help="process to sample (VmRSS, open descriptors)")
    parser.add_argument("--connections", type=int, default=256)
    parser.add_argument("--duration", type=float, default=60)
    parser.add_argument("--large-every", type=int, default=10, help="one request in N is large")
    parser.add_argument("--large-bytes", type=int, default=1 << 20)
    parser.add_argument("--interval", type=float, default=1.0, help="slowloris: seconds between bytes")
    parser.add_argument("--timeout", type=float, default=30.0, help="per request step")
    parser.add_argument("--ramp", type=float, default=1.0, help="slowloris: seconds over which connections start")
    parser.add_argument("--pace-ms", type=float, default=0, help="latency: start a request every N ms per connection")
    args = parser.parse_args()
    limit = raise_nofile()
    if args.mode == "slowloris" and limit < args.connections + 64:
        sys.exit(f"loadclient: open-file limit {limit} is too low for {args.connections} connections")
    runner = {"load": run_load, "latency": run_latency, "slowloris": run_slowloris}[args.mode]
    result = runner(args) if args.mode == "slowloris" else asyncio.run(runner(args))
    result["mode"] = args.mode
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
