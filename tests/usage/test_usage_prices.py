"""Telemetry is priced from the inventory, the given price, or the catalog; never made up."""

from __future__ import annotations

import pytest
from usage_helpers import FIXTURES, H100, write

from advisor.errors import InputError
from advisor.tools import analyze_usage


def test_catalog_price_for_a_known_card() -> None:
    r = analyze_usage(files=[str(FIXTURES / f"{H100}__load.metrics")])
    gpu = r.telemetry.gpus[0]  # type: ignore[union-attr]
    assert gpu.price_per_gpu_hour is not None and gpu.price_per_gpu_hour > 0
    price = next(a for a in r.assumptions if a.name.startswith("price_per_gpu_hour["))
    assert "NVIDIA H100" in price.name and ("catalog" in price.source or "price sheet" in price.source)
    assert price.value == pytest.approx(gpu.price_per_gpu_hour, rel=1e-3)


def test_unknown_card_without_a_price_is_an_input_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    text = "timestamp, uuid, name, utilization.gpu [%]\n2026/06/01 10:00:00.000, GPU-a, Mystery Accelerator 9000, 50 %\n"
    with pytest.raises(InputError) as info:
        analyze_usage(files=[str(write(tmp_path / "log.csv", text))])
    assert info.value.field == "price_per_gpu_hour" and "Mystery Accelerator 9000" in info.value.one_line()


def test_given_price_is_used_and_listed() -> None:
    r = analyze_usage(files=[str(FIXTURES / f"{H100}__load.metrics")], price_per_gpu_hour=7.5, currency="CNY")
    assert r.telemetry.gpus[0].price_per_gpu_hour == 7.5  # type: ignore[union-attr]
    given = next(a for a in r.assumptions if a.name == "price_per_gpu_hour")
    assert given.value == 7.5 and given.unit == "CNY per GPU-hour"
