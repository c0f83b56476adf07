#!/usr/bin/env bash
# The two SPRTs a net must pass to become the built-in net (issue 25's gates):
#
#   scripts/gate-net.sh NET [DIR]
#
# NET against the built-in net, then NET against the classic evaluation, each an SPRT
# [0, 10] (alpha = beta = 0.05) at 5 s + 0.05 s, one game at a time, one thread each, books off,
# the openings of tests/data/openings.txt with two random plies a pair (scripts/sprt.sh), both
# colours. The second match starts only when the
# first accepts H1. Background data generation (scripts/datagen-background.sh) is paused while
# the games run and resumed afterwards, even when the script is interrupted.
#
# The PGNs and each match's report go to DIR (default gate-NAME beside NET); run the same command
# again to continue an interrupted gate where it stopped. Every ARCHIVE_EVERY seconds (default 600)
# and when it ends, the PGNs are also compressed into docs/gates/ (scripts/gate-archive.sh): commit
# them at least every hour of play. When DIR has no PGN yet and docs/gates/ holds this gate's parts,
# they are joined into DIR first, so a gate goes on from the repository on any machine (the
# settings fingerprint still asks for the same engine program: rebuild the gate's commit). Exit status: 0 when both accept H1,
# 1 when one accepts H0 or reaches the game cap without a verdict, 2 on a usage error.
#
# Environment: CHARIOT (the binary; default this checkout's release build), GAMES (the cap of
# each SPRT, default 1000), TC (default 5+0.05), SPRT (default elo0=0,elo1=10,alpha=0.05,beta=0.05),
# GATE_NICE (a niceness for the games, e.g. -10 as root, so that other work on the machine yields
# to them; the engines inherit it; beside seven builds at load 20 it did not prevent forfeits:
# play gates on a quiet machine), CONCURRENCY (games at a time, default 1: more only on a machine with two cores a game to spare,
# such as a lent many-core machine continuing a gate's PGN; the settings fingerprint leaves the
# concurrency out, so those games join the same match).
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 NET [DIR]" >&2
    exit 2
fi
net=$(realpath "$1")
if [ ! -f "$net" ]; then
    echo "error: no net file $1" >&2
    exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
name=$(basename "$net" .nnue)
dir=${2:-$(dirname "$net")/gate-$name}
mkdir -p "$dir"
if [ -z "${CHARIOT:-}" ]; then
    cargo build --release --manifest-path "$root/Cargo.toml" >&2
    CHARIOT="$root/target/release/chariot"
fi
# Refuse a damaged or foreign net before any game is played.
"$CHARIOT" nnue check "$net" > "$dir/net-check.txt" || {
    echo "error: $1 is not a net this build loads (see above)" >&2
    exit 2
}

datagen="$root/scripts/datagen-background.sh"
paused=no
# Read the whole status first: with pipefail, `grep -q` closing the pipe early made the check
# fail and the games ran beside data generation.
state=$("$datagen" status 2>/dev/null || true)
case "$state" in
*': running'*) "$datagen" pause >&2 && paused=yes ;;
esac
gates=${GATES:-$root/docs/gates}
archive() { GATES="$gates" "$root/scripts/gate-archive.sh" "$dir" "$name" >&2 || true; }
archive_loop() {
    while sleep "${ARCHIVE_EVERY:-600}"; do archive; done
}

archiver=
finish() {
    [ -n "$archiver" ] && kill "$archiver" 2>/dev/null
    archive
    if [ "$paused" = yes ]; then "$datagen" resume >&2 || true; fi
}
trap finish EXIT

export CHARIOT TC=${TC:-5+0.05} CONCURRENCY=${CONCURRENCY:-1} GAMES=${GAMES:-1000}
export SPRT=${SPRT:-elo0=0,elo1=10,alpha=0.05,beta=0.05}
export NEW_OPTS="option.usebook=false,option.evalfile=$net"

status=0
for opponent in builtin classic; do
    parts=("$gates/$name-$opponent"-[0-9][0-9][0-9].pgn.xz)
    if [ ! -e "$dir/$opponent.pgn" ] && [ -e "${parts[0]}" ]; then
        cat "${parts[@]}" | xz -dc > "$dir/$opponent.pgn.tmp"
        mv "$dir/$opponent.pgn.tmp" "$dir/$opponent.pgn"
        echo "== resumed from ${#parts[@]} part(s) in $gates: $(grep -c '^\[Event ' "$dir/$opponent.pgn") games" >&2
    fi
    case $opponent in
    builtin) export OLD_OPTS="option.usebook=false" ;;
    classic) export OLD_OPTS="option.usebook=false,option.usennue=false" ;;
    esac
    echo "== $name against the $opponent evaluation ($TC, SPRT $SPRT)" >&2
    [ -z "$archiver" ] && { archive_loop & archiver=$!; }
    PGN="$dir/$opponent.pgn" nice -n "${GATE_NICE:-0}" "$root/scripts/sprt.sh" "$CHARIOT" "$CHARIOT" \
        > "$dir/$opponent.txt" 2> "$dir/$opponent.log"
    cat "$dir/$opponent.txt"
    if ! grep -q 'H1 accepted' "$dir/$opponent.txt"; then
        echo "$name did not pass against the $opponent evaluation: see $dir/$opponent.txt" >&2
        status=1
        break
    fi
done
exit $status
