# shellcheck shell=bash
# Shared plumbing for Tests/Conformance/run-autobahn.sh, Tests/EndToEnd/run-python-client.sh and the other scripts that
# start a server (chaos, soak).
# Source it (after `set -euo pipefail`); it defines functions and variables prefixed `wr_` / `WR_`.
#
# The server contract these helpers rely on (the WordRooms binary, or any `--server-cmd` stand-in):
#   SERVER --host 127.0.0.1 --port 0 --max-message-bytes N
#   - its FIRST line on stdout contains the URL it listens on, with the real port, e.g.
#       WordRooms is running at http://127.0.0.1:43127/
#     and that line is flushed at once (stdout is a file here, not a terminal);
#   - `GET /healthz` answers 200 once it serves; SIGTERM stops it.
# The server runs with the repository root as its working directory.

WR_REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# The machine image keeps the Swift toolchain in /opt/swift, off the default PATH.
if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
# The script that sourced this file (its header comment is its --help) and its directory.
WR_SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)"
WR_SCRIPT="$WR_SCRIPT_DIR/$(basename "${BASH_SOURCE[1]}")"
# shellcheck disable=SC2034  # used by the scripts that source this file
WR_CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/wordrooms"
WR_TAG="${WR_TAG:-harness}"       # prefix of progress lines; callers set it
WR_SERVER_PIDS=()                 # process-group ids of servers we started
WR_BG_PIDS=()                     # other background helpers we started (plain pids)
WR_TMP=""                         # scratch directory, removed on exit
WR_STARTED_URL=""                 # set by wr_start_server: http://HOST:PORT/

# The server under test, from the options both scripts take (wr_target_option): one already running (--url), a
# command (--server-cmd), the Python stand-in (--standin), or this repository's build (--config, --no-build).
WR_URL=""
WR_SERVER_CMD=""
WR_STANDIN=0
WR_CONFIG=release
WR_BUILD=1
WR_RUN_TIMEOUT=600                # --timeout: seconds for the whole run; a caller may set its own default
WR_SHIFT=0                        # set by wr_target_option: how many arguments it used
WR_CMD=()                         # set by wr_server_command: the server to start

wr_log() { printf '[%s] %s\n' "$WR_TAG" "$*" >&2; }
wr_die() {
    printf '[%s] ERROR: %s\n' "$WR_TAG" "$*" >&2
    exit 2
}

wr_mktemp() {
    if [[ -z "$WR_TMP" ]]; then
        WR_TMP="$(mktemp -d "${TMPDIR:-/tmp}/wordrooms-${WR_TAG}.XXXXXX")"
    fi
}

# Stops everything we started. Installed as the EXIT trap by wr_install_traps.
wr_cleanup() {
    local status=$?
    local pid
    for pid in "${WR_BG_PIDS[@]+"${WR_BG_PIDS[@]}"}"; do
        kill "$pid" 2>/dev/null || true
    done
    wr_stop_servers
    if [[ -n "$WR_TMP" && -d "$WR_TMP" ]]; then
        if [[ $status -ne 0 && "${WR_KEEP_TMP_ON_FAILURE:-1}" == 1 ]]; then
            wr_log "kept scratch files (server logs) in $WR_TMP"
        else
            rm -rf "$WR_TMP"
        fi
    fi
    return "$status"
}

wr_install_traps() {
    trap wr_cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    trap 'exit 129' HUP
}

# wr_run_bounded SECONDS LOG CMD [ARGS...]: runs CMD under timeout(1), in the background, with stdout and stderr
# to the file LOG ("-": ours), and waits for it. A foreground child would hold off our INT/TERM traps until it
# ended; `wait` lets them run at once, and wr_cleanup then stops CMD. Returns CMD's status (124 or 137 when the
# limit ran out).
wr_run_bounded() {
    local limit="$1" log="$2" pid status=0
    shift 2
    if [[ "$log" == - ]]; then
        timeout --kill-after=15 "$limit" "$@" &
    else
        timeout --kill-after=15 "$limit" "$@" >"$log" 2>&1 &
    fi
    pid=$!
    WR_BG_PIDS+=("$pid")
    wait "$pid" || status=$?
    return "$status"
}

# SIGTERM each server's process group, wait up to 5 s, then SIGKILL what is left.
wr_stop_servers() {
    local pgid i
    [[ ${#WR_SERVER_PIDS[@]} -eq 0 ]] && return 0
    for pgid in "${WR_SERVER_PIDS[@]}"; do
        kill -TERM -- "-$pgid" 2>/dev/null || true
    done
    for ((i = 0; i < 50; i++)); do
        local alive=0
        for pgid in "${WR_SERVER_PIDS[@]}"; do
            kill -0 -- "-$pgid" 2>/dev/null && alive=1
        done
        [[ $alive -eq 0 ]] && break
        sleep 0.1
    done
    for pgid in "${WR_SERVER_PIDS[@]}"; do
        if kill -0 -- "-$pgid" 2>/dev/null; then
            wr_log "server (pgid $pgid) ignored SIGTERM for 5 s; sending SIGKILL"
            kill -KILL -- "-$pgid" 2>/dev/null || true
        fi
    done
    WR_SERVER_PIDS=()
}

# wr_stop_pid PID: SIGTERM one server process (a plain pid, not a group) and wait for it to exit: a server saves
# its snapshot on SIGTERM, so its data directory must not be removed before. Bounded: one that has not stopped
# within 10 s is killed.
wr_stop_pid() {
    local pid="$1" watchdog
    kill -CONT "$pid" 2>/dev/null || true
    kill "$pid" 2>/dev/null || true
    ( sleep 10; kill -9 "$pid" 2>/dev/null ) &
    watchdog=$!
    wait "$pid" 2>/dev/null || true
    kill "$watchdog" 2>/dev/null || true
}

# wr_build_server CONFIG  -> sets WR_SERVER_BIN to the built `wordrooms` executable.
wr_build_server() {
    local config="$1" log
    command -v swift >/dev/null || wr_die "swift is not on PATH; cannot build the server (use --url or --server-cmd)"
    wr_mktemp
    log="$WR_TMP/swift-build.log"
    wr_log "building: swift build -c $config --product wordrooms (log: $log)"
    local status=0 here="$PWD"
    cd "$WR_REPO_ROOT" || wr_die "cannot cd to $WR_REPO_ROOT"
    wr_run_bounded "${WR_BUILD_TIMEOUT:-2400}" "$log" swift build -c "$config" --product wordrooms || status=$?
    cd "$here" || wr_die "cannot cd back to $here"
    if [[ $status -ne 0 ]]; then
        tail -n 40 "$log" >&2
        wr_die "swift build -c $config failed (full log: $log)"
    fi
    local bindir
    bindir="$(cd "$WR_REPO_ROOT" && swift build -c "$config" --show-bin-path 2>/dev/null)" ||
        wr_die "swift build --show-bin-path failed"
    WR_SERVER_BIN="$bindir/wordrooms"
    [[ -x "$WR_SERVER_BIN" ]] || wr_die "build succeeded but $WR_SERVER_BIN is missing"
}

# wr_find_server_bin CONFIG -> WR_SERVER_BIN from an earlier build (for --no-build).
wr_find_server_bin() {
    local config="$1" candidate
    for candidate in "$WR_REPO_ROOT/.build/$config/wordrooms" "$WR_REPO_ROOT/.build/x86_64-unknown-linux-gnu/$config/wordrooms" \
        "$WR_REPO_ROOT/.build/aarch64-unknown-linux-gnu/$config/wordrooms"; do
        if [[ -x "$candidate" ]]; then
            WR_SERVER_BIN="$candidate"
            return 0
        fi
    done
    wr_die "--no-build: no built server at $WR_REPO_ROOT/.build/$config/wordrooms"
}

# wr_start_server NAME MAX_MESSAGE_BYTES CMD [ARGS...]
# Runs `CMD ARGS --host 127.0.0.1 --port 0 --max-message-bytes N` in its own process group (cwd: repo root),
# waits for the first stdout line, parses the URL from it, then waits for GET /healthz = 200.
# Sets WR_STARTED_URL (http://HOST:PORT/); the server's output goes to $WR_TMP/NAME.stdout and NAME.stderr.
wr_start_server() {
    local name="$1" cap="$2"
    shift 2
    wr_mktemp
    local out="$WR_TMP/$name.stdout" err="$WR_TMP/$name.stderr"
    local timeout_s="${WR_START_TIMEOUT:-30}"
    (cd "$WR_REPO_ROOT" && exec setsid "$@" --host 127.0.0.1 --port 0 --max-message-bytes "$cap") >"$out" 2>"$err" </dev/null &
    local pid=$!
    # The subshell is not a process-group leader, so setsid(1) calls setsid(2) in place and execs: pid == pgid.
    WR_SERVER_PIDS+=("$pid")

    local deadline=$((SECONDS + timeout_s)) line=""
    while :; do
        if [[ -s "$out" ]] && [[ "$(head -c 65536 "$out" | wc -l)" -ge 1 ]]; then
            line="$(head -n 1 "$out")"
            break
        fi
        if ! kill -0 "$pid" 2>/dev/null; then
            local rc=0
            wait "$pid" 2>/dev/null || rc=$?
            tail -n 30 "$err" >&2 || true
            wr_die "server '$name' exited (status $rc) before printing its start line. Command: $* --host 127.0.0.1 --port 0 --max-message-bytes $cap"
        fi
        if ((SECONDS >= deadline)); then
            head -c 2000 "$out" >&2 || true
            tail -n 30 "$err" >&2 || true
            wr_die "server '$name' printed no complete first line on stdout within ${timeout_s}s. It must print e.g. 'WordRooms is running at http://127.0.0.1:PORT/' followed by a newline AND flush stdout (stdout is a file here, so Swift's print() is block-buffered: call fflush(stdout) or setvbuf(stdout, nil, _IOLBF, 0))."
        fi
        sleep 0.05
    done

    local hostport
    if [[ "$line" =~ (https?|wss?)://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):([0-9]+) ]]; then
        local host="${BASH_REMATCH[2]}" port="${BASH_REMATCH[3]}"
        [[ "$port" == 0 ]] && wr_die "server '$name' printed port 0 ('$line'); it must print the port it actually bound"
        case "$host" in 0.0.0.0) host=127.0.0.1 ;; "[::]") host="[::1]" ;; esac
        hostport="$host:$port"
    else
        wr_die "server '$name': could not find http://HOST:PORT in its first stdout line: '$line'"
    fi
    WR_STARTED_URL="http://$hostport/"
    wr_wait_healthz "$WR_STARTED_URL" "$timeout_s" "$pid"
    wr_log "server '$name' is up at $WR_STARTED_URL (pid $pid, --max-message-bytes $cap)"
}

# wr_wait_healthz BASE_URL TIMEOUT [PID]: polls GET BASE_URL/healthz until 200.
wr_wait_healthz() {
    local base="${1%/}" timeout_s="$2" pid="${3:-}" code=""
    local deadline=$((SECONDS + timeout_s))
    while :; do
        code="$(curl -s --noproxy '*' -o /dev/null -w '%{http_code}' --max-time 2 "$base/healthz" 2>/dev/null || true)"
        [[ "$code" == 200 ]] && return 0
        if [[ -n "$pid" ]] && ! kill -0 "$pid" 2>/dev/null; then
            wr_die "server exited while waiting for $base/healthz"
        fi
        if ((SECONDS >= deadline)); then
            wr_die "GET $base/healthz did not return 200 within ${timeout_s}s (last status: ${code:-none})"
        fi
        sleep 0.1
    done
}

# wr_server_alive: status 0 when every server we started is still running.
wr_servers_alive() {
    local pgid
    for pgid in "${WR_SERVER_PIDS[@]+"${WR_SERVER_PIDS[@]}"}"; do
        kill -0 "$pgid" 2>/dev/null || return 1
    done
    return 0
}

# wr_judge_client_run STATUS: the verdict on a client run's exit STATUS (from wr_run_bounded): exits 1, saying
# why, when the run overran --timeout, a server this script started died during it, or the client failed.
wr_judge_client_run() {
    local status="$1"
    if [[ $status == 124 || $status == 137 ]]; then
        wr_log "FAILED: the client run did not finish within --timeout ${WR_RUN_TIMEOUT}s"
        exit 1
    fi
    if [[ -z "$WR_URL" ]] && ! wr_servers_alive; then
        wr_log "FAILED: a server exited during the run (stderr files in $WR_TMP)"
        exit 1
    fi
    [[ $status == 0 ]] || exit 1
}

# wr_url_on URL KIND PATH: URL's host:port with the KIND scheme (http or ws; TLS kept: https and wss become
# https or wss) and PATH.
wr_url_on() {
    local url="$1" kind="$2" path="$3" tls=""
    [[ "$url" =~ ^(https?|wss?)://([^/]+) ]] || wr_die "not a URL: $url"
    case "${BASH_REMATCH[1]}" in https | wss) tls=s ;; esac
    printf '%s%s://%s%s\n' "$kind" "$tls" "${BASH_REMATCH[2]}" "$path"
}

# wr_echo_url URL: http(s)://h:p/... -> ws(s)://h:p/echo
wr_echo_url() { wr_url_on "$1" ws /echo; }

# wr_http_base URL: ws(s)://h:p/echo or http(s)://h:p/x -> http(s)://h:p/
wr_http_base() { wr_url_on "$1" http /; }

# wr_python3_venv DIR REQUIREMENTS_FILE: creates (once, cached by the file's hash) a python3 venv.
wr_python3_venv() {
    local dir="$1" req="$2" stamp want
    command -v python3 >/dev/null || wr_die "python3 is not on PATH"
    want="$(sha256sum "$req" | cut -d' ' -f1) $(python3 -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])')"
    stamp="$dir/.wordrooms-stamp"
    mkdir -p "$(dirname "$dir")"
    (
        flock -w 600 9 || wr_die "timed out waiting for the lock on $dir"
        if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" && -x "$dir/bin/python" ]]; then
            exit 0
        fi
        wr_log "creating python3 venv $dir"
        rm -rf "$dir"
        python3 -m venv "$dir" || wr_die "python3 -m venv $dir failed"
        if ! timeout 600 "$dir/bin/python" -m pip install -q --disable-pip-version-check -r "$req" >"$dir.install.log" 2>&1; then
            tail -n 30 "$dir.install.log" >&2
            wr_die "pip install -r $req failed (log: $dir.install.log)"
        fi
        printf '%s\n' "$want" >"$stamp"
    ) 9>"$dir.lock"
}

# wr_target_option ARGS...: takes one target option (--url, --server-cmd, --standin, --config, --no-build,
# --timeout) from the front of ARGS and sets WR_SHIFT to the number of words it used. Status 1 for any other word.
wr_target_option() {
    case "$1" in
        --url) WR_URL="${2:?--url needs a value}"; WR_SHIFT=2 ;;
        --server-cmd) WR_SERVER_CMD="${2:?--server-cmd needs a value}"; WR_SHIFT=2 ;;
        --standin) WR_STANDIN=1; WR_SHIFT=1 ;;
        --config) WR_CONFIG="${2:?--config needs a value}"; WR_SHIFT=2 ;;
        --no-build) WR_BUILD=0; WR_SHIFT=1 ;;
        --timeout) WR_RUN_TIMEOUT="${2:?--timeout needs a value}"; WR_SHIFT=2 ;;
        *) return 1 ;;
    esac
}

# wr_check_target_options: refuses bad or contradictory target options, and a machine without curl (it polls
# /healthz).
wr_check_target_options() {
    [[ "$WR_CONFIG" == release || "$WR_CONFIG" == debug ]] || wr_die "--config must be release or debug"
    [[ "$WR_RUN_TIMEOUT" =~ ^[0-9]+$ ]] || wr_die "--timeout must be a number of seconds"
    if [[ -n "$WR_URL" && ( -n "$WR_SERVER_CMD" || $WR_STANDIN == 1 ) ]]; then
        wr_die "--url targets a running server; it cannot be combined with --server-cmd or --standin"
    fi
    if [[ -n "$WR_SERVER_CMD" && $WR_STANDIN == 1 ]]; then wr_die "--server-cmd and --standin exclude each other"; fi
    command -v curl >/dev/null || wr_die "curl is needed to poll /healthz"
}

# wr_server_command STANDIN_CMD...: sets WR_CMD to the server to start: STANDIN_CMD with --standin, the words of
# --server-cmd, or else this repository's wordrooms (built now unless --no-build) with --bench-echo: every script
# of this harness talks to /echo, which wordrooms serves only with that flag.
wr_server_command() {
    if [[ $WR_STANDIN == 1 ]]; then
        WR_CMD=("$@")
    elif [[ -n "$WR_SERVER_CMD" ]]; then
        read -r -a WR_CMD <<<"$WR_SERVER_CMD"
    else
        if [[ $WR_BUILD == 1 ]]; then wr_build_server "$WR_CONFIG"; else wr_find_server_bin "$WR_CONFIG"; fi
        WR_CMD=("$WR_SERVER_BIN" --bench-echo)
    fi
}

# wr_usage: the --help text: the calling script's header comment (its own options), then the target options.
wr_usage() {
    printf 'Usage: %s [options]\n\n' "${WR_SCRIPT#"$WR_REPO_ROOT"/}"
    sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p}}' "$WR_SCRIPT"
    cat <<'EOF'

Target (default: build with `swift build -c release` and start .build/release/wordrooms):
  --server-cmd CMD     start CMD instead of the built binary; it is run (word-split, cwd = repo root) as
                         CMD --host 127.0.0.1 --port 0 --max-message-bytes N
                       and must print its URL (http://127.0.0.1:PORT/) on its first stdout line
                       (a wordrooms CMD needs --bench-echo: /echo is off by default)
  --standin            use the Python stand-in server (Tests/EndToEnd/standin_server.py)
  --config C           release (default) or debug
  --no-build           use the existing .build/<config>/wordrooms without building
  -h, --help           this text
EOF
}
