"""Clear messages and exit codes: each case is the command a
new user typed, what it must print and its exit code."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from conftest import run_main

BIG = "1" + "0" * 30


def test_bare_perfectplay_shows_the_help_and_exits_0() -> None:
    ran = run_main()
    assert ran.code == 0 and ran.stderr == ""
    assert ran.stdout.startswith("Usage: perfectplay [OPTIONS] [COMMAND] [ARGS]...")
    assert "solve" in ran.stdout and "play" in ran.stdout


def test_octal_with_an_impossible_upto_is_refused_in_one_line() -> None:
    ran = run_main("octal", "0.77", "--upto", BIG)
    assert ran.code == 2
    assert ran.stderr.startswith(f"error: Invalid value for '--upto': {BIG} is not in the range "
                                 "0<=x<=10000000.")


def test_contest_claim_with_t_zero_says_t_counts_the_queries() -> None:
    ran = run_main("contest", "claim", stdin="0\n")
    assert ran.code == 2
    assert ran.stderr.strip() == "error: claim queries: T = 0; T counts the queries, so it is at least 1"


@pytest.mark.parametrize("args, message", [
    (("solve", "nim", "-1", "2"), "error: nim piles: '-1' is below 0 (in '-1 2')"),
    (("solve", "takeaway", "-5"), "error: take-away pile: '-5' is below 0 (in '-5')"),
    (("solve", "crates", "3", "-9", "1"), "error: crate values: '-9' is below 0 (in '3 -9 1')"),
    (("solve", "coins", "-5", "3"), "error: coin values: '-5' is below 0 (in '-5 3')"),
    (("solve", "claim", "-3"), "error: claim position '-3': the row length -3 is below 0"),
    (("solve", "connect4", "-4"), "error: connect4: move 1 ('-') is not a column digit 1-7"),
    (("solve", "matchgame", "-1"), "error: nim piles: '-1' is below 0 (in '-1')"),
    (("table", "takeaway", "-5..5"), "error: sizes '-5..5': FROM -5 is below 0"),
    (("grundy", "nim", "-1"), "error: nim piles: '-1' is below 0 (in '-1')"),
    (("play", "matchgame", "-1"), "error: nim piles: '-1' is below 0 (in '-1')"),
])
def test_a_negative_number_is_read_as_position_text_not_as_an_option(args: tuple[str, ...],
                                                                     message: str) -> None:
    ran = run_main(*args)
    assert (ran.code, ran.stderr.strip()) == (2, message)


def test_an_option_value_may_still_be_negative_and_is_refused_by_its_own_rule() -> None:
    ran = run_main("solve", "nim", "3", "--depth", "-1")
    assert (ran.code, ran.stderr.strip()) == (2, "error: depth must be at least 1 (got -1)")


@pytest.mark.parametrize("args, message", [
    (("solve", "takeaway", "20", "--take", ""),
     "error: --take '' is empty; give subtraction set, e.g. 1,2,3"),
    (("solve", "octal", "5", "--code", ""), "error: --code '' is empty; give octal game code, e.g. 0.77 "
                                             "(Kayles) or 0.137 (Dawson's chess)"),
    (("solve", "claim", "5", "--block", ""), "error: Invalid value for '--block': '' is not one of "
                                              "'both', 'right'. (see: perfectplay solve --help)"),
    (("solve", "takeaway", "20", "--take", BIG), f"error: --take '{BIG}': amounts must be at most 1,000,000"),
    (("table", "takeaway", f"1..{BIG}"), f"error: sizes '1..{BIG}': {int(BIG) :,} sizes, more than the "
                                         "100,000 one table may hold"),
    (("verify", "nim", "--cases", BIG), f"error: Invalid value for '--cases': {BIG} is not in the range "
                                        "1<=x<=100000. (see: perfectplay verify --help)"),
])
def test_empty_and_impossible_values_are_refused_not_defaulted(args: tuple[str, ...], message: str) -> None:
    ran = run_main(*args)
    assert (ran.code, ran.stderr.strip()) == (2, message)


@pytest.mark.parametrize("args, start", [
    (("solve", "crates", "3", "9", "1", "--pv-limit", "-1"), "error: Invalid value for '--pv-limit'"),
    (("solve", "crates", "--pv"), "error: --pv prints the contest answer's line; it needs --file INPUT"),
    (("solve", "nim", "3", "4", "--algorithm", "grundy", "--depth", "3"),
     "error: --algorithm grundy answers by theory, at once and to the end: --depth, --nodes and --time "
     "do not apply"),
    (("play", "matchgame", "--level-a", "easy"), "error: --level-a and --level-b set the two computers"),
])
def test_flags_that_would_do_nothing_are_refused(args: tuple[str, ...], start: str) -> None:
    ran = run_main(*args)
    assert ran.code == 2 and ran.stderr.startswith(start), ran.stderr


@pytest.mark.parametrize("args, message", [
    (("compare", "nim", "3", "--tt-size", "-5"),
     "error: table size '-5' is not a number of entries or bytes like 64MB"),
    (("compare", "tictactoe", "--algorithms", "grundy"),
     "error: --algorithms: grundy: tictactoe is not an impartial game (both players must have the same "
     "moves in every position), so it has no Grundy values"),
])
def test_compare_reports_errors_instead_of_hiding_them_in_cells(args: tuple[str, ...], message: str) -> None:
    ran = run_main(*args)
    assert (ran.code, ran.stderr.strip()) == (2, message)


def test_a_closed_output_pipe_exits_0_quietly() -> None:
    reader = subprocess.Popen([sys.executable, "-m", "perfectplay", "octal", "0.77", "--upto", "200000"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert reader.stdout is not None and reader.stderr is not None
    reader.stdout.readline()
    reader.stdout.close()  # as `| head -1` does
    assert reader.wait(timeout=60) == 0
    assert reader.stderr.read() == b""


def test_the_command_list_gives_whole_sentences() -> None:
    ran = run_main("--help")
    assert "e.g." not in ran.stdout
    # The column's width follows the longest command name (tablebase).
    assert re.search(r"table +Outcomes over a range of sizes FROM\.\.TO\.", ran.stdout)


def test_every_option_of_every_command_has_help() -> None:
    from perfectplay.cli import cli
    # The groups load their commands lazily (the games' own among them): ask each by name.
    context = click.Context(cli)

    def listed(group: click.Group) -> list[click.Command]:
        found = [group.get_command(context, name) for name in group.list_commands(context)]
        return [command for command in found if command is not None]

    commands = listed(cli)
    assert {"book", "tablebase", "octal"} <= {command.name for command in commands}
    commands += [sub for command in commands if isinstance(command, click.Group)
                 for sub in listed(command)]
    missing = [(command.name, param.name) for command in commands for param in command.params
               if isinstance(param, click.Option) and not param.help]
    assert missing == []
    assert "grundy" in run_main("solve", "--help").stdout


def test_the_readme_says_which_commands_take_json() -> None:
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    assert "Every command takes `--json`" not in readme
    for command in ("tour", "play"):
        assert "--json" not in run_main(command, "--help").stdout
    assert "--max-terms 600000" in readme


def test_progress_bars_stay_off_when_output_is_piped_or_json() -> None:
    ran = run_main("verify", "nim", "--cases", "3")
    assert ran.stderr == "" and ran.stdout.startswith("nim: 3 random positions")


def test_the_version_printed_is_the_one_pyproject_declares() -> None:
    import re

    import perfectplay
    pyproject = (Path(__file__).parent.parent / "pyproject.toml").read_text()
    declared = re.search(r'^version = "([^"]+)"', pyproject, re.M)
    assert declared is not None and perfectplay.__version__ == declared.group(1)
    assert run_main("--version").stdout.strip() == f"perfectplay, version {declared.group(1)}"


# -- messages a user can act on -------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (("tree", "dodgem", "--svg", os.devnull),
     "error: dodgem is loopy (positions can repeat): tree draws alpha-beta's search, which cannot "
     "solve it; `perfectplay solve dodgem` solves it by retrograde analysis"),
    (("compare", "dodgem"),
     "error: --algorithms: minimax: dodgem is loopy (positions can repeat), so search cannot solve "
     "it; use --algorithms retro (retrograde analysis)"),
    (("solve", "dodgem", "--algorithm", "engine"),
     "error: the engine searches to a limit: give --depth, --nodes or --time (without one, an exact "
     "method such as retro (retrograde analysis) solves the position)"),
    (("solve", "coins", "-8 -15"), "error: coin values: '-8' is below 0 (in '-8 -15')"),
    (("match", "connect4", "--opening-plies", "100"),
     "error: --opening-plies 100: every random game of connect4 had ended by then (the longest of "
     "200 lasted 41 plies; connect4 games last at most 42 plies); give --opening-plies 40 or fewer"),
])
def test_each_message_names_an_option_the_command_has(args: tuple[str, ...], message: str) -> None:
    ran = run_main(*args)
    assert (ran.code, ran.stderr.strip()) == (2, message)


def test_a_tree_with_an_unwritable_path_fails_before_any_work(monkeypatch: pytest.MonkeyPatch,
                                                              tmp_path: Path) -> None:
    import perfectplay.pictures.tree as tree
    monkeypatch.setattr(tree, "tree_svg", lambda *args: pytest.fail("drawn before the path was checked"))
    target = tmp_path / "no" / "tree.svg"
    ran = run_main("tree", "tictactoe", "--svg", str(target))
    assert (ran.code, ran.stderr.strip()) == (
        2, f"error: --svg '{target}': cannot write it (No such file or directory)")


def test_a_tree_too_large_to_solve_is_refused_not_searched_for_days() -> None:
    ran = run_main("tree", "connect4", "--svg", os.devnull)
    assert (ran.code, ran.stderr.strip()) == (
        2, "error: the tree's exact values need more than 200,000 nodes of alpha-beta search; draw "
           "it from a later position")


@pytest.mark.parametrize("args, kind, code", [
    (("solve", "tictactoe", "--nodes", "1", "--json"), "stopped", 1),
    (("solve", "nim", "-1", "--json"), "error", 2),
    (("perft", "chopsticks", "--depth", "100", "--json"), "error", 2),
])
def test_json_is_printed_also_when_a_command_stops_or_fails(args: tuple[str, ...], kind: str,
                                                            code: int) -> None:
    # `--nodes 1 --json` once printed no JSON.
    ran = run_main(*args)
    assert ran.code == code
    payload = json.loads(ran.stdout)
    assert payload == {kind: ran.stderr.strip().split(": ", 1)[1], "exit_code": code}


def test_a_json_request_does_not_outlive_its_command() -> None:
    run_main("solve", "nim", "-1", "--json")
    ran = run_main("solve", "nim", "-1")
    assert ran.stdout == ""


def test_an_answer_read_from_the_book_counts_its_search_as_such() -> None:
    # An answer from the book once said "0 nodes" beside 1.45 M cutoffs for `solve connect4 4453`.
    lines = run_main("solve", "connect4", "4455").stdout.splitlines()
    assert lines[4] == ("from the opening book (every position up to 9 stones): answered without "
                        "a search; " + lines[4].rsplit("; ", 1)[1])
    line = run_main("solve", "connect4", "4453").stdout.splitlines()[4]
    assert line.startswith("from the opening book (every position up to 9 stones): the value "
                           "without a search; ")
    assert " nodes (" in line and "to find every optimal move and the line" in line
    assert "0 nodes" not in line.replace("00 nodes", "")


def test_the_games_list_keeps_square_brackets() -> None:
    # rich's markup once ate "[chess]" in "the extra perfectplay[chess]".
    ran = subprocess.run([sys.executable, "-m", "perfectplay", "games"], capture_output=True, text=True,
                         timeout=60, env=dict(os.environ, COLUMNS="300"))
    assert "(the extra perfectplay[chess])" in ran.stdout


@pytest.mark.parametrize("command", [["contest", "crates"], ["contest", "claim"]])
def test_input_that_is_not_utf8_is_one_line_with_exit_2(command: list[str]) -> None:
    # It once ended in UnicodeDecodeError (exit 3) when Python read stdin strictly (a UTF-8 locale).
    ran = subprocess.run([sys.executable, "-m", "perfectplay", *command], input=b"3 \xff\xfe 9\n",
                         capture_output=True, timeout=60, env=dict(os.environ, PYTHONIOENCODING="utf-8"))
    assert ran.returncode == 2
    assert ran.stderr.decode().count("\n") == 1
    assert ran.stderr.decode().endswith("on stdin: byte 0xff at offset 2 is not UTF-8 text; give "
                                        "text (numbers and letters)\n")


def test_the_package_licence_is_written_the_current_way() -> None:
    # `license = {text = ...}` once made setuptools print a 15-line warning three times.
    import tomllib
    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    assert project["project"]["license"] == "MIT"
    assert project["build-system"]["requires"] == ["setuptools>=77"]  # the first to read it


def test_a_tree_of_a_game_too_big_to_solve_is_refused_at_once() -> None:
    ran = run_main("tree", "chess", "--svg", os.devnull)
    assert (ran.code, ran.stderr.strip()) == (
        2, "error: chess is too big to solve: tree colours every node by its exact value, which no "
           "search here can find")


# Hex 5x5 is too big to solve from its start, but not with six empty cells left.
HEX_ENDGAME = "a1 b2 c3 d4 e5 a2 b3 c4 d5 a3 b4 c5 a4 b5 a5 e1 e2 e3 e4"


def test_tree_and_compare_ask_the_position_whether_it_can_be_solved(tmp_path: Path) -> None:
    # They read the board's declaration and refused every Hex 5x5 position, however late.
    svg = tmp_path / "tree.svg"
    drawn = run_main("tree", "hex", "--size", "5", HEX_ENDGAME, "--depth", "1", "--svg", str(svg))
    assert drawn.code == 0 and svg.read_text().startswith("<svg")
    compared = run_main("compare", "hex", "--size", "5", HEX_ENDGAME, "--json")
    assert compared.code == 0, compared.stderr
    rows = json.loads(compared.stdout)["rows"]
    assert {row["value"] for row in rows} == {"win in 3"}  # every algorithm agrees
    refused = run_main("compare", "hex", "--size", "7")  # 5x5 and 6x6: the solver's, with numba
    assert (refused.code, refused.stderr.strip()) == (
        2, "error: hex is too big to solve: compare times exact searches, and every one would "
           "only reach its node cap")


def test_compare_refuses_a_game_too_big_to_solve() -> None:
    ran = run_main("compare", "chess")
    assert (ran.code, ran.stderr.strip()) == (
        2, "error: chess is too big to solve: compare times exact searches, and every one would "
           "only reach its node cap")
