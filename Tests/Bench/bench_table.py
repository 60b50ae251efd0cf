#!/usr/bin/env python3
"""Prints the benchmark table from the JSON reports that run-benchmarks.sh had wordrooms-bots write.

Usage: bench_table.py OUT_DIR [--fanout-sizes "2000 5000"] IDLE_SIZE...

Reads OUT_DIR/<benchmark>-<server>.json (server: wordrooms, python, node, gorilla) and prints one row per figure
with a column per server that has reports, each peer's figure with WordRooms / peer beside it; then WordRooms with
permessage-deflate against without (the bots' --deflate runs, each beside the run just before it), then the
game-load figures of WordRooms. Standard library only.
"""

import json
import os
import statistics
import sys


def load(directory, name):
    path = os.path.join(directory, name + ".json")
    if not os.path.exists(path):
        return None
    with open(path) as handle:
        return json.load(handle)


def dig(report, *keys):
    value = report
    for key in keys:
        if value is None:
            return None
        value = value.get(key)
    return value


def fmt(value, unit):
    if value is None:
        return "n/a"
    if unit == "msg/s":
        return f"{value:,.0f} msg/s"
    if unit == "bytes":
        return f"{value / 1024:,.1f} KiB" if abs(value) >= 1024 else f"{value:,.0f} B"
    if unit == "%":
        return f"{value:.1f}%"
    if unit == "s":
        return f"{value:,.2f} s"
    if unit == "count":
        return f"{value:,}"
    if unit == "us":
        return f"{value / 1000:,.2f} ms" if value >= 1000 else f"{value:,.0f} us"
    return f"{value:,.2f}"


def flag(report):
    """Marks a figure from a run that had failures (it may not be comparable)."""
    return " (!)" if report is not None and report.get("failures") else ""


SERVERS = (("wordrooms", "WordRooms"), ("python", "Python websockets"), ("node", "Node ws"), ("gorilla", "Go gorilla"))


def parse_arguments(argv):
    """OUT_DIR [--fanout-sizes "A B"] IDLE_SIZE..."""
    directory = argv[1]
    rest = argv[2:]
    fanout_sizes = []
    if len(rest) >= 2 and rest[0] == "--fanout-sizes":
        fanout_sizes = rest[1].split()
        rest = rest[2:]
    return directory, fanout_sizes, rest


def cpu_per_message(report):
    """Server CPU seconds (user + system) per fanout message sent, in microseconds."""
    cpu = dig(report, "server", "cpu_seconds")
    sent = dig(report, "fanout", "sent")
    return cpu / sent * 1e6 if cpu is not None and sent else None


def main():
    directory, fanout_sizes, idle_sizes = parse_arguments(sys.argv)
    rows = []
    # Servers with at least one report in this directory, WordRooms first.
    present = [(key, title) for key, title in SERVERS
               if key == "wordrooms" or any(name.endswith(f"-{key}.json") for name in os.listdir(directory))]

    def row(label, name, unit, better, *keys, figure=None):
        get = figure or (lambda report: dig(report, *keys))
        ours_report = load(directory, f"{name}-wordrooms")
        ours = get(ours_report) if ours_report is not None else None
        cells = [fmt(ours, unit) + flag(ours_report)]
        for key, _ in present[1:]:
            report = load(directory, f"{name}-{key}")
            theirs = get(report) if report is not None else None
            cell = fmt(theirs, unit) + flag(report)
            if report is None:
                cell = "-"
            elif ours is not None and theirs and unit != "count":
                cell += f" ({ours / theirs:.2f}x)"
            cells.append(cell)
        rows.append((label, *cells, better))

    row("echo 100 conn x 32 in flight, 32 B", "echo-pipelined", "msg/s", "higher", "echo", "round_trips_per_s")
    row("  round trip p99", "echo-pipelined", "us", "lower", "echo", "round_trip", "p99_us")
    row("  server CPU", "echo-pipelined", "%", "-", "server", "cpu_percent")
    row("echo 1,000 conn ping-pong, 32 B", "echo-pingpong", "msg/s", "higher", "echo", "round_trips_per_s")
    row("  round trip p99", "echo-pingpong", "us", "lower", "echo", "round_trip", "p99_us")
    row("  server CPU", "echo-pingpong", "%", "-", "server", "cpu_percent")
    for size in idle_sizes:
        row(f"idle memory / connection at {int(size):,}", f"idle-{size}", "bytes", "lower",
            "server", "bytes_per_connection")
        row("  connections that stayed up", f"idle-{size}", "count", "higher", "idle", "stayed_up")
    row("server CPU at 1,000 conn x 20 msg/s", "cpu-20k", "%", "lower", "server", "cpu_percent")
    row("  achieved round trips", "cpu-20k", "msg/s", "-", "echo", "round_trips_per_s")
    row("  round trip p99", "cpu-20k", "us", "lower", "echo", "round_trip", "p99_us")
    row("  bots CPU (same client both runs)", "cpu-20k", "%", "-", "bots", "cpu_percent")
    for size in fanout_sizes:
        name = f"fanout-{size}"
        row(f"room fan-out {int(size):,} clients, rooms of 8: server CPU", name, "%", "lower", "server", "cpu_percent")
        row("  server CPU per message sent", name, "us", "lower", figure=cpu_per_message)
        row("  server user CPU", name, "s", "lower", "server", "cpu_user_seconds")
        row("  server system CPU", name, "s", "lower", "server", "cpu_system_seconds")
        row("  own message back p50", name, "us", "lower", "fanout", "round_trip", "p50_us")
        row("  own message back p99", name, "us", "lower", "fanout", "round_trip", "p99_us")
        row("  own message back max", name, "us", "lower", "fanout", "round_trip", "max_us")
        row("  messages sent / s", name, "msg/s", "-", "fanout", "sent_per_s")
        row("  deliveries per message", name, "float", "-", "fanout", "deliveries_per_message")
        row("  server RSS at the end", name, "bytes", "lower", "server", "end", "resident_bytes")

    header = ("benchmark", *(title for _, title in present), "better")
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    print("  ".join(text.ljust(width) for text, width in zip(header, widths)))
    print("  ".join("-" * width for width in widths))
    for r in rows:
        print("  ".join(text.ljust(width) for text, width in zip(r, widths)))
    if any("(!)" in cell for r in rows for cell in r[1:-1]):
        print("(!) the run had failures (see its .txt)")
    print("(Nx) = WordRooms / that server; server CPU in % of one core over the run; '-': not run on that server")
    print("room fan-out: wordrooms-bots fanout, one 200-byte message per client per second; 'own message back' is")
    print("from a client sending to the broadcast bringing it back to it, timed after the first quarter of the run")

    print_deflate(directory, idle_sizes)

    for name, title in (("play-wordrooms", "game load: 1,250 rooms x 8 bots, 1 move/s each (mixed games), polling bots"),
                        ("play-sleeping-wordrooms", "game load as above, bots sleeping in epoll (shorter run)"),
                        ("fanout-wordrooms", "spectator fan-out: 50 Snowman rooms x (2 players + 200 spectators), 5 moves/s;"
                                             " latency after a 10 s warm-up, polling bots")):
        report = load(directory, name)
        print()
        print(title + flag(report))
        if report is None:
            print("  no report")
            continue
        play = report.get("play", {})
        latency = play.get("move_to_patch", {})
        print(f"  connections      {report['connections']['opened']:,} opened of "
              f"{report['connections']['attempted']:,}; failures: {', '.join(report['failures']) or 'none'}")
        print(f"  moves            {play.get('moves', 0):,} ({play.get('moves_per_s', 0):,.0f}/s); patches received "
              f"{play.get('patches', 0):,} ({report['messages']['in_per_s']:,.0f} msg/s in)")
        print(f"  move -> patch    p50 {fmt(latency.get('p50_us'), 'us')}  p90 {fmt(latency.get('p90_us'), 'us')}  "
              f"p99 {fmt(latency.get('p99_us'), 'us')}  max {fmt(latency.get('max_us'), 'us')}")
        delivery = play.get("patch_delivery", {})
        print(f"  delivery         p50 {fmt(delivery.get('p50_us'), 'us')}  p90 {fmt(delivery.get('p90_us'), 'us')}  "
              f"p99 {fmt(delivery.get('p99_us'), 'us')}  max {fmt(delivery.get('max_us'), 'us')}  "
              f"(n={delivery.get('count', 0):,}: every member, spectators included)")
        print(f"  kinds of moves   {play.get('guesses', 0):,} guesses, {play.get('words', 0):,} words, "
              f"{play.get('chats', 0):,} chat lines; unanswered {play.get('unanswered_moves', 0):,}, "
              f"resyncs {play.get('resyncs', 0):,}")
        print(f"  join latency     p99 {fmt(dig(play, 'join_latency', 'p99_us'), 'us')}")
        print(f"  server           CPU {fmt(dig(report, 'server', 'cpu_percent'), '%')} of one core, RSS "
              f"{fmt(dig(report, 'server', 'start', 'resident_bytes'), 'bytes')} -> "
              f"{fmt(dig(report, 'server', 'end', 'resident_bytes'), 'bytes')}")
        print(f"  bots             CPU {fmt(dig(report, 'bots', 'cpu_percent'), '%')} of one core")
        if name == "play-wordrooms":
            print_repeats(directory)


def cpu_per_move(report):
    """Server CPU seconds (user + system) per move, in microseconds."""
    cpu = dig(report, "server", "cpu_seconds")
    moves = dig(report, "play", "moves")
    return cpu / moves * 1e6 if cpu is not None and moves else None


def print_deflate(directory, idle_sizes):
    """WordRooms with the bots offering permessage-deflate against the same run without, one row per figure."""
    pairs = [(f"idle memory / connection at {int(size):,}", f"idle-{size}-wordrooms", f"idle-{size}-deflate-wordrooms",
              "bytes", lambda r: dig(r, "server", "bytes_per_connection")) for size in idle_sizes]
    index = 1
    while os.path.exists(os.path.join(directory, f"play200-deflate-wordrooms{'' if index == 1 else f'-{index}'}.json")):
        suffix = "" if index == 1 else f"-{index}"
        plain, deflate = f"play200-wordrooms{suffix}", f"play200-deflate-wordrooms{suffix}"
        pairs += [
            (f"200 rooms x 8, run {index}: wire B / message in", plain, deflate, "float",
             lambda r: dig(r, "messages", "wire_bytes_per_message_in")),
            ("  wire / payload in", plain, deflate, "share", lambda r: dig(r, "messages", "wire_to_payload_in")),
            ("  wire / payload out", plain, deflate, "share", lambda r: dig(r, "messages", "wire_to_payload_out")),
            ("  server CPU per move", plain, deflate, "us", cpu_per_move),
            ("  server memory / connection", plain, deflate, "bytes", lambda r: dig(r, "server", "bytes_per_connection")),
            ("  server CPU", plain, deflate, "%", lambda r: dig(r, "server", "cpu_percent")),
            ("  move -> patch p99", plain, deflate, "us", lambda r: dig(r, "play", "move_to_patch", "p99_us")),
            ("  connections negotiated", plain, deflate, "count",
             lambda r: dig(r, "compression", "negotiated_connections")),
        ]
        index += 1
    rows = []
    for label, plain_name, deflate_name, unit, figure in pairs:
        plain, deflate = load(directory, plain_name), load(directory, deflate_name)
        if deflate is None:
            continue
        ours = figure(plain) if plain is not None else None
        theirs = figure(deflate)
        ratio = f"{theirs / ours:.2f}x" if ours and theirs is not None and unit != "count" else "-"

        def show(value):
            if unit == "share":
                return "n/a" if value is None else f"{value * 100:.1f}%"
            if unit == "float":
                return "n/a" if value is None else f"{value:,.1f} B"
            if unit == "us" and value is not None and value < 1000:
                return f"{value:,.1f} us"
            return fmt(value, unit)
        rows.append((label, show(ours) + flag(plain), show(theirs) + flag(deflate), ratio))
    if not rows:
        return
    header = ("permessage-deflate (WordRooms)", "without", "bots --deflate", "with/without")
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(4)]
    print()
    print("  ".join(text.ljust(width) for text, width in zip(header, widths)))
    print("  ".join("-" * width for width in widths))
    for r in rows:
        print("  ".join(text.ljust(width) for text, width in zip(r, widths)))
    print("each --deflate run beside the run just before it without; wire = frame bytes on the bots' sockets")
    print("(handshakes left out), payload = message bytes before compression / after inflation;")
    print("CPU per move = the server's user + system seconds / moves")


def print_repeats(directory):
    """The move -> patch p99 of every game load run (play-wordrooms, play-wordrooms-2, ...) and their median."""
    runs = [load(directory, "play-wordrooms")]
    index = 2
    while os.path.exists(os.path.join(directory, f"play-wordrooms-{index}.json")):
        runs.append(load(directory, f"play-wordrooms-{index}"))
        index += 1
    if len(runs) < 2:
        return
    p99s = [dig(run, "play", "move_to_patch", "p99_us") for run in runs if run is not None]
    p99s = [value for value in p99s if value is not None]
    cpus = [dig(run, "server", "cpu_percent") for run in runs if run is not None]
    cpus = [value for value in cpus if value is not None]
    if not p99s:
        return
    label = f"all {len(runs)} runs"
    print(f"  {label:<17}move -> patch p99 " + ", ".join(fmt(value, 'us') for value in p99s)
          + f"; median {fmt(statistics.median(p99s), 'us')}")
    if cpus:
        print(f"  {'':<17}server CPU " + ", ".join(fmt(value, '%') for value in cpus))


if __name__ == "__main__":
    main()
