#!/usr/bin/env bash
# Time forfeits on a loaded machine: scripts/strength.sh (Chariot against Fairy-Stockfish by
# default, 5 s + 0.05 s, one game at a time) while BUSY processes spin at normal priority beside
# it, as a GUI user's machine runs a browser and a build. Prints strength.sh's report, whose last
# lines count each engine's losses on time (scripts/pgn-score.py), and exits 1 when Chariot lost
# a game on time.
#
#   scripts/forfeits-under-load.sh [ENGINE_BINARY]
#
# Environment: BUSY (default 2), GAMES (default 200), PGN (default forfeits-under-load.pgn; an
# existing one is resumed), and strength.sh's own (TC, OPPONENT, …).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
busy=${BUSY:-2}
pids=()
stop_busy() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap stop_busy EXIT
for _ in $(seq 1 "$busy"); do
    # A process that never sleeps: one core's worth of demand each.
    sh -c 'while :; do :; done' &
    pids+=($!)
done
pgn=${PGN:-forfeits-under-load.pgn}
GAMES=${GAMES:-200} PGN="$pgn" "$root/scripts/strength.sh" "$@" | tee "$pgn.report"
if grep -Eq 'chariot lost on time' "$pgn.report"; then
    exit 1
fi
