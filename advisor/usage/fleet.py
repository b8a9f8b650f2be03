"""Telemetry analysis: per-GPU utilization, idle stretches, forgotten cards, fleet profile.

Runs the engine-neutral SQL of :mod:`advisor.usage.queries` over the staged samples and
turns the small result sets into the report's telemetry section and the numbers the
utilization rules need (``FleetNumbers``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from advisor.findings import Assumption
from advisor.usage import queries as Q
from advisor.usage.defaults import UsageDefaults
from advisor.usage.engine import Engine
from advisor.usage.models import (
    GpuUsage,
    HistogramBin,
    IdleStretch,
    InstanceUsage,
    ProfilePoint,
    TelemetrySection,
    TrendPoint,
)
from advisor.usage.outliers import TimeOutliers, exclude_time_outliers
from advisor.usage.prices import resolve_prices
from advisor.usage.values import day, iso


@dataclass
class FleetNumbers:
    """Fleet totals in the report currency, over the analysed period."""

    gpu_count: int = 0
    t_start: float | None = None
    t_end: float | None = None
    period_hours: float = 0.0
    gpu_hours: float = 0.0
    busy_gpu_hours: float = 0.0
    total_cost: float = 0.0
    waste_cost: float = 0.0
    target_saving: float = 0.0
    idle_gpu_hours: float = 0.0
    idle_cost: float = 0.0  # idle stretches the card came back from (not forgotten)
    forgotten_gpu_count: int = 0
    forgotten_gpu_hours: float = 0.0
    forgotten_cost: float = 0.0
    low_use_gpu_count: int = 0
    low_use_saving: float = 0.0
    peak_util: float | None = None
    offpeak_util: float | None = None
    offpeak_shiftable_gpu_hours: float = 0.0
    offpeak_saving: float = 0.0
    steady_gpu_count: int = 0
    steady_cost: float = 0.0
    rightsize_gpu_count: int = 0
    rightsize_saving: float = 0.0
    uniform_price: float | None = None
    time_outliers: TimeOutliers = field(default_factory=TimeOutliers)
    assumptions: list[Assumption] = field(default_factory=list)


def analyze_fleet(
    engine: Engine,
    d: UsageDefaults,
    *,
    inventory: list[dict],
    price_per_gpu_hour: float | None,
    currency: str,
) -> tuple[TelemetrySection, FleetNumbers] | None:
    """The telemetry section and fleet numbers, or None when no telemetry was read."""
    outliers = exclude_time_outliers(engine)  # before any hour is counted
    engine.execute(Q.GPUS, {"default_interval_s": d.number("sampling.default_interval_s")})
    gpus = engine.rows("SELECT gid, instance, gpu_id, model FROM gpus ORDER BY gid")
    if not gpus:
        return None
    prices, price_assumptions = resolve_prices(gpus, inventory, price_per_gpu_hour=price_per_gpu_hour, currency=currency)
    _stage_prices(engine, prices)
    idle_cutoff = d.number("utilization.idle_cutoff")
    engine.execute(Q.TIMED, {"gap_factor": d.number("sampling.max_gap_factor"), "idle_cutoff": idle_cutoff},
                   label="analysing telemetry")
    engine.execute("DROP TABLE samples")  # timed holds everything further queries need
    engine.execute(
        Q.IDLE_RUNS,
        {"idle_cutoff": idle_cutoff, "min_idle_seconds": d.number("idle.min_stretch_hours") * 3600},
        label="finding idle stretches",
    )
    stats = engine.rows(Q.GPU_STATS, {"low_use": d.number("utilization.low_use_line")})
    pct = {r["gid"]: r for r in engine.rows(Q.GPU_PERCENTILES, {"percentile": d.number("rightsize.percentile")})}
    idle = {r["gid"]: r for r in engine.rows(Q.GPU_IDLE)}
    n = FleetNumbers(assumptions=price_assumptions, time_outliers=outliers)
    gpu_rows = [_gpu_usage(s, pct.get(s["gid"], {}), idle.get(s["gid"], {}), d) for s in stats]
    _fleet_totals(n, stats, gpu_rows, d)
    top = int(d.number("report.top_rows"))
    runs = engine.rows(Q.TOP_IDLE_RUNS, {"top": top})
    run_count = int(engine.one("SELECT COUNT(*) AS n FROM idle_runs")["n"])
    by_hour = engine.rows(Q.BY_HOUR)
    by_weekday = engine.rows(Q.BY_WEEKDAY)
    trend = engine.rows(Q.TELEMETRY_TREND)
    histogram = {int(r["bucket"]): float(r["gpu_hours"]) for r in engine.rows(Q.UTIL_HISTOGRAM)}
    _offpeak(n, engine, d)
    section = TelemetrySection(
        samples=int(sum(s["samples"] for s in stats)),
        excluded_rows=outliers.rows,
        excluded_hours=outliers.excluded_hours,
        excluded_reasons=outliers.reasons,
        excluded_examples=outliers.examples,
        period_start=iso(n.t_start),
        period_end=iso(n.t_end),
        period_hours=n.period_hours,
        gpu_hours=n.gpu_hours,
        avg_utilization=_ratio(n.busy_gpu_hours, n.gpu_hours),
        target_utilization=d.number("utilization.target"),
        peak_hours_utilization=n.peak_util,
        offpeak_hours_utilization=n.offpeak_util,
        gpus=gpu_rows,
        instances=_instances(gpu_rows, stats),
        idle_stretch_count=run_count,
        idle_stretches=[
            IdleStretch(
                instance=r["instance"],
                gpu_id=r["gpu_id"],
                model=r["model"],
                start=iso(r["start_t"]) or "",
                end=iso(r["end_t"]) or "",
                hours=float(r["seconds"]) / 3600,
                open=bool(r["open_run"]),
                cost=_f(r["cost"]),
            )
            for r in runs
        ],
        distribution=[
            HistogramBin(low=b / 10, high=(b + 1) / 10, gpu_hours=histogram.get(b, 0.0), share=_ratio(histogram.get(b, 0.0), n.gpu_hours))
            for b in range(10)
        ],
        by_hour=[ProfilePoint(key=int(r["hour"]), avg_utilization=float(r["avg_util"]), gpu_hours=float(r["gpu_hours"])) for r in by_hour],
        by_weekday=[ProfilePoint(key=int(r["weekday"]), avg_utilization=float(r["avg_util"]), gpu_hours=float(r["gpu_hours"])) for r in by_weekday],
        trend=[
            TrendPoint(date=day(r["day"]), avg_utilization=float(r["avg_util"]), gpu_hours=float(r["gpu_hours"]), gpus=int(r["gpus"]))
            for r in trend
        ],
    )
    return section, n


def _stage_prices(engine: Engine, prices: dict) -> None:
    import pyarrow as pa

    engine.load_arrow("gpu_price", pa.table({"gid": list(prices), "price": [p.price for p in prices.values()]},
                                           schema=pa.schema([("gid", pa.int64()), ("price", pa.float64())])))


def _f(value: object) -> float | None:
    return None if value is None else float(value)  # type: ignore[arg-type]


def _ratio(a: float, b: float) -> float:
    return float(a / b) if b else 0.0


def _gpu_usage(s: dict, p: dict, i: dict, d: UsageDefaults) -> GpuUsage:
    hours = float(s["seconds"]) / 3600
    price = _f(s["price"])
    idle_h = float(i.get("idle_seconds") or 0) / 3600
    open_h = float(i.get("open_seconds") or 0) / 3600
    forgotten = open_h >= d.number("idle.forgotten_min_hours")
    return GpuUsage(
        id=s["gpu_id"],
        instance=s["instance"],
        model=s["model"],
        samples=int(s["samples"]),
        first_seen=iso(s["t_min"]),
        last_seen=iso(s["t_max"]),
        hours=hours,
        avg_utilization=_ratio(float(s["busy_seconds"]), float(s["seconds"])),
        median_utilization=float(p.get("median_util") or 0.0),
        high_utilization=float(p.get("high_util") or 0.0),
        share_below_low_use=_ratio(float(s["low_seconds"]), float(s["seconds"])),
        idle_hours=idle_h,
        idle_stretches=int(i.get("stretches") or 0),
        forgotten=forgotten,
        forgotten_hours=open_h if forgotten else 0.0,
        peak_memory_share=_f(s["peak_mem_share"]) if s["mem_samples"] else None,
        price_per_gpu_hour=price,
        cost=None if price is None else hours * price,
        idle_cost=None if price is None else idle_h * price,
    )


def _fleet_totals(n: FleetNumbers, stats: list[dict], gpus: list[GpuUsage], d: UsageDefaults) -> None:
    target = d.number("utilization.target")
    low_share = d.number("utilization.long_low_use_share")
    idle_cut = d.number("utilization.idle_cutoff")
    step, max_fraction = d.number("rightsize.fraction_step"), d.number("rightsize.max_fraction")
    steady_cov = d.number("billing.steady_coverage")
    # the period ends one sample interval after the last sample (the time that sample stands for)
    n.t_start = min(float(s["t_min"]) for s in stats)
    n.t_end = max(float(s["t_max"]) + float(s["last_dt"]) for s in stats)
    n.period_hours = (n.t_end - n.t_start) / 3600
    n.gpu_count = len(gpus)
    by_model: dict[str | None, list[float]] = {}
    for s, g in zip(stats, gpus, strict=True):
        price = g.price_per_gpu_hour or 0.0
        busy_h = float(s["busy_seconds"]) / 3600
        n.gpu_hours += g.hours
        n.busy_gpu_hours += busy_h
        n.total_cost += g.hours * price
        n.waste_cost += (g.hours - busy_h) * price
        n.idle_gpu_hours += g.idle_hours
        n.idle_cost += (g.idle_hours - g.forgotten_hours) * price
        if g.forgotten:
            n.forgotten_gpu_count += 1
            n.forgotten_gpu_hours += g.forgotten_hours
            n.forgotten_cost += g.forgotten_hours * price
        cost_busy = by_model.setdefault(g.model, [0.0, 0.0])
        cost_busy[0] += g.hours * price
        cost_busy[1] += busy_h * price
        if g.share_below_low_use >= low_share and not g.forgotten:
            n.low_use_gpu_count += 1
            n.low_use_saving += max(0.0, g.hours - busy_h / target) * price
        if g.hours and float(s["steady_seconds"]) / 3600 >= steady_cov * n.period_hours:
            n.steady_gpu_count += 1
            n.steady_cost += g.hours * price
        if g.peak_memory_share is not None and not g.forgotten and g.avg_utilization >= idle_cut:
            need = math.ceil(round(max(g.high_utilization, g.peak_memory_share) / step, 6)) * step
            need = max(need, step)
            if need <= max_fraction + 1e-9:
                n.rightsize_gpu_count += 1
                n.rightsize_saving += g.hours * price * (1.0 - need)
    n.target_saving = sum(max(0.0, cost - busy / target) for cost, busy in by_model.values())
    distinct = {g.price_per_gpu_hour for g in gpus}
    n.uniform_price = distinct.pop() if len(distinct) == 1 else None


def _offpeak(n: FleetNumbers, engine: Engine, d: UsageDefaults) -> None:
    rows = engine.rows(
        Q.PEAK_OFFPEAK,
        {"offpeak_start": int(d.number("offpeak.start_hour")), "offpeak_end": int(d.number("offpeak.end_hour"))},
    )
    parts = {int(r["offpeak"]): r for r in rows}
    peak, off = parts.get(0), parts.get(1)
    if not peak or not off or not peak["gpu_hours"] or not off["gpu_hours"]:
        return
    n.peak_util = float(peak["busy_gpu_hours"]) / float(peak["gpu_hours"])
    n.offpeak_util = float(off["busy_gpu_hours"]) / float(off["gpu_hours"])
    if n.peak_util - n.offpeak_util < d.number("offpeak.min_util_gap"):
        return
    spare = max(0.0, float(off["gpu_hours"]) * d.number("utilization.target") - float(off["busy_gpu_hours"]))
    n.offpeak_shiftable_gpu_hours = min(float(peak["busy_gpu_hours"]), spare)
    price = float(peak["busy_cost"] or 0.0) / float(peak["busy_gpu_hours"]) if peak["busy_gpu_hours"] else 0.0
    n.offpeak_saving = n.offpeak_shiftable_gpu_hours * price * d.number("offpeak.discount")


def _instances(gpus: list[GpuUsage], stats: list[dict]) -> list[InstanceUsage]:
    acc: dict[str, dict] = {}
    for g, s in zip(gpus, stats, strict=True):
        a = acc.setdefault(g.instance, {"gpus": 0, "hours": 0.0, "busy": 0.0, "idle": 0.0, "cost": 0.0, "priced": True})
        a["gpus"] += 1
        a["hours"] += g.hours
        a["busy"] += float(s["busy_seconds"]) / 3600
        a["idle"] += g.idle_hours
        if g.cost is None:
            a["priced"] = False
        else:
            a["cost"] += g.cost
    return [
        InstanceUsage(
            instance=name,
            gpus=a["gpus"],
            hours=a["hours"],
            avg_utilization=_ratio(a["busy"], a["hours"]),
            idle_hours=a["idle"],
            cost=a["cost"] if a["priced"] else None,
        )
        for name, a in sorted(acc.items())
    ]
