"""games and tour: what perfectplay knows, and a short run through the seed examples."""

from __future__ import annotations

import time
from typing import Any

import click

from perfectplay import registry
from perfectplay.cli.common import console, emit_json, json_option


@click.command("games")
@json_option
def games_command(as_json: bool) -> None:
    """The built-in games, their options and position syntax."""
    rows: list[dict[str, Any]] = [{"name": e.name, "aliases": list(e.aliases), "summary": e.summary,
             "position": e.position_help, "options": [f"--{o}" for o in e.options]}
            for e in registry.entries()]
    if as_json:
        emit_json({"games": rows})
        return
    from rich.table import Table
    table = Table(title="built-in games")
    for column in ("game", "rules", "position", "options"):
        table.add_column(column)
    for row in rows:
        name = row["name"] + (f" ({', '.join(row['aliases'])})" if row["aliases"] else "")
        table.add_row(name, row["summary"], row["position"], " ".join(row["options"]) or "-")
    console().print(table)


def _line(text: str) -> None:
    click.echo(text)


@click.command("tour")
def tour_command() -> None:
    """Solve the seed examples and print their results (what `make run` shows)."""
    from perfectplay.solving import solve

    started = time.perf_counter()

    def solved(name: str, position: str | None, **kwargs: Any) -> Any:
        game, start = registry.load(name, {}, position)
        return solve(game, start, **{"pv_limit": 40, **kwargs})

    _line("perfectplay tour: the seed examples, solved now\n")
    _line("take-away (take 1-3, last stick wins), outcomes for 1..8:")
    outcomes = [solved("takeaway", str(n)).outcome for n in range(1, 9)]
    _line("  " + " ".join(f"{n}:{'lose' if o == 'loss' else o}" for n, o in enumerate(outcomes, 1)))
    plain = solved("takeaway", "20", algorithm="minimax")
    cached = solved("takeaway", "20", algorithm="memo")
    _line(f"  n=20: {plain.describe()}; calls: plain {plain.stats.nodes:,}, memoized "
          f"{cached.stats.nodes:,}; same answer: {plain.value == cached.value}\n")

    _line("tic-tac-toe from the empty board:")
    for algorithm in ("minimax", "alphabeta", "tt"):
        result = solved("tictactoe", None, algorithm=algorithm)
        _line(f"  {algorithm:<9} {result.describe():<6} {result.stats.nodes:>8,} nodes "
              f"{result.stats.elapsed_s * 1000:8.1f} ms")
    _line("")

    _line("crate line (score game):")
    for row in ("3 9 1", "4 1 7 2 9"):
        result = solved("crates", row)
        mover, other = result.totals
        _line(f"  {row:<10} diff {result.value}, mover {mover} other {other}; line {' '.join(result.pv)}")
    _line("")

    claim = [solved("claim", str(n)).outcome for n in range(1, 13)]
    _line("claim line outcomes n=1..12: " + " ".join("W" if o == "win" else "L" for o in claim))
    five = solved("claim", "5")
    _line(f"  n=5: winning first moves {five.best_moves}; n=20: {solved('claim', '20').describe()}\n")

    _line("Nim: Sprague-Grundy theory (instant) and search with remoteness (tt):")
    for piles in ("3 4 5", "1 2 3", "7 5 3 1"):
        theory = solved("nim", piles)
        searched = solved("nim", piles, algorithm="tt")
        _line(f"  {piles:<8} {theory.outcome:<5} by XOR; {searched.describe():<12} by tt; "
              f"best {' '.join(searched.best_moves)}")
    match = solved("matchgame", None, algorithm="tt")
    _line(f"  matchgame 7 5 3 1 (last match loses): {match.describe()}\n")

    _line("Theory at scale:")
    huge = solved("claim", str(10**18))
    _line(f"  claim line with 10^18 items: {huge.outcome} (the claim line is octal game 0.137)")
    from perfectplay.impartial.octal import analysed
    kayles = analysed("0.77").periodicity
    assert kayles is not None, "Kayles' period is published and certified from 256 values"
    _line(f"  Kayles 0.77: period {kayles.period}, preperiod {kayles.preperiod}, "
          f"certified by the Guy-Smith theorem: {kayles.certified}")
    row = " ".join(str((i * 7919) % 1_000_001) for i in range(2000))
    crates = solved("crates", row, pv_limit=0)
    _line(f"  2,000 crates tabulated bottom-up: diff {crates.value:,} in "
          f"{crates.stats.elapsed_s * 1000:.0f} ms\n")
    _line("Connect Four (compiled with numba when it is installed):")
    engine = "auto"
    for moves, expected in (("44455554221", -15), ("5554224333234511764415115", 4)):
        game, start = registry.load("connect4", {}, moves)
        result = solve(game, start, engine=engine, pv_limit=0)
        score = game.score_of(start, result.value)  # type: ignore[attr-defined]
        _line(f"  {moves:<26} {result.describe():<11} score {score:+d} (Pons' test sets: {expected:+d}); "
              f"{result.stats.nodes:,} nodes")
    _line("")
    _line(f"tour done in {time.perf_counter() - started:.2f} s. Try: perfectplay solve nim 3 4 5, "
          "perfectplay analyze tictactoe, perfectplay games")
