"""Billing-export analysis: totals to the cent, breakdowns, chargeback, billed waste.

Sums are DECIMAL in SQL and only become floats for the report (the exact text is kept in
``exact_totals``). Chargeback reads team and project from the FOCUS ``Tags`` JSON with the key
lists of the usage defaults; distinct tag sets are few, so they are parsed here in Python and
joined back in SQL.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal

from advisor.usage import queries as Q
from advisor.usage.defaults import UsageDefaults
from advisor.usage.engine import Engine
from advisor.usage.models import BillingSection, CostLine, TrendPoint
from advisor.usage.values import day, iso


def _key(name: str) -> str:
    name = name.strip().lower()
    if name.startswith("user:"):
        name = name[5:]
    return re.sub(r"[\s_\-]", "", name)


def owner_of(tags: str, team_keys: list[str], project_keys: list[str]) -> tuple[str | None, str | None, bool]:
    """(team, project, parsed) from one Tags JSON text."""
    try:
        data = json.loads(tags)
    except (ValueError, TypeError):
        return None, None, False
    if not isinstance(data, dict):
        return None, None, False
    by_key = {_key(str(k)): v for k, v in data.items() if v not in (None, "")}

    def pick(keys: list[str]) -> str | None:
        for k in keys:
            v = by_key.get(_key(k))
            if v is not None:
                return str(v).strip()
        return None

    return pick(team_keys), pick(project_keys), True


def _stage_owners(engine: Engine, d: UsageDefaults) -> int:
    """Create ``tag_owner(tags, team, project)``; returns how many tag texts were not JSON."""
    import pyarrow as pa

    team_keys, project_keys = list(d["chargeback.team_tag_keys"]), list(d["chargeback.project_tag_keys"])
    tags = [r["tags"] for r in engine.rows(Q.BILLING_DISTINCT_TAGS)]
    owners = [owner_of(t, team_keys, project_keys) for t in tags]
    engine.load_arrow("tag_owner", pa.table({"tags": tags, "team": [o[0] for o in owners], "project": [o[1] for o in owners]},
                                           schema=pa.schema([(n, pa.string()) for n in ("tags", "team", "project")])))
    return sum(1 for o in owners if not o[2])


def _money(value: Decimal | None) -> float:
    return float(value) if value is not None else 0.0


def _line(r: dict, name: str, category: str | None = None, detail: str | None = None) -> CostLine:
    return CostLine(
        name=name,
        category=category,
        detail=detail,
        currency=r.get("currency"),
        rows=int(r["rows_n"]),
        billed_cost=_money(r["billed"]),
        effective_cost=_money(r["effective"]),
    )


def analyze_billing(engine: Engine, d: UsageDefaults) -> tuple[BillingSection, float, list[str]] | None:
    """The billing section, the end of its period (epoch seconds) and notes; None without billing rows."""
    totals = engine.rows(Q.BILLING_TOTALS)
    if not totals:
        return None
    notes: list[str] = []
    currencies = [str(r["currency"]) for r in totals]
    single = totals[0] if len(totals) == 1 else None
    if single is None:
        notes.append(f"the billing export mixes currencies ({', '.join(currencies)}): totals are given per currency only")
    not_json = _stage_owners(engine, d)
    if not_json:
        notes.append(f"{not_json} distinct Tags values are not JSON objects; their rows are charged to (untagged)")
    top = int(d.number("report.top_rows"))
    resources = engine.rows(Q.BILLING_BY_RESOURCE)
    by_resource = [_line(r, r["resource_id"], r["resource_type"], r["service_name"]) for r in resources[:top]]
    rest = resources[top:]
    if rest:
        for cur in sorted({r["currency"] for r in rest}):
            part = [r for r in rest if r["currency"] == cur]
            by_resource.append(
                CostLine(
                    name=f"({len(part)} other resources)",
                    currency=cur,
                    rows=sum(int(r["rows_n"]) for r in part),
                    billed_cost=float(sum(r["billed"] for r in part)),
                    effective_cost=float(sum(r["effective"] for r in part)),
                )
            )
    owners = engine.rows(Q.BILLING_BY_OWNER)
    unused = {r["currency"]: r for r in engine.rows(Q.BILLING_UNUSED_COMMITMENT)}
    storage = engine.rows(
        Q.BILLING_STORAGE_AFTER_COMPUTE, {"min_after_seconds": d.number("storage.after_compute_min_hours") * 3600}
    )
    steady = {r["currency"]: r for r in engine.rows(Q.BILLING_STEADY_ON_DEMAND, {"steady_coverage": d.number("billing.steady_coverage")})}
    trend = engine.rows(Q.BILLING_TREND)
    cur = single["currency"] if single else None
    storage_cost = sum(_money(r["effective"]) for r in storage if r["currency"] == cur) if cur else 0.0
    section = BillingSection(
        rows=int(sum(r["rows_n"] for r in totals)),
        currency=cur,
        currencies=currencies,
        total_billed_cost=_money(single["billed"]) if single else None,
        total_effective_cost=_money(single["effective"]) if single else None,
        total_list_cost=_money(single["list_cost"]) if single and single["list_cost"] is not None else None,
        exact_totals=(
            {"billed": _exact(single["billed"]), "effective": _exact(single["effective"])} if single else {}
        ),
        period_start=iso(min(r["start_t"] for r in totals)),
        period_end=iso(max(r["end_t"] for r in totals)),
        by_service=[_line(r, r["name"], r["category"]) for r in engine.rows(Q.BILLING_BY_SERVICE)],
        by_resource=by_resource,
        by_team=[_line(r, r["team"], detail=r["project"]) for r in owners],
        unused_commitment_cost=_money(unused[cur]["effective"]) if cur in unused else 0.0,
        storage_after_compute_cost=storage_cost,
        steady_on_demand_cost=_money(steady[cur]["effective"]) if cur in steady else 0.0,
        steady_on_demand_resources=int(steady[cur]["resources"]) if cur in steady else 0,
        trend=[
            TrendPoint(date=day(r["day"]), billed_cost=_money(r["billed"]), effective_cost=_money(r["effective"]))
            for r in trend
            if r["currency"] == cur or cur is None
        ],
    )
    return section, max(r["end_t"] for r in totals), notes


def _exact(value: Decimal | None) -> str:
    """Exact decimal text without the padding zeros of DECIMAL(38, 18)."""
    if value is None:
        return "0"
    text = format(value, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text
