#!/usr/bin/env bash
# Runs, or resumes, an SPSA tuning of Chariot's search parameters against itself (docs/spsa.md):
# the parameters of a file, one `NAME=START,MIN,MAX,C_END[,R_END]` a line (`#` starts a
# comment), through the engine's `tune` option, with the gates' openings, random plies and
# adjudication, books off. The build is copied into DIR on the first run, so that a rebuild
# cannot change the engine mid-run (the state file's fingerprint counts the program's bytes);
# the state (`DIR/state.spsa`) and a line a pair (`DIR/pairs.log`) stay there, and the same
# command resumes the run. `FROM=docs/spsa/runs/NAME` starts an empty DIR from a run kept in
# the repository by scripts/spsa-archive.sh (on another machine, say), once BIN is a build of
# the same program: its checksum must match the one kept there. `ARCHIVE=NAME` keeps the run
# there as it goes: every ARCHIVE_EVERY seconds (600) and when it stops, however it stops.
#
#   scripts/spsa-run.sh PARAMS DIR
#
# Environment: BIN (the build to tune; default this checkout's release build), TC (2+0.02),
# ITERATIONS (3000), CONCURRENCY (2), SEED (1), ARCHIVE, ARCHIVE_EVERY, RUNS (the archive's
# folder, as scripts/spsa-archive.sh). Exit status: chariot spsa's (0 when the run finished; 2
# when it refused to start, with why on stderr).
set -euo pipefail
if [ $# -ne 2 ]; then
    sed -n '2,19p' "$0" >&2
    exit 2
fi
params=$1
dir=$2
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ ! -r "$params" ]; then
    echo "error: cannot read the parameters file $params" >&2
    exit 2
fi
param_args=()
while IFS= read -r line || [ -n "$line" ]; do
    line=${line%%#*}
    line=$(echo "$line" | tr -d '[:space:]')
    [ -n "$line" ] && param_args+=(--param "$line")
done < "$params"
if [ ${#param_args[@]} -eq 0 ]; then
    echo "error: $params names no parameter" >&2
    exit 2
fi
mkdir -p "$dir"
if [ ! -x "$dir/chariot" ]; then
    if [ -z "${BIN:-}" ]; then
        cargo build --release --manifest-path "$root/Cargo.toml" >&2
    fi
    bin=${BIN:-$root/target/release/chariot}
    cp "$bin" "$dir/chariot.tmp" && mv "$dir/chariot.tmp" "$dir/chariot"
fi
if [ -n "${FROM:-}" ] && [ ! -f "$dir/state.spsa" ]; then
    for file in state.spsa pairs.log.xz program.sha256; do
        if [ ! -f "$FROM/$file" ]; then
            echo "error: $FROM holds no $file: not a run kept by scripts/spsa-archive.sh" >&2
            exit 2
        fi
    done
    want=$(cut -d' ' -f1 "$FROM/program.sha256")
    have=$(sha256sum "$dir/chariot" | cut -d' ' -f1)
    if [ "$want" != "$have" ]; then
        rm -f "$dir/chariot"
        echo "error: $FROM was played by the program $want; $dir/chariot is $have (build the commit named in docs/spsa.md)" >&2
        exit 2
    fi
    xz -dc "$FROM/pairs.log.xz" > "$dir/pairs.log.tmp"
    cp "$FROM/state.spsa" "$dir/state.spsa.tmp"
    mv "$dir/pairs.log.tmp" "$dir/pairs.log"
    mv "$dir/state.spsa.tmp" "$dir/state.spsa"
fi
resume=()
if [ -f "$dir/state.spsa" ]; then
    resume=(--resume)
fi
spsa=("$dir/chariot" spsa
    --engine "cmd=$dir/chariot,option.usebook=false" --tune-option tune
    "${param_args[@]}"
    --iterations "${ITERATIONS:-3000}" --tc "${TC:-2+0.02}" --concurrency "${CONCURRENCY:-2}"
    --seed "${SEED:-1}"
    --openings "$root/tests/data/openings.txt" --random-plies 2
    --draw movenumber=40,movecount=8,score=10 --resign movecount=4,score=800
    --state "$dir/state.spsa" --log "$dir/pairs.log" "${resume[@]}")
if [ -z "${ARCHIVE:-}" ]; then
    exec "${spsa[@]}"
fi
archive() { "$root/scripts/spsa-archive.sh" "$dir" "$ARCHIVE" >&2 || true; }
"${spsa[@]}" &
tuner=$!
# Stopped from outside (the whole group, as docs/spsa.md says, or this script alone), the tuner
# ends its pairs' games, and the run is kept as it stands.
trap 'kill -TERM "$tuner" 2>/dev/null' TERM INT HUP
every=${ARCHIVE_EVERY:-600}
next=$((SECONDS + every))
while kill -0 "$tuner" 2>/dev/null; do
    sleep 1
    if [ "$SECONDS" -ge "$next" ]; then
        archive
        next=$((SECONDS + every))
    fi
done
status=0
wait "$tuner" || status=$?
archive
exit "$status"
