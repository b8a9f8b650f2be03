"""Elastic plans (REQUIREMENTS B3, D5, E5): settling a prepaid term the work did not use, and the
premium of capacity bought at short notice.

A term of ``term_months`` is paid up front (or committed). When the work ends after
``used_months``, the unused part is settled under the provider's terms
(``knowledge/decisions/terms.yaml`` ``settlement.<provider>``): ``refund_share`` of it comes
back, ``penalty_share`` of it is charged on top, and with ``carryover`` it stays usable by a
later stage on the same card until the term ends. Whatever is neither refunded nor carried is
lost.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Terms:
    refund_share: float
    carryover: bool
    penalty_share: float
    resale_fee_share: float
    source: str

    @classmethod
    def from_value(cls, value: dict[str, Any], source: str) -> Terms:
        return cls(refund_share=float(value.get("refund_share", 0.0)), carryover=bool(value.get("carryover", False)),
                   penalty_share=float(value.get("penalty_share", 0.0)),
                   resale_fee_share=float(value.get("resale_fee_share", 0.0)), source=source)


@dataclass(frozen=True)
class Settlement:
    term_months: float
    used_months: float
    unused_months: float
    paid: float  # the whole term
    unused_value: float
    refund: float
    penalty: float
    carry_over: float  # value that stays usable by later stages on the same card
    lost: float  # unused value neither refunded nor carried (before any later use)

    @property
    def net(self) -> float:
        """What the stage costs after settlement (before a later stage uses the carry-over)."""
        return self.paid - self.refund + self.penalty


def settle(*, monthly_value: float, term_months: float, used_months: float, terms: Terms) -> Settlement:
    """Settle a term worth ``monthly_value`` a month (all its cards) used for ``used_months``."""
    used = min(max(used_months, 0.0), term_months)
    unused_months = term_months - used
    unused = monthly_value * unused_months
    refund = unused * terms.refund_share
    penalty = unused * terms.penalty_share
    carry = (unused - refund) if terms.carryover else 0.0
    return Settlement(term_months=term_months, used_months=used, unused_months=unused_months,
                      paid=monthly_value * term_months, unused_value=unused, refund=refund, penalty=penalty,
                      carry_over=carry, lost=unused - refund - carry)


def apply_carry_over(carry: float, later_costs: list[float]) -> tuple[float, list[float]]:
    """Spend ``carry`` on the later stages in order; returns (carry used, the stages' new costs)."""
    left = carry
    out: list[float] = []
    for cost in later_costs:
        use = min(left, cost)
        out.append(cost - use)
        left -= use
    return carry - left, out


def emergency_cost(on_demand_total: float, premium: float) -> tuple[float, float]:
    """(price paid with the short-notice premium, the premium itself)."""
    return on_demand_total * (1 + premium), on_demand_total * premium
