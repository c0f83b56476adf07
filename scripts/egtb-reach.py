#!/usr/bin/env python3
"""How many games of a tables match reached a table's material at the root (issue 55).

    scripts/egtb-reach.py PGN TABLES

PGN is a `chariot match` PGN of an engine named `tables` against one named `plain`
(`scripts/egtb-elo.sh`); TABLES the folder of `.egtb` files the match used. Each game is replayed
from its FEN tag (or the start position) by its ICCS moves, and the first position whose
material has a table in TABLES (either colour: a table serves its colour mirror) is the game's
reach. Prints the games, how many reached a table, and what the side with tables scored in
those. A position the search probes inside its tree counts only once the game gets there, so
this is the least the tables could have touched. (`chariot egtb endings --dir TABLES --pgn PGN`
picks the same positions, without the games' results; this adds the score there.) Exit status 2
on a usage or input error.
"""
import os
import re
import sys

ORDER = "KRNCPAB"
ALIAS = {"H": "N", "E": "B"}
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"
MOVE = re.compile(r"\b([a-i][0-9])([a-i][0-9])\b")
SCORE = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def board(fen):
    """The pieces of a FEN's board field by (file, rank), rank 0 Red's back rank."""
    pieces = {}
    rows = fen.split()[0].split("/")
    if len(rows) != 10:
        raise ValueError(f"a FEN board needs ten ranks: {fen!r}")
    for r, row in enumerate(rows):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                pieces[(f, 9 - r)] = ch
                f += 1
    return pieces


def signature(pieces):
    """Red's pieces then Black's, each from its king, in the tables' letters (a FEN's H and E
    read as N and B)."""
    def side(letters):
        return "".join(sorted((ALIAS.get(p, p) for p in letters), key=ORDER.index))
    red = side(p for p in pieces.values() if p.isupper())
    black = side(p.upper() for p in pieces.values() if p.islower())
    return red, black


def square(text):
    return (ord(text[0]) - ord("a"), int(text[1]))


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    pgn, folder = argv[1], argv[2]
    try:
        tables = {f[: -len(".egtb")] for f in os.listdir(folder) if f.endswith(".egtb")}
        text = open(pgn, encoding="utf-8").read()
    except OSError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if not tables:
        print(f"error: {folder} holds no .egtb file", file=sys.stderr)
        return 2

    def in_table(pieces):
        red, black = signature(pieces)
        return red + black in tables or black + red in tables

    games = reached = 0
    scores = {1.0: 0, 0.5: 0, 0.0: 0}
    for number, game in enumerate(text.split("[Event ")[1:], 1):
        result = re.search(r'\[Result "([^"]+)"\]', game)
        red = re.search(r'\[Red "([^"]+)"\]', game)
        if not result or result.group(1) not in SCORE or not red or "\n\n" not in game:
            continue
        games += 1
        fen = re.search(r'\[FEN "([^"]+)"\]', game)
        try:
            pieces = board(fen.group(1) if fen else START)
        except ValueError as e:
            print(f"error: game {number}: {e}", file=sys.stderr)
            return 2
        moves = MOVE.findall(re.sub(r"\{[^}]*\}", "", game.split("\n\n", 1)[1]))
        hit = in_table(pieces)
        for source, target in moves:
            if hit:
                break
            if square(source) not in pieces:
                print(f"error: game {number}: no piece on {source}", file=sys.stderr)
                return 2
            pieces[square(target)] = pieces.pop(square(source))
            hit = in_table(pieces)
        if hit:
            reached += 1
            score = SCORE[result.group(1)]
            scores[score if red.group(1) == "tables" else 1.0 - score] += 1
    print(f"{games} games; {reached} reached a table's material; "
          f"there the side with tables won {scores[1.0]}, drew {scores[0.5]}, lost {scores[0.0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
