#!/usr/bin/env bash
# The cluster recipes on a real Slurm: a one-node cluster started in a temporary folder (munged,
# slurmctld, slurmd, all as root), then
#   1. slurm-datagen.sh: a 2-shard data array and its merge job; the merged file must be the
#      file one process makes of the same games, byte for byte;
#   2. slurm-match.sh: a 4-shard match array and its report job; the report's table must be the
#      one `chariot match report` gives of a single-process match of the same games.
# Every daemon it started is stopped by its process id when it exits (whatever the outcome),
# the folder is removed, and it fails if a process of its cluster is left.
#
#   scripts/cluster/slurm-smoke.sh            # as root; installs slurm-wlm and munge if missing
#   SMOKE_DATA_ONLY=1 scripts/cluster/slurm-smoke.sh   # without the match part
#
# The match part needs `chariot match --shard`; a build without it fails here unless
# SMOKE_DATA_ONLY=1. CHARIOT names the binary to test (default: this checkout's release build,
# built if missing). Prints the time it took.
set -euo pipefail

started=$SECONDS
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

say() { echo "slurm-smoke: $*"; }
fail() {
    echo "slurm-smoke: FAILED: $*" >&2
    exit 1
}

if [ "$(id -u)" != 0 ]; then
    fail "run as root (the daemons and the jobs run as root)"
fi
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null ||
    ! command -v munged >/dev/null; then
    say "installing slurm-wlm and munge"
    apt-get install -y slurm-wlm munge >/dev/null || {
        apt-get update >/dev/null
        apt-get install -y slurm-wlm munge >/dev/null
    } || fail "cannot install slurm-wlm and munge"
fi

if [ -z "${CHARIOT:-}" ]; then
    CHARIOT="$root/target/release/chariot"
    if [ ! -x "$CHARIOT" ]; then
        cargo build --release --manifest-path "$root/Cargo.toml" >&2
    fi
fi
CHARIOT=$(realpath "$CHARIOT")
[ -x "$CHARIOT" ] || fail "$CHARIOT is not an executable file"

# The match part runs only with a chariot that shards matches; without one the script fails
# unless it was told to test the data part alone.
match_part=1
if ! "$CHARIOT" match --help | grep -q -- --shard; then
    say "match part skipped: no --shard"
    match_part=0
    if [ "${SMOKE_DATA_ONLY:-0}" != 1 ]; then
        fail "chariot match has no --shard (set SMOKE_DATA_ONLY=1 to test the data part alone)"
    fi
fi

tmp=$(mktemp -d /tmp/chariot-slurm-smoke.XXXXXX)
# munged wants every folder above its socket searchable by all.
chmod 755 "$tmp"
pids=()

# Processes of this cluster: ours are the daemons started here and whatever runs with this
# cluster's configuration in its environment (slurmstepd, the jobs and their engines).
own_processes() {
    local dir pid
    for dir in /proc/[0-9]*; do
        pid=${dir#/proc/}
        [ "$pid" = $$ ] && continue
        if grep -qsF "SLURM_CONF=$tmp/slurm.conf" "$dir/environ" 2>/dev/null; then
            echo "$pid"
        fi
    done
}

cleanup() {
    local status=$? pid left
    trap - EXIT
    set +e
    # Jobs still queued or running are cancelled while slurmctld (the second daemon) is up.
    if [ ${#pids[@]} -ge 2 ] && kill -0 "${pids[1]}" 2>/dev/null; then
        timeout 20 scancel --quiet --user=root >/dev/null 2>&1
        sleep 1
    fi
    # Stop the daemons, newest first, by their process ids, and wait for each.
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        pid=${pids[i]}
        if kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null
            for _ in $(seq 50); do
                kill -0 "$pid" 2>/dev/null || break
                sleep 0.1
            done
            kill -9 "$pid" 2>/dev/null
        fi
        wait "$pid" 2>/dev/null
    done
    # Job steps that outlived slurmd: stopped by id, and the run fails.
    left=$(own_processes)
    if [ -n "$left" ]; then
        echo "slurm-smoke: processes of the test cluster left after its daemons stopped:" >&2
        for pid in $left; do
            echo "  $pid $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" >&2
            kill -9 "$pid" 2>/dev/null
        done
        status=1
    fi
    if [ "$status" != 0 ] && [ -d "$tmp/log" ]; then
        for log in "$tmp"/log/*.log; do
            echo "--- $log (last lines)" >&2
            tail -n 15 "$log" >&2
        done
    fi
    rm -rf "$tmp"
    if [ -e "$tmp" ]; then
        echo "slurm-smoke: cannot remove $tmp" >&2
        status=1
    fi
    left=$(own_processes)
    if [ -n "$left" ]; then
        echo "slurm-smoke: processes still running: $left" >&2
        status=1
    fi
    if [ "$status" = 0 ]; then
        echo "slurm-smoke: passed in $((SECONDS - started)) s"
    else
        echo "slurm-smoke: failed after $((SECONDS - started)) s" >&2
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$tmp"/{munge,state,spool,log,run,work}

# A free TCP port from a random start: nothing answers on it.
free_port() {
    local port=$((20000 + RANDOM % 20000))
    while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
        port=$((port + 1))
    done
    echo "$port"
}

# munge: a fresh key, the daemon in the foreground (so that its id is ours), its socket here.
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
munged --foreground --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/munge.sock" \
    --pid-file="$tmp/run/munged.pid" --log-file="$tmp/log/munged.log" \
    --seed-file="$tmp/munge/munged.seed" 2>"$tmp/log/munged.log" &
pids+=($!)
for _ in $(seq 50); do
    [ -S "$tmp/munge/munge.sock" ] && break
    sleep 0.1
done
[ -S "$tmp/munge/munge.sock" ] || fail "munged did not start"

host=$(hostname -s)
ctld_port=$(free_port)
slurmd_port=$(free_port)
if [ "$slurmd_port" = "$ctld_port" ]; then
    slurmd_port=$((ctld_port + 1))
fi
cat >"$tmp/slurm.conf" <<CONF
ClusterName=chariot-smoke
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/run/slurmctld.pid
SlurmdPidFile=$tmp/run/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
MailProg=/bin/true
MinJobAge=600
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=1024 State=UNKNOWN
PartitionName=smoke Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$tmp/slurm.conf"
# The jobs inherit this environment; no sbatch option from the caller's leaks in.
unset SBATCH_PARTITION SBATCH_ACCOUNT SBATCH_TIMELIMIT EXTRA_SBATCH

slurmctld -D -i -f "$SLURM_CONF" >>"$tmp/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >>"$tmp/log/slurmd.out" 2>&1 &
pids+=($!)
say "one-node cluster $host: slurmctld on port $ctld_port, slurmd on $slurmd_port, in $tmp"
state=""
for _ in $(seq 120); do
    state=$(sinfo -h -N -o %T 2>/dev/null | head -n 1 || true)
    [ "$state" = idle ] && break
    sleep 0.5
done
[ "$state" = idle ] || fail "the node is not idle after 60 s (state: ${state:-none})"
say "node idle after $((SECONDS - started)) s"

# The state of job $1 as scontrol gives it (JobState=…, ExitCode=…), for the messages.
job_state() {
    scontrol show job "$1" 2>/dev/null | grep -oE '(JobState|ExitCode)=[^ ]+' | tr '\n' ' '
}

# 1. Data: 2 shards of 2 games, merged, against one process making the same 4 games.
data_opts=(--games 2 --nodes 300 --random-plies 4 --hash 1 --seed 11)
data="$tmp/work/data"
out=$(SHARDS=2 DIR="$data" CHARIOT="$CHARIOT" WAIT=1 EXTRA_SBATCH="--cpus-per-task=1" \
    "$here/slurm-datagen.sh" "${data_opts[@]}") || {
    echo "$out"
    cat "$data"/logs/* >&2 2>/dev/null || true
    fail "the data array or its merge failed"
}
echo "$out"
merge_job=$(echo "$out" | sed -n 's/^merge: job \([0-9]*\).*/\1/p')
say "merge job $merge_job: $(job_state "$merge_job")"
cat "$data"/logs/datagen-merge-*.out
"$CHARIOT" datagen --scored --games 4 --nodes 300 --random-plies 4 --hash 1 --seed 11 \
    --out "$tmp/work/single.bin" >/dev/null
cmp "$data/merged.bin" "$tmp/work/single.bin" ||
    fail "the merged shards differ from one process's file"
for k in 1 2; do
    [ "$(head -c 14 "$data/shard-$k-of-2.bin" | tail -c 2 | od -An -tu2 | tr -d ' ')" = 2 ] ||
        fail "shard $k is not a version 2 (shard) file"
done
say "data: merged 2 shards = one process's file, byte for byte ($(stat -c %s "$data/merged.bin") bytes)"

# 2. Match: 4 shards of a 8-game match at fixed nodes, the report against one process's.
if [ "$match_part" = 1 ]; then
    match_opts=(--engine "name=a,cmd=$CHARIOT" --engine "name=b,cmd=$CHARIOT,option.Hash=2"
        --games 8 --nodes 300 --openings "$root/tests/data/openings.txt")
    match="$tmp/work/match"
    out=$(SHARDS=4 DIR="$match" CHARIOT="$CHARIOT" WAIT=1 EXTRA_SBATCH="--cpus-per-task=1" \
        "$here/slurm-match.sh" "${match_opts[@]}") || {
        echo "$out"
        cat "$match"/logs/* >&2 2>/dev/null || true
        fail "the match array or its report failed"
    }
    echo "$out"
    cat "$match/report.txt"
    "$CHARIOT" match "${match_opts[@]}" --pgn "$tmp/work/single.pgn" >/dev/null
    "$CHARIOT" match report "$tmp/work/single.pgn" >"$tmp/work/single-report.txt" ||
        fail "chariot match report refused the single-process PGN"
    # The tables without the lines that name files, and without how many files the games came
    # from (4 shards against 1).
    table() { grep -v -e "$tmp" "$1" | sed -E 's/ from [0-9]+ files? / /'; }
    if ! diff <(table "$match/report.txt") <(table "$tmp/work/single-report.txt"); then
        fail "the merged report differs from the single-process match's"
    fi
    say "match: 4 shards' report = one process's"
fi
