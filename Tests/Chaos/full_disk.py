"""A full data volume, for real: the server's --data directory on a tmpfs of 512 KiB, which the test fills.

While the disk is full, players keep playing; /readyz must answer 503 saying why, /metrics must count the
failures, and the log must say so once (not once per write). Once space comes back, /readyz must answer 200
again, and after kill -9 and a restart every player resumes at exactly the seq it saw ("resumed": true: the
room was saved at that seq). Then the disk is filled again and the server stopped with SIGTERM: the stop line
must say how many rooms were not saved and why, and a restart must bring back the rooms as last saved.

Mounting needs root (CAP_SYS_ADMIN); without it the test says so and is skipped.

Usage: full_disk.py --server PATH/wordrooms [--rooms 5]
"""
import argparse
import asyncio
import errno
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

import websockets


def mount_tmpfs(path, size):
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", path],
                            capture_output=True, text=True)
    return result.returncode == 0, result.stderr.strip()


class Server:
    def __init__(self, binary, data, log_path):
        self.log_path = log_path
        self.log = open(log_path, "a")
        self.process = subprocess.Popen([binary, "--host", "127.0.0.1", "--port", "0", "--threads", "2",
                                         "--data", data, "--message-rate", "1000"],
                                        stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.process.stdout.readline()
        self.port = int(re.search(r"127\.0\.0\.1:(\d+)/", line).group(1))

    def get(self, path):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=5) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def wait_ready(self, status, seconds=10):
        deadline = time.monotonic() + seconds
        while True:
            answer = self.get("/readyz")
            if answer[0] == status or time.monotonic() > deadline:
                return answer
            time.sleep(0.1)

    def metric(self, name):
        text = self.get("/metrics")[1]
        match = re.search(rf"^{name} (\d+)$", text, re.M)
        return int(match.group(1)) if match else None

    def kill9(self):
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def terminate(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=20)

    def lines(self):
        self.log.flush()
        with open(self.log_path) as log:
            return log.read().splitlines()


class Player:
    """One room's only player: creates it, chats, and remembers the last seq it saw."""

    async def create(self, port, index):
        self.ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws", proxy=None, max_size=None)
        await self.ws.send(json.dumps({"type": "create", "game": "snowman", "name": f"P{index}", "public": False}))
        welcome = json.loads(await self.ws.recv())
        self.code, self.token, self.seq = welcome["code"], welcome["token"], welcome["seq"]
        # A private room opens only with its key (PROTOCOL.md, "Private rooms"), resumes included.
        self.key = welcome.get("key")
        self.lines = 0

    async def chat(self, count):
        for _ in range(count):
            self.lines += 1
            await self.ws.send(json.dumps({"type": "chat", "text": f"line {self.lines}"}))
            # Each line is one patch: wait for it, so that `seq` is what the player saw.
            while True:
                message = json.loads(await asyncio.wait_for(self.ws.recv(), 10))
                if message["type"] == "patch":
                    self.seq = message["seq"]
                    break

    async def resume(self, port):
        self.ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws", proxy=None, max_size=None)
        join = {"type": "join", "code": self.code, "token": self.token, "seq": self.seq}
        if self.key:
            join["key"] = self.key
        await self.ws.send(json.dumps(join))
        welcome = json.loads(await asyncio.wait_for(self.ws.recv(), 10))
        self.seated = welcome.get("type") == "welcome"
        return welcome


def fill(directory):
    """Fills the file system holding `directory`; returns the filler's path."""
    path = os.path.join(directory, "filler")
    with open(path, "wb", buffering=0) as filler:
        block = b"\0" * 4096
        try:
            while True:
                filler.write(block)
        except OSError as error:
            if error.errno != errno.ENOSPC:
                raise
    return path


def check(condition, message, failures):
    print(("ok: " if condition else "FAILED: ") + message)
    if not condition:
        failures.append(message)


async def run(binary, rooms, mount_point, log_path, failures):
    data = os.path.join(mount_point, "data")
    server = Server(binary, data, log_path)
    players = [Player() for _ in range(rooms)]
    try:
        for index, player in enumerate(players):
            await player.create(server.port, index)
            await player.chat(3)
        check(server.get("/readyz") == (200, "ready\n"), "ready before the disk fills", failures)
        filler = fill(mount_point)
        for _ in range(4):
            for player in players:
                await player.chat(5)
        status, body = server.wait_ready(503)
        check(status == 503 and "No space left on device (ENOSPC)" in body,
              f"/readyz answers 503 while saving fails: {status} {body.strip()!r}", failures)
        failed = server.metric("wordrooms_journal_write_failures_total")
        check(failed is not None and failed > 0, f"wordrooms_journal_write_failures_total counts them: {failed}", failures)
        # The cause once; its repeats only as a count ("×N in the last 10 s").
        write_lines = [line for line in server.lines() if "journal: write failed" in line and "×" not in line]
        check(len(write_lines) == 1, f"one log line for the cause, not one per write: {write_lines[:3]}", failures)
        os.remove(filler)
        status, body = server.wait_ready(200)
        check(status == 200, f"/readyz answers 200 once space comes back: {status} {body.strip()!r}", failures)
        check(any("journal: writing again after" in line for line in server.lines()), "the recovery is logged", failures)
        # One flush and its fsync.
        await asyncio.sleep(0.5)
        server.kill9()

        server = Server(binary, data, log_path)
        for player in players:
            welcome = await player.resume(server.port)
            check(welcome.get("type") == "welcome" and welcome.get("resumed") is True,
                  f"room {player.code} resumes at seq {player.seq}, the one its player saw: "
                  f"{ {key: welcome.get(key) for key in ('type', 'seq', 'resumed')} }", failures)

        # A stop on a full disk says what it could not save.
        filler = fill(mount_point)
        for player in players:
            if player.seated:
                await player.chat(3)
        server.terminate()
        stop = [line for line in server.lines() if line.startswith("stopped:")][-1]
        check(re.search(r"saved \d+ of \d+ rooms in [\d.]+ s; \d+ not saved \(No space left on device \(ENOSPC\)\)", stop)
              is not None, f"the stop line says what was not saved: {stop!r}", failures)
        os.remove(filler)
        server = Server(binary, data, log_path)
        status, _ = server.wait_ready(200)
        restored = [line for line in server.lines() if line.startswith("restored ")]
        check(status == 200 and restored and restored[-1].startswith(f"restored {rooms} rooms"),
              f"the rooms are back after the restart: {restored[-1:]}", failures)
    finally:
        if server.process.poll() is None:
            server.kill9()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--rooms", type=int, default=5)
    args = parser.parse_args()
    mount_point = tempfile.mkdtemp(prefix="wordrooms-full-disk-")
    mounted, problem = mount_tmpfs(mount_point, "512k")
    if not mounted:
        os.rmdir(mount_point)
        print(f"skipped: cannot mount a 512 KiB tmpfs to fill (needs root or CAP_SYS_ADMIN): {problem}")
        return 0
    failures = []
    # A timeout's SIGTERM still unmounts.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    log_path = os.path.join(tempfile.gettempdir(), f"wordrooms-full-disk-{os.getpid()}.log")
    try:
        asyncio.run(run(args.server, args.rooms, mount_point, log_path, failures))
    finally:
        subprocess.run(["umount", "-l", mount_point])
        os.rmdir(mount_point)
    if failures:
        print(f"server log: {log_path}")
    else:
        os.remove(log_path)
    print("full disk: " + ("all checks passed" if not failures else f"{len(failures)} checks FAILED"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
