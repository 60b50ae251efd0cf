#!/usr/bin/env bash
# End-to-end test with a third-party WebSocket peer: Node's `ws` (Debian's node-ws, installed with apt-get when
# missing) runs Tests/EndToEnd/node_ws_client_test.js against the WordRooms server with permessage-deflate on:
# a Snowman game on the game socket (/ws) and /echo round trips under several offers.
#
#   Tests/EndToEnd/run-node-ws-client.sh                   # swift build -c release, start a server, all checks
#   Tests/EndToEnd/run-node-ws-client.sh --no-build --only echo_
#   Tests/EndToEnd/run-node-ws-client.sh --url http://127.0.0.1:8080/
#
# It starts one server on an ephemeral port with --max-message-bytes 16777216 (the /echo checks send 1 MiB).
# Exit status: 0 every check passed, 1 some check failed, 2 setup problem.
#
# Options:
#   --url URL            test a server that is already running (http://HOST:PORT/); it must accept messages of
#                        at least 1 MiB and compress (no --no-compression)
#   --only TEXT          run only checks whose name contains TEXT (repeatable)
#   --timeout SECONDS    limit for the whole client run (default 300)
set -euo pipefail

WR_TAG=node-ws
WR_RUN_TIMEOUT=300
# shellcheck source=SCRIPTDIR/harness.sh
source "$(dirname "${BASH_SOURCE[0]}")/harness.sh"

ONLY=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --only) ONLY+=(--only "${2:?--only needs a value}"); shift 2 ;;
        -h | --help) wr_usage; exit 0 ;;
        *) wr_target_option "$@" || { wr_usage >&2; wr_die "unknown argument: $1"; }; shift "$WR_SHIFT" ;;
    esac
done
wr_check_target_options
# The stand-in serves /echo only; these checks play on /ws.
[[ $WR_STANDIN == 1 ]] && wr_die "--standin has no game socket (/ws); use --url or --server-cmd"

command -v node >/dev/null || wr_die "node is not on PATH"
WS_PACKAGE=/usr/share/nodejs/ws
if [[ ! -f "$WS_PACKAGE/package.json" ]]; then
    wr_log "installing node-ws (apt-get)"
    SUDO=""
    [[ "$(id -u)" -eq 0 ]] || SUDO="sudo"
    $SUDO apt-get update -qq || wr_die "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq node-ws >/dev/null || wr_die "apt-get install node-ws failed"
    [[ -f "$WS_PACKAGE/package.json" ]] || wr_die "node-ws installed, but $WS_PACKAGE is missing"
fi
wr_log "ws $(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$WS_PACKAGE/package.json" | head -n 1), node $(node --version)"

wr_install_traps

if [[ -n "$WR_URL" ]]; then
    MAIN_URL="$(wr_http_base "$WR_URL")"
    wr_wait_healthz "$MAIN_URL" 10
    wr_log "target: $MAIN_URL (already running)"
else
    wr_server_command
    wr_start_server main 16777216 "${WR_CMD[@]}"
    MAIN_URL="$WR_STARTED_URL"
fi

STATUS=0
# Debian's node finds /usr/share/nodejs by itself; other builds of node (NodeSource's) need NODE_PATH.
export NODE_PATH="$(dirname "$WS_PACKAGE")${NODE_PATH:+:$NODE_PATH}"
wr_run_bounded "$WR_RUN_TIMEOUT" - node "$WR_SCRIPT_DIR/node_ws_client_test.js" --url "$MAIN_URL" \
    "${ONLY[@]+"${ONLY[@]}"}" || STATUS=$?
wr_judge_client_run "$STATUS"
