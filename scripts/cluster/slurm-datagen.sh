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
# shellcheck source=scripts/cluster/submit.sh
. "$here/submit.sh"
check_common --shard --out --concurrency -- "$@"
find_chariot chariot-data
export CHARIOT SHARDS DIR OUT
submit datagen datagen-shard.sbatch datagen-merge.sbatch merge "${OUT:-$DIR/merged.bin}" "$@"
