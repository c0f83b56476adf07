#!/usr/bin/env bash
# The gate of a search change that is a parameter (issue 58): the same build with the candidate's
# `tune` values against itself without, as the design in docs/strength.md chose for a gate that
# finishes in a session: an SPRT [0, 20] (alpha = beta = 0.05) capped at 2,000 games, 5 s + 0.05 s,
# two games at a time (one per core: run it on a quiet machine, nothing else beside), books off,
# the openings of tests/data/openings.txt with two random plies a pair, both colours
# (scripts/sprt.sh). Resumable: run the same command again and the SPRT goes on from its PGN;
# every ten minutes and at the end the PGN is compressed into docs/gates/NAME-base-*.pgn.xz
# (scripts/gate-archive.sh), and a folder without its PGN starts from those parts.
#
#   scripts/gate-search.sh NAME 'TUNE' [DIR]
#
# NAME   the gate's name (`iir4`); TUNE the candidate's values (`iir_depth=4`, or several
#        separated by spaces); DIR where its folder goes (default: the repository's parent's data/).
#
# Environment: BIN (the build to gate; default this checkout's release build, copied into the
# folder on the first run, so that a rebuild cannot change the engines mid-gate), TC, GAMES (the
# cap), SPRT, CONCURRENCY (default 2). Exit status: 0 when the SPRT accepts H1, 1 when it accepts
# H0 or reaches the cap undecided, 2 on a usage error, 3 when the match itself failed.
set -euo pipefail
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    sed -n '2,19p' "$0" >&2
    exit 2
fi
name=$1
tune=$2
root="$(cd "$(dirname "$0")/.." && pwd)"
out=${3:-$root/../data}/gate-$name
mkdir -p "$out"
if [ ! -x "$out/chariot" ]; then
    if [ -z "${BIN:-}" ]; then
        cargo build --release --manifest-path "$root/Cargo.toml" >&2
    fi
    bin=${BIN:-$root/target/release/chariot}
    cp "$bin" "$out/chariot.tmp" && mv "$out/chariot.tmp" "$out/chariot"
fi
pgn=$out/base.pgn
ROOT=$root
# shellcheck source=scripts/gate-lib.sh
. "$root/scripts/gate-lib.sh"
gate_restore "$pgn" "$name-base"
gate_archive_every "$out" "$name"

status=0
NEW_OPTS="option.tune=$tune" TC=${TC:-5+0.05} GAMES=${GAMES:-2000} \
    SPRT=${SPRT:-elo0=0,elo1=20,alpha=0.05,beta=0.05} CONCURRENCY=${CONCURRENCY:-2} \
    PGN=$pgn CHARIOT=$out/chariot \
    "$root/scripts/sprt.sh" "$out/chariot" "$out/chariot" | tee "$out/report.txt" || status=$?
if [ $status -ne 0 ]; then
    echo "error: the match failed (exit status $status)" >&2
    exit 3
fi
if grep -q 'H1 accepted' "$out/report.txt"; then
    exit 0
fi
exit 1
