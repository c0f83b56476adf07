#!/usr/bin/env bash
# The strength match: Chariot against Fairy-Stockfish in its primary protocol, UCI
# (UCI_Variant xiangqi, ranks 1-10), 5 s + 0.05 s per side, one search thread each, Chariot's book
# off, the openings each played with both colours, one game at a time (two at once on two cores
# starve every engine and make them flag). Prints `chariot match`'s table, then the score twice
# (all games, and without time forfeits, listing them) from scripts/pgn-score.py.
#
#   scripts/strength.sh [ENGINE_BINARY] [extra `chariot match` options…]
#
# ENGINE_BINARY is the Chariot to measure (default: this checkout's release build, built first).
# Environment: GAMES (default 400), TC (default 5+0.05), OPENINGS (default tests/data/openings.txt),
# PGN (default strength.pgn; an existing one is resumed), FSF (default /usr/games/fairy-stockfish),
# CHARIOT_OPTS (extra engine-spec keys for Chariot: option.evalfile=… for another net than the
# built-in one, option.usennue=false for the classic evaluation) and CHARIOT (the match runner;
# default the release build).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
if [ -z "${CHARIOT:-}" ]; then
    cargo build --release --manifest-path "$root/Cargo.toml" >&2
fi
runner=${CHARIOT:-$root/target/release/chariot}
engine=$runner
if [ $# -gt 0 ] && [[ $1 != -* ]]; then
    engine=$1
    shift
fi
fsf=${FSF:-/usr/games/fairy-stockfish}
for program in "$runner" "$engine" "$fsf"; do
    if [ ! -x "$program" ]; then
        echo "error: $program is not an executable file" >&2
        exit 2
    fi
done
openings=${OPENINGS:-$root/tests/data/openings.txt}
pgn=${PGN:-strength.pgn}
resume=()
if [ -e "$pgn" ]; then
    resume=(--resume)
fi

"$runner" match \
    --engine "name=chariot,cmd=$engine,proto=ucci,option.threads=1,option.usebook=false${CHARIOT_OPTS:+,$CHARIOT_OPTS}" \
    --engine "name=fairy-stockfish,cmd=$fsf,proto=uci,ranks=1,option.UCI_Variant=xiangqi,option.Threads=1" \
    --games "${GAMES:-400}" \
    --tc "${TC:-5+0.05}" \
    --concurrency 1 \
    --openings "$openings" \
    --pgn "$pgn" "${resume[@]}" "$@"
echo
python3 "$root/scripts/pgn-score.py" "$pgn" chariot
