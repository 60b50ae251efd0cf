#!/usr/bin/env bash
# WordRooms behind nginx on one machine, as shipped: deploy/nginx.conf in front of the server started with the
# flags of deploy/wordrooms.service. Everything on loopback; at most 15 minutes; cleans up after itself.
#
#   Tests/Deploy/run-nginx-test.sh
#
# The nginx config under test is made from deploy/nginx.conf by sed, which changes only listen ports, certificate
# and directory paths and the upstream port (and, for /metrics, which loopback address counts as internal), so
# the tested config is the shipped one. Three runs of nginx:
#   headers: upstream = Tests/Deploy/header_echo.py: what nginx forwards (Host, X-Forwarded-*, Upgrade), the
#            HTTP->HTTPS redirect, TLS versions, HSTS, /metrics and /echo only for internal addresses;
#   static:  the commented alternative (nginx serves web/ itself) uncommented, upstream = the echo backend;
#   server:  upstream = the real server: pages, /healthz, a game over wss:// (Python websockets), the bots over
#            ws:// (an extra plain listener in the TLS server block; the bots have no TLS), Origin checks, and
#            SIGTERM: players get 1001 through nginx, and nginx then answers 503.
# Needs: Debian's nginx, openssl and curl (installed when missing), python3 (a cached venv for websockets).
# Exit status: 0 all passed; 1 some check failed (a server flag this build lacks counts, by name); 2 setup error.
set -euo pipefail
DT_TAG=nginx-test
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
dt_bound 900 "$@"
dt_prepare nginx:nginx openssl:openssl curl:curl

NGINX_CONF="$DT_REPO/deploy/nginx.conf"
UNIT="$DT_REPO/deploy/wordrooms.service"
TLS_PORT="$(dt_free_port)"
HTTP_PORT="$(dt_free_port)"
PLAIN_PORT="$(dt_free_port)"
SERVER_PORT="$(dt_free_port)"
ECHO_PORT="$(dt_free_port)"
HTTPS="https://127.0.0.1:$TLS_PORT"

# --- a throwaway certificate for play.example.com and 127.0.0.1
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=play.example.com \
    -addext "subjectAltName=DNS:play.example.com,IP:127.0.0.1" \
    -keyout "$DT_TMP/key.pem" -out "$DT_TMP/cert.pem" 2>"$DT_TMP/openssl.log" || dt_die "openssl req failed"
chmod 644 "$DT_TMP/key.pem"

# derive_conf UPSTREAM_PORT OUT [static]: deploy/nginx.conf with test ports and paths.
derive_conf() {
    local upstream="$1" out="$2" variant="${3:-}"
    sed -e "s|^\( *\)listen 80;|\1listen 127.0.0.1:$HTTP_PORT;|" \
        -e "/listen \[::\]:80;/d" \
        -e "s|^\( *\)listen 443 ssl;|\1listen 127.0.0.1:$TLS_PORT ssl;\n\1listen 127.0.0.1:$PLAIN_PORT;|" \
        -e "/listen \[::\]:443 ssl;/d" \
        -e "s|/etc/letsencrypt/live/play.example.com/fullchain.pem|$DT_TMP/cert.pem|" \
        -e "s|/etc/letsencrypt/live/play.example.com/privkey.pem|$DT_TMP/key.pem|" \
        -e "s|server 127.0.0.1:8080;|server 127.0.0.1:$upstream;|" \
        -e "s|127.0.0.0/8    1;|127.0.0.2/32   1;|" \
        -e "s|/opt/wordrooms/web|$DT_REPO/web|g" \
        -e "s|/var/www/letsencrypt|$DT_TMP/acme|" \
        "$NGINX_CONF" >"$out"
    if [[ "$variant" == static ]]; then
        # Drop the proxy-everything `location /` and uncomment the alternative between its markers.
        sed -i -e '/^    location \/ {$/{N;N;/proxy_pass http:\/\/wordrooms;/d}' \
            -e '/#BEGIN static-from-nginx/,/#END static-from-nginx/ s|^    # |    |' "$out"
    fi
    local leftover
    leftover="$(grep -nE 'listen (80|443|\[::\])|/etc/letsencrypt|127\.0\.0\.1:8080;|/opt/wordrooms|127\.0\.0\.0/8' "$out" || true)"
    [[ -z "$leftover" ]] || dt_die "deploy/nginx.conf changed shape; the test's substitutions missed: $leftover"
}

# --- 1. headers: what nginx sends upstream
dt_start header-echo "$DT_PY" "$DT_HERE/header_echo.py" "$ECHO_PORT" echo
dt_wait_http "http://127.0.0.1:$ECHO_PORT/" 10 || dt_die "header_echo.py did not start"
derive_conf "$ECHO_PORT" "$DT_TMP/headers.conf"
dt_nginx headers "$DT_TMP/headers.conf" || dt_die "nginx refused the config made from deploy/nginx.conf"
NGINX_PID=$DT_LAST_PID
dt_pass "nginx -t accepts deploy/nginx.conf (as $DT_TMP/headers.conf)"

seen="$(curl -fsS --cacert "$DT_TMP/cert.pem" --resolve "play.example.com:$TLS_PORT:127.0.0.1" \
    -H 'X-Forwarded-For: 203.0.113.9' "https://play.example.com:$TLS_PORT/r/ABCD")"
dt_check "Host is forwarded (play.example.com)" test "$(dt_json "d['headers'].get('host')" <<<"$seen")" = play.example.com
dt_check "X-Forwarded-For is the client's address, a forged one replaced" \
    test "$(dt_json "d['headers'].get('x-forwarded-for')" <<<"$seen")" = 127.0.0.1
dt_check "X-Forwarded-Proto is https" test "$(dt_json "d['headers'].get('x-forwarded-proto')" <<<"$seen")" = https
dt_check "plain requests carry no Upgrade and keep the upstream connection" \
    test "$(dt_json "(d['headers'].get('upgrade'), d['headers'].get('connection'))" <<<"$seen")" = "(None, None)"
seen="$(curl -fsS -k -H 'Connection: Upgrade' -H 'Upgrade: websocket' "$HTTPS/ws")"
dt_check "WebSocket handshakes carry Upgrade: websocket and Connection: upgrade" \
    test "$(dt_json "(d['headers'].get('upgrade'), d['headers'].get('connection'))" <<<"$seen")" = "('websocket', 'upgrade')"
redirect="$(curl -sS -o /dev/null -w '%{http_code} %{redirect_url}' -H 'Host: play.example.com' \
    "http://127.0.0.1:$HTTP_PORT/r/ABCD?x=1")"
dt_check "port 80 redirects to HTTPS (301 https://play.example.com/r/ABCD?x=1)" \
    test "$redirect" = "301 https://play.example.com/r/ABCD?x=1"
dt_check "TLS 1.3 is offered" curl -fsS -o /dev/null -k --tlsv1.3 "$HTTPS/healthz"
dt_check "TLS 1.1 is refused" bash -c "! curl -fsS -o /dev/null -k --tlsv1.1 --tls-max 1.1 '$HTTPS/healthz' 2>/dev/null"
dt_check "HSTS header is sent" bash -c "curl -fsS -k -D - -o /dev/null '$HTTPS/' | grep -qi '^strict-transport-security: max-age='"
for path in /metrics /echo; do
    dt_check "$path is 403 for an external address" \
        test "$(curl -sS -k -o /dev/null -w '%{http_code}' "$HTTPS$path")" = 403
    dt_check "$path is proxied for an internal address" \
        test "$(curl -fsS -k --interface 127.0.0.2 "$HTTPS$path" | dt_json "d['path']")" = "$path"
done
dt_stop "$NGINX_PID" || dt_die "nginx did not stop"

# --- 2. static: the commented alternative, web/ served by nginx
derive_conf "$ECHO_PORT" "$DT_TMP/static.conf" static
if dt_nginx static "$DT_TMP/static.conf"; then
    NGINX_PID=$DT_LAST_PID
    dt_check "alternative: / is web/index.html from disk" \
        bash -c "curl -fsS -k '$HTTPS/' | cmp -s - '$DT_REPO/web/index.html'"
    dt_check "alternative: /r/ABCD is index.html" \
        bash -c "curl -fsS -k '$HTTPS/r/ABCD' | cmp -s - '$DT_REPO/web/index.html'"
    dt_check "alternative: /css/app.css is text/css" \
        bash -c "curl -fsS -k -o /dev/null -w '%{content_type}' '$HTTPS/css/app.css' | grep -q '^text/css'"
    dt_check "alternative: a missing file is 404" test "$(curl -sS -k -o /dev/null -w '%{http_code}' "$HTTPS/nope.js")" = 404
    for path in /healthz /readyz /api/rooms /ws /ws/ABCDE; do
        dt_check "alternative: $path goes to the server" test "$(curl -fsS -k "$HTTPS$path" | dt_json "d['path']")" = "$path"
    done
    dt_stop "$NGINX_PID" || dt_die "nginx did not stop"
else
    dt_fail "nginx refused the static-from-nginx alternative of deploy/nginx.conf"
fi

# --- 3. server: the real thing, with the flags of deploy/wordrooms.service
read -r -a unit_words <<<"$(sed -n 's/^ExecStart=//p' "$UNIT")"
[[ "${unit_words[0]}" == /opt/wordrooms/bin/wordrooms ]] || dt_die "unexpected ExecStart in $UNIT: ${unit_words[*]}"
server_args=()
for ((i = 1; i < ${#unit_words[@]}; i += 2)); do
    flag="${unit_words[i]}" value="${unit_words[i + 1]}"
    case "$flag" in
        --host | --web) continue ;;   # dt_start_server sets them: 127.0.0.1 and the repository's web/
        --port) value="$SERVER_PORT" ;;
        --public-url) value="$HTTPS" ;;
        --data) value="$DT_TMP/data" ;;
    esac
    if dt_require_flags "$flag=$value"; then
        server_args+=("$flag" "$value")
    else
        dt_log "the server does not accept $flag yet: started without it"
    fi
done
# A low per-address cap makes X-Forwarded-For observable (loopback itself is never capped).
XFF_CAP=2
dt_require_flags "--max-connections-per-ip=$XFF_CAP" && server_args+=(--max-connections-per-ip "$XFF_CAP")
dt_start_server server "$SERVER_PORT" "${server_args[@]}"
SERVER_PID=$DT_LAST_PID
start_line="$(head -n 1 "$DT_TMP/server.log")"
dt_log "server: $start_line"
if dt_has_flag --public-url x; then
    dt_check "the start line shows the public URL" grep -qF "$HTTPS" <<<"$start_line"
fi

derive_conf "$SERVER_PORT" "$DT_TMP/server.conf"
dt_nginx server "$DT_TMP/server.conf" || dt_die "nginx refused $DT_TMP/server.conf"
NGINX_PID=$DT_LAST_PID

dt_check "GET / through nginx is the web client" bash -c "curl -fsS -k '$HTTPS/' | grep -q 'src=\"/js/main.js\"'"
dt_check "GET /r/ABCD through nginx is the web client" bash -c "curl -fsS -k '$HTTPS/r/ABCD' | grep -q 'src=\"/js/main.js\"'"
dt_check "GET /healthz through nginx is 200 ok" test "$(curl -fsS -k "$HTTPS/healthz")" = ok
dt_check "GET /api/rooms through nginx is JSON" bash -c "curl -fsS -k '$HTTPS/api/rooms' | python3 -c 'import json,sys; json.load(sys.stdin)[\"rooms\"]'"
readyz="$(curl -sS -k -o /dev/null -w '%{http_code}' "$HTTPS/readyz")"
dt_check "GET /readyz through nginx is 200 (got $readyz)" test "$readyz" = 200

dt_log "a game over wss:// through nginx (Python websockets, certificate not verified)"
dt_check "wss:// game: create at /ws, join, Snowman guesses in turn" \
    timeout 60 "$DT_PY" "$DT_HERE/deploy_client.py" game --base "$HTTPS" --insecure --guesses 8

# Origin checks (--allowed-origin in the unit): a handshake from another site's page is refused.
handshake() {
    curl -sS -k -o /dev/null -w '%{http_code}' --max-time 2 -H 'Connection: Upgrade' -H 'Upgrade: websocket' \
        -H 'Sec-WebSocket-Version: 13' -H 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==' "$@" "$HTTPS/ws" || true
}
if dt_has_flag --allowed-origin x; then
    dt_check "Origin https://play.example.com is let in (101)" test "$(handshake -H 'Origin: https://play.example.com')" = 101
    dt_check "Origin https://evil.example is refused (403)" test "$(handshake -H 'Origin: https://evil.example')" = 403
    dt_check "no Origin (bots, native clients) is let in (101)" test "$(handshake)" = 101
fi

if dt_has_flag --trusted-proxy 127.0.0.1 && dt_has_flag --max-connections-per-ip 2; then
    dt_check "X-Forwarded-For: the server counts a trusted proxy's client address; nginx drops forged ones" \
        timeout 60 "$DT_PY" "$DT_HERE/deploy_client.py" xff --base "$HTTPS" --insecure \
        --direct "http://127.0.0.1:$SERVER_PORT" --cap "$XFF_CAP"
fi

if [[ -n "$DT_BOTS" ]]; then
    dt_log "bots over ws:// through nginx's plain listener: 20 rooms x 4 players, 10 s"
    if timeout 120 "$DT_BOTS" --url "ws://127.0.0.1:$PLAIN_PORT" play --rooms 20 --players 4 --game mixed \
        --rate 2 --duration 10 --quiet --json "$DT_TMP/bots.json" >"$DT_TMP/bots.txt" 2>&1; then
        dt_pass "bots through nginx: $(python3 "$DT_HERE/bots_report.py" line "$DT_TMP/bots.json")"
    else
        sed 's/^/    /' "$DT_TMP/bots.txt" >&2
        dt_fail "bots through nginx"
    fi
else
    dt_log "no wordrooms-bots: the Python game above stands in for the bots"
fi

dt_log "SIGTERM to the server while a room plays through nginx"
dt_check "SIGTERM: players get close 1001 through nginx, reconnects get 503" \
    timeout 60 "$DT_PY" "$DT_HERE/deploy_client.py" stop --base "$HTTPS" --insecure --pid "$SERVER_PID"
down="$(curl -sS -k -o "$DT_TMP/down.txt" -w '%{http_code}' "$HTTPS/healthz")"
dt_check "server down: nginx answers $down: $(cat "$DT_TMP/down.txt")" \
    bash -c "[[ $down == 503 ]] && grep -q restarting '$DT_TMP/down.txt'"

dt_finish
