"""Playing games against the computer: sessions with undo, levels of strength, the
computer's analysis, the end-of-game review, and the terminal loop.

    from perfectplay.play import Session, Analyst, LEVELS, choose
    session = Session(game)
    analysis = Analyst(game).analyze(session.position)
    move = choose(analysis, LEVELS["perfect"], random.Random(1)).move
"""

from perfectplay.play.analyst import Analysis, Analyst
from perfectplay.play.arena import GameRecord, play_out
from perfectplay.play.game_loop import Computer, HumanMatch, watch
from perfectplay.play.levels import LEVELS, Choice, Level, choose, level_named
from perfectplay.play.review import Review, first_mistake
from perfectplay.play.session import Result, Session, Turn

__all__ = [
    "LEVELS", "Analysis", "Analyst", "Choice", "Computer", "GameRecord", "HumanMatch", "Level",
    "Result", "Review", "Session", "Turn", "choose", "first_mistake", "level_named", "play_out",
    "watch",
]
