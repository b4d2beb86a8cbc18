"""Hex: rules, notation, the maps of winning first moves against an independent brute force
and the published maps (HexWiki, "Small boards"; Queenbee's openings page)."""

from __future__ import annotations

import random
import subprocess
import sys
from functools import cache

import pytest

from perfectplay import analyze, registry, solve
from perfectplay.errors import BadOption, BadPosition, IllegalMove


def hex_game(size: int, text: str | None = None):  # type: ignore[no-untyped-def]
    return registry.load("hex", {"size": size}, text)


def neighbours(size: int, column: int, row: int) -> list[tuple[int, int]]:
    steps = ((-1, 0), (1, 0), (0, -1), (0, 1), (1, -1), (-1, 1))
    return [(column + dc, row + dr) for dc, dr in steps
            if 0 <= column + dc < size and 0 <= row + dr < size]


def joins(size: int, stones: frozenset[tuple[int, int]], vertical: bool) -> bool:
    """A plain search over cells (no bit sets): does the chain join the player's edges?"""
    start = [cell for cell in stones if (cell[1] if vertical else cell[0]) == 0]
    seen, todo = set(start), list(start)
    while todo:
        cell = todo.pop()
        if (cell[1] if vertical else cell[0]) == size - 1:
            return True
        for near in neighbours(size, *cell):
            if near in stones and near not in seen:
                seen.add(near)
                todo.append(near)
    return False


def brute_force_winners(size: int) -> set[str]:
    """The winning first moves by plain memoised minimax over sets of cells."""
    cells = [(c, r) for r in range(size) for c in range(size)]

    @cache
    def mover_wins(x: frozenset, o: frozenset) -> bool:  # type: ignore[type-arg]
        x_moves = len(x) == len(o)
        for cell in cells:
            if cell in x or cell in o:
                continue
            if x_moves:
                nx = x | {cell}
                if joins(size, nx, True) or not mover_wins(nx, o):
                    return True
            else:
                no = o | {cell}
                if joins(size, no, False) or not mover_wins(x, no):
                    return True
        return False

    return {f"{'abcdefghijk'[c]}{r + 1}" for c, r in cells
            if not mover_wins(frozenset({(c, r)}), frozenset())}


def proved_value(game, position) -> int:  # type: ignore[no-untyped-def]
    """The value alone by df-pn (solve would also prove every other optimal move)."""
    from perfectplay.pns.dfpn import ProofSearch
    from perfectplay.pns.method import value_of
    from perfectplay.search.limits import Budget
    return value_of(ProofSearch(game, Budget()), position)


def winning_first_moves(size: int, algorithm: str) -> set[str]:
    game, start = hex_game(size)
    return {move.notation for move in analyze(game, start, algorithm=algorithm) if move.value > 0}


def test_the_3x3_map_matches_a_brute_force_that_shares_no_code() -> None:
    # HexWiki's 3x3 map: the centre and both obtuse corners win, as do the edge cells a2
    # and c2 beside them; a1, b1, c3 and b3 lose.
    expected = {"b2", "a3", "c1", "a2", "c2"}
    assert brute_force_winners(3) == expected
    assert winning_first_moves(3, "tt") == expected
    assert winning_first_moves(3, "pns") == expected


def test_the_first_player_wins_on_every_small_board() -> None:
    for size in (1, 2, 3):
        game, start = hex_game(size)
        assert solve(game, start, algorithm="pns").value > 0


def test_4x4_openings_agree_with_the_published_map() -> None:
    # Queenbee's openings page and HexWiki: on 4x4 only the short diagonal a4, b3, c2, d1
    # wins (the whole map is in docs/pns.md; the test checks a winning and a losing cell).
    game, after_d1 = hex_game(4, "d1")
    assert proved_value(game, after_d1) == -1  # O to move loses
    game, after_a1 = hex_game(4, "a1")
    assert proved_value(game, after_a1) == 1  # O to move wins


def test_random_full_boards_have_exactly_one_winner() -> None:
    rng = random.Random(5)
    for size in (3, 5, 7):
        game, start = hex_game(size)
        for _ in range(30):
            cells = list(game.moves(start))
            rng.shuffle(cells)
            position = start
            for cell in cells:
                position = game.play(position, cell)
            x, o = position
            assert game.connected(x, game.top, game.bottom) != game.connected(o, game.left, game.right)


def test_the_game_ends_at_the_first_chain_and_the_side_to_move_has_lost() -> None:
    game, position = hex_game(3, "a1 b1 a2 b2 a3")
    assert game.winner(position) == "X"
    assert solve(game, position, algorithm="tt").describe() == "loss in 0"
    assert solve(game, position).describe() == "loss"  # auto: df-pn, without distances
    with pytest.raises(BadPosition, match="the game is over"):
        hex_game(3, "a1 b1 a2 b2 a3 c1")


def test_notation_board_text_and_moves_describe_the_same_position() -> None:
    game, by_moves = hex_game(3, "b2 a1 c1")
    _, by_rows = hex_game(3, "O.X/.X./...")
    assert by_moves == by_rows
    assert game.format_position(by_moves) == "O.X/.X./..."
    assert game.format_move(by_moves, game.parse_move(by_moves, "A3")) == "a3"
    assert "O to move" in game.render(by_moves)


@pytest.mark.parametrize("text, message", [
    ("z9", "not a cell"), ("b2 b2", "already taken"), ("XX./.../...", "as many stones"),
    ("XX", "give 3 rows"),
])
def test_bad_positions_are_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(BadPosition, match=message):
        hex_game(3, text)


def test_bad_sizes_and_moves_are_refused() -> None:
    with pytest.raises(BadOption, match="--size 12"):
        hex_game(12)
    game, start = hex_game(3, "b2")
    with pytest.raises(IllegalMove, match="'b2' is not a legal move"):
        game.parse_move(start, "b2")


def test_the_command_line_solves_hex_and_refuses_a_bad_size() -> None:
    run = [sys.executable, "-m", "perfectplay"]
    done = subprocess.run([*run, "solve", "hex", "--size", "3", "--algorithm", "pns"],
                          capture_output=True, text=True)
    assert done.returncode == 0 and "value: win" in done.stdout and "best moves: b2" in done.stdout
    bad = subprocess.run([*run, "solve", "hex", "--size", "0"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "--size 0" in bad.stderr
    big = subprocess.run([*run, "solve", "hex", "--size", "7"], capture_output=True, text=True)
    assert big.returncode == 2 and "too big to solve" in big.stderr
