"""compare_billing with many jobs or a part-time schedule: what rounding to the increment costs."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.cli import main
from advisor.engine.billing import rounded_hours
from advisor.errors import InputError
from advisor.present.estimate import billing_note
from advisor.tools import compare_billing

STEPS = (1, 60, 3600, 86400)


def test_500_jobs_of_20_minutes_on_8_cards_hourly_against_per_second() -> None:
    r = compare_billing(gpu="A100", gpu_count=8, jobs=500, job_hours=1 / 3, increment="hour")
    by = {x.increment: x for x in r.increments}
    assert r.worked_gpu_hours == pytest.approx(500 * 8 / 3)
    assert by["second"].overpay_gpu_hours == pytest.approx(0, abs=1e-6)
    assert by["hour"].billed_gpu_hours == pytest.approx(500 * 8 * 1.0)
    assert by["hour"].overpay_gpu_hours == pytest.approx(500 * 8 * 2 / 3)
    od = next(o for o in r.options if o.mode == "on_demand")
    assert od.overpay == pytest.approx(by["hour"].overpay)
    assert any(f.rule_id == "billing.rounding_overpay" for f in r.findings)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 2000), st.floats(0.01, 30.0), st.integers(1, 64))
def test_a_longer_increment_never_lowers_the_bill(jobs: int, hours: float, cards: int) -> None:
    billed = [rounded_hours(jobs * hours, s, jobs) for s in STEPS]
    assert all(a <= b + 1e-9 for a, b in zip(billed, billed[1:], strict=False))
    assert billed[0] >= jobs * hours - 1e-6


def test_every_mode_reports_its_overpay() -> None:
    r = compare_billing(gpu="H100", gpu_count=8, jobs=50, job_hours=1.5)
    for o in r.options:
        assert o.overpay_gpu_hours >= 0 and o.overpay == pytest.approx(o.overpay_gpu_hours * o.unit_price)
        assert o.billed_gpu_hours >= r.worked_gpu_hours - 1e-6 or o.mode == "per_task"


def test_a_part_time_schedule_bills_each_day_and_terms_bill_the_calendar() -> None:
    r = compare_billing(gpu="A100", gpu_count=4, hours_per_day=6, days=20)
    by = {o.mode: o for o in r.options}
    assert r.worked_gpu_hours == pytest.approx(4 * 6 * 20)
    assert by["daily"].billed_gpu_hours == pytest.approx(4 * 24 * 20)
    assert by["daily"].overpay_gpu_hours == pytest.approx(4 * 18 * 20)
    assert r.recommended == "on_demand"


def test_per_task_is_shown_unavailable_when_no_sheet_offers_it() -> None:
    r = compare_billing(gpu="A100", gpu_count=1, jobs=40, job_hours=2)
    task = next(o for o in r.options if o.mode == "per_task")
    assert not task.available and task.note == "per_task.unoffered"
    assert "no price sheet" in billing_note(task, "en") and "按任务" in billing_note(task, "zh")
    assert any(a.name == "billing.per_task_offers" for a in r.assumptions)


@pytest.mark.parametrize("kwargs", [
    {"gpu": "A100", "jobs": 10},
    {"gpu": "A100", "job_hours": 1},
    {"gpu": "A100", "jobs": 10, "job_hours": 1, "increment": "week"},
    {"gpu": "A100", "jobs": 0, "job_hours": 1},
    {"gpu": "A100"},
])
def test_bad_input_is_an_input_error(kwargs: dict) -> None:
    with pytest.raises(InputError):
        compare_billing(**kwargs)


def test_cli_billing_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["billing", "--gpu", "a100", "--gpus", "8", "--jobs", "500", "--job-minutes", "20", "--increment", "hour",
            "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert {o["mode"] for o in out["options"]} >= {"on_demand", "per_task"}
    assert all("overpay_gpu_hours" in o for o in out["options"])
    assert main(["billing", "--gpu", "a100", "--jobs", "5", "--job-hours", "1", "--increment", "fortnight"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
