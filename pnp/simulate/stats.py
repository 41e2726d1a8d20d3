"""Means, rates and paired differences with 95% confidence intervals."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence

Z95 = 1.959963984540054  # two-sided 95% normal quantile


@dataclass(frozen=True)
class Estimate:
    """A mean (or rate) and its 95% confidence interval over `n` values."""

    mean: float
    low: float
    high: float
    n: int

    @property
    def half(self) -> float:
        return (self.high - self.low) / 2

    def excludes_zero(self) -> bool:
        return self.low > 0 or self.high < 0


def mean_ci(values: Sequence[float]) -> Estimate:
    """Mean with a normal-approximation interval (fine for the hundreds of games a run has)."""
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    m = math.fsum(values) / n
    if n == 1:
        return Estimate(m, m, m, 1)
    var = math.fsum((v - m) ** 2 for v in values) / (n - 1)
    h = Z95 * math.sqrt(var / n)
    return Estimate(m, m - h, m + h, n)


def rate_ci(outcomes: Iterable[float | bool]) -> Estimate:
    """A proportion with the Wilson score interval (sensible near 0 and 1); an outcome
    counts as a hit when it is true or non-zero."""
    hits = list(outcomes)
    n = len(hits)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    p = sum(1 for h in hits if h) / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    h = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # no hit (every hit) puts the interval's end exactly at 0 (1); rounding would leave 1e-19
    low = 0.0 if p == 0 else max(0.0, centre - h)
    high = 1.0 if p == 1 else min(1.0, centre + h)
    return Estimate(p, low, high, n)


def paired_diff(base: dict[int, float], ref: dict[int, float]) -> Estimate:
    """Mean of base - ref over the keys (seeds) both have: both sides played the same
    seeds, so pairing removes the luck of the deal from the difference."""
    keys = sorted(base.keys() & ref.keys())
    return mean_ci([base[k] - ref[k] for k in keys])


def bin_edges(values: Sequence[float], bins: int = 20) -> list[float]:
    """Integer-friendly bins of a histogram of `values`: their left edges plus the last right edge."""
    if not values:
        return [0.0, 1.0]
    lo, hi = min(values), max(values)
    width = max(1.0, math.ceil((hi - lo + 1) / bins))
    return [lo + i * width for i in range(int((hi - lo) // width) + 2)]
