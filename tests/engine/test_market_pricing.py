"""Reference prices come from the market model, and the currency semantics hold at the tool
level: "convert" keeps the same offers at the dated rate, "local" uses that currency's
offers, the default follows the question's language, and every report names its source."""

from __future__ import annotations

import pytest

from advisor.catalog import get_catalog
from advisor.catalog.market import market_for
from advisor.engine.params import Params
from advisor.engine.pricing import quote
from advisor.errors import InputError
from advisor.tools import compare_billing, estimate_training_cost

JOB = {"model": "qwen2.5-7b", "method": "lora", "tokens_b": 0.2, "gpu_count": 1}


def _assumption(report, name: str):
    return next(a for a in report.assumptions if a.name == name)


@pytest.mark.parametrize("gpu", ["A100-80GB", "H100", "RTX-4090", "L40S"])
def test_convert_keeps_the_same_offers_at_the_dated_rate(gpu: str) -> None:
    fx = get_catalog().fx
    usd = estimate_training_cost(**JOB, gpu=gpu, currency="USD", lang="en")
    cny = estimate_training_cost(**JOB, gpu=gpu, currency="CNY", lang="en", market="convert")
    assert cny.inputs["price_per_gpu_hour"] == pytest.approx(usd.inputs["price_per_gpu_hour"] * fx.rate, rel=1e-3)
    gpu_usd, gpu_cny = (r.cost.components[0] for r in (usd, cny))
    assert gpu_usd.name == "gpu_usage" and gpu_cny.name == "gpu_usage"
    assert gpu_cny.amount == pytest.approx(gpu_usd.amount * fx.rate, rel=1e-3)
    assert "convert" in str(_assumption(cny, "price.market").value)
    assert str(fx.rate) in _assumption(cny, "fx.rate").value


@pytest.mark.parametrize("gpu", ["A800", "RTX-4090", "T4"])
def test_local_market_uses_that_currencys_offers(gpu: str) -> None:
    cat = get_catalog()
    local = estimate_training_cost(**JOB, gpu=gpu, currency="CNY", market="local")
    m = market_for(gpu, "CNY", catalog=cat)
    assert local.inputs["price_per_gpu_hour"] == pytest.approx(m.median, rel=1e-3)
    assert "local" in str(_assumption(local, "price.market").value)


@pytest.mark.parametrize(
    ("lang", "currency", "choice"),
    [("en", "USD", "local"), ("zh", "CNY", "local"), ("en", "CNY", "convert"), ("zh", "USD", "convert")],
)
def test_default_market_follows_the_language_and_is_stated(lang: str, currency: str, choice: str) -> None:
    r = estimate_training_cost(**JOB, gpu="A100", currency=currency, lang=lang)
    market = _assumption(r, "price.market")
    assert str(market.value).startswith(choice) and "default" in market.source
    price = _assumption(r, "price_per_gpu_hour").source
    assert "provider(s)" in price and "price dates" in price  # which offers and dates priced it
    assert _assumption(r, "price.cheapest_offer").value  # a named offer


def test_billing_tool_takes_the_market_field() -> None:
    conv = compare_billing(gpu="4090", wall_hours=100, currency="CNY", market="convert")
    local = compare_billing(gpu="4090", wall_hours=100, currency="CNY", market="local")
    assert conv.unit_prices["hour"] != pytest.approx(local.unit_prices["hour"])
    with pytest.raises(InputError):
        compare_billing(gpu="4090", wall_hours=100, currency="CNY", market="abroad")


def test_spot_is_a_discount_for_every_priced_card_in_both_currencies() -> None:
    cat = get_catalog()
    for currency in ("USD", "CNY"):
        for gpu in cat.gpus:
            try:
                q = quote(cat, gpu.id, currency, Params(cat.defaults), market="local")
            except InputError:
                continue
            assert 0 < q.spot < q.on_demand, (gpu.id, currency)
            assert q.monthly < q.on_demand and q.yearly <= q.monthly
            assert q.low is not None and q.high is not None and q.low <= q.on_demand <= q.high


def test_cli_market_flag(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from advisor.cli import main

    args = ["estimate", "--model", "qwen2.5-7b", "--method", "lora", "--tokens", "200M", "--gpu", "4090",
            "--gpus", "1", "--currency", "CNY", "--json"]
    prices = {}
    for market in ("local", "convert"):
        assert main([*args, "--market", market]) == 0
        prices[market] = json.loads(capsys.readouterr().out)["inputs"]["price_per_gpu_hour"]
    assert prices["local"] == pytest.approx(market_for("4090", "CNY").median, rel=1e-3)
    assert prices["convert"] == pytest.approx(market_for("4090", "USD").median * get_catalog().fx.rate, rel=1e-3)
    assert main([*args, "--market", "abroad"]) == 2
    assert "market" in capsys.readouterr().err


@pytest.mark.parametrize("first, convert, local", [
    ("What does a LoRA fine-tune of qwen2.5-7b on 200M tokens cost on one A100?", "show it in CNY", "now use Chinese prices"),
    ("How much to LoRA qwen2.5-7b on 0.2B tokens with 1 A100 GPU?", "and in yuan?", "use domestic prices instead"),
])
def test_currency_follow_up_converts_unless_local_prices_are_asked_and_states_source_and_date(
        first: str, convert: str, local: str) -> None:
    from advisor.assistant import ask

    fx = get_catalog().fx
    a = ask(first, offline=True)
    b = ask(convert, history=a.history, offline=True)
    c = ask(local, history=b.history, offline=True)
    usd, cny_converted, cny_local = (r.answer for r in (a, b, c))
    for text in (usd, cny_converted, cny_local):
        assert "price dates" in text  # every answer says which sheet and which dates priced it
    assert "USD on-demand market" in usd and "$" in usd
    assert "USD on-demand market" in cny_converted and f"converted to CNY at {fx.rate} ({fx.as_of}" in cny_converted
    assert "CNY on-demand market" in cny_local and "converted" not in cny_local.split("**Estimate")[0]
