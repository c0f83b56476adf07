#!/usr/bin/env python3
"""How each engine of a `chariot match` PGN spent its clock: per engine and game phase, the
moves, the median depth reached, the median and mean seconds a move, and the share of the
available time a game used. For the scaling question (issue 58): an engine given twice the time
should reach deeper; if it does not, or leaves its extra time unused, the time manager is the
suspect rather than the search.

    scripts/pgn-depth.py MATCH.pgn [MATCH.pgn ...]

Reads the `{score/depth seconds}` comments `chariot match` writes after each move (`{seconds}`
alone for a move played without a search: its time counts, it has no depth); moves without a
comment (other writers, or an opening's `{book}` moves) are left out and counted. A game's
`TimeControl` tag gives each engine's clock (its own under time odds) for the share of time
used. Exits 1 when no move carries a comment, 2 when a file cannot be read.
"""
import re
import signal
import statistics
import sys
from collections import defaultdict

# Game phases by ply: the opening's plans, the middlegame, the endgame.
PHASES = ((1, 20, "plies 1-20"), (21, 60, "plies 21-60"), (61, 10_000, "plies 61+"))
# `{+0.35/21 0.131s}`, or `{0.000s}` for a move played without a search (a table's move).
COMMENT = re.compile(r"\{\s*(?:[-+]?M?[-+]?\d+(?:\.\d+)?/(\d+)\s+)?(\d+(?:\.\d+)?)s\s*\}")
MOVE_NUMBER = re.compile(r"^\d+\.+$")


def parse(path):
    """Yields (tags, [(ply, depth or None, seconds) or None per move]) for each game."""
    with open(path, encoding="utf-8", errors="replace") as pgn:
        text = pgn.read()
    for chunk in re.split(r"\n(?=\[Event )", text):
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]', chunk, re.M))
        if not tags:
            continue
        body = "\n".join(line for line in chunk.splitlines() if not line.startswith("["))
        tokens = re.findall(r"\{[^}]*\}|\S+", body)
        moves = []
        for token in tokens:
            if token.startswith("{"):
                found = COMMENT.match(token)
                if moves and moves[-1] is None and found:
                    depth = int(found.group(1)) if found.group(1) else None
                    moves[-1] = (len(moves), depth, float(found.group(2)))
            elif MOVE_NUMBER.match(token):
                continue
            elif token in ("1-0", "0-1", "1/2-1/2", "*"):
                break
            else:
                moves.append(None)
        yield tags, moves


CLOCK = re.compile(r"^(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)$")


def clock(tags, engine):
    """(base seconds, increment) of `engine`'s clock by the game's TimeControl tag, or None.
    The tag gives the match's clock, then each engine's own where it has one (time odds):
    `5+0.05; new: 10+0.1`."""
    parts = [part.strip() for part in tags.get("TimeControl", "").split(";")]
    own = dict(part.split(": ", 1) for part in parts[1:] if ": " in part)
    found = CLOCK.match(own.get(engine, parts[0]))
    return (float(found.group(1)), float(found.group(2))) if found else None


def main(paths):
    by_phase = defaultdict(list)  # (engine, phase) -> [(depth, seconds)]
    used = defaultdict(list)  # engine -> share of the available time a game used
    bare = 0
    for path in paths:
        try:
            games = list(parse(path))
        except OSError as error:
            print(f"error: cannot read {path}: {error.strerror}", file=sys.stderr)
            return 2
        for tags, moves in games:
            sides = (tags.get("Red", "?"), tags.get("Black", "?"))
            fen = tags.get("FEN", "").split()
            first = 1 if len(fen) > 1 and fen[1] == "b" else 0
            spent = defaultdict(float)
            count = defaultdict(int)
            for index, move in enumerate(moves):
                engine = sides[(index + first) % 2]
                if move is None:
                    bare += 1
                    continue
                ply, depth, seconds = move
                phase = next(name for low, high, name in PHASES if low <= ply <= high)
                by_phase[(engine, phase)].append((depth, seconds))
                spent[engine] += seconds
                count[engine] += 1
            for engine, seconds in spent.items():
                control = clock(tags, engine)
                if control:
                    available = control[0] + control[1] * count[engine]
                    used[engine].append(seconds / available)
    if not by_phase:
        print("error: no move carries a {score/depth seconds} or {seconds} comment", file=sys.stderr)
        return 1
    print(f"{'engine':<16} {'phase':<12} {'moves':>7} {'depth':>6} {'median s':>9} {'mean s':>8}")
    for engine in sorted({e for e, _ in by_phase}):
        for _, _, phase in PHASES:
            rows = by_phase.get((engine, phase))
            if not rows:
                continue
            depths = [d for d, _ in rows if d is not None]
            seconds = [s for _, s in rows]
            depth = f"{statistics.median(depths):>6.1f}" if depths else f"{'-':>6}"
            print(
                f"{engine:<16} {phase:<12} {len(rows):>7} {depth} "
                f"{statistics.median(seconds):>9.3f} {statistics.mean(seconds):>8.3f}"
            )
    for engine, shares in sorted(used.items()):
        print(
            f"{engine}: a game used a median {100 * statistics.median(shares):.0f}% of its "
            f"available time (most {100 * max(shares):.0f}%, {len(shares)} games)"
        )
    if bare:
        print(f"{bare} moves without a depth comment left out")
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if len(sys.argv) >= 2 and sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        sys.exit(0)
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1:]))
