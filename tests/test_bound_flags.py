"""The bound flags of every table and kernel are one definition, perfectplay.value's (as
Stockfish's Bound: EXACT = LOWER | UPPER): no module defines its own, and every module that
uses them imports them from there."""

from __future__ import annotations

import ast
from pathlib import Path

from perfectplay import value as V

SOURCE = Path(__file__).resolve().parents[1] / "src" / "perfectplay"
FLAGS = {"LOWER", "UPPER", "EXACT"}
HOME = SOURCE / "value.py"


def _assigned(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else []
        for target in targets:
            for leaf in ast.walk(target):
                if isinstance(leaf, ast.Name) and leaf.id in FLAGS:
                    names.add(leaf.id)
    return names


def _imported_from_elsewhere(tree: ast.AST) -> set[str]:
    return {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
            and node.module != "perfectplay.value" for alias in node.names if alias.name in FLAGS}


def test_exact_is_both_bounds_and_they_fit_two_bits() -> None:
    assert (V.LOWER, V.UPPER, V.EXACT) == (1, 2, 3) and V.EXACT == V.LOWER | V.UPPER


def test_no_module_but_value_defines_or_reexports_a_bound_flag() -> None:
    defining, borrowing = [], []
    for path in sorted(SOURCE.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        if path != HOME and _assigned(tree):
            defining.append(str(path.relative_to(SOURCE)))
        if _imported_from_elsewhere(tree):
            borrowing.append(str(path.relative_to(SOURCE)))
    assert (defining, borrowing) == ([], [])


def test_the_kernels_read_the_one_definition() -> None:
    from perfectplay.engine import search as engine_search
    from perfectplay.games.connect4 import kernel, python_negamax
    from perfectplay.search import tt
    # (Kalah's kernel keeps a lower and an upper bound an entry, with no flag to define.)
    for module in (engine_search, kernel, python_negamax, tt):
        assert (module.LOWER, module.UPPER, module.EXACT) == (V.LOWER, V.UPPER, V.EXACT), module
