// The grid kind (perfectplay/diagram.py's Grid): places in rows and columns, drawn in one of
// a few looks (squares, a frame with holes, felt, a checkered board, points joined by lines),
// with the pieces the board describes. Every click plays the notation the board gives a place
// (a one-click move, a two-click step, a column's drop, the pass); nothing here knows a game.

import { el } from "./svg.js";
import { captionWidth, drawCounts, drawStatus, fillFor, isCard, playable, rowOf, statusHeight, svgRoot, text }
  from "./drawing.js";
import { wireTwoClick } from "./moving_boards.js";
import { describeRow, formatEstimate, textColour } from "./values.js";

const POINT_GAP = 110, POINT_MARGIN = 40, STRIP = 44, BADGE = 44;

function cellSize(board) {
  const small = board.columns <= 3 && board.rows <= 3;
  return { frame: 56, felt: board.columns > 8 ? 40 : 48, checkered: 52, points: POINT_GAP }[board.look]
    ?? (!small ? 64 : board.off ? 80 : 100);
}

// Where everything goes: the size of a place, the board's top left, the whole picture's size.
function geometry(board, view) {
  const cell = cellSize(board), points = board.look === "points";
  const head = drawnCounts(board, view) ? 36 : 0;
  const margin = (board.row_names.length ? 24 : 0) + (points ? POINT_MARGIN : 0);
  const top = head + (board.drops.length ? BADGE : 0) + (board.off === "top" ? STRIP : 0) + (points ? POINT_MARGIN : 0);
  const across = points ? (board.columns - 1) * cell : board.columns * cell;
  const down = points ? (board.rows - 1) * cell : board.rows * cell;
  const foot = (board.column_names.length ? 22 : 0) + (points ? POINT_MARGIN : 0)
    + (board.passing && !isCard(view) ? 46 : 0);
  const natural = margin + across + (board.off === "right" ? STRIP : 0) + (points ? POINT_MARGIN : 0);
  // A small board (Othello 4x4) is centred in a picture wide enough for its tallies and status.
  const width = Math.max(natural, captionWidth(board, view)), pad = (width - natural) / 2, left = margin + pad;
  return { cell, points, head, pad, left, top, across, down, width, height: top + down + foot + statusHeight(board, view),
           flipped: Boolean(view.flipped) };
}

const drawnCounts = (board, view) => !isCard(view) && board.counts.length > 0;

// A place's centre.
// A board turned round (g.flipped) puts the last row at the top and the last column at the left.
function centreOf(index, board, g) {
  let r = Math.floor(index / board.columns), c = index % board.columns;
  if (g.flipped) [r, c] = [board.rows - 1 - r, board.columns - 1 - c];
  const offset = g.points ? 0 : g.cell / 2;
  return [g.left + c * g.cell + offset, g.top + r * g.cell + offset];
}

function placeShape(cell, index, board, g) {
  const [cx, cy] = centreOf(index, board, g), piece = board.pieces[cell.mark];
  const filled = piece?.shape === "fill";
  const attrs = { "data-piece": cell.mark };
  if (g.points) {
    return el("circle", { cx, cy, r: cell.mark ? 27 : 16, fill: filled ? piece.colour : "#d9cfb8", "data-point": cell.name,
                          "data-stroke": cell.mark ? "#222" : "#8a7a5a", ...attrs });
  }
  const x = cx - g.cell / 2, y = cy - g.cell / 2;
  if (board.look === "checkered") {
    const light = (Math.floor(index / board.columns) + index % board.columns) % 2 === 0;
    return el("rect", { x, y, width: g.cell, height: g.cell, fill: light ? "#f0d9b5" : "#b58863",
                        "data-square": cell.name, "data-stroke": "none", ...attrs });
  }
  return el("rect", { x: x + 2, y: y + 2, width: g.cell - 4, height: g.cell - 4, rx: filled ? 14 : 8,
                      fill: filled ? piece.colour : "#f4f4f4", "data-stroke": "#555", stroke: "#555",
                      "data-square": cell.name, ...attrs });
}

// The piece on a place, drawn over it (clicks go through to the place).
function drawPiece(svg, cell, index, board, g) {
  const piece = board.pieces[cell.mark];
  if (!piece) return;
  const [cx, cy] = centreOf(index, board, g), size = g.points ? 54 : g.cell;
  const through = { "pointer-events": "none" };
  if (piece.shape === "letter")
    text(svg, cx, cy + size * 0.22, piece.text, { "font-size": size * 0.64, "font-weight": "bold", fill: piece.colour });
  else if (piece.shape === "glyph")
    text(svg, cx, cy + size * 0.29, piece.text, { "font-size": size * 0.77, fill: piece.colour });
  else if (piece.shape === "fill")
    text(svg, cx, cy + size * 0.11, piece.text, { "font-size": g.points ? 20 : size * 0.33, "font-weight": "bold",
                                                 fill: "#fff" });
  else svg.appendChild(el("circle", { cx, cy, r: board.look === "frame" ? g.cell / 2 - 6 : g.cell * 0.4, fill: piece.colour,
                                      stroke: piece.outline, "stroke-width": 1.5, "data-disc": cell.mark, ...through }));
}

function drawHighlights(svg, board, g, why) {
  const index = new Map(board.cells.map((cell, i) => [cell.name, i]));
  for (const mark of board.highlights) {
    if (mark.why !== why || !index.has(mark.place)) continue;
    const i = index.get(mark.place), [cx, cy] = centreOf(i, board, g), through = { "pointer-events": "none" };
    const attrs = { class: `highlight-${why}`, "data-highlight": mark.place, ...through };
    if (why === "last" && !g.points && board.look !== "frame" && board.look !== "felt")
      svg.appendChild(el("rect", { x: cx - g.cell / 2 + 2, y: cy - g.cell / 2 + 2, width: g.cell - 4, height: g.cell - 4,
                                   fill: "rgba(255, 213, 0, 0.35)", ...attrs }));
    else if (why === "last")
      svg.appendChild(el("circle", { cx, cy, r: 5, fill: "rgba(255, 255, 255, 0.85)", stroke: "#333", ...attrs }));
    else
      svg.appendChild(el("circle", { cx, cy, r: (g.points ? 54 : g.cell) / 2 - 3, fill: "none",
                                     stroke: why === "check" ? "#d00" : "#ffb300", "stroke-width": why === "check" ? 3 : 5,
                                     ...attrs }));
  }
}

function drawNames(svg, board, g) {
  const bottom = g.top + g.down + (g.points ? 0 : 0);
  board.column_names.forEach((name, c) => {
    const [cx] = centreOf(c, board, g);
    text(svg, cx, bottom + 16, name, { "font-size": 12, fill: "#555" });
  });
  board.row_names.forEach((name, r) => {
    const [, cy] = centreOf(r * board.columns, board, g);
    text(svg, g.pad + 12, cy + 4, name, { "font-size": 12, fill: "#555" });
  });
}

// The strip beyond an edge where pieces leave the board: the place "off".
function drawOff(svg, board, g, spots) {
  if (!board.off) return;
  const right = board.off === "right";
  const box = right ? { x: g.left + g.across + 4, y: g.top, width: STRIP - 8, height: g.down }
    : { x: g.left, y: g.top - STRIP + 4, width: g.across, height: STRIP - 8 };
  const off = el("rect", { ...box, rx: 6, fill: "#e8e8e8", "data-square": "off", "data-stroke": "#555" });
  svg.appendChild(off);
  text(svg, box.x + box.width / 2, box.y + box.height / 2 + 5, "off", { "font-size": 13 });
  spots.set("off", off);
}

// Dropping games: a click anywhere in a column plays its drop; the value sits above it.
function drawDrops(svg, board, g, view) {
  board.drops.forEach((move, c) => {
    const row = rowOf(move, view), x = g.left + c * g.cell, badgeY = g.top - BADGE / 2;
    const column = el("rect", { x, y: g.top - BADGE, width: g.cell, height: g.down + BADGE, fill: "transparent",
                                "data-column": c });
    if (row) {
      const label = view.hidden ? "" : row.score !== undefined ? (row.score > 0 ? "+" : "") + row.score
        : row.value === null ? "…" : row.exact ? describeRow(row, false).replace(" in ", " ")
        : `~${formatEstimate(row.estimate, row.seen)}`.replace("~~", "~");
      svg.appendChild(el("circle", { cx: x + g.cell / 2, cy: badgeY, r: 18, fill: fillFor(row, view) ?? "#eee",
                                     stroke: "#333", "pointer-events": "none", class: "column-badge", "data-badge": row.move }));
      text(svg, x + g.cell / 2, badgeY + 5, label, { "font-size": 13, class: "column-score",
                                                      fill: view.hidden ? "#111" : textColour(row, false, 1) });
    }
    svg.appendChild(playable(column, row, view));
  });
}

// A move with no place (a pass): a button under the board.
function drawPassing(svg, board, g, view) {
  if (!board.passing || isCard(view)) return;
  const row = rowOf(board.passing, view), y = g.top + g.down + (board.column_names.length ? 22 : 0) + 4;
  const button = el("rect", { x: g.width / 2 - 60, y, width: 120, height: 38, rx: 8, fill: fillFor(row, view) ?? "#e8e8e8",
                              stroke: "#333", "stroke-width": 1.5, "data-pass": "1" });
  svg.appendChild(playable(button, row, view));
  const label = view.scoreGame ? (row && !view.hidden && typeof row.value === "number" ? ` ${row.value > 0 ? "+" : ""}${row.value}` : "") : "";
  text(svg, g.width / 2, y + 25, `${board.passing}${label}`, { "font-size": 16, "font-weight": "bold",
       fill: row && !view.hidden ? textColour(row, view.scoreGame, view.scale) : "#111" });
}

// The engine's best move as an arrow, where it is a step of this board.
function drawArrow(svg, board, g, view) {
  const step = board.steps.find((s) => s.move === view.line?.[0]);
  if (!step || view.hidden) return;
  const index = new Map(board.cells.map((cell, i) => [cell.name, i]));
  if (!index.has(step.source) || !index.has(step.target)) return;
  const [x1, y1] = centreOf(index.get(step.source), board, g), [x2, y2] = centreOf(index.get(step.target), board, g);
  const colour = "rgba(10, 88, 202, 0.75)", angle = Math.atan2(y2 - y1, x2 - x1), head = 14;
  const [bx, by] = [x2 - Math.cos(angle) * head, y2 - Math.sin(angle) * head];
  svg.appendChild(el("line", { x1, y1, x2: bx, y2: by, stroke: colour, "stroke-width": 8, "stroke-linecap": "round",
                               "pointer-events": "none", class: "pv-arrow", "data-pv": step.move }));
  const side = (sign) => `${bx + Math.cos(angle + sign * Math.PI / 2) * 10},${by + Math.sin(angle + sign * Math.PI / 2) * 10}`;
  svg.appendChild(el("polygon", { points: `${x2},${y2} ${side(1)} ${side(-1)}`, fill: colour, "pointer-events": "none" }));
}

function drawBackground(svg, board, g) {
  if (board.look === "frame")
    svg.appendChild(el("rect", { x: g.left, y: g.top, width: g.across, height: g.down, rx: 10, fill: "#2957a4" }));
  if (board.look === "felt")
    svg.appendChild(el("rect", { x: g.left, y: g.top, width: g.across, height: g.down, fill: "#2f8a56",
                                 stroke: "#174d2e", "stroke-width": 2 }));
  const index = (i) => centreOf(i, board, g);
  for (const [a, b] of board.lines) {
    const [x1, y1] = index(a), [x2, y2] = index(b);
    svg.appendChild(el("line", { x1, y1, x2, y2, stroke: "#6b5a3a", "stroke-width": 4 }));
  }
}

// An empty hole of a frame, or an empty felt square (its target a disc-sized mark).
function drawOpening(svg, cell, index, board, g, spots, view) {
  const [cx, cy] = centreOf(index, board, g);
  if (board.look === "frame") {
    svg.appendChild(el("circle", { cx, cy, r: g.cell / 2 - 6, fill: "#fff", "pointer-events": "none" }));
    return;
  }
  const square = el("rect", { x: cx - g.cell / 2, y: cy - g.cell / 2, width: g.cell, height: g.cell, fill: "transparent",
                              stroke: "#1f6b40", "data-square": cell.name });
  svg.appendChild(square);
  if (cell.mark || !rowOf(cell.move, view)) return;
  const target = el("circle", { cx, cy, r: g.cell * 0.34, fill: "rgba(255, 255, 255, 0.35)", stroke: "#0d2f1b",
                                "stroke-width": 1.5, "data-cell": cell.name, "data-stroke": "#0d2f1b" });
  svg.appendChild(target);
  spots.set(cell.name, target);
  square.addEventListener("click", () => target.dispatchEvent(new MouseEvent("click")));
  square.style.cursor = "pointer";
}

export function drawGrid(board, view) {
  const g = geometry(board, view);
  const svg = svgRoot(g.width, g.height), spots = new Map(), numbers = new Map(), singles = new Map();
  drawCounts(svg, board, g.width, view);
  drawBackground(svg, board, g);
  drawOff(svg, board, g, spots);
  const opening = board.look === "frame" || board.look === "felt";
  board.cells.forEach((cell, i) => {
    if (cell.move) singles.set(cell.move, cell.name);
    if (opening) drawOpening(svg, cell, i, board, g, spots, view);
    else {
      const shape = placeShape(cell, i, board, g);
      svg.appendChild(shape);
      spots.set(cell.name, shape);
    }
    if (board.look === "checkered" || board.look === "squares") drawHighlights(svg, { ...board, highlights: board.highlights.filter((h) => h.place === cell.name) }, g, "last");
    drawPiece(svg, cell, i, board, g);
    if (!cell.mark) {
      const [cx, cy] = centreOf(i, board, g);
      numbers.set(cell.name, text(svg, cx, cy + (g.points ? 5 : 8), "", { "font-size": g.points ? 14 : board.look === "felt" ? 12 : 22,
                                                                       "font-weight": g.points || board.look === "felt" ? "bold" : "normal",
                                                                       fill: "#111", class: "plies" }));
    }
    if (cell.label) {
      const [cx, cy] = centreOf(i, board, g);
      text(svg, cx + 30, cy - 22, cell.label, { "font-size": 11, fill: "#777" });
    }
  });
  if (board.look !== "checkered" && board.look !== "squares") drawHighlights(svg, board, g, "last");
  drawHighlights(svg, board, g, "win");
  drawHighlights(svg, board, g, "check");
  drawNames(svg, board, g);
  if (board.drops.length) drawDrops(svg, board, g, view);
  wireTwoClick(spots, view, board.steps, singles, numbers);
  drawArrow(svg, board, g, view);
  drawPassing(svg, board, g, view);
  drawStatus(svg, board, g.width, g.height - statusHeight(board, view) + 14, view);
  return svg;
}
