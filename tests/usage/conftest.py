"""Fixtures of the usage tests: a small synthetic fleet, written once per session."""

from __future__ import annotations

from pathlib import Path

import pytest
from usage_helpers import SMALL_FLEET

from bench.synth_fleet import write_fleet


@pytest.fixture(scope="session")
def fleet_parquet(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    path = tmp_path_factory.mktemp("fleet") / "fleet.parquet"
    return path, write_fleet(path, SMALL_FLEET)


@pytest.fixture(scope="session")
def fleet_csv(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    path = tmp_path_factory.mktemp("fleet") / "fleet.csv"
    return path, write_fleet(path, SMALL_FLEET)


@pytest.fixture(scope="session")
def fleet_report(fleet_parquet: tuple[Path, dict]):  # type: ignore[no-untyped-def]
    from advisor.tools import analyze_usage

    return analyze_usage(files=[str(fleet_parquet[0])], price_per_gpu_hour=2.0)
