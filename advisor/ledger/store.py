"""What the ledger does: set budgets, save estimates (raising approvals), decide approvals,
import FOCUS spend idempotently, and compare budget with actual and planned spend."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from sqlalchemy import func, select

from advisor.catalog.defaults import load_fx
from advisor.config import catalog_dir
from advisor.errors import InputError
from advisor.findings import Assumption, sort_findings
from advisor.glossary import term
from advisor.ledger import db as T
from advisor.ledger.db import Ledger, insert_for, settings
from advisor.ledger.report import (
    ApprovalView,
    BudgetLine,
    BudgetStatusReport,
    LedgerTotals,
    OwnerSpend,
    TrailEntry,
)
from advisor.money import FxRate, normalize_currency
from advisor.rules import evaluate_packs

PERIOD_RE = re.compile(r"^(\d{4})-(0[1-9]|1[0-2])$")


def parse_owner(text: str) -> tuple[str, str]:
    """``"ml/llm-pretrain"`` -> (team, project)."""
    team, sep, project = str(text).strip().partition("/")
    if not sep or not team.strip() or not project.strip():
        raise InputError("team/project", text, "TEAM/PROJECT, e.g. ml-platform/llm-pretrain")
    return team.strip(), project.strip()


def parse_period(text: str) -> str:
    """A calendar month, ``YYYY-MM``."""
    value = str(text).strip()
    if not PERIOD_RE.match(value):
        raise InputError("period", text, "a month as YYYY-MM, e.g. 2026-12")
    return value


def parse_amount(text: str | float | Decimal, what: str = "amount") -> Decimal:
    try:
        value = Decimal(str(text).strip().replace(",", ""))
    except InvalidOperation:
        raise InputError(what, text, "a number, e.g. 50000") from None
    if not value.is_finite() or value < 0:
        raise InputError(what, text, "a finite amount of zero or more")
    return value


def parse_as_of(text: str) -> datetime:
    """An as-of date or time (``2026-12-20``, ``2026-12-20T12:00``); UTC unless it says otherwise."""
    try:
        value = datetime.fromisoformat(str(text).strip())
    except ValueError:
        raise InputError("as_of", text, "a date YYYY-MM-DD") from None
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def period_bounds(period: str) -> tuple[datetime, datetime]:
    """The first instants (UTC) of the month ``YYYY-MM`` and of the next one."""
    year, month = int(period[:4]), int(period[5:7])
    return datetime(year, month, 1, tzinfo=UTC), datetime(year + (month == 12), month % 12 + 1, 1, tzinfo=UTC)


def utc_now() -> datetime:
    return datetime.now(UTC)


def _fx() -> FxRate:
    return load_fx(catalog_dir() / "fx.yaml")


def to_currency(amount: Decimal, src: str, dst: str, rate: FxRate) -> Decimal:
    """Exact conversion with the dated rate (a Decimal twin of :func:`advisor.money.convert`)."""
    if src == dst:
        return amount
    r = Decimal(str(rate.rate))
    if (rate.base, rate.quote) == (src, dst):
        return amount * r
    if (rate.base, rate.quote) == (dst, src):
        return amount / r
    raise InputError("currency", f"{src}->{dst}", f"a rate between {src} and {dst}")


# ---------------------------------------------------------------- budgets

def set_budget(ledger: Ledger, owner: str, amount: str | float, period: str, currency: str = "USD") -> dict[str, Any]:
    team, project = parse_owner(owner)
    row = {"team": team, "project": project, "period": parse_period(period),
           "amount": str(parse_amount(amount)), "currency": normalize_currency(currency), "updated_at": utc_now()}
    stmt = insert_for(ledger.engine, T.budgets).values(**row)
    stmt = stmt.on_conflict_do_update(index_elements=["team", "project", "period"],
                                      set_={k: stmt.excluded[k] for k in ("amount", "currency", "updated_at")})
    with ledger.engine.begin() as conn:
        conn.execute(stmt)
    return {k: v for k, v in row.items() if k != "updated_at"}


# ---------------------------------------------------------------- planned spend and approvals

def estimate_total(report: dict[str, Any]) -> tuple[Decimal, str]:
    """(total, currency) of a saved report: ``cost.total`` or a top-level ``total``."""
    cost = report.get("cost") if isinstance(report.get("cost"), dict) else report
    if not isinstance(cost, dict) or "total" not in cost or "currency" not in cost:
        raise InputError("estimate JSON", "report", "a report with cost.total and cost.currency "
                         "(the output of `advisor estimate --json`)")
    return parse_amount(cost["total"], "estimate total"), normalize_currency(str(cost["currency"]))


def save_estimate(ledger: Ledger, owner: str, report: dict[str, Any], period: str, *, tool: str = "estimate_training_cost") -> dict[str, Any]:
    """Save a report as planned spend; raise an approval when it crosses the threshold."""
    team, project = parse_owner(owner)
    period = parse_period(period)
    total, currency = estimate_total(report)
    rule = settings()["approval"]
    limit_cur = normalize_currency(rule["currency"])
    limit = parse_amount(rule["threshold"], "approval threshold")
    in_limit_cur = to_currency(total, currency, limit_cur, _fx())
    now = utc_now()
    out: dict[str, Any] = {"team": team, "project": project, "period": period, "amount": str(total),
                           "currency": currency, "approval": None}
    with ledger.engine.begin() as conn:
        pid = conn.execute(T.planned.insert().values(
            team=team, project=project, period=period, amount=str(total), currency=currency, tool=tool,
            report_json=json.dumps(report, ensure_ascii=False, sort_keys=True), created_at=now).returning(T.planned.c.id)).scalar_one()
        out["planned_id"] = int(pid)
        if in_limit_cur > limit:
            reason = f"{total} {currency} is above the approval threshold {limit} {limit_cur} ({rule['source']})"
            aid = conn.execute(T.approvals.insert().values(planned_id=pid, status="pending", reason=reason,
                                                           created_at=now).returning(T.approvals.c.id)).scalar_one()
            conn.execute(T.approval_events.insert().values(approval_id=aid, status="pending", actor=None,
                                                           note=reason, at=now))
            out["approval"] = {"id": int(aid), "status": "pending", "reason": reason}
    return out


def approve(ledger: Ledger, approval_id: int, approver: str, note: str | None = None, *, reject: bool = False) -> ApprovalView:
    """Decide a pending approval; the decision is appended to its trail."""
    if not str(approver).strip():
        raise InputError("approver", approver, "the approver's name")
    status = "rejected" if reject else "approved"
    now = utc_now()
    with ledger.engine.begin() as conn:
        row = conn.execute(select(T.approvals).where(T.approvals.c.id == int(approval_id))).mappings().first()
        if row is None:
            raise InputError("approval id", approval_id, "the id of an approval (see `advisor budget status`)")
        if row["status"] != "pending":
            raise InputError("approval id", approval_id, f"a pending approval (this one is {row['status']})")
        conn.execute(T.approvals.update().where(T.approvals.c.id == row["id"]).values(
            status=status, approver=approver.strip(), note=note, decided_at=now))
        conn.execute(T.approval_events.insert().values(approval_id=row["id"], status=status, actor=approver.strip(),
                                                       note=note, at=now))
    return [a for a in list_approvals(ledger) if a.id == int(approval_id)][0]


def list_approvals(ledger: Ledger) -> list[ApprovalView]:
    a, p, e = T.approvals, T.planned, T.approval_events
    with ledger.engine.connect() as conn:
        rows = conn.execute(select(a, p.c.team, p.c.project, p.c.period, p.c.amount, p.c.currency)
                            .join(p, p.c.id == a.c.planned_id).order_by(a.c.id)).mappings().all()
        events = conn.execute(select(e).order_by(e.c.approval_id, e.c.id)).mappings().all()
    trail: dict[int, list[dict[str, Any]]] = {}
    for ev in events:
        trail.setdefault(ev["approval_id"], []).append(
            {"status": ev["status"], "actor": ev["actor"], "note": ev["note"], "at": _iso(ev["at"])})
    return [ApprovalView(id=r["id"], planned_id=r["planned_id"], team=r["team"], project=r["project"],
                         period=r["period"], amount=r["amount"], currency=r["currency"], status=r["status"],
                         approver=r["approver"], note=r["note"], reason=r["reason"], created_at=_iso(r["created_at"]),
                         decided_at=_iso(r["decided_at"]) if r["decided_at"] else None,
                         trail=[TrailEntry(**t) for t in trail.get(r["id"], [])])
            for r in rows]


def _iso(value: datetime) -> str:
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.isoformat(timespec="seconds")


# ---------------------------------------------------------------- budget versus actual

def sum_by(rows: Any) -> dict[Any, Decimal]:
    """The amounts (each row's last item) summed by the items before it."""
    out: dict[Any, Decimal] = {}
    for *key, amount in rows:
        out[tuple(key)] = out.get(tuple(key), Decimal(0)) + Decimal(amount)
    return out


def _q(value: Decimal) -> str:
    return format(value.quantize(Decimal("0.01")), "f")


def _matches(value: str, wanted: str | None) -> bool:
    return wanted is None or value.casefold() == wanted.strip().casefold()


def _budget_facts(line: BudgetLine, days: Decimal, planned: Decimal, spent: Decimal, budget: Decimal) -> dict[str, Any]:
    """The budget pack's facts of one line (``rules/facts/estimate.yaml``, budget-versus-actual)."""
    if budget <= 0:
        return {}
    return {
        "currency": line.currency, "owner": f"{line.team}/{line.project}", "budget": float(budget),
        "period_days": float(days), "period_left_share": round(1 - line.elapsed_share, 4),
        "days_left": line.days_left, "actual_spend": float(spent), "spent_share": float(spent / budget),
        "burn_rate_per_day": float(line.burn_rate_per_day), "forecast_spend": float(line.forecast),
        "forecast_ratio": float(Decimal(line.forecast) / budget), "planned_spend": float(planned),
        "committed_ratio": float((spent + planned) / budget),
    }


def status(ledger: Ledger, *, as_of: datetime | None = None, lang: str = "en", team: str | None = None,
           project: str | None = None, period: str | None = None) -> BudgetStatusReport:
    """Budget versus actual and planned spend for every budget (or those of ``team``/``project``/
    ``period``), with burn rate, forecast to period end and the budget rules' findings."""

    as_of = as_of or utc_now()
    if period is not None:
        period = parse_period(period)
    rate = _fx()
    with ledger.engine.connect() as conn:
        budgets = conn.execute(select(T.budgets).order_by(T.budgets.c.period, T.budgets.c.team, T.budgets.c.project)).mappings().all()
        spend, plans = (conn.execute(select(t.c.team, t.c.project, t.c.period, t.c.currency, t.c.amount)).all()
                        for t in (T.actual, T.planned))
        rows_n = conn.execute(select(func.count()).select_from(T.actual)).scalar_one()
    actual_by, planned_by = sum_by(spend), sum_by(plans)
    totals = sum_by((cur, amount) for *_, cur, amount in spend)

    def summed(src: dict[tuple[str, str, str, str], Decimal], b: Any) -> Decimal:
        return sum((to_currency(v, k[3], b["currency"], rate) for k, v in src.items()
                    if k[:3] == (b["team"], b["project"], b["period"])), Decimal(0))

    def wanted(t: str, pr: str, pe: str) -> bool:
        return _matches(t, team) and _matches(pr, project) and (period is None or pe == period)

    lines = []
    for b in budgets:
        if not wanted(b["team"], b["project"], b["period"]):
            continue
        start, end = period_bounds(b["period"])
        days = Decimal((end - start).days)
        elapsed = Decimal(max(0.0, min((as_of - start).total_seconds(), (end - start).total_seconds())) / 86400)
        budget = Decimal(b["amount"])
        spent = summed(actual_by, b)
        planned = summed(planned_by, b)
        burn = spent / elapsed if elapsed > 0 else Decimal(0)
        forecast = spent + burn * (days - elapsed)
        line = BudgetLine(
            team=b["team"], project=b["project"], period=b["period"], currency=b["currency"], budget=_q(budget),
            actual=_q(spent), planned=_q(planned), remaining=_q(budget - spent),
            spent_share=round(float(spent / budget), 4) if budget else 0.0,
            elapsed_share=round(float(elapsed / days), 4), days_left=round(float(days - elapsed), 2),
            burn_rate_per_day=_q(burn), forecast=_q(forecast), forecast_over=forecast > budget)
        facts = _budget_facts(line, days, planned, spent, budget)
        line.findings = evaluate_packs(["budget"], facts, lang=lang) if facts else []
        lines.append(line)
    approval = settings()["approval"]
    actual_cfg = settings()["actual"]
    return BudgetStatusReport(
        inputs={"as_of": _iso(as_of), "team": team, "project": project, "period": period, "lang": lang},
        as_of=_iso(as_of),
        backend=ledger.dialect,
        budgets=lines,
        actual_by_owner=[OwnerSpend(team=k[0], project=k[1], period=k[2], currency=k[3], actual=format(v, "f"))
                         for k, v in sorted(actual_by.items()) if wanted(*k[:3])],
        approvals=[a for a in list_approvals(ledger) if wanted(a.team, a.project, a.period)],
        totals=LedgerTotals(actual={c: format(v, "f") for (c,), v in sorted(totals.items())}, actual_rows=int(rows_n)),
        findings=sort_findings([f for line in lines for f in line.findings]),
        assumptions=[
            Assumption(name="fx.rate", value=f"1 {rate.base} = {rate.rate} {rate.quote} ({rate.as_of})", source=rate.source),
            Assumption(name="approval.threshold", value=f"{approval['threshold']} {approval['currency']}",
                       source=str(approval["source"])),
            Assumption(name="actual.cost_column", value=actual_cfg["cost_column"], source=str(actual_cfg["source"])),
            Assumption(name="forecast", value=term("value.forecast_method", lang), source="straight-line burn rate"),
        ],
    )
