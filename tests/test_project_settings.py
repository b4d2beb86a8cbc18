"""The project's own settings: the public API is type-checked strictly, and a developer's tools
are the versions CI runs."""

from __future__ import annotations

import re
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


def requirements(extra: str) -> dict[str, str]:
    """The extra's requirements by name, with their version specifiers, another extra of this
    project's (``perfectplay[test]``) read in place."""
    found: dict[str, str] = {}
    for line in PYPROJECT["project"]["optional-dependencies"][extra]:
        own = re.fullmatch(r"perfectplay\[([\w,-]+)\]", line)
        if own:
            for each in own.group(1).split(","):
                found |= requirements(each)
            continue
        name = re.split(r"[<>=!~\[; ]", line, maxsplit=1)[0]
        found[name.lower()] = line[len(name):]
    return found


def test_a_developer_installs_the_tool_versions_ci_runs() -> None:
    test, dev = requirements("test"), requirements("dev")
    assert test["mypy"].startswith("==") and test["ruff"].startswith("==")
    assert {name: dev.get(name) for name in test} == test  # every one of CI's, at CI's version
