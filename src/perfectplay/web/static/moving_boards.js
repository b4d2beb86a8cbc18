// Boards whose moves take two clicks (a piece, then where it goes): the board's steps, each a
// move with its source and target places (perfectplay/diagram.py). A place the mover can play
// from is ringed in the colour of its best move's value; click it, and each place it can reach
// is filled by that move's value and carries data-move. A move of one click (a placement) is
// a target from the start. Moves the board does not show are the move buttons under it.

import { el } from "./svg.js";
import { svgRoot, text, valueLabel } from "./drawing.js";
import { describeRow, moveColour, ringMeansSomething, textColour, valueClass } from "./values.js";

const SELECTED = "#0a58ca";
// The man or piece picked, kept while the same position is redrawn (each depth the engine
// completes redraws the board): a pick survives the redraw.
const picked = { position: null, id: null };

// `spots`: Map place -> SVG shape. `steps`: the board's two-click moves; `singles`: Map
// move -> place for the one-click moves. Rows come best first, so the first row seen for a
// source is its best.
// `numbers` (optional): Map place -> SVG text, filled with a target's plies to the end.
export function wireTwoClick(spots, view, steps, singles = new Map(), numbers = new Map()) {
  const bestFrom = new Map(), byPair = new Map(), single = new Map();
  const parts = new Map(steps.map((step) => [step.move, { from: step.source, to: step.target }]));
  for (const [move, place] of singles) parts.set(move, { to: place });
  for (const row of view.byMove.values()) {
    const part = parts.get(row.move);
    if (!part) continue;
    if (part.from === undefined) { if (!single.has(part.to)) single.set(part.to, row); continue; }
    if (!bestFrom.has(part.from)) bestFrom.set(part.from, row);
    const key = `${part.from}>${part.to}`;
    if (!byPair.has(key)) byPair.set(key, row);
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
      if (number) {
        number.textContent = row ? valueLabel(row, view) : "";
        number.setAttribute("fill", row && !view.hidden ? textColour(row, view.scoreGame, view.scale) : "#111");
      }
      let stroke = shape.getAttribute("data-stroke") ?? "#555", width = 1.5;
      if (!row && source) {
        // A man keeps its own colour (whose it is); the value of its best move rings it.
        shape.setAttribute("data-from", id);
        shape.setAttribute("data-class", valueClass(source, view.scoreGame));
        shape.setAttribute("class", "move-target");
        if (!view.hidden && ringMeansSomething(source)) [stroke, width] = [moveColour(source, view.scoreGame, view.scale), 6];
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


// Hands: the other side's above, the mover's below; a move is a hand, then another.
export function drawHands(board, view) {
  const width = 320, height = 250;
  const svg = svgRoot(width, height), spots = new Map();
  const hand = (h, x, y) => {
    const palm = el("rect", { x, y, width: 110, height: 80, rx: 18, fill: h.fingers ? "#f3d2b3" : "#ddd",
                              "data-hand": h.name });
    svg.appendChild(palm);
    spots.set(h.name, palm);
    text(svg, x + 55, y + 38, h.fingers ? "|".repeat(h.fingers) : "×", { "font-size": 28, fill: h.fingers ? "#111" : "#999" });
    text(svg, x + 55, y + 66, h.caption, { "font-size": 12 });
  };
  text(svg, width / 2, 18, board.top_label, { "font-size": 13, fill: "#555" });
  board.top.forEach((h, k) => hand(h, 30 + 150 * k, 26));
  board.bottom.forEach((h, k) => hand(h, 30 + 150 * k, 140));
  text(svg, width / 2, 240, board.bottom_label, { "font-size": 13, fill: "#555" });
  wireTwoClick(spots, view, board.steps);
  return svg;
}
