"""The project's own settings: the public API is type-checked strictly."""

from __future__ import annotations

import tomllib
from pathlib import Path

PYPROJECT = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text())
PUBLIC_API = ("perfectplay.game", "perfectplay.value", "perfectplay.errors", "perfectplay.solving",
              "perfectplay.methods", "perfectplay.search.results", "perfectplay.search.limits")
# What mypy's --strict turns on module by module (its other flags are global ones).
STRICT_FLAGS = ("disallow_any_generics", "disallow_subclassing_any", "disallow_untyped_calls",
                "disallow_untyped_defs", "disallow_incomplete_defs", "check_untyped_defs",
                "disallow_untyped_decorators", "warn_return_any", "no_implicit_reexport",
                "strict_equality", "extra_checks")


def test_the_public_api_modules_are_checked_strictly() -> None:
    mypy = PYPROJECT["tool"]["mypy"]
    assert mypy["warn_unused_configs"] and mypy["warn_redundant_casts"]
    for module in PUBLIC_API:
        settings: dict[str, object] = {}
        for override in mypy["overrides"]:
            names = override["module"]
            if module in ([names] if isinstance(names, str) else names):
                settings |= override
        strict = settings.get("strict") is True
        assert strict or all(settings.get(flag) is True for flag in STRICT_FLAGS), module

