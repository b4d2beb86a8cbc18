"""Kalah's opening book: a small board's book built by the same code as Kalah(6,4)'s
(games/kalah/book_build.py: the kernel with an endgame database) against Python's ``tt``
search, a damaged book refused in one line, and the perfect level answering from the book
and proving past it without ever giving value away."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from perfectplay import analyze
from perfectplay.games.kalah import book as kalah_book
from perfectplay.games.kalah.book import BookError, Entry, lookup, position_key, read
from perfectplay.games.kalah.book_build import build, faced, load, save, to_text
from perfectplay.games.kalah.rules import Kalah

pytestmark = pytest.mark.skipif(
    not __import__("perfectplay.compiled", fromlist=["x"]).numba_available(),
    reason="numba is not installed")


@pytest.fixture
def small_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Both rules' endgame databases of Kalah(4,*) up to 6 seeds, where the kernel looks,
    and no searcher kept from another test (it would hold another database)."""
    from perfectplay.games.kalah import kernel_method
    from perfectplay.games.kalah.endgame import build as build_database
    from perfectplay.games.kalah.files import DIRECTORY_VARIABLE, path_for
    monkeypatch.setenv(DIRECTORY_VARIABLE, str(tmp_path))
    monkeypatch.setattr(kernel_method, "_SEARCHERS", {})
    for empty_capture in (True, False):
        build_database(path_for(4, empty_capture), 4, empty_capture, 6)
    return tmp_path


@pytest.mark.parametrize("empty_capture", [True, False])
def test_a_small_boards_book_agrees_with_python_tt(small_database: Path,
                                                   empty_capture: bool) -> None:
    game = Kalah(4, 3, empty_capture=empty_capture)
    board = build(game, 3, {})
    assert board.complete_plies == 3
    assert len(board.positions) > 5
    start = board.positions[position_key(game, game.start())]
    if empty_capture:
        assert start == Entry(8, (2,))  # Kalah(4,3): +8, the registry's figure
    faced_positions = [position for _, position in faced(game, 3, lambda _, p: lookup(
        game, p, {"4x3-" + ("empty" if empty_capture else "standard"): board}) or Entry(0, ()))]
    assert len({position_key(game, p) for p in faced_positions}) == len(board.positions)
    for position in faced_positions:
        moves = analyze(game, position, algorithm="tt", engine="python")
        best = max(move.value for move in moves)
        entry = board.positions[position_key(game, position)]
        assert entry.value == best, game.format_position(position)
        assert set(entry.best) == {move.move for move in moves if move.value == best}


def test_a_book_survives_its_file_and_a_restart_keeps_its_entries(small_database: Path,
                                                                  tmp_path: Path) -> None:
    game = Kalah(4, 3)
    path = tmp_path / "book.json"
    first = {"4x3-empty": build(game, 2, {})}
    save(path, first)
    assert load(path) == first
    heard: list[str] = []
    second = build(game, 3, load(path), lambda proved: heard.append(proved.key))
    assert set(first["4x3-empty"].positions) <= set(second.positions)
    assert not set(heard) & set(first["4x3-empty"].positions)  # kept, not searched again
    assert set(heard) == set(second.positions) - set(first["4x3-empty"].positions)


@pytest.mark.parametrize("text", ['{"boards": {"6x4-empty": {"positions": {}}}}',
                                  '{"boards": {"6x4-empty": {"complete_plies": 1, "positions": '
                                  '{"4 4 4 4 4 4 / 4 4 4 4 4 4": {"value": "ten", "best": [3]}}}}}',
                                  '{"boards": {"6x4-empty": {"complete_plies": 1, "positions": '
                                  '{"4 4 4 4 4 4 / 4 4 4 4 4 4": {"value": 10, "best": []}}}}}',
                                  '{"boards": [1, 2', ''])
def test_a_damaged_book_file_is_refused_in_one_line(text: str) -> None:
    with pytest.raises(BookError, match="opening book somewhere.json is damaged") as caught:
        read(text, "somewhere.json")
    assert "\n" not in str(caught.value)


def test_a_book_entry_naming_an_impossible_move_is_refused_in_one_line() -> None:
    game = Kalah(6, 4)
    key = position_key(game, game.start())
    for entry in (Entry(10, (7,)), Entry(49, (3,))):
        book = {"6x4-empty": kalah_book.Board(1, {key: entry})}
        with pytest.raises(BookError, match=r"entry for '4 4 4 4 4 4 0 / 4 4 4 4 4 4 0 S' is damaged"):
            lookup(game, game.start(), book)


def test_the_shipped_book_reads_and_holds_kalah_6_4s_start() -> None:
    kalah_book._shipped.cache_clear()
    for empty_capture, value in ((True, 10), (False, 8)):  # Irving et al.; docs/extra_turns.md
        game = Kalah(6, 4, empty_capture=empty_capture)
        entry = lookup(game, game.start())
        assert entry is not None and (entry.value, entry.best) == (value, (3,))


def test_the_perfect_level_answers_from_the_book_and_never_gives_value_away(
        small_database: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from perfectplay.games.kalah import kernel_method
    from perfectplay.play.analyst import Analyst
    game = Kalah(4, 3)
    book = {"4x3-empty": build(game, 3, {})}
    booked = set(book["4x3-empty"].positions)
    monkeypatch.setattr(kalah_book, "_shipped", lambda: book)
    monkeypatch.setattr(kernel_method, "_SEARCHERS", {})
    from perfectplay.deciding import prove
    answered = prove(game, game.start())
    assert (answered.value, answered.best, answered.stats.nodes) == (8, [2], 0)  # no search
    rng = random.Random(7)
    for computer in (0, 1):
        analyst = Analyst(game, think_time=5.0)
        position = game.start()
        while game.legal_moves(position):
            if position[1] == computer:
                found = analyst.best_moves(position)
                assert found.exact
                moves = analyze(game, position, algorithm="tt", engine="python")
                best = max(move.value for move in moves)
                worth = {move.move: move.value for move in moves}
                assert all(worth[move.move] == best == move.value for move in found.moves)
                if position_key(game, position) in booked:
                    assert {move.move for move in found.moves} == set(
                        book["4x3-empty"].positions[position_key(game, position)].best)
                pit = found.moves[0].move
            else:
                pit = rng.choice(game.legal_moves(position))
            position = game.play(position, pit)


def test_the_books_file_text_reads_back() -> None:
    book = {"3x2-empty": kalah_book.Board(2, {"2 2 2 / 2 2 2": Entry(4, (2,)),
                                              "3 2 2 / 2 2 0": Entry(1, (2, 1))})}
    assert read(to_text(book), "here") == book
    assert read(to_text({}), "here") == {}


@pytest.mark.parametrize(("capture", "first_moves"), [
    ("empty", {3: 10, 6: 4, 4: -2, 5: -6, 2: -8, 1: -14}),
    ("standard", {3: 8, 6: 4, 4: -2, 5: -8, 2: -10, 1: -14})])
def test_without_a_database_the_6_4_start_is_answered_by_the_book(tmp_path: Path, monkeypatch,
                                                                   capture: str,
                                                                   first_moves: dict) -> None:
    """solve and analyze of (6,4)'s start answer at once from the book (the search would take
    hours without the endgame database); every first move's value, from the book's ply-1
    entries, is the one benchmarks/kalah_solve.py's searches found (docs/extra_turns.md)."""
    from perfectplay import registry, solve
    from perfectplay.games.kalah.files import DIRECTORY_VARIABLE
    monkeypatch.setenv(DIRECTORY_VARIABLE, str(tmp_path))
    game, start = registry.load("kalah", {"capture": capture})
    assert not game.searchable(start) and game.solvable(start)
    solution = solve(game, start, engine="compiled")
    assert solution.value == first_moves[3] and solution.best_moves == ["3"]
    assert {move.move: move.value for move in analyze(game, start, engine="compiled")} == first_moves
