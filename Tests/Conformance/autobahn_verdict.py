#!/usr/bin/env python3
"""Verdict on an Autobahn|Testsuite report: the fuzzingclient's against our server (reports/index.json,
run-autobahn.sh) or the fuzzingserver's against our client (reports-client/index.json,
run-autobahn-client.sh). Both modes write the same layout: index.json keyed by agent, then case id.

wstest exits 0 however the cases went, so this is the only judge. A case passes when both its
`behavior` and `behaviorClose` are OK, NON-STRICT or INFORMATIONAL. UNIMPLEMENTED fails too: WordRooms
implements permessage-deflate (sections 12 and 13) on both sides, so a case that did not negotiate it means an
offer or a response went wrong. Anything else (FAILED, WRONG CODE, UNCLEAN, FAILED BY CLIENT, a missing
field...) fails the run.

Usage: autobahn_verdict.py [--agent NAME] [--verbose] path/to/index.json
Exit status: 0 all cases pass, 1 some case failed (or no case ran), 2 unreadable report.
"""

import argparse
import json
import os
import sys

PASSING = ("OK", "NON-STRICT", "INFORMATIONAL")


def case_key(case_id):
    return tuple(int(part) if part.isdigit() else part for part in case_id.split("."))


def judge(case_id, result):
    """Returns (category, problem): category is OK/NON-STRICT/INFORMATIONAL/UNIMPLEMENTED/FAILED."""
    behavior = result.get("behavior")
    behavior_close = result.get("behaviorClose")
    if "UNIMPLEMENTED" in (behavior, behavior_close):
        return "UNIMPLEMENTED", "UNIMPLEMENTED: the extension was not negotiated"
    if behavior not in PASSING or behavior_close not in PASSING:
        return "FAILED", "behavior=%s behaviorClose=%s" % (behavior, behavior_close)
    for category in ("INFORMATIONAL", "NON-STRICT"):
        if category in (behavior, behavior_close):
            return category, None
    return "OK", None


def case_detail(report_dir, report_file):
    """'description -> result' from the case's own JSON report, and the path of its HTML page."""
    if not report_file:
        return None
    path = os.path.join(report_dir, report_file)
    html = os.path.splitext(path)[0] + ".html"
    try:
        with open(path) as handle:
            case = json.load(handle)
    except (OSError, ValueError):
        return html
    def short(text, limit=160):
        text = " ".join(str(text or "").split())
        return text if len(text) <= limit else text[:limit - 3] + "..."
    return "%s -> %s (%s)" % (short(case.get("description")), short(case.get("result")), html)


def main(argv):
    parser = argparse.ArgumentParser(description="Judge an Autobahn index.json.")
    parser.add_argument("index", help="path to index.json written by wstest -m fuzzingclient or fuzzingserver")
    parser.add_argument("--agent", help="agent name in the report (default: the only one)")
    parser.add_argument("--verbose", action="store_true", help="also list NON-STRICT and INFORMATIONAL cases")
    args = parser.parse_args(argv)

    try:
        with open(args.index) as handle:
            report = json.load(handle)
    except (OSError, ValueError) as error:
        print("Autobahn: cannot read %s: %s" % (args.index, error), file=sys.stderr)
        return 2
    if not isinstance(report, dict) or not report:
        print("Autobahn: %s holds no agent" % args.index, file=sys.stderr)
        return 2
    if args.agent is None:
        if len(report) != 1:
            print("Autobahn: %s holds several agents (%s); pass --agent" % (args.index, ", ".join(sorted(report))),
                  file=sys.stderr)
            return 2
        args.agent = next(iter(report))
    cases = report.get(args.agent)
    if not isinstance(cases, dict):
        print("Autobahn: agent %r not in %s" % (args.agent, args.index), file=sys.stderr)
        return 2

    counts = {name: 0 for name in ("OK", "NON-STRICT", "INFORMATIONAL", "FAILED", "UNIMPLEMENTED")}
    failures, notes = [], []
    for case_id in sorted(cases, key=case_key):
        result = cases[case_id] if isinstance(cases[case_id], dict) else {}
        category, problem = judge(case_id, result)
        counts[category] += 1
        if problem:
            failures.append((case_id, problem, result))
        elif category in ("NON-STRICT", "INFORMATIONAL"):
            notes.append((case_id, category, result))

    report_dir = os.path.dirname(os.path.abspath(args.index))
    for case_id, problem, result in failures:
        extras = "".join(" %s=%s" % (key, result[key]) for key in ("remoteCloseCode", "duration") if key in result)
        print("  FAILED %-8s %s%s" % (case_id, problem, extras))  # UNIMPLEMENTED included
        detail = case_detail(report_dir, result.get("reportfile"))
        if detail:
            print("         %s" % detail)
    if args.verbose:
        for case_id, category, result in notes:
            print("  %-13s %-8s behavior=%s behaviorClose=%s" % (
                category, case_id, result.get("behavior"), result.get("behaviorClose")))

    total = len(cases)
    print("Autobahn: %d cases: %d OK, %d NON-STRICT, %d INFORMATIONAL, %d FAILED, %d UNIMPLEMENTED" % (
        total, counts["OK"], counts["NON-STRICT"], counts["INFORMATIONAL"], counts["FAILED"], counts["UNIMPLEMENTED"]))
    # The plain closing line CI reads as a test count.
    print("autobahn: %d passed, %d failed" % (total - len(failures), len(failures)))
    if total == 0:
        print("Autobahn: no case ran", file=sys.stderr)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
