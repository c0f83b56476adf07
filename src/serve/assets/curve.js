// A game's curve as SVG, laid out as src/svg/curve.rs draws it for `chariot annotate --curve`:
// Red's expected score (win + ½ draw) after every ply, 0% (Black wins) to 100% (Red wins), Red's
// half above the middle line and Black's below. Each point can be clicked to show that ply, and
// the ply shown is marked.
"use strict";
const ChariotCurve = (() => {
  const WIDTH = 560, HEIGHT = 190, LEFT = 40, RIGHT = 10, TOP = 12, BOTTOM = 30;
  const AXIS = "#444444", GRID = "#dddddd", CURVE = "#1f6fd1", RED_AREA = "#f4d4d2", BLACK_AREA = "#d9d9d9";
  const NS = "http://www.w3.org/2000/svg";

  function el(name, attrs, text) {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // Draws `points` ([{ply, expected, cp, mate}], in ply order) for a game of `plies` moves into
  // `svg`; `shown` is the ply on the board, `onClick(ply)` steps there.
  function draw(svg, points, plies, shown, onClick) {
    svg.setAttribute("viewBox", `0 0 ${WIDTH} ${HEIGHT}`);
    svg.replaceChildren();
    const plotW = WIDTH - LEFT - RIGHT, plotH = HEIGHT - TOP - BOTTOM;
    const last = Math.max(1, plies);
    const x = (ply) => LEFT + plotW * ply / last;
    const y = (expected) => TOP + plotH * (1 - Math.min(1, Math.max(0, expected)));
    svg.appendChild(el("rect", { width: "100%", height: "100%", fill: "white" }));
    const mid = y(0.5);
    svg.appendChild(el("rect", { x: LEFT, y: TOP, width: plotW, height: mid - TOP, fill: RED_AREA }));
    svg.appendChild(el("rect", { x: LEFT, y: mid, width: plotW, height: TOP + plotH - mid, fill: BLACK_AREA }));
    for (const [fraction, label] of [[1, "100%"], [0.75, "75%"], [0.5, "50%"], [0.25, "25%"], [0, "0%"]]) {
      const gy = y(fraction);
      svg.appendChild(el("line", { x1: LEFT, y1: gy, x2: WIDTH - RIGHT, y2: gy, stroke: GRID }));
      svg.appendChild(el("text", { x: LEFT - 4, y: gy, "font-size": 10, "text-anchor": "end", dy: "0.35em", fill: AXIS }, label));
    }
    const step = Math.max(1, Math.ceil(last / 10));
    for (let ply = 0; ply <= last; ply += step) {
      svg.appendChild(el("text", { x: x(ply), y: HEIGHT - BOTTOM + 13, "font-size": 10, "text-anchor": "middle", fill: AXIS }, ply));
    }
    svg.appendChild(el("text", { x: LEFT + plotW / 2, y: HEIGHT - 4, "font-size": 10, "text-anchor": "middle", fill: AXIS },
      ChariotI18n.t("curve axis")));
    if (shown !== null && shown <= last) {
      svg.appendChild(el("line", { class: "shown", x1: x(shown), y1: TOP, x2: x(shown), y2: TOP + plotH, stroke: "#b3160f", "stroke-width": 1.5, "stroke-dasharray": "4 3" }));
    }
    if (points.length > 0) {
      const path = points.map((p) => x(p.ply).toFixed(1) + "," + y(p.expected).toFixed(1)).join(" ");
      svg.appendChild(el("polyline", { class: "curve", points: path, fill: "none", stroke: CURVE, "stroke-width": 2 }));
    }
    for (const p of points) {
      const score = p.mate !== null ? ChariotI18n.t("mate", { n: p.mate }) : p.cp !== null ? (p.cp > 0 ? "+" : "") + (p.cp / 100).toFixed(2) : ChariotI18n.t("game over short");
      const dot = el("circle", { class: "point", cx: x(p.ply), cy: y(p.expected), r: p.ply === shown ? 5 : 3.5, fill: p.ply === shown ? "#b3160f" : CURVE, "data-ply": p.ply });
      dot.appendChild(el("title", {}, ChariotI18n.t("curve point", { ply: p.ply, pct: Math.round(p.expected * 100), score })));
      dot.addEventListener("click", () => onClick(p.ply));
      svg.appendChild(dot);
    }
  }

  return { draw };
})();
