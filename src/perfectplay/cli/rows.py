"""Row games from contest input (n, then n values): `perfectplay solve GAME --file INPUT` for
a game with a contest input format (Entry.read_input: the crate line, the coin row), and the
answer a game's `perfectplay contest GAME` prints. Both print the contest's exact output,
`diff D` then `mover M other O` (perfectplay.scoring.contest)."""

from __future__ import annotations

import sys

from perfectplay import registry
from perfectplay.cli.common import emit_json, read_text
from perfectplay.errors import BadOption
from perfectplay.search.limits import Limits

PV_HELP = "also print every best first move and the whole optimal line"


def answer(choice: registry.GameChoice, text: str, source: str, *, pv: bool = False,
           algorithm: str = "auto", limits: Limits | None = None, as_json: bool = False) -> None:
    """Solve the row game written in contest format and print the contest's output."""
    from perfectplay.scoring.contest import answer_lines
    from perfectplay.solving import solve

    game, start = choice.read_input(text, source)
    # The line costs a byte per range (n(n+1)/2); without --pv only O(n) memory is used.
    pv_limit = len(game.values) + 1 if pv or as_json else 0  # type: ignore[attr-defined]
    solution = solve(game, start, algorithm=algorithm, limits=limits, pv_limit=pv_limit)
    if as_json:
        emit_json(solution.as_dict())
        return
    sys.stdout.write("\n".join(answer_lines(solution, pv=pv)) + "\n")


def solve_file(choice: registry.GameChoice, path: str, position: tuple[str, ...],
               algorithm: str, limits: Limits, pv: bool, as_json: bool) -> None:
    """`solve GAME --file PATH`: the contest answer for the row in PATH."""
    if position:
        raise BadOption(f"give the position either in --file {path} or on the command line, "
                        "not both")
    answer(choice, read_text(path, f"--file {path!r}"), path, pv=pv, algorithm=algorithm,
           limits=limits, as_json=as_json)
