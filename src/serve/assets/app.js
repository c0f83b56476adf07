// The page: the lobby form, the game view, and the WebSocket to the server (docs/serve.md).
// The server checks every move; the page only offers the legal ones it was sent.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const t = ChariotI18n.t;
  const sideName = (color) => t(color === "red" ? "red" : "black");
  let ws = null;
  let state = null;          // the last "state" the server sent
  let me = null;             // { game, token, color, role } from "joined"
  let receivedAt = 0;        // when `state` arrived (for the running clock)
  let flipped = false;
  let selected = null;
  let premove = null;        // [from, to]: the player's move kept for when the turn comes
  let lastRequest = null;    // the join/watch/resume sent and not yet answered
  let ourHash = null;        // a hash this page set itself (no new routing for it)
  let retries = 0;
  let shownPly = null;       // the ply shown while stepping through the game, null for the live one
  let notation = localStorage.getItem("chariot-notation") || "chinese";
  let evaluating = false;    // 局面评估 on: every position shown is evaluated
  let evaluation = null;     // the last "evaluation" the server sent
  let evaluationAsked = null; // the ply of the evaluation asked for and not yet answered
  let inspected = null;       // the square whose attackers and protectors the evaluation shows
  let curve = null;          // { game, plies, points, done }: the game's curve as it arrives
  let analysisAt = null;     // the position (shownKey) whose analysis is shown or asked for
  // 中盘研究: on a finished game or an analysis board, other moves are played as variations.
  let variation = null;      // the one shown: { ply, line: [ICCS], moves: [{iccs, wxf, chinese}], at }
  let variations = [];       // this game's variations kept: [{ ply, moves: [{iccs, wxf, chinese}] }]
  let explored = null;       // { key, answer }: the legal moves of the position shown, from the server
  let exploreAsked = null;   // { key, ref } asked and not yet answered
  let variationAsked = null; // { ref, ply, line }: a move played, waiting for the server's check
  let exploreRef = 1000000;  // the editor counts from 1; variations from here
  let analyseOnOpen = false; // a board opened from the editor: analyse its position at once
  let watchNote = null;      // why a join became a watch, told once the page watches
  let pendingRematch = null; // { game, token, friend }: the finished game a rematch is being made for
  let lowTimeWarned = null;  // the game whose low time was sounded for this player
  const initialMs = {};      // each game's time per side, seen before its clocks ran
  // For the browser test and for curious people: what the page knows.
  window.chariot = {
    get state() { return state; }, get me() { return me; }, get premove() { return premove; },
    get variation() { return variation; }, get variations() { return variations; }, get explored() { return explored; },
    exportPgn: () => exportPgn(), clockText: (ms) => clockText(ms),
    get evaluation() { return evaluation; }, get curve() { return curve; },
  };

  function send(message) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  }
  function act(type, extra) {
    if (me && me.token) send(Object.assign({ type, game: me.game, token: me.token }, extra || {}));
  }
  function tokenKey(id) { return "chariot-token-" + id; }

  function setHash(hash) {
    ourHash = hash;
    location.hash = hash;
  }

  // What the address asks for: #g=ID (resume or watch), #join=ID&invite=SECRET (take the free
  // seat: the creator's share link), or the lobby.
  function route() {
    const params = new URLSearchParams(location.hash.slice(1));
    const id = params.get("g") || params.get("join");
    if (!id) { showLobby(); return; }
    const token = localStorage.getItem(tokenKey(id));
    const invite = params.get("invite");
    if (token) { lastRequest = "resume"; send({ type: "resume", game: id, token }); }
    else if (params.get("join") && invite) { lastRequest = "join"; send({ type: "join", game: id, invite }); }
    else { lastRequest = "watch"; send({ type: "watch", game: id }); }
  }

  function showLobby() {
    state = null; me = null;
    $("game").hidden = true;
    $("editor").hidden = true;
    $("lobby").hidden = false;
  }

  function setConnection(key) {
    $("connection").dataset.i18n = key;
    $("connection").textContent = t(key);
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    ws = new WebSocket(scheme + location.host + "/ws");
    ws.onopen = () => { retries = 0; setConnection("connected"); route(); };
    ws.onclose = () => {
      setConnection("reconnecting");
      retries += 1;
      setTimeout(connect, Math.min(10000, 500 * 2 ** retries));
    };
    ws.onmessage = (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      if (message.type === "joined") joined(message);
      else if (message.type === "state") {
        const before = state;
        state = message.game;
        receivedAt = performance.now();
        if (state.clock && state.moves.length <= 1) initialMs[state.id] = Math.max(state.clock.red_ms, state.clock.black_ms);
        sound(before, state);
        render();
        playPremove();
        // A position from the editor is analysed as soon as its board opens.
        if (analyseOnOpen && state.record && state.moves.length === 0) { analyseOnOpen = false; $("btn-analyse").click(); }
      }
      else if (message.type === "followers") followed(message);
      else if (message.type === "error") failed(message);
      else if (message.type === "warning") $("error").textContent = message.message;
      else if (message.type === "analysis") analysed(message);
      else if (message.type === "evaluation") evaluated(message);
      else if (message.type === "curve") curved(message);
      else if (message.type === "explored" && !ChariotEditor.explored(message)) exploredHere(message);
    };
  }

  // Who follows the game changed: the spectator count and the players' presence, nothing else.
  function followed(message) {
    if (!state || state.id !== message.game) return;
    state.spectators = message.spectators;
    for (const side of ["red", "black"]) {
      if (state[side] && state[side].kind === "human") state[side].online = message.online[side];
    }
    render();
  }

  // The sound of what changed between two states of a game: a move (a capture, a check), the end.
  function sound(before, after) {
    if (!before || before.id !== after.id) return;
    if (after.moves.length === before.moves.length + 1) {
      const count = (fen) => Object.keys(ChariotBoard.pieces(fen)).length;
      ChariotSound.play(after.check ? "check" : count(after.fen) < count(before.fen) ? "capture" : "move");
    }
    if (after.result && !before.result) ChariotSound.play("end");
  }

  function joined(message) {
    lastRequest = null;
    me = { game: message.game, token: message.token, color: message.color, role: message.role, invite: message.invite };
    // A rematch of a friend game: the opponent is told of the new game through the old one.
    if (pendingRematch && message.token && message.game !== pendingRematch.game) {
      if (pendingRematch.friend) {
        send({ type: "offer_rematch", game: pendingRematch.game, token: pendingRematch.token, rematch: message.game, invite: message.invite });
      }
      pendingRematch = null;
    }
    window.scrollTo(0, 0);
    if (message.token) localStorage.setItem(tokenKey(message.game), message.token);
    flipped = message.color === "black";
    selected = null;
    premove = null;
    shownPly = null;
    // A late joiner who watches instead is told why.
    $("error").textContent = watchNote && message.role === "spectator" ? ChariotI18n.error(watchNote) : "";
    watchNote = null;
    $("analysis").replaceChildren();
    $("analysis-title").textContent = "";
    evaluating = false; evaluation = null; evaluationAsked = null; curve = null;
    analysisAt = null;
    if (!state || state.id !== message.game) { variation = null; variations = []; explored = null; }
    $("lobby-error").textContent = "";
    if (location.hash !== "#g=" + message.game) setHash("g=" + message.game);
    $("lobby").hidden = true;
    $("editor").hidden = true;
    $("game").hidden = false;
  }

  function failed(message) {
    const text = message.message;
    // The answer to a resume or a join: a seat that is gone or taken, so watch instead. The token
    // is forgotten only when the server says it is no seat's, or that the game is gone; after any
    // other error (a double click, a busy server) it is kept, and a reload resumes with it.
    if (lastRequest === "join" || lastRequest === "resume") {
      const params = new URLSearchParams(location.hash.slice(1));
      const game = params.get("g") || params.get("join");
      const gone = message.code === "unknown_token" || message.code === "no_such_game";
      if (lastRequest === "resume" && gone) localStorage.removeItem(tokenKey(game));
      lastRequest = null;
      if (message.code !== "no_such_game") { lastRequest = "watch"; watchNote = text; send({ type: "watch", game }); }
    }
    $("error").textContent = ChariotI18n.error(text);
    $("lobby-error").textContent = ChariotI18n.error(text);
    if (evaluationAsked !== null) { evaluationAsked = null; evaluating = false; }
    if (variationAsked) variationAsked = null;
    pendingRematch = null;  // a rematch refused (the server full, say) offers nothing
    if (curve && !curve.done && curve.points.length === 0) curve = null;
    if (state) render();
  }

  // 局面评估: the static evaluation of the position after `message.ply` moves.
  function evaluated(message) {
    if (!state || message.game !== state.id) return;
    evaluation = message;
    evaluation.key = evaluationAsked;
    evaluationAsked = null;
    render();
  }

  // A piece of the game's curve: the first one starts it afresh.
  function curved(message) {
    if (!state || message.game !== state.id) return;
    if (!curve || message.points.length === 0 || message.points[0].ply === 0) {
      curve = { game: message.game, plies: message.plies, points: [], done: false };
    }
    curve.points.push(...message.points);
    curve.done = message.done;
    render();
  }

  function pct(x) { return Math.round(x / 10) + "%"; }

  // The evaluation's labels on the pieces (each piece's share, in pawns, from its owner's view)
  // and its line under the board, when it is of the position shown.
  function evaluationView(at) {
    if (!evaluating) { $("evaluation-text").textContent = ""; return null; }
    if (!evaluation || evaluation.game !== state.id || evaluation.key !== shownKey()) {
      if (evaluationAsked !== shownKey()) {
        evaluationAsked = shownKey();
        send({ type: "evaluate", game: state.id, ply: at, line: shownLine() });
      }
      $("evaluation-text").textContent = t("evaluating");
      return null;
    }
    const labels = {};
    for (const p of evaluation.pieces) {
      const tenths = Math.round(p.share / 10);  // in tenths of a pawn, so that -0.04 reads 0.0
      labels[p.square] = { text: (tenths > 0 ? "+" : "") + (tenths / 10).toFixed(1), fill: tenths < 0 ? "#ffd2cc" : "#ffffff" };
    }
    const [w, d, l] = evaluation.wdl;
    $("evaluation-text").textContent = t("evaluation", {
      after: shownText(), side: sideName(evaluation.turn),
      score: (evaluation.cp > 0 ? "+" : "") + (evaluation.cp / 100).toFixed(2), w: pct(w), d: pct(d), l: pct(l),
    }) + t("hanging") + relationsView(labels);
    return labels;
  }

  // The relations on the board: hanging pieces ringed orange; the piece clicked (`inspected`) has
  // its attackers ringed red and its protectors green, and is described in words.
  function relationsView(labels) {
    const relations = evaluation.relations || [];
    const ring = (square, colour) => { labels[square] = Object.assign(labels[square] || { text: "" }, { ring: colour }); };
    for (const r of relations) if (r.hangs) ring(r.square, "#e8590c");
    const chosen = relations.find((r) => r.square === inspected);
    if (!chosen) return " (click a piece for its attackers and protectors)";
    for (const s of chosen.attackers) ring(s, "#c92a2a");
    for (const s of chosen.protectors) ring(s, "#2b8a3e");
    return ". " + chosen.square + " is attacked by " + (chosen.attackers.join(", ") || "nothing") +
      " (red), protected by " + (chosen.protectors.join(", ") || "nothing") + " (green)" +
      (chosen.hangs ? "; it hangs: taking it wins " + chosen.exchange : "");
  }

  function drawCurve(at) {
    const svg = $("curve");
    svg.toggleAttribute("hidden", !curve);  // an SVG element has no `hidden` property
    if (!curve) { $("curve-text").textContent = ""; return; }
    ChariotCurve.draw(svg, curve.points, curve.plies, at, step);
    let text = curve.done ? t("curve done") : t("curve scoring", { n: curve.points.length, m: curve.plies + 1 });
    if (curve.done && curve.plies !== state.moves.length) text += t("curve older", { n: curve.plies });
    $("curve-text").textContent = text;
  }

  // Chariot's lines for the position after `ply` moves, scores and chances for the side to move.
  function analysed(message) {
    if (!state || message.game !== state.id || analysisAt !== shownKey()) return;
    $("analysis-title").textContent = t("analysis for", { after: shownText(), side: sideName(message.turn) });
    const list = $("analysis");
    list.replaceChildren();
    // The tablebases' verdict (a server given --egtb), as such, above the search's lines.
    const table = message.tablebase;
    if (table) {
      const li = document.createElement("li");
      li.className = "tablebase";
      li.textContent = table.rule ? t("tablebase " + table.result + " rule")
        : t("tablebase " + table.result, { n: table.plies });
      list.appendChild(li);
    }
    for (const line of message.lines) {
      const li = document.createElement("li");
      const score = document.createElement("span");
      score.className = "score";
      score.textContent = line.mate !== null ? t("mate", { n: line.mate }) : (line.cp > 0 ? "+" : "") + (line.cp / 100).toFixed(2);
      const [w, d, l] = line.wdl.map((x) => Math.round(x / 10));
      li.append(score, " " + t("wdl", { w, d, l }) + " — " + line[notation].slice(0, 8).join(" "));
      list.appendChild(li);
    }
  }

  function shownAt() {
    return shownPly === null ? state.moves.length : shownPly;
  }

  // The variation's moves up to the one shown (none when the game's own position is shown).
  function shownLine() {
    return variation ? variation.line.slice(0, variation.at) : [];
  }
  // Names the position shown: the game's ply and the variation's moves.
  function shownKey() {
    return shownAt() + "|" + shownLine().join(",");
  }
  function variationLabel(i) {
    const { number, black } = moveNumber(variation.ply + i);
    return number + (black ? "… " : ". ") + variation.moves[i - 1][notation];
  }
  function shownText() {
    if (variation && variation.at > 0) return t("after", { move: variationLabel(variation.at) }) + t("in variation");
    return afterText(shownAt());
  }

  // Variations are played on a finished game or an analysis board, by anyone following it.
  function exploring() {
    return !!state && (!!state.result || !!state.record) && !(me && me.color && !state.result);
  }

  // The server's answers about variations: the legal moves of the position shown, or the check
  // of a move just played there.
  function exploredHere(message) {
    if (variationAsked && message.ref === variationAsked.ref) {
      const asked = variationAsked;
      variationAsked = null;
      if (message.error) { $("error").textContent = ChariotI18n.error(message.error); render(); return; }
      $("error").textContent = "";
      variation = { ply: asked.ply, line: asked.line, moves: message.moves, at: asked.line.length };
      // Kept for the PGN: a longer line replaces the one it extends.
      const extended = (v) => v.ply === asked.ply && asked.line.length >= v.moves.length &&
        v.moves.every((m, i) => m.iccs === asked.line[i]);
      variations = variations.filter((v) => !extended(v));
      if (!variations.some((v) => v.ply === asked.ply && v.moves.length >= asked.line.length &&
        asked.line.every((m, i) => v.moves[i].iccs === m))) variations.push({ ply: asked.ply, moves: message.moves });
      explored = { key: shownKey(), answer: message };
      render();
    } else if (exploreAsked && message.ref === exploreAsked.ref) {
      explored = { key: exploreAsked.key, answer: message };
      exploreAsked = null;
      render();
    }
  }

  // Asks the server for the legal moves of the position shown, once per position.
  function exploreShown() {
    const key = shownKey();
    if ((explored && explored.key === key) || (exploreAsked && exploreAsked.key === key)) return;
    exploreRef += 1;
    exploreAsked = { key, ref: exploreRef };
    send({ type: "variation", game: state.id, ply: shownAt(), line: shownLine(), ref: exploreRef });
  }

  // A move played on a finished game or an analysis board: the game's own next move steps on;
  // any other starts or extends a variation, checked by the server.
  function playVariation(move) {
    const at = shownAt();
    if (!variation && state.moves[at] && state.moves[at].iccs === move) { step(at + 1); return; }
    exploreRef += 1;
    variationAsked = { ref: exploreRef, ply: at, line: shownLine().concat([move]) };
    send({ type: "variation", game: state.id, ply: at, line: variationAsked.line, ref: exploreRef });
  }

  function exploreLegal() {
    return explored && explored.key === shownKey() && !explored.answer.error ? explored.answer.legal : [];
  }

  // A ply as players number it: "12. 炮二平五" for Red's 12th move, "12… 马8进7" for Black's;
  // a game from a FEN starts at its move number and side.
  function moveNumber(ply) {
    const fields = state.start_fen.split(" ");
    const k = ply - 1 + (fields[1] === "b" ? 1 : 0);
    return { number: (Number(fields[5]) || 1) + Math.floor(k / 2), black: k % 2 === 1 };
  }
  function moveLabel(ply) {
    const { number, black } = moveNumber(ply);
    return number + (black ? "… " : ". ") + state.moves[ply - 1][notation];
  }
  function afterText(ply) {
    return ply === 0 ? t("at the start") : t("after", { move: moveLabel(ply) });
  }

  function myTurn() {
    return state && me && me.color && !state.result && state.turn === me.color;
  }

  // The opponent is to move in a game the player plays on: a move may be kept as a premove.
  function theirTurn() {
    return state && me && me.color && !state.result && state.turn !== me.color && !state.record &&
      state.red.kind !== "open" && state.black.kind !== "open";
  }

  function mine(square) {
    const letter = ChariotBoard.pieces(state.fen)[square];
    return !!letter && (letter === letter.toUpperCase()) === (me.color === "red");
  }

  // Legal targets on the player's turn; on the opponent's, where the piece could go (a premove);
  // on a finished game or an analysis board, the moves of a variation.
  function targetsOf(square) {
    if (exploring()) return exploreLegal().filter((m) => m.startsWith(square)).map((m) => m.slice(2, 4));
    if (theirTurn()) return mine(square) ? ChariotBoard.reach(state.fen, square) : [];
    return state.legal.filter((m) => m.startsWith(square)).map((m) => m.slice(2, 4));
  }

  // A move chosen by a click on its target or a drop: played now, or kept as a premove.
  function choose(from, to) {
    selected = null;
    if (exploring()) { if (targetsOf(from).includes(to)) playVariation(from + to); }
    else if (myTurn()) { if (targetsOf(from).includes(to)) act("move", { move: from + to }); }
    else if (theirTurn() && targetsOf(from).includes(to)) premove = [from, to];
    render();
  }

  // The premove, once the turn has come: played when legal, forgotten when not.
  function playPremove() {
    if (!premove || !state) return;
    if (!me || !me.color || state.result) { premove = null; render(); return; }
    if (!myTurn()) return;
    const move = premove.join("");
    premove = null;
    if (state.legal.includes(move)) act("move", { move });
    render();
  }

  function canMove() {
    return exploring() || (shownPly === null && !variation && (myTurn() || theirTurn()));
  }

  function clicked(square) {
    // On an evaluated board a click shows the piece's attackers and protectors.
    if (evaluating) inspected = inspected === square ? null : square;
    if (!canMove()) { if (evaluating) render(); return; }
    if (selected && targetsOf(selected).includes(square)) {
      choose(selected, square);
      return;
    }
    premove = null;
    selected = targetsOf(square).length > 0 ? square : null;
    render();
  }

  function dragStarted(square) {
    premove = null;
    selected = square;
    render();
  }

  // "4:05"; under 10 seconds with tenths, "0:07.3".
  function clockText(ms) {
    if (ms < 10000) {
      const tenths = Math.max(0, Math.floor(ms / 100));
      return "0:0" + Math.floor(tenths / 10) + "." + (tenths % 10);
    }
    const s = Math.ceil(ms / 1000);
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }

  function clockLeft(side) {
    if (!state || !state.clock) return null;
    let ms = state.clock[side + "_ms"];
    if (state.clock.running && state.turn === side && !state.result) ms -= performance.now() - receivedAt;
    return ms;
  }

  function drawClocks() {
    for (const [id, side] of [["top-player", flipped ? "red" : "black"], ["bottom-player", flipped ? "black" : "red"]]) {
      const clock = $(id).querySelector(".clock");
      const ms = clockLeft(side);
      clock.textContent = ms === null ? "" : clockText(ms);
      clock.classList.toggle("low", ms !== null && ms < 20000);
      if (me && me.color === side && ms !== null && ms < 10000 && state.clock.running && !state.result && lowTimeWarned !== state.id) {
        lowTimeWarned = state.id;
        ChariotSound.play("low");
      }
    }
  }

  // "Chariot, level 5 (about 1067 Elo)", "Chariot at 1400 Elo (level 9.5)", "Chariot, full strength".
  function engineName(seat) {
    if (seat.elo === null) return t("engine full");
    return t(seat.asked === "elo" ? "engine elo" : "engine level", { elo: seat.elo, level: seat.level });
  }

  function playerName(side) {
    const seat = state[side];
    const offline = seat.online ? "" : t("offline");
    let who;
    if (seat.kind === "engine") who = engineName(seat);
    else if (seat.kind === "recorded") who = seat.name || "?";
    else if (seat.kind === "open") who = t("waiting friend");
    else if (me && me.color) who = t(me.color === side ? "you" : "opponent seat") + offline;
    else who = t("player") + offline;
    return t("seat", { side: sideName(side), who });
  }

  function statusText() {
    if (state.record) return t("analysis board") + (state.record.event ? " — " + state.record.event : "");
    if (state.result) return t("game over");
    if (state.red.kind === "open" || state.black.kind === "open") return t("waiting second");
    if (state.thinking) return t("thinking");
    if (myTurn()) return t("your move") + (state.check ? t("check!") : "");
    return t("to move", { side: sideName(state.turn) }) + (state.check ? t("(check)") : "");
  }

  function render() {
    if (!state) return;
    const playing = !!(me && me.color);
    const over = !!state.result;
    const engineGame = state.red.kind === "engine" || state.black.kind === "engine";
    const plies = state.moves.length;
    if (shownPly !== null && shownPly >= plies) shownPly = null;
    const at = shownPly === null ? plies : shownPly;
    if (exploring()) exploreShown();
    const labels = evaluationView(at);
    // An analysis belongs to the position it was asked for: another one shown clears it.
    if (analysisAt !== null && analysisAt !== shownKey()) {
      analysisAt = null;
      $("analysis").replaceChildren();
      $("analysis-title").textContent = "";
    }
    const targets = selected ? targetsOf(selected) : [];
    const moveOpts = {
      selected, targets, labels, onClick: clicked, onDragStart: dragStarted, onDrop: choose,
      draggable: (square) => canMove() && (exploring() || mine(square)) && targetsOf(square).length > 0,
    };
    const known = explored && explored.key === shownKey() && !explored.answer.error ? explored.answer : null;
    if (shownPly === null && !variation) {
      ChariotBoard.draw($("board"), state.fen, Object.assign(moveOpts, {
        flipped, last: state.last, premove, check: state.check, turn: state.turn,
      }));
    } else {
      const line = state.moves.slice(0, at).map((m) => m.iccs).concat(shownLine());
      ChariotBoard.draw($("board"), ChariotBoard.fenAfter(state.start_fen, line), Object.assign(moveOpts, {
        flipped, last: line[line.length - 1], check: known && known.check, turn: known && known.turn,
      }));
    }
    drawVariations(at);
    drawCurve(at);
    $("btn-evaluate").classList.toggle("active", evaluating);
    // Fair play: the engine's help opens when the game ends (the server refuses it before).
    for (const id of ["btn-analyse", "btn-evaluate", "btn-curve"]) $(id).disabled = !state.engine_help;
    $("step-text").textContent = variation && variation.at > 0 ? variationLabel(variation.at) + t("in variation")
      : (at === 0 ? t("the start") : moveLabel(at)) + (shownPly === null ? t("live") : "") + " · " + t("ply", { at, plies });
    $("btn-first").disabled = $("btn-prev").disabled = at === 0 && !variation;
    $("btn-next").disabled = $("btn-last").disabled = shownPly === null && !variation;
    $("status").textContent = statusText();
    $("result").hidden = !over;
    $("result").textContent = over ? state.result.score + " — " + ChariotI18n.result(state.result) : "";
    for (const [id, side] of [["top-player", flipped ? "red" : "black"], ["bottom-player", flipped ? "black" : "red"]]) {
      $(id).querySelector(".name").textContent = playerName(side);
      $(id).classList.toggle("to-move", !over && state.turn === side);
    }
    drawClocks();
    const opponent = me && me.color === "red" ? "black" : "red";
    const drawFromThem = playing && state.draw_offer === opponent;
    const undoFromThem = playing && state.undo_request === opponent;
    $("btn-accept-draw").hidden = $("btn-decline-draw").hidden = !drawFromThem;
    $("btn-agree-undo").hidden = $("btn-refuse-undo").hidden = !undoFromThem;
    // The new game's invitation comes in the opponent's state alone (never a spectator's).
    const rematchFromThem = playing && over && !!state.rematch && state.rematch.by === opponent && !!state.rematch.invite;
    let offer = "";
    if (rematchFromThem) offer = t("offer rematch");
    else if (drawFromThem) offer = t("offer draw them");
    else if (undoFromThem) offer = t("offer undo them");
    else if (playing && state.draw_offer === me.color) offer = t("offer draw me");
    else if (playing && state.undo_request === me.color) offer = t("offer undo me");
    $("offer-text").textContent = offer;
    $("offers").hidden = !offer;
    $("player-buttons").hidden = !playing;
    // Undo takes back the player's own last move: there must be one, and no request standing.
    const ownMoves = playing && state.moves.length >= (state.turn === me.color ? 2 : 1);
    $("btn-undo").disabled = !ownMoves || (over && !engineGame) || !!state.undo_request || !!state.thinking;
    $("btn-draw").disabled = over || engineGame;
    $("btn-resign").disabled = over;
    $("btn-rematch").hidden = !over || !playing || !!state.record;
    $("btn-accept-rematch").hidden = !rematchFromThem;
    const spectators = state.spectators || 0;
    $("watching").textContent = (playing ? "" : t("you watch")) + (spectators === 1 ? t("spectators 1") : t("spectators", { n: spectators }));
    document.title = (myTurn() ? t("tab your move") : "") + "Chariot 象棋";
    const friendGame = !engineGame;
    $("share").hidden = !friendGame || !playing;
    $("share").hidden = $("share").hidden || !(me && me.invite);
    $("share-link").value = me && me.invite ? location.origin + "/#join=" + state.id + "&invite=" + me.invite : "";
    $("watch-link").value = location.origin + "/#g=" + state.id;
    $("pgn-link").href = "/pgn/" + state.id + ".pgn";
    $("pgn-link").setAttribute("download", state.id + ".pgn");
    drawMoves(at);
  }

  // The move list, numbered by moves (a game from a FEN with Black to move opens with "…"),
  // scrolled to keep the move shown in view.
  function drawMoves(at) {
    const list = $("moves");
    list.replaceChildren();
    list.start = state.moves.length > 0 ? moveNumber(1).number : 1;
    let li = null;
    state.moves.forEach((m, i) => {
      const { black } = moveNumber(i + 1);
      if (!li || !black) {
        li = document.createElement("li");
        list.appendChild(li);
        if (black) li.appendChild(document.createTextNode("… "));
      } else li.appendChild(document.createTextNode(" "));
      const span = document.createElement("span");
      span.textContent = m[notation];
      span.dataset.ply = i + 1;
      if (i + 1 === at) span.className = "shown";
      span.addEventListener("click", () => step(i + 1));
      li.appendChild(span);
    });
    list.dataset.plies = state.moves.length;
    const shown = list.querySelector("span.shown");
    if (!shown) { list.scrollTop = at === 0 ? 0 : list.scrollHeight; return; }
    const box = list.getBoundingClientRect(), line = shown.getBoundingClientRect();
    if (line.top < box.top) list.scrollTop -= box.top - line.top;
    else if (line.bottom > box.bottom) list.scrollTop += line.bottom - box.bottom;
  }

  // A new game with the sides swapped and the same opponent and time: against Chariot at once,
  // against a friend offered through the finished game (its page shows an Accept button).
  function rematch() {
    if (!state || !me || !me.token || !state.result) return;
    const engine = state.red.kind === "engine" ? state.red : state.black.kind === "engine" ? state.black : null;
    const strength = !engine ? {} : engine.elo === null ? { level: 20 }
      : engine.asked === "elo" ? { elo: engine.elo } : { level: engine.level };
    const minutes = state.clock ? Math.round((initialMs[state.id] || 600000) / 60000) : 0;
    pendingRematch = { game: state.id, token: me.token, friend: !engine };
    send({
      type: "create", opponent: engine ? "engine" : "friend", ...strength,
      side: me.color === "red" ? "black" : "red", minutes,
      increment: state.clock ? Math.round(state.clock.increment_ms / 1000) : 0, fen: state.start_fen,
    });
  }

  // The variations kept, each a line of moves to click; the one shown marked, with the way back
  // to the game.
  function drawVariations(at) {
    const box = $("variations");
    box.replaceChildren();
    box.hidden = variations.length === 0;
    $("btn-back-game").hidden = !variation;
    for (const v of variations) {
      const li = document.createElement("li");
      li.append(t("variation from", { after: afterText(v.ply) }) + " ");
      const active = variation && variation.ply === v.ply && v.moves.length >= variation.line.length &&
        variation.line.every((m, i) => v.moves[i].iccs === m);
      if (active) li.className = "active";
      v.moves.forEach((m, i) => {
        const { number, black } = moveNumber(v.ply + i + 1);
        const span = document.createElement("span");
        span.textContent = (i === 0 || !black ? number + (black ? "… " : ". ") : "") + m[notation];
        span.dataset.ply = v.ply;
        span.dataset.index = i + 1;
        if (active && variation.at === i + 1) span.classList.add("shown");
        span.addEventListener("click", () => {
          variation = { ply: v.ply, line: v.moves.map((x) => x.iccs), moves: v.moves, at: i + 1 };
          shownPly = v.ply >= state.moves.length ? null : v.ply;
          selected = null;
          render();
        });
        li.append(span, " ");
      });
      box.appendChild(li);
    }
  }

  // The PGN to take away: the server's, or with the variations played here written in.
  function exportPgn() {
    return fetch("/pgn/" + state.id + ".pgn").then((r) => r.text()).then((text) => variations.length === 0 ? text
      : ChariotVariations.pgn(text, state.moves.map((m) => m.chinese),
        variations.map((v) => ({ ply: v.ply, moves: v.moves.map((m) => m.chinese) })), moveNumber));
  }

  // Steps within the variation shown: to its `at`-th move (0: where it leaves the game).
  function stepVariation(at) {
    variation.at = Math.max(0, Math.min(variation.moves.length, at));
    selected = null;
    render();
  }

  // Shows the position after `ply` moves (the live one at the end).
  function step(ply) {
    if (!state) return;
    variation = null;
    const plies = state.moves.length;
    shownPly = ply >= plies ? null : Math.max(0, ply);
    selected = null;
    premove = null;
    render();
  }

  function setUp() {
    $("btn-first").addEventListener("click", () => step(0));
    $("btn-prev").addEventListener("click", () => {
      if (variation && variation.at > 0) stepVariation(variation.at - 1); else step(shownAt() - 1);
    });
    $("btn-next").addEventListener("click", () => {
      if (variation) stepVariation(variation.at + 1); else step(shownAt() + 1);
    });
    $("btn-back-game").addEventListener("click", () => step(shownAt()));
    $("pgn-link").addEventListener("click", (event) => {
      if (!state || variations.length === 0) return;
      event.preventDefault();
      exportPgn().then((text) => {
        const link = document.createElement("a");
        link.href = URL.createObjectURL(new Blob([text], { type: "application/x-chess-pgn" }));
        link.download = state.id + ".pgn";
        link.click();
        URL.revokeObjectURL(link.href);
      });
    });
    $("btn-last").addEventListener("click", () => step(Infinity));
    $("btn-evaluate").addEventListener("click", () => {
      if (!state) return;
      evaluating = !evaluating;
      evaluationAsked = null;
      render();
    });
    $("btn-curve").addEventListener("click", () => {
      if (!state) return;
      curve = { game: state.id, plies: state.moves.length, points: [], done: false };
      send({ type: "curve", game: state.id });
      render();
    });
    $("pgn-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const pgn = $("pgn-text").value;
      if (!pgn.trim()) { $("lobby-error").textContent = t("paste first"); return; }
      $("lobby-error").textContent = "";
      lastRequest = "load_pgn";
      send({ type: "load_pgn", pgn });
    });
    // A file picked is read here (UTF-8, or GB18030 as Chinese programs often write) into the box.
    $("pgn-file").addEventListener("change", async () => {
      const file = $("pgn-file").files[0];
      if (!file) return;
      const bytes = await file.arrayBuffer();
      let text;
      try { text = new TextDecoder("utf-8", { fatal: true }).decode(bytes); }
      catch (e) { text = new TextDecoder("gb18030").decode(bytes); }
      $("pgn-text").value = text;
    });
    $("btn-analyse").addEventListener("click", () => {
      if (!state) return;
      analysisAt = shownKey();
      $("analysis").replaceChildren();
      $("analysis-title").textContent = t("thinking short");
      send({ type: "analyse", game: state.id, ply: shownAt(), line: shownLine(), lines: 3 });
    });
    // Stepping with the keyboard: ← and → a move, Home the start, End the live position (not
    // while typing in a field).
    document.addEventListener("keydown", (event) => {
      if (!state || $("game").hidden || event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.target.closest && event.target.closest("input, textarea, select")) return;
      const keys = { ArrowLeft: shownAt() - 1, ArrowRight: shownAt() + 1, Home: 0, End: Infinity };
      if (!(event.key in keys)) return;
      event.preventDefault();
      if (variation && event.key === "ArrowLeft" && variation.at > 0) stepVariation(variation.at - 1);
      else if (variation && event.key === "ArrowRight") stepVariation(variation.at + 1);
      else step(keys[event.key]);
    });
    // The levels and their measured Elo come from the server (GET /levels.json).
    fetch("/levels.json").then((r) => r.json()).then((offer) => {
      for (const { level, elo } of offer.levels) {
        const option = document.createElement("option");
        option.value = level;
        option.dataset.i18n = elo === null ? "full strength option" : "level option";
        option.dataset.level = level;
        if (elo !== null) option.dataset.elo = elo;
        option.textContent = t(option.dataset.i18n, { level, elo });
        if (level === offer.default) option.selected = true;
        $("level").appendChild(option);
      }
      $("elo").min = offer.min_elo; $("elo").max = offer.max_elo;
    });
    $("use-elo").addEventListener("change", () => {
      $("elo").disabled = !$("use-elo").checked;
      $("level").disabled = $("use-elo").checked;
    });
    const opponentChanged = () => {
      $("level-row").hidden = document.querySelector("input[name=opponent]:checked").value !== "engine";
    };
    document.querySelectorAll("input[name=opponent]").forEach((r) => r.addEventListener("change", opponentChanged));
    $("create-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const opponent = document.querySelector("input[name=opponent]:checked").value;
      const strength = $("use-elo").checked ? { elo: Number($("elo").value) } : { level: Number($("level").value) };
      send({
        type: "create", opponent, ...strength, side: $("side").value,
        minutes: Number($("minutes").value), increment: Number($("increment").value),
        fen: $("fen").value.trim() || null,
      });
    });
    $("notation").value = notation;
    $("notation").addEventListener("change", () => {
      notation = $("notation").value;
      localStorage.setItem("chariot-notation", notation);
      render();
    });
    $("btn-undo").addEventListener("click", () => act("ask_undo"));
    $("btn-rematch").addEventListener("click", rematch);
    $("btn-accept-rematch").addEventListener("click", () => {
      if (!state || !state.rematch || !state.rematch.invite) return;
      lastRequest = "join";
      send({ type: "join", game: state.rematch.game, invite: state.rematch.invite });
    });
    const soundButton = () => $("btn-sound").classList.toggle("active", ChariotSound.enabled);
    soundButton();
    $("btn-sound").addEventListener("click", () => { ChariotSound.setEnabled(!ChariotSound.enabled); soundButton(); });
    $("btn-draw").addEventListener("click", () => act("offer_draw"));
    $("btn-resign").addEventListener("click", () => { if (confirm(t("resign confirm"))) act("resign"); });
    // The language: 中文 or English, every word on the page redrawn in it.
    const language = (lang) => {
      ChariotI18n.setLang(lang);
      ChariotI18n.apply(document);
      $("lang-zh").classList.toggle("active", lang === "zh");
      $("lang-en").classList.toggle("active", lang === "en");
      if (state) render();
      ChariotEditor.redraw();
    };
    $("lang-zh").addEventListener("click", () => language("zh"));
    $("lang-en").addEventListener("click", () => language("en"));
    language(ChariotI18n.lang);
    $("btn-accept-draw").addEventListener("click", () => act("accept_draw"));
    $("btn-decline-draw").addEventListener("click", () => act("decline_draw"));
    $("btn-agree-undo").addEventListener("click", () => act("agree_undo"));
    $("btn-refuse-undo").addEventListener("click", () => act("refuse_undo"));
    $("btn-flip").addEventListener("click", () => { flipped = !flipped; render(); });
    $("btn-new").addEventListener("click", () => { setHash(""); showLobby(); });
    // 打谱: the editor opens on the standard start from the lobby, on the position shown from a game.
    ChariotEditor.setUp({
      send,
      analyse: (fen) => {
        analyseOnOpen = true;
        lastRequest = "load_pgn";
        send({ type: "load_pgn", pgn: '[Event "打谱"]\n[FEN "' + fen + '"]\n\n*\n' });
      },
      play: (fen) => { setHash(""); showLobby(); $("fen").value = fen; $("fen").focus(); },
    });
    $("btn-editor").addEventListener("click", () => ChariotEditor.open(null));
    $("btn-edit").addEventListener("click", () => {
      if (!state) return;
      const at = shownAt();
      const placement = at === state.moves.length ? state.fen.split(" ")[0]
        : ChariotBoard.fenAfter(state.start_fen, state.moves.slice(0, at).map((m) => m.iccs));
      ChariotEditor.open(placement + " " + (moveNumber(at + 1).black ? "b" : "w"));
    });
    $("editor-back").addEventListener("click", () => {
      if (state) { $("editor").hidden = true; $("game").hidden = false; } else showLobby();
    });
    window.addEventListener("hashchange", () => {
      if (location.hash.slice(1) === ourHash) return;
      ourHash = null;
      route();
    });
    setInterval(() => { if (state) drawClocks(); }, 200);
    setInterval(() => send({ type: "ping" }), 25000);
    connect();
  }

  setUp();
})();
