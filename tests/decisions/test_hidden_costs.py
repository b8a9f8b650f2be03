"""Hidden costs from the CLI (A3), the interconnect surcharge (A1), free hours (D3), and owned or
colocated cards priced at their cost of ownership instead of rent plus electricity."""

from __future__ import annotations

import json

import pytest

from advisor.cli import main
from advisor.errors import InputError
from advisor.tools import estimate_training_cost

JOB = {"model": "llama-3.1-8b", "method": "lora", "tokens_b": 0.15, "gpu": "A100", "gpu_count": 8}


def comps(r) -> dict:
    return {c.name: c for c in r.cost.components}


def test_interconnect_surcharge_is_its_own_component_on_multi_card_runs() -> None:
    base = estimate_training_cost(**JOB)
    r = estimate_training_cost(**JOB, interconnect_surcharge_per_gpu_hour=0.25)
    c = comps(r)["interconnect"]
    assert c.unit_price == 0.25 and c.quantity == pytest.approx(r.gpu_hours.expected, rel=0.05)
    assert r.cost.total == pytest.approx(base.cost.total + c.amount)
    single = estimate_training_cost(**{**JOB, "gpu_count": 1}, interconnect_surcharge_per_gpu_hour=0.25)
    assert "interconnect" not in comps(single)


def test_free_hours_credit_never_exceeds_the_work() -> None:
    r = estimate_training_cost(**JOB, free_gpu_hours=1e6)
    free = comps(r)["free_hours"]
    assert free.amount < 0 and -free.amount <= comps(r)["gpu_usage"].amount + comps(r)["failure_overhead"].amount + 1e-6


@pytest.mark.parametrize("hosting", ["colocation", "owned"])
def test_owned_cards_are_not_charged_rent_and_electricity_twice(hosting: str) -> None:
    cloud = estimate_training_cost(**JOB)
    mine = estimate_training_cost(**JOB, hosting=hosting)
    usage = comps(mine)["gpu_usage"]
    assert usage.detail["mode"] == "owned" and usage.unit_price != comps(cloud)["gpu_usage"].unit_price
    assert comps(mine)["energy"].amount > 0 and comps(cloud)["energy"].amount == 0
    assert any(a.name == "owned.gpu_hour" for a in mine.assumptions)


def test_colocation_costs_more_than_your_own_room() -> None:
    colo = estimate_training_cost(**JOB, hosting="colocation")
    own = estimate_training_cost(**JOB, hosting="owned")
    assert comps(colo)["gpu_usage"].unit_price > comps(own)["gpu_usage"].unit_price


def test_negative_hidden_costs_are_refused() -> None:
    with pytest.raises(InputError):
        estimate_training_cost(**JOB, interconnect_surcharge_per_gpu_hour=-1)


def test_cli_hidden_cost_flags(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["estimate", "--model", "llama-3.1-8b", "--method", "lora", "--tokens", "150M", "--gpu", "a100", "--gpus", "8",
            "--support-cost", "300", "--idle-wait-hours", "2", "--egress-gb", "50", "--hosting", "owned",
            "--interconnect-surcharge", "0.2", "--free-gpu-hours", "5", "--json"]
    assert main(argv) == 0
    names = {c["name"] for c in json.loads(capsys.readouterr().out)["cost"]["components"]}
    assert {"support", "idle_wait", "interconnect", "free_hours"} <= names
    assert main([*argv[:-1], "--hosting", "basement"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
