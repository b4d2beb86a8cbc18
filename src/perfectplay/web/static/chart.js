// Two charts in SVG: the game's value history (GamesmanUni's "visual value history": the value
// after each move from both players' sides, the first mistake marked) and the growth chart
// (nodes against size, log scale: plain recursion grows exponentially, a memo table linearly).

import { el } from "./svg.js";

const SIDES = [{ name: "first player", colour: "#1b4f9c" }, { name: "second player", colour: "#c0571b" }];

// `points[i]`: the first player's value after i moves (null: unknown); `mistake`: {ply, text}.
// `proven[i]` false draws point i hollow (an estimate), on the evaluation history.
export function drawHistory(container, points, mistake, { scoreGame, id = "history-svg", proven = null }) {
  const width = 520, height = 200, left = 56, right = 12, top = 14, bottom = 28;
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, width, height, id, role: "img" });
  const known = points.filter((p) => p !== null);
  const span = scoreGame ? Math.max(1, ...known.map(Math.abs)) : 1;
  const plies = Math.max(points.length - 1, 1);
  const x = (i) => left + (i / plies) * (width - left - right);
  const y = (v) => top + (1 - (v / span + 1) / 2) * (height - top - bottom);
  svg.appendChild(el("rect", { x: left, y: top, width: width - left - right, height: (height - top - bottom) / 2,
                               fill: "#eaf6ea" }));
  svg.appendChild(el("rect", { x: left, y: y(0), width: width - left - right, height: (height - top - bottom) / 2,
                               fill: "#f8e9e9" }));
  svg.appendChild(el("line", { x1: left, x2: width - right, y1: y(0), y2: y(0), stroke: "#d4b600" }));
  const labels = scoreGame ? [`+${span}`, "level", `-${span}`] : ["win", "draw", "loss"];
  [span, 0, -span].forEach((v, i) => svg.appendChild(el("text", { x: 4, y: y(v) + 4, "font-size": 11 }, labels[i])));
  svg.appendChild(el("text", { x: width - right, y: height - 8, "text-anchor": "end", "font-size": 11 }, "moves played →"));
  SIDES.forEach((side, s) => {
    let path = "";
    points.forEach((p, i) => {
      if (p === null) return;
      const v = s === 0 ? p : -p;
      path += `${path ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
      const hollow = proven !== null && !proven[i];
      svg.appendChild(el("circle", { cx: x(i), cy: y(v), r: 3.5, fill: hollow ? "#fff" : side.colour,
                                     stroke: side.colour, "stroke-width": 1.5,
                                     class: `history-point side-${s}${hollow ? " estimate" : ""}` }));
    });
    if (path) svg.appendChild(el("path", { d: path, fill: "none", stroke: side.colour, "stroke-width": 2,
                                           class: "history-line" }));
    svg.appendChild(el("text", { x: left + 6 + s * 130, y: height - 8, "font-size": 11, fill: side.colour },
                       `— ${side.name}`));
  });
  if (mistake) {
    svg.appendChild(el("line", { x1: x(mistake.ply), x2: x(mistake.ply), y1: top, y2: height - bottom,
                                 stroke: "#d00", "stroke-dasharray": "4 3", id: "first-mistake" }));
    svg.appendChild(el("text", { x: Math.min(x(mistake.ply) + 4, width - 150), y: top + 12, fill: "#d00",
                                 "font-size": 11 }, `first mistake: move ${mistake.ply}`));
  }
  container.replaceChildren(svg);
}

const ALGORITHM_COLOURS = { minimax: "#c0392b", memo: "#27ae60", alphabeta: "#8e44ad", tt: "#2471a3",
                            id: "#7f8c8d", table: "#d68910", grundy: "#17a589" };

// `growth`: the /api/growth answer. Log-scale y axis.
export function drawGrowth(container, growth) {
  const width = 600, height = 300, left = 64, right = 120, top = 14, bottom = 36;
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, width, height, id: "growth-svg", role: "img" });
  const all = Object.values(growth.nodes).flat().filter((v) => v);
  const maxLog = Math.ceil(Math.log10(Math.max(10, ...all)));
  const sizes = growth.sizes;
  const x = (n) => left + ((n - sizes[0]) / Math.max(sizes[sizes.length - 1] - sizes[0], 1)) * (width - left - right);
  const y = (v) => top + (1 - Math.log10(Math.max(v, 1)) / maxLog) * (height - top - bottom);
  for (let k = 0; k <= maxLog; k++) {
    svg.appendChild(el("line", { x1: left, x2: width - right, y1: y(10 ** k), y2: y(10 ** k), stroke: "#ddd" }));
    svg.appendChild(el("text", { x: left - 6, y: y(10 ** k) + 4, "text-anchor": "end", "font-size": 11 },
                       k < 4 ? String(10 ** k) : `1e${k}`));
  }
  sizes.forEach((n, i) => {
    if (sizes.length <= 30 || i % 5 === 0)
      svg.appendChild(el("text", { x: x(n), y: height - bottom + 16, "text-anchor": "middle", "font-size": 11 }, String(n)));
  });
  svg.appendChild(el("text", { x: (left + width - right) / 2, y: height - 4, "text-anchor": "middle", "font-size": 12 },
                     `${growth.game}: size`));
  // The axis title runs up the left edge, clear of the tick labels ("1e6").
  const middle = (top + height - bottom) / 2;
  svg.appendChild(el("text", { x: 14, y: middle, "font-size": 12, "text-anchor": "middle", id: "growth-axis-title",
                               transform: `rotate(-90 14 ${middle})` }, "nodes searched (log)"));
  Object.entries(growth.nodes).forEach(([name, counts], row) => {
    const colour = ALGORITHM_COLOURS[name] ?? "#333";
    let path = "";
    counts.forEach((v, i) => { if (v) path += `${path ? "L" : "M"}${x(sizes[i]).toFixed(1)},${y(v).toFixed(1)}`; });
    // Curves may coincide (memo and tt on take-away): dashes and widths keep each visible.
    const [dash, strokeWidth] = [["", 5], ["8 4", 3], ["4 3", 2], ["2 3", 2]][row % 4];
    svg.appendChild(el("path", { d: path, fill: "none", stroke: colour, "stroke-width": strokeWidth,
                                 "stroke-dasharray": dash, class: "growth-line", "data-algorithm": name }));
    // The legend, right of the plot: a sample of the line and the algorithm's name.
    const legendY = top + 16 + row * 20;
    svg.appendChild(el("line", { x1: width - right + 8, x2: width - right + 34, y1: legendY - 4, y2: legendY - 4,
                                 stroke: colour, "stroke-width": strokeWidth, "stroke-dasharray": dash }));
    svg.appendChild(el("text", { x: width - right + 40, y: legendY, fill: colour, "font-size": 12,
                                 class: "growth-legend", "data-algorithm": name }, name));
  });
  container.replaceChildren(svg);
}
