"""The same job under every billing mode, side by side, with the cheapest marked.

Modes: on-demand (rounded up to the sheet's billing increment), daily, monthly and yearly
terms (whole terms are paid), off-peak (the work runs only in the cheap night window, so it
takes longer), spot (cheaper, but reclaims cost rework and restarts), and per-task (only the
task's own GPU time, for many parallel experiments; only a provider listed in
``knowledge/decisions/terms.yaml`` ``billing.per_task_offers`` offers it, otherwise the option is
shown as unavailable with the nearest equivalent). Volume tiers lower every unit price.

Usage can come as sessions: ``jobs`` of ``job_hours`` each, or a part-time schedule of
``hours_per_day`` for ``days``. Pay-per-use modes round every session up to the billing
increment, so each mode reports ``overpay_gpu_hours`` (billed minus worked) and its cost.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pydantic import BaseModel

from advisor.engine.failures import young_daly
from advisor.engine.params import Params
from advisor.engine.pricing import Quote
from advisor.units import HOURS_PER_DAY, HOURS_PER_MONTH, HOURS_PER_YEAR

MODES: tuple[str, ...] = ("on_demand", "daily", "monthly", "yearly", "off_peak", "spot", "per_task")
MODE_ZH: dict[str, str] = {"on_demand": "按量", "daily": "按天", "monthly": "包月", "yearly": "包年", "off_peak": "闲时",
                           "spot": "抢占式", "per_task": "按任务"}


class BillingOption(BaseModel):
    mode: str
    total: float
    unit_price: float  # per GPU-hour actually billed, tier discount included
    billed_gpu_hours: float
    wall_hours: float
    available: bool = True
    suitable: bool = True
    cheapest: bool = False
    recommended: bool = False
    note: str = ""
    note_zh: str = ""
    overpay_gpu_hours: float = 0.0  # billed GPU-hours beyond the work itself (rounding, whole terms, rework)
    overpay: float = 0.0


@dataclass(frozen=True)
class Context:
    interruptible: bool = False
    urgent: bool = False
    deadline_hours: float | None = None
    parallel_experiments: int = 1
    checkpoint_write_hours: float = 1 / 60
    duty: float = 1.0  # share of each day the cards are needed (terms bill every calendar hour)
    offpeak_share: float = 1.0  # share of the work that can move to the night window
    sessions: int | None = None  # separately billed runs (jobs, or working days of a part-time schedule)
    session_hours: float | None = None  # hours of each session
    increment_s: float | None = None  # billing increment the user states (wins over the sheet's)
    tasks: int = 0  # separate jobs that a per-task price would bill one by one


def tiers(gpu_count: int, p: Params) -> tuple[float, int | None, float | None]:
    """(discount at this count, next threshold, discount there)."""
    steps = sorted((int(n), float(d)) for n, d in p("billing.tiers"))
    current = 0.0
    for n, d in steps:
        if gpu_count >= n:
            current = d
    nxt = next(((n, d) for n, d in steps if n > gpu_count), None)
    return current, (nxt[0] if nxt else None), (nxt[1] if nxt else None)


def _ceil_to(hours: float, step_hours: float) -> float:
    if step_hours <= 0:
        return hours
    return math.ceil(hours / step_hours - 1e-9) * step_hours


def rounded_hours(hours: float, increment_s: float, sessions: int | None = None) -> float:
    """Billed hours when each of ``sessions`` equal runs of ``hours / sessions`` is rounded up
    to ``increment_s`` (one run when ``sessions`` is None)."""
    step = increment_s / 3600.0
    if not sessions:
        return _ceil_to(hours, step)
    return sessions * _ceil_to(hours / sessions, step)


def per_task_offers(p: Params) -> list[dict[str, object]]:
    """Providers with a published per-task price (``knowledge/decisions/terms.yaml``)."""
    from advisor.engine.decisions_data import LayeredDefaults, decision_defaults

    entry = LayeredDefaults(decision_defaults()).get("billing.per_task_offers")
    p.note("billing.per_task_offers", entry.value, entry.source, unit=entry.unit)
    return list(entry.value or [])


def per_task_increments(p: Params) -> dict[str, float]:
    """Seconds per named billing increment (second, minute, hour, day), from the decision data."""
    from advisor.engine.decisions_data import LayeredDefaults, decision_defaults

    entry = LayeredDefaults(decision_defaults()).get("billing.increments")
    p.note("billing.increments", entry.value, entry.source, unit=entry.unit)
    return {str(k): float(v) for k, v in entry.value.items()}


def compare(wall_hours: float, gpu_count: int, q: Quote, ctx: Context, p: Params) -> list[BillingOption]:
    """Price ``gpu_count`` cards for ``wall_hours`` under every mode."""
    disc, _, _ = tiers(gpu_count, p)
    keep = 1.0 - disc
    idle = float(p("billing.experiment_idle_share")) if ctx.parallel_experiments > 1 else 0.0
    reserved = wall_hours / (1.0 - idle)  # reserved cards also sit idle between experiments
    calendar = reserved / max(min(ctx.duty, 1.0), 1e-6)  # terms bill every hour of the period
    opts: list[BillingOption] = []

    worked = wall_hours * gpu_count

    def add(mode: str, hours: float, price: float, wall: float, note: str, note_zh: str, **kw: object) -> None:
        unit = price * keep
        over = max(hours * gpu_count - worked, 0.0)
        opts.append(
            BillingOption(
                mode=mode,
                total=float(hours * gpu_count * unit),
                unit_price=float(unit),
                billed_gpu_hours=float(hours * gpu_count),
                wall_hours=float(wall),
                note=note,
                note_zh=note_zh,
                overpay_gpu_hours=float(over),
                overpay=float(over * unit),
                **kw,  # type: ignore[arg-type]
            )
        )

    inc_s = ctx.increment_s or q.increment_s
    sessions = ctx.sessions

    def billed(hours: float) -> float:
        return rounded_hours(hours, inc_s, sessions)

    add("on_demand", billed(reserved), q.on_demand, wall_hours,
        f"pay per use, billed in {inc_s:g}-second steps" + (f", each of {sessions:,} runs rounded up" if sessions else ""),
        f"按量计费，按 {inc_s:g} 秒步长计费" + (f"，{sessions:,} 次运行各自向上取整" if sessions else ""))
    add("daily", _ceil_to(calendar, HOURS_PER_DAY), q.daily, wall_hours,
        "whole days are paid", "按天计费，不足一天按一天")
    add("monthly", _ceil_to(calendar, HOURS_PER_MONTH), q.monthly, wall_hours,
        f"whole months are paid; cheaper than on-demand above {HOURS_PER_MONTH * q.monthly / q.on_demand:.0f} h a month",
        f"包月，整月计费；每月使用超过 {HOURS_PER_MONTH * q.monthly / q.on_demand:.0f} 小时比按量便宜")
    add("yearly", _ceil_to(calendar, HOURS_PER_YEAR), q.yearly, wall_hours,
        f"a whole year is paid; cheaper than on-demand above {HOURS_PER_YEAR * q.yearly / q.on_demand:.0f} h a year",
        f"包年，整年计费；每年使用超过 {HOURS_PER_YEAR * q.yearly / q.on_demand:.0f} 小时比按量便宜")

    night = float(p("billing.offpeak_hours_per_day"))
    share = min(max(ctx.offpeak_share, 0.0), 1.0)
    stretched = wall_hours * max(1.0, share * HOURS_PER_DAY / night)
    late = ctx.deadline_hours is not None and stretched > ctx.deadline_hours
    offered = q.offpeak_discount is not None
    discount = q.offpeak_discount if offered else float(p("billing.offpeak_discount"))
    add("off_peak", billed(reserved), q.on_demand * (1 - share * discount), stretched,
        f"{share:.0%} of the work runs in the {night:g}-hour night window, so it takes {stretched / HOURS_PER_DAY:.1f} days"
        + ("; misses the deadline" if late else "") + ("; not for urgent work" if ctx.urgent else "")
        + ("" if offered else f"; no price sheet offers it: ask for the {discount:.0%} night discount (REQUIREMENTS B4)"),
        f"{share:.0%} 的工作放在每天 {night:g} 小时的闲时窗口运行，需 {stretched / HOURS_PER_DAY:.1f} 天"
        + ("；赶不上截止时间" if late else "") + ("；不适合紧急任务" if ctx.urgent else "")
        + ("" if offered else f"；价目表中没有闲时价，可向服务商争取约 {discount:.0%} 的夜间折扣"),
        available=offered and not late, suitable=offered and not (late or ctx.urgent))

    nodes = max(1, math.ceil(gpu_count / float(p("memory.gpus_per_node"))))
    rate = float(p("billing.spot_interruptions_per_hour")) * nodes
    tau = float(young_daly(ctx.checkpoint_write_hours, 1.0 / rate))
    restart = float(p("billing.spot_restart_hours"))
    spot_wall = wall_hours * (1 + ctx.checkpoint_write_hours / tau) * (1 + rate * (min(tau, wall_hours) / 2 + restart))
    add("spot", billed(spot_wall), q.spot, spot_wall,
        f"about {rate * spot_wall:.1f} reclaims expected; rework and restarts add {spot_wall / wall_hours - 1:.0%} time"
        + ("" if ctx.interruptible else "; keep it off the critical path"),
        f"预计被回收约 {rate * spot_wall:.1f} 次，重算与重启增加 {spot_wall / wall_hours - 1:.0%} 时间"
        + ("" if ctx.interruptible else "；不要用于关键路径任务"),
        suitable=ctx.interruptible)

    tasks = ctx.parallel_experiments if ctx.parallel_experiments > 1 else ctx.tasks
    if tasks > 1:
        task_offers = per_task_offers(p)
        what = f"{ctx.parallel_experiments} experiments" if ctx.parallel_experiments > 1 else f"{tasks:,} jobs"
        what_zh = f"{ctx.parallel_experiments} 组实验" if ctx.parallel_experiments > 1 else f"{tasks:,} 个作业"
        if task_offers:
            note, note_zh = (f"{what} billed by task; no idle time between them",
                             f"{what_zh}按任务计费，任务间的空闲不计费")
        else:
            note = (f"no price sheet offers per-task pricing; the nearest is per-second on-demand with each of the "
                    f"{what} started and released on its own (priced here): ask the provider for a per-task price")
            note_zh = (f"价目表中没有按任务计费；最接近的是按秒按量计费、{what_zh}各自启动并及时释放（此处按此计价），"
                       "可向服务商争取按任务报价")
        add("per_task", wall_hours, q.on_demand, wall_hours, note, note_zh, available=bool(task_offers))

    _mark(opts)
    return opts


def _mark(opts: list[BillingOption]) -> None:
    live = [o for o in opts if o.available]
    if live:
        min(live, key=lambda o: o.total).cheapest = True
    fit = [o for o in live if o.suitable]
    if fit:
        min(fit, key=lambda o: o.total).recommended = True


def option(opts: list[BillingOption], mode: str) -> BillingOption | None:
    return next((o for o in opts if o.mode == mode), None)
