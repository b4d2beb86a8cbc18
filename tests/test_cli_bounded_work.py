"""Work with no bound and no word: every command that could run for hours
either refuses up front with the estimate, or says how long it will be, shows its progress
on a terminal and stops when its reader has gone; a limit it meets is one line and exit 1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest
from conftest import run_main

BIG = "1" + "0" * 30


@pytest.mark.parametrize("args, refusal", [
    (("perft", "dodgem", "--depth", BIG), "perft dodgem --depth " + BIG + ": more than 1e+13 positions"),
    (("perft", "chopsticks", "--depth", "100"), "perft chopsticks --depth 100: more than 1e+13 positions"),
    (("perft", "connect4", "--depth", "12"), "perft connect4 --depth 12: about "),
])
def test_perft_refuses_a_count_no_machine_finishes(args: tuple[str, ...], refusal: str) -> None:
    started = time.perf_counter()
    ran = run_main(*args)
    assert ran.code == 2, ran.stderr
    assert ran.stderr.startswith("error: " + refusal) and ran.stderr.count("\n") == 1, ran.stderr
    assert "give a smaller --depth" in ran.stderr
    assert time.perf_counter() - started < 10  # refused from random walks, not from the count


def test_perft_of_a_game_that_ends_still_counts_past_its_length() -> None:
    ran = run_main("perft", "tictactoe", "--depth", BIG, "--finished", "--json")
    assert ran.code == 0, ran.stderr
    assert json.loads(ran.stdout)["finished_games"] == 255_168


def test_perft_estimates_its_work_from_random_games() -> None:
    from perfectplay import registry
    from perfectplay.search.perft import estimate_perft, perft
    game, start = registry.load("connect4")
    exact = perft(game, start, 4).count + 7 ** 3 + 7 ** 2 + 7 + 1  # every node of depth <= 4
    estimate = estimate_perft(game, start, 4, cap=1e13)
    assert estimate.nodes == exact  # no game ends within 4 plies: every walk counts the same
    assert estimate_perft(game, start, 12, cap=1e6).nodes is None


def test_perft_out_of_memory_is_the_one_line_limit_with_exit_1(monkeypatch: pytest.MonkeyPatch) -> None:
    # OutOfBudget("memory") under perft on loopy games was an internal error.
    from perfectplay.search import limits
    monkeypatch.setattr(limits, "MEMORY_HEADROOM", -(1 << 40))  # any size is past the bound
    ran = run_main("perft", "dodgem", "--depth", "12")
    assert ran.code == 1, ran.stderr
    assert ran.stderr.startswith("stopped: perft to depth 12 stopped by its memory: grew by ")
    assert ran.stderr.count("\n") == 1 and "internal error" not in ran.stderr


def test_perft_shows_its_progress_on_a_terminal() -> None:
    child = pexpect.spawn(sys.executable, ["-m", "perfectplay", "perft", "connect4", "--depth", "6"],
                          env=dict(os.environ, TERM="xterm", COLUMNS="100"), encoding="utf-8",
                          timeout=120, dimensions=(30, 100))
    child.expect("perft connect4 depth 6")  # the progress bar, drawn before the count ends
    child.expect("perft 6: 117,649 move sequences")
    child.expect(pexpect.EOF)


def test_compare_stops_an_algorithm_that_cannot_finish_and_says_so() -> None:
    # compare once ran minimax on Connect Four for ever.
    ran = run_main("compare", "connect4", "4453", "--algorithms", "minimax,tt", "--node-cap", "3000",
                   "--json")
    assert ran.code == 0, ran.stderr
    rows = json.loads(ran.stdout)["rows"]
    assert [(row["algorithm"], row["capped"], row["value"]) for row in rows] == [
        ("minimax", True, None), ("tt", True, None)]
    text = run_main("compare", "connect4", "4453", "--algorithms", "minimax", "--node-cap", "3000")
    assert "stopped: minimax passed the node cap of 3,000 without an answer (--node-cap)" in text.stdout


def test_compare_has_a_node_cap_without_being_given_one(monkeypatch: pytest.MonkeyPatch) -> None:
    import perfectplay.cli.solving as solving
    monkeypatch.setattr(solving, "COMPARE_NODE_CAP", 2000)
    ran = run_main("compare", "matchgame", "7 5 3 1", "--algorithms", "minimax,memo", "--json")
    payload = json.loads(ran.stdout)
    assert payload["node_cap"] == 2000
    assert [row["capped"] for row in payload["rows"]] == [True, False]
    assert payload["rows"][1]["value"] == "loss in 15"


def test_compare_refuses_a_negative_node_cap_without_plot() -> None:
    ran = run_main("compare", "takeaway", "5", "--node-cap", "-1")
    assert (ran.code, ran.stderr.strip()) == (2, "error: --node-cap -1: give 1 or more")


def test_compare_checks_the_plot_path_before_any_work(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    import perfectplay.pictures.growth as growth

    def measured(*args: object, **kwargs: object) -> None:
        raise AssertionError("the sizes were measured before the path was checked")
    monkeypatch.setattr(growth, "measure", measured)
    target = tmp_path / "missing" / "growth.svg"
    ran = run_main("compare", "takeaway", "1..25", "--plot", str(target))
    assert ran.code == 2
    assert ran.stderr.strip() == f"error: --plot '{target}': cannot write it (No such file or directory)"
    assert not target.parent.exists()


def test_octal_streams_and_stops_when_its_reader_goes() -> None:
    # `octal 0.77 --upto 1000000 | head -1` once computed for 136 s after head left.
    started = time.perf_counter()
    reader = subprocess.Popen([sys.executable, "-m", "perfectplay", "octal", "0.77", "--upto", "10000000"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert reader.stdout is not None and reader.stderr is not None
    assert reader.stdout.readline() == b"octal game 0.77: G(0..10000000)\n"
    reader.stdout.close()  # as `| head -1` does
    assert reader.wait(timeout=60) == 0
    assert reader.stderr.read() == b""
    assert time.perf_counter() - started < 30


def test_octal_values_past_the_certified_period_are_the_computed_ones() -> None:
    from perfectplay.impartial.octal import analyse, parse_code, plain_sequence
    code = parse_code("0.77")
    analysis = analyse(code, 256)
    assert len(analysis.values) == 256 and analysis.periodicity is not None
    assert analysis.values_between(0, 1500) == plain_sequence(code, 1500)
    ran = run_main("octal", "0.77", "--upto", "100000", "--json")
    sequence = json.loads(ran.stdout)["sequence"]
    assert len(sequence) == 100_001 and sequence[99_990:] == analysis.values_between(99_990, 100_001)


def test_octal_without_a_period_refuses_a_run_past_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    import perfectplay.games.octal.command as octal_command
    monkeypatch.setattr(octal_command, "OCTAL_SECONDS_MAX", 0.001)
    ran = run_main("octal", "0.37", "--upto", "1000000", "--max-terms", "512")
    assert ran.code == 2
    assert ran.stderr.startswith("error: octal 0.37 --upto 1,000,000: no period certified within "
                                 "1,024 values, so every value to 1,000,000 is computed: about ")
    assert "give a smaller --upto" in ran.stderr


def test_octal_without_a_period_says_up_front_when_it_is_long(monkeypatch: pytest.MonkeyPatch) -> None:
    import perfectplay.games.octal.command as octal_command
    monkeypatch.setattr(octal_command, "OCTAL_NOTE_SECONDS", 0.0)
    ran = run_main("octal", "0.37", "--upto", "3000", "--max-terms", "512")
    assert ran.code == 0
    assert ran.stderr.startswith("octal 0.37 --upto 3,000: no period certified within 1,024 values")
    assert ran.stdout.splitlines()[-1] == "no period certified within 3,001 values (try --max-terms)"


def test_table_says_up_front_when_it_will_be_long(monkeypatch: pytest.MonkeyPatch) -> None:
    # `table claim 1..100000` once took 69 s with no word.
    import perfectplay.cli.solving as solving
    monkeypatch.setattr(solving, "TABLE_NOTE_SECONDS", 0.0)
    ran = run_main("table", "claim", "1..12")
    assert ran.code == 0
    assert ran.stderr.startswith("table claim 1..12: about ") and "for 12 sizes here" in ran.stderr
    assert ran.stdout.split() == ["1:win", "2:win", "3:win", "4:lose", "5:win", "6:win", "7:win",
                                  "8:lose", "9:win", "10:win", "11:win", "12:win"]


def test_a_long_table_streams_its_rows_and_ends_when_its_reader_goes() -> None:
    # `table claim 1..100000 --json | head -1` waited a minute for the whole table.
    command = [sys.executable, "-m", "perfectplay", "table", "claim", "1..100000", "--json"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as table:
        assert table.stdout is not None
        first = [table.stdout.readline() for _ in range(6)]
        assert first == ["{\n", '  "game": "claim",\n', '  "rows": [\n', "    {\n", '      "n": 1,\n',
                         '      "outcome": "win",\n']
        assert table.poll() is None  # rows come while the rest is still being solved
        table.stdout.close()
        assert table.wait(timeout=60) == 0


def test_a_streamed_json_table_is_the_whole_tables_json() -> None:
    ran = run_main("table", "takeaway", "0..9", "--json")
    assert ran.code == 0
    table = json.loads(ran.stdout)
    assert ran.stdout == json.dumps(table, indent=2) + "\n"
    assert [(row["n"], row["outcome"]) for row in table["rows"]] == [
        (0, "lose"), (1, "win"), (2, "win"), (3, "win"), (4, "lose"), (5, "win"), (6, "win"), (7, "win"),
        (8, "lose"), (9, "win")]


def test_a_solves_progress_shows_on_a_terminal_and_not_when_redirected() -> None:
    # `solve connect4 --time 2 2>err` wrote "score in [...]" lines into the file.
    args = ["-m", "perfectplay", "solve", "connect4", "4444413231", "--book", "none"]
    piped = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=300)
    assert piped.returncode == 0 and piped.stderr == ""
    assert "best moves: 6" in piped.stdout
    terminal = pexpect.spawn(sys.executable, args, encoding="utf-8", timeout=300)
    terminal.expect(r"score in \[")
    terminal.expect("best moves: 6")
    terminal.expect(pexpect.EOF)


HANGING_GAME = """
import time
from perfectplay import Game


class Hang(Game[int, int]):
    name = "hang"

    def start(self):
        return 10

    def moves(self, sticks):
        while sticks == {hang_at}:
            time.sleep(0.05)
        return [take for take in (1, 2) if take <= sticks]

    def play(self, sticks, take):
        return sticks - take
"""


@pytest.mark.parametrize("hang_at", [9, 4])  # in the first check of the game; inside a search
def test_play_cuts_off_a_users_call_that_outlasts_the_think_time(tmp_path: Path, hang_at: int) -> None:
    # `play mygame.py:Game --think-time 1` ran on past 30 s when moves() never returned.
    (tmp_path / "hang.py").write_text(HANGING_GAME.format(hang_at=hang_at))
    started = time.perf_counter()
    ran = subprocess.run([sys.executable, "-m", "perfectplay", "play", "hang.py:Hang", "--think-time", "1",
                          "--first", "computer"], input="quit\n", capture_output=True, text=True,
                         cwd=tmp_path, timeout=120)
    assert ran.returncode == 1, ran.stderr
    assert ran.stderr.startswith(f"stopped: your game's Hang.moves() on position {hang_at} has not "
                                 "returned after ") and ran.stderr.count("\n") == 1, ran.stderr
    assert "longer than --think-time 1 allows" in ran.stderr
    assert time.perf_counter() - started < 60


def test_a_slow_search_asked_for_by_name_points_to_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    # `solve connect4 --algorithm pns` (pure-Python df-pn of the empty board) ran for hours
    # with no word, where auto's kernel solves it in minutes.
    import perfectplay.cli.solving as solving
    monkeypatch.setattr(solving, "FASTER_WAY_NOTE_SECONDS", 0.01)
    board = ("connect4", "--width", "4", "--height", "4", "1221")
    ran = run_main("solve", *board, "--algorithm", "pns")
    assert ran.code == 0 and "score: +0" in ran.stdout
    assert ran.stderr.startswith("solve connect4 --algorithm pns: still searching after 0.01 s with no "
                                 "limit; without --algorithm, the game's compiled method answers this "
                                 "position, usually far faster")
    assert ran.stderr.count("\n") == 1
    for quiet in (("--algorithm", "pns", "--nodes", "100000"), ()):  # bounded; auto's own choice
        ran = run_main("solve", *board, *quiet)
        assert ran.code == 0 and ran.stderr == "", ran.stderr
    ran = run_main("solve", "tictactoe", "--algorithm", "minimax")  # nothing compiled is faster
    assert ran.code == 0 and ran.stderr == ""


def test_verify_sets_aside_positions_too_large_for_minimax() -> None:
    # `verify octal --cases 3` was once still running after 200 s (Kayles 8 7 by minimax).
    started = time.perf_counter()
    ran = run_main("verify", "octal", "--cases", "3", "--json")
    assert ran.code == 0, ran.stderr
    report = json.loads(ran.stdout)
    assert (report["cases"], report["mismatches"]) == (3, [])
    assert report["too_large_for_minimax"] >= 1
    assert time.perf_counter() - started < 120


def test_retrograde_analysis_of_a_slow_game_keeps_its_time_limit() -> None:
    # Chess expands some 1,000 positions a second and retro polled every 32,768: a library
    # call with a 1 s limit returned after 40 s (the CLI's watchdog hid it).
    from perfectplay import registry, solve
    from perfectplay.errors import LimitReached
    from perfectplay.search.limits import Limits
    game, start = registry.load("chess")
    started = time.perf_counter()
    with pytest.raises(LimitReached, match=r"retro stopped \(time\)"):
        solve(game, start, algorithm="retro", limits=Limits(time=1.0))
    assert time.perf_counter() - started < 5


def test_verify_gives_up_when_every_position_is_too_large(monkeypatch: pytest.MonkeyPatch) -> None:
    import perfectplay.verify as verify
    monkeypatch.setattr(verify, "REFERENCE_NODES", 2)
    ran = run_main("verify", "nim", "--cases", "3")
    assert (ran.code, ran.stderr.strip()) == (
        2, "error: nim: 5 random positions in a row were too large for minimax, the reference (2 "
           "nodes each); verify needs smaller positions (a smaller board or fewer tokens)")


def test_verify_refuses_a_game_too_big_to_solve() -> None:
    ran = run_main("verify", "chess", "--cases", "1")
    assert (ran.code, ran.stderr.strip()) == (
        2, "error: chess is too big to solve, so minimax, the reference, cannot check it on random "
           "positions")
