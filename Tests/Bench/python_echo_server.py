#!/usr/bin/env python3
"""The comparison peer of the benchmarks: an asyncio WebSocket echo server on Python's `websockets` library.

It sends every message back as it came (text as text, binary as binary), on any path, so that the same
`wordrooms-bots echo` and `idle` runs can drive it and the WordRooms server alike. It prints

    listening on 127.0.0.1:PORT

on its first stdout line (with the real port when started with --port 0) and stops on SIGTERM or SIGINT.
The library's defaults are kept (pings every 20 s, no compression unless the client offers it; the bots do
not), except the message size limit, raised to match the WordRooms default of 64 KiB and beyond.
"""

import argparse
import asyncio
import resource
import signal
import sys

from websockets.asyncio.server import serve


async def echo(connection):
    async for message in connection:
        await connection.send(message)


def raise_file_limit():
    """Every connection is a descriptor: take the hard limit, as the WordRooms server does."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765, help="0 picks a free port")
    parser.add_argument("--max-message-bytes", type=int, default=16 * 1024 * 1024)
    parser.add_argument("--backlog", type=int, default=4096, help="listen backlog (the bots ramp up fast)")
    arguments = parser.parse_args()

    limit = raise_file_limit()
    stop = asyncio.get_running_loop().create_future()
    for signum in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(signum, stop.set_result, None)

    async with serve(echo, arguments.host, arguments.port, max_size=arguments.max_message_bytes,
                     backlog=arguments.backlog) as server:
        port = server.sockets[0].getsockname()[1]
        print(f"listening on {arguments.host}:{port} (open-files limit {limit})", flush=True)
        await stop


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(130)
