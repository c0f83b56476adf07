#!/usr/bin/env bash
# The target match: Chariot against Fairy-Stockfish (UCCI mode), 5 s + 0.05 s per side, one
# search thread each, the openings of ../shared/data/openings.txt each played with both colours.
# Prints `chariot match`'s result table (Elo, LOS).
#
#   scripts/strength.sh [ENGINE_BINARY] [extra `chariot match` options…]
#
# ENGINE_BINARY is the Chariot to measure (default: this checkout's release build, built first).
# Environment: GAMES (default 200), CONCURRENCY (default 1: the machine has 2 cores and each game
# needs two), TC (default 5+0.05), OPENINGS, PGN (default strength.pgn), FSF (default
# /usr/games/fairy-stockfish) and CHARIOT (the match runner; default the release build).
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

exec "$runner" match \
    --engine "name=chariot,cmd=$engine,proto=ucci,option.threads=1" \
    --engine "name=fairy-stockfish,cmd=$fsf,proto=ucci,option.Threads=1" \
    --games "${GAMES:-200}" \
    --tc "${TC:-5+0.05}" \
    --concurrency "${CONCURRENCY:-1}" \
    --openings "${OPENINGS:-$root/../shared/data/openings.txt}" \
    --pgn "${PGN:-strength.pgn}" "$@"
