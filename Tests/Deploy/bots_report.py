#!/usr/bin/env python3
"""Summaries of `wordrooms-bots --json` reports.

  bots_report.py line REPORT.json                 one line: rooms, moves/s, move->patch p99, errors
  bots_report.py table LABEL=REPORT.json ...       a table, one row per report, and a total row when several
"""

import json
import sys


def figures(path):
    report = json.load(open(path))
    play = report["play"]
    return {
        "rooms": play["rooms_created"],
        "failed_rooms": play["rooms_failed"],
        "connections": report["connections"]["opened"],
        "moves": play["moves"],
        "moves_per_s": play["moves_per_s"],
        "p50_ms": play["move_to_patch"]["p50_us"] / 1000,
        "p99_ms": play["move_to_patch"]["p99_us"] / 1000,
        "errors": report["errors"]["protocol_total"] + sum(report["connections"]["failed"].values())
        + sum(report["connections"]["unexpected_closes"].values()),
    }


def line(path):
    f = figures(path)
    return (f"{f['rooms']} rooms, {f['connections']} connections, {f['moves_per_s']:.0f} moves/s, "
            f"move->patch p50 {f['p50_ms']:.2f} ms p99 {f['p99_ms']:.2f} ms, {f['errors']} errors")


def table(pairs):
    header = f"{'run':<22} {'rooms':>6} {'conns':>6} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'errors':>6}"
    rows = [header, "-" * len(header)]
    all_figures = []
    for label, path in pairs:
        f = figures(path)
        all_figures.append(f)
        rows.append(f"{label:<22} {f['rooms']:>6} {f['connections']:>6} {f['moves_per_s']:>8.0f} "
                    f"{f['p50_ms']:>7.2f} {f['p99_ms']:>7.2f} {f['errors']:>6}")
    if len(all_figures) > 1:
        rows.append(f"{'total':<22} {sum(f['rooms'] for f in all_figures):>6} "
                    f"{sum(f['connections'] for f in all_figures):>6} "
                    f"{sum(f['moves_per_s'] for f in all_figures):>8.0f} {'':>7} "
                    f"{max(f['p99_ms'] for f in all_figures):>7.2f} {sum(f['errors'] for f in all_figures):>6}")
    return "\n".join(rows)


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "line":
        print(line(sys.argv[2]))
    elif len(sys.argv) >= 3 and sys.argv[1] == "table":
        print(table([arg.split("=", 1) for arg in sys.argv[2:]]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
