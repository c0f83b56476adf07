#!/usr/bin/env python3
"""The browser test of `chariot serve` (run by scripts/browser-test.sh, which starts the server
and chromedriver): three headless Chromium sessions, driven over plain WebDriver HTTP, play a
friend game as people do. Red creates it in the lobby form, Black opens the share link, a third
watches; they play by clicking squares, Black takes a move back with Red's consent, Black reloads
its page and gets its seat back, and Red mates in three (b2b4 d9e8 b4g4 c9a7 g4g9, which
`chariot judge` calls `result 1-0 ply 5 reason checkmate`). Then the saved PGN must replay in
`chariot judge` to the same verdict. Along the way the lobby offers the 21 skill levels, the
spectator evaluates positions (局面评估: a share on every piece) and draws the game's curve (a
click on a point shows that move), and Black opens a PGN file as an analysis board (复盘) after a
malformed PGN is refused with its reason, curves and evaluates it. Any mismatch fails loudly
(exit status 1).
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
# A game for the PGN board, 20 legal plies (`chariot judge --moves …`: result none), in GB18030 as
# Chinese programs often write PGN files.
REVIEW = ("[Event \"Club match\"]\n[Red \"Hu\"]\n[Black \"Lü\"]\n[Result \"1/2-1/2\"]\n\n"
          "1. 炮二平五 马8进7 2. 马二进三 车9平8 3. 车一平二 马2进3 4. 兵七进一 卒7进1 5. 车二进六 炮8平9\n"
          "6. 车二平三 炮9退1 7. 马八进七 士4进5 8. 马七进六 炮9平7 9. 车三平四 马7进8 10. 炮八平七 车1平2 1/2-1/2\n")
EVALUATION = r"^局面评估 (at the start|after \d+(?:\.|…) \S+), (Red|Black) to move: [+-]?\d+\.\d\d for \2 \(W \d+% D \d+% L \d+%\)"


def fail(message):
    print(f"browser test FAILED: {message}", file=sys.stderr)
    sys.exit(1)


class StaleError(str):
    """A WebDriver error the caller chose to handle (its name)."""


class Browser:
    """One Chromium session over WebDriver's HTTP protocol."""

    def __init__(self, driver, name, profile, language="en-US"):
        self.driver, self.name = driver, name
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
            "binary": "/usr/bin/chromium", "args": FLAGS + [f"--user-data-dir={profile}", f"--lang={language}"],
            "prefs": {"intl": {"accept_languages": language}}}}}}
        self.session = self.call("POST", "/session", caps)["sessionId"]

    def call(self, method, path, body=None, what=None, allow=()):
        """The command's value; an error whose WebDriver name is in `allow` is returned as
        `StaleError` instead of failing the test."""
        if path != "/session":
            path = f"/session/{self.session}{path}"
        data = json.dumps(body if body is not None else {}).encode() if method == "POST" else None
        request = urllib.request.Request(self.driver + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return json.loads(answer.read())["value"]
        except urllib.error.HTTPError as e:
            text = e.read().decode(errors="replace")
            try:
                error = json.loads(text)["value"]["error"]
            except (ValueError, KeyError, TypeError):
                error = None
            if error in allow:
                return StaleError(error)
            fail(f"{self.name}: {what or ''} WebDriver {method} {path}: {text[:400]}")

    def open(self, url):
        self.call("POST", "/url", {"url": url})

    def js(self, script, *args):
        return self.call("POST", "/execute/sync", {"script": script, "args": list(args)})

    def click(self, css):
        # The board redraws its squares when a state arrives from the server, so a square found
        # a moment ago may be gone when it is clicked: find it again then, a few times.
        for _ in range(5):
            element = self.call("POST", "/element", {"using": "css selector", "value": css}, css)[ELEMENT]
            done = self.call("POST", f"/element/{element}/click", None, f"clicking {css}:",
                             allow=("stale element reference",))
            if not isinstance(done, StaleError):
                return
            time.sleep(0.05)
        fail(f"{self.name}: clicking {css}: the element went stale five times in a row")

    def type_into(self, css, text):
        element = self.call("POST", "/element", {"using": "css selector", "value": css})[ELEMENT]
        self.call("POST", f"/element/{element}/value", {"text": text})

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
        self.click(f'#board .hit[data-square="{move[:2]}"]')
        self.wait(f"{move[:2]} selected", "return document.querySelectorAll('#board .target').length > 0")
        self.click(f'#board .hit[data-square="{move[2:]}"]')

    def drag(self, source, target, pointer="mouse"):
        """Drags the piece on square `source` to square `target` with WebDriver's actions, in
        five steps: with a mouse, or a finger (`pointer="touch"`) as on a phone."""
        where = ("const r = document.querySelector(`#board .hit[data-square=\"${arguments[0]}\"]`).getBoundingClientRect(); "
                 "return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)]")
        (x0, y0), (x1, y1) = self.js(where, source), self.js(where, target)
        actions = [{"type": "pointerMove", "duration": 0, "origin": "viewport", "x": x0, "y": y0},
                   {"type": "pointerDown", "button": 0}]
        for i in range(1, 6):
            actions.append({"type": "pointerMove", "duration": 40, "origin": "viewport",
                            "x": x0 + (x1 - x0) * i // 5, "y": y0 + (y1 - y0) * i // 5})
        actions.append({"type": "pointerUp", "button": 0})
        self.call("POST", "/actions", {"actions": [{"type": "pointer", "id": pointer, "parameters": {"pointerType": pointer},
                                                    "actions": actions}]}, f"dragging {source} to {target}:")
        self.call("DELETE", "/actions")

    def key(self, name):
        """Presses and releases a key on the page (WebDriver's name for it: ArrowLeft, Home…)."""
        code = {"ArrowLeft": "\ue012", "ArrowRight": "\ue014", "Home": "\ue011", "End": "\ue010"}[name]
        self.call("POST", "/actions", {"actions": [{"type": "key", "id": "keyboard", "actions": [
            {"type": "keyDown", "value": code}, {"type": "keyUp", "value": code}]}]}, f"pressing {name}:")

    def screenshot(self, path, height=None, width=1000):
        """The page as shown; with `height`, in a window that tall (the board and the curve
        under it), scrolled to the top."""
        if height:
            self.call("POST", "/window/rect", {"width": width, "height": height})
            self.js("window.scrollTo(0, 0)")
        with open(path, "wb") as f:
            f.write(base64.b64decode(self.call("GET", "/screenshot")))
        if height:
            self.call("POST", "/window/rect", {"width": 1000, "height": 760})

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
    # The levels come from the server: 0 to 20, each with its Elo, 5 chosen.
    red.wait("the levels", "return document.querySelectorAll('#level option').length === 21")
    level = red.js("const s = document.getElementById('level'); return [s.value, s.options[s.selectedIndex].textContent]")
    if level[0] != "5" or not re.fullmatch(r"5 — about \d+ Elo", level[1]):
        fail(f"the lobby's level is {level}")
    if args.screenshots:
        red.screenshot(os.path.join(args.screenshots, "serve-lobby.png"))
    red.click('input[name=opponent][value=friend]')
    red.js("document.getElementById('minutes').value = '10'; document.getElementById('increment').value = '5'")
    red.click("#btn-create")
    red.wait("the new game", "return window.chariot.me && window.chariot.me.color === 'red'")
    share = red.wait("the share link", "const v = document.getElementById('share-link').value; return v.includes('#join=') && v")
    game = share.split("#join=")[1].split("&")[0]

    black.open(share)
    black.wait("Black's seat", "return window.chariot.me && window.chariot.me.color === 'black'")
    watcher.open(f"{base}/#g={game}")
    watcher.wait("a spectator's view", "return window.chariot.me && window.chariot.me.role === 'spectator'")
    shown = "return getComputedStyle(document.getElementById('player-buttons')).display"
    if watcher.js(shown) != "none" or red.js(shown) == "none":
        fail("the players' buttons are shown to the spectator or hidden from a player")
    red.wait("both players there", "return window.chariot.state.black.kind === 'human'")
    # The spectator is told it watches, and the players see how many do.
    watching = "return document.getElementById('watching').textContent"
    watcher.wait("the spectator's note", watching + " === 'You are watching · 1 spectator'")
    red.wait("the spectator count", watching + " === '1 spectator'")
    # The clocks wait for the first move; Undo waits for a move of one's own.
    undo_off = "return document.getElementById('btn-undo').disabled"
    if red.js("return window.chariot.state.clock.running") or not red.js(undo_off):
        fail("Red's clock runs, or Undo is offered, before the first move")

    # Move 1, then Black's reply is taken back with Red's consent.
    red.play(MATE[0])
    for b in (red, black, watcher):
        b.plies(1)
    if not black.js(undo_off) or red.js(undo_off) or not black.js("return window.chariot.state.clock.running"):
        fail("after Red's first move Black could take back, Red could not, or Black's clock stands")
    if not black.js("return document.title").startswith("● Your move") or red.js("return document.title") != "Chariot 象棋":
        fail(f"the tab titles read {black.js('return document.title')!r} and {red.js('return document.title')!r}")
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
    # Fair play: no engine help while the game runs. And an error after the reload (a draw offered
    # twice) keeps the seat and the token.
    if not black.js("return document.getElementById('btn-analyse').disabled"):
        fail("a player may ask for an analysis of the live game")
    black.click("#btn-draw")
    black.click("#btn-draw")
    black.wait("the second offer refused", "return document.getElementById('error').textContent !== ''")
    time.sleep(0.5)
    kept = black.js(f"return [window.chariot.me.role, localStorage.getItem('chariot-token-{game}') !== null]")
    if kept != ["player", True]:
        fail(f"after an error Black's page is {kept}, expected a player with its token")
    red.wait("Black's draw offer", "return !document.getElementById('btn-decline-draw').hidden")
    red.click("#btn-decline-draw")

    # On Black's turn Red's pieces cannot be played but can be premoved: b4g4 is kept (its two
    # squares marked) and played as soon as Black has moved. A Black piece offers Red nothing.
    targets = "return document.querySelectorAll('#board .target').length"
    red.click('[data-square="h9"]')
    if red.js(targets) != 0:
        fail("Red was offered a move for a Black piece")
    red.play(MATE[2])
    if red.js("return window.chariot.premove") != [MATE[2][:2], MATE[2][2:]] or \
            red.js("return document.querySelectorAll('#board .premove').length") != 2 or red.js("return window.chariot.state.moves.length") != 1:
        fail(f"Red's premove is {red.js('return window.chariot.premove')}")
    # Black drags its elephant with the mouse; Red's premove follows at once.
    black.drag(MATE[1][:2], MATE[1][2:])
    for b in (red, black, watcher):
        b.plies(3)
    if red.js("return window.chariot.premove") is not None:
        fail("the premove stays after it was played")
    # Black drags the other elephant with a finger, as on a phone; Red mates with a click.
    black.drag(MATE[3][:2], MATE[3][2:], pointer="touch")
    for b in (red, black, watcher):
        b.plies(4)
    red.play(MATE[4])
    for b in (red, black, watcher):
        b.plies(5)

    expected = "1-0 — red wins: checkmate"
    for b in (red, black, watcher):
        text = b.wait("the result", "const r = document.getElementById('result'); return !r.hidden && r.textContent")
        if text != expected:
            fail(f"{b.name} shows {text!r}, expected {expected!r}")
    # Each page sounded the moves, the mating check and the end.
    for b in (red, black):
        played = b.js("return ChariotSound.played")
        if not {"move", "check", "end"} <= set(played):
            fail(f"{b.name} played the sounds {played}")
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
    # The keyboard steps too: Home, End, ←, →. Moves are numbered as players number them.
    pieces = "return document.querySelectorAll('#board .piece').length"
    step_text = "return document.getElementById('step-text').textContent"
    watcher.click("#btn-first")
    if watcher.js(pieces) != 32 or watcher.js(step_text) != "the start · ply 0/5":
        fail(f"stepping back to the start shows {watcher.js(step_text)!r}")
    watcher.key("End")
    if watcher.js(step_text) != f"3. {chinese[4]} (live) · ply 5/5":
        fail(f"End shows {watcher.js(step_text)!r}")
    watcher.key("ArrowLeft")
    watcher.key("ArrowLeft")
    watcher.key("ArrowLeft")
    watcher.key("ArrowRight")
    if watcher.js(step_text) != f"2. {chinese[2]} · ply 3/5":
        fail(f"End, ← ← ← → shows {watcher.js(step_text)!r}")
    watcher.key("Home")
    if watcher.js(pieces) != 32:
        fail("Home does not show the start")
    watcher.click('#moves span[data-ply="3"]')
    shown = watcher.js("return document.querySelector('#moves span.shown').textContent")
    if shown != chinese[2] or watcher.js(pieces) != 32:
        fail(f"move 3 shows {shown!r} with {watcher.js(pieces)} pieces")
    # Chariot's analysis of move 3's position: three lines, each with a score and chances (the
    # game has ended, so the engine's help is open).
    if watcher.js("return document.getElementById('btn-analyse').disabled"):
        fail("the analysis is still off after the end")
    watcher.click("#btn-analyse")
    lines = watcher.wait("the analysis", "const li = document.querySelectorAll('#analysis li'); "
                         "return li.length === 3 && Array.from(li).map(x => x.textContent)", timeout=60)
    title = watcher.js("return document.getElementById('analysis-title').textContent")
    if title != f"after 2. {chinese[2]}, for Black" or not all(re.match(r"^(mate -?\d+|[+-]?\d+\.\d\d) W \d+% D \d+% L \d+% — ", x) for x in lines):
        fail(f"the analysis reads {title!r}: {lines}")
    if args.screenshots:
        watcher.screenshot(os.path.join(args.screenshots, "serve-analysis.png"))

    # 局面评估 at move 3: a share on each of the 30 pieces that are not kings, and the score for
    # Black; one step on, the evaluation follows the position shown.
    shares = "return document.querySelectorAll('#board .share').length"
    watcher.click("#btn-evaluate")
    watcher.wait("the evaluation", f"{shares} === 30", timeout=30)
    text = watcher.js("return document.getElementById('evaluation-text').textContent")
    found = re.match(EVALUATION, text)
    if not found or found.group(1) != f"after 2. {chinese[2]}" or found.group(2) != "Black":
        fail(f"the evaluation reads {text!r}")
    labels = watcher.js("return Array.from(document.querySelectorAll('#board .share text')).map(t => t.textContent)")
    if not all(re.fullmatch(r"[+-]?\d+\.\d", x) for x in labels):
        fail(f"the pieces' shares read {labels}")
    # A click on the a3 pawn shows its relations: the rook on a0 protects it, nothing attacks it.
    watcher.click('.hit[data-square="a3"]')
    watcher.wait("the a3 pawn's relations", "return document.getElementById('evaluation-text').textContent"
                 ".includes('a3 is attacked by nothing (red), protected by a0 (green)')", timeout=10)
    if watcher.js("return document.querySelectorAll('#board .relation[data-relation=\"a0\"]').length") != 1:
        fail("the a3 pawn's protector on a0 is not ringed")
    watcher.click('.hit[data-square="a3"]')
    watcher.click("#btn-next")
    watcher.wait("the evaluation of ply 4", "return document.getElementById('evaluation-text').textContent"
                 f".startsWith('局面评估 after 2… {chinese[3]}, Red to move')", timeout=30)
    # The analysis of ply 3 is gone from beside ply 4.
    if not watcher.js("return document.querySelectorAll('#analysis li').length === 0 && "
                      "document.getElementById('analysis-title').textContent === ''"):
        fail("the analysis of ply 3 stays beside ply 4")
    # The curve: a point for each of the 6 positions, the mate at 100%; a click on a point shows it.
    watcher.click("#btn-curve")
    watcher.wait("the curve", "const c = window.chariot.curve; return c && c.done && "
                 "document.querySelectorAll('#curve .point').length === 6 && document.querySelector('#curve polyline')",
                 timeout=120)
    last = watcher.js("return window.chariot.curve.points[5]")
    if last["expected"] != 1 or last["ply"] != 5:
        fail(f"the curve's last point is {last}")
    watcher.click('#curve .point[data-ply="2"]')
    if watcher.js(step_text) != f"1… {chinese[1]} · ply 2/5":
        fail(f"a click on the curve's point 2 shows {watcher.js(step_text)!r}")
    watcher.wait("the evaluation of ply 2", f"{shares} === 30 && document.getElementById('evaluation-text')"
                 f".textContent.startsWith('局面评估 after 1… {chinese[1]}')", timeout=30)
    if args.screenshots:
        watcher.screenshot(os.path.join(args.screenshots, "serve-evaluation.png"), height=1120)
    watcher.click("#btn-evaluate")
    if watcher.js(shares) != 0:
        fail("the shares stay after the evaluation is turned off")
    watcher.click("#btn-last")
    if watcher.js(pieces) != 31 or watcher.js(step_text) != f"3. {chinese[4]} (live) · ply 5/5":
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
    # A rematch: Black, who lost, offers one; Red accepts and plays Black in the new game, at the
    # same time control.
    if red.js("return document.getElementById('btn-rematch').hidden") or not watcher.js("return document.getElementById('btn-rematch').hidden"):
        fail("Rematch is not offered to a player, or is to the spectator")
    black.click("#btn-rematch")
    black.wait("the rematch", f"const m = window.chariot.me; return m && m.game !== '{game}' && m.color === 'red'")
    red.wait("the rematch offer", "return !document.getElementById('btn-accept-rematch').hidden")
    # The new game's invitation is in Red's state alone: the spectator sees the offer, not the secret.
    offer = watcher.wait("the offer seen", "const r = window.chariot.state.rematch; return r && [r.game, r.invite || null]")
    if offer[1] is not None or red.js("return window.chariot.state.rematch.invite") is None:
        fail(f"the rematch's invitation reached the spectator ({offer}) or not Red")
    red.click("#btn-accept-rematch")
    rematch = red.wait("Red's seat in the rematch", f"const m = window.chariot.me; return m && m.game !== '{game}' && "
                       "m.color === 'black' && window.chariot.state.black.kind === 'human' && m.game")
    if rematch != black.js("return window.chariot.me.game") or red.js("return window.chariot.state.clock.red_ms") != 600000:
        fail("the rematch is not the game Black made, or not at 10 minutes")
    # The sound switch is kept in the browser.
    watcher.click("#btn-sound")
    watcher.js("location.reload()")
    watcher.wait("the page again", "return window.chariot.state && window.chariot.state.id === arguments[0]".replace("arguments[0]", repr(game)))
    if watcher.js("return [ChariotSound.enabled, document.getElementById('btn-sound').classList.contains('active')]") != [False, False]:
        fail("the sound switch is not kept after a reload")
    # A phone (390×844): the board is whole on the screen.
    watcher.call("POST", "/window/rect", {"width": 390, "height": 844})
    box = watcher.js("const r = document.getElementById('board').getBoundingClientRect(); "
                     "return [r.top, r.bottom, r.left, r.right, window.innerWidth, window.innerHeight]")
    if box[0] < 0 or box[1] > box[5] or box[2] < 0 or box[3] > box[4]:
        fail(f"on a phone the board is at {box}")
    if args.screenshots:
        watcher.screenshot(os.path.join(args.screenshots, "serve-phone.png"), width=390, height=844)
    watcher.call("POST", "/window/rect", {"width": 1000, "height": 760})

    # 中文 / English: every word of the finished game in Chinese, kept after a reload, and back.
    page_words = ("return [document.getElementById('result').textContent, document.getElementById('status').textContent, "
             "document.getElementById('step-text').textContent, document.getElementById('watching').textContent, "
             "document.getElementById('btn-flip').textContent, document.querySelector('#bottom-player .name').textContent, "
             "document.documentElement.lang]")
    watcher.click("#lang-zh")
    chinese_words = ["1-0 — 红方胜：将死", "对局结束", f"3. {chinese[4]}（当前） · 第 5/5 步", "你在观战 · 1 人观战", "翻转",
                     "红方：棋手（离线）", "zh-CN"]
    if watcher.js(page_words) != chinese_words:
        fail(f"in Chinese the page reads {watcher.js(page_words)}")
    if args.screenshots:
        watcher.screenshot(os.path.join(args.screenshots, "serve-chinese.png"))
    watcher.js("location.reload()")
    watcher.wait("the page in Chinese again", f"return window.chariot.state && {page_words[7:]}[0] === '1-0 — 红方胜：将死'")
    watcher.click("#lang-en")
    if watcher.js(page_words)[:3] != ["1-0 — red wins: checkmate", "Game over", f"3. {chinese[4]} (live) · ply 5/5"]:
        fail(f"back in English the page reads {watcher.js(page_words)}")
    # A browser set to Chinese gets the page in Chinese at first.
    chinese_browser = Browser(args.driver, "chinese browser", os.path.join(args.profiles, "chinese"), language="zh-CN")
    chinese_browser.open(base + "/")
    chinese_browser.wait("the lobby in Chinese", "return document.getElementById('connection').textContent === '已连接' && "
                         "document.querySelector('#lobby h2').textContent === '新局' && "
                         "document.querySelector('#level option').textContent.startsWith('0 — 约 ')")
    # A late joiner (with the creator's share link) finds both seats taken: told so (in
    # Chinese), and watches.
    chinese_browser.open(share)
    chinese_browser.wait("the late joiner told", "return document.getElementById('error').textContent === "
                         "'两个座位都已有人，你可以观战' && document.getElementById('watching').textContent.startsWith('你在观战')")
    # On a phone, Start (a game against Chariot, pressed low on the lobby's page) shows the
    # board whole at the top.
    chinese_browser.call("POST", "/window/rect", {"width": 390, "height": 844})
    chinese_browser.open(base + "/")
    chinese_browser.wait("the lobby", "return !document.getElementById('lobby').hidden && "
                         "document.querySelectorAll('#level option').length === 21")
    chinese_browser.js("window.scrollTo(0, document.body.scrollHeight)")  # as a thumb leaves it
    chinese_browser.click("#btn-create")
    chinese_browser.wait("the game on a phone", "return window.chariot.state && window.chariot.me.color === 'red'")
    box = chinese_browser.js("const r = document.getElementById('board').getBoundingClientRect(); "
                             "return [r.top, r.bottom, window.innerHeight]")
    if box[0] < 0 or box[1] > box[2]:
        fail(f"after Start on a phone the board is at {box}")
    # Clocks show tenths under 10 seconds.
    texts = chinese_browser.js("return [65000, 10000, 9999, 9340, 50, -5].map(window.chariot.clockText)")
    if texts != ["1:05", "0:10", "0:09.9", "0:09.3", "0:00.0", "0:00.0"]:
        fail(f"the clocks read {texts}")
    chinese_browser.close()

    # 复盘 from a PGN: Black goes back to the lobby; a malformed PGN is refused with the reason;
    # a file picked (GB18030) opens a board of its 20 moves, which can be curved and evaluated.
    black.click("#btn-new")
    black.wait("the lobby again", "return !document.getElementById('lobby').hidden")
    black.js("document.getElementById('pgn-text').value = arguments[0]", "1. h2e2 h9g7\n2. h2h8 *\n")
    black.click("#btn-load-pgn")
    error = black.wait("the PGN's error", "return document.getElementById('lobby-error').textContent")
    if error != "cannot read the PGN: line 2: 'h2h8' is not a legal move":
        fail(f"a malformed PGN reads {error!r}")
    path = os.path.join(args.profiles, "review.pgn")
    with open(path, "wb") as f:
        f.write(REVIEW.encode("gb18030"))
    black.type_into("#pgn-file", path)
    black.wait("the file read", "return document.getElementById('pgn-text').value.includes('炮二平五')")
    black.click("#btn-load-pgn")
    black.wait("the PGN board", "const s = window.chariot.state; return s && s.record && s.moves.length === 20")
    status = black.js("return [document.getElementById('status').textContent, document.getElementById('result').textContent, "
                      "document.querySelector('#bottom-player .name').textContent]")
    if status != ["Analysis board 复盘 — Club match", "1/2-1/2 — draw: as recorded", "Red: Hu"]:
        fail(f"the PGN board reads {status}")
    black.click("#btn-curve")
    black.wait("the PGN's curve", "const c = window.chariot.curve; return c && c.done && "
               "document.querySelectorAll('#curve .point').length === 21", timeout=180)
    black.click('#curve .point[data-ply="9"]')
    black.click("#btn-evaluate")
    black.wait("the PGN's evaluation", "return document.querySelectorAll('#board .share').length === 30", timeout=30)
    text = black.js("return document.getElementById('evaluation-text').textContent")
    ninth = black.js("return window.chariot.state.moves[8].chinese")
    if not re.match(EVALUATION, text) or not text.startswith(f"局面评估 after 5. {ninth}, Black to move"):
        fail(f"the PGN board's evaluation reads {text!r}")
    if args.screenshots:
        black.screenshot(os.path.join(args.screenshots, "serve-review.png"), height=1120)
    # 中盘研究: at ply 7 Black plays another move (a click) and Red answers (a drag): a variation,
    # each move checked by the server, evaluated and analysed; ← steps in it, and the way back
    # leads to the game. The PGN taken away holds it in parentheses and reads back whole.
    review_moves = [m["chinese"] for m in black.js("return window.chariot.state.moves")]
    black.click('#moves span[data-ply="7"]')
    black.wait("the legal moves at ply 7", "const e = window.chariot.explored; return e && e.key === '7|' && e.answer.legal.length > 0")
    black.play("h7i7")
    black.wait("the variation", "const v = window.chariot.variation; return v && v.moves.length === 1 && v.at === 1")
    black.wait("the legal moves in it", "const e = window.chariot.explored; return e && e.key === '7|h7i7'")
    black.drag("b0", "c2")
    black.wait("its second move", "const v = window.chariot.variation; return v && v.moves.length === 2 && v.at === 2")
    line = [m["chinese"] for m in black.js("return window.chariot.variation.moves")]
    if black.js(step_text) != f"5. {line[1]} (variation)":
        fail(f"the variation's position reads {black.js(step_text)!r}")
    black.wait("the variation's evaluation", "return document.getElementById('evaluation-text').textContent"
               f".startsWith('局面评估 after 5. {line[1]} (variation), Black to move')", timeout=30)
    black.click("#btn-analyse")
    black.wait("the variation's analysis", "return document.querySelectorAll('#analysis li').length === 3 && "
               f"document.getElementById('analysis-title').textContent === 'after 5. {line[1]} (variation), for Black'", timeout=60)
    if args.screenshots:
        black.screenshot(os.path.join(args.screenshots, "serve-variation.png"), height=1120)
    black.key("ArrowLeft")
    if black.js(step_text) != f"4… {line[0]} (variation)" or black.js("return document.querySelectorAll('#analysis li').length") != 0:
        fail(f"← in the variation shows {black.js(step_text)!r}, its analysis kept")
    black.click("#btn-back-game")
    if black.js(step_text) != f"4. {review_moves[6]} · ply 7/20" or black.js("return window.chariot.variation") is not None:
        fail(f"back to the game shows {black.js(step_text)!r}")
    exported = black.js("return window.chariot.exportPgn()")
    flat = " ".join(exported.split())
    wanted = f"4. {review_moves[6]} {review_moves[7]} (4... {line[0]} 5. {line[1]}) 5. {review_moves[8]}"
    if wanted not in flat or '[Event "Club match"]' not in exported or not flat.endswith("1/2-1/2"):
        fail(f"the PGN with the variation lacks {wanted!r}:\n{exported}")
    black.click("#btn-new")
    black.wait("the lobby", "return !document.getElementById('lobby').hidden")
    black.js("document.getElementById('pgn-text').value = arguments[0]", exported)
    black.click("#btn-load-pgn")
    black.wait("the PGN with its variation read back", "const s = window.chariot.state; return s && s.record && "
               f"s.moves.length === 20 && s.moves.map(m => m.chinese).join(' ') === {' '.join(review_moves)!r}")

    # 打谱: the board editor checks every position with the rules and answers its legal moves.
    black.click("#btn-new")
    black.click("#btn-editor")
    status = "return document.getElementById('editor-status').textContent"
    black.wait("the editor on the start", status + " === 'A legal position: Red to move, 44 legal moves'")
    black.click("#editor-clear")
    black.wait("an empty board refused", status + ".startsWith('not a legal position: ')")
    for tool, square in [("K", "e0"), ("k", "d9"), ("R", "a0")]:
        black.click(f'#palette [data-tool="{tool}"]')
        black.click(f'#editor-board .hit[data-square="{square}"]')
    black.wait("a rook and two kings", status + " === 'A legal position: Red to move, 14 legal moves'")
    black.click('#palette [data-tool="k"]')
    black.click('#editor-board .hit[data-square="f9"]')
    black.wait("a second black king refused", status + ".startsWith('not a legal position: ')")
    black.click('#palette [data-tool=""]')
    black.click('#editor-board .hit[data-square="f9"]')
    black.wait("the position legal again", status + " === 'A legal position: Red to move, 14 legal moves'")
    fen = black.js("return document.getElementById('editor-fen').value")
    if fen != "3k5/9/9/9/9/9/9/9/9/R3K4 w":
        fail(f"the editor's FEN reads {fen!r}")
    if args.screenshots:
        black.screenshot(os.path.join(args.screenshots, "serve-editor.png"))
    # Analysed at once on a board of its own.
    black.click("#editor-analyse")
    black.wait("the edited position's board", "const s = window.chariot.state; return s && s.record && "
               "s.fen.startsWith('3k5/9/9/9/9/9/9/9/9/R3K4 w')")
    # The server has the king-and-rook table (--egtb): its verdict heads the lines, which are the
    # moves that keep the table's result (the quickest mates), so there may be fewer than three.
    black.wait("its analysis", "return document.querySelectorAll('#analysis li:not(.tablebase)').length >= 1 && "
               "document.querySelector('#analysis li.tablebase') !== null && "
               "document.getElementById('analysis-title').textContent === 'at the start, for Red'", timeout=60)
    verdict = black.js("const li = document.querySelector('#analysis li.tablebase'); return li && li.textContent")
    if not verdict or not re.fullmatch(r"tablebase: win, mate in \d+ plies", verdict):
        fail(f"the tablebase's verdict reads {verdict!r}")

    for b in (red, black, watcher):
        b.close()
    print(f"browser test passed: game {game}, {len(words)} moves, judged: {judged.stdout.strip().splitlines()[-1]}; "
          f"a PGN board of 20 moves curved and evaluated")


if __name__ == "__main__":
    main()
