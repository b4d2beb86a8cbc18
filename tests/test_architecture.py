"""The house rules of docs/architecture.md, checked on the source: imports point down the
layers, even the lazy ones inside functions, and no two modules import each other."""

from __future__ import annotations

import ast
import re
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "perfectplay"

# Layer of each package or module, lowest first; a module may import its own layer or below
# (the longest matching prefix names the layer). A new package gets its line here, and in
# docs/architecture.md.
LAYERS = {
    "value": 0, "errors": 0,
    # The protocol, with the vocabulary every method answers in (limits, results), and the
    # entry a game publishes for the registry.
    "game": 1, "diagram": 1, "entry": 1, "search.limits": 1, "search.results": 1, "game_faults": 1,
    # How a finished game ended (winner, final scores, words), counted by the game itself.
    "finish": 1,
    # The registry of solving methods: below every method, so each can register itself.
    "methods": 2,
    "scoring": 3,
    "search": 4,
    # The engines that build on search, side by side; they name no game.
    "impartial": 5, "compiled": 5, "retro": 5, "engine": 5,
    # Databases of solved positions: built with a game's rules, read as a solving method.
    "store": 5,
    # Proof-number search (df-pn), a method for every game.
    "pns": 5,
    # Monte Carlo tree search, the player for games too big to solve without an evaluation.
    "mcts": 5,
    # The games, one package each with everything only it uses (kernels, books, tables): they
    # build on the engines and register their own methods.
    "games": 6,
    # Another library's game (openspiel:NAME) seen through the protocol: a game like the others,
    # which the registry loads by the library's name.
    "interop": 6, "interop.openspiel": 6,
    # A game's own commands (Entry.commands, Entry.contest): they live in its package with what
    # they serve but are commands like the CLI's, built on perfectplay.cli.common, so they sit
    # in the cli layer; nothing imports them but the CLI, through the registry, by name.
    "games.connect4.book.command": 10, "games.chess.tablebase.command": 10,
    "games.octal.command": 10, "games.claim.command": 10, "games.crates.command": 10,
    # Chess's part of the UCI loop: it builds on perfectplay.uci's options and extras, so it
    # sits in the front ends' layer; the loop reaches it through chess's entry, by name.
    "games.chess.uci": 9,
    # The one way in, and the games by name (entry points).
    "solving": 7, "deciding": 7, "registry": 7,
    "verify": 8, "__init__": 8,
    # perfectplay's games as OpenSpiel games: found through the registry like any user's.
    "interop.openspiel_export": 8, "interop.pettingzoo_env": 8,
    # Front ends and pictures, side by side: they call the library like any user.
    "play": 9, "web": 9, "pictures": 9, "uci": 9,
    # Jupyter: boards drawn from a game's diagram, solutions and analyses as tables.
    "notebook": 9,
    # The Gymnasium environment's opponent plays at play's levels.
    "interop.gymnasium_env": 9,
    "cli": 10, "__main__": 11,
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    if parts[-1] == "__init__" and len(parts) > 1:  # a package: named by its folder
        parts = parts[:-1]
    return ".".join(parts)


def layer(module: str) -> int:
    parts = module.split(".")
    for size in range(len(parts), 0, -1):
        prefix = ".".join(parts[:size])
        if prefix in LAYERS:
            return LAYERS[prefix]
    raise AssertionError(f"perfectplay.{module} has no layer in tests/test_architecture.py")


def known_modules() -> set[str]:
    return {module_name(path) for path in PACKAGE.rglob("*.py")}


def imports(path: Path, modules: set[str]) -> set[str]:
    """Every perfectplay module ``path`` imports, at the top or inside a function.
    ``from perfectplay.a import b`` imports perfectplay.a.b when that is a module, else
    perfectplay.a; ``from perfectplay import solve`` imports the package's __init__."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            targets = []
            for alias in node.names:
                inner = f"{node.module}.{alias.name}"
                targets.append(inner if _inner(inner) in modules else node.module)
        else:
            continue
        found |= {_inner(target) for target in targets if target.split(".")[0] == "perfectplay"}
    return found


def _inner(dotted: str) -> str:
    return dotted.removeprefix("perfectplay").lstrip(".") or "__init__"


def graph() -> dict[str, set[str]]:
    modules = known_modules()
    return {module_name(path): imports(path, modules) - {module_name(path)}
            for path in PACKAGE.rglob("*.py")}


def test_every_import_points_down_the_layers() -> None:
    upward = [f"{module} (layer {layer(module)}) imports {target} (layer {layer(target)})"
              for module, targets in graph().items() for target in targets
              if layer(target) > layer(module)]
    assert upward == []


def test_no_modules_import_each_other_even_through_others() -> None:
    try:
        order = list(TopologicalSorter(graph()).static_order())
    except CycleError as error:
        pytest.fail(f"import cycle: {' -> '.join(error.args[1])}")
    assert "value" in order


def test_the_search_family_never_reaches_up_to_choose_a_strategy() -> None:
    # The defect this layering fixed: search/solver.py imported impartial.theory and
    # compiled.dispatch to decide how to answer.
    reaching = {target for module, targets in graph().items() if module.startswith("search")
                for target in targets if layer(target) > LAYERS["search"]}
    assert reaching == set()


def test_the_solving_front_door_is_the_only_place_that_knows_every_method() -> None:
    # perfectplay.methods is the registry: it must not import any method's package.
    assert {target.split(".")[0] for target in graph()["methods"]} <= {"game", "errors", "search"}
    assert graph()["methods"] <= {"game", "errors", "search.limits", "search.results"}


@pytest.mark.parametrize("module", ["search.solver", "impartial.method", "compiled.method"])
def test_each_method_module_registers_itself_and_is_listed_once(module: str) -> None:
    from perfectplay import solving
    assert f"perfectplay.{module}" in solving.METHOD_MODULES
    assert "register(" in (PACKAGE / (module.replace(".", "/") + ".py")).read_text()


def test_no_module_imports_a_private_name_of_another_package() -> None:
    # A private helper is free to change; one that another package needs is made public in
    # the lower layer (store/lookup.py once imported search.solver._totals).
    found = []
    for path in PACKAGE.rglob("*.py"):
        own = module_name(path).split(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("perfectplay."):
                target = node.module.split(".")[1]
                found += [f"{module_name(path)}: {node.module}.{alias.name}" for alias in node.names
                          if alias.name.startswith("_") and target != own]
    assert found == []


def test_the_static_table_of_methods_names_what_each_module_registers() -> None:
    # solving.METHOD_MODULES lists the --algorithm names so that a command need not import
    # every method module to know them; a module that registers another name breaks this.
    import importlib

    from perfectplay import methods, solving
    for module, (names, _) in solving.METHOD_MODULES.items():
        before = {m.name for m in methods.registered("python")}
        importlib.import_module(module)
        solving.load_methods()
        owned = {m.name for m in methods.registered("python")
                 if m.solve.__module__ == module or m.analyze.__module__ == module}
        assert owned == set(names), module
        assert set(names) <= before | {m.name for m in methods.registered("python")}
    # Modules load in the order requests first need them; --algorithm lists the declared
    # order whatever that was.
    assert sorted(solving.algorithm_names()) == sorted(m.name for m in methods.registered("python"))
    assert list(solving.algorithm_summaries()) == solving.algorithm_names()


def test_each_game_declares_its_methods_once_for_its_entry_and_its_class() -> None:
    # The entry lists the --algorithm names without importing the rules; the class names the
    # modules to import when one of its positions is answered: the same tuple, not a copy.
    from perfectplay import registry
    declaring = [entry for entry in registry.entries() if entry.methods]
    assert {entry.name for entry in declaring} >= {"connect4", "chess", "hex", "kalah", "dots"}
    for entry in declaring:
        game, _ = entry.load({}, None)
        assert game.method_modules is entry.methods, entry.name


def test_each_games_declared_algorithm_names_are_what_its_modules_register() -> None:
    import importlib

    from perfectplay import methods, registry
    for entry in registry.entries():
        for declared in entry.methods:
            importlib.import_module(declared.module)
            owned = tuple(m.name for m in methods.registered("python")
                          if declared.module in (m.solve.__module__, m.analyze.__module__))
            assert owned == declared.algorithms, declared.module


def test_a_plain_module_name_is_a_method_module_without_algorithm_names() -> None:
    from perfectplay.game import MethodModule, method_modules
    assert method_modules(("a.kernel", MethodModule("a.search", ("a-search",)))) == (
        MethodModule("a.kernel"), MethodModule("a.search", ("a-search",)))


def test_a_tic_tac_toe_solve_imports_only_the_search_family_of_methods() -> None:
    import subprocess
    import sys
    code = ("import sys\n"
            "from perfectplay.cli import main\n"
            "try:\n    main(['solve', 'tictactoe'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.endswith('.method') or m == 'perfectplay.engine.api'))")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip().splitlines()[-1] == "[]"


def test_a_small_solve_from_the_cli_imports_neither_numpy_nor_numba() -> None:
    # Every method registers itself when perfectplay.solving loads, so a heavy import at the
    # top of any method's package would be paid by every command: numpy alone is ~0.1 s.
    import subprocess
    import sys
    code = ("import sys\n"
            "from perfectplay.cli import main\n"
            "try:\n"
            "    main(['solve', 'tictactoe', '--json'])\n"
            "except SystemExit:\n"
            "    pass\n"
            "heavy = sorted(m for m in ('numpy', 'numba', 'rich') if m in sys.modules)\n"
            "assert not heavy, heavy\n")
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


# -- every game in one package, every engine free of games ----------------------

# The engines: they build on the protocol and name no game. A game offers what it has through
# the protocol (compiled_spec, sum_adapter, known_value, ...) and the methods it registers.
ENGINES = ("search", "engine", "retro", "store", "compiled", "impartial", "scoring", "methods",
           "solving", "deciding", "pns", "mcts")
# The front ends: they reach games only through the registry.
FRONT_ENDS = ("cli", "play", "web", "uci", "pictures", "notebook")


def _in(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == package or module.startswith(package + ".") for package in packages)


def _built_in_names() -> set[str]:
    from perfectplay import registry
    return {name for entry in registry.entries() for name in (entry.name, *entry.aliases)}


def _strings(path: Path) -> list[str]:
    """The string constants of a module that are not docstrings (f-string parts included)."""
    tree = ast.parse(path.read_text(), str(path))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


def test_no_engine_imports_a_game() -> None:
    reaching = sorted(f"{module} imports {target}" for module, targets in graph().items()
                      if _in(module, ENGINES) for target in targets if _in(target, ("games",)))
    assert reaching == []


def test_no_engine_names_a_built_in_game_in_its_code() -> None:
    # A string equal to a game's name or alias is a choice by name (game.name == "connect4");
    # a module path under perfectplay.games is a choice by class.
    names = _built_in_names()
    found = sorted(f"{module_name(path)}: {text!r}" for path in PACKAGE.rglob("*.py")
                   if _in(module_name(path), ENGINES) for text in _strings(path)
                   if text.strip().lower() in names or "perfectplay.games" in text)
    assert found == []


def test_front_ends_reach_games_only_through_the_registry() -> None:
    reaching = sorted(f"{module} imports {target}" for module, targets in graph().items()
                      if _in(module, FRONT_ENDS) for target in targets if _in(target, ("games",)))
    assert reaching == []


def test_every_game_specific_package_lives_under_games() -> None:
    # What only one game uses (kernels, books, tables) sits in that game's package.
    top = {path.name for path in PACKAGE.iterdir() if path.is_dir() and path.name != "__pycache__"}
    assert top.isdisjoint({"book", "tablebase", "connect4_search"})
    assert not list((PACKAGE / "compiled").glob("c4_*.py"))
    assert not (PACKAGE / "compiled" / "tictactoe.py").exists()


# -- front ends name no game: a game's own commands, notes and options live in its package ---

# The front ends whose text must name no built-in game: the CLI, play, UCI (and the web
# page, checked apart below while its boards move into the games).
NAMELESS_FRONT_ENDS = ("cli", "play", "uci", "notebook")


def _name_pattern() -> re.Pattern[str]:
    """A built-in game's name or alias as a word of its own (not inside "dots-and-boxes" nor
    "nimble"), in any case ("Nim:", "Kayles")."""
    names = sorted(_built_in_names(), key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, names)) + r")(?![\w-])", re.IGNORECASE)


def _named_in_python(packages: tuple[str, ...]) -> list[str]:
    pattern = _name_pattern()
    return sorted(f"{module_name(path)}: {text!r}" for path in PACKAGE.rglob("*.py")
                  if _in(module_name(path), packages) for text in _strings(path)
                  if pattern.search(text))


def _js_strings(text: str) -> list[str]:
    """The string literals of a JavaScript module ('...', "..." and `...`), comments skipped."""
    found, at = [], 0
    while at < len(text):
        if text.startswith("//", at):
            at = text.find("\n", at) if "\n" in text[at:] else len(text)
        elif text.startswith("/*", at):
            at = text.find("*/", at) + 2 if "*/" in text[at:] else len(text)
        elif text[at] in "'\"`":
            quote, end = text[at], at + 1
            while end < len(text) and text[end] != quote:
                end += 2 if text[end] == "\\" else 1
            found.append(text[at + 1:end])
            at = end + 1
        else:
            at += 1
    return found


def _named_in_javascript() -> list[str]:
    pattern = _name_pattern()
    return sorted(f"{path.name}: {literal!r}" for path in (PACKAGE / "web" / "static").glob("*.js")
                  for literal in _js_strings(path.read_text()) if pattern.search(literal))


def test_no_front_end_names_a_built_in_game() -> None:
    # Every new game once needed lines in the CLI (its commands, what solve printed for it,
    # the tour) and in UCI (its options): what only one game has is that game's, declared by
    # its entry (commands, contest, tour, opening_book, extensions) or its class
    # (value_note, source_line), so a plugin game gets the same without a front-end line.
    assert _named_in_python(NAMELESS_FRONT_ENDS) == []


def test_the_web_page_names_no_built_in_game() -> None:
    # The page drew each game by name and held game rules (Kalah's sowing, a Dots replay):
    # every game now describes its own board (Game.diagram), which the page draws by kind.
    assert _named_in_python(("web",)) == []
    assert _named_in_javascript() == []


def test_the_name_scan_finds_a_name_as_a_word_and_only_as_one() -> None:
    pattern = _name_pattern()
    assert pattern.search("only Connect4 has it") and pattern.search("Nim: theory")
    assert not pattern.search("dots-and-boxed") and not pattern.search("nimble")
    assert _js_strings('a = "x"; // "nim"\n/* \'hex\' */ b = `y ${z}` + \'it\\\'s\'') == [
        "x", "y ${z}", "it\\'s"]


# -- one decider: how a position is answered is perfectplay.deciding's choice ---------------

# What picks a method: the registry's choice and solving's lookups over it. solve and analyze
# take the caller's --algorithm and --engine as given; only the decider (and solving itself,
# and a leading method handing a position on) turns a position into a method.
CHOOSERS = {"choose", "resolve_algorithm", "estimating_algorithm"}


def _method_choices(path: Path) -> list[str]:
    """Where ``path`` calls or imports a chooser of perfectplay.solving or perfectplay.methods,
    or compares a method's engine to "compiled" (a capability is declared, not inferred)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module in ("perfectplay.solving", "perfectplay.methods"):
            found += [f"imports {node.module}.{alias.name}" for alias in node.names if alias.name in CHOOSERS]
        elif (isinstance(node, ast.Attribute) and node.attr in CHOOSERS
              and isinstance(node.value, ast.Name) and node.value.id in ("solving", "methods")):
            found.append(f"calls {node.value.id}.{node.attr}")
        elif isinstance(node, ast.Compare) and _compares_engine_to_compiled(node):
            found.append(f"line {node.lineno}: compares an engine to 'compiled'")
    return found


def _compares_engine_to_compiled(node: ast.Compare) -> bool:
    sides = (node.left, *node.comparators)
    return (any(isinstance(side, ast.Attribute) and side.attr == "engine" for side in sides)
            and any(isinstance(side, ast.Constant) and side.value == "compiled" for side in sides))


def test_no_front_end_chooses_a_method_itself() -> None:
    # play's perfect level asked solving.choose whether a kernel answered (engine ==
    # "compiled"), match asked solving.estimating_algorithm, UCI's go ran the mate search and
    # the engine by its own rule: each now asks perfectplay.deciding (prover, estimator, route).
    choosing = sorted(f"{module_name(path)} {found}" for path in PACKAGE.rglob("*.py")
                      if _in(module_name(path), FRONT_ENDS) for found in _method_choices(path))
    assert choosing == []


def test_the_method_choice_scan_finds_each_way_of_choosing(tmp_path: Path) -> None:
    written = tmp_path / "front.py"
    written.write_text("from perfectplay.solving import choose, solve\nfrom perfectplay import solving\n"
                       "solving.estimating_algorithm(g)\nif method.engine == 'compiled':\n    pass\n"
                       "methods.choose(g, r)\nsolving.solve(g)\n")
    assert sorted(_method_choices(written)) == [
        "calls methods.choose", "calls solving.estimating_algorithm", "imports perfectplay.solving.choose",
        "line 4: compares an engine to 'compiled'"]


# -- capabilities are declared, not probed ------------------------------------------------

# What a probe is asked about: a game (game, self.game, type(game), a game class) or what a
# method sent back (a result, a report, a solution).
PROBED = re.compile(r"\b(\w*game\w*|own|result|report|reports|solution|last)\b", re.IGNORECASE)
# Reflection that is not a question about what a game can do: the fault guard calls the
# Game method it is asked to guard, by its name.
NOT_A_PROBE = {("game_faults.py", "getattr(game, method)")}


def capability_probes(source: str, name: str) -> list[str]:
    """The hasattr/getattr calls in ``source`` whose object is a game or a method's answer."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("hasattr", "getattr") and node.args):
            call = ast.unparse(node)
            if PROBED.search(ast.unparse(node.args[0])) and not any(
                    name == file and call.startswith(start) for file, start in NOT_A_PROBE):
                found.append(f"{name}:{node.lineno}: {call}")
    return found


def test_no_module_probes_a_game_or_a_result_for_a_capability() -> None:
    # A game declares what it can do (Game's methods with a default that says "none",
    # Properties, default_algorithm, method_modules; progress in search.results' types);
    # hasattr(game, "score_of") once printed a "score" for any game with such a method.
    found = [probe for path in sorted(PACKAGE.rglob("*.py"))
             for probe in capability_probes(path.read_text(), path.name)]
    assert found == []


def test_the_probe_check_sees_a_probe() -> None:
    assert capability_probes("if hasattr(game, 'score_of'):\n    pass\n", "cli.py") != []
    assert capability_probes("x = getattr(self.game, 'width', 7)\n", "web.py") != []
    assert capability_probes("getattr(result, 'progress_line', None)\n", "solving.py") != []
    assert capability_probes("getattr(game, method)(*args)\n", "game_faults.py") == []
    assert capability_probes("getattr(self, f'_cmd_{command}', None)\n", "protocol.py") == []
