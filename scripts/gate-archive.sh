#!/usr/bin/env bash
# Keeps a gate's evidence in the repository: each PGN of a gate's folder is compressed into
# docs/gates/NAME-OPPONENT-KKK.pgn.xz, in parts of PART games (default 400: about 400 KB each,
# well under the 1 MB a file may take), each written whole (a temporary file, then a rename). Only
# the last part changes as a gate grows, so a commit every hour adds little to the history.
# scripts/gate-net.sh joins the parts again when its folder has no PGN, so a gate resumes on any
# machine with the same build, and its games stay beside its verdict.
#
#   scripts/gate-archive.sh DIR [NAME]
#
# DIR is the gate's folder (builtin.pgn, classic.pgn, …), NAME the gate's name (default: DIR's
# name less a leading `gate-`). A part that would pass 1 MB compressed is not written and the script
# fails. Environment: GATES (the folder, default docs/gates), PART.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 DIR [NAME]" >&2
    exit 2
fi
dir=$1
if [ ! -d "$dir" ]; then
    echo "error: no gate folder $dir" >&2
    exit 2
fi
name=${2:-$(basename "$dir")}
name=${name#gate-}
root="$(cd "$(dirname "$0")/.." && pwd)"
gates=${GATES:-$root/docs/gates}
part=${PART:-400}
mkdir -p "$gates"
limit=$((1024 * 1024))
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

status=0
found=no
for pgn in "$dir"/*.pgn; do
    [ -f "$pgn" ] || continue
    found=yes
    base="$name-$(basename "$pgn" .pgn)"
    # A snapshot that ends with the last whole game: the match may be writing the next one.
    snap="$work/$base.snapshot"
    cp "$pgn" "$snap"
    whole=$(awk '/^$/ && prev ~ /(^| )(1-0|0-1|1\/2-1\/2|\*)$/ { last = NR } { prev = $0 } END { print last + 0 }' "$snap")
    head -n "$whole" "$snap" > "$snap.whole"
    mv "$snap.whole" "$snap"
    pgn_games=$(grep -c '^\[Event ' "$snap" || true)
    # Split before every PART-th `[Event ` line: part 1 holds games 1..PART, and so on.
    awk -v part="$part" -v out="$work/$base" '
        /^\[Event / { if (games % part == 0) { if (file) close(file); file = sprintf("%s-%03d.pgn", out, games / part + 1) } games++ }
        file { print > file }
    ' "$snap"
    for piece in "$work/$base"-*.pgn; do
        [ -f "$piece" ] || continue
        out="$gates/$(basename "$piece").xz"
        xz -9 -c "$piece" > "$out.tmp.$$"
        size=$(stat -c %s "$out.tmp.$$")
        if [ "$size" -gt "$limit" ]; then
            rm -f "$out.tmp.$$"
            echo "error: $(basename "$out") would take $size bytes, over 1 MB: lower PART" >&2
            status=1
            continue
        fi
        if cmp -s "$out.tmp.$$" "$out"; then rm -f "$out.tmp.$$"; else mv "$out.tmp.$$" "$out"; fi
    done
    # The joined parts must give back the snapshot byte for byte, or the archive is not trusted.
    if ! cmp -s <(cat "$gates/$base"-[0-9][0-9][0-9].pgn.xz | xz -dc) "$snap"; then
        echo "error: the parts of $base do not give back $pgn" >&2
        status=1
    fi
    echo "$base: $pgn_games games in $(ls "$gates/$base"-[0-9][0-9][0-9].pgn.xz | wc -l) part(s), $(cat "$gates/$base"-[0-9][0-9][0-9].pgn.xz | wc -c) bytes"
done
if [ $found = no ]; then
    echo "error: $dir holds no PGN" >&2
    exit 1
fi
exit $status
