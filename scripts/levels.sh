#!/usr/bin/env bash
# Calibrates the strength levels (docs/levels.md): plays every adjacent pair of levels, the
# levels against ElephantEye at fixed depths and against Chariot at full strength under node
# limits, then fits one Elo scale to all the games with `chariot match ratings`, ElephantEye at
# depth 1 fixed at 1000. Exits 1 unless every level is rated above the one below it.
#
#   scripts/levels.sh OUT_DIR
#
# Environment:
#   CHARIOT      the engine to calibrate [target/release/chariot]
#   ELEEYE       ElephantEye 3.3 (build: g++ -O3 -o eleeye base/pipe.cpp eleeye/*.cpp from
#                github.com/xqbase/eleeye) [eleeye on the PATH]
#   GAMES        games of each adjacent pair [120: every opening of tests/data/openings.txt
#                with both colours]
#   ANCHOR_GAMES games of each anchor match [60]
#   CONCURRENCY  games at once in the node-limited matches [2]; the match with full strength
#                on a clock plays one game at a time
#   FULL_TC      full strength's clock (level 20) [5+0.05, the project's gate]
#
# Every match resumes from its PGN in OUT_DIR: run the same line again after an interruption.
# Node-limited games do not depend on the machine's load; the level-20 match does, so run the
# script on a quiet machine (pause any data generation).
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:?usage: scripts/levels.sh OUT_DIR}
chariot=$(realpath "${CHARIOT:-target/release/chariot}")
eleeye=$(command -v "${ELEEYE:-eleeye}" || true)
games=${GAMES:-120}
anchor_games=${ANCHOR_GAMES:-60}
concurrency=${CONCURRENCY:-2}
full_tc=${FULL_TC:-5+0.05}
openings=tests/data/openings.txt

[ -x "$chariot" ] || { echo "levels.sh: no engine at $chariot (cargo build --release)" >&2; exit 2; }
[ -n "$eleeye" ] && [ -x "$eleeye" ] || { echo "levels.sh: ElephantEye not found: set ELEEYE" >&2; exit 2; }
mkdir -p "$out"

level() { echo "name=L$1,cmd=$chariot,option.usebook=false,option.skilllevel=$1"; }
eleeye_at() { echo "name=EE$1,cmd=$eleeye,option.usebook=false,depth=$1"; }
full_at() { echo "name=F$1,cmd=$chariot,option.usebook=false,nodes=$1"; }

# match NAME GAMES CONCURRENCY TC SPEC SPEC: plays (or resumes, or skips when complete) one match.
match() {
    local name=$1 n=$2 c=$3 tc=$4 a=$5 b=$6 pgn="$out/$1.pgn"
    local args=(match --engine "$a" --engine "$b" --games "$n" --tc "$tc" --openings "$openings"
        --concurrency "$c" --pgn "$pgn")
    if [ -f "$pgn" ]; then
        if [ "$(grep -c '^\[Result ' "$pgn")" -ge "$n" ]; then
            return
        fi
        args+=(--resume)
    fi
    echo "== $name ($n games)" >&2
    "$chariot" "${args[@]}" > "$out/$name.txt" 2> "$out/$name.log"
    tail -n 1 "$out/$name.txt" >&2
}

# The levels' own node limits decide their moves; the clock only keeps a stalled engine honest.
node_tc=120+1
for l in $(seq 0 18); do
    match "L$l-L$((l + 1))" "$games" "$concurrency" "$node_tc" "$(level "$l")" "$(level $((l + 1)))"
done
# ElephantEye at depth d beside the levels it plays most evenly (measured in a pilot of 20 games
# a match: docs/levels.md).
for pair in 1:0 1:1 1:2 2:3 2:4 2:5 3:6 3:7 3:8 4:9 4:10 4:11 5:11 5:12 5:13 6:13 6:14 6:15; do
    d=${pair%%:*} l=${pair##*:}
    match "EE$d-L$l" "$anchor_games" "$concurrency" "$node_tc" "$(eleeye_at "$d")" "$(level "$l")"
done
# Full strength under node limits beside the top levels.
for pair in 20000:15 20000:16 60000:17 60000:18 250000:19; do
    n=${pair%%:*} l=${pair##*:}
    match "F$n-L$l" "$anchor_games" "$concurrency" "$node_tc" "$(full_at "$n")" "$(level "$l")"
done
# Level 20 is full strength on a clock: one game at a time, and level 19 on the same clock.
match "L19-L20" "$games" 1 "$full_tc" "$(level 19)" "$(level 20)"
match "F250000-L20" "$anchor_games" 1 "$full_tc" "$(full_at 250000)" "$(level 20)"

"$chariot" match ratings "$out"/*.pgn --anchor EE1=1000 | tee "$out/ratings.txt"
# Each adjacent pair's own result, and the check that the levels rise.
echo "adjacent pairs (each match's own games):" | tee "$out/pairs.txt"
for l in $(seq 0 19); do
    tail -n 1 "$out/L$l-L$((l + 1)).txt" | tee -a "$out/pairs.txt"
done
previous=
for l in $(seq 0 20); do
    elo=$(awk -v n="L$l" '$2 == n { print $3 }' "$out/ratings.txt")
    [ -n "$elo" ] || { echo "levels.sh: no rating for L$l" >&2; exit 1; }
    if [ -n "$previous" ] && ! awk -v a="$previous" -v b="$elo" 'BEGIN { exit !(b > a) }'; then
        echo "levels.sh: L$l ($elo) is not above L$((l - 1)) ($previous)" >&2
        exit 1
    fi
    previous=$elo
done
echo "levels.sh: the levels rise strictly from L0 to L20"
