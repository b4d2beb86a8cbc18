// The games as cards (a small picture of the start board, the one-line rules, solved exactly
// or estimated by the engine), and the growth chart.
import { drawBoard } from "./board.js";
import { drawGrowth } from "./chart.js";

const list = document.getElementById("games");
const games = await (await fetch("/api/games")).json();
for (const game of games.games) {
  const item = document.createElement("li");
  item.className = "card";
  item.dataset.card = game.name;
  const link = document.createElement("a");
  link.href = `/game/${encodeURIComponent(game.name)}`;
  link.dataset.game = game.name;
  const thumb = document.createElement("div");
  thumb.className = "thumb";
  if (game.board) {
    drawBoard(thumb, { board: game.board, moves: [], score_game: false, line: [] },
              { hidden: true, onMove: () => {} });
    thumb.querySelector("svg")?.removeAttribute("id");
  }
  const text = document.createElement("div");
  const title = document.createElement("h3");
  const badge = document.createElement("span");
  badge.className = `badge ${game.exact ? "exact" : "estimated"}`;
  badge.textContent = game.exact ? "solved exactly" : "estimated by the engine";
  title.append(game.name, badge);
  const rules = document.createElement("p");
  rules.textContent = `${game.summary}${game.own ? " (your game)" : ""}`;
  text.append(title, rules);
  link.append(thumb, text);
  item.append(link);
  list.append(item);
}
const growth = await (await fetch("/api/growth?sizes=1..25")).json();
document.getElementById("cap").textContent = growth.node_cap.toLocaleString("en");
drawGrowth(document.getElementById("growth"), growth);
