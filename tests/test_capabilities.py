"""What a game can do is declared on the Game protocol, with defaults that say it cannot; the
engines and front ends read the declaration (tests/test_architecture.py forbids probing)."""

from __future__ import annotations

from perfectplay import registry, solving
from perfectplay.game import Game, has_compiled_spec
from perfectplay.impartial.sums import SumAdapter, adapter_for


class Pile(Game[int, int]):
    """Take one or two from a pile; the last to take wins. It declares nothing optional."""

    name = "pile"

    def start(self) -> int:
        return 7

    def moves(self, position: int) -> list[int]:
        return [take for take in (1, 2) if take <= position]

    def play(self, position: int, move: int) -> int:
        return position - move


def test_a_game_that_declares_nothing_gets_the_defaults_and_is_solved_by_tt() -> None:
    game = Pile()
    assert (game.default_algorithm, game.compiled_spec(), game.sum_adapter()) == ("tt", None, None)
    assert game.describe_line(7, [1, 2]) is None and not has_compiled_spec(game)
    assert solving.resolve_algorithm(game, "auto") == "tt"
    solution = solving.solve(game)
    assert solution.best_moves == ["1"] and solution.exact  # 7 = 3*2 + 1: take one


def test_a_game_without_its_own_sum_view_is_one_component() -> None:
    adapter = adapter_for(Pile())
    assert type(adapter) is SumAdapter and adapter.split(7) == [7]


def test_the_compiled_spec_is_declared_by_the_class_and_a_subclass_can_take_it_back() -> None:
    tictactoe, _ = registry.load("tictactoe")
    assert has_compiled_spec(tictactoe)

    class Lopsided(type(tictactoe)):  # type: ignore[misc]
        pass

    class Refusing(Pile):
        compiled_spec = None  # type: ignore[assignment]

    assert not has_compiled_spec(Lopsided()) and not has_compiled_spec(Refusing())


def test_a_game_names_its_own_auto_algorithm() -> None:
    hex_game, _ = registry.load("hex", {"size": 3})
    assert hex_game.default_algorithm == "pns"
    crates, _ = registry.load("crates")
    assert solving.resolve_algorithm(hex_game, "auto") == "pns"
    assert solving.resolve_algorithm(crates, "auto") == "table"
