"""OpenSpiel's MCTSBot behind the UCI protocol, so that `perfectplay match` can play it.

Run with the Python of a separate venv that has OpenSpiel (not a perfectplay dependency):

    python3 -m venv .venv-openspiel && .venv-openspiel/bin/pip install open_spiel==2.0.2
    perfectplay match hex --size 7 --first mcts --time 1 --opening-plies 0 \\
        --second "uci=.venv-openspiel/bin/python benchmarks/openspiel_uci.py hex 7"

Arguments: GAME (hex or othello) and SIZE (Hex; Othello is 8x8 in OpenSpiel), then
optionally --uct-c C (default 2, OpenSpiel's example) and --rollouts R (default 1).
``go nodes N`` runs N simulations; ``go movetime MS`` runs as many simulations as should
fit: MCTSBot has no clock of its own, so the bridge counts the simulations per second it
measured on its earlier moves (a slice of 16 on the first) and asks for 90% of the time's
worth. On a loaded machine the time per move still varies; `match` prints both players'
mean seconds a move.

Positions: ``position startpos moves m1 m2 ...`` in perfectplay's notation (a1, pass); a Hex
``position fen ROWS`` is rebuilt by placing the stones in alternation. This file imports
nothing from perfectplay: it runs in OpenSpiel's venv.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts


def load(name: str, size: int) -> object:
    if name == "hex":
        return pyspiel.load_game(f"hex(board_size={size})")
    if name == "othello":
        return pyspiel.load_game("othello")
    raise SystemExit(f"openspiel_uci: unknown game {name!r}")


def action_of(state: object, text: str) -> int:
    for action in state.legal_actions():
        if state.action_to_string(state.current_player(), action).lower() == text.lower():
            return action
    raise ValueError(f"{text!r} is not legal; legal: "
                     f"{[state.action_to_string(state.current_player(), a) for a in state.legal_actions()]}")


def hex_from_rows(game: object, rows: str, size: int) -> object:
    cells = "".join(rows.replace("/", " ").split()).upper()
    xs = [i for i, mark in enumerate(cells) if mark == "X"]
    os_ = [i for i, mark in enumerate(cells) if mark == "O"]
    state = game.new_initial_state()
    for index in range(len(xs) + len(os_)):
        cell = xs[index // 2] if index % 2 == 0 else os_[index // 2]
        state.apply_action(cell)
    return state


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("game")
    parser.add_argument("size", type=int, nargs="?", default=8)
    parser.add_argument("--uct-c", type=float, default=2.0)
    parser.add_argument("--rollouts", type=int, default=1)
    args = parser.parse_args()
    game = load(args.game, args.size)
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=args.rollouts, random_state=rng)
    state = game.new_initial_state()
    out = sys.stdout
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "uci":
            out.write("id name OpenSpiel MCTSBot\nuciok\n")
        elif command == "isready":
            out.write("readyok\n")
        elif command == "position":
            if words[1] == "startpos":
                state, rest = game.new_initial_state(), words[2:]
            else:
                end = words.index("moves") if "moves" in words else len(words)
                state, rest = hex_from_rows(game, " ".join(words[2:end]), args.size), words[end:]
            for text in rest[1:]:
                state.apply_action(action_of(state, text))
        elif command == "go":
            budget = dict(zip(words[1::2], words[2::2]))
            action = think(game, state, evaluator, rng, args.uct_c, budget)
            out.write(f"bestmove {state.action_to_string(state.current_player(), action)}\n")
        elif command == "quit":
            return
        out.flush()


class Pace:
    """Simulations per second of this machine, as measured on the moves so far: MCTSBot
    runs a fixed number of simulations, so ``go movetime`` is turned into a count that
    should fill the time. The first move measures a slice of 16 simulations first."""

    def __init__(self) -> None:
        self.rate: float | None = None

    def simulations(self, game: object, state: object, evaluator: object, rng: object,
                    uct_c: float, seconds: float) -> int:
        if self.rate is None:
            started = time.perf_counter()
            mcts.MCTSBot(game, uct_c, 16, evaluator, solve=True, random_state=rng).mcts_search(state)
            self.rate = 16 / max(time.perf_counter() - started, 1e-6)
            seconds -= time.perf_counter() - started
        return max(16, int(self.rate * max(seconds, 0.0) * 0.9))

    def measured(self, simulations: int, seconds: float) -> None:
        observed = simulations / max(seconds, 1e-6)
        self.rate = observed if self.rate is None else (self.rate + observed) / 2


PACE = Pace()


def think(game: object, state: object, evaluator: object, rng: object, uct_c: float,
          budget: dict[str, str]) -> int:
    if "nodes" in budget:
        bot = mcts.MCTSBot(game, uct_c, int(budget["nodes"]), evaluator, solve=True, random_state=rng)
        return bot.step(state)
    count = PACE.simulations(game, state, evaluator, rng, uct_c, int(budget.get("movetime", "1000")) / 1000)
    searching = time.perf_counter()
    bot = mcts.MCTSBot(game, uct_c, count, evaluator, solve=True, random_state=rng)
    action = bot.step(state)
    PACE.measured(count, time.perf_counter() - searching)
    return action


if __name__ == "__main__":
    main()
