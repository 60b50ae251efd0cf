#!/usr/bin/env bash
# Chaos test: the reconnect storm across real restarts. `wordrooms --data DIR` runs on an ephemeral loopback
# port with bots playing in rooms (`wordrooms-bots avalanche --drop server`); under their load the server is
# (a) stopped with SIGTERM and started again on the same --data and port, then (b) killed with kill -9 and
# started again. Each time every bot must come back to its seat (resuming with its token and seq) and every
# room must be exact: each bot's own copy of its room's state equal to a fresh snapshot from the restarted
# server.
#
# "Exact" after kill -9: the journal is fsynced every 100 ms, so the restarted server may have lost the last
# moments of play that the bots saw. What the bots must converge to is the restarted server's state, the only
# one left: a bot whose seq the new process cannot vouch for gets the whole state in its welcome (counted as a
# resync), never patches numbered from the same seqs that describe other changes. After SIGTERM the rooms are
# saved at the stop, but changes the server made between the save and the close still reach clients; those
# bots get the whole state too.
#
# The kill -9 storm runs on the server the SIGTERM storm left, so its restart restores both storms' rooms
# (twice --rooms, half of them with nobody coming back to them); with --separate it gets a new server and data
# directory of its own, and restores only its own --rooms.
#
# Usage: Tests/Chaos/avalanche.sh [--no-build] [--rooms N] [--players N] [--rate X] [--drop-after S]
#                                 [--give-up S] [--pin] [--separate] [--out DIR]
#   --pin      the server on core 0 with one event-loop thread, the bots on core 1 with one (taskset), as
#              Tests/Bench/run-benchmarks.sh runs them: the figures of Tests/Bench/README.md's reconnect storm
#   --out DIR  keeps each storm's report (term.json, term.txt, kill.json, kill.txt) and the server's log.
# AVALANCHE_BOTS_FLAGS adds flags to the bots' command line (e.g. "--source-addresses 1", to measure the bots
# connecting from one address as they did before 2026-12-04).
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH=/opt/swift/usr/bin:$PATH
build=1
rooms=50
players=8
rate=1
out=""
pin=0
separate=0
drop_after=3
give_up=20
while [ $# -gt 0 ]; do
    case "$1" in
        --no-build) build=0; shift ;;
        --rooms) rooms="$2"; shift 2 ;;
        --players) players="$2"; shift 2 ;;
        --rate) rate="$2"; shift 2 ;;
        --drop-after) drop_after="$2"; shift 2 ;;
        --give-up) give_up="$2"; shift 2 ;;
        --pin) pin=1; shift ;;
        --separate) separate=1; shift ;;
        --out) out="$2"; shift 2 ;;
        *) echo "usage: $0 [--no-build] [--rooms N] [--players N] [--rate X] [--drop-after S] [--give-up S] [--pin] [--separate] [--out DIR]" >&2
           exit 2 ;;
    esac
done
if [ "$build" = 1 ]; then
    swift build -c release --product wordrooms >/dev/null
    swift build -c release --product wordrooms-bots >/dev/null
fi
# Bots and server each need a descriptor per connection.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
work="$(mktemp -d)"
[ -n "$out" ] && mkdir -p "$out"
server_pid=""
bots_pid=""
cleanup() {
    [ -n "$bots_pid" ] && kill "$bots_pid" 2>/dev/null || true
    [ -n "$server_pid" ] && kill -9 "$server_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
server_cmd=(.build/release/wordrooms)
bots_cmd=(.build/release/wordrooms-bots)
if [ "$pin" = 1 ]; then
    server_cmd=(taskset -c 0 .build/release/wordrooms --threads 1)
    bots_cmd=(taskset -c 1 .build/release/wordrooms-bots --threads 1)
fi

# Starts the server on port $1 (0: any free one) with data directory $work/$data and sets $port.
data=data
start_server() {
    : > "$work/server.out"
    "${server_cmd[@]}" --host 127.0.0.1 --port "$1" --data "$work/$data" \
        > "$work/server.out" 2>> "$work/server.err" &
    server_pid=$!
    for _ in $(seq 500); do grep -q "running at" "$work/server.out" 2>/dev/null && break; sleep 0.02; done
    port="$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$work/server.out" | head -n 1)"
    [ -n "$port" ] || { echo "avalanche: the server did not start"; cat "$work/server.err"; exit 1; }
}

# Seconds from $1 to $2 (default now), both `date +%s.%N`.
since() {
    python3 -c "import sys, time; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$1" "${2:-$(date +%s.%N)}"
}

# One storm: bots play, the server gets signal $2 under them and is started again; $1 names the report.
storm() {
    local name="$1" signal="$2" started
    "${bots_cmd[@]}" avalanche --url "ws://127.0.0.1:$port" --rooms "$rooms" --players "$players" \
        --rate "$rate" --drop server --drop-after "$drop_after" --give-up "$give_up" --quiet \
        ${AVALANCHE_BOTS_FLAGS:-} \
        --json "$work/$name.json" > "$work/$name.txt" 2> "$work/$name.err" &
    bots_pid=$!
    for _ in $(seq 600); do
        grep -q "waiting for the server to go away" "$work/$name.err" 2>/dev/null && break
        kill -0 "$bots_pid" 2>/dev/null || break
        sleep 0.1
    done
    # A moment of play under load, then the restart.
    sleep 1
    started=$(date +%s.%N)
    kill "-$signal" "$server_pid"
    { wait "$server_pid"; } 2>/dev/null || true
    gone=$(date +%s.%N)
    start_server "$port"
    echo "avalanche ($name): SIG$signal; the old server was gone $(since "$started" "$gone") s after the signal, the new one's start line came $(since "$started") s after it (port $port)"
    if [ "$signal" = TERM ]; then
        # The stop's own account of where its time went (the save, the closing handshakes).
        stopped="$(grep '^stopped: ' "$work/server.err" | tail -n 1)"
        [ -n "$stopped" ] || { echo "FAIL: the server's log has no 'stopped:' line after SIGTERM"; return 1; }
        echo "avalanche ($name): the old server's last line: $stopped"
    fi
    local status=0
    wait "$bots_pid" || status=$?
    bots_pid=""
    python3 - "$work/$name.json" "$name" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
l = r["resume_latency"]
ms = lambda us: f"{us / 1000:.0f} ms"
print(f"avalanche ({sys.argv[2]}): {r['back']} of {r['lost']} bots back ({100 * r['back_share']:.1f}%), "
      f"not back {r['not_back']}; resume p50 {ms(l['p50_us'])} p95 {ms(l['p95_us'])} p99 {ms(l['p99_us'])} "
      f"max {ms(l['max_us'])}; resyncs {r['resyncs']} ({r['resumed_with_state']} whole-state resumes); "
      f"rooms exact {r['rooms_checked'] - r['rooms_mismatched']} of {r['rooms_checked']}")
PY
    [ -n "$out" ] && cp "$work/$name.json" "$work/$name.txt" "$out/"
    if [ "$status" != 0 ]; then
        echo "FAIL: the storm across $signal (bots exit $status)"
        cat "$work/$name.txt" "$work/$name.err"
        return 1
    fi
}

start_server 0
echo "avalanche: server on port $port, $((rooms * players)) bots in $rooms rooms"
status=0
storm term TERM || status=1
if [ "$separate" = 1 ]; then
    curl -sf "http://127.0.0.1:$port/healthz" >/dev/null || { echo "FAIL: the server is not healthy after the SIGTERM storm"; status=1; }
    kill "$server_pid"
    { wait "$server_pid"; } 2>/dev/null || true
    data=data-kill
    start_server 0
    echo "avalanche: a new server with a new data directory on port $port for the kill -9 storm"
fi
storm kill KILL || status=1
[ -n "$out" ] && cp "$work/server.err" "$out/server.log"
curl -sf "http://127.0.0.1:$port/healthz" >/dev/null || { echo "FAIL: the server is not healthy afterwards"; status=1; }
[ "$status" = 0 ] && echo "avalanche: OK"
exit "$status"
