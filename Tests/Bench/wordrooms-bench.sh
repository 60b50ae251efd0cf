#!/usr/bin/env bash
# The release server with its benchmark-only paths on (/echo and /fanout/NAME are off by default) and private
# rooms that open by their code alone (the shared wsload client predates room keys), for tools that take a server
# binary and add their own flags, such as ../shared/bench/compare.sh:
#   WORDROOMS=Tests/Bench/wordrooms-bench.sh ../shared/bench/compare.sh
# WORDROOMS_BINARY picks another build (default: .build/release/wordrooms of this checkout).
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec "${WORDROOMS_BINARY:-$here/../../.build/release/wordrooms}" --bench-echo --bench-fanout --bench-keyless-rooms "$@"
