"""The play package without a terminal: levels, sessions, the review, and a perfect computer
that never lets a won position go."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from play_driver import environment

from perfectplay import analyze, registry, solve
from perfectplay import value as V
from perfectplay.errors import BadOption
from perfectplay.game import Game
from perfectplay.games.connect4.rules import ConnectFour
from perfectplay.games.crates import CrateLine
from perfectplay.games.nim import Nim
from perfectplay.play import (
    LEVELS,
    Analysis,
    Analyst,
    Computer,
    HumanMatch,
    Session,
    choose,
    first_mistake,
    level_named,
    play_out,
)
from perfectplay.play.terminal import ScriptedTerminal
from perfectplay.search.results import MoveValue


def built_in(name: str, position: str | None = None):
    return registry.load(name, {}, position)


def record_of(game, start, levels, seed, analyst=None):
    rng = random.Random(seed)
    computers = (Computer(LEVELS[levels[0]], rng), Computer(LEVELS[levels[1]], rng))
    return play_out(Session(game, start), analyst or Analyst(game), computers)


@pytest.mark.parametrize("name, position", [
    ("matchgame", None), ("nim", "3 4 5"), ("claim", "9"), ("tictactoe", None), ("takeaway", "15"),
])
def test_a_perfect_computer_never_lets_a_won_or_drawn_position_go(name, position) -> None:
    game, start = built_in(name, position)
    analyst = Analyst(game)
    for seed in range(60):
        opponent = ("easy", "medium", "hard")[seed % 3]
        perfect = seed % 2
        levels = ("perfect", opponent) if perfect == 0 else (opponent, "perfect")
        record = record_of(game, start, levels, seed, analyst)
        assert not record.let_go(perfect), (name, seed)
        if record.best_stood[perfect] == 0:
            assert record.result.winner in (perfect, None), (name, seed)


def test_a_perfect_computer_keeps_every_won_crate_row() -> None:
    rng = random.Random(11)
    for seed in range(40):
        game = CrateLine([rng.randint(0, 20) for _ in range(rng.randint(3, 10))])
        record = record_of(game, game.start(), ("perfect", "easy"), seed)
        assert not record.let_go(0), (game.values, seed)
        # Moving first with best play, the final lead is at least the solved value.
        scores = record.result.scores
        assert scores[0] - scores[1] >= solve(game).value


def test_perfect_wins_fastest_and_loses_slowest() -> None:
    game, start = built_in("nim", "3 4 5")
    analysis = Analyst(game).analyze(start)
    winning = [move.remoteness for move in analysis.moves if move.value > 0]
    for seed in range(20):
        chosen = choose(analysis, LEVELS["perfect"], random.Random(seed)).move
        assert chosen.remoteness == min(winning) == solve(game, start, algorithm="tt").remoteness
    game, start = built_in("matchgame")  # 7 5 3 1: every move loses
    analysis = Analyst(game).analyze(start)
    longest = max(move.remoteness for move in analysis.moves)
    for seed in range(20):
        assert choose(analysis, LEVELS["perfect"], random.Random(seed)).move.remoteness == longest


def test_perfect_chooses_at_random_among_equal_moves_and_a_seed_replays_it() -> None:
    game, start = built_in("tictactoe")
    analysis = Analyst(game).analyze(start)
    perfect = LEVELS["perfect"]
    picks = {choose(analysis, perfect, random.Random(seed)).move.notation for seed in range(40)}
    assert len(picks) > 3  # every first move draws
    first = record_of(game, start, ("perfect", "medium"), 5)
    again = record_of(game, start, ("perfect", "medium"), 5)
    assert first.result == again.result


def _synthetic(values: list[int]) -> Analysis:
    moves = [MoveValue(i, str(i), value, False) for i, value in enumerate(values)]
    return Analysis(tuple(sorted(moves, key=lambda move: -move.value)), exact=True)


@pytest.mark.parametrize("name", ["easy", "medium", "hard"])
def test_levels_err_at_their_documented_rates(name) -> None:
    level = LEVELS[name]
    # Best: win in 3; a slip: win in 5; a blunder could also pick the loss.
    analysis = _synthetic([V.win_in(3), V.win_in(5), V.loss_in(4)])
    rng = random.Random(1)
    draws = 20_000
    kinds = [choose(analysis, level, rng).kind for _ in range(draws)]
    assert abs(kinds.count("blunder") / draws - level.blunder) < 0.015
    assert abs(kinds.count("slip") / draws - level.slip) < 0.015


def test_a_slip_never_turns_a_win_into_a_loss() -> None:
    analysis = _synthetic([V.win_in(3), V.loss_in(2), V.loss_in(6)])
    rng = random.Random(2)
    for _ in range(2000):
        choice = choose(analysis, LEVELS["medium"], rng)
        assert choice.kind == "blunder" or choice.move.value > 0


def test_unknown_level_is_refused() -> None:
    with pytest.raises(BadOption, match="'godlike'"):
        level_named("godlike")


def test_undo_takes_back_the_persons_last_move_and_the_reply() -> None:
    game, start = built_in("matchgame")
    session = Session(game, start)
    assert session.undo(0) == []
    session.play(session.parse("1 3"))
    session.play(session.parse("2 1"))
    taken = session.undo(0)
    assert [turn.notation for turn in taken] == ["1:3", "2:1"]
    assert session.position == start and session.side_to_move == 0


def test_score_game_result_compares_totals() -> None:
    session = Session(CrateLine((3, 9, 1)))
    for move in ("LL", "L"):
        session.play(move)
    result = session.result()
    assert result.scores == (12, 1) and result.winner == 0 and result.plies == 2


def test_review_names_the_first_move_that_turned_a_win_into_a_loss() -> None:
    game = Nim((3, 4, 5), misere=True)
    session = Session(game)
    analyst = Analyst(game)
    best = analyst.analyze(session.position)
    blunder = best.moves[-1]
    session.play(blunder.move)
    review = first_mistake(session, 0, analyst)
    assert review.exact and review.mistake is not None
    assert review.mistake.ply == 1 and review.mistake.played.notation == blunder.notation
    assert review.mistake.better.value == best.best_value


def test_a_game_too_big_to_solve_is_analysed_under_the_clock() -> None:
    # Nim this size is answered exactly by theory now; Connect Four is not.
    # The opening book answers the first moves at once: start past it (Test_L1_R3, line 3).
    game = ConnectFour()
    analyst = Analyst(game, think_time=0.3)
    position = game.parse_position("573154743")
    started = time.perf_counter()
    analysis = analyst.analyze(position)
    assert time.perf_counter() - started < 5.0  # bounded by the think time, with room for a loaded machine
    assert not analysis.exact and len(analysis.moves) == len(game.moves(position))


def _connect4_positions(count: int, stones: int, seed: int) -> list[str]:
    """Live Connect Four lines of ``stones`` random moves (kernel-fast to solve)."""
    game, rng, found = ConnectFour(), random.Random(seed), []
    while len(found) < count:
        position, line = game.start(), ""
        for _ in range(stones):
            if game.outcome(position) is not None:
                break
            column = rng.choice(list(game.moves(position)))
            line += game.format_move(position, column)
            position = game.play(position, column)
        if game.outcome(position) is None and len(line) == stones:
            found.append(line)
    return found


def test_best_moves_are_exactly_the_optimal_moves_of_a_full_analysis() -> None:
    # The perfect level plays from Analyst.best_moves (a solve: value, then a null-window
    # test per move); it must name the same moves with the same value as scoring every move.
    game = ConnectFour()
    fast = Analyst(game, think_time=30)
    for line in _connect4_positions(25, 16, seed=5):
        position = game.parse_position(line)
        best = fast.best_moves(position)
        full = [MoveValue(m.move, m.notation, m.value, m.score_game)
                for m in analyze(game, position, engine="auto", book="none")]
        optimal = [m for m in full if m.value == full[0].value]
        assert best.exact and not best.complete, line
        assert sorted(m.notation for m in best.moves) == sorted(m.notation for m in optimal), line
        assert {m.value for m in best.moves} == {full[0].value}, line


class Pebbles(Game[int, int]):
    """Take one or two pebbles; whoever takes the last pebble wins."""

    name = "pebbles"

    def start(self) -> int:
        return 7

    def moves(self, pile: int) -> list[int]:
        return [take for take in (1, 2) if take <= pile]

    def play(self, pile: int, take: int) -> int:
        return pile - take

    def render(self, pile: int) -> str:
        return "o" * pile + f"  ({pile} pebbles)"


def test_a_users_own_game_is_played_through_the_protocol() -> None:
    game = Pebbles()
    # 7 is a win for the mover: take 1, then always leave a multiple of 3.
    terminal = ScriptedTerminal(["3", "hint", "1", "", "2", "1", "2", "undo", "quit"])
    computer = Computer(LEVELS["perfect"], random.Random(1))
    HumanMatch(Session(game), Analyst(game), computer, 0, terminal).run()
    text = terminal.text
    assert "ooooooo  (7 pebbles)" in text
    assert "'3' is not a legal move here; legal moves: 1, 2" in text
    assert "Your moves, best first:" in text
    assert "You won in" in text and "Took back 1." in text
    assert "Game left after 4 moves (you quit). Bye." in text


def test_a_users_game_file_plays_from_the_command_line(tmp_path: Path) -> None:
    source = Path(__file__).read_text()
    start = source.index("class Pebbles")
    end = source.index("def test_a_users_own_game_is_played")
    module = "from perfectplay.game import Game\n\n\n" + source[start:end]
    path = tmp_path / "pebbles.py"
    path.write_text(module)
    command = [sys.executable, "-m", "perfectplay", "play", f"{path}:Pebbles", "--seed", "1"]
    run = subprocess.run(command, input="1\n1\n1\n1\n1\n1\n1\n", capture_output=True, text=True,
                         env=environment(), timeout=30)
    assert run.returncode == 0, run.stderr
    assert "pebbles: Take one or two pebbles" in run.stdout
    assert "won in" in run.stdout


def test_the_console_speaks_again_after_ctrl_c_cut_a_print_short(
        capsys: pytest.CaptureFixture[str]) -> None:
    # Ctrl-C can land inside rich's Console.__enter__ after it raised the buffer count, so
    # the count never comes down and every later line stays buffered (seen once in CI:
    # "Stopped after 0 moves." never appeared). recover() must make the last lines show.
    from perfectplay.play.terminal import ConsoleTerminal
    terminal = ConsoleTerminal()
    terminal.console._enter_buffer()  # what the interrupted print left behind
    terminal.say("lost in the buffer")
    assert capsys.readouterr().out == ""
    terminal.recover()
    terminal.say("Stopped after 0 moves.")
    assert capsys.readouterr().out == "Stopped after 0 moves.\n"


def test_a_hint_from_the_optimal_moves_alone_says_the_others_were_not_scored() -> None:
    from perfectplay.play.analyst import Analysis
    from perfectplay.play.talk import hint_lines
    win = V.win_in(27)
    partial = Analysis((MoveValue(2, "3", win, False), MoveValue(1, "2", win, False)),
                       exact=True, complete=False)
    lines = hint_lines(partial, score_game=False)
    assert lines[0] == "Your moves, best first: exact values"
    assert V.describe(win) in lines[1] and "3, 2" in lines[1]
    assert "worse (not scored in the time)" in lines[2] and "every other move" in lines[2]
    whole = hint_lines(Analysis(partial.moves, exact=True), score_game=False)
    assert not any("not scored" in line for line in whole)
