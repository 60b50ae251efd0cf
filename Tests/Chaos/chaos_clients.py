"""Chaos clients for WordRooms: players whose TCP connections are killed at random and who must resume, plus one
client that stops reading and must be cut off with a clear close code.

Run by Tests/Chaos/run-chaos.sh, which also pauses the server (SIGSTOP/SIGCONT) and runs the bots alongside.
Prints one line per check and a JSON summary; exits non-zero when a client ended inconsistent or without a clear
close code.
"""
import argparse
import asyncio
import json
import random
import socket
import subprocess
import sys
import time

import websockets

LETTERS = "ETAOINSHRDLCUMWFGYPBVKJXQZ"


def apply_patch(doc, ops):
    """Minimal RFC 6902 apply for the ops the server sends (add, remove, replace, move, copy, test)."""
    def parts(path):
        return [p.replace("~1", "/").replace("~0", "~") for p in path.split("/")[1:]]

    def parent(doc, path):
        keys = parts(path)
        node = doc
        for key in keys[:-1]:
            node = node[int(key)] if isinstance(node, list) else node[key]
        return node, keys[-1] if keys else None

    def get(doc, path):
        node = doc
        for key in parts(path):
            node = node[int(key)] if isinstance(node, list) else node[key]
        return node

    for op in ops:
        kind, path = op["op"], op["path"]
        if path == "" and kind in ("add", "replace"):
            doc = op["value"]
            continue
        if kind in ("move", "copy"):
            value = get(doc, op["from"])
            if kind == "move":
                node, key = parent(doc, op["from"])
                if isinstance(node, list):
                    node.pop(int(key))
                else:
                    del node[key]
            kind, op = "add", {"op": "add", "path": path, "value": json.loads(json.dumps(value))}
        node, key = parent(doc, path)
        if kind == "add":
            if isinstance(node, list):
                node.insert(len(node) if key == "-" else int(key), op["value"])
            else:
                node[key] = op["value"]
        elif kind == "replace":
            if isinstance(node, list):
                node[int(key)] = op["value"]
            else:
                node[key] = op["value"]
        elif kind == "remove":
            if isinstance(node, list):
                node.pop(int(key))
            else:
                del node[key]
        elif kind == "test":
            assert get(doc, path) == op["value"], "test op failed"
    return doc


class Player:
    """A player that keeps its rebuilt state and resumes with its token whenever its connection dies."""

    def __init__(self, url, name):
        self.url, self.name = url, name
        self.ws = None
        self.state, self.seq, self.you, self.token, self.code = None, 0, None, None, None
        self.key = None   # a private room's, from the welcome: joins and resumes need it
        self.resumes, self.drops, self.checked = 0, 0, 0
        self.problems = []

    async def open(self):
        self.ws = await websockets.connect(self.url, max_size=2**22, ping_interval=None, proxy=None)

    def port(self):
        return self.ws.transport.get_extra_info("sockname")[1]

    def server_port(self):
        return self.ws.transport.get_extra_info("peername")[1]

    def handle(self, message):
        kind = message["type"]
        if kind == "welcome":
            self.you, self.token, self.code = message["you"], message["token"], message["code"]
            self.key = message.get("key", self.key)
            self.seq = message["seq"]
            if "state" in message:
                self.state = message["state"]
        elif kind == "snapshot":
            self.seq, self.state = message["seq"], message["state"]
        elif kind == "patch":
            if message["seq"] != self.seq + 1:
                self.problems.append(f"{self.name}: gap {self.seq} -> {message['seq']}")
                return
            self.state = apply_patch(self.state, message["ops"])
            self.seq = message["seq"]
        return kind

    async def recv(self, timeout=20):
        message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.handle(message)
        return message

    async def until(self, predicate, timeout=20):
        deadline = time.monotonic() + timeout
        while True:
            message = await self.recv(max(0.1, deadline - time.monotonic()))
            if predicate(message):
                return message

    async def resume(self):
        """Reconnects with token and seq, then checks the rebuilt state against a fresh snapshot."""
        for attempt in range(40):
            try:
                await self.open()
                await self.ws.send(json.dumps({"type": "join", "code": self.code, "key": self.key, "token": self.token,
                                               "seq": self.seq}))
                welcome = await self.until(lambda m: m["type"] in ("welcome", "error"))
                if welcome["type"] == "error":
                    self.problems.append(f"{self.name}: resume refused: {welcome['code']}")
                    return
                self.resumes += 1
                await self.verify()
                return
            except (OSError, asyncio.TimeoutError, websockets.exceptions.WebSocketException):
                await asyncio.sleep(0.25)
        self.problems.append(f"{self.name}: could not resume")

    async def verify(self):
        mine = (self.seq, json.dumps(self.state, sort_keys=True))
        await self.ws.send(json.dumps({"type": "resync"}))
        # Patches that arrive first are applied; the snapshot is compared with the state they built.
        while True:
            message = json.loads(await asyncio.wait_for(self.ws.recv(), 20))
            if message["type"] == "snapshot":
                snapshot = (message["seq"], json.dumps(message["state"], sort_keys=True))
                if snapshot != mine:
                    self.problems.append(f"{self.name}: state at seq {mine[0]} differs from snapshot at seq {snapshot[0]}")
                else:
                    self.checked += 1
                return
            self.handle(message)
            mine = (self.seq, json.dumps(self.state, sort_keys=True))


async def play_room(url, index, stop_at, kill_share, rng):
    host, guest = Player(url, f"r{index}-host"), Player(url, f"r{index}-guest")
    await host.open()
    await host.ws.send(json.dumps({"type": "create", "game": "snowman", "name": "Host", "public": False}))
    await host.until(lambda m: m["type"] == "welcome")
    await guest.open()
    await guest.ws.send(json.dumps({"type": "join", "code": host.code, "key": host.key, "name": "Guest"}))
    await guest.until(lambda m: m["type"] == "welcome")
    players = [host, guest]
    while time.monotonic() < stop_at:
        for player in players:
            if rng.random() < kill_share:
                # Kill this player's TCP connection from outside, as a broken network would.
                # Both ports: the same ephemeral port can be in use towards another server on this machine.
                subprocess.run(["ss", "-K", "src", "127.0.0.1", "sport", "=", f":{player.port()}",
                                "dst", "127.0.0.1", "dport", "=", f":{player.server_port()}"], capture_output=True)
                player.drops += 1
                try:
                    await player.ws.close()
                except Exception:
                    pass
                await player.resume()
        snowman = host.state.get("snowman", {})
        try:
            if snowman.get("status") == "inProgress":
                mover = next(p for p in players if p.you == snowman.get("turn"))
                guessed = {g["letter"] for g in snowman.get("guesses", [])}
                letter = next(l for l in LETTERS if l not in guessed)
                await mover.ws.send(json.dumps({"type": "guess", "letter": letter}))
            else:
                await host.ws.send(json.dumps({"type": "new_game"}))
            target = max(p.seq for p in players) + 1
            for player in players:
                await player.until(lambda m, p=player: p.seq >= target or m["type"] == "error", timeout=30)
        except (websockets.exceptions.WebSocketException, OSError, asyncio.TimeoutError, StopIteration) as error:
            # A connection killed by another room's turn of chaos or the server paused: resume and go on.
            for player in players:
                if player.ws.close_code is not None or isinstance(error, asyncio.TimeoutError):
                    try:
                        await player.ws.close()
                    except Exception:
                        pass
                    await player.resume()
        await asyncio.sleep(0.2)
    for player in players:
        try:
            await player.verify()
        except Exception as error:
            player.problems.append(f"{player.name}: final check failed: {error!r}")
        await player.ws.close()
    return players


async def stuck_client(url, duration):
    """Joins a busy room with a tiny receive window and stops reading; must end with a close frame saying why."""
    talker = Player(url, "talker")
    await talker.open()
    await talker.ws.send(json.dumps({"type": "create", "game": "snowman", "name": "Talker", "public": False}))
    await talker.until(lambda m: m["type"] == "welcome")
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.connect(("127.0.0.1", int(url.split(":")[2].split("/")[0])))
    # Without permessage-deflate: the room's stream would shrink the repeated chat lines twentyfold, and this
    # run is about the bytes a reader that stopped leaves queued (the other players do compress).
    stuck = await websockets.connect(url, sock=raw, max_queue=1, max_size=2**22, ping_interval=None, proxy=None,
                                     compression=None)
    await stuck.send(json.dumps({"type": "join", "code": talker.code, "key": talker.key, "name": "Stuck",
                                 "spectator": True}))
    text = "x" * 190
    sent, cut = 0, False
    deadline = time.monotonic() + duration
    while time.monotonic() < deadline and not cut:
        for _ in range(50):
            await talker.ws.send(json.dumps({"type": "chat", "text": f"{sent} {text}"}))
            sent += 1
        try:
            while True:
                await talker.recv(timeout=0.05)
        except asyncio.TimeoutError:
            pass
        members = (talker.state or {}).get("members", [])
        cut = len(members) > 1 and not members[1]["connected"]
        await asyncio.sleep(0.05)
    # Now read everything: whole frames, then the close frame.
    code = None
    try:
        while True:
            await asyncio.wait_for(stuck.recv(), 10)
    except websockets.exceptions.ConnectionClosed as closed:
        code = closed.rcvd.code if closed.rcvd else None
    except asyncio.TimeoutError:
        code = "timeout"
    await talker.ws.close()
    return cut, code, sent


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--rooms", type=int, default=10)
    parser.add_argument("--duration", type=float, default=30)
    parser.add_argument("--kill-share", type=float, default=0.05)
    args = parser.parse_args()
    rng = random.Random(7)
    stop_at = time.monotonic() + args.duration
    rooms = [play_room(args.url, index, stop_at, args.kill_share, rng) for index in range(args.rooms)]
    results = await asyncio.gather(*rooms, stuck_client(args.url, args.duration), return_exceptions=True)
    *room_results, stuck = results
    problems, players = [], []
    for result in room_results:
        if isinstance(result, BaseException):
            problems.append(f"a room failed: {result!r}")
        else:
            players += result
    for player in players:
        problems += player.problems
    drops = sum(p.drops for p in players)
    resumes = sum(p.resumes for p in players)
    checked = sum(p.checked for p in players)
    print(f"chaos clients: {len(players)} players, {drops} connections killed, {resumes} resumes, "
          f"{checked} states checked against snapshots")
    if isinstance(stuck, BaseException):
        problems.append(f"stuck client failed: {stuck!r}")
    else:
        cut, code, sent = stuck
        print(f"stuck client: cut off {'yes' if cut else 'no'} after {sent} chat lines; close code {code}")
        if not cut or code != 1008:
            problems.append(f"stuck client: expected a cut-off with close 1008, got cut={cut} code={code}")
    if drops == 0:
        problems.append("no connection was killed: the chaos did not happen")
    for problem in problems[:20]:
        print("PROBLEM", problem)
    print(json.dumps({"players": len(players), "killed": drops, "resumes": resumes, "checked": checked,
                      "problems": len(problems)}))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
