"""check_quote: any unit to a per-GPU-hour figure, a verdict against the market, a target."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.catalog.market import market_for
from advisor.cli import main
from advisor.engine.quotes import normalise, verdict
from advisor.errors import InputError
from advisor.present import present
from advisor.present.common import assumption_source
from advisor.tools import check_quote


def test_h100_at_2_10_on_a_12_month_term() -> None:
    r = check_quote(gpu="H100", price=2.10, unit="gpu_hour", term_months=12)
    assert r.price_per_gpu_hour == pytest.approx(2.10)
    assert r.market.mode == "yearly" and r.market.offers >= 3
    assert r.market.p10 <= r.market.median <= r.market.p90
    assert r.verdict in {"below", "at", "above"}
    assert any(f.rule_id == "quote.term_without_exit" for f in r.findings)


def test_an_8_card_h800_node_at_90000_yuan_a_month() -> None:
    r = check_quote(gpu="H800", price=90000, unit="node_month", currency="CNY")
    assert r.inputs["gpu_count"] == 8  # a node is 8 cards unless told
    assert r.price_per_gpu_hour == pytest.approx(90000 / 8 / 730)
    assert r.market.mode == "monthly" and r.currency == "CNY"
    assert r.market.as_of_max is not None
    assert "8 张 H800" in present("check_quote", r, "zh").summary


def test_the_same_price_in_every_unit_normalises_alike() -> None:
    hourly = check_quote(gpu="A100", price=1.5, unit="gpu_hour", term_months=1)
    monthly = check_quote(gpu="A100", price=1.5 * 730, unit="gpu_month")
    node = check_quote(gpu="A100", price=1.5 * 730 * 8, unit="node_month", gpu_count=8)
    yearly = check_quote(gpu="A100", price=1.5 * 8760, unit="gpu_year")
    for r in (monthly, node, yearly):
        assert r.price_per_gpu_hour == pytest.approx(hourly.price_per_gpu_hour)
    assert yearly.market.mode == "yearly" and monthly.market.mode == "monthly"


def test_verdict_follows_the_price_against_the_median() -> None:
    m = market_for("A100-80GB", "USD", "on_demand")
    cheap = check_quote(gpu="A100", price=m.median * 0.5)
    fair = check_quote(gpu="A100", price=m.median)
    dear = check_quote(gpu="A100", price=m.median * 2)
    assert (cheap.verdict, fair.verdict, dear.verdict) == ("below", "at", "above")
    assert dear.saving_per_month_at_target > 0 and cheap.saving_per_month_at_target == 0
    assert any(f.rule_id == "quote.above_market" for f in dear.findings)


def test_included_storage_lowers_the_compute_part() -> None:
    bare = check_quote(gpu="A100", price=1200, unit="gpu_month")
    bundled = check_quote(gpu="A100", price=1200, unit="gpu_month", included_storage_gb=2000)
    assert bundled.compute_per_gpu_hour < bare.compute_per_gpu_hour
    assert bundled.price_per_gpu_hour == bare.price_per_gpu_hour


@settings(max_examples=40, deadline=None)
@given(st.floats(0.05, 1.0), st.floats(0.05, 1.0))
def test_a_committed_price_per_used_hour_never_falls_as_use_falls(u1: float, u2: float) -> None:
    lo, hi = sorted((u1, u2))
    assert normalise(1000, "gpu_month", 1, utilization=lo).per_used_gpu_hour >= \
        normalise(1000, "gpu_month", 1, utilization=hi).per_used_gpu_hour


def test_verdict_band() -> None:
    assert verdict(1.05, 1.0, 0.1) == "at" and verdict(0.8, 1.0, 0.1) == "below" and verdict(1.2, 1.0, 0.1) == "above"


@pytest.mark.parametrize("kwargs", [
    {"gpu": "H100", "price": 0},
    {"gpu": "H100", "price": 2, "unit": "gpu_week"},
    {"gpu": "H100", "price": 2, "utilization": 0},
    {"gpu": "H100", "price": 2, "term_months": -3},
    {"gpu": "H1OO0", "price": 2},
    {"gpu": "H100", "price": 2, "currency": "EUR"},
])
def test_bad_input_is_an_input_error(kwargs: dict) -> None:
    with pytest.raises(InputError):
        check_quote(**kwargs)


def test_cli_quote(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["quote", "--gpu", "h800", "--price", "90000", "--unit", "node_month", "--currency", "CNY", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] in {"below", "at", "above"} and set(out["market"]) >= {"p10", "median", "p90", "offers"}
    assert main(["quote", "--gpu", "h100", "--price", "2", "--unit", "fortnight"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_a_term_quote_carries_a_lock_valuation_that_follows_the_drift() -> None:
    from advisor.engine.price_history import lock_value

    r = check_quote(gpu="H100", price=2.10, term_months=12)
    assert r.lock is not None and r.lock["months"] == 12
    assert r.lock["locked_cost"] == pytest.approx(2.10 * 730 * 12)
    falling = lock_value(lock=2.0, now=2.0, months=12, gpu_count=1, drift=-0.2, sigma=0.25)
    rising = lock_value(lock=2.0, now=2.0, months=12, gpu_count=1, drift=0.2, sigma=0.25)
    assert falling.expected_saving < 0 < rising.expected_saving
    assert 0 <= falling.protection <= rising.protection
    assert check_quote(gpu="H100", price=2.10).lock is None  # no term, nothing locked


def test_price_history_of_a_card_with_dated_rows() -> None:
    from advisor.tools.price_history import price_history

    r = price_history("4090", "CNY")
    assert len(r.points) >= 2 and [p.month for p in r.points] == sorted(p.month for p in r.points)
    assert len(r.moves) == len(r.points) - 1
    assert all((abs(m["change"]) > r.alert_threshold) == (m in r.alerts) for m in r.moves)
    assert bool(r.alerts) == any(f.rule_id == "prices.price_moved" for f in r.findings)


def test_cli_prices_history(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prices", "--history", "4090", "--currency", "CNY", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["points"] and "alerts" in out
    assert main(["prices", "--history", "nosuchcard"]) == 2


@pytest.mark.parametrize(("unit", "price", "cards", "said"), [
    ("gpu_hour", 18.0, 1, {"en": "one card", "zh": "一张卡"}),
    ("gpu_month", 12000.0, 1, {"en": "one card", "zh": "一张卡"}),
    ("node_hour", 150.0, 8, {"en": "one node", "zh": "一台服务器"}),
    ("node_month", 90000.0, 8, {"en": "one node", "zh": "一台服务器"}),
])  # fmt: skip
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_unsaid_card_count_follows_the_unit_and_says_which(unit: str, price: float, cards: int,
                                                              said: dict[str, str], lang: str) -> None:
    report = check_quote(gpu="H100-SXM", price=price, unit=unit, currency="CNY", lang=lang)
    count = next(a for a in report.assumptions if a.name == "quote.gpu_count")
    assert (count.value, assumption_source(count, lang)) == (cards, said[lang])
