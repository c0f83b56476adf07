#!/usr/bin/env python3
"""Scores one engine's games in a `chariot match` PGN twice: all games, and without the games
lost on time (an opponent's flag is not strength). Lists the time forfeits and the rule
terminations.

    scripts/pgn-score.py MATCH.pgn ENGINE_NAME

Elo from the mean score under the logistic model, with the 95% error from the trinomial
variance (as `chariot match` and cutechess-cli compute it).
"""
import math
import re
import signal
import sys
from collections import Counter


def games(path):
    """Yields the tag dictionary of each game in the PGN."""
    tags = {}
    with open(path, encoding="utf-8", errors="replace") as pgn:
        for line in pgn:
            match = re.match(r'\[(\w+) "(.*)"\]', line.strip())
            if match:
                if match.group(1) == "Event" and tags:
                    yield tags
                    tags = {}
                tags[match.group(1)] = match.group(2)
    if tags:
        yield tags


def elo(wins, draws, losses):
    """Elo and its 95% half-width, or None where unbounded."""
    n = wins + draws + losses
    if n == 0:
        return None, None
    s = (wins + 0.5 * draws) / n
    if s <= 0 or s >= 1:
        return (math.inf if s >= 1 else -math.inf), None
    to_elo = lambda p: -400 * math.log10(1 / p - 1)
    var = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s * s) / n
    margin = 1.959964 * math.sqrt(var / n)
    lo, hi = s - margin, s + margin
    err = (to_elo(hi) - to_elo(lo)) / 2 if 0 < lo and hi < 1 else None
    return to_elo(s), err


def line(label, tally):
    w, d, l = tally
    e, err = elo(w, d, l)
    text = "-" if e is None else f"{e + 0.0:+.1f}" + (f" ± {err:.1f} [{e - err:+.0f}, {e + err:+.0f}]" if err else "")
    return f"{label:<28} {w + d + l:>5} games  W{w} D{d} L{l}  Elo {text}"


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: pgn-score.py MATCH.pgn ENGINE_NAME")
    path, name = sys.argv[1], sys.argv[2]
    all_games, no_forfeits = [0, 0, 0], [0, 0, 0]
    forfeits, endings = [], Counter()
    for tags in games(path):
        side = "Red" if tags.get("Red") == name else "Black" if tags.get("Black") == name else None
        if side is None:
            continue
        result = tags.get("Result", "*")
        if result not in ("1-0", "0-1", "1/2-1/2"):
            continue
        outcome = 1 if result == "1/2-1/2" else (0 if (result == "1-0") == (side == "Red") else 2)
        all_games[outcome] += 1
        termination = tags.get("Termination", "")
        verb = ["won", "drew", "lost"][outcome]
        endings[f"{name} {verb}: {termination}"] += 1
        if termination == "time forfeit":
            loser = tags["Black"] if result == "1-0" else tags["Red"]
            forfeits.append(f"round {tags.get('Round', '?')}: {loser} lost on time")
        else:
            no_forfeits[outcome] += 1
    print(line(f"{name}, all games", all_games))
    print(line(f"{name}, without forfeits", no_forfeits))
    print(f"time forfeits: {len(forfeits)}")
    for entry in forfeits:
        print(f"  {entry}")
    print("endings:")
    for ending, count in sorted(endings.items(), key=lambda kv: -kv[1]):
        print(f"  {count:>4}  {ending}")


if __name__ == "__main__":
    # Piped into `head`, end quietly when the reader stops reading.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    main()
