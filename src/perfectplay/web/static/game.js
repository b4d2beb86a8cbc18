// The game page: plays moves through the JSON API, keeps the line (start + moves) in the URL,
// watches long searches over server-sent events, and draws the board and the value history.

import { drawBoard, drawMoveButtons } from "./board.js";
import { drawHistory } from "./chart.js";
import { chartValue, describeRow, estimateLean, formatEstimate, moveColour, setEstimateUnits, textColour } from "./values.js";

const PAGE_PARAMETERS = ["mode", "level", "computer", "hide", "seconds", "think", "lines", "flip"];
// The best lines the engine searches and shows (MultiPV): `lines=N` in the URL, 1 to 5.
const DEFAULT_LINES = 3;
const MAX_LINES = 5;
const $ = (id) => document.getElementById(id);

const url = new URL(window.location.href);
const state = {
  game: decodeURIComponent(url.pathname.split("/").pop()),
  options: {},            // game options (misere, code, width, ...), passed through to the API
  start: url.searchParams.get("position") ?? "",
  moves: (url.searchParams.get("moves") ?? "").split(",").filter((m) => m !== ""),
  redo: [],
  payloads: [],           // payloads[i]: the position after i moves
  mode: url.searchParams.get("mode") ?? "analysis",
  level: url.searchParams.get("level") ?? "perfect",
  computerSide: url.searchParams.get("computer") === "first" ? 0 : 1,
  hidden: url.searchParams.get("hide") === "1",
  // The analysis goes on until the position changes, within the server's cap ("max");
  // `seconds=S` in the URL stops it after S seconds instead.
  seconds: url.searchParams.get("seconds") ?? "max",
  flipped: url.searchParams.get("flip") === "1",  // a board that turns round, seen from the second side
  thinkSeconds: url.searchParams.get("think") ?? "2",  // the computer's think time where it estimates
  lines: linesWanted(url.searchParams.get("lines")),
  hinted: new Set(),
  stream: null,
  busy: false,
};
for (const [key, value] of url.searchParams) {
  if (!["position", "moves", ...PAGE_PARAMETERS].includes(key)) state.options[key] = value;
}

function linesWanted(text) {
  const count = Number(text ?? DEFAULT_LINES);
  return Number.isInteger(count) && count >= 1 && count <= MAX_LINES ? count : DEFAULT_LINES;
}

function apiQuery(moves, extra = {}) {
  const query = new URLSearchParams(state.options);
  if (state.start) query.set("position", state.start);
  if (moves.length) query.set("moves", moves.join(","));
  for (const [key, value] of Object.entries(extra)) query.set(key, value);
  return query.toString();
}

async function api(call, moves, extra = {}) {
  const response = await fetch(`/api/${encodeURIComponent(state.game)}/${call}?${apiQuery(moves, extra)}`);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error ?? `HTTP ${response.status}`);
  return body;
}

function showError(message) {
  const box = $("error");
  box.textContent = message ? `Error: ${message}` : "";
  box.hidden = !message;
}

function syncUrl() {
  const query = new URLSearchParams(state.options);
  if (state.start) query.set("position", state.start);
  if (state.moves.length) query.set("moves", state.moves.join(","));
  if (state.mode !== "analysis") query.set("mode", state.mode);
  if (state.mode === "computer") {
    query.set("level", state.level);
    query.set("computer", state.computerSide === 0 ? "first" : "second");
  }
  if (state.hidden) query.set("hide", "1");
  if (state.flipped) query.set("flip", "1");
  if (state.seconds !== "max") query.set("seconds", state.seconds);  // a shorter analysis, kept in a copied link
  if (state.lines !== DEFAULT_LINES) query.set("lines", String(state.lines));
  history.replaceState(null, "", `${window.location.pathname}?${query}`);
  $("share").href = window.location.href;
  $("tree").href = `/api/${encodeURIComponent(state.game)}/tree.svg?${apiQuery(state.moves, { depth: 2 })}`;
  $("tree").hidden = !current()?.tree;  // only where the server can draw it (a searched position)
}

const current = () => state.payloads[state.moves.length];
// The side to move at `ply` (0 moved first): the server's, which follows extra turns
// (Kalah, Dots and Boxes); strict alternation until that payload has come.
const moverAt = (ply) => state.payloads[ply]?.mover ?? ply % 2;
const computerToMove = () => state.mode === "computer" && !current()?.over
  && moverAt(state.moves.length) === state.computerSide;

// Fetch the payload of every position along the line that is not known yet.
async function loadLine() {
  const wanted = [];
  for (let i = 0; i <= state.moves.length; i++) if (!state.payloads[i]) wanted.push(i);
  const fetched = await Promise.all(wanted.map((i) => api("position", state.moves.slice(0, i))));
  wanted.forEach((i, k) => { state.payloads[i] = fetched[k]; });
}

async function refresh() {
  try {
    await loadLine();
    showError("");
  } catch (error) {
    showError(error.message);
    render();
    return;
  }
  render();
  syncUrl();
  const payload = current();
  // The computer thinks for itself (its think time, on the server): no stream first.
  if (computerToMove()) await computerMove();
  else if (payload.status !== "exact" && !payload.over) await think();
}

async function play(notation) {
  if (state.busy || computerToMove()) return;
  const started = performance.now();
  stopThinking(false);  // the search of the position left behind ends now
  state.payloads.length = state.moves.length + 1;
  state.moves.push(notation);
  state.redo = [];
  state.hinted.clear();
  try {
    state.payloads[state.moves.length] = await api("position", state.moves);
    document.body.dataset.lastClickMs = (performance.now() - started).toFixed(1);
    showError("");
  } catch (error) {
    state.moves.pop();
    showError(error.message);
    return;
  }
  await refresh();
}

async function computerMove() {
  state.busy = true;
  try {
    $("status").textContent = "The computer is choosing…";
    const started = performance.now();
    const choice = await api("computer", state.moves, { level: state.level, seconds: state.thinkSeconds });
    document.body.dataset.computerMs = (performance.now() - started).toFixed(0);
    state.moves.push(choice.move);
    state.payloads.length = state.moves.length;
    state.busy = false;
    await refresh();
  } catch (error) {
    showError(error.message);
  } finally {
    state.busy = false;
  }
}

// Watch the server search the current position until it is exact, out of time or cancelled.
function think() {
  stopThinking();
  const ply = state.moves.length;
  const source = new EventSource(`/api/${encodeURIComponent(state.game)}/think?${apiQuery(state.moves, { seconds: state.seconds, lines: state.lines })}`);
  state.stream = source;
  state.thinkingFor = lineKey();
  $("thinking").hidden = false;
  $("thinking-text").textContent = "Thinking…";
  return new Promise((resolve) => {
    const update = (event, done) => {
      const payload = JSON.parse(event.data);
      if (ply === state.moves.length) state.payloads[ply] = payload;
      const kind = payload.exact ? `exact, ${describeRow(payload, payload.score_game)}`
        : payload.estimate !== undefined ? `estimate ${formatEstimate(payload.estimate, payload.seen)}` : "estimate";
      $("thinking-text").textContent = done
        ? `Done: ${kind}${payload.exact ? "" : ` from depth ${payload.depth_reached}`} after ${payload.elapsed_s} s`
          + (payload.reason.startsWith("error") ? ` (${payload.reason})` : "")
        : `Depth ${payload.depth_reached}: ${kind}, ${payload.elapsed_s} s${speed(payload)}${untilCap(payload)}…`;
      document.body.dataset.depth = payload.depth_reached;
      document.body.dataset.cap = payload.cap_s;
      render();
      if (done) { stopThinking(false); resolve(); }
    };
    source.addEventListener("depth", (event) => update(event, false));
    source.addEventListener("done", (event) => update(event, true));
    source.onerror = () => { stopThinking(false); resolve(); };
    state.resolveThinking = resolve;
  });
}

// The engine's speed, as lichess shows it: nodes searched per second so far.
function speed(payload) {
  if (!payload.nodes || !payload.elapsed_s) return "";
  return `, ${Math.round(payload.nodes / payload.elapsed_s / 1000)} kN/s`;
}

// How long the analysis may go on: until the position changes, within the server's cap.
function untilCap(payload) {
  if (payload.cap_s === undefined) return "";
  return payload.seconds >= payload.cap_s ? `; analysing on until the position changes (the server stops at ${payload.cap_s} s)`
    : `; stops at ${payload.seconds} s`;
}

function stopThinking(cancelled = true) {
  if (state.stream) {
    state.stream.close();  // the server sees the stream close and stops its search
    state.stream = null;
    if (cancelled) $("thinking-text").textContent += " (cancelled)";
  }
  $("cancel").disabled = true;
  if (state.resolveThinking) { state.resolveThinking(); state.resolveThinking = null; }
}

function lead(ply) {
  // Score games: the points of the player to move at `ply` minus the other's so far.
  let total = 0;
  for (let i = 0; i < ply; i++) {
    const row = state.payloads[i]?.moves.find((m) => m.move === state.moves[i]);
    const gain = row?.gain ?? 0;
    total += moverAt(i) === moverAt(ply) ? gain : -gain;
  }
  return total;
}

// The first move after which its player's outcome class got worse (exact values only).
function firstMistake(points) {
  for (let i = 1; i < points.length; i++) {
    if (points[i - 1] === null || points[i] === null) continue;
    const moverSign = moverAt(i - 1) === 0 ? 1 : -1;
    if (Math.sign(points[i] * moverSign) < Math.sign(points[i - 1] * moverSign)) return { ply: i };
  }
  return null;
}

// The position on show, as the thinking box remembers which one it speaks of.
const lineKey = () => `${state.start}|${state.moves.join(",")}`;

function render() {
  const payload = current();
  // The thinking box speaks of one position: another on show clears it.
  if (state.thinkingFor !== lineKey()) {
    $("thinking").hidden = true;
    $("thinking-text").textContent = "";
  }
  if (payload) setEstimateUnits(payload.board.units ?? "");
  // An empty position text is the start only before a move (a row of crates taken to its end is empty too).
  const shown = payload?.position || (payload?.ply ? "(empty)" : "(start)");
  $("title").textContent = `${state.game}${payload ? ` — ${shown}` : ""}`;
  if (!payload) {
    $("board").replaceChildren();
    $("moves").replaceChildren();
    $("undo").disabled = $("redo").disabled = true;
    return;
  }
  const options = { hidden: state.hidden, onMove: play, hinted: state.hinted, flipped: state.flipped };
  drawBoard($("board"), payload, options);
  drawMoveButtons($("moves"), payload, options);
  for (const node of document.querySelectorAll("#board [data-move]"))
    node.classList.toggle("hint", state.hinted.has(node.dataset.move));
  $("status").textContent = statusText(payload);
  $("cancel").disabled = !state.stream;
  const line = state.payloads.slice(0, state.moves.length + 1);
  const points = line.map((p, i) => chartValue(p, lead(i), moverAt(i) === 0));
  drawHistory($("history"), points, firstMistake(points), { scoreGame: payload.score_game });
  $("history-box").hidden = state.hidden;  // the chart would give the values away
  const estimated = line.some((p) => p && !p.exact && p.estimate !== undefined);
  $("eval-history-box").hidden = state.hidden || !estimated;
  if (estimated) {
    const evals = line.map((p, i) => chartValue(p, lead(i), moverAt(i) === 0, true));
    drawHistory($("eval-history"), evals, null, { scoreGame: false, id: "eval-history-svg",
                                                  proven: line.map((p) => Boolean(p?.exact)) });
  }
  drawEngine(payload);
  $("legend").replaceChildren(...legendFor(payload));
  $("tree").hidden = !payload.tree;
  drawMoveList();
  $("flip").hidden = !payload.board.flippable;
  const format = recordFormat();
  $("record-box").hidden = !format;
  if (format) { $("record-paste").textContent = `Load ${format}`; $("record-copy").textContent = `Copy ${format}`; }
  $("undo").disabled = state.moves.length === 0;
  $("redo").disabled = state.redo.length === 0;
}

// How an estimate was found: the engine to a depth, or Monte Carlo sampling (no depth:
// a game with no evaluation function).
function searchedBy(payload) {
  return payload.depth === null || payload.depth === undefined ? "Monte Carlo" : `engine, depth ${payload.depth}`;
}

function statusText(payload) {
  // The page's name for the side to move (Connect Four: "Red (X)", chess: "White").
  const named = payload.sides?.[0];
  const ply = state.moves.length;
  const side = named && !named.startsWith("the ") ? named
    : moverAt(ply) === 0 ? "First player" : "Second player";
  // An extra turn (Kalah's last seed in the store, a box completed): the same side again.
  const before = ply > 0 ? state.payloads[ply - 1] : undefined;
  const again = before && payload.mover != null && before.mover === payload.mover ? " again" : "";
  if (payload.over) return `Game over: ${payload.result ?? describeRow({ ...payload, exact: true }, payload.score_game)}.`;
  if (state.hidden) return `${side} to move${again}.`;
  if (payload.status === "pending")
    return `${side} to move${again}; ${payload.too_big ? "the engine is searching" : "the value needs a longer search"}…`;
  if (!payload.exact)
    return `${side} to move${again}: estimate ${formatEstimate(payload.estimate, payload.seen)} (${searchedBy(payload)}).`;
  const proven = payload.depth !== null && payload.depth !== undefined ? ` (proven at depth ${payload.depth})` : "";
  return `${side} to move${again}: ${describeRow({ ...payload }, payload.score_game)}${proven}.`;
}

// The evaluation bar (the first player's share: full when proven a win) and the best line.
function drawEngine(payload) {
  const searched = payload.too_big || payload.status === "estimate" || (payload.exact && payload.depth != null);
  // The bar stays where the engine analyses the game (so the board never shifts): at the end
  // it goes to the winner, or the middle for a draw; while the first depth is awaited, the middle.
  const engineGame = searched || state.payloads.some((p) => p?.too_big || p?.status === "estimate");
  const showBar = engineGame && !state.hidden && !payload.score_game;
  $("eval-bar").hidden = !showBar;
  if (showBar && (payload.over || payload.value === null)) {
    const share = payload.over ? { 0: 100, 1: 0 }[payload.winner] ?? 50 : 50;
    $("eval-fill").style.height = `${share}%`;
    $("eval-bar").dataset.share = share;
    $("eval-label").textContent = payload.over && payload.winner === null ? "½" : "";
  } else if (showBar) {
    let lean = payload.exact ? { win: 1, loss: -1, draw: 0 }[payload.value] : estimateLean(payload.estimate);
    if (moverAt(state.moves.length) === 1) lean = -lean;  // the bar is the first player's
    const share = Math.round(50 + 50 * lean);
    $("eval-fill").style.height = `${share}%`;
    $("eval-bar").dataset.share = share;
    $("eval-label").textContent = payload.exact ? describeRow(payload, false).split(" ")[0]
      : formatEstimate(moverAt(state.moves.length) === 1 ? -payload.estimate : payload.estimate, payload.seen)
        .split(" ")[0];  // "~mate" where the search saw one
  }
  const lineShown = !state.hidden && !payload.over && (payload.line ?? []).length > 0;
  // The best lines where the page analyses: the engine's (deepening), or an exact answer's
  // that came through the thinking stream (or at once, for a game too big to solve).
  const analysed = payload.too_big || payload.status === "estimate" || payload.depth_reached !== undefined;
  const lines = analysed && !state.hidden && !payload.over ? (payload.lines ?? []).slice(0, state.lines) : [];
  $("engine").hidden = !lineShown && lines.length === 0;
  $("engine").firstElementChild.hidden = !lineShown;
  if (lineShown) {
    $("best-line").textContent = payload.line_text || payload.line.join(" ");  // SAN for chess
    $("engine-depth").textContent = `(${searchedBy(payload)}${payload.exact ? ", proven" : ""})`;
  }
  drawLines(payload, lines);
  for (const node of document.querySelectorAll("#board [data-move]"))
    node.classList.toggle("pv", lineShown && node.dataset.move === payload.line[0]);
}

// The best lines (MultiPV), as lichess's analysis board lists them: each with its score for
// the side to move (pawns, or mate in N; proven values are marked), its depth and its moves
// (SAN in chess). Clicking a line plays its first move.
function drawLines(payload, lines) {
  let box = $("pv-box");
  if (!box) {
    box = document.createElement("div");
    box.id = "pv-box";
    const head = document.createElement("div");
    head.className = "pv-head";
    const title = document.createElement("strong");
    title.textContent = "Best lines";
    const side = document.createElement("span");
    side.id = "pv-side";
    side.className = "note";
    const label = document.createElement("label");
    label.className = "pv-count";
    const select = document.createElement("select");
    select.id = "lines-count";
    select.title = "how many best lines the engine searches";
    for (let n = 1; n <= MAX_LINES; n++) select.append(new Option(String(n), String(n)));
    select.onchange = () => setLines(Number(select.value));
    label.append("lines ", select);
    head.append(title, " ", side, " ", label);
    const list = document.createElement("ol");
    list.id = "pv-lines";
    list.className = "pv-lines";
    box.append(head, list);
    $("engine").append(box);
  }
  box.hidden = lines.length === 0;
  $("lines-count").value = String(state.lines);
  $("pv-side").textContent = `(scores for ${payload.sides?.[0] ?? "the side to move"})`;
  $("pv-lines").replaceChildren(...lines.map((line) => {
    const item = document.createElement("li");
    item.className = "pv-line";
    item.dataset.move = line.moves[0];
    item.dataset.exact = String(line.exact);
    if (line.depth !== null && line.depth !== undefined) item.dataset.depth = String(line.depth);
    const score = document.createElement("span");
    score.className = `pv-score${line.exact ? " exact" : ""}`;
    score.textContent = line.exact ? describeRow(line, payload.score_game) : formatEstimate(line.estimate, line.seen);
    score.style.background = moveColour(line, payload.score_game);
    score.style.color = textColour(line, payload.score_game);
    const depth = document.createElement("span");
    depth.className = "pv-depth";
    const searched = line.depth !== null && line.depth !== undefined ? `depth ${line.depth}` : "";
    depth.textContent = line.exact ? (searched ? `${searched}, proven` : "exact") : searched;
    const moves = document.createElement("span");
    moves.className = "pv-moves";
    moves.textContent = line.text;
    item.append(score, " ", depth, " ", moves);
    item.title = `play ${line.moves[0]}`;
    item.onclick = () => play(line.moves[0]);
    return item;
  }));
  document.body.dataset.lines = String(lines.length);
}

// A new number of best lines: the URL keeps it, and a position still being estimated is
// searched again for that many.
function setLines(count) {
  state.lines = count;
  syncUrl();
  const payload = current();
  render();
  if (payload && !payload.over && payload.status !== "exact" && !computerToMove()) think();
}

// What the colours and numbers on this board mean (true for each kind of board).
function legendFor(payload) {
  const swatch = (kind, text) => { const span = document.createElement("span"); span.className = kind; span.textContent = text; return span; };
  const parts = [swatch("win", "win"), " ", swatch("draw", "draw"), " ", swatch("loss", "loss"),
                 " for the player who plays the move; darker is sooner. "];
  // The game says how to play on its board; a board with no words, the move buttons.
  const words = payload.board.help || "Each move's button shows its value: win/loss in N plies, or the score.";
  parts.push(words);
  // A game's own words on estimates (its units) stand for these.
  const ownWords = Boolean(payload.board.units);
  if (payload.too_big && !ownWords) parts.push(" Pale colours are the engine's estimates.");
  else if (!payload.exact && !ownWords) parts.push(" ", swatch("estimate", "pale"), " colours are estimates.");
  return parts;
}

// The whole line on show: the moves played up to the position on show, then those a step
// back left to redo.
const wholeLine = () => [...state.moves, ...[...state.redo].reverse()];

// How the game writes the moves of the whole line, where it has a score sheet of its own
// (board.record: chess's SAN, numbered): from the furthest position along it that is known.
function recordOf(line) {
  for (let ply = line.length; ply > 0; ply--) {
    const record = state.payloads[ply]?.board?.record;
    if (record?.length === ply) return record;
  }
  return [];
}

// The moves played, each a link back to the position after it (lichess's move list); the
// position on show is marked. A game with no score sheet lists its moves' notation.
function drawMoveList() {
  const line = wholeLine(), record = recordOf(line), items = [];
  if (!line.length) { $("line").textContent = "No moves yet."; return; }
  const start = document.createElement("span");
  start.className = "ply" + (state.moves.length === 0 ? " current" : "");
  start.dataset.ply = "0";
  start.textContent = "start";
  start.onclick = () => goTo(0);
  items.push("Moves: ", start);
  line.forEach((move, i) => {
    const written = record[i];
    if (written?.number) items.push(" ", Object.assign(document.createElement("span"), { className: "move-number", textContent: written.number }));
    const ply = document.createElement("span");
    ply.className = "ply" + (i + 1 === state.moves.length ? " current" : "");
    ply.dataset.ply = String(i + 1);
    ply.dataset.move = move;
    ply.textContent = written?.text ?? move;
    ply.onclick = () => goTo(i + 1);
    items.push(" ", ply);
  });
  $("line").replaceChildren(...items);
}

// Show the position after `ply` moves of the whole line (the move list, the arrow keys):
// the moves after it wait to be redone, and the analysis starts on it.
async function goTo(ply) {
  const line = wholeLine();
  if (state.busy || ply < 0 || ply > line.length || ply === state.moves.length) return;
  stopThinking(false);
  state.moves = line.slice(0, ply);
  state.redo = line.slice(ply).reverse();
  state.hinted.clear();
  if (state.mode === "computer") { render(); syncUrl(); return; }  // no computer move on a look back
  await refresh();
}

function onKey(event) {
  if (event.target.closest?.("input, textarea, select") || event.ctrlKey || event.metaKey || event.altKey) return;
  const steps = { ArrowLeft: state.moves.length - 1, ArrowRight: state.moves.length + 1,
                  Home: 0, End: wholeLine().length };
  if (event.key in steps) { event.preventDefault(); goTo(steps[event.key]); }
  else if (event.key === "f" && current()?.board.flippable) flip();
}

function flip() {
  state.flipped = !state.flipped;
  render();
  syncUrl();
}

// The game's record format (chess: PGN), where it has one: the page offers to paste and copy
// a game. Position answers say it (the thinking stream's do not): the last said is kept.
function recordFormat() {
  for (const payload of state.payloads) if (payload?.record_format !== undefined) state.recordFormat = payload.record_format;
  return state.recordFormat ?? null;
}

async function copyRecord() {
  try {
    const record = await api("record", wholeLine());  // the whole game of the move list
    $("record-text").value = record.text;
    $("record-note").textContent = `The game as ${record.format}: copied.`;
    try { await navigator.clipboard.writeText(record.text); }
    catch { $("record-note").textContent = `The game as ${record.format}: select it and copy.`; }
    showError("");
  } catch (error) {
    showError(error.message);
  }
}

async function pasteRecord() {
  const response = await fetch(`/api/${encodeURIComponent(state.game)}/record`, { method: "POST", body: $("record-text").value });
  const body = await response.json();
  if (!response.ok) { showError(body.error ?? `HTTP ${response.status}`); return; }
  stopThinking(false);
  state.start = body.position;
  $("position-input").value = state.start;
  state.payloads = [];
  state.moves = [];
  state.redo = [...body.moves].reverse();  // the game loaded, shown from its end (the move list goes back)
  $("record-note").textContent = `Loaded ${body.moves.length} moves from ${body.format}.`;
  showError("");
  await goTo(body.moves.length);
  if (!body.moves.length) await refresh();
}

async function undo() {
  if (!state.moves.length || state.busy) return;
  stopThinking(false);
  state.redo.push(state.moves.pop());
  if (state.mode === "computer" && computerToMove() && state.moves.length) state.redo.push(state.moves.pop());
  state.hinted.clear();
  render();
  syncUrl();
}

async function redo() {
  if (!state.redo.length || state.busy) return;
  state.moves.push(state.redo.pop());
  await refresh();
}

async function hint() {
  const payload = current();
  if (!payload || payload.over) return;
  if (payload.status !== "exact") await think();
  state.hinted = new Set(current().best_moves);
  const labels = new Map((current().board.labels ?? []).map((label) => [label.move, label.text]));
  const best = current().best_moves.map((move) => labels.get(move) ?? move);
  $("hint-text").textContent = `Best: ${best.join(", ")} (${describeRow(current(), current().score_game)})`;
  render();
}

function wire() {
  $("undo").onclick = undo;
  $("redo").onclick = redo;
  $("new").onclick = () => { stopThinking(false); state.moves = []; state.redo = []; state.hinted.clear(); refresh(); };
  $("hint").onclick = hint;
  $("cancel").onclick = () => stopThinking(true);
  const setSide = (side) => {
    state.computerSide = side;
    state.mode = "computer";
    $("mode").value = "computer";
    $("computer-side").value = side === 0 ? "first" : "second";
    refresh();
  };
  $("computer-side").value = state.computerSide === 0 ? "first" : "second";
  $("computer-side").onchange = () => setSide($("computer-side").value === "first" ? 0 : 1);
  $("swap").onclick = () => setSide(1 - state.computerSide);
  $("hide").checked = state.hidden;
  $("hide").onchange = () => { state.hidden = $("hide").checked; render(); syncUrl(); };
  $("mode").value = state.mode;
  $("mode").onchange = () => { state.mode = $("mode").value; refresh(); };
  $("level").value = state.level;
  $("level").onchange = () => { state.level = $("level").value; syncUrl(); };
  $("position-form").onsubmit = (event) => {
    event.preventDefault();
    stopThinking(false);
    state.start = $("position-input").value.trim();
    state.moves = []; state.redo = []; state.payloads = [];
    refresh();
  };
  $("position-input").value = state.start;
  $("flip").onclick = flip;
  $("record-copy").onclick = copyRecord;
  $("record-paste").onclick = pasteRecord;
  document.addEventListener("keydown", onKey);
}

wire();
refresh();
