"""The ledger as a team uses it: budgets, planned spend and approvals, FOCUS imports."""

from __future__ import annotations

import csv
import threading
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import pytest

from advisor.catalog.defaults import load_fx
from advisor.config import catalog_dir
from advisor.errors import InputError
from advisor.ledger import (
    Ledger,
    approve,
    import_focus,
    open_ledger,
    save_estimate,
    set_budget,
    status,
)
from advisor.ledger.db import settings
from tests.ledger.conftest import SAMPLE, write_focus


def _sample_rows() -> list[dict[str, str]]:
    with SAMPLE.open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _exact_sum(rows: list[dict[str, str]]) -> Decimal:
    return sum((Decimal(r["EffectiveCost"]) for r in rows), Decimal(0))


def test_budget_versus_actual_matches_a_hand_computed_case(ledger: Ledger, tmp_path: Path) -> None:
    tag = {"team": "ml", "project": "pretrain"}
    export = write_focus(tmp_path / "sept.csv", [
        {"id": "a1", "cost": "10.00", "start": "2024-09-02T00:00:00Z", "tags": tag},
        {"id": "a2", "cost": "4.00", "start": "2024-09-05T00:00:00Z", "tags": tag},
        {"id": "a3", "cost": "7.00", "start": "2024-09-05T00:00:00Z", "tags": {"team": "ml", "project": "other"}},
        {"id": "a4", "cost": "3.00", "start": "2024-10-01T00:00:00Z", "tags": tag},  # next month
        {"id": "a5", "cost": "5.00", "start": "2024-09-06T00:00:00Z", "tags": None},  # untagged
    ])
    import_focus(ledger, export)
    set_budget(ledger, "ml/pretrain", "1000", "2024-09", "CNY")
    set_budget(ledger, "ml/pretrain", "500", "2024-09", "USD")  # same key: replaces, no second row
    set_budget(ledger, "ml/pretrain", "1000", "2024-09", "人民币")
    save_estimate(ledger, "ml/pretrain", {"cost": {"total": 2.0, "currency": "USD"}}, "2024-09")
    report = status(ledger, as_of=datetime(2024, 9, 11, tzinfo=UTC)).model_dump(mode="json")  # 10 of 30 days elapsed
    [line] = report["budgets"]
    rate = Decimal(str(load_fx(catalog_dir() / "fx.yaml").rate))  # CNY per USD
    actual = Decimal("14.00") * rate
    assert line["currency"] == "CNY" and line["budget"] == "1000.00"
    assert Decimal(line["actual"]) == actual.quantize(Decimal("0.01"))
    assert Decimal(line["planned"]) == (2 * rate).quantize(Decimal("0.01"))
    assert Decimal(line["burn_rate_per_day"]) == (actual / 10).quantize(Decimal("0.01"))
    assert Decimal(line["forecast"]) == (actual + actual / 10 * 20).quantize(Decimal("0.01"))
    assert line["elapsed_share"] == pytest.approx(1 / 3, abs=1e-4)
    assert line["forecast_over"] is False
    assert report["totals"]["actual"] == {"USD": "29"}  # every imported row, in the export's currency
    owners = {(o["team"], o["project"], o["period"]): o["actual"] for o in report["actual_by_owner"]}
    assert owners[("(untagged)", "(untagged)", "2024-09")] == "5"
    assert owners[("ml", "pretrain", "2024-10")] == "3"


def test_estimate_over_the_threshold_raises_an_approval_with_a_trail(ledger: Ledger) -> None:
    rule = settings()["approval"]
    limit = Decimal(str(rule["threshold"]))
    assert rule["currency"] == "USD"
    rate = Decimal(str(load_fx(catalog_dir() / "fx.yaml").rate))
    under = save_estimate(ledger, "ml/ft", {"cost": {"total": float(limit) * 0.9, "currency": "USD"}}, "2026-12")
    assert under["approval"] is None
    over = save_estimate(ledger, "ml/ft", {"cost": {"total": float(limit) * 1.1, "currency": "USD"}}, "2026-12")
    assert over["approval"]["status"] == "pending"
    # the threshold applies in the other currency at the dated rate
    cny_over = save_estimate(ledger, "ml/ft", {"cost": {"total": float(limit * rate) * 1.05, "currency": "CNY"}}, "2026-12")
    cny_under = save_estimate(ledger, "ml/ft", {"cost": {"total": float(limit * rate) * 0.95, "currency": "CNY"}}, "2026-12")
    assert cny_over["approval"] is not None and cny_under["approval"] is None
    view = approve(ledger, over["approval"]["id"], "Li Wei", "fits the Q4 plan")
    assert (view.status, view.approver, view.note) == ("approved", "Li Wei", "fits the Q4 plan")
    assert [e.status for e in view.trail] == ["pending", "approved"]
    with pytest.raises(InputError, match="pending"):
        approve(ledger, over["approval"]["id"], "Someone else")
    rejected = approve(ledger, cny_over["approval"]["id"], "Wang Fang", "too early", reject=True)
    assert rejected.status == "rejected"
    pending = [a for a in status(ledger).approvals if a.status == "pending"]
    assert pending == []


def test_importing_the_same_export_twice_changes_nothing(ledger: Ledger) -> None:
    rows = _sample_rows()
    first = import_focus(ledger, SAMPLE)
    again = import_focus(ledger, SAMPLE)
    assert (first.rows_read, first.rows_added) == (len(rows), len(rows))
    assert (again.rows_added, again.rows_already_there) == (0, len(rows))
    totals = status(ledger).totals
    assert totals.actual_rows == len(rows)
    assert Decimal(totals.actual["USD"]) == _exact_sum(rows)


def test_sixteen_concurrent_writers_with_overlapping_exports_end_exact(ledger: Ledger, tmp_path: Path) -> None:
    rows = _sample_rows()
    header = list(rows[0].keys())
    paths = []
    for i in range(16):  # each export overlaps its neighbours: rows [60 i, 60 i + 150)
        part = rows[60 * i: 60 * i + 150]
        path = tmp_path / f"export_{i:02d}.csv"
        with path.open("w", newline="", encoding="utf-8") as fh:
            out = csv.DictWriter(fh, fieldnames=header)
            out.writeheader()
            out.writerows(part)
        paths.append(path)
    covered = {r["Id"]: r for p in range(16) for r in rows[60 * p: 60 * p + 150]}
    errors: list[BaseException] = []
    barrier = threading.Barrier(16)

    def writer(path: Path) -> None:
        own = open_ledger()  # each writer has its own engine and connections
        try:
            barrier.wait()
            import_focus(own, path, batch=40)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            own.engine.dispose()

    threads = [threading.Thread(target=writer, args=(p,)) for p in paths]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    totals = status(ledger).totals
    assert totals.actual_rows == len(covered)
    assert Decimal(totals.actual["USD"]) == _exact_sum(list(covered.values()))


@pytest.mark.parametrize("owner, period, amount, currency", [
    ("no-slash", "2026-12", "10", "USD"),
    ("team/", "2026-12", "10", "USD"),
    ("ml/x", "2026-13", "10", "USD"),
    ("ml/x", "Dec 2026", "10", "USD"),
    ("ml/x", "2026-12", "-5", "USD"),
    ("ml/x", "2026-12", "lots", "USD"),
    ("ml/x", "2026-12", "10", "EUR"),
])
def test_bad_budget_input_is_refused(ledger: Ledger, owner: str, period: str, amount: str, currency: str) -> None:
    with pytest.raises(InputError):
        set_budget(ledger, owner, amount, period, currency)
