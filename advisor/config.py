"""Where data lives and which settings apply. Read once; everything else asks here.

Environment variables:

- ``ADVISOR_KNOWLEDGE_DIR``  the ``knowledge/`` folder (catalogs, guides)
- ``ADVISOR_RULES_DIR``      the ``rules/`` folder (rule packs)
- ``ADVISOR_PRICES``         a user price sheet (CSV) whose rows win over list prices
- ``ADVISOR_CONFIG``         a YAML settings file (budget, approval threshold, currency, LLM)
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from advisor.datafile import read_mapping

ROOT = Path(__file__).resolve().parent.parent


@lru_cache(maxsize=16)
def _folder(value: str | None, default: str) -> Path:
    return ROOT / default if value is None else Path(value)


def knowledge_dir() -> Path:
    return _folder(os.environ.get("ADVISOR_KNOWLEDGE_DIR"), "knowledge")


def catalog_dir() -> Path:
    return knowledge_dir() / "catalog"


def guides_dir() -> Path:
    return knowledge_dir() / "guides"


def rules_dir() -> Path:
    return _folder(os.environ.get("ADVISOR_RULES_DIR"), "rules")


def user_prices_path() -> Path | None:
    value = os.environ.get("ADVISOR_PRICES")
    return Path(value) if value else None


@lru_cache(maxsize=4)
def _read_settings(path: str) -> dict:
    return read_mapping(Path(path))


def settings() -> dict:
    """The user's settings file (``ADVISOR_CONFIG`` or ``./advisor.yaml``), or ``{}``."""
    path = os.environ.get("ADVISOR_CONFIG")
    if not path and Path("advisor.yaml").is_file():
        path = "advisor.yaml"
    return dict(_read_settings(str(Path(path).resolve()))) if path else {}
