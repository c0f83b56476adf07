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
# shellcheck source=scripts/cluster/submit.sh
. "$here/submit.sh"
check_common --shard --pgn --resume --concurrency -- "$@"
find_chariot chariot-match
export CHARIOT SHARDS DIR
submit match match-shard.sbatch match-report.sbatch report "$DIR/report.txt" "$@"
