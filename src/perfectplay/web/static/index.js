// The game list and the growth chart.
import { drawGrowth } from "./chart.js";

const list = document.getElementById("games");
const games = await (await fetch("/api/games")).json();
for (const game of games.games) {
  const item = document.createElement("li");
  const link = document.createElement("a");
  link.href = `/game/${encodeURIComponent(game.name)}`;
  link.textContent = game.name;
  link.dataset.game = game.name;
  item.append(link, ` — ${game.summary}${game.own ? " (your game)" : ""}`);
  list.append(item);
}
const growth = await (await fetch("/api/growth?game=takeaway&sizes=1..25")).json();
document.getElementById("cap").textContent = growth.node_cap.toLocaleString("en");
drawGrowth(document.getElementById("growth"), growth);
