#!/usr/bin/env bash
# Scored training data on a Slurm cluster: a job array of SHARDS shards of one run, then a
# merge job that waits for them all (--dependency=afterany) and writes one file.
#
#   SHARDS=64 DIR=/shared/data/s7 scripts/cluster/slurm-datagen.sh --games 2000 --nodes 5000 --seed 7 \
#       --openings /shared/openings.txt
#
# The arguments are `chariot datagen --scored` options; --games/--positions count each shard's
# games (64 shards of --games 2000: games 0..128000 of seed 7, what one process making
# --games 128000 would make). Do not give --shard, --out or --concurrency: the array sets them
# (--concurrency from --cpus-per-task). Environment:
#   SHARDS   the number of shards (array tasks), required
#   DIR      the folder for the shard files, the merged file and the logs, on a filesystem every
#            node sees [./chariot-data]
#   OUT      the merged file [$DIR/merged.bin]
#   CHARIOT  the chariot binary, readable from every node [chariot on PATH, else this
#            checkout's target/release/chariot]
#   WAIT=1   wait until the merge is over and exit with its status (sbatch --wait)
#   EXTRA_SBATCH  more sbatch options for both jobs, split on spaces (e.g. "--partition=cpu
#            --time=4:00:00"); Slurm's own SBATCH_PARTITION, SBATCH_ACCOUNT, … work too
# Prints the two job ids. Rerun one failed shard K with the same options: the task resumes its
# file (docs/cluster.md).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
: "${SHARDS:?set SHARDS, the number of shards}"
if ! [[ "$SHARDS" =~ ^[1-9][0-9]*$ ]]; then
    echo "error: SHARDS=$SHARDS is not a positive whole number" >&2
    exit 2
fi
for arg in "$@"; do
    case "$arg" in
    --shard | --shard=* | --out | --out=* | --concurrency | --concurrency=*)
        echo "error: $arg is set by the array (see $0)" >&2
        exit 2
        ;;
    esac
done
CHARIOT=${CHARIOT:-$(command -v chariot || echo "$root/target/release/chariot")}
if [ ! -x "$CHARIOT" ]; then
    echo "error: $CHARIOT is not an executable file (set CHARIOT)" >&2
    exit 2
fi
CHARIOT=$(realpath "$CHARIOT")
DIR=$(realpath -m "${DIR:-chariot-data}")
mkdir -p "$DIR/logs"
export CHARIOT SHARDS DIR OUT

# Options common to both jobs: split on spaces on purpose.
# shellcheck disable=SC2206
extra=(${EXTRA_SBATCH:-})
array=$(sbatch --parsable "${extra[@]}" --array="1-$SHARDS" \
    --output="$DIR/logs/datagen-%A_%a.out" "$here/datagen-shard.sbatch" "$@")
array=${array%%;*}
echo "shards: job array $array (1-$SHARDS), logs in $DIR/logs"
wait=()
if [ "${WAIT:-0}" = 1 ]; then
    wait=(--wait)
fi
set +e
merge=$(sbatch --parsable "${extra[@]}" "${wait[@]}" --dependency="afterany:$array" \
    --output="$DIR/logs/datagen-merge-%j.out" "$here/datagen-merge.sbatch")
status=$?
set -e
merge=${merge%%;*}
echo "merge: job $merge, after $array, into ${OUT:-$DIR/merged.bin}"
exit "$status"
