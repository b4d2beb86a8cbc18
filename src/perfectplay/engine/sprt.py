"""Match statistics: the generalized SPRT on game pairs, as fishtest computes it.

A game pair is one opening played twice with colours swapped; its score for the first player
(0, 1/4, 1/2, 3/4 or 1 per game) puts it in one of five bins, the pentanomial counts
``[LL, LD+DL, LW+DD+WL, DW+WD, WW]``. Pairs are independent where single games of one opening
are not, so the variance is estimated honestly.

The test is Michel Van den Bergh's generalized SPRT with the "expectation" statistic in
logistic Elo, the computation in fishtest's ``server/fishtest/stats/LLRcalc.py``
(``LLR_logistic``) and its notes "Proposition 1.1" of support_MLE_multinomial.pdf: for each
hypothesis ``Elo = e`` (expected score ``s = 1 / (1 + 10**(-e/400))``) the maximum-likelihood
distribution with mean ``s`` given the observed frequencies ``p_i`` at scores ``a_i`` is
``q_i = p_i / (1 + x (a_i - s))``, where ``x`` solves ``sum p_i (a_i - s) / (1 + x (a_i - s)) = 0``;
the log-likelihood ratio is ``N * sum p_i log(q1_i / q0_i)`` over N pairs. Empty bins get
1e-3 of a count (fishtest's regularisation) so every log is finite. Wald's bounds are
``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)``. The code here is written from
those formulas (it solves the equation by bisection; fishtest uses scipy's brentq).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from perfectplay.errors import BadOption

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
REGULARISATION = 1e-3
Z_95 = 1.959963984540054


def expected_score(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


def elo_of(score: float) -> float:
    """Logistic Elo difference of an expected score strictly between 0 and 1."""
    return -400 * math.log10(1 / score - 1)


def frequencies(pentanomial: list[int]) -> tuple[float, list[float]]:
    """(number of pairs, relative frequencies) with empty bins regularised."""
    counts = [count if count else REGULARISATION for count in pentanomial]
    total = sum(counts)
    return total, [count / total for count in counts]


def _solve_secular(shifted: list[float], weights: list[float]) -> float:
    """The x with sum w_i b_i / (1 + x b_i) = 0 on the interval where every 1 + x b_i > 0.
    The sum falls strictly as x rises, so bisection finds the one root."""
    low, high = -1 / max(shifted), -1 / min(shifted)
    span = high - low
    low, high = low + span * 1e-12, high - span * 1e-12
    for _ in range(200):
        middle = (low + high) / 2
        total = sum(w * b / (1 + middle * b) for b, w in zip(shifted, weights, strict=True))
        if total > 0:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def mle_with_mean(weights: list[float], mean: float) -> list[float]:
    """The maximum-likelihood pair-score distribution with expected score ``mean``."""
    shifted = [a - mean for a in PAIR_SCORES]
    x = _solve_secular(shifted, weights)
    return [w / (1 + x * b) for b, w in zip(shifted, weights, strict=True)]


def llr(pentanomial: list[int], elo0: float, elo1: float) -> float:
    """The generalized log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0)."""
    if sum(pentanomial) == 0:
        return 0.0
    pairs, weights = frequencies(pentanomial)
    q0 = mle_with_mean(weights, expected_score(elo0))
    q1 = mle_with_mean(weights, expected_score(elo1))
    return pairs * sum(w * (math.log(b) - math.log(a)) for w, a, b in zip(weights, q0, q1, strict=True))


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's (lower, upper) LLR bounds for error rates alpha and beta."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


@dataclass(frozen=True)
class SprtTest:
    """H0: Elo = elo0 against H1: Elo = elo1, with false-positive rate alpha and
    false-negative rate beta."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise BadOption(f"--elo0 {self.elo0} must be below --elo1 {self.elo1}")
        for name in ("alpha", "beta"):
            rate = getattr(self, name)
            if not 0 < rate < 0.5:
                raise BadOption(f"--{name} {rate} must lie strictly between 0 and 0.5")

    @property
    def bounds(self) -> tuple[float, float]:
        return bounds(self.alpha, self.beta)

    def verdict(self, pentanomial: list[int]) -> str | None:
        """'H1' (the first player is stronger by about elo1), 'H0', or None to play on."""
        value = llr(pentanomial, self.elo0, self.elo1)
        lower, upper = self.bounds
        if value >= upper:
            return "H1"
        if value <= lower:
            return "H0"
        return None


@dataclass(frozen=True)
class EloEstimate:
    elo: float
    low: float
    high: float


def elo_estimate(pentanomial: list[int]) -> EloEstimate | None:
    """Elo from the mean pair score, with a 95% interval from the pair variance; None
    before any pair. A score of 0 or 1 gives an infinite Elo."""
    pairs = sum(pentanomial)
    if pairs == 0:
        return None
    mean = sum(count * a for count, a in zip(pentanomial, PAIR_SCORES, strict=True)) / pairs
    variance = sum(count * (a - mean) ** 2 for count, a in zip(pentanomial, PAIR_SCORES, strict=True)) / pairs
    spread = Z_95 * math.sqrt(variance / pairs)
    return EloEstimate(_elo_or_infinite(mean), _elo_or_infinite(mean - spread),
                       _elo_or_infinite(mean + spread))


def _elo_or_infinite(score: float) -> float:
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return elo_of(score)
