#!/usr/bin/env python3
"""One hostile connection against a WordRooms server: does it hold the other players up, and is it closed?

The attack of issue 42: a connection that sends permessage-deflate messages of about 60 bytes, each inflating to
about 11 KB, at about 2.7 MB/s. Meanwhile a few normal players each send a short message every 50 ms (an echo on
`/echo`, a `ping` on `/ws`) and time the answer. Reported for each server, thread count and path: the players'
round-trip p50, p99 and max during the attack, how many answers were lost, and when (if) the server closed the
attacker (`/ws` has a message rate limit; `/echo`, the benchmark path, has none: only the loop's fairness
protects its neighbours there).

Loopback only; every server started here is stopped. Not part of CI.

    Tests/Bench/attack-fairness.py                                   # .build/release/wordrooms, 1 and 2 threads
    Tests/Bench/attack-fairness.py --server OLD=/work/main/.build/release/wordrooms \\
                                   --server NEW=.build/release/wordrooms --rounds 2   # alternated, same run
"""

import argparse
import base64
import json
import multiprocessing
import os
import random
import re
import select
import signal
import socket
import statistics
import struct
import subprocess
import sys
import threading
import time
import zlib

PLAYERS = 6            # over 2 threads, some share the attacker's loop (all six miss it with odds 1 in 64)
PLAYER_INTERVAL = 0.05  # seconds between a player's messages (20/s, within /ws's rate limit)


def bomb_text(size=11_000):
    """About 11 KB of text that deflates to about 67 bytes on its own (a ratio near 165, under the guard's 256)."""
    rng = random.Random(42)
    unit = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz ") for _ in range(8))
    body = (unit * (size // len(unit) + 1))[: size - 24]
    return '{"type":"chat","text":"%s"}' % body


def deflate_message(data):
    """RFC 7692 §7.2.1: raw deflate, sync flush, the 4-byte tail removed; no window needed to inflate it."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    out = compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)
    assert out.endswith(b"\x00\x00\xff\xff")
    return out[:-4]


def frame(payload, opcode=0x1, rsv1=False):
    """A masked client frame (RFC 6455 §5.2)."""
    head = bytearray([0x80 | (0x40 if rsv1 else 0) | opcode])
    n = len(payload)
    if n < 126:
        head.append(0x80 | n)
    elif n < 65536:
        head += bytes([0x80 | 126]) + struct.pack("!H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", n)
    key = os.urandom(4)
    masked = bytes(b ^ key[i & 3] for i, b in enumerate(payload))
    return bytes(head) + key + masked


def handshake(port, path, deflate):
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    key = base64.b64encode(os.urandom(16)).decode()
    request = ("GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n" % (path, port, key))
    if deflate:
        request += "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"
    sock.sendall((request + "\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            raise RuntimeError("%s: connection closed during the handshake" % path)
        head += chunk
    status = head.split(b"\r\n", 1)[0].decode()
    if " 101 " not in status + " ":
        raise RuntimeError("%s: %s" % (path, status))
    if deflate and b"permessage-deflate" not in head.lower():
        raise RuntimeError("%s: the server did not agree to permessage-deflate" % path)
    rest = head.split(b"\r\n\r\n", 1)[1]
    return sock, rest


class FrameReader:
    """Server frames from a socket: (opcode, payload) or None at EOF."""

    def __init__(self, sock, buffered=b""):
        self.sock = sock
        self.buffer = bytearray(buffered)

    def _need(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(262144)
            if not chunk:
                return False
            self.buffer += chunk
        return True

    def next(self):
        if not self._need(2):
            return None
        length = self.buffer[1] & 0x7F
        offset = 2
        if length == 126:
            if not self._need(4):
                return None
            length = struct.unpack("!H", self.buffer[2:4])[0]
            offset = 4
        elif length == 127:
            if not self._need(10):
                return None
            length = struct.unpack("!Q", self.buffer[2:10])[0]
            offset = 10
        if not self._need(offset + length):
            return None
        opcode = self.buffer[0] & 0x0F
        payload = bytes(self.buffer[offset:offset + length])
        del self.buffer[:offset + length]
        return opcode, payload


class Attacker:
    """Sends the deflate bomb at `rate` bytes/s, reads (and drops) whatever comes back, notes when it is closed.

    Runs in a process of its own (`attack`), so that its work never delays the players' clocks."""

    def __init__(self, port, path, rate):
        self.sock, rest = handshake(port, path, deflate=True)
        self.tail = rest[-128:]
        compressed = deflate_message(bomb_text().encode())
        self.compressed_size = len(compressed)
        # A batch of frames, each with its own masking key, sent again and again.
        self.batch = b"".join(frame(compressed, rsv1=True) for _ in range(512))
        self.rate = rate
        self.closed_after = None
        self.close_code = None
        self.stop = threading.Event()

    def run_sender(self, started):
        per_tick = max(1, int(self.rate * 0.01))  # bytes every 10 ms
        view = memoryview(self.batch)
        position = 0
        next_tick = time.monotonic()
        while not self.stop.is_set() and self.closed_after is None:
            budget = per_tick
            try:
                while budget > 0:
                    take = min(budget, len(view) - position)
                    self.sock.sendall(view[position:position + take])
                    position = (position + take) % len(view)
                    budget -= take
            except OSError:
                if self.closed_after is None:
                    self.closed_after = time.monotonic() - started
                return
            next_tick += 0.01
            pause = next_tick - time.monotonic()
            if pause > 0:
                time.sleep(pause)

    def run_reader(self, started):
        """Drains the replies unparsed; at EOF, the close frame is the last thing the server sent, if any."""
        try:
            while not self.stop.is_set():
                chunk = self.sock.recv(1 << 20)
                if not chunk:
                    break
                self.tail = (self.tail + chunk)[-128:]
        except OSError:
            pass
        if self.stop.is_set():
            return
        if self.closed_after is None:
            self.closed_after = time.monotonic() - started
        for start in range(len(self.tail) - 2, -1, -1):
            if self.tail[start] == 0x88 and start + 2 + self.tail[start + 1] == len(self.tail):
                if self.tail[start + 1] >= 2:
                    self.close_code = struct.unpack("!H", self.tail[start + 2:start + 4])[0]
                break


def attack(port, path, rate, seconds, results):
    """The attacker's process: attacks for `seconds` (or until closed) and reports on `results`."""
    attacker = Attacker(port, path, rate)
    started = time.monotonic()
    results.put(("started", attacker.compressed_size))
    workers = [threading.Thread(target=attacker.run_sender, args=(started,), daemon=True),
               threading.Thread(target=attacker.run_reader, args=(started,), daemon=True)]
    for w in workers:
        w.start()
    while time.monotonic() < started + seconds and attacker.closed_after is None:
        time.sleep(0.01)
    if attacker.closed_after is None:
        attacker.stop.set()
    results.put(("done", attacker.closed_after, attacker.close_code))


class Player:
    """Sends a short message every PLAYER_INTERVAL and times each answer."""

    def __init__(self, port, path, index):
        self.path = path
        self.sock, rest = handshake(port, path, deflate=False)
        self.reader = FrameReader(self.sock, rest)
        self.index = index
        self.rtts = []
        self.lost = 0

    def run(self, until):
        sequence = 0
        while time.monotonic() < until:
            sequence += 1
            if self.path == "/ws":
                text = '{"type":"ping","id":%d}' % sequence
            else:
                text = "player %d message %d" % (self.index, sequence)
            sent_at = time.monotonic()
            try:
                self.sock.sendall(frame(text.encode()))
                answered = self._await(text, sequence, sent_at + 10)
            except OSError:
                self.lost += 1
                return
            if answered:
                self.rtts.append(time.monotonic() - sent_at)
            else:
                self.lost += 1
            pause = sent_at + PLAYER_INTERVAL - time.monotonic()
            if pause > 0:
                time.sleep(pause)

    def _await(self, text, sequence, deadline):
        self.sock.settimeout(max(0.01, deadline - time.monotonic()))
        while True:
            try:
                got = self.reader.next()
            except socket.timeout:
                return False
            if got is None:
                return False
            opcode, payload = got
            if opcode != 0x1:
                continue
            if self.path == "/ws":
                try:
                    message = json.loads(payload)
                except ValueError:
                    continue
                if message.get("type") == "pong" and message.get("id") == sequence:
                    return True
            elif payload.decode(errors="replace") == text:
                return True


def start_server(binary, threads):
    help_text = subprocess.run([binary, "--help"], capture_output=True, text=True).stdout
    args = [binary, "--host", "127.0.0.1", "--port", "0", "--threads", str(threads)]
    if "--bench-echo" in help_text:
        args.append("--bench-echo")
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               start_new_session=True)
    deadline = time.monotonic() + 30
    said = []
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], 1)
        if not ready:
            continue
        line = process.stdout.readline()
        if not line:
            break
        said.append(line.strip())
        match = re.search(r"running at http://[^ ]*:(\d+)", line)
        if match:
            threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()
            return process, int(match.group(1))
    stop_server(process)
    raise RuntimeError("%s did not print its start line: %s" % (binary, " / ".join(said[-3:])))


def stop_server(process):
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def percentile(values, fraction):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def run_case(binary, threads, path, seconds, rate):
    process, port = start_server(binary, threads)
    try:
        players = [Player(port, path, index) for index in range(PLAYERS)]
        # A quiet second first: the players' round trips without the attack.
        quiet_until = time.monotonic() + 1
        threads_ = [threading.Thread(target=p.run, args=(quiet_until,)) for p in players]
        for t in threads_:
            t.start()
        for t in threads_:
            t.join()
        quiet = [r for p in players for r in p.rtts]
        for p in players:
            p.rtts, p.lost = [], 0
        results = multiprocessing.Queue()
        process_ = multiprocessing.Process(target=attack, args=(port, path, rate, seconds, results))
        process_.start()
        _, compressed_size = results.get(timeout=30)
        until = time.monotonic() + seconds
        workers = [threading.Thread(target=p.run, args=(until,)) for p in players]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        _, closed_after, close_code = results.get(timeout=30)
        process_.join(10)
        rtts = [r for p in players for r in p.rtts]
        return {
            "threads": threads,
            "path": path,
            "quiet_p99_ms": percentile(quiet, 0.99) * 1000,
            "p50_ms": percentile(rtts, 0.50) * 1000,
            "p99_ms": percentile(rtts, 0.99) * 1000,
            "max_ms": max(rtts) * 1000 if rtts else float("nan"),
            "worst_player_p99_ms": max((percentile(p.rtts, 0.99) for p in players if p.rtts), default=float("nan")) * 1000,
            "answers": len(rtts),
            "lost": sum(p.lost for p in players),
            "attack_bytes_per_message": compressed_size,
            "attacker_closed_after_s": closed_after,
            "attacker_close_code": close_code,
        }
    finally:
        stop_server(process)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", action="append",
                        help="LABEL=PATH of a wordrooms binary (repeatable; default NEW=.build/release/wordrooms)")
    parser.add_argument("--threads", default="1,2", help="thread counts to run (default 1,2)")
    parser.add_argument("--paths", default="/echo,/ws", help="where the attack goes (default /echo,/ws)")
    parser.add_argument("--seconds", type=float, default=8, help="attack length per case (default 8)")
    parser.add_argument("--rate", type=float, default=2.7e6, help="attack bytes per second (default 2.7e6)")
    parser.add_argument("--rounds", type=int, default=1, help="times each server runs every case, alternated")
    parser.add_argument("--json", help="write every result to this file")
    args = parser.parse_args()
    servers = []
    for spec in args.server or ["NEW=.build/release/wordrooms"]:
        label, _, path = spec.partition("=")
        servers.append((label, path or label))
    results = []
    print("load average at start: %s" % open("/proc/loadavg").read().split()[:3])
    print("%-5s %-3s %-6s %9s %8s %8s %8s %11s %7s %5s %s" % (
        "build", "thr", "path", "quiet p99", "p50", "p99", "max", "worst p99", "answers", "lost", "attacker"))
    for _ in range(args.rounds):
        for threads in [int(t) for t in args.threads.split(",")]:
            for path in args.paths.split(","):
                for label, binary in servers:
                    result = run_case(binary, threads, path, args.seconds, args.rate)
                    result["build"] = label
                    results.append(result)
                    closed = ("closed %d after %.2f s" % (result["attacker_close_code"] or 0,
                                                         result["attacker_closed_after_s"])
                              if result["attacker_closed_after_s"] is not None else "never closed")
                    print("%-5s %-3d %-6s %7.1fms %6.1fms %6.1fms %6.0fms %9.1fms %7d %5d %s" % (
                        label, threads, path, result["quiet_p99_ms"], result["p50_ms"], result["p99_ms"],
                        result["max_ms"], result["worst_player_p99_ms"], result["answers"], result["lost"],
                        closed), flush=True)
    if args.json:
        with open(args.json, "w") as out:
            json.dump(results, out, indent=1)


if __name__ == "__main__":
    main()
