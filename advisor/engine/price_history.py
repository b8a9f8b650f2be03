"""Price movement and price locks (REQUIREMENTS D4).

History: the catalog's dated offers (list rows and the user's sheet, when dated) of one card in
one currency, grouped by month; each month's figure is the median per-GPU on-demand-equivalent
price. Moves are the relative changes between consecutive dated months; a move larger than
``price.alert_threshold`` raises an alert (rule ``prices.price_moved``).

Lock: fixing price ``lock`` for ``months`` against a floating price that starts at ``now`` and
drifts by ``drift`` a year with yearly volatility ``sigma`` (lognormal). The expected saving is
sum over months of (E[P_t] - lock); the protection is sum of E[max(P_t - lock, 0)], what the lock
pays out in the months prices rise above it.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import numpy as np

from advisor.units import HOURS_PER_MONTH


@dataclass(frozen=True)
class Point:
    month: str  # YYYY-MM
    median: float
    low: float
    high: float
    offers: int
    providers: list[str]


def history(offers: list[Any], gpu: str, currency: str) -> list[Point]:
    """Monthly medians of the dated offers of ``gpu`` priced in ``currency`` (no conversion)."""
    by_month: dict[str, list[tuple[float, str]]] = defaultdict(list)
    for o in offers:
        day = getattr(o, "as_of_date", None)
        price = o.per_gpu_hour
        if o.gpu != gpu or o.currency != currency or day is None or not price:
            continue
        by_month[f"{day.year:04d}-{day.month:02d}"].append((float(price), o.provider))
    out = []
    for month in sorted(by_month):
        rows = by_month[month]
        prices = [p for p, _ in rows]
        out.append(Point(month=month, median=float(statistics.median(prices)), low=min(prices), high=max(prices),
                         offers=len(rows), providers=sorted({name for _, name in rows})))
    return out


def moves(points: list[Point]) -> list[dict[str, Any]]:
    """Relative change of the monthly median between consecutive dated months."""
    return [{"from": a.month, "to": b.month, "change": b.median / a.median - 1}
            for a, b in zip(points, points[1:], strict=False)]


def _norm_cdf(x: np.ndarray) -> np.ndarray:
    return 0.5 * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))


@dataclass(frozen=True)
class LockValue:
    lock_price: float
    floating_now: float
    months: int
    drift_per_year: float
    volatility: float
    expected_floating_cost: float
    locked_cost: float
    expected_saving: float  # positive: the lock is expected to save money
    protection: float  # expected payout in the months prices rise above the lock
    probability_above_at_end: float


def lock_value(*, lock: float, now: float, months: int, gpu_count: int, drift: float, sigma: float) -> LockValue:
    t = np.arange(1, months + 1, dtype=float) / 12.0
    mu = math.log1p(drift)
    expected = now * np.exp(mu * t)
    s = sigma * np.sqrt(t)
    d1 = (np.log(now / lock) + (mu + sigma**2 / 2) * t) / s
    call = expected * _norm_cdf(d1) - lock * _norm_cdf(d1 - s)
    hours = HOURS_PER_MONTH * gpu_count
    floating = float(expected.sum() * hours)
    locked = lock * months * hours
    return LockValue(lock_price=lock, floating_now=now, months=months, drift_per_year=drift, volatility=sigma,
                     expected_floating_cost=floating, locked_cost=locked, expected_saving=floating - locked,
                     protection=float(call.sum() * hours), probability_above_at_end=float(_norm_cdf(d1[-1:] - s[-1:])[0]))
