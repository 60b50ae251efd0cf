#!/usr/bin/env python3
"""WebSocket checks of a deployed WordRooms, through its proxy, with the `websockets` library as the client.

  deploy_client.py game   --base https://127.0.0.1:8443 --insecure [--guesses 6]
  deploy_client.py stop   --base https://127.0.0.1:8443 --insecure --pid PID [--no-proxy]
  deploy_client.py shards --base http://127.0.0.1:8080 --letters ABC --stop-letter B --stop-pid PID
  deploy_client.py xff    --base https://127.0.0.1:8443 --insecure --direct http://127.0.0.1:8080 --cap 2

game: creates a Snowman room at /ws, joins it with a second player at /ws/CODE and plays guesses in turn; both
players must see the same patches in sequence. stop: a room's players get close 1001 when the server gets
SIGTERM, and a new connection is refused with 503 (the proxy's error page; with --no-proxy: the port is closed). shards: rooms on every shard, games on
all, /api/rooms from any instance lists all rooms, then one shard stops: its players get 1001 and reconnects get
503, while the other shards keep playing and creating rooms. xff: the server (run with --trusted-proxy 127.0.0.1
--max-connections-per-ip CAP) counts connections by the X-Forwarded-For address a trusted peer reports, and nginx
replaces a client's forged X-Forwarded-For with the client's real (here loopback, so uncapped) address.

Prints one JSON object with the results on stdout; progress on stderr. Exit status 0 when every check passed.
"""

import argparse
import asyncio
import copy
import dataclasses
import json
import os
import signal
import ssl
import sys
import time
import urllib.request

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

# Guess order: English letter frequency.
LETTER_ORDER = "etaoinshrdlucmfwypvbgkjqxz"
GOING_AWAY = 1001
STEP_TIMEOUT = 5.0


class CheckFailed(Exception):
    pass


def log(text):
    print(f"[client] {text}", file=sys.stderr, flush=True)


# RFC 6902 JSON Patch, the subset of behaviour the server uses (add, remove, replace, move, copy, test).
def _pointer(path):
    if path == "":
        return []
    return [part.replace("~1", "/").replace("~0", "~") for part in path[1:].split("/")]


def _resolve(doc, parts):
    for part in parts:
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    return doc


def apply_patch(doc, ops):
    for op in ops:
        parts = _pointer(op["path"])
        kind = op["op"]
        if kind == "test":
            if _resolve(doc, parts) != op["value"]:
                raise CheckFailed(f"patch test failed at {op['path']}")
            continue
        if kind in ("move", "copy"):
            source = _pointer(op["from"])
            value = copy.deepcopy(_resolve(doc, source))
            if kind == "move":
                doc = apply_patch(doc, [{"op": "remove", "path": op["from"]}])
            kind = "add"
        else:
            value = op.get("value")
        if not parts:
            if kind == "remove":
                raise CheckFailed("patch removes the whole document")
            doc = value
            continue
        parent = _resolve(doc, parts[:-1])
        key = parts[-1]
        if isinstance(parent, list):
            if kind == "add":
                parent.insert(len(parent) if key == "-" else int(key), value)
            elif kind == "remove":
                del parent[int(key)]
            else:
                parent[int(key)] = value
        else:
            if kind == "remove":
                del parent[key]
            else:
                parent[key] = value
    return doc


class Endpoint:
    """Where the deployment answers: http(s)://HOST:PORT and the matching ws(s):// URLs."""

    def __init__(self, base, insecure):
        self.base = base.rstrip("/")
        self.ws_base = "wss" + self.base[5:] if self.base.startswith("https") else "ws" + self.base[4:]
        self.ssl = None
        if self.base.startswith("https"):
            self.ssl = ssl.create_default_context()
            if insecure:
                self.ssl.check_hostname = False
                self.ssl.verify_mode = ssl.CERT_NONE

    def get(self, path, timeout=5):
        with urllib.request.urlopen(self.base + path, timeout=timeout, context=self.ssl) as reply:
            return reply.status, reply.read()

    def rooms(self):
        """Every public room, page after page (GET /api/rooms serves at most 50 at a time, most players first:
        the bots' full rooms come before ours)."""
        rooms = {}
        offset = 0
        while True:
            status, body = self.get(f"/api/rooms?offset={offset}&limit=50")
            if status != 200:
                raise CheckFailed(f"GET /api/rooms answered {status}")
            page = json.loads(body)
            rooms.update({room["code"]: room for room in page["rooms"]})
            offset += len(page["rooms"])
            if not page["rooms"] or offset >= page.get("total", 0):
                return rooms


@dataclasses.dataclass(eq=False)
class Player:
    """One WebSocket client of the game protocol, keeping the room state up to date from patches."""

    name: str
    ws: object = None  # the connection, once open()ed
    state: dict | None = None  # the room state as of seq
    seq: int | None = None
    you: str | None = None  # this player's member id, from the welcome
    code: str | None = None  # the room code, from the welcome
    errors: list = dataclasses.field(default_factory=list)  # error messages the server sent
    gaps: int = 0  # patches that did not follow the last seq
    patches: int = 0  # patches applied
    close_code: int | None = None
    closed: bool = False
    # Notified on every message and on close, for wait().
    changed: asyncio.Condition = dataclasses.field(default_factory=asyncio.Condition)
    reader: asyncio.Task | None = None  # the task that reads messages

    async def open(self, url, endpoint):
        self.ws = await connect(url, ssl=endpoint.ssl, open_timeout=STEP_TIMEOUT, max_size=1 << 22)
        self.reader = asyncio.create_task(self._read())

    async def _read(self):
        try:
            async for text in self.ws:
                self._handle(json.loads(text))
                async with self.changed:
                    self.changed.notify_all()
        except ConnectionClosed:
            pass
        finally:
            self.closed = True
            self.close_code = self.ws.close_code
            async with self.changed:
                self.changed.notify_all()

    def _handle(self, message):
        kind = message.get("type")
        if kind == "welcome":
            self.code, self.you, self.seq = message["code"], message["you"], message["seq"]
            if "state" in message:
                self.state = message["state"]
        elif kind == "snapshot":
            self.seq, self.state = message["seq"], message["state"]
        elif kind == "patch":
            if self.seq is None or message["seq"] != self.seq + 1:
                self.gaps += 1
            else:
                self.state = apply_patch(self.state, message["ops"])
                self.seq = message["seq"]
                self.patches += 1
        elif kind == "error":
            self.errors.append(message)

    async def send(self, **message):
        await self.ws.send(json.dumps(message))

    async def wait(self, predicate, what, timeout=STEP_TIMEOUT):
        def done():
            return self.errors or self.closed or predicate()

        try:
            async with self.changed:
                await asyncio.wait_for(self.changed.wait_for(done), timeout)
        except TimeoutError:
            raise CheckFailed(f"{self.name}: no {what} within {timeout:.0f} s") from None
        if self.errors:
            raise CheckFailed(f"{self.name}: error while waiting for {what}: {self.errors[-1]}")
        if not predicate():
            raise CheckFailed(f"{self.name}: connection closed ({self.close_code}) while waiting for {what}")

    async def close(self):
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await self.reader


async def create_room(endpoint, name, game="snowman"):
    host = Player(name)
    await host.open(endpoint.ws_base + "/ws", endpoint)
    await host.send(type="create", game=game, name=name, public=True)
    await host.wait(lambda: host.code is not None, "welcome after create")
    return host


async def join_room(endpoint, code, name, room_path=True):
    """Joins at /ws/CODE (the shard router's route), or /ws when room_path is False."""
    player = Player(name)
    await player.open(endpoint.ws_base + (f"/ws/{code}" if room_path else "/ws"), endpoint)
    await player.send(type="join", code=code, name=name)
    await player.wait(lambda: player.code == code, f"welcome to {code}")
    return player


async def room_path_supported(endpoint, code):
    """True when the server takes /ws/CODE (a 404 handshake means this build only has /ws)."""
    try:
        probe = await connect(f"{endpoint.ws_base}/ws/{code}", ssl=endpoint.ssl, open_timeout=STEP_TIMEOUT)
    except InvalidStatus as error:
        if error.response.status_code == 404:
            return False
        raise
    await probe.close()
    return True


async def play_guesses(players, count):
    """Plays `count` Snowman guesses, each by the player whose turn it is; every player must see each one."""
    host = players[0]
    for _ in range(count):
        game = host.state["snowman"]
        if game["status"] != "inProgress":
            number = game["gameNumber"]
            await host.send(type="new_game")
            for p in players:
                await p.wait(lambda p=p: p.state["snowman"]["gameNumber"] > number, "the next game")
            game = host.state["snowman"]
        mover = next((p for p in players if p.you == game.get("turn")), host)
        guessed = {g["letter"].lower() for g in game["guesses"]}
        letter = next(c for c in LETTER_ORDER if c not in guessed)
        number, made = game["gameNumber"], len(game["guesses"])
        await mover.send(type="guess", letter=letter)
        for p in players:
            await p.wait(
                lambda p=p: p.state["snowman"]["gameNumber"] != number or len(p.state["snowman"]["guesses"]) > made,
                f"the patch of guess '{letter}' in {host.code}",
            )
    # Every player ends on the same seq with the same state.
    await asyncio.sleep(0.2)
    for p in players[1:]:
        await p.wait(lambda p=p: p.seq == host.seq, f"seq {host.seq} in {host.code}")
        if p.state != host.state:
            raise CheckFailed(f"{p.name} and {host.name} disagree on the state of {host.code} at seq {host.seq}")
    gaps = sum(p.gaps for p in players)
    if gaps:
        raise CheckFailed(f"{gaps} patch gaps in {host.code}")


async def expect_refused(endpoint, path, statuses=(502, 503)):
    """A WebSocket handshake at `path` must fail with one of `statuses`; returns (status, body)."""
    try:
        ws = await connect(endpoint.ws_base + path, ssl=endpoint.ssl, open_timeout=STEP_TIMEOUT)
    except InvalidStatus as error:
        status = error.response.status_code
        body = (error.response.body or b"").decode("utf-8", "replace").strip()
        if status not in statuses:
            raise CheckFailed(f"reconnect to {path}: status {status}, expected one of {statuses}") from None
        return status, body
    await ws.close()
    raise CheckFailed(f"reconnect to {path} was accepted; expected {statuses}")


async def wait_closed(players, code, timeout=10.0):
    for p in players:
        try:
            async with p.changed:
                await asyncio.wait_for(p.changed.wait_for(lambda p=p: p.closed), timeout)
        except TimeoutError:
            raise CheckFailed(f"{p.name} still connected {timeout:.0f} s after SIGTERM") from None
        if p.close_code != code:
            raise CheckFailed(f"{p.name} got close code {p.close_code}, expected {code}")


async def run_game(args, endpoint, result):
    host = await create_room(endpoint, "Ana")
    result["code"] = host.code
    room_path = await room_path_supported(endpoint, host.code)
    result["room_path"] = room_path
    if not room_path:
        log("this server has no /ws/CODE route yet: the second player joins at /ws")
    guest = await join_room(endpoint, host.code, "Bob", room_path)
    await host.wait(lambda: len(host.state["members"]) == 2, "the second member")
    await play_guesses([host, guest], args.guesses)
    result["guesses"] = args.guesses
    result["patches"] = host.patches
    result["seq"] = host.seq
    rooms = endpoint.rooms()
    if host.code not in rooms:
        raise CheckFailed(f"GET /api/rooms does not list {host.code}: {sorted(rooms)}")
    await guest.send(type="leave")
    await host.close()
    await guest.close()
    log(f"played {args.guesses} guesses in {host.code} ({host.patches} patches, seq {host.seq})")


async def run_stop(args, endpoint, result):
    host = await create_room(endpoint, "Ana")
    room_path = await room_path_supported(endpoint, host.code)
    guest = await join_room(endpoint, host.code, "Bob", room_path)
    await play_guesses([host, guest], 2)
    started = time.monotonic()
    os.kill(args.pid, signal.SIGTERM)
    await wait_closed([host, guest], GOING_AWAY)
    result["close_code"] = GOING_AWAY
    result["closed_after_s"] = round(time.monotonic() - started, 2)
    await asyncio.sleep(0.5)
    path = f"/ws/{host.code}" if room_path else "/ws"
    if args.no_proxy:
        try:
            ws = await connect(endpoint.ws_base + path, ssl=endpoint.ssl, open_timeout=STEP_TIMEOUT)
        except ConnectionRefusedError:
            log(f"SIGTERM: both players got 1001 in {result['closed_after_s']} s; the port is closed")
            return
        await ws.close()
        raise CheckFailed("the stopped server still accepts connections")
    status, body = await expect_refused(endpoint, path)
    result["reconnect_status"], result["reconnect_body"] = status, body
    log(f"SIGTERM: both players got 1001 in {result['closed_after_s']} s; reconnect refused with {status}: {body}")


async def admitted(endpoint, forwarded_for, keep):
    """Opens a game socket claiming X-Forwarded-For; True when it stays open (not closed 1008 by the cap)."""
    ws = await connect(endpoint.ws_base + "/ws", ssl=endpoint.ssl, open_timeout=STEP_TIMEOUT,
                       additional_headers={"X-Forwarded-For": forwarded_for})
    try:
        await asyncio.wait_for(ws.recv(), 0.5)
    except TimeoutError:
        keep.append(ws)
        return True
    except ConnectionClosed:
        if ws.close_code != 1008:
            raise CheckFailed(f"a capped connection closed with {ws.close_code}, expected 1008") from None
        return False
    raise CheckFailed("the server sent a message to a socket that said nothing")


async def run_xff(args, endpoint, result):
    direct = Endpoint(args.direct, False)
    keep = []
    try:
        opened = [await admitted(direct, "198.51.100.7", keep) for _ in range(args.cap + 1)]
        if opened != [True] * args.cap + [False]:
            raise CheckFailed(f"direct, X-Forwarded-For 198.51.100.7 from the trusted proxy: admitted {opened}, "
                              f"expected {args.cap} then a refusal (close 1008)")
        if not await admitted(direct, "198.51.100.8", keep):
            raise CheckFailed("direct: another X-Forwarded-For address was refused too")
        log(f"server: connections counted per X-Forwarded-For address (cap {args.cap}, then close 1008)")
        proxied = [await admitted(endpoint, "198.51.100.9", keep) for _ in range(args.cap + 1)]
        if not all(proxied):
            raise CheckFailed(f"through nginx, a forged X-Forwarded-For reached the server: admitted {proxied}")
        log("nginx: a forged X-Forwarded-For is replaced by the client's own address")
        result["cap"] = args.cap
    finally:
        for ws in keep:
            await ws.close()


async def run_shards(args, endpoint, result):
    letters = args.letters
    rooms = {}
    created = 0
    while len(rooms) < len(letters):
        created += 1
        if created > 20 * len(letters):
            raise CheckFailed(f"{created - 1} rooms created through /ws, still none on shards {set(letters) - set(rooms)}")
        host = await create_room(endpoint, f"Host{created}")
        letter = host.code[0]
        if letter not in letters:
            raise CheckFailed(f"room code {host.code} starts with no shard letter of {letters}")
        if len(host.code) != 5:
            raise CheckFailed(f"room code {host.code} is not 5 letters (sharded codes are)")
        if letter in rooms:
            await host.send(type="leave")
            await host.close()
            continue
        guest = await join_room(endpoint, host.code, f"Guest{created}")
        rooms[letter] = [host, guest]
        log(f"shard {letter}: room {host.code}")
    result["rooms"] = {letter: players[0].code for letter, players in sorted(rooms.items())}
    result["creates_needed"] = created

    await asyncio.gather(*(play_guesses(players, args.guesses) for players in rooms.values()))
    log(f"played {args.guesses} guesses in each of {len(rooms)} rooms, joiners at /ws/CODE")

    codes = {players[0].code for players in rooms.values()}
    deadline = time.monotonic() + 10
    while True:
        # Several requests in a row: the router spreads them over the instances.
        listings = [set(endpoint.rooms()) for _ in range(2 * len(letters))]
        if all(codes <= listing for listing in listings):
            break
        if time.monotonic() > deadline:
            missing = sorted(codes - set.intersection(*listings))
            raise CheckFailed(f"GET /api/rooms through the router misses {missing} after 10 s")
        await asyncio.sleep(0.5)
    result["api_rooms_lists_all"] = True
    log(f"GET /api/rooms lists the rooms of all {len(letters)} shards, whichever instance answers")

    if not args.stop_letter:
        return
    stopped = rooms[args.stop_letter]
    others = {letter: players for letter, players in rooms.items() if letter != args.stop_letter}
    started = time.monotonic()
    os.kill(args.stop_pid, signal.SIGTERM)
    await wait_closed(stopped, GOING_AWAY)
    result["stopped_close_code"] = GOING_AWAY
    result["stopped_closed_after_s"] = round(time.monotonic() - started, 2)
    await asyncio.sleep(0.5)
    status, body = await expect_refused(endpoint, f"/ws/{stopped[0].code}")
    result["stopped_reconnect_status"], result["stopped_reconnect_body"] = status, body
    log(f"shard {args.stop_letter} stopped: players got 1001 in {result['stopped_closed_after_s']} s, "
        f"reconnect refused with {status}: {body}")

    await asyncio.gather(*(play_guesses(players, args.guesses) for players in others.values()))
    log(f"shards {''.join(sorted(others))} keep playing: {args.guesses} more guesses each")
    fresh = []
    for i in range(len(letters)):
        host = await create_room(endpoint, f"Late{i}")
        if host.code[0] == args.stop_letter:
            raise CheckFailed(f"room {host.code} created on the stopped shard")
        fresh.append(host)
    result["creates_after_stop"] = [host.code for host in fresh]
    log(f"rooms still created through /ws: {result['creates_after_stop']}")

    deadline = time.monotonic() + 20
    alive = {players[0].code for players in others.values()}
    while True:
        listing = set(endpoint.rooms())
        if stopped[0].code not in listing and alive <= listing:
            break
        if time.monotonic() > deadline:
            raise CheckFailed(f"20 s after the stop GET /api/rooms lists {sorted(listing)}: expected "
                              f"{sorted(alive)} without {stopped[0].code}")
        await asyncio.sleep(1)
    result["stopped_rooms_gone_after_s"] = round(time.monotonic() - started, 1)
    log(f"the stopped shard's room left /api/rooms after {result['stopped_rooms_gone_after_s']} s")
    for players in [*others.values(), [*fresh]]:
        for p in players:
            await p.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenario", choices=["game", "stop", "shards", "xff"])
    parser.add_argument("--base", required=True, help="http(s)://HOST:PORT of the proxy")
    parser.add_argument("--insecure", action="store_true", help="accept any TLS certificate (self-signed tests)")
    parser.add_argument("--guesses", type=int, default=6)
    parser.add_argument("--pid", type=int, help="stop: the server to SIGTERM")
    parser.add_argument("--no-proxy", action="store_true",
                        help="stop: --base is the server itself, so reconnects find the port closed")
    parser.add_argument("--letters", default="ABC", help="shards: the shard letters in use")
    parser.add_argument("--stop-letter", help="shards: the shard to stop")
    parser.add_argument("--stop-pid", type=int, help="shards: that shard's server")
    parser.add_argument("--direct", help="xff: http://HOST:PORT of the server itself")
    parser.add_argument("--cap", type=int, default=2, help="xff: the server's --max-connections-per-ip")
    args = parser.parse_args()
    endpoint = Endpoint(args.base, args.insecure)
    scenario = {"game": run_game, "stop": run_stop, "shards": run_shards, "xff": run_xff}[args.scenario]
    result = {"scenario": args.scenario, "ok": False}
    try:
        asyncio.run(scenario(args, endpoint, result))
        result["ok"] = True
    except Exception as error:  # every failure becomes the result's error, reported the same way
        result["error"] = f"{type(error).__name__}: {error}"
        log(f"FAILED: {result['error']}")
    print(json.dumps(result))
    sys.exit(0 if result["ok"] else 1)


if __name__ == "__main__":
    main()
