"""The real samples are read completely and correctly: the FOCUS export to the cent, the
exporter captures idle at about 0 % and under load at about 100 %."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal

import pytest
from usage_helpers import FIXTURES, FOCUS_SAMPLE, H100, H200

from advisor.tools import analyze_usage


def _file_sum(column: str) -> Decimal:
    with FOCUS_SAMPLE.open(newline="", encoding="utf-8") as fh:
        return sum((Decimal(r[column]) for r in csv.DictReader(fh) if r[column] not in ("", "NULL")), Decimal(0))


def test_focus_sample_is_read_completely_and_to_the_cent() -> None:
    r = analyze_usage(files=[str(FOCUS_SAMPLE)])
    assert r.billing is not None
    assert r.billing.rows == 1000
    f = r.inputs.files[0]
    assert (f.kind, f.format, f.rows_read, f.rows_used, f.rows_skipped) == ("focus", "FOCUS 1.0 (CSV)", 1000, 1000, {})
    billed, effective = _file_sum("BilledCost"), _file_sum("EffectiveCost")
    assert Decimal(r.billing.exact_totals["billed"]) == billed
    assert Decimal(r.billing.exact_totals["effective"]) == effective
    assert round(Decimal(str(r.billing.total_billed_cost)), 2) == round(billed, 2)
    assert r.billing.currency == "USD"


def test_focus_breakdowns_account_for_every_row_and_cent() -> None:
    b = analyze_usage(files=[str(FOCUS_SAMPLE)]).billing
    assert b is not None
    for lines in (b.by_service, b.by_resource, b.by_team):
        assert sum(x.rows for x in lines) == 1000
        assert sum(x.billed_cost for x in lines) == pytest.approx(b.total_billed_cost, abs=1e-9)
    assert b.unused_commitment_cost == 0.0  # the sample has only "Used" commitment rows
    teams = {x.name for x in b.by_team}
    assert "(untagged)" in teams and len(teams) > 5  # business_unit / CostCenter tags


def test_focus_parquet_gives_the_same_totals(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    path = tmp_path / "focus.parquet"
    pq.write_table(pacsv.read_csv(FOCUS_SAMPLE), path)
    csv_b = analyze_usage(files=[str(FOCUS_SAMPLE)]).billing
    pq_b = analyze_usage(files=[str(path)]).billing
    assert pq_b is not None and csv_b is not None
    assert pq_b.rows == 1000 and pq_b.exact_totals == csv_b.exact_totals


@pytest.mark.parametrize("card", [H100, H200])
def test_exporter_captures_idle_near_zero_and_load_near_full(card: str) -> None:
    idle = analyze_usage(files=[str(FIXTURES / f"{card}__idle.metrics")], price_per_gpu_hour=2.0)
    load = analyze_usage(files=[str(FIXTURES / f"{card}__load.metrics")], price_per_gpu_hour=2.0)
    assert idle.summary.avg_utilization == pytest.approx(0.0, abs=0.01)
    assert load.summary.avg_utilization == pytest.approx(1.0, abs=0.01)
    for r in (idle, load):
        assert r.summary.gpu_count == 1
        gpu = r.telemetry.gpus[0]  # type: ignore[union-attr]
        assert gpu.model.startswith("NVIDIA H")  # type: ignore[union-attr]
        f = r.inputs.files[0]
        assert f.kind == "prometheus" and f.rows_read == f.rows_used + sum(f.rows_skipped.values())
    assert load.telemetry.gpus[0].peak_memory_share > 0.2  # type: ignore[union-attr,operator]


@pytest.mark.parametrize(("card", "memory_total"), [(H100, 81559.0), (H200, 143771.0)])
def test_capture_text_query_gpu_sections(card: str, memory_total: float) -> None:
    from advisor.usage.detect import detect
    from advisor.usage.readers.capture import read_capture

    det = detect(FIXTURES / f"{card}.txt")
    assert det.kind == "nvidia_smi_capture"
    summary, rows = read_capture(det, 0, card)
    assert summary.sections == 2 and summary.rows_read == 2 and summary.rows_used == 2
    assert [r["util"] for r in rows] == [0.0, 1.0]  # the idle section, then the load section
    assert all(r["mem_total_mib"] == memory_total for r in rows)
    assert rows[0]["mem_used_mib"] == 0.0 and rows[1]["mem_used_mib"] > 0
    assert rows[0]["gpu_id"].startswith("GPU-")


def test_all_telemetry_samples_together() -> None:
    files = sorted(str(p) for p in FIXTURES.iterdir() if p.suffix in (".txt", ".metrics"))
    r = analyze_usage(files=files, price_per_gpu_hour=3.0, currency="CNY")
    assert r.summary.gpu_count == 6  # one GPU per file: the masked uuids differ by instance
    assert r.currency == "CNY" and r.summary.currency == "CNY"
    assert 0.45 < r.summary.avg_utilization < 0.55  # type: ignore[operator]
    for f in r.inputs.files:
        assert f.rows_read == f.rows_used + sum(f.rows_skipped.values())


def _focus_text(columns: list[str], rows: list[dict[str, str]]) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=columns, restval="")
    writer.writeheader()
    writer.writerows(rows)
    return buf.getvalue()


def test_focus_1_2_columns_and_snake_case_names(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with (FIXTURES / "focus_1.2_columns.csv").open(newline="", encoding="utf-8") as fh:
        columns = [r[0] for r in csv.reader(fh) if r]
    assert "InvoiceId" in columns and "BilledCost" in columns
    row = {"BilledCost": "12.345678", "EffectiveCost": "10.5", "ListCost": "13", "ContractedCost": "11",
           "BillingCurrency": "CNY", "ChargePeriodStart": "2025-03-01T00:00:00Z", "ChargePeriodEnd": "2025-03-02T00:00:00Z",
           "ChargeCategory": "Usage", "ServiceCategory": "Compute", "ServiceName": "GPU Cloud Server",
           "InvoiceId": "INV-1", "Tags": '{"user:Team": "nlp", "Project": "chat"}'}
    path = tmp_path / "focus12.csv"
    path.write_text(_focus_text(columns, [row, {**row, "BilledCost": "0.004322"}]), encoding="utf-8")
    r = analyze_usage(files=[str(path)])
    assert r.inputs.files[0].format == "FOCUS 1.2 (CSV)"
    assert r.billing.exact_totals["billed"] == "12.35" and r.billing.currency == "CNY" and r.currency == "CNY"
    assert (r.billing.by_team[0].name, r.billing.by_team[0].detail) == ("nlp", "chat")
    snake = tmp_path / "snake.csv"
    snake_cols = [re.sub(r"(?<!^)(?=[A-Z])", "_", c).lower() for c in columns]
    snake_row = {re.sub(r"(?<!^)(?=[A-Z])", "_", k).lower(): v for k, v in row.items()}
    snake.write_text(_focus_text(snake_cols, [snake_row]), encoding="utf-8")
    assert analyze_usage(files=[str(snake)]).billing.exact_totals["billed"] == "12.345678"
