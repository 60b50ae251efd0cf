#!/usr/bin/env bash
# Chaos test: bots play while TCP connections are killed at random (ss -K), the server process is paused twice
# for 3 s (SIGSTOP/SIGCONT), and one client stops reading. Afterwards: the bots report no protocol error, every
# killed player resumed with its token and its state equals a fresh snapshot, and the stuck client was cut off with
# close code 1008. Then a full data volume (Tests/Chaos/full_disk.py, about 10 s), and the reconnect storm across a
# SIGTERM restart and a kill -9 (Tests/Chaos/avalanche.sh): every bot back in its seat, every room exact.
# Everything on loopback; about a minute and a half.
#
# Usage: Tests/Chaos/run-chaos.sh [--no-build] [--duration S] [--no-avalanche]
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=../EndToEnd/harness.sh
source Tests/EndToEnd/harness.sh
build=1
duration=40
avalanche=1
while [ $# -gt 0 ]; do
    case "$1" in
        --no-build) build=0; shift ;;
        --duration) duration="$2"; shift 2 ;;
        --no-avalanche) avalanche=0; shift ;;
        *) echo "usage: $0 [--no-build] [--duration S] [--no-avalanche]" >&2; exit 2 ;;
    esac
done
command -v ss >/dev/null || { apt-get install -y -qq iproute2 >/dev/null; }
venv="${XDG_CACHE_HOME:-$HOME/.cache}/wordrooms/chaos-venv"
if ! "$venv/bin/python" -c 'import websockets' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q -r Tests/Chaos/requirements.txt
fi
if [ "$build" = 1 ]; then
    swift build -c release --product wordrooms >/dev/null
    swift build -c release --product wordrooms-bots >/dev/null
fi
work="$(mktemp -d)"
server_pid=""
cleanup() {
    # A paused server is resumed first; SIGTERM saves a snapshot into $work/data.
    [ -n "$server_pid" ] && wr_stop_pid "$server_pid"
    rm -rf "$work"
}
trap cleanup EXIT

# A talkative room (the stuck client's) needs a higher message rate than the default; a smaller output allowance
# makes the stuck client's cut-off come sooner.
.build/release/wordrooms --host 127.0.0.1 --port 0 --data "$work/data" --message-rate 2000 \
    --max-outbound-bytes 262144 > "$work/server.out" 2> "$work/server.err" &
server_pid=$!
for _ in $(seq 50); do grep -q "running at" "$work/server.out" 2>/dev/null && break; sleep 0.1; done
port="$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$work/server.out" | head -n 1)"
[ -n "$port" ] || { echo "chaos: the server did not start"; cat "$work/server.err"; exit 1; }
echo "chaos: server on port $port (pid $server_pid), ${duration}s"

.build/release/wordrooms-bots play --url "ws://127.0.0.1:$port" --rooms 100 --players 6 --rate 1 \
    --duration "$duration" --grace 10 --quiet > "$work/bots.txt" 2>&1 &
bots_pid=$!
"$venv/bin/python" Tests/Chaos/chaos_clients.py --url "ws://127.0.0.1:$port/ws" --rooms 10 \
    --duration $((duration - 10)) > "$work/chaos.txt" 2>&1 &
chaos_pid=$!

# Two pauses of the whole server, as a stalled VM or a debugger would cause.
for pause_at in 10 22; do
    sleep $((pause_at - ${last:-0})); last=$pause_at
    kill -STOP "$server_pid"; echo "chaos: server paused (SIGSTOP) at ${pause_at}s"
    sleep 3
    kill -CONT "$server_pid"; echo "chaos: server resumed (SIGCONT) after 3 s"
done

status=0
bots_status=0; wait "$bots_pid" || bots_status=$?
chaos_status=0; wait "$chaos_pid" || chaos_status=$?
cat "$work/chaos.txt"
grep -E "moves  |move -> patch|protocol errors|unexpected|Result" "$work/bots.txt" | sed 's/^/bots: /'
slow=$(curl -s "http://127.0.0.1:$port/metrics" | awk '$1 == "wordrooms_slow_consumers_total" { print $2 }')
echo "chaos: slow consumers cut off by the server: $slow"
[ "$bots_status" = 0 ] || { echo "FAIL: the bots reported errors (exit $bots_status)"; tail -n 30 "$work/bots.txt"; status=1; }
[ "$chaos_status" = 0 ] || { echo "FAIL: chaos clients found problems"; status=1; }
[ "${slow:-0}" -ge 1 ] || { echo "FAIL: the stuck client was not cut off"; status=1; }
curl -sf "http://127.0.0.1:$port/healthz" >/dev/null || { echo "FAIL: the server is not healthy after the chaos"; status=1; }
if [ "$avalanche" = 1 ]; then
    bash Tests/Chaos/avalanche.sh --no-build || { echo "FAIL: the reconnect storm"; status=1; }
fi
# A full data volume, for real (a 512 KiB tmpfs it fills; without root it says it skipped): /readyz 503, one log
# line per cause, saving again once space comes back, players resume at the seq they saw, an honest stop line.
"$venv/bin/python" Tests/Chaos/full_disk.py --server .build/release/wordrooms > "$work/full-disk.txt" 2>&1 \
    || { echo "FAIL: the full disk"; status=1; }
sed 's/^/full disk: /' "$work/full-disk.txt"
[ "$status" = 0 ] && echo "chaos: OK"
exit "$status"
