#!/usr/bin/env python3
"""Compares two builds of one engine that played the same opponent on the same openings: two
`chariot match` PGNs with the same seed and random plies (so game N of each began from the same
position), one from the base build and one from the candidate.

    scripts/pgn-paired.py BASE.pgn NEW.pgn ENGINE_NAME

Games are paired by their round number and kept only when both began with the same opening
moves (the plies marked {book}); a mismatch is reported, not silently paired. Prints each
side's score and Elo against the opponent, and the difference NEW - BASE twice: with the 95%
error of two independent samples, and with the paired error (each opening's score difference
is one sample), which is smaller when the opening decides much of a game's result. A round
with a time forfeit in either file is left out and listed: a flag is not strength.

A gauntlet against one sparring partner measures a change that self-play cannot see (both
sides of a self-play game share the change's blind spot); this is its arithmetic.
"""
import math
import signal
import re
import sys

from pgn_games import read_games

BOOK_MOVE = re.compile(r'([a-i][0-9][a-i][0-9])\s*\{book\}')


def scores(path, engine):
    """Maps round -> (score of ENGINE, opening plies, forfeit flag)."""
    table = {}
    for tags, movetext in read_games(path):
        red, black = tags.get("Red", tags.get("White")), tags.get("Black")
        if engine not in (red, black):
            continue
        points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(tags.get("Result"))
        if points is None or "Round" not in tags:
            continue
        if engine == black:
            points = 1.0 - points
        opening = tuple(BOOK_MOVE.findall(movetext))
        forfeit = tags.get("Termination", "") == "time forfeit"  # as scripts/pgn-score.py
        table[int(tags["Round"])] = (points, opening, forfeit)
    return table


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1) + 0.0  # + 0.0: no "-0.0" at an even score


def elo_slope(score):
    """dElo/dscore of the logistic model at SCORE."""
    score = min(max(score, 1e-3), 1 - 1e-3)
    return 400 / math.log(10) / (score * (1 - score))


def mean_and_error(values):
    """Mean and 95% error of the mean."""
    count = len(values)
    mean = sum(values) / count
    variance = sum((value - mean) ** 2 for value in values) / max(1, count - 1)
    return mean, 1.96 * math.sqrt(variance / count)


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a closed pipe (`| head`) ends it quietly
    if len(sys.argv) != 4:
        print("usage: " + __doc__.strip().splitlines()[4].strip(), file=sys.stderr)
        sys.exit(2)
    base_path, new_path, engine = sys.argv[1:]
    tables = []
    for path in (base_path, new_path):
        try:
            tables.append(scores(path, engine))
        except OSError as error:
            print(f"error: cannot read {path}: {error.strerror}", file=sys.stderr)
            sys.exit(2)
        if not tables[-1]:
            print(f"error: no finished game of '{engine}' in {path}", file=sys.stderr)
            sys.exit(2)
    base, new = tables
    common, mismatched, forfeited = [], [], []
    for round_number in sorted(set(base) & set(new)):
        if base[round_number][1] != new[round_number][1]:
            mismatched.append(round_number)
        elif base[round_number][2] or new[round_number][2]:
            forfeited.append(round_number)
        else:
            common.append(round_number)
    if not common:
        print("error: no round began with the same opening in both files (another seed or random plies?)",
              file=sys.stderr)
        sys.exit(2)
    # Openings come in pairs (round 2k-1 and 2k, colours swapped): one sample a pair.
    pairs = {}
    for round_number in common:
        pairs.setdefault((round_number + 1) // 2, []).append(round_number)
    base_scores = [base[r][0] for r in common]
    new_scores = [new[r][0] for r in common]
    base_mean, base_error = mean_and_error(base_scores)
    new_mean, new_error = mean_and_error(new_scores)
    slope = elo_slope((base_mean + new_mean) / 2)
    difference = elo(new_mean) - elo(base_mean)
    independent = slope * math.sqrt(base_error**2 + new_error**2)
    differences = [sum(new[r][0] - base[r][0] for r in rounds) / len(rounds) for rounds in pairs.values()]
    _, paired_error = mean_and_error(differences)
    print(f"{len(common)} games paired by round ({len(pairs)} openings)"
          + (f"; {len(mismatched)} rounds began differently and are left out: {mismatched[:10]}"
             if mismatched else ""))
    for name, mean, error, table in (("base", base_mean, base_error, base), ("new", new_mean, new_error, new)):
        wins = sum(1 for r in common if table[r][0] == 1.0)
        losses = sum(1 for r in common if table[r][0] == 0.0)
        print(f"{name:5} W{wins} D{len(common) - wins - losses} L{losses}  score {100 * mean:.1f}%  "
              f"Elo {elo(mean):+.1f} ± {error * elo_slope(mean):.1f}")
    print(f"new - base: {difference:+.1f} ± {independent:.1f} (independent samples), "
          f"± {slope * paired_error:.1f} (paired by opening)")
    changed = sum(1 for r in common if base[r][0] != new[r][0])
    print(f"games whose result changed: {changed} of {len(common)}")
    if forfeited:
        print(f"rounds left out for a time forfeit in either file (not strength): {forfeited}")


if __name__ == "__main__":
    main()
