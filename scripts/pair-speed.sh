#!/usr/bin/env bash
# Does playing two games at a time change a match between two engines (issue 58)? On two cores
# each game's thinking engine has a core, but the two share the memory and the caches. If both
# engines lose the same share of their speed beside another, two at a time is a slightly shorter
# clock for both and changes no verdict; if one loses more (a wide net that needs more memory
# bandwidth), the match is biased against it. This measures that: each engine's `chariot bench`
# speed alone, beside a copy of itself, and beside the other, RUNS times each, interleaved so that
# the machine's drift falls on all alike, and prints the medians and each one's ratio to alone.
#
#   scripts/pair-speed.sh [RUNS]
#
# Environment: BIN (default this checkout's release build), A and B (each engine's extra `bench`
# arguments; default A the built-in net, B `--evalfile nets/r3.nnue`; empty: the built-in net),
# DEPTH (default 9).
# Run it on a quiet machine. Exit status: 0 with the table, 1 when a bench failed, 2 on a usage
# error.
set -euo pipefail
runs=${1:-5}
if ! [[ $runs =~ ^[1-9][0-9]*$ ]] || [ $# -gt 1 ]; then
    sed -n '2,16p' "$0" >&2
    exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
bin=${BIN:-$root/target/release/chariot}
a_args=${A:-}
b_args=${B---evalfile $root/nets/r3.nnue}
depth=${DEPTH:-9}
if [ ! -x "$bin" ]; then
    echo "error: no engine at $bin (build it, or set BIN)" >&2
    exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One bench of engine $1 (A or B) into file $2; its nodes per second on the file's last line.
bench() {
    local args
    if [ "$1" = A ]; then args=$a_args; else args=$b_args; fi
    # shellcheck disable=SC2086 # the extra arguments are words by design
    if ! "$bin" bench --depth "$depth" $args > "$2.out" 2>&1; then
        echo "error: bench of engine $1 (${args:-built-in net}) failed:" >&2
        tail -3 "$2.out" >&2
        return 1
    fi
    local nps
    nps=$(sed -n 's/^Nodes\/second: \([0-9]*\)$/\1/p' "$2.out")
    if [ -z "$nps" ]; then
        echo "error: bench of engine $1 printed no speed" >&2
        return 1
    fi
    echo "$nps" >> "$2"
}

# Two benches at once; each engine's speed goes to its own list.
pair() {
    local s1=0 s2=0
    bench "$1" "$work/$3" & local p1=$!
    bench "$2" "$work/$4" & local p2=$!
    wait $p1 || s1=$?
    wait $p2 || s2=$?
    [ $s1 -eq 0 ] && [ $s2 -eq 0 ]
}

for ((i = 1; i <= runs; i++)); do
    echo "run $i of $runs" >&2
    bench A "$work/A-alone" || exit 1
    bench B "$work/B-alone" || exit 1
    pair A A A-beside-A A-beside-A || exit 1
    pair B B B-beside-B B-beside-B || exit 1
    pair A B A-beside-B B-beside-A || exit 1
done

median() { sort -n "$1" | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
echo "engine A: ${a_args:-built-in net}; engine B: ${b_args:-built-in net}; bench depth $depth, $runs runs"
echo "| engine | alone | beside A | beside B |"
echo "|---|---|---|---|"
for e in A B; do
    alone=$(median "$work/$e-alone")
    row="| $e | $alone"
    for other in A B; do
        m=$(median "$work/$e-beside-$other")
        row="$row | $m ($(awk -v m="$m" -v a="$alone" 'BEGIN { printf "%.3f", m / a }'))"
    done
    echo "$row |"
done
