"""Tool ``check_quote``: is this quoted price good? (quotes, REQUIREMENTS D3, D4)

The quote is normalised to a per-GPU-hour figure (advisor/engine/quotes.py) and compared with
the market for the card and currency (advisor.catalog.market.market_for): the term's market
when the quote carries a term, else on-demand. The verdict and what to negotiate follow.
"""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

from advisor.catalog import get_catalog
from advisor.catalog.market import find_market, market_for
from advisor.engine import quotes as qmod
from advisor.engine.decisions_data import by_currency, decision_params
from advisor.engine.price_history import lock_value
from advisor.findings import Assumption, Finding
from advisor.money import CurrencyField
from advisor.numeric import ToolRequest, check_bounds, validated
from advisor.rules import evaluate_packs
from advisor.tools.facts import clean_facts
from advisor.units import HOURS_PER_MONTH

QUOTE_PACKS: tuple[str, ...] = ("quote",)


class QuoteRequest(ToolRequest):
    """A quoted price for a card, in the unit the provider used."""

    @model_validator(mode="after")
    def _hourly_bound(self) -> QuoteRequest:
        if self.unit == "gpu_hour":  # a price per GPU-hour: the physical bound of its currency
            check_bounds(float(self.price), "price", f"price_per_gpu_hour_{str(self.currency or 'USD').lower()}")
        return self

    gpu: str = Field(description="GPU name or alias, e.g. 'H100', 'H800', 'A100'.")
    price: float = Field(description="The quoted amount, in `currency`, per `unit`.")
    unit: qmod.Unit = Field("gpu_hour", description="gpu_hour, gpu_month, node_hour, node_month or gpu_year.")
    gpu_count: int | None = Field(None, description="For a node unit the cards in one node (default 8); for a per-card "
                                                    "unit the cards quoted (default 1), which the price is not divided by.")
    term_months: float | None = Field(None, description="Commitment term in months, if the quote carries one.")
    utilization: float = Field(1.0, description="Share of the paid hours the cards will actually work (0-1).")
    currency: CurrencyField = Field("USD", description="USD or CNY.")
    included_storage_gb: float = Field(0.0, description="Storage (GB) included in the quoted price.")
    included_egress_gb_per_month: float = Field(0.0, description="Egress (GB a month) included in the quoted price.")
    provider: str | None = Field(None, description="Who quoted it (for the report; the market is every provider).")
    lang: Literal["en", "zh"] = "en"


class QuoteMarket(BaseModel):
    mode: str
    p10: float
    median: float
    p90: float
    offers: int
    providers: list[str]
    as_of_min: date | None
    as_of_max: date | None
    fallback: dict[str, Any] | None = Field(None, description="Why other offers were pooled in (a word reference).")
    stale: bool = False
    term_adjustment: float | None = Field(None, description="Multiplier applied to on-demand figures when no term market exists.")


class QuoteReport(BaseModel):
    inputs: dict[str, Any]
    currency: str
    gpu: str
    price_per_gpu_hour: float = Field(description="Normalised: per GPU per calendar hour, extras included.")
    compute_per_gpu_hour: float = Field(description="The compute part, included storage and egress taken out.")
    per_used_gpu_hour: float = Field(description="The compute part per hour the cards actually work.")
    market: QuoteMarket
    verdict: qmod.Verdict
    premium_share: float = Field(description="Compute price over the market median, minus 1.")
    percentile: float = Field(description="Share of market offers cheaper than the quote.")
    target_price: float = Field(description="What to ask for: the market's p10 (per GPU-hour).")
    saving_per_month_at_target: float
    monthly_total: float = Field(description="The quote for all its cards, per month.")
    lock: dict[str, Any] | None = Field(None, description="What fixing this price for the term is worth under the price drift.")
    assumptions: list[Assumption]
    findings: list[Finding] = Field(default_factory=list)


def check_quote(request: QuoteRequest | None = None, **kwargs: Any) -> QuoteReport:
    """Normalise a quoted price to per GPU-hour and judge it against the market. Use when the
    user gives a price a provider quoted ('$2.10 per H100-hour on a 12-month term', '8 卡 H800
    整机每月 9 万') and asks whether it is good or what to negotiate. Returns the normalised
    price, the market p10/median/p90 with its dates, a verdict (below/at/above) and a target."""
    req: QuoteRequest = validated(QuoteRequest, request, kwargs)
    catalog = get_catalog()
    p = decision_params(catalog)
    gpu = catalog.gpu(req.gpu)
    n = req.gpu_count
    if n is None:
        n = int(p("memory.gpus_per_node")) if req.unit in qmod.NODE_UNITS else 1
    extras = (req.included_storage_gb * by_currency(p("storage.price_per_gb_month"), req.currency, "storage")
              + req.included_egress_gb_per_month * by_currency(p("network.egress_per_gb"), req.currency, "egress"))
    norm = qmod.normalise(req.price, req.unit, n, utilization=req.utilization, term_months=req.term_months,
                          extras_per_month=extras)
    market = _market(catalog, gpu.id, req.currency, norm.market_mode, p)
    band = float(p("quote.at_market_band"))
    target_q = str(p("quote.negotiation_target"))
    target = {"p10": market.p10, "median": market.median}.get(target_q, market.p10)
    verdict = qmod.verdict(norm.compute_per_gpu_hour, market.median, band)
    found = find_market(gpu.id, req.currency, market.mode, catalog=catalog)
    rows = [o.price * (market.term_adjustment or 1.0) for o in (found.rows if found else [])]
    saving = max(norm.compute_per_gpu_hour - target, 0.0) * n * HOURS_PER_MONTH
    report = QuoteReport(
        inputs={**req.model_dump(exclude_none=True), "gpu": gpu.id, "gpu_count": n},
        currency=req.currency, gpu=gpu.id, price_per_gpu_hour=norm.per_gpu_hour,
        compute_per_gpu_hour=norm.compute_per_gpu_hour, per_used_gpu_hour=norm.per_used_gpu_hour, market=market,
        verdict=verdict, premium_share=norm.compute_per_gpu_hour / market.median - 1,
        percentile=qmod.percentile(norm.compute_per_gpu_hour, rows), target_price=target,
        saving_per_month_at_target=saving, monthly_total=norm.per_gpu_hour * n * HOURS_PER_MONTH, assumptions=[],
    )
    if req.gpu_count:
        p.note("quote.gpu_count", n, "request", unit="GPUs")
    else:  # the default follows the unit: the cards of one node for a node price, one card for a per-card price
        node = req.unit in qmod.NODE_UNITS
        p.note("quote.gpu_count", n, "one node (memory.gpus_per_node)" if node else "one card", unit="GPUs",
               key=f"source.quote.gpu_count.{'node' if node else 'card'}")
    if extras:
        p.note("quote.included_extras", round(extras, 2), "included storage and egress at list prices",
               unit=f"{req.currency} per month")
    od_market = find_market(gpu.id, req.currency, "on_demand", catalog=catalog)
    on_demand = od_market.median if od_market else None
    months = int(round(req.term_months or (12 if req.unit == "gpu_year" else 0)))
    if months >= 1:
        monthly = find_market(gpu.id, req.currency, "monthly", catalog=catalog)
        floating = monthly.median if monthly else float(on_demand or market.median) * (1 - float(p("billing.monthly_discount")))
        lv = lock_value(lock=norm.compute_per_gpu_hour, now=floating, months=months, gpu_count=n,
                        drift=float(p("price.drift_per_year")), sigma=float(p("price.drift_volatility_per_year")))
        report.lock = dict(vars(lv))
    facts = {
        "currency": req.currency, "gpu": gpu.id, "gpu_count": n, "verdict": verdict,
        "price_per_gpu_hour": norm.compute_per_gpu_hour, "market_median": market.median, "target_price": target,
        "premium_share": report.premium_share, "saving_per_month": saving, "term_months": req.term_months,
        "utilization": req.utilization, "per_used_gpu_hour": norm.per_used_gpu_hour,
        "on_demand_median": on_demand, "committed": norm.committed, "market_stale": market.stale,
        "market_offers": market.offers,
        "lock_expected_saving": report.lock["expected_saving"] if report.lock else None,
        "lock_expected_cost": -report.lock["expected_saving"] if report.lock and report.lock["expected_saving"] < 0 else None,
        "lock_protection": report.lock["protection"] if report.lock else None,
        "lock_probability_above": report.lock["probability_above_at_end"] if report.lock else None,
    }
    report.findings = evaluate_packs(QUOTE_PACKS, clean_facts(facts), lang=req.lang)
    report.assumptions = p.assumptions()
    return report


def _market(catalog: Any, gpu: str, currency: str, mode: str, p: Any) -> QuoteMarket:
    """The term's market, or the on-demand market times the default term discount."""
    m, adjust = find_market(gpu, currency, mode, catalog=catalog), None
    if m is None:  # no term market: the on-demand one (NoMarketError when there is none) times the term discount
        m, adjust = market_for(gpu, currency, "on_demand", catalog=catalog), 1 - float(p(f"billing.{mode}_discount"))
    k = adjust or 1.0
    p.note("quote.market", round(m.median, 4), "median of advisor.catalog.market.market_for", unit=f"{currency} per GPU-hour",
           key="source.quote.market", market=m.words())
    return QuoteMarket(mode=mode, p10=m.p10 * k, median=m.median * k, p90=m.p90 * k, offers=m.offers,
                       providers=list(m.providers), as_of_min=m.as_of_min, as_of_max=m.as_of_max, fallback=m.fallback,
                       stale=m.stale, term_adjustment=adjust)
