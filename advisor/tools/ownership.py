"""Tool ``compare_own_vs_rent``: buy the cards or rent them? (REQUIREMENTS E4)

Owning (purchase, server and network share, depreciation to a resale value, maintenance,
failures, colocation, staff, power × PUE × electricity) against renting at the same
utilisation; the break-even utilisation; and, from a monthly demand profile, the hybrid plan
that owns the base and rents the peaks (advisor/engine/ownership.py).
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, Field, field_validator, model_validator

from advisor.catalog import get_catalog
from advisor.catalog.market import MARKET_FIELD_DOC, Market
from advisor.engine import ownership as own_mod
from advisor.engine.decisions_data import by_currency, card_value, decision_params
from advisor.engine.pricing import quote
from advisor.errors import InputError
from advisor.findings import Assumption, Finding
from advisor.money import CurrencyField
from advisor.numeric import ToolRequest, validated
from advisor.rules import evaluate_packs
from advisor.tools.facts import clean_facts
from advisor.units import HOURS_PER_MONTH, HOURS_PER_YEAR

OWN_PACKS: tuple[str, ...] = ("ownership",)


class OwnVsRentRequest(ToolRequest):
    """Cards to buy or rent, how busy they will be, and for how long."""

    gpu: str = Field(description="GPU name or alias, e.g. 'H100', 'A100', '4090'.")
    gpu_count: int = Field(8, description="Cards to own or rent.")
    utilization: float = Field(0.7, description="Share of the hours the cards will work (0-1).")
    years: float | None = Field(None, description="Horizon in years (default: the depreciation period).")
    currency: CurrencyField = Field("USD", description="USD or CNY.")
    hosting: Literal["colocation", "on_premises"] | None = Field(None, description="Where owned cards live.")
    purchase_price: float | None = Field(None, description="Price per card you were quoted (new, without server).")
    electricity_price: float | None = Field(None, description="Your electricity price per kWh.")
    pue: float | None = Field(None, description="Power usage effectiveness of the room (1.1-2.0).")
    staff_per_gpu_year: float | None = Field(None, description="Operations staff cost per card per year.")
    demand_profile: list[float] | None = Field(None, description="GPUs needed in each month, e.g. [64, 64, 256, 64].")
    base_gpus: float | None = Field(None, description="Steady base demand (with peak_gpus and peak_months).")
    peak_gpus: float | None = Field(None, description="Demand in the peak months.")
    peak_months: int = Field(3, description="Peak months in a year (with base_gpus and peak_gpus).")
    provider: str | None = Field(None, description="Rental price sheet provider, e.g. 'runpod', '腾讯云'.")
    price_per_gpu_hour: float | None = Field(None, description="Your on-demand rental price per GPU-hour, if known.")
    prices_file: str | None = Field(None, description="User price sheet (CSV) whose prices win.")
    market: Market | None = Field(None, description=MARKET_FIELD_DOC)
    lang: Literal["en", "zh"] = "en"

    @field_validator("demand_profile")
    @classmethod
    def _profile(cls, v: Any) -> Any:
        if v is not None and (not v or any(x < 0 for x in v) or max(v) <= 0):
            raise InputError("demand_profile", v, "GPUs per month, non-negative, at least one above 0")
        return v

    @model_validator(mode="after")
    def _peaks(self) -> OwnVsRentRequest:
        if (self.base_gpus is None) != (self.peak_gpus is None):
            raise InputError("peak_gpus" if self.peak_gpus is None else "base_gpus", None,
                             "base_gpus and peak_gpus together")
        if self.base_gpus is not None and not 0 <= self.base_gpus <= self.peak_gpus:  # type: ignore[operator]
            raise InputError("base_gpus", self.base_gpus, "a base between 0 and peak_gpus")
        return self


class CostLine(BaseModel):
    name: str = Field(description="Component key; words in knowledge/glossary.yaml own_component.<name>.")
    per_gpu_year: float


class Side(BaseModel):
    per_used_gpu_hour: float
    total: float = Field(description="All cards over the horizon.")
    mode: str | None = None


class HybridPlan(BaseModel):
    profile: list[float]
    owned_gpus: int
    owned_utilization: float
    rented_gpu_months: float
    total: float
    all_rent_total: float
    all_own_total: float
    saving_vs_all_rent: float
    saving_vs_all_own: float


class OwnVsRentReport(BaseModel):
    inputs: dict[str, Any]
    currency: str
    gpu: str
    gpu_count: int
    utilization: float
    years: float
    capex: float = Field(description="Cards, servers and network for all cards.")
    own_components: list[CostLine]
    own: Side
    rent: Side
    cheaper: Literal["own", "rent"]
    saving: float
    break_even_utilization: float | None = Field(description="Owning is no dearer per used hour from this utilisation on.")
    curve: list[dict[str, float]] = Field(description="Cost per used GPU-hour at 10%..100% utilisation, each way.")
    hybrid: HybridPlan | None = None
    assumptions: list[Assumption]
    findings: list[Finding] = Field(default_factory=list)


def compare_own_vs_rent(request: OwnVsRentRequest | None = None, **kwargs: Any) -> OwnVsRentReport:
    """Cost per used GPU-hour of owning and of renting, the break-even utilisation and the
    own-the-base, rent-the-peaks plan. Use when the user asks whether to buy GPUs or keep
    renting, what owning really costs (power, colocation, staff, depreciation), or how to mix
    owned base capacity with rented peaks ('买卡还是租卡', 'own 64 and rent the peaks')."""
    req: OwnVsRentRequest = validated(OwnVsRentRequest, request, kwargs)
    catalog = get_catalog(user_prices=req.prices_file)
    p = decision_params(catalog)
    gpu = catalog.gpu(req.gpu)
    cur = req.currency
    consumer = gpu.tier in ("consumer", "workstation")
    suffix = ".consumer" if consumer else ""
    if req.purchase_price is not None:
        card = req.purchase_price
        p.note(f"own.purchase_price.{gpu.id}", card, "request (quoted purchase price)", unit=f"{cur} per card")
    else:
        card, _ = card_value(p, "own.purchase_price", gpu, cur, what="a purchase price (give --purchase-price)",
                             flag="purchase_price")
    years = req.years or float(p("own.depreciation_years"))
    if req.years:
        p.note("own.years", years, "request (horizon)", unit="years")
    hosting = req.hosting or str(p("own.hosting_default"))
    kw_gpu = float(gpu.tdp_w) * float(p("own.server_power_factor")) / 1000
    pue = req.pue or float(p("energy.pue"))
    kwh = req.electricity_price or by_currency(p("energy.price_per_kwh"), cur, "energy.price_per_kwh")
    for name, given, unit in (("energy.pue", req.pue, ""), ("energy.price_per_kwh", req.electricity_price, f"{cur} per kWh"),
                              ("own.staff_per_gpu_year", req.staff_per_gpu_year, f"{cur} per GPU-year")):
        if given is not None:
            p.note(name, given, "request", unit=unit)
    colo = 0.0
    if hosting == "colocation":
        colo = kw_gpu * by_currency(p("own.colocation_per_kw_month"), cur, "colocation") * 12
    cost = own_mod.ownership_cost(
        card=card, server=by_currency(p(f"own.server_share_per_gpu{suffix}"), cur, "server"),
        network=by_currency(p(f"own.network_per_gpu{suffix}"), cur, "network"), years=years,
        depreciation_years=float(p("own.depreciation_years")), resale_share=float(p("own.resale_share")),
        maintenance_share=float(p("own.maintenance_share_per_year")),
        failure_rate=float(p("own.gpu_failure_rate_per_year")), warranty_years=float(p("own.warranty_years")),
        colocation_per_year=colo,
        staff_per_year=req.staff_per_gpu_year if req.staff_per_gpu_year is not None
        else by_currency(p("own.staff_per_gpu_year"), cur, "staff"),
        kw_active=kw_gpu * float(p("energy.utilization_power_share")), kw_idle=kw_gpu * float(p("own.idle_power_share")),
        pue=pue, price_kwh=kwh)
    q = quote(catalog, gpu.id, cur, p, provider=req.provider, price_per_gpu_hour=req.price_per_gpu_hour,
              market=req.market, lang=req.lang)
    monthly_rate = q.monthly  # per hour of the term
    u = req.utilization
    n = req.gpu_count
    own_hour = float(cost.per_used_hour(u))
    rent_hour = float(own_mod.rent_per_used_hour(q.on_demand, monthly_rate, u))
    used_hours = n * u * HOURS_PER_YEAR * years
    rent_mode = "on_demand" if q.on_demand <= monthly_rate / u else "monthly"
    grid = np.round(np.linspace(0.1, 1.0, 10), 2)
    curve = [{"utilization": float(g), "own": float(o), "rent": float(r)} for g, o, r in
             zip(grid, cost.per_used_hour(grid), own_mod.rent_per_used_hour(q.on_demand, monthly_rate, grid), strict=True)]
    energy_year = float(cost.per_year(u)) - cost.fixed_per_year
    lines = [CostLine(name=k, per_gpu_year=v) for k, v in cost.components.items()]
    lines.append(CostLine(name="energy", per_gpu_year=energy_year))
    report = OwnVsRentReport(
        inputs={**req.model_dump(exclude_none=True), "gpu": gpu.id, "years": years, "hosting": hosting},
        currency=cur, gpu=gpu.id, gpu_count=n, utilization=u, years=years, capex=cost.capex_per_gpu * n,
        own_components=lines, own=Side(per_used_gpu_hour=own_hour, total=own_hour * used_hours),
        rent=Side(per_used_gpu_hour=rent_hour, total=rent_hour * used_hours, mode=rent_mode),
        cheaper="own" if own_hour < rent_hour else "rent", saving=abs(rent_hour - own_hour) * used_hours,
        break_even_utilization=own_mod.break_even(cost, q.on_demand, monthly_rate), curve=curve, assumptions=[],
    )
    profile = _profile(req)
    if profile is not None:
        rent_month = min(monthly_rate, q.on_demand) * HOURS_PER_MONTH
        h = own_mod.hybrid_plan(profile, cost, rent_month, months=years * 12)
        report.hybrid = HybridPlan(profile=profile, owned_gpus=h.owned, owned_utilization=h.owned_utilization,
                                   rented_gpu_months=h.rented_gpu_months, total=h.total,
                                   all_rent_total=h.all_rent_total, all_own_total=h.all_own_total,
                                   saving_vs_all_rent=h.all_rent_total - h.total,
                                   saving_vs_all_own=h.all_own_total - h.total)
    p.note("own.capex_per_gpu", round(cost.capex_per_gpu, 2), "card + server share + network share", unit=cur)
    facts = {
        "currency": cur, "gpu": gpu.id, "gpu_count": n, "utilization": u, "own_per_used_gpu_hour": own_hour,
        "rent_per_used_gpu_hour": rent_hour, "own_cheaper": own_hour < rent_hour, "own_saving": report.saving,
        "break_even_utilization": report.break_even_utilization,
        "hybrid_owned_gpus": report.hybrid.owned_gpus if report.hybrid else None,
        "hybrid_saving_vs_all_rent": report.hybrid.saving_vs_all_rent if report.hybrid else None,
        "hybrid_saving_vs_all_own": report.hybrid.saving_vs_all_own if report.hybrid else None,
        "hybrid_peak_gpus": max(profile) if profile else None,
    }
    report.findings = evaluate_packs(OWN_PACKS, clean_facts(facts), lang=req.lang)
    report.assumptions = p.assumptions()
    return report


def _profile(req: OwnVsRentRequest) -> list[float] | None:
    if req.demand_profile is not None:
        return [float(x) for x in req.demand_profile]
    if req.base_gpus is None:
        return None
    return [float(req.peak_gpus)] * req.peak_months + [float(req.base_gpus)] * (12 - req.peak_months)  # type: ignore[arg-type]
