"""The crate line in its contest format (n, then n values; `diff D` and `mover M other O`
out): exact output, --pv, and one-line errors."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from perfectplay.cli import main

SAMPLES = [
    ("3\n3 9 1\n", "diff 11\nmover 12 other 1\n"),          # the contest's first sample
    ("5\n4 1 7 2 9\n", "diff 9\nmover 16 other 7\n"),       # the contest's second sample
    ("2\n5 1\n", "diff 6\nmover 6 other 0\n"),              # a practice case
    ("3\n2 2 2\n", "diff 2\nmover 4 other 2\n"),            # a practice case
    ("0\n", "diff 0\nmover 0 other 0\n"),                   # the empty game is valid
]


def run(argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = 0
    try:
        main(argv)
    except SystemExit as done:
        code = int(done.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("given, expected", SAMPLES)
def test_contest_crates_prints_the_contest_output_exactly(given, expected, monkeypatch, capsys):
    assert run(["contest", "crates"], given, monkeypatch, capsys) == (0, expected, "")


@pytest.mark.parametrize("given, expected", SAMPLES)
def test_solve_file_prints_the_same_answer(given, expected, tmp_path, monkeypatch, capsys):
    path = tmp_path / "input.txt"
    path.write_text(given)
    assert run(["solve", "crates", "--file", str(path)], "", monkeypatch, capsys) == (0, expected, "")


def test_pv_adds_the_best_first_moves_and_the_whole_line(monkeypatch, capsys):
    code, out, _ = run(["contest", "crates", "--pv"], "5\n4 1 7 2 9\n", monkeypatch, capsys)
    assert code == 0
    assert out == "diff 9\nmover 16 other 7\nbest R\nline R R R LL\n"


def test_pv_on_the_first_sample_takes_the_two_leftmost_crates_first(monkeypatch, capsys):
    _, out, _ = run(["contest", "crates", "--pv"], "3\n3 9 1\n", monkeypatch, capsys)
    assert out.splitlines()[2:] == ["best LL", "line LL L"]


def test_values_are_read_across_any_whitespace(monkeypatch, capsys):
    _, out, _ = run(["contest", "crates"], "  3 3\n\n9\t1  ", monkeypatch, capsys)
    assert out == "diff 11\nmover 12 other 1\n"


BAD_INPUTS = [
    ("", "the input is empty"),
    ("   \n", "the input is empty"),
    ("3\n1 2\n", "n = 3 but 2 crate values follow"),
    ("2\n1 2 3\n", "n = 2 but 3 crate values follow"),
    ("2\n1 -2\n", "crate value 2 is -2; crate values must be 0 or more"),
    ("2\n1 2.5\n", "crate value 2 is '2.5', not a whole number"),
    ("2\n1 x\n", "crate value 2 is 'x', not a whole number"),
    ("-1\n", "the crate count '-1' is not a whole number"),
    ("three\n1 2 3\n", "the crate count 'three' is not a whole number"),
]


@pytest.mark.parametrize("given, message", BAD_INPUTS)
def test_bad_input_is_one_line_naming_stdin_with_exit_code_2(given, message, monkeypatch, capsys):
    code, out, err = run(["contest", "crates"], given, monkeypatch, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "<stdin>" in err and message in err


def test_bad_file_input_names_the_file(tmp_path, monkeypatch, capsys):
    path = tmp_path / "row.txt"
    path.write_text("4\n1 2 3\n")
    code, _, err = run(["solve", "crates", "--file", str(path)], "", monkeypatch, capsys)
    assert code == 2 and err.count("\n") == 1 and str(path) in err


def test_a_missing_file_is_one_line_with_exit_code_2(tmp_path, monkeypatch, capsys):
    missing = tmp_path / "nowhere.txt"
    code, _, err = run(["solve", "crates", "--file", str(missing)], "", monkeypatch, capsys)
    assert code == 2 and err.count("\n") == 1 and str(missing) in err


def test_a_game_without_a_contest_format_is_refused(tmp_path, monkeypatch, capsys):
    path = tmp_path / "input.txt"
    path.write_text("1\n3\n")
    code, _, err = run(["solve", "nim", "--file", str(path)], "", monkeypatch, capsys)
    assert code == 2 and "no contest input format" in err


def test_totals_beyond_64_bits_are_printed_exactly(monkeypatch, capsys):
    values = [10**18 + i for i in range(40)]            # total about 4 * 10^19 > 2^63
    given = f"{len(values)}\n{' '.join(map(str, values))}\n"
    _, out, _ = run(["contest", "crates"], given, monkeypatch, capsys)
    diff = int(out.split()[1])
    mover, other = int(out.split()[3]), int(out.split()[5])
    assert mover + other == sum(values) and mover - other == diff
    assert mover > 2**63


def test_the_real_process_writes_the_same_bytes():
    done = subprocess.run([sys.executable, "-m", "perfectplay", "contest", "crates"],
                          input=b"3\n3 9 1\n",
                          capture_output=True, check=False, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"diff 11\nmover 12 other 1\n", b"")


def test_a_time_limit_stops_the_table_with_exit_code_1(tmp_path, monkeypatch, capsys):
    path = tmp_path / "big.txt"
    path.write_text("6000\n" + " ".join(["1000000"] * 6000) + "\n")
    code, out, err = run(["solve", "crates", "--file", str(path), "--time", "0.001"], "",
                         monkeypatch, capsys)
    assert code == 1 and out == "" and "table stopped (time)" in err


def test_pv_on_the_empty_game_prints_dashes(monkeypatch, capsys):
    _, out, _ = run(["contest", "crates", "--pv"], "0\n", monkeypatch, capsys)
    assert out == "diff 0\nmover 0 other 0\nbest -\nline -\n"


def test_solve_file_reads_a_coin_row_in_the_same_format(tmp_path, monkeypatch, capsys):
    path = tmp_path / "coins.txt"
    path.write_text("4\n8 15 3 7\n")
    code, out, _ = run(["solve", "coins", "--file", str(path), "--pv"], "", monkeypatch, capsys)
    assert code == 0 and out.splitlines()[:3] == ["diff 11", "mover 22 other 11", "best R"]
