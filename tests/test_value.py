"""Integer values: distance folded in, rebased through tables, described for people."""

from __future__ import annotations

from perfectplay import value as V


def test_nearer_wins_and_later_losses_are_larger() -> None:
    assert V.win_in(3) > V.win_in(5) > 0 > V.loss_in(5) > V.loss_in(3)


def test_table_rebasing_round_trips_and_makes_values_path_independent() -> None:
    # A win 7 plies from the root found at ply 4 is a win in 3 from that node.
    stored = V.to_table(V.win_in(7), 4)
    assert stored == V.win_in(3)
    assert V.from_table(stored, 2) == V.win_in(5)
    assert V.from_table(V.to_table(V.loss_in(9), 6), 6) == V.loss_in(9)
    assert V.to_table(42, 5) == 42


def test_descriptions() -> None:
    assert V.describe(V.win_in(7)) == "win in 7"
    assert V.describe(V.loss_in(4)) == "loss in 4"
    assert V.describe(0) == "draw"
    assert V.describe(11, score_game=True) == "+11"
    assert V.remoteness(V.loss_in(4)) == 4
