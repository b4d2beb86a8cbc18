"""Every built-in game played to the end, through the library (perfectplay.finish), through
play's session and its words, and through the web page's answer (describe): the final score
and the winner agree with a count of the game's own (discs on the board, seeds in the
stores, boxes taken, values taken from the row, whose chain joins its edges), and every
position shown parses back to the same position."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from conftest import run_main

from perfectplay import analyze, finish, registry, solve
from perfectplay import value as V
from perfectplay.game import Game
from perfectplay.play.session import Session
from perfectplay.play.talk import result_lines
from perfectplay.web.positions import describe

# Options small enough that a whole game, and a solve of a score game's start, take
# milliseconds; chess starts from a king-and-queen ending its tables mate from.
OPTIONS: dict[str, dict[str, Any]] = {
    "othello": {"size": 4}, "kalah": {"pits": 3, "seeds": 2}, "dots": {"width": 2, "height": 2},
    "hex": {"size": 3}, "connect4": {"width": 5, "height": 4},
}
STARTS = {"chess": "k7/8/1K6/8/8/8/8/6Q1 w - - 0 1"}
# Past this many plies a game that has not ended fails the test (loopy games end because
# the side that can win plays its best move, which hurries, and the loser delays).
MOST_PLIES = 400


def loaded(name: str) -> tuple[Game[Any, Any], Any]:
    return registry.resolve(name, OPTIONS.get(name, {})).load(STARTS.get(name))


def names() -> list[str]:
    return [entry.name for entry in registry.entries()]


def chooser(game: Game[Any, Any], rng: random.Random) -> Callable[[Any], Any]:
    """Random moves; in chess and in loopy games, a best move wherever one side can force a
    win (an exact answer, from the tables or retrograde analysis), so the game ends."""
    exact_first = game.properties.loopy or game.properties.too_big_to_solve

    def choose(position: Any) -> Any:
        if exact_first:
            valued = analyze(game, position)
            if valued and valued[0].exact and V.is_decisive(valued[0].value):
                return valued[0].move
        return rng.choice(list(game.moves(position)))
    return choose


def random_game(game: Game[Any, Any], start: Any, seed: int) -> list[Any]:
    """The moves of one game played to its end from ``start``."""
    choose, position, played = chooser(game, random.Random(seed)), start, []
    while not finish.is_over(game, position):
        assert len(played) < MOST_PLIES, f"{game.name} did not end in {MOST_PLIES} plies"
        move = choose(position)
        played.append(move)
        position = game.play(position, move)
    return played


def positions_of(game: Game[Any, Any], start: Any, played: list[Any]) -> list[Any]:
    found = [start]
    for move in played:
        found.append(game.play(found[-1], move))
    return found


def assert_parses_back(game: Game[Any, Any], position: Any) -> None:
    text = game.format_position(position)
    again = game.parse_position(text)
    same = again == position or game.key(again) == game.key(position)
    # An emptied row (crates, coins) is '' whichever end it was emptied from: over either way.
    emptied = game.format_position(again) == text and not list(game.moves(again)) \
        and not list(game.moves(position))
    assert same or emptied, f"{game.name}: {text!r} parses to {game.format_position(again)!r}"


# -- the game's own count, independent of finish.py and of gain ---------------------------

@dataclass(frozen=True)
class Count:
    """Who won (a side, 0 the first to move from the start; None a draw) and the final
    points of side 0 and side 1 (score games)."""

    winner: int | None
    scores: tuple[int, int] | None


def own_count(game: Game[Any, Any], start: Any, played: list[Any]) -> Count:
    positions = positions_of(game, start, played)
    end = positions[-1]
    name = game.name
    if name == "othello":
        black, white = (sum(row.count(mark) for row in game.rows(end)) for mark in "BW")
        empty = game.size ** 2 - black - white  # to the winner, half each in a draw
        black, white = (black + empty, white) if black > white else \
            (black, white + empty) if white > black else (black + empty // 2, white + empty // 2)
        return by_points((black, white) if start[2] else (white, black))
    if name == "kalah":
        south, north = game.stores(end)
        return by_points((south, north) if start[1] == 0 else (north, south))
    if name == "dots":
        a, b = end[2][0] - start[2][0], end[2][1] - start[2][1]
        return by_points((a, b) if start[1] == 0 else (b, a))
    if name in ("crates", "coins"):
        taken = [0, 0]
        for ply, (before, after) in enumerate(zip(positions, positions[1:], strict=False)):
            taken[ply % 2] += sum(game.values[before[0]:after[0]]) + sum(game.values[after[1]:before[1]])
        return by_points((taken[0], taken[1]))
    if name == "hex":
        mark = game.winner(end)
        assert mark is not None
        first = "X" if game.x_to_move(start) else "O"
        return Count(0 if mark == first else 1, None)
    return Count(by_parity(game, end, len(played)), None)


def by_points(scores: tuple[int, int]) -> Count:
    winner = None if scores[0] == scores[1] else 0 if scores[0] > scores[1] else 1
    return Count(winner, scores)


def by_parity(game: Game[Any, Any], end: Any, plies: int) -> int | None:
    """No extra turns in these games: the side to move at the end is the plies' parity; a
    rule's outcome is for it, no move left loses (wins under misère play)."""
    mover = plies % 2
    result = finish.final_outcome(game, end)
    if result.value == 0:
        return None
    return mover if result.value > 0 else 1 - mover


# -- through the library, play and the web --------------------------------------------------

@pytest.mark.parametrize("name", names())
def test_a_random_game_ends_with_the_games_own_count_everywhere(name: str) -> None:
    game, start = loaded(name)
    played = random_game(game, start, seed=sum(map(ord, name)))
    expected = own_count(game, start, played)
    for position in positions_of(game, start, played):
        assert_parses_back(game, position)

    ended = finish.ending(game, start, played)
    assert (ended.winner, ended.scores) == (expected.winner, expected.scores)

    session = Session(game, start)
    for move in played:
        session.play(move)
    result = session.result()
    assert result is not None and (result.winner, result.scores) == (expected.winner, expected.scores)
    lines = result_lines(result, ("A", "B"), ("A", "B"))
    if expected.scores is not None:
        assert lines[0] == f"Final score: A {expected.scores[0]}, B {expected.scores[1]}."

    shown = describe(name, game, start, played, session.position, None)
    assert shown["over"] and shown["result"] == ended.words
    assert shown["winner"] == expected.winner
    assert shown["final_scores"] == (None if expected.scores is None else list(expected.scores))
    for text in (shown["start"], shown["position"]):
        assert game.format_position(game.parse_position(text)) == text


@pytest.mark.parametrize("name", names())
def test_every_position_the_page_shows_on_the_way_parses_back(name: str) -> None:
    game, start = loaded(name)
    played = random_game(game, start, seed=7)
    for ply in range(0, len(played), max(1, len(played) // 6)):
        position = positions_of(game, start, played[:ply])[-1]
        shown = describe(name, game, start, played[:ply], position, None)
        for row in shown["moves"]:
            assert_parses_back(game, game.parse_position(row["position"]))
            assert game.format_position(game.parse_position(row["position"])) == row["position"]


def test_every_built_in_game_is_played_here() -> None:
    assert set(names()) >= {"othello", "kalah", "dots", "crates", "coins", "chess", "hex"}
    assert set(OPTIONS) | set(STARTS) <= set(names())


SCORE_GAMES = [name for name in names() if loaded(name)[0].properties.is_score]


@pytest.mark.parametrize("name", SCORE_GAMES)
def test_optimal_play_ends_with_the_solved_totals_and_margin(name: str) -> None:
    game, start = loaded(name)
    solution = solve(game, start)
    played = [game.parse_move(position, notation) for position, notation in
              zip(positions_of_line(game, start, solution.pv), solution.pv, strict=False)]
    expected = own_count(game, start, played)
    assert expected.scores is not None
    assert solution.totals == expected.scores
    assert expected.scores[0] - expected.scores[1] == solution.value


def positions_of_line(game: Game[Any, Any], start: Any, line: list[str]) -> list[Any]:
    found, position = [], start
    for notation in line:
        found.append(position)
        position = game.play(position, game.parse_move(position, notation))
    return found


@pytest.mark.parametrize("name", SCORE_GAMES)
def test_gains_add_up_to_the_change_in_the_margin(name: str) -> None:
    """What search adds up (gain) is the change in the game's own margin, move by move."""
    game, start = loaded(name)
    played = random_game(game, start, seed=3)
    scores = finish.scores_along(game, start, played)
    side, position = 0, start
    for move, before, after in zip(played, scores, scores[1:], strict=False):
        lead = (after[side] - after[1 - side]) - (before[side] - before[1 - side])
        assert game.gain(position, move) == lead
        side = side if finish.keeps_turn(game, position, move) else 1 - side
        position = game.play(position, move)


# -- the defects users found, one by one --------------------------------------------------

def test_the_page_names_the_winner_of_othello_4x4_by_its_count() -> None:
    game, start = loaded("othello")
    line = ["b1", "a1", "a2", "c1", "d4", "a3", "d1", "b4", "a4", "c4", "pass", "pass"]
    played = [game.parse_move(position, move) for position, move in
              zip(positions_of_line(game, start, line), line, strict=False)]
    shown = describe("othello", game, start, played, positions_of(game, start, played)[-1], None)
    assert [count["label"] for count in shown["board"]["counts"]] == ["Black 3", "White 11"]
    assert shown["result"] == "White wins 13-3"  # the two empty cells go to the winner


def test_kalah_play_prints_the_stores_as_the_final_score() -> None:
    ran = run_main("play", "kalah", "--pits", "2", "--seeds", "2", "0 1 5 / 1 1 0 S",
                   "--computer-vs-computer", "--delay", "0", "--seed", "1")
    assert ran.code == 0, ran.stderr
    assert "Final score: computer A (perfect) 6, computer B (perfect) 2." in ran.stdout
    assert "Computer A (perfect) won" in ran.stdout


def test_othello_play_prints_the_discs_as_the_final_score() -> None:
    ran = run_main("play", "othello", "--size", "4", "--computer-vs-computer", "--delay", "0",
                   "--seed", "1")
    assert ran.code == 0, ran.stderr
    assert "Final score: computer A (perfect) 3, computer B (perfect) 13." in ran.stdout
    assert "Computer B (perfect) won" in ran.stdout


def test_solve_othello_4x4_totals_are_the_final_discs() -> None:
    ran = run_main("solve", "othello", "--size", "4")
    assert "totals: mover 3 other 13" in ran.stdout


def test_a_solved_kalah_position_totals_its_stores_at_the_end() -> None:
    game, start = registry.resolve("kalah", {"pits": 2, "seeds": 2}).load("0 1 5 / 1 1 0 S")
    solution = solve(game, start)
    assert (solution.value, solution.totals) == (-1, (6, 2))


def test_othello_prints_passes_and_reads_them_back() -> None:
    game, _ = loaded("othello")
    position = game.parse_position("WWWB/WWW./WWW./BWWB W passes 1")
    assert position[3] == 1 and game.format_position(position) == "WWWB/WWW./WWW./BWWB W passes 1"
    assert [game.format_move(position, move) for move in game.moves(position)] == ["pass"]


@pytest.mark.parametrize("name", names())
def test_the_examples_of_every_games_position_help_are_read(name: str) -> None:
    """Each 'e.g. ...' of ``perfectplay games`` reads, on the default board or the size the
    example names ('with --size 4')."""
    help_text = registry.find(name).position_help
    for example, size in re.findall(r"e\.g\. '([^']*)'(?: with --size (\d+))?", help_text):
        game, _ = registry.resolve(name, {"size": int(size)} if size else {}).load()
        game.parse_position(example)


def test_a_hex_board_whose_chain_is_complete_is_over() -> None:
    game, position = registry.resolve("hex", {"size": 3}).load("XO./XO./X.O")
    assert finish.is_over(game, position)
    # X has joined top and bottom, and X is to move (as many stones as O): X has won.
    assert solve(game, position).value > 0 and solve(game, position).best_moves == []
    ran = run_main("solve", "hex", "--size", "3", "XO./XO./X.O")
    assert "the game is over" in ran.stdout


def test_a_drawn_othello_game_shares_the_empty_cells() -> None:
    game, _ = loaded("othello")
    start = game.parse_position("BW../..../..../.... B passes 2")
    assert finish.ending(game, start, []).words == "draw 8-8"
    assert game.render(start).endswith("game over: a draw 8-8")


def test_totals_need_no_line_where_the_game_says_what_is_left() -> None:
    game, start = registry.resolve("kalah", {"pits": 2, "seeds": 2}).load("0 1 5 / 1 1 0 S")
    assert solve(game, start, pv_limit=0).totals == (6, 2)
    othello, board = loaded("othello")
    assert solve(othello, board, pv_limit=2).totals == (3, 13)


@pytest.mark.parametrize("name", names())
def test_the_page_and_the_command_line_give_the_same_values_on_the_way(name: str) -> None:
    # The page chose how to answer on its own (the blind engine for Hex and Dots, which the
    # CLI solves in seconds): now both ask the decider, so every position visited gets the
    # same value for every move from the web's answer as from `perfectplay analyze --json`.
    from perfectplay.deciding import Think
    from perfectplay.web.positions import Analyses, exact_within, quick_analysis
    game, start = loaded(name)
    played = random_game(game, start, seed=11)
    memory = Analyses()
    compared = 0
    for ply in range(0, len(played), max(1, len(played) // 5)):
        position = positions_of(game, start, played[:ply])[-1]
        # At once, or else what the page's thinking finds within its think time.
        known = quick_analysis(game, position, memory) or exact_within(game, position, Think(seconds=5))
        assert known is not None and known.exact, f"{name}: the page estimated ply {ply}"
        shown = describe(name, game, start, played[:ply], position, known)
        page = {row["move"]: (row["value"], row["remoteness"]) for row in shown["moves"]}
        text = game.format_position(position).split() or [""]
        ran = run_main("analyze", name, *text, "--json", *_option_words(name))
        assert ran.code == 0, ran.stderr
        cli = {row["move"]: (row["value"], row["remoteness"]) for row in json.loads(ran.stdout)["moves"]}
        assert page.keys() == cli.keys()
        for move, (value, remoteness) in page.items():
            # Impartial sums: the CLI's auto answers by Sprague-Grundy theory, which counts
            # no plies; the page, with time to spare, searches and counts them too.
            other_value, other_remoteness = cli[move]
            assert value == other_value, f"{name} at ply {ply}, move {move}"
            if None not in (remoteness, other_remoteness):
                assert remoteness == other_remoteness, f"{name} at ply {ply}, move {move}"
        compared += 1
    assert compared >= 1


def _option_words(name: str) -> list[str]:
    return [word for option, value in OPTIONS.get(name, {}).items()
            for word in (f"--{option}", str(value))]
