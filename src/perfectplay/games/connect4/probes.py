"""Where the null-window probes of both Connect Four searches go, the compiled kernel's and
the pure-Python mirror's: one definition, so that the two explore the same tree.

When the window spans zero, a probe goes TOWARD_NUM / TOWARD_DEN of the way from zero to the
bound on the midpoint's side (Pons probes halfway, 1 / 2). Probes near a bound are cheap (they
ask whether a side wins or loses within few moves), and a probe further out settles large
scores in fewer nodes: half the nodes on Test_L1_R1, about the same on Test_L2_R2 and
Test_L1_R2, but 7% more on Test_L1_R3's small scores (docs/benchmarks-log.md, fifth round).

Plain Python without numba, so the pure-Python path imports it when numba is absent; the
kernel compiles ``toward`` inline.
"""

from __future__ import annotations

TOWARD_NUM, TOWARD_DEN = 3, 5


def toward(bound: int) -> int:
    """TOWARD_NUM / TOWARD_DEN of ``bound``, rounded toward zero."""
    if bound < 0:
        return -((-bound * TOWARD_NUM) // TOWARD_DEN)
    return (bound * TOWARD_NUM) // TOWARD_DEN
