"""Cost components, Infracost style: a fixed noun with the variable parts in brackets, a
quantity, a unit and a unit price. Compute is priced under the chosen billing mode; storage,
egress, energy, idle waiting and extras are the hidden costs of REQUIREMENTS A3.
"""

from __future__ import annotations

from typing import Any

from advisor.engine.billing import MODE_ZH, BillingOption
from advisor.engine.memory import trainable_params
from advisor.engine.models import Component, Cost, EstimateRequest
from advisor.engine.params import Params
from advisor.engine.pricing import Quote
from advisor.engine.workload import Workload
from advisor.money import format_money
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
    comps: list[Component] = []

    def add(name: str, name_zh: str, qty: float, unit_name: str, price: float) -> None:
        comps.append(Component(name=name, name_zh=name_zh, quantity=float(qty), unit=unit_name,
                               unit_price=float(price), amount=float(qty * price)))

    compute = compute_hours["expected"]
    overhead = total_hours["expected"] - compute
    add(f"GPU usage ({mode.replace('_', '-')}, {gpu.id} ×{n})", f"GPU 使用（{MODE_ZH[mode]}，{gpu.id} ×{n}）",
        compute, "GPU-hour", unit)
    add(f"Failure overhead ({fail.expected_interruptions:.2g} interruptions expected, checkpoint every "
        f"{fail.interval_hours:.1f} h)",
        f"故障开销（预计中断 {fail.expected_interruptions:.2g} 次，每 {fail.interval_hours:.1f} 小时存一次检查点）",
        overhead, "GPU-hour", unit)
    extra = picked.billed_gpu_hours - total_hours["expected"]
    if extra > 1e-6:
        (en, en_detail), (zh, zh_detail) = _extra_label(mode, q.increment_s, req.parallel_experiments > 1)
        add(f"{en} ({en_detail}{gpu.id} ×{n})", f"{zh}（{zh_detail}{gpu.id} ×{n}）", extra, "GPU-hour", unit)

    # Storage: the dataset and the kept checkpoints, for the run plus the retention period.
    dataset_gb = w.tokens_b * 1e9 * float(p("workload.bytes_per_token_dataset")) / 1e9
    if req.epochs:
        dataset_gb /= req.epochs
    kept = float(p("checkpoint.kept"))
    retention = req.storage_retention_days if req.storage_retention_days is not None else float(p("storage.retention_days"))
    months = (picked.wall_hours + retention * HOURS_PER_DAY) / HOURS_PER_MONTH
    stored_gb = dataset_gb + kept * ckpt_gb
    add(f"Storage (data and {kept:g} checkpoints, {months * HOURS_PER_MONTH / HOURS_PER_DAY:.0f} days)",
        f"存储（数据与 {kept:g} 个检查点，{months * HOURS_PER_MONTH / HOURS_PER_DAY:.0f} 天）",
        stored_gb * months, "GB-month",
        q.storage_per_gb_month if q.storage_per_gb_month is not None else _by_currency(p("storage.price_per_gb_month"), cur))

    # Egress: by default the final weights (or adapters) leave the cloud once.
    if req.egress_gb is not None:
        egress = req.egress_gb
    else:
        weights = trainable_params(w, p) if w.is_adapter else w.params_b * 1e9
        egress = weights * float(p("memory.weight_bytes.bf16")) / 1e9
    add("Network egress (results downloaded)", "网络出流量（下载结果）", egress, "GB",
        q.egress_per_gb if q.egress_per_gb is not None else _by_currency(p("network.egress_per_gb"), cur))

    # Energy: in the rent for cloud GPUs; billed for colocated or owned hardware.
    kwh = n * float(gpu.tdp_w) * float(p("energy.utilization_power_share")) * picked.wall_hours * float(p("energy.pue")) / 1000
    price_kwh = 0.0 if req.hosting == "cloud" else _by_currency(p("energy.price_per_kwh"), cur)
    add(f"Energy ({gpu.tdp_w:g} W × {n} GPUs, PUE {float(p('energy.pue')):g}"
        + (", included in rent)" if req.hosting == "cloud" else ")"),
        f"电费（{gpu.tdp_w:g} W × {n} 卡，PUE {float(p('energy.pue')):g}" + ("，已含在租金中）" if req.hosting == "cloud" else "）"),
        kwh, "kWh", price_kwh)

    if req.idle_wait_hours:
        add(f"Idle cards waiting (evaluation, decisions, {gpu.id} ×{n})", f"等待期间闲置计费（评估、决策，{gpu.id} ×{n}）",
            req.idle_wait_hours * n, "GPU-hour", q.on_demand)
    if req.support_cost:
        add("Support and licences (not in rent)", "技术支持与软件授权（租金未含）", 1, "total", req.support_cost)

    total = sum(c.amount for c in comps)
    gpu_part = sum(c.amount for c in comps if c.unit == "GPU-hour" and not c.name.startswith("Idle"))
    ratio_low = total_hours["low"] / total_hours["expected"]
    ratio_high = total_hours["high"] / total_hours["expected"]
    return Cost(
        currency=cur,
        total=float(total),
        low=float(total - gpu_part + gpu_part * ratio_low),
        high=float(total - gpu_part + gpu_part * ratio_high),
        components=comps,
    )


def _extra_label(mode: str, increment_s: float, experiments: bool) -> tuple[tuple[str, str], tuple[str, str]]:
    """Name and bracketed detail of GPU time billed beyond the work itself, per language."""
    if mode == "spot":
        return ("Spot rework and restarts", ""), ("抢占回收后的重算与重启", "")
    term = {"daily": ("days", "天"), "monthly": ("months", "月"), "yearly": ("years", "年")}.get(mode)
    if term:
        en, zh = ("Paid but unused term", f"whole {term[0]}, "), ("已付费未使用时长", f"整{term[1]}计费，")
    else:
        en, zh = ("Billing rounding", f"{increment_s:g}-second steps, "), ("计费取整", f"{increment_s:g} 秒步长，")
    if experiments:
        en = (en[0] + " and idle between experiments", en[1])
        zh = (zh[0] + "及实验间空闲", zh[1])
    return en, zh


def summary(r: Any) -> dict[str, str]:
    """One sentence in each language with the key figures."""
    c = r.cost
    money = format_money(c.total, c.currency)
    lo, hi = format_money(c.low, c.currency), format_money(c.high, c.currency)
    g = r.gpu
    fits_en = "fits" if r.memory.fits else "does NOT fit"
    fits_zh = "显存够用" if r.memory.fits else "显存不足"
    return {
        "en": (f"{money} (range {lo}–{hi}) for {r.gpu_hours.expected:,.0f} GPU-hours on {g.count}× {g.name}, "
               f"about {r.wall_hours.expected:,.1f} h of wall time; {r.memory.per_gpu_gb:.1f} GB per GPU, {fits_en}."),
        "zh": (f"预计 {money}（区间 {lo}–{hi}），{g.count} 张 {g.name} 共 {r.gpu_hours.expected:,.0f} GPU 时，"
               f"约 {r.wall_hours.expected:,.1f} 小时完成；每卡显存 {r.memory.per_gpu_gb:.1f} GB，{fits_zh}。"),
    }
