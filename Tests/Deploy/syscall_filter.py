#!/usr/bin/env python3
"""Checks a traced run of the server against the system-call sandbox of a systemd unit.

  syscall_filter.py UNIT_FILE STRACE_LOG

STRACE_LOG is the output of `strace -f -o LOG wordrooms ...`. The unit's SystemCallFilter= lines (an allow list,
then `~` deny lists) are expanded with `systemd-analyze syscall-filter`, the same tables systemd uses; every
system call in the log must be allowed, and every socket() family must be in RestrictAddressFamilies=.
Prints what was used; exit status 1 when the unit would refuse something the server did.
"""

import re
import subprocess
import sys


def syscall_groups():
    """Group name -> members (names or @groups), from systemd's own tables."""
    text = subprocess.run(["systemd-analyze", "syscall-filter"], check=True, capture_output=True, text=True).stdout
    groups, current = {}, None
    for line in text.splitlines():
        if line.startswith("@"):
            current = groups.setdefault(line.strip(), set())
        elif current is not None and line.strip() and not line.strip().startswith("#"):
            current.add(line.strip())
    return groups


def expand(items, groups, seen=None):
    seen = set() if seen is None else seen
    names = set()
    for item in items:
        if item.startswith("@"):
            if item in seen:
                continue
            seen.add(item)
            names |= expand(groups[item], groups, seen)
        else:
            names.add(item)
    return names


def unit_settings(path, key):
    values = []
    for line in open(path):
        if line.startswith(key + "="):
            values.append(line.split("=", 1)[1].split())
    return values


def main():
    unit, log = sys.argv[1], sys.argv[2]
    groups = syscall_groups()
    allowed = None
    for words in unit_settings(unit, "SystemCallFilter"):
        if words and words[0].startswith("~"):
            allowed -= expand([words[0][1:], *words[1:]], groups)
        else:
            allowed = expand(words, groups) | (allowed or set())
    families = {word for words in unit_settings(unit, "RestrictAddressFamilies") for word in words}

    used, used_families = {}, set()
    for line in open(log):
        match = re.match(r"\d+\s+([a-z0-9_]+)\(", line)
        if match:
            used[match.group(1)] = used.get(match.group(1), 0) + 1
        family = re.search(r"\bsocket\((AF_[A-Z0-9]+)", line)
        if family:
            used_families.add(family.group(1))
    if not used:
        sys.exit(f"no system calls found in {log}")
    print(f"{len(used)} distinct system calls: {' '.join(sorted(used))}")
    print(f"socket families: {' '.join(sorted(used_families))}")
    refused = sorted(name for name in used if allowed is not None and name not in allowed)
    bad_families = sorted(used_families - families) if families else []
    if refused:
        print(f"refused by SystemCallFilter: {' '.join(refused)}")
    if bad_families:
        print(f"refused by RestrictAddressFamilies: {' '.join(bad_families)}")
    sys.exit(1 if refused or bad_families else 0)


if __name__ == "__main__":
    main()
