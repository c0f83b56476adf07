#!/usr/bin/env python3
"""The browser test of `chariot serve` (run by scripts/browser-test.sh, which starts the server
and chromedriver): three headless Chromium sessions, driven over plain WebDriver HTTP, play a
friend game as people do. Red creates it in the lobby form, Black opens the share link, a third
watches; they play by clicking squares, Black takes a move back with Red's consent, Black reloads
its page and gets its seat back, and Red mates in three (b2b4 d9e8 b4g4 c9a7 g4g9, which
`chariot judge` calls `result 1-0 ply 5 reason checkmate`). Then the saved PGN must replay in
`chariot judge` to the same verdict. Any mismatch fails loudly (exit status 1).
"""

import argparse
import base64
import json
import os
import re
import subprocess
import sys
import time
import urllib.request

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", "--disable-sync", "--window-size=1000,760",
         "--disable-dev-shm-usage"]
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
MATE = ["b2b4", "d9e8", "b4g4", "c9a7", "g4g9"]


def fail(message):
    print(f"browser test FAILED: {message}", file=sys.stderr)
    sys.exit(1)


class Browser:
    """One Chromium session over WebDriver's HTTP protocol."""

    def __init__(self, driver, name, profile):
        self.driver, self.name = driver, name
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
            "binary": "/usr/bin/chromium", "args": FLAGS + [f"--user-data-dir={profile}"]}}}}
        self.session = self.call("POST", "/session", caps)["sessionId"]

    def call(self, method, path, body=None):
        if path != "/session":
            path = f"/session/{self.session}{path}"
        data = json.dumps(body if body is not None else {}).encode() if method == "POST" else None
        request = urllib.request.Request(self.driver + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return json.loads(answer.read())["value"]
        except urllib.error.HTTPError as e:
            fail(f"{self.name}: WebDriver {method} {path}: {e.read().decode(errors='replace')[:400]}")

    def open(self, url):
        self.call("POST", "/url", {"url": url})

    def js(self, script, *args):
        return self.call("POST", "/execute/sync", {"script": script, "args": list(args)})

    def click(self, css):
        element = self.call("POST", "/element", {"using": "css selector", "value": css})[ELEMENT]
        self.call("POST", f"/element/{element}/click")

    def wait(self, what, script, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            value = self.js(script)
            if value:
                return value
            time.sleep(0.05)
        state = self.js("return JSON.stringify(window.chariot && window.chariot.state)")
        error = self.js("return document.getElementById('error').textContent")
        fail(f"{self.name}: timed out waiting for {what}; page error {error!r}; state {str(state)[:600]}")

    def plies(self, n):
        self.wait(f"{n} plies", f"const s = window.chariot.state; return s && s.moves.length === {n}")

    def play(self, move):
        self.click(f'[data-square="{move[:2]}"]')
        self.wait(f"{move[:2]} selected", "return document.querySelectorAll('#board .target').length > 0")
        self.click(f'[data-square="{move[2:]}"]')

    def screenshot(self, path):
        with open(path, "wb") as f:
            f.write(base64.b64decode(self.call("GET", "/screenshot")))

    def close(self):
        self.call("DELETE", "")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--driver", required=True)
    parser.add_argument("--data", required=True)
    parser.add_argument("--chariot", required=True)
    parser.add_argument("--profiles", required=True)
    parser.add_argument("--screenshots", default="")
    args = parser.parse_args()
    base = args.base.rstrip("/")
    red = Browser(args.driver, "red", os.path.join(args.profiles, "red"))
    black = Browser(args.driver, "black", os.path.join(args.profiles, "black"))
    watcher = Browser(args.driver, "spectator", os.path.join(args.profiles, "watcher"))

    # Red creates a friend game in the lobby form, 10 minutes + 5 seconds.
    red.open(base + "/")
    red.wait("the lobby", "return !document.getElementById('lobby').hidden && "
             "document.getElementById('connection').textContent === 'connected'")
    red.click('input[name=opponent][value=friend]')
    red.js("document.getElementById('minutes').value = '10'; document.getElementById('increment').value = '5'")
    red.click("#btn-create")
    red.wait("the new game", "return window.chariot.me && window.chariot.me.color === 'red'")
    share = red.wait("the share link", "const v = document.getElementById('share-link').value; return v.includes('#join=') && v")
    game = share.split("#join=")[1]

    black.open(share)
    black.wait("Black's seat", "return window.chariot.me && window.chariot.me.color === 'black'")
    watcher.open(f"{base}/#g={game}")
    watcher.wait("a spectator's view", "return window.chariot.me && window.chariot.me.role === 'spectator'")
    shown = "return getComputedStyle(document.getElementById('player-buttons')).display"
    if watcher.js(shown) != "none" or red.js(shown) == "none":
        fail("the players' buttons are shown to the spectator or hidden from a player")
    red.wait("both players there", "return window.chariot.state.black.kind === 'human'")

    # Move 1, then Black's reply is taken back with Red's consent.
    red.play(MATE[0])
    for b in (red, black, watcher):
        b.plies(1)
    black.play("h9g7")
    for b in (red, black, watcher):
        b.plies(2)
    black.click("#btn-undo")
    red.wait("the take-back request", "return !document.getElementById('btn-agree-undo').hidden")
    if args.screenshots:
        red.screenshot(os.path.join(args.screenshots, "serve-playing.png"))
    red.click("#btn-agree-undo")
    for b in (red, black, watcher):
        b.plies(1)

    # Black reloads its page: its seat comes back from the token it kept.
    black.open(f"{base}/#g={game}")
    black.js("location.reload()")
    black.wait("Black's seat after a reload", "return window.chariot.me && window.chariot.me.color === 'black' "
               "&& window.chariot.state && window.chariot.state.moves.length === 1")

    # A move out of turn is not even offered: clicking Red's piece on Black's turn selects nothing.
    red.click('[data-square="b4"]')
    if red.js("return document.querySelectorAll('#board .target').length") != 0:
        fail("Red was offered a move on Black's turn")
    for i, move in enumerate(MATE[1:], start=2):
        player = black if i % 2 == 0 else red
        player.play(move)
        for b in (red, black, watcher):
            b.plies(i)

    expected = "1-0 — red wins: checkmate"
    for b in (red, black, watcher):
        text = b.wait("the result", "const r = document.getElementById('result'); return !r.hidden && r.textContent")
        if text != expected:
            fail(f"{b.name} shows {text!r}, expected {expected!r}")
    moves_shown = watcher.js("return Array.from(document.querySelectorAll('#moves li')).map(li => li.textContent)")
    state = watcher.js("return window.chariot.state")
    chinese = [m["chinese"] for m in state["moves"]]
    if [m["iccs"] for m in state["moves"]] != MATE:
        fail(f"the game's moves are {[m['iccs'] for m in state['moves']]}, expected {MATE}")
    pairs = [" ".join(chinese[i:i + 2]) for i in range(0, len(chinese), 2)]
    if moves_shown != pairs:
        fail(f"the move list shows {moves_shown}, expected {pairs}")
    if args.screenshots:
        watcher.screenshot(os.path.join(args.screenshots, "serve-finished.png"))

    # Stepping through the game (复盘): the start has all 32 pieces, move 3 one fewer (c9a7 took
    # nothing, g4g9 takes the elephant), and the end is the live position again.
    pieces = "return document.querySelectorAll('#board .piece').length"
    watcher.click("#btn-first")
    if watcher.js(pieces) != 32 or watcher.js("return document.getElementById('step-text').textContent") != "move 0 of 5":
        fail("stepping back to the start does not show the start")
    watcher.click('#moves span[data-ply="3"]')
    shown = watcher.js("return document.querySelector('#moves span.shown').textContent")
    if shown != chinese[2] or watcher.js(pieces) != 32:
        fail(f"move 3 shows {shown!r} with {watcher.js(pieces)} pieces")
    # Chariot's analysis of move 3's position: three lines, each with a score and chances.
    watcher.click("#btn-analyse")
    lines = watcher.wait("the analysis", "const li = document.querySelectorAll('#analysis li'); "
                         "return li.length === 3 && Array.from(li).map(x => x.textContent)", timeout=60)
    title = watcher.js("return document.getElementById('analysis-title').textContent")
    if title != "after move 3, for Black" or not all(re.match(r"^(mate -?\d+|[+-]?\d+\.\d\d) W \d+% D \d+% L \d+% — ", x) for x in lines):
        fail(f"the analysis reads {title!r}: {lines}")
    if args.screenshots:
        watcher.screenshot(os.path.join(args.screenshots, "serve-analysis.png"))
    watcher.click("#btn-last")
    if watcher.js(pieces) != 31 or watcher.js("return document.getElementById('step-text').textContent") != "live, move 5":
        fail("the last step does not show the final position")

    # The PGN saved in --data replays legally to the same verdict in `chariot judge`.
    path = os.path.join(args.data, "pgn", f"{game}.pgn")
    deadline = time.time() + 10
    while not os.path.exists(path) and time.time() < deadline:
        time.sleep(0.05)
    with open(path, encoding="utf-8") as f:
        pgn = f.read()
    for tag in ['[Result "1-0"]', '[Termination "checkmate"]', '[Format "Chinese"]']:
        if tag not in pgn:
            fail(f"the PGN lacks {tag}:\n{pgn}")
    movetext = pgn.split("\n\n", 1)[1]
    words = [w for w in movetext.split() if not re.fullmatch(r"\d+\.(\.\.)?|1-0|0-1|1/2-1/2|\*", w)]
    judged = subprocess.run([args.chariot, "judge", "--moves", *words], capture_output=True, text=True)
    if judged.returncode != 0 or not judged.stdout.endswith("result 1-0 ply 5 reason checkmate\n"):
        fail(f"chariot judge on the PGN's moves {words}: {judged.stdout}{judged.stderr}")
    for b in (red, black, watcher):
        b.close()
    print(f"browser test passed: game {game}, {len(words)} moves, judged: {judged.stdout.strip().splitlines()[-1]}")


if __name__ == "__main__":
    main()
