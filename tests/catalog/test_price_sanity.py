"""Sanity rules on the shipped price sheets, as data tests: spot never above on-demand for the
same offer, monthly within 730 on-demand hours unless the row says why, explicit as-of dates,
heavy hosts apart, and every card-tier inversion of the market medians in the build report."""

from __future__ import annotations

import importlib.util
import sys

from advisor.catalog import load_catalog
from advisor.catalog.prices import parse_as_of
from advisor.config import ROOT
from advisor.units import HOURS_PER_MONTH
from tests.catalog.conftest import CATALOG_DIR

REPORT = CATALOG_DIR / "prices" / "build_report.md"


def _build_module():
    spec = importlib.util.spec_from_file_location("build_prices", ROOT / "scripts" / "build_prices.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("build_prices", module)
    spec.loader.exec_module(module)
    return module


def test_no_spot_price_above_on_demand_for_the_same_offer() -> None:
    cat = load_catalog(CATALOG_DIR)
    bad = [(o.provider, o.sku) for o in cat.price_offers
           if o.spot_per_hour and o.on_demand_per_hour and o.spot_per_hour > o.on_demand_per_hour]
    assert not bad


def test_monthly_is_at_most_730_on_demand_hours_unless_the_sheet_says_so() -> None:
    cat = load_catalog(CATALOG_DIR)
    bad = [(o.provider, o.sku) for o in cat.price_offers
           if o.monthly and o.on_demand_per_hour and o.monthly > o.on_demand_per_hour * HOURS_PER_MONTH
           and "monthly above" not in o.note]
    assert not bad


def test_every_row_has_an_explicit_date_or_unknown() -> None:
    cat = load_catalog(CATALOG_DIR)
    for o in cat.price_offers:
        assert o.as_of == "unknown" or parse_as_of(o.as_of) is not None, (o.provider, o.sku, o.as_of)
    assert any(o.as_of != "unknown" for o in cat.price_offers if o.currency == "CNY")


def test_heavy_hosts_stay_apart_when_the_provider_has_a_standard_one() -> None:
    from advisor.catalog.market import market_for

    cat = load_catalog(CATALOG_DIR)
    heavy = [o for o in cat.price_offers if o.host == "heavy"]
    assert heavy
    for o in heavy:
        standard = [s for s in cat.offers(gpu=o.gpu, currency=o.currency, provider=o.provider) if not s.host]
        m = market_for(o.gpu, o.currency, catalog=cat)
        if standard:
            assert not any(r.provider == o.provider and r.sku == o.sku for r in m.rows)


def test_host_rule_marks_cpu_or_ram_heavy_instances() -> None:
    build = _build_module()
    assert build.host_kind(64, 271, 1, 24)[0] == "heavy"  # 64 vCPU for one RTX 4090
    assert build.host_kind(8, 400, 1, 48)[0] == "heavy"  # 400 GiB RAM for one 48 GB card
    assert build.host_kind(192, 2048, 8, 80)[0] == ""  # AWS p5.48xlarge: 24 vCPU, 256 GiB per GPU
    assert build.host_kind(28, 283, 1, 180)[0] == ""  # a B200 host: RAM in proportion to the card
    assert build.host_kind(16, 96, 1, 40)[0] == ""


def test_build_report_lists_every_tier_inversion_and_offers_per_currency() -> None:
    from advisor.catalog.market import NoMarketError, market_for

    build = _build_module()
    cat = load_catalog(CATALOG_DIR)
    text = REPORT.read_text(encoding="utf-8")
    tiers = {g.id: g.tier for g in cat.gpus}
    for currency in ("USD", "CNY"):
        medians = {}
        for gpu in cat.gpus:
            try:
                medians[gpu.id] = market_for(gpu.id, currency, catalog=cat).median
            except NoMarketError:
                continue
        for a, b in build.inversions(medians, tiers):
            assert f"{a} ({tiers[a]}) {medians[a]:.2f} < {b} ({tiers[b]}) {medians[b]:.2f}" in text
    for gpu in cat.gpus:
        assert f"| {gpu.id} | {gpu.tier} |" in text


def test_inversions_are_higher_tier_cards_priced_below_lower_tier_ones() -> None:
    build = _build_module()
    tiers = {"X": "flagship", "Y": "consumer", "Z": "npu"}
    assert build.inversions({"X": 1.0, "Y": 2.0, "Z": 0.1}, tiers) == [("X", "Y")]
    assert build.inversions({"X": 3.0, "Y": 2.0}, tiers) == []
