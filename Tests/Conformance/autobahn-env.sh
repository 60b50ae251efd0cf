# shellcheck shell=bash
# Python 2.7 and the cached wstest virtualenv, shared by run-autobahn.sh (fuzzingclient against our server) and
# run-autobahn-client.sh (fuzzingserver against our client). Source it after ../EndToEnd/harness.sh; it uses
# wr_log, wr_die and WR_CACHE_DIR from there, sets the defaults of the options both scripts take, and defines:
#   autobahn_option       ARGS...: takes one of those options (--cases, --exclude-cases, --outdir, --python2,
#                         --verbose) from the front of ARGS and sets WR_SHIFT; status 1 for anything else
#   find_python2          sets PYTHON2 to a Python 2.7 interpreter (PYTHON2 as given, else the usual places),
#                         or stops the script with exit 2 and a loud message
#   setup_autobahn_venv   sets VENV to the virtualenv with wstest, built once per pin set and interpreter
#   write_autobahn_spec   MODE (fuzzingclient or fuzzingserver): clears OUTDIR's old report, writes wstest's spec
#                         for WS_URL, CASES and EXCLUDE into WR_TMP, and sets SPEC and LOG
#   prepare_autobahn_run  what both scripts do once their options are read: OUTDIR created and made absolute,
#                         python3 checked, the exit traps, find_python2 and setup_autobahn_venv
# PYTHON2 empty: find_python2 looks for one.

WR_AUTOBAHN_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CASES="*"
EXCLUDE=""
PYTHON2="${WORDROOMS_PYTHON2:-}"
VERBOSE=0

autobahn_option() {
    WR_SHIFT=2
    case "$1" in
        --cases) CASES="${2:?--cases needs a value}" ;;
        --exclude-cases) EXCLUDE="${2:?--exclude-cases needs a value}" ;;
        --outdir) OUTDIR="${2:?--outdir needs a value}" ;;
        --python2) PYTHON2="${2:?--python2 needs a value}" ;;
        --verbose) VERBOSE=1; WR_SHIFT=1 ;;
        *) return 1 ;;
    esac
}

find_python2() {
    local candidate
    local -a candidates=()
    if [[ -n "$PYTHON2" ]]; then
        candidates=("$PYTHON2")
    else
        candidates=(/root/.pyenv/versions/2.7.18/bin/python)
        if command -v pyenv >/dev/null 2>&1; then
            candidates+=("$(pyenv root 2>/dev/null)/versions/2.7.18/bin/python")
        fi
        candidates+=("${PYENV_ROOT:-$HOME/.pyenv}/versions/2.7.18/bin/python")
        command -v python2.7 >/dev/null 2>&1 && candidates+=("$(command -v python2.7)")
        command -v python2 >/dev/null 2>&1 && candidates+=("$(command -v python2)")
    fi
    for candidate in "${candidates[@]}"; do
        if [[ -x "$candidate" ]] && "$candidate" -c 'import sys; sys.exit(0 if sys.version_info[:2] == (2, 7) else 1)' 2>/dev/null; then
            PYTHON2="$candidate"
            return 0
        fi
    done
    cat >&2 <<EOF

==========================================================================================================
[$WR_TAG] ERROR: Python 2.7 NOT FOUND. Autobahn|Testsuite (wstest) runs on Python 2.7 only.
  Looked at: ${candidates[*]}
  Debian 12 ships no python2; this machine image normally has pyenv's /root/.pyenv/versions/2.7.18.
  Point to an interpreter with --python2 PATH or WORDROOMS_PYTHON2=PATH.
==========================================================================================================

EOF
    exit 2
}

prepare_autobahn_run() {
    mkdir -p "$OUTDIR"
    OUTDIR="$(cd "$OUTDIR" && pwd)"
    command -v python3 >/dev/null || wr_die "python3 is needed to write the spec and read the report"
    wr_install_traps
    find_python2
    setup_autobahn_venv
}

write_autobahn_spec() {
    local mode="$1"
    find "$OUTDIR" -mindepth 1 -maxdepth 1 \( -name '*.html' -o -name '*.json' -o -name 'wstest.log' \) -delete
    SPEC="$WR_TMP/$mode.json"
    LOG="$OUTDIR/wstest.log"
    python3 - "$mode" "$SPEC" "$OUTDIR" "$WS_URL" "$CASES" "$EXCLUDE" <<'EOF'
import json, sys
mode, spec_path, outdir, url, cases, exclude = sys.argv[1:]
split = lambda text: [item.strip() for item in text.split(",") if item.strip()]
# The fuzzingserver listens at the url; the fuzzingclient tests the server there.
spec = {"url": url} if mode == "fuzzingserver" else {"servers": [{"agent": "WordRooms", "url": url}]}
spec.update({"outdir": outdir, "cases": split(cases), "exclude-cases": split(exclude), "exclude-agent-cases": {}})
with open(spec_path, "w") as handle:
    json.dump(spec, handle, indent=2)
EOF
}

setup_autobahn_venv() {
    VENV="$WR_CACHE_DIR/autobahn-venv"
    local req="$WR_AUTOBAHN_DIR/requirements-autobahn-py2.txt" vreq="$WR_AUTOBAHN_DIR/requirements-virtualenv-py2.txt" want
    want="$(cat "$req" "$vreq" | sha256sum | cut -d' ' -f1) $PYTHON2"
    mkdir -p "$WR_CACHE_DIR"
    (
        flock -w 900 9 || wr_die "timed out waiting for the lock on $VENV"
        if [[ -f "$VENV/.wordrooms-stamp" && "$(cat "$VENV/.wordrooms-stamp")" == "$want" && -x "$VENV/bin/wstest" ]]; then
            exit 0
        fi
        local log="$WR_CACHE_DIR/autobahn-venv.install.log" boot
        wr_log "creating the wstest virtualenv (Python 2.7, one time, ~1 min): $VENV (log: $log)"
        rm -rf "$VENV"
        boot="$(mktemp -d "${TMPDIR:-/tmp}/wordrooms-virtualenv.XXXXXX")"
        {
            if [[ "${WORDROOMS_VIRTUALENV_VIA_PYTHON3:-0}" != 1 ]] && "$PYTHON2" -m pip --version >/dev/null 2>&1; then
                # virtualenv<20.22 with Python 2's own pip, into a throwaway --target dir (site-packages untouched).
                timeout 600 "$PYTHON2" -m pip install -q --disable-pip-version-check --target "$boot/lib" -r "$vreq" &&
                    PYTHONPATH="$boot/lib" timeout 300 "$PYTHON2" -m virtualenv --no-periodic-update "$VENV"
            else
                # No pip in that Python 2: run virtualenv<20.22 from a Python 3 venv and point it at Python 2.7.
                python3 -m venv "$boot/py3" &&
                    timeout 600 "$boot/py3/bin/python" -m pip install -q --disable-pip-version-check "virtualenv==20.21.1" &&
                    timeout 300 "$boot/py3/bin/python" -m virtualenv --no-periodic-update -p "$PYTHON2" "$VENV"
            fi &&
                timeout 1200 "$VENV/bin/python" -m pip install -q --disable-pip-version-check --no-warn-script-location -r "$req" &&
                "$VENV/bin/wstest" --autobahnversion
        } >"$log" 2>&1 || {
            rm -rf "$boot"
            tail -n 40 "$log" >&2
            wr_die "could not create the wstest virtualenv (full log: $log)"
        }
        rm -rf "$boot"
        printf '%s\n' "$want" >"$VENV/.wordrooms-stamp"
    ) 9>"$WR_CACHE_DIR/autobahn-venv.lock"
}

# Judges a finished run: the report must exist, then autobahn_verdict.py decides (VERDICT: its exit status).
# Arguments: the report directory, the agent name in it, wstest's log, and 1 for a verbose verdict.
judge_autobahn_report() {
    local outdir="$1" agent="$2" log="$3" verbose="$4" what="$5"
    if [[ ! -s "$outdir/index.json" ]]; then
        tail -n 30 "$log" >&2
        wr_log "FAILED: wstest wrote no $outdir/index.json (log: $log)"
        exit 1
    fi
    wr_log "$what finished in ${ELAPSED}s; report: $outdir/index.html"
    VERDICT=0
    local -a verbose_flag=()
    [[ $verbose == 1 ]] && verbose_flag=(--verbose)
    python3 "$WR_SCRIPT_DIR/autobahn_verdict.py" --agent "$agent" "${verbose_flag[@]+"${verbose_flag[@]}"}" \
        "$outdir/index.json" || VERDICT=$?
}
