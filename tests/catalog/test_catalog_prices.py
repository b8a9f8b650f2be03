"""Price sheets, provider terms, and the user's negotiated sheet."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from advisor.catalog import Catalog, get_catalog, load_catalog
from advisor.catalog.providers import SourcedValue
from advisor.config import ROOT
from advisor.errors import DataError, InputError, UnknownNameError

CATALOG_DIR = ROOT / "knowledge" / "catalog"


def write_sheet(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_sheets_are_shipped_in_both_currencies(catalog: Catalog) -> None:
    currencies = {o.currency for o in catalog.price_offers}
    assert currencies == {"USD", "CNY"}
    assert len(catalog.offers(currency="USD")) >= 200
    assert len(catalog.offers(currency="CNY")) >= 50


def test_at_least_two_cny_providers_remain(catalog: Catalog) -> None:
    cny = {o.provider for o in catalog.offers(currency="CNY")}
    assert len(cny) >= 2
    assert {"tencent", "alibaba", "autodl", "ctyun"} <= cny


def test_every_offer_maps_to_catalog_gpu_and_provider(catalog: Catalog) -> None:
    gpu_ids = {g.id for g in catalog.gpus}
    for offer in catalog.price_offers:
        assert offer.gpu in gpu_ids
        assert offer.provider in catalog.providers
        assert offer.currency == catalog.providers[offer.provider].currency


def test_every_offer_keeps_its_provenance(catalog: Catalog) -> None:
    for offer in catalog.price_offers:
        assert offer.source.startswith(("shared/data/prices/", "scripts/price_sources/")), offer.source
        assert " line " in offer.source
        if offer.source.startswith("scripts/price_sources/"):  # found by search: a URL and a date
            assert "https://" in offer.source, offer.source
            assert offer.as_of_date is not None, offer.source
        if offer.currency == "USD":
            assert "skypilot-org/skypilot-catalog:catalogs/v7/" in offer.source
            assert "@" in offer.source  # the upstream commit
        assert offer.as_of


def test_per_gpu_prices_are_positive_python_floats(catalog: Catalog) -> None:
    for offer in catalog.price_offers:
        price = offer.per_gpu_hour
        if price is None:
            assert offer.spot_per_hour is not None  # spot-only offers have no on-demand basis
            continue
        assert type(price) is float and price > 0 and math.isfinite(price)
        for billing in ("on_demand", "spot", "daily", "monthly", "yearly"):
            value = offer.per_gpu_hour_for(billing)
            assert value is None or (type(value) is float and value > 0)
        for column in ("on_demand_per_hour", "spot_per_hour", "monthly"):
            value = getattr(offer, column)
            assert value is None or type(value) is float
    json.dumps([o.model_dump(mode="json") for o in catalog.price_offers])


def test_per_gpu_hour_spreads_instance_prices() -> None:
    from advisor.catalog import PriceOffer

    offer = PriceOffer(
        provider="x",
        gpu="H100-SXM",
        gpu_count=8,
        currency="CNY",
        monthly=73000.0,
        source="unit test offer",
    )
    assert offer.per_gpu_hour == pytest.approx(73000 / 730 / 8)
    assert offer.price_basis == "monthly"
    assert offer.per_gpu_hour_for("on_demand") is None
    with pytest.raises(InputError):
        offer.per_gpu_hour_for("weekly")


def test_spot_never_above_on_demand(catalog: Catalog) -> None:
    """RunPod L40S has the two columns swapped upstream; the sheet swaps them back."""
    for offer in catalog.price_offers:
        if offer.spot_per_hour is not None and offer.on_demand_per_hour is not None:
            assert offer.spot_per_hour <= offer.on_demand_per_hour, offer.sku
    runpod_l40s = catalog.offers(gpu="L40S", provider="runpod")
    assert runpod_l40s and all("swapped" in o.note for o in runpod_l40s)


def test_marketplace_memory_mixes_are_split(catalog: Catalog) -> None:
    prime_a100 = {
        o.gpu for o in catalog.offers(provider="primeintellect") if o.gpu.startswith("A100")
    }
    assert prime_a100 == {"A100-40GB", "A100-80GB"}
    assert catalog.offers(gpu="V100-16GB", provider="lambda")


def test_offers_are_ordered_cheapest_per_gpu_hour_first(catalog: Catalog) -> None:
    offers = catalog.offers(gpu="h100", currency="USD")
    prices = [o.per_gpu_hour for o in offers if o.per_gpu_hour is not None]
    assert prices == sorted(prices)
    mixed = catalog.offers(gpu="a100")
    currencies = [o.currency for o in mixed]
    assert currencies == sorted(currencies, key=["USD", "CNY"].index)


def test_offer_filters_resolve_names(catalog: Catalog) -> None:
    assert {o.provider for o in catalog.offers(provider="腾讯云")} == {"tencent"}
    assert {o.provider for o in catalog.offers(provider="Alibaba Cloud")} == {"alibaba"}
    assert {o.currency for o in catalog.offers(currency="rmb")} == {"CNY"}
    assert {o.gpu for o in catalog.offers(gpu="昇腾910B")} == {"Ascend-910B"}
    with pytest.raises(UnknownNameError) as err:
        catalog.offers(provider="runpood")
    assert "runpod" in err.value.suggestions
    with pytest.raises(InputError):
        catalog.offers(currency="EUR")


def test_billing_increment_comes_from_provider_terms(catalog: Catalog) -> None:
    aws = catalog.offers(provider="aws")
    assert aws and all(o.billing_increment_s == 1.0 for o in aws)
    assert all(o.billing_increment_s == 60.0 for o in catalog.offers(provider="lambda"))
    small = [o for o in catalog.offers(provider="alibaba") if "4vCPU" in o.sku]
    assert small and all(o.billing_increment_s == 120.0 for o in small)


def _sourced_values(provider: object) -> list[SourcedValue]:
    return [v for v in vars(provider).values() if isinstance(v, SourcedValue)]


def test_every_provider_term_has_a_source(catalog: Catalog) -> None:
    for provider in catalog.providers.values():
        for value in _sourced_values(provider):
            assert len(value.source) > 15
        for group in (
            provider.term_discounts,
            provider.tiered_discounts,
            provider.volume_discounts,
            provider.offpeak_discounts,
            provider.notes,
        ):
            for item in group:
                assert len(item.source) > 15


def test_documented_provider_terms(catalog: Catalog) -> None:
    aws, runpod, tencent = (catalog.provider(n) for n in ("aws", "runpod", "腾讯云"))
    assert aws.spot_reclaim_notice_s and aws.spot_reclaim_notice_s.value == 120
    assert aws.minimum_charge_s and aws.minimum_charge_s.value == 60
    assert runpod.egress_per_gb and runpod.egress_per_gb.value == 0
    assert [d.multiplier for d in tencent.term_discounts] == [0.88, 0.83, 0.70, 0.50, 0.50]
    assert [d.multiplier for d in tencent.tiered_discounts] == [0.50, 0.34]
    alibaba = catalog.provider("阿里云")
    assert alibaba.spot_protection_s and alibaba.spot_protection_s.value == 3600
    assert catalog.provider("共绩算力").spot_multiplier.value == 0.60  # type: ignore[union-attr]
    assert not any(p.offpeak_discounts for p in catalog.providers.values())  # none published


# ---------------------------------------------------------------------- user sheets
def test_user_sheet_override_wins(tmp_path: Path) -> None:
    sheet = write_sheet(
        tmp_path / "mine.csv",
        "gpu,currency,price_per_gpu_hour,provider,as_of\n"
        "A100 80G,USD,9.99,our-idc,2026-09-01\n"
        "h100,USD,2.5,Lambda Labs,2026-09-01\n",
    )
    cat = load_catalog(CATALOG_DIR, user_prices=sheet)
    first = cat.offers(gpu="a100", currency="USD")[0]
    assert first.negotiated and first.provider == "our-idc" and first.on_demand_per_hour == 9.99
    listed = [o.on_demand_per_hour for o in cat.offers(gpu="a100", currency="USD") if o.on_demand_per_hour]
    assert first.on_demand_per_hour > min(listed)  # it wins although list prices are cheaper
    lambda_h100 = cat.offers("h100", "USD", provider="lambda")[0]
    assert lambda_h100.negotiated
    assert lambda_h100.billing_increment_s == 60.0  # known provider: its terms still apply
    assert cat.offers(provider="our-idc")[0].source.startswith("user price sheet")


def test_user_sheet_minimal_columns_and_instance_prices(tmp_path: Path) -> None:
    sheet = write_sheet(
        tmp_path / "mine.csv", "\ufeffgpu,currency,monthly,gpu_count\n昇腾910B,元,15000,8\n"
    )
    cat = load_catalog(CATALOG_DIR, user_prices=sheet)
    offer = cat.offers(gpu="Ascend-910B")[0]
    assert offer.negotiated and offer.currency == "CNY" and offer.gpu_count == 8
    assert offer.provider == "user"
    assert offer.per_gpu_hour == pytest.approx(15000 / 730 / 8)
    per_gpu = write_sheet(
        tmp_path / "per_gpu.csv", "gpu,currency,price_per_gpu_hour,gpu_count\nl40s,usd,1,4\n"
    )
    assert (
        load_catalog(CATALOG_DIR, user_prices=per_gpu).offers(gpu="l40s")[0].on_demand_per_hour
        == 4.0
    )


@pytest.mark.parametrize(
    ("text", "row", "field", "words"),
    [
        ("gpu,currency,cost\nh100,USD,2\n", 1, "cost", "accepted columns"),
        ("gpu,price_per_gpu_hour\nh100,2\n", 1, "currency", "missing"),
        ("gpu,currency,provider\nh100,USD,x\n", 1, None, "no price column"),
        (
            "gpu,currency,on_demand_per_hour\nh100,USD,2\nh100,USD,abc\n",
            3,
            "on_demand_per_hour",
            "'abc'",
        ),
        ("gpu,currency,on_demand_per_hour\nh100,USD,-2\n", 2, "on_demand_per_hour", "positive"),
        ("gpu,currency,monthly\nh1000,USD,2\n", 2, "gpu", "did you mean"),
        ("gpu,currency,monthly\nh100,EUR,2\n", 2, "currency", "USD or CNY"),
        ("gpu,currency,monthly,gpu_count\nh100,USD,2,1.5\n", 2, "gpu_count", "whole number"),
        ("gpu,currency,monthly,spot_per_hour\nh100,USD,,\n", 2, None, "no price given"),
        (
            "gpu,currency,on_demand_per_hour,price_per_gpu_hour\nh100,USD,2,2\n",
            2,
            "price_per_gpu_hour",
            "not both",
        ),
        ("gpu,currency,monthly\nh100,USD,2,extra\n", 2, None, "more values"),
    ],
)
def test_broken_user_sheet_names_file_row_and_field(
    tmp_path: Path, text: str, row: int, field: str | None, words: str
) -> None:
    sheet = write_sheet(tmp_path / "broken.csv", text)
    with pytest.raises(DataError) as err:
        load_catalog(CATALOG_DIR, user_prices=sheet)
    error = err.value
    assert error.path == str(sheet) and error.row == row
    if field is not None:
        assert error.field == field
    message = str(error)
    assert "broken.csv" in message and f"row {row}" in message and words in message
    assert "\n" not in message


def test_user_sheet_from_environment_and_argument(
    knowledge_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sheet = write_sheet(tmp_path / "env.csv", "gpu,currency,on_demand_per_hour\nT4,CNY,1.5\n")
    assert not any(o.negotiated for o in get_catalog().price_offers)
    monkeypatch.setenv("ADVISOR_PRICES", str(sheet))
    assert get_catalog().offers(gpu="t4", currency="CNY")[0].negotiated
    monkeypatch.delenv("ADVISOR_PRICES")
    assert get_catalog(user_prices=sheet).offers(gpu="t4", currency="CNY")[0].negotiated
    with pytest.raises(DataError) as err:
        get_catalog(user_prices=tmp_path / "missing.csv")
    assert "missing.csv" in str(err.value) and "not found" in str(err.value)
