#!/usr/bin/env bash
# Keeps an SPSA run's progress in the repository, so that it resumes on any machine: DIR's
# state file, its log of pairs (compressed) and the checksum of the program it tunes go to
# docs/spsa/runs/NAME/ (state.spsa, pairs.log.xz, program.sha256), each written whole (a
# temporary file, then a rename). `FROM=docs/spsa/runs/NAME scripts/spsa-run.sh PARAMS DIR`
# starts from them again in an empty DIR, once the same commit is built: a release build of
# one commit with one toolchain is the same program byte for byte, wherever it is built, and
# the state's fingerprint counts the program's bytes.
#
#   scripts/spsa-archive.sh DIR NAME
#
# Environment: RUNS (the folder, default docs/spsa/runs), TRIES (10). A state file and a log that still
# disagree on the pairs played after TRIES tries a second apart fail the script.
set -euo pipefail

if [ $# -ne 2 ]; then
    sed -n '2,13p' "$0" >&2
    exit 2
fi
dir=$1
name=$2
root="$(cd "$(dirname "$0")/.." && pwd)"
runs=${RUNS:-$root/docs/spsa/runs}
for file in state.spsa pairs.log chariot; do
    if [ ! -f "$dir/$file" ]; then
        echo "error: $dir holds no $file: not an SPSA run's folder" >&2
        exit 2
    fi
done
case $name in
    */* | .* | "")
        echo "error: NAME must be a plain name, not $name" >&2
        exit 2
        ;;
esac
out="$runs/$name"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The state and the log are copied until they agree on the pairs played: the run may write
# between the two copies. The log keeps only whole lines.
tries=0
while :; do
    cp "$dir/state.spsa" "$work/state.spsa"
    cp "$dir/pairs.log" "$work/pairs.log"
    lines=$(grep -c '' "$work/pairs.log" || true)
    if [ -s "$work/pairs.log" ] && [ -n "$(tail -c 1 "$work/pairs.log")" ]; then
        lines=$((lines - 1))
    fi
    done_pairs=$(awk '$1 == "done" { print $2 }' "$work/state.spsa")
    if [ -z "$done_pairs" ]; then
        echo "error: $dir/state.spsa has no \"done\" line" >&2
        exit 1
    fi
    [ "$done_pairs" = "$lines" ] && break
    tries=$((tries + 1))
    if [ $tries -ge "${TRIES:-10}" ]; then
        echo "error: the state says $done_pairs pairs and the log holds $lines" >&2
        exit 1
    fi
    sleep 1
done
head -n "$lines" "$work/pairs.log" > "$work/pairs.whole"
xz -9 -c "$work/pairs.whole" > "$work/pairs.log.xz"
(cd "$dir" && sha256sum chariot) > "$work/program.sha256"
# The folder is made only now: a refused archive leaves nothing behind.
mkdir -p "$out"
for file in state.spsa pairs.log.xz program.sha256; do
    cp "$work/$file" "$out/$file.tmp.$$"
    mv "$out/$file.tmp.$$" "$out/$file"
done
echo "$name: $done_pairs pairs, $(wc -c < "$out/pairs.log.xz") bytes of log, program $(cut -c1-16 "$out/program.sha256")…"
