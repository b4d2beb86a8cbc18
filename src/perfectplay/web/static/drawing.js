// What every board drawing shares: the SVG root, targets a click plays, the value colours and
// numbers written on targets, the tallies above a board and the status lines under it.
// Boards come from the server as generic kinds (perfectplay/diagram.py); nothing here knows
// a game.

import { el } from "./svg.js";
import { describeRow, moveColour, valueClass } from "./values.js";

export function svgRoot(width, height) {
  return el("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img", id: "board-svg" });
}

// Mark `node` as the move `row` (or as no move when row is undefined).
export function playable(node, row, view) {
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

// The row of the move a place plays (undefined: none, or not a legal move now).
export const rowOf = (move, view) => (move === null || move === undefined ? undefined : view.byMove.get(move));

export function fillFor(row, view) {
  if (!row || view.hidden) return null;
  return moveColour(row, view.scoreGame, view.scale);
}

export function text(svg, x, y, words, attrs = {}) {
  return svg.appendChild(el("text", { x, y, "text-anchor": "middle", "pointer-events": "none", ...attrs }, words));
}

// A home page card's picture (no position answered, so no start): the board without its
// captions, which would be too small to read there.
export const isCard = (view) => view.start === undefined;

// The remoteness of an exact win/loss row, written on a target.
export function pliesLabel(row, view) {
  if (!row || view.hidden || row.remoteness === null || row.remoteness === undefined) return "";
  return String(row.remoteness);
}

// A score game's value of a row, written on a target: "+2", "-1", "0"; "~+2" for an estimate.
export function scoreLabel(row, view) {
  if (!row || view.hidden || typeof row.value !== "number") return "";
  const signed = `${row.value > 0 ? "+" : ""}${row.value}`;
  return row.exact ? signed : `~${signed}`;
}

// The number a target carries: plies to the end, or the score (pale colours say "estimate").
export function valueLabel(row, view) {
  return view.scoreGame ? scoreLabel(row, view).replace("~", "") : pliesLabel(row, view);
}

// The tallies above a board ("Black 4"), the side to move's ringed; returns the height used.
export function drawCounts(svg, board, width, view) {
  if (isCard(view) || !board.counts?.length) return 0;
  const gap = 140, first = width / 2 - (gap * (board.counts.length - 1)) / 2;
  board.counts.forEach((count, k) => {
    const x = first + k * gap, piece = board.pieces?.[count.mark] ?? {};
    const mine = count.mark === board.to_move && !board.over;
    const disc = piece.shape === "disc";
    svg.appendChild(el("rect", { x: x - 64, y: 3, width: 128, height: 28, rx: 14,
                                 fill: disc ? "none" : piece.tint ?? "#eee",
                                 stroke: mine ? "#0a58ca" : disc ? "none" : piece.colour ?? "#999",
                                 "stroke-width": mine ? 3 : 1, class: "count-chip" }));
    if (disc) svg.appendChild(el("circle", { cx: x - 42, cy: 17, r: 10, fill: piece.colour,
                                             stroke: "#333", "stroke-width": 1.5 }));
    text(svg, disc ? x + 10 : x, 23, `${count.label}${mine && !disc ? " ◀" : ""}`,
         { "font-size": 15, "font-weight": mine || !disc ? "bold" : "normal",
           fill: disc ? "#222" : piece.colour ?? "#222", "data-count": count.mark });
  });
  return 36;
}

// The game's status lines, centred from `y` down; the first says whether the turn was kept.
export function drawStatus(svg, board, width, y, view) {
  if (isCard(view)) return;
  (board.status ?? []).forEach((line, k) => {
    const attrs = { "font-size": k === 0 ? 15 : 13, "font-weight": line.bold ? "bold" : "normal", fill: line.colour };
    if (k === 0) Object.assign(attrs, { class: "board-status", "data-again": board.again ? "1" : "0" });
    text(svg, width / 2, y + 18 * k, line.text, attrs);
  });
}

// The width the tallies and the status lines need (about 0.56 of the font size a
// character), so that a small board's picture is widened to show them whole.
export function captionWidth(board, view) {
  if (isCard(view)) return 0;
  const tallies = board.counts?.length ? 140 * board.counts.length : 0;
  const lines = (board.status ?? []).map((line, k) => 0.56 * (k === 0 ? 15 : 13) * line.text.length + 16);
  return Math.ceil(Math.max(tallies, ...lines, 0));
}

// The height the status lines take under a board.
export const statusHeight = (board, view) => (isCard(view) ? 0 : 18 * (board.status ?? []).length + 8);
