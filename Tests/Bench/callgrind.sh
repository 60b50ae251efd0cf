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
# CALLGRIND_LOADS picks loads (default "echo snowman scramble"); three more count one kind of move each, joins
# and start-up left out (a 5-s and a 15-s run, CALLGRIND_SHORT/CALLGRIND_LONG, differenced):
#   guess    Snowman rooms, bots moving only on their turn                   -> instructions per guess
#   word     Word Scramble rooms, only real words                            -> instructions per found word
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

# Instructions per move of one kind, joins and start-up left out: the same load for SHORT and LONG seconds on
# fresh servers, the difference in instructions over the difference in moves (every bot joins in both runs).
# For `chat`, whose Snowman rooms also guess (on each bot's turn), the guesses are taken out at the `guess` figure.
marginal() {
    local label=$1 kind=$2; shift 2
    local short=${CALLGRIND_SHORT:-5} long=${CALLGRIND_LONG:-15}
    MEASURE_QUIET=1 measure "$label" move "" "$@" --duration "$short"
    local total1=$MEASURED_TOTAL n1; n1=$(kind_count "$kind")
    local g1; g1=$(kind_count guesses)
    MEASURE_QUIET=1 measure "$label" move "" "$@" --duration "$long"
    local total2=$MEASURED_TOTAL n2; n2=$(kind_count "$kind")
    local g2; g2=$(kind_count guesses)
    local delta=$((total2 - total1)) moves=$((n2 - n1))
    if [ "$kind" = chat ]; then delta=$((delta - (g2 - g1) * ${GUESS_COST:-0})); fi
    [ "$moves" -gt 0 ] || { echo "$label: no more moves in the longer run" >&2; return 1; }
    local per=$((delta / moves))
    [ "$kind" = guesses ] && GUESS_COST=$per
    printf '%-9s %8s more %s in %ss than in %ss, %14s more instructions, %7d per %s\n' \
        "$label" "$moves" "$kind" "$long" "$short" "$delta" "$per" "$label"
}

LOADS="${CALLGRIND_LOADS:-echo snowman scramble}"
for load in $LOADS; do
    case $load in
    echo) measure echo message /echo echo --connections 50 --depth 4 --size 32 --duration 10 ;;
    snowman) measure snowman move "" play --rooms 40 --players 8 --game snowman --rate 1 --duration 10 ;;
    scramble) measure scramble move "" play --rooms 40 --players 8 --game scramble --rate 1 --duration 10 ;;
    # One kind of move at a time (see `marginal`): a Snowman guess (bots wait for their turn), a Word Scramble
    # word (all of them words), a chat line (Snowman bots chatting off their turn).
    guess) marginal guess guesses play --rooms 40 --players 8 --game snowman --rate 1 --chat-share 0 ;;
    word) marginal word words play --rooms 40 --players 8 --game scramble --rate 1 --chat-share 0 --invalid-share 0 ;;
    chat) marginal chat chat play --rooms 40 --players 8 --game snowman --rate 1 --chat-share 1 ;;
    *) echo "callgrind.sh: unknown load $load (echo, snowman, scramble, guess, word, chat)" >&2; exit 2 ;;
    esac
done
