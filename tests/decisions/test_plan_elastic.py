"""plan_project with elastic stages: switching mid-project, settling an unused term, emergencies."""

from __future__ import annotations

import json

import pytest

from advisor.cli import main
from advisor.engine.settlement import Terms, apply_carry_over, settle
from advisor.errors import InputError
from advisor.tools import plan_project

SWITCH = [{"stage": "pretrain", "months": 2, "gpu_count": 1000, "billing": "monthly"},
          {"stage": "pretrain", "months": 3, "gpu_count": 2000, "billing": "tiered"}]


def test_1000_cards_monthly_then_2000_on_tiered_pricing() -> None:
    r = plan_project(model="llama-3.1-70b", gpu="H100", stages=SWITCH)
    first, second = r.stages
    assert (first.gpu_count, first.billing) == (1000, "monthly")
    assert (second.gpu_count, second.billing) == (2000, "on_demand")
    assert second.gpu_hours == pytest.approx(2000 * 3 * 730)
    # no published GPU-count tiers (billing.apply_volume_tiers off): 'tiered' is the on-demand list price
    assert second.cost == pytest.approx(second.on_demand_cost)
    assert second.cost / second.gpu_hours > first.cost / first.gpu_hours  # the monthly term is cheaper
    assert r.total == pytest.approx(first.cost + second.cost)


@pytest.mark.parametrize(("provider", "refunded", "carried"), [("alibaba", True, False), ("runpod", False, True),
                                                                 (None, False, False)])
def test_an_early_finish_settles_under_the_providers_terms(provider: str | None, refunded: bool, carried: bool) -> None:
    stages = [{"stage": "pretrain", "months": 4, "gpu_count": 100, "term_months": 12, "finished_after_months": 4,
               "settlement_provider": provider},
              {"stage": "finetune", "months": 1, "gpu_count": 100, "billing": "monthly"}]
    r = plan_project(model="llama-3.1-70b", gpu="H100", stages=stages)
    s = r.stages[0].settlement
    assert s is not None and s["unused_months"] == pytest.approx(8)
    assert s["unused_value"] == pytest.approx(s["paid"] * 8 / 12)
    assert (s["refund"] > 0) is refunded
    assert (s["carried_used"] > 0) is carried
    assert s["refund"] + s["carried_used"] + s["lost"] == pytest.approx(s["unused_value"])
    assert r.stages[0].cost == pytest.approx(s["paid"] - s["refund"] + s["penalty"])
    ids = {f.rule_id for f in r.findings}
    assert ("elastic.unused_term_lost" in ids) is (s["lost"] > 0)


def test_carry_over_pays_later_stages_in_order() -> None:
    used, costs = apply_carry_over(150.0, [100.0, 100.0])
    assert used == 150.0 and costs == [0.0, 50.0]


def test_settlement_never_refunds_more_than_the_unused_part() -> None:
    for share in (0.0, 0.5, 1.0):
        s = settle(monthly_value=10.0, term_months=12, used_months=20, terms=Terms(share, False, 0.0, 0.0, "t"))
        assert s.unused_value == 0 and s.refund == 0


def test_an_emergency_stage_pays_the_premium_and_the_finding_says_plan_ahead() -> None:
    base = {"stage": "finetune", "method": "lora", "tokens_b": 1, "gpu_count": 8}
    planned = plan_project(model="llama-3.1-8b", gpu="A100", stages=[base])
    rushed = plan_project(model="llama-3.1-8b", gpu="A100", stages=[{**base, "lead_time_days": 2}])
    s = rushed.stages[0]
    assert s.emergency_premium and s.emergency_premium > 0
    assert s.cost > planned.stages[0].cost
    assert s.planned_cost == pytest.approx(planned.stages[0].cost)
    assert any(f.rule_id == "elastic.plan_ahead" for f in rushed.findings)
    assert not any(f.rule_id == "elastic.plan_ahead" for f in planned.findings)


@pytest.mark.parametrize("stage", [
    {"stage": "pretrain", "months": 2},
    {"stage": "pretrain", "months": 2, "gpu_count": 8, "billing": "weekly"},
    {"stage": "pretrain", "months": 2, "gpu_count": 8, "term_months": 6, "settlement_provider": "nosuchcloud"},
])
def test_bad_stages_are_input_errors(stage: dict) -> None:
    with pytest.raises(InputError):
        plan_project(model="llama-3.1-70b", gpu="H100", stages=[stage])


def test_cli_plan_stages(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["plan", "--model", "llama-3.1-70b", "--gpu", "h100", "--stage", "pretrain:months=2,gpus=1000,billing=monthly",
            "--stage", "pretrain:months=3,gpus=2000,billing=tiered,term-months=6,finished-after-months=2,"
            "settlement-provider=runpod", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert [s["gpu_count"] for s in out["stages"]] == [1000, 2000]
    assert out["stages"][1]["settlement"]["term_months"] == 6
    assert main(["plan", "--model", "llama-3.1-70b", "--stage", "pretrain:months"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
