"""Clear messages and exit codes (issue 13, sections 3 and 4): each case is the command a
new user typed, what it must print and its exit code."""

from __future__ import annotations

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
