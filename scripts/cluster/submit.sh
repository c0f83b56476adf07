# Sourced by slurm-match.sh and slurm-datagen.sh: what the two submitters share. Not run alone.

# check_common REFUSED_OPTION… -- ARG…: SHARDS must be a positive whole number, and no ARG may be
# one of the options the array sets.
check_common() {
    : "${SHARDS:?set SHARDS, the number of shards}"
    if ! [[ "$SHARDS" =~ ^[1-9][0-9]*$ ]]; then
        echo "error: SHARDS=$SHARDS is not a positive whole number" >&2
        exit 2
    fi
    local refused=()
    while [ "$1" != -- ]; do
        refused+=("$1")
        shift
    done
    shift
    local arg option
    for arg in "$@"; do
        for option in "${refused[@]}"; do
            if [ "$arg" = "$option" ] || [[ "$arg" == "$option"=* ]]; then
                echo "error: $arg is set by the array (see $0)" >&2
                exit 2
            fi
        done
    done
}

# find_chariot DEFAULT_DIR: sets CHARIOT (checked, absolute) and DIR (made, with DIR/logs).
find_chariot() {
    CHARIOT=${CHARIOT:-$(command -v chariot || echo "$root/target/release/chariot")}
    if [ ! -x "$CHARIOT" ]; then
        echo "error: $CHARIOT is not an executable file (set CHARIOT)" >&2
        exit 2
    fi
    CHARIOT=$(realpath "$CHARIOT")
    DIR=$(realpath -m "${DIR:-$1}")
    mkdir -p "$DIR/logs"
}

# submit KIND SHARD_SCRIPT FOLLOW_SCRIPT FOLLOW_NAME WHERE ARG…: the job array of SHARDS tasks
# running SHARD_SCRIPT ARG…, then FOLLOW_SCRIPT once they have all ended (afterany); prints both
# job ids. With WAIT=1 waits for the second job and exits with its status.
submit() {
    local kind=$1 shard_script=$2 follow_script=$3 follow_name=$4 where=$5
    shift 5
    # Options common to both jobs: split on spaces on purpose.
    # shellcheck disable=SC2206
    local extra=(${EXTRA_SBATCH:-})
    local array follow status
    array=$(sbatch --parsable "${extra[@]}" --array="1-$SHARDS" \
        --output="$DIR/logs/$kind-%A_%a.out" "$here/$shard_script" "$@")
    array=${array%%;*}
    echo "shards: job array $array (1-$SHARDS), logs in $DIR/logs"
    local wait=()
    if [ "${WAIT:-0}" = 1 ]; then
        wait=(--wait)
    fi
    set +e
    follow=$(sbatch --parsable "${extra[@]}" "${wait[@]}" --dependency="afterany:$array" \
        --output="$DIR/logs/$kind-$follow_name-%j.out" "$here/$follow_script")
    status=$?
    set -e
    follow=${follow%%;*}
    echo "$follow_name: job $follow, after $array, into $where"
    exit "$status"
}
