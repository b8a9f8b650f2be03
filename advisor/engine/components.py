"""Cost components, Infracost style: a stable key (``gpu_usage``, ``storage`` …) with the variable
parts in ``detail``, a quantity, a unit and a unit price; advisor.present words them. Compute is priced under the chosen billing mode; storage,
egress, energy, idle waiting and extras are the hidden costs of REQUIREMENTS A3.
"""

from __future__ import annotations

from typing import Any

from advisor.engine.billing import BillingOption
from advisor.engine.memory import trainable_params
from advisor.engine.models import Cost, EstimateRequest
from advisor.engine.ownership import owned_gpu_hour
from advisor.engine.params import Params
from advisor.engine.pricing import Quote
from advisor.engine.workload import Workload
from advisor.units import HOURS_PER_DAY, HOURS_PER_MONTH


def _by_currency(value: Any, currency: str) -> float:
    return float(value[currency] if isinstance(value, dict) else value)


def build(
    *,
    req: EstimateRequest,
    w: Workload,
    gpu: Any,
    n: int,
    q: Quote,
    picked: BillingOption,
    compute_hours: dict[str, float],
    total_hours: dict[str, float],
    fail: Any,
    ckpt_gb: float,
    p: Params,
) -> Cost:
    cur = q.currency
    unit = picked.unit_price
    mode = picked.mode
    comps: list[dict[str, Any]] = []  # validated into Component rows by Cost
    if req.hosting != "cloud":  # your own cards: their cost of ownership, not rent (no double charge)

        owned = owned_gpu_hour(gpu, cur, req.hosting, p)
        if owned is not None:
            unit, why = owned
            mode = "owned"
            p.note("owned.gpu_hour", round(unit, 4), why, unit=f"{cur} per GPU-hour")

    def add(key: str, detail: dict[str, Any], qty: float, unit_name: str, price: float) -> None:
        comps.append(dict(name=key, detail=detail, quantity=float(qty), unit=unit_name, unit_price=float(price),
                          amount=float(qty * price)))

    card = {"gpu": gpu.id, "n": n}

    compute = compute_hours["expected"]
    overhead = total_hours["expected"] - compute
    add("gpu_usage", {"mode": mode, **card}, compute, "GPU-hour", unit)
    add("failure_overhead", {"interruptions": float(fail.expected_interruptions), "interval_hours": float(fail.interval_hours)},
        overhead, "GPU-hour", unit)
    extra = picked.billed_gpu_hours - total_hours["expected"]
    if extra > 1e-6:
        add(*_extra(mode, q.increment_s, req.parallel_experiments > 1, card), extra, "GPU-hour", unit)

    # Storage: the dataset and the kept checkpoints, for the run plus the retention period.
    dataset_gb = w.tokens_b * 1e9 * float(p("workload.bytes_per_token_dataset")) / 1e9
    if req.epochs:
        dataset_gb /= req.epochs
    kept = float(p("checkpoint.kept"))
    retention = req.storage_retention_days if req.storage_retention_days is not None else float(p("storage.retention_days"))
    months = (picked.wall_hours + retention * HOURS_PER_DAY) / HOURS_PER_MONTH
    stored_gb = dataset_gb + kept * ckpt_gb
    add("storage", {"kept": kept, "days": months * HOURS_PER_MONTH / HOURS_PER_DAY},
        stored_gb * months, "GB-month",
        q.storage_per_gb_month if q.storage_per_gb_month is not None else _by_currency(p("storage.price_per_gb_month"), cur))

    # Egress: by default the final weights (or adapters) leave the cloud once.
    if req.egress_gb is not None:
        egress = req.egress_gb
    else:
        egress = trainable_params(w, p) * float(p("memory.weight_bytes.bf16")) / 1e9
    add("egress", {}, egress, "GB",
        q.egress_per_gb if q.egress_per_gb is not None else _by_currency(p("network.egress_per_gb"), cur))

    # Energy: in the rent for cloud GPUs; billed for colocated or owned hardware.
    kwh = n * float(gpu.tdp_w) * float(p("energy.utilization_power_share")) * picked.wall_hours * float(p("energy.pue")) / 1000
    price_kwh = 0.0 if req.hosting == "cloud" else _by_currency(p("energy.price_per_kwh"), cur)
    add("energy", {"tdp_w": float(gpu.tdp_w), "n": n, "pue": float(p("energy.pue")), "included": req.hosting == "cloud"},
        kwh, "kWh", price_kwh)

    if req.interconnect_surcharge_per_gpu_hour and n > 1:
        add("interconnect", card, compute + overhead, "GPU-hour", req.interconnect_surcharge_per_gpu_hour)
    if req.free_gpu_hours:
        free = min(req.free_gpu_hours, compute + overhead)
        add("free_hours", {"hours": float(req.free_gpu_hours)}, free, "GPU-hour", -unit)
    if req.idle_wait_hours:
        add("idle_wait", card, req.idle_wait_hours * n, "GPU-hour", q.on_demand)
    if req.support_cost:
        add("support", {}, 1, "total", req.support_cost)

    total = sum(c["amount"] for c in comps)
    gpu_part = sum(c["amount"] for c in comps if c["unit"] == "GPU-hour" and c["name"] not in ("idle_wait", "free_hours"))
    ratio_low = total_hours["low"] / total_hours["expected"]
    ratio_high = total_hours["high"] / total_hours["expected"]
    return Cost(
        currency=cur,
        total=float(total),
        low=float(total - gpu_part + gpu_part * ratio_low),
        high=float(total - gpu_part + gpu_part * ratio_high),
        components=comps,
    )


def _extra(mode: str, increment_s: float, experiments: bool, card: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Key and detail of GPU time billed beyond the work itself."""
    if mode == "spot":
        return "spot_rework", card
    term = {"daily": "days", "monthly": "months", "yearly": "years"}.get(mode)
    if term:
        return "unused_term", {"term": term, "experiments": experiments, **card}
    if experiments:
        return "experiment_idle", {"increment_s": increment_s, **card}
    return "rounding", {"increment_s": increment_s, **card}
