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
# CALLGRIND_LOADS picks loads (default "echo snowman scramble"); three more count one kind of move each, only
# what the room does for it (inside RoomMachine.handle and Room.run: the game's move, the state update, the patch,
# the queueing):
#   guess    Snowman rooms, bots moving only on their turn, 10 s             -> room instructions per guess
#   word     Word Scramble rooms, only real words, 25 s (the match starts late) -> room instructions per found word
#   chat     Snowman rooms, bots chatting off their turn (after guess: its guesses are taken out at its figure)
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
    # --bench-echo: the echo measurement talks to /echo, off by default. (A comment line inside the continued
    # command below would end it there: valgrind would get no program and the server would run unmeasured.)
    # shellcheck disable=SC2086
    taskset -c 0 valgrind --tool=callgrind --instr-atstart=no ${CALLGRIND_COLLECT:-} --callgrind-out-file="$dir/cg.out" \
        "$SERVER" --host 127.0.0.1 --port 0 --threads 1 --bench-echo $EXTRA >"$dir/log" 2>&1 &
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
    MEASURED_TOTAL=$total MEASURED_OUT=$out
    [ "${MEASURE_QUIET:-}" = 1 ] || \
        printf '%-9s %8s %ss, %14s instructions, %7d per %s\n' "$label" "$count" "$unit" "$total" $((total / count)) "$unit"
    rm -rf "$dir"
}

# The bots' count of one kind of move: guesses, words (of which some not words), chat lines.
kind_count() {
    echo "$MEASURED_OUT" | awk -v kind="$1" '$1 == "moves" {
        for (i = 2; i <= NF; i++) if ($i ~ "^" kind) { gsub(/[^0-9]/, "", $(i - 1)); print $(i - 1); exit } }'
}

# Instructions the room spends on one kind of move: counted only inside `RoomMachine.handle` (the move played, the
# state brought up to date, the patch written) and `Room.run` (its effects: the patch queued to every member); not
# the socket, the frame or the parsing, which every message pays alike, over the bots' count of that move. Joins,
# timers and rounds ending by themselves are outside `handle` (their effects, run by `Room.run`, count: a few
# welcomes and patches per room); the host's `new_game` is inside (about one per Snowman game). For `chat`, whose
# Snowman rooms also guess (on each bot's turn), the guesses are taken out at the `guess` figure.
in_room() {
    local label=$1 kind=$2; shift 2
    local seconds=$1; shift
    # Collection toggles on entering `handle` and `run` (both kept out of line for this), and off again inside the
    # host's `new_game` (a new word or a new match's roots: a lexicon search, once per game), whose publish still
    # counts. Before the room became a machine (f14c1ad) the pattern was `*Rooms4RoomC6handle*ErrorVYKF`.
    CALLGRIND_COLLECT='--toggle-collect=*Rooms11RoomMachineV6handle*ErrorVYKF --toggle-collect=*Rooms4RoomC3runyySayAA0B6EffectOGzF --toggle-collect=*RoomGame*startNext*TW' \
        MEASURE_QUIET=1 measure "$label" move "" "$@" --duration "$seconds"
    local total=$MEASURED_TOTAL n; n=$(kind_count "$kind")
    local guesses; guesses=$(kind_count guesses)
    if [ "$kind" = chat ]; then total=$((total - guesses * ${GUESS_COST:-0})); fi
    [ "$n" -gt 0 ] || { echo "$label: no $kind in the bots' report" >&2; return 1; }
    local per=$((total / n))
    [ "$kind" = guesses ] && GUESS_COST=$per
    printf '%-9s %8s %s, %14s instructions in the room, %7d per %s\n' "$label" "$n" "$kind" "$total" "$per" "$label"
}

LOADS="${CALLGRIND_LOADS:-echo snowman scramble}"
for load in $LOADS; do
    case $load in
    echo) measure echo message /echo echo --connections 50 --depth 4 --size 32 --duration 10 ;;
    snowman) measure snowman move "" play --rooms 40 --players 8 --game snowman --rate 1 --duration 10 ;;
    scramble) measure scramble move "" play --rooms 40 --players 8 --game scramble --rate 1 --duration 10 ;;
    # One kind of move at a time, in the room (see `in_room`): a Snowman guess (bots wait for their turn), a Word Scramble
    # word (all of them words), a chat line (Snowman bots chatting off their turn).
    guess) in_room guess guesses 10 play --rooms 40 --players 8 --game snowman --rate 1 --chat-share 0 ;;
    word) in_room word words 25 play --rooms 40 --players 8 --game scramble --rate 1 --chat-share 0 --invalid-share 0 ;;
    chat) in_room chat chat 10 play --rooms 40 --players 8 --game snowman --rate 1 --chat-share 1 ;;
    *) echo "callgrind.sh: unknown load $load (echo, snowman, scramble, guess, word, chat)" >&2; exit 2 ;;
    esac
done
