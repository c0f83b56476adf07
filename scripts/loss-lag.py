#!/usr/bin/env python3
"""Asks whether a deeper search would have seen a lost game's trouble sooner.

    scripts/loss-lag.py GAMES.pgn ENGINE_NAME CHARIOT [--nodes 250000,1000000,4000000] [--list]

For each game of GAMES.pgn (a `chariot match` PGN, `.xz` or plain) that ENGINE_NAME lost, two
points are found from the scores in the move comments: the opponent's move from which its own
score stays at +1.00 or more to the end, and ENGINE_NAME's move from which its score stays at
-1.00 or less. Where the engine saw it more than one move later, the probe is the position of
its first move after the opponent's point. CHARIOT (a build of this engine) then searches each
probe to each node count (`chariot analyze --nodes N --hash 64`), and the script prints, for the
game's score and each count, the median score and how many probes score -0.50 and -1.00 or
less, with the median depth.

If the counts well above the game's own find the trouble the game's search missed, the lag is
depth (what a faster or better-pruned search buys); if they do not, it is judgement (what a
better evaluation buys). The probes are chosen because the game was lost, so some fall with
more search whatever the cause: compare the counts with each other, not with zero.
`--list` prints the probes (game, ply, the engine's ply of -1.00, its score there, the moves)
and searches nothing. `--phases` prints, over every lost game, when it was decided: how many
games the opponent's score held at +1.00 or more from plies 0-29, 30-59, 60-99 and 100 on, and
the median ply (CHARIOT is not run).
"""
import argparse
import json
import lzma
import re
import statistics
import subprocess
import sys

from pgn_games import read_games

PLY = re.compile(r"([a-i][0-9][a-i][0-9])\s*\{([^}]*)\}")
SCORE = re.compile(r"\s*([+-]?)(\d+\.\d+|M\d+|#-?\d+)/")


def fail(message):
    print(f"loss-lag.py: {message}", file=sys.stderr)
    sys.exit(2)


def games(path):
    """The games of the PGN at `path` (`pgn_games.read_games`), or a clear refusal."""
    try:
        return list(read_games(path))
    except (OSError, lzma.LZMAError) as error:
        fail(f"cannot read {path}: {error}")


def pawns(comment):
    """The score of a move comment in pawns for the side that moved (a mate as ±100), or None."""
    match = SCORE.match(comment)
    if not match:
        return None
    sign, value = match.groups()
    if value.startswith(("M", "#")):
        return -100.0 if sign == "-" or value.startswith("#-") else 100.0
    return -float(value) if sign == "-" else float(value)


def first_for_good(scores, parity, holds):
    """The first ply of this parity from which every scored ply of that parity satisfies holds."""
    plies = [i for i, s in enumerate(scores) if i % 2 == parity and s is not None]
    for k, ply in enumerate(plies):
        if all(holds(scores[j]) for j in plies[k:]):
            return ply
    return None


def lost_games(path, engine):
    """(index, tags, plies, scores, side) for each game of `path` that `engine` lost: its plies
    as (move, comment), each comment's score, and the engine's parity among the plies."""
    for index, (tags, movetext) in enumerate(games(path)):
        red, black = tags.get("Red"), tags.get("Black")
        if engine not in (red, black):
            continue
        side = 0 if red == engine else 1
        if tags.get("Result") != ("0-1" if side == 0 else "1-0"):
            continue
        plies = PLY.findall(movetext)
        scores = [pawns(comment) for _, comment in plies]
        # A game from a FEN with Black to move counts its plies from Black's move.
        if tags.get("FEN", "").split(" ")[1:2] == ["b"]:
            side = 1 - side
        yield index, tags, plies, scores, side


def decided_plies(path, engine):
    """For each game of `path` that `engine` lost: the ply from which the opponent's score stays
    at +1.00 or more to the end (games where it never does are left out)."""
    plies = []
    for _, _, _, scores, side in lost_games(path, engine):
        decided = first_for_good(scores, 1 - side, lambda s: s >= 1.0)
        if decided is not None:
            plies.append(decided)
    return plies


def probes(path, engine):
    """(round or index, probe ply, the engine's ply of -1.00, its game score there, FEN or None,
    moves) for each lost game where the engine saw the loss more than one move late."""
    found = []
    for index, tags, plies, scores, side in lost_games(path, engine):
        seen_by_opponent = first_for_good(scores, 1 - side, lambda s: s >= 1.0)
        seen_by_engine = first_for_good(scores, side, lambda s: s <= -1.0)
        if seen_by_opponent is None or seen_by_engine is None or seen_by_engine <= seen_by_opponent + 1:
            continue
        probe = seen_by_opponent + 1
        if scores[probe] is None:
            continue
        game = tags.get("Round", str(index + 1))
        moves = [mv for mv, _ in plies[:probe]]
        found.append((game, probe, seen_by_engine, scores[probe], tags.get("FEN"), moves))
    return found


def search(chariot, fen, moves, nodes):
    """(score in centipawns for the side to move, depth) of CHARIOT's search to `nodes`."""
    where = ["--fen", fen] if fen else ["--startpos"]
    command = [chariot, "analyze", *where, "--nodes", str(nodes), "--hash", "64", "--json"]
    if moves:
        command += ["--moves", *moves]
    try:
        run = subprocess.run(command, capture_output=True, text=True, check=False)
    except OSError as error:
        fail(f"cannot run {chariot}: {error}")
    lines = [json.loads(line) for line in run.stdout.splitlines() if '"score_cp"' in line]
    if run.returncode != 0 or not lines:
        fail(f"{' '.join(command)} failed: {run.stderr.strip() or run.stdout.strip()}")
    return lines[-1]["score_cp"], lines[-1]["depth"]


def summary(label, scores, depths=None):
    depth = f"  median depth {statistics.median(depths):g}" if depths else ""
    return (
        f"{label:>10}  median {statistics.median(scores):+6.0f} cp"
        f"  <= -50: {sum(s <= -50 for s in scores):3}  <= -100: {sum(s <= -100 for s in scores):3}{depth}"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn")
    parser.add_argument("engine")
    parser.add_argument("chariot")
    parser.add_argument("--nodes", default="250000,1000000,4000000")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--phases", action="store_true")
    args = parser.parse_args()
    try:
        counts = [int(n) for n in args.nodes.split(",")]
        if not counts or min(counts) <= 0:
            raise ValueError
    except ValueError:
        fail(f"--nodes wants positive node counts separated by commas, not {args.nodes!r}")
    if args.phases:
        decided = decided_plies(args.pgn, args.engine)
        if not decided:
            fail(f"no game of {args.pgn} is a loss of {args.engine} with the opponent's scores")
        buckets = [("0-29", 0, 30), ("30-59", 30, 60), ("60-99", 60, 100), ("100+", 100, 10**9)]
        counts = "  ".join(f"{name}: {sum(lo <= p < hi for p in decided)}" for name, lo, hi in buckets)
        print(f"{len(decided)} lost games decided (the opponent at +1.00 or more to the end) at plies")
        print(f"{counts}  median ply {statistics.median(decided):g}")
        return
    found = probes(args.pgn, args.engine)
    if args.list:
        for game, probe, seen, score, fen, moves in found:
            print(f"{game}\t{probe}\t{seen}\t{score:+.2f}\t{fen or 'startpos'}\t{' '.join(moves)}")
        return
    if not found:
        fail(f"no game of {args.pgn} is a loss of {args.engine} that it saw late")
    results = {n: [] for n in counts}
    for game, probe, _, score, fen, moves in found:
        row = [f"game {game} ply {probe}: in the game {score * 100:+.0f}"]
        for n in counts:
            cp, depth = search(args.chariot, fen, moves, n)
            results[n].append((cp, depth))
            row.append(f"{n}: {cp:+d} (depth {depth})")
        print("  ".join(row), flush=True)
    print(f"{len(found)} probes")
    print(summary("game", [s * 100 for _, _, _, s, _, _ in found]))
    for n in counts:
        print(summary(f"{n}", [cp for cp, _ in results[n]], [d for _, d in results[n]]))


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        sys.exit(0)
