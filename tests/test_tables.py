"""The transposition table: bounded size, documented replacement policy, size parsing."""

from __future__ import annotations

import pytest

from perfectplay.errors import BadOption
from perfectplay.search.transposition import TranspositionTable, parse_table_size
from perfectplay.value import EXACT, LOWER, UPPER


def test_exact_is_both_bounds() -> None:
    assert EXACT == LOWER | UPPER


def test_sizes_in_entries_and_bytes_round_down_to_a_power_of_two() -> None:
    assert parse_table_size("100000") == 65536
    assert parse_table_size(1024) == 1024
    assert parse_table_size("1MB", bytes_per_entry=16) == 65536
    assert parse_table_size("64mb") == 1 << 18


@pytest.mark.parametrize("bad", ["", "lots", "-5", "0", "1.5", "3 TB"])
def test_bad_sizes_are_rejected_with_the_input_quoted(bad: str) -> None:
    with pytest.raises(BadOption, match="table size"):
        parse_table_size(bad)


def test_a_deeper_entry_survives_a_shallower_one_from_the_same_search() -> None:
    table = TranspositionTable(16)
    table.store(1, 10, EXACT, 5, "a")
    table.store(17, 20, LOWER, 2, "b")  # same slot (17 & 15 == 1), shallower: kept out
    assert table.probe(1)[1] == 10
    assert table.probe(17) is None
    table.store(17, 20, LOWER, 7, "b")  # deeper: replaces
    assert table.probe(17)[1] == 20


def test_entries_from_an_earlier_search_always_yield() -> None:
    table = TranspositionTable(16)
    table.store(1, 10, EXACT, 9, "a")
    table.new_search()
    table.store(17, 20, UPPER, 1, "b")
    assert table.probe(17)[2] == UPPER


def test_the_table_never_grows() -> None:
    table = TranspositionTable(32)
    for key in range(10_000):
        table.store(key, key, EXACT, key % 7, None)
    assert len(table.slots) == 32
    assert table.filled() <= 32
