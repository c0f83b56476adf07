#!/usr/bin/env bash
# Elo with endgame tablebases against without (issue 55's open question): Chariot with
# `EgtbPath` set against the same build without, 5 s + 0.05 s, one game at a time, books off,
# each opening with both colours. Resumable: run it again and the match goes on from its PGN;
# every ten minutes the PGN is compressed into docs/gates/egtb-NAME-*.pgn.xz
# (scripts/gate-archive.sh), and a folder with no PGN starts again from those parts, so the
# evidence survives a machine that moves.
#
#   scripts/egtb-elo.sh NAME TABLES OPENINGS GAMES [OUT_DIR]
#
# NAME       the match's name (`endings`, `openings`): its folder and archive are named by it;
# TABLES     the folder of tables (keep it unchanged while the match runs: copy or link a set);
# OPENINGS   an openings file (`chariot egtb endings … -o endings.txt`, or tests/data/openings.txt);
# GAMES      games in all (each opening is played twice, with both colours);
# OUT_DIR    where the match's folder goes (default: the repository's parent's data/).
#
# Environment: BIN (the Chariot to measure; default this checkout's release build, copied into
# the folder on the first run so that a rebuild cannot change the engines mid-match), TC (default
# 5+0.05). Prints the match's report, then the score of `tables` twice (all games, and without
# time forfeits) from scripts/pgn-score.py. Exits non-zero when the match fails.
set -euo pipefail
if [ $# -lt 4 ] || [ $# -gt 5 ]; then
    sed -n '2,21p' "$0" >&2
    exit 2
fi
name=$1
tables=$(cd "$2" && pwd)
openings=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
games=$4
root="$(cd "$(dirname "$0")/.." && pwd)"
out=${5:-$root/../data}/egtb-$name
tc=${TC:-5+0.05}
mkdir -p "$out"
if [ ! -x "$out/chariot" ]; then
    bin=${BIN:-$root/target/release/chariot}
    if [ -z "${BIN:-}" ]; then
        cargo build --release --manifest-path "$root/Cargo.toml" >&2
    fi
    cp "$bin" "$out/chariot.tmp" && mv "$out/chariot.tmp" "$out/chariot"
fi
if ! ls "$tables"/*.egtb > /dev/null 2>&1; then
    echo "error: no tables in $tables" >&2
    exit 2
fi
pgn=$out/match.pgn
ROOT=$root
# shellcheck source=scripts/gate-lib.sh
. "$root/scripts/gate-lib.sh"
# A folder without its PGN (a new machine) takes the games back from the archive's parts.
gate_restore "$pgn" "egtb-$name-match"
resume=()
if [ -s "$pgn" ]; then
    resume=(--resume)
fi
gate_archive_every "$out" "egtb-$name"

status=0
"$out/chariot" match \
    --engine "name=tables,cmd=$out/chariot,option.usebook=false,option.threads=1,option.egtbpath=$tables" \
    --engine "name=plain,cmd=$out/chariot,option.usebook=false,option.threads=1" \
    --games "$games" --tc "$tc" --concurrency 1 --openings "$openings" \
    --pgn "$pgn" "${resume[@]}" | tee "$out/report.txt" || status=$?
python3 "$root/scripts/pgn-score.py" "$pgn" tables || status=$?
exit $status
