// Colours for values, as GamesmanUni shows them: a move's colour is its value for the player
// who would play it. Win green, draw yellow, loss red; the sooner the end, the darker.
// Score games: green when the mover ends ahead, red behind, yellow level; darker by more.
// Estimates (the engine's scores, in a game too big to solve or a position not yet solved)
// are pale: green above level, red below, paler when nearer level.

export const NEUTRAL = "#c8c8c8";

// How a game's estimates read: chess in pawns (the engine counts centipawns), others in the
// game's own evaluation units.
let estimateUnits = "";
export function setEstimateUnits(units) { estimateUnits = units; }

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

// An estimate in (-1, 1): how strongly it leans, for colours, the bar and the chart.
export function estimateLean(estimate) {
  const scale = estimateUnits === "centipawns" ? 400 : 20;
  return Math.tanh((estimate ?? 0) / scale);
}

// Whether a man's ring in its best move's colour says something: only for an exact value.
// An estimate rings nothing: the engine values the moves outside its best lines by a
// shallower search, and in a level position pale red on every man would read as "losing";
// a man picked still shows each of its moves' estimates.
export function ringMeansSomething(row) {
  return valueClass(row, false) !== "estimate" && valueClass(row, false) !== "unknown";
}

export function moveColour(row, scoreGame, scale = 1) {
  const kind = valueClass(row, scoreGame);
  if (kind === "unknown") return NEUTRAL;
  if (kind === "estimate") {
    const lean = estimateLean(row.estimate ?? row.value);
    if (Math.abs(lean) < 0.05) return "hsl(50, 45%, 80%)";
    return `hsl(${lean > 0 ? 130 : 0}, 35%, ${Math.round(86 - 16 * Math.abs(lean))}%)`;
  }
  let closeness;
  if (scoreGame) closeness = Math.abs(row.value) / Math.max(scale, 1);
  else closeness = row.remoteness ? 1 / Math.sqrt(row.remoteness) : 1;
  if (kind === "draw") return "hsl(50, 90%, 55%)";
  const hue = kind === "win" ? 130 : 0;
  return `hsl(${hue}, 70%, ${lightness(closeness)}%)`;
}

// The largest |difference| among the moves: score games scale their shades by it.
export function scoreScale(rows) {
  return Math.max(1, ...rows.filter((r) => typeof r.value === "number").map((r) => Math.abs(r.value)));
}

// An engine score as a person reads it: pawns with two decimals in chess, else the number;
// a forced end the search saw but has not proven (`seen`: its plies) as "~mate in 2".
export function formatEstimate(estimate, seen = null) {
  const value = estimate ?? 0;
  if (seen !== null && seen !== undefined) return `~${decisiveWords({ value: value > 0 ? "win" : "loss", remoteness: seen })}`;
  if (estimateUnits === "centipawns") return `${value > 0 ? "+" : ""}${(value / 100).toFixed(2)}`;
  return `${value > 0 ? "+" : ""}${value}`;
}

// A win or loss in words: "win in 5"; "win" when the distance is not known (Grundy theory);
// chess counts mates in moves.
function decisiveWords(row) {
  const r = row.remoteness;
  if (r === null || r === undefined) return row.value;
  if (estimateUnits === "centipawns" && r > 0)
    return row.value === "win" ? `mate in ${Math.ceil(r / 2)}` : `mated in ${Math.ceil(r / 2)}`;
  return `${row.value} in ${r}`;
}

export function describeRow(row, scoreGame) {
  if (row.value === null || row.value === undefined) return "thinking…";
  if (scoreGame) return `${row.value > 0 ? "+" : ""}${row.value}${row.exact ? "" : " (estimate)"}`;
  if (!row.exact) return formatEstimate(row.estimate ?? row.value, row.seen);
  if (row.value === "draw") return "draw";
  return decisiveWords(row);
}

// A position's value in one number from the first player's side, for the history chart:
// wins near +1 (nearer the sooner), losses near -1, draws 0; score games: the difference
// the first player ends with (points so far plus the value still to come). With
// `estimates`, an estimated position counts too (its lean, within the win and loss bands).
export function chartValue(payload, lead, firstToMove, estimates = false) {
  if (payload === undefined || payload.value === null || payload.value === undefined) return null;
  let mine;
  if (!payload.exact) {
    if (!estimates || payload.score_game) return null;
    mine = 0.85 * estimateLean(payload.estimate);
  } else if (payload.score_game) mine = lead + payload.value;
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
