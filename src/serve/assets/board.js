// The board as SVG, drawn as src/svg/board.rs draws it: lines, river, palaces, pieces as
// Chinese characters, the last move marked. Squares are ICCS names: files a-i, ranks 0-9.
"use strict";
const ChariotBoard = (() => {
  const CELL = 56, MARGIN = 58;
  const WIDTH = 2 * MARGIN + 8 * CELL, HEIGHT = 2 * MARGIN + 9 * CELL;
  const NS = "http://www.w3.org/2000/svg";
  const INK = { red: "#b3160f", black: "#1d1d1d" };
  const GLYPHS = {
    K: "帥", A: "仕", B: "相", E: "相", N: "傌", H: "傌", R: "俥", C: "炮", P: "兵",
    k: "將", a: "士", b: "象", e: "象", n: "馬", h: "馬", r: "車", c: "砲", p: "卒",
  };
  const RED_FILES = "九八七六五四三二一";
  const BLACK_FILES = "123456789";

  // The pieces of a FEN: { "e0": "K", … }.
  function pieces(fen) {
    const out = {};
    const rows = fen.split(" ")[0].split("/");
    rows.forEach((row, i) => {
      const rank = 9 - i;
      let file = 0;
      for (const ch of row) {
        if (ch >= "1" && ch <= "9") { file += Number(ch); continue; }
        out["abcdefghi"[file] + rank] = ch;
        file += 1;
      }
    });
    return out;
  }

  function centre(square, flipped) {
    const file = square.charCodeAt(0) - 97, rank = Number(square[1]);
    const column = flipped ? 8 - file : file, row = flipped ? rank : 9 - rank;
    return [MARGIN + column * CELL, MARGIN + row * CELL];
  }

  function el(name, attrs, text) {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // The square nearest to a pointer's page position, or null off the board.
  function squareAt(svg, clientX, clientY, flipped) {
    const matrix = svg.getScreenCTM();
    if (!matrix) return null;
    const p = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
    const column = Math.round((p.x - MARGIN) / CELL), row = Math.round((p.y - MARGIN) / CELL);
    if (column < 0 || column > 8 || row < 0 || row > 9) return null;
    const file = flipped ? 8 - column : column, rank = flipped ? row : 9 - row;
    return "abcdefghi"[file] + rank;
  }

  // A piece drawn as a group: two rings and its character.
  function pieceGroup(letter, x, y, fill) {
    const red = letter === letter.toUpperCase();
    const ink = red ? INK.red : INK.black;
    const g = el("g", { class: "piece", "data-piece": letter });
    g.appendChild(el("circle", { cx: x, cy: y, r: CELL * 0.45, fill, stroke: ink, "stroke-width": 2.5 }));
    g.appendChild(el("circle", { cx: x, cy: y, r: CELL * 0.45 - 4, fill: "none", stroke: ink, "stroke-width": 1 }));
    g.appendChild(el("text", { x, y, fill: ink, "font-size": CELL * 0.55, "text-anchor": "middle", dy: "0.35em" }, GLYPHS[letter] || "?"));
    return g;
  }

  // Dragging a piece with a mouse, a pen or a finger (pointer events): the listeners are set once
  // per board and read the options of its latest drawing, since the board is redrawn while a
  // piece is held (a state may arrive meanwhile).
  function enableDrag(svg) {
    if (svg.chariotDrag !== undefined) return;
    svg.chariotDrag = null;
    const ghostAt = (event) => {
      const drag = svg.chariotDrag;
      const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
      if (drag.ghost) drag.ghost.remove();
      drag.ghost = pieceGroup(drag.letter, p.x, p.y, "#fbeed0");
      drag.ghost.setAttribute("class", "ghost");
      svg.appendChild(drag.ghost);
    };
    svg.addEventListener("pointerdown", (event) => {
      const opts = svg.chariotOpts;
      if (event.button !== 0 || !opts || !opts.draggable) return;
      const square = squareAt(svg, event.clientX, event.clientY, !!opts.flipped);
      const letter = square && pieces(opts.fen)[square];
      if (!letter || !opts.draggable(square)) return;
      event.preventDefault();
      svg.setPointerCapture && svg.setPointerCapture(event.pointerId);
      svg.chariotDrag = { from: square, letter, x: event.clientX, y: event.clientY, moved: false, ghost: null };
      if (opts.onDragStart) opts.onDragStart(square);
    });
    svg.addEventListener("pointermove", (event) => {
      const drag = svg.chariotDrag;
      if (!drag) return;
      if (!drag.moved && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 4) return;
      drag.moved = true;
      svg.classList.add("dragging");
      ghostAt(event);
    });
    const end = (event, dropped) => {
      const drag = svg.chariotDrag;
      if (!drag) return;
      svg.chariotDrag = null;
      svg.classList.remove("dragging");
      if (drag.ghost) drag.ghost.remove();
      const opts = svg.chariotOpts;
      const to = dropped ? squareAt(svg, event.clientX, event.clientY, !!opts.flipped) : null;
      // A press and release without moving is a click, which selected the piece already.
      if (drag.moved && to && to !== drag.from && opts.onDrop) opts.onDrop(drag.from, to);
    };
    svg.addEventListener("pointerup", (event) => end(event, true));
    svg.addEventListener("pointercancel", (event) => end(event, false));
  }

  // Draws `fen` into `svg`. opts: flipped, last ("h2e2"), selected square, targets (squares),
  // premove ([from, to], a move kept to play when the turn comes), check (the side to move is in
  // check: its king is ringed in red and marked 將/帥 "check"), labels ({square: {text, fill,
  // ring}}, drawn on the pieces), onClick(square); for dragging, draggable(square),
  // onDragStart(square) and onDrop(from, to).
  function draw(svg, fen, opts) {
    svg.setAttribute("viewBox", `0 0 ${WIDTH} ${HEIGHT}`);
    svg.replaceChildren();
    svg.chariotOpts = Object.assign({ fen }, opts);
    enableDrag(svg);
    const flipped = !!opts.flipped;
    const point = (file, rank) => centre("abcdefghi"[file] + rank, flipped);
    const line = (a, b, w) => svg.appendChild(el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: "#5b3a1d", "stroke-width": w }));
    svg.appendChild(el("rect", { width: "100%", height: "100%", fill: "#efd39b" }));
    for (let rank = 0; rank < 10; rank++) line(point(0, rank), point(8, rank), 1.5);
    for (let file = 0; file < 9; file++) {
      if (file === 0 || file === 8) line(point(file, 0), point(file, 9), 1.5);
      else { line(point(file, 0), point(file, 4), 1.5); line(point(file, 5), point(file, 9), 1.5); }
    }
    for (const [low, high] of [[0, 2], [7, 9]]) {
      line(point(3, low), point(5, high), 1.2);
      line(point(5, low), point(3, high), 1.2);
    }
    svg.appendChild(el("rect", { x: MARGIN - 6, y: MARGIN - 6, width: 8 * CELL + 12, height: 9 * CELL + 12, fill: "none", stroke: "#5b3a1d", "stroke-width": 3 }));
    const riverY = MARGIN + 4.5 * CELL;
    for (const [x, text] of [[MARGIN + 2 * CELL, "楚 河"], [MARGIN + 6 * CELL, "漢 界"]]) {
      svg.appendChild(el("text", { x, y: riverY, fill: "#5b3a1d", "font-size": CELL / 2, "text-anchor": "middle", dy: "0.35em" }, text));
    }
    for (let file = 0; file < 9; file++) {
      const [x] = point(file, 0);
      const top = flipped ? RED_FILES[file] : BLACK_FILES[file];
      const bottom = flipped ? BLACK_FILES[file] : RED_FILES[file];
      svg.appendChild(el("text", { x, y: 18, "font-size": 16, "text-anchor": "middle", dy: "0.35em", fill: "#5b3a1d" }, top));
      svg.appendChild(el("text", { x, y: HEIGHT - 18, "font-size": 16, "text-anchor": "middle", dy: "0.35em", fill: "#5b3a1d" }, bottom));
    }
    if (opts.last) {
      const [fx, fy] = centre(opts.last.slice(0, 2), flipped);
      svg.appendChild(el("circle", { cx: fx, cy: fy, r: CELL * 0.22, fill: "none", stroke: "#1f6fd1", "stroke-width": 2, "stroke-dasharray": "5 4" }));
    }
    if (opts.premove) {
      for (const square of opts.premove) {
        const [px, py] = centre(square, flipped);
        svg.appendChild(el("rect", { class: "premove", x: px - CELL / 2, y: py - CELL / 2, width: CELL, height: CELL, rx: 6, fill: "#7a5cc7", opacity: 0.35 }));
      }
    }
    const board = pieces(fen);
    const held = svg.chariotDrag && svg.chariotDrag.moved ? svg.chariotDrag.from : null;
    for (const [square, letter] of Object.entries(board)) {
      const [x, y] = centre(square, flipped);
      const red = letter === letter.toUpperCase();
      const checked = opts.check && "Kk".includes(letter) && (red ? opts.turn === "red" : opts.turn === "black");
      if (checked) {
        svg.appendChild(el("circle", { class: "check", cx: x, cy: y, r: CELL * 0.62, fill: "#e0241b", opacity: 0.35 }));
      }
      const g = pieceGroup(letter, x, y, checked ? "#ffb3aa" : "#fbeed0");
      if (square === held) g.setAttribute("opacity", "0.35");
      svg.appendChild(g);
    }
    if (opts.last) {
      const [tx, ty] = centre(opts.last.slice(2, 4), flipped);
      svg.appendChild(el("circle", { cx: tx, cy: ty, r: CELL * 0.5, fill: "none", stroke: "#1f6fd1", "stroke-width": 2.5 }));
    }
    if (opts.selected) {
      const [sx, sy] = centre(opts.selected, flipped);
      svg.appendChild(el("circle", { class: "selected", cx: sx, cy: sy, r: CELL * 0.5 }));
    }
    for (const square of opts.targets || []) {
      const [tx, ty] = centre(square, flipped);
      svg.appendChild(el("circle", { class: "target", cx: tx, cy: ty, r: board[square] ? CELL * 0.2 : CELL * 0.13 }));
    }
    // Labels on pieces (each piece's share of the evaluation): a badge at the piece's foot, over
    // the marks of the last move; a label's `ring` colour rings the piece (the relations: a
    // hanging piece, the attackers and protectors of the piece inspected).
    for (const [square, label] of Object.entries(opts.labels || {})) {
      const [x, y] = centre(square, flipped);
      if (label.ring) {
        svg.appendChild(el("circle", { class: "relation", cx: x, cy: y, r: CELL * 0.5, fill: "none", stroke: label.ring, "stroke-width": 3.5, "data-relation": square }));
      }
      if (!label.text) continue;
      const g = el("g", { class: "share", "data-square": square });
      const width = 8 * label.text.length + 8;
      g.appendChild(el("rect", { x: x - width / 2, y: y + CELL * 0.22, width, height: 17, rx: 5, fill: label.fill || "#ffffff", stroke: "#5b3a1d", "stroke-width": 0.8, opacity: 0.92 }));
      g.appendChild(el("text", { x, y: y + CELL * 0.22 + 9, "font-size": 13, "text-anchor": "middle", dy: "0.35em", fill: "#1d1d1d" }, label.text));
      svg.appendChild(g);
    }
    // Click targets on top of everything, one per point, named for tests and people alike.
    for (let file = 0; file < 9; file++) {
      for (let rank = 0; rank < 10; rank++) {
        const square = "abcdefghi"[file] + rank;
        const [x, y] = centre(square, flipped);
        const hit = el("circle", { class: "hit", cx: x, cy: y, r: CELL * 0.48, "data-square": square });
        hit.addEventListener("click", () => opts.onClick && opts.onClick(square));
        svg.appendChild(hit);
      }
    }
    if (svg.chariotDrag && svg.chariotDrag.ghost) svg.appendChild(svg.chariotDrag.ghost);
  }

  // The placement FEN after playing `moves` (ICCS, legal) from `fen`: for stepping through a
  // game, where the server already checked every move.
  function fenAfter(fen, moves) {
    const board = pieces(fen);
    for (const m of moves) {
      board[m.slice(2, 4)] = board[m.slice(0, 2)];
      delete board[m.slice(0, 2)];
    }
    return placement(board);
  }

  // The placement field of a FEN for pieces { "e0": "K", … }.
  function placement(board) {
    const rows = [];
    for (let rank = 9; rank >= 0; rank--) {
      let row = "", empty = 0;
      for (let file = 0; file < 9; file++) {
        const p = board["abcdefghi"[file] + rank];
        if (p) { if (empty) row += empty; row += p; empty = 0; } else empty += 1;
      }
      rows.push(empty ? row + empty : row);
    }
    return rows.join("/");
  }

  // Where the piece on `square` could go by its way of moving alone, whatever stands between:
  // the squares a premove may aim at (the server checks the move when it is played). Squares of
  // the piece's own side are left out.
  function reach(fen, square) {
    const board = pieces(fen);
    const letter = board[square];
    if (!letter) return [];
    const red = letter === letter.toUpperCase();
    const file = square.charCodeAt(0) - 97, rank = Number(square[1]);
    const forward = red ? 1 : -1;
    const ownHalf = (r) => (red ? r <= 4 : r >= 5);
    const palace = (f, r) => f >= 3 && f <= 5 && (red ? r <= 2 : r >= 7);
    const out = [];
    const add = (f, r, ok) => {
      if (f < 0 || f > 8 || r < 0 || r > 9 || (ok && !ok(f, r))) return;
      const other = board["abcdefghi"[f] + r];
      if (other && (other === other.toUpperCase()) === red) return;
      out.push("abcdefghi"[f] + r);
    };
    switch (letter.toUpperCase()) {
      case "R": case "C":
        for (let f = 0; f < 9; f++) if (f !== file) add(f, rank);
        for (let r = 0; r < 10; r++) if (r !== rank) add(file, r);
        break;
      case "N": case "H":
        for (const [df, dr] of [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]]) add(file + df, rank + dr);
        break;
      case "B": case "E":
        for (const [df, dr] of [[2, 2], [2, -2], [-2, 2], [-2, -2]]) add(file + df, rank + dr, (f, r) => ownHalf(r));
        break;
      case "A":
        for (const [df, dr] of [[1, 1], [1, -1], [-1, 1], [-1, -1]]) add(file + df, rank + dr, palace);
        break;
      case "K":
        for (const [df, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) add(file + df, rank + dr, palace);
        break;
      case "P":
        add(file, rank + forward);
        if (!ownHalf(rank)) { add(file - 1, rank); add(file + 1, rank); }
        break;
    }
    return out;
  }

  return { draw, pieces, fenAfter, placement, reach, glyph: (letter) => GLYPHS[letter] };
})();
