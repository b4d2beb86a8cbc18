"""Every method answers with a Solution that keeps its moves as moves (``best``, ``line``) and
the position solved (``root``); the notation (``best_moves``, ``pv``) is those moves written
by the game, once, by ``Solution.of``, the one way a Solution is built."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from perfectplay.games.chess.rules import Chess
from perfectplay.games.dodgem import Dodgem
from perfectplay.games.nim import Nim
from perfectplay.games.tictactoe.rules import TicTacToe
from perfectplay.search.limits import Limits
from perfectplay.search.results import Solution, line_notation
from perfectplay.solving import solve

SOURCE = Path(__file__).resolve().parents[1] / "src" / "perfectplay"
TTT = TicTacToe()


def _written_from_its_moves(game: Any, solution: Solution) -> None:
    root = solution.root
    legal = list(game.moves(root))
    assert solution.best and all(move in legal for move in solution.best)
    assert solution.best_moves == [game.format_move(root, move) for move in solution.best]
    assert solution.pv == line_notation(game, root, solution.line)
    assert solution.position == game.format_position(root) and solution.game == game.name


@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta", "tt", "id", "pns", "mcts"])
def test_every_search_keeps_the_moves_it_names(algorithm: str) -> None:
    position = TTT.parse_position("X.O/.X./O..")
    limits = Limits(nodes=20_000) if algorithm == "mcts" else None
    solution = solve(TTT, position, algorithm=algorithm, limits=limits)
    _written_from_its_moves(TTT, solution)
    assert solution.line[0] in solution.best or algorithm == "mcts"


def test_the_compiled_kernel_the_engine_and_retrograde_keep_their_moves() -> None:
    position = TTT.parse_position("X.O/.X./O..")
    _written_from_its_moves(TTT, solve(TTT, position, engine="compiled"))
    _written_from_its_moves(TTT, solve(TTT, position, algorithm="engine", limits=Limits(depth=3)))
    dodgem = Dodgem()
    _written_from_its_moves(dodgem, solve(dodgem, dodgem.start()))


def test_theory_and_the_mate_search_keep_the_game_moves_they_write() -> None:
    nim = Nim()
    theory = solve(nim, (3, 4, 5))
    assert theory.algorithm == "grundy" and theory.best
    assert [nim.format_move(theory.root, move) for move in theory.best] == theory.best_moves
    chess = Chess()
    start = chess.parse_position("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1")
    mate = solve(chess, start, mate=2)
    _written_from_its_moves(chess, mate)
    assert len(mate.line) == 3 and mate.as_dict()["line"] == mate.pv


def test_a_solution_is_built_only_by_its_one_constructor() -> None:
    calls = []
    for path in sorted(SOURCE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id.endswith("Solution"):
                calls.append(f"{path.relative_to(SOURCE)}:{node.lineno}")
    assert calls == []
