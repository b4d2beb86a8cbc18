"""Clear messages and exit codes (issue 13, sections 3 and 4): each case is the command a
new user typed, what it must print and its exit code."""

from __future__ import annotations

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
    commands = list(cli.commands.values())
    commands += [sub for command in commands if isinstance(command, click.Group)
                 for sub in command.commands.values()]
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
