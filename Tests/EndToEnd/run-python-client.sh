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
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
WR_TAG=e2e
# shellcheck source=SCRIPTDIR/harness.sh
source "$HERE/harness.sh"

usage() {
    cat <<'EOF'
Usage: Tests/EndToEnd/run-python-client.sh [options]

Target (default: build with `swift build -c release` and start .build/release/wordrooms twice):
  --url URL            test a server that is already running (http://HOST:PORT/ or ws://HOST:PORT/echo);
                       it must accept messages of at least 1 MiB
  --cap-url URL        an already running server for the 1009 checks (default: --url)
  --cap-bytes N        the --max-message-bytes of the cap server. With --url the 1009 checks run only when
                       --cap-bytes is given; when this script starts the servers it is 65536
  --server-cmd CMD     start CMD instead of the built binary; it is run (word-split, cwd = repo root) as
                         CMD --host 127.0.0.1 --port 0 --max-message-bytes N
                       and must print its URL (http://127.0.0.1:PORT/) on its first stdout line
  --standin            use the Python stand-in server (Tests/EndToEnd/standin_server.py)
  --config C           release (default) or debug
  --no-build           use the existing .build/<config>/wordrooms without building

Run:
  --only TEXT          run only checks whose name contains TEXT (repeatable)
  --timeout SECONDS    limit for the whole client run (default 600)
  -h, --help           this text
EOF
}

URL=""
CAP_URL=""
CAP_BYTES=""
SERVER_CMD=""
STANDIN=0
CONFIG=release
BUILD=1
RUN_TIMEOUT=600
ONLY=()

while [[ $# -gt 0 ]]; do
    case "$1" in
        --url) URL="${2:?--url needs a value}"; shift 2 ;;
        --cap-url) CAP_URL="${2:?--cap-url needs a value}"; shift 2 ;;
        --cap-bytes) CAP_BYTES="${2:?--cap-bytes needs a value}"; shift 2 ;;
        --server-cmd) SERVER_CMD="${2:?--server-cmd needs a value}"; shift 2 ;;
        --standin) STANDIN=1; shift ;;
        --config) CONFIG="${2:?--config needs a value}"; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        --only) ONLY+=(--only "${2:?--only needs a value}"); shift 2 ;;
        --timeout) RUN_TIMEOUT="${2:?--timeout needs a value}"; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; wr_die "unknown argument: $1" ;;
    esac
done
[[ "$CONFIG" == release || "$CONFIG" == debug ]] || wr_die "--config must be release or debug"
[[ "$RUN_TIMEOUT" =~ ^[0-9]+$ ]] || wr_die "--timeout must be a number of seconds"
[[ -z "$CAP_BYTES" || "$CAP_BYTES" =~ ^[0-9]+$ ]] || wr_die "--cap-bytes must be a number"
if [[ -n "$URL" && ( -n "$SERVER_CMD" || $STANDIN == 1 ) ]]; then
    wr_die "--url targets a running server; it cannot be combined with --server-cmd or --standin"
fi
[[ -z "$URL" && -n "$CAP_URL" ]] && wr_die "--cap-url goes with --url"
[[ -n "$SERVER_CMD" && $STANDIN == 1 ]] && wr_die "--server-cmd and --standin exclude each other"
command -v curl >/dev/null || wr_die "curl is needed to poll /healthz"

wr_install_traps

VENV="$WR_CACHE_DIR/e2e-venv"
wr_python3_venv "$VENV" "$HERE/requirements.txt"

CLIENT_ARGS=()
if [[ -n "$URL" ]]; then
    MAIN_URL="$(wr_http_base "$URL")"
    wr_wait_healthz "$MAIN_URL" 10
    if [[ -n "$CAP_BYTES" ]]; then
        CAP_TARGET="$(wr_http_base "${CAP_URL:-$URL}")"
        CLIENT_ARGS+=(--cap-url "$CAP_TARGET" --cap-bytes "$CAP_BYTES")
    else
        wr_log "no --cap-bytes: the message-size (1009) checks are skipped"
        CLIENT_ARGS+=(--skip-cap)
    fi
    wr_log "target: $MAIN_URL (already running)"
else
    if [[ $STANDIN == 1 ]]; then
        CMD=("$VENV/bin/python" "$HERE/standin_server.py")
    elif [[ -n "$SERVER_CMD" ]]; then
        read -r -a CMD <<<"$SERVER_CMD"
    else
        if [[ $BUILD == 1 ]]; then wr_build_server "$CONFIG"; else wr_find_server_bin "$CONFIG"; fi
        CMD=("$WR_SERVER_BIN")
    fi
    CAP_BYTES="${CAP_BYTES:-65536}"
    wr_start_server main 16777216 "${CMD[@]}"
    MAIN_URL="$WR_STARTED_URL"
    wr_start_server cap "$CAP_BYTES" "${CMD[@]}"
    CLIENT_ARGS+=(--cap-url "$WR_STARTED_URL" --cap-bytes "$CAP_BYTES")
fi

STATUS=0
wr_run_bounded "$RUN_TIMEOUT" - "$VENV/bin/python" "$HERE/python_client_test.py" --url "$MAIN_URL" \
    "${CLIENT_ARGS[@]}" "${ONLY[@]+"${ONLY[@]}"}" || STATUS=$?
if [[ $STATUS == 124 || $STATUS == 137 ]]; then
    wr_log "FAILED: the client run did not finish within --timeout ${RUN_TIMEOUT}s"
    exit 1
fi
if [[ -z "$URL" ]] && ! wr_servers_alive; then
    wr_log "FAILED: a server exited during the run (stderr files in $WR_TMP)"
    exit 1
fi
[[ $STATUS == 0 ]] || exit 1
