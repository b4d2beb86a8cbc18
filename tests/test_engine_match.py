"""Matches and the SPRT: the statistic against numbers derived independently here, and
`perfectplay match` end to end (engine settings and an external UCI engine)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

from perfectplay.engine.sprt import SprtTest, bounds, elo_estimate, expected_score, llr

SCORES = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
STUB = Path(__file__).with_name("uci_stub.py")


def constrained_max_loglik(counts: list[float], mean: float) -> float:
    """max sum p_i log q_i over pentanomial distributions q with expected score ``mean``, by
    direct search: q0, q1, q3 range over a grid refined around the best point; q2 and q4
    follow from sum q = 1 and sum q a = mean. Shares nothing with the engine's solver."""
    p = np.array([c if c else 1e-3 for c in counts], dtype=float)
    p /= p.sum()
    centre, width = np.array([0.2, 0.2, 0.2]), 0.4
    best = -math.inf
    for _ in range(60):
        axis = np.linspace(-width, width, 41)
        q0, q1, q3 = np.meshgrid(centre[0] + axis, centre[1] + axis, centre[2] + axis, indexing="ij")
        q4 = 2 * (mean - 0.5 + 0.5 * q0 + 0.25 * q1 - 0.25 * q3)
        q2 = 1 - q0 - q1 - q3 - q4
        q = np.stack([q0, q1, q2, q3, q4])
        with np.errstate(divide="ignore", invalid="ignore"):
            value = np.where((q > 0).all(axis=0), np.tensordot(p, np.log(np.where(q > 0, q, 1)), 1), -np.inf)
        index = np.unravel_index(np.argmax(value), value.shape)
        best = float(value[index])
        centre = np.array([q0[index], q1[index], q3[index]])
        width *= 0.7
    return best


@pytest.mark.parametrize("counts, elo0, elo1", [
    ([12, 50, 140, 61, 17], 0.0, 10.0),
    ([3, 20, 31, 9, 0], -5.0, 5.0),
    ([30, 2, 1, 0, 40], 0.0, 50.0),
])
def test_llr_matches_a_direct_maximisation_of_the_likelihood(counts: list[int], elo0: float,
                                                              elo1: float) -> None:
    pairs = sum(c if c else 1e-3 for c in counts)
    high, low = (constrained_max_loglik(counts, expected_score(elo)) for elo in (elo1, elo0))
    direct = pairs * (high - low)
    assert llr(counts, elo0, elo1) == pytest.approx(direct, abs=1e-4)


def test_llr_is_zero_for_a_symmetric_sample_between_symmetric_hypotheses() -> None:
    assert llr([10, 20, 40, 20, 10], -5, 5) == pytest.approx(0, abs=1e-9)
    assert llr([10, 20, 40, 25, 10], -5, 5) > 0 > llr([10, 25, 40, 20, 10], -5, 5)


def test_llr_agrees_with_the_gaussian_approximation_on_a_large_sample() -> None:
    """Van den Bergh's approximation LLR ~ N (s1 - s0)(2 mean - s0 - s1) / (2 var), worked out
    here for a sample of 2,400 pairs."""
    counts = [100, 500, 1100, 560, 140]
    pairs = sum(counts)
    mean = sum(c * a for c, a in zip(counts, SCORES, strict=True)) / pairs
    var = sum(c * (a - mean) ** 2 for c, a in zip(counts, SCORES, strict=True)) / pairs
    s0, s1 = expected_score(0), expected_score(5)
    approx = pairs * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    assert llr(counts, 0, 5) == pytest.approx(approx, rel=0.01)


def test_wald_bounds_and_the_elo_interval() -> None:
    assert bounds(0.05, 0.05) == pytest.approx((-math.log(19), math.log(19)))
    estimate = elo_estimate([0, 10, 20, 10, 0])
    assert estimate is not None and estimate.elo == pytest.approx(0, abs=1e-9)
    spread = 1.959963984540054 * math.sqrt((20 * 0.0625 / 40) / 40)
    assert estimate.high == pytest.approx(-400 * math.log10(1 / (0.5 + spread) - 1))
    assert estimate.low == pytest.approx(-estimate.high)


def test_sprt_accepts_h1_for_a_clear_winner_and_h0_for_a_clear_loser() -> None:
    test = SprtTest(0, 10)
    assert test.verdict([5, 60, 200, 90, 25]) is None or test.verdict([5, 60, 200, 90, 25]) == "H1"
    assert test.verdict([10, 100, 400, 300, 120]) == "H1"
    assert test.verdict([120, 300, 400, 100, 10]) == "H0"


def test_match_cli_plays_pairs_and_reports_the_statistics(cli) -> None:  # type: ignore[no-untyped-def]
    done = cli("match", "tictactoe", "--first", "depth=9", "--second", "depth=1", "--pairs", "6",
               "--opening-plies", "0", "--quiet")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "games 12 (6 pairs)" in out and "1 opening;" in out
    wins, draws, losses = (int(out.split(f" {tag} ")[1].split()[0]) for tag in ("W", "D", "L"))
    assert losses == 0 and wins > 0  # perfect play from the empty board never loses
    assert "pentanomial [LL, LD+DL, LW+DD+WL, DW+WD, WW]:" in out and "LLR" in out and "Elo" in out
    assert "seconds per move (wall clock, mean / longest): first " in out


def test_match_against_an_external_uci_engine(cli) -> None:  # type: ignore[no-untyped-def]
    stub = f"uci={sys.executable} {STUB} tictactoe"
    done = cli("match", "tictactoe", "--first", "depth=9", "--second", stub, "--depth", "1", "--pairs", "4",
               "--quiet")
    assert done.returncode == 0, done.stderr
    assert "second: UCI engine" in done.stdout and " L 0 " in done.stdout


def test_an_external_engine_that_plays_illegal_moves_is_reported(cli) -> None:  # type: ignore[no-untyped-def]
    stub = f"uci={sys.executable} {STUB} tictactoe --illegal"
    done = cli("match", "tictactoe", "--second", stub, "--pairs", "2")
    assert done.returncode == 2
    assert "played '0', which is not legal" in done.stderr and "Traceback" not in done.stderr


def test_uci_options_reach_the_external_engine(cli) -> None:  # type: ignore[no-untyped-def]
    stub = f"uci={sys.executable} {STUB} tictactoe,option.Illegal=true"
    done = cli("match", "tictactoe", "--second", stub, "--pairs", "1")
    assert done.returncode == 2 and "played '0', which is not legal" in done.stderr


@pytest.mark.parametrize("args, message", [
    (["--threads", "0"], "--threads 0"),
    (["--time", "0"], "time limit must be positive (got 0"),  # the one Limits' words
    (["--bogus"], "No such option"),
    (["--first", "pvs=maybe"], "pvs must be on or off"),
    (["--first", "speed=3"], "unknown setting 'speed'"),
    (["--openings", "/nonexistent/openings.txt"], "/nonexistent/openings.txt"),
    (["--second", "uci=/nonexistent/engine"], "cannot start UCI engine"),
    (["--elo0", "5", "--elo1", "0"], "--elo0 5"),
    (["--first", "option.Hash=16"], "option.NAME=VALUE is for a UCI engine"),
])
def test_bad_match_input_gets_one_line_and_exit_2(cli, args: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    done = cli("match", "tictactoe", *args)
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_openings_file_with_a_bad_line_is_rejected(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    good = tmp_path / "good.txt"
    good.write_text("# two openings\n44\n4\n")
    done = cli("match", "connect4", "--openings", str(good), "--pairs", "2", "--depth", "2", "--quiet")
    assert done.returncode == 0, done.stderr
    assert "2 openings" in done.stdout
    bad = tmp_path / "bad.txt"
    bad.write_text("44\n4x\n")
    done = cli("match", "connect4", "--openings", str(bad))
    assert done.returncode == 2 and "line 2" in done.stderr


def test_thinking_time_is_credited_to_the_player_who_moved() -> None:
    from perfectplay.engine.api import SearchLimits, Settings
    from perfectplay.engine.match import Thinking, run_match
    from perfectplay.engine.players import EnginePlayer
    from perfectplay.games.tictactoe.rules import TicTacToe

    swapped = Thinking()
    swapped.add(0, 2.0)  # the second player, moving first in the colour-swapped game
    swapped.add(1, 0.5)
    swapped.add(0, 1.0)
    back = Thinking()
    back.merge(swapped, swapped=True)
    assert back.seconds == [0.5, 3.0] and back.moves == [1, 2] and back.longest == [0.5, 2.0]
    game = TicTacToe()
    first = EnginePlayer(game, Settings(), SearchLimits(depth=9), "deep")
    second = EnginePlayer(game, Settings(), SearchLimits(depth=1), "shallow")
    state, _ = run_match(game, first, second, [game.start()], test=SprtTest(0, 10), max_pairs=2)
    # In each pair the first player makes ceil(n/2) moves of the game it starts and
    # floor(n/2) of the one it answers.
    expected = sum((len(record.moves) + record.first_moved_first) // 2 for record in state.games)
    assert state.thinking.moves == [expected, sum(len(r.moves) for r in state.games) - expected]
    assert state.thinking.longest[0] <= state.thinking.seconds[0]


def test_with_forfeit_an_illegal_reply_loses_the_game_instead_of_ending_the_match(cli) -> None:  # type: ignore[no-untyped-def]
    stub = f"uci={sys.executable} {STUB} tictactoe --illegal"
    done = cli("match", "tictactoe", "--second", stub, "--pairs", "2", "--forfeit", "--quiet")
    assert done.returncode == 0, done.stderr
    # The stub never plays a legal move: it loses all four games, whoever starts.
    assert "W 4 D 0 L 0" in done.stdout
    assert "pentanomial [LL, LD+DL, LW+DD+WL, DW+WD, WW]: [0, 0, 0, 0, 2]" in done.stdout
    assert "4 games lost by forfeit; the first: UCI engine" in done.stdout


def test_pairs_played_in_parallel_processes_count_like_pairs_played_in_turn() -> None:
    from perfectplay.engine.api import SearchLimits, Settings
    from perfectplay.engine.match import run_match, run_parallel_match
    from perfectplay.engine.players import PlayersFromSpecs
    from perfectplay.engine.spec import PlayerSpec
    from perfectplay.games.tictactoe.rules import TicTacToe

    game = TicTacToe()
    openings = [game.play(game.start(), move) for move in (0, 4, 1)]
    perfect = PlayerSpec("depth=9", Settings(), SearchLimits(depth=9))
    blind = PlayerSpec("depth=1", Settings(), SearchLimits(depth=1))
    make_players = PlayersFromSpecs(game, perfect, blind)
    parallel, _ = run_parallel_match(game, make_players, openings, workers=2,
                                     test=SprtTest(0, 10), max_pairs=6)
    in_turn, _ = run_match(game, *make_players(), openings, test=SprtTest(0, 10), max_pairs=6)
    # A perfect player never loses at tic-tac-toe; whatever the order the pairs finish in,
    # every opening was played twice with colours swapped.
    for state in (parallel, in_turn):
        assert state.pairs == 6 and state.losses == 0 and state.wins > 0
        assert sorted(record.opening for record in state.games) == sorted(openings * 4)
    assert parallel.thinking.moves[0] > 0 and parallel.thinking.moves[1] > 0


def test_a_match_stopped_by_sigterm_prints_what_it_played() -> None:
    import signal
    import subprocess

    command = [sys.executable, "-m", "perfectplay", "match", "connect4", "--depth", "2",
               "--second", "depth=1", "--pairs", "5000", "--concurrency", "2", "--alpha", "1e-9",
               "--beta", "1e-9"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    for line in process.stdout:
        if line.startswith("pair 2:"):
            break
    process.send_signal(signal.SIGTERM)
    rest, errors = process.communicate(timeout=60)
    assert process.returncode == 130, errors
    assert "Traceback" not in errors
    assert "before the SPRT decided" in rest and "pentanomial" in rest
