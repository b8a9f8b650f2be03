"""Input safety limits and physical bounds, as data (``knowledge/limits.yaml``).

Overrides, later wins: the ``limits:`` section of the settings file (``advisor.yaml``), then a
YAML file named by ``ADVISOR_LIMITS``. Both have the shape of ``knowledge/limits.yaml``.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from advisor.config import ROOT, knowledge_dir, settings
from advisor.datafile import read_mapping


def _merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in extra.items():
        out[key] = _merge(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


@lru_cache(maxsize=8)
def _load(knowledge: str, extra_file: str, settings_key: str) -> dict[str, Any]:
    path = Path(knowledge) / "limits.yaml"
    if not path.is_file():  # a knowledge folder of its own without limits: the shipped ones
        path = ROOT / "knowledge" / "limits.yaml"
    data = read_mapping(path)
    try:
        section = settings().get("limits") or {}
    except Exception:  # a broken settings file is reported where settings are used
        section = {}
    if isinstance(section, dict):
        data = _merge(data, section)
    if extra_file:
        data = _merge(data, read_mapping(Path(extra_file)))
    return data


def limits() -> dict[str, Any]:
    return _load(str(knowledge_dir()), os.environ.get("ADVISOR_LIMITS", ""), os.environ.get("ADVISOR_CONFIG", ""))


def read_limit(name: str, kind: str | None = None) -> float:
    """``reads.<name>`` (or ``reads.<name>.<kind>``, falling back to ``.default``)."""
    value = limits()["reads"][name]
    if isinstance(value, dict):
        value = value.get(kind or "default", value.get("default"))
    return float(value)


def bound(quantity: str) -> tuple[float, float, str]:
    """(min, max, unit) of a physical quantity from ``bounds``."""
    spec = limits()["bounds"].get(quantity) or limits()["bounds"]["generic"]
    return float(spec["min"]), float(spec["max"]), str(spec.get("unit", ""))


def usage_time() -> dict[str, Any]:
    return dict(limits()["usage_time"])
