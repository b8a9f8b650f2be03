"""Owning cards against renting them (REQUIREMENTS E4): cost per used GPU-hour each way, the
break-even utilisation, and the hybrid plan for a monthly demand profile (own the base, rent
the peaks).

Owning one card for a year costs a fixed part (straight-line depreciation to the resale value,
maintenance, failure replacement, colocation, staff) plus energy: an active card draws
``tdp × server_power_factor × utilization_power_share`` and an idle one ``× idle_power_share``,
both times PUE and the electricity price. Per used hour, at utilisation ``u``:

    own(u) = (fixed + idle_energy_per_year × (1 - u)) / (8760 u) + active_energy_per_hour

which never rises with ``u``. Renting pays on-demand per used hour or a term for every hour:
``rent(u) = min(on_demand, monthly / u)``. Everything sweeps over numpy arrays.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from advisor.engine.decisions_data import LayeredDefaults, by_currency, decision_defaults
from advisor.units import HOURS_PER_MONTH, HOURS_PER_YEAR


@dataclass(frozen=True)
class OwnCost:
    """One card's cost of ownership, per year, by component, plus energy per hour."""

    components: dict[str, float]  # fixed yearly amounts per GPU
    active_energy_per_hour: float
    idle_energy_per_hour: float
    capex_per_gpu: float
    notes: dict[str, str] = field(default_factory=dict)

    @property
    def fixed_per_year(self) -> float:
        return float(sum(self.components.values()))

    def per_used_hour(self, utilization: Any) -> np.ndarray:
        u = np.clip(np.asarray(utilization, dtype=float), 1e-9, 1.0)
        idle_year = self.idle_energy_per_hour * HOURS_PER_YEAR
        return (self.fixed_per_year + idle_year * (1 - u)) / (HOURS_PER_YEAR * u) + self.active_energy_per_hour

    def per_year(self, utilization: Any) -> np.ndarray:
        u = np.clip(np.asarray(utilization, dtype=float), 0.0, 1.0)
        return self.fixed_per_year + HOURS_PER_YEAR * (u * self.active_energy_per_hour
                                                         + (1 - u) * self.idle_energy_per_hour)


def ownership_cost(*, card: float, server: float, network: float, years: float, depreciation_years: float,
                   resale_share: float, maintenance_share: float, failure_rate: float, warranty_years: float,
                   colocation_per_year: float,
                   staff_per_year: float, kw_active: float, kw_idle: float, pue: float, price_kwh: float) -> OwnCost:
    capex = card + server + network
    kept = max(resale_share, 1 - (1 - resale_share) * min(years / depreciation_years, 1.0))
    components = {
        "depreciation": capex * (1 - kept) / years,
        "maintenance": capex * maintenance_share,
        "failures": card * failure_rate * max(years - warranty_years, 0.0) / years,  # after the warranty
        "colocation": colocation_per_year,
        "staff": staff_per_year,
    }
    return OwnCost(components=components, active_energy_per_hour=kw_active * pue * price_kwh,
                   idle_energy_per_hour=kw_idle * pue * price_kwh, capex_per_gpu=capex,
                   notes={"resale_value_share": f"{kept:.3f}"})


def rent_per_used_hour(on_demand: float, monthly: float, utilization: Any) -> np.ndarray:
    """The cheaper of paying per used hour and paying a monthly term for every hour."""
    u = np.clip(np.asarray(utilization, dtype=float), 1e-9, 1.0)
    return np.minimum(on_demand, monthly / u)


def break_even(own: OwnCost, on_demand: float, monthly: float, grid: int = 2001) -> float | None:
    """The smallest utilisation at which owning is no dearer per used hour than renting."""
    u = np.linspace(0.0005, 1.0, grid)
    cheaper = own.per_used_hour(u) <= rent_per_used_hour(on_demand, monthly, u)
    return float(u[np.argmax(cheaper)]) if cheaper.any() else None


@dataclass(frozen=True)
class Hybrid:
    owned: int
    total: float
    own_part: float
    rent_part: float
    rented_gpu_months: float
    all_rent_total: float
    all_own_total: float
    owned_utilization: float


def hybrid_plan(profile: Any, own: OwnCost, rent_month_per_gpu: float, *, duty: float = 1.0,
                months: float | None = None) -> Hybrid:
    """Own ``k`` cards and rent the demand above ``k`` month by month; ``k`` minimises the total.

    ``profile``: GPUs needed in each month (repeated to ``months``); ``duty``: share of each month
    a needed card works; ``rent_month_per_gpu``: a rented card-month (the cheaper of the term and
    on-demand for the duty)."""
    d = np.asarray(profile, dtype=float)
    reps = (months or len(d)) / len(d)
    k = np.arange(0, int(np.ceil(d.max())) + 1, dtype=float)[:, None]
    owned_busy = np.minimum(d[None, :], k) * duty  # card-months of work on owned cards
    rented = np.maximum(d[None, :] - k, 0.0)
    own_fixed = k[:, 0] * own.fixed_per_year / 12 * len(d)
    energy = (owned_busy.sum(axis=1) * own.active_energy_per_hour
              + (k[:, 0] * len(d) - owned_busy.sum(axis=1)) * own.idle_energy_per_hour) * HOURS_PER_MONTH
    own_part = (own_fixed + energy) * reps
    rent_part = rented.sum(axis=1) * rent_month_per_gpu * reps
    total = own_part + rent_part
    best = int(np.argmin(total))
    util = float(owned_busy[best].sum() / (k[best, 0] * len(d))) if k[best, 0] else 0.0
    return Hybrid(owned=int(k[best, 0]), total=float(total[best]), own_part=float(own_part[best]),
                  rent_part=float(rent_part[best]), rented_gpu_months=float(rented[best].sum() * reps),
                  all_rent_total=float(total[0]), all_own_total=float(total[-1]), owned_utilization=util)


def owned_gpu_hour(gpu: Any, currency: str, hosting: str, p: Any) -> tuple[float, str] | None:
    """What one used GPU-hour of a card you own costs before electricity (billed as its own
    component), at ``own.assumed_utilization``; None when no purchase price is on file.
    ``hosting``: ``colocation`` pays the rack fee, ``owned`` (your own room) does not."""

    data = LayeredDefaults(decision_defaults())
    key = f"own.purchase_price.{gpu.id}"
    if key not in data:
        return None

    def v(name: str) -> Any:
        entry = data.get(name)
        p.note(name, entry.value, entry.source, unit=entry.unit, key=f"source.{name}")
        return entry.value

    suffix = ".consumer" if gpu.tier in ("consumer", "workstation") else ""
    kw = float(gpu.tdp_w) * float(v("own.server_power_factor")) / 1000
    colo = kw * by_currency(v("own.colocation_per_kw_month"), currency, "colocation") * 12 if hosting == "colocation" else 0.0
    years = float(v("own.depreciation_years"))
    cost = ownership_cost(
        card=by_currency(v(key), currency, key), server=by_currency(v(f"own.server_share_per_gpu{suffix}"), currency, "server"),
        network=by_currency(v(f"own.network_per_gpu{suffix}"), currency, "network"), years=years,
        depreciation_years=years, resale_share=float(v("own.resale_share")),
        maintenance_share=float(v("own.maintenance_share_per_year")), failure_rate=float(v("own.gpu_failure_rate_per_year")),
        warranty_years=float(v("own.warranty_years")), colocation_per_year=colo,
        staff_per_year=by_currency(v("own.staff_per_gpu_year"), currency, "staff"), kw_active=0.0,
        kw_idle=0.0, pue=1.0, price_kwh=0.0)
    u = float(v("own.assumed_utilization"))
    return float(cost.per_used_hour(u)), f"ownership cost per used GPU-hour at {u:.0%} utilisation, electricity apart"
