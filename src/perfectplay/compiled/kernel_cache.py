"""One game's compiled kernels, compiled once and then loaded from numba's disk cache.

A kernel that calls a game's ``@njit`` functions cannot be cached by numba while it holds
them as closure variables. So its text is a template (perfectplay.compiled.kernel_source for
the generic engine, perfectplay.store.builder_source for the tier builder), and for one
game this module writes that text, bound to the game's functions and settings, as a module
named by a digest (of the text, of the source files that define the game's functions, and of
the numba and Python versions) in the cache directory, and imports it with ``cache=True``:
the first process compiles and stores the machine code beside it, later ones load it.
Where nothing can be written there, the same text runs in memory, compiled in every process.

Cache directory: ``$PERFECTPLAY_CACHE``, else ``$XDG_CACHE_HOME/perfectplay``, else
``~/.cache/perfectplay``; its ``kernels`` folder may be deleted at any time.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import inspect
import os
import sys
import types
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from perfectplay import value as V

SOURCE = Path(__file__).with_name("kernel_source.py")
BEGIN, END = "# BINDINGS:", "# END BINDINGS"
# The functions each generated module takes from here when it is imported, by digest.
_BOUND: dict[str, tuple[Any, ...]] = {}
_LOADED: dict[str, dict[str, Any]] = {}


def bound(digest: str) -> tuple[Any, ...]:
    """The game functions of the module named by ``digest`` (called by that module)."""
    return _BOUND[digest]


def load_kernels(functions: tuple[Any, ...], distance: bool, no_move: int) -> dict[str, Any]:
    """The kernels over a game's (moves, play, outcome, key, evaluate); ``no_move`` is the
    result for a player without a move (perfectplay.compiled.generic's WIN or LOSS)."""
    names = ("moves_of", "play", "outcome_of", "key_of", "evaluate")
    settings = {"DISTANCE": distance, "NO_MOVE": no_move, "GAME_WIN": V.WIN,
                "MAGNITUDE_ONLY": V.WIN_ONLY}
    return load_generated(SOURCE, dict(zip(names, functions, strict=True)), settings,
                          ("minimax", "alphabeta", "tt"))


def load_generated(source: Path, functions: dict[str, Any], settings: Mapping[str, object],
                   kernels: tuple[str, ...], depends: tuple[Path, ...] = ()) -> dict[str, Any]:
    """The ``kernels`` of the template ``source`` with its BINDINGS block bound to one game's
    ``functions`` (global name -> ``@njit`` function, or None for one it never calls) and
    ``settings`` (global name -> constant). ``depends`` are the files of the compiled
    functions the template imports: numba's cache does not notice when they change, the
    digest does."""
    text = source.read_text(encoding="utf-8")
    importable = _importable(functions.values())
    digest = _digest(text, tuple(functions.values()), repr(sorted(settings.items())), depends,
                     importable)
    if digest not in _LOADED:
        _BOUND[digest] = tuple(functions.values())
        bind = functools.partial(_bind, text, digest, tuple(functions), settings)
        cached = importable and _import_cached(digest, bind(cache=True))
        module = cached or _run_in_memory(digest, source, bind(cache=False))
        _LOADED[digest] = {name: getattr(module, name) for name in kernels}
    return _LOADED[digest]


def _importable(functions: Iterable[Any]) -> bool:
    """Whether a new process can find each function again by module and name, as numba's
    cache must (code executed from a string, for one, cannot be cached)."""
    for function in functions:
        if function is None:
            continue
        original = getattr(function, "py_func", function)
        module = sys.modules.get(original.__module__)
        if module is None or getattr(module, original.__name__, None) is not function:
            return False
    return True


def _bind(text: str, digest: str, names: tuple[str, ...], settings: Mapping[str, object], *,
          cache: bool) -> str:
    start, stop = text.index(BEGIN), text.index(END) + len(END)
    bindings = [
        f"{BEGIN} generated for one game (digest {digest})",
        *(["from perfectplay.compiled.kernel_cache import bound",
            f"{', '.join(names)}, = bound({digest!r})"] if names else []),
        *(f"{name} = {value!r}" for name, value in settings.items()),
        f"CACHE = {cache}",
        END,
    ]
    return text[:start] + "\n".join(bindings) + text[stop:]


def _digest(text: str, functions: tuple[Any, ...], settings: str, depends: tuple[Path, ...],
            importable: bool) -> str:
    """Changes whenever the kernels, the game's source files or the compiler change; and,
    for functions made at run time (closures over a board's size, say, with one source and
    one name for every size), with the functions themselves: _BOUND keeps them alive, so
    their ids are never reused."""
    import numba
    parts = [text, settings, numba.__version__, sys.version]
    if not importable:
        parts += [str(id(function)) for function in functions]
    parts += [path.read_text(encoding="utf-8") for path in depends]
    for function in functions:
        if function is None:
            parts.append("None")
            continue
        original = getattr(function, "py_func", function)
        try:
            parts.append(Path(inspect.getsourcefile(original) or "").read_text(encoding="utf-8"))
        except (OSError, TypeError):
            parts.append(f"{original.__module__}.{original.__qualname__}")
        # A generated module's name holds its own digest (one board's settings): functions
        # of two boards run in memory share a source file and a name, not a module.
        parts.append(f"{original.__module__}.{original.__qualname__}")
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:20]


def cache_directory() -> Path:
    root = os.environ.get("PERFECTPLAY_CACHE") or os.environ.get("XDG_CACHE_HOME")
    base = Path(root) if root else Path.home() / ".cache"
    return (base if os.environ.get("PERFECTPLAY_CACHE") else base / "perfectplay") / "kernels"


def _import_cached(digest: str, text: str) -> types.ModuleType | None:
    """The generated module from the cache directory, or None where it cannot be written."""
    name = f"perfectplay_kernels_{digest}"
    try:
        folder = cache_directory()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{name}.py"
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            temporary = path.with_suffix(f".{os.getpid()}.tmp")
            temporary.write_text(text, encoding="utf-8")
            temporary.replace(path)  # atomic: a process running beside this one sees all or none
    except OSError:
        return None
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # numba's cache finds a function's module by name
    spec.loader.exec_module(module)
    return module


def _run_in_memory(digest: str, source: Path, text: str) -> types.ModuleType:
    name = f"perfectplay_kernels_{digest}"
    module = types.ModuleType(name)
    sys.modules[name] = module  # numba resolves a kernel's globals through its module
    exec(compile(text, str(source), "exec"), module.__dict__)  # noqa: S102 - our own source
    return module
