"""`advisor review`: exit 0 with a report, exit 2 with one line on stderr for bad input."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from contract_helpers import FIXTURES, encrypt_pdf, make_pdf

from advisor.cli import main


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_json_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["review", str(FIXTURES / "en_gpu_cloud_trap.txt"), "--json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    assert data["language"] == "en"
    assert len(data["checklist"]) == 18
    assert any(f["rule_id"] == "contract.auto_renewal_cost" for f in data["findings"])


def test_markdown_and_language(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["review", str(FIXTURES / "zh_spot_terms.txt"), "--format", "md", "--lang", "en"], capsys)
    assert code == 0
    assert out.startswith("# Contract review")
    assert "| Spot reclaim | trap |" in out


def test_table_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["review", str(FIXTURES / "en_h100_cluster_fair.txt")], capsys)
    assert code == 0 and "checklist categories" in out and "--details" in out  # the short form
    code, out, _ = run(["review", str(FIXTURES / "en_h100_cluster_fair.txt"), "--details"], capsys)
    assert code == 0
    assert "Checklist" in out and "Usage alerts" in out


def test_monthly_fee_option(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "c.txt"
    path.write_text("This Agreement shall automatically renew for successive twelve (12) month periods.", encoding="utf-8")
    code, out, _ = run(["review", str(path), "--json", "--monthly-fee", "1000", "--currency", "USD"], capsys)
    assert code == 0
    saving = next(f["savings"] for f in json.loads(out)["findings"] if f["rule_id"] == "contract.auto_renewal_cost")
    assert saving == {"amount": 12000.0, "currency": "USD"}


def test_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    data = (FIXTURES / "zh_injection_lease.txt").read_text(encoding="utf-8").encode("gbk")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    code, out, err = run(["review", "-", "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["injection_detected"] is True


def _bad(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "corrupt.pdf").write_bytes(b"%PDF-1.4 garbage")
    (tmp_path / "locked.pdf").write_bytes(encrypt_pdf(make_pdf([["1. Fees."]]), user_password="pw"))
    (tmp_path / "x.xlsx").write_bytes(b"x")
    return {
        "missing": tmp_path / "none.txt",
        "corrupt": tmp_path / "corrupt.pdf",
        "encrypted": tmp_path / "locked.pdf",
        "unsupported": tmp_path / "x.xlsx",
    }


@pytest.mark.parametrize("kind", ["missing", "corrupt", "encrypted", "unsupported"])
def test_bad_files_exit_2_with_one_line(kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["review", str(_bad(tmp_path)[kind])], capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("error: cannot read ")
    assert "Traceback" not in err


def test_too_large_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from advisor.contracts import reader

    monkeypatch.setattr(reader, "MAX_DOCUMENT_BYTES", 100)
    path = tmp_path / "big.txt"
    path.write_text("租期为12个月。" * 50, encoding="utf-8")
    code, _, err = run(["review", str(path)], capsys)
    assert code == 2 and "too large" in err and err.count("\n") == 1


@pytest.mark.parametrize("argv", [["--lang", "fr"], ["--format", "pdf"], ["--monthly-fee", "-5"], ["--currency", "EUR", "--monthly-fee", "5"]])
def test_bad_options_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["review", str(FIXTURES / "zh_spot_terms.txt"), *argv], capsys)
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1


def test_empty_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"  ")))
    code, _, err = run(["review", "-"], capsys)
    assert code == 2 and "stdin is empty" in err
