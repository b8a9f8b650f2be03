"""Actual spend from usage reports (the chargeback of `advisor usage --json`) next to FOCUS
exports: each cost counts once, in whichever order and however often they are imported."""

from __future__ import annotations

import csv
import json
from decimal import Decimal
from pathlib import Path

import pytest

from advisor import tools
from advisor.cli import main
from advisor.errors import InputError
from advisor.ledger import Ledger, import_focus, import_spend, status
from tests.ledger.conftest import SAMPLE, write_focus


def _exact_sum(path: Path) -> Decimal:
    with path.open(encoding="utf-8") as fh:
        return sum((Decimal(r["EffectiveCost"]) for r in csv.DictReader(fh)), Decimal(0))


def usage_report(files: list[Path], out: Path, **args: object) -> Path:
    report = tools.analyze_usage(files=[str(f) for f in files], **args)
    out.write_text(report.model_dump_json(), encoding="utf-8")
    return out


def _by_owner(ledger: Ledger) -> dict[tuple[str, str, str], Decimal]:
    return {(o.team, o.project, o.period): Decimal(o.actual) for o in status(ledger).actual_by_owner}


@pytest.mark.parametrize("order", ["report first", "export first"])
def test_a_report_and_its_export_count_the_spend_once(ledger: Ledger, tmp_path: Path, order: str) -> None:
    report = usage_report([SAMPLE], tmp_path / "usage.json")
    steps = [report, SAMPLE] if order == "report first" else [SAMPLE, report]
    for path in [*steps, *steps]:  # each twice
        import_spend(ledger, path)
    totals = status(ledger).totals
    assert Decimal(totals.actual["USD"]) == _exact_sum(SAMPLE)
    assert totals.actual_rows == 1000  # the billing rows, no report lines left beside them


def test_a_report_alone_lands_its_chargeback_by_team_and_project(ledger: Ledger, tmp_path: Path) -> None:
    tag = {"team": "ml", "project": "pretrain"}
    export = write_focus(tmp_path / "sept.csv", [
        {"id": "r1", "cost": "10.25", "start": "2024-09-02T00:00:00Z", "tags": tag},
        {"id": "r2", "cost": "4.50", "start": "2024-09-05T00:00:00Z", "tags": tag},
        {"id": "r3", "cost": "7.00", "start": "2024-09-06T00:00:00Z", "tags": {"team": "search", "project": "rank"}},
        {"id": "r4", "cost": "1.00", "start": "2024-09-07T00:00:00Z", "tags": None},
    ])
    report = usage_report([export], tmp_path / "usage.json")
    first = import_spend(ledger, report)
    again = import_spend(ledger, report)
    assert (first.kind, first.rows_added, again.rows_added, again.rows_already_there) == ("usage_report", 3, 0, 3)
    assert _by_owner(ledger) == {("ml", "pretrain", "2024-09"): Decimal("14.75"), ("search", "rank", "2024-09"): Decimal("7"),
                                 ("(untagged)", "(untagged)", "2024-09"): Decimal("1")}


def test_a_newer_report_of_the_same_month_replaces_the_amount(ledger: Ledger, tmp_path: Path) -> None:
    tag = {"team": "ml", "project": "pretrain"}
    rows = [{"id": "r1", "cost": "10", "start": "2024-09-02T00:00:00Z", "tags": tag}]
    early = usage_report([write_focus(tmp_path / "a.csv", rows)], tmp_path / "early.json")
    rows.append({"id": "r2", "cost": "5", "start": "2024-09-20T00:00:00Z", "tags": tag})
    later = usage_report([write_focus(tmp_path / "b.csv", rows)], tmp_path / "later.json")
    import_spend(ledger, early)
    result = import_spend(ledger, later)
    assert (result.rows_added, result.rows_updated) == (0, 1)
    assert _by_owner(ledger) == {("ml", "pretrain", "2024-09"): Decimal("15")}


def test_a_report_over_several_months_is_refused(ledger: Ledger, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tag = {"team": "ml", "project": "pretrain"}
    export = write_focus(tmp_path / "q3.csv", [
        {"id": "r1", "cost": "10", "start": "2024-08-02T00:00:00Z", "tags": tag},
        {"id": "r2", "cost": "5", "start": "2024-09-20T00:00:00Z", "tags": tag},
    ])
    report = usage_report([export], tmp_path / "q3.json")
    with pytest.raises(InputError, match="one calendar month"):
        import_spend(ledger, report)
    import_focus(ledger, export)  # the export itself splits by month
    assert _by_owner(ledger) == {("ml", "pretrain", "2024-08"): Decimal("10"), ("ml", "pretrain", "2024-09"): Decimal("5")}
    assert main(["budget", "import", str(report)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_an_inventory_report_splits_each_resource_over_its_months(ledger: Ledger, tmp_path: Path) -> None:
    inventory = tmp_path / "inventory.csv"
    inventory.write_text("resource,gpu_type,gpu_count,price_per_gpu_hour,currency,team,project,start,end\n"
                         "node-1,A100,8,2.0,USD,ml,pretrain,2024-09-30T00:00:00,2024-10-01T12:00:00\n"
                         "node-2,A100,1,3.0,USD,search,rank,2024-10-02T00:00:00,2024-10-02T10:00:00\n",
                         encoding="utf-8")
    report = usage_report([inventory], tmp_path / "inv.json", as_of="2024-10-05")
    import_spend(ledger, report)
    import_spend(ledger, report)
    # node-1: 36 h x 8 GPUs x 2.00 = 576, 24 h in September and 12 h in October; node-2: 10 h x 3.00
    assert _by_owner(ledger) == {("ml", "pretrain", "2024-09"): Decimal("384"), ("ml", "pretrain", "2024-10"): Decimal("192"),
                                 ("search", "rank", "2024-10"): Decimal("30")}


@pytest.mark.parametrize("text", ["{not json", json.dumps({"cost": {"total": 1}}), json.dumps([1, 2])])
def test_json_that_is_not_a_usage_report_is_refused(ledger: Ledger, tmp_path: Path, text: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "x.json"
    path.write_text(text, encoding="utf-8")
    assert main(["budget", "import", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_progress_reports_every_row(ledger: Ledger) -> None:
    seen: list[tuple[float | None, float | None]] = []
    import_spend(ledger, SAMPLE, progress=lambda m: seen.append((getattr(m, "done", None), getattr(m, "total", None))))
    assert seen[-1] == (1000, 1000) and [d for d, _ in seen] == sorted(d for d, _ in seen)
