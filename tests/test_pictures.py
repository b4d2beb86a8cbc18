"""Pictures: the game tree with alpha-beta's pruning, and the growth chart file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from perfectplay import analyze, registry
from perfectplay import value as V
from perfectplay.pictures.growth import measure
from perfectplay.pictures.plot import plot_growth
from perfectplay.pictures.tree import build_tree


def test_tree_values_agree_with_analyze_and_alphabeta_searches_the_first_move_fully() -> None:
    game, position = registry.load("tictactoe", {}, "X........")
    tree, nodes = build_tree(game, position, 2)
    expected = {move.notation: move.value for move in analyze(game, position)}
    # A child's value is for its own mover and counts plies from the child: negate, add a ply.
    assert {child.move: V.from_table(-child.value, 1) for child in tree.children} == expected
    first = tree.children[0]
    assert all(grandchild.searched for grandchild in first.children)
    pruned = [g for child in tree.children for g in child.children if not g.searched]
    assert pruned  # after the first move sets the window, refutations cut the rest short
    # Each later move that loses for O is refuted by one X reply: all its other replies pruned.
    for child in tree.children[1:]:
        if -child.value < 0:
            assert sum(g.searched for g in child.children) == 1
    assert nodes > 0


def test_tree_command_writes_an_svg(cli: Any, tmp_path: Path) -> None:
    out = tmp_path / "tree.svg"
    done = cli("tree", "tictactoe", "X........", "--depth", "2", "--svg", str(out))
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert text.startswith("<svg") and text.count('class="pruned"') == text.count("<line") - text.count(
        'class="searched"')
    assert 'class="pruned"' in text


def test_tree_command_refuses_a_tree_too_big_to_draw(cli: Any, tmp_path: Path) -> None:
    done = cli("tree", "tictactoe", "--depth", "6", "--svg", str(tmp_path / "t.svg"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--depth" in done.stderr


def test_growth_measures_the_take_away_call_counts_and_plots_it(tmp_path: Path) -> None:
    growth = measure("takeaway", list(range(1, 21)), ["minimax", "memo"])
    assert growth.nodes["minimax"][-1] == 266_079 and growth.nodes["memo"][-1] == 58
    assert growth.values[3] == "loss in 2"  # 4 sticks lose (multiples of four lose)
    out = tmp_path / "growth.png"
    plot_growth(growth, str(out))
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_growth_stops_a_curve_at_the_node_cap() -> None:
    growth = measure("takeaway", list(range(10, 20)), ["minimax", "memo"], node_cap=5_000)
    counts = growth.nodes["minimax"]
    assert counts[0] is not None and counts[-1] is None
    assert all(count is None for count in counts[counts.index(None):])
    assert None not in growth.nodes["memo"]


def test_compare_plot_writes_the_growth_chart(cli: Any, tmp_path: Path) -> None:
    out = tmp_path / "growth.png"
    done = cli("compare", "takeaway", "1..12", "--plot", str(out))
    assert done.returncode == 0, done.stderr
    assert "memo: 10:28 11:31 12:34" in done.stdout and out.read_bytes()[:4] == b"\x89PNG"
    svg = tmp_path / "growth.svg"
    assert cli("compare", "nim", "1..6", "--plot", str(svg), "--algorithms", "memo,tt").returncode == 0
    assert svg.read_text().lstrip().startswith("<?xml")


def test_compare_plot_refuses_bad_requests_in_one_line(cli: Any, tmp_path: Path) -> None:
    for args in (["takeaway", "1..12", "--plot", str(tmp_path / "g.txt")],
                 ["tictactoe", "1..3", "--plot", str(tmp_path / "g.png")],
                 ["takeaway", "12..1", "--plot", str(tmp_path / "g.png")],
                 ["takeaway", "1..5", "--plot", str(tmp_path / "g.png"), "--node-cap", "0"]):
        done = cli("compare", *args)
        assert done.returncode == 2 and done.stderr.count("\n") == 1, (args, done.stderr)
