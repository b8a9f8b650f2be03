"""Usage files never invent money: a stray timestamp (1970, a year away, a host on another
clock) is reported as a finding with its rows and excluded from every hour and cost."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.cli import main

HEADER = "timestamp, index, name, uuid, utilization.gpu [%], memory.used [MiB], memory.total [MiB]\n"
PRICE = 2.0


def smi(rows: list[tuple[str, str]]) -> str:
    """nvidia-smi rows: (timestamp, uuid)."""
    return HEADER + "".join(f"{t}, 0, NVIDIA A100-SXM4-80GB, {u}, 90 %, 70000 MiB, 81920 MiB\n" for t, u in rows)


def minutes(day: str, n: int, uuid: str = "GPU-aaaa", start: int = 0) -> list[tuple[str, str]]:
    return [(f"{day} 10:{start + i:02d}:00.000", uuid) for i in range(n)]


def report(tmp_path: Path, capsys, text: str) -> dict:
    path = tmp_path / "smi.csv"
    path.write_text(text, encoding="utf-8")
    code = main(["usage", str(path), "--price", str(PRICE), "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


def outlier_finding(data: dict) -> dict | None:
    return next((f for f in data["findings"] if f["rule_id"] == "utilization.timestamp_outliers"), None)


def true_cost(rows: int) -> float:
    """One GPU sampled once a minute: rows minutes of work at most."""
    return rows / 60 * PRICE


@pytest.mark.parametrize("position", [0, 2, 5])
@pytest.mark.parametrize("stray", ["1970/01/01 00:00:00.000", "2019/03/04 05:06:07.000", "2025/05/01 10:03:00.000"])
def test_one_stray_timestamp_in_six_rows(tmp_path, capsys, position: int, stray: str) -> None:
    rows = minutes("2024/05/01", 5)
    rows.insert(position, (stray, "GPU-aaaa"))
    data = report(tmp_path, capsys, smi(rows))
    assert data["summary"]["total_cost"] <= true_cost(5) + 1e-9
    finding = outlier_finding(data)
    assert finding is not None and finding["severity"] == "warning"
    assert stray[:4] in finding["detail"] and "excluded" in finding["detail"]
    assert data["telemetry"]["excluded_rows"] == 1 and data["telemetry"]["excluded_hours"] > 24 * 300


def test_a_host_on_another_clock_is_excluded_not_billed(tmp_path, capsys) -> None:
    rows = minutes("2024/05/01", 30) + minutes("2024/05/01", 30, "GPU-bbbb") + minutes("2021/01/01", 5, "GPU-cccc")
    data = report(tmp_path, capsys, smi(rows))
    assert data["telemetry"]["excluded_rows"] == 5
    assert data["summary"]["gpu_count"] == 2
    assert data["summary"]["total_cost"] <= 2 * true_cost(30) + 1e-9
    assert "GPU-cccc" in outlier_finding(data)["detail"]


def test_clean_files_and_weekend_pauses_have_no_outliers(tmp_path, capsys) -> None:
    rows = minutes("2024/05/03", 10) + minutes("2024/05/06", 10)  # Friday and Monday
    data = report(tmp_path, capsys, smi(rows))
    assert outlier_finding(data) is None and data["telemetry"]["excluded_rows"] == 0


def test_a_log_whose_clock_was_never_set_keeps_its_durations(tmp_path, capsys) -> None:
    data = report(tmp_path, capsys, smi(minutes("1970/01/01", 6)))
    assert data["telemetry"]["excluded_rows"] == 0
    assert 0 < data["summary"]["total_cost"] <= true_cost(6) + 1e-9


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_finding_is_bilingual(tmp_path, capsys, lang: str) -> None:
    rows = minutes("2024/05/01", 5) + [("1970/01/01 00:00:00.000", "GPU-aaaa")]
    path = tmp_path / "smi.csv"
    path.write_text(smi(rows), encoding="utf-8")
    assert main(["usage", str(path), "--price", "2", "--json", "--lang", lang]) == 0
    finding = outlier_finding(json.loads(capsys.readouterr().out))
    assert ("时间戳" in finding["title"]) == (lang == "zh")
