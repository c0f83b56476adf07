// Every word the page shows, in English and in Chinese (中文), in one dictionary. The language
// follows the browser's at first; the switch in the header changes it, and the browser keeps it.
// `t("key", {name: value})` fills the `{name}` places; elements name their text with
// data-i18n (their text), data-i18n-title and data-i18n-placeholder.
"use strict";
const ChariotI18n = (() => {
  const KEY = "chariot-lang";
  const TEXT = {
    en: {
      "connecting": "connecting…", "connected": "connected", "reconnecting": "reconnecting…",
      "new game": "New game", "opponent": "Opponent", "the engine": "Chariot (the engine)",
      "a friend": "A friend (share a link)", "level": "Level", "or at an elo": "or at an Elo of",
      "your side": "Your side", "red first": "Red (moves first)", "red": "Red", "black": "Black", "random": "Random",
      "time": "Time", "untimed": "untimed", "min": "{n} min", "s": "{n} s", "a move": "a move",
      "fen optional": "Start from FEN (optional)", "start": "Start", "standard start": "the standard start",
      "review": "Review a game", "paste pgn": "Paste a PGN (ICCS, WXF or Chinese moves), or pick a file",
      "open board": "Open the board", "paste first": "paste a PGN or pick a file first",
      "level option": "{level} — about {elo} Elo", "full strength option": "{level} — full strength",
      "undo": "Undo", "undo title": "take back your last move", "offer draw": "Offer draw", "resign": "Resign",
      "rematch": "Rematch", "flip": "Flip", "sound": "Sound", "sound title": "sounds on or off",
      "pgn": "PGN", "accept draw": "Accept draw", "decline": "Decline", "agree undo": "Agree to take back",
      "refuse": "Refuse", "accept rematch": "Play the rematch", "share opponent": "Send this link to your opponent:",
      "share spectators": "Spectators:", "moves in": "Moves in", "analyse": "Analyse",
      "analyse title": "Chariot's best lines here, with win/draw/loss chances", "evaluate": "Evaluate",
      "evaluate title": "the static evaluation here and each piece's share of it", "curve": "Curve",
      "curve title": "Red's expected score at every move of the game", "steps title": "step through the game (← → Home End)",
      "first title": "the start", "last title": "the live position", "resign confirm": "Resign this game?",
      "analysis board": "Analysis board 复盘", "game over": "Game over", "waiting second": "Waiting for the second player to join",
      "thinking": "Chariot is thinking…", "your move": "Your move", "check!": " — check!", "to move": "{side} to move",
      "(check)": " (check)", "tab your move": "● Your move — ",
      "engine full": "Chariot, full strength", "engine elo": "Chariot at {elo} Elo (level {level})",
      "engine level": "Chariot, level {level} (about {elo} Elo)", "waiting friend": "waiting for a friend…",
      "you": "you", "opponent seat": "opponent", "player": "player", "offline": " (offline)", "seat": "{side}: {who}",
      "offer rematch": "Your opponent offers a rematch.", "offer draw them": "Your opponent offers a draw.",
      "offer undo them": "Your opponent asks to take back a move.", "offer draw me": "You offered a draw.",
      "offer undo me": "You asked to take back; waiting.", "you watch": "You are watching · ",
      "spectators 1": "1 spectator", "spectators": "{n} spectators",
      "the start": "the start", "live": " (live)", "ply": "ply {at}/{plies}", "at the start": "at the start",
      "after": "after {move}", "analysis for": "{after}, for {side}", "thinking short": "thinking…",
      "tablebase win": "tablebase: win, mate in {n} plies", "tablebase loss": "tablebase: loss, mated in {n} plies",
      "tablebase draw": "tablebase: draw", "tablebase win rule": "tablebase: win (the other side may only check for ever)",
      "tablebase loss rule": "tablebase: loss (only perpetual check would hold, and it is not allowed)",
      "evaluating": "evaluating…",
      "evaluation": "局面评估 {after}, {side} to move: {score} for {side} (W {w} D {d} L {l}); on each piece its share, in pawns, for its owner",
      "hanging": "; hanging pieces ringed orange",
      "wdl": "W {w}% D {d}% L {l}%", "mate": "mate {n}",
      "curve done": "Red's expected score at each move (click a point to see it)",
      "curve scoring": "scoring the game… {n} of {m} positions",
      "curve older": "; drawn at move {n}, Curve again for the newer moves",
      "curve axis": "ply · Red's expected score (win + ½ draw)", "curve point": "ply {ply}: Red {pct}% ({score})",
      "game over short": "game over",
      "result win": "{side} wins: {reason}", "result draw": "draw: {reason}", "result abandoned": "abandoned",
      "checkmate": "checkmate", "stalemate": "stalemate", "perpetual check": "perpetual check",
      "perpetual chase": "perpetual chase", "repetition": "repetition",
      "120 plies without a capture": "120 plies without a capture", "insufficient material": "insufficient material",
      "resignation": "resignation", "agreed draw": "agreed draw", "time forfeit": "time forfeit",
      "abandoned": "abandoned", "as recorded": "as recorded",
      "editor": "Set up a position 打谱", "open editor": "Open the board editor", "edit position": "Edit 打谱",
      "edit title": "set up the position shown in the board editor", "side to move": "Side to move",
      "start position": "Start position", "clear": "Clear", "remove": "Remove", "checking": "checking…",
      "editor legal": "A legal position: {side} to move, {n} legal moves", "editor over": "The rules end the game here: {result}",
      "analyse here": "Analyse from here", "play here": "Play from here", "back": "Back",
      "in variation": " (variation)", "variation from": "From {after}:", "back to game": "Back to the game",
    },
    zh: {
      "connecting": "连接中…", "connected": "已连接", "reconnecting": "重新连接中…",
      "new game": "新局", "opponent": "对手", "the engine": "Chariot（引擎）",
      "a friend": "朋友（网络对战：分享链接）", "level": "等级", "or at an elo": "或按等级分",
      "your side": "执子", "red first": "红方（先走）", "red": "红方", "black": "黑方", "random": "随机",
      "time": "用时", "untimed": "不计时", "min": "{n} 分钟", "s": "{n} 秒", "a move": "每步",
      "fen optional": "起始局面 FEN（可选）", "start": "开始", "standard start": "标准开局",
      "review": "复盘", "paste pgn": "粘贴 PGN（ICCS、WXF 或中文记谱），或选择文件",
      "open board": "打开棋盘", "paste first": "请先粘贴 PGN 或选择文件",
      "level option": "{level} — 约 {elo} 分", "full strength option": "{level} — 全力",
      "undo": "悔棋", "undo title": "收回你的上一步", "offer draw": "求和", "resign": "认输",
      "rematch": "再来一局", "flip": "翻转", "sound": "声音", "sound title": "打开或关闭声音",
      "pgn": "PGN", "accept draw": "同意和棋", "decline": "拒绝", "agree undo": "同意悔棋",
      "refuse": "拒绝", "accept rematch": "接受再战", "share opponent": "把这个链接发给对手：",
      "share spectators": "观战链接：", "moves in": "记谱", "analyse": "分析",
      "analyse title": "Chariot 在此局面的最佳着法及胜和负概率", "evaluate": "局面评估",
      "evaluate title": "此局面的静态评估及每个棋子的贡献", "curve": "形势图",
      "curve title": "红方在每一步的期望得分", "steps title": "逐步查看对局（← → Home End）",
      "first title": "开局", "last title": "当前局面", "resign confirm": "确定认输吗？",
      "analysis board": "复盘棋盘", "game over": "对局结束", "waiting second": "等待对手加入",
      "thinking": "Chariot 思考中…", "your move": "该你走了", "check!": " —— 将军！", "to move": "{side}走棋",
      "(check)": "（将军）", "tab your move": "● 该你走了 — ",
      "engine full": "Chariot 全力", "engine elo": "Chariot {elo} 分（{level} 级）",
      "engine level": "Chariot {level} 级（约 {elo} 分）", "waiting friend": "等待朋友加入…",
      "you": "你", "opponent seat": "对手", "player": "棋手", "offline": "（离线）", "seat": "{side}：{who}",
      "offer rematch": "对手提议再来一局。", "offer draw them": "对手提议和棋。",
      "offer undo them": "对手请求悔棋。", "offer draw me": "你已提议和棋。",
      "offer undo me": "你已请求悔棋，等待回复。", "you watch": "你在观战 · ",
      "spectators 1": "1 人观战", "spectators": "{n} 人观战",
      "the start": "开局", "live": "（当前）", "ply": "第 {at}/{plies} 步", "at the start": "开局时",
      "after": "{move} 之后", "analysis for": "{after}，{side}视角", "thinking short": "思考中…",
      "tablebase win": "残局库：胜，{n} 步（半回合）杀", "tablebase loss": "残局库：负，{n} 步（半回合）被杀",
      "tablebase draw": "残局库：和", "tablebase win rule": "残局库：胜（对方只能长将，长将判负）",
      "tablebase loss rule": "残局库：负（只能靠长将守和，长将判负）",
      "evaluating": "评估中…",
      "evaluation": "局面评估 {after}，{side}走：{side} {score}（胜 {w} 和 {d} 负 {l}）；棋子上是它的贡献（以兵计，按其所属方）",
      "hanging": "；受攻击而无保护的棋子以橙圈标出",
      "wdl": "胜 {w}% 和 {d}% 负 {l}%", "mate": "{n} 步杀",
      "curve done": "红方每一步的期望得分（点击一点查看该步）",
      "curve scoring": "计算中… {n} / {m} 个局面",
      "curve older": "；截至第 {n} 步，再点形势图更新",
      "curve axis": "步数 · 红方期望得分（胜 + ½ 和）", "curve point": "第 {ply} 步：红方 {pct}%（{score}）",
      "game over short": "对局结束",
      "result win": "{side}胜：{reason}", "result draw": "和棋：{reason}", "result abandoned": "弃局",
      "checkmate": "将死", "stalemate": "困毙", "perpetual check": "长将",
      "perpetual chase": "长捉", "repetition": "重复局面",
      "120 plies without a capture": "120 步无吃子", "insufficient material": "双方无进攻子力",
      "resignation": "认输", "agreed draw": "议和", "time forfeit": "超时",
      "abandoned": "弃局", "as recorded": "按棋谱记录",
      "editor": "打谱（摆棋）", "open editor": "打开摆棋", "edit position": "打谱",
      "edit title": "在摆棋中编辑当前显示的局面", "side to move": "轮到",
      "start position": "初始局面", "clear": "清空", "remove": "移除", "checking": "检查中…",
      "editor legal": "合法局面：{side}走棋，{n} 种着法", "editor over": "按规则此局已结束：{result}",
      "analyse here": "从此局面分析", "play here": "从此局面对局", "back": "返回",
      "in variation": "（变着）", "variation from": "{after}起：", "back to game": "回到对局",
    },
  };
  // The server's commonest refusals in Chinese; the others are shown as the server words them.
  const ERRORS_ZH = {
    "that token is no player's in this game": "这个令牌不属于本局的棋手",
    "spectators cannot play": "观战者不能走棋",
    "the game is over": "对局已结束",
    "a rematch is offered once the game is over": "对局结束后才能提议再来一局",
    "it is not your turn": "还没轮到你",
    "there is nothing to answer": "没有需要回复的请求",
    "you already asked; wait for the answer": "你已经提出请求，请等待回复",
    "your opponent asked first; answer that": "对手先提出了请求，请先回复",
    "there is no move of yours to take back": "没有你的着法可悔",
    "Chariot plays on: it does not take draw offers": "Chariot 继续下：它不接受和棋",
    "waiting for the second player to join": "等待对手加入",
    "this is an analysis board of a recorded game: nobody plays in it": "这是棋谱的复盘棋盘：不能在此走棋",
    "no such game (it may have ended and been closed)": "没有这局棋（可能已结束并关闭）",
    "the server has as many games as it can hold; try later": "服务器对局已满，请稍后再试",
    "this game has as many connections as it can hold": "本局连接已满",
    "both seats are taken; you can watch": "两个座位都已有人，你可以观战",
    "the game has not that many moves": "对局没有这么多步",
    "an analysis is still running; try again when it ends": "分析仍在进行，结束后再试",
    "a curve is still being drawn; try again when it ends": "形势图仍在绘制，完成后再试",
    "variations are explored once the game is over (or on an analysis board)": "对局结束后（或在复盘棋盘上）才能研究变着",
    "no engine help while the game is played: analysis, evaluation and the curve open when it ends": "对局进行中不提供引擎帮助：分析、局面评估和形势图在对局结束后开放",
    "no engine help at this position: a game being played stands there now": "此局面不提供引擎帮助：一盘正在进行的对局正处于这个局面",
    "this link does not invite you to play; ask the game's creator for the join link": "此链接不是对局邀请；请向创建者索取加入链接",
  };
  const saved = localStorage.getItem(KEY);
  let lang = saved in TEXT ? saved : (navigator.language || "").toLowerCase().startsWith("zh") ? "zh" : "en";

  function t(key, vars) {
    const text = TEXT[lang][key] !== undefined ? TEXT[lang][key] : TEXT.en[key] !== undefined ? TEXT.en[key] : key;
    return text.replace(/\{(\w+)\}/g, (whole, name) => (vars && name in vars ? String(vars[name]) : whole));
  }

  // The page's fixed words in the language chosen.
  function apply(root) {
    document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
    for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n, node.dataset);
    for (const node of root.querySelectorAll("[data-i18n-title]")) node.title = t(node.dataset.i18nTitle);
    for (const node of root.querySelectorAll("[data-i18n-placeholder]")) node.placeholder = t(node.dataset.i18nPlaceholder);
  }

  function setLang(next) {
    if (!(next in TEXT)) return;
    lang = next;
    localStorage.setItem(KEY, next);
  }

  // A result as players read it: the server's words ("red wins: checkmate"), or "红方胜：将死".
  function result(r) {
    if (lang === "en") return r.text;
    if (r.reason === "abandoned") return t("result abandoned");
    const reason = t(r.reason);
    if (r.score === "1-0") return t("result win", { side: t("red"), reason });
    if (r.score === "0-1") return t("result win", { side: t("black"), reason });
    return t("result draw", { reason });
  }

  // A refusal from the server in the language chosen, where it is known.
  function error(text) {
    return lang === "zh" && ERRORS_ZH[text] ? ERRORS_ZH[text] : text;
  }

  return { t, apply, setLang, result, error, get lang() { return lang; } };
})();
