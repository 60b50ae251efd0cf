#!/usr/bin/env bash
# Runs the web client's unit tests (patch apply, store, connection, settings, storage, routes) with Node's
# built-in test runner. No packages needed: Node 20 or newer.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$HERE/../.."
exec node --test Tests/WebClient/
