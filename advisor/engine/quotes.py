"""A quoted price, in whatever unit it came, as a per-GPU-hour figure (issue #12, quotes).

Units: ``gpu_hour`` (per card-hour), ``gpu_month`` (per card-month of 730 h), ``node_hour`` and
``node_month`` (per node-hour / node-month, ``gpu_count`` cards in the node), ``gpu_year`` (per
card-year of 8,760 h). A per-card price is per card whatever the number of cards quoted
(``gpu_count`` then counts the cards, for monthly totals); only a node price is shared by its cards.
A period price, or any price with a commitment term, is paid for every hour of the period,
so the price per *used* GPU-hour is the calendar price divided by the utilisation. Storage or
bandwidth included in the quote are valued at list prices and taken out, so the compute part
compares with compute-only market offers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from advisor.units import HOURS_PER_MONTH, HOURS_PER_YEAR

Unit = Literal["gpu_hour", "gpu_month", "node_hour", "node_month", "gpu_year"]
UNITS: tuple[str, ...] = get_args(Unit)
HOURS: dict[str, float] = {"gpu_hour": 1.0, "gpu_month": HOURS_PER_MONTH, "node_hour": 1.0, "node_month": HOURS_PER_MONTH,
                           "gpu_year": HOURS_PER_YEAR}
NODE_UNITS = ("node_hour", "node_month")


def cards_sharing(unit: str, gpu_count: int) -> int:
    """How many cards one quoted price pays for: the node's cards for a node unit, else one."""
    return gpu_count if unit in NODE_UNITS else 1
Verdict = Literal["below", "at", "above"]


@dataclass(frozen=True)
class Normalised:
    per_gpu_hour: float  # per calendar GPU-hour, extras included
    compute_per_gpu_hour: float  # extras taken out
    per_used_gpu_hour: float  # compute part at the stated utilisation
    committed: bool  # paid for every hour of a period
    market_mode: str  # on_demand | monthly | yearly: the market it compares with


def normalise(price: float, unit: str, gpu_count: int, *, utilization: float = 1.0, term_months: float | None = None,
              extras_per_month: float = 0.0) -> Normalised:
    hours = HOURS[unit]
    shared = cards_sharing(unit, gpu_count)
    per_hour = price / shared / hours
    extras = extras_per_month / shared / HOURS_PER_MONTH
    compute = max(per_hour - extras, 0.0)
    committed = unit not in ("gpu_hour", "node_hour") or bool(term_months)
    used = compute / utilization if committed else compute
    months = term_months if term_months else (12.0 if unit == "gpu_year" else (1.0 if committed else 0.0))
    mode = "yearly" if months >= 12 else ("monthly" if months >= 1 else "on_demand")
    return Normalised(per_gpu_hour=per_hour, compute_per_gpu_hour=compute, per_used_gpu_hour=used,
                      committed=committed, market_mode=mode)


def verdict(price: float, median: float, band: float) -> Verdict:
    """``below`` / ``at`` / ``above`` the market median, with ``band`` either side counted as at."""
    if price < median * (1 - band):
        return "below"
    if price > median * (1 + band):
        return "above"
    return "at"


def percentile(price: float, offers: list[float]) -> float:
    """Share of offers cheaper than ``price`` (ties count half)."""
    if not offers:
        return 0.5
    below = sum(1.0 for o in offers if o < price) + 0.5 * sum(1.0 for o in offers if o == price)
    return below / len(offers)
