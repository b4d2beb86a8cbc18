// The pits, lines and hex kinds (perfectplay/diagram.py): a sowing board, dots and the lines
// between them, and the hex rhombus. The board says which place plays which move, who took
// a box and whether the last move kept the turn; nothing here knows a game's rules.

import { el } from "./svg.js";
import { drawCounts, drawStatus, fillFor, isCard, playable, pliesLabel, rowOf, scoreLabel, statusHeight, svgRoot,
         text } from "./drawing.js";
import { textColour } from "./values.js";

function seedsIn(svg, cx, cy, count, radius) {
  // A few seeds drawn one by one (a sunflower's spiral); more, as a number.
  if (count > 12) { text(svg, cx, cy + 8, String(count), { "font-size": 22, "font-weight": "bold", fill: "#fff" }); return; }
  const spread = (radius - 6) / Math.sqrt(11.5);
  for (let i = 0; i < count; i++) {
    const r = count === 1 ? 0 : spread * Math.sqrt(i + 0.5), angle = i * 2.39996;
    svg.appendChild(el("circle", { cx: cx + r * Math.cos(angle), cy: cy + r * Math.sin(angle), r: 4.6,
                                   fill: "#f6ead0", stroke: "#5b3d17", "stroke-width": 1, "pointer-events": "none",
                                   class: "seed" }));
  }
}

// Sowing: two rows of pits between two stores; the side to move's store is ringed.
export function drawPits(board, view) {
  const m = Math.max(board.top.length, board.bottom.length), cell = 64, band = 24, top = 4;
  const card = isCard(view);
  // At least wide enough for the status line under a small board, which is centred.
  const width = Math.max((m + 2) * cell, card ? 0 : 420), left = (width - (m + 2) * cell) / 2;
  const rowsTop = top + band, height = rowsTop + 2 * cell + band + statusHeight(board, view) + (card ? 0 : 6);
  const svg = svgRoot(width, height);
  svg.appendChild(el("rect", { x: left + 1, y: rowsTop - 6, width: (m + 2) * cell - 2, height: 2 * cell + 12, rx: 30,
                               fill: "#c8995c", stroke: "#7a5426", "stroke-width": 2 }));
  for (const [store, x] of [[board.left, left], [board.right, left + (m + 1) * cell]]) {
    const mine = store.side === board.to_move && !board.over;
    svg.appendChild(el("rect", { x: x + 8, y: rowsTop + 2, width: cell - 16, height: 2 * cell - 4, rx: 24,
                                 fill: "#8e5f2b", stroke: mine ? "#0a58ca" : "#5b3d17", "stroke-width": mine ? 4 : 1.5,
                                 "data-store": store.side }));
    text(svg, x + cell / 2, rowsTop + cell + 9, String(store.seeds),
         { "font-size": 26, "font-weight": "bold", fill: "#fff", "data-store-count": store.side });
    text(svg, x + cell / 2, rowsTop + 2 * cell - 14, store.label, { "font-size": 11, fill: "#f6ead0" });
  }
  const pit = (p, column, rowY, countY) => {
    const x = left + (column + 1) * cell, cx = x + cell / 2, cy = rowY + cell / 2;
    const row = rowOf(p.move, view);
    const hole = el("circle", { cx, cy, r: cell / 2 - 5, fill: fillFor(row, view) ?? "#8e5f2b",
                                stroke: "#5b3d17", "stroke-width": 1.5, "data-pit": p.name, "data-seeds": p.seeds });
    svg.appendChild(playable(hole, row, view));
    seedsIn(svg, cx, cy, p.seeds, cell / 2 - 5);
    text(svg, cx, countY, String(p.seeds), { "font-size": 16, "font-weight": p.move ? "bold" : "normal",
                                             fill: "#222", class: "pit-count" });
    text(svg, x + 7, rowY + 12, String(p.number), { "font-size": 13, fill: "#3a2408" });
    const value = scoreLabel(row, view).replace("~", "");  // pale colours say "estimate"
    if (value) text(svg, x + cell - 1, rowY + cell - 3, value, { "font-size": 13, "font-weight": "bold",
                                                              "text-anchor": "end", fill: "#111", class: "pit-value" });
    if (p.again) text(svg, x + cell - 7, rowY + 13, "↻", { "font-size": 16, "font-weight": "bold", fill: "#0b3d91",
                                                           class: "again" });
  };
  board.top.forEach((p, k) => pit(p, k, rowsTop, rowsTop - 8));
  board.bottom.forEach((p, k) => pit(p, k, rowsTop + cell, rowsTop + 2 * cell + band - 6));
  drawStatus(svg, board, width, rowsTop + 2 * cell + band + 18, view);
  return svg;
}

// Dots and lines: each free line the move that draws it, each box in its taker's colours.
export function drawLines(board, view) {
  const card = isCard(view), gap = 64, margin = 30;
  // At least wide enough for the tallies and the status line; a small board is centred.
  const width = Math.max(2 * margin + board.columns * gap, card ? 0 : 320);
  const svg = svgRoot(width, 0);
  const head = drawCounts(svg, board, width, view);
  const height = head + 2 * margin + board.rows * gap + statusHeight(board, view);
  svg.setAttribute("height", height);
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const left = (width - board.columns * gap) / 2;
  const at = ([row, column]) => [left + column * gap, head + margin + row * gap];
  board.boxes.forEach((box, i) => {
    const [x, y] = at([box.row, box.column]), owner = box.owner ? board.pieces[box.owner] : null;
    svg.appendChild(el("rect", { x: x + 4, y: y + 4, width: gap - 8, height: gap - 8, fill: owner ? owner.tint : "#e2e2e2",
                                 "data-box": box.row * board.columns + box.column, "data-owner": box.owner ?? "" }));
    text(svg, x + gap / 2, y + gap / 2 + 10, owner ? owner.text : "", { "font-size": 28, "font-weight": "bold",
                                                                       fill: owner ? owner.colour : "#999" });
  });
  board.column_names.forEach((name, c) => text(svg, left + c * gap, head + 14, name, { "font-size": 12, fill: "#666" }));
  board.row_names.forEach((name, r) => text(svg, left - 19, head + margin + r * gap + 4, name, { "font-size": 12, fill: "#666" }));
  for (const line of board.edges) drawEdge(svg, line, at, view);
  for (let r = 0; r <= board.rows; r++)
    for (let c = 0; c <= board.columns; c++) {
      const [cx, cy] = at([r, c]);
      svg.appendChild(el("circle", { cx, cy, r: 6, fill: "#222", "pointer-events": "none" }));
    }
  drawStatus(svg, board, width, height - statusHeight(board, view) + 8, view);
  return svg;
}

function drawEdge(svg, line, at, view) {
  const [x1, y1] = at(line.source), [x2, y2] = at(line.target);
  if (line.drawn) {
    svg.appendChild(el("line", { x1, y1, x2, y2, stroke: "#222", "stroke-width": 6, "stroke-linecap": "round",
                                 "data-line": line.move, "data-drawn": "1" }));
    return;
  }
  const row = rowOf(line.move, view);
  // A free line is a thin rectangle (a <line> has no area to click in a test), inside a
  // wide invisible band that takes the clicks a thin line would miss.
  const across = x1 === x2, length = Math.abs(x2 - x1) + Math.abs(y2 - y1) - 14, thick = row ? 9 : 4;
  const box = (t) => across ? { x: x1 - t / 2, y: Math.min(y1, y2) + 7, width: t, height: length }
    : { x: Math.min(x1, x2) + 7, y: y1 - t / 2, width: length, height: t };
  const band = el("rect", { ...box(26), fill: "transparent" });
  if (row) { band.style.cursor = "pointer"; band.addEventListener("click", () => view.onMove(row.move)); }
  svg.appendChild(band);
  const free = el("rect", { ...box(thick), rx: thick / 2, fill: fillFor(row, view) ?? "#aab2bf", "data-line": line.move });
  svg.appendChild(playable(free, row, view));
}

// Hex on the n x n rhombus: each row half a cell right of the one above; the edges in the
// colours of the sides that join them.
export function drawHex(board, view) {
  const card = isCard(view), n = board.size, radius = 26, w = Math.sqrt(3) * radius, margin = 30;
  const head = card ? 0 : 18 * board.status.length + 6;
  const width = 2 * margin + (n + (n - 1) / 2) * w, height = head + 2 * margin + (1.5 * (n - 1) + 2) * radius;
  const svg = svgRoot(Math.ceil(width), Math.ceil(height));
  const centre = (c, r) => [margin + w / 2 + (c + r / 2) * w, head + margin + radius + 1.5 * r * radius];
  const corner = (cx, cy, k) => {  // the corners clockwise from the top
    const angle = Math.PI / 180 * (60 * k - 90);
    return [cx + radius * Math.cos(angle), cy + radius * Math.sin(angle)];
  };
  const chain = new Set(board.highlights.filter((h) => h.why === "win").map((h) => h.place));
  const last = new Set(board.highlights.filter((h) => h.why === "last").map((h) => h.place));
  const colour = (mark) => board.pieces[mark].colour;
  const edges = [];
  board.cells.forEach((cell, i) => {
    const r = Math.floor(i / n), c = i % n, [cx, cy] = centre(c, r);
    const points = [0, 1, 2, 3, 4, 5].map((k) => corner(cx, cy, k).join(",")).join(" ");
    const row = rowOf(cell.move, view);
    const shape = el("polygon", { points, fill: "#f4efe2", stroke: "#8c8272", "stroke-width": 1.2, "data-cell": cell.name });
    svg.appendChild(playable(shape, row, view));
    // The move's value as a smaller hexagon inside the cell: a filled cell in loss red
    // would read as a side's edge, and a disc as a stone.
    const value = fillFor(row, view);
    if (value) {
      const inner = [0, 1, 2, 3, 4, 5].map((k) => corner(0, 0, k).map((v) => v * 0.68))
        .map(([dx, dy]) => `${cx + dx},${cy + dy}`).join(" ");
      svg.appendChild(el("polygon", { points: inner, fill: value, "pointer-events": "none", class: "cell-value" }));
    }
    if (cell.mark) {
      const won = chain.has(cell.name);
      svg.appendChild(el("circle", { cx, cy, r: radius * 0.62, fill: colour(cell.mark), "pointer-events": "none",
                                     stroke: won ? "#ffd23f" : "#222", "stroke-width": won ? 4 : 1.5, "data-stone": cell.mark }));
      if (last.has(cell.name)) svg.appendChild(el("circle", { cx, cy, r: 4, fill: "#fff", "pointer-events": "none",
                                                              class: "highlight-last" }));
    } else {
      const plies = pliesLabel(row, view);
      if (plies) text(svg, cx, cy + 5, plies, { "font-size": 14, fill: textColour(row, false, 1), class: "plies" });
    }
    const side = (a, b, owner) => edges.push([corner(cx, cy, a), corner(cx, cy, b), owner]);
    if (r === 0) { side(5, 0, board.vertical); side(0, 1, board.vertical); }
    if (r === n - 1) { side(2, 3, board.vertical); side(3, 4, board.vertical); }
    if (c === 0) { side(4, 5, board.horizontal); if (r < n - 1) side(3, 4, board.horizontal); }
    if (c === n - 1) { side(1, 2, board.horizontal); if (r > 0) side(0, 1, board.horizontal); }
  });
  for (const [[x1, y1], [x2, y2], owner] of edges)
    svg.appendChild(el("line", { x1, y1, x2, y2, stroke: colour(owner), "stroke-width": 6,
                                 "stroke-linecap": "round", "pointer-events": "none", "data-edge": owner }));
  board.column_names.forEach((name, c) => {
    const [cx, cy] = centre(c, 0);
    text(svg, cx, cy - radius - 9, name, { "font-size": 13, fill: "#555" });
  });
  board.row_names.forEach((name, r) => {
    const [cx, cy] = centre(0, r);
    text(svg, cx - w / 2 - 12, cy + 5, name, { "font-size": 13, fill: "#555" });
  });
  drawStatus(svg, board, width, 15, view);
  return svg;
}
