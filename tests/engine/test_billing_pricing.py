"""Billing modes, prices, plans and the hardware sweep, on the tiny fixed catalog."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from advisor.catalog import load_catalog
from advisor.engine import billing
from advisor.engine.estimate import estimate
from advisor.engine.models import EstimateRequest
from advisor.engine.params import Params
from advisor.engine.pricing import quote
from advisor.errors import InputError, UnknownNameError
from advisor.units import HOURS_PER_MONTH


def _options(tiny_catalog, wall: float, n: int = 8, **ctx) -> dict[str, billing.BillingOption]:
    p = Params(tiny_catalog.defaults)
    q = quote(tiny_catalog, "A100-80GB", "USD", p, price_per_gpu_hour=2.0)
    return {o.mode: o for o in billing.compare(wall, n, q, billing.Context(**ctx), p)}


def test_terms_bill_whole_periods_and_on_demand_bills_use(tiny_catalog) -> None:
    o = _options(tiny_catalog, wall=100)
    assert o["on_demand"].total == pytest.approx(100 * 8 * 2.0)
    assert o["monthly"].billed_gpu_hours == pytest.approx(HOURS_PER_MONTH * 8)
    assert o["daily"].billed_gpu_hours == pytest.approx(math.ceil(100 / 24) * 24 * 8)
    assert o["on_demand"].recommended  # 100 hours: a month of reserved cards is a waste


def test_monthly_wins_for_a_full_month_and_breakeven_is_consistent(tiny_catalog) -> None:
    o = _options(tiny_catalog, wall=HOURS_PER_MONTH)
    assert o["monthly"].total < o["on_demand"].total
    breakeven = HOURS_PER_MONTH * o["monthly"].unit_price / o["on_demand"].unit_price
    just_below = _options(tiny_catalog, wall=breakeven * 0.97)
    assert just_below["on_demand"].total < just_below["monthly"].total


def test_spot_is_not_recommended_unless_interruptible(tiny_catalog) -> None:
    rigid = _options(tiny_catalog, wall=50)
    assert not rigid["spot"].suitable and not rigid["spot"].recommended
    assert _options(tiny_catalog, wall=50, interruptible=True)["spot"].suitable


def test_offpeak_needs_an_offer_and_respects_deadlines(tiny_catalog) -> None:
    o = _options(tiny_catalog, wall=50)
    assert not o["off_peak"].available  # no sheet publishes a night price
    p = Params(tiny_catalog.defaults)
    q = quote(tiny_catalog, "A100-80GB", "USD", p, price_per_gpu_hour=2.0, offpeak_discount=0.4)
    offered = {x.mode: x for x in billing.compare(50, 8, q, billing.Context(), p)}
    assert offered["off_peak"].available and offered["off_peak"].total < offered["on_demand"].total
    late = {x.mode: x for x in billing.compare(50, 8, q, billing.Context(deadline_hours=60), p)}
    assert not late["off_peak"].available  # 50 h of work in 10-hour nights takes 5 days


def test_per_task_only_for_parallel_experiments(tiny_catalog) -> None:
    assert "per_task" not in _options(tiny_catalog, wall=20)
    o = _options(tiny_catalog, wall=20, parallel_experiments=6)
    assert o["per_task"].total < o["on_demand"].total  # reserved cards idle between experiments


def test_volume_tier_lowers_the_unit_price_only_when_switched_on(tiny_catalog, monkeypatch) -> None:
    small = _options(tiny_catalog, wall=10, n=8)["on_demand"].unit_price
    large = _options(tiny_catalog, wall=10, n=256)["on_demand"].unit_price
    assert large == small  # no provider publishes GPU-count tiers: list price at any count
    real = Params.__call__
    monkeypatch.setattr(Params, "__call__", lambda self, key: True if key == "billing.apply_volume_tiers" else real(self, key))
    assert _options(tiny_catalog, wall=10, n=256)["on_demand"].unit_price < small


def test_list_price_is_the_median_of_providers_and_named_provider_wins(tiny_catalog) -> None:
    p = Params(tiny_catalog.defaults)
    q = quote(tiny_catalog, "A100-80GB", "USD", p)
    assert q.on_demand == pytest.approx((14.32 / 8 + 1.64) / 2)
    assert quote(tiny_catalog, "A100-80GB", "USD", p, provider="runpod").on_demand == pytest.approx(1.64)
    with pytest.raises(UnknownNameError):
        quote(tiny_catalog, "A100-80GB", "USD", p, provider="runpdo")
    with pytest.raises(InputError, match="lists A100-80GB"):
        quote(tiny_catalog, "A100-80GB", "USD", p, provider="aws")


def test_other_currency_is_converted_with_the_dated_rate(tiny_catalog) -> None:
    p = Params(tiny_catalog.defaults)
    q = quote(tiny_catalog, "A100-80GB", "CNY", p)
    assert q.on_demand == pytest.approx((14.32 / 8 + 1.64) / 2 * tiny_catalog.fx.rate)
    assert any(a.name == "fx.rate" for a in p.assumptions())


def test_user_price_sheet_wins(tmp_path: Path, tiny_catalog) -> None:
    sheet = tmp_path / "quotes.csv"
    sheet.write_text("gpu,currency,price_per_gpu_hour\nA100-80GB,USD,0.99\n", encoding="utf-8")
    cat = load_catalog(tiny_catalog.directory, user_prices=sheet)
    r = estimate(EstimateRequest(model="llama-3.1-8b", method="lora", tokens_b=0.1, gpu="A100", gpu_count=1), cat)
    assert r.inputs["price_per_gpu_hour"] == pytest.approx(0.99)
    assert any("negotiated" in a.source for a in r.assumptions if a.name == "price_per_gpu_hour")


def test_every_default_used_is_an_assumption_with_a_source(tiny_catalog) -> None:
    r = estimate(EstimateRequest(model="llama-3.1-8b", method="qlora", samples=50_000, gpu="4090"), tiny_catalog)
    names = {a.name for a in r.assumptions}
    for key in ("mfu.base", "qlora.slowdown", "workload.tokens_per_sample", "workload.epochs.finetune",
                "memory.weight_bytes.nf4", "failures.gpu_mtbf_hours", "price_per_gpu_hour", "gpu_count"):
        assert key in names, key
    assert all(a.source for a in r.assumptions)


def test_gpu_count_default_fits_and_meets_deadline(tiny_catalog) -> None:
    r = estimate(EstimateRequest(model="llama-2-70b", method="full", tokens_b=1, gpu="H100", deadline_hours=48),
                 tiny_catalog)
    assert r.memory.fits and r.meets_deadline
    smaller = estimate(EstimateRequest(model="llama-2-70b", method="full", tokens_b=1, gpu="H100",
                                       gpu_count=r.gpu.count // 2), tiny_catalog)
    assert not (smaller.memory.fits and smaller.wall_hours.expected <= 48)


def test_card_without_bf16_falls_back_to_fp16_and_says_so(tiny_catalog) -> None:
    r = estimate(EstimateRequest(model="llama-3.1-8b", method="qlora", tokens_b=0.01, gpu="T4", gpu_count=1),
                 tiny_catalog)
    assert r.gpu.precision == "fp16"
    assert any(a.name == "precision" for a in r.assumptions)
    with pytest.raises(InputError, match="bf16"):
        estimate(EstimateRequest(model="llama-3.1-8b", method="qlora", tokens_b=0.01, gpu="T4", precision="bf16"),
                 tiny_catalog)
