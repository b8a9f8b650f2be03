"""The utilization pack on analysed data: each finding carries its saving, both languages, the
requirement it serves; inventories give chargeback and forgotten resources; billing exports
give unused commitments, leftover storage and steady on-demand spend."""

from __future__ import annotations

import csv
import io

import pytest
from usage_helpers import FOCUS_SAMPLE, write

from advisor.tools import analyze_usage


def _ids(report) -> list[str]:  # type: ignore[no-untyped-def]
    return [f.rule_id for f in report.findings]


def test_fleet_findings_carry_savings(fleet_report) -> None:  # type: ignore[no-untyped-def]
    ids = _ids(fleet_report)
    assert "utilization.release_forgotten_cards" in ids
    assert "utilization.release_idle_cards" in ids
    assert "utilization.consolidate_jobs" in ids
    for f in fleet_report.findings:
        assert f.savings is not None and f.savings.amount > 0 and f.savings.currency == "USD"
        assert f.requirement and f.text["en"].title and f.text["zh"].title
        assert "{" not in f.detail
    forgotten = next(f for f in fleet_report.findings if f.rule_id == "utilization.release_forgotten_cards")
    expected = sum(g.forgotten_hours * 2.0 for g in fleet_report.telemetry.gpus)
    assert forgotten.savings.amount == pytest.approx(expected)
    assert forgotten.severity == "critical"


def test_fleet_numbers_hold_together(fleet_report) -> None:  # type: ignore[no-untyped-def]
    s, tel = fleet_report.summary, fleet_report.telemetry
    assert s.total_cost == pytest.approx(s.gpu_hours * 2.0)
    assert s.waste_cost == pytest.approx((s.gpu_hours - s.busy_gpu_hours) * 2.0)
    assert s.idle_gpu_hours == pytest.approx(sum(g.idle_hours for g in tel.gpus))
    assert s.idle_gpu_hours <= s.gpu_hours - s.busy_gpu_hours
    assert tel.idle_stretches == sorted(tel.idle_stretches, key=lambda x: -x.hours)
    assert all(0 <= g.share_below_low_use <= 1 and 0 <= g.median_utilization <= 1 for g in tel.gpus)
    assert sum(i.gpus for i in tel.instances) == s.gpu_count == 32


def test_right_sizing_from_light_cards(tmp_path) -> None:  # type: ignore[no-untyped-def]
    lines = ["timestamp, uuid, name, utilization.gpu [%], memory.used [MiB], memory.total [MiB]"]
    for minute in range(600):
        for gpu, util in (("GPU-a", 20 + minute % 10), ("GPU-b", 95)):
            mem = "8000" if gpu == "GPU-a" else "70000"
            lines.append(f"2026/06/02 {minute // 60:02d}:{minute % 60:02d}:00.000, {gpu}, NVIDIA H100 80GB HBM3, {util} %, {mem} MiB, 81559 MiB")
    r = analyze_usage(files=[str(write(tmp_path / "log.csv", "\n".join(lines) + "\n"))], price_per_gpu_hour=4.0)
    f = next(f for f in r.findings if f.rule_id == "utilization.right_size")
    # GPU-a: p95 utilization 29 % and 10 % of memory -> a 0.3 slice; 10 hours at $4
    assert f.savings.amount == pytest.approx(10 * 4.0 * 0.7)


def test_inventory_chargeback_and_forgotten_resources(tmp_path, fleet_parquet) -> None:  # type: ignore[no-untyped-def]
    inventory = write(
        tmp_path / "inventory.csv",
        "resource,gpu_type,gpu_count,price_per_hour,currency,team,project,start,end,project_end\n"
        "node-001,H100,8,24,USD,vision,detector,2026-06-01,2026-06-15,\n"
        "node-002,H100,8,24,USD,nlp,chat,2026-06-01,2026-06-15,2026-06-08\n"
        "spare-9,H100,8,24,USD,nlp,chat,2026-06-01,,\n",
    )
    r = analyze_usage(files=[str(fleet_parquet[0]), str(inventory)], price_per_gpu_hour=2.0)
    inv = r.inventory
    assert inv is not None and inv.as_of == "2026-06-15T00:00:00"  # the end of the telemetry
    by = {x.resource: x for x in inv.resources}
    assert by["node-001"].hours == 14 * 24 and by["node-001"].cost == pytest.approx(14 * 24 * 24)
    assert by["node-001"].telemetry_gpus == 8 and by["spare-9"].telemetry_gpus == 0
    reasons = {(x.resource, x.reason): x for x in inv.forgotten}
    assert reasons[("node-002", "after_project_end")].cost == pytest.approx(7 * 24 * 24)
    assert reasons[("spare-9", "no_telemetry")].cost == pytest.approx(14 * 24 * 24)
    chat = next(c for c in inv.chargeback if c.project == "chat")
    assert chat.resources == 2 and chat.cost == pytest.approx(2 * 14 * 24 * 24)
    assert sum(c.cost for c in inv.chargeback) == pytest.approx(inv.total_cost)
    f = next(f for f in r.findings if f.rule_id == "utilization.release_forgotten_resources")
    assert f.savings.amount == pytest.approx(7 * 24 * 24 + 14 * 24 * 24)
    # the inventory's price ($3 per GPU-hour) wins over the given $2 for its nodes
    node1 = [g for g in r.telemetry.gpus if g.instance == "node-001"]
    assert node1 and all(g.price_per_gpu_hour == 3.0 for g in node1)


def _focus(tmp_path, rows: list[dict[str, str]]):  # type: ignore[no-untyped-def]
    with FOCUS_SAMPLE.open(newline="", encoding="utf-8") as fh:
        header = next(csv.reader(fh))
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=header, restval="")
    w.writeheader()
    for r in rows:
        w.writerow(r)
    return write(tmp_path / "focus.csv", buf.getvalue())


def _row(**kw: str) -> dict[str, str]:
    base = {
        "BillingCurrency": "USD", "ChargeCategory": "Usage", "ServiceCategory": "Compute",
        "ServiceName": "GPU Cloud", "SubAccountId": "acct-a", "PricingCategory": "Standard",
        "ChargePeriodStart": "2024-09-01 00:00:00", "ChargePeriodEnd": "2024-09-02 00:00:00",
        "BilledCost": "0", "EffectiveCost": "0", "ListCost": "0",
    }
    return {**base, **kw}


def test_billing_waste_findings(tmp_path) -> None:  # type: ignore[no-untyped-def]
    rows = [
        # ten days of GPU compute in account a, then storage all month
        *[_row(ChargePeriodStart=f"2024-09-{d:02d} 00:00:00", ChargePeriodEnd=f"2024-09-{d + 1:02d} 00:00:00",
               BilledCost="50.00", EffectiveCost="50.00", ResourceId=f"gpu-vm-{d}", ConsumedQuantity="24", ConsumedUnit="Hours")
          for d in range(1, 11)],
        *[_row(ServiceCategory="Storage", ServiceName="Block Storage", ResourceId="vol-1",
               ChargePeriodStart=f"2024-09-{d:02d} 00:00:00", ChargePeriodEnd=f"2024-09-{d + 1:02d} 00:00:00",
               BilledCost="2.00", EffectiveCost="2.00") for d in range(1, 30)],
        # an unused reservation
        _row(CommitmentDiscountStatus="Unused", CommitmentDiscountId="ri-1", PricingCategory="Committed",
             BilledCost="0", EffectiveCost="30.00", ChargePeriodEnd="2024-09-30 00:00:00"),
        # a steady on-demand node in account b, billed the whole month
        _row(SubAccountId="acct-b", ResourceId="node-b", ConsumedQuantity="696", ConsumedUnit="Hours",
             ChargePeriodEnd="2024-09-30 00:00:00", BilledCost="100.00", EffectiveCost="100.00",
             Tags='{"team": "vision", "project": "detector"}'),
    ]
    r = analyze_usage(files=[str(_focus(tmp_path, rows))])
    b = r.billing
    assert b.rows == len(rows) and b.total_billed_cost == pytest.approx(10 * 50 + 29 * 2 + 100)
    assert b.unused_commitment_cost == 30.0
    assert b.storage_after_compute_cost == pytest.approx(19 * 2.0)  # Sep 11-29, after compute ended Sep 11
    assert b.steady_on_demand_resources == 1 and b.steady_on_demand_cost == 100.0
    assert {x.name: x.detail for x in b.by_team}["vision"] == "detector"
    savings = {f.rule_id: f.savings.amount for f in r.findings}
    assert savings["utilization.unused_commitment"] == 30.0
    assert savings["utilization.clean_up_storage"] == pytest.approx(38.0)
    assert savings["utilization.switch_to_committed"] == pytest.approx(30.0)


def test_tiny_savings_are_not_advice() -> None:
    r = analyze_usage(files=[str(FOCUS_SAMPLE)])
    assert r.billing.storage_after_compute_cost < 1.0
    assert "utilization.clean_up_storage" not in _ids(r)


def test_billing_in_another_currency_is_converted_with_a_dated_rate(tmp_path) -> None:  # type: ignore[no-untyped-def]
    rows = [_row(CommitmentDiscountStatus="Unused", CommitmentDiscountId="ri-1", EffectiveCost="30.00")]
    r = analyze_usage(files=[str(_focus(tmp_path, rows))], currency="CNY")
    assert r.currency == "CNY" and r.billing.currency == "USD" and r.billing.unused_commitment_cost == 30.0
    fx = next(a for a in r.assumptions if a.name == "fx_rate")
    [f] = [f for f in r.findings if f.rule_id == "utilization.unused_commitment"]
    rate = float(str(fx.value).split("= ")[1].split()[0])
    assert f.savings.currency == "CNY" and f.savings.amount == pytest.approx(30.0 * rate)


def test_mixed_currency_exports_keep_totals_apart(tmp_path) -> None:  # type: ignore[no-untyped-def]
    rows = [_row(BilledCost="10", EffectiveCost="10"), _row(BillingCurrency="CNY", BilledCost="70", EffectiveCost="70")]
    r = analyze_usage(files=[str(_focus(tmp_path, rows))])
    b = r.billing
    assert b.currency is None and b.total_billed_cost is None and b.currencies == ["CNY", "USD"]
    assert {(x.currency, x.billed_cost) for x in b.by_service} == {("USD", 10.0), ("CNY", 70.0)}
    assert any("mixes currencies" in n for n in r.notes)
