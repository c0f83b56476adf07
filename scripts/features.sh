#!/usr/bin/env bash
# What each search feature and each evaluation term group is worth in games: a gauntlet of the
# full engine against copies of itself with one of them switched off (the `without` and
# `withoutterms` options), at a fixed number of nodes per move.
#
#   scripts/features.sh [ENGINE_BINARY] [extra `chariot match` options…]
#
# Fixed nodes measure what a feature buys per node searched (not what it costs in speed), and
# the result does not depend on the load of a shared machine. Environment: GAMES (per pairing,
# default 60), NODES (default 40000), CONCURRENCY (default 2), FEATURES and TERMS (the names to
# test; default all but mdp, which acts only once a mate is found: its worth is in nodes, see
# `chariot bench --without mdp`), NNUE (1: the built-in net instead of the classic evaluation,
# without the terms), OPENINGS, PGN (default features.pgn) and CHARIOT (the runner;
# default this checkout's release build, built first). The table's Elo is each crippled copy's
# against the full engine: the more negative, the more the feature is worth.
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
for program in "$runner" "$engine"; do
    if [ ! -x "$program" ]; then
        echo "error: $program is not an executable file" >&2
        exit 2
    fi
done

# The term groups belong to the classic evaluation, so every engine uses it unless NNUE=1, which
# measures the search features with the built-in net and leaves the terms out.
# Every engine plays with its opening book off, as in every strength test.
if [ "${NNUE:-0}" = 1 ]; then
    eval_opt=",option.usebook=false"
    groups=""
else
    eval_opt=",option.usebook=false,option.usennue=false"
    groups=${TERMS:-kingsafety cannons mobility pawns kingattack}
fi
engines=(--engine "name=all,cmd=$engine,proto=ucci$eval_opt")
for feature in ${FEATURES:-null rfp futility lmp lmr checkext qsprune}; do
    engines+=(--engine "name=no-$feature,cmd=$engine,proto=ucci,option.without=$feature$eval_opt")
done
for group in $groups; do
    engines+=(--engine "name=no-$group,cmd=$engine,proto=ucci,option.withoutterms=$group$eval_opt")
done

exec "$runner" match "${engines[@]}" --gauntlet \
    --games "${GAMES:-60}" \
    --nodes "${NODES:-40000}" \
    --concurrency "${CONCURRENCY:-2}" \
    --openings "${OPENINGS:-$root/tests/data/openings.txt}" \
    --pgn "${PGN:-features.pgn}" "$@"
