#!/usr/bin/env bash
# Builds and runs the libFuzzer targets of the WebSocket module, each for N seconds (default 30) on a copy of its
# seed corpus, and fails on any crash. Crash inputs are kept in Tests/Fuzz/artifacts/ (git-ignored).
#
# Usage: Tests/Fuzz/run-fuzzers.sh [seconds-per-target]
set -euo pipefail

seconds="${1:-30}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"

# target name -> seed corpus directory
declare -A corpora=([FuzzFrameParser]=frames [FuzzHandshake]=handshake [FuzzRoomMessages]=room-messages [FuzzDeflate]=deflate)
scratch=".build/fuzz"
artifacts="$root/Tests/Fuzz/artifacts"
mkdir -p "$artifacts"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

status=0
for target in ${WORDROOMS_FUZZ_TARGETS:-FuzzFrameParser FuzzHandshake FuzzRoomMessages FuzzDeflate}; do
    WORDROOMS_FUZZ=1 swift build -c debug --sanitize=fuzzer --product "$target" --scratch-path "$scratch" \
        > "$work/$target.build.log" 2>&1 || {
        cat "$work/$target.build.log"
        echo "$target: BUILD FAILED"
        exit 1
    }
    binary="$(WORDROOMS_FUZZ=1 swift build -c debug --sanitize=fuzzer --product "$target" --scratch-path "$scratch" \
        --show-bin-path)/$target"
    corpus="$work/corpus-$target"
    cp -r "Tests/Fuzz/corpus/${corpora[$target]}" "$corpus"
    seeds="$(find "$corpus" -type f | wc -l)"
    log="$work/$target.log"
    if SWIFT_BACKTRACE=enable=no "$binary" "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
        -artifact_prefix="$artifacts/$target-" -print_final_stats=1 > "$log" 2>&1; then
        runs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')"
        cov="$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo '?')"
        echo "$target: OK, ${seconds}s, $runs runs, coverage $cov, corpus $seeds -> $(find "$corpus" -type f | wc -l) inputs"
    else
        tail -n 40 "$log"
        echo "$target: CRASH (inputs in $artifacts)"
        status=1
    fi
done
exit "$status"
