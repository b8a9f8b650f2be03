"""``advisor budget`` end to end on a temporary SQLite ledger."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from advisor.cli import main
from tests.ledger.conftest import SAMPLE


def run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_flow(ledger: object, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, ["budget", "set", "Madison/BlueAssetEdge", "50000", "--period", "2024-09", "--currency", "CNY"])
    assert code == 0 and "50000" in out
    for _ in range(2):
        code, out, _ = run(capsys, ["budget", "import", str(SAMPLE), "--json"])
        assert code == 0
    assert json.loads(out)["rows_added"] == 0
    estimate = tmp_path / "est.json"
    estimate.write_text(json.dumps({"cost": {"total": 250000, "currency": "CNY", "low": 1, "high": 2}}), encoding="utf-8")
    code, out, _ = run(capsys, ["budget", "save-estimate", "Madison/BlueAssetEdge", "--estimate-json", str(estimate),
                                "--period", "2024-09", "--json"])
    approval = json.loads(out)["approval"]
    assert code == 0 and approval["status"] == "pending"
    code, out, _ = run(capsys, ["budget", "approve", str(approval["id"]), "--approver", "Zhang", "--note", "ok"])
    assert code == 0 and "Zhang" in out
    code, out, _ = run(capsys, ["budget", "status", "--json", "--as-of", "2024-10-01"])
    report = json.loads(out)
    assert code == 0
    assert Decimal(report["totals"]["actual"]["USD"]) > 0 and report["totals"]["actual_rows"] == 1000
    [line] = report["budgets"]
    assert line["currency"] == "CNY" and Decimal(line["planned"]) == Decimal("250000.00")
    code, out, _ = run(capsys, ["budget", "status"])
    assert code == 0 and "Budget versus actual" in out and "Madison/BlueAssetEdge" in out
    code, out, _ = run(capsys, ["budget", "status", "--lang", "zh"])
    assert code == 0 and "预算与实际" in out and "已批准" in out


@pytest.mark.parametrize("argv", [
    ["budget", "set", "noslash", "10", "--period", "2026-12"],
    ["budget", "set", "a/b", "10", "--period", "12/2026"],
    ["budget", "set", "a/b", "ten", "--period", "2026-12"],
    ["budget", "import", "/nonexistent/export.csv"],
    ["budget", "approve", "99", "--approver", "x"],
    ["budget", "status", "--as-of", "tomorrow"],
    ["budget", "save-estimate", "a/b", "--estimate-json", "/nonexistent.json", "--period", "2026-12"],
])
def test_bad_input_exits_2_with_one_line(ledger: object, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = run(capsys, argv)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_bad_estimate_json_exits_2(ledger: object, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for text in ("{not json", "[1, 2]", json.dumps({"summary": "no cost"})):
        path = tmp_path / "bad.json"
        path.write_text(text, encoding="utf-8")
        code, _, err = run(capsys, ["budget", "save-estimate", "a/b", "--estimate-json", str(path), "--period", "2026-12"])
        assert code == 2 and len(err.strip().splitlines()) == 1


def test_default_database_is_in_the_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from advisor.ledger import database_url

    monkeypatch.delenv("ADVISOR_DATABASE_URL", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert database_url() == f"sqlite:///{tmp_path / 'compute-cost-advisor' / 'ledger.db'}"


def test_status_prints_the_budget_rules_in_the_asked_language(ledger: object, capsys: pytest.CaptureFixture[str]) -> None:
    # The sample's PeoriaData/BrightPathMatrix spends 16 USD in September 2024: far over a 20 CNY budget.
    assert run(capsys, ["budget", "set", "PeoriaData/BrightPathMatrix", "20", "--period", "2024-09", "--currency", "CNY"])[0] == 0
    assert run(capsys, ["budget", "import", str(SAMPLE)])[0] == 0
    code, out, _ = run(capsys, ["budget", "status", "--as-of", "2024-09-10", "--lang", "zh", "--team", "peoriadata"])
    assert code == 0 and "超出" in out and "发现与建议" in out
    code, out, _ = run(capsys, ["budget", "status", "--as-of", "2024-09-10", "--json", "--team", "nobody"])
    assert code == 0 and json.loads(out)["budgets"] == []
    code, _, err = run(capsys, ["budget", "status", "--lang", "fr"])
    assert code == 2 and "--lang" in err
