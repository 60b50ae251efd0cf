#!/usr/bin/env bash
# The deployment files that no engine here can run: the Docker image and the systemd unit. At most 20 minutes.
#
#   Tests/Deploy/run-static-checks.sh
#
# Docker (no Docker engine on this machine, so no `docker build`):
#   - hadolint lints deploy/Dockerfile;
#   - Tests/Deploy/emulate_image.py carries out its build stage with the local toolchain in a scratch copy of the
#     sources the Dockerfile COPYs (a clean build, as in the image), then the binary must need no library beyond
#     those of debian:bookworm-slim (libc, libm, libstdc++, libgcc_s, and zlib for permessage-deflate: zlib1g is
#     priority required in Debian, a pre-dependency of dpkg, so every image has it), and the entrypoint runs as the image's
#     user, as PID 1 of a new PID namespace, with an empty environment: it serves, answers the HEALTHCHECK command
#     as written, plays a game, and stops on SIGTERM (docker stop) with close 1001 to its players.
# systemd (no systemd as PID 1 here):
#   - systemd-analyze verify of deploy/wordrooms.service (any warning fails);
#   - the server, traced with strace through a game and a bots run, uses only system calls and socket families
#     that the unit's SystemCallFilter= and RestrictAddressFamilies= allow (systemd's own tables);
#   - MemoryDenyWriteExecute=yes: the server runs a game under prctl(PR_SET_MDWE), the kernel's same rule.
# Exit status: 0 all passed; 1 some check failed; 2 setup error.
set -euo pipefail
DT_TAG=static-checks
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
dt_bound 1200 "$@"
dt_prepare strace:strace curl:curl binutils:readelf systemd:systemd-analyze util-linux:unshare

DOCKERFILE="$DT_REPO/deploy/Dockerfile"
UNIT="$DT_REPO/deploy/wordrooms.service"

# --- Docker
dt_check "hadolint deploy/Dockerfile" "$(dirname "$DT_PY")/hadolint" "$DOCKERFILE"

# The context `git archive HEAD` would send, from the work tree: tracked and new files, without ignored ones.
CONTEXT="$DT_TMP/context"
mkdir -p "$CONTEXT"
(cd "$DT_REPO" && git ls-files -z --cached --others --exclude-standard -- Package.swift Sources Tests web \
    | while IFS= read -r -d '' f; do [[ -e "$f" ]] && printf '%s\0' "$f"; done \
    | tar --null -T - -cf -) | tar -xf - -C "$CONTEXT"
dt_log "carrying out the build stage of deploy/Dockerfile (a clean static build: a few minutes)"
if ! "$DT_PY" "$DT_HERE/emulate_image.py" "$DOCKERFILE" "$CONTEXT" "$DT_TMP/image" >"$DT_TMP/image.json" 2>"$DT_TMP/image-build.log"; then
    tail -n 30 "$DT_TMP/image-build.log" >&2
    dt_die "the build stage of deploy/Dockerfile failed"
fi
dt_pass "the build stage of deploy/Dockerfile runs (images: $(dt_json "' '.join(d['images'])" <"$DT_TMP/image.json"))"
APP="$DT_TMP/image/app"
needed="$(readelf -d "$APP/bin/wordrooms" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort | tr '\n' ' ')"
dt_check "the image's binary needs only what debian:bookworm-slim has ($needed)" \
    bash -c "[[ -z \"\$(tr ' ' '\n' <<<'$needed' | grep -vE '^(libc|libm|libstdc\+\+|libgcc_s|libz|ld-linux-x86-64)\.so\.[0-9]+$|^$')\" ]]"
dt_check "the word-list bundle is beside the binary in the image" test -d "$APP/bin/WordRooms_WordGames.resources"
dt_check "the web client is in the image" test -f "$APP/web/index.html"
user="$(dt_json "d['user']" <"$DT_TMP/image.json")"
dt_check "the image runs as a non-root numeric user ($user)" bash -c "[[ '$user' =~ ^[1-9][0-9]*:[1-9][0-9]*$ ]]"
dt_check "the image exposes 8080" test "$(dt_json "' '.join(d['expose'])" <"$DT_TMP/image.json")" = 8080

# The entrypoint as `docker run` would start it: the image's user, PID 1, no environment, cwd /.
PORT="$(dt_free_port)"
mapfile -t entrypoint < <(dt_json "'\n'.join(d['entrypoint'])" <"$DT_TMP/image.json" | sed "s/^8080$/$PORT/")
chmod -R a+rX "$DT_TMP/image"
chmod 755 "$DT_TMP"
cd /
dt_start image unshare --pid --fork --mount-proc setpriv --reuid "${user%%:*}" --regid "${user##*:}" --clear-groups \
    env -i "${entrypoint[@]}"
UNSHARE_PID=$DT_LAST_PID
if dt_wait_http "http://127.0.0.1:$PORT/healthz" 15; then
    dt_pass "the entrypoint serves: $(head -n 1 "$DT_TMP/image.log")"
    IMAGE_PID="$(awk '{ print $1 }' "/proc/$UNSHARE_PID/task/$UNSHARE_PID/children")"
    dt_check "the server is PID 1 in its namespace, as in a container" \
        bash -c "grep -q '^NSpid:.*[[:space:]]1$' /proc/$IMAGE_PID/status"
    dt_check "it runs as the image's user" bash -c "[[ \$(stat -c %u:%g /proc/$IMAGE_PID) == '$user' ]]"
    mapfile -t health < <(dt_json "'\n'.join(d['healthcheck'])" <"$DT_TMP/image.json" | sed "s|/8080|/$PORT|")
    dt_check "the HEALTHCHECK command as written reports healthy (${health[*]:0:2} ...)" timeout 5 "${health[@]}"
    dt_check "HEALTHCHECK reports unhealthy when nothing listens" \
        bash -c "! timeout 5 $(printf '%q ' "${health[@]}" | sed "s|/$PORT|/$(dt_free_port)|")"
    dt_check "the image's server plays a game" \
        timeout 60 "$DT_PY" "$DT_HERE/deploy_client.py" game --base "http://127.0.0.1:$PORT" --guesses 4
    dt_check "docker stop: SIGTERM to PID 1 gives players close 1001 (and the server exits)" \
        timeout 60 "$DT_PY" "$DT_HERE/deploy_client.py" stop --base "http://127.0.0.1:$PORT" --pid "$IMAGE_PID" --no-proxy
    sleep 0.5
    dt_check "the container's PID 1 exited after SIGTERM" bash -c "! kill -0 $IMAGE_PID 2>/dev/null"
else
    sed 's/^/    /' "$DT_TMP/image.log" >&2
    dt_fail "the image's entrypoint did not serve /healthz"
fi
cd "$DT_REPO"

# --- systemd
SERVER="$APP/bin/wordrooms"
sed "s|^ExecStart=/opt/wordrooms/bin/wordrooms |ExecStart=$SERVER |" "$UNIT" >"$DT_TMP/wordrooms.service"
grep -q "^ExecStart=$SERVER " "$DT_TMP/wordrooms.service" || dt_die "no ExecStart=/opt/wordrooms/bin/wordrooms in $UNIT"
verify="$(systemd-analyze verify "$DT_TMP/wordrooms.service" 2>&1 || echo "(exit status $?)")"
dt_check "systemd-analyze verify deploy/wordrooms.service: no warnings${verify:+: $verify}" test -z "$verify"

# The unit's own flags, with a free port; the rest of the unit is about the sandbox.
read -r -a unit_words <<<"$(sed -n 's/^ExecStart=//p' "$UNIT")"
flags=("${unit_words[@]:1}")
for ((i = 0; i < ${#flags[@]}; i++)); do
    case "${flags[i]}" in
        --port) flags[i + 1]="$PORT" ;;
        --web) flags[i + 1]="$APP/web" ;;
        --data) flags[i + 1]="$DT_TMP/data" ;;
    esac
done
# shellcheck disable=SC2317  # called through dt_check
play_load() {
    timeout 60 "$DT_PY" "$DT_HERE/deploy_client.py" game --base "http://127.0.0.1:$PORT" --guesses 4 >/dev/null &&
        if [[ -n "$DT_BOTS" ]]; then
            timeout 60 "$DT_BOTS" --url "ws://127.0.0.1:$PORT" play --rooms 5 --players 3 --duration 4 --quiet \
                >"$DT_TMP/bots-$1.txt" 2>&1
        fi &&
        curl -fsS -o /dev/null "http://127.0.0.1:$PORT/metrics" && curl -fsS -o /dev/null "http://127.0.0.1:$PORT/r/ABCD"
}

dt_start strace strace -f -qq -o "$DT_TMP/strace.log" "$SERVER" "${flags[@]}"
if dt_wait_http "http://127.0.0.1:$PORT/healthz" 20; then
    dt_check "a game and a bots run under strace" play_load strace
    # SIGTERM to strace would only detach it: stop the traced server, and strace ends with it.
    dt_stop "$(awk '{ print $1 }' "/proc/$DT_LAST_PID/task/$DT_LAST_PID/children")" || true
    dt_stop "$DT_LAST_PID" || true
    dt_check "system calls and socket families fit the unit's SystemCallFilter and RestrictAddressFamilies" \
        bash -c "python3 '$DT_HERE/syscall_filter.py' '$UNIT' '$DT_TMP/strace.log' | sed 's/^/    /' >&2; exit \${PIPESTATUS[0]}"
else
    sed 's/^/    /' "$DT_TMP/strace.log" >&2
    dt_fail "the server did not start under strace"
fi

PORT="$(dt_free_port)"
for ((i = 0; i < ${#flags[@]}; i++)); do [[ "${flags[i]}" == --port ]] && flags[i + 1]="$PORT"; done

# PR_SET_MDWE = 65, PR_MDWE_REFUSE_EXEC_GAIN = 1: no writable+executable mappings, no exec gained later. It is
# kept across execve, so the server starts under it.
mdwe='import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
if libc.prctl(65, 1, 0, 0, 0) != 0:
    sys.exit("prctl(PR_SET_MDWE) failed: errno %d (kernel older than 6.3?)" % ctypes.get_errno())
os.execv(sys.argv[1], sys.argv[1:])'
dt_start mdwe python3 -c "$mdwe" "$SERVER" "${flags[@]}"
if dt_wait_http "http://127.0.0.1:$PORT/healthz" 20; then
    dt_check "MemoryDenyWriteExecute: the server plays a game and a bots run under PR_SET_MDWE" \
        play_load mdwe
    dt_check "  ... and is still alive afterwards" kill -0 "$DT_LAST_PID"
    dt_stop "$DT_LAST_PID" || true
else
    sed 's/^/    /' "$DT_TMP/mdwe.log" >&2
    dt_fail "the server did not start under PR_SET_MDWE"
fi

dt_finish
