#!/usr/bin/env python3
"""End-to-end checks of a running WordRooms server, with the `websockets` package as a third-party peer.

    python_client_test.py --url http://127.0.0.1:PORT/ [--cap-url http://127.0.0.1:PORT2/] [--cap-bytes 65536]

--url        the server under test (http://HOST:PORT/ or ws://HOST:PORT/echo); it must accept messages of
             at least 1 MiB (the harness starts it with --max-message-bytes 16777216).
--cap-url    a server started with --max-message-bytes CAP, for the message-size checks (default: --url).
--cap-bytes  that CAP (default 65536).
--skip-cap   skip the message-size checks (cap_*).
--only       run only the checks whose name contains this text (repeatable).

Prints `PASS name` / `FAIL name: why` per check, then `python-client: N passed, M failed`.
Exit status: 0 when every check passed, 1 otherwise, 2 on bad arguments.
"""

import argparse
import asyncio
import base64
import hashlib
import os
import random
import sys
import time
import urllib.parse

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

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
        compression=None,     # WordRooms offers no permessage-deflate; keep frames plain
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
        # The server has closed the connection by now; websockets may trip over the dead transport here
        # (AttributeError from asyncio after a large unsent write), which says nothing about the server.
        try:
            await asyncio.wait_for(ws.close(), 5)
        except Exception:
            pass


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
    return [(check.__name__[len("check_"):], check) for check in checks]


async def run(args):
    passed = failed = 0
    for name, check in all_checks():
        if args.only and not any(text in name for text in args.only):
            continue
        if args.skip_cap and name.startswith("cap_"):
            print("SKIP %-32s           no --cap-bytes given" % name, flush=True)
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
        line = "%s %-32s %6.0f ms" % (verdict, name, elapsed)
        print(line + ("  " + why if why else ""), flush=True)
    print("python-client: %d passed, %d failed" % (passed, failed), flush=True)
    return 0 if failed == 0 and passed > 0 else 1


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True)
    parser.add_argument("--cap-url")
    parser.add_argument("--cap-bytes", type=int, default=65536)
    parser.add_argument("--skip-cap", action="store_true", help="skip the message-size (1009) checks")
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
