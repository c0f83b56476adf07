#!/usr/bin/env bash
# A match on a Slurm cluster: a job array of SHARDS shards, each playing its share of the games
# (`chariot match … --shard K/SHARDS`), then a report job that waits for them all
# (--dependency=afterany) and prints the merged table (`chariot match report`).
#
#   SHARDS=50 DIR=/shared/matches/lmr scripts/cluster/slurm-match.sh \
#       --engine name=new,cmd=/shared/bin/chariot-new --engine name=old,cmd=/shared/bin/chariot-old \
#       --games 20000 --tc 10+0.1 --openings /shared/openings.txt --sprt elo0=0,elo1=5
#
# The arguments are `chariot match` options; --games is the whole match's (each shard plays
# every SHARDS-th game). Do not give --shard, --pgn, --resume or --concurrency: the array sets
# them. Environment:
#   SHARDS   the number of shards (array tasks), required
#   DIR      the folder for the PGN files, the report and the logs, on a filesystem every node
#            sees [./chariot-match]
#   CHARIOT  the chariot binary that runs the match, readable from every node [chariot on PATH,
#            else this checkout's target/release/chariot]
#   WAIT=1   wait until the report is written and exit with its status (sbatch --wait)
#   EXTRA_SBATCH  more sbatch options for both jobs, split on spaces; Slurm's own
#            SBATCH_PARTITION, SBATCH_ACCOUNT, … work too
# The engines' paths must be readable from every node too. Prints the two job ids.
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
    --shard | --shard=* | --pgn | --pgn=* | --resume | --concurrency | --concurrency=*)
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
DIR=$(realpath -m "${DIR:-chariot-match}")
mkdir -p "$DIR/logs"
export CHARIOT SHARDS DIR

# Options common to both jobs: split on spaces on purpose.
# shellcheck disable=SC2206
extra=(${EXTRA_SBATCH:-})
array=$(sbatch --parsable "${extra[@]}" --array="1-$SHARDS" \
    --output="$DIR/logs/match-%A_%a.out" "$here/match-shard.sbatch" "$@")
array=${array%%;*}
echo "shards: job array $array (1-$SHARDS), logs in $DIR/logs"
wait=()
if [ "${WAIT:-0}" = 1 ]; then
    wait=(--wait)
fi
set +e
report=$(sbatch --parsable "${extra[@]}" "${wait[@]}" --dependency="afterany:$array" \
    --output="$DIR/logs/match-report-%j.out" "$here/match-report.sbatch")
status=$?
set -e
report=${report%%;*}
echo "report: job $report, after $array, into $DIR/report.txt"
exit "$status"
