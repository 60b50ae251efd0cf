#!/usr/bin/env python3
"""Chooses, by measurement, windowBits and memLevel for a per-room permessage-deflate compressor.

The model (RFC 7692 with context takeover, one compressor per ROOM): every member of a room receives the same
sequence of `patch` messages, so the room compresses each patch once, raw deflate with Z_SYNC_FLUSH and the
4-byte tail 00 00 ff ff stripped, and the history carries over from message to message. When a member joins
(or a dropped member comes back on a new connection) the stream restarts: the history is emptied, as after
Z_FULL_FLUSH, so that the newcomer's fresh decompressor can follow.

Usage:
    deflate_window.py [--record DIR] [--duration S]     # build, run the bots, record, then analyse
    deflate_window.py --replay DIR [DIR...]             # analyse recordings made before, their rooms together

Recording: builds the release binaries (`swift build -c release`, skipped with --no-build), starts
`.build/release/wordrooms --host 127.0.0.1 --port 0`, subscribes to the lobby over a WebSocket of its own
(standard library: socket, handshake, frames; no extension offered), then runs
`wordrooms-bots play --rooms 2 --players 8 --rate 1 --duration S --quiet` for Snowman and then for Word
Scramble. Each public room of that game that shows up in the lobby gets a spectator (`join` with
`"spectator": true`) on a socket of its own, which writes the text of every `patch` it receives, exactly as
received, one per line, to DIR/<game>-<code>.jsonl.

Analysis: for each game (its rooms are separate streams, summed), each windowBits 9..15 and memLevel 1..9 at
level 6 (and level 1 for the recommended pair): plain bytes, compressed bytes with context takeover, the same
with no context takeover (each message on its own), deflate memory (measured through zlib's allocator hook with
ctypes; it matches zlib's formula (1 << (windowBits+2)) + (1 << (memLevel+9)) plus 6,064 B of state), and
CPU per message (median of 3 passes over the sequence). Prints the tables and a recommendation: the cheapest
pair within the memory budget (--budget, 24 KiB per room) whose ratio meets --target (25%) in every game, then
one more windowBits or memLevel while a step stays within the budget and still cuts the bytes by --knee (20%).
--restart-every N adds stream restarts, to see what frequent joins cost. Standard library only.
"""

import argparse
import base64
import ctypes
import ctypes.util
import glob
import hashlib
import itertools
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zlib

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
GAMES = ("snowman", "scramble")
WBITS = range(9, 16)
MEMLEVELS = range(1, 10)
TAIL = b"\x00\x00\xff\xff"
GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


# --------------------------------------------------------------------------------------------------------------
# A minimal WebSocket client (RFC 6455, client side): text messages, ping/pong, close.

class WebSocketClosed(Exception):
    pass


class WebSocketClient:
    def __init__(self, host, port, path="/ws", timeout=10.0):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.buf = bytearray()
        self.lock = threading.Lock()
        key = base64.b64encode(os.urandom(16)).decode()
        request = (f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                   f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
        self.sock.sendall(request.encode())
        while b"\r\n\r\n" not in self.buf:
            self._fill()
        head, _, rest = bytes(self.buf).partition(b"\r\n\r\n")
        self.buf = bytearray(rest)
        lines = head.decode("latin-1").split("\r\n")
        if not lines[0].startswith("HTTP/1.1 101"):
            raise RuntimeError(f"handshake refused: {lines[0]}")
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
        if headers.get("sec-websocket-accept") != accept:
            raise RuntimeError("handshake: wrong Sec-WebSocket-Accept")
        if "sec-websocket-extensions" in headers:
            raise RuntimeError("handshake: the server answered with an extension nobody offered")

    def _fill(self):
        data = self.sock.recv(65536)  # socket.timeout propagates; what is buffered stays buffered
        if not data:
            raise WebSocketClosed("connection ended")
        self.buf += data

    def _send_frame(self, opcode, payload):
        mask = os.urandom(4)
        length = len(payload)
        if length < 126:
            header = bytes([0x80 | opcode, 0x80 | length])
        elif length < 65536:
            header = bytes([0x80 | opcode, 0x80 | 126]) + length.to_bytes(2, "big")
        else:
            header = bytes([0x80 | opcode, 0x80 | 127]) + length.to_bytes(8, "big")
        masked = bytes(b ^ m for b, m in zip(payload, itertools.cycle(mask)))
        with self.lock:
            self.sock.sendall(header + mask + masked)

    def send_json(self, value):
        self._send_frame(0x1, json.dumps(value, separators=(",", ":")).encode())

    def _frame(self):
        """One whole frame (fin, opcode, payload), or socket.timeout with nothing consumed."""
        while True:
            if len(self.buf) >= 2:
                fin, opcode = self.buf[0] & 0x80, self.buf[0] & 0x0F
                if self.buf[0] & 0x70:
                    raise RuntimeError("reserved bits set: no extension was negotiated")
                masked, length, offset = self.buf[1] & 0x80, self.buf[1] & 0x7F, 2
                if length == 126 and len(self.buf) >= 4:
                    length, offset = int.from_bytes(self.buf[2:4], "big"), 4
                elif length == 127 and len(self.buf) >= 10:
                    length, offset = int.from_bytes(self.buf[2:10], "big"), 10
                elif length >= 126:
                    length = None
                if masked:
                    raise RuntimeError("the server masked a frame")
                if length is not None and len(self.buf) >= offset + length:
                    payload = bytes(self.buf[offset:offset + length])
                    del self.buf[:offset + length]
                    return fin, opcode, payload
            self._fill()

    def recv(self):
        """The next text message as str; raises WebSocketClosed at a close frame or the end."""
        parts = []
        while True:
            fin, opcode, payload = self._frame()
            if opcode == 0x9:
                self._send_frame(0xA, payload)
                continue
            if opcode == 0xA:
                continue
            if opcode == 0x8:
                try:
                    self._send_frame(0x8, payload[:2])
                except OSError:
                    pass
                raise WebSocketClosed(f"close {int.from_bytes(payload[:2], 'big') if payload else ''}")
            if opcode == 0x2:
                raise RuntimeError("binary frame from the game socket")
            parts.append(payload)
            if fin:
                return b"".join(parts).decode("utf-8")

    def close(self):
        try:
            self._send_frame(0x8, (1000).to_bytes(2, "big"))
        except OSError:
            pass
        try:
            self.sock.close()
        except OSError:
            pass


# --------------------------------------------------------------------------------------------------------------
# Recording

class Spectator(threading.Thread):
    """Watches one room and keeps every patch text it receives."""

    def __init__(self, host, port, code, game, number):
        super().__init__(daemon=True)
        self.host, self.port, self.code, self.game, self.number = host, port, code, game, number
        self.patches = []
        self.welcome_bytes = 0
        self.problems = []
        self.stop = threading.Event()
        self.client = None

    def run(self):
        try:
            self.client = WebSocketClient(self.host, self.port)
            self.client.send_json({"type": "join", "code": self.code, "name": f"dwin-watch{self.number}",
                                   "spectator": True})
            self.client.sock.settimeout(0.5)
            seq = None
            while not self.stop.is_set():
                try:
                    text = self.client.recv()
                except socket.timeout:
                    continue
                message = json.loads(text)
                kind = message.get("type")
                if kind == "welcome":
                    seq, self.welcome_bytes = message["seq"], len(text.encode())
                elif kind == "patch":
                    if "\n" in text:
                        self.problems.append("a patch text holds a newline")
                    if seq is not None and message["seq"] != seq + 1:
                        self.problems.append(f"seq gap: {seq} then {message['seq']}")
                    seq = message["seq"]
                    self.patches.append(text)
                elif kind == "error":
                    self.problems.append(f"error: {text}")
                    if seq is None:
                        return
        except WebSocketClosed:
            pass
        except Exception as error:  # a recording problem is reported, not hidden
            self.problems.append(f"{type(error).__name__}: {error}")


class LobbyWatcher(threading.Thread):
    """Subscribes to the lobby and sends a spectator into each new public room of the current game."""

    def __init__(self, host, port):
        super().__init__(daemon=True)
        self.host, self.port = host, port
        self.game = None
        self.seen = set()
        self.spectators = []
        self.stop = threading.Event()
        self.problems = []
        self.mutex = threading.Lock()

    def run(self):
        try:
            client = WebSocketClient(self.host, self.port)
            client.send_json({"type": "lobby", "subscribe": True})
            client.sock.settimeout(0.5)
            while not self.stop.is_set():
                try:
                    message = json.loads(client.recv())
                except socket.timeout:
                    continue
                if message.get("type") != "lobby":
                    continue
                for room in message.get("rooms", []):
                    with self.mutex:
                        if room["code"] in self.seen or room.get("game") != self.game:
                            continue
                        self.seen.add(room["code"])
                        spectator = Spectator(self.host, self.port, room["code"], room["game"],
                                              len(self.spectators) + 1)
                        self.spectators.append(spectator)
                    spectator.start()
            client.close()
        except Exception as error:
            self.problems.append(f"lobby: {type(error).__name__}: {error}")


def build(no_build):
    server = os.path.join(ROOT, ".build", "release", "wordrooms")
    bots = os.path.join(ROOT, ".build", "release", "wordrooms-bots")
    if not no_build:
        env = dict(os.environ)
        if shutil.which("swift", path=env.get("PATH")) is None and os.path.isdir("/opt/swift/usr/bin"):
            env["PATH"] = "/opt/swift/usr/bin:" + env.get("PATH", "")
        print("building: swift build -c release", file=sys.stderr, flush=True)
        subprocess.run(["swift", "build", "-c", "release"], cwd=ROOT, env=env, check=True,
                       stdout=subprocess.DEVNULL)
    for path in (server, bots):
        if not os.access(path, os.X_OK):
            sys.exit(f"missing {path}: build it with swift build -c release")
    return server, bots


def record(directory, duration, no_build):
    server_path, bots_path = build(no_build)
    os.makedirs(directory, exist_ok=True)
    for old in glob.glob(os.path.join(directory, "*.jsonl")):
        os.remove(old)
    log = open(os.path.join(directory, "server.log"), "w+")
    server = subprocess.Popen([server_path, "--host", "127.0.0.1", "--port", "0"], cwd=ROOT,
                              stdout=log, stderr=subprocess.STDOUT)
    meta = {"duration": duration, "games": {}, "problems": []}
    try:
        port = None
        deadline = time.monotonic() + 20
        while port is None and time.monotonic() < deadline:
            if server.poll() is not None:
                sys.exit(f"the server exited with {server.returncode}; see {log.name}")
            log.seek(0)
            match = re.search(r"https?://[^\s/]+:(\d+)/", log.readline())
            if match:
                port = int(match.group(1))
            else:
                time.sleep(0.1)
        if port is None:
            sys.exit(f"no start line from the server; see {log.name}")
        print(f"server pid {server.pid} on port {port}", file=sys.stderr, flush=True)
        lobby = LobbyWatcher("127.0.0.1", port)
        lobby.start()
        for game in GAMES:
            with lobby.mutex:
                lobby.game = game
                first = len(lobby.spectators)
            command = [bots_path, "play", "--url", f"ws://127.0.0.1:{port}", "--rooms", "2", "--players", "8",
                       "--game", game, "--rate", "1", "--duration", str(duration), "--quiet"]
            print("running: " + " ".join(command[1:]), file=sys.stderr, flush=True)
            with open(os.path.join(directory, f"bots-{game}.txt"), "w") as out:
                status = subprocess.run(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT).returncode
            time.sleep(1.0)  # the last patches (bots leaving) arrive
            with lobby.mutex:
                lobby.game = None
                spectators = lobby.spectators[first:]
            for spectator in spectators:
                spectator.stop.set()
            for spectator in spectators:
                spectator.join(5)
                if spectator.client:
                    spectator.client.close()
                with open(os.path.join(directory, f"{game}-{spectator.code}.jsonl"), "w") as out:
                    for text in spectator.patches:
                        out.write(text + "\n")
                meta["problems"] += [f"{spectator.code}: {p}" for p in spectator.problems]
            meta["games"][game] = {"bots_exit_status": status,
                                   "rooms": {s.code: {"patches": len(s.patches), "welcome_bytes": s.welcome_bytes}
                                             for s in spectators}}
            print(f"{game}: bots exit {status}; rooms watched: "
                  + ", ".join(f"{s.code} ({len(s.patches)} patches)" for s in spectators),
                  file=sys.stderr, flush=True)
            if not spectators:
                meta["problems"].append(f"{game}: no room seen in the lobby")
        lobby.stop.set()
        lobby.join(5)
        meta["problems"] += lobby.problems
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        log.close()
    with open(os.path.join(directory, "meta.json"), "w") as out:
        json.dump(meta, out, indent=2)
    for problem in meta["problems"]:
        print("recording problem: " + problem, file=sys.stderr)


# --------------------------------------------------------------------------------------------------------------
# Analysis

def is_restart(ops):
    """A member joined (a new connection entered the room): the room's stream restarts before this patch."""
    for op in ops:
        path = op.get("path", "")
        if op.get("op") == "add" and re.fullmatch(r"/members/(\d+|-)", path):
            return True
        if op.get("op") == "replace" and re.fullmatch(r"/members/\d+/connected", path) and op.get("value") is True:
            return True
        if op.get("op") == "replace" and path == "/members":
            return True
    return False


def load(directories, restart_every=0):
    """{game: [room stream: [(bytes, restart_before)]]}; restart_every N > 0 adds a restart every N patches."""
    streams = {}
    for path in sorted(p for d in directories for p in glob.glob(os.path.join(d, "*.jsonl"))):
        game = os.path.basename(path).split("-", 1)[0]
        with open(path, encoding="utf-8") as handle:
            texts = [line.rstrip("\n") for line in handle if line.strip()]
        if not texts:
            continue
        stream = [(t.encode("utf-8"), i > 0 and (is_restart(json.loads(t).get("ops", []))
                                                 or (restart_every > 0 and i % restart_every == 0)))
                  for i, t in enumerate(texts)]
        streams.setdefault(game, []).append(stream)
    return streams


def compress_context(stream, level, wbits, memlevel):
    total = 0
    c = None
    for data, restart in stream:
        if c is None or restart:
            c = zlib.compressobj(level, zlib.DEFLATED, -wbits, memlevel)
        out = c.compress(data) + c.flush(zlib.Z_SYNC_FLUSH)
        assert out.endswith(TAIL)
        total += len(out) - 4
    return total


def compress_alone(stream, level, wbits, memlevel):
    total = 0
    for data, _ in stream:
        c = zlib.compressobj(level, zlib.DEFLATED, -wbits, memlevel)
        total += len(c.compress(data) + c.flush(zlib.Z_SYNC_FLUSH)) - 4
    return total


def check_roundtrip(stream, level, wbits, memlevel):
    """The receivers' side: one decompressor per member since the last restart, fed each message + tail."""
    d = None
    c = None
    for data, restart in stream:
        if c is None or restart:
            c = zlib.compressobj(level, zlib.DEFLATED, -wbits, memlevel)
            d = zlib.decompressobj(-wbits)
        out = (c.compress(data) + c.flush(zlib.Z_SYNC_FLUSH))[:-4]
        if d.decompress(out + TAIL) != data:
            raise AssertionError("round trip failed")


# zlib's deflate memory: deflateInit2 allocates the state and, at once, window (2 x wsize bytes), prev
# (wsize x 2), head (hash_size x 2 = 2 << (memLevel + 7)) and pending_buf (lit_bufsize x 4, lit_bufsize = 1 <<
# (memLevel + 6)): (1 << (windowBits + 2)) + (1 << (memLevel + 9)) + sizeof(deflate_state), as zconf.h says
# ("plus a few kilobytes for small objects").

class ZStream(ctypes.Structure):
    pass


ALLOC = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint)
FREE = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)
ZStream._fields_ = [("next_in", ctypes.c_void_p), ("avail_in", ctypes.c_uint), ("total_in", ctypes.c_ulong),
                    ("next_out", ctypes.c_void_p), ("avail_out", ctypes.c_uint), ("total_out", ctypes.c_ulong),
                    ("msg", ctypes.c_char_p), ("state", ctypes.c_void_p), ("zalloc", ALLOC), ("zfree", FREE),
                    ("opaque", ctypes.c_void_p), ("data_type", ctypes.c_int), ("adler", ctypes.c_ulong),
                    ("reserved", ctypes.c_ulong)]


def measured_memory():
    """{(wbits, memlevel): bytes zlib allocates in deflateInit2}, measured via the zalloc hook, or None."""
    try:
        libz = ctypes.CDLL(ctypes.util.find_library("z") or "libz.so.1")
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.calloc.restype, libc.calloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t, ctypes.c_size_t]
        libc.free.argtypes = [ctypes.c_void_p]
        libz.zlibVersion.restype = ctypes.c_char_p
        version = libz.zlibVersion()
        result = {}
        for wbits in WBITS:
            for memlevel in MEMLEVELS:
                allocated = [0]

                def alloc(_opaque, items, size, allocated=allocated):
                    allocated[0] += items * size
                    return libc.calloc(items, size)

                def free(_opaque, address):
                    libc.free(address)

                stream = ZStream()
                stream.zalloc, stream.zfree = ALLOC(alloc), FREE(free)
                status = libz.deflateInit2_(ctypes.byref(stream), 6, 8, -wbits, memlevel, 0, version,
                                            ctypes.sizeof(ZStream))
                if status != 0:
                    return None
                libz.deflateEnd(ctypes.byref(stream))
                result[(wbits, memlevel)] = allocated[0] + ctypes.sizeof(ZStream)
        return result, version.decode()
    except (OSError, AttributeError):
        return None


def formula_memory(wbits, memlevel, state=6064):
    """zlib's formula plus the state: sizeof(deflate_state) 5,952 + sizeof(z_stream) 112 on 64-bit zlib 1.2.13."""
    return (1 << (wbits + 2)) + (1 << (memlevel + 9)) + state


def timed(function, *args, repeat=3):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function(*args)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def analyse(directories, budget, target, knee, members, repeat, restart_every):
    streams = load(directories, restart_every)
    if not streams:
        sys.exit(f"no recording in {' '.join(directories)}")
    measured = measured_memory()
    memory, memory_source = {}, "formula (1 << (wbits+2)) + (1 << (memLevel+9)) + 6,064 B of state"
    if measured:
        memory = measured[0]
        memory_source = f"measured: bytes zlib {measured[1]} allocates in deflateInit2 + the 112-byte z_stream"
    else:
        memory = {(w, m): formula_memory(w, m) for w in WBITS for m in MEMLEVELS}

    games = [g for g in GAMES if g in streams] + sorted(g for g in streams if g not in GAMES)
    results = {}  # (game, level, wbits, memlevel) -> dict
    for game in games:
        rooms = streams[game]
        messages = sum(len(s) for s in rooms)
        plain = sum(len(d) for s in rooms for d, _ in s)
        restarts = sum(r for s in rooms for _, r in s)
        print(f"\n{game}: {len(rooms)} rooms, {messages} patches, {plain} bytes, average {plain / messages:.0f} B "
              f"(median {statistics.median(len(d) for s in rooms for d, _ in s):.0f} B, "
              f"max {max(len(d) for s in rooms for d, _ in s)} B), {restarts} stream restarts (joins)")
        for wbits in WBITS:
            for memlevel in MEMLEVELS:
                ctx = sum(compress_context(s, 6, wbits, memlevel) for s in rooms)
                alone = sum(compress_alone(s, 6, wbits, memlevel) for s in rooms)
                seconds = timed(lambda: [compress_context(s, 6, wbits, memlevel) for s in rooms], repeat=repeat)
                results[(game, 6, wbits, memlevel)] = dict(plain=plain, ctx=ctx, alone=alone, messages=messages,
                                                           us=seconds / messages * 1e6)
        for s in rooms:
            check_roundtrip(s, 6, 9, 1)
            check_roundtrip(s, 6, 15, 8)

        print("  ratio with context takeover, level 6 (compressed / plain, %); columns memLevel")
        print("  wbits " + "".join(f"{m:>7}" for m in MEMLEVELS))
        for wbits in WBITS:
            print(f"  {wbits:>5} " + "".join(
                f"{100 * results[(game, 6, wbits, m)]['ctx'] / plain:>7.1f}" for m in MEMLEVELS))
        best_alone = min(results[(game, 6, w, m)]["alone"] for w in WBITS for m in MEMLEVELS)
        print(f"  no context takeover (each patch alone): {100 * results[(game, 6, 15, 8)]['alone'] / plain:.1f}% "
              f"at 15/8, best {100 * best_alone / plain:.1f}%")

    print(f"\ndeflate memory per room, KiB ({memory_source}); columns memLevel")
    print("  wbits " + "".join(f"{m:>7}" for m in MEMLEVELS))
    for wbits in WBITS:
        print(f"  {wbits:>5} " + "".join(f"{memory[(wbits, m)] / 1024:>7.1f}" for m in MEMLEVELS))

    def combined(level, wbits, memlevel, key):
        return sum(results[(g, level, wbits, memlevel)][key] for g in games)

    # The recommendation: start from the cheapest pair within the memory budget whose ratio meets the target
    # in every game; then take one more windowBits (or memLevel) while that step stays within the budget and
    # cuts the compressed bytes (both games) by at least `knee`. The cheapest pair may only just meet the
    # target on this recording; a step that still buys a large cut is worth its memory, one past the knee is
    # not.
    within = [(w, m) for w in WBITS for m in MEMLEVELS if memory[(w, m)] <= budget]
    ratio = lambda w, m: combined(6, w, m, "ctx") / combined(6, w, m, "plain")
    meeting = [(w, m) for (w, m) in within
               if all(results[(g, 6, w, m)]["ctx"] <= target * results[(g, 6, w, m)]["plain"] for g in games)]
    cheapest = min(meeting, key=lambda p: (memory[p], ratio(*p))) if meeting else None
    if cheapest:
        choice = cheapest
    elif within:
        choice = min(within, key=lambda p: ratio(*p))
    else:
        choice = min(memory, key=memory.get)
    while True:
        w, m = choice
        steps = [p for p in [(w + 1, m), (w, m + 1)]
                 if p in memory and memory[p] <= budget and ratio(*p) <= (1 - knee) * ratio(*choice)]
        if not steps:
            break
        choice = min(steps, key=lambda p: ratio(*p))
    w, m = choice
    step_cuts = {p: 1 - ratio(*p) / ratio(*choice) for p in [(w + 1, m), (w, m + 1)] if p in memory}
    for game in games:
        rooms = streams[game]
        ctx = sum(compress_context(s, 1, *choice) for s in rooms)
        seconds = timed(lambda: [compress_context(s, 1, *choice) for s in rooms], repeat=repeat)
        base = results[(game, 6) + choice]
        results[(game, 1) + choice] = dict(base, ctx=ctx, us=seconds / base["messages"] * 1e6)

    # The detail table: for each windowBits the best memLevel within the budget, the recommended pair, the
    # pairs next to it, and the defaults (15/8) for reference.
    rows = set()
    for w in WBITS:
        candidates = [(w, m) for m in MEMLEVELS if memory[(w, m)] <= budget]
        if candidates:
            rows.add(min(candidates, key=lambda p: ratio(*p)))
            rows.add(min(candidates, key=lambda p: memory[p]))
    w, m = choice
    rows |= {p for p in [(w - 1, m), (w + 1, m), (w, m - 1), (w, m + 1), (15, 8), (15, 9), (12, 8)] + [cheapest]
             if p is not None
             and p[0] in WBITS and p[1] in MEMLEVELS}
    header = (f"\n{'wbits':>5} {'mem':>3} {'lvl':>3} {'KiB/room':>8} {'B/conn':>6} | "
              + " | ".join(f"{g + ' ctx%':>12} {'alone%':>6} {'us/msg':>6}" for g in games) + " | both ctx%")
    print(header)
    print("-" * (len(header) - 1))
    for (w, m) in sorted(rows, key=lambda p: (memory[p], p)):
        for level in ((6, 1) if (w, m) == choice else (6,)):
            cells = []
            for g in games:
                r = results[(g, level, w, m)]
                cells.append(f"{100 * r['ctx'] / r['plain']:>12.1f} {100 * r['alone'] / r['plain']:>6.1f} "
                             f"{r['us']:>6.1f}")
            mark = "  <- recommended" if (w, m) == choice and level == 6 else ""
            print(f"{w:>5} {m:>3} {level:>3} {memory[(w, m)] / 1024:>8.1f} {memory[(w, m)] / members:>6.0f} | "
                  + " | ".join(cells) + f" | {100 * combined(level, w, m, 'ctx') / combined(level, w, m, 'plain'):>8.1f}"
                  + mark)

    r15 = ratio(15, 8)
    if cheapest and cheapest != choice:
        print(f"\ncheapest pair meeting {100 * target:.0f}% in every game: {cheapest[0]}/{cheapest[1]}, "
              f"{memory[cheapest] / 1024:.1f} KiB, {100 * ratio(*cheapest):.1f}% over both games, worst game "
              f"{100 * max(results[(g, 6) + cheapest]['ctx'] / results[(g, 6) + cheapest]['plain'] for g in games):.1f}%")
    print(f"\nrecommendation: windowBits {choice[0]}, memLevel {choice[1]} (level 6): "
          f"{memory[choice] / 1024:.1f} KiB per room ({memory[choice] / members:.0f} B per connection at "
          f"{members} members), compressed {100 * ratio(*choice):.1f}% of plain over both games "
          f"(zlib's default 15/8: {100 * r15:.1f}% for {memory[(15, 8)] / 1024:.0f} KiB)")
    print(f"rule: the cheapest pair within {budget / 1024:.0f} KiB whose ratio is at most {100 * target:.0f}% in every "
          f"game, then one step more windowBits or memLevel while it stays within the budget and cuts the bytes by "
          f"{100 * knee:.0f}% or more; the next steps would cut "
          + ", ".join(f"{100 * cut:.0f}% ({p[0]}/{p[1]}, {memory[p] / 1024:.1f} KiB)" for p, cut in step_cuts.items()))
    return results, choice


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--record", metavar="DIR", help="record into DIR (default: a new scratch directory)")
    parser.add_argument("--replay", metavar="DIR", nargs="+",
                        help="analyse the recordings in DIR... (their rooms together); no server, no bots")
    parser.add_argument("--duration", type=int, default=30, help="seconds of each bot run (default 30)")
    parser.add_argument("--no-build", action="store_true", help="use the release binaries as they are")
    parser.add_argument("--budget", type=float, default=24, help="KiB of deflate memory per room (default 24)")
    parser.add_argument("--target", type=float, default=25, help="largest compressed %% of plain (default 25)")
    parser.add_argument("--knee", type=float, default=20,
                        help="a step up in windowBits or memLevel must cut compressed bytes by this %% (default 20)")
    parser.add_argument("--restart-every", type=int, default=0, metavar="N",
                        help="also restart each room's stream every N patches, as if members joined that often")
    parser.add_argument("--members", type=int, default=8, help="members per room, for the per-connection cost")
    parser.add_argument("--repeat", type=int, default=3, help="timing passes, the median is kept (default 3)")
    args = parser.parse_args()
    if args.replay:
        directories = args.replay
    else:
        directories = [args.record or tempfile.mkdtemp(prefix="deflate-window-")]
        record(directories[0], args.duration, args.no_build)
        print(f"recorded into {directories[0]} (reuse it with --replay)", file=sys.stderr)
    print(f"zlib {zlib.ZLIB_RUNTIME_VERSION}; recordings: {' '.join(directories)}")
    analyse(directories, args.budget * 1024, args.target / 100, args.knee / 100, args.members, args.repeat,
            args.restart_every)


if __name__ == "__main__":
    main()
