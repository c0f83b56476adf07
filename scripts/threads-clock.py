#!/usr/bin/env python3
"""Does the engine keep its clock with far more threads than cores?

Plays MOVES moves of one game (the engine against itself) with `Threads THREADS`, each move
searched with 1 s left on the clock (`go wtime 1000 btime 1000`): a move answered after more than
1 s would lose on time. Then measures how long `stop` takes, after STOPS searches of `go infinite`
stopped at random moments. Prints the overruns and the stop latencies.

    scripts/threads-clock.py [--engine target/release/chariot] [--threads 256] [--moves 20]
                             [--stops 20] [--seed 1]

Run it on an otherwise quiet machine; it is a measurement, not a test.
"""

import argparse
import random
import statistics
import subprocess
import sys
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default="target/release/chariot")
    parser.add_argument("--threads", type=int, default=256)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--stops", type=int, default=20)
    parser.add_argument("--clock-ms", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    engine = subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def wait_for(prefix):
        while True:
            line = engine.stdout.readline()
            if not line:
                sys.exit(f"the engine closed its output waiting for {prefix!r}")
            if line.startswith(prefix):
                return line.strip()

    send("uci")
    wait_for("uciok")
    send(f"setoption name Threads value {args.threads}")
    send("setoption name OwnBook value false")
    send("isready")
    wait_for("readyok")

    moves, times = [], []
    for _ in range(args.moves):
        send("position startpos moves " + " ".join(moves) if moves else "position startpos")
        started = time.monotonic()
        send(f"go wtime {args.clock_ms} btime {args.clock_ms}")
        best = wait_for("bestmove").split()
        times.append((time.monotonic() - started) * 1000)
        if len(best) < 2 or best[1] == "(none)":
            break
        moves.append(best[1])

    stops = []
    for _ in range(args.stops):
        send("position startpos moves " + " ".join(moves[:4]))
        send("go infinite")
        time.sleep(rng.uniform(0.05, 0.5))
        started = time.monotonic()
        send("stop")
        wait_for("bestmove")
        stops.append((time.monotonic() - started) * 1000)
    send("quit")
    engine.wait(timeout=10)

    over = [t - args.clock_ms for t in times if t > args.clock_ms]
    print(f"Threads {args.threads}, {len(times)} moves with {args.clock_ms} ms on the clock:")
    print(f"  move times: median {statistics.median(times):.0f} ms, longest {max(times):.0f} ms")
    print(f"  overruns: {len(over)} of {len(times)}" + (f", by up to {max(over):.0f} ms" if over else ""))
    print(f"  stop: median {statistics.median(stops):.1f} ms, longest {max(stops):.1f} ms over {len(stops)} stops")


if __name__ == "__main__":
    main()
