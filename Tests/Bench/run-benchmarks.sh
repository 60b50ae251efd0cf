#!/usr/bin/env bash
# Benchmarks of the WordRooms server against peers driven by the same load client (wordrooms-bots): an asyncio
# echo server on Python's websockets, and, built only from Debian packages (Tests/Bench/peers), Node's ws and
# Go's gorilla/websocket, each as an echo server and a room broadcast server; then the game loads, which only
# WordRooms can serve.
#
#   Tests/Bench/run-benchmarks.sh                     # swift build -c release, every benchmark (~20 minutes)
#   Tests/Bench/run-benchmarks.sh --quick             # shorter runs (~8 minutes), for a smoke test
#   Tests/Bench/run-benchmarks.sh --play-seconds 20 --scratch-path /tmp/build
#
# The server under test runs on core 0 and the bots on core 1 (taskset), one event-loop thread each; the
# peers also run on core 0, on one thread for their code (Python asyncio, Node, Go with GOMAXPROCS=1). Every
# process raises its own open-files soft limit to the hard limit. Server memory and CPU are read from /proc/PID
# by the bots (--server-pid) for every server alike. Each benchmark starts a fresh server. WordRooms runs with
# --bench-fanout (which only adds /fanout/NAME) and --bench-echo (/echo, off by default).
#
# Benchmarks (every server unless noted):
#   echo pipelined   100 connections x 32 messages in flight x 32-byte text: round trips per second
#   echo ping-pong   1,000 connections, one message in flight each: round trips per second
#   idle memory      N idle connections on /echo (5,000 and 19,500): server RSS growth / N
#   CPU at 20k/s     1,000 connections x 20 messages/s each (fixed rate): server CPU, % of one core
#   room fan-out     WordRooms, Node ws, gorilla: 2,000 and 5,000 clients on /fanout/NAME in rooms of 8, one
#                    200-byte message a second each at random points of the second, every message to the whole
#                    room (wordrooms-bots fanout): server CPU (user, system), own message back p50/p99, RSS
#   game load        WordRooms: 1,250 rooms x 8 bots, 1 move/s each (a guess or word when the game allows,
#                    a chat line otherwise), --play-seconds (default 60), --play-runs times (default 3)
#   fan-out (game)   WordRooms: 50 Snowman rooms x (2 players + 200 spectators), 5 moves/s per player,
#                    timed after a 10 s warm-up (the ramp: every join is a patch to everyone in the room)
#   --deflate rows   WordRooms only, each right after the same run without it, with the bots offering
#                    permessage-deflate (wordrooms-bots --deflate): idle memory at every idle size; a game load of
#                    200 rooms x 8 bots, 1 move/s each, --deflate-runs pairs (default 2): wire bytes per message,
#                    server CPU per move and memory per connection
#   The game loads and the room fan-out run with bots that poll their sockets every --bots-poll-us (default 200)
#   microseconds instead of sleeping in epoll: on one machine the server pays, in its own send, for waking a
#   sleeping client on the other core (an inter-processor interrupt per message), which clients on other
#   machines never cost it. A shorter game load with sleeping bots (--bots-poll-us 0) is run too, for comparison.
#
# Output: one table (a column per server, ratios WordRooms / peer) and the game figures; every run's JSON report
# and text summary stay in the output directory (--out, default a new directory under /tmp).
# Exit status: 0 when the benchmarks ran (figures are reported, not judged; a run that produced no report shows
# as n/a), 2 for setup problems.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/wordrooms"
VENV="$CACHE_DIR/bench-venv"

QUICK=0
PLAY_SECONDS=""
FANOUT_SIZES=""
FANOUT_SECONDS=""
PLAY_RUNS=""
DEFLATE_RUNS=""
ECHO_SECONDS=""
SCRATCH=""
BUILD=1
PYTHON=1
NODE=1
GORILLA=1
OUT=""
IDLE_SIZES=""
NICE=0
POLL_US=200

usage() {
    sed -n '2,40p' "$0" | sed 's/^# \{0,1\}//'
    cat <<'EOF'
Options:
  --quick              short runs: echo 4 s, room fan-out 12 s, game load 20 s, idle sizes 2000 and 5000
                       (options below win)
  --play-seconds N     duration of each game load run (default 60)
  --play-runs N        how many times the game load runs (default 3; 1 with --quick)
  --deflate-runs N     pairs of 200-room game loads without and with --deflate (default 2; 1 with --quick;
                       0: none), each half as long as --play-seconds, at least 20 s
  --echo-seconds N     duration of each echo and CPU run (default 10)
  --idle-sizes "A B"   idle connection counts (default "5000 19500")
  --scratch-path DIR   build with `swift build --scratch-path DIR` (default: the package's .build)
  --no-build           use the binaries already built
  --no-python          no Python websockets peer
  --no-node            no Node ws peer
  --no-gorilla         no Go gorilla/websocket peer
  --fanout-sizes "A B" room fan-out client counts (default "2000 5000")
  --fanout-seconds N   duration of each room fan-out run, its first quarter not timed (default 30; 12 with --quick)
  --out DIR            where reports and logs go
  --nice N             run the servers and the bots with this niceness (e.g. -10 on a shared machine, as root)
  --bots-poll-us N     the game-load bots poll every N microseconds (default 200; 0: sleep in epoll)
  -h, --help           this text
EOF
}

while [[ $# -gt 0 ]]; do
    case "$1" in
        --quick) QUICK=1; shift ;;
        --play-seconds) PLAY_SECONDS="${2:?--play-seconds needs a value}"; shift 2 ;;
        --play-runs) PLAY_RUNS="${2:?--play-runs needs a value}"; shift 2 ;;
        --deflate-runs) DEFLATE_RUNS="${2:?--deflate-runs needs a value}"; shift 2 ;;
        --echo-seconds) ECHO_SECONDS="${2:?--echo-seconds needs a value}"; shift 2 ;;
        --idle-sizes) IDLE_SIZES="${2:?--idle-sizes needs a value}"; shift 2 ;;
        --scratch-path) SCRATCH="${2:?--scratch-path needs a value}"; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        --no-python) PYTHON=0; shift ;;
        --no-node) NODE=0; shift ;;
        --no-gorilla) GORILLA=0; shift ;;
        --fanout-sizes) FANOUT_SIZES="${2:?--fanout-sizes needs a value}"; shift 2 ;;
        --fanout-seconds) FANOUT_SECONDS="${2:?--fanout-seconds needs a value}"; shift 2 ;;
        --out) OUT="${2:?--out needs a value}"; shift 2 ;;
        --nice) NICE="${2:?--nice needs a value}"; shift 2 ;;
        --bots-poll-us) POLL_US="${2:?--bots-poll-us needs a value}"; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        *) echo "run-benchmarks: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done
# Defaults, shorter with --quick; explicit options win either way.
if [[ $QUICK == 1 ]]; then
    : "${PLAY_SECONDS:=20}" "${ECHO_SECONDS:=4}" "${IDLE_SIZES:=2000 5000}" "${PLAY_RUNS:=1}" "${DEFLATE_RUNS:=1}"
    : "${FANOUT_SECONDS:=12}"
else
    : "${PLAY_SECONDS:=60}" "${ECHO_SECONDS:=10}" "${IDLE_SIZES:=5000 19500}" "${PLAY_RUNS:=3}" "${DEFLATE_RUNS:=2}"
    : "${FANOUT_SECONDS:=30}"
fi
: "${FANOUT_SIZES:=2000 5000}"
DEFLATE_SECONDS=$((PLAY_SECONDS / 2 > 20 ? PLAY_SECONDS / 2 : 20))

log() { printf '[bench] %s\n' "$*" >&2; }
die() {
    printf '[bench] ERROR: %s\n' "$*" >&2
    exit 2
}

command -v taskset >/dev/null || die "taskset (util-linux) is needed to pin the server and the bots to cores"
[[ "$(nproc)" -ge 2 ]] || die "the benchmarks need 2 cores (server on core 0, bots on core 1); this machine has $(nproc)"

[[ -n "$OUT" ]] || OUT="$(mktemp -d "${TMPDIR:-/tmp}/wordrooms-bench.XXXXXX")"
mkdir -p "$OUT"

# Processes we started, stopped on exit whatever happens.
SERVER_PID=""
stop_server() {
    if [[ -n "$SERVER_PID" ]]; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        for _ in $(seq 50); do
            kill -0 "$SERVER_PID" 2>/dev/null || break
            sleep 0.1
        done
        kill -KILL "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
        SERVER_PID=""
    fi
}
trap stop_server EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- Build -----------------------------------------------------------------------------------------------
SCRATCH_ARGS=()
[[ -n "$SCRATCH" ]] && SCRATCH_ARGS=(--scratch-path "$SCRATCH")
if [[ $BUILD == 1 ]]; then
    command -v swift >/dev/null || die "swift is not on PATH"
    for product in wordrooms wordrooms-bots; do
        log "building $product (swift build -c release${SCRATCH:+ --scratch-path $SCRATCH})"
        (cd "$REPO" && swift build -c release "${SCRATCH_ARGS[@]}" --product "$product" >"$OUT/build-$product.log" 2>&1) ||
            { tail -n 30 "$OUT/build-$product.log" >&2; die "building $product failed (log: $OUT/build-$product.log)"; }
    done
fi
BIN="$(cd "$REPO" && swift build -c release "${SCRATCH_ARGS[@]}" --show-bin-path)"
SERVER_BIN="$BIN/wordrooms"
BOTS_BIN="$BIN/wordrooms-bots"
[[ -x "$SERVER_BIN" && -x "$BOTS_BIN" ]] || die "missing $SERVER_BIN or $BOTS_BIN (build first, or drop --no-build)"

# --- Python peer: a cached venv with the pinned websockets -----------------------------------------------
if [[ $PYTHON == 1 ]]; then
    mkdir -p "$CACHE_DIR"
    stamp="$(sha256sum "$HERE/requirements.txt" | cut -c1-16)"
    (
        flock 9
        if [[ ! -x "$VENV/bin/python" || "$(cat "$VENV/.requirements" 2>/dev/null)" != "$stamp" ]]; then
            log "creating $VENV with $(tr '\n' ' ' <"$HERE/requirements.txt")"
            rm -rf "$VENV"
            python3 -m venv "$VENV" >&2
            "$VENV/bin/pip" install --quiet --disable-pip-version-check -r "$HERE/requirements.txt" >&2
            echo "$stamp" >"$VENV/.requirements"
        fi
    ) 9>"$CACHE_DIR/bench-venv.lock" || die "cannot set up the Python venv in $VENV"
fi

# --- Node ws and gorilla peers: Debian packages, installed when missing ------------------------------------
# shellcheck source=peers/peers.sh
source "$HERE/peers/peers.sh"
NODE_VERSION="n/a"
GORILLA_VERSION="n/a"
if [[ $NODE == 1 ]]; then
    peers_setup_node || die "cannot set up the Node ws peer (--no-node runs without it)"
    NODE_VERSION="$(peers_node_version)"
fi
if [[ $GORILLA == 1 ]]; then
    peers_setup_gorilla || die "cannot set up the gorilla peer (--no-gorilla runs without it)"
    GORILLA_VERSION="$(peers_gorilla_version)"
fi

# --- Servers ----------------------------------------------------------------------------------------------
SERVER_PORT=""
# start_server wordrooms|python|node|gorilla: starts a fresh server on core 0 and sets SERVER_PID and SERVER_PORT.
start_server() {
    local kind="$1" log="$OUT/server-$1-$RANDOM.log" line=""
    stop_server
    if [[ "$kind" == wordrooms ]]; then
        local extra=()
        # A per-address cap would refuse the bots' thousands of loopback connections on older builds.
        local help
        help="$("$SERVER_BIN" --help 2>&1)"
        [[ "$help" == *--max-connections-per-ip* ]] && extra+=(--max-connections-per-ip 1000000)
        [[ "$help" == *--bench-fanout* ]] && extra+=(--bench-fanout)
        # /echo is off by default since --bench-echo exists (older builds served it always).
        [[ "$help" == *--bench-echo* ]] && extra+=(--bench-echo)
        nice -n "$NICE" taskset -c 0 "$SERVER_BIN" --host 127.0.0.1 --port 0 --threads 1 "${extra[@]}" >"$log" 2>&1 &
        SERVER_PID=$!
    elif [[ "$kind" == python ]]; then
        nice -n "$NICE" taskset -c 0 "$VENV/bin/python" "$HERE/python_echo_server.py" --host 127.0.0.1 --port 0 \
            >"$log" 2>&1 &
        SERVER_PID=$!
    else
        peers_start "$kind" 0 "$log" "$NICE" || die "cannot start the $kind peer"
        SERVER_PID=$PEER_PID
    fi
    for _ in $(seq 100); do
        line="$(head -n 1 "$log" 2>/dev/null || true)"
        [[ "$line" =~ 127\.0\.0\.1:([0-9]+) ]] && break
        kill -0 "$SERVER_PID" 2>/dev/null || { cat "$log" >&2; die "the $kind server exited at start"; }
        sleep 0.1
    done
    [[ "$line" =~ 127\.0\.0\.1:([0-9]+) ]] || { cat "$log" >&2; die "the $kind server printed no port"; }
    SERVER_PORT="${BASH_REMATCH[1]}"
}

# bots NAME SERVER SCENARIO-ARGS...: a fresh SERVER, then the bots on core 1 with one loop thread; the report
# goes to NAME.json and the summary to NAME.txt. A failed run (exit 1) is reported, not fatal.
bots() {
    local name="$1" kind="$2" path=""
    shift 2
    start_server "$kind"
    # Echo and idle connections go to /echo on every server (a bare WebSocket: the peers serve nothing else but
    # the fan-out); fanout picks its rooms' paths under /fanout.
    [[ "$1" == echo || "$1" == idle ]] && path=/echo
    log "$name: wordrooms-bots $* (server $kind, port $SERVER_PORT)"
    local status=0
    nice -n "$NICE" taskset -c 1 "$BOTS_BIN" "$@" --url "ws://127.0.0.1:$SERVER_PORT$path" --threads 1 --server-pid "$SERVER_PID" \
        --quiet --json "$OUT/$name.json" >"$OUT/$name.txt" 2>&1 || status=$?
    stop_server
    if [[ $status -ne 0 ]]; then
        log "$name: the bots reported failures (exit $status): $(grep '^Result' "$OUT/$name.txt" || tail -n 3 "$OUT/$name.txt")"
    fi
    [[ -s "$OUT/$name.json" ]] || log "$name produced no report; its figures are missing (see $OUT/$name.txt)"
    return 0
}

# --- Runs -------------------------------------------------------------------------------------------------
TARGETS=(wordrooms)
[[ $PYTHON == 1 ]] && TARGETS+=(python)
[[ $NODE == 1 ]] && TARGETS+=(node)
[[ $GORILLA == 1 ]] && TARGETS+=(gorilla)
# The room broadcast: the Python peer only echoes.
FANOUT_TARGETS=()
for kind in "${TARGETS[@]}"; do [[ $kind != python ]] && FANOUT_TARGETS+=("$kind"); done
START_DATE="$(date -u '+%Y-%m-%d %H:%M:%S UTC')"
LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"

# Each benchmark runs against both servers back to back, so that both meet the same conditions.
for size in $IDLE_SIZES; do
    for kind in "${TARGETS[@]}"; do
        bots "idle-$size-$kind" "$kind" idle --connections "$size" --ramp 2000 --duration "$((size / 2000 + 6))"
    done
    # The same idle game sockets having negotiated permessage-deflate: what it costs a connection that waits.
    bots "idle-$size-deflate-wordrooms" wordrooms idle --connections "$size" --ramp 2000 \
        --duration "$((size / 2000 + 6))" --deflate
done
for kind in "${TARGETS[@]}"; do
    bots "echo-pipelined-$kind" "$kind" echo --connections 100 --depth 32 --size 32 --duration "$ECHO_SECONDS"
done
for kind in "${TARGETS[@]}"; do
    bots "echo-pingpong-$kind" "$kind" echo --connections 1000 --depth 1 --size 32 --duration "$ECHO_SECONDS"
done
for kind in "${TARGETS[@]}"; do
    bots "cpu-20k-$kind" "$kind" echo --connections 1000 --depth 8 --size 32 --rate 20 \
        --duration "$((ECHO_SECONDS + 2))"
done
# Room fan-out: rooms of 8 on /fanout/NAME, one message per client per second; the first quarter of the run (the
# ramp, at 2,000 connections a second) is not timed.
for size in $FANOUT_SIZES; do
    for kind in "${FANOUT_TARGETS[@]}"; do
        bots "fanout-$size-$kind" "$kind" fanout --connections "$size" --room-size 8 --rate 1 --ramp 2000 \
            --duration "$FANOUT_SECONDS" --warmup "$((FANOUT_SECONDS / 4 > 3 ? FANOUT_SECONDS / 4 : 3))" \
            --poll-us "$POLL_US"
    done
done
# The first 8 s (the ramp: 10,000 connections, every join a patch to the room) are not timed.
# Repeated (--play-runs): on a shared machine one run's tail latency says as much about the neighbours as about
# the server; the table shows every run's p99 and their median.
for run in $(seq "$PLAY_RUNS"); do
    name=play-wordrooms
    [[ $run -gt 1 ]] && name="play-wordrooms-$run"
    bots "$name" wordrooms play --rooms 1250 --players 8 --game mixed --rate 1 --duration "$PLAY_SECONDS" \
        --warmup 8 --poll-us "$POLL_US"
done
# permessage-deflate: a smaller game load without, then the same with the bots offering it, --deflate-runs times;
# the table sets each deflate run against the run just before it. 200 rooms, not 1,250: there the server's core is
# close to full without compression, and what compressing each patch adds (about 50,000 instructions per move)
# tips it into a queue that decides the figures; the one bot thread, inflating every message in each connection's
# own window, nears its core too. Unsaturated, the ratios measure compression.
for run in $(seq "$DEFLATE_RUNS"); do
    suffix=""
    [[ $run -gt 1 ]] && suffix="-$run"
    for variant in "" --deflate; do
        bots "play200${variant:+-deflate}-wordrooms$suffix" wordrooms play --rooms 200 --players 8 --game mixed \
            --rate 1 --duration "$DEFLATE_SECONDS" --warmup 8 --poll-us "$POLL_US" ${variant:+"$variant"}
    done
done
bots play-sleeping-wordrooms wordrooms play --rooms 1250 --players 8 --game mixed --rate 1 \
    --duration "$((PLAY_SECONDS / 2 > 20 ? PLAY_SECONDS / 2 : 20))" --warmup 8 --poll-us 0
# The ramp of the fan-out run is its own load (each join is a patch to everyone already in the room): its first
# 10 s are not timed.
bots fanout-wordrooms wordrooms play --rooms 50 --players 2 --spectators 200 --game snowman --rate 5 \
    --duration "$((ECHO_SECONDS * 2 + 10))" --warmup 10 --poll-us "$POLL_US"

# --- Report -----------------------------------------------------------------------------------------------
PYTHON_BIN=python3
[[ $PYTHON == 1 ]] && PYTHON_BIN="$VENV/bin/python"
WEBSOCKETS_VERSION="n/a"
[[ $PYTHON == 1 ]] && WEBSOCKETS_VERSION="$("$VENV/bin/python" -c 'import websockets; print(websockets.__version__)')"
{
    echo "WordRooms benchmarks, $START_DATE"
    echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores," \
        "$(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), Linux $(uname -r)," \
        "open-files hard limit $(ulimit -Hn)"
    echo "swift: $(swift --version 2>/dev/null | head -n 1 || echo unknown); Python websockets $WEBSOCKETS_VERSION;" \
        "$NODE_VERSION; $GORILLA_VERSION"
    echo "load average before: $LOAD_BEFORE (other processes share these cores: figures are indicative)"
    echo "server on core 0 (1 event-loop thread), bots on core 1 (1 thread), niceness $NICE;" \
        "game-load bots poll every $POLL_US us; reports in $OUT"
    echo
    "$PYTHON_BIN" "$HERE/bench_table.py" "$OUT" --fanout-sizes "$FANOUT_SIZES" $IDLE_SIZES
} | tee "$OUT/summary.txt"
