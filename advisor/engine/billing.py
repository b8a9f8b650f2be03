"""The same job under every billing mode, side by side, with the cheapest marked.

Modes: on-demand (rounded up to the sheet's billing increment), daily, monthly and yearly
terms (whole terms are paid), off-peak (the work runs only in the cheap night window, so it
takes longer), spot (cheaper, but reclaims cost rework and restarts), and per-task (only the
task's own GPU time, for many parallel experiments; only a provider listed in
``knowledge/decisions/terms.yaml`` ``billing.per_task_offers`` offers it, otherwise the option is
shown as unavailable with the nearest equivalent). Volume tiers lower every unit price when
``billing.apply_volume_tiers`` is on (off by default: no provider publishes them).

Usage can come as sessions: ``jobs`` of ``job_hours`` each, or a part-time schedule of
``hours_per_day`` for ``days``. Pay-per-use modes round every session up to the billing
increment, so each mode reports ``overpay_gpu_hours`` (billed minus worked) and its cost.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from pydantic import BaseModel, TypeAdapter

from advisor.engine.decisions_data import LayeredDefaults, decision_defaults
from advisor.engine.failures import young_daly
from advisor.engine.params import Params
from advisor.engine.pricing import Quote
from advisor.units import HOURS_PER_DAY, HOURS_PER_MONTH, HOURS_PER_YEAR

MODES: tuple[str, ...] = ("on_demand", "daily", "monthly", "yearly", "off_peak", "spot", "per_task")


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
    note: str = ""  # key of why the mode costs what it costs (glossary ``note.<key>``); words in advisor.present
    note_values: dict[str, float | bool] = {}  # the figures and flags the note is written with
    overpay_gpu_hours: float = 0.0  # billed GPU-hours beyond the work itself (rounding, whole terms, rework)
    overpay: float = 0.0


_OPTIONS = TypeAdapter(list[BillingOption])


class Context(NamedTuple):
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
    """(discount at this count, next threshold, discount there); no discount and no next step
    unless ``billing.apply_volume_tiers`` (no provider publishes GPU-count tiers)."""
    if not p("billing.apply_volume_tiers"):
        return 0.0, None, None
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
    entry = LayeredDefaults(decision_defaults()).get("billing.per_task_offers")
    p.note("billing.per_task_offers", entry.value, entry.source, unit=entry.unit, key="source.billing.per_task_offers")
    return list(entry.value or [])


def per_task_increments(p: Params) -> dict[str, float]:
    """Seconds per named billing increment (second, minute, hour, day), from the decision data."""
    entry = LayeredDefaults(decision_defaults()).get("billing.increments")
    p.note("billing.increments", entry.value, entry.source, unit=entry.unit, key="source.billing.increments")
    return {str(k): float(v) for k, v in entry.value.items()}


def compare(wall_hours: float, gpu_count: int, q: Quote, ctx: Context, p: Params) -> list[BillingOption]:
    """Price ``gpu_count`` cards for ``wall_hours`` under every mode."""
    disc, _, _ = tiers(gpu_count, p)
    keep = 1.0 - disc
    idle = float(p("billing.experiment_idle_share")) if ctx.parallel_experiments > 1 else 0.0
    reserved = wall_hours / (1.0 - idle)  # reserved cards also sit idle between experiments
    calendar = reserved / max(min(ctx.duty, 1.0), 1e-6)  # terms bill every hour of the period
    opts: list[dict[str, Any]] = []  # validated into BillingOption rows at the end, in one call

    worked = wall_hours * gpu_count

    def add(mode: str, hours: float, price: float, wall: float, values: dict[str, float | bool], note: str = "",
            available: bool = True, suitable: bool = True) -> None:
        unit = price * keep
        over = max(hours * gpu_count - worked, 0.0)
        opts.append(dict(mode=mode, total=float(hours * gpu_count * unit), unit_price=float(unit),
                         billed_gpu_hours=float(hours * gpu_count), wall_hours=float(wall), note=note or mode,
                         note_values=values, overpay_gpu_hours=float(over), overpay=float(over * unit),
                         available=available, suitable=suitable))

    inc_s = ctx.increment_s or q.increment_s
    sessions = ctx.sessions

    def billed(hours: float) -> float:
        return rounded_hours(hours, inc_s, sessions)

    add("on_demand", billed(reserved), q.on_demand, wall_hours, {"increment_s": inc_s, "sessions": float(sessions or 0)},
        note="on_demand.sessions" if sessions else "on_demand")
    add("daily", _ceil_to(calendar, HOURS_PER_DAY), q.daily, wall_hours, {})
    add("monthly", _ceil_to(calendar, HOURS_PER_MONTH), q.monthly, wall_hours,
        {"break_even_hours": HOURS_PER_MONTH * q.monthly / q.on_demand})
    add("yearly", _ceil_to(calendar, HOURS_PER_YEAR), q.yearly, wall_hours,
        {"break_even_hours": HOURS_PER_YEAR * q.yearly / q.on_demand})

    night = float(p("billing.offpeak_hours_per_day"))
    share = min(max(ctx.offpeak_share, 0.0), 1.0)
    stretched = wall_hours * max(1.0, share * HOURS_PER_DAY / night)
    late = ctx.deadline_hours is not None and stretched > ctx.deadline_hours
    offered = q.offpeak_discount is not None
    discount = q.offpeak_discount if offered else float(p("billing.offpeak_discount"))
    add("off_peak", billed(reserved), q.on_demand * (1 - share * discount), stretched,  # type: ignore[operator]
        {"share": share, "night_hours": night, "days": stretched / HOURS_PER_DAY, "late": late, "urgent": ctx.urgent,
         "offered": offered, "discount": discount},  # type: ignore[dict-item]
        available=offered and not late, suitable=offered and not (late or ctx.urgent))

    nodes = max(1, math.ceil(gpu_count / float(p("memory.gpus_per_node"))))
    rate = float(p("billing.spot_interruptions_per_hour")) * nodes
    tau = float(young_daly(ctx.checkpoint_write_hours, 1.0 / rate))
    restart = float(p("billing.spot_restart_hours"))
    spot_wall = wall_hours * (1 + ctx.checkpoint_write_hours / tau) * (1 + rate * (min(tau, wall_hours) / 2 + restart))
    add("spot", billed(spot_wall), q.spot, spot_wall,
        {"reclaims": rate * spot_wall, "extra_share": spot_wall / wall_hours - 1, "interruptible": ctx.interruptible},
        suitable=ctx.interruptible)

    tasks = ctx.parallel_experiments if ctx.parallel_experiments > 1 else ctx.tasks
    if tasks > 1:
        task_offers = per_task_offers(p)
        values: dict[str, float | bool] = {"tasks": tasks, "experiments": ctx.parallel_experiments > 1}
        add("per_task", wall_hours, q.on_demand, wall_hours, values,
            note="per_task" if task_offers else "per_task.unoffered", available=bool(task_offers))

    live = [o for o in opts if o["available"]]
    if live:
        min(live, key=lambda o: o["total"])["cheapest"] = True
    fit = [o for o in live if o["suitable"]]
    if fit:
        min(fit, key=lambda o: o["total"])["recommended"] = True
    return _OPTIONS.validate_python(opts)


def option(opts: list[BillingOption], mode: str) -> BillingOption | None:
    return next((o for o in opts if o.mode == mode), None)
