// SVG boards, one drawing per kind the server describes (perfectplay/diagram.py): grid,
// pits, hex, lines, heaps, row, hands and text. Every element a click can play carries
// data-move (the move's notation, as the board gives it), data-class
// (win/draw/loss/estimate/unknown) and data-remoteness, and is filled by its value.

import { el } from "./svg.js";
import { fillFor, playable, rowOf, svgRoot } from "./drawing.js";
import { drawGrid } from "./grid.js";
import { drawHands } from "./moving_boards.js";
import { drawHex, drawLines, drawPits } from "./more_boards.js";
import { describeRow, moveColour, scoreScale, textColour, valueClass } from "./values.js";

// The objects of a heap drawn (diagram.DRAWN_OBJECTS); more are written as a number.
const DRAWN = 40;
const HEAP_COLOURS = { sticks: "#8a6d3b", matches: "#d9a441", tokens: "#8a6d3b" };

// Heaps of sticks, matches or tokens: a click on one plays the move the heap gives it.
function drawHeaps(board, view) {
  const unit = board.style === "tokens" ? 22 : 16;
  const longest = Math.min(Math.max(1, ...board.heaps.map((heap) => heap.size)), DRAWN);
  const width = 60 + longest * unit, rowHeight = 46;
  const svg = svgRoot(width, Math.max(rowHeight * board.heaps.length, 40));
  board.heaps.forEach((heap, h) => {
    const y = h * rowHeight;
    const label = board.numbered && board.heaps.length > 1 ? `${h + 1}` : "";
    svg.appendChild(el("text", { x: 8, y: y + 30, "font-size": 16 }, label));
    for (let j = 0; j < Math.min(heap.size, DRAWN); j++) {
      const x = 40 + j * unit, row = rowOf(heap.takes[j], view);
      const shape = board.style === "tokens"
        ? el("circle", { cx: x + unit / 2, cy: y + 23, r: unit / 2 - 2, fill: fillFor(row, view) ?? HEAP_COLOURS.tokens })
        : el("rect", { x: x + 3, y: y + 6, width: unit - 7, height: 34, rx: 3,
                       fill: fillFor(row, view) ?? HEAP_COLOURS[board.style] ?? HEAP_COLOURS.sticks });
      svg.appendChild(playable(shape, row, view));
    }
    if (heap.size > DRAWN) svg.appendChild(el("text", { x: 40 + DRAWN * unit + 4, y: y + 30 }, `… (${heap.size})`));
  });
  return svg;
}

const ROW_COLOURS = { discs: ["#e4c15a", "#5a4320"], blocks: ["#b98b52", "#5a4320"] };
const SQUARE_STATES = { claimed: "#444", blocked: "#bbb", gone: "#eee" };

// Items in a line: coins, crates, or squares (claimed, blocked, free); a click plays the
// move the row gives an item.
function drawRow(board, view) {
  const squares = board.style === "squares", unit = squares ? 40 : 54, n = board.items.length;
  const svg = svgRoot(Math.max(n, 1) * unit + 10, squares ? 70 : 80);
  board.items.forEach((item, i) => {
    const x = 5 + i * unit, row = rowOf(item.move, view), live = item.state === "";
    let shape;
    if (squares) {
      shape = el("rect", { x: x + 2, y: 10, width: unit - 4, height: unit - 4, rx: 4, stroke: "#555", "data-cell": i,
                           fill: SQUARE_STATES[item.state] ?? fillFor(row, view) ?? "#f4f4f4" });
    } else {
      const [fill, stroke] = ROW_COLOURS[board.style] ?? ROW_COLOURS.blocks;
      shape = board.style === "discs" ? el("circle", { cx: x + unit / 2, cy: 40, r: unit / 2 - 4 })
        : el("rect", { x: x + 3, y: 14, width: unit - 6, height: unit - 6, rx: 4 });
      shape.setAttribute("fill", live ? fillFor(row, view) ?? fill : "#eee");
      shape.setAttribute("stroke", live ? stroke : "#ccc");
      shape.setAttribute("data-item", i);
    }
    svg.appendChild(playable(shape, row, view));
    if (item.text) svg.appendChild(el("text", { x: x + unit / 2, y: 46, "text-anchor": "middle", "font-size": 18,
                                                "pointer-events": "none", fill: live ? "#111" : "#bbb" }, item.text));
    if (item.caption) svg.appendChild(el("text", { x: x + unit / 2, y: 64, "text-anchor": "middle", "font-size": 11 },
                                         item.caption));
  });
  return svg;
}

function drawText(board) {
  const pre = document.createElement("pre");
  pre.className = "render";
  pre.textContent = board.text;
  return pre;
}

const DRAWERS = { grid: drawGrid, pits: drawPits, hex: drawHex, lines: drawLines, heaps: drawHeaps, row: drawRow,
                  hands: drawHands, text: drawText };

// Draw `payload`'s board into `container`; `onMove(notation)` plays a clicked move.
// `flipped`: a board that can turn round (board.flippable) is drawn from the second side.
export function drawBoard(container, payload, { hidden, onMove, flipped = false }) {
  const byMove = new Map(payload.moves.map((row) => [row.move, row]));
  const view = { byMove, hidden, onMove, scoreGame: payload.score_game, scale: scoreScale(payload.moves),
                 flipped: flipped && Boolean(payload.board.flippable),
                 line: hidden ? [] : payload.line ?? [], position: `${payload.game}|${payload.position}`,
                 start: payload.start };
  const draw = DRAWERS[payload.board.kind] ?? drawText;
  container.replaceChildren(draw(payload.board, view));
}

// Every legal move as a button, coloured by its value, best first.
export function drawMoveButtons(container, payload, { hidden, onMove, hinted }) {
  const scale = scoreScale(payload.moves);
  // How a person writes each move, where the game says (chess's SAN); else its notation.
  const labels = new Map((payload.board.labels ?? []).map((label) => [label.move, label.text]));
  container.replaceChildren(...payload.moves.map((row) => {
    const button = document.createElement("button");
    const principal = !hidden && payload.line?.[0] === row.move;
    button.className = "move" + (hinted.has(row.move) ? " hint" : "") + (principal ? " pv" : "");
    button.dataset.move = row.move;
    button.dataset.class = valueClass(row, payload.score_game);
    button.dataset.remoteness = row.remoteness ?? "";
    // The points the move itself scores; a move that scores none (most lines of Dots and Boxes,
    // a short sowing in Kalah) says nothing.
    const gain = row.gain ? ` (scores ${row.gain})` : "";
    const written = labels.get(row.move) ?? row.move;
    button.textContent = hidden ? `${written}${gain}` : `${written}${gain}: ${describeRow(row, payload.score_game)}`;
    if (!hidden) {
      button.style.background = moveColour(row, payload.score_game, scale);
      button.style.color = textColour(row, payload.score_game, scale);
    }
    button.addEventListener("click", () => onMove(row.move));
    return button;
  }));
}
