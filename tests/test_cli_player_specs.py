"""Limits that protect the machine: every value a `match` player may set is checked
against its stated range before a process starts, and each setting is given once."""

from __future__ import annotations

import re

import pytest
from conftest import run_main

from perfectplay.engine.api import SearchLimits, Settings
from perfectplay.engine.spec import MAX_TABLE_ENTRIES, MAX_THREADS, RANGES, parse_spec
from perfectplay.errors import BadOption


def parsed(text: str) -> object:
    return parse_spec(text, Settings(), SearchLimits(depth=4))


def test_a_thousand_threads_are_refused_before_any_process_starts() -> None:
    # `--second threads=1000` once started 1,000 processes (load average 86 on 2 cores).
    ran = run_main("match", "tictactoe", "--second", "threads=1000", "--pairs", "1")
    assert (ran.code, ran.stderr.strip()) == (
        2, "error: player 'threads=1000': threads=1000 is out of range: give 1 to 64")
    assert ran.stdout == ""


def test_the_bounds_are_the_ones_the_uci_options_advertise() -> None:
    from perfectplay.uci.options import MAX_HASH_MB
    from perfectplay.uci.options import MAX_THREADS as UCI_THREADS
    from perfectplay.uci.protocol import ENTRY_BYTES
    assert MAX_THREADS == UCI_THREADS
    assert MAX_TABLE_ENTRIES == (MAX_HASH_MB << 20) // ENTRY_BYTES


@pytest.mark.parametrize("key", sorted(RANGES))
def test_every_setting_is_held_to_its_range(key: str) -> None:
    low, high = RANGES[key]
    if key == "time":
        assert parsed(f"time={high:g}") and parsed("time=0.001")
        for bad in ("0", "-1", "nan", "inf", f"{high * 2:g}"):
            with pytest.raises(BadOption, match=re.escape(f"time={bad} is out of range")):
                parsed(f"time={bad}")
        return
    for good in (int(low), int(high)):
        parsed(f"{key}={good}")
    for bad in (int(low) - 1, int(high) + 1):
        with pytest.raises(BadOption, match=f"{key}={bad} is out of range: give {int(low):,} to "
                                            f"{int(high):,}"):
            parsed(f"{key}={bad}")


@pytest.mark.parametrize("text, key", [("pvs=on,pvs=off", "pvs"), ("depth=3,time=1,depth=5", "depth"),
                                       ("uci=a,uci=b", "uci")])
def test_a_setting_given_twice_is_refused(text: str, key: str) -> None:
    ran = run_main("match", "tictactoe", "--second", text, "--pairs", "1")
    assert (ran.code, ran.stderr.strip()) == (
        2, f"error: player {text!r}: {key} is given twice; give each setting once")


def test_the_shared_thread_count_and_the_pairs_at_once_are_bounded_together() -> None:
    ran = run_main("match", "tictactoe", "--threads", "1000", "--pairs", "1")
    assert (ran.code, ran.stderr.strip()) == (
        2, "error: --threads 1000: give 1 to 64 search processes per engine")
    ran = run_main("match", "tictactoe", "--concurrency", "8", "--second", "threads=16", "--pairs", "1")
    assert (ran.code, ran.stderr.strip()) == (
        2, "error: --concurrency 8 with 16 threads per engine would run 128 searches at once; at "
           "most 64 are allowed")


def test_a_match_cannot_play_a_game_for_ever() -> None:
    ran = run_main("match", "tictactoe", "--max-plies", "1" + "0" * 30)
    assert (ran.code, ran.stderr.strip()) == (
        2, "error: --max-plies 1000000000000000000000000000000: give at most 10,000 plies")
