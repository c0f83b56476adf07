"""The games of a `chariot match` PGN, shared by the scripts that read them."""
import lzma
import re

TAG = re.compile(r'\[(\w+) "(.*)"\]')


def read_games(path):
    """Yields (tags, movetext) for each game of a PGN, plain or `.xz`. Raises OSError (or
    lzma.LZMAError) when the file cannot be read."""
    opener = lzma.open if str(path).endswith(".xz") else open
    tags, moves = {}, []
    with opener(path, "rt", encoding="utf-8", errors="replace") as pgn:
        for line in pgn:
            match = TAG.match(line.strip())
            if match:
                if match.group(1) == "Event" and tags:
                    yield tags, " ".join(moves)
                    tags, moves = {}, []
                tags[match.group(1)] = match.group(2)
            elif line.strip():
                moves.append(line.strip())
    if tags:
        yield tags, " ".join(moves)
