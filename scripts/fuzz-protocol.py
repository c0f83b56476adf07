#!/usr/bin/env python3
"""Protocol fuzzer: random and mutated command streams against the engine, in both dialects.

Each engine session starts with `ucci`, `uci`, or junk; then bursts of commands follow: valid
commands of the session's dialect (and some of the other), the same commands mutated (words
dropped, doubled, swapped or replaced; huge, negative and malformed numbers; control characters,
non-UTF-8 bytes, carriage returns), junk lines up to 2 MB, with `stop`, `ponderhit` and `quit` at
random moments and short random pauses between commands so they land mid-search. After each burst
the engine must answer `stop` + `isready` with `readyok`, then give a legal move for a known
position (legality is judged by the small move generator below, checked first against the perft
counts in tests/data/perft.txt). A `quit` must end the process with status 0; the session then
starts again. Every output line is checked too: UTF-8, an error line at most 1,100 bytes (errors
quote input short), any line at most 4,096 bytes, and no panic on stderr.

The engine runs under an address-space limit (4 GiB by default), so a Hash it cannot have is
refused quickly instead of being allocated on a shared machine.

Usage (from the repository root, after `cargo build --release`):

    scripts/fuzz-protocol.py                       # the CI run: seed 1, about one minute
    scripts/fuzz-protocol.py --seconds 3600 --seed 7
    scripts/fuzz-protocol.py --bursts 500 --seed 42 --engine path/to/chariot

Longer runs by hand: raise --seconds (and vary --seed). Each session's input is a function of
the seed and the session's number alone (the timing of the engine's answers is not), so a finding
is reported with its seed, session and burst, and the whole input of the failing session is
written to target/fuzz-protocol-failure-<seed>-<session>.in (replay with `chariot < that-file`,
adding pauses if the failure needs a search to be running). Exit status: 0 when nothing was
found, 1 otherwise.
"""

import argparse
import collections
import os
import queue
import random
import resource
import subprocess
import sys
import threading
import time

# ---------------------------------------------------------------------------------------------
# A small xiangqi move generator, independent of the engine, to judge its answers.
# Squares are rank * 9 + file, rank 0 = Red's back rank, file 0 = a (ICCS coordinates).

RED, BLACK = "w", "b"


def parse_fen(fen):
    fields = fen.split()
    rows = fields[0].split("/")
    if len(rows) != 10:
        raise ValueError(f"bad FEN {fen}")
    board = [None] * 90
    for i, row in enumerate(rows):
        rank, file = 9 - i, 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            else:
                board[rank * 9 + file] = ch
                file += 1
    side = fields[1] if len(fields) > 1 else RED
    return board, side


def own(piece, side):
    return piece is not None and (piece.isupper() == (side == RED))


def in_palace(rank, file, side):
    return 3 <= file <= 5 and (rank <= 2 if side == RED else rank >= 7)


def own_half(rank, side):
    return rank <= 4 if side == RED else rank >= 5


ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
HORSE = ((2, 1), (2, -1), (-2, 1), (-2, -1), (1, 2), (1, -2), (-1, 2), (-1, -2))


def on_board(rank, file):
    return 0 <= rank <= 9 and 0 <= file <= 8


def pseudo_moves(board, side):
    moves = []
    for sq, piece in enumerate(board):
        if not own(piece, side):
            continue
        rank, file = divmod(sq, 9)
        kind = piece.upper()

        def add(r, f):
            if on_board(r, f) and not own(board[r * 9 + f], side):
                moves.append((sq, r * 9 + f))

        if kind == "K":
            for dr, df in ORTHOGONAL:
                if in_palace(rank + dr, file + df, side):
                    add(rank + dr, file + df)
        elif kind == "A":
            for dr, df in DIAGONAL:
                if in_palace(rank + dr, file + df, side):
                    add(rank + dr, file + df)
        elif kind == "B":
            for dr, df in DIAGONAL:
                r, f = rank + 2 * dr, file + 2 * df
                if on_board(r, f) and own_half(r, side) and board[(rank + dr) * 9 + file + df] is None:
                    add(r, f)
        elif kind == "N":
            for dr, df in HORSE:
                leg = (rank + dr // 2, file) if abs(dr) == 2 else (rank, file + df // 2)
                if on_board(rank + dr, file + df) and board[leg[0] * 9 + leg[1]] is None:
                    add(rank + dr, file + df)
        elif kind in "RC":
            for dr, df in ORTHOGONAL:
                r, f, screen = rank + dr, file + df, False
                while on_board(r, f):
                    target = board[r * 9 + f]
                    if not screen:
                        if target is None:
                            moves.append((sq, r * 9 + f))
                        elif kind == "R":
                            add(r, f)
                            break
                        else:
                            screen = True
                    elif target is not None:
                        add(r, f)
                        break
                    r, f = r + dr, f + df
        elif kind == "P":
            forward = 1 if side == RED else -1
            add(rank + forward, file)
            if not own_half(rank, side):
                add(rank, file - 1)
                add(rank, file + 1)
    return moves


def attacked(board, sq, by):
    """Whether side `by` attacks `sq` (a facing king counts: it makes the position illegal)."""
    rank, file = divmod(sq, 9)
    rook, cannon, horse, pawn, king = (p if by == RED else p.lower() for p in "RCNPK")
    for dr, df in ORTHOGONAL:
        r, f, screens = rank + dr, file + df, 0
        while on_board(r, f):
            piece = board[r * 9 + f]
            if piece is not None:
                if screens == 0 and (piece == rook or (piece == king and df == 0)):
                    return True
                if screens == 1 and piece == cannon:
                    return True
                screens += 1
                if screens == 2:
                    break
            r, f = r + dr, f + df
    for dr, df in HORSE:
        hr, hf = rank - dr, file - df
        if on_board(hr, hf) and board[hr * 9 + hf] == horse:
            leg = (hr + dr // 2, hf) if abs(dr) == 2 else (hr, hf + df // 2)
            if board[leg[0] * 9 + leg[1]] is None:
                return True
    forward = 1 if by == RED else -1
    if on_board(rank - forward, file) and board[(rank - forward) * 9 + file] == pawn:
        return True
    for df in (-1, 1):
        if on_board(rank, file + df) and board[rank * 9 + file + df] == pawn and not own_half(rank, by):
            return True
    return False


def legal_moves(board, side):
    king = "K" if side == RED else "k"
    other = BLACK if side == RED else RED
    result = []
    for frm, to in pseudo_moves(board, side):
        after = list(board)
        after[to], after[frm] = after[frm], None
        if king in after and not attacked(after, after.index(king), other):
            result.append((frm, to))
    return result


def iccs(move):
    (fr, ff), (tr, tf) = divmod(move[0], 9), divmod(move[1], 9)
    return f"{'abcdefghi'[ff]}{fr}{'abcdefghi'[tf]}{tr}"


def perft(board, side, depth):
    if depth == 0:
        return 1
    other = BLACK if side == RED else RED
    total = 0
    for frm, to in legal_moves(board, side):
        if depth == 1:
            total += 1
            continue
        after = list(board)
        after[to], after[frm] = after[frm], None
        total += perft(after, other, depth - 1)
    return total


def check_move_generator(perft_file, budget_leaves=20_000):
    """The judge must be right before it judges: the small reference counts must match."""
    checked = 0
    with open(perft_file, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fen, depth, leaves = line.split(";")
            if int(leaves) > budget_leaves:
                continue
            board, side = parse_fen(fen)
            got = perft(board, side, int(depth))
            if got != int(leaves):
                sys.exit(f"the fuzzer's move generator is wrong: perft {depth} of {fen} = {got}, not {leaves}")
            checked += 1
    if checked == 0:
        sys.exit(f"no reference counts small enough in {perft_file}")
    return checked


# ---------------------------------------------------------------------------------------------
# Command streams.

POSITIONS = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "4k3C/2P1aN3/4b3b/7R1/9/6B2/9/2n5B/1r1c1p3/4K1c1r w - - 0 1",
    "3akab2/9/4b4/9/9/9/9/9/4R4/3K2R2 w - - 0 1",
    "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
    "3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w - - 0 1",
    "3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
]

# Positions the check after each burst asks about: some with many moves, two with one or two,
# one with none (Black is stalemated, which loses).
CHECK_POSITIONS = [
    POSITIONS[0],
    POSITIONS[1],
    POSITIONS[3],
    "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
    "3k5/9/9/9/9/9/9/9/4R4/4K4 b - - 0 1",
    "3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1",
]

HUGE_NUMBERS = [
    "0", "1", "-1", "-0", "+5", "4294967295", "4294967296", "9223372036854775807",
    "9223372036854775808", "18446744073709551615", "18446744073709551616", "1e9", "3.5", "0x10",
    "99999999999999999999999999999999", "NaN", "", "٣", "１２",
]

UCCI_OPTIONS = {
    "usemillisec": ["true", "false", "1", "0", "maybe"],
    "debug": ["true", "false"],
    "ponder": ["true", "false", "on"],
    "usebook": ["true", "false"],
    "bookfiles": ["<empty>", "/no/such/book.cbk", "a;b;c", ";;"],
    "hashsize": ["1", "8", "16", "32", "5000", "65536", "65537", "0"],
    "threads": ["1", "2", "4", "256", "0", "257"],
    "moveoverhead": ["0", "30", "5000", "5001"],
    "algorithm": ["pvs", "mtdf", "alphabeta"],
    "resign": ["true", "false"],
    "pruning": ["none", "small", "medium", "large", "huge"],
    "knowledge": ["none", "large"],
    "randomness": ["none", "small", "large"],
    "without": ["<empty>", "null,lmr", "nope", "null, rfp"],
    "withoutterms": ["<empty>", "cannons", "tempo"],
    "tune": ["<empty>", "lmr_base=50", "lmr_divisor=1", "x=y"],
    "newgame": [""],
}

UCI_OPTIONS = {
    "Hash": ["1", "8", "16", "5000", "65536", "70000"],
    "Threads": ["1", "2", "3", "256", "0"],
    "MultiPV": ["1", "2", "3", "128", "129"],
    "Ponder": ["true", "false"],
    "Move Overhead": ["0", "10", "100"],
    "OwnBook": ["true", "false"],
    "BookFile": ["<empty>", "/no/such/book.cbk"],
    "Algorithm": ["pvs", "mtdf"],
    "Without": ["<empty>", "lmr", "bogus"],
    "Without Terms": ["<empty>", "pawns"],
    "Tune": ["<empty>", "rfp_margin=70"],
    "Clear Hash": [None],
}

KEYWORDS = [
    "ucci", "uci", "isready", "position", "banmoves", "setoption", "go", "stop", "ponderhit",
    "probe", "ucinewgame", "debug", "quit", "startpos", "fen", "moves", "name", "value", "depth",
    "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo", "time", "increment",
    "opptime", "infinite", "ponder", "draw", "mate", "perft", "searchmoves",
]


class Generator:
    """Commands for one dialect, drawn from a seeded random source."""

    def __init__(self, rng, dialect):
        self.rng = rng
        self.dialect = dialect
        self.counts = collections.Counter()

    def position_args(self):
        rng = self.rng
        fen = rng.choice(POSITIONS)
        board, side = parse_fen(fen)
        moves = []
        for _ in range(rng.choice([0, 0, 1, 2, 5, 12])):
            legal = legal_moves(board, side)
            if not legal:
                break
            move = rng.choice(legal)
            moves.append(iccs(move))
            board[move[1]], board[move[0]] = board[move[0]], None
            side = BLACK if side == RED else RED
        if rng.random() < 0.15:
            moves.append(rng.choice(["h2h9", "a0a9", "zz", "e0e1e2", "i9i0"]))
        head = "startpos" if fen == POSITIONS[0] and rng.random() < 0.5 else f"fen {fen}"
        return f"{head} moves {' '.join(moves)}" if moves else head

    def number(self, small):
        return str(self.rng.choice(small)) if self.rng.random() < 0.8 else self.rng.choice(HUGE_NUMBERS)

    def go(self):
        rng = self.rng
        words = ["go"]
        if rng.random() < 0.15:
            words.append("ponder")
        if self.dialect == "ucci" and rng.random() < 0.1:
            words.append("draw")
        kind = rng.random()
        if kind < 0.25:
            words += ["depth", self.number([1, 2, 3, 4, 6, 8, 40])]
        elif kind < 0.35:
            words += ["nodes", self.number([1, 100, 5000, 50000])]
        elif kind < 0.45:
            words += ["movetime", self.number([1, 10, 50, 200])]
        elif kind < 0.6:
            if self.dialect == "ucci":
                words += ["time", self.number([1, 5, 60, 300]), "increment", self.number([0, 1])]
                if rng.random() < 0.3:
                    words += ["opptime", self.number([1, 60]), "oppincrement", "0"]
            else:
                words += ["wtime", self.number([100, 1000, 60000]), "btime", self.number([100, 1000])]
                words += ["winc", self.number([0, 10]), "binc", self.number([0, 10])]
            if rng.random() < 0.3:
                words += ["movestogo", self.number([1, 10, 40])]
        elif kind < 0.7:
            words += ["infinite"] if self.dialect == "uci" else ["depth", "infinite"]
        elif kind < 0.75:
            words += ["mate", self.number([1, 2, 3])]
        elif kind < 0.85:
            words = ["go", "perft", self.number([1, 2, 3, 4, 12, 60, 65, 2971])]
        elif kind < 0.9:
            words += ["searchmoves"] + rng.sample(["h2e2", "b0c2", "a3a4", "h0g2", "zz", "c3c4"], rng.randint(0, 3))
        # else a bare go: search until stop
        return " ".join(words)

    def setoption(self):
        rng = self.rng
        if (self.dialect == "ucci") != (rng.random() < 0.15):
            name = rng.choice(sorted(UCCI_OPTIONS))
            value = rng.choice(UCCI_OPTIONS[name])
            if rng.random() < 0.2:
                value = rng.choice(HUGE_NUMBERS)
            return f"setoption {name} {value}".rstrip()
        name = rng.choice(sorted(UCI_OPTIONS))
        value = rng.choice(UCI_OPTIONS[name])
        if value is None:
            return f"setoption name {name}"
        if rng.random() < 0.2:
            value = rng.choice(HUGE_NUMBERS)
        return f"setoption name {name} value {value}"

    def valid(self):
        rng = self.rng
        r = rng.random()
        if r < 0.18:
            self.counts["position"] += 1
            return "position " + self.position_args()
        if r < 0.40:
            self.counts["go"] += 1
            return self.go()
        if r < 0.52:
            self.counts["stop"] += 1
            return "stop"
        if r < 0.58:
            self.counts["ponderhit"] += 1
            return rng.choice(["ponderhit", "ponderhit draw"])
        if r < 0.66:
            self.counts["isready"] += 1
            return "isready"
        if r < 0.80:
            self.counts["setoption"] += 1
            return self.setoption()
        if r < 0.84:
            self.counts["banmoves"] += 1
            return "banmoves " + " ".join(rng.sample(["h2e2", "b0c2", "h0g2", "a3a4", "i0i1", "c3c4"], rng.randint(0, 3)))
        if r < 0.88:
            self.counts["probe"] += 1
            return "probe " + self.position_args()
        if r < 0.91:
            self.counts["newgame"] += 1
            return "ucinewgame" if self.dialect == "uci" else "setoption newgame"
        if r < 0.93:
            self.counts["debug"] += 1
            return rng.choice(["debug on", "debug off", "debug"])
        if r < 0.985:
            self.counts["handshake"] += 1
            return rng.choice(["ucci", "uci"])
        self.counts["quit"] += 1
        return "quit"

    def mutate(self, line):
        rng = self.rng
        words = line.split(" ")
        for _ in range(rng.randint(1, 3)):
            op = rng.random()
            i = rng.randrange(len(words)) if words else 0
            if op < 0.2 and words:
                del words[i]
            elif op < 0.35 and words:
                words.insert(i, words[i])
            elif op < 0.5 and len(words) > 1:
                j = rng.randrange(len(words))
                words[i], words[j] = words[j], words[i]
            elif op < 0.65:
                words.insert(i, rng.choice(HUGE_NUMBERS))
            elif op < 0.8:
                words.insert(i, rng.choice(KEYWORDS))
            elif op < 0.9 and words:
                words[i] = words[i].upper() if rng.random() < 0.5 else words[i][: rng.randint(0, len(words[i]))]
            else:
                words.insert(i, "".join(chr(rng.randint(33, 0x2FFF)) for _ in range(rng.randint(1, 12))))
        self.counts["mutated"] += 1
        return " ".join(words)

    def junk(self):
        """A junk line, as bytes (which need not be UTF-8)."""
        rng = self.rng
        r = rng.random()
        if r < 0.3:
            self.counts["junk: non-UTF-8"] += 1
            return bytes(rng.randint(0, 255) for _ in range(rng.randint(1, 60))).replace(b"\n", b"")
        if r < 0.45:
            self.counts["junk: control characters"] += 1
            return bytes(rng.choice([0, 1, 7, 8, 9, 11, 12, 13, 27, 127]) for _ in range(rng.randint(1, 20)))
        if r < 0.6:
            self.counts["junk: long line"] += 1
            size = rng.choice([5_000, 100_000, 1 << 20, (1 << 20) + 1, 2 << 20])
            unit = rng.choice([b"x", b"go ", "炮".encode(), b"99999999999999999999 "])
            return (unit * (size // len(unit) + 1))[:size]
        if r < 0.75:
            self.counts["junk: byte-order mark"] += 1
            return "\ufeff".encode() + self.valid().encode()
        self.counts["junk: random words"] += 1
        return " ".join(rng.choice(KEYWORDS + HUGE_NUMBERS) for _ in range(rng.randint(1, 12))).encode()

    def line(self):
        """The next line to send, as bytes with its line ending."""
        r = self.rng.random()
        if r < 0.6:
            body = self.valid().encode()
        elif r < 0.85:
            body = self.mutate(self.valid()).encode()
        else:
            body = self.junk()
        ending = b"\r\n" if self.rng.random() < 0.05 else b"\n"
        return body + ending


# ---------------------------------------------------------------------------------------------
# The engine under test.


class Finding(Exception):
    pass


# Rust's `char::is_whitespace` (Unicode White_Space), which the engine splits words on; Python's
# str.split also splits on U+001C–U+001F, the engine does not.
RUST_WHITESPACE = set("\t\n\x0b\x0c\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000") | {
    chr(c) for c in range(0x2000, 0x200B)
}


def quits(line):
    """Whether the engine takes this line (bytes, with its ending) as `quit`: UTF-8, within the
    line limit, and `quit` as its first word."""
    body = line.rstrip(b"\n")
    if len(body) > 1 << 20:
        return False
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return False
    words, word = [], ""
    for ch in text:
        if ch in RUST_WHITESPACE:
            if word:
                words.append(word)
                word = ""
        else:
            word += ch
    if word:
        words.append(word)
    return bool(words) and words[0] == "quit"


class Engine:
    def __init__(self, path, memory_limit, log):
        def limit():
            if memory_limit:
                resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))

        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=limit
        )
        self.lines = queue.Queue()
        self.sent = bytearray()
        self.log = log
        self.stderr = bytearray()
        self.bad_output = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read(self):
        for raw in self.proc.stdout:
            try:
                line = raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError:
                self.bad_output.append(f"output line is not UTF-8: {raw[:80]!r}")
                continue
            if len(raw) > 4096 or (line.startswith("info string error") and len(raw) > 1100):
                self.bad_output.append(f"output line of {len(raw)} bytes: {line[:100]}…")
            self.lines.put(line)
        self.lines.put(None)

    def _read_stderr(self):
        for raw in self.proc.stderr:
            self.stderr.extend(raw)

    def send(self, data):
        self.sent.extend(data)
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # it exited: the caller finds out from the process

    def expect(self, wanted, timeout, what):
        """Reads lines until `wanted(line)`; returns the lines read. Raises Finding on a timeout or
        the end of the output."""
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            left = deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=max(left, 0))
            except queue.Empty:
                raise Finding(f"no {what} within {timeout} s (hang?); last lines: {seen[-5:]}")
            if line is None:
                raise Finding(f"the engine closed its output waiting for {what}; status {self.proc.poll()}")
            seen.append(line)
            if wanted(line):
                return seen

    def drain(self, quiet):
        seen = []
        while True:
            try:
                line = self.lines.get(timeout=quiet)
            except queue.Empty:
                return seen
            if line is None:
                return seen
            seen.append(line)

    def alive(self):
        return self.proc.poll() is None

    def kill(self):
        if self.alive():
            self.proc.kill()
        self.proc.wait()


def check_answer(line, fen):
    board, side = parse_fen(fen)
    legal = {iccs(m) for m in legal_moves(board, side)}
    words = line.split()
    if words[0] == "nobestmove" or words[:2] == ["bestmove", "(none)"]:
        if legal:
            raise Finding(f"'{line}' for {fen}, which has {len(legal)} legal moves")
        return
    if len(words) < 2 or words[1] not in legal:
        raise Finding(f"illegal answer '{line}' for {fen}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default="target/release/chariot")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=60, help="stop starting bursts after this long")
    parser.add_argument("--bursts", type=int, default=0, help="stop after this many bursts (0: no limit)")
    parser.add_argument("--memory-limit-mb", type=int, default=4096, help="address-space limit of the engine")
    parser.add_argument("--perft-data", default="tests/data/perft.txt")
    parser.add_argument("--out-dir", default="target", help="where a failing session's input is written")
    args = parser.parse_args()

    checked = check_move_generator(args.perft_data)
    print(f"fuzz-protocol: seed {args.seed}; the judge's move generator matches {checked} reference counts")

    started = time.monotonic()
    totals = collections.Counter()
    kinds = collections.Counter()
    findings = []
    session = 0
    burst = 0
    engine = None
    while time.monotonic() - started < args.seconds and (args.bursts == 0 or burst < args.bursts):
        session += 1
        rng = random.Random(f"{args.seed}/{session}")
        dialect = rng.choice(["ucci", "uci", "uci", "ucci", "junk"])
        engine = Engine(args.engine, args.memory_limit_mb << 20, None)
        totals["sessions"] += 1
        gen = Generator(rng, "ucci" if dialect == "ucci" else "uci")
        first = {"ucci": b"ucci\n", "uci": b"uci\n", "junk": gen.junk() + b"\n"}[dialect]
        engine.send(first)
        totals["lines"] += 1
        try:
            # Bursts until a quit ends the session (or the time is up).
            while time.monotonic() - started < args.seconds and (args.bursts == 0 or burst < args.bursts):
                burst += 1
                totals["bursts"] += 1
                quit_sent = False
                for _ in range(rng.randint(1, 40)):
                    line = gen.line()
                    engine.send(line)
                    totals["lines"] += 1
                    totals["bytes"] += len(line)
                    if quits(line):
                        quit_sent = True
                        break
                    if rng.random() < 0.3:
                        time.sleep(rng.choice([0.0005, 0.002, 0.01, 0.05]))
                if quit_sent:
                    totals["quits"] += 1
                    deadline = time.monotonic() + 5
                    while engine.alive() and time.monotonic() < deadline:
                        time.sleep(0.01)
                    if engine.alive():
                        raise Finding("quit did not end the process within 5 s")
                    if engine.proc.returncode != 0:
                        raise Finding(f"quit ended the process with status {engine.proc.returncode}")
                    break
                if not engine.alive():
                    raise Finding(f"the engine exited without quit, status {engine.proc.returncode}")
                # The check: stop whatever runs, isready, then a legal move for a known position.
                engine.send(b"stop\nisready\n")
                engine.expect(lambda l: l == "readyok", 15, "readyok after stop")
                engine.drain(0.2)  # a stopped search's answer, if any
                fen = rng.choice(CHECK_POSITIONS)
                engine.send(f"position fen {fen}\ngo depth 3\n".encode())
                seen = engine.expect(
                    lambda l: l.startswith("bestmove") or l == "nobestmove", 30, f"answer to go depth 3 for {fen}"
                )
                if any("already thinking" in l for l in seen):
                    raise Finding("a search was still running 0.2 s after stop and readyok")
                check_answer(seen[-1], fen)
                totals["checks passed"] += 1
                if engine.bad_output:
                    raise Finding("; ".join(engine.bad_output[:3]))
        except Finding as finding:
            name = os.path.join(args.out_dir, f"fuzz-protocol-failure-{args.seed}-{session}.in")
            with open(name, "wb") as f:
                f.write(engine.sent)
            findings.append(f"seed {args.seed} session {session} burst {burst}: {finding} (input: {name})")
            print("FINDING:", findings[-1], flush=True)
        finally:
            engine.kill()
            if b"panicked" in engine.stderr:
                findings.append(f"seed {args.seed} session {session}: panic: {bytes(engine.stderr[-500:])!r}")
                print("FINDING:", findings[-1], flush=True)
            kinds.update(gen.counts)

    elapsed = time.monotonic() - started
    print(
        f"fuzz-protocol: {totals['sessions']} sessions, {totals['bursts']} bursts, {totals['lines']} lines "
        f"({totals['bytes'] / 1e6:.1f} MB), {totals['quits']} quits, {totals['checks passed']} checks passed "
        f"in {elapsed:.0f} s"
    )
    print("  lines by kind: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
    if findings:
        print(f"fuzz-protocol: {len(findings)} findings")
        sys.exit(1)
    print("fuzz-protocol: nothing found")


if __name__ == "__main__":
    main()
