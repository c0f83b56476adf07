#!/usr/bin/env bash
# The strength match: Chariot against a sparring partner in its primary protocol, UCI, 5 s + 0.05 s
# per side unless odds are given, one search thread each, Chariot's book off, the openings each
# played with both colours, one game at a time (two at once on two cores starve every engine and
# make them flag). Chariot's rules judge every game and its result, and the runner's clocks rule.
# Prints `chariot match`'s table, then the score twice (all games, and without time forfeits,
# listing them) from scripts/pgn-score.py.
#
# The partners (OPPONENT):
#   fairy-stockfish  Debian's Fairy-Stockfish (UCI_Variant xiangqi, ranks 1-10): the default;
#   pikafish-hce     Pikafish's search with a hand-written evaluation, built by
#                    scripts/peers/pikafish-hce.sh (ICCS coordinates, ranks 0-9).
#
#   scripts/strength.sh [ENGINE_BINARY] [extra `chariot match` options…]
#
# ENGINE_BINARY is the Chariot to measure (default: this checkout's release build, built first).
# Environment: GAMES (default 400), TC (Chariot's clock, default 5+0.05), OPPONENT_TC (the
# partner's clock, default TC: `OPPONENT_TC=20+0.2` gives it 4x odds, a larger TC gives them to
# Chariot), OPPONENT (above), OPENINGS (default tests/data/openings.txt),
# PGN (default strength.pgn; an existing one is resumed), FSF (default /usr/games/fairy-stockfish),
# PIKAFISH (default peers/pikafish-hce beside the repository root), OPPONENT_HASH (the partner's
# table in MB, default 64: Chariot's own default),
# CHARIOT_OPTS (extra engine-spec keys for Chariot: option.evalfile=… for another net than the
# built-in one, option.usennue=false for the classic evaluation), CHARIOT (the match runner;
# default the release build) and CONCURRENCY (games at once, default 1: on a machine of many
# cores, one game a core with two cores left over for the runner and the system).
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
tc=${TC:-5+0.05}
opponent_tc=${OPPONENT_TC:-$tc}
hash=${OPPONENT_HASH:-64}
case "${OPPONENT:-fairy-stockfish}" in
fairy-stockfish)
    partner=${FSF:-/usr/games/fairy-stockfish}
    partner_spec="name=fairy-stockfish,cmd=$partner,proto=uci,ranks=1,option.UCI_Variant=xiangqi,option.Threads=1,option.Hash=$hash"
    ;;
pikafish-hce)
    partner=${PIKAFISH:-$root/peers/pikafish-hce}
    partner_spec="name=pikafish-hce,cmd=$partner,proto=uci,option.Threads=1,option.Hash=$hash"
    ;;
*)
    echo "error: OPPONENT must be fairy-stockfish or pikafish-hce, not '$OPPONENT'" >&2
    exit 2
    ;;
esac
for program in "$runner" "$engine" "$partner"; do
    if [ ! -x "$program" ]; then
        echo "error: $program is not an executable file" >&2
        exit 2
    fi
done
concurrency=${CONCURRENCY:-1}
if ! [[ $concurrency =~ ^[1-9][0-9]*$ ]]; then
    echo "error: CONCURRENCY must be a number of games, 1 or more, not '$concurrency'" >&2
    exit 2
fi
openings=${OPENINGS:-$root/tests/data/openings.txt}
pgn=${PGN:-strength.pgn}
resume=()
if [ -e "$pgn" ]; then
    resume=(--resume)
fi

"$runner" match \
    --engine "name=chariot,cmd=$engine,proto=ucci,tc=$tc,option.threads=1,option.usebook=false${CHARIOT_OPTS:+,$CHARIOT_OPTS}" \
    --engine "$partner_spec,tc=$opponent_tc" \
    --games "${GAMES:-400}" \
    --tc "$tc" \
    --concurrency "$concurrency" \
    --openings "$openings" \
    --pgn "$pgn" "${resume[@]}" "$@"
echo
python3 "$root/scripts/pgn-score.py" "$pgn" chariot
