#!/usr/bin/env bash
# Compares perft speed with Fairy-Stockfish from the xiangqi start position: both counts must be
# the reference count, then prints each engine's median wall time and the ratio fsf/chariot.
# Wall times include process start-up.
# PERFT_DEPTH (default 5) and RUNS (default 5) may be set for a quicker look.
set -euo pipefail
cd "$(dirname "$0")/.."

depth="${PERFT_DEPTH:-5}"
runs="${RUNS:-5}"
fsf=/usr/games/fairy-stockfish

# Start-position counts from docs/rules.md ("Reference counts"), depths 1..5.
case "$depth" in
    1) expected=44 ;;
    2) expected=1920 ;;
    3) expected=79666 ;;
    4) expected=3290240 ;;
    5) expected=133312995 ;;
    *) echo "error: PERFT_DEPTH must be 1..5, not '$depth'" >&2; exit 2 ;;
esac

if [ ! -x "$fsf" ]; then
    apt-get update
    apt-get install -y fairy-stockfish
fi

cargo build --release --quiet
chariot=target/release/chariot

now() { date +%s.%N; }

# Prints the median of the numbers on stdin.
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

run_chariot() {
    "$chariot" perft "$depth" 2>/dev/null | sed -n 's/^nodes //p'
}

run_fsf() {
    printf 'uci\nsetoption name UCI_Variant value xiangqi\nposition startpos\ngo perft %s\nquit\n' "$depth" \
        | "$fsf" | sed -n 's/^Nodes searched: //p'
}

# Times `runs` runs of $1, checking each count; prints one time per line.
time_runs() {
    local name="$1" start count end
    for _ in $(seq "$runs"); do
        start=$(now)
        count=$("run_$name")
        end=$(now)
        if [ "$count" != "$expected" ]; then
            echo "error: $name counted '$count' at depth $depth, expected $expected" >&2
            exit 1
        fi
        awk -v a="$start" -v b="$end" 'BEGIN { printf "%.6f\n", b - a }'
    done
}

chariot_times=$(time_runs chariot)
fsf_times=$(time_runs fsf)
chariot_median=$(echo "$chariot_times" | median)
fsf_median=$(echo "$fsf_times" | median)

echo "perft $depth = $expected, median of $runs runs"
printf '%-16s %.3f s\n' chariot "$chariot_median" fairy-stockfish "$fsf_median"
awk -v f="$fsf_median" -v c="$chariot_median" 'BEGIN { printf "ratio fsf/chariot %.2f\n", f / c }'
