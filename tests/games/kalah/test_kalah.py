"""Kalah(m, n): the rules (sowing, extra turns, empty capture, the end), notation, every
algorithm against a brute force over South and North, and the values of small boards."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
from math import comb

import pytest

from perfectplay import analyze, registry, solve
from perfectplay.errors import BadOption, BadPosition, IllegalMove
from perfectplay.games.kalah.boards import board_index
from perfectplay.games.kalah.rules import Kalah, brute_force_value
from perfectplay.verify import verify

# Values from the start, computed here by tt and by the brute force (tests below); the
# win/draw/loss pattern is that of Irving, Donkers and Uiterwijk's table ("Solving Kalah",
# 2000), whose rules (empty capture) these are. docs/extra_turns.md has the whole table.
SMALL_BOARDS = {
    (1, 1): 0, (1, 2): -2, (1, 3): 6, (1, 4): -2, (1, 5): 2, (1, 6): 0,
    (2, 1): 2, (2, 2): -2, (2, 3): -2, (2, 4): -12,
    (3, 1): 0, (3, 2): 4, (3, 3): 2,
    (4, 1): 2, (4, 2): 6,
}


def test_the_start_reads_and_writes_the_same() -> None:
    game = Kalah(6, 4)
    text = game.format_position(game.start())
    assert text == "4 4 4 4 4 4 0 / 4 4 4 4 4 4 0 S"
    assert game.parse_position(text) == game.start()
    assert game.parse_position("4,4,4,4,4,4,0/4,4,4,4,4,4,0") == game.start()


@pytest.mark.parametrize("text", ["4 4 4 / 4 4 4", "1 2 3 4 5 6 0 / 4 4 4 4 4 4 1 S",
                                  "4 4 4 4 4 4 0 / 4 4 4 4 x 4 0", "4 4 4 4 4 4 0 4 4 4 4 4 4 0"])
def test_bad_positions_are_refused_quoting_the_text(text: str) -> None:
    with pytest.raises(BadPosition, match="kalah position"):
        Kalah(6, 4).parse_position(text)


def test_a_side_without_seeds_cannot_be_given_as_a_live_position() -> None:
    with pytest.raises(BadPosition, match="ended the game"):
        Kalah(2, 1).parse_position("0 0 1 / 2 0 1 N")


def test_bad_sizes_are_refused() -> None:
    with pytest.raises(BadOption, match="--pits 0"):
        Kalah(0, 4)
    with pytest.raises(BadOption, match="--seeds 99"):
        Kalah(6, 99)


def test_a_last_seed_in_the_store_moves_again() -> None:
    game = Kalah(6, 4)
    after = game.play(game.start(), 3)  # pit 3's four seeds: pits 4, 5, 6 and the store
    assert game.keeps_turn(game.start(), 3)
    assert after == ((4, 4, 0, 5, 5, 5, 1, 4, 4, 4, 4, 4, 4, 0), 0)
    assert game.gain(game.start(), 3) == 1
    assert not game.keeps_turn(game.start(), 2) and game.play(game.start(), 2)[1] == 1


def test_extra_turns_come_first_in_the_search_order() -> None:
    game = Kalah(6, 4)
    assert game.moves(game.start())[0] == 3


def test_a_last_seed_in_an_empty_own_pit_captures_the_opposite_pit() -> None:
    game = Kalah(3, 2)
    position = game.parse_position("1 0 2 0 / 2 2 1 4 S")
    after, mover = game.play(position, 1)  # one seed into South's empty pit 2
    # It and North's pit 2's two seeds go to South's store; North moves next.
    assert after == (0, 0, 2, 3, 2, 0, 1, 4) and mover == 1
    assert game.gain(position, 1) == 3


def test_the_empty_capture_stores_the_last_seed_alone() -> None:
    position_text = "1 0 2 0 / 2 0 2 5 S"
    irving = Kalah(3, 2)
    after, _ = irving.play(irving.parse_position(position_text), 1)
    assert after[3] == 1 and after[1] == 0
    printed_rule = Kalah(3, 2, empty_capture=False)
    after, _ = printed_rule.play(printed_rule.parse_position(position_text), 1)
    assert after[3] == 0 and after[1] == 1


def test_an_empty_side_ends_the_game_and_the_other_keeps_its_seeds() -> None:
    game = Kalah(2, 1)
    position = game.parse_position("0 1 1 / 1 1 0 S")
    after, _ = game.play(position, 2)  # South's last seed into its store: South is empty
    assert after == (0, 0, 2, 0, 0, 2)
    assert game.legal_moves((after, 0)) == [] and game.total_points((after, 0)) == 0
    assert game.gain(position, 2) == 1 - 2


def test_keeps_turn_agrees_with_play_everywhere_random_games_go() -> None:
    rng = random.Random(4)
    for _ in range(300):
        game = Kalah(rng.randrange(1, 7), rng.randrange(1, 7))
        position = game.random_position(rng)
        for move in game.legal_moves(position):
            assert game.keeps_turn(position, move) == (game.play(position, move)[1] == position[1])


def test_the_key_leaves_the_stores_out_and_faces_the_side_to_move() -> None:
    game = Kalah(2, 2)
    assert game.pits_from_mover(((1, 2, 3, 4, 5, 6), 0)) == (1, 2, 4, 5)
    assert game.pits_from_mover(((1, 2, 3, 4, 5, 6), 1)) == (4, 5, 1, 2)
    assert game.key(((1, 2, 3, 4, 5, 6), 0)) == game.key(((1, 2, 9, 4, 5, 0), 0))
    assert game.key(((1, 2, 3, 4, 5, 6), 1)) == game.key(((4, 5, 0, 1, 2, 9), 0))
    assert game.key(((1, 2, 3, 4, 5, 6), 0)) != game.key(((1, 2, 3, 4, 5, 6), 1))


def test_the_key_numbers_the_boards_fewest_seeds_first_without_a_gap() -> None:
    """Every board of 4 pits with up to 5 seeds gets its own number, 0 to C(9, 4) - 1, and
    boards with more seeds come after those with fewer (the endgame databases' layout)."""
    boards = [pits for pits in itertools.product(range(6), repeat=4) if sum(pits) <= 5]
    numbers = {pits: board_index(pits) for pits in boards}
    assert sorted(numbers.values()) == list(range(comb(9, 4)))
    for pits, number in numbers.items():
        assert all(number < numbers[other] for other in boards if sum(other) > sum(pits))


@pytest.mark.parametrize(("pits", "seeds"), sorted(SMALL_BOARDS))
def test_small_boards_have_their_values_by_search_and_by_brute_force(pits: int, seeds: int) -> None:
    game = Kalah(pits, seeds)
    assert solve(game, algorithm="tt").value == SMALL_BOARDS[(pits, seeds)]
    if pits * seeds <= 8:
        assert brute_force_value(game, game.start()) == SMALL_BOARDS[(pits, seeds)]


def test_every_algorithm_agrees_with_the_brute_force_on_random_positions() -> None:
    report = verify(registry.resolve("kalah"), cases=30, seed=23)
    assert report.cases == 30 and report.mismatches == []


def test_the_totals_add_the_seeds_still_on_the_board() -> None:
    game = Kalah(3, 3)
    solution = solve(game, algorithm="tt")
    assert solution.totals == (10, 8)  # 18 seeds, a margin of 2


def test_the_principal_variation_is_a_game_that_earns_the_value() -> None:
    game = Kalah(3, 3)
    solution = solve(game)
    position = game.start()
    for notation in solution.pv:
        position = game.play(position, game.parse_move(position, notation))
    south, north = game.stores(position)
    assert game.total_points(position) == 0 and south - north == solution.value


def test_analysis_values_each_move_for_the_player_who_plays_it() -> None:
    game = Kalah(3, 3)
    values = {mv.notation: mv.value for mv in analyze(game, algorithm="tt")}
    assert max(values.values()) == 2
    for move, value in values.items():
        child = game.play(game.start(), int(move))
        after = brute_force_value(game, child)
        assert value == game.gain(game.start(), int(move)) + (after if child[1] == 0 else -after)


def test_an_illegal_move_is_refused_quoting_it() -> None:
    game = Kalah(3, 1)
    with pytest.raises(IllegalMove, match="'7'"):
        game.parse_move(game.start(), "7")


def test_the_board_shows_both_rows_stores_and_who_moves() -> None:
    text = Kalah(3, 3).render(Kalah(3, 3).start())
    assert "South to move" in text and "North's pits" in text
    assert text.count(" 3") >= 6


def run(*args: str, cwd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "perfectplay", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=120)


def test_the_cli_solves_kalah_with_pits_and_seeds(tmp_path) -> None:
    done = run("solve", "kalah", "--pits", "3", "--seeds", "3", cwd=str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "value: +2" in done.stdout and "best moves: 1 2" in done.stdout


def test_the_cli_refuses_bad_sizes_and_positions_in_one_line(tmp_path) -> None:
    done = run("solve", "kalah", "--pits", "0", cwd=str(tmp_path))
    assert done.returncode == 2 and "--pits 0" in done.stderr and "Traceback" not in done.stderr
    done = run("solve", "kalah", "--pits", "2", "--seeds", "1", "1 1 0 / 1 1", cwd=str(tmp_path))
    assert done.returncode == 2 and "kalah position" in done.stderr
    done = run("solve", "dots", "--pits", "3", cwd=str(tmp_path))
    assert done.returncode == 2 and "takes no --pits" in done.stderr


def test_the_web_api_answers_kalah_and_follows_the_extra_turn() -> None:
    import warnings
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

    from perfectplay.web.app import create_app
    client = TestClient(create_app(None))
    again = client.get("/api/kalah/position", params={"pits": "3", "seeds": "3", "moves": "1"}).json()
    assert again["mover"] == 0 and again["status"] == "exact" and again["value"] == 1
    handed_over = client.get("/api/kalah/position", params={"pits": "3", "seeds": "3", "moves": "3"})
    assert handed_over.status_code == 200 and handed_over.json()["mover"] == 1
    assert client.get("/game/kalah").status_code == 200


@pytest.mark.skipif(not __import__("perfectplay.compiled", fromlist=["x"]).numba_available(),
                    reason="numba is not installed")
def test_the_numba_kernel_matches_search_on_random_positions() -> None:
    rng = random.Random(8)
    for pits, seeds in ((3, 3), (4, 2), (2, 5)):
        game = Kalah(pits, seeds)
        for _ in range(6):
            position = game.random_position(rng)
            if not game.legal_moves(position):
                continue
            fast = solve(game, position, engine="compiled")
            assert fast.algorithm == "kalah-kernel"
            slow = solve(game, position, algorithm="tt", engine="python")
            assert (fast.value, sorted(fast.best_moves), fast.totals) == \
                (slow.value, sorted(slow.best_moves), slow.totals)
            by_kernel = sorted((mv.notation, mv.value) for mv in analyze(game, position, engine="compiled"))
            by_search = sorted((mv.notation, mv.value)
                               for mv in analyze(game, position, algorithm="tt", engine="python"))
            assert by_kernel == by_search


def test_a_position_with_more_than_36_seeds_in_play_is_not_called_solvable() -> None:
    # 40 seeds in play were called solvable; this one took the kernel 134 s of CPU and
    # another passed 240 s (docs/benchmarks-log.md), where 36 took 10-12 s.
    game = Kalah()
    slow = game.parse_position("7 1 7 6 0 2 5 / 2 0 1 7 7 0 3 S")
    quick = game.parse_position("7 1 0 0 1 2 5 / 2 3 0 2 9 9 7 S")
    assert (game.total_points(slow), game.total_points(quick)) == (40, 36)
    assert not game.solvable(slow) and game.solvable(quick)
    # Kalah(5,4), 40 seeds, is solved from its start in under a minute: it stays solvable.
    five = Kalah(5, 4)
    assert five.solvable(five.start())
