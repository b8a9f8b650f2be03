"""Engine defaults and the exchange rate, both owned by the engine and only *read* here:

- ``knowledge/catalog/defaults.yaml``: dotted keys (``mfu.a100``) to
  ``{value, unit, source, note?}``; nested mappings are flattened into dotted keys.
- ``knowledge/catalog/fx.yaml``: ``{base: USD, quote: CNY, rate, as_of, source}``.

Both are loaded lazily by :class:`~advisor.catalog.Catalog`, so the catalog works before
the files exist; asking for a missing key names the file and the key.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from advisor.catalog.gpus import Source, Text
from advisor.datafile import data_error, read_yaml
from advisor.errors import DataError, close_matches
from advisor.money import FxRate

_ENTRY_KEYS = {"value", "unit", "source", "note", "kind"}


class DefaultEntry(BaseModel):
    """One default: its value (number, text, list or table), unit and source."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: Text
    value: Any
    unit: str
    source: Source
    note: str | None = None
    kind: Literal["number", "text", "tags"] = "number"  # what the value is (usage_defaults.yaml checks it)


class Defaults:
    """Read-only view of ``defaults.yaml``: ``get(key)`` and ``value(key)``."""

    def __init__(self, path: Path, entries: dict[str, DefaultEntry]) -> None:
        self.path = path
        self._entries = entries

    def get(self, key: str) -> DefaultEntry:
        """The entry for ``key``; DataError naming the file, key and close keys if missing."""
        try:
            return self._entries[key]
        except KeyError:
            near = close_matches(key, self._entries)
            hint = f"did you mean {', '.join(near)}?" if near else None
            raise DataError(str(self.path), "no such default", field=key, hint=hint) from None

    def value(self, key: str) -> Any:
        """The value of ``key`` (numbers come back as Python float/int)."""
        return self.get(key).value

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def keys(self) -> list[str]:
        return list(self._entries)


def _flatten(path: Path, node: Any, prefix: str, out: dict[str, dict[str, Any]]) -> None:
    if not isinstance(node, dict):
        raise DataError(
            str(path), "expected {value, unit, source} or a mapping of keys", field=prefix or None
        )
    if "value" in node and set(node) <= _ENTRY_KEYS:
        out[prefix] = node
        return
    for key, child in node.items():
        _flatten(path, child, f"{prefix}.{key}" if prefix else str(key), out)


def load_defaults(path: Path) -> Defaults:
    """Read ``defaults.yaml`` (flat dotted keys, nested mappings, or under ``defaults:``)."""
    data = read_yaml(path)
    if isinstance(data, dict) and set(data) == {"defaults"}:
        data = data["defaults"]
    raw: dict[str, dict[str, Any]] = {}
    _flatten(path, data, "", raw)
    entries: dict[str, DefaultEntry] = {}
    for key, node in raw.items():
        if "unit" not in node:
            raise DataError(str(path), "required field is missing", row=key, field="unit")
        try:
            entries[key] = DefaultEntry.model_validate({"key": key, **node})
        except ValidationError as exc:
            raise data_error(path, exc, row=key) from exc
    return Defaults(path, entries)


def load_fx(path: Path) -> FxRate:
    """Read ``fx.yaml`` into a dated :class:`~advisor.money.FxRate`."""
    data = read_yaml(path)
    if not isinstance(data, dict):
        raise DataError(str(path), "expected a mapping {base, quote, rate, as_of, source}")
    try:
        rate = FxRate.model_validate({k: str(v) if k == "as_of" else v for k, v in data.items()})
    except ValidationError as exc:
        raise data_error(path, exc, row=None) from exc
    if not math.isfinite(rate.rate) or rate.rate <= 0:
        raise DataError(str(path), f"rate must be a positive number, got {rate.rate}", field="rate")
    if rate.base == rate.quote:
        raise DataError(str(path), "base and quote must differ", field="quote")
    if not rate.source.strip():
        raise DataError(str(path), "source must name where the rate comes from", field="source")
    return rate
