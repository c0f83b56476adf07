#!/usr/bin/env python3
"""Judges again, with today's rules, every game of a `chariot match` PGN that ended by
repetition (perpetual check, perpetual chase, or a drawn repetition), and prints those whose
verdict changes. A repetition ends the game at the same ply under any version of the rules (the
third occurrence), so only the verdict can differ: this turns a match played under older rules
into its result under today's.

    scripts/rejudge.py MATCH.pgn [CHARIOT_BINARY]

The binary defaults to this checkout's target/release/chariot. Each game is replayed with
`chariot judge --json` from its FEN tag (or the start) through its ICCS moves.
"""
import json
import os
import re
import subprocess
import sys

REPETITION = re.compile(r'\[Termination "(perpetual chase|perpetual check|repetition)"\]')


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip().splitlines()[-3])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    binary = sys.argv[2] if len(sys.argv) == 3 else os.path.join(root, "target/release/chariot")
    text = open(sys.argv[1], encoding="utf-8").read()
    judged = changed = 0
    for game in re.split(r'(?=\[Event )', text):
        if not REPETITION.search(game):
            continue
        tags = dict(re.findall(r'\[(\w+) "(.*)"\]', game))
        body = re.sub(r'\{[^}]*\}', ' ', game.split("\n\n", 1)[1] if "\n\n" in game else "")
        moves = [w for w in body.split() if re.fullmatch(r'[a-i][0-9][a-i][0-9]', w)]
        args = [binary, "judge", "--json", "--moves", *moves]
        if "FEN" in tags:
            args[2:2] = ["--fen", tags["FEN"]]
        run = subprocess.run(args, capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"round {tags.get('Round', '?')}: {run.stderr.strip()}")
        verdict = json.loads(run.stdout)
        judged += 1
        if verdict["result"] != tags.get("Result"):
            changed += 1
            print(f"round {tags.get('Round', '?')} ({tags.get('Red')} - {tags.get('Black')}): "
                  f"{tags.get('Result')} {tags.get('Termination')} -> {verdict['result']} {verdict['reason']}")
    print(f"{judged} games ended by repetition, {changed} verdicts changed")


if __name__ == "__main__":
    main()
