#!/usr/bin/env bash
# Runs the project's current training-data generation in the background at the lowest priority,
# and pauses or resumes it around timing-sensitive work (matches, CI-like test runs):
#
#   scripts/datagen-background.sh start     # build a pinned copy of the engine if needed, start
#   scripts/datagen-background.sh pause     # SIGSTOP: before a match or a timed test run
#   scripts/datagen-background.sh resume    # SIGCONT
#   scripts/datagen-background.sh stop      # end it; `start` resumes the file where it ends
#   scripts/datagen-background.sh status    # running or not, and what the file holds
#   scripts/datagen-background.sh upgrade BUILD
#                                           # a faster build with the same bench node count
#                                           # (so the same games) takes over the run
#
# The run is the one docs/data.md names as current (RUN below); a file that is already there is
# resumed, so a session that was stopped loses at most the games in progress. The engine is
# copied to $DATA/chariot-<commit> when the run begins and named in $DATA/<run>.engine; the run
# always resumes with it, so that a later commit (another net, another win-rate model) does not
# change the program mid-run (the file's settings fingerprint would refuse it anyway).
#
# Environment: DATA (the folder for data files) [/work/data], CONCURRENCY [2].
set -euo pipefail
self="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
cd "$(dirname "$0")/.."

data=${DATA:-/work/data}
concurrency=${CONCURRENCY:-2}
# The current run (docs/data.md), its name, seed and settings in datagen-current.sh.
source scripts/datagen-current.sh
name=$current_name
run=(datagen "${current_settings[@]}" --positions 50000000 --concurrency "$concurrency" --seed "$current_seed"
    --out "$data/$name.bin")

pids() { pgrep -f -- "datagen .*--out $data/$name.bin" || true; }

case "${1:-}" in
start)
    if [ -n "$(pids)" ]; then
        echo "already running: $(pids | tr '\n' ' ')"
        exit 0
    fi
    mkdir -p "$data"
    # A run resumes with the engine that began it (recorded in $data/$name.engine): a later
    # commit may carry another net or win-rate model, whose games the file's settings
    # fingerprint would refuse.
    engine=$(cat "$data/$name.engine" 2>/dev/null || true)
    if [ -z "$engine" ] || [ ! -x "$engine" ]; then
        engine="$data/chariot-$(git rev-parse --short HEAD)"
        if [ ! -x "$engine" ]; then
            cargo build --release
            cp target/release/chariot "$engine"
        fi
        echo "$engine" > "$data/$name.engine"
    fi
    # A session of its own: started from a shell whose process group is later orphaned (a
    # terminal or tool call that ends), a paused run would get the kernel's SIGHUP and SIGCONT
    # and go on beside the match that paused it.
    setsid nohup nice -n 19 "$engine" "${run[@]}" >> "$data/$name.log" 2>&1 < /dev/null &
    # Its own session is its own scheduling group, which the kernel weighs as a whole against
    # the others whatever the nice value inside it: lower the group too, where the kernel has
    # them, or the run takes half the machine from a match started in another session.
    # (Once `setsid` has made the session: before that the group is this script's.)
    pid=$!
    for _ in $(seq 50); do
        [ "$(ps -o sid= -p "$pid" 2>/dev/null | tr -d ' ')" = "$pid" ] && break
        sleep 0.02
    done
    if [ -w "/proc/$pid/autogroup" ]; then
        echo 19 > "/proc/$pid/autogroup" 2>/dev/null || true
    fi
    echo "started $name with $engine (pid $pid), log $data/$name.log"
    ;;
pause | resume | stop)
    signal=$([ "$1" = pause ] && echo STOP || { [ "$1" = resume ] && echo CONT || echo TERM; })
    found=$(pids)
    if [ -z "$found" ]; then
        echo "$name is not running"
        exit 1
    fi
    # A stopped process must be continued to act on TERM.
    [ "$1" = stop ] && kill -CONT $found
    kill -"$signal" $found
    echo "$1: $name ($found)"
    ;;
status)
    found=$(pids)
    if [ -n "$found" ]; then
        state=$(ps -o stat= -p "$(echo "$found" | head -n 1)" | tr -d ' ')
        case "$state" in T*) what=paused ;; *) what=running ;; esac
        echo "$name: $what (pid $(echo "$found" | tr '\n' ' ' | sed 's/ $//'))"
    else
        echo "$name: not running"
    fi
    # Any build reads the file; the newest pinned copy is there even without a checkout build.
    reader=$(ls -t "$data"/chariot-* target/release/chariot 2>/dev/null | head -n 1 || true)
    if [ -f "$data/$name.bin" ] && [ -n "$reader" ]; then
        "$reader" datagen --stats "$data/$name.bin" --quick | sed -n 1,2p
    fi
    ;;
upgrade)
    # A build that searches the same trees (the bench's node count and the built-in net are the
    # search's and evaluation's signature) plays the same games faster; the file's settings
    # fingerprint still refuses a build whose datagen settings or net differ.
    build=${2:-}
    old=$(cat "$data/$name.engine" 2>/dev/null || true)
    if [ -z "$build" ] || [ ! -x "$build" ]; then
        echo "upgrade: no executable build named ('$build')" >&2
        exit 2
    fi
    if [ -z "$old" ] || [ ! -x "$old" ]; then
        echo "upgrade: $name has no engine yet ($data/$name.engine): start it first" >&2
        exit 2
    fi
    signature() { "$1" bench 2>&1 | sed -n 's/^Nodes searched: *//p' | tail -n 1; }
    before=$(signature "$old")
    after=$(signature "$build")
    if [ -z "$before" ] || [ "$before" != "$after" ]; then
        echo "upgrade: refused: $build's bench searches '${after:-nothing}' nodes, $old's '${before:-nothing}'" >&2
        exit 2
    fi
    pinned="$data/chariot-$(sha256sum "$build" | cut -c1-12)"
    [ -x "$pinned" ] || cp "$build" "$pinned"
    was_running=$([ -n "$(pids)" ] && echo yes || echo no)
    if [ "$was_running" = yes ]; then
        "$self" stop >/dev/null
        while [ -n "$(pids)" ]; do sleep 1; done
    fi
    echo "$pinned" > "$data/$name.engine"
    echo "upgrade: $name now runs $pinned (bench $after nodes, as $old)"
    if [ "$was_running" = yes ]; then exec "$self" start; fi
    ;;
*)
    echo "usage: $0 start|pause|resume|stop|status|upgrade BUILD" >&2
    exit 2
    ;;
esac
