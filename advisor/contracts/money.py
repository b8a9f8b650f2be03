"""Money at risk per priceable finding, from the contract's own figures.

Each amount comes from numbers the contract states (a fee, a term, a percentage, days) or
from the monthly fee the user gave; where one number is missing, a default of
``knowledge/catalog/contract_defaults.yaml`` fills it and is listed as an assumption.

    renewal_cost                 renewal months × monthly fee
    commitment_at_risk           the committed amount over the term (owed even if unused)
    early_termination_cost       penalty % (or 100 % of the rest) × monthly fee × months left
    sla_uncovered_cost           monthly fee − the credit cap: what a month down leaves unpaid
    billing_after_stop_cost      monthly fee per hour × 24 × the days billed after a stop (× the share of the price billed)
    rounding_cost_per_job        what one short job pays for the rounded-up remainder
    egress_cost                  the contract's price per GB × the data moved out once (a default)
    extras_cost                  extra fees over the term: one-time ones, monthly ones × the term, a share
                                 of the monthly fee × the term; per-server ones × the servers ordered
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from advisor.catalog.defaults import Defaults, load_defaults
from advisor.config import catalog_dir
from advisor.findings import Assumption

DEFAULTS_FILE = "contract_defaults.yaml"


@lru_cache(maxsize=1)
def defaults() -> Defaults:
    return load_defaults(catalog_dir() / DEFAULTS_FILE)


class _Used:
    def __init__(self) -> None:
        self.keys: list[str] = []

    def __call__(self, key: str) -> float:
        if key not in self.keys:
            self.keys.append(key)
        return float(defaults().value(key))

    def assumptions(self) -> list[Assumption]:
        out = []
        for key in self.keys:
            entry = defaults().get(key)
            out.append(Assumption(name=key, value=entry.value, unit=entry.unit, source=str(entry.source),
                                  source_key=f"source.{key}"))
        return out


def money_at_risk(facts: dict[str, Any]) -> tuple[dict[str, float], list[Assumption]]:
    """The amounts (new facts) and the defaults they used."""
    used = _Used()
    out: dict[str, float] = {}
    fee = _num(facts.get("monthly_fee"))
    term = _num(facts.get("term_months"))
    months = _num(facts.get("renewal_term_months"))
    if fee and months and facts.get("auto_renewal"):
        out["renewal_cost"] = fee * months
    amount = _num(facts.get("minimum_commitment_amount"))
    if amount and facts.get("minimum_commitment"):
        period = _num(facts.get("minimum_commitment_period_months"))
        out["commitment_at_risk"] = amount * (term / period) if period and term and term > period else amount
    if fee and term and facts.get("early_termination_penalty"):
        pct = _num(facts.get("early_termination_fee_pct"))
        share = pct / 100 if pct else 1.0 if facts.get("early_termination_pay_remaining") else None
        left = term - used("contract.early_exit_after_months")
        if share and left > 0:
            out["early_termination_cost"] = share * fee * left
    cap = _num(facts.get("sla_credit_cap_pct"))
    if fee and cap is not None and cap < 100:
        out["sla_uncovered_cost"] = fee * (1 - cap / 100)
    if fee and facts.get("billing_after_stop"):
        days = _num(facts.get("billing_after_stop_days")) or used("contract.stopped_days_unnoticed")
        share = (_num(facts.get("billing_after_stop_share_pct")) or 100) / 100  # a reservation fee of 30 % of the price
        out["billing_after_stop_cost"] = fee / used("contract.hours_per_month") * 24 * days * share
    if (per_gb := _num(facts.get("egress_price_per_gb"))) and facts.get("egress_charged"):
        out["egress_cost"] = per_gb * used("contract.egress_gb")
    once, monthly, pct = (_num(facts.get(k)) or 0.0 for k in ("extras_once", "extras_monthly", "extras_pct"))
    per_server = [_num(facts.get(k)) or 0.0 for k in ("extras_once_per_server", "extras_monthly_per_server")]
    if facts.get("extras_not_included") and (once or monthly or any(per_server) or (pct and fee)):
        servers = _num(facts.get("server_count")) or (used("contract.servers_ordered") if any(per_server) else 0)
        monthly += per_server[1] * servers + (fee or 0.0) * pct / 100
        months = term or (used("contract.extras_months") if monthly else 0)
        out["extras_cost"] = once + per_server[0] * servers + monthly * months
    unit = _num(facts.get("billing_rounding_hours")) or _num(facts.get("minimum_charge_hours"))
    rate = _num(facts.get("hourly_price")) or (fee / used("contract.hours_per_month") if fee and unit else None)
    if unit and rate:
        job = used("contract.short_job_hours")
        billed = math.ceil(job / unit - 1e-9) * unit
        if billed > job:
            out["rounding_cost_per_job"] = rate * (billed - job)
    return {k: round(v, 2) for k, v in out.items()}, used.assumptions()


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None
