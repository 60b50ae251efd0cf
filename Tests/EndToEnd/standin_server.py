#!/usr/bin/env python3
"""Stand-in for the WordRooms server, used only to check the test harness itself.

It speaks the same command line and start line as the real server, so both harness scripts can run it
in place of `.build/<config>/wordrooms` through `--server-cmd`:

    python standin_server.py --host 127.0.0.1 --port 0 --max-message-bytes 16777216
    -> prints "WordRooms stand-in is running at http://127.0.0.1:PORT/" (flushed) and serves
       ws://HOST:PORT/echo (echoes text and binary), GET /healthz (200 "ok"), static files from web/.

Built on the `websockets` package (see requirements.txt). permessage-deflate is off by default, as in
WordRooms; `--compression` turns it on. `--fault NAME` makes it misbehave on purpose, to check that the
harness notices: see FAULTS below.
"""

import argparse
import asyncio
import mimetypes
import os
import signal
import sys
import urllib.parse

# websockets refuses messages of more than 4096 fragments by default (close 1009, "too many fragments");
# Autobahn 9.3.1 / 9.4.1 send 4 MiB in 64-byte fragments, i.e. 65536 of them.
os.environ.setdefault("WEBSOCKETS_MAX_FRAGMENTS", str(1 << 20))

from websockets.asyncio.server import serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Response

FAULTS = {
    "none": "behave",
    "no-426": "answer a wrong Sec-WebSocket-Version with 400 instead of 426",
    "truncate": "echo messages longer than 1000 bytes truncated to 1000 bytes",
    "traversal": "serve /../ paths from the parent of web/",
    "crash": "exit abruptly (status 3) on the 50th WebSocket connection",
}

FALLBACK_INDEX = b"<!DOCTYPE html>\n<html><head><title>WordRooms stand-in</title></head><body>stand-in</body></html>\n"


def http_response(status: int, reason: str, body: bytes, content_type: str) -> Response:
    headers = Headers()
    headers["Content-Type"] = content_type
    headers["Content-Length"] = str(len(body))
    headers["Connection"] = "close"
    return Response(status, reason, headers, body)


def make_process_request(args):
    web_root = os.path.realpath(args.web_root)

    def process_request(connection, request):
        path = request.path.split("?", 1)[0]
        if path == "/echo":
            version = request.headers.get("Sec-WebSocket-Version")
            if version is not None and version != "13":
                if args.fault == "no-426":
                    return http_response(400, "Bad Request", b"bad version\n", "text/plain")
                response = http_response(426, "Upgrade Required", b"Upgrade Required\n", "text/plain")
                response.headers["Sec-WebSocket-Version"] = "13"
                return response
            return None  # let websockets validate and accept the handshake
        if request.headers.get("Upgrade") is not None:
            return http_response(404, "Not Found", b"no WebSocket endpoint here\n", "text/plain")
        if path == "/healthz":
            return http_response(200, "OK", b"ok", "text/plain")
        decoded = urllib.parse.unquote(path)
        segments = decoded.split("/")
        if ".." in segments or "\\" in decoded or "\x00" in decoded:
            if args.fault != "traversal":
                return http_response(400, "Bad Request", b"bad path\n", "text/plain")
        relative = decoded.lstrip("/") or "index.html"
        if relative.endswith("/"):
            relative += "index.html"
        full = os.path.realpath(os.path.join(web_root, relative))
        if args.fault != "traversal" and not (full == web_root or full.startswith(web_root + os.sep)):
            return http_response(404, "Not Found", b"not found\n", "text/plain")
        if os.path.isfile(full):
            with open(full, "rb") as handle:
                body = handle.read()
            content_type = mimetypes.guess_type(full)[0] or "application/octet-stream"
            if content_type.startswith("text/"):
                content_type += "; charset=utf-8"
            return http_response(200, "OK", body, content_type)
        if relative == "index.html":
            return http_response(200, "OK", FALLBACK_INDEX, "text/html; charset=utf-8")
        return http_response(404, "Not Found", b"not found\n", "text/plain")

    return process_request


def make_handler(args):
    connections = [0]

    async def handler(connection):
        connections[0] += 1
        if args.fault == "crash" and connections[0] >= 50:
            os._exit(3)
        try:
            async for message in connection:
                if args.fault == "truncate" and len(message) > 1000:
                    message = message[:1000]
                await connection.send(message)
        except ConnectionClosed:
            pass

    return handler


async def main(args) -> None:
    stop = asyncio.get_running_loop().create_future()
    for signum in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(signum, lambda: stop.done() or stop.set_result(None))
    async with serve(
        make_handler(args),
        args.host,
        args.port,
        process_request=make_process_request(args),
        compression="deflate" if args.compression else None,
        max_size=args.max_message_bytes,
        max_queue=64,
        ping_interval=None,
        close_timeout=5,
        server_header="WordRooms-standin",
    ) as server:
        host, port = server.sockets[0].getsockname()[:2]
        shown = "[%s]" % host if ":" in host else host
        print("WordRooms stand-in is running at http://%s:%d/" % (shown, port), flush=True)
        await stop


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--max-message-bytes", type=int, default=16 * 1024 * 1024)
    parser.add_argument("--web-root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "web"))
    parser.add_argument("--compression", action="store_true", help="enable permessage-deflate")
    parser.add_argument("--fault", choices=sorted(FAULTS), default="none", help="misbehave on purpose")
    arguments = parser.parse_args()
    try:
        asyncio.run(main(arguments))
    except KeyboardInterrupt:
        sys.exit(0)
