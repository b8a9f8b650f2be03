"""compare_own_vs_rent: per used hour each way, break-even, the hybrid plan."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.cli import main
from advisor.engine.ownership import hybrid_plan, ownership_cost
from advisor.errors import InputError
from advisor.tools import compare_own_vs_rent

COST = ownership_cost(card=27500, server=12125, network=8130, years=4, depreciation_years=5, resale_share=0.3,
                      maintenance_share=0.08, failure_rate=0.06, warranty_years=3, colocation_per_year=3000,
                      staff_per_year=400, kw_active=1.0, kw_idle=0.2, pue=1.3, price_kwh=0.12)


@settings(max_examples=60, deadline=None)
@given(st.floats(0.01, 1.0), st.floats(0.01, 1.0))
def test_higher_utilisation_never_makes_owning_dearer_per_used_hour(u1: float, u2: float) -> None:
    lo, hi = sorted((u1, u2))
    assert COST.per_used_hour(hi) <= COST.per_used_hour(lo) + 1e-12


def test_break_even_and_hybrid_for_base_64_peaks_256() -> None:
    r = compare_own_vs_rent(gpu="H100", gpu_count=64, utilization=0.7, years=4, base_gpus=64, peak_gpus=256,
                            price_per_gpu_hour=4.0)
    assert r.break_even_utilization is not None and 0 < r.break_even_utilization < 1
    at = min(r.curve, key=lambda c: abs(c["utilization"] - r.break_even_utilization))  # type: ignore[operator]
    assert at["own"] == pytest.approx(at["rent"], rel=0.25)
    h = r.hybrid
    assert h is not None and h.profile.count(256) == 3 and h.profile.count(64) == 9
    assert 0 < h.owned_gpus < 256
    assert h.total <= min(h.all_rent_total, h.all_own_total)
    assert any(f.rule_id == "ownership.hybrid_base_and_peaks" for f in r.findings)


def test_at_market_median_rents_the_report_says_which_is_cheaper() -> None:
    r = compare_own_vs_rent(gpu="A100", gpu_count=8, utilization=0.3)
    assert r.cheaper == "rent" and r.own.per_used_gpu_hour > r.rent.per_used_gpu_hour
    assert any(f.rule_id == "ownership.rent_is_cheaper" for f in r.findings)
    assert {"own.purchase_price.A100-80GB", "own.colocation_per_kw_month", "energy.price_per_kwh"} <= \
        {a.name for a in r.assumptions}


def test_both_currencies_have_purchase_prices() -> None:
    usd = compare_own_vs_rent(gpu="H100", currency="USD")
    cny = compare_own_vs_rent(gpu="H100", currency="CNY")
    assert cny.capex > usd.capex * 5


def test_hybrid_never_beats_itself() -> None:
    h = hybrid_plan([10, 10, 40], COST, rent_month_per_gpu=2500)
    assert h.total <= h.all_rent_total and h.total <= h.all_own_total
    flat = hybrid_plan([10, 10, 10], COST, rent_month_per_gpu=10_000)
    assert flat.owned == 10


def test_on_premises_drops_the_colocation_fee() -> None:
    colo = compare_own_vs_rent(gpu="H100", hosting="colocation")
    prem = compare_own_vs_rent(gpu="H100", hosting="on_premises")
    assert prem.own.per_used_gpu_hour < colo.own.per_used_gpu_hour


@pytest.mark.parametrize("kwargs", [
    {"gpu": "H100", "utilization": 0},
    {"gpu": "H100", "utilization": 1.5},
    {"gpu": "H100", "base_gpus": 64},
    {"gpu": "H100", "base_gpus": 300, "peak_gpus": 256},
    {"gpu": "H100", "demand_profile": [-1, 5]},
    {"gpu": "H100", "pue": 0.5},
    {"gpu": "L4"},  # no dated purchase price: the error says to give one
])
def test_bad_input_is_an_input_error(kwargs: dict) -> None:
    with pytest.raises(InputError):
        compare_own_vs_rent(**kwargs)


def test_cli_own(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["own", "--gpu", "h100", "--gpus", "64", "--utilization", "0.7", "--base", "64", "--peak", "256", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert "break_even_utilization" in out and out["hybrid"]["profile"]
    assert main(["own", "--gpu", "h100", "--profile", "64,x"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
