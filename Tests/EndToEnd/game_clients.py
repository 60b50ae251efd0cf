"""Game-socket (/ws) clients for python_client_test.py: players on the `websockets` package that keep the room
state by applying the server's patches, a frame counter that sees which frames arrived compressed, and a raw
socket client that reads RFC 6455 frames and inflates RFC 7692 messages itself (with zlib, nothing borrowed).

The checks decide what to assert; these only record what happened (states, messages, frames, problems).
"""

import asyncio
import base64
import copy
import hashlib
import json
import os
import struct
import zlib

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Opcode
from websockets.headers import parse_extension

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
# RFC 7692 §7.2.1: a sender strips this tail of its sync flush; the receiver appends it before inflating.
DEFLATE_TAIL = b"\x00\x00\xff\xff"
# English letters by frequency: the order in which the players below guess.
FREQUENCY = "ESIARNTOLCDUGPMHBYFVKWZXQJ"


class Problem(Exception):
    """What a client saw that breaks the protocol (a gap in seq, a patch that does not apply, a bad frame)."""


# --- RFC 6902 JSON Patch, applied in place ------------------------------------------------------------------------


def pointer_tokens(pointer):
    """RFC 6901 §4: the reference tokens of a JSON Pointer (`~1` is `/`, `~0` is `~`, decoded in that order)."""
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise Problem("pointer %r does not start with /" % pointer)
    return [token.replace("~1", "/").replace("~0", "~") for token in pointer[1:].split("/")]


def _index(array, token, for_add):
    if for_add and token == "-":
        return len(array)
    if not token.isdigit() or (len(token) > 1 and token[0] == "0"):
        raise Problem("array index %r" % token)
    index = int(token)
    if index > len(array) or (index == len(array) and not for_add):
        raise Problem("array index %d out of range (%d elements)" % (index, len(array)))
    return index


def _get(document, tokens):
    for token in tokens:
        if isinstance(document, list):
            document = document[_index(document, token, False)]
        elif isinstance(document, dict):
            if token not in document:
                raise Problem("no member %r" % token)
            document = document[token]
        else:
            raise Problem("cannot descend into %r" % type(document).__name__)
    return document


def _add(document, tokens, value):
    if not tokens:
        return value
    parent = _get(document, tokens[:-1])
    if isinstance(parent, list):
        parent.insert(_index(parent, tokens[-1], True), value)
    elif isinstance(parent, dict):
        parent[tokens[-1]] = value
    else:
        raise Problem("cannot add into %r" % type(parent).__name__)
    return document


def _remove(document, tokens):
    if not tokens:
        raise Problem("cannot remove the whole document")
    parent = _get(document, tokens[:-1])
    if isinstance(parent, list):
        return parent.pop(_index(parent, tokens[-1], False))
    if isinstance(parent, dict) and tokens[-1] in parent:
        return parent.pop(tokens[-1])
    raise Problem("nothing to remove at %r" % "/".join(tokens))


def apply_patch(document, operations):
    """RFC 6902: returns the patched document (changed in place where possible)."""
    for operation in operations:
        op, path = operation["op"], pointer_tokens(operation["path"])
        if op == "add":
            document = _add(document, path, copy.deepcopy(operation["value"]))
        elif op == "remove":
            _remove(document, path)
        elif op == "replace":
            if path:
                _get(document, path)   # must exist (§4.3)
                _remove(document, path)
            document = _add(document, path, copy.deepcopy(operation["value"]))
        elif op == "move":
            source = pointer_tokens(operation["from"])
            value = _remove(document, source) if source else document
            document = _add(document, path, value)
        elif op == "copy":
            document = _add(document, path, copy.deepcopy(_get(document, pointer_tokens(operation["from"]))))
        elif op == "test":
            if _get(document, path) != operation["value"]:
                raise Problem("test of %s failed" % operation["path"])
        else:
            raise Problem("unknown op %r" % op)
    return document


# --- What a websockets connection negotiated and received ---------------------------------------------------------


def response_extensions(ws):
    """The server's Sec-WebSocket-Extensions as {name: {parameter: value or None}} (empty when absent)."""
    found = {}
    for value in ws.response.headers.get_all("Sec-WebSocket-Extensions"):
        for name, parameters in parse_extension(value):
            found[name] = dict(parameters)
    return found


def deflate_extension(ws):
    """The PerMessageDeflate that websockets runs on this connection, or None."""
    return next((ext for ext in ws.protocol.extensions if isinstance(ext, PerMessageDeflate)), None)


class FrameCounter:
    """Counts the data frames that start a message, compressed (RSV1) or not, and the compressed sizes.

    It wraps the connection's own PerMessageDeflate.decode, which sees every frame as it came off the wire
    before inflating it; without the extension nothing is counted (websockets then fails any RSV1 frame itself).
    """

    def __init__(self, ws):
        self.compressed = 0
        self.plain = 0
        self.frames = []   # (RSV1 set, payload bytes on the wire) of each message's first frame, in order
        extension = deflate_extension(ws)
        if extension is None:
            return
        decode = extension.decode

        def counting_decode(frame, *, max_size=None):
            if frame.opcode in (Opcode.TEXT, Opcode.BINARY):
                if frame.rsv1:
                    self.compressed += 1
                else:
                    self.plain += 1
                self.frames.append((frame.rsv1, len(frame.data)))
            return decode(frame, max_size=max_size)

        extension.decode = counting_decode


def game_url(target):
    return "ws://%s/ws" % target.hostport


def open_game_socket(target, compression="deflate", extensions=None):
    options = dict(compression=compression, proxy=None, ping_interval=None, max_queue=None, open_timeout=10,
                   close_timeout=5)
    if extensions is not None:
        options["extensions"] = extensions
    return connect(game_url(target), **options)


# --- A player on websockets ---------------------------------------------------------------------------------------


class GameClient:
    """One member of a room on its own websockets connection: applies every patch to its copy of the state.

    A background task reads everything; `until` waits for a condition on what was read. On each `snapshot` it
    records its own state and seq as they were when the snapshot arrived, to be compared with it.
    """

    def __init__(self, name, ws):
        self.name = name
        self.ws = ws
        self.frames = FrameCounter(ws)
        self.state = None
        self.seq = None
        self.you = None
        self.code = None
        self.token = None
        self.key = None
        self.patches = 0
        self.messages = 0
        self.snapshots = []   # (snapshot seq, snapshot state, own seq, own state copy)
        self.errors = []
        self.problems = []
        self.ended = None     # why reading stopped
        self._changed = asyncio.Condition()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, name, target, compression="deflate", extensions=None):
        ws = await open_game_socket(target, compression, extensions)
        return cls(name, ws)

    async def _read(self):
        try:
            async for raw in self.ws:
                self.messages += 1
                try:
                    self._handle(json.loads(raw))
                except (Problem, KeyError, TypeError, ValueError, IndexError) as error:
                    self.problems.append("%s: %s" % (type(error).__name__, error))
                async with self._changed:
                    self._changed.notify_all()
        except ConnectionClosed as closed:
            self.ended = "closed: %s" % closed
        except Exception as error:   # noqa: BLE001 - recorded, and the waiting check fails with it
            self.ended = "%s: %s" % (type(error).__name__, error)
            self.problems.append(self.ended)
        finally:
            self.ended = self.ended or "closed"
            async with self._changed:
                self._changed.notify_all()

    def _handle(self, message):
        kind = message.get("type")
        if kind == "welcome":
            self.you, self.code, self.token = message["you"], message["code"], message["token"]
            self.key = message.get("key")   # a private room's: joins and resumes need it
            if "state" in message:
                self.state = message["state"]
            self.seq = message["seq"]
        elif kind == "patch":
            if self.seq is None or message["seq"] != self.seq + 1:
                raise Problem("patch seq %s after seq %s" % (message["seq"], self.seq))
            self.state = apply_patch(self.state, message["ops"])
            self.seq = message["seq"]
            self.patches += 1
        elif kind == "snapshot":
            self.snapshots.append((message["seq"], message["state"], self.seq, copy.deepcopy(self.state)))
        elif kind == "error":
            self.errors.append(message)

    async def send(self, message):
        await self.ws.send(json.dumps(message))

    async def until(self, predicate, what, timeout=15):
        async with self._changed:
            try:
                await asyncio.wait_for(self._changed.wait_for(lambda: predicate() or self.ended), timeout)
            except asyncio.TimeoutError:
                raise Problem("%s: no %s within %.0f s" % (self.name, what, timeout)) from None
        if not predicate():
            raise Problem("%s: reading ended (%s) before %s" % (self.name, self.ended, what))

    async def create(self, game, settings, public=False):
        await self.send({"type": "create", "game": game, "name": self.name, "public": public, "settings": settings})
        await self.until(lambda: self.you or self.errors, "welcome")
        if not self.you:
            raise Problem("%s: create refused: %s" % (self.name, self.errors[-1]))

    async def join(self, code, spectator=False, key=None):
        message = {"type": "join", "code": code, "name": self.name, "spectator": spectator}
        if key:
            message["key"] = key
        await self.send(message)
        await self.until(lambda: self.you or self.errors, "welcome")
        if not self.you:
            raise Problem("%s: join refused: %s" % (self.name, self.errors[-1]))

    async def resync(self):
        """Asks for a snapshot; returns (snapshot seq, snapshot state, own seq then, own state then)."""
        count = len(self.snapshots)
        await self.send({"type": "resync"})
        await self.until(lambda: len(self.snapshots) > count, "snapshot")
        return self.snapshots[count]

    async def close(self):
        try:
            await asyncio.wait_for(self.ws.close(), 5)
        except Exception:   # noqa: BLE001 - closing is best effort; the checks are done by then
            pass
        self._reader.cancel()


# --- A raw socket client: frames read and inflated here ----------------------------------------------------------


class RawMessage:
    def __init__(self, opcode, data, compressed, wire_size):
        self.opcode = opcode
        self.data = data               # inflated payload
        self.compressed = compressed   # RSV1 on the first frame
        self.wire_size = wire_size     # payload bytes on the wire
        self.standalone = None         # compressed only: it inflates without the earlier messages' window


class RawGameSocket:
    """A WebSocket client written against RFC 6455 and RFC 7692 directly, for looking at the frames themselves.

    It offers `permessage-deflate; client_max_window_bits` (as browsers do) and inflates the server's compressed
    messages with one zlib stream kept across messages, with the window the server stated: a server that used a
    larger window than it said, or that compressed a message against history this client never got, fails here.
    """

    def __init__(self, reader, writer, response_head, window_bits):
        self.reader = reader
        self.writer = writer
        self.response_head = response_head
        self.window_bits = window_bits
        self.inflater = zlib.decompressobj(wbits=-window_bits) if window_bits else None

    @classmethod
    async def open(cls, target, offer="permessage-deflate; client_max_window_bits", timeout=10):
        reader, writer = await asyncio.wait_for(asyncio.open_connection(target.host, target.port), timeout)
        key = base64.b64encode(os.urandom(16)).decode("ascii")
        lines = ["GET /ws HTTP/1.1", "Host: %s" % target.hostport, "Upgrade: websocket", "Connection: Upgrade",
                 "Sec-WebSocket-Key: %s" % key, "Sec-WebSocket-Version: 13"]
        if offer:
            lines.append("Sec-WebSocket-Extensions: %s" % offer)
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("ascii"))
        head = (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)).decode("iso-8859-1")
        status_line, *header_lines = head.split("\r\n")
        if " 101 " not in status_line + " ":
            raise Problem("handshake answered %r" % status_line)
        headers = {}
        for line in header_lines:
            if ":" in line:
                name, value = line.split(":", 1)
                headers.setdefault(name.strip().lower(), []).append(value.strip())
        accept = base64.b64encode(hashlib.sha1((key + GUID).encode("ascii")).digest()).decode("ascii")
        if headers.get("sec-websocket-accept") != [accept]:
            raise Problem("Sec-WebSocket-Accept %r, want %r" % (headers.get("sec-websocket-accept"), accept))
        window_bits = None
        for value in headers.get("sec-websocket-extensions", []):
            for name, parameters in parse_extension(value):
                if name == "permessage-deflate":
                    window_bits = int(dict(parameters).get("server_max_window_bits") or 15)
        return cls(reader, writer, headers, window_bits)

    def extension_header(self):
        return ", ".join(self.response_head.get("sec-websocket-extensions", []))

    def _send_frame(self, opcode, payload, rsv1=False, fin=True):
        mask = os.urandom(4)
        first = (0x80 if fin else 0) | (0x40 if rsv1 else 0) | opcode
        length = len(payload)
        if length < 126:
            head = struct.pack("!BB", first, 0x80 | length)
        elif length < 1 << 16:
            head = struct.pack("!BBH", first, 0x80 | 126, length)
        else:
            head = struct.pack("!BBQ", first, 0x80 | 127, length)
        masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        self.writer.write(head + mask + masked)

    async def send_text(self, text, compress=False):
        """One text message; compressed with a fresh context (the server asked for client_no_context_takeover)."""
        payload = text.encode("utf-8")
        if compress:
            deflater = zlib.compressobj(wbits=-15)
            payload = deflater.compress(payload) + deflater.flush(zlib.Z_SYNC_FLUSH)
            if not payload.endswith(DEFLATE_TAIL):
                raise Problem("zlib's sync flush did not end in 00 00 ff ff")
            payload = payload[:-len(DEFLATE_TAIL)]
        self._send_frame(0x1, payload, rsv1=compress)
        await self.writer.drain()

    async def send_json(self, message, compress=False):
        await self.send_text(json.dumps(message), compress)

    async def _read_frame(self, timeout):
        head = await asyncio.wait_for(self.reader.readexactly(2), timeout)
        fin, rsv, opcode = head[0] & 0x80, head[0] & 0x70, head[0] & 0x0F
        if head[1] & 0x80:
            raise Problem("the server masked a frame (RFC 6455 §5.1)")
        length = head[1] & 0x7F
        if length == 126:
            (length,) = struct.unpack("!H", await self.reader.readexactly(2))
        elif length == 127:
            (length,) = struct.unpack("!Q", await self.reader.readexactly(8))
        payload = await asyncio.wait_for(self.reader.readexactly(length), timeout)
        return bool(fin), rsv, opcode, payload

    async def receive(self, timeout=10):
        """The next data message (pings answered, RSV bits checked); raises Problem on a close."""
        fragments, first = [], None
        while True:
            fin, rsv, opcode, payload = await self._read_frame(timeout)
            if opcode >= 0x8:
                if rsv:
                    raise Problem("RSV bits 0x%x on a control frame (RFC 7692 §6.1)" % rsv)
                if opcode == 0x9:
                    self._send_frame(0xA, payload)
                    continue
                if opcode == 0x8:
                    code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                    raise Problem("the server closed (code %s, %r)" % (code, payload[2:]))
                continue
            if first is None:
                if opcode == 0x0:
                    raise Problem("a continuation frame with no message started")
                if rsv & 0x30 or (rsv & 0x40 and self.inflater is None):
                    raise Problem("RSV bits 0x%x without a negotiated extension that defines them" % rsv)
                first = (opcode, bool(rsv & 0x40))
            elif opcode != 0x0 or rsv:
                raise Problem("opcode %d / RSV 0x%x inside a fragmented message" % (opcode, rsv))
            fragments.append(payload)
            if fin:
                break
        opcode, compressed = first
        wire = b"".join(fragments)
        if not compressed:
            return RawMessage(opcode, wire, False, len(wire))
        try:
            data = self.inflater.decompress(wire + DEFLATE_TAIL)
        except zlib.error as error:
            raise Problem("a compressed message does not inflate with the stated %d-bit window and the "
                          "window of the earlier messages: %s" % (self.window_bits, error)) from None
        message = RawMessage(opcode, data, True, len(wire))
        # Whether it refers back into earlier messages: inflate it again without them.
        try:
            message.standalone = zlib.decompressobj(wbits=-self.window_bits).decompress(wire + DEFLATE_TAIL) == data
        except zlib.error:
            message.standalone = False
        return message

    async def close(self):
        try:
            self._send_frame(0x8, struct.pack("!H", 1000))
            await asyncio.wait_for(self.writer.drain(), 2)
        except (OSError, asyncio.TimeoutError):
            pass
        self.writer.close()
