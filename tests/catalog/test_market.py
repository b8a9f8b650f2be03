"""The market model: one offer per provider, per-provider ratios, pooling when a market is
thin, stale rows flagged — on a small price sheet written here, and on the shipped data."""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

import pytest

from advisor.catalog import load_catalog
from advisor.catalog.market import NoMarketError, market_for, market_table
from advisor.errors import InputError
from advisor.present.fmt import text_of
from tests.catalog.conftest import CATALOG_DIR

HEADER = (
    "provider,sku,region,gpu,gpu_count,currency,on_demand_per_hour,spot_per_hour,"
    "daily,monthly,yearly,billing_increment_s,as_of,source,note\n"
)
TODAY = date(2026, 12, 1)


def _catalog(tmp_path: Path, rows: str):
    target = tmp_path / "cat"
    (target / "prices").mkdir(parents=True)
    for name in ("gpus.yaml", "models.yaml", "providers.yaml", "defaults.yaml", "fx.yaml"):
        shutil.copy(CATALOG_DIR / name, target / name)
    (target / "prices" / "sheet.csv").write_text(HEADER + rows, encoding="utf-8")
    return load_catalog(target)


def test_one_offer_per_provider_enters_the_statistic(tmp_path: Path) -> None:
    # runpod lists four SKUs; it must count once (its cheapest), not four times.
    rows = "".join(
        f"runpod,r{i},,H100-SXM,1,USD,{p},,,,,,2026-10-01,test sheet,\n"
        for i, p in enumerate((9, 9.5, 10, 11))
    )
    rows += "lambda,l,,H100-SXM,8,USD,16,,,,,,2026-10-01,test sheet,\nvast,v,,H100-SXM,2,USD,5,,,,,,2026-10-01,test sheet,\n"
    m = market_for("h100", "usd", catalog=_catalog(tmp_path, rows), today=TODAY)
    assert m.offers == 3
    assert sorted(m.providers) == ["lambda", "runpod", "vast"]
    assert m.median == pytest.approx(2.5)  # per GPU: vast 2.5, lambda 2.0, runpod 9.0
    assert m.p10 <= m.median <= m.p90
    assert m.cheapest.provider == "lambda" and m.cheapest.price == pytest.approx(2.0)
    assert m.fallback is None
    assert m.model_dump()["rows"][0]["sku"] == "l"


def test_spot_ratio_is_per_provider_then_summarised(tmp_path: Path) -> None:
    # aws has four spot rows at 0.9 of its on-demand; counted per row the median would be 0.9.
    rows = "".join(
        f"aws,a{i},,A100-80GB,1,USD,{4 + i},{(4 + i) * 0.9},,,,,,test sheet,\n" for i in range(4)
    )
    rows += "runpod,r,,A100-80GB,1,USD,2,0.4,,,,,,test sheet,\nvast,v,,A100-80GB,1,USD,1.5,0.45,,,,,,test sheet,\n"
    m = market_for("A100-80GB", "USD", "spot", catalog=_catalog(tmp_path, rows), today=TODAY)
    assert m.offers == 3
    assert m.spot_ratio == pytest.approx(0.3)  # aws 0.9, runpod 0.2, vast 0.3 -> median 0.3
    assert m.ratio_providers == 3


def test_thin_market_pools_equivalent_card_then_converted_offers(tmp_path: Path) -> None:
    rows = (
        "autodl,a,,A800-80GB,1,CNY,5,,,,,,2026-10-01,test sheet,\n"
        "gongjiyun,g,,A100-80GB,1,CNY,7,,,,,,2026-09,test sheet,\n"
        "lambda,l,,A100-80GB,1,USD,1.5,,,,,,unknown,test sheet,\n"
        "runpod,r,,A100-80GB,1,USD,1.6,,,,,,unknown,test sheet,\n"
    )
    cat = _catalog(tmp_path, rows)
    cny = market_for("A800", "CNY", catalog=cat, today=TODAY)
    assert cny.offers == 4  # autodl + gongjiyun's A100 (still < 3) + both USD offers converted
    said = {lang: text_of(cny.fallback, lang) for lang in ("en", "zh")}
    assert "A100-80GB" in said["en"] and "converted" in said["en"] and "等效卡" in said["zh"]
    converted = [r for r in cny.rows if r.converted]
    rate = cat.fx.rate
    assert converted and converted[0].price == pytest.approx(1.5 * rate)
    usd = market_for("A100-80GB", "USD", catalog=cat, today=TODAY)
    # two USD offers, no USD A800: gongjiyun's CNY A100 converted makes the third
    assert usd.offers == 3 and [r.provider for r in usd.rows if r.converted] == ["gongjiyun"]
    assert usd.undated == 2 and usd.as_of_min == usd.as_of_max == date(2026, 9, 1)


def test_each_provider_type_has_its_median_and_the_market_says_which_set_it(tmp_path: Path) -> None:
    # the clouds list the A100 dear; the rental platforms list the A800 (its twin) cheap
    rows = (
        "alibaba,a,,A100-80GB,1,CNY,30,,,,,,2026-10-01,test sheet,\n"
        "tencent,t,,A100-80GB,1,CNY,34,,,,,,2026-10-01,test sheet,\n"
        "ctyun,c,,A100-80GB,1,CNY,38,,,,,,2026-10-01,test sheet,\n"
        "autodl,d,,A800-80GB,1,CNY,5,,,,,,2026-10-01,test sheet,\n"
        "matpool,m,,A800-80GB,2,CNY,12,,,,,,2026-10-01,test sheet,\n"
    )
    m = market_for("A100-80GB", "CNY", catalog=_catalog(tmp_path, rows), today=TODAY)
    assert m.median == pytest.approx(34) and m.fallback is None  # three own providers: no pooling
    assert m.by_kind["cloud"].median == pytest.approx(34)
    assert m.by_kind["marketplace"].median == pytest.approx(5.5)  # autodl 5, matpool 6 per card
    assert m.by_kind["marketplace"].providers == ["autodl", "matpool"] and m.kind_cards == ["A800-80GB"]
    en, zh = (text_of(m.words(), lang) for lang in ("en", "zh"))
    assert "rental platforms 5.50 (2)" in en and "big clouds 34.00 (3)" in en
    assert "算力租赁平台 5.50（2 家）" in zh and "A800-80GB" in zh


def test_market_with_enough_local_offers_does_not_mix_currencies(tmp_path: Path) -> None:
    rows = "".join(
        f"{p},x,,RTX-4090,1,CNY,{v},,,,,,2026-10-01,test sheet,\n"
        for p, v in (("autodl", 1.9), ("gongjiyun", 2.0), ("gitee-ai", 2.1))
    )
    rows += "vast,v,,RTX-4090,1,USD,0.3,,,,,,unknown,test sheet,\n"
    m = market_for("4090", "CNY", catalog=_catalog(tmp_path, rows), today=TODAY)
    assert m.fallback is None and not any(r.converted for r in m.rows)
    assert m.median == pytest.approx(2.0)


def test_old_rows_are_flagged_stale(tmp_path: Path) -> None:
    rows = (
        "alibaba,old,,T4,1,CNY,11,,,,,,2023-06 (blog),test sheet,\n"
        "tencent,new,,T4,1,CNY,8,,,,,,2026-10-01,test sheet,\n"
        "autodl,new,,T4,1,CNY,2,,,,,,undated,test sheet,\n"
    )
    cat = _catalog(tmp_path, rows)
    m = market_for("T4", "CNY", catalog=cat, today=TODAY)
    assert m.stale and m.stale_providers == ["alibaba"]
    assert "stale" in text_of(m.words(), "en") and "过时" in text_of(m.words(), "zh")
    assert not market_for("T4", "CNY", catalog=cat, today=date(2024, 1, 1)).stale


def test_no_offer_anywhere_is_a_clear_error(tmp_path: Path) -> None:
    cat = _catalog(tmp_path, "vast,v,,RTX-4090,1,USD,0.3,,,,,,unknown,test sheet,\n")
    with pytest.raises(NoMarketError, match="spot"):
        market_for("RTX-4090", "USD", "spot", catalog=cat)
    with pytest.raises(InputError, match="mode"):
        market_for("RTX-4090", "USD", "weekly", catalog=cat)


def test_shipped_markets_are_coherent() -> None:
    cat = load_catalog(CATALOG_DIR)
    for currency in ("USD", "CNY"):
        table = market_table(cat, currency)
        assert len(table) >= 15
        for m in table:
            assert m.p10 <= m.median <= m.p90
            assert len(set(m.providers)) == m.offers
        for m in market_table(cat, currency, "spot"):  # the seeds: spot costs 10-50 % (here ≤ 70 %) of on-demand
            assert m.ratio_to_on_demand is not None and 0.1 <= m.ratio_to_on_demand <= 0.7, (m.gpu, currency)
