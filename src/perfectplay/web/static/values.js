// Colours for values, as GamesmanUni shows them: a move's colour is its value for the player
// who would play it. Win green, draw yellow, loss red; the sooner the end, the darker.
// Score games: green when the mover ends ahead, red behind, yellow level; darker by more.

export const NEUTRAL = "#c8c8c8";

// "win" | "draw" | "loss" | "estimate" | "unknown" for one move row of the API.
export function valueClass(row, scoreGame) {
  if (row.value === null || row.value === undefined) return "unknown";
  if (!row.exact) return "estimate";
  if (scoreGame) return row.value > 0 ? "win" : row.value < 0 ? "loss" : "draw";
  return row.value;
}

// Lightness from 28% (the end is next move) to 68% (far away or a big margin is small).
function lightness(closeness) {
  return Math.round(68 - 40 * Math.max(0, Math.min(1, closeness)));
}

export function moveColour(row, scoreGame, scale = 1) {
  const kind = valueClass(row, scoreGame);
  if (kind === "unknown") return NEUTRAL;
  if (kind === "estimate") return "#9db4cf";
  let closeness;
  if (scoreGame) closeness = Math.abs(row.value) / Math.max(scale, 1);
  else closeness = row.remoteness ? 1 / Math.sqrt(row.remoteness) : 1;
  if (kind === "draw") return `hsl(50, 90%, ${scoreGame ? 55 : 55}%)`;
  const hue = kind === "win" ? 130 : 0;
  return `hsl(${hue}, 70%, ${lightness(closeness)}%)`;
}

// The largest |difference| among the moves: score games scale their shades by it.
export function scoreScale(rows) {
  return Math.max(1, ...rows.filter((r) => typeof r.value === "number").map((r) => Math.abs(r.value)));
}

export function describeRow(row, scoreGame) {
  if (row.value === null || row.value === undefined) return "thinking…";
  if (scoreGame) return `${row.value > 0 ? "+" : ""}${row.value}${row.exact ? "" : " (estimate)"}`;
  if (!row.exact) return `estimate ${row.estimate > 0 ? "+" : ""}${row.estimate ?? 0}`;
  if (row.value === "draw") return "draw";
  return `${row.value} in ${row.remoteness}`;
}

// A position's value in one number from the first player's side, for the history chart:
// wins near +1 (nearer the sooner), losses near -1, draws 0; score games: the difference
// the first player ends with (points so far plus the value still to come).
export function chartValue(payload, lead, firstToMove) {
  if (payload === undefined || payload.value === null || payload.value === undefined) return null;
  if (!payload.exact) return null;
  let mine;
  if (payload.score_game) mine = lead + payload.value;
  else if (payload.value === "draw") mine = 0;
  else {
    const r = payload.remoteness ?? 0;
    mine = (payload.value === "win" ? 1 : -1) * (1 - Math.min(r, 60) / 75);
  }
  return firstToMove ? mine : -mine;
}

// White text on the dark shades, black on the light ones.
export function textColour(row, scoreGame, scale = 1) {
  const match = /(\d+)%\)$/.exec(moveColour(row, scoreGame, scale));
  return match && Number(match[1]) < 50 ? "#fff" : "#111";
}
