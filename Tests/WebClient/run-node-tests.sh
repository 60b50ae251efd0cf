#!/usr/bin/env bash
# Runs the web client's unit tests (patch apply, store, connection, settings, storage, routes, QR codes, sounds,
# custom words) with Node's built-in test runner. No packages needed: Node 20 or newer. The QR tests also decode
# the symbols with zbarimg (Debian's zbar-tools), installed here when missing; without it they skip that part.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$HERE/../.."
if ! command -v zbarimg >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else SUDO="none"; fi
  if [ "$SUDO" != "none" ]; then
    echo "Installing zbar-tools for the QR decode tests..." >&2
    $SUDO apt-get install -y -q zbar-tools >/dev/null 2>&1 \
      || { $SUDO apt-get update -q >/dev/null 2>&1 && $SUDO apt-get install -y -q zbar-tools >/dev/null 2>&1; } \
      || echo "Could not install zbar-tools; the QR decode tests will be skipped." >&2
  fi
fi
exec node --test Tests/WebClient/
