# Shared by Tests/Bench/run-benchmarks.sh and Tests/Bench/peers/smoke.sh (source it): installs and builds the
# benchmark peers from Debian packages only, and starts them pinned to a core.
#
#   Node's ws            apt-get install node-ws           node_ws_server.js, run with NODE_PATH=/usr/share/nodejs
#   Go's gorilla         apt-get install golang-go golang-github-gorilla-websocket-dev
#                        gorilla/main.go, built offline in GOPATH mode against Debian's sources in /usr/share/gocode
#
# apt-get runs (through sudo when not root) only when a package is missing. Functions return non-zero and say why
# on stderr instead of exiting, so that callers decide whether a missing peer is fatal.

PEERS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PEERS_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/wordrooms"
NODE_WS_PACKAGE=/usr/share/nodejs/ws
GORILLA_SOURCE=/usr/share/gocode/src/github.com/gorilla/websocket
GORILLA_BIN="$PEERS_CACHE/gorilla-peer"

peers_log() { printf '[peers] %s\n' "$*" >&2; }

# peers_apt PACKAGE...: installs the packages (apt-get, sudo when not root).
peers_apt() {
    local sudo=""
    [[ "$(id -u)" -eq 0 ]] || sudo="sudo"
    peers_log "installing $* (apt-get)"
    $sudo apt-get update -qq >&2 || { peers_log "apt-get update failed"; return 1; }
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >&2 || { peers_log "apt-get install $* failed"; return 1; }
}

# peers_setup_node: node and Debian's ws, installed when missing.
peers_setup_node() {
    if ! command -v node >/dev/null; then
        peers_apt nodejs node-ws || return 1
    elif [[ ! -f "$NODE_WS_PACKAGE/package.json" ]]; then
        peers_apt node-ws || return 1
    fi
    [[ -f "$NODE_WS_PACKAGE/package.json" ]] || { peers_log "node-ws installed, but $NODE_WS_PACKAGE is missing"; return 1; }
}

# peers_node_version: "ws 8.11.0, node v20.20.2".
peers_node_version() {
    echo "ws $(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$NODE_WS_PACKAGE/package.json" | head -n 1), node $(node --version)"
}

# peers_setup_gorilla: Go and Debian's gorilla/websocket, installed when missing; builds $GORILLA_BIN when its
# source is newer (no network: GOPATH mode, GOFLAGS cleared, GOPROXY off).
peers_setup_gorilla() {
    if ! command -v go >/dev/null || [[ ! -d "$GORILLA_SOURCE" ]]; then
        peers_apt golang-go golang-github-gorilla-websocket-dev || return 1
    fi
    mkdir -p "$PEERS_CACHE"
    if [[ ! -x "$GORILLA_BIN" || "$PEERS_DIR/gorilla/main.go" -nt "$GORILLA_BIN" ]]; then
        peers_log "building $GORILLA_BIN (go build, GOPATH=/usr/share/gocode, GO111MODULE=off)"
        (cd "$PEERS_DIR/gorilla" && GOPATH=/usr/share/gocode GO111MODULE=off GOFLAGS= GOPROXY=off \
            GOCACHE="$PEERS_CACHE/go-build" go build -o "$GORILLA_BIN.tmp" .) >&2 ||
            { peers_log "building the gorilla peer failed"; return 1; }
        mv "$GORILLA_BIN.tmp" "$GORILLA_BIN"
    fi
}

# peers_gorilla_version: "gorilla/websocket 1.5.0, go1.19.8".
peers_gorilla_version() {
    local version
    version="$(dpkg-query -W -f '${Version}' golang-github-gorilla-websocket-dev 2>/dev/null | sed 's/-[^-]*$//')"
    echo "gorilla/websocket ${version:-unknown}, $(go version | cut -d' ' -f3)"
}

# peers_start KIND CORE LOG [NICE]: starts the node or gorilla peer on an ephemeral loopback port, pinned to CORE,
# with the open-files soft limit raised to the hard limit, in the background of the calling shell; sets PEER_PID.
# The port is on LOG's first line.
peers_start() {
    local kind="$1" core="$2" log="$3" nice="${4:-0}"
    case "$kind" in
        node)
            NODE_PATH=/usr/share/nodejs nice -n "$nice" taskset -c "$core" \
                bash -c 'ulimit -n "$(ulimit -Hn)"; exec node "$1" --host 127.0.0.1 --port 0' _ \
                "$PEERS_DIR/node_ws_server.js" >"$log" 2>&1 &
            ;;
        gorilla)
            GOMAXPROCS=1 nice -n "$nice" taskset -c "$core" "$GORILLA_BIN" -host 127.0.0.1 -port 0 >"$log" 2>&1 &
            ;;
        *)
            peers_log "unknown peer '$kind'"
            return 1
            ;;
    esac
    PEER_PID=$!
}
