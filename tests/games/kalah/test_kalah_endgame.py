"""Kalah's endgame databases, the MTD(f) kernel and the two capture rules: the databases
against the brute force and against the kernel's search without them, MTD(f) against one
full-window alpha-beta search, each rule against the brute force, and the files' resumption
and checks."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from perfectplay import registry, solve
from perfectplay.errors import BadDatabase, BadOption
from perfectplay.games.kalah.rules import Kalah, brute_force_value

pytestmark = pytest.mark.skipif(
    not __import__("perfectplay.compiled", fromlist=["x"]).numba_available(),
    reason="numba is not installed")

# Values from the start with captures only when seeds lie opposite ("standard"), where they
# differ from the empty-capture rule's (tests/games/kalah/test_kalah.py: (2,4) -12, (4,3) +8).
STANDARD_RULE = {(2, 4): -10, (4, 3): 6, (5, 2): 2, (6, 2): 6}


def _random_board(rng: random.Random, pits: int, most: int) -> list[int]:
    """Pits from the side to move, both sides with seeds, at most ``most`` seeds in all."""
    while True:
        total = rng.randrange(2, most + 1)
        cuts = sorted(rng.randrange(total + 1) for _ in range(2 * pits - 1))
        board = [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]
        if any(board[:pits]) and any(board[pits:]):
            return board


def _position(pits: int, board: list[int]) -> tuple[tuple[int, ...], int]:
    """A position of Kalah(pits, 30) with ``board`` in play, South to move."""
    store = 2 * pits * 30 - sum(board)
    return (*board[:pits], store, *board[pits:], 0), 0


@pytest.mark.parametrize("empty_capture", [True, False])
def test_the_database_holds_the_brute_force_value_of_random_boards(tmp_path: Path,
                                                                   empty_capture: bool) -> None:
    from perfectplay.games.kalah.endgame import build
    database = build(tmp_path / "k3.db", 3, empty_capture, 7)
    game = Kalah(3, 30, empty_capture=empty_capture)
    rng = random.Random(3)
    for _ in range(60):
        board = _random_board(rng, 3, 7)
        assert database.value(board) == brute_force_value(game, _position(3, board)), board


@pytest.mark.parametrize("empty_capture", [True, False])
def test_the_database_agrees_with_the_kernel_searching_without_it(tmp_path: Path,
                                                                  empty_capture: bool) -> None:
    from perfectplay.games.kalah.endgame import build
    from perfectplay.games.kalah.kernel import Searcher
    database = build(tmp_path / "k4.db", 4, empty_capture, 11)
    game = Kalah(4, 30, empty_capture=empty_capture)
    rng = random.Random(4)
    for _ in range(40):
        board = _random_board(rng, 4, 11)
        searched = Searcher(game, table_bits=16).window_value(_position(4, board), 10**9)
        assert database.value(board) == searched, board


@pytest.mark.parametrize("empty_capture", [True, False])
def test_mtdf_with_and_without_deepening_agrees_with_one_full_window_search(tmp_path: Path,
                                                                   empty_capture: bool) -> None:
    from perfectplay.games.kalah.endgame import build
    from perfectplay.games.kalah.kernel import Searcher
    database = build(tmp_path / "k4.db", 4, empty_capture, 6)
    rng = random.Random(5)
    for pits, seeds in ((4, 3), (3, 4), (4, 4)):
        game = Kalah(pits, seeds, empty_capture=empty_capture)
        for _ in range(8):
            position = game.random_position(rng)
            if not game.legal_moves(position):
                continue
            plain = Searcher(game, table_bits=16).window_value(position, 10**9)
            guess = rng.randrange(-10, 11)
            by_mtdf = Searcher(game, table_bits=16).value(position, 10**9, lambda nodes: None,
                                                          guess=guess, deepening=())
            assert by_mtdf == plain, (game.format_position(position), guess)
            # Iterative deepening, in a table small enough that its bounds from depth-limited
            # searches and exact ones keep replacing each other.
            for deepening in ((1, 2, 3), (2, 4, 6, 8), (5,)):
                deepened = Searcher(game, table_bits=8).value(position, 10**9, lambda nodes: None,
                                                              guess=guess, deepening=deepening)
                assert deepened == plain, (game.format_position(position), guess, deepening)
            if pits == 4:
                with_database = Searcher(game, database, table_bits=16).value(
                    position, 10**9, lambda nodes: None)
                assert with_database == plain, game.format_position(position)


def test_the_standard_capture_rule_against_the_brute_force_and_the_searches() -> None:
    small = Kalah(2, 4, empty_capture=False)
    assert brute_force_value(small, small.start()) == STANDARD_RULE[(2, 4)]
    for (pits, seeds), value in STANDARD_RULE.items():
        game = Kalah(pits, seeds, empty_capture=False)
        assert solve(game, engine="compiled").value == value
        if pits * seeds <= 10:
            assert solve(game, algorithm="tt").value == value


def test_the_capture_rule_is_an_option_named_in_the_game() -> None:
    game, _ = registry.load("kalah", {"capture": "standard", "pits": 3})
    assert isinstance(game, Kalah) and not game.empty_capture
    assert "standard capture" in (game.headline(game.start()) or "")
    assert game.options()["capture"] == "standard"
    with pytest.raises(BadOption, match="'sideways'"):
        registry.load("kalah", {"capture": "sideways"})


def test_a_stopped_build_resumes_and_gives_the_same_file(tmp_path: Path) -> None:
    from perfectplay.games.kalah.endgame import build, load
    lines: list[str] = []
    build(tmp_path / "part.db", 3, True, 4)
    resumed = build(tmp_path / "part.db", 3, True, 8, lines.append)
    whole = build(tmp_path / "whole.db", 3, True, 8)
    assert lines[0] == "resumed after 5 tiers (boards of up to 4 seeds)"
    assert (resumed.values == whole.values).all() and load(tmp_path / "part.db").seeds == 8
    with pytest.raises(BadDatabase, match="3 pits"):
        build(tmp_path / "part.db", 4, True, 8)
    # The option a user typed (db build kalah --endgame N) is the one named.
    with pytest.raises(BadOption, match=r"^--endgame -3: give 0 to"):
        build(tmp_path / "other.db", 3, True, -3)


@pytest.mark.parametrize("empty_capture", [True, False])
def test_two_threads_build_the_file_one_thread_builds(tmp_path: Path, monkeypatch,
                                                      empty_capture: bool) -> None:
    """Every tier from 2 seeds up split into pieces, so the threads race for the boards
    their searches share."""
    from perfectplay.games.kalah import endgame
    monkeypatch.setattr(endgame, "PARALLEL_LEAST", 4)
    monkeypatch.setattr(endgame, "PIECES_A_THREAD", 7)
    endgame.build(tmp_path / "one.db", 3, empty_capture, 12)
    endgame.build(tmp_path / "two.db", 3, empty_capture, 12, threads=2)
    assert (tmp_path / "one.db").read_bytes() == (tmp_path / "two.db").read_bytes()


def test_the_kernel_reads_the_database_and_says_so(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from perfectplay.games.kalah.endgame import build, path_for
    monkeypatch.setenv("PERFECTPLAY_KALAH_DIR", str(tmp_path))
    build(path_for(5, False), 5, False, 8)
    solution = solve(Kalah(5, 3, empty_capture=False), engine="compiled", pv_limit=0)
    assert solution.value == 6 and solution.note is not None
    assert "up to 8 seeds in play" in solution.note
    assert max(move.value for move in solution.moves) == 6 and len(solution.moves) == 5


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "perfectplay", *args], capture_output=True,
                          text=True, timeout=120)


def test_db_build_and_verify_the_endgame_database_from_the_cli(tmp_path: Path) -> None:
    path = tmp_path / "k3.db"
    built = _cli("db", "build", "kalah", "--pits", "3", "--capture", "standard", "--endgame",
                 "6", "--db", str(path), "--quiet")
    assert built.returncode == 0 and "up to 6 seeds in play (standard capture)" in built.stdout
    checked = _cli("db", "verify", str(path), "--sample", "20")
    assert checked.returncode == 0 and "20 random boards against the rules agree" in checked.stdout
    data = bytearray(path.read_bytes())
    data[-1] = (data[-1] + 1) % 256
    path.write_bytes(bytes(data))
    damaged = _cli("db", "verify", str(path), "--sample", "0")
    assert damaged.returncode == 1 and "tier 6 fails its checksum" in damaged.stdout
    refused = _cli("solve", "kalah", "--capture", "sideways")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    no_threads = _cli("db", "build", "kalah", "--endgame", "4", "--db", str(tmp_path / "k0.db"),
                      "--workers", "0")
    assert no_threads.returncode == 2
    assert no_threads.stderr.strip() == "error: --workers 0: at least 1"


def test_the_web_api_takes_the_capture_rule() -> None:
    import warnings
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

    from perfectplay.web.app import create_app
    client = TestClient(create_app(None))
    # Kalah(2,4): -12 for the first player under the empty-capture rule, -10 under the other.
    for capture, value in (("empty", -12), ("standard", -10)):
        answer = client.get("/api/kalah/position",
                            params={"pits": "2", "seeds": "4", "capture": capture}).json()
        assert answer["status"] == "exact" and answer["value"] == value
    refused = client.get("/api/kalah/position", params={"capture": "sideways"})
    assert refused.status_code == 400 and "sideways" in refused.text


@pytest.mark.parametrize("empty_capture", [True, False])
def test_the_kernels_line_found_by_null_window_tests_earns_the_value(empty_capture: bool) -> None:
    game = Kalah(4, 3, empty_capture=empty_capture)
    rng = random.Random(6)
    for position in [game.start()] + [game.random_position(rng) for _ in range(6)]:
        if not game.legal_moves(position):
            continue
        solution = solve(game, position, engine="compiled", pv_limit=200)
        mover = position[1]
        before = game.stores(position)
        for notation in solution.pv:
            position = game.play(position, game.parse_move(position, notation))
        after = game.stores(position)
        margin = (after[0] - before[0]) - (after[1] - before[1])
        assert game.total_points(position) == 0, solution.pv
        assert (margin if mover == 0 else -margin) == solution.value, solution.pv
