"""Tool ``compare_billing``: on-demand, daily, monthly, yearly, off-peak, spot or per-task?"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from advisor.catalog import get_catalog
from advisor.catalog.market import MARKET_FIELD_DOC, Market
from advisor.engine import billing as billing_mod
from advisor.engine.models import validated
from advisor.engine.params import Params
from advisor.engine.pricing import per_period, quote
from advisor.errors import InputError
from advisor.findings import Assumption, Finding
from advisor.money import CurrencyField, format_money
from advisor.tools.facts import billing_facts, clean_facts
from advisor.tools.findings import BILLING_PACKS, evaluate
from advisor.units import HOURS_PER_DAY, HOURS_PER_MONTH, HOURS_PER_YEAR


class CompareBillingRequest(BaseModel):
    """A usage pattern: which cards, how many, for how long."""

    model_config = ConfigDict(extra="forbid")

    gpu: str = Field(description="GPU name or alias, e.g. 'H100', 'A800', '4090'.")
    gpu_count: int = Field(1, description="Number of GPUs rented together.")
    wall_hours: float = Field(description="How long the cards are needed, in hours (2 weeks -> 336, a month -> 730).")
    hours_per_day: float = Field(24, description="Hours a day the cards actually work; below 24 favours pay-per-use.")
    price_per_gpu_hour: float | None = Field(None, description="On-demand price per GPU-hour the user pays, if known.")
    currency: CurrencyField = "USD"
    provider: str | None = Field(None, description="Price sheet provider, e.g. 'runpod', '腾讯云'.")
    market: Market | None = Field(None, description=MARKET_FIELD_DOC)
    interruptible: bool = Field(False, description="The work tolerates spot reclaims (checkpointed, not critical path).")
    offpeak_share: float | None = Field(None, description="Share (0-1) of the work that can move to night hours.")
    offpeak_discount: float | None = Field(None, description="Night discount the user has been offered (0-1), if any.")
    urgent: bool = Field(False, description="The work cannot wait for off-peak hours.")
    deadline_hours: float | None = Field(None, description="Must finish within this many hours.")
    parallel_experiments: int = Field(1, description="Parallel experiments sharing the cards (per-task billing).")
    prices_file: str | None = Field(None, description="User price sheet (CSV) whose prices win.")
    lang: Literal["en", "zh"] = "en"

    @field_validator("gpu_count", "wall_hours", "hours_per_day", "parallel_experiments")
    @classmethod
    def _positive(cls, v: Any, info: Any) -> Any:
        if not v > 0:
            raise InputError(info.field_name, v, "a positive number")
        if info.field_name == "hours_per_day" and v > 24:
            raise InputError("hours_per_day", v, "at most 24")
        return v

    @field_validator("price_per_gpu_hour")
    @classmethod
    def _price(cls, v: Any) -> Any:
        if v is not None and not v > 0:
            raise InputError("price_per_gpu_hour", v, "a positive price per GPU-hour")
        return v

    @field_validator("offpeak_share")
    @classmethod
    def _share(cls, v: Any) -> Any:
        if v is not None and not 0 <= v <= 1:
            raise InputError("offpeak_share", v, "a share between 0 and 1")
        return v


class BreakEven(BaseModel):
    monthly_hours_per_month: float = Field(description="Monthly beats on-demand above this many hours a month.")
    yearly_hours_per_year: float = Field(description="Yearly beats on-demand above this many hours a year.")
    yearly_months: float = Field(description="Yearly beats paying month by month above this many months a year.")


class BillingReport(BaseModel):
    inputs: dict[str, Any]
    currency: str
    options: list[billing_mod.BillingOption]
    cheapest: str | None
    recommended: str | None
    break_even: BreakEven
    unit_prices: dict[str, float] = Field(description="Per-GPU prices per hour, day, month and year.")
    assumptions: list[Assumption]
    findings: list[Finding] = Field(default_factory=list)
    summary: dict[str, str] = Field(default_factory=dict)


def compare_billing(request: CompareBillingRequest | None = None, **kwargs: Any) -> BillingReport:
    """Price the same usage under every billing mode and give the break-even points."""
    req: CompareBillingRequest = validated(CompareBillingRequest, request, kwargs)
    catalog = get_catalog(user_prices=req.prices_file)
    p = Params(catalog.defaults)
    gpu = catalog.gpu(req.gpu)
    q = quote(catalog, gpu.id, req.currency, p, provider=req.provider, price_per_gpu_hour=req.price_per_gpu_hour,
              offpeak_discount=req.offpeak_discount, market=req.market, lang=req.lang)
    share = req.offpeak_share
    if share is None:
        share = 0.0 if req.urgent else 1.0
    ctx = billing_mod.Context(
        interruptible=req.interruptible, urgent=req.urgent, deadline_hours=req.deadline_hours,
        parallel_experiments=req.parallel_experiments, duty=req.hours_per_day / HOURS_PER_DAY, offpeak_share=share,
    )
    options = billing_mod.compare(req.wall_hours, req.gpu_count, q, ctx, p)
    cheapest = next((o.mode for o in options if o.cheapest), None)
    recommended = next((o.mode for o in options if o.recommended), None)
    periods = per_period(q)
    report = BillingReport(
        inputs={**req.model_dump(exclude_none=True), "gpu": gpu.id, "price_per_gpu_hour": round(q.on_demand, 4),
                "offpeak_share": share},
        currency=q.currency,
        options=options,
        cheapest=cheapest,
        recommended=recommended,
        break_even=BreakEven(
            monthly_hours_per_month=HOURS_PER_MONTH * q.monthly / q.on_demand,
            yearly_hours_per_year=HOURS_PER_YEAR * q.yearly / q.on_demand,
            yearly_months=12 * q.yearly / q.monthly,
        ),
        unit_prices={k: float(v) for k, v in periods.items()},
        assumptions=p.assumptions(),
    )
    report.summary = _summary(report, gpu.id, req.gpu_count)
    on_demand = billing_mod.option(options, "on_demand")
    assert on_demand is not None
    facts = {
        "gpu": gpu.id, "gpu_tier": gpu.tier, "gpu_memory_gb": float(gpu.memory_gb), "gpu_count": req.gpu_count,
        "wall_hours": req.wall_hours, "wall_days": req.wall_hours / HOURS_PER_DAY, "currency": q.currency,
        "cost_total": on_demand.total, "price_per_gpu_hour": q.on_demand,
        "price_source": "user" if req.price_per_gpu_hour is not None else "list",
        "gpu_hours": req.wall_hours * req.gpu_count, "interruptible": req.interruptible, "urgent": req.urgent,
        "parallel_experiments": req.parallel_experiments, "deadline_hours": req.deadline_hours,
        **billing_facts(options, "on_demand", req.gpu_count, req.wall_hours * req.gpu_count, p),
    }
    report.findings = evaluate(BILLING_PACKS, clean_facts(facts), lang=req.lang)
    return report


def _summary(r: BillingReport, gpu: str, n: int) -> dict[str, str]:
    by = {o.mode: o for o in r.options}
    best = by.get(r.recommended or "") or by["on_demand"]
    od = by["on_demand"]
    money = format_money(best.total, r.currency)
    return {
        "en": f"For {n}× {gpu}, {best.mode.replace('_', '-')} is the best fit at {money} "
              f"(on-demand {format_money(od.total, r.currency)}); monthly pays off above "
              f"{r.break_even.monthly_hours_per_month:.0f} h a month.",
        "zh": f"{n} 张 {gpu}：推荐{billing_mod.MODE_ZH[best.mode]}方案，共 {money}"
              f"（按量 {format_money(od.total, r.currency)}）；每月使用超过 {r.break_even.monthly_hours_per_month:.0f} 小时包月更划算。",
    }
