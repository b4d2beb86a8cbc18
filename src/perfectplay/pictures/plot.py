"""The growth chart as an image file (PNG, SVG or PDF) with matplotlib, the ``plot`` extra.

matplotlib is imported only here, inside the function, with its file-only backend.
"""

from __future__ import annotations

from pathlib import Path

from perfectplay.errors import BadOption
from perfectplay.pictures.growth import Growth

FORMATS = (".png", ".svg", ".pdf")


def check_path(path: str) -> None:
    """Reject a file name matplotlib cannot write, before any work is done."""
    if Path(path).suffix.lower() not in FORMATS:
        raise BadOption(f"--plot {path!r}: the file must end in {', '.join(FORMATS)}")


def plot_growth(growth: Growth, path: str) -> None:
    check_path(path)
    try:
        import matplotlib
    except ImportError:
        raise BadOption("--plot needs matplotlib: pip install 'perfectplay[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4.5), dpi=120)
    # Curves may coincide (memo and tt on take-away): dashes and widths keep each visible.
    styles = [("-", 4.0), ("--", 2.5), ("-.", 1.8), (":", 1.5)]
    for index, (name, counts) in enumerate(growth.nodes.items()):
        points = [(n, c) for n, c in zip(growth.sizes, counts, strict=True) if c is not None]
        style, width = styles[index % len(styles)]
        if points:
            axes.plot(*zip(*points, strict=True), linestyle=style, linewidth=width, marker="o", markersize=3,
                      label=name)
    axes.set_yscale("log")
    axes.set_xlabel(f"{growth.game}: size")
    axes.set_ylabel("nodes searched")
    cap = f"; curves stop past {growth.node_cap:,} nodes" if growth.node_cap else ""
    axes.set_title(f"Nodes searched against size ({growth.game}){cap}", fontsize=10)
    axes.grid(True, which="major", alpha=0.3)
    axes.legend()
    figure.tight_layout()
    try:
        figure.savefig(path)
    except OSError as error:
        raise BadOption(f"--plot {path!r}: cannot write it ({error.strerror or error})") from None
    finally:
        plt.close(figure)
