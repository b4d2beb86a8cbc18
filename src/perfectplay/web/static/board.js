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

function drawText(board) {
  const pre = document.createElement("pre");
  pre.className = "render";
  pre.textContent = board.text;
  return pre;
}

const DRAWERS = { tictactoe: drawTicTacToe, connect4: drawConnectFour, heaps: drawHeaps, row: drawRow,
                  claim: drawClaim, dodgem: drawDodgem, morris: drawMorris, chopsticks: drawChopsticks,
                  chess: drawChess, text: drawText };

// Draw `payload`'s board into `container`; `onMove(notation)` plays a clicked move.
export function drawBoard(container, payload, { hidden, onMove }) {
  const byMove = new Map(payload.moves.map((row) => [row.move, row]));
  const view = { byMove, hidden, onMove, scoreGame: payload.score_game, scale: scoreScale(payload.moves),
                 line: hidden ? [] : payload.line ?? [], position: `${payload.game}|${payload.position}` };
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
