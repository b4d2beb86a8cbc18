"""The Connect Four opening book: built on small boards and checked against the kernel and the
Python engine, resumed after kills and corruption, and the shipped book checked against
published scores, its own structure and a sample re-solved by the kernel."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from perfectplay.games.connect4.book.build import assemble, batch_path, build_level, plan
from perfectplay.games.connect4.book.lookup import Book, book_for, shipped_book
from perfectplay.games.connect4.book.positions import canonical, decode, level, mirror_key, position_of
from perfectplay.games.connect4.book.storage import BookError
from perfectplay.games.connect4.book.verify import check_structure, resolve_sample, sample_keys
from perfectplay.games.connect4.rules import ConnectFour
from perfectplay.solving import analyze, solve

pytest.importorskip("numba", reason="building and checking a book runs the compiled kernel")


def small_book(tmp_path: Path, width: int = 4, height: int = 4, stones: int = 8,
               workers: int = 1) -> Book:
    game = ConnectFour(width, height)
    build_level(game, tmp_path / "batches", stones, workers=workers, table_size="1M")
    output = tmp_path / "small.book"
    assemble(game, tmp_path / "batches", stones, output)
    return Book.open(output)


def random_position(game: ConnectFour, rng: random.Random, most: int) -> tuple[int, int, str]:
    position = game.start()
    for _ in range(rng.randrange(most + 1)):
        live = [c for c in game.moves(position) if game.outcome(game.play(position, c)) is None]
        if not live:
            break
        position = game.play(position, rng.choice(live))
    return position


# -- positions ---------------------------------------------------------------------------
def test_a_key_gives_back_its_position_and_mirror_images_share_one_key() -> None:
    game = ConnectFour()
    rng = random.Random(3)
    for _ in range(200):
        position = random_position(game, rng, 30)
        key = game.key(position)
        assert decode(game, key) == position[:2]
        mirrored = game.parse_position("".join(str(8 - int(c)) for c in position[2]))
        assert mirror_key(game, key) == game.key(mirrored)
        assert canonical(game, key) == canonical(game, game.key(mirrored))


def test_level_sizes_are_the_known_counts_of_positions_folded_by_mirror_image() -> None:
    # 7x6 positions after n plies, unfolded: 1, 7, 49, 238, 1120 (OEIS A212693); folded by
    # mirror image, as Pons' book counts them.
    assert [len(level(ConnectFour(), n)) for n in range(5)] == [1, 4, 25, 121, 568]


def one_at_a_time_levels(game: ConnectFour, stones: int) -> list[list[int]]:
    """The live positions level by level, one position at a time on Python integers."""
    found = [[canonical(game, game.key(game.start()))]]
    for _ in range(stones):
        following = set()
        for key in found[-1]:
            position = position_of(game, key)
            for column in game.legal_moves(position):
                child = game.play(position, column)
                if game.outcome(child) is None:
                    following.add(canonical(game, game.key(child)))
        found.append(sorted(following))
    return found


def test_whole_levels_at_once_equal_the_levels_found_one_position_at_a_time() -> None:
    from perfectplay.games.connect4.book import tiers

    for game, stones in ((ConnectFour(4, 4), 15), (ConnectFour(), 6), (ConnectFour(3, 5), 14)):
        at_once = [keys.tolist() for keys in tiers.levels(game, stones)]
        assert at_once == one_at_a_time_levels(game, stones)


def test_backing_up_whole_levels_gives_every_exact_score_of_a_small_board() -> None:
    # 4x3: twelve squares, so every level down to the last empty square, full boards included,
    # is backed up and compared with a plain negamax on the Python rules.
    from functools import cache

    from perfectplay.games.connect4.book import tiers

    game = ConnectFour(4, 3)

    @cache
    def negamax(key: int) -> int:
        position = position_of(game, key)
        stones = position[1].bit_count()
        best = -game.cells
        for column in game.legal_moves(position):
            child = game.play(position, column)
            outcome = game.outcome(child)
            if outcome is not None:
                best = max(best, (game.cells + 1 - stones) // 2 if outcome.name == "LOSS" else 0)
            else:
                best = max(best, -negamax(game.key(child)))
        return best

    found = tiers.levels(game, 11)
    scores = tiers.back_up(game, found, [negamax(int(key)) for key in found[-1]])
    assert [[negamax(int(key)) for key in keys] for keys in found] == [s.tolist() for s in scores]
    assert sum(s.size for s in scores) > 1_000 and scores[0].tolist() == [negamax(0)]


def test_a_changed_score_or_a_missing_position_fails_the_structure_check() -> None:
    import numpy as np

    # Below the frontier every entry is its children's negamax, so any change shows; a
    # frontier entry is checked by re-solving instead (the sample test below).
    book = shipped()
    scores = np.array(book.scores)
    scores[np.searchsorted(book.keys, np.uint64(level(ConnectFour(), 5)[40]))] += 1
    changed = Book(book.path, book.header, book.keys, scores)
    with pytest.raises(BookError, match="1 entries disagree with their children"):
        check_structure(changed)
    short = Book(book.path, book.header, np.delete(book.keys, 5), np.delete(book.scores, 5))
    with pytest.raises(BookError, match="holds 399,028 positions, but there are 399,029"):
        check_structure(short)


# -- a whole small book against the search -----------------------------------------------
def test_every_entry_of_a_4x4_book_matches_the_kernel_and_the_python_engine(tmp_path: Path) -> None:
    from perfectplay.games.connect4.kernel_engine import Engine

    book = small_book(tmp_path)
    game = ConnectFour(4, 4)
    assert check_structure(book) == len(book) == 4_651
    engine = Engine(game, "1M")
    for key, score in zip(book.keys, book.scores, strict=True):
        engine.new_solve()
        assert engine.score(position_of(game, int(key))) == score
    for key in random.Random(1).sample([int(k) for k in book.keys], 25):
        position = position_of(game, key)
        python = solve(game, position, engine="python")
        assert python.value == game.value_of_score(position, book.score(game, position))


def test_solve_and_analyze_read_from_the_book_agree_with_the_kernel_alone(tmp_path: Path) -> None:
    from perfectplay.games.connect4 import kernel_engine as compiled

    book = small_book(tmp_path)
    game = ConnectFour(4, 4)
    rng = random.Random(7)
    for _ in range(60):
        position = random_position(game, rng, 9)
        for weak in (False, True):
            with_book = compiled.solve(game, position, book=book, outcome_only=weak)
            alone = compiled.solve(game, position, outcome_only=weak)
            assert (with_book.value, with_book.best_moves, with_book.pv) == \
                (alone.value, alone.best_moves, alone.pv)
            if game.stones(position) <= book.stones:
                assert with_book.algorithm.startswith("from the opening book")
                assert with_book.stats.nodes == 0
            read = compiled.analyze(game, position, book=book, outcome_only=weak)
            searched = compiled.analyze(game, position, outcome_only=weak)
            assert sorted((m.move, m.value) for m in read) == \
                sorted((m.move, m.value) for m in searched)


def test_two_workers_build_the_same_book_as_one(tmp_path: Path) -> None:
    one = small_book(tmp_path / "one", 5, 4, 6)
    two = small_book(tmp_path / "two", 5, 4, 6, workers=2)
    assert one.header["payload_sha256"] == two.header["payload_sha256"]
    assert (one.keys == two.keys).all() and (one.scores == two.scores).all()


# -- resuming, corruption, bad files -----------------------------------------------------
def test_a_corrupted_batch_is_solved_again_never_read(tmp_path: Path) -> None:
    game = ConnectFour(4, 4)
    root = tmp_path / "batches"
    build_level(game, root, 6, table_size="1M")
    reference = assemble(game, root, 6, tmp_path / "a.book")
    damaged = batch_path(root, game, 6, 3)
    lines = damaged.read_text().splitlines(keepends=True)
    key, score, rest = lines[1].split(" ", 2)
    lines[1] = f"{key} {int(score) + 1} {rest}"  # a wrong score, checksum unchanged
    damaged.write_text("".join(lines))
    with pytest.raises(BookError, match="fails its checksum"):
        assemble(game, root, 6, tmp_path / "b.book")
    batch_path(root, game, 6, 5).unlink()
    assert build_level(game, root, 6, table_size="1M") == 2  # the damaged and the missing one
    rebuilt = assemble(game, root, 6, tmp_path / "b.book")
    assert rebuilt["payload_sha256"] == reference["payload_sha256"]


BUILD = ("import sys; from pathlib import Path; "
         "from perfectplay.games.connect4.book.build import build_level; "
         "from perfectplay.games.connect4.rules import ConnectFour; "
         "build_level(ConnectFour(5, 4), Path(sys.argv[1]), 9, table_size='1M')")


def test_a_build_killed_at_random_moments_finishes_with_the_same_book(tmp_path: Path) -> None:
    game = ConnectFour(5, 4)
    batches = len(plan(game, 9))
    rng = random.Random(11)
    root = tmp_path / "killed"
    folder = batch_path(root, game, 9, 0).parent
    for _ in range(3):
        before = len(list(folder.glob("batch-*.txt"))) if folder.exists() else 0
        process = subprocess.Popen([sys.executable, "-c", BUILD, str(root)])
        deadline = time.monotonic() + 120
        while (len(list(folder.glob("batch-*.txt"))) if folder.exists() else 0) == before:
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.01)
        # Batches here take milliseconds each: kill at once, somewhere inside a later batch.
        time.sleep(rng.uniform(0.0, 0.002))
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    assert 0 < len(list(folder.glob("batch-*.txt"))) < batches
    subprocess.run([sys.executable, "-c", BUILD, str(root)], check=True, timeout=300)
    assert len(list(batch_path(root, game, 9, 0).parent.glob("batch-*.txt"))) == batches
    build_level(game, tmp_path / "whole", 9, table_size="1M")
    killed = assemble(game, root, 9, tmp_path / "killed.book")
    whole = assemble(game, tmp_path / "whole", 9, tmp_path / "whole.book")
    assert killed["payload_sha256"] == whole["payload_sha256"]


def test_a_damaged_book_file_is_refused_with_its_name(tmp_path: Path) -> None:
    book = small_book(tmp_path, stones=4)
    data = bytearray(book.path.read_bytes())
    data[-3] ^= 1
    damaged = tmp_path / "damaged.book"
    damaged.write_bytes(bytes(data))
    with pytest.raises(BookError, match="damaged.book: the book fails its checksum"):
        Book.open(damaged)
    cut = tmp_path / "cut.book"
    cut.write_bytes(bytes(data[:-40]))
    with pytest.raises(BookError, match="cut.book"):
        Book.open(cut)
    with pytest.raises(BookError, match="4x4 board, not 7x6"):
        book_for(ConnectFour(), book.path)


def test_the_book_command_rejects_bad_input_in_one_line(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "not.book").write_text("hello\n")
    for args, message in (
        (["book", "info", str(tmp_path / "not.book")], "not a perfectplay opening book"),
        (["book", "info", str(tmp_path / "absent.book")], "cannot read the book"),
        (["book", "build", "--stones", "3", "--workers", "0"], "--workers 0"),
        (["book", "build", "--stones", "-1"], "--stones -1"),
        (["book", "verify", "--sample", "-2"], "--sample -2"),
        (["solve", "nim", "3", "4", "--book", "x.book"], "only Connect Four has an opening book"),
        (["solve", "connect4", "4", "--book", str(tmp_path / "not.book")], "not a perfectplay"),
        (["book", "build", "--stones", "2", "--output", str(tmp_path / "no" / "a.book")],
         "does not exist"),
        (["book", "build", "--stones", "2", "--dir", str(tmp_path / "not.book")],
         "cannot create the build folder"),
    ):
        done = cli(*args)
        assert done.returncode == 2, args
        assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1


# -- the shipped book --------------------------------------------------------------------
def shipped() -> Book:
    book = shipped_book()
    assert book is not None, "the package ships src/perfectplay/book/data/connect4-7x6.book"
    return book


def test_the_shipped_book_is_whole_and_consistent_with_its_frontier() -> None:
    book = shipped()
    assert check_structure(book) == len(book)


def test_the_shipped_book_gives_the_published_first_move_scores() -> None:
    # Connect Four is a first-player win (Allen, Allis 1988): score +1 in Pons' convention,
    # and the seven first moves score -2 -1 0 +1 0 -1 -2 (Pons' solver, connect4.gamesolver.org).
    game = ConnectFour()
    book = shipped()
    assert book.score(game, game.start()) == 1
    scores = book.move_scores(game, game.start())
    assert scores is not None
    assert [scores[c] for c in range(7)] == [-2, -1, 0, 1, 0, -1, -2]
    moves = analyze(game, game.start(), engine="compiled")
    assert [m.notation for m in moves if m.value > 0] == ["4"]


def test_solve_and_analyze_say_when_the_shipped_book_answered(cli) -> None:  # type: ignore[no-untyped-def]
    solved = cli("solve", "connect4", "", "--pv-limit", "1", "--json")
    assert solved.returncode == 0, solved.stderr
    answer = json.loads(solved.stdout)
    assert answer["algorithm"].startswith("from the opening book (every position up to")
    assert (answer["value"], answer["best_moves"], answer["nodes"], answer["score"]) == \
        ("win", ["4"], 0, 1)
    analysed = cli("analyze", "connect4", "")
    assert analysed.returncode == 0, analysed.stderr
    assert "from the opening book" in analysed.stdout
    searched = cli("analyze", "connect4", "4455", "--book", "none", "--json")
    assert "source" not in json.loads(searched.stdout)


def test_a_sample_of_the_shipped_frontier_re_solved_by_the_kernel_agrees() -> None:
    # Re-solving costs 0.3 s a position with 8 stones but one to two minutes with one stone
    # (docs/book.md): while the shipped book is that shallow, its frontier is checked
    # against the published scores above instead, and `perfectplay book verify` re-solves it.
    book = shipped()
    if book.stones < 7:
        assert book.stones >= 1
        return
    keys = sample_keys(book, 6, seed=2, stones=book.stones)
    assert len(keys) == 6
    assert all(checked.agrees for checked in resolve_sample(book, keys))


# -- the kernel's node budget, as play uses it ------------------------------------------
def test_the_kernel_stops_at_its_node_budget_and_then_solves_exactly() -> None:
    from perfectplay.errors import LimitReached
    from perfectplay.search.limits import Limits

    game = ConnectFour()
    position = game.parse_position("335662333565")  # Test_L1_R2, line 2: score -2
    with pytest.raises(LimitReached, match="budget of 2,000 nodes"):
        solve(game, position, engine="compiled", limits=Limits(nodes=2_000), book="none")
    with pytest.raises(LimitReached):
        analyze(game, position, engine="auto", limits=Limits(nodes=2_000), book="none")
    exact = solve(game, position, engine="compiled", limits=Limits(nodes=50_000_000))
    assert game.score_of(position, exact.value) == -2


def test_the_kernel_stops_at_its_budgets_deadline_and_then_solves_exactly() -> None:
    from perfectplay.errors import LimitReached
    from perfectplay.search.limits import Budget, Limits

    game = ConnectFour()
    early = game.parse_position("445")  # minutes of search without the book
    started = time.perf_counter()
    with pytest.raises(LimitReached, match=r"stopped \(time\) after [0-9,]+ nodes"):
        solve(game, early, engine="auto", book="none", budget=Budget(Limits(time=0.3)))
    assert time.perf_counter() - started < 10  # 0.3 s and a 50 ms poll; room for a loaded machine
    # The stopped search's bounds were dropped: the next solve is exact.
    late = game.parse_position("335662333565")  # Test_L1_R2, line 2: score -2
    exact = solve(game, late, engine="auto", book="none")
    assert game.score_of(late, exact.value) == -2


def test_play_analyses_connect4_with_the_kernel_and_estimates_when_the_budget_runs_out() -> None:
    from perfectplay.play.analyst import Analyst

    game = ConnectFour()
    late = game.parse_position("335662333565")  # Test_L1_R2, line 2: score -2
    analysis = Analyst(game, think_time=2.0).analyze(late)
    assert analysis.exact
    assert game.score_of(late, analysis.best_value) == -2
    # Nine stones: past the shipped book (K = 8), far too big for 20 ms (Test_L1_R3, line 3).
    early = game.parse_position("573154743")
    assert not Analyst(game, think_time=0.02).analyze(early).exact


def test_the_web_answers_the_positions_the_book_holds_at_once() -> None:
    from perfectplay.web.positions import Analyses, quick_analysis

    game = ConnectFour()
    known = quick_analysis(game, game.start(), Analyses(0))
    assert known is not None and known.exact and known.source == "kernel"
    assert [m.notation for m in known.moves if m.value > 0] == ["4"]


# -- one stone past the book, as play meets it ------------------------------------------
def test_one_stone_past_the_book_the_parents_score_is_a_floor_that_keeps_the_value() -> None:
    from perfectplay.games.connect4.answers import _floor_from_parent

    game = ConnectFour()
    book = shipped()
    assert book.stones == 9  # the positions below are one stone past the shipped book
    # 4444413231 and 4444433361: one stone past the book, as play meets them; the floor is
    # minus the 9-stone parent's book score, and the value with it is the value without.
    for text in ("4444413231", "4444433361"):
        position = game.parse_position(text)
        parent_score = book.score(game, game.parse_position(text[:-1]))
        assert parent_score is not None
        assert _floor_from_parent(game, position, book) == -parent_score
        with_floor = solve(game, position, engine="compiled", pv_limit=0)
        without = solve(game, position, engine="compiled", pv_limit=0, book="none")
        assert (with_floor.value, with_floor.best_moves) == (without.value, without.best_moves)
    # Built without its moves (the history), a position gets no floor.
    position = game.parse_position("4444413231")
    assert _floor_from_parent(game, (position[0], position[1], ""), book) is None


def test_solve_tells_each_optimal_column_as_it_is_proved() -> None:
    game = ConnectFour()
    position = game.parse_position("4444413231")
    heard: list[tuple[str, int]] = []

    def hear(column: int, value: int) -> None:
        heard.append((game.format_move(position, column), value))
    solution = solve(game, position, engine="compiled", pv_limit=0, on_optimal=hear)
    assert [notation for notation, _ in heard] == solution.best_moves and heard
    assert {value for _, value in heard} == {solution.value}


def test_the_perfect_level_plays_a_proved_optimal_move_when_the_time_runs_out() -> None:
    from perfectplay.play.analyst import Analyst

    game = ConnectFour()
    position = game.parse_position("444441321")  # in the book; its optimal columns need seconds
    best = set(solve(game, position, engine="compiled", pv_limit=0).best_moves)
    assert best == {"1", "6"}
    # 10 ms of think time: the search goes on until one optimal move is proved, and stops.
    hurried = Analyst(game, think_time=0.01)
    analysis = hurried.best_moves(position)
    assert analysis.exact and not analysis.complete
    assert len(analysis.moves) == 1 and analysis.moves[0].notation in best
    assert game.score_of(position, analysis.best_value) == 0
    # Once exact play has failed in a game the analyst stops at the think time: an estimate.
    hurried.impatient = True
    assert not hurried.best_moves(game.parse_position("444447521")).exact
