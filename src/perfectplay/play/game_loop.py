"""A person against the computer, and the computer against itself.

The loop never lets bad input hurt the game: a line that is neither a command nor a legal
move gets one line saying what was wrong and what is legal, and the prompt comes back.
End of input and Ctrl-C end the game politely; the caller exits with code 0.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from perfectplay.errors import PerfectPlayError, TooLarge
from perfectplay.play.analyst import Analysis, Analyst
from perfectplay.play.levels import Choice, Level, choose
from perfectplay.play.review import first_mistake, point_losses
from perfectplay.play.session import Session, Turn
from perfectplay.play.talk import (
    ALIASES,
    COMMANDS,
    capital,
    computer_view,
    empty_line_text,
    estimate_words,
    help_text,
    hint_lines,
    knowledge_line,
    last_stick_line,
    legal_moves_text,
    move_example,
    move_phrase,
    plural,
    point_loss_lines,
    result_lines,
    review_lines,
)
from perfectplay.play.terminal import Terminal

STYLE_COMPUTER = "bold magenta"
STYLE_HUMAN = "bold blue"
STYLE_PROBLEM = "red"
STYLE_VIEW = "italic"
STYLE_RESULT = "bold green"


class Leave(Exception):
    """The person is done: quit, end of input or Ctrl-C. The message says goodbye."""


@dataclass
class Computer:
    """A computer player: a level and its own random source (``--seed``)."""

    level: Level
    rng: random.Random

    def move(self, analyst: Analyst, position: Any, lead: int = 0,
             on_estimate: Callable[[], None] | None = None,
             on_progress: Callable[[str], None] | None = None) -> tuple[Choice, Analysis]:
        """The chosen move and the analysis behind it (exact or an estimate); ``lead`` is the
        computer's score lead so far (score games); ``on_progress`` hears where a long proof
        of the perfect level stands."""
        if self.level.mistake_rate == 0:
            # A level that never errs needs only the optimal moves (Analyst.best_moves).
            analysis = analyst.best_moves(position, on_estimate, on_progress)
        else:
            analysis = analyst.analyze(position, on_estimate)
        return choose(analysis, self.level, self.rng, lead), analysis


def game_summary(game: Any, start: Any = None) -> str:
    """One line on the game for its header: the catalogue's summary, and the matchgame's rows
    as they are in this game."""
    from perfectplay import registry
    headline = None if start is None else game.headline(start)
    if headline is not None:
        return headline
    try:
        return registry.find(game.name).summary
    except PerfectPlayError:
        doc = (type(game).__doc__ or "").strip().splitlines()
        return doc[0] if doc else ""


@dataclass
class Tally:
    """Games won by each side and drawn over a session of several games."""

    person: int = 0
    computer: int = 0
    draws: int = 0
    games: list[int | None] = field(default_factory=list)

    def add(self, winner_is_person: bool | None) -> None:
        if winner_is_person is None:
            self.draws += 1
        elif winner_is_person:
            self.person += 1
        else:
            self.computer += 1

    def line(self) -> str:
        return (f"Games so far: you {self.person}, computer {self.computer}, "
                f"{plural(self.draws, 'draw')}.")


class HumanMatch:
    """A person (``human_side``, 0 = moves first) against ``computer``."""

    def __init__(self, session: Session, analyst: Analyst, computer: Computer, human_side: int,
                 terminal: Terminal, quiet: bool = False, origin: dict[str, Any] | None = None) -> None:
        self.session = session
        self.analyst = analyst
        self.computer = computer
        self.human = human_side
        self.io = terminal
        self.quiet = quiet
        # How the game was asked for (name, options, position), so `save` can write it down.
        self.origin = origin
        self.need_board = True
        self.reviewed = False
        self.tally = Tally()
        self.result_counted: bool | None | str = "none"  # this game's entry in the tally
        self.handlers: dict[str, Callable[[], None]] = {
            "hint": self.hint, "moves": self.moves, "undo": self.undo, "board": self.board,
            "history": self.history, "new": self.new, "help": self.help, "quit": self.quit,
        }

    # -- the loop ------------------------------------------------------------------------
    def run(self) -> None:
        """Play until the person leaves; never raises for anything the person types."""
        try:
            self.greet()
            while True:
                self.step()
        except Leave as done:
            self.io.say(str(done))
        except KeyboardInterrupt:
            self.io.recover()
            self.io.say(f"\n{self.goodbye('interrupted')}")

    def step(self) -> None:
        if self.session.is_over():
            if not self.reviewed:
                self.finish()
            self.read_line("game over> ", self.after_game)
        elif self.session.side_to_move == self.human:
            self.show_board_if_needed()
            self.read_line("your move> ", self.try_move)
        else:
            self.computer_turn()

    def read_line(self, prompt: str, on_text: Callable[[str], None]) -> None:
        try:
            line = self.io.ask(prompt)
        except EOFError:
            raise Leave(f"\n{self.goodbye('end of input')}") from None
        text = line.strip()
        command = self.command_in(text)
        word, _, rest = text.partition(" ")
        if word.lower() == "save" and text not in self.notations():
            self.save(rest.strip())
        elif command is not None:
            self.handlers[command]()
        elif not text and self.session.is_over():
            self.io.say("The game is over: type undo, new or quit.", STYLE_PROBLEM)
        elif not text:
            self.io.say(empty_line_text(self.example()), STYLE_PROBLEM)
        else:
            on_text(text)

    def command_in(self, text: str) -> str | None:
        word = ALIASES.get(text.lower(), text.lower())
        if word not in COMMANDS:
            return None
        # A game whose notation uses the same word keeps its move.
        return None if self.names_a_move(text) else word

    def names_a_move(self, text: str) -> bool:
        try:
            return text in self.notations()
        except TooLarge:  # too many moves to list: read the text as a move instead
            try:
                return self.session.is_legal(self.session.parse(text))
            except Exception:  # noqa: BLE001 - not a move, whatever the game's parser says
                return False

    # -- turns ---------------------------------------------------------------------------
    def try_move(self, text: str) -> None:
        try:
            move = self.session.parse(text)
        except PerfectPlayError as problem:
            said = str(problem).rstrip(".")
            if "legal moves" not in said:  # the game's message did not list them
                said += ". Type moves for the list"
            self.io.say(said + ".", STYLE_PROBLEM)
            return
        except Exception as problem:  # a user's game may raise anything from parse_move
            self.io.say(f"could not read {text!r} as a move ({problem}); {self.legal_text()}",
                        STYLE_PROBLEM)
            return
        if not self.session.is_legal(move):
            self.io.say(f"{text!r} is not legal here; {self.legal_text()}", STYLE_PROBLEM)
            return
        turn = self.session.play(move)
        self.io.say(f"You play {self.phrase(turn)}.", STYLE_HUMAN)
        self.need_board = True

    def computer_turn(self) -> None:
        lead = self.lead(1 - self.human)
        choice, analysis = self.computer.move(self.analyst, self.session.position, lead,
                                              self.thinking, self.progress)
        exact = analysis.exact
        turn = self.session.play(choice.move.move)
        self.io.say(f"I play {self.phrase(turn)}.", STYLE_COMPUTER)
        if not exact and not self.quiet:
            self.io.say(f"(My move is from {estimate_words(analysis)}.)", STYLE_VIEW)
        view = computer_view(choice.move, exact, lead)
        if view and not self.quiet and not self.session.is_over():
            self.io.say(view, STYLE_VIEW)
        self.need_board = True

    def finish(self) -> None:
        self.reviewed = True
        self.show_board_if_needed()
        result = self.session.result()
        assert result is not None  # only called once the game is over
        subjects = ("you", "I") if self.human == 0 else ("I", "you")
        names = ("you", "computer") if self.human == 0 else ("computer", "you")
        lines = result_lines(result, names, subjects)
        why = last_stick_line(self.session, subjects)
        if why:
            lines.insert(0, why)
        if result.winner == 1 - self.human:
            review = first_mistake(self.session, self.human, self.analyst)
            lines += review_lines(review, self.session)
        if self.session.score_game:
            lines += point_loss_lines(point_losses(self.session, self.human, self.analyst))
        self.result_counted = None if result.winner is None else result.winner == self.human
        for line in lines:
            self.io.say(line, STYLE_RESULT)
        self.io.say("Type undo to take back your last move, new to play again (sides swapped), "
                    "history, save FILE, or quit.")

    def after_game(self, text: str) -> None:
        self.io.say(f"The game is over, so {text!r} cannot be played; "
                    "type undo, new or quit.", STYLE_PROBLEM)

    # -- commands ------------------------------------------------------------------------
    def hint(self) -> None:
        if self.session.is_over():
            self.io.say("The game is over: there is nothing left to hint at.")
            return
        analysis = self.analyst.analyze(self.session.position, self.thinking, partial=True)
        for line in hint_lines(analysis, self.session.score_game, self.lead(self.human)):
            self.io.say(line)

    def moves(self) -> None:
        if self.session.is_over():
            self.io.say("The game is over: no moves are left.")
            return
        self.io.say(self.legal_text())

    def undo(self) -> None:
        taken = self.session.undo(self.human)
        if not taken:
            self.io.say("Nothing to undo: you have not moved yet.", STYLE_PROBLEM)
            return
        listed = ", ".join(turn.notation for turn in taken)
        self.io.say(f"Took back {listed}. Your move again.")
        self.reviewed = False
        self.result_counted = "none"  # the game goes on: its result is not in yet
        self.need_board = True

    def board(self) -> None:
        self.need_board = True
        self.show_board_if_needed()

    def new(self) -> None:
        if self.result_counted != "none":
            self.tally.add(self.result_counted)  # type: ignore[arg-type]
        self.result_counted = "none"
        self.session.restart()
        self.reviewed = False
        self.need_board = True
        self.human = 1 - self.human  # sides swap, so each plays first in turn
        turn = "you move first" if self.human == 0 else "I move first"
        self.io.say(f"New game from the first position; {turn} this time. {self.tally.line()}")

    def history(self) -> None:
        if not self.session.history:
            self.io.say("No moves yet.")
            return
        words = [f"{index}. {turn.notation} ({'you' if turn.side == self.human else 'me'})"
                 for index, turn in enumerate(self.session.history, start=1)]
        self.io.say("Moves so far: " + ", ".join(words))

    def save(self, path: str) -> None:
        if not path:
            self.io.say("Write save FILE, e.g. save mygame.json.", STYLE_PROBLEM)
            return
        if self.origin is None:
            self.io.say("This game cannot be saved (it was not started from the command line).",
                        STYLE_PROBLEM)
            return
        record = dict(self.origin, human_side=self.human,
                      moves=[turn.notation for turn in self.session.history])
        try:
            with open(path, "w", encoding="utf-8") as file:
                json.dump(record, file, indent=1)
        except OSError as problem:
            self.io.say(f"Could not save to {path!r}: {problem.strerror or problem}.", STYLE_PROBLEM)
            return
        self.io.say(f"Saved {plural(len(self.session.history), 'move')} to {path}; "
                    f"replay with: perfectplay play --load {path}")

    def help(self) -> None:
        self.io.say(help_text(self.example(), self.session.score_game))

    def quit(self) -> None:
        raise Leave(self.goodbye("you quit"))

    # -- helpers -------------------------------------------------------------------------
    def greet(self) -> None:
        game, start = self.session.game, self.session.start
        summary = game_summary(game, start)
        self.io.say(f"{game.name}" + (f": {summary}" if summary else ""), "bold")
        if self.session.is_over():
            self.io.say("This position is already over: there is no move to make.")
            return
        exact = self.analyst.probe(start, self.progress)
        self.io.say(knowledge_line(exact, self.analyst.think_time, self.analyst.proves_only,
                                   self.analyst.estimator(), self.analyst.reach_ends_here,
                                   not game.properties.too_big_to_solve))
        # From a position set up mid-game nobody "moves first": the game goes on.
        when = "first" if start == game.start() else "next"
        first = f"You move {when}" if self.human == 0 else f"I move {when}"
        marks = game.player_marks(start)
        if marks is not None:
            first += f"; you are {marks[self.human]}"
        self.io.say(f"{first}. Level: {self.computer.level.name}. "
                    f"Type a move like {self.example()}, or help for commands.")

    def show_board_if_needed(self) -> None:
        if not self.need_board:
            return
        self.need_board = False
        picture = self.session.game.picture(self.session.position)
        self.io.board(picture.text, picture.marks)
        if picture.caption:
            self.io.say(picture.caption)
        if self.session.score_game:
            scores = self.session.scores()
            mine, theirs = scores[self.human], scores[1 - self.human]
            self.io.say(f"Score: you {mine}, computer {theirs}.")

    def thinking(self) -> None:
        self.io.say(f"Thinking (up to {self.analyst.think_time:g} s)...")

    def progress(self, line: str) -> None:
        self.io.say(line, STYLE_VIEW)

    def lead(self, side: int) -> int:
        scores = self.session.scores()
        return scores[side] - scores[1 - side]

    def notations(self) -> list[str]:
        game, position = self.session.game, self.session.position
        return [game.format_move(position, move) for move in self.session.legal_moves()]

    def legal_text(self) -> str:
        """The legal moves, or when there are too many to list (Nim 10^30), a few optimal ones."""
        try:
            return legal_moves_text(self.notations())
        except TooLarge:
            best = [move.notation for move in self.analyst.analyze(self.session.position).moves[:3]]
            return f"too many legal moves to list; best: {', '.join(best)}"

    def example(self) -> str:
        try:
            notations = self.notations()
        except TooLarge:  # too many to list: an optimal one is as good an example as any
            notations = [move.notation for move in self.analyst.analyze(self.session.position).moves[:1]]
        if not notations:  # the game is over: show how moves were written at the start
            game, start = self.session.game, self.session.start
            notations = [game.format_move(start, move) for move in game.moves(start)]
        return move_example(self.session.game, notations)

    def phrase(self, turn: Turn) -> str:
        return move_phrase(self.session.game, turn.notation, turn.move, turn.before)

    def goodbye(self, why: str) -> str:
        plies = len(self.session.history)
        if self.session.is_over() or plies == 0:
            return f"Bye ({why})."
        return f"Game left after {plural(plies, 'move')} ({why}). Bye."


def watch(session: Session, analyst: Analyst, computers: tuple[Computer, Computer],
          terminal: Terminal, delay: float = 0.5, quiet: bool = False) -> None:
    """Two computers play a whole game, shown move by move with a pause between moves."""
    names = (f"computer A ({computers[0].level.name})", f"computer B ({computers[1].level.name})")
    try:
        terminal.say(f"{session.game.name}: {capital(names[0])} moves first against {names[1]}.",
                     "bold")
        show_board(terminal, session)
        while not session.is_over():
            terminal.pause(delay)
            side = session.side_to_move
            scores = session.scores()
            lead = scores[side] - scores[1 - side]
            choice, analysis = computers[side].move(
                analyst, session.position, lead, on_progress=lambda line: terminal.say(line, STYLE_VIEW))
            exact = analysis.exact
            turn = session.play(choice.move.move)
            phrase = move_phrase(session.game, turn.notation, turn.move, turn.before)
            style = STYLE_COMPUTER if side == 0 else STYLE_HUMAN
            terminal.say(f"{capital(names[side])} plays {phrase}.", style)
            if analysis.unproved_after is not None and not quiet:
                terminal.say(f"({capital(names[side])}'s move is from "
                             f"{estimate_words(analysis)}.)", STYLE_VIEW)
            show_board(terminal, session)
            if session.score_game:
                now = session.scores()
                terminal.say(f"Score: A {now[0]}, B {now[1]}.")
            view = computer_view(choice.move, exact, lead,
                                 (names[side], names[1 - side]))
            if view and not quiet and not session.is_over():
                terminal.say(view, STYLE_VIEW)
    except KeyboardInterrupt:
        terminal.recover()
        terminal.say(f"\nStopped after {plural(len(session.history), 'move')}.")
        return
    result = session.result()
    assert result is not None
    why = last_stick_line(session, names)
    for line in ([why] if why else []) + result_lines(result, names, names):
        terminal.say(line, STYLE_RESULT)


def show_board(terminal: Terminal, session: Session) -> None:
    picture = session.game.picture(session.position)
    terminal.board(picture.text, picture.marks)
    if picture.caption:
        terminal.say(picture.caption)
