#!/usr/bin/env bash
# Runs the Autobahn|Testsuite fuzzingserver (wstest -m fuzzingserver, Python 2.7) against the WordRooms CLIENT side
# of RFC 6455, driven by the autobahn-client executable (Tests/Conformance/AutobahnClient), and judges
# Tests/Conformance/reports-client/index.json (wstest itself exits 0 whatever happens).
#
#   Tests/Conformance/run-autobahn-client.sh                      # swift build -c release, all cases
#   Tests/Conformance/run-autobahn-client.sh --cases "1.*,2.*"    # a quick subset
#   Tests/Conformance/run-autobahn-client.sh --no-build           # reuse .build/release/autobahn-client
#
# Exit status: 0 all cases pass, 1 some case failed (or the driver could not finish), 2 setup problem (no
# Python 2.7, build failed, ...).
#
# Options:
#   --cases LIST          comma-separated case patterns (default "*": all cases), e.g. "1.*,2.*,9.1.*"
#   --exclude-cases LIST  comma-separated case patterns to skip
#   --outdir DIR          report directory (default Tests/Conformance/reports-client; emptied first)
#   --config C            release (default) or debug
#   --no-build            use the existing .build/<config>/autobahn-client without building
#   --timeout SECONDS     limit for the whole run (default 3600)
#   --case-timeout SECS   longest one case may take before the driver drops it (default 600: the fuzzingserver
#                         ends its own slowest cases, in 12.* and 13.*, after 480 s)
#   --python2 PATH        Python 2.7 interpreter (default: $WORDROOMS_PYTHON2, then pyenv's 2.7.18, then python2.7)
#   --verbose             also list NON-STRICT / INFORMATIONAL cases
#   -h, --help            this text
set -euo pipefail

WR_TAG=autobahn-client
# shellcheck source=SCRIPTDIR/../EndToEnd/harness.sh
source "$(dirname "${BASH_SOURCE[0]}")/../EndToEnd/harness.sh"

# shellcheck source=autobahn-env.sh
source "$WR_SCRIPT_DIR/autobahn-env.sh"
OUTDIR="$WR_SCRIPT_DIR/reports-client"
WR_RUN_TIMEOUT=3600
CASE_TIMEOUT=600
# The key of the report's index.json, and the prefix of its per-case files.
AGENT=WordRoomsClient

usage() {
    printf 'Usage: %s [options]\n\n' "${WR_SCRIPT#"$WR_REPO_ROOT"/}"
    sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p}}' "$WR_SCRIPT"
}

while [[ $# -gt 0 ]]; do
    case "$1" in
        --config) WR_CONFIG="${2:?--config needs a value}"; shift 2 ;;
        --no-build) WR_BUILD=0; shift ;;
        --timeout) WR_RUN_TIMEOUT="${2:?--timeout needs a value}"; shift 2 ;;
        --case-timeout) CASE_TIMEOUT="${2:?--case-timeout needs a value}"; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        *) autobahn_option "$@" || { usage >&2; wr_die "unknown argument: $1"; }; shift "$WR_SHIFT" ;;
    esac
done
[[ "$WR_CONFIG" == release || "$WR_CONFIG" == debug ]] || wr_die "--config must be release or debug"
[[ "$WR_RUN_TIMEOUT" =~ ^[0-9]+$ ]] || wr_die "--timeout must be a number of seconds"
[[ "$CASE_TIMEOUT" =~ ^[0-9]+$ && "$CASE_TIMEOUT" -gt 0 ]] || wr_die "--case-timeout must be a number of seconds"

# ---------------------------------------------------------------------------------------------------------------
# The report directory, Python 2.7, the cached wstest virtualenv, the driver.

prepare_autobahn_run

wr_mktemp
find_driver() {
    local bindir
    bindir="$(cd "$WR_REPO_ROOT" && swift build -c "$WR_CONFIG" --show-bin-path 2>/dev/null)" ||
        wr_die "swift build --show-bin-path failed"
    DRIVER="$bindir/autobahn-client"
}
if [[ $WR_BUILD == 1 ]]; then
    command -v swift >/dev/null || wr_die "swift is not on PATH; cannot build the driver"
    BUILD_LOG="$WR_TMP/swift-build.log"
    wr_log "building: swift build -c $WR_CONFIG --product autobahn-client (log: $BUILD_LOG)"
    BUILD_STATUS=0
    HERE_BEFORE="$PWD"
    cd "$WR_REPO_ROOT"
    wr_run_bounded "${WR_BUILD_TIMEOUT:-2400}" "$BUILD_LOG" swift build -c "$WR_CONFIG" --product autobahn-client ||
        BUILD_STATUS=$?
    cd "$HERE_BEFORE"
    if [[ $BUILD_STATUS != 0 ]]; then
        tail -n 40 "$BUILD_LOG" >&2
        wr_die "swift build -c $WR_CONFIG --product autobahn-client failed (full log: $BUILD_LOG)"
    fi
    find_driver
else
    DRIVER="$WR_REPO_ROOT/.build/$WR_CONFIG/autobahn-client"
    # --show-bin-path needs swift; without it, the usual place.
    [[ -x "$DRIVER" ]] || ! command -v swift >/dev/null || find_driver
fi
[[ -x "$DRIVER" ]] || wr_die "no driver at $DRIVER (build it, or drop --no-build)"

# ---------------------------------------------------------------------------------------------------------------
# The fuzzingserver.

# A port free now: the kernel picks one, and wstest takes it a moment later (it cannot listen on port 0 and say
# which port it got).
PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
WS_URL="ws://127.0.0.1:$PORT"

write_autobahn_spec fuzzingserver
wr_log "starting wstest -m fuzzingserver on $WS_URL, cases \"$CASES\"${EXCLUDE:+ minus \"$EXCLUDE\"} (log: $LOG)"
# Its own process group (setsid in place, as wr_start_server does), so the exit trap stops it and anything it
# spawned. --webport 0: no embedded web server (it would take port 8080).
(cd "$WR_TMP" && exec setsid "$VENV/bin/wstest" -m fuzzingserver -s "$SPEC" --webport 0) >"$LOG" 2>&1 </dev/null &
WSTEST_PID=$!
WR_SERVER_PIDS+=("$WSTEST_PID")

# Twisted takes a second or two to import; the port accepting means the server is ready.
DEADLINE=$((SECONDS + ${WR_START_TIMEOUT:-60}))
until (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; do
    if ! kill -0 "$WSTEST_PID" 2>/dev/null; then
        tail -n 30 "$LOG" >&2
        wr_die "wstest exited before listening on port $PORT (log: $LOG)"
    fi
    ((SECONDS < DEADLINE)) || wr_die "wstest did not listen on port $PORT within ${WR_START_TIMEOUT:-60}s (log: $LOG)"
    sleep 0.2
done

# ---------------------------------------------------------------------------------------------------------------
# The run: the driver goes through every case, then asks for the reports.

wr_log "running ${DRIVER#"$WR_REPO_ROOT"/} against $WS_URL as agent $AGENT"
START_TIME=$SECONDS
DRIVER_STATUS=0
wr_run_bounded "$WR_RUN_TIMEOUT" - "$DRIVER" --url "$WS_URL" --agent "$AGENT" --case-timeout "$CASE_TIMEOUT" ||
    DRIVER_STATUS=$?
ELAPSED=$((SECONDS - START_TIME))

WSTEST_DIED=0
wr_servers_alive || WSTEST_DIED=1
wr_stop_servers

if [[ $DRIVER_STATUS == 124 || $DRIVER_STATUS == 137 ]]; then
    tail -n 20 "$LOG" >&2
    wr_log "FAILED: the run did not finish within --timeout ${WR_RUN_TIMEOUT}s"
    exit 1
fi
# 3: every case ran and the report was written, but the driver had to drop some case (it says which).
if [[ $DRIVER_STATUS != 0 && $DRIVER_STATUS != 3 ]]; then
    tail -n 30 "$LOG" >&2
    wr_log "FAILED: autobahn-client exited with status $DRIVER_STATUS after ${ELAPSED}s (wstest log: $LOG)"
    exit 1
fi
judge_autobahn_report "$OUTDIR" "$AGENT" "$LOG" "$VERBOSE" "run"
if [[ $WSTEST_DIED == 1 ]]; then
    wr_log "FAILED: wstest exited during the run (log: $LOG)"
    exit 1
fi
if [[ $DRIVER_STATUS == 3 ]]; then
    wr_log "FAILED: the driver dropped cases that did not close within --case-timeout ${CASE_TIMEOUT}s (see above)"
    exit 1
fi
exit "$VERDICT"
