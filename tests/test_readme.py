"""The README's example game runs exactly as printed."""

from __future__ import annotations

import doctest
from pathlib import Path

README = Path(__file__).parents[1] / "README.md"


def test_readme_examples_run_as_printed() -> None:
    text = README.read_text()
    block = text.split("```python\n", 1)[1].split("```", 1)[0]
    test = doctest.DocTestParser().get_doctest(block, {}, "README", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0
    assert runner.tries >= 6


def test_the_readme_lists_exactly_the_algorithm_names_the_cli_accepts() -> None:
    # It once listed `dots-table`, a kernel chosen by --engine, which --algorithm refused.
    from perfectplay.solving import algorithm_names
    text = README.read_text()
    table = text.split("### Algorithms (`--algorithm`)", 1)[1].split("\n\n", 2)[1]
    listed = [line.split("`")[1] for line in table.splitlines() if line.startswith("| `")]
    assert sorted(listed) == sorted(algorithm_names())
