"""Actual spend into the ledger, from a FOCUS billing export or from a usage-analysis report.

- **FOCUS export** (CSV or Parquet): one ledger row per billing row, keyed by the export's row id
  (``Id``; a hash of the row's FOCUS fields when there is none). Rows already in the ledger are
  skipped, so the same export imported twice, or overlapping exports imported at once by many
  writers, never double.
- **Usage report** (the JSON of ``advisor usage FILES --json``): its chargeback lands in the
  ledger. A billing section gives one line per team/project of the analysed month (the report must
  cover one calendar month: its lines cannot be split by day); an inventory section gives each
  rented resource's cost split over the months it ran. These lines are keyed by what they describe
  (the month and owner of a billing line; the resource and month of an inventory line), and a newer
  report of the same thing replaces the amount instead of adding to it.

Billing rows are the finer record, so they win: a report's billing line is skipped when the ledger
already holds billing rows of that team, project, month and currency, and importing an export
removes the report lines its rows cover. Either order ends with each cost counted once.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

from sqlalchemy import delete, not_, or_, select

from advisor.errors import InputError
from advisor.ledger import db as T
from advisor.ledger.db import Ledger, insert_for, settings
from advisor.ledger.store import period_bounds, sum_by, utc_now
from advisor.money import normalize_currency
from advisor.progress import Progress, step
from advisor.safe_read import decode, read_bytes
from advisor.usage.defaults import load_defaults

UNTAGGED = "(untagged)"


@dataclass
class ImportResult:
    source: str
    kind: str  # "focus" | "usage_report"
    rows_read: int
    rows_added: int
    rows_already_there: int
    totals: dict[str, str]  # currency -> amount of the rows read
    rows_updated: int = 0  # usage-report lines whose amount a newer report replaced


def _month(t: datetime) -> str:
    return f"{t.year:04d}-{t.month:02d}"


def _hash(*parts: object) -> str:
    return hashlib.sha256(json.dumps([str(p) for p in parts]).encode("utf-8")).hexdigest()


def _row_key(row: dict[str, Any]) -> str:
    if row.get("row_id"):
        return f"id:{row['row_id']}"
    text = json.dumps({k: (str(v) if v is not None else None) for k, v in sorted(row.items())}, sort_keys=True)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------- readers

def is_usage_report(path: str | Path) -> bool:
    """A JSON file (by its first byte): the usage report; anything else goes to the FOCUS reader."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(64).lstrip(b"\xef\xbb\xbf \t\r\n")
    except OSError:
        return False
    return head[:1] == b"{"


def read_focus_rows(path: str | Path) -> list[dict[str, Any]]:
    """The rows of one FOCUS export, through the usage package's FOCUS reader."""
    # lazy: loads duckdb, pyarrow only when this runs (cold start)
    from advisor.usage.billing import owner_of
    from advisor.usage.detect import detect
    from advisor.usage.engine import Engine
    from advisor.usage.readers.focus import BILLING_TABLE, read_focus

    d = load_defaults()
    det = detect(path)
    if det.kind != "focus":
        raise InputError("file", str(path), "a FOCUS billing export (CSV or Parquet) or a usage report "
                         "(`advisor usage FILES --json`)")
    column = str(settings()["actual"]["cost_column"])
    team_keys, project_keys = list(d["chargeback.team_tag_keys"]), list(d["chargeback.project_tag_keys"])
    with Engine(memory_limit_gb=d.number("engine.memory_limit_gb"), threads=1) as engine:
        read_focus(engine, det, 0)
        staged = engine.rows(f"SELECT * EXCLUDE (src, bad), CAST({column} AS VARCHAR) AS amount_text FROM {BILLING_TABLE}")
    rows = []
    for r in staged:
        team, project, _ = owner_of(r["tags"], team_keys, project_keys) if r["tags"] else (None, None, False)
        start = datetime.fromtimestamp(float(r["start_t"]), UTC)
        amount = Decimal(r.pop("amount_text")).normalize()
        rows.append({"row_key": _row_key(r), "team": team or UNTAGGED, "project": project or UNTAGGED,
                     "period": _month(start), "amount": format(amount, "f"),
                     "currency": normalize_currency(r["currency"])})
    return rows


def _when(text: str | None, what: str, path: str) -> datetime:
    try:
        value = datetime.fromisoformat(str(text))
    except (TypeError, ValueError):
        raise InputError("file", path, f"a usage report with a readable {what} (found {text!r})") from None
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _money(value: float) -> str:
    return format(Decimal(repr(float(value))).normalize(), "f")


def read_usage_rows(path: str | Path) -> list[dict[str, Any]]:
    """The chargeback lines of one usage report (``advisor usage FILES --json``)."""
    # lazy: loads duckdb, pyarrow only when this runs (cold start)
    from advisor.usage.models import BillingSection, InventorySection

    where = str(path)
    try:
        data = json.loads(decode(read_bytes(path), where)[0])
    except json.JSONDecodeError as exc:
        raise InputError("file", where, f"a usage report in JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(data, dict) or not ({"billing", "inventory"} & data.keys()) or "inputs" not in data:
        raise InputError("file", where, "a usage report (`advisor usage FILES --json`) or a FOCUS export")
    from pydantic import ValidationError

    try:
        billing = BillingSection.model_validate(data["billing"]) if data.get("billing") else None
        inventory = InventorySection.model_validate(data["inventory"]) if data.get("inventory") else None
    except ValidationError as exc:
        raise InputError("file", where, f"a usage report made by `advisor usage --json` ({exc.errors()[0]['msg']})") from None
    if billing is None and inventory is None:
        raise InputError("file", where, "a usage report with a billing or inventory section (its chargeback)")
    rows: list[dict[str, Any]] = []
    if billing is not None and billing.by_team:
        start = _when(billing.period_start, "billing period start", where)
        end = _when(billing.period_end, "billing period end", where)
        if end > period_bounds(_month(start))[1] + timedelta(seconds=1):
            raise InputError("file", where, "a usage report of one calendar month (this one runs "
                             f"{start.date()} to {end.date()}): analyse one month at a time, or import the FOCUS export itself")
        period = _month(start)
        for line in billing.by_team:
            team, project = line.name or UNTAGGED, line.detail or UNTAGGED
            currency = normalize_currency(line.currency or billing.currency or "")
            rows.append({"row_key": "chargeback:" + _hash(period, team, project, currency), "team": team,
                         "project": project, "period": period, "amount": _money(line.effective_cost),
                         "currency": currency})
    if inventory is not None:
        for res in inventory.resources:
            start = _when(res.start, "resource start", where)
            hours = float(res.hours)
            end = start + timedelta(hours=hours)
            t, total = start, Decimal(repr(float(res.cost)))
            while t < end and hours > 0:
                stop = min(end, period_bounds(_month(t))[1])
                share = Decimal(repr((stop - t).total_seconds() / 3600 / hours))
                rows.append({"row_key": "inventory:" + _hash(res.resource, res.start, _month(t)),
                             "team": res.team or UNTAGGED, "project": res.project or UNTAGGED, "period": _month(t),
                             "amount": format((total * share).quantize(Decimal("0.000001")).normalize(), "f"),
                             "currency": normalize_currency(res.currency)})
                t = stop
    return rows


# ---------------------------------------------------------------- writing

CHARGEBACK = "chargeback:"
REPORT_KINDS = (CHARGEBACK, "inventory:")
Owner = tuple[str, str, str, str]  # team, project, period, currency


def _owner(r: dict[str, Any]) -> Owner:
    return (r["team"], r["project"], r["period"], r["currency"])


def _report_line(a: Any) -> Any:
    return or_(*(a.row_key.startswith(k) for k in REPORT_KINDS))


def _billed_owners(conn: Any, owners: set[Owner]) -> set[Owner]:
    """Which of ``owners`` already have billing rows (not report lines) in the ledger."""
    if not owners:
        return set()
    a = T.actual.c
    found = conn.execute(select(a.team, a.project, a.period, a.currency).distinct()
                         .where(not_(_report_line(a)), a.period.in_(sorted({o[2] for o in owners})))).all()
    return {(r[0], r[1], r[2], r[3]) for r in found} & owners


def _drop_report_lines(conn: Any, owners: set[Owner]) -> None:
    """Delete the chargeback lines of ``owners`` (their billing rows now carry the cost)."""
    if not owners:
        return
    a = T.actual.c
    lines = conn.execute(select(a.id, a.team, a.project, a.period, a.currency)
                         .where(a.row_key.startswith(CHARGEBACK), a.period.in_(sorted({o[2] for o in owners})))).all()
    ids = sorted(r[0] for r in lines if (r[1], r[2], r[3], r[4]) in owners)
    for i in range(0, len(ids), 500):
        conn.execute(delete(T.actual).where(a.id.in_(ids[i:i + 500])))


def _totals(rows: list[dict[str, Any]]) -> dict[str, str]:
    return {c: format(v, "f") for (c,), v in sorted(sum_by((r["currency"], r["amount"]) for r in rows).items())}


def _write(ledger: Ledger, rows: list[dict[str, Any]], source: str, *, replace: bool, batch: int,
           progress: Progress | None) -> tuple[int, int]:
    """Insert ``rows`` in one transaction, in key order (no deadlocks between writers); existing
    keys are skipped, or (``replace``) take the new amount. Returns (added, updated)."""
    rows = sorted(rows, key=lambda r: r["row_key"])
    now = utc_now()
    added = updated = 0
    with ledger.engine.begin() as conn:
        if replace:  # report lines: billing rows of the same owner and month already count this cost
            billed = _billed_owners(conn, {_owner(r) for r in rows if r["row_key"].startswith(CHARGEBACK)})
            rows = [r for r in rows if not (r["row_key"].startswith(CHARGEBACK) and _owner(r) in billed)]
        for i in range(0, len(rows), batch):
            chunk = [{**r, "source": source, "imported_at": now} for r in rows[i:i + batch]]
            if replace:
                keys = [r["row_key"] for r in chunk]
                before = dict(conn.execute(select(T.actual.c.row_key, T.actual.c.amount)
                                           .where(T.actual.c.row_key.in_(keys))).all())
                stmt = insert_for(ledger.engine, T.actual).values(chunk)
                stmt = stmt.on_conflict_do_update(index_elements=["row_key"], set_={
                    k: stmt.excluded[k] for k in ("amount", "currency", "team", "project", "period", "source", "imported_at")})
                conn.execute(stmt)
                added += sum(1 for r in chunk if r["row_key"] not in before)
                updated += sum(1 for r in chunk if r["row_key"] in before and Decimal(before[r["row_key"]]) != Decimal(r["amount"]))
            else:
                stmt = (insert_for(ledger.engine, T.actual).values(chunk)
                        .on_conflict_do_nothing(index_elements=["row_key"])
                        .returning(T.actual.c.id))  # the rows really inserted (rowcount is -1 on some drivers)
                added += len(conn.execute(stmt).all())
            done = min(i + batch, len(rows))
            step(progress, f"{done:,}/{len(rows):,} rows", done, len(rows))
        if not replace:  # billing rows replace the report lines that summed them
            _drop_report_lines(conn, {_owner(r) for r in rows})
    if not rows:
        step(progress, "0 rows", 0, 0)
    return added, updated


def import_focus(ledger: Ledger, path: str | Path, *, batch: int = 500, progress: Progress | None = None) -> ImportResult:
    """Import one FOCUS export; rows already in the ledger (same billing-row id) are skipped, so
    importing the same export twice, or overlapping exports at once, never doubles."""
    rows = read_focus_rows(path)
    added, _ = _write(ledger, rows, Path(path).name, replace=False, batch=batch, progress=progress)
    return ImportResult(source=Path(path).name, kind="focus", rows_read=len(rows), rows_added=added,
                        rows_already_there=len(rows) - added, totals=_totals(rows))


def import_usage_report(ledger: Ledger, path: str | Path, *, batch: int = 500,
                        progress: Progress | None = None) -> ImportResult:
    """Import a usage report's chargeback; a line already in the ledger takes the newer amount."""
    rows = read_usage_rows(path)
    added, updated = _write(ledger, rows, Path(path).name, replace=True, batch=batch, progress=progress)
    return ImportResult(source=Path(path).name, kind="usage_report", rows_read=len(rows), rows_added=added,
                        rows_already_there=len(rows) - added, rows_updated=updated, totals=_totals(rows))


def import_spend(ledger: Ledger, path: str | Path, *, progress: Progress | None = None) -> ImportResult:
    """``advisor budget import FILE``: a usage report (JSON) or a FOCUS export (CSV, Parquet)."""
    if is_usage_report(path):
        return import_usage_report(ledger, path, progress=progress)
    return import_focus(ledger, path, progress=progress)
