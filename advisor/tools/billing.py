"""Tool ``compare_billing``: on-demand, daily, monthly, yearly, off-peak, spot or per-task?"""

from __future__ import annotations

import math
from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

from advisor.catalog import get_catalog
from advisor.catalog.market import MARKET_FIELD_DOC, Market
from advisor.engine import billing as billing_mod
from advisor.engine.params import Params
from advisor.engine.pricing import per_period, quote
from advisor.errors import InputError
from advisor.findings import Assumption, Finding
from advisor.money import CurrencyField
from advisor.numeric import ToolRequest, validated
from advisor.rules import evaluate_packs
from advisor.tools.facts import billing_facts, clean_facts
from advisor.units import HOURS_PER_DAY, HOURS_PER_MONTH, HOURS_PER_YEAR

BILLING_PACKS: tuple[str, ...] = ("billing", "risk")


class CompareBillingRequest(ToolRequest):
    """A usage pattern: which cards, how many, for how long."""

    gpu: str = Field(description="GPU name or alias, e.g. 'H100', 'A800', '4090'.")
    gpu_count: int = Field(1, description="Number of GPUs rented together.")
    wall_hours: float | None = Field(None, description="How long the cards are needed, in hours (2 weeks -> 336, a month -> 730).")
    hours_per_day: float = Field(24, description="Hours a day the cards actually work; below 24 favours pay-per-use.")
    days: float | None = Field(None, description="Days of a schedule: with hours_per_day, a part-time schedule billed day by day; with days_per_week, the period's calendar days.")
    days_per_week: float | None = Field(None, description="Days of use a week: the days of use are that share of the period's days (days, else wall_hours).")
    jobs: int | None = Field(None, description="Number of separate jobs (each billed and rounded on its own).")
    job_hours: float | None = Field(None, description="Hours each job runs (20 minutes -> 0.333).")
    increment: Literal["second", "minute", "hour", "day"] | None = Field(
        None, description="Billing increment of pay-per-use modes; default: the price sheet's.")
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

    @model_validator(mode="after")
    def _usage(self) -> CompareBillingRequest:
        if (self.jobs is None) != (self.job_hours is None):
            raise InputError("job_hours" if self.job_hours is None else "jobs", None, "jobs and job_hours together")
        if self.wall_hours is None and self.jobs is None and self.days is None:
            raise InputError("wall_hours", None, "how long the cards are needed: wall_hours, days, or jobs × job_hours")
        return self

    def usage(self) -> tuple[float, int | None, float | None]:
        """(wall hours, sessions, hours per session) of the request."""
        if self.jobs is not None:
            hours = self.jobs * self.job_hours  # type: ignore[operator]
            return (self.wall_hours or hours), self.jobs, self.job_hours
        days = self.days
        if self.days_per_week and (days is not None or self.wall_hours):  # "每周 5 天，持续 8 周": that share of the period's days
            days = (days if days is not None else self.wall_hours / HOURS_PER_DAY) * self.days_per_week / 7  # type: ignore[operator]
        if days is not None:
            if self.hours_per_day < HOURS_PER_DAY:
                return days * self.hours_per_day, int(math.ceil(days)), self.hours_per_day
            return days * HOURS_PER_DAY, None, None
        return float(self.wall_hours), None, None  # type: ignore[arg-type]


class IncrementRow(BaseModel):
    increment: str
    seconds: float
    billed_gpu_hours: float
    overpay_gpu_hours: float
    overpay: float
    total: float


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
    worked_gpu_hours: float = 0.0
    increments: list[IncrementRow] = Field(default_factory=list, description="On-demand under each billing increment.")
    assumptions: list[Assumption]
    findings: list[Finding] = Field(default_factory=list)


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
    wall, sessions, session_hours = req.usage()
    steps = billing_mod.per_task_increments(p)
    ctx = billing_mod.Context(
        interruptible=req.interruptible, urgent=req.urgent, deadline_hours=req.deadline_hours,
        parallel_experiments=req.parallel_experiments, duty=req.hours_per_day / HOURS_PER_DAY, offpeak_share=share,
        sessions=sessions, session_hours=session_hours, tasks=req.jobs or 0, increment_s=steps[req.increment] if req.increment else None,
    )
    if req.increment:
        p.note("billing.increment_s", steps[req.increment], f"request ({req.increment})", unit="seconds")
    if "gpu_count" not in req.model_fields_set:  # "a 4090 by the hour or monthly?": one card, and the answer says so
        p.note("billing.gpu_count", 1, "one card", unit="GPUs", key="source.quote.gpu_count.card")
    options = billing_mod.compare(wall, req.gpu_count, q, ctx, p)
    on_demand_opt = billing_mod.option(options, "on_demand")
    assert on_demand_opt is not None
    unit = on_demand_opt.unit_price
    worked = wall * req.gpu_count
    rows = []
    for name, secs in steps.items():
        billed = billing_mod.rounded_hours(wall, secs, sessions) * req.gpu_count
        rows.append(IncrementRow(increment=name, seconds=secs, billed_gpu_hours=billed,
                                 overpay_gpu_hours=billed - worked, overpay=(billed - worked) * unit, total=billed * unit))
    cheapest = next((o.mode for o in options if o.cheapest), None)
    recommended = next((o.mode for o in options if o.recommended), None)
    periods = per_period(q)
    report = BillingReport(
        inputs={**req.model_dump(exclude_none=True), "gpu": gpu.id, "price_per_gpu_hour": round(q.on_demand, 4),
                "offpeak_share": share, "wall_hours": wall},
        worked_gpu_hours=worked, increments=rows,
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
    on_demand = on_demand_opt
    facts = {
        "gpu": gpu.id, "gpu_tier": gpu.tier, "gpu_memory_gb": float(gpu.memory_gb), "gpu_count": req.gpu_count,
        "wall_hours": wall, "wall_days": wall / HOURS_PER_DAY, "currency": q.currency,
        "rounding_overpay": on_demand.overpay, "rounding_overpay_share": on_demand.overpay / on_demand.total
        if on_demand.total else 0.0, "billing_increment_s": ctx.increment_s or q.increment_s,
        "per_second_total": next(r.total for r in rows if r.increment == "second"),
        "cost_total": on_demand.total, "price_per_gpu_hour": q.on_demand,
        "price_source": "user" if req.price_per_gpu_hour is not None else "list",
        "gpu_hours": worked, "interruptible": req.interruptible, "urgent": req.urgent,
        "parallel_experiments": req.parallel_experiments, "deadline_hours": req.deadline_hours,
        **billing_facts(options, "on_demand", req.gpu_count, worked, p),
    }
    report.findings = evaluate_packs(BILLING_PACKS, clean_facts(facts), lang=req.lang)
    return report

