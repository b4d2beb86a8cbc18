"""perfectplay's exact solve of OpenSpiel games (openspiel:NAME) beside OpenSpiel's own exact
solvers in Python: open_spiel.python.algorithms.minimax.alpha_beta_search (alpha-beta, no
table) and minimax_solver.MinimaxSolver (a full table of every state, keyed by str(state)).

    .venv/bin/python benchmarks/openspiel_solvers.py

Prints each game's value for the player to move by each solver (they must agree) and the
wall time of each. perfectplay's "tt" column is a full solve: the value and every optimal
move (pv_limit=0 skips the principal variation); "value" is the value alone (outcome_only,
win/loss/draw games; a score game's full solve again). OpenSpiel's alpha-beta finds the value
and one move. Needs the openspiel extra.
"""

from __future__ import annotations

import time

from open_spiel.python.algorithms import minimax, minimax_solver

from perfectplay import registry, solve

GAMES = ["tic_tac_toe", "nim(pile_sizes=1;3;5,is_misere=false)", "nim(pile_sizes=2;3;4;5)",
         "breakthrough(rows=3,columns=4)", "clobber(rows=3,columns=3)",
         "dots_and_boxes(num_rows=1,num_cols=2,utility_margin=true)", "mnk(m=3,n=4,k=3)"]


def timed(work):  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    found = work()
    return found, time.perf_counter() - started


def main() -> None:
    print(f"{'game':58} {'perfectplay tt':>22} {'value':>10} {'OpenSpiel alpha-beta':>22} "
          f"{'OpenSpiel MinimaxSolver':>24}")
    for spec in GAMES:
        game, start = registry.load(f"openspiel:{spec}")
        ours, our_time = timed(
            lambda game=game, start=start: solve(game, start, algorithm="tt", pv_limit=0).value)
        ours_shown = ours if game.properties.is_score else (ours > 0) - (ours < 0)
        _, value_time = timed(lambda game=game, start=start: solve(game, start, algorithm="tt", pv_limit=0,
                                            outcome_only=not game.properties.is_score))
        (theirs, _), their_time = timed(
            lambda game=game: minimax.alpha_beta_search(game.spiel, maximum_depth=200))
        solver = minimax_solver.MinimaxSolver(str(game.spiel))
        table, table_time = timed(solver.solve)
        player = start.state.current_player()
        tabled = table[str(start.state)].value if player == 0 else -table[str(start.state)].value
        print(f"{spec:58} {ours_shown:>+4} {our_time * 1000:>12.1f} ms {value_time * 1000:>7.1f} ms "
              f"{theirs:>+5.0f} {their_time * 1000:>12.1f} ms {tabled:>+5.0f} {table_time * 1000:>13.1f} ms")


if __name__ == "__main__":
    main()
