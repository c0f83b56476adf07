#!/usr/bin/env bash
# Training data from a borrowed many-core machine (one that runs a command over a copy of the
# repository and returns a few files): the current run's settings (datagen-current.sh) with a seed of its own, all
# cores but one for a fixed time, then the file checked, compressed and cut into pieces small
# enough to come back (at most 8 files of 16 MiB). Here, `unpack` joins the pieces, checks them
# and resumes the file, so that it ends on a whole game.
#
#   scripts/device-datagen.sh play ENGINE NAME SEED SECONDS OUTDIR   # there, OUTDIR=$OUT
#   scripts/device-datagen.sh unpack PIECES_DIR NAME SEED DEST_DIR    # here
#
# ENGINE must be the build that plays the current run ($DATA/<run>.engine), so that the file's
# settings are the run's; NAME and SEED must be new (docs/data.md lists the ones taken). The
# engine runs at the lowest priority, one game per core. Each file is recorded in docs/data.md.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/datagen-current.sh

# Pieces of the compressed file: under the 16 MiB a returned file may have.
piece_bytes=15000000

case "${1:-}" in
play)
    [ $# -eq 6 ] || { echo "usage: $0 play ENGINE NAME SEED SECONDS OUTDIR" >&2; exit 2; }
    engine=$2 name=$3 seed=$4 seconds=$5 out=$6
    [ -x "$engine" ] || { echo "error: $engine is not an executable file" >&2; exit 2; }
    command -v xz >/dev/null || { echo "error: xz is needed to compress the file" >&2; exit 2; }
    work=$(mktemp -d)
    concurrency=$(( $(nproc) > 1 ? $(nproc) - 1 : 1 ))
    status=0
    timeout "$seconds" nice -n 19 "$engine" datagen "${current_settings[@]}" --positions 50000000 \
        --concurrency "$concurrency" --seed "$seed" --out "$work/$name.bin" || status=$?
    # 124: the time ran out, as planned; anything else is a failure of the run.
    if [ "$status" -ne 0 ] && [ "$status" -ne 124 ]; then
        echo "error: datagen ended with status $status" >&2
        exit 1
    fi
    "$engine" datagen --stats "$work/$name.bin" > "$out/$name.stats"
    (cd "$work" && sha256sum "$name.bin") > "$out/$name.sha256"
    xz -T0 -6 -c "$work/$name.bin" | split -b "$piece_bytes" -d -a 1 - "$out/$name.bin.xz."
    pieces=$(ls "$out/$name.bin.xz."* | wc -l)
    if [ "$pieces" -gt 6 ]; then
        echo "error: $pieces pieces: more than come back (play for less time)" >&2
        exit 1
    fi
    cat "$out/$name.stats"
    echo "concurrency $concurrency, $pieces pieces"
    ;;
unpack)
    [ $# -eq 5 ] || { echo "usage: $0 unpack PIECES_DIR NAME SEED DEST_DIR" >&2; exit 2; }
    pieces=$2 name=$3 seed=$4 dest=$5
    [ ! -e "$dest/$name.bin" ] || { echo "error: $dest/$name.bin exists" >&2; exit 1; }
    engine=$(cat "$dest/$current_name.engine" 2>/dev/null || echo target/release/chariot)
    mkdir -p "$dest"
    tmp=$(mktemp -d "$dest/.unpack-$name.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
    cat "$pieces/$name.bin.xz."* | xz -d > "$tmp/$name.bin"
    cp "$pieces/$name.sha256" "$tmp/"
    (cd "$tmp" && sha256sum --quiet -c "$name.sha256")
    # A full check of every record and best move; then the resume cuts off the game that the
    # time limit interrupted, adding nothing (its target is already met).
    "$engine" datagen --stats "$tmp/$name.bin" > /dev/null
    "$engine" datagen "${current_settings[@]}" --positions 1 --seed "$seed" --out "$tmp/$name.bin" > /dev/null
    mv "$tmp/$name.bin" "$dest/$name.bin"
    "$engine" datagen --stats "$dest/$name.bin" --quick
    ;;
*)
    echo "usage: $0 play ENGINE NAME SEED SECONDS OUTDIR | unpack PIECES_DIR NAME SEED DEST_DIR" >&2
    exit 2
    ;;
esac
