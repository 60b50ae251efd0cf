#!/usr/bin/env bash
# End-to-end test with a third-party WebSocket peer: Python's `websockets` (pinned in requirements.txt, in a
# cached venv) runs Tests/EndToEnd/python_client_test.py against the WordRooms server.
#
#   Tests/EndToEnd/run-python-client.sh                    # swift build -c release, start 2 servers, all checks
#   Tests/EndToEnd/run-python-client.sh --url http://127.0.0.1:8080/ [--cap-url URL2 --cap-bytes N]
#   Tests/EndToEnd/run-python-client.sh --server-cmd "path/to/server"
#   Tests/EndToEnd/run-python-client.sh --standin          # harness self-test against the Python stand-in
#
# It starts two servers on ephemeral ports: one with --max-message-bytes 16777216 for everything, one with
# --max-message-bytes 65536 for the message-size (close 1009) checks.
# Exit status: 0 every check passed, 1 some check failed, 2 setup problem.
#
# Options:
#   --url URL            test a server that is already running (http://HOST:PORT/ or ws://HOST:PORT/echo);
#                        it must accept messages of at least 1 MiB
#   --cap-url URL        an already running server for the 1009 checks (default: --url)
#   --cap-bytes N        the --max-message-bytes of the cap server. With --url the 1009 checks run only when
#                        --cap-bytes is given; when this script starts the servers it is 65536
#   --only TEXT          run only checks whose name contains TEXT (repeatable)
#   --timeout SECONDS    limit for the whole client run (default 600)
set -euo pipefail

WR_TAG=e2e
# shellcheck source=SCRIPTDIR/harness.sh
source "$(dirname "${BASH_SOURCE[0]}")/harness.sh"

CAP_URL=""
CAP_BYTES=""
ONLY=()

while [[ $# -gt 0 ]]; do
    case "$1" in
        --cap-url) CAP_URL="${2:?--cap-url needs a value}"; shift 2 ;;
        --cap-bytes) CAP_BYTES="${2:?--cap-bytes needs a value}"; shift 2 ;;
        --only) ONLY+=(--only "${2:?--only needs a value}"); shift 2 ;;
        -h | --help) wr_usage; exit 0 ;;
        *) wr_target_option "$@" || { wr_usage >&2; wr_die "unknown argument: $1"; }; shift "$WR_SHIFT" ;;
    esac
done
wr_check_target_options
[[ -z "$CAP_BYTES" || "$CAP_BYTES" =~ ^[0-9]+$ ]] || wr_die "--cap-bytes must be a number"
[[ -z "$WR_URL" && -n "$CAP_URL" ]] && wr_die "--cap-url goes with --url"

wr_install_traps

VENV="$WR_CACHE_DIR/e2e-venv"
wr_python3_venv "$VENV" "$WR_SCRIPT_DIR/requirements.txt"

CLIENT_ARGS=()
if [[ -n "$WR_URL" ]]; then
    MAIN_URL="$(wr_http_base "$WR_URL")"
    wr_wait_healthz "$MAIN_URL" 10
    if [[ -n "$CAP_BYTES" ]]; then
        CAP_TARGET="$(wr_http_base "${CAP_URL:-$WR_URL}")"
        CLIENT_ARGS+=(--cap-url "$CAP_TARGET" --cap-bytes "$CAP_BYTES")
    else
        wr_log "no --cap-bytes: the message-size (1009) checks are skipped"
        CLIENT_ARGS+=(--skip-cap)
    fi
    wr_log "target: $MAIN_URL (already running)"
else
    wr_server_command "$VENV/bin/python" "$WR_SCRIPT_DIR/standin_server.py"
    # The stand-in is an echo server without WordRooms' compression or game socket.
    [[ $WR_STANDIN == 1 ]] && CLIENT_ARGS+=(--skip-deflate)
    CAP_BYTES="${CAP_BYTES:-65536}"
    wr_start_server main 16777216 "${WR_CMD[@]}"
    MAIN_URL="$WR_STARTED_URL"
    wr_start_server cap "$CAP_BYTES" "${WR_CMD[@]}"
    CLIENT_ARGS+=(--cap-url "$WR_STARTED_URL" --cap-bytes "$CAP_BYTES")
fi

STATUS=0
wr_run_bounded "$WR_RUN_TIMEOUT" - "$VENV/bin/python" "$WR_SCRIPT_DIR/python_client_test.py" --url "$MAIN_URL" \
    "${CLIENT_ARGS[@]}" "${ONLY[@]+"${ONLY[@]}"}" || STATUS=$?
wr_judge_client_run "$STATUS"
