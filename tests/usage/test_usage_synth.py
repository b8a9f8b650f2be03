"""The synthetic fleet looks like a real one, and the analysis finds what was put in it."""

from __future__ import annotations

import numpy as np
import pytest
from usage_helpers import SMALL_FLEET

from advisor.tools import analyze_usage
from bench.synth_fleet import FleetSpec, generate_node, node_profiles, write_fleet


def _times(spec: FleetSpec) -> np.ndarray:
    from datetime import UTC, datetime

    start = datetime.fromisoformat(spec.start).replace(tzinfo=UTC).timestamp()
    return start + np.arange(spec.samples_per_gpu) * spec.interval_s


def test_interactive_nodes_follow_the_working_day_and_rest_at_weekends() -> None:
    spec = FleetSpec(gpus=8, days=14, interval_s=600)
    t = _times(spec)
    data = generate_node(spec, 0, "interactive", t)
    hour = (data["t"] % 86400) / 3600
    weekday = ((data["t"] // 86400).astype(int) + 3) % 7
    work = weekday < 5
    midday = data["util"][work & (hour >= 12) & (hour < 15)].mean()
    night = data["util"][work & (hour < 5)].mean()
    weekend = data["util"][~work].mean()
    assert midday > 70 and night < 10 and weekend < 2


def test_forgotten_nodes_go_idle_and_stay_idle() -> None:
    spec = FleetSpec(gpus=8, days=14, interval_s=600)
    data = generate_node(spec, 0, "forgotten", _times(spec))
    per_gpu = data["util"].reshape(8, -1)
    assert (per_gpu[:, :100].mean(axis=1) > 80).all()
    assert (per_gpu[:, -1000:].max(axis=1) <= 2).all()


def test_rows_profiles_and_determinism(tmp_path) -> None:  # type: ignore[no-untyped-def]
    info = write_fleet(tmp_path / "a.parquet", SMALL_FLEET)
    again = write_fleet(tmp_path / "b.parquet", SMALL_FLEET)
    assert info["rows"] == SMALL_FLEET.gpus * SMALL_FLEET.samples_per_gpu
    assert sorted(info["profiles"]) == ["batch", "forgotten", "interactive", "training"]
    assert info["profiles"] == node_profiles(SMALL_FLEET) == again["profiles"]
    assert (tmp_path / "a.parquet").read_bytes() == (tmp_path / "b.parquet").read_bytes()


def test_forgotten_nodes_are_found(fleet_report, fleet_parquet) -> None:  # type: ignore[no-untyped-def]
    found = {g.id for g in fleet_report.telemetry.gpus if g.forgotten}
    assert found == set(fleet_parquet[1]["forgotten_uuids"]) and len(found) == 8
    for g in fleet_report.telemetry.gpus:
        if g.forgotten:
            assert g.forgotten_hours >= 72 and g.idle_hours >= g.forgotten_hours


def test_the_fleet_profile_shows_days_nights_and_weekends(fleet_report) -> None:  # type: ignore[no-untyped-def]
    tel = fleet_report.telemetry
    by_hour = {p.key: p.avg_utilization for p in tel.by_hour}
    by_day = {p.key: p.avg_utilization for p in tel.by_weekday}
    assert by_hour[13] > by_hour[3] + 0.1
    assert max(by_day[5], by_day[6]) < min(by_day[d] for d in range(5))
    assert len(tel.trend) == 14 and all(p.gpus == 32 for p in tel.trend)
    assert tel.period_hours == pytest.approx(14 * 24)
    assert fleet_report.summary.gpu_hours == pytest.approx(32 * 14 * 24)


def test_csv_and_parquet_give_the_same_analysis(fleet_csv, fleet_report) -> None:  # type: ignore[no-untyped-def]
    from_csv = analyze_usage(files=[str(fleet_csv[0])], price_per_gpu_hour=2.0)
    a, b = from_csv.summary, fleet_report.summary
    assert a.gpu_count == b.gpu_count and a.gpu_hours == pytest.approx(b.gpu_hours)
    assert a.avg_utilization == pytest.approx(b.avg_utilization, abs=1e-9)
    assert a.idle_gpu_hours == pytest.approx(b.idle_gpu_hours)
    assert [f.rule_id for f in from_csv.findings] == [f.rule_id for f in fleet_report.findings]


def test_cli_entry(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from bench.synth_fleet import main

    assert main(["--gpus", "3", "--days", "0.5", "--interval", "600", "--out", str(tmp_path / "x.csv.gz")]) == 0
    assert (tmp_path / "x.csv.gz").stat().st_size > 0
    assert main(["--gpus", "0", "--out", str(tmp_path / "y.csv")]) == 2


def test_distribution_covers_all_gpu_time(fleet_report) -> None:  # type: ignore[no-untyped-def]
    bins = fleet_report.telemetry.distribution
    assert [b.low for b in bins] == [i / 10 for i in range(10)]
    assert sum(b.gpu_hours for b in bins) == pytest.approx(fleet_report.summary.gpu_hours)
    assert sum(b.share for b in bins) == pytest.approx(1.0)
    assert bins[0].share > 0.2 and bins[9].share > 0.2  # idle tails and busy training nodes
