// Boards whose moves take two clicks (a man or car, then where it goes): Dodgem, Three Men's
// Morris and Tapatan, Chopsticks' taps, chess. A point the mover can play from is ringed in
// the colour of its best move's value; click it, and each point it can reach is filled by that move's
// value and carries data-move. A move that needs one click (a Morris placement) is a target
// from the start. Moves the board cannot show (Chopsticks' splits, chess under-promotions)
// are played with the move buttons under the board.

import { el } from "./svg.js";
import { describeRow, moveColour, valueClass } from "./values.js";

const SELECTED = "#0a58ca";
// The man or piece picked, kept while the same position is redrawn (each depth the engine
// completes redraws the board): a pick survives the redraw.
const picked = { position: null, id: null };

// `spots`: Map id -> SVG shape. `split(notation)` -> {from, to} (from undefined for a one-click
// move), or null for a move the board does not show. Rows come best first, so the first row
// seen for a source is its best.
// `numbers` (optional): Map id -> SVG text, filled with a target's plies to the end.
function wireTwoClick(spots, view, split, numbers = new Map()) {
  const bestFrom = new Map(), byPair = new Map(), single = new Map();
  for (const row of view.byMove.values()) {
    const parts = split(row.move);
    if (!parts) continue;
    if (parts.from === undefined) { if (!single.has(parts.to)) single.set(parts.to, row); continue; }
    if (!bestFrom.has(parts.from)) bestFrom.set(parts.from, row);
    const key = `${parts.from}>${parts.to}`;
    // A chess promotion by click makes a queen: it replaces any other piece's row.
    if (!byPair.has(key) || /q$/.test(row.move)) byPair.set(key, row);
  }
  let selected = picked.position === view.position && bestFrom.has(picked.id) ? picked.id : null;
  // A pick carried over from the board this one replaced: a click on the same man that
  // reaches this board (the redraw came between the press and the release) keeps it picked.
  let carried = selected !== null;
  const paint = () => {
    [picked.position, picked.id] = [view.position, selected];
    for (const [id, shape] of spots) {
      const row = selected === null ? single.get(id) : byPair.get(`${selected}>${id}`);
      const source = bestFrom.get(id);
      mark(shape, row, view);
      const number = numbers.get(id);
      if (number) number.textContent = row && !view.hidden && row.remoteness !== null && row.remoteness !== undefined
        ? String(row.remoteness) : "";
      let stroke = shape.getAttribute("data-stroke") ?? "#555", width = 1.5;
      if (!row && source) {
        // A man keeps its own colour (whose it is); the value of its best move rings it.
        shape.setAttribute("data-from", id);
        shape.setAttribute("data-class", valueClass(source, view.scoreGame));
        shape.setAttribute("class", "move-target");
        if (!view.hidden) [stroke, width] = [moveColour(source, view.scoreGame, view.scale), 6];
      }
      if (id === selected) [stroke, width] = [SELECTED, 6];
      shape.setAttribute("stroke", stroke);
      shape.setAttribute("stroke-width", width);
    }
  };
  for (const [id, shape] of spots) {
    shape.setAttribute("data-base-fill", shape.getAttribute("fill"));
    shape.addEventListener("click", () => {
      const row = selected === null ? single.get(id) : byPair.get(`${selected}>${id}`);
      if (row) { view.onMove(row.move); return; }
      if (!(carried && id === selected)) selected = bestFrom.has(id) && selected !== id ? id : null;
      carried = false;
      paint();
    });
  }
  paint();
}

// Make `shape` the target of `row` (or no target, in its own colour, when row is undefined).
function mark(shape, row, view) {
  for (const name of ["data-move", "data-from", "data-class", "data-remoteness", "class"]) shape.removeAttribute(name);
  shape.querySelector("title")?.remove();
  shape.setAttribute("fill", shape.getAttribute("data-base-fill"));
  if (!row) return;
  shape.setAttribute("data-move", row.move);
  shape.setAttribute("data-class", valueClass(row, view.scoreGame));
  shape.setAttribute("data-remoteness", row.remoteness ?? "");
  shape.setAttribute("class", "move-target");
  shape.appendChild(el("title", {}, `${row.move}: ${view.hidden ? "?" : describeRow(row, view.scoreGame)}`));
  if (!view.hidden) shape.setAttribute("fill", moveColour(row, view.scoreGame, view.scale));
}

function root(width, height) {
  return el("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img", id: "board-svg" });
}

function label(svg, x, y, text, attrs = {}) {
  return svg.appendChild(el("text", { x, y, "text-anchor": "middle", "pointer-events": "none", ...attrs }, text));
}

// Dodgem: squares a1.. from the bottom left; Blue drives right, Red up, and a car on the far
// edge drives off into the strip beyond it (the "off" target).
export function drawDodgem(board, view) {
  const n = board.size, cell = n > 3 ? 64 : 80, margin = 26, strip = 44;
  const width = margin + n * cell + strip, height = strip + n * cell + margin;
  const svg = root(width, height), spots = new Map();
  const blueMoves = board.to_move === "B";
  const off = el("rect", blueMoves ? { x: margin + n * cell + 4, y: strip, width: strip - 8, height: n * cell, rx: 6 }
    : { x: margin, y: 4, width: n * cell, height: strip - 8, rx: 6 });
  off.setAttribute("fill", "#e8e8e8");
  off.setAttribute("data-square", "off");
  svg.appendChild(off);
  label(svg, blueMoves ? margin + n * cell + strip / 2 : margin + n * cell / 2,
        blueMoves ? strip + n * cell / 2 : strip / 2 + 4, "off", { "font-size": 13 });
  spots.set("off", off);
  board.rows.forEach((row, r) => {
    [...row].forEach((mark, f) => {
      const name = "abcde"[f] + String(n - r), x = margin + f * cell, y = strip + r * cell;
      const fill = mark === "B" ? "#2f6fd6" : mark === "R" ? "#d6452f" : "#f7f4ea";
      const square = el("rect", { x: x + 2, y: y + 2, width: cell - 4, height: cell - 4, rx: mark === "." ? 2 : 14,
                                  fill, "data-square": name, "data-car": mark === "." ? "" : mark });
      svg.appendChild(square);
      spots.set(name, square);
      if (mark !== ".") label(svg, x + cell / 2, y + cell / 2 + 9, mark === "B" ? "▶" : "▲",
                              { "font-size": 26, fill: "#fff" });
    });
    label(svg, margin / 2, strip + r * cell + cell / 2 + 5, String(n - r), { "font-size": 13 });
  });
  for (let f = 0; f < n; f++) label(svg, margin + f * cell + cell / 2, height - 8, "abcde"[f], { "font-size": 13 });
  const caption = `off the board: Blue ${board.off.B}, Red ${board.off.R}`;
  svg.appendChild(el("title", {}, caption));
  wireTwoClick(spots, view, (move) => {
    const [from, to] = move.split("-");
    return to === undefined ? null : { from, to };
  });
  return svg;
}

// Three Men's Morris and Tapatan: points 1-9 row by row from the top left.
export function drawMorris(board, view) {
  const gap = 110, margin = 40, size = 2 * gap + 2 * margin;
  const svg = root(size, size), spots = new Map(), numbers = new Map();
  const at = (i) => [margin + (i % 3) * gap, margin + Math.floor(i / 3) * gap];
  const lines = [[0, 2], [3, 5], [6, 8], [0, 6], [1, 7], [2, 8]];
  if (board.diagonals) lines.push([0, 8], [2, 6]);
  for (const [a, b] of lines) {
    const [x1, y1] = at(a), [x2, y2] = at(b);
    svg.appendChild(el("line", { x1, y1, x2, y2, stroke: "#6b5a3a", "stroke-width": 4 }));
  }
  [...board.cells].forEach((mark, i) => {
    const [cx, cy] = at(i);
    // X's men blue, O's orange-brown, both large and ringed; an empty point small and pale.
    const fill = mark === "X" ? "#1b4f9c" : mark === "O" ? "#c0571b" : "#d9cfb8";
    const point = el("circle", { cx, cy, r: mark === "." ? 16 : 27, fill, "data-point": i + 1,
                                 "data-man": mark === "." ? "" : mark,
                                 "data-stroke": mark === "." ? "#8a7a5a" : "#222" });
    svg.appendChild(point);
    if (mark !== ".") label(svg, cx, cy + 7, mark, { "font-size": 20, "font-weight": "bold", fill: "#fff" });
    else numbers.set(String(i + 1), label(svg, cx, cy + 5, "", { "font-size": 14, "font-weight": "bold",
                                                                  fill: "#111", class: "plies" }));
    spots.set(String(i + 1), point);
    label(svg, cx + 30, cy - 22, String(i + 1), { "font-size": 11, fill: "#777" });
  });
  wireTwoClick(spots, view, (move) => {
    const [a, b] = move.split("-");
    return b === undefined ? { to: a } : { from: a, to: b };
  }, numbers);
  return svg;
}

// Chopsticks: the mover's hands below, the opponent's above; a tap is my hand, then theirs.
export function drawChopsticks(board, view) {
  const width = 320, height = 250;
  const svg = root(width, height), spots = new Map();
  const hand = (id, fingers, x, y, who) => {
    const palm = el("rect", { x, y, width: 110, height: 80, rx: 18, fill: fingers ? "#f3d2b3" : "#ddd",
                              "data-hand": id });
    svg.appendChild(palm);
    spots.set(id, palm);
    label(svg, x + 55, y + 38, fingers ? "|".repeat(fingers) : "dead", { "font-size": fingers ? 28 : 16 });
    label(svg, x + 55, y + 66, `${who} ${id[1] === "L" ? "left" : "right"}: ${fingers}`, { "font-size": 12 });
  };
  label(svg, width / 2, 18, "opponent", { "font-size": 13, fill: "#555" });
  hand("tL", board.other[0], 30, 26, "their");
  hand("tR", board.other[1], 180, 26, "their");
  hand("mL", board.mover[0], 30, 140, "my");
  hand("mR", board.mover[1], 180, 140, "my");
  label(svg, width / 2, 240, "to move", { "font-size": 13, fill: "#555" });
  wireTwoClick(spots, view, (move) => (/^[LR][LR]$/.test(move) ? { from: `m${move[0]}`, to: `t${move[1]}` } : null));
  return svg;
}

const PIECES = { K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘", P: "♙", k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };

// Chess from White's side, drawn here (Unicode pieces): from-square, then to-square; a
// promotion by click makes a queen (the other pieces are move buttons).
export function drawChess(board, view) {
  const cell = 52, margin = 20, size = 8 * cell + margin;
  const svg = root(size, size), spots = new Map();
  [...board.squares].forEach((piece, i) => {
    const file = i % 8, rank = 7 - Math.floor(i / 8), name = "abcdefgh"[file] + String(rank + 1);
    const x = margin + file * cell, y = Math.floor(i / 8) * cell;
    const light = (file + rank) % 2 === 1;
    const square = el("rect", { x, y, width: cell, height: cell, fill: light ? "#f0d9b5" : "#b58863",
                                "data-square": name, "data-stroke": "none" });
    svg.appendChild(square);
    spots.set(name, square);
    if (board.check === 8 * rank + file) {
      svg.appendChild(el("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell / 2 - 3, fill: "none",
                                     stroke: "#d00", "stroke-width": 3, "pointer-events": "none" }));
    }
    if (piece !== ".") label(svg, x + cell / 2, y + cell / 2 + 15, PIECES[piece], { "font-size": 40, fill: "#111" });
  });
  // The engine's best line: its first move as an arrow (the reply as a thinner one).
  (view.line ?? []).slice(0, 2).forEach((move, k) => {
    const centre = (name) => [margin + ("abcdefgh".indexOf(name[0]) + 0.5) * cell, (8 - Number(name[1]) + 0.5) * cell];
    const [x1, y1] = centre(move.slice(0, 2)), [x2, y2] = centre(move.slice(2, 4));
    const colour = k === 0 ? "rgba(10, 88, 202, 0.75)" : "rgba(192, 87, 27, 0.6)";
    const angle = Math.atan2(y2 - y1, x2 - x1), head = 14;
    const [bx, by] = [x2 - Math.cos(angle) * head, y2 - Math.sin(angle) * head];
    svg.appendChild(el("line", { x1, y1, x2: bx, y2: by, stroke: colour, "stroke-width": k === 0 ? 8 : 5,
                                 "stroke-linecap": "round", "pointer-events": "none", class: "pv-arrow",
                                 "data-pv": move }));
    const side = (sign) => `${bx + Math.cos(angle + sign * Math.PI / 2) * 10},${by + Math.sin(angle + sign * Math.PI / 2) * 10}`;
    svg.appendChild(el("polygon", { points: `${x2},${y2} ${side(1)} ${side(-1)}`, fill: colour, "pointer-events": "none" }));
  });
  for (let f = 0; f < 8; f++) label(svg, margin + f * cell + cell / 2, size - 5, "abcdefgh"[f], { "font-size": 12 });
  for (let r = 0; r < 8; r++) label(svg, margin / 2, r * cell + cell / 2 + 4, String(8 - r), { "font-size": 12 });
  wireTwoClick(spots, view, (move) => ({ from: move.slice(0, 2), to: move.slice(2, 4) }));
  return svg;
}
