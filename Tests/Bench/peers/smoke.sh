#!/usr/bin/env bash
# Smoke check of the benchmark peers (Tests/Bench/peers): installs and builds them when missing (peers.sh), starts
# each, and drives it briefly with wordrooms-bots: a second of /echo, three seconds of /fanout/NAME in rooms of 8,
# and a plain GET of /ws, which must be 404. The WordRooms server started with --bench-fanout --bench-echo gets the same
# /echo and /fanout runs, so the benchmark's fan-out path is checked too. About 20 s once built.
#
#   Tests/Bench/peers/smoke.sh                         # the debug build's binaries (swift build first)
#   Tests/Bench/peers/smoke.sh --bin .build/release    # another build's
#
# Exit status: 0 every check passed, 1 some check failed, 2 setup problem.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../../.." && pwd)"
BIN="$REPO/.build/debug"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --bin) BIN="${2:?--bin needs a directory}"; shift 2 ;;
        -h | --help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "smoke: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
BOTS="$BIN/wordrooms-bots"
SERVER="$BIN/wordrooms"
[[ -x "$BOTS" && -x "$SERVER" ]] || { echo "smoke: no $BOTS or $SERVER (swift build first, or --bin DIR)" >&2; exit 2; }

# shellcheck source=peers.sh
source "$HERE/peers.sh"
peers_setup_node || exit 2
peers_setup_gorilla || exit 2

OUT="$(mktemp -d "${TMPDIR:-/tmp}/wordrooms-peers-smoke.XXXXXX")"
PID=""
stop() {
    if [[ -n "$PID" ]]; then
        kill -TERM "$PID" 2>/dev/null || true
        wait "$PID" 2>/dev/null || true
        PID=""
    fi
}
trap stop EXIT

FAILED=0
check() {
    local what="$1"
    shift
    if "$@" >"$OUT/last.txt" 2>&1; then
        peers_log "ok: $what"
    else
        peers_log "FAILED: $what"
        tail -n 15 "$OUT/last.txt" >&2
        FAILED=1
    fi
}

# http_status PORT PATH: the status code of a plain GET.
http_status() {
    exec 3<>"/dev/tcp/127.0.0.1/$1"
    printf 'GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' "$2" >&3
    local line
    IFS= read -r -t 5 line <&3 || true
    exec 3<&-
    echo "$line" | cut -d' ' -f2
}

for kind in wordrooms node gorilla; do
    log="$OUT/$kind.log"
    if [[ $kind == wordrooms ]]; then
        "$SERVER" --host 127.0.0.1 --port 0 --threads 1 --bench-fanout --bench-echo >"$log" 2>&1 &
        PID=$!
    else
        peers_start "$kind" 0 "$log" || exit 2
        PID=$PEER_PID
    fi
    port=""
    for _ in $(seq 100); do
        [[ "$(head -n 1 "$log" 2>/dev/null)" =~ 127\.0\.0\.1:([0-9]+) ]] && { port="${BASH_REMATCH[1]}"; break; }
        kill -0 "$PID" 2>/dev/null || break
        sleep 0.1
    done
    if [[ -z "$port" ]]; then
        peers_log "FAILED: $kind did not start"
        cat "$log" >&2
        FAILED=1
        stop
        continue
    fi
    check "$kind /echo" "$BOTS" echo --url "ws://127.0.0.1:$port/echo" --connections 4 --depth 4 --duration 1 \
        --threads 1 --grace 2 --quiet
    check "$kind /fanout/NAME" "$BOTS" fanout --url "ws://127.0.0.1:$port" --connections 20 --room-size 8 \
        --rate 4 --duration 3 --threads 1 --grace 2 --quiet --json "$OUT/fanout-$kind.json"
    # Every member read every message of its room: 20 clients in rooms of 8, 8 and 4.
    check "$kind fan-out reached every member" python3 -c '
import json, sys
report = json.load(open(sys.argv[1]))["fanout"]
if not (report["sent"] > 0 and report["returned"] == report["sent"] and report["deliveries_per_message"] > 5):
    sys.exit(f"fan-out figures: {report}")
' "$OUT/fanout-$kind.json"
    if [[ $kind != wordrooms ]]; then
        status="$(http_status "$port" /ws)"
        check "$kind answers 404 elsewhere (got $status)" test "$status" = 404
    fi
    stop
done
[[ $FAILED == 0 ]] && peers_log "all checks passed (logs in $OUT)" || peers_log "some checks failed (logs in $OUT)"
exit "$FAILED"
