#!/usr/bin/env python3
"""Bytes a lobby subscriber receives per second, and the size of GET /api/rooms, with many public rooms.

Starts nothing: point it at a running server (loopback). It opens ROOMS sockets that each create a public room and
stay in it, then SUBSCRIBERS sockets that follow the lobby ({"type":"lobby"}), then for SECONDS a churner joins
and leaves rooms at CHURN joins a second (each join and each leave changes a room's player count, as players
coming and going do). It prints the bytes (WebSocket payloads) each subscriber received per second, the size of
the first `lobby` message and of GET /api/rooms. With --flood SECONDS it then floods GET /api/rooms from
--flood-processes keep-alive connections while one more socket pings the server ({"type":"ping"}) every 50 ms,
and prints the requests answered per second and the ping's round trip (p50, p99) during the flood.

  Tests/Bench/lobby_bytes.py --url ws://127.0.0.1:8080 --rooms 1000 --subscribers 20 --seconds 20

Needs `websockets` (the chaos venv has it: ~/.cache/wordrooms/chaos-venv/bin/python).
"""
import argparse
import asyncio
import http.client
import json
import multiprocessing
import random
import time
import urllib.request

import websockets


async def create_room(url, index, rooms):
    socket = await websockets.connect(url + "/ws", max_size=None)
    game = "scramble" if index % 4 == 0 else "snowman"
    await socket.send(json.dumps({"type": "create", "game": game, "name": f"Host {index}"}))
    while True:
        message = json.loads(await socket.recv())
        if message.get("type") == "welcome":
            rooms.append((socket, message["code"]))
            return
        if message.get("type") == "error":
            await socket.close()
            raise RuntimeError(f"create refused: {message}")


async def drain(socket):
    try:
        async for _ in socket:
            pass
    except websockets.ConnectionClosed:
        pass


async def subscriber(url, counts, first_sizes, started):
    async with websockets.connect(url + "/ws", max_size=None) as socket:
        await socket.send(json.dumps({"type": "lobby"}))
        first = await socket.recv()
        first_sizes.append(len(first.encode() if isinstance(first, str) else first))
        await started.wait()
        total = 0
        try:
            async for message in socket:
                total += len(message.encode() if isinstance(message, str) else message)
                counts[id(socket)] = total
        except asyncio.CancelledError:
            counts[id(socket)] = total
            raise


async def churn(url, codes, per_second, stop):
    gap = 1 / per_second
    index = 0
    while not stop.is_set():
        code = random.choice(codes)
        async with websockets.connect(url + "/ws", max_size=None) as socket:
            await socket.send(json.dumps({"type": "join", "code": code, "name": f"Churn {index}"}))
            while json.loads(await socket.recv()).get("type") not in ("welcome", "error"):
                pass
            await asyncio.sleep(gap / 2)
            await socket.send(json.dumps({"type": "leave"}))
        index += 1
        await asyncio.sleep(gap / 2)


def flood(host, port, seconds, answered):
    """Keep-alive GETs of the first page until `seconds` pass; adds the number answered."""
    connection = http.client.HTTPConnection(host, port)
    count = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        connection.request("GET", "/api/rooms")
        connection.getresponse().read()
        count += 1
    with answered.get_lock():
        answered.value += count


async def ping_during(url, seconds):
    """Round trips of {"type":"ping"} every 50 ms for `seconds`, in milliseconds, sorted."""
    times = []
    async with websockets.connect(url + "/ws", max_size=None) as socket:
        end = time.monotonic() + seconds
        index = 0
        while time.monotonic() < end:
            index += 1
            sent = time.monotonic()
            await socket.send(json.dumps({"type": "ping", "id": index}))
            while json.loads(await socket.recv()).get("id") != index:
                pass
            times.append((time.monotonic() - sent) * 1000)
            await asyncio.sleep(0.05)
    return sorted(times)


async def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default="ws://127.0.0.1:8080")
    parser.add_argument("--rooms", type=int, default=1000)
    parser.add_argument("--subscribers", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--churn", type=float, default=10, help="joins (each followed by a leave) per second")
    parser.add_argument("--flood", type=float, default=0, help="seconds of GET /api/rooms flood (0: none)")
    parser.add_argument("--flood-processes", type=int, default=3)
    args = parser.parse_args()

    rooms = []
    for start in range(0, args.rooms, 50):
        await asyncio.gather(*(create_room(args.url, i, rooms) for i in range(start, min(args.rooms, start + 50))))
    drains = [asyncio.create_task(drain(socket)) for socket, _ in rooms]
    await asyncio.sleep(1)
    http = args.url.replace("ws://", "http://", 1) + "/api/rooms"
    with urllib.request.urlopen(http) as reply:
        api_bytes = len(reply.read())

    counts, first_sizes, started, stop = {}, [], asyncio.Event(), asyncio.Event()
    subscribers = [asyncio.create_task(subscriber(args.url, counts, first_sizes, started))
                   for _ in range(args.subscribers)]
    while len(first_sizes) < args.subscribers:
        await asyncio.sleep(0.05)
    started.set()
    churner = asyncio.create_task(churn(args.url, [code for _, code in rooms], args.churn, stop))
    began = time.monotonic()
    await asyncio.sleep(args.seconds)
    elapsed = time.monotonic() - began
    stop.set()
    for task in subscribers:
        task.cancel()
    await asyncio.gather(*subscribers, return_exceptions=True)
    await churner
    per_subscriber = sum(counts.values()) / max(1, args.subscribers) / elapsed
    flood_figures = {}
    if args.flood > 0:
        host, port = args.url.replace("ws://", "", 1).rsplit(":", 1)
        answered = multiprocessing.Value("l", 0)
        workers = [multiprocessing.Process(target=flood, args=(host, int(port), args.flood, answered))
                   for _ in range(args.flood_processes)]
        for worker in workers:
            worker.start()
        pings = await ping_during(args.url, args.flood)
        for worker in workers:
            worker.join()
        flood_figures = {
            "flood_gets_per_second": round(answered.value / args.flood),
            "ping_ms_p50": round(pings[len(pings) // 2], 1), "ping_ms_p99": round(pings[int(len(pings) * 0.99)], 1),
        }
    print(json.dumps({
        "rooms": len(rooms), "subscribers": args.subscribers, "seconds": round(elapsed, 1), "churn": args.churn,
        "api_rooms_bytes": api_bytes, "first_lobby_message_bytes": max(first_sizes),
        "bytes_per_subscriber_per_second": round(per_subscriber),
        "bytes_per_second_all_subscribers": round(per_subscriber * args.subscribers),
        **flood_figures,
    }))
    for socket, _ in rooms:
        await socket.close()
    for task in drains:
        task.cancel()


if __name__ == "__main__":
    asyncio.run(main())
