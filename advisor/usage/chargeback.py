"""Inventory analysis: what each rented resource cost, charged back to its team and project,
and which resources are billed with nothing to show for it.

A resource is *forgotten* when it is billed after its project ended (``project_end``), or when
telemetry was supplied for the period but none of it comes from that resource (billed with no
activity). Resources that do appear in telemetry are judged by their samples instead (idle
stretches and forgotten cards in :mod:`advisor.usage.fleet`), so nothing is counted twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.money import convert
from advisor.usage import queries as Q
from advisor.usage.engine import Engine
from advisor.usage.models import (
    ChargebackLine,
    ForgottenResource,
    InventoryResource,
    InventorySection,
)
from advisor.usage.values import iso


@dataclass
class InventoryNumbers:
    total_cost: float
    forgotten_cost: float
    forgotten_count: int
    after_project_end_cost: float
    no_telemetry_cost: float
    untagged_cost: float


def analyze_inventory(
    engine: Engine,
    *,
    as_of: float,
    telemetry_window: tuple[float, float] | None,
    currency: str,
    fx=None,  # type: ignore[no-untyped-def]
) -> tuple[InventorySection, InventoryNumbers] | None:
    """The inventory section in the report currency; None without an inventory."""
    tel_start, tel_end = telemetry_window or (0.0, 0.0)
    rows = engine.rows(Q.INVENTORY_RESOURCES, {"as_of": as_of, "tel_start": tel_start, "tel_end": tel_end})
    if not rows:
        return None
    resources: list[InventoryResource] = []
    forgotten: list[ForgottenResource] = []
    charge: dict[tuple[str, str], ChargebackLine] = {}
    untagged = 0.0
    for r in rows:
        price = convert(r["price_per_gpu_hour"], r["currency"], currency, fx if r["currency"] != currency else None)  # type: ignore[arg-type]
        gpu_hours = float(r["hours"]) * int(r["gpu_count"])
        cost = gpu_hours * price
        resources.append(
            InventoryResource(
                resource=r["resource"],
                gpu_type=r["gpu_type"],
                gpu_count=int(r["gpu_count"]),
                price_per_gpu_hour=price,
                currency=currency,
                team=r["team"],
                project=r["project"],
                start=iso(r["start_t"]) or "",
                end=iso(r["end_t"]),
                project_end=iso(r["project_end_t"]),
                hours=float(r["hours"]),
                gpu_hours=gpu_hours,
                cost=cost,
                telemetry_gpus=int(r["telemetry_gpus"]),
            )
        )
        key = (r["team"] or "(none)", r["project"] or "(none)")
        line = charge.setdefault(key, ChargebackLine(team=key[0], project=key[1], resources=0, gpu_hours=0.0, cost=0.0, currency=currency))
        line.resources += 1
        line.gpu_hours += gpu_hours
        line.cost += cost
        if not r["team"] and not r["project"]:
            untagged += cost
        if r["hours_after_project_end"] > 0:
            reason, hours = "after_project_end", float(r["hours_after_project_end"])
        elif telemetry_window is not None and int(r["telemetry_gpus"]) == 0 and r["hours_in_telemetry_window"] > 0:
            reason, hours = "no_telemetry", float(r["hours_in_telemetry_window"])
        else:
            continue
        forgotten.append(ForgottenResource(resource=r["resource"], reason=reason, hours=hours,
                                           cost=hours * int(r["gpu_count"]) * price, currency=currency))
    after_end, no_tel = (sum(f.cost for f in forgotten if f.reason == why) for why in ("after_project_end", "no_telemetry"))
    total = sum(x.cost for x in resources)
    section = InventorySection(
        as_of=iso(as_of) or "",
        resources=resources,
        chargeback=sorted(charge.values(), key=lambda c: (-c.cost, c.team, c.project)),
        forgotten=sorted(forgotten, key=lambda f: -f.cost),
        total_cost=total,
        currency=currency,
    )
    numbers = InventoryNumbers(
        total_cost=total,
        forgotten_cost=after_end + no_tel,
        forgotten_count=len(forgotten),
        after_project_end_cost=after_end,
        no_telemetry_cost=no_tel,
        untagged_cost=untagged,
    )
    return section, numbers
