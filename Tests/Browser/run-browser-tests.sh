#!/usr/bin/env bash
# Runs the web client's browser tests: builds the server, starts it on a free port with this repository's web/,
# and drives headless Chromium through Tests/Browser/browser_test.py. Installs what it needs on first use:
# Debian's chromium and chromium-driver (apt-get), and a Python venv with the pinned selenium, cached in
# ~/.cache/wordrooms/browser-venv (or $WORDROOMS_BROWSER_VENV).
#
# Usage: Tests/Browser/run-browser-tests.sh      (exit status 0 when every check passed)
# Screenshots: Tests/Browser/artifacts/*.png. The server's start lines go to artifacts/server.log, where
# admin_test.py reads the dashboard's generated token.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
# Outside the repository, so it is never committed; shared by every clone on this machine.
VENV="${WORDROOMS_BROWSER_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/wordrooms/browser-venv}"
ARTIFACTS="$HERE/artifacts"
TEST_TIMEOUT_SECONDS="${BROWSER_TEST_TIMEOUT:-480}"

log() { printf '==> %s\n' "$*"; }

# The colour emoji font, so that names such as "Hal 👩‍💻" render in screenshots as players see them.
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ] || [ ! -d /usr/share/fonts/truetype/noto ]; then
  log "installing chromium, chromium-driver and fonts-noto-color-emoji"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver fonts-noto-color-emoji >/dev/null
fi

# zbarimg (Debian's zbar-tools) reads the QR codes party_test.py screenshots.
if ! command -v zbarimg >/dev/null 2>&1; then
  log "installing zbar-tools"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq zbar-tools >/dev/null
fi

if ! "$VENV/bin/python" -c 'import selenium' 2>/dev/null || ! cmp -s "$HERE/requirements.txt" "$VENV/.requirements"; then
  log "preparing the Python venv ($VENV)"
  rm -rf "$VENV"
  mkdir -p "$(dirname "$VENV")"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check -r "$HERE/requirements.txt"
  cp "$HERE/requirements.txt" "$VENV/.requirements"
fi

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi
# WORDROOMS_SCRATCH picks another build directory (several checkouts or engineers building at once).
SCRATCH=()
[ -n "${WORDROOMS_SCRATCH:-}" ] && SCRATCH=(--scratch-path "$WORDROOMS_SCRATCH")
log "building the server and the bots"
(cd "$REPO" && swift build "${SCRATCH[@]}" --product wordrooms 2>&1 | tail -n 3)
(cd "$REPO" && swift build "${SCRATCH[@]}" --product wordrooms-bots 2>&1 | tail -n 3)
BIN_DIR="$(cd "$REPO" && swift build "${SCRATCH[@]}" --product wordrooms --show-bin-path)"
# admin_test.py puts a small bot load on the server to see the dashboard's plots move.
export WORDROOMS_BOTS="$BIN_DIR/wordrooms-bots"
# seats_test.py runs a server of its own, which it stops and starts again on the same port.
export WORDROOMS_SERVER="$BIN_DIR/wordrooms"

mkdir -p "$ARTIFACTS"
SERVER_LOG="$ARTIFACTS/server.log"
: >"$SERVER_LOG"
"$BIN_DIR/wordrooms" --host 127.0.0.1 --port 0 --web "$REPO/web" >"$SERVER_LOG" 2>&1 &
SERVER_PID=$!
cleanup() { kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; }
trap cleanup EXIT

URL=""
for _ in $(seq 1 100); do
  URL="$(head -n 1 "$SERVER_LOG" 2>/dev/null | sed -n 's/^WordRooms is running at \(http:[^ ]*\)\/ .*/\1/p')"
  [ -n "$URL" ] && break
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$SERVER_LOG"; echo "FAIL the server did not start"; exit 1; }
  sleep 0.1
done
[ -n "$URL" ] || { cat "$SERVER_LOG"; echo "FAIL the server did not print its address"; exit 1; }
log "server at $URL"

export SE_OFFLINE=true
# The server's pid, for suites that pause it (SIGSTOP) to see the page notice a silent server.
export WORDROOMS_SERVER_PID="$SERVER_PID"
# Every suite runs against the same server, one after another; BROWSER_SUITES picks some (names without .py).
status=0
for suite in ${BROWSER_SUITES:-$(cd "$HERE" && ls *_test.py | sed 's/\.py$//')}; do
  log "suite $suite"
  timeout --kill-after=10 "$TEST_TIMEOUT_SECONDS" \
    "$VENV/bin/python" "$HERE/$suite.py" --base-url "$URL" --repo "$REPO" --artifacts "$ARTIFACTS" || status=1
  kill -CONT "$SERVER_PID" 2>/dev/null || true
done
exit "$status"
