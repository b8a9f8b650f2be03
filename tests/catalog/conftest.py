"""Fixtures for the catalog tests: the shipped catalog, and a temporary copy of it that a
test may break or extend (defaults.yaml and fx.yaml are written by the tests themselves)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from advisor.catalog import Catalog, load_catalog
from advisor.config import ROOT

CATALOG_DIR = ROOT / "knowledge" / "catalog"
SHIPPED = ("gpus.yaml", "models.yaml", "providers.yaml")

DEFAULTS_YAML = """\
mfu.default:
  value: 0.4
  unit: fraction of peak
  source: "test fixture: CALIBRATION.md implied MFU 0.36-0.51"
billing:
  spot_ratio:
    value: 0.35
    unit: fraction of on-demand
    source: "test fixture"
    note: nested keys are flattened
"""
FX_YAML = 'base: USD\nquote: CNY\nrate: 7.1\nas_of: "2025-06-30"\nsource: "test fixture rate"\n'


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    """The shipped catalog, without any user sheet."""
    return load_catalog(CATALOG_DIR)


@pytest.fixture
def catalog_copy(tmp_path: Path) -> Path:
    """A writable copy of the shipped catalog folder (data files and price sheets only)."""
    target = tmp_path / "catalog"
    (target / "prices").mkdir(parents=True)
    for name in SHIPPED:
        shutil.copy(CATALOG_DIR / name, target / name)
    for sheet in (CATALOG_DIR / "prices").glob("*.csv"):
        shutil.copy(sheet, target / "prices" / sheet.name)
    return target


@pytest.fixture
def knowledge_env(catalog_copy: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point ADVISOR_KNOWLEDGE_DIR at the copy (and clear ADVISOR_PRICES); returns the
    catalog folder."""
    monkeypatch.setenv("ADVISOR_KNOWLEDGE_DIR", str(catalog_copy.parent))
    monkeypatch.delenv("ADVISOR_PRICES", raising=False)
    return catalog_copy


@pytest.fixture
def catalog_with_defaults(catalog_copy: Path) -> Path:
    """The copy plus small defaults.yaml and fx.yaml written for the test."""
    (catalog_copy / "defaults.yaml").write_text(DEFAULTS_YAML, encoding="utf-8")
    (catalog_copy / "fx.yaml").write_text(FX_YAML, encoding="utf-8")
    return catalog_copy
