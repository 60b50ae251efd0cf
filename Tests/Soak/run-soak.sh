#!/usr/bin/env bash
# Soak test: `churn` and `play` bots at moderate load for N minutes (default 30) against a release server with a
# data directory. Samples the server's resident memory, open descriptors and rooms every 30 s and prints the
# curve; fails when memory keeps growing after warm-up, when descriptors leak, when rooms that should have been
# disposed remain, or when the bots report any error.
#
# Usage: Tests/Soak/run-soak.sh [MINUTES] [--no-build]
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=../EndToEnd/harness.sh
source Tests/EndToEnd/harness.sh
minutes=30
build=1
for argument in "$@"; do
    case "$argument" in
        --no-build) build=0 ;;
        *) minutes="$argument" ;;
    esac
done
seconds=$((minutes * 60))
work="$(mktemp -d)"
server_pid=""
sampler_pid=""
cleanup() {
    [ -n "$sampler_pid" ] && kill "$sampler_pid" 2>/dev/null || true
    # The server may be writing into $work (a snapshot on SIGTERM) until it exits.
    [ -n "$server_pid" ] && wr_stop_pid "$server_pid"
    rm -rf "$work"
}
trap cleanup EXIT

if [ "$build" = 1 ]; then
    swift build -c release --product wordrooms >/dev/null
    swift build -c release --product wordrooms-bots >/dev/null
fi
bin=.build/release

# Short grace periods so that disposal can be checked at the end without waiting minutes.
"$bin/wordrooms" --host 127.0.0.1 --port 0 --data "$work/data" --resume-grace 10 --room-grace 15 \
    > "$work/server.out" 2> "$work/server.err" &
server_pid=$!
for _ in $(seq 50); do
    grep -q "running at" "$work/server.out" 2>/dev/null && break
    sleep 0.1
done
port="$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$work/server.out" | head -n 1)"
[ -n "$port" ] || { echo "soak: the server did not start"; cat "$work/server.err"; exit 1; }

# Sums the samples of one metric (all its label sets), not of metrics whose names merely start the same.
metric() { curl -s "http://127.0.0.1:$port/metrics" | awk -v name="$1" '$1 == name || index($1, name "{") == 1 { sum += $2 } END { print sum + 0 }'; }
rss_kib() { awk '/VmRSS/ { print $2 }' "/proc/$server_pid/status"; }
fds() { ls "/proc/$server_pid/fd" | wc -l; }

fds_before="$(fds)"
echo "soak: $minutes min against 127.0.0.1:$port (pid $server_pid), $fds_before descriptors open at start"
started=$(date +%s)
(
    while true; do
        printf '%6ds  %8s KiB  %6s fds  %5s rooms  %6s connections\n' "$(( $(date +%s) - started ))" "$(rss_kib)" \
            "$(fds)" "$(metric wordrooms_rooms)" "$(metric wordrooms_connections_open)"
        sleep 30
    done
) > "$work/curve" &
sampler_pid=$!

"$bin/wordrooms-bots" churn --url "ws://127.0.0.1:$port" --rooms 40 --players 6 --churners 2 --rate 1 \
    --duration "$seconds" --quiet --json "$work/churn.json" > "$work/churn.txt" 2>&1 &
churn_pid=$!
"$bin/wordrooms-bots" play --url "ws://127.0.0.1:$port" --rooms 150 --players 6 --rate 1 --game mixed \
    --duration "$seconds" --quiet --json "$work/play.json" > "$work/play.txt" 2>&1 &
play_pid=$!
churn_status=0; play_status=0
wait "$churn_pid" || churn_status=$?
wait "$play_pid" || play_status=$?

# Every bot has left: seats expire after 10 s, empty rooms after 15 s more.
sleep 30
kill "$sampler_pid" 2>/dev/null || true
sampler_pid=""
rooms_after="$(metric wordrooms_rooms)"
connections_after="$(metric wordrooms_connections_open)"
fds_after="$(fds)"

echo "soak: server memory, descriptors and rooms every 30 s"
cat "$work/curve"
echo "soak: churn bots: $(tail -n 1 "$work/churn.txt")"
grep -E "resumes|moves|protocol errors" "$work/churn.txt" | sed 's/^/    /' || true
echo "soak: play bots: $(tail -n 1 "$work/play.txt")"
grep -E "moves|move -> patch|protocol errors" "$work/play.txt" | sed 's/^/    /' || true

status=0
[ "$churn_status" = 0 ] || { echo "FAIL: churn bots exited $churn_status"; tail -n 40 "$work/churn.txt"; status=1; }
[ "$play_status" = 0 ] || { echo "FAIL: play bots exited $play_status"; tail -n 40 "$work/play.txt"; status=1; }
# Memory at half time against the end of the run: rooms fill their bounded histories (50 games, 256 patches,
# 30 chat lines) during the first quarter of an hour or so, after which the curve must stay flat.
samples=$(wc -l < "$work/curve")
if [ "$samples" -ge 4 ]; then
    warm=$(awk -v n="$samples" 'NR == int(n / 2) + 1 { print $2 }' "$work/curve")
    last=$(awk -v n="$samples" 'NR == n - 1 { print $2 }' "$work/curve")
    growth=$(( (last - warm) * 100 / warm ))
    echo "soak: resident memory after warm-up ${warm} KiB, at the end ${last} KiB (${growth}%)"
    [ "$growth" -le 15 ] || { echo "FAIL: memory grew ${growth}% after warm-up"; status=1; }
fi
echo "soak: descriptors $fds_before at start, $fds_after at the end; rooms left $rooms_after; connections left $connections_after"
[ "$fds_after" -le $((fds_before + 2)) ] || { echo "FAIL: descriptors leaked"; status=1; }
[ "$rooms_after" = 0 ] || { echo "FAIL: $rooms_after rooms were not disposed"; status=1; }
[ "$status" = 0 ] && echo "soak: OK"
exit "$status"
