#!/usr/bin/env python3
"""End-to-end checks of a running WordRooms server, with the `websockets` package as a third-party peer: HTTP,
the handshake, /echo (plain, then with permessage-deflate under several offers), and game sockets (/ws) with
compression on (rooms played through by compressing and plain players; see game_clients.py).

    python_client_test.py --url http://127.0.0.1:PORT/ [--cap-url http://127.0.0.1:PORT2/] [--cap-bytes 65536]

--url        the server under test (http://HOST:PORT/ or ws://HOST:PORT/echo); it must accept messages of
             at least 1 MiB (the harness starts it with --max-message-bytes 16777216).
--cap-url    a server started with --max-message-bytes CAP, for the message-size checks (default: --url).
--cap-bytes  that CAP (default 65536).
--skip-cap   skip the message-size checks (cap_*).
--skip-deflate  skip the permessage-deflate and game-socket checks (every name with "deflate"), for a server
             without them (the harness's stand-in).
--only       run only the checks whose name contains this text (repeatable).

Prints `PASS name` / `FAIL name: why` per check, then `python-client: N passed, M failed`.
Exit status: 0 when every check passed, 1 otherwise, 2 on bad arguments.
"""

import argparse
import asyncio
import base64
import collections
import hashlib
import json
import os
import random
import string
import sys
import time
import urllib.parse

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory

from game_clients import (FREQUENCY, FrameCounter, GameClient, RawGameSocket, apply_patch, deflate_extension,
                          response_extensions)

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
SIZES = (0, 125, 126, 65535, 65536, 1 << 20)


class CheckFailed(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise CheckFailed(message)


class Target:
    """host/port of a server, from http://HOST:PORT/... or ws://HOST:PORT/..."""

    def __init__(self, url):
        parsed = urllib.parse.urlsplit(url)
        if parsed.scheme not in ("http", "ws") or not parsed.hostname or not parsed.port:
            raise ValueError("need http://HOST:PORT/ or ws://HOST:PORT/echo, got %r" % url)
        self.host = parsed.hostname
        self.port = parsed.port
        netloc = "[%s]" % self.host if ":" in self.host else self.host
        self.hostport = "%s:%d" % (netloc, self.port)
        self.echo_url = "ws://%s/echo" % self.hostport


def client(target, **options):
    settings = dict(
        compression=None,     # plain frames; the deflate_* checks turn permessage-deflate on
        proxy=None,           # never go through an HTTP proxy from the environment
        ping_interval=None,   # only the pings the checks send
        max_size=64 << 20,
        max_queue=None,
        open_timeout=10,
        close_timeout=10,
    )
    settings.update(options)
    return connect(target.echo_url, **settings)


def text_of_size(size, seed):
    """A str whose UTF-8 encoding is exactly `size` bytes, with 2-, 3- and 4-byte characters mixed in."""
    block = ["a", "Z", "7", " ", "é", "ß", "€", "✓", "😀", "q"]
    random.Random(seed).shuffle(block)
    block = "".join(block)
    width = len(block.encode("utf-8"))
    text = block * (size // width)
    text += "x" * (size - len(text.encode("utf-8")))
    assert len(text.encode("utf-8")) == size
    return text


def describe(data):
    kind = "text" if isinstance(data, str) else "binary"
    length = len(data.encode("utf-8")) if isinstance(data, str) else len(data)
    return "%s of %d bytes" % (kind, length)


async def raw_http(target, request_head, read_body=True, timeout=10.0):
    """Sends raw bytes, returns (status, {lowercased header: value}, body). No normalisation of the target."""
    reader, writer = await asyncio.wait_for(asyncio.open_connection(target.host, target.port), timeout)
    try:
        writer.write(request_head)
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
        lines = head.decode("iso-8859-1").split("\r\n")
        parts = lines[0].split(" ", 2)
        expect(len(parts) >= 2 and parts[0].startswith("HTTP/1."), "not an HTTP/1.x status line: %r" % lines[0])
        status = int(parts[1])
        headers = {}
        for line in lines[1:]:
            if ":" in line:
                name, value = line.split(":", 1)
                name = name.strip().lower()
                headers[name] = headers[name] + ", " + value.strip() if name in headers else value.strip()
        body = b""
        if read_body and status != 101:
            if "content-length" in headers:
                body = await asyncio.wait_for(reader.readexactly(int(headers["content-length"])), timeout)
            elif "chunked" in headers.get("transfer-encoding", "").lower():
                while True:
                    size_line = await asyncio.wait_for(reader.readuntil(b"\r\n"), timeout)
                    size = int(size_line.split(b";")[0].strip(), 16)
                    chunk = await asyncio.wait_for(reader.readexactly(size + 2), timeout)
                    if size == 0:
                        break
                    body += chunk[:-2]
            else:
                body = await asyncio.wait_for(reader.read(), timeout)
        return status, headers, body
    finally:
        writer.close()


def get_request(target, path, extra=""):
    return ("GET %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: wordrooms-e2e\r\n%sConnection: close\r\n\r\n"
            % (path, target.hostport, extra)).encode("ascii")


def upgrade_request(target, version="13", key="dGhlIHNhbXBsZSBub25jZQ==", path="/echo"):
    lines = ["GET %s HTTP/1.1" % path, "Host: %s" % target.hostport, "Upgrade: websocket", "Connection: Upgrade"]
    if key is not None:
        lines.append("Sec-WebSocket-Key: %s" % key)
    if version is not None:
        lines.append("Sec-WebSocket-Version: %s" % version)
    return ("\r\n".join(lines) + "\r\n\r\n").encode("ascii")


# ----------------------------------------------------------------------------------------------------------------
# Checks. Each is an async function (args) -> optional detail string; raising means FAIL.


async def check_http_healthz(args):
    status, headers, body = await raw_http(args.target, get_request(args.target, "/healthz"))
    expect(status == 200, "GET /healthz: status %d" % status)
    expect(body.strip() == b"ok", "GET /healthz: body %r, want 'ok'" % body[:80])


async def check_http_index_html(args):
    status, headers, body = await raw_http(args.target, get_request(args.target, "/"))
    expect(status == 200, "GET /: status %d" % status)
    content_type = headers.get("content-type", "")
    expect(content_type.lower().startswith("text/html"), "GET /: Content-Type %r, want text/html" % content_type)
    expect(b"<html" in body.lower() or b"<!doctype html" in body.lower(), "GET /: body does not look like HTML")


async def check_http_unknown_path_404(args):
    path = "/no-such-file-%d.html" % random.randrange(1 << 30)
    status, _, _ = await raw_http(args.target, get_request(args.target, path))
    expect(status == 404, "GET %s: status %d, want 404" % (path, status))


TRAVERSALS = (
    "/../etc/passwd",
    "/../../../../../../etc/passwd",
    "/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/..%2f..%2f..%2f..%2fetc%2fpasswd",
    "/%2E%2E%2F%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
    "/web/../../../../etc/passwd",
    "/..\\..\\..\\etc\\passwd",
    "/../Package.swift",
    "/%2e%2e/Package.swift",
    "//etc/passwd",
)


async def check_http_path_traversal(args):
    bad = []
    for path in TRAVERSALS:
        status, _, body = await raw_http(args.target, get_request(args.target, path))
        if status not in (400, 404) or b"root:" in body or b"PackageDescription" in body:
            bad.append("%s -> %d%s" % (path, status, " (file content leaked)" if status == 200 else ""))
    expect(not bad, "want 400 or 404: " + "; ".join(bad))
    return "%d paths" % len(TRAVERSALS)


async def check_handshake_rfc_sample_key(args):
    key = "dGhlIHNhbXBsZSBub25jZQ=="
    status, headers, _ = await raw_http(args.target, upgrade_request(args.target, key=key), read_body=False)
    expect(status == 101, "status %d, want 101" % status)
    want = base64.b64encode(hashlib.sha1((key + GUID).encode("ascii")).digest()).decode("ascii")
    expect(want == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", "self-check of the accept computation")
    expect(headers.get("sec-websocket-accept") == want,
           "Sec-WebSocket-Accept %r, want %r" % (headers.get("sec-websocket-accept"), want))
    expect(headers.get("upgrade", "").lower() == "websocket", "Upgrade header %r" % headers.get("upgrade"))
    expect("upgrade" in headers.get("connection", "").lower(), "Connection header %r" % headers.get("connection"))


async def check_handshake_wrong_version_426(args):
    status, headers, _ = await raw_http(args.target, upgrade_request(args.target, version="8"))
    expect(status == 426, "Sec-WebSocket-Version: 8 -> status %d, want 426" % status)
    versions = [v.strip() for v in headers.get("sec-websocket-version", "").split(",")]
    expect("13" in versions, "426 response has Sec-WebSocket-Version %r, want 13"
           % headers.get("sec-websocket-version"))


async def check_handshake_missing_key_400(args):
    status, _, _ = await raw_http(args.target, upgrade_request(args.target, key=None))
    expect(status == 400, "upgrade without Sec-WebSocket-Key -> status %d, want 400" % status)


async def echo_one(args, message):
    async with client(args.target) as ws:
        await ws.send(message)
        reply = await asyncio.wait_for(ws.recv(), 20)
        expect(type(reply) is type(message), "sent %s, got %s" % (describe(message), describe(reply)))
        expect(reply == message, "sent %s, echo differs (%s)" % (describe(message), describe(reply)))


def make_echo_check(kind, size):
    async def check(args):
        if kind == "text":
            message = text_of_size(size, size)
        else:
            message = random.Random(size).randbytes(size)
        await echo_one(args, message)

    check.__name__ = "check_echo_%s_%d" % (kind, size)
    return check


async def pipeline(args, messages):
    """Sends every message without waiting for echoes while a second task reads them back in order."""
    async with client(args.target) as ws:
        async def sender():
            for message in messages:
                await ws.send(message)

        async def receiver():
            for index, message in enumerate(messages):
                reply = await ws.recv()
                expect(reply == message, "message %d (%s): echo differs (%s)"
                       % (index, describe(message), describe(reply)))

        await asyncio.gather(sender(), receiver())


async def check_echo_pipelined(args):
    rng = random.Random(7)
    count = 1000
    messages = []
    for index in range(count):
        size = rng.choice((0, 1, 10, 125, 126, 1000, 4096))
        messages.append(text_of_size(size, index) if index % 2 else rng.randbytes(size))
    await pipeline(args, messages)
    total = sum(len(m.encode("utf-8")) if isinstance(m, str) else len(m) for m in messages)
    return "%d messages, %d bytes" % (count, total)


async def check_echo_pipelined_backpressure(args):
    # 16 MiB in flight at once, more than a server should buffer per connection: it must slow down reading
    # (TCP backpressure) rather than drop the connection.
    rng = random.Random(8)
    messages = [rng.randbytes(128 << 10) for _ in range(128)]
    await pipeline(args, messages)
    return "%d x 128 KiB" % len(messages)


async def check_echo_fragmented_text(args):
    fragments = ["Hello, ", "", "frag", "mented ", "wörld ✓ 😀", text_of_size(70000, 3)]

    async def stream():
        for fragment in fragments:
            yield fragment
            await asyncio.sleep(0.01)

    async with client(args.target) as ws:
        await ws.send(stream())
        reply = await asyncio.wait_for(ws.recv(), 20)
        expect(reply == "".join(fragments), "echo of a %d-fragment text message differs (%s)"
               % (len(fragments), describe(reply)))


async def check_echo_fragmented_binary(args):
    fragments = [b"\x00\x01", b"", bytes(range(256)), os.urandom(65536), b"\xff"]
    async with client(args.target) as ws:
        await ws.send(iter(fragments))
        reply = await asyncio.wait_for(ws.recv(), 20)
        expect(reply == b"".join(fragments), "echo of a fragmented binary message differs (%s)" % describe(reply))


async def check_fragmented_with_ping_between(args):
    pong_seen = []
    async with client(args.target) as ws:
        async def stream():
            yield "first half, "
            waiter = await ws.ping(b"mid-message")
            await asyncio.wait_for(waiter, 10)   # the server must answer a ping inside a fragmented message
            pong_seen.append(True)
            yield "second half"

        await ws.send(stream())
        reply = await asyncio.wait_for(ws.recv(), 20)
        expect(pong_seen, "no pong during the fragmented message")
        expect(reply == "first half, second half", "echo differs: %r" % reply[:80])


async def check_ping_pong(args):
    async with client(args.target) as ws:
        for payload in (b"wordrooms-ping", b"", bytes(range(125))):
            waiter = await ws.ping(payload)
            try:
                await asyncio.wait_for(waiter, 10)
            except asyncio.TimeoutError:
                raise CheckFailed("no pong for a ping of %d bytes within 10 s" % len(payload))
        # The connection still echoes afterwards.
        await ws.send("after pings")
        expect(await asyncio.wait_for(ws.recv(), 10) == "after pings", "echo after pings differs")


async def close_with(args, code, reason):
    async with client(args.target) as ws:
        await ws.send("before close")
        await asyncio.wait_for(ws.recv(), 10)
        started = time.monotonic()
        await ws.close(code, reason)
        await asyncio.wait_for(ws.wait_closed(), 15)
        received = ws.protocol.close_rcvd
        expect(received is not None, "no close frame came back (TCP closed without the closing handshake)")
        expect(received.code == code, "sent close %d, server answered %d (%r)" % (code, received.code, received.reason))
        return "closed in %.0f ms" % ((time.monotonic() - started) * 1000)


async def check_close_handshake_1000(args):
    return await close_with(args, 1000, "bye")


async def check_close_handshake_4000(args):
    return await close_with(args, 4000, "custom code")


async def close_quietly(ws):
    """Closes `ws` after a check in which the server closed it: websockets may trip over the dead transport here
    (AttributeError from asyncio after a large unsent write), which says nothing about the server."""
    try:
        await asyncio.wait_for(ws.close(), 5)
    except Exception:
        pass


async def expect_1009(target, message_or_fragments, what):
    ws = await client(target)
    try:
        try:
            await asyncio.wait_for(ws.send(message_or_fragments), 20)
            reply = await asyncio.wait_for(ws.recv(), 20)
        except ConnectionClosed as closed:
            received = closed.rcvd
            expect(received is not None, "%s: connection dropped without a close frame (want close 1009)" % what)
            expect(received.code == 1009, "%s: close code %d (%r), want 1009" % (what, received.code, received.reason))
            return
        except asyncio.TimeoutError:
            raise CheckFailed("%s: no close within 20 s" % what)
        raise CheckFailed("%s: server echoed it (%s) instead of closing with 1009" % (what, describe(reply)))
    finally:
        await close_quietly(ws)


async def check_cap_exact_size_echoes(args):
    await echo_one_target(args.cap_target, os.urandom(args.cap_bytes))
    return "%d bytes" % args.cap_bytes


async def echo_one_target(target, message):
    async with client(target) as ws:
        await ws.send(message)
        reply = await asyncio.wait_for(ws.recv(), 20)
        expect(reply == message, "echo of %s differs (%s)" % (describe(message), describe(reply)))


async def check_cap_binary_over_1009(args):
    await expect_1009(args.cap_target, os.urandom(args.cap_bytes + 1), "binary of cap+1 bytes")


async def check_cap_text_over_1009(args):
    await expect_1009(args.cap_target, "t" * (args.cap_bytes + 1), "text of cap+1 bytes")


async def check_cap_fragmented_over_1009(args):
    piece = args.cap_bytes // 4 + 1
    fragments = [os.urandom(piece) for _ in range(4)]   # each fragment fits, the message does not
    await expect_1009(args.cap_target, iter(fragments), "4 fragments of %d bytes" % piece)


async def check_cap_server_still_serves(args):
    await echo_one_target(args.cap_target, b"still alive")


async def check_concurrent_clients(args):
    clients, rounds = 20, 20

    async def one(index):
        async with client(args.target) as ws:
            for round_number in range(rounds):
                message = "client %d round %d %s" % (index, round_number, "x" * (index * 100))
                await ws.send(message)
                reply = await asyncio.wait_for(ws.recv(), 20)
                expect(reply == message, "client %d: echo differs" % index)

    await asyncio.gather(*(one(index) for index in range(clients)))
    return "%d clients x %d messages" % (clients, rounds)


# ----------------------------------------------------------------------------------------------------------------
# permessage-deflate (RFC 7692). /echo compresses per connection as negotiated; game sockets (/ws) answer
# `permessage-deflate; client_no_context_takeover; server_max_window_bits=11` and send each room's patches
# compressed once in the room's stream, with context takeover, to every member in step with it.

GAME_DEFLATE = {"client_no_context_takeover": None, "server_max_window_bits": "11"}
WORDS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Sources", "WordGames", "Resources",
                         "words")


def deflate_client(target, **factory_options):
    """An /echo client that offers permessage-deflate with these ClientPerMessageDeflateFactory options."""
    return client(target, compression="deflate", extensions=[ClientPerMessageDeflateFactory(**factory_options)])


def expect_game_deflate(player):
    """The game socket's handshake response, and what websockets runs with it."""
    found = response_extensions(player.ws)
    expect(list(found) == ["permessage-deflate"], "%s: Sec-WebSocket-Extensions %r, want permessage-deflate"
           % (player.name, player.ws.response.headers.get("Sec-WebSocket-Extensions")))
    expect(found["permessage-deflate"] == GAME_DEFLATE, "%s: permessage-deflate parameters %r, want %r"
           % (player.name, found["permessage-deflate"], GAME_DEFLATE))
    extension = deflate_extension(player.ws)
    expect(extension is not None and extension.remote_max_window_bits == 11 and extension.local_no_context_takeover
           and not extension.remote_no_context_takeover,
           "%s: websockets runs %r" % (player.name, extension))


def expect_every_patch_compressed(player):
    """Everyone here follows the room's stream from a fresh start (joins restart it), so every patch arrives
    compressed and everything else (welcome, snapshots, errors) plain."""
    frames = player.frames
    expect(frames.compressed > 0, "%s: no compressed frame among %d messages" % (player.name, player.messages))
    expect(frames.compressed == player.patches and frames.plain == player.messages - player.patches,
           "%s: %d compressed and %d plain frames for %d patches among %d messages"
           % (player.name, frames.compressed, frames.plain, player.patches, player.messages))


def expect_plain_peer(player):
    expect(not response_extensions(player.ws), "%s offered nothing, yet the response has Sec-WebSocket-Extensions %r"
           % (player.name, player.ws.response.headers.get("Sec-WebSocket-Extensions")))
    expect(deflate_extension(player.ws) is None, "%s: an extension runs without an offer" % player.name)


async def settle(players, timeout=15):
    """Waits until every player has the room's newest seq (the largest any of them has)."""
    newest = max(player.seq for player in players)
    for player in players:
        await player.until(lambda p=player: p.seq >= newest, "seq %d" % newest, timeout)


async def expect_states_match_snapshots(players):
    """Each player's patched state equals the snapshot it asks for, and all of them are the same."""
    await settle(players)
    states = []
    for player in players:
        snapshot_seq, snapshot, own_seq, own = await player.resync()
        expect(own_seq == snapshot_seq, "%s: snapshot of seq %d arrived at seq %d" % (player.name, snapshot_seq, own_seq))
        expect(own == snapshot, "%s: patched state differs from the snapshot at seq %d" % (player.name, snapshot_seq))
        expect(not player.problems, "%s: %s" % (player.name, "; ".join(player.problems[:3])))
        states.append(snapshot)
    expect(all(state == states[0] for state in states), "the players' states differ")
    return states[0]


async def close_all(players):
    for player in players:
        await player.close()


async def guess_once(players):
    """The player whose turn it is guesses the commonest letter not yet guessed."""
    snowman = players[0].state["snowman"]
    player = next((p for p in players if p.you == snowman["turn"]), None)
    expect(player is not None, "nobody here has the turn (%r)" % snowman["turn"])
    guessed = {guess["letter"] for guess in snowman["guesses"]}
    letter = next(letter for letter in FREQUENCY if letter not in guessed)
    before, errors = player.seq, len(player.errors)
    await player.send({"type": "guess", "letter": letter.lower()})
    await player.until(lambda: player.seq > before or len(player.errors) > errors, "the answer to guess %s" % letter)
    expect(len(player.errors) == errors, "%s: guess %s refused: %s" % (player.name, letter, player.errors[-1:]))
    await settle(players)


async def check_deflate_game_snowman(args):
    """Three compressing players and one plain one play Snowman; a fourth compressing player joins mid-game."""
    target = args.target
    players = []
    try:
        host = await GameClient.open("Ana", target)
        players.append(host)
        await host.create("snowman", {"maxWrongGuesses": 10, "turnSeconds": 0})
        for name in ("Bob", "Cleo"):
            player = await GameClient.open(name, target)
            players.append(player)
            await player.join(host.code, key=host.key)
        plain = await GameClient.open("Plain", target, compression=None)
        players.append(plain)
        await plain.join(host.code, key=host.key)
        late = None
        moves = games = 0
        while True:
            await settle(players)
            if host.state["snowman"]["status"] != "inProgress":
                games += 1
                if late is not None:
                    break
                # Over before the late player came (a short word): the next game, then.
                await host.send({"type": "new_game"})
                await host.until(lambda: host.state["snowman"]["status"] == "inProgress", "the next game")
                continue
            if moves == 2 and late is None:
                late = await GameClient.open("Dee", target)
                players.append(late)
                await late.join(host.code, key=host.key)
                await settle(players)
            if moves % 3 == 1:
                # Chat from a compressing and from the plain player: text that repeats from patch to patch.
                speaker = players[moves % len(players)]
                before = speaker.seq
                await speaker.send({"type": "chat", "text": "%s: nice one, that letter was a good guess!" % speaker.name})
                # Its patch first: settling at once could pass before it, and the next guess would read an old turn.
                await speaker.until(lambda: speaker.seq > before, "the chat line's patch")
                await settle(players)
            await guess_once(players)
            moves += 1
            expect(moves < 60, "the game does not end")
        counts = await expect_compressed_game(players, plain)
        return "%d guesses, %s; compressed/messages: %s" % (moves, host.state["snowman"]["status"], counts)
    finally:
        await close_all(players)


async def expect_compressed_game(players, plain):
    """The end of a game with compressing players and one plain peer: every state equals a fresh snapshot, the
    plain peer runs no extension, every other player the game socket's deflate with every patch compressed.
    Returns "name compressed/messages" for each player."""
    await expect_states_match_snapshots(players)
    for player in players:
        if player is plain:
            expect_plain_peer(player)
        else:
            expect_game_deflate(player)
            expect_every_patch_compressed(player)
    return ", ".join("%s %d/%d" % (p.name, p.frames.compressed, p.messages) for p in players)


def load_words(name):
    with open(os.path.join(WORDS_DIR, name), encoding="utf-8") as handle:
        return [line.strip() for line in handle if line.strip() and not line.startswith("#")]


def spellable_words(root, dictionary, minimum):
    letters = collections.Counter(root)
    return sorted((word for word in dictionary
                   if minimum <= len(word) <= len(root) and word != root and word.isascii() and word.isalpha()
                   and not collections.Counter(word) - letters), key=lambda word: (-len(word), word))


async def check_deflate_game_scramble_round(args):
    """A Word Scramble round with two compressing players, a plain one, and a compressing one joining mid-round,
    to the round's end (the intermission's patch carries the round's missed words)."""
    target = args.target
    players = []
    try:
        host = await GameClient.open("Ana", target)
        players.append(host)
        await host.create("scramble", {"rounds": 3, "roundSeconds": 30, "minWordLength": 3})
        bob = await GameClient.open("Bob", target)
        plain = await GameClient.open("Plain", target, compression=None)
        players += [bob, plain]
        await bob.join(host.code, key=host.key)
        await plain.join(host.code, key=host.key)
        await settle(players)
        await host.send({"type": "new_game"})
        await host.until(lambda: host.state["scramble"]["phase"] == "playing", "the round to start")
        await settle(players)
        root = host.state["scramble"]["root"].lower()
        words = spellable_words(root, load_words("dictionary.txt"), host.state["scramble"]["minWordLength"])
        expect(len(words) >= 12, "only %d words in %s" % (len(words), root))
        found = 0
        for index, word in enumerate(words[:12]):
            if index == 5:
                players.append(await GameClient.open("Dee", target))
                await players[-1].join(host.code, key=host.key)
                await settle(players)
            player = players[index % len(players)]
            before, errors = player.seq, len(player.errors)
            await player.send({"type": "word", "word": word})
            await player.until(lambda p=player: p.seq > before or len(p.errors) > errors, "the answer to %s" % word)
            found += len(player.errors) == errors
            await settle(players)
        expect(found >= 10, "only %d of 12 dictionary words accepted" % found)
        for player in players:
            await player.until(lambda p=player: p.state["scramble"]["phase"] == "intermission", "the round's end", 40)
        await settle(players)
        missed = len(host.state["scramble"]["lastRound"]["missed"])
        counts = await expect_compressed_game(players, plain)
        return "root %s, %d words found, %d missed; compressed/messages: %s" % (root, found, missed, counts)
    finally:
        await close_all(players)


def random_line(rng, length):
    return "".join(rng.choice(string.ascii_letters) for _ in range(length))


async def raw_chat(raw, text, compress=False):
    await raw.send_json({"type": "chat", "text": text}, compress)
    message = await raw.receive()
    patch = json.loads(message.data)
    expect(patch.get("type") == "patch", "answer to a chat: %r" % patch)
    expect(message.compressed, "the chat's patch arrived plain")
    return message, patch


async def check_deflate_game_raw_frames(args):
    """The frames themselves, read by hand: RSV1 only on compressed patches, which inflate with one zlib stream
    of the stated 11-bit window kept across messages; repeated text refers back into earlier patches (context
    takeover), but never further back than 2 KiB; compressed client messages are understood."""
    rng = random.Random(11)
    raw = await RawGameSocket.open(args.target)
    try:
        header = raw.extension_header()
        expect(header == "permessage-deflate; client_no_context_takeover; server_max_window_bits=11",
               "Sec-WebSocket-Extensions: %r" % header)
        await raw.send_json({"type": "create", "game": "snowman", "name": "Raw", "public": False,
                             "settings": {"turnSeconds": 0}}, compress=True)
        welcome_message = await raw.receive()
        welcome = json.loads(welcome_message.data)
        expect(welcome.get("type") == "welcome", "answer to a compressed create: %r" % welcome)
        expect(not welcome_message.compressed, "the welcome arrived compressed (it is outside the room's stream)")
        state, seq = welcome["state"], welcome["seq"]
        line = random_line(rng, 150)
        first, patch = await raw_chat(raw, line, compress=True)
        expect(first.standalone, "the first patch after joining refers to messages before it (no fresh start)")
        again, patch_again = await raw_chat(raw, line)
        expect(not again.standalone and again.wire_size < first.wire_size // 2,
               "the same chat line again: %d bytes on the wire after %d (standalone: %s); want a reference back"
               % (again.wire_size, first.wire_size, again.standalone))
        patches = [patch, patch_again]
        # Push the line more than 2 KiB back, then say it once more: an 11-bit window cannot reach it, and a
        # compressor using a larger window than it stated would, and fail the inflater above.
        filler_bytes = 0
        while filler_bytes < 3000:
            filler, filler_patch = await raw_chat(raw, random_line(rng, 180), compress=bool(filler_bytes % 2))
            filler_bytes += len(filler.data)
            patches.append(filler_patch)
        far, far_patch = await raw_chat(raw, line)
        patches.append(far_patch)
        for message in patches:
            expect(message["seq"] == seq + 1, "patch seq %d after %d" % (message["seq"], seq))
            state, seq = apply_patch(state, message["ops"]), message["seq"]
        await raw.send_json({"type": "resync"})
        snapshot_message = await raw.receive()
        snapshot = json.loads(snapshot_message.data)
        expect(snapshot.get("type") == "snapshot" and not snapshot_message.compressed, "resync answered %r (%s)"
               % (snapshot.get("type"), "compressed" if snapshot_message.compressed else "plain"))
        expect(snapshot["seq"] == seq and snapshot["state"] == state, "patched state differs from the snapshot")
        return "repeat %d -> %d bytes; %d bytes later %d bytes" % (first.wire_size, again.wire_size, filler_bytes,
                                                                   far.wire_size)
    finally:
        await raw.close()


async def check_deflate_game_narrow_peers(args):
    """Peers the room's stream cannot serve compressed (a server window of 10 bits, server_no_context_takeover)
    get every patch plain and the same state, and do not stop the stream compressing for the others."""
    rng = random.Random(12)
    players = []
    raw = await RawGameSocket.open(args.target)
    try:
        await raw.send_json({"type": "create", "game": "snowman", "name": "Raw", "public": False,
                             "settings": {"turnSeconds": 0}})
        welcome = json.loads((await raw.receive()).data)
        narrow = await GameClient.open("Ten", args.target,
                                       extensions=[ClientPerMessageDeflateFactory(server_max_window_bits=10)])
        fresh = await GameClient.open("Fresh", args.target,
                                      extensions=[ClientPerMessageDeflateFactory(server_no_context_takeover=True)])
        players += [narrow, fresh]
        for player in players:
            await player.join(welcome["code"], key=welcome.get("key"))
            await raw.receive()   # the join's patch
        line = random_line(rng, 150)
        first, _ = await raw_chat(raw, line)
        again, _ = await raw_chat(raw, line)
        await raw_chat(raw, "and once more: " + line)
        await settle(players)
        for player in players:
            expect(player.frames.compressed == 0, "%s: %d compressed frames" % (player.name, player.frames.compressed))
            expect(not player.problems, "%s: %s" % (player.name, player.problems))
        narrow_offer = response_extensions(narrow.ws).get("permessage-deflate")
        expect(narrow_offer == {"client_no_context_takeover": None, "server_max_window_bits": "10"},
               "server_max_window_bits=10 offered: response %r" % narrow_offer)
        fresh_offer = response_extensions(fresh.ws).get("permessage-deflate")
        expect(fresh_offer == dict(GAME_DEFLATE, server_no_context_takeover=None),
               "server_no_context_takeover offered: response %r" % fresh_offer)
        expect(not again.standalone, "with a 10-bit peer and a no-context-takeover peer in the room, the same line "
               "again took %d bytes after %d, standalone: the stream restarted instead of referring back"
               % (again.wire_size, first.wire_size))
        await expect_states_match_snapshots(players)
        return "repeat %d -> %d bytes for the raw peer; the narrow peers got %d and %d plain messages" % (
            first.wire_size, again.wire_size, narrow.messages, fresh.messages)
    finally:
        await close_all(players)
        await raw.close()


# /echo offers: ClientPerMessageDeflateFactory options, and the response parameters they must get (None: the
# server declines and the connection goes on uncompressed).
ECHO_OFFERS = (
    ("defaults", {}, {}),
    ("no_client_max_window_bits", {"client_max_window_bits": None}, {}),
    ("client_no_context_takeover", {"client_no_context_takeover": True}, {"client_no_context_takeover": None}),
    ("server_no_context_takeover", {"server_no_context_takeover": True}, {"server_no_context_takeover": None}),
    ("no_context_takeover", {"client_no_context_takeover": True, "server_no_context_takeover": True},
     {"client_no_context_takeover": None, "server_no_context_takeover": None}),
    ("server_max_window_bits_9", {"server_max_window_bits": 9}, {"server_max_window_bits": "9"}),
    ("server_max_window_bits_12", {"server_max_window_bits": 12}, {"server_max_window_bits": "12"}),
    ("client_max_window_bits_9", {"client_max_window_bits": 9}, {"client_max_window_bits": "9"}),
    ("client_max_window_bits_12_server_15", {"client_max_window_bits": 12, "server_max_window_bits": 15},
     {"client_max_window_bits": "12", "server_max_window_bits": "15"}),
    ("server_max_window_bits_8", {"server_max_window_bits": 8}, None),   # zlib cannot deflate with 8 bits
)


def echo_messages(seed):
    rng = random.Random(seed)
    sentence = "The quick brown fox jumps over the lazy dog, ünd ßo wëiter ✓ 😀. "
    vocabulary = sentence.split() + ["snowman", "scramble", "room", "letter", "guess", "patch", "seq"]
    prose = " ".join(rng.choice(vocabulary) for _ in range(180000))
    return [
        "",
        "a",
        sentence * 300,                                  # 21 KiB of text that deflates 120:1
        rng.randbytes(65536),                            # incompressible binary
        base64.b64encode(rng.randbytes(1 << 19)).decode("ascii"),   # text that deflate shrinks a little
        # About 1 MiB of words (a few to one). Not one phrase repeated: beyond 64 KiB the server refuses messages
        # that inflate more than 256:1 (TransportConfiguration.maxInflateRatio).
        prose[: 1 << 20],
    ]


def make_echo_deflate_check(label, options, want):
    async def check(args):
        async with deflate_client(args.target, **options) as ws:
            found = response_extensions(ws)
            if want is None:
                expect(not found and deflate_extension(ws) is None, "offer %r: response %r, want it declined"
                       % (options, ws.response.headers.get("Sec-WebSocket-Extensions")))
            else:
                expect(list(found) == ["permessage-deflate"] and found["permessage-deflate"] == want,
                       "offer %r: response %r, want parameters %r"
                       % (options, ws.response.headers.get("Sec-WebSocket-Extensions"), want))
            counter = FrameCounter(ws)
            messages = echo_messages(7)
            for message in messages:
                await ws.send(message)
                reply = await asyncio.wait_for(ws.recv(), 20)
                expect(reply == message, "%s: echo differs (%s)" % (describe(message), describe(reply)))
            # A fragmented message, compressed across its fragments.
            fragments = ["fragment %d: %s " % (index, "wörds " * index) for index in range(12)]
            await ws.send(iter(fragments))
            reply = await asyncio.wait_for(ws.recv(), 20)
            expect(reply == "".join(fragments), "fragmented message: echo differs (%s)" % describe(reply))
            # The same line twice: with context takeover on the server's side (and a window that holds it), the
            # second echo refers back to the first; without it, it costs as much again.
            line = base64.b64encode(random.Random(5).randbytes(1000)).decode("ascii")
            sizes = []
            for _ in range(2):
                await ws.send(line)
                expect(await asyncio.wait_for(ws.recv(), 20) == line, "repeated line: echo differs")
                sizes.append(counter.frames[-1] if counter.frames else None)
            # Many small messages in flight at once, each side's context carried from one to the next.
            rng = random.Random(6)
            burst = ["%d %s" % (index, rng.choice(("hello", "world", "wordrooms", "snowman")) * rng.randrange(1, 40))
                     for index in range(300)]
            await pipeline_on(ws, burst)
            if want is None:
                expect(deflate_extension(ws) is None, "declined, yet websockets runs %r" % deflate_extension(ws))
                return "declined; %d messages plain" % (len(messages) + 303)
            expect(counter.compressed > 0, "no echo arrived compressed")
            server_window = int(want.get("server_max_window_bits", 15))
            (first_compressed, first_size), (second_compressed, second_size) = sizes
            expect(first_compressed and second_compressed, "the repeated line arrived plain: %r" % sizes)
            if "server_no_context_takeover" in want:
                expect(second_size * 10 > first_size * 9, "server_no_context_takeover, yet the repeat took %d bytes "
                       "after %d" % (second_size, first_size))
            elif server_window >= 11:   # 2 KiB holds the 1336-byte line
                expect(second_size * 4 < first_size, "context takeover, yet the repeat took %d bytes after %d"
                       % (second_size, first_size))
            return "%d of %d echoes compressed; repeat %d -> %d bytes" % (
                counter.compressed, counter.compressed + counter.plain, first_size, second_size)

    check.__name__ = "check_echo_deflate_%s" % label
    return check


async def pipeline_on(ws, messages):
    async def sender():
        for message in messages:
            await ws.send(message)

    async def receiver():
        for index, message in enumerate(messages):
            reply = await asyncio.wait_for(ws.recv(), 20)
            expect(reply == message, "burst message %d: echo differs (%s)" % (index, describe(reply)))

    await asyncio.gather(sender(), receiver())


async def check_cap_deflate_exact_size_echoes(args):
    """The cap applies to the inflated size: a message of exactly the cap, smaller on the wire, is echoed. Its
    text (words of a seeded generator) deflates a few times over, well inside the inflate-ratio guard."""
    words = ["snow", "man", "letter", "guess", "room", "scramble", "word", "melt", "tile", "round"]
    rng = random.Random(832)
    text = " ".join(rng.choice(words) for _ in range(args.cap_bytes // 3))
    message = text[: args.cap_bytes]
    async with deflate_client(args.cap_target) as ws:
        await ws.send(message)
        expect(await asyncio.wait_for(ws.recv(), 20) == message, "echo differs")
    return "%d bytes inflated" % args.cap_bytes


async def check_cap_deflate_ratio_guard_1009(args):
    """A message within the cap but inflating over 256 times its compressed size past the guard's floor (a
    quarter of the cap, at most 64 KiB) is a decompression bomb: close 1009, whose reason names the ratio."""
    ws = await deflate_client(args.cap_target)
    try:
        await ws.send("w" * args.cap_bytes)
        try:
            reply = await asyncio.wait_for(ws.recv(), 20)
        except ConnectionClosed as closed:
            expect(closed.rcvd is not None and closed.rcvd.code == 1009, "closed with %r, want 1009" % closed.rcvd)
            expect("256 times" in (closed.rcvd.reason or ""), "reason %r does not name the ratio" % closed.rcvd.reason)
            return "closed 1009: %s" % closed.rcvd.reason
        raise CheckFailed("echoed (%s) instead of closing with 1009" % describe(reply))
    finally:
        await close_quietly(ws)


async def check_cap_deflate_inflated_over_1009(args):
    """A compressed message of a few hundred bytes that inflates to cap+1 bytes: close 1009 (RFC 7692 §8.1 leaves
    the limit to the receiver; WordRooms counts inflated bytes)."""
    ws = await deflate_client(args.cap_target)
    try:
        expect(deflate_extension(ws) is not None, "permessage-deflate was not negotiated")
        try:
            await ws.send("w" * (args.cap_bytes + 1))
            reply = await asyncio.wait_for(ws.recv(), 20)
        except ConnectionClosed as closed:
            expect(closed.rcvd is not None and closed.rcvd.code == 1009, "closed with %r, want 1009" % closed.rcvd)
            return
        raise CheckFailed("echoed (%s) instead of closing with 1009" % describe(reply))
    finally:
        await close_quietly(ws)


def all_checks():
    checks = [
        check_http_healthz,
        check_http_index_html,
        check_http_unknown_path_404,
        check_http_path_traversal,
        check_handshake_rfc_sample_key,
        check_handshake_wrong_version_426,
        check_handshake_missing_key_400,
    ]
    checks += [make_echo_check(kind, size) for kind in ("text", "binary") for size in SIZES]
    checks += [
        check_echo_pipelined,
        check_echo_pipelined_backpressure,
        check_echo_fragmented_text,
        check_echo_fragmented_binary,
        check_fragmented_with_ping_between,
        check_ping_pong,
        check_close_handshake_1000,
        check_close_handshake_4000,
        check_concurrent_clients,
        check_cap_exact_size_echoes,
        check_cap_binary_over_1009,
        check_cap_text_over_1009,
        check_cap_fragmented_over_1009,
        check_cap_server_still_serves,
    ]
    checks += [make_echo_deflate_check(label, options, want) for label, options, want in ECHO_OFFERS]
    checks += [
        check_cap_deflate_exact_size_echoes,
        check_cap_deflate_ratio_guard_1009,
        check_cap_deflate_inflated_over_1009,
        check_deflate_game_raw_frames,
        check_deflate_game_snowman,
        check_deflate_game_scramble_round,
        check_deflate_game_narrow_peers,
    ]
    return [(check.__name__[len("check_"):], check) for check in checks]


async def run(args):
    passed = failed = 0
    for name, check in all_checks():
        if args.only and not any(text in name for text in args.only):
            continue
        if args.skip_cap and name.startswith("cap_"):
            print("SKIP %-40s           no --cap-bytes given" % name, flush=True)
            continue
        if args.skip_deflate and "deflate" in name:
            print("SKIP %-40s           --skip-deflate" % name, flush=True)
            continue
        started = time.monotonic()
        try:
            detail = await asyncio.wait_for(check(args), args.timeout)
            verdict, why = "PASS", detail
        except asyncio.TimeoutError:
            verdict, why = "FAIL", "timed out after %.0f s" % args.timeout
        except CheckFailed as error:
            verdict, why = "FAIL", str(error)
        except InvalidStatus as error:
            verdict, why = "FAIL", "handshake refused: HTTP %d" % error.response.status_code
        except (ConnectionClosed, OSError, EOFError, asyncio.IncompleteReadError) as error:
            verdict, why = "FAIL", "%s: %s" % (type(error).__name__, error)
        except Exception as error:   # a bug in a check, or an unexpected library error: still a FAIL
            verdict, why = "FAIL", "unexpected %s: %s" % (type(error).__name__, error)
        elapsed = (time.monotonic() - started) * 1000
        if verdict == "PASS":
            passed += 1
        else:
            failed += 1
        line = "%s %-40s %6.0f ms" % (verdict, name, elapsed)
        print(line + ("  " + why if why else ""), flush=True)
    print("python-client: %d passed, %d failed" % (passed, failed), flush=True)
    return 0 if failed == 0 and passed > 0 else 1


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True)
    parser.add_argument("--cap-url")
    parser.add_argument("--cap-bytes", type=int, default=65536)
    parser.add_argument("--skip-cap", action="store_true", help="skip the message-size (1009) checks")
    parser.add_argument("--skip-deflate", action="store_true", help="skip the permessage-deflate and /ws checks")
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per check (default 60)")
    args = parser.parse_args(argv)
    try:
        args.target = Target(args.url)
        args.cap_target = Target(args.cap_url or args.url)
    except ValueError as error:
        parser.error(str(error))
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
