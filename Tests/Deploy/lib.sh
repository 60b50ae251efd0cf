# shellcheck shell=bash
# shellcheck disable=SC2034  # DT_* globals are read by the scripts that source this file
# Shared plumbing of the Tests/Deploy scripts. Source it after `set -euo pipefail`; names start with dt_ / DT_.
# Everything listens on loopback; everything started is stopped by the EXIT trap; a watchdog bounds the run.

DT_REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DT_HERE="$DT_REPO/Tests/Deploy"
DT_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/wordrooms"
DT_TAG="${DT_TAG:-deploy}"
DT_TMP=""
DT_PIDS=()          # processes we started, stopped in reverse order with SIGTERM then SIGKILL
DT_FAILURES=()      # failed checks; the script exits 1 when any
DT_PASSED=0         # passed checks, for the verdict line
DT_MISSING_FLAGS=() # server flags the binary does not know yet
DT_BIN=""           # directory of the release build (wordrooms, wordrooms-bots, the resource bundle)
DT_PY=""            # python of the cached venv

export PATH="/opt/swift/usr/bin:$PATH"

dt_log() { printf '[%s] %s\n' "$DT_TAG" "$*" >&2; }
dt_die() { printf '[%s] ERROR: %s\n' "$DT_TAG" "$*" >&2; exit 2; }
dt_pass() {
    printf '[%s] ok    %s\n' "$DT_TAG" "$*" >&2
    DT_PASSED=$((DT_PASSED + 1))
}
dt_fail() {
    printf '[%s] FAIL  %s\n' "$DT_TAG" "$*" >&2
    DT_FAILURES+=("$*")
}
# dt_check NAME CMD...: runs CMD, records NAME as passed or failed.
dt_check() {
    local name="$1"
    shift
    if "$@"; then dt_pass "$name"; else dt_fail "$name"; fi
}

# dt_json EXPR: evaluates the Python expression EXPR on the JSON document on stdin (as `d`); None prints nothing.
dt_json() { python3 -c 'import json,sys; d=json.load(sys.stdin); v=eval(sys.argv[1]); print("" if v is None else v)' "$1"; }

# dt_bound SECONDS "$@": re-runs the calling script with its arguments under timeout(1), once; SIGTERM at the limit
# runs the cleanup trap. Call it first thing, before any output.
dt_bound() {
    local limit="$1" script
    shift
    [[ -n "${DT_BOUNDED:-}" ]] && return 0
    script="$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)/$(basename "${BASH_SOURCE[1]}")"
    DT_BOUNDED=1 exec timeout --kill-after=30 "$limit" bash "$script" "$@"
}

# dt_init: scratch directory and the cleanup trap.
dt_init() {
    DT_TMP="$(mktemp -d "${TMPDIR:-/tmp}/wordrooms-$DT_TAG.XXXXXX")"
    chmod 755 "$DT_TMP"   # nginx workers run as nobody and read certificates and configs from here
    trap dt_cleanup EXIT
    trap 'dt_log "interrupted"; exit 130' INT
    trap 'dt_log "stopped by SIGTERM (the time limit?)"; exit 143' TERM
}

dt_cleanup() {
    local status=$? i pid
    for ((i = ${#DT_PIDS[@]} - 1; i >= 0; i--)); do
        kill -TERM "${DT_PIDS[i]}" 2>/dev/null || true
    done
    for ((i = 0; i < 50; i++)); do
        local alive=0
        for pid in "${DT_PIDS[@]+"${DT_PIDS[@]}"}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [[ $alive == 0 ]] && break
        sleep 0.1
    done
    for pid in "${DT_PIDS[@]+"${DT_PIDS[@]}"}"; do kill -KILL "$pid" 2>/dev/null || true; done
    if [[ -n "$DT_TMP" && -d "$DT_TMP" ]]; then
        if [[ $status -ne 0 ]]; then
            dt_log "kept logs and configs in $DT_TMP"
        else
            rm -rf "$DT_TMP"
        fi
    fi
    return "$status"
}

# dt_finish: the verdict line and exit status.
dt_finish() {
    local passed="$DT_PASSED"
    if [[ ${#DT_MISSING_FLAGS[@]} -gt 0 ]]; then
        dt_fail "the server does not accept: ${DT_MISSING_FLAGS[*]} (it exits 2 with \"unknown option\"); the checks that need them were skipped"
    fi
    if [[ ${#DT_FAILURES[@]} -gt 0 ]]; then
        dt_log "failed checks:"
        local f
        for f in "${DT_FAILURES[@]}"; do dt_log "  - $f"; done
        printf '%s: %d passed, %d failed\n' "$DT_TAG" "$passed" "${#DT_FAILURES[@]}"
        exit 1
    fi
    printf '%s: %d passed, 0 failed\n' "$DT_TAG" "$passed"
    exit 0
}

# dt_apt PACKAGE:COMMAND...: installs the Debian packages whose command is missing.
dt_apt() {
    local want=() item
    for item in "$@"; do
        command -v "${item#*:}" >/dev/null 2>&1 || want+=("${item%%:*}")
    done
    [[ ${#want[@]} -eq 0 ]] && return 0
    dt_log "installing ${want[*]}"
    local sudo=()
    [[ $(id -u) -ne 0 ]] && sudo=(sudo)
    "${sudo[@]}" apt-get update -qq >/dev/null || dt_die "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${want[@]}" \
        >"$DT_TMP/apt.log" 2>&1 || { tail -n 20 "$DT_TMP/apt.log" >&2; dt_die "apt-get install ${want[*]} failed"; }
}

# dt_prepare PACKAGE:COMMAND...: what every script needs first: dt_init, the Debian packages (dt_apt), the venv
# (dt_venv) and the release builds of the server and the bots (dt_build bots).
dt_prepare() {
    dt_init
    dt_apt "$@"
    dt_venv
    dt_build bots
}

# dt_venv: the cached venv with Tests/Deploy/requirements.txt; sets DT_PY.
dt_venv() {
    local dir="$DT_CACHE/deploy-venv" req="$DT_HERE/requirements.txt" want
    want="$(sha256sum "$req" | cut -d' ' -f1) $(python3 -c 'import sys; print(sys.version.split()[0])')"
    mkdir -p "$DT_CACHE"
    (
        flock -w 600 9 || dt_die "timed out waiting for $dir.lock"
        [[ -x "$dir/bin/python" && "$(cat "$dir/.stamp" 2>/dev/null)" == "$want" ]] && exit 0
        dt_log "creating python venv $dir"
        rm -rf "$dir"
        python3 -m venv "$dir" || dt_die "python3 -m venv failed"
        timeout 600 "$dir/bin/pip" install -q --disable-pip-version-check -r "$req" >"$dir.log" 2>&1 \
            || { tail -n 20 "$dir.log" >&2; dt_die "pip install -r $req failed"; }
        printf '%s\n' "$want" >"$dir/.stamp"
    ) 9>"$dir.lock"
    DT_PY="$dir/bin/python"
}

# dt_swift_build PRODUCT LOG: one release build, tried again when a source changed under it (others edit the tree).
dt_swift_build() {
    local _
    for _ in 1 2 3; do
        (cd "$DT_REPO" && swift build -c release --product "$1" >"$2" 2>&1) && return 0
        grep -q 'was modified during the build' "$2" || return 1
        dt_log "a source changed during the build of $1; building again"
    done
    return 1
}

# dt_build [bots]: release build of the server (and of the bots when asked and possible); sets DT_BIN, DT_BOTS.
# DT_NO_BUILD=1 uses the existing .build/release.
dt_build() {
    DT_BOTS=""
    if [[ "${DT_NO_BUILD:-0}" != 1 ]]; then
        dt_log "swift build -c release --product wordrooms"
        dt_swift_build wordrooms "$DT_TMP/build.log" \
            || { tail -n 30 "$DT_TMP/build.log" >&2; dt_die "release build of wordrooms failed"; }
    fi
    DT_BIN="$(cd "$DT_REPO" && swift build -c release --show-bin-path)"
    [[ -x "$DT_BIN/wordrooms" ]] || dt_die "no $DT_BIN/wordrooms"
    [[ -d "$DT_BIN/WordRooms_WordGames.resources" ]] || dt_die "no word-list bundle beside $DT_BIN/wordrooms"
    if [[ "${1:-}" == bots ]]; then
        if [[ "${DT_NO_BUILD:-0}" == 1 ]] || dt_swift_build wordrooms-bots "$DT_TMP/build-bots.log"; then
            [[ -x "$DT_BIN/wordrooms-bots" ]] && DT_BOTS="$DT_BIN/wordrooms-bots"
        else
            dt_log "wordrooms-bots does not build (log: $DT_TMP/build-bots.log); the Python client stands in"
        fi
    fi
}

# dt_has_flag FLAG VALUE: the server accepts FLAG (it parses options in order, so a known flag reaches --help).
dt_has_flag() {
    "$DT_BIN/wordrooms" "$1" "$2" --help >/dev/null 2>&1
}

# dt_require_flags FLAG=VALUE...: records the flags the server rejects; status 1 when any is missing.
dt_require_flags() {
    local item status=0
    for item in "$@"; do
        if ! dt_has_flag "${item%%=*}" "${item#*=}"; then
            case " ${DT_MISSING_FLAGS[*]-} " in *" ${item%%=*} "*) ;; *) DT_MISSING_FLAGS+=("${item%%=*}") ;; esac
            status=1
        fi
    done
    return "$status"
}

dt_free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# dt_wait_http URL SECONDS [CURL_ARGS...]: waits for a 2xx answer.
dt_wait_http() {
    local url="$1" limit="$2" i
    shift 2
    for ((i = 0; i < limit * 10; i++)); do
        curl -fsS -o /dev/null --max-time 2 "$@" "$url" 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}

# dt_start NAME CMD...: starts CMD in the background, output in $DT_TMP/NAME.log; sets DT_LAST_PID.
dt_start() {
    local name="$1"
    shift
    "$@" >"$DT_TMP/$name.log" 2>&1 &
    DT_LAST_PID=$!
    DT_PIDS+=("$DT_LAST_PID")
}

# dt_start_server NAME PORT ARGS...: the release server on 127.0.0.1:PORT; waits for /healthz. Sets DT_LAST_PID.
dt_start_server() {
    local name="$1" port="$2"
    shift 2
    dt_start "$name" "$DT_BIN/wordrooms" --host 127.0.0.1 --port "$port" --web "$DT_REPO/web" "$@"
    if ! dt_wait_http "http://127.0.0.1:$port/healthz" 15; then
        sed 's/^/    /' "$DT_TMP/$name.log" >&2
        local unknown
        unknown="$(grep -o "unknown option '[^']*'" "$DT_TMP/$name.log" | head -n 1 || true)"
        [[ -n "$unknown" ]] && dt_die "server $name refused its flags: $unknown (it is not in this build yet)"
        dt_die "server $name did not answer /healthz on port $port"
    fi
}

# dt_stop PID: SIGTERM, then waits up to 10 s; status 0 when it exited.
dt_stop() {
    local pid="$1" i
    kill -TERM "$pid" 2>/dev/null || return 0
    for ((i = 0; i < 100; i++)); do
        kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
        sleep 0.1
    done
    return 1
}

# dt_nginx NAME HTTP_CONTEXT_FILE: checks (nginx -t) and starts nginx with a main config around the file, logs and
# temporary files in $DT_TMP. Sets DT_LAST_PID. Status 1 (with nginx's message) when the config is refused.
dt_nginx() {
    local name="$1" conf="$2" dir="$DT_TMP/nginx-$1"
    mkdir -p "$dir"
    cat >"$dir/nginx.conf" <<EOF
worker_processes 1;
worker_rlimit_nofile 16384;
daemon off;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 8192; }   # each proxied player holds two
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log $dir/access.log;
    client_body_temp_path $dir/client_body;
    proxy_temp_path $dir/proxy;
    fastcgi_temp_path $dir/fastcgi;
    uwsgi_temp_path $dir/uwsgi;
    scgi_temp_path $dir/scgi;
    include $conf;
}
EOF
    if ! nginx -t -q -p "$dir" -e "$dir/error.log" -c "$dir/nginx.conf" 2>"$dir/test.log"; then
        sed 's/^/    /' "$dir/test.log" >&2
        return 1
    fi
    dt_start "nginx-$name" nginx -p "$dir" -e "$dir/error.log" -c "$dir/nginx.conf"
    sleep 0.3
    kill -0 "$DT_LAST_PID" 2>/dev/null || { sed 's/^/    /' "$dir/error.log" >&2; return 1; }
}

# dt_metric URL NAME: the value of an unlabelled metric.
dt_metric() {
    curl -fsS --max-time 3 "$1" | awk -v n="$2" '$1 == n && !found { print $2; found = 1 }'
}
