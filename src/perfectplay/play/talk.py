"""What the program says: move descriptions, the computer's view, hints, the final summary.

Pure functions from values to text, so the wording is tested without a terminal. Distances
("win in 5") count the moves of both players, as `perfectplay solve` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from perfectplay import value as V
from perfectplay.game import Game
from perfectplay.play.analyst import Analysis, outcome_class
from perfectplay.play.review import Mistake, Review
from perfectplay.play.session import Result, Session
from perfectplay.search.results import MoveValue

COMMANDS = {
    "hint": "the value of every legal move for you, best first",
    "moves": "list the legal moves",
    "undo": "take back your last move and my reply",
    "board": "show the board again",
    "history": "the moves so far, in notation",
    "save": "save FILE: write the game to FILE (replay it with play --load FILE)",
    "new": "start again from the first position, sides swapped",
    "help": "this help",
    "quit": "leave the game (Ctrl-D and Ctrl-C too)",
}
HINT_MOVES_SHOWN = 15
ALIASES = {"h": "hint", "?": "help", "q": "quit", "exit": "quit", "u": "undo", "m": "moves"}


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def move_phrase(game: Game[Any, Any], notation: str, move: Any, before: Any = None) -> str:
    """A move in words where the notation alone is terse (rows of sticks, ends of a row);
    ``before`` is the position it was played from."""
    return game.move_in_words(before, move, notation)


def last_stick_line(session: Session, subjects: tuple[str, str]) -> str | None:
    """Why a game of sticks ended, since misère play (the last stick loses) surprises people."""
    item = session.game.taken_item
    if item is None or not session.history:
        return None
    taker = capital(subjects[session.history[-1].side])
    if session.game.properties.misere:
        return f"{taker} took the last {item}, and whoever takes the last {item} loses."
    return f"{taker} took the last {item}, and whoever takes the last {item} wins."


def move_example(game: Game[Any, Any], notations: Sequence[str]) -> str:
    """A legal move to show in prompts: rows of sticks read "ROW COUNT" most naturally."""
    return game.typed_move(notations[0]) if notations else "?"


def help_text(example: str, score_game: bool) -> str:
    worth = "the final score difference" if score_game else \
        "win in N / loss in N, counting both players' moves, or draw"
    lines = [f"Type a move in the game's notation, e.g. {example}. Commands:"]
    lines += [f"  {name:<6} {meaning}" for name, meaning in COMMANDS.items()]
    lines.append(f"A hint gives each move's value with best play from then on: {worth}.")
    return "\n".join(lines)


def empty_line_text(example: str) -> str:
    return f"Type a move (e.g. {example}) or a command: hint, moves, undo, help, quit."


def legal_moves_text(notations: Sequence[str]) -> str:
    # Squares and items read best in numeric order; other notations keep the game's order.
    shown = sorted(notations, key=int) if all(n.isdigit() for n in notations) else notations
    return "Legal moves: " + ", ".join(shown)


def describe_value(value: int, score_game: bool, exact: bool) -> str:
    if exact or (not score_game and V.is_decisive(value)):
        # A win or loss found by a depth-limited search is proven all the same.
        return V.describe(value, score_game=score_game)
    return f"estimate {value:+d}"


def score_outlook(value: int, lead: int) -> str:
    """A score-game move's value for the person from here on, and the final result it leads
    to, in words: 'you outscore me by 7 from here: you win by 1'."""
    if value > 0:
        rest = f"you outscore me by {value} from here"
    elif value < 0:
        rest = f"I outscore you by {-value} from here"
    else:
        rest = "we score the same from here"
    final = lead + value
    end = f"you win by {final}" if final > 0 else f"you lose by {-final}" if final < 0 else "a tie"
    return f"{rest}: {end}"


def hint_lines(analysis: Analysis, score_game: bool, lead: int = 0) -> list[str]:
    """Moves grouped by value, best first: 'win in 9  1:3' ... ; ``lead`` is the player's
    score lead so far (score games)."""
    groups: dict[str, list[str]] = {}
    for move in analysis.moves:
        label = describe_value(move.value, score_game, analysis.exact)
        if score_game:
            label = score_outlook(move.value, lead) + ("" if analysis.exact else " (estimated)")
        groups.setdefault(label, []).append(move.notation)
    for label, moves in groups.items():
        hidden = len(moves) - HINT_MOVES_SHOWN
        if hidden > 0:  # a big game's hint stays readable
            groups[label] = moves[:HINT_MOVES_SHOWN] + [f"... ({hidden} more)"]
    if not analysis.complete and analysis.value_of is None:
        # Only the optimal moves were searched (Analyst.analyze with partial allowed).
        groups["worse (not scored in the time)"] = ["every other move"]
    head = "Your moves, best first: " + ("exact values" if analysis.exact else
                                         estimate_words(analysis))
    width = max(len(label) for label in groups)
    lines = [head] + [f"  {label:<{width}}  {', '.join(moves)}" for label, moves in groups.items()]
    if not analysis.complete and analysis.value_of is not None:
        # Too many moves to list (Nim 10^30): theory named the best and values any other.
        rest = "every other move loses" if analysis.best_value > 0 else "every move loses"
        lines.append(f"  (too many moves to list them all; {rest})")
    return lines


def estimate_words(analysis: Analysis) -> str:
    """How an estimate was made, for every line that shows one."""
    depth = f" {plural(analysis.depth, 'move')} deep" if analysis.depth else ""
    if analysis.unproved_after is not None:
        return (f"estimates: no move proved optimal in {analysis.unproved_after:.0f} s of CPU "
                f"time, searched{depth}")
    if analysis.estimator == "mcts":
        deep = f",{depth}" if depth else ""
        return f"estimates: too big to solve in the time allowed, by Monte Carlo tree search{deep}"
    return f"estimates: too big to solve in the time allowed, searched{depth}"


def knowledge_line(exact: bool | None, think_time: float, proves_only: bool = False,
                   estimator: str = "engine", reach_ends_here: bool = False,
                   whole_game: bool = True) -> str:
    """The banner's word on how much the computer knows about this game; ``proves_only``:
    the position's value is in reach, not every move's (Analyst.probe); ``estimator``: how
    its estimates are made (perfectplay.deciding.ENGINE or MCTS); ``reach_ends_here``: no
    position after this one is in reach; ``whole_game`` False: the game says it is too big
    to solve from every position (Properties.too_big_to_solve), so this one is in reach
    only through what the game knows of it (an opening book)."""
    estimated_by = ESTIMATORS.get(estimator, "a depth-limited search")
    if exact and not whole_game and not reach_ends_here:
        return ("I know this position exactly, but not every position of this game: where I "
                "know or can solve one (the game's opening book, small endings) my moves are "
                f"proved optimal; elsewhere my moves and hints are estimates from {estimated_by}, "
                "and I say so when they are.")
    if exact and reach_ends_here:
        return ("I know this position exactly, but every position after it is too big for me "
                f"to solve: from there my moves and hints are estimates from {estimated_by} until the "
                "game gets smaller, and I say so when they are.")
    if exact and proves_only:
        return ("I can solve this game: at the perfect level every move I play is proved "
                "optimal, though a proof may take longer than the think time (I show how it "
                "goes); my hints are exact when they fit the think time, and say so when they "
                "are estimates.")
    if exact:
        return "I have solved this game exactly: my moves, hints and review are perfect."
    return (f"This game is too big for me to solve in {think_time:g} s a move: my moves and "
            f"hints are estimates from {estimated_by}, "
            "and I say so when they are.")


# How each estimating method (perfectplay.deciding) is named to a person.
ESTIMATORS = {"engine": "a depth-limited search", "mcts": "Monte Carlo tree search"}


def computer_view(move: MoveValue, exact: bool, lead_before: int,
                  names: tuple[str, str] = ("I", "you")) -> str | None:
    """What a computer sees after its move; None once the game is over.

    ``lead_before`` is its score lead before the move (score games). ``names`` are the
    mover and the opponent: ("I", "you") against a person, third person when two computers
    play ("computer A", "computer B")."""
    me, you = names
    first_person = me == "I"
    if move.score_game:
        final = lead_before + move.value
        hedge = "" if exact else "probably "
        if final == 0:
            return f"Best play from here {hedge}ends level."
        winner = me if final > 0 else you
        ahead = plural(abs(final), "point")
        if final > 0 and first_person:
            return f"With best play I {hedge}finish {ahead} ahead."
        return f"{capital(winner)} can {hedge}still finish {ahead} ahead."
    if V.is_decisive(move.value):
        remaining = V.remoteness(move.value) - 1
        if remaining == 0:
            return None
        if move.value > 0:
            if first_person:
                return f"I win in {remaining}."
            return f"{capital(me)} wins in {remaining}."
        return f"{capital(you)} can still win."
    if exact and move.value != 0:
        # An exact value without a distance (theory): who wins, not how soon.
        if move.value > 0:
            return "I will win." if first_person else f"{capital(me)} will win."
        return f"{capital(you)} can still win."
    if not exact:
        sign = outcome_class(move.value)
        leader = me if sign > 0 else you
        return (f"{capital(me)} can't see a win for either side yet." if sign == 0
                else f"It looks good for {'me' if leader == 'I' else leader}.")
    return "It's a draw if both sides play well."


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def result_lines(result: Result, names: tuple[str, str], subjects: tuple[str, str]) -> list[str]:
    """Who won and in how many moves. ``names`` name the sides in the score line ('you',
    'computer'), ``subjects`` in the sentence ('you', 'I')."""
    moves = plural(result.plies, "move")
    lines = []
    if result.scores is not None:
        lines.append(f"Final score: {names[0]} {result.scores[0]}, {names[1]} {result.scores[1]}.")
    if result.plies == 0:
        # Set up finished: nobody won it here.
        ending = "a draw" if result.winner is None else f"{subjects[result.winner]} had won"
        lines.append(f"The position was already over ({ending}) before any move was played.")
    elif result.winner is None:
        why = " (the same position came up a third time)" if result.repetition else ""
        lines.append(f"A draw after {moves}{why}.")
    else:
        winner = subjects[result.winner]
        cheer = " Well played!" if winner == "you" else ""
        lines.append(f"{capital(winner)} won in {moves}.{cheer}")
    return lines


def review_lines(review: Review, session: Session) -> list[str]:
    """The losing human's first mistake and what would have been better."""
    score = session.score_game
    if not review.exact:
        return ["(The game is too big to review exactly, so I won't guess at your mistake.)"]
    if review.mistake is None:
        if review.lost_from_start:
            return ["You started from a lost position and I never let it go: no mistake of yours."]
        return []
    mistake = review.mistake
    before = "won" if outcome_class(mistake.before) > 0 else "drawn"

    def worth(move: MoveValue) -> str:
        if score:
            return score_outlook(move.value, mistake.lead)
        return describe_value(move.value, False, True)

    return [
        f"Your first mistake was move {mistake.ply} (your move {mistake.own}): you played "
        f"{mistake.played.notation} ({worth(mistake.played)}) from a {before} position.",
        f"Better was {mistake.better.notation} ({worth(mistake.better)}).",
    ]


# The point-losing moves a review lists at most; the rest are counted.
POINT_LOSSES_SHOWN = 3


def point_loss_lines(losses: list[Mistake] | None) -> list[str]:
    """Score games: the moves that gave points away, even when they did not change who wins."""
    if not losses:
        return []
    shown = [f"move {loss.ply} ({loss.played.notation}: {loss.better.notation} scored "
             f"{plural(loss.better.value - loss.played.value, 'point')} more)"
             for loss in losses[:POINT_LOSSES_SHOWN]]
    more = len(losses) - POINT_LOSSES_SHOWN
    tail = f", and {more} more" if more > 0 else ""
    return [f"Points you gave away: {', '.join(shown)}{tail}."]
