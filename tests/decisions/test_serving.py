"""estimate_serving_cost as a user relies on it: enough cards, a monthly figure, honest limits."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.cli import main
from advisor.errors import InputError
from advisor.present import present
from advisor.tools import estimate_serving_cost


def test_70b_at_100m_tokens_a_day_gives_a_gpu_count_and_a_monthly_cost() -> None:
    r = estimate_serving_cost(model="llama-3.1-70b", tokens_per_day="100M", gpu="H100")
    assert r.gpu_count >= 2  # 141 GB of bf16 weights do not fit one 80 GB card
    assert r.gpu_count % r.gpus_per_replica == 0
    assert r.load_share <= 1.0
    assert r.monthly_cost > 0 and r.cost_per_million_tokens > 0
    assert r.monthly_cost == pytest.approx(r.daily_cost * 30.42, rel=1e-3)
    names = {a.name for a in r.assumptions}
    assert {"serving.decode_bandwidth_efficiency", "serving.tpot_ms", "price_per_gpu_hour"} <= names
    assert "H100" in present("estimate_serving_cost", r, "en").summary
    assert "张 H100" in present("estimate_serving_cost", r, "zh").summary


@settings(max_examples=15, deadline=None)
@given(st.floats(min_value=1e6, max_value=5e9))
def test_more_traffic_never_needs_fewer_cards(tokens: float) -> None:
    small = estimate_serving_cost(model="llama-3.1-8b", tokens_per_day=tokens, gpu="A100")
    large = estimate_serving_cost(model="llama-3.1-8b", tokens_per_day=tokens * 3, gpu="A100")
    assert large.gpu_count >= small.gpu_count
    assert large.monthly_cost >= small.monthly_cost


def test_quantisation_never_needs_more_cards() -> None:
    bf16 = estimate_serving_cost(params_b=70, tokens_per_day=5e8, gpu="H100", precision="bf16")
    fp8 = estimate_serving_cost(params_b=70, tokens_per_day=5e8, gpu="H100", precision="fp8")
    assert fp8.gpu_count <= bf16.gpu_count


def test_a_tighter_latency_target_never_serves_more_per_card() -> None:
    loose = estimate_serving_cost(model="llama-3.1-8b", tokens_per_day=1e9, gpu="H100", tpot_ms=100)
    tight = estimate_serving_cost(model="llama-3.1-8b", tokens_per_day=1e9, gpu="H100", tpot_ms=15)
    assert tight.tokens_per_second_per_gpu <= loose.tokens_per_second_per_gpu
    assert tight.batch_per_replica <= loose.batch_per_replica


def test_planned_cards_below_the_need_are_a_critical_finding() -> None:
    need = estimate_serving_cost(model="llama-3.1-70b", tokens_per_day=2e9, gpu="H100")
    r = estimate_serving_cost(model="llama-3.1-70b", tokens_per_day=2e9, gpu="H100", gpu_count=need.gpus_per_replica)
    assert need.gpu_count > need.gpus_per_replica
    assert r.load_share > 1
    assert any(f.rule_id == "serving.too_few_gpus" and f.severity == "critical" for f in r.findings)


def test_a_small_load_on_one_card_suggests_a_slice() -> None:
    r = estimate_serving_cost(model="llama-3.1-8b", tokens_per_day="2M", gpu="A100")
    assert r.gpu_count == 1 and r.fractional is not None
    assert 0 < r.fractional["slice"] < 1
    assert r.fractional["slice"] >= r.fractional["memory_share"]
    assert any(f.rule_id == "serving.fractional_card" for f in r.findings)


def test_requests_times_output_tokens_is_the_daily_volume() -> None:
    a = estimate_serving_cost(model="llama-3.1-8b", requests_per_day=400_000, output_tokens=250, gpu="A100")
    b = estimate_serving_cost(model="llama-3.1-8b", tokens_per_day=1e8, output_tokens=250, gpu="A100")
    assert a.gpu_count == b.gpu_count and a.monthly_cost == pytest.approx(b.monthly_cost)


def test_without_a_gpu_the_cheapest_month_is_chosen() -> None:
    r = estimate_serving_cost(model="llama-3.1-70b", tokens_per_day="100M")
    assert all(r.monthly_cost <= a.monthly_cost * 1.0001 + 1e-6 or a.gpu == r.gpu for a in r.alternatives[:1])


@pytest.mark.parametrize("kwargs", [
    {"model": "llama-3.1-8b"},
    {"tokens_per_day": "1M"},
    {"model": "llama-3.1-8b", "tokens_per_day": "-5M"},
    {"model": "llama-3.1-8b", "tokens_per_day": "1M", "tpot_ms": 0},
    {"model": "llama-3.1-8b", "tokens_per_day": "1M", "average_load": 1.5},
    {"model": "llama-3.1-8b", "tokens_per_day": "1M", "precision": "int3"},
    {"model": "llama-3.1-405b", "tokens_per_day": "1M", "gpu": "T4"},
])
def test_bad_input_is_an_input_error(kwargs: dict) -> None:
    with pytest.raises(InputError):
        estimate_serving_cost(**kwargs)


def test_cli_serve_json_and_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--model", "llama-3.1-70b", "--tokens-per-day", "100M", "--gpu", "h100", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["gpu_count"] >= 2 and out["monthly_cost"] > 0
    assert main(["serve", "--model", "llama-3.1-70b", "--tokens-per-day", "lots"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "lots" in err


@pytest.mark.parametrize("cards", [["L4", "A10"], ["L40S", "A100-80GB"], ["H100-SXM", "H20", "A800-80GB"]])
def test_cards_to_choose_among_give_the_cheapest_of_them(cards: list[str]) -> None:
    """`gpus` without a fixed `gpu`: each named card is priced, the cheapest month among them wins."""
    r = estimate_serving_cost(model="qwen2.5-14b", tokens_per_day="30M", gpus=cards)
    alone = {g: estimate_serving_cost(model="qwen2.5-14b", tokens_per_day="30M", gpu=g).monthly_cost for g in cards}
    assert r.monthly_cost == pytest.approx(min(alone.values()))
    assert alone[r.gpu] == pytest.approx(r.monthly_cost)
