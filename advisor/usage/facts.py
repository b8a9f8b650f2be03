"""Facts for the ``utilization`` rule pack (declared in ``rules/facts/usage.yaml``).

A flat dict of plain values. A fact is present only when the inputs can support it: summary
mode has no idle stretches, a billing export alone has no utilization, so the rules that need
those facts cannot fire on a guess. Money facts are in the ``currency`` fact.
"""

from __future__ import annotations

import math
from typing import Any

from advisor.config import rules_dir
from advisor.rules.registry import load_registry
from advisor.usage.chargeback import InventoryNumbers
from advisor.usage.defaults import UsageDefaults
from advisor.usage.fleet import FleetNumbers
from advisor.usage.models import BillingSection, UsageSummary


def material(facts: dict[str, Any], d: UsageDefaults) -> dict[str, Any]:
    """Zero the saving facts below ``findings.min_saving`` (and a steady on-demand cost whose
    commitment saving would be below it), so that rules never advise over rounding noise."""
    floor = d.number("findings.min_saving")
    out = dict(facts)
    for name, spec in load_registry(rules_dir(), "usage").facts.items():  # the facts marked `saving: true`
        if (spec.model_extra or {}).get("saving") and name in out and out[name] < floor:
            out[name] = 0.0
    steady = out.get("steady_on_demand_cost")
    if steady is not None and steady * d.number("billing.committed_discount") < floor:
        out["steady_on_demand_cost"] = 0.0
    return out


def _thresholds(d: UsageDefaults) -> dict[str, Any]:
    """The threshold facts: each registry entry with a ``setting`` carries that default's value."""
    facts = load_registry(rules_dir(), "usage").facts
    return {name: d.number(str(extra["setting"])) for name, spec in facts.items() if "setting" in (extra := spec.model_extra or {})}


def _utilization(avg: float, d: UsageDefaults) -> dict[str, Any]:
    target, low = d.number("utilization.target"), d.number("utilization.low_use_line")
    return {
        "avg_utilization": avg,
        "utilization_gap": max(0.0, target - avg),
        "below_target": avg < target,
        "below_low_use_line": avg < low,
    }


def summary_facts(n: UsageSummary, *, billing_mode: str, d: UsageDefaults) -> dict[str, Any]:
    """Facts of summary mode: utilization and its cost, nothing about stretches or files."""
    period_hours = float(n.period_hours or 0.0)
    return material({
        "mode": "summary",
        "currency": n.currency,
        "billing_mode": billing_mode,
        "gpu_count": n.gpu_count,
        "period_hours": period_hours,
        "period_days": period_hours / 24,
        "gpu_hours": n.gpu_hours,
        "busy_gpu_hours": n.busy_gpu_hours,
        "total_gpu_cost": n.total_cost,
        "waste_cost": n.waste_cost,
        "target_saving": n.target_saving,
        "gpus_needed_at_target": n.gpus_needed_at_target,
        **_utilization(float(n.avg_utilization or 0.0), d),
        **_thresholds(d),
    }, d)


def file_facts(
    *,
    currency: str,
    billing_mode: str,
    d: UsageDefaults,
    fleet: FleetNumbers | None,
    billing: BillingSection | None,
    billing_rate: float | None,
    inventory: InventoryNumbers | None,
) -> dict[str, Any]:
    """Facts from analysed files. ``billing_rate`` converts billing money into ``currency``
    (None: the billing export is in another currency and no rate is known, so its money facts
    are left out)."""
    facts: dict[str, Any] = {"mode": "files", "currency": currency, "billing_mode": billing_mode, **_thresholds(d)}
    read = load_registry(rules_dir(), "usage").read({"fleet": fleet, "inventory": inventory})
    facts.update({k: v for k, v in read.items() if v is not None})
    if fleet is not None:
        facts.update(
            period_days=fleet.period_hours / 24,
            gpus_needed_at_target=gpus_needed(fleet, d),
            **_utilization(fleet.busy_gpu_hours / fleet.gpu_hours if fleet.gpu_hours else 0.0, d),
        )
        outliers = fleet.time_outliers
        if outliers.rows:
            facts.update(
                timestamp_outlier_rows=outliers.rows,
                timestamp_outlier_hours=outliers.excluded_hours,
                timestamp_outlier_reason=", ".join(f"{k.replace('_', ' ')}: {v}" for k, v in outliers.reasons.items()),
                timestamp_outlier_rows_list="; ".join(outliers.examples),
            )
    steady_cost = fleet.steady_cost if fleet is not None else 0.0
    if billing is not None and billing_rate is not None:
        facts.update(
            billed_cost=(billing.total_billed_cost or 0.0) * billing_rate,
            unused_commitment_cost=billing.unused_commitment_cost * billing_rate,
            storage_after_compute_cost=billing.storage_after_compute_cost * billing_rate,
            billing_steady_resources=billing.steady_on_demand_resources,
        )
        steady_cost += billing.steady_on_demand_cost * billing_rate
    if fleet is not None or (billing is not None and billing_rate is not None):
        facts["steady_on_demand_cost"] = steady_cost if billing_mode == "on_demand" else 0.0
    return material(facts, d)


def gpus_needed(fleet: FleetNumbers, d: UsageDefaults) -> int:
    """GPUs that would carry the fleet's average concurrent work at the target utilization."""
    if not fleet.period_hours:
        return 0
    concurrent = fleet.busy_gpu_hours / fleet.period_hours
    return min(fleet.gpu_count, math.ceil(round(concurrent / d.number("utilization.target"), 9)))
