#!/usr/bin/env bash
# The standard self-test: NEW against OLD at a fast control until the SPRT reaches a verdict.
#
#   scripts/sprt.sh OLD_BINARY NEW_BINARY [extra `chariot match` options…]
#
# A search-parameter candidate needs no second build: give the same binary twice and the
# candidate's values in NEW_OPTS, extra engine-spec keys for NEW (OLD_OPTS likewise for OLD):
#
#   NEW_OPTS='option.tune=lmr_history=8 rfp_margin=70' scripts/sprt.sh target/release/chariot target/release/chariot
#
# Both engines play with their opening book off (`option.usebook=false`, which UCCI otherwise
# turns on), unless NEW_OPTS or OLD_OPTS set usebook themselves: the book is tested only on purpose.
#
# H0: NEW is no better than OLD (elo0=0), H1: NEW gains 5 Elo (elo1=5), alpha = beta = 0.05;
# 10+0.1 s per side, the openings of tests/data/openings.txt each followed by two random plies
# drawn anew for each game pair (`chariot match --random-plies`) and played twice, games on
# both cores. Environment: GAMES (the cap, default 20000), TC (or NODES: a fixed number of
# nodes per move instead of a clock), SPRT (the test, default
# elo0=0,elo1=5,alpha=0.05,beta=0.05), CONCURRENCY, OPENINGS, RANDOM_PLIES (default 2; 0 plays
# the lines as they are, as every test before f9a6d66 did: under NODES the sixty lines give 120
# distinct games, played again however many are asked for), PGN and CHARIOT (the runner binary;
# by default this checkout's release build) override the defaults. An interrupted test continues
# where it stopped when run again with the same PGN.
set -euo pipefail

if [ $# -lt 2 ]; then
    echo "usage: $0 OLD_BINARY NEW_BINARY [chariot match options…]" >&2
    exit 2
fi
old=$1
new=$2
shift 2
for engine in "$old" "$new"; do
    if [ ! -x "$engine" ]; then
        echo "error: $engine is not an executable file" >&2
        exit 2
    fi
done

root="$(cd "$(dirname "$0")/.." && pwd)"
if [ -z "${CHARIOT:-}" ]; then
    cargo build --release --manifest-path "$root/Cargo.toml" >&2
    CHARIOT="$root/target/release/chariot"
fi
pgn=${PGN:-sprt.pgn}
resume=()
if [ -e "$pgn" ]; then
    resume=(--resume)
fi
limit=(--tc "${TC:-10+0.1}")
if [ -n "${NODES:-}" ]; then
    limit=(--nodes "$NODES")
fi

# The engine-spec keys for one side: its own, with the book off unless they say otherwise.
books_off() {
    case ",$1," in
    *,option.usebook=*) echo "$1" ;;
    *) echo "option.usebook=false${1:+,$1}" ;;
    esac
}

# Said before the games, since "new" and "old" are all the report and the PGN call them: the
# first argument is OLD.
echo "sprt.sh: new = $new${NEW_OPTS:+ ($NEW_OPTS)}; old = $old${OLD_OPTS:+ ($OLD_OPTS)}" >&2

exec "$CHARIOT" match \
    --engine "name=new,cmd=$new,$(books_off "${NEW_OPTS:-}")" \
    --engine "name=old,cmd=$old,$(books_off "${OLD_OPTS:-}")" \
    --games "${GAMES:-20000}" \
    "${limit[@]}" \
    --concurrency "${CONCURRENCY:-2}" \
    --openings "${OPENINGS:-$root/tests/data/openings.txt}" \
    --random-plies "${RANDOM_PLIES:-2}" \
    --draw movenumber=40,movecount=8,score=10 \
    --resign movecount=4,score=800 \
    --sprt "${SPRT:-elo0=0,elo1=5,alpha=0.05,beta=0.05}" \
    --pgn "$pgn" "${resume[@]}" "$@"
