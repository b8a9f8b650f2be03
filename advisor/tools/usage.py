"""Tool ``analyze_usage``: where rented GPUs are wasted, and what fixing it saves.

Two ways in: files (nvidia-smi logs, GPU-exporter metrics, FOCUS billing exports, an
inventory CSV), analysed in SQL by :mod:`advisor.usage`; or a summary (GPU count, average
utilization, price, period) for a question without files. Either way the ``utilization`` rule
pack turns the figures into findings, each with its saving.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import Field, field_validator

from advisor.catalog import get_catalog
from advisor.engine.params import Params
from advisor.errors import InputError
from advisor.findings import Assumption
from advisor.money import normalize_currency
from advisor.numeric import ToolRequest, accepted_of, validated
from advisor.rules import evaluate
from advisor.usage.analysis import UsageOptions, analyze_files
from advisor.usage.defaults import load_defaults
from advisor.usage.facts import summary_facts
from advisor.usage.models import UsageInputs, UsageReport
from advisor.usage.summary import summary_numbers
from advisor.usage.values import BadValue, timestamp


class AnalyzeUsageRequest(ToolRequest):
    """Usage data to analyse: files, or a summary of the fleet."""

    files: list[str] | None = Field(
        None,
        description="Paths of files the user named: nvidia-smi --query-gpu CSV logs, Prometheus text "
        "from nvidia_gpu_exporter or DCGM exporter, FOCUS billing exports (CSV or Parquet), or an "
        "inventory CSV (resource, gpu_type, gpu_count, price_per_hour, team, project, start, end). "
        "Leave empty when the user only describes the fleet.",
    )
    gpu_count: int | None = Field(
        None, description="Summary mode: how many GPUs the user rents (set with avg_utilization when there are no files)."
    )
    avg_utilization: float | None = Field(
        None,
        description="Summary mode: average GPU utilization as a fraction 0-1 ('about 40 %' -> 0.4). "
        "Values above 1 are read as percent.",
    )
    price_per_gpu_hour: float | None = Field(
        None,
        description="Price of one GPU-hour. In summary mode give it or `gpu`; with files it prices telemetry "
        "when no inventory row or catalog price applies.",
    )
    gpu: str | None = Field(
        None, description="Summary mode: the GPU type rented ('A100', 'H100'); prices the hours from the catalog "
        "when no price is given.",
    )
    period_hours: float | None = Field(
        None, description="Summary mode: period the utilization covers, in hours (a month = 730, a week = 168). Default: a month."
    )
    currency: Literal["USD", "CNY"] | None = Field(None, description="USD or CNY: the currency of the price and of the report.")
    billing_mode: Literal["on_demand", "committed", "spot"] = Field(
        "on_demand", description="How the GPUs are billed now; set 'committed' for monthly/yearly plans."
    )
    as_of: str | None = Field(
        None,
        description="Inventory only: date-time up to which rentals without an end are billed (YYYY-MM-DD). "
        "Default: the end of the supplied data.",
    )
    lang: Literal["en", "zh"] = Field("en", description="Language of the findings: zh for Chinese questions.")

    @field_validator("currency", mode="before")
    @classmethod
    def _currency(cls, v: Any) -> Any:
        return normalize_currency(v) if v not in (None, "") else None

    @field_validator("avg_utilization")
    @classmethod
    def _utilization(cls, v: float | None) -> float | None:
        if v is None:
            return None
        if 1 < v <= 100:
            v = v / 100.0
        if not 0 <= v <= 1:
            raise ValueError("avg_utilization")
        return float(v)


def analyze_usage(
    request: AnalyzeUsageRequest | None = None,
    *,
    progress: Callable[[str], None] | None = None,
    engine: str | None = None,
    **kwargs: Any,
) -> UsageReport:
    """Analyse GPU usage and billing for waste: idle and forgotten cards, low utilization,
    unused commitments, leftover storage, chargeback, and what each fix saves.

    ``engine``: ``duckdb`` (embedded, the default) or ``spark``; None reads
    ``ADVISOR_USAGE_ENGINE``. Both give the same report."""
    req: AnalyzeUsageRequest = validated(AnalyzeUsageRequest, request, kwargs)
    summary_fields = {k: getattr(req, k) for k in ("gpu_count", "avg_utilization", "period_hours") if getattr(req, k) is not None}
    if req.files:
        if summary_fields:
            raise InputError(
                next(iter(summary_fields)), next(iter(summary_fields.values())), "files or a summary (gpu_count, avg_utilization, period_hours), not both"
            )
        return _from_files(req, progress, engine)
    if req.gpu_count is None or req.avg_utilization is None:
        missing = "gpu_count" if req.gpu_count is None else "avg_utilization"
        raise InputError(missing, None, f"{accepted_of(AnalyzeUsageRequest)[missing]}, or files to analyse")
    return _from_summary(req)


def _from_summary(req: AnalyzeUsageRequest) -> UsageReport:
    """Summary mode (gpu_count and price_per_gpu_hour are positive by limits.yaml's request rules)."""
    d = load_defaults()
    if req.period_hours is not None and not req.period_hours > 0:
        raise InputError("period_hours", req.period_hours, accepted_of(AnalyzeUsageRequest)["period_hours"])
    currency = req.currency or "USD"
    assumptions = d.assumptions(["utilization.target", "utilization.low_use_line", "findings.min_saving"])
    price = req.price_per_gpu_hour
    if price is None:
        if not req.gpu:
            raise InputError("price_per_gpu_hour", None,
                             "a price per GPU-hour, or the GPU type (gpu=...) to look one up (summary mode needs one)")
        # lazy: loads numpy only when this runs (cold start)
        from advisor.engine.pricing import quote

        catalog = get_catalog()
        q = quote(catalog, catalog.gpu(req.gpu).id, currency, Params(catalog.defaults))
        price, source = q.on_demand, q.source
        assumptions.append(Assumption(name="price_per_gpu_hour", value=round(price, 4), source=source,
                                      unit=f"{currency} per GPU-hour"))
    period = req.period_hours
    if period is None:
        period = d.number("summary.period_hours")
        assumptions.append(d.assumption("summary.period_hours"))
    if req.currency is None:
        assumptions.append(Assumption(name="currency", value="USD", source="default: no currency given"))
    gpu_count, util = int(req.gpu_count or 0), float(req.avg_utilization or 0.0)
    summary = summary_numbers(gpu_count, util, float(price), period, d.number("utilization.target"), currency)
    facts = summary_facts(summary, billing_mode=req.billing_mode, d=d)
    return UsageReport(
        inputs=UsageInputs(
            mode="summary",
            gpu_count=gpu_count,
            avg_utilization=util,
            price_per_gpu_hour=price,
            period_hours=period,
            currency=currency,
            billing_mode=req.billing_mode,
        ),
        currency=currency,
        summary=summary,
        findings=evaluate("utilization", facts, lang=req.lang),
        assumptions=assumptions,
    )


def _from_files(req: AnalyzeUsageRequest, progress: Callable[[str], None] | None, engine: str | None = None) -> UsageReport:
    as_of = None
    if req.as_of:
        try:
            as_of = timestamp(req.as_of)
        except BadValue as exc:
            raise InputError("as_of", req.as_of, accepted_of(AnalyzeUsageRequest)["as_of"]) from exc
    report, facts = analyze_files(list(req.files or []), UsageOptions(
        price_per_gpu_hour=req.price_per_gpu_hour, currency=req.currency, as_of=as_of, billing_mode=req.billing_mode,
        progress=progress, engine=engine))
    report.findings = evaluate("utilization", facts, lang=req.lang)
    return report
