"""Facts for the rule packs, derived from engine reports (names in rules/facts/estimate.yaml).

The rules decide; this module only measures. Alternatives the sizing and fleet rules need
(a cheaper card that fits and meets the deadline, a mixed fleet) come from the same
vectorized sweep that ``recommend_hardware`` uses.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np

from advisor.config import rules_dir
from advisor.engine import memory
from advisor.engine.billing import option, tiers
from advisor.engine.estimate import resolve_workload
from advisor.engine.fleet import mixed_fleet
from advisor.engine.models import EstimateReport, EstimateRequest
from advisor.engine.params import Params
from advisor.engine.sweep import sweep
from advisor.engine.workload import Workload
from advisor.rules.expr import derive
from advisor.rules.registry import load_registry
from advisor.units import HOURS_PER_DAY, HOURS_PER_MONTH


def clean_facts(facts: dict[str, Any]) -> dict[str, Any]:
    """Drop absent values and turn numpy scalars into Python numbers."""
    out: dict[str, Any] = {}
    for k, v in facts.items():
        kind = type(v)
        if kind is float:
            v = round(v, 6)
        elif v is None:
            continue
        elif kind not in _PLAIN:
            if isinstance(v, np.generic):
                v = v.item()
            if isinstance(v, float):
                v = round(v, 6)
        out[k] = v
    return out


_PLAIN = (int, bool, str)


def _workload(req: EstimateRequest, catalog: Any, w: Workload | None) -> tuple[Workload, Params]:
    """The request's workload (resolved once per report and shared) and a scratch Params."""
    p = Params(catalog.defaults)
    return (w, p) if w is not None else (resolve_workload(req, catalog, p)[0], p)


def cheaper_alternative(report: EstimateReport, req: EstimateRequest, catalog: Any,
                        w: Workload | None = None) -> dict[str, Any] | None:
    """The cheapest other card (on-demand) that fits and finishes within the deadline (or the
    default wall-time target), if it costs less than the estimate's compute."""
    w, p = _workload(req, catalog, w)
    limit = req.deadline_hours or float(p("estimate.target_wall_days")) * HOURS_PER_DAY
    # Alternatives at up to four times the GPU count: a cheaper card, not a different project.
    precisions = tuple(dict.fromkeys(("bf16", report.gpu.precision)))
    res = sweep(w, catalog, p, currency=report.cost.currency, deadline_hours=limit, modes=("on_demand",),
                max_gpus=max(8, 4 * report.gpu.count), precisions=precisions,
                optimizer=report.inputs.get("optimizer", "adamw"), flash=req.flash_attention,
                market=req.market, lang=req.lang, fallback=False)  # only bf16 rows (and the report's own) are read
    if res.evaluated == 0:
        return None
    ok = res.feasible & (res.gpu != report.gpu.name) & (res.precision == "bf16")
    if not ok.any():
        return None
    idx = np.flatnonzero(ok)
    best = idx[np.argmin(res.total[idx])]
    # Same cost basis on both sides: the sweep's GPU time at on-demand rates (storage and
    # egress, the same for both, in neither); the estimate's own total only if the sweep
    # has no row for the configuration asked for.
    mine = np.flatnonzero((res.gpu == report.gpu.name) & (res.count == report.gpu.count)
                          & (res.precision == report.gpu.precision))
    current = option(report.billing, "on_demand")
    current_total = float(res.total[mine[0]]) if mine.size else (current.total if current else report.cost.total)
    if res.total[best] >= current_total:
        return None
    return {
        "gpu": str(res.gpu[best]),
        "count": int(res.count[best]),
        "cost": float(res.total[best]),
        "wall_hours": float(res.wall_hours[best]),
        "gpu_hours": float(res.gpu_hours[best]),
        "saving": float(current_total - res.total[best]),
        "share": float((current_total - res.total[best]) / current_total),
    }


def routine_alternative(report: EstimateReport, req: EstimateRequest, catalog: Any, below_price: float, *,
                        high_cost: float, high_wall: float, routine: float, limit: float,
                        w: Workload | None = None) -> dict[str, Any] | None:
    """Where routine work can move: another card that fits and costs less per GPU-hour than
    ``below_price``, at the count whose mixed fleet is cheapest within ``limit`` hours (else the
    cheapest count)."""
    w, p = _workload(req, catalog, w)
    res = sweep(w, catalog, p, currency=report.cost.currency, modes=("on_demand",), max_gpus=max(8, 4 * report.gpu.count),
                precisions=("bf16",), optimizer=report.inputs.get("optimizer", "adamw"), flash=req.flash_attention)
    if res.evaluated == 0:
        return None
    ok = res.fits & (res.gpu != report.gpu.name) & (res.total < below_price * res.gpu_hours)
    if not ok.any():
        return None
    idx = np.flatnonzero(ok)
    mixed_cost = (1 - routine) * high_cost + routine * res.total[idx]
    in_time = (1 - routine) * high_wall + routine * res.wall_hours[idx] <= limit
    pool = idx[in_time] if in_time.any() else idx
    best = pool[np.argmin(mixed_cost[in_time] if in_time.any() else mixed_cost)]
    return {"gpu": str(res.gpu[best]), "count": int(res.count[best]), "cost": float(res.total[best]),
            "wall_hours": float(res.wall_hours[best]), "gpu_hours": float(res.gpu_hours[best])}


def billing_facts(options: list[Any], requested: str, gpu_count: int, gpu_hours: float, p: Params) -> dict[str, Any]:
    """Facts about billing modes, shared by the estimate and compare_billing reports."""
    by_mode = {o.mode: o for o in options}
    picked = by_mode.get(requested) or by_mode["on_demand"]
    cheapest = min((o for o in options if o.available), key=lambda o: o.total)
    on_demand = by_mode["on_demand"]
    disc, next_n, next_d = tiers(gpu_count, p)
    saving = max(picked.total - cheapest.total, 0.0)
    return {
        "billing_mode": picked.mode,
        "cheapest_billing_mode": cheapest.mode,
        "cheapest_billing_total": cheapest.total,
        "billing_saving": saving,
        "billing_saving_share": saving / picked.total if picked.total else 0.0,
        "monthly_breakeven_hours": HOURS_PER_MONTH * by_mode["monthly"].unit_price / max(on_demand.unit_price, 1e-12),
        "monthly_cheaper": by_mode["monthly"].total < on_demand.total,
        "yearly_cheaper": by_mode["yearly"].total < on_demand.total,
        "offpeak_saving": on_demand.total - by_mode["off_peak"].total if by_mode["off_peak"].available else 0.0,
        "spot_saving": on_demand.total - by_mode["spot"].total,
        "spot_used": picked.mode == "spot",
        "per_task_available": "per_task" in by_mode,
        "gpus_to_next_tier": (next_n - gpu_count) if next_n else None,
        "next_tier_discount": next_d,
        "next_tier_saving": (gpu_hours * on_demand.unit_price / (1 - disc) * (next_d - disc))
        if next_n and next_d is not None else None,
    }


def gpus_for_deadline(report: EstimateReport, req: EstimateRequest, catalog: Any, w: Workload | None = None) -> int:
    """Smallest count of the same card that fits and finishes within the deadline; 0 if none."""
    w, p = _workload(req, catalog, w)
    res = sweep(w, catalog, p, currency=report.cost.currency, gpus=[report.gpu.name], modes=("on_demand",),
                precisions=(report.gpu.precision,), deadline_hours=req.deadline_hours,
                optimizer=report.inputs.get("optimizer", "adamw"), flash=req.flash_attention)
    ok = res.feasible if res.evaluated else np.asarray([], dtype=bool)
    return int(res.count[ok].min()) if ok.any() else 0


def estimate_facts(report: EstimateReport, req: EstimateRequest, catalog: Any,
                   w: Workload | None = None) -> dict[str, Any]:
    """The flat fact dict of one estimate (domain ``estimate``). Fills ``report.alternatives``
    with the cheaper card, mixed fleet and card slice the facts are measured from. ``w``: the
    workload the estimate priced (resolved again when not given)."""
    p = Params(catalog.defaults)
    gpu = catalog.gpu(report.gpu.name)
    inp = report.inputs
    comp: dict[str, float] = {}
    for c in report.cost.components:
        comp[c.name] = comp.get(c.name, 0.0) + c.amount
    by_mode = {o.mode: o for o in report.billing}
    picked = by_mode.get(inp["billing"]) or by_mode["on_demand"]
    on_demand = by_mode["on_demand"]
    w, _ = _workload(req, catalog, w)
    alt = cheaper_alternative(report, req, catalog, w)
    compute_cost = comp.get("gpu_usage", 0.0)
    retention_days = req.storage_retention_days if req.storage_retention_days is not None else float(
        p("storage.retention_days"))
    retention_h = retention_days * HOURS_PER_DAY
    storage_retained = comp.get("storage", 0.0) * retention_h / (picked.wall_hours + retention_h) if retention_h else 0.0
    routine = float(p("fleet.routine_share"))
    mixed_saving = None
    report.alternatives.cheaper_gpu = alt
    # A mixed fleet puts routine work on a card that is cheaper per hour (REQUIREMENTS C3), each
    # card at its own speed; it counts as a saving only when it beats both single-card fleets.
    cheaper_per_hour = alt is not None and alt["cost"] / max(alt["gpu_hours"], 1e-12) < on_demand.unit_price
    limit = req.deadline_hours or float(p("estimate.target_wall_days")) * HOURS_PER_DAY
    routine_card = alt if cheaper_per_hour else routine_alternative(
        report, req, catalog, on_demand.unit_price, high_cost=on_demand.total, high_wall=on_demand.wall_hours,
        routine=routine, limit=limit, w=w)
    if routine_card is not None:
        fleet = mixed_fleet(high_cost=on_demand.total, high_wall=on_demand.wall_hours, cheap_cost=routine_card["cost"],
                            cheap_wall=routine_card["wall_hours"], routine_share=routine, deadline_hours=limit)
        mixed = fleet["options"]["mixed"]
        mixed_saving = fleet["saving"] if fleet["best"] == "mixed" else None
        report.alternatives.mixed_fleet = {
            "routine_share": routine, "routine_gpu": routine_card["gpu"], "routine_gpu_count": routine_card["count"],
            "core_gpu": report.gpu.name, "all_high_end_total": on_demand.total, "mixed_total": mixed["cost"],
            "mixed_wall_hours": mixed["wall_hours"], "all_cheap_total": routine_card["cost"],
            "options": fleet["options"], "best": fleet["best"], "deadline_hours": limit,
            "saving": fleet["saving"], "source": "fleet.routine_share",
        }
    if report.gpu.count == 1 and report.memory.fits:
        step = float(p("fleet.min_fraction"))
        share = report.memory.per_gpu_gb / report.gpu.memory_gb
        slice_ = min(1.0, max(step, math.ceil(share / step - 1e-9) * step))
        if slice_ < 1.0:
            report.alternatives.fractional = {
                "slice": slice_, "memory_share": share,
                "price_per_hour": on_demand.unit_price * slice_,
            }
    facts_file = load_registry(rules_dir(), "estimate")
    sources = {"report": report, "request": req, "inputs": inp, "card": gpu, "cheaper": alt,
               "mixed": report.alternatives.mixed_fleet}
    facts = {
        **facts_file.read(sources),
        "fits_with_zero3": _fits_variant(req, catalog, report.gpu.count, w, zero_stage=3),
        # A fine-tune's workload differs from its QLoRA variant only in the method (same stage,
        # so the same sequence and batch defaults); a pre-training run is resolved again.
        "fits_with_qlora": _fits_variant(req, catalog, report.gpu.count,
                                         replace(w, method="qlora") if w.method != "pretrain" else None,
                                         method="qlora")
        if inp["method"] != "qlora" else report.memory.fits,
        "compute_cost": compute_cost,
        "storage_cost": comp.get("storage", 0.0),
        "egress_cost": comp.get("egress", 0.0),
        "energy_cost": comp.get("energy", 0.0),
        "failure_cost": comp.get("failure_overhead", 0.0),
        "price_source": "user" if req.price_per_gpu_hour is not None else "list",
        **billing_facts(report.billing, inp["billing"], report.gpu.count, report.gpu_hours.expected, p),
        "cheaper_gpu_tier": catalog.gpu(alt["gpu"]).tier if alt else None,
        "fraction_of_gpu_needed": (report.memory.per_gpu_gb / report.gpu.memory_gb) if report.gpu.count == 1 else None,
        "has_checkpoint_plan": req.checkpoint_interval_hours is not None,
        "gpus_for_deadline": gpus_for_deadline(report, req, catalog, w) if req.deadline_hours else None,
        "storage_retention_days": retention_days,
        "storage_retained_cost": storage_retained,
        "egress_gb": next((c.quantity for c in report.cost.components if c.name == "egress"), 0.0),
        "idle_cost": comp.get("idle_wait", 0.0),
        "mixed_fleet_saving": mixed_saving,
        "mixed_fleet_saving_share": (mixed_saving / on_demand.total) if mixed_saving is not None else None,
        "mixed_fleet_gpu_tier": catalog.gpu(report.alternatives.mixed_fleet["routine_gpu"]).tier
        if report.alternatives.mixed_fleet else None,
    }
    return clean_facts(derive(facts_file, facts))


def _fits_variant(req: EstimateRequest, catalog: Any, n: int, w: Workload | None, **changes: Any) -> bool:
    """Would the job fit on the same cards with these settings changed? ``w``: the request's
    workload when ``changes`` leave it as it is (a layout setting), else None."""

    p = Params(catalog.defaults)
    if w is None:
        w, _ = resolve_workload(req.model_copy(update=changes), catalog, p)
    gpu = catalog.gpu(req.gpu or p("estimate.default_gpu"))
    precision = req.precision or ("bf16" if gpu.bf16_tflops else "fp16")
    _, _, fits = memory.plan_parallel(w, gpu.memory_gb, n, precision, req.optimizer or "adamw", p,
                                      zero=changes.get("zero_stage"), checkpointing=True, flash=req.flash_attention)
    return bool(fits)
