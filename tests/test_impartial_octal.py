"""Octal games: published sequences, periods certified by Guy-Smith, the fast method."""

from __future__ import annotations

from pathlib import Path

import pytest

from perfectplay.errors import BadOption
from perfectplay.impartial import sparse
from perfectplay.impartial.octal import (
    analyse,
    find_period,
    parse_code,
    plain_sequence,
    subtraction_code,
    terms_to_certify,
)

DATA = Path(__file__).parents[1] / "../shared/data/grundy"

# Published terms embedded so the tests stand even without the shared data:
# Kayles (OEIS A002186) and Dawson's chess 0.137 (OEIS A002187), from G(0).
KAYLES = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8,
          5, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 3, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2]
DAWSON = [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1,
          0, 4, 5, 2, 7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2]
PUBLISHED_PERIODS = {"0.77": (12, 71), "0.137": (34, 52), "0.07": (34, 53), "0.7777": (24, 142)}


def test_embedded_published_terms_match_the_plain_mex_rule():
    assert plain_sequence(parse_code("0.77"), len(KAYLES)) == KAYLES
    assert plain_sequence(parse_code("0.137"), len(DAWSON)) == DAWSON


@pytest.mark.parametrize("code", sorted(PUBLISHED_PERIODS))
def test_shared_published_sequences_match(code):
    path = DATA / f"{code}.txt"
    if not path.exists():
        pytest.skip(f"shared data {path} is absent")
    published = [int(token) for token in path.read_text().split()]
    assert plain_sequence(parse_code(code), len(published)) == published


@pytest.mark.parametrize("code", sorted(PUBLISHED_PERIODS))
def test_published_periods_are_found_and_certified(code):
    period, preperiod = PUBLISHED_PERIODS[code]
    found = analyse(parse_code(code)).periodicity
    assert found is not None and found.certified
    assert (found.period, found.preperiod) == (period, preperiod)


def test_dawsons_kayles_is_dawsons_chess_shifted_by_one():
    chess = plain_sequence(parse_code("0.137"), 300)
    kayles = plain_sequence(parse_code("0.07"), 301)
    assert kayles[1:] == chess


def test_too_few_terms_certify_nothing():
    code = parse_code("0.77")
    needed = terms_to_certify(12, 71, code.last)
    assert find_period(plain_sequence(code, needed - 1), code.last) is None
    assert find_period(plain_sequence(code, needed), code.last).period == 12


def test_certified_values_hold_far_beyond_the_data():
    code = parse_code("0.77")
    analysis = analyse(code)
    longer = plain_sequence(code, 1200)
    assert [analysis.grundy(n) for n in range(1200)] == longer
    assert analysis.grundy(10**18) == analysis.grundy(71 + (10**18 - 71) % 12)


@pytest.mark.parametrize("code", ["0.16", "0.77", "0.137", "4.07", "0.37"])
def test_rare_common_method_agrees_with_plain_mex(code):
    parsed = parse_code(code)
    plain = plain_sequence(parsed, 1500)
    assert list(sparse.sparse_sequence(parsed, 1500, use_numba=False)) == plain


def test_compiled_rare_common_kernel_agrees_on_016():
    parsed = parse_code("0.16")
    plain = plain_sequence(parsed, 2500)
    assert list(sparse.sparse_sequence(parsed, 2500)) == plain


def test_any_mask_gives_the_same_values():
    parsed = parse_code("0.16")
    plain = plain_sequence(parsed, 900)
    for mask in (1, 2, 7):
        assert list(sparse.sparse_sequence(parsed, 900, mask=mask, use_numba=False)) == plain


@pytest.mark.parametrize("text,digits", [("0.77", (0, 7, 7)), (".6", (0, 6)), ("4.07", (4, 0, 7)),
                                         ("0.1370", (0, 1, 3, 7)), (" 0.137 ", (0, 1, 3, 7))])
def test_codes_are_read(text, digits):
    assert parse_code(text).digits == digits


@pytest.mark.parametrize("text", ["0.8", "abc", "", "   ", "5.7", "0.", "0.0", "1.2.3"])
def test_bad_codes_are_rejected_with_the_input_quoted(text):
    with pytest.raises(BadOption, match="octal code"):
        parse_code(text)


@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_subtraction_one_to_k_is_n_mod_k_plus_one(k):
    analysis = analyse(subtraction_code(range(1, k + 1)))
    assert (analysis.periodicity.period, analysis.periodicity.preperiod) == (k + 1, 0)
    assert analysis.grundy(10**18 + 7) == (10**18 + 7) % (k + 1)
