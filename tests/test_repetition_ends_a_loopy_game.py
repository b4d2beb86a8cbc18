"""A loopy game ends drawn when a position comes up a third time, in play and on the page
alike (perfectplay.finish): on the page, Three Men's Morris played by its best moves went on
past 300 plies saying "X to move: draw", where play called the draw after 20."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from perfectplay import analyze, finish, registry
from perfectplay.play.session import Session
from perfectplay.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def best_play_to_the_draw(name: str) -> tuple[Any, Any, list[Any]]:
    game, start = registry.load(name, {})
    position, played = start, []
    while not finish.game_over(game, start, played):
        move = analyze(game, position)[0].move
        played.append(move)
        position = game.play(position, move)
        assert len(played) < 100
    return game, start, played


# Three Men's Morris is a draw: best play on both sides repeats.
@pytest.mark.parametrize("name", ["morris3"])
def test_the_page_and_play_end_a_drawn_loopy_game_at_the_third_repetition(name: str) -> None:
    game, start, played = best_play_to_the_draw(name)
    ended = finish.ending(game, start, played)
    assert (ended.winner, ended.repetition) == (None, True)
    session = Session(game, start)
    for move in played:
        session.play(move)
    result = session.result()
    assert result is not None and result.repetition and len(played) == result.plies

    notation, position = [], start
    for move in played:
        notation.append(game.format_move(position, move))
        position = game.play(position, move)
    client = TestClient(create_app())
    shown = client.get(f"/api/{name}/position", params={"moves": ",".join(notation)}).json()
    assert (shown["over"], shown["value"], shown["winner"]) == (True, "draw", None)
    assert shown["result"] == "draw: the same position came up a third time"
    before = client.get(f"/api/{name}/position", params={"moves": ",".join(notation[:-1])}).json()
    assert not before["over"]
    more = notation + [notation[-1]]
    refused = client.get(f"/api/{name}/position", params={"moves": ",".join(more)})
    assert refused.status_code >= 400 and "after the game ended" in refused.text
