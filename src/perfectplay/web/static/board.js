// SVG boards, one drawing per kind the server describes (perfectplay/web/boards.py).
// Every element a click can play carries data-move (the move's notation), data-class
// (win/draw/loss/estimate/unknown) and data-remoteness, and is filled by its value.

import { el } from "./svg.js";
import { drawChess, drawChopsticks, drawDodgem, drawMorris } from "./moving_boards.js";
import { describeRow, formatEstimate, moveColour, scoreScale, textColour, valueClass } from "./values.js";

function svgRoot(width, height) {
  return el("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img", id: "board-svg" });
}

// Mark `node` as the move `row` (or as no move when row is undefined).
function playable(node, row, view) {
  if (!row) return node;
  node.setAttribute("data-move", row.move);
  node.setAttribute("data-class", valueClass(row, view.scoreGame));
  node.setAttribute("data-remoteness", row.remoteness ?? "");
  node.setAttribute("class", "move-target");
  const title = el("title", {}, `${row.move}: ${view.hidden ? "?" : describeRow(row, view.scoreGame)}`);
  node.appendChild(title);
  node.addEventListener("click", () => view.onMove(row.move));
  return node;
}

function fillFor(row, view) {
  if (!row || view.hidden) return null;
  return moveColour(row, view.scoreGame, view.scale);
}

function drawTicTacToe(board, view) {
  const size = 300, cell = size / 3;
  const svg = svgRoot(size, size);
  [...board.cells].forEach((mark, i) => {
    const x = (i % 3) * cell, y = Math.floor(i / 3) * cell;
    const row = view.byMove.get(String(i + 1));
    const square = el("rect", { x: x + 3, y: y + 3, width: cell - 6, height: cell - 6, rx: 8,
                                fill: fillFor(row, view) ?? "#f4f4f4", stroke: "#555", "data-cell": i });
    svg.appendChild(playable(square, mark === "." ? row : undefined, view));
    if (mark !== ".") svg.appendChild(el("text", { x: x + cell / 2, y: y + cell / 2 + 22, "text-anchor": "middle",
                                                  "font-size": 64, "font-weight": "bold",
                                                  fill: mark === "X" ? "#1b4f9c" : "#b3541e" }, mark));
    else if (row && !view.hidden && row.remoteness !== null && row.remoteness !== undefined)
      svg.appendChild(el("text", { x: x + cell / 2, y: y + cell / 2 + 8, "text-anchor": "middle", "font-size": 22,
                                   "pointer-events": "none", fill: "#111" }, String(row.remoteness)));
  });
  return svg;
}

function drawConnectFour(board, view) {
  const cell = 56, top = 44;
  const width = board.width * cell, height = board.height * cell + top;
  const svg = svgRoot(width, height);
  svg.appendChild(el("rect", { x: 0, y: top, width, height: height - top, rx: 10, fill: "#2957a4" }));
  for (let c = 0; c < board.width; c++) {
    const row = view.byMove.get(String(c + 1));
    const column = el("rect", { x: c * cell, y: 0, width: cell, height, fill: "transparent", "data-column": c });
    playable(column, row, view);
    // The exact score of the column (the test sets' convention) above the board.
    if (row) {
      const label = view.hidden ? "" : row.score !== undefined ? (row.score > 0 ? "+" : "") + row.score
        : row.value === null ? "…" : row.exact ? describeRow(row, false).replace(" in ", " ")
        : `~${formatEstimate(row.estimate)}`;
      const badge = el("circle", { cx: c * cell + cell / 2, cy: top / 2, r: 18, fill: fillFor(row, view) ?? "#eee",
                                   stroke: "#333", "pointer-events": "none", class: "column-badge",
                                   "data-badge": row.move });
      svg.appendChild(badge);
      svg.appendChild(el("text", { x: c * cell + cell / 2, y: top / 2 + 5, "text-anchor": "middle", "font-size": 13,
                                   "pointer-events": "none", class: "column-score",
                                   fill: view.hidden ? "#111" : textColour(row, false, 1) }, label));
    }
    for (let r = 0; r < board.height; r++) {
      const mark = board.rows[r][c];
      const fill = mark === "X" ? "#e03c31" : mark === "O" ? "#f2c81d" : "#fff";
      svg.appendChild(el("circle", { cx: c * cell + cell / 2, cy: top + r * cell + cell / 2, r: cell / 2 - 6,
                                     fill, "pointer-events": "none" }));
    }
    svg.appendChild(column);
  }
  return svg;
}

function drawHeaps(board, view) {
  const unit = board.style === "tokens" ? 22 : 16;
  const longest = Math.min(Math.max(1, ...board.heaps), 40);
  const width = 60 + longest * unit, rowHeight = 46;
  const svg = svgRoot(width, Math.max(rowHeight * board.heaps.length, 40));
  board.heaps.forEach((size, h) => {
    const y = h * rowHeight;
    const label = board.heaps.length > 1 ? `${h + 1}` : "";
    svg.appendChild(el("text", { x: 8, y: y + 30, "font-size": 16 }, label));
    for (let j = 0; j < Math.min(size, 40); j++) {
      const x = 40 + j * unit;
      // Nim and the matchgame: a click on a stick takes it and every stick right of it.
      const row = board.style === "tokens" || board.style === "pile" ? undefined
        : view.byMove.get(`${h + 1}:${size - j}`);
      const shape = board.style === "tokens"
        ? el("circle", { cx: x + unit / 2, cy: y + 23, r: unit / 2 - 2, fill: "#8a6d3b" })
        : el("rect", { x: x + 3, y: y + 6, width: unit - 7, height: 34, rx: 3,
                       fill: fillFor(row, view) ?? (board.style === "matches" ? "#d9a441" : "#8a6d3b") });
      svg.appendChild(playable(shape, row, view));
    }
    if (size > 40) svg.appendChild(el("text", { x: 40 + 40 * unit + 4, y: y + 30 }, `… (${size})`));
  });
  return svg;
}

function drawRow(board, view) {
  const unit = 54, n = board.values.length;
  const svg = svgRoot(Math.max(n, 1) * unit + 10, 80);
  board.values.forEach((value, i) => {
    const live = i >= board.left && i < board.right;
    const x = 5 + i * unit;
    const shape = board.item === "coin"
      ? el("circle", { cx: x + unit / 2, cy: 40, r: unit / 2 - 4 })
      : el("rect", { x: x + 3, y: 14, width: unit - 6, height: unit - 6, rx: 4 });
    shape.setAttribute("fill", live ? (board.item === "coin" ? "#e4c15a" : "#b98b52") : "#eee");
    shape.setAttribute("stroke", live ? "#5a4320" : "#ccc");
    svg.appendChild(shape);
    svg.appendChild(el("text", { x: x + unit / 2, y: 46, "text-anchor": "middle", "font-size": 18,
                                 fill: live ? "#111" : "#bbb" }, String(value)));
  });
  return svg;
}

function drawClaim(board, view) {
  const unit = 40, n = board.cells.length;
  const svg = svgRoot(Math.max(n, 1) * unit + 10, 70);
  [...board.cells].forEach((mark, i) => {
    const row = mark === "." ? view.byMove.get(String(i)) : undefined;
    const fill = mark === "x" ? "#444" : mark === "-" ? "#bbb" : fillFor(row, view) ?? "#f4f4f4";
    const square = el("rect", { x: 5 + i * unit + 2, y: 10, width: unit - 4, height: unit - 4, rx: 4, fill,
                                stroke: "#555", "data-cell": i });
    svg.appendChild(playable(square, row, view));
    svg.appendChild(el("text", { x: 5 + i * unit + unit / 2, y: 64, "text-anchor": "middle", "font-size": 11 },
                       String(i)));
  });
  return svg;
}

// ---- Kalah, Dots and Boxes, Hex, Othello (issue 23) -------------------------------------

function text(svg, x, y, words, attrs = {}) {
  return svg.appendChild(el("text", { x, y, "text-anchor": "middle", "pointer-events": "none", ...attrs }, words));
}

// A home page card's picture (no position answered, so no start): the board without its
// captions, which would be too small to read there.
const isCard = (view) => view.start === undefined;

// The remoteness of an exact win/loss row, written on a target (as tic-tac-toe's squares).
function pliesLabel(row, view) {
  if (!row || view.hidden || row.remoteness === null || row.remoteness === undefined) return "";
  return String(row.remoteness);
}

// A score game's value of a row, written on a target: "+2", "-1", "0"; "~+2" for an estimate.
function scoreLabel(row, view) {
  if (!row || view.hidden || typeof row.value !== "number") return "";
  const signed = `${row.value > 0 ? "+" : ""}${row.value}`;
  return row.exact ? signed : `~${signed}`;
}

// Kalah: sow one pit as rules.Kalah does (captures and the sweep at the end); returns the
// side to move next. The page replays the moves played to tell an extra turn.
function kalahSow(cells, mover, pit, m, emptyCapture) {
  const size = 2 * m + 2, store = mover * (m + 1) + m, skip = (store + m + 1) % size;
  let at = store - m + pit - 1, seeds = cells[at];
  cells[at] = 0;
  while (seeds) {
    at = (at + 1) % size;
    if (at !== skip) { cells[at] += 1; seeds -= 1; }
  }
  if (at >= store - m && at < store && cells[at] === 1) {
    const opposite = 2 * m - at;
    if (emptyCapture || cells[opposite]) { cells[store] += cells[opposite] + 1; cells[at] = cells[opposite] = 0; }
  }
  const south = cells.slice(0, m), north = cells.slice(m + 1, 2 * m + 1);
  if (!south.some(Boolean) || !north.some(Boolean)) {
    cells[m] += south.reduce((a, b) => a + b, 0);
    cells[size - 1] += north.reduce((a, b) => a + b, 0);
    for (let i = 0; i < m; i++) cells[i] = cells[m + 1 + i] = 0;
  }
  return at === store ? mover : 1 - mover;
}

// Whether the last move played kept the turn (its last seed in the mover's store).
function kalahExtraTurn(board, view) {
  if (!view.played.length || !view.start) return false;
  const words = view.start.replace(/,/g, " ").split(/\s+/).filter(Boolean);
  let mover = 0;
  if (/^(S|N|SOUTH|NORTH)$/i.test(words[words.length - 1])) mover = words.pop()[0].toUpperCase() === "S" ? 0 : 1;
  const cells = words.filter((word) => word !== "/").map(Number);
  if (cells.length !== 2 * board.pits + 2 || cells.some(Number.isNaN)) return false;
  let before = mover;
  for (const move of view.played) {
    before = mover;
    mover = kalahSow(cells, mover, Number(move), board.pits, board.empty_capture);
  }
  return before === mover;
}

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

function drawKalah(board, view) {
  const m = board.pits, cell = 64, band = 24, top = 4;
  // At least wide enough for the status line under a small board, which is centred.
  const card = isCard(view);
  const width = Math.max((m + 2) * cell, card ? 0 : 420), left = (width - (m + 2) * cell) / 2;
  const rowsTop = top + band, height = rowsTop + 2 * cell + band + (card ? 0 : 40);
  const svg = svgRoot(width, height);
  const names = { S: "South", N: "North" }, mover = board.to_move;
  svg.appendChild(el("rect", { x: left + 1, y: rowsTop - 6, width: (m + 2) * cell - 2, height: 2 * cell + 12, rx: 30,
                               fill: "#c8995c", stroke: "#7a5426", "stroke-width": 2 }));
  // The stores: North's at the left (North's right hand), South's at the right.
  for (const [side, x] of [["N", left], ["S", left + (m + 1) * cell]]) {
    const store = el("rect", { x: x + 8, y: rowsTop + 2, width: cell - 16, height: 2 * cell - 4, rx: 24,
                               fill: "#8e5f2b", stroke: side === mover && !board.over ? "#0a58ca" : "#5b3d17",
                               "stroke-width": side === mover && !board.over ? 4 : 1.5, "data-store": side });
    svg.appendChild(store);
    text(svg, x + cell / 2, rowsTop + cell + 9, String(board.stores[side]),
         { "font-size": 26, "font-weight": "bold", fill: "#fff", "data-store-count": side });
    text(svg, x + cell / 2, rowsTop + 2 * cell - 14, names[side], { "font-size": 11, fill: "#f6ead0" });
  }
  const pit = (side, number, seeds, column, rowY, countY) => {
    const x = left + (column + 1) * cell, cx = x + cell / 2, cy = rowY + cell / 2;
    const row = side === mover ? view.byMove.get(String(number)) : undefined;
    const hole = el("circle", { cx, cy, r: cell / 2 - 5, fill: fillFor(row, view) ?? "#8e5f2b",
                                stroke: "#5b3d17", "stroke-width": 1.5, "data-pit": `${side}${number}`,
                                "data-seeds": seeds });
    svg.appendChild(playable(hole, row, view));
    seedsIn(svg, cx, cy, seeds, cell / 2 - 5);
    text(svg, cx, countY, String(seeds), { "font-size": 16, "font-weight": side === mover ? "bold" : "normal",
                                           fill: "#222", class: "pit-count" });
    text(svg, x + 7, rowY + 12, String(number), { "font-size": 13, fill: "#3a2408" });
    const value = scoreLabel(row, view).replace("~", "");  // pale colours say "estimate"
    if (value) text(svg, x + cell - 1, rowY + cell - 3, value, { "font-size": 13, "font-weight": "bold",
                                                              "text-anchor": "end", fill: "#111", class: "pit-value" });
    if (side === mover && board.again.includes(number))
      text(svg, x + cell - 7, rowY + 13, "↻", { "font-size": 16, "font-weight": "bold",
                                                                  fill: "#0b3d91", class: "again" });
  };
  // North's pit k sits above South's pit m + 1 - k: North sows right to left along the top.
  board.north.forEach((seeds, k) => pit("N", k + 1, seeds, m - 1 - k, rowsTop, rowsTop - 8));
  board.south.forEach((seeds, k) => pit("S", k + 1, seeds, k, rowsTop + cell, rowsTop + 2 * cell + band - 6));
  if (card) return svg;
  const again = kalahExtraTurn(board, view);
  const status = board.over ? `Game over: South ${board.stores.S}, North ${board.stores.N}`
    : again ? `${names[mover]} moves again: last seed in the store`
    : `${names[mover]} to move (${mover === "S" ? "bottom row, store at the right" : "top row, store at the left"})`;
  text(svg, width / 2, height - 22, status, { "font-size": 15, "font-weight": again ? "bold" : "normal",
                                               fill: again ? "#0b3d91" : "#222", class: "kalah-status",
                                               "data-again": again ? "1" : "0" });
  if (!board.over && board.again.length)
    text(svg, width / 2, height - 4, "↻ the last seed lands in your store: you move again", { "font-size": 13, fill: "#444" });
  return svg;
}

// Dots and Boxes: who took each box and whether the last line kept the turn, by replaying
// the lines played from the start (the position holds only the score).
function dotsReplay(board, view) {
  const owners = board.boxes.map(() => null);
  const words = (view.start ?? "").split(/\s+/);
  if (!view.start || words.length < 2) return { owners, again: false };
  const drawn = new Set(words[0] === "-" ? [] : words[0].split(","));
  let mover = words[1].toUpperCase(), again = false;
  const complete = (box) => box.lines.every((line) => drawn.has(line));
  for (const move of view.played) {
    const before = board.boxes.map(complete);
    drawn.add(move);
    again = false;
    board.boxes.forEach((box, i) => { if (!before[i] && complete(box)) { owners[i] = mover; again = true; } });
    if (!again) mover = mover === "A" ? "B" : "A";
  }
  return { owners, again };
}

const DOTS_COLOURS = { A: ["#2f62c9", "#cddcf7"], B: ["#c4501f", "#f7d6c6"] };

function drawDots(board, view) {
  const card = isCard(view), gap = 64, margin = 30, head = card ? 0 : 34;
  // At least wide enough for the score and the status line; a small board is centred.
  const width = Math.max(2 * margin + board.width * gap, card ? 0 : 320);
  const height = head + 2 * margin + board.height * gap + (card ? 0 : 18);
  const left = (width - board.width * gap) / 2;
  const svg = svgRoot(width, height);
  const at = ([row, column]) => [left + column * gap, head + margin + row * gap];
  const { owners, again } = dotsReplay(board, view);
  // The score, the side to move ringed.
  if (!card) ["A", "B"].forEach((side, k) => {
    const x = width / 2 + (k === 0 ? -64 : 64), mine = side === board.to_move && !board.over;
    svg.appendChild(el("rect", { x: x - 56, y: 4, width: 112, height: 26, rx: 13, fill: DOTS_COLOURS[side][1],
                                 stroke: mine ? "#0a58ca" : DOTS_COLOURS[side][0], "stroke-width": mine ? 3 : 1 }));
    text(svg, x, 22, `${side}: ${board.scores[side]}${mine ? " ◀" : ""}`,
         { "font-size": 15, "font-weight": "bold", fill: DOTS_COLOURS[side][0], "data-score": side });
  });
  board.boxes.forEach((box, i) => {
    if (!box.complete) return;
    const [x, y] = at([box.row, box.column]), owner = owners[i];
    svg.appendChild(el("rect", { x: x + 4, y: y + 4, width: gap - 8, height: gap - 8,
                                 fill: owner ? DOTS_COLOURS[owner][1] : "#e2e2e2", "data-box": i,
                                 "data-owner": owner ?? "" }));
    text(svg, x + gap / 2, y + gap / 2 + 10, owner ?? "", { "font-size": 28, "font-weight": "bold",
                                                            fill: owner ? DOTS_COLOURS[owner][0] : "#999" });
  });
  for (let c = 0; c <= board.width; c++) text(svg, left + c * gap, head + 14, "abcdefg"[c], { "font-size": 12, fill: "#666" });
  for (let r = 0; r <= board.height; r++) text(svg, left - 19, head + margin + r * gap + 4, String(r + 1), { "font-size": 12, fill: "#666" });
  for (const line of board.lines) {
    const [x1, y1] = at(line.from), [x2, y2] = at(line.to);
    if (line.drawn) {
      svg.appendChild(el("line", { x1, y1, x2, y2, stroke: "#222", "stroke-width": 6, "stroke-linecap": "round",
                                   "data-line": line.move, "data-drawn": "1" }));
      continue;
    }
    const row = view.byMove.get(line.move);
    // A free line is a thin rectangle (a <line> has no area to click in a test), inside a
    // wide invisible band that takes the clicks a thin line would miss.
    const across = x1 === x2, length = Math.abs(x2 - x1) + Math.abs(y2 - y1) - 14, thick = row ? 9 : 4;
    const box = (t) => across ? { x: x1 - t / 2, y: Math.min(y1, y2) + 7, width: t, height: length }
      : { x: Math.min(x1, x2) + 7, y: y1 - t / 2, width: length, height: t };
    const band = el("rect", { ...box(26), fill: "transparent" });
    if (row) { band.style.cursor = "pointer"; band.addEventListener("click", () => view.onMove(row.move)); }
    svg.appendChild(band);
    const free = el("rect", { ...box(thick), rx: thick / 2, fill: fillFor(row, view) ?? "#aab2bf",
                              "data-line": line.move });
    svg.appendChild(playable(free, row, view));
  }
  for (let r = 0; r <= board.height; r++)
    for (let c = 0; c <= board.width; c++) {
      const [cx, cy] = at([r, c]);
      svg.appendChild(el("circle", { cx, cy, r: 6, fill: "#222", "pointer-events": "none" }));
    }
  if (card) return svg;
  const who = board.to_move;
  const status = board.over ? `Game over: A ${board.scores.A}, B ${board.scores.B}`
    : again ? `${who} completed a box: ${who} moves again` : `Player ${who} to move: draw a line`;
  text(svg, width / 2, height - 8, status, { "font-size": 14, "font-weight": again ? "bold" : "normal",
                                              fill: again ? "#0b3d91" : "#222", class: "dots-status",
                                              "data-again": again ? "1" : "0" });
  return svg;
}

const HEX_COLOURS = { X: ["#d1372b", "#f3c4bf"], O: ["#2459c9", "#c3d3f3"] };

// Hex on the n x n rhombus, HexWiki's way: a1 at the top left, each row half a cell right
// of the one above; Red (X) joins the top and bottom edges, Blue (O) the left and right.
function drawHex(board, view) {
  const card = isCard(view), n = board.size, radius = 26, w = Math.sqrt(3) * radius, margin = 30, head = card ? 0 : 40;
  const width = 2 * margin + (n + (n - 1) / 2) * w, height = head + 2 * margin + (1.5 * (n - 1) + 2) * radius;
  const svg = svgRoot(Math.ceil(width), Math.ceil(height));
  const centre = (c, r) => [margin + w / 2 + (c + r / 2) * w, head + margin + radius + 1.5 * r * radius];
  const corner = (cx, cy, k) => {  // the corners clockwise from the top
    const angle = Math.PI / 180 * (60 * k - 90);
    return [cx + radius * Math.cos(angle), cy + radius * Math.sin(angle)];
  };
  const chain = new Set(board.chain.map(([c, r]) => `${c},${r}`));
  const edges = [];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const [cx, cy] = centre(c, r), mark = board.rows[r][c], name = `${"abcdefghijk"[c]}${r + 1}`;
      const points = [0, 1, 2, 3, 4, 5].map((k) => corner(cx, cy, k).join(",")).join(" ");
      const row = mark === "." ? view.byMove.get(name) : undefined;
      const cell = el("polygon", { points, fill: "#f4efe2", stroke: "#8c8272", "stroke-width": 1.2, "data-cell": name });
      svg.appendChild(playable(cell, row, view));
      // The move's value as a smaller hexagon inside the cell: a filled cell in loss red
      // would read as Red's edge, and a disc as a stone.
      const value = fillFor(row, view);
      if (value) {
        const inner = [0, 1, 2, 3, 4, 5].map((k) => corner(0, 0, k).map((v) => v * 0.68))
          .map(([dx, dy]) => `${cx + dx},${cy + dy}`).join(" ");
        svg.appendChild(el("polygon", { points: inner, fill: value, "pointer-events": "none", class: "hex-value" }));
      }
      if (mark !== ".") {
        svg.appendChild(el("circle", { cx, cy, r: radius * 0.62, fill: HEX_COLOURS[mark][0], "pointer-events": "none",
                                       stroke: chain.has(`${c},${r}`) ? "#ffd23f" : "#222",
                                       "stroke-width": chain.has(`${c},${r}`) ? 4 : 1.5, "data-stone": mark }));
      } else {
        const plies = pliesLabel(row, view);
        if (plies) text(svg, cx, cy + 5, plies, { "font-size": 14, fill: textColour(row, false, 1), class: "plies" });
      }
      // The board's own edges, in the colour of the player who joins them.
      const side = (a, b, owner) => edges.push([corner(cx, cy, a), corner(cx, cy, b), owner]);
      if (r === 0) { side(5, 0, "X"); side(0, 1, "X"); }
      if (r === n - 1) { side(2, 3, "X"); side(3, 4, "X"); }
      if (c === 0) { side(4, 5, "O"); if (r < n - 1) side(3, 4, "O"); }
      if (c === n - 1) { side(1, 2, "O"); if (r > 0) side(0, 1, "O"); }
    }
  }
  for (const [[x1, y1], [x2, y2], owner] of edges)
    svg.appendChild(el("line", { x1, y1, x2, y2, stroke: HEX_COLOURS[owner][0], "stroke-width": 6,
                                 "stroke-linecap": "round", "pointer-events": "none", "data-edge": owner }));
  for (let c = 0; c < n; c++) {
    const [cx, cy] = centre(c, 0);
    text(svg, cx, cy - radius - 9, "abcdefghijk"[c], { "font-size": 13, fill: "#555" });
  }
  for (let r = 0; r < n; r++) {
    const [cx, cy] = centre(0, r);
    text(svg, cx - w / 2 - 12, cy + 5, String(r + 1), { "font-size": 13, fill: "#555" });
  }
  if (card) return svg;
  if (board.winner === "X") text(svg, width / 2, 22, "Red (X) has joined top and bottom", { "font-size": 14, fill: HEX_COLOURS.X[0], "font-weight": "bold", class: "hex-status" });
  else if (board.winner === "O") text(svg, width / 2, 22, "Blue (O) has joined left and right", { "font-size": 14, fill: HEX_COLOURS.O[0], "font-weight": "bold", class: "hex-status" });
  else {
    text(svg, width / 2, 15, "Red X joins top and bottom", { "font-size": 13, fill: HEX_COLOURS.X[0], class: "hex-status" });
    text(svg, width / 2, 32, "Blue O joins left and right", { "font-size": 13, fill: HEX_COLOURS.O[0] });
  }
  return svg;
}

// Othello: discs on a green board, each legal move a disc-sized mark in its value's colour
// with the disc margin it leads to; a pass (when it is the only move) is a button below.
function drawOthello(board, view) {
  const card = isCard(view), n = board.size, cell = n > 8 ? 40 : 48, margin = 22;
  const head = card ? 0 : 36, foot = card ? 0 : board.must_pass ? 74 : 28;
  const width = 2 * margin + n * cell, height = head + margin + n * cell + foot;
  const svg = svgRoot(width, height);
  const names = { b: "Black", w: "White" }, mover = board.to_move;
  if (!card) [["b", "B", "#111", "#fff"], ["w", "W", "#f7f7f7", "#111"]].forEach(([side, mark, fill, ink], k) => {
    const x = width / 2 + (k === 0 ? -70 : 70), mine = side === mover && !board.over;
    svg.appendChild(el("circle", { cx: x - 40, cy: 18, r: 11, fill, stroke: "#333", "stroke-width": 1.5 }));
    text(svg, x + 8, 24, `${names[side]} ${board.counts[mark]}`, { "font-size": 16, "font-weight": mine ? "bold" : "normal",
                                                                   fill: "#222", "data-count": mark });
    if (mine) svg.appendChild(el("rect", { x: x - 66, y: 2, width: 134, height: 32, rx: 16, fill: "none",
                                           stroke: "#0a58ca", "stroke-width": 3 }));
  });
  svg.appendChild(el("rect", { x: margin, y: head + margin, width: n * cell, height: n * cell, fill: "#2f8a56",
                               stroke: "#174d2e", "stroke-width": 2 }));
  for (let i = 0; i < n; i++) {
    text(svg, margin + i * cell + cell / 2, head + margin - 6, "abcdefghij"[i], { "font-size": 12, fill: "#555" });
    text(svg, margin / 2, head + margin + i * cell + cell / 2 + 4, String(i + 1), { "font-size": 12, fill: "#555" });
  }
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const x = margin + c * cell, y = head + margin + r * cell, mark = board.rows[r][c];
      const name = `${"abcdefghij"[c]}${r + 1}`, row = mark === "." ? view.byMove.get(name) : undefined;
      const square = el("rect", { x, y, width: cell, height: cell, fill: "transparent", stroke: "#1f6b40",
                                  "data-square": name });
      svg.appendChild(square);
      if (mark !== ".") {
        svg.appendChild(el("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.4, "pointer-events": "none",
                                       fill: mark === "B" ? "#111" : "#f7f7f7", stroke: mark === "B" ? "#000" : "#777",
                                       "stroke-width": 1.5, "data-disc": mark }));
      } else if (row) {
        const target = el("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.34,
                                      fill: fillFor(row, view) ?? "rgba(255, 255, 255, 0.35)",
                                      stroke: "#0d2f1b", "stroke-width": 1.5, "data-cell": name });
        svg.appendChild(playable(target, row, view));
        square.addEventListener("click", () => view.onMove(row.move));
        square.style.cursor = "pointer";
        // The pale colour says "estimate" here: the mark has room for the number only.
        const label = scoreLabel(row, view).replace("~", "");
        if (label) text(svg, x + cell / 2, y + cell / 2 + 4, label, { "font-size": 12, "font-weight": "bold",
                                                                      fill: textColour(row, true, view.scale) });
      }
    }
  }
  if (card) return svg;
  const below = head + margin + n * cell;
  const passRow = view.byMove.get("pass");
  const other = names[mover === "b" ? "w" : "b"];
  const status = board.over ? `Game over: Black ${board.counts.B}, White ${board.counts.W}`
    : board.must_pass ? `${names[mover]} has no legal move and must pass:`
    : `${names[mover]} to move${board.passes ? ` (${other} had no move and passed)` : ""}`;
  text(svg, width / 2, below + 19, status, { "font-size": 14, fill: "#222", class: "othello-status" });
  if (board.must_pass) {
    const button = el("rect", { x: width / 2 - 60, y: below + 28, width: 120, height: 38, rx: 8,
                                fill: fillFor(passRow, view) ?? "#e8e8e8", stroke: "#333", "stroke-width": 1.5,
                                "data-pass": "1" });
    svg.appendChild(playable(button, passRow, view));
    const label = scoreLabel(passRow, view);
    text(svg, width / 2, below + 53, `pass${label ? " " + label : ""}`,
         { "font-size": 16, "font-weight": "bold", fill: passRow && !view.hidden ? textColour(passRow, true, view.scale) : "#111" });
  }
  return svg;
}

function drawText(board) {
  const pre = document.createElement("pre");
  pre.className = "render";
  pre.textContent = board.text;
  return pre;
}

const DRAWERS = { tictactoe: drawTicTacToe, connect4: drawConnectFour, heaps: drawHeaps, row: drawRow,
                  claim: drawClaim, dodgem: drawDodgem, morris: drawMorris, chopsticks: drawChopsticks,
                  chess: drawChess, kalah: drawKalah, dots: drawDots, hex: drawHex, othello: drawOthello,
                  text: drawText };

// Draw `payload`'s board into `container`; `onMove(notation)` plays a clicked move.
export function drawBoard(container, payload, { hidden, onMove }) {
  const byMove = new Map(payload.moves.map((row) => [row.move, row]));
  const view = { byMove, hidden, onMove, scoreGame: payload.score_game, scale: scoreScale(payload.moves),
                 line: hidden ? [] : payload.line ?? [], position: `${payload.game}|${payload.position}`,
                 start: payload.start, played: payload.moves_played ?? [] };
  const draw = DRAWERS[payload.board.kind] ?? drawText;
  container.replaceChildren(draw(payload.board, view));
}

// Every legal move as a button, coloured by its value, best first.
export function drawMoveButtons(container, payload, { hidden, onMove, hinted }) {
  const scale = scoreScale(payload.moves);
  container.replaceChildren(...payload.moves.map((row) => {
    const button = document.createElement("button");
    const principal = !hidden && payload.line?.[0] === row.move;
    button.className = "move" + (hinted.has(row.move) ? " hint" : "") + (principal ? " pv" : "");
    button.dataset.move = row.move;
    button.dataset.class = valueClass(row, payload.score_game);
    button.dataset.remoteness = row.remoteness ?? "";
    const gain = row.gain !== undefined ? ` (takes ${row.gain})` : "";
    button.textContent = hidden ? `${row.move}${gain}` : `${row.move}${gain}: ${describeRow(row, payload.score_game)}`;
    if (!hidden) {
      button.style.background = moveColour(row, payload.score_game, scale);
      button.style.color = textColour(row, payload.score_game, scale);
    }
    button.addEventListener("click", () => onMove(row.move));
    return button;
  }));
}
