"""What one GPU-hour of each GPU in the telemetry costs, and where that price comes from.

In order: the inventory row that names the GPU's host or uuid (the team's real price), the
price the user gave, and the catalog: a negotiated offer from the user's price sheet, else the
median on-demand list price of the catalog's offers for that card. A GPU left without a price
is an input error naming the card, so no cost figure is ever made up.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from advisor.catalog import get_catalog
from advisor.errors import AdvisorError, InputError
from advisor.findings import Assumption
from advisor.money import FxRate, convert


@dataclass(frozen=True)
class GpuPrice:
    price: float
    source: str


_PRICE_SOURCES = {"catalog": "source.price_per_gpu_hour.catalog", "your price sheet": "source.price_per_gpu_hour.user_sheet"}


def catalog_price(model: str | None, currency: str) -> tuple[float, str] | None:
    """(price per GPU-hour in ``currency``, its source) for a reported GPU name, or None."""
    if not model:
        return None
    try:
        cat = get_catalog()
        gpu = cat.gpu(model)
        offers = cat.offers(gpu=gpu.id, currency=currency)
    except (ImportError, AdvisorError):
        return None
    negotiated = [o for o in offers if o.negotiated and o.per_gpu_hour_for("on_demand") is not None]
    if negotiated:
        price = float(negotiated[0].per_gpu_hour_for("on_demand") or 0.0)
        return price, f"your price sheet: {negotiated[0].provider} {negotiated[0].sku} ({gpu.id})"
    listed = [float(p) for o in offers if (p := o.per_gpu_hour_for("on_demand")) is not None]
    if not listed:
        return None
    price = float(statistics.median(listed))
    return price, f"catalog: median on-demand list price of {len(listed)} {gpu.id} offers in {currency}"


def catalog_fx() -> FxRate | None:
    """The catalog's exchange rate; None without a catalog (currencies must then match)."""
    try:
        return get_catalog().fx
    except (ImportError, AdvisorError):
        return None


def resolve_prices(
    gpus: list[dict],
    inventory: list[dict],
    *,
    price_per_gpu_hour: float | None,
    currency: str,
) -> tuple[dict[int, GpuPrice], list[Assumption]]:
    """gid -> price for every telemetry GPU; raises InputError when a GPU has none."""
    by_name: dict[str, dict] = {}
    for row in inventory:
        by_name.setdefault(row["resource"], row)
    prices: dict[int, GpuPrice] = {}
    catalog_cache: dict[str | None, tuple[float, str] | None] = {}
    assumptions: dict[str, Assumption] = {}
    missing: list[str] = []
    for g in gpus:
        row = by_name.get(g["gpu_id"]) or by_name.get(g["instance"])  # type: ignore[assignment]
        if row is not None:
            amount = convert(row["price_per_gpu_hour"], row["currency"], currency, catalog_fx() if row["currency"] != currency else None)  # type: ignore[arg-type]
            prices[g["gid"]] = GpuPrice(amount, f"inventory row {row['row_no']} ({row['resource']})")
            continue
        if price_per_gpu_hour is not None:
            prices[g["gid"]] = GpuPrice(float(price_per_gpu_hour), "price_per_gpu_hour given")
            continue
        model = g.get("model")
        if model not in catalog_cache:
            catalog_cache[model] = catalog_price(model, currency)
        found = catalog_cache[model]
        if found is None:
            missing.append(model or f"{g['instance']}/{g['gpu_id']}")
            continue
        prices[g["gid"]] = GpuPrice(found[0], found[1])
        assumptions[str(model)] = Assumption(
            name=f"price_per_gpu_hour[{model}]", value=round(found[0], 4), source=found[1], unit=f"{currency} per GPU-hour",
            source_key=_PRICE_SOURCES.get(found[1].split(":")[0]),
        )
    if missing:
        raise InputError(
            "price_per_gpu_hour",
            None,
            f"a price per GPU-hour: no inventory row or catalog price for {sorted(set(missing))[0]}",
            hint="pass --price (and --currency) or an inventory CSV",
        )
    if price_per_gpu_hour is not None and any(p.source == "price_per_gpu_hour given" for p in prices.values()):
        assumptions["_given"] = Assumption(
            name="price_per_gpu_hour", value=float(price_per_gpu_hour), source="given in the request", unit=f"{currency} per GPU-hour"
        )
    return prices, list(assumptions.values())
