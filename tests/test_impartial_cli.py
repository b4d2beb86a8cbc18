"""The impartial commands: exact outputs, JSON fields, one-line errors with exit code 2."""

from __future__ import annotations

import io
import json
import sys

import pytest

from perfectplay.cli import main


def run(args, stdin="", monkeypatch=None):
    """Run the CLI; returns (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(stdin), out, err
    code = 0
    try:
        main(args)
    except SystemExit as stop:
        code = stop.code or 0
    finally:
        sys.stdin, sys.stdout, sys.stderr = old
    return code, out.getvalue(), err.getvalue()


def test_contest_claim_prints_the_contest_sample_output_exactly():
    code, out, _ = run(["contest", "claim"], "6\n1\n4\n8\n12\n16\n20\n")
    assert code == 0
    assert out == "WIN\nLOSE\nLOSE\nWIN\nWIN\nLOSE\n"


def test_contest_claim_answers_rows_of_a_billion_billion_items():
    code, out, _ = run(["contest", "claim"], "3\n999999999999999999\n1000000000000000000\n4\n")
    assert code == 0
    # An odd row is won by claiming the middle item (two equal runs remain); 4 is lost.
    assert out.splitlines()[0] == "WIN" and out.splitlines()[2] == "LOSE"


def test_contest_claim_answers_three_hundred_queries():
    # Speed is measured in benchmarks/impartial.py; here, every query gets its answer.
    queries = "300\n" + "\n".join(str(n % 20 + 1) for n in range(300)) + "\n"
    code, out, _ = run(["contest", "claim"], queries)
    assert code == 0 and len(out.splitlines()) == 300
    assert out.splitlines()[:4] == ["WIN", "WIN", "WIN", "LOSE"]


@pytest.mark.parametrize("stdin", ["", "2\n1\n", "1\nabc\n", "1\n0\n", "0\n"])
def test_contest_claim_rejects_bad_input_in_one_line(stdin):
    code, out, err = run(["contest", "claim"], stdin)
    assert code == 2 and out == ""
    assert err.startswith("error: claim queries") and err.count("\n") == 1


def test_contest_claim_honours_n_max():
    code, _, err = run(["contest", "claim", "--n-max", "20"], "1\n21\n")
    assert code == 2 and "outside 1..20" in err


def test_grundy_json_gives_the_value_and_components():
    code, out, _ = run(["grundy", "nim", "3", "4", "5", "--json"])
    payload = json.loads(out)
    assert code == 0 and payload["grundy"] == 2 and payload["components"] == [3, 4, 5]


def test_grundy_of_octal_heaps_and_claim_rows():
    from perfectplay.impartial.octal import parse_code, plain_sequence
    kayles = plain_sequence(parse_code("0.77"), 80)
    payload = json.loads(run(["grundy", "octal", "71", "5", "--code", "0.77", "--json"])[1])
    assert payload["grundy"] == kayles[71] ^ kayles[5]
    assert json.loads(run(["grundy", "claim", "20", "--json"])[1])["grundy"] == 0


@pytest.mark.parametrize("args", [["grundy", "tictactoe"], ["grundy", "nim", "1", "2", "--misere"],
                                  ["octal", "0.8"], ["octal", "abc"], ["octal", ""],
                                  ["solve", "octal", "3", "--code", "9.1"]])
def test_bad_requests_exit_2_with_one_line(args):
    code, _out, err = run(args)
    assert code == 2 and err.startswith("error:") and err.count("\n") == 1


def test_octal_json_reports_the_certified_period():
    code, out, _ = run(["octal", "0.77", "--upto", "20", "--json", "--at", str(10**18)])
    payload = json.loads(out)
    assert code == 0
    assert payload["sequence"][:6] == [0, 1, 2, 3, 1, 4]
    assert (payload["period"], payload["preperiod"], payload["certified"]) == (12, 71, True)
    n = 10**18
    from perfectplay.impartial.octal import parse_code, plain_sequence
    kayles = plain_sequence(parse_code("0.77"), 200)
    assert payload["at"]["grundy"] == kayles[71 + (n - 71) % 12]


def test_solve_says_remoteness_needs_search():
    code, out, _ = run(["solve", "nim", "3", "4", "5"])
    assert code == 0 and "remoteness needs --algorithm tt" in out and "1:2" in out
