#!/usr/bin/env bash
# The browser test of `chariot serve`: installs headless Chromium and chromedriver (Debian's
# packages) and a CJK font when missing, starts `chariot serve` on a free loopback port with a
# temporary --data directory, and runs scripts/browser_test.py: two browsers play a friend game to
# mate with an agreed take-back and a reload, a third watches, steps back, analyses, evaluates
# positions and draws the curve, the saved PGN is replayed by `chariot judge`, and a PGN file is
# opened as an analysis board. Fails loudly (non-zero) on any mismatch.
#
#   scripts/browser-test.sh                 # uses target/release/chariot (built when missing)
#   SCREENSHOTS=docs scripts/browser-test.sh   # also writes docs/serve-lobby.png, serve-playing.png,
#                                              # serve-finished.png, serve-analysis.png,
#                                              # serve-evaluation.png, serve-review.png
#   CHARIOT_BIN=path/to/chariot scripts/browser-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)

missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v chromedriver >/dev/null || missing+=(chromium-driver)
command -v python3 >/dev/null || missing+=(python3)
fc-list :lang=zh 2>/dev/null | grep -q . || missing+=(fonts-wqy-zenhei)
if [ ${#missing[@]} -gt 0 ]; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
fi

bin=${CHARIOT_BIN:-target/release/chariot}
if [ -z "${CHARIOT_BIN:-}" ] && [ ! -x "$bin" ]; then
    cargo build --release
fi

tmp=$(mktemp -d)
server_pid=""
driver_pid=""
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
    [ -n "$driver_pid" ] && kill "$driver_pid" 2>/dev/null || true
    rm -rf "$tmp"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_for() { # URL WHAT
    for _ in $(seq 1 100); do
        if python3 -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1], timeout=1)" "$1" 2>/dev/null; then
            return 0
        fi
        sleep 0.1
    done
    echo "browser test FAILED: $2 did not start" >&2
    cat "$tmp"/*.log >&2 || true
    exit 1
}

port=$(free_port)
# The king-and-rook ending's table, for the editor's analysis to show its verdict.
"$bin" egtb generate KRK --dir "$tmp/tables" >"$tmp/egtb.log" 2>&1
"$bin" serve --bind "127.0.0.1:$port" --data "$tmp/data" --egtb "$tmp/tables" >"$tmp/serve.log" 2>&1 &
server_pid=$!
wait_for "http://127.0.0.1:$port/health" "chariot serve"

driver_port=$(free_port)
chromedriver --port="$driver_port" --allowed-ips=127.0.0.1 >"$tmp/chromedriver.log" 2>&1 &
driver_pid=$!
wait_for "http://127.0.0.1:$driver_port/status" "chromedriver"

screenshots=${SCREENSHOTS:-}
if ! python3 scripts/browser_test.py --base "http://127.0.0.1:$port" --driver "http://127.0.0.1:$driver_port" \
    --data "$tmp/data" --chariot "$bin" --profiles "$tmp" --screenshots "$screenshots"; then
    echo "--- chariot serve's log:" >&2
    cat "$tmp/serve.log" >&2
    exit 1
fi
kill "$server_pid"
wait "$server_pid" 2>/dev/null || true
server_pid=""
echo "browser test took $(( $(date +%s) - start )) s"
