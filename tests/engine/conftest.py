"""Engine test fixtures: a tiny catalog (a few cards, two models, a fixed price sheet) built
from the real data files, so golden breakdowns do not move when list prices are refreshed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from advisor.catalog import get_catalog, load_catalog
from advisor.config import catalog_dir

TINY_GPUS = ("A100-80GB", "A100-40GB", "H100-SXM", "T4", "RTX-4090", "L40S")
TINY_MODELS = ("llama-3.1-8b", "llama-2-70b")
TINY_PRICES = """provider,sku,region,gpu,gpu_count,currency,on_demand_per_hour,spot_per_hour,daily,monthly,yearly,billing_increment_s,as_of,source,note
lambda,8x-a100,,A100-80GB,8,USD,14.32,,,,,60,2025-01,test sheet,fixed price for golden tests
runpod,1x-a100,,A100-80GB,1,USD,1.64,0.82,,,,1,2025-01,test sheet,fixed price for golden tests
lambda,8x-h100,,H100-SXM,8,USD,23.92,,,,,60,2025-01,test sheet,fixed price for golden tests
runpod,1x-4090,,RTX-4090,1,USD,0.69,0.35,,,,1,2025-01,test sheet,fixed price for golden tests
runpod,1x-l40s,,L40S,1,USD,0.99,0.5,,,,1,2025-01,test sheet,fixed price for golden tests
runpod,1x-t4,,T4,1,USD,0.35,,,,,1,2025-01,test sheet,fixed price for golden tests
runpod,1x-a100-40,,A100-40GB,1,USD,1.29,,,,,1,2025-01,test sheet,fixed price for golden tests
"""


def _subset(src: Path, key: str, ids: tuple[str, ...]) -> dict:
    data = yaml.safe_load(src.read_text(encoding="utf-8"))
    data[key] = [row for row in data[key] if row["id"] in ids]
    return data


@pytest.fixture(scope="session")
def tiny_catalog(tmp_path_factory: pytest.TempPathFactory):
    real = catalog_dir()
    d = tmp_path_factory.mktemp("tiny_catalog")
    (d / "gpus.yaml").write_text(yaml.safe_dump(_subset(real / "gpus.yaml", "gpus", TINY_GPUS), allow_unicode=True))
    (d / "models.yaml").write_text(yaml.safe_dump(_subset(real / "models.yaml", "models", TINY_MODELS), allow_unicode=True))
    for name in ("providers.yaml", "defaults.yaml", "fx.yaml"):
        shutil.copy(real / name, d / name)
    (d / "prices").mkdir()
    (d / "prices" / "tiny.csv").write_text(TINY_PRICES, encoding="utf-8")
    return load_catalog(d)


@pytest.fixture(scope="session")
def catalog():
    return get_catalog()
