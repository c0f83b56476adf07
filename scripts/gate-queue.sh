#!/usr/bin/env bash
# Plays a queue of search gates one after another (issue 58): each line of QUEUE names a gate,
# the build it gates and the candidate's `tune` values,
#
#   NAME BIN TUNE...        e.g.  cutoffs3-2s /path/to/chariot-edfac4f lmr_cutoffs=3
#
# ('#' starts a comment line), and each is played by `scripts/gate-search.sh NAME 'TUNE' DIR`
# with BIN copied into its folder first. A gate is passed over when its report already holds a
# verdict (H0, H1 or the cap) or when DIR/gate-NAME.skip exists; a gate that ends is marked so.
# The file is read again after each gate, so lines may be added, removed or reordered while the
# queue plays. Stop it by killing this script and the gate's match; run it again to resume: the
# unfinished gate resumes from its PGN.
#
#   scripts/gate-queue.sh QUEUE [DIR]
#
# DIR holds the gates' folders (default: the repository's parent's data/). Environment: TC (the
# gates' clock, default 2+0.02), CONCURRENCY (games at once, gate-search.sh's default 2: one per
# core), PLAY_SECONDS (stop after this many seconds of play: the gate then playing is stopped,
# left unmarked and resumes from its PGN on the next run; for a borrowed machine's fixed time),
# GATE (the script that plays one gate, default scripts/gate-search.sh). Exit status: 0 when the
# queue is empty or the time is up, 2 on a usage error or a line that names no build.
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    sed -n '2,20p' "$0" >&2
    exit 2
fi
queue=$1
root="$(cd "$(dirname "$0")/.." && pwd)"
dir=${2:-$root/../data}
gate=${GATE:-$root/scripts/gate-search.sh}
if [ ! -r "$queue" ]; then
    echo "error: cannot read the queue $queue" >&2
    exit 2
fi
play_seconds=${PLAY_SECONDS:-0}
if ! [[ $play_seconds =~ ^[0-9]+$ ]]; then
    echo "error: PLAY_SECONDS must be a whole number of seconds, not '$play_seconds'" >&2
    exit 2
fi
end=$((SECONDS + play_seconds))

decided() {
    grep -qE 'H[01] accepted|reached the cap' "$dir/gate-$1/report.txt" 2>/dev/null
}

while true; do
    next=""
    while read -r name bin tune; do
        case $name in '' | \#*) continue ;; esac
        if decided "$name" || [ -e "$dir/gate-$name.skip" ]; then
            continue
        fi
        next="$name $bin $tune"
        break
    done <"$queue"
    if [ -z "$next" ]; then
        echo "gate-queue: empty at $(date -u +%H:%M) UTC"
        exit 0
    fi
    read -r name bin tune <<<"$next"
    if [ -z "$tune" ] || [ ! -x "$bin" ]; then
        echo "error: the queue's line for $name needs an executable build and tune values: '$next'" >&2
        exit 2
    fi
    limit=()
    if [ "$play_seconds" -gt 0 ]; then
        left=$((end - SECONDS))
        if [ "$left" -le 0 ]; then
            echo "gate-queue: the time is up at $(date -u +%H:%M) UTC; $name waits"
            exit 0
        fi
        # timeout signals the gate's whole process group: the match stops with its games.
        limit=(timeout -k 10 "$left")
    fi
    echo "gate-queue: $name ($tune) with $bin from $(date -u +%H:%M) UTC"
    mkdir -p "$dir/gate-$name"
    if [ ! -x "$dir/gate-$name/chariot" ]; then
        cp "$bin" "$dir/gate-$name/chariot.tmp" && mv "$dir/gate-$name/chariot.tmp" "$dir/gate-$name/chariot"
    fi
    status=0
    TC=${TC:-2+0.02} "${limit[@]}" "$gate" "$name" "$tune" "$dir" >>"$dir/gate-$name.log" 2>&1 || status=$?
    if [ "$status" -eq 124 ] && [ "$play_seconds" -gt 0 ]; then
        echo "gate-queue: the time is up at $(date -u +%H:%M) UTC; $name paused, resumable"
        exit 0
    fi
    echo "gate-queue: $name ended with status $status at $(date -u +%H:%M) UTC"
    # A gate that failed to play (status 3 and above) is marked too, so that the queue goes on.
    touch "$dir/gate-$name.skip"
done
