"""Measures what a crash loses with --data: a client makes changes continuously (chat lines, 200 a second), the
server is killed with SIGKILL at a random moment, restarted on the same data directory, and the client resumes.
The loss is the time between the last change the restarted room still has and the kill. Prints one line per
round and the worst case.

Usage: crash_loss.py --server PATH/wordrooms [--rounds 5]
"""
import argparse
import asyncio
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time

import websockets


def start(server, data):
    process = subprocess.Popen([server, "--host", "127.0.0.1", "--port", "0", "--data", data, "--message-rate", "1000"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    port = int(re.search(r"127\.0\.0\.1:(\d+)/", line).group(1))
    return process, port


async def round_trip(server, data, rng):
    process, port = start(server, data)
    url = f"ws://127.0.0.1:{port}/ws"
    async with websockets.connect(url, proxy=None) as ws:
        await ws.send(json.dumps({"type": "create", "game": "snowman", "name": "Ana", "public": False}))
        welcome = json.loads(await ws.recv())
        code, token, seq, key = welcome["code"], welcome["token"], welcome["seq"], welcome.get("key")
        seen = {}  # chat line number -> monotonic time its patch came back
        kill_at = time.monotonic() + rng.uniform(1.0, 3.0)
        number = 0
        killed_at = None
        while killed_at is None:
            number += 1
            await ws.send(json.dumps({"type": "chat", "text": f"line {number}"}))
            try:
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 0.005))
                    if message["type"] == "patch":
                        seq = message["seq"]
                        for op in message["ops"]:
                            text = op.get("value", {}).get("text", "") if isinstance(op.get("value"), dict) else ""
                            if text.startswith("line "):
                                seen[int(text[5:])] = time.monotonic()
            except asyncio.TimeoutError:
                pass
            if time.monotonic() >= kill_at:
                os.kill(process.pid, signal.SIGKILL)
                killed_at = time.monotonic()
    process.wait()
    process, port = start(server, data)
    try:
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws", proxy=None) as ws:
            # The room's key came back from the data directory with it: the resume still needs it.
            await ws.send(json.dumps({"type": "join", "code": code, "key": key, "token": token}))
            welcome = json.loads(await ws.recv())
            if welcome["type"] != "welcome":
                return None, f"resume refused: {welcome}"
            chat = welcome["state"]["chat"]
            last = max((int(line["text"][5:]) for line in chat if line["text"].startswith("line ")), default=0)
            confirmed = max(seen) if seen else 0
            lost_lines = max(0, confirmed - last)
            lost_ms = (killed_at - seen[last]) * 1000 if last in seen else float("nan")
            return lost_ms, f"{confirmed} lines confirmed before the kill, {last} restored, {lost_lines} lost"
    finally:
        process.kill()
        process.wait()


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(11)
    worst = 0.0
    for index in range(args.rounds):
        with tempfile.TemporaryDirectory() as data:
            lost_ms, detail = await round_trip(args.server, data, rng)
        if lost_ms is None:
            print(f"round {index + 1}: FAILED: {detail}")
            return 1
        worst = max(worst, lost_ms)
        print(f"round {index + 1}: last restored change {lost_ms:.0f} ms before the kill; {detail}")
    print(f"crash loss: at most {worst:.0f} ms of changes over {args.rounds} kills (journal flushed every 100 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
