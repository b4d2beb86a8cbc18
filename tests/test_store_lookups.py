"""Answers from a database (one query for a position and its children) equal the search's
on random positions: values, optimal moves and every move's value."""

from __future__ import annotations

import random

import pytest

import perfectplay
from perfectplay import registry
from perfectplay.store.build import build


@pytest.fixture(scope="module")
def c43(tmp_path_factory):
    game, root = registry.load("connect4", {"width": 4, "height": 3})
    path = tmp_path_factory.mktemp("lookups") / "c43.db"
    build(game, root, path)
    return game, str(path)


def _random_positions(game, count, seed):
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        position = game.start()
        for _ in range(rng.randrange(12)):
            if game.outcome(position) is not None:
                break
            position = game.play(position, rng.choice(game.legal_moves(position)))
        positions.append(position)
    return positions


def test_solve_and_analyze_from_the_database_equal_the_search_on_random_positions(c43):
    game, path = c43
    for position in _random_positions(game, 25, seed=5):
        stored = perfectplay.solve(game, position, database=path, pv_limit=0)
        searched = perfectplay.solve(game, position, pv_limit=0)
        assert stored.algorithm == "database"
        assert (stored.value, sorted(stored.best_moves)) == (searched.value, sorted(searched.best_moves))
        from_file = perfectplay.analyze(game, position, database=path)
        by_search = perfectplay.analyze(game, position)
        assert sorted((mv.move, mv.value) for mv in from_file) == \
            sorted((mv.move, mv.value) for mv in by_search)


def test_lookup_many_equals_the_solved_values(c43):
    game, path = c43
    positions = _random_positions(game, 200, seed=6)
    values = perfectplay.lookup_many(game, positions, database=path)
    for position, value in zip(positions[:20], values, strict=False):
        assert value == perfectplay.solve(game, position, pv_limit=0).value
    assert values == [perfectplay.lookup(game, p, database=path) for p in positions]


def test_a_stored_position_is_answered_before_any_method_is_chosen(c43, monkeypatch):
    from perfectplay import solving
    from perfectplay.errors import BadOption, UnsupportedSearch

    game, path = c43
    position = _random_positions(game, 1, seed=7)[0]
    searched = perfectplay.solve(game, position, pv_limit=0)

    def no_choosing(*_):
        raise AssertionError("a stored position went through the choice of a method")

    monkeypatch.setattr(solving, "choose", no_choosing)
    stored = perfectplay.solve(game, position, database=path, pv_limit=0)
    assert (stored.algorithm, stored.value) == ("database", searched.value)
    assert perfectplay.analyze(game, position, database=path)[0].value == searched.value
    monkeypatch.undo()
    # What the database cannot answer still goes the long way, which says what is wrong.
    with pytest.raises(BadOption, match="--db"):
        perfectplay.solve(game, position, database=path, mate=3)
    with pytest.raises(UnsupportedSearch, match="unknown engine 'gpu'"):
        perfectplay.solve(game, position, database=path, engine="gpu")


def test_a_line_from_the_database_is_an_optimal_line(c43):
    # Each move of the line keeps the value: the position after it is worth, to the other
    # player, the negation one ply nearer the end (perfectplay.value.to_table).
    from perfectplay import value as V

    game, path = c43
    for position in _random_positions(game, 10, seed=8):
        solution = perfectplay.solve(game, position, database=path)
        node, expected = position, solution.value
        for move in solution.line:
            node = game.play(node, move)
            expected = -int(V.to_table(expected, 1))
            assert perfectplay.lookup(game, node, database=path) == expected
        assert game.outcome(node) is not None
