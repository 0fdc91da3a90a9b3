#!/usr/bin/env python3
"""Heap held per idle keep-alive client connection of a proxy (scripts/bench-idle.sh runs it).

    idle_memory.py PORT PID [--connections N] [--gap SECONDS] [--settle SECONDS] [--request post|get|none]

Opens N connections to 127.0.0.1:PORT one after another, each sending one request (the small multipart POST of
the benchmark, $SMALL_BODY with $CONTENT_TYPE; or a GET; or nothing) and reading its response, then keeps them all
open and idle. Reads PID's anonymous RSS (RssAnon, summed over the process and its children) after the first 10
and, `--settle` seconds after the last, after all N, and prints one line with the growth per connection past the
first 10 (the process's fixed costs and first-use allocations come with those).
"""
import argparse
import os
import socket
import sys
import time


def rss_anon_kib(pid):
    pids = [pid]
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            pids += [int(p) for p in f.read().split()]
    except OSError:
        pass
    total = 0
    for p in pids:
        with open(f"/proc/{p}/status") as f:
            for line in f:
                if line.startswith("RssAnon:"):
                    total += int(line.split()[1])
    return total


def read_response(sock):
    """Reads one response with a Content-Length body (what the benchmark's upstream sends)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise RuntimeError("connection closed before a response")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise RuntimeError("connection closed in a response body")
        body += chunk
    return status


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("pid", type=int)
    parser.add_argument("--connections", type=int, default=1010)
    parser.add_argument("--gap", type=float, default=0.0)
    parser.add_argument("--settle", type=float, default=2.5)
    parser.add_argument("--request", choices=["post", "get", "none"], default="post")
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    if args.request == "post":
        with open(os.environ["SMALL_BODY"], "rb") as f:
            body = f.read()
        request = (f"POST /upload HTTP/1.1\r\nHost: idle.test\r\nContent-Type: {os.environ['CONTENT_TYPE']}\r\n"
                   f"Content-Length: {len(body)}\r\n\r\n").encode() + body
    elif args.request == "get":
        request = b"GET /idle HTTP/1.1\r\nHost: idle.test\r\n\r\n"
    else:
        request = None
    first = 10
    sockets = []
    base = None
    for index in range(args.connections):
        sock = socket.create_connection(("127.0.0.1", args.port))
        if request is not None:
            sock.sendall(request)
            status = read_response(sock)
            if status >= 400 and args.request == "post":
                sys.exit(f"idle_memory: status {status} from port {args.port}")
        sockets.append(sock)
        if index + 1 == first:
            time.sleep(args.settle)
            base = rss_anon_kib(args.pid)
        elif args.gap:
            time.sleep(args.gap)
    time.sleep(args.settle)
    end = rss_anon_kib(args.pid)
    per = (end - base) / (args.connections - first)
    print(f"IDLE label={args.label} request={args.request} connections={args.connections} gap_s={args.gap} "
          f"rss_anon_kib_first={base} rss_anon_kib_all={end} kib_per_connection={per:.1f}")
    for sock in sockets:
        sock.close()


if __name__ == "__main__":
    main()
