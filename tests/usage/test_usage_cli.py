"""``advisor usage`` as a user runs it: one JSON document, or exit 2 with one line."""

from __future__ import annotations

import json

import pytest
from usage_helpers import FIXTURES, FOCUS_SAMPLE, H100, write

from advisor.cli import main


def run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_focus_json(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, ["usage", str(FOCUS_SAMPLE), "--json"])
    assert code == 0 and err == ""
    doc = json.loads(out)
    assert doc["billing"]["rows"] == 1000
    assert doc["inputs"]["files"][0]["rows_read"] == 1000
    assert set(doc) >= {"summary", "billing", "telemetry", "findings", "assumptions", "inputs"}


def test_telemetry_json_summary_fields(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, ["usage", str(FIXTURES / f"{H100}__load.metrics"), "--price", "2.5", "--json"])
    doc = json.loads(out)
    assert code == 0
    s = doc["summary"]
    assert s["gpu_count"] == 1 and s["avg_utilization"] == 1.0 and s["currency"] == "USD"
    assert {"idle_gpu_hours", "waste_cost"} <= set(s)
    gpu = doc["telemetry"]["gpus"][0]
    assert {"id", "model", "avg_utilization", "median_utilization", "share_below_low_use", "idle_hours"} <= set(gpu)


def test_summary_mode(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, ["usage", "--gpus", "16", "--avg-util", "45%", "--price", "2.5", "--currency", "rmb", "--json"])
    doc = json.loads(out)
    assert code == 0 and doc["summary"]["avg_utilization"] == 0.45 and doc["currency"] == "CNY"
    assert doc["findings"][0]["rule_id"] == "utilization.consolidate_jobs"


def test_tables(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, ["usage", "--gpus", "16", "--avg-util", "0.45", "--price", "2.5", "--lang", "zh",
                                "--details"])
    assert code == 0 and "机群利用率" in out and "假设与来源" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["usage", "/no/such/file.csv"],
        ["usage", "--gpus", "16", "--avg-util", "lots", "--price", "2"],
        ["usage", "--gpus", "16", "--avg-util", "0.5"],
        ["usage", "--gpus", "2.5", "--avg-util", "0.5", "--price", "2"],
        ["usage", "--gpus", "16", "--avg-util", "0.5", "--price", "-2"],
        ["usage"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, argv: list[str]) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, argv)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    ("content", "named"),
    [
        ("", "file is empty"),
        ("timestamp, uuid, utilization.gpu [%]\n2026/06/01 10:00:00.000, GPU-a, 4O %\n", "row 1 (line 2), column 'utilization.gpu [%]'"),
        ("timestamp, uuid, memory.used [MiB]\n2026/06/01 10:00:00.000, GPU-a, 10 MiB\n", "missing column 'utilization.gpu'"),
        ("a,b,c\n1,2,3\n", "unknown format"),
    ],
)
def test_malformed_file_is_exit_2(capsys, tmp_path, content: str, named: str) -> None:  # type: ignore[no-untyped-def]
    path = write(tmp_path / "bad.csv", content)
    code, out, err = run(capsys, ["usage", str(path), "--price", "2", "--json"])
    assert code == 2 and out == "" and named in err and err.count("\n") == 1


def test_summary_mode_prices_from_the_catalog_by_gpu(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, ["usage", "--gpus", "16", "--avg-util", "35%", "--gpu", "h100", "--currency", "CNY", "--json"])
    doc = json.loads(out)
    assert code == 0 and doc["inputs"]["price_per_gpu_hour"] > 0
    assert any(a["name"] == "price_per_gpu_hour" and "list prices" in a["source"] for a in doc["assumptions"])
    code, _, err = run(capsys, ["usage", "--gpus", "16", "--avg-util", "35%"])
    assert code == 2 and "gpu=" in err


@pytest.mark.parametrize("share", ["150%", "150", "101%", "100.5", "-5"])
def test_summary_utilization_above_100_percent_is_refused(capsys, share: str) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, ["usage", "--gpus", "8", "--avg-util", share, "--price", "2.5"])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and share in err


@pytest.mark.parametrize("share", ["45", "45%", "0.45", "４５％"])
def test_summary_utilization_spellings_agree(capsys, share: str) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, ["usage", "--gpus", "8", "--avg-util", share, "--price", "2.5", "--json"])
    assert code == 0
    assert json.loads(out)["inputs"]["avg_utilization"] == pytest.approx(0.45)


@pytest.mark.parametrize("start", ["1970-01-01", "1970-01-01 00:00", "1999-12-31"])
def test_inventory_dates_from_an_unset_clock_are_refused_not_billed(capsys, tmp_path, start: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "inventory.csv"
    path.write_text("resource,gpu_type,gpu_count,price_per_hour,currency,team,project,start,end\n"
                    f"node-a,h100,8,2.5,USD,ml,llm,{start},\n"
                    "node-b,a100,8,1.5,USD,ml,llm,2024-05-01,2024-05-31\n", encoding="utf-8")
    code, out, err = run(capsys, ["usage", str(path), "--as-of", "2024-06-01"])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "'start'" in err and "2015-01-01" in err
