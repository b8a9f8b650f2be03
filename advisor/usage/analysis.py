"""One usage analysis of a set of files: read, analyse in SQL, summarise, derive facts.

The orchestration only: readers stage the files, :mod:`fleet`, :mod:`billing` and
:mod:`chargeback` run the engine-neutral queries, :mod:`facts` feeds the rules. The result
carries every assumption it used so the report can list them.
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from advisor.errors import InputError
from advisor.findings import Assumption
from advisor.money import FxRate, convert
from advisor.progress import Progress
from advisor.usage.billing import analyze_billing
from advisor.usage.chargeback import analyze_inventory
from advisor.usage.defaults import UsageDefaults, load_defaults
from advisor.usage.detect import is_dataset
from advisor.usage.engine import Engine, engine_name
from advisor.usage.facts import file_facts, gpus_needed
from advisor.usage.fleet import analyze_fleet
from advisor.usage.models import UsageInputs, UsageReport, UsageSummary
from advisor.usage.prices import catalog_fx
from advisor.usage.readers import read_files
from advisor.usage.spark import SparkEngine
from advisor.usage.values import iso


@dataclass
class UsageOptions:
    price_per_gpu_hour: float | None = None
    currency: str | None = None
    as_of: float | None = None
    billing_mode: str = "on_demand"
    progress: Progress | None = None
    threads: int | None = None
    engine: str | None = None  # duckdb (default) or spark; None: ADVISOR_USAGE_ENGINE


def open_engine(name: str | None, *, memory_limit_gb: float, threads: int | None = None,
                progress: Progress | None = None):  # type: ignore[no-untyped-def]
    """A new engine of kind ``name`` (:func:`advisor.usage.engine.engine_name`)."""
    if engine_name(name) == "spark":
        return SparkEngine(progress=progress)
    return Engine(memory_limit_gb=memory_limit_gb, threads=threads, progress=progress)


def _rate(src: str | None, dst: str) -> tuple[float | None, FxRate | None]:
    """Factor from ``src`` to ``dst`` money and the rate used (None when equal); a factor of
    None when ``src`` is unknown or no rate is available."""
    if src == dst:
        return 1.0, None
    fx = catalog_fx() if src is not None else None
    if fx is None:
        return None, None

    return convert(1.0, src, dst, fx), fx  # type: ignore[arg-type]


def _fx_assumption(fx: FxRate) -> Assumption:
    return Assumption(name="fx_rate", value=f"1 {fx.base} = {fx.rate} {fx.quote}", source=f"{fx.source} ({fx.as_of})")


def _report_currency(requested: str | None, billing: list[str], inventory: list[dict]) -> str:
    """The request's currency, else the billing export's (if it has one), else the
    inventory's first, else USD."""
    if requested:
        return requested
    if len(billing) == 1:
        return billing[0]
    return inventory[0]["currency"] if inventory else "USD"


def analyze_files(paths: list[str], options: UsageOptions,
                  defaults: UsageDefaults | None = None) -> tuple[UsageReport, dict[str, Any]]:
    """Analyse telemetry, billing and inventory files together: the report (its findings not yet
    evaluated) and the facts of the utilization rules."""
    if not paths:
        raise InputError("files", [], "one or more telemetry, billing or inventory files")
    d = defaults or load_defaults()
    # every threshold but the summary mode's period and the engine's own settings
    assumptions = d.assumptions([k for k in d.entries if not k.startswith(("summary.", "engine.", "report."))])
    notes: list[str] = []
    with tempfile.TemporaryDirectory(prefix="advisor-usage-in-") as workdir, open_engine(
        options.engine, memory_limit_gb=d.number("engine.memory_limit_gb"), threads=options.threads, progress=options.progress
    ) as engine:
        inputs = read_files(
            engine,
            paths,
            currency=options.currency or "USD",
            progress_min_bytes=int(d.number("engine.progress_min_mb") * 1e6),
            workdir=workdir,
        )
        for f in inputs:
            notes.extend(f"{f.path}: {n}" for n in f.notes)
        if not any(_size(p) >= d.number("engine.progress_min_mb") * 1e6 for p in paths):
            engine.progress = None  # small inputs finish before progress would help
        inventory_rows = engine.rows("SELECT * FROM inventory ORDER BY src, row_no")
        billing_currencies = [r["currency"] for r in engine.rows("SELECT DISTINCT currency FROM billing ORDER BY currency")]
        currency = _report_currency(options.currency, billing_currencies, inventory_rows)
        if not options.currency and not billing_currencies and not inventory_rows:
            assumptions.append(Assumption(name="currency", value="USD", source="default: no currency given", unit=None))
        fleet_out = analyze_fleet(
            engine, d, inventory=inventory_rows, price_per_gpu_hour=options.price_per_gpu_hour, currency=currency
        )
        telemetry, fleet = fleet_out if fleet_out else (None, None)
        if fleet is not None:
            assumptions.extend(fleet.assumptions)
        billing_out = analyze_billing(engine, d)
        billing_section, billing_end = (billing_out[0], billing_out[1]) if billing_out else (None, None)
        if billing_out:
            notes.extend(billing_out[2])
        as_of = options.as_of
        if as_of is None:
            ends = [x for x in (fleet.t_end if fleet else None, billing_end) if x]
            as_of = max(ends) if ends else time.time()
            if inventory_rows:
                source = "end of the supplied telemetry/billing data" if ends else "the time of the analysis"
                assumptions.append(Assumption(name="as_of", value=iso(as_of) or "", source=source, unit=None))
        inv_fx = catalog_fx() if any(r["currency"] != currency for r in inventory_rows) else None
        if inv_fx is not None:
            assumptions.append(_fx_assumption(inv_fx))
        inv_out = analyze_inventory(
            engine,
            as_of=as_of,
            telemetry_window=(fleet.t_start, fleet.t_end) if fleet and fleet.t_start is not None else None,  # type: ignore[arg-type]
            currency=currency,
            fx=inv_fx,
        )
    inventory_section, inventory_numbers = inv_out if inv_out else (None, None)
    billing_rate, fx = _rate(billing_section.currency, currency) if billing_section is not None else (None, None)
    if fx is not None and not any(a.name == "fx_rate" for a in assumptions):
        assumptions.append(_fx_assumption(fx))
    if billing_section is not None and billing_rate is None and billing_section.currency:
        notes.append(f"billing amounts are in {billing_section.currency}; without an exchange rate they are not compared with {currency} prices")
    summary = _summary(fleet, inventory_numbers, currency, d)
    facts = file_facts(
        currency=currency,
        billing_mode=options.billing_mode,
        d=d,
        fleet=fleet,
        billing=billing_section,
        billing_rate=billing_rate,
        inventory=inventory_numbers,
    )
    given = UsageInputs(mode="files", files=inputs, price_per_gpu_hour=options.price_per_gpu_hour, currency=currency,
                        billing_mode=options.billing_mode, as_of=iso(options.as_of) if options.as_of is not None else None)
    return UsageReport(inputs=given, currency=currency, summary=summary, billing=billing_section, telemetry=telemetry,
                       inventory=inventory_section, assumptions=assumptions, notes=notes), facts


def _size(path: str) -> float:
    """Bytes of a file; a glob, directory or URI counts as large (progress is shown)."""
    return float("inf") if is_dataset(path) else Path(path).stat().st_size


def _summary(fleet, inventory, currency: str, d: UsageDefaults) -> UsageSummary:  # type: ignore[no-untyped-def]
    target = d.number("utilization.target")
    if fleet is None:
        return UsageSummary(
            target_utilization=target,
            currency=currency,
            total_cost=inventory.total_cost if inventory is not None else None,
        )
    return UsageSummary(
        gpu_count=fleet.gpu_count,
        avg_utilization=fleet.busy_gpu_hours / fleet.gpu_hours if fleet.gpu_hours else 0.0,
        target_utilization=target,
        period_hours=fleet.period_hours,
        gpu_hours=fleet.gpu_hours,
        busy_gpu_hours=fleet.busy_gpu_hours,
        idle_gpu_hours=fleet.idle_gpu_hours,
        idle_cost=fleet.idle_cost + fleet.forgotten_cost,
        waste_cost=fleet.waste_cost,
        target_saving=fleet.target_saving,
        gpus_needed_at_target=gpus_needed(fleet, d),
        total_cost=fleet.total_cost,
        price_per_gpu_hour=fleet.uniform_price,
        currency=currency,
    )
