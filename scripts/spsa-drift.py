#!/usr/bin/env python3
"""How far each parameter of an SPSA run has moved, against how far it would have wandered with
no slope at all (docs/spsa.md, "How many pairs a parameter needs").

    scripts/spsa-drift.py PARAMS STATE LOG

PARAMS is the run's parameters file (scripts/spsa-run.sh's), STATE its state file (for the
iterations planned) and LOG its pairs log (`chariot spsa --log`). For each parameter: its start,
its value now, the move, the standard deviation of a walk with the same steps and the results'
own spread, and the move in those units (z). With many parameters a |z| near 2 comes by chance
to one of them; a move that keeps its sign and grows past 3 is a slope. The last line is the values
now, rounded, as a `tune` list (`tune now: NAME=V …`) for a gate before the run ends.
"""
import math
import sys


def fail(message):
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def read_params(path):
    params = []
    for line in open(path, encoding="utf-8"):
        line = line.split("#")[0].strip().replace(" ", "")
        if not line:
            continue
        name, _, numbers = line.partition("=")
        fields = [float(x) for x in numbers.split(",")]
        if len(fields) not in (4, 5):
            fail(f"{path}: '{line}' is not NAME=START,MIN,MAX,C_END[,R_END]")
        start, _, _, c_end = fields[:4]
        r_end = fields[4] if len(fields) == 5 else 0.002
        params.append((name, start, c_end, r_end))
    return params


def main():
    if len(sys.argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    try:
        params = read_params(sys.argv[1])
        state = open(sys.argv[2], encoding="utf-8").read().split("\n")
        lines = [l for l in open(sys.argv[3], encoding="utf-8") if l.strip()]
    except (OSError, ValueError) as e:
        fail(str(e))
    iterations = next((int(l.split()[1]) for l in state if l.startswith("iterations ")), None)
    if iterations is None:
        fail(f"{sys.argv[2]} has no 'iterations' line")
    if len(lines) < 2:
        fail(f"{sys.argv[3]} holds fewer than two pairs")
    try:
        results = [int(l.split()[1]) for l in lines]
        values = [float(x) for x in lines[-1].rsplit(" | ", 1)[1].split()]
    except (IndexError, ValueError):
        fail(f"{sys.argv[3]} is not a chariot spsa log")
    if len(values) != len(params):
        fail(f"the log has {len(values)} values a line, the parameters file {len(params)}")
    n = len(results)
    mean = sum(results) / n
    spread = math.sqrt(sum((r - mean) ** 2 for r in results) / (n - 1))
    stability = 0.1 * iterations
    print(f"pairs {n} of {iterations}; a pair's result: mean {mean:+.3f}, standard deviation {spread:.3f}")
    print(f"{'parameter':<20} {'start':>8} {'now':>9} {'moved':>8} {'walk sd':>8} {'z':>6}")
    for (name, start, c_end, r_end), value in zip(params, values):
        steps = 0.0
        for k in range(n):
            c_k = c_end * (iterations / (k + 1)) ** 0.101
            a_k = r_end * c_end * c_end * ((stability + iterations) / (stability + k + 1)) ** 0.602
            steps += (a_k / c_k) ** 2
        walk = math.sqrt(steps) * spread
        moved = value - start
        z = moved / walk if walk > 0 else 0.0
        print(f"{name:<20} {start:>8.1f} {value:>9.2f} {moved:>+8.2f} {walk:>8.2f} {z:>+6.2f}")
    # Rounded as chariot spsa rounds (half away from zero), for a gate before the run ends.
    rounded = [math.copysign(math.floor(abs(v) + 0.5), v) for v in values]
    print("tune now: " + " ".join(f"{name}={int(r)}" for (name, *_), r in zip(params, rounded)))


if __name__ == "__main__":
    main()
