"""OpenSpiel's MCTSBot behind the UCI protocol, so that `perfectplay match` can play it.

Run with the Python of a separate venv that has OpenSpiel (not a perfectplay dependency):

    python3 -m venv .venv-openspiel && .venv-openspiel/bin/pip install open_spiel==2.0.2
    perfectplay match hex --size 7 --first mcts --time 1 --opening-plies 0 \\
        --second "uci=.venv-openspiel/bin/python benchmarks/openspiel_uci.py hex 7"

Arguments: GAME (hex or othello) and SIZE (Hex; Othello is 8x8 in OpenSpiel), then
optionally --uct-c C (default 2, OpenSpiel's example), --rollouts R (default 1), --log FILE
(each move's seconds from ``go`` to ``bestmove`` and its simulations, for checking the
clock) and --check (see ``check``). ``go nodes N`` is OpenSpiel's own ``MCTSBot`` search
of N simulations. ``go movetime MS`` runs the same search one simulation at a time and
stops on this process's clock (``timed_search``): MCTSBot itself has no clock.

Positions: ``position startpos moves m1 m2 ...`` in perfectplay's notation (a1, pass); a Hex
``position fen ROWS`` is rebuilt by placing the stones in alternation, an Othello one by
finding a line of play from the start that reaches it (short openings only). This file imports
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


def othello_from_rows(game: object, text: str) -> object:
    """The OpenSpiel state for perfectplay's Othello position (rows from row 1, ``B`` black,
    ``W`` white, then the side to move), found by trying every line of play from the start
    with as many moves as the board has new discs: OpenSpiel cannot be given a board."""
    board, side = text.split()
    target = (board.upper(), side.upper())
    depth = sum(mark in "BW" for mark in target[0]) - 4
    if depth > 8:
        raise SystemExit(f"openspiel_uci: {text!r} is too far from the start to replay")
    found = replay_to(game.new_initial_state(), target, depth)
    if found is None:
        raise SystemExit(f"openspiel_uci: no line of {depth} moves reaches {text!r}")
    return found


def replay_to(state: object, target: tuple[str, str], depth: int) -> object | None:
    if depth == 0:
        return state if othello_rows(state) == target else None
    for action in state.legal_actions():
        following = state.child(action)
        found = replay_to(following, target, depth - 1 if action != PASS else depth)
        if found is not None:
            return found
    return None


PASS = 64  # OpenSpiel's Othello action for a pass (not reached in short openings)


def othello_rows(state: object) -> tuple[str, str]:
    """OpenSpiel's Othello board in perfectplay's notation: its text shows rows 1 to 8 with
    ``x`` black, ``o`` white and ``-`` empty between two lines of column letters."""
    lines = str(state).splitlines()
    rows = ["".join(line.split()[1:9]).replace("x", "B").replace("o", "W").replace("-", ".")
            for line in lines[2:10]]
    return "/".join(rows), "B" if lines[0].startswith("Black") else "W"


def over_and_passing(state: object, text: str) -> bool:
    """Whether ``text`` is a pass after OpenSpiel's game ended. OpenSpiel's Othello ends as
    soon as neither side can move; perfectplay's ends after two passes in a row, so it may
    ask for (and send) passes that OpenSpiel has no state for."""
    return state.is_terminal() and text.lower() == "pass"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("game")
    parser.add_argument("size", type=int, nargs="?", default=8)
    parser.add_argument("--uct-c", type=float, default=2.0)
    parser.add_argument("--rollouts", type=int, default=1)
    parser.add_argument("--log", help="append each move's seconds (from `go` to `bestmove`) "
                        "and simulations to this file")
    parser.add_argument("--check", action="store_true",
                        help="compare the timed loop's tree with MCTSBot.mcts_search and exit")
    args = parser.parse_args()
    if args.check:
        check(args.game, args.size)
    log = open(args.log, "a") if args.log else None  # noqa: SIM115 - open for the whole run
    game = load(args.game, args.size)
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=args.rollouts, random_state=rng)
    state = game.new_initial_state()
    out = sys.stdout
    for line in sys.stdin:
        received = time.perf_counter()
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
                rows = " ".join(words[2:end])
                state = (hex_from_rows(game, rows, args.size) if args.game == "hex"
                         else othello_from_rows(game, rows))
                rest = words[end:]
            for text in rest[1:]:
                if not over_and_passing(state, text):
                    state.apply_action(action_of(state, text))
        elif command == "go":
            budget = dict(zip(words[1::2], words[2::2], strict=False))
            if state.is_terminal():
                out.write("bestmove pass\n")
            else:
                action = think(game, state, evaluator, rng, args.uct_c, budget, received, log)
                out.write(f"bestmove {state.action_to_string(state.current_player(), action)}\n")
        elif command == "quit":
            return
        out.flush()


def think(game: object, state: object, evaluator: object, rng: object, uct_c: float,
          budget: dict[str, str], started: float, log: object) -> int:
    """The move for ``go nodes N`` (OpenSpiel's own ``mcts_search`` and ``best_child``, as
    ``MCTSBot.step`` runs them) or ``go movetime MS`` (the timed search below); ``started``
    is when the ``go`` line arrived."""
    bot = mcts.MCTSBot(game, uct_c, int(budget.get("nodes", "1")), evaluator, solve=True,
                       random_state=rng)
    if "nodes" in budget:
        root = bot.mcts_search(state)
    else:
        root = timed_search(bot, state, started + int(budget.get("movetime", "1000")) / 1000)
    if log is not None:
        log.write(f"{time.perf_counter() - started:.4f} {root.explore_count}\n")
        log.flush()
    return root.best_child().action


def timed_search(bot: object, state: object, deadline: float) -> object:
    """OpenSpiel's MCTS, one simulation at a time, until the clock passes ``deadline``.

    ``MCTSBot`` has no clock: ``mcts_search`` runs ``max_simulations`` and keeps its tree
    to itself. This loop keeps the root here instead and reads the clock after every
    simulation. Selection, expansion and the random playout are OpenSpiel's own
    (``_apply_tree_policy`` and the bot's evaluator); the backup is written here for
    two-player games without chance, and ``check`` shows it builds the same tree as
    ``mcts_search`` from the same seeds. At least two simulations run, so the root has
    children to choose from; a proved root stops early, as in ``mcts_search``."""
    root = mcts.SearchNode(None, state.current_player(), 1)
    while root.outcome is None:
        simulate(bot, root, state)
        if root.explore_count >= 2 and time.perf_counter() >= deadline:
            break
    return root


def counted_search(bot: object, state: object, simulations: int) -> object:
    """``timed_search`` with a count instead of a clock, for ``check``."""
    root = mcts.SearchNode(None, state.current_player(), 1)
    while root.outcome is None and root.explore_count < simulations:
        simulate(bot, root, state)
    return root


def simulate(bot: object, root: object, state: object) -> None:
    """One simulation: descend and expand by OpenSpiel's tree policy, evaluate the leaf
    (its result if the game is over, a random playout otherwise), then add the result to
    every node on the path, each from the side of the player whose move led to it."""
    path, leaf = bot._apply_tree_policy(root, state)
    if leaf.is_terminal():
        results = leaf.returns()
        path[-1].outcome = results
        proving = bot.solve
    else:
        results = bot.evaluator.evaluate(leaf)
        proving = False
    for node in reversed(path):
        node.explore_count += 1
        node.total_reward += results[node.player]
        if proving and node.children:
            proving = settle(node, bot.max_utility)


def settle(node: object, max_utility: float) -> bool:
    """MCTS-Solver's step (Winands, Bjornsson and Saito 2008): ``node`` is proved when its
    mover has a proved child worth the most the game pays, or when every child is proved
    (it is then worth the best of them to its mover). Says whether it was proved."""
    mover = node.children[0].player
    best = None
    for child in node.children:
        if child.outcome is not None and (best is None or child.outcome[mover] > best.outcome[mover]):
            best = child
    if best is None:
        return False
    if best.outcome[mover] == max_utility or all(child.outcome is not None for child in node.children):
        node.outcome = best.outcome
        return True
    return False


def check(game_name: str, size: int) -> None:
    """Prints whether the timed loop's tree agrees with ``MCTSBot.mcts_search`` from the
    same seeds, simulation for simulation, on early positions and on late ones where the
    solver proves moves (exit 1 if not)."""
    game = load(game_name, size)
    agreed = True
    for ply, state in positions_to_check(game):
        for simulations in (50, 400):
            trees = []
            for own_loop in (False, True):
                rng = np.random.RandomState(ply * 1000 + simulations)
                evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
                bot = mcts.MCTSBot(game, 2.0, simulations, evaluator, solve=True, random_state=rng)
                root = counted_search(bot, state, simulations) if own_loop else bot.mcts_search(state)
                trees.append((root.explore_count, root.outcome,
                              [(c.action, c.explore_count, round(c.total_reward, 6), c.outcome)
                               for c in root.children]))
            same = trees[0] == trees[1]
            agreed &= same
            proved = sum(c[3] is not None for c in trees[0][2])
            print(f"{game_name} ply {ply}, {simulations} simulations: {trees[0][0]} run, "
                  f"{proved} moves proved: {'same tree' if same else 'DIFFERENT'}")
    raise SystemExit(0 if agreed else 1)


def positions_to_check(game: object) -> list[tuple[int, object]]:
    """The first six plies of one line, then positions 8 and 4 moves before its end."""
    line = [game.new_initial_state()]
    while not line[-1].is_terminal():
        following = line[-1].clone()
        legal = following.legal_actions()
        following.apply_action(legal[(len(line) * 7) % len(legal)])
        line.append(following)
    chosen = list(range(6)) + [len(line) - 9, len(line) - 5]
    return [(ply, line[ply]) for ply in chosen]


if __name__ == "__main__":
    main()
