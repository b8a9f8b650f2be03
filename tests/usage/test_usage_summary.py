"""Summary mode: the waste arithmetic for a question without files."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from advisor.errors import InputError
from advisor.tools import analyze_usage
from advisor.usage.summary import summary_numbers


def test_worked_example() -> None:
    r = analyze_usage(gpu_count=16, avg_utilization=0.4, price_per_gpu_hour=2.5, period_hours=730)
    s = r.summary
    assert s.gpu_hours == 16 * 730
    assert s.total_cost == pytest.approx(29200.0)
    assert s.waste_cost == pytest.approx(29200.0 * 0.6)
    assert s.idle_gpu_hours == pytest.approx(11680 * 0.6)
    assert s.target_saving == pytest.approx(29200.0 * (1 - 0.4 / 0.85))
    assert s.gpus_needed_at_target == 8  # ceil(16 × 0.4 / 0.85) = ceil(7.53)
    assert r.inputs.mode == "summary" and r.currency == "USD"
    [finding] = [f for f in r.findings if f.rule_id == "utilization.consolidate_jobs"]
    assert finding.savings is not None and finding.savings.amount == pytest.approx(s.target_saving)


def test_period_defaults_to_a_month_and_is_an_assumption() -> None:
    r = analyze_usage(gpu_count=4, avg_utilization=0.5, price_per_gpu_hour=10, currency="CNY")
    assert r.summary.period_hours == 730
    names = {a.name for a in r.assumptions}
    assert {"summary.period_hours", "utilization.target", "utilization.low_use_line"} <= names
    target = next(a for a in r.assumptions if a.name == "utilization.target")
    assert target.value == 0.85 and "C5" in target.source
    assert r.currency == "CNY"


def test_percent_is_accepted_and_busy_fleet_has_no_saving() -> None:
    r = analyze_usage(gpu_count=8, avg_utilization=90, price_per_gpu_hour=2.0, period_hours=100)
    assert r.summary.avg_utilization == 0.9 and r.summary.target_saving == 0.0
    assert not [f for f in r.findings if f.rule_id in ("utilization.consolidate_jobs", "utilization.raise_to_target")]


def test_between_the_line_and_the_target() -> None:
    r = analyze_usage(gpu_count=8, avg_utilization=0.78, price_per_gpu_hour=2.0, lang="zh")
    assert [f.rule_id for f in r.findings] == ["utilization.raise_to_target"]
    assert r.findings[0].lang == "zh" and "利用率" in r.findings[0].title


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"gpu_count": 4, "avg_utilization": 0.5}, "price_per_gpu_hour"),
        ({"gpu_count": 4, "price_per_gpu_hour": 2}, "avg_utilization"),
        ({"gpu_count": 0, "avg_utilization": 0.5, "price_per_gpu_hour": 2}, "gpu_count"),
        ({"gpu_count": 4, "avg_utilization": -0.1, "price_per_gpu_hour": 2}, "avg_utilization"),
        ({"gpu_count": 4, "avg_utilization": 0.5, "price_per_gpu_hour": -1}, "price_per_gpu_hour"),
        ({"gpu_count": 4, "avg_utilization": 0.5, "price_per_gpu_hour": 2, "period_hours": 0}, "period_hours"),
        ({"gpu_count": 4, "avg_utilization": 0.5, "price_per_gpu_hour": 2, "files": ["x.csv"]}, "gpu_count"),
        ({"gpu_count": 4, "avg_utilization": 0.5, "price_per_gpu_hour": 2, "currency": "EUR"}, "currency"),
        ({}, "gpu_count"),
    ],
)
def test_bad_summary_input_names_the_field(kwargs: dict, field: str) -> None:
    with pytest.raises(InputError) as info:
        analyze_usage(**kwargs)
    assert info.value.field == field and "\n" not in info.value.one_line()


@given(
    n=st.integers(1, 10_000),
    u=st.floats(0, 1),
    price=st.floats(0.01, 100),
    hours=st.floats(1, 10_000),
    target=st.floats(0.5, 0.99),
)
def test_summary_properties(n: int, u: float, price: float, hours: float, target: float) -> None:
    x = summary_numbers(n, u, price, hours, target)
    assert x.total_cost == pytest.approx(n * hours * price)
    assert 0 <= x.target_saving <= x.waste_cost + 1e-9 * x.total_cost  # the target leaves some slack
    assert x.waste_cost == pytest.approx(x.total_cost * (1 - u), abs=1e-9 * x.total_cost)
    assert 0 <= x.gpus_needed_at_target <= n
    if u >= target:
        assert x.target_saving == 0
    else:
        assert x.gpus_needed_at_target == min(n, math.ceil(round(n * u / target, 9)))
