#!/usr/bin/env python3
"""Slow-reading watchers against `chariot serve` (a benchmark of issue 54's memory target, not a test).

Starts `chariot serve` with its default limits on a free loopback port, then:

1. finds --games long random games: seeded random legal moves, played by two reading players, until
   one lasts --warm-plies + --plies (a random game often ends early, by mate or the rules);
2. replays each of them afresh to --warm-plies, so that each state the server sends is large (the
   whole move list rides in every state: about 44 KB at 600 plies);
3. connects --watchers WebSocket clients, spread over --addresses loopback addresses (127.0.0.2, ...;
   100 connections per address is the server's default per-client limit) and over the games (32
   spectators a game is the server's default), each sending `watch` and then never reading again;
4. plays --plies more plies in every game, round robin: every move is a state for every watcher of
   its game. Every 50 moves a newcomer from 127.0.0.250 opens the page over HTTP and a WebSocket, and
   times its `ping` answered.

The server's resident memory is sampled every 50 ms from /proc. The run fails (exit 1) when the peak
passes --max-rss-mib, when a newcomer is refused or waits longer than --max-answer-ms, or when a
player's move is not answered. At the end each watcher's socket is drained to count what it was sent
and whether the server dropped it (end of stream) or still holds it.

    cargo build --release
    scripts/serve-watchers.py --binary target/release/chariot --watchers 1000 --addresses 10
"""

import argparse
import base64
import json
import os
import random
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--binary", default="target/release/chariot")
    p.add_argument("--watchers", type=int, default=1000)
    p.add_argument("--addresses", type=int, default=10, help="loopback addresses the watchers come from")
    p.add_argument("--games", type=int, default=32, help="long games the watchers are spread over")
    p.add_argument("--warm-plies", type=int, default=300, help="plies played before the watchers come")
    p.add_argument("--plies", type=int, default=100, help="plies played in each game while they watch")
    p.add_argument("--seed", type=int, default=54)
    p.add_argument("--max-rss-mib", type=float, default=1024.0)
    p.add_argument("--max-answer-ms", type=float, default=1000.0)
    return p.parse_args()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebSocket:
    """A minimal RFC 6455 client: text frames out (masked), text frames in."""

    def __init__(self, port, source="127.0.0.1", timeout=30.0):
        self.timeout = timeout
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0))
        key = base64.b64encode(os.urandom(16)).decode()
        head = (
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:{port}\r\n\r\n"
        )
        self.sock.sendall(head.encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            answer += chunk
        status = answer.split(b"\r\n", 1)[0].decode(errors="replace")
        if " 101 " not in status + " ":
            raise ConnectionError(f"handshake refused: {status}")
        self.buffer = b""

    def send(self, obj):
        data = json.dumps(obj).encode()
        mask = os.urandom(4)
        n = len(data)
        if n < 126:
            header = struct.pack("!BB", 0x81, 0x80 | n)
        elif n < 65536:
            header = struct.pack("!BBH", 0x81, 0x80 | 126, n)
        else:
            header = struct.pack("!BBQ", 0x81, 0x80 | 127, n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.sock.sendall(header + mask + masked)

    def pump(self):
        """Takes in whatever has arrived, without waiting, to be read later: a client that reads
        as a browser does, so that only the watchers fall behind."""
        self.sock.setblocking(False)
        try:
            while True:
                chunk = self.sock.recv(1 << 20)
                if not chunk:
                    break
                self.buffer += chunk
        except BlockingIOError:
            pass
        finally:
            self.sock.settimeout(self.timeout)

    def _exactly(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(max(65536, n - len(self.buffer)))
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def read(self):
        """The next text message as JSON (pings and other control frames skipped)."""
        while True:
            b0, b1 = self._exactly(2)
            n = b1 & 0x7F
            if n == 126:
                (n,) = struct.unpack("!H", self._exactly(2))
            elif n == 127:
                (n,) = struct.unpack("!Q", self._exactly(8))
            payload = self._exactly(n)
            opcode = b0 & 0x0F
            if opcode == 0x8:
                raise ConnectionError(f"closed by the server: {payload[2:].decode(errors='replace')}")
            if opcode == 0x1:
                return json.loads(payload)

    def until(self, kind):
        while True:
            message = self.read()
            if message.get("type") == kind:
                return message
            if message.get("type") == "error":
                raise RuntimeError(f"server error: {message}")


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return 0
    return 0


class Game:
    """A friend game between two reading players, moved with seeded random legal moves."""

    def __init__(self, port, rng, source="127.0.0.1"):
        self.rng = rng
        self.red = WebSocket(port, source=source)
        self.red.send({"type": "create", "opponent": "friend", "side": "red", "minutes": 180})
        joined = self.red.until("joined")
        self.id, self.red_token = joined["game"], joined["token"]
        self.black = WebSocket(port, source=source)
        self.black.send({"type": "join", "game": self.id, "invite": joined.get("invite", "")})
        self.black_token = self.black.until("joined")["token"]
        self.state = self.black.until("state")["game"]
        self.seats = {"red": (self.red, self.red_token), "black": (self.black, self.black_token)}

    def plies(self):
        return len(self.state["moves"])

    def over(self):
        return self.state.get("result") is not None

    def close(self):
        self.red.sock.close()
        self.black.sock.close()

    def move(self, mv=None):
        """Plays `mv` (a random legal move if None); returns the seconds until the mover saw the
        new state."""
        ws, token = self.seats[self.state["turn"]]
        played = self.plies()
        mv = mv or self.rng.choice(self.state["legal"])
        sent = time.monotonic()
        ws.send({"type": "move", "game": self.id, "token": token, "move": mv})
        while True:
            state = ws.until("state")["game"]
            if len(state["moves"]) == played + 1:
                break
        answered = time.monotonic() - sent
        self.state = state
        # The other player reads its states too, so that only the watchers fall behind.
        other = self.black if ws is self.red else self.red
        while True:
            state = other.until("state")["game"]
            if len(state["moves"]) == played + 1:
                return answered


def newcomer(port):
    """A new client from another address: the page over HTTP, then a WebSocket ping. Milliseconds each."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=10, source_address=("127.0.0.250", 0)) as s:
        s.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        page = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            page += chunk
    if not page.startswith(b"HTTP/1.1 200"):
        raise RuntimeError(f"the page refused: {page[:80]!r}")
    page_ms = (time.monotonic() - started) * 1000
    started = time.monotonic()
    ws = WebSocket(port, source="127.0.0.250", timeout=10)
    ws.send({"type": "ping"})
    ws.until("pong")
    ws.sock.close()
    return page_ms, (time.monotonic() - started) * 1000


def find_long_games(port, count, plies, seed):
    """The moves of `count` random games that each last at least `plies` plies (seeded), found by
    playing them out on the server; each seat of a search comes from an address of its own, since
    an address may hold 20 games."""
    lines, tries = [], 0
    while len(lines) < count:
        source = f"127.0.{10 + tries // 200}.{1 + (tries // 10) % 20}"
        game = Game(port, random.Random(seed * 100_003 + tries), source=source)
        tries += 1
        while game.plies() < plies and not game.over():
            game.move()
        if game.plies() >= plies:
            lines.append([m["iccs"] for m in game.state["moves"]])
        game.close()
    print(f"found {count} random games of {plies}+ plies in {tries} tries")
    return lines


def main():
    args = parse_args()
    port = free_port()
    # The server's words go to a file: a pipe nobody reads would block it once full.
    log = tempfile.NamedTemporaryFile(prefix="serve-watchers-", suffix=".log", delete=False)
    server = subprocess.Popen([args.binary, "serve", "--bind", f"127.0.0.1:{port}"], stdout=log, stderr=log)
    failures = []
    peak = [0]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], rss_kib(server.pid))
            time.sleep(0.05)

    try:
        for _ in range(100):  # the address line: the server listens
            if os.path.getsize(log.name) > 0:
                break
            time.sleep(0.05)
        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        before = rss_kib(server.pid)
        lines = find_long_games(port, args.games, args.warm_plies + args.plies, args.seed)
        games = []
        for k, line in enumerate(lines):
            game = Game(port, random.Random(0), source=f"127.0.3.{1 + k}")
            for mv in line[: args.warm_plies]:
                game.move(mv)
            games.append((game, line))
        state_bytes = len(json.dumps({"type": "state", "game": games[0][0].state}))
        print(
            f"{len(games)} games at {args.warm_plies} plies, a state about {state_bytes} bytes; "
            f"server RSS {rss_kib(server.pid)} KiB (at rest {before} KiB)"
        )
        watchers, refused = [], 0
        started = time.monotonic()
        for i in range(args.watchers):
            source = f"127.0.0.{2 + i % args.addresses}"
            try:
                w = WebSocket(port, source=source, timeout=10)
                w.send({"type": "watch", "game": games[i % len(games)][0].id})
                watchers.append(w)
                # Every watcher that comes sends its game's players a new state (the count of
                # spectators): the players read on, as a browser would.
                for game, _ in games:
                    game.red.pump()
                    game.black.pump()
            except (ConnectionError, OSError) as e:
                refused += 1
                if refused <= 3:
                    print(f"watcher {i} from {source} refused: {e}")
        print(
            f"{len(watchers)} watchers connected from {args.addresses} addresses in "
            f"{time.monotonic() - started:.1f} s ({refused} refused); RSS {rss_kib(server.pid)} KiB"
        )
        answers, pages, pings = [], [], []
        started = time.monotonic()
        for ply in range(args.warm_plies, args.warm_plies + args.plies):
            for game, line in games:
                try:
                    answers.append(game.move(line[ply]) * 1000)
                except (ConnectionError, OSError, RuntimeError) as e:
                    failures.append(f"a player of game {game.id} lost its connection at ply {ply}: {e}")
                    break
            if failures:
                break
                if len(answers) % 50 == 0:
                    try:
                        page_ms, ping_ms = newcomer(port)
                        pages.append(page_ms)
                        pings.append(ping_ms)
                    except (OSError, ConnectionError, RuntimeError) as e:
                        failures.append(f"a newcomer after {len(answers)} moves was not served: {e}")
        print(f"{len(answers)} moves while watched in {time.monotonic() - started:.1f} s")
        dropped = held = 0
        received = []
        drain_until = time.monotonic() + 60
        for w in watchers:
            # What the server's side still holds flows in as this side reads. A writer blocked on
            # a watcher that reads nothing gives up after the server's 10-second write deadline,
            # so a watcher still open when the moves end may be closed a few seconds later: a
            # pause of 2 s with nothing new (less once a minute of draining has passed) counts
            # it as held.
            w.sock.settimeout(2.0 if time.monotonic() < drain_until else 0.05)
            ended = False
            got = len(w.buffer)
            try:
                while True:
                    chunk = w.sock.recv(1 << 20)
                    got += len(chunk)
                    if not chunk:
                        ended = True
                        break
            except TimeoutError:
                pass
            except OSError:
                ended = True
            dropped += ended
            held += not ended
            received.append(got)
            w.sock.close()
        done.set()
        sampler.join()
        answers.sort()
        p95 = answers[int(round((len(answers) - 1) * 0.95))] if answers else float("nan")
        print(
            f"{len(answers)} moves while watched: answered in median {answers[len(answers) // 2]:.1f} ms, "
            f"p95 {p95:.1f} ms, max {answers[-1]:.1f} ms"
        )
        print(
            f"newcomers: {len(pings)} served; page max {max(pages, default=0):.1f} ms, "
            f"ping max {max(pings, default=0):.1f} ms"
        )
        received.sort()
        print(
            f"watchers dropped by the server: {dropped}; still held: {held}; bytes each received: "
            f"median {received[len(received) // 2] if received else 0}, max {max(received, default=0)}"
        )
        print(f"server RSS KiB: at rest {before}, peak {peak[0]} ({peak[0] / 1024:.1f} MiB)")
        if peak[0] / 1024 > args.max_rss_mib:
            failures.append(f"peak RSS {peak[0] / 1024:.1f} MiB over {args.max_rss_mib} MiB")
        slow = [t for t in pages + pings if t > args.max_answer_ms]
        if slow:
            failures.append(f"{len(slow)} newcomer answers slower than {args.max_answer_ms} ms (max {max(slow):.0f})")
        if not answers:
            failures.append("no move was played while watched")
    finally:
        done.set()
        server.kill()
        server.wait()
    with open(log.name, errors="replace") as f:
        words = f.read().splitlines()
    os.unlink(log.name)
    print(f"the server said {len(words)} lines" + "".join(f"\n  {w}" for w in words[:5]))
    for f in failures:
        print(f"FAIL: {f}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
