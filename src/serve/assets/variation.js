// Variations (中盘研究) in the PGN a person takes away: the game's moves in Chinese notation with
// each variation in parentheses after the move it replaces, as PGN writes alternatives
// ("4. 兵七进一 卒７进１ (4... 炮８平９ 5. 马八进七) 5. 车二进六"). The tags come from the server's own
// PGN of the game; Chariot's PGN reader skips the variations and reads the game back whole.
"use strict";
const ChariotVariations = (() => {
  // `number(ply)` → { number, black } numbers a ply of the game (see app.js's moveNumber).
  function movetext(mainMoves, variations, number, result) {
    const words = [];
    const numbered = (ply, text, first) => {
      const { number: n, black } = number(ply);
      return black ? (first ? n + "... " : "") + text : n + ". " + text;
    };
    let first = true;
    mainMoves.forEach((move, i) => {
      words.push(numbered(i + 1, move, first));
      first = false;
      for (const v of variations.filter((x) => x.ply === i && x.moves.length > 0)) {
        words.push("(" + v.moves.map((m, j) => numbered(i + 1 + j, m, j === 0)).join(" ") + ")");
        first = true;
      }
    });
    words.push(result);
    const lines = [];
    let line = "";
    for (const word of words) {
      if (line && (line + " " + word).length > 79) { lines.push(line); line = word; }
      else line = line ? line + " " + word : word;
    }
    if (line) lines.push(line);
    return lines.join("\n") + "\n";
  }

  // The server's PGN of a game (`serverPgn`: its tags are kept, `Format` made Chinese) with the
  // game's moves (Chinese) and `variations` ([{ply, moves: [Chinese]}], each replacing move
  // `ply + 1`) written afresh.
  function pgn(serverPgn, mainMoves, variations, number) {
    const head = serverPgn.split(/\r?\n\r?\n/)[0].split(/\r?\n/).filter((l) => l.startsWith("[") && !l.startsWith("[Format "));
    head.push('[Format "Chinese"]');
    const tag = head.find((l) => l.startsWith("[Result "));
    const result = tag ? tag.slice(9, -2) : "*";
    return head.join("\n") + "\n\n" + movetext(mainMoves, variations, number, result);
  }

  return { movetext, pgn };
})();
