// The board editor (打谱): pieces placed and removed with a palette, the side to move picked; the
// server checks every position with Chariot's FEN rules (kings not facing, piece counts, the
// squares each piece may stand on) and answers its legal moves. A legal position opens as an
// analysis board (analysed at once) or becomes the start of a new game.
"use strict";
const ChariotEditor = (() => {
  const $ = (id) => document.getElementById(id);
  const t = (key, vars) => ChariotI18n.t(key, vars);
  const START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
  const TOOLS = ["K", "A", "B", "N", "R", "C", "P", "k", "a", "b", "n", "r", "c", "p", ""];
  let board = {};           // square → FEN letter
  let turn = "w";
  let tool = "";            // the letter placed by a click, "" to remove
  let flipped = false;
  let asked = 0;            // the `ref` of the last check asked for
  let answer = null;        // the server's answer for the position shown (or null while asked)
  let hooks = null;         // { send, analyse(fen), play(fen) } from the page

  function fen() { return ChariotBoard.placement(board) + " " + turn; }

  function check() {
    answer = null;
    asked += 1;
    hooks.send({ type: "explore", fen: fen(), ref: asked });
    draw();
  }

  function clicked(square) {
    if (tool && board[square] !== tool) board[square] = tool;
    else delete board[square];
    check();
  }

  function draw() {
    const legal = answer && !answer.error;
    ChariotBoard.draw($("editor-board"), fen(), {
      flipped, onClick: clicked, check: legal && answer.check, turn: turn === "w" ? "red" : "black",
    });
    for (const button of $("palette").children) button.classList.toggle("active", button.dataset.tool === tool);
    $("editor-turn").value = turn;
    $("editor-fen").value = fen();
    const status = $("editor-status");
    status.classList.toggle("error", !!(answer && answer.error));
    if (!answer) status.textContent = t("checking");
    else if (answer.error) status.textContent = answer.error;
    else if (answer.result) status.textContent = t("editor over", { result: answer.result.score + " — " + ChariotI18n.result(answer.result) });
    else status.textContent = t("editor legal", { side: t(answer.turn === "red" ? "red" : "black"), n: answer.legal.length });
    $("editor-analyse").disabled = !legal;
    $("editor-play").disabled = !legal || !!answer.result;
  }

  // Opens the editor on `placementFen` (a FEN; the standard start when absent).
  function open(startFen) {
    const fields = (startFen || START + " w").split(" ");
    board = ChariotBoard.pieces(fields[0]);
    turn = fields[1] === "b" ? "b" : "w";
    $("lobby").hidden = true;
    $("game").hidden = true;
    $("editor").hidden = false;
    check();
  }

  // The server's answer: only the one to the last check counts.
  function explored(message) {
    if (message.ref !== asked || $("editor").hidden) return false;
    answer = message;
    draw();
    return true;
  }

  function setUp(pageHooks) {
    hooks = pageHooks;
    for (const letter of TOOLS) {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.tool = letter;
      button.className = letter ? (letter === letter.toUpperCase() ? "red" : "black") : "eraser";
      if (letter) button.textContent = ChariotBoard.glyph(letter);
      else { button.dataset.i18n = "remove"; button.textContent = t("remove"); }
      button.addEventListener("click", () => { tool = letter; draw(); });
      $("palette").appendChild(button);
    }
    $("editor-turn").addEventListener("change", () => { turn = $("editor-turn").value; check(); });
    $("editor-start").addEventListener("click", () => { board = ChariotBoard.pieces(START); turn = "w"; check(); });
    $("editor-clear").addEventListener("click", () => { board = {}; check(); });
    $("editor-flip").addEventListener("click", () => { flipped = !flipped; draw(); });
    $("editor-fen").addEventListener("change", () => open($("editor-fen").value.trim()));
    $("editor-analyse").addEventListener("click", () => hooks.analyse(fen()));
    $("editor-play").addEventListener("click", () => hooks.play(fen()));
  }

  return {
    setUp, open, explored,
    redraw: () => { if (!$("editor").hidden) draw(); },
    get answer() { return answer; },
  };
})();
