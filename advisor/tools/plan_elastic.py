"""Elastic plans for ``plan_project`` (REQUIREMENTS B3, D5, E5): stages defined by time, terms
settled when the work ends early, carry-over into later stages, and the emergency premium.

``capacity_stage`` prices ``gpu_count`` cards for ``months`` under the stage's billing mode
(``tiered`` = on-demand with the volume tiers, which every mode gets when
``billing.apply_volume_tiers`` is on; off, ``tiered`` is on-demand). ``apply`` then walks the
stages in order: an emergency stage pays on-demand plus ``emergency.premium``; a stage with
``term_months`` pays the term (monthly below 12 months, yearly from 12) and settles the part
after ``finished_after_months`` (default: when its work is done) under the provider's terms;
carried-over value pays for later stages on the same card.
"""

from __future__ import annotations

from typing import Any

from advisor.engine import billing as billing_mod
from advisor.engine import settlement as st
from advisor.engine.decisions_data import decision_params
from advisor.engine.params import Params
from advisor.engine.pricing import quote
from advisor.errors import DataError, InputError
from advisor.findings import Assumption
from advisor.tools.facts import clean_facts
from advisor.units import HOURS_PER_MONTH

ELASTIC_PACKS: tuple[str, ...] = ("elastic",)


def capacity_stage(spec: Any, req: Any, catalog: Any) -> tuple[dict[str, Any], list[Assumption]]:
    """The fields of a stage given in months (cards held for a time), and its assumptions."""
    extra = dict(spec.model_extra or {})
    p = Params(catalog.defaults)
    gpu = catalog.gpu(extra.get("gpu") or req.gpu or p("estimate.default_gpu"))
    n = extra.get("gpu_count")
    if not n or int(n) < 1:
        raise InputError(f"stages.{spec.stage}.gpu_count", n, "the cards of a stage given in months")
    n = int(n)
    mode = extra.get("billing") or "on_demand"
    mode = "on_demand" if mode == "tiered" else mode
    q = quote(catalog, gpu.id, req.currency, p, provider=extra.get("provider"),
              price_per_gpu_hour=extra.get("price_per_gpu_hour"))
    return held(spec.stage, gpu.id, n, float(spec.months) * HOURS_PER_MONTH, q, p, mode,
                "on_demand, tiered, daily, monthly, yearly or spot"), p.assumptions()


def held(stage: str, gpu: str, n: int, wall: float, q: Any, p: Params, mode: str | None, modes: str) -> dict[str, Any]:
    """The fields of a stage that holds ``n`` cards for ``wall`` hours at quote ``q``, billed in
    ``mode`` (None: the mode that suits round-the-clock use; ``modes``: the accepted ones, for the error)."""
    options = billing_mod.compare(wall, n, q, billing_mod.Context(urgent=True, offpeak_share=0.0), p)
    picked = billing_mod.option(options, mode) if mode else next(o for o in options if o.recommended)
    if picked is None:
        raise InputError(f"stages.{stage}.billing", mode, modes)
    return dict(stage=stage, gpu=gpu, gpu_count=n, gpu_hours=wall * n, wall_hours=wall, billing=picked.mode,
                recommended_billing=next((o.mode for o in options if o.recommended), None), cost=picked.total,
                low=picked.total, high=picked.total, share=0.0, compute_cost=picked.total, on_demand_cost=options[0].total,
                term_unit_prices={o.mode: o.unit_price for o in options if o.mode in ("monthly", "yearly")})


def _terms(p: Params, catalog: Any, provider: str | None) -> st.Terms:
    key = "settlement.default"
    if provider:
        pid = catalog.provider_id(provider)
        try:
            p(f"settlement.{pid}")
            key = f"settlement.{pid}"
        except DataError:  # no published terms for this provider
            key = "settlement.default"
    return st.Terms.from_value(p(key), key)


def apply(specs: list[Any], costs: list[Any], catalog: Any, lang: str) -> tuple[dict[str, Any], list[Assumption]]:
    """Emergency premiums, term settlements and carry-over, in stage order (costs change in place)."""
    p = decision_params(catalog)
    facts: dict[str, Any] = {}
    premium_total = planned_total = 0.0
    refund = lost = unused = carried_used = penalty = 0.0
    used = [s.finished_after_months if s.finished_after_months is not None else c.wall_hours / HOURS_PER_MONTH
            for s, c in zip(specs, costs, strict=True)]  # months each stage's work runs
    starts = [sum(used[:i], 0.0) for i in range(len(used))]  # stages run one after another, from the project start
    for spec, sc in zip(specs, costs, strict=True):  # emergencies first: carry-over pays the final prices
        lead = spec.lead_time_days
        urgent = spec.emergency or (lead is not None and lead < float(p("emergency.lead_time_days")))
        if urgent and sc.on_demand_cost is not None and sc.compute_cost is not None:
            paid, premium = st.emergency_cost(sc.on_demand_cost, float(p("emergency.premium")))
            sc.planned_cost = sc.cost
            sc.cost = sc.cost - sc.compute_cost + paid
            sc.low, sc.high = sc.low + (sc.cost - sc.planned_cost), sc.high + (sc.cost - sc.planned_cost)
            sc.emergency_premium = premium
            sc.billing = "on_demand"
            premium_total += sc.cost - sc.planned_cost
            planned_total += sc.planned_cost
    for i, (spec, sc) in enumerate(zip(specs, costs, strict=True)):
        if spec.term_months:
            mode = "yearly" if spec.term_months >= 12 else "monthly"
            unit = sc.term_unit_prices.get(mode)
            if unit is None:
                raise InputError(f"stages.{spec.stage}.term_months", spec.term_months, "a stage with term prices")
            terms = _terms(p, catalog, spec.settlement_provider or (spec.model_extra or {}).get("provider"))
            s = st.settle(monthly_value=unit * HOURS_PER_MONTH * sc.gpu_count, term_months=float(spec.term_months),
                          used_months=used[i], terms=terms)
            base = sc.cost - (sc.compute_cost or 0.0)
            sc.cost = base + s.net
            sc.low = sc.high = sc.cost
            sc.billing = mode
            sc.settlement = {"term_months": s.term_months, "used_months": s.used_months,
                             "unused_months": s.unused_months, "paid": s.paid, "unused_value": s.unused_value,
                             "refund": s.refund, "penalty": s.penalty, "carry_over": s.carry_over,
                             "carried_used": 0.0, "lost": s.lost, "terms": terms.source}
            refund += s.refund
            unused += s.unused_value
            penalty += s.penalty
            if s.carry_over > 0:
                term_end = starts[i] + s.term_months  # carried value is usable until the term ends
                later = [c for j, c in enumerate(costs) if j > i and c.gpu == sc.gpu and starts[j] < term_end]
                used_carry, new = st.apply_carry_over(s.carry_over, [c.cost for c in later])
                for c, v in zip(later, new, strict=True):
                    c.cost, c.low, c.high = v, max(c.low - (c.cost - v), 0.0), max(c.high - (c.cost - v), 0.0)
                sc.settlement["carried_used"] = used_carry
                sc.settlement["lost"] = s.lost + s.carry_over - used_carry
                carried_used += used_carry
                lost += s.carry_over - used_carry
            lost += s.lost
    switches = sum(1 for a, b in zip(costs, costs[1:], strict=False) if (a.billing, a.gpu_count) != (b.billing, b.gpu_count))
    if premium_total:
        facts.update(emergency_premium=premium_total, emergency_planned_cost=planned_total)
    if unused:
        facts.update(settlement_unused_value=unused, settlement_refund=refund, settlement_lost=lost,
                     settlement_carried_used=carried_used, settlement_penalty=penalty)
    if facts:
        facts["stage_switches"] = switches
    return clean_facts(facts), p.assumptions() if facts else []
