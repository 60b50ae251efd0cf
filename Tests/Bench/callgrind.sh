#!/usr/bin/env bash
# Instructions per echoed message and per game move, counted by callgrind: the figure that stays put on a shared,
# noisy machine, for comparing two builds of the server in the same run.
#
#   Tests/Bench/callgrind.sh SERVER [BOTS]      # SERVER: a release `wordrooms`; BOTS: `wordrooms-bots` (default:
#                                               # the one next to SERVER)
#
# The server runs under callgrind on core 0 with one loop thread, counting only while the bots run (start-up and
# shut-down are left out); the bots run natively on core 1. Three loads, each on a fresh server:
#   echo     50 connections x 4 in flight x 32-byte text on /echo, 10 s     -> instructions per echoed message
#   snowman  40 rooms x 8 bots, 1 move/s each, 10 s                          -> instructions per move
#   scramble the same with Word Scramble rooms                               -> instructions per move
# CALLGRIND_SERVER_FLAGS adds flags to the server, CALLGRIND_BOTS_FLAGS to the bots (--deflate: the same loads
# with permessage-deflate). Needs valgrind (Debian: valgrind). Prints one line per load.
set -euo pipefail

SERVER="${1:?usage: callgrind.sh SERVER [BOTS]}"
BOTS="${2:-$(dirname "$SERVER")/wordrooms-bots}"
EXTRA="${CALLGRIND_SERVER_FLAGS:-}"
BOTS_EXTRA="${CALLGRIND_BOTS_FLAGS:-}"
command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }

measure() {
    local label=$1 unit=$2 path=$3; shift 3
    local dir; dir=$(mktemp -d)
    # shellcheck disable=SC2086
    taskset -c 0 valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$dir/cg.out" \
        "$SERVER" --host 127.0.0.1 --port 0 --threads 1 $EXTRA >"$dir/log" 2>&1 &
    local server=$!
    for _ in $(seq 600); do grep -q "running at" "$dir/log" && break; sleep 0.1; done
    local port; port="$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$dir/log" | head -1)"
    [ -n "$port" ] || { echo "$label: the server did not start: $(tail -3 "$dir/log")" >&2; kill "$server"; return 1; }
    callgrind_control -i on "$server" >/dev/null 2>&1
    # shellcheck disable=SC2086
    local out; out=$(taskset -c 1 "$BOTS" "$@" $BOTS_EXTRA --url "ws://127.0.0.1:$port$path" --threads 1 --quiet 2>&1 || true)
    callgrind_control -i off "$server" >/dev/null 2>&1
    kill -INT "$server"; wait "$server" 2>/dev/null || true
    local total; total=$(awk '/^totals:/ {print $2; exit}' "$dir/cg.out")
    local count
    if [ "$label" = echo ]; then
        count=$(echo "$out" | sed -n 's/.*messages *[0-9]* sent, \([0-9]*\) received.*/\1/p' | head -1)
    else
        count=$(echo "$out" | awk '$1 == "moves" {print $2; exit}')
    fi
    [ -n "$count" ] && [ "$count" -gt 0 ] || { echo "$label: no count in the bots' report:" >&2; echo "$out" >&2; return 1; }
    printf '%-9s %8s %ss, %14s instructions, %7d per %s\n' "$label" "$count" "$unit" "$total" $((total / count)) "$unit"
    rm -rf "$dir"
}

measure echo message /echo echo --connections 50 --depth 4 --size 32 --duration 10
measure snowman move "" play --rooms 40 --players 8 --game snowman --rate 1 --duration 10
measure scramble move "" play --rooms 40 --players 8 --game scramble --rate 1 --duration 10
